// The exact check under Newton's law (src/sos/copositive.c,
// certify_rat.c, certify_flight.c; docs/certificate.md): exact copositivity
// on textbook matrices, quadratic forms on polyhedral cones with known
// answers, the exact model against the floating-point one, and the
// restitution scene certified, with a perturbed certificate and an unstable
// configuration refused.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "certify/certify_check.h"
#include "certify/certify_exact.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "certify/certify_system.h"
#include "sos/copositive.h"
#include "zeno/zeno.h"

#include "certify_test_util.h"

/* ---------- helpers ---------- */

static mpq_t *qmat(int n, const double *v) {
  mpq_t *a = malloc((size_t)n * sizeof *a);
  assert_non_null(a);
  for (int k = 0; k < n; k++) {
    mpq_init(a[k]);
    if (v) mpq_set_d(a[k], v[k]);
  }
  return a;
}

static void qfree(mpq_t *a, int n) {
  for (int k = 0; k < n; k++) mpq_clear(a[k]);
  free(a);
}

static copositive_answer copositive(int n, const double *M, unsigned long *witness) {
  mpq_t *q = qmat(n * n, M);
  const copositive_answer a = copositive_copositive(n, q, witness);
  qfree(q, n * n);
  return a;
}

static copositive_answer cone(int n, const double *Q, int m, const double *L) {
  mpq_t *q = qmat(n * n, Q), *l = qmat(m * n > 0 ? m * n : 1, L);
  const copositive_answer a = copositive_cone_nonneg(n, q, m, l, NULL);
  qfree(q, n * n);
  qfree(l, m * n > 0 ? m * n : 1);
  return a;
}

// The smallest x^T M x over random points of the simplex (and its faces).
static double sampled_min(int n, const double *M, unsigned seed, int samples) {
  double best = INFINITY;
  for (int t = 0; t < samples; t++) {
    double x[8], sum = 0, q = 0;
    for (int i = 0; i < n; i++) {
      x[i] = uniform(&seed, 0, 1) < 0.3 ? 0 : uniform(&seed, 0, 1);
      sum += x[i];
    }
    if (sum == 0) continue;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) q += x[i] * M[i * n + j] * x[j] / (sum * sum);
    best = fmin(best, q);
  }
  return best;
}

/* ---------- copositivity ---------- */

// Textbook facts: the Horn matrix is copositive (and neither PSD nor
// entrywise >= 0); a negative diagonal entry is not; a PSD matrix with
// negative entries is; [[0,1],[1,0]] is though indefinite; [[1,-2],[-2,1]]
// is not (x = (1, 1) gives -2).
static void copositive_textbook(void **state) {
  (void)state;
  static const double horn[25] = {1,  -1, 1, 1, -1, -1, 1,  -1, 1, 1, 1,  -1, 1,
                                  -1, 1,  1, 1, -1, 1,  -1, -1, 1, 1, -1, 1};
  assert_int_equal(copositive(5, horn, NULL), COPOSITIVE_YES);
  static const double neg_diag[9] = {1, 2, 3, 2, -1e-9, 1, 3, 1, 4};
  unsigned long w = 0;
  assert_int_equal(copositive(3, neg_diag, &w), COPOSITIVE_NO);
  assert_int_equal(w, 1ul << 1);
  static const double psd[9] = {2, -1, 0, -1, 2, -1, 0, -1, 2};
  assert_int_equal(copositive(3, psd, NULL), COPOSITIVE_YES);
  static const double swap[4] = {0, 1, 1, 0}, not2[4] = {1, -2, -2, 1}, edge[4] = {1, -1, -1, 1};
  assert_int_equal(copositive(2, swap, NULL), COPOSITIVE_YES);
  assert_int_equal(copositive(2, not2, &w), COPOSITIVE_NO);
  assert_int_equal(w, 3ul);
  assert_int_equal(copositive(2, edge, NULL), COPOSITIVE_YES);  // PSD, zero at (1, 1)
  // The Horn matrix with one entry pushed down by 1e-9 is not copositive:
  // H x = 0 at x = (1, 1, 0, 0, 0) with a negative cross entry makes it so.
  double h2[25];
  memcpy(h2, horn, sizeof h2);
  h2[1] = h2[5] = -1 - 1e-9;
  assert_int_equal(copositive(5, h2, NULL), COPOSITIVE_NO);
}

// Random symmetric matrices: every answer agrees with the sampled minimum
// over the simplex; for a NO, the witness submatrix J gives the point
// x = -M_J^-1 e >= 0 with x^T M x < 0 (Cottle-Habetler-Lemke's direction).
static void copositive_random(void **state) {
  (void)state;
  unsigned seed = 17u;
  int yes = 0, no = 0;
  for (int trial = 0; trial < 200; trial++) {
    const int n = 2 + trial % 5;
    double M[49];
    for (int i = 0; i < n; i++)
      for (int j = i; j < n; j++)
        M[i * n + j] = M[j * n + i] = i == j ? floor(4 * uniform(&seed, 0, 1))
                                             : floor(7 * uniform(&seed, 0, 1)) - 3;
    unsigned long w = 0;
    const copositive_answer a = copositive(n, M, &w);
    const double low = sampled_min(n, M, seed, 20000);
    if (a == COPOSITIVE_YES) {
      yes++;
      assert_true(low >= -1e-12);
      continue;
    }
    assert_int_equal(a, COPOSITIVE_NO);
    no++;
    int J[8], k = 0;
    for (int i = 0; i < n; i++)
      if (w & (1ul << i)) J[k++] = i;
    assert_true(k >= 1);
    // Solve M_J x = -e (Gauss, double) and evaluate the form.
    double A[8][9];
    for (int r = 0; r < k; r++) {
      for (int c = 0; c < k; c++) A[r][c] = M[J[r] * n + J[c]];
      A[r][k] = -1;
    }
    for (int c = 0; c < k; c++) {
      int p = c;
      for (int r = c + 1; r < k; r++)
        if (fabs(A[r][c]) > fabs(A[p][c])) p = r;
      for (int q = 0; q <= k; q++) {
        const double t = A[c][q];
        A[c][q] = A[p][q];
        A[p][q] = t;
      }
      for (int r = 0; r < k; r++) {
        if (r == c) continue;
        const double f = A[r][c] / A[c][c];
        for (int q = c; q <= k; q++) A[r][q] -= f * A[c][q];
      }
    }
    double x[8] = {0}, form = 0;
    for (int r = 0; r < k; r++) {
      x[J[r]] = A[r][k] / A[r][r];
      assert_true(x[J[r]] >= -1e-12);
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) form += x[i] * M[i * n + j] * x[j];
    assert_true(form < -1e-9);
  }
  print_message("200 random matrices: %d copositive, %d not (each with its point)\n", yes, no);
  assert_true(yes > 20 && no > 20);
}

// Quadratic forms on cones with known answers.
static void cone_known_answers(void **state) {
  (void)state;
  static const double hyperbolic[4] = {1, 0, 0, -1};
  // y1^2 - y2^2 >= 0 on the cone |y2| <= y1; not on the quadrant (y = (0, 1)).
  static const double wedge[4] = {1, -1, 1, 1}, quadrant[4] = {1, 0, 0, 1};
  assert_int_equal(cone(2, hyperbolic, 2, wedge), COPOSITIVE_YES);
  assert_int_equal(cone(2, hyperbolic, 2, quadrant), COPOSITIVE_NO);
  // The wedge widened by 1e-9 lets y2^2 beat y1^2: no.
  static const double wider[4] = {1 + 1e-9, -1, 1 + 1e-9, 1};
  assert_int_equal(cone(2, hyperbolic, 2, wider), COPOSITIVE_NO);
  // A half-plane y1 >= 0 (not pointed: the y2 axis is its lineality):
  // y1^2 is >= 0 there, y1^2 + y1 y2 is not (y = (eps, -1)).
  static const double half[2] = {1, 0}, sq[4] = {1, 0, 0, 0}, cross[4] = {1, 0.5, 0.5, 0};
  assert_int_equal(cone(2, sq, 1, half), COPOSITIVE_YES);
  assert_int_equal(cone(2, cross, 1, half), COPOSITIVE_NO);
  // The whole plane (no row): copositive on it is PSD.
  static const double psd[4] = {2, 1, 1, 1}, indef[4] = {1, 2, 2, 1};
  assert_int_equal(cone(2, psd, 0, NULL), COPOSITIVE_YES);
  assert_int_equal(cone(2, indef, 0, NULL), COPOSITIVE_NO);
  // The cone {0}: any form is >= 0 on it.
  static const double box[8] = {1, 0, -1, 0, 0, 1, 0, -1}, minus[4] = {-1, 0, 0, -1};
  assert_int_equal(cone(2, minus, 4, box), COPOSITIVE_YES);
  // A 3-D cone with a line: y3 free, y1, y2 >= 0; Q = y1 y2 + y3^2 is >= 0,
  // Q = y1 y2 + y1 y3 is not (y3 -> -inf).
  static const double l3[6] = {1, 0, 0, 0, 1, 0};
  static const double q_ok[9] = {0, 0.5, 0, 0.5, 0, 0, 0, 0, 1};
  static const double q_bad[9] = {0, 0.5, 0.5, 0.5, 0, 0, 0.5, 0, 0};
  assert_int_equal(cone(3, q_ok, 2, l3), COPOSITIVE_YES);
  assert_int_equal(cone(3, q_bad, 2, l3), COPOSITIVE_NO);
  // The second-order cone's polyhedral inner square in R^3 (4 rays):
  // y3^2 - y1^2 - y2^2 >= 0 on {|y1| <= y3 / 2, |y2| <= y3 / 2}, not on
  // {|y1| <= y3, |y2| <= y3} (corner (1, 1, 1)).
  static const double soc[9] = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
  static const double inner[12] = {-1, 0, 0.5, 1, 0, 0.5, 0, -1, 0.5, 0, 1, 0.5};
  static const double outer[12] = {-1, 0, 1, 1, 0, 1, 0, -1, 1, 0, 1, 1};
  assert_int_equal(cone(3, soc, 4, inner), COPOSITIVE_YES);
  assert_int_equal(cone(3, soc, 4, outer), COPOSITIVE_NO);
}

// Sizes past the limits are not decided (COPOSITIVE_TOO_LARGE), never guessed.
static void cone_limits(void **state) {
  (void)state;
  double big[21 * 21];
  for (int i = 0; i < 21; i++)
    for (int j = 0; j < 21; j++) big[i * 21 + j] = i == j ? 1 : -0.01;
  assert_int_equal(copositive(21, big, NULL), COPOSITIVE_TOO_LARGE);  // order > 20 left
  double dom[10 * 10];  // diagonally dominant, every row with negatives: all subsets
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++) dom[i * 10 + j] = i == j ? 1 : -0.1;
  assert_int_equal(copositive(10, dom, NULL), COPOSITIVE_YES);
  dom[1] = dom[10] = -1.2;  // x = (1, 1, 0, ...): 2 - 2.4 < 0
  assert_int_equal(copositive(10, dom, NULL), COPOSITIVE_NO);
  mpq_t *q = qmat(65 * 65, NULL);
  assert_int_equal(copositive_copositive(65, q, NULL), COPOSITIVE_TOO_LARGE);
  qfree(q, 65 * 65);
  static const double id7[49] = {1}, rows[17 * 2] = {0};
  assert_int_equal(cone(7, id7, 0, NULL), COPOSITIVE_TOO_LARGE);   // dimension > 6
  assert_int_equal(cone(2, id7, 17, rows), COPOSITIVE_TOO_LARGE);  // rows > 16
  assert_int_equal(cone(0, id7, 0, NULL), COPOSITIVE_TOO_LARGE);
  // A cone in R^6 over a polytope with many vertices: 16 rows
  // t + a_i . x >= 0 with a_i on the moment curve (a cyclic polytope's
  // polar has C(16 - 3, 2) * 2 + ... > 64 vertices).
  double L[16 * 6], Q[36] = {0};
  for (int i = 0; i < 16; i++) {
    const double t = (double)i / 15.0 - 0.5;
    for (int k = 0; k < 5; k++) L[i * 6 + k] = pow(t, k + 1);
    L[i * 6 + 5] = 1;
  }
  for (int k = 0; k < 6; k++) Q[k * 7] = 1;
  int ngen = 0;
  mpq_t *qq = qmat(36, Q), *ll = qmat(96, L);
  assert_int_equal(copositive_cone_nonneg(6, qq, 16, ll, &ngen), COPOSITIVE_TOO_LARGE);
  assert_true(ngen > COPOSITIVE_MAX_GEN);
  qfree(qq, 36);
  qfree(ll, 96);
}

/* ---------- the Newton scene ---------- */

// The exact model is the floating-point one: every case's map and
// conditions from certify_rat.c equal certify_system.c's to 1e-12
// (relative to the row's size).
static void exact_maps_match(void **state) {
  (void)state;
  zeno_scene s = load("example4-newton.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_rat_case x;
  cert_rat_case_init(&x);
  for (int k = 0; k < sys.ncases; k++) {
    const cert_case *cs = &sys.cases[k];
    assert_true(cert_rat_case_exact(&sys, cs, &x));
    // Both contacts sticking: the maps agree on the case's plane only (each
    // fixes qdot+ by three of its four targets).
    const bool ss = cs->both && cs->letter[0] == ZENO_LETTER_S && cs->letter[1] == ZENO_LETTER_S;
    for (int r = 0; r < 3 && !ss; r++)
      for (int c = 0; c < 3; c++) {
        if (fabs(mpq_get_d(x.G[r][c]) - cs->post[r][c]) > 1e-12)
          fail_msg("case %d (%c%c) G[%d][%d]: %.17g exact, %.17g", k, "FSPN"[cs->letter[0]],
                   "FSPN"[cs->letter[1]], r, c, mpq_get_d(x.G[r][c]), cs -> post[r][c]);
      }
    assert_int_equal(x.ncond, cs->ncond);
    for (int q = 0; q < cs->ncond && ss; q++) {  // the same rows up to positive scale
      double a[3], cr = 0, na = 0, nb = 0;
      for (int r = 0; r < 3; r++) {
        a[r] = mpq_get_d(x.cond[q][r]);
        na += a[r] * a[r];
        nb += cs->cond[q][r] * cs->cond[q][r];
      }
      for (int r = 0; r < 3; r++) {
        const double c = a[(r + 1) % 3] * cs->cond[q][(r + 2) % 3] -
                         a[(r + 2) % 3] * cs->cond[q][(r + 1) % 3];
        cr += c * c;
      }
      assert_true(sqrt(cr) <= 1e-12 * sqrt(na * nb));  // +-r: the same plane r . v = 0
    }
    for (int q = 0; q < cs->ncond && !ss; q++) {
      double size = 0;
      for (int r = 0; r < 3; r++) size = fmax(size, fabs(cs->cond[q][r]));
      for (int r = 0; r < 3; r++)
        if (fabs(mpq_get_d(x.cond[q][r]) - cs->cond[q][r]) > 1e-12 * size)
          fail_msg("case %d (%c%c) cond %d [%d]: %.17g exact, %.17g", k, "FSPN"[cs->letter[0]],
                   "FSPN"[cs->letter[1]], q, r, mpq_get_d(x.cond[q][r]), cs -> cond[q][r]);
    }
  }
  cert_rat_case_clear(&x);
  // An impact at zero approach speed changes nothing, exactly: G e_r = e_r
  // for r != i in every slipping single case (the identity the exact check
  // needs; the floating-point maps hold it only to rounding).
  cert_rat_case_init(&x);
  int slipping = 0;
  for (int k = 0; k < sys.ncases; k++) {
    const cert_case *cs = &sys.cases[k];
    const unsigned char l = cs->letter[cs->contact];
    if (cs->both || l == ZENO_LETTER_S) continue;
    assert_true(cert_rat_case_exact(&sys, cs, &x));
    for (int c = 0; c < 3; c++)
      for (int r = 0; r < 3 && c != cs->contact; r++)
        assert_int_equal(mpq_cmp_si(x.G[r][c], r == c ? 1 : 0, 1), 0);
    slipping++;
  }
  assert_int_equal(slipping, 4);
  cert_rat_case_clear(&x);
}

// Example 4 with restitution 0.2: certified exactly, and the simulation
// supports it: 200 random perturbed runs never increase V1, nor V2 over a
// flight and its impact, beyond rounding, and every one comes to rest.
static void newton_scene_certified(void **state) {
  (void)state;
  zeno_scene s = load("example4-newton.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  assert_int_equal(sys.law, ZENO_LAW_NEWTON);
  assert_true(cert_exact_applies(&sys) && cert_flight_applies(&sys));
  cert_program_outcome o;
  certify_exactly(&sys, &DEGREE2, "example4-newton", &o);
  assert_int_equal(o.equalities, 6);  // the modes' 4 and two of the flights'
  assert_true(o.exact_shift < 1e-8);
  cert_check_result chk;
  check_runs(&s, &sys, &o, 200, false, &chk);
  assert_true(chk.max_increase < 1e-12);
  print_message(
      "Example 4, e = 0.2: certified, SDP order %d, %d constraints, projection "
      "%.2g; 200 runs, %d steps, largest relative increase %.3g\n",
      o.sdp_order, o.sdp_constraints, o.exact_shift, chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
  assert_int_equal(runs_at_rest(&s, 200, 0.1, true, 3u), 200);
}

// The exact check reads the certificate: the certified coefficients pass;
// flipped (W -> -W), or with an entry of P moved by 1e-3, they fail.
static void perturbed_certificate_fails(void **state) {
  (void)state;
  zeno_scene s = load("example4-newton.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_program_outcome o;
  certify(&sys, &DEGREE2, &o);
  assert_true(o.certified);
  double x[CERT_EXACT_NX];
  unknowns_of(&o, x);
  cert_exact_result r;
  assert_int_equal(cert_exact_verify(&sys, o.c, x, o.kappa, o.lambda, &r, NULL), ZENO_OK);
  assert_true(r.certified);
  assert_true(r.generators >= 3);
  double flipped[CERT_EXACT_NX];
  for (int k = 0; k < CERT_EXACT_NX; k++) flipped[k] = -x[k];
  assert_int_equal(cert_exact_verify(&sys, o.c, flipped, o.kappa, o.lambda, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  print_message("W flipped: %s\n", r.reason);
  for (int k = 3; k < CERT_EXACT_NX; k++) {  // each off-diagonal or diagonal of P
    double y[CERT_EXACT_NX];
    memcpy(y, x, sizeof y);
    y[k] += 1e-3 * (k == 6 ? -1 : 1) * fabs(x[k]);
    assert_int_equal(cert_exact_verify(&sys, o.c, y, o.kappa, o.lambda, &r, NULL), ZENO_OK);
    if (!r.certified) {
      print_message("P entry %d moved by 1e-3: %s\n", k, r.reason);
      cert_program_outcome_free(&o);
      return;
    }
  }
  cert_program_outcome_free(&o);
  fail_msg("no perturbation of P was refused");
}

// Soundness on an unstable restitution configuration: an Example 6 point
// that the Poincare analysis proves unstable under the inelastic law
// (region 4) keeps chattering with e = 0.2: its perturbed runs do not come
// to rest, and it is not certified.
static void unstable_newton_not_certified(void **state) {
  (void)state;
  const char *const set[] = {"com.x=-0.13559322033898313", "com.y=-0.16949152542372881",
                             "impact.law=newton", "impact.e=0.2", "stop.t_end=20"};
  zeno_scene s = load("example6.yaml", set, 5);
  const int rest = runs_at_rest(&s, 10, 0.1, false, 9u);
  print_message("Example 6 region-4 point, e = 0.2: %d of 10 runs at rest\n", rest);
  assert_true(rest < 5);
  cert_system sys;
  build(&s, &sys);  // not refused: the program is solved
  cert_program_outcome o;
  certify(&sys, &DEGREE2, &o);
  assert_false(o.certified);
  cert_program_outcome_free(&o);
}

// The flight check's own refusals: both free-flight gap accelerations
// >= 0 (a flight need not end), and a case whose exact system is singular.
static void flight_refusals(void **state) {
  (void)state;
  zeno_scene s = load("example4-newton.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  mpq_t x[CERT_EXACT_NX];
  for (int k = 0; k < CERT_EXACT_NX; k++) {
    mpq_init(x[k]);
    mpq_set_ui(x[k], k == 2 || k == 5 || k == 7 ? 1 : 0, 1);
  }
  char text[200];
  cert_system up = sys;  // the load reversed: free flight lifts both contacts
  for (int r = 0; r < 3; r++) up.b[r] = -sys.b[r];
  up.a_ff[0] = -sys.a_ff[0];
  up.a_ff[1] = -sys.a_ff[1];
  assert_false(cert_flight_applies(&up));
  assert_false(cert_flight_verify(&up, -1, x, text, sizeof text, NULL));
  assert_non_null(strstr(text, "free-flight gap accelerations are >= 0"));
  cert_system flat = sys;  // contact 1's normal direction lost: singular
  for (int r = 0; r < 3; r++) flat.km.Cp[r][0] = 0;
  assert_false(cert_flight_verify(&flat, -1, x, text, sizeof text, NULL));
  assert_non_null(strstr(text, "exact solve is singular"));
  cert_system inelastic = sys;
  inelastic.law = ZENO_LAW_INELASTIC;
  assert_false(cert_flight_applies(&inelastic));
  for (int k = 0; k < CERT_EXACT_NX; k++) mpq_clear(x[k]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(copositive_textbook),
      cmocka_unit_test(copositive_random),
      cmocka_unit_test(cone_known_answers),
      cmocka_unit_test(cone_limits),
      cmocka_unit_test(exact_maps_match),
      cmocka_unit_test(newton_scene_certified),
      cmocka_unit_test(perturbed_certificate_fails),
      cmocka_unit_test(unstable_newton_not_certified),
      cmocka_unit_test(flight_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
