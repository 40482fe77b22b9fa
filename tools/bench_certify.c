// Benchmark of the Lyapunov certificate (zeno/certify.h): Example 4 at
// weighted degree 2 and at weighted degree 4 (each the best of repeated
// runs, about half a second each), the whole zeno_certify() call; prints the
// time, the verdict and the SDP's size. Issue 13's target: one certificate
// at degree 4 in at most 1 s (docs/certificate.md).
#include <stdio.h>

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

static void report(const char *what, const zeno_certificate *c, double seconds, long runs) {
  printf("example4 certify %s: %.3g ms (%ld runs), %s, SDP order %d with %d constraints, "
         "%d conditions, %d unknowns\n",
         what, seconds * MILLISECONDS_PER_SECOND, runs,
         c->certified ? "certified" : "not certified", c->sdp_order, c->sdp_constraints,
         c->conditions, c->unknowns);
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
    double best = 1e300, spent = 0;
    long runs = 0;
    while (spent < BENCH_TARGET_SECONDS || runs < BENCH_MIN_RUNS) {
      if (zeno_certify(&scene, &d, &c, &err) != ZENO_OK) {
        fprintf(stderr, "bench_certify: %s\n", err.message);
        return 1;
      }
      best = c.seconds < best ? c.seconds : best;
      spent += c.seconds;
      runs++;
    }
    char what[32];
    snprintf(what, sizeof what, "degree %d", degrees[k]);
    report(what, &c, best, runs);
  }
  return 0;
}
