// Linear programs on GLPK: a dense helper and a heap one of any size (one
// problem object per call, freed before returning, terminal output off).
// GLPK is called through the table of glpk_load.h, loaded at the first LP.
#include "dynamics/lp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/glpk_load.h"

/// Coefficients below this fraction of their row's largest are rounding
/// residues of exact zeros (e.g. the torque p x n of a normal through the
/// centre of mass, ~1e-16 of |p|, or M_nn exactly at a jamming threshold):
/// GLPK's scaling would blow them up and its simplex can then fail, so they
/// are dropped. They sit at the rounding level (1e-16) of the sums that
/// form them, well below this.
#define LP_ROUNDING_RTOL 1e-13

/// Vertex refinement: a pivot below this fraction of the largest entry of
/// the active-constraint system means GLPK's basis is (near) singular; keep
/// GLPK's point then (a guard against a degenerate basis, far below the
/// pivots of the well-posed systems here, whose entries are O(1)).
#define LP_REFINE_PIVOT_RTOL 1e-12
/// The refined vertex must agree with GLPK's point to this relative size
/// (GLPK's error is ~1e-10); a larger gap means the basis was misread.
#define LP_REFINE_AGREE_RTOL 1e-6

/// Simplex iterations allowed: the simplex visits far fewer vertices than
/// this on every LP here (a few times rows + columns); a degenerate problem
/// that cycles (data near the limits of the scaling, such as a chatter's
/// impulses run down to 1e-200) stops with GLPK's iteration limit, a
/// failure reported as ZENO_ERR_SINGULAR, instead of hanging its caller.
#define LP_ITERATIONS_PER_SIZE 100
#define LP_ITERATIONS_MIN 1000

void lp_dense_init(lp_dense *lp, int rows, int cols) {
  memset(lp, 0, sizeof *lp);
  lp->rows = rows;
  lp->cols = cols;
}

// Coefficient (r, c) of a problem (row-major, `stride` apart).
static double lp_coef(const lp_problem *lp, int r, int c) { return lp->a[r * lp->stride + c]; }

static bool lp_is_finite(const lp_problem *lp) {
  for (int r = 0; r < lp->rows; r++) {
    if (!isfinite(lp->row_lo[r]) || !isfinite(lp->row_hi[r])) return false;
    for (int c = 0; c < lp->cols; c++)
      if (!isfinite(lp_coef(lp, r, c))) return false;
  }
  for (int c = 0; c < lp->cols; c++)
    if (!isfinite(lp->col_lo[c]) || !isfinite(lp->col_hi[c]) || !isfinite(lp->obj[c])) return false;
  return true;
}

static int glpk_kind(lp_bound kind) {
  switch (kind) {
    case LP_LOWER: return GLP_LO;
    case LP_UPPER: return GLP_UP;
    case LP_FIXED: return GLP_FX;
    case LP_RANGE: return GLP_DB;
    default: return GLP_FR;
  }
}

// Zeroes the rounding residues (see LP_ROUNDING_RTOL) of a problem's matrix
// (the caller's copy).
static void lp_clean(lp_problem *lp) {
  for (int r = 0; r < lp->rows; r++) {
    double row_max = 0, *row = lp->a + r * lp->stride;
    for (int c = 0; c < lp->cols; c++) row_max = fmax(row_max, fabs(row[c]));
    for (int c = 0; c < lp->cols; c++)
      if (!(fabs(row[c]) > LP_ROUNDING_RTOL * row_max)) row[c] = 0;
  }
}

// Builds the GLPK problem (rows, columns, bounds, objective, nonzeros);
// NULL when the nonzero lists cannot be allocated.
static glp_prob *lp_build(const glpk_api *g, const lp_problem *lp) {
  const size_t cells = 1 + (size_t)lp->rows * (size_t)lp->cols;
  int *ia = malloc(cells * sizeof *ia), *ja = malloc(cells * sizeof *ja);
  double *ar = malloc(cells * sizeof *ar);
  glp_prob *P = NULL;
  if (ia && ja && ar) {
    P = g->create_prob();
    g->set_obj_dir(P, GLP_MAX);
    g->add_rows(P, lp->rows);
    g->add_cols(P, lp->cols);
    for (int r = 0; r < lp->rows; r++)
      g->set_row_bnds(P, r + 1, glpk_kind(lp->row_kind[r]), lp->row_lo[r], lp->row_hi[r]);
    for (int c = 0; c < lp->cols; c++) {
      g->set_col_bnds(P, c + 1, glpk_kind(lp->col_kind[c]), lp->col_lo[c], lp->col_hi[c]);
      g->set_obj_coef(P, c + 1, lp->obj[c]);
    }
    int nz = 0;
    for (int r = 0; r < lp->rows; r++) {
      for (int c = 0; c < lp->cols; c++) {
        if (lp_coef(lp, r, c) == 0) continue;
        nz++;
        ia[nz] = r + 1;
        ja[nz] = c + 1;
        ar[nz] = lp_coef(lp, r, c);
      }
    }
    g->load_matrix(P, nz, ia, ja, ar);
  }
  free(ia);
  free(ja);
  free(ar);
  return P;
}

// Value at which a nonbasic row or column sits (GLPK status `stat`).
static double bound_value(int stat, lp_bound kind, double lo, double hi) {
  if (stat == GLP_NU || (stat == GLP_NS && kind == LP_UPPER)) return hi;
  if (stat == GLP_NF) return 0;
  return lo;
}

// Recomputes the optimal vertex from GLPK's final basis: the nonbasic
// columns sit at their bounds and the nonbasic rows at theirs, a square
// system solved in double precision on the unscaled data. GLPK's own point
// carries ~1e-10 relative error (bound perturbation and scaling); the
// refined one is exact to rounding of the active constraints. Keeps GLPK's
// point when the system is not square and regular, or when the refined
// point strays from it (a misread basis).
static void refine_vertex(const glpk_api *g, glp_prob *P, const lp_problem *lp, double x[]) {
  const int n = lp->cols;
  double *A = malloc(sizeof(double) * (size_t)(n * n + n));
  if (A == NULL) return;  // GLPK's point stands
  double *b = A + n * n;
  int m = 0;
  bool square = true;
  for (int c = 0; c < n && square; c++) {
    const int stat = g->get_col_stat(P, c + 1);
    if (stat == GLP_BS) continue;
    if (m == n) square = false;
    else {
      for (int j = 0; j < n; j++) A[m * n + j] = j == c ? 1 : 0;
      b[m++] = bound_value(stat, lp->col_kind[c], lp->col_lo[c], lp->col_hi[c]);
    }
  }
  for (int r = 0; r < lp->rows && square; r++) {
    const int stat = g->get_row_stat(P, r + 1);
    if (stat == GLP_BS) continue;
    if (m == n) square = false;
    else {
      for (int j = 0; j < n; j++) A[m * n + j] = lp_coef(lp, r, j);
      b[m++] = bound_value(stat, lp->row_kind[r], lp->row_lo[r], lp->row_hi[r]);
    }
  }
  bool agree = square && m == n && zeno_linsolve(n, A, b, LP_REFINE_PIVOT_RTOL);
  for (int c = 0; c < n && agree; c++)
    if (!(fabs(b[c] - x[c]) <= LP_REFINE_AGREE_RTOL * (1 + fabs(x[c])))) agree = false;
  if (agree)
    for (int c = 0; c < n; c++) x[c] = b[c];
  free(A);
}

// Violation of lo <= value <= hi (by kind), relative to `size`.
static double bound_violation(lp_bound kind, double lo, double hi, double value, double size) {
  double v = 0;
  if (kind == LP_LOWER || kind == LP_FIXED || kind == LP_RANGE) v = fmax(v, lo - value);
  if (kind == LP_UPPER || kind == LP_RANGE) v = fmax(v, value - hi);
  if (kind == LP_FIXED) v = fmax(v, value - lo);
  return v > 0 ? v / size : 0;
}

static double lp_violation(const lp_problem *lp, const double x[]) {
  double x_scale = 0, worst = 0;
  for (int c = 0; c < lp->cols; c++) x_scale = fmax(x_scale, fabs(x[c]));
  for (int r = 0; r < lp->rows; r++) {
    double act = 0, size = 0;
    for (int c = 0; c < lp->cols; c++) {
      act += lp_coef(lp, r, c) * x[c];
      size += fabs(lp_coef(lp, r, c)) * x_scale;
    }
    size += fmax(fabs(lp->row_lo[r]), fabs(lp->row_hi[r]));
    if (size > 0)
      worst = fmax(worst,
                   bound_violation(lp->row_kind[r], lp->row_lo[r], lp->row_hi[r], act, size));
  }
  for (int c = 0; c < lp->cols; c++) {
    const double size = x_scale + fmax(fabs(lp->col_lo[c]), fabs(lp->col_hi[c]));
    if (size > 0)
      worst = fmax(worst,
                   bound_violation(lp->col_kind[c], lp->col_lo[c], lp->col_hi[c], x[c], size));
  }
  return worst;
}

// Runs GLPK's primal simplex on the cleaned LP and reads the outcome into
// the outcome fields of `out` and x (lp->cols values). -1: out of memory.
static int run_simplex(const glpk_api *g, const lp_problem *lp, lp_outcome *out, double x[],
                       int *status) {
  glp_prob *P = lp_build(g, lp);
  if (P == NULL) return -1;
  g->scale_prob(P, GLP_SF_AUTO);
  glp_smcp parm;
  g->init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.it_lim = LP_ITERATIONS_PER_SIZE * (lp->rows + lp->cols) + LP_ITERATIONS_MIN;
  const int ret = g->simplex(P, &parm);
  *status = g->get_status(P);
  if (ret == 0 && *status == GLP_OPT) {
    out->status = LP_OPTIMAL;
    for (int c = 0; c < lp->cols; c++) x[c] = g->get_col_prim(P, c + 1);
    refine_vertex(g, P, lp, x);
    for (int c = 0; c < lp->cols; c++) out->objective += lp->obj[c] * x[c];
    out->violation = lp_violation(lp, x);
  } else if (ret == 0 && (*status == GLP_NOFEAS || *status == GLP_INFEAS)) {
    out->status = LP_INFEASIBLE;
  } else if (ret == 0 && *status == GLP_UNBND) {
    out->status = LP_UNBOUNDED;
  }
  g->delete_prob(P);
  return ret;
}

// Solves a problem whose matrix the call may clean (the caller's copy).
static zeno_status lp_problem_solve_owned(lp_problem *lp, lp_outcome *out, double x[],
                                          zeno_error *e) {
  memset(out, 0, sizeof *out);
  if (!lp_is_finite(lp))
    return zeno_fail(e, ZENO_ERR_RANGE, "", "a linear-program coefficient is NaN or infinite");
  const glpk_api *g = glpk_api_get(e);
  if (g == NULL) return e ? e->code : ZENO_ERR_UNSUPPORTED;
  lp_clean(lp);
  const int old_term = g->term_out(GLP_OFF);
  int status = 0;
  const int ret = run_simplex(g, lp, out, x, &status);
  g->term_out(old_term);
  if (ret < 0) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory building a linear program");
  if (ret != 0 ||
      !(status == GLP_OPT || status == GLP_NOFEAS || status == GLP_INFEAS || status == GLP_UNBND))
    return zeno_fail(e, ZENO_ERR_SINGULAR, "",
                     "the GLPK simplex failed (return code %d, status %d)", ret, status);
  return ZENO_OK;
}

zeno_status lp_dense_solve(const lp_dense *lp, lp_solution *sol, zeno_error *e) {
  memset(sol, 0, sizeof *sol);
  if (lp->rows < 1 || lp->rows > LP_MAX_ROWS || lp->cols < 1 || lp->cols > LP_MAX_COLS)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "LP of %d x %d is outside 1..%d x 1..%d", lp->rows,
                     lp->cols, LP_MAX_ROWS, LP_MAX_COLS);
  lp_dense clean = *lp;
  lp_problem view = {clean.rows,     clean.cols,   LP_MAX_COLS,  &clean.a[0][0],
                     clean.row_kind, clean.row_lo, clean.row_hi, clean.col_kind,
                     clean.col_lo,   clean.col_hi, clean.obj};
  lp_outcome out;
  const zeno_status st = lp_problem_solve_owned(&view, &out, sol->x, e);
  sol->status = out.status;
  sol->objective = out.objective;
  sol->violation = out.violation;
  return st;
}

zeno_status lp_problem_create(lp_problem *lp, int rows, int cols, zeno_error *e) {
  memset(lp, 0, sizeof *lp);
  if (rows < 1 || cols < 1)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "LP of %d x %d has no rows or columns", rows, cols);
  const size_t r = (size_t)rows, c = (size_t)cols;
  lp->rows = rows;
  lp->cols = cols;
  lp->stride = cols;
  lp->a = calloc(r * c, sizeof *lp->a);
  lp->row_kind = calloc(r, sizeof *lp->row_kind);
  lp->row_lo = calloc(r, sizeof *lp->row_lo);
  lp->row_hi = calloc(r, sizeof *lp->row_hi);
  lp->col_kind = calloc(c, sizeof *lp->col_kind);
  lp->col_lo = calloc(c, sizeof *lp->col_lo);
  lp->col_hi = calloc(c, sizeof *lp->col_hi);
  lp->obj = calloc(c, sizeof *lp->obj);
  if (lp->a && lp->row_kind && lp->row_lo && lp->row_hi && lp->col_kind && lp->col_lo &&
      lp->col_hi && lp->obj)
    return ZENO_OK;
  lp_problem_destroy(lp);
  return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a %d x %d linear program", rows, cols);
}

void lp_problem_destroy(lp_problem *lp) {
  free(lp->a);
  free(lp->row_kind);
  free(lp->row_lo);
  free(lp->row_hi);
  free(lp->col_kind);
  free(lp->col_lo);
  free(lp->col_hi);
  free(lp->obj);
  memset(lp, 0, sizeof *lp);
}

zeno_status lp_problem_solve(const lp_problem *lp, lp_outcome *out, double x[], zeno_error *e) {
  memset(out, 0, sizeof *out);
  lp_problem clean = *lp;
  clean.stride = lp->cols;
  clean.a = malloc(sizeof(double) * (size_t)lp->rows * (size_t)lp->cols);
  if (clean.a == NULL)
    return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a linear program");
  for (int r = 0; r < lp->rows; r++)
    for (int c = 0; c < lp->cols; c++) clean.a[r * lp->cols + c] = lp_coef(lp, r, c);
  const zeno_status st = lp_problem_solve_owned(&clean, out, x, e);
  free(clean.a);
  return st;
}

void lp_thread_done(void) {
  const glpk_api *g = glpk_api_loaded();
  if (g) g->free_env();
}
