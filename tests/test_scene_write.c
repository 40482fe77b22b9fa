// Tests of the scene writer zeno_io_scene_yaml() (src/io/io_scene_yaml.c):
// load -> write -> load gives the identical scene, field by field and bit
// for bit, for every shipped scene, for general-form scenes with a moved
// centre of mass, polygon outlines, surface points and every impact law,
// for a sweep of awkward angles and shifts, and for quoted names; a scene
// whose paper block no longer matches its contacts is written in the
// general form; stream errors are reported.
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zeno/zeno.h"

#ifndef ZENO_SCENES_DIR
#error "ZENO_SCENES_DIR must name the scenes/ directory"
#endif

/// Room for a path and for one formatted error.
#define PATH_LEN 512
#define LINE_LEN 1024
/// Overrides of one sweep point.
#define SWEEP_OVERRIDES 4

/* ---- comparing scenes ----------------------------------------------------- */

/// Doubles are the same bits (so -0 differs from 0, as a reload would show).
static bool same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static bool same_n(const double *a, const double *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!same(a[i], b[i])) return false;
  return true;
}

/// Fails the test naming the first field in which the scenes differ.
#define FIELD(ok, name)                                      \
  do {                                                       \
    if (!(ok)) {                                             \
      print_error("scenes differ in %s (%s)\n", name, what); \
      fail();                                                \
    }                                                        \
  } while (0)

static void assert_contact_equal(const zeno_contact_def *a, const zeno_contact_def *b,
                                 const char *what) {
  FIELD(same_n(a->point, b->point, 2), "contact point");
  FIELD(same(a->surface_angle, b->surface_angle), "surface_angle");
  FIELD(same_n(a->surface_point, b->surface_point, 2), "surface_point");
  FIELD(a->surface_point_set == b->surface_point_set, "surface_point_set");
  FIELD(same(a->mu, b->mu), "mu");
}

static void assert_paper_equal(const zeno_paper_geometry *a, const zeno_paper_geometry *b,
                               const char *what) {
  const double va[] = {a->alpha, a->l1, a->l2, a->h, a->phi1, a->phi2};
  const double vb[] = {b->alpha, b->l1, b->l2, b->h, b->phi1, b->phi2};
  FIELD(same_n(va, vb, sizeof va / sizeof va[0]), "paper");
}

/// Every field of zeno_scene.
static void assert_scene_equal(const zeno_scene *a, const zeno_scene *b, const char *what) {
  FIELD(strcmp(a->name, b->name) == 0, "name");
  FIELD(same(a->mass, b->mass) && same(a->rho, b->rho), "mass, rho");
  FIELD(a->outline_kind == b->outline_kind, "outline_kind");
  FIELD(a->outline_count == b->outline_count, "outline_count");
  for (size_t k = 0; k < ZENO_MAX_OUTLINE; k++)
    FIELD(same_n(a->outline[k], b->outline[k], 2), "outline");
  FIELD(same(a->outline_radius, b->outline_radius), "outline_radius");
  FIELD(a->contact_count == b->contact_count, "contact_count");
  for (int i = 0; i < ZENO_MAX_CONTACTS; i++)
    assert_contact_equal(&a->contacts[i], &b->contacts[i], what);
  FIELD(same(a->load_magnitude, b->load_magnitude), "load_magnitude");
  FIELD(same(a->load_angle, b->load_angle), "load_angle");
  FIELD(same(a->load_torque, b->load_torque), "load_torque");
  FIELD(a->has_paper == b->has_paper, "has_paper");
  assert_paper_equal(&a->paper, &b->paper, what);
  FIELD(same_n(a->com_shift, b->com_shift, 2), "com_shift");
  FIELD(a->impact_law == b->impact_law, "impact_law");
  FIELD(same(a->restitution, b->restitution), "restitution");
  FIELD(same(a->tangential_restitution, b->tangential_restitution), "tangential_restitution");
  FIELD(a->initial_kind == b->initial_kind, "initial_kind");
  FIELD(same_n(a->initial_qp, b->initial_qp, 3), "initial_qp");
  FIELD(same_n(a->initial_qdp, b->initial_qdp, 3), "initial_qdp");
  FIELD(same_n(a->initial_pose, b->initial_pose, 3), "initial_pose");
  FIELD(same_n(a->initial_velocity, b->initial_velocity, 3), "initial_velocity");
  FIELD(a->model == b->model && same(a->epsilon, b->epsilon), "model, epsilon");
  FIELD(same(a->t_end, b->t_end), "t_end");
  FIELD(a->max_events == b->max_events, "max_events");
  FIELD(same(a->escape_radius, b->escape_radius), "escape_radius");
  FIELD(same(a->rtol, b->rtol) && same(a->atol, b->atol), "rtol, atol");
  FIELD(same(a->sample_dt, b->sample_dt), "sample_dt");
  FIELD(a->ambiguity == b->ambiguity, "ambiguity");
  FIELD(same(a->wall_time, b->wall_time), "wall_time");
}

/* ---- writing and reloading ------------------------------------------------ */

/// The scene as YAML text (free()).
static char *write_scene(const zeno_scene *s) {
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  assert_non_null(f);
  zeno_error e;
  assert_int_equal(zeno_io_scene_yaml(f, s, &e), ZENO_OK);
  assert_int_equal(fclose(f), 0);
  return text;
}

static void assert_loaded(zeno_status st, const zeno_error *e, const char *what) {
  if (st != ZENO_OK) {
    char line[LINE_LEN];
    zeno_error_format(e, line, sizeof line);
    print_error("%s: %s\n", what, line);
  }
  assert_int_equal(st, ZENO_OK);
}

/// Writes s, loads the text back and checks the scenes are identical; the
/// text written from the reloaded scene is the same text. Returns the text.
static char *assert_round_trip(const zeno_scene *s, const char *what) {
  char *text = write_scene(s);
  zeno_scene back;
  zeno_error e;
  assert_loaded(zeno_scene_load_string(text, "written.yaml", NULL, 0, &back, &e), &e, text);
  assert_scene_equal(s, &back, what);
  char *again = write_scene(&back);
  assert_string_equal(text, again);
  free(again);
  return text;
}

static zeno_scene load_text(const char *text, const char *const *overrides, size_t n) {
  zeno_scene s;
  zeno_error e;
  assert_loaded(zeno_scene_load_string(text, "test.yaml", overrides, n, &s, &e), &e, text);
  return s;
}

/* ---- tests ----------------------------------------------------------------- */

static void test_shipped_scenes(void **state) {
  (void)state;
  DIR *dir = opendir(ZENO_SCENES_DIR);
  assert_non_null(dir);
  int count = 0;
  for (struct dirent *d; (d = readdir(dir)) != NULL;) {
    const size_t n = strlen(d->d_name);
    if (n < 5 || strcmp(d->d_name + n - 5, ".yaml") != 0) continue;
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, d->d_name);
    zeno_scene s;
    zeno_error e;
    assert_loaded(zeno_scene_load(path, NULL, 0, &s, &e), &e, path);
    free(assert_round_trip(&s, path));
    count++;
  }
  closedir(dir);
  assert_true(count >= 9);
}

static void test_example2_text(void **state) {
  (void)state;
  zeno_scene s;
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR "/example2.yaml", NULL, 0, &s, NULL), ZENO_OK);
  char *text = assert_round_trip(&s, "example2");
  // The paper form, with the file's numbers in their shortest spelling.
  assert_non_null(strstr(text, "name: \"example2\"\n"));
  assert_non_null(strstr(text,
                         "paper:\n  alpha: 65\n  l1: -3.5\n  l2: 2.25\n  h: 1.25\n"
                         "  phi1: 75\n  phi2: 30\n  mu1: 0.75\n  mu2: 0.6\n"));
  assert_non_null(strstr(text, "  qdp: [0, 0, 2]\n"));
  assert_non_null(strstr(text, "  sample_dt: 0.01\n"));
  assert_null(strstr(text, "contacts:"));
  free(text);
}

// General form: a moved centre of mass, surface points, a polygon, the
// Chatterjee-Ruina law, the full model and the other settings off default.
static const char GENERAL[] =
    "name: \"general \\\"quoted\\\" \\\\ slash \xc3\xbc\"\n"
    "model: full\nepsilon: 0.0123\nambiguity: prefer-static\n"
    "com: {x: 0.1, y: -0.37}\n"
    "body:\n  mass: 2.5\n  rho: 0.7\n"
    "  outline: [[-1.3, -0.4], [1.1, -0.4], [0.3, 0.9], [-0.2, 1.7]]\n"
    "contacts:\n"
    "  - point: [-1.3, -0.4]\n    surface: {angle: 42.5, point: [-2.037277336810124, -1.07559020761566]}\n"
    "    mu: 0.45\n"
    "  - point: [1.1, -0.4]\n    surface: {angle: -14.2}\n    mu: 0.3\n"
    "load: {magnitude: 9.81, angle: 13.7, torque: 0.2}\n"
    "impact: {law: chatterjee-ruina, e: 0.3, et: -0.1}\n"
    "initial: {pose: [0.01, 0.02, 0.003], velocity: [0.1, 0.2, -0.3]}\n"
    "stop: {t_end: 12.5, max_events: 777, escape_radius: 55, wall_time: 3}\n"
    "solver: {rtol: 1e-9, atol: 3e-11, sample_dt: 0.003}\n";

static void test_general_form(void **state) {
  (void)state;
  zeno_scene s = load_text(GENERAL, NULL, 0);
  assert_false(s.has_paper);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_POLYGON);
  assert_true(s.contacts[0].surface_point_set);
  char *text = assert_round_trip(&s, "general form");
  assert_non_null(strstr(text, "contacts:\n  - point: [-1.3, -0.4]\n"));
  assert_non_null(
      strstr(text, "    surface: {angle: 42.5, point: [-2.037277336810124, -1.07559020761566]}\n"));
  assert_non_null(strstr(text, "  law: chatterjee-ruina\n"));
  free(text);
  // One contact, Newton's law, a disk (the bouncing ball's form).
  zeno_scene ball = load_text(
      "body: {mass: 1, rho: 0.06, outline: disk, outline_radius: 0.1}\n"
      "contacts: [{point: [0, -0.1], mu: 0.5}]\n"
      "load: {magnitude: 9.81}\n"
      "impact: {law: newton, e: 0.8}\n"
      "initial: {pose: [0, 1, 0]}\n",
      NULL, 0);
  free(assert_round_trip(&ball, "one contact"));
}

// Angles in degrees and points shifted by com over many values: each is
// written as the input that loads into exactly the stored double.
static void test_sweep_of_angles_and_shifts(void **state) {
  (void)state;
  int points = 0;
  for (int i = 0; i < 240; i++) {
    char angle[64], com[96], load[64], alpha[64];
    snprintf(angle, sizeof angle, "contacts.1.surface.angle=%.10g", -359.7 + 2.9973 * i);
    snprintf(com, sizeof com, "com={x: %.10g, y: %.10g}", 0.1 * i - 11.3, 1e-3 * i * i - 7.7);
    snprintf(load, sizeof load, "load.angle=%.10g", 181.1 - 1.37 * i);
    const char *general[SWEEP_OVERRIDES] = {angle, com, load, "contacts.0.mu=0.33"};
    zeno_scene s = load_text(GENERAL, general, SWEEP_OVERRIDES);
    free(assert_round_trip(&s, angle));
    // The paper form keeps its numbers as written; com moves its contacts.
    snprintf(alpha, sizeof alpha, "paper.alpha=%.10g", 0.137 * i - 15);
    const char *paper[2] = {alpha, com};
    zeno_scene p = load_text(
        "paper: {alpha: 45, l1: 1.5, l2: -0.1, h: 0.6, phi1: 80, "
        "phi2: 40, mu1: 0.6, mu2: 0.001}\n",
        paper, 2);
    free(assert_round_trip(&p, alpha));
    points++;
  }
  // Shifts from far below to far above the scene's size.
  for (int k = -12; k <= 9; k++) {  // (beyond 1e9 the contacts coincide to 1e-9)
    char com[96];
    snprintf(com, sizeof com, "com={x: %.10ge%d, y: %.10ge%d}", 1.234567891, k, -7.654321987,
             k / 2);
    const char *general[1] = {com};
    zeno_scene s = load_text(GENERAL, general, 1);
    free(assert_round_trip(&s, com));
    points++;
  }
  assert_int_equal(points, 262);
}

// The same run from a scene and from its written text read back.
static void assert_same_run(const zeno_scene *s, const zeno_scene *back) {
  zeno_sim_def def = zeno_sim_def_default();
  zeno_summary a, b;
  char wa[4096], wb[4096];
  assert_int_equal(zeno_run(s, &def, &a, wa, sizeof wa, NULL), ZENO_OK);
  assert_int_equal(zeno_run(back, &def, &b, wb, sizeof wb, NULL), ZENO_OK);
  assert_string_equal(wa, wb);
  assert_true(same_n(a.final_state.zod, b.final_state.zod, 3));
}

// A paper scene whose friction was changed after loading keeps its paper
// block, with the new coefficient: the friction is stored once, in the
// contacts. One whose contact moved no longer expands from its paper block:
// the general form keeps the physics.
static void test_stale_paper_block(void **state) {
  (void)state;
  zeno_scene s;
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR "/example3-zeno.yaml", NULL, 0, &s, NULL),
                   ZENO_OK);
  s.contacts[1].mu = 0.25;
  char *text = write_scene(&s);
  assert_non_null(strstr(text, "paper:"));
  assert_non_null(strstr(text, "mu2: 0.25\n"));
  zeno_scene back = load_text(text, NULL, 0);
  assert_true(back.has_paper);
  for (int i = 0; i < 2; i++) assert_contact_equal(&s.contacts[i], &back.contacts[i], text);
  assert_same_run(&s, &back);
  free(text);

  s.contacts[1].point[0] += 0.125;  // its surface through it, as the paper's
  s.contacts[1].surface_point[0] += 0.125;
  text = write_scene(&s);
  assert_null(strstr(text, "paper:"));
  assert_non_null(strstr(text, "contacts:"));
  back = load_text(text, NULL, 0);
  assert_false(back.has_paper);
  for (int i = 0; i < 2; i++) assert_contact_equal(&s.contacts[i], &back.contacts[i], text);
  assert_true(same(s.load_angle, back.load_angle) && same(s.mass, back.mass));
  assert_same_run(&s, &back);
  free(text);
}

static void test_errors(void **state) {
  (void)state;
  const zeno_scene s = zeno_scene_default();
  zeno_error e;
  assert_int_equal(zeno_io_scene_yaml(NULL, &s, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_scene_yaml(stdout, NULL, NULL), ZENO_ERR_ARGUMENT);
  FILE *full = fopen("/dev/full", "w");
  if (full == NULL) skip();
  setvbuf(full, NULL, _IONBF, 0);  // every write reaches the device at once
  assert_int_equal(zeno_io_scene_yaml(full, &s, &e), ZENO_ERR_IO);
  assert_int_equal(e.code, ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "write error"));
  fclose(full);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shipped_scenes),    cmocka_unit_test(test_example2_text),
      cmocka_unit_test(test_general_form),      cmocka_unit_test(test_sweep_of_angles_and_shifts),
      cmocka_unit_test(test_stale_paper_block), cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
