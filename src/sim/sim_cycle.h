// One Poincaré cycle (section (22) to section): made on the flat kernel
// (sim_kernel.h), the fast path, where it covers the cycle; else by the
// event loop (sim.c) with a recorder that keeps what a cycle records of
// its events. The kernel hands back more impacts than a Zeno period search
// could act on, a sequence at a precision floor, an ambiguous or
// inconsistent mode or impact, a law it does not resolve, or a decision
// within SIM_CYCLE_TIE_FLOOR of a tie (where rounding decides, the event
// loop's answer is the reference). Not public API.
#ifndef ZENO_SIM_SIM_CYCLE_H
#define ZENO_SIM_SIM_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "dynamics/flow_zod.h"
#include "zeno/sim.h"

/// Cycles with a decision nearer a tie than this (zeno_event.tie_margin)
/// go to the event loop: far above the rounding that could make the two
/// paths decide differently (the kernel's tie margins differ from the
/// loop's by at most 1e-13, test_sim_cycle: a hundredth of this), far below
/// any tie a map reports (ZENO_FIXED_POINT_TIE_MARGIN). (It was 1e-9: the
/// maps' bisections then ran their last ten steps to every breakpoint on
/// the event loop.)
#define SIM_CYCLE_TIE_FLOOR 1e-11

/// Room for a cycle's word and outcomes, terminator included: the size of
/// zeno_cycle's (maps/poincare.c checks that they agree).
#define SIM_CYCLE_WORD 96

typedef struct sim_cycle {
  bool returned;  ///< reached the second impact on the section
  double angle;   ///< its section angle atan(xdot2 / |zdot2|) [rad]
  double rate;    ///< zdot2' just before it, in the scene's units [length/time]
  double t;       ///< its time, in the scene's units [time]
  /// How a cycle that did not return ended: on the kernel rest, escaped
  /// or the time limit; on the event loop any outcome.
  zeno_outcome end;
  /// Smallest tie margin of the events before the return (of every event
  /// of a cycle that did not return), capped at 1.
  double tie_margin;
  /// The steps after the start's pseudo-mode up to the return impact (as
  /// zeno_cycle.word), and the impacts' letters (zeno_cycle.outcomes).
  char word[SIM_CYCLE_WORD];
  char outcomes[SIM_CYCLE_WORD];
  size_t word_len, outcomes_len;  ///< their lengths
} sim_cycle;

/// Events a fast cycle may take (a cycle of the paper has 4-6; longer ones,
/// e.g. with Zeno sequences inside, run on the event loop).
#define SIM_CYCLE_MAX_EVENTS 32

/// What a cycle's run on the kernel keeps besides the simulator's state
/// (sim_kernel.c, sim_kernel4.c).
typedef struct sim_cycle_track {
  sim_cycle *out;
  size_t word_len, outcomes_len;
  int sections, events;
  long impacts;
  double first_speed;
  double all_tie;  ///< smallest tie margin of every event, the return's included
} sim_cycle_track;

/// Starts the cycle's record in *out.
void sim_cycle_track_init(sim_cycle_track *t, sim_cycle *out);
/// Starts the track of *out without touching *out (a run's).
void sim_cycle_track_clear(sim_cycle_track *t, sim_cycle *out);
/// Appends a token of n characters to a word or outcome list of the cycle
/// (buf of SIM_CYCLE_WORD, *len its length); false when it does not fit.
/// Inline: a cycle appends a dozen tokens.
static inline bool sim_cycle_append(char *buf, size_t *len, const char *token, size_t n) {
  const size_t sep = *len ? 1 : 0;
  if (*len + sep + n >= SIM_CYCLE_WORD) return false;
  if (sep) buf[(*len)++] = ' ';
  memcpy(buf + *len, token, n);
  *len += n;
  buf[*len] = '\0';
  return true;
}

/// The tie margin noted for the event just made (*tie, the simulator's)
/// goes into the cycle's (counts: false for the return, whose margin is the
/// next cycle's), and *tie is reset to `none`.
static inline void sim_cycle_take_tie(sim_cycle_track *t, double *tie, double none, bool counts) {
  if (*tie < t->all_tie) t->all_tie = *tie;
  if (counts && *tie < t->out->tie_margin) t->out->tie_margin = *tie;
  *tie = none;
}
/// The return impact: its section angle, the rate zdot2' before it, and
/// the simulator's time.
void sim_cycle_return(sim_cycle_track *t, const zeno_sim *s, double angle, double rate);
/// A segment's end when it is the cycle's: no guard crossing before the
/// time limit, or an escape first, before the time limit or beyond it (a
/// terminal mode: an unstable cycle sliding on without end, flow_segment_end());
/// with the sorted crossings cr[0..n) of contact coordinates c + cd tau +
/// cdd tau^2 / 2. True when the cycle ended there.
bool sim_cycle_segment_end(sim_cycle_track *t, zeno_sim *s, const flow_crossing *cr, int n,
                           const double c[4], const double cd[4], const double cdd[4]);
/// The cycle's end: times and rates in the user's units; whether the cycle
/// may be taken (done, and no decision nearer a tie than the floor).
bool sim_cycle_finish(const sim_cycle_track *t, const zeno_sim *s, bool done);

/// Runs the cycle of a two-contact ZOD simulator from q' = 0, qdot' = qdp
/// (a state on the section), restarting it: on the flat kernel
/// (sim_kernel.h) where the simulator has the per-scene table and the
/// kernel takes the cycle, else on the event loop (sim_cycle_run_loop).
/// Errors (an out-of-memory run, a simulator that is not a ZOD one) are
/// the loop's.
zeno_status sim_cycle_run(zeno_sim *s, const double qdp[3], sim_cycle *out, zeno_error *error);

/// The same cycle on the event loop alone, the kernel's oracle: the loop's
/// events (lean records) until the second section crossing, the run's end
/// or its failure, each given to the cycle's recorder (its word from the
/// first impact to the return, the impacts' letters, the tie margins of
/// the events before the return, the return's angle, rate and time).
zeno_status sim_cycle_run_loop(zeno_sim *s, const double qdp[3], sim_cycle *out, zeno_error *error);

#endif
