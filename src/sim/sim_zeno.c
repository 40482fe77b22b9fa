// Detection of impact sequences: a converging Zeno sequence (completed by
// geometric extrapolation to its accumulation point) or reverse chatter
// (impact speeds growing geometrically on a fixed point of R).
#include <float.h>
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"


static void ring_push(zeno_sim *s, const impact_record *r) {
  if (s->ring_len == SIM_RING) {
    memmove(s->ring, s->ring + 1, (SIM_RING - 1) * sizeof *s->ring);
    s->ring_len--;
  }
  s->ring[s->ring_len++] = *r;
}

static const impact_record *rec(const zeno_sim *s, int back) {
  return &s->ring[s->ring_len - 1 - back];
}

static bool close_rel(double a, double b, double rtol) {
  return fabs(a - b) <= rtol * fmax(fabs(a), fabs(b));
}

// Geometric extrapolation of the accumulation point from the states at the
// same phase of the last three periods. Velocities and times of a ZOD
// sequence are exact geometric series of ratio r; positions add the
// increments v tau + a tau^2 / 2, a sum of two series of ratios r and r^2.
static void extrapolate(zeno_sim *s, int p, double r) {
  const impact_record *a = rec(s, 0), *b = rec(s, p), *c = rec(s, 2 * p);
  const double g = r / (1 - r), g2 = r * r / (1 - r * r);
  s->zeno_t = a->t + (a->t - b->t) * g;
  const double t_prev = b->t + (b->t - c->t) * g;
  s->zeno_err = fabs(s->zeno_t - t_prev);
  for (int k = 0; k < 3; k++) {
    s->zeno_qd[k] = a->qd[k] + (a->qd[k] - b->qd[k]) * g;
    const double e0 = a->q[k] - b->q[k], e1 = b->q[k] - c->q[k];
    const double lin = (e1 * r * r - e0) / (r - 1);
    const double quad = e0 - lin;
    s->zeno_q[k] = a->q[k] + lin * g + quad * g2;
  }
  unsigned touched = 0;
  for (int k = 0; k < p; k++) touched |= rec(s, k)->touched;
  s->zeno_contacts = touched;
  s->zeno_ratio = r;
  s->zeno_period = p;
  s->zeno_seq_impacts = s->seq_impacts;
}

// Sign of a contact slip rate with a zero band.
static int slip_sign(double xd, double tol) { return xd > tol ? 1 : (xd < -tol ? -1 : 0); }

// True when every contact slipping at a phase point of the last period slips
// the same way at the extrapolated limit. Along a period of fixed steps the
// phase velocities approach the limit monotonically, so a sign that holds at
// both ends holds throughout.
static bool limit_keeps_slip_signs(const zeno_sim *s, int p) {
  const double tol = s->def.velocity_rtol * s->seq_first_speed;
  double c[4], lim[4];
  sim_contacts(s, s->zeno_q, s->zeno_qd, c, lim);
  for (int k = 0; k < p; k++) {
    double cd[4];
    sim_contacts(s, rec(s, k)->q, rec(s, k)->qd, c, cd);
    for (int i = 0; i < s->km.n; i++) {
      const int sk = slip_sign(cd[2 * i + 1], tol);
      const int sl = slip_sign(lim[2 * i + 1], tol);
      // A slip that fades to zero together with the normal motion (sl = 0)
      // is a limit, not a reversal.
      if (sk != 0 && sl != 0 && sk != sl) return false;
    }
  }
  return true;
}

// Reverse chatter is declared once the post-impact contact velocity
// direction at the phase point repeats from period to period (a fixed
// point of R).
static bool direction_settled(const zeno_sim *s, int p, double rtol) {
  double c[4], va[4], vb[4], na = 0, nb = 0;
  sim_contacts(s, rec(s, 0)->q, rec(s, 0)->qd, c, va);
  sim_contacts(s, rec(s, p)->q, rec(s, p)->qd, c, vb);
  for (int a = 0; a < 2 * s->km.n; a++) {
    na = fmax(na, fabs(va[a]));
    nb = fmax(nb, fabs(vb[a]));
  }
  if (!(na > 0 && nb > 0)) return false;
  double diff = 0;
  for (int a = 0; a < 2 * s->km.n; a++) diff = fmax(diff, fabs(va[a] / na - vb[a] / nb));
  return diff <= rtol;
}

// Under the exact ZOD further periods cost next to nothing and are exact,
// so the sequence is simulated until what is left of it is negligible (the
// dense output between the last simulated impact and the limit is only a
// stand-in); the full model completes at detection, because its accuracy
// on the shrinking gaps degrades period by period.
static bool tail_negligible(const zeno_sim *s, int p) {
  if (sim_is_full(s)) return true;
  const double tail = s->zeno_t - rec(s, 0)->t;
  const double span = s->zeno_t - s->seq_first_t;
  const long events_left = s->scene.max_events - s->event_count;
  return tail <= SIM_ZENO_TAIL_FRACTION * span ||
         s->seq_impacts >= SIM_ZENO_TAIL_IMPACTS ||
         events_left < SIM_ZENO_EVENTS_PER_IMPACT * (long)p * 4;
}

// Looks for the shortest period p over which the last ratio_periods + 1
// periods repeat the same steps with one constant ratio of durations and
// impact speeds. r < 1: a converging Zeno sequence; r > 1: reverse chatter.
// True when the last K periods of length p repeat the same steps with one
// ratio r0 of durations and impact speeds, to relative tolerance rtol.
static bool constant_ratio(const zeno_sim *s, int p, int K, double rtol,
                           double *r0) {
  for (int k = 0; k + 1 < K; k++) {
    const double Tk = rec(s, k * p)->t - rec(s, (k + 1) * p)->t;
    const double Tk1 = rec(s, (k + 1) * p)->t - rec(s, (k + 2) * p)->t;
    if (!(Tk > 0 && Tk1 > 0)) return false;
    const double rk = Tk / Tk1;
    const double rv = rec(s, k * p)->speed / rec(s, (k + 1) * p)->speed;
    if (k == 0) *r0 = rk;
    if (!close_rel(rk, *r0, rtol) || !close_rel(rv, *r0, rtol)) return false;
  }
  return true;
}

// Full model: the bounce after this impact (its height from the fastest
// separating gap rate) is lost in the rounding of the positions
// (SIM_FULL_BOUNCE_ULPS).
static bool at_rounding(const zeno_sim *s, const impact_record *r) {
  double c[4], cd[4], size = 0, v = 0;
  sim_contacts(s, r->q, r->qd, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++) size = fmax(size, fabs(c[a]));
  for (int i = 0; i < s->km.n; i++) v = fmax(v, cd[2 * i]);
  // No contact separates (e.g. II into a two-contact slip): no bounce.
  if (!(v > s->def.velocity_rtol * r->speed)) return false;
  const double height = v * v / s->km.accel_scale;
  return height < SIM_FULL_BOUNCE_ULPS * DBL_EPSILON * size;
}

void sim_detect_sequence(zeno_sim *s) {
  const int K = s->def.ratio_periods + 1;
  const bool full = sim_is_full(s);
  const double rtol_conv = full ? s->def.full_ratio_rtol : s->def.ratio_rtol;
  const double rtol_div = full ? s->def.diverge_rtol : s->def.ratio_rtol;
  for (int p = 1; p <= s->def.max_period; p++) {
    if (s->ring_len < K * p + 1) break;
    bool periodic = true;
    for (int j = 0; j + p <= K * p && periodic; j++)
      periodic = rec(s, j)->signature == rec(s, j + p)->signature;
    if (!periodic) continue;
    double r0 = 0;
    if (!constant_ratio(s, p, K, fmax(rtol_conv, rtol_div), &r0)) continue;
    if (r0 < 1 - rtol_conv) {
      // Not yet converged: the precision floor below may still end it (the
      // full model's ratios stop converging once the bounces reach the
      // rounding of the positions).
      if (!constant_ratio(s, p, K, rtol_conv, &r0)) break;
      extrapolate(s, p, r0);
      // The series continues forever only if no slip reverses on the way:
      // otherwise the steps change before the limit and simulation goes on.
      s->zeno_pending = limit_keeps_slip_signs(s, p) && tail_negligible(s, p);
    } else if (r0 > 1 + rtol_div && direction_settled(s, p, rtol_div)) {
      s->end_pending = true;
      s->pending_outcome = ZENO_OUTCOME_DIVERGING;
      s->div_ratio = r0;
      s->div_period = p;
    }
    return;
  }
  // Precision floor: a sequence shrunk to the last digits of the state is
  // at its accumulation point, whatever its ratios do.
  const impact_record *last = rec(s, 0);
  const double floor = full ? SIM_FULL_ZENO_SPEED_FLOOR : SIM_ZENO_SPEED_FLOOR;
  if (s->seq_impacts >= 2 &&
      (last->speed < floor * s->seq_first_speed || (full && at_rounding(s, last)) ||
       last->speed < SIM_ZENO_TOL_FACTOR * s->def.velocity_rtol * s->vscale ||
       s->seq_impacts >= SIM_ZENO_MAX_IMPACTS)) {
    const impact_record *prev = rec(s, 1);
    s->zeno_t = last->t;
    s->zeno_err = last->t - prev->t;
    memcpy(s->zeno_q, last->q, sizeof s->zeno_q);
    memcpy(s->zeno_qd, last->qd, sizeof s->zeno_qd);
    s->zeno_contacts = last->touched | prev->touched;
    s->zeno_ratio = last->speed / prev->speed;
    s->zeno_period = 0;
    s->zeno_floor_tie = (last->speed / s->seq_first_speed) * (last->speed / s->seq_first_speed);
    s->zeno_seq_impacts = s->seq_impacts;
    s->zeno_pending = true;
  }
}

void sim_record_impact(zeno_sim *s, double speed, unsigned touched) {
  impact_record r;
  r.t = s->t;
  r.signature = s->signature;
  r.speed = speed;
  memcpy(r.q, s->q, sizeof r.q);
  memcpy(r.qd, s->qd, sizeof r.qd);
  r.touched = touched;
  if (s->seq_impacts == 0) {
    s->seq_first_speed = speed;
    s->seq_first_t = s->t;
  }
  s->seq_impacts++;
  ring_push(s, &r);
  s->signature = SIM_SIGNATURE_SEED;
}

void sim_reset_sequence(zeno_sim *s) {
  s->ring_len = 0;
  s->seq_impacts = 0;
}

