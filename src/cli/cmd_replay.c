// `zeno replay DIR --scene SCENE`: plays back a run saved with
// `zeno simulate SCENE --out DIR` with the controls of `zeno view`.
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_view.h"

static const char *const COMMAND = "replay";

#ifndef ZENO_HAVE_VIEWER
int cmd_replay(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_view_missing(COMMAND);
}
#else

#define MESSAGE_SIZE 4352

typedef struct replay_options {
  cli_overrides overrides;
  const char *scene_path;
  const char *dir;
  view_options view;
} replay_options;

static void print_help(void) {
  printf("Usage: zeno replay DIR --scene SCENE [OPTIONS]\n"
         "\n"
         "Plays back DIR/trajectory.csv and DIR/events.jsonl, written by\n"
         "'zeno simulate SCENE --out DIR', with the window and keys of 'zeno\n"
         "view'. The files hold the states, not the geometry: give the same\n"
         "SCENE and --set overrides the run used. p and mouse drags start a\n"
         "live simulation from the replayed state.\n"
         "\n"
         "Options:\n"
         "  -S, --scene SCENE      the scene file of the run (required)\n"
         "  -s, --set KEY=VALUE    override a scene value (as in simulate)\n"
         "%s"
         "  -h, --help             show this help\n",
         CLI_VIEW_OPTIONS_HELP);
}

static const struct option LONG_OPTIONS[] = {
    {"scene", required_argument, NULL, 'S'},
    {"set", required_argument, NULL, 's'},
    {"help", no_argument, NULL, 'h'},
    CLI_VIEW_LONG_OPTIONS,
    {NULL, 0, NULL, 0},
};

static int apply_option(replay_options *o, int option, char **argv) {
  switch (option) {
    case 'S': o->scene_path = optarg; return CLI_CONTINUE;
    case 's': return cli_override_option(&o->overrides, NULL, optarg);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: break;
  }
  const int code = cli_view_option(COMMAND, &o->view, option);
  return code != 0 ? code : cli_option_error(COMMAND, option, argv);
}

static int parse_options(int argc, char **argv, replay_options *o) {
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, ":S:s:h", LONG_OPTIONS, NULL)) !=
         -1) {
    const int code = apply_option(o, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  if (optind >= argc) return cli_usage_error(COMMAND, "missing DIR argument");
  if (optind + 1 < argc)
    return cli_usage_error(COMMAND, "unexpected argument '%s'",
                           argv[optind + 1]);
  o->dir = argv[optind];
  if (o->scene_path == NULL)
    return cli_usage_error(COMMAND, "--scene SCENE is required (the files "
                                    "hold no geometry)");
  return CLI_CONTINUE;
}

static int replay(const replay_options *o) {
  zeno_scene scene;
  zeno_error err;
  zeno_error_clear(&err);
  if (zeno_scene_load(o->scene_path, cli_overrides_items(&o->overrides),
                      o->overrides.count, &scene, &err) != ZENO_OK)
    return cli_library_error(&err);
  view_run run;
  char message[MESSAGE_SIZE];
  if (!view_run_load(&run, &scene, o->dir, message, sizeof message)) {
    cli_error("%s", message);
    return CLI_EXIT_USAGE;
  }
  const int code = cli_view_show(COMMAND, &run, &o->view);
  view_run_free(&run);
  return code;
}

int cmd_replay(int argc, char **argv) {
  replay_options o;
  memset(&o, 0, sizeof o);
  o.view = view_options_default();
  int code = parse_options(argc, argv, &o);
  if (code == CLI_CONTINUE) code = replay(&o);
  cli_overrides_free(&o.overrides);
  return code;
}
#endif
