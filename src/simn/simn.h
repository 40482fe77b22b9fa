// The N-contact ZOD engine (issue 34, slice 4; docs/model.md, "Any number
// of contacts: the plan"): the hybrid loop of sim.c for a body on 1 to 16
// contacts under the zero-order dynamics. The mass matrix, the contact
// Jacobian W and the load are constants, so each mode's forces and
// accelerations are constant and every guard is a quadratic in time, as
// for two contacts. Modes are chosen by mode_n.h (Table 1 by LP), impacts
// by impact_n.h (law (15) in Glocker & Pfeiffer's form), with the scene's
// ambiguity policy. State: the pose perturbation q = (x, y, theta) from the
// nominal pose, held as q' = A q: three contact coordinates (the gaps first,
// then the slips from the last contact back; theta for one contact), the
// two-contact engine's (z1, z2, x2) for two. They are exact: a closed gap
// among them is zero, not the rounding of W . q (kinematics.h's q').
//
// With simn_model.full the same loop runs the full model (simn_full.c):
// exact contact coordinates, CVODE between events.
//
// Zeno completion (simn_zeno.c, simn_zeno_chain.c) follows sim_zeno*.c's
// rules, chains of completions included. Not public API: the public records
// (zeno_event) are two-contact until the outputs' version 2 (slice 7).
#ifndef ZENO_SIMN_SIMN_H
#define ZENO_SIMN_SIMN_H

#include <stdbool.h>
#include <stddef.h>

#include "dynamics/flow_cvode.h"
#include "dynamics/impact_n.h"
#include "dynamics/mode_n.h"
#include "zeno/error.h"
#include "zeno/scene.h"

#define SIMN_MAX_CONTACTS MODE_N_MAX_CONTACTS
/// Consistent modes an event lists (zeno_event.consistent's N form).
#define SIMN_LISTED_MODES 32
/// A solver failure's message kept in its event (cut to this size).
#define SIMN_FAILURE_SIZE 160

/// A body on N contacts under the ZOD, in the scene's own units.
typedef struct simn_model {
  int n;
  mode_n_dyn dyn;                  ///< W (columns n_i, t_i), M^-1, the load, friction
  impact_n_dyn imp;                ///< the Delassus matrix (points at dyn: keep the model in place)
  double gap0[SIMN_MAX_CONTACTS];  ///< gap at q = 0 [length] (0: touching at the nominal pose)
  double mass;
  double force_scale;   ///< |f| + |tau| / rho, or m for an unloaded body [force]
  double accel_scale;   ///< force_scale / m [length/time^2]
  double length_scale;  ///< max(rho, |p_i|) [length]
  double contact_mass;  ///< 1 / max_a D_aa [mass] (kinematics_model's)
  /// q' = A q: row r is contact coordinate coord[r] (a column of W; -1:
  /// theta); contact coordinate a = gap0 + sum_r Cp[r][a] q'_r, the
  /// columns of q''s own coordinates exact unit vectors.
  int coord[3];
  double A[3][3], Ainv[3][3];
  double Cp[3][2 * SIMN_MAX_CONTACTS];
  /// The full model (`model: full`, slice 6): contact coordinates from the
  /// exact geometry below (kinematics_contact_full), W, the Delassus matrix
  /// and the centripetal terms at the state; q' is then the same linear
  /// change of the pose perturbation q, no longer the gaps themselves.
  /// False: the ZOD.
  bool full;
  double p[SIMN_MAX_CONTACTS][2];    ///< contact vertices, body frame [length]
  double sp[SIMN_MAX_CONTACTS][2];   ///< a point of each surface line [length]
  double nrm[SIMN_MAX_CONTACTS][2];  ///< surface normals
  double tan[SIMN_MAX_CONTACTS][2];  ///< surface tangents
} simn_model;

/// The model of a validated scene of 1..16 contacts, each touching at the
/// nominal pose (gap0 = 0).
zeno_status simn_model_of_scene(const zeno_scene *scene, simn_model *m, zeno_error *e);
/// Makes the model's derived data (the Delassus matrix, q' and its maps)
/// from its W, M^-1, friction and gaps, after they were set or changed,
/// and after a copy. ZENO_ERR_GEOMETRY when no three contact coordinates
/// fix the pose.
zeno_status simn_model_fix(simn_model *m, zeno_error *e);

/// What a run takes from the scene and the simulator's definition.
typedef struct simn_def {
  /// Zeros as zeno_sim_def's: a velocity below velocity_rtol times the
  /// segment's speed scale, a force below force_rtol times the load, two
  /// guards within time_rtol of the segment's length (dynamics/zero_tol.h).
  double velocity_rtol, force_rtol, time_rtol;
  zeno_ambiguity_policy ambiguity;
  zeno_impact_law law;
  double e, et;  ///< the law's restitutions
  double t_end;  ///< [time]
  long max_events;
  double escape_radius;  ///< [length]; 0: ZENO_ESCAPE_RADIUS_SCALES length scales
  /// The full model's: CVODE's relative tolerance and absolute one (of the
  /// segment's scales), and the Zeno tests of its only asymptotically
  /// constant ratios (impact_series.h).
  double rtol, atol, full_ratio_rtol, diverge_rtol;
} simn_def;

/// The definition of a scene's run (its stop conditions, law and policy;
/// the default zeros).
simn_def simn_def_of_scene(const zeno_scene *scene);

typedef struct simn_event {
  long index;
  zeno_event_kind kind;
  zeno_guard guard;
  int contact;  ///< the guard's contact, -1 for none
  double t;
  unsigned char mode_before[SIMN_MAX_CONTACTS], mode_after[SIMN_MAX_CONTACTS];
  unsigned impact_mask;
  unsigned char impact_letter[SIMN_MAX_CONTACTS];
  double impulse[2 * SIMN_MAX_CONTACTS];  ///< (n_i, t_i) [force*time]
  double q[3], qd[3];                     ///< after the event
  double qp[3], qdp[3];                   ///< the same in q' = A q
  double qp_before[3], qdp_before[3];   ///< q' just before (pre-impact rates; a ZENO event's limit)
  double qddp[3];                       ///< the mode after the event: its acceleration in q'
  double c[2 * SIMN_MAX_CONTACTS];      ///< (z_i, x_i) after [length]
  double cd[2 * SIMN_MAX_CONTACTS];     ///< their rates
  double force[2 * SIMN_MAX_CONTACTS];  ///< the mode's forces after [force]
  zeno_outcome outcome;                 ///< ZENO_EVENT_END
  long zeno_impacts;                    ///< ZENO: impacts of the completed sequence simulated
  double zeno_ratio;  ///< ZENO: its ratio per period (at a floor: of the last two impacts);
                      ///< a `diverging` end: the growth per period
  int zeno_period;    ///< ZENO: its period in impacts (a chain's: in completions), 0 at a floor
  int zeno_order;     ///< ZENO: 1 a sequence of impacts, 2 a chain of completed sequences
  char failure[SIMN_FAILURE_SIZE];  ///< a solver-failure end: the solver's message (cut)
  /// The located guard's value at the event, before its projection,
  /// scaled by the segment's scales (zeno_event.guard_residual): the full
  /// model's root, or the ZOD's quadratic's (sim.c's rule: rounding); NaN
  /// at events no guard located.
  double guard_residual;
  /// A guard's event (impact or transition): how far the contacts closed
  /// in the mode before it drifted from their constraints over the segment,
  /// before the event's projection removed it (zeno_event.constraint_drift:
  /// max of |gap| / L and |gap rate| / V, and |slip rate| / V of a sticking
  /// contact, V the segment's speed scale, L = V^2 / a); 0 at other events.
  double constraint_drift;
  int consistent_count;  ///< an ambiguous end: the consistent modes
  unsigned char consistent[SIMN_LISTED_MODES][SIMN_MAX_CONTACTS];
} simn_event;

typedef struct simn simn;

/// A run from (q0, qd0). The model is copied. ZENO_ERR_ARGUMENT for a
/// model of no or too many contacts or a non-finite state.
zeno_status simn_create(const simn_model *m, const simn_def *def, const double q0[3],
                        const double qd0[3], simn **out, zeno_error *e);
/// The same from q' = A q and its rate (simn_model.coord names them):
/// for two contacts the two-contact engine's (z1, z2, x2), exactly.
zeno_status simn_create_prime(const simn_model *m, const simn_def *def, const double qp0[3],
                              const double qdp0[3], simn **out, zeno_error *e);
void simn_destroy(simn *s);

/// The next event; ZENO_DONE after the end.
zeno_status simn_next_event(simn *s, simn_event *ev, zeno_error *e);

/// The run's current q' and its rate (the state after the last event).
void simn_run_state(const simn *s, double qp[3], double qdp[3]);

/// Ends the run at its next event with this outcome (a wall-clock limit),
/// from the state after the last event; nothing if it has ended.
void simn_stop(simn *s, zeno_outcome outcome);

/// The full model's dense output: the accepted integrator steps (run time,
/// the pose q, its rate and acceleration) of the segment that the last
/// event ended, none under the ZOD (its segments are parabolas in q').
/// Valid until the next event.
size_t simn_segment_nodes(const simn *s, const cvode_node **nodes);

/// The run's mode word so far ("SS FP II FP ..."): mode names of N letters,
/// impacts of N letters (I with an impulse, F without; "I" for one contact).
const char *simn_word(const simn *s);

/// Contact coordinates (z_i, x_i) and rates at (q', qd'): linear under the
/// ZOD, the exact geometry in the full model.
void simn_contacts(const simn_model *m, const double qp[3], const double qdp[3], double *c,
                   double *cd);
/// The full model's start from contact coordinates: the pose q at which
/// the exact coordinates that q''s rows name (simn_model.coord, from their
/// nominal values; theta) take the values qp, and the rate qd at which
/// their rates take qdp (Newton's method from the linear q = A^-1 qp).
/// ZENO_ERR_GEOMETRY (parameter `initial`) when the exact map does not
/// reach them.
zeno_status simn_full_pose(const simn_model *m, const double qp[3], const double qdp[3],
                           double q[3], double qd[3], zeno_error *e);

/// q = A^-1 q' and q' = A q.
void simn_to_gen(const simn_model *m, const double qp[3], double q[3]);
void simn_of_gen(const simn_model *m, const double q[3], double qp[3]);

#endif
