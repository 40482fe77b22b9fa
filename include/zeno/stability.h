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
  ZENO_VERDICT_STABLE,   ///< finite-time Lyapunov stable (FTLS)
  ZENO_VERDICT_UNSTABLE  ///< not FTLS
} zeno_verdict;

/// "stable", "unstable", "undecided".
ZENO_API const char *zeno_verdict_name(zeno_verdict verdict);

/// Settings of the verdict (Theorem 4's partition).
typedef struct zeno_analysis_def {
  zeno_maps_def maps;
  size_t partition_intervals;  ///< uniform sub-intervals of I before refinement (paper: 300)
  /// Compute the maps also where they decide nothing (an impact law other
  /// than the inelastic one), to be drawn; false leaves them out
  /// (has_maps false): the region maps, which draw no maps, do.
  bool maps_when_undecided;
} zeno_analysis_def;

/// maps as zeno_maps_def_default(), 300 partition intervals, maps when
/// undecided.
ZENO_API zeno_analysis_def zeno_analysis_def_default(void);

/// Checks the partition size (3 .. ZENO_MAX_PARTITION / 2) and the maps'
/// settings, as zeno_analyze() needs them (ZENO_ERR_RANGE).
ZENO_API zeno_status zeno_analysis_def_validate(const zeno_analysis_def *def, zeno_error *error);

/// Most sub-intervals of a Theorem 4 partition (uniform ones plus breakpoints,
/// fixed points and G = 1 crossings).
#define ZENO_MAX_PARTITION 1024
/// Fewest uniform sub-intervals of a partition (zeno_analysis_def).
#define ZENO_MIN_PARTITION 3

/// The result of zeno_analyze(): a caller-owned struct (its maps are
/// allocated; free them with zeno_analysis_free()).
/// Room for a verdict's reason: one line, which may quote two cycle words.
#define ZENO_REASON_SIZE 384

typedef struct zeno_analysis {
  zeno_equilibrium_report equilibrium;
  bool persistent;  ///< Definition 4
  zeno_verdict verdict;
  int theorem;                    ///< 1-4, or 0 when no theorem decides
  int region;                     ///< the paper's Example 6 classes 0-7
  char reason[ZENO_REASON_SIZE];  ///< one line: why
  zeno_maps maps;                 ///< computed unless infeasible, Painlevé or ambiguous
  bool has_maps;
  /// Theorem 4 (tried when no earlier theorem decides): the partition
  /// checked, its intervals' classes and how many are unsafe.
  size_t partition_count;                    ///< sub-intervals; 0 when Theorem 4 was not tried
  double partition[ZENO_MAX_PARTITION + 1];  ///< edges, -pi/2 .. pi/2 [rad]
  bool safe[ZENO_MAX_PARTITION];
  size_t unsafe_count;
} zeno_analysis;

/// Analyses the nominal equilibrium of a two-contact scene. Free with
/// zeno_analysis_free() (after an error there is nothing to free, and
/// calling it is harmless).
ZENO_API zeno_status zeno_analyze(const zeno_scene *scene, const zeno_analysis_def *def,
                                  zeno_analysis *analysis, zeno_error *error);
/// Frees the maps of an analysis; NULL is accepted.
ZENO_API void zeno_analysis_free(zeno_analysis *analysis);

/// Definition 4 on its own (needs a non-ambiguous equilibrium for a true).
ZENO_API zeno_status zeno_persistent(const zeno_scene *scene, bool *persistent, zeno_error *error);

/* ---- Definition 5: partitions and the interval graph ---------------------- */

/// Sign of R - phi over the samples of an interval where R is defined
/// (Definition 5, condition 3 asks an unsafe interval for a strict one).
typedef enum zeno_interval_sign {
  ZENO_SIGN_NONE = 0,  ///< R is defined at none of its samples
  ZENO_SIGN_POSITIVE,  ///< R > phi at each of them
  ZENO_SIGN_NEGATIVE,  ///< R < phi at each of them
  ZENO_SIGN_MIXED      ///< R - phi changes sign or vanishes
} zeno_interval_sign;

/// One interval of a partition of I and its class.
typedef struct zeno_interval {
  double lo, hi;            ///< end points [rad]
  bool safe;                ///< G < 1 or R undefined at each of its samples
  zeno_interval_sign sign;  ///< of R - phi
} zeno_interval;

/// Definition 5's interval graph of a partition of I: a caller-owned struct
/// (free with zeno_interval_graph_free()). Node i is interval i; arc
/// (i, j) says that R maps part of interval i into interval j: the image
/// of interval i is [min R, max R] over its samples where R is defined,
/// widened by the largest step of R between neighbouring samples, so that
/// values of R between samples are covered (the graph may only gain arcs:
/// conservative for a stability proof). An interval where R is defined
/// nowhere is a sink.
typedef struct zeno_interval_graph {
  size_t count;              ///< intervals
  zeno_interval *intervals;  ///< in phi order
  /// count x count: arc[i * count + j] = 1 when R maps part of interval i
  /// into interval j. A built graph has no self-arcs (R - phi of fixed
  /// sign inside an interval is condition 3, not an arc); a merged graph
  /// has arc[i * count + i] = 1 when R maps part of merged interval i into
  /// another of the intervals merged into it.
  unsigned char *arc;
  bool merged;  ///< made by zeno_interval_graph_merge()
} zeno_interval_graph;

/// Builds the interval graph of the partition with edges[0] = -pi/2 <
/// edges[1] < ... < edges[n] = pi/2 from the maps' samples. Errors:
/// ZENO_ERR_ARGUMENT for a NULL pointer or n outside 1..ZENO_MAX_PARTITION,
/// ZENO_ERR_RANGE for edges that do not increase, ZENO_ERR_NOMEM. After any
/// error but ZENO_ERR_ARGUMENT the graph is empty (freeing it is harmless).
ZENO_API zeno_status zeno_interval_graph_build(const zeno_maps *maps, const double *edges, size_t n,
                                               zeno_interval_graph *graph, zeno_error *error);

/// The graph of a built graph's partition with consecutive intervals of one
/// class (safe or not) merged: node k is a run of intervals, arc (k, l) for
/// every arc of the built graph from a member of k to a member of l. This
/// is the graph the `--graph` figure draws. Errors: ZENO_ERR_ARGUMENT,
/// ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_interval_graph_merge(const zeno_interval_graph *graph,
                                               zeno_interval_graph *merged, zeno_error *error);

/// Frees a graph and empties it; NULL is accepted.
ZENO_API void zeno_interval_graph_free(zeno_interval_graph *graph);

/// Merges consecutive intervals of one class of the partition with edges
/// edges[0..n] and classes safe[0..n-1]: writes at most n intervals to out
/// (sign ZENO_SIGN_NONE: the partition alone does not know it) and returns
/// how many; 0 when n is 0.
ZENO_API size_t zeno_partition_merge(const double *edges, const bool *safe, size_t n,
                                     zeno_interval *out);

/// What Definition 5 says of a partition.
typedef struct zeno_partition_verdict {
  bool stable;          ///< conditions 1-4 hold
  size_t unsafe_count;  ///< unsafe intervals
  char reason[128];     ///< the condition that failed; "" when stable
} zeno_partition_verdict;

/// Definition 5 on a built interval graph of the maps' partition:
/// condition 3 (R - phi of strict sign in every unsafe interval), 4 (no
/// unsafe interval on a cycle of the graph) and 1-2 (the maps' endpoint
/// limits G+- differ from 1). The paper's Example 5 partition of Example 2
/// is edges {-pi/2, -0.5, 1.45, pi/2}. Errors: ZENO_ERR_ARGUMENT for NULL
/// or a merged graph, ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_partition_stable(const zeno_maps *maps, const zeno_interval_graph *graph,
                                           zeno_partition_verdict *verdict, zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
