// Pieces shared by `zeno analyze` and `zeno maps`: the reports of the maps
// R and G, the options they share and writing the maps figure.
#ifndef ZENO_CLI_CLI_STABILITY_H
#define ZENO_CLI_CLI_STABILITY_H

#include "cli_common.h"
#include "cli_figure.h"
#include "cli_module.h"

/// Accepted range of --samples (the library needs at least 16).
#define CLI_SAMPLES_MIN ZENO_MAPS_MIN_SAMPLES
#define CLI_SAMPLES_MAX ZENO_MAPS_MAX_SAMPLES

/// Checks that an image path ends in .png, .svg or .pdf and notes it as an
/// output of the command (cli_output()); returns CLI_CONTINUE or a usage
/// error naming the option. A figure is asked for: loads the plot module,
/// returning CLI_EXIT_RUNTIME when it cannot (cli_module.h).
int cli_image_option(cli_scene_options *common, const char *command, const char *option,
                     const char *path);

/// A grid axis option (`--x PATH=LO:HI:N` of regions and sweep): parses it
/// into *axis, keeps the option as typed ("--x TEXT") for error messages
/// about the overrides the library makes of it, and sets *set; returns
/// CLI_CONTINUE or a usage error naming the option.
int cli_axis_option(const char *command, const char *option, const char *text,
                    zeno_region_axis *axis, char typed[CLI_TYPED_SIZE], bool *set);

/// What a figure's drawing returned, said and as an exit code: a figure
/// written is named (cli_wrote(): CLI_EXIT_OK); a failed one is reported
/// ("cannot write 'PATH': why", CLI_EXIT_RUNTIME); one a signal stopped
/// (PLOT_STOPPED) is not: CLI_EXIT_INTERRUPTED.
int cli_plot_result(const zeno_plot_module *plot, const char *path, plot_status status);

/// Human report lines of the maps: contact swap, samples, breakpoints
/// (with the cycle words on both sides), fixed points, G_max, G- and G+.
void cli_print_maps(const zeno_maps *maps);

/// Appends to a figure title the impact law when it is not the paper's
/// inelastic law (15), under which the theorems hold: ", newton law e = 0.5".
void cli_append_law(const zeno_scene *scene, char *title, size_t size);

/// Writes the maps figure; the merged partition iv[0..n-1] (n may be 0) is
/// shaded. Returns CLI_EXIT_OK or CLI_EXIT_RUNTIME (reported).
int cli_plot_maps(const char *path, const char *title, const zeno_maps *maps,
                  const zeno_interval *iv, size_t n, const plot_options *options);

#endif
