// Zeno completion in the N-contact engine (issue 34, slice 5): sim_zeno.c's
// first-order rules on impact_series.h, for any subset of contacts. A
// sequence whose last SERIES_RATIO_PERIODS + 1 periods of p impacts repeat
// the same steps with one ratio r < 1 of durations and speeds accumulates:
// its limit is extrapolated (series_geometric_advance) and, once what is
// left of it is negligible, the ZENO event closes the contacts it touched
// there. Reverse chatter (one ratio above 1, the velocity direction
// settled, all to the ZOD's SERIES_RATIO_RTOL) ends the run `diverging`; a sequence shrunk to the precision
// floor is completed from its last impact. What sim_zeno.c does beyond
// this (chains of completions, the fast-forward past t_end, the floor's
// tail and its contacts at the surface, the grown reverse chatter) is not
// here yet: such runs go on impact by impact, or complete later at the
// floor (docs/model.md, slice 5).
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
/// Classify-and-enforce passes on the closed state (sim_zeno_close.c's).
#define SIMN_RECLASSIFY_PASSES 3

static rview sequence_view(const simn *s) { return (rview){s->zeno.ring, s->zeno.ring_len}; }
static const impact_record *rec(const simn *s, int back) { return at(sequence_view(s), back); }

static impact_record *ring_next(simn *s) {
  if (s->zeno.ring_len == SERIES_RING) {
    memmove(s->zeno.ring, s->zeno.ring + 1, (SERIES_RING - 1) * sizeof *s->zeno.ring);
    s->zeno.ring_len--;
  }
  return &s->zeno.ring[s->zeno.ring_len++];
}

static void record_now(simn *s, double speed, unsigned touched) {
  impact_record *r = ring_next(s);
  memset(r, 0, sizeof *r);
  r->t = s->t;
  r->signature = s->signature;
  r->speed = speed;
  memcpy(r->q, s->q, sizeof r->q);
  memcpy(r->qd, s->qd, sizeof r->qd);
  r->touched = touched;
}

void simn_zeno_record(simn *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) {
    s->zeno.seq_first_speed = speed;
    s->zeno.seq_first_t = s->t;
  }
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
static bool limit_keeps_slip_signs(const simn *s, int p) {
  // The full model's limit is extrapolated from ratios known to
  // full_ratio_rtol: a slip within that of zero at the limit is one that
  // fades with the chatter (the ZOD's exact zero).
  const double rtol = s->m.full ? s->def.full_ratio_rtol : s->def.velocity_rtol;
  const double tol = rtol * s->zeno.seq_first_speed;
  double c[MAXV], lim[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->zeno.pending_q, s->zeno.pending_qd, c, lim);
  for (int k = 0; k < p; k++) {
    simn_contacts(&s->m, rec(s, k)->q, rec(s, k)->qd, c, cd);
    for (int i = 0; i < s->m.n; i++) {
      if (s->m.gap0[i] != 0) continue;
      const int sk = slip_sign(cd[2 * i + 1], tol), sl = slip_sign(lim[2 * i + 1], tol);
      if (sk != 0 && sl != 0 && sk != sl) return false;
    }
  }
  return true;
}

// The contacts the sequence does not touch are still open at its limit.
static bool limit_keeps_others_open(const simn *s) {
  double c[MAXV], cd[MAXV], scale = 0;
  simn_contacts(&s->m, rec(s, 0)->q, rec(s, 0)->qd, c, cd);
  for (int a = 0; a < 2 * s->m.n; a++) scale = fmax(scale, fabs(c[a] - simn_offset(s, a)));
  simn_contacts(&s->m, s->zeno.pending_q, s->zeno.pending_qd, c, cd);
  for (int i = 0; i < s->m.n; i++)
    if (!((s->zeno.pending_contacts >> i) & 1u) && c[2 * i] < -SIMN_ZENO_OTHER_GAP_RTOL * scale)
      return false;
  return true;
}

static void extrapolate(simn *s, int p, double r) {
  const double g = r / (1 - r), g2 = r * r / (1 - r * r);
  series_geometric_advance(sequence_view(s), p, r, g, g2, &s->zeno.pending_t, s->zeno.pending_q,
                           s->zeno.pending_qd);
  unsigned touched = 0;
  for (int k = 0; k < p; k++) touched |= rec(s, k)->touched;
  s->zeno.pending_contacts = touched;
  s->zeno.pending_ratio = r;
  s->zeno.pending_period = p;
}

static bool tail_negligible(const simn *s, int p) {
  const double tail = s->zeno.pending_t - rec(s, 0)->t;
  const double span = s->zeno.pending_t - s->zeno.seq_first_t;
  const long events_left = s->def.max_events - s->event_count;
  return tail <= SIMN_ZENO_TAIL_FRACTION * span || s->zeno.seq_impacts >= SIMN_ZENO_TAIL_IMPACTS ||
         events_left < SIMN_ZENO_EVENTS_PER_IMPACT * p * 4;
}

// The contact velocity direction at the phase point repeats from period to
// period (a fixed point of the return map).
static bool simn_direction_settled(const simn *s, int p, double rtol) {
  double c[MAXV], va[MAXV], vb[MAXV];
  simn_contacts(&s->m, rec(s, 0)->q, rec(s, 0)->qd, c, va);
  simn_contacts(&s->m, rec(s, p)->q, rec(s, p)->qd, c, vb);
  return series_same_direction(va, vb, 2 * s->m.n, rtol);
}

// The sequence completed at the precision floor from its last record.
static void floor_completion(simn *s) {
  const impact_record *last = rec(s, 0);
  const impact_record *prev = s->zeno.ring_len > 1 ? rec(s, 1) : last;
  s->zeno.pending_t = last->t;
  memcpy(s->zeno.pending_q, last->q, sizeof s->zeno.pending_q);
  memcpy(s->zeno.pending_qd, last->qd, sizeof s->zeno.pending_qd);
  // The last impact's contacts, and the previous one's whose normal rate
  // is now within the floor's tolerance (part of the vanished motion).
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  unsigned contacts = last->touched;
  for (int i = 0; i < s->m.n; i++)
    if (((prev->touched >> i) & 1u) && fabs(cd[2 * i]) <= SIMN_ZENO_FLOOR_TOL_FACTOR * last->speed)
      contacts |= 1u << i;
  s->zeno.pending_contacts = contacts;
  s->zeno.pending_ratio = prev->speed > 0 ? last->speed / prev->speed : 0;
  s->zeno.pending_period = 0;
  s->zeno.pending_last_speed = last->speed;
  s->zeno.pending_impacts = s->zeno.seq_impacts;
  s->zeno.pending = true;
}

bool simn_zeno_floor_approach(simn *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) return false;
  record_now(s, speed, touched);
  floor_completion(s);
  return true;
}

void simn_zeno_detect(simn *s) {
  const int K = SERIES_RATIO_PERIODS + 1;
  const rview v = sequence_view(s);
  // The ZOD's ratios are exact: both ways to SERIES_RATIO_RTOL. The full
  // model's converge as the chatter shrinks (sim_zeno.c's tolerances), and
  // it completes at detection: its accuracy would not improve by going on.
  const bool full = s->m.full;
  const double rtol_conv = full ? s->def.full_ratio_rtol : SERIES_RATIO_RTOL;
  const double rtol_div = full ? s->def.diverge_rtol : SERIES_RATIO_RTOL;
  for (int p = 1; p <= SERIES_MAX_PERIOD; p++) {
    if (v.len < K * p + 1) break;
    if (!series_periodic(v, p, K)) continue;
    double r0 = 0;
    if (!series_constant_ratio(v, p, K, fmax(rtol_conv, rtol_div), &r0)) continue;
    if (r0 < 1 - rtol_conv) {
      if (!series_constant_ratio(v, p, K, rtol_conv, &r0)) break;  // not yet converged
      extrapolate(s, p, r0);
      s->zeno.pending_impacts = s->zeno.seq_impacts;
      const bool holds = limit_keeps_slip_signs(s, p) && limit_keeps_others_open(s);
      s->zeno.pending = holds && s->zeno.pending_t <= s->def.t_end &&
                        (full || tail_negligible(s, p));
      return;
    }
    if (r0 > 1 + rtol_div && simn_direction_settled(s, p, rtol_div)) {
      simn_end_with(s, ZENO_OUTCOME_DIVERGING, ZENO_GUARD_NONE);
      return;
    }
    break;
  }
  const impact_record *last = rec(s, 0);
  if (s->zeno.seq_impacts >= 2 &&
      (last->speed <
           (full ? SIMN_FULL_ZENO_SPEED_FLOOR : SIMN_ZENO_SPEED_FLOOR) * s->zeno.seq_first_speed ||
       simn_zeno_at_floor(s, last->speed, s->vscale) ||
       (s->zeno.seq_impacts >= SIMN_ZENO_MAX_IMPACTS &&
        last->speed < SIMN_ZENO_SHRUNK_FRACTION * s->zeno.seq_first_speed)))
    floor_completion(s);
}

zeno_status simn_zeno_emit(simn *s, simn_event *ev, zeno_error *e) {
  s->zeno.pending = false;
  simn_event_begin(s, ev, ZENO_EVENT_ZENO, ZENO_GUARD_ZENO, -1);
  const double vscale = s->vscale;
  s->t = s->zeno.pending_t;
  memcpy(s->q, s->zeno.pending_q, sizeof s->q);
  memcpy(s->qd, s->zeno.pending_qd, sizeof s->qd);
  for (int i = 0; i < s->m.n; i++) s->at_surface[i] = s->rate_zero[i] = false;
  ev->t = s->t;
  memcpy(ev->qp_before, s->q, sizeof ev->qp_before);  // the limit, before the contacts close
  memcpy(ev->qdp_before, s->qd, sizeof ev->qdp_before);
  ev->zeno_impacts = s->zeno.pending_impacts;
  ev->zeno_ratio = s->zeno.pending_ratio;
  ev->zeno_period = s->zeno.pending_period;
  bool touching[MAXC] = {false}, below[MAXC] = {false};
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  bool any_below = false;
  for (int i = 0; i < s->m.n; i++) {
    touching[i] = (s->zeno.pending_contacts >> i) & 1u;
    below[i] = !touching[i] && c[2 * i] < 0;  // a rounding below its surface: it touches
    any_below = any_below || below[i];
  }
  if (any_below) simn_zero_gaps(s, below);
  // Zero on the scale of the sequence; a floor completion leaves what is
  // below its last impact speed.
  zero_tol tol =
      simn_make_tol(s, fmax(fmax(simn_contact_speed(s, s->qd), vscale), s->zeno.seq_first_speed));
  if (s->zeno.pending_period == 0)
    tol.v = fmax(tol.v, SIMN_ZENO_FLOOR_TOL_FACTOR * s->zeno.pending_last_speed);
  mode_n_class cls;
  simn_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->m.n; i++)
    if (touching[i]) cls.gap[i] = MODE_GAP_CLOSED;
  simn_enforce(s, &cls);
  for (int pass = 0; pass < SIMN_RECLASSIFY_PASSES; pass++) {
    mode_n_class closed;
    simn_classify(s, touching, tol.v, &closed);
    bool reclassified = false;
    for (int i = 0; i < s->m.n; i++)
      if (touching[i] && closed.slip[i] != cls.slip[i]) {
        cls.slip[i] = closed.slip[i];
        reclassified = true;
      }
    if (!reclassified) break;
    simn_enforce(s, &cls);
  }
  s->vscale = fmax(simn_contact_speed(s, s->qd), tol.v);
  s->zeno.ring_len = 0;
  s->zeno.seq_impacts = 0;
  zeno_status st = simn_word_append(s, "Z", 1, e);
  if (st != ZENO_OK) return st;
  st = simn_choose_next(s, &cls, &tol, e);
  if (st != ZENO_OK) return st;
  if (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) {
    st = simn_mode_token(s, e);
    if (st != ZENO_OK) return st;
  }
  simn_event_finish(s, ev);
  s->signature = SERIES_SIGNATURE_SEED;
  return ZENO_OK;
}
