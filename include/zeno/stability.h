/// @file stability.h
/// Lyapunov stability of a two-contact equilibrium (paper Sec. 7): the
/// verdicts of Theorems 1-4 with the paper's regions 0-7, persistence
/// (Definition 4), and Definition 5's interval graph of a partition of the
/// section I = (-pi/2, pi/2), which decides Theorem 4 and which the
/// `--graph` figure draws.
#ifndef ZENO_STABILITY_H
#define ZENO_STABILITY_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/equilibrium.h"
#include "zeno/error.h"
#include "zeno/poincare.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

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
