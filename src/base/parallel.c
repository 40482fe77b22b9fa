// Work shared out over OpenMP threads (parallel.h).
#include "base/parallel.h"

#include <stdatomic.h>
#include <time.h>

#include "base/util.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/// While the calling thread waits for the other threads' last items, it
/// asks the caller's interrupt every millisecond: a stop is seen long
/// before a person notices (the Python package promises 0.5 s), and a
/// thread that wakes a thousand times a second costs nothing measurable.
#define PARALLEL_POLL_NANOSECONDS 1000000L

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

/// What the threads of a run share to stop: the caller's interrupt, asked
/// on the calling thread only (zeno/interrupt.h), and its answer, which
/// every thread reads.
typedef struct parallel_stop {
  const zeno_interrupt *caller;
  atomic_bool stopped;
} parallel_stop;

/// The other threads' question: has the calling thread seen a stop?
static bool stop_seen(void *user) {
  parallel_stop *p = user;
  return atomic_load_explicit(&p->stopped, memory_order_relaxed);
}

/// The calling thread's question: the caller's interrupt, its answer kept
/// for the others.
static bool stop_asked(void *user) {
  parallel_stop *p = user;
  if (stop_seen(p)) return true;
  if (zeno_interrupt_check(p->caller, NULL) == ZENO_OK) return false;
  atomic_store_explicit(&p->stopped, true, memory_order_relaxed);
  return true;
}

#ifdef _OPENMP
/// The calling thread, out of items, until the others finish theirs: it
/// keeps asking the caller's interrupt, which only it may ask.
static void wait_for_team(parallel_stop *stop, atomic_size_t *done, size_t n) {
  const struct timespec poll = {0, PARALLEL_POLL_NANOSECONDS};
  while (atomic_load_explicit(done, memory_order_relaxed) < n && !stop_asked(stop))
    nanosleep(&poll, NULL);
}
#endif

zeno_status parallel_run(size_t n, int threads, int max, size_t chunk, parallel_item_fn item,
                         const void *context, const zeno_interrupt *interrupt,
                         parallel_worker_end_fn worker_end, zeno_error *error) {
  if (threads > max)
    return zeno_fail(error, ZENO_ERR_RANGE, "threads", "%d threads: at most %d", threads, max);
  const int team = parallel_team(threads, max);
  (void)team;  // unused without OpenMP
  (void)chunk;
  // A stop before the start runs nothing, whichever threads would take the items.
  const zeno_status asked = zeno_interrupt_check(interrupt, error);
  if (asked != ZENO_OK) return asked;
  const bool interruptible = interrupt != NULL && interrupt->check != NULL;
  parallel_stop stop = {.caller = interrupt};
  atomic_init(&stop.stopped, false);
  atomic_size_t done;
  atomic_init(&done, 0);
  size_t first_bad = n;
  zeno_status first_status = ZENO_OK;
  zeno_error first_error;
  zeno_error_clear(&first_error);
#ifdef _OPENMP
#pragma omp parallel num_threads(team)
#endif
  {
#ifdef _OPENMP
    const bool caller = omp_get_thread_num() == 0;  // the team's master is the calling thread
#else
    const bool caller = true;
#endif
    const zeno_interrupt none = {NULL, NULL};
    const zeno_interrupt mine = {caller ? stop_asked : stop_seen, &stop};
    const zeno_interrupt *own = interruptible ? &mine : &none;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, chunk) nowait
#endif
    for (size_t ix = 0; ix < n; ix++) {
      zeno_error e;
      zeno_status st = zeno_interrupt_check(own, &e);
      if (st == ZENO_OK) st = item(context, ix, own, &e);
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
      atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
    }
#ifdef _OPENMP
    if (caller && interruptible) wait_for_team(&stop, &done, n);
#endif
    if (worker_end) worker_end();
  }
  if (first_status != ZENO_OK && error) *error = first_error;
  return first_status;
}
