// Shared pieces of the `zeno` program: exit codes, error printing, option
// parsing helpers, the --set override list and the subcommand entry points.
#ifndef ZENO_CLI_COMMON_H
#define ZENO_CLI_COMMON_H

#include <stdbool.h>

#include "zeno/zeno.h"

/// The command ran (any simulation outcome is a result, not an error).
#define CLI_EXIT_OK 0
/// Runtime failure: a directory or file could not be created or written.
#define CLI_EXIT_RUNTIME 1
/// Bad input: options, scene files, --set values, out-of-range numbers.
#define CLI_EXIT_USAGE 2
/// Returned by option parsers when the command should go on running.
#define CLI_CONTINUE (-1)

/// Width of the label column in human-readable reports.
#define CLI_LABEL_WIDTH 24

/// Scene overrides in `--set` syntax ("dotted.path=VALUE"), owned strings.
typedef struct cli_overrides {
  char **items;
  int count;
  int capacity;
} cli_overrides;

/// Appends "key=value" (or `value` alone when key is NULL). Returns false
/// when out of memory.
bool cli_overrides_add(cli_overrides *list, const char *key,
                       const char *value);

/// Frees the strings and the list; the list is left empty.
void cli_overrides_free(cli_overrides *list);

/// The list as the `overrides` argument of zeno_scene_load().
const char *const *cli_overrides_items(const cli_overrides *list);

/// Prints "zeno: MESSAGE" as one line on stderr.
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// Prints "zeno: COMMAND: MESSAGE (try 'zeno COMMAND --help')" as one line
/// on stderr and returns CLI_EXIT_USAGE. command may be NULL.
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Prints a library error as one line ("zeno: " + zeno_error_format()) and
/// returns the exit code for it: CLI_EXIT_RUNTIME when out of memory,
/// CLI_EXIT_USAGE otherwise (the input was bad).
int cli_library_error(const zeno_error *error);

/// Reports a getopt_long() failure (`result` is '?' or ':'; the option
/// string must start with ':') and returns CLI_EXIT_USAGE.
int cli_option_error(const char *command, int result, char *const argv[]);

/// Checks that exactly one positional argument (the scene) remains after
/// the options. Stores it in *scene_path or reports a usage error and
/// returns CLI_EXIT_USAGE; returns CLI_CONTINUE on success.
int cli_scene_argument(const char *command, int argc, char *const argv[],
                       const char **scene_path);

/// Parses the value of a numeric option: a decimal integer in [min, max].
/// Stores it in *value and returns CLI_CONTINUE, or reports a usage error
/// naming the option and returns CLI_EXIT_USAGE.
int cli_int_option(const char *command, const char *option, const char *text,
                   long min, long max, int *value);

/// Prints "LABEL    " padded to CLI_LABEL_WIDTH on stdout.
void cli_label(const char *label);

/// Creates a directory and its missing parents (mkdir -p). Returns 0, or -1
/// with errno set.
int cli_make_directories(const char *path);

/// "dir/name", newly allocated; NULL when out of memory.
char *cli_path_join(const char *dir, const char *name);

/* Subcommands: argv[0] is the subcommand name. They return an exit code. */
int cmd_simulate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_maps(int argc, char **argv);
int cmd_plot_trajectory(int argc, char **argv);

#endif
