// The exact ZOD flow (flow_zod.h): closed-form roots of the quadratic
// guards of a segment and the state after a time under constant
// acceleration.
#include "dynamics/flow_zod.h"

#include <math.h>

static bool direction_ok(double slope, int direction) {
  if (direction < 0) return slope < 0;
  if (direction > 0) return slope > 0;
  return slope != 0;
}

// flow_first_root(); *inv, when given, is 1 / c1 for a linear guard (c2 =
// 0) and 1 / (c2 / 2) for a quadratic one: the divisions by constants of a
// mode become products (flow_crossings_inv).
static double first_root(double c0, double c1, double c2, const double *inv, int direction) {
  double r[2];
  int n = 0;
  if (c2 == 0) {
    if (c1 == 0) return INFINITY;
    r[n++] = inv ? -c0 * *inv : -c0 / c1;
  } else {
    // a tau^2 + b tau + c with a = c2/2: the cancellation-free pair of
    // formulas q = -(b + sgn(b) sqrt(b^2 - 4ac))/2, roots q/a and c/q.
    // Where b^2 would underflow or overflow, the square root of b^2 - 4ac is
    // taken as |b| sqrt(1 - 4ac / b^2), with the ratio formed without b^2:
    // a speed of 1e-162 (a chatter run down to underflow) squared is 0, and
    // the crossing it leads to was lost (the body fell through).
    double root_disc;
    if (fabs(c1) > FLOW_SQUARE_SAFE_MIN && fabs(c1) < FLOW_SQUARE_SAFE_MAX) {
      const double disc = c1 * c1 - 2.0 * c2 * c0;
      if (disc < 0) return INFINITY;
      root_disc = sqrt(disc);
    } else if (c1 != 0) {
      const double ratio = 2.0 * c2 * (c0 / c1) / c1;
      if (!(ratio <= 1)) return INFINITY;
      root_disc = fabs(c1) * sqrt(1 - ratio);
    } else {
      const double disc = -2.0 * c2 * c0;
      if (disc < 0) return INFINITY;
      root_disc = sqrt(disc);
    }
    const double qq = -0.5 * (c1 + copysign(root_disc, c1));
    if (qq != 0) {
      // A root of the wrong sign is never taken below (it must be > 0):
      // each is formed only when its factors' signs make it positive,
      // which spares a division in most segments (the roots of a gap that
      // starts open and falls have opposite signs).
      if ((qq > 0) == (c2 > 0)) r[n++] = inv ? qq * *inv : qq / (0.5 * c2);
      if ((c0 > 0 && qq > 0) || (c0 < 0 && qq < 0)) r[n++] = c0 / qq;
    } else {
      r[n++] = 0;  // c0 = c1 = 0: a double root at the start
    }
  }
  double best = INFINITY;
  for (int k = 0; k < n; k++) {
    if (!(r[k] > 0) || !isfinite(r[k])) continue;
    if (!direction_ok(c1 + c2 * r[k], direction)) continue;
    if (r[k] < best) best = r[k];  // r[k] is finite here: fmin() without its call
  }
  return best;
}

double flow_first_root(double c0, double c1, double c2, int direction) {
  return first_root(c0, c1, c2, NULL, direction);
}

void flow_advance(const double q0[3], const double qd0[3], const double qdd[3], double tau,
                  double q[3], double qd[3]) {
  for (int k = 0; k < 3; k++) {
    q[k] = q0[k] + tau * (qd0[k] + 0.5 * tau * qdd[k]);
    qd[k] = qd0[k] + tau * qdd[k];
  }
}

// Whether the escape crossings can change what a caller reads: the order
// of the crossings and the tie margin of the next one, (tau_k - tau_0) /
// tau_0, which counts below 1 only (SIM_TIE_NONE). With guard crossings
// found, an escape after twice the latest of them is read by neither, and
// none can come that early while every contact coordinate stays inside the
// radius by its reach bound |c| + |cd| T + |cdd| T^2 / 2. Skipping the
// eight quadratic roots then changes nothing (they were a third of a
// segment's cost).
static bool escape_may_matter(int nc, const double c[4], const double cd[4], const double cdd[4],
                              double radius, const flow_crossing *found, int n) {
  if (n == 0) return true;
  double latest = 0;
  // The crossings' times are finite (push() keeps no other): comparisons
  // instead of fmax() calls.
  for (int k = 0; k < n; k++)
    if (found[k].tau > latest) latest = found[k].tau;
  const double T = 2 * latest;
  for (int a = 0; a < 2 * nc; a++) {
    const double reach = fabs(c[a]) + T * (fabs(cd[a]) + 0.5 * T * fabs(cdd[a]));
    if (!(reach < (1 - FLOW_ESCAPE_BOUND_RTOL) * radius)) return true;
  }
  return false;
}

static int sort_crossings(flow_crossing *out, int n);

int flow_crossings(int nc, zeno_mode mode, const double c[4], const double cd[4],
                   const double cdd[4], double radius, flow_crossing out[FLOW_MAX_CROSSINGS]) {
  return flow_crossings_inv(nc, mode, c, cd, cdd, NULL, radius, out);
}

int flow_crossings_inv(int nc, zeno_mode mode, const double c[4], const double cd[4],
                       const double cdd[4], const double inv[4], double radius,
                       flow_crossing out[FLOW_MAX_CROSSINGS]) {
  int n = 0;
  for (int i = 0; i < nc; i++) {
    const int l = mode.letter[i];
    if (l == ZENO_LETTER_F) {
      const double z = c[2 * i], zd = cd[2 * i];
      // Below or at the surface and approaching, or at rest on it and
      // pushed in: the impact is now (at z = 0 the root at the start is
      // excluded below, and a contact closing at 1e-161, or left at rest by
      // speeds that underflowed to zero, fell through the surface).
      if (z <= 0 && (zd < 0 || (zd == 0 && cdd[2 * i] < 0)))
        flow_crossing_push(out, &n, 0.0, ZENO_GUARD_GAP, i);
      else  // a linear gap's divisor is its rate, not a constant
        flow_crossing_push(out, &n,
                           first_root(z, zd, cdd[2 * i],
                                      inv && cdd[2 * i] != 0 ? &inv[2 * i] : NULL, -1),
                           ZENO_GUARD_GAP, i);
    } else if (l == ZENO_LETTER_P || l == ZENO_LETTER_N) {
      flow_crossing_push(out, &n,
                         first_root(cd[2 * i + 1], cdd[2 * i + 1], 0, inv ? &inv[2 * i + 1] : NULL,
                                    l == ZENO_LETTER_P ? -1 : +1),
                         ZENO_GUARD_SLIP_VELOCITY, i);
    }
  }
  if (!escape_may_matter(nc, c, cd, cdd, radius, out, n)) return sort_crossings(out, n);
  for (int a = 0; a < 2 * nc; a++) {
    flow_crossing_push(out, &n, flow_first_root(c[a] - radius, cd[a], cdd[a], +1),
                       ZENO_GUARD_ESCAPE, a / 2);
    flow_crossing_push(out, &n, flow_first_root(c[a] + radius, cd[a], cdd[a], -1),
                       ZENO_GUARD_ESCAPE, a / 2);
  }
  return sort_crossings(out, n);
}

static int sort_crossings(flow_crossing *out, int n) {
  for (int a = 1; a < n; a++) {
    flow_crossing key = out[a];
    int b = a - 1;
    while (b >= 0 && out[b].tau > key.tau) {
      out[b + 1] = out[b];
      b--;
    }
    out[b + 1] = key;
  }
  return n;
}

flow_end flow_segment_end(const flow_crossing *cr, int n, double tau_end, double horizon) {
  if (n == 0) return FLOW_END_TIME;
  const bool before_limit = cr[0].tau < tau_end;
  if (cr[0].guard == ZENO_GUARD_ESCAPE && (before_limit || cr[0].tau <= horizon))
    return FLOW_END_ESCAPE;
  return before_limit ? FLOW_END_GUARD : FLOW_END_TIME;
}

double flow_guard_residual(bool gap, double z, double slip_rate, double accel_scale,
                           double vscale) {
  const double residual = gap ? fabs(z) * accel_scale : fabs(slip_rate);
  const double scale = gap ? vscale * vscale : vscale;
  return residual == 0 ? 0 : (scale > 0 ? residual / scale : INFINITY);
}
