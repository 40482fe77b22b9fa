// Zeno detection: the impacts of a sequence remembered, its detection (a
// period of repeated steps with one constant ratio, or a sequence shrunk to
// the precision floor) and the geometric extrapolation of its accumulation
// point; the same one level up for chains of completed sequences (second
// order). Reverse chatter (impact speeds growing geometrically on a fixed
// point of R) is detected by the same period search and ends the run
// `diverging`. The ZENO event that closes a sequence or chain at its limit
// is sim_zeno_close.c's, the ZOD's fast-forward over whole periods beyond
// t_end sim_zeno_forward.c's.
#include <math.h>
#include <string.h>

#include "sim/sim_zeno_ratio.h"

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
/// ... (and at SIM_FULL_BOUNCE_ULPS, sim_zeno_ratio.c) and once its
/// impact speeds come within this factor of what the loop calls zero
/// (velocity_rtol times the speed scale, which a persisting slip can make
/// far larger than the normal speeds): below that, impacting
/// and closed can no longer be told apart (an undetected Example 3 chatter
/// reached 4e-9 against a slip of 3.3 and ended `inconsistent`). Not more:
/// the Poincaré maps start cycles with normal speeds cos(phi) down to 1e-6
/// of the slip, and those are exact.
#define SIM_ZENO_TOL_FACTOR 10.0
/// Impacts after which a sequence with shrinking, but never exactly
/// periodic, ratios is completed the same way ...
#define SIM_ZENO_MAX_IMPACTS 20000
/// ... once its impact speed has shrunk below this fraction of its first:
/// bounces that do not shrink (e = 1, elastic) have no accumulation point,
/// and go on to a limit of the run (20,000 elastic bounces of a ball were
/// completed and called rest, the energy gone).
#define SIM_ZENO_SHRUNK_FRACTION 0.5
/// ZOD: a detected Zeno sequence is simulated on until the time left to its
/// accumulation point is below this fraction of the sequence's duration
/// (hops of 1e-3 of the first are invisible in any plot) ...
#define SIM_ZENO_TAIL_FRACTION 1e-3
/// ... or until this many impacts (a ratio near 1 converges slowly) ...
#define SIM_ZENO_TAIL_IMPACTS 2000
/// ... or until the event limit comes near (events per impact: the impact
/// and up to three transitions), so a Zeno sequence never ends there.
#define SIM_ZENO_EVENTS_PER_IMPACT 4

// A chain's period search and its gap rule are impact_series.h's
// (SERIES_CHAIN_MAX_PERIOD, series_chain_goes_on), shared with the
// N-contact engine.

// A completion is made only where its limit comes before the time limit:
// a run never ends past stop.t_end. Beyond it the sequence (or chain) is
// simulated on to t_end and the run ends `time-limit` there; the full
// model's completions at detection jumped to limits up to 8 times t_end
// (a chain of slow ratio) and reported `rest` where the ZOD, simulating
// the same chain on, stopped at the limit.
static bool limit_before_end(const zeno_sim *s) { return s->zeno.pending_t <= s->scene.t_end; }

static void extrapolate(zeno_sim *s, rview v, int p, double r) {
  double dqd[3];  // the limit predicted a period earlier, minus this one
  series_geometric_limit(v, p, r, &s->zeno.pending_t, s->zeno.pending_q, s->zeno.pending_qd,
                         &s->zeno.pending_err, dqd);
  unsigned touched = 0;
  for (int k = 0; k < p; k++) touched |= at(v, k)->touched;
  s->zeno.pending_contacts = touched;
  s->zeno.pending_ratio = r;
  s->zeno.pending_period = p;
  // The contact rates' share of that difference: how well the limit's
  // velocities are known.
  double c4[4], cd[4];
  sim_contacts(s, s->zeno.pending_q, dqd, c4, cd);
  s->zeno.pending_rate_err = 0;
  for (int k = 0; k < 2 * s->km.n; k++)
    s->zeno.pending_rate_err = fmax(s->zeno.pending_rate_err, fabs(cd[k]));
}

// Sign of a contact slip rate with a zero band.
static int slip_sign(double xd, double tol) { return xd > tol ? 1 : (xd < -tol ? -1 : 0); }

// True when every contact slipping at a phase point of the last period slips
// the same way at the extrapolated limit. Along a period of fixed steps the
// phase velocities approach the limit monotonically, so a sign that holds at
// both ends holds throughout.
static bool limit_keeps_slip_signs(const zeno_sim *s, rview v, int p, double first_speed) {
  const double tol = s->def.velocity_rtol * first_speed;
  double c[4], lim[4];
  sim_contacts(s, s->zeno.pending_q, s->zeno.pending_qd, c, lim);
  for (int k = 0; k < p; k++) {
    double cd[4];
    sim_contacts(s, at(v, k)->q, at(v, k)->qd, c, cd);
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
static bool limit_keeps_others_open(const zeno_sim *s, rview v) {
  double c[4], cd[4], scale = 0;
  sim_contacts(s, at(v, 0)->q, at(v, 0)->qd, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++) scale = fmax(scale, fabs(c[a]));
  sim_contacts(s, s->zeno.pending_q, s->zeno.pending_qd, c, cd);
  for (int i = 0; i < s->km.n; i++)
    if (!((s->zeno.pending_contacts >> i) & 1u) && c[2 * i] < -SIM_ZENO_OTHER_GAP_RTOL * scale)
      return false;
  return true;
}

// Under the exact ZOD further periods cost next to nothing and are exact,
// so the sequence is simulated until what is left of it is negligible (the
// dense output between the last simulated impact and the limit is only a
// stand-in); the full model completes at detection, because its accuracy
// on the shrinking gaps degrades period by period. The same for a chain:
// last_t is its last record, first_t its start, done its impacts so far
// and per_period the impacts of one period.
static bool tail_negligible(const zeno_sim *s, double last_t, double first_t, long done,
                            long per_period) {
  if (sim_is_full(s)) return true;
  const double tail = s->zeno.pending_t - last_t;
  const double span = s->zeno.pending_t - first_t;
  const long events_left = s->scene.max_events - s->run.event_count;
  return tail <= SIM_ZENO_TAIL_FRACTION * span || done >= SIM_ZENO_TAIL_IMPACTS ||
         events_left < SIM_ZENO_EVENTS_PER_IMPACT * per_period * 4;
}

/// ZOD: a chain shrunk below the full model's floor (SIM_FULL_ZENO_SPEED_FLOOR
/// of its first speed) is closed there once the event limit is within this
/// many impacts, as a converged sequence is completed before it
/// (tail_negligible): a chain whose completions shrink without ever
/// repeating the same steps has no ratio to extrapolate, only its floor
/// (property case 6581: 0.95 a completion, at 5e-10 of its first speed
/// after 100,000 events; it rests after 116,219, at the same x2 to the
/// last digit, where the full model rests).
#define SIM_CHAIN_LIMIT_IMPACTS 4

// A chain at its precision floor: the last impact and the normal speeds of
// every contact the chain touched are below the floor of its first impact
// speed (or, near the event limit, SIM_CHAIN_LIMIT_IMPACTS). (Each sequence's own floor is relative to its own first impact,
// which a chain makes smaller and smaller: without this, a contact
// re-excited by the other's bounces was completed again and again until
// its speeds underflowed.)
//
// Full model: a chain whose last ratio_periods + 1 completions each cut a
// chatter at a floor that another contact's landing then interrupted
// (note_interruption) is at its floor too. Its completions drop the
// bounces below the rounding of the positions, and what they drop decides
// whether the chain shrinks, not the physics.
static bool chain_at_floor(const zeno_sim *s, double floor) {
  if (s->zeno.chain_len == 0) return false;
  if (s->zeno.chain_interrupted >= s->def.ratio_periods + 1) return true;
  const unsigned contacts = s->zeno.chain_touched | s->zeno.seq_touched;
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  double v = rec(s, 0)->speed;
  for (int i = 0; i < s->km.n; i++)
    if ((contacts >> i) & 1u) v = fmax(v, fabs(cd[2 * i]));
  const long events_left = s->scene.max_events - s->run.event_count;
  return v < floor * s->zeno.chain_first_speed ||
         (v < SIM_FULL_ZENO_SPEED_FLOOR * s->zeno.chain_first_speed &&
          events_left < SIM_ZENO_EVENTS_PER_IMPACT * SIM_CHAIN_LIMIT_IMPACTS);
}

// Of the contacts in mask, those whose normal rate is now below the tolerance
// of a completion at a floor (SIM_ZENO_FLOOR_TOL_FACTOR times the last
// impact speed): part of the vanished motion. One that touched at the
// previous impact but has flown up since (Example 2, Chatterjee-Ruina
// e = 0.5, full model: contact 2 at 60 times contact 1's last speed) is
// not, and closing it stopped the body in a slip it then escaped in.
static unsigned floor_contacts(const zeno_sim *s, unsigned mask, double last_speed) {
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  unsigned kept = 0;
  for (int i = 0; i < s->km.n; i++)
    if (((mask >> i) & 1u) && fabs(cd[2 * i]) <= SIM_ZENO_FLOOR_TOL_FACTOR * last_speed)
      kept |= 1u << i;
  return kept;
}

// ZOD: the contacts at their surface now and approaching it: a gap below
// the height a bounce at `speed` (the floor's tolerance) reaches, v^2 / a
// on the acceleration scale, or a rounding below the surface. One of them
// moving at the floor's speeds is, like a contact of the sequence, part of
// the vanished motion. In a slide with both contacts chattering in turn,
// each floor completion of one contact left the other within a rounding of
// its surface, falling at the floor's speed: it impacted at once and
// re-excited the first, and the chatter hovered at 5e-8 of the slip speed
// for 100,000 events (5 of 20,000 random restitution cases ended
// `event-limit` where the full model, closing both at its floor, rests).
static unsigned at_surface(const zeno_sim *s, double speed) {
  // The full model's floors (1e-6 of the first speed, the rounding of the
  // positions) lie far above its velocity zero: a contact falling there at
  // ten times the last speed is real motion, and closing it (property case
  // 3880) stopped its landing and left the other contact's slip in NN with
  // a negative normal force: `inconsistent`.
  if (sim_is_full(s)) return 0;
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  const double height = speed * speed / s->km.accel_scale;
  unsigned mask = 0;
  for (int i = 0; i < s->km.n; i++)
    if (c[2 * i] <= height && cd[2 * i] <= 0) mask |= 1u << i;
  return mask;
}

// The bounces a floor drops still move the body: a slip carries on through
// them, and closing the contact at the last impact instead of the limit
// left Example 2's full model (Chatterjee-Ruina e = 0.2) off the ZOD's rest
// by 1.4e-3 at every eps (its ratios, 0.2, are lost in the rounding of the
// gaps within five impacts, before they hold to full_ratio_rtol). Where the
// last two periods agree roughly (SERIES_FLOOR_TAIL_RTOL), their
// geometric tail is added; its error is the spread of the ratios times a
// tail already at the floor.
static void floor_tail(zeno_sim *s, rview v) {
  int p = 0;
  double r0 = 0;
  if (series_floor_tail(v, s->def.max_period, &p, &r0)) {
    // The tail is added only where, as for any completion, no other
    // contact reaches its surface and no slip reverses on the way (Newton
    // e = 0.8's full model: contact 2, falling, went 9e-7 below).
    double t = s->zeno.pending_t, err = s->zeno.pending_err, ratio = s->zeno.pending_ratio, q[3],
           qd[3];
    memcpy(q, s->zeno.pending_q, sizeof q);
    memcpy(qd, s->zeno.pending_qd, sizeof qd);
    const unsigned contacts = s->zeno.pending_contacts;
    extrapolate(s, v, p, r0);
    s->zeno.pending_contacts = contacts;
    if (!limit_before_end(s) || !limit_keeps_others_open(s, v) ||
        !limit_keeps_slip_signs(s, v, p, s->zeno.seq_first_speed)) {
      s->zeno.pending_t = t;
      s->zeno.pending_err = err;
      s->zeno.pending_ratio = ratio;
      memcpy(s->zeno.pending_q, q, sizeof q);
      memcpy(s->zeno.pending_qd, qd, sizeof qd);
    }
  }
}

// The current state as the newest record of the sequence's ring, written
// in place (a run records every impact): every field set.
static void record_now(zeno_sim *s, double speed, unsigned touched) {
  impact_record *r = series_ring_next(s->records.ring, &s->zeno.ring_len, SERIES_RING);
  r->t = s->run.t;
  r->signature = s->run.signature;
  r->speed = speed;
  memcpy(r->q, s->run.q, sizeof r->q);
  memcpy(r->qd, s->run.qd, sizeof r->qd);
  r->touched = touched;
  r->impacts = 0;
}

static void floor_completion(zeno_sim *s, bool chain_floor, bool tail);

void sim_zeno_detect(zeno_sim *s) {
  const int K = s->def.ratio_periods + 1;
  const bool full = sim_is_full(s);
  const double rtol_conv = full ? s->def.full_ratio_rtol : s->def.ratio_rtol;
  const double rtol_div = full ? s->def.diverge_rtol : s->def.ratio_rtol;
  const double floor = full ? SIM_FULL_ZENO_SPEED_FLOOR : SIM_ZENO_SPEED_FLOOR;
  const rview v = impacts_of(s);
  s->zeno.pending_order = 1;
  s->zeno.chain_closing = false;
  // A chain shrunk to the last digits of the state is at its accumulation
  // point, whatever the current sequence does.
  const bool chain_floor = chain_at_floor(s, floor);
  for (int p = 1; p <= s->def.max_period && !chain_floor; p++) {
    if (v.len < K * p + 1) break;
    if (!series_periodic(v, p, K)) continue;
    double r0 = 0;
    if (!series_constant_ratio(v, p, K, fmax(rtol_conv, rtol_div), &r0)) {
      if (!full &&
          (sim_grown_reverse_chatter(s, v, p, K) || sim_outgrown_reverse_chatter(s, v, p, K)))
        return;
      if (full && !sim_at_rounding(s, rec(s, 0)) && sim_outgrown_reverse_chatter(s, v, p, K))
        return;
      continue;
    }
    if (r0 < 1 - rtol_conv) {
      // Not yet converged: the precision floor below may still end it (the
      // full model's ratios stop converging once the bounces reach the
      // rounding of the positions).
      if (!series_constant_ratio(v, p, K, rtol_conv, &r0)) break;
      extrapolate(s, v, p, r0);
      s->zeno.pending_impacts = s->zeno.seq_impacts;
      // The series continues forever only if no slip reverses on the way:
      // otherwise the steps change before the limit and simulation goes on.
      const bool holds = limit_keeps_slip_signs(s, v, p, s->zeno.seq_first_speed) &&
                         limit_keeps_others_open(s, v);
      if (holds && !limit_before_end(s)) sim_zeno_forward_periods(s, v, p, r0);
      s->run.zeno_pending = holds && limit_before_end(s) &&
                            tail_negligible(s, rec(s, 0)->t, s->zeno.seq_first_t,
                                            s->zeno.seq_impacts, p);
      return;
    }
    // Reverse chatter. The ZOD's ratios are exact. The full model's, known
    // to diverge_rtol only, are growth once they have settled to its
    // ratio tolerance, or once the bounces have grown as the ZOD's
    // unsettled ones must (a ratio of 1.03 a period for two periods, read
    // as divergence after 18 events, was the direction still turning: the
    // ZOD's chatter peaked and decayed to rest); never where the bounces
    // are lost in the rounding of the positions (the gaps then return
    // energy at random).
    if (!full && sim_reverse_chatter(s, v, p, K, rtol_div, rtol_div, rtol_div)) return;
    if (full && !sim_at_rounding(s, rec(s, 0)) &&
        (sim_settled_reverse_chatter(s, v, p, K) || sim_grown_reverse_chatter(s, v, p, K)))
      return;
    break;  // neither: the floors below may still end it
  }
  // Precision floor: a sequence shrunk to the last digits of the state is
  // at its accumulation point, whatever its ratios do.
  const impact_record *last = rec(s, 0);
  if (chain_floor ||
      (s->zeno.seq_impacts >= 2 &&
       (last->speed < floor * s->zeno.seq_first_speed || (full && sim_at_rounding(s, last)) ||
        sim_zeno_at_floor(s, last->speed, s->run.vscale) ||
        (s->zeno.seq_impacts >= SIM_ZENO_MAX_IMPACTS &&
         last->speed < SIM_ZENO_SHRUNK_FRACTION * s->zeno.seq_first_speed))))
    floor_completion(s, chain_floor, true);
}

// The sequence (or, at a chain's floor, the chain) completed at the
// precision floor from its last record, the current state: the contacts
// it touched close there (with those whose motion the floor has left),
// after the geometric tail of its last periods where they agree (`tail`:
// the last record is an impact's, at the phase of the others).
static void floor_completion(zeno_sim *s, bool chain_floor, bool tail) {
  const rview v = impacts_of(s);
  const impact_record *last = rec(s, 0);
  const impact_record *prev = v.len > 1 ? rec(s, 1) : last;
  s->zeno.pending_t = last->t;
  s->zeno.pending_err = last->t - prev->t;
  memcpy(s->zeno.pending_q, last->q, sizeof s->zeno.pending_q);
  memcpy(s->zeno.pending_qd, last->qd, sizeof s->zeno.pending_qd);
  s->zeno.pending_contacts =
      last->touched |
      floor_contacts(s,
                     (prev->touched | at_surface(s, SIM_ZENO_FLOOR_TOL_FACTOR * last->speed)) &
                         ~last->touched,
                     last->speed);
  s->zeno.pending_ratio = prev->speed > 0 ? last->speed / prev->speed : 0;
  if (tail) floor_tail(s, v);
  s->zeno.pending_period = 0;
  const double first = chain_floor ? s->zeno.chain_first_speed : s->zeno.seq_first_speed;
  s->zeno.pending_floor_tie = (last->speed / first) * (last->speed / first);
  s->zeno.pending_impacts = s->zeno.seq_impacts;
  s->run.zeno_pending = true;
  if (chain_floor) {
    s->zeno.pending_contacts |= s->zeno.chain_touched | s->zeno.seq_touched;
    s->zeno.pending_impacts += s->zeno.chain_impacts;
    s->zeno.pending_order = 2;
    s->zeno.chain_closing = true;
  }
}

bool sim_zeno_at_floor(const zeno_sim *s, double speed, double vscale) {
  return speed < SIM_ZENO_TOL_FACTOR * s->def.velocity_rtol * vscale;
}

bool sim_zeno_floor_approach(zeno_sim *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) return false;
  // The approach is the sequence's next impact in all but its resolution:
  // its last record (not counted as an impact), the completion's start. Its
  // velocities are those before the impact, at another phase than the
  // impacts' records: no geometric tail is fitted through it (what is left
  // is below the approach speed, at the floor).
  record_now(s, speed, touched);
  s->zeno.pending_order = 1;
  s->zeno.chain_closing = false;
  floor_completion(s, false, false);
  return true;
}

// Full model, at a sequence's first impact: a contact the last floor
// completion left open that lands before the cut chatter would have ended
// interrupted it, and the two contacts chatter together at the floor
// (property case 1521, Newton e = 0.66: contact 1, completed at the
// rounding of the positions after three impacts in a slide, cut a chatter
// of 3.7e-7 more; contact 2, left 6e-8 above its surface and falling,
// landed 6e-8 later at 15 times the last speed and re-excited it, and the
// chain repeated until the event limit). A landing after that time is a
// motion of its own (property case 7537: contact 2 back after 3.2e-2, a
// cut chatter of 3.4e-5 long over, in a swing that grows slowly to the
// time limit in both models).
static void note_interruption(zeno_sim *s, unsigned touched) {
  const bool interrupted = s->zeno.cut_contacts != 0 && (touched & ~s->zeno.cut_contacts) != 0 &&
                           s->run.t <= s->zeno.cut_end_t;
  s->zeno.chain_interrupted = interrupted && s->zeno.chain_len > 0 ? s->zeno.chain_interrupted + 1
                                                                   : 0;
  s->zeno.cut_contacts = 0;
}

void sim_zeno_record_impact(zeno_sim *s, double speed, unsigned touched) {
  if (s->zeno.seq_impacts == 0) {
    s->zeno.seq_first_speed = speed;
    s->zeno.seq_first_t = s->run.t;
    s->zeno.seq_first_signature = s->run.signature;
    s->zeno.seq_touched = 0;
    s->zeno.seq_lead_t = s->zeno.quiet_t;
    // A chain goes on while each sequence starts within a few times the
    // duration of the chain's last cycles (as many as its longest period,
    // or all since the event that led into its first sequence) after its
    // completion (series_chain_goes_on).
    if (s->zeno.chain_len > 0) {
      const double tz = s->records.chain[s->zeno.chain_len - 1].t;
      const int back = s->zeno.chain_len - 1 - SERIES_CHAIN_MAX_PERIOD;
      const double t_ref = back >= 0 ? s->records.chain[back].t : s->zeno.chain_lead_t;
      if (!series_chain_goes_on(s->run.t, tz, t_ref)) s->zeno.chain_len = 0;
    }
    note_interruption(s, touched);
  }
  s->zeno.seq_touched |= touched;
  s->zeno.seq_impacts++;
  record_now(s, speed, touched);
  s->run.signature = SERIES_SIGNATURE_SEED;
}

void sim_zeno_reset(zeno_sim *s) {
  s->zeno.ring_len = 0;
  s->zeno.seq_impacts = 0;
}

// Records the completion just made (the state after closing) in the chain,
// starting one if none is on (impact_series.c).
void sim_chain_record(zeno_sim *s) {
  series_chain_record(&s->zeno, s->records.chain, impacts_of(s), sim_is_full(s), s->run.t, s->run.q,
                      s->run.qd);
}

// Second order: the last K periods of p completions repeat the same steps
// with one ratio r < 1 of durations and of first impact speeds: the chain
// accumulates, and is completed at its limit (once its tail is negligible,
// as a sequence is), closing every contact of its period.
void sim_chain_detect(zeno_sim *s) {
  const rview v = chain_of(s);
  const double rtol = sim_is_full(s) ? s->def.full_ratio_rtol : s->def.ratio_rtol;
  int p;
  double r0;
  long per_period;
  if (!series_chain_converging(v, s->def.ratio_periods + 1, rtol, &p, &r0, &per_period)) return;
  extrapolate(s, v, p, r0);
  const bool holds = limit_keeps_slip_signs(s, v, p, s->zeno.chain_first_speed) &&
                     limit_keeps_others_open(s, v);
  if (holds && !limit_before_end(s)) sim_zeno_forward_periods(s, v, p, r0);
  if (holds && limit_before_end(s) &&
      tail_negligible(s, at(v, 0)->t, s->zeno.chain_first_t, s->zeno.chain_impacts, per_period)) {
    s->zeno.pending_impacts = s->zeno.chain_impacts;
    s->zeno.pending_order = 2;
    s->zeno.chain_closing = true;
    s->run.zeno_pending = true;
  }
}

bool sim_zeno_quiet(const zeno_sim *s, long impacts, double speed, double first_speed) {
  return sim_zeno_quiet_at(s, impacts, speed, first_speed, s->run.vscale);
}

bool sim_zeno_quiet_at(const zeno_sim *s, long impacts, double speed, double first_speed,
                       double vscale) {
  if (sim_is_full(s)) return false;
  // The period search needs K p + 1 impacts (p = 1 first).
  if (impacts >= s->def.ratio_periods + 2) return false;
  return !(impacts >= 2 &&
           (speed < SIM_ZENO_SPEED_FLOOR * first_speed || sim_zeno_at_floor(s, speed, vscale) ||
            impacts >= SIM_ZENO_MAX_IMPACTS));
}
