/// @file equilibrium.h
/// The nominal equilibrium of a scene: static feasibility (SS) by the
/// max-margin LP (GLPK), the index ordering (13), ambiguity (Theorem 1) and
/// the Painlevé bounds (11).
#ifndef ZENO_EQUILIBRIUM_H
#define ZENO_EQUILIBRIUM_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/mode.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of zeno_equilibrium_check().
typedef struct zeno_equilibrium_report {
  int contact_count;
  /// SS (all contacts sticking) is consistent at zero velocity: contact
  /// forces strictly inside the friction cones balance the load.
  bool feasible;
  /// Largest over balancing force pairs of the smallest cone slack
  /// min(f_n, (mu f_n - |f_t|)/sqrt(1+mu^2)) [force]; negative when infeasible.
  double margin;
  /// The balancing forces achieving the margin, (normal, tangential) per contact [force].
  double forces[ZENO_PAIR_CONTACTS][2];
  /// Normal accelerations of the contacts under FF (no contact force) [length/time^2].
  double zdd_ff[ZENO_PAIR_CONTACTS];
  /// Eq. (13) holds: zdd_ff[0] < 0 (two contacts).
  bool index_order_ok;
  /// Eq. (13) would hold with the contacts swapped.
  bool index_order_swappable;
  /// Non-static modes consistent at zero velocity with all contacts closed
  /// (Theorem 1: any makes the equilibrium not FTLS).
  size_t ambiguous_count;
  zeno_mode ambiguous_modes[ZENO_MAX_MODES];
  /// Painlevé bound (11) per contact: slipping on contact i alone is free of
  /// the paradox while mu_i < bound (INFINITY when the bound never bites).
  double painleve_bound[ZENO_PAIR_CONTACTS];
  /// mu_i < painleve_bound[i].
  bool painleve_ok[ZENO_PAIR_CONTACTS];
  /// Two contacts: self-equilibrated forces lie strictly inside both cones
  /// (Dupont's wedging), so the balancing forces and the margin are
  /// unbounded; `margin` then reports its cap (1e6 times the load) and
  /// `forces` one balancing pair at the cap.
  bool wedged;
} zeno_equilibrium_report;

/// Checks the nominal equilibrium of a validated scene.
ZENO_API zeno_status zeno_equilibrium_check(const zeno_scene *scene,
                                            zeno_equilibrium_report *report, zeno_error *error);

/// Painlevé bound (11): (kappa^2 + sin^2 theta) / |sin theta cos theta| with
/// kappa = rho / |r_c - p| and theta the angle between the contact normal and
/// r_c - p. Returns INFINITY when sin theta cos theta = 0.
ZENO_API double zeno_painleve_bound(double rho, const double point[2], double surface_angle);

#ifdef __cplusplus
}
#endif
#endif
