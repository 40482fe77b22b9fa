// The hybrid loop (paper Secs. 3-5, Fig. 3): the next event of a segment,
// impact resolution, mode selection, the mode word and the outcomes. Zeno
// completion is sim_zeno.c; the contact state sim_contact.c.
#include "zeno/sim.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "dynamics/flow_zod.h"
#include "dynamics/impact.h"
#include "sim/sim_internal.h"

zeno_status sim_word_append_n(zeno_sim *s, const char *token, size_t n) {
  if (s->run.word_len + n + 2 > s->word_cap) {
    size_t cap = s->word_cap ? 2 * s->word_cap : 256;
    while (cap < s->run.word_len + n + 2) cap *= 2;
    char *w = realloc(s->word, cap);
    if (w == NULL) {
      s->word_failed = true;  // callers go on; zeno_sim_next_event reports it
      return ZENO_ERR_NOMEM;
    }
    s->word = w;
    s->word_cap = cap;
  }
  // Tokens are a few letters: copied and hashed by plain loops.
  char *w = s->word + s->run.word_len;
  if (s->run.word_len) *w++ = ' ';
  for (size_t k = 0; k < n; k++) w[k] = token[k];
  w[n] = '\0';
  s->run.word_len = (size_t)(w - s->word) + n;
  // FNV-1a over the tokens since the last impact, each followed by a
  // blank: the signature of a step.
  s->run.signature = series_signature_add(s->run.signature, token, (int)n);
  return ZENO_OK;
}

zeno_status sim_word_append2(zeno_sim *s, char a, char b) {
  if (s->run.word_len + 4 > s->word_cap) {  // the word grows: the general path
    const char token[2] = {a, b};
    return sim_word_append_n(s, token, 2);
  }
  char *w = s->word + s->run.word_len;
  if (s->run.word_len) *w++ = ' ';
  w[0] = a;
  w[1] = b;
  w[2] = '\0';
  s->run.word_len = (size_t)(w - s->word) + 2;
  const uint64_t h = ((s->run.signature ^ (unsigned char)a) * SERIES_FNV_PRIME ^ (unsigned char)b) *
                     SERIES_FNV_PRIME;
  s->run.signature = (h ^ (unsigned char)' ') * SERIES_FNV_PRIME;
  return ZENO_OK;
}

zeno_status sim_word_append(zeno_sim *s, const char *token) {
  return sim_word_append_n(s, token, strlen(token));
}

zeno_status sim_hist_push(zeno_sim *s, const segment *g) {
  if (s->run.hist_len == s->hist_cap) {
    size_t cap = s->hist_cap ? 2 * s->hist_cap : 64;
    segment *h = realloc(s->hist, cap * sizeof *h);
    if (h == NULL) return ZENO_ERR_NOMEM;
    s->hist = h;
    s->hist_cap = cap;
  }
  s->hist[s->run.hist_len++] = *g;
  return ZENO_OK;
}

static zeno_status handle_crossing(zeno_sim *s, zeno_event *ev, zeno_guard guard, int contact,
                                   const sim_hits *hits, double vscale);
static void project_gaps(zeno_sim *s, const mode_class *cls);
static void event_residual(const zeno_sim *s, zeno_event *ev, const flow_crossing *cr,
                           double vscale);

/* ---------- events ---------- */

void sim_event_begin(zeno_sim *s, zeno_event *ev, zeno_event_kind kind, zeno_guard guard,
                     int contact) {
  memset(ev, 0, sizeof *ev);
  ev->index = s->run.event_count;
  ev->kind = kind;
  ev->guard = guard;
  ev->contact = contact;
  ev->t = s->run.t;
  ev->mode_before = s->run.sol.mode;
  sim_event_state(s, &ev->before);
}

// The tie margin noted for this event goes into it; the next starts afresh.
static void event_take_tie(zeno_sim *s, zeno_event *ev) {
  ev->tie_margin = s->run.tie;
  ev->near_tie = s->run.tie <= s->def.tie_rtol;
  s->run.tie = SIM_TIE_NONE;
}

/// An impact whose kinetic energy grows by more than this fraction of the
/// kinetic energy before it gained energy (below: rounding of the energies,
/// a few ulps of terms of that size).
#define SIM_ENERGY_GAIN_RTOL 1e-9

// Kinetic energy of the ZOD rates qdp (under the ZOD).
static double zod_kinetic(const zeno_sim *s, const double qdp[3]) {
  double v[3];
  kinematics_zod_to_gen(&s->km, qdp, v);
  double kinetic = 0;
  for (int k = 0; k < 3; k++) kinetic += 0.5 * v[k] * v[k] * s->km.mass_diag[k];
  return kinetic;
}

// Kinetic energy of the rates of an event's state record: generalised
// rates (qdot) in the full model; under the ZOD the record may be lean
// (sim_set_lean_events), so the ZOD rates, which every record carries.
static double record_kinetic(const zeno_sim *s, const zeno_state *st) {
  if (!sim_is_full(s)) return zod_kinetic(s, st->zod_rate);
  double kinetic = 0;
  for (int k = 0; k < 3; k++) kinetic += 0.5 * st->qdot[k] * st->qdot[k] / s->km.inv_mass[k];
  return kinetic;
}

double sim_note_energy_gain(zeno_sim *s, double before, double after) {
  const double gain = after - before;
  if (!(gain > SIM_ENERGY_GAIN_RTOL * before)) return 0;
  s->run.energy_gains++;
  s->run.energy_gain_max = fmax(s->run.energy_gain_max, gain / before);
  return gain;
}

void sim_event_finish(zeno_sim *s, zeno_event *ev) {
  event_take_tie(s, ev);
  ev->mode_after = s->run.sol.mode;
  sim_event_state(s, &ev->after);
  if (ev->kind == ZENO_EVENT_IMPACT)
    ev->energy_gain = sim_note_energy_gain(s, record_kinetic(s, &ev->before),
                                           record_kinetic(s, &ev->after));
  if (ev->kind != ZENO_EVENT_IMPACT) s->zeno.quiet_t = ev->t;
  s->run.event_count++;
  if (!s->run.end_pending && s->run.event_count >= s->scene.max_events) {
    s->run.end_pending = true;
    s->run.pending_outcome = ZENO_OUTCOME_EVENT_LIMIT;
  }
}

void sim_mode_token(zeno_sim *s) {
  char name[ZENO_MODE_NAME_SIZE];
  sim_word_append(s, zeno_mode_name(s->run.sol.mode, s->km.n, name));
}

static zeno_status emit_start(zeno_sim *s, zeno_event *ev) {
  s->run.started = true;
  s->run.vscale = fmax(sim_contact_speed(s, s->run.qd), 0);
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  if (s->run.vscale == 0) {
    // Starting at rest: the velocity scale is what the load makes of the gaps.
    double zmax = 0;
    for (int a = 0; a < 2 * s->km.n; a++) zmax = fmax(zmax, fabs(c[a]));
    s->run.vscale = sqrt(s->km.accel_scale * (zmax > 0 ? zmax : s->km.length_scale * s->len_scale));
  }
  const tolerances tol = sim_make_tol(s, s->run.vscale);
  bool touching[2] = {false, false};
  const double gap_tol = sim_start_gap_tol(s);
  for (int i = 0; i < s->km.n; i++) touching[i] = fabs(c[2 * i]) <= gap_tol;
  mode_class cls;
  sim_classify(s, touching, tol.v, &cls);
  memset(&s->run.sol, 0, sizeof s->run.sol);
  for (int i = 0; i < s->km.n; i++)
    if (cls.gap[i] == MODE_GAP_IMPACTING) s->run.start_impact = true;
  if (s->run.start_impact) {
    // Starting on an impact (e.g. on the Poincaré section): the start mode
    // names the sustained contacts by their slip; the impact comes next.
    for (int i = 0; i < s->km.n; i++) {
      static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
      s->run.sol.mode.letter[i] = cls.gap[i] == MODE_GAP_CLOSED ? by_slip[cls.slip[i]]
                                                                : ZENO_LETTER_F;
    }
    project_gaps(s, &cls);
    sim_event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    sim_mode_token(s);
  } else {
    sim_enforce(s, &cls);
    sim_refresh_dyn(s);
    sim_event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    sim_choose_next(s, &cls, &tol);
    if (!s->run.end_pending || s->run.pending_outcome == ZENO_OUTCOME_REST) sim_mode_token(s);
  }
  // A start beyond the escape radius has escaped already.
  const double radius = s->scene.escape_radius * s->len_scale;
  for (int k = 0; k < 2 * s->km.n; k++)
    if (fabs(c[k]) >= radius) {
      s->run.start_impact = false;
      s->run.end_pending = true;
      s->run.pending_outcome = ZENO_OUTCOME_ESCAPED;
      s->run.pending_guard = ZENO_GUARD_ESCAPE;
    }
  sim_event_finish(s, ev);
  ev->before = ev->after;
  ev->mode_before = ev->mode_after;
  return ZENO_OK;
}

static zeno_status emit_start_impact(zeno_sim *s, zeno_event *ev) {
  s->run.start_impact = false;
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  sim_hits hits = {0};
  int first = -1;
  const double gap_tol = sim_start_gap_tol(s);
  for (int i = 0; i < s->km.n; i++) {
    hits.gap[i] = s->run.sol.mode.letter[i] == ZENO_LETTER_F && fabs(c[2 * i]) <= gap_tol &&
                  cd[2 * i] < 0;
    if (hits.gap[i] && first < 0) first = i;
  }
  return handle_crossing(s, ev, ZENO_GUARD_GAP, first, &hits, s->run.vscale);
}

static zeno_status emit_end(zeno_sim *s, zeno_event *ev) {
  sim_event_begin(s, ev, ZENO_EVENT_END, s->run.pending_guard, -1);
  ev->outcome = s->run.pending_outcome;
  ev->mode_after = s->run.sol.mode;
  ev->after = ev->before;
  if (s->run.pending_outcome == ZENO_OUTCOME_AMBIGUOUS) {
    ev->consistent_count = s->run.consistent_count;
    memcpy(ev->consistent, s->run.consistent, sizeof ev->consistent);
  }
  if (s->run.pending_outcome == ZENO_OUTCOME_INCONSISTENT) {
    memcpy(ev->refusal, s->run.refusals.refusal, sizeof ev->refusal);
    memcpy(ev->refusal_contact, s->run.refusals.contact, sizeof ev->refusal_contact);
    ev->refusal_of_impact = s->run.refusal_of_impact;
  }
  if (s->run.pending_outcome == ZENO_OUTCOME_DIVERGING) {
    ev->zeno_ratio = s->zeno.div_ratio;
    ev->zeno_period = s->zeno.div_period;
    // Growth against decay: the growth per impact. A relative change of
    // the impact speeds by that much at every impact (the full model's
    // corrections of order eps act at each) turns the chatter to decay.
    sim_note_tie(s, log(s->zeno.div_ratio) / s->zeno.div_period);
  }
  if (s->run.pending_outcome == ZENO_OUTCOME_SOLVER_FAILURE)
    snprintf(ev->solver_flag, sizeof ev->solver_flag, "%s", s->run.failure);
  event_take_tie(s, ev);
  s->run.outcome = s->run.pending_outcome;
  s->run.finished = true;
  s->run.event_count++;
  return ZENO_OK;
}

/* ---------- one event ---------- */

static zeno_status emit_time_limit(zeno_sim *s, zeno_event *ev, double tau) {
  segment g = {.t0 = s->run.t, .t1 = s->run.t + tau, .mode = s->run.sol.mode};
  memcpy(g.q0, s->run.q, sizeof g.q0);
  memcpy(g.qd0, s->run.qd, sizeof g.qd0);
  sim_mode_rates(s, &s->run.sol, g.qdd);
  memcpy(g.force, s->run.sol.force, sizeof g.force);
  if (sim_hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  flow_advance(g.q0, g.qd0, g.qdd, tau, s->run.q, s->run.qd);
  s->run.t = s->scene.t_end;
  s->run.pending_outcome = ZENO_OUTCOME_TIME_LIMIT;
  s->run.pending_guard = ZENO_GUARD_TIME;
  return emit_end(s, ev);
}

// Gaps of touching contacts to exactly zero (positions only).
static void project_gaps(zeno_sim *s, const mode_class *cls) {
  bool touching[2] = {false, false};
  for (int i = 0; i < s->km.n; i++) touching[i] = cls->gap[i] != MODE_GAP_OPEN;
  sim_zero_gaps(s, touching);
}

// Impact at the touching contacts. *impacted is false for a tangent touch.
// cd: the contact rates at the current state; vscale the speed scale of the
// segment that led here (tol was made from it).
static zeno_status resolve_impact(zeno_sim *s, zeno_event *ev, mode_class *cls,
                                  const bool gap_hit[2], const double cd[4], const tolerances *tol,
                                  double vscale, bool *impacted) {
  impact_input in;
  unsigned touched;
  const double speed = sim_impact_input(s, cls, gap_hit, cd, tol, &in, &touched);
  *impacted = speed > 0;
  if (!*impacted) return ZENO_OK;
  impact_result out;
  bool resolved = impact_resolve(&s->dyn, &in, &out);
  if (!resolved && in.tol_impulse > tol->v * s->km.contact_mass) {
    // Impulses are zero below the velocity zero times the body's mass; an
    // impact whose impulses are that small at a weakly coupled contact
    // (a slipping contact's share of a double impact, 1/9 of the other's)
    // may have no branch above it. Asked again with the zero of the
    // contacts' own mass scale: smaller impulses change no velocity by as
    // much as the velocity zero.
    in.tol_impulse = tol->v * s->km.contact_mass;
    resolved = impact_resolve(&s->dyn, &in, &out);
  }
  if (!resolved) {
    if (sim_zeno_at_floor(s, speed, vscale)) {
      // An approach at the precision floor that no branch of the law
      // resolves (its impulses are as small as what the law calls zero):
      // the contacts close there, completing the sequence it belongs to.
      *impacted = false;
      if (sim_zeno_floor_approach(s, speed, touched)) return ZENO_OK;
      for (int i = 0; i < s->km.n; i++)
        if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
      return ZENO_OK;
    }
    impact_explain(&s->dyn, &in, &s->run.refusals);
    s->run.refusal_of_impact = true;
    s->run.pending_outcome = ZENO_OUTCOME_INCONSISTENT;
    s->run.pending_guard = ZENO_GUARD_GAP;
    return emit_end(s, ev);
  }
  if (sim_on_section(s, cls, in.v, &ev->section_angle)) {
    ev->on_section = true;
    if (s->run.section_count < ZENO_SUMMARY_SECTIONS)
      s->run.sections[s->run.section_count] = ev->section_angle;
    s->run.section_count++;
  }
  ev->impact_mask = out.mask;
  for (int i = 0; i < s->km.n; i++) {
    ev->impact_letter[i] = out.letter[i];
    ev->impulse[i][0] = out.impulse[2 * i];
    ev->impulse[i][1] = out.impulse[2 * i + 1];
  }
  s->run.impact_count++;
  sim_word_append(s, zeno_impact_name(out.mask, s->km.n));
  sim_impact_apply(s, &in, &out, tol, cls);
  sim_zeno_record_impact(s, speed, touched);
  return ZENO_OK;
}

// Drift of the closed contacts of the current mode from their constraints.
static double constraint_drift(const zeno_sim *s, double vscale) {
  double c[4], cd[4], drift = 0;
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  const double L = vscale * vscale / s->km.accel_scale;
  for (int i = 0; i < s->km.n; i++) {
    const int l = s->run.sol.mode.letter[i];
    if (l == ZENO_LETTER_F) continue;
    drift = fmax(drift, fmax(fabs(c[2 * i]) / L, fabs(cd[2 * i]) / vscale));
    if (l == ZENO_LETTER_S) drift = fmax(drift, fabs(cd[2 * i + 1]) / vscale);
  }
  return drift;
}

// Handles the guards that fired at the current instant (`hits`); guard and
// contact name the first of them. vscale is the velocity scale of the
// segment that led here.
static zeno_status handle_crossing(zeno_sim *s, zeno_event *ev, zeno_guard guard, int contact,
                                   const sim_hits *hits, double vscale) {
  const bool *gap_hit = hits->gap;
  const bool impact = gap_hit[0] || gap_hit[1];
  const double residual = ev->guard_residual;
  sim_event_begin(s, ev, impact ? ZENO_EVENT_IMPACT : ZENO_EVENT_TRANSITION, guard, contact);
  ev->guard_residual = residual;
  if (!s->lean_events) ev->constraint_drift = constraint_drift(s, vscale);
  const tolerances tol = sim_make_tol(s, vscale);
  bool touching[2] = {false, false};
  for (int i = 0; i < s->km.n; i++)
    touching[i] = s->run.sol.mode.letter[i] != ZENO_LETTER_F || gap_hit[i];
  mode_class cls;
  sim_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->km.n; i++) {
    // A crossing slip rate is zero by definition of the event; a
    // contact closed in the previous mode stays closed.
    if (hits->slip[i]) cls.slip[i] = MODE_SLIP_ZERO;
    if (s->run.sol.mode.letter[i] != ZENO_LETTER_F) cls.gap[i] = MODE_GAP_CLOSED;
    cls.lifting[i] = hits->lift[i];
    cls.leaving_stick[i] = hits->margin[i];
  }
  project_gaps(s, &cls);
  sim_refresh_dyn(s);
  sim_event_state(s, &ev->before);
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  sim_note_grazing(s, gap_hit, cd, vscale);
  bool impacted = false;
  if (impact) {
    zeno_status st = resolve_impact(s, ev, &cls, gap_hit, cd, &tol, vscale, &impacted);
    if (st != ZENO_OK || s->run.finished) return st;
    if (s->run.zeno_pending) return sim_zeno_emit(s, ev);  // closed at the floor
  }
  if (!impacted) {
    // A tangent touch (zero approach speed) is no impact: the contact
    // stays free, and the event is a transition.
    ev->kind = ZENO_EVENT_TRANSITION;
    sim_enforce(s, &cls);
    sim_refresh_dyn(s);
  }
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  sim_note_small_speeds(s, &cls, gap_hit, cd, tol.v, vscale);
  s->run.vscale = fmax(sim_contact_speed(s, s->run.qd), tol.v);
  const zeno_mode before = s->run.sol.mode;
  sim_choose_next(s, &cls, &tol);
  const bool changed = memcmp(&before, &s->run.sol.mode, sizeof before) != 0;
  if ((!s->run.end_pending || s->run.pending_outcome == ZENO_OUTCOME_REST) && (changed || impacted))
    sim_mode_token(s);
  if (impacted && !s->run.end_pending) sim_zeno_detect(s);
  sim_event_finish(s, ev);
  return ZENO_OK;
}

static zeno_status flow_full(zeno_sim *s, zeno_event *ev) {
  sim_hits hits = {0};
  double vscale;
  flow_crossing first;
  memset(ev, 0, sizeof *ev);
  const zeno_status st = sim_full_flow(s, ev, &vscale, &first, &hits);
  if (st == ZENO_DONE) {
    s->run.pending_outcome = ZENO_OUTCOME_SOLVER_FAILURE;
    s->run.pending_guard = ZENO_GUARD_NONE;
    return emit_end(s, ev);
  }
  if (st != ZENO_OK) return st;
  if (first.guard == ZENO_GUARD_TIME || first.guard == ZENO_GUARD_ESCAPE) {
    sim_refresh_dyn(s);
    s->run.pending_outcome = first.guard == ZENO_GUARD_TIME ? ZENO_OUTCOME_TIME_LIMIT
                                                            : ZENO_OUTCOME_ESCAPED;
    s->run.pending_guard = first.guard;
    if (first.guard == ZENO_GUARD_TIME) s->run.t = s->scene.t_end;
    return emit_end(s, ev);
  }
  return handle_crossing(s, ev, first.guard, first.contact, &hits, vscale);
}

int sim_zod_crossings(const zeno_sim *s, double qddp[3], double c[4], double cd[4], double cdd[4],
                      flow_crossing cr[FLOW_MAX_CROSSINGS]) {
  double unused[4];
  const double zero[3] = {0, 0, 0};
  sim_mode_rates(s, &s->run.sol, qddp);
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  sim_contacts(s, zero, qddp, unused, cdd);
  return flow_crossings(s->km.n, s->run.sol.mode, c, cd, cdd, s->scene.escape_radius, cr);
}

sim_hits sim_crossing_hits(const zeno_sim *s, const flow_crossing *cr, int n) {
  // Every guard crossing within the time tolerance of the first happens now.
  sim_hits hits = {0};
  const double tau_tol = s->def.time_rtol * cr[0].tau;
  for (int k = 0; k < n && cr[k].tau <= cr[0].tau + tau_tol; k++) {
    if (cr[k].guard == ZENO_GUARD_GAP) hits.gap[cr[k].contact] = true;
    if (cr[k].guard == ZENO_GUARD_SLIP_VELOCITY) hits.slip[cr[k].contact] = true;
  }
  return hits;
}

static zeno_status flow_to_event(zeno_sim *s, zeno_event *ev) {
  if (sim_is_full(s)) return flow_full(s, ev);
  flow_crossing cr[FLOW_MAX_CROSSINGS];
  double qddp[3], c[4], cd[4], cdd[4];
  const int n = sim_zod_crossings(s, qddp, c, cd, cdd, cr);
  const double tau_end = s->scene.t_end - s->run.t;
  const flow_end end = flow_segment_end(cr, n, tau_end, s->escape_horizon);
  if (end == FLOW_END_TIME) {
    sim_note_near_misses(s, c, cd, cdd, tau_end);
    return emit_time_limit(s, ev, fmax(tau_end, 0));
  }
  if (end == FLOW_END_ESCAPE) {
    sim_note_near_misses(s, c, cd, cdd, cr[0].tau);
    if (!(cr[0].tau < tau_end)) {
      // A terminal mode whose escape lies beyond the time limit: decided
      // here, where it begins (flow_segment_end()).
      s->run.pending_outcome = ZENO_OUTCOME_ESCAPED;
      s->run.pending_guard = ZENO_GUARD_ESCAPE;
      return emit_end(s, ev);
    }
  }
  const double tau = cr[0].tau;
  segment g = {.t0 = s->run.t, .t1 = s->run.t + tau, .mode = s->run.sol.mode};
  memcpy(g.q0, s->run.q, sizeof g.q0);
  memcpy(g.qd0, s->run.qd, sizeof g.qd0);
  memcpy(g.qdd, qddp, sizeof g.qdd);
  memcpy(g.force, s->run.sol.force, sizeof g.force);
  if (sim_hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  const double vstart = sim_contact_speed(s, s->run.qd);
  flow_advance(g.q0, g.qd0, g.qdd, tau, s->run.q, s->run.qd);
  s->run.t += tau;
  const double vscale = fmax(fmax(vstart, sim_contact_speed(s, s->run.qd)),
                             s->km.accel_scale * tau);
  if (cr[0].guard == ZENO_GUARD_ESCAPE) {
    s->run.pending_outcome = ZENO_OUTCOME_ESCAPED;
    s->run.pending_guard = ZENO_GUARD_ESCAPE;
    return emit_end(s, ev);
  }
  const sim_hits hits = sim_crossing_hits(s, cr, n);
  sim_note_crossing_ties(s, cr, n, c, cd, cdd);
  memset(ev, 0, sizeof *ev);
  if (!s->lean_events) event_residual(s, ev, &cr[0], vscale);
  return handle_crossing(s, ev, cr[0].guard, cr[0].contact, &hits, vscale);
}

// Residual of the located guard before projection, on the state's scale.
static void event_residual(const zeno_sim *s, zeno_event *ev, const flow_crossing *cr,
                           double vscale) {
  double c1[4], cd1[4];
  sim_contacts(s, s->run.q, s->run.qd, c1, cd1);
  const int gi = cr->contact;
  ev->guard_residual = flow_guard_residual(cr->guard == ZENO_GUARD_GAP, c1[2 * gi], cd1[2 * gi + 1],
                                           s->km.accel_scale, vscale);
}

static zeno_status next_event(zeno_sim *s, zeno_event *ev) {
  if (!s->run.started) {
    s->run.wall_start = clock_seconds();
    return emit_start(s, ev);
  }
  if (s->scene.wall_time > 0 && !s->run.end_pending &&
      clock_seconds() - s->run.wall_start >= s->scene.wall_time) {
    // Between events: the state is a consistent one, after the last event.
    s->run.start_impact = s->run.zeno_pending = s->zeno.forward_pending = false;
    s->run.end_pending = true;
    s->run.pending_outcome = ZENO_OUTCOME_WALL_LIMIT;
    s->run.pending_guard = ZENO_GUARD_NONE;
  }
  if (s->run.start_impact) return emit_start_impact(s, ev);
  if (s->run.end_pending) return emit_end(s, ev);
  if (s->run.zeno_pending) return sim_zeno_emit(s, ev);
  if (s->zeno.forward_pending && sim_zeno_forward(s) != ZENO_OK) return ZENO_ERR_NOMEM;
  return flow_to_event(s, ev);
}

// Without keep_history, the history is emptied as each event is sought:
// dense output then covers the time since the previous event (the
// segments that reach the next), what a writer sampling as events come
// needs, in memory that does not grow with the run.
static void trim_history(zeno_sim *s) {
  if (s->def.keep_history) return;
  s->run.hist_len = 0;
  s->run.node_len = 0;
}

zeno_status zeno_sim_next_event(zeno_sim *s, zeno_event *ev, zeno_error *error) {
  if (s == NULL || ev == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "simulator and event are required");
  if (s->run.finished && !s->word_failed) return ZENO_DONE;
  // Before anything of the event is done: a stopped simulator goes on.
  const zeno_status asked = zeno_interrupt_check(&s->def.interrupt, error);
  if (asked != ZENO_OK) return asked;
  trim_history(s);
  const zeno_status st = s->word_failed ? ZENO_ERR_NOMEM
                         : s->multi     ? sim_multi_next_event(s, ev, error)
                                        : next_event(s, ev);
  if (st == ZENO_OK) sim_event_to_user(s, ev);
  // A mode word missing tokens would be a wrong answer, not a short one.
  if (st == ZENO_ERR_NOMEM || s->word_failed)
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory at event %ld: the run cannot go on",
                     s->run.event_count);
  return st;
}
