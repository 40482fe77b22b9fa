// Animation export: the run played headless as the window plays it (the
// same zoom, speed and Zeno warp, the clock advancing 1/fps s per frame),
// every frame written into an animated GIF (view_gif.c) or an MP4 video
// (the video module zeno-video.so, view_video.h, loaded from this module's
// own directory), by the file name's extension. Needs no display.
//
// The file is written aside and renamed into place whole (zeno_io_output):
// a recording that fails (a full disk, an encoder error) or that the
// caller stops (view_options.stop: Ctrl-C, SIGTERM) is dropped, and the
// previous file of the name is kept as it was; no part of a video, which
// without its trailer would not play, is ever left under the name.
#define _GNU_SOURCE  // dladdr
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "view/view.h"
#include "view/view_video.h"

#define MESSAGE_SIZE 512
/// GIF delays count hundredths of a second.
#define CENTISECONDS 100.0

/// The length of a recording: --record-seconds, else the whole run.
typedef struct recording_length {
  long frames;   ///< fps x --record-seconds, or the whole run's, at least one
  double whole;  ///< the whole run and the hold [s] (0 with --record-seconds)
  bool cut;      ///< the whole run was longer than VIEW_RECORD_MAX_SECONDS
} recording_length;

// --record-seconds S gives fps x S frames. Without it the playback, from
// --at, reaches the end of the run after view_play_seconds_left() and the
// hold follows: every frame up to the one at or after the end, then the
// hold, in whole frames; at most VIEW_RECORD_MAX_SECONDS of them.
static recording_length recording_length_of(const view_run *run, const view_options *o, int fps) {
  recording_length r = {0, 0, false};
  if (o->record_seconds > 0) {
    r.frames = lround(o->record_seconds * fps);
  } else {
    view_play play;
    view_play_start(&play, run, o);
    view_play_seek(&play, run, view_start_time(run, o));
    r.whole = view_play_seconds_left(&play, run) + VIEW_RECORD_HOLD_SECONDS;
    r.cut = r.whole > VIEW_RECORD_MAX_SECONDS;
    r.frames = r.cut ? lround(VIEW_RECORD_MAX_SECONDS * fps) : (long)ceil(r.whole * fps);
  }
  if (r.frames < 1) r.frames = 1;
  return r;
}

bool view_record_is_mp4(const char *path) {
  const size_t n = strlen(path);
  return n >= 4 && strcasecmp(path + n - 4, ".mp4") == 0;
}

/// The file being written: one of the two.
typedef struct recording {
  view_gif *gif;
  view_mp4 *mp4;
  const zeno_video_module *video;  ///< with mp4
} recording;

/// Room for the video module's path, and the most of a path or a loader's
/// message shown in a message (which has MESSAGE_SIZE bytes).
#define VIDEO_PATH_SIZE 4096
#define PATH_SHOWN 160

// dlsym() returns an object pointer that holds the address of a function
// (POSIX); it is copied, not converted, into a function pointer.
_Static_assert(sizeof(void *) == sizeof(zeno_video_module_get_fn),
               "function and object pointers differ in size");

/// An object of this module: dladdr() of its address names the module's file.
static const char MODULE_ANCHOR = 0;

// The video module beside this one (or beside the program that links the
// viewer): its table, or NULL with a message. It stays loaded until exit.
static const zeno_video_module *load_video(char *message, size_t size) {
  Dl_info self;
  char path[VIDEO_PATH_SIZE];
  if (dladdr(&MODULE_ANCHOR, &self) == 0 || self.dli_fname == NULL) {
    snprintf(message, size, "cannot find the video module: dladdr failed");
    return NULL;
  }
  const char *slash = strrchr(self.dli_fname, '/');
  const int dir = slash ? (int)(slash - self.dli_fname) : 1;
  snprintf(path, sizeof path, "%.*s/%s", dir, slash ? self.dli_fname : ".", ZENO_VIDEO_MODULE_FILE);
  if (access(path, F_OK) != 0) {
    snprintf(message, size,
             "MP4 export needs the video module %s, which is not in %.*s (it is built when "
             "libavformat-dev, libavcodec-dev and libswscale-dev are installed); write a .gif "
             "instead",
             ZENO_VIDEO_MODULE_FILE, dir < PATH_SHOWN ? dir : PATH_SHOWN,
             slash ? self.dli_fname : ".");
    return NULL;
  }
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    snprintf(message, size,
             "cannot load the video module %.*s: %.*s (apt-get install "
             "libavformat59 libavcodec59 libswscale6)",
             PATH_SHOWN, path, PATH_SHOWN, dlerror());
    return NULL;
  }
  void *symbol = dlsym(handle, ZENO_VIDEO_MODULE_SYMBOL);
  zeno_video_module_get_fn get = NULL;
  if (symbol) memcpy(&get, &symbol, sizeof get);
  const zeno_video_module *table = get ? get(ZENO_VIDEO_MODULE_ABI) : NULL;
  if (table == NULL || table->version == NULL || strcmp(table->version, ZENO_VERSION) != 0) {
    snprintf(message, size,
             "%.*s is not the video module of this zeno (%s): install the %s "
             "of this zeno",
             PATH_SHOWN, path, ZENO_VERSION, ZENO_VIDEO_MODULE_FILE);
    return NULL;
  }
  return table;
}

/// Whether the caller asked the recording to stop (view_options.stop).
static bool stop_asked(const view_options *o) { return o->stop != NULL && *o->stop != 0; }

// Starts the encoder the name asks for, writing into `stream`.
static bool recording_start(recording *rec, FILE *stream, const view_options *o, int fps,
                            char *message, size_t size) {
  if (view_record_is_mp4(o->record)) {
    rec->video = load_video(message, size);
    if (rec->video != NULL)
      rec->mp4 = rec->video->create(stream, o->record, o->width, o->height, fps, message, size);
    return rec->mp4 != NULL;
  }
  rec->gif = view_gif_create(stream, o->record, o->width, o->height, message, size);
  return rec->gif != NULL;
}

// Plays the run into the encoder, frame by frame, until `n` frames or a
// stop; false with a message when a frame fails. *last: the display time
// of the last frame drawn.
static bool recording_play(recording *rec, view_canvas *canvas, view_run *run,
                           const view_options *o, int fps, long n, double *last, char *message,
                           size_t size) {
  view_play play;
  view_play_start(&play, run, o);
  view_play_seek(&play, run, view_start_time(run, o));
  bool ok = true;
  for (long k = 0; ok && k < n && !stop_asked(o); k++) {
    view_draw_frame(canvas, run, &play, NULL);
    *last = play.t;
    // Whole hundredths that add up: frame k ends at round(100 (k+1) / fps).
    const int delay = (int)(lround(CENTISECONDS * (double)(k + 1) / fps) -
                            lround(CENTISECONDS * (double)k / fps));
    ok = rec->mp4 ? rec->video->frame(rec->mp4, canvas->surface->pixels, canvas->surface->pitch,
                                      message, size)
                  : view_gif_frame(rec->gif, canvas, delay, message, size);
    view_play_advance(&play, run, 1.0 / fps);
  }
  return ok;
}

// Finishes the encoder's file (the MP4's trailer, the GIF's terminator)
// and frees it; a message only when `ok` (the first failure is the one
// reported).
static bool recording_finish(recording *rec, bool ok, char *message, size_t size) {
  const bool closed = rec->mp4 ? rec->video->close(rec->mp4, ok ? message : NULL, ok ? size : 0)
                               : view_gif_close(rec->gif, ok ? message : NULL, ok ? size : 0);
  return ok && closed;
}

int view_record(view_run *run, const view_options *o) {
  const int fps = o->fps > 0 ? o->fps : VIEW_RECORD_DEFAULT_FPS;
  const recording_length length = recording_length_of(run, o, fps);
  const long n = length.frames;
  if (length.cut)
    fprintf(stderr,
            "zeno: note: the whole run takes %.6g s to play at this speed; recording its first "
            "%g s (--record-seconds S sets the length; a faster --speed or --zeno-warp plays "
            "more of it)\n",
            length.whole - VIEW_RECORD_HOLD_SECONDS, VIEW_RECORD_MAX_SECONDS);
  if (TTF_Init() != 0) {
    fprintf(stderr, "zeno: cannot start SDL2_ttf: %s\n", TTF_GetError());
    return 1;
  }
  char message[MESSAGE_SIZE];
  view_canvas canvas;
  zeno_error err;
  zeno_io_output *out = NULL;
  const double start = view_start_time(run, o);
  double last = start;
  bool ok = view_canvas_create(&canvas, o->width, o->height, message, sizeof message);
  if (ok && (out = zeno_io_output_open_path(o->record, &err)) == NULL) {
    snprintf(message, sizeof message, "%s", err.message);
    ok = false;
  }
  if (out != NULL) {
    recording rec = {NULL, NULL, NULL};
    ok = recording_start(&rec, zeno_io_output_stream(out), o, fps, message, sizeof message);
    if (ok) ok = recording_play(&rec, &canvas, run, o, fps, n, &last, message, sizeof message);
    if (rec.gif != NULL || rec.mp4 != NULL)
      ok = recording_finish(&rec, ok, message, sizeof message);
    // Into place only whole and only when not stopped; else dropped.
    if (ok && !stop_asked(o)) {
      ok = zeno_io_output_commit(out, &err) == ZENO_OK;
      if (!ok) snprintf(message, sizeof message, "%s", err.message);
    } else {
      zeno_io_output_discard(out);
      ok = false;
    }
  }
  if (ok)
    fprintf(stderr, "zeno: wrote %s (%ld frames, %dx%d, %g s at %d fps; t = %.6g to %.6g%s)\n",
            o->record, n, o->width, o->height, (double)n / fps, fps,
            start < run->t_end ? start : run->t_end, last,
            last >= run->t_end ? ", the end of the run" : "");
  else if (!stop_asked(o)) fprintf(stderr, "zeno: %s\n", message);
  view_canvas_destroy(&canvas);  // a canvas that failed to start is empty
  TTF_Quit();
  SDL_Quit();
  return ok ? 0 : 1;
}
