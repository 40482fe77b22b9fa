// The full nonlinear model on CVODE: convergence to the ZOD as the
// perturbation shrinks (paper Sec. 3.3), Example 3's Zeno and reverse
// chatter, closed forms, Painlevé's rod, energy and guard residuals.
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "test_util.h"
#include "test_words.h"

#define G 9.81
static const double EX2_QP[3] = {1, 1, 0}, EX2_QDP[3] = {0, 0, 2};
static const double EX3_QP[3] = {0.1, 0.1, 0};
/// Guards located by CVODE's root finding (scaled by the state's own scale).
#define GUARD_RESIDUAL_MAX 1e-10
/// Drift of closed contacts over one segment at rtol = 1e-10 (scaled).
#define CONSTRAINT_DRIFT_MAX 1e-7

static zeno_scene full(zeno_scene s, double eps) {
  s.model = ZENO_MODEL_FULL;
  s.epsilon = eps;
  return s;
}

static void check_trajectory_health(const test_run *r) {
  for (int i = 0; i < r->count; i++) {
    const zeno_event *e = &r->events[i];
    if (e->kind == ZENO_EVENT_IMPACT) {
      // Inelastic impacts never add energy.
      assert_true(e->after.energy <= e->before.energy + 1e-12 * fabs(e->before.energy));
    }
    if (e->kind == ZENO_EVENT_IMPACT || e->kind == ZENO_EVENT_TRANSITION) {
      assert_true(e->guard_residual <= GUARD_RESIDUAL_MAX);
      // Closed contacts stay on their constraints between projections.
      assert_true(e->constraint_drift <= CONSTRAINT_DRIFT_MAX);
    }
    for (int k = 0; k < 3; k++) assert_true(isfinite(e->after.q[k]) && isfinite(e->after.qdot[k]));
  }
}

// Example 2 at eps = 1e-2, 1e-3, 1e-4: the ZOD's mode word, and the scaled
// rest position x2 / eps^2 converging to the ZOD's 14.87 with an error that
// falls at least linearly in eps.
static void example2_converges_to_the_zod(void **state) {
  (void)state;
  zeno_scene z = paper_scene(example2(), EX2_QP, EX2_QDP);
  test_run rz;
  assert_int_equal(run_scene(&z, &rz), 0);
  const double x2_zod = rz.summary.final_state.zod[2];
  const double eps[3] = {1e-2, 1e-3, 1e-4};
  double err[3];
  for (int k = 0; k < 3; k++) {
    zeno_scene f = full(z, eps[k]);
    test_run r;
    assert_int_equal(run_scene(&f, &r), 0);
    assert_string_equal(r.word, rz.word);
    assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
    err[k] = fabs(r.summary.final_state.zod[2] - x2_zod);
    // Times scale with eps (invariance (24)).
    assert_true(rel_diff(r.summary.t / eps[k], rz.summary.t) < 50 * eps[k]);
    check_trajectory_health(&r);
    run_free(&r);
  }
  assert_true(err[1] / err[0] <= 0.15);  // linear would be 0.1
  assert_true(err[2] / err[1] <= 0.15);
  assert_true(err[2] < 1e-3);
  run_free(&rz);
}

static void example3_zeno_and_reverse_chatter(void **state) {
  (void)state;
  const double zeno_v[3] = {0.1, 0, -1.5}, reverse_v[3] = {0.1, 0, 1.1};
  zeno_scene zz = paper_scene(example3(), EX3_QP, zeno_v);
  test_run rz;
  assert_int_equal(run_scene(&zz, &rz), 0);
  zeno_scene s = full(zz, 1e-3);
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
  assert_true(r.summary.has_zeno);
  assert_non_null(strstr(r.word, " Z NN SS"));
  // Accumulation time and rest position agree with the ZOD to O(eps).
  assert_true(rel_diff(r.summary.zeno_time / 1e-3, rz.summary.zeno_time) < 5e-3);
  assert_true(rel_diff(r.summary.final_state.zod[2], rz.summary.final_state.zod[2]) < 5e-3);
  const zeno_event *z = NULL;
  for (int i = 0; i < r.count; i++)
    if (r.events[i].kind == ZENO_EVENT_ZENO) z = &r.events[i];
  assert_non_null(z);
  assert_true(z->zeno_error < 1e-4 * z->t);  // the reported error estimate
  check_trajectory_health(&r);
  run_free(&r);
  run_free(&rz);
  zeno_scene rv = full(paper_scene(example3(), EX3_QP, reverse_v), 1e-3);
  assert_int_equal(run_scene(&rv, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_DIVERGING);
  const zeno_event *last = NULL;
  for (int k = 0; section_event(&r, k); k++) last = section_event(&r, k);
  assert_true(fabs(last->section_angle + 0.7) < 0.01);
  run_free(&r);
}

static zeno_scene ball(double e) {
  zeno_scene s = ball_scene(e, G);
  s.model = ZENO_MODEL_FULL;
  return s;
}

static void closed_forms(void **state) {
  (void)state;
  // Bouncing ball: accumulation time to 1e-8, then rest.
  const double es[3] = {0.7, 0.8, 0.9};
  for (int k = 0; k < 3; k++) {
    zeno_scene s = ball(es[k]);
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    assert_true(r.summary.has_zeno);
    assert_true(rel_diff(r.summary.zeno_time, sqrt(2 / G) * (1 + es[k]) / (1 - es[k])) < 1e-8);
    assert_int_equal(r.summary.outcome, ZENO_OUTCOME_REST);
    // Free flight conserves energy to the integrator's tolerance.
    const zeno_event *imp = &r.events[1];
    assert_int_equal(imp->kind, ZENO_EVENT_IMPACT);
    assert_true(rel_diff(imp->before.energy, r.events[0].after.energy) < 1e-8);
    run_free(&r);
  }
  // Sliding block: stop time v0 / (mu g).
  const double b = 0.5, h = 0.25, mu = 0.3;
  zeno_paper_params p = {0, -b, b, h, 0, 0, mu, mu, sqrt((b * b + h * h) / 3), 1, G, 0};
  const double qp0[3] = {0, 0, 0}, qdp0[3] = {0, 0, 2};
  zeno_scene sb = full(paper_scene(p, qp0, qdp0), 1e-2);
  test_run r;
  assert_int_equal(run_scene(&sb, &r), 0);
  assert_string_equal(r.word, "PP SS");
  assert_true(rel_diff(r.summary.t, 1e-2 * 2 / (mu * G)) < 1e-8);
  run_free(&r);
  // Rocking block: Housner's ratio at the first impact (at the nominal pose).
  for (int k = 0; k < 2; k++) {
    const double hh = k == 0 ? 2 : 3;
    zeno_paper_params pr = {0, -1, 1, hh, 0, 0, 1, 1, sqrt((1 + hh * hh) / 3), 1, G, 0};
    const double qp[3] = {0, 0.01, 0}, qdp[3] = {0, 0, 0};
    zeno_scene s = full(paper_scene(pr, qp, qdp), 1e-2);
    assert_int_equal(run_scene(&s, &r), 0);
    const zeno_event *imp = NULL;
    for (int i = 0; i < r.count && !imp; i++)
      if (r.events[i].kind == ZENO_EVENT_IMPACT) imp = &r.events[i];
    assert_non_null(imp);
    const double ratio = imp->after.gap_rate[0] / -imp->before.gap_rate[1];
    assert_true(fabs(ratio - (1 - 1.5 / (1 + hh * hh))) < 1e-6);
    check_trajectory_health(&r);
    run_free(&r);
  }
}

// A uniform slender rod (rho^2 = L^2 / 3) slipping on one end, leaning at
// the Painlevé bound's worst angle (tan theta = 1/2 from the normal): the
// bound (11) is 4/3 there. Slightly below, slipping is consistent; slightly
// above, no mode is (the slipping mode's normal force changes sign).
static zeno_outcome rod_start(double mu, double slip_speed) {
  zeno_scene s = painleve_rod_scene(mu, slip_speed, G);
  s.model = ZENO_MODEL_FULL;
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  const zeno_outcome o = r.summary.outcome;
  run_free(&r);
  return o;
}

static void painleve_rod(void **state) {
  (void)state;
  const double bound = 4.0 / 3.0;
  assert_true(fabs(zeno_painleve_bound(1 / sqrt(3.0), (double[2]){-sin(atan(0.5)), -cos(atan(0.5))},
                                       0) -
                   bound) < 1e-12);
  for (int dir = -1; dir <= 1; dir += 2)
    assert_int_equal(rod_start(bound * (1 - 1e-6), dir * 0.5), ZENO_OUTCOME_TIME_LIMIT);
  const zeno_outcome a = rod_start(bound * (1 + 1e-6), 0.5);
  const zeno_outcome b = rod_start(bound * (1 + 1e-6), -0.5);
  const bool paradox = a == ZENO_OUTCOME_INCONSISTENT || a == ZENO_OUTCOME_AMBIGUOUS ||
                       b == ZENO_OUTCOME_INCONSISTENT || b == ZENO_OUTCOME_AMBIGUOUS;
  assert_true(paradox);
}

// A uniform rod (length L, rho^2 = L^2 / 12) standing on one end at angle
// theta0 from the vertical falls about its sticking end; the reactions are
// H = (3mg/4) sin(th) (3 cos(th) - 2 cos(th0)) and
// V = mg [1 - (3/4) sin^2(th) - (3/2)(cos(th0) - cos(th)) cos(th)],
// so the end starts to slip where |H| = mu V: a state-dependent guard the
// ZOD cannot have (friction margin, located by CVODE's root finding).
static double rod_margin(double th, double th0, double mu) {
  const double H = 0.75 * sin(th) * (3 * cos(th) - 2 * cos(th0));
  const double V = 1 - 0.75 * sin(th) * sin(th) - 1.5 * (cos(th0) - cos(th)) * cos(th);
  return mu * V - fabs(H);
}

static void falling_rod_starts_to_slip(void **state) {
  (void)state;
  const double L = 1, th0 = 0.05, mu = 0.3;
  zeno_scene s = one_contact_scene(L / sqrt(12.0), -0.5 * L * sin(th0), -0.5 * L * cos(th0), mu, G);
  s.t_end = 5;
  s.model = ZENO_MODEL_FULL;
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(strncmp(r.word, "S ", 2), 0);
  const zeno_event *e = &r.events[1];
  assert_int_equal(e->guard, ZENO_GUARD_FRICTION_MARGIN);
  assert_int_equal(e->kind, ZENO_EVENT_TRANSITION);
  assert_true(e->mode_after.letter[0] == ZENO_LETTER_P || e->mode_after.letter[0] == ZENO_LETTER_N);
  // Closed-form slip angle: the first sign change of the margin (it is not
  // monotone), then bisection.
  double lo = th0, hi = th0;
  while (rod_margin(hi, th0, mu) > 0) {
    lo = hi;
    hi += 1e-3;
  }
  for (int k = 0; k < 200; k++) {
    const double mid = 0.5 * (lo + hi);
    if (rod_margin(mid, th0, mu) > 0) lo = mid;
    else hi = mid;
  }
  const double th_sim = th0 - e->before.q[2];  // falling clockwise
  assert_true(fabs(th_sim - lo) < 1e-7);
  // The event's contact forces are those of the closed form at that angle.
  const double H = 0.75 * G * sin(lo) * (3 * cos(lo) - 2 * cos(th0));
  assert_true(fabs(e->before.force[0][1] - H) < 1e-6);
  assert_true(fabs(fabs(e->before.force[0][1]) - mu * e->before.force[0][0]) < 1e-6);
  assert_true(e->guard_residual <= GUARD_RESIDUAL_MAX);
  // Energy is conserved while the end sticks (no work at a fixed point):
  // drift below 1e-8 of the energy scale m g L / 2 (the start is at 0).
  assert_true(fabs(e->before.energy - r.events[0].after.energy) < 1e-8 * 0.5 * G * L);
  run_free(&r);
}

// An integrator failure is an event with CVODE's flag name, never an abort:
// a relative tolerance below what double precision can deliver.
static void solver_failure_is_an_event(void **state) {
  (void)state;
  zeno_scene s = full(paper_scene(example2(), EX2_QP, EX2_QDP), 1e-3);
  s.rtol = 1e-300;
  s.atol = 1e-300;
  test_run r;
  assert_int_equal(run_scene(&s, &r), 0);
  assert_int_equal(r.summary.outcome, ZENO_OUTCOME_SOLVER_FAILURE);
  const zeno_event *end = &r.events[r.count - 1];
  assert_int_equal(end->kind, ZENO_EVENT_END);
  assert_int_equal(strncmp(end->solver_flag, "CV_", 3), 0);
  run_free(&r);
}

/// A body dropped spinning onto a slope (Chatterjee-Ruina law, found by
/// tests/test_units.c): its bounces accumulate after 29 impacts.
static zeno_scene spinning_drop(double time_unit) {
  zeno_scene s = one_contact_scene(2.7440514270882828, -1.777730277108633, -1.401953423731184,
                                   0.7990224192596105, 0);
  s.model = ZENO_MODEL_FULL;
  s.mass = 5.578948282706508;
  s.load_magnitude = 108.30034452221645 / (time_unit * time_unit);
  s.contacts[0].surface_angle = 2.6671393169090054 * DEG;
  s.impact_law = ZENO_LAW_CHATTERJEE_RUINA;
  s.restitution = 0.6445479841288683;
  s.tangential_restitution = 0.31308388239345486;
  s.initial_pose[1] = 0.06202091170697491;
  s.initial_pose[2] = -0.02318874199904722;
  const double v[3] = {-1.837132492980031, -5.99143952281838, 1.9586736020519928};
  for (int k = 0; k < 3; k++) s.initial_velocity[k] = v[k] / time_unit;
  s.t_end = 18.798680908219815 * time_unit;
  s.max_events = 2000;
  return s;
}

// A free contact left a hair below its surface by a long chatter, and
// separating, used to fire its gap guard on the rounding wobble of the gap
// at once, again and again: with the earlier Chatterjee-Ruina impulses this
// run made 926 zero-time transitions, and with the time unit changed by
// 1e6 it reached the event limit before its Zeno completion (the guard now
// starts below that wobble, flow_cvode.c). With either time unit the run
// completes after the same 29 impacts at the same time, in a handful of
// events.
static void no_zero_time_loop_at_the_rounding_floor(void **state) {
  (void)state;
  double zeno_time[2];
  for (int k = 0; k < 2; k++) {
    const double unit = k ? 1e6 : 1;
    const zeno_scene s = spinning_drop(unit);
    test_run r;
    assert_int_equal(run_scene(&s, &r), 0);
    assert_true(r.summary.has_zeno);
    assert_int_equal(r.summary.impacts, 29);
    assert_true(r.count < 60);
    zeno_time[k] = r.summary.zeno_time / unit;
    run_free(&r);
  }
  // The same accumulation point to the integration tolerance (1e-10).
  assert_true(rel_diff(zeno_time[0], zeno_time[1]) < 1e-7);
  assert_true(fabs(zeno_time[0] - 1.57785) < 1e-4);
}

/// Room for the mode words of the restitution runs (the longest, Example 2
/// with Newton e = 0.5 under the ZOD, has 303 tokens).
#define MACRO_WORD_LEN 8192

/// Longest block folded in a macro word.
#define MACRO_FOLD 6

// The macro word: the mode word without FF (the flights between impacts)
// and with every block of up to MACRO_FOLD tokens that repeats back to back
// kept once. Two models that simulate a different number of impacts before
// a completion, or cycles before a chain's completion, then spell the same
// story the same way.
static test_tokens macro_word(const char *word) {
  test_tokens t = test_split_word(word, true);
  test_fold_repeats(&t, MACRO_FOLD);
  return t;
}

// Example 2 (the paper's start) with restitution, both laws: the ZOD and the
// full model (eps = 1e-3) rest at the same x2 (measured 3.9e-4 relative at
// most, against 1e-2 asked), and tell the same story: the same macro word,
// up to the end of the ZOD's, which completes the last chain of cycles
// geometrically ("... Z SS"), where the full model follows it to its
// precision floor (Newton e = 0.5: "NF SF FI IF Z NP SS", one more cycle
// and a slip of zero duration). Chatterjee-Ruina never adds energy; Newton's
// law with friction does (e = 0.8).
static void restitution_models_agree(void **state) {
  (void)state;
  const struct {
    zeno_impact_law law;
    double e;
  } cases[] = {{ZENO_LAW_CHATTERJEE_RUINA, 0.2}, {ZENO_LAW_CHATTERJEE_RUINA, 0.5},
               {ZENO_LAW_CHATTERJEE_RUINA, 0.8}, {ZENO_LAW_NEWTON, 0.2},
               {ZENO_LAW_NEWTON, 0.5},           {ZENO_LAW_NEWTON, 0.8}};
  static char word[2][MACRO_WORD_LEN];
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    zeno_summary sum[2];
    test_tokens tok[2];
    for (int m = 0; m < 2; m++) {
      zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
      s.impact_law = cases[k].law;
      s.restitution = cases[k].e;
      s.model = m ? ZENO_MODEL_FULL : ZENO_MODEL_ZOD;
      assert_int_equal(zeno_run(&s, NULL, &sum[m], word[m], MACRO_WORD_LEN, NULL), ZENO_OK);
      assert_int_equal(sum[m].outcome, ZENO_OUTCOME_REST);
      if (cases[k].law == ZENO_LAW_CHATTERJEE_RUINA) assert_int_equal(sum[m].energy_gains, 0);
      tok[m] = macro_word(word[m]);
    }
    const double zod = sum[0].final_state.zod[2], full = sum[1].final_state.zod[2];
    if (!(fabs(full - zod) <= 1e-3 * fabs(zod)))
      fail_msg("case %zu: rest at x2 = %.9g (ZOD) and %.9g (full)", k, zod, full);
    // Newton e = 0.8 interleaves two chatters whose completions differ by a
    // slip of near-tie size (ZOD "Z NF SF FI", full "Z SF FI"): its rest
    // point agrees, its word is not compared.
    const int n[2] = {tok[0].count, tok[1].count};
    if (!(cases[k].law == ZENO_LAW_NEWTON && cases[k].e > 0.7)) {
      int same = 0;
      while (same < n[0] && same < n[1] && strcmp(tok[0].tok[same], tok[1].tok[same]) == 0) same++;
      assert_true(n[0] >= 2 && strcmp(tok[0].tok[n[0] - 1], "SS") == 0 &&
                  strcmp(tok[1].tok[n[1] - 1], "SS") == 0);
      if (!(same == n[0] || (same >= n[0] - 2 && strcmp(tok[0].tok[n[0] - 2], "Z") == 0)))
        fail_msg("case %zu: the macro words part after %d of %d tokens:\n  ZOD  %s\n  full %s", k,
                 same, n[0], word[0], word[1]);
    } else {
      assert_true(sum[1].energy_gains > 0);
      assert_true(sum[1].energy_gain_max > 1e-3 && sum[1].energy_gain_max < 10);
    }
    test_tokens_free(&tok[0]);
    test_tokens_free(&tok[1]);
  }
}

// With restitution too the full model converges to the ZOD like eps^2:
// Example 2's rest point differs by 4.4e-3 and 3.4e-5 (Newton e = 0.2),
// 1.0e-3 and 1.0e-5 (Chatterjee-Ruina e = 0.5), 4.4e-3 and 4.4e-5 (Newton
// e = 0.5) at eps = 1e-3 and 1e-4. Before, the full model cut its
// sequences at the last bounce above its precision floor and stalled at
// 1.4e-3 for e = 0.2 (linear or no convergence would divide by 10 or
// less), and Newton e = 0.5 at eps = 3e-4 slid off in a mode it had
// chosen for slips that the closing of the contacts had removed.
static void restitution_converges_like_eps_squared(void **state) {
  (void)state;
  const struct {
    zeno_impact_law law;
    double e;
  } cases[] = {{ZENO_LAW_NEWTON, 0.2}, {ZENO_LAW_CHATTERJEE_RUINA, 0.5}, {ZENO_LAW_NEWTON, 0.5}};
  const double eps[3] = {1e-3, 3e-4, 1e-4};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
    s.impact_law = cases[k].law;
    s.restitution = cases[k].e;
    zeno_summary zod, f;
    assert_int_equal(zeno_run(&s, NULL, &zod, NULL, 0, NULL), ZENO_OK);
    assert_int_equal(zod.outcome, ZENO_OUTCOME_REST);
    double diff[3];
    for (int j = 0; j < 3; j++) {
      const zeno_scene sf = full(s, eps[j]);
      assert_int_equal(zeno_run(&sf, NULL, &f, NULL, 0, NULL), ZENO_OK);
      assert_int_equal(f.outcome, ZENO_OUTCOME_REST);
      diff[j] = fabs(f.final_state.zod[2] - zod.final_state.zod[2]);
    }
    if (!(diff[0] < 1e-2 && diff[0] / diff[2] > 50 && diff[1] < diff[0] && diff[2] < diff[1]))
      fail_msg("case %zu: rest point off the ZOD's by %.3g, %.3g, %.3g at eps = 1e-3, 3e-4, 1e-4",
               k, diff[0], diff[1], diff[2]);
  }
}

// Example 2 with Newton's e = 0.5 and 0.8 in both models: no gap below
// -1e-9 of the run's scale (its start gaps, 1 in q') at any event, nor at 50
// dense-output samples between consecutive events (the full model's
// completions at a floor used to add their geometric tail while contact 2
// was falling, and left it 9e-7 below its surface).
static void newton_never_penetrates_in_either_model(void **state) {
  (void)state;
  const double es[2] = {0.5, 0.8};
  for (int k = 0; k < 2; k++)
    for (int m = 0; m < 2; m++) {
      zeno_scene s = paper_scene(example2(), EX2_QP, EX2_QDP);
      s.impact_law = ZENO_LAW_NEWTON;
      s.restitution = es[k];
      if (m) s = full(s, 1e-3);
      zeno_sim *sim = zeno_sim_create(&s, NULL, NULL);
      assert_non_null(sim);
      zeno_event ev;
      double t_prev = 0, lowest = INFINITY;
      while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
        for (int j = 1; j < 50 && ev.t > t_prev; j++) {
          zeno_state st;
          assert_int_equal(zeno_sim_state_at(sim, t_prev + (ev.t - t_prev) * j / 50.0, &st, NULL),
                           ZENO_OK);
          lowest = fmin(lowest, fmin(st.zod[0], st.zod[1]));
        }
        for (int c = 0; c < 2; c++) lowest = fmin(lowest, fmin(ev.before.zod[c], ev.after.zod[c]));
        t_prev = ev.t;
      }
      assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
      if (!(lowest >= -1e-9))
        fail_msg("Newton e = %g, %s model: a gap of %g", es[k], m ? "full" : "ZOD", lowest);
      zeno_sim_destroy(sim);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example2_converges_to_the_zod),
      cmocka_unit_test(example3_zeno_and_reverse_chatter),
      cmocka_unit_test(closed_forms),
      cmocka_unit_test(painleve_rod),
      cmocka_unit_test(falling_rod_starts_to_slip),
      cmocka_unit_test(solver_failure_is_an_event),
      cmocka_unit_test(no_zero_time_loop_at_the_rounding_floor),
      cmocka_unit_test(restitution_models_agree),
      cmocka_unit_test(restitution_converges_like_eps_squared),
      cmocka_unit_test(newton_never_penetrates_in_either_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
