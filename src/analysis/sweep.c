// Outcome sweeps (zeno/sweep.h): the base scene with fixed overrides, then
// the two axis values as overrides (grid_scene.h, shared with region maps),
// simulated with zeno_run() at every grid point; rows spread over OpenMP
// threads.
#include "zeno/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/grid_scene.h"
#include "base/util.h"

struct zeno_sweep {
  grid_scene grid;  ///< the base scene, its fixed overrides and the axes
  zeno_sweep_def def;
};

void zeno_sweep_destroy(zeno_sweep *w) {
  if (w == NULL) return;
  grid_scene_free(&w->grid);
  free(w);
}

zeno_sweep *zeno_sweep_create(const char *scene_text, const char *name,
                              const char *const *overrides, size_t override_count,
                              const zeno_sweep_def *def, zeno_error *error) {
  zeno_error_clear(error);
  if (def == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene text and settings are required");
    return NULL;
  }
  zeno_sweep *w = calloc(1, sizeof *w);
  if (w == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  w->def = *def;
  if (grid_scene_init(&w->grid, scene_text, name, overrides, override_count, &def->x,
                      &def->y, error) != ZENO_OK) {
    free(w);
    return NULL;
  }
  // The base scene and the four corners load: unknown paths and
  // out-of-range ends now.
  zeno_scene base;
  if (grid_scene_base(&w->grid, &base, error) != ZENO_OK ||
      grid_scene_check_corners(&w->grid, error) != ZENO_OK) {
    zeno_sweep_destroy(w);
    return NULL;
  }
  return w;
}

const zeno_sweep_def *zeno_sweep_settings(const zeno_sweep *w) { return w ? &w->def : NULL; }

zeno_status zeno_sweep_point_run(const zeno_sweep *w, size_t ix, size_t iy,
                                 zeno_sweep_point *p, zeno_error *error) {
  if (w == NULL || p == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and point are required");
  if (ix >= w->def.x.count || iy >= w->def.y.count)
    return zeno_fail(error, ZENO_ERR_RANGE, "",
                     "grid point (%zu, %zu) out of range; allowed [0, %zu] x [0, %zu]", ix, iy,
                     w->def.x.count - 1, w->def.y.count - 1);
  memset(p, 0, sizeof *p);
  p->ix = ix;
  p->iy = iy;
  p->x = zeno_region_axis_value(&w->def.x, ix);
  p->y = zeno_region_axis_value(&w->def.y, iy);
  p->zeno_time = NAN;
  zeno_scene scene;
  zeno_error point_error;
  zeno_status st = grid_scene_load(&w->grid, p->x, p->y, &scene, &point_error);
  zeno_summary sum;
  if (st == ZENO_OK) st = zeno_run(&scene, NULL, &sum, NULL, 0, &point_error);
  if (st == ZENO_ERR_NOMEM) return zeno_fail(error, st, "", "out of memory");
  if (st != ZENO_OK) {
    // A scene that cannot be built or run here is this point's result.
    zeno_error_format(&point_error, p->error, sizeof p->error);
    return ZENO_OK;
  }
  p->ok = true;
  p->outcome = sum.outcome;
  p->t = sum.t;
  p->events = sum.events;
  p->impacts = sum.impacts;
  p->has_zeno = sum.has_zeno;
  if (sum.has_zeno) p->zeno_time = sum.zeno_time;
  memcpy(p->final_zod, sum.final_state.zod, sizeof p->final_zod);
  p->energy_gains = sum.energy_gains;
  return ZENO_OK;
}

/// A row being computed: the sweep, the row's index and its points.
typedef struct row_context {
  const zeno_sweep *w;
  size_t iy;
  zeno_sweep_point *row;
} row_context;

static zeno_status sweep_point(const void *context, size_t ix, zeno_error *error) {
  const row_context *c = context;
  return zeno_sweep_point_run(c->w, ix, c->iy, &c->row[ix], error);
}

zeno_status zeno_sweep_row(const zeno_sweep *w, size_t iy, int threads, zeno_sweep_point *row,
                           zeno_error *error) {
  if (w == NULL || row == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and row are required");
  if (iy >= w->def.y.count)
    return zeno_fail(error, ZENO_ERR_RANGE, "", "row %zu out of range; allowed [0, %zu]", iy,
                     w->def.y.count - 1);
  const row_context c = {w, iy, row};
  return grid_run_row(w->def.x.count, threads, sweep_point, &c, error);
}
