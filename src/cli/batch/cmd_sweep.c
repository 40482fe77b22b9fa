// `zeno sweep SCENE --x PATH=LO:HI:N --y PATH=LO:HI:N`: the scene simulated
// at every point of a grid of two scene values (typically the perturbation,
// initial.*): how each run ends, when, after how many impacts, and where it
// rests. Points run on OpenMP threads (zeno/sweep.h), rows over MPI ranks in
// zeno-mpi, and with --out every finished row is journaled (grid_rows.h) so
// a killed sweep resumes; --out writes DIR/sweep.csv and DIR/summary.json,
// --plot the outcome map. --z PATH=LO:HI:N makes a batch: one map per z
// value, rows of all of them numbered one after the other.
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_stability.h"
#include "grid_command.h"

#define COMMAND_NAME "sweep"
static const char *const COMMAND = COMMAND_NAME;

/// The files in --out, and the journal's first line.
static const grid_names NAMES = {.command = COMMAND_NAME,
                                 .table = "sweep.csv",
                                 .summary = "summary.json",
                                 .journal = "sweep.journal",
                                 .journal_magic = "# zeno sweep journal v1 sha256 ",
                                 .foreign = {"regions.csv", "regions.journal"}};
/// Outcomes counted in summaries (zeno_outcome's values, RUNNING included).
#define OUTCOMES (ZENO_OUTCOME_WALL_LIMIT + 1)

/// Degrees per radian (--basin-turn is in degrees, as scene angles are).
#define DEG_PER_RAD (180.0 / ZENO_PI)
/// Largest --basin-tol: the whole of epsilon's range (0, 1]; largest
/// --basin-turn [deg]: a half turn.
#define BASIN_TOL_MAX 1.0
#define BASIN_TURN_MAX_DEG 180.0

enum { OPT_MAGNITUDE = GRID_OPT_OWN, OPT_BASIN_TOL, OPT_BASIN_TURN, OPT_COLOR };

typedef struct sweep_options {
  cli_scene_options common;
  zeno_sweep_def def;
  grid_options g;            ///< the axes as typed, --z, --out, --plot, --threads, ...
  const char *basin_option;  ///< "--basin-tol" or "--basin-turn" when given
  plot_sweep_color color;    ///< --color: what colours the figure's cells
  bool color_set;
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
      "      --z PATH=LO:HI:N  a batch: one map per value of a third scene\n"
      "                        value; the table gains the columns iz and PATH\n"
      "                        in front, and --plot FILE draws FILE-zIZ.EXT\n"
      "  -s, --set KEY=VALUE   fixed override applied before the axes;\n"
      "                        repeatable\n"
      "  -t, --threads T       OpenMP threads, 1..%d (default: all)\n"
      "  -o, --out DIR         write DIR/sweep.csv (one row per point: ix, iy,\n"
      "                        X, Y, outcome, t, events, impacts, zeno,\n"
      "                        zeno_time, q' at the end (z1, z2, x2; one\n"
      "                        contact: z1, x1, zod_theta), energy_gains,\n"
      "                        error) and DIR/summary.json (counts); rows are\n"
      "                        journaled in DIR/sweep.journal as they finish,\n"
      "                        and a rerun with the same DIR reuses them\n"
      "      --overwrite       take over an --out DIR of another run (its\n"
      "                        journal, or regions' files), refused without:\n"
      "                        that run's files are replaced by this run's in\n"
      "                        one commit at the end\n"
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
      "                        degrees from its start, (0, 180] (default %.4g)\n",
      ZENO_REGIONS_MAX_THREADS, zeno_sweep_basin_def_default().tol,
      zeno_sweep_basin_def_default().turn_max * DEG_PER_RAD);
  // The rest in a second string (C17 compilers need support only 4095
  // characters in one).
  printf(
      "  -p, --plot FILE       draw the outcome map (.png, .svg or .pdf)\n"
      "      --color WHAT      what colours the map's cells: 'outcome' (default:\n"
      "                        how each run ended), or on a colour scale with a\n"
      "                        colour bar 't' (when it ended), 'impacts',\n"
      "                        'zeno_time' (its first accumulation time) or\n"
      "                        'x2' (where it rests); the figure only\n"
      "  -j, --json            print the summary as one JSON object, that of\n"
      "                        summary.json (its members: docs/outputs.md)\n"
      "  -q, --quiet           no summary, no progress line and no 'wrote\n"
      "                        FILE' lines\n"
      "  -h, --help            show this help\n"
      "\n" CLI_FIGURE_HELP
      "(--xlim and --ylim in the units of the --x and --y values)\n"
      "\n"
      "A progress line is drawn on standard error when it is a terminal.\n"
      "zeno-mpi, run under mpirun, spreads the rows over MPI ranks and writes\n"
      "the same files as zeno.\n");
}

static const struct option LONG_OPTIONS[] = {
    GRID_LONG_OPTIONS,
    {"magnitude", required_argument, NULL, OPT_MAGNITUDE},
    {"basin-tol", required_argument, NULL, OPT_BASIN_TOL},
    {"basin-turn", required_argument, NULL, OPT_BASIN_TURN},
    {"color", required_argument, NULL, OPT_COLOR},
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
    return cli_usage_error(COMMAND, "--magnitude: '%s' is not LO:HI:N (%s)", text, err.message);
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
    return cli_usage_error(COMMAND, "%s: '%s' out of range; allowed (0, %g]", option, text, max);
  *value = v * scale;
  return CLI_CONTINUE;
}

// --color NAME: one of plot_sweep_color_name()'s.
static int color_option(sweep_options *o, const char *text) {
  for (int k = 0; k < PLOT_SWEEP_COLORS; k++)
    if (strcmp(text, plot_sweep_color_name((plot_sweep_color)k)) == 0) {
      o->color = (plot_sweep_color)k;
      o->color_set = true;
      return CLI_CONTINUE;
    }
  return cli_usage_error(COMMAND,
                         "--color %s: expected 'outcome', 't', 'impacts', 'zeno_time' or 'x2'",
                         text);
}

static int apply_option(void *options, int option, char **argv) {
  sweep_options *o = options;
  const int shared = grid_option(COMMAND, option, optarg, &o->g, &o->def.x, &o->def.y, &o->common);
  if (shared != GRID_OPTION_OTHER) return shared;
  switch (option) {
    case OPT_MAGNITUDE: return magnitude_option(o, optarg);
    case OPT_COLOR: return color_option(o, optarg);
    case OPT_BASIN_TOL:
      o->basin_option = "--basin-tol";
      return positive_option("--basin-tol", optarg, BASIN_TOL_MAX, 1, &o->def.basin.tol);
    case OPT_BASIN_TURN:
      o->basin_option = "--basin-turn";
      return positive_option("--basin-turn", optarg, BASIN_TURN_MAX_DEG, 1 / DEG_PER_RAD,
                             &o->def.basin.turn_max);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- the sweep ------------------------------------------------------------------ */

typedef struct sweep {
  const sweep_options *o;
  grid_command cmd;  ///< the maps, their grid and outputs
  plot_options figure;
} sweep;

static zeno_status map_point(const void *map, size_t ix, size_t iy, void *point,
                             zeno_error *error) {
  return zeno_sweep_point_run(map, ix, iy, point, error);
}

static zeno_status write_point(FILE *f, const void *point, const void *context) {
  const sweep *w = context;
  return zeno_io_sweep_row(f, &w->o->def, point, NULL);
}

static bool read_point(const char *text, void *point, size_t *ix, size_t *iy, double *x, double *y,
                       const void *context) {
  const sweep *w = context;
  zeno_sweep_point *p = point;
  if (zeno_io_sweep_parse(text, &w->o->def, p, NULL) != ZENO_OK) return false;
  *ix = p->ix, *iy = p->iy, *x = p->x, *y = p->y;
  return true;
}

// Everything that decides the points' results, as the signature digests it.
static void settings_text(const sweep_options *o, char *out, size_t size) {
  const zeno_sweep_def *d = &o->def;
  const zeno_region_axis *z = &o->g.z;
  snprintf(out, size,
           "zeno %s; x %s=%.17g:%.17g:%zu; y %s=%.17g:%.17g:%zu; z %s=%.17g:%.17g:%zu; "
           "basin %zu %.17g:%.17g tol %.17g turn %.17g",
           zeno_version(), d->x.path, d->x.lo, d->x.hi, d->x.count, d->y.path, d->y.lo, d->y.hi,
           d->y.count, o->g.z_set ? z->path : "", z->lo, z->hi, z->count, d->basin.count,
           d->basin.lo, d->basin.hi, d->basin.tol, d->basin.turn_max);
}

/* ---- outputs ---------------------------------------------------------------- */

static void table_header(FILE *f, const grid_command *c, const zeno_scene *scene) {
  const sweep *w = c->context;
  zeno_io_sweep_header_of(f, &w->o->def, scene, NULL);
}

typedef struct tally {
  long outcome[OUTCOMES];
  long zeno_rests, errors;
  /// Basin estimate: points where every, none of the scanned magnitudes
  /// returned, non-monotone points; the range of basin_inner.
  long basin_all, basin_none, basin_non_monotone;
  double inner_min, inner_max;
} tally;

static tally count(const grid_command *c) {
  const sweep_options *o = ((const sweep *)c->context)->o;
  const zeno_sweep_point *grid = c->grid;
  tally t;
  memset(&t, 0, sizeof t);
  t.inner_min = INFINITY;
  t.inner_max = -INFINITY;
  for (size_t k = 0; k < grid_command_points(c); k++) {
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

static void json_axis(FILE *f, const char *key, const zeno_region_axis *a) {
  fprintf(f, ", \"%s\": ", key);
  zeno_io_json_string(f, a->path, NULL);
}

static void write_summary(FILE *f, const grid_command *c, const zeno_scene *scene, double seconds) {
  (void)seconds;
  const sweep_options *o = ((const sweep *)c->context)->o;
  const tally t = count(c);
  fputs("{\"scene\": ", f);
  zeno_io_json_string(f, scene->name, NULL);
  json_axis(f, "x", &o->def.x);
  json_axis(f, "y", &o->def.y);
  if (o->g.z_set) {
    json_axis(f, "z", &o->g.z);
    fprintf(f, ", \"maps\": %zu", c->nz);
  }
  fprintf(f, ", \"points\": %zu, \"computed\": %ld, \"resumed_rows\": %zu, \"counts\": {",
          grid_command_points(c), c->rows.computed_points, c->rows.resumed_rows);
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
    fprintf(f,
            ", \"basin\": {\"lo\": %.17g, \"hi\": %.17g, \"count\": %zu, \"tol\": %.17g, "
            "\"turn_max\": %.17g, \"all_return\": %ld, \"none_return\": %ld, "
            "\"non_monotone\": %ld, \"inner_min\": ",
            b->lo, b->hi, b->count, b->tol, b->turn_max, t.basin_all, t.basin_none,
            t.basin_non_monotone);
    zeno_io_json_number(f, isfinite(t.inner_min) ? t.inner_min : NAN, NULL);
    fputs(", \"inner_max\": ", f);
    zeno_io_json_number(f, isfinite(t.inner_max) ? t.inner_max : NAN, NULL);
    fputc('}', f);
  }
  fprintf(f, ", \"ranks\": %d, \"threads\": %d}\n", c->rows.dist.size,
          zeno_regions_threads(o->g.threads));
}

static void print_axis(const char *label, const zeno_region_axis *a) {
  cli_label(label);
  printf("%s from %g to %g, %zu points\n", a->path, a->lo, a->hi, a->count);
}

static void print_summary(const grid_command *c, const zeno_scene *scene, double seconds) {
  (void)scene;
  (void)seconds;
  const sweep_options *o = ((const sweep *)c->context)->o;
  const tally t = count(c);
  print_axis("x", &o->def.x);
  print_axis("y", &o->def.y);
  if (o->g.z_set) print_axis("z (one map each)", &o->g.z);
  cli_label("points");
  printf("%zu (%ld computed, %zu rows resumed)\n", grid_command_points(c), c->rows.computed_points,
         c->rows.resumed_rows);
  for (int k = 1; k < OUTCOMES; k++) {
    if (t.outcome[k] == 0) continue;
    cli_label(zeno_outcome_name((zeno_outcome)k));
    if (k == ZENO_OUTCOME_REST)
      printf("%ld (%ld after a Zeno completion)\n", t.outcome[k], t.zeno_rests);
    else printf("%ld\n", t.outcome[k]);
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

// The figure of map iz (the only one without --z).
static plot_status draw(const grid_command *c, const zeno_scene *scene,
                        const zeno_plot_module *plot, const char *path, const char *z_title,
                        size_t iz) {
  const sweep *w = c->context;
  const sweep_options *o = w->o;
  char title[sizeof scene->name + 2 * ZENO_REGION_PATH_SIZE + GRID_Z_TITLE_SIZE + 64];
  const bool basin = o->def.basin.count > 0;
  // What the cells show, by --color.
  static const char *const SHOWN[PLOT_SWEEP_COLORS] = {"outcomes", "end time", "impacts",
                                                       "Zeno time", "rest position x2"};
  snprintf(title, sizeof title, "%s: %s over %s and %s%s", scene->name,
           basin ? "basin edge (epsilon)" : SHOWN[o->color], o->def.x.path, o->def.y.path, z_title);
  const plot_sweep_input in = {.title = title,
                               .x = &o->def.x,
                               .y = &o->def.y,
                               .grid = (const zeno_sweep_point *)c->grid + iz * c->nx * c->ny,
                               .options = &w->figure,
                               .basin = basin ? &o->def.basin : NULL,
                               .color = o->color};
  return plot->sweep(path, &in);
}

/* ---- the command -------------------------------------------------------------- */

static void *create_map(const void *context, const char *const *overrides, size_t count,
                        zeno_error *error) {
  const sweep_options *o = ((const sweep *)context)->o;
  return zeno_sweep_create(o->common.scene_text, o->common.scene_path, overrides, count, &o->def,
                           error);
}

static void destroy_map(void *map) { zeno_sweep_destroy(map); }

// A basin estimate the library refused names --magnitude.
static int map_error(const grid_command *c, const zeno_error *err) {
  (void)c;
  if (strcmp(err->parameter, "basin") == 0 && err->code != ZENO_ERR_NOMEM)
    return cli_usage_error(COMMAND, "--magnitude: %s", err->message);
  return CLI_CONTINUE;
}

static int run(const void *options, const zeno_scene *scene, zeno_error *err) {
  (void)err;
  const sweep_options *o = options;
  if (!o->g.x_set || !o->g.y_set)
    return cli_usage_error(COMMAND, "both --x PATH=LO:HI:N and --y PATH=LO:HI:N are required");
  if (o->g.z_set && grid_z_check(COMMAND, &o->g.z, &o->def.x, &o->def.y) != CLI_CONTINUE)
    return CLI_EXIT_USAGE;
  if (o->basin_option && o->def.basin.count == 0)
    return cli_usage_error(COMMAND, "%s: only with --magnitude LO:HI:N", o->basin_option);
  if (o->color_set && o->g.plot_path == NULL)
    return cli_usage_error(COMMAND, "--color %s: colours the figure; add --plot FILE",
                           plot_sweep_color_name(o->color));
  if (o->color_set && o->color != PLOT_SWEEP_COLOR_OUTCOME && o->def.basin.count > 0)
    return cli_usage_error(COMMAND,
                           "--color %s: with --magnitude the figure is the basin map (its "
                           "cells coloured by the basin edge); leave out one of them",
                           plot_sweep_color_name(o->color));
  if (o->g.z_set && o->def.basin.count > 0 && strcmp(o->g.z.path, "epsilon") == 0)
    return cli_usage_error(COMMAND,
                           "--z: epsilon is the basin estimate's magnitude "
                           "(--magnitude); it cannot be an axis too");
  sweep w;
  memset(&w, 0, sizeof w);
  w.o = o;
  const int checked = cli_figure_check(COMMAND, &o->g.figure, &o->g.plot_path, 1, &w.figure);
  if (checked != CLI_CONTINUE) return checked;
  char settings[4 * ZENO_REGION_PATH_SIZE + 512];
  settings_text(o, settings, sizeof settings);
  w.cmd = (grid_command){
      .names = &NAMES,
      .common = &o->common,
      .options = &o->g,
      .batch = {.point_size = sizeof(zeno_sweep_point),
                .map_point = map_point,
                .write_point = write_point,
                .read_point = read_point,
                .context = &w},
      .create_map = create_map,
      .destroy_map = destroy_map,
      .map_error = map_error,
      .table_header = table_header,
      .write_summary = write_summary,
      .print_summary = print_summary,
      .draw = draw,
      .context = &w,
  };
  return grid_command_run(&w.cmd, &o->def.x, &o->def.y, scene, settings);
}

static const cli_scene_command SWEEP_COMMAND = {.name = COMMAND_NAME,
                                                .short_options = ":" GRID_SHORT_OPTIONS "h",
                                                .long_options = LONG_OPTIONS,
                                                .apply = apply_option,
                                                .run = run};

int cmd_sweep(int argc, char **argv) {
  sweep_options o = {0};
  o.def.basin = zeno_sweep_basin_def_default();
  o.g.z.count = 1;
  cli_figure_init(&o.g.figure);
  return cli_scene_command_main(&SWEEP_COMMAND, &o.common, &o, argc, argv);
}
