// A complete program on libzeno's public API: load a scene, simulate it
// event by event, print each event, then the outcome and the mode word.
//
//   simulate [SCENE [KEY=VALUE]...]
//
// SCENE defaults to scenes/example2.yaml (run from the repository root);
// each KEY=VALUE overrides a scene value as `zeno simulate --set` does, e.g.
// `simulate scenes/example2.yaml paper.mu2=0.5`. A scene that does not load
// stops the program with one line naming the file, line and column (or the
// override) and exit status 2; a failure of the simulator itself (out of
// memory) exits 1. Every outcome of the run (rest, escaped, diverging, ...)
// is a result: exit status 0.
//
// The build makes it as build/examples/simulate. Against an installed zeno
// (docs/install.md):
//
//   cc examples/simulate.c $(pkg-config --cflags --libs zeno) -o simulate
#include <stdio.h>
#include <stdlib.h>

#include <zeno/zeno.h>

/// Exit status when the scene does not load (the zeno program's too).
#define EXIT_BAD_INPUT 2
/// Exit status when the simulator fails (out of memory).
#define EXIT_RUN_FAILED 1
#define DEFAULT_SCENE "scenes/example2.yaml"
/// Room for one formatted error line (message, file and parameter fit).
#define ERROR_LINE_SIZE 1024

static void print_error(const char *what, const zeno_error *err) {
  char line[ERROR_LINE_SIZE];
  zeno_error_format(err, line, sizeof line);
  fprintf(stderr, "simulate: %s: %s\n", what, line);
}

/// One line per event: index, time, kind, the modes before and after, and
/// for an impact its name, the contact whose gap closed (numbered from 1,
/// as in the paper; the C API numbers them from 0) and, when the impact
/// lies on the Poincaré section (22), its angle (25).
static void print_event(const zeno_event *ev, int contact_count) {
  char before[ZENO_MODE_NAME_SIZE], after[ZENO_MODE_NAME_SIZE];
  printf("event %2ld  t = %-10.6g %-10s %s -> %s", ev->index, ev->t, zeno_event_kind_name(ev->kind),
         zeno_mode_name(ev->mode_before, contact_count, before),
         zeno_mode_name(ev->mode_after, contact_count, after));
  if (ev->kind == ZENO_EVENT_IMPACT) {
    printf("  impact %s", zeno_impact_name(ev->impact_mask, contact_count));
    if (ev->contact >= 0) printf(" at contact %d", ev->contact + 1);
    if (ev->on_section) printf(", section angle %.6g rad", ev->section_angle);
  } else if (ev->kind == ZENO_EVENT_ZENO) {
    printf("  Zeno limit after %ld impacts (ratio %.4g)", ev->zeno_impacts, ev->zeno_ratio);
  } else if (ev->kind == ZENO_EVENT_END) {
    printf("  %s", zeno_outcome_name(ev->outcome));
  }
  printf("\n");
}

/// The mode word of the run ("FF IF PF ..."), in memory the caller frees;
/// NULL when out of memory.
static char *mode_word(const zeno_sim *sim) {
  const size_t length = zeno_sim_word(sim, NULL, 0);
  char *word = malloc(length + 1);
  if (word != NULL) zeno_sim_word(sim, word, length + 1);
  return word;
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : DEFAULT_SCENE;
  // Overrides are "dotted.key=VALUE" texts, applied in order after the file.
  const char *const *overrides = argc > 2 ? (const char *const *)(argv + 2) : NULL;
  const size_t override_count = argc > 2 ? (size_t)(argc - 2) : 0;

  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(path, overrides, override_count, &scene, &err) != ZENO_OK) {
    print_error("cannot load the scene", &err);
    return EXIT_BAD_INPUT;
  }

  const zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *sim = zeno_sim_create(&scene, &def, &err);
  if (sim == NULL) {
    print_error("cannot simulate the scene", &err);
    return err.code == ZENO_ERR_NOMEM ? EXIT_RUN_FAILED : EXIT_BAD_INPUT;
  }

  printf("scene %s (%s model, %d contacts)\n", scene.name, zeno_model_name(scene.model),
         scene.contact_count);
  zeno_event ev;
  zeno_status status;
  while ((status = zeno_sim_next_event(sim, &ev, &err)) == ZENO_OK)
    print_event(&ev, scene.contact_count);
  if (status != ZENO_DONE) {  // ZENO_DONE: the END event has been returned
    print_error("the simulation failed", &err);
    zeno_sim_destroy(sim);
    return EXIT_RUN_FAILED;
  }

  zeno_summary summary;
  zeno_sim_summary(sim, &summary);
  char *word = mode_word(sim);
  if (word == NULL) {
    fprintf(stderr, "simulate: out of memory for the mode word\n");
    zeno_sim_destroy(sim);
    return EXIT_RUN_FAILED;
  }
  const double *zod = summary.final_state.zod;
  printf("outcome %s at t = %.6g after %ld events, %ld impacts\n",
         zeno_outcome_name(summary.outcome), summary.t, summary.events, summary.impacts);
  printf("word %s\n", word);
  // q' = (z1, z2, x2) with two contacts; (z1, x1, theta) with one (sim.h).
  if (scene.contact_count == 2)
    printf("final q' (z1, z2, x2) = (%.6g, %.6g, %.6g)\n", zod[0], zod[1], zod[2]);
  else printf("final (z1, x1, theta) = (%.6g, %.6g, %.6g)\n", zod[0], zod[1], zod[2]);
  free(word);
  zeno_sim_destroy(sim);
  return EXIT_SUCCESS;
}
