// The analysis in a scene's own units (scene/scene_units.h): each public
// entry point taking a scene computes on the scene in its own units, so
// that no tolerance depends on the user's units, and converts its
// dimensional results back here. A scene already in its own units
// converts to itself. Not public API.
#ifndef ZENO_ANALYSIS_ANALYSIS_UNITS_H
#define ZENO_ANALYSIS_ANALYSIS_UNITS_H

#include "scene/scene_units.h"
#include "zeno/equilibrium.h"
#include "zeno/pang_trinkle.h"

/// Forces [force] and accelerations of a report in the user's units.
static inline void analysis_equilibrium_to_user(scene_units u, zeno_equilibrium_report *r) {
  r->margin = scene_units_to_user(u, SCENE_DIM_FORCE, r->margin);
  for (int i = 0; i < ZENO_PAIR_CONTACTS; i++) {
    for (int k = 0; k < 2; k++)
      r->forces[i][k] = scene_units_to_user(u, SCENE_DIM_FORCE, r->forces[i][k]);
    r->zdd_ff[i] = scene_units_to_user(u, SCENE_DIM_ACCEL, r->zdd_ff[i]);
  }
}

/// The weak stability's margin and forces in the user's units; the
/// witness load keeps its unit size |f| + |tau| / rho = 1.
static inline void analysis_scene_stability_to_user(scene_units u, zeno_scene_stability *r) {
  r->weak.margin = scene_units_to_user(u, SCENE_DIM_FORCE, r->weak.margin);
  for (int i = 0; i < ZENO_PAIR_CONTACTS; i++)
    for (int k = 0; k < 2; k++)
      r->weak.forces[i][k] = scene_units_to_user(u, SCENE_DIM_FORCE, r->weak.forces[i][k]);
  r->theorem4.witness_load[2] = scene_units_to_user(u, SCENE_DIM_LENGTH,
                                                    r->theorem4.witness_load[2]);
}

#endif
