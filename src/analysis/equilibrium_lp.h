// The max-margin static LP of a body on 1 to 16 frictional contacts, on
// the LP helpers of dynamics/lp.h.
#ifndef ZENO_ANALYSIS_EQUILIBRIUM_LP_H
#define ZENO_ANALYSIS_EQUILIBRIUM_LP_H

#include <stdbool.h>

#include "dynamics/lp.h"
#include "zeno/error.h"

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
