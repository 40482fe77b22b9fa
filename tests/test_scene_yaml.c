// Tests of the YAML scene loader (src/scene_yaml*.c, src/yaml_tree.c): the
// shipped scenes, the paper and general forms, --set overrides, and every
// error class with its exact code, line, column, message and formatted line.
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "zeno/scene.h"

#ifndef ZENO_SCENES_DIR
#error "ZENO_SCENES_DIR must name the scenes/ directory"
#endif

/// Degrees to radians, the way the loader converts them.
#define DEG(x) ((x)*ZENO_RADIANS_PER_DEGREE)
/// Angles converted from degrees must agree to rounding.
#define ANGLE_TOL 1e-15
/// Values written with ten significant digits in a scene file.
#define FILE_DIGITS_TOL 1e-10
/// Room for a scene file path.
#define PATH_LEN 512
/// The shipped scenes the documentation lists.
#define SHIPPED_SCENES 8
/// Room for one line of zeno_error_format().
#define ERROR_LINE_LEN 1024

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

// Loads scenes/<base> with overrides, failing the test with the loader's
// message if it does not load.
static zeno_scene load_file_with(const char *base, const char *const *overrides, size_t count) {
  char path[PATH_LEN];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, base);
  zeno_scene s;
  zeno_error e;
  zeno_status st = zeno_scene_load(path, overrides, count, &s, &e);
  if (st != ZENO_OK) {
    char text[1024];
    zeno_error_format(&e, text, sizeof text);
    print_error("%s: %s\n", path, text);
  }
  assert_int_equal(st, ZENO_OK);
  assert_int_equal(e.code, ZENO_OK);
  return s;
}

static zeno_scene load_file(const char *base) { return load_file_with(base, NULL, 0); }

static zeno_scene load_text_with(const char *text, const char *const *overrides, size_t count) {
  zeno_scene s;
  zeno_error e;
  zeno_status st = zeno_scene_load_string(text, "t.yaml", overrides, count, &s, &e);
  if (st != ZENO_OK) {
    char msg[1024];
    zeno_error_format(&e, msg, sizeof msg);
    print_error("%s\n", msg);
  }
  assert_int_equal(st, ZENO_OK);
  return s;
}

static zeno_scene load_text(const char *text) { return load_text_with(text, NULL, 0); }

// Loads text that must fail; checks code, position and a message piece.
static zeno_error expect_error_with(const char *text, const char *const *overrides, size_t count,
                                    zeno_status code, int line, int column,
                                    const char *message_part) {
  zeno_scene s;
  zeno_error e;
  zeno_status st = zeno_scene_load_string(text, "t.yaml", overrides, count, &s, &e);
  if (st != code || strstr(e.message, message_part) == NULL)
    print_error("got %s at %d:%d: %s\n", zeno_status_name(st), e.line, e.column, e.message);
  assert_int_equal(st, code);
  assert_int_equal(e.code, code);
  assert_int_equal(e.line, line);
  assert_int_equal(e.column, column);
  assert_non_null(strstr(e.message, message_part));
  if (line > 0) assert_string_equal(e.file, "t.yaml");
  return e;
}

static zeno_error expect_error(const char *text, zeno_status code, int line, int column,
                               const char *message_part) {
  return expect_error_with(text, NULL, 0, code, line, column, message_part);
}

// An error raised inside a --set expression: no file position.
static zeno_error expect_override_error(const char *text, const char *override, zeno_status code,
                                        const char *message_part) {
  const char *overrides[] = {override};
  zeno_error e = expect_error_with(text, overrides, 1, code, 0, 0, message_part);
  assert_string_equal(e.file, "--set");
  char quoted[256];
  snprintf(quoted, sizeof quoted, "--set %s: ", override);
  assert_memory_equal(e.message, quoted, strlen(quoted));
  return e;
}

static void assert_point(const double *p, double x, double y, double tol) {
  assert_float_equal(p[0], x, tol);
  assert_float_equal(p[1], y, tol);
}

static void assert_vec3(const double *v, double a, double b, double c) {
  assert_float_equal(v[0], a, 0);
  assert_float_equal(v[1], b, 0);
  assert_float_equal(v[2], c, 0);
}

// The fields a paper block sets, compared exactly.
static void assert_same_body(const zeno_scene *a, const zeno_scene *b) {
  assert_true(a->has_paper == b->has_paper);
  assert_memory_equal(&a->paper, &b->paper, sizeof a->paper);
  assert_true(a->mass == b->mass && a->rho == b->rho);
  assert_int_equal(a->contact_count, b->contact_count);
  for (int i = 0; i < a->contact_count; i++) {
    const zeno_contact_def *ca = &a->contacts[i], *cb = &b->contacts[i];
    assert_true(ca->point[0] == cb->point[0] && ca->point[1] == cb->point[1]);
    assert_true(ca->surface_angle == cb->surface_angle);
    assert_true(ca->surface_point[0] == cb->surface_point[0]);
    assert_true(ca->surface_point[1] == cb->surface_point[1]);
    assert_true(ca->surface_point_set == cb->surface_point_set);
    assert_true(ca->mu == cb->mu);
  }
  assert_true(a->load_magnitude == b->load_magnitude);
  assert_true(a->load_angle == b->load_angle);
  assert_true(a->load_torque == b->load_torque);
  assert_true(a->com_shift[0] == b->com_shift[0]);
  assert_true(a->com_shift[1] == b->com_shift[1]);
}

// Everything a scene file can set, compared with the defaults.
static void assert_default_scene(const zeno_scene *s) {
  zeno_scene d = zeno_scene_default();
  assert_same_body(s, &d);
  assert_int_equal(s->outline_kind, d.outline_kind);
  assert_true(s->outline_radius == d.outline_radius);
  assert_int_equal(s->impact_law, d.impact_law);
  assert_true(s->restitution == d.restitution);
  assert_int_equal(s->initial_kind, d.initial_kind);
  assert_memory_equal(s->initial_qp, d.initial_qp, sizeof d.initial_qp);
  assert_memory_equal(s->initial_qdp, d.initial_qdp, sizeof d.initial_qdp);
  assert_int_equal(s->model, d.model);
  assert_true(s->epsilon == d.epsilon && s->t_end == d.t_end);
  assert_int_equal(s->max_events, d.max_events);
  assert_true(s->escape_radius == d.escape_radius);
  assert_true(s->rtol == d.rtol && s->atol == d.atol);
  assert_true(s->sample_dt == d.sample_dt);
  assert_int_equal(s->ambiguity, d.ambiguity);
}

/// Two-contact general-form scene used by several error tests (a flat
/// floor, initial state in pose form so one contact would also do).
static const char GENERAL_TWO[] =
    "body: {mass: 1, rho: 1}\n"
    "load: {magnitude: 1}\n"
    "contacts:\n"
    "  - point: [-1, -1]\n"
    "    mu: 0.5\n"
    "  - point: [1, -1]\n"
    "    mu: 0.5\n"
    "initial: {pose: [0, 0.1, 0]}\n";

/// Example 2 as a paper block on one line (also the body of scenes that
/// test other sections: a scene must name its body).
#define PAPER_EXAMPLE2                                                   \
  "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, " \
  "mu1: 0.75, mu2: 0.6}\n"

/* ------------------------------------------------------------------------ */
/* Shipped scenes                                                            */
/* ------------------------------------------------------------------------ */

static void test_every_shipped_scene_loads(void **state) {
  (void)state;
  DIR *dir = opendir(ZENO_SCENES_DIR);
  assert_non_null(dir);
  int loaded = 0;
  for (struct dirent *d = readdir(dir); d != NULL; d = readdir(dir)) {
    size_t n = strlen(d->d_name);
    if (n < 5 || strcmp(d->d_name + n - 5, ".yaml") != 0) continue;
    zeno_scene s = load_file(d->d_name);
    assert_true(s.contact_count >= 1);
    loaded++;
  }
  closedir(dir);
  assert_true(loaded >= SHIPPED_SCENES);
}

static void test_example2_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("example2.yaml");
  assert_string_equal(s.name, "example2");
  assert_true(s.has_paper);
  assert_int_equal(s.model, ZENO_MODEL_ZOD);
  assert_int_equal(s.contact_count, 2);
  assert_point(s.contacts[0].point, -3.5, -1.25, 0);
  assert_point(s.contacts[1].point, 2.25, -1.25, 0);
  assert_float_equal(s.contacts[0].surface_angle, DEG(75.0), ANGLE_TOL);
  assert_float_equal(s.contacts[1].surface_angle, DEG(30.0), ANGLE_TOL);
  assert_float_equal(s.contacts[0].mu, 0.75, 0);
  assert_float_equal(s.contacts[1].mu, 0.6, 0);
  // f_ex = |f| (sin alpha, -cos alpha)
  assert_float_equal(sin(s.load_angle), sin(DEG(65.0)), ANGLE_TOL);
  assert_float_equal(-cos(s.load_angle), -cos(DEG(65.0)), ANGLE_TOL);
  assert_true(s.mass == 1 && s.rho == 1 && s.load_magnitude == 1);
  assert_float_equal(s.load_torque, 0, 0);
  assert_int_equal(s.impact_law, ZENO_LAW_INELASTIC);
  assert_int_equal(s.initial_kind, ZENO_INITIAL_ZOD);
  assert_vec3(s.initial_qp, 1, 1, 0);
  assert_vec3(s.initial_qdp, 0, 0, 2);
}

static void test_example3_zeno_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("example3-zeno.yaml");
  assert_float_equal(s.load_angle, DEG(45.0), ANGLE_TOL);
  assert_point(s.contacts[0].point, 1.5, -0.6, 0);
  assert_point(s.contacts[1].point, -0.1, -0.6, 0);
  assert_float_equal(s.contacts[0].surface_angle, DEG(80.0), ANGLE_TOL);
  assert_float_equal(s.contacts[1].surface_angle, DEG(40.0), ANGLE_TOL);
  assert_float_equal(s.contacts[0].mu, 0.6, 0);
  assert_float_equal(s.contacts[1].mu, 0.001, 0);
  assert_true(s.mass == 1 && s.rho == 1 && s.load_magnitude == 1);
  assert_vec3(s.initial_qp, 0.1, 0.1, 0);
  assert_vec3(s.initial_qdp, 0.1, 0, -1.5);
}

static void test_example3_reverse_scene(void **state) {
  (void)state;
  zeno_scene zeno = load_file("example3-zeno.yaml");
  zeno_scene s = load_file("example3-reverse.yaml");
  assert_same_body(&s, &zeno);
  assert_vec3(s.initial_qp, 0.1, 0.1, 0);
  assert_vec3(s.initial_qdp, 0.1, 0, 1.1);
}

static void test_example4_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("example4.yaml");
  assert_float_equal(s.load_angle, DEG(10.0), ANGLE_TOL);
  assert_point(s.contacts[0].point, 1.5, -0.15, 0);
  assert_point(s.contacts[1].point, -0.3, -0.15, 0);
  assert_float_equal(s.contacts[0].surface_angle, DEG(42.5), ANGLE_TOL);
  assert_float_equal(s.contacts[1].surface_angle, DEG(14.2), ANGLE_TOL);
  assert_float_equal(s.contacts[0].mu, 0.55, 0);
  assert_float_equal(s.contacts[1].mu, 0.2, 0);
  assert_vec3(s.initial_qdp, 0.1, 0, 0.5);
}

static void test_example7_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("example7.yaml");
  assert_float_equal(s.load_angle, DEG(15.0), ANGLE_TOL);
  assert_point(s.contacts[0].point, 1, -0.4, 0);
  assert_point(s.contacts[1].point, 0.1, -0.4, 0);
  assert_float_equal(s.contacts[0].surface_angle, 0, 0);
  assert_float_equal(s.contacts[1].surface_angle, 0, 0);
  assert_float_equal(s.contacts[0].mu, 0.45, 0);
  assert_float_equal(s.contacts[1].mu, 0.5, 0);
  assert_vec3(s.initial_qdp, 0, 0, 0.1);
}

static void test_bouncing_ball_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("bouncing-ball.yaml");
  assert_false(s.has_paper);
  assert_int_equal(s.contact_count, 1);
  assert_point(s.contacts[0].point, 0, -0.1, 0);
  assert_point(s.contacts[0].surface_point, 0, -0.1, 0);
  assert_false(s.contacts[0].surface_point_set);
  assert_float_equal(s.contacts[0].surface_angle, 0, 0);
  assert_float_equal(s.contacts[0].mu, 0.5, 0);
  assert_float_equal(s.mass, 1, 0);
  assert_true(fabs(s.rho - sqrt(0.4) * 0.1) <= FILE_DIGITS_TOL);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_DISK);
  assert_float_equal(s.outline_radius, 0.1, 0);
  assert_float_equal(s.load_magnitude, 9.81, 0);
  assert_float_equal(s.load_angle, 0, 0);
  assert_int_equal(s.impact_law, ZENO_LAW_NEWTON);
  assert_float_equal(s.restitution, 0.8, 0);
  assert_int_equal(s.initial_kind, ZENO_INITIAL_POSE);
  assert_vec3(s.initial_pose, 0, 1, 0);
  assert_vec3(s.initial_velocity, 0, 0, 0);
  assert_float_equal(s.t_end, 20, 0);
}

static void test_sliding_block_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("sliding-block.yaml");
  assert_point(s.contacts[0].point, -0.5, -0.25, 0);
  assert_point(s.contacts[1].point, 0.5, -0.25, 0);
  assert_float_equal(s.contacts[0].mu, 0.3, 0);
  assert_true(fabs(s.rho - sqrt((0.25 + 0.0625) / 3)) <= FILE_DIGITS_TOL);
  assert_float_equal(s.load_magnitude, 9.81, 0);
  assert_float_equal(s.load_angle, 0, 0);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_POLYGON);
  assert_int_equal(s.outline_count, 4);
  assert_point(s.outline[1], 0.5, -0.25, 0);
  assert_point(s.outline[3], -0.5, 0.25, 0);
  assert_vec3(s.initial_qp, 0, 0, 0);
  assert_vec3(s.initial_qdp, 0, 0, 2);
}

static void test_rocking_block_scene(void **state) {
  (void)state;
  zeno_scene s = load_file("rocking-block.yaml");
  assert_point(s.contacts[0].point, -1, -2, 0);
  assert_point(s.contacts[1].point, 1, -2, 0);
  assert_float_equal(s.rho, sqrt(5.0 / 3.0), FILE_DIGITS_TOL);
  assert_float_equal(s.load_magnitude, 9.81, 0);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_POLYGON);
  assert_int_equal(s.outline_count, 4);
  assert_point(s.outline[2], 1, 2, 0);
  assert_vec3(s.initial_qp, 0, 0.01, 0);
  assert_vec3(s.initial_qdp, 0, 0, 0);
}

/* ------------------------------------------------------------------------ */
/* load_string: forms and defaults                                           */
/* ------------------------------------------------------------------------ */

static void test_paper_block_matches_apply_paper(void **state) {
  (void)state;
  zeno_scene s = load_text(
      "paper: {alpha: 30, l1: -1, l2: 2, h: 0.5, phi1: 10, phi2: -20,\n"
      "        mu1: 0.4, mu2: 0.7, rho: 2, m: 3, f: 4, tau: 0.5}\n");
  zeno_paper_params p = {.alpha = 30,
                         .l1 = -1,
                         .l2 = 2,
                         .h = 0.5,
                         .phi1 = 10,
                         .phi2 = -20,
                         .mu1 = 0.4,
                         .mu2 = 0.7,
                         .rho = 2,
                         .m = 3,
                         .f = 4,
                         .tau = 0.5};
  zeno_scene expected = zeno_scene_default();
  zeno_scene_apply_paper(&expected, &p);
  assert_same_body(&s, &expected);
}

static void test_paper_optional_keys_default(void **state) {
  (void)state;
  zeno_scene s = load_text(PAPER_EXAMPLE2);
  zeno_scene expected = zeno_scene_default();
  zeno_paper_params p = zeno_paper_example2();
  zeno_scene_apply_paper(&expected, &p);
  assert_same_body(&s, &expected);
  zeno_paper_params block;
  assert_true(zeno_scene_paper(&s, &block));
  assert_true(block.rho == 1 && block.m == 1 && block.f == 1);
  assert_float_equal(block.tau, 0, 0);
  // Stored once, in the general form.
  assert_true(s.rho == 1 && s.mass == 1 && s.load_magnitude == 1 && s.load_torque == 0);
}

static void test_paper_with_com_shift(void **state) {
  (void)state;
  char text[512];
  snprintf(text, sizeof text, "%scom: {x: 0.5, y: 0.25}\n", PAPER_EXAMPLE2);
  zeno_scene s = load_text(text);
  zeno_scene expected = zeno_scene_default();
  expected.com_shift[0] = 0.5;
  expected.com_shift[1] = 0.25;
  zeno_paper_params p = zeno_paper_example2();
  zeno_scene_apply_paper(&expected, &p);
  assert_same_body(&s, &expected);
  assert_point(s.contacts[0].point, -4.0, -1.5, 0);
}

static void test_general_form_com_shift(void **state) {
  (void)state;
  zeno_scene s = load_text(
      "com: {x: 0.5, y: -0.5}\n"
      "body: {mass: 2, rho: 0.5, outline: [[-1, -1], [1, -1], [0, 1]]}\n"
      "load: {magnitude: 3}\n"
      "contacts:\n"
      "  - point: [-1, -1]\n"
      "    surface: {angle: 0, point: [5, -1]}\n"
      "    mu: 0.5\n"
      "  - point: [1, -1]\n"
      "    mu: 0.5\n");
  assert_point(s.contacts[0].point, -1.5, -0.5, 0);
  assert_point(s.contacts[0].surface_point, 4.5, -0.5, 0);
  assert_true(s.contacts[0].surface_point_set);
  assert_point(s.contacts[1].point, 0.5, -0.5, 0);
  assert_point(s.contacts[1].surface_point, 0.5, -0.5, 0);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_POLYGON);
  assert_point(s.outline[2], -0.5, 1.5, 0);
}

static void test_general_form_defaults(void **state) {
  (void)state;
  zeno_scene s = load_text(GENERAL_TWO);
  assert_false(s.has_paper);
  assert_true(s.mass == 1 && s.rho == 1);
  assert_int_equal(s.contact_count, 2);
  for (int i = 0; i < 2; i++) {
    assert_float_equal(s.contacts[i].surface_angle, 0, 0);
    assert_false(s.contacts[i].surface_point_set);
    assert_point(s.contacts[i].surface_point, s.contacts[i].point[0], s.contacts[i].point[1], 0);
  }
  assert_float_equal(s.load_angle, 0, 0);
  assert_float_equal(s.load_torque, 0, 0);
  assert_int_equal(s.initial_kind, ZENO_INITIAL_POSE);
  assert_vec3(s.initial_pose, 0, 0.1, 0);
  assert_vec3(s.initial_velocity, 0, 0, 0);
}

static void test_general_form_degrees(void **state) {
  (void)state;
  zeno_scene s = load_text(
      "body: {mass: 1, rho: 1}\n"
      "load: {magnitude: 2, angle: -20, torque: 0.25}\n"
      "contacts:\n"
      "  - {point: [0, -1], surface: {angle: 30}, mu: 0.5}\n"
      "initial: {pose: [0, 0.1, 0]}\n");
  assert_float_equal(s.contacts[0].surface_angle, DEG(30.0), ANGLE_TOL);
  assert_float_equal(s.load_angle, DEG(-20.0), ANGLE_TOL);
  assert_float_equal(s.load_torque, 0.25, 0);
}

// An empty file (a crash, a full disk) is no scene, nor one of settings
// only: running the default body would be a plausible wrong answer.
static void test_empty_document_is_refused(void **state) {
  (void)state;
  static const char *const EMPTY[] = {"", "# only a comment\n", "---\n", "~\n"};
  for (size_t i = 0; i < sizeof EMPTY / sizeof *EMPTY; i++) {
    zeno_scene s;
    zeno_error e;
    assert_int_equal(zeno_scene_load_string(EMPTY[i], "e.yaml", NULL, 0, &s, &e), ZENO_ERR_MISSING);
    assert_non_null(strstr(e.message, "the scene is empty: a scene must name its body"));
    assert_string_equal(e.parameter, "paper");
    assert_string_equal(e.file, "e.yaml");
  }
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load_string("stop: {t_end: 5}\n", "s.yaml", NULL, 0, &s, &e),
                   ZENO_ERR_MISSING);
  assert_non_null(strstr(e.message, "no body: a scene must name its body"));
  assert_int_equal(e.line, 1);
  // A paper block or the general form names it.
  assert_int_equal(zeno_scene_load_string(PAPER_EXAMPLE2, "p.yaml", NULL, 0, &s, &e), ZENO_OK);
  assert_default_scene(&s);
}

// A NUL byte in a scene file is refused where it stands, by the loader and
// by the reader a program uses before zeno_scene_load_string() (which would
// read the text only to the NUL and run its start).
static void test_nul_byte_is_refused(void **state) {
  (void)state;
  char path[] = "/tmp/zeno-nul-XXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  static const char text[] = "name: n\nmodel: zod\n  \0x\n";
  assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
  close(fd);
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &s, &e), ZENO_ERR_SYNTAX);
  assert_int_equal(e.line, 3);
  assert_int_equal(e.column, 3);
  assert_non_null(strstr(e.message, "a NUL byte"));
  char *read = NULL;
  size_t length = 1;
  assert_int_equal(zeno_scene_read_file(path, &read, &length, &e), ZENO_ERR_SYNTAX);
  assert_null(read);
  assert_int_equal(length, 0);
  unlink(path);
}

static void test_null_section_keeps_defaults(void **state) {
  (void)state;
  zeno_scene s = load_text(PAPER_EXAMPLE2 "stop:\nsolver: ~\nimpact: {}\n");
  assert_default_scene(&s);
}

static void test_scene_name(void **state) {
  (void)state;
  zeno_scene s = load_text(PAPER_EXAMPLE2 "name: a test\n");
  assert_string_equal(s.name, "a test");
  zeno_scene unnamed = load_text(PAPER_EXAMPLE2 "model: zod\n");
  assert_string_equal(unnamed.name, "t");
}

static void test_enum_names_round_trip(void **state) {
  (void)state;
  char text[256];
  for (int m = ZENO_MODEL_ZOD; m <= ZENO_MODEL_FULL; m++) {
    snprintf(text, sizeof text, PAPER_EXAMPLE2 "model: %s\n", zeno_model_name((zeno_model)m));
    assert_int_equal(load_text(text).model, m);
  }
  for (int law = ZENO_LAW_INELASTIC; law <= ZENO_LAW_NEWTON; law++) {
    snprintf(text, sizeof text, PAPER_EXAMPLE2 "impact: {law: %s}\n",
             zeno_impact_law_name((zeno_impact_law)law));
    assert_int_equal(load_text(text).impact_law, law);
  }
  for (int a = ZENO_AMBIGUITY_STOP; a <= ZENO_AMBIGUITY_PREFER_MOTION; a++) {
    snprintf(text, sizeof text, PAPER_EXAMPLE2 "ambiguity: %s\n",
             zeno_ambiguity_policy_name((zeno_ambiguity_policy)a));
    assert_int_equal(load_text(text).ambiguity, a);
  }
}

static void test_all_sections(void **state) {
  (void)state;
  zeno_scene s = load_text(PAPER_EXAMPLE2
                           "epsilon: 0.01\n"
                           "impact: {law: chatterjee-ruina, e: 0.5, et: -0.25}\n"
                           "stop: {t_end: 5, max_events: 42, escape_radius: 100}\n"
                           "solver: {rtol: 1e-8, atol: 1e-12, sample_dt: 0}\n"
                           "body: {outline: disk, outline_radius: 2}\n");
  assert_float_equal(s.epsilon, 0.01, 0);
  assert_int_equal(s.impact_law, ZENO_LAW_CHATTERJEE_RUINA);
  assert_float_equal(s.restitution, 0.5, 0);
  assert_float_equal(s.tangential_restitution, -0.25, 0);
  assert_float_equal(s.t_end, 5, 0);
  assert_int_equal(s.max_events, 42);
  assert_float_equal(s.escape_radius, 100, 0);
  assert_float_equal(s.rtol, 1e-8, 0);
  assert_float_equal(s.atol, 1e-12, 0);
  assert_float_equal(s.sample_dt, 0, 0);
  assert_int_equal(s.outline_kind, ZENO_OUTLINE_DISK);
  assert_float_equal(s.outline_radius, 2, 0);
  assert_true(s.has_paper);  // the body's outline keys do not select the general form
}

/* ------------------------------------------------------------------------ */
/* Overrides                                                                 */
/* ------------------------------------------------------------------------ */

static void test_override_paper_alpha(void **state) {
  (void)state;
  const char *set[] = {"paper.alpha=45"};
  zeno_scene s = load_file_with("example2.yaml", set, 1);
  assert_float_equal(s.paper.alpha, 45, 0);
  assert_float_equal(s.load_angle, DEG(45.0), ANGLE_TOL);
  assert_float_equal(s.paper.l1, -3.5, 0);
}

static void test_override_initial_qdp(void **state) {
  (void)state;
  const char *set[] = {"initial.qdp=[0.1,0,-1.5]"};
  zeno_scene s = load_file_with("example3-reverse.yaml", set, 1);
  assert_vec3(s.initial_qdp, 0.1, 0, -1.5);
  assert_vec3(s.initial_qp, 0.1, 0.1, 0);
}

static void test_override_contact_mu(void **state) {
  (void)state;
  const char *set[] = {"contacts.0.mu=0.2"};
  zeno_scene s = load_file_with("bouncing-ball.yaml", set, 1);
  assert_float_equal(s.contacts[0].mu, 0.2, 0);
}

static void test_override_model(void **state) {
  (void)state;
  const char *set[] = {"model=full"};
  zeno_scene s = load_file_with("example2.yaml", set, 1);
  assert_int_equal(s.model, ZENO_MODEL_FULL);
}

static void test_override_creates_missing_mapping(void **state) {
  (void)state;
  const char *set[] = {"stop.t_end=5"};
  zeno_scene s = load_file_with("example2.yaml", set, 1);
  zeno_scene d = zeno_scene_default();
  assert_float_equal(s.t_end, 5, 0);
  assert_int_equal(s.max_events, d.max_events);
  zeno_scene empty = load_text_with(PAPER_EXAMPLE2, set, 1);
  assert_float_equal(empty.t_end, 5, 0);
}

static void test_override_flow_mapping(void **state) {
  (void)state;
  const char *set[] = {"com={x: 1, y: 0}"};
  zeno_scene s = load_file_with("example2.yaml", set, 1);
  assert_point(s.contacts[0].point, -4.5, -1.25, 0);
  assert_point(s.contacts[1].point, 1.25, -1.25, 0);
}

static void test_override_later_wins(void **state) {
  (void)state;
  const char *set[] = {"paper.alpha=10", " paper.alpha = 20"};
  zeno_scene s = load_file_with("example2.yaml", set, 2);
  assert_float_equal(s.paper.alpha, 20, 0);
}

// Paths joined by '+' take the same value: equal friction at both contacts
// (docs/scenes.md), as two overrides would set it.
static void test_override_several_paths(void **state) {
  (void)state;
  const char *set[] = {"paper.mu1+paper.mu2=0.37"};
  zeno_scene s = load_file_with("example4.yaml", set, 1);
  zeno_paper_params block;
  assert_true(zeno_scene_paper(&s, &block));
  assert_float_equal(block.mu1, 0.37, 0);
  assert_float_equal(block.mu2, 0.37, 0);
  assert_float_equal(s.contacts[0].mu, 0.37, 0);
  assert_float_equal(s.contacts[1].mu, 0.37, 0);
  assert_float_equal(s.paper.alpha, 10, 0);  // the rest as in the file
  const char *two[] = {"paper.mu1=0.37", "paper.mu2=0.37"};
  zeno_scene t = load_file_with("example4.yaml", two, 2);
  assert_memory_equal(s.contacts, t.contacts, sizeof s.contacts);
}

static void test_override_appends_contact(void **state) {
  (void)state;
  const char *set[] = {"contacts.1={point: [0.05, -0.1], surface: {angle: 0}, mu: 0.3}"};
  zeno_scene s = load_file_with("bouncing-ball.yaml", set, 1);
  assert_int_equal(s.contact_count, 2);
  assert_point(s.contacts[1].point, 0.05, -0.1, 0);
  assert_float_equal(s.contacts[1].mu, 0.3, 0);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

static void test_error_syntax_unclosed_bracket(void **state) {
  (void)state;
  zeno_error e = expect_error("initial:\n  qp: [1, 2\n  qdp: [0, 0, 0]\n", ZENO_ERR_SYNTAX, 3, 6,
                              "did not find expected ',' or ']'");
  assert_non_null(strstr(e.message, "flow sequence that started at 2:7"));
}

static void test_error_unknown_key_top(void **state) {
  (void)state;
  zeno_error e = expect_error("model: zod\nmodle: full\n", ZENO_ERR_UNKNOWN_KEY, 2, 1,
                              "unknown key 'modle' at top level; did you mean 'model'? (allowed: "
                              "name, model, epsilon, ambiguity, paper, com, "
                              "body, contacts, load, impact, initial, stop, "
                              "solver)");
  assert_string_equal(e.parameter, "modle");
}

static void test_error_unknown_key_nested(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "paper:\n  alpha: 45\n  alphx: 3\n", ZENO_ERR_UNKNOWN_KEY, 3, 3,
      "unknown key 'alphx' in paper; did you mean 'alpha'? (allowed: alpha, l1, l2, h, "
      "phi1, phi2, "
      "mu1, mu2, rho, m, f, tau)");
  assert_string_equal(e.parameter, "paper.alphx");
  expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\n"
      "contacts:\n  - point: [0, -1]\n    mu: 1\n"
      "    surface: {angel: 3}\n",
      ZENO_ERR_UNKNOWN_KEY, 6, 15,
      "unknown key 'angel' in contacts[0].surface; did you mean 'angle'? (allowed: "
      "angle, point)");
}

static void test_error_missing_key(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n"
      "  - point: [0, 0]\n    mu: 0.5\n  - point: [1, 0]\n",
      ZENO_ERR_MISSING, 6, 5, "missing key 'mu' in contacts[1]");
  assert_string_equal(e.parameter, "contacts.1.mu");
}

static void test_error_missing_paper_key(void **state) {
  (void)state;
  expect_error("name: x\npaper:\n  alpha: 1\n  l1: 1\n  l2: 2\n", ZENO_ERR_MISSING, 3, 3,
               "missing key 'h' in paper");
}

static void test_error_missing_general_section(void **state) {
  (void)state;
  expect_error("name: x\nbody: {mass: 1, rho: 1}\nload: {magnitude: 1}\n", ZENO_ERR_MISSING, 1, 1,
               "missing key 'contacts' at top level");
}

static void test_error_type_text_for_number(void **state) {
  (void)state;
  zeno_error e = expect_error("name: x\nepsilon: abc\n", ZENO_ERR_TYPE, 2, 10,
                              "expected a number, got 'abc'");
  assert_string_equal(e.parameter, "epsilon");
}

static void test_error_type_mapping_for_sequence(void **state) {
  (void)state;
  expect_error("initial:\n  qp: {a: 1}\n", ZENO_ERR_TYPE, 2, 7,
               "expected a sequence of 3 numbers, got a mapping");
}

static void test_error_type_sequence_length(void **state) {
  (void)state;
  expect_error("initial:\n  qp: [1, 2]\n", ZENO_ERR_TYPE, 2, 7,
               "expected a sequence of 3 numbers, got a sequence of 2 items");
}

static void test_error_type_number_in_sequence(void **state) {
  (void)state;
  zeno_error e = expect_error("initial:\n  qdp: [1, x, 2]\n", ZENO_ERR_TYPE, 2, 12,
                              "expected a number, got 'x'");
  assert_string_equal(e.parameter, "initial.qdp.1");
}

static void test_error_type_hex_rejected(void **state) {
  (void)state;
  expect_error("epsilon: 0x10\n", ZENO_ERR_TYPE, 1, 10, "expected a number, got '0x10'");
}

static void test_error_type_integer(void **state) {
  (void)state;
  expect_error("stop: {max_events: 1e6}\n", ZENO_ERR_TYPE, 1, 20, "expected an integer, got '1e6'");
}

static void test_error_type_enum(void **state) {
  (void)state;
  expect_error("model: fll\n", ZENO_ERR_TYPE, 1, 8, "expected one of zod, full; got 'fll'");
  expect_error("body: {outline: square}\n", ZENO_ERR_TYPE, 1, 17,
               "expected biped, disk or a sequence of [x, y] vertices, got "
               "'square'");
}

// A file that is no scene is named by what it holds, never by its content
// (a user may point at any file by mistake).
static void test_error_top_level_not_mapping(void **state) {
  (void)state;
  expect_error("- 1\n- 2\n", ZENO_ERR_TYPE, 1, 1,
               "a scene must be a mapping of keys; this file holds a list");
  zeno_error e = expect_error("secret-password-1234\n", ZENO_ERR_TYPE, 1, 1,
                              "this file holds a single value");
  assert_null(strstr(e.message, "secret"));
}

static void test_error_range_mu_negative(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n"
      "  - point: [0, 0]\n    mu: -0.1\n",
      ZENO_ERR_RANGE, 5, 9, "allowed [0, inf)");
  assert_string_equal(e.parameter, "contacts.0.mu");
  char line[1024];
  zeno_error_format(&e, line, sizeof line);
  assert_string_equal(line,
                      "t.yaml:5:9: contacts.0.mu: value -0.1 is out of "
                      "range; allowed [0, inf)");
}

static void test_error_range_mass_via_override(void **state) {
  (void)state;
  const char *set[] = {"paper.m=0"};
  char path[PATH_LEN];
  snprintf(path, sizeof path, "%s/example2.yaml", ZENO_SCENES_DIR);
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(path, set, 1, &s, &e), ZENO_ERR_RANGE);
  assert_string_equal(e.file, "--set");
  assert_int_equal(e.line, 0);
  assert_string_equal(e.parameter, "paper.m");
  assert_string_equal(e.message,
                      "--set paper.m=0: value 0 is out of range; allowed (0, "
                      "inf)");
}

static void test_error_range_rho(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body:\n  mass: 1\n  rho: 0\nload: {magnitude: 1}\n"
      "contacts: [{point: [0, -1], mu: 1}]\ninitial: {pose: [0, 0, 0]}\n",
      ZENO_ERR_RANGE, 3, 8, "value 0 is out of range; allowed (0, inf)");
  assert_string_equal(e.parameter, "body.rho");
}

static void test_error_range_nan(void **state) {
  (void)state;
  expect_error(
      "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75,\n"
      "        phi2: 30, mu1: .nan, mu2: 0.6}\n",
      ZENO_ERR_RANGE, 2, 24, "not a finite number");
}

static void test_error_range_inf(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: .inf}\n"
      "contacts: [{point: [0, -1], mu: 1}]\ninitial: {pose: [0, 0, 0]}\n",
      ZENO_ERR_RANGE, 2, 19, "value inf is not a finite number");
  assert_string_equal(e.parameter, "load.magnitude");
  expect_error("epsilon: -.INF\n", ZENO_ERR_RANGE, 1, 10, "value -inf is not a finite number");
}

static void test_error_geometry_coincident(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n"
      "  - point: [0, 0]\n    mu: 0.5\n  - point: [0, 0]\n    mu: 0.5\n"
      "initial: {pose: [0, 0, 0]}\n",
      ZENO_ERR_GEOMETRY, 6, 12, "contacts 1 and 2 coincide");
  assert_string_equal(e.parameter, "contacts.1.point");
}

static void test_error_geometry_off_surface(void **state) {
  (void)state;
  zeno_error e = expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n"
      "  - point: [0, 0]\n    surface: {angle: 0, point: [0, 1]}\n"
      "    mu: 0.5\ninitial: {pose: [0, 0, 0]}\n",
      ZENO_ERR_GEOMETRY, 5, 32, "contact 1 is not on its surface");
  assert_string_equal(e.parameter, "contacts.0.surface.point");
}

/// Floor contacts at x = 0, 1, ...: `count` list items of the contacts list.
static void floor_contacts(char *text, size_t size, int count) {
  size_t n = (size_t)snprintf(text, size,
                              "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n");
  for (int i = 0; i < count && n < size; i++)
    n += (size_t)snprintf(text + n, size - n, "  - {point: [%d, 0], mu: 1}\n", i);
  if (n < size) snprintf(text + n, size - n, "initial: {pose: [0, 0, 0], velocity: [0, 0, 0]}\n");
}

// A scene holds up to 16 contacts (ZENO_MAX_CONTACTS), each read as for
// two; the 17th is refused at the list with the bound.
static void test_error_too_many_contacts(void **state) {
  (void)state;
  char text[2048];
  floor_contacts(text, sizeof text, ZENO_MAX_CONTACTS);
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load_string(text, "sixteen.yaml", NULL, 0, &s, &e) != ZENO_OK)
    fail_msg("%s", e.message);
  assert_int_equal(s.contact_count, 16);
  for (int i = 0; i < 16; i++) {
    assert_true(s.contacts[i].point[0] == i && s.contacts[i].point[1] == 0);
    assert_true(s.contacts[i].mu == 1 && s.contacts[i].surface_angle == 0);
  }
  floor_contacts(text, sizeof text, ZENO_MAX_CONTACTS + 1);
  expect_error(text, ZENO_ERR_RANGE, 4, 3, "17 contacts given; allowed 1 to 16");
}

// Three or more contacts must be distinct points, as two are.
static void test_error_coincident_third_contact(void **state) {
  (void)state;
  expect_error(
      "body: {mass: 1, rho: 1}\nload: {magnitude: 1}\ncontacts:\n"
      "  - {point: [0, 0], mu: 1}\n  - {point: [1, 0], mu: 1}\n"
      "  - {point: [0, 0], mu: 1}\ninitial: {pose: [0, 0, 0], velocity: [0, 0, 0]}\n",
      ZENO_ERR_GEOMETRY, 6, 13, "contacts 1 and 3 coincide at (0, 0)");
}

static void test_error_paper_conflicts_with_contacts(void **state) {
  (void)state;
  char text[512];
  snprintf(text, sizeof text, "%scontacts: []\n", PAPER_EXAMPLE2);
  expect_error(text, ZENO_ERR_UNKNOWN_KEY, 2, 1,
               "'contacts' conflicts with 'paper' (given at 1:1); use one "
               "form");
  snprintf(text, sizeof text, "%sbody:\n  rho: 2\n", PAPER_EXAMPLE2);
  expect_error(text, ZENO_ERR_UNKNOWN_KEY, 3, 3,
               "'body.rho' conflicts with 'paper' (given at 1:1)");
}

static void test_error_initial_forms_mixed(void **state) {
  (void)state;
  expect_error("initial:\n  qp: [0, 0, 0]\n  velocity: [0, 0, 0]\n", ZENO_ERR_UNKNOWN_KEY, 3, 3,
               "'velocity' conflicts with 'qp' (given at 2:3)");
}

static void test_error_duplicate_key(void **state) {
  (void)state;
  expect_error("model: zod\nmodel: full\n", ZENO_ERR_SYNTAX, 2, 1,
               "duplicate key 'model' (first at 1:1)");
}

/// Keys in the big mapping of test_error_duplicate_key_many (a file of
/// about 850 kB, under the 1 MiB limit).
#define MANY_KEYS 80000

// A mapping of 80,000 keys (hashed past 16) with one repeated: the first
// key, one in the middle or the last again is found where it is written,
// its first place named; without a repeat the mapping is whole and the
// first unknown key is reported. (The check was quadratic: 9.6 s for this
// file, now 0.15 s; tools/bench has no timed assertion, this checks the
// hashed lookup's answers.)
static void test_error_duplicate_key_many(void **state) {
  (void)state;
  const size_t size = (size_t)MANY_KEYS * 16 + 64;
  char *text = malloc(size);
  assert_non_null(text);
  const int repeats[] = {0, MANY_KEYS / 2, MANY_KEYS - 1, -1};
  for (size_t r = 0; r < sizeof repeats / sizeof *repeats; r++) {
    size_t n = (size_t)snprintf(text, size, "x:\n");
    for (int k = 0; k < MANY_KEYS; k++) n += (size_t)snprintf(text + n, size - n, "  k%d: 1\n", k);
    if (repeats[r] >= 0) {
      snprintf(text + n, size - n, "  k%d: 2\n", repeats[r]);
      char message[64];
      snprintf(message, sizeof message, "duplicate key 'k%d' (first at %d:3)", repeats[r],
               repeats[r] + 2);
      expect_error(text, ZENO_ERR_SYNTAX, MANY_KEYS + 2, 3, message);
    } else {
      expect_error(text, ZENO_ERR_UNKNOWN_KEY, 1, 1, "unknown key 'x'");
    }
  }
  free(text);
}

static void test_error_alias(void **state) {
  (void)state;
  expect_error("epsilon: &e 0.1\nstop: {t_end: *e}\n", ZENO_ERR_SYNTAX, 2, 15,
               "aliases (*e) are not supported");
}

static void test_error_second_document(void **state) {
  (void)state;
  expect_error("model: zod\n---\nmodel: full\n", ZENO_ERR_SYNTAX, 2, 1, "one YAML document");
}

static void test_error_override_without_equals(void **state) {
  (void)state;
  expect_override_error("", "paper.alpha", ZENO_ERR_SYNTAX, "expected dotted.path=VALUE");
}

static void test_error_override_empty_path(void **state) {
  (void)state;
  expect_override_error("", "=45", ZENO_ERR_SYNTAX, "empty path");
  expect_override_error("", "paper..alpha=45", ZENO_ERR_SYNTAX,
                        "empty segment in path 'paper..alpha'");
  expect_override_error("", "paper.mu1++paper.mu2=0.4", ZENO_ERR_SYNTAX,
                        "empty segment in path 'paper.mu1++paper.mu2'");
  expect_override_error("", "paper.mu1+=0.4", ZENO_ERR_SYNTAX,
                        "empty segment in path 'paper.mu1+'");
  expect_override_error("", "paper.mu1+.mu2=0.4", ZENO_ERR_SYNTAX,
                        "empty segment in path 'paper.mu1+.mu2'");
  // Each path of a list is checked like a path alone.
  expect_override_error(PAPER_EXAMPLE2, "paper.mu1+paper.mux=0.4", ZENO_ERR_UNKNOWN_KEY,
                        "unknown key 'mux' in paper");
}

static void test_error_override_bad_value(void **state) {
  (void)state;
  expect_override_error("", "initial.qdp=[0.1,", ZENO_ERR_SYNTAX,
                        "did not find expected node content");
  expect_override_error("", "stop.t_end=", ZENO_ERR_SYNTAX, "missing value after '='");
}

static void test_error_override_unknown_key(void **state) {
  (void)state;
  zeno_error e = expect_override_error(PAPER_EXAMPLE2, "paper.alphx=45", ZENO_ERR_UNKNOWN_KEY, "");
  assert_string_equal(e.message,
                      "--set paper.alphx=45: unknown key 'alphx' in paper; did you mean "
                      "'alpha'? (allowed: alpha, l1, l2, h, phi1, phi2, mu1, mu2, rho, "
                      "m, f, tau)");
  assert_string_equal(e.parameter, "paper.alphx");
}

static void test_error_override_type(void **state) {
  (void)state;
  expect_override_error("", "impact.law=newtn", ZENO_ERR_TYPE,
                        "expected one of inelastic, chatterjee-ruina, newton; "
                        "got 'newtn'");
  expect_override_error("model: zod\n", "model.x=1", ZENO_ERR_TYPE,
                        "'model' holds the value 'zod', not a mapping");
}

static void test_error_override_bad_index(void **state) {
  (void)state;
  expect_override_error(GENERAL_TWO, "contacts.mu=1", ZENO_ERR_TYPE,
                        "'contacts' is a sequence; expected an index, got "
                        "'mu'");
  expect_override_error(GENERAL_TWO, "contacts.5.mu=1", ZENO_ERR_RANGE,
                        "index 5 is out of range; 'contacts' has 2 items");
}

static void test_error_override_conflict(void **state) {
  (void)state;
  expect_error_with(GENERAL_TWO, (const char *const[]){"paper.alpha=45"}, 1, ZENO_ERR_UNKNOWN_KEY,
                    3, 1,
                    "'contacts' conflicts with 'paper' (given by --set "
                    "paper.alpha=45)");
}

// Non-overlapping occurrences of `part` in `text`.
static int count_occurrences(const char *text, const char *part) {
  int count = 0;
  const size_t length = strlen(part);
  for (const char *p = strstr(text, part); p; p = strstr(p + length, part)) count++;
  return count;
}

// The formatted line of an override error is its message alone: the message
// already quotes the override, which names the key.
static void test_error_format_override(void **state) {
  (void)state;
  zeno_error e = expect_override_error(PAPER_EXAMPLE2, "paper.alphx=45", ZENO_ERR_UNKNOWN_KEY, "");
  char line[ERROR_LINE_LEN];
  zeno_error_format(&e, line, sizeof line);
  assert_string_equal(line,
                      "--set paper.alphx=45: unknown key 'alphx' in paper; did you mean "
                      "'alpha'? (allowed: alpha, l1, l2, h, phi1, phi2, mu1, mu2, rho, "
                      "m, f, tau)");
  assert_int_equal(count_occurrences(line, "--set"), 1);
  assert_int_equal(count_occurrences(line, "paper.alphx"), 1);
}

// An override that sets a whole mapping does not name the key inside it
// that is wrong, so the message does (schema and validation errors alike).
static void test_error_format_override_nested_key(void **state) {
  (void)state;
  char line[ERROR_LINE_LEN];
  zeno_error e = expect_override_error(PAPER_EXAMPLE2, "paper={alpha: x}", ZENO_ERR_TYPE, "");
  assert_string_equal(e.parameter, "paper.alpha");
  zeno_error_format(&e, line, sizeof line);
  assert_string_equal(line,
                      "--set paper={alpha: x}: paper.alpha: expected a "
                      "number, got 'x'");
  e = expect_override_error(PAPER_EXAMPLE2, "stop={t_end: -1}", ZENO_ERR_RANGE, "");
  assert_string_equal(e.parameter, "stop.t_end");
  zeno_error_format(&e, line, sizeof line);
  assert_string_equal(line,
                      "--set stop={t_end: -1}: stop.t_end: value -1 is out of "
                      "range; allowed (0, inf)");
}

static void test_error_missing_file(void **state) {
  (void)state;
  const char *path = ZENO_SCENES_DIR "/no-such-scene.yaml";
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &s, &e), ZENO_ERR_IO);
  assert_int_equal(e.code, ZENO_ERR_IO);
  assert_string_equal(e.file, path);
  assert_int_equal(e.line, 0);
  assert_non_null(strstr(e.message, path));
  assert_non_null(strstr(e.message, "No such file or directory"));
}

static void test_error_directory(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR, NULL, 0, &s, &e), ZENO_ERR_IO);
  assert_string_equal(e.file, ZENO_SCENES_DIR);
  assert_non_null(strstr(e.message, ZENO_SCENES_DIR));
}

static void test_error_arguments(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load_string(NULL, "x", NULL, 0, &s, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_scene_load_string("", "x", NULL, 0, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_scene_load_string("", "x", NULL, 1, &s, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_scene_load(NULL, NULL, 0, &s, NULL), ZENO_ERR_ARGUMENT);
}

static void test_failure_leaves_scene_untouched(void **state) {
  (void)state;
  zeno_scene s;
  memset(&s, 0x5a, sizeof s);
  zeno_scene before = s;
  assert_int_equal(zeno_scene_load_string("epsilon: x\n", NULL, NULL, 0, &s, NULL), ZENO_ERR_TYPE);
  assert_memory_equal(&s, &before, sizeof s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_shipped_scene_loads),
      cmocka_unit_test(test_example2_scene),
      cmocka_unit_test(test_example3_zeno_scene),
      cmocka_unit_test(test_example3_reverse_scene),
      cmocka_unit_test(test_example4_scene),
      cmocka_unit_test(test_example7_scene),
      cmocka_unit_test(test_bouncing_ball_scene),
      cmocka_unit_test(test_sliding_block_scene),
      cmocka_unit_test(test_rocking_block_scene),
      cmocka_unit_test(test_paper_block_matches_apply_paper),
      cmocka_unit_test(test_paper_optional_keys_default),
      cmocka_unit_test(test_paper_with_com_shift),
      cmocka_unit_test(test_general_form_com_shift),
      cmocka_unit_test(test_general_form_defaults),
      cmocka_unit_test(test_general_form_degrees),
      cmocka_unit_test(test_empty_document_is_refused),
      cmocka_unit_test(test_nul_byte_is_refused),
      cmocka_unit_test(test_null_section_keeps_defaults),
      cmocka_unit_test(test_scene_name),
      cmocka_unit_test(test_enum_names_round_trip),
      cmocka_unit_test(test_all_sections),
      cmocka_unit_test(test_override_paper_alpha),
      cmocka_unit_test(test_override_initial_qdp),
      cmocka_unit_test(test_override_contact_mu),
      cmocka_unit_test(test_override_model),
      cmocka_unit_test(test_override_creates_missing_mapping),
      cmocka_unit_test(test_override_flow_mapping),
      cmocka_unit_test(test_override_later_wins),
      cmocka_unit_test(test_override_several_paths),
      cmocka_unit_test(test_override_appends_contact),
      cmocka_unit_test(test_error_syntax_unclosed_bracket),
      cmocka_unit_test(test_error_unknown_key_top),
      cmocka_unit_test(test_error_unknown_key_nested),
      cmocka_unit_test(test_error_missing_key),
      cmocka_unit_test(test_error_missing_paper_key),
      cmocka_unit_test(test_error_missing_general_section),
      cmocka_unit_test(test_error_type_text_for_number),
      cmocka_unit_test(test_error_type_mapping_for_sequence),
      cmocka_unit_test(test_error_type_sequence_length),
      cmocka_unit_test(test_error_type_number_in_sequence),
      cmocka_unit_test(test_error_type_hex_rejected),
      cmocka_unit_test(test_error_type_integer),
      cmocka_unit_test(test_error_type_enum),
      cmocka_unit_test(test_error_top_level_not_mapping),
      cmocka_unit_test(test_error_range_mu_negative),
      cmocka_unit_test(test_error_range_mass_via_override),
      cmocka_unit_test(test_error_range_rho),
      cmocka_unit_test(test_error_range_nan),
      cmocka_unit_test(test_error_range_inf),
      cmocka_unit_test(test_error_geometry_coincident),
      cmocka_unit_test(test_error_geometry_off_surface),
      cmocka_unit_test(test_error_too_many_contacts),
      cmocka_unit_test(test_error_coincident_third_contact),
      cmocka_unit_test(test_error_paper_conflicts_with_contacts),
      cmocka_unit_test(test_error_initial_forms_mixed),
      cmocka_unit_test(test_error_duplicate_key),
      cmocka_unit_test(test_error_duplicate_key_many),
      cmocka_unit_test(test_error_alias),
      cmocka_unit_test(test_error_second_document),
      cmocka_unit_test(test_error_override_without_equals),
      cmocka_unit_test(test_error_override_empty_path),
      cmocka_unit_test(test_error_override_bad_value),
      cmocka_unit_test(test_error_override_unknown_key),
      cmocka_unit_test(test_error_override_type),
      cmocka_unit_test(test_error_override_bad_index),
      cmocka_unit_test(test_error_override_conflict),
      cmocka_unit_test(test_error_format_override),
      cmocka_unit_test(test_error_format_override_nested_key),
      cmocka_unit_test(test_error_missing_file),
      cmocka_unit_test(test_error_directory),
      cmocka_unit_test(test_error_arguments),
      cmocka_unit_test(test_failure_leaves_scene_untouched),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
