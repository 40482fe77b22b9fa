// The max-margin static feasibility LP of the nominal equilibrium, for up
// to 16 contacts, on the LP helpers of dynamics/lp.h (GLPK).
#include "analysis/equilibrium_lp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/friction_cone.h"

// Row `row` of the margin LP: s - (a_n n_i + a_t t_i) <= 0.
static void slack_row(lp_problem *lp, int row, int col_n, int col_s, double a_n, double a_t) {
  double *a = lp->a + row * lp->stride;
  a[col_n] = -a_n;
  a[col_n + 1] = -a_t;
  a[col_s] = 1;
  lp->row_kind[row] = LP_UPPER;
  lp->row_hi[row] = 0;
}

// Fills a problem of 3 + 3n (+1) rows and 2n + 1 columns (zeros).
static void margin_lp_build(const lp_margin_general *p, lp_problem *lp) {
  const int m = 2 * p->n, col_s = m;
  for (int r = 0; r < 3; r++) {
    for (int j = 0; j < m; j++) lp->a[r * lp->stride + j] = p->W[r * m + j];
    lp->row_kind[r] = LP_FIXED;
    lp->row_lo[r] = lp->row_hi[r] = p->rhs[r] / p->scale;
  }
  for (int i = 0; i < p->n; i++) {
    const double mu = p->mu[i], k = friction_cone_norm(mu);
    const int row = 3 + 3 * i, col_n = 2 * i;
    slack_row(lp, row, col_n, col_s, 1, 0);
    slack_row(lp, row + 1, col_n, col_s, mu / k, -1 / k);
    slack_row(lp, row + 2, col_n, col_s, mu / k, 1 / k);
  }
  if (p->unit_normal_sum) {
    const int row = 3 + 3 * p->n;
    for (int i = 0; i < p->n; i++) lp->a[row * lp->stride + 2 * i] = 1;
    lp->row_kind[row] = LP_FIXED;
    lp->row_lo[row] = lp->row_hi[row] = 1;
  }
  lp->col_kind[col_s] = LP_UPPER;
  lp->col_hi[col_s] = p->cap / p->scale;
  lp->obj[col_s] = 1;
}

zeno_status lp_margin_general_solve(const lp_margin_general *p, lp_margin_outcome *r,
                                    zeno_error *e) {
  r->feasible = r->capped = false;
  r->margin = -INFINITY;
  if (p->n < 1 || p->n > LP_MARGIN_MAX_CONTACTS || !(p->scale > 0) || !isfinite(p->scale) ||
      !(p->cap > 0))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "",
                     "margin LP needs 1 to %d contacts, a positive scale and cap",
                     LP_MARGIN_MAX_CONTACTS);
  const int m = 2 * p->n;
  lp_problem lp;
  zeno_status st = lp_problem_create(&lp, 3 + 3 * p->n + (p->unit_normal_sum ? 1 : 0), m + 1, e);
  if (st != ZENO_OK) return st;
  margin_lp_build(p, &lp);
  double x[2 * LP_MARGIN_MAX_CONTACTS + 1];
  lp_outcome out;
  st = lp_problem_solve(&lp, &out, x, e);
  const double cap = lp.col_hi[m];
  lp_problem_destroy(&lp);
  if (st != ZENO_OK) return st;
  // s <= cap: never unbounded. A point GLPK accepts only within its own
  // tolerance (a load 1e-10 off a single contact's line) is no balance.
  if (out.status != LP_OPTIMAL || out.violation > LP_CERTIFIED_RTOL) return ZENO_OK;
  r->feasible = true;
  r->margin = x[m] * p->scale;
  r->capped = x[m] >= cap * (1 - LP_CAP_RTOL);
  for (int j = 0; j < m; j++) r->force[j] = x[j] * p->scale;
  return ZENO_OK;
}

zeno_status lp_margin_lp_solve(const lp_margin_lp *p, lp_margin_result *r, zeno_error *e) {
  memset(r, 0, sizeof *r);
  r->margin = -INFINITY;
  if (p->n < 1 || p->n > 2)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "",
                     "margin LP needs 1 or 2 contacts, a positive scale and cap");
  double W[3 * 4];
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 2 * p->n; j++) W[k * 2 * p->n + j] = p->W[k][j];
  const lp_margin_general g = {
      p->n, W, p->mu, {p->rhs[0], p->rhs[1], p->rhs[2]}, p->cap, p->scale, p->unit_normal_sum};
  lp_margin_outcome out;
  const zeno_status st = lp_margin_general_solve(&g, &out, e);
  if (st != ZENO_OK) return st;
  r->feasible = out.feasible;
  r->margin = out.margin;
  r->capped = out.capped;
  for (int j = 0; j < 2 * p->n; j++) r->force[j] = out.force[j];
  return ZENO_OK;
}

void lp_margin_forces(const lp_margin_result *r, int n, double forces[][2]) {
  for (int i = 0; i < n; i++) {
    forces[i][0] = r->force[2 * i];
    forces[i][1] = r->force[2 * i + 1];
  }
}
