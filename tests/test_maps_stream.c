// The maps R and G sample by sample (zeno_maps_stream): the same map as
// zeno_maps_compute, in phi order, whose breakpoints and fixed points agree
// with its own samples, the paper's breakpoints of Example 2, in memory that
// does not grow with the number of samples, the same on any number of
// threads, and every error path.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_util.h"

/// Samples of the maps compared here (fast enough for the default suite,
/// fine enough for Example 6's breakpoints on fixed points).
#define SAMPLES 2000
/// Samples of the memory test, and the most the window may add to the
/// process: holding them would take SAMPLES_LARGE * sizeof(zeno_cycle)
/// (24.8 MB).
#define SAMPLES_LARGE 100000
#define WINDOW_GROWTH_MAX_KB 8192
/// The most the same stream on two threads may add (issue 14's bound for
/// 600,000 samples).
#define THREADED_GROWTH_MAX_KB (64 * 1024)
/// Samples of the threads test: three blocks of the maps' 4096, the last
/// one partial.
#define THREAD_SAMPLES (2 * 4096 + 7)

static zeno_scene load(const char *file) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &s, &e), ZENO_OK);
  return s;
}

static bool same_branch(const zeno_cycle *a, const zeno_cycle *b) {
  return a->defined == b->defined && strcmp(a->word, b->word) == 0 &&
         strcmp(a->outcomes, b->outcomes) == 0;
}

// The same breakpoints and fixed points, bit for bit.
static void assert_same_findings(const zeno_maps *a, const zeno_maps *b) {
  assert_int_equal(a->breakpoint_count, b->breakpoint_count);
  assert_memory_equal(a->breakpoints, b->breakpoints, a->breakpoint_count * sizeof *a->breakpoints);
  assert_int_equal(a->fixed_point_count, b->fixed_point_count);
  assert_memory_equal(a->fixed_points, b->fixed_points,
                      a->fixed_point_count * sizeof *a->fixed_points);
}

// Every sample of the stream, and the rest of the maps.
static zeno_cycle *stream_all(const zeno_scene *s, const zeno_maps_def *def, size_t *n,
                              zeno_maps *rest) {
  zeno_error e;
  zeno_maps_stream *st = zeno_maps_stream_create(s, def, &e);
  assert_non_null(st);
  size_t cap = 1024;
  zeno_cycle *all = malloc(cap * sizeof *all);
  *n = 0;
  zeno_status r;
  zeno_cycle c;
  // Before the end the rest is not there yet.
  assert_int_equal(zeno_maps_stream_result(st, rest, &e), ZENO_ERR_ARGUMENT);
  while ((r = zeno_maps_stream_next(st, &c, &e)) == ZENO_OK) {
    if (*n == cap) all = realloc(all, (cap *= 2) * sizeof *all);
    all[(*n)++] = c;
  }
  assert_int_equal(r, ZENO_DONE);
  assert_int_equal(zeno_maps_stream_next(st, &c, &e), ZENO_DONE);  // and stays done
  assert_int_equal(zeno_maps_stream_result(st, rest, &e), ZENO_OK);
  assert_int_equal(rest->sample_count, 0);
  assert_null(rest->samples);
  zeno_maps_stream_destroy(st);
  return all;
}

// The stream is the map: the samples zeno_maps_compute() keeps, in phi
// order, the uniform grid plus two sides per breakpoint; each breakpoint
// lies between two neighbouring samples of different branches, within
// breakpoint_tol (ZENO_BREAKPOINT_TIE_WIDTH where several words meet); each sign change of R - phi inside a branch holds a fixed
// point, and one across branches a fixed point on a breakpoint.
static void check_scene(const char *file) {
  const zeno_scene s = load(file);
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = SAMPLES;
  size_t n;
  zeno_maps rest;
  zeno_cycle *all = stream_all(&s, &def, &n, &rest);
  zeno_maps whole;
  assert_int_equal(zeno_maps_compute(&s, &def, &whole, NULL), ZENO_OK);
  assert_int_equal(n, whole.sample_count);
  assert_int_equal(n, SAMPLES + 2 * rest.breakpoint_count);
  assert_memory_equal(all, whole.samples, n * sizeof *all);
  assert_same_findings(&rest, &whole);
  assert_true(rest.G_max == whole.G_max);
  for (size_t k = 1; k < n; k++) assert_true(all[k].phi >= all[k - 1].phi);
  for (size_t j = 0; j < rest.breakpoint_count; j++) {
    const double bp = rest.breakpoints[j];
    size_t k = 1;
    while (k < n && all[k].phi < bp) k++;
    assert_true(k < n);
    assert_false(same_branch(&all[k - 1], &all[k]));
    // Within breakpoint_tol, or a breakpoint where several words meet.
    assert_true(all[k].phi - all[k - 1].phi <= ZENO_BREAKPOINT_TIE_WIDTH + def.breakpoint_tol);
  }
  int within = 0, across = 0;
  for (size_t k = 0; k + 1 < n; k++) {
    const zeno_cycle *a = &all[k], *b = &all[k + 1];
    if (!a->defined || !b->defined) continue;
    const double f0 = a->R - a->phi, f1 = b->R - b->phi;
    if (f0 == 0 || f1 == 0 || (f0 > 0) == (f1 > 0)) continue;
    bool found = false;
    for (size_t i = 0; i < rest.fixed_point_count && !found; i++) {
      const zeno_fixed_point *fp = &rest.fixed_points[i];
      found = fp->phi >= a->phi - 1e-9 && fp->phi <= b->phi + 1e-9 &&
              (same_branch(a, b) || fp->at_breakpoint);
    }
    assert_true(found);
    if (same_branch(a, b)) within++;
    else across++;
  }
  printf(
      "# %s: %zu samples, %zu breakpoints, %zu fixed points (%d inside a "
      "branch, %d on a breakpoint by sign)\n",
      file, n, rest.breakpoint_count, rest.fixed_point_count, within, across);
  free(all);
  zeno_maps_free(&whole);
}

static void stream_is_the_map(void **state) {
  (void)state;
  check_scene("example2.yaml");
  check_scene("example4.yaml");
  check_scene("example6.yaml");
  check_scene("example7.yaml");
}

// Threads share out the uniform samples, each on a runner of its own; a
// cycle depends on its angle alone, so the maps are the same to the last
// bit on 1, 2 and 3 threads (3 puts block boundaries and thread shares
// elsewhere), on the table and on the general path.
static void same_on_any_threads(void **state) {
  (void)state;
  const char *files[] = {"example2.yaml", "example6.yaml"};
  for (size_t f = 0; f < 2; f++) {
    const zeno_scene s = load(files[f]);
    for (int table = 0; table < 2; table++) {
      zeno_maps ref;
      for (int threads = 1; threads <= 3; threads++) {
        zeno_maps_def def = zeno_maps_def_default();
        def.samples = THREAD_SAMPLES;
        def.zod_table = table == 1;
        def.threads = threads;
        zeno_maps m;
        assert_int_equal(zeno_maps_compute(&s, &def, &m, NULL), ZENO_OK);
        if (threads == 1) {
          ref = m;
          continue;
        }
        assert_int_equal(m.sample_count, ref.sample_count);
        assert_memory_equal(m.samples, ref.samples, m.sample_count * sizeof *m.samples);
        assert_same_findings(&m, &ref);
        assert_memory_equal(&m.G_max, &ref.G_max, sizeof m.G_max);
        zeno_maps_free(&m);
      }
      zeno_maps_free(&ref);
    }
  }
}

// Example 2 (docs/analysis.md, the paper's Fig. 4c): R becomes defined at
// -0.3756, the first impact stops sticking at 0.5425 (G's kink at 0.54),
// the cycle becomes slip-only at 1.398.
static void example2_breakpoints(void **state) {
  (void)state;
  const zeno_scene s = load("example2.yaml");
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = SAMPLES;
  size_t n;
  zeno_maps rest;
  free(stream_all(&s, &def, &n, &rest));
  const double expected[3] = {-0.3756, 0.5425, 1.398}, tol[3] = {1e-4, 1e-4, 1e-3};
  for (int j = 0; j < 3; j++) {
    bool found = false;
    for (size_t k = 0; k < rest.breakpoint_count; k++)
      found = found || fabs(rest.breakpoints[k] - expected[j]) < tol[j];
    assert_true(found);
  }
}

// Resident memory of the process now [kB] (/proc/self/statm).
static long resident_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  if (f == NULL || fscanf(f, "%ld %ld", &size, &resident) != 2) fail();
  fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// 100,000 samples pass through a window of a few: with the stream still
// open after the last, the process holds far less than the samples would
// take.
// The samples of one stream run, and how much the process grew meanwhile.
static long stream_growth(const zeno_scene *s, int threads, size_t *n) {
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = SAMPLES_LARGE;
  def.threads = threads;
  const long before = resident_kb();
  zeno_maps_stream *st = zeno_maps_stream_create(s, &def, NULL);
  assert_non_null(st);
  zeno_cycle c;
  double last = -ZENO_PI;
  *n = 0;
  while (zeno_maps_stream_next(st, &c, NULL) == ZENO_OK) {
    assert_true(c.phi >= last);
    last = c.phi;
    (*n)++;
  }
  const long grown = resident_kb() - before;
  zeno_maps_stream_destroy(st);
  return grown;
}

static void constant_memory(void **state) {
  (void)state;
  const zeno_scene s = load("example2.yaml");
  size_t n;
  // One thread: the window alone.
  const long grown = stream_growth(&s, 1, &n);
  printf("# %zu samples streamed; the process grew by %ld kB (holding them: %zu kB)\n", n, grown,
         n * sizeof(zeno_cycle) / 1024);
  assert_true(n >= SAMPLES_LARGE);
  assert_true(grown < WINDOW_GROWTH_MAX_KB);
  // Two threads add a block of samples, a second simulator and a thread's
  // stack (and, under ASan, its shadow): within the 64 MiB.
  const long grown2 = stream_growth(&s, 2, &n);
  printf("# on 2 threads the process grew by %ld kB more\n", grown2);
  assert_true(n >= SAMPLES_LARGE);
  assert_true(grown2 < THREADED_GROWTH_MAX_KB);
}

static void error_paths(void **state) {
  (void)state;
  zeno_error e;
  const zeno_scene s = load("example2.yaml");
  assert_null(zeno_maps_stream_create(NULL, NULL, &e));
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  zeno_maps_def bad = zeno_maps_def_default();
  bad.samples = 3;
  assert_null(zeno_maps_stream_create(&s, &bad, &e));
  assert_int_equal(e.code, ZENO_ERR_RANGE);
  assert_string_equal(e.parameter, "samples");
  bad = zeno_maps_def_default();
  bad.threads = -1;
  assert_null(zeno_maps_stream_create(&s, &bad, &e));
  assert_int_equal(e.code, ZENO_ERR_RANGE);
  assert_string_equal(e.parameter, "threads");
  bad.threads = ZENO_MAPS_MAX_THREADS + 1;
  assert_null(zeno_maps_stream_create(&s, &bad, &e));
  assert_int_equal(e.code, ZENO_ERR_RANGE);
  assert_string_equal(e.parameter, "threads");
  zeno_scene one = load("bouncing-ball.yaml");
  assert_null(zeno_maps_stream_create(&one, NULL, &e));
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "contacts");
  zeno_maps_stream *st = zeno_maps_stream_create(&s, NULL, &e);
  assert_non_null(st);
  zeno_cycle c;
  zeno_maps m;
  assert_int_equal(zeno_maps_stream_next(NULL, &c, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_maps_stream_next(st, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_maps_stream_result(NULL, &m, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_maps_stream_result(st, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_maps_stream_next(st, &c, NULL), ZENO_OK);  // NULL error is fine
  zeno_maps_stream_destroy(st);
  zeno_maps_stream_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stream_is_the_map),    cmocka_unit_test(same_on_any_threads),
      cmocka_unit_test(example2_breakpoints), cmocka_unit_test(constant_memory),
      cmocka_unit_test(error_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
