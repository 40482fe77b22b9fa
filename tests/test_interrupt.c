// The caller's interrupt (zeno/interrupt.h): a question that says stop
// after N asks ends each long call with ZENO_ERR_INTERRUPTED and no partial
// result, is asked on the calling thread only (threads of a row or of the
// maps included), and leaves a simulator that goes on as if never stopped.
// One that never says stop changes nothing. (Leaks: the sanitizer build.)
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zeno/zeno.h"

#define EXAMPLE2 ZENO_SCENES_DIR "/example2.yaml"
#define EXAMPLE4_NEWTON ZENO_SCENES_DIR "/example4-newton.yaml"
#define EXAMPLE6 ZENO_SCENES_DIR "/example6.yaml"
#define BALL ZENO_SCENES_DIR "/bouncing-ball.yaml"

/// Asks before it says stop, in the tests that stop a call part-way.
#define ASKS_BEFORE_STOP 5
/// Never reached: a question that never says stop.
#define NEVER 1000000000L

/// A question that says stop from its (stop_after + 1)-th ask on, and
/// notes whether any ask came from another thread than the caller's.
typedef struct counter {
  long asks, stop_after;
  pthread_t caller;
  bool other_thread;
} counter;

static bool ask(void *user) {
  counter *c = user;
  if (!pthread_equal(pthread_self(), c->caller)) c->other_thread = true;
  return ++c->asks > c->stop_after;
}

static zeno_interrupt interrupt_of(counter *c, long stop_after) {
  memset(c, 0, sizeof *c);
  c->stop_after = stop_after;
  c->caller = pthread_self();
  const zeno_interrupt i = {ask, c};
  return i;
}

static zeno_scene load(const char *path, const char *const *overrides, size_t count) {
  zeno_scene s;
  zeno_error e;
  assert_int_equal(zeno_scene_load(path, overrides, count, &s, &e), ZENO_OK);
  return s;
}

static void assert_interrupted(zeno_status st, const zeno_error *e) {
  assert_int_equal(st, ZENO_ERR_INTERRUPTED);
  assert_int_equal(e->code, ZENO_ERR_INTERRUPTED);
  assert_string_equal(e->message, "interrupted");
  assert_string_equal(zeno_status_name(st), "interrupted");
}

/* ---- the simulator ---------------------------------------------------------- */

// Stopped before its sixth event, the simulator gives the same events as
// an uninterrupted one once asked again.
static void sim_stops_between_events_and_goes_on(void **state) {
  (void)state;
  const zeno_scene scene = load(EXAMPLE2, NULL, 0);
  zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *plain = zeno_sim_create(&scene, &def, NULL);
  counter c;
  def.interrupt = interrupt_of(&c, ASKS_BEFORE_STOP);
  zeno_sim *sim = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(plain);
  assert_non_null(sim);
  zeno_event ev, want;
  zeno_error e;
  for (int k = 0; k < ASKS_BEFORE_STOP; k++) {
    assert_int_equal(zeno_sim_next_event(sim, &ev, &e), ZENO_OK);
    assert_int_equal(zeno_sim_next_event(plain, &want, NULL), ZENO_OK);
    assert_int_equal(ev.index, want.index);
  }
  assert_interrupted(zeno_sim_next_event(sim, &ev, &e), &e);
  assert_interrupted(zeno_sim_next_event(sim, &ev, &e), &e);  // it keeps saying stop
  assert_int_equal(c.asks, ASKS_BEFORE_STOP + 2);
  c.stop_after = NEVER;
  zeno_status st;
  while ((st = zeno_sim_next_event(sim, &ev, &e)) == ZENO_OK) {
    assert_int_equal(zeno_sim_next_event(plain, &want, NULL), ZENO_OK);
    assert_int_equal(ev.index, want.index);
    assert_int_equal(ev.kind, want.kind);
    assert_true(ev.t == want.t);
  }
  assert_int_equal(st, ZENO_DONE);
  assert_int_equal(zeno_sim_next_event(plain, &want, NULL), ZENO_DONE);
  assert_false(c.other_thread);
  zeno_sim_destroy(sim);
  zeno_sim_destroy(plain);
}

// A run on the table's kernel asks every 4096 crossings; stopped, it is
// handed back to its start, and a second zeno_sim_run() makes the run an
// uninterrupted one makes.
static void sim_run_on_kernel_stops(void **state) {
  (void)state;
  // Elastic impacts: some twenty thousand events on the kernel.
  const char *const elastic[] = {"impact.e=1"};
  const zeno_scene scene = load(EXAMPLE4_NEWTON, elastic, 1);
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;  // the kernel's condition
  zeno_summary want, got;
  char got_word[64];
  zeno_sim *plain = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(plain);
  assert_int_equal(zeno_sim_run(plain, NULL), ZENO_OK);
  zeno_sim_summary(plain, &want);
  zeno_sim_destroy(plain);
  counter c;
  def.interrupt = interrupt_of(&c, 0);
  zeno_sim *sim = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(sim);
  zeno_error e;
  assert_interrupted(zeno_sim_run(sim, &e), &e);
  assert_int_equal(c.asks, 2);  // the kernel's ask, then the event loop's
  c.stop_after = NEVER;
  assert_int_equal(zeno_sim_run(sim, &e), ZENO_OK);
  zeno_sim_summary(sim, &got);
  assert_true(want.events > 4096);
  assert_int_equal(got.events, want.events);
  assert_int_equal(got.outcome, want.outcome);
  assert_true(got.t == want.t);
  zeno_sim_destroy(sim);
  // zeno_run(): nothing of the stopped run is handed back.
  c.asks = 0;
  c.stop_after = ASKS_BEFORE_STOP;
  memset(&got, 0xff, sizeof got);
  memset(got_word, 'x', sizeof got_word);
  assert_interrupted(zeno_run(&scene, &def, &got, got_word, sizeof got_word, &e), &e);
  assert_int_equal(got.events, 0);
  assert_string_equal(got_word, "");
  assert_false(c.other_thread);
}

// A run recorded into rows asks its simulator's interrupt every 1024
// samples; a stop leaves the data as it was before the event.
static void run_dir_record_stops(void **state) {
  (void)state;
  const char *const fine[] = {"solver.sample_dt=1e-5"};
  const zeno_scene scene = load(BALL, fine, 1);
  zeno_sim_def def = zeno_sim_def_default();
  counter c;
  def.interrupt = interrupt_of(&c, NEVER);
  zeno_sim *sim = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(sim);
  zeno_event ev;
  zeno_error e;
  assert_int_equal(zeno_sim_next_event(sim, &ev, &e), ZENO_OK);  // start
  zeno_run_dir_data data;
  memset(&data, 0, sizeof data);
  data.contact_count = scene.contact_count;
  assert_int_equal(zeno_run_dir_record(&data, sim, &ev, &e), ZENO_OK);
  const size_t rows = data.row_count, events = data.event_count;
  assert_int_equal(zeno_sim_next_event(sim, &ev, &e), ZENO_OK);  // the first impact, 0.45 s on
  c.stop_after = c.asks;                                         // stop at the next ask
  assert_interrupted(zeno_run_dir_record(&data, sim, &ev, &e), &e);
  assert_int_equal(data.row_count, rows);
  assert_int_equal(data.event_count, events);
  c.stop_after = NEVER;
  assert_int_equal(zeno_run_dir_record(&data, sim, &ev, &e), ZENO_OK);
  assert_true(data.row_count > rows + 1024);
  zeno_run_dir_data_free(&data);
  zeno_sim_destroy(sim);
}

/* ---- maps and the verdict ----------------------------------------------------- */

static void maps_stop(int threads, size_t samples) {
  const zeno_scene scene = load(EXAMPLE2, NULL, 0);
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = samples;
  def.threads = threads;
  counter c;
  def.interrupt = interrupt_of(&c, ASKS_BEFORE_STOP);
  zeno_maps maps;
  zeno_error e;
  memset(&maps, 0xff, sizeof maps);
  assert_interrupted(zeno_maps_compute(&scene, &def, &maps, &e), &e);
  assert_null(maps.samples);  // nothing to free
  assert_int_equal(maps.sample_count, 0);
  assert_false(c.other_thread);
  // Never stopping: the same maps as without a question.
  def.interrupt = interrupt_of(&c, NEVER);
  zeno_maps asked, plain;
  assert_int_equal(zeno_maps_compute(&scene, &def, &asked, &e), ZENO_OK);
  def.interrupt.check = NULL;
  assert_int_equal(zeno_maps_compute(&scene, &def, &plain, &e), ZENO_OK);
  assert_int_equal(asked.sample_count, plain.sample_count);
  assert_true(asked.G_max == plain.G_max);
  assert_true(c.asks >= (long)samples);
  assert_false(c.other_thread);
  zeno_maps_free(&asked);
  zeno_maps_free(&plain);
}

static void maps_stop_between_samples(void **state) {
  (void)state;
  maps_stop(1, 2000);
}

// On two threads the blocks of samples are shared out; the calling thread
// alone asks.
static void maps_stop_on_threads(void **state) {
  (void)state;
  maps_stop(2, 20000);
}

// A stream of the maps (what `maps --csv` writes in constant memory) asks
// before each uniform sample: it stops part-way with ZENO_ERR_INTERRUPTED,
// and every later call says so. (It ran to its end, whatever the question
// said: only zeno_maps_compute() asked.)
static void maps_stream_stops_between_samples(void **state) {
  (void)state;
  const zeno_scene scene = load(EXAMPLE2, NULL, 0);
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = 2000;
  def.threads = 1;
  counter c;
  def.interrupt = interrupt_of(&c, ASKS_BEFORE_STOP);
  zeno_error e;
  zeno_maps_stream *s = zeno_maps_stream_create(&scene, &def, &e);
  assert_non_null(s);
  zeno_cycle cycle;
  size_t handed = 0;
  zeno_status st;
  while ((st = zeno_maps_stream_next(s, &cycle, &e)) == ZENO_OK) handed++;
  assert_interrupted(st, &e);
  assert_true(handed < def.samples);
  assert_int_equal(zeno_maps_stream_next(s, &cycle, &e), ZENO_ERR_INTERRUPTED);
  zeno_maps maps;
  assert_int_equal(zeno_maps_stream_result(s, &maps, &e), ZENO_ERR_INTERRUPTED);
  assert_false(c.other_thread);
  zeno_maps_stream_destroy(s);
}

static void analyze_stops_with_its_maps(void **state) {
  (void)state;
  const zeno_scene scene = load(EXAMPLE2, NULL, 0);
  zeno_analysis_def def = zeno_analysis_def_default();
  counter c;
  def.maps.interrupt = interrupt_of(&c, ASKS_BEFORE_STOP);
  zeno_analysis *a = malloc(sizeof *a);
  assert_non_null(a);
  zeno_error e;
  assert_interrupted(zeno_analyze(&scene, &def, a, &e), &e);
  assert_false(a->has_maps);  // nothing to free
  zeno_analysis_free(a);
  free(a);
}

/* ---- region maps and sweeps ----------------------------------------------------- */

/// Row 0 of a region map or a sweep on `threads` threads.
typedef zeno_status (*row_fn)(const void *grid, int threads, void *row, zeno_error *error);

static zeno_status regions_row0(const void *grid, int threads, void *row, zeno_error *error) {
  return zeno_regions_row(grid, 0, threads, row, error);
}

static zeno_status sweep_row0(const void *grid, int threads, void *row, zeno_error *error) {
  return zeno_sweep_row(grid, 0, threads, row, error);
}

/// Row 0 on one and on two threads, stopped at once (a question that says
/// stop at its first ask), the calling thread alone asking.
static void assert_row_stops(row_fn row_of, const void *grid, void *row, counter *c) {
  zeno_error e;
  for (int threads = 1; threads <= 2; threads++) {
    c->asks = 0;
    assert_interrupted(row_of(grid, threads, row, &e), &e);
    assert_false(c->other_thread);
  }
  c->asks = 0;
}

static zeno_regions *example6_map(const char *x, const char *y, counter *c, long stop_after) {
  zeno_regions_def def = zeno_regions_def_default();
  zeno_error e;
  assert_int_equal(zeno_region_axis_parse(x, &def.x, &e), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse(y, &def.y, &e), ZENO_OK);
  def.interrupt = interrupt_of(c, stop_after);
  zeno_regions *r = zeno_regions_create_file(EXAMPLE6, NULL, 0, &def, &e);
  assert_non_null(r);
  return r;
}

// A row on one and on two threads, and a single point: stopped at once (a
// stop later, within the points, depends on which thread takes which
// point; the maps' tests stop their samples part-way), the calling thread
// alone asking.
static void regions_stop_within_points(void **state) {
  (void)state;
  counter c;
  // The row crosses the stable strip: points with maps.
  zeno_regions *r = example6_map("com.x=-2.5:1.5:9", "com.y=0:0:1", &c, 0);
  zeno_region_point row[9];
  zeno_error e;
  assert_row_stops(regions_row0, r, row, &c);
  assert_interrupted(zeno_regions_point(r, 4, 0, &row[0], &e), &e);
  // Never stopping: the row is the row without a question.
  c.stop_after = NEVER;
  zeno_region_point plain[9];
  assert_int_equal(zeno_regions_row(r, 0, 2, row, &e), ZENO_OK);
  zeno_regions_destroy(r);
  r = example6_map("com.x=-2.5:1.5:9", "com.y=0:0:1", &c, NEVER);
  assert_int_equal(zeno_regions_row(r, 0, 1, plain, &e), ZENO_OK);
  for (int k = 0; k < 9; k++) assert_int_equal(row[k].region, plain[k].region);
  assert_false(c.other_thread);
  zeno_regions_destroy(r);
}

static void sweep_stops_within_points(void **state) {
  (void)state;
  zeno_sweep_def def = zeno_sweep_def_default();
  zeno_error e;
  assert_int_equal(zeno_region_axis_parse("impact.e=0.3:0.9:6", &def.x, &e), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse("initial.pose.1=0.5:1:1", &def.y, &e), ZENO_OK);
  counter c;
  def.interrupt = interrupt_of(&c, 0);
  char *text = NULL;
  assert_int_equal(zeno_scene_read_file(BALL, &text, NULL, &e), ZENO_OK);
  zeno_sweep *w = zeno_sweep_create(text, BALL, NULL, 0, &def, &e);
  free(text);
  assert_non_null(w);
  zeno_sweep_point row[6];
  assert_row_stops(sweep_row0, w, row, &c);
  assert_interrupted(zeno_sweep_point_run(w, 0, 0, &row[0], &e), &e);
  c.stop_after = NEVER;
  assert_int_equal(zeno_sweep_row(w, 0, 2, row, &e), ZENO_OK);
  for (int k = 0; k < 6; k++) assert_true(row[k].ok);
  zeno_sweep_destroy(w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sim_stops_between_events_and_goes_on),
      cmocka_unit_test(sim_run_on_kernel_stops),
      cmocka_unit_test(run_dir_record_stops),
      cmocka_unit_test(maps_stop_between_samples),
      cmocka_unit_test(maps_stop_on_threads),
      cmocka_unit_test(maps_stream_stops_between_samples),
      cmocka_unit_test(analyze_stops_with_its_maps),
      cmocka_unit_test(regions_stop_within_points),
      cmocka_unit_test(sweep_stops_within_points),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
