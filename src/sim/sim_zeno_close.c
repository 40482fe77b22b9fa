// Closing a Zeno sequence or chain at its accumulation point (the ZENO
// event): the linear stand-in segment to the limit, the impacting contacts
// closed, the slips classified on the closed state, the chain recorded or
// closed, and the next mode chosen. Detection is sim_zeno.c's.
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

/// Classify-and-enforce passes on the closed state: each enforced class
/// fixes more rates, so the classes settle within one pass per slip rate
/// (two contacts) and one more to confirm.
#define SIM_RECLASSIFY_PASSES 3

zeno_status sim_zeno_emit(zeno_sim *s, zeno_event *ev) {
  s->run.zeno_pending = false;
  segment g = {.t0 = s->run.t, .t1 = s->zeno.pending_t, .mode = s->run.sol.mode, .zeno_tail = true};
  memcpy(g.q0, s->run.q, sizeof g.q0);
  memcpy(g.qd0, s->run.qd, sizeof g.qd0);
  for (int k = 0; k < 3; k++)
    g.qdd[k] = s->zeno.pending_t > s->run.t
                   ? (s->zeno.pending_q[k] - s->run.q[k]) / (s->zeno.pending_t - s->run.t)
                   : 0;
  if (sim_hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  sim_event_begin(s, ev, ZENO_EVENT_ZENO, ZENO_GUARD_ZENO, -1);
  const double vscale = s->run.vscale;
  s->run.t = s->zeno.pending_t;
  memcpy(s->run.q, s->zeno.pending_q, sizeof s->run.q);
  memcpy(s->run.qd, s->zeno.pending_qd, sizeof s->run.qd);
  sim_event_state(s, &ev->before);
  ev->t = s->run.t;
  ev->zeno_impacts = s->zeno.pending_impacts;
  ev->zeno_ratio = s->zeno.pending_ratio;
  ev->zeno_error = s->zeno.pending_err;
  ev->zeno_period = s->zeno.pending_period;
  ev->zeno_order = s->zeno.pending_order;
  const bool closing_chain = s->zeno.chain_closing;
  if (!s->run.has_zeno) {
    s->run.has_zeno = true;
    s->run.first_zeno_time = s->zeno.pending_t;
    s->run.first_zeno_impacts = s->zeno.pending_impacts;
  }
  // The impacting contacts close: normal gaps and rates vanish at the limit.
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = (s->zeno.pending_contacts >> i) & 1u;
  // A contact outside the sequence may reach the limit a rounding below its
  // surface (SIM_ZENO_OTHER_GAP_RTOL accepts that much): it touches there,
  // and impacts next if it approaches.
  {
    double c[4], cd[4];
    sim_contacts(s, s->run.q, s->run.qd, c, cd);
    bool below[2] = {false, false};
    for (int i = 0; i < s->km.n; i++) below[i] = !touching[i] && c[2 * i] < 0;
    if (below[0] || below[1]) sim_zero_gaps(s, below);
  }
  // Zero is judged on the scale of the sequence (its first impact speed):
  // what is left at the limit is either that large (a tangential slip) or
  // rounding of the vanished normal motion.
  // A chain's scale is its first sequence's.
  const double first = closing_chain ? s->zeno.chain_first_speed : s->zeno.seq_first_speed;
  tolerances tol = sim_make_tol(s, fmax(fmax(sim_contact_speed(s, s->run.qd), vscale), first));
  if (sim_is_full(s) || s->zeno.pending_period == 0 || closing_chain) {
    // A sequence completed at a floor stops short of its limit: what is
    // left of the vanished motion is up to the last impact speed (slip
    // rates a few times the normal ones), not rounding. The full model
    // extrapolates its limit from periods that are not exactly geometric:
    // its velocities there are known to the difference between the limits
    // predicted from the last two periods. (Ten times the last impact
    // speed, used before, zeroed a persisting slip 8 times that speed in
    // Example 2 with Newton e = 0.5, and the run went its own way.) A
    // chain leaves the normal rates of its contacts at its limit (its
    // periods converge to their ratio only to ratio_rtol).
    double last = 0;
    if (s->zeno.pending_period == 0 && s->zeno.ring_len > 0)
      last = s->records.ring[s->zeno.ring_len - 1].speed;
    else if (sim_is_full(s)) last = s->zeno.pending_rate_err;
    if (closing_chain) {
      double c[4], cd[4];
      sim_contacts(s, s->run.q, s->run.qd, c, cd);
      for (int i = 0; i < s->km.n; i++)
        if (touching[i]) last = fmax(last, fabs(cd[2 * i]));
    }
    tol.v = fmax(tol.v, SIM_ZENO_FLOOR_TOL_FACTOR * last);
  }
  // A sequence ended at a precision floor dropped bounces below resolution:
  // a decision as close as their height.
  if (s->zeno.pending_period == 0) sim_note_tie(s, s->zeno.pending_floor_tie);
  mode_class cls;
  sim_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->km.n; i++)
    if (touching[i]) cls.gap[i] = MODE_GAP_CLOSED;
  sim_enforce(s, &cls);
  // Closing the normal motion changes the slip rates, which the body
  // couples to it: the slips are classified again on the closed state. (A
  // chain closed at the rounding floor with both contacts left every rate
  // at 1e-20 but kept the slips it had read before closing, 1e-6: the body
  // was set slipping both ways from rest, in a mode Table 1 admitted only
  // for those slips, and slid off.) Until the classes hold: the full
  // model's projection onto its curved constraints leaves a slip of the
  // order of the rates it removed (1e-7, twice the zero), and the slip
  // read from it, enforced, locked the body with that contact still
  // called slipping: the run sat in NS at rest to its time limit where the
  // ZOD rested.
  for (int pass = 0; pass < SIM_RECLASSIFY_PASSES; pass++) {
    mode_class closed;
    sim_classify(s, touching, tol.v, &closed);
    bool reclassified = false;
    for (int i = 0; i < s->km.n; i++)
      if (touching[i] && closed.slip[i] != cls.slip[i]) {
        cls.slip[i] = closed.slip[i];
        reclassified = true;
      }
    if (!reclassified) break;
    sim_enforce(s, &cls);
  }
  sim_refresh_dyn(s);
  s->run.vscale = fmax(sim_contact_speed(s, s->run.qd), tol.v);
  if (closing_chain) {
    s->zeno.chain_len = 0;
    s->zeno.chain_closing = false;
  } else {
    sim_chain_record(s);
  }
  sim_zeno_reset(s);
  sim_word_append(s, "Z");
  const zeno_mode before = s->run.sol.mode;
  sim_choose_next(s, &cls, &tol);
  if (!s->run.end_pending || s->run.pending_outcome == ZENO_OUTCOME_REST) sim_mode_token(s);
  // Completions that follow each other with one ratio accumulate in turn.
  if (!closing_chain && !s->run.end_pending) sim_chain_detect(s);
  ev->mode_before = before;
  sim_event_finish(s, ev);
  s->run.signature = SERIES_SIGNATURE_SEED;
  return ZENO_OK;
}
