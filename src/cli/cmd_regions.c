// `zeno regions SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N`: the stability
// region map of two scene parameters (paper Examples 6 and 7, Fig. 8).
//
// Rows are computed in parallel (OpenMP threads inside a row; Open MPI ranks
// over rows in zeno-mpi, see regions_dist.h). With --out, every finished row
// is appended to DIR/regions.journal at once (regions_journal.h), so a killed
// sweep restarted with the same --out computes only the rows it had not
// finished; at the end
// DIR/regions.csv (every point in grid order) and DIR/summary.json are
// written. Rank 0 alone writes files, the progress line and the summary.
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_stability.h"
#include "regions_dist.h"
#include "regions_journal.h"

#define COMMAND_NAME "regions"
static const char *const COMMAND = COMMAND_NAME;

static const char *const TABLE_NAME = "regions.csv";
static const char *const SUMMARY_NAME = "summary.json";

/// Room for one error line.
#define LINE_SIZE 1024
/// Most threads accepted by --threads.
#define THREADS_MAX 1024
/// Most Monte-Carlo runs per point accepted by --mc-runs.
#define MC_RUNS_MAX 100000
/// The progress line is redrawn at most this often [s].
#define PROGRESS_INTERVAL 0.2

enum {
  OPT_X = 256,
  OPT_Y,
  OPT_SAMPLES,
  OPT_INTERVALS,
  OPT_MC_RUNS,
  OPT_MC_SEED,
  OPT_MC_FULL,
};

typedef struct regions_options {
  cli_scene_options common;
  zeno_regions_def def;
  bool x_set, y_set;
  char x_typed[CLI_TYPED_SIZE], y_typed[CLI_TYPED_SIZE];  ///< "--x PATH=LO:HI:N" as typed
  const char *out_dir;
  const char *plot_path;
  int threads;
  bool quiet, json;
  cli_figure figure; ///< --size, --dpi, --font-scale, --xlim, --ylim
} regions_options;

static void print_help(void) {
  const zeno_regions_def d = zeno_regions_def_default();
  printf(
      "Usage: zeno regions SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N [OPTIONS]\n"
      "\n"
      "Stability region map (paper Examples 6 and 7, Fig. 8): the two-contact\n"
      "scene file SCENE analysed (as 'zeno analyze') at every point of a grid\n"
      "of two scene values, each given by its dotted path as for --set, e.g.\n"
      "com.x and com.y (the centre of mass moved, contacts fixed) or\n"
      "paper.alpha and paper.mu2. Every point gets the paper's region:\n"
      "  0 infeasible equilibrium    4 unstable, persistent (Theorem 2)\n"
      "  1 Painleve paradox          5 unstable, not persistent (Theorem 2)\n"
      "  2 stable (Theorem 3)        6 ambiguous, unstable (Theorem 1)\n"
      "  3 stable (Theorem 4)        7 undecided\n"
      "and region-7 points a simulation verdict: seeded random perturbations\n"
      "run with the exact ZOD, 'rests' when every one came to rest.\n"
      "Prints a summary; bad input exits 2, file errors exit 1.\n"
      "\n"
      "Options:\n"
      "      --x PATH=LO:HI:N  the horizontal axis: N values from LO to HI\n"
      "      --y PATH=LO:HI:N  the vertical axis (N in [1, %d])\n"
      "  -s, --set KEY=VALUE   override a scene value before the sweep;\n"
      "                        repeatable\n"
      "  -o, --out DIR         write DIR/regions.csv (one row per point: ix,\n"
      "                        iy, the two values, region, region_name,\n"
      "                        theorem (empty when none decides), verdict,\n"
      "                        persistent, G_max, fixed_point_phi,\n"
      "                        fixed_point_G, fixed_points, partition, unsafe,\n"
      "                        mc_runs, mc_rest, mc_full_runs, mc_full_rest,\n"
      "                        sim, on_breakpoint, error) and\n"
      "                        DIR/summary.json; rows are journaled in\n"
      "                        DIR/regions.journal as they finish, and a rerun\n"
      "                        with the same DIR reuses them (resume)\n"
      "  -p, --plot FILE       draw the map (.png/.svg/.pdf); com.x/com.y maps\n"
      "                        show the contact configuration over it\n"
      "  -t, --threads K       OpenMP threads per process (default: all cores)\n"
      "      --samples N       samples of R and G per point, N in [%d, %d]\n"
      "                        (default %d)\n"
      "      --intervals N     Theorem 4's uniform sub-intervals, N in [3, %d]\n"
      "                        (default %d, the paper's)\n"
      "      --mc-runs N       perturbations per region-7 point, N in [0, %d]\n"
      "                        (default %d; 0: no simulation verdict)\n"
      "      --mc-seed S       seed of the perturbations (default %llu)\n"
      "      --mc-full         also run them with the full model (scene epsilon)\n"
      "  -j, --json            print the summary as one JSON object\n"
      "  -q, --quiet           no summary and no progress line\n"
      "  -h, --help            show this help\n"
      "\n" CLI_FIGURE_HELP "(--xlim and --ylim in the units of the --x and --y values)\n"
      "\n"
      "A progress line (points, rate, time left) is drawn on standard error\n"
      "when it is a terminal. zeno-mpi, run under mpirun, spreads the rows\n"
      "over MPI ranks and writes the same files as zeno.\n",
      ZENO_REGION_AXIS_MAX, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX, (int)d.analysis.maps.samples,
      ZENO_MAX_PARTITION / 2, (int)d.analysis.partition_intervals, MC_RUNS_MAX, d.mc_runs,
      d.mc_seed);
}

static const struct option LONG_OPTIONS[] = {
    {"x", required_argument, NULL, OPT_X},
    {"y", required_argument, NULL, OPT_Y},
    {"set", required_argument, NULL, 's'},
    {"out", required_argument, NULL, 'o'},
    {"plot", required_argument, NULL, 'p'},
    {"threads", required_argument, NULL, 't'},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"intervals", required_argument, NULL, OPT_INTERVALS},
    {"mc-runs", required_argument, NULL, OPT_MC_RUNS},
    {"mc-seed", required_argument, NULL, OPT_MC_SEED},
    {"mc-full", no_argument, NULL, OPT_MC_FULL},
    {"json", no_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    CLI_FIGURE_LONG_OPTIONS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int seed_option(const char *text, unsigned long long *seed) {
  char *end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || text[0] == '-')
    return cli_usage_error(COMMAND, "--mc-seed: '%s' is not a non-negative integer", text);
  *seed = v;
  return CLI_CONTINUE;
}

static int apply_option(void *options, int option, char **argv) {
  regions_options *o = options;
  if (cli_figure_is_option(option)) return cli_figure_option(COMMAND, &o->figure, option, optarg);
  switch (option) {
    case OPT_X: return cli_axis_option(COMMAND, "--x", optarg, &o->def.x, o->x_typed, &o->x_set);
    case OPT_Y: return cli_axis_option(COMMAND, "--y", optarg, &o->def.y, o->y_typed, &o->y_set);
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 'o': o->out_dir = optarg; return CLI_CONTINUE;
    case 'p':
      o->plot_path = optarg;
      return cli_image_option(COMMAND, "--plot", optarg);
    case 't': return cli_int_option(COMMAND, "--threads", optarg, 1, THREADS_MAX, &o->threads);
    case OPT_SAMPLES:
      return cli_size_option(COMMAND, "--samples", optarg, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX,
                             &o->def.analysis.maps.samples);
    case OPT_INTERVALS:
      return cli_size_option(COMMAND, "--intervals", optarg, 3, ZENO_MAX_PARTITION / 2,
                             &o->def.analysis.partition_intervals);
    case OPT_MC_RUNS:
      return cli_int_option(COMMAND, "--mc-runs", optarg, 0, MC_RUNS_MAX, &o->def.mc_runs);
    case OPT_MC_SEED: return seed_option(optarg, &o->def.mc_seed);
    case OPT_MC_FULL: o->def.mc_full = true; return CLI_CONTINUE;
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'q': o->quiet = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---------- the sweep's state on rank 0 ---------- */

typedef struct sweep {
  const regions_options *o;
  const zeno_regions *regions;
  regions_dist dist;
  size_t nx, ny;
  zeno_region_point *grid;   ///< ny rows of nx points
  unsigned char *done;       ///< rows finished (resumed or computed)
  size_t resumed_rows;
  regions_journal journal;   ///< rank 0 with --out
  long total_points, computed_points; ///< to compute in this run, and so far
  double start, last_progress;
  bool progress;             ///< draw the progress line
  plot_options figure;       ///< the --plot figure's options, checked
} sweep;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/// "1h02m", "3m05s" or "42s".
static void format_duration(double seconds, char *out, size_t size) {
  if (!isfinite(seconds) || seconds < 0) seconds = 0;
  const long s = lround(seconds);
  if (s >= 3600) snprintf(out, size, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else if (s >= 60) snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
  else snprintf(out, size, "%lds", s);
}

static void draw_progress(sweep *w, bool final) {
  if (!w->progress) return;
  const double t = now_seconds();
  if (!final && t - w->last_progress < PROGRESS_INTERVAL) return;
  w->last_progress = t;
  const double elapsed = t - w->start;
  const double rate = elapsed > 0 ? (double)w->computed_points / elapsed : 0;
  char eta[32];
  format_duration(rate > 0 ? (double)(w->total_points - w->computed_points) / rate : 0, eta,
                  sizeof eta);
  fprintf(stderr, "\rzeno: regions: %ld/%ld points (%.1f%%), %.0f points/s, %s left   ",
          w->computed_points, w->total_points,
          w->total_points ? 100.0 * (double)w->computed_points / (double)w->total_points : 100.0,
          rate, eta);
  if (final) fputc('\n', stderr);
  fflush(stderr);
}

/* ---------- rows ---------- */

// Rank 0: a finished row goes into the grid, the journal and the progress.
static int store_row(sweep *w, size_t iy, const zeno_region_point *row) {
  memcpy(&w->grid[iy * w->nx], row, w->nx * sizeof *row);
  w->done[iy] = 1;
  w->computed_points += (long)w->nx;
  if (w->journal.file) {
    const int code = regions_journal_append(&w->journal, iy, row, w->nx);
    if (code != CLI_CONTINUE) return code;
  }
  draw_progress(w, false);
  return CLI_CONTINUE;
}

// Rank 0: stores every row other ranks have finished; with wait, blocks
// until `expected` rows have arrived in all.
static int collect(sweep *w, zeno_region_point *buffer, bool wait, size_t *received,
                   size_t expected) {
  size_t iy = 0;
  while (*received < expected &&
         regions_dist_receive_row(&w->dist, wait, &iy, buffer, w->nx)) {
    (*received)++;
    const int code = store_row(w, iy, buffer);
    if (code != CLI_CONTINUE) return code;
  }
  if (wait && *received < expected) {
    cli_error("%s: lost contact with the other MPI ranks", COMMAND);
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

// Computes this rank's share of the rows still to do.
static int compute(sweep *w) {
  zeno_region_point *row = malloc(w->nx * sizeof *row);
  zeno_region_point *incoming = malloc(w->nx * sizeof *incoming);
  size_t *todo = malloc(w->ny * sizeof *todo);
  if (row == NULL || incoming == NULL || todo == NULL) {
    free(row), free(incoming), free(todo);
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  size_t todo_count = 0;
  for (size_t iy = 0; iy < w->ny; iy++)
    if (!w->done[iy]) todo[todo_count++] = iy;
  w->total_points = (long)(todo_count * w->nx);
  const size_t first = (size_t)w->dist.rank, step = (size_t)w->dist.size;
  size_t own = 0, received = 0;
  for (size_t k = first; k < todo_count; k += step) own++;
  int code = CLI_CONTINUE;
  for (size_t k = first; k < todo_count && code == CLI_CONTINUE; k += step) {
    zeno_error err;
    if (zeno_regions_row(w->regions, todo[k], w->o->threads, row, &err) != ZENO_OK) {
      char line[LINE_SIZE];
      zeno_error_format(&err, line, sizeof line);
      cli_error("%s: row %zu (%s = %.17g): %s", COMMAND, todo[k], w->o->def.y.path,
                zeno_region_axis_value(&w->o->def.y, todo[k]), line);
      code = err.code == ZENO_ERR_NOMEM ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
      if (w->dist.size > 1) regions_dist_abort(&w->dist, code);
      break;
    }
    if (w->dist.rank == 0) {
      code = store_row(w, todo[k], row);
      if (code == CLI_CONTINUE) code = collect(w, incoming, false, &received, todo_count - own);
    } else if (!regions_dist_send_row(&w->dist, todo[k], row, w->nx)) {
      cli_error("%s: cannot send row %zu to rank 0", COMMAND, todo[k]);
      regions_dist_abort(&w->dist, CLI_EXIT_RUNTIME);
    }
  }
  if (code == CLI_CONTINUE && w->dist.rank == 0)
    code = collect(w, incoming, true, &received, todo_count - own);
  free(row), free(incoming), free(todo);
  return code;
}

/* ---------- outputs ---------- */

typedef struct tally {
  long region[ZENO_REGION_COUNT];
  long rests, departs, unsimulated; ///< region 7 by simulation verdict
  long errors;                      ///< points not analysed (error rows)
  long on_breakpoint, ties;         ///< points with a fixed point on a breakpoint; of them ties
} tally;

static tally count_regions(const sweep *w) {
  tally t;
  memset(&t, 0, sizeof t);
  const size_t n = w->nx * w->ny;
  for (size_t k = 0; k < n; k++) {
    const zeno_region_point *p = &w->grid[k];
    if (p->region == ZENO_REGION_ERROR) {
      t.errors++;
      continue;
    }
    t.region[p->region]++;
    t.on_breakpoint += p->on_breakpoint > 0;
    t.ties += p->on_breakpoint == 2;
    if (p->region != ZENO_REGION_COUNT - 1) continue;
    if (p->sim == ZENO_REGION_SIM_RESTS) t.rests++;
    else if (p->sim == ZENO_REGION_SIM_DEPARTS) t.departs++;
    else t.unsimulated++;
  }
  return t;
}

static void json_axis(FILE *f, const char *key, const zeno_region_axis *a) {
  fprintf(f, "\"%s\": {\"path\": ", key);
  zeno_io_json_string(f, a->path, NULL);
  fputs(", \"lo\": ", f);
  zeno_io_json_number(f, a->lo, NULL);
  fputs(", \"hi\": ", f);
  zeno_io_json_number(f, a->hi, NULL);
  fprintf(f, ", \"count\": %zu}", a->count);
}

static void write_summary_json(FILE *f, const sweep *w, const zeno_scene *scene,
                               double seconds) {
  const tally t = count_regions(w);
  const zeno_regions_def *d = &w->o->def;
  fputs("{\"scene\": ", f);
  zeno_io_json_string(f, scene->name, NULL);
  fputs(", ", f);
  json_axis(f, "x", &d->x);
  fputs(", ", f);
  json_axis(f, "y", &d->y);
  fprintf(f, ", \"points\": %zu, \"computed\": %ld, \"resumed_rows\": %zu",
          w->nx * w->ny, w->computed_points, w->resumed_rows);
  fprintf(f, ", \"samples\": %zu, \"intervals\": %zu, \"mc_runs\": %d, \"mc_seed\": %llu, "
             "\"mc_full\": %s",
          d->analysis.maps.samples, d->analysis.partition_intervals, d->mc_runs, d->mc_seed,
          d->mc_full ? "true" : "false");
  fputs(", \"counts\": {", f);
  for (int r = 0; r < ZENO_REGION_COUNT; r++)
    fprintf(f, "%s\"%d\": %ld", r ? ", " : "", r, t.region[r]);
  fprintf(f, "}, \"region7\": {\"rests\": %ld, \"departs\": %ld, \"unsimulated\": %ld}",
          t.rests, t.departs, t.unsimulated);
  fprintf(f, ", \"errors\": %ld", t.errors);
  fprintf(f, ", \"fixed_points_on_breakpoints\": %ld, \"breakpoint_ties\": %ld",
          t.on_breakpoint, t.ties);
  fputs(", \"seconds\": ", f);
  zeno_io_json_number(f, seconds, NULL);
  fputs(", \"points_per_second\": ", f);
  zeno_io_json_number(f, seconds > 0 ? (double)w->computed_points / seconds : NAN, NULL);
  fprintf(f, ", \"ranks\": %d, \"threads\": %d}\n", w->dist.size,
          zeno_regions_threads(w->o->threads));
}

static void print_summary(const sweep *w, const zeno_scene *scene, double seconds) {
  const tally t = count_regions(w);
  const zeno_regions_def *d = &w->o->def;
  cli_label("scene");
  printf("%s\n", scene->name);
  cli_label("x");
  printf("%s from %g to %g, %zu points\n", d->x.path, d->x.lo, d->x.hi, d->x.count);
  cli_label("y");
  printf("%s from %g to %g, %zu points\n", d->y.path, d->y.lo, d->y.hi, d->y.count);
  cli_label("points");
  printf("%zu (%ld computed, %zu rows resumed)\n", w->nx * w->ny, w->computed_points,
         w->resumed_rows);
  cli_label("time");
  printf("%.3g s, %.4g points/s, %d rank%s x %d thread%s\n", seconds,
         seconds > 0 ? (double)w->computed_points / seconds : 0.0, w->dist.size,
         w->dist.size == 1 ? "" : "s", zeno_regions_threads(w->o->threads),
         zeno_regions_threads(w->o->threads) == 1 ? "" : "s");
  for (int r = 0; r < ZENO_REGION_COUNT; r++) {
    char label[CLI_LABEL_WIDTH];
    snprintf(label, sizeof label, "region %d", r);
    cli_label(label);
    printf("%-8ld %s\n", t.region[r], zeno_region_name(r));
  }
  if (t.region[ZENO_REGION_COUNT - 1] > 0) {
    cli_label("region 7 simulated");
    printf("%ld rest, %ld depart, %ld not simulated\n", t.rests, t.departs, t.unsimulated);
  }
  if (t.errors > 0) {
    cli_label("not analysed");
    printf("%ld (error rows: their messages are in regions.csv)\n", t.errors);
  }
  if (t.on_breakpoint > 0) {
    cli_label("fixed pt on breakpoint");
    printf("%ld points, %ld of them ties (undecided)\n", t.on_breakpoint, t.ties);
  }
}

static void table_content(FILE *f, const sweep *w, const zeno_scene *scene, double seconds) {
  (void)scene;
  (void)seconds;
  zeno_io_regions_header(f, &w->o->def.x, &w->o->def.y, NULL);
  const size_t n = w->nx * w->ny;
  for (size_t k = 0; k < n; k++) zeno_io_region_row(f, &w->grid[k], NULL);
}

typedef void (*content_fn)(FILE *f, const sweep *w, const zeno_scene *scene, double seconds);

// Writes DIR/name with `content`, aside and renamed into place; reports
// failures.
static int write_out_file(const sweep *w, const char *name, content_fn content,
                          const zeno_scene *scene, double seconds) {
  zeno_error err;
  zeno_io_output *out = zeno_io_output_open(w->o->out_dir, name, &err);
  if (out != NULL) {
    content(zeno_io_output_stream(out), w, scene, seconds);
    if (zeno_io_output_commit(out, &err) == ZENO_OK) return CLI_EXIT_OK;
  }
  cli_error("%s: %s", COMMAND, err.message);
  return CLI_EXIT_RUNTIME;
}

/// The --plot figure: the map with the scene's contacts over it.
static int draw_map(const sweep *w, const zeno_scene *scene) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  char title[sizeof scene->name + 2 * ZENO_REGION_PATH_SIZE + 64];
  snprintf(title, sizeof title, "%s: stability regions over %s and %s", scene->name,
           w->o->def.x.path, w->o->def.y.path);
  const plot_regions_input in = {.title = title, .x = &w->o->def.x, .y = &w->o->def.y,
                                 .grid = w->grid, .overlay = scene, .options = &w->figure};
  const plot_status st = plot->regions(w->o->plot_path, &in);
  return st == PLOT_OK ? CLI_EXIT_OK : cli_plot_failure(plot, w->o->plot_path, st);
}

static int write_outputs(const sweep *w, const zeno_scene *scene, double seconds) {
  int code = CLI_EXIT_OK;
  if (w->o->out_dir) {
    code = write_out_file(w, TABLE_NAME, table_content, scene, seconds);
    if (code == CLI_EXIT_OK)
      code = write_out_file(w, SUMMARY_NAME, write_summary_json, scene, seconds);
  }
  if (code == CLI_EXIT_OK && w->o->plot_path) code = draw_map(w, scene);
  if (code == CLI_EXIT_OK && w->o->json) write_summary_json(stdout, w, scene, seconds);
  else if (code == CLI_EXIT_OK && !w->o->quiet) print_summary(w, scene, seconds);
  return code;
}

/* ---------- the command ---------- */

static int run_sweep(sweep *w, const zeno_scene *scene) {
  const regions_options *o = w->o;
  zeno_error err;
  zeno_regions *r = zeno_regions_create(
      o->common.scene_text, o->common.scene_path, cli_overrides_items(&o->common.overrides),
      o->common.overrides.count, &o->def, &err);
  // An error about an axis names --x or --y as typed, not the override the
  // library made of one of its ends.
  const cli_origin axes[2] = {{o->def.x.path, o->x_typed}, {o->def.y.path, o->y_typed}};
  if (r == NULL)
    return w->dist.rank == 0 ? cli_override_error(&err, &o->common.overrides, axes, 2)
                             : CLI_EXIT_USAGE;
  w->regions = r;
  w->nx = o->def.x.count;
  w->ny = o->def.y.count;
  w->grid = calloc(w->nx * w->ny, sizeof *w->grid);
  w->done = calloc(w->ny, 1);
  int code = w->grid && w->done ? CLI_CONTINUE : (cli_error("out of memory"), CLI_EXIT_RUNTIME);
  if (code == CLI_CONTINUE && w->dist.rank == 0 && o->out_dir) {
    char sig[REGIONS_SIGNATURE_SIZE];
    regions_journal_signature(o->common.scene_text, o->common.scene_length,
                              &o->common.overrides, &o->def, sig);
    code = regions_journal_open(&w->journal, o->out_dir, sig, &o->def, w->grid, w->done,
                                &w->resumed_rows);
  }
  // Every rank learns which rows are done; a rank that cannot go on stops
  // them all (the others would wait for it forever).
  if (w->dist.size > 1) {
    if (code != CLI_CONTINUE) regions_dist_abort(&w->dist, code);
    if (!regions_dist_share_done(&w->dist, w->done, w->ny)) {
      cli_error("%s: cannot share the finished rows between MPI ranks", COMMAND);
      regions_dist_abort(&w->dist, CLI_EXIT_RUNTIME);
    }
  }
  w->start = w->last_progress = now_seconds();
  w->progress = w->dist.rank == 0 && !o->quiet && isatty(STDERR_FILENO);
  if (code == CLI_CONTINUE) code = compute(w);
  if (code == CLI_CONTINUE && w->dist.rank == 0) {
    draw_progress(w, true);
    code = write_outputs(w, scene, now_seconds() - w->start);
  }
  if (code == CLI_CONTINUE) code = CLI_EXIT_OK;
  code = regions_journal_close(&w->journal, code);
  free(w->grid);
  free(w->done);
  zeno_regions_destroy(r);
  return code;
}

static int run(const void *options, const zeno_scene *scene, zeno_error *err) {
  (void)err;
  const regions_options *o = options;
  if (!o->x_set || !o->y_set)
    return cli_usage_error(COMMAND, "both --x PATH=LO:HI:N and --y PATH=LO:HI:N are required");
  sweep w;
  memset(&w, 0, sizeof w);
  w.o = o;
  const int checked = cli_figure_check(COMMAND, &o->figure, &o->plot_path, 1, &w.figure);
  if (checked != CLI_CONTINUE) return checked;
  if (!regions_dist_start(&w.dist, NULL, NULL)) return CLI_EXIT_RUNTIME;
  const int code = run_sweep(&w, scene);
  return regions_dist_end(&w.dist, code);
}

int cmd_regions(int argc, char **argv) {
  regions_options o;
  memset(&o, 0, sizeof o);
  o.def = zeno_regions_def_default();
  cli_figure_init(&o.figure);
  static const cli_scene_command command = {
      .name = COMMAND_NAME,
      .short_options = ":s:o:p:t:jqh",
      .long_options = LONG_OPTIONS,
      .apply = apply_option,
      .run = run,
  };
  return cli_scene_command_main(&command, &o.common, &o, argc, argv);
}
