// Outcome sweep figure: one cell per grid point coloured by how its run
// ended, and a legend of the outcomes present with their counts.
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

plot_status plot_sweep(const char *path, const plot_sweep_input *in) {
  if (in == NULL) return PLOT_ERR_FORMAT;
  plot_canvas c;
  const plot_status st = plot_grid_open(&c, path, in->x, in->y, in->grid, in->options);
  if (st != PLOT_OK) return st;
  cairo_t *cr = c.cr;
  const double fs = c.options.font_scale;
  // The legend: the classes present with their counts, as wide as the
  // longest label.
  long count[SWEEP_CLASSES] = {0};
  const size_t n = in->x->count * in->y->count;
  for (size_t k = 0; k < n; k++) count[class_of(&in->grid[k])]++;
  char labels[SWEEP_CLASSES][SWEEP_LABEL_SIZE];
  double legend_width = 0;
  for (int k = 0; k < SWEEP_CLASSES; k++) {
    snprintf(labels[k], sizeof labels[k], "%s: %ld", CLASSES[k].text, count[k]);
    if (count[k] > 0)
      legend_width = fmax(legend_width, plot_text_width(labels[k], PLOT_FONT_TICK, fs));
  }
  legend_width += PLOT_SWATCH * fs + PLOT_SWATCH_GAP;
  size_t present = 0;
  for (int k = 0; k < SWEEP_CLASSES; k++) present += count[k] > 0;
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
    plot_grid_cell(cr, &f, p->x, p->y, cx, cy, CLASSES[class_of(p)].color);
  }
  cairo_reset_clip(cr);
  plot_axes(cr, &f, plot_nice_step(f.x_max - f.x_min, SWEEP_TICKS),
            plot_nice_step(f.y_max - f.y_min, SWEEP_TICKS), plot_axis_label(in->x->path),
            plot_axis_label(in->y->path));
  size_t row = 0;
  for (int k = 0; k < SWEEP_CLASSES; k++) {
    if (count[k] == 0) continue;
    double x, y;
    plot_legend_position(&legend, row++, &x, &y);
    plot_legend_row(cr, x, y, CLASSES[k].color, labels[k]);
  }
  return plot_canvas_close(&c, PLOT_OK);
}
