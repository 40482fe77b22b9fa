// Every error return of the public API (GSL style): each test provokes one
// error path and checks the returned code, the code in the error record, a
// non-empty one-line message and, where the function names one, the
// offending parameter. Each call that takes a zeno_error is repeated with a
// NULL error record, which must return the same code. Functions without an
// error record (the sim iterator and the io writers) return their code only;
// zeno_status_name() names it.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "analysis/equilibrium_lp.h"
#include "dynamics/glpk_load.h"
#include "dynamics/sundials_load.h"
#include "test_util.h"
#include "zeno/io.h"

/// Room for a formatted error line (file 256 + parameter 128 + message 512).
#define LINE_LEN 1024
/// A section angle outside I = (-pi/2, pi/2) [rad].
#define PHI_OUTSIDE 2.0

/// Checks an error record against the returned code; `parameter` (NULL: not
/// checked) must equal error->parameter.
static void check_error(zeno_status got, zeno_status want, const zeno_error *e,
                        const char *parameter) {
  if (got != want)
    fail_msg("returned %s (%s), expected %s", zeno_status_name(got), e->message,
             zeno_status_name(want));
  assert_int_equal(e->code, want);
  assert_true(e->message[0] != '\0');
  assert_string_not_equal(zeno_status_name(want), "unknown");
  char line[LINE_LEN];
  assert_true(zeno_error_format(e, line, sizeof line) > 0);
  assert_null(strpbrk(line, "\n\r"));
  if (parameter) assert_string_equal(e->parameter, parameter);
}

/* ------------------------------------------------------------------------ */
/* Scenes                                                                    */
/* ------------------------------------------------------------------------ */

static zeno_scene ex2(void) {
  const double qp[3] = {1, 1, 0}, qdp[3] = {0, 0, 2};
  return paper_scene(example2(), qp, qdp);
}

/// The general (non-paper) form: body, contacts and load given directly.
static zeno_scene general_two(void) {
  zeno_scene s = ex2();
  s.has_paper = false;
  return s;
}

static zeno_scene one_contact(void) {
  zeno_scene s = one_contact_scene(1, 0, -1, 0.5, 1);
  return s;
}

/* ------------------------------------------------------------------------ */
/* zeno_scene_validate: one case per check                                   */
/* ------------------------------------------------------------------------ */

typedef struct validate_case {
  const char *what;
  zeno_scene (*base)(void);
  void (*mutate)(zeno_scene *);
  zeno_status code;
  const char *parameter;
} validate_case;

#define MUT(name, body) \
  static void name(zeno_scene *s) { body; }
MUT(mass_zero, s->mass = 0)
MUT(mass_tiny, s->mass = 1e-31)
MUT(rho_negative, s->rho = -1)
MUT(rho_tiny, s->rho = 1e-40)
MUT(alpha_big, s->paper.alpha = 400)
MUT(h_nan, s->paper.h = NAN)
MUT(l1_inf, s->paper.l1 = INFINITY)
MUT(l2_huge, s->paper.l2 = 2e30)
MUT(phi1_small, s->paper.phi1 = -400)
MUT(phi2_big, s->paper.phi2 = 400)
MUT(tau_nan, s->load_torque = NAN)
MUT(com_x_nan, s->com_shift[0] = NAN)
MUT(com_y_inf, s->com_shift[1] = -INFINITY)
MUT(no_contacts, s->contact_count = 0)
MUT(seventeen_contacts, s->contact_count = ZENO_MAX_CONTACTS + 1)
MUT(point_nan, s->contacts[0].point[1] = NAN)
MUT(angle_big, s->contacts[0].surface_angle = 7)
MUT(mu_negative, s->contacts[0].mu = -0.1)
MUT(mu2_nan, s->contacts[1].mu = NAN)
MUT(surface_point_nan, s->contacts[0].surface_point[0] = NAN)
MUT(off_surface, {
  s->contacts[0].surface_point_set = true;
  s->contacts[0].surface_point[0] = s->contacts[0].point[0];
  s->contacts[0].surface_point[1] = s->contacts[0].point[1] + 0.5;
})
MUT(coincide, {
  s->contacts[1].point[0] = s->contacts[0].point[0];
  s->contacts[1].point[1] = s->contacts[0].point[1];
})
MUT(load_negative, s->load_magnitude = -1)
MUT(load_angle_big, s->load_angle = 7)
MUT(load_torque_inf, s->load_torque = INFINITY)
MUT(e_big, s->restitution = 1.5)
MUT(et_big, s->tangential_restitution = -2)
MUT(qp_one_contact, s->contact_count = 1)
MUT(qp_nan, s->initial_qp[2] = NAN)
MUT(qdp_inf, s->initial_qdp[0] = INFINITY)
MUT(qp_penetrating, s->initial_qp[0] = -1)
MUT(pose_nan, {
  s->initial_kind = ZENO_INITIAL_POSE;
  s->initial_pose[2] = NAN;
})
MUT(velocity_inf, {
  s->initial_kind = ZENO_INITIAL_POSE;
  s->initial_velocity[0] = INFINITY;
})
MUT(epsilon_zero, s->epsilon = 0)
MUT(epsilon_big, s->epsilon = 2)
MUT(epsilon_tiny, s->epsilon = 1e-40)
MUT(t_end_zero, s->t_end = 0)
MUT(max_events_zero, s->max_events = 0)
MUT(escape_negative, s->escape_radius = -1)
MUT(rtol_big, s->rtol = 0.1)
MUT(atol_zero, s->atol = 0)
MUT(sample_dt_negative, s->sample_dt = -1)
MUT(outline_short, {
  s->outline_kind = ZENO_OUTLINE_POLYGON;
  s->outline_count = 2;
})
MUT(outline_nan, {
  s->outline_kind = ZENO_OUTLINE_POLYGON;
  s->outline_count = 3;
  s->outline[1][0] = NAN;
})
MUT(disk_zero, {
  s->outline_kind = ZENO_OUTLINE_DISK;
  s->outline_radius = 0;
})

static const validate_case VALIDATE_CASES[] = {
    {"mass 0", ex2, mass_zero, ZENO_ERR_RANGE, "paper.m"},
    {"mass tiny", ex2, mass_tiny, ZENO_ERR_RANGE, "paper.m"},
    {"rho < 0", ex2, rho_negative, ZENO_ERR_RANGE, "paper.rho"},
    {"rho tiny", general_two, rho_tiny, ZENO_ERR_RANGE, "body.rho"},
    {"body mass 0", general_two, mass_zero, ZENO_ERR_RANGE, "body.mass"},
    {"alpha", ex2, alpha_big, ZENO_ERR_RANGE, "paper.alpha"},
    {"h NaN", ex2, h_nan, ZENO_ERR_RANGE, "paper.h"},
    {"l1 inf", ex2, l1_inf, ZENO_ERR_RANGE, "paper.l1"},
    {"l2 too large", ex2, l2_huge, ZENO_ERR_RANGE, "paper.l2"},
    {"phi1", ex2, phi1_small, ZENO_ERR_RANGE, "paper.phi1"},
    {"phi2", ex2, phi2_big, ZENO_ERR_RANGE, "paper.phi2"},
    {"tau NaN", ex2, tau_nan, ZENO_ERR_RANGE, "paper.tau"},
    {"com.x", ex2, com_x_nan, ZENO_ERR_RANGE, "com.x"},
    {"com.y", ex2, com_y_inf, ZENO_ERR_RANGE, "com.y"},
    {"0 contacts", ex2, no_contacts, ZENO_ERR_RANGE, "contacts"},
    {"17 contacts", ex2, seventeen_contacts, ZENO_ERR_RANGE, "contacts"},
    {"point NaN (paper)", ex2, point_nan, ZENO_ERR_RANGE, "paper.l1"},
    {"point NaN", general_two, point_nan, ZENO_ERR_RANGE, "contacts.0.point"},
    {"surface angle (paper)", ex2, angle_big, ZENO_ERR_RANGE, "paper.phi1"},
    {"surface angle", general_two, angle_big, ZENO_ERR_RANGE, "contacts.0.surface.angle"},
    {"mu < 0 (paper)", ex2, mu_negative, ZENO_ERR_RANGE, "paper.mu1"},
    {"mu < 0", general_two, mu_negative, ZENO_ERR_RANGE, "contacts.0.mu"},
    {"mu2 NaN", ex2, mu2_nan, ZENO_ERR_RANGE, "paper.mu2"},
    {"surface point NaN", ex2, surface_point_nan, ZENO_ERR_RANGE, "contacts.0.surface.point"},
    {"contact off its surface", general_two, off_surface, ZENO_ERR_GEOMETRY,
     "contacts.0.surface.point"},
    {"coincident contacts (paper)", ex2, coincide, ZENO_ERR_GEOMETRY, "paper.l2"},
    {"coincident contacts", general_two, coincide, ZENO_ERR_GEOMETRY, "contacts.1.point"},
    {"load < 0 (paper)", ex2, load_negative, ZENO_ERR_RANGE, "paper.f"},
    {"load < 0", general_two, load_negative, ZENO_ERR_RANGE, "load.magnitude"},
    {"load angle", general_two, load_angle_big, ZENO_ERR_RANGE, "load.angle"},
    {"load torque", general_two, load_torque_inf, ZENO_ERR_RANGE, "load.torque"},
    {"restitution", ex2, e_big, ZENO_ERR_RANGE, "impact.e"},
    {"tangential restitution", ex2, et_big, ZENO_ERR_RANGE, "impact.et"},
    {"q' with one contact", ex2, qp_one_contact, ZENO_ERR_RANGE, "initial.qp"},
    {"q' NaN", ex2, qp_nan, ZENO_ERR_RANGE, "initial.qp"},
    {"q'dot inf", ex2, qdp_inf, ZENO_ERR_RANGE, "initial.qdp"},
    {"q' penetrating", ex2, qp_penetrating, ZENO_ERR_RANGE, "initial.qp"},
    {"pose NaN", ex2, pose_nan, ZENO_ERR_RANGE, "initial.pose"},
    {"velocity inf", ex2, velocity_inf, ZENO_ERR_RANGE, "initial.velocity"},
    {"epsilon 0", ex2, epsilon_zero, ZENO_ERR_RANGE, "epsilon"},
    {"epsilon > 1", ex2, epsilon_big, ZENO_ERR_RANGE, "epsilon"},
    {"epsilon tiny", ex2, epsilon_tiny, ZENO_ERR_RANGE, "epsilon"},
    {"t_end 0", ex2, t_end_zero, ZENO_ERR_RANGE, "stop.t_end"},
    {"max_events 0", ex2, max_events_zero, ZENO_ERR_RANGE, "stop.max_events"},
    {"escape radius", ex2, escape_negative, ZENO_ERR_RANGE, "stop.escape_radius"},
    {"rtol", ex2, rtol_big, ZENO_ERR_RANGE, "solver.rtol"},
    {"atol", ex2, atol_zero, ZENO_ERR_RANGE, "solver.atol"},
    {"sample_dt", ex2, sample_dt_negative, ZENO_ERR_RANGE, "solver.sample_dt"},
    {"outline of 2", ex2, outline_short, ZENO_ERR_RANGE, "body.outline"},
    {"outline NaN", ex2, outline_nan, ZENO_ERR_RANGE, "body.outline.1"},
    {"disk radius", ex2, disk_zero, ZENO_ERR_RANGE, "body.outline_radius"},
};

static void test_validate_every_check(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof VALIDATE_CASES / sizeof *VALIDATE_CASES; k++) {
    const validate_case *c = &VALIDATE_CASES[k];
    zeno_scene s = c->base();
    zeno_error e;
    assert_int_equal(zeno_scene_validate(&s, &e), ZENO_OK);
    c->mutate(&s);
    const zeno_status st = zeno_scene_validate(&s, &e);
    if (st != c->code || strcmp(e.parameter, c->parameter) != 0)
      fail_msg("%s: got %s '%s: %s', expected %s '%s'", c->what, zeno_status_name(st), e.parameter,
               e.message, zeno_status_name(c->code), c->parameter);
    check_error(st, c->code, &e, c->parameter);
    assert_int_equal(zeno_scene_validate(&s, NULL), c->code);
  }
  zeno_error e;
  check_error(zeno_scene_validate(NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

static void test_load_arguments(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error e;
  const char *bad_list[] = {"paper.alpha=1", NULL};
  const char *path = ZENO_SCENES_DIR "/example2.yaml";
  check_error(zeno_scene_load(NULL, NULL, 0, &s, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_load(path, NULL, 0, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_load(path, NULL, 1, &s, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_load(path, bad_list, 2, &s, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_load_string(NULL, "x", NULL, 0, &s, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_load_string("name: x\n", "x", NULL, 0, NULL, &e), ZENO_ERR_ARGUMENT, &e,
              NULL);
  assert_int_equal(zeno_scene_load(NULL, NULL, 0, &s, NULL), ZENO_ERR_ARGUMENT);
}

static void test_load_io(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error e;
  // A missing file: the open fails; a directory opens but cannot be read.
  const char *missing = ZENO_SCENES_DIR "/no-such-scene.yaml";
  check_error(zeno_scene_load(missing, NULL, 0, &s, &e), ZENO_ERR_IO, &e, "");
  assert_string_equal(e.file, missing);
  assert_non_null(strstr(e.message, "cannot open"));
  check_error(zeno_scene_load(ZENO_SCENES_DIR, NULL, 0, &s, &e), ZENO_ERR_IO, &e, "");
  assert_non_null(strstr(e.message, "cannot read"));
  assert_int_equal(zeno_scene_load(missing, NULL, 0, &s, NULL), ZENO_ERR_IO);
}

typedef struct load_case {
  const char *text;
  const char *override;  ///< NULL: none
  zeno_status code;
  const char *parameter;
  int line;  ///< 0 for override errors
} load_case;

/// A complete paper block (Example 2), so that overrides of it validate.
#define PAPER_TEXT                                                       \
  "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, " \
  "mu1: 0.75, mu2: 0.6, rho: 1, m: 1, f: 1, tau: 0}\n"

// One input per loader error class, from the file and from --set.
static const load_case LOAD_CASES[] = {
    {"name: [1,\n", NULL, ZENO_ERR_SYNTAX, NULL, 2},
    {"name: x\nfoo: 1\n", NULL, ZENO_ERR_UNKNOWN_KEY, "foo", 2},
    {"paper: {alpha: 1}\n", NULL, ZENO_ERR_MISSING, "paper.l1", 1},
    {"model: [zod]\n", NULL, ZENO_ERR_TYPE, "model", 1},
    {"stop:\n  t_end: -1\n", NULL, ZENO_ERR_RANGE, "stop.t_end", 2},
    {"a: &x 1\nname: *x\n", NULL, ZENO_ERR_SYNTAX, NULL, 2},
    {"name: a\n---\nname: b\n", NULL, ZENO_ERR_SYNTAX, NULL, 2},
    {"name: x\n", "paper.alpha", ZENO_ERR_SYNTAX, NULL, 0},
    {"name: x\n", "stop.t_end=[1,", ZENO_ERR_SYNTAX, NULL, 0},
    {"name: x\n", "paper.alphx=45", ZENO_ERR_UNKNOWN_KEY, NULL, 0},
    {PAPER_TEXT, "paper.m=0", ZENO_ERR_RANGE, "paper.m", 0},
    {PAPER_TEXT, "paper.m=[1]", ZENO_ERR_TYPE, "paper.m", 0},
    {"name: x\n", "model=7", ZENO_ERR_TYPE, "model", 0},
    {"contacts: [{mu: 1}]\n", "contacts.5.mu=1", ZENO_ERR_RANGE, NULL, 0},
};

static void test_load_error_classes(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof LOAD_CASES / sizeof *LOAD_CASES; k++) {
    const load_case *c = &LOAD_CASES[k];
    const char *ov[1] = {c->override};
    const size_t n = c->override ? 1 : 0;
    zeno_scene s;
    zeno_error e;
    const zeno_status st = zeno_scene_load_string(c->text, "t.yaml", ov, n, &s, &e);
    if (st != c->code)
      fail_msg("case %zu: got %s '%s', expected %s", k, zeno_status_name(st), e.message,
               zeno_status_name(c->code));
    check_error(st, c->code, &e, c->parameter);
    assert_int_equal(e.line, c->line);
    assert_string_equal(e.file, c->override ? "--set" : "t.yaml");
    if (c->line > 0) assert_true(e.column > 0);
    assert_int_equal(zeno_scene_load_string(c->text, "t.yaml", ov, n, &s, NULL), c->code);
  }
}

static void test_load_geometry_located(void **state) {
  (void)state;
  const char text[] =
      "body: {mass: 1, rho: 1}\n"
      "load: {magnitude: 1, angle: 0}\n"
      "contacts:\n"
      "  - {point: [0, -1], surface: {angle: 0}, mu: 1}\n"
      "  - {point: [0, -1], surface: {angle: 0}, mu: 1}\n";
  zeno_scene s;
  zeno_error e;
  check_error(zeno_scene_load_string(text, "t.yaml", NULL, 0, &s, &e), ZENO_ERR_GEOMETRY, &e,
              "contacts.1.point");
  assert_int_equal(e.line, 5);
}

// User text with control characters is quoted on one line (a fuzz finding):
// the newline of the key "a\nb" becomes '?'.
static void test_messages_stay_one_line(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error e;
  check_error(zeno_scene_load_string("\"a\\nb\": 1\n", "t.yaml", NULL, 0, &s, &e),
              ZENO_ERR_UNKNOWN_KEY, &e, "a?b");
  assert_non_null(strstr(e.message, "'a?b'"));
  // A scene name is printed in summaries: control characters (a terminal
  // escape sequence, a tab) are refused, the message quoting them as '?'.
  const char *ov[] = {"name=\"x\ty\""};
  check_error(zeno_scene_load_string(PAPER_TEXT, "t\n.yaml", ov, 1, &s, &e), ZENO_ERR_RANGE, &e,
              "name");
  assert_non_null(strstr(e.message, "'x?y'"));
  assert_string_equal(e.file, "--set");
  const char *esc[] = {"name=\"\\e[31mred\""};
  check_error(zeno_scene_load_string(PAPER_TEXT, "t.yaml", esc, 1, &s, &e), ZENO_ERR_RANGE, &e,
              "name");
  zeno_scene d = zeno_scene_default();
  d.name[1] = '\x1b';
  check_error(zeno_scene_validate(&d, &e), ZENO_ERR_RANGE, &e, "name");
  const char *bad[] = {"paper.m=\"1\n2\""};
  check_error(zeno_scene_load_string(PAPER_TEXT, "t.yaml", bad, 1, &s, &e), ZENO_ERR_TYPE, &e,
              "paper.m");
}

/* ------------------------------------------------------------------------ */
/* Simulator                                                                 */
/* ------------------------------------------------------------------------ */

static void test_sim_create_errors(void **state) {
  (void)state;
  zeno_error e;
  assert_null(zeno_sim_create(NULL, NULL, &e));
  check_error(e.code, ZENO_ERR_ARGUMENT, &e, NULL);

  zeno_scene bad = ex2();
  bad.t_end = -1;
  assert_null(zeno_sim_create(&bad, NULL, &e));
  check_error(e.code, ZENO_ERR_RANGE, &e, "stop.t_end");
  assert_null(zeno_sim_create(&bad, NULL, NULL));

  const zeno_scene s = ex2();
  zeno_sim_def d = zeno_sim_def_default();
  d.velocity_rtol = 0;
  assert_null(zeno_sim_create(&s, &d, &e));
  check_error(e.code, ZENO_ERR_RANGE, &e, "sim_def");
  d = zeno_sim_def_default();
  d.max_period = 1000000;
  assert_null(zeno_sim_create(&s, &d, &e));
  check_error(e.code, ZENO_ERR_RANGE, &e, "sim_def");

  // A pose below the floor: contact 1 of Example 2 penetrates by ~0.5.
  zeno_scene pose = ex2();
  pose.initial_kind = ZENO_INITIAL_POSE;
  pose.initial_pose[1] = -0.5;
  assert_null(zeno_sim_create(&pose, NULL, &e));
  check_error(e.code, ZENO_ERR_RANGE, &e, "initial");

  // The normal line at contact 1 passes through contact 2: q' = (z1, z2, x2)
  // does not determine the pose.
  zeno_scene stacked = general_two();
  stacked.contacts[0].point[0] = 0;
  stacked.contacts[0].point[1] = -1;
  stacked.contacts[0].surface_angle = 0;
  stacked.contacts[1].point[0] = 0;
  stacked.contacts[1].point[1] = -2;
  stacked.contacts[1].surface_angle = ZENO_PI / 4;
  assert_int_equal(zeno_scene_validate(&stacked, &e), ZENO_OK);
  assert_null(zeno_sim_create(&stacked, NULL, &e));
  check_error(e.code, ZENO_ERR_GEOMETRY, &e, "contacts");

  zeno_summary sum;
  char word[64];
  check_error(zeno_run(&bad, NULL, &sum, word, sizeof word, &e), ZENO_ERR_RANGE, &e, "stop.t_end");
  assert_int_equal(zeno_run(&bad, NULL, &sum, word, sizeof word, NULL), ZENO_ERR_RANGE);
  assert_int_equal(zeno_run(NULL, NULL, &sum, word, sizeof word, NULL), ZENO_ERR_ARGUMENT);
}

static void test_sim_iteration_errors(void **state) {
  (void)state;
  zeno_event ev;
  zeno_state st;
  assert_int_equal(zeno_sim_next_event(NULL, &ev, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_sim_state_at(NULL, 0, &st, NULL), ZENO_ERR_ARGUMENT);
  const zeno_scene s = ex2();
  zeno_sim_def d = zeno_sim_def_default();
  d.keep_history = true;
  zeno_sim *sim = zeno_sim_create(&s, &d, NULL);
  assert_non_null(sim);
  assert_int_equal(zeno_sim_next_event(sim, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_sim_state_at(sim, 0, NULL, NULL), ZENO_ERR_ARGUMENT);
  while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
  }
  assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_DONE);
  assert_int_equal(zeno_sim_state_at(sim, -1, &st, NULL), ZENO_ERR_RANGE);
  assert_int_equal(zeno_sim_state_at(sim, ev.t + 1, &st, NULL), ZENO_ERR_RANGE);
  // Not a time: an error, not a state of NaNs.
  zeno_error nan_error;
  assert_int_equal(zeno_sim_state_at(sim, NAN, &st, &nan_error), ZENO_ERR_RANGE);
  assert_string_equal(nan_error.parameter, "t");
  assert_int_equal(zeno_sim_state_at(sim, INFINITY, &st, NULL), ZENO_ERR_RANGE);
  assert_int_equal(zeno_sim_state_at(sim, ev.t, &st, NULL), ZENO_OK);
  zeno_sim_destroy(sim);
  zeno_sim_destroy(NULL);

  zeno_mode m;
  zeno_error err;
  assert_int_equal(zeno_mode_parse("XX", 2, &m, &err), ZENO_ERR_SYNTAX);
  assert_non_null(strstr(err.message, "'XX' is not a mode of 2 contacts"));
  assert_string_equal(err.parameter, "mode");
  assert_int_equal(zeno_mode_parse("S", 2, &m, &err), ZENO_ERR_SYNTAX);
  assert_int_equal(zeno_mode_parse("SSS", 2, &m, &err), ZENO_ERR_SYNTAX);
  assert_int_equal(zeno_mode_parse("P", 3, &m, &err), ZENO_ERR_SYNTAX);
  assert_int_equal(zeno_mode_parse(NULL, 2, &m, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_mode_parse("PF", 2, &m, NULL), ZENO_OK);
  assert_int_equal(m.letter[0], ZENO_LETTER_P);
  assert_int_equal(m.letter[1], ZENO_LETTER_F);
  assert_int_equal(zeno_mode_parse("N", 1, &m, &err), ZENO_OK);
  assert_int_equal(m.letter[0], ZENO_LETTER_N);
  // Impact names and masks are inverse to each other.
  for (unsigned mask = 1; mask <= 3; mask++)
    assert_int_equal(zeno_impact_mask(zeno_impact_name(mask, 2), 2), mask);
  assert_int_equal(zeno_impact_mask(zeno_impact_name(1, 1), 1), 1);
  assert_int_equal(zeno_impact_mask("FF", 2), 0);
  assert_int_equal(zeno_impact_mask("IX", 2), 0);
}

/* ------------------------------------------------------------------------ */
/* Analysis                                                                  */
/* ------------------------------------------------------------------------ */

static void test_equilibrium_errors(void **state) {
  (void)state;
  zeno_equilibrium_report rep;
  zeno_error e;
  const zeno_scene s = ex2();
  check_error(zeno_equilibrium_check(NULL, &rep, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_equilibrium_check(&s, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  zeno_scene bad = ex2();
  bad.paper.h = NAN;
  check_error(zeno_equilibrium_check(&bad, &rep, &e), ZENO_ERR_RANGE, &e, "paper.h");
  assert_int_equal(zeno_equilibrium_check(&bad, &rep, NULL), ZENO_ERR_RANGE);
}

static void test_stability_errors(void **state) {
  (void)state;
  zeno_error e;
  const zeno_scene s = ex2(), one = one_contact();
  zeno_scene bad = ex2();
  bad.restitution = 2;

  zeno_cycle cy;
  check_error(zeno_cycle_eval(NULL, 0, &cy, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_cycle_eval(&s, 0, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_cycle_eval(&one, 0, &cy, &e), ZENO_ERR_ARGUMENT, &e, "contacts");
  check_error(zeno_cycle_eval(&s, PHI_OUTSIDE, &cy, &e), ZENO_ERR_RANGE, &e, "phi");
  check_error(zeno_cycle_eval(&s, NAN, &cy, &e), ZENO_ERR_RANGE, &e, "phi");
  check_error(zeno_cycle_eval(&bad, 0, &cy, &e), ZENO_ERR_RANGE, &e, "impact.e");
  assert_int_equal(zeno_cycle_eval(&bad, 0, &cy, NULL), ZENO_ERR_RANGE);

  zeno_maps maps;
  zeno_maps_def md = zeno_maps_def_default();
  check_error(zeno_maps_compute(NULL, NULL, &maps, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_maps_compute(&s, NULL, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  md.samples = 8;
  check_error(zeno_maps_compute(&s, &md, &maps, &e), ZENO_ERR_RANGE, &e, "samples");
  md.samples = ZENO_MAPS_MAX_SAMPLES + 1;  // a bound on memory and time
  check_error(zeno_maps_compute(&s, &md, &maps, &e), ZENO_ERR_RANGE, &e, "samples");
  md = zeno_maps_def_default();
  md.endpoint_delta = 0.5;
  check_error(zeno_maps_compute(&s, &md, &maps, &e), ZENO_ERR_RANGE, &e, "maps");
  check_error(zeno_maps_compute(&one, NULL, &maps, &e), ZENO_ERR_ARGUMENT, &e, "contacts");
  check_error(zeno_maps_compute(&bad, NULL, &maps, &e), ZENO_ERR_RANGE, &e, "impact.e");
  assert_int_equal(zeno_maps_compute(&bad, NULL, &maps, NULL), ZENO_ERR_RANGE);

  bool persistent;
  check_error(zeno_persistent(NULL, &persistent, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_persistent(&s, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_persistent(&one, &persistent, &e), ZENO_ERR_ARGUMENT, &e, "contacts");
  check_error(zeno_persistent(&bad, &persistent, &e), ZENO_ERR_RANGE, &e, "impact.e");

  zeno_analysis a;
  zeno_analysis_def ad = zeno_analysis_def_default();
  check_error(zeno_analyze(NULL, NULL, &a, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_analyze(&s, NULL, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_analyze(&one, NULL, &a, &e), ZENO_ERR_ARGUMENT, &e, "contacts");
  ad.partition_intervals = 2;
  check_error(zeno_analyze(&s, &ad, &a, &e), ZENO_ERR_RANGE, &e, "partition_intervals");
  zeno_analysis_free(&a);  // nothing to free after an error
  ad = zeno_analysis_def_default();
  ad.maps.samples = 3;
  check_error(zeno_analyze(&s, &ad, &a, &e), ZENO_ERR_RANGE, &e, "samples");
  zeno_analysis_free(&a);
  check_error(zeno_analyze(&bad, NULL, &a, &e), ZENO_ERR_RANGE, &e, "impact.e");
  assert_int_equal(zeno_analyze(&bad, NULL, &a, NULL), ZENO_ERR_RANGE);
}

// The interval graph and the partition test report through zeno_error.
static void test_partition_errors(void **state) {
  (void)state;
  zeno_maps maps;
  memset(&maps, 0, sizeof maps);
  const double edges[4] = {-ZENO_PI / 2, 0.5, -0.5, ZENO_PI / 2};
  zeno_interval_graph g, merged;
  zeno_error e;
  check_error(zeno_interval_graph_build(NULL, edges, 3, &g, &e), ZENO_ERR_ARGUMENT, &e,
              "partition");
  check_error(zeno_interval_graph_build(&maps, edges, 0, &g, &e), ZENO_ERR_ARGUMENT, &e,
              "partition");
  assert_non_null(strstr(e.message, "1 to 1024 intervals (0 given)"));
  check_error(zeno_interval_graph_build(&maps, edges, ZENO_MAX_PARTITION + 1, &g, &e),
              ZENO_ERR_ARGUMENT, &e, "partition");
  check_error(zeno_interval_graph_build(&maps, edges, 3, &g, &e), ZENO_ERR_RANGE, &e, "partition");
  assert_non_null(strstr(e.message, "increasing: edge 1 (0.5) >= edge 2 (-0.5)"));
  // No record: the code alone.
  assert_int_equal(zeno_interval_graph_build(&maps, edges, 3, &g, NULL), ZENO_ERR_RANGE);
  // A built graph: the partition test refuses a NULL and a merged graph.
  const double good[4] = {-ZENO_PI / 2, -0.5, 0.5, ZENO_PI / 2};
  assert_int_equal(zeno_interval_graph_build(&maps, good, 3, &g, &e), ZENO_OK);
  zeno_partition_verdict v;
  check_error(zeno_partition_stable(NULL, &g, &v, &e), ZENO_ERR_ARGUMENT, &e, "graph");
  check_error(zeno_partition_stable(&maps, &g, NULL, &e), ZENO_ERR_ARGUMENT, &e, "graph");
  assert_int_equal(zeno_interval_graph_merge(&g, &merged, &e), ZENO_OK);
  check_error(zeno_partition_stable(&maps, &merged, &v, &e), ZENO_ERR_ARGUMENT, &e, "graph");
  check_error(zeno_interval_graph_merge(NULL, &merged, &e), ZENO_ERR_ARGUMENT, &e, "graph");
  // No samples at all: every interval is safe, the partition stable.
  assert_int_equal(zeno_partition_stable(&maps, &g, &v, &e), ZENO_OK);
  assert_true(v.stable);
  assert_int_equal(v.unsafe_count, 0);
  assert_string_equal(v.reason, "");
  zeno_interval_graph_free(&g);
  zeno_interval_graph_free(&merged);
  zeno_interval_graph_free(NULL);
  assert_null(g.intervals);
}

/* ------------------------------------------------------------------------ */
/* Contact stability (Pang-Trinkle, Dupont)                                 */
/* ------------------------------------------------------------------------ */

typedef struct problem_case {
  void (*mutate)(zeno_contact_problem *);
  const char *parameter;
} problem_case;

#define PMUT(name, body) \
  static void name(zeno_contact_problem *p) { body; }
PMUT(p_count, p->contact_count = 3)
PMUT(p_inv_mass, p->inv_mass[2] = 0)
PMUT(p_load, p->load[1] = NAN)
PMUT(p_normal, p->normal[1][2] = INFINITY)
PMUT(p_mu, p->mu[0] = -1)
PMUT(p_tangent, memcpy(p->tangent[0], p->normal[0], sizeof p->tangent[0]))

static const problem_case PROBLEM_CASES[] = {
    {p_count, "problem.contact_count"},
    {p_inv_mass, "problem.inv_mass"},
    {p_load, "problem.load"},
    {p_normal, "problem.normal"},
    {p_mu, "problem.mu"},
    {p_tangent, "problem.tangent"},
};

static void test_contact_stability_errors(void **state) {
  (void)state;
  zeno_error e;
  zeno_contact_problem p, one_p;
  const zeno_scene s = ex2(), one = one_contact();
  zeno_scene bad = ex2();
  bad.paper.alpha = NAN;
  check_error(zeno_contact_problem_from_scene(NULL, &p, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_contact_problem_from_scene(&s, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_contact_problem_from_scene(&bad, &p, &e), ZENO_ERR_RANGE, &e, "paper.alpha");
  assert_int_equal(zeno_contact_problem_from_scene(&s, &p, &e), ZENO_OK);
  assert_int_equal(zeno_contact_problem_from_scene(&one, &one_p, &e), ZENO_OK);

  zeno_weak_stability w;
  zeno_strong_stability st;
  zeno_wedging wd;
  double mu_jam;
  for (size_t k = 0; k < sizeof PROBLEM_CASES / sizeof *PROBLEM_CASES; k++) {
    zeno_contact_problem q = p;
    PROBLEM_CASES[k].mutate(&q);
    const char *param = PROBLEM_CASES[k].parameter;
    check_error(zeno_weak_stability_check(&q, &w, &e), ZENO_ERR_ARGUMENT, &e, param);
    check_error(zeno_strong_stability_check(&q, &st, &e), ZENO_ERR_ARGUMENT, &e, param);
    check_error(zeno_wedging_check(&q, &wd, &e), ZENO_ERR_ARGUMENT, &e, param);
    check_error(zeno_jamming_coefficient(&q, 0, ZENO_LETTER_P, &mu_jam, &e), ZENO_ERR_ARGUMENT, &e,
                param);
    assert_int_equal(zeno_weak_stability_check(&q, &w, NULL), ZENO_ERR_ARGUMENT);
  }
  check_error(zeno_weak_stability_check(NULL, &w, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_weak_stability_check(&p, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_strong_stability_check(NULL, &st, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_strong_stability_check(&p, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_wedging_check(&p, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_wedging_check(&one_p, &wd, &e), ZENO_ERR_ARGUMENT, &e, "problem.contact_count");
  check_error(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_P, NULL, &e), ZENO_ERR_ARGUMENT, &e,
              NULL);
  check_error(zeno_jamming_coefficient(&p, 2, ZENO_LETTER_P, &mu_jam, &e), ZENO_ERR_ARGUMENT, &e,
              "contact");
  check_error(zeno_jamming_coefficient(&one_p, 1, ZENO_LETTER_N, &mu_jam, &e), ZENO_ERR_ARGUMENT,
              &e, "contact");
  check_error(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_S, &mu_jam, &e), ZENO_ERR_ARGUMENT, &e,
              "slip");

  zeno_scene_stability ss;
  check_error(zeno_scene_stability_check(NULL, &ss, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_stability_check(&s, NULL, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  check_error(zeno_scene_stability_check(&one, &ss, &e), ZENO_ERR_ARGUMENT, &e, "contacts");
  check_error(zeno_scene_stability_check(&bad, &ss, &e), ZENO_ERR_RANGE, &e, "paper.alpha");
}

// The LP layer under the equilibrium and stability checks (internal API):
// sizes outside its arrays and non-finite coefficients are refused.
static void test_lp_errors(void **state) {
  (void)state;
  zeno_error e;
  lp_dense lp;
  lp_solution sol;
  lp_dense_init(&lp, 1, 1);
  lp.rows = 0;
  check_error(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  lp_dense_init(&lp, 1, 1);
  lp.cols = LP_MAX_COLS + 1;
  check_error(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  lp_dense_init(&lp, 1, 1);
  lp.a[0][0] = NAN;
  check_error(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_RANGE, &e, NULL);
  lp_margin_lp m;
  memset(&m, 0, sizeof m);
  m.n = 3;
  m.scale = m.cap = 1;
  lp_margin_result r;
  check_error(lp_margin_lp_solve(&m, &r, &e), ZENO_ERR_ARGUMENT, &e, NULL);
  m.n = 1;
  m.scale = 0;
  check_error(lp_margin_lp_solve(&m, &r, &e), ZENO_ERR_ARGUMENT, &e, NULL);
}

// GLPK is loaded at the first LP (glpk_load.h): a library that is missing,
// or is not GLPK, is one error naming it and what to install, never a
// crash; the real one loads with every function, and a small LP solves
// (max x + y on x + 2y <= 4, 3x + y <= 6: 2.8 at (1.6, 1.2)).
// SUNDIALS is loaded at the first full-model integrator (sundials_load.h):
// a missing library and one without its functions are named; the process's
// table is loaded once and complete (test_full_model integrates with it).
static void test_sundials_loading(void **state) {
  (void)state;
  zeno_error e;
  sundials_api t;
  check_error(sundials_api_open("libzeno-no-such-sundials.so.0", &t, &e), ZENO_ERR_UNSUPPORTED, &e,
              "model");
  assert_non_null(strstr(e.message, "libzeno-no-such-sundials.so.0"));
  assert_non_null(strstr(e.message, "apt-get install libsundials-cvode6"));
  assert_null(t.CVodeCreate);
  check_error(sundials_api_open("libm.so.6", &t, &e), ZENO_ERR_UNSUPPORTED, &e, "model");
  assert_non_null(strstr(e.message, "SUNContext_Create"));
  const sundials_api *p = sundials_api_get(&e);
  assert_non_null(p);
  assert_ptr_equal(sundials_api_get(NULL), p);
  assert_non_null(p->CVode);
}

static void test_glpk_loading(void **state) {
  (void)state;
  zeno_error e;
  glpk_api g;
  check_error(glpk_api_open("libzeno-no-such-glpk.so.0", &g, &e), ZENO_ERR_UNSUPPORTED, &e, NULL);
  assert_non_null(strstr(e.message, "libzeno-no-such-glpk.so.0"));
  assert_non_null(strstr(e.message, "apt-get install libglpk40"));
  assert_null(g.simplex);
  check_error(glpk_api_open("libm.so.6", &g, &e), ZENO_ERR_UNSUPPORTED, &e, NULL);
  assert_non_null(strstr(e.message, "glp_create_prob"));
  const glpk_api *p = glpk_api_get(&e);
  assert_non_null(p);
  assert_ptr_equal(glpk_api_loaded(), p);
  lp_dense lp;
  lp_dense_init(&lp, 2, 2);
  const double a[2][2] = {{1, 2}, {3, 1}}, hi[2] = {4, 6};
  for (int r = 0; r < 2; r++) {
    for (int c = 0; c < 2; c++) lp.a[r][c] = a[r][c];
    lp.row_kind[r] = LP_UPPER;
    lp.row_hi[r] = hi[r];
    lp.col_kind[r] = LP_LOWER;
    lp.obj[r] = 1;
  }
  lp_solution sol;
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_OK);
  assert_int_equal(sol.status, LP_OPTIMAL);
  assert_float_equal(sol.objective, 2.8, 1e-12);
  assert_float_equal(sol.x[0], 1.6, 1e-12);
  assert_float_equal(sol.x[1], 1.2, 1e-12);
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

// Writers report a failing stream (here /dev/full, unbuffered so that every
// write fails at once) as ZENO_ERR_IO, and missing inputs as ZENO_ERR_ARGUMENT.
static void test_io_errors(void **state) {
  (void)state;
  FILE *full = fopen("/dev/full", "w");
  if (full == NULL) skip();
  setvbuf(full, NULL, _IONBF, 0);
  const zeno_scene s = ex2();
  zeno_state st;
  memset(&st, 0, sizeof st);
  zeno_event ev;
  memset(&ev, 0, sizeof ev);
  const double v[2] = {1, 2};
  assert_int_equal(zeno_io_json_number(full, 1.5, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_json_string(full, "x", NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_json_numbers(full, v, 2, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_state_json(full, &st, 2, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_trajectory_header(full, 2, NULL), ZENO_ERR_IO);
  const zeno_run_dir_row row = zeno_run_dir_row_from_state(&st);
  assert_int_equal(zeno_io_trajectory_row(full, &row, 2, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_event_jsonl(full, &ev, 2, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_events_csv_header(full, 2, NULL), ZENO_ERR_IO);
  assert_int_equal(zeno_io_event_csv(full, &ev, 2, NULL), ZENO_ERR_IO);
  zeno_equilibrium_report rep;
  assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
  assert_int_equal(zeno_io_equilibrium_json(full, &s, &rep, NULL), ZENO_ERR_IO);
  zeno_summary sum;
  char word[256];
  assert_int_equal(zeno_run(&s, NULL, &sum, word, sizeof word, NULL), ZENO_OK);
  const zeno_io_run run = {&s, &sum, word, NULL, 0, NULL, NULL};
  assert_int_equal(zeno_io_run_json(full, &run, NULL), ZENO_ERR_IO);
  fclose(full);

  FILE *sink = fopen("/dev/null", "w");
  assert_non_null(sink);
  const zeno_io_run no_summary = {&s, NULL, word, NULL, 0, NULL, NULL};
  assert_int_equal(zeno_io_run_json(sink, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_run_json(sink, &no_summary, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_equilibrium_json(sink, NULL, &rep, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_equilibrium_json(sink, &s, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_analysis_json(sink, &s, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_maps_csv(sink, NULL, NULL), ZENO_ERR_ARGUMENT);
  // The fixed headers are of one or two contacts (the _of forms take any
  // scene); the row writers take 1 to ZENO_MAX_CONTACTS.
  zeno_error err;
  assert_null(zeno_io_trajectory_columns(3));
  assert_int_equal(zeno_io_trajectory_header(sink, 0, &err), ZENO_ERR_ARGUMENT);
  assert_string_equal(err.parameter, "contact_count");
  assert_int_equal(zeno_io_trajectory_row(sink, &row, 0, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_trajectory_row(sink, &row, ZENO_MAX_CONTACTS + 1, NULL),
                   ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_trajectory_header_of(sink, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_events_csv_header_of(NULL, &s, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_events_csv_header(sink, 3, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_event_csv(sink, &ev, 0, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_event_csv(sink, NULL, 2, NULL), ZENO_ERR_ARGUMENT);
  fclose(sink);
}

/* ------------------------------------------------------------------------ */
/* Error records                                                             */
/* ------------------------------------------------------------------------ */

static void test_error_record(void **state) {
  (void)state;
  for (int c = ZENO_OK; c <= ZENO_ERR_INTERRUPTED; c++)
    assert_string_not_equal(zeno_status_name((zeno_status)c), "unknown");
  assert_string_equal(zeno_status_name((zeno_status)99), "unknown");
  char line[LINE_LEN];
  assert_int_equal(zeno_error_format(NULL, line, sizeof line), 8);
  assert_string_equal(line, "no error");
  zeno_error e;
  memset(&e, 'x', sizeof e);
  zeno_error_clear(&e);
  assert_int_equal(e.code, ZENO_OK);
  assert_string_equal(e.message, "");
  zeno_error_clear(NULL);
  // A message cut to the buffer still reports its full length.
  zeno_scene s = ex2();
  s.paper.alpha = 999;
  assert_int_equal(zeno_scene_validate(&s, &e), ZENO_ERR_RANGE);
  const size_t n = zeno_error_format(&e, line, 8);
  assert_true(n > 8);
  assert_int_equal(strlen(line), 7);
}

// zeno_closest_name(): a swap, a missing or an extra letter is one edit; a
// third of the word's length (rounded up, at most 2) is the most accepted;
// two names at the same distance, an exact match, an empty or over-long
// word give no suggestion.
static void closest_name(void **state) {
  (void)state;
  const char *const names[] = {"alpha", "l1", "l2", "h", "phi1", "phi2", "mu1", "mu2"};
  const size_t n = sizeof names / sizeof *names;
  assert_string_equal(zeno_closest_name("alpah", names, n), "alpha");
  assert_string_equal(zeno_closest_name("alph", names, n), "alpha");
  assert_string_equal(zeno_closest_name("alphaa", names, n), "alpha");
  assert_string_equal(zeno_closest_name("phi11", names, n), "phi1");
  assert_null(zeno_closest_name("alpha", names, n));  // exact: nothing to suggest
  assert_null(zeno_closest_name("phi", names, n));    // phi1 and phi2 tie
  assert_null(zeno_closest_name("mu", names, n));     // mu1 and mu2 tie
  assert_null(zeno_closest_name("beta", names, n));   // 4 edits from alpha
  assert_null(zeno_closest_name("ab", names, n));     // a third of 2 is 1: "h"? 2 edits
  assert_string_equal(zeno_closest_name("hh", names, n), "h");
  assert_null(zeno_closest_name("", names, n));
  assert_null(zeno_closest_name(NULL, names, n));
  assert_null(zeno_closest_name("alpah", NULL, 0));
  char longword[80];
  memset(longword, 'a', sizeof longword - 1);
  longword[sizeof longword - 1] = '\0';
  assert_null(zeno_closest_name(longword, names, n));
  const char *const commands[] = {"simulate", "check", "analyze", "maps", "regions", "view"};
  assert_string_equal(zeno_closest_name("simualte", commands, 6), "simulate");
  assert_string_equal(zeno_closest_name("analyse", commands, 6), "analyze");
  assert_null(zeno_closest_name("smlt", commands, 6));  // 4 edits
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_validate_every_check),
      cmocka_unit_test(test_load_arguments),
      cmocka_unit_test(test_load_io),
      cmocka_unit_test(test_load_error_classes),
      cmocka_unit_test(test_load_geometry_located),
      cmocka_unit_test(test_messages_stay_one_line),
      cmocka_unit_test(test_sim_create_errors),
      cmocka_unit_test(test_sim_iteration_errors),
      cmocka_unit_test(test_equilibrium_errors),
      cmocka_unit_test(test_stability_errors),
      cmocka_unit_test(test_partition_errors),
      cmocka_unit_test(test_contact_stability_errors),
      cmocka_unit_test(test_lp_errors),
      cmocka_unit_test(test_io_errors),
      cmocka_unit_test(test_error_record),
      cmocka_unit_test(closest_name),
      cmocka_unit_test(test_glpk_loading),
      cmocka_unit_test(test_sundials_loading),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
