// Shared by the stability files (stability.c: verdicts; stability_graph.c:
// Definition 5's partitions and interval graph). Not public API.
#ifndef ZENO_ANALYSIS_STABILITY_INTERNAL_H
#define ZENO_ANALYSIS_STABILITY_INTERNAL_H

/// G is "above 1" when it exceeds 1 by more than this (G is exact under the
/// ZOD up to rounding; a fixed point with G = 1 is not generic).
#define ZENO_VERDICT_G_TOL 1e-9

#endif
