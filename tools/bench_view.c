// Benchmark of the viewer: draws frames of Example 2 (full model, as
// `zeno view scenes/example2.yaml --model full` shows it) offscreen at the
// default window size, advancing the clock by 1/60 s per frame at the
// automatic speed, and prints frames per second: the viewer holds 60 fps
// when this is well above 60. Also times the live simulation the viewer
// runs before its first frame.
#include <stdio.h>
#include <time.h>

#include "bench_stats.h"
#include "view/view.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif

/// Frames timed per configuration.
#define BENCH_FRAMES 600
/// The window's frame rate: each frame advances the clock by 1/60 s.
#define BENCH_FPS 60.0
#define MESSAGE_SIZE 512

/// Draws BENCH_FRAMES frames and returns frames per second.
static double time_frames(view_canvas *canvas, const view_run *run, bool warp) {
  view_play play;
  view_play_init(&play, run);
  view_play_set_warp(&play, run, warp);
  const double start = bench_seconds();
  for (int f = 0; f < BENCH_FRAMES; f++) {
    view_play_advance(&play, run, 1.0 / BENCH_FPS);
    // Loop the run so every frame draws a moving body.
    if (play.t >= run->t_end) view_play_seek(&play, run, 0);
    view_draw_frame(canvas, run, &play, NULL);
  }
  return BENCH_FRAMES / (bench_seconds() - start);
}

static int bench(const char *label, const char *const *overrides, size_t count,
                 view_canvas *canvas) {
  zeno_scene scene;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/example2.yaml", overrides, count, &scene, &err) !=
      ZENO_OK) {
    fprintf(stderr, "bench_view: %s\n", err.message);
    return 1;
  }
  view_run run;
  const double start = bench_seconds();
  if (view_run_simulate(&run, &scene, &err) != ZENO_OK) {
    fprintf(stderr, "bench_view: %s\n", err.message);
    return 1;
  }
  const double simulate = bench_seconds() - start;
  const double fps = time_frames(canvas, &run, false);
  const double fps_warp = time_frames(canvas, &run, true);
  printf(
      "%-22s %5zu events %6zu rows  simulate %7.2f ms  "
      "%7.1f fps  (Zeno warp %7.1f fps)\n",
      label, run.data.event_count, run.data.row_count, 1e3 * simulate, fps, fps_warp);
  view_run_free(&run);
  return 0;
}

int main(void) {
  if (TTF_Init() != 0) {
    fprintf(stderr, "bench_view: %s\n", TTF_GetError());
    return 1;
  }
  char message[MESSAGE_SIZE];
  view_canvas canvas;
  if (!view_canvas_create(&canvas, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT, message,
                          sizeof message)) {
    fprintf(stderr, "bench_view: %s\n", message);
    return 1;
  }
  printf("offscreen frames %dx%d, %d per figure\n", VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT,
         BENCH_FRAMES);
  const char *const full[] = {"model=full"};
  int code = bench("example2 full model", full, 1, &canvas);
  if (code == 0) code = bench("example2 zod", NULL, 0, &canvas);
  view_canvas_destroy(&canvas);
  TTF_Quit();
  SDL_Quit();
  return code;
}
