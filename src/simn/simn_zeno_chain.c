// Zeno completion in the N-contact engine, second order and the ZENO event
// (sim_zeno_close.c, sim_zeno.c's chain and sim_zeno_forward.c for N
// contacts): the event that closes a sequence or a chain at its limit, the
// chain of completions it records (completed sequences that follow each
// other with one ratio accumulate in turn: second-order Zeno, closed at the
// chain's limit with every contact of its period), and the ZOD's
// fast-forward over whole periods of a sequence or chain whose limit lies
// past t_end. The first-order detection is simn_zeno.c's.
#include <math.h>
#include <string.h>

#include "simn/simn_run.h"

/// A completion at a floor (or a chain, or in the full model) closes with
/// a velocity zero of this many times what is left of the vanished motion
/// (sim_zeno_close.c's SIM_ZENO_FLOOR_TOL_FACTOR).
#define SIMN_ZENO_FLOOR_TOL_FACTOR 10.0
/// Classify-and-enforce passes on the closed state (sim_zeno_close.c's).
#define SIMN_RECLASSIFY_PASSES 3

void simn_zeno_note_cut(simn *s) { series_note_cut(&s->zeno, simn_sequence(s), s->m.full); }

// Records the completion just made (the state after closing) in the chain,
// starting one if none is on (impact_series.c).
static void chain_record(simn *s) {
  series_chain_record(&s->zeno, s->records.chain, simn_sequence(s), s->m.full, s->t, s->q, s->qd);
}

// Second order: the last K periods of p completions repeat the same steps
// with one ratio r < 1 of durations and of first impact speeds: the chain
// accumulates, and is completed at its limit once its tail is negligible.
static void chain_detect(simn *s) {
  const rview v = simn_chain(s);
  const double rtol = s->m.full ? s->def.full_ratio_rtol : SERIES_RATIO_RTOL;
  int p;
  double r0;
  long per_period;
  if (!series_chain_converging(v, SERIES_RATIO_PERIODS + 1, rtol, &p, &r0, &per_period)) return;
  simn_zeno_extrapolate(s, v, p, r0);
  const bool holds = simn_zeno_limit_holds(s, v, p, s->zeno.chain_first_speed);
  const bool before_end = s->zeno.pending_t <= s->def.t_end;
  if (holds && !before_end) simn_zeno_forward_periods(s, v, p, r0);
  if (holds && before_end &&
      simn_zeno_tail_negligible(s, at(v, 0)->t, s->zeno.chain_first_t, s->zeno.chain_impacts,
                                per_period)) {
    s->zeno.pending_impacts = s->zeno.chain_impacts;
    s->zeno.pending_order = 2;
    s->zeno.chain_closing = true;
    s->zeno_pending = true;
  }
}

// The velocity zero of the closed state: on the scale of the sequence (a
// chain's: its first sequence's), and where the completion stops short of
// an exact limit (a floor, a chain, the full model) at least
// SIMN_ZENO_FLOOR_TOL_FACTOR times what is left of the vanished motion.
static zero_tol closing_tol(const simn *s, double vscale, const bool *touching) {
  const bool chain = s->zeno.chain_closing;
  const double first = chain ? s->zeno.chain_first_speed : s->zeno.seq_first_speed;
  zero_tol tol = simn_make_tol(s, fmax(fmax(simn_contact_speed(s, s->qd), vscale), first));
  if (!(s->m.full || s->zeno.pending_period == 0 || chain)) return tol;
  double last = 0;
  if (s->zeno.pending_period == 0 && s->zeno.ring_len > 0)
    last = s->records.ring[s->zeno.ring_len - 1].speed;
  else if (s->m.full) last = s->zeno.pending_rate_err;
  if (chain) {  // its periods converge to their ratio only to ratio_rtol
    double c[MAXV], cd[MAXV];
    simn_contacts(&s->m, s->q, s->qd, c, cd);
    for (int i = 0; i < s->m.n; i++)
      if (touching[i]) last = fmax(last, fabs(cd[2 * i]));
  }
  tol.v = fmax(tol.v, SIMN_ZENO_FLOOR_TOL_FACTOR * last);
  return tol;
}

zeno_status simn_zeno_emit(simn *s, simn_event *ev, zeno_error *e) {
  s->zeno_pending = false;
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
  ev->zeno_order = s->zeno.pending_order;
  const bool closing_chain = s->zeno.chain_closing;
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
  zero_tol tol = closing_tol(s, vscale, touching);
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
  if (closing_chain) {
    s->zeno.chain_len = 0;
    s->zeno.chain_closing = false;
  } else {
    chain_record(s);
  }
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
  // Completions that follow each other with one ratio accumulate in turn.
  if (!closing_chain && !s->end_pending) chain_detect(s);
  simn_event_finish(s, ev);
  s->signature = SERIES_SIGNATURE_SEED;
  return ZENO_OK;
}

/* ---- the ZOD's fast-forward (sim_zeno_forward.c) ------------------------- */

// Whole periods before t_end skipped (series_forward): the increments on
// the current state (the newest record's, with the mode chosen after it),
// so exact zeros stay zero.
void simn_zeno_forward_periods(simn *s, rview v, int p, double r) {
  if (s->m.full) return;  // its periods are only asymptotically geometric
  const impact_record *a = at(v, 0);
  double t, q[3], qd[3];
  if (!series_forward(v, p, r, s->t, s->def.t_end, &t, q, qd)) return;
  s->zeno.forward_t = t;
  for (int k = 0; k < 3; k++) {
    s->zeno.forward_q[k] = s->q[k] + (q[k] - a->q[k]);
    s->zeno.forward_qd[k] = s->qd[k] + (qd[k] - a->qd[k]);
  }
  s->zeno.forward_pending = true;
}

void simn_zeno_forward(simn *s) {
  s->zeno.forward_pending = false;
  // The speed scale shrinks with the motion.
  const double before = simn_contact_speed(s, s->qd);
  const double after = simn_contact_speed(s, s->zeno.forward_qd);
  if (before > 0 && after > 0) s->vscale *= after / before;
  s->t = s->zeno.forward_t;
  memcpy(s->q, s->zeno.forward_q, sizeof s->q);
  memcpy(s->qd, s->zeno.forward_qd, sizeof s->qd);
}
