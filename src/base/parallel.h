// Work shared out over OpenMP threads: the Poincaré maps' blocks of
// samples and the points of a grid's rows. Without OpenMP the items run in
// order on the calling thread. Not public API.
#ifndef ZENO_BASE_PARALLEL_H
#define ZENO_BASE_PARALLEL_H

#include <stddef.h>

#include "zeno/error.h"

/// The team a request of `threads` makes: threads when positive, else
/// every core OpenMP offers, at most `max`; 1 without OpenMP.
int parallel_team(int threads, int max);

/// Computes item ix of a run and stores it; returns its status. Called on
/// several threads at once.
typedef zeno_status (*parallel_item_fn)(const void *context, size_t ix, zeno_error *error);

/// Runs on each worker thread after its last item (state a library keeps
/// per thread, such as GLPK's environment), or NULL.
typedef void (*parallel_worker_end_fn)(void);

/// Runs items 0..n-1 on parallel_team(threads, max) threads, handed out
/// `chunk` at a time; the error of the lowest failing item is the run's.
/// ZENO_ERR_RANGE, with nothing run, for threads above max (the caller's
/// limit: a larger team fails inside OpenMP's runtime).
zeno_status parallel_run(size_t n, int threads, int max, size_t chunk, parallel_item_fn item,
                         const void *context, parallel_worker_end_fn worker_end, zeno_error *error);

#endif
