// Benchmark of the core simulator: runs whole scenes with zeno_run() for
// about a second each and prints the time per run and the event rate.
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "bench_stats.h"
#include "zeno/zeno.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif

/// Wall-clock time spent on each scene [s].
#define BENCH_TARGET_SECONDS 1.0
#define MICROSECONDS_PER_SECOND 1e6
/// Room for the mode word (only the status and counts are printed).
#define BENCH_WORD_SIZE 4096
#define BENCH_PATH_SIZE 1024

static const char *const SCENES[] = {
    "example2.yaml",
    "example3-zeno.yaml",
    "bouncing-ball.yaml",
};

static int print_error(const char *what, const zeno_error *err) {
  char line[BENCH_PATH_SIZE];
  zeno_error_format(err, line, sizeof line);
  fprintf(stderr, "bench_core: %s: %s\n", what, line);
  return 1;
}

/// Runs the scene until BENCH_TARGET_SECONDS have passed (at least once).
static int time_scene(const zeno_scene *scene, const zeno_sim_def *def, zeno_summary *summary,
                      long *runs, double *seconds) {
  static char word[BENCH_WORD_SIZE];
  zeno_error err;
  const double start = bench_seconds();
  double elapsed;
  *runs = 0;
  do {
    if (zeno_run(scene, def, summary, word, sizeof word, &err) != ZENO_OK)
      return print_error(scene->name, &err);
    ++*runs;
    elapsed = bench_seconds() - start;
  } while (elapsed < BENCH_TARGET_SECONDS);
  *seconds = elapsed;
  return 0;
}

/// Restarted runs timed together (one clock reading per batch), and the
/// most batches kept.
#define BENCH_BATCH 256
#define BENCH_MAX_BATCHES 65536

/// Runs the scene on one simulator restarted from its initial state, each
/// run by zeno_sim_run(), until BENCH_TARGET_SECONDS have passed: the
/// per-run cost without creation (zeno_sim_restart, as Monte-Carlo runs
/// use it; on the kernel with the table, on the event loop without), the
/// median of batches of BENCH_BATCH runs (a shared machine's pauses move a
/// mean) [s].
static int time_restarts(const zeno_scene *scene, const zeno_sim_def *def, double *per_run) {
  static double took[BENCH_MAX_BATCHES];
  zeno_error err;
  zeno_sim *sim = zeno_sim_create(scene, def, &err);
  if (sim == NULL) return print_error(scene->name, &err);
  size_t batches = 0;
  const double start = bench_seconds();
  do {
    const double t0 = bench_seconds();
    for (int k = 0; k < BENCH_BATCH; k++) {
      if (zeno_sim_restart(sim, scene->initial_qp, scene->initial_qdp, &err) != ZENO_OK ||
          zeno_sim_run(sim, &err) != ZENO_OK) {
        zeno_sim_destroy(sim);
        return print_error(scene->name, &err);
      }
    }
    took[batches++] = (bench_seconds() - t0) / BENCH_BATCH;
  } while (bench_seconds() - start < BENCH_TARGET_SECONDS && batches < BENCH_MAX_BATCHES);
  zeno_sim_destroy(sim);
  bench_sort(took, batches);
  *per_run = bench_percentile(took, batches, 0.5);
  return 0;
}

/// The full model is timed at this perturbation scale (issue 3's figure).
static const char *const FULL_MODEL[] = {"model=full", "epsilon=1e-3"};

static int bench_file(const char *file, bool full) {
  char path[BENCH_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(path, full ? FULL_MODEL : NULL, full ? 2 : 0, &scene, &err) != ZENO_OK)
    return print_error(file, &err);
  const zeno_sim_def def = zeno_sim_def_default();
  zeno_summary summary;
  long runs;
  double seconds;
  if (time_scene(&scene, &def, &summary, &runs, &seconds) != 0) return 1;
  const double per_run = seconds / (double)runs;
  printf("%s %s%s: %s, %.4g us/run, %ld events, %.3g events/s (%ld runs)", scene.name,
         zeno_model_name(scene.model), full ? " eps=1e-3" : "", zeno_outcome_name(summary.outcome),
         per_run * MICROSECONDS_PER_SECOND, summary.events, (double)summary.events / per_run, runs);
  if (!full) {
    // The general path in the same run (issue 14): the ratio is the figure
    // to compare across machines.
    zeno_sim_def general = def;
    general.zod_table = false;
    if (time_scene(&scene, &general, &summary, &runs, &seconds) != 0) return 1;
    const double general_run = seconds / (double)runs;
    printf("; general path %.4g us/run; fast/general %.3f", general_run * MICROSECONDS_PER_SECOND,
           per_run / general_run);
    if (scene.initial_kind == ZENO_INITIAL_ZOD) {
      zeno_sim_def lean = def;
      lean.keep_history = false;
      general.keep_history = false;
      double restarted, restarted_general;
      if (time_restarts(&scene, &lean, &restarted) ||
          time_restarts(&scene, &general, &restarted_general))
        return 1;
      printf("; restarted %.4g us/run, general path %.4g us/run, fast/general %.3f",
             restarted * MICROSECONDS_PER_SECOND, restarted_general * MICROSECONDS_PER_SECOND,
             restarted / restarted_general);
    }
  }
  printf("\n");
  return 0;
}

int main(void) {
  int failures = 0;
  for (int full = 0; full < 2; full++)
    for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; i++)
      failures += bench_file(SCENES[i], full);
  return failures ? 1 : 0;
}
