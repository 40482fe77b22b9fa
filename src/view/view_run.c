// One run for the viewer: recorded live from a zeno_sim (the same rows and
// events `zeno simulate --out` writes) and sampled at any time.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

/// First capacity of the row and event arrays.
#define VIEW_INITIAL_CAPACITY 256

static bool grow(void **items, long *capacity, long count, size_t size) {
  if (count < *capacity) return true;
  const long cap = *capacity ? 2 * *capacity : VIEW_INITIAL_CAPACITY;
  void *p = realloc(*items, (size_t)cap * size);
  if (p == NULL) return false;
  *items = p;
  *capacity = cap;
  return true;
}

bool view_run_add_row(view_run *run, const view_row *row) {
  if (!grow((void **)&run->rows, &run->row_capacity, run->row_count,
            sizeof *row))
    return false;
  run->rows[run->row_count++] = *row;
  return true;
}

bool view_run_add_event(view_run *run, const view_event *event) {
  if (!grow((void **)&run->events, &run->event_capacity, run->event_count,
            sizeof *event))
    return false;
  run->events[run->event_count++] = *event;
  return true;
}

void view_run_free(view_run *run) {
  zeno_sim_destroy(run->sim);
  free(run->rows);
  free(run->events);
  memset(run, 0, sizeof *run);
}

view_row view_row_from_state(const zeno_state *s) {
  view_row r;
  r.t = s->t;
  memcpy(r.q, s->q, sizeof r.q);
  memcpy(r.qdot, s->qdot, sizeof r.qdot);
  memcpy(r.zod, s->zod, sizeof r.zod);
  memcpy(r.zod_rate, s->zod_rate, sizeof r.zod_rate);
  r.mode = s->mode;
  memcpy(r.force, s->force, sizeof r.force);
  return r;
}

static view_event event_from_library(const zeno_event *e) {
  view_event v;
  memset(&v, 0, sizeof v);
  v.index = e->index;
  v.kind = e->kind;
  v.t = e->t;
  v.mode_before = e->mode_before;
  v.mode_after = e->mode_after;
  v.impact_mask = e->kind == ZENO_EVENT_IMPACT ? e->impact_mask : 0;
  memcpy(v.impulse, e->impulse, sizeof v.impulse);
  v.outcome = e->outcome;
  return v;
}

void view_run_finish(view_run *run) {
  run->t_end = 0;
  run->has_zeno = false;
  run->outcome = ZENO_OUTCOME_RUNNING;
  for (long i = 0; i < run->event_count; i++) {
    const view_event *e = &run->events[i];
    if (isfinite(e->t)) run->t_end = fmax(run->t_end, e->t);
    if (e->kind == ZENO_EVENT_ZENO && !run->has_zeno) {
      run->has_zeno = true;
      run->zeno_time = e->t;
    }
    if (e->kind == ZENO_EVENT_END) run->outcome = e->outcome;
  }
}

/// The samples k*dt strictly between t_prev and t_event, as
/// `zeno simulate --out` writes them (samples without dense output are
/// left out there too).
static bool add_samples(view_run *run, double dt, double t_prev,
                        double t_event) {
  if (dt <= 0 || !isfinite(t_event)) return true;
  for (double k = floor(t_prev / dt) + 1; k * dt < t_event; k++) {
    const double t = k * dt;
    if (t <= t_prev) continue;
    zeno_state st;
    if (zeno_sim_state_at(run->sim, t, &st) != ZENO_OK) continue;
    const view_row row = view_row_from_state(&st);
    if (!view_run_add_row(run, &row)) return false;
  }
  return true;
}

static bool record_event(view_run *run, const zeno_event *ev, double dt,
                         double t_prev, bool has_prev) {
  if (has_prev && !add_samples(run, dt, t_prev, ev->t)) return false;
  const view_row before = view_row_from_state(&ev->before);
  const view_row after = view_row_from_state(&ev->after);
  const view_event e = event_from_library(ev);
  return view_run_add_row(run, &before) && view_run_add_row(run, &after) &&
         view_run_add_event(run, &e);
}

zeno_status view_run_simulate(view_run *run, const zeno_scene *scene,
                              zeno_error *error) {
  memset(run, 0, sizeof *run);
  run->scene = *scene;
  if (run->scene.max_events > VIEW_MAX_LIVE_EVENTS)
    run->scene.max_events = VIEW_MAX_LIVE_EVENTS;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = true;
  run->sim = zeno_sim_create(&run->scene, &def, error);
  if (run->sim == NULL) return error ? error->code : ZENO_ERR_ARGUMENT;
  zeno_event ev;
  zeno_status status;
  double t_prev = 0;
  bool has_prev = false;
  while ((status = zeno_sim_next_event(run->sim, &ev)) == ZENO_OK) {
    if (!record_event(run, &ev, run->scene.sample_dt, t_prev, has_prev)) {
      status = ZENO_ERR_NOMEM;
      break;
    }
    t_prev = ev.t;
    has_prev = true;
  }
  if (status == ZENO_DONE) status = ZENO_OK;
  if (status != ZENO_OK) {
    if (error != NULL) {
      zeno_error_clear(error);
      error->code = status;
      snprintf(error->message, sizeof error->message,
               "simulation failed: %s", zeno_status_name(status));
    }
    view_run_free(run);
    return status;
  }
  view_run_finish(run);
  return ZENO_OK;
}

/// Index of the last row with t <= time (0 when none).
static long row_at(const view_run *run, double t) {
  long lo = 0, hi = run->row_count - 1;
  if (hi < 0 || run->rows[0].t > t) return 0;
  while (lo < hi) {
    const long mid = lo + (hi - lo + 1) / 2;
    if (run->rows[mid].t <= t)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

static void lerp(double *out, const double *a, const double *b, double s,
                 int n) {
  for (int k = 0; k < n; k++) out[k] = a[k] + s * (b[k] - a[k]);
}

static void interpolate_rows(const view_run *run, double t, view_row *out) {
  if (run->row_count == 0) {
    memset(out, 0, sizeof *out);
    out->t = t;
    return;
  }
  const long i = row_at(run, t);
  *out = run->rows[i];
  if (i + 1 >= run->row_count || run->rows[i].t >= t) return;
  const view_row *a = &run->rows[i], *b = &run->rows[i + 1];
  if (!(b->t > a->t)) return;
  const double s = (t - a->t) / (b->t - a->t);
  out->t = t;
  lerp(out->q, a->q, b->q, s, 3);
  lerp(out->qdot, a->qdot, b->qdot, s, 3);
  lerp(out->zod, a->zod, b->zod, s, 3);
  lerp(out->zod_rate, a->zod_rate, b->zod_rate, s, 3);
  lerp(&out->force[0][0], &a->force[0][0], &b->force[0][0], s,
       2 * ZENO_MAX_CONTACTS);
}

void view_run_state(const view_run *run, double t, view_row *state) {
  t = fmin(fmax(t, 0), run->t_end);
  zeno_state st;
  // An event time gives the row after the event (the dense output's
  // velocities there are post-impact too, but the row also has the new mode).
  const long i = row_at(run, t);
  const bool on_row = run->row_count > 0 && run->rows[i].t == t;
  if (run->sim != NULL && !on_row &&
      zeno_sim_state_at(run->sim, t, &st) == ZENO_OK) {
    *state = view_row_from_state(&st);
    return;
  }
  interpolate_rows(run, t, state);
}

static int append(char *buffer, int size, int length, const char *token) {
  const int n = (int)strlen(token) + (length ? 1 : 0);
  if (length + n < size)
    snprintf(buffer + length, (size_t)(size - length), "%s%s",
             length ? " " : "", token);
  return length + n;
}

/// Whether the library spells the mode after event i: not when the run
/// stops right after it because no mode, or no single mode, is consistent
/// (the mode is then never entered).
static bool mode_entered(const view_run *run, long i) {
  if (i + 1 >= run->event_count) return true;
  const view_event *next = &run->events[i + 1];
  return next->kind != ZENO_EVENT_END ||
         (next->outcome != ZENO_OUTCOME_AMBIGUOUS &&
          next->outcome != ZENO_OUTCOME_INCONSISTENT);
}

int view_run_word(const view_run *run, double t, char *buffer, int size) {
  const int count = run->scene.contact_count;
  char name[ZENO_MODE_NAME_SIZE];
  int length = 0;
  if (size > 0) buffer[0] = '\0';
  for (long i = 0; i < run->event_count; i++) {
    const view_event *e = &run->events[i];
    if (!(e->t <= t)) break;
    bool spell_mode = mode_entered(run, i);
    if (e->kind == ZENO_EVENT_IMPACT)
      length = append(buffer, size, length,
                      zeno_impact_name(e->impact_mask, count));
    else if (e->kind == ZENO_EVENT_ZENO)
      length = append(buffer, size, length, "Z");
    else if (e->kind == ZENO_EVENT_TRANSITION)
      spell_mode = spell_mode && memcmp(&e->mode_before, &e->mode_after,
                                        sizeof e->mode_after) != 0;
    else if (e->kind == ZENO_EVENT_END)
      spell_mode = false;
    if (spell_mode)
      length = append(buffer, size, length,
                      zeno_mode_name(e->mode_after, count, name));
  }
  return length;
}

long view_run_impacts(const view_run *run, double t) {
  long n = 0;
  for (long i = 0; i < run->event_count && run->events[i].t <= t; i++)
    if (run->events[i].kind == ZENO_EVENT_IMPACT) n++;
  return n;
}

long view_run_event_at(const view_run *run, double t) {
  long k = 0;
  for (long i = 0; i < run->event_count && run->events[i].t <= t; i++) k = i;
  return k;
}
