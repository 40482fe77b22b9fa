// Out of memory on every allocation in turn (GSL style for ZENO_ERR_NOMEM):
// this program replaces malloc, calloc, realloc and free (forwarding to
// glibc's __libc_* functions) so that allocation number N fails; for
// N = 0, 1, 2, ... each library call must return ZENO_OK or an error with a
// message (out-of-memory errors with code ZENO_ERR_NOMEM), never crash, and
// leave no block allocated, until a call succeeds with no failure injected.
// Only allocations made by zeno (and libyaml for the loader) fail: GLPK
// aborts the process when its allocator fails, and SUNDIALS 6.4 dereferences
// a failed allocation. Sanitizer builds bring their own allocator: there the
// tests are skipped.
#define _GNU_SOURCE  // dladdr
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

#if defined(__SANITIZE_ADDRESS__)
#define NOMEM_INJECTION 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NOMEM_INJECTION 0
#endif
#endif
#ifndef NOMEM_INJECTION
#define NOMEM_INJECTION 1
#endif

/// A bound on the allocations of one call here (a full-model run of Example
/// 2 makes ~2e3): the loop must end well before it.
#define MAX_ALLOCATIONS 20000

#if NOMEM_INJECTION
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
void __libc_free(void *p);

static long fail_at = -1;  // allocation number that fails; -1: none
static long allocations;   // allocation attempts since arming
static long live;          // blocks allocated and not freed, since arming

static bool paused;  // allocations neither counted nor failed
/// Only allocations called from a shared object whose path holds one of
/// these count (NULL: every allocation).
static const char *const *callers;

static bool from_callers(const void *caller) {
  if (callers == NULL) return true;
  Dl_info info;
  if (dladdr(caller, &info) == 0 || info.dli_fname == NULL) return false;
  for (const char *const *c = callers; *c; c++)
    if (strstr(info.dli_fname, *c)) return true;
  return false;
}

static bool inject_from(const void *caller) {
  return !paused && fail_at >= 0 && from_callers(caller) && allocations++ == fail_at;
}
#define inject() inject_from(__builtin_return_address(0))

static void pause_injection(bool pause) { paused = pause; }

void *malloc(size_t size) {
  if (inject()) return NULL;
  void *p = __libc_malloc(size);
  if (p) live++;
  return p;
}

void *calloc(size_t n, size_t size) {
  if (inject()) return NULL;
  void *p = __libc_calloc(n, size);
  if (p) live++;
  return p;
}

void *realloc(void *old, size_t size) {
  if (inject()) return NULL;
  void *p = __libc_realloc(old, size);
  if (old == NULL && p) live++;
  if (old != NULL && size == 0 && p == NULL) live--;
  return p;
}

void free(void *p) {
  if (p) live--;
  __libc_free(p);
}
#else
static void pause_injection(bool pause) { (void)pause; }
#endif

typedef zeno_status (*nomem_call)(zeno_error *error);

// Runs `call` with allocation N failing for N = 0, 1, ... until it makes
// fewer than N + 1 allocations; returns how many runs reported the failure:
// an error code with a message, or ZENO_DONE with a message for a failure
// reported as a run outcome (solver-failure). Only
// allocations made from the shared objects named in `from` (NULL-terminated)
// count and fail; every allocation counts for leaks.
static long exhaust(nomem_call call, const char *const *from) {
#if NOMEM_INJECTION
  callers = from;
  long failures = 0;
  for (long n = 0; n < MAX_ALLOCATIONS; n++) {
    zeno_error e;
    memset(&e, 0, sizeof e);
    allocations = 0;
    live = 0;
    fail_at = n;
    const zeno_status st = call(&e);
    fail_at = -1;
    const long leaked = live;
    if (leaked != 0) fail_msg("allocation %ld failing: %ld blocks leaked", n, leaked);
    if (allocations <= n) {
      assert_int_equal(st, ZENO_OK);  // no failure was injected
      print_message("%ld allocations, each failing in turn: %ld reported\n", n, failures);
      // Every failed allocation was reported, none silently absorbed.
      assert_int_equal(failures, n);
      return failures;
    }
    if (st != ZENO_OK) {
      failures++;
      if (st != ZENO_DONE) assert_int_equal(e.code, st);
      if (e.message[0] == '\0') fail_msg("allocation %ld: no message", n);
    }
  }
  fail_msg("more than %d allocations", MAX_ALLOCATIONS);
#else
  (void)call;
  (void)from;
  skip();
#endif
  return 0;
}

static const char SCENE_TEXT[] =
    "name: nomem\n"
    "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30,\n"
    "        mu1: 0.75, mu2: 0.6, rho: 1, m: 1, f: 1, tau: 0}\n"
    "initial: {qp: [1, 1, 0], qdp: [0, 0, 2]}\n"
    "body: {outline: [[0, 0], [1, 0], [0, 1]]}\n";

static zeno_status load(zeno_error *e) {
  const char *ov[] = {"stop.t_end=50", "impact={law: newton, e: 0.2}"};
  zeno_scene s;
  return zeno_scene_load_string(SCENE_TEXT, "nomem.yaml", ov, 2, &s, e);
}

// Creates, runs to the end (events, dense output) and destroys a simulator;
// `fail_create`: allocations of zeno_sim_create() may fail too.
static zeno_status simulate(const zeno_scene *s, bool fail_create, zeno_error *e) {
  zeno_sim_def d = zeno_sim_def_default();
  d.keep_history = true;
  pause_injection(!fail_create);
  zeno_sim *sim = zeno_sim_create(s, &d, e);
  pause_injection(false);
  if (sim == NULL) return e->code;
  zeno_event ev;
  zeno_status st;
  while ((st = zeno_sim_next_event(sim, &ev, e)) == ZENO_OK) {
  }
  if (st == ZENO_DONE) {
    zeno_state state;
    st = zeno_sim_state_at(sim, ev.t / 2, &state, e);
  }
  char word[256];
  zeno_sim_word(sim, word, sizeof word);
  if (st == ZENO_OK && zeno_sim_outcome(sim) == ZENO_OUTCOME_SOLVER_FAILURE) {
    // The integrator could not store its steps (CV_MEM_FAIL): an outcome.
    snprintf(e->message, sizeof e->message, "%s", ev.solver_flag);
    st = ZENO_DONE;
  }
  zeno_sim_destroy(sim);
  return st;
}

static zeno_status simulate_zod(zeno_error *e) {
  const double qp[3] = {1, 1, 0}, qdp[3] = {0, 0, 2};
  const zeno_scene s = paper_scene(example2(), qp, qdp);
  return simulate(&s, true, e);
}

static zeno_status simulate_full(zeno_error *e) {
  const double qp[3] = {1, 1, 0}, qdp[3] = {0, 0, 2};
  zeno_scene s = paper_scene(example2(), qp, qdp);
  s.model = ZENO_MODEL_FULL;
  s.epsilon = 1e-2;
  return simulate(&s, true, e);
}

// The stability analysis of Example 2 on a coarse grid (maps, partition).
static zeno_status analyze(zeno_error *e) {
  const double qp[3] = {0, 0, 0}, qdp[3] = {0, 0, 0};
  const zeno_scene s = paper_scene(example2(), qp, qdp);
  zeno_analysis_def d = zeno_analysis_def_default();
  d.maps.samples = 64;
  d.partition_intervals = 8;
  zeno_analysis a;
  const zeno_status st = zeno_analyze(&s, &d, &a, e);
  if (st == ZENO_OK) zeno_analysis_free(&a);
  return st;
}

// A region sweep: create it, then the two points of a row of Example 7, the
// second in region 7 (maps, then two Monte-Carlo runs). Point by point, not
// zeno_regions_row(): libgomp recycles its thread-team blocks from one
// parallel region to the next, which this allocation counter cannot tell
// from a leak.
static const char EXAMPLE7_TEXT[] =
    "paper: {alpha: 15, l1: 1, l2: 0.1, h: 0.4, phi1: 0, phi2: 0, mu1: 0.45, mu2: 0.5}\n";

static zeno_status regions(zeno_error *e) {
  zeno_regions_def d = zeno_regions_def_default();
  zeno_status st = zeno_region_axis_parse("paper.mu2=0.1:0.6:2", &d.x, e);
  if (st == ZENO_OK) st = zeno_region_axis_parse("paper.alpha=20:20:1", &d.y, e);
  if (st != ZENO_OK) return st;
  d.analysis.maps.samples = 64;
  d.analysis.partition_intervals = 8;
  d.mc_runs = 2;
  zeno_regions *r = zeno_regions_create(EXAMPLE7_TEXT, "nomem.yaml", NULL, 0, &d, e);
  if (r == NULL) return e->code;
  zeno_region_point row[2];
  for (size_t ix = 0; ix < 2 && st == ZENO_OK; ix++) st = zeno_regions_point(r, ix, 0, &row[ix], e);
  if (st == ZENO_OK && (row[0].region != 0 || row[1].region != 7 || row[1].mc_runs != 2))
    fail_msg("regions %d and %d (%d runs), expected 0 and 7 (2 runs)", row[0].region, row[1].region,
             row[1].mc_runs);
  zeno_regions_destroy(r);
  return st;
}

/// A run directory of its own for the run-directory test.
static char run_dir_path[256];

// The run directory of Example 2: recorded in memory and written while the
// simulator runs (created with every allocation working), then read back.
static zeno_status run_dir(zeno_error *e) {
  const double qp[3] = {1, 1, 0}, qdp[3] = {0, 0, 2};
  const zeno_scene s = paper_scene(example2(), qp, qdp);
  zeno_sim_def d = zeno_sim_def_default();
  d.keep_history = true;
  pause_injection(true);
  zeno_sim *sim = zeno_sim_create(&s, &d, e);
  pause_injection(false);
  if (sim == NULL) return e->code;
  zeno_run_dir_data data = {.contact_count = 2}, back = {0};
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(run_dir_path, &s, e);
  zeno_status st = w ? ZENO_OK : e->code;
  zeno_event ev;
  while (st == ZENO_OK && (st = zeno_sim_next_event(sim, &ev, e)) == ZENO_OK) {
    st = zeno_run_dir_record(&data, sim, &ev, e);
    if (st == ZENO_OK) st = zeno_run_dir_writer_event(w, sim, &ev, e);
  }
  if (st == ZENO_DONE) st = ZENO_OK;
  const zeno_status closed = zeno_run_dir_writer_close(w, st == ZENO_OK ? e : NULL);
  if (st == ZENO_OK) st = closed;
  if (st == ZENO_OK) st = zeno_run_dir_read(run_dir_path, &back, e);
  if (st == ZENO_OK && (back.row_count != data.row_count || back.event_count != 7))
    fail_msg("read back %zu rows and %zu events, recorded %zu and 7", back.row_count,
             back.event_count, data.row_count);
  zeno_run_dir_data_free(&data);
  zeno_run_dir_data_free(&back);
  zeno_sim_destroy(sim);
  return st;
}

/// zeno and libyaml handle their own failed allocations; SUNDIALS 6.4 does
/// not (N_VClone and SUNLogger_Create dereference a failed allocation), so
/// the full-model run fails only zeno's own.
static const char *const ZENO_AND_YAML[] = {"libzeno", "libyaml", NULL};
static const char *const ZENO_ONLY[] = {"libzeno", NULL};

static void test_load_out_of_memory(void **state) {
  (void)state;
  assert_true(exhaust(load, ZENO_AND_YAML) > 0);
}

static void test_zod_run_out_of_memory(void **state) {
  (void)state;
  assert_true(exhaust(simulate_zod, ZENO_ONLY) > 0);
}

static void test_full_run_out_of_memory(void **state) {
  (void)state;
  // SUNDIALS is loaded at the first full-model integrator and kept for the
  // process, as a linked library is: load it first so that the loader's own
  // blocks are not counted as a leak.
  zeno_error e;
  assert_int_equal(simulate_full(&e), ZENO_OK);
  assert_true(exhaust(simulate_full, ZENO_ONLY) > 0);
}

static void test_analysis_out_of_memory(void **state) {
  (void)state;
  // GLPK keeps a global environment from its first call on: create it first
  // so that it is not counted as a leak.
  zeno_error e;
  assert_int_equal(analyze(&e), ZENO_OK);
  assert_true(exhaust(analyze, ZENO_ONLY) > 0);
}

static void test_run_dir_out_of_memory(void **state) {
  (void)state;
  snprintf(run_dir_path, sizeof run_dir_path, "%s/zeno-nomem-XXXXXX",
           getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp");
  assert_non_null(mkdtemp(run_dir_path));
  // nettle, which digests the run's files, is loaded at the first digest
  // and kept for the process: load it first so that the loader's own
  // blocks are not counted as a leak.
  zeno_sha256 hash;
  assert_int_equal(zeno_sha256_begin(&hash, NULL), ZENO_OK);
  // Only zeno's own allocations fail: Jansson 2.14's lexer drops a byte of
  // a token when its buffer cannot grow, and reads on (its issue #362).
  const long failures = exhaust(run_dir, ZENO_ONLY);
  char path[sizeof run_dir_path + 32];
  for (const char *const *f =
           (const char *const[]){ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                 ZENO_RUN_DIR_EVENTS_CSV, ZENO_RUN_DIR_DIGEST, NULL};
       *f; f++) {
    snprintf(path, sizeof path, "%s/%s", run_dir_path, *f);
    unlink(path);
  }
  rmdir(run_dir_path);
  assert_true(failures > 0);
}

static void test_regions_out_of_memory(void **state) {
  (void)state;
  // GLPK's global environment and OpenMP's thread pool are created by the
  // first call and kept: create them first so that they are not leaks.
  zeno_error e;
  assert_int_equal(regions(&e), ZENO_OK);
  assert_true(exhaust(regions, ZENO_ONLY) > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_load_out_of_memory),     cmocka_unit_test(test_zod_run_out_of_memory),
      cmocka_unit_test(test_full_run_out_of_memory), cmocka_unit_test(test_analysis_out_of_memory),
      cmocka_unit_test(test_regions_out_of_memory),  cmocka_unit_test(test_run_dir_out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
