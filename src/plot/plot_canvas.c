// The canvas of every figure (a PNG image surface, or an SVG or PDF surface,
// chosen by the file extension), the axis mapping, text and axes.
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <fontconfig/fontconfig.h>

#include "plot/plot_internal.h"

/// Font of all text (fontconfig picks the installed sans face).
static const char *const PLOT_FONT_FAMILY = "sans-serif";
/// Largest 8-bit channel value, for cairo's [0, 1] colour channels.
#define PLOT_CHANNEL_MAX 255.0
/// Room for one tick label.
#define PLOT_TICK_LABEL_SIZE 32
/// Least space left and right of the title [px].
#define PLOT_TITLE_MARGIN 8.0
/// Gap between tick labels and the ticks, axis labels and tick labels [px].
#define PLOT_LABEL_GAP 4.0
#define PLOT_AXIS_LABEL_OFFSET_X 42.0
#define PLOT_AXIS_LABEL_OFFSET_Y 54.0
/// Room between x tick labels [px], y tick spacing in lines of tick text,
/// and how many larger steps are tried to make that room.
#define PLOT_TICK_LABEL_ROOM 8.0
#define PLOT_TICK_LINE_ROOM 1.25
#define PLOT_STEP_TRIES 12
/// Ticks closer to a range end than this fraction of a step still count.
#define PLOT_TICK_SLACK 1e-9
/// Mantissas of nice tick steps.
#define PLOT_NICE_2 2.0
#define PLOT_NICE_5 5.0
#define PLOT_NICE_10 10.0
#define PLOT_NICE_LIMIT_1 1.5
#define PLOT_NICE_LIMIT_2 3.5
#define PLOT_NICE_LIMIT_5 7.5

const char *plot_status_message(plot_status status) {
  switch (status) {
    case PLOT_OK: return "success";
    case PLOT_ERR_FORMAT: return "unknown image format (use .png, .svg or .pdf)";
    case PLOT_ERR_NOMEM: return "out of memory";
    case PLOT_ERR_WRITE: return "cannot create or write the file";
    case PLOT_STOPPED: return "stopped before the file was written";
  }
  return "unknown error";
}

void plot_release_caches(void) {
  cairo_debug_reset_static_data();
  FcFini();
}

static bool has_suffix(const char *path, const char *suffix) {
  const size_t n = strlen(path), k = strlen(suffix);
  return n > k && strcasecmp(path + n - k, suffix) == 0;
}

bool plot_format_known(const char *path) {
  return has_suffix(path, ".png") || has_suffix(path, ".svg") || has_suffix(path, ".pdf");
}

const char *plot_axis_label(const char *path) {
  // clang-format off
  static const struct {
    const char *path, *label;
  } LABELS[] = {
      {"paper.alpha", "α [°] (load angle)"}, {"paper.phi1", "φ₁ [°] (surface 1)"},
      {"paper.phi2", "φ₂ [°] (surface 2)"},  {"paper.mu1", "μ₁"},
      {"paper.mu2", "μ₂"},                   {"paper.l1", "l₁"},
      {"paper.l2", "l₂"},                    {"paper.h", "h"},
      {"paper.rho", "ρ (radius of gyration)"}, {"paper.m", "m"},
      {"paper.f", "|f| (load)"},             {"paper.tau", "τ (load torque)"},
      {"com.x", "centre of mass x"},         {"com.y", "centre of mass y"},
      {"load.angle", "α [°] (load angle)"},  {"load.magnitude", "|f| (load)"},
      {"contacts.0.mu", "μ₁"},               {"contacts.1.mu", "μ₂"},
      {"contacts[0].mu", "μ₁"},              {"contacts[1].mu", "μ₂"},
      {"impact.e", "e (restitution)"},       {"impact.et", "eₜ (tangential restitution)"},
      {"initial.qp.0", "z₁(0)"},             {"initial.qp.1", "z₂(0)"},
      {"initial.qp.2", "x₂(0)"},             {"initial.qdp.0", "ż₁(0)"},
      {"initial.qdp.1", "ż₂(0)"},            {"initial.qdp.2", "ẋ₂(0)"},
      {"epsilon", "ε"},
  };
  // clang-format on
  if (path == NULL) return "";
  for (size_t k = 0; k < sizeof LABELS / sizeof *LABELS; k++)
    if (strcmp(path, LABELS[k].path) == 0) return LABELS[k].label;
  return path;
}

double plot_options_font_scale(const plot_options *o) { return o ? o->font_scale : 1.0; }

void plot_apply_limits(const plot_options *o, plot_frame *f) {
  if (o == NULL) return;
  if (o->has_xlim) {
    f->x_min = o->xlim[0];
    f->x_max = o->xlim[1];
  }
  if (o->has_ylim) {
    f->y_min = o->ylim[0];
    f->y_max = o->ylim[1];
  }
}

double plot_frame_x(const plot_frame *f, double x) {
  return f->left + (x - f->x_min) / (f->x_max - f->x_min) * f->width;
}

double plot_frame_y(const plot_frame *f, double y) {
  return f->top + (f->y_max - y) / (f->y_max - f->y_min) * f->height;
}

/* ---- canvas ---------------------------------------------------------------- */

plot_status plot_surface_status(cairo_surface_t *surface) {
  switch (cairo_surface_status(surface)) {
    case CAIRO_STATUS_SUCCESS: return PLOT_OK;
    case CAIRO_STATUS_NO_MEMORY: return PLOT_ERR_NOMEM;
    default: return PLOT_ERR_WRITE;
  }
}

/// Key of the font scale in a canvas's cairo context.
static const cairo_user_data_key_t FONT_SCALE_KEY;

double plot_font_scale(cairo_t *cr) {
  const double *scale = cairo_get_user_data(cr, &FONT_SCALE_KEY);
  return scale ? *scale : 1.0;
}

// cairo's writer of a PDF or SVG into the canvas's output: a short write is
// its error (cairo's own file writer reported a full disk's late errors
// nowhere, and the truncated PDF passed for written).
static cairo_status_t write_out(void *canvas, const unsigned char *data, unsigned int length) {
  const plot_canvas *c = canvas;
  FILE *f = zeno_io_output_stream(c->out);
  return fwrite(data, 1, length, f) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

plot_status plot_canvas_open(plot_canvas *c, const char *path, const plot_options *options) {
  memset(c, 0, sizeof *c);
  c->path = path;
  c->options = options ? *options : plot_options_default();
  plot_layout_size(&c->options, &c->width, &c->height);
  const int width = c->options.width, height = c->options.height;
  if (!plot_format_known(path)) return PLOT_ERR_FORMAT;
  c->png = has_suffix(path, ".png");
  c->out = zeno_io_output_open_path(path, NULL);
  if (c->out == NULL) return PLOT_ERR_WRITE;
  // Vector formats get the sizes as points (1/72 in): a 900 x 600 figure
  // is 12.5 x 8.3 in, and scales without loss.
  if (c->png) c->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
  else if (has_suffix(path, ".pdf"))
    c->surface = cairo_pdf_surface_create_for_stream(write_out, c, width, height);
  else c->surface = cairo_svg_surface_create_for_stream(write_out, c, width, height);
  const plot_status status = plot_surface_status(c->surface);
  if (status != PLOT_OK) return status;
  c->cr = cairo_create(c->surface);
  if (cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) return PLOT_ERR_NOMEM;
  if (cairo_set_user_data(c->cr, &FONT_SCALE_KEY, &c->options.font_scale, NULL) !=
      CAIRO_STATUS_SUCCESS)
    return PLOT_ERR_NOMEM;
  plot_set_color(c->cr, PLOT_COLOR_BACKGROUND);
  cairo_paint(c->cr);
  cairo_scale(c->cr, c->options.width / c->width, c->options.height / c->height);
  cairo_select_font_face(c->cr, PLOT_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                         CAIRO_FONT_WEIGHT_NORMAL);
  return PLOT_OK;
}

plot_status plot_canvas_close(plot_canvas *c, plot_status status) {
  if (c->cr) {
    if (status == PLOT_OK && cairo_status(c->cr) != CAIRO_STATUS_SUCCESS) status = PLOT_ERR_NOMEM;
    cairo_destroy(c->cr);
  }
  if (c->surface) {
    if (status == PLOT_OK && c->png)
      status = plot_png_write(c->surface, zeno_io_output_stream(c->out), c->options.dpi);
    cairo_surface_finish(c->surface);
    if (status == PLOT_OK) status = plot_surface_status(c->surface);
    cairo_surface_destroy(c->surface);
  }
  // Into place only whole: the commit reports a failing flush, sync, close
  // or rename; a failure drops the file aside and keeps the previous one,
  // as does a stop asked for while the figure was drawn.
  if (status == PLOT_OK && c->options.stop != NULL && *c->options.stop != 0) status = PLOT_STOPPED;
  if (c->out != NULL) {
    if (status == PLOT_OK) {
      if (zeno_io_output_commit(c->out, NULL) != ZENO_OK) status = PLOT_ERR_WRITE;
    } else {
      zeno_io_output_discard(c->out);
    }
  }
  memset(c, 0, sizeof *c);
  return status;
}

/* ---- drawing helpers --------------------------------------------------------- */

void plot_set_color(cairo_t *cr, plot_color color) {
  cairo_set_source_rgb(cr, color.r / PLOT_CHANNEL_MAX, color.g / PLOT_CHANNEL_MAX,
                       color.b / PLOT_CHANNEL_MAX);
}

void plot_text(cairo_t *cr, double x, double y, double size, const char *text, double ax,
               double ay) {
  cairo_set_font_size(cr, size * plot_font_scale(cr));
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  cairo_move_to(cr, x - e.x_bearing - ax * e.width, y - e.y_bearing - ay * e.height);
  cairo_show_text(cr, text);
  cairo_new_path(cr);
}

void plot_fitted_row(cairo_t *cr, double left, double right,
                     double (*draw)(cairo_t *cr, double left, const void *ctx), const void *ctx) {
  // Measured on a scratch context with the same transformation, font and
  // font scale (a group pushed on an SVG surface leaks in cairo 1.16).
  cairo_surface_t *scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t *m = cairo_create(scratch);
  cairo_matrix_t matrix;
  cairo_get_matrix(cr, &matrix);
  cairo_set_matrix(m, &matrix);
  cairo_set_font_face(m, cairo_get_font_face(cr));
  double end = right;
  if (cairo_set_user_data(m, &FONT_SCALE_KEY, cairo_get_user_data(cr, &FONT_SCALE_KEY), NULL) ==
      CAIRO_STATUS_SUCCESS)
    end = draw(m, left, ctx);
  cairo_destroy(m);
  cairo_surface_destroy(scratch);
  if (end <= right || !(end > left)) {
    draw(cr, left, ctx);
    return;
  }
  double *scale = cairo_get_user_data(cr, &FONT_SCALE_KEY);
  double fitted = plot_font_scale(cr) * (right - left) / (end - left);
  if (cairo_set_user_data(cr, &FONT_SCALE_KEY, &fitted, NULL) != CAIRO_STATUS_SUCCESS) return;
  draw(cr, left, ctx);
  cairo_set_user_data(cr, &FONT_SCALE_KEY, scale, NULL);
}

double plot_text_width(const char *text, double size, double font_scale) {
  cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
  cairo_t *cr = cairo_create(s);
  cairo_select_font_face(cr, PLOT_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size * font_scale);
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  cairo_destroy(cr);
  cairo_surface_destroy(s);
  return e.x_advance;
}

void plot_title(cairo_t *cr, double width, const char *title) {
  plot_set_color(cr, PLOT_COLOR_INK);
  // A title wider than the figure (less a margin each side) is set smaller.
  const double fs = plot_font_scale(cr), room = width - 2 * PLOT_TITLE_MARGIN;
  const double natural = plot_text_width(title, PLOT_FONT_TITLE, fs);
  const double size = natural > room && room > 0 ? PLOT_FONT_TITLE * room / natural
                                                 : PLOT_FONT_TITLE;
  plot_text(cr, width / 2.0, PLOT_TITLE_BASELINE * fs, size, title, 0.5, 1.0);
}

double plot_nice_step(double span, int count) {
  if (!(span > 0) || count < 1) return 1.0;
  const double raw = span / count;
  const double power = pow(PLOT_NICE_10, floor(log10(raw)));
  const double m = raw / power;
  if (m < PLOT_NICE_LIMIT_1) return power;
  if (m < PLOT_NICE_LIMIT_2) return PLOT_NICE_2 * power;
  if (m < PLOT_NICE_LIMIT_5) return PLOT_NICE_5 * power;
  return PLOT_NICE_10 * power;
}

void plot_clip(cairo_t *cr, const plot_frame *f) {
  cairo_rectangle(cr, f->left, f->top, f->width, f->height);
  cairo_clip(cr);
}

void plot_dashed_line(cairo_t *cr, const plot_frame *f, double x0, double y0, double x1, double y1,
                      plot_color color) {
  static const double dash[] = {PLOT_DASH_ON, PLOT_DASH_OFF};
  cairo_save(cr);
  plot_set_color(cr, color);
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  cairo_set_dash(cr, dash, 2, 0);
  cairo_move_to(cr, plot_frame_x(f, x0), plot_frame_y(f, y0));
  cairo_line_to(cr, plot_frame_x(f, x1), plot_frame_y(f, y1));
  cairo_stroke(cr);
  cairo_restore(cr);
}

/// "%g" of a tick value, with -0 written as 0.
static void tick_label(double v, double step, char *text) {
  if (fabs(v) < PLOT_TICK_SLACK * step) v = 0;
  snprintf(text, PLOT_TICK_LABEL_SIZE, "%g", v);
}

/// "10ⁿ" for a power of ten n (superscript digits and minus, UTF-8).
static void power_label(double n, char *text) {
  static const char *const DIGITS[10] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  char digits[PLOT_TICK_LABEL_SIZE];
  snprintf(digits, sizeof digits, "%.0f", fabs(n));
  snprintf(text, PLOT_TICK_LABEL_SIZE, "10%s", n < 0 && n <= -0.5 ? "⁻" : "");
  for (const char *d = digits; *d; d++)
    if (*d >= '0' && *d <= '9')
      strncat(text, DIGITS[*d - '0'], PLOT_TICK_LABEL_SIZE - strlen(text) - 1);
}

/// The next nice step above `step` (1, 2, 5 times a power of ten).
static double next_step(double step) {
  const double power = pow(PLOT_NICE_10, floor(log10(step) + PLOT_TICK_SLACK));
  const double m = step / power;
  if (m < PLOT_NICE_LIMIT_1) return PLOT_NICE_2 * power;
  if (m < PLOT_NICE_LIMIT_2) return PLOT_NICE_5 * power;
  return PLOT_NICE_10 * power;
}

/// `step`, or a larger nice step when ticks `step` apart would be closer
/// than `room` px on an axis of `pixels` px showing `span` data units.
static double roomy_step(double step, double span, double pixels, double room) {
  for (int k = 0; k < PLOT_STEP_TRIES && step / span * pixels < room; k++) step = next_step(step);
  return step;
}

/// Width of the tick label of v [px].
static double tick_label_width(cairo_t *cr, const plot_frame *f, double v, double step) {
  char label[PLOT_TICK_LABEL_SIZE];
  if (f->x_log) power_label(v, label);
  else tick_label(v, step, label);
  cairo_set_font_size(cr, PLOT_FONT_TICK * plot_font_scale(cr));
  cairo_text_extents_t e;
  cairo_text_extents(cr, label, &e);
  return e.x_advance;
}

static void x_ticks(cairo_t *cr, const plot_frame *f, double step) {
  char label[PLOT_TICK_LABEL_SIZE];
  const double bottom = f->top + f->height;
  const double lo = fmin(f->x_min, f->x_max), hi = fmax(f->x_min, f->x_max);
  // Labels keep a gap between them: the wider of the first and the last
  // tick's labels plus a gap.
  const double first = ceil(lo / step - PLOT_TICK_SLACK) * step;
  const double last = floor(hi / step + PLOT_TICK_SLACK) * step;
  const double room = fmax(tick_label_width(cr, f, first, step),
                           tick_label_width(cr, f, last, step)) +
                      PLOT_TICK_LABEL_ROOM * plot_font_scale(cr);
  step = roomy_step(step, hi - lo, f->width, room);
  for (double k = ceil(lo / step - PLOT_TICK_SLACK); k * step <= hi + PLOT_TICK_SLACK * step; k++) {
    const double x = round(plot_frame_x(f, k * step)) + 0.5;
    cairo_move_to(cr, x, bottom);
    cairo_line_to(cr, x, bottom + PLOT_TICK_LENGTH);
    cairo_stroke(cr);
    if (f->x_log) power_label(k * step, label);
    else tick_label(k * step, step, label);
    plot_text(cr, x, bottom + PLOT_TICK_LENGTH + PLOT_LABEL_GAP, PLOT_FONT_TICK, label, 0.5, 0.0);
  }
}

static void y_ticks(cairo_t *cr, const plot_frame *f, double step) {
  char label[PLOT_TICK_LABEL_SIZE];
  step = roomy_step(step, f->y_max - f->y_min, f->height,
                    PLOT_FONT_TICK * plot_font_scale(cr) * PLOT_TICK_LINE_ROOM);
  for (double k = ceil(f->y_min / step - PLOT_TICK_SLACK);
       k * step <= f->y_max + PLOT_TICK_SLACK * step; k++) {
    const double y = round(plot_frame_y(f, k * step)) + 0.5;
    cairo_move_to(cr, f->left, y);
    cairo_line_to(cr, f->left - PLOT_TICK_LENGTH, y);
    cairo_stroke(cr);
    tick_label(k * step, step, label);
    plot_text(cr, f->left - PLOT_TICK_LENGTH - PLOT_LABEL_GAP, y, PLOT_FONT_TICK, label, 1.0, 0.5);
  }
}

static void y_label(cairo_t *cr, const plot_frame *f, const char *text) {
  cairo_save(cr);
  cairo_translate(cr, f->left - PLOT_AXIS_LABEL_OFFSET_X * plot_font_scale(cr),
                  f->top + f->height / 2);
  cairo_rotate(cr, -ZENO_PI / 2);
  plot_text(cr, 0, 0, PLOT_FONT_LABEL, text, 0.5, 1.0);
  cairo_restore(cr);
}

void plot_axes(cairo_t *cr, const plot_frame *f, double x_step, double y_step, const char *x_label,
               const char *y_label_text) {
  cairo_save(cr);
  plot_set_color(cr, PLOT_COLOR_INK);
  cairo_set_line_width(cr, PLOT_LINE_AXIS);
  cairo_rectangle(cr, round(f->left) + 0.5, round(f->top) + 0.5, round(f->width), round(f->height));
  cairo_stroke(cr);
  x_ticks(cr, f, x_step);
  y_ticks(cr, f, y_step);
  if (x_label)
    plot_text(cr, f->left + f->width / 2,
              f->top + f->height +
                  (PLOT_AXIS_LABEL_OFFSET_Y - PLOT_FONT_LABEL) * plot_font_scale(cr),
              PLOT_FONT_LABEL, x_label, 0.5, 0.0);
  if (y_label_text) y_label(cr, f, y_label_text);
  cairo_restore(cr);
}

void plot_arrow_head(cairo_t *cr, double x, double y, double dx, double dy, double length,
                     double half_angle) {
  const double a = atan2(dy, dx);
  cairo_move_to(cr, x, y);
  cairo_line_to(cr, x - length * cos(a - half_angle), y - length * sin(a - half_angle));
  cairo_line_to(cr, x - length * cos(a + half_angle), y - length * sin(a + half_angle));
  cairo_close_path(cr);
  cairo_fill(cr);
}

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
#define PLOT_GRID_MARGIN_BOTTOM 56.0
#define PLOT_GRID_LEGEND_GAP 18.0
#define PLOT_GRID_LEGEND_ROW 24.0

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
  const double side = PLOT_SWATCH * plot_font_scale(cr);
  plot_set_color(cr, color);
  cairo_rectangle(cr, x, y, side, side);
  cairo_fill_preserve(cr);
  plot_set_color(cr, PLOT_COLOR_INK);
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  cairo_stroke(cr);
  plot_text(cr, x + side + PLOT_SWATCH_GAP, y + side / 2, PLOT_FONT_TICK, label, 0.0, 0.5);
}
