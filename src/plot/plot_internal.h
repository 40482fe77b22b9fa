// Shared drawing helpers of the plot module: the canvas (a PNG or SVG
// surface), text, axes with ticks and a few strokes.
#ifndef ZENO_PLOT_PLOT_INTERNAL_H
#define ZENO_PLOT_PLOT_INTERNAL_H

#include <cairo.h>

#include "plot/plot.h"

/// Font sizes [px].
#define PLOT_FONT_TITLE 17.0
#define PLOT_FONT_LABEL 14.0
#define PLOT_FONT_TICK 12.0
/// Stroke widths [px].
#define PLOT_LINE_AXIS 1.0
#define PLOT_LINE_THIN 1.0
#define PLOT_LINE_DATA 2.0
/// Dash pattern of guide lines [px on, px off].
#define PLOT_DASH_ON 6.0
#define PLOT_DASH_OFF 4.0
/// Tick length outside the frame [px].
#define PLOT_TICK_LENGTH 5.0
/// Distance of the title's baseline from the top edge [px].
#define PLOT_TITLE_BASELINE 28.0

typedef struct plot_canvas {
  cairo_surface_t *surface;
  cairo_t *cr;
  const char *path;
  /// The file, written aside and renamed into place when the figure is
  /// whole (zeno_io_output): a failure leaves the previous file.
  zeno_io_output *out;
  bool png;
  plot_options options;  ///< as given, or the defaults
  double width, height;  ///< layout size (plot_layout_size())
} plot_canvas;

/// Creates the surface for path (format by extension) of the options' size
/// (NULL: the defaults), scales it to the layout size, paints the
/// background and sets the font scale that plot_text() applies.
plot_status plot_canvas_open(plot_canvas *canvas, const char *path, const plot_options *options);

/// The options' font scale (1 for NULL options).
double plot_options_font_scale(const plot_options *options);

/// The font scale of a canvas's context (1 when none was set).
double plot_font_scale(cairo_t *cr);

/// Writes the PNG or finishes the PDF or SVG, renames the file into place
/// when all of it was written (else drops it, the previous file kept) and
/// frees everything; `status` is the drawing's status so far (returned
/// unless writing fails as well).
plot_status plot_canvas_close(plot_canvas *canvas, plot_status status);

/// The status of a surface: PLOT_OK, PLOT_ERR_NOMEM, or PLOT_ERR_WRITE for
/// any other failure.
plot_status plot_surface_status(cairo_surface_t *surface);

/// Writes an image surface (ARGB32 or RGB24) to `file` as a PNG whose pHYs
/// chunk gives `dpi` pixels per inch, with libpng (plot_png.c); the file's
/// errors are the caller's to check when it closes it.
plot_status plot_png_write(cairo_surface_t *surface, FILE *file, double dpi);

void plot_set_color(cairo_t *cr, plot_color color);

/// Text at (x, y) of size `size` times the font scale, aligned by fractions of its extent: ax = 0 left, 0.5
/// centre, 1 right; ay = 0 top, 0.5 middle, 1 baseline-ish bottom.
void plot_text(cairo_t *cr, double x, double y, double size, const char *text, double ax,
               double ay);

/// Opens the canvas of a grid figure (region map, sweep) after checking its
/// input: both axes and the grid given, at least one point each way.
plot_status plot_grid_open(plot_canvas *canvas, const char *path, const zeno_region_axis *x,
                           const zeno_region_axis *y, const void *grid,
                           const plot_options *options);

/// Applies the options' xlim and ylim (when set) to a frame's ranges.
void plot_apply_limits(const plot_options *options, plot_frame *frame);

/// Where a grid figure's legend goes: right of the map in one column, or,
/// when that would leave the map less than PLOT_GRID_SIDE_SHARE of the
/// width, under the axis label in as many columns as fit.
typedef struct plot_legend_layout {
  double x, y;          ///< top left of the first row
  double column_width;  ///< from one column to the next
  double row;           ///< from one row to the next
  size_t rows;          ///< rows per column
  bool below;
} plot_legend_layout;

/// The least share of the width a map keeps with its legend beside it.
#define PLOT_GRID_SIDE_SHARE 0.4

/// Lays out a grid figure (region map, sweep) of layout size width x
/// height: f's data ranges are set; its area and the legend of `entries`
/// rows of `legend_width` px are placed. With equal_scales the map keeps
/// one scale on both axes and what that leaves is split evenly around it.
void plot_grid_layout(double width, double height, double font_scale, size_t entries,
                      double legend_width, bool equal_scales, plot_frame *f,
                      plot_legend_layout *legend);

/// Top left of legend row k.
void plot_legend_position(const plot_legend_layout *legend, size_t k, double *x, double *y);

/// Data range of a grid axis: its cells' outer edges, and the cell width.
void plot_grid_range(const zeno_region_axis *axis, double *lo, double *hi, double *cell);

/// A grid cell centred at (x, y) of size cx by cy in data units, snapped to
/// whole pixels and overlapping its neighbours by one pixel (no background
/// shows between cells).
void plot_grid_cell(cairo_t *cr, const plot_frame *f, double x, double y, double cx, double cy,
                    plot_color color);

/// Width of a text at size `size` (times font_scale) in the figures' font,
/// measured on a scratch surface (for layouts computed before drawing).
double plot_text_width(const char *text, double size, double font_scale);

/// Legend swatch side [px, times the font scale] and the gap to its label.
#define PLOT_SWATCH 16.0
#define PLOT_SWATCH_GAP 8.0

/// One legend row at (x, y): a swatch and its label.
void plot_legend_row(cairo_t *cr, double x, double y, plot_color color, const char *label);

/// A one-row legend drawn by draw(cr, left, ctx), which returns the row's
/// right end: when that passes `right`, the row is drawn again with the font
/// scale (and so the legend's text, samples and gaps) reduced to fit.
void plot_fitted_row(cairo_t *cr, double left, double right,
                     double (*draw)(cairo_t *cr, double left, const void *ctx), const void *ctx);

/// The title, centred at the top.
void plot_title(cairo_t *cr, double width, const char *title);

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about
/// `count` ticks over span.
double plot_nice_step(double span, int count);

/// Frame box, ticks every x_step / y_step (multiples of the step inside the
/// ranges, either way round) with labels, and the axis labels. A frame with
/// x_log has its ticks at powers of ten, labelled 10ⁿ.
void plot_axes(cairo_t *cr, const plot_frame *f, double x_step, double y_step, const char *x_label,
               const char *y_label);

/// Clips to the frame's data area (undo with cairo_reset_clip()).
void plot_clip(cairo_t *cr, const plot_frame *f);

/// Filled arrow head with its tip at (x, y) pointing along (dx, dy): a
/// triangle `length` long with sides at +-half_angle [rad] from the shaft.
void plot_arrow_head(cairo_t *cr, double x, double y, double dx, double dy, double length,
                     double half_angle);

/// Dashed line between two data points, clipped by the caller.
void plot_dashed_line(cairo_t *cr, const plot_frame *f, double x0, double y0, double x1, double y1,
                      plot_color color);

#endif
