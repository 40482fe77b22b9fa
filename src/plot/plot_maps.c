// The maps figure: R(phi) above G(phi) over the Poincaré section angle,
// like the paper's Figs. 4c, 5b and 7a.
#include <math.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px at the design size; margins that hold text times the font
   scale, the others times the size scale]. */
#define MAPS_MARGIN_LEFT 76.0
#define MAPS_MARGIN_RIGHT 24.0
#define MAPS_MARGIN_BOTTOM 48.0
/// Between the panels (the top one's x ticks carry no labels).
#define MAPS_PANEL_GAP 16.0
/// Baseline of the legend's first row under the title.
#define MAPS_LEGEND_Y 44.0
/// Legend items: R, G, the guides, breakpoints, fixed points, unsafe.
#define MAPS_LEGEND_ITEMS 6
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

/// The legend's items; the unsafe shading's only when `shaded`. Returns
/// their count.
static size_t legend_items(plot_legend_item *items, bool shaded) {
  const plot_legend_item all[MAPS_LEGEND_ITEMS] = {
      {PLOT_MARK_LINE, PLOT_COLOR_R, "R(φ)"},
      {PLOT_MARK_LINE, PLOT_COLOR_G, "G(φ)"},
      {PLOT_MARK_DASHED, PLOT_COLOR_GUIDE, "R = φ, G = 1"},
      {PLOT_MARK_THIN, PLOT_COLOR_BREAKPOINT, "breakpoint"},
      {PLOT_MARK_CIRCLE, PLOT_COLOR_INK, "fixed point (filled: convergent)"},
      {PLOT_MARK_BOX, PLOT_COLOR_UNSAFE_SHADE, "unsafe"},
  };
  const size_t n = shaded ? MAPS_LEGEND_ITEMS : MAPS_LEGEND_ITEMS - 1;
  for (size_t k = 0; k < n; k++) items[k] = all[k];
  return n;
}

/// Left and right ends of the panels (and the legend).
static void maps_columns(double width, const plot_options *o, double *left, double *right) {
  *left = MAPS_MARGIN_LEFT * plot_options_font_scale(o);
  *right = fmax(width - MAPS_MARGIN_RIGHT * plot_options_size_scale(o), *left + 1.0);
}

void plot_maps_frames(double width, double height, double g_top, const plot_options *o,
                      plot_frame *r, plot_frame *g) {
  const double fs = plot_options_font_scale(o), k = plot_options_size_scale(o);
  double left, right;
  maps_columns(width, o, &left, &right);
  // Room for the legend with every item (shaded or not: the panels keep
  // their place), as many rows as it wraps into.
  plot_legend_item items[MAPS_LEGEND_ITEMS];
  const size_t rows = plot_flow_rows(items, legend_items(items, true),
                                     width - 2 * plot_flow_side(k), fs);
  const double top = MAPS_LEGEND_Y * fs + (double)(rows - 1) * plot_flow_row(fs) +
                     plot_legend_clearance(fs, k);
  const double panel = fmax((height - top - (MAPS_MARGIN_BOTTOM + MAPS_PANEL_GAP) * fs) / 2, 1.0);
  *r = (plot_frame){.left = left,
                    .top = top,
                    .width = right - left,
                    .height = panel,
                    .x_min = -MAPS_PHI_LIMIT,
                    .x_max = MAPS_PHI_LIMIT,
                    .y_min = -MAPS_PHI_LIMIT,
                    .y_max = MAPS_PHI_LIMIT};
  plot_apply_limits(o, r);
  *g = *r;
  r->x_labels_hidden = true;
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
  plot_line_width(cr, PLOT_LINE_THIN);
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
  plot_line_width(cr, PLOT_LINE_DATA);
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
  plot_line_width(cr, PLOT_MARKER_LINE);
  const double radius = PLOT_MARKER_RADIUS * plot_size_scale_of(cr);
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *p = &m->fixed_points[k];
    // Drawn whole (not clipped by the frame) when inside the ranges, e.g.
    // the limiting fixed point at +-pi/2; left out outside --xlim/--ylim.
    if (p->phi < fmin(f->x_min, f->x_max) || p->phi > fmax(f->x_min, f->x_max) ||
        p->phi < f->y_min || p->phi > f->y_max)
      continue;
    const double x = plot_frame_x(f, p->phi), y = plot_frame_y(f, p->phi);
    cairo_new_sub_path(cr);
    cairo_arc(cr, x, y, radius, 0, 2 * ZENO_PI);
    plot_record_marker(cr, x, y, radius + PLOT_MARKER_LINE * plot_size_scale_of(cr) / 2);
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

plot_status plot_maps(const char *path, const plot_maps_input *in) {
  plot_canvas canvas;
  plot_status status = plot_canvas_open(&canvas, path, in->options);
  if (status == PLOT_OK) {
    plot_frame r, g;
    plot_maps_frames(canvas.width, canvas.height, plot_maps_g_top(in->maps->G_max), in->options, &r,
                     &g);
    plot_title(canvas.cr, canvas.width, in->title);
    plot_legend_item items[MAPS_LEGEND_ITEMS];
    const size_t n = legend_items(items, in->interval_count > 0);
    const double side = plot_flow_side(canvas.scales.size);
    plot_flow_legend(canvas.cr, items, n, side, canvas.width - side,
                     MAPS_LEGEND_Y * canvas.scales.font);
    panel(canvas.cr, &r, in, false);
    panel(canvas.cr, &g, in, true);
  }
  return plot_canvas_close(&canvas, status);
}
