// The interval graph of Definition 5 (the paper's Fig. 7b) as the library
// built it for the verdict (zeno_interval_graph_build, merged): one node per
// interval in phi order, one arc per arc of the graph. Draws only.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px]. */
#define GRAPH_MARGIN_X 40.0
#define GRAPH_NODE_Y (PLOT_DESIGN_HEIGHT / 2.0)  ///< node centres
#define GRAPH_NODE_HEIGHT 58.0
#define GRAPH_NODE_MAX_WIDTH 150.0
#define GRAPH_NODE_FILL 0.8     ///< node width / slot width
#define GRAPH_NODE_RADIUS 8.0   ///< rounded corners
#define GRAPH_NODE_PADDING 6.0  ///< text inset
#define GRAPH_LINE_GAP 4.0      ///< between text lines
/// Arcs: height over the nodes for neighbours, growth per skipped node,
/// and the largest height that stays inside the figure.
#define GRAPH_ARC_BASE 45.0
#define GRAPH_ARC_STEP 35.0
#define GRAPH_ARC_MAX (GRAPH_NODE_Y - GRAPH_NODE_HEIGHT / 2 - 90.0)
/// Where arcs leave and enter a node, as a fraction of its half width.
#define GRAPH_PORT 0.5
/// Self-edge loops: half width at the node and height.
#define GRAPH_LOOP_HALF 10.0
#define GRAPH_LOOP_HEIGHT 50.0
#define GRAPH_LOOP_SPREAD 30.0
/// Arrow heads: length and half angle.
#define GRAPH_ARROW_LENGTH 11.0
#define GRAPH_ARROW_ANGLE 0.4
#define GRAPH_EDGE_LINE 1.6
/// Legend row near the bottom (the layout is the design size's,
/// PLOT_DESIGN_WIDTH x PLOT_DESIGN_HEIGHT, scaled to the figure).
#define GRAPH_LEGEND_Y (PLOT_DESIGN_HEIGHT - 30.0)
#define GRAPH_LABEL_SIZE 48

/* ---- nodes ----------------------------------------------------------------- */

typedef struct graph_layout {
  size_t n;
  double slot;   ///< horizontal distance of node centres
  double width;  ///< node width
} graph_layout;

static double node_x(const graph_layout *l, size_t i) {
  return GRAPH_MARGIN_X + ((double)i + 0.5) * l->slot;
}

static void rounded_box(cairo_t *cr, double x, double y, double w, double h) {
  const double r = GRAPH_NODE_RADIUS;
  cairo_new_sub_path(cr);
  cairo_arc(cr, x + w - r, y + r, r, -ZENO_PI / 2, 0);
  cairo_arc(cr, x + w - r, y + h - r, r, 0, ZENO_PI / 2);
  cairo_arc(cr, x + r, y + h - r, r, ZENO_PI / 2, ZENO_PI);
  cairo_arc(cr, x + r, y + r, r, ZENO_PI, 3 * ZENO_PI / 2);
  cairo_close_path(cr);
}

/// Font size at which text fits into width (at most `size`).
static double fitting_size(cairo_t *cr, const char *text, double width, double size) {
  cairo_set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo_text_extents(cr, text, &e);
  return e.width > width ? size * width / e.width : size;
}

static void node(cairo_t *cr, const graph_layout *l, size_t i, const zeno_interval *iv) {
  const double x = node_x(l, i), top = GRAPH_NODE_Y - GRAPH_NODE_HEIGHT / 2;
  rounded_box(cr, x - l->width / 2, top, l->width, GRAPH_NODE_HEIGHT);
  plot_set_color(cr, iv->safe ? PLOT_COLOR_SAFE : PLOT_COLOR_UNSAFE);
  cairo_fill(cr);
  char name[GRAPH_LABEL_SIZE], range[GRAPH_LABEL_SIZE];
  snprintf(name, sizeof name, "I%zu %s", i + 1, iv->safe ? "safe" : "unsafe");
  snprintf(range, sizeof range, "[%.3f, %.3f]", iv->lo, iv->hi);
  const double inner = l->width - 2 * GRAPH_NODE_PADDING, fs = plot_font_scale(cr);
  const double size = fmin(fitting_size(cr, name, inner, PLOT_FONT_LABEL * fs),
                           fitting_size(cr, range, inner, PLOT_FONT_LABEL * fs)) /
                      fs;
  plot_set_color(cr, PLOT_COLOR_BACKGROUND);
  plot_text(cr, x, GRAPH_NODE_Y - GRAPH_LINE_GAP / 2, size, name, 0.5, 1.0);
  plot_text(cr, x, GRAPH_NODE_Y + GRAPH_LINE_GAP / 2, size, range, 0.5, 0.0);
}

/* ---- edges ----------------------------------------------------------------- */

/// Arrow head at (x, y) pointing along the direction (dx, dy).
static void arrow_head(cairo_t *cr, double x, double y, double dx, double dy) {
  plot_arrow_head(cr, x, y, dx, dy, GRAPH_ARROW_LENGTH, GRAPH_ARROW_ANGLE);
}

/// A cubic from (x0, y) to (x1, y) bulging by `bulge` (negative: upwards),
/// with its arrow head at the end.
static void arc_edge(cairo_t *cr, double x0, double x1, double y, double bulge, double spread,
                     bool dashed) {
  static const double dash[] = {PLOT_DASH_ON, PLOT_DASH_OFF};
  const double cx0 = x0 + spread, cx1 = x1 - spread, cy = y + bulge;
  cairo_save(cr);
  if (dashed) cairo_set_dash(cr, dash, 2, 0);
  cairo_move_to(cr, x0, y);
  cairo_curve_to(cr, cx0, cy, cx1, cy, x1, y);
  cairo_stroke(cr);
  cairo_restore(cr);
  arrow_head(cr, x1, y, x1 - cx1, y - cy);
}

static void edge(cairo_t *cr, const graph_layout *l, size_t i, size_t j) {
  const double half = l->width / 2, top = GRAPH_NODE_Y - GRAPH_NODE_HEIGHT / 2;
  if (i == j) {
    const double x = node_x(l, i);
    arc_edge(cr, x - GRAPH_LOOP_HALF, x + GRAPH_LOOP_HALF, top, -GRAPH_LOOP_HEIGHT,
             -GRAPH_LOOP_SPREAD, true);
    return;
  }
  const size_t skipped = (j > i ? j - i : i - j) - 1;
  const double height = fmin(GRAPH_ARC_BASE + GRAPH_ARC_STEP * (double)skipped, GRAPH_ARC_MAX);
  if (j > i)  // to the right: above the row
    arc_edge(cr, node_x(l, i) + GRAPH_PORT * half, node_x(l, j) - GRAPH_PORT * half, top, -height,
             0, false);
  else  // to the left: below the row
    arc_edge(cr, node_x(l, i) - GRAPH_PORT * half, node_x(l, j) + GRAPH_PORT * half,
             top + GRAPH_NODE_HEIGHT, height, 0, false);
}

static void edges(cairo_t *cr, const graph_layout *l, const unsigned char *e) {
  plot_set_color(cr, PLOT_COLOR_EDGE);
  plot_line_width(cr, GRAPH_EDGE_LINE);
  for (size_t i = 0; i < l->n; i++)
    for (size_t j = 0; j < l->n; j++)
      if (e[i * l->n + j]) edge(cr, l, i, j);
}

/* ---- legend and figure ------------------------------------------------------ */

/// The legend: the node colours and the two kinds of arc, in rows that
/// wrap, the last one's baseline GRAPH_LEGEND_Y.
static void legend(cairo_t *cr) {
  const plot_legend_item ITEMS[] = {
      {PLOT_MARK_BOX, PLOT_COLOR_SAFE, "safe: G < 1 or R undefined"},
      {PLOT_MARK_BOX, PLOT_COLOR_UNSAFE, "unsafe"},
      {PLOT_MARK_LINE, PLOT_COLOR_EDGE, "arc: R maps into"},
      {PLOT_MARK_DASHED, PLOT_COLOR_EDGE, "R maps within merged intervals"},
  };
  const size_t n = sizeof ITEMS / sizeof *ITEMS;
  const double fs = plot_font_scale(cr), width = PLOT_DESIGN_WIDTH - 2 * GRAPH_MARGIN_X;
  const size_t rows = plot_flow_rows(ITEMS, n, width, fs);
  plot_flow_legend(cr, ITEMS, n, GRAPH_MARGIN_X, PLOT_DESIGN_WIDTH - GRAPH_MARGIN_X,
                   GRAPH_LEGEND_Y - (double)(rows - 1) * plot_flow_row(fs));
}

plot_status plot_graph(const char *path, const plot_graph_input *in) {
  plot_canvas canvas;
  plot_status status = plot_canvas_open(&canvas, path, in->options);
  if (status != PLOT_OK) return plot_canvas_close(&canvas, status);
  cairo_t *cr = canvas.cr;
  // The graph keeps its 900 x 600 layout, scaled uniformly to fit the
  // figure and centred.
  const double scale = fmin(canvas.width / PLOT_DESIGN_WIDTH, canvas.height / PLOT_DESIGN_HEIGHT);
  cairo_translate(cr, (canvas.width - scale * PLOT_DESIGN_WIDTH) / 2,
                  (canvas.height - scale * PLOT_DESIGN_HEIGHT) / 2);
  cairo_scale(cr, scale, scale);
  // Text, lines and arrows keep the sizes of the figure's own size scale
  // (the tick labels' size of any figure this size), not the design's
  // shrunk by `scale`.
  canvas.scales.font /= scale;
  canvas.scales.size /= scale;
  canvas.scales.line_min /= scale;
  plot_title(cr, PLOT_DESIGN_WIDTH, in->title);
  if (in->note) {
    plot_set_color(cr, PLOT_COLOR_INK);
    plot_text(cr, PLOT_DESIGN_WIDTH / 2.0,
              PLOT_TITLE_BASELINE * canvas.scales.font + plot_flow_row(canvas.scales.font),
              PLOT_FONT_TICK, in->note, 0.5, 1.0);
  }
  const zeno_interval_graph *g = in->graph;
  if (g != NULL && g->count > 0) {
    graph_layout l = {g->count, (PLOT_DESIGN_WIDTH - 2 * GRAPH_MARGIN_X) / (double)g->count, 0};
    l.width = fmin(GRAPH_NODE_FILL * l.slot, GRAPH_NODE_MAX_WIDTH);
    edges(cr, &l, g->arc);
    for (size_t i = 0; i < g->count; i++) node(cr, &l, i, &g->intervals[i]);
    legend(cr);
  }
  return plot_canvas_close(&canvas, status);
}
