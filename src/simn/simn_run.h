// Private state of the N-contact engine, shared by simn.c (the event loop),
// simn_state.c (the state's corrections, classes, mode choice, event
// records and word) and simn_zeno.c (Zeno completion).
// Not public API.
#ifndef ZENO_SIMN_SIMN_INTERNAL_H
#define ZENO_SIMN_SIMN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dynamics/flow_cvode.h"
#include "dynamics/impact_series.h"
#include "dynamics/zero_tol.h"
#include "simn/simn.h"

#define MAXC SIMN_MAX_CONTACTS
#define MAXV (2 * SIMN_MAX_CONTACTS)

/// Guard crossings of one segment at most: a gap or a slip per contact and
/// two escapes per contact coordinate.
#define SIMN_MAX_CROSSINGS (5 * MAXC)
/// Kinematic classes remembered per run (each with its consistent modes),
/// at most; the cache starts at SIMN_CLASS_CACHE_FIRST and doubles as
/// classes are met (a run meets a few dozen: no large block per run).
#define SIMN_CLASS_CACHE 256
#define SIMN_CLASS_CACHE_FIRST 16

/// The consistent modes of one class, solved once (the ZOD's dynamics are
/// constant): the first and the last in preference order, and all names.
typedef struct simn_choice {
  mode_n_class cls;
  bool closed;  ///< found by the closed reading (a tie)
  int count;
  unsigned char letters[SIMN_LISTED_MODES][MAXC];
  mode_n_solution first, last;
} simn_choice;

/// Zeno detection's records (simn_zeno.c, simn_zeno_chain.c): the impacts
/// of the current sequence and the chain's completions; the state that
/// reads them is series_zeno (impact_series.h), as the two-contact loop's.
typedef struct simn_records {
  impact_record ring[SERIES_RING];
  impact_record chain[SERIES_CHAIN];
} simn_records;

/// Guards of a full-model segment at most: per contact three of its
/// letter's (a free contact's gap; a closed one's normal force and two
/// friction margins, or its slip rate) and the two escapes of each of its
/// two coordinates.
#define SIMN_MAX_GUARDS (7 * MAXC)

/// One guard of a full-model segment (flow_cvode.c's guard_def, N wide).
typedef struct simn_guard {
  zeno_guard kind;
  int contact;
  int coordinate;  ///< ESCAPE: the contact coordinate (z_i: 2i, x_i: 2i + 1)
  int sign;        ///< FRICTION_MARGIN: the cone's edge; ESCAPE: the side
  double offset;   ///< GAP: its level at the start when below zero; ESCAPE: the nominal value
  /// GAP: the level its crossing is taken back to (simn_full.c's
  /// rewind_to_level): its start within the wobble of its surface, else 0.
  double level;
} simn_guard;

/// The full model's part of a run (simn_full.c): the integrator, the
/// dynamics at the state, and the segment's guards and scales.
typedef struct simn_full_run {
  zfc *cv;
  mode_n_dyn dyn;  ///< W, M^-1, the load, friction and the centripetal terms at the state
  impact_n_dyn imp;
  int guard_count;
  simn_guard guards[SIMN_MAX_GUARDS];
  int dirs[SIMN_MAX_GUARDS];
  cvode_scales sc;
  cvode_system sys;
  long refreshes;  ///< a redundant pattern's forces moved to another member (no event)
  /// The located guard's value for the next event (simn_event.guard_residual),
  /// NaN when none; the ZOD's flow sets it too (simn.c's zod_residual).
  double residual;
  /// The accepted steps of the segment the last event ended (run time,
  /// generalised q): the full model's dense output (simn_segment_nodes).
  cvode_node *nodes;
  size_t node_count, node_cap;
} simn_full_run;

/// The guards that fired at this instant.
typedef struct simn_hits {
  bool gap[MAXC], slip[MAXC];
  bool lift[MAXC], margin[MAXC];  ///< the full model's: a normal force, a friction margin at zero
} simn_hits;

struct simn {
  simn_model m;
  /// The dynamics modes and impacts are decided with: the model's (ZOD),
  /// or the full model's at the state (full.dyn, full.imp).
  const mode_n_dyn *dyn;
  const impact_n_dyn *imp;
  simn_full_run full;
  simn_def def;
  double escape_radius, escape_horizon;
  double t, q[3], qd[3];  ///< q' and its rate
  mode_n_solution sol;    ///< the mode in force
  double qddp[3];         ///< its accelerations in q' (mode_rates)
  /// Since the last event: the contact's gap was projected to zero, and its
  /// normal rate too (closed). The guards read these zeros exactly, as the
  /// two-contact engine's q' coordinates hold them (gaps are components).
  bool at_surface[MAXC], rate_zero[MAXC];
  double vscale;
  bool started, finished, end_pending, start_impact;
  zeno_outcome pending_outcome;
  zeno_guard pending_guard;
  char failure[SIMN_FAILURE_SIZE];  ///< a solver failure's message (cut)
  long event_count;
  int consistent_count;
  unsigned char consistent[SIMN_LISTED_MODES][MAXC];
  simn_choice *cache;
  int cache_len, cache_cap;
  char *word;
  size_t word_len, word_cap;
  uint64_t signature;  ///< the word's tokens since the last impact (impact_series.h)
  series_zeno zeno;
  simn_records records;
  bool zeno_pending;  ///< a completion is due (the next event is ZENO)
};

// Contact coordinate a at the nominal pose: a gap's gap0, a slip's 0. The
// escape radius bounds the displacement from it.

/// Contact coordinate a at the nominal pose: a gap's gap0, a slip's 0. The
/// escape radius bounds the displacement from it.
static inline double simn_offset(const simn *s, int a) {
  return a % 2 == 0 ? s->m.gap0[a / 2] : 0.0;
}

/* simn_state.c */
zero_tol simn_make_tol(const simn *s, double vscale);
/// The speed scale: the largest contact rate of the contacts that touch at
/// the nominal pose (all, if none does).
double simn_contact_speed(const simn *s, const double qd[3]);
/// sim_classify: the kinematic class of each contact at the state.
void simn_classify(const simn *s, const bool *touching, double tol_v, mode_n_class *cls);
/// Gaps of the touching contacts to zero (positions).
void simn_zero_gaps(simn *s, const bool *touching);
/// sim_enforce: the closed contacts' gaps and rates to their constraints.
void simn_enforce(simn *s, const mode_n_class *cls);
/// Ends the run at its next event with this outcome.
void simn_end_with(simn *s, zeno_outcome outcome, zeno_guard guard);
/// An LP GLPK could not solve (ZENO_ERR_SINGULAR) as a `solver-failure`
/// end; other statuses pass.
zeno_status simn_solver_failure(simn *s, zeno_status st, zeno_error *e);
/// After an event: the next mode by the class and the ambiguity policy,
/// and what ends the run, if anything.
zeno_status simn_choose_next(simn *s, const mode_n_class *cls, const zero_tol *tol, zeno_error *e);

/// An event's record begun: its index, kind, guard, time and the mode
/// before it.
void simn_event_begin(simn *s, simn_event *ev, zeno_event_kind kind, zeno_guard guard, int contact);
/// The state after an event, into its record.
void simn_event_state(const simn *s, simn_event *ev);
/// The record finished (the state after it), the event counted, and the
/// event limit set pending when reached.
void simn_event_finish(simn *s, simn_event *ev);
/// A token appended to the mode word and to the step's signature.
zeno_status simn_word_append(simn *s, const char *token, size_t n, zeno_error *e);
/// The current mode's name appended.
zeno_status simn_mode_token(simn *s, zeno_error *e);

/* simn.c */
/// An event at the guards h (the state at them): impacts, the new classes,
/// the next mode.
zeno_status simn_handle_crossing(simn *s, simn_event *ev, zeno_guard guard, int contact,
                                 const simn_hits *h, double vscale, zeno_error *e);
/// The END event of a pending end.
zeno_status simn_emit_end(simn *s, simn_event *ev);

/* simn_full.c, simn_full_pose.c */
/// The integrator of a full-model run (nothing under the ZOD).
zeno_status simn_full_create(simn *s, zeno_error *e);
/// W and the centripetal terms at the generalised state (q, qd) (M^-1,
/// the load and friction the model's).
void simn_full_dyn_at(const simn_model *m, const double q[3], const double qd[3], mode_n_dyn *d);
/// W, the Delassus matrix and the centripetal terms at the state.
void simn_full_refresh(simn *s);
/// The listed contact coordinates to their targets (positions) by Newton's
/// method on the exact geometry; the rank used.
int simn_full_correct_positions(simn *s, const int *cols, int count, const double *target);
/// The mode's segment integrated to its first guard, and the event there.
zeno_status simn_full_flow(simn *s, simn_event *ev, zeno_error *e);

/* simn_zeno.c */
/// The current sequence's impacts, and the chain's completions (newest
/// last).
static inline rview simn_sequence(const simn *s) {
  return (rview){s->records.ring, s->zeno.ring_len};
}
static inline rview simn_chain(const simn *s) {
  return (rview){s->records.chain, s->zeno.chain_len};
}
/// Remembers an impact just resolved (the state after it).
void simn_zeno_record(simn *s, double speed, unsigned touched);
/// The limit of the periods p of v at ratio r (pending), and the contacts
/// they touched.
void simn_zeno_extrapolate(simn *s, rview v, int p, double r);
/// The pending limit holds: no slip of the period's phase points reverses
/// on the way (on the scale first_speed), no contact outside it closes.
bool simn_zeno_limit_holds(const simn *s, rview v, int p, double first_speed);
/// What is left of a sequence (or chain: last_t its last record, first_t
/// its start, done its impacts, per_period those of a period) up to the
/// pending limit is negligible: it is completed.
bool simn_zeno_tail_negligible(const simn *s, double last_t, double first_t, long done,
                               long per_period);
/// After an impact and the mode chosen after it: a converging sequence
/// (a completion pending), reverse chatter (`diverging`), or a sequence at
/// the precision floor.
void simn_zeno_detect(simn *s);
/// Whether an impact speed is at the precision floor of the velocities
/// (SIMN_ZENO_TOL_FACTOR of the velocity zero on the scale vscale).
bool simn_zeno_at_floor(const simn *s, double speed, double vscale);
/// An approach at the floor that the law cannot resolve during a sequence:
/// the sequence is completed there (false when none is on).
bool simn_zeno_floor_approach(simn *s, double speed, unsigned touched);

/* simn_zeno_chain.c */
/// The ZENO event: the state to the accumulation point, the sequence's (or
/// chain's) contacts closed, the completion recorded in the chain, the
/// next mode.
zeno_status simn_zeno_emit(simn *s, simn_event *ev, zeno_error *e);
/// Full model: a sequence completed at a floor cut its chatter short; when
/// its bounces would have ended (for the next sequence's first impact).
void simn_zeno_note_cut(simn *s);
/// ZOD: the limit of v (period p, ratio r) lies beyond t_end: a
/// fast-forward over its whole periods before t_end is made pending.
void simn_zeno_forward_periods(simn *s, rview v, int p, double r);
/// Applies a pending fast-forward.
void simn_zeno_forward(simn *s);

/* simn.c */
void simn_event_begin(simn *s, simn_event *ev, zeno_event_kind kind, zeno_guard guard, int contact);
void simn_event_finish(simn *s, simn_event *ev);
zeno_status simn_word_append(simn *s, const char *token, size_t n, zeno_error *e);
zeno_status simn_mode_token(simn *s, zeno_error *e);

#endif
