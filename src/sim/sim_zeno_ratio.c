// Impact records' ratios, steps and the reverse chatter they reveal
// (sim_zeno_ratio.h); the detections that use them are sim_zeno.c's.
#include "sim/sim_zeno_ratio.h"

#include <float.h>
#include <math.h>

/// Full model: a sequence is at its precision floor, whatever its first
/// speed, once a bounce's height v^2 / a is below this many ulps of the
/// positions (which carry the slip travelled and the offset of the start):
/// its located guards are then off by up to 1e-6 of the bounce (measured
/// 4e-7 at 1e4 ulps), and the next bounces only worse. Higher values would end real, merely small, bounces (a
/// bounce of 1e-4 of the first speed is 1e8 ulps at eps = 1e-3).
#define SIM_FULL_BOUNCE_ULPS 1e6

// Reverse chatter is declared once the post-impact contact velocity
// direction at the phase point repeats from period to period (a fixed
// point of R).
static bool direction_settled(const zeno_sim *s, int p, double rtol) {
  double c[4], va[4], vb[4];
  sim_contacts(s, rec(s, 0)->q, rec(s, 0)->qd, c, va);
  sim_contacts(s, rec(s, p)->q, rec(s, p)->qd, c, vb);
  return series_same_direction(va, vb, 2 * s->km.n, rtol);
}

// Full model: the bounce after this impact (its height from the fastest
// separating gap rate of the contacts it touched) is lost in the rounding
// of the positions (SIM_FULL_BOUNCE_ULPS). The other contact's rate is not
// this bounce's: a contact chattering while the other flies up was never
// at rounding, and bounced on at a constant 4e-8 of the first speed (the
// gap's rounding returned its energy) until the run ended `diverging`.
bool sim_at_rounding(const zeno_sim *s, const impact_record *r) {
  double c[4], cd[4], size = 0, v = 0;
  sim_contacts(s, r->q, r->qd, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++) size = fmax(size, fabs(c[a]));
  for (int i = 0; i < s->km.n; i++)
    if ((r->touched >> i) & 1u) v = fmax(v, cd[2 * i]);
  // No contact separates (e.g. II into a two-contact slip): no bounce.
  if (!(v > s->def.velocity_rtol * r->speed)) return false;
  const double height = v * v / s->km.accel_scale;
  return height < SIM_FULL_BOUNCE_ULPS * DBL_EPSILON * size;
}

// Ends the run `diverging`: reverse chatter of ratio r0 per period p.
static void end_diverging(zeno_sim *s, double r0, int p) {
  s->run.end_pending = true;
  s->run.pending_outcome = ZENO_OUTCOME_DIVERGING;
  s->zeno.div_ratio = r0;
  s->zeno.div_period = p;
}

bool sim_reverse_chatter(zeno_sim *s, rview v, int p, int K, double rtol, double margin,
                         double dir_rtol) {
  const double r0 = series_reverse_ratio(v, p, K, rtol, margin);
  if (!(r0 > 0) || !direction_settled(s, p, dir_rtol)) return false;
  end_diverging(s, r0, p);
  return true;
}

// Ends the run `diverging` (and returns true) for such a chatter: the last
// K periods of length p repeat the same steps with one ratio above
// 1 + diverge_rtol to that tolerance, a settled direction, and speeds
// grown past SERIES_DIVERGE_GROWTH times the first.
bool sim_grown_reverse_chatter(zeno_sim *s, rview v, int p, int K) {
  const double rtol = s->def.diverge_rtol;
  return series_grown(&s->zeno, v) && sim_reverse_chatter(s, v, p, K, rtol, rtol, rtol);
}

/// Full model: reverse chatter is diverging when its ratio has settled to
/// full_ratio_rtol and exceeds 1 by this many times that spread: the
/// bounces then grow by a constant factor each period as the ZOD's do, where the ZOD, exact,
/// calls the same chatter diverging (a ratio of 1.0057 a period: the full
/// model bounced on to its time limit, 500 impacts, four times larger).
#define SIM_FULL_SLOW_DIVERGE_SPREADS 10.0

// Ends the run `diverging` (and returns true) for such a full-model chatter
// (its direction settled).
bool sim_settled_reverse_chatter(zeno_sim *s, rview v, int p, int K) {
  const double rtol = s->def.full_ratio_rtol;
  return sim_reverse_chatter(s, v, p, K, rtol, SIM_FULL_SLOW_DIVERGE_SPREADS * rtol,
                             s->def.diverge_rtol);
}

// Ends the run `diverging` (and returns true) for reverse chatter whose
// ratios do not settle while it grows: the last K periods of length p
// repeat the same steps, each longer and faster than the one before by
// more than diverge_rtol, and the impact speed has grown past
// SERIES_DIVERGE_GROWTH times the sequence's first. The full model follows
// the ZOD up to relative corrections of order eps times the perturbation
// (24); a chatter that keeps growing carries its own corrections up with
// it, so its ratios drift from period to period (1.31, 1.36, 1.32, 1.37 in
// property case 187, where the ZOD's, exact, are one ratio of 1.37 and it
// says `diverging`) and never settle to diverge_rtol: it bounced on,
// growing, to its time limit. Under the ZOD a growing chatter whose steps
// change now and then (FI IF, then FI FI IF) restarts its ratios at every
// change, and grew to its time limit (and escaped beyond it) where the
// full model, reading one stretch of K periods, said `diverging` (property
// case 5273). The growth itself, sustained over K periods of the same
// steps and tenfold since the sequence began, is the departure; the
// growth keeps out a direction still turning at the bottom of a decay.
bool sim_outgrown_reverse_chatter(zeno_sim *s, rview v, int p, int K) {
  const double r = series_outgrown_ratio(&s->zeno, v, p, K, s->def.diverge_rtol);
  if (!(r > 0)) return false;
  end_diverging(s, r, p);
  return true;
}
