// Shared pieces of the `zeno` program: exit codes, error printing, option
// parsing helpers, the --set override list and the subcommand entry points.
#ifndef ZENO_CLI_CLI_COMMON_H
#define ZENO_CLI_CLI_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "zeno/zeno.h"

/// The command ran (any simulation outcome is a result, not an error).
#define CLI_EXIT_OK 0
/// Runtime failure: a directory or file could not be created or written.
#define CLI_EXIT_RUNTIME 1
/// Bad input: options, scene files, --set values, out-of-range numbers.
#define CLI_EXIT_USAGE 2
/// Returned by option parsers when the command should go on running.
#define CLI_CONTINUE (-1)
/// Within a command: stopped by SIGINT or SIGTERM, not yet reported
/// (cli_interrupted_exit() gives the exit status, 130 or 143; main()
/// reports a command that returns it: nothing written).
#define CLI_EXIT_INTERRUPTED (-3)
/// How a scene read from standard input (`-`) is named in messages.
#define CLI_STDIN_NAME "stdin"

/// Room for an option as the user typed it, for error messages.
#define CLI_TYPED_SIZE 1024
/// Width of the label column in human-readable reports.
#define CLI_LABEL_WIDTH 24

/// Scene overrides in `--set` syntax ("dotted.path=VALUE"), owned strings.
typedef struct cli_overrides {
  char **items;
  /// Per item, the option as the user typed it ("--t-end -3") when it was
  /// not --set, for error messages; NULL for --set items.
  char **typed;
  size_t count;
  size_t capacity;
} cli_overrides;

/// An override the library made from an option (a region axis end, say),
/// named by its scene path, and the option as the user typed it.
typedef struct cli_origin {
  const char *path;   ///< "com.x"
  const char *typed;  ///< "--x com.x=-2.5:2:300"
} cli_origin;

/// Appends "key=value" (or `value` alone when key is NULL). Returns false
/// when out of memory.
bool cli_overrides_add(cli_overrides *list, const char *key, const char *value);

/// Appends "key=value" made from the option `option` (its long name) with
/// `value` as typed: errors about it will name "--option value (key)".
bool cli_overrides_add_typed(cli_overrides *list, const char *key, const char *value,
                             const char *option);

/// Frees the strings and the list; the list is left empty.
void cli_overrides_free(cli_overrides *list);

/// The list as the `overrides` argument of zeno_scene_load().
const char *const *cli_overrides_items(const cli_overrides *list);

/// Prints "zeno: MESSAGE" as one line on stderr.
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// Says on standard error that the command wrote the file `path`:
/// "zeno: wrote PATH", the one line every command prints for each file it
/// writes, once the file is in place. Standard output ("-") is no file:
/// nothing is said.
void cli_wrote(const char *path);

/// The same for the files `names[0..count-1]` of the folder `dir`, one
/// line each ("zeno: wrote DIR/NAME"), in order.
void cli_wrote_in(const char *dir, const char *const *names, size_t count);

/// Notes on standard error that options the user typed have no effect on
/// this run, and why: "zeno: note: TYPED has no effect: WHY" ("have" when
/// `several`). A note, not an error: the command goes on (exit 0).
void cli_no_effect(const char *typed, bool several, const char *why, ...)
    __attribute__((format(printf, 3, 4)));

/// The note for `--eps E` (typed: "--eps E"; NULL: not given) when the
/// loaded scene does not use epsilon: it scales the full model's start
/// from q' (initial.qp and qdp) only (docs/model.md, Scaling).
void cli_note_epsilon(const char *typed, const zeno_scene *scene);

/// Seconds on the monotonic clock since an arbitrary start: the program's
/// timings and progress line (0 where the clock cannot be read).
double cli_seconds(void);

/// Prints "zeno: COMMAND: MESSAGE (try 'zeno COMMAND --help')" as one line
/// on stderr and returns CLI_EXIT_USAGE. command may be NULL.
int cli_usage_error(const char *command, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Prints a library error as one line ("zeno: " + zeno_error_format()) and
/// returns the exit code for it: CLI_EXIT_RUNTIME when out of memory,
/// CLI_EXIT_USAGE otherwise (the input was bad). A call the signal flag
/// stopped (ZENO_ERR_INTERRUPTED, cli_interrupt_hook()) is no error:
/// CLI_EXIT_INTERRUPTED, nothing printed.
int cli_library_error(const zeno_error *error);

/// cli_library_error() for an error of loading a scene with overrides: an
/// override error ("--set model=x: ...") about an override that came from
/// another option is told as that option ("--model x: ..."), and one about a
/// path in `origins` (made by the library from an option) as its typed
/// form. `origins` may be NULL.
int cli_override_error(const zeno_error *error, const cli_overrides *list,
                       const cli_origin *origins, size_t origin_count);

/// Fills err as the library would for an allocation of the program that
/// failed (ZENO_ERR_NOMEM, "out of memory") and returns ZENO_ERR_NOMEM.
zeno_status cli_out_of_memory(zeno_error *err);

/// Prints a library error of writing the command's output (a file that
/// cannot be created or written) and returns CLI_EXIT_RUNTIME.
int cli_output_error(const zeno_error *error);

/// Reports a getopt_long() failure (`result` is '?' or ':'; the option
/// string must start with ':') and returns CLI_EXIT_USAGE.
int cli_option_error(const char *command, int result, char *const argv[]);

/// getopt_long() that also remembers the long options, so that
/// cli_option_error() can suggest the one a misspelt option meant.
int cli_getopt(int argc, char *const argv[], const char *short_options,
               const struct option *long_options);

/// Checks that exactly one positional argument (the scene) remains after
/// the options. Stores it in *scene_path or reports a usage error and
/// returns CLI_EXIT_USAGE; returns CLI_CONTINUE on success.
int cli_scene_argument(const char *command, int argc, char *const argv[], const char **scene_path);

/// Parses the value of a numeric option: a decimal integer in [min, max].
/// Stores it in *value and returns CLI_CONTINUE, or reports a usage error
/// naming the option and returns CLI_EXIT_USAGE.
int cli_int_option(const char *command, const char *option, const char *text, long min, long max,
                   int *value);

/// The same for a size (a count of samples or intervals).
int cli_size_option(const char *command, const char *option, const char *text, size_t min,
                    size_t max, size_t *value);

/// Adds one --set style override (key may be NULL, see cli_overrides_add());
/// returns CLI_CONTINUE, or reports "out of memory" and returns
/// CLI_EXIT_RUNTIME.
int cli_override_option(cli_overrides *list, const char *key, const char *value);

/// The same for an option that stands for an override (`--t-end T` for
/// stop.t_end=T): errors about it will name the option (its long name in
/// long_options, found by its code `option`) and the value typed.
int cli_override_typed_option(cli_overrides *list, const char *key, const char *value, int option,
                              const struct option *long_options);

/// Output files a command may name (--csv, --plot, --graph, ...).
#define CLI_MAX_OUTPUTS 4

/// An output file named on the command line (cli_output()).
typedef struct cli_output_file {
  const char *option;  ///< "--plot"
  const char *path;
} cli_output_file;

/// Options every scene command has: the --set overrides and the scene.
typedef struct cli_scene_options {
  cli_overrides overrides;  ///< --set overrides, in order
  const char *scene_path;
  /// The scene file's text, read once (a pipe can be read only once): the
  /// scene is loaded from it, and commands keep or hash it as it was read.
  char *scene_text;
  size_t scene_length;
  /// The output files named by the options, checked before any work
  /// (cli_scene_command_main()).
  cli_output_file outputs[CLI_MAX_OUTPUTS];
  size_t output_count;
  /// The loaded scene's warnings (zeno_scene_warnings()), printed on
  /// standard error before the command runs; cli_print_json() adds them.
  zeno_warnings warnings;
} cli_scene_options;

/// Prints each warning on standard error: "zeno: warning: PARAMETER:
/// MESSAGE".
void cli_print_warnings(const zeno_warnings *warnings);

/// Writes one JSON object (and its newline) to `out`.
typedef zeno_status (*cli_json_writer)(FILE *out, const void *context);

/// The object write() puts out, with the scene's warnings as its last
/// member when there are any: "warnings": [{"kind", "parameter",
/// "message"}, ...]. Without warnings the object is written as it is.
/// Returns write()'s status (ZENO_ERR_NOMEM when the object cannot be held).
zeno_status cli_print_json(FILE *out, const cli_scene_options *common, cli_json_writer write,
                           const void *context);

/// Notes the output file `path` of `option` (a command's --csv, --plot,
/// ...): before the scene is loaded, an output that is the scene file is
/// refused (exit 2: it would be overwritten), and one whose folder does not
/// exist (exit 1: a typo found before the work, not after it). "-" is
/// standard output. Returns CLI_CONTINUE.
int cli_output(cli_scene_options *common, const char *option, const char *path);

/// The check cli_output() asks for, of one output: `path` of `option` is
/// not the file `input` (NULL: no such check) and its folder exists.
/// Returns CLI_CONTINUE, or the exit status after reporting.
int cli_check_output(const char *command, const char *option, const char *path, const char *input);

struct option;

/// A command that loads one scene: its option parser and what it does
/// with the loaded scene.
typedef struct cli_scene_command {
  const char *name;                   ///< subcommand name, for messages
  const char *short_options;          ///< getopt string, starting with ':'
  const struct option *long_options;  ///< getopt_long table
  /// Applies one parsed option; returns CLI_CONTINUE or an exit code.
  int (*apply)(void *options, int option, char **argv);
  /// Runs on the loaded scene; err serves its library calls. Returns an exit code
  /// (library failures reported with cli_library_error(err)).
  int (*run)(const void *options, const zeno_scene *scene, zeno_error *err);
  /// The command prints the scene's warnings in its own output (show),
  /// not on standard error.
  bool own_warnings;
} cli_scene_command;

/// Parses the options with getopt_long() (applying each with
/// command->apply), checks the scene argument, reads the scene file once
/// (common->scene_text), loads the scene with the overrides and runs
/// command->run on it. Frees the overrides and the text. Returns the exit
/// code.
int cli_scene_command_main(const cli_scene_command *command, cli_scene_options *common,
                           void *options, int argc, char **argv);

/// Human report line "equilibrium (SS)": feasible or not, and the margin.
void cli_print_feasibility(const zeno_equilibrium_report *r);

/// Human report lines "Painleve (11) cN": mu against the bound per contact.
void cli_print_painleve(const zeno_scene *scene, const zeno_equilibrium_report *r);

/// Prints "LABEL    " padded to CLI_LABEL_WIDTH on stdout.
void cli_label(const char *label);

/* Subcommands: argv[0] is the subcommand name. They return an exit code. */
int cmd_simulate(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_maps(int argc, char **argv);
int cmd_plot_trajectory(int argc, char **argv);
int cmd_regions(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_replay(int argc, char **argv);

#endif
