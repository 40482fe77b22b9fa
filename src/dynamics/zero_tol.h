// The hybrid loops' zeros: the default thresholds (zeno_sim_def_default and
// the N-contact engine's simn_def_of_scene) and a segment's zeros made
// from them, one home for both loops. Not public API.
#ifndef ZENO_DYNAMICS_ZERO_TOL_H
#define ZENO_DYNAMICS_ZERO_TOL_H

#include "dynamics/mode_table.h"

/// A velocity below this fraction of the state's own velocity scale is
/// zero: exact ZOD arithmetic loses a few ulps per event, and 1e-9 leaves
/// room for ~1e6 accumulated roundings.
#define ZERO_TOL_VELOCITY_RTOL 1e-9
/// A force below this fraction of the load is zero: forces are constants
/// of one linear solve per mode.
#define ZERO_TOL_FORCE_RTOL 1e-10
/// Guards within this fraction of the segment length are one simultaneous
/// event.
#define ZERO_TOL_TIME_RTOL 1e-9

/// A gap within this fraction of the initial contact coordinates is zero
/// (touching at the start): rounding of the pose -> q' conversion is a few
/// ulps.
#define ZERO_TOL_START_GAP_RTOL 1e-12
/// A terminal mode (flow_segment_end()) escapes no later than a coordinate
/// starting from rest at this fraction of the acceleration scale would: a
/// billion times above rounding of the accelerations (1e-16), whose drift
/// reaches the radius some thousand times later still; a real motion this
/// slow runs to the time limit as before.
#define ZERO_TOL_TERMINAL_ACCEL_RTOL 1e-9

/// The zeros of one segment of a hybrid loop.
typedef struct zero_tol {
  double v;        ///< zero velocity [length/time]
  double impulse;  ///< zero impulse [force*time]
  mode_tol mode;   ///< Table 1's zero force and acceleration
} zero_tol;

/// The zeros of a segment of speed scale vscale: velocities below
/// velocity_rtol vscale, impulses below that times the mass, forces and
/// accelerations below force_rtol of their scales; strict reading.
static inline zero_tol zero_tol_make(double velocity_rtol, double force_rtol, double vscale,
                                     double mass, double force_scale, double accel_scale) {
  zero_tol t;
  t.v = velocity_rtol * vscale;
  t.impulse = velocity_rtol * vscale * mass;
  t.mode.force = force_rtol * force_scale;
  t.mode.accel = force_rtol * accel_scale;
  t.mode.closed = false;
  return t;
}

#endif
