// The maps' threads (maps_stream_internal.h): the stream's uniform samples
// shared out among them a block at a time, each thread on a runner of its
// own. A cycle is a function of its angle alone, so the map is the same to
// the last bit on any number of threads.
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "analysis/grid_scene.h"
#include "analysis/maps_stream_internal.h"
#include "base/util.h"

/// Uniform samples evaluated together when threads share them out (the
/// window logic then takes them one by one): 4096 cycles take about 2 ms,
/// against a few microseconds to start the threads, and keep memory
/// constant (1 MB). Each block ends at a barrier, where on a busy machine
/// the threads wait for one the system delayed (a scheduler slice, some
/// milliseconds): blocks this large leave few of them.
#define MAPS_BLOCK 4096
/// Samples a thread takes at a time within a block: small, so that a
/// thread the system delays leaves its share to the others instead of
/// holding the block (on a busy machine a static half-block stalled the
/// maps by a scheduler slice at every block).
#define MAPS_CHUNK 16

// The runners of the threads beyond the first, made once.
static zeno_status make_extra_runners(zeno_maps_stream *s) {
  if (s->extra != NULL) return ZENO_OK;
  s->block = malloc(MAPS_BLOCK * sizeof *s->block);
  s->extra = calloc((size_t)(s->threads - 1), sizeof *s->extra);
  if (s->block == NULL || s->extra == NULL)
    return zeno_fail(s->error, ZENO_ERR_NOMEM, "", "out of memory");
  for (; s->extra_count < s->threads - 1; s->extra_count++) {
    const zeno_status st = poincare_runner_init(&s->extra[s->extra_count], &s->ordered,
                                                s->def.zod_table, s->error);
    if (st != ZENO_OK) {
      poincare_runner_free(&s->extra[s->extra_count]);
      return st;
    }
  }
  return ZENO_OK;
}

// A block's samples: first.. of the stream's.
typedef struct block_job {
  zeno_maps_stream *s;
  size_t first;
} block_job;

// Sample j of the block on the runner of the thread that takes it.
static zeno_status eval_sample(const void *context, size_t j, zeno_error *error) {
  const block_job *b = context;
  zeno_maps_stream *s = b->s;
#ifdef _OPENMP
  const int t = omp_get_thread_num();
#else
  const int t = 0;
#endif
  cycle_runner *r = t == 0 ? &s->runner : &s->extra[t - 1];
  return poincare_runner_eval(r, maps_uniform_phi(s, b->first + j), &s->block[j], error);
}

// Uniform samples first.. (up to MAPS_BLOCK of them) on the threads, each
// on its thread's runner; the first failure in phi order is reported.
static zeno_status eval_block(zeno_maps_stream *s, size_t first) {
  zeno_status st = make_extra_runners(s);
  if (st != ZENO_OK) return st;
  const size_t left = s->def.samples - first;
  const size_t count = left < MAPS_BLOCK ? left : MAPS_BLOCK;
  const block_job job = {.s = s, .first = first};
  st = grid_run_items(count, s->threads, MAPS_CHUNK, eval_sample, &job, s->error);
  if (st != ZENO_OK) return st;
  s->block_first = first;
  s->block_count = count;
  return ZENO_OK;
}

zeno_status maps_eval_uniform(zeno_maps_stream *s, size_t k, zeno_cycle *c) {
#ifdef _OPENMP
  const bool share = s->threads > 1 && !omp_in_parallel();
#else
  const bool share = false;
#endif
  if (!share) return poincare_runner_eval(&s->runner, maps_uniform_phi(s, k), c, s->error);
  if (!(k >= s->block_first && k < s->block_first + s->block_count)) {
    const zeno_status st = eval_block(s, k);
    if (st != ZENO_OK) return st;
  }
  *c = s->block[k - s->block_first];
  return ZENO_OK;
}

void maps_block_free(zeno_maps_stream *s) {
  for (int t = 0; t < s->extra_count; t++) poincare_runner_free(&s->extra[t]);
  free(s->extra);
  free(s->block);
}
