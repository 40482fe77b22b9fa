// `zeno replay DIR`: plays back a run saved with `zeno simulate SCENE --out
// DIR` with the controls of `zeno view`. The run directory holds the scene
// (DIR/scene.yaml and DIR/overrides.txt); --scene replaces it, e.g. for runs
// saved before simulate kept it.
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_view.h"

static const char *const COMMAND = "replay";

#ifndef ZENO_HAVE_VIEWER
int cmd_replay(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_view_missing(COMMAND);
}
#else

typedef struct replay_options {
  cli_overrides overrides;
  const char *scene_path;
  const char *dir;
  view_options view;
} replay_options;

static void print_help(void) {
  printf(
      "Usage: zeno replay DIR [OPTIONS]\n"
      "\n"
      "Plays back DIR/trajectory.csv and DIR/events.jsonl, written by\n"
      "'zeno simulate SCENE --out DIR', with the window and keys of 'zeno\n"
      "view'. The geometry comes from DIR/scene.yaml and the run's --set\n"
      "values from DIR/overrides.txt, which simulate writes beside them.\n"
      "p and mouse drags start a live simulation from the replayed state.\n"
      "The run is verified first: its files against DIR/digest.sha256, its\n"
      "events and rows against each other and its start against the scene;\n"
      "a folder that fails is refused (exit 2), naming the file and line.\n"
      "\n"
      "Options:\n"
      "  -S, --scene SCENE      use this scene file instead of DIR/scene.yaml\n"
      "                         (and not DIR/overrides.txt)\n"
      "  -s, --set KEY=VALUE    override a scene value (after the run's)\n"
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
  while ((option = cli_getopt(argc, argv, ":S:s:h", LONG_OPTIONS)) != -1) {
    const int code = apply_option(o, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  if (optind >= argc) return cli_usage_error(COMMAND, "missing DIR argument");
  if (optind + 1 < argc)
    return cli_usage_error(COMMAND, "unexpected argument '%s'", argv[optind + 1]);
  o->dir = argv[optind];
  return CLI_CONTINUE;
}

// Appends the run's own overrides (DIR/overrides.txt, when it exists).
static int add_run_overrides(const char *dir, cli_overrides *all) {
  char **saved = NULL;
  size_t count = 0;
  zeno_error err;
  const zeno_status st = zeno_run_dir_read_overrides(dir, &saved, &count, &err);
  if (st != ZENO_OK && st != ZENO_DONE) return cli_output_error(&err);
  int code = CLI_CONTINUE;
  for (size_t i = 0; code == CLI_CONTINUE && i < count; i++)
    if (!cli_overrides_add(all, NULL, saved[i]))
      code = (cli_error("out of memory"), CLI_EXIT_RUNTIME);
  zeno_run_dir_overrides_free(saved, count);
  return code;
}

// The scene of the run: --scene with the command's --set values, or the
// run's own DIR/scene.yaml with DIR/overrides.txt and then those values.
static int load_scene(const replay_options *o, zeno_scene *scene) {
  cli_overrides all = {0};
  char *saved = NULL;
  const char *path = o->scene_path;
  int code = CLI_CONTINUE;
  struct stat st;
  if (stat(o->dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
    // A scene file given where a run folder is expected (the likeliest
    // slip: `zeno replay scenes/example2.yaml`).
    cli_error(
        "%s: '%s' is a file, not a run folder: replay plays the folder that 'zeno simulate "
        "SCENE --out DIR' writes; 'zeno view %s' shows a scene",
        COMMAND, o->dir, o->dir);
    return CLI_EXIT_USAGE;
  }
  if (path == NULL) {
    saved = zeno_io_path_join(o->dir, ZENO_RUN_DIR_SCENE);
    if (saved == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
    path = saved;
    if (access(path, R_OK) != 0) {
      cli_error(
          "%s: no '%s' (runs saved by an older zeno): give the run's scene "
          "with --scene SCENE",
          COMMAND, path);
      code = CLI_EXIT_USAGE;
    } else {
      code = add_run_overrides(o->dir, &all);
    }
  }
  for (size_t i = 0; code == CLI_CONTINUE && i < o->overrides.count; i++)
    if (!cli_overrides_add(&all, NULL, o->overrides.items[i]))
      code = (cli_error("out of memory"), CLI_EXIT_RUNTIME);
  zeno_error err;
  zeno_error_clear(&err);
  // The run's own scene is read as a file of the run directory: a regular
  // file only (a FIFO there blocked for ever).
  char *text = NULL;
  if (code == CLI_CONTINUE && saved != NULL &&
      zeno_run_dir_read_scene(o->dir, &text, NULL, &err) != ZENO_OK)
    code = cli_output_error(&err);  // as the overrides beside it
  if (code == CLI_CONTINUE &&
      (text ? zeno_scene_load_string(text, path, cli_overrides_items(&all), all.count, scene, &err)
            : zeno_scene_load(path, cli_overrides_items(&all), all.count, scene, &err)) != ZENO_OK)
    code = cli_library_error(&err);
  free(text);
  cli_overrides_free(&all);
  free(saved);
  return code;
}

// --screenshot and --record before any work, as `view` checks them: not
// the scene (--scene SCENE, else DIR/scene.yaml), in a folder that exists.
static int check_outputs(const replay_options *o) {
  char *saved = o->scene_path ? NULL : zeno_io_path_join(o->dir, ZENO_RUN_DIR_SCENE);
  if (o->scene_path == NULL && saved == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  const char *scene = o->scene_path ? o->scene_path : saved;
  int code = CLI_CONTINUE;
  if (o->view.screenshot != NULL)
    code = cli_check_output(COMMAND, "--screenshot", o->view.screenshot, scene);
  if (code == CLI_CONTINUE && o->view.record != NULL)
    code = cli_check_output(COMMAND, "--record", o->view.record, scene);
  free(saved);
  return code;
}

static int replay(const replay_options *o) {
  const int checked = check_outputs(o);
  if (checked != CLI_CONTINUE) return checked;
  zeno_scene scene;
  const int loaded = load_scene(o, &scene);
  if (loaded != CLI_CONTINUE) return loaded;
  const zeno_view_module *viewer = cli_view_module();
  if (viewer == NULL) return CLI_EXIT_RUNTIME;
  view_run run;
  zeno_error err;
  if (viewer->run_load(&run, &scene, o->dir, &err) != ZENO_OK) return cli_library_error(&err);
  if (!run.data.digest_checked)
    cli_error(
        "note: %s/%s missing (a run of an older zeno): its files were checked against each "
        "other and the scene, not against a digest",
        o->dir, ZENO_RUN_DIR_DIGEST);
  const int code = cli_view_show(COMMAND, viewer, &run, &o->view);
  viewer->run_free(&run);
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
