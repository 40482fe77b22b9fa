// `zeno sweep SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N`: the scene simulated
// at every point of a grid of two scene values (typically the perturbation,
// initial.*): how each run ends, when, after how many impacts, and where it
// rests. Points run on OpenMP threads (zeno/sweep.h); --out writes
// DIR/sweep.csv and DIR/summary.json, --plot the outcome map.
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_stability.h"

#define COMMAND_NAME "sweep"
static const char *const COMMAND = COMMAND_NAME;

static const char *const TABLE_NAME = "sweep.csv";
static const char *const SUMMARY_NAME = "summary.json";
/// Most threads accepted by --threads.
#define THREADS_MAX 1024
/// Outcomes counted in summaries (zeno_outcome's values, RUNNING included).
#define OUTCOMES (ZENO_OUTCOME_WALL_LIMIT + 1)

/// Degrees per radian (--basin-turn is in degrees, as scene angles are).
#define DEG_PER_RAD (180.0 / ZENO_PI)

enum { OPT_X = 256, OPT_Y, OPT_MAGNITUDE, OPT_BASIN_TOL, OPT_BASIN_TURN };

typedef struct sweep_options {
  cli_scene_options common;
  zeno_sweep_def def;
  bool x_set, y_set;
  char x_typed[CLI_TYPED_SIZE], y_typed[CLI_TYPED_SIZE];
  const char *out_dir, *plot_path;
  int threads;
  bool quiet, json;
  cli_figure figure; ///< --size, --dpi, --font-scale, --xlim, --ylim
} sweep_options;

static void print_help(void) {
  printf(
      "Usage: zeno sweep SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N [OPTIONS]\n"
      "\n"
      "Simulates the scene file SCENE (YAML) at every point of a grid of two\n"
      "scene values, each axis N values from LO to HI in the path's own unit:\n"
      "typically the perturbation (--x initial.qdp.2=-1:1:41 --y\n"
      "initial.qdp.1=-1:-0.05:41; the ZOD is homogeneous, so directions\n"
      "matter there; with --set model=full sizes do too). Each point reports\n"
      "how its run ended (rest, with or without a Zeno completion, escaped,\n"
      "diverging, ...), when, after how many impacts, and where it rests.\n"
      "Prints the counts per outcome; bad input exits 2, file errors 1.\n"
      "\n"
      "Options:\n"
      "      --x PATH=LO:HI:N  first axis (any scene path, e.g. initial.qdp.2)\n"
      "      --y PATH=LO:HI:N  second axis\n"
      "  -s, --set KEY=VALUE   fixed override applied before the axes;\n"
      "                        repeatable\n"
      "  -t, --threads T       OpenMP threads, 1..%d (default: all)\n"
      "  -o, --out DIR         write DIR/sweep.csv (one row per point: ix, iy,\n"
      "                        X, Y, outcome, t, events, impacts, zeno,\n"
      "                        zeno_time, q' at the end (z1, z2, x2; one\n"
      "                        contact: z1, x1, zod_theta), energy_gains,\n"
      "                        error) and DIR/summary.json (counts)\n"
      "      --magnitude LO:HI:N  basin estimate (full model, start given as\n"
      "                        initial.qp/qdp): at every point scan N magnitudes\n"
      "                        (the scene's epsilon) from LO to HI, 0 < LO < HI\n"
      "                        <= 1, and bisect each edge between a run that\n"
      "                        returns to rest and one that does not; sweep.csv\n"
      "                        gains basin_inner, basin_outer, basin_width,\n"
      "                        basin_returns, basin_transitions, and --plot\n"
      "                        draws basin_inner\n"
      "      --basin-tol TOL   bisection bracket, TOL > 0 (default %g)\n"
      "      --basin-turn DEG  a returning run rests turned by at most DEG\n"
      "                        degrees from its start, (0, 180] (default %.4g)\n"
      "  -p, --plot FILE       draw the outcome map (.png, .svg or .pdf)\n"
      "  -j, --json            print the summary as one JSON object\n"
      "  -q, --quiet           no summary\n"
      "  -h, --help            show this help\n"
      "\n" CLI_FIGURE_HELP "(--xlim and --ylim in the units of the --x and --y values)\n",
      THREADS_MAX, zeno_sweep_basin_def_default().tol,
      zeno_sweep_basin_def_default().turn_max * DEG_PER_RAD);
}

static const struct option LONG_OPTIONS[] = {
    {"x", required_argument, NULL, OPT_X},
    {"y", required_argument, NULL, OPT_Y},
    {"magnitude", required_argument, NULL, OPT_MAGNITUDE},
    {"basin-tol", required_argument, NULL, OPT_BASIN_TOL},
    {"basin-turn", required_argument, NULL, OPT_BASIN_TURN},
    {"set", required_argument, NULL, 's'},
    {"threads", required_argument, NULL, 't'},
    {"out", required_argument, NULL, 'o'},
    {"plot", required_argument, NULL, 'p'},
    {"json", no_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    CLI_FIGURE_LONG_OPTIONS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

// --magnitude LO:HI:N, read as an axis of the scene's epsilon.
static int magnitude_option(sweep_options *o, const char *text) {
  char axis[CLI_TYPED_SIZE];
  snprintf(axis, sizeof axis, "epsilon=%s", text);
  zeno_region_axis a;
  zeno_error err;
  if (zeno_region_axis_parse(axis, &a, &err) != ZENO_OK)
    return cli_usage_error(COMMAND, "--magnitude: '%s' is not LO:HI:N (%s)", text,
                           err.message);
  o->def.basin.lo = a.lo;
  o->def.basin.hi = a.hi;
  o->def.basin.count = a.count;
  return CLI_CONTINUE;
}

// A positive finite number; `scale` converts it to the library's unit.
static int positive_option(const char *option, const char *text, double max, double scale,
                           double *value) {
  char *end = NULL;
  const double v = strtod(text, &end);
  if (end == text || *end != '\0' || !(v > 0 && v <= max))
    return cli_usage_error(COMMAND, "%s: '%s' out of range; allowed (0, %g]", option, text,
                           max);
  *value = v * scale;
  return CLI_CONTINUE;
}

static int apply_option(void *options, int option, char **argv) {
  sweep_options *o = options;
  if (cli_figure_is_option(option)) return cli_figure_option(COMMAND, &o->figure, option, optarg);
  switch (option) {
    case OPT_X: return cli_axis_option(COMMAND, "--x", optarg, &o->def.x, o->x_typed, &o->x_set);
    case OPT_Y: return cli_axis_option(COMMAND, "--y", optarg, &o->def.y, o->y_typed, &o->y_set);
    case OPT_MAGNITUDE: return magnitude_option(o, optarg);
    case OPT_BASIN_TOL:
      return positive_option("--basin-tol", optarg, 1, 1, &o->def.basin.tol);
    case OPT_BASIN_TURN:
      return positive_option("--basin-turn", optarg, 180, 1 / DEG_PER_RAD,
                             &o->def.basin.turn_max);
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 't': return cli_int_option(COMMAND, "--threads", optarg, 1, THREADS_MAX, &o->threads);
    case 'o': o->out_dir = optarg; return CLI_CONTINUE;
    case 'p':
      o->plot_path = optarg;
      return cli_image_option(COMMAND, "--plot", optarg);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'q': o->quiet = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- outputs ---------------------------------------------------------------- */

static void put_number(FILE *f, double v) {
  if (isnan(v)) fputs(",", f);
  else fprintf(f, ",%.17g", v);
}

static void write_table(FILE *f, const sweep_options *o, const zeno_scene *scene,
                        const zeno_sweep_point *grid) {
  // q' at the end, named for what it holds (one contact: z1, x1, theta).
  const bool basin = o->def.basin.count > 0;
  fprintf(f, "ix,iy,%s,%s,outcome,t,events,impacts,zeno,zeno_time,%s,energy_gains,%serror\n",
          o->def.x.path, o->def.y.path,
          scene->contact_count == 1 ? "z1,x1,zod_theta" : "z1,z2,x2",
          basin ? "basin_inner,basin_outer,basin_width,basin_returns,basin_transitions," : "");
  const size_t n = o->def.x.count * o->def.y.count;
  for (size_t k = 0; k < n; k++) {
    const zeno_sweep_point *p = &grid[k];
    fprintf(f, "%zu,%zu", p->ix, p->iy);
    put_number(f, p->x);
    put_number(f, p->y);
    if (!p->ok) {
      fputs(basin ? ",,,,,,,,,,,,,,,," : ",,,,,,,,,,,", f);
      zeno_io_json_string(f, p->error, NULL);  // quoted, as CSV needs for commas
      fputc('\n', f);
      continue;
    }
    fprintf(f, ",%s", zeno_outcome_name(p->outcome));
    put_number(f, p->t);
    fprintf(f, ",%ld,%ld,%d", p->events, p->impacts, p->has_zeno ? 1 : 0);
    put_number(f, p->zeno_time);
    for (int c = 0; c < 3; c++) put_number(f, p->final_zod[c]);
    fprintf(f, ",%ld", p->energy_gains);
    if (basin) {
      put_number(f, p->basin_inner);
      put_number(f, p->basin_outer);
      put_number(f, p->basin_width);
      fprintf(f, ",%d,%d", p->basin_returns, p->basin_transitions);
    }
    fputs(",\n", f);
  }
}

typedef struct tally {
  long outcome[OUTCOMES];
  long zeno_rests, errors;
  /// Basin estimate: points where every, none of the scanned magnitudes
  /// returned, non-monotone points; the range of basin_inner.
  long basin_all, basin_none, basin_non_monotone;
  double inner_min, inner_max;
} tally;

static tally count(const sweep_options *o, const zeno_sweep_point *grid) {
  tally t;
  memset(&t, 0, sizeof t);
  t.inner_min = INFINITY;
  t.inner_max = -INFINITY;
  for (size_t k = 0; k < o->def.x.count * o->def.y.count; k++) {
    if (!grid[k].ok) {
      t.errors++;
      continue;
    }
    if (o->def.basin.count > 0) {
      t.basin_all += grid[k].basin_returns == (int)o->def.basin.count;
      t.basin_none += grid[k].basin_returns == 0;
      t.basin_non_monotone += grid[k].basin_transitions > 1;
      if (!isnan(grid[k].basin_inner)) {
        t.inner_min = fmin(t.inner_min, grid[k].basin_inner);
        t.inner_max = fmax(t.inner_max, grid[k].basin_inner);
      }
    }
    t.outcome[grid[k].outcome]++;
    t.zeno_rests += grid[k].outcome == ZENO_OUTCOME_REST && grid[k].has_zeno;
  }
  return t;
}

static void write_summary(FILE *f, const sweep_options *o, const zeno_scene *scene,
                          const zeno_sweep_point *grid) {
  const tally t = count(o, grid);
  fputs("{\"scene\": ", f);
  zeno_io_json_string(f, scene->name, NULL);
  fputs(", \"x\": ", f);
  zeno_io_json_string(f, o->def.x.path, NULL);
  fputs(", \"y\": ", f);
  zeno_io_json_string(f, o->def.y.path, NULL);
  fprintf(f, ", \"points\": %zu, \"counts\": {", o->def.x.count * o->def.y.count);
  bool first = true;
  for (int k = 1; k < OUTCOMES; k++) {
    if (t.outcome[k] == 0) continue;
    fprintf(f, "%s\"%s\": %ld", first ? "" : ", ", zeno_outcome_name((zeno_outcome)k),
            t.outcome[k]);
    first = false;
  }
  fprintf(f, "}, \"zeno_then_rest\": %ld, \"errors\": %ld", t.zeno_rests, t.errors);
  if (o->def.basin.count > 0) {
    const zeno_sweep_basin_def *b = &o->def.basin;
    fprintf(f, ", \"basin\": {\"lo\": %.17g, \"hi\": %.17g, \"count\": %zu, \"tol\": %.17g, "
               "\"turn_max\": %.17g, \"all_return\": %ld, \"none_return\": %ld, "
               "\"non_monotone\": %ld, \"inner_min\": ",
            b->lo, b->hi, b->count, b->tol, b->turn_max, t.basin_all, t.basin_none,
            t.basin_non_monotone);
    zeno_io_json_number(f, isfinite(t.inner_min) ? t.inner_min : NAN, NULL);
    fputs(", \"inner_max\": ", f);
    zeno_io_json_number(f, isfinite(t.inner_max) ? t.inner_max : NAN, NULL);
    fputc('}', f);
  }
  fprintf(f, ", \"threads\": %d}\n", zeno_regions_threads(o->threads));
}

static void print_summary(const sweep_options *o, const zeno_sweep_point *grid) {
  const tally t = count(o, grid);
  cli_label("x");
  printf("%s from %g to %g, %zu points\n", o->def.x.path, o->def.x.lo, o->def.x.hi,
         o->def.x.count);
  cli_label("y");
  printf("%s from %g to %g, %zu points\n", o->def.y.path, o->def.y.lo, o->def.y.hi,
         o->def.y.count);
  for (int k = 1; k < OUTCOMES; k++) {
    if (t.outcome[k] == 0) continue;
    cli_label(zeno_outcome_name((zeno_outcome)k));
    if (k == ZENO_OUTCOME_REST)
      printf("%ld (%ld after a Zeno completion)\n", t.outcome[k], t.zeno_rests);
    else
      printf("%ld\n", t.outcome[k]);
  }
  if (o->def.basin.count > 0) {
    cli_label("basin magnitudes");
    printf("%zu from %g to %g (epsilon), edges to %g\n", o->def.basin.count, o->def.basin.lo,
           o->def.basin.hi, o->def.basin.tol);
    cli_label("basin inner edge");
    if (isfinite(t.inner_min)) printf("%.6g to %.6g\n", t.inner_min, t.inner_max);
    else printf("none (no point returns at %g)\n", o->def.basin.lo);
    cli_label("basin points");
    printf("%ld return at every magnitude, %ld at none, %ld not monotone\n", t.basin_all,
           t.basin_none, t.basin_non_monotone);
  }
  if (t.errors > 0) {
    cli_label("not simulated");
    printf("%ld (their messages are in sweep.csv)\n", t.errors);
  }
}

static int write_file(const char *dir, const char *name, const sweep_options *o,
                      const zeno_scene *scene, const zeno_sweep_point *grid, bool table) {
  zeno_error err;
  zeno_io_output *out = zeno_io_output_open(dir, name, &err);
  if (out != NULL) {
    if (table) write_table(zeno_io_output_stream(out), o, scene, grid);
    else write_summary(zeno_io_output_stream(out), o, scene, grid);
    if (zeno_io_output_commit(out, &err) == ZENO_OK) return CLI_EXIT_OK;
  }
  cli_error("%s: %s", COMMAND, err.message);
  return CLI_EXIT_RUNTIME;
}

static int draw(const sweep_options *o, const zeno_scene *scene, const zeno_sweep_point *grid,
                const plot_options *figure) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  char title[sizeof scene->name + 2 * ZENO_REGION_PATH_SIZE + 64];
  const bool basin = o->def.basin.count > 0;
  snprintf(title, sizeof title, "%s: %s over %s and %s", scene->name,
           basin ? "basin edge (epsilon)" : "outcomes", o->def.x.path, o->def.y.path);
  const plot_sweep_input in = {.title = title,
                               .x = &o->def.x,
                               .y = &o->def.y,
                               .grid = grid,
                               .options = figure,
                               .basin = basin ? &o->def.basin : NULL};
  const plot_status st = plot->sweep(o->plot_path, &in);
  return st == PLOT_OK ? CLI_EXIT_OK : cli_plot_failure(plot, o->plot_path, st);
}

/* ---- the command -------------------------------------------------------------- */

static int run(const void *options, const zeno_scene *scene, zeno_error *err) {
  const sweep_options *o = options;
  if (!o->x_set || !o->y_set)
    return cli_usage_error(COMMAND, "both --x PATH=LO:HI:N and --y PATH=LO:HI:N are required");
  plot_options figure;
  const int checked = cli_figure_check(COMMAND, &o->figure, &o->plot_path, 1, &figure);
  if (checked != CLI_CONTINUE) return checked;
  zeno_sweep *w = zeno_sweep_create(o->common.scene_text, o->common.scene_path,
                                    cli_overrides_items(&o->common.overrides),
                                    o->common.overrides.count, &o->def, err);
  const cli_origin axes[2] = {{o->def.x.path, o->x_typed}, {o->def.y.path, o->y_typed}};
  if (w == NULL && strcmp(err->parameter, "basin") == 0)
    return err->code == ZENO_ERR_NOMEM ? cli_library_error(err)
                                       : cli_usage_error(COMMAND, "--magnitude: %s", err->message);
  if (w == NULL) return cli_override_error(err, &o->common.overrides, axes, 2);
  const size_t nx = o->def.x.count, ny = o->def.y.count;
  zeno_sweep_point *grid = calloc(nx * ny, sizeof *grid);
  if (grid == NULL) {
    zeno_sweep_destroy(w);
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  int code = CLI_EXIT_OK;
  for (size_t iy = 0; iy < ny && code == CLI_EXIT_OK; iy++)
    if (zeno_sweep_row(w, iy, o->threads, &grid[iy * nx], err) != ZENO_OK)
      code = cli_library_error(err);
  if (code == CLI_EXIT_OK && o->out_dir) {
    zeno_error e;
    if (zeno_io_make_directories(o->out_dir, &e) != ZENO_OK) {
      cli_error("%s: %s", COMMAND, e.message);
      code = CLI_EXIT_RUNTIME;
    }
    if (code == CLI_EXIT_OK) code = write_file(o->out_dir, TABLE_NAME, o, scene, grid, true);
    if (code == CLI_EXIT_OK) code = write_file(o->out_dir, SUMMARY_NAME, o, scene, grid, false);
  }
  if (code == CLI_EXIT_OK && o->plot_path) code = draw(o, scene, grid, &figure);
  if (code == CLI_EXIT_OK && o->json) write_summary(stdout, o, scene, grid);
  else if (code == CLI_EXIT_OK && !o->quiet) print_summary(o, grid);
  free(grid);
  zeno_sweep_destroy(w);
  return code;
}

static const cli_scene_command SWEEP_COMMAND = {
    COMMAND_NAME, ":s:t:o:p:jqh", LONG_OPTIONS, apply_option, run,
};

int cmd_sweep(int argc, char **argv) {
  sweep_options o = {0};
  o.def.basin = zeno_sweep_basin_def_default();
  cli_figure_init(&o.figure);
  return cli_scene_command_main(&SWEEP_COMMAND, &o.common, &o, argc, argv);
}
