// The Poincaré cycle's flat kernel: the fast cycle's decisions (sim_cycle.c)
// for two contacts under the ZOD, on data the per-scene table holds in the
// ZOD's own coordinates (each mode's accelerations and rest test, the
// impact's effect on qdot', the constraint projections), without the
// general loop's conversions, struct copies and strings. Not public API.
//
// It agrees with sim_cycle.c's steps to rounding, not bit for bit (it
// forms the same quantities in another order), and hands a cycle back to
// them wherever rounding could decide: a velocity within its band around
// its threshold, a tie margin below SIM_CYCLE_TIE_FLOOR, and every case the
// steps hand back themselves (and Chatterjee-Ruina impacts, which it does
// not form). What the table has not made yet it makes when it first meets
// it, so that a cycle is a function of its angle alone. test_sim_cycle
// holds the two to 1e-12 with the same words, but within 1e-14 rad of a
// breakpoint, where a decision at the rounding of its threshold may go
// either way on either path.
//
// The same kernel makes whole runs (sim_kernel_run, zeno_sim_run), run on
// past the section with the run's record kept as the event loop keeps it;
// test_sim_run holds them to the loop.
#ifndef ZENO_SIM_SIM_KERNEL_H
#define ZENO_SIM_SIM_KERNEL_H

#include <stdbool.h>

#include "sim/sim_cycle.h"
#include "sim/sim_table.h"

/// A velocity classified against a threshold tol (zero below it) is left
/// to the steps when it lies within [tol / BAND, tol * BAND]: there the
/// two paths' rounding (1e-16 of the speed scale) could class it apart.
/// (A run's band; a cycle's is SIM_KERNEL_CYCLE_ROUNDING's.)
#define SIM_KERNEL_BAND 4.0
/// A cycle's velocities are left to the steps within tol -+ e, e the two
/// paths' difference a cycle can reach: this much of the cycle's starting
/// speed scale (the kernel and the steps differ by at most 1.7e-13 of it in
/// R, G, T and the rates, measured on 189,000 cycles of paper and random
/// scenes under three laws: 60 times that), and at least a hundredth and
/// at most three quarters of tol (the run's band, below tol). The maps'
/// bisections run every breakpoint where a velocity crosses its threshold
/// down to 1e-12 rad, and with the run's band handed several cycles of each
/// to the event loop (the narrower band made the Example 6 region map 10%
/// faster).
#define SIM_KERNEL_CYCLE_ROUNDING 1e-11

/// A run (sim_kernel_run) with a decision nearer a tie than this is made by
/// the event loop (a run's chatter goes on for many more events than a
/// cycle's, and its tie floor stays the one first measured).
#define SIM_KERNEL_RUN_TIE_FLOOR 1e-9

/// Four cycles from the section states qdp[l] at once (sim_kernel4.c),
/// each as sim_kernel_cycle() would make it, bit for bit: bit l of the
/// result is set when lane l's cycle was made in out[l]. 0 when the lanes
/// part on a decision, or one of them would leave sim_kernel_cycle()'s
/// path or meet something the table has not made yet, or the processor
/// lacks AVX2: the caller then runs the four one by one.
unsigned sim_kernel_cycle4(zeno_sim *s, const double qdp[4][3], sim_cycle out[4]);
/// Cycles sim_kernel_cycle4() makes at once on this processor: 4 (AVX2),
/// else 1 (none).
int sim_kernel_lanes(void);
/// The most cycles made at once.
#define SIM_KERNEL_MAX_LANES 4

/// A run on the kernel asks the simulator's interrupt every this many
/// crossings (zeno_sim_def.interrupt): a crossing costs about a tenth of a
/// microsecond, so a stop is seen within a millisecond at a cost too small
/// to measure; a stop hands the run back to its start.
#define SIM_KERNEL_INTERRUPT_EVENTS 4096

/// Whether the kernel may run the simulator's cycles and runs: a
/// two-contact ZOD simulator with its table and the kernel's data (after
/// sim_kernel_prepare), without a wall-clock limit (checked between the
/// event loop's events).
bool sim_kernel_serves(const zeno_sim *s);

/// Allocates the kernel's data of a simulator (once; its table's
/// `kernel`): its cycles run on the kernel only after this. ZENO_ERR_NOMEM when out of
/// memory.
zeno_status sim_kernel_prepare(zeno_sim *s);

/// The cycle from the section state qdp on the kernel (as sim_cycle_run);
/// false when it handed the cycle back (*out undefined, the simulator to be
/// restarted).
bool sim_kernel_cycle(zeno_sim *s, const double qdp[3], sim_cycle *out);

/// What sim_kernel_run() did.
typedef enum sim_kernel_end {
  /// The run is done: the simulator is finished, as the event loop leaves it.
  SIM_KERNEL_DONE,
  /// The next event is the event loop's (a Zeno completion, a diverging
  /// end; or the kernel does not apply): the simulator stands between
  /// events as the loop would leave it, to rounding.
  SIM_KERNEL_LOOP,
  /// Handed back: the simulator is to be restarted, and the run made by
  /// the event loop from its start.
  SIM_KERNEL_BACK,
} sim_kernel_end;

/// A run of the simulator on the kernel, from its initial state (fresh or
/// restarted) or from between two events, as the event loop makes it
/// without returning its events: the word, counts, sections, energy gains,
/// Zeno records and final state are the loop's, to rounding. It hands the
/// run back wherever it hands a cycle back (a decision near a tie or in a
/// classification's band, an ambiguous or inconsistent mode, an impact it
/// does not resolve), and at the event limit.
sim_kernel_end sim_kernel_run(zeno_sim *s);

/// Whether the kernel makes runs of the simulator: two contacts under the
/// ZOD with the table, no wall-clock limit, no dense output kept, not
/// Chatterjee-Ruina's law (whose impacts it does not resolve).
bool sim_kernel_runs(const zeno_sim *s);

/// impact.c's resolution of the impact at the simulator's state (cd its
/// contact rates, tol_v the velocity threshold) on the context's made
/// preference list (sim_kernel_law.c): the first candidate that passes is
/// applied to s->run.qd, its impulse mask (bit i: contact i) and outcome
/// letters returned; false when none passes (the steps report it).
bool sim_kernel_resolve(zeno_sim *s, const bool touching[2], const bool impacting[2],
                        const double cd[4], double tol_v, unsigned *mask, unsigned char letter[2]);

/// Frees the kernel's data (zeno_sim_destroy()).
void sim_kernel_free(zeno_sim *s);

#endif
