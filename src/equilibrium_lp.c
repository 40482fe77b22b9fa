// Linear programs on GLPK: a dense helper (one problem object per call,
// freed before returning, terminal output off) and the max-margin static
// feasibility LP of the nominal equilibrium.
#include "equilibrium_lp.h"

#include <glpk.h>
#include <math.h>
#include <string.h>

#include "util.h"

/// The margin counts as capped within this fraction of the cap: the simplex
/// lands on the cap's vertex exactly up to rounding (1e-16 relative), so
/// 1e-9 separates it from any genuine bounded optimum below the cap.
#define ZE_CAP_RTOL 1e-9

void ze_dense_lp_init(ze_dense_lp *lp, int rows, int cols) {
  memset(lp, 0, sizeof *lp);
  lp->rows = rows;
  lp->cols = cols;
}

static bool lp_is_finite(const ze_dense_lp *lp) {
  for (int r = 0; r < lp->rows; r++) {
    if (!isfinite(lp->row_lo[r]) || !isfinite(lp->row_hi[r])) return false;
    for (int c = 0; c < lp->cols; c++)
      if (!isfinite(lp->a[r][c])) return false;
  }
  for (int c = 0; c < lp->cols; c++)
    if (!isfinite(lp->col_lo[c]) || !isfinite(lp->col_hi[c]) ||
        !isfinite(lp->obj[c]))
      return false;
  return true;
}

static int glpk_kind(ze_bound kind) {
  switch (kind) {
    case ZE_LOWER: return GLP_LO;
    case ZE_UPPER: return GLP_UP;
    case ZE_FIXED: return GLP_FX;
    default: return GLP_FR;
  }
}

// Builds the GLPK problem (rows, columns, bounds, objective, nonzeros).
static glp_prob *lp_build(const ze_dense_lp *lp) {
  glp_prob *P = glp_create_prob();
  glp_set_obj_dir(P, GLP_MAX);
  glp_add_rows(P, lp->rows);
  glp_add_cols(P, lp->cols);
  for (int r = 0; r < lp->rows; r++)
    glp_set_row_bnds(P, r + 1, glpk_kind(lp->row_kind[r]), lp->row_lo[r],
                     lp->row_hi[r]);
  for (int c = 0; c < lp->cols; c++) {
    glp_set_col_bnds(P, c + 1, glpk_kind(lp->col_kind[c]), lp->col_lo[c],
                     lp->col_hi[c]);
    glp_set_obj_coef(P, c + 1, lp->obj[c]);
  }
  int ia[1 + ZE_LP_MAX_ROWS * ZE_LP_MAX_COLS], ja[1 + ZE_LP_MAX_ROWS * ZE_LP_MAX_COLS];
  double ar[1 + ZE_LP_MAX_ROWS * ZE_LP_MAX_COLS];
  int nz = 0;
  for (int r = 0; r < lp->rows; r++)
    for (int c = 0; c < lp->cols; c++) {
      if (lp->a[r][c] == 0) continue;
      nz++;
      ia[nz] = r + 1;
      ja[nz] = c + 1;
      ar[nz] = lp->a[r][c];
    }
  glp_load_matrix(P, nz, ia, ja, ar);
  return P;
}

zeno_status ze_dense_lp_solve(const ze_dense_lp *lp, ze_lp_solution *sol,
                              zeno_error *e) {
  memset(sol, 0, sizeof *sol);
  if (lp->rows < 1 || lp->rows > ZE_LP_MAX_ROWS || lp->cols < 1 ||
      lp->cols > ZE_LP_MAX_COLS)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "LP of %d x %d is outside 1..%d x 1..%d",
                     lp->rows, lp->cols, ZE_LP_MAX_ROWS, ZE_LP_MAX_COLS);
  if (!lp_is_finite(lp))
    return zeno_fail(e, ZENO_ERR_RANGE, "",
                     "a linear-program coefficient is NaN or infinite");
  const int old_term = glp_term_out(GLP_OFF);
  glp_prob *P = lp_build(lp);
  glp_scale_prob(P, GLP_SF_AUTO);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  const int ret = glp_simplex(P, &parm);
  const int status = glp_get_status(P);
  if (ret == 0 && status == GLP_OPT) {
    sol->status = ZE_LP_OPTIMAL;
    sol->objective = glp_get_obj_val(P);
    for (int c = 0; c < lp->cols; c++) sol->x[c] = glp_get_col_prim(P, c + 1);
  } else if (ret == 0 && (status == GLP_NOFEAS || status == GLP_INFEAS)) {
    sol->status = ZE_LP_INFEASIBLE;
  } else if (ret == 0 && status == GLP_UNBND) {
    sol->status = ZE_LP_UNBOUNDED;
  }
  glp_delete_prob(P);
  glp_term_out(old_term);
  if (ret != 0 || !(status == GLP_OPT || status == GLP_NOFEAS ||
                    status == GLP_INFEAS || status == GLP_UNBND))
    return zeno_fail(e, ZENO_ERR_SINGULAR, "",
                     "the GLPK simplex failed (return code %d, status %d)",
                     ret, status);
  return ZENO_OK;
}

// Row `row` of the margin LP: s - (a_n n_i + a_t t_i) <= 0.
static void slack_row(ze_dense_lp *lp, int row, int col_n, int col_s,
                      double a_n, double a_t) {
  lp->a[row][col_n] = -a_n;
  lp->a[row][col_n + 1] = -a_t;
  lp->a[row][col_s] = 1;
  lp->row_kind[row] = ZE_UPPER;
  lp->row_hi[row] = 0;
}

static void margin_lp_build(const ze_margin_lp *p, ze_dense_lp *lp) {
  const int m = 2 * p->n, col_s = m;
  ze_dense_lp_init(lp, 3 + 3 * p->n + (p->unit_normal_sum ? 1 : 0), m + 1);
  for (int r = 0; r < 3; r++) {
    for (int j = 0; j < m; j++) lp->a[r][j] = p->W[r][j];
    lp->row_kind[r] = ZE_FIXED;
    lp->row_lo[r] = lp->row_hi[r] = p->rhs[r] / p->scale;
  }
  for (int i = 0; i < p->n; i++) {
    const double mu = p->mu[i], k = sqrt(1 + mu * mu);
    const int row = 3 + 3 * i, col_n = 2 * i;
    slack_row(lp, row, col_n, col_s, 1, 0);
    slack_row(lp, row + 1, col_n, col_s, mu / k, -1 / k);
    slack_row(lp, row + 2, col_n, col_s, mu / k, 1 / k);
  }
  if (p->unit_normal_sum) {
    const int row = 3 + 3 * p->n;
    for (int i = 0; i < p->n; i++) lp->a[row][2 * i] = 1;
    lp->row_kind[row] = ZE_FIXED;
    lp->row_lo[row] = lp->row_hi[row] = 1;
  }
  lp->col_kind[col_s] = ZE_UPPER;
  lp->col_hi[col_s] = p->cap / p->scale;
  lp->obj[col_s] = 1;
}

zeno_status ze_margin_lp_solve(const ze_margin_lp *p, ze_margin_result *r,
                               zeno_error *e) {
  memset(r, 0, sizeof *r);
  r->margin = -INFINITY;
  if (p->n < 1 || p->n > 2 || !(p->scale > 0) || !isfinite(p->scale) ||
      !(p->cap > 0))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "",
                     "margin LP needs 1 or 2 contacts, a positive scale and cap");
  ze_dense_lp lp;
  margin_lp_build(p, &lp);
  ze_lp_solution sol;
  const zeno_status st = ze_dense_lp_solve(&lp, &sol, e);
  if (st != ZENO_OK) return st;
  if (sol.status != ZE_LP_OPTIMAL) return ZENO_OK;  // s <= cap: never unbounded
  r->feasible = true;
  r->margin = sol.x[2 * p->n] * p->scale;
  r->capped = sol.x[2 * p->n] >= lp.col_hi[2 * p->n] * (1 - ZE_CAP_RTOL);
  for (int j = 0; j < 2 * p->n; j++) r->force[j] = sol.x[j] * p->scale;
  return ZENO_OK;
}
