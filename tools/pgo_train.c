// The training run of the profile-guided build (tools/setup, meson option
// pgo): what zeno spends its time on, run once on a libzeno built with
// -fprofile-generate, whose counts the final build (-Dpgo=use) optimises
// for. The maps of the shipped two-contact scenes (the flat kernel, their
// bisections and the event loop they hand back to), restarted ZOD runs
// (zeno_sim_run), fresh runs on the event loop, a full-model run (CVODE), a
// small Example 6 region map, and the scenes loaded and written out.
// Prints what it ran; exits non-zero on an error. Usage: pgo_train SCENES_DIR
#include <stdio.h>
#include <string.h>

#include "zeno/zeno.h"

/// Room for a path or a word.
#define TRAIN_TEXT 4096
/// Samples of each scene's maps (the default of `zeno maps`).
#define TRAIN_SAMPLES 6000
/// Restarted and fresh runs of each ZOD scene.
#define TRAIN_RUNS 2000
#define TRAIN_FRESH_RUNS 200

static const char *const SCENES[] = {"example2.yaml",        "example3-zeno.yaml", "example4.yaml",
                                     "example4-newton.yaml", "example6.yaml",      "example7.yaml",
                                     "rocking-block.yaml",   "bouncing-ball.yaml"};

static int failed(const char *what, const zeno_error *err) {
  char line[TRAIN_TEXT];
  zeno_error_format(err, line, sizeof line);
  fprintf(stderr, "pgo_train: %s: %s\n", what, line);
  return 1;
}

static int train_scene(const char *dir, const char *file) {
  char path[TRAIN_TEXT];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, &scene, &err) != ZENO_OK) return failed(path, &err);
  if (scene.contact_count == 2) {
    zeno_maps_def def = zeno_maps_def_default();
    def.samples = TRAIN_SAMPLES;
    def.threads = 1;
    zeno_maps maps;
    if (zeno_maps_compute(&scene, &def, &maps, &err) != ZENO_OK) return failed(path, &err);
    FILE *sink = fopen("/dev/null", "w");
    if (sink != NULL) {
      zeno_io_maps_csv(sink, &maps, &err);
      fclose(sink);
    }
    zeno_maps_free(&maps);
  }
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  zeno_sim *sim = zeno_sim_create(&scene, &def, &err);
  if (sim == NULL) return failed(path, &err);
  for (int k = 0; k < TRAIN_RUNS && scene.initial_kind == ZENO_INITIAL_ZOD; k++)
    if (zeno_sim_restart(sim, scene.initial_qp, scene.initial_qdp, &err) != ZENO_OK ||
        zeno_sim_run(sim, &err) != ZENO_OK) {
      zeno_sim_destroy(sim);
      return failed(path, &err);
    }
  zeno_sim_destroy(sim);
  zeno_summary summary;
  char word[TRAIN_TEXT];
  const zeno_sim_def fresh = zeno_sim_def_default();
  for (int k = 0; k < TRAIN_FRESH_RUNS; k++)
    if (zeno_run(&scene, &fresh, &summary, word, sizeof word, &err) != ZENO_OK)
      return failed(path, &err);
  printf("pgo_train: %s\n", file);
  return 0;
}

// The full model once (CVODE's integrator and the mode right-hand sides).
static int train_full(const char *dir) {
  char path[TRAIN_TEXT];
  snprintf(path, sizeof path, "%s/example2.yaml", dir);
  const char *over[] = {"model=full", "epsilon=1e-3"};
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(path, over, 2, &scene, &err) != ZENO_OK) return failed(path, &err);
  zeno_summary summary;
  char word[TRAIN_TEXT];
  const zeno_sim_def def = zeno_sim_def_default();
  for (int k = 0; k < 10; k++)
    if (zeno_run(&scene, &def, &summary, word, sizeof word, &err) != ZENO_OK)
      return failed(path, &err);
  printf("pgo_train: example2 full model\n");
  return 0;
}

// A 24 x 24 Example 6 region map over the paper's window on one thread.
static int train_regions(const char *dir) {
  char path[TRAIN_TEXT];
  snprintf(path, sizeof path, "%s/example6.yaml", dir);
  zeno_regions_def def = zeno_regions_def_default();
  zeno_error err;
  if (zeno_region_axis_parse("com.x=-2.5:2:24", &def.x, &err) != ZENO_OK ||
      zeno_region_axis_parse("com.y=-1:2.5:24", &def.y, &err) != ZENO_OK)
    return failed("axes", &err);
  zeno_regions *r = zeno_regions_create_file(path, NULL, 0, &def, &err);
  if (r == NULL) return failed(path, &err);
  zeno_region_point row[24];
  FILE *sink = fopen("/dev/null", "w");
  for (size_t iy = 0; iy < 24; iy++) {
    if (zeno_regions_row(r, iy, 1, row, &err) != ZENO_OK) {
      if (sink) fclose(sink);
      zeno_regions_destroy(r);
      return failed(path, &err);
    }
    for (size_t ix = 0; sink && ix < 24; ix++) zeno_io_region_row(sink, &row[ix], NULL);
  }
  if (sink) fclose(sink);
  zeno_regions_destroy(r);
  printf("pgo_train: example6 region map 24x24\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: pgo_train SCENES_DIR\n");
    return 2;
  }
  int failures = 0;
  for (size_t k = 0; k < sizeof SCENES / sizeof SCENES[0]; k++)
    failures += train_scene(argv[1], SCENES[k]);
  failures += train_full(argv[1]);
  failures += train_regions(argv[1]);
  return failures ? 1 : 0;
}
