// Closing a Zeno sequence or chain at its accumulation point (the ZENO
// event): the linear stand-in segment to the limit, the impacting contacts
// closed, the slips classified on the closed state, the chain recorded or
// closed, and the next mode chosen. Detection is sim_zeno.c's.
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

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
  sim_event_state(s, &ev->before);
  ev->t = s->t;
  ev->zeno_impacts = s->zeno_seq_impacts;
  ev->zeno_ratio = s->zeno_ratio;
  ev->zeno_error = s->zeno_err;
  ev->zeno_period = s->zeno_period;
  ev->zeno_order = s->zeno_order;
  const bool closing_chain = s->chain_closing;
  if (!s->has_zeno) {
    s->has_zeno = true;
    s->first_zeno_time = s->zeno_t;
    s->first_zeno_impacts = s->zeno_seq_impacts;
  }
  // The impacting contacts close: normal gaps and rates vanish at the limit.
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = (s->zeno_contacts >> i) & 1u;
  // A contact outside the sequence may reach the limit a rounding below its
  // surface (SIM_ZENO_OTHER_GAP_RTOL accepts that much): it touches there,
  // and impacts next if it approaches.
  {
    double c[4], cd[4];
    sim_contacts(s, s->q, s->qd, c, cd);
    bool below[2] = {false, false};
    for (int i = 0; i < s->km.n; i++) below[i] = !touching[i] && c[2 * i] < 0;
    if (below[0] || below[1]) sim_zero_gaps(s, below);
  }
  // Zero is judged on the scale of the sequence (its first impact speed):
  // what is left at the limit is either that large (a tangential slip) or
  // rounding of the vanished normal motion.
  // A chain's scale is its first sequence's.
  const double first = closing_chain ? s->chain_first_speed : s->seq_first_speed;
  tolerances tol = sim_make_tol(s, fmax(fmax(sim_contact_speed(s, s->qd), vscale), first));
  if (sim_is_full(s) || s->zeno_period == 0 || closing_chain) {
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
    if (s->zeno_period == 0 && s->ring_len > 0) last = s->ring[s->ring_len - 1].speed;
    else if (sim_is_full(s)) last = s->zeno_rate_err;
    if (closing_chain) {
      double c[4], cd[4];
      sim_contacts(s, s->q, s->qd, c, cd);
      for (int i = 0; i < s->km.n; i++)
        if (touching[i]) last = fmax(last, fabs(cd[2 * i]));
    }
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
  // Closing the normal motion changes the slip rates, which the body
  // couples to it: the slips are classified again on the closed state. (A
  // chain closed at the rounding floor with both contacts left every rate
  // at 1e-20 but kept the slips it had read before closing, 1e-6: the body
  // was set slipping both ways from rest, in a mode Table 1 admitted only
  // for those slips, and slid off.)
  zm_class closed;
  sim_classify(s, touching, tol.v, &closed);
  bool reclassified = false;
  for (int i = 0; i < s->km.n; i++)
    if (touching[i] && closed.slip[i] != cls.slip[i]) {
      cls.slip[i] = closed.slip[i];
      reclassified = true;
    }
  if (reclassified) sim_enforce(s, &cls);
  sim_refresh_dyn(s);
  s->vscale = fmax(sim_contact_speed(s, s->qd), tol.v);
  if (closing_chain) {
    s->chain_len = 0;
    s->chain_closing = false;
  } else {
    sim_chain_record(s);
  }
  sim_zeno_reset(s);
  sim_word_append(s, "Z");
  const zeno_mode before = s->sol.mode;
  sim_choose_next(s, &cls, &tol);
  if (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) sim_mode_token(s);
  // Completions that follow each other with one ratio accumulate in turn.
  if (!closing_chain && !s->end_pending) sim_chain_detect(s);
  ev->mode_before = before;
  sim_event_finish(s, ev);
  s->signature = SIM_SIGNATURE_SEED;
  return ZENO_OK;
}
