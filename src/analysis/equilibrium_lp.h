// Linear programs on GLPK (small dense ones, and any size on heap arrays),
// and the max-margin static LP of a body on 1 to 16 frictional contacts. Each call builds its own GLPK problem
// object and frees it; GLPK's terminal output is off during the call.
#ifndef ZENO_ANALYSIS_EQUILIBRIUM_LP_H
#define ZENO_ANALYSIS_EQUILIBRIUM_LP_H

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
  LP_FIXED      ///< x = lo
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

/// Max-margin static LP: unknowns the contact forces f = (n1, t1[, n2, t2])
/// and the margin s; W f = rhs; s <= n_i and s <= (mu_i n_i -+ t_i) /
/// sqrt(1 + mu_i^2); s <= cap; maximise s.
typedef struct lp_margin_lp {
  int n;           ///< contacts, 1 or 2
  double W[3][4];  ///< generalised Jacobian, columns (n1, t1, n2, t2)
  double rhs[3];   ///< -load for an equilibrium, 0 for wedging
  double mu[2];
  double cap;  ///< upper bound of s [force]
  /// Force unit of the LP: rhs and cap are divided by it and the results
  /// multiplied back, so the answer scales with the load (homogeneity).
  double scale;
  bool unit_normal_sum;  ///< add n1 + n2 = scale (normalises a self-equilibrated pair)
} lp_margin_lp;

typedef struct lp_margin_result {
  bool feasible;    ///< W f = rhs (and the normal sum) has a solution, certified
  double margin;    ///< the optimal s [force]; -INFINITY when infeasible
  double force[4];  ///< f at the optimum
  bool capped;      ///< s reached the cap: unbounded margin
} lp_margin_result;

/// The margin counts as capped within this fraction of the cap: the simplex
/// (or the closed form of equilibrium.c) lands on the cap's vertex exactly
/// up to rounding (1e-16 relative), so 1e-9 separates it from any genuine
/// bounded optimum below the cap.
#define LP_CAP_RTOL 1e-9

zeno_status lp_margin_lp_solve(const lp_margin_lp *p, lp_margin_result *r, zeno_error *e);

/// Contacts the general margin LP takes (zeno/contact_set.h's bound).
#define LP_MARGIN_MAX_CONTACTS 16

/// The max-margin static LP of lp_margin_lp for 1..LP_MARGIN_MAX_CONTACTS
/// contacts: W is 3 x 2n row-major, columns (n1, t1, n2, t2, ...); mu has n
/// entries. Both are read only.
typedef struct lp_margin_general {
  int n;
  const double *W;
  const double *mu;
  double rhs[3];
  double cap, scale;
  bool unit_normal_sum;
} lp_margin_general;

typedef struct lp_margin_outcome {
  bool feasible, capped;  ///< as lp_margin_result
  double margin;          ///< [force]; -INFINITY when infeasible
  double force[2 * LP_MARGIN_MAX_CONTACTS];
} lp_margin_outcome;

zeno_status lp_margin_general_solve(const lp_margin_general *p, lp_margin_outcome *r,
                                    zeno_error *e);

/// The optimum's forces per contact, (normal, tangential) for contacts
/// 0..n-1, as the reports store them.
void lp_margin_forces(const lp_margin_result *r, int n, double forces[][2]);

#endif
