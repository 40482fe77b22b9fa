// Private state of the simulator, shared by the sim folder's files: sim.c
// (the hybrid loop), sim_zeno.c (Zeno completion), sim_contact.c (contact
// state and mode choice), sim_full.c (the full model), sim_create.c and
// sim_query.c. Not public API.
#ifndef ZENO_SIM_SIM_INTERNAL_H
#define ZENO_SIM_SIM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dynamics/contact_solve.h"
#include "dynamics/flow_cvode.h"
#include "dynamics/flow_zod.h"
#include "dynamics/impact.h"
#include "dynamics/impact_series.h"
#include "dynamics/kinematics.h"
#include "dynamics/mode_table.h"
#include "dynamics/zero_tol.h"
#include "scene/scene_units.h"
#include "sim/sim_table.h"
#include "zeno/impact_law.h"
#include "zeno/sim.h"

/// A scene of more than two contacts: the N-contact engine's run behind
/// the simulator (sim_multi.c).
typedef struct sim_multi sim_multi;

typedef struct segment {
  double t0, t1;
  double q0[3], qd0[3], qdd[3];
  zeno_mode mode;
  double force[4];
  bool zeno_tail;  ///< linear stand-in for the infinitely many Zeno impacts
  bool full;       ///< full model: dense output from nodes[node_first..]
  size_t node_first, node_count;
} segment;

/// The run: the state, the mode in force, the run's flags, counts and
/// record. Zeroed as a whole at creation and by sim_restart_zod (a new run).
typedef struct sim_run {
  double t, q[3], qd[3];                ///< q' and qdot' (ZOD coordinates, see kinematics_model.Cp)
  mode_solution sol;                    ///< the mode in force
  double vscale;                        ///< velocity scale of the current segment
  size_t node_len, word_len, hist_len;  ///< in use of the buffers nodes, word, hist
  char failure[48];                     ///< full model: CVODE flag name of a failure

  bool started, finished, end_pending, zeno_pending;
  bool start_impact;  ///< the initial state is an impact (zero gap, approaching)
  zeno_outcome outcome, pending_outcome;
  zeno_guard pending_guard;
  long event_count, impact_count;
  long energy_gains;       ///< impacts that added kinetic energy
  double energy_gain_max;  ///< largest such gain over the kinetic energy before
  size_t consistent_count;
  zeno_mode consistent[ZENO_MAX_MODES];
  /// An inconsistent end's proof (zeno_event.refusal): why each mode or
  /// impact candidate was refused.
  refusal_table refusals;
  bool refusal_of_impact;
  uint64_t signature;  ///< running hash since the last impact

  /// Smallest tie margin noted for the event being built (zeno_event.
  /// tie_margin); SIM_TIE_NONE between events.
  double tie;
  /// Monotonic clock at the first event [s] (stop.wall_time).
  double wall_start;

  bool has_zeno;
  double first_zeno_time;
  long first_zeno_impacts;
  size_t section_count;                    ///< section crossings so far
  double sections[ZENO_SUMMARY_SECTIONS];  ///< the first of them
} sim_run;

/// Zeno detection (sim_zeno.c) and completion (sim_zeno_close.c): the
/// state both engines keep (impact_series.h); its records are sim_records.
typedef series_zeno sim_zeno;

/// Zeno detection's records. Never cleared: only zeno.ring_len and
/// zeno.chain_len of them matter, so creation leaves them uninitialised
/// (they are large, and cycles of the Poincaré maps run thousands of times).
typedef struct sim_records {
  /// Impacts of the current sequence.
  impact_record ring[SERIES_RING];
  /// The chain's completions (t, the state after closing, the first impact
  /// speed of the sequence, the contacts it touched).
  impact_record chain[SERIES_CHAIN];
} sim_records;

struct zeno_sim {
  /* ---- configuration and buffers: kept by sim_restart ---- */
  /// The scene in its own units (scene_units.h): everything below computes
  /// in these; events, states and summaries are converted back to the
  /// user's units as they leave (sim_query.c).
  zeno_scene scene;
  zeno_scene user_scene;  ///< the scene as given (zeno_sim_scene())
  scene_units units;      ///< of user_scene
  zeno_sim_def def;
  /// The latest escape of a terminal mode [time] (flow_segment_end()):
  /// from rest at ZERO_TOL_TERMINAL_ACCEL_RTOL of the acceleration scale, a
  /// coordinate reaches the escape radius then; later ones are drift.
  double escape_horizon;
  kinematics_model km;
  contact_dyn dyn;  ///< constant under the ZOD; refreshed at every event in the full model
  mode_solution_cache mode_cache;  ///< ZOD: every mode's solution, solved once
  sim_table table;                 ///< ZOD with def.zod_table: choices and impact maps, made once
  /// Events carry their time, modes and ZOD states (zod, zod_rate) only,
  /// not the rest of the public state record nor the drift and residual
  /// checks: the Poincaré maps' cycles read no more (sim_restart.h).
  bool lean_events;
  zfc *cv;                      ///< full model: the CVODE integrator
  double len_scale, vel_scale;  ///< full model: eps^2 and eps for q' input, else 1
  cvode_node *nodes;            ///< full model: accepted steps (dense output)
  size_t node_cap;
  sim_multi *multi;  ///< more than two contacts: everything runs there (NULL for 1 or 2)
  char *word;
  size_t word_cap;
  bool word_failed;  ///< the word could not grow: the next call reports NOMEM
  segment *hist;
  size_t hist_cap;

  sim_run run;
  sim_zeno zeno;
  sim_records records;  ///< last: creation clears what is before it
};
_Static_assert(offsetof(zeno_sim, records) + sizeof(sim_records) == sizeof(zeno_sim),
               "the records are the simulator's last member (zeno_sim_create)");

/// Contact coordinates (z1, x1, z2, x2) and rates from q', qdot' under the ZOD.
void sim_contacts(const zeno_sim *s, const double q[3], const double qd[3], double c[4],
                  double cd[4]);

/// Gaps within this tolerance of zero touch at the start: rounding of the
/// initial state's conversion to the model's coordinates (sim_create.c).
double sim_start_gap_tol(const zeno_sim *s);

/// A state's contact fields (gap, slip, their rates, forces) of n
/// contacts from their coordinates (z_i, x_i), rates and forces, 2n each.
void sim_state_contacts(zeno_state *st, int n, const double *c, const double *cd,
                        const double *force);

/* More than two contacts (sim_multi.c): the public calls hand over to these. */
/// Makes s->multi and its run from the scene (in its own units); ZENO_ERR_UNSUPPORTED for
/// the full model.
zeno_status sim_multi_init(zeno_sim *s, zeno_error *e);
void sim_multi_destroy(sim_multi *mu);
/// A new run from q' and its rate (own units); the simulator unchanged on failure.
zeno_status sim_multi_restart(zeno_sim *s, const double qp[3], const double qdp[3], zeno_error *e);
/// The next event, in the scene's own units.
zeno_status sim_multi_next_event(zeno_sim *s, zeno_event *ev, zeno_error *error);
/// Dense output at t (own units) over the kept segments.
zeno_status sim_multi_state_at(const zeno_sim *s, double t, zeno_state *st, zeno_error *error);
/// The state after the last event (the initial one before the start).
void sim_multi_final_state(const zeno_sim *s, zeno_state *st);
const char *sim_multi_word(const zeno_sim *s);
/// Whether q''s third coordinate is the angle theta (else a contact coordinate).
bool sim_multi_zod_angle(const zeno_sim *s);
/// The names of q''s coordinates ("z3", "x1", "th"; zeno_sim_zod_names()).
void sim_multi_zod_names(const zeno_sim *s, char names[3][ZENO_ZOD_NAME_SIZE]);
/// The names of q''s coordinates of one or two contacts.
void sim_pair_zod_names(int contact_count, char names[3][ZENO_ZOD_NAME_SIZE]);

/* Zeno detection (sim_zeno.c) */
/// Remembers an impact just resolved (state after it) for sequence detection.
void sim_zeno_record_impact(zeno_sim *s, double speed, unsigned touched);
/// Whether `speed` is at the precision floor of the velocities on the
/// speed scale vscale (within SIM_ZENO_TOL_FACTOR of velocity_rtol times
/// it, what the loop calls zero), where impacting and closed can no longer
/// be told apart.
bool sim_zeno_at_floor(const zeno_sim *s, double speed, double vscale);
/// An approach at the floor that the impact law cannot resolve, during a
/// sequence: the sequence is completed there (a ZENO event pending, the
/// approaching contacts closed by it). False when no sequence is on (the
/// caller closes the contacts in a transition).
bool sim_zeno_floor_approach(zeno_sim *s, double speed, unsigned touched);
/// Forgets the current impact sequence (after a Zeno completion).
void sim_zeno_reset(zeno_sim *s);
/// After an impact: sets zeno_pending (a converging sequence, with its
/// extrapolated limit) or end_pending with outcome diverging.
void sim_zeno_detect(zeno_sim *s);
/// Applies a pending fast-forward (zeno.forward_pending): the state of a
/// whole number of periods later, a linear stand-in segment over them.
zeno_status sim_zeno_forward(zeno_sim *s);
/// Whether sim_zeno_detect() would do nothing after the impacts-th impact
/// (at `speed`, the first at first_speed) of a fresh ZOD run, with no
/// completion before: too few impacts for a period, none at a floor.
bool sim_zeno_quiet(const zeno_sim *s, long impacts, double speed, double first_speed);
/// sim_zeno_quiet() at velocity scale vscale instead of the simulator's
/// (the kernel's four-lane cycles keep one per lane).
bool sim_zeno_quiet_at(const zeno_sim *s, long impacts, double speed, double first_speed,
                       double vscale);
/// Records the completion just made (the state after closing) in the chain
/// of completions, starting one if none is on.
void sim_chain_record(zeno_sim *s);
/// After a completion: sets zeno_pending (order 2) when the chain's last
/// periods repeat with one ratio and its tail is negligible.
void sim_chain_detect(zeno_sim *s);

/* closing at the accumulation point (sim_zeno_close.c) */
/// A sequence completed at a floor, or extrapolated in the full model,
/// leaves contact speeds up to its last impact speed (times the
/// slip-to-normal speed ratio of its steps); speeds below this many times
/// that speed are zero at its accumulation point.
#define SIM_ZENO_FLOOR_TOL_FACTOR 10.0
/// The ZENO event: closes a pending sequence or chain at its accumulation
/// point (the linear stand-in segment, the impacting contacts closed, the
/// next mode chosen).
zeno_status sim_zeno_emit(zeno_sim *s, zeno_event *ev);

/* events and the mode word (sim.c) */
/// Starts an event record at the current state (mode and state before).
void sim_event_begin(zeno_sim *s, zeno_event *ev, zeno_event_kind kind, zeno_guard guard,
                     int contact);
/// Completes it: tie margin, mode and state after, the event count and the
/// event limit.
void sim_event_finish(zeno_sim *s, zeno_event *ev);
/// Appends a token to the mode word (and to the step signature).
zeno_status sim_word_append(zeno_sim *s, const char *token);
/// The same for a token of n characters (not terminated).
zeno_status sim_word_append_n(zeno_sim *s, const char *token, size_t n);
/// The same for a token of two letters (a mode, an impact).
zeno_status sim_word_append2(zeno_sim *s, char a, char b);
/// Appends the name of the mode in force.
void sim_mode_token(zeno_sim *s);
/// Notes an impact's energy gain from the kinetic energies before and
/// after it in the run's record (above rounding: more than a fraction 1e-9
/// of before); returns the gain, or 0 when there is none.
double sim_note_energy_gain(zeno_sim *s, double before, double after);

static inline bool sim_is_full(const zeno_sim *s) { return s->scene.model == ZENO_MODEL_FULL; }

/// The per-scene table is read (ZOD and def.zod_table).
static inline bool sim_has_table(const zeno_sim *s) { return s->def.zod_table && !sim_is_full(s); }

/// Contact Jacobian at q (ZOD: the constant W0).
void sim_jacobian(const zeno_sim *s, const double q[3], double W[3][4]);
/// Appends a segment to the history (dense output).
zeno_status sim_hist_push(zeno_sim *s, const segment *g);

/// The guards that fired together at the current instant, per contact.
typedef struct sim_hits {
  bool gap[ZENO_PAIR_CONTACTS];     ///< the gap of a free contact reached zero (impact)
  bool slip[ZENO_PAIR_CONTACTS];    ///< the slip rate of a slipping contact reached zero
  bool lift[ZENO_PAIR_CONTACTS];    ///< the normal force of a closed contact reached zero
  bool margin[ZENO_PAIR_CONTACTS];  ///< the friction margin of a sticking contact reached zero
} sim_hits;

/// A ZOD segment in the current mode from the current state: its
/// accelerations qddp (q'), contact coordinates c, rates cd and
/// accelerations cdd, and its guard crossings sorted by time (sim.c).
/// Returns how many.
int sim_zod_crossings(const zeno_sim *s, double qddp[3], double c[4], double cd[4], double cdd[4],
                      flow_crossing cr[FLOW_MAX_CROSSINGS]);
/// The guards of a ZOD segment's sorted crossings cr[0..n) that fire with
/// the first: those within def.time_rtol of its time (sim.c).
sim_hits sim_crossing_hits(const zeno_sim *s, const flow_crossing *cr, int n);

/* full model (sim_full.c) */
bool sim_full_initial_state(zeno_sim *s);
void sim_full_zero_gaps(zeno_sim *s, const bool closed[2]);
void sim_full_refresh_dyn(zeno_sim *s);
/// Integrates the current mode to its next guard crossing. Returns
/// ZENO_DONE on a solver failure (s->run.failure names CVODE's flag).
zeno_status sim_full_flow(zeno_sim *s, zeno_event *ev, double *vscale, flow_crossing *first,
                          sim_hits *hits);
void sim_full_sample(const zeno_sim *s, const segment *g, double t, double q[3], double qd[3]);

/* contact state (sim_contact.c) */
/// A segment's zeros (dynamics/zero_tol.h, shared with the N-contact
/// engine).
typedef zero_tol tolerances;

/// The mode's accelerations in ZOD coordinates.
void sim_mode_rates(const zeno_sim *s, const mode_solution *sol, double qddp[3]);
/// Rates of the simulator's state (q' or q) to generalised and back.
void sim_rates_to_gen(const zeno_sim *s, const double v[3], double out[3]);
void sim_gen_to_rates(const zeno_sim *s, const double v[3], double out[3]);
/// An event's state record at the current state: the whole of it, or with
/// lean_events its time, mode and ZOD coordinates only.
void sim_event_state(const zeno_sim *s, zeno_state *st);
/// The public state record of (q, qd) in mode sol at time t.
void sim_fill_state(const zeno_sim *s, double t, const double q[3], const double qd[3],
                    const mode_solution *sol, zeno_state *st);
/// Largest contact speed at the current pose [length/time].
double sim_contact_speed(const zeno_sim *s, const double qd[3]);
/// Largest of the contact rates cd [length/time].
double sim_speed_of(const zeno_sim *s, const double cd[4]);
/// Gaps of the listed contacts to exactly zero (ZOD: components of q';
/// full model: Newton projection).
void sim_zero_gaps(zeno_sim *s, const bool closed[2]);
/// The contact dynamics at the current state (constant under the ZOD).
void sim_refresh_dyn(zeno_sim *s);
/// Closed contacts onto their constraints (positions and rates).
void sim_enforce(zeno_sim *s, const mode_class *cls);
/// Zero thresholds for a segment of speed scale vscale.
tolerances sim_make_tol(const zeno_sim *s, double vscale);
/// Kinematic classes of the contacts (touching[i]: gap known to be zero).
void sim_classify(const zeno_sim *s, const bool touching[2], double tol_v, mode_class *cls);
/* units (sim_query.c) */
/// A state computed in the simulator's units, in the user's.
void sim_state_to_user(const zeno_sim *s, zeno_state *st);
/// An event's times, impulses and states in the user's units.
void sim_event_to_user(const zeno_sim *s, zeno_event *ev);

/// The mode choice of a class (sim_choose_next()'s): the table's, or worked
/// out and remembered in it.
void sim_class_choice(zeno_sim *s, const mode_class *cls, const tolerances *tol, sim_choice *ch);
/// Makes the table's projection onto contact coordinates cols[0..m) (as
/// sim_enforce() makes it when it first needs it); false when they are
/// dependent or the simulator has no table.
bool sim_table_projection(zeno_sim *s, const int *cols, int m);

/// Chooses the next mode; sets end_pending for rest, ambiguity, inconsistency.
void sim_choose_next(zeno_sim *s, const mode_class *cls, const tolerances *tol);

/// Tie margin of an event at which nothing came close (zeno_event.tie_margin
/// is capped here: margins are relative, and above 1 nothing is near).
#define SIM_TIE_NONE 1.0

/// Notes a decision margin of the event being built.
static inline void sim_note_tie(zeno_sim *s, double margin) {
  if (margin < s->run.tie) s->run.tie = margin;
}

/// Tie margin of the mode choice at the current state: the smallest
/// |slack| of a Table 1 inequality of the chosen mode or of any other
/// admissible mode (sim_contact.c).
double sim_choice_margin(zeno_sim *s, const mode_class *cls);

/* impacts (sim_impact.c) */
/// The impact law's input at the current state, whose contact rates cd
/// the caller holds, for the contacts touching (cls, or gap_hit); *touched
/// their bits. Returns the largest approach speed of the impacting
/// contacts: zero for a tangent touch (no impact).
double sim_impact_input(zeno_sim *s, const mode_class *cls, const bool gap_hit[2],
                        const double cd[4], const tolerances *tol, impact_input *in,
                        unsigned *touched);
/// The Poincaré section (22): contact 1 sustained and contact 2 colliding
/// (contact rates cd); *angle = atan(xdot2 / |zdot2|).
bool sim_on_section(const zeno_sim *s, const mode_class *cls, const double cd[4], double *angle);
/// After the law's result: the rates, the touching contacts' classes
/// (closed unless separating) and their projection.
void sim_impact_apply(zeno_sim *s, const impact_input *in, const impact_result *out,
                      const tolerances *tol, mode_class *cls);

/* tie margins of the loop's decisions (sim_ties.c), from the contact
   coordinates c and rates cd the caller holds */
/// An impact's contacts (gap_hit): the squared approach speed over the
/// squared speed scale.
void sim_note_grazing(zeno_sim *s, const bool gap_hit[ZENO_PAIR_CONTACTS], const double cd[4],
                      double vscale);
/// Touching contacts after an event whose gap or slip rate was classified
/// nonzero but is small against the speed scale.
void sim_note_small_speeds(zeno_sim *s, const mode_class *cls,
                           const bool gap_hit[ZENO_PAIR_CONTACTS], const double cd[4], double tol_v,
                           double vscale);
/// Free contacts that came near the surface within the first tau of a
/// segment whose accelerations are cdd.
void sim_note_near_misses(zeno_sim *s, const double c[4], const double cd[4], const double cdd[4],
                          double tau);
/// A ZOD segment ending at cr[0] (of n sorted crossings): the next crossing
/// over the segment's duration, and the near misses.
void sim_note_crossing_ties(zeno_sim *s, const flow_crossing *cr, int n, const double c[4],
                            const double cd[4], const double cdd[4]);

#endif
