// The index ordering of the contacts, eq. (13): contact 1 is the one whose
// gap closes faster under FF (zddot1 < 0). The equilibrium report states
// it, and the Poincaré maps swap the contacts of a scene that breaks it
// where swapping restores it. Not public API.
#ifndef ZENO_DYNAMICS_CONTACT_ORDER_H
#define ZENO_DYNAMICS_CONTACT_ORDER_H

#include <stdbool.h>

#include "dynamics/contact_solve.h"
#include "zeno/scene.h"

typedef struct contact_order {
  /// Normal accelerations zddot_i under FF at rest (no contact force)
  /// [length/time^2]; zero past the contact count.
  double zdd_ff[ZENO_PAIR_CONTACTS];
  bool ok;         ///< eq. (13) holds (always for one contact)
  bool swappable;  ///< it fails, and holds with the two contacts swapped
} contact_order;

/// The ordering of n contacts whose dynamics d has no bias (rest).
void contact_order_of(const contact_dyn *d, int n, contact_order *order);

/// The ordering of a two-contact scene in its own units (scene_units.h),
/// decided as the equilibrium check decides it; false, with *order
/// untouched, when the scene's model cannot be made or its static contact
/// forces are undetermined (a singular Jacobian: the check fails there).
bool contact_order_of_scene(const zeno_scene *scene, contact_order *order);

#endif
