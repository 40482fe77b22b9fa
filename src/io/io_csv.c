// CSV writers (zeno/io.h): the trajectory rows and the flat event table of
// `simulate --out`, and the maps R and G. Numbers round-trip
// (IO_NUMBER_FORMAT); write errors are read back from the stream's error
// indicator.
#include "zeno/io.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "io/io_csv.h"
#include "io/io_number.h"
#include "io/io_stream.h"

/// Columns of the trajectory header before the q' coordinates (t and the
/// pose with its rates), and the q' coordinates with their rates.
#define TRAJECTORY_FIRST_ZOD_COLUMN 7
#define TRAJECTORY_ZOD_COLUMNS 6

/// Counts the header functions of a count take (the two fixed headers).
static bool contact_count_ok(int contact_count) {
  return contact_count >= 1 && contact_count <= ZENO_PAIR_CONTACTS;
}

/// Counts the row writers take (any scene's).
static bool row_count_ok(int contact_count) {
  return contact_count >= 1 && contact_count <= ZENO_MAX_CONTACTS;
}

const char *zeno_io_trajectory_columns(int contact_count) {
  if (!contact_count_ok(contact_count)) return NULL;
  return contact_count == 1 ? ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT : ZENO_IO_TRAJECTORY_HEADER;
}

static zeno_status no_such_count(int contact_count, zeno_error *error) {
  return zeno_fail(error, ZENO_ERR_ARGUMENT, "contact_count",
                   "%d contacts: 1 or %d here (the _of functions take a scene of up to %d)",
                   contact_count, ZENO_PAIR_CONTACTS, ZENO_MAX_CONTACTS);
}

zeno_status zeno_io_trajectory_header(FILE *stream, int contact_count, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  if (!contact_count_ok(contact_count)) return no_such_count(contact_count, error);
  fprintf(stream, "%s\n", zeno_io_trajectory_columns(contact_count));
  return io_stream_status(stream, error);
}

void io_trajectory_columns_named(int n, const char names[3][ZENO_ZOD_NAME_SIZE],
                                 char buffer[ZENO_IO_TRAJECTORY_COLUMNS_SIZE]) {
  // At most 16 contacts: 57 characters, q' 39, the forces 16 * 10, the end
  // 11: well inside ZENO_IO_TRAJECTORY_COLUMNS_SIZE.
  int k = snprintf(buffer, ZENO_IO_TRAJECTORY_COLUMNS_SIZE,
                   "t,x,y,theta,vx,vy,omega,%s,%s,%s,%sdot,%sdot,%sdot,mode", names[0], names[1],
                   names[2], names[0], names[1], names[2]);
  for (int i = 1; i <= n; i++)
    k += snprintf(buffer + k, ZENO_IO_TRAJECTORY_COLUMNS_SIZE - (size_t)k, ",f%dn,f%dt", i, i);
  snprintf(buffer + k, ZENO_IO_TRAJECTORY_COLUMNS_SIZE - (size_t)k, ",kind,event");
}

zeno_status zeno_io_trajectory_columns_of(const zeno_scene *scene,
                                          char buffer[ZENO_IO_TRAJECTORY_COLUMNS_SIZE],
                                          zeno_error *error) {
  if (scene == NULL || buffer == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and buffer are required");
  const int n = scene->contact_count;
  if (!row_count_ok(n)) return no_such_count(n, error);
  if (n <= ZENO_PAIR_CONTACTS) {
    snprintf(buffer, ZENO_IO_TRAJECTORY_COLUMNS_SIZE, "%s", zeno_io_trajectory_columns(n));
    return ZENO_OK;
  }
  char names[3][ZENO_ZOD_NAME_SIZE];
  const zeno_status st = zeno_scene_zod_names(scene, names, error);
  if (st != ZENO_OK) return st;
  io_trajectory_columns_named(n, (const char(*)[ZENO_ZOD_NAME_SIZE])names, buffer);
  return ZENO_OK;
}

zeno_status zeno_io_trajectory_header_of(FILE *stream, const zeno_scene *scene, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  char columns[ZENO_IO_TRAJECTORY_COLUMNS_SIZE];
  const zeno_status st = zeno_io_trajectory_columns_of(scene, columns, error);
  if (st != ZENO_OK) return st;
  fprintf(stream, "%s\n", columns);
  return io_stream_status(stream, error);
}

static void csv_numbers(FILE *f, const double *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    fputc(',', f);
    io_put_number(f, v[i]);
  }
}

zeno_status zeno_io_trajectory_row(FILE *stream, const zeno_run_dir_row *row, int contact_count,
                                   zeno_error *error) {
  if (stream == NULL || row == NULL) return io_no_stream(error);
  if (!row_count_ok(contact_count)) return no_such_count(contact_count, error);
  char mode[ZENO_MODE_NAME_SIZE];
  io_put_number(stream, row->t);
  csv_numbers(stream, row->q, 3);
  csv_numbers(stream, row->qdot, 3);
  csv_numbers(stream, row->zod, 3);
  csv_numbers(stream, row->zod_rate, 3);
  fprintf(stream, ",%s", zeno_mode_name(row->mode, contact_count, mode));
  for (int i = 0; i < contact_count; i++) csv_numbers(stream, row->force[i], 2);
  fprintf(stream, ",%s,%ld\n", zeno_run_dir_row_kind_name(row->kind), row->event);
  return io_stream_status(stream, error);
}

/* ---- events.csv ---------------------------------------------------------- */

/// Writes ",PREFIX" and each of the q' names of the trajectory header, the
/// same way "z1" becomes ",before_z1".
static void zod_columns(FILE *f, const char *prefix, const char *columns) {
  const char *p = columns;
  for (int column = 0; column < TRAJECTORY_FIRST_ZOD_COLUMN + TRAJECTORY_ZOD_COLUMNS; column++) {
    const size_t n = strcspn(p, ",");
    if (column >= TRAJECTORY_FIRST_ZOD_COLUMN) fprintf(f, ",%s%.*s", prefix, (int)n, p);
    p += n + 1;
  }
  fprintf(f, ",%senergy", prefix);
}

static void events_csv_header(FILE *stream, int contact_count, const char *columns) {
  fputs("index,t,kind,guard,contact,mode_before,mode_after,impact", stream);
  for (int i = 1; i <= contact_count; i++) fprintf(stream, ",impulse%dn,impulse%dt", i, i);
  for (int i = 1; i <= contact_count; i++) fprintf(stream, ",impact_outcome%d", i);
  fputs(
      ",zeno_impacts,zeno_ratio,zeno_error,zeno_period,zeno_order,outcome,tie_margin,"
      "near_tie,on_section,section_angle",
      stream);
  zod_columns(stream, "before_", columns);
  zod_columns(stream, "after_", columns);
  fputc('\n', stream);
}

zeno_status zeno_io_events_csv_header(FILE *stream, int contact_count, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  if (!contact_count_ok(contact_count)) return no_such_count(contact_count, error);
  events_csv_header(stream, contact_count, zeno_io_trajectory_columns(contact_count));
  return io_stream_status(stream, error);
}

zeno_status zeno_io_events_csv_header_of(FILE *stream, const zeno_scene *scene, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  char columns[ZENO_IO_TRAJECTORY_COLUMNS_SIZE];
  const zeno_status st = zeno_io_trajectory_columns_of(scene, columns, error);
  if (st != ZENO_OK) return st;
  events_csv_header(stream, scene->contact_count, columns);
  return io_stream_status(stream, error);
}

static void csv_number_if(FILE *f, bool has, double v) {
  fputc(',', f);
  if (has) io_put_number(f, v);
}

static void csv_long_if(FILE *f, bool has, long v) {
  fputc(',', f);
  if (has) fprintf(f, "%ld", v);
}

static void csv_text_if(FILE *f, bool has, const char *text) {
  fputc(',', f);
  if (has) io_csv_text(f, text);
}

static const char *csv_bool(bool v) { return v ? "true" : "false"; }

static void event_state(FILE *f, const zeno_state *s) {
  csv_numbers(f, s->zod, 3);
  csv_numbers(f, s->zod_rate, 3);
  csv_numbers(f, &s->energy, 1);
}

zeno_status zeno_io_event_csv(FILE *stream, const zeno_event *e, int contact_count,
                              zeno_error *error) {
  if (stream == NULL || e == NULL) return io_no_stream(error);
  if (!row_count_ok(contact_count)) return no_such_count(contact_count, error);
  const bool impact = e->kind == ZENO_EVENT_IMPACT, zeno = e->kind == ZENO_EVENT_ZENO;
  const bool end = e->kind == ZENO_EVENT_END;
  const bool diverging = end && e->outcome == ZENO_OUTCOME_DIVERGING;
  char before[ZENO_MODE_NAME_SIZE], after[ZENO_MODE_NAME_SIZE], word[ZENO_MODE_NAME_SIZE];
  fprintf(stream, "%ld", e->index);
  csv_numbers(stream, &e->t, 1);
  fprintf(stream, ",%s,%s", zeno_event_kind_name(e->kind), zeno_guard_name(e->guard));
  csv_long_if(stream, e->contact >= 0, e->contact + 1L);
  fprintf(stream, ",%s,%s", zeno_mode_name(e->mode_before, contact_count, before),
          zeno_mode_name(e->mode_after, contact_count, after));
  csv_text_if(stream, impact, impact ? zeno_impact_word(e->impact_mask, contact_count, word) : "");
  for (int i = 0; i < contact_count; i++) csv_numbers(stream, e->impulse[i], 2);
  for (int i = 0; i < contact_count; i++) {
    // The letter the contact took (S, P, N) when the impact reached it.
    const zeno_mode letter = {{e->impact_letter[i]}};
    char name[ZENO_MODE_NAME_SIZE];
    const bool hit = impact && (e->impact_mask & (1u << i));
    csv_text_if(stream, hit, hit ? zeno_mode_name(letter, 1, name) : "");
  }
  csv_long_if(stream, zeno, e->zeno_impacts);
  csv_number_if(stream, zeno || diverging, e->zeno_ratio);
  csv_number_if(stream, zeno, e->zeno_error);
  csv_long_if(stream, zeno || diverging, e->zeno_period);
  csv_long_if(stream, zeno, e->zeno_order);
  csv_text_if(stream, end, zeno_outcome_name(e->outcome));
  csv_number_if(stream, isfinite(e->tie_margin), e->tie_margin);  // NaN: not measured
  fprintf(stream, ",%s,%s", csv_bool(e->near_tie), csv_bool(e->on_section));
  csv_number_if(stream, e->on_section, e->section_angle);
  event_state(stream, &e->before);
  event_state(stream, &e->after);
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

/* ---- maps ---------------------------------------------------------------- */

/// The maps' CSV columns (docs/outputs.md).
static const char MAPS_HEADER[] = "phi,R,G,word\n";

zeno_status zeno_io_maps_csv_header(FILE *stream, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  fputs(MAPS_HEADER, stream);
  return io_stream_status(stream, error);
}

static void maps_row(FILE *stream, const zeno_cycle *c) {
  io_put_number(stream, c->phi);
  fputc(',', stream);
  if (c->defined) {
    io_put_number(stream, c->R);
    fputc(',', stream);
    io_put_number(stream, c->G);
    fputc(',', stream);
  } else fputs(",,", stream);
  io_csv_text(stream, c->word);
  fputc('\n', stream);
}

zeno_status zeno_io_maps_csv_row(FILE *stream, const zeno_cycle *cycle, zeno_error *error) {
  if (stream == NULL || cycle == NULL) return io_no_stream(error);
  maps_row(stream, cycle);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_maps_csv(FILE *stream, const zeno_maps *maps, zeno_error *error) {
  if (stream == NULL || maps == NULL) return io_no_stream(error);
  fputs(MAPS_HEADER, stream);
  for (size_t k = 0; k < maps->sample_count; k++) maps_row(stream, &maps->samples[k]);
  return io_stream_status(stream, error);
}

const char *zeno_run_dir_row_kind_name(zeno_run_dir_row_kind kind) {
  switch (kind) {
    case ZENO_ROW_SAMPLE: return "sample";
    case ZENO_ROW_BEFORE: return "before";
    case ZENO_ROW_AFTER: return "after";
  }
  return "unknown";
}
