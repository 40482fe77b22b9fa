// Helpers shared by the test programs: scenes of the paper and runs that
// keep their events.
#ifndef ZENO_TEST_UTIL_H
#define ZENO_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zeno/zeno.h"

/// Built with AddressSanitizer (tools/sanitize's builds, with UBSan): gcc
/// defines __SANITIZE_ADDRESS__, clang answers __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_SANITIZED 1
#endif
#endif
#ifndef TEST_SANITIZED
#define TEST_SANITIZED 0
#endif

/// The count of a test's long loop (angles, scenes, random cases): a fifth
/// of it under the sanitizers, whose checks slow a test 20 to 60 times.
/// They look for memory errors and undefined behaviour, which each path of
/// the loop meets in its first cases; the statistics that the full counts
/// gather are the normal build's to assert. A constant expression.
#define TEST_SCALED(n) (TEST_SANITIZED ? ((n) + 4) / 5 : (n))

#define DEG ZENO_RADIANS_PER_DEGREE

/// A recorded run.
typedef struct test_run {
  zeno_event *events;
  int count;
  zeno_summary summary;
  char word[8192];
} test_run;

/// The seeded generator of every random-case test: xorshift64*, small, fast
/// and reproducible on every platform.
typedef struct rng {
  uint64_t s;
} rng;

/// The next 64 random bits.
static inline uint64_t rng_next(rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ull;
}

/// A uniform number in [lo, hi).
static inline double rng_uniform(rng *r, double lo, double hi) {
  const uint64_t x = rng_next(r);
  return lo + (hi - lo) * (double)(x >> 11) * (1.0 / 9007199254740992.0);
}

static inline zeno_scene paper_scene(zeno_paper_params p, const double qp[3], const double qdp[3]) {
  zeno_scene s = zeno_scene_default();
  zeno_scene_apply_paper(&s, &p);
  s.initial_kind = ZENO_INITIAL_ZOD;
  memcpy(s.initial_qp, qp, sizeof s.initial_qp);
  memcpy(s.initial_qdp, qdp, sizeof s.initial_qdp);
  return s;
}

#ifdef ZENO_SCENES_DIR
/// The paper's scenes whose cycles the fast paths' tests run both ways.
static const char *const CYCLE_TEST_SCENES[] = {"example2.yaml", "example3-zeno.yaml",
                                                "example4.yaml", "example6.yaml",
                                                "example7.yaml", "rocking-block.yaml"};
#define CYCLE_TEST_SCENE_COUNT (sizeof CYCLE_TEST_SCENES / sizeof CYCLE_TEST_SCENES[0])

/// Loads the repository's scenes/NAME (as zeno_scene_load).
static inline zeno_status load_repo_scene(const char *name, zeno_scene *s) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, name);
  return zeno_scene_load(path, NULL, 0, s, NULL);
}
#endif

#ifdef ZENO_MAPS_POINCARE_INTERNAL_H
/// A cycle runner on the table for the scene with its contacts in the
/// order of eq. (13) (tests that include maps/poincare_internal.h
/// first); false, with nothing to free, when the scene has no model (a
/// degenerate random draw).
static inline bool ordered_runner(const zeno_scene *scene, cycle_runner *r) {
  zeno_scene ordered;
  poincare_ordered_scene(scene, &ordered);
  if (poincare_runner_init(r, &ordered, true, NULL) == ZENO_OK) return true;
  poincare_runner_free(r);
  return false;
}
#endif

/// Paper parameters drawn over the ranges of the paper's examples (as
/// test_properties draws them).
static inline zeno_paper_params draw_paper_params(rng *r) {
  const zeno_paper_params p = {rng_uniform(r, -60, 60),
                               rng_uniform(r, -3, 3),
                               rng_uniform(r, -3, 3),
                               rng_uniform(r, 0.2, 2),
                               rng_uniform(r, -60, 80),
                               rng_uniform(r, -60, 80),
                               rng_uniform(r, 0.1, 1),
                               rng_uniform(r, 0.1, 1),
                               1,
                               1,
                               1,
                               0};
  return p;
}

/// A scene of drawn parameters at its equilibrium (q' = qdot' = 0) under
/// `law`, with a restitution (and Chatterjee-Ruina's tangential one) drawn
/// too.
static inline zeno_scene draw_law_scene(rng *r, zeno_impact_law law) {
  const double zero[3] = {0, 0, 0};
  zeno_scene s = paper_scene(draw_paper_params(r), zero, zero);
  s.impact_law = law;
  s.restitution = law == ZENO_LAW_INELASTIC ? 0 : rng_uniform(r, 0, 0.9);
  s.tangential_restitution = law == ZENO_LAW_CHATTERJEE_RUINA ? rng_uniform(r, -0.5, 0.5) : 0;
  return s;
}

/// Calls visit(scene, context) on each valid one of `count` scenes drawn
/// under `law` (draw_law_scene) from seed.
static inline void visit_law_scenes(uint64_t seed, zeno_impact_law law, int count,
                                    void (*visit)(const zeno_scene *, void *), void *context) {
  rng r = {seed};
  for (int c = 0; c < count; c++) {
    const zeno_scene s = draw_law_scene(&r, law);
    if (zeno_scene_validate(&s, NULL) == ZENO_OK) visit(&s, context);
  }
}

static inline zeno_paper_params example2(void) {
  zeno_paper_params p = {65, -3.5, 2.25, 1.25, 75, 30, 0.75, 0.6, 1, 1, 1, 0};
  return p;
}
static inline zeno_paper_params example3(void) {
  zeno_paper_params p = {45, 1.5, -0.1, 0.6, 80, 40, 0.6, 0.001, 1, 1, 1, 0};
  return p;
}
static inline zeno_paper_params example4(void) {
  zeno_paper_params p = {10, 1.5, -0.3, 0.15, 42.5, 14.2, 0.55, 0.2, 1, 1, 1, 0};
  return p;
}

/// A body of unit mass with one contact vertex at (px, py) (body frame, from
/// the centre of mass) on a flat floor through it, friction mu, a vertical
/// load g, starting at rest at the nominal pose (initial pose form).
static inline zeno_scene one_contact_scene(double rho, double px, double py, double mu, double g) {
  zeno_scene s = zeno_scene_default();
  s.has_paper = false;
  s.mass = 1;
  s.rho = rho;
  s.contact_count = 1;
  s.contacts[0].point[0] = px;
  s.contacts[0].point[1] = py;
  s.contacts[0].surface_angle = 0;
  s.contacts[0].surface_point_set = false;
  s.contacts[0].mu = mu;
  s.load_magnitude = g;
  s.load_angle = 0;
  s.initial_kind = ZENO_INITIAL_POSE;
  return s;
}

/// A uniform slender rod (length 1, rho^2 = 1/3) on one end, leaning at the
/// Painlevé bound's worst angle (tan theta = 1/2 from the normal, where
/// bound (11) is 4/3), slipping at `slip`, under gravity g, for 1e-3.
static inline zeno_scene painleve_rod_scene(double mu, double slip, double g) {
  const double theta = atan(0.5);
  zeno_scene s = one_contact_scene(1 / sqrt(3.0), -sin(theta), -cos(theta), mu, g);
  s.initial_velocity[0] = slip;
  s.t_end = 1e-3;
  return s;
}

/// A solid ball of radius 0.1 dropped from height 1 under gravity g, Newton
/// restitution e (SPEC.md's bouncing ball).
static inline zeno_scene ball_scene(double e, double g) {
  zeno_scene s = one_contact_scene(sqrt(0.4) * 0.1, 0, -0.1, 0.5, g);
  s.impact_law = ZENO_LAW_NEWTON;
  s.restitution = e;
  s.initial_pose[1] = 1.0;
  s.t_end = 100;
  return s;
}

/// A box of half sizes (1, 0.5), m = 1, under a vertical load g, on three
/// collinear floor corners (x = -1, 1, 0.25), mu = 0.4, scaled in length by
/// L, under `law` with restitution e; at the nominal pose (initial pose
/// form), ambiguity prefer-static.
static inline zeno_scene three_corner_box(double L, double g, zeno_impact_law law, double e) {
  zeno_scene s = zeno_scene_default();
  s.mass = 1;
  s.rho = L * sqrt((1.0 + 0.25) / 3);
  s.load_magnitude = g;
  s.load_angle = 0;
  s.load_torque = 0;
  s.contact_count = 3;
  const double x[3] = {-1, 1, 0.25};
  for (int i = 0; i < 3; i++) {
    s.contacts[i].point[0] = L * x[i];
    s.contacts[i].point[1] = -0.5 * L;
    s.contacts[i].surface_angle = 0;
    s.contacts[i].surface_point_set = false;
    s.contacts[i].mu = 0.4;
  }
  s.ambiguity = ZENO_AMBIGUITY_PREFER_STATIC;
  s.impact_law = law;
  s.restitution = e;
  s.initial_kind = ZENO_INITIAL_POSE;
  return s;
}

/// Steps a simulator to its end and returns every event (malloc'd; *count
/// of them).
static inline zeno_event *collect_events(zeno_sim *sim, int *count) {
  int cap = 64, n = 0;
  zeno_event *events = malloc((size_t)cap * sizeof *events), ev;
  while (events && zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK) {
    if (n == cap) {
      cap *= 2;
      zeno_event *grown = realloc(events, (size_t)cap * sizeof *events);
      if (grown == NULL) break;
      events = grown;
    }
    events[n++] = ev;
  }
  *count = n;
  return events;
}

/// Runs a scene to its end, keeping every event. Returns 0 on success.
static inline int run_scene(const zeno_scene *s, test_run *r) {
  memset(r, 0, sizeof *r);
  zeno_error err;
  zeno_sim *sim = zeno_sim_create(s, NULL, &err);
  if (sim == NULL) return -1;
  r->events = collect_events(sim, &r->count);
  zeno_sim_summary(sim, &r->summary);
  zeno_sim_word(sim, r->word, sizeof r->word);
  zeno_sim_destroy(sim);
  return 0;
}

static inline void run_free(test_run *r) {
  free(r->events);
  r->events = NULL;
}

/// Relative difference, safe at zero.
/// An `inconsistent` end carries its proof (zeno_event.refusal): a mode
/// choice names a refusal for every mode of the contacts (Table 1 tried
/// them all); an impact, for at least one candidate of the law, and only
/// codes of the scene's contacts are named.
static inline void assert_inconsistency_proved(const zeno_event *end, int contact_count) {
  const int modes = contact_count == 2 ? ZENO_MAX_MODES : 4;
  int refused = 0;
  for (int code = 0; code < ZENO_MAX_MODES; code++) {
    const bool named = end->refusal[code] != ZENO_REFUSAL_NONE;
    refused += named;
    if (code >= modes) assert_false(named);
    else if (!end->refusal_of_impact) assert_true(named);
    if (named) assert_true(end->refusal_contact[code] < contact_count);
  }
  assert_true(refused > 0);
}

static inline double rel_diff(double a, double b) {
  const double scale = fmax(fabs(a), fabs(b));
  return scale == 0 ? 0 : fabs(a - b) / scale;
}

/// The k-th (0-based) event on the Poincaré section, or NULL.
static inline const zeno_event *section_event(const test_run *r, int k) {
  for (int i = 0; i < r->count; i++)
    if (r->events[i].on_section && k-- == 0) return &r->events[i];
  return NULL;
}

#endif
