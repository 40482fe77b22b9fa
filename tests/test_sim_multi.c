// zeno_sim for more than two contacts (src/sim/sim_multi.c, issue 34
// slice 7): the public simulator runs a scene of three contacts on the
// N-contact engine. Tested here:
//  - the same events as the engine itself (simn.h), bit for bit, and the
//    same word;
//  - closed forms through the public records: a box dropped flat onto
//    three collinear corners under Newton's law (impact time and speeds,
//    the bounces' limit, the energy before the first impact, dense output
//    in flight), and the same box in units a thousand times larger (times
//    scale by sqrt(1000));
//  - a box sliding into a wall that it meets above its centre of mass:
//    the impulses of the wall and the back floor corner by hand;
//  - the names of q''s coordinates, N-letter modes and impact names;
//  - the full model through the public records (the flat drop: it
//    translates, so its exact geometry is the ZOD's; the dense output
//    from the integrator's steps);
//  - the error paths: a penetrating initial state, a
//    restart (good and bad), dense output outside the run; the trajectory
//    header of three contacts (format version 2).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "simn/simn.h"
#include "test_util.h"
#include "zeno/zeno.h"

#define G 9.81
/// Closed forms hold to rounding of a few operations on O(1) numbers.
#define CLOSED_TOL 1e-9

static void assert_near(double a, double b, double tol) {
  if (!(fabs(a - b) <= tol)) fail_msg("%.17g != %.17g (tol %g)", a, b, tol);
}

/// The three-corner box's restitution (Newton's law): its drops' e.
#define DROP_E 0.5

// The box on three collinear floor corners (test_util.h) under Newton's
// law, e = DROP_E, scaled in length by L.
static zeno_scene box_on_three_corners(double L) {
  return three_corner_box(L, G, ZENO_LAW_NEWTON, DROP_E);
}

// The box held flat a height d above the floor in `model`, let go: its
// simulator, and the closed form's first impact time t1 = sqrt(2 d / g),
// speed v1 = sqrt(2 g d) and the limit t1 + 2 e v1 / (g (1 - e)) of its
// bounces at e^k v1.
static zeno_sim *dropped_box(double L, zeno_model model, double d, double *t1, double *v1,
                             double *limit) {
  zeno_scene s = box_on_three_corners(L);
  s.model = model;
  s.initial_pose[1] = d;
  zeno_error err;
  zeno_sim *sim = zeno_sim_create(&s, NULL, &err);
  if (sim == NULL) fail_msg("%s", err.message);
  *t1 = sqrt(2 * d / G);
  *v1 = sqrt(2 * G * d);
  *limit = *t1 + 2 * DROP_E * *v1 / (G * (1 - DROP_E));
  return sim;
}

// Held flat a height d above the floor, let go: the corners land at once
// at t1 and bounce at e^k v1; the bounces accumulate at the limit, and the
// box rests.
static void drop(double L, double *t_first, double *t_limit) {
  const double d = 0.2 * L, e = DROP_E;
  double t1, v1, limit;
  zeno_sim *sim = dropped_box(L, ZENO_MODEL_ZOD, d, &t1, &v1, &limit);
  zeno_error err;
  zeno_event ev;
  int impacts = 0, completions = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT) {
      impacts++;
      const double v_in = v1 * pow(e, impacts - 1);
      for (int i = 0; i < 3; i++) {
        assert_near(ev.before.gap_rate[i], -v_in, CLOSED_TOL * L);
        assert_near(ev.after.gap_rate[i], e * v_in, CLOSED_TOL * L);
        assert_near(ev.after.gap[i], 0, CLOSED_TOL * L);
      }
      assert_int_equal(ev.mode_before.letter[0], ZENO_LETTER_F);
      assert_true(ev.impact_mask != 0 && ev.impact_mask < 8);
      if (impacts == 1) {
        assert_near(ev.t, t1, CLOSED_TOL * sqrt(L));
        // Energy kept in flight: g d at the start, all kinetic at the floor.
        assert_near(ev.before.energy, G * d, CLOSED_TOL * L);
        assert_near(ev.energy_gain, 0, 0);
        // Dense output in the first flight: the fall from d.
        zeno_state st;
        assert_int_equal(zeno_sim_state_at(sim, t1 / 2, &st, NULL), ZENO_OK);
        for (int i = 0; i < 3; i++) assert_near(st.gap[i], d - G * t1 * t1 / 8, CLOSED_TOL * L);
        assert_near(st.qdot[1], -G * t1 / 2, CLOSED_TOL * L);
      }
    }
    if (ev.kind == ZENO_EVENT_ZENO) {
      completions++;
      assert_near(ev.t, limit, CLOSED_TOL * sqrt(L));
      assert_near(ev.zeno_ratio, e, CLOSED_TOL);
      assert_int_equal(ev.zeno_order, 1);
      // Not measured by the N-contact engine: NaN, null in JSON.
      assert_true(isnan(ev.tie_margin) && !ev.near_tie);
    }
  }
  assert_int_equal(completions, 1);
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  zeno_summary sum;
  zeno_sim_summary(sim, &sum);
  assert_true(sum.has_zeno);
  assert_near(sum.zeno_time, limit, CLOSED_TOL * sqrt(L));
  assert_int_equal(sum.impacts, impacts);
  for (int i = 0; i < 3; i++) assert_near(sum.final_state.gap[i], 0, CLOSED_TOL * L);
  char word[4096];
  zeno_sim_word(sim, word, sizeof word);
  assert_string_equal(word + strlen(word) - strlen("Z SSS"), "Z SSS");
  char names[3][ZENO_ZOD_NAME_SIZE];
  zeno_sim_zod_names(sim, names);
  for (int r = 0; r < 3; r++) assert_int_equal(names[r][0] == 'z' || names[r][0] == 'x', 1);
  zeno_sim_destroy(sim);
  *t_first = t1;
  *t_limit = limit;
}

static void test_three_corners_dropped(void **state) {
  (void)state;
  double t1, limit, t1k, limitk;
  drop(1, &t1, &limit);
  // In units a thousand times larger the same run, its times sqrt(1000)
  // times longer (g unchanged): no threshold is absolute.
  drop(1000, &t1k, &limitk);
  assert_near(t1k / t1, sqrt(1000), 1e-9);
  assert_near(limitk / limit, sqrt(1000), 1e-9);
}

// The shipped box in a corner, let go off the corner and tilted, under
// Newton's law: the public simulator's events are the engine's own, bit
// for bit (the scene's units are its own), and its word the engine's.
static void test_same_events_as_the_engine(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", NULL, 0, &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  s.impact_law = ZENO_LAW_NEWTON;
  s.restitution = 0.5;
  const double q0[3] = {0.01, 0.02, 0.01}, qd0[3] = {0, 0, 0};
  memcpy(s.initial_pose, q0, sizeof q0);
  memcpy(s.initial_velocity, qd0, sizeof qd0);
  zeno_sim *sim = zeno_sim_create(&s, NULL, &err);
  if (sim == NULL) fail_msg("%s", err.message);
  simn_model m;
  assert_int_equal(simn_model_of_scene(&s, &m, NULL), ZENO_OK);
  const simn_def def = simn_def_of_scene(&s);
  simn *run = NULL;
  assert_int_equal(simn_create(&m, &def, q0, qd0, &run, NULL), ZENO_OK);
  zeno_event ev;
  simn_event en;
  long events = 0, zenos = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) {
    assert_int_equal(simn_next_event(run, &en, NULL), ZENO_OK);
    events++;
    zenos += ev.kind == ZENO_EVENT_ZENO;
    assert_int_equal(ev.kind, en.kind);
    assert_true(ev.t == en.t);
    assert_int_equal(ev.impact_mask, en.impact_mask);
    for (int k = 0; k < 3; k++) assert_true(ev.after.q[k] == en.q[k]);
    for (int i = 0; i < 3; i++) {
      assert_int_equal(ev.mode_after.letter[i], en.mode_after[i]);
      assert_true(ev.after.gap[i] == en.c[2 * i] && ev.after.slip_rate[i] == en.cd[2 * i + 1]);
      assert_true(ev.impulse[i][0] == en.impulse[2 * i]);
    }
    for (int i = 3; i < ZENO_MAX_CONTACTS; i++) assert_int_equal(ev.mode_after.letter[i], 0);
  }
  assert_int_equal(simn_next_event(run, &en, NULL), ZENO_DONE);
  assert_true(events > 50 && zenos >= 1);  // 79 impacts, 4 completions
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  char word[8192];
  assert_true(zeno_sim_word(sim, word, sizeof word) < sizeof word);
  assert_string_equal(word, simn_word(run));
  simn_destroy(run);
  zeno_sim_destroy(sim);
}

// A box (half sizes b = 1, h = 0.5, m = 1, mu = 0.3 on the floor) slides
// at v0 = 2 into a wall d = 0.1 ahead (mu 0.5), which it touches a height
// c = 0.25 above its centre of mass: the impact's line misses the centre,
// so the floor takes a share. It arrives at V^2 = v0^2 - 2 mu g d and
// stops dead, the wall and the back floor corner sticking (IFI): the
// wall's normal impulse is m V; the moments about the centre balance with
// the back corner's normal impulse c m V / (2 b) and the wall's
// tangential impulse its opposite (the max-margin member of the family,
// with no friction impulse at the floor, where the corner's cone is
// tightest). Then it rests (PPF IFI SSS).
static const char WALL_ABOVE_COM[] =
    "body: {mass: 1, rho: 0.6454972244}\n"
    "contacts:\n"
    "  - {point: [-1, -0.5], surface: {angle: 0}, mu: 0.3}\n"
    "  - {point: [1, -0.5], surface: {angle: 0}, mu: 0.3}\n"
    "  - {point: [1, 0.25], surface: {angle: 90}, mu: 0.5}\n"
    "load: {magnitude: 9.81, angle: 0}\n"
    "initial: {pose: [-0.1, 0, 0], velocity: [2, 0, 0]}\n";

static void test_wall_above_the_centre(void **state) {
  (void)state;
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load_string(WALL_ABOVE_COM, "wall", NULL, 0, &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  zeno_sim *sim = zeno_sim_create(&s, NULL, &err);
  if (sim == NULL) fail_msg("%s", err.message);
  const double v0 = 2, d = 0.1, b = 1, c = 0.25, mu = 0.3;
  const double V = sqrt(v0 * v0 - 2 * mu * G * d), t_hit = (v0 - V) / (mu * G);
  zeno_event ev;
  int impacts = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) {
    if (ev.kind != ZENO_EVENT_IMPACT) continue;
    impacts++;
    assert_near(ev.t, t_hit, CLOSED_TOL);
    assert_near(ev.before.qdot[0], V, CLOSED_TOL);
    assert_int_equal(ev.impact_mask, 5u);  // the back corner and the wall
    // A redundant family's impulses are its LP's, met to the velocity zero
    // (1e-9 of the impact's speed, times the mass); the velocities after
    // are projected onto the targets exactly.
    const double impulse_tol = 10 * zeno_sim_def_default().velocity_rtol * V;
    assert_near(ev.impulse[2][0], V, impulse_tol);
    assert_near(ev.impulse[0][0], c * V / (2 * b), impulse_tol);
    assert_near(ev.impulse[2][1], -c * V / (2 * b), impulse_tol);
    assert_near(ev.impulse[0][1], 0, impulse_tol);
    for (int k = 0; k < 3; k++) assert_near(ev.after.qdot[k], 0, CLOSED_TOL);
  }
  assert_int_equal(impacts, 1);
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  char word[64];
  zeno_sim_word(sim, word, sizeof word);
  assert_string_equal(word, "PPF IFI SSS");
  zeno_sim_destroy(sim);
}

// Mode and impact names of three contacts.
static void test_names(void **state) {
  (void)state;
  zeno_mode m;
  assert_int_equal(zeno_mode_parse("FSN", 3, &m, NULL), ZENO_OK);
  char name[ZENO_MODE_NAME_SIZE];
  assert_string_equal(zeno_mode_name(m, 3, name), "FSN");
  assert_int_equal(m.letter[2], ZENO_LETTER_N);
  assert_int_equal(zeno_mode_parse("FS", 3, &m, NULL), ZENO_ERR_SYNTAX);
  assert_string_equal(zeno_impact_word(5u, 3, name), "IFI");
  assert_string_equal(zeno_impact_word(2u, 2, name), "FI");
  assert_string_equal(zeno_impact_word(1u, 1, name), "I");
  assert_int_equal(zeno_impact_mask("IFI", 3), 5u);
  assert_int_equal(zeno_impact_mask("IFX", 3), 0u);
  assert_int_equal(zeno_impact_mask("IF", 3), 0u);
  assert_null(zeno_impact_name(1u, 3));
  assert_string_equal(zeno_impact_name(3u, 2), "II");
}

// The same drop in the full model (model: full, the N-contact engine's
// simn_full.c): the box translates, so the closed forms hold to CVODE's
// accuracy; dense output in the first flight comes from the integrator's
// steps (cubic Hermite: exact on the fall's parabola up to their error).
static void test_full_model_drop(void **state) {
  (void)state;
  const double d = 0.2, e = DROP_E, rtol = 1e-8;  // CVODE's 1e-10, a few times over
  double t1, v1, limit;
  zeno_sim *sim = dropped_box(1, ZENO_MODEL_FULL, d, &t1, &v1, &limit);
  zeno_error err;
  zeno_event ev;
  int impacts = 0, completions = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT && ++impacts == 1) {
      assert_near(ev.t, t1, rtol * t1);
      for (int i = 0; i < 3; i++) assert_near(ev.after.gap_rate[i], e * v1, rtol * v1);
      zeno_state st;
      assert_int_equal(zeno_sim_state_at(sim, t1 / 2, &st, NULL), ZENO_OK);
      for (int i = 0; i < 3; i++) assert_near(st.gap[i], d - G * t1 * t1 / 8, rtol * d);
      assert_near(st.qdot[1], -G * t1 / 2, rtol * v1);
      // The located guard (the gaps, over the segment's length): CVODE's root
      // finding, far below its tolerance on the flight.
      assert_true(ev.guard_residual >= 0 && ev.guard_residual <= 1e-9);
    }
    if (ev.kind == ZENO_EVENT_ZENO) {
      completions++;
      assert_near(ev.t, limit, 1e-6 * limit);
    }
  }
  assert_int_equal(completions, 1);
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  zeno_summary sum;
  zeno_sim_summary(sim, &sum);
  // At rest flat on the floor: the exact gaps, and q' (z1, z2, x3: their
  // exact values in the full model), zero.
  for (int i = 0; i < 3; i++) assert_near(sum.final_state.gap[i], 0, 1e-12);
  assert_near(sum.final_state.zod[0], 0, 1e-12);
  assert_near(sum.final_state.zod[1], 0, 1e-12);
  zeno_sim_destroy(sim);
}

/// Drift of closed contacts over one full-model segment at CVODE's rtol =
/// 1e-10 (scaled), as test_full_model.c asks of two contacts.
#define CONSTRAINT_DRIFT_MAX 1e-7
/// The ZOD flows the closed contacts exactly and locates its guards at a
/// quadratic's root: their drift and the guards' residuals are rounding.
#define ZOD_DRIFT_MAX 1e-12
/// Guards located by CVODE's root finding (scaled by the state's own
/// scale), as test_full_model.c asks of two contacts.
#define GUARD_RESIDUAL_MAX 1e-10

// The box in a corner knocked off its rest, in both models: every guard's
// event reports how far the contacts closed before it drifted from their
// constraints (zeno_event.constraint_drift) and its guard's value where it
// was located (guard_residual), within CVODE's accuracy in the full model
// and rounding under the ZOD; other events report no drift (0) and no
// located guard (NaN).
static void test_drift_and_residual(void **state) {
  (void)state;
  for (int full = 0; full < 2; full++) {
    zeno_scene s;
    zeno_error err;
    if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", NULL, 0, &s, &err) != ZENO_OK)
      fail_msg("%s", err.message);
    const double q0[3] = {0.01, 0.02, 0.01};
    memcpy(s.initial_pose, q0, sizeof q0);
    s.model = full ? ZENO_MODEL_FULL : ZENO_MODEL_ZOD;
    zeno_sim *sim = zeno_sim_create(&s, NULL, &err);
    assert_non_null(sim);
    zeno_event ev;
    int measured = 0;
    while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) {
      const bool guard = ev.kind == ZENO_EVENT_IMPACT || ev.kind == ZENO_EVENT_TRANSITION;
      bool closed = false;
      for (int i = 0; i < 3; i++) closed = closed || ev.mode_before.letter[i] != ZENO_LETTER_F;
      if (!guard) {
        assert_true(ev.constraint_drift == 0);
        assert_true(isnan(ev.guard_residual) || ev.kind == ZENO_EVENT_ZENO);
        continue;
      }
      if (!(ev.constraint_drift >= 0 &&
            ev.constraint_drift <= (full ? CONSTRAINT_DRIFT_MAX : ZOD_DRIFT_MAX)))
        fail_msg("%s, event %ld: drift %g", full ? "full" : "zod", ev.index, ev.constraint_drift);
      if (!(ev.guard_residual >= 0 &&
            ev.guard_residual <= (full ? GUARD_RESIDUAL_MAX : ZOD_DRIFT_MAX)))
        fail_msg("%s, event %ld: guard residual %g", full ? "full" : "zod", ev.index,
                 ev.guard_residual);
      measured += closed;
    }
    assert_true(measured >= 3);  // events ending a segment with contacts closed
    assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
    zeno_sim_destroy(sim);
  }
}

/// The box in a corner started from q' (initial.qp, qdp): its text with
/// the scene file's pose start replaced, and the overrides given.
static zeno_status box_from_prime(const char *qp, const char *qdp, const char *model, zeno_scene *s,
                                  zeno_error *err) {
  char text[4096];
  const int n = snprintf(text, sizeof text,
                         "name: box-from-prime\nmodel: %s\n"
                         "body: {mass: 1, rho: 0.4082482905,"
                         " outline: [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}\n"
                         "contacts:\n"
                         "  - {point: [-0.5, -0.5], surface: {angle: 0}, mu: 0.3}\n"
                         "  - {point: [0.5, -0.5], surface: {angle: 0}, mu: 0.3}\n"
                         "  - {point: [-0.5, 0.5], surface: {angle: -90}, mu: 0.3}\n"
                         "load: {magnitude: 9.81, angle: -30}\n"
                         "initial: {qp: %s, qdp: %s}\n",
                         model, qp, qdp);
  assert_true(n > 0 && (size_t)n < sizeof text);
  return zeno_scene_load_string(text, "box-from-prime", NULL, 0, s, err);
}

// A start given in the N-contact engine's q' (initial.qp and qdp of a
// scene of three contacts): under the ZOD the run from q' = A q of a pose
// is the run from that pose, event for event (times to 1e-12); in the full
// model the start's exact coordinates over eps^2 and eps are that q' (the
// Newton projection's tolerance). A q' below a surface is refused naming
// the contact; one contact has no q' start.
static void test_prime_start(void **state) {
  (void)state;
  zeno_scene from_pose, s;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", NULL, 0, &from_pose, &err) !=
      ZENO_OK)
    fail_msg("%s", err.message);
  const double q0[3] = {0.01, 0.02, 0.01};
  memcpy(from_pose.initial_pose, q0, sizeof q0);
  zeno_sim *a = zeno_sim_create(&from_pose, NULL, &err);
  assert_non_null(a);
  zeno_summary start;
  zeno_sim_summary(a, &start);  // before the first event: the initial state
  char qp[128];
  snprintf(qp, sizeof qp, "[%.17g, %.17g, %.17g]", start.final_state.zod[0],
           start.final_state.zod[1], start.final_state.zod[2]);
  if (box_from_prime(qp, "[0, 0, 0]", "zod", &s, &err) != ZENO_OK) fail_msg("%s", err.message);
  zeno_sim *b = zeno_sim_create(&s, NULL, &err);
  assert_non_null(b);
  zeno_event ea, eb;
  long events = 0;
  while (zeno_sim_next_event(a, &ea, &err) == ZENO_OK) {
    assert_int_equal(zeno_sim_next_event(b, &eb, &err), ZENO_OK);
    assert_int_equal(ea.kind, eb.kind);
    assert_int_equal(ea.impact_mask, eb.impact_mask);
    assert_near(eb.t, ea.t, 1e-12 * fmax(1, fabs(ea.t)));
    for (int i = 0; i < 3; i++) assert_int_equal(ea.mode_after.letter[i], eb.mode_after.letter[i]);
    events++;
  }
  assert_true(zeno_sim_next_event(b, &eb, &err) != ZENO_OK);
  assert_true(events > 5);
  assert_int_equal(zeno_sim_outcome(b), zeno_sim_outcome(a));
  zeno_sim_destroy(a);
  zeno_sim_destroy(b);
  // The full model: the start's q' read back over eps^2 (eps = 1e-3).
  if (box_from_prime("[0.01, 0.02, 0.01]", "[0, 0, -1]", "full", &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  b = zeno_sim_create(&s, NULL, &err);
  if (b == NULL) fail_msg("%s", err.message);
  zeno_sim_summary(b, &start);
  const double want[3] = {0.01, 0.02, 0.01}, want_rate[3] = {0, 0, -1};
  for (int k = 0; k < 3; k++) {
    assert_near(start.final_state.zod[k], want[k], 1e-9);
    assert_near(start.final_state.zod_rate[k], want_rate[k], 1e-9);
  }
  zeno_sim_destroy(b);
  // Below the wall (z3 < 0): the start names the contact.
  if (box_from_prime("[0.01, 0.02, -0.01]", "[0, 0, 0]", "zod", &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  assert_null(zeno_sim_create(&s, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_non_null(strstr(err.message, "contact 3"));
  // One contact: no q' start.
  const char ball[] =
      "name: ball\nbody: {mass: 1, rho: 0.1, outline: disk, outline_radius: 0.1}\n"
      "contacts:\n  - {point: [0, -0.1], surface: {angle: 0}, mu: 0.5}\n"
      "load: {magnitude: 9.81, angle: 0}\ninitial: {qp: [1, 0, 0], qdp: [0, 0, 0]}\n";
  assert_int_equal(zeno_scene_load_string(ball, "ball", NULL, 0, &s, &err), ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "initial.qp");
}

static void test_errors(void **state) {
  (void)state;
  zeno_error err;
  zeno_scene s = box_on_three_corners(1);
  s.initial_pose[1] = -0.01;  // every corner below the floor
  assert_null(zeno_sim_create(&s, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "initial");
  s.initial_pose[1] = 0.2;
  zeno_sim *sim = zeno_sim_create(&s, NULL, &err);
  assert_non_null(sim);
  zeno_state st;
  assert_int_equal(zeno_sim_state_at(sim, 1.0, &st, &err), ZENO_ERR_RANGE);
  // Before the start the summary holds the initial state.
  zeno_summary sum;
  zeno_sim_summary(sim, &sum);
  assert_near(sum.final_state.gap[2], 0.2, 1e-15);
  char names[3][ZENO_ZOD_NAME_SIZE];
  zeno_sim_zod_names(sim, names);
  // A restart below the surface is refused, the simulator unchanged; a
  // good one runs as a fresh simulator does.
  const double below[3] = {-0.1, -0.1, 0}, zero[3] = {0, 0, 0};
  assert_int_equal(zeno_sim_restart(sim, below, zero, &err), ZENO_ERR_RANGE);
  zeno_event ev;
  long events = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) events++;
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  char first[4096], again[4096];
  zeno_sim_word(sim, first, sizeof first);
  // q' of collinear floor corners: two gaps fix y and theta, a slip fixes
  // x (the gaps of the touching contacts first, then their slips from the
  // last contact back); 0.2, 0.2 and 0 at the start.
  assert_string_equal(names[0], "z1");
  assert_string_equal(names[1], "z2");
  assert_string_equal(names[2], "x3");
  assert_near(sum.final_state.zod[0], 0.2, 1e-15);
  assert_near(sum.final_state.zod[1], 0.2, 1e-15);
  assert_near(sum.final_state.zod[2], 0, 1e-15);
  assert_int_equal(zeno_sim_restart(sim, sum.final_state.zod, zero, &err), ZENO_OK);
  long events2 = 0;
  while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) events2++;
  zeno_sim_word(sim, again, sizeof again);
  assert_int_equal(events2, events);
  assert_string_equal(again, first);
  // The trajectory header of the scene (format version 2).
  char columns[ZENO_IO_TRAJECTORY_COLUMNS_SIZE];
  assert_int_equal(zeno_io_trajectory_columns_of(&s, columns, NULL), ZENO_OK);
  assert_string_equal(columns,
                      "t,x,y,theta,vx,vy,omega,z1,z2,x3,z1dot,z2dot,x3dot,mode,f1n,f1t,f2n,f2t,"
                      "f3n,f3t,kind,event");
  assert_null(zeno_io_trajectory_columns(3));
  assert_int_equal(zeno_io_trajectory_header(stdout, 3, &err), ZENO_ERR_ARGUMENT);
  zeno_sim_destroy(sim);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_three_corners_dropped),
      cmocka_unit_test(test_same_events_as_the_engine),
      cmocka_unit_test(test_wall_above_the_centre),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_full_model_drop),
      cmocka_unit_test(test_drift_and_residual),
      cmocka_unit_test(test_prime_start),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
