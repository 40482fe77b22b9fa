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
/// Points per inch (PNG densities are in pixels per inch).
#define PLOT_POINTS_PER_INCH 72.0
/// Largest 8-bit channel value, for cairo's [0, 1] colour channels.
#define PLOT_CHANNEL_MAX 255.0
/// Room for one tick label.
#define PLOT_TICK_LABEL_SIZE 32
/// Least space left and right of the title [px].
#define PLOT_TITLE_MARGIN 8.0
/// Gap between tick labels and the ticks, axis labels and tick labels [px].
#define PLOT_LABEL_GAP 4.0
#define PLOT_AXIS_LABEL_OFFSET_X 42.0
#define PLOT_AXIS_LABEL_OFFSET_Y 46.0
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
      {"paper.alpha", "α [°] (load angle)"},   {"paper.phi1", "φ₁ [°] (surface 1)"},
      {"paper.phi2", "φ₂ [°] (surface 2)"},    {"paper.mu1", "μ₁"},
      {"paper.mu2", "μ₂"},                     {"paper.l1", "l₁ [L]"},
      {"paper.l2", "l₂ [L]"},                  {"paper.h", "h [L]"},
      {"paper.rho", "ρ [L] (radius of gyration)"}, {"paper.m", "m [M]"},
      {"paper.f", "|f| [F] (load)"},           {"paper.tau", "τ [F L] (load torque)"},
      {"com.x", "centre of mass x [L]"},       {"com.y", "centre of mass y [L]"},
      {"load.angle", "α [°] (load angle)"},    {"load.magnitude", "|f| [F] (load)"},
      {"contacts.0.mu", "μ₁"},                 {"contacts.1.mu", "μ₂"},
      {"contacts[0].mu", "μ₁"},                {"contacts[1].mu", "μ₂"},
      {"impact.e", "e (restitution)"},         {"impact.et", "eₜ (tangential restitution)"},
      {"initial.qp.0", "z₁(0) [L]"},           {"initial.qp.1", "z₂(0) [L]"},
      {"initial.qp.2", "x₂(0) [L]"},           {"initial.qdp.0", "ż₁(0) [L/T]"},
      {"initial.qdp.1", "ż₂(0) [L/T]"},        {"initial.qdp.2", "ẋ₂(0) [L/T]"},
      {"epsilon", "ε"},
  };
  // clang-format on
  if (path == NULL) return "";
  for (size_t k = 0; k < sizeof LABELS / sizeof *LABELS; k++)
    if (strcmp(path, LABELS[k].path) == 0) return LABELS[k].label;
  return path;
}

double plot_size_scale(double width, double height) {
  // k = (s / s_design)^p with s the geometric mean of the sides, p such
  // that k(default) = PLOT_DEFAULT_TICK_TEXT / PLOT_FONT_TICK.
  const double design = sqrt((double)PLOT_DESIGN_WIDTH * PLOT_DESIGN_HEIGHT);
  const double standard = sqrt((double)PLOT_WIDTH * PLOT_HEIGHT);
  const double p = log(PLOT_DEFAULT_TICK_TEXT / PLOT_FONT_TICK) / log(standard / design);
  const double s = sqrt(fmax(width, 1.0) * fmax(height, 1.0));
  return pow(s / design, p);
}

double plot_options_size_scale(const plot_options *o) {
  double width, height;
  plot_layout_size(o, &width, &height);
  return plot_size_scale(width, height);
}

double plot_options_font_scale(const plot_options *o) {
  return (o ? o->font_scale : 1.0) * plot_options_size_scale(o);
}

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

/// Key of the scales (plot_scales) in a canvas's cairo context.
static const cairo_user_data_key_t SCALES_KEY;

static plot_scales *scales_of(cairo_t *cr) { return cairo_get_user_data(cr, &SCALES_KEY); }

double plot_font_scale(cairo_t *cr) {
  const plot_scales *s = scales_of(cr);
  return s ? s->font : 1.0;
}

double plot_size_scale_of(cairo_t *cr) {
  const plot_scales *s = scales_of(cr);
  return s ? s->size : 1.0;
}

void plot_line_width(cairo_t *cr, double width) {
  const plot_scales *s = scales_of(cr);
  cairo_set_line_width(cr, s ? fmax(width * s->size, s->line_min) : width);
}

plot_text_role plot_text_role_set(cairo_t *cr, plot_text_role role) {
  plot_scales *s = scales_of(cr);
  if (s == NULL) return PLOT_TEXT_OTHER;
  const plot_text_role previous = s->role;
  s->role = role;
  return previous;
}

/* ---- the layout record ------------------------------------------------------ */

/// The device box of a user-space box (its corners' bounding box).
static plot_box device_box(cairo_t *cr, double x0, double y0, double x1, double y1) {
  double xs[4] = {x0, x1, x0, x1}, ys[4] = {y0, y0, y1, y1};
  plot_box b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
  for (int k = 0; k < 4; k++) {
    cairo_user_to_device(cr, &xs[k], &ys[k]);
    b.x0 = fmin(b.x0, xs[k]);
    b.y0 = fmin(b.y0, ys[k]);
    b.x1 = fmax(b.x1, xs[k]);
    b.y1 = fmax(b.y1, ys[k]);
  }
  return b;
}

static void box_union(plot_box *into, plot_box b) {
  into->x0 = fmin(into->x0, b.x0);
  into->y0 = fmin(into->y0, b.y0);
  into->x1 = fmax(into->x1, b.x1);
  into->y1 = fmax(into->y1, b.y1);
}

void plot_record_legend(cairo_t *cr, double x0, double y0, double x1, double y1) {
  plot_scales *s = scales_of(cr);
  if (s == NULL || s->layout == NULL) return;
  box_union(&s->layout->legend, device_box(cr, x0, y0, x1, y1));
}

void plot_record_legend_item(cairo_t *cr) {
  plot_scales *s = scales_of(cr);
  if (s != NULL && s->layout != NULL) s->layout->legend_items++;
}

void plot_record_marker(cairo_t *cr, double cx, double cy, double radius) {
  plot_scales *s = scales_of(cr);
  if (s == NULL || s->layout == NULL) return;
  plot_layout *l = s->layout;
  if (l->marker_count < PLOT_LAYOUT_MARKERS)
    l->markers[l->marker_count] = device_box(cr, cx - radius, cy - radius, cx + radius,
                                             cy + radius);
  l->marker_count++;
}

void plot_record_color_bar(cairo_t *cr, double x0, double y0, double x1, double y1, double lo,
                           double hi) {
  plot_scales *s = scales_of(cr);
  if (s == NULL || s->layout == NULL) return;
  s->layout->color_bar = device_box(cr, x0, y0, x1, y1);
  s->layout->color_bar_lo = lo;
  s->layout->color_bar_hi = hi;
}

void plot_record_axis_label(cairo_t *cr, const char *text) {
  plot_scales *s = scales_of(cr);
  if (s == NULL || s->layout == NULL) return;
  plot_layout *l = s->layout;
  if (l->label_count < PLOT_LAYOUT_LABELS)
    snprintf(l->labels[l->label_count], sizeof l->labels[0], "%s", text);
  l->label_count++;
}

/// Records text of user-space size `size` at the current transformation.
static void record_text(cairo_t *cr, double size) {
  plot_scales *s = scales_of(cr);
  if (s == NULL || s->layout == NULL) return;
  double dx = 0, dy = size;
  cairo_user_to_device_distance(cr, &dx, &dy);
  const double pt = hypot(dx, dy) * s->pt_per_unit;
  plot_layout *l = s->layout;
  l->text_min = fmin(l->text_min, pt);
  if (s->role == PLOT_TEXT_AXIS) l->axis_text_min = fmin(l->axis_text_min, pt);
  if (s->role == PLOT_TEXT_LEGEND) l->legend_text_min = fmin(l->legend_text_min, pt);
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
  // Points per device unit: a PNG's pixels at its density; SVG and PDF
  // units are points.
  c->scales = (plot_scales){.font = plot_options_font_scale(&c->options),
                            .size = plot_options_size_scale(&c->options),
                            .pt_per_unit = c->png ? PLOT_POINTS_PER_INCH / c->options.dpi : 1.0,
                            .line_min = c->png ? c->width / c->options.width : 0.0,
                            .layout = c->options.layout};
  if (c->scales.layout != NULL) {
    const plot_box empty = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    *c->scales.layout = (plot_layout){.text_min = INFINITY,
                                      .axis_text_min = INFINITY,
                                      .legend_text_min = INFINITY,
                                      .legend = empty,
                                      .color_bar = empty,
                                      .color_bar_lo = NAN,
                                      .color_bar_hi = NAN};
  }
  if (cairo_set_user_data(c->cr, &SCALES_KEY, &c->scales, NULL) != CAIRO_STATUS_SUCCESS)
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
  record_text(cr, size * plot_font_scale(cr));
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  cairo_move_to(cr, x - e.x_bearing - ax * e.width, y - e.y_bearing - ay * e.height);
  cairo_show_text(cr, text);
  cairo_new_path(cr);
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

/// Room for a title cut to fit, with its ellipsis.
#define PLOT_TITLE_SIZE 512

void plot_title(cairo_t *cr, double width, const char *title) {
  plot_set_color(cr, PLOT_COLOR_INK);
  // A title wider than the figure (less a margin each side) is set smaller,
  // down to the tick labels' size; then cut at a character with "…".
  const double fs = plot_font_scale(cr),
               room = width - 2 * PLOT_TITLE_MARGIN * plot_size_scale_of(cr);
  const double natural = plot_text_width(title, PLOT_FONT_TITLE, fs);
  double size = natural > room && room > 0 ? PLOT_FONT_TITLE * room / natural : PLOT_FONT_TITLE;
  char cut[PLOT_TITLE_SIZE];
  snprintf(cut, sizeof cut, "%s", title);
  if (size < PLOT_FONT_TICK) {
    size = PLOT_FONT_TICK;
    size_t n = strlen(cut);
    while (n > 0 && plot_text_width(cut, size, fs) > room) {
      do n--;
      while (n > 0 && ((unsigned char)cut[n] & 0xC0) == 0x80);  // a UTF-8 character's start
      snprintf(cut + n, sizeof cut - n, "…");
    }
  }
  plot_text(cr, width / 2.0, PLOT_TITLE_BASELINE * fs, size, cut, 0.5, 1.0);
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
  plot_line_width(cr, PLOT_LINE_THIN);
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
  const double tick = PLOT_TICK_LENGTH * plot_size_scale_of(cr);
  const double gap = PLOT_LABEL_GAP * plot_size_scale_of(cr);
  for (double k = ceil(lo / step - PLOT_TICK_SLACK); k * step <= hi + PLOT_TICK_SLACK * step; k++) {
    const double x = round(plot_frame_x(f, k * step)) + 0.5;
    cairo_move_to(cr, x, bottom);
    cairo_line_to(cr, x, bottom + tick);
    cairo_stroke(cr);
    if (f->x_labels_hidden) continue;
    if (f->x_log) power_label(k * step, label);
    else tick_label(k * step, step, label);
    plot_text(cr, x, bottom + tick + gap, PLOT_FONT_TICK, label, 0.5, 0.0);
  }
}

// The y ticks and their labels; returns how far left of the frame the
// labels reach [px].
static double y_ticks(cairo_t *cr, const plot_frame *f, double step) {
  char label[PLOT_TICK_LABEL_SIZE];
  double reach = 0;
  step = roomy_step(step, f->y_max - f->y_min, f->height,
                    PLOT_FONT_TICK * plot_font_scale(cr) * PLOT_TICK_LINE_ROOM);
  const double tick = PLOT_TICK_LENGTH * plot_size_scale_of(cr);
  const double gap = PLOT_LABEL_GAP * plot_size_scale_of(cr);
  for (double k = ceil(f->y_min / step - PLOT_TICK_SLACK);
       k * step <= f->y_max + PLOT_TICK_SLACK * step; k++) {
    const double y = round(plot_frame_y(f, k * step)) + 0.5;
    cairo_move_to(cr, f->left, y);
    cairo_line_to(cr, f->left - tick, y);
    cairo_stroke(cr);
    tick_label(k * step, step, label);
    plot_text(cr, f->left - tick - gap, y, PLOT_FONT_TICK, label, 1.0, 0.5);
    reach = fmax(reach, tick + gap + plot_text_width(label, PLOT_FONT_TICK, plot_font_scale(cr)));
  }
  return reach;
}

// The y axis's label, rotated, its foot PLOT_AXIS_LABEL_OFFSET_X left of
// the frame, or a gap beyond the tick labels where they reach farther
// (`reach`: "0.026" and "-0.002" of a small perturbation's gaps).
static void y_label(cairo_t *cr, const plot_frame *f, const char *text, double reach) {
  plot_record_axis_label(cr, text);
  cairo_save(cr);
  const double fs = plot_font_scale(cr);
  cairo_translate(cr, f->left - fmax(PLOT_AXIS_LABEL_OFFSET_X * fs, reach + PLOT_LABEL_GAP * fs),
                  f->top + f->height / 2);
  cairo_rotate(cr, -ZENO_PI / 2);
  // Longer than the frame is high: set smaller, down to the tick labels'
  // size (a panel of a short figure).
  const double natural = plot_text_width(text, PLOT_FONT_LABEL, plot_font_scale(cr));
  const double size = natural > f->height
                          ? fmax(PLOT_FONT_LABEL * f->height / natural, PLOT_FONT_TICK)
                          : PLOT_FONT_LABEL;
  plot_text(cr, 0, 0, size, text, 0.5, 1.0);
  cairo_restore(cr);
}

void plot_axes(cairo_t *cr, const plot_frame *f, double x_step, double y_step, const char *x_label,
               const char *y_label_text) {
  cairo_save(cr);
  const plot_text_role role = plot_text_role_set(cr, PLOT_TEXT_AXIS);
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_line_width(cr, PLOT_LINE_AXIS);
  cairo_rectangle(cr, round(f->left) + 0.5, round(f->top) + 0.5, round(f->width), round(f->height));
  cairo_stroke(cr);
  x_ticks(cr, f, x_step);
  const double reach = y_ticks(cr, f, y_step);
  if (x_label) plot_record_axis_label(cr, x_label);
  if (x_label)
    plot_text(cr, f->left + f->width / 2,
              f->top + f->height +
                  (PLOT_AXIS_LABEL_OFFSET_Y - PLOT_FONT_LABEL) * plot_font_scale(cr),
              PLOT_FONT_LABEL, x_label, 0.5, 0.0);
  if (y_label_text) y_label(cr, f, y_label_text, reach);
  plot_text_role_set(cr, role);
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
