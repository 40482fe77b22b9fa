// Benchmark of the stability analysis: the maps R and G at 6000 samples and
// a full zeno_analyze() of the paper's Examples 2-4, timed over repeated
// runs (about half a second each); prints milliseconds per run (for the
// maps the median run), the maps on one thread and on every core
// (zeno_maps_def.threads). Then the
// maps of Example 2 at 600,000 samples as a stream (issue 14): time and
// the resident memory they took; and a 30 x 30 Example 6 region map on one
// thread. Each figure with the general path's (zod_table off) beside it.
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"
#include "zeno/zeno.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif

/// Wall-clock time spent on each figure [s].
#define BENCH_TARGET_SECONDS 0.5
#define MILLISECONDS_PER_SECOND 1e3
#define BENCH_PATH_SIZE 1024

static const char *const SCENES[] = {"example2.yaml", "example3-zeno.yaml", "example4.yaml"};

static int load(const char *file, zeno_scene *scene) {
  char path[BENCH_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, file);
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, scene, &err) == ZENO_OK) return 0;
  char line[BENCH_PATH_SIZE];
  zeno_error_format(&err, line, sizeof line);
  fprintf(stderr, "bench_analysis: %s\n", line);
  return 1;
}

/// Most timed runs of one figure (their median is printed).
#define BENCH_MAX_RUNS 4096

// Milliseconds per zeno_maps_compute() of the scene with def: the median of
// the runs made in BENCH_TARGET_SECONDS (a shared machine's pauses move a
// mean by 10%, the median hardly).
static int time_maps(const zeno_scene *scene, const zeno_maps_def *def, double *ms, long *runs) {
  static double took[BENCH_MAX_RUNS];
  zeno_maps maps;
  const double start = bench_seconds();
  *runs = 0;
  do {
    const double t0 = bench_seconds();
    if (zeno_maps_compute(scene, def, &maps, NULL) != ZENO_OK) return 1;
    zeno_maps_free(&maps);
    took[(*runs)++] = bench_seconds() - t0;
  } while (bench_seconds() - start < BENCH_TARGET_SECONDS && *runs < BENCH_MAX_RUNS);
  bench_sort(took, (size_t)*runs);
  *ms = bench_percentile(took, (size_t)*runs, 0.5) * MILLISECONDS_PER_SECOND;
  return 0;
}

static int bench_scene(const char *file) {
  zeno_scene scene;
  if (load(file, &scene)) return 1;
  // The per-scene table against the general path, in the same run: the
  // ratio is the figure to compare across machines (issue 14).
  zeno_maps_def def = zeno_maps_def_default(), general = def;
  general.zod_table = false;
  double ms, ms_general;
  long runs, runs_general;
  // On one thread (the default below 100,000 samples): the per-cycle gain
  // alone; then on every core (--threads), both paths alike.
  const int cores = zeno_regions_threads(0);
  for (int threads = 1;; threads = cores) {
    def.threads = general.threads = threads;
    if (time_maps(&scene, &def, &ms, &runs) ||
        time_maps(&scene, &general, &ms_general, &runs_general))
      return 1;
    printf(
        "%s maps: %.3g ms per %zu samples on %d thread%s (%ld runs); general path %.3g ms "
        "(%ld runs); fast/general %.3f\n",
        scene.name, ms, def.samples, threads, threads == 1 ? "" : "s", runs, ms_general,
        runs_general, ms / ms_general);
    if (threads == cores) break;
  }
  double elapsed, start;
  zeno_analysis a;
  runs = 0;
  start = bench_seconds();
  do {
    if (zeno_analyze(&scene, NULL, &a, NULL) != ZENO_OK) return 1;
    zeno_analysis_free(&a);
    runs++;
    elapsed = bench_seconds() - start;
  } while (elapsed < BENCH_TARGET_SECONDS);
  printf("%s analyze: %.3g ms, verdict %s by theorem %d, region %d (%ld runs)\n", scene.name,
         elapsed / (double)runs * MILLISECONDS_PER_SECOND, zeno_verdict_name(a.verdict), a.theorem,
         a.region, runs);
  return 0;
}

/// Samples of the streamed maps (issue 14's figure).
#define STREAM_SAMPLES 600000

// Resident memory of the process now [kB] (/proc/self/statm; 0 if unread).
static long resident_kb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, resident = 0;
  if (f == NULL) return 0;
  if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
  fclose(f);
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int bench_stream(const char *file) {
  zeno_scene scene;
  if (load(file, &scene)) return 1;
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = STREAM_SAMPLES;
  const long before = resident_kb();
  long peak = before;
  const double start = bench_seconds();
  zeno_maps_stream *st = zeno_maps_stream_create(&scene, &def, NULL);
  if (st == NULL) return 1;
  zeno_cycle c;
  size_t n = 0;
  zeno_status r;
  while ((r = zeno_maps_stream_next(st, &c, NULL)) == ZENO_OK)
    if (++n % 65536 == 0) {
      const long now = resident_kb();
      if (now > peak) peak = now;
    }
  const double seconds = bench_seconds() - start;
  const long now = resident_kb();
  if (now > peak) peak = now;
  zeno_maps_stream_destroy(st);
  if (r != ZENO_DONE) return 1;
  printf(
      "%s maps streamed: %zu samples in %.3g s (%.3g us per sample); resident memory "
      "grew by %ld kB (holding the samples: %zu kB)\n",
      scene.name, n, seconds, seconds / (double)n * 1e6, peak - before,
      n * sizeof(zeno_cycle) / 1024);
  return 0;
}

/// The region map timed both ways: Example 6 over the paper's window
/// (tools/bench_regions's), REGION_GRID x REGION_GRID points on one thread.
#define REGION_GRID 30
#define REGION_SCENE "example6.yaml"
#define ZENO_STR_(x) #x
#define ZENO_STR(x) ZENO_STR_(x)

// Seconds of the whole map with the per-scene table (zod_table) or not.
static int time_region_map(bool zod_table, double *seconds, long *points) {
  char path[BENCH_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, REGION_SCENE);
  zeno_regions_def def = zeno_regions_def_default();
  zeno_error err;
  if (zeno_region_axis_parse("com.x=-2.5:2:" ZENO_STR(REGION_GRID), &def.x, &err) != ZENO_OK ||
      zeno_region_axis_parse("com.y=-1:2.5:" ZENO_STR(REGION_GRID), &def.y, &err) != ZENO_OK)
    return 1;
  def.analysis.maps.zod_table = zod_table;
  zeno_regions *r = zeno_regions_create_file(path, NULL, 0, &def, &err);
  if (r == NULL) {
    fprintf(stderr, "bench_analysis: %s\n", err.message);
    return 1;
  }
  zeno_region_point row[REGION_GRID];
  const double start = bench_seconds();
  for (size_t iy = 0; iy < REGION_GRID; iy++)
    if (zeno_regions_row(r, iy, 1, row, &err) != ZENO_OK) {
      zeno_regions_destroy(r);
      return 1;
    }
  *seconds = bench_seconds() - start;
  *points = REGION_GRID * REGION_GRID;
  zeno_regions_destroy(r);
  return 0;
}

static int bench_region_map(void) {
  double fast, general;
  long points;
  if (time_region_map(true, &fast, &points) || time_region_map(false, &general, &points)) return 1;
  printf(
      "example6 region map %dx%d, 1 thread: %.3g s (%.0f points/s); general path %.3g s; "
      "fast/general %.3f\n",
      REGION_GRID, REGION_GRID, fast, (double)points / fast, general, fast / general);
  return 0;
}

int main(void) {
  int failures = 0;
  for (size_t i = 0; i < sizeof SCENES / sizeof SCENES[0]; i++) failures += bench_scene(SCENES[i]);
  failures += bench_stream(SCENES[0]);
  failures += bench_region_map();
  return failures ? 1 : 0;
}
