// Tie margins of the hybrid loop's decisions (zeno_event.tie_margin): how
// near an event came to going another way. Shared by the event loop
// (sim.c) and the fast cycle (sim_cycle.c), which pass the contact
// coordinates they hold.
#include <math.h>

#include "sim/sim_internal.h"

// The squared approach speed over the segment's squared speed scale (zero
// for a tangent touch, small for a graze). Squared, so it is a length ratio
// like the near-miss margin: a parabola reaching depth v^2 / 2a below the
// surface turns into a miss when the gap shifts by that much.
void sim_note_grazing(zeno_sim *s, const bool gap_hit[ZENO_PAIR_CONTACTS], const double cd[4],
                      double vscale) {
  for (int i = 0; i < s->km.n; i++) {
    const double r = cd[2 * i] / vscale;
    if (gap_hit[i]) sim_note_tie(s, r * r);
  }
}

// A gap rate or slip rate of a touching contact classified nonzero but
// small against the segment's speed scale (separating or slipping by a
// hair; a separation squared, the height of the bounce it starts, as for a
// graze).
void sim_note_small_speeds(zeno_sim *s, const mode_class *cls,
                           const bool gap_hit[ZENO_PAIR_CONTACTS], const double cd[4], double tol_v,
                           double vscale) {
  for (int i = 0; i < s->km.n; i++) {
    const bool touching = cls->gap[i] != MODE_GAP_OPEN || gap_hit[i];
    if (!touching) continue;
    const double zd = fabs(cd[2 * i]), xd = fabs(cd[2 * i + 1]);
    if (cls->gap[i] == MODE_GAP_OPEN && zd > tol_v) sim_note_tie(s, (zd / vscale) * (zd / vscale));
    if (cls->gap[i] == MODE_GAP_CLOSED && xd > tol_v) sim_note_tie(s, xd / vscale);
  }
}

// Free contacts that came down and went back up within the first tau of
// the segment without touching: the smallest gap over the starting gap (a
// near miss).
void sim_note_near_misses(zeno_sim *s, const double c[4], const double cd[4], const double cdd[4],
                          double tau) {
  for (int i = 0; i < s->km.n; i++) {
    if (s->run.sol.mode.letter[i] != ZENO_LETTER_F) continue;
    const double z = c[2 * i], zd = cd[2 * i], zdd = cdd[2 * i];
    if (!(z > 0 && zd < 0 && zdd > 0) || -zd / zdd >= tau) continue;
    const double lowest = z - zd * zd / (2 * zdd);
    if (lowest > 0) sim_note_tie(s, lowest / z);
  }
}

// A ZOD segment ending at crossing cr[0]: the next crossing (simultaneous
// ones included) over the segment's duration, and the near misses before it.
void sim_note_crossing_ties(zeno_sim *s, const flow_crossing *cr, int n, const double c[4],
                            const double cd[4], const double cdd[4]) {
  const double tau = cr[0].tau;
  // With both contacts closed the body keeps one degree of freedom: both
  // slip rates vanish together, a structural coincidence, not a tie.
  const bool both_closed = s->km.n == 2 && s->run.sol.mode.letter[0] != ZENO_LETTER_F &&
                           s->run.sol.mode.letter[1] != ZENO_LETTER_F;
  for (int k = 1; k < n && tau > 0; k++) {
    if (both_closed && cr[0].guard == ZENO_GUARD_SLIP_VELOCITY &&
        cr[k].guard == ZENO_GUARD_SLIP_VELOCITY)
      continue;
    sim_note_tie(s, (cr[k].tau - tau) / tau);
    break;
  }
  sim_note_near_misses(s, c, cd, cdd, tau);
}
