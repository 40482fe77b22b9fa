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
#include "io/io_number.h"
#include "io/io_stream.h"
#include "zeno/io.h"

/// Columns of a row.
#define REGION_COLUMNS 22
/// Longest field accepted when reading (the error message is the longest).
#define REGION_FIELD_SIZE IO_FIELD_SIZE
/// Theorems that decide a verdict are numbered 1 to this; none is written
/// as an empty field (JSON: null).
#define REGION_THEOREM_MAX 4

// clang-format off
static const char *const COLUMN_NAMES[REGION_COLUMNS] = {
    "ix",         "iy",           "x",           "y",           "region",
    "region_name", "theorem",     "verdict",     "persistent",  "G_max",
    "fixed_point_phi", "fixed_point_G", "fixed_points", "partition", "unsafe",
    "mc_runs",    "mc_rest",      "mc_full_runs", "mc_full_rest", "sim",
    "on_breakpoint", "error"};
// clang-format on

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

/// Room for a row: its numbers (17 digits, a sign, a point and an exponent
/// each), names and the error message quoted (every character doubled at
/// worst).
#define REGION_ROW_SIZE (2 * ZENO_REGION_ERROR_SIZE + 512)

/// A row formatted in memory, then written with one fwrite: a dozen
/// fprintf calls a row were most of a region map's output cost.
typedef struct row_text {
  char text[REGION_ROW_SIZE];
  size_t length;
} row_text;

static void add_chars(row_text *b, const char *t, size_t n) {
  if (n > REGION_ROW_SIZE - 1 - b->length) n = REGION_ROW_SIZE - 1 - b->length;
  memcpy(b->text + b->length, t, n);
  b->length += n;
}

static void add_text(row_text *b, const char *t) { add_chars(b, t, strlen(t)); }

static void add_char(row_text *b, char c) { add_chars(b, &c, 1); }

// ",%zu" or ",%d" (the integers of a row).
static void add_integer(row_text *b, long long v) {
  char digits[24];
  size_t n = sizeof digits;
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do {
    digits[--n] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) digits[--n] = '-';
  add_chars(b, digits + n, sizeof digits - n);
}

// "," then the number to 17 significant digits, or "nan".
static void add_number(row_text *b, double v) {
  add_char(b, ',');
  if (isnan(v)) {
    add_text(b, "nan");
    return;
  }
  char number[IO_NUMBER_SIZE];
  add_chars(b, number, io_format_number(v, number));
}

// io_csv_text() into the row: quoted when it holds a comma, a quote or a
// line break.
static void add_csv_text(row_text *b, const char *text) {
  if (strpbrk(text, ",\"\r\n") == NULL) {
    add_text(b, text);
    return;
  }
  add_char(b, '"');
  for (const char *p = text; *p; p++) {
    if (*p == '"') add_char(b, '"');
    add_char(b, *p);
  }
  add_char(b, '"');
}

zeno_status zeno_io_region_row(FILE *stream, const zeno_region_point *p, zeno_error *error) {
  if (stream == NULL || p == NULL) return io_no_stream(error);
  row_text b = {.length = 0};
  add_integer(&b, (long long)p->ix);
  add_char(&b, ',');
  add_integer(&b, (long long)p->iy);
  add_number(&b, p->x);
  add_number(&b, p->y);
  add_char(&b, ',');
  add_integer(&b, p->region);
  add_char(&b, ',');
  add_csv_text(&b, zeno_region_name(p->region));
  add_char(&b, ',');
  if (p->theorem != 0) add_integer(&b, p->theorem);
  add_char(&b, ',');
  add_text(&b, zeno_verdict_name(p->verdict));
  add_text(&b, p->persistent ? ",1" : ",0");
  add_number(&b, p->G_max);
  add_number(&b, p->fixed_point_phi);
  add_number(&b, p->fixed_point_G);
  const long long counts[] = {(long long)p->fixed_point_count,
                              (long long)p->partition_count,
                              (long long)p->unsafe_count,
                              p->mc_runs,
                              p->mc_rest,
                              p->mc_full_runs,
                              p->mc_full_rest};
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
    add_char(&b, ',');
    add_integer(&b, counts[k]);
  }
  add_char(&b, ',');
  add_text(&b, zeno_region_sim_name(p->sim));
  add_char(&b, ',');
  add_integer(&b, p->on_breakpoint);
  add_char(&b, ',');
  // The message as a terminated string of at most ZENO_REGION_ERROR_SIZE - 1
  // characters, whatever the struct holds.
  char message[ZENO_REGION_ERROR_SIZE];
  const size_t m = strnlen(p->error, sizeof message - 1);
  memcpy(message, p->error, m);
  message[m] = '\0';
  add_csv_text(&b, message);
  add_char(&b, '\n');
  fwrite(b.text, 1, b.length, stream);
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
  const zeno_verdict all[] = {ZENO_VERDICT_UNDECIDED, ZENO_VERDICT_STABLE, ZENO_VERDICT_UNSTABLE};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
    if (strcmp(r->text, zeno_verdict_name(all[k])) == 0) return *v = all[k], true;
  return false;
}

static bool read_sim(io_field_reader *r, zeno_region_sim *v) {
  if (!io_next_field(r)) return false;
  const zeno_region_sim all[] = {ZENO_REGION_SIM_NONE, ZENO_REGION_SIM_RESTS,
                                 ZENO_REGION_SIM_DEPARTS, ZENO_REGION_SIM_SLOW};
  for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
    if (strcmp(r->text, zeno_region_sim_name(all[k])) == 0) return *v = all[k], true;
  return false;
}

zeno_status zeno_io_region_parse(const char *line, zeno_region_point *point, zeno_error *error) {
  if (line == NULL || point == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "line and point are required");
  zeno_region_point p;
  memset(&p, 0, sizeof p);
  io_field_reader r = {.next = line, .column = 0};
  int persistent = 0;
  char region_name[REGION_FIELD_SIZE];
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  const bool ok = io_read_size(&r, &p.ix) && io_read_size(&r, &p.iy) && io_read_double(&r, &p.x) &&
                  io_read_double(&r, &p.y) && io_read_int(&r, &p.region) &&
                  io_read_text(&r, region_name, sizeof region_name, false) &&
                  read_theorem(&r, &p.theorem) && read_verdict(&r, &p.verdict) &&
                  io_read_int(&r, &persistent) && io_read_double(&r, &p.G_max) &&
                  io_read_double(&r, &p.fixed_point_phi) && io_read_double(&r, &p.fixed_point_G) &&
                  io_read_size(&r, &p.fixed_point_count) && io_read_size(&r, &p.partition_count) &&
                  io_read_size(&r, &p.unsafe_count) && io_read_int(&r, &p.mc_runs) &&
                  io_read_int(&r, &p.mc_rest) && io_read_int(&r, &p.mc_full_runs) &&
                  io_read_int(&r, &p.mc_full_rest) && read_sim(&r, &p.sim) &&
                  io_read_int(&r, &p.on_breakpoint) &&
                  io_read_text(&r, p.error, sizeof p.error, true);
  zeno_locale_leave(&scope);
  const bool region_ok = p.region >= 0 ? p.region < ZENO_REGION_COUNT && p.error[0] == '\0'
                                       : p.region == ZENO_REGION_ERROR && p.error[0] != '\0';
  const bool name_ok = strcmp(region_name, zeno_region_name(p.region)) == 0;
  const bool breakpoint_ok = p.on_breakpoint >= 0 && p.on_breakpoint <= 2;
  if (!ok || !region_ok || !name_ok || (persistent != 0 && persistent != 1) || !breakpoint_ok) {
    const int column = !ok              ? r.column
                       : !region_ok     ? column_number("region")
                       : !name_ok       ? column_number("region_name")
                       : !breakpoint_ok ? column_number("on_breakpoint")
                                        : column_number("persistent");
    return zeno_fail(error, ZENO_ERR_SYNTAX, "", "region row: field %d (%s) is not valid", column,
                     column >= 1 && column <= REGION_COLUMNS ? COLUMN_NAMES[column - 1]
                                                             : "end of row");
  }
  p.persistent = persistent == 1;
  p.has_maps = !isnan(p.G_max);
  *point = p;
  return ZENO_OK;
}
