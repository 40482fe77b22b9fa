// `zeno plot-trajectory DIR --plot FILE`: draws z1, z2 and x2 against t
// from DIR/trajectory.csv, with event ticks from DIR/events.jsonl, both as
// written by `zeno simulate --out DIR`.
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "plot/plot.h"

static const char *const COMMAND = "plot-trajectory";
static const char *const TRAJECTORY_FILE = "trajectory.csv";
static const char *const EVENTS_FILE = "events.jsonl";
/// Columns drawn, by their header names.
static const char *const COLUMN_NAMES[] = {"t", "z1", "z2", "x2"};
/// Event members read from each JSON line.
static const char *const EVENT_TIME_KEY = "\"t\":";
static const char *const IMPACT_KIND = "\"kind\": \"impact\"";

#define COLUMN_COUNT 4
/// First capacity of the growing arrays.
#define ROWS_INITIAL 1024
#define TITLE_SIZE 256

typedef struct plot_trajectory_options {
  const char *dir;
  const char *plot_path;
  const char *title; ///< --title, or NULL for a default
} plot_trajectory_options;

/// What the figure draws: columns t, z1, z2, x2 and the events.
typedef struct trajectory_data {
  double *column[COLUMN_COUNT];
  int count, capacity;
  double *event_t;
  bool *event_impact;
  int event_count, event_capacity;
} trajectory_data;

static void print_help(void) {
  printf(
      "Usage: zeno plot-trajectory DIR --plot FILE [OPTIONS]\n"
      "\n"
      "Draws the ZOD coordinates z1, z2 (normal gaps) and x2 (slip of\n"
      "contact 2) against time t from DIR/trajectory.csv, with a tick on the\n"
      "time axis for every event of DIR/events.jsonl (taller and black for\n"
      "impacts). Both files are written by 'zeno simulate SCENE --out DIR'.\n"
      "Bad input exits 2; file errors exit 1.\n"
      "\n"
      "Options:\n"
      "  -p, --plot FILE      the figure to write (.png or .svg); required\n"
      "  -t, --title TEXT     figure title (default: the directory)\n"
      "  -h, --help           show this help\n");
}

static const struct option LONG_OPTIONS[] = {
    {"plot", required_argument, NULL, 'p'},
    {"title", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(plot_trajectory_options *o, int option, char **argv) {
  switch (option) {
    case 'p': o->plot_path = optarg; return CLI_CONTINUE;
    case 't': o->title = optarg; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

static int parse_options(int argc, char **argv, plot_trajectory_options *o) {
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, ":p:t:h", LONG_OPTIONS, NULL)) != -1) {
    const int code = apply_option(o, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  if (optind >= argc) return cli_usage_error(COMMAND, "missing DIR argument");
  if (optind + 1 < argc)
    return cli_usage_error(COMMAND, "unexpected argument '%s'", argv[optind + 1]);
  o->dir = argv[optind];
  if (o->plot_path == NULL) return cli_usage_error(COMMAND, "--plot FILE is required");
  if (!plot_format_known(o->plot_path))
    return cli_usage_error(COMMAND, "--plot: '%s' must end in .png or .svg",
                           o->plot_path);
  return CLI_CONTINUE;
}

/* ---- reading the files ------------------------------------------------------- */

static void data_free(trajectory_data *d) {
  for (int c = 0; c < COLUMN_COUNT; c++) free(d->column[c]);
  free(d->event_t);
  free(d->event_impact);
  memset(d, 0, sizeof *d);
}

static bool grow_rows(trajectory_data *d) {
  if (d->count < d->capacity) return true;
  const int capacity = d->capacity ? 2 * d->capacity : ROWS_INITIAL;
  for (int c = 0; c < COLUMN_COUNT; c++) {
    double *p = realloc(d->column[c], (size_t)capacity * sizeof *p);
    if (p == NULL) return false;
    d->column[c] = p;
  }
  d->capacity = capacity;
  return true;
}

static bool grow_events(trajectory_data *d) {
  if (d->event_count < d->event_capacity) return true;
  const int capacity = d->event_capacity ? 2 * d->event_capacity : ROWS_INITIAL;
  double *t = realloc(d->event_t, (size_t)capacity * sizeof *t);
  if (t == NULL) return false;
  d->event_t = t;
  bool *impact = realloc(d->event_impact, (size_t)capacity * sizeof *impact);
  if (impact == NULL) return false;
  d->event_impact = impact;
  d->event_capacity = capacity;
  return true;
}

/// Field positions of the drawn columns in the CSV header; false when one
/// is missing.
static bool header_positions(char *header, int *position) {
  for (int c = 0; c < COLUMN_COUNT; c++) position[c] = -1;
  header[strcspn(header, "\r\n")] = '\0';
  int field = 0;
  for (char *name = strtok(header, ","); name; name = strtok(NULL, ","), field++)
    for (int c = 0; c < COLUMN_COUNT; c++)
      if (strcmp(name, COLUMN_NAMES[c]) == 0) position[c] = field;
  for (int c = 0; c < COLUMN_COUNT; c++)
    if (position[c] < 0) return false;
  return true;
}

/// Parses the drawn fields of one data row; false when one is not a number.
static bool parse_row(const char *line, const int *position, double *value) {
  int found = 0, field = 0;
  for (const char *p = line; found < COLUMN_COUNT; field++) {
    for (int c = 0; c < COLUMN_COUNT; c++) {
      if (position[c] != field) continue;
      char *end;
      value[c] = strtod(p, &end);
      if (end == p || (*end != ',' && *end != '\n' && *end != '\r' && *end))
        return false;
      found++;
    }
    p = strchr(p, ',');
    if (p == NULL) break;
    p++;
  }
  return found == COLUMN_COUNT;
}

static int bad_file(const char *path, long line, const char *why) {
  cli_error("%s:%ld: %s", path, line, why);
  return CLI_EXIT_USAGE;
}

static int read_rows(FILE *f, const char *path, trajectory_data *d) {
  char *line = NULL;
  size_t size = 0;
  int position[COLUMN_COUNT];
  int code = CLI_EXIT_OK;
  if (getline(&line, &size, f) < 0 || !header_positions(line, position))
    code = bad_file(path, 1, "no trajectory header with t, z1, z2, x2");
  for (long number = 2; code == CLI_EXIT_OK && getline(&line, &size, f) >= 0;
       number++) {
    double value[COLUMN_COUNT];
    if (!parse_row(line, position, value)) {
      code = bad_file(path, number, "malformed row");
    } else if (!grow_rows(d)) {
      cli_error("out of memory");
      code = CLI_EXIT_RUNTIME;
    } else {
      for (int c = 0; c < COLUMN_COUNT; c++) d->column[c][d->count] = value[c];
      d->count++;
    }
  }
  free(line);
  if (code == CLI_EXIT_OK && d->count == 0) code = bad_file(path, 2, "no rows");
  return code;
}

/// Adds the event of one JSON line: its time and whether it is an impact.
static int add_event(const char *line, const char *path, long number,
                     trajectory_data *d) {
  const char *t = strstr(line, EVENT_TIME_KEY);
  if (t == NULL) return bad_file(path, number, "event without a time \"t\"");
  t += strlen(EVENT_TIME_KEY);
  char *end;
  double time = strtod(t, &end);
  if (end == t) time = NAN; // null: not a finite time, no tick
  if (!grow_events(d)) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  d->event_t[d->event_count] = time;
  d->event_impact[d->event_count++] = strstr(line, IMPACT_KIND) != NULL;
  return CLI_EXIT_OK;
}

static int read_events(FILE *f, const char *path, trajectory_data *d) {
  char *line = NULL;
  size_t size = 0;
  int code = CLI_EXIT_OK;
  for (long number = 1; code == CLI_EXIT_OK && getline(&line, &size, f) >= 0;
       number++)
    code = add_event(line, path, number, d);
  free(line);
  return code;
}

typedef int (*reader_fn)(FILE *f, const char *path, trajectory_data *d);

/// Opens DIR/name and reads it; a missing file is bad input unless
/// `optional` (then a note is printed).
static int read_file(const char *dir, const char *name, bool optional,
                     reader_fn reader, trajectory_data *d) {
  char *path = cli_path_join(dir, name);
  if (path == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  int code = CLI_EXIT_OK;
  FILE *f = fopen(path, "r");
  if (f == NULL && optional) {
    cli_error("note: cannot read '%s' (%s): no event ticks", path, strerror(errno));
  } else if (f == NULL) {
    cli_error("cannot read '%s': %s", path, strerror(errno));
    code = CLI_EXIT_USAGE;
  } else {
    code = reader(f, path, d);
    fclose(f);
  }
  free(path);
  return code;
}

/* ---- the command --------------------------------------------------------- */

static int draw(const plot_trajectory_options *o, const trajectory_data *d) {
  char title[TITLE_SIZE];
  if (o->title)
    snprintf(title, sizeof title, "%s", o->title);
  else
    snprintf(title, sizeof title, "q'(t) = (z1, z2, x2) from %s", o->dir);
  const plot_trajectory_input input = {
      title,      d->count,      d->column[0],    d->column[1], d->column[2],
      d->column[3], d->event_count, d->event_t, d->event_impact};
  const plot_status status = plot_trajectory(o->plot_path, &input);
  if (status == PLOT_OK) return CLI_EXIT_OK;
  cli_error("cannot write '%s': %s", o->plot_path, plot_status_message(status));
  return CLI_EXIT_RUNTIME;
}

int cmd_plot_trajectory(int argc, char **argv) {
  plot_trajectory_options o = {0};
  int code = parse_options(argc, argv, &o);
  if (code != CLI_CONTINUE) return code;
  trajectory_data d = {0};
  code = read_file(o.dir, TRAJECTORY_FILE, false, read_rows, &d);
  if (code == CLI_EXIT_OK)
    code = read_file(o.dir, EVENTS_FILE, true, read_events, &d);
  if (code == CLI_EXIT_OK) code = draw(&o, &d);
  data_free(&d);
  plot_release_caches();
  return code;
}
