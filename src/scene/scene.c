// Scene data: defaults, the paper block expansion and validation.
#include "zeno/scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/// A vertex farther than this from its surface line (relative to the
/// scene's length scale) is "not on its surface". Scene files carry a few
/// significant digits at most, so 1e-9 only catches real mistakes.
#define SCENE_ON_SURFACE_RTOL 1e-9
/// Contacts closer than this (relative to the length scale) coincide.
#define SCENE_COINCIDENT_RTOL 1e-9

/// Largest magnitude of any scene number. The dynamics multiply a few
/// inputs together (|f| / m times a length times a time squared, energies
/// m v^2): inputs within 1e+-30 keep every such product far from the double
/// range (1e+-308), while any consistent unit system needs far less.
#define SCENE_MAGNITUDE_MAX 1e30
/// Smallest mass, radius of gyration and epsilon: they divide (|f| / m,
/// tau / (m rho^2), positions / epsilon^2), so below this an acceleration
/// overflows to inf and a run would end in NaN (found by fuzzing: m = 1e-320).
#define SCENE_DIVISOR_MIN 1e-30

static const double DEG = 3.14159265358979323846 / 180.0;

zeno_paper_params zeno_paper_example2(void) {
  zeno_paper_params p = {
      .alpha = 65, .l1 = -3.5, .l2 = 2.25, .h = 1.25, .phi1 = 75, .phi2 = 30,
      .mu1 = 0.75, .mu2 = 0.6, .rho = 1, .m = 1, .f = 1, .tau = 0};
  return p;
}

zeno_scene zeno_scene_default(void) {
  zeno_scene s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "%s", "example2");
  s.outline_kind = ZENO_OUTLINE_BIPED;
  s.outline_radius = 1.0;
  s.impact_law = ZENO_LAW_INELASTIC;
  s.restitution = 0.0;
  s.tangential_restitution = 0.0;
  s.initial_kind = ZENO_INITIAL_ZOD;
  s.initial_qp[0] = 1.0;
  s.initial_qp[1] = 1.0;
  s.initial_qdp[2] = 2.0;
  s.model = ZENO_MODEL_ZOD;
  s.epsilon = 1e-3;
  s.t_end = 1000.0;
  s.max_events = 100000;
  s.escape_radius = 1e6;
  s.rtol = 1e-10;
  s.atol = 1e-10;
  s.sample_dt = 0.01;
  s.ambiguity = ZENO_AMBIGUITY_STOP;
  zeno_paper_params p = zeno_paper_example2();
  zeno_scene_apply_paper(&s, &p);
  return s;
}

void zeno_scene_apply_paper(zeno_scene *s, const zeno_paper_params *p) {
  s->has_paper = true;
  s->paper = *p;
  s->mass = p->m;
  s->rho = p->rho;
  s->contact_count = 2;
  const double l[2] = {p->l1, p->l2};
  const double phi[2] = {p->phi1, p->phi2};
  const double mu[2] = {p->mu1, p->mu2};
  for (int i = 0; i < 2; i++) {
    zeno_contact_def *c = &s->contacts[i];
    // Contacts stay fixed in the scene frame; the body frame is centred on
    // the (possibly shifted) centre of mass.
    c->point[0] = l[i] - s->com_shift[0];
    c->point[1] = -p->h - s->com_shift[1];
    c->surface_angle = phi[i] * DEG;
    c->surface_point[0] = c->point[0];
    c->surface_point[1] = c->point[1];
    c->surface_point_set = false;
    c->mu = mu[i];
  }
  s->load_magnitude = p->f;
  s->load_angle = p->alpha * DEG;
  s->load_torque = p->tau;
}

static zeno_status range_error(zeno_error *e, const char *param,
                               const char *fmt, double value) {
  char what[256];
  snprintf(what, sizeof what, fmt, value);
  return zeno_fail(e, ZENO_ERR_RANGE, param, "%s", what);
}

// Checks one number: finite and lo <(=) v <(=) hi.
static zeno_status check_number(zeno_error *e, const char *param, double v,
                                double lo, bool lo_open, double hi,
                                bool hi_open) {
  if (!isfinite(v))
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is not a finite number; allowed range %s%g, %g%s",
                     v, lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
  bool ok = (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi);
  if (!ok)
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is out of range; allowed %s%g, %g%s", v,
                     lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
  if (fabs(v) > SCENE_MAGNITUDE_MAX)
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is too large; magnitudes up to %g are allowed",
                     v, SCENE_MAGNITUDE_MAX);
  return ZENO_OK;
}

// A positive divisor (mass, rho, epsilon) must not be tiny.
static zeno_status check_divisor(zeno_error *e, const char *param, double v) {
  if (v < SCENE_DIVISOR_MIN)
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is too small; allowed [%g, %g]", v,
                     SCENE_DIVISOR_MIN, SCENE_MAGNITUDE_MAX);
  return ZENO_OK;
}

#define CHECK(param, v, lo, lo_open, hi, hi_open)                          \
  do {                                                                     \
    zeno_status st_ = check_number(error, (param), (v), (lo), (lo_open),   \
                                   (hi), (hi_open));                       \
    if (st_ != ZENO_OK) return st_;                                        \
  } while (0)

// Dotted path of a contact field, naming the paper key when the scene used one.
static void contact_param(const zeno_scene *s, int i, const char *field,
                          char *buf, size_t n) {
  if (s->has_paper && strcmp(field, "mu") == 0)
    snprintf(buf, n, "paper.mu%d", i + 1);
  else if (s->has_paper && strcmp(field, "surface.angle") == 0)
    snprintf(buf, n, "paper.phi%d", i + 1);
  else if (s->has_paper && strcmp(field, "point") == 0)
    snprintf(buf, n, "paper.l%d", i + 1);
  else
    snprintf(buf, n, "contacts.%d.%s", i, field);
}

zeno_status zeno_scene_validate(const zeno_scene *s, zeno_error *error) {
  const double inf = INFINITY;
  if (s == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene is NULL");
  const bool paper = s->has_paper;
  CHECK(paper ? "paper.m" : "body.mass", s->mass, 0, true, inf, true);
  CHECK(paper ? "paper.rho" : "body.rho", s->rho, 0, true, inf, true);
  zeno_status st = check_divisor(error, paper ? "paper.m" : "body.mass", s->mass);
  if (st == ZENO_OK)
    st = check_divisor(error, paper ? "paper.rho" : "body.rho", s->rho);
  if (st != ZENO_OK) return st;
  if (paper) {
    CHECK("paper.alpha", s->paper.alpha, -360, false, 360, false);
    CHECK("paper.h", s->paper.h, -inf, true, inf, true);
    CHECK("paper.l1", s->paper.l1, -inf, true, inf, true);
    CHECK("paper.l2", s->paper.l2, -inf, true, inf, true);
    CHECK("paper.phi1", s->paper.phi1, -360, false, 360, false);
    CHECK("paper.phi2", s->paper.phi2, -360, false, 360, false);
    CHECK("paper.tau", s->paper.tau, -inf, true, inf, true);
  }
  CHECK("com.x", s->com_shift[0], -inf, true, inf, true);
  CHECK("com.y", s->com_shift[1], -inf, true, inf, true);
  if (s->contact_count < 1 || s->contact_count > ZENO_MAX_CONTACTS)
    return zeno_fail(error, ZENO_ERR_RANGE, "contacts",
                     "%d contacts given; allowed 1 or 2", s->contact_count);
  double scale = s->rho;
  char param[128];
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    contact_param(s, i, "point", param, sizeof param);
    CHECK(param, c->point[0], -inf, true, inf, true);
    CHECK(param, c->point[1], -inf, true, inf, true);
    contact_param(s, i, "surface.angle", param, sizeof param);
    CHECK(param, c->surface_angle, -2 * M_PI, false, 2 * M_PI, false);
    contact_param(s, i, "mu", param, sizeof param);
    CHECK(param, c->mu, 0, false, inf, true);
    snprintf(param, sizeof param, "contacts.%d.surface.point", i);
    CHECK(param, c->surface_point[0], -inf, true, inf, true);
    CHECK(param, c->surface_point[1], -inf, true, inf, true);
    scale = fmax(scale, hypot(c->point[0], c->point[1]));
  }
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    if (!c->surface_point_set) continue;  // the line passes through the vertex
    // Distance of the vertex (at the nominal pose) from its surface line.
    double dx = c->point[0] - c->surface_point[0];
    double dy = c->point[1] - c->surface_point[1];
    double dist = -sin(c->surface_angle) * dx + cos(c->surface_angle) * dy;
    if (fabs(dist) > SCENE_ON_SURFACE_RTOL * scale) {
      snprintf(param, sizeof param, "contacts.%d.surface.point", i);
      return zeno_fail(error, ZENO_ERR_GEOMETRY, param,
                       "contact %d is not on its surface at the nominal pose "
                       "(distance %g; the surface line must pass through the "
                       "contact point (%g, %g))",
                       i + 1, dist, c->point[0], c->point[1]);
    }
  }
  if (s->contact_count == 2) {
    double d = hypot(s->contacts[0].point[0] - s->contacts[1].point[0],
                     s->contacts[0].point[1] - s->contacts[1].point[1]);
    if (d <= SCENE_COINCIDENT_RTOL * scale)
      return zeno_fail(error, ZENO_ERR_GEOMETRY,
                       paper ? "paper.l2" : "contacts.1.point",
                       "contacts 1 and 2 coincide at (%g, %g); two distinct "
                       "contact points are needed",
                       s->contacts[0].point[0], s->contacts[0].point[1]);
  }
  CHECK(paper ? "paper.f" : "load.magnitude", s->load_magnitude, 0, false, inf,
        true);
  CHECK(paper ? "paper.alpha" : "load.angle", s->load_angle, -2 * M_PI, false,
        2 * M_PI, false);
  CHECK(paper ? "paper.tau" : "load.torque", s->load_torque, -inf, true, inf,
        true);
  CHECK("impact.e", s->restitution, 0, false, 1, false);
  CHECK("impact.et", s->tangential_restitution, -1, false, 1, false);
  if (s->initial_kind == ZENO_INITIAL_ZOD) {
    if (s->contact_count != 2)
      return zeno_fail(error, ZENO_ERR_RANGE, "initial.qp",
                       "ZOD coordinates q' = (z1, z2, x2) need two contacts; "
                       "give initial.pose and initial.velocity instead");
    for (int k = 0; k < 3; k++) {
      CHECK("initial.qp", s->initial_qp[k], -inf, true, inf, true);
      CHECK("initial.qdp", s->initial_qdp[k], -inf, true, inf, true);
    }
    if (s->initial_qp[0] < 0 || s->initial_qp[1] < 0)
      return zeno_fail(error, ZENO_ERR_RANGE, "initial.qp",
                       "gaps z1 = %g, z2 = %g must be >= 0 (no penetration)",
                       s->initial_qp[0], s->initial_qp[1]);
  } else {
    for (int k = 0; k < 3; k++) {
      CHECK("initial.pose", s->initial_pose[k], -inf, true, inf, true);
      CHECK("initial.velocity", s->initial_velocity[k], -inf, true, inf, true);
    }
  }
  CHECK("epsilon", s->epsilon, 0, true, 1, false);
  st = check_divisor(error, "epsilon", s->epsilon);
  if (st != ZENO_OK) return st;
  CHECK("stop.t_end", s->t_end, 0, true, inf, true);
  if (s->max_events < 1)
    return range_error(error, "stop.max_events",
                       "value %g is out of range; allowed [1, inf)",
                       (double)s->max_events);
  CHECK("stop.escape_radius", s->escape_radius, 0, true, inf, true);
  CHECK("stop.wall_time", s->wall_time, 0, false, inf, true);
  CHECK("solver.rtol", s->rtol, 0, true, 1e-2, false);
  CHECK("solver.atol", s->atol, 0, true, inf, true);
  CHECK("solver.sample_dt", s->sample_dt, 0, false, inf, true);
  if (s->outline_kind == ZENO_OUTLINE_POLYGON &&
      (s->outline_count < 3 || s->outline_count > ZENO_MAX_OUTLINE))
    return zeno_fail(error, ZENO_ERR_RANGE, "body.outline",
                     "a polygon outline needs 3 to %d vertices, got %d",
                     ZENO_MAX_OUTLINE, s->outline_count);
  if (s->outline_kind == ZENO_OUTLINE_POLYGON) {
    for (int k = 0; k < s->outline_count; k++) {
      snprintf(param, sizeof param, "body.outline.%d", k);
      CHECK(param, s->outline[k][0], -inf, true, inf, true);
      CHECK(param, s->outline[k][1], -inf, true, inf, true);
    }
  }
  if (s->outline_kind == ZENO_OUTLINE_DISK)
    CHECK("body.outline_radius", s->outline_radius, 0, true, inf, true);
  return ZENO_OK;
}

const char *zeno_model_name(zeno_model m) {
  return m == ZENO_MODEL_FULL ? "full" : "zod";
}

const char *zeno_impact_law_name(zeno_impact_law law) {
  switch (law) {
    case ZENO_LAW_CHATTERJEE_RUINA: return "chatterjee-ruina";
    case ZENO_LAW_NEWTON: return "newton";
    default: return "inelastic";
  }
}

const char *zeno_ambiguity_policy_name(zeno_ambiguity_policy p) {
  switch (p) {
    case ZENO_AMBIGUITY_PREFER_STATIC: return "prefer-static";
    case ZENO_AMBIGUITY_PREFER_MOTION: return "prefer-motion";
    default: return "stop";
  }
}
