// `zeno analyze SCENE`: Lyapunov stability of the nominal equilibrium
// (paper Secs. 6-7): equilibrium checks, the maps R and G, the verdict of
// Theorems 1-4, and optionally the maps figure and the interval graph.
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_stability.h"

#define COMMAND_NAME "analyze"
static const char *const COMMAND = COMMAND_NAME;

/// Room for figure titles and notes.
#define TITLE_SIZE 256

/* Long-only options get values outside the character range. */
enum {
  OPT_SAMPLES = 256,
  OPT_PARTITION,
};

typedef struct analyze_options {
  cli_scene_options common; ///< --set overrides and the scene
  const char *plot_path;  ///< --plot: the maps figure, or NULL
  const char *graph_path; ///< --graph: the interval graph, or NULL
  bool json;
  zeno_analysis_def def;
} analyze_options;

static void print_help(void) {
  printf(
      "Usage: zeno analyze SCENE [OPTIONS]\n"
      "\n"
      "Decides the Lyapunov stability of the nominal equilibrium of the\n"
      "two-contact scene file SCENE (YAML) under the zero-order dynamics\n"
      "(Varkonyi & Or, Secs. 6-7): feasibility (SS), Painleve bounds (11),\n"
      "ambiguity (Theorem 1), persistence (Definition 4), then the reduced\n"
      "Poincare map R and the growth map G over phi in (-pi/2, pi/2): a fixed\n"
      "point of R with G > 1 is unstable (Theorem 2), G < 1 wherever R is\n"
      "defined is stable (Theorem 3), a stable partition of the interval\n"
      "graph is stable (Theorem 4). Prints the verdict with its theorem, the\n"
      "paper's region number (Example 6: 0 infeasible, 1 Painleve,\n"
      "2 Theorem 3, 3 Theorem 4, 4/5 Theorem 2, 6 ambiguous, 7 undecided)\n"
      "and the reason, the fixed points of R, G_max, G- and G+, and for\n"
      "Theorem 4 the partition with neighbouring intervals of one class\n"
      "merged. Every verdict exits 0; bad input exits 2; file errors exit 1.\n"
      "\n"
      "Options:\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path, e.g.\n"
      "                       --set paper.mu2=0.3; VALUE in YAML flow\n"
      "                       syntax; repeatable, applied in order\n"
      "      --samples N      uniform samples of R and G over (-pi/2, pi/2),\n"
      "                       N in [%d, %d] (default %d)\n"
      "      --partition N    uniform sub-intervals of Theorem 4's partition\n"
      "                       before refinement, N in [3, %d] (default %d,\n"
      "                       as in the paper)\n"
      "  -j, --json           print one JSON object: scene, verdict, theorem,\n"
      "                       region, reason, persistent, feasible, margin,\n"
      "                       painleve, swapped, samples, breakpoints,\n"
      "                       fixed_points, G_max, G_minus, G_plus, partition\n"
      "  -p, --plot FILE      write the maps figure (R above G, unsafe\n"
      "                       intervals of a Theorem 4 partition shaded);\n"
      "                       FILE ends in .png or .svg\n"
      "  -g, --graph FILE     write the interval graph of the merged\n"
      "                       partition (.png or .svg); without a Theorem 4\n"
      "                       partition, of the uniform --partition N\n"
      "                       intervals\n"
      "  -h, --help           show this help\n",
      CLI_SAMPLES_MIN, CLI_SAMPLES_MAX, zeno_maps_def_default().samples,
      ZENO_MAX_PARTITION / 2, zeno_analysis_def_default().partition_intervals);
}

static const struct option LONG_OPTIONS[] = {
    {"set", required_argument, NULL, 's'},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"json", no_argument, NULL, 'j'},
    {"plot", required_argument, NULL, 'p'},
    {"graph", required_argument, NULL, 'g'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  analyze_options *o = options;
  switch (option) {
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case OPT_SAMPLES:
      return cli_int_option(COMMAND, "--samples", optarg, CLI_SAMPLES_MIN,
                            CLI_SAMPLES_MAX, &o->def.maps.samples);
    case OPT_PARTITION:
      return cli_int_option(COMMAND, "--partition", optarg, 3,
                            ZENO_MAX_PARTITION / 2, &o->def.partition_intervals);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'p':
      o->plot_path = optarg;
      return cli_image_option(COMMAND, "--plot", optarg);
    case 'g':
      o->graph_path = optarg;
      return cli_image_option(COMMAND, "--graph", optarg);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- human report -------------------------------------------------------- */

static void print_equilibrium(const zeno_scene *scene, const zeno_analysis *a) {
  cli_print_feasibility(&a->equilibrium);
  cli_print_painleve(scene, &a->equilibrium);
  cli_label("persistent (Def. 4)");
  printf("%s\n", a->persistent ? "yes" : "no");
}

static void print_verdict(const zeno_analysis *a) {
  cli_label("verdict");
  printf("%s", zeno_verdict_name(a->verdict));
  if (a->theorem > 0) printf(" (Theorem %d)", a->theorem);
  printf(", region %d\n", a->region);
  cli_label("reason");
  printf("%s\n", a->reason);
}

/// The Theorem 4 partition with neighbouring intervals of one class merged.
static void print_partition(const zeno_analysis *a) {
  zeno_io_interval *iv = malloc((size_t)a->partition_count * sizeof *iv);
  if (iv == NULL) return;
  const int n = zeno_io_merge_partition(a->partition, a->safe,
                                        a->partition_count, iv);
  cli_label("partition (merged)");
  for (int i = 0; i < n; i++) {
    if (i > 0) printf("%-*s", CLI_LABEL_WIDTH, "");
    printf("[%.6f, %.6f] %s\n", iv[i].lo, iv[i].hi,
           iv[i].safe ? "safe" : "unsafe");
  }
  free(iv);
}

static void print_report(const zeno_scene *scene, const zeno_analysis *a) {
  cli_label("scene");
  printf("%s\n", scene->name);
  print_equilibrium(scene, a);
  print_verdict(a);
  if (a->has_maps) cli_print_maps(&a->maps);
  if (a->theorem == 4) print_partition(a);
}

/* ---- figures --------------------------------------------------------------- */

static void verdict_title(const zeno_scene *scene, const zeno_analysis *a,
                          char *title) {
  if (a->theorem > 0)
    snprintf(title, TITLE_SIZE, "%s: %s (Theorem %d)", scene->name,
             zeno_verdict_name(a->verdict), a->theorem);
  else
    snprintf(title, TITLE_SIZE, "%s: %s", scene->name,
             zeno_verdict_name(a->verdict));
}

/// The merged Theorem 4 partition for shading; *n = 0 without one.
static zeno_io_interval *shaded_intervals(const zeno_analysis *a, int *n) {
  *n = 0;
  if (a->theorem != 4) return NULL;
  zeno_io_interval *iv = malloc((size_t)a->partition_count * sizeof *iv);
  if (iv) *n = zeno_io_merge_partition(a->partition, a->safe, a->partition_count, iv);
  return iv;
}

static int write_maps_figure(const char *path, const zeno_scene *scene,
                             const zeno_analysis *a) {
  if (!a->has_maps) {
    cli_error("note: no maps to plot (%s); '%s' not written", a->reason, path);
    return CLI_EXIT_OK;
  }
  char title[TITLE_SIZE];
  verdict_title(scene, a, title);
  int n;
  zeno_io_interval *iv = shaded_intervals(a, &n);
  if (a->theorem == 4 && iv == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  const int code = cli_plot_maps(path, title, &a->maps, iv, n);
  free(iv);
  return code;
}

/// The partition of the interval graph: the analysis' own (Theorem 4 was
/// tried), else `uniform` equal intervals classified by Definition 5.
/// Returns the merged interval count, -1 when out of memory.
static int graph_partition(const zeno_analysis *a, int uniform,
                           zeno_io_interval *iv) {
  if (a->partition_count > 0)
    return zeno_io_merge_partition(a->partition, a->safe, a->partition_count, iv);
  double *edges = malloc((size_t)(uniform + 1) * sizeof *edges);
  bool *safe = malloc((size_t)uniform * sizeof *safe);
  int n = -1;
  bool stable;
  for (int k = 0; edges && k <= uniform; k++)
    edges[k] = -PLOT_PI / 2 + k * PLOT_PI / uniform;
  if (edges && safe &&
      zeno_partition_stable(&a->maps, edges, uniform, safe, NULL, &stable, NULL,
                            0) == ZENO_OK)
    n = zeno_io_merge_partition(edges, safe, uniform, iv);
  free(edges);
  free(safe);
  return n;
}

static int draw_graph(const char *path, const char *title, const char *note,
                      const zeno_maps *maps, const zeno_io_interval *iv, int n) {
  unsigned char *edge = n > 0 ? malloc((size_t)n * (size_t)n) : NULL;
  if (n > 0 && edge == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  const plot_graph_input input = {title, iv, n, edge, note};
  if (edge) plot_graph_edges(maps, iv, n, edge);
  const plot_status status = plot_graph(path, &input);
  free(edge);
  return status == PLOT_OK ? CLI_EXIT_OK : cli_plot_failure(path, status);
}

static int write_graph_figure(const char *path, const zeno_scene *scene,
                              const zeno_analysis *a, int uniform) {
  char title[TITLE_SIZE], note[TITLE_SIZE];
  snprintf(title, sizeof title, "%s: interval graph of R (merged partition)",
           scene->name);
  if (!a->has_maps) {
    snprintf(note, sizeof note, "no maps: %s", a->reason);
    return draw_graph(path, title, note, NULL, NULL, 0);
  }
  const int capacity = a->partition_count > 0 ? a->partition_count : uniform;
  zeno_io_interval *iv = malloc((size_t)capacity * sizeof *iv);
  const int n = iv ? graph_partition(a, uniform, iv) : -1;
  int code = CLI_EXIT_RUNTIME;
  if (n < 0) {
    cli_error("out of memory");
  } else {
    if (a->theorem == 4)
      snprintf(note, sizeof note,
               "stable partition (Theorem 4): %d intervals merged into %d",
               a->partition_count, n);
    else if (a->partition_count > 0)
      snprintf(note, sizeof note,
               "%s: no stable partition; %d intervals merged into %d",
               zeno_verdict_name(a->verdict), capacity, n);
    else
      snprintf(note, sizeof note,
               "%s, not by Theorem 4; uniform partition: %d intervals merged "
               "into %d",
               zeno_verdict_name(a->verdict), capacity, n);
    code = draw_graph(path, title, note, &a->maps, iv, n);
  }
  free(iv);
  return code;
}

/* ---- the command --------------------------------------------------------- */

static int report(const analyze_options *o, const zeno_scene *scene,
                  const zeno_analysis *a) {
  if (o->json) {
    zeno_io_analysis_json(stdout, scene, a);
    putchar('\n');
  } else {
    print_report(scene, a);
  }
  int code = CLI_EXIT_OK;
  if (o->plot_path) code = write_maps_figure(o->plot_path, scene, a);
  if (code == CLI_EXIT_OK && o->graph_path)
    code = write_graph_figure(o->graph_path, scene, a,
                              o->def.partition_intervals);
  return code;
}

static int analyze(const void *options, const zeno_scene *scene,
                   zeno_error *err) {
  const analyze_options *o = options;
  zeno_analysis analysis;
  if (zeno_analyze(scene, &o->def, &analysis, err) != ZENO_OK)
    return cli_library_error(err);
  const int code = report(o, scene, &analysis);
  zeno_analysis_free(&analysis);
  return code;
}

static const cli_scene_command ANALYZE_COMMAND = {
    COMMAND_NAME, ":s:jp:g:h", LONG_OPTIONS, apply_option, analyze,
};

int cmd_analyze(int argc, char **argv) {
  analyze_options o = {.def = zeno_analysis_def_default()};
  return cli_stability_main(&ANALYZE_COMMAND, &o.common, &o, argc, argv);
}
