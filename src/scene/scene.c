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

zeno_paper_params zeno_paper_example2(void) {
  zeno_paper_params p = {.alpha = 65,
                         .l1 = -3.5,
                         .l2 = 2.25,
                         .h = 1.25,
                         .phi1 = 75,
                         .phi2 = 30,
                         .mu1 = 0.75,
                         .mu2 = 0.6,
                         .rho = 1,
                         .m = 1,
                         .f = 1,
                         .tau = 0};
  return p;
}

zeno_scene zeno_scene_default(void) {
  zeno_scene s;
  memset(&s, 0, sizeof s);
  snprintf(s.name, sizeof s.name, "%s", "example2");
  s.outline_kind = ZENO_OUTLINE_BIPED;
  s.outline_radius = 1.0;
  s.impact_law = ZENO_LAW_DEFAULT;
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
  s.escape_radius = 0;  // the scene size times ZENO_ESCAPE_RADIUS_SCALES
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
  s->paper = (zeno_paper_geometry){
      .alpha = p->alpha, .l1 = p->l1, .l2 = p->l2, .h = p->h, .phi1 = p->phi1, .phi2 = p->phi2};
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
    c->surface_angle = phi[i] * ZENO_RADIANS_PER_DEGREE;
    c->surface_point[0] = c->point[0];
    c->surface_point[1] = c->point[1];
    c->surface_point_set = false;
    c->mu = mu[i];
  }
  s->load_magnitude = p->f;
  s->load_angle = p->alpha * ZENO_RADIANS_PER_DEGREE;
  s->load_torque = p->tau;
}

bool zeno_scene_paper(const zeno_scene *s, zeno_paper_params *p) {
  if (s == NULL || p == NULL || !s->has_paper || s->contact_count != 2) return false;
  const zeno_paper_geometry *g = &s->paper;
  *p = (zeno_paper_params){.alpha = g->alpha,
                           .l1 = g->l1,
                           .l2 = g->l2,
                           .h = g->h,
                           .phi1 = g->phi1,
                           .phi2 = g->phi2,
                           .mu1 = s->contacts[0].mu,
                           .mu2 = s->contacts[1].mu,
                           .rho = s->rho,
                           .m = s->mass,
                           .f = s->load_magnitude,
                           .tau = s->load_torque};
  return true;
}

/// An allowed interval of a scene number: lo <(=) v <(=) hi.
typedef struct scene_range {
  double lo, hi;
  bool lo_open, hi_open;  ///< the end itself is excluded
} scene_range;

/* The ranges of zeno_scene_validate(), named after what they allow. */
/// Any finite number (within SCENE_MAGNITUDE_MAX).
static const scene_range ANY = {-INFINITY, INFINITY, true, true};
/// Strictly positive: masses, radii, times, tolerances.
static const scene_range POSITIVE = {0, INFINITY, true, true};
/// Zero or positive: friction coefficients, load magnitude, durations.
static const scene_range NON_NEGATIVE = {0, INFINITY, false, true};
/// An angle written in degrees, one turn either way.
static const scene_range DEGREES = {-360, 360, false, false};
/// An angle kept in radians, one turn either way.
static const scene_range RADIANS = {-2 * ZENO_PI, 2 * ZENO_PI, false, false};
/// A restitution coefficient: [0, 1].
static const scene_range UNIT = {0, 1, false, false};
/// A tangential restitution coefficient: [-1, 1].
static const scene_range SIGNED_UNIT = {-1, 1, false, false};
/// The full model's perturbation scale: (0, 1].
static const scene_range EPSILON = {0, 1, true, false};
/// CVODE's relative tolerance: (0, 1e-2].
static const scene_range SOLVER_RTOL = {0, 1e-2, true, false};

// Whether a number passes check() below.
static bool in_range(double v, const scene_range *r) {
  return isfinite(v) && (r->lo_open ? v > r->lo : v >= r->lo) &&
         (r->hi_open ? v < r->hi : v <= r->hi) && fabs(v) <= SCENE_MAGNITUDE_MAX;
}

// Checks one number: finite, inside the range, and of a sane magnitude.
static zeno_status check(zeno_error *e, const char *param, double v, const scene_range *r) {
  const char *open = r->lo_open ? "(" : "[", *close = r->hi_open ? ")" : "]";
  if (!isfinite(v))
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is not a finite number; allowed range %s%g, %g%s", v, open, r->lo,
                     r->hi, close);
  const bool ok = (r->lo_open ? v > r->lo : v >= r->lo) && (r->hi_open ? v < r->hi : v <= r->hi);
  if (!ok)
    return zeno_fail(e, ZENO_ERR_RANGE, param, "value %g is out of range; allowed %s%g, %g%s", v,
                     open, r->lo, r->hi, close);
  if (fabs(v) > SCENE_MAGNITUDE_MAX)
    return zeno_fail(e, ZENO_ERR_RANGE, param,
                     "value %g is too large; magnitudes up to %g are allowed", v,
                     SCENE_MAGNITUDE_MAX);
  return ZENO_OK;
}

// A positive divisor (mass, rho, epsilon) must not be tiny.
static zeno_status check_divisor(zeno_error *e, const char *param, double v) {
  if (v < SCENE_DIVISOR_MIN)
    return zeno_fail(e, ZENO_ERR_RANGE, param, "value %g is too small; allowed [%g, %g]", v,
                     SCENE_DIVISOR_MIN, SCENE_MAGNITUDE_MAX);
  return ZENO_OK;
}

/// Returns from the enclosing function when a check fails.
#define TRY(call)                     \
  do {                                \
    const zeno_status try_ = (call);  \
    if (try_ != ZENO_OK) return try_; \
  } while (0)

// Dotted path of a contact field, naming the paper key when the scene used one.
static void contact_param(const zeno_scene *s, int i, const char *field, char *buf, size_t n) {
  if (s->has_paper && strcmp(field, "mu") == 0) snprintf(buf, n, "paper.mu%d", i + 1);
  else if (s->has_paper && strcmp(field, "surface.angle") == 0)
    snprintf(buf, n, "paper.phi%d", i + 1);
  else if (s->has_paper && strcmp(field, "point") == 0) snprintf(buf, n, "paper.l%d", i + 1);
  else snprintf(buf, n, "contacts.%d.%s", i, field);
}

// check() of a contact's field, its name (contact_param) made only for a
// failure: scenes are validated at every simulator's creation.
static zeno_status check_contact(const zeno_scene *s, zeno_error *e, int i, const char *field,
                                 double v, const scene_range *r) {
  if (in_range(v, r)) return ZENO_OK;
  char param[128];
  contact_param(s, i, field, param, sizeof param);
  return check(e, param, v, r);
}

// Mass and radius of gyration (they divide), the paper block and com.
static zeno_status validate_body(const zeno_scene *s, zeno_error *error) {
  const bool paper = s->has_paper;
  const char *mass = paper ? "paper.m" : "body.mass";
  const char *rho = paper ? "paper.rho" : "body.rho";
  TRY(check(error, mass, s->mass, &POSITIVE));
  TRY(check(error, rho, s->rho, &POSITIVE));
  TRY(check_divisor(error, mass, s->mass));
  TRY(check_divisor(error, rho, s->rho));
  if (paper) {
    TRY(check(error, "paper.alpha", s->paper.alpha, &DEGREES));
    TRY(check(error, "paper.h", s->paper.h, &ANY));
    TRY(check(error, "paper.l1", s->paper.l1, &ANY));
    TRY(check(error, "paper.l2", s->paper.l2, &ANY));
    TRY(check(error, "paper.phi1", s->paper.phi1, &DEGREES));
    TRY(check(error, "paper.phi2", s->paper.phi2, &DEGREES));
  }
  TRY(check(error, "com.x", s->com_shift[0], &ANY));
  TRY(check(error, "com.y", s->com_shift[1], &ANY));
  return ZENO_OK;
}

// Contact points and surfaces: ranges, each vertex on its surface line, and
// distinct contact points.
static zeno_status validate_contacts(const zeno_scene *s, zeno_error *error) {
  if (s->contact_count < 1 || s->contact_count > ZENO_MAX_CONTACTS)
    return zeno_fail(error, ZENO_ERR_RANGE, "contacts", "%d contacts given; allowed 1 to %d",
                     s->contact_count, ZENO_MAX_CONTACTS);
  double scale = s->rho;
  char param[128];
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    TRY(check_contact(s, error, i, "point", c->point[0], &ANY));
    TRY(check_contact(s, error, i, "point", c->point[1], &ANY));
    TRY(check_contact(s, error, i, "surface.angle", c->surface_angle, &RADIANS));
    TRY(check_contact(s, error, i, "mu", c->mu, &NON_NEGATIVE));
    TRY(check_contact(s, error, i, "surface.point", c->surface_point[0], &ANY));
    TRY(check_contact(s, error, i, "surface.point", c->surface_point[1], &ANY));
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
  for (int i = 0; i < s->contact_count; i++)
    for (int j = i + 1; j < s->contact_count; j++) {
      const double *a = s->contacts[i].point, *b = s->contacts[j].point;
      if (hypot(a[0] - b[0], a[1] - b[1]) > SCENE_COINCIDENT_RTOL * scale) continue;
      if (s->contact_count == 2)
        return zeno_fail(error, ZENO_ERR_GEOMETRY, s->has_paper ? "paper.l2" : "contacts.1.point",
                         "contacts 1 and 2 coincide at (%g, %g); two distinct "
                         "contact points are needed",
                         a[0], a[1]);
      snprintf(param, sizeof param, "contacts.%d.point", j);
      return zeno_fail(error, ZENO_ERR_GEOMETRY, param,
                       "contacts %d and %d coincide at (%g, %g); distinct contact points "
                       "are needed",
                       i + 1, j + 1, a[0], a[1]);
    }
  return ZENO_OK;
}

// The load, the impact law's coefficients and the initial state.
static zeno_status validate_load_and_start(const zeno_scene *s, zeno_error *error) {
  const bool paper = s->has_paper;
  TRY(check(error, paper ? "paper.f" : "load.magnitude", s->load_magnitude, &NON_NEGATIVE));
  TRY(check(error, paper ? "paper.alpha" : "load.angle", s->load_angle, &RADIANS));
  TRY(check(error, paper ? "paper.tau" : "load.torque", s->load_torque, &ANY));
  TRY(check(error, "impact.e", s->restitution, &UNIT));
  TRY(check(error, "impact.et", s->tangential_restitution, &SIGNED_UNIT));
  if (s->initial_kind == ZENO_INITIAL_ZOD) {
    if (s->contact_count < ZENO_PAIR_CONTACTS)
      return zeno_fail(error, ZENO_ERR_RANGE, "initial.qp",
                       "ZOD coordinates q' need two or more contacts; "
                       "give initial.pose and initial.velocity instead");
    for (int k = 0; k < 3; k++) {
      TRY(check(error, "initial.qp", s->initial_qp[k], &ANY));
      TRY(check(error, "initial.qdp", s->initial_qdp[k], &ANY));
    }
    // More contacts: q' is the N-contact engine's (zeno_scene_zod_names),
    // and the run's start refuses a gap below zero at any contact, named.
    if (s->contact_count == ZENO_PAIR_CONTACTS && (s->initial_qp[0] < 0 || s->initial_qp[1] < 0))
      return zeno_fail(error, ZENO_ERR_RANGE, "initial.qp",
                       "gaps z1 = %g, z2 = %g must be >= 0 (no penetration)", s->initial_qp[0],
                       s->initial_qp[1]);
  } else {
    for (int k = 0; k < 3; k++) {
      TRY(check(error, "initial.pose", s->initial_pose[k], &ANY));
      TRY(check(error, "initial.velocity", s->initial_velocity[k], &ANY));
    }
  }
  return ZENO_OK;
}

// The model, the stop conditions, the solver settings and the outline.
static zeno_status validate_run(const zeno_scene *s, zeno_error *error) {
  TRY(check(error, "epsilon", s->epsilon, &EPSILON));
  TRY(check_divisor(error, "epsilon", s->epsilon));
  TRY(check(error, "stop.t_end", s->t_end, &POSITIVE));
  if (s->max_events < 1)
    return zeno_fail(error, ZENO_ERR_RANGE, "stop.max_events",
                     "value %g is out of range; allowed [1, inf)", (double)s->max_events);
  TRY(check(error, "stop.escape_radius", s->escape_radius, &NON_NEGATIVE));
  TRY(check(error, "stop.wall_time", s->wall_time, &NON_NEGATIVE));
  TRY(check(error, "solver.rtol", s->rtol, &SOLVER_RTOL));
  TRY(check(error, "solver.atol", s->atol, &POSITIVE));
  TRY(check(error, "solver.sample_dt", s->sample_dt, &NON_NEGATIVE));
  if (s->outline_kind == ZENO_OUTLINE_POLYGON &&
      (s->outline_count < 3 || s->outline_count > ZENO_MAX_OUTLINE))
    return zeno_fail(error, ZENO_ERR_RANGE, "body.outline",
                     "a polygon outline needs 3 to %d vertices, got %zu", ZENO_MAX_OUTLINE,
                     s->outline_count);
  if (s->outline_kind == ZENO_OUTLINE_POLYGON) {
    char param[128];
    for (size_t k = 0; k < s->outline_count; k++) {
      snprintf(param, sizeof param, "body.outline.%zu", k);
      TRY(check(error, param, s->outline[k][0], &ANY));
      TRY(check(error, param, s->outline[k][1], &ANY));
    }
  }
  if (s->outline_kind == ZENO_OUTLINE_DISK)
    TRY(check(error, "body.outline_radius", s->outline_radius, &POSITIVE));
  return ZENO_OK;
}

// The name is printed in summaries and figures: a terminated string with no
// control characters (a terminal escape sequence would reach the terminal).
static zeno_status validate_name(const zeno_scene *s, zeno_error *error) {
  const char *end = memchr(s->name, '\0', sizeof s->name);
  bool ok = end != NULL;
  for (const unsigned char *p = (const unsigned char *)s->name; ok && *p; p++)
    ok = *p >= 0x20 && *p != 0x7f;
  if (ok) return ZENO_OK;
  return zeno_fail(error, ZENO_ERR_RANGE, "name",
                   "'%.*s' holds control characters; a scene name is printable text",
                   end ? (int)(end - s->name) : (int)sizeof s->name - 1, s->name);
}

zeno_status zeno_scene_require_pair(const zeno_scene *scene, zeno_error *error) {
  if (scene == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a scene is required");
  if (scene->contact_count <= ZENO_PAIR_CONTACTS) return ZENO_OK;
  return zeno_fail(error, ZENO_ERR_UNSUPPORTED, "contacts",
                   "the scene has %d contacts; the analysis, maps and certificates take 1 or "
                   "%d contacts today ('zeno check', 'simulate', 'view', 'sweep' and "
                   "'regions' take up to %d)",
                   scene->contact_count, ZENO_PAIR_CONTACTS, ZENO_MAX_CONTACTS);
}

zeno_status zeno_scene_validate(const zeno_scene *s, zeno_error *error) {
  if (s == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene is NULL");
  TRY(validate_name(s, error));
  TRY(validate_body(s, error));
  TRY(validate_contacts(s, error));
  TRY(validate_load_and_start(s, error));
  return validate_run(s, error);
}
