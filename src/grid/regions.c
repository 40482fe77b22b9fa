// Stability region maps: zeno_analyze() over a grid of two scene parameters
// (paper Examples 6 and 7). Every point re-loads the base scene text with the
// two swept values as `--set` overrides, so any scene path can be swept and
// every point is validated like a scene file. Rows are spread over OpenMP
// threads with dynamic scheduling; the Open MPI distribution of rows lives in
// the front end (src/cli/regions_mpi.c) so that libzeno does not depend on MPI.
#include "zeno/regions.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "base/util.h"
#include "dynamics/kinematics.h"
#include "grid/grid_scene.h"
#include "grid/regions_internal.h"
#include "scene/scene_units.h"
#include "sim/sim_restart.h"
#include "zeno/sim.h"

/* Monte-Carlo perturbations, the same distribution as the stability tests:
   positions z1, z2 in [0, 1) (x2 = 0: the equilibria form a line along x2),
   velocities in [-1, 1)^3; every fourth run starts touching at contact 1 and
   every fourth (shifted by one) at contact 2, moving away from the surface
   (MC_TOUCH_PERIOD). The ZOD is homogeneous (eq. (24)), so the unit
   amplitude is no loss. */

struct zeno_regions {
  grid_scene grid;  ///< the base scene, its fixed overrides and the axes
  zeno_regions_def def;
};

/* ---------- axes ---------- */

zeno_status zeno_region_axis_parse(const char *text, zeno_region_axis *axis, zeno_error *error) {
  if (text == NULL || axis == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "axis text and axis are required");
  const char *eq = strchr(text, '=');
  if (eq == NULL || eq == text)
    return zeno_fail(error, ZENO_ERR_SYNTAX, "",
                     "axis '%s': expected PATH=LO:HI:N, e.g. paper.mu2=0:1.1:41", text);
  const size_t path_length = (size_t)(eq - text);
  if (path_length >= ZENO_REGION_PATH_SIZE)
    return zeno_fail(error, ZENO_ERR_RANGE, "", "axis '%s': the path is longer than %d characters",
                     text, ZENO_REGION_PATH_SIZE - 1);
  zeno_region_axis a;
  memset(&a, 0, sizeof a);
  memcpy(a.path, text, path_length);
  a.path[path_length] = '\0';

  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  const char *p = eq + 1;
  char *end = NULL;
  errno = 0;
  a.lo = strtod(p, &end);
  bool ok = end != p && *end == ':';
  if (ok) {
    p = end + 1;
    a.hi = strtod(p, &end);
    ok = end != p && *end == ':';
  }
  long count = 0;
  if (ok) {
    p = end + 1;
    count = strtol(p, &end, 10);
    ok = end != p && *end == '\0' && errno == 0;
  }
  zeno_locale_leave(&scope);
  if (!ok)
    return zeno_fail(error, ZENO_ERR_SYNTAX, a.path,
                     "axis '%s': expected PATH=LO:HI:N with numbers LO, HI and an "
                     "integer N, e.g. paper.mu2=0:1.1:41",
                     text);
  if (!isfinite(a.lo) || !isfinite(a.hi))
    return zeno_fail(error, ZENO_ERR_RANGE, a.path, "axis '%s': LO and HI must be finite", text);
  if (count < 1 || count > ZENO_REGION_AXIS_MAX)
    return zeno_fail(error, ZENO_ERR_RANGE, a.path,
                     "axis '%s': N = %ld out of range; allowed [1, %d]", text, count,
                     ZENO_REGION_AXIS_MAX);
  if (count > 1 && a.lo == a.hi)
    return zeno_fail(error, ZENO_ERR_RANGE, a.path,
                     "axis '%s': LO and HI are equal but N = %ld > 1", text, count);
  a.count = (size_t)count;
  *axis = a;
  return ZENO_OK;
}

/* ---------- settings ---------- */

zeno_regions_def zeno_regions_def_default(void) {
  zeno_regions_def d;
  memset(&d, 0, sizeof d);
  d.analysis = zeno_analysis_def_default();
  d.analysis.maps.samples = ZENO_REGIONS_DEFAULT_SAMPLES;
  // A region map draws no maps: where they decide nothing (restitution)
  // it does not pay for them (bouncing cycles make them slow).
  d.analysis.maps_when_undecided = false;
  d.mc_runs = ZENO_REGIONS_DEFAULT_MC_RUNS;
  d.mc_seed = 1;
  d.mc_full = false;
  return d;
}

const zeno_regions_def *zeno_regions_settings(const zeno_regions *r) { return r ? &r->def : NULL; }

int zeno_regions_threads(int threads) { return parallel_team(threads, ZENO_REGIONS_MAX_THREADS); }

const char *zeno_region_name(int region) {
  static const char *const NAMES[ZENO_REGION_COUNT] = {
      "infeasible equilibrium",
      "Painleve paradox",
      "stable (Theorem 3)",
      "stable (Theorem 4)",
      "unstable, persistent (Theorem 2)",
      "unstable, not persistent (Theorem 2)",
      "ambiguous, unstable (Theorem 1)",
      "undecided",
  };
  if (region == ZENO_REGION_ERROR) return "error (not analysed)";
  return region >= 0 && region < ZENO_REGION_COUNT ? NAMES[region] : "unknown";
}

const char *zeno_region_sim_name(zeno_region_sim sim) {
  switch (sim) {
    case ZENO_REGION_SIM_RESTS: return "rests";
    case ZENO_REGION_SIM_DEPARTS: return "departs";
    case ZENO_REGION_SIM_SLOW: return "returns-slowly";
    case ZENO_REGION_SIM_NONE: break;
  }
  return "";
}

/* ---------- loading one point's scene ---------- */

// Loads the base scene with the fixed overrides and the two axis values.
static zeno_status load_point(const zeno_regions *r, double x, double y, zeno_scene *scene,
                              zeno_error *error) {
  return grid_scene_load(&r->grid, x, y, scene, error);
}

// True when the path names a value the map does not depend on: the verdict
// is about the equilibrium, and region 7's simulations start from seeded
// random perturbations, not from the scene's initial state; names and the
// drawn outline or sampling change nothing. Such an axis gave a uniform map.
static bool irrelevant_path(const char *path) {
  static const char *const prefixes[] = {"initial", "name", "body.outline", "solver.sample_dt"};
  for (size_t k = 0; k < sizeof prefixes / sizeof *prefixes; k++) {
    const size_t n = strlen(prefixes[k]);
    if (strncmp(path, prefixes[k], n) == 0 &&
        (path[n] == '\0' || path[n] == '.' || path[n] == '_' || path[n] == '['))
      return true;
  }
  return false;
}

zeno_status zeno_regions_check_axis(const zeno_region_axis *a, const char *which,
                                    zeno_error *error) {
  if (a == NULL || which == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "axis and its name are required");
  const zeno_status st = grid_axis_check(a, which, error);
  if (st != ZENO_OK) return st;
  if (irrelevant_path(a->path)) {
    if (strncmp(a->path, "initial", strlen("initial")) == 0)
      return zeno_fail(error, ZENO_ERR_ARGUMENT, a->path,
                       "%s axis: the region map does not depend on the initial state (the "
                       "verdict is about the equilibrium; region 7's simulations start from "
                       "seeded random perturbations): every point would be the same; "
                       "outcomes over initial states are an outcome sweep (zeno sweep "
                       "SCENE --x %s=LO:HI:N --y ...)",
                       which, a->path);
    return zeno_fail(error, ZENO_ERR_ARGUMENT, a->path,
                     "%s axis: the region map does not depend on it (it names, draws or "
                     "samples the scene only): every point would be the same",
                     which);
  }
  return ZENO_OK;
}

static zeno_status check_def(const zeno_regions_def *d, zeno_error *error) {
  zeno_status st = zeno_regions_check_axis(&d->x, "x", error);
  if (st == ZENO_OK) st = zeno_regions_check_axis(&d->y, "y", error);
  if (st != ZENO_OK) return st;
  if (d->mc_runs < 0 || d->mc_runs > ZENO_REGIONS_MAX_MC_RUNS)
    return zeno_fail(error, ZENO_ERR_RANGE, "mc_runs", "value %d out of range; allowed [0, %d]",
                     d->mc_runs, ZENO_REGIONS_MAX_MC_RUNS);
  // Checked here for the whole grid: a point whose scene is decided before
  // its maps (infeasible, ...) would not check the maps' settings.
  return zeno_analysis_def_validate(&d->analysis, error);
}

// The base scene and the four corners of the grid load: unknown paths and
// out-of-range ends are reported before any work.
static zeno_status check_scene(const zeno_regions *r, zeno_error *error) {
  zeno_scene s;
  const zeno_status st = grid_scene_base(&r->grid, &s, error);
  if (st != ZENO_OK) return st;
  if (s.contact_count < 2)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "contacts",
                     "a region map needs a scene of 2 to %d contacts; this one has %d",
                     ZENO_MAX_CONTACTS, s.contact_count);
  return grid_scene_check_corners(&r->grid, error);
}

void zeno_regions_destroy(zeno_regions *r) {
  if (r == NULL) return;
  grid_scene_free(&r->grid);
  free(r);
}

zeno_regions *zeno_regions_create(const char *scene_text, const char *name,
                                  const char *const *overrides, size_t override_count,
                                  const zeno_regions_def *def, zeno_error *error) {
  zeno_error_clear(error);
  if (scene_text == NULL || def == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene text and settings are required");
    return NULL;
  }
  if (check_def(def, error) != ZENO_OK) return NULL;
  zeno_regions *r = calloc(1, sizeof *r);
  if (r == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  r->def = *def;
  if (grid_scene_init(&r->grid, scene_text, name, overrides, override_count, &def->x, &def->y,
                      error) != ZENO_OK) {
    free(r);
    return NULL;
  }
  if (check_scene(r, error) != ZENO_OK) {
    zeno_regions_destroy(r);
    return NULL;
  }
  return r;
}

zeno_regions *zeno_regions_create_file(const char *path, const char *const *overrides,
                                       size_t override_count, const zeno_regions_def *def,
                                       zeno_error *error) {
  zeno_error_clear(error);
  char *text = NULL;
  if (zeno_scene_read_file(path, &text, NULL, error) != ZENO_OK) return NULL;
  zeno_regions *r = zeno_regions_create(text, path, overrides, override_count, def, error);
  free(text);
  return r;
}

/* ---------- Monte-Carlo verdict ---------- */

// The k-th perturbation of a point's stream.
static void perturbation(uint64_t *stream, int k, double qp[3], double qdp[3]) {
  qp[0] = regions_uniform01(stream);
  qp[1] = regions_uniform01(stream);
  qp[2] = 0;
  for (int j = 0; j < 3; j++) qdp[j] = 2 * regions_uniform01(stream) - 1;
  if (k % MC_TOUCH_PERIOD == 0) qp[0] = 0, qdp[0] = fabs(qdp[0]);
  if (k % MC_TOUCH_PERIOD == 1) qp[1] = 0, qdp[1] = fabs(qdp[1]);
}

// A state's distance from the equilibrium family, as energy: its kinetic
// energy plus the load's potential with the slip (x2; one contact: x1) set
// to zero, since every shift of it is an equilibrium (23): the work the
// motion can still do against the load. A flight and a sticking pivot keep
// it, impacts and friction lower it, a slide that speeds up raises it.
static double energy_over_family(const kinematics_model *km, int contacts, const double qp[3],
                                 const double qdp[3]) {
  double y[3] = {qp[0], qp[1], qp[2]}, q[3], qd[3];
  y[contacts == 2 ? 2 : 1] = 0;
  kinematics_zod_to_gen(km, y, q);
  kinematics_zod_to_gen(km, qdp, qd);
  return kinematics_energy(km, q, qd);
}

// The fate of a run from (qp, qdp) that ended with `summary`: a run stopped
// by its time or event limit is returning when its energy over the
// equilibrium family is below its start's. (Measured first by the largest
// gap plus v^2 / 2a on the load's acceleration: a foot swinging high over a
// pivot whose restoring acceleration is the equilibrium's small margin,
// 0.0014 on the biped map, counted as a departure though it rests at
// t = 1302 given the time; its energy is that of a low swing.)
static run_fate fate_of(const zeno_scene *s, const double qp[3], const double qdp[3],
                        const zeno_summary *summary) {
  if (summary->outcome == ZENO_OUTCOME_REST) return RUN_RESTS;
  const bool limit = summary->outcome == ZENO_OUTCOME_TIME_LIMIT ||
                     summary->outcome == ZENO_OUTCOME_EVENT_LIMIT;
  kinematics_model km;
  if (!limit || kinematics_model_init(&km, s, NULL) != ZENO_OK) return RUN_DEPARTS;
  const zeno_state *fin = &summary->final_state;
  const int n = s->contact_count;
  return energy_over_family(&km, n, fin->zod, fin->zod_rate) < energy_over_family(&km, n, qp, qdp)
             ? RUN_RETURNING
             : RUN_DEPARTS;
}

// Runs one perturbation under the full model; *fate tells how it ended.
// Library failures (out of memory) are errors, not outcomes.
static zeno_status full_comes_to_rest(const zeno_scene *base, const double qp[3],
                                      const double qdp[3], const zeno_interrupt *interrupt,
                                      run_fate *fate, zeno_error *error) {
  zeno_summary summary;
  const zeno_status st = regions_run(base, ZENO_MODEL_FULL, ZENO_INITIAL_ZOD, qp, qdp, interrupt,
                                     &summary, error);
  *fate = st == ZENO_OK ? fate_of(base, qp, qdp, &summary) : RUN_DEPARTS;
  return st;
}

// The same under the ZOD on the point's one simulator, made at its first
// run and restarted for the next (a simulator costs more to make than a
// run), each run made by zeno_sim_run() (on the table's kernel where it
// applies), with every impact map made first, so that each run is a
// function of its start, whatever ran before it.
static zeno_status zod_comes_to_rest(const zeno_scene *base, zeno_sim **sim, const double qp[3],
                                     const double qdp[3], const zeno_interrupt *interrupt,
                                     run_fate *fate, zeno_error *error) {
  zeno_error local;
  if (error == NULL) error = &local;  // the returned code comes from it
  zeno_status st = ZENO_OK;
  if (*sim == NULL) {
    zeno_scene s = *base;
    s.model = ZENO_MODEL_ZOD;
    s.initial_kind = ZENO_INITIAL_ZOD;
    memcpy(s.initial_qp, qp, sizeof s.initial_qp);
    memcpy(s.initial_qdp, qdp, sizeof s.initial_qdp);
    zeno_sim_def def = zeno_sim_def_default();
    def.keep_history = false;
    def.interrupt = *interrupt;
    *sim = zeno_sim_create(&s, &def, error);
    if (*sim == NULL) return error->code;
    sim_use_impact_maps(*sim);
  } else {
    st = zeno_sim_restart(*sim, qp, qdp, error);
  }
  if (st == ZENO_OK) st = zeno_sim_run(*sim, error);
  *fate = RUN_DEPARTS;
  if (st == ZENO_OK && zeno_sim_outcome(*sim) == ZENO_OUTCOME_REST) {
    *fate = RUN_RESTS;
  } else if (st == ZENO_OK) {
    zeno_summary summary;
    zeno_sim_summary(*sim, &summary);
    *fate = fate_of(base, qp, qdp, &summary);
  }
  return st;
}

static zeno_status simulate_point(const zeno_regions *r, const zeno_scene *scene,
                                  const zeno_interrupt *interrupt, zeno_region_point *p,
                                  zeno_error *error) {
  uint64_t stream = regions_stream(r->def.mc_seed, p->ix, p->iy);
  zeno_sim *zod = NULL;
  zeno_status st = ZENO_OK;
  for (int k = 0; k < r->def.mc_runs && st == ZENO_OK; k++) {
    double qp[3], qdp[3];
    run_fate fate = RUN_DEPARTS;
    perturbation(&stream, k, qp, qdp);
    // A run on the kernel takes about a microsecond: asked between runs.
    st = zeno_interrupt_check(interrupt, error);
    if (st == ZENO_OK) st = zod_comes_to_rest(scene, &zod, qp, qdp, interrupt, &fate, error);
    if (st != ZENO_OK) break;
    p->mc_runs++;
    p->mc_rest += fate == RUN_RESTS;
    p->mc_slow += fate == RUN_RETURNING;
    if (r->def.mc_full) {
      st = full_comes_to_rest(scene, qp, qdp, interrupt, &fate, error);
      if (st != ZENO_OK) break;
      p->mc_full_runs++;
      p->mc_full_rest += fate == RUN_RESTS;
      p->mc_slow += fate == RUN_RETURNING;
    }
  }
  zeno_sim_destroy(zod);
  if (st != ZENO_OK) return st;
  p->sim = regions_sim_verdict(p);
  return ZENO_OK;
}

/* ---------- one point ---------- */

// A point the analysis cannot take is a row of the map, not the end of the
// sweep: its region is ZENO_REGION_ERROR and its message the error's line.
static zeno_status error_row(zeno_region_point *p, const zeno_error *e) {
  const size_t ix = p->ix, iy = p->iy;
  const double x = p->x, y = p->y;
  memset(p, 0, sizeof *p);
  p->ix = ix;
  p->iy = iy;
  p->x = x;
  p->y = y;
  p->G_max = p->fixed_point_phi = p->fixed_point_G = NAN;
  p->region = ZENO_REGION_ERROR;
  zeno_error_format(e, p->error, sizeof p->error);
  return ZENO_OK;
}

// The witness fixed point: the unstable finite one of Theorem 2 (regions 4,
// 5), else the finite one with the largest G.
static void witness(const zeno_analysis *a, zeno_region_point *p) {
  const zeno_maps *m = &a->maps;
  p->fixed_point_count = m->fixed_point_count;
  const zeno_fixed_point *best = NULL;
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *fp = &m->fixed_points[k];
    if (fp->at_breakpoint) p->on_breakpoint = fp->tie ? 2 : p->on_breakpoint > 1 ? 2 : 1;
    if (fp->limiting || isnan(fp->G)) continue;
    if (best == NULL || fp->G > best->G) best = fp;
  }
  if (best != NULL) {
    p->fixed_point_phi = best->phi;
    p->fixed_point_G = best->G;
  }
}

/// Failures of the call, not of the point: out of memory, a stop.
static bool call_failure(zeno_status st) {
  return st == ZENO_ERR_NOMEM || st == ZENO_ERR_INTERRUPTED;
}

// One point under the interrupt of its thread (zeno_regions_point()).
static zeno_status point_run(const zeno_regions *r, size_t ix, size_t iy,
                             const zeno_interrupt *interrupt, zeno_region_point *p,
                             zeno_error *error) {
  if (r == NULL || p == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and point are required");
  if (ix >= r->def.x.count || iy >= r->def.y.count)
    return zeno_fail(error, ZENO_ERR_RANGE, "",
                     "grid point (%zu, %zu) out of range; allowed [0, %zu] x [0, %zu]", ix, iy,
                     r->def.x.count - 1, r->def.y.count - 1);
  memset(p, 0, sizeof *p);
  p->ix = ix;
  p->iy = iy;
  p->x = zeno_region_axis_value(&r->def.x, ix);
  p->y = zeno_region_axis_value(&r->def.y, iy);
  p->G_max = p->fixed_point_phi = p->fixed_point_G = NAN;
  zeno_scene scene;
  zeno_error point_error;
  zeno_status st = load_point(r, p->x, p->y, &scene, &point_error);
  if (st == ZENO_OK && scene.contact_count > ZENO_PAIR_CONTACTS) {
    st = regions_contacts_point(&r->def, &scene, interrupt, p, &point_error);
    if (call_failure(st) && error) *error = point_error;
    if (call_failure(st)) return st;
    return st == ZENO_OK ? ZENO_OK : error_row(p, &point_error);
  }
  zeno_analysis a;
  // The points share out the threads: a point's maps run on its own (a
  // team of one is no parallel region to OpenMP, so the maps would start
  // threads of their own at every point of a one-thread map).
  zeno_analysis_def analysis = r->def.analysis;
  analysis.maps.threads = 1;
  analysis.maps.interrupt = *interrupt;
  if (st == ZENO_OK) st = zeno_analyze(&scene, &analysis, &a, &point_error);
  if (call_failure(st)) {
    if (error) *error = point_error;
    return st;
  }
  if (st != ZENO_OK) return error_row(p, &point_error);
  p->region = a.region;
  p->theorem = a.theorem;
  p->verdict = a.verdict;
  p->persistent = a.persistent;
  p->has_maps = a.has_maps;
  p->partition_count = a.partition_count;
  p->unsafe_count = a.unsafe_count;
  if (a.has_maps) {
    p->G_max = a.maps.G_max;
    witness(&a, p);
  }
  zeno_analysis_free(&a);
  if (p->region == ZENO_REGION_COUNT - 1 && r->def.mc_runs > 0) {
    st = simulate_point(r, &scene, interrupt, p, &point_error);
    if (call_failure(st)) {
      if (error) *error = point_error;
      return st;
    }
    if (st != ZENO_OK) return error_row(p, &point_error);
  }
  return ZENO_OK;
}

zeno_status zeno_regions_point(const zeno_regions *r, size_t ix, size_t iy, zeno_region_point *p,
                               zeno_error *error) {
  if (r == NULL || p == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and point are required");
  return point_run(r, ix, iy, &r->def.interrupt, p, error);
}

/* ---------- one row ---------- */

/// A row being computed: the sweep, the row's index and its points.
typedef struct row_context {
  const zeno_regions *r;
  size_t iy;
  zeno_region_point *row;
} row_context;

static zeno_status region_point(const void *context, size_t ix, const zeno_interrupt *interrupt,
                                zeno_error *error) {
  const row_context *c = context;
  return point_run(c->r, ix, c->iy, interrupt, &c->row[ix], error);
}

zeno_status zeno_regions_row(const zeno_regions *r, size_t iy, int threads, zeno_region_point *row,
                             zeno_error *error) {
  if (r == NULL || row == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "sweep and row are required");
  if (iy >= r->def.y.count)
    return zeno_fail(error, ZENO_ERR_RANGE, "", "row %zu out of range; allowed [0, %zu]", iy,
                     r->def.y.count - 1);
  const row_context c = {r, iy, row};
  return grid_run_row(r->def.x.count, threads, region_point, &c, &r->def.interrupt, error);
}
