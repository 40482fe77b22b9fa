// Pang & Trinkle, weak and strong stability of a frictional equilibrium in
// the plane (seeds/pang-trinkle-stability.txt): weak stability as the LP of
// system (7), strong stability through the inequality systems (32)-(35) of
// Theorem 4, each an LP feasibility problem, and the witness load of
// Proposition 5.
#include <math.h>
#include <string.h>

#include "analysis/analysis_units.h"
#include "analysis/contact_problem_internal.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"
#include "zeno/equilibrium.h"
#include "zeno/pang_trinkle.h"

/// Weak stability uses the closed cones: a margin down to -1e-10 of the load
/// counts as zero (rounding of forces of the load's size is ~1e-16 of it;
/// the margin LP's vertex is exact to a few ulps of its lever ratios).
#define PT_WEAK_RTOL 1e-10
/// Cap of the weak-stability margin relative to the load (as in
/// equilibrium.c): only a wedged body, with an unbounded margin, reaches it.
#define PT_MARGIN_CAP_FACTOR 1e6
/// A system (32)-(35) is consistent when its depth (the largest t with
/// M_gamma (u - v) >= t under sum(u) + sum(v) = 1, at a point certified to
/// satisfy every constraint to rounding) exceeds this fraction of the
/// largest |M_hat| entry. Inconsistent systems give depths at rounding,
/// except near a jamming threshold, where M_nn = D_nn - s mu D_nt cancels
/// and its rounding gives depths up to ~3e-11 of max |M_hat| (one-contact
/// rod, mu 1e-6 below mu_J). Genuine depths grow like 2 (mu - mu_J) / mu_J
/// past the rod's threshold and 0.37 (mu - mu*) past the disk's, so 1e-9
/// resolves both to ~1e-8.
#define PT_CONSISTENT_RTOL 1e-9

static int sign_of(unsigned mask, int i) { return (mask >> i) & 1u ? -1 : 1; }

// (Matrix parameters are read only; they are not const because C17 will not
// convert double (*)[4] to const double (*)[4].)

// M_hat(sigma_t) of the planar problem: the leading 2nc x 2nc block of
// M(sigma_t, sigma_o) with no o direction, rows and columns (c_n, s_t).
static void mhat(double A[4][4], int nc, const double mu[2], unsigned sign_mask, double M[4][4]) {
  memset(M, 0, sizeof(double) * 16);
  for (int i = 0; i < nc; i++)
    for (int j = 0; j < nc; j++) {
      const double si = sign_of(sign_mask, i), sj = sign_of(sign_mask, j);
      const double ann = A[i][j], ant = A[i][nc + j];
      const double atn = A[nc + i][j], att = A[nc + i][nc + j];
      M[i][j] = ann - ant * sj * mu[j];
      M[i][nc + j] = ant * sj;
      M[nc + i][j] = si * atn - si * att * sj * mu[j];
      M[nc + i][nc + j] = si * att * sj;
    }
}

static double max_abs(double M[4][4], int m) {
  double s = 0;
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) s = fmax(s, fabs(M[a][b]));
  return s;
}

// (35) for one of u, v: 2 mu_j x_n,j - x_t,j >= 0, columns from `col0`.
static void friction_rows(lp_dense *lp, int row0, int col0, int nc, const double mu[2]) {
  for (int j = 0; j < nc; j++) {
    lp->a[row0 + j][col0 + j] = 2 * mu[j];
    lp->a[row0 + j][col0 + nc + j] = -1;
    lp->row_kind[row0 + j] = LP_LOWER;
  }
}

// The LP of system (32)-(35) for index set gamma: columns (u, v, t),
// maximise t subject to M_gamma (u - v) >= t, M_rest (u - v) = 0, u_gamma = 0,
// u, v >= 0, (35), sum(u) + sum(v) = 1 (the system is homogeneous).
static void system_lp(double M[4][4], int nc, const double mu[2], unsigned gamma, lp_dense *lp) {
  const int m = 2 * nc, col_t = 2 * m;
  lp_dense_init(lp, 2 * m + 1, 2 * m + 1);
  for (int a = 0; a < m; a++) {
    const bool in_gamma = (gamma >> a) & 1u;
    for (int b = 0; b < m; b++) {
      lp->a[a][b] = M[a][b];
      lp->a[a][m + b] = -M[a][b];
    }
    if (in_gamma) lp->a[a][col_t] = -1;
    lp->row_kind[a] = in_gamma ? LP_LOWER : LP_FIXED;
    lp->col_kind[a] = in_gamma ? LP_FIXED : LP_LOWER;  // u
    lp->col_kind[m + a] = LP_LOWER;                    // v
  }
  friction_rows(lp, m, 0, nc, mu);
  friction_rows(lp, m + nc, m, nc, mu);
  const int norm = 2 * m;
  for (int b = 0; b < 2 * m; b++) lp->a[norm][b] = 1;
  lp->row_kind[norm] = LP_FIXED;
  lp->row_lo[norm] = lp->row_hi[norm] = 1;
  lp->col_kind[col_t] = LP_UPPER;
  lp->col_hi[col_t] = 1;
  lp->obj[col_t] = 1;
}

// Depth of one system (-INFINITY when even t -> -inf admits no point) and
// its solution v.
static zeno_status system_depth(double M[4][4], int nc, const double mu[2], unsigned gamma,
                                double *depth, double v[4], zeno_error *e) {
  lp_dense lp;
  system_lp(M, nc, mu, gamma, &lp);
  lp_solution sol;
  const zeno_status st = lp_dense_solve(&lp, &sol, e);
  if (st != ZENO_OK) return st;
  // Only a point satisfying every constraint to rounding certifies a
  // consistent system (GLPK's tolerance would admit near misses).
  const bool certified = sol.status == LP_OPTIMAL && sol.violation <= LP_CERTIFIED_RTOL;
  *depth = certified ? sol.x[4 * nc] : -INFINITY;
  for (int a = 0; a < 2 * nc; a++) v[a] = sol.x[2 * nc + a];
  return ZENO_OK;
}

// Proposition 5: c_n = v_n, c_t = Sigma_t (v_t - mu v_n), g = -J c, scaled
// to unit size |f| + |tau| / rho (the stability of a load is homogeneous).
static void witness_load(const zeno_contact_problem *p, unsigned sign_mask, const double v[4],
                         double g[3]) {
  const int nc = p->contact_count;
  zeno_contact_problem w = *p;
  for (int k = 0; k < 3; k++) w.load[k] = 0;
  for (int j = 0; j < nc; j++) {
    const double cn = v[j];
    const double ct = sign_of(sign_mask, j) * (v[nc + j] - p->mu[j] * cn);
    for (int k = 0; k < 3; k++) w.load[k] -= p->normal[j][k] * cn + p->tangent[j][k] * ct;
  }
  const double size = contact_problem_force_scale(&w);
  const bool zero = w.load[0] == 0 && w.load[1] == 0 && w.load[2] == 0;
  for (int k = 0; k < 3; k++) g[k] = zero ? 0 : w.load[k] / size;
}

zeno_status zeno_strong_stability_check(const zeno_contact_problem *p, zeno_strong_stability *r,
                                        zeno_error *e) {
  if (r == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "result is NULL");
  zeno_status st = contact_problem_check(p, 1, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  const int nc = p->contact_count, m = 2 * nc;
  double A[4][4];
  contact_problem_delassus(p, A);
  double best = -INFINITY;
  for (unsigned sign = 0; sign < (1u << nc); sign++) {
    double M[4][4];
    mhat(A, nc, p->mu, sign, M);
    const double tol = PT_CONSISTENT_RTOL * max_abs(M, m);
    for (unsigned gamma = 1; gamma < (1u << m); gamma++) {
      double depth, v[4];
      st = system_depth(M, nc, p->mu, gamma, &depth, v, e);
      if (st != ZENO_OK) return st;
      r->systems++;
      if (!(depth > tol)) continue;
      r->consistent++;
      r->consistent_by_sign[sign]++;
      if (depth / tol > best) {
        best = depth / tol;
        r->witness_sign = (int)sign;
        r->witness_gamma = gamma;
        witness_load(p, sign, v, r->witness_load);
      }
    }
  }
  r->weak_implies_strong = r->consistent == 0;
  return ZENO_OK;
}

zeno_status zeno_weak_stability_check(const zeno_contact_problem *p, zeno_weak_stability *r,
                                      zeno_error *e) {
  if (r == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "result is NULL");
  zeno_status st = contact_problem_check(p, 1, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  const double scale = contact_problem_force_scale(p);
  lp_margin_lp lp = {.n = p->contact_count,
                     .mu = {p->mu[0], p->mu[1]},
                     .cap = PT_MARGIN_CAP_FACTOR * scale,
                     .scale = scale};
  contact_problem_jacobian(p, lp.W);
  for (int k = 0; k < 3; k++) lp.rhs[k] = -p->load[k];
  lp_margin_result res;
  st = lp_margin_lp_solve(&lp, &res, e);
  if (st != ZENO_OK) return st;
  r->margin = res.margin;
  r->unbounded = res.capped;
  r->weakly_stable = res.feasible && res.margin >= -PT_WEAK_RTOL * scale;
  lp_margin_forces(&res, p->contact_count, r->forces);
  return ZENO_OK;
}

zeno_status zeno_scene_stability_check(const zeno_scene *scene, zeno_scene_stability *r,
                                       zeno_error *e) {
  if (scene == NULL || r == NULL)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "scene and result are required");
  // Validated as given (errors quote the user's values), then computed in
  // the scene's own units (scene_units.h) and converted back at the end.
  zeno_status st = zeno_scene_validate(scene, e);
  if (st != ZENO_OK) return st;
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  scene = &own;
  zeno_contact_problem p;
  st = zeno_contact_problem_from_scene(scene, &p, e);
  if (st != ZENO_OK) return st;
  if (p.contact_count != 2)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts",
                     "stability of an equilibrium needs two contacts; the "
                     "scene has %d",
                     p.contact_count);
  memset(r, 0, sizeof *r);
  if ((st = zeno_weak_stability_check(&p, &r->weak, e)) != ZENO_OK) return st;
  if ((st = zeno_strong_stability_check(&p, &r->theorem4, e)) != ZENO_OK) return st;
  zeno_equilibrium_report eq;
  if ((st = zeno_equilibrium_check(scene, &eq, e)) != ZENO_OK) return st;
  r->strong_by_theorem4 = r->weak.weakly_stable && r->theorem4.weak_implies_strong;
  r->unstable_mode_count = eq.ambiguous_count;
  memcpy(r->unstable_modes, eq.ambiguous_modes, sizeof r->unstable_modes);
  r->strongly_stable = r->weak.weakly_stable && r->unstable_mode_count == 0;
  analysis_scene_stability_to_user(u, r);
  return ZENO_OK;
}
