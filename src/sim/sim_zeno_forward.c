// The ZOD's fast-forward: a sequence (or chain) of exactly geometric
// periods whose limit lies beyond t_end skips the whole periods that end
// before it (sim_zeno_forward_periods, called by the detections of
// sim_zeno.c), and the loop applies the skip (sim_zeno_forward).
#include <math.h>
#include <string.h>

#include "sim/sim_zeno_ratio.h"

// ZOD: the limit of the sequence (or chain) of period p and ratio r lies
// beyond t_end; its periods repeat exactly, each r times the last, so the
// state n periods on is the geometric sum of n of them. Instead of
// simulating them one by one (a chain of ratio 0.99996, period 5, took
// 100,000 events to reach 0.9 t_end and ended `event-limit`), the run
// skips the whole periods that end before t_end: a fast-forward pending
// for the loop, which goes on from there to t_end (the skipped impacts,
// like a Zeno tail's, are not counted as simulated).
void sim_zeno_forward_periods(zeno_sim *s, rview v, int p, double r) {
  if (sim_is_full(s)) return;  // its periods are only asymptotically geometric
  const impact_record *a = at(v, 0);
  double t, q[3], qd[3];  // whole periods before t_end (series_forward)
  if (!series_forward(v, p, r, s->run.t, s->scene.t_end, &t, q, qd)) return;
  // The increments on the current state (the newest record's, with the
  // mode chosen after it): exact zeros stay zero.
  s->zeno.forward_t = t;
  for (int k = 0; k < 3; k++) {
    s->zeno.forward_q[k] = s->run.q[k] + (q[k] - a->q[k]);
    s->zeno.forward_qd[k] = s->run.qd[k] + (qd[k] - a->qd[k]);
  }
  s->zeno.forward_pending = true;
}

zeno_status sim_zeno_forward(zeno_sim *s) {
  s->zeno.forward_pending = false;
  segment g = {.t0 = s->run.t, .t1 = s->zeno.forward_t, .mode = s->run.sol.mode, .zeno_tail = true};
  memcpy(g.q0, s->run.q, sizeof g.q0);
  memcpy(g.qd0, s->run.qd, sizeof g.qd0);
  for (int k = 0; k < 3; k++)
    g.qdd[k] = (s->zeno.forward_q[k] - s->run.q[k]) / (s->zeno.forward_t - s->run.t);
  memcpy(g.force, s->run.sol.force, sizeof g.force);
  if (sim_hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  // The speed scale shrinks with the motion.
  const double before = sim_contact_speed(s, s->run.qd);
  const double after = sim_contact_speed(s, s->zeno.forward_qd);
  if (before > 0 && after > 0) s->run.vscale *= after / before;
  s->run.t = s->zeno.forward_t;
  memcpy(s->run.q, s->zeno.forward_q, sizeof s->run.q);
  memcpy(s->run.qd, s->zeno.forward_qd, sizeof s->run.qd);
  return ZENO_OK;
}
