// The scene writer (zeno/io.h): a zeno_scene as the YAML the loader reads
// (docs/scenes.md), such that loading the text gives back the identical
// scene. Numbers are written in the shortest form that reads back to the
// same double; values the loader derives (radians from degrees, body-frame
// points from scene-frame points and `com`) are written as the input that
// the loader turns into exactly the stored value.
#include "zeno/io.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/io_stream.h"

/// Most significant digits a double needs to round-trip (DBL_DECIMAL_DIG).
#define SCENE_NUMBER_DIGITS 17
/// Room for one formatted number (positional notation below 1e16 included).
#define SCENE_NUMBER_SIZE 48
/// Decimal exponents written in positional notation (Python's repr rule).
#define SCENE_FIXED_MIN_EXPONENT (-4)
#define SCENE_FIXED_MAX_EXPONENT 16

/* ---- numbers ---------------------------------------------------------------- */

/// The shortest decimal text that strtod reads back as v (YAML's .inf and
/// .nan for the values validation rejects anyway).
static void format_number(double v, char *out) {
  if (isnan(v)) {
    strcpy(out, ".nan");
    return;
  }
  if (isinf(v)) {
    strcpy(out, v > 0 ? ".inf" : "-.inf");
    return;
  }
  int digits = 1;
  for (; digits < SCENE_NUMBER_DIGITS; digits++) {
    snprintf(out, SCENE_NUMBER_SIZE, "%.*g", digits, v);
    if (strtod(out, NULL) == v) break;
  }
  if (digits == SCENE_NUMBER_DIGITS) snprintf(out, SCENE_NUMBER_SIZE, "%.*g", digits, v);
  // %g writes 30 with one digit as 3e+01: write such numbers in positional
  // notation with the same digits (1000, not 1e+03), as Python's repr does.
  const char *e = strchr(out, 'e');
  const int exponent = e ? atoi(e + 1) : 0;
  if (e && exponent >= SCENE_FIXED_MIN_EXPONENT && exponent < SCENE_FIXED_MAX_EXPONENT) {
    char fixed[SCENE_NUMBER_SIZE];
    const int decimals = digits - 1 - exponent > 0 ? digits - 1 - exponent : 0;
    snprintf(fixed, sizeof fixed, "%.*f", decimals, v);
    if (strtod(fixed, NULL) == v) strcpy(out, fixed);
  }
}

static void put_number(FILE *f, double v) {
  char text[SCENE_NUMBER_SIZE];
  format_number(v, text);
  fputs(text, f);
}

static void put_numbers(FILE *f, const double *v, size_t n) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    put_number(f, v[i]);
  }
  fputc(']', f);
}

/// The degrees that the loader turns into exactly these radians
/// (degrees * ZENO_RADIANS_PER_DEGREE): the quotient rounds back to the
/// product it came from (the round-trip tests check every case).
static double degrees_of(double radians) { return radians / ZENO_RADIANS_PER_DEGREE; }

/// A body-frame point as the scene-frame point that the loader shifts back
/// into it (written - com), likewise exact.
static void scene_point(const double body[2], const double shift[2], double out[2]) {
  for (int k = 0; k < 2; k++) out[k] = body[k] + shift[k];
}

/* ---- keys --------------------------------------------------------------------- */

static void key_number(FILE *f, const char *indent, const char *key, double v) {
  fprintf(f, "%s%s: ", indent, key);
  put_number(f, v);
  fputc('\n', f);
}

static void key_numbers(FILE *f, const char *indent, const char *key, const double *v, size_t n) {
  fprintf(f, "%s%s: ", indent, key);
  put_numbers(f, v, n);
  fputc('\n', f);
}

/* ---- body, contacts and load ---------------------------------------------------- */

static bool same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/// The paper block (*p, zeno_scene_paper()'s) expands into exactly the
/// scene's contacts and load angle (it does for every scene the loader made
/// with one; a caller may have moved a contact since). Its mass, radius of
/// gyration, load and friction are the scene's own.
static bool paper_form_holds(const zeno_scene *s, zeno_paper_params *p) {
  if (!zeno_scene_paper(s, p)) return false;
  zeno_scene e = *s;
  zeno_scene_apply_paper(&e, p);
  bool same = same_double(e.load_angle, s->load_angle);
  for (int i = 0; same && i < s->contact_count; i++) {
    const zeno_contact_def *a = &e.contacts[i], *b = &s->contacts[i];
    same = a->surface_point_set == b->surface_point_set &&
           same_double(a->surface_angle, b->surface_angle);
    for (int k = 0; same && k < 2; k++)
      same = same_double(a->point[k], b->point[k]) &&
             same_double(a->surface_point[k], b->surface_point[k]);
  }
  return same;
}

static void put_paper(FILE *f, const zeno_paper_params *p) {
  const struct {
    const char *key;
    double value;
  } keys[] = {{"alpha", p->alpha}, {"l1", p->l1},     {"l2", p->l2},   {"h", p->h},
              {"phi1", p->phi1},   {"phi2", p->phi2}, {"mu1", p->mu1}, {"mu2", p->mu2},
              {"rho", p->rho},     {"m", p->m},       {"f", p->f},     {"tau", p->tau}};
  fputs("paper:\n", f);
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    key_number(f, "  ", keys[i].key, keys[i].value);
}

static void put_contacts(FILE *f, const zeno_scene *s) {
  fputs("contacts:\n", f);
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    double point[2];
    scene_point(c->point, s->com_shift, point);
    key_numbers(f, "  - ", "point", point, 2);
    fputs("    surface: {angle: ", f);
    put_number(f, degrees_of(c->surface_angle));
    if (c->surface_point_set) {
      scene_point(c->surface_point, s->com_shift, point);
      fputs(", point: ", f);
      put_numbers(f, point, 2);
    }
    fputs("}\n", f);
    key_number(f, "    ", "mu", c->mu);
  }
}

static void put_load(FILE *f, const zeno_scene *s) {
  fputs("load:\n", f);
  key_number(f, "  ", "magnitude", s->load_magnitude);
  key_number(f, "  ", "angle", degrees_of(s->load_angle));
  key_number(f, "  ", "torque", s->load_torque);
}

/// body: mass and rho in the general form, and the drawing outline.
static void put_body(FILE *f, const zeno_scene *s, bool paper) {
  fputs("body:\n", f);
  if (!paper) {
    key_number(f, "  ", "mass", s->mass);
    key_number(f, "  ", "rho", s->rho);
  }
  if (s->outline_kind == ZENO_OUTLINE_POLYGON) {
    fputs("  outline:\n", f);
    for (size_t k = 0; k < s->outline_count && k < ZENO_MAX_OUTLINE; k++) {
      double vertex[2];
      scene_point(s->outline[k], s->com_shift, vertex);
      fputs("    - ", f);
      put_numbers(f, vertex, 2);
      fputc('\n', f);
    }
  } else {
    fprintf(f, "  outline: %s\n", s->outline_kind == ZENO_OUTLINE_DISK ? "disk" : "biped");
  }
  key_number(f, "  ", "outline_radius", s->outline_radius);
}

/* ---- the other sections ----------------------------------------------------------- */

static void put_header(FILE *f, const zeno_scene *s) {
  fputs("name: ", f);
  zeno_io_json_string(f, s->name, NULL);  // a JSON string is a YAML double-quoted scalar
  fprintf(f, "\nmodel: %s\n", zeno_model_name(s->model));
  key_number(f, "", "epsilon", s->epsilon);
  fprintf(f, "ambiguity: %s\n", zeno_ambiguity_policy_name(s->ambiguity));
}

static void put_run(FILE *f, const zeno_scene *s) {
  fprintf(f, "impact:\n  law: %s\n", zeno_impact_law_name(s->impact_law));
  key_number(f, "  ", "e", s->restitution);
  key_number(f, "  ", "et", s->tangential_restitution);
  const bool zod = s->initial_kind == ZENO_INITIAL_ZOD;
  fputs("initial:\n", f);
  key_numbers(f, "  ", zod ? "qp" : "pose", zod ? s->initial_qp : s->initial_pose, 3);
  key_numbers(f, "  ", zod ? "qdp" : "velocity", zod ? s->initial_qdp : s->initial_velocity, 3);
  fputs("stop:\n", f);
  key_number(f, "  ", "t_end", s->t_end);
  fprintf(f, "  max_events: %ld\n", s->max_events);
  key_number(f, "  ", "escape_radius", s->escape_radius);
  key_number(f, "  ", "wall_time", s->wall_time);
  fputs("solver:\n", f);
  key_number(f, "  ", "rtol", s->rtol);
  key_number(f, "  ", "atol", s->atol);
  key_number(f, "  ", "sample_dt", s->sample_dt);
}

zeno_status zeno_io_scene_yaml(FILE *stream, const zeno_scene *scene, zeno_error *error) {
  if (stream == NULL || scene == NULL) return io_no_stream(error);
  zeno_locale_scope scope;  // '.' as the decimal point whatever the caller's locale
  zeno_locale_enter(&scope);
  zeno_paper_params block;
  const bool paper = paper_form_holds(scene, &block);
  put_header(stream, scene);
  if (paper) put_paper(stream, &block);
  fputs("com:\n", stream);
  key_number(stream, "  ", "x", scene->com_shift[0]);
  key_number(stream, "  ", "y", scene->com_shift[1]);
  put_body(stream, scene, paper);
  if (!paper) {
    put_contacts(stream, scene);
    put_load(stream, scene);
  }
  put_run(stream, scene);
  zeno_locale_leave(&scope);
  return io_stream_status(stream, error);
}
