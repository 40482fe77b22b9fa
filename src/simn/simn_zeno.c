// Zeno detection in the N-contact engine (issue 34, slice 5): sim_zeno.c's
// rules on impact_series.h, for any subset of contacts. A sequence whose
// last SERIES_RATIO_PERIODS + 1 periods of p impacts repeat the same steps
// with one ratio r < 1 of durations and speeds accumulates: its limit is
// extrapolated (series_geometric_limit) and, once what is left of it is
// negligible, the ZENO event closes the contacts it touched there (a limit
// past t_end is fast-forwarded to, ZOD). Reverse chatter (one ratio above
// 1 with the velocity direction settled, or grown tenfold since the
// sequence began with ratios that only settle to diverge_rtol or keep
// growing) ends the run `diverging`. A sequence shrunk to the precision
// floor is completed from its last impact, with the geometric tail of its
// last periods where they roughly agree and the contacts at their surface
// that the floor leaves falling at its speeds; a chain of completions shrunk
// to its floor is closed as a whole. The chain's own detection, the ZENO
// event and the fast-forward are simn_zeno_chain.c's.
#include <float.h>
#include <math.h>
#include <string.h>

#include "simn/simn_run.h"

/// sim_zeno.c's constants, with its reasons: a sequence whose impact
/// speed fell below this fraction of its first is at the limit of double
/// precision and is completed from its current state ...
#define SIMN_ZENO_SPEED_FLOOR 1e-12
/// The same floor in the full model (sim_zeno.c's SIM_FULL_ZENO_SPEED_FLOOR:
/// its gaps are differences of positions of the first bounce's size, so
/// below 1e-6 of the first speed the bounces are within 1e4 ulps of them).
#define SIMN_FULL_ZENO_SPEED_FLOOR 1e-6
/// ... and once its impact speeds come within this factor of the velocity
/// zero, where impacting and closed can no longer be told apart.
#define SIMN_ZENO_TOL_FACTOR 10.0
/// A completion at a floor closes with a velocity zero of this many times
/// the last impact speed (what is left of the vanished motion).
#define SIMN_ZENO_FLOOR_TOL_FACTOR 10.0
/// Impacts after which a shrinking sequence is completed ...
#define SIMN_ZENO_MAX_IMPACTS 20000
/// ... once its speed is below this fraction of its first (elastic
/// bounces that do not shrink never are).
#define SIMN_ZENO_SHRUNK_FRACTION 0.5
/// A detected sequence is simulated on until the time left to its limit
/// is below this fraction of its duration ...
#define SIMN_ZENO_TAIL_FRACTION 1e-3
/// ... or for this many impacts ...
#define SIMN_ZENO_TAIL_IMPACTS 2000
/// ... or until the event limit comes near (events per impact).
#define SIMN_ZENO_EVENTS_PER_IMPACT 4
/// A contact outside the sequence whose gap at the limit is below this
/// fraction of the sequence's size reaches its surface first.
#define SIMN_ZENO_OTHER_GAP_RTOL 1e-12
/// ZOD: a chain shrunk below the full model's floor is closed there once
/// the event limit is within this many impacts (sim_zeno.c's
/// SIM_CHAIN_LIMIT_IMPACTS: a chain whose completions shrink without ever
/// repeating the same steps has no ratio to extrapolate, only its floor).
#define SIMN_CHAIN_LIMIT_IMPACTS 4
/// Full model: a bounce lower than this many ulps of the positions is lost
/// in their rounding (sim_zeno_ratio.c's SIM_FULL_BOUNCE_ULPS).
#define SIMN_FULL_BOUNCE_ULPS 1e6
/// Full model: reverse chatter whose ratio has settled to full_ratio_rtol
/// diverges when it exceeds 1 by this many times that spread
/// (sim_zeno_ratio.c's SIM_FULL_SLOW_DIVERGE_SPREADS).
#define SIMN_FULL_SLOW_DIVERGE_SPREADS 10.0

static const impact_record *rec(const simn *s, int back) { return at(simn_sequence(s), back); }

static void record_now(simn *s, double speed, unsigned touched) {
  impact_record *r = series_ring_next(s->records.ring, &s->zeno.ring_len, SERIES_RING);
  memset(r, 0, sizeof *r);
  r->t = s->t;
  r->signature = s->signature;
  r->speed = speed;
  memcpy(r->q, s->q, sizeof r->q);
  memcpy(r->qd, s->qd, sizeof r->qd);
  r->touched = touched;
}

// Full model, at a sequence's first impact: a contact the last floor
// completion left open that lands before the cut chatter would have ended
// interrupted it (sim_zeno.c's note_interruption).
static void note_interruption(simn *s, unsigned touched) {
  const bool interrupted = s->zeno.cut_contacts != 0 && (touched & ~s->zeno.cut_contacts) != 0 &&
                           s->t <= s->zeno.cut_end_t;
  s->zeno.chain_interrupted = interrupted && s->zeno.chain_len > 0 ? s->zeno.chain_interrupted + 1
                                                                   : 0;
  s->zeno.cut_contacts = 0;
}

void simn_zeno_record(simn *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) {
    s->zeno.seq_first_speed = speed;
    s->zeno.seq_first_t = s->t;
    s->zeno.seq_first_signature = s->signature;
    s->zeno.seq_touched = 0;
    s->zeno.seq_lead_t = s->zeno.quiet_t;
    if (s->zeno.chain_len > 0) {  // a new motion starts a new chain
      const double tz = s->records.chain[s->zeno.chain_len - 1].t;
      const int back = s->zeno.chain_len - 1 - SERIES_CHAIN_MAX_PERIOD;
      const double t_ref = back >= 0 ? s->records.chain[back].t : s->zeno.chain_lead_t;
      if (!series_chain_goes_on(s->t, tz, t_ref)) s->zeno.chain_len = 0;
    }
    note_interruption(s, touched);
  }
  s->zeno.seq_touched |= touched;
  s->zeno.seq_impacts++;
  record_now(s, speed, touched);
  s->signature = SERIES_SIGNATURE_SEED;
}

bool simn_zeno_at_floor(const simn *s, double speed, double vscale) {
  return speed < SIMN_ZENO_TOL_FACTOR * s->def.velocity_rtol * vscale;
}

static int slip_sign(double xd, double tol) { return xd > tol ? 1 : (xd < -tol ? -1 : 0); }

// Every contact slipping at a phase point of the last period slips the same
// way at the limit: the contacts of the nominal contact set (sim_zeno.c
// asks it of both of its contacts; a contact away from the body, open
// throughout, changes no step by its tangential rate).
static bool limit_keeps_slip_signs(const simn *s, rview v, int p, double first_speed) {
  // The full model's limit is extrapolated from ratios known to
  // full_ratio_rtol: a slip within that of zero at the limit is one that
  // fades with the chatter (the ZOD's exact zero).
  const double rtol = s->m.full ? s->def.full_ratio_rtol : s->def.velocity_rtol;
  const double tol = rtol * first_speed;
  double c[MAXV], lim[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->zeno.pending_q, s->zeno.pending_qd, c, lim);
  for (int k = 0; k < p; k++) {
    simn_contacts(&s->m, at(v, k)->q, at(v, k)->qd, c, cd);
    for (int i = 0; i < s->m.n; i++) {
      if (s->m.gap0[i] != 0) continue;
      const int sk = slip_sign(cd[2 * i + 1], tol), sl = slip_sign(lim[2 * i + 1], tol);
      if (sk != 0 && sl != 0 && sk != sl) return false;
    }
  }
  return true;
}

// The contacts the sequence does not touch are still open at its limit.
static bool limit_keeps_others_open(const simn *s, rview v) {
  double c[MAXV], cd[MAXV], scale = 0;
  simn_contacts(&s->m, at(v, 0)->q, at(v, 0)->qd, c, cd);
  for (int a = 0; a < 2 * s->m.n; a++) scale = fmax(scale, fabs(c[a] - simn_offset(s, a)));
  simn_contacts(&s->m, s->zeno.pending_q, s->zeno.pending_qd, c, cd);
  for (int i = 0; i < s->m.n; i++)
    if (!((s->zeno.pending_contacts >> i) & 1u) && c[2 * i] < -SIMN_ZENO_OTHER_GAP_RTOL * scale)
      return false;
  return true;
}

bool simn_zeno_limit_holds(const simn *s, rview v, int p, double first_speed) {
  return limit_keeps_slip_signs(s, v, p, first_speed) && limit_keeps_others_open(s, v);
}

void simn_zeno_extrapolate(simn *s, rview v, int p, double r) {
  double t_err, dqd[3];  // the limit predicted a period earlier, minus this one
  series_geometric_limit(v, p, r, &s->zeno.pending_t, s->zeno.pending_q, s->zeno.pending_qd, &t_err,
                         dqd);
  unsigned touched = 0;
  for (int k = 0; k < p; k++) touched |= at(v, k)->touched;
  s->zeno.pending_contacts = touched;
  s->zeno.pending_ratio = r;
  s->zeno.pending_period = p;
  // The contact rates' share of that difference: how well the limit's
  // velocities are known.
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->zeno.pending_q, dqd, c, cd);
  s->zeno.pending_rate_err = 0;
  for (int a = 0; a < 2 * s->m.n; a++)
    s->zeno.pending_rate_err = fmax(s->zeno.pending_rate_err, fabs(cd[a]));
}

static bool limit_before_end(const simn *s) { return s->zeno.pending_t <= s->def.t_end; }

bool simn_zeno_tail_negligible(const simn *s, double last_t, double first_t, long done,
                               long per_period) {
  if (s->m.full) return true;  // its accuracy would not improve by going on
  const double tail = s->zeno.pending_t - last_t;
  const double span = s->zeno.pending_t - first_t;
  const long events_left = s->def.max_events - s->event_count;
  return tail <= SIMN_ZENO_TAIL_FRACTION * span || done >= SIMN_ZENO_TAIL_IMPACTS ||
         events_left < SIMN_ZENO_EVENTS_PER_IMPACT * per_period * 4;
}

/* ---- reverse chatter (sim_zeno_ratio.c) ---------------------------------- */

// The contact velocity direction at the phase point repeats from period to
// period (a fixed point of the return map).
static bool direction_settled(const simn *s, int p, double rtol) {
  double c[MAXV], va[MAXV], vb[MAXV];
  simn_contacts(&s->m, rec(s, 0)->q, rec(s, 0)->qd, c, va);
  simn_contacts(&s->m, rec(s, p)->q, rec(s, p)->qd, c, vb);
  return series_same_direction(va, vb, 2 * s->m.n, rtol);
}

// Full model: the bounce after this impact (its height from the fastest
// separating gap rate of the contacts it touched) is lost in the rounding
// of the positions (sim_at_rounding; the size from the nominal pose).
static bool at_rounding(const simn *s, const impact_record *r) {
  double c[MAXV], cd[MAXV], size = 0, v = 0;
  simn_contacts(&s->m, r->q, r->qd, c, cd);
  for (int a = 0; a < 2 * s->m.n; a++) size = fmax(size, fabs(c[a] - simn_offset(s, a)));
  for (int i = 0; i < s->m.n; i++)
    if ((r->touched >> i) & 1u) v = fmax(v, cd[2 * i]);
  if (!(v > s->def.velocity_rtol * r->speed)) return false;  // no bounce
  const double height = v * v / s->m.accel_scale;
  return height < SIMN_FULL_BOUNCE_ULPS * DBL_EPSILON * size;
}

static void end_diverging(simn *s, double r0, int p) {
  s->zeno.div_ratio = r0;
  s->zeno.div_period = p;
  simn_end_with(s, ZENO_OUTCOME_DIVERGING, ZENO_GUARD_NONE);
}

// sim_reverse_chatter: one ratio to rtol above 1 + margin, the direction
// settled to dir_rtol.
static bool reverse_chatter(simn *s, rview v, int p, int K, double rtol, double margin,
                            double dir_rtol) {
  const double r0 = series_reverse_ratio(v, p, K, rtol, margin);
  if (!(r0 > 0) || !direction_settled(s, p, dir_rtol)) return false;
  end_diverging(s, r0, p);
  return true;
}

// Ratios settled only to diverge_rtol, the bounces grown tenfold.
static bool grown_reverse_chatter(simn *s, rview v, int p, int K) {
  const double rtol = s->def.diverge_rtol;
  return series_grown(&s->zeno, v) && reverse_chatter(s, v, p, K, rtol, rtol, rtol);
}

// Ratios that drift as the chatter grows, every period longer and faster
// by more than diverge_rtol, the bounces grown tenfold.
static bool outgrown_reverse_chatter(simn *s, rview v, int p, int K) {
  const double r = series_outgrown_ratio(&s->zeno, v, p, K, s->def.diverge_rtol);
  if (!(r > 0)) return false;
  end_diverging(s, r, p);
  return true;
}

/* ---- floors -------------------------------------------------------------- */

// A chain at its precision floor: the last impact and the normal speeds of
// every contact the chain touched are below the floor of its first impact
// speed (or, near the event limit, SIMN_CHAIN_LIMIT_IMPACTS); in the full
// model also a chain whose last completions a landing kept interrupting.
static bool chain_at_floor(const simn *s, double floor) {
  if (s->zeno.chain_len == 0) return false;
  if (s->zeno.chain_interrupted >= SERIES_RATIO_PERIODS + 1) return true;
  const unsigned contacts = s->zeno.chain_touched | s->zeno.seq_touched;
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  double v = rec(s, 0)->speed;
  for (int i = 0; i < s->m.n; i++)
    if ((contacts >> i) & 1u) v = fmax(v, fabs(cd[2 * i]));
  const long events_left = s->def.max_events - s->event_count;
  return v < floor * s->zeno.chain_first_speed ||
         (v < SIMN_FULL_ZENO_SPEED_FLOOR * s->zeno.chain_first_speed &&
          events_left < SIMN_ZENO_EVENTS_PER_IMPACT * SIMN_CHAIN_LIMIT_IMPACTS);
}

// Of the contacts in mask, those whose normal rate is now within the
// floor's tolerance of the last impact speed: part of the vanished motion.
static unsigned floor_contacts(const simn *s, unsigned mask, double last_speed) {
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  unsigned kept = 0;
  for (int i = 0; i < s->m.n; i++)
    if (((mask >> i) & 1u) && fabs(cd[2 * i]) <= SIMN_ZENO_FLOOR_TOL_FACTOR * last_speed)
      kept |= 1u << i;
  return kept;
}

// ZOD: the contacts at their surface and approaching it, below the height
// a bounce at `speed` reaches (sim_zeno.c's at_surface; none in the full
// model, whose floors lie far above its velocity zero).
static unsigned at_surface(const simn *s, double speed) {
  if (s->m.full) return 0;
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  const double height = speed * speed / s->m.accel_scale;
  unsigned mask = 0;
  for (int i = 0; i < s->m.n; i++)
    if (c[2 * i] <= height && cd[2 * i] <= 0) mask |= 1u << i;
  return mask;
}

// The bounces a floor drops still move the body: where the last two
// periods agree roughly, their geometric tail is added, unless its limit
// is past t_end, another contact reaches its surface or a slip reverses.
static void floor_tail(simn *s, rview v) {
  int p = 0;
  double r0 = 0;
  if (!series_floor_tail(v, SERIES_MAX_PERIOD, &p, &r0)) return;
  double t = s->zeno.pending_t, ratio = s->zeno.pending_ratio, q[3], qd[3];
  memcpy(q, s->zeno.pending_q, sizeof q);
  memcpy(qd, s->zeno.pending_qd, sizeof qd);
  const unsigned contacts = s->zeno.pending_contacts;
  simn_zeno_extrapolate(s, v, p, r0);
  s->zeno.pending_contacts = contacts;
  if (!limit_before_end(s) || !simn_zeno_limit_holds(s, v, p, s->zeno.seq_first_speed)) {
    s->zeno.pending_t = t;
    s->zeno.pending_ratio = ratio;
    memcpy(s->zeno.pending_q, q, sizeof q);
    memcpy(s->zeno.pending_qd, qd, sizeof qd);
  }
}

// The sequence (or, at a chain's floor, the chain) completed at the
// precision floor from its last record: the contacts it touched close
// there, with those whose motion the floor has left, after the geometric
// tail of its last periods where they agree (`tail`).
static void floor_completion(simn *s, bool chain_floor, bool tail) {
  const rview v = simn_sequence(s);
  const impact_record *last = rec(s, 0);
  const impact_record *prev = v.len > 1 ? rec(s, 1) : last;
  s->zeno.pending_t = last->t;
  memcpy(s->zeno.pending_q, last->q, sizeof s->zeno.pending_q);
  memcpy(s->zeno.pending_qd, last->qd, sizeof s->zeno.pending_qd);
  s->zeno.pending_contacts =
      last->touched |
      floor_contacts(s,
                     (prev->touched | at_surface(s, SIMN_ZENO_FLOOR_TOL_FACTOR * last->speed)) &
                         ~last->touched,
                     last->speed);
  s->zeno.pending_ratio = prev->speed > 0 ? last->speed / prev->speed : 0;
  if (tail) floor_tail(s, v);
  s->zeno.pending_period = 0;
  s->zeno.pending_impacts = s->zeno.seq_impacts;
  s->zeno_pending = true;
  if (chain_floor) {
    s->zeno.pending_contacts |= s->zeno.chain_touched | s->zeno.seq_touched;
    s->zeno.pending_impacts += s->zeno.chain_impacts;
    s->zeno.pending_order = 2;
    s->zeno.chain_closing = true;
  }
}

bool simn_zeno_floor_approach(simn *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) return false;
  // The approach's record (not counted as an impact) starts the
  // completion; its velocities are at another phase: no tail.
  record_now(s, speed, touched);
  s->zeno.pending_order = 1;
  s->zeno.chain_closing = false;
  floor_completion(s, false, false);
  return true;
}

void simn_zeno_detect(simn *s) {
  const int K = SERIES_RATIO_PERIODS + 1;
  const rview v = simn_sequence(s);
  // The ZOD's ratios are exact: both ways to SERIES_RATIO_RTOL. The full
  // model's converge as the chatter shrinks (sim_zeno.c's tolerances), and
  // it completes at detection: its accuracy would not improve by going on.
  const bool full = s->m.full;
  const double rtol_conv = full ? s->def.full_ratio_rtol : SERIES_RATIO_RTOL;
  const double rtol_div = full ? s->def.diverge_rtol : SERIES_RATIO_RTOL;
  const double floor = full ? SIMN_FULL_ZENO_SPEED_FLOOR : SIMN_ZENO_SPEED_FLOOR;
  s->zeno.pending_order = 1;
  s->zeno.chain_closing = false;
  // A chain shrunk to the last digits of the state is at its accumulation
  // point, whatever the current sequence does.
  const bool chain_floor = chain_at_floor(s, floor);
  for (int p = 1; p <= SERIES_MAX_PERIOD && !chain_floor; p++) {
    if (v.len < K * p + 1) break;
    if (!series_periodic(v, p, K)) continue;
    double r0 = 0;
    if (!series_constant_ratio(v, p, K, fmax(rtol_conv, rtol_div), &r0)) {
      if (!full && (grown_reverse_chatter(s, v, p, K) || outgrown_reverse_chatter(s, v, p, K)))
        return;
      if (full && !at_rounding(s, rec(s, 0)) && outgrown_reverse_chatter(s, v, p, K)) return;
      continue;
    }
    if (r0 < 1 - rtol_conv) {
      if (!series_constant_ratio(v, p, K, rtol_conv, &r0)) break;  // not yet converged
      simn_zeno_extrapolate(s, v, p, r0);
      s->zeno.pending_impacts = s->zeno.seq_impacts;
      const bool holds = simn_zeno_limit_holds(s, v, p, s->zeno.seq_first_speed);
      if (holds && !limit_before_end(s)) simn_zeno_forward_periods(s, v, p, r0);
      s->zeno_pending = holds && limit_before_end(s) &&
                        simn_zeno_tail_negligible(s, rec(s, 0)->t, s->zeno.seq_first_t,
                                                  s->zeno.seq_impacts, p);
      return;
    }
    if (!full && reverse_chatter(s, v, p, K, rtol_div, rtol_div, rtol_div)) return;
    if (full && !at_rounding(s, rec(s, 0)) &&
        (reverse_chatter(s, v, p, K, s->def.full_ratio_rtol,
                         SIMN_FULL_SLOW_DIVERGE_SPREADS * s->def.full_ratio_rtol, rtol_div) ||
         grown_reverse_chatter(s, v, p, K)))
      return;
    break;  // neither: the floors below may still end it
  }
  const impact_record *last = rec(s, 0);
  if (chain_floor ||
      (s->zeno.seq_impacts >= 2 &&
       (last->speed < floor * s->zeno.seq_first_speed || (full && at_rounding(s, last)) ||
        simn_zeno_at_floor(s, last->speed, s->vscale) ||
        (s->zeno.seq_impacts >= SIMN_ZENO_MAX_IMPACTS &&
         last->speed < SIMN_ZENO_SHRUNK_FRACTION * s->zeno.seq_first_speed))))
    floor_completion(s, chain_floor, true);
}
