// A base scene with fixed overrides and two swept values: what region maps
// (regions.c) and outcome sweeps (sweep.c) load at every grid point. Not
// public API.
#ifndef ZENO_GRID_GRID_SCENE_H
#define ZENO_GRID_GRID_SCENE_H

#include <stddef.h>

#include "base/parallel.h"
#include "zeno/regions.h"

/// Fixed overrides a grid accepts (beyond them a scene file is clearer).
#define GRID_FIXED_MAX 256

typedef struct grid_scene {
  char *text;    ///< the base scene text
  char *name;    ///< its name for messages
  char **fixed;  ///< fixed overrides, applied before the axis values
  size_t fixed_count;
  zeno_region_axis x, y;
  /// The text parsed with the fixed overrides applied, loaded at each
  /// point (NULL when that failed: the points then load the text and
  /// report its error).
  struct scene_prepared *prepared;
  /// Each axis value's override "path=value" (%.17g), made once: the points
  /// of a row share y, a column's share x, and formatting them at every
  /// point was a tenth of a point's cost where the equilibrium is decided
  /// at once.
  char *x_text, *y_text;
} grid_scene;

/// Checks an axis: 1..ZENO_REGION_AXIS_MAX points, a dotted path without
/// '=', finite ends (which: "x" or "y", for messages).
zeno_status grid_axis_check(const zeno_region_axis *axis, const char *which, zeno_error *error);

/// Checks the arguments and both axes (distinct paths) and copies text,
/// name and overrides. On failure nothing is left to free.
zeno_status grid_scene_init(grid_scene *grid, const char *text, const char *name,
                            const char *const *overrides, size_t override_count,
                            const zeno_region_axis *x, const zeno_region_axis *y,
                            zeno_error *error);

void grid_scene_free(grid_scene *grid);

/// The base scene with its fixed overrides only.
zeno_status grid_scene_base(const grid_scene *grid, zeno_scene *scene, zeno_error *error);

/// The scene at axis values (x, y).
zeno_status grid_scene_load(const grid_scene *grid, double x, double y, zeno_scene *scene,
                            zeno_error *error);

/// The four corners load: unknown paths and out-of-range ends are reported
/// before any work.
zeno_status grid_scene_check_corners(const grid_scene *grid, zeno_error *error);

/// Runs points 0..n-1 of a row (the context holds the row; point ix is
/// computed and stored by `point`) on `threads` OpenMP threads (<= 0: all),
/// one at a time, each worker freeing its LP state at the end; the error of
/// the lowest failing point is the row's. `interrupt` (the sweep's) stops
/// the row, ZENO_ERR_INTERRUPTED (parallel_run()).
zeno_status grid_run_row(size_t n, int threads, parallel_item_fn point, const void *context,
                         const zeno_interrupt *interrupt, zeno_error *error);

#endif
