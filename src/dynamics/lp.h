// Linear programs on GLPK (small dense ones, and any size on heap arrays):
// the modes layer's N-contact selection (mode_n.h) and the analysis
// layer's static LPs solve with them. Each call builds its own GLPK problem
// object and frees it; GLPK's terminal output is off during the call.
#ifndef ZENO_DYNAMICS_LP_H
#define ZENO_DYNAMICS_LP_H

#include <stdbool.h>

#include "zeno/error.h"

/// Largest dense LP the helpers take (Theorem 4 systems: 9 x 9).
#define LP_MAX_ROWS 12
#define LP_MAX_COLS 10

/// Bound of a row or column: lo <= x <= hi where the kind says which apply.
typedef enum lp_bound {
  LP_FREE = 0,  ///< no bound
  LP_LOWER,     ///< x >= lo
  LP_UPPER,     ///< x <= hi
  LP_FIXED,     ///< x = lo
  LP_RANGE      ///< lo <= x <= hi
} lp_bound;

/// maximise obj . x subject to row bounds on A x and column bounds on x.
typedef struct lp_dense {
  int rows, cols;
  double a[LP_MAX_ROWS][LP_MAX_COLS];
  lp_bound row_kind[LP_MAX_ROWS];
  double row_lo[LP_MAX_ROWS], row_hi[LP_MAX_ROWS];
  lp_bound col_kind[LP_MAX_COLS];
  double col_lo[LP_MAX_COLS], col_hi[LP_MAX_COLS];
  double obj[LP_MAX_COLS];
} lp_dense;

typedef enum lp_status { LP_OPTIMAL = 0, LP_INFEASIBLE, LP_UNBOUNDED } lp_status;

typedef struct lp_solution {
  lp_status status;
  double x[LP_MAX_COLS];  ///< optimal point (status optimal)
  double objective;
  /// Largest bound violation of x over rows and columns, relative to the
  /// size of the terms (row r: sum_c |a_rc| max|x| + |bound|; column:
  /// max|x| + |bound|). GLPK accepts points outside by its tolerance
  /// (1e-7 on the scaled problem: seen 2e-8 on a Theorem 4 system, 1e-10
  /// on a one-contact balance); a point that really satisfies the
  /// constraints shows rounding only (~1e-16). See LP_CERTIFIED_RTOL.
  double violation;
} lp_solution;

/// A point with a relative violation at most this satisfies its LP up to
/// rounding of its dot products (~1e-15 for the <= 10 terms here), so it
/// certifies feasibility; GLPK's own acceptance does not.
#define LP_CERTIFIED_RTOL 1e-12

/// Clears an LP to `rows` x `cols` zeros, every row and column free.
void lp_dense_init(lp_dense *lp, int rows, int cols);

/// Solves with GLPK's primal simplex. Fails with ZENO_ERR_RANGE for a
/// non-finite coefficient and ZENO_ERR_SINGULAR when the simplex itself
/// fails (GLPK's code in the message).
/// Frees the LP solver's per-thread state (GLPK keeps an environment in
/// thread-local storage, made at a thread's first LP): a worker thread
/// calls it when its share of a sweep is done, or the environment leaks
/// when the thread ends (clang's OpenMP runtime ends its workers at exit).
/// The next LP of the thread makes a new one.
void lp_thread_done(void);

zeno_status lp_dense_solve(const lp_dense *lp, lp_solution *sol, zeno_error *e);

/// An LP of any size in heap arrays (the contact-set module's, whose LPs
/// grow with the number of contacts): coefficient (r, c) is
/// a[r * stride + c]. The same solve as lp_dense_solve (cleaning, GLPK's
/// simplex, vertex refinement, certificate).
typedef struct lp_problem {
  int rows, cols, stride;
  double *a;
  lp_bound *row_kind;
  double *row_lo, *row_hi;
  lp_bound *col_kind;
  double *col_lo, *col_hi;
  double *obj;
} lp_problem;

/// How an lp_problem ended (its point goes to the caller's array).
typedef struct lp_outcome {
  lp_status status;
  double objective;  ///< at the optimal point
  double violation;  ///< as lp_solution.violation
} lp_outcome;

/// Allocates a rows x cols problem of zeros, every row and column free
/// (stride = cols). ZENO_ERR_ARGUMENT for no rows or columns,
/// ZENO_ERR_NOMEM when memory runs out (nothing is left allocated).
zeno_status lp_problem_create(lp_problem *lp, int rows, int cols, zeno_error *e);
void lp_problem_destroy(lp_problem *lp);

/// Solves lp (not modified) into x (lp->cols values). Errors as
/// lp_dense_solve, and ZENO_ERR_NOMEM.
zeno_status lp_problem_solve(const lp_problem *lp, lp_outcome *out, double x[], zeno_error *e);

#endif
