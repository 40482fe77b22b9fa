// `zeno maps SCENE`: the reduced Poincaré map R (26) and the growth map G
// (27) over the section angle phi, as a summary, a CSV table or a figure.
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_signal.h"
#include "cli_stability.h"

#define COMMAND_NAME "maps"
static const char *const COMMAND = COMMAND_NAME;
/// --csv argument that means standard output.
static const char *const STDOUT_NAME = "-";

/// Room for the figure title.
#define TITLE_SIZE 256

/* Long-only options get values outside the character range. */
enum {
  OPT_SAMPLES = 256,
};

typedef struct maps_options {
  cli_scene_options common;  ///< --set overrides and the scene
  const char *csv_path;      ///< --csv: file or "-", or NULL
  const char *plot_path;     ///< --plot: figure, or NULL
  bool json;                 ///< --json: the summary as one JSON object
  zeno_maps_def def;
  cli_figure figure;  ///< --size, --dpi, --font-scale, --xlim, --ylim
} maps_options;

static void print_help(void) {
  printf(
      "Usage: zeno maps SCENE [OPTIONS]\n"
      "\n"
      "Computes the reduced Poincare map R (26) and the growth map G (27) of\n"
      "the two-contact scene file SCENE (YAML) over the section angle phi in\n"
      "(-pi/2, pi/2) (eq. (25)): one exact zero-order cycle per sample, the\n"
      "breakpoints where the cycle word changes, the fixed points of R and\n"
      "the endpoint limits G- and G+ (Lemma 3). Contacts are swapped first\n"
      "when the ordering (13) needs it. Without --csv, --plot and --json\n"
      "prints a summary. Bad input exits 2; file errors exit 1.\n"
      "\n"
      "Options:\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path;\n"
      "                       repeatable, applied in order\n"
      "      --samples N      uniform samples over (-pi/2, pi/2), N in\n"
      "                       [%d, %d] (default %d); both sides of every\n"
      "                       breakpoint are added\n"
      "  -c, --csv FILE       write the samples as CSV, '-' for standard\n"
      "                       output: header phi,R,G,word, one row per sample\n"
      "                       in phi order, R and G empty where the cycle does\n"
      "                       not return to the section, word the cycle's\n"
      "                       modes from its first impact to its return\n"
      "  -j, --json           print one JSON object instead of the summary:\n"
      "                       scene, swapped, samples (their count),\n"
      "                       breakpoints, fixed_points (phi, G, slope,\n"
      "                       convergent, limiting, at_breakpoint, word_left,\n"
      "                       word_right, returns, tie, tie_margin), G_max,\n"
      "                       G_minus, G_plus and points (phi, R, G, word: the\n"
      "                       --csv rows, R and G null where it has them\n"
      "                       empty); docs/outputs.md\n"
      "  -p, --plot FILE      write the figure of R (top) and G (bottom);\n"
      "                       FILE ends in .png, .svg or .pdf\n"
      "  -t, --threads T      threads sharing out the samples, T in [1, %d]\n"
      "                       (default: all cores from 100000 samples, one\n"
      "                       below; the result is the same)\n"
      "  -h, --help           show this help\n"
      "\n" CLI_FIGURE_HELP "(--xlim: phi [rad]; --ylim: R(phi) [rad], the top panel)\n",
      CLI_SAMPLES_MIN, CLI_SAMPLES_MAX, (int)zeno_maps_def_default().samples,
      ZENO_MAPS_MAX_THREADS);
}

static const struct option LONG_OPTIONS[] = {
    {"set", required_argument, NULL, 's'},
    {"samples", required_argument, NULL, OPT_SAMPLES},
    {"csv", required_argument, NULL, 'c'},
    {"plot", required_argument, NULL, 'p'},
    {"json", no_argument, NULL, 'j'},
    CLI_FIGURE_LONG_OPTIONS,
    {"threads", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  maps_options *o = options;
  if (cli_figure_is_option(option)) return cli_figure_option(COMMAND, &o->figure, option, optarg);
  switch (option) {
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case OPT_SAMPLES:
      return cli_size_option(COMMAND, "--samples", optarg, CLI_SAMPLES_MIN, CLI_SAMPLES_MAX,
                             &o->def.samples);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'c': o->csv_path = optarg; return cli_output(&o->common, "--csv", optarg);
    case 'p': o->plot_path = optarg; return cli_image_option(&o->common, COMMAND, "--plot", optarg);
    case 't':
      return cli_int_option(COMMAND, "--threads", optarg, 1, ZENO_MAPS_MAX_THREADS,
                            &o->def.threads);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- outputs --------------------------------------------------------------- */

// The CSV of the maps, or of their samples as a stream hands them out
// (maps NULL): in constant memory, what `--samples 600000 --csv` needs.
static int write_csv(const char *path, const zeno_maps *maps, zeno_maps_stream *stream,
                     zeno_error *err) {
  const bool to_stdout = strcmp(path, STDOUT_NAME) == 0;
  // A file is written aside and renamed into place whole (zeno_io_output).
  zeno_io_output *out = to_stdout ? NULL : zeno_io_output_open_path(path, err);
  if (!to_stdout && out == NULL) return cli_output_error(err);
  FILE *f = to_stdout ? stdout : zeno_io_output_stream(out);
  zeno_status st = ZENO_OK;
  if (maps) {
    st = zeno_io_maps_csv(f, maps, NULL);
  } else {
    zeno_cycle c;
    zeno_status next = ZENO_OK;
    st = zeno_io_maps_csv_header(f, NULL);
    while (st == ZENO_OK && (next = zeno_maps_stream_next(stream, &c, err)) == ZENO_OK)
      st = zeno_io_maps_csv_row(f, &c, NULL);
    // The maps failed, or a signal stopped them (cli_library_error()
    // tells), not the file.
    if (next != ZENO_OK && next != ZENO_DONE) {
      zeno_io_output_discard(out);
      return cli_library_error(err);
    }
  }
  // A signal after the last sample: the file is not written either.
  if (!to_stdout && st == ZENO_OK && cli_signals_hold() != CLI_CONTINUE) {
    zeno_io_output_discard(out);
    return CLI_EXIT_INTERRUPTED;
  }
  if (to_stdout) return CLI_EXIT_OK;  // main() checks stdout at exit
  if (st != ZENO_OK) {
    zeno_io_output_discard(out);
    cli_error("cannot write '%s'", path);
    return CLI_EXIT_RUNTIME;
  }
  if (zeno_io_output_commit(out, err) != ZENO_OK) return cli_output_error(err);
  cli_wrote(path);
  return CLI_EXIT_OK;
}

typedef struct maps_json {
  const zeno_scene *scene;
  const zeno_maps *maps;
} maps_json;

static zeno_status write_json(FILE *out, const void *context) {
  const maps_json *j = context;
  return zeno_io_maps_json(out, j->scene, j->maps, NULL);
}

static int outputs(const maps_options *o, const zeno_scene *scene, const zeno_maps *maps,
                   const plot_options *figure) {
  if (o->json) {
    cli_print_json(stdout, &o->common, write_json, &(maps_json){scene, maps});
    putchar('\n');
  } else if (o->csv_path == NULL && o->plot_path == NULL) {
    cli_label("scene");
    printf("%s\n", scene->name);
    cli_print_maps(maps);
    return CLI_EXIT_OK;
  }
  int code = CLI_EXIT_OK;
  if (o->csv_path) code = write_csv(o->csv_path, maps, NULL, NULL);
  if (code == CLI_EXIT_OK && o->plot_path) {
    char title[TITLE_SIZE];
    snprintf(title, sizeof title, "%s: reduced map R and growth map G", scene->name);
    cli_append_law(scene, title, sizeof title);
    code = cli_plot_maps(o->plot_path, title, maps, NULL, 0, figure);
  }
  return code;
}

static int run_maps(const void *options, const zeno_scene *scene, zeno_error *err) {
  const maps_options *o = options;
  plot_options figure;
  int code = cli_figure_check(COMMAND, &o->figure, &o->plot_path, 1, &figure);
  if (code != CLI_CONTINUE) return code;
  if (o->json && o->csv_path && strcmp(o->csv_path, STDOUT_NAME) == 0)
    return cli_usage_error(COMMAND,
                           "--csv -: standard output holds the --json object; give --csv FILE");
  // Ctrl-C and SIGTERM stop the maps between samples: nothing written.
  zeno_maps_def def = o->def;
  def.interrupt = cli_interrupt_hook();
  cli_signals_cooperate();
  if (o->csv_path && o->plot_path == NULL && !o->json) {
    // Only the samples' table: written as they come, none held.
    zeno_maps_stream *stream = zeno_maps_stream_create(scene, &def, err);
    if (stream == NULL) return cli_library_error(err);
    code = write_csv(o->csv_path, NULL, stream, err);
    zeno_maps_stream_destroy(stream);
    return code;
  }
  zeno_maps maps;
  if (zeno_maps_compute(scene, &def, &maps, err) != ZENO_OK) return cli_library_error(err);
  code = cli_signals_hold();
  if (code == CLI_CONTINUE) code = outputs(o, scene, &maps, &figure);
  zeno_maps_free(&maps);
  return code;
}

static const cli_scene_command MAPS_COMMAND = {.name = COMMAND_NAME,
                                               .short_options = ":s:c:p:jt:h",
                                               .long_options = LONG_OPTIONS,
                                               .apply = apply_option,
                                               .run = run_maps};

int cmd_maps(int argc, char **argv) {
  maps_options o = {.def = zeno_maps_def_default()};
  cli_figure_init(&o.figure);
  return cli_scene_command_main(&MAPS_COMMAND, &o.common, &o, argc, argv);
}
