// Region map figure (paper Fig. 8): one cell per grid point coloured by its
// region, a legend with the count of each class, and for centre-of-mass
// sweeps the contact configuration drawn over the map (Fig. 8a).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px]. */
/// Extra space above the overlay's legend rows, in rows.
#define REG_LEGEND_OVERLAY_GAP 0.5
/// Dash of the friction cone glyph in the legend [px on, px off].
#define REG_GLYPH_DASH_ON 3.0
#define REG_GLYPH_DASH_OFF 2.0
/// About this many ticks per axis.
#define REG_TICKS 7
/// Overlay sizes as fractions of the smaller data span.
#define REG_SURFACE_HALF 0.12
#define REG_CONE_LENGTH 0.08
#define REG_LOAD_LENGTH 0.12
#define REG_COM_RADIUS 4.0
#define REG_CONTACT_RADIUS 3.5
#define REG_ARROW_HEAD 9.0
#define REG_ARROW_HALF_ANGLE 0.4
#define REG_OVERLAY_LINE 2.0
/// Legend entries: regions 0-6, 7 not simulated, 7 rests, 7 departs, 7
/// returns slowly, 7 certified, errors.
#define REG_LEGEND_ENTRIES 13
/// The legend slot of region-7 points whose runs return slowly.
#define REG_SLOW_SLOT 10
/// The legend slot of region-7 points with a certificate.
#define REG_CERTIFIED_SLOT 11
/// The legend slot of error rows (after region 7's variants).
#define REG_ERROR_SLOT 12
#define REG_LABEL_SIZE PLOT_LEGEND_LABEL_SIZE
/// The overlay's legend rows and their labels.
#define REG_OVERLAY_ROWS 5
static const char *const OVERLAY_TEXT[REG_OVERLAY_ROWS] = {
    "contact point on its surface", "friction cone (dashed)", "body: legs to the centre of mass",
    "centre of mass of the scene", "load direction"};

plot_color plot_region_color(const zeno_region_point *p) {
  switch (p->region) {
    case ZENO_REGION_ERROR: return PLOT_COLOR_REGION_ERROR;
    case 0: return PLOT_COLOR_REGION0;
    case 1: return PLOT_COLOR_REGION1;
    case 2: return PLOT_COLOR_REGION2;
    case 3: return PLOT_COLOR_REGION3;
    case 4: return PLOT_COLOR_REGION4;
    case 5: return PLOT_COLOR_REGION5;
    case 6: return PLOT_COLOR_REGION6;
    default: break;
  }
  if (p->sim == ZENO_REGION_SIM_RESTS) return PLOT_COLOR_REGION7_RESTS;
  if (p->sim == ZENO_REGION_SIM_DEPARTS) return PLOT_COLOR_REGION7_DEPARTS;
  if (p->sim == ZENO_REGION_SIM_SLOW) return PLOT_COLOR_REGION7_SLOW;
  return PLOT_COLOR_REGION7;
}

// Legend slot of point k: its region, with region 7 split by certificate,
// then by simulation.
static int legend_slot(const plot_regions_input *in, size_t k) {
  const zeno_region_point *p = &in->grid[k];
  if (p->region == ZENO_REGION_ERROR) return REG_ERROR_SLOT;
  if (p->region < 7) return p->region;
  if (in->certified && in->certified[k] >= 1) return REG_CERTIFIED_SLOT;
  if (p->sim == ZENO_REGION_SIM_RESTS) return 8;
  if (p->sim == ZENO_REGION_SIM_DEPARTS) return 9;
  if (p->sim == ZENO_REGION_SIM_SLOW) return REG_SLOW_SLOT;
  return 7;
}

static const char *legend_text(int slot) {
  static const char *const TEXT[REG_LEGEND_ENTRIES] = {"0 infeasible",
                                                       "1 Painleve paradox",
                                                       "2 stable (Thm 3)",
                                                       "3 stable (Thm 4)",
                                                       "4 unstable, persistent (Thm 2)",
                                                       "5 unstable, not persistent (Thm 2)",
                                                       "6 ambiguous (Thm 1)",
                                                       "7 undecided",
                                                       "7 undecided, simulations rest",
                                                       "7 undecided, a simulation departs",
                                                       "7 undecided, simulations return slowly",
                                                       "7 undecided, certified (Lyapunov, SOS)",
                                                       "error: not analysed"};
  return TEXT[slot];
}

// The label of a slot in a compact legend: the region's number (docs/
// regions.md names them), region 7's variant in a word.
static const char *short_text(int slot) {
  static const char *const TEXT[REG_LEGEND_ENTRIES] = {
      "0", "1",       "2",         "3",      "4",           "5",    "6",
      "7", "7 rests", "7 departs", "7 slow", "7 certified", "error"};
  return TEXT[slot];
}

static plot_color slot_color(int slot) {
  if (slot == REG_CERTIFIED_SLOT) return PLOT_COLOR_REGION7_CERTIFIED;
  zeno_region_point p;
  memset(&p, 0, sizeof p);
  p.region = slot == REG_ERROR_SLOT ? ZENO_REGION_ERROR : slot < 7 ? slot : 7;
  p.sim = slot == 8               ? ZENO_REGION_SIM_RESTS
          : slot == 9             ? ZENO_REGION_SIM_DEPARTS
          : slot == REG_SLOW_SLOT ? ZENO_REGION_SIM_SLOW
                                  : ZENO_REGION_SIM_NONE;
  return plot_region_color(&p);
}

// Whether point k is certified outside region 7 (--certify-all): drawn as
// a dot over its region's colour, so that the certified set can be held
// against the maps' verdicts (the paper's Fig. 2).
static bool certified_dot(const plot_regions_input *in, size_t k) {
  const int region = in->grid[k].region;
  return in->certified && in->certified[k] >= 1 && region >= 0 && region < 7;
}

// Whether point k is certified while one of its perturbed runs departs
// (regions_certify_result.verdicts 2): a cross over it, so that the reader
// sees the certificate and the simulations disagree there.
static bool disagreement(const plot_regions_input *in, size_t k) {
  return in->certified && in->certified[k] == 2;
}

static void axis_range(const zeno_region_axis *a, double *lo, double *hi, double *cell) {
  plot_grid_range(a, lo, hi, cell);
}

static bool is_com_sweep(const plot_regions_input *in, bool *swapped) {
  const bool xy = strcmp(in->x->path, "com.x") == 0 && strcmp(in->y->path, "com.y") == 0;
  const bool yx = strcmp(in->x->path, "com.y") == 0 && strcmp(in->y->path, "com.x") == 0;
  *swapped = yx;
  return in->overlay && (xy || yx);
}

static bool compact_legend(const plot_regions_input *in);

/// The region rows of the legend: labels and colours; returns their count.
/// `full`: regions 0-6 always; else (a compact legend) only those present.
static size_t legend_rows(const plot_regions_input *in, char labels[][PLOT_LEGEND_LABEL_SIZE],
                          plot_color *colors, bool full) {
  long count[REG_LEGEND_ENTRIES] = {0};
  const size_t n = (size_t)in->x->count * (size_t)in->y->count;
  for (size_t k = 0; k < n; k++) count[legend_slot(in, k)]++;
  size_t rows = 0;
  for (int slot = 0; slot < REG_LEGEND_ENTRIES; slot++) {
    // Region 7's variants and errors when there; 0-6 too in a compact legend.
    if ((slot >= 7 || !full) && count[slot] == 0) continue;
    snprintf(labels[rows], PLOT_LEGEND_LABEL_SIZE, "%s: %ld",
             full ? legend_text(slot) : short_text(slot), count[slot]);
    if (colors) colors[rows] = slot_color(slot);
    rows++;
  }
  long dots = 0;
  for (size_t k = 0; k < n; k++) dots += certified_dot(in, k);
  if (dots > 0) {
    snprintf(labels[rows], PLOT_LEGEND_LABEL_SIZE,
             full ? "dot: certified (Lyapunov) in 0-6: %ld" : "dot: certified: %ld", dots);
    if (colors) colors[rows] = PLOT_COLOR_REGION7_CERTIFIED;
    rows++;
  }
  long crosses = 0;
  for (size_t k = 0; k < n; k++) crosses += disagreement(in, k);
  if (crosses > 0) {
    snprintf(labels[rows], PLOT_LEGEND_LABEL_SIZE,
             full ? "x: certified, but a perturbed run departs: %ld" : "x: departs: %ld", crosses);
    if (colors) colors[rows] = PLOT_COLOR_INK;
    rows++;
  }
  return rows;
}

static size_t region_rows(const plot_regions_input *in, char labels[][PLOT_LEGEND_LABEL_SIZE],
                          plot_color *colors) {
  return legend_rows(in, labels, colors, !compact_legend(in));
}

size_t plot_regions_legend(const plot_regions_input *in, char labels[][PLOT_LEGEND_LABEL_SIZE]) {
  size_t rows = region_rows(in, labels, NULL);
  bool swapped;
  if (is_com_sweep(in, &swapped) && !compact_legend(in))
    for (int k = 0; k < REG_OVERLAY_ROWS; k++)
      snprintf(labels[rows++], PLOT_LEGEND_LABEL_SIZE, "%s", OVERLAY_TEXT[k]);
  return rows;
}

/// The full legend's rows: every region row, and the overlay's.
static size_t full_legend(const plot_regions_input *in, char labels[][PLOT_LEGEND_LABEL_SIZE]) {
  size_t rows = legend_rows(in, labels, NULL, true);
  bool swapped;
  if (is_com_sweep(in, &swapped))
    for (int k = 0; k < REG_OVERLAY_ROWS; k++)
      snprintf(labels[rows++], PLOT_LEGEND_LABEL_SIZE, "%s", OVERLAY_TEXT[k]);
  return rows;
}

static double labels_width(char labels[][PLOT_LEGEND_LABEL_SIZE], size_t rows, double fs) {
  double text = 0;
  for (size_t k = 0; k < rows; k++)
    text = fmax(text, plot_text_width(labels[k], PLOT_FONT_TICK, fs));
  return (PLOT_SWATCH + PLOT_SWATCH_GAP) * fs + text;
}

// A figure too small for the full legend beside the map (it would go
// under it) lists only the regions present.
static bool compact_legend(const plot_regions_input *in) {
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  const size_t rows = full_legend(in, labels);
  double width, height;
  plot_layout_size(in->options, &width, &height);
  const double fs = plot_options_font_scale(in->options);
  bool swapped;
  plot_frame f = {0};
  axis_range(in->x, &f.x_min, &f.x_max, &(double){0});
  axis_range(in->y, &f.y_min, &f.y_max, &(double){0});
  plot_apply_limits(in->options, &f);
  plot_legend_layout l;
  plot_grid_layout(width, height, fs, rows, labels_width(labels, rows, fs),
                   is_com_sweep(in, &swapped), &f, &l);
  return l.below;
}

/// Width of the legend: a swatch, the gap and the longest label.
static double legend_width(const plot_regions_input *in, double fs) {
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  return labels_width(labels, plot_regions_legend(in, labels), fs);
}

/// The map's frame and its legend's place.
static void layout(const plot_regions_input *in, plot_frame *f, plot_legend_layout *legend) {
  bool swapped = false;
  const bool equal_scales = is_com_sweep(in, &swapped);
  memset(f, 0, sizeof *f);
  axis_range(in->x, &f->x_min, &f->x_max, &(double){0});
  axis_range(in->y, &f->y_min, &f->y_max, &(double){0});
  plot_apply_limits(in->options, f);
  double width, height;
  plot_layout_size(in->options, &width, &height);
  const double fs = plot_options_font_scale(in->options);
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  const size_t rows = plot_regions_legend(in, labels);
  // The map keeps equal scales for com sweeps; what that leaves is split
  // evenly around the map and its legend (no empty band on one side).
  plot_grid_layout(width, height, fs, rows, legend_width(in, fs), equal_scales, f, legend);
}

void plot_regions_frame(const plot_regions_input *in, plot_frame *frame) {
  plot_legend_layout legend;
  layout(in, frame, &legend);
}

static void draw_cells(cairo_t *cr, const plot_frame *f, const plot_regions_input *in) {
  double lo, hi, cx, cy;
  axis_range(in->x, &lo, &hi, &cx);
  axis_range(in->y, &lo, &hi, &cy);
  const size_t nx = in->x->count, ny = in->y->count;
  for (size_t iy = 0; iy < ny; iy++)
    for (size_t ix = 0; ix < nx; ix++) {
      const size_t k = iy * nx + ix;
      const zeno_region_point *p = &in->grid[k];
      plot_grid_cell(cr, f, p->x, p->y, cx, cy, slot_color(legend_slot(in, k)));
    }
}

/// Radius of a certificate's dot: a quarter of the smaller cell side,
/// within these bounds [px at 96 dpi].
#define REG_DOT_RADIUS_MIN 1.5
#define REG_DOT_RADIUS_MAX 6.0

static void draw_certified_dots(cairo_t *cr, const plot_frame *f, const plot_regions_input *in) {
  double lo, hi, cx, cy;
  axis_range(in->x, &lo, &hi, &cx);
  axis_range(in->y, &lo, &hi, &cy);
  const double side = fmin(fabs(plot_frame_x(f, cx) - plot_frame_x(f, 0)),
                           fabs(plot_frame_y(f, cy) - plot_frame_y(f, 0)));
  const double fs = plot_font_scale(cr);
  const double r = fmin(fmax(side / 4, REG_DOT_RADIUS_MIN * fs), REG_DOT_RADIUS_MAX * fs);
  const size_t n = in->x->count * in->y->count;
  for (size_t k = 0; k < n; k++) {
    const double x = plot_frame_x(f, in->grid[k].x), y = plot_frame_y(f, in->grid[k].y);
    if (certified_dot(in, k)) {
      cairo_new_sub_path(cr);
      cairo_arc(cr, x, y, r, 0, 2 * ZENO_PI);
      plot_record_marker(cr, x, y, r);
      plot_set_color(cr, PLOT_COLOR_REGION7_CERTIFIED);
      cairo_fill_preserve(cr);
      plot_set_color(cr, PLOT_COLOR_INK);
      plot_line_width(cr, PLOT_LINE_THIN);
      cairo_stroke(cr);
    }
    if (disagreement(in, k)) {
      cairo_move_to(cr, x - r, y - r);
      cairo_line_to(cr, x + r, y + r);
      cairo_move_to(cr, x - r, y + r);
      cairo_line_to(cr, x + r, y - r);
      plot_set_color(cr, PLOT_COLOR_INK);
      plot_line_width(cr, PLOT_LINE_THIN);
      cairo_stroke(cr);
    }
  }
}

static void arrow(cairo_t *cr, double x0, double y0, double x1, double y1) {
  cairo_move_to(cr, x0, y0);
  cairo_line_to(cr, x1, y1);
  cairo_stroke(cr);
  plot_arrow_head(cr, x1, y1, x1 - x0, y1 - y0, REG_ARROW_HEAD * plot_size_scale_of(cr),
                  REG_ARROW_HALF_ANGLE);
}

// Device point of a scene-frame point (swapping for com.y / com.x axes).
static void device(const plot_frame *f, bool swapped, double x, double y, double *u, double *v) {
  *u = plot_frame_x(f, swapped ? y : x);
  *v = plot_frame_y(f, swapped ? x : y);
}

// Fig. 8a: contacts at their scene positions with their surfaces and
// friction cones, legs to the base scene's centre of mass, the load.
static void draw_overlay(cairo_t *cr, const plot_frame *f, const zeno_scene *s, bool swapped) {
  const double span = fmin(f->x_max - f->x_min, f->y_max - f->y_min);
  const double com[2] = {s->com_shift[0], s->com_shift[1]};
  double cu, cv;
  device(f, swapped, com[0], com[1], &cu, &cv);
  plot_set_color(cr, PLOT_COLOR_OVERLAY);
  plot_line_width(cr, REG_OVERLAY_LINE);
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    const double p[2] = {com[0] + c->point[0], com[1] + c->point[1]};
    const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
    const double n[2] = {-t[1], t[0]};
    double u0, v0, u1, v1, pu, pv;
    device(f, swapped, p[0] - REG_SURFACE_HALF * span * t[0], p[1] - REG_SURFACE_HALF * span * t[1],
           &u0, &v0);
    device(f, swapped, p[0] + REG_SURFACE_HALF * span * t[0], p[1] + REG_SURFACE_HALF * span * t[1],
           &u1, &v1);
    device(f, swapped, p[0], p[1], &pu, &pv);
    cairo_move_to(cr, u0, v0);  // the surface
    cairo_line_to(cr, u1, v1);
    cairo_stroke(cr);
    cairo_move_to(cr, pu, pv);  // the leg
    cairo_line_to(cr, cu, cv);
    cairo_stroke(cr);
    const double half = atan(c->mu);  // the friction cone, dashed
    cairo_save(cr);
    plot_line_width(cr, PLOT_LINE_THIN);
    const double dash[2] = {PLOT_DASH_ON, PLOT_DASH_OFF};
    cairo_set_dash(cr, dash, 2, 0);
    for (int side = -1; side <= 1; side += 2) {
      const double a = side * half;
      const double d[2] = {n[0] * cos(a) - n[1] * sin(a), n[0] * sin(a) + n[1] * cos(a)};
      double eu, ev;
      device(f, swapped, p[0] + REG_CONE_LENGTH * span * d[0], p[1] + REG_CONE_LENGTH * span * d[1],
             &eu, &ev);
      cairo_move_to(cr, pu, pv);
      cairo_line_to(cr, eu, ev);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
    cairo_arc(cr, pu, pv, REG_CONTACT_RADIUS * plot_size_scale_of(cr), 0, 2 * ZENO_PI);
    cairo_fill(cr);
  }
  cairo_arc(cr, cu, cv, REG_COM_RADIUS * plot_size_scale_of(cr), 0, 2 * ZENO_PI);
  cairo_fill(cr);
  if (s->load_magnitude > 0) {
    const double d[2] = {sin(s->load_angle), -cos(s->load_angle)};
    double eu, ev;
    device(f, swapped, com[0] + REG_LOAD_LENGTH * span * d[0],
           com[1] + REG_LOAD_LENGTH * span * d[1], &eu, &ev);
    arrow(cr, cu, cv, eu, ev);
  }
}

/// The glyph of an overlay mark in a swatch-sized box at (x, y).
static void overlay_glyph(cairo_t *cr, int mark, double x, double y, double side) {
  const double cx = x + side / 2, cy = y + side / 2;
  plot_set_color(cr, PLOT_COLOR_OVERLAY);
  cairo_save(cr);
  plot_line_width(cr, mark == 1 ? PLOT_LINE_THIN : REG_OVERLAY_LINE);
  switch (mark) {
    case 0:  // the surface and the contact point on it
      cairo_move_to(cr, x, cy);
      cairo_line_to(cr, x + side, cy);
      cairo_stroke(cr);
      cairo_arc(cr, cx, cy, REG_CONTACT_RADIUS * plot_size_scale_of(cr), 0, 2 * ZENO_PI);
      cairo_fill(cr);
      break;
    case 1: {  // the cone: two dashed sides from the contact
      const double dash[2] = {REG_GLYPH_DASH_ON, REG_GLYPH_DASH_OFF};
      cairo_set_dash(cr, dash, 2, 0);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, cx, y + side);
      cairo_line_to(cr, x + side, y);
      cairo_stroke(cr);
      break;
    }
    case 2:  // a leg
      cairo_move_to(cr, x, y + side);
      cairo_line_to(cr, x + side, y);
      cairo_stroke(cr);
      break;
    case 3:  // the centre of mass
      cairo_arc(cr, cx, cy, REG_COM_RADIUS * plot_size_scale_of(cr), 0, 2 * ZENO_PI);
      cairo_fill(cr);
      break;
    default:  // the load
      arrow(cr, cx, y, cx, y + side);
      break;
  }
  cairo_restore(cr);
}

/// The legend: region rows, then the overlay's marks (after half a row's
/// gap when the legend is one column beside the map).
static void draw_legend(cairo_t *cr, const plot_legend_layout *l, const plot_regions_input *in,
                        bool overlay) {
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  plot_color colors[PLOT_REGIONS_LEGEND_MAX];
  const double fs = plot_font_scale(cr), side = PLOT_SWATCH * fs;
  const size_t rows = region_rows(in, labels, colors);
  double x, y;
  for (size_t k = 0; k < rows; k++) {
    plot_legend_position(l, k, &x, &y);
    plot_legend_row(cr, x, y, colors[k], labels[k]);
  }
  if (!overlay) return;
  for (int k = 0; k < REG_OVERLAY_ROWS; k++) {
    plot_legend_position(l, rows + (size_t)k, &x, &y);
    if (!l->below) y += REG_LEGEND_OVERLAY_GAP * l->row;
    overlay_glyph(cr, k, x, y, side);
    plot_set_color(cr, PLOT_COLOR_INK);
    plot_text(cr, x + side + PLOT_SWATCH_GAP * fs, y + side / 2, PLOT_FONT_TICK, OVERLAY_TEXT[k],
              0.0, 0.5);
  }
}

plot_status plot_regions(const char *path, const plot_regions_input *in) {
  if (in == NULL) return PLOT_ERR_FORMAT;
  plot_canvas c;
  const plot_status st = plot_grid_open(&c, path, in->x, in->y, in->grid, in->options);
  if (st != PLOT_OK) return st;
  cairo_t *cr = c.cr;
  bool swapped = false;
  const bool overlay = is_com_sweep(in, &swapped);
  plot_frame f;
  plot_legend_layout legend;
  layout(in, &f, &legend);
  // A compact legend (a small figure) leaves out the overlay's rows.
  const bool overlay_rows = overlay && !compact_legend(in);
  plot_title(cr, c.width, in->title ? in->title : "");
  plot_clip(cr, &f);
  draw_cells(cr, &f, in);
  draw_certified_dots(cr, &f, in);
  if (overlay) draw_overlay(cr, &f, in->overlay, swapped);
  cairo_reset_clip(cr);
  plot_axes(cr, &f, plot_nice_step(f.x_max - f.x_min, REG_TICKS),
            plot_nice_step(f.y_max - f.y_min, REG_TICKS), plot_axis_label(in->x->path),
            plot_axis_label(in->y->path));
  draw_legend(cr, &legend, in, overlay_rows);
  return plot_canvas_close(&c, PLOT_OK);
}
