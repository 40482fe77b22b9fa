// Shared by the Poincaré maps' files: poincare.c (one cycle from the
// section, the settings, the contact order of eq. (13)) and maps_stream.c
// (the maps R and G sample by sample: breakpoints, fixed points, endpoint
// limits); the verdicts (analysis/stability.c) read the conversions. Not
// public API.
#ifndef ZENO_MAPS_POINCARE_INTERNAL_H
#define ZENO_MAPS_POINCARE_INTERNAL_H

#include <stdbool.h>

#include "scene/scene_units.h"
#include "zeno/poincare.h"

/// A cycle's duration per unit approach speed in the user's units (the
/// maps compute in the scene's own units, scene/scene_units.h).
static inline void maps_cycle_to_user(scene_units u, zeno_cycle *c) {
  c->T = scene_units_to_user(u, SCENE_DIM_TIME_PER_SPEED, c->T);
}

/// The maps' samples in the user's units (R and G are ratios and angles).
static inline void maps_to_user(scene_units u, zeno_maps *m) {
  for (size_t k = 0; k < m->sample_count; k++) maps_cycle_to_user(u, &m->samples[k]);
}

/// One simulator reused for every cycle of a map: restarting it keeps the
/// model, its mode solutions and its per-scene table (constant under the
/// ZOD).
typedef struct cycle_runner {
  zeno_sim *sim;
  /// Cycles run on the per-scene table's kernel (sim_kernel.h) where it
  /// takes them, else on the event loop (sim_cycle.h); false: on the event
  /// loop alone (the kernel's oracle).
  bool fast;
} cycle_runner;

/// A runner for the scene (in its own units, contacts in the order of eq.
/// (13)); zod_table as zeno_maps_def.zod_table.
zeno_status poincare_runner_init(cycle_runner *r, const zeno_scene *scene, bool zod_table,
                                 zeno_error *error);
/// The cycle from the section at angle phi (ZENO_ERR_RANGE outside I);
/// every byte of *cy past its word's and outcomes' terminators is zero
/// (the maps compare words as whole arrays).
zeno_status poincare_runner_eval(cycle_runner *r, double phi, zeno_cycle *cy, zeno_error *error);
/// Cycles the runner makes at once (poincare_runner_eval_lanes): 4 or 1.
int poincare_runner_lanes(const cycle_runner *r);
/// The cycles from n angles, each as poincare_runner_eval() makes it: on
/// the table's kernel n at a time where it makes them (n = 4,
/// sim_kernel_cycle4), else one by one. *made counts the cycles made,
/// in order, up to the first failure (its status returned).
zeno_status poincare_runner_eval_lanes(cycle_runner *r, int n, const double phi[], zeno_cycle cy[],
                                       int *made, zeno_error *error);
void poincare_runner_free(cycle_runner *r);

/// The scene with its contacts in the order of eq. (13) (zddot1 < 0 under
/// FF); true when they were swapped.
bool poincare_ordered_scene(const zeno_scene *scene, zeno_scene *out);

#endif
