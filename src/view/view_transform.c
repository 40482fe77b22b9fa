// The world-to-screen map of the viewer: the camera (the nominal scene and
// the body's whole displayed motion) framed in the scene area of the
// canvas, world <-> screen, and body points at the displayed (magnified)
// pose.
#include <math.h>
#include <string.h>

#include "view/view.h"

/// Smallest half-extent of the framed box, in body sizes (flat scenes).
#define SCENE_MIN_EXTENT 0.45
/// Biped torso: ellipse radii in body sizes.
#define TORSO_RX 0.28
#define TORSO_RY 0.17

int view_outline_points(const zeno_scene *sc, double (*p)[2]) {
  const double L = view_body_size(sc);
  if (sc->outline_kind == ZENO_OUTLINE_POLYGON && sc->outline_count >= 3) {
    const int n = sc->outline_count < VIEW_OUTLINE_MAX_POINTS ? (int)sc->outline_count
                                                              : VIEW_OUTLINE_MAX_POINTS;
    memcpy(p, sc->outline, sizeof(double) * 2 * (size_t)n);
    return n;
  }
  const bool disk = sc->outline_kind == ZENO_OUTLINE_DISK;
  const double rx = disk ? sc->outline_radius : TORSO_RX * L;
  const double ry = disk ? sc->outline_radius : TORSO_RY * L;
  for (int k = 0; k < VIEW_OUTLINE_MAX_POINTS; k++) {
    const double a = 2 * ZENO_PI * k / VIEW_OUTLINE_MAX_POINTS;
    p[k][0] = rx * cos(a);
    p[k][1] = ry * sin(a);
  }
  return VIEW_OUTLINE_MAX_POINTS;
}

/// The body's points the camera frames: its contacts and its outline
/// (body frame [length]). Returns their number.
static int body_points(const zeno_scene *sc, double (*p)[2]) {
  int n = view_outline_points(sc, p);
  for (int i = 0; i < sc->contact_count; i++, n++) memcpy(p[n], sc->contacts[i].point, sizeof p[n]);
  return n;
}

/// Widens [lo, hi] to hold the body points drawn at displacement d
/// (linearised as view_body_point() draws them).
static void add_body(const double (*p)[2], int n, const double d[3], double lo[2], double hi[2]) {
  for (int k = 0; k < n; k++) {
    const double w[2] = {p[k][0] + d[0] - d[2] * p[k][1], p[k][1] + d[1] + d[2] * p[k][0]};
    for (int j = 0; j < 2; j++) {
      lo[j] = fmin(lo[j], w[j]);
      hi[j] = fmax(hi[j], w[j]);
    }
  }
}

view_camera view_camera_make(const view_run *run, double zoom_fixed) {
  const zeno_scene *sc = &run->scene;
  view_camera cam;
  const double L = view_body_size(sc);
  double p[VIEW_OUTLINE_MAX_POINTS + ZENO_MAX_CONTACTS][2];
  const int n = body_points(sc, p);
  for (int j = 0; j < 2; j++) {
    cam.scene_lo[j] = -SCENE_MIN_EXTENT * L;
    cam.scene_hi[j] = SCENE_MIN_EXTENT * L;
  }
  const double zero[3] = {0, 0, 0};
  add_body((const double(*)[2])p, n, zero, cam.scene_lo, cam.scene_hi);
  memcpy(cam.lo, cam.scene_lo, sizeof cam.lo);
  memcpy(cam.hi, cam.scene_hi, sizeof cam.hi);
  // Rows in time order: the automatic zoom is recomputed only when a row
  // leaves the phase of the one before.
  view_zoom zoom = {zoom_fixed, zoom_fixed};
  double phase_end = -INFINITY;
  for (size_t i = 0; i < run->data.row_count; i++) {
    const zeno_run_dir_row *row = &run->data.rows[i];
    if (!(zoom_fixed > 0) && !(row->t <= phase_end)) {
      double phase_start;
      view_phase(run, row->t, &phase_start, &phase_end);
      zoom = view_auto_zoom(run, row->t);
    }
    double d[3];
    view_displayed(sc, zoom, row->q, d);
    if (isfinite(d[0]) && isfinite(d[1]) && isfinite(d[2]))
      add_body((const double(*)[2])p, n, d, cam.lo, cam.hi);
  }
  return cam;
}

const view_camera *view_canvas_camera(view_canvas *cv, const view_run *run, const view_play *play) {
  if (!cv->camera_ready || cv->camera_run != run || cv->camera_rows != run->data.rows ||
      cv->camera_row_count != run->data.row_count || cv->camera_run_number != play->run_number ||
      cv->camera_zoom_fixed != play->zoom_fixed) {
    cv->camera = view_camera_make(run, play->zoom_fixed);
    cv->camera_ready = true;
    cv->camera_run = run;
    cv->camera_rows = run->data.rows;
    cv->camera_row_count = run->data.row_count;
    cv->camera_run_number = play->run_number;
    cv->camera_zoom_fixed = play->zoom_fixed;
  }
  return &cv->camera;
}

/// Screen position [px] of world coordinate x along an axis of the area
/// [0, size]: centred on the nominal scene, then moved so that [lo, hi]
/// lies within the area's VIEW_MOTION_FILL.
static double axis_origin(double scale, double size, double scene_lo, double scene_hi, double lo,
                          double hi) {
  double origin = size / 2 - scale * (scene_lo + scene_hi) / 2;
  const double margin = (1 - VIEW_MOTION_FILL) / 2 * size;
  if (origin + scale * lo < margin) origin = margin - scale * lo;
  else if (origin + scale * hi > size - margin) origin = size - margin - scale * hi;
  return origin;
}

SDL_Rect view_scene_area(const view_canvas *canvas, const view_play *play) {
  SDL_Rect area = {0, VIEW_OVERLAY_HEIGHT, canvas->width,
                   canvas->height - VIEW_OVERLAY_HEIGHT - VIEW_CHART_HEIGHT};
  if (play->maps) {
    const SDL_Rect panel = view_maps_box(canvas);
    area.x = panel.x + panel.w;
    area.w = canvas->width - area.x;
  }
  return area;
}

view_transform view_transform_make(const SDL_Rect *area, const view_camera *cam,
                                   const double d[3]) {
  view_transform tf;
  const double area_w = area->w, area_h = area->h;
  const double scene = VIEW_SCENE_FILL * fmin(area_w / (cam->scene_hi[0] - cam->scene_lo[0]),
                                              area_h / (cam->scene_hi[1] - cam->scene_lo[1]));
  const double motion = VIEW_MOTION_FILL * fmin(area_w / (cam->hi[0] - cam->lo[0]),
                                                area_h / (cam->hi[1] - cam->lo[1]));
  tf.scale = fmin(scene, motion);
  tf.origin[0] = area->x + axis_origin(tf.scale, area_w, cam->scene_lo[0], cam->scene_hi[0],
                                       cam->lo[0], cam->hi[0]);
  // Screen y runs down: the world's y axis flipped.
  tf.origin[1] = area->y + area_h -
                 axis_origin(tf.scale, area_h, cam->scene_lo[1], cam->scene_hi[1], cam->lo[1],
                             cam->hi[1]);
  memcpy(tf.d, d, sizeof tf.d);
  return tf;
}

void view_to_screen(const view_transform *tf, const double w[2], double s[2]) {
  s[0] = tf->origin[0] + tf->scale * w[0];
  s[1] = tf->origin[1] - tf->scale * w[1];
}

void view_to_world(const view_transform *tf, const double s[2], double w[2]) {
  w[0] = (s[0] - tf->origin[0]) / tf->scale;
  w[1] = (tf->origin[1] - s[1]) / tf->scale;
}

void view_body_point(const view_transform *tf, const double b[2], double w[2]) {
  const double th = tf->d[2];
  w[0] = b[0] + tf->d[0] - th * b[1];
  w[1] = b[1] + tf->d[1] + th * b[0];
}

void view_body_point_inverse(const view_transform *tf, const double w[2], double b[2]) {
  // Solve (I + theta J) b = w - d_xy.
  const double k = tf->d[2];
  const double rx = w[0] - tf->d[0];
  const double ry = w[1] - tf->d[1];
  const double det = 1 + k * k;
  b[0] = (rx + k * ry) / det;
  b[1] = (ry - k * rx) / det;
}
