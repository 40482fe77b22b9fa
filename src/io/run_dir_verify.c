// Verifying a run directory read back (zeno/run_dir.h): its events
// numbered from the start and ordered in time, its last the end; its rows
// each of an event, in the writer's order (samples, then the states before
// and after the event); its contacts those of the run; its start that of
// the run's scene. Every error names the file and the line.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/run_dir_internal.h"
#include "zeno/io.h"

/// Agreement asked of the start read back and the start of the scene,
/// relative to the largest magnitude of the quantity compared (the pose,
/// the velocities, the ZOD coordinates, their rates, the forces): the
/// writer's 17 significant digits read back bit for bit, so on the machine
/// that wrote the run the start is found again exactly; the margin lets
/// another machine's libm (sin and cos an ulp or two apart, carried through
/// the contact solve: some 1e-15) pass, while a scene or an override of
/// other values moves the start by far more.
#define RUN_DIR_START_TOL 1e-9

/// The line of events.jsonl that holds event i (one a line), of
/// trajectory.csv that holds row i (after the header).
#define EVENT_LINE(i) ((int)(i) + 1)
#define ROW_LINE(i) ((int)(i) + 2)

typedef struct verifier {
  const char *dir;
  char *events, *trajectory;  ///< the files' paths, for messages
  const zeno_run_dir_data *d;
  zeno_error *error;
} verifier;

/// An error at line `line` of `path` (the column unknown: 1).
#define FAIL_AT(v, path, line, ...) \
  zeno_fail_at((v)->error, ZENO_ERR_SYNTAX, (path), (line), 1, "", __VA_ARGS__)

// Events: numbered 0, 1, ... one a line, the first the start and only the
// last the end (a file cut at a line boundary has lost it), times finite
// and never going back, contacts those of the run.
static zeno_status check_events(const verifier *v) {
  const zeno_run_dir_data *d = v->d;
  for (size_t i = 0; i < d->event_count; i++) {
    const zeno_run_dir_event *e = &d->events[i];
    const int line = EVENT_LINE(i);
    if (e->index != (long)i)
      return FAIL_AT(v, v->events, line,
                     "event %ld where event %zu is expected: events are numbered from 0, one a "
                     "line (an event deleted, duplicated or moved)",
                     e->index, i);
    if ((i == 0) != (e->kind == ZENO_EVENT_START))
      return FAIL_AT(v, v->events, line, "%s",
                     i == 0 ? "the first event is not the start" : "a second start event");
    if (e->kind == ZENO_EVENT_END && i + 1 < d->event_count)
      return FAIL_AT(v, v->events, line, "%s", "an end event before the last event");
    if (!isfinite(e->t)) return FAIL_AT(v, v->events, line, "the time is %g, not finite", e->t);
    if (i > 0 && e->t < d->events[i - 1].t)
      return FAIL_AT(v, v->events, line, "%s", "time going back");
    if (e->contact < -1 || e->contact >= d->contact_count)
      return FAIL_AT(v, v->events, line, "contact %d is not a contact of the run", e->contact + 1);
  }
  if (d->event_count == 0 || d->events[d->event_count - 1].kind != ZENO_EVENT_END)
    return FAIL_AT(v, v->events, EVENT_LINE(d->event_count > 0 ? d->event_count - 1 : 0), "%s",
                   "the last event is not the run's end (kind end): the file was cut short");
  return ZENO_OK;
}

/// Where the rows of an event are: its samples, then its state before,
/// then after.
typedef enum row_phase { PHASE_SAMPLES, PHASE_BEFORE } row_phase;

// Rows: each of an event of the file, in the writer's order: for event e
// its samples strictly between the times of events e - 1 and e (none for
// the start), then its states before and after, at its time; times finite.
static zeno_status check_rows(const verifier *v) {
  const zeno_run_dir_data *d = v->d;
  size_t e = 0;  // the event whose rows come
  row_phase phase = PHASE_SAMPLES;
  for (size_t i = 0; i < d->row_count; i++) {
    const zeno_run_dir_row *r = &d->rows[i];
    const int line = ROW_LINE(i);
    if (!isfinite(r->t)) return FAIL_AT(v, v->trajectory, line, "the time is %g, not finite", r->t);
    if (r->event < 0 || (size_t)r->event >= d->event_count)
      return FAIL_AT(v, v->trajectory, line, "a row of event %ld, which '%s' does not hold",
                     r->event, v->events);
    const bool wanted = e < d->event_count && (size_t)r->event == e &&
                        (phase == PHASE_SAMPLES ? r->kind != ZENO_ROW_AFTER
                                                : r->kind == ZENO_ROW_AFTER);
    if (!wanted)
      return FAIL_AT(v, v->trajectory, line,
                     "a row '%s' of event %ld where the rows of event %zu are expected (its "
                     "samples, then before, then after: a row deleted, duplicated or moved)",
                     zeno_run_dir_row_kind_name(r->kind), r->event, e);
    const double t_event = d->events[e].t;
    if (r->kind == ZENO_ROW_SAMPLE && !(e > 0 && r->t > d->events[e - 1].t && r->t < t_event))
      return FAIL_AT(v, v->trajectory, line,
                     "a sample at t = %.17g, not between the times of events %zu and %zu", r->t,
                     e > 0 ? e - 1 : 0, e);
    if (r->kind != ZENO_ROW_SAMPLE && r->t != t_event)
      return FAIL_AT(v, v->trajectory, line,
                     "the state %s event %zu at t = %.17g, not at the event's time %.17g",
                     r->kind == ZENO_ROW_BEFORE ? "before" : "after", e, r->t, t_event);
    if (r->kind == ZENO_ROW_BEFORE) phase = PHASE_BEFORE;
    if (r->kind == ZENO_ROW_AFTER) {
      phase = PHASE_SAMPLES;
      e++;
    }
  }
  if (e < d->event_count)
    return FAIL_AT(v, v->trajectory, ROW_LINE(d->row_count) - 1,
                   "the rows of event %zu and after are missing: the file was cut short", e);
  return ZENO_OK;
}

/// Whether a and b (n values each) agree within RUN_DIR_START_TOL of their
/// largest magnitude.
static bool agree(const double *a, const double *b, int n) {
  double scale = 0;
  for (int k = 0; k < n; k++) scale = fmax(scale, fmax(fabs(a[k]), fabs(b[k])));
  for (int k = 0; k < n; k++)
    if (!(fabs(a[k] - b[k]) <= RUN_DIR_START_TOL * scale)) return false;
  return true;
}

/// Whether a row read back is the state `s` of the scene's start.
static bool row_is_state(const zeno_run_dir_row *r, const zeno_state *s, int contacts) {
  const zeno_run_dir_row want = zeno_run_dir_row_from_state(s);
  return agree(&r->t, &want.t, 1) && agree(r->q, want.q, 3) && agree(r->qdot, want.qdot, 3) &&
         agree(r->zod, want.zod, 3) && agree(r->zod_rate, want.zod_rate, 3) &&
         agree(&r->force[0][0], &want.force[0][0], 2 * contacts) &&
         memcmp(r->mode.letter, want.mode.letter, (size_t)contacts) == 0;
}

// The start: the scene's contact count, and its start event (the
// simulator's first) as the first event and rows say.
static zeno_status check_start(const verifier *v, const zeno_scene *scene) {
  const zeno_run_dir_data *d = v->d;
  if (scene->contact_count != d->contact_count)
    return FAIL_AT(v, v->trajectory, 1,
                   "the rows have %d contact(s), the run's scene ('%s/%s' with '%s/%s') %d",
                   d->contact_count, v->dir, ZENO_RUN_DIR_SCENE, v->dir, ZENO_RUN_DIR_OVERRIDES,
                   scene->contact_count);
  const zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *sim = zeno_sim_create(scene, &def, v->error);
  if (sim == NULL) return v->error ? v->error->code : ZENO_ERR_ARGUMENT;
  zeno_event start;
  zeno_status st = zeno_sim_next_event(sim, &start, v->error);
  zeno_sim_destroy(sim);
  if (st != ZENO_OK) return st;
  const int n = d->contact_count;
  const zeno_run_dir_event *e = &d->events[0];
  if (!agree(&e->t, &start.t, 1) ||
      memcmp(e->mode_after.letter, start.mode_after.letter, (size_t)n) != 0)
    return FAIL_AT(v, v->events, EVENT_LINE(0),
                   "the start event is not that of the run's scene ('%s/%s' with '%s/%s')", v->dir,
                   ZENO_RUN_DIR_SCENE, v->dir, ZENO_RUN_DIR_OVERRIDES);
  for (size_t i = 0; i < 2; i++)  // the rows before and after the start (check_rows)
    if (!row_is_state(&d->rows[i], i == 0 ? &start.before : &start.after, n))
      return FAIL_AT(v, v->trajectory, ROW_LINE(i),
                     "the start state is not that of the run's scene ('%s/%s' with '%s/%s')",
                     v->dir, ZENO_RUN_DIR_SCENE, v->dir, ZENO_RUN_DIR_OVERRIDES);
  return ZENO_OK;
}

zeno_status zeno_run_dir_verify(const char *dir, const zeno_run_dir_data *data,
                                const zeno_scene *scene, zeno_error *error) {
  if (dir == NULL || data == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and data are required");
  verifier v = {dir, zeno_io_path_join(dir, ZENO_RUN_DIR_EVENTS),
                zeno_io_path_join(dir, ZENO_RUN_DIR_TRAJECTORY), data, error};
  zeno_status st = v.events && v.trajectory ? check_events(&v)
                                            : zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  if (st == ZENO_OK) st = check_rows(&v);
  if (st == ZENO_OK && scene != NULL) st = check_start(&v, scene);
  free(v.events);
  free(v.trajectory);
  return st;
}
