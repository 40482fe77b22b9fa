// Grid figures' shared parts (region maps, sweeps): their canvas, their
// layout with a legend beside or under the map, cells and legend rows.
#include <math.h>
#include <string.h>

#include "plot/plot_internal.h"

/* ---- grids of cells (region maps, sweeps) ----------------------------------- */

plot_status plot_grid_open(plot_canvas *c, const char *path, const zeno_region_axis *x,
                           const zeno_region_axis *y, const void *grid,
                           const plot_options *options) {
  memset(c, 0, sizeof *c);
  if (x == NULL || y == NULL || grid == NULL || x->count < 1 || y->count < 1)
    return PLOT_ERR_FORMAT;
  const plot_status st = plot_canvas_open(c, path, options);
  return st == PLOT_OK ? PLOT_OK : plot_canvas_close(c, st);
}

/* Grid figure layout [px, times the font scale where text needs it]. */
#define PLOT_GRID_MARGIN_LEFT 76.0
#define PLOT_GRID_MARGIN_RIGHT 16.0
#define PLOT_GRID_MARGIN_TOP 48.0
#define PLOT_GRID_MARGIN_BOTTOM 48.0
#define PLOT_GRID_LEGEND_GAP 18.0
#define PLOT_GRID_LEGEND_ROW 18.0

/// Shrinks f to equal scales, centring it in the area it had.
static void equal_scales(plot_frame *f) {
  const double sx = f->width / fabs(f->x_max - f->x_min), sy = f->height / (f->y_max - f->y_min);
  if (sx > sy) {
    const double w = sy * fabs(f->x_max - f->x_min);
    f->left += (f->width - w) / 2;
    f->width = w;
  } else {
    const double h = sx * (f->y_max - f->y_min);
    f->top += (f->height - h) / 2;
    f->height = h;
  }
}

void plot_grid_layout(double width, double height, double fs, size_t entries, double legend_width,
                      bool equal, plot_frame *f, plot_legend_layout *l) {
  const double left = PLOT_GRID_MARGIN_LEFT * fs, top = PLOT_GRID_MARGIN_TOP * fs;
  const double bottom = PLOT_GRID_MARGIN_BOTTOM * fs, gap = PLOT_GRID_LEGEND_GAP;
  const double inner = fmax(width - left - PLOT_GRID_MARGIN_RIGHT, 1.0);
  memset(l, 0, sizeof *l);
  l->row = PLOT_GRID_LEGEND_ROW * fs;
  l->column_width = legend_width + gap;
  // Beside the map, one column.
  plot_frame side = *f;
  side.left = left;
  side.top = top;
  side.width = fmax(inner - gap - legend_width, 1.0);
  side.height = fmax(height - top - bottom, 1.0);
  if (equal) equal_scales(&side);
  // Under it, in as many columns as fit.
  const size_t columns = (size_t)fmax(1.0, floor((inner + gap) / l->column_width));
  const size_t rows = (entries + columns - 1) / columns;
  plot_frame below = side;
  below.left = left;
  below.top = top;
  below.width = inner;
  below.height = fmax(height - top - bottom - (double)rows * l->row, 1.0);
  if (equal) equal_scales(&below);
  // Beside unless that leaves the map a narrow strip and under gives it
  // more room.
  l->below = side.width < PLOT_GRID_SIDE_SHARE * inner &&
             below.width * below.height > side.width * side.height;
  *f = l->below ? below : side;
  l->rows = l->below ? rows : entries;
  l->x = l->below ? left : f->left + f->width + gap;
  // A column beside the map starts with it, or higher when it would run
  // off the bottom (a row of slack for a gap inside the legend).
  const double column = ((double)entries + 1) * l->row;
  l->y = l->below ? f->top + f->height + bottom : fmax(top, fmin(f->top, height - column));
}

void plot_legend_position(const plot_legend_layout *l, size_t k, double *x, double *y) {
  const size_t rows = l->rows ? l->rows : 1;
  *x = l->x + (double)(k / rows) * l->column_width;
  *y = l->y + (double)(k % rows) * l->row;
}

void plot_grid_range(const zeno_region_axis *a, double *lo, double *hi, double *cell) {
  const double first = fmin(a->lo, a->hi), last = fmax(a->lo, a->hi);
  *cell = a->count > 1 ? (last - first) / (double)(a->count - 1) : fmax(fabs(first), 1.0);
  *lo = first - *cell / 2;
  *hi = last + *cell / 2;
}

void plot_grid_cell(cairo_t *cr, const plot_frame *f, double x, double y, double cx, double cy,
                    plot_color color) {
  const double x0 = floor(plot_frame_x(f, x - cx / 2)), x1 = floor(plot_frame_x(f, x + cx / 2));
  const double y0 = floor(plot_frame_y(f, y + cy / 2)), y1 = floor(plot_frame_y(f, y - cy / 2));
  plot_set_color(cr, color);
  cairo_rectangle(cr, fmin(x0, x1), fmin(y0, y1), fabs(x1 - x0) + 1, fabs(y1 - y0) + 1);
  cairo_fill(cr);
}

void plot_legend_row(cairo_t *cr, double x, double y, plot_color color, const char *label) {
  const double fs = plot_font_scale(cr), side = PLOT_SWATCH * fs;
  plot_set_color(cr, color);
  cairo_rectangle(cr, x, y, side, side);
  cairo_fill_preserve(cr);
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_line_width(cr, PLOT_LINE_THIN);
  cairo_stroke(cr);
  const plot_text_role role = plot_text_role_set(cr, PLOT_TEXT_LEGEND);
  plot_text(cr, x + side + PLOT_SWATCH_GAP * fs, y + side / 2, PLOT_FONT_TICK, label, 0.0, 0.5);
  plot_text_role_set(cr, role);
  plot_record_legend(cr, x, y,
                     x + side + PLOT_SWATCH_GAP * fs + plot_text_width(label, PLOT_FONT_TICK, fs),
                     y + side);
}
