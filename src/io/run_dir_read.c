// Reading a run directory back (zeno/run_dir.h): trajectory.csv row by row
// against its header (one per contact count), events.jsonl a line at a time
// with jansson, whose members may come in any order and spacing, and
// overrides.txt. Every error names the file, the line and the column (that
// of the line's start for a member of an event, which jansson does not
// place).
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "io/io_csv.h"
#include "io/run_dir_internal.h"
#include "zeno/io.h"
#include "zeno/run_dir.h"

/// Numbers of a trajectory row before its mode column.
#define ROW_NUMBERS_BEFORE_MODE 13
/// The trajectory header before rows said what they are (kind) and of which
/// event: zeno 0.1.0 until these columns came, for one and two contacts.
#define TRAJECTORY_HEADER_WITHOUT_KIND \
  "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t"
/// Longest JSON string value read (mode, kind, guard and outcome names).
#define NAME_SIZE 32
/// Deepest nesting of arrays and objects in an event line, the event's own
/// object included (the writer's go four deep: a state's force pairs).
#define JSON_DEPTH_MAX 16
/// Numbers of a contact's impulse: normal and tangential.
#define IMPULSE_NUMBERS 2

/// Where a reader is: the file and its current line.
typedef struct reader {
  const char *path;
  long line;
  const char *text;  ///< the line being read (for columns)
  json_t *event;     ///< events: the line's object, while it is read
  zeno_error *error;
  double previous_t;    ///< trajectory: the last finite time read
  long previous_event;  ///< trajectory: the last row's event index
} reader;

static zeno_status bad_at(const reader *rd, const char *at, const char *fmt, const char *what) {
  const long column = at && rd->text ? (long)(at - rd->text) + 1 : 1;
  return zeno_fail_at(rd->error, ZENO_ERR_SYNTAX, rd->path, (int)rd->line, (int)column, "", fmt,
                      what);
}

/// Where member `key`'s name is written on the line, for messages (jansson
/// keeps no positions of values): the column of its name's quote, or NULL
/// (the line's start) when the name is written with escapes.
static const char *member_at(const reader *rd, const char *key) {
  char quoted[NAME_SIZE + 3];
  snprintf(quoted, sizeof quoted, "\"%s\"", key);
  return rd->text ? strstr(rd->text, quoted) : NULL;
}

static zeno_status out_of_memory(const reader *rd) {
  return zeno_fail_at(rd->error, ZENO_ERR_NOMEM, rd->path, (int)rd->line, 0, "", "out of memory");
}

static int mode_contacts(const char *name) {
  const size_t n = strlen(name);
  return n >= 1 && n <= ZENO_MAX_CONTACTS ? (int)n : 0;
}

/* ---------- trajectory.csv ---------- */

/// Parses `count` comma-separated numbers at *p; *p ends after the last
/// one's separator. False (with *p at the bad field) on a malformed number.
static bool numbers(const char **p, double *out, int count) {
  for (int k = 0; k < count; k++) {
    char *end;
    out[k] = strtod(*p, &end);
    if (end == *p || (*end != ',' && k + 1 < count)) return false;
    *p = *end == ',' ? end + 1 : end;
  }
  return true;
}

/// The row's kind by name at *p (up to the next comma); *p after the comma.
static bool row_kind(const char **p, zeno_run_dir_row_kind *kind) {
  static const zeno_run_dir_row_kind ALL[] = {ZENO_ROW_SAMPLE, ZENO_ROW_BEFORE, ZENO_ROW_AFTER};
  const size_t n = strcspn(*p, ",");
  for (size_t k = 0; k < sizeof ALL / sizeof ALL[0]; k++) {
    const char *name = zeno_run_dir_row_kind_name(ALL[k]);
    if (n == strlen(name) && strncmp(*p, name, n) == 0 && (*p)[n] == ',') {
      *kind = ALL[k];
      *p += n + 1;
      return true;
    }
  }
  return false;
}

/// The event index at p, the row's last field.
static bool row_event(const char *p, long *event) {
  if (*p < '0' || *p > '9') return false;
  char *end;
  errno = 0;
  *event = strtol(p, &end, 10);
  return errno == 0 && strspn(end, "\r\n") == strlen(end);
}

static zeno_status parse_row(const reader *rd, zeno_run_dir_data *d, zeno_run_dir_row *row) {
  double v[ROW_NUMBERS_BEFORE_MODE], f[2 * ZENO_MAX_CONTACTS] = {0};
  const char *p = rd->text;
  if (!numbers(&p, v, ROW_NUMBERS_BEFORE_MODE))
    return bad_at(rd, p, "malformed row: %s", "a number is expected");
  char mode[NAME_SIZE];
  const size_t n = strcspn(p, ",");
  if (n == 0 || n >= sizeof mode || p[n] != ',')
    return bad_at(rd, p, "malformed row: %s", "the mode column is expected");
  memcpy(mode, p, n);
  mode[n] = '\0';
  if (zeno_mode_parse(mode, d->contact_count, &row->mode, NULL) != ZENO_OK)
    return bad_at(rd, p, "malformed row: '%s' is not a mode of the run", mode);
  p += n + 1;
  const int forces = 2 * d->contact_count;
  if (!numbers(&p, f, forces)) return bad_at(rd, p, "malformed row: %s", "a number is expected");
  if (!row_kind(&p, &row->kind))
    return bad_at(rd, p, "malformed row: %s", "the kind is expected: sample, before or after");
  if (!row_event(p, &row->event))
    return bad_at(rd, p, "malformed row: %s", "the event index is expected last");
  row->t = v[0];
  memcpy(row->q, v + 1, sizeof row->q);
  memcpy(row->qdot, v + 4, sizeof row->qdot);
  memcpy(row->zod, v + 7, sizeof row->zod);
  memcpy(row->zod_rate, v + 10, sizeof row->zod_rate);
  memcpy(row->force, f, sizeof row->force);
  return ZENO_OK;
}

static zeno_status read_failed(const char *path, zeno_error *error) {
  return zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "", "cannot read '%s': %s", path,
                      strerror(errno));
}

/// Columns of a trajectory header besides the force pairs: t, the pose and
/// its rates, q' and its rates, mode, kind, event.
#define TRAJECTORY_FIXED_COLUMNS 16

/// Whether `name` (n characters) names a q' coordinate of a scene of more
/// than two contacts: z or x and a contact 1..16, or th.
static bool zod_name(const char *name, size_t n) {
  if (n == 2 && strncmp(name, "th", 2) == 0) return true;
  if (n < 2 || n > 3 || (name[0] != 'z' && name[0] != 'x')) return false;
  int contact = 0;
  for (size_t k = 1; k < n; k++) {
    if (name[k] < '0' || name[k] > '9') return false;
    contact = 10 * contact + (name[k] - '0');
  }
  return name[1] != '0' && contact >= 1 && contact <= ZENO_MAX_CONTACTS;
}

// The contact count of a format version 2 header (more than two contacts:
// zeno_io_trajectory_columns_of()) and its q' names, 0 when the line is not one.
static int header_v2_contacts(const char *line, char names[3][ZENO_ZOD_NAME_SIZE]) {
  size_t columns = 1;
  for (const char *p = line; *p; p++) columns += *p == ',';
  if (columns < TRAJECTORY_FIXED_COLUMNS + 2 * (ZENO_PAIR_CONTACTS + 1) ||
      columns > TRAJECTORY_FIXED_COLUMNS + 2 * ZENO_MAX_CONTACTS || (columns % 2) != 0)
    return 0;
  const int n = (int)(columns - TRAJECTORY_FIXED_COLUMNS) / 2;
  const char *p = line;
  for (int k = 0; k < ROW_NUMBERS_BEFORE_MODE - 6; k++) p += strcspn(p, ",") + 1;
  for (int r = 0; r < 3; r++) {
    const size_t len = strcspn(p, ",");
    if (!zod_name(p, len)) return 0;
    memcpy(names[r], p, len);
    names[r][len] = '\0';
    p += len + 1;
  }
  char expected[ZENO_IO_TRAJECTORY_COLUMNS_SIZE];
  io_trajectory_columns_named(n, (const char(*)[ZENO_ZOD_NAME_SIZE])names, expected);
  return strcmp(line, expected) == 0 ? n : 0;
}

// Line 1 of trajectory.csv: exactly a header the writer writes, which says
// how many contacts the rows have.
static zeno_status trajectory_header(reader *rd, zeno_run_dir_data *d) {
  char *line = (char *)rd->text;
  line[strcspn(line, "\r\n")] = '\0';
  if (strcmp(line, TRAJECTORY_HEADER_WITHOUT_KIND) == 0)
    return bad_at(rd, line + strlen(line),
                  "written by an older zeno: %s; run 'zeno simulate SCENE --out DIR' again",
                  "the columns kind and event (which rows are samples and which the "
                  "states before and after an event) are missing");
  char names[3][ZENO_ZOD_NAME_SIZE] = {{0}};
  int contacts = header_v2_contacts(line, names);
  for (int n = 1; n <= ZENO_PAIR_CONTACTS; n++)
    if (strcmp(line, zeno_io_trajectory_columns(n)) == 0) contacts = n;
  if (contacts == 0)
    return bad_at(rd, line,
                  "not a trajectory written by 'zeno simulate --out' (header %s, or for "
                  "one contact " ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT ")",
                  ZENO_IO_TRAJECTORY_HEADER);
  if (d->contact_count != 0 && d->contact_count != contacts) {
    char what[96];
    snprintf(what, sizeof what, "scene of %d contact%s; %d are expected", contacts,
             contacts == 1 ? "" : "s", d->contact_count);
    return bad_at(rd, line, "the header is that of a %s", what);
  }
  d->contact_count = contacts;
  memcpy(d->zod_names, names, sizeof names);
  return ZENO_OK;
}

// One row of trajectory.csv; times and event indices may not go back.
static zeno_status trajectory_line(reader *rd, zeno_run_dir_data *d) {
  zeno_run_dir_row row;
  zeno_status st = parse_row(rd, d, &row);
  if (st == ZENO_OK && isfinite(row.t) && row.t < rd->previous_t)
    st = bad_at(rd, rd->text, "%s", "time going back");
  if (st == ZENO_OK && row.event < rd->previous_event)
    st = bad_at(rd, rd->text, "%s", "event index going back");
  if (st == ZENO_OK && isfinite(row.t)) rd->previous_t = row.t;
  if (st == ZENO_OK) rd->previous_event = row.event;
  if (st == ZENO_OK && !run_dir_add_row(d, &row)) st = out_of_memory(rd);
  return st;
}

static size_t row_count(const zeno_run_dir_data *d) { return d->row_count; }

/// A file of the run directory: an optional header line, then one item a
/// line.
typedef struct file_kind {
  /// Checks line 1 (and learns the contact count from it); NULL: no header.
  zeno_status (*header)(reader *rd, zeno_run_dir_data *d);
  const char *no_header;                                  ///< message for an empty file
  zeno_status (*line)(reader *rd, zeno_run_dir_data *d);  ///< parses and adds one line
  size_t (*count)(const zeno_run_dir_data *d);            ///< items the data holds
  const char *none;                                       ///< message for a file without items
} file_kind;

static zeno_status read_lines(FILE *f, reader *rd, zeno_run_dir_data *d, const file_kind *kind) {
  char *line = NULL;
  size_t size = 0;
  zeno_status st = ZENO_OK;
  const size_t first = kind->count(d);
  rd->line = 0;
  rd->previous_t = -INFINITY;
  rd->previous_event = 0;
  long long bytes = 0;
  ssize_t length;
  while (st == ZENO_OK && (length = getline(&line, &size, f)) >= 0) {
    rd->line++;
    rd->text = line;
    // A file that grows as it is read stops at the limit all the same.
    if ((bytes += length) > ZENO_RUN_DIR_MAX_BYTES)
      st = zeno_fail_at(rd->error, ZENO_ERR_RANGE, rd->path, (int)rd->line, 1, "",
                        "'%s' holds more than the %lld bytes a run directory's file may", rd->path,
                        (long long)ZENO_RUN_DIR_MAX_BYTES);
    else st = rd->line == 1 && kind->header ? kind->header(rd, d) : kind->line(rd, d);
  }
  if (st == ZENO_OK && ferror(f)) st = read_failed(rd->path, rd->error);
  rd->text = NULL;
  if (st == ZENO_OK && kind->header && rd->line == 0) st = bad_at(rd, NULL, "%s", kind->no_header);
  else if (st == ZENO_OK && kind->count(d) == first) st = bad_at(rd, NULL, "%s", kind->none);
  free(line);
  return st;
}

static zeno_status read_file(const char *path, zeno_run_dir_data *d, const file_kind *kind,
                             zeno_error *error) {
  if (d == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "data is required");
  FILE *f;
  zeno_status st = run_dir_open(path, &f, error);
  if (st != ZENO_OK) return st;
  reader rd = {path, 0, NULL, NULL, error, -INFINITY, 0};
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  st = read_lines(f, &rd, d, kind);
  zeno_locale_leave(&scope);
  fclose(f);
  return st;
}

zeno_status zeno_run_dir_read_trajectory(const char *path, zeno_run_dir_data *d,
                                         zeno_error *error) {
  static const file_kind TRAJECTORY = {trajectory_header, "empty file: no trajectory header",
                                       trajectory_line, row_count, "no rows"};
  return read_file(path, d, &TRAJECTORY, error);
}

/* ---------- events.jsonl ---------- */

/// How an event line is parsed: every number as a double, through strtod, as
/// the writer's "%.17g" reads back (else jansson reads integers as such: -0
/// as 0, one beyond 64 bits as an error); parsing stops after the object,
/// and event_line() checks what follows it.
#define EVENT_JSON_FLAGS (JSON_DECODE_INT_AS_REAL | JSON_DISABLE_EOF_CHECK)
/// JSON's white space (RFC 8259), all that may follow the object on its line.
#define JSON_SPACE " \t\r\n"

/// Whether `value` nests arrays and objects more than `levels` deep.
static bool too_deep(json_t *value, int levels) {
  if (!json_is_array(value) && !json_is_object(value)) return false;
  if (levels == 0) return true;
  json_t *item;
  if (json_is_array(value)) {
    size_t index;
    json_array_foreach(value, index, item) if (too_deep(item, levels - 1)) return true;
    return false;
  }
  const char *key;
  json_object_foreach(value, key, item) if (too_deep(item, levels - 1)) return true;
  return false;
}

/// A number into *out, null as NaN; false for any other value.
static bool number_or_null(const json_t *v, double *out) {
  if (json_is_null(v)) *out = NAN;
  else if (json_is_number(v)) *out = json_number_value(v);
  else return false;
  return true;
}

/// A string member (a name shorter than NAME_SIZE) into out; "" for null.
static zeno_status string_member(const reader *rd, const char *key, char *out) {
  const json_t *v = json_object_get(rd->event, key);
  if (v == NULL) return bad_at(rd, NULL, "event without member \"%s\"", key);
  if (json_is_null(v)) {
    out[0] = '\0';
    return ZENO_OK;
  }
  if (!json_is_string(v) || json_string_length(v) >= NAME_SIZE)
    return bad_at(rd, member_at(rd, key), "member \"%s\" is not a name", key);
  memcpy(out, json_string_value(v), json_string_length(v) + 1);
  return ZENO_OK;
}

static zeno_status number_member(const reader *rd, const char *key, double *out) {
  const json_t *v = json_object_get(rd->event, key);
  if (v == NULL) return bad_at(rd, NULL, "event without member \"%s\"", key);
  if (!number_or_null(v, out))
    return bad_at(rd, member_at(rd, key), "member \"%s\" is not a number", key);
  return ZENO_OK;
}

/// "impulse": [[n, t], [n, t]], one pair per contact.
static zeno_status impulse_member(const reader *rd, int contacts,
                                  double impulse[][IMPULSE_NUMBERS]) {
  const json_t *v = json_object_get(rd->event, "impulse");
  if (v == NULL) return bad_at(rd, NULL, "event without member \"%s\"", "impulse");
  bool ok = json_is_array(v) && json_array_size(v) == (size_t)contacts;
  for (size_t i = 0; ok && i < (size_t)contacts; i++) {
    const json_t *pair = json_array_get(v, i);
    ok = json_is_array(pair) && json_array_size(pair) == IMPULSE_NUMBERS;
    for (size_t k = 0; ok && k < IMPULSE_NUMBERS; k++)
      ok = number_or_null(json_array_get(pair, k), &impulse[i][k]);
  }
  return ok ? ZENO_OK
            : bad_at(rd, member_at(rd, "impulse"),
                     "member \"%s\" is not one [n, t] pair per contact", "impulse");
}

/// Enum value whose name_of() is `name`, or -1.
static int enum_value(const char *name, const char *(*name_of)(int), int n) {
  for (int k = 0; k < n; k++)
    if (strcmp(name_of(k), name) == 0) return k;
  return -1;
}

static const char *kind_name(int k) { return zeno_event_kind_name((zeno_event_kind)k); }
static const char *guard_name(int k) { return zeno_guard_name((zeno_guard)k); }
static const char *outcome_name(int k) { return zeno_outcome_name((zeno_outcome)k); }

static zeno_status enum_member(const reader *rd, const char *key, const char *(*name_of)(int),
                               int n, int *out) {
  char name[NAME_SIZE];
  zeno_status st = string_member(rd, key, name);
  if (st != ZENO_OK) return st;
  *out = enum_value(name, name_of, n);
  return *out >= 0 ? ZENO_OK : bad_at(rd, member_at(rd, key), "unknown %s", key);
}

static zeno_status mode_member(const reader *rd, zeno_run_dir_data *d, const char *key,
                               zeno_mode *mode) {
  char name[NAME_SIZE];
  zeno_status st = string_member(rd, key, name);
  if (st != ZENO_OK) return st;
  if (d->contact_count == 0) d->contact_count = mode_contacts(name);
  if (zeno_mode_parse(name, d->contact_count, mode, NULL) != ZENO_OK)
    return bad_at(rd, member_at(rd, key), "'%s' is not a mode of the run", name);
  return ZENO_OK;
}

static zeno_status parse_event(const reader *rd, zeno_run_dir_data *d, zeno_run_dir_event *e) {
  memset(e, 0, sizeof *e);
  double index, contact;
  char impact[NAME_SIZE];
  int kind = 0, guard = 0;
  zeno_status st = number_member(rd, "index", &index);
  if (st == ZENO_OK) st = number_member(rd, "t", &e->t);
  if (st == ZENO_OK) st = enum_member(rd, "kind", kind_name, ZENO_EVENT_END + 1, &kind);
  if (st == ZENO_OK && json_object_get(rd->event, "guard"))
    st = enum_member(rd, "guard", guard_name, ZENO_GUARD_ZENO + 1, &guard);
  if (st == ZENO_OK) st = mode_member(rd, d, "mode_before", &e->mode_before);
  if (st == ZENO_OK) st = mode_member(rd, d, "mode_after", &e->mode_after);
  if (st == ZENO_OK) st = string_member(rd, "impact", impact);
  if (st == ZENO_OK) st = impulse_member(rd, d->contact_count, e->impulse);
  if (st != ZENO_OK) return st;
  if (!(index >= 0 && index == floor(index) && index < (double)LONG_MAX))
    return bad_at(rd, member_at(rd, "index"), "member \"%s\" is not an event index", "index");
  e->index = (long)index;
  e->kind = (zeno_event_kind)kind;
  e->guard = (zeno_guard)guard;
  e->contact = -1;
  const json_t *c = json_object_get(rd->event, "contact");
  if (c && !json_is_null(c)) {
    // Contacts are numbered from 1 to the run's count (its mode words' length).
    if (!number_or_null(c, &contact) || !(contact >= 1 && contact <= d->contact_count) ||
        contact != floor(contact))
      return bad_at(rd, member_at(rd, "contact"), "member \"%s\" is not a contact of the run",
                    "contact");
    e->contact = (int)contact - 1;
  }
  e->impact_mask = e->kind == ZENO_EVENT_IMPACT ? zeno_impact_mask(impact, d->contact_count) : 0;
  e->outcome = ZENO_OUTCOME_RUNNING;
  if (e->kind == ZENO_EVENT_END) {
    int outcome = 0;
    st = enum_member(rd, "outcome", outcome_name, ZENO_OUTCOME_WALL_LIMIT + 1, &outcome);
    if (st != ZENO_OK) return st;
    e->outcome = (zeno_outcome)outcome;
  }
  return ZENO_OK;
}

// One line of events.jsonl: one JSON object, one event, nested at most
// JSON_DEPTH_MAX deep. A syntax error is reported where jansson stopped; an
// array instead of an object, or more than white space after the object,
// just after the value.
static zeno_status event_line(reader *rd, zeno_run_dir_data *d) {
  json_error_t error;
  rd->event = json_loads(rd->text, EVENT_JSON_FLAGS, &error);
  if (rd->event == NULL && json_error_code(&error) == json_error_out_of_memory)
    return out_of_memory(rd);
  const char *end = rd->text + error.position;
  zeno_status st = ZENO_OK;
  if (rd->event == NULL || !json_is_object(rd->event) || end[strspn(end, JSON_SPACE)] != '\0')
    st = bad_at(rd, end, "%s", "not one JSON object");
  else if (too_deep(rd->event, JSON_DEPTH_MAX)) st = bad_at(rd, NULL, "%s", "not one JSON object");
  zeno_run_dir_event e;
  if (st == ZENO_OK) st = parse_event(rd, d, &e);
  if (st == ZENO_OK && !run_dir_add_event(d, &e)) st = out_of_memory(rd);
  json_decref(rd->event);
  rd->event = NULL;
  return st;
}

static size_t event_count(const zeno_run_dir_data *d) { return d->event_count; }

zeno_status zeno_run_dir_read_events(const char *path, zeno_run_dir_data *d, zeno_error *error) {
  static const file_kind EVENTS = {NULL, NULL, event_line, event_count, "no events"};
  return read_file(path, d, &EVENTS, error);
}

/* ---------- the directory ---------- */

// The text of the run directory's file at `path` (a regular file only,
// run_dir_open()), of at most max_bytes; ZENO_DONE when there is none.
static zeno_status read_text(const char *path, size_t max_bytes, char **text, size_t *length,
                             zeno_error *error) {
  *text = NULL;
  if (length) *length = 0;
  if (access(path, F_OK) != 0 && errno == ENOENT) return ZENO_DONE;
  FILE *f;
  zeno_status st = run_dir_open(path, &f, error);
  if (st != ZENO_OK) return st;
  st = zeno_read_text_stream(f, path, max_bytes, text, length, error);
  fclose(f);
  return st;
}

zeno_status zeno_run_dir_read_scene(const char *dir, char **text, size_t *length,
                                    zeno_error *error) {
  if (dir == NULL || text == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and a text are required");
  char *path = zeno_io_path_join(dir, ZENO_RUN_DIR_SCENE);
  if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  const zeno_status st = read_text(path, ZENO_SCENE_MAX_BYTES, text, length, error);
  free(path);
  return st;
}

// The run's scene: DIR/scene.yaml with DIR/overrides.txt; ZENO_DONE when
// the directory holds no scene (a run saved before simulate kept it).
static zeno_status run_scene(const char *dir, zeno_scene *scene, zeno_error *error) {
  char *path = zeno_io_path_join(dir, ZENO_RUN_DIR_SCENE);
  if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  char **overrides = NULL;
  size_t count = 0;
  char *text = NULL;
  zeno_status st = zeno_run_dir_read_scene(dir, &text, NULL, error);
  if (st == ZENO_OK) {
    st = zeno_run_dir_read_overrides(dir, &overrides, &count, error);
    if (st == ZENO_OK || st == ZENO_DONE)
      st = zeno_scene_load_string(text, path, (const char *const *)overrides, count, scene, error);
  }
  zeno_run_dir_overrides_free(overrides, count);
  free(text);
  free(path);
  return st;
}

zeno_status zeno_run_dir_read(const char *dir, zeno_run_dir_data *d, zeno_error *error) {
  if (dir == NULL || d == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and data are required");
  char *trajectory = zeno_io_path_join(dir, ZENO_RUN_DIR_TRAJECTORY);
  char *events = zeno_io_path_join(dir, ZENO_RUN_DIR_EVENTS);
  bool digest = false;
  zeno_status st = trajectory && events ? run_dir_digest_check(dir, &digest, error)
                                        : zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  if (st == ZENO_OK) st = zeno_run_dir_read_trajectory(trajectory, d, error);
  if (st == ZENO_OK) st = zeno_run_dir_read_events(events, d, error);
  zeno_scene scene;
  const zeno_status has_scene = st == ZENO_OK ? run_scene(dir, &scene, error) : st;
  if (has_scene == ZENO_OK || has_scene == ZENO_DONE)
    st = zeno_run_dir_verify(dir, d, has_scene == ZENO_OK ? &scene : NULL, error);
  else st = has_scene;
  if (st != ZENO_OK) zeno_run_dir_data_free(d);
  else d->digest_checked = digest;
  free(trajectory);
  free(events);
  return st;
}

// One line of overrides.txt as the writer keeps it: PATH=VALUE, printable.
static bool override_line(const char *p, size_t length) {
  if (length > ZENO_RUN_DIR_OVERRIDE_MAX || memchr(p, '=', length) == NULL) return false;
  for (size_t k = 0; k < length; k++)
    if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f) return false;
  return true;
}

void zeno_run_dir_overrides_free(char **overrides, size_t count) {
  for (size_t i = 0; overrides && i < count; i++) free(overrides[i]);
  free(overrides);
}

zeno_status zeno_run_dir_read_overrides(const char *dir, char ***overrides, size_t *count,
                                        zeno_error *error) {
  if (dir == NULL || overrides == NULL || count == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and a list are required");
  *overrides = NULL;
  *count = 0;
  char *path = zeno_io_path_join(dir, ZENO_RUN_DIR_OVERRIDES);
  if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  char *text = NULL;
  // ZENO_DONE: a run saved without the file has no overrides.
  zeno_status st = read_text(path, ZENO_RUN_DIR_OVERRIDES_MAX_BYTES, &text, NULL, error);
  size_t lines = 0;
  for (const char *p = text; st == ZENO_OK && *p; p++) lines += *p == '\n';
  char **list = st == ZENO_OK ? calloc(lines + 2, sizeof *list) : NULL;
  if (st == ZENO_OK && list == NULL) st = zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  size_t n = 0;
  int line = 0;
  for (char *p = text; st == ZENO_OK && *p;) {
    const size_t length = strcspn(p, "\n");
    line++;
    if (length > 0 && !override_line(p, length)) {
      st = zeno_fail_at(error, ZENO_ERR_SYNTAX, path, line, 1, "",
                        "not an override (path=VALUE, one line of printable text of at "
                        "most %d characters)",
                        ZENO_RUN_DIR_OVERRIDE_MAX);
      break;
    }
    if (length > 0) {
      list[n] = malloc(length + 1);
      if (list[n] == NULL) {
        st = zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
        break;
      }
      memcpy(list[n], p, length);
      list[n++][length] = '\0';
    }
    p += length + (p[length] == '\n');
  }
  if (st == ZENO_OK) {
    *overrides = list;
    *count = n;
  } else {
    zeno_run_dir_overrides_free(list, n);
  }
  free(text);
  free(path);
  return st;
}
