// Pang & Trinkle's Theorem 4 for N contacts (contact_set_problem.h): for
// every signed vector sigma_t and nonempty index set gamma, the system
// (32)-(35) with M-hat(sigma_t) as an LP, and Proposition 5's witness load
// from the deepest consistent one. The planar problem: the friction pyramid
// is the cone, there is no o direction.
#include <math.h>
#include <string.h>

#include "analysis/contact_set_problem.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"

/// Theorem 4: a system is consistent when its depth (the largest t with
/// M_gamma (u - v) >= t under sum(u) + sum(v) = 1, at a point certified to
/// satisfy every constraint to rounding) exceeds this fraction of the
/// largest |M_hat| entry. Inconsistent systems give depths at rounding,
/// except near a jamming threshold, where M_nn = D_nn - s mu D_nt cancels
/// and its rounding gives depths up to ~3e-11 of max |M_hat| (one-contact
/// rod, mu 1e-6 below mu_J). Genuine depths grow like 2 (mu - mu_J) / mu_J
/// past the rod's threshold and 0.37 (mu - mu*) past the disk's, so 1e-9
/// resolves both to ~1e-8.
#define CS_CONSISTENT_RTOL 1e-9

/// Largest M-hat of Theorem 4: 2N rows for N <= ZENO_CONTACT_SET_THEOREM4_MAX.
#define T4_MAX (2 * ZENO_CONTACT_SET_THEOREM4_MAX)

static int sign_of(unsigned mask, int i) { return (mask >> i) & 1u ? -1 : 1; }

// Column a of J in Pang-Trinkle's order (n_1 .. n_n, t_1 .. t_n).
static const double *pt_column(const contact_set_problem *p, int a) {
  return a < p->n ? p->normal[a] : p->tangent[a - p->n];
}

// M_hat(sigma_t) of the planar problem: the leading 2n x 2n block of
// M(sigma_t, sigma_o) with no o direction, rows and columns (c_n, s_t).
static void mhat(const contact_set_problem *p, unsigned sign_mask, double M[T4_MAX][T4_MAX]) {
  const int nc = p->n;
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < nc; j++) {
      const double si = sign_of(sign_mask, i), sj = sign_of(sign_mask, j);
      const double ann = contact_set_mass_dot(p, pt_column(p, i), pt_column(p, j));
      const double ant = contact_set_mass_dot(p, pt_column(p, i), pt_column(p, nc + j));
      const double atn = contact_set_mass_dot(p, pt_column(p, nc + i), pt_column(p, j));
      const double att = contact_set_mass_dot(p, pt_column(p, nc + i), pt_column(p, nc + j));
      M[i][j] = ann - ant * sj * p->mu[j];
      M[i][nc + j] = ant * sj;
      M[nc + i][j] = si * atn - si * att * sj * p->mu[j];
      M[nc + i][nc + j] = si * att * sj;
    }
}

// (35) for one of u, v: 2 mu_j x_n,j - x_t,j >= 0, columns from `col0`.
static void friction_rows(lp_problem *lp, int row0, int col0, const contact_set_problem *p) {
  for (int j = 0; j < p->n; j++) {
    lp->a[(row0 + j) * lp->stride + col0 + j] = 2 * p->mu[j];
    lp->a[(row0 + j) * lp->stride + col0 + p->n + j] = -1;
    lp->row_kind[row0 + j] = LP_LOWER;
  }
}

// The LP of system (32)-(35) for index set gamma: columns (u, v, t),
// maximise t subject to M_gamma (u - v) >= t, M_rest (u - v) = 0, u_gamma = 0,
// u, v >= 0, (35), sum(u) + sum(v) = 1 (the system is homogeneous).
static void system_lp(double M[T4_MAX][T4_MAX], const contact_set_problem *p, unsigned gamma,
                      lp_problem *lp) {
  const int m = 2 * p->n, col_t = 2 * m, s = lp->stride;
  memset(lp->a, 0, sizeof(double) * (size_t)(lp->rows * s));
  for (int a = 0; a < m; a++) {
    const bool in_gamma = (gamma >> a) & 1u;
    for (int b = 0; b < m; b++) {
      lp->a[a * s + b] = M[a][b];
      lp->a[a * s + m + b] = -M[a][b];
    }
    if (in_gamma) lp->a[a * s + col_t] = -1;
    lp->row_kind[a] = in_gamma ? LP_LOWER : LP_FIXED;
    lp->col_kind[a] = in_gamma ? LP_FIXED : LP_LOWER;  // u
    lp->col_kind[m + a] = LP_LOWER;                    // v
  }
  friction_rows(lp, m, 0, p);
  friction_rows(lp, m + p->n, m, p);
  const int norm = 2 * m;
  for (int b = 0; b < 2 * m; b++) lp->a[norm * s + b] = 1;
  lp->row_kind[norm] = LP_FIXED;
  lp->row_lo[norm] = lp->row_hi[norm] = 1;
  lp->col_kind[col_t] = LP_UPPER;
  lp->col_hi[col_t] = 1;
  lp->obj[col_t] = 1;
}

// Proposition 5: c_n = v_n, c_t = Sigma_t (v_t - mu v_n), g = -J c, scaled
// to unit size |f| + |tau| / rho (the stability of a load is homogeneous).
static void witness_load(const contact_set_problem *p, unsigned sign_mask, const double v[],
                         double g[3]) {
  double w[3] = {0, 0, 0};
  for (int j = 0; j < p->n; j++) {
    const double cn = v[j];
    const double ct = sign_of(sign_mask, j) * (v[p->n + j] - p->mu[j] * cn);
    for (int k = 0; k < 3; k++) w[k] -= p->normal[j][k] * cn + p->tangent[j][k] * ct;
  }
  const double rho = sqrt(p->inv_mass[0] / p->inv_mass[2]);
  const double size = hypot(w[0], w[1]) + fabs(w[2]) / rho;
  for (int k = 0; k < 3; k++) g[k] = size > 0 ? w[k] / size : 0;
}

static double max_abs(double M[T4_MAX][T4_MAX], int m) {
  double s = 0;
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) s = fmax(s, fabs(M[a][b]));
  return s;
}

zeno_status contact_set_theorem4_check(const contact_set_problem *p, contact_set_theorem4 *r,
                                       zeno_error *e) {
  memset(r, 0, sizeof *r);
  if (p->n < 1 || p->n > ZENO_CONTACT_SET_THEOREM4_MAX)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contact_count",
                     "Theorem 4 is checked for 1 to %d contacts; the problem has %d",
                     ZENO_CONTACT_SET_THEOREM4_MAX, p->n);
  const int m = 2 * p->n;
  lp_problem lp;
  zeno_status st = lp_problem_create(&lp, 2 * m + 1, 2 * m + 1, e);
  if (st != ZENO_OK) return st;
  double best = -INFINITY;
  for (unsigned sign = 0; sign < (1u << p->n) && st == ZENO_OK; sign++) {
    double M[T4_MAX][T4_MAX];
    mhat(p, sign, M);
    const double tol = CS_CONSISTENT_RTOL * max_abs(M, m);
    for (unsigned gamma = 1; gamma < (1u << m); gamma++) {
      system_lp(M, p, gamma, &lp);
      double x[2 * T4_MAX + 1];
      lp_outcome out;
      if ((st = lp_problem_solve(&lp, &out, x, e)) != ZENO_OK) break;
      r->systems++;
      // Only a point satisfying every constraint to rounding certifies a
      // consistent system (GLPK's tolerance would admit near misses).
      const bool certified = out.status == LP_OPTIMAL && out.violation <= LP_CERTIFIED_RTOL;
      const double depth = certified ? x[2 * m] : -INFINITY;
      if (!(depth > tol)) continue;
      r->consistent++;
      r->consistent_by_sign[sign]++;
      if (depth / tol > best) {
        best = depth / tol;
        r->witness_sign = (int)sign;
        r->witness_gamma = gamma;
        witness_load(p, sign, x + m, r->witness_load);
      }
    }
  }
  lp_problem_destroy(&lp);
  return st;
}
