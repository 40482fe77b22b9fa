// The run directory (zeno/run_dir.h): its rows and events from a run, the
// sampling rule that both the in-memory recording and the writer follow,
// and the writer (trajectory.csv, events.jsonl, events.csv, the scene).
// The reader is run_dir_read.c.
#include "zeno/run_dir.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "io/run_dir_internal.h"
#include "zeno/io.h"

/* ---------- rows and events ---------- */

zeno_run_dir_row zeno_run_dir_row_from_state(const zeno_state *s) {
  zeno_run_dir_row r;
  r.t = s->t;
  memcpy(r.q, s->q, sizeof r.q);
  memcpy(r.qdot, s->qdot, sizeof r.qdot);
  memcpy(r.zod, s->zod, sizeof r.zod);
  memcpy(r.zod_rate, s->zod_rate, sizeof r.zod_rate);
  r.mode = s->mode;
  memcpy(r.force, s->force, sizeof r.force);
  r.kind = ZENO_ROW_SAMPLE;
  r.event = -1;
  return r;
}

/// The row of a state of the run directory: `kind` of event `event`.
static zeno_run_dir_row event_row(const zeno_state *s, zeno_run_dir_row_kind kind, long event) {
  zeno_run_dir_row r = zeno_run_dir_row_from_state(s);
  r.kind = kind;
  r.event = event;
  return r;
}

zeno_run_dir_event zeno_run_dir_event_from_event(const zeno_event *e) {
  zeno_run_dir_event v;
  memset(&v, 0, sizeof v);
  v.index = e->index;
  v.kind = e->kind;
  v.guard = e->guard;
  v.contact = e->contact;
  v.t = e->t;
  v.mode_before = e->mode_before;
  v.mode_after = e->mode_after;
  v.impact_mask = e->kind == ZENO_EVENT_IMPACT ? e->impact_mask : 0;
  memcpy(v.impulse, e->impulse, sizeof v.impulse);
  v.outcome = e->outcome;
  return v;
}

/* ---------- the sampling rule ---------- */

run_dir_sampler run_dir_sampler_start(double dt, bool has_prev, double t_prev, double t_event) {
  run_dir_sampler s = {.dt = dt, .t_prev = t_prev, .t_event = t_event, .k = 0};
  s.active = has_prev && dt > 0 && isfinite(t_event) && isfinite(t_prev);
  if (s.active) s.k = floor(t_prev / dt) + 1;
  return s;
}

zeno_status run_dir_check_rows(size_t rows, const run_dir_sampler *s, zeno_error *error) {
  // The multiples k*dt < t_event left, as a double: a tiny dt asks for more
  // than a size_t counts.
  const double samples = s->active ? fmax(0, ceil(s->t_event / s->dt) - s->k) : 0;
  const double need = (double)rows + samples + 2;  // and the event's two rows
  if (need <= (double)ZENO_RUN_DIR_MAX_ROWS) return ZENO_OK;
  return zeno_fail(error, ZENO_ERR_RANGE, "solver.sample_dt",
                   "a trajectory sampled every solver.sample_dt = %g would take %.0f rows by t = "
                   "%g, more than %lld, the most a run may hold: raise solver.sample_dt, or lower "
                   "stop.t_end or stop.max_events",
                   s->dt, need, s->t_event, (long long)ZENO_RUN_DIR_MAX_ROWS);
}

bool run_dir_sampler_next(run_dir_sampler *s, double *t) {
  while (s->active && s->k * s->dt < s->t_event) {
    const double time = s->k * s->dt;
    s->k++;
    if (time <= s->t_prev) continue;
    *t = time;
    return true;
  }
  s->active = false;
  return false;
}

/* ---------- recording in memory ---------- */

/// First capacity of the row and event arrays.
#define RUN_DIR_INITIAL_CAPACITY 256
/// zeno_run_dir_record() asks the simulator's interrupt every this many
/// samples: a sample (dense output and a row) costs well under a
/// microsecond, so a stop is seen within a millisecond, at no cost a run
/// of a sensible sample_dt notices.
#define RUN_DIR_RECORD_INTERRUPT_ROWS 1024

static bool grow(void **items, size_t *capacity, size_t count, size_t size) {
  if (count < *capacity) return true;
  const size_t cap = *capacity ? 2 * *capacity : RUN_DIR_INITIAL_CAPACITY;
  void *p = realloc(*items, cap * size);
  if (p == NULL) return false;
  *items = p;
  *capacity = cap;
  return true;
}

bool run_dir_add_row(zeno_run_dir_data *d, const zeno_run_dir_row *row) {
  if (!grow((void **)&d->rows, &d->row_capacity, d->row_count, sizeof *row)) return false;
  d->rows[d->row_count++] = *row;
  return true;
}

bool run_dir_add_event(zeno_run_dir_data *d, const zeno_run_dir_event *event) {
  if (!grow((void **)&d->events, &d->event_capacity, d->event_count, sizeof *event)) return false;
  d->events[d->event_count++] = *event;
  return true;
}

zeno_status zeno_run_dir_record(zeno_run_dir_data *d, const zeno_sim *sim, const zeno_event *ev,
                                zeno_error *error) {
  if (d == NULL || sim == NULL || ev == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "data, simulator and event are required");
  const size_t rows = d->row_count, skipped = d->skipped_samples;
  const bool has_prev = d->event_count > 0;
  run_dir_sampler smp = run_dir_sampler_start(zeno_sim_scene(sim)->sample_dt, has_prev,
                                              has_prev ? d->events[d->event_count - 1].t : 0,
                                              ev->t);
  if (run_dir_check_rows(rows, &smp, error) != ZENO_OK) return ZENO_ERR_RANGE;
  const zeno_interrupt *interrupt = &zeno_sim_settings(sim)->interrupt;
  bool ok = true;
  double t;
  for (size_t n = 1; ok && run_dir_sampler_next(&smp, &t); n++) {
    if (n % RUN_DIR_RECORD_INTERRUPT_ROWS == 0 &&
        zeno_interrupt_check(interrupt, error) != ZENO_OK) {
      d->row_count = rows;  // the event was not added: keep what the data had
      d->skipped_samples = skipped;
      return ZENO_ERR_INTERRUPTED;
    }
    zeno_state st;
    if (zeno_sim_state_at(sim, t, &st, NULL) != ZENO_OK) {
      d->skipped_samples++;
      continue;
    }
    const zeno_run_dir_row row = event_row(&st, ZENO_ROW_SAMPLE, ev->index);
    ok = run_dir_add_row(d, &row);
  }
  const zeno_run_dir_row before = event_row(&ev->before, ZENO_ROW_BEFORE, ev->index);
  const zeno_run_dir_row after = event_row(&ev->after, ZENO_ROW_AFTER, ev->index);
  const zeno_run_dir_event e = zeno_run_dir_event_from_event(ev);
  ok = ok && run_dir_add_row(d, &before) && run_dir_add_row(d, &after) && run_dir_add_event(d, &e);
  if (ok) return ZENO_OK;
  d->row_count = rows;  // the event was not added: keep what the data had
  return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
}

void zeno_run_dir_data_free(zeno_run_dir_data *d) {
  if (d == NULL) return;
  free(d->rows);
  free(d->events);
  memset(d, 0, sizeof *d);
}

/* ---------- the writer ---------- */

/// The run's files, in the order they are renamed into place at close:
/// the scene, then the digest of them all, last, so that a folder whose
/// commit was cut short keeps the scene of its previous run beside the new
/// data, never a new scene beside the old data, and its previous digest,
/// which the new files do not match (the reader refuses the mixture).
enum {
  OUT_TRAJECTORY,
  OUT_EVENTS,
  OUT_EVENTS_CSV,
  OUT_OVERRIDES,
  OUT_SCENE,
  OUT_DIGEST,
  OUT_COUNT
};
static const char *const OUT_NAMES[OUT_COUNT] = {ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                                 ZENO_RUN_DIR_EVENTS_CSV, ZENO_RUN_DIR_OVERRIDES,
                                                 ZENO_RUN_DIR_SCENE,      ZENO_RUN_DIR_DIGEST};
/// A line of the digest: the hex digest, two spaces, a name and '\n'.
#define DIGEST_LINE_SIZE (ZENO_SHA256_HEX_SIZE + 32)

/// Sample rows written between two looks at the files' sizes: the writer
/// stops a run this far below ZENO_RUN_DIR_MAX_BYTES (at the longest row,
/// ZENO_RUN_DIR_ROW_MAX_BYTES), so no file it writes ever exceeds it. The
/// trajectory is bounded before that by its rows (ZENO_RUN_DIR_MAX_ROWS);
/// the events' files by these looks.
#define RUN_DIR_ROWS_PER_CHECK 1024
#define RUN_DIR_WRITE_LIMIT \
  (ZENO_RUN_DIR_MAX_BYTES - RUN_DIR_ROWS_PER_CHECK * ZENO_RUN_DIR_ROW_MAX_BYTES)

struct zeno_run_dir_writer {
  char *dir;
  zeno_io_dir_lock *lock;  ///< one writer per directory
  /// Written aside, renamed into place together at close.
  zeno_io_output *out[OUT_COUNT];
  int contact_count;
  double sample_dt;
  bool has_prev;   ///< an event was written
  double t_prev;   ///< its time
  size_t rows;     ///< trajectory rows written
  size_t skipped;  ///< samples without dense output
};

static zeno_status write_failed(const char *dir, const char *name, zeno_error *error) {
  return zeno_fail(error, ZENO_ERR_IO, "", "cannot write '%s/%s': %s", dir, name,
                   errno ? strerror(errno) : "write error");
}

// Every output written whole, then renamed into place in OUT_NAMES' order
// (`commit`), or all dropped; the lock released and the writer freed.
static zeno_status writer_end(zeno_run_dir_writer *w, bool commit, zeno_error *error) {
  zeno_status st = ZENO_OK;
  if (commit) st = zeno_io_output_commit_all(w->out, OUT_COUNT, error);
  else
    for (int k = 0; k < OUT_COUNT; k++) zeno_io_output_discard(w->out[k]);
  zeno_io_dir_lock_release(w->lock);
  free(w->dir);
  free(w);
  return commit ? st : ZENO_OK;
}

static zeno_status write_text(zeno_run_dir_writer *w, int k, const char *text, size_t length,
                              zeno_error *error);

// The digest of the files written aside (flushed first), as
// digest.sha256, itself written aside: the reader's check of the folder.
static zeno_status write_digest(zeno_run_dir_writer *w, zeno_error *error) {
  char text[OUT_DIGEST * DIGEST_LINE_SIZE];
  size_t n = 0;
  for (int k = 0; k < OUT_DIGEST; k++) {
    if (w->out[k] == NULL) continue;  // a run without its scene saved
    FILE *stream = zeno_io_output_stream(w->out[k]);
    char hex[ZENO_SHA256_HEX_SIZE];
    errno = 0;
    if (fflush(stream) != 0) return write_failed(w->dir, OUT_NAMES[k], error);
    const zeno_status st = run_dir_digest_fd(fileno(stream), hex, error);
    if (st == ZENO_ERR_UNSUPPORTED || st == ZENO_ERR_NOMEM) return st;
    if (st != ZENO_OK) return write_failed(w->dir, OUT_NAMES[k], error);
    n += (size_t)snprintf(text + n, sizeof text - n, "%s  %s\n", hex, OUT_NAMES[k]);
  }
  return write_text(w, OUT_DIGEST, text, n, error);
}

zeno_status zeno_run_dir_writer_close(zeno_run_dir_writer *w, zeno_error *error) {
  if (w == NULL) return ZENO_OK;
  const zeno_status st = write_digest(w, error);
  if (st == ZENO_OK) return writer_end(w, true, error);
  writer_end(w, false, NULL);
  return st;
}

void zeno_run_dir_writer_discard(zeno_run_dir_writer *w) {
  if (w) writer_end(w, false, NULL);
}

// The hidden temporaries (".NAME.XXXXXX", zeno_io_output) of the run's
// files that a killed writer left: removed once the directory's lock is
// ours, so that no other writer's are touched.
static void remove_stale_temporaries(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  const struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    for (int k = 0; k < OUT_COUNT; k++) {
      const size_t n = strlen(OUT_NAMES[k]);
      const char *name = e->d_name;
      if (name[0] != '.' || strncmp(name + 1, OUT_NAMES[k], n) != 0 || name[n + 1] != '.' ||
          strlen(name + n + 2) != 6)
        continue;
      char *path = zeno_io_path_join(dir, name);
      struct stat st;
      if (path && lstat(path, &st) == 0 && S_ISREG(st.st_mode)) unlink(path);
      free(path);
    }
  }
  closedir(d);
}

zeno_run_dir_writer *zeno_run_dir_writer_create(const char *dir, const zeno_scene *scene,
                                                zeno_error *error) {
  if (dir == NULL || scene == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and a scene are required");
    return NULL;
  }
  if (zeno_io_make_directories(dir, error) != ZENO_OK) return NULL;
  zeno_run_dir_writer *w = calloc(1, sizeof *w);
  if (w != NULL) w->dir = strdup(dir);
  if (w == NULL || w->dir == NULL) {
    free(w);
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  w->contact_count = scene->contact_count;
  w->sample_dt = scene->sample_dt;
  w->lock = zeno_io_dir_lock_take(dir, error);
  if (w->lock != NULL) remove_stale_temporaries(dir);
  zeno_status st = w->lock ? ZENO_OK : ZENO_ERR_IO;
  for (int k = OUT_TRAJECTORY; st == ZENO_OK && k <= OUT_EVENTS_CSV; k++)
    if ((w->out[k] = zeno_io_output_open(dir, OUT_NAMES[k], error)) == NULL) st = ZENO_ERR_IO;
  if (st == ZENO_OK && zeno_io_trajectory_header_of(zeno_io_output_stream(w->out[OUT_TRAJECTORY]),
                                                    scene, NULL) != ZENO_OK)
    st = write_failed(dir, ZENO_RUN_DIR_TRAJECTORY, error);
  if (st == ZENO_OK && zeno_io_events_csv_header_of(zeno_io_output_stream(w->out[OUT_EVENTS_CSV]),
                                                    scene, NULL) != ZENO_OK)
    st = write_failed(dir, ZENO_RUN_DIR_EVENTS_CSV, error);
  if (st != ZENO_OK) {
    zeno_run_dir_writer_discard(w);
    return NULL;
  }
  return w;
}

// Writes `text` aside as output k, renamed into place with the others at
// close (a second call replaces the first's).
static zeno_status write_text(zeno_run_dir_writer *w, int k, const char *text, size_t length,
                              zeno_error *error) {
  zeno_io_output_discard(w->out[k]);
  zeno_io_output *o = w->out[k] = zeno_io_output_open(w->dir, OUT_NAMES[k], error);
  if (o == NULL) return error ? error->code : ZENO_ERR_IO;  // ZENO_ERR_NOMEM too
  if (length > 0 && fwrite(text, 1, length, zeno_io_output_stream(o)) != length)
    return write_failed(w->dir, OUT_NAMES[k], error);
  return ZENO_OK;
}

// An override kept in overrides.txt is one line of printable text.
static bool override_fits_a_line(const char *text) {
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    if (*p < 0x20 || *p == 0x7f) return false;
  return strlen(text) <= ZENO_RUN_DIR_OVERRIDE_MAX;
}

zeno_status zeno_run_dir_writer_save_scene(zeno_run_dir_writer *w, const char *text, size_t length,
                                           const char *const *overrides, size_t override_count,
                                           zeno_error *error) {
  if (w == NULL || text == NULL || (override_count > 0 && overrides == NULL))
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "",
                     "a writer, the scene text and the overrides are required");
  size_t size = 1;
  for (size_t i = 0; i < override_count; i++) {
    if (overrides[i] == NULL || !override_fits_a_line(overrides[i]))
      return zeno_fail(error, ZENO_ERR_RANGE, "",
                       "override %zu cannot be kept in %s: one line of printable text "
                       "of at most %d characters is needed",
                       i + 1, ZENO_RUN_DIR_OVERRIDES, ZENO_RUN_DIR_OVERRIDE_MAX);
    size += strlen(overrides[i]) + 1;
  }
  zeno_status st = write_text(w, OUT_SCENE, text, length, error);
  char *list = st == ZENO_OK ? malloc(size) : NULL;
  if (st == ZENO_OK && list == NULL) st = zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  if (st == ZENO_OK) {
    size_t n = 0;
    for (size_t i = 0; i < override_count; i++)
      n += (size_t)snprintf(list + n, size - n, "%s\n", overrides[i]);
    st = write_text(w, OUT_OVERRIDES, list, n, error);
  }
  free(list);
  return st;
}

// Output k below RUN_DIR_WRITE_LIMIT, or ZENO_ERR_RANGE naming the
// settings that make a run's files large.
static zeno_status check_size(const zeno_run_dir_writer *w, int k, zeno_error *error) {
  const off_t size = ftello(zeno_io_output_stream(w->out[k]));
  if (size < RUN_DIR_WRITE_LIMIT) return ZENO_OK;  // -1 too: write errors are found as written
  return zeno_fail(error, ZENO_ERR_RANGE, "solver.sample_dt",
                   "'%s/%s' would hold more than %lld bytes, the most a run directory's file "
                   "may: raise solver.sample_dt (now %g), or lower stop.t_end or stop.max_events",
                   w->dir, OUT_NAMES[k], (long long)ZENO_RUN_DIR_MAX_BYTES, w->sample_dt);
}

zeno_status zeno_run_dir_writer_event(zeno_run_dir_writer *w, const zeno_sim *sim,
                                      const zeno_event *ev, zeno_error *error) {
  if (w == NULL || sim == NULL || ev == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "writer, simulator and event are required");
  FILE *trajectory = zeno_io_output_stream(w->out[OUT_TRAJECTORY]);
  run_dir_sampler smp = run_dir_sampler_start(w->sample_dt, w->has_prev, w->t_prev, ev->t);
  if (run_dir_check_rows(w->rows, &smp, error) != ZENO_OK) return ZENO_ERR_RANGE;
  w->has_prev = true;
  w->t_prev = ev->t;
  double t;
  for (long rows = 1; run_dir_sampler_next(&smp, &t); rows++) {
    zeno_state st;
    if (zeno_sim_state_at(sim, t, &st, NULL) != ZENO_OK) {
      w->skipped++;
      continue;
    }
    const zeno_run_dir_row row = event_row(&st, ZENO_ROW_SAMPLE, ev->index);
    if (zeno_io_trajectory_row(trajectory, &row, w->contact_count, NULL) != ZENO_OK)
      return write_failed(w->dir, ZENO_RUN_DIR_TRAJECTORY, error);
    w->rows++;
    if (rows % RUN_DIR_ROWS_PER_CHECK == 0 && check_size(w, OUT_TRAJECTORY, error) != ZENO_OK)
      return ZENO_ERR_RANGE;
  }
  const zeno_run_dir_row before = event_row(&ev->before, ZENO_ROW_BEFORE, ev->index);
  const zeno_run_dir_row after = event_row(&ev->after, ZENO_ROW_AFTER, ev->index);
  if (zeno_io_trajectory_row(trajectory, &before, w->contact_count, NULL) != ZENO_OK ||
      zeno_io_trajectory_row(trajectory, &after, w->contact_count, NULL) != ZENO_OK)
    return write_failed(w->dir, ZENO_RUN_DIR_TRAJECTORY, error);
  w->rows += 2;
  if (zeno_io_event_jsonl(zeno_io_output_stream(w->out[OUT_EVENTS]), ev, w->contact_count, NULL) !=
      ZENO_OK)
    return write_failed(w->dir, ZENO_RUN_DIR_EVENTS, error);
  if (zeno_io_event_csv(zeno_io_output_stream(w->out[OUT_EVENTS_CSV]), ev, w->contact_count,
                        NULL) != ZENO_OK)
    return write_failed(w->dir, ZENO_RUN_DIR_EVENTS_CSV, error);
  for (int k = OUT_TRAJECTORY; k <= OUT_EVENTS_CSV; k++)
    if (check_size(w, k, error) != ZENO_OK) return ZENO_ERR_RANGE;
  return ZENO_OK;
}

size_t zeno_run_dir_writer_skipped(const zeno_run_dir_writer *w) { return w ? w->skipped : 0; }
