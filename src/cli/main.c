// The `zeno` program: dispatches to one subcommand per file.
#include <stdio.h>
#include <string.h>

#include "cli_common.h"
#include "cli_module.h"
#include "cli_signal.h"

typedef int (*command_fn)(int argc, char **argv);

typedef struct command {
  const char *name;
  const char *summary;
  command_fn run;
} command;

static const command COMMANDS[] = {
    {"simulate", "run a scene: contact modes, impacts, Zeno sequences, outcome", cmd_simulate},
    {"check",
     "analyse the equilibrium: feasibility, (13), ambiguity, "
     "Painleve (11)",
     cmd_check},
    {"show", "the scene as read: paper and general form, angles in deg and rad", cmd_show},
    {"analyze", "Lyapunov stability verdict (Theorems 1-4), figures", cmd_analyze},
    {"certify", "Lyapunov certificate by sums of squares (CSDP, exact check)", cmd_certify},
    {"maps", "maps R and G over the Poincare section: summary, CSV, figure", cmd_maps},
    {"plot-trajectory", "draw z1, z2, x2 against t from 'simulate --out DIR'", cmd_plot_trajectory},
    {"regions", "stability region map over two scene parameters (Fig. 8)", cmd_regions},
    {"sweep", "outcomes of runs over two scene values (e.g. the perturbation)", cmd_sweep},
    {"view", "watch a scene in an SDL2 window; --screenshot for one PNG", cmd_view},
    {"replay", "play back 'simulate --out DIR' in the viewer", cmd_replay},
};

static const int COMMAND_COUNT = (int)(sizeof COMMANDS / sizeof COMMANDS[0]);

static void print_usage(void) {
  printf(
      "Usage: zeno COMMAND [OPTIONS] SCENE\n"
      "       zeno --help | --version\n"
      "\n"
      "A planar rigid body on two frictional unilateral contacts after its\n"
      "equilibrium is disturbed (Varkonyi & Or).\n"
      "\n"
      "Commands:\n");
  for (int i = 0; i < COMMAND_COUNT; i++)
    printf("  %-16s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
  printf(
      "\n"
      "Run 'zeno COMMAND --help' for the options of a command.\n"
      "Exit status: 0 the command ran (any simulation outcome), 1 runtime\n"
      "failure (output files), 2 bad input (options, scene, values).\n");
}

static const command *find_command(const char *name) {
  for (int i = 0; i < COMMAND_COUNT; i++)
    if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
  return NULL;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) return cli_usage_error(NULL, "missing COMMAND");
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
    print_usage();
    return CLI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0) {
    printf("zeno %s\n", zeno_version());
    return CLI_EXIT_OK;
  }
  const command *cmd = find_command(name);
  if (cmd == NULL) {
    if (name[0] == '-') return cli_usage_error(NULL, "unknown option '%s'", name);
    const char *names[sizeof COMMANDS / sizeof COMMANDS[0]];
    for (int i = 0; i < COMMAND_COUNT; i++) names[i] = COMMANDS[i].name;
    const char *hint = zeno_closest_name(name, names, (size_t)COMMAND_COUNT);
    if (hint != NULL)
      return cli_usage_error(NULL, "unknown command '%s'; did you mean '%s'?", name, hint);
    return cli_usage_error(NULL, "unknown command '%s'", name);
  }
  return cmd->run(argc - 1, argv + 1);
}

int main(int argc, char **argv) {
  int code = dispatch(argc, argv);
  // A command a signal stopped before it wrote anything (cli_signal.h).
  if (code == CLI_EXIT_INTERRUPTED)
    code = cli_interrupted_exit(argv[1],
                                "nothing written; every output file of the name, if "
                                "any, is kept as it was");
  cli_modules_release();
  if (fflush(stdout) != 0 || ferror(stdout)) {
    cli_error("cannot write standard output");
    if (code == CLI_EXIT_OK) code = CLI_EXIT_RUNTIME;
  }
  return code;
}
