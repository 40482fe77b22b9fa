// `zeno view SCENE`: simulates the scene and shows it in an SDL2 window, or
// with --screenshot writes one frame as a PNG without a display.
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_signal.h"
#include "cli_view.h"

#define COMMAND_NAME "view"
static const char *const COMMAND = COMMAND_NAME;

int cli_view_missing(const char *command) {
  cli_error(
      "%s: this build of zeno lacks the viewer (install libsdl2-dev, "
      "libsdl2-ttf-dev, libpng-dev and libgif-dev, then meson setup --reconfigure "
      "-Dviewer=enabled build)",
      command);
  return CLI_EXIT_USAGE;
}

#ifndef ZENO_HAVE_VIEWER
int cmd_view(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_view_missing(COMMAND);
}
#else

/// Largest --frames value.
#define VIEW_MAX_FRAMES 100000000L

const char CLI_VIEW_OPTIONS_HELP[] =
    "      --screenshot FILE  headless: draw one frame, write FILE (PNG) and\n"
    "                         exit; needs no display\n"
    "      --record FILE      headless: play the run as the window does (zoom,\n"
    "                         speed, Zeno warp, from --at or --at-event) and\n"
    "                         write it as an animated GIF (FILE.gif) or an MP4\n"
    "                         video (FILE.mp4, H.264); needs no display\n"
    "      --record-seconds S length of the recording, 0 < S <= 600 (default:\n"
    "                         the whole run from --at or --at-event to its\n"
    "                         end, then 1 s holding the end; at most 600)\n"
    "      --fps N            frames per second of the recording, 1-50\n"
    "                         (default 25)\n"
    "      --at T             the frame's time T >= 0 (default 0)\n"
    "      --at-event N       the frame (or the recording's start) just after\n"
    "                         event N (0 = start)\n"
    "      --frames N         window: quit after N frames (each advances the\n"
    "                         clock by 1/60 s)\n"
    "      --size WxH         window / screenshot size in pixels (default\n"
    "                         1000x700)\n"
    "      --zoom F           magnify the displacement from equilibrium by F\n"
    "                         (default: automatic, see the overlay)\n"
    "      --zeno-warp        start in Zeno warp: every event interval gets\n"
    "                         the same wall time\n"
    "      --speed K          start at speed key K in 1-5 (1x .. 0.0001x)\n"
    "      --keys K1,K2,...   window: press these keys, one per frame (SDL\n"
    "                         names: z, Right, Space, +; 'drag' drags the\n"
    "                         body; size=WxH resizes the window), for\n"
    "                         scripted runs\n"
    "\n"
    "Keys: space pause, right next event, left previous event, shift+arrows\n"
    "scrub, 1-5 speeds, z Zeno warp, +/- or wheel zoom (0 automatic),\n"
    "r restart, p perturb, mouse drag impulse, s screenshot, l legend,\n"
    "m maps R and G, h help, q/Esc quit. The window can be resized;\n"
    "`view` reloads the scene file when it changes on disk.\n";

static int number_option(const char *command, const char *option, const char *text, double min,
                         double *value) {
  char *end;
  const double v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v) || v < min)
    return cli_usage_error(command, "%s: '%s' is not a number >= %g", option, text, min);
  *value = v;
  return CLI_CONTINUE;
}

static int size_option(const char *command, const char *text, view_options *o) {
  int w, h;
  char tail;
  if (sscanf(text, "%dx%d%c", &w, &h, &tail) != 2 || !view_size_allowed(w, h))
    return cli_usage_error(command,
                           "--size: '%s' is not WxH with W, H in "
                           "[%d, %d]",
                           text, VIEW_MIN_WIDTH, VIEW_MAX_SIZE);
  o->width = w;
  o->height = h;
  return CLI_CONTINUE;
}

// --keys: the window sizes it asks for (size=WxH) in --size's range, as the
// window takes them (the key names themselves are SDL's, checked as the
// viewer plays them).
static int keys_option(const char *command, const char *keys) {
  for (const char *p = keys; p != NULL && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
    int w, h;
    char tail;
    if (sscanf(p, "size=%dx%d%c", &w, &h, &tail) >= 2 && !view_size_allowed(w, h))
      return cli_usage_error(command, "--keys: size=%dx%d: each side must be in [%d, %d]", w, h,
                             VIEW_MIN_WIDTH, VIEW_MAX_SIZE);
  }
  return CLI_CONTINUE;
}

int cli_view_option(const char *command, view_options *o, int option) {
  int n;
  switch (option) {
    case VIEW_OPT_SCREENSHOT: {
      // The viewer writes PNG: a .jpg (or any other) name would hold a PNG.
      const size_t len = strlen(optarg);
      if (len < 4 || strcasecmp(optarg + len - 4, ".png") != 0)
        return cli_usage_error(command,
                               "--screenshot: '%s' is not a .png file name (the "
                               "viewer writes PNG)",
                               optarg);
      o->screenshot = optarg;
      return CLI_CONTINUE;
    }
    case VIEW_OPT_RECORD: {
      // giflib writes GIF, FFmpeg's libraries MP4: another name would
      // hold one of them.
      const size_t len = strlen(optarg);
      if (len < 5 ||
          (strcasecmp(optarg + len - 4, ".gif") != 0 && strcasecmp(optarg + len - 4, ".mp4") != 0))
        return cli_usage_error(command,
                               "--record: '%s' is neither a .gif nor a .mp4 file "
                               "name (the viewer writes animated GIF or MP4 video)",
                               optarg);
      o->record = optarg;
      return CLI_CONTINUE;
    }
    case VIEW_OPT_RECORD_SECONDS: {
      const int code = number_option(command, "--record-seconds", optarg, 0, &o->record_seconds);
      if (code == CLI_CONTINUE &&
          !(o->record_seconds > 0 && o->record_seconds <= VIEW_RECORD_MAX_SECONDS))
        return cli_usage_error(command, "--record-seconds: '%s' is not in (0, %g]", optarg,
                               VIEW_RECORD_MAX_SECONDS);
      return code;
    }
    case VIEW_OPT_FPS:
      return cli_int_option(command, "--fps", optarg, 1, VIEW_RECORD_MAX_FPS, &o->fps);
    case VIEW_OPT_AT: return number_option(command, "--at", optarg, 0, &o->at);
    case VIEW_OPT_AT_EVENT: {
      const int code = cli_int_option(command, "--at-event", optarg, 0, VIEW_MAX_LIVE_EVENTS, &n);
      o->at_event = n;
      return code;
    }
    case VIEW_OPT_FRAMES: {
      const int code = cli_int_option(command, "--frames", optarg, 1, VIEW_MAX_FRAMES, &n);
      o->frames = n;
      return code;
    }
    case VIEW_OPT_SIZE: return size_option(command, optarg, o);
    case VIEW_OPT_ZOOM: {
      const int code = number_option(command, "--zoom", optarg, 0, &o->zoom);
      if (code == CLI_CONTINUE && !(o->zoom > 0))
        return cli_usage_error(command, "--zoom: '%s' must be > 0", optarg);
      return code;
    }
    case VIEW_OPT_WARP: o->warp = true; return CLI_CONTINUE;
    case VIEW_OPT_KEYS: o->keys = optarg; return keys_option(command, optarg);
    case VIEW_OPT_SPEED:
      return cli_int_option(command, "--speed", optarg, 1, VIEW_SPEED_LEVELS, &o->speed_level);
    default: return 0;
  }
}

// Notes the options this run does not use: the window's own without a
// window, --at beside --at-event (which chooses the time).
static void note_unused(const view_options *o) {
  char typed[CLI_TYPED_SIZE];
  const char *headless = o->record != NULL ? "--record" : "--screenshot";
  if (o->frames > 0 && (o->record || o->screenshot)) {
    snprintf(typed, sizeof typed, "--frames %ld", o->frames);
    cli_no_effect(typed, false, "it counts the window's frames, and %s opens no window", headless);
  }
  if (o->keys != NULL && (o->record || o->screenshot)) {
    snprintf(typed, sizeof typed, "--keys %s", o->keys);
    cli_no_effect(typed, false, "it presses keys in the window, and %s opens no window", headless);
  }
  if (o->at > 0 && o->at_event >= 0) {
    snprintf(typed, sizeof typed, "--at %g", o->at);
    cli_no_effect(typed, false, "--at-event %ld chooses the time", o->at_event);
  }
}

int cli_view_show(const char *command, const zeno_view_module *viewer, view_run *run,
                  const view_options *o) {
  if (o->at_event >= 0 && (size_t)o->at_event >= run->data.event_count)
    return cli_usage_error(command,
                           "--at-event: %ld is beyond the last "
                           "event (%zu)",
                           o->at_event, run->data.event_count - 1);
  if (o->record == NULL && (o->record_seconds > 0 || o->fps > 0))
    return cli_usage_error(command, "%s: only with --record FILE",
                           o->fps > 0 ? "--fps" : "--record-seconds");
  if (o->record != NULL && o->screenshot != NULL)
    return cli_usage_error(command, "--record: not with --screenshot (one output at a time)");
  note_unused(o);
  if (o->record == NULL && o->screenshot == NULL) return viewer->window(run, o);
  // Ctrl-C or SIGTERM stops a recording between frames, its file dropped
  // and the previous one kept (the window's own SDL quits on them).
  view_options headless = *o;
  headless.stop = cli_interrupt_flag();
  cli_signals_cooperate();
  const int code = o->record != NULL ? viewer->record(run, &headless)
                                     : viewer->screenshot(run, &headless);
  if (code != 0 && cli_interrupted())
    return cli_interrupted_exit(command, "nothing written; the file of the name, if any, is kept");
  // A recording names itself, with its frames and length (the viewer's
  // module); a screenshot is named here.
  if (code == 0 && o->record == NULL) cli_wrote(o->screenshot);
  return code == 0 ? CLI_EXIT_OK : CLI_EXIT_RUNTIME;
}

/* Long-only options of `view` itself. */
enum { OPT_EPS = 400 };

typedef struct view_command_options {
  cli_scene_options common;
  view_options view;
  char eps_typed[CLI_TYPED_SIZE];  ///< "--eps E" as typed, "" without
} view_command_options;

static void print_help(void) {
  printf(
      "Usage: zeno view SCENE [OPTIONS]\n"
      "\n"
      "Simulates the scene file SCENE and plays it in an SDL2 window: the\n"
      "surfaces, the body at its displacement from equilibrium (magnified:\n"
      "see 'zoom'), the ghost of the equilibrium pose, contacts coloured by\n"
      "letter (F grey, S green, P orange, N purple), friction cones, contact\n"
      "forces (red), impulses (magenta), the load, and a strip chart of z1,\n"
      "z2, x2 with event ticks. Bad input exits 2, and so does no display\n"
      "to open the window on (SDL would fall back to an invisible driver;\n"
      "use --screenshot there); a failure to open the window or write the\n"
      "screenshot exits 1.\n"
      "\n"
      "Options:\n"
      "  -m, --model M          'zod' or 'full'; same as --set model=M\n"
      "      --eps E            full model: epsilon in (0, 1]\n"
      "  -s, --set KEY=VALUE    override a scene value (as in simulate)\n"
      "%s"
      "  -h, --help             show this help\n",
      CLI_VIEW_OPTIONS_HELP);
}

static const struct option LONG_OPTIONS[] = {
    {"model", required_argument, NULL, 'm'},
    {"eps", required_argument, NULL, OPT_EPS},
    {"set", required_argument, NULL, 's'},
    {"help", no_argument, NULL, 'h'},
    CLI_VIEW_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  view_command_options *o = options;
  switch (option) {
    case 'm':
      return cli_override_typed_option(&o->common.overrides, "model", optarg, option, LONG_OPTIONS);
    case OPT_EPS:
      snprintf(o->eps_typed, sizeof o->eps_typed, "--eps %s", optarg);
      return cli_override_typed_option(&o->common.overrides, "epsilon", optarg, option,
                                       LONG_OPTIONS);
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: break;
  }
  const int code = cli_view_option(COMMAND, &o->view, option);
  if (code == CLI_CONTINUE && option == VIEW_OPT_SCREENSHOT)
    return cli_output(&o->common, "--screenshot", o->view.screenshot);
  if (code == CLI_CONTINUE && option == VIEW_OPT_RECORD)
    return cli_output(&o->common, "--record", o->view.record);
  return code != 0 ? code : cli_option_error(COMMAND, option, argv);
}

static int view(const void *options, const zeno_scene *scene, zeno_error *err) {
  const view_command_options *o = options;
  cli_note_epsilon(o->eps_typed[0] ? o->eps_typed : NULL, scene);
  const zeno_view_module *viewer = cli_view_module();
  if (viewer == NULL) return CLI_EXIT_RUNTIME;
  view_run run;
  if (viewer->run_simulate(&run, scene, err) != ZENO_OK) return cli_library_error(err);
  // The window reloads the scene file (with the same overrides) when it
  // changes on disk.
  view_options shown = o->view;
  shown.scene_path = o->common.scene_path;
  shown.overrides = cli_overrides_items(&o->common.overrides);
  shown.override_count = o->common.overrides.count;
  const int code = cli_view_show(COMMAND, viewer, &run, &shown);
  viewer->run_free(&run);
  return code;
}

static const cli_scene_command VIEW_COMMAND = {.name = COMMAND_NAME,
                                               .short_options = ":m:s:h",
                                               .long_options = LONG_OPTIONS,
                                               .apply = apply_option,
                                               .run = view};

int cmd_view(int argc, char **argv) {
  view_command_options o;
  memset(&o, 0, sizeof o);
  o.view = view_options_default();
  return cli_scene_command_main(&VIEW_COMMAND, &o.common, &o, argc, argv);
}
#endif
