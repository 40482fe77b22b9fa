// The maps figure: R(phi) above G(phi) over the Poincaré section angle,
// like the paper's Figs. 4c, 5b and 7a.
#include <math.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px]. */
#define MAPS_MARGIN_LEFT 76.0
#define MAPS_MARGIN_RIGHT 24.0
#define MAPS_MARGIN_TOP 62.0
#define MAPS_MARGIN_BOTTOM 56.0
#define MAPS_PANEL_GAP 44.0
/// Baseline of the legend row under the title.
#define MAPS_LEGEND_Y 48.0
/// Legend: sample stroke length, gap after it, gap between items.
#define MAPS_LEGEND_SAMPLE 22.0
#define MAPS_LEGEND_GAP 6.0
#define MAPS_LEGEND_SPACING 22.0
/// Fixed point circles.
#define MAPS_FIXED_POINT_RADIUS 5.0
#define MAPS_FIXED_POINT_LINE 1.5
/// Section angles run over (-pi/2, pi/2); ticks every 0.5 rad.
#define MAPS_PHI_LIMIT (ZENO_PI / 2)
#define MAPS_PHI_STEP 0.5
/// G axis: headroom over max(G_max, 1) and about this many ticks.
#define MAPS_G_HEADROOM 1.2
#define MAPS_G_TICKS 5
/// Largest G axis: larger G (e.g. near an endpoint, Example 7) runs off the
/// top of the panel.
#define MAPS_G_CAP 5.0

double plot_maps_g_top(double g_max) {
  const double target = MAPS_G_HEADROOM * (isfinite(g_max) ? fmax(g_max, 1.0) : 1.0);
  const double step = plot_nice_step(target, MAPS_G_TICKS);
  return fmin(ceil(target / step) * step, MAPS_G_CAP);
}

void plot_maps_frames(double width, double height, double g_top, const plot_options *o,
                      plot_frame *r, plot_frame *g) {
  const double fs = plot_options_font_scale(o);
  const double top = MAPS_MARGIN_TOP * fs, left = MAPS_MARGIN_LEFT * fs;
  const double panel = fmax((height - top - (MAPS_MARGIN_BOTTOM + MAPS_PANEL_GAP) * fs) / 2, 1.0);
  const double w = fmax(width - left - MAPS_MARGIN_RIGHT, 1.0);
  *r = (plot_frame){.left = left,
                    .top = top,
                    .width = w,
                    .height = panel,
                    .x_min = -MAPS_PHI_LIMIT,
                    .x_max = MAPS_PHI_LIMIT,
                    .y_min = -MAPS_PHI_LIMIT,
                    .y_max = MAPS_PHI_LIMIT};
  plot_apply_limits(o, r);
  *g = *r;
  g->top = top + panel + MAPS_PANEL_GAP * fs;
  g->y_min = 0.0;
  g->y_max = g_top;
}

/* ---- layers ---------------------------------------------------------------- */

static void shade_unsafe(cairo_t *cr, const plot_frame *f, const plot_maps_input *in) {
  plot_set_color(cr, PLOT_COLOR_UNSAFE_SHADE);
  for (size_t i = 0; i < in->interval_count; i++) {
    if (in->intervals[i].safe) continue;
    const double x0 = plot_frame_x(f, in->intervals[i].lo);
    const double x1 = plot_frame_x(f, in->intervals[i].hi);
    cairo_rectangle(cr, x0, f->top, x1 - x0, f->height);
  }
  cairo_fill(cr);
}

static void breakpoint_lines(cairo_t *cr, const plot_frame *f, const zeno_maps *m) {
  plot_set_color(cr, PLOT_COLOR_BREAKPOINT);
  cairo_set_line_width(cr, PLOT_LINE_THIN);
  for (size_t k = 0; k < m->breakpoint_count; k++) {
    const double x = floor(plot_frame_x(f, m->breakpoints[k])) + 0.5;
    cairo_move_to(cr, x, f->top);
    cairo_line_to(cr, x, f->top + f->height);
  }
  cairo_stroke(cr);
}

/// Neighbouring samples on one smooth branch of R and G.
static bool same_branch(const zeno_cycle *a, const zeno_cycle *b) {
  return a->defined && b->defined && strcmp(a->word, b->word) == 0 &&
         strcmp(a->outcomes, b->outcomes) == 0;
}

/// R (or G) where defined: samples joined along each branch; a lone sample
/// is a dot (a zero-length segment with round caps).
static void curve(cairo_t *cr, const plot_frame *f, const zeno_maps *m, bool growth,
                  plot_color color) {
  plot_set_color(cr, color);
  cairo_set_line_width(cr, PLOT_LINE_DATA);
  cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  for (size_t k = 0; k < m->sample_count; k++) {
    const zeno_cycle *c = &m->samples[k];
    if (!c->defined) continue;
    const double x = plot_frame_x(f, c->phi);
    const double y = plot_frame_y(f, growth ? c->G : c->R);
    if (k == 0 || !same_branch(&m->samples[k - 1], c)) cairo_move_to(cr, x, y);
    cairo_line_to(cr, x, y);
  }
  cairo_stroke(cr);
}

static void fixed_points(cairo_t *cr, const plot_frame *f, const zeno_maps *m) {
  cairo_set_line_width(cr, MAPS_FIXED_POINT_LINE);
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *p = &m->fixed_points[k];
    // Drawn whole (not clipped by the frame) when inside the ranges, e.g.
    // the limiting fixed point at +-pi/2; left out outside --xlim/--ylim.
    if (p->phi < fmin(f->x_min, f->x_max) || p->phi > fmax(f->x_min, f->x_max) ||
        p->phi < f->y_min || p->phi > f->y_max)
      continue;
    cairo_new_sub_path(cr);
    cairo_arc(cr, plot_frame_x(f, p->phi), plot_frame_y(f, p->phi), MAPS_FIXED_POINT_RADIUS, 0,
              2 * ZENO_PI);
    plot_set_color(cr, p->convergent ? PLOT_COLOR_INK : PLOT_COLOR_BACKGROUND);
    cairo_fill_preserve(cr);
    plot_set_color(cr, PLOT_COLOR_INK);
    cairo_stroke(cr);
  }
}

/* ---- panels and legend -------------------------------------------------- */

static void panel(cairo_t *cr, const plot_frame *f, const plot_maps_input *in, bool growth) {
  cairo_save(cr);
  plot_clip(cr, f);
  shade_unsafe(cr, f, in);
  breakpoint_lines(cr, f, in->maps);
  if (growth) plot_dashed_line(cr, f, f->x_min, 1.0, f->x_max, 1.0, PLOT_COLOR_GUIDE);
  else plot_dashed_line(cr, f, f->x_min, f->y_min, f->x_max, f->y_max, PLOT_COLOR_GUIDE);
  curve(cr, f, in->maps, growth, growth ? PLOT_COLOR_G : PLOT_COLOR_R);
  cairo_restore(cr);
  if (!growth) fixed_points(cr, f, in->maps);
  const double phi_step = fabs(f->x_max - f->x_min) < 2 * MAPS_PHI_LIMIT
                              ? plot_nice_step(fabs(f->x_max - f->x_min), MAPS_G_TICKS)
                              : MAPS_PHI_STEP;
  const double r_step = f->y_max - f->y_min < 2 * MAPS_PHI_LIMIT
                            ? plot_nice_step(f->y_max - f->y_min, MAPS_G_TICKS)
                            : MAPS_PHI_STEP;
  plot_axes(cr, f, phi_step, growth ? plot_nice_step(f->y_max, MAPS_G_TICKS) : r_step,
            growth ? "φ [rad]" : NULL, growth ? "G(φ)" : "R(φ) [rad]");
}

typedef enum legend_mark { MARK_LINE, MARK_DASHED, MARK_CIRCLE, MARK_BOX } legend_mark;

/// One legend item at x on the legend row; returns the x after it.
static double legend_item(cairo_t *cr, double x, double base, legend_mark mark, plot_color color,
                          const char *text) {
  static const double dash[] = {PLOT_DASH_ON, PLOT_DASH_OFF};
  const double fs = plot_font_scale(cr), sample = MAPS_LEGEND_SAMPLE * fs;
  const double y = base - PLOT_FONT_TICK * fs / 3;
  cairo_save(cr);
  plot_set_color(cr, color);
  cairo_set_line_width(cr, mark == MARK_DASHED ? PLOT_LINE_THIN : PLOT_LINE_DATA);
  if (mark == MARK_DASHED) cairo_set_dash(cr, dash, 2, 0);
  if (mark == MARK_CIRCLE) {
    cairo_arc(cr, x + sample / 2, y, MAPS_FIXED_POINT_RADIUS, 0, 2 * ZENO_PI);
    cairo_set_line_width(cr, MAPS_FIXED_POINT_LINE);
  } else if (mark == MARK_BOX) {
    cairo_rectangle(cr, x, y - PLOT_FONT_TICK * fs / 2, sample, PLOT_FONT_TICK * fs);
    cairo_fill(cr);
  } else {
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x + sample, y);
  }
  cairo_stroke(cr);
  cairo_restore(cr);
  x += sample + MAPS_LEGEND_GAP * fs;
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, x, base, PLOT_FONT_TICK, text, 0.0, 1.0);
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  return x + e.x_advance + MAPS_LEGEND_SPACING * fs;
}

/// The legend row: its baseline, and whether the unsafe shading is drawn.
typedef struct legend_row {
  double base;
  bool shaded;
} legend_row;

static double legend(cairo_t *cr, double x, const void *ctx) {
  const legend_row *row = ctx;
  const double b = row->base;
  x = legend_item(cr, x, b, MARK_LINE, PLOT_COLOR_R, "R(φ)");
  x = legend_item(cr, x, b, MARK_LINE, PLOT_COLOR_G, "G(φ)");
  x = legend_item(cr, x, b, MARK_DASHED, PLOT_COLOR_GUIDE, "R = φ, G = 1");
  x = legend_item(cr, x, b, MARK_LINE, PLOT_COLOR_BREAKPOINT, "breakpoint");
  x = legend_item(cr, x, b, MARK_CIRCLE, PLOT_COLOR_INK, "fixed point (filled: convergent)");
  if (row->shaded) x = legend_item(cr, x, b, MARK_BOX, PLOT_COLOR_UNSAFE_SHADE, "unsafe");
  return x - MAPS_LEGEND_SPACING * plot_font_scale(cr);
}

plot_status plot_maps(const char *path, const plot_maps_input *in) {
  plot_canvas canvas;
  plot_status status = plot_canvas_open(&canvas, path, in->options);
  if (status == PLOT_OK) {
    plot_frame r, g;
    plot_maps_frames(canvas.width, canvas.height, plot_maps_g_top(in->maps->G_max), in->options, &r,
                     &g);
    plot_title(canvas.cr, canvas.width, in->title);
    const legend_row row = {MAPS_LEGEND_Y * canvas.options.font_scale, in->interval_count > 0};
    plot_fitted_row(canvas.cr, r.left, canvas.width - MAPS_MARGIN_RIGHT, legend, &row);
    panel(canvas.cr, &r, in, false);
    panel(canvas.cr, &g, in, true);
  }
  return plot_canvas_close(&canvas, status);
}
