// The benchmarks' clock and statistics (tools/bench_*.c): timings sorted
// and read at a percentile, so that a shared machine's pauses, which move a
// mean by 10%, hardly move the figure.
#ifndef ZENO_TOOLS_BENCH_STATS_H
#define ZENO_TOOLS_BENCH_STATS_H

#include <stddef.h>
#include <stdlib.h>
#include <time.h>

/// Seconds on the monotonic clock since an arbitrary start.
static inline double bench_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench_compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/// Sorts the n timings v in place.
static inline void bench_sort(double *v, size_t n) {
  qsort(v, n, sizeof *v, bench_compare_doubles);
}

/// The p-th percentile (p in [0, 1]) of n sorted timings (0.5: the median).
static inline double bench_percentile(const double *sorted, size_t n, double p) {
  return sorted[(size_t)(p * (double)(n - 1) + 0.5)];
}

#endif
