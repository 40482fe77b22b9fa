/// @file contact_set.h
/// Static stability of a planar body at rest on any number N of frictional
/// point contacts (1 <= N <= ZENO_CONTACT_SET_MAX), each on its own surface
/// line (floors, walls, wedges): Pang & Trinkle's weak and strong
/// stability in their general form (seeds/pang-trinkle-stability.txt).
///
/// Independent of zeno_scene: the body, its load and its contacts are given
/// directly, or taken from a scene of any number of contacts
/// (zeno_contact_set_def_from_scene). Every test is a linear program
/// solved with GLPK (loaded at the first one; the library prints nothing).
///
/// Frames and units: the body at its nominal pose, world frame = body
/// frame, origin at the centre of mass; any consistent units (the verdicts
/// are homogeneous in the load and in the lengths).
#ifndef ZENO_CONTACT_SET_H
#define ZENO_CONTACT_SET_H

#include <stdbool.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/mode.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most contacts of a contact set. 16 covers a polygon's corners, a
/// fixture's locators and a multi-legged stand; the strong-stability check
/// examines O(N^2) contact modes, each one LP of at most 4N rows.
#define ZENO_CONTACT_SET_MAX 16

/// Most contacts for which Theorem 4 is checked: it examines
/// 2^N (2^(2N) - 1) LPs (4080 for N = 4, ~1e6 for N = 5), so above this
/// bound `theorem4_checked` is false. The strong-stability verdict does not
/// need it.
#define ZENO_CONTACT_SET_THEOREM4_MAX 4

/// Most unstable contact modes a report lists (all are counted).
#define ZENO_CONTACT_SET_MODE_LIST 32

/// One contact: a body point touching a fixed straight surface.
typedef struct zeno_contact_set_contact {
  double point[2];       ///< contact point relative to the centre of mass [length]
  double surface_angle;  ///< tangent angle of the surface from the world x axis [rad]
  double mu;             ///< Coulomb friction coefficient [-], >= 0
  /// Distance of the point from its surface at rest [length], >= 0. 0 (the
  /// default): touching. A contact with a gap is open: it carries no force
  /// and no motion from rest closes it, so it takes no part in the check
  /// (its letter is F, its force zero). At least one contact must touch.
  double gap;
} zeno_contact_set_contact;

/// A body at rest on N contacts under a constant load. The contact normal
/// is the tangent turned a quarter turn counter-clockwise, n = (-sin phi,
/// cos phi): the surface pushes along n (as in zeno_scene).
typedef struct zeno_contact_set_def {
  double mass;            ///< m > 0 [mass]
  double rho;             ///< radius of gyration > 0 [length]; I = m rho^2
  double load_magnitude;  ///< |f| >= 0 [force]
  double load_angle;      ///< f = |f| (sin a, -cos a): a from the -y axis, counter-clockwise [rad]
  double load_torque;     ///< about the centre of mass [force*length]
  int contact_count;      ///< 1 .. ZENO_CONTACT_SET_MAX
  zeno_contact_set_contact contacts[ZENO_CONTACT_SET_MAX];
} zeno_contact_set_def;

/// m = rho = |f| = 1, load straight down (a = 0), no torque, no contacts
/// (contact_count 0: add at least one before checking).
ZENO_API zeno_contact_set_def zeno_contact_set_def_default(void);

/// The contact set of a scene at its nominal pose: its mass, radius of
/// gyration, load and every contact (1..ZENO_MAX_CONTACTS, each touching,
/// gap 0: zeno_scene_validate puts each contact point on its surface).
/// Validates the scene first and returns its error (ZENO_ERR_ARGUMENT for
/// NULL arguments); *def is untouched on failure. What `zeno check` and
/// zeno.check() use for a scene of more than two contacts.
ZENO_API zeno_status zeno_contact_set_def_from_scene(const zeno_scene *scene,
                                                     zeno_contact_set_def *def, zeno_error *error);

/// A contact mode at rest: one letter per contact (zeno_letter: F lifts
/// off, S sticks, P/N slips toward +t / -t).
typedef struct zeno_contact_set_mode {
  unsigned char letter[ZENO_CONTACT_SET_MAX];
} zeno_contact_set_mode;

/// Report of zeno_contact_set_check().
typedef struct zeno_contact_set_report {
  int contact_count;
  /// Force scale of the load, |f| + |tau| / rho (m when the load vanishes)
  /// [force]: the unit of every tolerance below.
  double force_scale;

  /* weak stability, system (7) */
  /// Largest over balancing forces (W c + g = 0) of the smallest cone slack
  /// min(c_n, (mu c_n - |c_t|)/sqrt(1+mu^2)) [force]; -INFINITY when no
  /// force balances the load.
  double margin;
  /// The margin reached its cap (1e6 force scales): self-equilibrated forces
  /// lie strictly inside the cones (wedged), the margin is unbounded.
  bool wedged;
  /// Balancing forces achieving the margin, (normal, tangential) per contact [force].
  double forces[ZENO_CONTACT_SET_MAX][2];
  /// Forces strictly inside the cones balance the load (margin > 1e-10
  /// force scales): zeno's SS is consistent (zeno_equilibrium_report.feasible).
  bool feasible;
  /// Pang-Trinkle weak stability: forces in the closed cones balance the
  /// load (margin >= -1e-10 force scales).
  bool weakly_stable;
  /// Theorem 1: normal forces alone balance the load (system (21)), so it
  /// is strongly stable for every friction.
  bool frictionless_stable;

  /* strong stability, Definition 3 */
  /// Contact modes whose LP was solved (one per face of the contacts'
  /// acceleration arrangement, see docs/analysis.md).
  int modes_examined;
  /// Modes with a dynamic intensity of nonzero acceleration: each makes the
  /// load weakly unstable. Listed up to ZENO_CONTACT_SET_MODE_LIST, in
  /// preference order (most sticking, then most closed contacts, first).
  int unstable_mode_count;
  zeno_contact_set_mode unstable_modes[ZENO_CONTACT_SET_MODE_LIST];
  /// Every dynamic intensity has zero acceleration: weakly stable and no
  /// unstable mode.
  bool strongly_stable;
  /// Both rest and motion solve the contact problem: weakly stable and some
  /// mode unstable (weakly but not strongly stable).
  bool ambiguous;

  /* Theorem 4 (geometry and friction only; N <= ZENO_CONTACT_SET_THEOREM4_MAX) */
  bool theorem4_checked;
  int theorem4_systems;     ///< systems (32)-(35) examined
  int theorem4_consistent;  ///< how many are consistent
  /// Every system inconsistent: every weakly stable load is strongly stable.
  bool weak_implies_strong;
} zeno_contact_set_report;

/// Checks a contact set. ZENO_ERR_ARGUMENT naming the field and its
/// allowed range for a bad definition (contact_count outside
/// 1..ZENO_CONTACT_SET_MAX, m or rho not positive, mu negative, a NaN);
/// ZENO_ERR_UNSUPPORTED when GLPK cannot be loaded.
ZENO_API zeno_status zeno_contact_set_check(const zeno_contact_set_def *def,
                                            zeno_contact_set_report *report, zeno_error *error);

/// A mode's name, one letter per contact ("SSF"), into buffer (at least
/// ZENO_CONTACT_SET_MAX + 1 chars); returns buffer.
ZENO_API const char *zeno_contact_set_mode_name(const zeno_contact_set_mode *mode,
                                                int contact_count, char *buffer);

#ifdef __cplusplus
}
#endif
#endif
