// Shared drawing helpers of the plot module: the canvas (a PNG or SVG
// surface), text, axes with ticks and a few strokes.
#ifndef ZENO_PLOT_PLOT_INTERNAL_H
#define ZENO_PLOT_PLOT_INTERNAL_H

#include <cairo.h>

#include "plot/plot.h"

/// Font sizes [px at the design size, times the font scale].
#define PLOT_FONT_TITLE 15.0
#define PLOT_FONT_LABEL 14.0
#define PLOT_FONT_TICK 12.0
/// Stroke widths [px at the design size, times the size scale].
#define PLOT_LINE_AXIS 1.0
#define PLOT_LINE_THIN 1.0
#define PLOT_LINE_DATA 2.0
/// Dash pattern of guide lines [px on, px off].
#define PLOT_DASH_ON 6.0
#define PLOT_DASH_OFF 4.0
/// Tick length outside the frame [px].
#define PLOT_TICK_LENGTH 5.0
/// Distance of the title's baseline from the top edge [px].
#define PLOT_TITLE_BASELINE 24.0

/// What text is, for the layout record (plot_layout).
typedef enum plot_text_role {
  PLOT_TEXT_OTHER = 0,  ///< titles, notes, labels inside the data
  PLOT_TEXT_AXIS,       ///< tick labels and axis labels
  PLOT_TEXT_LEGEND      ///< legend and colour-bar text
} plot_text_role;

/// The scales of a canvas, attached to its cairo context: the font scale
/// (the options' times the size scale) that plot_text() applies, the size
/// scale of lines and markers, and the layout record.
typedef struct plot_scales {
  double font;         ///< factor on text sizes and the margins text needs
  double size;         ///< plot_size_scale() of the layout: lines, markers
  double pt_per_unit;  ///< points per device unit: 72 / dpi for a PNG, 1 else
  /// Least line width [layout units]: a PNG's pixel (thinner lines would be
  /// antialiased to grey), 0 for SVG and PDF.
  double line_min;
  plot_text_role role;  ///< of the text drawn now
  plot_layout *layout;  ///< NULL: nothing recorded
} plot_scales;

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
  plot_scales scales;    ///< attached to cr
} plot_canvas;

/// Creates the surface for path (format by extension) of the options' size
/// (NULL: the defaults), scales it to the layout size, paints the
/// background and sets the font scale that plot_text() applies.
plot_status plot_canvas_open(plot_canvas *canvas, const char *path, const plot_options *options);

/// The options' font scale times the size scale of their layout (NULL
/// options: the defaults'): the factor on text and the margins it needs.
double plot_options_font_scale(const plot_options *options);

/// The size scale of the options' layout (plot_size_scale()): the factor
/// on line widths, markers and the margins that hold no text.
double plot_options_size_scale(const plot_options *options);

/// The font scale of a canvas's context (1 when none was set).
double plot_font_scale(cairo_t *cr);

/// The size scale of a canvas's context (1 when none was set).
double plot_size_scale_of(cairo_t *cr);

/// Sets the line width to `width` [px at the design size] times the size
/// scale.
void plot_line_width(cairo_t *cr, double width);

/// Sets the role of the text drawn from now on (for the layout record);
/// returns the previous one.
plot_text_role plot_text_role_set(cairo_t *cr, plot_text_role role);

/// Records (when the canvas records its layout) a legend extent or a
/// marker, in user coordinates.
void plot_record_legend(cairo_t *cr, double x0, double y0, double x1, double y1);
void plot_record_marker(cairo_t *cr, double cx, double cy, double radius);
/// Counts an item of a wrapping legend (plot_layout.legend_items).
void plot_record_legend_item(cairo_t *cr);
/// Records an axis label's text (plot_axes() records its own).
void plot_record_axis_label(cairo_t *cr, const char *text);
/// Records a colour bar's extent (user coordinates) and its data range.
void plot_record_color_bar(cairo_t *cr, double x0, double y0, double x1, double y1, double lo,
                           double hi);

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
#define PLOT_GRID_SIDE_SHARE 0.35

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
#define PLOT_SWATCH 12.0
#define PLOT_SWATCH_GAP 8.0

/// One legend row at (x, y): a swatch and its label.
void plot_legend_row(cairo_t *cr, double x, double y, plot_color color, const char *label);

/* ---- legends that wrap (maps, trajectories) ------------------------------ */

/// The sample drawn before a legend item's text.
typedef enum plot_mark {
  PLOT_MARK_LINE,    ///< a data line
  PLOT_MARK_THIN,    ///< a thin line
  PLOT_MARK_DASHED,  ///< a thin dashed line
  PLOT_MARK_CIRCLE,  ///< an open circle (the maps' fixed points)
  PLOT_MARK_BOX,     ///< a filled box (shading, mode bands)
  PLOT_MARK_TICK,    ///< a vertical tick (events)
  PLOT_MARK_NONE,    ///< text alone (a heading: "mode")
  PLOT_MARK_LABEL    ///< the text on a box of the colour (the mode bands)
} plot_mark;

typedef struct plot_legend_item {
  plot_mark mark;
  plot_color color;
  const char *text;
} plot_legend_item;

/// Legend items: sample length, gap to the text, space between items
/// [px, times the font scale], and the distance of rows in lines of tick
/// text.
#define PLOT_LEGEND_SAMPLE 22.0
#define PLOT_LEGEND_GAP 6.0
#define PLOT_LEGEND_SPACING 18.0
#define PLOT_LEGEND_LINE 1.4

/// Radius of a legend's circle mark and the maps' fixed points, and the
/// width of their outline [px at the design size, times the size scale].
#define PLOT_MARKER_RADIUS 5.0
#define PLOT_MARKER_LINE 1.5

/// Distance of a wrapping legend's rows at font scale fs.
double plot_flow_row(double font_scale);

/// Space between the figure's sides and a wrapping legend at size scale k:
/// its rows are centred between them.
double plot_flow_side(double size_scale);

/// Rows a legend of these items takes when it wraps within `width` at
/// font scale fs: the legend's text keeps the tick labels' size, and rows
/// are added rather than the text made smaller.
size_t plot_flow_rows(const plot_legend_item *items, size_t count, double width, double font_scale);

/// Draws the items from `left`, wrapping at `right`, the first row's
/// baseline at `base` (rows as plot_flow_rows() counts them).
void plot_flow_legend(cairo_t *cr, const plot_legend_item *items, size_t count, double left,
                      double right, double base);

/// The space between a legend's last baseline and a frame below it that
/// keeps markers drawn on the frame's top edge (radius PLOT_MARKER_RADIUS)
/// off the legend's text.
double plot_legend_clearance(double font_scale, double size_scale);

/// The title, centred at the top: set smaller when wider than the figure,
/// but never under the tick labels' size; what does not fit then ends in
/// an ellipsis.
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
