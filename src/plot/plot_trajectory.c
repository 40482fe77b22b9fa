// Trajectory figure: the gaps z1, z2 (top) and the slip x2 (bottom)
// against t, with event ticks.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px]. */
#define TRAJ_MARGIN_LEFT 76.0
#define TRAJ_MARGIN_RIGHT 24.0
#define TRAJ_MARGIN_TOP 62.0
#define TRAJ_MARGIN_BOTTOM 84.0
#define TRAJ_PANEL_GAP 40.0
#define TRAJ_LEGEND_Y 48.0
#define TRAJ_LEGEND_SAMPLE 22.0
#define TRAJ_LEGEND_GAP 6.0
#define TRAJ_LEGEND_SPACING 22.0
/// The event strip under the bottom panel's tick labels: its distance from
/// the panel, its height, the heights of event and impact ticks in it, and
/// the gap to the axis label under it.
#define TRAJ_STRIP_OFFSET 28.0
#define TRAJ_STRIP_HEIGHT 14.0
#define TRAJ_EVENT_TICK 7.0
#define TRAJ_IMPACT_TICK 14.0
#define TRAJ_STRIP_LABEL_GAP 6.0
/// About this many ticks per axis.
#define TRAJ_TICKS 8
#define TRAJ_SERIES 3
#define TRAJ_LABEL_SIZE 128

typedef struct series {
  const double *v;
  plot_color color;
  const char *name;
} series;

/// What the figure draws against: x[k] of every row and xe[k] of every
/// event (t, or log10(t* - t) on a log axis; NAN: not drawn), and the
/// range of x that is shown.
typedef struct abscissa {
  double *x, *xe;
  plot_frame frame;  ///< left, width, x range, x_log
  double step;
  char label[TRAJ_LABEL_SIZE];
} abscissa;

/// Smallest and largest finite value of v[k] over the rows whose x[k] is
/// inside [lo, hi] (every row when x is NULL), widening *vlo and *vhi.
static void widen(const double *v, const double *x, size_t n, double lo, double hi, double *vlo,
                  double *vhi) {
  for (size_t k = 0; k < n; k++)
    if (isfinite(v[k]) && (x == NULL || (x[k] >= lo && x[k] <= hi))) {
      *vlo = fmin(*vlo, v[k]);
      *vhi = fmax(*vhi, v[k]);
    }
}

/// Rounds [lo, hi] outwards to multiples of a nice step; returns the step.
static double nice_range(double *lo, double *hi) {
  if (!(*lo <= *hi)) {  // no finite value
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

/// The abscissa t: the data's range or xlim.
static void linear_abscissa(const plot_trajectory_input *in, const plot_options *o, abscissa *a) {
  for (size_t k = 0; k < in->count; k++) a->x[k] = in->t[k];
  for (size_t k = 0; k < in->event_count; k++) a->xe[k] = in->event_t[k];
  plot_frame *f = &a->frame;
  f->x_min = INFINITY;
  f->x_max = -INFINITY;
  widen(in->t, NULL, in->count, 0, 0, &f->x_min, &f->x_max);
  if (!(f->x_min < f->x_max)) {  // a single time: any unit range around it
    f->x_min = isfinite(f->x_min) ? f->x_min : 0;
    f->x_max = f->x_min + 1;
  }
  if (o->has_xlim) {
    f->x_min = o->xlim[0];
    f->x_max = o->xlim[1];
  }
  a->step = plot_nice_step(f->x_max - f->x_min, TRAJ_TICKS);
  snprintf(a->label, sizeof a->label, "t");
}

/// log10(t* - t), NAN at and after t*.
static double log_to_accumulation(double t_star, double t) {
  return t < t_star ? log10(t_star - t) : NAN;
}

/// The abscissa t* - t on a log scale, growing to the left: whole decades
/// around the data, or xlim.
static void log_abscissa(const plot_trajectory_input *in, const plot_options *o, abscissa *a) {
  const double t_star = in->accumulation_t;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < in->count; k++) {
    a->x[k] = log_to_accumulation(t_star, in->t[k]);
    if (isfinite(a->x[k])) {
      lo = fmin(lo, a->x[k]);
      hi = fmax(hi, a->x[k]);
    }
  }
  for (size_t k = 0; k < in->event_count; k++)
    a->xe[k] = log_to_accumulation(t_star, in->event_t[k]);
  if (!(lo <= hi)) {  // nothing before t*: one decade under t*
    lo = 0;
    hi = 1;
  }
  plot_frame *f = &a->frame;
  f->x_log = true;
  f->x_min = ceil(hi);
  f->x_max = floor(lo);
  if (f->x_min <= f->x_max) f->x_min = f->x_max + 1;
  if (o->has_xlim) {
    f->x_min = log10(o->xlim[1]);
    f->x_max = log10(o->xlim[0]);
  }
  a->step = fmax(1.0, round(plot_nice_step(f->x_min - f->x_max, TRAJ_TICKS)));
  snprintf(a->label, sizeof a->label, "t* − t  (log scale; t* = %.6g, the Zeno accumulation time)",
           t_star);
}

void plot_trajectory_layout(double width, double height, const plot_options *o, plot_frame *top,
                            plot_frame *bottom, plot_frame *strip) {
  const double fs = plot_options_font_scale(o);
  memset(top, 0, sizeof *top);
  top->left = TRAJ_MARGIN_LEFT * fs;
  top->top = TRAJ_MARGIN_TOP * fs;
  top->width = fmax(width - top->left - TRAJ_MARGIN_RIGHT, 1.0);
  top->height = fmax((height - top->top - (TRAJ_MARGIN_BOTTOM + TRAJ_PANEL_GAP) * fs) / 2, 1.0);
  *bottom = *top;
  bottom->top += top->height + TRAJ_PANEL_GAP * fs;
  *strip = *bottom;
  strip->top = bottom->top + bottom->height + TRAJ_STRIP_OFFSET * fs;
  strip->height = TRAJ_STRIP_HEIGHT;
}

/// The events as ticks in a strip of their own under the bottom panel
/// (impacts full height and black, other events half height and grey), so
/// that they never cover the curves.
static void event_strip(cairo_t *cr, const plot_frame *strip, const abscissa *a,
                        const plot_trajectory_input *in) {
  const double fs = plot_font_scale(cr);
  plot_frame f = *strip;
  f.x_min = a->frame.x_min;
  f.x_max = a->frame.x_max;
  const double bottom = f.top + f.height;
  cairo_save(cr);
  plot_clip(cr, &f);
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  for (int pass = 0; pass < 2; pass++) {  // impacts on top of other events
    plot_set_color(cr, pass ? PLOT_COLOR_IMPACT : PLOT_COLOR_EVENT);
    for (size_t k = 0; k < in->event_count; k++) {
      if (in->event_impact[k] != (pass == 1) || !isfinite(a->xe[k])) continue;
      const double x = floor(plot_frame_x(&f, a->xe[k])) + 0.5;
      cairo_move_to(cr, x, bottom);
      cairo_line_to(cr, x, bottom - (pass ? TRAJ_IMPACT_TICK : TRAJ_EVENT_TICK));
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
  plot_set_color(cr, PLOT_COLOR_GUIDE);
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  cairo_move_to(cr, round(f.left) + 0.5, round(bottom) + 0.5);
  cairo_line_to(cr, round(f.left + f.width) + 0.5, round(bottom) + 0.5);
  cairo_stroke(cr);
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, f.left - TRAJ_STRIP_LABEL_GAP, bottom, PLOT_FONT_TICK, "events", 1.0, 1.0);
  plot_text(cr, f.left + f.width / 2, bottom + TRAJ_STRIP_LABEL_GAP * fs, PLOT_FONT_LABEL, a->label,
            0.5, 0.0);
}

static void line(cairo_t *cr, const plot_frame *f, const double *t, const series *s, size_t n) {
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
    if (drawing) cairo_line_to(cr, x, y);
    else cairo_move_to(cr, x, y);
    drawing = true;
  }
  cairo_stroke(cr);
}

/// One legend item; returns the x after it. tick: a vertical tick mark.
static double legend_item(cairo_t *cr, double x, double base, plot_color color, bool tick,
                          const char *text) {
  const double fs = plot_font_scale(cr), sample = TRAJ_LEGEND_SAMPLE * fs;
  const double y = base - PLOT_FONT_TICK * fs / 3;
  plot_set_color(cr, color);
  cairo_set_line_width(cr, tick ? PLOT_LINE_THIN : PLOT_LINE_DATA);
  if (tick) {
    cairo_move_to(cr, round(x + sample / 2) + 0.5, base);
    cairo_line_to(cr, round(x + sample / 2) + 0.5, base - PLOT_FONT_TICK * fs);
  } else {
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + sample, y);
  }
  cairo_stroke(cr);
  x += sample + TRAJ_LEGEND_GAP * fs;
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, x, base, PLOT_FONT_TICK, text, 0.0, 1.0);
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  return x + e.x_advance + TRAJ_LEGEND_SPACING * fs;
}

/// The legend row: its baseline and the series it names.
typedef struct legend_row {
  double base;
  const series *s;
  int n;
} legend_row;

static double legend(cairo_t *cr, double x, const void *ctx) {
  const legend_row *row = ctx;
  for (int i = 0; i < row->n; i++)
    x = legend_item(cr, x, row->base, row->s[i].color, false, row->s[i].name);
  x = legend_item(cr, x, row->base, PLOT_COLOR_EVENT, true, "event");
  x = legend_item(cr, x, row->base, PLOT_COLOR_IMPACT, true, "impact");
  return x - TRAJ_LEGEND_SPACING * plot_font_scale(cr);
}

/// One panel: the series s[0..n-1], y range from the data shown (or ylim).
static void panel(cairo_t *cr, plot_frame f, const plot_trajectory_input *in, const abscissa *a,
                  const series *s, int n, const double *ylim, const char *y_label) {
  f.y_min = INFINITY;
  f.y_max = -INFINITY;
  const double lo = fmin(f.x_min, f.x_max), hi = fmax(f.x_min, f.x_max);
  for (int i = 0; i < n; i++) widen(s[i].v, a->x, in->count, lo, hi, &f.y_min, &f.y_max);
  double y_step = nice_range(&f.y_min, &f.y_max);
  if (ylim) {
    f.y_min = ylim[0];
    f.y_max = ylim[1];
    y_step = plot_nice_step(f.y_max - f.y_min, TRAJ_TICKS);
  }
  cairo_save(cr);
  plot_clip(cr, &f);
  for (int i = 0; i < n; i++) line(cr, &f, a->x, &s[i], in->count);
  cairo_restore(cr);
  plot_axes(cr, &f, a->step, y_step, NULL, y_label);
}

static void draw(const plot_canvas *c, const plot_trajectory_input *in, abscissa *a) {
  cairo_t *cr = c->cr;
  const plot_options *o = &c->options;
  // One contact: q' = (z1, x1, theta) in the same arrays; its gap above,
  // its slip below (theta, the body's turn, is not drawn).
  const bool one = in->contact_count == 1;
  const series s[TRAJ_SERIES] = {{in->z1, PLOT_COLOR_Z1, "z₁ (gap 1)"},
                                 {in->z2, PLOT_COLOR_Z2, "z₂ (gap 2)"},
                                 {in->x2, PLOT_COLOR_X2, "x₂ (slip 2)"}};
  const series s1[2] = {{in->z1, PLOT_COLOR_Z1, "z₁ (gap)"}, {in->z2, PLOT_COLOR_X2, "x₁ (slip)"}};
  plot_frame *f = &a->frame, bottom, strip;
  // Other quantities (names given): their series and labels.
  const bool named = in->names != NULL, pair = named && in->names[1] != NULL;
  const series sn[TRAJ_SERIES] = {{in->z1, PLOT_COLOR_Z1, named ? in->names[0] : ""},
                                  {pair ? in->z2 : in->x2, pair ? PLOT_COLOR_Z2 : PLOT_COLOR_X2,
                                   pair ? in->names[1] : (named ? in->names[2] : "")},
                                  {in->x2, PLOT_COLOR_X2, named ? in->names[2] : ""}};
  plot_trajectory_layout(c->width, c->height, o, f, &bottom, &strip);
  if (isfinite(in->accumulation_t)) log_abscissa(in, o, a);
  else linear_abscissa(in, o, a);
  plot_title(cr, c->width, in->title);
  const legend_row row = {TRAJ_LEGEND_Y * o->font_scale,
                          named ? sn
                          : one ? s1
                                : s,
                          named ? (pair ? TRAJ_SERIES : 2)
                          : one ? 2
                                : TRAJ_SERIES};
  plot_fitted_row(cr, f->left, c->width - TRAJ_MARGIN_RIGHT, legend, &row);
  const double top_of_bottom = bottom.top;
  bottom = *f;
  bottom.top = top_of_bottom;
  if (named) {
    panel(cr, *f, in, a, sn, pair ? 2 : 1, o->has_ylim ? o->ylim : NULL, in->top_label);
    panel(cr, bottom, in, a, sn + 2, 1, NULL, in->bottom_label);
  } else {
    panel(cr, *f, in, a, one ? s1 : s, one ? 1 : 2, o->has_ylim ? o->ylim : NULL,
          one ? "z₁" : "z₁, z₂");
    panel(cr, bottom, in, a, one ? s1 + 1 : s + 2, 1, NULL, one ? "x₁" : "x₂");
  }
  event_strip(cr, &strip, a, in);
}

plot_status plot_trajectory(const char *path, const plot_trajectory_input *in) {
  plot_canvas canvas;
  plot_status status = plot_canvas_open(&canvas, path, in->options);
  abscissa a = {.x = malloc((in->count ? in->count : 1) * sizeof(double)),
                .xe = malloc((in->event_count ? in->event_count : 1) * sizeof(double))};
  if (status == PLOT_OK && (a.x == NULL || a.xe == NULL)) status = PLOT_ERR_NOMEM;
  if (status == PLOT_OK) draw(&canvas, in, &a);
  free(a.x);
  free(a.xe);
  return plot_canvas_close(&canvas, status);
}
