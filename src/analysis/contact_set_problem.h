// Internals of the N-contact stability module (contact_set.c), shared with
// pang_trinkle.c (whose Theorem 4 check is the N = 1, 2 case of the one
// here) and with the tests (the brute-force check of the mode enumeration).
#ifndef ZENO_ANALYSIS_CONTACT_SET_PROBLEM_H
#define ZENO_ANALYSIS_CONTACT_SET_PROBLEM_H

#include <stdbool.h>

#include "dynamics/kinematics.h"
#include "dynamics/mode_n.h"
#include "zeno/contact_set.h"

/// A body on n contacts in Pang & Trinkle's form, in any consistent units:
/// the wrench of a unit normal and a unit tangential force at each contact
/// (f_x, f_y, torque), the diagonal of M^-1, friction and the load. The
/// module builds it in the body's own units (length rho, mass m, force the
/// load's size), where M = I.
typedef struct contact_set_problem {
  int n;
  double normal[ZENO_CONTACT_SET_MAX][3];
  double tangent[ZENO_CONTACT_SET_MAX][3];
  double mu[ZENO_CONTACT_SET_MAX];
  double inv_mass[3];
  double load[3];
} contact_set_problem;

/// a . M^-1 b for two generalised 3-vectors (wrenches or loads).
static inline double contact_set_mass_dot(const contact_set_problem *p, const double *a,
                                          const double *b) {
  double s = 0;
  for (int k = 0; k < 3; k++) s += a[k] * p->inv_mass[k] * b[k];
  return s;
}

/// Theorem 4's outcome with the details the two-contact API reports.
typedef struct contact_set_theorem4 {
  int systems, consistent;
  /// Consistent systems per signed vector (bit i of the index set: sigma_i = -1).
  int consistent_by_sign[1 << ZENO_CONTACT_SET_THEOREM4_MAX];
  /// The deepest consistent system's signed vector and index set (bit j:
  /// row j + 1 of M-hat, rows (n_1..n_n, t_1..t_n)), and Proposition 5's
  /// load built from it, scaled to |f| + |tau| / rho = 1.
  int witness_sign;
  unsigned witness_gamma;
  double witness_load[3];
} contact_set_theorem4;

/// Pang & Trinkle's Theorem 4: every system (32)-(35) checked by an LP.
/// ZENO_ERR_ARGUMENT when n > ZENO_CONTACT_SET_THEOREM4_MAX.
zeno_status contact_set_theorem4_check(const contact_set_problem *p, contact_set_theorem4 *r,
                                       zeno_error *e);

/// The LP of one contact mode at rest: the largest virtual work g . qdd
/// over its dynamic intensities (closed conditions), in units of
/// g M^-1 g. *unstable when some intensity of the mode has nonzero
/// acceleration (an unbounded LP, or a certified optimum above the
/// threshold); *depth is the optimum (INFINITY when unbounded, -INFINITY
/// when the mode has no intensity).
zeno_status contact_set_mode_depth(const contact_set_problem *p, const zeno_contact_set_mode *mode,
                                   double *depth, bool *unstable, zeno_error *e);

/// Builds the problem of a definition's touching contacts (gap 0) in the
/// body's own units (M = I); *force_scale is the force unit and index[i]
/// the definition's contact of the problem's contact i. The definition must
/// be valid.
void contact_set_problem_of(const zeno_contact_set_def *def, contact_set_problem *p,
                            double *force_scale, int index[ZENO_CONTACT_SET_MAX]);

/// The problem's dynamics for the N-contact mode selection (mode_n.h):
/// its touching contacts in the body's units, at rest under the ZOD (no
/// velocity terms).
void contact_set_problem_dyn(const contact_set_problem *p, mode_n_dyn *d);

#endif
