// The side panel of the Poincaré maps (key m): the reduced map R (26) and
// the growth map G (27) of the scene's two-contact equilibrium over the
// section angle phi in (-pi/2, pi/2), computed by the library
// (zeno_maps_compute, once per scene geometry), with the run's latest
// section angle marked.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view/view.h"

/// Samples of the panel's maps: plenty for a plot a few hundred pixels
/// wide (the breakpoints are added on both sides by the library).
#define MAPS_SAMPLES 1000
/// Panel layout [px]: widest, fraction of the canvas width, margins.
#define MAPS_MAX_WIDTH 320
#define MAPS_WIDTH_FRACTION 0.34
#define MAPS_MARGIN 8
#define MAPS_PAD 6
/// log10 G is drawn over at most this many decades either side of G = 1.
#define MAPS_DECADES 4.0
#define LABEL_SIZE 160

static const view_rgb PANEL = {255, 255, 255};
static const view_rgb AXIS = {120, 120, 120};
static const view_rgb R_COLOUR = {40, 90, 200};
static const view_rgb G_COLOUR = {30, 150, 70};
#define PANEL_ALPHA 240

/// A cache key of what the maps depend on: the contacts, the load, mass
/// and inertia (FNV-1a over their bytes).
static unsigned long long geometry_key(const zeno_scene *sc) {
  unsigned long long h = 1469598103934665603ull;
  const unsigned char *parts[] = {
      (const unsigned char *)sc->contacts,        (const unsigned char *)&sc->load_angle,
      (const unsigned char *)&sc->load_magnitude, (const unsigned char *)&sc->load_torque,
      (const unsigned char *)&sc->mass,           (const unsigned char *)&sc->rho};
  const size_t sizes[] = {sizeof sc->contacts,    sizeof sc->load_angle, sizeof sc->load_magnitude,
                          sizeof sc->load_torque, sizeof sc->mass,       sizeof sc->rho};
  for (size_t p = 0; p < sizeof sizes / sizeof sizes[0]; p++)
    for (size_t k = 0; k < sizes[p]; k++) h = (h ^ parts[p][k]) * 1099511628211ull;
  return h ^ (unsigned long long)sc->contact_count;
}

/// The maps of the run's scene, computed when the geometry changed.
static const zeno_maps *maps_of(view_canvas *cv, const zeno_scene *sc) {
  const unsigned long long key = geometry_key(sc);
  if (cv->maps_state != VIEW_MAPS_NONE && cv->maps_key == key)
    return cv->maps_state == VIEW_MAPS_READY ? &cv->maps : NULL;
  zeno_maps_free(&cv->maps);
  cv->maps_key = key;
  cv->maps_state = VIEW_MAPS_FAILED;
  if (sc->contact_count != 2) {
    snprintf(cv->maps_error, sizeof cv->maps_error, "the maps need two contacts");
    return NULL;
  }
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = MAPS_SAMPLES;
  zeno_error err;
  zeno_error_clear(&err);
  if (zeno_maps_compute(sc, &def, &cv->maps, &err) != ZENO_OK) {
    snprintf(cv->maps_error, sizeof cv->maps_error, "no maps: %s", err.message);
    return NULL;
  }
  cv->maps_state = VIEW_MAPS_READY;
  return &cv->maps;
}

bool view_section_angle(const view_run *run, double t, double *phi, long *count) {
  *count = 0;
  size_t row = 0;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const zeno_run_dir_event *e = &run->data.events[i];
    if (!(e->t <= t)) break;
    if (e->kind != ZENO_EVENT_IMPACT || !(e->impact_mask & 2u) ||
        e->mode_before.letter[0] == ZENO_LETTER_F)
      continue;
    // The row before the impact: the first row at its time.
    while (row < run->data.row_count && run->data.rows[row].t < e->t) row++;
    if (row >= run->data.row_count || run->data.rows[row].t != e->t) continue;
    const double *rate = run->data.rows[row].zod_rate;
    if (!(rate[1] < 0)) continue;
    *phi = atan(rate[2] / fabs(rate[1]));
    ++*count;
  }
  return *count > 0;
}

typedef struct plot_box {
  int x, y, w, h;
  double lo, hi;  ///< ordinate range
} plot_box;

static double px(const plot_box *b, double phi) {
  return b->x + (phi + ZENO_PI / 2) / ZENO_PI * b->w;
}
static double py(const plot_box *b, double v) {
  return b->y + b->h - (v - b->lo) / (b->hi - b->lo) * b->h;
}

static void frame(view_canvas *cv, const plot_box *b) {
  const SDL_Rect r = {b->x, b->y, b->w + 1, b->h + 1};
  view_set_colour(cv->renderer, AXIS, 255);
  SDL_RenderDrawRect(cv->renderer, &r);
}

static void marker(view_canvas *cv, const plot_box *b, double phi) {
  const int x = (int)lround(px(b, phi));
  view_set_colour(cv->renderer, VIEW_FORCE, 255);
  SDL_RenderDrawLine(cv->renderer, x, b->y, x, b->y + b->h);
}

/// Points (phi, value) of the defined samples, clipped to the box.
static void dots(view_canvas *cv, const plot_box *b, const zeno_maps *m, bool growth,
                 view_rgb colour) {
  view_set_colour(cv->renderer, colour, 255);
  for (size_t i = 0; i < m->sample_count; i++) {
    const zeno_cycle *c = &m->samples[i];
    if (!c->defined) continue;
    const double v = growth ? (c->G > 0 ? log10(c->G) : -INFINITY) : c->R;
    if (!(v >= b->lo && v <= b->hi)) continue;
    SDL_RenderDrawPointF(cv->renderer, (float)px(b, c->phi), (float)py(b, v));
  }
}

SDL_Rect view_maps_box(const view_canvas *cv) {
  int w = (int)(MAPS_WIDTH_FRACTION * cv->width);
  if (w > MAPS_MAX_WIDTH) w = MAPS_MAX_WIDTH;
  const SDL_Rect box = {MAPS_MARGIN, VIEW_OVERLAY_HEIGHT + MAPS_MARGIN, w,
                        cv->height - VIEW_OVERLAY_HEIGHT - VIEW_CHART_HEIGHT - 2 * MAPS_MARGIN};
  return box;
}

/// Gap between a tick label and its axis [px].
#define TICK_GAP 2
/// Labels of the section angle's ticks at -pi/2, 0, pi/2 [rad] and of the
/// abscissa, which sits between the last two.
static const char *const PHI_TICKS[3] = {"-1.57", "0", "1.57"};
#define PHI_TICK_COUNT 3
#define PHI_LABEL "phi [rad]"

/// Draws a small label with its left edge at x when it lies within
/// [left, right]; returns whether it was drawn.
static bool label_within(view_canvas *cv, int x, int y, int left, int right, const char *text) {
  const int w = view_text_width(cv->small_font, text);
  if (w <= 0 || x < left || x + w > right) return false;
  view_text_in(cv, cv->small_font, x, y, AXIS, text);
  return true;
}

/// The abscissa's tick labels on the line under plot b: -1.57 at its left
/// end, 0 at its middle, 1.57 at its right end, and "phi [rad]" between
/// the last two when there is room (each only where it fits the plot's
/// width, so narrow panels lose labels rather than overlap).
static void abscissa_ticks(view_canvas *cv, const plot_box *b, int y) {
  const double at[PHI_TICK_COUNT] = {-ZENO_PI / 2, 0, ZENO_PI / 2};
  int right_of_zero = b->x;
  for (int k = 0; k < PHI_TICK_COUNT; k++) {
    const int w = view_text_width(cv->small_font, PHI_TICKS[k]);
    const int x = (int)lround(px(b, at[k]) - w * (k / 2.0));  // left, centred, right aligned
    if (label_within(cv, x, y, b->x, b->x + b->w + 1, PHI_TICKS[k]) && k == 1)
      right_of_zero = x + w;
  }
  const int w = view_text_width(cv->small_font, PHI_LABEL);
  const int right_tick = (int)lround(px(b, ZENO_PI / 2)) -
                         view_text_width(cv->small_font, PHI_TICKS[2]);
  const int x = (right_of_zero + right_tick - w) / 2;
  if (x > right_of_zero + TICK_GAP && x + w < right_tick - TICK_GAP)
    label_within(cv, x, y, b->x, b->x + b->w, PHI_LABEL);
}

/// The ordinate's tick labels left of plot b: its top and bottom values
/// (and `middle` when it lies inside), right-aligned at the plot's edge.
static void ordinate_ticks(view_canvas *cv, const plot_box *b, int left, const char *format,
                           double middle) {
  const double values[3] = {b->hi, b->lo, middle};
  const int line = VIEW_SMALL_LINE;
  const int ys[3] = {b->y, b->y + b->h - line, (int)lround(py(b, middle)) - line / 2};
  for (int k = 0; k < 3; k++) {
    if (k == 2 &&
        !(middle > b->lo && middle < b->hi && ys[2] > ys[0] + line && ys[2] + line < ys[1]))
      continue;
    char text[32];
    snprintf(text, sizeof text, format, values[k]);
    const int w = view_text_width(cv->small_font, text);
    label_within(cv, b->x - TICK_GAP - w, ys[k], left, b->x, text);
  }
}

/// Width of the ordinate labels' column [px]: the widest of R's ends.
static int ordinate_width(view_canvas *cv) {
  return view_text_width(cv->small_font, PHI_TICKS[0]) + 2 * TICK_GAP;
}

void view_draw_maps(view_canvas *cv, const view_run *run, const view_play *play) {
  const SDL_Rect box = view_maps_box(cv);
  view_set_colour(cv->renderer, PANEL, PANEL_ALPHA);
  SDL_RenderFillRect(cv->renderer, &box);
  view_set_colour(cv->renderer, VIEW_GHOST, 255);
  SDL_RenderDrawRect(cv->renderer, &box);
  const int room = box.w - 2 * MAPS_PAD, line = VIEW_SMALL_LINE;
  const int x = box.x + MAPS_PAD;
  int y = box.y + MAPS_PAD / 2;
  const zeno_maps *m = maps_of(cv, &run->scene);
  if (m == NULL) {
    view_text_fit_small(cv, x, y, room, VIEW_FORCE, cv->maps_error);
    return;
  }
  double phi = 0;
  long crossings = 0;
  const bool marked = !m->swapped && view_section_angle(run, play->t, &phi, &crossings);
  char label[LABEL_SIZE];
  if (m->swapped) snprintf(label, sizeof label, "contacts swapped (eq. 13): no marker");
  else if (marked)
    snprintf(label, sizeof label, "phi = %.3f rad, section crossing %ld", phi, crossings);
  else snprintf(label, sizeof label, "phi: no section crossing yet");
  view_text_fit_small(cv, x, y, room, VIEW_FORCE, label);
  y += line;
  // Two plots share what is left: a title line and a line of abscissa
  // ticks each, the ordinate ticks in a column at their left.
  const int plot_h = (box.y + box.h - MAPS_PAD - y) / 2 - 2 * line;
  if (plot_h < line) return;
  const int column = ordinate_width(cv);
  const int plot_x = x + column, plot_w = room - column;
  view_text_fit_small(cv, x, y, room, R_COLOUR, "R(phi): section angle one cycle later [rad]");
  y += line;
  const plot_box r = {plot_x, y, plot_w, plot_h - 2, -ZENO_PI / 2, ZENO_PI / 2};
  frame(cv, &r);
  view_set_colour(cv->renderer, VIEW_GHOST, 255);  // the diagonal R = phi
  SDL_RenderDrawLineF(cv->renderer, (float)px(&r, -ZENO_PI / 2), (float)py(&r, -ZENO_PI / 2),
                      (float)px(&r, ZENO_PI / 2), (float)py(&r, ZENO_PI / 2));
  dots(cv, &r, m, false, R_COLOUR);
  if (marked) marker(cv, &r, phi);
  ordinate_ticks(cv, &r, x, "%.3g", 0);
  abscissa_ticks(cv, &r, y + plot_h);
  y += plot_h + line;
  view_text_fit_small(cv, x, y, room, G_COLOUR, "log10 G(phi): growth of the impact speed");
  y += line;
  double lo = 0, hi = 0;
  for (size_t i = 0; i < m->sample_count; i++)
    if (m->samples[i].defined && m->samples[i].G > 0) {
      lo = fmin(lo, log10(m->samples[i].G));
      hi = fmax(hi, log10(m->samples[i].G));
    }
  plot_box g = {plot_x, y, plot_w, plot_h - 2, fmax(lo, -MAPS_DECADES), fmin(hi, MAPS_DECADES)};
  if (!(g.hi > g.lo)) g.hi = g.lo + 1;
  frame(cv, &g);
  view_set_colour(cv->renderer, VIEW_GHOST, 255);  // G = 1
  if (g.lo <= 0 && g.hi >= 0)
    SDL_RenderDrawLineF(cv->renderer, (float)g.x, (float)py(&g, 0), (float)(g.x + g.w),
                        (float)py(&g, 0));
  dots(cv, &g, m, true, G_COLOUR);
  if (marked) marker(cv, &g, phi);
  ordinate_ticks(cv, &g, x, "%.2g", 0);
  abscissa_ticks(cv, &g, y + plot_h);
}
