// The Poincaré cycle (sim_cycle.h): on the flat kernel where it takes the
// cycle, else on the event loop, whose events a recorder turns into the
// cycle's record; and the record the kernels keep as they go.
#include "sim/sim_cycle.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"

// An empty record. The word and outcomes are terminated strings, read as
// strings only (poincare.c copies them as such): their bytes past the
// terminators are not cleared, a store of 200 bytes a cycle spared.
static void cycle_clear(sim_cycle *out) {
  out->returned = false;
  out->angle = out->rate = out->t = 0;
  out->end = ZENO_OUTCOME_RUNNING;
  out->word[0] = out->outcomes[0] = '\0';
  out->word_len = out->outcomes_len = 0;
  out->tie_margin = SIM_TIE_NONE;
}

void sim_cycle_track_init(sim_cycle_track *t, sim_cycle *out) {
  cycle_clear(out);
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

void sim_cycle_return(sim_cycle_track *t, const zeno_sim *s, double angle, double rate) {
  t->out->returned = true;
  t->out->angle = angle;
  t->out->rate = rate;
  t->out->t = s->run.t;
}

bool sim_cycle_segment_end(sim_cycle_track *t, zeno_sim *s, const flow_crossing *cr, int n,
                           const double c[4], const double cd[4], const double cdd[4]) {
  const double tau_end = s->scene.t_end - s->run.t;
  const flow_end end = flow_segment_end(cr, n, tau_end, s->escape_horizon);
  if (end == FLOW_END_GUARD) return false;
  // A free contact that comes within rounding of its surface before the
  // end is a near tie of the outcome.
  sim_note_near_misses(s, c, cd, cdd, end == FLOW_END_TIME ? tau_end : cr[0].tau);
  if (end == FLOW_END_TIME) {
    sim_cycle_take_tie(t, &s->run.tie, SIM_TIE_NONE, true);
    t->out->end = ZENO_OUTCOME_TIME_LIMIT;
    return true;
  }
  sim_cycle_take_tie(t, &s->run.tie, SIM_TIE_NONE, true);  // the END event: nothing new noted
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

/* ---------- the event loop's cycle ---------- */

// The recorder: an event of the loop's cycle into its record. The return
// (the second section crossing) ends the cycle: R and G are fixed before
// its impact, whose tie margin is the next cycle's. Returns true there.
static bool record_event(sim_cycle *out, int *sections, const zeno_event *ev) {
  if (ev->on_section && ++*sections == 2) {
    out->returned = true;
    out->angle = ev->section_angle;
    out->rate = ev->before.zod_rate[1];
    out->t = ev->t;
    return true;
  }
  out->tie_margin = fmin(out->tie_margin, ev->tie_margin);
  // Letter pairs separated by blanks while a pair, its blank and the
  // terminator fit with a byte to spare; the loop's cycle goes on past
  // them (the kernel hands such a cycle back, sim_cycle_append).
  if (ev->kind == ZENO_EVENT_IMPACT && out->outcomes_len + 4 < SIM_CYCLE_WORD) {
    char *o = out->outcomes;
    if (out->outcomes_len) o[out->outcomes_len++] = ' ';
    o[out->outcomes_len++] = zeno_letter_name((zeno_letter)ev->impact_letter[0]);
    o[out->outcomes_len++] = zeno_letter_name((zeno_letter)ev->impact_letter[1]);
    o[out->outcomes_len] = '\0';
  }
  if (ev->kind == ZENO_EVENT_END) out->end = ev->outcome;
  return false;
}

// The cycle's word from the run's: the first token (the start's
// pseudo-mode) dropped, and for a returning cycle the last (the mode after
// the return impact); cut to what fits.
static void record_word(const zeno_sim *s, sim_cycle *out) {
  const char *word = s->word ? s->word : "";
  const char *start = strchr(word, ' ');
  start = start ? start + 1 : word + strlen(word);
  size_t len = strlen(start);
  if (out->returned) {
    const char *last = strrchr(start, ' ');
    len = last ? (size_t)(last - start) : 0;
  }
  if (len >= SIM_CYCLE_WORD) len = SIM_CYCLE_WORD - 1;
  memcpy(out->word, start, len);
  out->word[len] = '\0';
  out->word_len = len;
}

zeno_status sim_cycle_run_loop(zeno_sim *s, const double qdp[3], sim_cycle *out,
                               zeno_error *error) {
  const double zero[3] = {0, 0, 0};
  if (s == NULL || sim_restart_zod(s, zero, qdp) != ZENO_OK)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "cycles run on a ZOD simulator");
  cycle_clear(out);
  int sections = 0;
  zeno_event ev;
  zeno_status st;
  zeno_error run_error;
  while ((st = zeno_sim_next_event(s, &ev, &run_error)) == ZENO_OK)
    if (record_event(out, &sections, &ev)) break;
  // An iterator failure (out of memory) must not pass for an undefined R.
  if (st != ZENO_OK && st != ZENO_DONE) {
    if (error) *error = run_error;
    return st;
  }
  record_word(s, out);
  return ZENO_OK;
}

zeno_status sim_cycle_run(zeno_sim *s, const double qdp[3], sim_cycle *out, zeno_error *error) {
  if (s != NULL && sim_kernel_cycle(s, qdp, out)) return ZENO_OK;
  return sim_cycle_run_loop(s, qdp, out, error);
}
