// The maps' threads (maps_stream_internal.h): the stream's uniform samples
// shared out among them a block at a time, each thread on a runner of its
// own. A cycle is a function of its angle alone, so the map is the same to
// the last bit on any number of threads.
#include <stdlib.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "base/parallel.h"
#include "base/util.h"
#include "maps/maps_stream_internal.h"

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
  size_t first, end;
} block_job;

// Uniform samples first.. (up to s->lanes of them, before `end`) into out
// on runner r: all at once on its kernel's lanes, fewer one by one.
// *made: those made, in order, up to the first failure (its status
// returned).
static zeno_status eval_lanes(zeno_maps_stream *s, cycle_runner *r, size_t first, size_t end,
                              zeno_cycle *out, size_t *made, zeno_error *error) {
  *made = 0;
  const size_t lanes = (size_t)s->lanes;
  if (lanes > 1 && end - first >= lanes) {
    double phi[SIM_KERNEL_MAX_LANES];
    for (size_t l = 0; l < lanes; l++) phi[l] = maps_uniform_phi(s, first + l);
    int n;
    const zeno_status st = poincare_runner_eval_lanes(r, s->lanes, phi, out, &n, error);
    *made = (size_t)n;
    return st;
  }
  for (; first + *made < end && *made < lanes; (*made)++) {
    const zeno_status st = poincare_runner_eval(r, maps_uniform_phi(s, first + *made), &out[*made],
                                                error);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// Samples g lanes.. of the block on the runner of the thread that takes
// them.
static zeno_status eval_group(const void *context, size_t g, const zeno_interrupt *interrupt,
                              zeno_error *error) {
  (void)interrupt;  // a group is a few cycles: asked between groups
  const block_job *b = context;
  zeno_maps_stream *s = b->s;
#ifdef _OPENMP
  const int t = omp_get_thread_num();
#else
  const int t = 0;
#endif
  cycle_runner *r = t == 0 ? &s->runner : &s->extra[t - 1];
  size_t made;
  const size_t at = g * (size_t)s->lanes;
  return eval_lanes(s, r, b->first + at, b->end, &s->block[at], &made, error);
}

// Uniform samples first.. (up to MAPS_BLOCK of them) on the threads, each
// on its thread's runner; the first failure in phi order is reported.
static zeno_status eval_block(zeno_maps_stream *s, size_t first) {
  zeno_status st = make_extra_runners(s);
  if (st != ZENO_OK) return st;
  const size_t left = s->def.samples - first;
  const size_t count = left < MAPS_BLOCK ? left : MAPS_BLOCK;
  const block_job job = {.s = s, .first = first, .end = first + count};
  const size_t lanes = (size_t)s->lanes;
  // The cycles solve no linear program: nothing to free per worker.
  st = parallel_run((count + lanes - 1) / lanes, s->threads, ZENO_MAPS_MAX_THREADS,
                    MAPS_CHUNK > lanes ? MAPS_CHUNK / lanes : 1, eval_group, &job,
                    &s->def.interrupt, NULL, s->error);
  if (st != ZENO_OK) return st;
  s->block_first = first;
  s->block_count = count;
  return ZENO_OK;
}

zeno_status maps_eval_uniform(zeno_maps_stream *s, size_t k, const zeno_cycle **c) {
#ifdef _OPENMP
  const bool share = s->threads > 1 && !omp_in_parallel();
#else
  const bool share = false;
#endif
  if (!share) {
    if (!(k >= s->quad_first && k < s->quad_first + s->quad_count)) {
      s->quad_first = k;
      const zeno_status st = eval_lanes(s, &s->runner, k, s->def.samples, s->quad, &s->quad_count,
                                        s->error);
      if (s->quad_count == 0) return st;  // sample k failed (a later one fails when asked)
    }
    *c = &s->quad[k - s->quad_first];
    return ZENO_OK;
  }
  if (!(k >= s->block_first && k < s->block_first + s->block_count)) {
    const zeno_status st = eval_block(s, k);
    if (st != ZENO_OK) return st;
  }
  *c = &s->block[k - s->block_first];
  return ZENO_OK;
}

void maps_block_free(zeno_maps_stream *s) {
  for (int t = 0; t < s->extra_count; t++) poincare_runner_free(&s->extra[t]);
  free(s->extra);
  free(s->block);
}

double maps_uniform_phi(const zeno_maps_stream *s, size_t k) {
  return -ZENO_PI / 2 + ((double)k + 0.5) * ZENO_PI / (double)s->def.samples;
}
