// Drawing one frame with SDL_Renderer into the offscreen canvas: surfaces,
// the equilibrium ghost, the body at its magnified displacement, centre of
// mass, contacts by letter, friction cones, forces, impulses, the load and
// the text overlay (the strip chart: view_chart.c).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "view/view.h"

const view_rgb VIEW_BACKGROUND = {248, 248, 244};
const view_rgb VIEW_SURFACE_LINE = {40, 40, 40};
const view_rgb VIEW_SURFACE_FILL = {196, 184, 160};
const view_rgb VIEW_BODY_FILL = {96, 144, 212};
/// F grey, S green, P orange, N purple.
const view_rgb VIEW_LETTER_COLOUR[4] = {
    {150, 150, 150}, {30, 170, 60}, {235, 120, 20}, {150, 60, 200}};

static const view_rgb BODY_EDGE = {28, 56, 110};
const view_rgb VIEW_GHOST = {175, 175, 175};
const view_rgb VIEW_INK = {20, 20, 20};
const view_rgb VIEW_FORCE = {205, 30, 30};
const view_rgb VIEW_IMPULSE = {225, 0, 140};
const view_rgb VIEW_LOAD = {60, 60, 60};
const view_rgb VIEW_CONE = {90, 185, 110};
static const view_rgb DRAG = {240, 160, 0};

/// Opacity of the equilibrium ghost and of the fill inside a friction
/// cone [0-255].
#define GHOST_ALPHA 200
#define CONE_FILL_ALPHA 45
/// Surfaces are drawn this many body sizes either side of their point.
#define SURFACE_HALF_LENGTH 1.0
/// Surfaces whose directions' sine is below this are parallel (no wedge).
#define SURFACE_PARALLEL 1e-9
/// Depth of the hatched strip below a surface [px].
#define SURFACE_DEPTH_PX 12.0
/// Segments of circles and ellipses.
#define CIRCLE_SEGMENTS 32
/// Widths [px].
#define LEG_WIDTH_PX 7.0
#define ARROW_WIDTH_PX 3.0
#define ARROW_HEAD_PX 10.0
/// Contact disc and centre-of-mass ring radii [px].
#define CONTACT_RADIUS_PX 6.0
#define COM_RING_OUTER_PX 7.0
#define COM_RING_INNER_PX 4.0
/// Friction cone edge length and width [px] (the edges were 1 px lines,
/// lost against the surfaces and legs).
#define CONE_PX VIEW_CONE_PX
#define CONE_WIDTH_PX VIEW_CONE_WIDTH_PX
/// Arrow lengths: a force equal to the load, the largest impulse of the
/// run, and the load itself [px]; impulses shorter than the minimum are
/// drawn at the minimum so a Zeno tail stays visible.
#define FORCE_PX 70.0
#define IMPULSE_PX 80.0
#define IMPULSE_MIN_PX 24.0
#define LOAD_PX 70.0
/// Gap between the centre of mass and the start of the load arrow [px].
#define LOAD_START_PX 10.0
/// Text layout [px].
#define TEXT_MARGIN 8
/// Characters of the mode word shown (its tail when longer).
#define WORD_SHOWN 96
#define LINE_SIZE 256

/* ---- primitives ---------------------------------------------------------- */

void view_set_colour(SDL_Renderer *r, view_rgb c, Uint8 alpha) {
  SDL_SetRenderDrawBlendMode(r, alpha == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
  SDL_SetRenderDrawColor(r, c.r, c.g, c.b, alpha);
}

static SDL_Vertex vertex(const double p[2], view_rgb c, Uint8 alpha) {
  SDL_Vertex v;
  v.position.x = (float)p[0];
  v.position.y = (float)p[1];
  v.color.r = c.r;
  v.color.g = c.g;
  v.color.b = c.b;
  v.color.a = alpha;
  v.tex_coord.x = 0;
  v.tex_coord.y = 0;
  return v;
}

/// Fills a convex polygon of n screen points (fan from the first point).
static void fill_convex(SDL_Renderer *r, const double (*p)[2], int n, view_rgb c, Uint8 alpha) {
  SDL_Vertex v[3 * CIRCLE_SEGMENTS];
  int count = 0;
  // Untextured geometry blends by the renderer's draw blend mode.
  SDL_SetRenderDrawBlendMode(r, alpha == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
  for (int k = 1; k + 1 < n && count + 3 <= 3 * CIRCLE_SEGMENTS; k++) {
    v[count++] = vertex(p[0], c, alpha);
    v[count++] = vertex(p[k], c, alpha);
    v[count++] = vertex(p[k + 1], c, alpha);
  }
  SDL_RenderGeometry(r, NULL, v, count, NULL, 0);
}

static void line(SDL_Renderer *r, const double a[2], const double b[2], view_rgb c, Uint8 alpha) {
  view_set_colour(r, c, alpha);
  SDL_RenderDrawLineF(r, (float)a[0], (float)a[1], (float)b[0], (float)b[1]);
}

void view_thick_line(SDL_Renderer *r, const double a[2], const double b[2], double width,
                     view_rgb c, Uint8 alpha) {
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len = hypot(dx, dy);
  if (!(len > 0)) return;
  const double nx = -dy / len * width / 2, ny = dx / len * width / 2;
  const double quad[4][2] = {{a[0] + nx, a[1] + ny},
                             {b[0] + nx, b[1] + ny},
                             {b[0] - nx, b[1] - ny},
                             {a[0] - nx, a[1] - ny}};
  fill_convex(r, quad, 4, c, alpha);
}

static void thick_line(SDL_Renderer *r, const double a[2], const double b[2], double width,
                       view_rgb c) {
  view_thick_line(r, a, b, width, c, 255);
}

void view_disc(SDL_Renderer *r, const double centre[2], double radius, view_rgb c) {
  double p[CIRCLE_SEGMENTS][2];
  for (int k = 0; k < CIRCLE_SEGMENTS; k++) {
    const double a = 2 * ZENO_PI * k / CIRCLE_SEGMENTS;
    p[k][0] = centre[0] + radius * cos(a);
    p[k][1] = centre[1] + radius * sin(a);
  }
  fill_convex(r, (const double(*)[2])p, CIRCLE_SEGMENTS, c, 255);
}

/// A ring between two radii: the pixel at its centre is left as it was.
static void ring(SDL_Renderer *r, const double centre[2], double inner, double outer, view_rgb c) {
  SDL_Vertex v[6 * CIRCLE_SEGMENTS];
  int n = 0;
  for (int k = 0; k < CIRCLE_SEGMENTS; k++) {
    const double a0 = 2 * ZENO_PI * k / CIRCLE_SEGMENTS;
    const double a1 = 2 * ZENO_PI * (k + 1) / CIRCLE_SEGMENTS;
    const double p[4][2] = {{centre[0] + inner * cos(a0), centre[1] + inner * sin(a0)},
                            {centre[0] + outer * cos(a0), centre[1] + outer * sin(a0)},
                            {centre[0] + outer * cos(a1), centre[1] + outer * sin(a1)},
                            {centre[0] + inner * cos(a1), centre[1] + inner * sin(a1)}};
    const int order[6] = {0, 1, 2, 0, 2, 3};
    for (int j = 0; j < 6; j++) v[n++] = vertex(p[order[j]], c, 255);
  }
  SDL_RenderGeometry(r, NULL, v, n, NULL, 0);
}

void view_arrow(SDL_Renderer *r, const double from[2], double dx, double dy, double len,
                view_rgb c) {
  const double norm = hypot(dx, dy);
  if (!(norm > 0) || !(len > 0)) return;
  const double ux = dx / norm, uy = dy / norm;
  const double head = fmin(ARROW_HEAD_PX, len / 2);
  const double tip[2] = {from[0] + ux * len, from[1] + uy * len};
  const double base[2] = {tip[0] - ux * head, tip[1] - uy * head};
  thick_line(r, from, base, ARROW_WIDTH_PX, c);
  const double tri[3][2] = {{tip[0], tip[1]},
                            {base[0] - uy * head / 2, base[1] + ux * head / 2},
                            {base[0] + uy * head / 2, base[1] - ux * head / 2}};
  fill_convex(r, tri, 3, c, 255);
}

/// Screen position of a body point at the displayed pose.
static void body_screen(const view_transform *tf, const double b[2], double s[2]) {
  double w[2];
  view_body_point(tf, b, w);
  view_to_screen(tf, w, s);
}

/* ---- the scene ----------------------------------------------------------- */

static void surface_frame(const zeno_contact_def *c, double point[2], double t[2], double n[2]) {
  point[0] = c->surface_point_set ? c->surface_point[0] : c->point[0];
  point[1] = c->surface_point_set ? c->surface_point[1] : c->point[1];
  t[0] = cos(c->surface_angle);
  t[1] = sin(c->surface_angle);
  n[0] = -t[1];
  n[1] = t[0];
}

/// The drawn stretch [lo, hi] of surface i, as distances along t_i from
/// its point: SURFACE_HALF_LENGTH body sizes either side of the contact,
/// cut where it meets the other surface (the two make a wedge).
static void surface_extent(const zeno_scene *sc, int i, double *lo, double *hi) {
  const double half = SURFACE_HALF_LENGTH * view_body_size(sc);
  double p[2], t[2], n[2];
  surface_frame(&sc->contacts[i], p, t, n);
  const double *c = sc->contacts[i].point;
  const double mid = t[0] * (c[0] - p[0]) + t[1] * (c[1] - p[1]);
  *lo = mid - half;
  *hi = mid + half;
  if (sc->contact_count != 2) return;
  double q[2], u[2], m[2];
  surface_frame(&sc->contacts[1 - i], q, u, m);
  // p + s t on the other line: m . (p + s t - q) = 0.
  const double slope = m[0] * t[0] + m[1] * t[1];
  if (fabs(slope) < SURFACE_PARALLEL) return;
  const double s = -(m[0] * (p[0] - q[0]) + m[1] * (p[1] - q[1])) / slope;
  if (s > mid && s < *hi) *hi = s;
  if (s < mid && s > *lo) *lo = s;
}

/// Screen end points of surface i's drawn stretch and its normal.
static void surface_segment(const zeno_scene *sc, const view_transform *tf, int i, double sa[2],
                            double sb[2], double n[2]) {
  double p[2], t[2], a[2], b[2], lo, hi;
  surface_frame(&sc->contacts[i], p, t, n);
  surface_extent(sc, i, &lo, &hi);
  for (int k = 0; k < 2; k++) {
    a[k] = p[k] + lo * t[k];
    b[k] = p[k] + hi * t[k];
  }
  view_to_screen(tf, a, sa);
  view_to_screen(tf, b, sb);
}

static void draw_surfaces(view_canvas *cv, const zeno_scene *sc, const view_transform *tf) {
  double sa[ZENO_MAX_CONTACTS][2], sb[ZENO_MAX_CONTACTS][2], n[2];
  for (int i = 0; i < sc->contact_count; i++) {
    surface_segment(sc, tf, i, sa[i], sb[i], n);
    // -n in screen coordinates (y down).
    const double dx = -n[0] * SURFACE_DEPTH_PX, dy = n[1] * SURFACE_DEPTH_PX;
    const double strip[4][2] = {{sa[i][0], sa[i][1]},
                                {sb[i][0], sb[i][1]},
                                {sb[i][0] + dx, sb[i][1] + dy},
                                {sa[i][0] + dx, sa[i][1] + dy}};
    fill_convex(cv->renderer, strip, 4, VIEW_SURFACE_FILL, 255);
  }
  // Lines over both strips, so a wedge's corner shows both edges.
  for (int i = 0; i < sc->contact_count; i++)
    line(cv->renderer, sa[i], sb[i], VIEW_SURFACE_LINE, 255);
}

/// The body (ghost: outline only, at the equilibrium pose).
static void draw_body(view_canvas *cv, const zeno_scene *sc, const view_transform *tf, bool ghost) {
  SDL_Renderer *r = cv->renderer;
  const double com[2] = {0, 0};
  double c[2], p[VIEW_OUTLINE_MAX_POINTS][2], s[VIEW_OUTLINE_MAX_POINTS][2];
  body_screen(tf, com, c);
  const bool legs = sc->outline_kind == ZENO_OUTLINE_BIPED;
  for (int i = 0; legs && i < sc->contact_count; i++) {
    double foot[2];
    body_screen(tf, sc->contacts[i].point, foot);
    if (ghost) line(r, c, foot, VIEW_GHOST, GHOST_ALPHA);
    else thick_line(r, c, foot, LEG_WIDTH_PX, BODY_EDGE);
  }
  const int n = view_outline_points(sc, p);
  for (int k = 0; k < n; k++) body_screen(tf, p[k], s[k]);
  if (!ghost) {
    // A fan from the centre of mass (the outlines are star-shaped about it).
    SDL_Vertex v[3 * VIEW_OUTLINE_MAX_POINTS];
    for (int k = 0; k < n; k++) {
      v[3 * k] = vertex(c, VIEW_BODY_FILL, 255);
      v[3 * k + 1] = vertex(s[k], VIEW_BODY_FILL, 255);
      v[3 * k + 2] = vertex(s[(k + 1) % n], VIEW_BODY_FILL, 255);
    }
    SDL_RenderGeometry(r, NULL, v, 3 * n, NULL, 0);
  }
  for (int k = 0; k < n; k++)
    line(r, s[k], s[(k + 1) % n], ghost ? VIEW_GHOST : BODY_EDGE, ghost ? GHOST_ALPHA : 255);
}

/// Screen direction of a world vector (y flipped).
static void screen_dir(const double w[2], double *dx, double *dy) {
  *dx = w[0];
  *dy = -w[1];
}

/// World vector of a (normal, tangential) pair at contact i.
static void contact_vector(const zeno_contact_def *c, const double nt[2], double w[2]) {
  double p[2], t[2], n[2];
  surface_frame(c, p, t, n);
  w[0] = nt[0] * n[0] + nt[1] * t[0];
  w[1] = nt[0] * n[1] + nt[1] * t[1];
}

/// Largest impulse of the run [force*time] (scales the impulse arrows).
static double largest_impulse(const view_run *run) {
  double m = 0;
  for (size_t i = 0; i < run->data.event_count; i++)
    for (int c = 0; c < run->scene.contact_count; c++)
      m = fmax(m, hypot(run->data.events[i].impulse[c][0], run->data.events[i].impulse[c][1]));
  return m;
}

static void draw_cone(view_canvas *cv, const zeno_contact_def *c, const double at[2]) {
  double p[2], t[2], n[2], end[2][2];
  surface_frame(c, p, t, n);
  for (int k = 0; k < 2; k++) {
    const double side = k == 0 ? -1 : 1;
    const double w[2] = {n[0] + side * c->mu * t[0], n[1] + side * c->mu * t[1]};
    const double len = hypot(w[0], w[1]);
    end[k][0] = at[0] + CONE_PX * w[0] / len;
    end[k][1] = at[1] - CONE_PX * w[1] / len;
  }
  const double wedge[3][2] = {{at[0], at[1]}, {end[0][0], end[0][1]}, {end[1][0], end[1][1]}};
  fill_convex(cv->renderer, wedge, 3, VIEW_CONE, CONE_FILL_ALPHA);
  for (int k = 0; k < 2; k++) thick_line(cv->renderer, at, end[k], CONE_WIDTH_PX, VIEW_CONE);
}

static void draw_contacts(view_canvas *cv, const view_run *run, const view_transform *tf,
                          const zeno_run_dir_row *st, long event) {
  const zeno_scene *sc = &run->scene;
  const double load = sc->load_magnitude > 0 ? sc->load_magnitude : 1.0;
  const zeno_run_dir_event *ev = run->data.event_count > 0 ? &run->data.events[event] : NULL;
  const bool impact = ev != NULL && ev->kind == ZENO_EVENT_IMPACT;
  const double pmax = largest_impulse(run);
  double at[ZENO_MAX_CONTACTS][2];
  for (int i = 0; i < sc->contact_count; i++) {
    const zeno_contact_def *c = &sc->contacts[i];
    const int letter = st->mode.letter[i] < 4 ? st->mode.letter[i] : 0;
    body_screen(tf, c->point, at[i]);
    double w[2], dx, dy;
    if (letter != ZENO_LETTER_F) {
      draw_cone(cv, c, at[i]);
      contact_vector(c, st->force[i], w);
      screen_dir(w, &dx, &dy);
      view_arrow(cv->renderer, at[i], dx, dy, FORCE_PX * hypot(w[0], w[1]) / load, VIEW_FORCE);
    }
    if (impact && (ev->impact_mask & (1u << i)) && pmax > 0) {
      contact_vector(c, ev->impulse[i], w);
      screen_dir(w, &dx, &dy);
      view_arrow(cv->renderer, at[i], dx, dy,
                 fmax(IMPULSE_PX * hypot(w[0], w[1]) / pmax, IMPULSE_MIN_PX), VIEW_IMPULSE);
    }
  }
  for (int i = 0; i < sc->contact_count; i++) {
    const int letter = st->mode.letter[i] < 4 ? st->mode.letter[i] : 0;
    view_disc(cv->renderer, at[i], CONTACT_RADIUS_PX, VIEW_LETTER_COLOUR[letter]);
  }
}

static void draw_load(view_canvas *cv, const zeno_scene *sc, const view_transform *tf) {
  if (!(sc->load_magnitude > 0)) return;
  const double com[2] = {0, 0};
  double c[2];
  body_screen(tf, com, c);
  const double dx = sin(sc->load_angle), dy = cos(sc->load_angle);  // screen
  const double from[2] = {c[0] + LOAD_START_PX * dx, c[1] + LOAD_START_PX * dy};
  view_arrow(cv->renderer, from, dx, dy, LOAD_PX, VIEW_LOAD);
  if (sc->load_torque != 0) {
    char text[48];
    snprintf(text, sizeof text, "tau %+.3g", sc->load_torque);
    view_text(cv, (int)lround(c[0] - LOAD_PX * dx), (int)lround(c[1] - LOAD_PX * dy), VIEW_LOAD,
              text);
  }
}

static void draw_drag(view_canvas *cv, const view_transform *tf) {
  if (!cv->dragging) return;
  double a[2], b[2];
  view_to_screen(tf, cv->drag_from, a);
  view_to_screen(tf, cv->drag_to, b);
  view_arrow(cv->renderer, a, b[0] - a[0], b[1] - a[1], hypot(b[0] - a[0], b[1] - a[1]), DRAG);
}

/* ---- text ---------------------------------------------------------------- */

/// Characters of the canvas font that fit in `width` [px] (a monospaced
/// font: every glyph advances the same).
static int chars_fitting(const view_canvas *cv, int width) {
  int advance = 0;
  if (cv->font == NULL || TTF_GlyphMetrics(cv->font, 'M', NULL, NULL, NULL, NULL, &advance) != 0 ||
      advance <= 0)
    return WORD_SHOWN;
  return width / advance;
}

/// Appends "   " and text to a line (as much as fits in size bytes).
static void add_field(char *line, size_t size, const char *text) {
  static const char SEPARATOR[] = "   ";
  size_t used = strlen(line);
  if (text[0] == '\0') return;
  if (used > 0)
    for (size_t k = 0; SEPARATOR[k] != '\0' && used + 1 < size; k++) line[used++] = SEPARATOR[k];
  for (size_t k = 0; text[k] != '\0' && used + 1 < size; k++) line[used++] = text[k];
  line[used] = '\0';
}

static void draw_overlay(view_canvas *cv, const view_run *run, const view_play *play,
                         const zeno_run_dir_row *st, long impacts) {
  char line1[LINE_SIZE], word[LINE_SIZE * 16], mode[ZENO_MODE_NAME_SIZE];
  const zeno_scene *sc = &run->scene;
  const int room = cv->width - 2 * TEXT_MARGIN;
  const bool ended = play->t >= run->t_end && run->outcome != ZENO_OUTCOME_RUNNING;
  char zeno[64] = "";
  if (run->has_zeno) snprintf(zeno, sizeof zeno, "   Zeno t* = %.6g", run->zeno_time);
  snprintf(line1, sizeof line1, "t = %-11.6g mode %-3s impacts %-5ld status %-14s%s", play->t,
           zeno_mode_name(st->mode, sc->contact_count, mode), impacts,
           ended ? zeno_outcome_name(run->outcome) : "running", zeno);
  view_text_fit(cv, TEXT_MARGIN, TEXT_MARGIN / 2, room, VIEW_INK, line1);
  // The word's tail: as much of it as the line holds.
  const int length = view_run_word(run, play->t, word, (int)sizeof word);
  const int shown = length < (int)sizeof word ? length : (int)sizeof word - 1;
  int keep = chars_fitting(cv, room) - (int)strlen("word: ...");
  if (keep > WORD_SHOWN) keep = WORD_SHOWN;
  if (keep < 1) keep = 1;
  const char *tail = shown > keep ? word + shown - keep : word;
  char line2[LINE_SIZE];
  snprintf(line2, sizeof line2, "word: %s%.*s", shown > keep ? "..." : "", keep, tail);
  view_text_fit(cv, TEXT_MARGIN, TEXT_MARGIN / 2 + VIEW_TEXT_LINE, room, VIEW_INK, line2);
  // Most useful first: a line cut at the right loses the least.
  char line3[LINE_SIZE] = "", field[LINE_SIZE];
  if (play->warp) snprintf(field, sizeof field, "Zeno warp (z)%s", play->paused ? " paused" : "");
  else
    snprintf(field, sizeof field, "speed %gx%s", view_speed(play->speed_level),
             play->paused ? " paused" : "");
  add_field(line3, sizeof line3, field);
  const view_zoom zoom = view_play_zoom(play, run);
  snprintf(field, sizeof field, "zoom gaps x%.3g slips x%.3g%s", zoom.normal, zoom.tangential,
           play->zoom_fixed > 0 || play->zoom_factor != 1.0 ? "" : " (auto)");
  add_field(line3, sizeof line3, field);
  snprintf(field, sizeof field, "run %d", play->run_number);
  add_field(line3, sizeof line3, field);
  snprintf(field, sizeof field, "%s %s", sc->name, zeno_model_name(sc->model));
  add_field(line3, sizeof line3, field);
  add_field(line3, sizeof line3, "h: help  l: legend");
  view_text_fit(cv, TEXT_MARGIN, TEXT_MARGIN / 2 + 2 * VIEW_TEXT_LINE, room, VIEW_INK, line3);
}

/* ---- the frame ----------------------------------------------------------- */

void view_draw_frame(view_canvas *cv, const view_run *run, const view_play *play,
                     view_frame_info *info) {
  SDL_Renderer *r = cv->renderer;
  view_set_colour(r, VIEW_BACKGROUND, 255);
  SDL_RenderClear(r);
  zeno_run_dir_row st;
  view_run_state(run, play->t, &st);
  const long event = view_run_event_at(run, play->t);
  const long impacts = view_run_impacts(run, play->t);
  const double zero[3] = {0, 0, 0};
  double d[3];
  view_displayed(&run->scene, view_play_zoom(play, run), st.q, d);
  const view_camera *camera = view_canvas_camera(cv, run, play);
  // The scene stays between the text band and the chart, right of the
  // maps panel.
  const SDL_Rect scene_area = view_scene_area(cv, play);
  const view_transform ghost = view_transform_make(&scene_area, camera, zero);
  const view_transform tf = view_transform_make(&scene_area, camera, d);
  SDL_RenderSetClipRect(r, &scene_area);
  draw_surfaces(cv, &run->scene, &ghost);
  draw_body(cv, &run->scene, &ghost, true);
  draw_body(cv, &run->scene, &tf, false);
  draw_load(cv, &run->scene, &tf);
  draw_contacts(cv, run, &tf, &st, event);
  const double com[2] = {0, 0};
  double c[2];
  body_screen(&tf, com, c);
  ring(r, c, COM_RING_INNER_PX, COM_RING_OUTER_PX, VIEW_INK);
  draw_drag(cv, &tf);
  SDL_RenderSetClipRect(r, NULL);
  draw_overlay(cv, run, play, &st, impacts);
  view_draw_chart(cv, run, play);
  if (play->maps) view_draw_maps(cv, run, play);
  if (play->legend) view_draw_legend(cv);
  if (play->banner != NULL && play->banner[0] != '\0')
    view_draw_banner(cv, "scene file not reloaded (the old run goes on): ", play->banner);
  if (play->help) view_draw_help(cv);
  SDL_RenderPresent(r);
  if (info) {
    info->t = play->t;
    info->impacts = impacts;
    info->event = event;
    info->state = st;
  }
}
