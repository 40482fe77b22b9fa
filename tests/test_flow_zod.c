// Exact ZOD segments: quadratic guard roots and crossing selection.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "dynamics/flow_zod.h"
#include "test_util.h"

// z(t) = z0 + v t + a t^2 / 2 falling onto zero: t = (v + sqrt(v^2 + 2 a z0)) / -a.
static void falling_root_is_exact(void **state) {
  (void)state;
  const double z0 = 1.0, v = 0.0, a = -9.81;
  const double t = flow_first_root(z0, v, a, -1);
  assert_true(rel_diff(t, sqrt(2.0 / 9.81)) < 1e-15);
  // Rising through zero is not an impact.
  assert_true(isinf(flow_first_root(-1.0, 2.0, 0.0, -1)));
  assert_true(fabs(flow_first_root(-1.0, 2.0, 0.0, +1) - 0.5) < 1e-15);
}

// A contact just separated (z0 = 0, moving up, falling back) returns after
// 2 v / |a|; the root at t = 0 is the separation, not an impact.
static void separating_contact_returns(void **state) {
  (void)state;
  const double v = 1e-7, a = -3.0;
  const double t = flow_first_root(0.0, v, a, -1);
  assert_true(rel_diff(t, 2 * v / 3.0) < 1e-15);
  // The cancellation-free formula keeps a tiny gap's root accurate.
  const double z0 = 1e-20, t2 = flow_first_root(z0, -1.0, 0.5, -1);
  assert_true(rel_diff(t2, 1e-20) < 1e-15);
  // Speeds whose square underflows or overflows: a restitution chatter run
  // down to 1e-162 (Example 2, Newton e = 0.5) lost this root and the body
  // fell through both surfaces; the return is still 2 v / |a|.
  const double speeds[] = {1e-162, 3e-200, 1e160, 1e-300};
  for (size_t k = 0; k < sizeof speeds / sizeof *speeds; k++) {
    const double tk = flow_first_root(0.0, speeds[k], a, -1);
    assert_true(rel_diff(tk, 2 * speeds[k] / 3.0) < 1e-15);
  }
  // ... and a gap of their size reached at such a speed.
  assert_true(rel_diff(flow_first_root(1e-170, -1e-162, -1e-200, -1), 1e-8) < 1e-15);
}

// A tangent touch is not a crossing; no real root means no event.
static void grazing_is_not_a_crossing(void **state) {
  (void)state;
  // z = (t - 1)^2 = 1 - 2 t + t^2: touches zero at t = 1 with zero slope.
  assert_true(isinf(flow_first_root(1.0, -2.0, 2.0, -1)));
  assert_true(isinf(flow_first_root(1.0, 0.0, 1.0, 0)));
}

// Crossings come sorted; a free contact at a negative gap that keeps
// approaching (rounding of a long chatter) impacts at once.
static void crossings_sorted_and_penetration_caught(void **state) {
  (void)state;
  zeno_mode pf = {{ZENO_LETTER_P, ZENO_LETTER_F}};
  const double c[4] = {0, 0.2, 0.25, 3.0}, cd[4] = {0, 1.0, -1.0, 0.1},
               cdd[4] = {0, -2.0, 0.0, 0.0};
  flow_crossing cr[FLOW_MAX_CROSSINGS];
  const int n = flow_crossings(2, pf, c, cd, cdd, 100.0, cr);
  assert_true(n >= 2);
  assert_int_equal(cr[0].guard, ZENO_GUARD_GAP);  // contact 2 lands at t = 0.25
  assert_int_equal(cr[0].contact, 1);
  assert_true(fabs(cr[0].tau - 0.25) < 1e-15);
  assert_int_equal(cr[1].guard, ZENO_GUARD_SLIP_VELOCITY);  // contact 1 stops at t = 0.5
  assert_true(fabs(cr[1].tau - 0.5) < 1e-15);
  for (int k = 1; k < n; k++) assert_true(cr[k].tau >= cr[k - 1].tau);
  const double cneg[4] = {0, 0, -1e-18, 0}, cdneg[4] = {0, 0, -1e-9, 0},
               cddneg[4] = {0, 0, -1.0, 0};
  zeno_mode sf = {{ZENO_LETTER_S, ZENO_LETTER_F}};
  const int m = flow_crossings(2, sf, cneg, cdneg, cddneg, 100.0, cr);
  assert_true(m >= 1);
  assert_int_equal(cr[0].guard, ZENO_GUARD_GAP);
  assert_true(cr[0].tau == 0.0);
}

// Every crossing with its escapes, as flow_crossings made them before it
// left out the escapes that cannot matter: the reference of the next test.
static int all_crossings(zeno_mode mode, const double c[4], const double cd[4], const double cdd[4],
                         double radius, flow_crossing *out) {
  int n = 0;
  for (int i = 0; i < 2; i++) {
    const int l = mode.letter[i];
    double tau = INFINITY;
    zeno_guard g = ZENO_GUARD_GAP;
    if (l == ZENO_LETTER_F) tau = flow_first_root(c[2 * i], cd[2 * i], cdd[2 * i], -1);
    if (l == ZENO_LETTER_P || l == ZENO_LETTER_N) {
      tau = flow_first_root(cd[2 * i + 1], cdd[2 * i + 1], 0, l == ZENO_LETTER_P ? -1 : 1);
      g = ZENO_GUARD_SLIP_VELOCITY;
    }
    if (isfinite(tau)) out[n++] = (flow_crossing){tau, g, i};
  }
  for (int a = 0; a < 4; a++)
    for (int side = 1; side >= -1; side -= 2) {
      const double tau = flow_first_root(c[a] - side * radius, cd[a], cdd[a], side);
      if (isfinite(tau)) out[n++] = (flow_crossing){tau, ZENO_GUARD_ESCAPE, a / 2};
    }
  for (int a = 1; a < n; a++)
    for (int b = a; b > 0 && out[b - 1].tau > out[b].tau; b--) {
      const flow_crossing t = out[b];
      out[b] = out[b - 1];
      out[b - 1] = t;
    }
  return n;
}

// Escapes are left out only where no caller reads them: the list equals
// the full one up to twice its latest guard crossing (beyond, an escape
// sorts last and its tie margin (tau - tau0) / tau0 exceeds 1), and an
// escape that comes first is always there. 20,000 random segments with
// radii from 0.1 to 1e3 times the coordinates.
static void escapes_left_out_only_when_unread(void **state) {
  (void)state;
  rng r = {0x9e3779b97f4a7c15ull};
  const zeno_mode modes[3] = {{{ZENO_LETTER_F, ZENO_LETTER_F}},
                              {{ZENO_LETTER_P, ZENO_LETTER_F}},
                              {{ZENO_LETTER_S, ZENO_LETTER_N}}};
  int escapes_first = 0, left_out = 0;
  for (int k = 0; k < 20000; k++) {
    const zeno_mode mode = modes[k % 3];
    double c[4], cd[4], cdd[4];
    for (int a = 0; a < 4; a++) {
      c[a] = rng_uniform(&r, -1, 1);
      cd[a] = rng_uniform(&r, -1, 1);
      cdd[a] = rng_uniform(&r, -1, 1);
    }
    c[0] = fabs(c[0]);
    c[2] = fabs(c[2]);
    const double radius = pow(10, rng_uniform(&r, -1, 3));
    flow_crossing got[FLOW_MAX_CROSSINGS], ref[FLOW_MAX_CROSSINGS];
    const int n = flow_crossings(2, mode, c, cd, cdd, radius, got);
    const int m = all_crossings(mode, c, cd, cdd, radius, ref);
    double latest = 0;
    for (int j = 0; j < m; j++)
      if (ref[j].guard != ZENO_GUARD_ESCAPE) latest = fmax(latest, ref[j].tau);
    int kept = 0;
    for (int j = 0; j < m; j++) {
      if (ref[j].guard == ZENO_GUARD_ESCAPE && latest > 0 && ref[j].tau > 2 * latest && kept == n)
        continue;
      assert_true(kept < n);
      assert_int_equal(got[kept].guard, ref[j].guard);
      assert_int_equal(got[kept].contact, ref[j].contact);
      assert_true(got[kept].tau == ref[j].tau);
      kept++;
    }
    assert_int_equal(kept, n);
    left_out += m - n;
    escapes_first += m > 0 && ref[0].guard == ZENO_GUARD_ESCAPE;
  }
  // Both cases occur often enough for the assertions to have bitten.
  assert_true(left_out > 10000);
  assert_true(escapes_first > 1000);
}

// flow_crossings_inv(), the mode's divisors inverted once (the maps' kernel),
// against flow_crossings(): the same guards in the same order wherever two
// crossings are not within rounding of each other, and every time to
// 1e-14 of itself. 20,000 random segments of every mode with a free or
// slipping contact, accelerations of both signs and some exactly zero.
static void inverted_divisors_agree(void **state) {
  (void)state;
  rng r = {0x2545f4914f6cdd1dull};
  const zeno_mode modes[4] = {{{ZENO_LETTER_F, ZENO_LETTER_F}},
                              {{ZENO_LETTER_P, ZENO_LETTER_F}},
                              {{ZENO_LETTER_F, ZENO_LETTER_N}},
                              {{ZENO_LETTER_N, ZENO_LETTER_P}}};
  int compared = 0;
  double worst = 0;
  for (int k = 0; k < 20000; k++) {
    const zeno_mode mode = modes[k % 4];
    double c[4], cd[4], cdd[4], inv[4];
    for (int a = 0; a < 4; a++) {
      c[a] = rng_uniform(&r, -1, 1);
      cd[a] = rng_uniform(&r, -1, 1);
      cdd[a] = k % 7 == 0 && a % 2 == 0 ? 0 : rng_uniform(&r, -1, 1);
      inv[a] = cdd[a] == 0 ? 0 : a % 2 == 0 ? 1 / (0.5 * cdd[a]) : 1 / cdd[a];
    }
    c[0] = fabs(c[0]);
    c[2] = fabs(c[2]);
    flow_crossing got[FLOW_MAX_CROSSINGS], ref[FLOW_MAX_CROSSINGS];
    const int n = flow_crossings_inv(2, mode, c, cd, cdd, inv, 10.0, got);
    const int m = flow_crossings(2, mode, c, cd, cdd, 10.0, ref);
    assert_int_equal(n, m);
    for (int j = 0; j < n; j++) {
      const double dev = fabs(got[j].tau - ref[j].tau) / fmax(fabs(ref[j].tau), 1e-300);
      worst = fmax(worst, ref[j].tau > 0 ? dev : 0);
      assert_true(dev <= 1e-14 || ref[j].tau == got[j].tau);
      const bool apart = j + 1 >= n || ref[j + 1].tau - ref[j].tau > 1e-12 * ref[j + 1].tau;
      if (!apart) continue;
      assert_int_equal(got[j].guard, ref[j].guard);
      assert_int_equal(got[j].contact, ref[j].contact);
      compared++;
    }
  }
  printf("# %d crossings compared, times to %.2g\n", compared, worst);
  assert_true(compared > 20000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(falling_root_is_exact),
      cmocka_unit_test(separating_contact_returns),
      cmocka_unit_test(grazing_is_not_a_crossing),
      cmocka_unit_test(crossings_sorted_and_penetration_caught),
      cmocka_unit_test(escapes_left_out_only_when_unread),
      cmocka_unit_test(inverted_divisors_agree),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
