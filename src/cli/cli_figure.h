// The options every command that draws takes: --size WxH, --dpi N,
// --font-scale F, --xlim A:B, --ylim A:B. Parsed here once (errors name the
// option as typed and its allowed range) into the plot module's
// plot_options, which the commands pass with each figure.
#ifndef ZENO_CLI_CLI_FIGURE_H
#define ZENO_CLI_CLI_FIGURE_H

#include <getopt.h>
#include <stdbool.h>

#include "cli_common.h"
#include "plot/plot.h"

/* Option codes: above every command's own long-only codes (256...). */
enum {
  CLI_OPT_FIGURE_SIZE = 1024,
  CLI_OPT_FIGURE_DPI,
  CLI_OPT_FIGURE_FONT_SCALE,
  CLI_OPT_FIGURE_XLIM,
  CLI_OPT_FIGURE_YLIM,
};

/// The getopt_long entries of the figure options, for a command's table.
// clang-format off
#define CLI_FIGURE_LONG_OPTIONS                                         \
  {"size", required_argument, NULL, CLI_OPT_FIGURE_SIZE},               \
      {"dpi", required_argument, NULL, CLI_OPT_FIGURE_DPI},             \
      {"font-scale", required_argument, NULL, CLI_OPT_FIGURE_FONT_SCALE}, \
      {"xlim", required_argument, NULL, CLI_OPT_FIGURE_XLIM},           \
      {"ylim", required_argument, NULL, CLI_OPT_FIGURE_YLIM}
// clang-format on

/// Their --help lines.
#define CLI_FIGURE_HELP                                                          \
  "Figure options (for every figure the command writes):\n"                      \
  "      --size WxH       figure size: PNG pixels, SVG/PDF points; each side\n"  \
  "                       in [100, 8000] (default 460x345, matplotlib's 6.4 x\n" \
  "                       4.8 in, or 460x345 times N/96 with --dpi N); text,\n"  \
  "                       lines and markers follow the size (10 pt tick\n"       \
  "                       labels at the default, 8.3 pt at 252x180)\n"           \
  "      --dpi N          PNG density in [24, 1200] pixels per inch, written\n"  \
  "                       into the PNG; fonts, lines and margins scale by\n"     \
  "                       N/96 (default 96; PNG only)\n"                         \
  "      --font-scale F   text size factor in [0.25, 4] (default 1)\n"           \
  "      --xlim A:B       x axis range in the axis's displayed units, A < B\n"   \
  "      --ylim A:B       y axis range (the top panel of two-panel figures)\n"

/// The figure options as parsed.
typedef struct cli_figure {
  plot_options plot;  ///< what the plot module gets
  bool size_set, dpi_set, any_set;
  char size_typed[CLI_TYPED_SIZE], dpi_typed[CLI_TYPED_SIZE];
  char xlim_typed[CLI_TYPED_SIZE];  ///< "--xlim TEXT" as typed, for later checks
} cli_figure;

/// No option given: plot_options_default().
void cli_figure_init(cli_figure *figure);

/// Whether `option` (a getopt_long code) is one of the figure options.
bool cli_figure_is_option(int option);

/// Parses one figure option's value `text`; returns CLI_CONTINUE or a usage
/// error (one line naming the option as typed and its allowed range).
int cli_figure_option(const char *command, cli_figure *figure, int option, const char *text);

/// After parsing, with the paths of the figures the command will write
/// (NULL entries: not asked for): refuses figure options without a figure,
/// --dpi for an SVG or PDF, and a --size/--dpi pair whose layout (size times
/// 96 / dpi) is under PLOT_SIZE_MIN units a side. Fills *options with the options
/// to draw with (without --size, the size is the default times dpi / 96),
/// and the signal flag as their stop (plot_options.stop). Returns
/// CLI_CONTINUE or a usage error.
int cli_figure_check(const char *command, const cli_figure *figure, const char *const *paths,
                     size_t count, plot_options *options);

#endif
