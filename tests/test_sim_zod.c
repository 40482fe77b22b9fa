// Scenario tests of the exact ZOD simulator against the paper (Examples 2
// and 3, Sec. 6.3) and its invariances (23), (24), (28).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "test_util.h"

static const double EX2_QP[3] = {1, 1, 0}, EX2_QDP[3] = {0, 0, 2};
static const double EX3_QP[3] = {0.1, 0.1, 0};
static const double EX3_ZENO[3] = {0.1, 0, -1.5}, EX3_REVERSE[3] = {0.1, 0, 1.1};
/// Invariances hold to rounding of the exact segments.
#define INVARIANCE_RTOL 1e-9

static void example2_word_rest_and_sections(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_string_equal(r.word, "FF IF PF FI FP IF PF SF II SS");
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
  // Paper Example 2: rest at q' = (0, 0, 14.87).
  assert_true(fabs(r.summary.final_state.zod[2] - 14.87) <= 0.01);
  assert_true(fabs(r.summary.final_state.zod[0]) < 1e-12);
  assert_true(fabs(r.summary.final_state.zod[1]) < 1e-12);
  // Poincaré angles 0.948 then -0.524 (Fig. 4c).
  assert_int_equal(r.summary.section_count, 2);
  assert_true(fabs(r.summary.section_angles[0] - 0.948) <= 0.002);
  assert_true(fabs(r.summary.section_angles[1] + 0.524) <= 0.002);
  // Both section crossings are the impacts FI and II.
  assert_int_equal(section_event(&r, 0)->impact_mask, 2u);
  assert_int_equal(section_event(&r, 1)->impact_mask, 3u);
  run_free(&r);
}

static void example2_energy_never_increases(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  int impacts = 0;
  for (int i = 0; i < r.count; i++) {
    const zeno_event *e = &r.events[i];
    if (e->kind != ZENO_EVENT_IMPACT) continue;
    impacts++;
    // Inelastic impacts dissipate: strictly, by a physical amount.
    assert_true(e->after.energy < e->before.energy - 1e-6);
  }
  assert_int_equal(impacts, 4);
  run_free(&r);
}

static void example3_zeno_completes_then_rests(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example3(), EX3_QP, EX3_ZENO);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
  assert_true(r.summary.has_zeno);
  // After the accumulation point: two-contact negative slip, then rest (Sec. 6.3).
  const char *tail = strstr(r.word, " Z NN SS");
  assert_non_null(tail);
  assert_int_equal(strlen(tail), strlen(" Z NN SS"));
  const zeno_event *z = NULL;
  for (int i = 0; i < r.count; i++)
    if (r.events[i].kind == ZENO_EVENT_ZENO) z = &r.events[i];
  assert_non_null(z);
  assert_true(z->zeno_ratio > 0 && z->zeno_ratio < 1);
  assert_true(z->zeno_error <= 1e-9 * z->t);
  assert_true(z->zeno_impacts >= 4 && z->zeno_impacts < 100);
  // At the limit both gap rates vanish and x2 still slips (xdot2 < 0).
  assert_true(fabs(z->before.gap_rate[0]) < 1e-12);
  assert_true(fabs(z->before.gap_rate[1]) < 1e-12);
  assert_true(z->after.zod_rate[2] < -0.1);
  // phi(k) converges to -pi/2 (Fig. 5c).
  const zeno_event *last = NULL;
  for (int k = 0; section_event(&r, k); k++) last = section_event(&r, k);
  assert_true(last->section_angle < -1.5);
  run_free(&r);
}

static void example3_reverse_chatter_diverges(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example3(), EX3_QP, EX3_REVERSE);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_DIVERGING);
  const zeno_event *end = &r.events[r.count - 1];
  assert_int_equal(end->kind, ZENO_EVENT_END);
  assert_true(end->zeno_ratio > 1);
  // The sequence sits on the fixed point of R near -0.7 (Fig. 5e).
  const zeno_event *last = NULL;
  for (int k = 0; section_event(&r, k); k++) last = section_event(&r, k);
  assert_true(fabs(last->section_angle + 0.7) < 0.01);
  run_free(&r);
}

// Eq. (23): shifting x2 shifts the whole trajectory along x2.
static void invariance_shift_x2(void **state) {
  (void)state;
  const double beta = 3.7;
  const double qp[3] = {EX2_QP[0], EX2_QP[1], EX2_QP[2] + beta};
  zeno_scene a = paper_scene(example2(), EX2_QP, EX2_QDP);
  zeno_scene b = paper_scene(example2(), qp, EX2_QDP);
  test_run ra, rb;
  assert_int_equal(run_scene(&a, &ra), 0);
  assert_int_equal(run_scene(&b, &rb), 0);
  assert_string_equal(ra.word, rb.word);
  assert_int_equal(ra.count, rb.count);
  for (int i = 0; i < ra.count; i++)
    assert_true(rel_diff(ra.events[i].t, rb.events[i].t) <= INVARIANCE_RTOL);
  assert_true(rel_diff(ra.summary.final_state.zod[2] + beta, rb.summary.final_state.zod[2]) <=
              INVARIANCE_RTOL);
  for (int k = 0; k < 2; k++)
    assert_true(rel_diff(ra.summary.section_angles[k], rb.summary.section_angles[k]) <=
                INVARIANCE_RTOL);
  run_free(&ra);
  run_free(&rb);
}

// Eq. (24): positions x beta^2, velocities x beta => q*(beta t) = beta^2 q(t).
static void check_scaling(zeno_paper_params p, const double qp0[3], const double qdp0[3],
                          double beta) {
  double qp[3], qdp[3];
  for (int k = 0; k < 3; k++) {
    qp[k] = beta * beta * qp0[k];
    qdp[k] = beta * qdp0[k];
  }
  zeno_scene a = paper_scene(p, qp0, qdp0);
  zeno_scene b = paper_scene(p, qp, qdp);
  // Stop conditions are lengths and times too: they scale with the state
  // (the default radius scales with the body, which this does not scale).
  a.escape_radius = ZENO_ESCAPE_RADIUS_SCALES;
  b.escape_radius = a.escape_radius * beta * beta;
  b.t_end = a.t_end * beta;
  test_run ra, rb;
  assert_int_equal(run_scene(&a, &ra), 0);
  assert_int_equal(run_scene(&b, &rb), 0);
  assert_string_equal(ra.word, rb.word);
  assert_int_equal(ra.summary.outcome, rb.summary.outcome);
  assert_int_equal(ra.count, rb.count);
  // Positions compare on the trajectory's own scale (some are zero).
  double pscale = 0;
  for (int i = 0; i < ra.count; i++)
    for (int k = 0; k < 3; k++) pscale = fmax(pscale, fabs(ra.events[i].after.zod[k]));
  for (int i = 0; i < ra.count; i++) {
    assert_true(rel_diff(beta * ra.events[i].t, rb.events[i].t) <= INVARIANCE_RTOL);
    for (int k = 0; k < 3; k++)
      assert_true(fabs(beta * beta * ra.events[i].after.zod[k] - rb.events[i].after.zod[k]) <=
                  INVARIANCE_RTOL * beta * beta * pscale);
  }
  if (ra.summary.has_zeno)
    assert_true(rel_diff(beta * ra.summary.zeno_time, rb.summary.zeno_time) <= INVARIANCE_RTOL);
  run_free(&ra);
  run_free(&rb);
}

static void invariance_scaling(void **state) {
  (void)state;
  // beta^2 = 1e-9: perturbations of size 1e-9 behave as those of size 1.
  const double beta = sqrt(1e-9);
  check_scaling(example2(), EX2_QP, EX2_QDP, beta);
  check_scaling(example3(), EX3_QP, EX3_ZENO, beta);
  check_scaling(example3(), EX3_QP, EX3_REVERSE, beta);
  check_scaling(example2(), EX2_QP, EX2_QDP, 1e3);
}

// Runs Example 2 from the Poincaré section at angle phi with speed v and
// tangential offset beta; returns the next section event's pre-impact
// state y = (x2, zdot2, xdot2) and the cycle time.
static int section_return(double phi, double beta, double y[3], double *T) {
  const double qp[3] = {0, 0, 0};
  const double qdp[3] = {0, -cos(phi), sin(phi) + beta};
  zeno_scene s = paper_scene(example2(), qp, qdp);
  test_run r;
  if (run_scene(&s, &r) != 0) return -1;
  const zeno_event *e0 = section_event(&r, 0), *e1 = section_event(&r, 1);
  int ok = e0 && e1 && e0->t == 0 ? 0 : -1;
  if (ok == 0) {
    y[0] = e1->before.zod[2];
    y[1] = e1->before.zod_rate[1];
    y[2] = e1->before.zod_rate[2];
    *T = e1->t;
  }
  run_free(&r);
  return ok;
}

// Eq. (28): on a slip-only cycle without slip reversal, adding beta to the
// tangential speed adds (beta T, 0, beta) to the Poincaré map.
static void invariance_tangential_speed(void **state) {
  (void)state;
  const double phi = 1.45, beta = 0.01;  // phi in (1.39, pi/2): FI FP IF PF FI
  double y0[3], y1[3], T0, T1;
  assert_int_equal(section_return(phi, 0, y0, &T0), 0);
  assert_int_equal(section_return(phi, beta, y1, &T1), 0);
  assert_true(rel_diff(T0, T1) <= INVARIANCE_RTOL);
  assert_true(rel_diff(y0[0] + beta * T0, y1[0]) <= INVARIANCE_RTOL);
  assert_true(rel_diff(y0[1], y1[1]) <= INVARIANCE_RTOL);
  assert_true(rel_diff(y0[2] + beta, y1[2]) <= INVARIANCE_RTOL);
}

// Paper Sec. 6.3, Example 2: R undefined for phi < -0.38 (the cycle ends via
// II), constant -0.524 on (-0.38, 1.39) where the cycle contains a stick,
// slip-only with constant G beyond 1.39; the first impact of the cycle sticks
// for phi < 0.54 ("FI FS FP") and slips above.
static void example2_section_cycles(void **state) {
  (void)state;
  double y[3], T;
  assert_int_not_equal(section_return(-0.5, 0, y, &T), 0);  // no return
  const double constant_r[] = {-0.3, 0.0, 0.5, 0.6, 1.0, 1.35};
  for (size_t k = 0; k < sizeof constant_r / sizeof *constant_r; k++) {
    assert_int_equal(section_return(constant_r[k], 0, y, &T), 0);
    assert_true(fabs(atan(y[2] / fabs(y[1])) + 0.524) <= 0.002);
  }
  for (int k = 0; k < 2; k++) {
    const double phi = k == 0 ? 0.4 : 0.7;
    const double qp[3] = {0, 0, 0}, qdp[3] = {0, -cos(phi), sin(phi)};
    zeno_scene s = paper_scene(example2(), qp, qdp);
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    const zeno_event *fi = section_event(&r, 0);
    assert_int_equal(fi->impact_mask, 2u);
    assert_int_equal(fi->impact_letter[1], k == 0 ? ZENO_LETTER_S : ZENO_LETTER_P);
    run_free(&r);
  }
  // Constant growth near +pi/2 (Lemma 3): the same G at two angles.
  double ya[3], yb[3], Ta, Tb;
  assert_int_equal(section_return(1.45, 0, ya, &Ta), 0);
  assert_int_equal(section_return(1.50, 0, yb, &Tb), 0);
  assert_true(rel_diff(fabs(ya[1]) / cos(1.45), fabs(yb[1]) / cos(1.50)) <= 1e-9);
}

// Example 4 (paper Sec. 7.1) from the shipped scene's state: a chatter of
// period two impacts with a stick in each cycle shrinks by ~0.094 per
// period. Regression: computing gaps from generalised coordinates lost
// them to rounding after a few periods and the body sank through the
// ground; gaps are now exact coordinates and the sequence completes.
static void example4_chatter_completes_without_penetration(void **state) {
  (void)state;
  const double qp[3] = {0.1, 0.1, 0}, qdp[3] = {0.1, 0, 0.5};
  zeno_scene s = paper_scene(example4(), qp, qdp);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
  assert_true(r.summary.has_zeno);
  for (int i = 0; i < r.count; i++)
    for (int c = 0; c < 2; c++) {
      assert_true(r.events[i].before.zod[c] >= 0);
      assert_true(r.events[i].after.zod[c] >= 0);
    }
  // G <= 0.22 everywhere (Example 4): each period shrinks the impact speed.
  const zeno_event *z = NULL;
  for (int i = 0; i < r.count; i++)
    if (r.events[i].kind == ZENO_EVENT_ZENO) z = &r.events[i];
  assert_true(z->zeno_ratio < 0.22);
  run_free(&r);
}

static void bad_inputs_are_reported(void **state) {
  (void)state;
  zeno_error err;
  zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
  s.contacts[0].mu = -0.1;
  assert_null(zeno_sim_create(&s, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "paper.mu1");
  s = paper_scene(example2(), EX2_QP, EX2_QDP);
  s.initial_qp[0] = -0.5;
  assert_null(zeno_sim_create(&s, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  s = paper_scene(example2(), EX2_QP, EX2_QDP);
  zeno_sim_def d = zeno_sim_def_default();
  d.velocity_rtol = 0;
  assert_null(zeno_sim_create(&s, &d, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_null(zeno_sim_create(NULL, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_ARGUMENT);
  s.initial_qp[0] = 1;
  s.model = ZENO_MODEL_FULL;
  s.epsilon = 0;  // epsilon must lie in (0, 1]
  assert_null(zeno_sim_create(&s, NULL, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "epsilon");
}

static void limits_end_runs(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
  s.t_end = 5.0;
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_TIME_LIMIT);
  assert_true(fabs(r.summary.t - 5.0) < 1e-12);
  run_free(&r);
  s.t_end = 1000;
  s.max_events = 3;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_EVENT_LIMIT);
  run_free(&r);
  // An infeasible equilibrium (almost no friction) slides away: escaped.
  s = paper_scene(example2(), EX2_QP, EX2_QDP);
  s.contacts[0].mu = s.contacts[1].mu = 0.01;
  s.escape_radius = 100;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_ESCAPED);
  run_free(&r);
}

static void dense_output_matches_events(void **state) {
  (void)state;
  zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
  zeno_sim *sim = zeno_sim_create(&s, NULL, NULL);
  assert_non_null(sim);
  zeno_event ev, prev;
  memset(&prev, 0, sizeof prev);
  while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT || ev.kind == ZENO_EVENT_TRANSITION) {
      // Positions are continuous: the segment's end matches the event.
      zeno_state st;
      assert_int_equal(zeno_sim_state_at(sim, ev.t, &st, NULL), ZENO_OK);
      for (int k = 0; k < 3; k++)
        assert_true(fabs(st.zod[k] - ev.before.zod[k]) <= 1e-9 * (1 + fabs(ev.before.zod[k])));
      // Free flight of a constant-acceleration segment: midpoint check.
      const double tm = 0.5 * (prev.t + ev.t);
      assert_int_equal(zeno_sim_state_at(sim, tm, &st, NULL), ZENO_OK);
    }
    prev = ev;
  }
  zeno_state st;
  assert_int_not_equal(zeno_sim_state_at(sim, -1.0, &st, NULL), ZENO_OK);
  zeno_sim_destroy(sim);
}

// Example 2 with Newton's law used to count its chatter to underflow and fall
// through both surfaces (gaps -4.7e5, ending `time-limit`). No event may
// have a gap below -1e-9 of the run's scale (its start gaps, 1) now, and
// both restitutions rest where the full model (eps = 1e-3) rests: e = 0.5
// at x2 = 14.5293 (the ZOD 14.5249), e = 0.8 at 4.18759 (4.18799). e = 0.8
// counted its second-order accumulation (contact 1 chattering while contact
// 2 bounces, 11 to 1) to the event limit (100,001 events, speeds 1e-162);
// its chain's precision floor (speeds below 1e-12 of its first) now ends
// it after 1,014.
static void newton_chatter_never_penetrates(void **state) {
  (void)state;
  const double restitution[2] = {0.5, 0.8}, full_rest[2] = {14.5293, 4.18759};
  for (int k = 0; k < 2; k++) {
    zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
    s.impact_law = ZENO_LAW_NEWTON;
    s.restitution = restitution[k];
    zeno_sim_def def = zeno_sim_def_default();
    def.keep_history = false;
    zeno_sim *sim = zeno_sim_create(&s, &def, NULL);
    assert_non_null(sim);
    zeno_event ev;
    while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
      for (int c = 0; c < 2; c++) {
        assert_true(ev.before.gap[c] >= -1e-9);
        assert_true(ev.after.gap[c] >= -1e-9);
      }
    }
    zeno_summary sum;
    zeno_sim_summary(sim, &sum);
    assert_int_equal(sum.outcome, ZENO_OUTCOME_REST);
    assert_true(sum.events < 2000);
    const double x2 = sum.final_state.zod[2];
    if (!(fabs(x2 - full_rest[k]) < 1e-3 * full_rest[k]))
      fail_msg("Newton e = %g: rest at x2 = %.9g, the full model's at %.9g", restitution[k], x2,
               full_rest[k]);
    zeno_sim_destroy(sim);
  }
}

// Second-order accumulation: in Example 2 with restitution 0.5 (both laws),
// contact 1 chatters to a Zeno completion, slips, sticks, contact 2 lands
// and bounces once, and contact 1 chatters again, each cycle 0.4986 times
// the last. The run used to complete every cycle until the speeds reached
// 1e-27 (13,069 and 13,118 events); the chain of completions is now itself
// detected (a period of one cycle with one ratio) and completed at its
// limit, one ZENO event of order 2, at the same rest point (the old runs'
// x2 = 6.124864536458619 and 14.524861973398716) within 1e-12.
static void chain_of_completions_is_completed(void **state) {
  (void)state;
  const struct {
    zeno_impact_law law;
    double x2;
  } cases[] = {{ZENO_LAW_CHATTERJEE_RUINA, 6.124864536458619},
               {ZENO_LAW_NEWTON, 14.524861973398716}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
    s.impact_law = cases[k].law;
    s.restitution = 0.5;
    zeno_sim *sim = zeno_sim_create(&s, NULL, NULL);
    assert_non_null(sim);
    zeno_event ev;
    int order2 = 0, completions = 0;
    long chain_impacts = 0;
    while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
      if (ev.kind != ZENO_EVENT_ZENO) continue;
      completions++;
      assert_true(ev.zeno_order == 1 || ev.zeno_order == 2);
      if (ev.zeno_order == 2) {
        order2++;
        chain_impacts = ev.zeno_impacts;
        assert_true(ev.zeno_period >= 1);
        assert_true(fabs(ev.zeno_ratio - 0.4986) < 1e-3);
      }
    }
    zeno_summary sum;
    zeno_sim_summary(sim, &sum);
    assert_int_equal(sum.outcome, ZENO_OUTCOME_REST);
    assert_int_equal(order2, 1);
    assert_true(completions > 4 && completions < 30);
    assert_true(sum.events < 300);
    assert_true(chain_impacts > 10 && chain_impacts <= sum.impacts);
    assert_true(fabs(sum.final_state.zod[2] - cases[k].x2) < 1e-12 * cases[k].x2);
    zeno_sim_destroy(sim);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example2_word_rest_and_sections),
      cmocka_unit_test(example2_energy_never_increases),
      cmocka_unit_test(example3_zeno_completes_then_rests),
      cmocka_unit_test(example3_reverse_chatter_diverges),
      cmocka_unit_test(invariance_shift_x2),
      cmocka_unit_test(invariance_scaling),
      cmocka_unit_test(invariance_tangential_speed),
      cmocka_unit_test(example2_section_cycles),
      cmocka_unit_test(example4_chatter_completes_without_penetration),
      cmocka_unit_test(bad_inputs_are_reported),
      cmocka_unit_test(limits_end_runs),
      cmocka_unit_test(dense_output_matches_events),
      cmocka_unit_test(newton_chatter_never_penetrates),
      cmocka_unit_test(chain_of_completions_is_completed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
