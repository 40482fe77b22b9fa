// Outcome sweeps (zeno/sweep.h): the base scene with fixed overrides, then
// the two axis values as overrides (grid_scene.h, shared with region maps),
// simulated with zeno_run() at every grid point; rows spread over OpenMP
// threads.
#include "zeno/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "grid/grid_scene.h"

/// Basin defaults: magnitudes (epsilon) from 0.01 to 1, the scene value's
/// range (0, 1]; edges bisected to 1e-3, a tenth of a percent of that range;
/// a returning run turned by at most 0.5 rad (about 29 degrees): the
/// equilibria a body of two closed contacts can slide along stay within a
/// small turn of a small perturbation's start, while a body that tipped
/// over rests turned by an O(1) angle (a block upside down: pi).
#define BASIN_LO_DEFAULT 0.01
#define BASIN_HI_DEFAULT 1.0
#define BASIN_TOL_DEFAULT 1e-3
#define BASIN_TURN_DEFAULT 0.5
/// The largest magnitude the scene accepts (epsilon's range is (0, 1]).
#define BASIN_HI_MAX 1.0
/// Bisection steps at most: the bracket halves each, so 60 reach any tol
/// above 1e-18 of the scan's step.
#define BASIN_STEPS_MAX 60

zeno_sweep_basin_def zeno_sweep_basin_def_default(void) {
  const zeno_sweep_basin_def d = {.count = 0,
                                  .lo = BASIN_LO_DEFAULT,
                                  .hi = BASIN_HI_DEFAULT,
                                  .tol = BASIN_TOL_DEFAULT,
                                  .turn_max = BASIN_TURN_DEFAULT};
  return d;
}

zeno_sweep_def zeno_sweep_def_default(void) {
  zeno_sweep_def d;
  memset(&d, 0, sizeof d);
  d.basin = zeno_sweep_basin_def_default();
  return d;
}

struct zeno_sweep {
  grid_scene grid;  ///< the base scene, its fixed overrides and the axes
  zeno_sweep_def def;
};

/* ---- basin estimate ---- */

// The basin settings, and whether the scene allows them (its first grid
// point: the axes' paths decide the model and the kind of start alike at
// every point).
static zeno_status basin_check(const zeno_sweep *w, zeno_error *error) {
  const zeno_sweep_basin_def *b = &w->def.basin;
  if (b->count == 0) return ZENO_OK;
  if (b->count < 2 || b->count > ZENO_REGION_AXIS_MAX)
    return zeno_fail(error, ZENO_ERR_RANGE, "basin", "%zu magnitudes out of range; allowed [2, %d]",
                     b->count, ZENO_REGION_AXIS_MAX);
  if (!(b->lo > 0 && b->lo < b->hi && b->hi <= BASIN_HI_MAX))
    return zeno_fail(error, ZENO_ERR_RANGE, "basin",
                     "magnitudes %g to %g out of range; allowed 0 < LO < HI <= %g (the "
                     "scene's epsilon)",
                     b->lo, b->hi, BASIN_HI_MAX);
  if (!(b->tol > 0 && isfinite(b->tol)))
    return zeno_fail(error, ZENO_ERR_RANGE, "basin", "tolerance %g out of range; allowed (0, inf)",
                     b->tol);
  if (!(b->turn_max > 0 && b->turn_max <= ZENO_PI))
    return zeno_fail(error, ZENO_ERR_RANGE, "basin",
                     "largest turn %g rad out of range; allowed (0, pi]", b->turn_max);
  if (strcmp(w->def.x.path, "epsilon") == 0 || strcmp(w->def.y.path, "epsilon") == 0)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "basin",
                     "epsilon is the basin estimate's magnitude; it cannot be an axis too");
  zeno_scene s;
  const zeno_status st = grid_scene_load(&w->grid, w->def.x.lo, w->def.y.lo, &s, error);
  if (st != ZENO_OK) return st;
  if (s.model != ZENO_MODEL_FULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "basin",
                     "a basin estimate needs the full model (model: full): the ZOD is "
                     "homogeneous (eq. (24)), so a perturbation's magnitude cannot change "
                     "its outcome");
  if (s.initial_kind != ZENO_INITIAL_ZOD)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "basin",
                     "a basin estimate scales a start given as initial.qp and initial.qdp "
                     "(epsilon); this scene starts from a pose");
  return ZENO_OK;
}

// One run of `scene` at magnitude m: *returns when it ends at rest turned
// by at most turn_max from its start. A run that cannot start (no pose
// reaches the scaled q') fails with its error, the magnitude named.
static zeno_status basin_run(const zeno_sweep *w, const zeno_scene *scene, double m,
                             const zeno_interrupt *interrupt, bool *returns, zeno_error *error) {
  zeno_scene s = *scene;
  s.epsilon = m;
  zeno_sim_def d = zeno_sim_def_default();
  d.keep_history = false;
  d.interrupt = *interrupt;
  zeno_sim *sim = zeno_sim_create(&s, &d, error);
  if (sim == NULL) return error->code;
  zeno_event ev;
  zeno_status st;
  double theta0 = NAN;
  while ((st = zeno_sim_next_event(sim, &ev, error)) == ZENO_OK)
    if (ev.index == 0) theta0 = ev.after.q[2];
  zeno_summary sum;
  zeno_sim_summary(sim, &sum);
  zeno_sim_destroy(sim);
  if (st != ZENO_DONE) return st;
  *returns = sum.outcome == ZENO_OUTCOME_REST &&
             fabs(sum.final_state.q[2] - theta0) <= w->def.basin.turn_max;
  return ZENO_OK;
}

// Bisects [a, b] (a returns, b does not) down to tol; returns the
// returning end and widens *width to the bracket left.
static zeno_status basin_bisect(const zeno_sweep *w, const zeno_scene *scene, double a, double b,
                                const zeno_interrupt *interrupt, double *edge, double *width,
                                zeno_error *error) {
  for (int k = 0; k < BASIN_STEPS_MAX && b - a > w->def.basin.tol; k++) {
    const double mid = 0.5 * (a + b);
    bool returns = false;
    const zeno_status st = basin_run(w, scene, mid, interrupt, &returns, error);
    if (st != ZENO_OK) return st;
    if (returns) a = mid;
    else b = mid;
  }
  *edge = a;
  if (b - a > *width) *width = b - a;
  return ZENO_OK;
}

static double basin_magnitude(const zeno_sweep_basin_def *b, size_t k) {
  return k + 1 == b->count ? b->hi : b->lo + (b->hi - b->lo) * (double)k / (double)(b->count - 1);
}

// The scan and the bisection of its first and last edges.
static zeno_status basin_estimate(const zeno_sweep *w, const zeno_scene *scene,
                                  const zeno_interrupt *interrupt, zeno_sweep_point *p,
                                  zeno_error *error) {
  const zeno_sweep_basin_def *b = &w->def.basin;
  const size_t n = b->count;
  size_t first_fail = n, last_return = n;  // n: none
  bool previous = false;
  for (size_t k = 0; k < n; k++) {
    bool returns = false;
    const zeno_status st = basin_run(w, scene, basin_magnitude(b, k), interrupt, &returns, error);
    if (st != ZENO_OK) return st;
    if (returns) {
      p->basin_returns++;
      last_return = k;
    } else if (first_fail == n) {
      first_fail = k;
    }
    if (k > 0 && returns != previous) p->basin_transitions++;
    previous = returns;
  }
  p->basin_inner = p->basin_outer = NAN;
  if (first_fail == n) {
    p->basin_inner = p->basin_outer = b->hi;
    return ZENO_OK;
  }
  zeno_status st = ZENO_OK;
  if (first_fail > 0)
    st = basin_bisect(w, scene, basin_magnitude(b, first_fail - 1), basin_magnitude(b, first_fail),
                      interrupt, &p->basin_inner, &p->basin_width, error);
  if (st != ZENO_OK || last_return == n) return st;
  if (last_return + 1 == n) p->basin_outer = b->hi;
  else if (last_return + 1 == first_fail) p->basin_outer = p->basin_inner;  // monotone
  else
    st = basin_bisect(w, scene, basin_magnitude(b, last_return),
                      basin_magnitude(b, last_return + 1), interrupt, &p->basin_outer,
                      &p->basin_width, error);
  return st;
}

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
  if (grid_scene_init(&w->grid, scene_text, name, overrides, override_count, &def->x, &def->y,
                      error) != ZENO_OK) {
    free(w);
    return NULL;
  }
  // The base scene and the four corners load: unknown paths and
  // out-of-range ends now, and a scene the engine cannot run.
  zeno_scene base;
  if (grid_scene_base(&w->grid, &base, error) != ZENO_OK ||
      grid_scene_check_corners(&w->grid, error) != ZENO_OK || basin_check(w, error) != ZENO_OK) {
    zeno_sweep_destroy(w);
    return NULL;
  }
  return w;
}

const zeno_sweep_def *zeno_sweep_settings(const zeno_sweep *w) { return w ? &w->def : NULL; }

/// Failures of the call, not of the point: out of memory, a stop.
static zeno_status call_failure(zeno_status st, const zeno_error *point_error, zeno_error *error) {
  if (st == ZENO_ERR_NOMEM) return zeno_fail(error, st, "", "out of memory");
  if (error) *error = *point_error;  // ZENO_ERR_INTERRUPTED
  return st;
}

// One point under the interrupt of its thread (zeno_sweep_point_run()).
static zeno_status point_run(const zeno_sweep *w, size_t ix, size_t iy,
                             const zeno_interrupt *interrupt, zeno_sweep_point *p,
                             zeno_error *error) {
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
  p->basin_inner = p->basin_outer = NAN;
  zeno_scene scene;
  zeno_error point_error;
  zeno_status st = grid_scene_load(&w->grid, p->x, p->y, &scene, &point_error);
  zeno_summary sum;
  zeno_sim_def def = zeno_sim_def_default();
  def.interrupt = *interrupt;
  if (st == ZENO_OK) st = zeno_run(&scene, &def, &sum, NULL, 0, &point_error);
  if (st == ZENO_ERR_NOMEM || st == ZENO_ERR_INTERRUPTED)
    return call_failure(st, &point_error, error);
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
  if (w->def.basin.count == 0) return ZENO_OK;
  st = basin_estimate(w, &scene, interrupt, p, &point_error);
  if (st == ZENO_ERR_NOMEM || st == ZENO_ERR_INTERRUPTED)
    return call_failure(st, &point_error, error);
  if (st != ZENO_OK) {
    // A magnitude that cannot be run makes the point an error point.
    p->ok = false;
    zeno_error_format(&point_error, p->error, sizeof p->error);
  }
  return ZENO_OK;
}

zeno_status zeno_sweep_point_run(const zeno_sweep *w, size_t ix, size_t iy, zeno_sweep_point *p,
                                 zeno_error *error) {
  if (w == NULL || p == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and point are required");
  return point_run(w, ix, iy, &w->def.interrupt, p, error);
}

/// A row being computed: the sweep, the row's index and its points.
typedef struct row_context {
  const zeno_sweep *w;
  size_t iy;
  zeno_sweep_point *row;
} row_context;

static zeno_status sweep_point(const void *context, size_t ix, const zeno_interrupt *interrupt,
                               zeno_error *error) {
  const row_context *c = context;
  return point_run(c->w, ix, c->iy, interrupt, &c->row[ix], error);
}

zeno_status zeno_sweep_row(const zeno_sweep *w, size_t iy, int threads, zeno_sweep_point *row,
                           zeno_error *error) {
  if (w == NULL || row == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and row are required");
  if (iy >= w->def.y.count)
    return zeno_fail(error, ZENO_ERR_RANGE, "", "row %zu out of range; allowed [0, %zu]", iy,
                     w->def.y.count - 1);
  const row_context c = {w, iy, row};
  return grid_run_row(w->def.x.count, threads, sweep_point, &c, &w->def.interrupt, error);
}
