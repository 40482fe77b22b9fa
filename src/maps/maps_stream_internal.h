// The maps' stream (maps_stream.c) and the threads that share out its
// uniform samples a block at a time (maps_block.c): the stream's state and
// what the two files call of each other. Not public API.
#ifndef ZENO_MAPS_MAPS_STREAM_INTERNAL_H
#define ZENO_MAPS_MAPS_STREAM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "maps/poincare_internal.h"
#include "scene/scene_units.h"
#include "sim/sim_kernel.h"
#include "zeno/poincare.h"

/// A list of fixed points (the map's two kinds are kept apart until the
/// end, in the order the map reports them).
typedef struct fp_list {
  size_t count;
  zeno_fixed_point fp[ZENO_MAX_FIXED_POINTS];
} fp_list;

/// Where one window of samples (a uniform sample, the breakpoint sides
/// before it and the uniform sample before those) starts in each record.
typedef struct window_mark {
  size_t sample;      ///< index in the window buffer
  size_t breakpoint;  ///< first breakpoint located in it
  size_t sign_fp;     ///< first fixed point found at a sign change in it
} window_mark;

struct zeno_maps_stream {
  zeno_maps_def def;
  zeno_scene ordered;  ///< in its own units, contacts in the order of eq. (13)
  scene_units units;
  cycle_runner runner;
  /// Breakpoints, limits, G_max and swapped; the fixed points are put
  /// together at the end (sign changes, then breakpoints, then limits).
  zeno_maps maps;
  fp_list sign;   ///< fixed points at sign changes of R - phi
  fp_list on_bp;  ///< fixed points on breakpoints not found by the sign test
  /// The samples not yet dropped, sorted by phi: the current window and the
  /// one before; a window's breakpoints are settled once the window after
  /// it is complete and another sample has come (their fixed points may sit
  /// in the window after).
  zeno_cycle *win;
  size_t win_len, win_cap;
  size_t handed;  ///< win[0, handed) were handed out
  window_mark prev, cur;
  bool have_prev;       ///< a previous window exists (not yet settled)
  size_t next_uniform;  ///< uniform samples evaluated
  /// Threads sharing out the uniform samples (1: none), each with a
  /// runner of its own: runner for the first, extra[t - 1] for thread t,
  /// made at the first block.
  int threads;
  cycle_runner *extra;
  int extra_count;
  zeno_cycle *block;  ///< uniform samples block_first.. evaluated ahead
  size_t block_first, block_count;
  /// Cycles the runners make at once (poincare_runner_lanes).
  int lanes;
  /// With one thread, uniform samples quad_first.. evaluated ahead `lanes`
  /// at a time (poincare_runner_eval_lanes).
  zeno_cycle quad[SIM_KERNEL_MAX_LANES];
  size_t quad_first, quad_count;
  bool sampled;         ///< every uniform sample was evaluated and settled
  bool finished;        ///< the endpoint limits and fixed points are in maps
  zeno_status failure;  ///< a failed step: every later call reports it
  zeno_error *error;    ///< the current call's error
};

/// Section angle of uniform sample k.
double maps_uniform_phi(const zeno_maps_stream *s, size_t k);

/// Uniform sample k, in *c until the next call: from the block the
/// threads evaluated ahead (a new block when k is past it), or with one
/// thread from the runner's lanes (poincare_runner_eval_lanes).
zeno_status maps_eval_uniform(zeno_maps_stream *s, size_t k, const zeno_cycle **c);

/// Frees the threads' runners and block.
void maps_block_free(zeno_maps_stream *s);

#endif
