// The N-contact engine's state at an event (simn_run.h): the
// tolerances of a segment, the kinematic classes, the projections onto the
// closed contacts, the choice of the next mode (mode_n.h, cached per
// class), with sim_contact.c's rules, and the event records and mode word
// that the loop (simn.c) and the Zeno completion (simn_zeno.c) both write.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "simn/simn_run.h"

zero_tol simn_make_tol(const simn *s, double vscale) {
  return zero_tol_make(s->def.velocity_rtol, s->def.force_rtol, vscale, s->m.mass, s->m.force_scale,
                       s->m.accel_scale);
}

// The speed scale: the largest contact rate of the contacts that touch at
// the nominal pose (all, if none does). A contact away from the body sets
// no tolerance: adding one changes no decision of the others.
double simn_contact_speed(const simn *s, const double qd[3]) {
  double c[MAXV], cd[MAXV], v = 0, all = 0;
  simn_contacts(&s->m, s->q, qd, c, cd);
  for (int a = 0; a < 2 * s->m.n; a++) {
    all = fmax(all, fabs(cd[a]));
    if (s->m.gap0[a / 2] == 0) v = fmax(v, fabs(cd[a]));
  }
  return v > 0 || all == 0 ? v : all;
}

static unsigned char slip_class(double xd, double tol) {
  if (xd > tol) return MODE_SLIP_POS;
  if (xd < -tol) return MODE_SLIP_NEG;
  return MODE_SLIP_ZERO;
}

void simn_classify(const simn *s, const bool *touching, double tol_v, mode_n_class *cls) {
  double c[MAXV], cd[MAXV];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  memset(cls, 0, sizeof *cls);
  for (int i = 0; i < s->m.n; i++) {
    if (!touching[i] || cd[2 * i] > tol_v) cls->gap[i] = MODE_GAP_OPEN;
    else if (cd[2 * i] < -tol_v) cls->gap[i] = MODE_GAP_IMPACTING;
    else cls->gap[i] = MODE_GAP_CLOSED;
    cls->slip[i] = slip_class(cd[2 * i + 1], tol_v);
  }
}

// The rows of q' that are contact coordinate a, or -1.
static int coordinate_row(const simn *s, int a) {
  for (int r = 0; r < 3; r++)
    if (s->m.coord[r] == a) return r;
  return -1;
}

// Corrects q' (positions or rates) so that the listed contact rows take
// the targets: the mass-weighted correction in generalised coordinates
// (contact_n_correct), and then the rows that are q''s own coordinates set
// exactly (the two-contact engine's gaps are components of q'). Returns
// the rank used.
static int correct_prime(simn *s, const int *cols, int m, const double *target, double vp[3]) {
  if (s->m.full) return simn_full_correct_positions(s, cols, m, target);
  double v[3];
  int own = 0;
  for (int a = 0; a < m; a++) own += coordinate_row(s, cols[a]) >= 0;
  int rank = own;
  if (own < m) {  // a row that is no coordinate moves the others
    simn_to_gen(&s->m, vp, v);
    rank = contact_n_correct(s->dyn, cols, m, target, v);
    simn_of_gen(&s->m, v, vp);
  }
  for (int a = 0; a < m; a++) {
    const int r = coordinate_row(s, cols[a]);
    if (r >= 0) vp[r] = target[a];
  }
  return rank;
}

// Gaps of the touching contacts to zero (positions).
void simn_zero_gaps(simn *s, const bool *touching) {
  int cols[MAXC], m = 0;
  double target[MAXC];
  for (int i = 0; i < s->m.n; i++)
    if (touching[i]) {
      cols[m] = 2 * i;
      target[m++] = -s->m.gap0[i];
    }
  correct_prime(s, cols, m, target, s->q);
  for (int i = 0; i < s->m.n; i++)
    if (touching[i]) s->at_surface[i] = true;
}

// sim_enforce: closed gaps to zero, their normal rates and the slip rates
// of closed contacts classified as not slipping to zero; a body those
// constraints fix is at rest exactly.
void simn_enforce(simn *s, const mode_n_class *cls) {
  bool closed[MAXC] = {false};
  int cols[MAXV], m = 0;
  double target[MAXV] = {0};
  for (int i = 0; i < s->m.n; i++) {
    closed[i] = cls->gap[i] == MODE_GAP_CLOSED;
    if (closed[i]) cols[m++] = 2 * i;
  }
  simn_zero_gaps(s, closed);
  for (int i = 0; i < s->m.n; i++) {
    if (closed[i]) s->rate_zero[i] = true;
    if (closed[i] && cls->slip[i] == MODE_SLIP_ZERO) cols[m++] = 2 * i + 1;
  }
  // Rates: always through the generalised correction (sim_project_rates).
  if (m == 0) return;
  double v[3];
  if (s->m.full) simn_full_refresh(s);  // the rows at the corrected pose
  simn_to_gen(&s->m, s->qd, v);
  const int rank = contact_n_correct(s->dyn, cols, m, target, v);
  simn_of_gen(&s->m, v, s->qd);
  for (int a = 0; a < m && !s->m.full; a++) {
    const int r = coordinate_row(s, cols[a]);
    if (r >= 0 && cols[a] % 2 == 0) s->qd[r] = 0;  // gap rates exact (sim_project_rates)
  }
  // Every closed contact sticks, and they fix the body: at rest exactly
  // (sim_enforce's rule, with open contacts left out).
  int closed_count = 0;
  for (int i = 0; i < s->m.n; i++) closed_count += closed[i];
  if (rank == 3 && m == 2 * closed_count) s->qd[0] = s->qd[1] = s->qd[2] = 0;
}

// The mode's accelerations in q': closed gaps among q''s coordinates (and
// the slip of a sticking contact) accelerate by zero exactly (sim_mode_rates).
static void mode_rates(simn *s) {
  simn_of_gen(&s->m, s->sol.qdd, s->qddp);
  for (int r = 0; r < 3; r++) {
    const int a = s->m.coord[r];
    if (a < 0) continue;
    const int l = s->sol.letter[a / 2];
    if ((a % 2 == 0 && l != ZENO_LETTER_F) || (a % 2 == 1 && l == ZENO_LETTER_S)) s->qddp[r] = 0;
  }
}

/* ---------- mode choice ---------- */

static bool one_motion(const simn *s, const mode_n_solution *a, const mode_n_solution *b,
                       double zero) {
  return hypot(a->qdd[0] - b->qdd[0], a->qdd[1] - b->qdd[1]) <= zero &&
         fabs(a->qdd[2] - b->qdd[2]) * s->m.length_scale <= zero;
}

// The class's consistent modes: from the run's cache, or solved (strict,
// then in the closed reading when none is) and remembered.
static zeno_status class_choice(simn *s, const mode_n_class *cls, const zero_tol *tol,
                                const simn_choice **out, zeno_error *e) {
  if (s->m.full) {  // the dynamics change with the state: solved afresh
    simn_full_refresh(s);
    s->cache_len = 0;
  }
  for (int k = 0; k < s->cache_len; k++)
    if (memcmp(&s->cache[k].cls, cls, sizeof *cls) == 0) {
      *out = &s->cache[k];
      return ZENO_OK;
    }
  if (s->cache_len == s->cache_cap && s->cache_cap < SIMN_CLASS_CACHE) {
    simn_choice *grown = realloc(s->cache, sizeof *grown * (size_t)(2 * s->cache_cap));
    if (grown == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a mode choice");
    s->cache = grown;
    s->cache_cap *= 2;
  }
  if (s->cache_len == s->cache_cap) s->cache_len = 0;  // full: start afresh
  simn_choice *ch = &s->cache[s->cache_len++];
  memset(ch, 0, sizeof *ch);
  ch->cls = *cls;
  mode_n_solution *all = malloc(sizeof *all * SIMN_LISTED_MODES);
  if (all == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a mode choice");
  mode_tol mt = tol->mode;
  zeno_status st = mode_n_enumerate(s->dyn, cls, &mt, all, SIMN_LISTED_MODES, &ch->count, e);
  if (st == ZENO_OK && ch->count == 0) {
    mt.closed = true;  // a tie: forces and the accelerations they prevent both zero
    st = mode_n_enumerate(s->dyn, cls, &mt, all, SIMN_LISTED_MODES, &ch->count, e);
    const int listed = ch->count < SIMN_LISTED_MODES ? ch->count : SIMN_LISTED_MODES;
    bool same = listed > 1;
    for (int k = 1; k < listed && same; k++) same = one_motion(s, &all[0], &all[k], mt.accel);
    if (same && listed == ch->count) ch->count = 1;
    ch->closed = true;
  }
  if (st == ZENO_OK && ch->count > 0) {
    const int listed = ch->count < SIMN_LISTED_MODES ? ch->count : SIMN_LISTED_MODES;
    for (int k = 0; k < listed; k++) memcpy(ch->letters[k], all[k].letter, MAXC);
    ch->first = all[0];
    ch->last = all[listed - 1];
  }
  free(all);
  if (st != ZENO_OK) {
    s->cache_len--;
    return st;
  }
  *out = ch;
  return ZENO_OK;
}

static bool is_rest(const simn *s, const mode_n_solution *sol, const zero_tol *tol) {
  int stick = 0;
  for (int i = 0; i < s->m.n; i++) {
    if (sol->letter[i] == ZENO_LETTER_P || sol->letter[i] == ZENO_LETTER_N) return false;
    stick += sol->letter[i] == ZENO_LETTER_S;
  }
  if (stick == 0 || s->qd[0] != 0 || s->qd[1] != 0 || s->qd[2] != 0) return false;
  return fabs(sol->qdd[2]) * s->m.length_scale <= tol->mode.accel &&
         hypot(sol->qdd[0], sol->qdd[1]) <= tol->mode.accel;
}

void simn_end_with(simn *s, zeno_outcome outcome, zeno_guard guard) {
  s->end_pending = true;
  s->pending_outcome = outcome;
  s->pending_guard = guard;
}

// An LP that GLPK could not solve (ZENO_ERR_SINGULAR: its simplex failed
// or hit its iteration limit) ends the run with `solver-failure`, an event
// with the solver's message, not an error of the call; other errors (no
// memory, an argument) are the call's.
zeno_status simn_solver_failure(simn *s, zeno_status st, zeno_error *e) {
  if (st != ZENO_ERR_SINGULAR) return st;
  snprintf(s->failure, sizeof s->failure, "%.150s", e->message);
  simn_end_with(s, ZENO_OUTCOME_SOLVER_FAILURE, ZENO_GUARD_NONE);
  return ZENO_OK;
}

zeno_status simn_choose_next(simn *s, const mode_n_class *cls, const zero_tol *tol, zeno_error *e) {
  const simn_choice *ch = NULL;
  const zeno_status st = simn_solver_failure(s, class_choice(s, cls, tol, &ch, e), e);
  if (st != ZENO_OK || s->end_pending) return st;
  s->consistent_count = ch->count;
  memcpy(s->consistent, ch->letters, sizeof s->consistent);
  if (ch->count == 0) {
    simn_end_with(s, ZENO_OUTCOME_INCONSISTENT, ZENO_GUARD_NONE);
    return ZENO_OK;
  }
  const mode_n_solution *pick = &ch->first;
  if (ch->count > 1) {
    if (s->def.ambiguity == ZENO_AMBIGUITY_PREFER_MOTION) {
      pick = &ch->last;
    } else if (s->def.ambiguity != ZENO_AMBIGUITY_PREFER_STATIC) {
      simn_end_with(s, ZENO_OUTCOME_AMBIGUOUS, ZENO_GUARD_NONE);
      return ZENO_OK;
    }
  }
  s->sol = *pick;
  mode_rates(s);
  if (is_rest(s, pick, tol)) simn_end_with(s, ZENO_OUTCOME_REST, ZENO_GUARD_NONE);
  return ZENO_OK;
}

/* ---------- word ---------- */

zeno_status simn_word_append(simn *s, const char *token, size_t n, zeno_error *e) {
  if (s->word_len + n + 2 > s->word_cap) {
    size_t cap = s->word_cap ? 2 * s->word_cap : 256;
    while (cap < s->word_len + n + 2) cap *= 2;
    char *w = realloc(s->word, cap);
    if (w == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for the mode word");
    s->word = w;
    s->word_cap = cap;
  }
  if (s->word_len) s->word[s->word_len++] = ' ';
  memcpy(s->word + s->word_len, token, n);
  s->word_len += n;
  s->signature = series_signature_add(s->signature, token, (int)n);
  s->word[s->word_len] = '\0';
  return ZENO_OK;
}

zeno_status simn_mode_token(simn *s, zeno_error *e) {
  char name[MAXC];
  for (int i = 0; i < s->m.n; i++) name[i] = zeno_letter_name((zeno_letter)s->sol.letter[i]);
  return simn_word_append(s, name, (size_t)s->m.n, e);
}

const char *simn_word(const simn *s) { return s->word ? s->word : ""; }
/* ---------- events ---------- */

void simn_event_begin(simn *s, simn_event *ev, zeno_event_kind kind, zeno_guard guard,
                      int contact) {
  memset(ev, 0, sizeof *ev);
  ev->index = s->event_count;
  ev->kind = kind;
  ev->guard = guard;
  ev->contact = contact;
  ev->t = s->t;
  memcpy(ev->mode_before, s->sol.letter, MAXC);
  memcpy(ev->qp_before, s->q, sizeof ev->qp_before);
  memcpy(ev->qdp_before, s->qd, sizeof ev->qdp_before);
  ev->guard_residual = s->full.residual;
  s->full.residual = NAN;  // used once
}

void simn_event_state(const simn *s, simn_event *ev) {
  memcpy(ev->mode_after, s->sol.letter, MAXC);
  simn_to_gen(&s->m, s->q, ev->q);
  simn_to_gen(&s->m, s->qd, ev->qd);
  simn_contacts(&s->m, s->q, s->qd, ev->c, ev->cd);
  memcpy(ev->force, s->sol.force, sizeof ev->force);
  memcpy(ev->qp, s->q, sizeof ev->qp);
  memcpy(ev->qdp, s->qd, sizeof ev->qdp);
  memcpy(ev->qddp, s->qddp, sizeof ev->qddp);
}

void simn_event_finish(simn *s, simn_event *ev) {
  simn_event_state(s, ev);
  if (ev->kind != ZENO_EVENT_IMPACT) s->zeno.quiet_t = ev->t;  // a chain's lead (simn_zeno.c)
  s->event_count++;
  if (!s->end_pending && s->event_count >= s->def.max_events)
    simn_end_with(s, ZENO_OUTCOME_EVENT_LIMIT, ZENO_GUARD_NONE);
}
