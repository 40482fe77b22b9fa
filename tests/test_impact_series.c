// The Zeno series arithmetic both engines share (dynamics/impact_series.c),
// against closed forms: a ball bouncing with restitution e under gravity g
// while it slides with a constant horizontal acceleration a: its impacts
// at t_k = 2 w0 (1 - e^k) / (g (1 - e)), post-impact speeds w0 e^k. The
// limit and the fast-forward land on those times and states; the growth
// test, the floor's tail, the chain's gap rule, the signature and the
// ring by their definitions.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dynamics/impact_series.h"

/// g, the restitution, the first post-impact speed, the slide's
/// acceleration and its speed at t = 0.
#define G 9.81
#define E 0.5
#define W0 2.0
#define ACCEL 0.3
#define U0 1.0
/// Rounding of a few geometric sums.
#define TOL 1e-12
/// Impacts recorded.
#define RECORDS 8

static double impact_time(int k, double e) { return 2 * W0 * (1 - pow(e, k)) / (G * (1 - e)); }

// The ball's records: height 0 at each impact, leaving at w0 e^k; the
// slide x = U0 t + ACCEL t^2 / 2. One step (signature) repeats.
static int bouncing(impact_record *r, int count, double e) {
  memset(r, 0, sizeof *r * (size_t)count);
  for (int k = 0; k < count; k++) {
    const double t = impact_time(k, e);
    r[k].t = t;
    r[k].signature = 7;
    r[k].speed = W0 * pow(e, k) / e;  // the approach speed
    r[k].q[1] = U0 * t + ACCEL * t * t / 2;
    r[k].qd[0] = W0 * pow(e, k);
    r[k].qd[1] = U0 + ACCEL * t;
    r[k].touched = 1;
  }
  return count;
}

static void test_limit_of_a_bouncing_slide(void **state) {
  (void)state;
  impact_record r[RECORDS];
  const rview v = {r, bouncing(r, RECORDS, E)};
  double t, q[3], qd[3], t_err, dqd[3];
  series_geometric_limit(v, 1, E, &t, q, qd, &t_err, dqd);
  const double t_inf = 2 * W0 / (G * (1 - E));
  assert_true(fabs(t - t_inf) <= TOL * t_inf);
  assert_true(fabs(q[1] - (U0 * t_inf + ACCEL * t_inf * t_inf / 2)) <= TOL);
  assert_true(fabs(qd[0]) <= TOL && fabs(qd[1] - (U0 + ACCEL * t_inf)) <= TOL);
  // The limit a period earlier predicts the same (exact geometry).
  assert_true(t_err <= TOL);
  for (int k = 0; k < 3; k++) assert_true(fabs(dqd[k]) <= TOL);
}

static void test_forward_lands_on_an_impact(void **state) {
  (void)state;
  impact_record r[RECORDS];
  const rview v = {r, bouncing(r, RECORDS, E)};
  const double t_now = r[RECORDS - 1].t;
  // t_end between impacts 20 and 21: periods up to the 20th end before
  // it, and one is kept to simulate (SERIES_FORWARD_MARGIN_PERIODS).
  const double t_end = (impact_time(20, E) + impact_time(21, E)) / 2;
  double t, q[3], qd[3];
  assert_true(series_forward(v, 1, E, t_now, t_end, &t, q, qd));
  const int k = 20 - SERIES_FORWARD_MARGIN_PERIODS;
  const double tk = impact_time(k, E);
  assert_true(fabs(t - tk) <= TOL);
  assert_true(fabs(q[1] - (U0 * tk + ACCEL * tk * tk / 2)) <= TOL);
  assert_true(fabs(qd[0] - W0 * pow(E, k)) <= TOL && fabs(qd[1] - (U0 + ACCEL * tk)) <= TOL);
  // Too few periods to skip before t_end, or t_end past the limit: none.
  const double near = impact_time(RECORDS - 1 + SERIES_FORWARD_MIN_PERIODS, E);
  assert_false(series_forward(v, 1, E, t_now, near, &t, q, qd));
  assert_false(series_forward(v, 1, E, t_now, 2 * W0 / (G * (1 - E)) + 1, &t, q, qd));
}

static void test_outgrowing(void **state) {
  (void)state;
  impact_record r[RECORDS];
  const double growth = 1.5;  // reverse chatter: each flight 1.5 times the last
  const rview v = {r, bouncing(r, RECORDS, growth)};
  const int K = SERIES_RATIO_PERIODS + 1;
  assert_true(series_outgrowing(v, 1, K, 1 + SERIES_DIVERGE_RTOL));
  assert_false(series_outgrowing(v, 1, K, growth + 0.01));  // not by more than it grows
  r[RECORDS - 2].speed = r[RECORDS - 1].speed;              // the last impact no faster
  assert_false(series_outgrowing(v, 1, K, 1 + SERIES_DIVERGE_RTOL));
}

static void test_floor_tail(void **state) {
  (void)state;
  impact_record r[RECORDS];
  const rview v = {r, bouncing(r, RECORDS, E)};
  int p = 0;
  double ratio = 0;
  assert_true(series_floor_tail(v, SERIES_MAX_PERIOD, &p, &ratio));
  assert_int_equal(p, 1);
  assert_true(fabs(ratio - E) <= TOL);
  // The last period's speed ratio 10 % off its duration ratio: no tail.
  r[RECORDS - 1].speed *= 1.1;
  assert_false(series_floor_tail(v, SERIES_MAX_PERIOD, &p, &ratio));
  // Alternating steps: period two, its ratio e^2.
  bouncing(r, RECORDS, E);
  for (int k = 0; k < RECORDS; k += 2) r[k].signature = 8;
  assert_true(series_floor_tail(v, SERIES_MAX_PERIOD, &p, &ratio));
  assert_int_equal(p, 2);
  assert_true(fabs(ratio - E * E) <= TOL);
}

static void test_chain_gap_rule(void **state) {
  (void)state;
  // The last completion at 3, the chain's reference at 1: a sequence
  // starting up to SERIES_CHAIN_GAP_FACTOR * 2 later goes on the chain.
  assert_true(series_chain_goes_on(3 + SERIES_CHAIN_GAP_FACTOR * 2, 3, 1));
  assert_false(series_chain_goes_on(3 + SERIES_CHAIN_GAP_FACTOR * 2 + 1e-9, 3, 1));
}

static void test_sequence_signature(void **state) {
  (void)state;
  const uint64_t h = series_sequence_signature(1, 2, 3, 4);
  assert_true(h == series_sequence_signature(1, 2, 3, 4));
  assert_true(h != series_sequence_signature(5, 2, 3, 4));
  assert_true(h != series_sequence_signature(1, 5, 3, 4));
  assert_true(h != series_sequence_signature(1, 2, 0, 4));  // at a floor
  assert_true(h != series_sequence_signature(1, 2, 3, 5));
}

static void test_ring_drops_the_oldest(void **state) {
  (void)state;
  impact_record ring[3];
  int len = 0;
  for (int k = 0; k < 5; k++) series_ring_next(ring, &len, 3)->t = k;
  assert_int_equal(len, 3);
  for (int k = 0; k < 3; k++) assert_true(ring[k].t == k + 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_limit_of_a_bouncing_slide),
      cmocka_unit_test(test_forward_lands_on_an_impact),
      cmocka_unit_test(test_outgrowing),
      cmocka_unit_test(test_floor_tail),
      cmocka_unit_test(test_chain_gap_rule),
      cmocka_unit_test(test_sequence_signature),
      cmocka_unit_test(test_ring_drops_the_oldest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
