/// @file sim.h
/// The hybrid simulator: contact modes, impacts, events and outcomes.
///
/// Usage (iterate, don't call back):
///   zeno_sim_def def = zeno_sim_def_default();
///   zeno_sim *sim = zeno_sim_create(&scene, &def, &err);
///   zeno_event ev;
///   while (zeno_sim_next_event(sim, &ev, &err) == ZENO_OK) { ... }
///   zeno_sim_destroy(sim);
///
/// Generalised coordinates q = (x, y, theta): displacement of the centre of
/// mass from its nominal position [length] and rotation from the nominal
/// attitude [rad], world frame. Contact coordinates of contact i: gap z_i
/// along n_i and slip x_i along t_i [length]. ZOD coordinates
/// q' = (z1, z2, x2) (paper Sec. 5) for two-contact scenes.
#ifndef ZENO_SIM_H
#define ZENO_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/interrupt.h"
#include "zeno/mode.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Complete mechanical state at one time.
typedef struct zeno_state {
  double t;                             ///< time [time]
  double q[3];                          ///< (x, y, theta) [length, length, rad]
  double qdot[3];                       ///< (vx, vy, omega)
  double gap[ZENO_MAX_CONTACTS];        ///< z_i [length] (i < the scene's contact count)
  double gap_rate[ZENO_MAX_CONTACTS];   ///< zdot_i
  double slip[ZENO_MAX_CONTACTS];       ///< x_i [length]
  double slip_rate[ZENO_MAX_CONTACTS];  ///< xdot_i
  /// q' = (z1, z2, x2), or (z1, x1, theta) for one contact; for more than
  /// two, three contact coordinates chosen in order (docs/model.md, "Any
  /// number of contacts"; zeno_sim_zod_names() names them)
  double zod[3];
  double zod_rate[3];                  ///< qdot'
  zeno_mode mode;                      ///< mode in force after this instant
  double force[ZENO_MAX_CONTACTS][2];  ///< contact force (normal, tangential) in that mode [force]
  double energy;                       ///< kinetic energy + potential of the constant load [energy]
} zeno_state;

/// One event, returned as data.
typedef struct zeno_event {
  long index;  ///< 0 for the START event, then 1, 2, ...
  zeno_event_kind kind;
  zeno_guard guard;                      ///< cause of the event
  int contact;                           ///< contact whose guard fired (0-based), -1 if none
  double t;                              ///< event time [time]
  zeno_mode mode_before;                 ///< mode before the event (START: same as after)
  zeno_mode mode_after;                  ///< mode after the event
  unsigned impact_mask;                  ///< IMPACT: bit i set when contact i received an impulse
  double impulse[ZENO_MAX_CONTACTS][2];  ///< IMPACT: (normal, tangential) impulse [force*time]
  /// IMPACT: per contact with an impulse, S when it sticks after the impact
  /// or P/N when it slips (the paper writes a sticking FI as "FI FS ...");
  /// F for contacts without impulse.
  unsigned char impact_letter[ZENO_MAX_CONTACTS];
  /// IMPACT: kinetic energy the impact added [energy]; 0 when it dissipated
  /// or kept it (always with the inelastic and Chatterjee-Ruina laws;
  /// Newton's law with friction can add energy, a known defect of that law).
  double energy_gain;
  zeno_state before;  ///< state just before (velocities pre-impact)
  zeno_state after;   ///< state just after
  /// Guard value at the located event, scaled by the state's own scale.
  /// For more than two contacts as for two; tie_margin is NaN there (not
  /// measured: the N-contact engine does not compute it yet).
  double guard_residual;
  /// How far the contacts closed in the mode before the event drifted from
  /// their constraints over the segment, before this event's projection
  /// removed it: max of |gap| / L and |gap rate| / V (and |slip rate| / V for
  /// sticking contacts), with V the segment's speed scale and L = V^2 / a.
  double constraint_drift;
  bool on_section;       ///< IMPACT: the pre-impact state lies on the Poincaré section (22)
  double section_angle;  ///< eq. (25): atan(xdot2 / |zdot2|) before the impact [rad]
  long zeno_impacts;     ///< ZENO: impacts simulated in the sequence before completion
  double zeno_ratio;     ///< ZENO/END(diverging): geometric ratio per period of the sequence
  double zeno_error;     ///< ZENO: estimate of the accumulation-time error [time]
  /// ZENO/END(diverging): impacts per period (order 2: sequences per period); 0 at a precision floor
  int zeno_period;
  /// ZENO: 1 when the event completes a sequence of impacts; 2 when it
  /// completes a chain of completed sequences following each other with
  /// shrinking size (second-order accumulation: a bouncing contact
  /// re-excited by the other's bounces), closing every contact the chain
  /// touched. zeno_impacts then counts the chain's impacts.
  int zeno_order;
  zeno_outcome outcome;  ///< END: how the run ended; otherwise RUNNING
  /// END(solver-failure): the integrator's flag name, e.g. "CV_TOO_MUCH_WORK"
  char solver_flag[48];
  /// END(ambiguous): number of consistent modes listed (for more than two
  /// contacts the first ZENO_MAX_MODES in preference order)
  size_t consistent_count;
  zeno_mode consistent[ZENO_MAX_MODES];  ///< END(ambiguous): the consistent modes
  /// END(inconsistent): the proof. For each mode code c (the zeno_mode of
  /// letters c % 4 and c / 4), the zeno_refusal of that mode by Table 1 at
  /// the final state; where an impact could not be resolved
  /// (refusal_of_impact), of the impact law's candidate with those letters
  /// (F: no impulse at that contact). ZENO_REFUSAL_NONE for codes that are
  /// no mode or candidate of the scene.
  unsigned char refusal[ZENO_MAX_MODES];
  signed char refusal_contact[ZENO_MAX_MODES];  ///< the contact each refusal names, -1 none
  bool refusal_of_impact;  ///< the proof is of an impact's candidates, not of a mode choice
  /// How close the decisions taken at this event came to going another way
  /// [-], the smallest of: the time to the next guard crossing over the
  /// segment's duration (two guards nearly together), the squared approach
  /// speed of an impacting contact over the segment's squared speed scale
  /// (a grazing impact: the depth it would reach, over the segment's length
  /// scale), the smallest gap a free contact came back up from over its
  /// starting gap (a near miss), a post-event slip speed classified nonzero
  /// over the speed scale (squared for a separating gap rate, the height of
  /// the bounce), and the smallest slack of a Table 1 inequality of the
  /// chosen mode or of any other admissible mode over the load or its
  /// acceleration (a mode choice with a near second candidate). 1 when
  /// nothing came closer than that. 0 for an exact tie.
  double tie_margin;
  /// tie_margin <= sim_def.tie_rtol: zeno reports this event as a near tie;
  /// a perturbation of that relative size may change the mode word.
  bool near_tie;
} zeno_event;

/// Tolerances of the hybrid loop. All are relative to the state's own
/// scale, so a run at amplitude 1e-9 behaves as one at amplitude 1 (the ZOD
/// is homogeneous, eq. (24)).
typedef struct zeno_sim_def {
  /// A velocity below velocity_rtol times the current velocity scale is zero.
  /// Scale: the largest contact speed of the segment that led to the event.
  double velocity_rtol;
  /// A force below force_rtol times the load scale (|f_ex| + |tau|/rho) is zero.
  double force_rtol;
  /// Two events closer than time_rtol times the segment duration are simultaneous.
  double time_rtol;
  /// Zeno: successive period ratios agreeing to this relative tolerance are constant.
  double ratio_rtol;
  /// Zeno in the full model: the ratio is only asymptotically constant; this
  /// relative agreement of successive ratios completes the sequence, and the
  /// ZENO event reports the resulting error estimate.
  double full_ratio_rtol;
  /// Reverse chatter in the full model: the ratio drifts as the amplitude
  /// grows, so `diverging` needs ratios above 1 that agree to this relative
  /// tolerance over the same repeated steps (the ZOD uses ratio_rtol).
  double diverge_rtol;
  /// Zeno: periods with a constant ratio before completion (or `diverging`).
  int ratio_periods;
  /// Zeno: the longest period (in impacts) searched for.
  int max_period;
  /// Keep every segment so zeno_sim_state_at() can sample the whole run.
  /// Without it the segments since the previous event are kept: enough to
  /// sample each stretch between events as they come, in memory that does
  /// not grow with the run.
  bool keep_history;
  /// Events whose tie_margin is at most this are flagged near_tie, in [0, 1).
  double tie_rtol;
  /// ZOD: read the scene's constants from a table the simulator fills as
  /// it meets them (the mode choice of each kinematic class with its tie
  /// margin, the letter systems of the impact laws as linear maps), kept
  /// across restarts. false runs the general path, which re-enumerates
  /// Table 1 and re-solves the impact candidates at every event: the test
  /// oracle (same words, events equal to rounding). Default true; ignored
  /// by the full model, whose dynamics change with the state.
  bool zod_table;
  /// Asked before each event (zeno_sim_next_event(), and so zeno_sim_run()
  /// and zeno_run()), and every 4096 crossings of a run on the table's
  /// kernel: a stop returns ZENO_ERR_INTERRUPTED with the
  /// simulator as it was before the event (the kernel's run is handed back
  /// to its start), so a later call goes on. Default: none.
  zeno_interrupt interrupt;
} zeno_sim_def;

/// Defaults documented in docs/model.md.
ZENO_API zeno_sim_def zeno_sim_def_default(void);

/// Opaque simulator.
typedef struct zeno_sim zeno_sim;

/// Creates a simulator for a validated scene (the scene is copied).
/// Returns NULL and fills error on invalid input. A scene of more than two
/// contacts (up to ZENO_MAX_CONTACTS) runs on the N-contact engine, in
/// either model, through the same calls (docs/model.md, "Any number of
/// contacts"; its full model reports q' as the exact coordinates that
/// zeno_sim_zod_names names).
/// Its tolerances are def's velocity_rtol, force_rtol and time_rtol; the
/// Zeno detection's settings are the defaults.
ZENO_API zeno_sim *zeno_sim_create(const zeno_scene *scene, const zeno_sim_def *def,
                                   zeno_error *error);

/// Frees a simulator; NULL is accepted.
ZENO_API void zeno_sim_destroy(zeno_sim *sim);

/// Starts the simulator's scene over from a new initial state given in the
/// ZOD coordinates (q' = (z1, z2, x2) and its rate for two contacts, as the
/// scene's `initial: {qp, qdp}`) [length, length/time], keeping the model,
/// the per-scene ZOD table and the buffers: many perturbations of one scene
/// (Monte-Carlo runs, sweeps) without a creation each. The run's record
/// (time, events, word, Zeno sequences) starts afresh. Errors:
/// ZENO_ERR_ARGUMENT for NULL or a full-model simulator, ZENO_ERR_RANGE
/// for a state that is not finite or penetrates the surface (gap < 0);
/// the simulator is then unchanged.
ZENO_API zeno_status zeno_sim_restart(zeno_sim *sim, const double qp[3], const double qdp[3],
                                      zeno_error *error);

/// Advances to the next event and returns it in *event. Returns ZENO_OK for
/// every event including the final END event, then ZENO_DONE (not an
/// error: `error` is left alone). Errors: ZENO_ERR_ARGUMENT for a NULL
/// argument and ZENO_ERR_NOMEM when out of memory (then on every later
/// call: the run cannot go on). How the run itself ended (rest, a solver
/// failure, ...) is the END event's outcome, never an error.
ZENO_API zeno_status zeno_sim_next_event(zeno_sim *sim, zeno_event *event, zeno_error *error);

/// Runs the simulator to its end without returning the events: what
/// calling zeno_sim_next_event() until ZENO_DONE leaves (the summary, the
/// word, the outcome), with the same errors. A two-contact ZOD simulator
/// with its table (zeno_sim_def.zod_table), without keep_history or a
/// wall-clock limit, under any law but Chatterjee-Ruina's, runs a run it
/// has not started on the table's flat kernel, at a fraction of the event
/// loop's cost, with the same word and its numbers equal to rounding. The
/// completion of a Zeno sequence and a diverging end are the event loop's
/// events, after which the kernel goes on; a decision within 1e-9 of a tie
/// or at the rounding of a threshold, an ambiguous or inconsistent mode and
/// the event limit hand the run back, and the event loop makes it from its
/// start. The kernel makes every impact map of the simulator's table first
/// (its runs are then a function of their initial state). Dense output
/// afterwards covers the final instant, or with keep_history the whole run.
ZENO_API zeno_status zeno_sim_run(zeno_sim *sim, zeno_error *error);

/// Dense output: the state at time t within the simulated part of the run
/// (needs keep_history for times before the previous event). Velocities at an
/// impact time are the post-impact ones. Errors: ZENO_ERR_RANGE for a time
/// that is not finite or outside the simulated (or kept) part,
/// ZENO_ERR_ARGUMENT for NULL.
ZENO_API zeno_status zeno_sim_state_at(const zeno_sim *sim, double t, zeno_state *state,
                                       zeno_error *error);

/// Current outcome (RUNNING until the END event has been returned).
ZENO_API zeno_outcome zeno_sim_outcome(const zeno_sim *sim);

/// The settings the simulator runs with (its own copy).
ZENO_API const zeno_sim_def *zeno_sim_settings(const zeno_sim *sim);

/// The scene the simulator runs (its own copy).
ZENO_API const zeno_scene *zeno_sim_scene(const zeno_sim *sim);

/// Room for the name of a q' coordinate ("z16", "th") and its terminator.
#define ZENO_ZOD_NAME_SIZE 8

/// The names of q''s three coordinates (zeno_state.zod): "z1", "z2", "x2"
/// for two contacts, "z1", "x1", "th" for one; for more, the N-contact
/// engine's choice (the gaps of the contacts touching at the nominal pose
/// first, then their slips from the last contact back: "z1", "z2", "z3"
/// for a box in a corner). Contacts 1-based.
ZENO_API void zeno_sim_zod_names(const zeno_sim *sim, char names[3][ZENO_ZOD_NAME_SIZE]);

/// The same names for a scene, without a simulator (a writer's header).
/// The scene's geometry errors as zeno_sim_create() reports them.
ZENO_API zeno_status zeno_scene_zod_names(const zeno_scene *scene,
                                          char names[3][ZENO_ZOD_NAME_SIZE], zeno_error *error);

/// Section angles kept in a summary (all of them come with the events).
#define ZENO_SUMMARY_SECTIONS 16

/// Summary of a finished (or current) run.
typedef struct zeno_summary {
  zeno_outcome outcome;
  double t;                ///< time of the last event [time]
  long events;             ///< events returned, START and END included
  long impacts;            ///< impacts simulated (Zeno tails excluded)
  bool has_zeno;           ///< a Zeno sequence was completed
  double zeno_time;        ///< time of the (first) accumulation point [time]
  long zeno_impacts;       ///< impacts simulated in that sequence before completion
  zeno_state final_state;  ///< state after the last event
  long energy_gains;       ///< impacts that added kinetic energy (Newton's law with friction)
  double energy_gain_max;  ///< the largest such gain over the kinetic energy before it [-]
  size_t section_count;    ///< Poincaré section crossings recorded
  double section_angles[ZENO_SUMMARY_SECTIONS];  ///< the first of them, eq. (25) [rad]
} zeno_summary;

/// Fills the summary of the run so far.
ZENO_API void zeno_sim_summary(const zeno_sim *sim, zeno_summary *summary);

/// Writes the mode word so far in the paper's spelling, space separated,
/// e.g. "FF IF PF FI FP IF PF SF II SS"; a completed Zeno sequence adds
/// "Z" at its accumulation point. Writes at most size bytes (the text is
/// cut, always terminated, when size is too small) and returns the length
/// of the whole word.
ZENO_API size_t zeno_sim_word(const zeno_sim *sim, char *buffer, size_t size);

/// Runs a scene to its end and fills the summary (and the word when
/// word != NULL). A convenience for tests, sweeps and the CLI. Stopped by
/// def->interrupt: ZENO_ERR_INTERRUPTED, the summary zeroed and the word
/// empty.
ZENO_API zeno_status zeno_run(const zeno_scene *scene, const zeno_sim_def *def,
                              zeno_summary *summary, char *word, size_t word_size,
                              zeno_error *error);

/// Stable names, as printed in JSON ("rest", "impact", ...).
ZENO_API const char *zeno_outcome_name(zeno_outcome outcome);
ZENO_API const char *zeno_event_kind_name(zeno_event_kind kind);

#ifdef __cplusplus
}
#endif
#endif
