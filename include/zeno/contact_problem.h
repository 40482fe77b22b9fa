/// @file contact_problem.h
/// A body resting on one or two frictional point contacts in Pang &
/// Trinkle's form (wrench matrices, inverse mass, friction, load): the
/// common input of the contact-stability tests of zeno/pang_trinkle.h and
/// zeno/jamming.h, which go beyond the Várkonyi–Or analysis.
#ifndef ZENO_CONTACT_PROBLEM_H
#define ZENO_CONTACT_PROBLEM_H

#include <stdbool.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A body on one or two point contacts in Pang–Trinkle's form (their
/// Sec. 2): the wrench matrices W_n, W_t column by column, the inverse mass
/// matrix, the friction coefficients and the load. Generalised coordinates
/// (x, y, theta) of the centre of mass, world frame.
typedef struct zeno_contact_problem {
  int contact_count;  ///< 1 or 2
  /// Wrench of a unit normal force at contact i: (f_x, f_y, torque about the
  /// centre of mass) [-, -, length]. Column i of W_n.
  double normal[ZENO_PAIR_CONTACTS][3];
  /// Wrench of a unit tangential force at contact i (column i of W_t).
  double tangent[ZENO_PAIR_CONTACTS][3];
  double mu[ZENO_PAIR_CONTACTS];  ///< friction coefficients [-], >= 0
  /// Diagonal of M^-1: (1/m, 1/m, 1/(m rho^2)) [1/mass, 1/mass, 1/(mass length^2)].
  double inv_mass[3];
  /// Load g_ext = (f_x, f_y, tau) [force, force, force*length].
  double load[3];
} zeno_contact_problem;

/// Builds the problem of a scene at its nominal pose: normal n_i = J t_i,
/// tangent t_i (SPEC.md), the scene's mass, rho, friction and load.
/// Validates the scene first (its errors are returned unchanged).
ZENO_API zeno_status zeno_contact_problem_from_scene(const zeno_scene *scene,
                                                     zeno_contact_problem *problem,
                                                     zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
