// One run for the viewer: recorded live from a zeno_sim or read from a run
// directory, both by the library (zeno/run_dir.h: the same rows and events
// `zeno simulate --out` writes), and sampled at any time.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

void view_run_free(view_run *run) {
  zeno_sim_destroy(run->sim);
  zeno_run_dir_data_free(&run->data);
  memset(run, 0, sizeof *run);
}

void view_run_finish(view_run *run) {
  run->t_end = 0;
  run->has_zeno = false;
  run->outcome = ZENO_OUTCOME_RUNNING;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const zeno_run_dir_event *e = &run->data.events[i];
    if (isfinite(e->t)) run->t_end = fmax(run->t_end, e->t);
    if (e->kind == ZENO_EVENT_ZENO && !run->has_zeno) {
      run->has_zeno = true;
      run->zeno_time = e->t;
    }
    if (e->kind == ZENO_EVENT_END) run->outcome = e->outcome;
  }
}

zeno_status view_run_simulate(view_run *run, const zeno_scene *scene, zeno_error *error) {
  memset(run, 0, sizeof *run);
  run->scene = *scene;
  if (run->scene.max_events > VIEW_MAX_LIVE_EVENTS) run->scene.max_events = VIEW_MAX_LIVE_EVENTS;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = true;
  run->sim = zeno_sim_create(&run->scene, &def, error);
  if (run->sim == NULL) return error ? error->code : ZENO_ERR_ARGUMENT;
  run->data.contact_count = run->scene.contact_count;
  zeno_event ev;
  zeno_status status;
  while ((status = zeno_sim_next_event(run->sim, &ev, error)) == ZENO_OK &&
         (status = zeno_run_dir_record(&run->data, run->sim, &ev, error)) == ZENO_OK) {
  }
  if (status != ZENO_DONE) {
    view_run_free(run);
    return status;
  }
  view_run_finish(run);
  return ZENO_OK;
}

// Rows at a non-finite time cannot be drawn (a state of an unbounded run).
static void drop_unplottable_rows(zeno_run_dir_data *d) {
  size_t kept = 0;
  for (size_t i = 0; i < d->row_count; i++)
    if (isfinite(d->rows[i].t)) d->rows[kept++] = d->rows[i];
  d->row_count = kept;
}

zeno_status view_run_load(view_run *run, const zeno_scene *scene, const char *dir,
                          zeno_error *error) {
  memset(run, 0, sizeof *run);
  run->scene = *scene;
  run->data.contact_count = scene->contact_count;
  const zeno_status st = zeno_run_dir_read(dir, &run->data, error);
  if (st != ZENO_OK) {
    view_run_free(run);
    return st;
  }
  drop_unplottable_rows(&run->data);
  view_run_finish(run);
  return ZENO_OK;
}

/// Index of the last row with t <= time (0 when none).
static size_t row_at(const view_run *run, double t) {
  if (run->data.row_count == 0 || run->data.rows[0].t > t) return 0;
  size_t lo = 0, hi = run->data.row_count - 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;
    if (run->data.rows[mid].t <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static void lerp(double *out, const double *a, const double *b, double s, int n) {
  for (int k = 0; k < n; k++) out[k] = a[k] + s * (b[k] - a[k]);
}

static void interpolate_rows(const view_run *run, double t, zeno_run_dir_row *out) {
  if (run->data.row_count == 0) {
    memset(out, 0, sizeof *out);
    out->t = t;
    return;
  }
  const size_t i = row_at(run, t);
  *out = run->data.rows[i];
  if (i + 1 >= run->data.row_count || run->data.rows[i].t >= t) return;
  const zeno_run_dir_row *a = &run->data.rows[i], *b = &run->data.rows[i + 1];
  if (!(b->t > a->t)) return;
  const double s = (t - a->t) / (b->t - a->t);
  out->t = t;
  lerp(out->q, a->q, b->q, s, 3);
  lerp(out->qdot, a->qdot, b->qdot, s, 3);
  lerp(out->zod, a->zod, b->zod, s, 3);
  lerp(out->zod_rate, a->zod_rate, b->zod_rate, s, 3);
  lerp(&out->force[0][0], &a->force[0][0], &b->force[0][0], s, 2 * run->scene.contact_count);
}

void view_run_state(const view_run *run, double t, zeno_run_dir_row *state) {
  t = fmin(fmax(t, 0), run->t_end);
  zeno_state st;
  // An event time gives the row after the event (the dense output's
  // velocities there are post-impact too, but the row also has the new mode).
  const size_t i = row_at(run, t);
  const bool on_row = run->data.row_count > 0 && run->data.rows[i].t == t;
  if (run->sim != NULL && !on_row && zeno_sim_state_at(run->sim, t, &st, NULL) == ZENO_OK) {
    *state = zeno_run_dir_row_from_state(&st);
    return;
  }
  interpolate_rows(run, t, state);
}

static int append(char *buffer, int size, int length, const char *token) {
  const int n = (int)strlen(token) + (length ? 1 : 0);
  if (length + n < size)
    snprintf(buffer + length, (size_t)(size - length), "%s%s", length ? " " : "", token);
  return length + n;
}

/// Whether the library spells the mode after event i: not when the run
/// stops right after it because no mode, or no single mode, is consistent
/// (the mode is then never entered).
static bool mode_entered(const view_run *run, size_t i) {
  if (i + 1 >= run->data.event_count) return true;
  const zeno_run_dir_event *next = &run->data.events[i + 1];
  return next->kind != ZENO_EVENT_END ||
         (next->outcome != ZENO_OUTCOME_AMBIGUOUS && next->outcome != ZENO_OUTCOME_INCONSISTENT);
}

int view_run_word(const view_run *run, double t, char *buffer, int size) {
  const int count = run->scene.contact_count;
  char name[ZENO_MODE_NAME_SIZE];
  int length = 0;
  if (size > 0) buffer[0] = '\0';
  for (size_t i = 0; i < run->data.event_count; i++) {
    const zeno_run_dir_event *e = &run->data.events[i];
    if (!(e->t <= t)) break;
    bool spell_mode = mode_entered(run, i);
    if (e->kind == ZENO_EVENT_IMPACT)
      length = append(buffer, size, length, zeno_impact_word(e->impact_mask, count, name));
    else if (e->kind == ZENO_EVENT_ZENO) length = append(buffer, size, length, "Z");
    else if (e->kind == ZENO_EVENT_TRANSITION)
      spell_mode = spell_mode && memcmp(&e->mode_before, &e->mode_after, sizeof e->mode_after) != 0;
    else if (e->kind == ZENO_EVENT_END) spell_mode = false;
    if (spell_mode)
      length = append(buffer, size, length, zeno_mode_name(e->mode_after, count, name));
  }
  return length;
}

long view_run_impacts(const view_run *run, double t) {
  long n = 0;
  for (size_t i = 0; i < run->data.event_count && run->data.events[i].t <= t; i++)
    if (run->data.events[i].kind == ZENO_EVENT_IMPACT) n++;
  return n;
}

long view_run_event_at(const view_run *run, double t) {
  size_t k = 0;
  for (size_t i = 0; i < run->data.event_count && run->data.events[i].t <= t; i++) k = i;
  return (long)k;
}
