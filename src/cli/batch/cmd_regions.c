// `zeno regions SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N`: the stability
// region map of two scene parameters (paper Examples 6 and 7, Fig. 8).
//
// Rows are computed in parallel (OpenMP threads inside a row; Open MPI ranks
// over rows in zeno-mpi, see grid_rows.h). With --out, every finished row
// is appended to DIR/regions.journal at once (grid_journal.h), so a killed
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

#include "cli/cli_stability.h"
#include "grid_command.h"
#include "regions_certify.h"

#define COMMAND_NAME "regions"
static const char *const COMMAND = COMMAND_NAME;

/// Most simulation-check runs per certificate (zeno certify --check's bound).
#define CERTIFY_CHECK_MAX 100000
/// The files in --out. The journal's first line: v3, rows gained the
/// on_breakpoint column; v4, the region_name column, and theorem empty when
/// none decides. An older journal belongs to another sweep.
static const grid_names NAMES = {.command = COMMAND_NAME,
                                 .table = "regions.csv",
                                 .summary = "summary.json",
                                 .journal = "regions.journal",
                                 .journal_magic = "# zeno regions journal v4 sha256 ",
                                 .foreign = {"sweep.csv", "sweep.journal"}};

enum {
  OPT_SAMPLES = GRID_OPT_OWN,
  OPT_INTERVALS,
  OPT_MC_RUNS,
  OPT_MC_SEED,
  OPT_MC_FULL,
  OPT_CERTIFY,
  OPT_CERTIFY_CHECK,
  OPT_CERTIFY_ALL,
};

typedef struct regions_options {
  cli_scene_options common;
  zeno_regions_def def;
  grid_options g;             ///< the axes as typed, --z, --out, --plot, --threads, ...
  bool certify;               ///< --certify: certificates at the undecided points
  int certify_check;          ///< --certify-check N: each certificate's simulation check runs
  bool certify_all;           ///< --certify-all: certificates at every point analysed
  const char *mc_seed_typed;  ///< --mc-seed's value as typed, NULL without
} regions_options;

static void print_help(void) {
  const zeno_regions_def d = zeno_regions_def_default();
  printf(
      "Usage: zeno regions SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N [OPTIONS]\n"
      "\n"
      "Stability region map (paper Examples 6 and 7, Fig. 8): the scene file\n"
      "SCENE analysed (as 'zeno analyze') at every point of a grid\n"
      "of two scene values, each given by its dotted path as for --set, e.g.\n"
      "com.x and com.y (the centre of mass moved, contacts fixed) or\n"
      "paper.alpha and paper.mu2. Every point gets the paper's region:\n"
      "  0 infeasible equilibrium    4 unstable, persistent (Theorem 2)\n"
      "  1 Painleve paradox          5 unstable, not persistent (Theorem 2)\n"
      "  2 stable (Theorem 3)        6 ambiguous, unstable (Theorem 1)\n"
      "  3 stable (Theorem 4)        7 undecided\n"
      "and region-7 points a simulation verdict: seeded random perturbations\n"
      "run with the exact ZOD, 'rests' when every one came to rest. A scene of\n"
      "3 to 16 contacts gets Pang and Trinkle's static verdict (0, 6, or 7:\n"
      "no theorem decides it) and the same simulation verdict.\n"
      "Prints a summary; bad input exits 2, file errors exit 1.\n"
      "\n"
      "Options:\n"
      "      --x PATH=LO:HI:N  the horizontal axis: N values from LO to HI\n"
      "      --y PATH=LO:HI:N  the vertical axis (N in [1, %d])\n"
      "      --z PATH=LO:HI:N  a batch: one map per value of a third parameter;\n"
      "                        regions.csv gains the columns iz and PATH in\n"
      "                        front, and --plot FILE draws FILE-zIZ.EXT\n"
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
      "      --overwrite       take over an --out DIR of another run (its\n"
      "                        journal, or sweep's files), refused without:\n"
      "                        that run's files are replaced by this run's in\n"
      "                        one commit at the end\n"
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
      "  -j, --json            print the summary as one JSON object, that of\n"
      "                        summary.json (its members: docs/outputs.md)\n"
      "  -q, --quiet           no summary, no progress line and no 'wrote\n"
      "                        FILE' lines\n"
      "  -h, --help            show this help\n",
      ZENO_REGION_AXIS_MAX, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX, (int)d.analysis.maps.samples,
      ZENO_MAX_PARTITION / 2, (int)d.analysis.partition_intervals, ZENO_REGIONS_MAX_MC_RUNS,
      d.mc_runs, d.mc_seed);
  printf("\n" CLI_FIGURE_HELP
         "(--xlim and --ylim in the units of the --x and --y values)\n"
         "\n"
         "A progress line (points, rate, time left; then certificates with\n"
         "--certify) is drawn on standard error when it is a terminal.\n"
         "zeno-mpi, run under mpirun, spreads the rows over MPI ranks and\n"
         "writes the same files as zeno.\n");
  printf(
      "\nLyapunov certificates (zeno certify, docs/certificate.md):\n"
      "      --certify         a certificate at every undecided point (region 7):\n"
      "                        counts in the summary, DIR/certificates.csv and\n"
      "                        their own colour in the figure; each journaled\n"
      "                        in DIR/certificates.journal as it finishes (a\n"
      "                        rerun certifies only the points not journaled)\n"
      "      --certify-check N --certify, each certificate checked along N random\n"
      "                        perturbed runs (zeno certify --check), N in\n"
      "                        [0, %d] (default 0)\n"
      "      --certify-all     --certify at every point analysed, to hold the\n"
      "                        certificates against the maps' verdicts\n",
      CERTIFY_CHECK_MAX);
}

static const struct option LONG_OPTIONS[] = {
    GRID_LONG_OPTIONS,
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"intervals", required_argument, NULL, OPT_INTERVALS},
    {"mc-runs", required_argument, NULL, OPT_MC_RUNS},
    {"mc-seed", required_argument, NULL, OPT_MC_SEED},
    {"mc-full", no_argument, NULL, OPT_MC_FULL},
    {"certify", no_argument, NULL, OPT_CERTIFY},
    {"certify-check", required_argument, NULL, OPT_CERTIFY_CHECK},
    {"certify-all", no_argument, NULL, OPT_CERTIFY_ALL},
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
  const int shared = grid_option(COMMAND, option, optarg, &o->g, &o->def.x, &o->def.y, &o->common);
  if (shared != GRID_OPTION_OTHER) return shared;
  switch (option) {
    case OPT_SAMPLES:
      return cli_size_option(COMMAND, "--samples", optarg, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX,
                             &o->def.analysis.maps.samples);
    case OPT_INTERVALS:
      return cli_size_option(COMMAND, "--intervals", optarg, 3, ZENO_MAX_PARTITION / 2,
                             &o->def.analysis.partition_intervals);
    case OPT_MC_RUNS:
      return cli_int_option(COMMAND, "--mc-runs", optarg, 0, ZENO_REGIONS_MAX_MC_RUNS,
                            &o->def.mc_runs);
    case OPT_MC_SEED: o->mc_seed_typed = optarg; return seed_option(optarg, &o->def.mc_seed);
    case OPT_MC_FULL: o->def.mc_full = true; return CLI_CONTINUE;
    case OPT_CERTIFY: o->certify = true; return CLI_CONTINUE;
    case OPT_CERTIFY_ALL: o->certify = o->certify_all = true; return CLI_CONTINUE;
    case OPT_CERTIFY_CHECK:
      o->certify = true;
      return cli_int_option(COMMAND, "--certify-check", optarg, 0, CERTIFY_CHECK_MAX,
                            &o->certify_check);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---------- the sweep's state ---------- */

typedef struct sweep {
  const regions_options *o;
  grid_command cmd;             ///< the maps, their grid and outputs
  plot_options figure;          ///< the --plot figure's options, checked
  regions_certify_result cert;  ///< --certify's counts (verdicts NULL without)
} sweep;

// The grid's points (rows.grid) as region points: map iz's row iy at
// (iz * ny + iy) * nx.
static const zeno_region_point *grid_of(const grid_command *c) { return c->grid; }

/* ---------- rows and their journal lines ---------- */

static zeno_status map_point(const void *map, size_t ix, size_t iy, void *point,
                             zeno_error *error) {
  return zeno_regions_point(map, ix, iy, point, error);
}

static zeno_status write_point(FILE *f, const void *point, const void *context) {
  (void)context;
  return zeno_io_region_row(f, point, NULL);
}

static bool read_point(const char *text, void *point, size_t *ix, size_t *iy, double *x, double *y,
                       const void *context) {
  (void)context;
  zeno_region_point *p = point;
  if (zeno_io_region_parse(text, p, NULL) != ZENO_OK) return false;
  *ix = p->ix, *iy = p->iy, *x = p->x, *y = p->y;
  return true;
}

// Everything that decides the points' results, as the signature digests it
// (a batch's z axis at the end: a map's journal of earlier versions stays
// valid).
static void settings_text(const regions_options *o, char *out, size_t size) {
  const zeno_regions_def *d = &o->def;
  const int n =
      snprintf(out, size,
               "zeno %s; x %s=%.17g:%.17g:%zu; y %s=%.17g:%.17g:%zu; samples %zu; intervals %zu; "
               "breakpoint_tol %.17g; endpoint_delta %.17g; fixed point on a breakpoint %.17g tie "
               "%.17g; mc %d seed %llu full %d",
               zeno_version(), d->x.path, d->x.lo, d->x.hi, d->x.count, d->y.path, d->y.lo, d->y.hi,
               d->y.count, d->analysis.maps.samples, d->analysis.partition_intervals,
               d->analysis.maps.breakpoint_tol, d->analysis.maps.endpoint_delta,
               d->analysis.maps.fixed_point_breakpoint_tol, d->analysis.maps.fixed_point_tie_margin,
               d->mc_runs, d->mc_seed, d->mc_full ? 1 : 0);
  if (o->g.z_set && n > 0 && (size_t)n < size)
    snprintf(out + n, size - (size_t)n, "; z %s=%.17g:%.17g:%zu", o->g.z.path, o->g.z.lo, o->g.z.hi,
             o->g.z.count);
}

/* ---------- outputs ---------- */

typedef struct tally {
  long region[ZENO_REGION_COUNT];
  long rests, slow, departs, unsimulated;  ///< region 7 by simulation verdict
  long errors;                             ///< points not analysed (error rows)
  long on_breakpoint, ties;  ///< points with a fixed point on a breakpoint; of them ties
} tally;

static tally count_regions(const grid_command *c) {
  tally t;
  memset(&t, 0, sizeof t);
  const size_t n = grid_command_points(c);
  for (size_t k = 0; k < n; k++) {
    const zeno_region_point *p = &grid_of(c)[k];
    if (p->region == ZENO_REGION_ERROR) {
      t.errors++;
      continue;
    }
    t.region[p->region]++;
    t.on_breakpoint += p->on_breakpoint > 0;
    t.ties += p->on_breakpoint == 2;
    if (p->region != ZENO_REGION_COUNT - 1) continue;
    if (p->sim == ZENO_REGION_SIM_RESTS) t.rests++;
    else if (p->sim == ZENO_REGION_SIM_SLOW) t.slow++;
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

static void write_summary_json(FILE *f, const grid_command *c, const zeno_scene *scene,
                               double seconds) {
  const sweep *w = c->context;
  const tally t = count_regions(c);
  const zeno_regions_def *d = &w->o->def;
  fputs("{\"scene\": ", f);
  zeno_io_json_string(f, scene->name, NULL);
  fputs(", ", f);
  json_axis(f, "x", &d->x);
  fputs(", ", f);
  json_axis(f, "y", &d->y);
  if (w->o->g.z_set) {
    fputs(", ", f);
    json_axis(f, "z", &w->o->g.z);
    fprintf(f, ", \"maps\": %zu", c->nz);
  }
  fprintf(f, ", \"points\": %zu, \"computed\": %ld, \"resumed_rows\": %zu", grid_command_points(c),
          c->rows.computed_points, c->rows.resumed_rows);
  fprintf(f,
          ", \"samples\": %zu, \"intervals\": %zu, \"mc_runs\": %d, \"mc_seed\": %llu, "
          "\"mc_full\": %s",
          d->analysis.maps.samples, d->analysis.partition_intervals, d->mc_runs, d->mc_seed,
          d->mc_full ? "true" : "false");
  fputs(", \"counts\": {", f);
  for (int r = 0; r < ZENO_REGION_COUNT; r++)
    fprintf(f, "%s\"%d\": %ld", r ? ", " : "", r, t.region[r]);
  fprintf(f,
          "}, \"region7\": {\"rests\": %ld, \"returns_slowly\": %ld, \"departs\": %ld, "
          "\"unsimulated\": %ld}",
          t.rests, t.slow, t.departs, t.unsimulated);
  fprintf(f, ", \"errors\": %ld", t.errors);
  fprintf(f, ", \"fixed_points_on_breakpoints\": %ld, \"breakpoint_ties\": %ld", t.on_breakpoint,
          t.ties);
  regions_certify_json(f, &w->cert);
  fputs(", \"seconds\": ", f);
  zeno_io_json_number(f, seconds, NULL);
  fputs(", \"points_per_second\": ", f);
  zeno_io_json_number(f, seconds > 0 ? (double)c->rows.computed_points / seconds : NAN, NULL);
  fprintf(f, ", \"ranks\": %d, \"threads\": %d}\n", c->rows.dist.size,
          zeno_regions_threads(w->o->g.threads));
}

static void print_summary(const grid_command *c, const zeno_scene *scene, double seconds) {
  const sweep *w = c->context;
  const tally t = count_regions(c);
  const zeno_regions_def *d = &w->o->def;
  cli_label("scene");
  printf("%s\n", scene->name);
  cli_label("x");
  printf("%s from %g to %g, %zu points\n", d->x.path, d->x.lo, d->x.hi, d->x.count);
  cli_label("y");
  printf("%s from %g to %g, %zu points\n", d->y.path, d->y.lo, d->y.hi, d->y.count);
  if (w->o->g.z_set) {
    cli_label("z (one map each)");
    printf("%s from %g to %g, %zu points\n", w->o->g.z.path, w->o->g.z.lo, w->o->g.z.hi,
           w->o->g.z.count);
  }
  cli_label("points");
  printf("%zu (%ld computed, %zu rows resumed)\n", grid_command_points(c), c->rows.computed_points,
         c->rows.resumed_rows);
  cli_label("time");
  printf("%.3g s, %.4g points/s, %d rank%s x %d thread%s\n", seconds,
         seconds > 0 ? (double)c->rows.computed_points / seconds : 0.0, c->rows.dist.size,
         c->rows.dist.size == 1 ? "" : "s", zeno_regions_threads(w->o->g.threads),
         zeno_regions_threads(w->o->g.threads) == 1 ? "" : "s");
  for (int r = 0; r < ZENO_REGION_COUNT; r++) {
    char label[CLI_LABEL_WIDTH];
    snprintf(label, sizeof label, "region %d", r);
    cli_label(label);
    printf("%-8ld %s\n", t.region[r], zeno_region_name(r));
  }
  if (t.region[ZENO_REGION_COUNT - 1] > 0) {
    cli_label("region 7 simulated");
    printf("%ld rest, %ld return slowly, %ld depart, %ld not simulated\n", t.rests, t.slow,
           t.departs, t.unsimulated);
  }
  if (t.errors > 0) {
    cli_label("not analysed");
    printf("%ld (error rows: their messages are in regions.csv)\n", t.errors);
  }
  if (t.on_breakpoint > 0) {
    cli_label("fixed pt on breakpoint");
    printf("%ld points, %ld of them ties (undecided)\n", t.on_breakpoint, t.ties);
  }
  regions_certify_print(&w->cert);
}

static void table_header(FILE *f, const grid_command *c, const zeno_scene *scene) {
  (void)scene;
  const sweep *w = c->context;
  zeno_io_regions_header(f, &w->o->def.x, &w->o->def.y, NULL);
}

/// The --plot figure of map iz: the map with the scene's contacts over it
/// (the base scene's: in a batch the z value may move them).
static plot_status draw_map(const grid_command *c, const zeno_scene *scene,
                            const zeno_plot_module *plot, const char *path, const char *z_title,
                            size_t iz) {
  const sweep *w = c->context;
  const regions_options *o = w->o;
  char title[sizeof scene->name + 2 * ZENO_REGION_PATH_SIZE + GRID_Z_TITLE_SIZE + 64];
  snprintf(title, sizeof title, "%s: stability regions over %s and %s%s", scene->name,
           o->def.x.path, o->def.y.path, z_title);
  const size_t first = iz * c->nx * c->ny;
  const plot_regions_input in = {.title = title,
                                 .x = &o->def.x,
                                 .y = &o->def.y,
                                 .grid = grid_of(c) + first,
                                 .overlay = scene,
                                 .options = &w->figure,
                                 .certified = w->cert.verdicts ? w->cert.verdicts + first : NULL};
  return plot->regions(path, &in);
}

/* ---------- the command ---------- */

static void *create_map(const void *context, const char *const *overrides, size_t count,
                        zeno_error *error) {
  const regions_options *o = ((const sweep *)context)->o;
  return zeno_regions_create(o->common.scene_text, o->common.scene_path, overrides, count, &o->def,
                             error);
}

static void destroy_map(void *map) { zeno_regions_destroy(map); }

static zeno_status check_z(const zeno_region_axis *z, zeno_error *error) {
  return zeno_regions_check_axis(z, "z", error);
}

// --certify: certificates at the undecided points (rank 0, after the rows).
static int certify(grid_command *c) {
  sweep *w = c->context;
  const regions_options *o = w->o;
  if (!o->certify) return CLI_CONTINUE;
  const regions_certify_input in = {.common = &o->common,
                                    .x = &o->def.x,
                                    .y = &o->def.y,
                                    .z = o->g.z_set ? &o->g.z : NULL,
                                    .grid = grid_of(c),
                                    .nx = c->nx,
                                    .ny = c->ny,
                                    .nz = c->nz,
                                    .threads = o->g.threads,
                                    .check_runs = o->certify_check,
                                    .all = o->certify_all,
                                    .quiet = o->g.quiet,
                                    .overwrite = o->g.overwrite,
                                    .map_signature = c->batch.signature};
  return regions_certify_run(&in, o->g.out_dir, &w->cert);
}

// certificates.csv in --out, committed with regions.csv and summary.json;
// a run without --certify removes an earlier run's.
static bool has_certificates(const grid_command *c) {
  return ((const sweep *)c->context)->cert.verdicts != NULL;
}

static void write_certificates(FILE *f, const grid_command *c) {
  regions_certify_table(f, &((const sweep *)c->context)->cert);
}

// The Monte-Carlo options without runs to seed or repeat.
static void note_unused(const regions_options *o) {
  if (o->def.mc_runs > 0 || (o->mc_seed_typed == NULL && !o->def.mc_full)) return;
  char typed[CLI_TYPED_SIZE];
  snprintf(typed, sizeof typed, "%s%s%s%s", o->mc_seed_typed ? "--mc-seed " : "",
           o->mc_seed_typed ? o->mc_seed_typed : "",
           o->mc_seed_typed && o->def.mc_full ? " and " : "", o->def.mc_full ? "--mc-full" : "");
  cli_no_effect(typed, o->mc_seed_typed && o->def.mc_full, "--mc-runs 0 runs no perturbations");
}

static int run(const void *options, const zeno_scene *scene, zeno_error *err) {
  (void)err;
  const regions_options *o = options;
  if (!o->g.x_set || !o->g.y_set)
    return cli_usage_error(COMMAND, "both --x PATH=LO:HI:N and --y PATH=LO:HI:N are required");
  sweep w;
  memset(&w, 0, sizeof w);
  w.o = o;
  note_unused(o);
  const int checked = cli_figure_check(COMMAND, &o->g.figure, &o->g.plot_path, 1, &w.figure);
  if (checked != CLI_CONTINUE) return checked;
  if (o->g.z_set && grid_z_check(COMMAND, &o->g.z, &o->def.x, &o->def.y) != CLI_CONTINUE)
    return CLI_EXIT_USAGE;
  char settings[1024 + 2 * ZENO_REGION_PATH_SIZE];
  settings_text(o, settings, sizeof settings);
  w.cmd = (grid_command){
      .names = &NAMES,
      .common = &o->common,
      .options = &o->g,
      .batch = {.point_size = sizeof(zeno_region_point),
                .map_point = map_point,
                .write_point = write_point,
                .read_point = read_point},
      .create_map = create_map,
      .destroy_map = destroy_map,
      .check_z = check_z,
      .after_rows = certify,
      .extra_name = REGIONS_CERTIFICATES_NAME,
      .has_extra = has_certificates,
      .write_extra = write_certificates,
      .table_header = table_header,
      .write_summary = write_summary_json,
      .print_summary = print_summary,
      .draw = draw_map,
      .context = &w,
  };
  const int code = grid_command_run(&w.cmd, &o->def.x, &o->def.y, scene, settings);
  regions_certify_free(&w.cert);
  return code;
}

int cmd_regions(int argc, char **argv) {
  regions_options o;
  memset(&o, 0, sizeof o);
  o.def = zeno_regions_def_default();
  o.g.z.count = 1;
  cli_figure_init(&o.g.figure);
  static const cli_scene_command command = {
      .name = COMMAND_NAME,
      .short_options = ":" GRID_SHORT_OPTIONS "h",
      .long_options = LONG_OPTIONS,
      .apply = apply_option,
      .run = run,
  };
  return cli_scene_command_main(&command, &o.common, &o, argc, argv);
}
