// `zeno analyze SCENE`: Lyapunov stability of the nominal equilibrium
// (paper Secs. 6-7): equilibrium checks, the maps R and G, the verdict of
// Theorems 1-4, and optionally the maps figure and the interval graph.
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli_signal.h"
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
  cli_scene_options common;  ///< --set overrides and the scene
  const char *plot_path;     ///< --plot: the maps figure, or NULL
  const char *graph_path;    ///< --graph: the interval graph, or NULL
  bool json;
  zeno_analysis_def def;
  cli_figure figure;  ///< --size, --dpi, --font-scale, --xlim, --ylim
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
      "                       FILE ends in .png, .svg or .pdf\n"
      "  -g, --graph FILE     write the interval graph of the merged\n"
      "                       partition (.png, .svg, .pdf); without a Theorem 4\n"
      "                       partition, of the uniform --partition N\n"
      "                       intervals\n"
      "  -t, --threads T      threads sharing out the samples, T in [1, %d]\n"
      "                       (default: all cores from 100000 samples, one\n"
      "                       below; the result is the same)\n"
      "  -h, --help           show this help\n"
      "\n" CLI_FIGURE_HELP
      "(--xlim and --ylim apply to the maps figure: phi and R(phi) [rad];\n"
      "the interval graph has no axes)\n",
      CLI_SAMPLES_MIN, CLI_SAMPLES_MAX, (int)zeno_maps_def_default().samples,
      ZENO_MAX_PARTITION / 2, (int)zeno_analysis_def_default().partition_intervals,
      ZENO_MAPS_MAX_THREADS);
}

static const struct option LONG_OPTIONS[] = {
    {"set", required_argument, NULL, 's'},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"partition", required_argument, NULL, OPT_PARTITION},
    {"json", no_argument, NULL, 'j'},
    {"plot", required_argument, NULL, 'p'},
    {"graph", required_argument, NULL, 'g'},
    CLI_FIGURE_LONG_OPTIONS,
    {"threads", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  analyze_options *o = options;
  if (cli_figure_is_option(option)) return cli_figure_option(COMMAND, &o->figure, option, optarg);
  switch (option) {
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case OPT_SAMPLES:
      return cli_size_option(COMMAND, "--samples", optarg, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX,
                             &o->def.maps.samples);
    case OPT_PARTITION:
      return cli_size_option(COMMAND, "--partition", optarg, 3, ZENO_MAX_PARTITION / 2,
                             &o->def.partition_intervals);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'p': o->plot_path = optarg; return cli_image_option(&o->common, COMMAND, "--plot", optarg);
    case 'g':
      o->graph_path = optarg;
      return cli_image_option(&o->common, COMMAND, "--graph", optarg);
    case 't':
      return cli_int_option(COMMAND, "--threads", optarg, 1, ZENO_MAPS_MAX_THREADS,
                            &o->def.maps.threads);
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
  zeno_interval *iv = malloc(a->partition_count * sizeof *iv);
  if (iv == NULL) return;
  const size_t n = zeno_partition_merge(a->partition, a->safe, a->partition_count, iv);
  cli_label("partition (merged)");
  for (size_t i = 0; i < n; i++) {
    if (i > 0) printf("%-*s", CLI_LABEL_WIDTH, "");
    printf("[%.6f, %.6f] %s\n", iv[i].lo, iv[i].hi, iv[i].safe ? "safe" : "unsafe");
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

static void verdict_title(const zeno_scene *scene, const zeno_analysis *a, char *title) {
  if (a->theorem > 0)
    snprintf(title, TITLE_SIZE, "%s: %s (Theorem %d)", scene->name, zeno_verdict_name(a->verdict),
             a->theorem);
  else snprintf(title, TITLE_SIZE, "%s: %s", scene->name, zeno_verdict_name(a->verdict));
  cli_append_law(scene, title, TITLE_SIZE);
}

/// The merged Theorem 4 partition for shading; *n = 0 without one.
static zeno_interval *shaded_intervals(const zeno_analysis *a, size_t *n) {
  *n = 0;
  if (a->theorem != 4) return NULL;
  zeno_interval *iv = malloc(a->partition_count * sizeof *iv);
  if (iv) *n = zeno_partition_merge(a->partition, a->safe, a->partition_count, iv);
  return iv;
}

static int write_maps_figure(const char *path, const zeno_scene *scene, const zeno_analysis *a,
                             const plot_options *options) {
  if (!a->has_maps) {
    cli_error("note: no maps to plot (%s); '%s' not written", a->reason, path);
    return CLI_EXIT_OK;
  }
  char title[TITLE_SIZE];
  verdict_title(scene, a, title);
  size_t n;
  zeno_interval *iv = shaded_intervals(a, &n);
  if (a->theorem == 4 && iv == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  const int code = cli_plot_maps(path, title, &a->maps, iv, n, options);
  free(iv);
  return code;
}

/// The interval graph the figure draws, merged: the verdict's own (built
/// from the analysis' Theorem 4 partition by the same library call the
/// verdict made), else that of `uniform` equal intervals.
static zeno_status figure_graph(const zeno_analysis *a, size_t uniform, zeno_interval_graph *merged,
                                zeno_error *err) {
  double *edges = NULL;
  const double *partition = a->partition;
  size_t n = a->partition_count;
  if (n == 0) {
    edges = malloc((uniform + 1) * sizeof *edges);
    if (edges == NULL) return cli_out_of_memory(err);
    for (size_t k = 0; k <= uniform; k++)
      edges[k] = -ZENO_PI / 2 + (double)k * ZENO_PI / (double)uniform;
    partition = edges;
    n = uniform;
  }
  zeno_interval_graph fine;
  zeno_status st = zeno_interval_graph_build(&a->maps, partition, n, &fine, err);
  if (st == ZENO_OK) st = zeno_interval_graph_merge(&fine, merged, err);
  zeno_interval_graph_free(&fine);
  free(edges);
  return st;
}

static int draw_graph(const char *path, const char *title, const char *note,
                      const zeno_interval_graph *graph, const plot_options *options) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  const plot_graph_input input = {title, graph, note, options};
  return cli_plot_result(plot, path, plot->graph(path, &input));
}

static int write_graph_figure(const char *path, const zeno_scene *scene, const zeno_analysis *a,
                              size_t uniform, const plot_options *options) {
  char title[TITLE_SIZE], note[TITLE_SIZE];
  snprintf(title, sizeof title, "%s: interval graph of R (merged partition)", scene->name);
  if (!a->has_maps) {
    snprintf(note, sizeof note, "no maps: %.200s", a->reason);  // one figure line
    return draw_graph(path, title, note, NULL, options);
  }
  zeno_interval_graph g;
  zeno_error err;
  if (figure_graph(a, uniform, &g, &err) != ZENO_OK) return cli_library_error(&err);
  const size_t fine = a->partition_count > 0 ? a->partition_count : uniform;
  if (a->theorem == 4)
    snprintf(note, sizeof note, "stable partition (Theorem 4): %zu intervals merged into %zu", fine,
             g.count);
  else if (a->partition_count > 0)
    snprintf(note, sizeof note, "%s: no stable partition; %zu intervals merged into %zu",
             zeno_verdict_name(a->verdict), fine, g.count);
  else
    snprintf(note, sizeof note,
             "%s, not by Theorem 4; uniform partition: %zu intervals merged into %zu",
             zeno_verdict_name(a->verdict), fine, g.count);
  const int code = draw_graph(path, title, note, &g, options);
  zeno_interval_graph_free(&g);
  return code;
}

/* ---- the command --------------------------------------------------------- */

typedef struct analysis_json {
  const zeno_scene *scene;
  const zeno_analysis *analysis;
} analysis_json;

static zeno_status write_json(FILE *out, const void *context) {
  const analysis_json *j = context;
  return zeno_io_analysis_json(out, j->scene, j->analysis, NULL);
}

static int report(const analyze_options *o, const zeno_scene *scene, const zeno_analysis *a,
                  const plot_options *figure) {
  if (o->json) {
    cli_print_json(stdout, &o->common, write_json, &(analysis_json){scene, a});
    putchar('\n');
  } else {
    print_report(scene, a);
  }
  int code = CLI_EXIT_OK;
  if (o->plot_path) code = write_maps_figure(o->plot_path, scene, a, figure);
  if (code == CLI_EXIT_OK && o->graph_path)
    code = write_graph_figure(o->graph_path, scene, a, o->def.partition_intervals, figure);
  return code;
}

static int analyze(const void *options, const zeno_scene *scene, zeno_error *err) {
  const analyze_options *o = options;
  plot_options figure;
  const char *const paths[] = {o->plot_path, o->graph_path};
  int code = cli_figure_check(COMMAND, &o->figure, paths, 2, &figure);
  if (code != CLI_CONTINUE) return code;
  if (o->plot_path == NULL && (figure.has_xlim || figure.has_ylim))
    return cli_usage_error(COMMAND,
                           "--%s: only the maps figure (--plot FILE) has axes; the "
                           "interval graph (--graph) has none",
                           figure.has_xlim ? "xlim" : "ylim");
  // Ctrl-C and SIGTERM stop the maps between samples; once computed, the
  // report and the figures are written whole.
  zeno_analysis_def def = o->def;
  def.maps.interrupt = cli_interrupt_hook();
  cli_signals_cooperate();
  zeno_analysis analysis;
  if (zeno_analyze(scene, &def, &analysis, err) != ZENO_OK) return cli_library_error(err);
  code = cli_signals_hold();
  if (code == CLI_CONTINUE) code = report(o, scene, &analysis, &figure);
  zeno_analysis_free(&analysis);
  return code;
}

static const cli_scene_command ANALYZE_COMMAND = {.name = COMMAND_NAME,
                                                  .short_options = ":s:jp:g:t:h",
                                                  .long_options = LONG_OPTIONS,
                                                  .apply = apply_option,
                                                  .run = analyze};

int cmd_analyze(int argc, char **argv) {
  analyze_options o = {.def = zeno_analysis_def_default()};
  cli_figure_init(&o.figure);
  return cli_scene_command_main(&ANALYZE_COMMAND, &o.common, &o, argc, argv);
}
