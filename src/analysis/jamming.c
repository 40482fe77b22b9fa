// Dupont & Yamajako, jamming and wedging (seeds/dupont-jamming-wedging.txt):
// the jamming coefficient of one slipping contact (Theorem 1, eq. (43) for a
// rod) and the wedging test of two contacts (Theorem 2) as a GLPK LP.
#include <math.h>
#include <string.h>

#include "analysis/contact_problem_internal.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"
#include "zeno/jamming.h"

/// A self-equilibrated pair normalised to c_n1 + c_n2 = 1 counts as inside
/// the closed cones down to this slack: the LP vertex carries rounding of a
/// few ulps of the lever ratios (1e-15), so 1e-10 keeps the closed test
/// while excluding pairs genuinely outside.
#define JAM_WEDGE_TOL 1e-10

zeno_status zeno_jamming_coefficient(const zeno_contact_problem *p, int contact, zeno_letter slip,
                                     double *mu_jam, zeno_error *e) {
  if (mu_jam == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "mu_jam is NULL");
  const zeno_status st = contact_problem_check(p, 1, e);
  if (st != ZENO_OK) return st;
  if (contact < 0 || contact >= p->contact_count)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contact", "contact %d; allowed 0 to %d", contact,
                     p->contact_count - 1);
  if (slip != ZENO_LETTER_P && slip != ZENO_LETTER_N)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "slip",
                     "slip direction must be P or N (letter %d given)", (int)slip);
  const double *n = p->normal[contact], *t = p->tangent[contact];
  double dnn = 0, dnt = 0;
  for (int k = 0; k < 3; k++) {
    dnn += n[k] * p->inv_mass[k] * n[k];
    dnt += n[k] * p->inv_mass[k] * t[k];
  }
  // Friction c_t = -s mu c_n opposes the slip: (D_nn - s mu D_nt) c_n = -a_n.
  const double s_dnt = (slip == ZENO_LETTER_P ? 1.0 : -1.0) * dnt;
  *mu_jam = s_dnt > 0 ? dnn / s_dnt : INFINITY;
  return ZENO_OK;
}

// Point of application of contact i's forces: p x n = tau_n, p x t = tau_t.
static void contact_point(const zeno_contact_problem *p, int i, double r[2]) {
  const double *n = p->normal[i], *t = p->tangent[i];
  // p_x a_y - p_y a_x = tau_a for a = n, t: a 2x2 system (contact_problem_check makes
  // n and t independent, so det != 0).
  const double det = -n[1] * t[0] + n[0] * t[1];
  r[0] = (n[0] * t[2] - t[0] * n[2]) / det;
  r[1] = (n[1] * t[2] - t[1] * n[2]) / det;
}

// Components of force f in contact i's (normal, tangent) coordinates.
static void contact_components(const zeno_contact_problem *p, int i, const double f[2], double *a_n,
                               double *a_t) {
  const double *n = p->normal[i], *t = p->tangent[i];
  const double det = n[0] * t[1] - n[1] * t[0];
  *a_n = (f[0] * t[1] - f[1] * t[0]) / det;
  *a_t = (n[0] * f[1] - n[1] * f[0]) / det;
}

// mu_W per contact: a self-equilibrated pair is f_1 = c d = -f_2 along the
// line d through both contacts; the orientation c must give both normal
// components > 0, and then mu_W,i = |tangential| / normal.
static void wedging_friction(const zeno_contact_problem *p, double mu_w[2]) {
  double r1[2], r2[2];
  contact_point(p, 0, r1);
  contact_point(p, 1, r2);
  const double d[2] = {r2[0] - r1[0], r2[1] - r1[1]};
  mu_w[0] = mu_w[1] = INFINITY;
  double n1, t1, n2, t2;
  contact_components(p, 0, d, &n1, &t1);
  const double c = n1 >= 0 ? 1.0 : -1.0;
  const double f1[2] = {c * d[0], c * d[1]}, f2[2] = {-f1[0], -f1[1]};
  contact_components(p, 0, f1, &n1, &t1);
  contact_components(p, 1, f2, &n2, &t2);
  if (!(n1 > 0 && n2 > 0)) return;
  mu_w[0] = fabs(t1) / n1;
  mu_w[1] = fabs(t2) / n2;
}

zeno_status zeno_wedging_check(const zeno_contact_problem *p, zeno_wedging *r, zeno_error *e) {
  if (r == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "result is NULL");
  zeno_status st = contact_problem_check(p, 2, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  // Self-equilibrated: W f = 0 with c_n1 + c_n2 = 1; cap 1 never binds
  // (s <= c_n,i <= 1).
  lp_margin_lp lp = {
      .n = 2, .mu = {p->mu[0], p->mu[1]}, .cap = 1, .scale = 1, .unit_normal_sum = true};
  contact_problem_jacobian(p, lp.W);
  lp_margin_result res;
  st = lp_margin_lp_solve(&lp, &res, e);
  if (st != ZENO_OK) return st;
  r->margin = res.margin;
  r->wedged = res.feasible && res.margin >= -JAM_WEDGE_TOL;
  lp_margin_forces(&res, 2, r->forces);
  wedging_friction(p, r->wedging_mu);
  return ZENO_OK;
}
