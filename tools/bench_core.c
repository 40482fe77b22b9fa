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

/* ---- more than two contacts (issue 34) ------------------------------------- */

/// The box in a corner let go off its corner, tilted, under Newton's law:
/// 87 events (79 impacts, 4 Zeno completions), against Example 3's Zeno
/// run on two contacts, 77 events (73 impacts): runs of similar event
/// counts, compared per event.
static const char *const BOX_RUN[] = {"impact.law=newton", "impact.e=0.5",
                                      "initial.pose=[0.01, 0.02, 0.01]"};
#define BOX_RUN_COUNT (sizeof BOX_RUN / sizeof *BOX_RUN)

/// Contacts of the widest run timed (a flat box on as many collinear floor
/// points, dropped under Newton's law: 4^8 letter patterns per class).
#define BENCH_MANY_CONTACTS 8

static int time_per_event(const zeno_scene *scene, double *per_event, long *events) {
  const zeno_sim_def def = zeno_sim_def_default();
  zeno_summary summary;
  long runs;
  double seconds;
  if (time_scene(scene, &def, &summary, &runs, &seconds) != 0) return 1;
  *events = summary.events;
  *per_event = seconds / (double)runs / (double)summary.events;
  return 0;
}

static int bench_contacts(void) {
  char path[BENCH_PATH_SIZE];
  zeno_scene box, two, many;
  zeno_error err;
  snprintf(path, sizeof path, "%s/box-in-a-corner.yaml", ZENO_SCENES_DIR);
  if (zeno_scene_load(path, BOX_RUN, BOX_RUN_COUNT, &box, &err) != ZENO_OK)
    return print_error(path, &err);
  snprintf(path, sizeof path, "%s/example3-zeno.yaml", ZENO_SCENES_DIR);
  if (zeno_scene_load(path, NULL, 0, &two, &err) != ZENO_OK) return print_error(path, &err);
  double box_event, two_event, many_event;
  long box_events, two_events, many_events;
  if (time_per_event(&box, &box_event, &box_events) ||
      time_per_event(&two, &two_event, &two_events))
    return 1;
  printf(
      "contacts: box-in-a-corner (3 contacts, newton) %.3g us/event (%ld events); "
      "example3-zeno (2 contacts) %.3g us/event (%ld events); three/two per event %.2f\n",
      box_event * MICROSECONDS_PER_SECOND, box_events, two_event * MICROSECONDS_PER_SECOND,
      two_events, box_event / two_event);
  many = box;
  many.contact_count = BENCH_MANY_CONTACTS;
  for (int i = 0; i < BENCH_MANY_CONTACTS; i++) {
    many.contacts[i] = box.contacts[0];  // the floor's left corner, moved along the bottom
    many.contacts[i].point[0] = box.contacts[0].point[0] + (double)i / (BENCH_MANY_CONTACTS - 1);
  }
  const double drop[3] = {0, 0.2, 0}, still[3] = {0, 0, 0};
  many.load_angle = 0;
  for (int k = 0; k < 3; k++) many.initial_pose[k] = drop[k], many.initial_velocity[k] = still[k];
  if (time_per_event(&many, &many_event, &many_events)) return 1;
  printf("contacts: %d floor points dropped flat (newton) %.3g ms/event (%ld events)\n",
         BENCH_MANY_CONTACTS, many_event * 1e3, many_events);
  return 0;
}

int main(void) {
  int failures = 0;
  for (int full = 0; full < 2; full++)
    for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; i++)
      failures += bench_file(SCENES[i], full);
  failures += bench_contacts();
  return failures ? 1 : 0;
}
