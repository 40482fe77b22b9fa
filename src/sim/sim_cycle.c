// The Poincaré cycle on the fast path (sim_cycle.h): the event loop's
// steps (sim.c: emit_start, emit_start_impact, flow_to_event,
// handle_crossing) for a ZOD run from the section, with the same
// decisions made by the same functions in the same order, minus what only
// a run's record needs.
#include "sim/sim_cycle.h"

#include <math.h>
#include <string.h>

#include "dynamics/flow_zod.h"
#include "dynamics/impact.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"

typedef enum step { STEP_ON, STEP_DONE, STEP_HAND_BACK } step;

typedef struct cycle_run {
  zeno_sim *s;
  sim_cycle_track k;
} cycle_run;

void sim_cycle_track_init(sim_cycle_track *t, sim_cycle *out) {
  // The word and outcomes are terminated strings, read as strings only
  // (poincare.c copies them as such): their bytes past the terminators are
  // not cleared, a store of 200 bytes a cycle spared.
  out->returned = false;
  out->angle = out->rate = out->t = 0;
  out->end = ZENO_OUTCOME_RUNNING;
  out->word[0] = out->outcomes[0] = '\0';
  out->loop_only = false;
  out->tie_margin = SIM_TIE_NONE;
  sim_cycle_track_clear(t, out);
}

void sim_cycle_track_clear(sim_cycle_track *t, sim_cycle *out) {
  // Field by field: a compound literal became a `rep stos`, slow to start.
  t->out = out;
  t->word_len = t->outcomes_len = 0;
  t->sections = t->events = 0;
  t->impacts = 0;
  t->first_speed = 0;
  t->all_tie = SIM_TIE_NONE;
}

static bool append(char *buf, size_t *len, const char *token) {
  return sim_cycle_append(buf, len, token, strlen(token));
}

static bool append_mode(cycle_run *r) {
  char name[ZENO_MODE_NAME_SIZE];
  return append(r->k.out->word, &r->k.word_len, zeno_mode_name(r->s->sol.mode, 2, name));
}

void sim_cycle_return(sim_cycle_track *t, const zeno_sim *s, double angle, double rate) {
  t->out->returned = true;
  t->out->angle = angle;
  t->out->rate = rate;
  t->out->t = s->t;
}

bool sim_cycle_segment_end(sim_cycle_track *t, zeno_sim *s, const zf_crossing *cr, int n,
                           const double c[4], const double cd[4], const double cdd[4]) {
  if (n == 0 || cr[0].tau >= s->scene.t_end - s->t) {
    sim_note_near_misses(s, c, cd, cdd, s->scene.t_end - s->t);
    sim_cycle_take_tie(t, &s->tie, SIM_TIE_NONE, true);
    t->out->end = ZENO_OUTCOME_TIME_LIMIT;
    return true;
  }
  if (cr[0].guard != ZENO_GUARD_ESCAPE) return false;
  sim_cycle_take_tie(t, &s->tie, SIM_TIE_NONE, true);  // the END event: nothing new noted
  t->out->end = ZENO_OUTCOME_ESCAPED;
  return true;
}

bool sim_cycle_finish(const sim_cycle_track *t, const zeno_sim *s, bool done) {
  sim_cycle *out = t->out;
  out->word_len = t->word_len;
  out->outcomes_len = t->outcomes_len;
  if (!scene_units_trivial(s->units)) {  // as the event loop reports them
    out->rate = scene_units_to_user(s->units, SCENE_DIM_SPEED, out->rate);
    out->t = scene_units_to_user(s->units, SCENE_DIM_TIME, out->t);
  }
  return done && t->all_tie >= SIM_CYCLE_TIE_FLOOR;
}

static void take_tie(cycle_run *r, bool counts) {
  sim_cycle_take_tie(&r->k, &r->s->tie, SIM_TIE_NONE, counts);
}

// handle_crossing() of sim.c without the event record.
static step crossing(cycle_run *r, const sim_hits *hits, double vscale) {
  zeno_sim *s = r->s;
  if (++r->k.events > SIM_CYCLE_MAX_EVENTS) return STEP_HAND_BACK;
  const bool *gap_hit = hits->gap;
  const tolerances tol = sim_make_tol(s, vscale);
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = s->sol.mode.letter[i] != ZENO_LETTER_F || gap_hit[i];
  zm_class cls;
  sim_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < 2; i++) {
    if (hits->slip[i]) cls.slip[i] = ZM_SLIP_ZERO;
    if (s->sol.mode.letter[i] != ZENO_LETTER_F) cls.gap[i] = ZM_GAP_CLOSED;
    if (cls.gap[i] != ZM_GAP_OPEN) s->q[i] = 0;  // the gaps of touching contacts
  }
  const double rate_before = s->qd[1];
  double c[4], cd[4];
  sim_contacts(s, s->q, s->qd, c, cd);
  sim_note_grazing(s, gap_hit, cd, vscale);
  bool impacted = false, section = false;
  double angle = 0, speed = 0;
  zi_result res;
  if (gap_hit[0] || gap_hit[1]) {
    zi_input in;
    unsigned touched;
    speed = sim_impact_input(s, &cls, gap_hit, cd, &tol, &in, &touched);
    impacted = speed > 0;
    if (impacted) {
      section = sim_on_section(s, &cls, in.v, &angle);
      if (!zi_resolve(&s->dyn, &in, &res)) return STEP_HAND_BACK;
      if (!append(r->k.out->word, &r->k.word_len, zeno_impact_name(res.mask, 2)))
        return STEP_HAND_BACK;
      sim_impact_apply(s, &in, &res, &tol, &cls);
      if (r->k.impacts++ == 0) r->k.first_speed = speed;
    }
  }
  if (!impacted) sim_enforce(s, &cls);
  sim_contacts(s, s->q, s->qd, c, cd);
  sim_note_small_speeds(s, &cls, gap_hit, cd, tol.v, vscale);
  s->vscale = fmax(sim_speed_of(s, cd), tol.v);
  const zeno_mode before = s->sol.mode;
  sim_choose_next(s, &cls, &tol);
  const bool rest = s->end_pending && s->pending_outcome == ZENO_OUTCOME_REST;
  // Ambiguous or inconsistent: the run ends there, with the event loop's record.
  if (s->end_pending && !rest) return STEP_HAND_BACK;
  if (section && ++r->k.sections == 2) {
    // The return: R and G are fixed before its impact, which is the last
    // step of the cycle's word; its tie margin is the next cycle's.
    take_tie(r, false);
    sim_cycle_return(&r->k, s, angle, rate_before);
    return STEP_DONE;
  }
  const bool changed = memcmp(&before, &s->sol.mode, sizeof before) != 0;
  if ((changed || impacted) && !append_mode(r)) return STEP_HAND_BACK;
  if (impacted) {
    if (!rest && !sim_zeno_quiet(s, r->k.impacts, speed, r->k.first_speed)) return STEP_HAND_BACK;
    char letters[3] = {zeno_letter_name((zeno_letter)res.letter[0]),
                       zeno_letter_name((zeno_letter)res.letter[1]), '\0'};
    if (!append(r->k.out->outcomes, &r->k.outcomes_len, letters)) return STEP_HAND_BACK;
  }
  take_tie(r, true);
  if (rest) {
    r->k.out->end = ZENO_OUTCOME_REST;
    return STEP_DONE;  // the END event that follows notes no tie
  }
  return STEP_ON;
}

// flow_to_event() of sim.c: the segment to its first guard crossing.
static step flow(cycle_run *r) {
  zeno_sim *s = r->s;
  zf_crossing cr[ZF_MAX_CROSSINGS];
  double qddp[3], c[4], cd[4], cdd[4];
  const int n = sim_zod_crossings(s, qddp, c, cd, cdd, cr);
  if (sim_cycle_segment_end(&r->k, s, cr, n, c, cd, cdd)) return STEP_DONE;
  const double tau = cr[0].tau;
  const double vstart = sim_speed_of(s, cd);
  zf_advance(s->q, s->qd, qddp, tau, s->q, s->qd);
  s->t += tau;
  double c1[4], cd1[4];
  sim_contacts(s, s->q, s->qd, c1, cd1);
  const double vscale = fmax(fmax(vstart, sim_speed_of(s, cd1)), s->km.accel_scale * tau);
  const sim_hits hits = sim_crossing_hits(s, cr, n);
  sim_note_crossing_ties(s, cr, n, c, cd, cdd);
  return crossing(r, &hits, vscale);
}

// emit_start() and emit_start_impact() of sim.c for a start on an impact.
static step start(cycle_run *r) {
  zeno_sim *s = r->s;
  double c[4], cd[4];
  sim_contacts(s, s->q, s->qd, c, cd);
  s->vscale = sim_speed_of(s, cd);
  if (!(s->vscale > 0)) return STEP_HAND_BACK;
  const tolerances tol = sim_make_tol(s, s->vscale);
  const double gap_tol = sim_start_gap_tol(s), radius = s->scene.escape_radius;
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = fabs(c[2 * i]) <= gap_tol;
  zm_class cls;
  sim_classify(s, touching, tol.v, &cls);
  memset(&s->sol, 0, sizeof s->sol);
  bool impact = false;
  for (int i = 0; i < 2; i++) {
    static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
    impact = impact || cls.gap[i] == ZM_GAP_IMPACTING;
    s->sol.mode.letter[i] = cls.gap[i] == ZM_GAP_CLOSED ? by_slip[cls.slip[i]] : ZENO_LETTER_F;
    if (cls.gap[i] != ZM_GAP_OPEN) s->q[i] = 0;
  }
  for (int a = 0; a < 4; a++)
    if (!(fabs(c[a]) < radius)) return STEP_HAND_BACK;
  if (!impact) return STEP_HAND_BACK;
  take_tie(r, true);  // the START event
  sim_contacts(s, s->q, s->qd, c, cd);
  sim_hits hits = {0};
  for (int i = 0; i < 2; i++)
    hits.gap[i] = s->sol.mode.letter[i] == ZENO_LETTER_F && fabs(c[2 * i]) <= gap_tol &&
                  cd[2 * i] < 0;
  return crossing(r, &hits, s->vscale);
}

bool sim_cycle_run(zeno_sim *s, const double qdp[3], sim_cycle *out) {
  if (sim_kernel_cycle(s, qdp, out)) return true;
  return !out->loop_only && sim_cycle_run_steps(s, qdp, out);
}

bool sim_cycle_run_steps(zeno_sim *s, const double qdp[3], sim_cycle *out) {
  // A wall-clock limit is checked between the event loop's events.
  if (s == NULL || !sim_has_table(s) || s->km.n != 2 || s->scene.wall_time > 0) return false;
  const double zero[3] = {0, 0, 0};
  if (sim_restart_zod(s, zero, qdp) != ZENO_OK) return false;
  cycle_run r = {.s = s};
  sim_cycle_track_init(&r.k, out);
  step st = start(&r);
  while (st == STEP_ON) st = flow(&r);
  return sim_cycle_finish(&r.k, s, st == STEP_DONE);
}
