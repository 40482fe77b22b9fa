/// @file pang_trinkle.h
/// Weak and strong stability of a load on frictional point contacts (Pang &
/// Trinkle, "Stability characterizations of fixtured rigid bodies with
/// Coulomb friction", seeds/pang-trinkle-stability.txt).
///
/// In the plane the friction pyramid (5) and the Coulomb cone (4) coincide:
/// |c_t| <= mu c_n. Every test here is a linear program solved with GLPK;
/// the library sets GLPK's terminal output off for the call (and restores
/// it), so nothing is printed.
#ifndef ZENO_PANG_TRINKLE_H
#define ZENO_PANG_TRINKLE_H

#include <stdbool.h>
#include "zeno/api.h"
#include "zeno/contact_problem.h"
#include "zeno/error.h"
#include "zeno/mode.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of zeno_weak_stability_check().
typedef struct zeno_weak_stability {
  /// System (7) is consistent: contact forces in the closed friction cones
  /// balance the load (W_n c_n + W_t c_t + g_ext = 0, |c_t| <= mu c_n).
  bool weakly_stable;
  /// Largest over balancing forces of the smallest cone slack
  /// min(c_n, (mu c_n - |c_t|)/sqrt(1+mu^2)) [force]; negative when no
  /// balancing force lies in the cones, capped (see `unbounded`) when the
  /// body is wedged. -INFINITY when no force balances the load at all (one
  /// contact whose line of action misses the load).
  double margin;
  /// The body is wedged: self-equilibrated forces strictly inside both
  /// cones, so the margin grows without bound (reported at its cap).
  bool unbounded;
  /// Balancing forces achieving the margin, (normal, tangential) per contact [force].
  double forces[ZENO_PAIR_CONTACTS][2];
} zeno_weak_stability;

/// Weak stability of the problem's load (Pang–Trinkle Definition 3, system
/// (7)) by linear programming.
ZENO_API zeno_status zeno_weak_stability_check(const zeno_contact_problem *problem,
                                               zeno_weak_stability *result, zeno_error *error);

/// Number of signed vectors sigma_t of two contacts (Theorem 4, planar).
#define ZENO_PT_SIGNS 4

/// Result of zeno_strong_stability_check().
typedef struct zeno_strong_stability {
  /// Inequality systems (32)-(35) examined: 2^n signed vectors times the
  /// 2^(2n) - 1 nonempty index sets gamma (60 for two contacts).
  int systems;
  /// How many are consistent.
  int consistent;
  /// Consistent systems per signed vector; index k has sigma_i = -1 where
  /// bit i of k is set, +1 elsewhere (k = 0: sigma = (1, 1)).
  int consistent_by_sign[ZENO_PT_SIGNS];
  /// Theorem 4 (a): every system is inconsistent, hence every weakly stable
  /// load is strongly stable (SS(mu) = WS(mu)).
  bool weak_implies_strong;
  /// When some system is consistent: the signed vector index and index set
  /// (bit j set: row j + 1 in gamma, rows ordered (n_1..n_n, t_1..t_n)) of
  /// the deepest one, and the load Proposition 5 builds from it, weakly but
  /// not strongly stable, scaled to unit size |f| + |tau| / rho = 1 with
  /// rho^2 = inv_mass[0] / inv_mass[2] [force, force, force*length].
  int witness_sign;
  unsigned witness_gamma;
  double witness_load[3];
} zeno_strong_stability;

/// Pang–Trinkle Theorem 4 for the planar problem (friction pyramid = cone):
/// checks every system (32)-(35) for consistency. Depends on geometry,
/// inertia and friction only; the load is not used.
ZENO_API zeno_status zeno_strong_stability_check(const zeno_contact_problem *problem,
                                                 zeno_strong_stability *result, zeno_error *error);

/// Result of zeno_scene_stability_check().
typedef struct zeno_scene_stability {
  zeno_weak_stability weak;        ///< of the scene's load
  zeno_strong_stability theorem4;  ///< of the scene's geometry and friction
  /// Weakly stable and Theorem 4 (a) holds: strongly stable by Theorem 4.
  bool strong_by_theorem4;
  /// Non-static contact modes consistent at rest under the load (zeno's
  /// Table 1 enumeration at zero velocity): each is a dynamic intensity with
  /// nonzero acceleration, so any makes the load weakly unstable.
  size_t unstable_mode_count;
  zeno_mode unstable_modes[ZENO_MAX_MODES];
  /// Weakly stable and no non-static mode is consistent at rest.
  bool strongly_stable;
} zeno_scene_stability;

/// Weak and strong stability of the equilibrium of a two-contact scene.
/// Fails with ZENO_ERR_ARGUMENT for a one-contact scene.
ZENO_API zeno_status zeno_scene_stability_check(const zeno_scene *scene,
                                                zeno_scene_stability *result, zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
