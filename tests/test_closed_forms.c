// Closed forms of SPEC.md: bouncing ball, sliding block, rocking block; and
// with restitution beyond the ball: the rocking block with Newton's law, a
// rod dropped on one end, a ball on a frictionless slope.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "test_util.h"

#define G 9.81
/// Exact ZOD segments reproduce closed forms to rounding.
#define CLOSED_FORM_RTOL 1e-9

static zeno_scene ball(double e) { return ball_scene(e, G); }

// t_inf = sqrt(2h/g) (1+e)/(1-e), reached by Zeno completion, then rest.
static void bouncing_ball_accumulation(void **state) {
  (void)state;
  const double es[3] = {0.7, 0.8, 0.9};
  const double published[3] = {2.558634, 4.063713, 8.578949};  // SPEC.md
  for (int k = 0; k < 3; k++) {
    zeno_scene s = ball(es[k]);
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const double expect = sqrt(2.0 / G) * (1 + es[k]) / (1 - es[k]);
    assert_true(r.summary.has_zeno);
    assert_true(rel_diff(r.summary.zeno_time, expect) <= CLOSED_FORM_RTOL);
    assert_true(fabs(r.summary.zeno_time - published[k]) <= 1e-6);
    assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
    // Completed, not simulated out: the ZOD simulates on until the tail is
    // 1e-3 of the sequence, which for the ball is after 1 + ln(1e-3)/ln(e)
    // impacts (the tail after k impacts is e^(k-1) of the whole).
    const double k_tail = 1 + log(1e-3) / log(es[k]);
    assert_true(r.summary.zeno_impacts >= (long)k_tail);
    assert_true(r.summary.zeno_impacts <= (long)ceil(k_tail) + 3);
    // Each impact reverses the speed with ratio e.
    const zeno_event *i1 = NULL, *i2 = NULL;
    for (int i = 0; i < r.count && !i2; i++)
      if (r.events[i].kind == ZENO_EVENT_IMPACT) {
        if (i1) i2 = &r.events[i];
        else i1 = &r.events[i];
      }
    assert_true(rel_diff(i1->after.gap_rate[0], -es[k] * i1->before.gap_rate[0]) <=
                CLOSED_FORM_RTOL);
    assert_true(rel_diff(i1->before.gap_rate[0], -sqrt(2 * G)) <= CLOSED_FORM_RTOL);
    run_free(&r);
  }
}

// An elastic ball (e = 1) bounces for ever: every bounce the height of the
// first, the energy kept, no accumulation point. 20,000 bounces were
// completed and called rest, the energy gone; the run now goes on to its
// limit (here the event limit, past the 20,000 impacts after which a
// shrinking sequence is completed).
static void elastic_ball_never_rests(void **state) {
  (void)state;
  zeno_scene s = ball(1.0);
  s.max_events = 50000;
  s.t_end = 1e6;
  zeno_sim_def def = zeno_sim_def_default();
  zeno_summary sum;
  assert_int_equal(zeno_run(&s, &def, &sum, NULL, 0, NULL), ZENO_OK);
  assert_int_equal(sum.outcome, ZENO_OUTCOME_EVENT_LIMIT);
  assert_false(sum.has_zeno);
  assert_true(sum.impacts > 20000);
  // The energy of the drop (m g h, h = 1 above the floor), to rounding.
  assert_true(rel_diff(sum.final_state.energy, G * 1.0) <= 1e-9);
}

// Two-contact sliding block, PP on a flat floor: stops at v0/(mu g), normal
// forces (m g / 2)(1 -+ mu h / b) trailing / leading.
static void sliding_block(void **state) {
  (void)state;
  const double b = 0.5, h = 0.25, mu = 0.3, v0 = 2.0;
  zeno_paper_params p = {0, -b, b, h, 0, 0, mu, mu, sqrt((b * b + h * h) / 3), 1, G, 0};
  const double qp[3] = {0, 0, 0}, qdp[3] = {0, 0, v0};
  zeno_scene s = paper_scene(p, qp, qdp);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_string_equal(r.word, "PP SS");
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
  assert_true(rel_diff(r.summary.t, v0 / (mu * G)) <= CLOSED_FORM_RTOL);
  assert_true(rel_diff(r.summary.final_state.zod[2], v0 * v0 / (2 * mu * G)) <= CLOSED_FORM_RTOL);
  const zeno_state *st = &r.events[0].after;  // the PP mode's forces
  assert_true(rel_diff(st->force[0][0], 0.5 * G * (1 - mu * h / b)) <= CLOSED_FORM_RTOL);
  assert_true(rel_diff(st->force[1][0], 0.5 * G * (1 + mu * h / b)) <= CLOSED_FORM_RTOL);
  assert_true(rel_diff(st->force[0][1], -mu * st->force[0][0]) <= CLOSED_FORM_RTOL);
  run_free(&r);
}

// Housner rocking block: inelastic impact about the opposite corner scales
// the angular velocity by r = 1 - 1.5 sin^2(alpha), tan(alpha) = b/h.
// Under the ZOD the rocking accelerates the falling corner at 1.5 g
// sin^2(alpha), so the chatter accumulates at t1 (1+r)/(1-r).
static void rocking_block(void **state) {
  (void)state;
  const double hs[2] = {2, 3}, published_r[2] = {0.700, 0.850};
  const double b = 1, tilt = 0.01;
  for (int k = 0; k < 2; k++) {
    const double h = hs[k];
    zeno_paper_params p = {0, -b, b, h, 0, 0, 1, 1, sqrt((b * b + h * h) / 3), 1, G, 0};
    const double qp[3] = {0, tilt, 0}, qdp[3] = {0, 0, 0};
    zeno_scene s = paper_scene(p, qp, qdp);
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const zeno_event *imp = NULL;
    for (int i = 0; i < r.count && !imp; i++)
      if (r.events[i].kind == ZENO_EVENT_IMPACT) imp = &r.events[i];
    assert_non_null(imp);
    assert_int_equal(imp->impact_mask, 2u);                  // FI: the falling corner
    assert_int_equal(imp->impact_letter[1], ZENO_LETTER_S);  // no slip
    const double sin2 = b * b / (b * b + h * h);
    const double r_expect = 1 - 1.5 * sin2;
    const double ratio = imp->after.gap_rate[0] / -imp->before.gap_rate[1];
    assert_true(rel_diff(ratio, r_expect) <= CLOSED_FORM_RTOL);
    assert_true(fabs(ratio - published_r[k]) <= 5e-4);
    const double t1 = sqrt(2 * tilt / (1.5 * G * sin2));
    assert_true(rel_diff(imp->t, t1) <= CLOSED_FORM_RTOL);
    assert_true(r.summary.has_zeno);
    assert_true(rel_diff(r.summary.zeno_time, t1 * (1 + r_expect) / (1 - r_expect)) <=
                CLOSED_FORM_RTOL);
    assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
    run_free(&r);
  }
}

// First impact of a run.
static const zeno_event *first_impact(const test_run *r) {
  for (int i = 0; i < r->count; i++)
    if (r->events[i].kind == ZENO_EVENT_IMPACT) return &r->events[i];
  return NULL;
}

// Housner's rocking block with Newton's restitution e at the landing corner
// (sticking: friction 1). The impulse acts at corner 2, so the angular
// momentum about corner 2 is kept; the corner leaves at e times its landing
// speed U = 2 b |omega-|, straight up. With c = (-b, h) from corner 2 to the
// centre of mass and I = m (b^2 + h^2) / 3 that gives
//   omega+ / omega- = 1 - 1.5 (1 + e) sin^2(alpha),  tan(alpha) = b / h
// (Housner's r at e = 0), corner 1 lifting at (e + omega+/omega-) U, and the
// block in free flight until corner 2, the slower, lands again after 2 e U
// / g. (At e = 0 the same formula is rocking_block's.)
static void rocking_block_with_restitution(void **state) {
  (void)state;
  const double b = 1, h = 2, tilt = 0.01, es[2] = {0.3, 0.6};
  for (int k = 0; k < 2; k++) {
    const double e = es[k];
    zeno_paper_params p = {0, -b, b, h, 0, 0, 1, 1, sqrt((b * b + h * h) / 3), 1, G, 0};
    const double qp[3] = {0, tilt, 0}, qdp[3] = {0, 0, 0};
    zeno_scene s = paper_scene(p, qp, qdp);
    s.impact_law = ZENO_LAW_NEWTON;
    s.restitution = e;
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const zeno_event *imp = first_impact(&r);
    assert_non_null(imp);
    assert_int_equal(imp->impact_mask, 2u);
    assert_int_equal(imp->impact_letter[1], ZENO_LETTER_S);
    const double sin2 = b * b / (b * b + h * h);
    const double ratio = 1 - 1.5 * (1 + e) * sin2;
    const double U = -imp->before.gap_rate[1];
    assert_true(rel_diff(imp->after.qdot[2] / imp->before.qdot[2], ratio) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->after.gap_rate[1], e * U) <= CLOSED_FORM_RTOL);
    assert_true(fabs(imp->after.slip_rate[1]) <= CLOSED_FORM_RTOL * U);
    assert_true(rel_diff(imp->after.gap_rate[0], (e + ratio) * U) <= CLOSED_FORM_RTOL);
    assert_true(imp->energy_gain == 0);
    // The fall: corner 2 lands at t1 with U = 1.5 g sin^2(alpha) t1.
    const double t1 = sqrt(2 * tilt / (1.5 * G * sin2));
    assert_true(rel_diff(imp->t, t1) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(U, 1.5 * G * sin2 * t1) <= CLOSED_FORM_RTOL);
    // Free flight (FF), then corner 2 lands again.
    const zeno_event *next = NULL;
    for (const zeno_event *ev = imp + 1; ev < r.events + r.count && !next; ev++)
      if (ev->kind == ZENO_EVENT_IMPACT) next = ev;
    assert_non_null(next);
    assert_int_equal(next->impact_mask, 2u);
    assert_true(rel_diff(next->t, t1 + 2 * e * U / G) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(next->before.gap_rate[1], -e * U) <= CLOSED_FORM_RTOL);
    assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
    run_free(&r);
  }
}

// A uniform rod (length L, rho^2 = L^2 / 12) held at theta to the floor and
// dropped from height H onto one end, frictionless floor, Newton's e. The
// impulse P is vertical with lever r_x = (L/2) cos(theta) about the centre
// of mass: 1/m_eff = 1/m + r_x^2 / I, P = (1 + e) v0 m_eff with v0 =
// sqrt(2 g H), then vy+ = -v0 + P/m, omega+ = r_x P / I (about +z), the end
// leaves at e v0 and no energy is gained.
static void rod_dropped_on_one_end(void **state) {
  (void)state;
  const double L = 1, H = 0.2, thetas[2] = {0.3, 1.0}, es[2] = {0.5, 0.9};
  for (int k = 0; k < 2; k++) {
    const double th = thetas[k], e = es[k], rho = L / sqrt(12.0);
    const double rx = -0.5 * L * cos(th), ry = -0.5 * L * sin(th);
    zeno_scene s = one_contact_scene(rho, rx, ry, 0, G);
    s.impact_law = ZENO_LAW_NEWTON;
    s.restitution = e;
    s.initial_pose[1] = H;
    s.t_end = 1;
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const zeno_event *imp = first_impact(&r);
    assert_non_null(imp);
    const double v0 = sqrt(2 * G * H), I = rho * rho;
    const double P = (1 + e) * v0 / (1 + rx * rx / I);
    assert_true(rel_diff(imp->t, sqrt(2 * H / G)) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->before.qdot[1], -v0) <= CLOSED_FORM_RTOL);
    assert_true(fabs(imp->after.qdot[0]) <= CLOSED_FORM_RTOL * v0);
    assert_true(rel_diff(imp->after.qdot[1], -v0 + P) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->after.qdot[2], rx * P / I) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->after.gap_rate[0], e * v0) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->impulse[0][0], P) <= CLOSED_FORM_RTOL);
    assert_true(imp->energy_gain == 0);
    run_free(&r);
  }
}

// A ball (radius 0.1) dropped from height 1 above a frictionless slope of
// angle theta,
// Newton's e: the normal motion is the level ball's with g cos(theta)
// (first impact at sqrt(2/g), speed g cos(theta) sqrt(2/g), accumulation at
// t_inf = sqrt(2/g) (1 + e)/(1 - e)), while no impulse acts along the slope:
// x(t) = sin(theta) - g sin(theta) t^2 / 2 throughout. At t_inf the ball
// closes on the slope and slides down (N) at -g sin(theta) t_inf.
static void ball_on_a_slope(void **state) {
  (void)state;
  const double th = 0.3, es[2] = {0.5, 0.8};
  for (int k = 0; k < 2; k++) {
    const double e = es[k];
    zeno_scene s = ball_scene(e, G);
    s.contacts[0].surface_angle = th;
    s.contacts[0].mu = 0;
    // A ball touches the slope where the normal through its centre does:
    // the impulses pass through the centre and never spin it.
    s.contacts[0].point[0] = 0.1 * sin(th);
    s.contacts[0].point[1] = -0.1 * cos(th);
    s.t_end = 5;
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const double t1 = sqrt(2 / G), t_inf = t1 * (1 + e) / (1 - e);
    const zeno_event *imp = first_impact(&r);
    assert_non_null(imp);
    assert_true(rel_diff(imp->t, t1) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->before.gap_rate[0], -G * cos(th) * t1) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->after.gap_rate[0], e * G * cos(th) * t1) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(imp->after.slip_rate[0], imp->before.slip_rate[0]) <= CLOSED_FORM_RTOL);
    const zeno_event *z = NULL;
    for (int i = 0; i < r.count && !z; i++)
      if (r.events[i].kind == ZENO_EVENT_ZENO) z = &r.events[i];
    assert_non_null(z);
    assert_true(rel_diff(z->t, t_inf) <= CLOSED_FORM_RTOL);
    assert_true(rel_diff(z->after.slip[0], sin(th) - 0.5 * G * sin(th) * t_inf * t_inf) <=
                CLOSED_FORM_RTOL);
    assert_true(rel_diff(z->after.slip_rate[0], -G * sin(th) * t_inf) <= CLOSED_FORM_RTOL);
    assert_int_equal(z->mode_after.letter[0], ZENO_LETTER_N);
    run_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bouncing_ball_accumulation),
      cmocka_unit_test(elastic_ball_never_rests),
      cmocka_unit_test(sliding_block),
      cmocka_unit_test(rocking_block),
      cmocka_unit_test(rocking_block_with_restitution),
      cmocka_unit_test(rod_dropped_on_one_end),
      cmocka_unit_test(ball_on_a_slope),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
