// The monotonic wall clock the library times its work with: a run's
// stop.wall_time, a certificate's and a semidefinite program's seconds.
// Never the physics. Not public API.
#ifndef ZENO_BASE_CLOCK_H
#define ZENO_BASE_CLOCK_H

#include <time.h>

/// Seconds on the monotonic clock since an arbitrary start (0 where the
/// clock cannot be read).
static inline double clock_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
