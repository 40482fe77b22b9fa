// Animation export: the run played headless as the window plays it (the
// same zoom, speed and Zeno warp, the clock advancing 1/fps s per frame),
// every frame written into an animated GIF (view_gif.c). Needs no display.
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "view/view.h"

#define MESSAGE_SIZE 512
/// GIF delays count hundredths of a second.
#define CENTISECONDS 100.0

/// Frames of a recording: fps x seconds, at least one.
static long frame_count(double seconds, int fps) {
  const long n = lround(seconds * fps);
  return n > 0 ? n : 1;
}

int view_record(view_run *run, const view_options *o) {
  const double seconds = o->record_seconds > 0 ? o->record_seconds : VIEW_RECORD_DEFAULT_SECONDS;
  const int fps = o->fps > 0 ? o->fps : VIEW_RECORD_DEFAULT_FPS;
  if (TTF_Init() != 0) {
    fprintf(stderr, "zeno: cannot start SDL2_ttf: %s\n", TTF_GetError());
    return 1;
  }
  char message[MESSAGE_SIZE];
  view_canvas canvas;
  int code = 1;
  view_gif *gif = NULL;
  bool created = false;
  if (!view_canvas_create(&canvas, o->width, o->height, message, sizeof message)) {
    fprintf(stderr, "zeno: %s\n", message);
  } else {
    gif = view_gif_create(o->record, o->width, o->height, message, sizeof message);
    created = gif != NULL;
    view_play play;
    view_play_start(&play, run, o);
    view_play_seek(&play, run, o->at);
    const long n = frame_count(seconds, fps);
    bool ok = gif != NULL;
    for (long k = 0; ok && k < n; k++) {
      view_draw_frame(&canvas, run, &play, NULL);
      // Whole hundredths that add up: frame k ends at round(100 (k+1) / fps).
      const int delay = (int)(lround(CENTISECONDS * (double)(k + 1) / fps) -
                              lround(CENTISECONDS * (double)k / fps));
      ok = view_gif_frame(gif, &canvas, delay, message, sizeof message);
      view_play_advance(&play, run, 1.0 / fps);
    }
    if (!view_gif_close(gif, ok ? message : NULL, ok ? sizeof message : 0)) ok = false;
    if (ok) {
      code = 0;
      fprintf(stderr, "zeno: wrote %s (%ld frames, %dx%d, %g s at %d fps)\n", o->record, n,
              o->width, o->height, (double)n / fps, fps);
    } else {
      fprintf(stderr, "zeno: %s\n", message);
    }
    view_canvas_destroy(&canvas);
  }
  // No half-written file is left behind.
  if (code != 0 && created) unlink(o->record);
  TTF_Quit();
  SDL_Quit();
  return code;
}
