/// @file contact_stability.h
/// Stability of a planar body resting on frictional point contacts, beyond
/// the Várkonyi–Or analysis: weak and strong stability of a load (Pang &
/// Trinkle, "Stability characterizations of fixtured rigid bodies with
/// Coulomb friction", seeds/pang-trinkle-stability.txt) and jamming and
/// wedging (Dupont & Yamajako, "Jamming and wedging in constrained rigid-body
/// dynamics", seeds/dupont-jamming-wedging.txt).
///
/// In the plane the friction pyramid (5) and the Coulomb cone (4) coincide:
/// |c_t| <= mu c_n. Every test here is a linear program solved with GLPK;
/// the library sets GLPK's terminal output off for the call (and restores
/// it), so nothing is printed.
#ifndef ZENO_CONTACT_STABILITY_H
#define ZENO_CONTACT_STABILITY_H

#include <stdbool.h>
#include "zeno/error.h"
#include "zeno/scene.h"
#include "zeno/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A body on one or two point contacts in Pang–Trinkle's form (their
/// Sec. 2): the wrench matrices W_n, W_t column by column, the inverse mass
/// matrix, the friction coefficients and the load. Generalised coordinates
/// (x, y, theta) of the centre of mass, world frame.
typedef struct zeno_contact_problem {
  int contact_count;                    ///< 1 or 2
  /// Wrench of a unit normal force at contact i: (f_x, f_y, torque about the
  /// centre of mass) [-, -, length]. Column i of W_n.
  double normal[ZENO_MAX_CONTACTS][3];
  /// Wrench of a unit tangential force at contact i (column i of W_t).
  double tangent[ZENO_MAX_CONTACTS][3];
  double mu[ZENO_MAX_CONTACTS];         ///< friction coefficients [-], >= 0
  /// Diagonal of M^-1: (1/m, 1/m, 1/(m rho^2)) [1/mass, 1/mass, 1/(mass length^2)].
  double inv_mass[3];
  /// Load g_ext = (f_x, f_y, tau) [force, force, force*length].
  double load[3];
} zeno_contact_problem;

/// Builds the problem of a scene at its nominal pose: normal n_i = J t_i,
/// tangent t_i (SPEC.md), the scene's mass, rho, friction and load.
/// Validates the scene first (its errors are returned unchanged).
zeno_status zeno_contact_problem_from_scene(const zeno_scene *scene,
                                            zeno_contact_problem *problem,
                                            zeno_error *error);

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
  double forces[ZENO_MAX_CONTACTS][2];
} zeno_weak_stability;

/// Weak stability of the problem's load (Pang–Trinkle Definition 3, system
/// (7)) by linear programming.
zeno_status zeno_weak_stability_check(const zeno_contact_problem *problem,
                                      zeno_weak_stability *result,
                                      zeno_error *error);

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
zeno_status zeno_strong_stability_check(const zeno_contact_problem *problem,
                                        zeno_strong_stability *result,
                                        zeno_error *error);

/// Result of zeno_scene_stability_check().
typedef struct zeno_scene_stability {
  zeno_weak_stability weak;       ///< of the scene's load
  zeno_strong_stability theorem4; ///< of the scene's geometry and friction
  /// Weakly stable and Theorem 4 (a) holds: strongly stable by Theorem 4.
  bool strong_by_theorem4;
  /// Non-static contact modes consistent at rest under the load (zeno's
  /// Table 1 enumeration at zero velocity): each is a dynamic intensity with
  /// nonzero acceleration, so any makes the load weakly unstable.
  int unstable_mode_count;
  zeno_mode unstable_modes[ZENO_MAX_MODES];
  /// Weakly stable and no non-static mode is consistent at rest.
  bool strongly_stable;
} zeno_scene_stability;

/// Weak and strong stability of the equilibrium of a two-contact scene.
/// Fails with ZENO_ERR_ARGUMENT for a one-contact scene.
zeno_status zeno_scene_stability_check(const zeno_scene *scene,
                                       zeno_scene_stability *result,
                                       zeno_error *error);

/// Dupont's jamming coefficient (Theorem 1, eq. (43) for a rod) of contact
/// `contact` (0-based) slipping alone in direction `slip` (ZENO_LETTER_P:
/// xdot_i > 0, ZENO_LETTER_N: xdot_i < 0): the friction coefficient at which
/// the slipping mode's normal-force equation (D_nn - s mu D_nt) c_n = -a_n
/// (s = +1 for P, -1 for N) loses rank, mu_J = D_nn / (s D_nt). INFINITY
/// when s D_nt <= 0 (that direction never jams). The smaller of the two
/// directions is the Painlevé bound (11) of the contact.
zeno_status zeno_jamming_coefficient(const zeno_contact_problem *problem,
                                     int contact, zeno_letter slip,
                                     double *mu_jam, zeno_error *error);

/// Result of zeno_wedging_check().
typedef struct zeno_wedging {
  /// Dupont Theorem 2: a nonzero self-equilibrated pair of contact forces
  /// lies in both closed friction cones (the force columns are dependent
  /// for some mu_W <= mu).
  bool wedged;
  /// Largest over self-equilibrated pairs with c_n1 + c_n2 = 1 of the
  /// smallest cone slack [-]; > 0: strictly inside both cones (internal
  /// forces can grow without bound). -INFINITY when no such pair has a
  /// positive normal sum.
  double margin;
  /// The pair achieving the margin, (normal, tangential) per contact [-].
  double forces[ZENO_MAX_CONTACTS][2];
  /// mu_W per contact: the smallest friction coefficient whose cone holds
  /// the line through both contacts, oriented so that both normal
  /// components are positive (the only possible direction of a
  /// self-equilibrated pair). INFINITY when no orientation has both.
  double wedging_mu[ZENO_MAX_CONTACTS];
} zeno_wedging;

/// Wedging test of a two-contact problem (load not used). Fails with
/// ZENO_ERR_ARGUMENT for one contact.
zeno_status zeno_wedging_check(const zeno_contact_problem *problem,
                               zeno_wedging *result, zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
