// The world-to-screen map of the viewer: the nominal scene framed in the
// scene area of the canvas, world <-> screen, and body points at the
// displayed (magnified) pose.
#include <math.h>
#include <string.h>

#include "view/view.h"

/// The nominal scene (body and contacts) fills this fraction of the scene
/// area; the rest leaves room for the displacement and the surfaces.
#define SCENE_FILL 0.62
/// Smallest half-extent of the framed box, in body sizes (flat scenes).
#define SCENE_MIN_EXTENT 0.45

/// Extent of the nominal scene: contacts, centre of mass, outline.
static void scene_box(const zeno_scene *sc, double lo[2], double hi[2]) {
  const double L = view_body_size(sc);
  lo[0] = lo[1] = -SCENE_MIN_EXTENT * L;
  hi[0] = hi[1] = SCENE_MIN_EXTENT * L;
  for (int i = 0; i < sc->contact_count; i++)
    for (int k = 0; k < 2; k++) {
      lo[k] = fmin(lo[k], sc->contacts[i].point[k]);
      hi[k] = fmax(hi[k], sc->contacts[i].point[k]);
    }
  if (sc->outline_kind == ZENO_OUTLINE_POLYGON)
    for (size_t j = 0; j < sc->outline_count; j++)
      for (int k = 0; k < 2; k++) {
        lo[k] = fmin(lo[k], sc->outline[j][k]);
        hi[k] = fmax(hi[k], sc->outline[j][k]);
      }
}

view_transform view_transform_make(const view_canvas *canvas, const zeno_scene *scene,
                                   const double d[3]) {
  view_transform tf;
  double lo[2], hi[2];
  scene_box(scene, lo, hi);
  const double area_w = canvas->width;
  const double area_h = canvas->height - VIEW_OVERLAY_HEIGHT - VIEW_CHART_HEIGHT;
  tf.scale = SCENE_FILL * fmin(area_w / (hi[0] - lo[0]), area_h / (hi[1] - lo[1]));
  tf.origin[0] = area_w / 2 - tf.scale * (lo[0] + hi[0]) / 2;
  tf.origin[1] = VIEW_OVERLAY_HEIGHT + area_h / 2 + tf.scale * (lo[1] + hi[1]) / 2;
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
