// Work shared out over OpenMP threads (parallel.h).
#include "base/parallel.h"

#include "base/util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

int parallel_team(int threads, int max) {
#ifdef _OPENMP
  if (threads > 0) return threads;
  const int cores = omp_get_max_threads();
  return cores < max ? cores : max;
#else
  (void)threads;
  (void)max;
  return 1;
#endif
}

zeno_status parallel_run(size_t n, int threads, int max, size_t chunk, parallel_item_fn item,
                         const void *context, parallel_worker_end_fn worker_end,
                         zeno_error *error) {
  if (threads > max)
    return zeno_fail(error, ZENO_ERR_RANGE, "threads", "%d threads: at most %d", threads, max);
  const int team = parallel_team(threads, max);
  (void)team;  // unused without OpenMP
  (void)chunk;
  size_t first_bad = n;
  zeno_status first_status = ZENO_OK;
  zeno_error first_error;
  zeno_error_clear(&first_error);
#ifdef _OPENMP
#pragma omp parallel num_threads(team)
#endif
  {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, chunk)
#endif
    for (size_t ix = 0; ix < n; ix++) {
      zeno_error e;
      const zeno_status st = item(context, ix, &e);
      if (st != ZENO_OK) {
#ifdef _OPENMP
#pragma omp critical
#endif
        if (ix < first_bad) {
          first_bad = ix;
          first_status = st;
          first_error = e;
        }
      }
    }
    if (worker_end) worker_end();
  }
  if (first_status != ZENO_OK && error) *error = first_error;
  return first_status;
}
