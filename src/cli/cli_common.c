// Shared helpers of the `zeno` program.
#include "cli_common.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/// Room for one formatted library error line.
#define CLI_ERROR_LINE_SIZE 1024
/// The file name of an error about an override (zeno/error.h:
/// zeno_error_format()), whose message starts with "--set ITEM: ".
#define CLI_OVERRIDE_FILE "--set"
/// First capacity of a growing override list.
#define CLI_OVERRIDES_INITIAL 8

static bool overrides_reserve(cli_overrides *list) {
  if (list->count < list->capacity) return true;
  const size_t capacity = list->capacity ? 2 * list->capacity : CLI_OVERRIDES_INITIAL;
  char **items = realloc(list->items, capacity * sizeof *items);
  if (items == NULL) return false;
  list->items = items;
  char **typed = realloc(list->typed, capacity * sizeof *typed);
  if (typed == NULL) return false;
  list->typed = typed;
  list->capacity = capacity;
  return true;
}

bool cli_overrides_add(cli_overrides *list, const char *key, const char *value) {
  if (!overrides_reserve(list)) return false;
  const size_t size = (key ? strlen(key) + 1 : 0) + strlen(value) + 1;
  char *text = malloc(size);
  if (text == NULL) return false;
  if (key) snprintf(text, size, "%s=%s", key, value);
  else snprintf(text, size, "%s", value);
  list->typed[list->count] = NULL;
  list->items[list->count++] = text;
  return true;
}

bool cli_overrides_add_typed(cli_overrides *list, const char *key, const char *value,
                             const char *option) {
  // "--t-end -3 (stop.t_end)": the option as typed and the scene path it sets.
  const size_t size = strlen(option) + strlen(value) + strlen(key) + 8;
  char *typed = malloc(size);
  if (typed == NULL) return false;
  snprintf(typed, size, "--%s %s (%s)", option, value, key);
  if (!cli_overrides_add(list, key, value)) {
    free(typed);
    return false;
  }
  list->typed[list->count - 1] = typed;
  return true;
}

void cli_overrides_free(cli_overrides *list) {
  for (size_t i = 0; i < list->count; i++) {
    free(list->items[i]);
    free(list->typed[i]);
  }
  free(list->items);
  free(list->typed);
  list->items = NULL;
  list->typed = NULL;
  list->count = 0;
  list->capacity = 0;
}

const char *const *cli_overrides_items(const cli_overrides *list) {
  return (const char *const *)list->items;
}

double cli_seconds(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("zeno: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_wrote(const char *path) {
  if (strcmp(path, "-") != 0) cli_error("wrote %s", path);
}

void cli_wrote_in(const char *dir, const char *const *names, size_t count) {
  for (size_t k = 0; k < count; k++) {
    char *path = zeno_io_path_join(dir, names[k]);
    cli_wrote(path ? path : names[k]);
    free(path);
  }
}

void cli_no_effect(const char *typed, bool several, const char *why, ...) {
  va_list ap;
  va_start(ap, why);
  fprintf(stderr, "zeno: note: %s %s no effect: ", typed, several ? "have" : "has");
  vfprintf(stderr, why, ap);
  fputc('\n', stderr);
  va_end(ap);
}

void cli_note_epsilon(const char *typed, const zeno_scene *scene) {
  if (typed == NULL) return;
  if (scene->model != ZENO_MODEL_FULL)
    cli_no_effect(typed, false,
                  "the model is '%s' (epsilon scales the full model's start; add --model full)",
                  zeno_model_name(scene->model));
  else if (scene->initial_kind != ZENO_INITIAL_ZOD)
    cli_no_effect(typed, false,
                  "the run starts from initial.pose and initial.velocity, which epsilon does not "
                  "scale (it scales qp and qdp)");
}

int cli_usage_error(const char *command, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("zeno: ", stderr);
  if (command) fprintf(stderr, "%s: ", command);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (try 'zeno%s%s --help')\n", command ? " " : "", command ? command : "");
  va_end(ap);
  return CLI_EXIT_USAGE;
}

/// Replaces line breaks so a message stays on one line.
static void flatten_line(char *text) {
  for (char *p = text; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
}

int cli_library_error(const zeno_error *error) {
  if (error->code == ZENO_ERR_INTERRUPTED) return CLI_EXIT_INTERRUPTED;
  char line[CLI_ERROR_LINE_SIZE];
  zeno_error_format(error, line, sizeof line);
  flatten_line(line);
  cli_error("%s", line);
  return error->code == ZENO_ERR_NOMEM ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
}

// The rest of an override error's message after "--set ITEM: ", or NULL
// when the message is not about ITEM.
static const char *after_item(const char *message, const char *item) {
  static const char prefix[] = CLI_OVERRIDE_FILE " ";
  const size_t p = sizeof prefix - 1, n = strlen(item);
  if (strncmp(message, prefix, p) != 0 || strncmp(message + p, item, n) != 0 ||
      strncmp(message + p + n, ": ", 2) != 0)
    return NULL;
  return message + p + n + 2;
}

// The same for an override "PATH=VALUE" of a path (the value is a number or
// word the library wrote, without ": ").
static const char *after_path(const char *message, const char *path) {
  static const char prefix[] = CLI_OVERRIDE_FILE " ";
  const size_t p = sizeof prefix - 1, n = strlen(path);
  if (strncmp(message, prefix, p) != 0 || strncmp(message + p, path, n) != 0 ||
      message[p + n] != '=')
    return NULL;
  const char *rest = strstr(message + p + n, ": ");
  return rest ? rest + 2 : NULL;
}

int cli_override_error(const zeno_error *error, const cli_overrides *list,
                       const cli_origin *origins, size_t origin_count) {
  const bool about_override = error->line == 0 && strcmp(error->file, CLI_OVERRIDE_FILE) == 0;
  const char *typed = NULL, *rest = NULL;
  for (size_t i = 0; about_override && list && i < list->count && !rest; i++)
    if (list->typed[i] && (rest = after_item(error->message, list->items[i])))
      typed = list->typed[i];
  for (size_t i = 0; about_override && origins && i < origin_count && !rest; i++)
    if ((rest = after_path(error->message, origins[i].path))) typed = origins[i].typed;
  if (rest == NULL) return cli_library_error(error);
  char line[CLI_ERROR_LINE_SIZE];
  snprintf(line, sizeof line, "%s: %s", typed, rest);
  flatten_line(line);
  cli_error("%s", line);
  return error->code == ZENO_ERR_NOMEM ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
}

zeno_status cli_out_of_memory(zeno_error *err) {
  zeno_error_clear(err);
  err->code = ZENO_ERR_NOMEM;
  snprintf(err->message, sizeof err->message, "out of memory");
  return ZENO_ERR_NOMEM;
}

int cli_output_error(const zeno_error *error) {
  char line[CLI_ERROR_LINE_SIZE];
  zeno_error_format(error, line, sizeof line);
  flatten_line(line);
  cli_error("%s", line);
  return CLI_EXIT_RUNTIME;
}

/// Most long options a command has (for suggestions).
#define CLI_MAX_LONG_OPTIONS 64

/// The long options of the command being parsed (cli_getopt()): one
/// command line is parsed per process.
static const struct option *parsed_options;

int cli_getopt(int argc, char *const argv[], const char *short_options,
               const struct option *long_options) {
  parsed_options = long_options;
  return getopt_long(argc, argv, short_options, long_options, NULL);
}

// "--name" of the long option a misspelt "--nmae[=value]" most likely means.
static const char *suggest_option(const char *arg) {
  if (parsed_options == NULL) return NULL;
  char word[CLI_MAX_LONG_OPTIONS];
  const size_t len = strcspn(arg + 2, "=");
  if (len >= sizeof word) return NULL;
  memcpy(word, arg + 2, len);
  word[len] = '\0';
  const char *names[CLI_MAX_LONG_OPTIONS];
  size_t n = 0;
  for (const struct option *o = parsed_options; o->name != NULL && n < CLI_MAX_LONG_OPTIONS; o++)
    names[n++] = o->name;
  return zeno_closest_name(word, names, n);
}

int cli_option_error(const char *command, int result, char *const argv[]) {
  const char *arg = argv[optind - 1];
  if (result == ':') return cli_usage_error(command, "option '%s' needs a value", arg);
  if (strncmp(arg, "--", 2) == 0) {
    const char *hint = suggest_option(arg);
    if (hint != NULL)
      return cli_usage_error(command, "unrecognized option '%s'; did you mean '--%s'?", arg, hint);
    return cli_usage_error(command, "unrecognized option '%s'", arg);
  }
  return cli_usage_error(command, "unknown option '-%c'", optopt);
}

int cli_scene_argument(const char *command, int argc, char *const argv[], const char **scene_path) {
  if (optind >= argc) return cli_usage_error(command, "missing SCENE argument");
  if (optind + 1 < argc)
    return cli_usage_error(command, "unexpected argument '%s'", argv[optind + 1]);
  *scene_path = argv[optind];
  return CLI_CONTINUE;
}

int cli_int_option(const char *command, const char *option, const char *text, long min, long max,
                   int *value) {
  char *end;
  errno = 0;
  const long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
    return cli_usage_error(command, "%s: '%s' is not an integer in [%ld, %ld]", option, text, min,
                           max);
  *value = (int)v;
  return CLI_CONTINUE;
}

int cli_size_option(const char *command, const char *option, const char *text, size_t min,
                    size_t max, size_t *value) {
  int v;
  const int code = cli_int_option(command, option, text, (long)min, (long)max, &v);
  if (code == CLI_CONTINUE) *value = (size_t)v;
  return code;
}

int cli_override_option(cli_overrides *list, const char *key, const char *value) {
  if (cli_overrides_add(list, key, value)) return CLI_CONTINUE;
  cli_error("out of memory");
  return CLI_EXIT_RUNTIME;
}

int cli_override_typed_option(cli_overrides *list, const char *key, const char *value, int option,
                              const struct option *long_options) {
  const char *name = NULL;
  for (const struct option *o = long_options; o->name != NULL && name == NULL; o++)
    if (o->val == option) name = o->name;
  if (name == NULL) return cli_override_option(list, key, value);
  if (cli_overrides_add_typed(list, key, value, name)) return CLI_CONTINUE;
  cli_error("out of memory");
  return CLI_EXIT_RUNTIME;
}

/// An output's folder longer than this (Linux's PATH_MAX) is the writer's
/// to report.
#define OUTPUT_FOLDER_MAX 4095

int cli_output(cli_scene_options *common, const char *option, const char *path) {
  // A repeated option names its last path (getopt's habit): its entry is
  // replaced.
  size_t k = 0;
  while (k < common->output_count && strcmp(common->outputs[k].option, option) != 0) k++;
  if (k == CLI_MAX_OUTPUTS) return CLI_CONTINUE;  // more kinds than the table holds: unchecked
  common->outputs[k] = (cli_output_file){option, path};
  if (k == common->output_count) common->output_count++;
  return CLI_CONTINUE;
}

// Whether the two paths name one existing file.
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_check_output(const char *command, const char *option, const char *path, const char *input) {
  if (strcmp(path, "-") == 0) return CLI_CONTINUE;
  if (input != NULL && same_file(path, input))
    return cli_usage_error(command, "%s '%s' is the scene file: it would be overwritten", option,
                           path);
  char *folder = zeno_io_path_folder(path);
  if (folder == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  struct stat st;
  const bool missing = strlen(folder) <= OUTPUT_FOLDER_MAX &&
                       (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode));
  if (missing)
    cli_error("%s: %s '%s': no folder '%s' to write it in", command, option, path, folder);
  free(folder);
  return missing ? CLI_EXIT_RUNTIME : CLI_CONTINUE;
}

// The outputs the options named, before any work: none is the scene file,
// each one's folder exists.
static int check_outputs(const cli_scene_command *command, const cli_scene_options *common) {
  int code = CLI_CONTINUE;
  for (size_t k = 0; k < common->output_count && code == CLI_CONTINUE; k++)
    code = cli_check_output(command->name, common->outputs[k].option, common->outputs[k].path,
                            common->scene_path);
  return code;
}

static int parse_options(const cli_scene_command *command, cli_scene_options *common, void *options,
                         int argc, char **argv) {
  opterr = 0;
  int option;
  while ((option = cli_getopt(argc, argv, command->short_options, command->long_options)) != -1) {
    const int code = command->apply(options, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  const int code = cli_scene_argument(command->name, argc, argv, &common->scene_path);
  return code == CLI_CONTINUE ? check_outputs(command, common) : code;
}

static int load_and_run(const cli_scene_command *command, cli_scene_options *common,
                        const void *options) {
  zeno_scene scene;
  zeno_error err;
  zeno_error_clear(&err);
  // `-` and /dev/stdin read the standard input already open: reopening
  // /dev/stdin would block on a FIFO whose writer is done.
  const bool from_stdin = strcmp(common->scene_path, "-") == 0 ||
                          strcmp(common->scene_path, "/dev/stdin") == 0;
  if (strcmp(common->scene_path, "-") == 0) common->scene_path = CLI_STDIN_NAME;
  if ((from_stdin ? zeno_scene_read_stream(stdin, common->scene_path, &common->scene_text,
                                           &common->scene_length, &err)
                  : zeno_scene_read_file(common->scene_path, &common->scene_text,
                                         &common->scene_length, &err)) != ZENO_OK ||
      zeno_scene_load_string(common->scene_text, common->scene_path,
                             cli_overrides_items(&common->overrides), common->overrides.count,
                             &scene, &err) != ZENO_OK)
    return cli_override_error(&err, &common->overrides, NULL, 0);
  // The sanity pass: never a refusal. Where it cannot run (the equilibrium
  // LP failing), the command that needs the equilibrium reports why.
  if (zeno_scene_warnings(&scene, &common->warnings, NULL) != ZENO_OK) common->warnings.count = 0;
  if (!command->own_warnings) cli_print_warnings(&common->warnings);
  return command->run(options, &scene, &err);
}

void cli_print_warnings(const zeno_warnings *warnings) {
  for (size_t k = 0; k < warnings->count; k++) {
    const zeno_warning *w = &warnings->items[k];
    cli_error("warning: %s%s%s", w->parameter, w->parameter[0] ? ": " : "", w->message);
  }
}

zeno_status cli_print_json(FILE *out, const cli_scene_options *common, cli_json_writer write,
                           const void *context) {
  if (common->warnings.count == 0) return write(out, context);
  char *text = NULL;
  size_t length = 0;
  FILE *memory = open_memstream(&text, &length);
  if (memory == NULL) return ZENO_ERR_NOMEM;
  const zeno_status st = write(memory, context);
  if (fclose(memory) != 0 || text == NULL) {
    free(text);
    return ZENO_ERR_NOMEM;
  }
  const char *close = strrchr(text, '}');
  if (st != ZENO_OK || close == NULL) {
    fwrite(text, 1, length, out);
    free(text);
    return st;
  }
  fwrite(text, 1, (size_t)(close - text), out);
  fputs(", \"warnings\": [", out);
  for (size_t k = 0; k < common->warnings.count; k++) {
    const zeno_warning *w = &common->warnings.items[k];
    fprintf(out, "%s{\"kind\": ", k ? ", " : "");
    zeno_io_json_string(out, zeno_warning_name(w->kind), NULL);
    fputs(", \"parameter\": ", out);
    zeno_io_json_string(out, w->parameter, NULL);
    fputs(", \"message\": ", out);
    zeno_io_json_string(out, w->message, NULL);
    fputc('}', out);
  }
  fputc(']', out);
  fputs(close, out);
  free(text);
  return st;
}

int cli_scene_command_main(const cli_scene_command *command, cli_scene_options *common,
                           void *options, int argc, char **argv) {
  int code = parse_options(command, common, options, argc, argv);
  if (code == CLI_CONTINUE) code = load_and_run(command, common, options);
  cli_overrides_free(&common->overrides);
  free(common->scene_text);
  common->scene_text = NULL;
  return code;
}

void cli_print_feasibility(const zeno_equilibrium_report *r) {
  cli_label("equilibrium (SS)");
  printf("%s, margin %.6g\n", r->feasible ? "feasible" : "infeasible", r->margin);
}

void cli_print_painleve(const zeno_scene *scene, const zeno_equilibrium_report *r) {
  for (int i = 0; i < r->contact_count; i++) {
    char label[sizeof "Painleve (11) c" + 11];  // room for any int
    snprintf(label, sizeof label, "Painleve (11) c%d", i + 1);
    cli_label(label);
    printf("mu = %.6g %s bound %.6g: %s\n", scene->contacts[i].mu,
           r->painleve_ok[i] ? "<" : ">=", r->painleve_bound[i],
           r->painleve_ok[i] ? "ok" : "violated");
  }
}

void cli_label(const char *label) { printf("%-*s", CLI_LABEL_WIDTH, label); }
