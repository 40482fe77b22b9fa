// The units a scene is computed in (scene_units.c). Every decision of the
// library compares numbers with tolerances; for those decisions not to
// depend on the user's choice of units, the dynamics and the analysis run
// on a copy of the scene expressed in units of its own: its mass, its
// radius of gyration and its load. Each unit is a power of two, so the
// conversion both ways is exact (a scene already in such units, as the
// paper's with m = rho = |f| = 1, is computed bit for bit as given) and a
// scene converted once converts to itself. Not public API.
#ifndef ZENO_SCENE_SCENE_UNITS_H
#define ZENO_SCENE_SCENE_UNITS_H

#include <math.h>

#include "zeno/scene.h"

/// A scene's units, as exponents of two: mass 2^mass, length 2^length and
/// time 2^time; force, energy and the rest follow.
typedef struct scene_units {
  int mass, length, time;
} scene_units;

/// The dimension of a quantity: mass^m length^l time^t.
typedef struct scene_dim {
  int m, l, t;
} scene_dim;

#define SCENE_DIM_NONE ((scene_dim){0, 0, 0})
#define SCENE_DIM_MASS ((scene_dim){1, 0, 0})
#define SCENE_DIM_LENGTH ((scene_dim){0, 1, 0})
#define SCENE_DIM_TIME ((scene_dim){0, 0, 1})
#define SCENE_DIM_SPEED ((scene_dim){0, 1, -1})
#define SCENE_DIM_ACCEL ((scene_dim){0, 1, -2})
#define SCENE_DIM_RATE ((scene_dim){0, 0, -1})  ///< angular velocity
#define SCENE_DIM_FORCE ((scene_dim){1, 1, -2})
#define SCENE_DIM_IMPULSE ((scene_dim){1, 1, -1})
#define SCENE_DIM_ENERGY ((scene_dim){1, 2, -2})  ///< also a torque
/// Time per speed: a ZOD duration per unit approach speed (zeno_cycle.T).
#define SCENE_DIM_TIME_PER_SPEED ((scene_dim){0, -1, 2})

/// The size of a scene's load as a force, |f| + |tau| / rho [force]: the
/// scale of its contact forces (0 for an unloaded body).
static inline double scene_load_scale(const zeno_scene *s) {
  return fabs(s->load_magnitude) + fabs(s->load_torque) / s->rho;
}

/// The units of a scene: the powers of two nearest its mass, its radius of
/// gyration and its load |f| + |tau| / rho, the time unit following from
/// them (rounded down when they do not make a power of two; 1 for an
/// unloaded body). A scene in its own units has all exponents 0.
scene_units scene_units_of(const zeno_scene *scene);

/// True when all exponents are 0 (conversions are the identity).
static inline int scene_units_trivial(scene_units u) {
  return u.mass == 0 && u.length == 0 && u.time == 0;
}

/// A value of dimension d given in units u, in the user's units.
double scene_units_to_user(scene_units u, scene_dim d, double v);
/// A value in the user's units, in units u.
double scene_units_from_user(scene_units u, scene_dim d, double v);

/// The scene expressed in units u: every dimensional field divided by its
/// unit (angles, coefficients, tolerances, counts and the wall-clock limit
/// unchanged). `out` may be `scene`.
void scene_in_units(const zeno_scene *scene, scene_units u, zeno_scene *out);

#endif
