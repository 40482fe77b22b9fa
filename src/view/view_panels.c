// Panels drawn over the frame: the key help (h) and the colour legend (l).
// Both fit the canvas: the help's lines shrink to the small font and its
// spacing to the room there is; the legend takes a second column when the
// scene area is too low for one.
#include <math.h>

#include "view/view.h"

static const view_rgb PANEL = {255, 255, 255};
/// Opacity of the panels [0-255].
#define PANEL_ALPHA 235
/// Layout [px]: margin from the canvas edges, padding inside a panel, the
/// legend's swatch width and the gap between swatch and text.
#define PANEL_MARGIN 8
#define PANEL_PADDING 6
#define SWATCH_PX 26
#define SWATCH_GAP 6
/// The help's indent from the canvas sides [px] when the canvas is at
/// least HELP_WIDE_PX wide (else PANEL_MARGIN).
#define HELP_INDENT 40
#define HELP_WIDE_PX 640
/// Sizes of the legend's swatches [px].
#define SWATCH_DISC_PX 5.0
#define SWATCH_WIDTH_PX 3.0

const char *const VIEW_HELP_LINES[] = {
    "space      pause / play",
    "right      step to the next event (pauses)",
    "left       back to the previous event",
    "shift+l/r  scrub by 1/200 of the run",
    "1-5        speed 1x, 0.1x, 0.01x, 0.001x, 0.0001x",
    "z          Zeno warp: every event interval the same wall time",
    "+/- wheel  zoom the displacement from equilibrium;  0: automatic",
    "r          restart",
    "p          perturb: a random small impulse, keep simulating",
    "drag       apply an impulse at the grabbed body point",
    "s          screenshot (view-N.png)",
    "l          colour legend on / off",
    "m          Poincare maps R, G with the latest section angle",
    "(file)     view reloads the scene when its file changes on disk",
    "h          this help;  q / Esc  quit",
};
const int VIEW_HELP_LINE_COUNT = (int)(sizeof VIEW_HELP_LINES / sizeof VIEW_HELP_LINES[0]);

void view_draw_help(view_canvas *cv) {
  const int n = VIEW_HELP_LINE_COUNT;
  const int indent = cv->width >= HELP_WIDE_PX ? HELP_INDENT : PANEL_MARGIN;
  // Line spacing: the normal one when the lines fit under the text band,
  // else what there is, but never less than the small font's.
  const int room = cv->height - VIEW_OVERLAY_HEIGHT - 2 * PANEL_MARGIN;
  int line = VIEW_TEXT_LINE;
  if (line * (n + 1) > room) line = room / (n + 1);
  if (line < VIEW_SMALL_LINE) line = VIEW_SMALL_LINE;
  const bool small = line < VIEW_TEXT_LINE;
  const SDL_Rect box = {indent, VIEW_OVERLAY_HEIGHT + PANEL_MARGIN, cv->width - 2 * indent,
                        line * (n + 1)};
  view_set_colour(cv->renderer, PANEL, PANEL_ALPHA);
  SDL_RenderFillRect(cv->renderer, &box);
  view_set_colour(cv->renderer, VIEW_INK, 255);
  SDL_RenderDrawRect(cv->renderer, &box);
  const int width = box.w - 2 * PANEL_PADDING;
  for (int k = 0; k < n; k++) {
    const int x = box.x + PANEL_PADDING, y = box.y + line / 2 + k * line;
    if (small) view_text_fit_small(cv, x, y, width, VIEW_INK, VIEW_HELP_LINES[k]);
    else view_text_fit(cv, x, y, width, VIEW_INK, VIEW_HELP_LINES[k]);
  }
}

/* ---- the legend ------------------------------------------------------------ */

typedef enum { SWATCH_DISC, SWATCH_ARROW, SWATCH_LINE, SWATCH_THIN } swatch_kind;

typedef struct legend_entry {
  swatch_kind kind;
  const view_rgb *colour;
  const char *text;
} legend_entry;

static const legend_entry LEGEND[] = {
    {SWATCH_DISC, &VIEW_LETTER_COLOUR[ZENO_LETTER_F], "F  free"},
    {SWATCH_DISC, &VIEW_LETTER_COLOUR[ZENO_LETTER_S], "S  sticking"},
    {SWATCH_DISC, &VIEW_LETTER_COLOUR[ZENO_LETTER_P], "P  slipping forward"},
    {SWATCH_DISC, &VIEW_LETTER_COLOUR[ZENO_LETTER_N], "N  slipping backward"},
    {SWATCH_ARROW, &VIEW_FORCE, "contact force"},
    {SWATCH_ARROW, &VIEW_IMPULSE, "impulse of the impact"},
    {SWATCH_ARROW, &VIEW_LOAD, "load at the centre of mass"},
    {SWATCH_LINE, &VIEW_CONE, "friction cone"},
    {SWATCH_THIN, &VIEW_GHOST, "ghost: equilibrium pose"},
};
#define LEGEND_COUNT ((int)(sizeof LEGEND / sizeof LEGEND[0]))

typedef struct legend_layout {
  SDL_Rect box;
  int rows, columns, column_width;
} legend_layout;

static legend_layout legend_layout_of(const view_canvas *cv) {
  legend_layout l;
  int text = 0;
  for (int k = 0; k < LEGEND_COUNT; k++) {
    int w = 0, h = 0;
    if (cv->small_font != NULL && TTF_SizeUTF8(cv->small_font, LEGEND[k].text, &w, &h) == 0 &&
        w > text)
      text = w;
  }
  const int area = cv->height - VIEW_OVERLAY_HEIGHT - VIEW_CHART_HEIGHT - 2 * PANEL_MARGIN;
  int rows = (area - 2 * PANEL_PADDING) / VIEW_SMALL_LINE;
  if (rows < 1) rows = 1;
  if (rows > LEGEND_COUNT) rows = LEGEND_COUNT;
  l.rows = rows;
  l.columns = (LEGEND_COUNT + rows - 1) / rows;
  l.column_width = SWATCH_PX + SWATCH_GAP + text + PANEL_PADDING;
  l.box.w = l.columns * l.column_width + PANEL_PADDING;
  const int widest = cv->width - 2 * PANEL_MARGIN;
  if (l.box.w > widest) {
    l.column_width -= (l.box.w - widest + l.columns - 1) / l.columns;
    l.box.w = widest;
  }
  l.box.h = rows * VIEW_SMALL_LINE + 2 * PANEL_PADDING;
  l.box.x = cv->width - PANEL_MARGIN - l.box.w;
  l.box.y = VIEW_OVERLAY_HEIGHT + PANEL_MARGIN;
  return l;
}

SDL_Rect view_legend_box(const view_canvas *cv) { return legend_layout_of(cv).box; }

static void swatch(view_canvas *cv, const legend_entry *e, int x, int y) {
  const double mid = y + VIEW_SMALL_LINE / 2.0;
  const double a[2] = {x + 2, mid}, b[2] = {x + SWATCH_PX - 2, mid};
  const double centre[2] = {x + SWATCH_PX / 2.0, mid};
  switch (e->kind) {
    case SWATCH_DISC: view_disc(cv->renderer, centre, SWATCH_DISC_PX, *e->colour); break;
    case SWATCH_ARROW: view_arrow(cv->renderer, a, 1, 0, SWATCH_PX - 4, *e->colour); break;
    case SWATCH_LINE:
      view_thick_line(cv->renderer, a, b, VIEW_CONE_WIDTH_PX, *e->colour, 255);
      break;
    case SWATCH_THIN:
      view_set_colour(cv->renderer, *e->colour, 255);
      SDL_RenderDrawLineF(cv->renderer, (float)a[0], (float)a[1], (float)b[0], (float)b[1]);
      break;
  }
}

void view_draw_legend(view_canvas *cv) {
  const legend_layout l = legend_layout_of(cv);
  view_set_colour(cv->renderer, PANEL, PANEL_ALPHA);
  SDL_RenderFillRect(cv->renderer, &l.box);
  view_set_colour(cv->renderer, VIEW_GHOST, 255);
  SDL_RenderDrawRect(cv->renderer, &l.box);
  for (int k = 0; k < LEGEND_COUNT; k++) {
    const int x = l.box.x + PANEL_PADDING + (k / l.rows) * l.column_width;
    const int y = l.box.y + PANEL_PADDING + (k % l.rows) * VIEW_SMALL_LINE;
    swatch(cv, &LEGEND[k], x, y);
    const int tx = x + SWATCH_PX + SWATCH_GAP;
    const int room = l.column_width - SWATCH_PX - SWATCH_GAP - PANEL_PADDING;
    // The small font already: view_text_fit() would only cut it.
    int w = 0, h = 0;
    if (cv->small_font != NULL && TTF_SizeUTF8(cv->small_font, LEGEND[k].text, &w, &h) == 0 &&
        w <= room)
      view_text_in(cv, cv->small_font, tx, y, VIEW_INK, LEGEND[k].text);
    else view_text_fit(cv, tx, y, room, VIEW_INK, LEGEND[k].text);
  }
}

void view_draw_banner(view_canvas *cv, const char *lead, const char *text) {
  const int height = 2 * VIEW_TEXT_LINE + 2 * PANEL_PADDING;
  const SDL_Rect box = {PANEL_MARGIN, cv->height - VIEW_CHART_HEIGHT - PANEL_MARGIN - height,
                        cv->width - 2 * PANEL_MARGIN, height};
  view_set_colour(cv->renderer, PANEL, PANEL_ALPHA);
  SDL_RenderFillRect(cv->renderer, &box);
  view_set_colour(cv->renderer, VIEW_FORCE, 255);
  SDL_RenderDrawRect(cv->renderer, &box);
  const int room = box.w - 2 * PANEL_PADDING;
  view_text_fit(cv, box.x + PANEL_PADDING, box.y + PANEL_PADDING, room, VIEW_FORCE, lead);
  view_text_fit(cv, box.x + PANEL_PADDING, box.y + PANEL_PADDING + VIEW_TEXT_LINE, room, VIEW_INK,
                text);
}
