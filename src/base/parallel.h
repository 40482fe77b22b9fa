// Work shared out over OpenMP threads: the Poincaré maps' blocks of
// samples and the points of a grid's rows. Without OpenMP the items run in
// order on the calling thread. Not public API.
#ifndef ZENO_BASE_PARALLEL_H
#define ZENO_BASE_PARALLEL_H

#include <stddef.h>

#include "zeno/error.h"
#include "zeno/interrupt.h"

/// The team a request of `threads` makes: threads when positive, else
/// every core OpenMP offers, at most `max`; 1 without OpenMP.
int parallel_team(int threads, int max);

/// Computes item ix of a run and stores it; returns its status. Called on
/// several threads at once, each with an interrupt of its own to pass to
/// the item's work (never NULL; one without a question when the run has
/// none): it says stop on every thread soon after the caller's does.
typedef zeno_status (*parallel_item_fn)(const void *context, size_t ix,
                                        const zeno_interrupt *interrupt, zeno_error *error);

/// Runs on each worker thread after its last item (state a library keeps
/// per thread, such as GLPK's environment), or NULL.
typedef void (*parallel_worker_end_fn)(void);

/// Runs items 0..n-1 on parallel_team(threads, max) threads, handed out
/// `chunk` at a time; the error of the lowest failing item is the run's.
/// ZENO_ERR_RANGE, with nothing run, for threads above max (the caller's
/// limit: a larger team fails inside OpenMP's runtime). `interrupt` (NULL:
/// none) is asked on the calling thread only: before the first item,
/// between its items and, when
/// it has none left, every millisecond until the others finish theirs; once
/// it says stop, the items not started are not run and those running see
/// the stop through their own interrupts: ZENO_ERR_INTERRUPTED, the items
/// stored so far not to be used.
zeno_status parallel_run(size_t n, int threads, int max, size_t chunk, parallel_item_fn item,
                         const void *context, const zeno_interrupt *interrupt,
                         parallel_worker_end_fn worker_end, zeno_error *error);

#endif
