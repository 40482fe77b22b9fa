// Outcome sweep figure: one cell per grid point coloured by how its run
// ended, and a legend of the outcomes present with their counts; or, with
// a basin estimate, coloured by the basin's inner edge in bins.
#include <math.h>
#include <stdio.h>

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

plot_status plot_sweep(const char *path, const plot_sweep_input *in) {
  if (in == NULL) return PLOT_ERR_FORMAT;
  plot_canvas c;
  const plot_status st = plot_grid_open(&c, path, in->x, in->y, in->grid, in->options);
  if (st != PLOT_OK) return st;
  cairo_t *cr = c.cr;
  const double fs = c.options.font_scale;
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
  legend_width += PLOT_SWATCH * fs + PLOT_SWATCH_GAP;
  size_t present = count[SWEEP_CLASSES] > 0;
  for (int k = 0; k < classes; k++) present += count[k] > 0;
  plot_frame f = {0};
  double cx, cy;
  plot_grid_range(in->x, &f.x_min, &f.x_max, &cx);
  plot_grid_range(in->y, &f.y_min, &f.y_max, &cy);
  plot_apply_limits(in->options, &f);
  plot_legend_layout legend;
  plot_grid_layout(c.width, c.height, fs, present, legend_width, false, &f, &legend);
  plot_title(cr, c.width, in->title ? in->title : "");
  plot_clip(cr, &f);
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
