// Reading a run back for `zeno replay DIR`: DIR/trajectory.csv and
// DIR/events.jsonl exactly as `zeno simulate --out DIR` writes them
// (zeno_io_trajectory_header/row and zeno_io_event_jsonl in io_output.c).
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

static const char *const TRAJECTORY_FILE = "trajectory.csv";
static const char *const EVENTS_FILE = "events.jsonl";
/// The header zeno_io_trajectory_header() writes.
static const char *const TRAJECTORY_HEADER =
    "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,"
    "f1n,f1t,f2n,f2t";
/// Numbers before the mode column, and after it.
#define NUMBERS_BEFORE_MODE 13
#define NUMBERS_AFTER_MODE 4
/// Longest JSON string value read (mode, kind and outcome names).
#define NAME_SIZE 32

typedef struct reader {
  const char *path;
  long line;
  char *message;
  size_t message_size;
} reader;

static bool bad(reader *rd, const char *why) {
  snprintf(rd->message, rd->message_size, "%s:%ld: %s", rd->path, rd->line,
           why);
  return false;
}

/* ---- trajectory.csv ------------------------------------------------------ */

/// Parses `count` comma-separated numbers starting at *p; leaves *p after
/// the last one's separator.
static bool numbers(const char **p, double *out, int count) {
  for (int k = 0; k < count; k++) {
    char *end;
    out[k] = strtod(*p, &end);
    if (end == *p) return false;
    *p = end;
    if (**p == ',') (*p)++;
    else if (k + 1 < count) return false;
  }
  return true;
}

static bool parse_row(const char *line, int contact_count, view_row *row) {
  double v[NUMBERS_BEFORE_MODE], f[NUMBERS_AFTER_MODE];
  const char *p = line;
  if (!numbers(&p, v, NUMBERS_BEFORE_MODE)) return false;
  char mode[NAME_SIZE];
  const size_t n = strcspn(p, ",");
  if (n == 0 || n >= sizeof mode || p[n] != ',') return false;
  memcpy(mode, p, n);
  mode[n] = '\0';
  p += n + 1;
  if (zeno_mode_parse(mode, contact_count, &row->mode, NULL) != ZENO_OK) return false;
  if (!numbers(&p, f, NUMBERS_AFTER_MODE)) return false;
  if (*p != '\0' && *p != '\n' && *p != '\r') return false;
  row->t = v[0];
  memcpy(row->q, v + 1, sizeof row->q);
  memcpy(row->qdot, v + 4, sizeof row->qdot);
  memcpy(row->zod, v + 7, sizeof row->zod);
  memcpy(row->zod_rate, v + 10, sizeof row->zod_rate);
  memcpy(row->force, f, sizeof row->force);
  return true;
}

static bool read_rows(FILE *f, reader *rd, view_run *run) {
  char *line = NULL;
  size_t size = 0;
  bool ok = true;
  rd->line = 1;
  if (getline(&line, &size, f) < 0 ||
      strncmp(line, TRAJECTORY_HEADER, strlen(TRAJECTORY_HEADER)) != 0)
    ok = bad(rd, "not a trajectory written by 'zeno simulate --out' "
                 "(header t,x,y,theta,...)");
  while (ok && getline(&line, &size, f) >= 0) {
    rd->line++;
    view_row row;
    double previous = run->row_count ? run->rows[run->row_count - 1].t : 0;
    if (!parse_row(line, run->scene.contact_count, &row))
      ok = bad(rd, "malformed row");
    else if (!isfinite(row.t))
      continue; // a state at an infinite time cannot be drawn
    else if (row.t < previous)
      ok = bad(rd, "time going back");
    else if (!view_run_add_row(run, &row))
      ok = bad(rd, "out of memory");
  }
  free(line);
  if (ok && run->row_count == 0) ok = bad(rd, "no rows");
  return ok;
}

/* ---- events.jsonl -------------------------------------------------------- */

/// Start of the value of top-level member `key` in a line, or NULL. The
/// keys read here occur once per line (the nested states have others).
static const char *member(const char *line, const char *key) {
  char pattern[NAME_SIZE + 4];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *p = strstr(line, pattern);
  return p ? p + strlen(pattern) : NULL;
}

/// A string member into out; "" for null. False when absent or malformed.
static bool string_member(const char *line, const char *key, char *out) {
  const char *p = member(line, key);
  if (p == NULL) return false;
  if (strncmp(p, "null", 4) == 0) {
    out[0] = '\0';
    return true;
  }
  if (*p != '"') return false;
  const size_t n = strcspn(p + 1, "\"");
  if (n >= NAME_SIZE || p[1 + n] != '"') return false;
  memcpy(out, p + 1, n);
  out[n] = '\0';
  return true;
}

/// A number member; null is NaN. False when absent or malformed.
static bool number_member(const char *line, const char *key, double *out) {
  const char *p = member(line, key);
  if (p == NULL) return false;
  if (strncmp(p, "null", 4) == 0) {
    *out = NAN;
    return true;
  }
  char *end;
  *out = strtod(p, &end);
  return end != p;
}

/// "impulse": [[n, t], [n, t]] (one pair per contact).
static bool impulse_member(const char *line, int contact_count,
                           double impulse[][2]) {
  const char *p = member(line, "impulse");
  if (p == NULL) return false;
  for (int i = 0; i < contact_count; i++)
    for (int k = 0; k < 2; k++) {
      p += strspn(p, "[], ");
      char *end;
      impulse[i][k] = strtod(p, &end);
      if (end == p) return false;
      p = end;
    }
  return true;
}

/// Enum value whose name_of() is `name`, or -1.
static int enum_value(const char *name, const char *(*name_of)(int), int n) {
  for (int k = 0; k < n; k++)
    if (strcmp(name_of(k), name) == 0) return k;
  return -1;
}

static const char *kind_name(int k) {
  return zeno_event_kind_name((zeno_event_kind)k);
}
static const char *outcome_name(int k) {
  return zeno_outcome_name((zeno_outcome)k);
}

/// The impact mask of an impact name ("IF", "FI", "II", "I").
static unsigned impact_mask(const char *name, int contact_count) {
  unsigned mask = 0;
  for (int i = 0; i < contact_count && name[i]; i++)
    if (name[i] == 'I') mask |= 1u << i;
  return mask;
}

static bool parse_event(const char *line, int contact_count, reader *rd,
                        view_event *e) {
  char kind[NAME_SIZE], before[NAME_SIZE], after[NAME_SIZE], impact[NAME_SIZE];
  double index;
  memset(e, 0, sizeof *e);
  if (!number_member(line, "index", &index) ||
      !number_member(line, "t", &e->t) ||
      !string_member(line, "kind", kind) ||
      !string_member(line, "mode_before", before) ||
      !string_member(line, "mode_after", after) ||
      !string_member(line, "impact", impact) ||
      !impulse_member(line, contact_count, e->impulse))
    return bad(rd, "event without index, t, kind, mode_before, mode_after, "
                   "impact or impulse");
  const int k = enum_value(kind, kind_name, ZENO_EVENT_END + 1);
  if (k < 0) return bad(rd, "unknown event kind");
  e->kind = (zeno_event_kind)k;
  e->index = (long)index;
  if (zeno_mode_parse(before, contact_count, &e->mode_before, NULL) != ZENO_OK ||
      zeno_mode_parse(after, contact_count, &e->mode_after, NULL) != ZENO_OK)
    return bad(rd, "bad mode name");
  e->impact_mask = impact_mask(impact, contact_count);
  e->outcome = ZENO_OUTCOME_RUNNING;
  if (e->kind == ZENO_EVENT_END) {
    char outcome[NAME_SIZE];
    const int o = string_member(line, "outcome", outcome)
                      ? enum_value(outcome, outcome_name,
                                   ZENO_OUTCOME_SOLVER_FAILURE + 1)
                      : -1;
    if (o < 0) return bad(rd, "END event without a known outcome");
    e->outcome = (zeno_outcome)o;
  }
  return true;
}

static bool read_events(FILE *f, reader *rd, view_run *run) {
  char *line = NULL;
  size_t size = 0;
  bool ok = true;
  rd->line = 0;
  while (ok && getline(&line, &size, f) >= 0) {
    rd->line++;
    view_event e;
    if (!parse_event(line, run->scene.contact_count, rd, &e))
      ok = false;
    else if (!view_run_add_event(run, &e))
      ok = bad(rd, "out of memory");
  }
  free(line);
  if (ok && run->event_count == 0) ok = bad(rd, "no events");
  return ok;
}

typedef bool (*read_fn)(FILE *f, reader *rd, view_run *run);

static bool read_file(const char *dir, const char *name, read_fn fn,
                      view_run *run, char *message, size_t message_size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  reader rd = {path, 0, message, message_size};
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(message, message_size, "cannot read '%s': %s", path,
             strerror(errno));
    return false;
  }
  const bool ok = fn(f, &rd, run);
  fclose(f);
  return ok;
}

bool view_run_load(view_run *run, const zeno_scene *scene, const char *dir,
                   char *message, size_t message_size) {
  memset(run, 0, sizeof *run);
  run->scene = *scene;
  if (!read_file(dir, TRAJECTORY_FILE, read_rows, run, message,
                 message_size) ||
      !read_file(dir, EVENTS_FILE, read_events, run, message, message_size)) {
    view_run_free(run);
    return false;
  }
  view_run_finish(run);
  return true;
}
