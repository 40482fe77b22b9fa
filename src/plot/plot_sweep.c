// Outcome sweep figure: one cell per grid point coloured by how its run
// ended, and a legend of the outcomes present with their counts; or by a
// quantity of the run (end time, impacts, Zeno time, rest position) on a
// colour scale with a colour bar; or, with a basin estimate, coloured by
// the basin's inner edge in bins.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout: plot_grid_layout(), as for region maps. */
#define SWEEP_TICKS 7
#define SWEEP_LABEL_SIZE 96

/// Legend classes: each outcome, rest split by a Zeno completion, errors.
enum {
  SWEEP_REST,
  SWEEP_REST_ZENO,
  SWEEP_ESCAPED,
  SWEEP_DIVERGING,
  SWEEP_AMBIGUOUS,
  SWEEP_INCONSISTENT,
  SWEEP_TIME_LIMIT,
  SWEEP_EVENT_LIMIT,
  SWEEP_SOLVER_FAILURE,
  SWEEP_WALL_LIMIT,
  SWEEP_ERROR,
  SWEEP_CLASSES
};

static const struct {
  const char *text;
  plot_color color;
} CLASSES[SWEEP_CLASSES] = {
    {"rest", {40, 150, 80}},
    {"Zeno, then rest", {150, 210, 110}},
    {"escaped", {210, 50, 40}},
    {"diverging (reverse chatter)", {240, 140, 90}},
    {"ambiguous", {120, 50, 140}},
    {"inconsistent", {110, 110, 110}},
    {"time limit", {250, 240, 170}},
    {"event limit", {190, 130, 50}},
    {"solver failure", {20, 20, 20}},
    {"wall-clock limit", {200, 200, 200}},
    {"error: not simulated", {230, 0, 200}},
};

static int class_of(const zeno_sweep_point *p) {
  if (!p->ok) return SWEEP_ERROR;
  switch (p->outcome) {
    case ZENO_OUTCOME_REST: return p->has_zeno ? SWEEP_REST_ZENO : SWEEP_REST;
    case ZENO_OUTCOME_ESCAPED: return SWEEP_ESCAPED;
    case ZENO_OUTCOME_DIVERGING: return SWEEP_DIVERGING;
    case ZENO_OUTCOME_AMBIGUOUS: return SWEEP_AMBIGUOUS;
    case ZENO_OUTCOME_INCONSISTENT: return SWEEP_INCONSISTENT;
    case ZENO_OUTCOME_TIME_LIMIT: return SWEEP_TIME_LIMIT;
    case ZENO_OUTCOME_EVENT_LIMIT: return SWEEP_EVENT_LIMIT;
    case ZENO_OUTCOME_SOLVER_FAILURE: return SWEEP_SOLVER_FAILURE;
    case ZENO_OUTCOME_WALL_LIMIT: return SWEEP_WALL_LIMIT;
    case ZENO_OUTCOME_RUNNING: break;
  }
  return SWEEP_ERROR;
}

/// Basin map classes: PLOT_BASIN_BINS bins of basin_inner, then these.
enum { BASIN_ALL = PLOT_BASIN_BINS, BASIN_NONE, BASIN_ERROR, BASIN_CLASSES };

/// Bins from small (dark red: a small push leaves) to large (dark green),
/// then every magnitude returns (blue), none (grey), error (magenta).
static const plot_color BASIN_COLORS[BASIN_CLASSES] = {
    {150, 30, 30}, {215, 90, 50},  {240, 170, 90},  {230, 225, 130}, {150, 200, 110},
    {50, 140, 70}, {60, 110, 200}, {150, 150, 150}, {230, 0, 200},
};

static int basin_class_of(const zeno_sweep_basin_def *b, const zeno_sweep_point *p) {
  if (!p->ok) return BASIN_ERROR;
  if (isnan(p->basin_inner)) return BASIN_NONE;
  if (p->basin_returns == (int)b->count) return BASIN_ALL;
  const int bin = (int)floor((p->basin_inner - b->lo) / (b->hi - b->lo) * PLOT_BASIN_BINS);
  return bin < 0 ? 0 : bin >= PLOT_BASIN_BINS ? PLOT_BASIN_BINS - 1 : bin;
}

static void basin_label(const zeno_sweep_basin_def *b, int k, long count, char *out, size_t size) {
  const double step = (b->hi - b->lo) / PLOT_BASIN_BINS;
  if (k < PLOT_BASIN_BINS)
    snprintf(out, size, "edge %.3g to %.3g: %ld", b->lo + k * step, b->lo + (k + 1) * step, count);
  else if (k == BASIN_ALL) snprintf(out, size, "rests up to %.3g: %ld", b->hi, count);
  else if (k == BASIN_NONE) snprintf(out, size, "leaves at %.3g: %ld", b->lo, count);
  else snprintf(out, size, "error: not simulated: %ld", count);
}

static int class_at(const plot_sweep_input *in, const zeno_sweep_point *p) {
  return in->basin ? basin_class_of(in->basin, p) : class_of(p);
}

static plot_color color_at(const plot_sweep_input *in, int k) {
  return in->basin ? BASIN_COLORS[k] : CLASSES[k].color;
}

// A non-monotone point of the basin map: a dot in its cell.
static void basin_dot(cairo_t *cr, const plot_frame *f, const zeno_sweep_point *p, double cx,
                      double cy) {
  const double u = plot_frame_x(f, p->x), v = plot_frame_y(f, p->y);
  const double r = fmax(1.0, 0.2 * fmin(fabs(plot_frame_x(f, p->x + cx) - u),
                                        fabs(plot_frame_y(f, p->y + cy) - v)));
  plot_set_color(cr, PLOT_COLOR_INK);
  cairo_arc(cr, u, v, r, 0, 2 * ZENO_PI);
  cairo_fill(cr);
}

static bool non_monotone(const plot_sweep_input *in, const zeno_sweep_point *p) {
  return in->basin && p->ok && p->basin_transitions > 1;
}

/* ---- a quantity on a colour scale ------------------------------------------- */

/// viridis (matplotlib's default colour map) at nine evenly spaced points.
#define VIRIDIS_STOPS 9
static const plot_color VIRIDIS[VIRIDIS_STOPS] = {
    {68, 1, 84},    {71, 44, 122}, {59, 81, 139},  {44, 113, 142}, {33, 144, 141},
    {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37},
};
/// Points without a value (no Zeno completion; not at rest for x2).
#define SWEEP_NO_VALUE_COLOR ((plot_color){190, 190, 190})
/// The colour bar: its height in legend rows, its width [px, times the
/// font scale], the gap to its tick labels, and about this many ticks.
#define SWEEP_BAR_ROWS 7
#define SWEEP_BAR_WIDTH 16.0
#define SWEEP_BAR_GAP 6.0
#define SWEEP_BAR_TICKS 4
/// Ticks closer to an end of the bar than this fraction of a step count.
#define SWEEP_TICK_SLACK 1e-9
/// Room for a colour bar tick label.
#define SWEEP_TICK_SIZE 32

/// The colour of u in [0, 1] on viridis (linear between its points).
static plot_color viridis(double u) {
  u = fmin(fmax(u, 0.0), 1.0) * (VIRIDIS_STOPS - 1);
  const int k = (int)fmin(floor(u), VIRIDIS_STOPS - 2);
  const double t = u - k;
  const plot_color a = VIRIDIS[k], b = VIRIDIS[k + 1];
  return (plot_color){(uint8_t)lround(a.r + t * (b.r - a.r)),
                      (uint8_t)lround(a.g + t * (b.g - a.g)),
                      (uint8_t)lround(a.b + t * (b.b - a.b))};
}

/// The value a point shows; NAN when it has none (or was not simulated).
static double quantity(plot_sweep_color color, const zeno_sweep_point *p) {
  if (!p->ok) return NAN;
  switch (color) {
    case PLOT_SWEEP_COLOR_T: return p->t;
    case PLOT_SWEEP_COLOR_IMPACTS: return (double)p->impacts;
    case PLOT_SWEEP_COLOR_ZENO_TIME: return p->has_zeno ? p->zeno_time : NAN;
    case PLOT_SWEEP_COLOR_X2: return p->outcome == ZENO_OUTCOME_REST ? p->final_zod[2] : NAN;
    default: return NAN;
  }
}

/// The colour bar's label, and what a point without a value lacks.
static const char *quantity_label(plot_sweep_color color) {
  switch (color) {
    case PLOT_SWEEP_COLOR_T: return "t [T] at the end of the run";
    case PLOT_SWEEP_COLOR_IMPACTS: return "impacts";
    case PLOT_SWEEP_COLOR_ZENO_TIME: return "Zeno time t* [T]";
    default: return "x₂ [L] at rest";
  }
}

static const char *no_value_text(plot_sweep_color color) {
  return color == PLOT_SWEEP_COLOR_ZENO_TIME ? "no Zeno completion" : "not at rest";
}

typedef struct color_scale {
  double lo, hi, step;
  long none, errors;  ///< points without a value (simulated), not simulated
} color_scale;

static color_scale scale_of(const plot_sweep_input *in, size_t n) {
  color_scale s = {INFINITY, -INFINITY, 0, 0, 0};
  for (size_t k = 0; k < n; k++) {
    const double v = quantity(in->color, &in->grid[k]);
    if (isfinite(v)) {
      s.lo = fmin(s.lo, v);
      s.hi = fmax(s.hi, v);
    } else if (in->grid[k].ok) {
      s.none++;
    } else {
      s.errors++;
    }
  }
  if (!(s.lo <= s.hi)) s.lo = s.hi = 0;  // no value at all
  if (s.hi - s.lo <= 0) {                // one value: a unit range around it
    s.lo -= 0.5;
    s.hi += 0.5;
  }
  s.step = plot_nice_step(s.hi - s.lo, SWEEP_BAR_TICKS);
  return s;
}

static plot_color scale_color(const color_scale *s, double v) {
  return isfinite(v) ? viridis((v - s->lo) / (s->hi - s->lo)) : SWEEP_NO_VALUE_COLOR;
}

/// Calls tick(value, label, ctx) for every tick of the bar.
static void bar_ticks(const color_scale *s, void (*tick)(double, const char *, void *), void *ctx) {
  char label[SWEEP_TICK_SIZE];
  for (double k = ceil(s->lo / s->step - SWEEP_TICK_SLACK);
       k * s->step <= s->hi + SWEEP_TICK_SLACK * s->step; k++) {
    const double v = fabs(k) < 0.5 ? 0.0 : k * s->step;
    snprintf(label, sizeof label, "%g", v);
    tick(v, label, ctx);
  }
}

typedef struct tick_width {
  double width, fs;
} tick_width;

static void widest_tick(double v, const char *label, void *ctx) {
  (void)v;
  tick_width *w = ctx;
  w->width = fmax(w->width, plot_text_width(label, PLOT_FONT_TICK, w->fs));
}

typedef struct bar_draw {
  cairo_t *cr;
  const color_scale *s;
  double x, top, height;  ///< the bar's left edge, top and height
  double fs;
} bar_draw;

static void draw_tick(double v, const char *label, void *ctx) {
  const bar_draw *b = ctx;
  const double y = b->top + (b->s->hi - v) / (b->s->hi - b->s->lo) * b->height;
  const double right = b->x + SWEEP_BAR_WIDTH * b->fs;
  cairo_move_to(b->cr, right, y);
  cairo_line_to(b->cr, right + SWEEP_BAR_GAP * b->fs / 2, y);
  cairo_stroke(b->cr);
  plot_text(b->cr, right + SWEEP_BAR_GAP * b->fs, y, PLOT_FONT_TICK, label, 0.0, 0.5);
}

/// The colour bar with its label above it, from legend row 0.
static void color_bar(cairo_t *cr, const plot_legend_layout *l, const color_scale *s,
                      const char *label, double legend_width) {
  const double fs = plot_font_scale(cr);
  double x, y;
  plot_legend_position(l, 0, &x, &y);
  const plot_text_role role = plot_text_role_set(cr, PLOT_TEXT_LEGEND);
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, x, y + PLOT_SWATCH * fs / 2, PLOT_FONT_TICK, label, 0.0, 0.5);
  const size_t rows = l->below ? (l->rows > 1 ? l->rows - 1 : 1) : SWEEP_BAR_ROWS;
  const bar_draw b = {cr, s, x, y + l->row, (double)rows * l->row - (l->row - PLOT_SWATCH * fs),
                      fs};
  cairo_pattern_t *p = cairo_pattern_create_linear(0, b.top + b.height, 0, b.top);
  for (int k = 0; k < VIRIDIS_STOPS; k++) {
    const plot_color c = VIRIDIS[k];
    cairo_pattern_add_color_stop_rgb(p, (double)k / (VIRIDIS_STOPS - 1), c.r / 255.0, c.g / 255.0,
                                     c.b / 255.0);
  }
  cairo_rectangle(cr, x, b.top, SWEEP_BAR_WIDTH * fs, b.height);
  cairo_set_source(cr, p);
  cairo_fill_preserve(cr);
  cairo_pattern_destroy(p);
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_line_width(cr, PLOT_LINE_THIN);
  cairo_stroke(cr);
  bar_ticks(s, draw_tick, (void *)&b);
  plot_text_role_set(cr, role);
  plot_record_legend(cr, x, y, x + legend_width, b.top + b.height);
  plot_record_color_bar(cr, x, b.top, x + SWEEP_BAR_WIDTH * fs, b.top + b.height, s->lo, s->hi);
}

/// The map's frame and its legend of `rows` rows `legend_width` wide, the
/// cells' size (cx, cy), the title; leaves the context clipped to the map.
static void open_map(plot_canvas *c, const plot_sweep_input *in, size_t rows, double legend_width,
                     plot_frame *f, plot_legend_layout *legend, double *cx, double *cy) {
  memset(f, 0, sizeof *f);
  plot_grid_range(in->x, &f->x_min, &f->x_max, cx);
  plot_grid_range(in->y, &f->y_min, &f->y_max, cy);
  plot_apply_limits(in->options, f);
  plot_grid_layout(c->width, c->height, c->scales.font, rows, legend_width, false, f, legend);
  plot_title(c->cr, c->width, in->title ? in->title : "");
  plot_clip(c->cr, f);
}

static plot_status quantity_map(plot_canvas *c, const plot_sweep_input *in) {
  cairo_t *cr = c->cr;
  const double fs = c->scales.font;
  const size_t n = in->x->count * in->y->count;
  const color_scale s = scale_of(in, n);
  const char *label = quantity_label(in->color);
  char none[SWEEP_LABEL_SIZE], errors[SWEEP_LABEL_SIZE];
  snprintf(none, sizeof none, "%s: %ld", no_value_text(in->color), s.none);
  snprintf(errors, sizeof errors, "%s: %ld", CLASSES[SWEEP_ERROR].text, s.errors);
  tick_width ticks = {0, fs};
  bar_ticks(&s, widest_tick, &ticks);
  double legend_width = fmax(plot_text_width(label, PLOT_FONT_TICK, fs),
                             (SWEEP_BAR_WIDTH + SWEEP_BAR_GAP) * fs + ticks.width);
  const double swatch = (PLOT_SWATCH + PLOT_SWATCH_GAP) * fs;
  if (s.none > 0)
    legend_width = fmax(legend_width, swatch + plot_text_width(none, PLOT_FONT_TICK, fs));
  if (s.errors > 0)
    legend_width = fmax(legend_width, swatch + plot_text_width(errors, PLOT_FONT_TICK, fs));
  const size_t rows = (size_t)(1 + SWEEP_BAR_ROWS + (s.none > 0) + (s.errors > 0));
  plot_frame f;
  plot_legend_layout legend;
  double cx, cy;
  open_map(c, in, rows, legend_width, &f, &legend, &cx, &cy);
  for (size_t k = 0; k < n; k++) {
    const zeno_sweep_point *p = &in->grid[k];
    const plot_color color = p->ok ? scale_color(&s, quantity(in->color, p))
                                   : CLASSES[SWEEP_ERROR].color;
    plot_grid_cell(cr, &f, p->x, p->y, cx, cy, color);
  }
  cairo_reset_clip(cr);
  plot_axes(cr, &f, plot_nice_step(f.x_max - f.x_min, SWEEP_TICKS),
            plot_nice_step(f.y_max - f.y_min, SWEEP_TICKS), plot_axis_label(in->x->path),
            plot_axis_label(in->y->path));
  color_bar(cr, &legend, &s, label, legend_width);
  size_t row = 1 + (legend.below ? legend.rows - 1 : (size_t)SWEEP_BAR_ROWS);
  double x, y;
  if (s.none > 0) {
    plot_legend_position(&legend, row++, &x, &y);
    plot_legend_row(cr, x, y, SWEEP_NO_VALUE_COLOR, none);
  }
  if (s.errors > 0) {
    plot_legend_position(&legend, row, &x, &y);
    plot_legend_row(cr, x, y, CLASSES[SWEEP_ERROR].color, errors);
  }
  return plot_canvas_close(c, PLOT_OK);
}

/* ---- the figure ------------------------------------------------------------------ */

plot_status plot_sweep(const char *path, const plot_sweep_input *in) {
  if (in == NULL) return PLOT_ERR_FORMAT;
  plot_canvas c;
  const plot_status st = plot_grid_open(&c, path, in->x, in->y, in->grid, in->options);
  if (st != PLOT_OK) return st;
  if (in->basin == NULL && in->color != PLOT_SWEEP_COLOR_OUTCOME) return quantity_map(&c, in);
  cairo_t *cr = c.cr;
  const double fs = c.scales.font;
  // The legend: the classes present with their counts, as wide as the
  // longest label.
  // Row SWEEP_CLASSES of the legend: the basin map's non-monotone dots.
  const int classes = in->basin ? BASIN_CLASSES : SWEEP_CLASSES;
  long count[SWEEP_CLASSES + 1] = {0};
  const size_t n = in->x->count * in->y->count;
  for (size_t k = 0; k < n; k++) {
    count[class_at(in, &in->grid[k])]++;
    count[SWEEP_CLASSES] += non_monotone(in, &in->grid[k]);
  }
  char labels[SWEEP_CLASSES + 1][SWEEP_LABEL_SIZE];
  double legend_width = 0;
  for (int k = 0; k < classes; k++) {
    if (in->basin) basin_label(in->basin, k, count[k], labels[k], sizeof labels[k]);
    else snprintf(labels[k], sizeof labels[k], "%s: %ld", CLASSES[k].text, count[k]);
    if (count[k] > 0)
      legend_width = fmax(legend_width, plot_text_width(labels[k], PLOT_FONT_TICK, fs));
  }
  snprintf(labels[SWEEP_CLASSES], sizeof labels[SWEEP_CLASSES], "dot: not monotone: %ld",
           count[SWEEP_CLASSES]);
  if (count[SWEEP_CLASSES] > 0)
    legend_width = fmax(legend_width, plot_text_width(labels[SWEEP_CLASSES], PLOT_FONT_TICK, fs));
  legend_width += (PLOT_SWATCH + PLOT_SWATCH_GAP) * fs;
  size_t present = count[SWEEP_CLASSES] > 0;
  for (int k = 0; k < classes; k++) present += count[k] > 0;
  plot_frame f;
  plot_legend_layout legend;
  double cx, cy;
  open_map(&c, in, present, legend_width, &f, &legend, &cx, &cy);
  for (size_t k = 0; k < n; k++) {
    const zeno_sweep_point *p = &in->grid[k];
    plot_grid_cell(cr, &f, p->x, p->y, cx, cy, color_at(in, class_at(in, p)));
  }
  for (size_t k = 0; k < n; k++)
    if (non_monotone(in, &in->grid[k])) basin_dot(cr, &f, &in->grid[k], cx, cy);
  cairo_reset_clip(cr);
  plot_axes(cr, &f, plot_nice_step(f.x_max - f.x_min, SWEEP_TICKS),
            plot_nice_step(f.y_max - f.y_min, SWEEP_TICKS), plot_axis_label(in->x->path),
            plot_axis_label(in->y->path));
  size_t row = 0;
  for (int k = 0; k < classes; k++) {
    if (count[k] == 0) continue;
    double x, y;
    plot_legend_position(&legend, row++, &x, &y);
    plot_legend_row(cr, x, y, color_at(in, k), labels[k]);
  }
  if (count[SWEEP_CLASSES] > 0) {
    double x, y;
    plot_legend_position(&legend, row, &x, &y);
    plot_legend_row(cr, x, y, PLOT_COLOR_INK, labels[SWEEP_CLASSES]);
  }
  return plot_canvas_close(&c, PLOT_OK);
}
