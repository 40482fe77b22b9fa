// Region tables as CSV: one row per grid point, written by sweeps and read
// back when a sweep resumes from its journal (a row's region_name must be
// its region's; a theorem field is empty or 1-4). Rows round-trip exactly
// (17 significant digits), so a resumed sweep writes the same table as one
// that ran without interruption.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/io_fields.h"
#include "io/io_stream.h"
#include "zeno/io.h"

/// Columns of a row.
#define REGION_COLUMNS 22
/// Longest field accepted when reading (the error message is the longest).
#define REGION_FIELD_SIZE IO_FIELD_SIZE
/// Theorems that decide a verdict are numbered 1 to this; none is written
/// as an empty field (JSON: null).
#define REGION_THEOREM_MAX 4

static const char *const COLUMN_NAMES[REGION_COLUMNS] = {
    "ix",         "iy",           "x",           "y",           "region",
    "region_name", "theorem",     "verdict",     "persistent",  "G_max",
    "fixed_point_phi", "fixed_point_G", "fixed_points", "partition", "unsafe",
    "mc_runs",    "mc_rest",      "mc_full_runs", "mc_full_rest", "sim",
    "on_breakpoint", "error"};

/// The 1-based column of a name of COLUMN_NAMES (0 when it is none).
static int column_number(const char *name) {
  for (int c = 0; c < REGION_COLUMNS; c++)
    if (strcmp(COLUMN_NAMES[c], name) == 0) return c + 1;
  return 0;
}

zeno_status zeno_io_regions_header(FILE *stream, const zeno_region_axis *x,
                                   const zeno_region_axis *y, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  for (int c = 0; c < REGION_COLUMNS; c++) {
    const char *name = COLUMN_NAMES[c];
    if (c == 2 && x) name = x->path;
    if (c == 3 && y) name = y->path;
    fprintf(stream, "%s%s", c ? "," : "", name);
  }
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

static void put(FILE *f, double v) {
  if (isnan(v))
    fputs(",nan", f);
  else
    fprintf(f, "," IO_NUMBER_FORMAT, v);
}

zeno_status zeno_io_region_row(FILE *stream, const zeno_region_point *p,
                               zeno_error *error) {
  if (stream == NULL || p == NULL) return io_no_stream(error);
  fprintf(stream, "%zu,%zu", p->ix, p->iy);
  put(stream, p->x);
  put(stream, p->y);
  fprintf(stream, ",%d,", p->region);
  io_csv_text(stream, zeno_region_name(p->region));
  fputc(',', stream);
  if (p->theorem != 0) fprintf(stream, "%d", p->theorem);
  fprintf(stream, ",%s,%d", zeno_verdict_name(p->verdict), p->persistent ? 1 : 0);
  put(stream, p->G_max);
  put(stream, p->fixed_point_phi);
  put(stream, p->fixed_point_G);
  fprintf(stream, ",%zu,%zu,%zu,%d,%d,%d,%d,%s,%d,", p->fixed_point_count,
          p->partition_count, p->unsafe_count, p->mc_runs, p->mc_rest, p->mc_full_runs,
          p->mc_full_rest, zeno_region_sim_name(p->sim), p->on_breakpoint);
  char message[ZENO_REGION_ERROR_SIZE];
  snprintf(message, sizeof message, "%s", p->error);
  io_csv_text(stream, message);
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

/* ---- reading ---- */

// The theorem: empty when none decides, else 1..REGION_THEOREM_MAX.
static bool read_theorem(io_field_reader *r, int *theorem) {
  if (r->next != NULL && *r->next == ',') {
    r->column++;
    r->next++;
    *theorem = 0;
    return true;
  }
  return io_read_int(r, theorem) && *theorem >= 1 && *theorem <= REGION_THEOREM_MAX;
}

static bool read_verdict(io_field_reader *r, zeno_verdict *v) {
  if (!io_next_field(r)) return false;
  const zeno_verdict all[] = {ZENO_VERDICT_UNDECIDED, ZENO_VERDICT_STABLE,
                              ZENO_VERDICT_UNSTABLE};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
    if (strcmp(r->text, zeno_verdict_name(all[k])) == 0) return *v = all[k], true;
  return false;
}

static bool read_sim(io_field_reader *r, zeno_region_sim *v) {
  if (!io_next_field(r)) return false;
  const zeno_region_sim all[] = {ZENO_REGION_SIM_NONE, ZENO_REGION_SIM_RESTS,
                                 ZENO_REGION_SIM_DEPARTS};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
    if (strcmp(r->text, zeno_region_sim_name(all[k])) == 0) return *v = all[k], true;
  return false;
}

zeno_status zeno_io_region_parse(const char *line, zeno_region_point *point,
                                 zeno_error *error) {
  if (line == NULL || point == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "line and point are required");
  zeno_region_point p;
  memset(&p, 0, sizeof p);
  io_field_reader r = {.next = line, .column = 0};
  int persistent = 0;
  char region_name[REGION_FIELD_SIZE];
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  const bool ok =
      io_read_size(&r, &p.ix) && io_read_size(&r, &p.iy) && io_read_double(&r, &p.x) &&
      io_read_double(&r, &p.y) && io_read_int(&r, &p.region) &&
      io_read_text(&r, region_name, sizeof region_name, false) && read_theorem(&r, &p.theorem) &&
      read_verdict(&r, &p.verdict) && io_read_int(&r, &persistent) &&
      io_read_double(&r, &p.G_max) && io_read_double(&r, &p.fixed_point_phi) &&
      io_read_double(&r, &p.fixed_point_G) && io_read_size(&r, &p.fixed_point_count) &&
      io_read_size(&r, &p.partition_count) && io_read_size(&r, &p.unsafe_count) &&
      io_read_int(&r, &p.mc_runs) && io_read_int(&r, &p.mc_rest) &&
      io_read_int(&r, &p.mc_full_runs) && io_read_int(&r, &p.mc_full_rest) &&
      read_sim(&r, &p.sim) && io_read_int(&r, &p.on_breakpoint) &&
      io_read_text(&r, p.error, sizeof p.error, true);
  zeno_locale_leave(&scope);
  const bool region_ok = p.region >= 0 ? p.region < ZENO_REGION_COUNT && p.error[0] == '\0'
                                       : p.region == ZENO_REGION_ERROR && p.error[0] != '\0';
  const bool name_ok = strcmp(region_name, zeno_region_name(p.region)) == 0;
  const bool breakpoint_ok = p.on_breakpoint >= 0 && p.on_breakpoint <= 2;
  if (!ok || !region_ok || !name_ok || (persistent != 0 && persistent != 1) ||
      !breakpoint_ok) {
    const int column = !ok              ? r.column
                       : !region_ok     ? column_number("region")
                       : !name_ok       ? column_number("region_name")
                       : !breakpoint_ok ? column_number("on_breakpoint")
                                        : column_number("persistent");
    return zeno_fail(error, ZENO_ERR_SYNTAX, "",
                     "region row: field %d (%s) is not valid", column,
                     column >= 1 && column <= REGION_COLUMNS ? COLUMN_NAMES[column - 1]
                                                             : "end of row");
  }
  p.persistent = persistent == 1;
  p.has_maps = !isnan(p.G_max);
  *point = p;
  return ZENO_OK;
}
