/// @file regions.h
/// Stability region maps (paper Examples 6 and 7, Fig. 8): the verdict of
/// zeno_analyze() over a grid of two scene parameters.
///
/// A sweep varies two scene values given by their dotted paths, exactly as
/// `--set` overrides do ("com.x", "com.y", "paper.alpha", "paper.mu2", ...),
/// so every point is the base scene re-loaded with two more overrides and
/// validated like any scene. Each point gets the paper's region number
/// (Example 6):
///   0 infeasible equilibrium, 1 Painlevé, 2 stable by Theorem 3,
///   3 stable by Theorem 4, 4 unstable by Theorem 2 (persistent),
///   5 unstable by Theorem 2 (not persistent), 6 ambiguous (Theorem 1),
///   7 undecided,
/// plus the witnesses (G_max, a fixed point, the partition) and, for region
/// 7, a seeded Monte-Carlo simulation verdict. A scene of 3 to
/// ZENO_MAX_CONTACTS contacts, which no theorem decides, gets Pang and
/// Trinkle's static verdict (0 infeasible, 6 ambiguous, else 7) and the
/// same simulation verdict from the N-contact engine (docs/regions.md).
///
/// Usage (iterate, don't call back): create the sweep, evaluate it row by
/// row (each row in parallel with OpenMP when the build has it), write the
/// rows out as they come, destroy the sweep. Points are independent and
/// deterministic: a point's result does not depend on the thread, the
/// process or the order in which it was computed.
#ifndef ZENO_REGIONS_H
#define ZENO_REGIONS_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/interrupt.h"
#include "zeno/stability.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Region numbers 0..ZENO_REGION_COUNT-1.
#define ZENO_REGION_COUNT 8
/// The region of a point whose scene could not be analysed (an interior
/// value of an axis that makes the geometry degenerate, say): the sweep
/// records it with its message and goes on.
#define ZENO_REGION_ERROR (-1)
/// Room for an error row's message.
#define ZENO_REGION_ERROR_SIZE 160
/// Room for an axis path ("paper.mu2").
#define ZENO_REGION_PATH_SIZE 96
/// Most points per axis.
#define ZENO_REGION_AXIS_MAX 4096

/// One swept parameter: count values lo, lo + (hi-lo)/(count-1), ..., hi.
typedef struct zeno_region_axis {
  char path[ZENO_REGION_PATH_SIZE];  ///< dotted scene path, as for --set
  double lo;                         ///< first value, in the path's own unit (degrees for angles)
  double hi;                         ///< last value (may be below lo)
  size_t count;                      ///< values, 1..ZENO_REGION_AXIS_MAX (1: lo only)
} zeno_region_axis;

/// Parses "PATH=LO:HI:N" (e.g. "paper.mu2=0:1.1:41"). Errors name the text
/// and what is wrong with it (ZENO_ERR_SYNTAX, ZENO_ERR_RANGE).
ZENO_API zeno_status zeno_region_axis_parse(const char *text, zeno_region_axis *axis,
                                            zeno_error *error);

/// The i-th value of an axis (i in 0..count-1).
ZENO_API double zeno_region_axis_value(const zeno_region_axis *axis, size_t i);

/// Settings of a sweep.
typedef struct zeno_regions_def {
  zeno_region_axis x, y;       ///< the two swept parameters
  zeno_analysis_def analysis;  ///< maps and Theorem 4 partition per point
  /// Monte-Carlo perturbations simulated (exact ZOD) at every region-7
  /// point; 0 switches the simulation verdict off.
  int mc_runs;
  /// Seed of the perturbations; each point derives its own stream from it
  /// and its grid indices, so results do not depend on scheduling.
  unsigned long long mc_seed;
  /// Also run the same perturbations with the full model (at the scene's
  /// epsilon) at region-7 points.
  bool mc_full;
  /// Asked on the calling thread between points and within each point (its
  /// maps' samples, its Monte-Carlo runs and their events; the interrupt of
  /// `analysis.maps` is not used): a stop ends zeno_regions_row() and
  /// zeno_regions_point() with ZENO_ERR_INTERRUPTED, every thread of the
  /// row within a sample or an event, the row's points not to be used.
  /// Default: none.
  zeno_interrupt interrupt;
} zeno_regions_def;

/// Default samples of R and G per point of a sweep: four per Theorem-4
/// sub-interval of the paper's 300 (the single analysis uses 6000). Fixed
/// points and breakpoints are bisected to full precision either way; the
/// sample density only sets G_max's sampling and the widening of the
/// interval graph, whose effect the regions documentation measures.
#define ZENO_REGIONS_DEFAULT_SAMPLES 1200
/// Most Monte-Carlo perturbations per point (zeno_regions_def.mc_runs): a
/// bound on a point's run time.
#define ZENO_REGIONS_MAX_MC_RUNS 100000
/// Default Monte-Carlo runs per region-7 point.
#define ZENO_REGIONS_DEFAULT_MC_RUNS 32

/// Axes unset (count 0), analysis as zeno_analysis_def_default() but with
/// ZENO_REGIONS_DEFAULT_SAMPLES samples and no maps where they decide
/// nothing (laws other than the inelastic one), 300 partition intervals,
/// ZENO_REGIONS_DEFAULT_MC_RUNS perturbations, seed 1, ZOD only.
ZENO_API zeno_regions_def zeno_regions_def_default(void);

/// The simulation verdict of a region-7 point.
typedef enum zeno_region_sim {
  ZENO_REGION_SIM_NONE = 0,  ///< not simulated (other regions, or mc_runs 0)
  ZENO_REGION_SIM_RESTS,     ///< every perturbation came to rest: practically stable
  ZENO_REGION_SIM_DEPARTS,   ///< some perturbation did not come to rest, nor return
  /// Every perturbation came to rest or, stopped by its time or event
  /// limit, was still returning: its amplitude (the largest gap plus the
  /// height v^2 / 2a its speed would climb against the load) below its
  /// start's. A slow return, not a departure.
  ZENO_REGION_SIM_SLOW
} zeno_region_sim;

/// The result at one grid point.
typedef struct zeno_region_point {
  size_t ix, iy;  ///< grid indices
  double x, y;    ///< the parameter values
  int region;     ///< 0-7 (see the file comment), or ZENO_REGION_ERROR
  int theorem;    ///< deciding theorem 1-4, 0 when none
  zeno_verdict verdict;
  bool persistent;  ///< Definition 4 (false when not analysed)
  bool has_maps;    ///< R and G were computed (regions 2-5, 7)
  double G_max;     ///< largest G where R is defined (NaN without maps)
  /// The witness fixed point of R: the unstable one of Theorem 2 in regions
  /// 4 and 5, else the finite one with the largest G; NaN when none.
  double fixed_point_phi;  ///< [rad]
  double fixed_point_G;
  size_t fixed_point_count;  ///< finite and limiting fixed points of R
  size_t partition_count;    ///< Theorem 4 partition size (0 when not tried)
  size_t unsafe_count;       ///< its unsafe intervals
  int mc_runs;               ///< perturbations simulated with the ZOD
  int mc_rest;               ///< of them, runs that came to rest
  int mc_full_runs;          ///< the same with the full model
  int mc_full_rest;
  /// Of the runs that did not rest (ZOD and full model), those stopped by
  /// their time or event limit while still returning (ZENO_REGION_SIM_SLOW).
  int mc_slow;
  zeno_region_sim sim;  ///< region 7: the simulation verdict
  /// A fixed point of R on a breakpoint (zeno_fixed_point.at_breakpoint):
  /// 0 none, 1 one decided by the exact cycle from it, 2 a tie (the
  /// verdict is then undecided, region 7, unless another fixed point
  /// decides).
  int on_breakpoint;
  /// ZENO_REGION_ERROR: why the point could not be analysed, one line
  /// (zeno_error_format()); "" for every other point.
  char error[ZENO_REGION_ERROR_SIZE];
} zeno_region_point;

/// Opaque sweep.
typedef struct zeno_regions zeno_regions;

/// Creates a sweep over the YAML scene text (`name` is used in messages)
/// with fixed overrides applied before the two swept ones. The base scene
/// and both ends of both axes are loaded once, so an unknown path or an
/// out-of-range end fails here, naming the parameter and its range. The
/// scene must have two contacts. Returns NULL and fills error on failure.
ZENO_API zeno_regions *zeno_regions_create(const char *scene_text, const char *name,
                                           const char *const *overrides, size_t override_count,
                                           const zeno_regions_def *def, zeno_error *error);

/// Same, reading the scene file at path.
ZENO_API zeno_regions *zeno_regions_create_file(const char *path, const char *const *overrides,
                                                size_t override_count, const zeno_regions_def *def,
                                                zeno_error *error);

/// Frees a sweep; NULL is accepted.
ZENO_API void zeno_regions_destroy(zeno_regions *regions);

/// Checks an axis as zeno_regions_create() checks --x and --y (`which`
/// names it in messages: "x", "y", "z"): 1..ZENO_REGION_AXIS_MAX values,
/// finite ends, a path the map depends on (initial.*, name, body.outline*
/// and solver.sample_dt are refused with the reason: ZENO_ERR_ARGUMENT).
/// For a third axis swept as a batch of maps.
ZENO_API zeno_status zeno_regions_check_axis(const zeno_region_axis *axis, const char *which,
                                             zeno_error *error);

/// The settings the sweep runs with (its own copy).
ZENO_API const zeno_regions_def *zeno_regions_settings(const zeno_regions *regions);

/// Evaluates one grid point. Reentrant: any number of threads may evaluate
/// points of one sweep at once. A point whose scene is invalid (an interior
/// value may be invalid even when both ends of its axis are, e.g. contacts
/// that meet) or whose analysis fails is an error row, not an error of the
/// call: region ZENO_REGION_ERROR with the error's line (naming the
/// override) in `error`. Errors: ZENO_ERR_RANGE for indices outside the
/// grid, ZENO_ERR_NOMEM from the analysis or the Monte-Carlo runs.
ZENO_API zeno_status zeno_regions_point(const zeno_regions *regions, size_t ix, size_t iy,
                                        zeno_region_point *point, zeno_error *error);

/// Evaluates row iy (all x values) into row[0..x.count-1], spreading the
/// points over `threads` OpenMP threads with dynamic scheduling (threads
/// <= 0: OpenMP's default; builds without OpenMP run serially). Points that
/// cannot be analysed are error rows (zeno_regions_point()); a failure of
/// the call (out of memory) returns the error of the lowest failing ix.
/// ZENO_ERR_RANGE for threads above ZENO_REGIONS_MAX_THREADS.
ZENO_API zeno_status zeno_regions_row(const zeno_regions *regions, size_t iy, int threads,
                                      zeno_region_point *row, zeno_error *error);

/// The most threads zeno_regions_row() and zeno_sweep_row() spread a row
/// over: a larger team fails inside OpenMP's runtime (its threads' stacks),
/// taking the caller's process with it. More is ZENO_ERR_RANGE; OpenMP's
/// default is capped at it.
#define ZENO_REGIONS_MAX_THREADS 1024

/// The number of threads zeno_regions_row() uses for `threads` (<= 0:
/// OpenMP's default, the cores, at most ZENO_REGIONS_MAX_THREADS; always 1
/// in a build without OpenMP). A request above ZENO_REGIONS_MAX_THREADS
/// is returned as it is (the row refuses it).
ZENO_API int zeno_regions_threads(int threads);

/// One line per region: "stable (Theorem 3)" etc.; "error" for
/// ZENO_REGION_ERROR.
ZENO_API const char *zeno_region_name(int region);
/// "rests", "departs" or "" (none).
ZENO_API const char *zeno_region_sim_name(zeno_region_sim sim);

#ifdef __cplusplus
}
#endif
#endif
