// Trajectory figure: the gaps z1, z2 (top) and the slip x2 (bottom)
// against t, with event ticks.
#include <math.h>

#include "plot/plot_internal.h"

/* Layout [px]. */
#define TRAJ_MARGIN_LEFT 76.0
#define TRAJ_MARGIN_RIGHT 24.0
#define TRAJ_MARGIN_TOP 62.0
#define TRAJ_MARGIN_BOTTOM 56.0
#define TRAJ_PANEL_GAP 40.0
#define TRAJ_LEGEND_Y 48.0
#define TRAJ_LEGEND_SAMPLE 22.0
#define TRAJ_LEGEND_GAP 6.0
#define TRAJ_LEGEND_SPACING 22.0
/// Event ticks rise from the time axis into the plot.
#define TRAJ_EVENT_TICK 8.0
#define TRAJ_IMPACT_TICK 16.0
/// About this many ticks per axis.
#define TRAJ_TICKS 8
#define TRAJ_SERIES 3

typedef struct series {
  const double *v;
  plot_color color;
  const char *name;
} series;

/// Smallest and largest finite value of v[0..n-1], widening *lo and *hi.
static void widen(const double *v, size_t n, double *lo, double *hi) {
  for (size_t k = 0; k < n; k++)
    if (isfinite(v[k])) {
      *lo = fmin(*lo, v[k]);
      *hi = fmax(*hi, v[k]);
    }
}

/// Rounds [lo, hi] outwards to multiples of a nice step; returns the step.
static double nice_range(double *lo, double *hi) {
  if (!(*lo <= *hi)) { // no finite value
    *lo = 0;
    *hi = 1;
  }
  if (*hi - *lo <= 0) {
    *lo -= 1;
    *hi += 1;
  }
  const double step = plot_nice_step(*hi - *lo, TRAJ_TICKS);
  *lo = floor(*lo / step) * step;
  *hi = ceil(*hi / step) * step;
  return step;
}

static void event_ticks(cairo_t *cr, const plot_frame *f,
                        const plot_trajectory_input *in) {
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  const double bottom = f->top + f->height;
  for (int pass = 0; pass < 2; pass++) { // impacts on top of other events
    plot_set_color(cr, pass ? PLOT_COLOR_IMPACT : PLOT_COLOR_EVENT);
    for (size_t k = 0; k < in->event_count; k++) {
      if (in->event_impact[k] != (pass == 1) || !isfinite(in->event_t[k])) continue;
      const double x = floor(plot_frame_x(f, in->event_t[k])) + 0.5;
      cairo_move_to(cr, x, bottom);
      cairo_line_to(cr, x, bottom - (pass ? TRAJ_IMPACT_TICK : TRAJ_EVENT_TICK));
    }
    cairo_stroke(cr);
  }
}

static void line(cairo_t *cr, const plot_frame *f, const double *t,
                 const series *s, size_t n) {
  plot_set_color(cr, s->color);
  cairo_set_line_width(cr, PLOT_LINE_DATA);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  bool drawing = false;
  for (size_t k = 0; k < n; k++) {
    if (!isfinite(t[k]) || !isfinite(s->v[k])) {
      drawing = false;
      continue;
    }
    const double x = plot_frame_x(f, t[k]), y = plot_frame_y(f, s->v[k]);
    if (drawing)
      cairo_line_to(cr, x, y);
    else
      cairo_move_to(cr, x, y);
    drawing = true;
  }
  cairo_stroke(cr);
}

/// One legend item; returns the x after it. tick: a vertical tick mark.
static double legend_item(cairo_t *cr, double x, plot_color color, bool tick,
                          const char *text) {
  const double y = TRAJ_LEGEND_Y - PLOT_FONT_TICK / 3;
  plot_set_color(cr, color);
  cairo_set_line_width(cr, tick ? PLOT_LINE_THIN : PLOT_LINE_DATA);
  if (tick) {
    cairo_move_to(cr, x + TRAJ_LEGEND_SAMPLE / 2 + 0.5, TRAJ_LEGEND_Y);
    cairo_line_to(cr, x + TRAJ_LEGEND_SAMPLE / 2 + 0.5, TRAJ_LEGEND_Y - PLOT_FONT_TICK);
  } else {
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + TRAJ_LEGEND_SAMPLE, y);
  }
  cairo_stroke(cr);
  x += TRAJ_LEGEND_SAMPLE + TRAJ_LEGEND_GAP;
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, x, TRAJ_LEGEND_Y, PLOT_FONT_TICK, text, 0.0, 1.0);
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  return x + e.x_advance + TRAJ_LEGEND_SPACING;
}

/// One panel: the series s[0..n-1] with event ticks, y range from the data.
static void panel(cairo_t *cr, plot_frame f, const plot_trajectory_input *in,
                  const series *s, int n, double t_step, const char *y_label, bool bottom) {
  f.y_min = INFINITY;
  f.y_max = -INFINITY;
  for (int i = 0; i < n; i++) widen(s[i].v, in->count, &f.y_min, &f.y_max);
  const double y_step = nice_range(&f.y_min, &f.y_max);
  cairo_save(cr);
  plot_clip(cr, &f);
  event_ticks(cr, &f, in);
  for (int i = 0; i < n; i++) line(cr, &f, in->t, &s[i], in->count);
  cairo_restore(cr);
  plot_axes(cr, &f, t_step, y_step, bottom ? "t" : NULL, y_label);
}

static void draw(cairo_t *cr, const plot_trajectory_input *in) {
  // One contact: q' = (z1, x1, theta) in the same arrays; its gap above,
  // its slip below (theta, the body's turn, is not drawn).
  const bool one = in->contact_count == 1;
  const series s[TRAJ_SERIES] = {{in->z1, PLOT_COLOR_Z1, "z₁ (gap 1)"},
                                 {in->z2, PLOT_COLOR_Z2, "z₂ (gap 2)"},
                                 {in->x2, PLOT_COLOR_X2, "x₂ (slip 2)"}};
  const series s1[2] = {{in->z1, PLOT_COLOR_Z1, "z₁ (gap)"},
                        {in->z2, PLOT_COLOR_X2, "x₁ (slip)"}};
  plot_frame f = {.left = TRAJ_MARGIN_LEFT, .top = TRAJ_MARGIN_TOP,
                  .width = PLOT_WIDTH - TRAJ_MARGIN_LEFT - TRAJ_MARGIN_RIGHT,
                  .height = (PLOT_HEIGHT - TRAJ_MARGIN_TOP - TRAJ_MARGIN_BOTTOM -
                             TRAJ_PANEL_GAP) / 2,
                  .x_min = INFINITY, .x_max = -INFINITY};
  widen(in->t, in->count, &f.x_min, &f.x_max);
  if (!(f.x_min < f.x_max)) { // a single time: any unit range around it
    f.x_min = isfinite(f.x_min) ? f.x_min : 0;
    f.x_max = f.x_min + 1;
  }
  const double t_step = plot_nice_step(f.x_max - f.x_min, TRAJ_TICKS);
  plot_title(cr, PLOT_WIDTH, in->title);
  double x = f.left;
  for (int i = 0; i < (one ? 2 : TRAJ_SERIES); i++)
    x = legend_item(cr, x, one ? s1[i].color : s[i].color, false, one ? s1[i].name : s[i].name);
  x = legend_item(cr, x, PLOT_COLOR_EVENT, true, "event");
  legend_item(cr, x, PLOT_COLOR_IMPACT, true, "impact");
  panel(cr, f, in, one ? s1 : s, one ? 1 : 2, t_step, one ? "z₁" : "z₁, z₂", false);
  f.top += f.height + TRAJ_PANEL_GAP;
  panel(cr, f, in, one ? s1 + 1 : s + 2, 1, t_step, one ? "x₁" : "x₂", true);
}

plot_status plot_trajectory(const char *path,
                            const plot_trajectory_input *in) {
  plot_canvas canvas;
  const plot_status status =
      plot_canvas_open(&canvas, path, PLOT_WIDTH, PLOT_HEIGHT);
  if (status == PLOT_OK) draw(canvas.cr, in);
  return plot_canvas_close(&canvas, status);
}
