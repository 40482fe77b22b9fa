// Helpers of the certificate tests (test_certify*.c), which reach the
// analysis layer's internals. Include after <cmocka.h>: they assert.
#ifndef ZENO_TESTS_CERTIFY_TEST_UTIL_H
#define ZENO_TESTS_CERTIFY_TEST_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/certify_system.h"
#include "scene/scene_units.h"
#include "zeno/zeno.h"

/// A scene of scenes/ with overrides; a load error fails the test.
static inline zeno_scene load(const char *file, const char *const *overrides, size_t n) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load(path, overrides, n, &s, &e) != ZENO_OK)
    fail_msg("%s: %s", path, e.message);
  return s;
}

/// The system of a scene whose units are its own (the paper scenes: m, rho
/// and |f| are 1), so that the simulator's states compare directly; a
/// refusal fails the test.
static inline void build(const zeno_scene *s, zcs_system *sys) {
  assert_true(scene_units_trivial(scene_units_of(s)));
  bool refused = true;
  char reason[ZCS_REASON_SIZE];
  assert_int_equal(zcs_build(s, sys, &refused, reason, NULL), ZENO_OK);
  if (refused) fail_msg("refused: %s", reason);
}

/// A uniform draw in [lo, hi] from a small linear congruential generator
/// (the same sequence on every platform).
static inline double uniform(unsigned *seed, double lo, double hi) {
  *seed = *seed * 1103515245u + 12345u;
  return lo + (hi - lo) * (double)((*seed >> 8) & 0xffffff) / (double)0xffffff;
}

#endif
