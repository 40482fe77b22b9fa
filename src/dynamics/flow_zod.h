// Exact zero-order dynamics: within a mode the accelerations are constant,
// so every segment is a quadratic in time and every guard crossing is a
// root of a quadratic (or linear) polynomial, found in closed form.
#ifndef ZENO_DYNAMICS_FLOW_ZOD_H
#define ZENO_DYNAMICS_FLOW_ZOD_H

#include <math.h>

#include "zeno/mode.h"

/// One guard crossing ahead of the current state.
typedef struct flow_crossing {
  double tau;  ///< time from the segment start [time]
  zeno_guard guard;
  int contact;  ///< 0-based contact, -1 for none
} flow_crossing;

/// Appends a crossing at tau (none when tau is not finite: no root).
static inline void flow_crossing_push(flow_crossing *out, int *n, double tau, zeno_guard guard,
                                      int contact) {
  if (!isfinite(tau)) return;
  out[*n].tau = tau;
  out[*n].guard = guard;
  out[*n].contact = contact;
  (*n)++;
}

/// The most crossings one segment can report (gap and slip per contact, and
/// +-escape for four contact coordinates).
#define FLOW_MAX_CROSSINGS 12

/// Speeds whose square neither underflows nor overflows (with room for the
/// other term of the discriminant): outside, the roots use a scaled form.
#define FLOW_SQUARE_SAFE_MIN 1e-150
#define FLOW_SQUARE_SAFE_MAX 1e150
/// Reach bounds of the escape test are kept this far below the radius, so
/// that no rounding of a root can put an escape inside the bounded time.
#define FLOW_ESCAPE_BOUND_RTOL 1e-6

/// First tau > 0 where c0 + c1 tau + c2 tau^2 / 2 crosses zero with the given
/// direction (-1 falling, +1 rising, 0 either); INFINITY when none. Tangent
/// touches (zero derivative at the root) are not crossings.
double flow_first_root(double c0, double c1, double c2, int direction);

/// q, qdot after tau under constant acceleration qdd.
void flow_advance(const double q0[3], const double qd0[3], const double qdd[3], double tau,
                  double q[3], double qd[3]);

/// Every guard crossing of a ZOD segment in `mode` whose contact
/// coordinates (z1, x1, z2, x2) are c + cd tau + cdd tau^2 / 2: impacts of
/// free contacts (immediately, tau = 0, for a free contact found at a
/// negative gap while approaching, so rounding can never hide an impact),
/// slip stops of slipping contacts, and escapes of the contact coordinates
/// beyond +-radius. Returns how many, sorted by time. Escapes are left out
/// when guard crossings were found and no contact coordinate can reach the
/// radius before twice the latest of them (then no caller reads them: they
/// would sort last, with a tie margin above 1).
int flow_crossings(int n, zeno_mode mode, const double c[4], const double cd[4],
                   const double cdd[4], double radius, flow_crossing out[FLOW_MAX_CROSSINGS]);

/// flow_crossings() with the mode's divisors inverted once: inv[2i] = 1 /
/// (cdd[2i] / 2) for a free contact's gap, inv[2i + 1] = 1 / cdd[2i + 1]
/// for a slipping one's slip rate (read only where that acceleration is
/// not zero). The roots agree with flow_crossings()'s to rounding.
int flow_crossings_inv(int n, zeno_mode mode, const double c[4], const double cd[4],
                       const double cdd[4], const double inv[4], double radius,
                       flow_crossing out[FLOW_MAX_CROSSINGS]);

/// What ends a ZOD segment (flow_segment_end()).
typedef enum flow_end {
  FLOW_END_GUARD,   ///< its first guard crossing, before the time limit
  FLOW_END_TIME,    ///< the time limit: a guard lies beyond it, or nothing moves
  FLOW_END_ESCAPE,  ///< the escape radius, before the time limit or not
} flow_end;

/// How a segment whose crossings are cr[0..n-1] (flow_crossings()) ends
/// with tau_end left to the time limit. A mode whose first crossing is an
/// escape within `horizon` is terminal: its accelerations are constant and
/// no guard ends it before the body is beyond the radius, so
/// FLOW_END_ESCAPE is returned even when the radius lies past the time
/// limit (the run is decided where the mode begins, not cut as
/// `time-limit`). An escape later than `horizon` is rounding drift of a
/// coordinate at rest (its speed and acceleration below the precision
/// floor): it ends the segment only before the time limit, as any escape.
flow_end flow_segment_end(const flow_crossing *cr, int n, double tau_end, double horizon);

/// The located guard's residual at a segment's end, before the event's
/// projection, on the state's scale (zeno_event.guard_residual): a gap
/// guard's |z| a / V^2 (gap z, acceleration scale a, speed scale V), any
/// other guard's contact's |slip rate| / V. A zero residual is zero, also
/// at a zero scale (a chatter run down to underflow).
double flow_guard_residual(bool gap, double z, double slip_rate, double accel_scale, double vscale);

#endif
