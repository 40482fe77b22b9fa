// Benchmark of the N-contact ZOD engine (src/simn/, issue 34): the same
// two-contact scenes run by the two-contact engine (zeno_run) and by the
// N-contact engine, the time per run and per event of each and their
// ratio; then the three-contact box in a corner and an eight-contact
// body, per event. Each figure is the median of runs repeated for about
// BENCH_TARGET_SECONDS.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_stats.h"
#include "simn/simn.h"
#include "zeno/zeno.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif

/// Wall-clock time spent on each figure [s].
#define BENCH_TARGET_SECONDS 0.5
#define BENCH_MAX_RUNS 100000
#define MICROSECONDS_PER_SECOND 1e6
#define BENCH_WORD_SIZE 65536
#define BENCH_PATH_SIZE 1024

static const char *const SCENES[] = {"example2.yaml", "example3-zeno.yaml", "example4.yaml",
                                     "example4-newton.yaml", "rocking-block.yaml"};

static double g_times[BENCH_MAX_RUNS];

/// One run of the N-contact engine; its event count.
static long simn_once(const simn_model *m, const simn_def *d, const double q[3], const double qd[3],
                      bool prime) {
  simn *run = NULL;
  zeno_error err;
  const zeno_status st = prime ? simn_create_prime(m, d, q, qd, &run, &err)
                               : simn_create(m, d, q, qd, &run, &err);
  if (st != ZENO_OK) {
    fprintf(stderr, "bench_simn: %s\n", err.message);
    return -1;
  }
  simn_event ev;
  long events = 0;
  while (simn_next_event(run, &ev, NULL) == ZENO_OK) events++;
  simn_destroy(run);
  return events;
}

/// The median time of one N-contact run [s] and its events.
static double time_simn(const simn_model *m, const simn_def *d, const double q[3],
                        const double qd[3], bool prime, long *events) {
  size_t n = 0;
  const double start = bench_seconds();
  do {
    const double t0 = bench_seconds();
    *events = simn_once(m, d, q, qd, prime);
    g_times[n++] = bench_seconds() - t0;
  } while (*events >= 0 && n < BENCH_MAX_RUNS && bench_seconds() - start < BENCH_TARGET_SECONDS);
  bench_sort(g_times, n);
  return bench_percentile(g_times, n, 0.5);
}

/// The median time of one two-contact run [s] and its events.
static double time_two(const zeno_scene *s, long *events) {
  static char word[BENCH_WORD_SIZE];
  size_t n = 0;
  zeno_summary sum;
  const double start = bench_seconds();
  do {
    const double t0 = bench_seconds();
    if (zeno_run(s, NULL, &sum, word, sizeof word, NULL) != ZENO_OK) return -1;
    g_times[n++] = bench_seconds() - t0;
  } while (n < BENCH_MAX_RUNS && bench_seconds() - start < BENCH_TARGET_SECONDS);
  *events = sum.events;
  bench_sort(g_times, n);
  return bench_percentile(g_times, n, 0.5);
}

static int bench_pair(const char *file) {
  char path[BENCH_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, &s, &err) != ZENO_OK) {
    fprintf(stderr, "bench_simn: %s\n", err.message);
    return 1;
  }
  simn_model m;
  if (simn_model_of_scene(&s, &m, &err) != ZENO_OK || s.initial_kind != ZENO_INITIAL_ZOD) return 1;
  const simn_def d = simn_def_of_scene(&s);
  long e2 = 0, en = 0;
  const double t2 = time_two(&s, &e2);
  const double tn = time_simn(&m, &d, s.initial_qp, s.initial_qdp, true, &en);
  printf(
      "%-22s two-contact %9.1f us (%5ld events, %6.2f us/event)  N-contact %9.1f us (%5ld "
      "events, %6.2f us/event)  ratio %.1f\n",
      file, t2 * MICROSECONDS_PER_SECOND, e2, t2 * MICROSECONDS_PER_SECOND / (double)e2,
      tn * MICROSECONDS_PER_SECOND, en, tn * MICROSECONDS_PER_SECOND / (double)en, tn / t2);
  return 0;
}

// A flat body on n collinear bottom corners (width 2, height 1), dropped
// flat from 0.2 under Newton's law (e = 0.5): it bounces on all its corners
// and is completed to rest.
static int bench_corners(const zeno_scene *law, int n) {
  zeno_scene s = zeno_scene_default();
  s.mass = 1;
  s.rho = sqrt(5.0 / 12.0);
  s.load_magnitude = 9.81;
  s.contact_count = n;
  s.initial_kind = ZENO_INITIAL_POSE;
  s.impact_law = law->impact_law;  // the box's, from its YAML
  s.restitution = law->restitution;
  for (int i = 0; i < n; i++) {
    s.contacts[i].point[0] = -1 + 2.0 * i / (n - 1);
    s.contacts[i].point[1] = -0.5;
    s.contacts[i].surface_angle = 0;
    s.contacts[i].mu = 0.4;
  }
  simn_model m;
  zeno_error err;
  if (simn_model_of_scene(&s, &m, &err) != ZENO_OK) {
    fprintf(stderr, "bench_simn: %s\n", err.message);
    return 1;
  }
  for (int i = 0; i < n; i++) m.gap0[i] = 0.2;
  if (simn_model_fix(&m, &err) != ZENO_OK) return 1;
  const simn_def d = simn_def_of_scene(&s);
  const double q[3] = {0, 0, 0}, qd[3] = {0, 0, 0};
  long events = 0;
  const double t = time_simn(&m, &d, q, qd, false, &events);
  printf("%d corners dropped flat     N-contact %9.1f us (%5ld events, %6.2f us/event)\n", n,
         t * MICROSECONDS_PER_SECOND, events, t * MICROSECONDS_PER_SECOND / (double)events);
  return events > 0 ? 0 : 1;
}

/// The box's law: Newton's, e = 0.5 (the corners take it too).
static const char *const NEWTON[] = {"impact.law=newton", "impact.e=0.5"};

static int bench_box(zeno_scene *out) {
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", NEWTON, 2, &s, &err) != ZENO_OK) {
    fprintf(stderr, "bench_simn: %s\n", err.message);
    return 1;
  }
  *out = s;
  simn_model m;
  if (simn_model_of_scene(&s, &m, &err) != ZENO_OK) return 1;
  const simn_def d = simn_def_of_scene(&s);
  const double q[3] = {0.01, 0.02, 0.01}, qd[3] = {0, 0, 0};
  long events = 0;
  const double t = time_simn(&m, &d, q, qd, false, &events);
  printf("box in a corner (e 0.5) N-contact %9.1f us (%5ld events, %6.2f us/event)\n",
         t * MICROSECONDS_PER_SECOND, events, t * MICROSECONDS_PER_SECOND / (double)events);
  return 0;
}

int main(void) {
  int failures = 0;
  for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; i++) failures += bench_pair(SCENES[i]);
  zeno_scene box;
  if (bench_box(&box) != 0) return 1;
  failures += bench_corners(&box, 3);
  failures += bench_corners(&box, 8);
  return failures ? 1 : 0;
}
