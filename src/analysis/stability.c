// Verdicts on a two-contact equilibrium (zeno/stability.h): persistence
// (Definition 4), Theorems 1-4 (paper Sec. 7) with the regions 0-7 of
// Example 6, and Theorem 4's partition (its graph: stability_graph.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_units.h"
#include "analysis/stability_internal.h"
#include "base/util.h"
#include "dynamics/contact_solve.h"
#include "dynamics/kinematics.h"
#include "dynamics/mode_table.h"
#include "maps/poincare_internal.h"
#include "zeno/impact_law.h"
#include "zeno/stability.h"

/// Strictness of Definition 4's inequalities, relative to the load.
#define VERDICT_FORCE_RTOL 1e-10
/// Partition edges closer than this coincide [rad] (a breakpoint or fixed
/// point on a uniform edge, up to rounding of pi).
#define VERDICT_EDGE_MERGE 1e-15

const char *zeno_verdict_name(zeno_verdict v) {
  switch (v) {
    case ZENO_VERDICT_STABLE: return "stable";
    case ZENO_VERDICT_UNSTABLE: return "unstable";
    default: return "undecided";
  }
}

zeno_analysis_def zeno_analysis_def_default(void) {
  zeno_analysis_def d = {
      .maps = zeno_maps_def_default(), .partition_intervals = 300, .maps_when_undecided = true};
  return d;
}

/* ---------- Definition 4 ---------- */

static bool zod_dyn(const zeno_scene *scene, kinematics_model *km, contact_dyn *d,
                    zeno_error *error) {
  if (kinematics_model_init(km, scene, error) != ZENO_OK) return false;
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(d, km->n, km->W0, km->inv_mass, km->h, bias, km->mu);
  return true;
}

// Sign of xdot1 / xdot2 when both contacts stay closed (one degree of
// freedom left): +1 when PP and NN are kinematically feasible, -1 for PN, NP.
static int two_slip_sign(const kinematics_model *km) {
  // Null vector of the two normal rows: cross product of the columns z1, z2.
  const double a[3] = {km->W0[0][0], km->W0[1][0], km->W0[2][0]};
  const double b[3] = {km->W0[0][2], km->W0[1][2], km->W0[2][2]};
  const double v[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0]};
  double x1 = 0, x2 = 0;
  for (int k = 0; k < 3; k++) {
    x1 += km->W0[k][1] * v[k];
    x2 += km->W0[k][3] * v[k];
  }
  return x1 * x2 > 0 ? 1 : -1;
}

// Definition 4 for a scene whose equilibrium report is known.
static zeno_status persistent_given(const zeno_scene *scene, const zeno_equilibrium_report *rep,
                                    bool *persistent, zeno_error *error) {
  kinematics_model km;
  contact_dyn d;
  if (!zod_dyn(scene, &km, &d, error)) return error ? error->code : ZENO_ERR_GEOMETRY;
  const double tol = VERDICT_FORCE_RTOL * km.force_scale;
  const double atol = VERDICT_FORCE_RTOL * km.accel_scale;
  *persistent = rep->ambiguous_count == 0;  // requirement 1
  // Requirement 2: single-contact slip modes either pull the slipping
  // contact off (f_n < 0) or press the free contact down (zddot_j < 0).
  static const unsigned char single[4][2] = {{ZENO_LETTER_P, ZENO_LETTER_F},
                                             {ZENO_LETTER_N, ZENO_LETTER_F},
                                             {ZENO_LETTER_F, ZENO_LETTER_P},
                                             {ZENO_LETTER_F, ZENO_LETTER_N}};
  for (int k = 0; k < 4 && *persistent; k++) {
    zeno_mode m = {{single[k][0], single[k][1]}};
    mode_solution sol;
    if (!mode_solve(&d, m, &sol)) {
      *persistent = false;
      break;
    }
    const int i = single[k][0] == ZENO_LETTER_F ? 1 : 0, j = 1 - i;
    *persistent = sol.force[2 * i] < -tol || sol.acc[2 * j] < -atol;
  }
  // Requirement 3: kinematically feasible two-slip modes press both contacts.
  const int sign = two_slip_sign(&km);
  const unsigned char a = ZENO_LETTER_P, b = sign > 0 ? ZENO_LETTER_P : ZENO_LETTER_N;
  const zeno_mode two[2] = {{{a, b}},
                            {{ZENO_LETTER_N, b == ZENO_LETTER_P ? ZENO_LETTER_N : ZENO_LETTER_P}}};
  for (int k = 0; k < 2 && *persistent; k++) {
    mode_solution sol;
    if (!mode_solve(&d, two[k], &sol)) {
      *persistent = false;
      break;
    }
    *persistent = sol.force[0] > tol && sol.force[2] > tol;
  }
  return ZENO_OK;
}

zeno_status zeno_persistent(const zeno_scene *scene, bool *persistent, zeno_error *error) {
  if (scene == NULL || persistent == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and result are required");
  if (zeno_scene_require_pair(scene, error) != ZENO_OK) return ZENO_ERR_UNSUPPORTED;
  if (scene->contact_count != 2)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "contacts",
                     "persistence (Definition 4) needs two contacts");
  zeno_status st = zeno_scene_validate(scene, error);  // errors quote the user's values
  if (st != ZENO_OK) return st;
  zeno_scene own;  // in its own units (scene_units.h)
  scene_in_units(scene, scene_units_of(scene), &own);
  zeno_equilibrium_report rep;
  st = zeno_equilibrium_check(&own, &rep, error);
  return st == ZENO_OK ? persistent_given(&own, &rep, persistent, error) : st;
}

/* ---------- Theorem 4 ---------- */

static int cmp_double(const void *pa, const void *pb) {
  const double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

// Edges: uniform points, breakpoints and finite fixed points (so R - phi
// keeps its sign inside every interval, condition 3 of Definition 5).
static size_t build_partition(const zeno_maps *m, size_t uniform, double *e) {
  size_t n = 0;
  e[n++] = -ZENO_PI / 2;
  for (size_t k = 1; k < uniform && n < ZENO_MAX_PARTITION - 1; k++)
    e[n++] = -ZENO_PI / 2 + (double)k * ZENO_PI / (double)uniform;
  for (size_t k = 0; k < m->breakpoint_count && n < ZENO_MAX_PARTITION - 1; k++)
    e[n++] = m->breakpoints[k];
  for (size_t k = 0; k < m->fixed_point_count && n < ZENO_MAX_PARTITION - 1; k++)
    if (!m->fixed_points[k].limiting) e[n++] = m->fixed_points[k].phi;
  e[n++] = ZENO_PI / 2;
  qsort(e, n, sizeof *e, cmp_double);
  size_t w = 1;  // drop duplicates
  for (size_t k = 1; k < n; k++)
    if (e[k] > e[w - 1] + VERDICT_EDGE_MERGE) e[w++] = e[k];
  return w - 1;  // intervals
}

// Definition 5 on the refined uniform partition: builds its interval graph,
// checks it and keeps the partition and its classes in the analysis.
static zeno_status stable_partition(const zeno_maps *m, size_t uniform, zeno_analysis *a,
                                    zeno_partition_verdict *v, zeno_error *error) {
  const size_t n = build_partition(m, uniform, a->partition);
  a->partition_count = n;
  zeno_interval_graph g;
  zeno_status st = zeno_interval_graph_build(m, a->partition, n, &g, error);
  if (st == ZENO_OK) st = zeno_partition_stable(m, &g, v, error);
  if (st == ZENO_OK) {
    for (size_t i = 0; i < n; i++) a->safe[i] = g.intervals[i].safe;
    a->unsafe_count = v->unsafe_count;
  }
  zeno_interval_graph_free(&g);
  return st;
}

/* ---------- the verdict ---------- */

static void set(zeno_analysis *a, zeno_verdict v, int theorem, int region, const char *reason) {
  a->verdict = v;
  a->theorem = theorem;
  a->region = region;
  snprintf(a->reason, sizeof a->reason, "%s", reason);
}

static zeno_status check_partition(const zeno_analysis_def *d, zeno_error *error) {
  if (d->partition_intervals < ZENO_MIN_PARTITION ||
      d->partition_intervals > ZENO_MAX_PARTITION / 2)
    return zeno_fail(error, ZENO_ERR_RANGE, "partition_intervals",
                     "value %zu out of range; allowed [%d, %d]", d->partition_intervals,
                     ZENO_MIN_PARTITION, ZENO_MAX_PARTITION / 2);
  return ZENO_OK;
}

zeno_status zeno_analysis_def_validate(const zeno_analysis_def *d, zeno_error *error) {
  if (d == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "settings are required");
  const zeno_status st = check_partition(d, error);
  return st == ZENO_OK ? zeno_maps_def_validate(&d->maps, error) : st;
}

// The analysis of a scene in its own units (scene_units.h).
static zeno_status analyze_in_own_units(const zeno_scene *scene, const zeno_analysis_def *def,
                                        zeno_analysis *a, zeno_error *error) {
  const zeno_analysis_def d = def ? *def : zeno_analysis_def_default();
  // The maps' settings are checked where the maps are computed: scenes
  // decided before them (infeasible, Painlevé, ambiguous) never use them.
  zeno_status st = check_partition(&d, error);
  if (st != ZENO_OK) return st;
  st = zeno_equilibrium_check(scene, &a->equilibrium, error);
  if (st != ZENO_OK) return st;
  const zeno_equilibrium_report *eq = &a->equilibrium;
  if (!eq->feasible) {
    set(a, ZENO_VERDICT_UNSTABLE, 0, 0, "no static equilibrium: SS is not consistent");
    return ZENO_OK;
  }
  if (!eq->painleve_ok[0] || !eq->painleve_ok[1]) {
    set(a, ZENO_VERDICT_UNDECIDED, 0, 1,
        "a slipping contact is exposed to Painlevé's paradox (bound (11))");
    return ZENO_OK;
  }
  if (eq->ambiguous_count > 0) {
    set(a, ZENO_VERDICT_UNSTABLE, 1, 6,
        "ambiguous equilibrium: a non-static mode is consistent at rest (Theorem 1)");
    return ZENO_OK;
  }
  // The equilibrium was just checked: Definition 4 reuses its report.
  st = persistent_given(scene, &a->equilibrium, &a->persistent, error);
  // Theorems 2-4 and Definition 4 are proved for the inelastic law (15):
  // with another law the maps are computed to be drawn (maps_when_undecided)
  // but decide nothing, whatever they show.
  const bool decides = zeno_impact_law_info_of(scene->impact_law).paper_theorems;
  if (st == ZENO_OK && (decides || d.maps_when_undecided)) {
    st = zeno_maps_compute(scene, &d.maps, &a->maps, error);
    a->has_maps = st == ZENO_OK;
  }
  if (st != ZENO_OK) return st;
  if (!decides) {
    char r[ZENO_REASON_SIZE];
    snprintf(r, sizeof r,
             "Theorems 2-4 assume the inelastic impact law (15); with the %s law "
             "the maps %s",
             zeno_impact_law_name(scene->impact_law),
             a->has_maps ? "are computed but decide nothing" : "decide nothing (not computed)");
    set(a, ZENO_VERDICT_UNDECIDED, 0, 7, r);
    return ZENO_OK;
  }
  const zeno_maps *m = &a->maps;
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *fp = &m->fixed_points[k];
    // On a breakpoint only the exact cycle from the fixed point counts: one
    // that does not come back is no fixed point, and a tie decides nothing.
    if (fp->at_breakpoint && (!fp->returns || fp->tie)) continue;
    if (!fp->limiting && fp->G > 1 + ZENO_VERDICT_G_TOL) {
      char r[ZENO_REASON_SIZE];
      snprintf(r, sizeof r, "fixed point of R at %.4f with G = %.4f > 1 (Theorem 2)", fp->phi,
               fp->G);
      set(a, ZENO_VERDICT_UNSTABLE, 2, a->persistent ? 4 : 5, r);
      return ZENO_OK;
    }
  }
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *fp = &m->fixed_points[k];
    if (!(fp->at_breakpoint && fp->tie)) continue;
    char r[ZENO_REASON_SIZE];
    snprintf(r, sizeof r,
             "fixed point of R at %.6f on a breakpoint between '%s' and '%s': the "
             "exact cycle from it is a tie (margin %.2g), two continuations are "
             "admissible and Theorem 2 cannot be applied",
             fp->phi, fp->word_left, fp->word_right, fp->tie_margin);
    set(a, ZENO_VERDICT_UNDECIDED, 0, 7, r);
    return ZENO_OK;
  }
  if (!a->persistent) {
    set(a, ZENO_VERDICT_UNDECIDED, 0, 7,
        "not persistent (Definition 4) and no unstable fixed point of R");
    return ZENO_OK;
  }
  if (m->G_max < 1 - ZENO_VERDICT_G_TOL) {
    char r[ZENO_REASON_SIZE];
    // No cycle returning to the section (every one rests or leaves): R is
    // defined nowhere and Theorem 3 holds with nothing to bound.
    if (isinf(m->G_max))
      snprintf(r, sizeof r,
               "no cycle from the section returns to it: R is defined nowhere (Theorem 3)");
    else snprintf(r, sizeof r, "G < 1 wherever R is defined (max %.4f, Theorem 3)", m->G_max);
    set(a, ZENO_VERDICT_STABLE, 3, 2, r);
    return ZENO_OK;
  }
  zeno_partition_verdict pv;
  zeno_error graph_error;
  st = stable_partition(m, d.partition_intervals, a, &pv, &graph_error);
  if (st != ZENO_OK) {
    // Out of memory: no verdict, and nothing left for the caller to free.
    zeno_maps_free(&a->maps);
    a->has_maps = false;
    return zeno_fail(error, st, "",
                     "Theorem 4's partition could not be "
                     "checked: %s",
                     graph_error.message);
  }
  if (pv.stable) {
    char r[ZENO_REASON_SIZE];
    snprintf(r, sizeof r,
             "stable partition of %zu intervals, %zu unsafe, no unsafe cycle (Theorem 4)",
             a->partition_count, a->unsafe_count);
    set(a, ZENO_VERDICT_STABLE, 4, 3, r);
    return ZENO_OK;
  }
  char r[ZENO_REASON_SIZE];
  snprintf(r, sizeof r, "no theorem decides: %s", pv.reason);
  set(a, ZENO_VERDICT_UNDECIDED, 0, 7, r);
  return ZENO_OK;
}

zeno_status zeno_analyze(const zeno_scene *scene, const zeno_analysis_def *def, zeno_analysis *a,
                         zeno_error *error) {
  if (scene == NULL || a == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and analysis are required");
  memset(a, 0, sizeof *a);  // every later error leaves nothing to free
  if (zeno_scene_require_pair(scene, error) != ZENO_OK) return ZENO_ERR_UNSUPPORTED;
  if (scene->contact_count != 2)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "contacts",
                     "the stability analysis needs two contacts");
  zeno_status st = zeno_scene_validate(scene, error);  // errors quote the user's values
  if (st != ZENO_OK) return st;
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  st = analyze_in_own_units(&own, def, a, error);
  if (st == ZENO_OK) {
    analysis_equilibrium_to_user(u, &a->equilibrium);
    if (a->has_maps) maps_to_user(u, &a->maps);
  }
  return st;
}

void zeno_analysis_free(zeno_analysis *a) {
  if (a && a->has_maps) zeno_maps_free(&a->maps);
}
