// The viewer as the zeno program sees it: the data of a run and the options
// of `zeno view` and `zeno replay`. This header includes no SDL header
// (view.h, the viewer's own, does), so the program can use it without
// SDL2's headers.
#ifndef ZENO_VIEW_VIEW_MODULE_H
#define ZENO_VIEW_VIEW_MODULE_H

#include <stdbool.h>
#include <string.h>

#include "zeno/zeno.h"

/// A whole run, simulated live or read back: its rows and events are the
/// run directory's (zeno/run_dir.h), recorded by the library's rule.
typedef struct view_run {
  zeno_scene scene;    ///< geometry, load, model
  zeno_sim *sim;       ///< live: the simulator (keep_history); NULL in replay
  /// Rows (samples every scene.sample_dt and the states before and after
  /// each event, in time order; rows at a non-finite time are left out) and
  /// events.
  zeno_run_dir_data data;
  double t_end;        ///< time of the last event with a finite time
  bool has_zeno;       ///< a Zeno sequence was completed
  double zeno_time;    ///< its accumulation time [time]
  zeno_outcome outcome; ///< of the END event (RUNNING when none)
} view_run;

/// Longest live run, in events: the viewer keeps every event in memory and
/// a reverse chatter grows without end; 20000 events are ~3 MB of rows.
#define VIEW_MAX_LIVE_EVENTS 20000L

/// Speed levels of keys 1-5: simulated time per wall-clock second.
#define VIEW_SPEED_LEVELS 5

/// Default window / screenshot size [px].
#define VIEW_DEFAULT_WIDTH 1000
#define VIEW_DEFAULT_HEIGHT 700

/// Options shared by `zeno view` and `zeno replay`.
typedef struct view_options {
  const char *screenshot; ///< headless: write this PNG and exit
  double at;              ///< headless: display time (--at)
  long at_event;          ///< headless: event index (--at-event), -1 none
  long frames;            ///< window: exit after this many frames (0: no limit)
  /// Window: comma-separated keys to press, one per frame from frame 1
  /// (SDL key names: "z", "Right", "Space", "+"; "drag" drags the body
  /// 40 px to the right), for scripted runs and tests. NULL: none.
  const char *keys;
  int width, height;      ///< [px]
  double zoom;            ///< > 0: fixed zoom instead of the automatic one
  bool warp;              ///< start in Zeno warp
  int speed_level;        ///< 0: automatic
} view_options;

/// Options with their defaults.
static inline view_options view_options_default(void) {
  view_options o;
  memset(&o, 0, sizeof o);
  o.at_event = -1;
  o.width = VIEW_DEFAULT_WIDTH;
  o.height = VIEW_DEFAULT_HEIGHT;
  return o;
}

#endif
