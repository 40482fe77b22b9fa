// Helpers of the certificate tests (test_certify*.c), which reach the
// analysis layer's internals. Include after <cmocka.h>: they assert.
#ifndef ZENO_TESTS_CERTIFY_TEST_UTIL_H
#define ZENO_TESTS_CERTIFY_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "certify/certify_check.h"
#include "certify/certify_exact.h"
#include "certify/certify_program.h"
#include "certify/certify_system.h"
#include "scene/scene_units.h"
#include "zeno/zeno.h"

/// A scene of scenes/ with overrides; a load error fails the test.
static inline zeno_scene load(const char *file, const char *const *overrides, size_t n) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load(path, overrides, n, &s, &e) != ZENO_OK) fail_msg("%s: %s", path, e.message);
  return s;
}

/// The system of a scene whose units are its own (the paper scenes: m, rho
/// and |f| are 1), so that the simulator's states compare directly; a
/// refusal fails the test.
static inline void build(const zeno_scene *s, cert_system *sys) {
  assert_true(scene_units_trivial(scene_units_of(s)));
  bool refused = true;
  char reason[CERT_REASON_SIZE];
  assert_int_equal(cert_build(s, sys, &refused, reason, NULL), ZENO_OK);
  if (refused) fail_msg("refused: %s", reason);
}

/// A uniform draw in [lo, hi] from a small linear congruential generator
/// (the same sequence on every platform).
static inline double uniform(unsigned *seed, double lo, double hi) {
  *seed = *seed * 1103515245u + 12345u;
  return lo + (hi - lo) * (double)((*seed >> 8) & 0xffffff) / (double)0xffffff;
}

/// The tests' program settings at weighted degree 2 (zeno_certify's default).
static const cert_program_settings DEGREE2 = {
    .degree = 2, .eps = 1e-3, .max_iterations = 100, .parts = 0};

/// cert_program_certify with `set`; a solver failure fails the test (a program
/// without a certificate is an outcome, not a failure).
static inline void certify(const cert_system *sys, const cert_program_settings *set,
                           cert_program_outcome *o) {
  assert_int_equal(cert_program_certify(sys, set, o, NULL), ZENO_OK);
}

/// cert_program_certify with `set`, which must certify: the refusal's reason (with
/// `name`) fails the test, and the certificate must be decided exactly.
static inline void certify_exactly(const cert_system *sys, const cert_program_settings *set,
                                   const char *name, cert_program_outcome *o) {
  certify(sys, set, o);
  if (!o->certified) fail_msg("%s: %s", name, o->reason);
  assert_true(o->exact);
}

/// The certificate's simulation check (cert_check_check) on `runs` random runs of
/// size 0.1 from seed 5: every run is made, each with more than 5 steps.
static inline void check_runs(const zeno_scene *s, const cert_system *sys,
                              const cert_program_outcome *o, int runs, bool skip_first_flight,
                              cert_check_result *chk) {
  assert_int_equal(cert_check_check(s, sys, o, runs, 0.1, 5u, skip_first_flight, NULL, chk, NULL),
                   ZENO_OK);
  assert_int_equal(chk->runs, runs);
  assert_true(chk->events > 5 * runs);
}

/// How many of `runs` plain runs of the scene come to rest, each from q' in
/// [0, size]^2 x [-size, size] (the angle 0 when `turn` is false) and
/// qdot' in [-size, size]^3, drawn in that order from `seed`.
static inline int runs_at_rest(const zeno_scene *s, int runs, double size, bool turn,
                               unsigned seed) {
  zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *sim = zeno_sim_create(s, &def, NULL);
  assert_non_null(sim);
  int rest = 0;
  for (int run = 0; run < runs; run++) {
    double qp[3], qdp[3];
    qp[0] = uniform(&seed, 0, size);
    qp[1] = uniform(&seed, 0, size);
    qp[2] = turn ? uniform(&seed, -size, size) : 0;
    for (int k = 0; k < 3; k++) qdp[k] = uniform(&seed, -size, size);
    assert_int_equal(zeno_sim_restart(sim, qp, qdp, NULL), ZENO_OK);
    zeno_event ev;
    do assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_OK);
    while (ev.kind != ZENO_EVENT_END);
    rest += ev.outcome == ZENO_OUTCOME_REST;
  }
  zeno_sim_destroy(sim);
  return rest;
}

/// W's coefficients in cert_exact_verify's order (a1, a2, P00, P01, P02, P11, P12,
/// P22) from a degree-2 outcome's monomials in (z1, z2, u1, u2, w2).
static inline void unknowns_of(const cert_program_outcome *o, double x[CERT_EXACT_NX]) {
  static const int pidx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
  memset(x, 0, CERT_EXACT_NX * sizeof *x);
  for (int k = 0; k < o->nterms; k++) {
    int vars[2] = {-1, -1}, deg = 0;
    for (int v = 0; v < 5; v++)
      for (int p = 0; p < o->mono[k].e[v]; p++) vars[deg++] = v;
    if (deg == 1) x[vars[0]] = o->coef[k];
    else x[pidx[vars[0] - 2][vars[1] - 2]] = vars[0] == vars[1] ? o->coef[k] : 0.5 * o->coef[k];
  }
}

#endif
