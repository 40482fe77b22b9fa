/// @file poincare.h
/// The Poincaré section (22) of a two-contact equilibrium and the maps on
/// it (paper Sec. 6): one exact ZOD cycle per section angle, the reduced map
/// R (26), the growth map G (27), their breakpoints, fixed points and the
/// endpoint limits G-, G+ (Lemma 3).
///
/// Angles phi are the section angle (25): atan(xdot2 / |zdot2|) of contact
/// 2's pre-impact velocity while contact 1 is sustained, in I = (-pi/2, pi/2).
#ifndef ZENO_POINCARE_H
#define ZENO_POINCARE_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/interrupt.h"
#include "zeno/scene.h"
#include "zeno/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Longest cycle word kept per sample (the paper's cycles have 4-6 steps).
#define ZENO_CYCLE_WORD 96

/// One cycle of the ZOD from the section at angle phi.
typedef struct zeno_cycle {
  double phi;                  ///< start angle [rad]
  bool defined;                ///< the cycle returned to the section: R, G defined
  double R;                    ///< angle at the return (26) [rad]
  double G;                    ///< growth |zdot2 at return| / |zdot2 at start| (27)
  double T;                    ///< cycle duration for unit |zdot2| at the start [time]
  zeno_outcome end;            ///< undefined cycles: how the run ended (rest, ...)
  char word[ZENO_CYCLE_WORD];  ///< steps from the first impact to the return impact
  /// Per impact of the cycle, the outcome letter of each contact (S sticks,
  /// P/N slips, F no impulse): "FS FP" is an FI that sticks then one that
  /// slips. Together with the word it identifies a smooth branch of R and G
  /// (the paper's kink of G at 0.54 in Example 2 is a change of outcome).
  char outcomes[ZENO_CYCLE_WORD];
  /// Smallest tie margin of the cycle's events before the return (see
  /// zeno_event.tie_margin): how close its decisions came to going another
  /// way. A breakpoint of R is where one of them does.
  double tie_margin;
} zeno_cycle;

/// Evaluates one cycle (exact ZOD). The scene must have two contacts; the
/// contact order follows eq. (13) (see zeno_maps_compute for the swap).
ZENO_API zeno_status zeno_cycle_eval(const zeno_scene *scene, double phi, zeno_cycle *cycle,
                                     zeno_error *error);

/// Settings of the maps.
typedef struct zeno_maps_def {
  size_t samples;         ///< uniform samples over I (>= 16)
  double breakpoint_tol;  ///< bisection width for breakpoints and fixed points [rad]
  double endpoint_delta;  ///< distance from +-pi/2 for the endpoint limits G-, G+ [rad]
  /// A fixed point this close to a breakpoint is on it, and decided by the
  /// exact cycle from it [rad], >= 0 (0: only one found at a sign change
  /// across a breakpoint).
  double fixed_point_breakpoint_tol;
  /// ... and a tie when that cycle's tie margin is at most this, in [0, 1].
  double fixed_point_tie_margin;
  /// Run the cycles on the simulator's per-scene table (zeno_sim_def.
  /// zod_table); false: the general path, the oracle of the tests and
  /// benchmarks.
  bool zod_table;
  /// Threads that share out the uniform samples (OpenMP), at most
  /// ZENO_MAPS_MAX_THREADS; 1 for none; 0: OpenMP's default
  /// (OMP_NUM_THREADS, else every core) for maps of 100,000 samples and
  /// more, none below (where a wait for a thread the system delays would
  /// cost more than the threads save). A cycle depends on its angle alone,
  /// so the maps are the same to the last bit on any number of threads.
  /// Inside another parallel region (a region map's points) the maps run
  /// on that thread.
  int threads;
  /// Asked between samples (and between the threads' groups of samples):
  /// a stop ends zeno_maps_compute() with ZENO_ERR_INTERRUPTED and nothing
  /// to free, and a stream (zeno_maps_stream_next()) the same way;
  /// zeno_analyze() stops with its maps. Default: none.
  zeno_interrupt interrupt;
} zeno_maps_def;

/// Largest zeno_maps_def.threads.
#define ZENO_MAPS_MAX_THREADS 256
/// Fewest and most zeno_maps_def.samples: the maps need a few samples per
/// breakpoint; a million (a quarter of a gigabyte of cycles, some seconds)
/// resolves the section far below any breakpoint spacing seen.
#define ZENO_MAPS_MIN_SAMPLES 16
#define ZENO_MAPS_MAX_SAMPLES 1000000

/// samples 6000, breakpoint_tol 1e-12, endpoint_delta 1e-7, zod_table true,
/// threads 0.
ZENO_API zeno_maps_def zeno_maps_def_default(void);

/// Checks the settings zeno_maps_compute() needs: samples in
/// [ZENO_MAPS_MIN_SAMPLES, ZENO_MAPS_MAX_SAMPLES],
/// breakpoint_tol > 0, endpoint_delta in (0, 0.1), threads in [0,
/// ZENO_MAPS_MAX_THREADS] (ZENO_ERR_RANGE).
ZENO_API zeno_status zeno_maps_def_validate(const zeno_maps_def *def, zeno_error *error);

/// A fixed point of R, finite or limiting (+-pi/2, Lemma 3).
typedef struct zeno_fixed_point {
  double phi;       ///< [rad]
  double G;         ///< growth there
  double slope;     ///< R'(phi) (within its word interval; G+- at the limits, eq. (31))
  bool limiting;    ///< phi = +-pi/2
  bool convergent;  ///< |R'| < 1: phi(k) is attracted to it
  /// Within fixed_point_breakpoint_tol of a breakpoint (zeno_maps_def), where the word
  /// changes: which branch holds at phi is then not a matter of the maps'
  /// samples (R's value there is decided by rounding) but of the exact
  /// cycle from phi itself, evaluated once more: G and slope are that
  /// cycle's, and the fields below say what it did.
  bool at_breakpoint;
  char word_left[ZENO_CYCLE_WORD];   ///< at_breakpoint: the word just left of it
  char word_right[ZENO_CYCLE_WORD];  ///< ... and just right ("" where R is undefined)
  /// at_breakpoint: the cycle from phi returns to phi (|R(phi) - phi| <=
  /// the tolerance): a fixed point of the exact dynamics. When false the
  /// orbit leaves (or ends) there and the point is no fixed point.
  bool returns;
  /// at_breakpoint: the cycle from phi decides on a near tie (its
  /// tie_margin <= fixed_point_tie_margin): two continuations are
  /// admissible there and the verdict is undecided.
  bool tie;
  double tie_margin;  ///< at_breakpoint: that cycle's tie margin
} zeno_fixed_point;

/// Default fixed_point_breakpoint_tol [rad]: a thousand times the default
/// breakpoint_tol, far below any sampling step.
#define ZENO_FIXED_POINT_BREAKPOINT_TOL 1e-9
/// Widest sliver a breakpoint may span [rad]: two word changes nearer than
/// this, with different words at the sliver's two ends, are one
/// breakpoint where several words meet at a tie (the rounding decides
/// inside), listed once from the first's left word to the second's right
/// word; its two neighbouring samples are then up to this far apart
/// instead of breakpoint_tol.
#define ZENO_BREAKPOINT_TIE_WIDTH 1e-8
/// Default fixed_point_tie_margin: the simulator's default tie_rtol.
#define ZENO_FIXED_POINT_TIE_MARGIN 1e-6

/// Most fixed points and breakpoints kept.
#define ZENO_MAX_FIXED_POINTS 64
#define ZENO_MAX_BREAKPOINTS 256

/// The maps R and G over I: a caller-owned result (its samples are
/// allocated; free them with zeno_maps_free()).
typedef struct zeno_maps {
  size_t sample_count;
  zeno_cycle *samples;      ///< sorted by phi (uniform grid plus breakpoint sides)
  size_t breakpoint_count;  ///< where the cycle word changes, located to breakpoint_tol
  double breakpoints[ZENO_MAX_BREAKPOINTS];
  size_t fixed_point_count;
  zeno_fixed_point fixed_points[ZENO_MAX_FIXED_POINTS];
  bool G_minus_defined, G_plus_defined;
  double G_minus, G_plus;  ///< endpoint limits of G (Lemma 3, eq. (29))
  double G_max;            ///< largest G where R is defined (-inf if nowhere)
  bool swapped;            ///< contacts were swapped to satisfy eq. (13)
} zeno_maps;

/// Computes R and G over I. Contacts are swapped first when eq. (13) needs
/// it (reported in `swapped`). Free the result with zeno_maps_free().
ZENO_API zeno_status zeno_maps_compute(const zeno_scene *scene, const zeno_maps_def *def,
                                       zeno_maps *maps, zeno_error *error);
/// Frees the samples and empties the maps; NULL is accepted.
ZENO_API void zeno_maps_free(zeno_maps *maps);

/// The maps sample by sample, for maps too large to hold (600,000 samples
/// would take 150 MB): the samples are handed out in phi order as they are
/// made, in constant memory, and the rest of the maps (breakpoints, fixed
/// points, endpoint limits, G_max) is complete after the last.
/// zeno_maps_compute() is this stream collected.
typedef struct zeno_maps_stream zeno_maps_stream;

/// Starts the maps of the scene (settings as zeno_maps_compute; NULL for
/// the defaults). NULL with `error` filled on failure (as zeno_maps_compute).
ZENO_API zeno_maps_stream *zeno_maps_stream_create(const zeno_scene *scene,
                                                   const zeno_maps_def *def, zeno_error *error);
/// The next sample in phi order (the uniform grid and both sides of every
/// breakpoint): ZENO_OK with *cycle filled, ZENO_DONE after the last. A
/// failure (out of memory), or a stop by def->interrupt (asked before each
/// uniform sample: ZENO_ERR_INTERRUPTED), is returned by this and every
/// later call.
ZENO_API zeno_status zeno_maps_stream_next(zeno_maps_stream *stream, zeno_cycle *cycle,
                                           zeno_error *error);
/// After ZENO_DONE: the maps without their samples (sample_count 0,
/// samples NULL; nothing to free). ZENO_ERR_ARGUMENT before.
ZENO_API zeno_status zeno_maps_stream_result(const zeno_maps_stream *stream, zeno_maps *maps,
                                             zeno_error *error);
/// Destroys a stream (NULL is accepted).
ZENO_API void zeno_maps_stream_destroy(zeno_maps_stream *stream);

#ifdef __cplusplus
}
#endif
#endif
