// A scene in units of its own (scene_units.h): the units, the conversion of
// values and of whole scenes. Powers of two keep every conversion exact.
#include "scene/scene_units.h"

#include <math.h>

/// 1 / sqrt(2): the mantissa at which 2^e and 2^(e - 1) are equally near.
#define SQRT_HALF 0.70710678118654752440

/// The exponent of the power of two nearest x > 0 (in the ratio sense):
/// x = f 2^e with f in [0.5, 1) is nearer 2^e when f >= 1/sqrt(2). Exact,
/// so x 2^k gives the exponent plus k.
static int nearest_exponent(double x) {
  int e;
  const double f = frexp(x, &e);
  return f >= SQRT_HALF ? e : e - 1;
}

/// floor(a / 2) for any sign.
static int half_down(int a) { return a >= 0 ? a / 2 : -((1 - a) / 2); }

scene_units scene_units_of(const zeno_scene *s) {
  scene_units u = {0, 0, 0};
  if (s->mass > 0 && isfinite(s->mass)) u.mass = nearest_exponent(s->mass);
  if (s->rho > 0 && isfinite(s->rho)) u.length = nearest_exponent(s->rho);
  const double force = scene_load_scale(s);
  // force = mass length / time^2: time^2 = mass length / force.
  if (force > 0 && isfinite(force)) u.time = half_down(u.mass + u.length - nearest_exponent(force));
  return u;
}

static int exponent(scene_units u, scene_dim d) {
  return d.m * u.mass + d.l * u.length + d.t * u.time;
}

// ldexp(v, 0) is v: trivial units (most scenes) skip its call.
double scene_units_to_user(scene_units u, scene_dim d, double v) {
  const int e = exponent(u, d);
  return e == 0 ? v : ldexp(v, e);
}

double scene_units_from_user(scene_units u, scene_dim d, double v) {
  const int e = exponent(u, d);
  return e == 0 ? v : ldexp(v, -e);
}

// Converts n values of one dimension in place.
static void convert(scene_units u, scene_dim d, double *v, size_t n) {
  for (size_t k = 0; k < n; k++) v[k] = scene_units_from_user(u, d, v[k]);
}

void scene_in_units(const zeno_scene *scene, scene_units u, zeno_scene *out) {
  if (out != scene) *out = *scene;
  if (scene_units_trivial(u)) return;
  const scene_dim L = SCENE_DIM_LENGTH, V = SCENE_DIM_SPEED, T = SCENE_DIM_TIME;
  convert(u, SCENE_DIM_MASS, &out->mass, 1);
  convert(u, L, &out->rho, 1);
  for (size_t k = 0; k < ZENO_MAX_OUTLINE; k++) convert(u, L, out->outline[k], 2);
  convert(u, L, &out->outline_radius, 1);
  for (int i = 0; i < ZENO_MAX_CONTACTS; i++) {
    convert(u, L, out->contacts[i].point, 2);
    convert(u, L, out->contacts[i].surface_point, 2);
  }
  convert(u, SCENE_DIM_FORCE, &out->load_magnitude, 1);
  convert(u, SCENE_DIM_ENERGY, &out->load_torque, 1);
  zeno_paper_geometry *p = &out->paper;
  convert(u, L, &p->l1, 1);
  convert(u, L, &p->l2, 1);
  convert(u, L, &p->h, 1);
  convert(u, L, out->com_shift, 2);
  convert(u, L, out->initial_qp, 3);
  convert(u, V, out->initial_qdp, 3);
  convert(u, L, out->initial_pose, 2);
  convert(u, V, out->initial_velocity, 2);
  convert(u, SCENE_DIM_RATE, &out->initial_velocity[2], 1);
  convert(u, T, &out->t_end, 1);
  convert(u, L, &out->escape_radius, 1);  // 0, the default, stays 0
  convert(u, T, &out->sample_dt, 1);
}
