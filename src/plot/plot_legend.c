// Legends that wrap: the items of the maps and trajectory figures, placed
// in rows under the title. A narrow figure gets more rows, never smaller
// text: the legend keeps the tick labels' size.
#include <math.h>

#include "plot/plot_internal.h"

/// Height of a box mark, and where a line mark sits above the baseline, in
/// lines of tick text.
#define LEGEND_BOX_HEIGHT 0.8
#define LEGEND_MARK_RAISE (1.0 / 3.0)
/// Descent of the tick text below its baseline, in lines of it (sans faces'
/// descenders reach about a quarter of the size).
#define LEGEND_DESCENT 0.3
/// Space between the figure's sides and a legend's rows [px at the design
/// size, times the size scale].
#define LEGEND_SIDE 8.0
/// Space between a marker on the frame's edge and the legend's text above
/// it [px at the design size, times the size scale].
#define LEGEND_MARKER_PAD 2.0

double plot_flow_row(double fs) { return PLOT_LEGEND_LINE * PLOT_FONT_TICK * fs; }

double plot_flow_side(double k) { return LEGEND_SIDE * k; }

/// Padding around the text of a PLOT_MARK_LABEL item, in lines of tick
/// text, and the space after a heading (PLOT_MARK_NONE) or a label box
/// [px, times the font scale].
#define LEGEND_LABEL_PAD 0.25
#define LEGEND_TIGHT_SPACING 4.0

/// Width of one item: sample, gap and text.
static double item_width(const plot_legend_item *item, double fs) {
  const double text = plot_text_width(item->text, PLOT_FONT_TICK, fs);
  if (item->mark == PLOT_MARK_NONE) return text;
  if (item->mark == PLOT_MARK_LABEL) return text + 2 * LEGEND_LABEL_PAD * PLOT_FONT_TICK * fs;
  return (PLOT_LEGEND_SAMPLE + PLOT_LEGEND_GAP) * fs + text;
}

/// Space after an item: headings and label boxes stay close to the next.
static double item_spacing(const plot_legend_item *item, double fs) {
  const bool tight = item->mark == PLOT_MARK_NONE || item->mark == PLOT_MARK_LABEL;
  return (tight ? LEGEND_TIGHT_SPACING : PLOT_LEGEND_SPACING) * fs;
}

/// The width a heading at k needs on its row: with all the label boxes
/// after it when they fit in `width`, else with the first.
static double group_width(const plot_legend_item *items, size_t n, size_t k, double width,
                          double fs) {
  double w = item_width(&items[k], fs);
  const double first = k + 1 < n ? w + item_spacing(&items[k], fs) + item_width(&items[k + 1], fs)
                                 : w;
  for (size_t i = k + 1; i < n && items[i].mark == PLOT_MARK_LABEL; i++)
    w += item_spacing(&items[i - 1], fs) + item_width(&items[i], fs);
  return w <= width ? w : first;
}

/// Calls place(k, x, row) for every item as the legend wraps within
/// `width`, each row centred; returns the rows.
static size_t flow(const plot_legend_item *items, size_t n, double width, double fs,
                   void (*place)(size_t k, double x, size_t row, void *ctx), void *ctx) {
  size_t row = 0, first = 0;  // items first..k-1 are on the row
  double x = 0, gap = 0;      // the row's width with the gap after its last item
  for (size_t k = 0; k <= n; k++) {
    // A heading keeps its group (the label boxes after it) on its row
    // when the group fits in one, else at least the first of them.
    const double w = k == n                            ? 0
                     : items[k].mark == PLOT_MARK_NONE ? group_width(items, n, k, width, fs)
                                                       : item_width(&items[k], fs);
    if (k == n || (x > 0 && x + w > width)) {  // the row ends before item k
      double at = fmax((width - (x - gap)) / 2, 0.0);
      for (size_t i = first; i < k && place; i++) {
        place(i, at, row, ctx);
        at += item_width(&items[i], fs) + item_spacing(&items[i], fs);
      }
      if (k == n) break;
      row++;
      first = k;
      x = 0;
    }
    gap = item_spacing(&items[k], fs);
    x += item_width(&items[k], fs) + gap;
  }
  return n > 0 ? row + 1 : 0;
}

size_t plot_flow_rows(const plot_legend_item *items, size_t n, double width, double fs) {
  return flow(items, n, width, fs, NULL, NULL);
}

double plot_legend_clearance(double fs, double k) {
  return fmax(LEGEND_DESCENT * PLOT_FONT_TICK * fs +
                  (PLOT_MARKER_RADIUS + PLOT_MARKER_LINE + LEGEND_MARKER_PAD) * k,
              PLOT_LEGEND_LINE * PLOT_FONT_TICK * fs);
}

typedef struct flow_draw {
  cairo_t *cr;
  const plot_legend_item *items;
  double left, base, fs;
} flow_draw;

static void mark(cairo_t *cr, const plot_legend_item *item, double x, double base, double fs) {
  static const double dash[] = {PLOT_DASH_ON, PLOT_DASH_OFF};
  const double sample = PLOT_LEGEND_SAMPLE * fs, size = PLOT_FONT_TICK * fs;
  const double y = base - LEGEND_MARK_RAISE * size;
  cairo_save(cr);
  plot_set_color(cr, item->color);
  switch (item->mark) {
    case PLOT_MARK_CIRCLE:
      cairo_arc(cr, x + sample / 2, y, PLOT_MARKER_RADIUS * plot_size_scale_of(cr), 0, 2 * ZENO_PI);
      plot_line_width(cr, PLOT_MARKER_LINE);
      break;
    case PLOT_MARK_BOX:
      cairo_rectangle(cr, x, base - LEGEND_BOX_HEIGHT * size, sample, LEGEND_BOX_HEIGHT * size);
      cairo_fill(cr);
      break;
    case PLOT_MARK_TICK:
      plot_line_width(cr, PLOT_LINE_THIN);
      cairo_move_to(cr, round(x + sample / 2) + 0.5, base);
      cairo_line_to(cr, round(x + sample / 2) + 0.5, base - size);
      break;
    default:
      plot_line_width(cr, item->mark == PLOT_MARK_LINE ? PLOT_LINE_DATA : PLOT_LINE_THIN);
      if (item->mark == PLOT_MARK_DASHED) cairo_set_dash(cr, dash, 2, 0);
      cairo_move_to(cr, x, y);
      cairo_line_to(cr, x + sample, y);
      break;
  }
  cairo_stroke(cr);
  cairo_restore(cr);
}

static void draw_item(size_t k, double x, size_t row, void *ctx) {
  const flow_draw *d = ctx;
  const plot_legend_item *item = &d->items[k];
  cairo_t *cr = d->cr;
  const double fs = d->fs, left = d->left + x;
  const double base = d->base + (double)row * plot_flow_row(fs);
  double text_x = left + (PLOT_LEGEND_SAMPLE + PLOT_LEGEND_GAP) * fs;
  if (item->mark == PLOT_MARK_NONE) {
    text_x = left;
  } else if (item->mark == PLOT_MARK_LABEL) {
    const double pad = LEGEND_LABEL_PAD * PLOT_FONT_TICK * fs;
    plot_set_color(cr, item->color);
    cairo_rectangle(cr, left, base - (1 + LEGEND_LABEL_PAD) * PLOT_FONT_TICK * fs,
                    item_width(item, fs),
                    (1 + LEGEND_LABEL_PAD + LEGEND_DESCENT) * PLOT_FONT_TICK * fs);
    cairo_fill(cr);
    text_x = left + pad;
  } else {
    mark(cr, item, left, base, fs);
  }
  plot_set_color(cr, PLOT_COLOR_INK);
  plot_text(cr, text_x, base, PLOT_FONT_TICK, item->text, 0.0, 1.0);
  plot_record_legend_item(cr);
  plot_record_legend(cr, left, base - (1 + LEGEND_LABEL_PAD) * PLOT_FONT_TICK * fs,
                     left + item_width(item, fs), base + LEGEND_DESCENT * PLOT_FONT_TICK * fs);
}

void plot_flow_legend(cairo_t *cr, const plot_legend_item *items, size_t n, double left,
                      double right, double base) {
  flow_draw d = {cr, items, left, base, plot_font_scale(cr)};
  const plot_text_role role = plot_text_role_set(cr, PLOT_TEXT_LEGEND);
  flow(items, n, right - left, d.fs, draw_item, &d);
  plot_text_role_set(cr, role);
}
