// Zeno completion, all of it: the impacts of a sequence remembered, its
// detection (a period of repeated steps with one constant ratio, or a
// sequence shrunk to the precision floor), the geometric extrapolation of
// its accumulation point, and the ZENO event that closes the sequence there.
// Reverse chatter (impact speeds growing geometrically on a fixed point of
// R) is detected by the same period search and ends the run `diverging`.
#include <float.h>
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

/// A Zeno sequence whose impact speed fell below this fraction of its
/// first impact speed is at the limit of double precision: it is completed
/// from its current state even without a constant period ratio.
#define SIM_ZENO_SPEED_FLOOR 1e-12
/// The same floor in the full model. Its gaps are computed from positions
/// of the size of the first bounce, with rounding 1e-16 of that size; a
/// bounce height falls like the impact speed squared, so below 1e-6 of the
/// first speed the bounces are within 1e4 ulps of the rounding and the
/// located guards (and the ratios) are noise.
#define SIM_FULL_ZENO_SPEED_FLOOR 1e-6
/// ... and, whatever the first speed, once a bounce's height v^2 / a is
/// below this many ulps of the positions (which carry the slip travelled
/// and the offset of the start): its located guards are then off by up to
/// 1e-6 of the bounce (measured 4e-7 at 1e4 ulps), and the next bounces
/// only worse. Higher values would end real, merely small, bounces (a
/// bounce of 1e-4 of the first speed is 1e8 ulps at eps = 1e-3).
#define SIM_FULL_BOUNCE_ULPS 1e6
/// A sequence completed at a floor, or extrapolated in the full model,
/// leaves contact speeds up to its last impact speed (times the
/// slip-to-normal speed ratio of its steps); speeds below this many times
/// that speed are zero at its accumulation point.
#define SIM_ZENO_FLOOR_TOL_FACTOR 10.0
/// ... and once its impact speeds come within this factor of what the loop
/// calls zero (velocity_rtol times the speed scale, which a persisting
/// slip can make far larger than the normal speeds): below that, impacting
/// and closed can no longer be told apart (an undetected Example 3 chatter
/// reached 4e-9 against a slip of 3.3 and ended `inconsistent`). Not more:
/// the Poincaré maps start cycles with normal speeds cos(phi) down to 1e-6
/// of the slip, and those are exact.
#define SIM_ZENO_TOL_FACTOR 10.0
/// Impacts after which a sequence with shrinking, but never exactly
/// periodic, ratios is completed the same way.
#define SIM_ZENO_MAX_IMPACTS 20000
/// ZOD: a detected Zeno sequence is simulated on until the time left to its
/// accumulation point is below this fraction of the sequence's duration
/// (hops of 1e-3 of the first are invisible in any plot) ...
#define SIM_ZENO_TAIL_FRACTION 1e-3
/// ... or until this many impacts (a ratio near 1 converges slowly) ...
#define SIM_ZENO_TAIL_IMPACTS 2000
/// ... or until the event limit comes near (events per impact: the impact
/// and up to three transitions), so a Zeno sequence never ends there.
#define SIM_ZENO_EVENTS_PER_IMPACT 4

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

/// A contact outside the sequence whose gap at the extrapolated limit is
/// below this fraction of the sequence's length scale reaches its surface
/// before the accumulation point (rounding of the extrapolation is ~1e-15).
#define SIM_ZENO_OTHER_GAP_RTOL 1e-12

// True when the contacts the sequence does not touch are still open at its
// accumulation point. One that reaches its surface first interrupts the
// sequence: completing it would jump past that impact (Example 2 with
// Newton e = 0.8 left contact 2 1.6e-7 below its surface), so the
// sequence is simulated on until the impact happens.
static bool limit_keeps_others_open(const zeno_sim *s) {
  double c[4], cd[4], scale = 0;
  sim_contacts(s, rec(s, 0)->q, rec(s, 0)->qd, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++) scale = fmax(scale, fabs(c[a]));
  sim_contacts(s, s->zeno_q, s->zeno_qd, c, cd);
  for (int i = 0; i < s->km.n; i++)
    if (!((s->zeno_contacts >> i) & 1u) && c[2 * i] < -SIM_ZENO_OTHER_GAP_RTOL * scale)
      return false;
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

void sim_zeno_detect(zeno_sim *s) {
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
      s->zeno_pending = limit_keeps_slip_signs(s, p) && limit_keeps_others_open(s) &&
                        tail_negligible(s, p);
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

void sim_zeno_record_impact(zeno_sim *s, double speed, unsigned touched) {
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

void sim_zeno_reset(zeno_sim *s) {
  s->ring_len = 0;
  s->seq_impacts = 0;
}

/* ---------- closing at the accumulation point ---------- */

zeno_status sim_zeno_emit(zeno_sim *s, zeno_event *ev) {
  s->zeno_pending = false;
  segment g = {.t0 = s->t, .t1 = s->zeno_t, .mode = s->sol.mode, .zeno_tail = true};
  memcpy(g.q0, s->q, sizeof g.q0);
  memcpy(g.qd0, s->qd, sizeof g.qd0);
  for (int k = 0; k < 3; k++)
    g.qdd[k] = s->zeno_t > s->t ? (s->zeno_q[k] - s->q[k]) / (s->zeno_t - s->t) : 0;
  if (sim_hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  sim_event_begin(s, ev, ZENO_EVENT_ZENO, ZENO_GUARD_ZENO, -1);
  const double vscale = s->vscale;
  s->t = s->zeno_t;
  memcpy(s->q, s->zeno_q, sizeof s->q);
  memcpy(s->qd, s->zeno_qd, sizeof s->qd);
  sim_fill_state(s, s->t, s->q, s->qd, &s->sol, &ev->before);
  ev->t = s->t;
  ev->zeno_impacts = s->zeno_seq_impacts;
  ev->zeno_ratio = s->zeno_ratio;
  ev->zeno_error = s->zeno_err;
  ev->zeno_period = s->zeno_period;
  if (!s->has_zeno) {
    s->has_zeno = true;
    s->first_zeno_time = s->zeno_t;
    s->first_zeno_impacts = s->zeno_seq_impacts;
  }
  // The impacting contacts close: normal gaps and rates vanish at the limit.
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = (s->zeno_contacts >> i) & 1u;
  // Zero is judged on the scale of the sequence (its first impact speed):
  // what is left at the limit is either that large (a tangential slip) or
  // rounding of the vanished normal motion.
  tolerances tol = sim_make_tol(s, fmax(fmax(sim_contact_speed(s, s->qd), vscale),
                                    s->seq_first_speed));
  if (sim_is_full(s) || s->zeno_period == 0) {
    // The full model extrapolates its limit from periods that are not
    // exactly geometric, and a sequence completed at a floor stops short
    // of its limit: what is left of the vanished motion is up to the last
    // impact speed (slip rates a few times the normal ones), not rounding.
    const double last = s->ring_len > 0 ? s->ring[s->ring_len - 1].speed : 0;
    tol.v = fmax(tol.v, SIM_ZENO_FLOOR_TOL_FACTOR * last);
  }
  // A sequence ended at a precision floor dropped bounces below resolution:
  // a decision as close as their height.
  if (s->zeno_period == 0) sim_note_tie(s, s->zeno_floor_tie);
  zm_class cls;
  sim_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->km.n; i++)
    if (touching[i]) cls.gap[i] = ZM_GAP_CLOSED;
  sim_enforce(s, &cls);
  sim_refresh_dyn(s);
  s->vscale = fmax(sim_contact_speed(s, s->qd), tol.v);
  sim_zeno_reset(s);
  sim_word_append(s, "Z");
  const zeno_mode before = s->sol.mode;
  sim_choose_next(s, &cls, &tol);
  if (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) sim_mode_token(s);
  ev->mode_before = before;
  sim_event_finish(s, ev);
  s->signature = SIM_SIGNATURE_SEED;
  return ZENO_OK;
}
