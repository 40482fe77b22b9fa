// The N-contact ZOD engine (simn.h): the event loop of sim.c written for
// N contacts. What it keeps of the two-contact loop, so that both give
// the same words and events for two contacts: the velocity scale of a
// segment and the tolerances made from it (sim_make_tol), the kinematic
// classes at an event (sim_classify and handle_crossing's overrides), the
// projection onto the closed contacts (sim_enforce), the order of the
// consistent modes and the ambiguity policy (sim_choose_next, with the
// closed reading of tied_modes), the impact law's retry with the contacts'
// own impulse zero, and the guards and segment ends of flow_zod.h.
#include "simn/simn.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/flow_zod.h"
#include "simn/simn_run.h"

static zeno_status impact_token(simn *s, unsigned mask, zeno_error *e) {
  char name[MAXC];
  for (int i = 0; i < s->m.n; i++) name[i] = (mask >> i) & 1u ? 'I' : 'F';
  return simn_word_append(s, s->m.n == 1 ? "I" : name, (size_t)s->m.n, e);
}

zeno_status simn_emit_end(simn *s, simn_event *ev) {
  simn_event_begin(s, ev, ZENO_EVENT_END, s->pending_guard, -1);
  ev->outcome = s->pending_outcome;
  if (s->pending_outcome == ZENO_OUTCOME_AMBIGUOUS) {
    ev->consistent_count = s->consistent_count;
    memcpy(ev->consistent, s->consistent, sizeof ev->consistent);
  }
  if (s->pending_outcome == ZENO_OUTCOME_SOLVER_FAILURE)
    memcpy(ev->failure, s->failure, sizeof ev->failure);
  if (s->pending_outcome == ZENO_OUTCOME_DIVERGING) {
    ev->zeno_ratio = s->zeno.div_ratio;
    ev->zeno_period = s->zeno.div_period;
  }
  simn_event_state(s, ev);
  s->finished = true;
  s->event_count++;
  return ZENO_OK;
}

static zeno_status emit_start(simn *s, simn_event *ev, zeno_error *e) {
  s->started = true;
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  s->vscale = simn_contact_speed(s, s->qd);
  if (s->vscale == 0) {
    double zmax = 0;
    for (int a = 0; a < 2 * s->m.n; a++) zmax = fmax(zmax, fabs(c[a]));
    s->vscale = sqrt(s->m.accel_scale * (zmax > 0 ? zmax : s->m.length_scale));
  }
  const zero_tol tol = simn_make_tol(s, s->vscale);
  double scale = 0;
  for (int a = 0; a < 2 * s->m.n; a++) scale = fmax(scale, fabs(c[a]));
  bool touching[MAXC] = {false};
  for (int i = 0; i < s->m.n; i++) touching[i] = fabs(c[2 * i]) <= ZERO_TOL_START_GAP_RTOL * scale;
  mode_n_class cls;
  simn_classify(s, touching, tol.v, &cls);
  memset(&s->sol, 0, sizeof s->sol);
  for (int i = 0; i < s->m.n; i++)
    if (cls.gap[i] == MODE_GAP_IMPACTING) s->start_impact = true;
  zeno_status st = ZENO_OK;
  if (s->start_impact) {
    static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
    for (int i = 0; i < s->m.n; i++)
      s->sol.letter[i] = cls.gap[i] == MODE_GAP_CLOSED ? by_slip[cls.slip[i]] : ZENO_LETTER_F;
    bool touch[MAXC];
    for (int i = 0; i < s->m.n; i++) touch[i] = cls.gap[i] != MODE_GAP_OPEN;
    simn_zero_gaps(s, touch);
    simn_event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    st = simn_mode_token(s, e);
  } else {
    simn_enforce(s, &cls);
    simn_event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    st = simn_choose_next(s, &cls, &tol, e);
    if (st == ZENO_OK && (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST))
      st = simn_mode_token(s, e);
  }
  if (st != ZENO_OK) return st;
  for (int a = 0; a < 2 * s->m.n; a++)
    if (fabs(c[a] - simn_offset(s, a)) >= s->escape_radius) {
      s->start_impact = false;
      simn_end_with(s, ZENO_OUTCOME_ESCAPED, ZENO_GUARD_ESCAPE);
    }
  simn_event_finish(s, ev);
  memcpy(ev->mode_before, ev->mode_after, MAXC);
  return ZENO_OK;
}

// An impact at the touching contacts; *impacted false for a tangent touch.
static zeno_status resolve_impact(simn *s, simn_event *ev, mode_n_class *cls, const simn_hits *h,
                                  const zero_tol *tol, double vscale, bool *impacted,
                                  zeno_error *e) {
  impact_n_input in;
  memset(&in, 0, sizeof in);
  double c[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, in.v);
  in.law = s->def.law;
  in.e = s->def.e;
  in.et = s->def.et;
  simn_to_gen(&s->m, s->qd, in.qd);
  double speed = 0;
  unsigned touched = 0;
  for (int i = 0; i < s->m.n; i++) {
    in.touching[i] = cls->gap[i] != MODE_GAP_OPEN || h->gap[i];
    in.impacting[i] = cls->gap[i] == MODE_GAP_IMPACTING;
    if (in.impacting[i]) speed = fmax(speed, -in.v[2 * i]);
    if (in.touching[i]) touched |= 1u << i;
  }
  in.tol_v = tol->v;
  in.tol_impulse = tol->impulse;
  *impacted = speed > 0;
  if (!*impacted) return ZENO_OK;
  impact_n_result out;
  bool resolved;
  if (s->m.full) simn_full_refresh(s);
  zeno_status st = impact_n_resolve(s->imp, &in, &out, &resolved, e);
  if (st == ZENO_OK && !resolved && in.tol_impulse > tol->v * s->m.contact_mass) {
    in.tol_impulse = tol->v * s->m.contact_mass;  // the contacts' own impulse zero (sim.c)
    st = impact_n_resolve(s->imp, &in, &out, &resolved, e);
  }
  st = simn_solver_failure(s, st, e);
  if (st != ZENO_OK || s->end_pending) {
    *impacted = false;
    return st;
  }
  if (!resolved) {
    *impacted = false;
    if (simn_zeno_at_floor(s, speed, vscale)) {
      // An approach at the precision floor that no branch of the law
      // resolves: the contacts close there, completing the sequence it
      // belongs to (sim.c's rule).
      if (simn_zeno_floor_approach(s, speed, touched)) return ZENO_OK;
      for (int i = 0; i < s->m.n; i++)
        if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
      return ZENO_OK;
    }
    simn_end_with(s, ZENO_OUTCOME_INCONSISTENT, ZENO_GUARD_GAP);
    return ZENO_OK;
  }
  ev->impact_mask = out.mask;
  memcpy(ev->impact_letter, out.letter, MAXC);
  memcpy(ev->impulse, out.impulse, sizeof ev->impulse);
  st = impact_token(s, out.mask, e);
  if (st != ZENO_OK) return st;
  simn_of_gen(&s->m, out.qd, s->qd);
  // Post-impact classes: touching contacts close unless they separate.
  simn_classify(s, in.touching, tol->v, cls);
  for (int i = 0; i < s->m.n; i++)
    if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
  simn_enforce(s, cls);
  simn_zeno_record(s, speed, touched);
  return ZENO_OK;
}

// Drift of the closed contacts of the current mode from their constraints
// (sim.c's constraint_drift, N wide), at the state the segment ended in.
static double constraint_drift(const simn *s, double vscale) {
  double c[MAXV], cd[MAXV], drift = 0;
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  const double L = vscale * vscale / s->m.accel_scale;
  for (int i = 0; i < s->m.n; i++) {
    const unsigned char l = s->sol.letter[i];
    if (l == ZENO_LETTER_F) continue;
    drift = fmax(drift, fmax(fabs(c[2 * i]) / L, fabs(cd[2 * i]) / vscale));
    if (l == ZENO_LETTER_S) drift = fmax(drift, fabs(cd[2 * i + 1]) / vscale);
  }
  return drift;
}

zeno_status simn_handle_crossing(simn *s, simn_event *ev, zeno_guard guard, int contact,
                                 const simn_hits *h, double vscale, zeno_error *e) {
  bool impact = false;
  for (int i = 0; i < s->m.n; i++) impact = impact || h->gap[i];
  simn_event_begin(s, ev, impact ? ZENO_EVENT_IMPACT : ZENO_EVENT_TRANSITION, guard, contact);
  ev->constraint_drift = constraint_drift(s, vscale);
  const zero_tol tol = simn_make_tol(s, vscale);
  bool touching[MAXC] = {false};
  for (int i = 0; i < s->m.n; i++) touching[i] = s->sol.letter[i] != ZENO_LETTER_F || h->gap[i];
  mode_n_class cls;
  simn_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->m.n; i++) {
    if (h->slip[i]) cls.slip[i] = MODE_SLIP_ZERO;
    if (s->sol.letter[i] != ZENO_LETTER_F) cls.gap[i] = MODE_GAP_CLOSED;
    cls.lifting[i] = h->lift[i];  // the full model's guards (sim.c's rule)
    cls.leaving_stick[i] = h->margin[i];
  }
  bool touch[MAXC];
  for (int i = 0; i < s->m.n; i++) touch[i] = cls.gap[i] != MODE_GAP_OPEN;
  simn_zero_gaps(s, touch);
  bool impacted = false;
  zeno_status st;
  if (impact) {
    st = resolve_impact(s, ev, &cls, h, &tol, vscale, &impacted, e);
    if (st != ZENO_OK) return st;
    if (s->end_pending) return simn_emit_end(s, ev);
    if (s->zeno_pending) return simn_zeno_emit(s, ev, e);  // closed at the floor
  }
  if (!impacted) {
    ev->kind = ZENO_EVENT_TRANSITION;
    simn_enforce(s, &cls);
  }
  s->vscale = fmax(simn_contact_speed(s, s->qd), tol.v);
  unsigned char before[MAXC];
  memcpy(before, s->sol.letter, MAXC);
  st = simn_choose_next(s, &cls, &tol, e);
  if (st != ZENO_OK) return st;
  const bool changed = memcmp(before, s->sol.letter, MAXC) != 0;
  if ((!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) && (changed || impacted)) {
    st = simn_mode_token(s, e);
    if (st != ZENO_OK) return st;
  }
  if (impacted && !s->end_pending) simn_zeno_detect(s);
  simn_event_finish(s, ev);
  return ZENO_OK;
}

static int by_time(const void *pa, const void *pb) {
  const flow_crossing *a = pa, *b = pb;
  return a->tau < b->tau ? -1 : a->tau > b->tau;
}

// flow_crossings for N contacts: impacts of free contacts, slip stops of
// slipping ones, escapes of the contact coordinates; sorted by time.
static int crossings(const simn *s, const double *c, const double *cd, const double *cdd,
                     flow_crossing *out) {
  int n = 0;
  for (int i = 0; i < s->m.n; i++) {
    const int l = s->sol.letter[i];
    if (l == ZENO_LETTER_F) {
      const double z = s->at_surface[i] ? 0.0 : c[2 * i];
      const double zd = s->rate_zero[i] ? 0.0 : cd[2 * i];
      if (z <= 0 && (zd < 0 || (zd == 0 && cdd[2 * i] < 0)))
        flow_crossing_push(out, &n, 0.0, ZENO_GUARD_GAP, i);
      else flow_crossing_push(out, &n, flow_first_root(z, zd, cdd[2 * i], -1), ZENO_GUARD_GAP, i);
    } else if (l == ZENO_LETTER_P || l == ZENO_LETTER_N) {
      flow_crossing_push(out, &n,
                         flow_first_root(cd[2 * i + 1], cdd[2 * i + 1], 0,
                                         l == ZENO_LETTER_P ? -1 : 1),
                         ZENO_GUARD_SLIP_VELOCITY, i);
    }
  }
  const double R = s->escape_radius;
  for (int a = 0; a < 2 * s->m.n; a++) {
    const double d = c[a] - simn_offset(s, a);  // the displacement from the nominal pose
    flow_crossing_push(out, &n, flow_first_root(d - R, cd[a], cdd[a], +1), ZENO_GUARD_ESCAPE,
                       a / 2);
    flow_crossing_push(out, &n, flow_first_root(d + R, cd[a], cdd[a], -1), ZENO_GUARD_ESCAPE,
                       a / 2);
  }
  qsort(out, (size_t)n, sizeof *out, by_time);
  return n;
}

static void advance(simn *s, double tau) {
  double q[3], qd[3];
  flow_advance(s->q, s->qd, s->qddp, tau, q, qd);
  memcpy(s->q, q, sizeof q);
  memcpy(s->qd, qd, sizeof qd);
}

// The ZOD's located guard before the event's projection (flow_zod.h, as
// sim.c's event_residual).
static double zod_residual(const simn *s, const flow_crossing *cr, double vscale) {
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  const int i = cr->contact;
  return flow_guard_residual(cr->guard == ZENO_GUARD_GAP, c[2 * i], cd[2 * i + 1], s->m.accel_scale,
                             vscale);
}

static zeno_status flow_to_event(simn *s, simn_event *ev, zeno_error *e) {
  if (s->m.full) return simn_full_flow(s, ev, e);
  double c[MAXV], cd[MAXV], unused[MAXV], cdd[MAXV];
  const double zero[3] = {0, 0, 0};
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  simn_contacts(&s->m, zero, s->qddp, unused, cdd);
  for (int i = 0; i < s->m.n; i++)
    if (s->sol.letter[i] != ZENO_LETTER_F) cdd[2 * i] = 0;  // closed gaps stay closed exactly
  flow_crossing cr[SIMN_MAX_CROSSINGS];
  const int n = crossings(s, c, cd, cdd, cr);
  const double tau_end = s->def.t_end - s->t;
  const flow_end end = flow_segment_end(cr, n, tau_end, s->escape_horizon);
  if (end == FLOW_END_TIME) {
    advance(s, fmax(tau_end, 0));
    s->t = s->def.t_end;
    simn_end_with(s, ZENO_OUTCOME_TIME_LIMIT, ZENO_GUARD_TIME);
    return simn_emit_end(s, ev);
  }
  if (end == FLOW_END_ESCAPE && !(cr[0].tau < tau_end)) {
    simn_end_with(s, ZENO_OUTCOME_ESCAPED, ZENO_GUARD_ESCAPE);  // a terminal mode
    return simn_emit_end(s, ev);
  }
  const double tau = cr[0].tau;
  const double vstart = simn_contact_speed(s, s->qd);
  advance(s, tau);
  s->t += tau;
  for (int i = 0; i < s->m.n; i++) s->at_surface[i] = s->rate_zero[i] = false;
  const double vscale = fmax(fmax(vstart, simn_contact_speed(s, s->qd)), s->m.accel_scale * tau);
  if (cr[0].guard == ZENO_GUARD_ESCAPE) {
    simn_end_with(s, ZENO_OUTCOME_ESCAPED, ZENO_GUARD_ESCAPE);
    return simn_emit_end(s, ev);
  }
  simn_hits h;
  memset(&h, 0, sizeof h);
  const double tau_tol = s->def.time_rtol * cr[0].tau;
  for (int k = 0; k < n && cr[k].tau <= cr[0].tau + tau_tol; k++) {
    if (cr[k].guard == ZENO_GUARD_GAP) h.gap[cr[k].contact] = true;
    if (cr[k].guard == ZENO_GUARD_SLIP_VELOCITY) h.slip[cr[k].contact] = true;
  }
  s->full.residual = zod_residual(s, &cr[0], vscale);
  return simn_handle_crossing(s, ev, cr[0].guard, cr[0].contact, &h, vscale, e);
}

static zeno_status emit_start_impact(simn *s, simn_event *ev, zeno_error *e) {
  s->start_impact = false;
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  simn_hits h;
  memset(&h, 0, sizeof h);
  int first = -1;
  for (int i = 0; i < s->m.n; i++) {
    h.gap[i] = s->sol.letter[i] == ZENO_LETTER_F && s->at_surface[i] && cd[2 * i] < 0;
    if (h.gap[i] && first < 0) first = i;
  }
  return simn_handle_crossing(s, ev, ZENO_GUARD_GAP, first, &h, s->vscale, e);
}

zeno_status simn_next_event(simn *s, simn_event *ev, zeno_error *error) {
  if (s == NULL || ev == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "run and event are required");
  if (s->finished) return ZENO_DONE;
  s->full.node_count = 0;  // the nodes of the segment this event ends
  zeno_error local;        // a solver failure's message goes into its event
  zeno_error *e = error ? error : &local;
  if (!s->started) return emit_start(s, ev, e);
  if (s->start_impact) return emit_start_impact(s, ev, e);
  if (s->end_pending) return simn_emit_end(s, ev);
  if (s->zeno_pending) return simn_zeno_emit(s, ev, e);
  if (s->zeno.forward_pending) simn_zeno_forward(s);
  return flow_to_event(s, ev, e);
}

void simn_run_state(const simn *s, double qp[3], double qdp[3]) {
  memcpy(qp, s->q, sizeof s->q);
  memcpy(qdp, s->qd, sizeof s->qd);
}

void simn_stop(simn *s, zeno_outcome outcome) {
  if (s == NULL || s->finished || s->end_pending) return;
  // Between events: the state is a consistent one.
  s->start_impact = s->zeno_pending = s->zeno.forward_pending = false;
  simn_end_with(s, outcome, ZENO_GUARD_NONE);
}

// A run's arguments: a model of 1..SIMN_MAX_CONTACTS contacts, a
// definition, a finite state.
static zeno_status check_args(const simn_model *m, const simn_def *def, const double q[3],
                              const double qd[3], zeno_error *e) {
  if (m == NULL || def == NULL || q == NULL || qd == NULL)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "model, definition and state are required");
  if (m->n < 1 || m->n > MAXC)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts", "%d contacts: 1 to %d are simulated", m->n,
                     MAXC);
  for (int k = 0; k < 3; k++)
    if (!isfinite(q[k]) || !isfinite(qd[k]))
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "initial", "the initial state must be finite");
  return ZENO_OK;
}

zeno_status simn_create_prime(const simn_model *m, const simn_def *def, const double qp0[3],
                              const double qdp0[3], simn **out, zeno_error *e) {
  *out = NULL;
  const zeno_status args = check_args(m, def, qp0, qdp0, e);
  if (args != ZENO_OK) return args;
  simn *s = calloc(1, sizeof *s);
  if (s != NULL) s->cache = malloc(sizeof *s->cache * SIMN_CLASS_CACHE_FIRST);
  if (s != NULL) s->cache_cap = SIMN_CLASS_CACHE_FIRST;
  if (s == NULL || s->cache == NULL) {
    free(s);
    return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a run");
  }
  s->m = *m;
  const zeno_status fixed = simn_model_fix(&s->m, e);
  if (fixed != ZENO_OK) {
    simn_destroy(s);
    return fixed;
  }
  s->def = *def;
  s->dyn = s->m.full ? &s->full.dyn : &s->m.dyn;
  s->imp = s->m.full ? &s->full.imp : &s->m.imp;
  const zeno_status integrator = simn_full_create(s, e);
  if (integrator != ZENO_OK) {
    simn_destroy(s);
    return integrator;
  }
  s->escape_radius = def->escape_radius > 0 ? def->escape_radius
                                            : ZENO_ESCAPE_RADIUS_SCALES * m->length_scale;
  s->escape_horizon =
      sqrt(2 * s->escape_radius / (ZERO_TOL_TERMINAL_ACCEL_RTOL * s->m.accel_scale));
  memcpy(s->q, qp0, sizeof s->q);
  memcpy(s->qd, qdp0, sizeof s->qd);
  s->signature = SERIES_SIGNATURE_SEED;
  s->full.residual = NAN;
  *out = s;
  return ZENO_OK;
}

zeno_status simn_create(const simn_model *m, const simn_def *def, const double q0[3],
                        const double qd0[3], simn **out, zeno_error *e) {
  *out = NULL;
  const zeno_status args = check_args(m, def, q0, qd0, e);
  if (args != ZENO_OK) return args;
  simn_model fixed = *m;  // q''s maps of the model as given
  const zeno_status st = simn_model_fix(&fixed, e);
  if (st != ZENO_OK) return st;
  double qp[3], qdp[3];
  simn_of_gen(&fixed, q0, qp);
  simn_of_gen(&fixed, qd0, qdp);
  return simn_create_prime(m, def, qp, qdp, out, e);
}

void simn_destroy(simn *s) {
  if (s == NULL) return;
  cvode_destroy(s->full.cv);
  free(s->full.nodes);
  free(s->cache);
  free(s->word);
  free(s);
}
