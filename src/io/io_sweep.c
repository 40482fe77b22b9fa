// Outcome sweep tables as CSV (zeno/io.h): one row per grid point, written
// by `zeno sweep` and read back when a sweep resumes from its journal. Rows
// round-trip exactly (17 significant digits; NaN is an empty field), so a
// resumed sweep writes the same table as one that ran without a break.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "io/io_fields.h"
#include "io/io_number.h"
#include "io/io_stream.h"
#include "zeno/io.h"

/// Columns of a row without the basin estimate's; of them, the results of
/// a run (outcome .. energy_gains), empty in an error row; the basin's.
#define SWEEP_COLUMNS 15
#define SWEEP_RESULT_COLUMNS 10
#define SWEEP_BASIN_COLUMNS 5

static const char *const COLUMN_NAMES[SWEEP_COLUMNS + SWEEP_BASIN_COLUMNS] = {"ix",
                                                                              "iy",
                                                                              "x",
                                                                              "y",
                                                                              "outcome",
                                                                              "t",
                                                                              "events",
                                                                              "impacts",
                                                                              "zeno",
                                                                              "zeno_time",
                                                                              "q1",
                                                                              "q2",
                                                                              "q3",
                                                                              "energy_gains",
                                                                              "basin_inner",
                                                                              "basin_outer",
                                                                              "basin_width",
                                                                              "basin_returns",
                                                                              "basin_transitions",
                                                                              "error"};

static bool with_basin(const zeno_sweep_def *d) { return d && d->basin.count > 0; }

static void sweep_header(FILE *f, const zeno_sweep_def *d, const char *zod) {
  fprintf(f, "ix,iy,%s,%s,outcome,t,events,impacts,zeno,zeno_time,%s,energy_gains,%serror\n",
          d->x.path, d->y.path, zod,
          with_basin(d) ? "basin_inner,basin_outer,basin_width,basin_returns,"
                          "basin_transitions,"
                        : "");
}

zeno_status zeno_io_sweep_header(FILE *f, const zeno_sweep_def *d, int contact_count,
                                 zeno_error *error) {
  if (f == NULL || d == NULL) return io_no_stream(error);
  sweep_header(f, d, contact_count == 1 ? "z1,x1,zod_theta" : "z1,z2,x2");
  return io_stream_status(f, error);
}

zeno_status zeno_io_sweep_header_of(FILE *f, const zeno_sweep_def *d, const zeno_scene *scene,
                                    zeno_error *error) {
  if (f == NULL || d == NULL || scene == NULL) return io_no_stream(error);
  if (scene->contact_count <= ZENO_PAIR_CONTACTS)
    return zeno_io_sweep_header(f, d, scene->contact_count, error);
  char names[3][ZENO_ZOD_NAME_SIZE], zod[3 * ZENO_ZOD_NAME_SIZE + 2];
  const zeno_status st = zeno_scene_zod_names(scene, names, error);
  if (st != ZENO_OK) return st;
  snprintf(zod, sizeof zod, "%s,%s,%s", names[0], names[1], names[2]);
  sweep_header(f, d, zod);
  return io_stream_status(f, error);
}

static void put(FILE *f, double v) {
  if (isnan(v)) fputc(',', f);
  else {
    fputc(',', f);
    io_put_number(f, v);
  }
}

zeno_status zeno_io_sweep_row(FILE *f, const zeno_sweep_def *d, const zeno_sweep_point *p,
                              zeno_error *error) {
  if (f == NULL || d == NULL || p == NULL) return io_no_stream(error);
  const bool basin = with_basin(d);
  fprintf(f, "%zu,%zu", p->ix, p->iy);
  put(f, p->x);
  put(f, p->y);
  if (!p->ok) {
    // The run's results and the basin's columns are empty.
    const int empty = SWEEP_RESULT_COLUMNS + (basin ? SWEEP_BASIN_COLUMNS : 0);
    for (int k = 0; k < empty; k++) fputc(',', f);
    fputc(',', f);
    io_csv_text(f, p->error);
    fputc('\n', f);
    return io_stream_status(f, error);
  }
  fprintf(f, ",%s", zeno_outcome_name(p->outcome));
  put(f, p->t);
  fprintf(f, ",%ld,%ld,%d", p->events, p->impacts, p->has_zeno ? 1 : 0);
  put(f, p->zeno_time);
  for (int c = 0; c < 3; c++) put(f, p->final_zod[c]);
  fprintf(f, ",%ld", p->energy_gains);
  if (basin) {
    put(f, p->basin_inner);
    put(f, p->basin_outer);
    put(f, p->basin_width);
    fprintf(f, ",%d,%d", p->basin_returns, p->basin_transitions);
  }
  fputs(",\n", f);
  return io_stream_status(f, error);
}

/* ---- reading ---- */

static bool read_outcome(io_field_reader *r, zeno_outcome *v) {
  if (!io_next_field(r)) return false;
  for (int k = ZENO_OUTCOME_REST; k <= ZENO_OUTCOME_WALL_LIMIT; k++)
    if (strcmp(r->text, zeno_outcome_name((zeno_outcome)k)) == 0) return *v = (zeno_outcome)k, true;
  return false;
}

// The fields of an error row between the axis values and the message:
// all empty.
static bool read_empty(io_field_reader *r, int n) {
  for (int k = 0; k < n; k++)
    if (!io_next_field(r) || r->text[0] != '\0') return false;
  return true;
}

static bool read_point(io_field_reader *r, bool basin, zeno_sweep_point *p) {
  if (!(io_read_size(r, &p->ix) && io_read_size(r, &p->iy) && io_read_double(r, &p->x) &&
        io_read_double(r, &p->y)))
    return false;
  if (r->next != NULL && *r->next == ',') {  // an error row: no outcome
    p->ok = false;
    return read_empty(r, SWEEP_RESULT_COLUMNS + (basin ? SWEEP_BASIN_COLUMNS : 0)) &&
           io_read_text(r, p->error, sizeof p->error, true) && p->error[0] != '\0';
  }
  int zeno = -1;
  p->ok = true;
  const bool ok = read_outcome(r, &p->outcome) && io_read_double(r, &p->t) &&
                  io_read_long(r, &p->events) && io_read_long(r, &p->impacts) &&
                  io_read_int(r, &zeno) && (zeno == 0 || zeno == 1) &&
                  io_read_optional_double(r, &p->zeno_time) &&
                  io_read_optional_double(r, &p->final_zod[0]) &&
                  io_read_optional_double(r, &p->final_zod[1]) &&
                  io_read_optional_double(r, &p->final_zod[2]) && io_read_long(r, &p->energy_gains);
  p->has_zeno = zeno == 1;
  if (!ok) return false;
  if (basin &&
      !(io_read_optional_double(r, &p->basin_inner) &&
        io_read_optional_double(r, &p->basin_outer) && io_read_double(r, &p->basin_width) &&
        io_read_int(r, &p->basin_returns) && io_read_int(r, &p->basin_transitions)))
    return false;
  return io_read_text(r, p->error, sizeof p->error, true) && p->error[0] == '\0';
}

zeno_status zeno_io_sweep_parse(const char *line, const zeno_sweep_def *d, zeno_sweep_point *point,
                                zeno_error *error) {
  if (line == NULL || d == NULL || point == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "line, settings and point are required");
  zeno_sweep_point p;
  memset(&p, 0, sizeof p);
  p.zeno_time = p.basin_inner = p.basin_outer = NAN;
  io_field_reader r = {.next = line, .column = 0};
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  const bool ok = read_point(&r, with_basin(d), &p);
  zeno_locale_leave(&scope);
  if (!ok) {
    // Columns past energy_gains are the basin's only with a basin estimate.
    int column = r.column;
    if (!with_basin(d) && column > SWEEP_COLUMNS - 1) column += SWEEP_BASIN_COLUMNS;
    return zeno_fail(error, ZENO_ERR_SYNTAX, "", "sweep row: field %d (%s) is not valid", r.column,
                     column >= 1 && column <= SWEEP_COLUMNS + SWEEP_BASIN_COLUMNS
                         ? COLUMN_NAMES[column - 1]
                         : "end of row");
  }
  *point = p;
  return ZENO_OK;
}
