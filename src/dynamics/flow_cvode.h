// Full nonlinear rigid-body dynamics on SUNDIALS CVODE: each mode's ODE is
// integrated between events, its guard functions located by CVODE's root
// finding (CVodeRootInit + CVodeSetRootDirection), and the integrator is
// re-initialised (CVodeReInit) at every event.
#ifndef ZENO_DYNAMICS_FLOW_CVODE_H
#define ZENO_DYNAMICS_FLOW_CVODE_H

#include <stdbool.h>
#include <stddef.h>

#include "dynamics/flow_zod.h"
#include "dynamics/kinematics.h"
#include "zeno/mode.h"

/// Opaque CVODE integrator (one per simulator: reentrant, no global state).
typedef struct zfc zfc;

/// One accepted integrator step, kept for dense output (cubic Hermite).
typedef struct cvode_node {
  double t;  ///< segment-local time [time]
  double q[3], qd[3], qdd[3];
} cvode_node;

/// Result of one segment.
typedef struct cvode_result {
  double tau;          ///< duration of the segment [time]
  int crossing_count;  ///< guards that fired at tau (0: reached tau_max)
  flow_crossing crossings[FLOW_MAX_CROSSINGS];
  double residual;          ///< largest |guard| at tau among those that fired, scaled
  int flag;                 ///< CVODE return flag (negative: failure)
  char flag_name[40];       ///< CVODE's name of the flag
  const cvode_node *nodes;  ///< accepted steps of the segment (owned by zfc)
  int node_count;
} cvode_result;

/// Scales of the current state, for tolerances and guard normalisation.
typedef struct cvode_scales {
  double length;  ///< contact-coordinate scale [length]
  double speed;   ///< contact-speed scale [length/time]
  double force;   ///< load scale [force]
} cvode_scales;

/// Creates an integrator with relative tolerance rtol; absolute tolerances
/// are set per segment from the state's scale (atol_rel times it). km is
/// the two-contact model cvode_advance integrates; NULL for an integrator
/// of cvode_integrate only (the N-contact engine's).
zfc *cvode_create(const kinematics_model *km, double rtol, double atol_rel, zeno_error *error);
void cvode_destroy(zfc *f);

/// Integrates `mode` from (q, qd) for at most tau_max, stopping at the first
/// guard crossing: gap of a free contact (falling), normal force of a
/// closed contact (falling), slip rate of a slipping contact (toward zero),
/// friction margins of a sticking contact (falling), and contact
/// coordinates reaching +-radius. On return q, qd hold the final state.
/// Solver failures come back as a negative flag, never an abort.
int cvode_advance(zfc *f, zeno_mode mode, double q[3], double qd[3], double tau_max, double radius,
                  const cvode_scales *scales, cvode_result *out);

/// A mode's dynamics as the integrator sees them (any number of contacts):
/// its accelerations and its guard functions at a state (q, qd).
typedef struct cvode_system {
  /// qdd at (q, qd); false where the mode's system is singular (CVODE then
  /// fails, and the caller reports it).
  bool (*accel)(void *user, const double q[3], const double qd[3], double qdd[3]);
  /// The guard_count guard values at (q, qd), in units of their scales;
  /// false as for accel.
  bool (*guards)(void *user, const double q[3], const double qd[3], double *g);
  void *user;
  int guard_count;
  const int *dirs;  ///< CVodeSetRootDirection's: -1 falling, +1 rising
  double arm;       ///< length that makes theta's tolerance a length's [length]
} cvode_system;

/// Integrates sys from (q, qd) for at most tau_max, stopping at the first
/// guard crossing: found[k] (guard_count entries) marks the guards that
/// fired there. out's crossings are left empty (the caller names its
/// guards); out->tau, flag and nodes as cvode_advance's. On return q, qd
/// hold the final state.
int cvode_integrate(zfc *f, const cvode_system *sys, double q[3], double qd[3], double tau_max,
                    const cvode_scales *scales, cvode_result *out, int *found);

/// Appends the accepted steps add[0..n-1], their times shifted by t0, to
/// the growable array *nodes of *count steps (room for *cap; grown by
/// doubling from CVODE_NODES_INITIAL). False, nothing appended, when out of
/// memory. The engines keep a run's steps for its dense output with it.
bool cvode_nodes_append(cvode_node **nodes, size_t *count, size_t *cap, const cvode_node *add,
                        size_t n, double t0);

/// Dense output: the state at time t from accepted steps n[0..count-1]
/// (count >= 2, times increasing; t clamped to their span), by cubic
/// Hermite interpolation of q (with qd) and qd (with qdd).
void cvode_nodes_sample(const cvode_node *n, size_t count, double t, double q[3], double qd[3]);

/// Accelerations and contact forces of `mode` at (q, qd), as the RHS sees
/// them. Returns false when the mode's system is singular there.
bool cvode_mode_accel(const kinematics_model *km, zeno_mode mode, const double q[3],
                      const double qd[3], double qdd[3], double force[4]);

#endif
