/// @file stability.h
/// Lyapunov stability of a two-contact equilibrium (paper Secs. 5-7): the
/// Poincaré section (22), the reduced map R (26) and growth map G (27), their
/// fixed points, persistence (Definition 4) and the verdicts of Theorems 1-4.
///
/// Angles phi are the section angle (25): atan(xdot2 / |zdot2|) of contact
/// 2's pre-impact velocity while contact 1 is sustained, in I = (-pi/2, pi/2).
#ifndef ZENO_STABILITY_H
#define ZENO_STABILITY_H

#include <stdbool.h>
#include "zeno/analysis.h"
#include "zeno/error.h"
#include "zeno/scene.h"
#include "zeno/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Longest cycle word kept per sample (the paper's cycles have 4-6 steps).
#define ZENO_CYCLE_WORD 96

/// One cycle of the ZOD from the section at angle phi.
typedef struct zeno_cycle {
  double phi;        ///< start angle [rad]
  bool defined;      ///< the cycle returned to the section: R, G defined
  double R;          ///< angle at the return (26) [rad]
  double G;          ///< growth |zdot2 at return| / |zdot2 at start| (27)
  double T;          ///< cycle duration for unit |zdot2| at the start [time]
  zeno_outcome end;  ///< undefined cycles: how the run ended (rest, ...)
  char word[ZENO_CYCLE_WORD]; ///< steps from the first impact to the return impact
  /// Per impact of the cycle, the outcome letter of each contact (S sticks,
  /// P/N slips, F no impulse): "FS FP" is an FI that sticks then one that
  /// slips. Together with the word it identifies a smooth branch of R and G
  /// (the paper's kink of G at 0.54 in Example 2 is a change of outcome).
  char outcomes[ZENO_CYCLE_WORD];
} zeno_cycle;

/// Evaluates one cycle (exact ZOD). The scene must have two contacts; the
/// contact order follows eq. (13) (see zeno_maps_compute for the swap).
zeno_status zeno_cycle_eval(const zeno_scene *scene, double phi,
                            zeno_cycle *cycle, zeno_error *error);

/// Settings of the maps.
typedef struct zeno_maps_def {
  int samples;             ///< uniform samples over I (>= 16)
  double breakpoint_tol;   ///< bisection width for breakpoints and fixed points [rad]
  double endpoint_delta;   ///< distance from +-pi/2 for the endpoint limits G-, G+ [rad]
} zeno_maps_def;

/// samples 6000, breakpoint_tol 1e-12, endpoint_delta 1e-7.
zeno_maps_def zeno_maps_def_default(void);

/// Checks the settings zeno_maps_compute() needs: samples >= 16,
/// breakpoint_tol > 0, endpoint_delta in (0, 0.1) (ZENO_ERR_RANGE).
zeno_status zeno_maps_def_validate(const zeno_maps_def *def, zeno_error *error);

/// A fixed point of R, finite or limiting (+-pi/2, Lemma 3).
typedef struct zeno_fixed_point {
  double phi;       ///< [rad]
  double G;         ///< growth there
  double slope;     ///< R'(phi) (within its word interval; G+- at the limits, eq. (31))
  bool limiting;    ///< phi = +-pi/2
  bool convergent;  ///< |R'| < 1: phi(k) is attracted to it
} zeno_fixed_point;

/// Most fixed points and breakpoints kept.
#define ZENO_MAX_FIXED_POINTS 64
#define ZENO_MAX_BREAKPOINTS 256

/// The maps R and G over I.
typedef struct zeno_maps {
  int sample_count;
  zeno_cycle *samples;   ///< sorted by phi (uniform grid plus breakpoint sides)
  int breakpoint_count;  ///< where the cycle word changes, located to breakpoint_tol
  double breakpoints[ZENO_MAX_BREAKPOINTS];
  int fixed_point_count;
  zeno_fixed_point fixed_points[ZENO_MAX_FIXED_POINTS];
  bool G_minus_defined, G_plus_defined;
  double G_minus, G_plus; ///< endpoint limits of G (Lemma 3, eq. (29))
  double G_max;           ///< largest G where R is defined (-inf if nowhere)
  bool swapped;           ///< contacts were swapped to satisfy eq. (13)
} zeno_maps;

/// Computes R and G over I. Contacts are swapped first when eq. (13) needs
/// it (reported in `swapped`). Free the result with zeno_maps_free().
zeno_status zeno_maps_compute(const zeno_scene *scene, const zeno_maps_def *def,
                              zeno_maps *maps, zeno_error *error);
void zeno_maps_free(zeno_maps *maps);

/// The verdict.
typedef enum zeno_verdict {
  ZENO_VERDICT_UNDECIDED = 0,
  ZENO_VERDICT_STABLE,    ///< finite-time Lyapunov stable (FTLS)
  ZENO_VERDICT_UNSTABLE   ///< not FTLS
} zeno_verdict;

/// Settings of the verdict (Theorem 4's partition).
typedef struct zeno_analysis_def {
  zeno_maps_def maps;
  int partition_intervals; ///< uniform sub-intervals of I before refinement (paper: 300)
} zeno_analysis_def;

zeno_analysis_def zeno_analysis_def_default(void);

/// Checks the partition size (3 .. ZENO_MAX_PARTITION / 2) and the maps'
/// settings, as zeno_analyze() needs them (ZENO_ERR_RANGE).
zeno_status zeno_analysis_def_validate(const zeno_analysis_def *def, zeno_error *error);

/// Most sub-intervals of a Theorem 4 partition (uniform ones plus breakpoints,
/// fixed points and G = 1 crossings).
#define ZENO_MAX_PARTITION 1024

/// The result of zeno_analyze().
typedef struct zeno_analysis {
  zeno_equilibrium_report equilibrium;
  bool persistent;            ///< Definition 4
  zeno_verdict verdict;
  int theorem;                ///< 1-4, or 0 when no theorem decides
  int region;                 ///< the paper's Example 6 classes 0-7
  char reason[160];           ///< one line: why
  zeno_maps maps;             ///< computed unless infeasible, Painlevé or ambiguous
  bool has_maps;
  /// Theorem 4: the partition's interior points and its intervals' classes.
  int partition_count;        ///< sub-intervals
  double partition[ZENO_MAX_PARTITION + 1]; ///< edges, -pi/2 .. pi/2
  bool safe[ZENO_MAX_PARTITION];
  int unsafe_count;
} zeno_analysis;

/// Analyses the nominal equilibrium of a two-contact scene. Free with
/// zeno_analysis_free() (after an error there is nothing to free, and
/// calling it is harmless).
zeno_status zeno_analyze(const zeno_scene *scene, const zeno_analysis_def *def,
                         zeno_analysis *analysis, zeno_error *error);
void zeno_analysis_free(zeno_analysis *analysis);

/// Definition 5 on an explicit partition with edges[0] = -pi/2 < edges[1] <
/// ... < edges[n] = pi/2: classifies its intervals (safe[i]: G < 1 or R
/// undefined on the samples of interval i), builds the interval graph from
/// the maps' samples (images widened by the sampling step, so edges are only
/// ever added) and sets *stable when conditions 1-4 hold; *why says which
/// failed. The paper's Example 5 partition of Example 2 is edges
/// {-pi/2, -0.5, 1.45, pi/2}. Errors (*why says which): ZENO_ERR_ARGUMENT
/// for a NULL pointer or n outside 1..ZENO_MAX_PARTITION, ZENO_ERR_RANGE
/// for edges that do not increase, ZENO_ERR_NOMEM.
zeno_status zeno_partition_stable(const zeno_maps *maps, const double *edges, int n,
                                  bool *safe, int *unsafe_count, bool *stable,
                                  char *why, size_t why_size);

/// Definition 4 on its own (needs a non-ambiguous equilibrium for a true).
zeno_status zeno_persistent(const zeno_scene *scene, bool *persistent,
                            zeno_error *error);

/// "stable", "unstable", "undecided".
const char *zeno_verdict_name(zeno_verdict verdict);

#ifdef __cplusplus
}
#endif
#endif
