// The figure options shared by the commands that draw (cli_figure.h).
#include "cli_figure.h"
#include "cli_signal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void cli_figure_init(cli_figure *f) {
  memset(f, 0, sizeof *f);
  f->plot = plot_options_default();
}

bool cli_figure_is_option(int option) {
  return option >= CLI_OPT_FIGURE_SIZE && option <= CLI_OPT_FIGURE_YLIM;
}

/// A finite number filling all of text[0..n-1].
static bool parse_number(const char *text, size_t n, double *value) {
  char buffer[CLI_TYPED_SIZE];
  if (n == 0 || n >= sizeof buffer) return false;
  memcpy(buffer, text, n);
  buffer[n] = '\0';
  char *end;
  errno = 0;
  *value = strtod(buffer, &end);
  return end != buffer && *end == '\0' && errno != ERANGE && isfinite(*value);
}

/// A whole number of [PLOT_SIZE_MIN, PLOT_SIZE_MAX] filling text[0..n-1].
static bool parse_side(const char *text, size_t n, int *side) {
  double v;
  if (!parse_number(text, n, &v) || v != floor(v) || v < PLOT_SIZE_MIN || v > PLOT_SIZE_MAX)
    return false;
  *side = (int)v;
  return true;
}

static int size_option(const char *command, cli_figure *f, const char *text) {
  const char *x = strpbrk(text, "xX");
  if (x == NULL || !parse_side(text, (size_t)(x - text), &f->plot.width) ||
      !parse_side(x + 1, strlen(x + 1), &f->plot.height))
    return cli_usage_error(command,
                           "--size %s: expected WxH with W and H whole numbers in [%d, %d] "
                           "(PNG pixels, SVG/PDF points), e.g. 1800x1200",
                           text, PLOT_SIZE_MIN, PLOT_SIZE_MAX);
  f->size_set = true;
  snprintf(f->size_typed, sizeof f->size_typed, "--size %s", text);
  return CLI_CONTINUE;
}

static int range_option(const char *command, const char *option, const char *text, double min,
                        double max, double *value) {
  if (!parse_number(text, strlen(text), value) || *value < min || *value > max)
    return cli_usage_error(command, "%s %s: expected a number in [%g, %g]", option, text, min, max);
  return CLI_CONTINUE;
}

static int limits_option(const char *command, const char *option, const char *text,
                         double *limits) {
  const char *colon = strchr(text, ':');
  if (colon == NULL || !parse_number(text, (size_t)(colon - text), &limits[0]) ||
      !parse_number(colon + 1, strlen(colon + 1), &limits[1]))
    return cli_usage_error(command, "%s %s: expected A:B with finite numbers A < B", option, text);
  if (!(limits[0] < limits[1]))
    return cli_usage_error(command, "%s %s: A must be less than B (expected A:B, A < B)", option,
                           text);
  return CLI_CONTINUE;
}

int cli_figure_option(const char *command, cli_figure *f, int option, const char *text) {
  f->any_set = true;
  switch (option) {
    case CLI_OPT_FIGURE_SIZE: return size_option(command, f, text);
    case CLI_OPT_FIGURE_DPI:
      f->dpi_set = true;
      snprintf(f->dpi_typed, sizeof f->dpi_typed, "--dpi %s", text);
      return range_option(command, "--dpi", text, PLOT_DPI_MIN, PLOT_DPI_MAX, &f->plot.dpi);
    case CLI_OPT_FIGURE_FONT_SCALE:
      return range_option(command, "--font-scale", text, PLOT_FONT_SCALE_MIN, PLOT_FONT_SCALE_MAX,
                          &f->plot.font_scale);
    case CLI_OPT_FIGURE_XLIM:
      f->plot.has_xlim = true;
      snprintf(f->xlim_typed, sizeof f->xlim_typed, "--xlim %s", text);
      return limits_option(command, "--xlim", text, f->plot.xlim);
    case CLI_OPT_FIGURE_YLIM:
      f->plot.has_ylim = true;
      return limits_option(command, "--ylim", text, f->plot.ylim);
    default: return cli_usage_error(command, "unknown figure option");
  }
}

static bool is_png(const char *path) {
  const size_t n = strlen(path);
  return n > 4 && strcasecmp(path + n - 4, ".png") == 0;
}

int cli_figure_check(const char *command, const cli_figure *f, const char *const *paths,
                     size_t count, plot_options *options) {
  *options = f->plot;
  // Set only once the command asked for signals (cli_signals_cooperate()).
  options->stop = cli_interrupt_flag();
  const char *first = NULL;
  for (size_t i = 0; i < count; i++) {
    if (paths[i] == NULL) continue;
    if (first == NULL) first = paths[i];
    if (f->dpi_set && !is_png(paths[i]))
      return cli_usage_error(command,
                             "%s: the density applies to PNG figures only ('%s' is sized in "
                             "points by --size)",
                             f->dpi_typed, paths[i]);
  }
  if (first == NULL && f->any_set)
    return cli_usage_error(command,
                           "figure options (--size, --dpi, --font-scale, --xlim, "
                           "--ylim) need a figure: add --plot FILE");
  const double scale = f->plot.dpi / PLOT_DPI_BASE;
  if (!f->size_set) {
    const double w = round(PLOT_WIDTH * scale), h = round(PLOT_HEIGHT * scale);
    if (w > PLOT_SIZE_MAX || h > PLOT_SIZE_MAX || w < PLOT_SIZE_MIN || h < PLOT_SIZE_MIN)
      return cli_usage_error(command,
                             "%s: the default figure at this density would be %.0fx%.0f px; "
                             "each side must be in [%d, %d]: give --size WxH",
                             f->dpi_typed, w, h, PLOT_SIZE_MIN, PLOT_SIZE_MAX);
    options->width = (int)w;
    options->height = (int)h;
  }
  double lw, lh;
  plot_layout_size(options, &lw, &lh);
  if (lw < PLOT_SIZE_MIN || lh < PLOT_SIZE_MIN)
    return cli_usage_error(command,
                           "%s with %s: the figure is laid out on %.0fx%.0f px at 96 dpi, less "
                           "than %d a side: raise --size or lower --dpi",
                           f->dpi_typed, f->size_typed, lw, lh, PLOT_SIZE_MIN);
  return CLI_CONTINUE;
}
