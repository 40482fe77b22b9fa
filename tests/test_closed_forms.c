// Closed forms of SPEC.md: bouncing ball, sliding block, rocking block.
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
  assert_true(rel_diff(r.summary.final_state.zod[2], v0 * v0 / (2 * mu * G)) <=
              CLOSED_FORM_RTOL);
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
    assert_int_equal(imp->impact_mask, 2u);           // FI: the falling corner
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bouncing_ball_accumulation),
      cmocka_unit_test(sliding_block),
      cmocka_unit_test(rocking_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
