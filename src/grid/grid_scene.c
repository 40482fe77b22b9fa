// A base scene with fixed overrides and two swept values (grid_scene.h).
#include "grid/grid_scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "base/util.h"
#include "dynamics/lp.h"
#include "scene/scene_prepared.h"

/// Room for one "path=value" override with a round-trip number.
#define GRID_OVERRIDE_SIZE (ZENO_REGION_PATH_SIZE + 32)

static char *copy_text(const char *text) {
  const size_t n = strlen(text) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, text, n);
  return c;
}

zeno_status grid_axis_check(const zeno_region_axis *a, const char *which, zeno_error *error) {
  if (a->count < 1 || a->count > ZENO_REGION_AXIS_MAX)
    return zeno_fail(error, ZENO_ERR_RANGE, which,
                     "%s axis: %zu points out of range; allowed [1, %d]", which, a->count,
                     ZENO_REGION_AXIS_MAX);
  if (a->path[0] == '\0' || memchr(a->path, '\0', sizeof a->path) == NULL ||
      strchr(a->path, '=') != NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, which,
                     "%s axis: a dotted scene path without '=' is required", which);
  if (!isfinite(a->lo) || !isfinite(a->hi))
    return zeno_fail(error, ZENO_ERR_RANGE, a->path, "%s axis: LO and HI must be finite", which);
  return ZENO_OK;
}

// "path=value" of a value, %.17g: the value round-trips.
static void format_override(const zeno_region_axis *a, double v, char *out) {
  snprintf(out, GRID_OVERRIDE_SIZE, "%s=%.17g", a->path, v);
}

// Every value's override of an axis, GRID_OVERRIDE_SIZE bytes apart.
static char *axis_texts(const zeno_region_axis *a) {
  char *t = malloc(a->count * GRID_OVERRIDE_SIZE);
  for (size_t i = 0; t != NULL && i < a->count; i++)
    format_override(a, zeno_region_axis_value(a, i), t + i * GRID_OVERRIDE_SIZE);
  return t;
}

// The override of value v of an axis: the one made for its index when v is
// that axis value exactly, else formatted into buf.
static const char *axis_override(const zeno_region_axis *a, const char *texts, double v,
                                 char *buf) {
  if (texts != NULL) {
    const double span = a->hi - a->lo;
    const double t = a->count > 1 && span != 0 ? (v - a->lo) / span * (double)(a->count - 1) : 0;
    if (t >= 0 && t <= (double)(a->count - 1)) {
      const size_t i = (size_t)lround(t);
      if (zeno_region_axis_value(a, i) == v) return texts + i * GRID_OVERRIDE_SIZE;
    }
  }
  format_override(a, v, buf);
  return buf;
}

void grid_scene_free(grid_scene *g) {
  if (g == NULL) return;
  free(g->x_text);
  free(g->y_text);
  scene_prepared_free(g->prepared);
  for (size_t i = 0; i < g->fixed_count; i++) free(g->fixed[i]);
  free(g->fixed);
  free(g->text);
  free(g->name);
  memset(g, 0, sizeof *g);
}

zeno_status grid_scene_init(grid_scene *g, const char *text, const char *name,
                            const char *const *overrides, size_t override_count,
                            const zeno_region_axis *x, const zeno_region_axis *y,
                            zeno_error *error) {
  memset(g, 0, sizeof *g);
  if (text == NULL || x == NULL || y == NULL || (override_count > 0 && overrides == NULL))
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene text and settings are required");
  if (override_count > GRID_FIXED_MAX)
    return zeno_fail(error, ZENO_ERR_RANGE, "", "%zu overrides; at most %d are allowed",
                     override_count, GRID_FIXED_MAX);
  zeno_status st = grid_axis_check(x, "x", error);
  if (st == ZENO_OK) st = grid_axis_check(y, "y", error);
  if (st != ZENO_OK) return st;
  if (strcmp(x->path, y->path) == 0)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, x->path,
                     "the x and y axes sweep the same parameter '%s'", x->path);
  for (size_t i = 0; i < override_count; i++)
    if (overrides[i] == NULL)
      return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "override %zu is NULL", i + 1);
  g->x = *x;
  g->y = *y;
  g->text = copy_text(text);
  g->name = copy_text(name ? name : "");
  g->fixed = calloc(override_count + 1, sizeof *g->fixed);
  bool ok = g->text && g->name && g->fixed;
  for (; ok && g->fixed_count < override_count; g->fixed_count++) {
    g->fixed[g->fixed_count] = copy_text(overrides[g->fixed_count]);
    ok = g->fixed[g->fixed_count] != NULL;
  }
  if (ok) {
    g->x_text = axis_texts(x);
    g->y_text = axis_texts(y);
    ok = g->x_text && g->y_text;
  }
  if (ok) {
    // Parsed once for every point. A text or fixed override that fails is
    // reported by the loads themselves, exactly as without; running out of
    // memory here is reported now.
    zeno_error failed;
    const zeno_status st_prep = scene_prepare(g->text, g->name, (const char *const *)g->fixed,
                                              g->fixed_count, &g->prepared, &failed);
    if (st_prep != ZENO_ERR_NOMEM) return ZENO_OK;
  }
  grid_scene_free(g);
  return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
}

zeno_status grid_scene_base(const grid_scene *g, zeno_scene *scene, zeno_error *error) {
  return zeno_scene_load_string(g->text, g->name, (const char *const *)g->fixed, g->fixed_count,
                                scene, error);
}

zeno_status grid_scene_load(const grid_scene *g, double x, double y, zeno_scene *scene,
                            zeno_error *error) {
  const char *items[GRID_FIXED_MAX + 2];
  char xs[GRID_OVERRIDE_SIZE], ys[GRID_OVERRIDE_SIZE];
  for (size_t i = 0; i < g->fixed_count; i++) items[i] = g->fixed[i];
  items[g->fixed_count] = axis_override(&g->x, g->x_text, x, xs);
  items[g->fixed_count + 1] = axis_override(&g->y, g->y_text, y, ys);
  if (g->prepared) return scene_prepared_load(g->prepared, items + g->fixed_count, 2, scene, error);
  return zeno_scene_load_string(g->text, g->name, items, g->fixed_count + 2, scene, error);
}

zeno_status grid_scene_check_corners(const grid_scene *g, zeno_error *error) {
  const size_t xs[2] = {0, g->x.count - 1}, ys[2] = {0, g->y.count - 1};
  zeno_status st = ZENO_OK;
  for (int i = 0; i < 2 && st == ZENO_OK; i++)
    for (int j = 0; j < 2 && st == ZENO_OK; j++) {
      zeno_scene s;
      st = grid_scene_load(g, zeno_region_axis_value(&g->x, xs[i]),
                           zeno_region_axis_value(&g->y, ys[j]), &s, error);
    }
  return st;
}

zeno_status grid_run_row(size_t n, int threads, parallel_item_fn point, const void *context,
                         const zeno_interrupt *interrupt, zeno_error *error) {
  // GLPK keeps an environment per thread (any LP a point solved).
  return parallel_run(n, threads, ZENO_REGIONS_MAX_THREADS, 1, point, context, interrupt,
                      lp_thread_done, error);
}

double zeno_region_axis_value(const zeno_region_axis *axis, size_t i) {
  if (axis->count <= 1 || i == 0) return axis->lo;
  if (i >= axis->count - 1) return axis->hi;
  return axis->lo + (axis->hi - axis->lo) * ((double)i / (double)(axis->count - 1));
}
