// Outcome sweeps: the scene simulated at every point of a grid of two scene
// values, typically the perturbation (initial.qdp, initial.velocity ...):
// how each run ends (rest, escaped, diverging, ...), when, after how many
// impacts, whether it completed a Zeno sequence, and where it came to rest.
// The ZOD is homogeneous, so the natural domain is the perturbation's
// direction; with the full model its size matters too (a basin estimate).
// Points run on OpenMP threads (zeno_regions_threads()). The axes are
// region-map axes ("PATH=LO:HI:N", zeno_region_axis_parse()).
#ifndef ZENO_SWEEP_H
#define ZENO_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/interrupt.h"
#include "zeno/regions.h"
#include "zeno/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One point of a sweep.
typedef struct zeno_sweep_point {
  size_t ix, iy;         ///< grid indices
  double x, y;           ///< the axis values
  bool ok;               ///< simulated; false: `error` says why (a bad scene there)
  zeno_outcome outcome;  ///< how the run ended
  double t;              ///< when [time]
  long events, impacts;  ///< of the run
  bool has_zeno;         ///< a Zeno sequence was completed
  double zeno_time;      ///< the first accumulation point [time]; NaN without
  double final_zod[3];   ///< q' at the end (rest point: x2 = final_zod[2]) [length]
  long energy_gains;     ///< impacts that added energy (Newton's law with friction)
  /// Basin estimate (zeno_sweep_basin_def.count > 0), magnitudes are the
  /// scene's epsilon [-]. basin_inner: every scanned magnitude below it
  /// returns (the edge after the first run that does not, bisected); NaN
  /// when the smallest does not return. basin_outer: the largest magnitude
  /// found to return (the edge after the last returning scanned magnitude,
  /// bisected); NaN when none returns. Both are the scan's hi when every
  /// scanned magnitude returns. They differ only for a non-monotone basin.
  double basin_inner, basin_outer;
  /// The widest bisection bracket left (0 when no edge was bisected) [-].
  double basin_width;
  int basin_returns;                   ///< scanned magnitudes that returned
  int basin_transitions;               ///< changes between returning and not along the scan
  char error[ZENO_REGION_ERROR_SIZE];  ///< why the point was not simulated; "" when ok
} zeno_sweep_point;

/// Basin estimate (full model only): per grid point, typically a
/// perturbation direction given by initial.qp/qdp, the perturbation's
/// magnitude is the scene's epsilon (positions eps^2 q'(0), velocities
/// eps q'dot(0)). `count` magnitudes from lo to hi are scanned, then every
/// edge between a returning and a non-returning one is bisected to `tol`.
/// A run returns when it ends at rest with the body turned by at most
/// `turn_max` from its start: a body that tipped over and rests elsewhere
/// is not in the basin of the equilibrium it started at.
typedef struct zeno_sweep_basin_def {
  size_t count;     ///< magnitudes scanned, 0 (no estimate) or 2..ZENO_REGION_AXIS_MAX
  double lo, hi;    ///< scanned range, 0 < lo < hi <= 1 (epsilon's range) [-]
  double tol;       ///< bisection bracket width, > 0 [-]
  double turn_max;  ///< largest turn of a returning run, (0, pi] [rad]
} zeno_sweep_basin_def;

/// Settings: the two axes and the basin estimate. Any scene path is
/// allowed, initial.* included (epsilon not with a basin estimate).
typedef struct zeno_sweep_def {
  zeno_region_axis x, y;
  zeno_sweep_basin_def basin;
  /// Asked on the calling thread between points and between the events of
  /// each point's runs: a stop ends zeno_sweep_row() and
  /// zeno_sweep_point_run() with ZENO_ERR_INTERRUPTED, the row's points not
  /// to be used. Zero: none.
  zeno_interrupt interrupt;
} zeno_sweep_def;
/// Axes unset (count 0), the default basin settings (no estimate), no
/// interrupt: a definition to fill field by field.
ZENO_API zeno_sweep_def zeno_sweep_def_default(void);

/// Default basin settings: no estimate (count 0), lo 0.01, hi 1, tol 1e-3,
/// turn_max 0.5 rad.
ZENO_API zeno_sweep_basin_def zeno_sweep_basin_def_default(void);

/// Opaque sweep.
typedef struct zeno_sweep zeno_sweep;

/// Creates a sweep over the YAML scene text (`name` for messages) with fixed
/// overrides applied before the two swept ones. The base scene and the four
/// corners load here, so an unknown path or an out-of-range end fails here,
/// naming the parameter and its range. A basin estimate is refused
/// (ZENO_ERR_ARGUMENT) for the ZOD, which is homogeneous (eq. (24)): the
/// magnitude cannot change an outcome; for a start given as a pose, which
/// epsilon does not scale; and with epsilon as an axis. NULL with `error`
/// filled on failure.
ZENO_API zeno_sweep *zeno_sweep_create(const char *scene_text, const char *name,
                                       const char *const *overrides, size_t override_count,
                                       const zeno_sweep_def *def, zeno_error *error);

/// Destroys a sweep (NULL is accepted).
ZENO_API void zeno_sweep_destroy(zeno_sweep *sweep);

/// The settings the sweep was created with.
ZENO_API const zeno_sweep_def *zeno_sweep_settings(const zeno_sweep *sweep);

/// Simulates one point (and with a basin estimate, its scan and
/// bisections; the outcome fields are the run at the scene's epsilon). A point whose scene cannot be built (a degenerate
/// geometry there) is returned with ok = false and its message; the status
/// is then ZENO_OK. Errors: ZENO_ERR_ARGUMENT, ZENO_ERR_RANGE (indices),
/// ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_sweep_point_run(const zeno_sweep *sweep, size_t ix, size_t iy,
                                          zeno_sweep_point *point, zeno_error *error);

/// Simulates row iy (x.count points) on `threads` OpenMP threads (<= 0:
/// all, at most ZENO_REGIONS_MAX_THREADS); the error of the lowest failing
/// point is the row's. ZENO_ERR_RANGE for threads above
/// ZENO_REGIONS_MAX_THREADS.
ZENO_API zeno_status zeno_sweep_row(const zeno_sweep *sweep, size_t iy, int threads,
                                    zeno_sweep_point *row, zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
