// Prepared scenes (src/scene/scene_prepared.h): a text parsed once and
// loaded with overrides gives exactly what zeno_scene_load_string() of the
// text with all the overrides gives, scene and error alike (code, message,
// file, line, column, parameter), for every shipped scene and for good and
// bad overrides; loads leave the prepared tree as it was, and threads may
// load from one prepared scene at once.
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scene/scene_prepared.h"
#include "scene/scene_yaml_internal.h"
#include "test_util.h"

static const char *const SCENES[] = {
    "example2.yaml", "example3-zeno.yaml", "example4.yaml",      "example6.yaml",
    "example7.yaml", "bouncing-ball.yaml", "rocking-block.yaml", "sliding-block.yaml",
};

/// Point overrides as a region map or sweep makes them, good and bad: a
/// value, a value out of range, an unknown key, malformed YAML, a block
/// replacing a number, and a geometry made degenerate.
static const char *const POINTS[][2] = {
    {"stop.t_end=12.5", "impact.e=0.25"},
    {"com.x=0.3", "com.y=0.2"},
    {"paper.mu2=0.5", "paper.alpha=20"},
    {"impact.e=1.5", "com.x=0"},
    {"stop.nonsense=1", "com.x=0"},
    {"com.x=[1, ", "com.y=0"},
    {"com.x={a: 1}", "com.y=0"},
    {"contacts.0.mu=-1", "com.y=0"},
    {"initial.qdp=[0, -1, 0.5]", "stop.max_events=7"},
    // Numbers set in place on a working copy (scene_yaml.c's load_in_place)
    // and the cases that fall back to a clone: exponents, '+'-joined paths,
    // a path set twice, a number where a mapping is, a path through a
    // scalar, a blank before the value, an overflow, and a load that sets
    // nothing the one before it set (the copy must have been restored).
    {"paper.alpha=-1.25e1", "paper.mu1+paper.mu2=0.35"},
    {"paper.alpha=20", "paper.alpha=25"},
    {"paper.mu1=.5", "paper.mu2=5."},
    {"paper=3", "com.y=0"},
    {"paper.alpha.x=1", "com.y=0"},
    {"paper.alpha= 7", "com.y=0"},
    {"impact.e=1e999", "paper.mu1=0.2"},
    {"contacts.0.mu=0.45", "contacts.1.mu=+0.55"},
    {"stop.max_events=9", "stop.t_end=3"},
};

static char *read_scene(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  char *text;
  size_t length;
  assert_int_equal(zeno_scene_read_file(path, &text, &length, NULL), ZENO_OK);
  return text;
}

static void assert_same_load(zeno_status a, const zeno_scene *sa, const zeno_error *ea,
                             zeno_status b, const zeno_scene *sb, const zeno_error *eb) {
  assert_int_equal(a, b);
  if (a == ZENO_OK) {
    assert_memory_equal(sa, sb, sizeof *sa);
    return;
  }
  assert_int_equal(ea->code, eb->code);
  assert_string_equal(ea->message, eb->message);
  assert_string_equal(ea->file, eb->file);
  assert_string_equal(ea->parameter, eb->parameter);
  assert_int_equal(ea->line, eb->line);
  assert_int_equal(ea->column, eb->column);
}

static void loads_equal_the_string_loader(void **state) {
  (void)state;
  const char *const fixed[] = {"stop.wall_time=0", "solver.rtol=1e-9"};
  int loads = 0, errors = 0;
  for (size_t s = 0; s < sizeof SCENES / sizeof SCENES[0]; s++) {
    char *text = read_scene(SCENES[s]);
    for (size_t nfixed = 0; nfixed <= 2; nfixed += 2) {
      scene_prepared *p;
      assert_int_equal(scene_prepare(text, SCENES[s], fixed, nfixed, &p, NULL), ZENO_OK);
      for (size_t k = 0; k < sizeof POINTS / sizeof POINTS[0]; k++) {
        const char *all[4];
        for (size_t i = 0; i < nfixed; i++) all[i] = fixed[i];
        all[nfixed] = POINTS[k][0];
        all[nfixed + 1] = POINTS[k][1];
        zeno_scene a, b;
        zeno_error ea, eb;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        const zeno_status sa = scene_prepared_load(p, POINTS[k], 2, &a, &ea);
        const zeno_status sb = zeno_scene_load_string(text, SCENES[s], all, nfixed + 2, &b, &eb);
        assert_same_load(sa, &a, &ea, sb, &b, &eb);
        loads++;
        errors += sa != ZENO_OK;
      }
      // The loads left the tree alone: no overrides gives the text itself.
      zeno_scene a, b;
      zeno_error ea, eb;
      memset(&a, 0, sizeof a);
      memset(&b, 0, sizeof b);
      assert_same_load(scene_prepared_load(p, NULL, 0, &a, &ea), &a, &ea,
                       zeno_scene_load_string(text, SCENES[s], fixed, nfixed, &b, &eb), &b, &eb);
      scene_prepared_free(p);
    }
    free(text);
  }
  printf("# %d loads compared, %d of them errors\n", loads, errors);
  assert_true(errors >= 8 * 2 * 4);  // the bad overrides fail on every scene
}

typedef struct shared_load {
  const scene_prepared *p;
  double x;
  zeno_scene out[50];
} shared_load;

static void *load_many(void *arg) {
  shared_load *w = arg;
  for (int k = 0; k < 50; k++) {
    char o[64];
    snprintf(o, sizeof o, "com.x=%.17g", w->x + 0.01 * k);
    const char *ov[1] = {o};
    if (scene_prepared_load(w->p, ov, 1, &w->out[k], NULL) != ZENO_OK) return NULL;
  }
  return w;
}

// Two threads load from one prepared scene at once (the region maps'
// OpenMP threads do): each gets the scene a lone load gives.
static void threads_share_a_prepared_scene(void **state) {
  (void)state;
  char *text = read_scene("example6.yaml");
  scene_prepared *p;
  assert_int_equal(scene_prepare(text, "example6", NULL, 0, &p, NULL), ZENO_OK);
  static shared_load w[2];
  w[0] = (shared_load){.p = p, .x = -0.4};
  w[1] = (shared_load){.p = p, .x = 0.1};
  pthread_t t[2];
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&t[i], NULL, load_many, &w[i]), 0);
  for (int i = 0; i < 2; i++) {
    void *r;
    assert_int_equal(pthread_join(t[i], &r), 0);
    assert_non_null(r);
    for (int k = 0; k < 50; k++) {
      char o[64];
      snprintf(o, sizeof o, "com.x=%.17g", w[i].x + 0.01 * k);
      const char *ov[1] = {o};
      zeno_scene alone;
      memset(&alone, 0, sizeof alone);
      assert_int_equal(zeno_scene_load_string(text, "example6", ov, 1, &alone, NULL), ZENO_OK);
      assert_memory_equal(&alone, &w[i].out[k], sizeof alone);
    }
  }
  scene_prepared_free(p);
  free(text);
}

static void prepare_errors(void **state) {
  (void)state;
  scene_prepared *p = (scene_prepared *)&p;
  zeno_error e;
  assert_int_equal(scene_prepare(NULL, "x", NULL, 0, &p, &e), ZENO_ERR_ARGUMENT);
  assert_null(p);
  assert_int_equal(scene_prepare("a: [1,", "bad", NULL, 0, &p, &e), ZENO_ERR_SYNTAX);
  assert_null(p);
  const char *bad[1] = {"nokey"};
  assert_int_equal(scene_prepare("name: x", "x", bad, 1, &p, &e), ZENO_ERR_SYNTAX);
  assert_null(p);
  scene_prepared_free(NULL);
}

// The loader's fast decimals (sy_fast_decimal, Clinger's fast path) are
// strtod's doubles bit for bit: a million seeded decimals of every form
// (signs, leading and trailing zeros, points, exponents, 1 to 18 digits);
// those it declines are left to strtod. Most short ones take the fast path.
static void fast_decimals_are_strtod(void **state) {
  (void)state;
  rng seed = {0x9E3779B97F4A7C15ull};
  long fast = 0, short_ones = 0;
  char text[64];
  for (int k = 0; k < 1000000; k++) {
    size_t n = 0;
    const uint64_t r = rng_next(&seed);
    if (r % 3 == 0) text[n++] = r % 2 ? '-' : '+';
    const int digits = 1 + (int)(rng_next(&seed) % 18), point = (int)(rng_next(&seed) % 20);
    const int zeros = (int)(rng_next(&seed) % 4);
    for (int i = 0; i < zeros; i++) text[n++] = '0';
    for (int i = 0; i < digits; i++) {
      if (i == point) text[n++] = '.';
      text[n++] = (char)('0' + rng_next(&seed) % 10);
    }
    if (rng_next(&seed) % 2) {
      const uint64_t e = rng_next(&seed);
      n += (size_t)snprintf(text + n, sizeof text - n, "%s%d", e % 2 ? "e" : "E-", (int)(e % 40));
    }
    text[n] = '\0';
    char *end;
    const double expected = strtod(text, &end);
    assert_true(*end == '\0');
    double got;
    if (digits <= 12) short_ones++;
    if (!sy_fast_decimal(text, &got)) continue;
    fast++;
    if (memcmp(&got, &expected, sizeof got) != 0)
      fail_msg("%s: fast %.17g, strtod %.17g", text, got, expected);
  }
  assert_true(fast >= short_ones / 2);
  double v;
  assert_true(sy_fast_decimal("-0", &v) && v == 0 && signbit(v));
  assert_true(sy_fast_decimal("1e22", &v) && v == 1e22);
  assert_true(sy_fast_decimal("-1.5e-21", &v) && v == -1.5e-21);
  assert_false(sy_fast_decimal("-1.5e-22", &v));          // 15 x 10^-23: strtod's
  assert_false(sy_fast_decimal("9007199254740993", &v));  // 16 digits: strtod's
  assert_false(sy_fast_decimal("1e23", &v));
  assert_false(sy_fast_decimal(".", &v));
  assert_false(sy_fast_decimal("1e", &v));
  assert_false(sy_fast_decimal("0x10", &v));
  assert_false(sy_fast_decimal("1.5 ", &v));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loads_equal_the_string_loader),
      cmocka_unit_test(threads_share_a_prepared_scene),
      cmocka_unit_test(prepare_errors),
      cmocka_unit_test(fast_decimals_are_strtod),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
