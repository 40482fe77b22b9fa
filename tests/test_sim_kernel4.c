// The kernel's four-lane cycles (src/sim/sim_kernel4.c) against its
// one-lane cycles (sim_kernel_cycle): every cycle the four lanes make is
// the one-lane kernel's to the last bit (word, outcomes, end, tie margin,
// angle, rate, time), on the paper's scenes and on random scenes under
// each law, over the maps' uniform angles taken four at a time (groups
// that straddle a breakpoint included); the lanes make nearly every cycle
// the one-lane kernel makes, so the maps run on them; and the maps made on
// the lanes are the maps made one cycle at a time (a processor without
// AVX2), byte for byte.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "maps/maps_stream_internal.h"
#include "maps/poincare_internal.h"
#include "sim/sim_cycle.h"
#include "sim/sim_kernel.h"
#include "test_util.h"
#include "zeno/zeno.h"

/// Section angles per scene, uniform over I (as the maps sample them).
#define ANGLES 2000
/// Random scenes per law.
#define SCENES_PER_LAW 30
#define SEED 20261128u

typedef struct tally {
  long kernel;  ///< cycles the one-lane kernel made
  long lanes;   ///< of those, cycles the four lanes made
} tally;

static void assert_same_bits(double a, double b) { assert_memory_equal(&a, &b, sizeof a); }

// Four neighbouring angles both ways.
static void compare_group(cycle_runner *r, const double phi[], tally *t) {
  double qdp[4][3];
  for (int l = 0; l < 4; l++) {
    qdp[l][0] = 0;
    qdp[l][1] = -cos(phi[l]);
    qdp[l][2] = sin(phi[l]);
  }
  sim_cycle four[4];
  const unsigned lanes = sim_kernel_cycle4(r->sim, (const double(*)[3])qdp, four);
  for (int l = 0; l < 4; l++) {
    sim_cycle one;
    const bool kernel = sim_kernel_cycle(r->sim, qdp[l], &one);
    if (!(lanes & (1u << l))) {
      t->kernel += kernel;
      continue;
    }
    // What the lanes make, the one-lane kernel makes, to the last bit.
    assert_true(kernel);
    t->kernel++;
    t->lanes++;
    const sim_cycle *f = &four[l];
    assert_string_equal(f->word, one.word);
    assert_string_equal(f->outcomes, one.outcomes);
    assert_int_equal(f->word_len, one.word_len);
    assert_int_equal(f->outcomes_len, one.outcomes_len);
    assert_int_equal(f->returned, one.returned);
    assert_int_equal(f->end, one.end);
    assert_same_bits(f->tie_margin, one.tie_margin);
    assert_same_bits(f->angle, one.angle);
    assert_same_bits(f->rate, one.rate);
    assert_same_bits(f->t, one.t);
  }
}

static void compare_scene(const zeno_scene *scene, void *context) {
  tally *t = context;
  cycle_runner r;
  if (!ordered_runner(scene, &r)) return;  // nothing to compare
  for (int k = 0; k < ANGLES; k += 4) {
    double phi[4];
    for (int l = 0; l < 4; l++) phi[l] = -ZENO_PI / 2 + (k + l + 0.5) * ZENO_PI / ANGLES;
    compare_group(&r, phi, t);
  }
  poincare_runner_free(&r);
}

static void paper_scenes_agree(void **state) {
  (void)state;
  if (!__builtin_cpu_supports("avx2")) skip();
  for (size_t f = 0; f < CYCLE_TEST_SCENE_COUNT; f++) {
    zeno_scene scene;
    assert_int_equal(load_repo_scene(CYCLE_TEST_SCENES[f], &scene), ZENO_OK);
    tally t = {0};
    compare_scene(&scene, &t);
    printf("# %s: the one-lane kernel made %ld cycles, the four lanes %ld of them\n",
           CYCLE_TEST_SCENES[f], t.kernel, t.lanes);
    // The lanes leave to the one-lane kernel the first groups (which make
    // the table) and the groups across a breakpoint: a few percent.
    assert_true(t.kernel > ANGLES / 2);
    assert_true(t.lanes >= t.kernel - t.kernel / 20);
  }
}

static void random_scenes_agree(void **state) {
  (void)state;
  if (!__builtin_cpu_supports("avx2")) skip();
  for (int l = 0; l < ZENO_LAW_COUNT; l++) {
    const zeno_impact_law law = (zeno_impact_law)l;
    tally t = {0};
    visit_law_scenes(SEED + (uint64_t)l, law, SCENES_PER_LAW, compare_scene, &t);
    printf("# %s: the one-lane kernel made %ld cycles, the four lanes %ld of them\n",
           zeno_impact_law_name(law), t.kernel, t.lanes);
    if (!zeno_impact_law_info_of(law).complementarity) {
      assert_int_equal(t.lanes, 0);  // its impacts are the event loop's alone
    } else {
      assert_true(t.kernel > 0);
      assert_true(t.lanes >= t.kernel - t.kernel / 10);
    }
  }
}

// Streams the maps of the scene to the end (lanes cycles at a time, 0 the
// processor's), its samples into *samples (malloc'd) and the rest into
// *maps.
static size_t stream_maps(const zeno_scene *scene, int threads, int lanes, zeno_cycle **samples,
                          zeno_maps *maps) {
  zeno_maps_def def = zeno_maps_def_default();
  def.threads = threads;
  zeno_maps_stream *s = zeno_maps_stream_create(scene, &def, NULL);
  assert_non_null(s);
  if (lanes > 0) s->lanes = lanes;
  size_t n = 0, cap = def.samples + 2 * ZENO_MAX_BREAKPOINTS;
  *samples = malloc(cap * sizeof **samples);
  assert_non_null(*samples);
  zeno_status st;
  while ((st = zeno_maps_stream_next(s, &(*samples)[n], NULL)) == ZENO_OK) {
    n++;
    assert_true(n < cap);
  }
  assert_int_equal(st, ZENO_DONE);
  assert_int_equal(zeno_maps_stream_result(s, maps, NULL), ZENO_OK);
  zeno_maps_stream_destroy(s);
  return n;
}

// The maps on the kernel's lanes are the maps one cycle at a time (a
// processor without AVX2), to the last byte: every sample, breakpoint,
// fixed point and limit, on one thread and on two.
static void maps_same_on_one_lane(void **state) {
  (void)state;
  if (!__builtin_cpu_supports("avx2")) skip();
  for (size_t f = 0; f < CYCLE_TEST_SCENE_COUNT; f++) {
    zeno_scene scene;
    assert_int_equal(load_repo_scene(CYCLE_TEST_SCENES[f], &scene), ZENO_OK);
    for (int threads = 1; threads <= 2; threads++) {
      zeno_cycle *lanes, *one;
      zeno_maps ml, mo;
      const size_t n = stream_maps(&scene, threads, 0, &lanes, &ml);
      assert_int_equal(stream_maps(&scene, threads, 1, &one, &mo), n);
      assert_memory_equal(lanes, one, n * sizeof *lanes);
      assert_memory_equal(&ml, &mo, sizeof ml);
      free(lanes);
      free(one);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(paper_scenes_agree),
      cmocka_unit_test(random_scenes_agree),
      cmocka_unit_test(maps_same_on_one_lane),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
