// Shared helpers of the `zeno` program.
#include "cli_common.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// Room for one formatted library error line.
#define CLI_ERROR_LINE_SIZE 1024
/// First capacity of a growing override list.
#define CLI_OVERRIDES_INITIAL 8
/// Permissions of created directories (umask applies).
#define CLI_DIRECTORY_MODE 0777

static bool overrides_reserve(cli_overrides *list) {
  if (list->count < list->capacity) return true;
  const int capacity =
      list->capacity ? 2 * list->capacity : CLI_OVERRIDES_INITIAL;
  char **items = realloc(list->items, (size_t)capacity * sizeof *items);
  if (items == NULL) return false;
  list->items = items;
  list->capacity = capacity;
  return true;
}

bool cli_overrides_add(cli_overrides *list, const char *key,
                       const char *value) {
  if (!overrides_reserve(list)) return false;
  const size_t size = (key ? strlen(key) + 1 : 0) + strlen(value) + 1;
  char *text = malloc(size);
  if (text == NULL) return false;
  if (key)
    snprintf(text, size, "%s=%s", key, value);
  else
    snprintf(text, size, "%s", value);
  list->items[list->count++] = text;
  return true;
}

void cli_overrides_free(cli_overrides *list) {
  for (int i = 0; i < list->count; i++) free(list->items[i]);
  free(list->items);
  list->items = NULL;
  list->count = 0;
  list->capacity = 0;
}

const char *const *cli_overrides_items(const cli_overrides *list) {
  return (const char *const *)list->items;
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("zeno: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_usage_error(const char *command, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("zeno: ", stderr);
  if (command) fprintf(stderr, "%s: ", command);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (try 'zeno%s%s --help')\n", command ? " " : "",
          command ? command : "");
  va_end(ap);
  return CLI_EXIT_USAGE;
}

/// Replaces line breaks so a message stays on one line.
static void flatten_line(char *text) {
  for (char *p = text; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
}

int cli_library_error(const zeno_error *error) {
  char line[CLI_ERROR_LINE_SIZE];
  zeno_error_format(error, line, sizeof line);
  flatten_line(line);
  cli_error("%s", line);
  return error->code == ZENO_ERR_NOMEM ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
}

int cli_option_error(const char *command, int result, char *const argv[]) {
  const char *arg = argv[optind - 1];
  if (result == ':')
    return cli_usage_error(command, "option '%s' needs a value", arg);
  if (strncmp(arg, "--", 2) == 0)
    return cli_usage_error(command, "unrecognized option '%s'", arg);
  return cli_usage_error(command, "unknown option '-%c'", optopt);
}

int cli_scene_argument(const char *command, int argc, char *const argv[],
                       const char **scene_path) {
  if (optind >= argc)
    return cli_usage_error(command, "missing SCENE argument");
  if (optind + 1 < argc)
    return cli_usage_error(command, "unexpected argument '%s'",
                           argv[optind + 1]);
  *scene_path = argv[optind];
  return CLI_CONTINUE;
}

int cli_int_option(const char *command, const char *option, const char *text,
                   long min, long max, int *value) {
  char *end;
  errno = 0;
  const long v = strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < min || v > max)
    return cli_usage_error(command, "%s: '%s' is not an integer in [%ld, %ld]",
                           option, text, min, max);
  *value = (int)v;
  return CLI_CONTINUE;
}

int cli_override_option(cli_overrides *list, const char *key,
                        const char *value) {
  if (cli_overrides_add(list, key, value)) return CLI_CONTINUE;
  cli_error("out of memory");
  return CLI_EXIT_RUNTIME;
}

static int parse_options(const cli_scene_command *command,
                         cli_scene_options *common, void *options, int argc,
                         char **argv) {
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, command->short_options,
                               command->long_options, NULL)) != -1) {
    const int code = command->apply(options, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  return cli_scene_argument(command->name, argc, argv, &common->scene_path);
}

static int load_and_run(const cli_scene_command *command,
                        const cli_scene_options *common, const void *options) {
  zeno_scene scene;
  zeno_error err;
  zeno_error_clear(&err);
  if (zeno_scene_load(common->scene_path, cli_overrides_items(&common->overrides),
                      common->overrides.count, &scene, &err) != ZENO_OK)
    return cli_library_error(&err);
  return command->run(options, &scene, &err);
}

int cli_scene_command_main(const cli_scene_command *command,
                           cli_scene_options *common, void *options, int argc,
                           char **argv) {
  int code = parse_options(command, common, options, argc, argv);
  if (code == CLI_CONTINUE) code = load_and_run(command, common, options);
  cli_overrides_free(&common->overrides);
  return code;
}

void cli_print_feasibility(const zeno_equilibrium_report *r) {
  cli_label("equilibrium (SS)");
  printf("%s, margin %.6g\n", r->feasible ? "feasible" : "infeasible",
         r->margin);
}

void cli_print_painleve(const zeno_scene *scene,
                        const zeno_equilibrium_report *r) {
  for (int i = 0; i < r->contact_count; i++) {
    char label[CLI_LABEL_WIDTH];
    snprintf(label, sizeof label, "Painleve (11) c%d", i + 1);
    cli_label(label);
    printf("mu = %.6g %s bound %.6g: %s\n", scene->contacts[i].mu,
           r->painleve_ok[i] ? "<" : ">=", r->painleve_bound[i],
           r->painleve_ok[i] ? "ok" : "violated");
  }
}

void cli_label(const char *label) {
  printf("%-*s", CLI_LABEL_WIDTH, label);
}

/// mkdir that accepts an existing directory.
static int make_one_directory(const char *path) {
  if (mkdir(path, CLI_DIRECTORY_MODE) == 0) return 0;
  if (errno != EEXIST) return -1;
  struct stat info;
  if (stat(path, &info) != 0) return -1;
  if (!S_ISDIR(info.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

int cli_make_directories(const char *path) {
  if (path[0] == '\0') {
    errno = ENOENT;
    return -1;
  }
  char *copy = strdup(path);
  if (copy == NULL) return -1;
  int result = 0;
  // Create every proper prefix ending before a '/', then the whole path.
  for (char *p = copy + 1; *p && result == 0; p++) {
    if (*p != '/' || p[-1] == '/') continue;
    *p = '\0';
    result = make_one_directory(copy);
    *p = '/';
  }
  if (result == 0) result = make_one_directory(copy);
  const int saved = errno;
  free(copy);
  errno = saved;
  return result;
}

char *cli_path_join(const char *dir, const char *name) {
  const size_t size = strlen(dir) + 1 + strlen(name) + 1;
  char *path = malloc(size);
  if (path) snprintf(path, size, "%s/%s", dir, name);
  return path;
}

/* ---- the scene of a saved run -------------------------------------------- */

/// Bytes copied per read.
#define CLI_COPY_CHUNK 4096
/// Longest override line read back.
#define CLI_OVERRIDE_LINE 4096

static int copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (in == NULL) {
    cli_error("cannot read '%s': %s", from, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  FILE *out = fopen(to, "wb");
  if (out == NULL) {
    cli_error("cannot create '%s': %s", to, strerror(errno));
    fclose(in);
    return CLI_EXIT_RUNTIME;
  }
  char buffer[CLI_COPY_CHUNK];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, in)) > 0) fwrite(buffer, 1, n, out);
  const bool read_failed = ferror(in) != 0;
  fclose(in);
  if (read_failed || ferror(out) || fclose(out) != 0) {
    cli_error("cannot copy '%s' to '%s': %s", from, to, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_EXIT_OK;
}

int cli_save_run_scene(const char *dir, const char *scene_path,
                       const cli_overrides *overrides) {
  char *scene = cli_path_join(dir, CLI_RUN_SCENE_FILE);
  char *list = cli_path_join(dir, CLI_RUN_OVERRIDES_FILE);
  int code = scene && list ? copy_file(scene_path, scene)
                           : (cli_error("out of memory"), CLI_EXIT_RUNTIME);
  if (code == CLI_EXIT_OK) {
    FILE *f = fopen(list, "w");
    for (int i = 0; f && i < overrides->count; i++) fprintf(f, "%s\n", overrides->items[i]);
    if (f == NULL || ferror(f) || fclose(f) != 0) {
      cli_error("cannot write '%s': %s", list, strerror(errno));
      code = CLI_EXIT_RUNTIME;
    }
  }
  free(scene);
  free(list);
  return code;
}

int cli_load_run_overrides(const char *dir, cli_overrides *list) {
  char *path = cli_path_join(dir, CLI_RUN_OVERRIDES_FILE);
  if (path == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    free(path);
    return CLI_CONTINUE;
  }
  char line[CLI_OVERRIDE_LINE];
  int code = CLI_EXIT_OK;
  while (code == CLI_EXIT_OK && fgets(line, sizeof line, f) != NULL) {
    line[strcspn(line, "\n")] = '\0';
    if (line[0] != '\0' && !cli_overrides_add(list, NULL, line)) {
      cli_error("out of memory");
      code = CLI_EXIT_RUNTIME;
    }
  }
  if (code == CLI_EXIT_OK && ferror(f)) {
    cli_error("cannot read '%s': %s", path, strerror(errno));
    code = CLI_EXIT_RUNTIME;
  }
  fclose(f);
  free(path);
  return code;
}
