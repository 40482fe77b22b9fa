// Queries on a simulator: dense output, summary, word, and zeno_run().
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"

/* ---- the user's units ---------------------------------------------------- */

// Converts n values of dimension d.
static void to_user(const zeno_sim *s, scene_dim d, double *v, size_t n) {
  for (size_t k = 0; k < n; k++) v[k] = scene_units_to_user(s->units, d, v[k]);
}

void sim_state_to_user(const zeno_sim *s, zeno_state *st) {
  if (scene_units_trivial(s->units)) return;
  const scene_dim L = SCENE_DIM_LENGTH, V = SCENE_DIM_SPEED;
  to_user(s, SCENE_DIM_TIME, &st->t, 1);
  to_user(s, L, st->q, 2);
  to_user(s, V, st->qdot, 2);
  to_user(s, SCENE_DIM_RATE, &st->qdot[2], 1);
  const size_t n = (size_t)s->scene.contact_count;
  to_user(s, L, st->gap, n);
  to_user(s, V, st->gap_rate, n);
  to_user(s, L, st->slip, n);
  to_user(s, V, st->slip_rate, n);
  // q' is (z1, z2, x2) for two contacts, (z1, x1, theta) for one.
  const bool angle = s->multi != NULL ? sim_multi_zod_angle(s) : s->km.n == 1;
  to_user(s, L, st->zod, angle ? 2 : 3);
  to_user(s, V, st->zod_rate, angle ? 2 : 3);
  if (angle) to_user(s, SCENE_DIM_RATE, &st->zod_rate[2], 1);
  for (size_t i = 0; i < n; i++) to_user(s, SCENE_DIM_FORCE, st->force[i], 2);
  to_user(s, SCENE_DIM_ENERGY, &st->energy, 1);
}

void sim_event_to_user(const zeno_sim *s, zeno_event *ev) {
  if (scene_units_trivial(s->units)) return;
  to_user(s, SCENE_DIM_TIME, &ev->t, 1);
  to_user(s, SCENE_DIM_TIME, &ev->zeno_error, 1);
  to_user(s, SCENE_DIM_ENERGY, &ev->energy_gain, 1);
  for (int i = 0; i < s->scene.contact_count; i++) to_user(s, SCENE_DIM_IMPULSE, ev->impulse[i], 2);
  sim_state_to_user(s, &ev->before);
  sim_state_to_user(s, &ev->after);
}

/* ---- queries --------------------------------------------------------------- */

zeno_status zeno_sim_state_at(const zeno_sim *s, double user_t, zeno_state *st, zeno_error *error) {
  if (s == NULL || st == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "simulator and state are required");
  if (!isfinite(user_t))
    return zeno_fail(error, ZENO_ERR_RANGE, "t", "time %g is not finite", user_t);
  const double t = scene_units_from_user(s->units, SCENE_DIM_TIME, user_t);
  if (s->multi != NULL) {
    const zeno_status got = sim_multi_state_at(s, t, st, error);
    if (got == ZENO_OK) sim_state_to_user(s, st);
    return got;
  }
  if (s->run.hist_len == 0 || t < s->hist[0].t0 || t > s->hist[s->run.hist_len - 1].t1) {
    if (t == s->run.t) {
      sim_fill_state(s, s->run.t, s->run.q, s->run.qd, &s->run.sol, st);
      sim_state_to_user(s, st);
      return ZENO_OK;
    }
    return zeno_fail(error, ZENO_ERR_RANGE, "t",
                     "time %g outside the simulated (and kept) part of the run", user_t);
  }
  // Last segment starting at or before t (later segments win at shared ends).
  size_t lo = 0, hi = s->run.hist_len - 1;
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (s->hist[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  const segment *g = &s->hist[lo];
  double q[3], qd[3];
  const double tau = t - g->t0;
  if (g->full) {
    sim_full_sample(s, g, t, q, qd);
  } else if (g->zeno_tail) {
    for (int k = 0; k < 3; k++) {
      q[k] = g->q0[k] + g->qdd[k] * tau;
      qd[k] = g->qd0[k];
    }
  } else {
    flow_advance(g->q0, g->qd0, g->qdd, tau, q, qd);
  }
  mode_solution sol;
  memset(&sol, 0, sizeof sol);
  sol.mode = g->mode;
  memcpy(sol.force, g->force, sizeof sol.force);
  sim_fill_state(s, t, q, qd, &sol, st);
  sim_state_to_user(s, st);
  return ZENO_OK;
}

void zeno_sim_summary(const zeno_sim *s, zeno_summary *sum) {
  memset(sum, 0, sizeof *sum);
  sum->outcome = s->run.outcome;
  sum->t = s->run.t;
  sum->events = s->run.event_count;
  sum->impacts = s->run.impact_count;
  sum->has_zeno = s->run.has_zeno;
  sum->zeno_time = s->run.has_zeno ? s->run.first_zeno_time : NAN;
  sum->zeno_impacts = s->run.first_zeno_impacts;
  sum->energy_gains = s->run.energy_gains;
  sum->energy_gain_max = s->run.energy_gain_max;
  if (s->multi != NULL) sim_multi_final_state(s, &sum->final_state);
  else sim_fill_state(s, s->run.t, s->run.q, s->run.qd, &s->run.sol, &sum->final_state);
  sim_state_to_user(s, &sum->final_state);
  sum->t = scene_units_to_user(s->units, SCENE_DIM_TIME, sum->t);
  if (s->run.has_zeno)
    sum->zeno_time = scene_units_to_user(s->units, SCENE_DIM_TIME, sum->zeno_time);
  sum->section_count = s->run.section_count < ZENO_SUMMARY_SECTIONS ? s->run.section_count
                                                                    : ZENO_SUMMARY_SECTIONS;
  memcpy(sum->section_angles, s->run.sections, sizeof sum->section_angles);
}

void zeno_sim_zod_names(const zeno_sim *s, char names[3][ZENO_ZOD_NAME_SIZE]) {
  if (s->multi != NULL) sim_multi_zod_names(s, names);
  else sim_pair_zod_names(s->km.n, names);
}

size_t zeno_sim_word(const zeno_sim *s, char *buf, size_t size) {
  const char *w = s->multi != NULL ? sim_multi_word(s) : s->word ? s->word : "";
  const size_t length = strlen(w);
  if (size > 0) {
    const size_t kept = length < size ? length : size - 1;
    memcpy(buf, w, kept);
    buf[kept] = '\0';
  }
  return length;
}

// Runs the event loop to the end with lean records: nothing reads the
// events but the loop (a ZOD run only; the summary is the simulator's own,
// energy gains included).
static zeno_status run_events(zeno_sim *s, zeno_error *error) {
  const bool lean = s->lean_events;
  sim_set_lean_events(s, true);
  zeno_event ev;
  zeno_status st;
  while ((st = zeno_sim_next_event(s, &ev, error)) == ZENO_OK) {
  }
  s->lean_events = lean;
  return st == ZENO_DONE ? ZENO_OK : st;
}

zeno_status zeno_sim_run(zeno_sim *s, zeno_error *error) {
  zeno_error local;
  if (error == NULL) error = &local;  // the returned code comes from it
  if (s == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "simulator is required");
  if (s->run.started || !sim_kernel_runs(s)) return run_events(s, error);
  if (sim_kernel_prepare(s) != ZENO_OK)
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory for the simulator's kernel");
  double q[3], qd[3];
  memcpy(q, s->run.q, sizeof q);
  memcpy(qd, s->run.qd, sizeof qd);
  const bool lean = s->lean_events;
  sim_set_lean_events(s, true);
  zeno_status st = ZENO_OK;
  for (;;) {
    const sim_kernel_end end = sim_kernel_run(s);
    if (end == SIM_KERNEL_DONE) break;
    if (end == SIM_KERNEL_BACK) {
      sim_restart_zod(s, q, qd);  // the event loop makes the run from its start
      break;
    }
    // The loop's events until the kernel can go on: a Zeno completion (and
    // any it leads to), a diverging end.
    zeno_event ev;
    do {
      st = zeno_sim_next_event(s, &ev, error);
    } while (st == ZENO_OK && !s->run.finished && (s->run.zeno_pending || s->run.end_pending));
    if (st != ZENO_OK || s->run.finished) break;
  }
  if (st == ZENO_OK && !s->run.finished) st = run_events(s, error);
  s->lean_events = lean;
  return st;
}

// One run of a fresh simulator: the event loop, since the kernel's data
// (every impact map made) cost more than the run saves.
zeno_status zeno_run(const zeno_scene *scene, const zeno_sim_def *def, zeno_summary *summary,
                     char *word, size_t word_size, zeno_error *error) {
  zeno_error local;
  if (error == NULL) error = &local;  // the returned code comes from it
  zeno_sim_def d = def ? *def : zeno_sim_def_default();
  d.keep_history = false;
  zeno_sim *s = zeno_sim_create(scene, &d, error);
  if (s == NULL) return error->code;
  const zeno_status st = run_events(s, error);
  if (st == ZENO_ERR_INTERRUPTED) {  // no part of a run stopped half-way
    if (summary) memset(summary, 0, sizeof *summary);
    if (word && word_size > 0) word[0] = '\0';
  } else {
    if (summary) zeno_sim_summary(s, summary);
    if (word) zeno_sim_word(s, word, word_size);
  }
  zeno_sim_destroy(s);
  return st;
}
