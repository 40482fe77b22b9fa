// The strip chart under the scene: q' ((z1, z2, x2) for two contacts,
// (z1, x1, theta) for one), or for more contacts a lane per contact's gap,
// against time (or against the event count in Zeno warp), one lane each
// with its own scale, event ticks, and the cursor at the display time.
#include <math.h>
#include <stdio.h>

#include "view/view.h"

static const view_rgb CHART_AXIS = {120, 120, 120};
/// Chart curves z1, z2, x2 (and, for more contacts, the gaps in turn).
#define CURVE_COLOURS 6
static const view_rgb CURVE[CURVE_COLOURS] = {{40, 90, 200},  {200, 50, 50},  {30, 150, 70},
                                              {150, 60, 170}, {200, 120, 20}, {20, 140, 150}};

/// What each lane holds: the state's zod (zeno_state.zod), (z1, z2, x2)
/// with two contacts and (z1, x1, theta) with one.
typedef struct lane_label {
  const char *name;     ///< the symbol, in the left column
  const char *meaning;  ///< the quantity, in the lane
  bool angle;           ///< [rad] rather than [length]
} lane_label;
static const lane_label TWO_CONTACTS[3] = {
    {"z1", "z1: gap at contact 1", false},
    {"z2", "z2: gap at contact 2", false},
    {"x2", "x2: slip of contact 2 along its surface", false}};
static const lane_label ONE_CONTACT[3] = {{"z1", "z1: gap at the contact", false},
                                          {"x1", "x1: slip along the surface", false},
                                          {"theta", "theta: tilt of the body", true}};

/// Room for a lane's meaning ("z16: gap at contact 16").
#define MEANING_SIZE 64

int view_chart_lanes(const zeno_scene *scene) {
  return scene->contact_count > ZENO_PAIR_CONTACTS ? scene->contact_count : 3;
}

double view_chart_value(const zeno_scene *scene, const zeno_run_dir_row *row, int lane) {
  if (scene->contact_count <= ZENO_PAIR_CONTACTS) return row->zod[lane];
  // The gap of contact `lane` under the ZOD (the linearised kinematics,
  // as the rows' q' are): n . (d + theta J p) from the pose q = (d, theta).
  const zeno_contact_def *c = &scene->contacts[lane];
  const double n[2] = {-sin(c->surface_angle), cos(c->surface_angle)};
  const double w[2] = {row->q[0] - row->q[2] * c->point[1], row->q[1] + row->q[2] * c->point[0]};
  return n[0] * w[0] + n[1] * w[1];
}

// The label of lane k: the fixed ones for one and two contacts; for more,
// the gap of contact k + 1.
static lane_label lane_of(const zeno_scene *scene, int k, char name[ZENO_ZOD_NAME_SIZE],
                          char meaning[MEANING_SIZE]) {
  if (scene->contact_count <= ZENO_PAIR_CONTACTS)
    return (scene->contact_count == 1 ? ONE_CONTACT : TWO_CONTACTS)[k];
  snprintf(name, ZENO_ZOD_NAME_SIZE, "z%d", (k + 1) % 100);
  snprintf(meaning, MEANING_SIZE, "%s: gap at contact %d", name, (k + 1) % 100);
  const lane_label lab = {name, meaning, false};
  return lab;
}

/// Strip chart layout [px]: left label column, margins, tick heights.
#define CHART_LEFT 70
#define CHART_RIGHT 12
#define CHART_TOP 6
#define CHART_BOTTOM 18
#define TICK_IMPACT_PX 8
#define TICK_OTHER_PX 4
/// A curve's largest |value| reaches this fraction of its lane height
/// from the lane's middle line.
#define CHART_LANE_FILL 0.45
/// x of the lane labels, and the inset of the lane notes from the plot
/// area's corner [px].
#define CHART_LABEL_X 4
#define CHART_NOTE_INSET 3
#define LABEL_SIZE 128
/// Opacity of the backing of the lane notes [0-255].
#define NOTE_ALPHA 210

typedef struct chart_box {
  int x0, x1, y0, y1;  ///< plot area [px]
  double length;       ///< abscissa range: t_end, or the warp length
} chart_box;

static chart_box chart_layout(const view_canvas *cv, const view_run *run, bool warp) {
  chart_box b;
  b.x0 = CHART_LEFT;
  b.x1 = cv->width - CHART_RIGHT;
  b.y0 = cv->height - VIEW_CHART_HEIGHT + CHART_TOP;
  b.y1 = cv->height - CHART_BOTTOM;
  b.length = warp ? view_warp_length(run) : run->t_end;
  return b;
}

static double chart_x(const chart_box *b, const view_run *run, bool warp, double t) {
  if (!(b->length > 0)) return b->x0;
  const double a = warp ? view_warp_clock(run, t) : t;
  return b->x0 + (b->x1 - b->x0) * a / b->length;
}

/// Samples z1, z2, x2 once per pixel column into the canvas cache; each
/// lane has its own scale (range[k] = largest |value| of curve k, at least
/// VIEW_ZOOM_FLOOR of the body size: a curve of rounding stays flat).
static void chart_fill(view_canvas *cv, const view_run *run, bool warp, const chart_box *b,
                       double *values) {
  const int n = cv->chart_count, lanes = view_chart_lanes(&run->scene);
  for (int c = 0; c < n; c++) {
    const double a = b->length * c / (n > 1 ? n - 1 : 1);
    zeno_run_dir_row st;
    view_run_state(run, warp ? view_warp_time(run, a) : a, &st);
    for (int k = 0; k < lanes; k++) values[k * n + c] = view_chart_value(&run->scene, &st, k);
  }
  const double lane = (double)(b->y1 - b->y0) / lanes;
  const double floor = VIEW_ZOOM_FLOOR * view_body_size(&run->scene);
  for (int k = 0; k < lanes; k++) {
    double range = floor;
    for (int c = 0; c < n; c++) range = fmax(range, fabs(values[k * n + c]));
    cv->chart_range[k] = range;
    const double mid = b->y0 + lane * (k + 0.5);
    const double s = range > 0 ? CHART_LANE_FILL * lane / range : 0;
    for (int c = 0; c < n; c++) {
      cv->chart_points[k * n + c].x = b->x0 + c;
      cv->chart_points[k * n + c].y = (int)lround(mid - s * values[k * n + c]);
    }
  }
}

/// Refreshes the chart cache unless it holds this run (same rows, same
/// run number: a perturbed run may reuse the freed rows' address), warp
/// and width.
static void chart_cache(view_canvas *cv, const view_run *run, const view_play *play,
                        const chart_box *b) {
  const bool warp = play->warp;
  const int n = b->x1 - b->x0 + 1;
  if (cv->chart_points != NULL && cv->chart_run == run && cv->chart_rows == run->data.rows &&
      cv->chart_row_count == run->data.row_count && cv->chart_run_number == play->run_number &&
      cv->chart_warp == warp && cv->chart_count == n)
    return;
  SDL_free(cv->chart_points);
  const size_t lanes = (size_t)view_chart_lanes(&run->scene);
  cv->chart_points = SDL_malloc(sizeof(SDL_Point) * lanes * (size_t)n);
  double *values = SDL_malloc(sizeof(double) * lanes * (size_t)n);
  cv->chart_count = n;
  cv->chart_run = run;
  cv->chart_rows = run->data.rows;
  cv->chart_row_count = run->data.row_count;
  cv->chart_run_number = play->run_number;
  cv->chart_warp = warp;
  if (cv->chart_points != NULL && values != NULL) chart_fill(cv, run, warp, b, values);
  else cv->chart_count = 0;
  SDL_free(values);
}

/// A lane's note in the small font on a pale backing, so the curve under
/// it does not hide it.
static void lane_note(view_canvas *cv, int x, int y, int room, view_rgb colour, const char *text) {
  int w = view_text_width(cv->small_font, text);
  if (w > room) w = room;
  const SDL_Rect back = {x - 1, y, w + 2, VIEW_SMALL_LINE - 2};
  view_set_colour(cv->renderer, VIEW_BACKGROUND, NOTE_ALPHA);
  SDL_RenderFillRect(cv->renderer, &back);
  view_text_fit_small(cv, x, y, room, colour, text);
}

void view_draw_chart(view_canvas *cv, const view_run *run, const view_play *play) {
  SDL_Renderer *r = cv->renderer;
  const chart_box b = chart_layout(cv, run, play->warp);
  chart_cache(cv, run, play, &b);
  const SDL_Rect frame = {b.x0, b.y0, b.x1 - b.x0 + 1, b.y1 - b.y0 + 1};
  view_set_colour(r, CHART_AXIS, 255);
  SDL_RenderDrawRect(r, &frame);
  const int lanes = view_chart_lanes(&run->scene);
  const double lane = (double)(b.y1 - b.y0) / lanes;
  // The full model reports its coordinates divided by eps^2 (docs/model.md).
  const bool full = run->scene.model == ZENO_MODEL_FULL;
  for (int k = 0; k < lanes; k++) {
    const int mid = (int)lround(b.y0 + lane * (k + 0.5));
    const view_rgb colour = CURVE[k % CURVE_COLOURS];
    view_set_colour(r, VIEW_GHOST, 255);
    SDL_RenderDrawLine(r, b.x0, mid, b.x1, mid);
    if (cv->chart_count > 0) {
      view_set_colour(r, colour, 255);
      SDL_RenderDrawLines(r, cv->chart_points + k * cv->chart_count, cv->chart_count);
    }
    // Left column: the symbol and the lane's half range; in the lane,
    // what the number is and its unit.
    char lane_name[ZENO_ZOD_NAME_SIZE], meaning[MEANING_SIZE];
    const lane_label lane_k = lane_of(&run->scene, k, lane_name, meaning), *lab = &lane_k;
    char label[LABEL_SIZE];
    const int column = CHART_LEFT - CHART_LABEL_X;
    if (lane >= VIEW_TEXT_LINE + VIEW_SMALL_LINE) {
      view_text_fit(cv, CHART_LABEL_X, mid - VIEW_TEXT_LINE + 3, column, colour, lab->name);
      snprintf(label, sizeof label, "\u00b1%.2g", cv->chart_range[k]);
      view_text_fit_small(cv, CHART_LABEL_X, mid + 1, column, colour, label);
    } else {  // many contacts: the symbol and the range on one small line
      snprintf(label, sizeof label, "%s \u00b1%.2g", lab->name, cv->chart_range[k]);
      view_text_fit_small(cv, CHART_LABEL_X, mid - VIEW_SMALL_LINE / 2, column, colour, label);
    }
    if (lane < VIEW_SMALL_LINE) continue;  // no room for the note
    snprintf(label, sizeof label, "%s [%s%s], lane \u00b1%.3g", lab->meaning,
             lab->angle ? "rad" : "length", full ? " / eps\u00b2" : "", cv->chart_range[k]);
    lane_note(cv, b.x0 + CHART_NOTE_INSET, (int)lround(b.y0 + lane * k) + 1,
              b.x1 - b.x0 - 2 * CHART_NOTE_INSET, colour, label);
  }
  for (size_t i = 0; i < run->data.event_count; i++) {
    const zeno_run_dir_event *e = &run->data.events[i];
    if (!isfinite(e->t)) continue;
    const int x = (int)lround(chart_x(&b, run, play->warp, e->t));
    const int h = e->kind == ZENO_EVENT_IMPACT ? TICK_IMPACT_PX : TICK_OTHER_PX;
    view_set_colour(r, e->kind == ZENO_EVENT_IMPACT ? VIEW_INK : CHART_AXIS, 255);
    SDL_RenderDrawLine(r, x, b.y1 + 1, x, b.y1 + h);
  }
  const int x = (int)lround(chart_x(&b, run, play->warp, play->t));
  view_set_colour(r, VIEW_FORCE, 255);
  SDL_RenderDrawLine(r, x, b.y0, x, b.y1);
  char axis[LABEL_SIZE];
  if (play->warp)
    snprintf(axis, sizeof axis, "abscissa: event intervals 0 .. %g (Zeno warp)", b.length);
  else snprintf(axis, sizeof axis, "abscissa: time t [time] 0 .. %g", b.length);
  int w = 0, h = 0;
  if (cv->small_font == NULL || TTF_SizeUTF8(cv->small_font, axis, &w, &h) != 0) w = 0;
  const int room = b.x1 - b.x0;
  lane_note(cv, w < room ? b.x1 - w : b.x0, b.y1 + 2, room, CHART_AXIS, axis);
}
