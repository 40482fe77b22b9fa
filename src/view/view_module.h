// The viewer as the zeno program sees it: the data of a run, the options of
// `zeno view` and `zeno replay`, and the loadable module build/zeno-view.so
// (installed as LIBDIR/zeno/zeno-view.so). The program links neither the
// viewer nor SDL2; it parses these options, then dlopen()s the module when
// a command asks for a window or a screenshot (src/cli/cli_module.c), so
// commands that show nothing start without SDL2's libraries. This header
// includes no SDL header (view.h, the viewer's own, does).
//
// The module exports one symbol, zeno_view_module_get(), which returns the
// table of the functions of view.h the program calls. The types crossing
// it are this header's and the library's (zeno.h), so a table is only
// usable by a program of the same zeno version: it carries that version,
// and the ABI number below changes whenever the table or these types change.
#ifndef ZENO_VIEW_VIEW_MODULE_H
#define ZENO_VIEW_VIEW_MODULE_H

#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "zeno/zeno.h"

/// The table's layout and meaning; bump on any change of the table or of
/// view_run or view_options.
#define ZENO_VIEW_MODULE_ABI 4
/// The module's file name and its one exported symbol.
#define ZENO_VIEW_MODULE_FILE "zeno-view.so"
#define ZENO_VIEW_MODULE_SYMBOL "zeno_view_module_get"

/// A whole run, simulated live or read back: its rows and events are the
/// run directory's (zeno/run_dir.h), recorded by the library's rule.
typedef struct view_run {
  zeno_scene scene;  ///< geometry, load, model
  zeno_sim *sim;     ///< live: the simulator (keep_history); NULL in replay
  /// Rows (samples every scene.sample_dt and the states before and after
  /// each event, in time order; rows at a non-finite time are left out) and
  /// events.
  zeno_run_dir_data data;
  double t_end;          ///< time of the last event with a finite time
  bool has_zeno;         ///< a Zeno sequence was completed
  double zeno_time;      ///< its accumulation time [time]
  zeno_outcome outcome;  ///< of the END event (RUNNING when none)
} view_run;

/// Longest live run, in events: the viewer keeps every event in memory and
/// a reverse chatter grows without end; 20000 events are ~3 MB of rows.
#define VIEW_MAX_LIVE_EVENTS 20000L

/// Speed levels of keys 1-5: simulated time per wall-clock second.
#define VIEW_SPEED_LEVELS 5

/// Default window / screenshot size [px].
#define VIEW_DEFAULT_WIDTH 1000
#define VIEW_DEFAULT_HEIGHT 700
/// Smallest window / screenshot size [px]: the text band and the chart
/// need room.
#define VIEW_MIN_WIDTH 320
#define VIEW_MIN_HEIGHT 320
/// Largest window / screenshot side [px] (--size, a scripted size= key):
/// SDL's renderer fails beyond its textures' size (a 23200 px window
/// crashed it).
#define VIEW_MAX_SIZE 8192

/// Whether a window of width x height [px] is one the viewer takes (--size
/// and --keys size=WxH alike).
static inline bool view_size_allowed(int width, int height) {
  return width >= VIEW_MIN_WIDTH && height >= VIEW_MIN_HEIGHT && width <= VIEW_MAX_SIZE &&
         height <= VIEW_MAX_SIZE;
}

/// Animation export (--record): by default the whole run, from --at to
/// its end as the window plays it, then the end held this long [s], long
/// enough to read its status ("rest") before a player loops or stops.
#define VIEW_RECORD_HOLD_SECONDS 1.0
/// The longest recording [s] (--record-seconds, and the whole run's cut),
/// the default frame rate [1/s] and its limit. GIF delays are whole
/// hundredths of a second, so 50 frames per second is the most a GIF holds.
#define VIEW_RECORD_MAX_SECONDS 600.0
#define VIEW_RECORD_DEFAULT_FPS 25
#define VIEW_RECORD_MAX_FPS 50

/// Options shared by `zeno view` and `zeno replay`.
typedef struct view_options {
  const char *screenshot;  ///< headless: write this PNG and exit
  /// Headless: write this animated GIF or MP4 of record_seconds (0: the
  /// whole run from --at and VIEW_RECORD_HOLD_SECONDS, at most
  /// VIEW_RECORD_MAX_SECONDS) at fps frames per second (0: the default),
  /// played as the window plays (zoom, speed, Zeno warp; from --at), and
  /// exit.
  const char *record;
  double record_seconds;
  int fps;
  double at;      ///< headless: display time (--at)
  long at_event;  ///< headless: event index (--at-event), -1 none
  long frames;    ///< window: exit after this many frames (0: no limit)
  /// Window: comma-separated keys to press, one per frame from frame 1
  /// (SDL key names: "z", "Right", "Space", "+"; "drag" drags the body
  /// 40 px to the right; "size=WxH" resizes the window), for scripted runs
  /// and tests. NULL: none.
  const char *keys;
  int width, height;  ///< [px]
  /// Window of `zeno view`: the scene file and its --set overrides, watched
  /// for changes (view_reload.c); NULL in replay (nothing is reloaded).
  const char *scene_path;
  const char *const *overrides;
  size_t override_count;
  double zoom;      ///< > 0: fixed zoom instead of the automatic one
  bool warp;        ///< start in Zeno warp
  int speed_level;  ///< 0: automatic
  /// Headless: a flag the caller sets (its SIGINT/SIGTERM handler) to stop
  /// a recording or a screenshot before its file is committed: nothing is
  /// written and the previous file is kept. NULL: never stopped.
  const volatile sig_atomic_t *stop;
} view_options;

/// Options with their defaults (inline: the program parses options before
/// it loads the module).
static inline view_options view_options_default(void) {
  view_options o;
  memset(&o, 0, sizeof o);
  o.at_event = -1;
  o.width = VIEW_DEFAULT_WIDTH;
  o.height = VIEW_DEFAULT_HEIGHT;
  return o;
}

/// What the module gives the program: view.h's functions of the same names.
typedef struct zeno_view_module {
  int abi;              ///< ZENO_VIEW_MODULE_ABI
  const char *version;  ///< the zeno version it was built with (ZENO_VERSION)
  zeno_status (*run_simulate)(view_run *run, const zeno_scene *scene, zeno_error *error);
  zeno_status (*run_load)(view_run *run, const zeno_scene *scene, const char *dir,
                          zeno_error *error);
  void (*run_free)(view_run *run);
  int (*screenshot)(view_run *run, const view_options *options);
  int (*window)(view_run *run, const view_options *options);
  int (*record)(view_run *run, const view_options *options);
} zeno_view_module;

/// The exported entry: the table when the module provides ABI `abi`, else
/// NULL. (The module is built with hidden visibility: this is its only
/// dynamic symbol.)
__attribute__((visibility("default"))) const zeno_view_module *zeno_view_module_get(int abi);
/// Its type, for the program's dlsym().
typedef const zeno_view_module *(*zeno_view_module_get_fn)(int abi);

#endif
