// Options `zeno view` and `zeno replay` share (cmd_view.c).
#ifndef ZENO_CLI_CLI_VIEW_H
#define ZENO_CLI_CLI_VIEW_H

#include "cli_common.h"

/// Reports that this build has no viewer; returns CLI_EXIT_USAGE.
int cli_view_missing(const char *command);

#ifdef ZENO_HAVE_VIEWER
#include "cli_module.h"

/* Long-only options of both commands get values outside the character
   range. */
enum {
  VIEW_OPT_SCREENSHOT = 300,
  VIEW_OPT_AT,
  VIEW_OPT_AT_EVENT,
  VIEW_OPT_FRAMES,
  VIEW_OPT_SIZE,
  VIEW_OPT_ZOOM,
  VIEW_OPT_WARP,
  VIEW_OPT_SPEED,
  VIEW_OPT_KEYS,
  VIEW_OPT_RECORD,
  VIEW_OPT_RECORD_SECONDS,
  VIEW_OPT_FPS,
};

/// getopt_long entries of the shared options (no terminator).
// clang-format off
#define CLI_VIEW_LONG_OPTIONS                                          \
  {"screenshot", required_argument, NULL, VIEW_OPT_SCREENSHOT},        \
      {"at", required_argument, NULL, VIEW_OPT_AT},                    \
      {"at-event", required_argument, NULL, VIEW_OPT_AT_EVENT},        \
      {"frames", required_argument, NULL, VIEW_OPT_FRAMES},            \
      {"size", required_argument, NULL, VIEW_OPT_SIZE},                \
      {"zoom", required_argument, NULL, VIEW_OPT_ZOOM},                \
      {"zeno-warp", no_argument, NULL, VIEW_OPT_WARP},                 \
      {"speed", required_argument, NULL, VIEW_OPT_SPEED},              \
      {"keys", required_argument, NULL, VIEW_OPT_KEYS},                \
      {"record", required_argument, NULL, VIEW_OPT_RECORD},            \
      {"record-seconds", required_argument, NULL, VIEW_OPT_RECORD_SECONDS}, \
      {"fps", required_argument, NULL, VIEW_OPT_FPS}
// clang-format on

/// Help text of the shared options.
extern const char CLI_VIEW_OPTIONS_HELP[];

/// Applies one shared option (optarg holds its value). Returns CLI_CONTINUE,
/// CLI_EXIT_USAGE after reporting a bad value, or 0 when `option` is not
/// one of them (0 is never an option value).
int cli_view_option(const char *command, view_options *o, int option);

/// Shows the run with the viewer module: the headless screenshot or
/// recording when asked for, else the window. Checks --at-event against the
/// run and that --record-seconds and --fps come with --record. Returns the
/// exit code.
int cli_view_show(const char *command, const zeno_view_module *viewer, view_run *run,
                  const view_options *o);
#endif

#endif
