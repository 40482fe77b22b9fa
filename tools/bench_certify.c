// Benchmark of the Lyapunov certificate (zeno/certify.h): Example 4 at
// weighted degree 2 and at weighted degree 4 (each the best of repeated
// runs, about half a second each), the whole zeno_certify() call; prints the
// time, the verdict and the SDP's size. Issue 13's target: one certificate
// at degree 4 in at most 1 s (docs/certificate.md).
#include <stdio.h>
#include <time.h>

#include "zeno/certify.h"
#include "zeno/zeno.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif

/// Wall-clock time spent on each figure [s].
#define BENCH_TARGET_SECONDS 0.5
/// At least this many runs of each (a best of one is no figure).
#define BENCH_MIN_RUNS 3
#define BENCH_PATH_SIZE 1024
#define MILLISECONDS_PER_SECOND 1e3

// Processor time of this process [s]: unlike the wall clock, not
// lengthened by other work on a shared machine.
static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void report(const char *what, const zeno_certificate *c, double seconds, double cpu,
                   long runs) {
  printf(
      "example4 certify %s: %.3g ms (processor %.3g ms; best of %ld runs), %s, SDP order "
      "%d with %d constraints, %d conditions, %d unknowns\n",
      what, seconds * MILLISECONDS_PER_SECOND, cpu * MILLISECONDS_PER_SECOND, runs,
      c->certified ? "certified" : "not certified", c->sdp_order, c->sdp_constraints, c->conditions,
      c->unknowns);
}

int main(void) {
  char path[BENCH_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, "example4.yaml");
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, &scene, &err) != ZENO_OK) {
    fprintf(stderr, "bench_certify: %s\n", err.message);
    return 1;
  }
  static zeno_certificate c;
  zeno_certify_def d = zeno_certify_def_default();
  static const int degrees[] = {2, 4};
  for (size_t k = 0; k < sizeof degrees / sizeof degrees[0]; k++) {
    d.degree = degrees[k];
    double best = 1e300, best_cpu = 1e300, spent = 0;
    long runs = 0;
    while (spent < BENCH_TARGET_SECONDS || runs < BENCH_MIN_RUNS) {
      const double cpu0 = cpu_seconds();
      if (zeno_certify(&scene, &d, &c, &err) != ZENO_OK) {
        fprintf(stderr, "bench_certify: %s\n", err.message);
        return 1;
      }
      const double cpu = cpu_seconds() - cpu0;
      best_cpu = cpu < best_cpu ? cpu : best_cpu;
      best = c.seconds < best ? c.seconds : best;
      spent += c.seconds;
      runs++;
    }
    char what[32];
    snprintf(what, sizeof what, "degree %d", degrees[k]);
    report(what, &c, best, best_cpu, runs);
  }
  return 0;
}
