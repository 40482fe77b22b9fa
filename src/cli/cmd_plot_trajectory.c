// `zeno plot-trajectory DIR --plot FILE`: draws z1, z2 and x2 against t
// from DIR/trajectory.csv, with event ticks from DIR/events.jsonl, both read
// by the library's run-directory reader (zeno/run_dir.h).
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_figure.h"
#include "cli_module.h"
#include "cli_signal.h"
#include "cli_stability.h"

static const char *const COMMAND = "plot-trajectory";
#define TITLE_SIZE 256

/* Long-only options get values outside the character range. */
enum {
  OPT_TIME_AXIS = 256,
};

typedef struct plot_trajectory_options {
  const char *dir;
  const char *plot_path;
  const char *title;             ///< --title, or NULL for a default
  bool log_time;                 ///< --time-axis log
  const zeno_plot_module *plot;  ///< loaded once --plot is known
  cli_figure figure;             ///< --size, --dpi, --font-scale, --xlim, --ylim
  plot_options checked;          ///< the figure options, checked against --plot
} plot_trajectory_options;

static void print_help(void) {
  printf(
      "Usage: zeno plot-trajectory DIR --plot FILE [OPTIONS]\n"
      "\n"
      "Draws the ZOD coordinates z1, z2 (normal gaps) and x2 (slip of\n"
      "contact 2) against time t from DIR/trajectory.csv, with a tick on the\n"
      "time axis for every event of DIR/events.jsonl (taller and black for\n"
      "impacts), the time shaded by the contact mode in force (a legend names\n"
      "the modes). Lengths [L] and times [T] are in the scene's units. Both\n"
      "files are written by 'zeno simulate SCENE --out DIR'.\n"
      "Bad input exits 2; file errors exit 1.\n"
      "\n"
      "Options:\n"
      "  -p, --plot FILE      the figure to write (.png, .svg, .pdf); required\n"
      "  -t, --title TEXT     figure title (default: the directory)\n"
      "      --time-axis A    'linear' (default): the abscissa is t; 'log': it\n"
      "                       is t* - t on a log scale, t* the accumulation\n"
      "                       time of the run's first Zeno completion (its\n"
      "                       'zeno' event; refused for a run without one)\n"
      "  -h, --help           show this help\n"
      "\n" CLI_FIGURE_HELP
      "(--xlim in the abscissa's units: t, or t* - t > 0 with --time-axis log;\n"
      "--ylim is the range of the gaps, the top panel)\n");
}

static const struct option LONG_OPTIONS[] = {
    {"plot", required_argument, NULL, 'p'},
    {"title", required_argument, NULL, 't'},
    {"time-axis", required_argument, NULL, OPT_TIME_AXIS},
    CLI_FIGURE_LONG_OPTIONS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(plot_trajectory_options *o, int option, char **argv) {
  if (cli_figure_is_option(option)) return cli_figure_option(COMMAND, &o->figure, option, optarg);
  switch (option) {
    case OPT_TIME_AXIS:
      if (strcmp(optarg, "linear") != 0 && strcmp(optarg, "log") != 0)
        return cli_usage_error(COMMAND, "--time-axis %s: expected 'linear' or 'log'", optarg);
      o->log_time = strcmp(optarg, "log") == 0;
      return CLI_CONTINUE;
    case 'p': o->plot_path = optarg; return CLI_CONTINUE;
    case 't': o->title = optarg; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

static int parse_options(int argc, char **argv, plot_trajectory_options *o) {
  opterr = 0;
  int option;
  while ((option = cli_getopt(argc, argv, ":p:t:h", LONG_OPTIONS)) != -1) {
    const int code = apply_option(o, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  if (optind >= argc) return cli_usage_error(COMMAND, "missing DIR argument");
  if (optind + 1 < argc)
    return cli_usage_error(COMMAND, "unexpected argument '%s'", argv[optind + 1]);
  o->dir = argv[optind];
  if (o->plot_path == NULL) return cli_usage_error(COMMAND, "--plot FILE is required");
  o->plot = cli_plot_module();
  if (o->plot == NULL) return CLI_EXIT_RUNTIME;
  if (!o->plot->format_known(o->plot_path))
    return cli_usage_error(COMMAND, "--plot: '%s' must end in .png, .svg or .pdf", o->plot_path);
  if (o->log_time && o->figure.plot.has_xlim && !(o->figure.plot.xlim[0] > 0))
    return cli_usage_error(COMMAND,
                           "%s: with --time-axis log the limits are values of t* - t and "
                           "must be > 0",
                           o->figure.xlim_typed);
  return cli_figure_check(COMMAND, &o->figure, &o->plot_path, 1, &o->checked);
}

/* ---- the run directory ------------------------------------------------------ */

/// Reads DIR/trajectory.csv (required) and DIR/events.jsonl (optional: a
/// note when it cannot be read, and no event ticks) with the library's
/// reader.
static int read_run(const char *dir, zeno_run_dir_data *d) {
  char *trajectory = zeno_io_path_join(dir, ZENO_RUN_DIR_TRAJECTORY);
  char *events = zeno_io_path_join(dir, ZENO_RUN_DIR_EVENTS);
  zeno_error err;
  int code = CLI_EXIT_OK;
  if (trajectory == NULL || events == NULL) {
    cli_error("out of memory");
    code = CLI_EXIT_RUNTIME;
  } else if (zeno_run_dir_read_trajectory(trajectory, d, &err) != ZENO_OK) {
    code = cli_library_error(&err);
  } else if (zeno_run_dir_read_events(events, d, &err) != ZENO_OK) {
    if (err.code == ZENO_ERR_IO) cli_error("note: %s: no event ticks", err.message);
    else code = cli_library_error(&err);
  }
  free(trajectory);
  free(events);
  return code;
}

/// The columns the figure draws (t, z1, z2, x2), the mode of each row
/// (its band) and the event ticks.
typedef struct figure_data {
  double *column[4];
  char (*mode)[ZENO_MODE_NAME_SIZE];
  double *event_t;
  bool *event_impact;
} figure_data;

static void figure_free(figure_data *f) {
  for (int c = 0; c < 4; c++) free(f->column[c]);
  free(f->mode);
  free(f->event_t);
  free(f->event_impact);
}

static bool figure_from_run(const zeno_run_dir_data *d, figure_data *f) {
  memset(f, 0, sizeof *f);
  const size_t rows = d->row_count ? d->row_count : 1;
  const size_t events = d->event_count ? d->event_count : 1;
  for (int c = 0; c < 4; c++) f->column[c] = malloc(rows * sizeof(double));
  f->mode = malloc(rows * sizeof *f->mode);
  f->event_t = malloc(events * sizeof *f->event_t);
  f->event_impact = malloc(events * sizeof *f->event_impact);
  for (int c = 0; c < 4; c++)
    if (f->column[c] == NULL) return false;
  if (f->mode == NULL || f->event_t == NULL || f->event_impact == NULL) return false;
  for (size_t i = 0; i < d->row_count; i++) {
    f->column[0][i] = d->rows[i].t;
    zeno_mode_name(d->rows[i].mode, d->contact_count, f->mode[i]);
    for (int c = 1; c < 4; c++) f->column[c][i] = d->rows[i].zod[c - 1];
  }
  for (size_t i = 0; i < d->event_count; i++) {
    f->event_t[i] = d->events[i].t;
    f->event_impact[i] = d->events[i].kind == ZENO_EVENT_IMPACT;
  }
  return true;
}

/* ---- the command --------------------------------------------------------- */

/// The time of the run's first Zeno completion (its accumulation point),
/// NAN when it has none.
static double accumulation_time(const zeno_run_dir_data *d) {
  for (size_t i = 0; i < d->event_count; i++)
    if (d->events[i].kind == ZENO_EVENT_ZENO) return d->events[i].t;
  return NAN;
}

static int draw(const plot_trajectory_options *o, const zeno_run_dir_data *d) {
  const double t_star = o->log_time ? accumulation_time(d) : NAN;
  if (o->log_time && !isfinite(t_star))
    return cli_usage_error(COMMAND,
                           "--time-axis log: the run in '%s' has no Zeno completion (no "
                           "'zeno' event in %s), so there is no accumulation time t*",
                           o->dir, ZENO_RUN_DIR_EVENTS);
  char title[TITLE_SIZE], names[3 * ZENO_ZOD_NAME_SIZE + 4];
  const char(*q)[ZENO_ZOD_NAME_SIZE] = d->zod_names;
  if (d->contact_count > ZENO_PAIR_CONTACTS)
    snprintf(names, sizeof names, "%s, %s, %s", q[0], q[1], q[2]);
  else snprintf(names, sizeof names, "%s", d->contact_count == 1 ? "z1, x1, theta" : "z1, z2, x2");
  if (o->title) snprintf(title, sizeof title, "%s", o->title);
  else snprintf(title, sizeof title, "q'(t) = (%s) from %s", names, o->dir);
  figure_data f;
  if (!figure_from_run(d, &f)) {
    figure_free(&f);
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  const plot_trajectory_input input = {.title = title,
                                       .count = d->row_count,
                                       .t = f.column[0],
                                       .z1 = f.column[1],
                                       .z2 = f.column[2],
                                       .x2 = f.column[3],
                                       .event_count = d->event_count,
                                       .event_t = f.event_t,
                                       .event_impact = f.event_impact,
                                       .contact_count = d->contact_count,
                                       .zod_names = q,
                                       .accumulation_t = t_star,
                                       .options = &o->checked,
                                       .mode = (const char(*)[ZENO_MODE_NAME_SIZE])f.mode};
  // Ctrl-C and SIGTERM while the figure is drawn drop it (plot_options.
  // stop): the file aside is removed, the previous one kept. While the run
  // is read they end the program at once, which has nothing to clean up.
  cli_signals_cooperate();
  const plot_status status = o->plot->trajectory(o->plot_path, &input);
  figure_free(&f);
  return cli_plot_result(o->plot, o->plot_path, status);
}

int cmd_plot_trajectory(int argc, char **argv) {
  plot_trajectory_options o = {0};
  cli_figure_init(&o.figure);
  int code = parse_options(argc, argv, &o);
  if (code != CLI_CONTINUE) return code;
  zeno_run_dir_data d = {0};
  code = read_run(o.dir, &d);
  if (code == CLI_EXIT_OK) code = draw(&o, &d);
  zeno_run_dir_data_free(&d);
  return code;
}
