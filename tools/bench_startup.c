// Start-up of the zeno program as a whole process (issue 14): runs
// commands as child processes many times, round robin so that the machine's
// noise falls on all of them alike, and prints the median wall time (with
// the 10th and 90th percentiles) and what the dynamic loader mapped.
//
//   bench_startup [--runs N] [ZENO...]   (default: the build's zeno)
//
// For each program:
//   /bin/true                the floor: fork, exec and libc alone
//   zeno --version           + loading zeno's libraries and their
//                            initialisers (libgomp, ...), no work
//   zeno simulate example2 --json   the acceptance command (<= 2.5 ms)
//   zeno analyze example2 --plot F  the figure path: the plot module and
//                            cairo are loaded, 6000 samples analysed
// and the objects ld.so mapped for each (LD_DEBUG=files, "generating link
// map" lines) and `ldd ZENO | wc -l`. Several ZENO programs (say an old
// build and a new one) are timed in the same rounds.
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_stats.h"

#ifndef ZENO_SCENES_DIR
#define ZENO_SCENES_DIR "scenes"
#endif
#ifndef ZENO_EXE
#define ZENO_EXE "build/zeno"
#endif

extern char **environ;

/// Runs per command (the figure command, ~30 ms each, gets a fifth).
#define DEFAULT_RUNS 400
#define FIGURE_RUNS_DIVISOR 5
/// Runs before timing (page cache, CPU frequency).
#define WARMUP_RUNS 5
#define MAX_PROGRAMS 4
#define MAX_ARGS 8
#define COMMANDS_PER_PROGRAM 3
#define MAX_COMMANDS (1 + MAX_PROGRAMS * COMMANDS_PER_PROGRAM)
#define PATH_SIZE 1024
#define LINE_SIZE 4096
#define MILLISECONDS_PER_SECOND 1e3
/// Percentiles printed besides the median.
#define LOW_PERCENTILE 0.1
#define HIGH_PERCENTILE 0.9

typedef struct command {
  const char *label;
  const char *program;  ///< the zeno it belongs to, or NULL
  char *argv[MAX_ARGS];
  long runs;
  double *seconds;  ///< one per run
  long objects;     ///< objects ld.so mapped, -1 unknown
} command;

/// Runs argv with stdin, stdout and stderr on /dev/null, or stderr into
/// err_path when not NULL; returns its exit status (-1: it did not exit).
static int run(char *const argv[], char *const envp[], const char *err_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path ? err_path : "/dev/null",
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid;
  const int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Objects the loader mapped for argv: "generating link map" lines of
/// LD_DEBUG=files (the program itself, ld.so and the vDSO are not among
/// them); -1 when the command fails.
static long count_objects(char *const argv[], const char *log_path) {
  size_t n = 0;
  while (environ[n]) n++;
  char **envp = malloc((n + 2) * sizeof *envp);
  if (envp == NULL) return -1;
  memcpy(envp, environ, n * sizeof *envp);
  envp[n] = "LD_DEBUG=files";
  envp[n + 1] = NULL;
  const int status = run(argv, envp, log_path);
  free(envp);
  if (status != 0) return -1;
  FILE *f = fopen(log_path, "r");
  if (f == NULL) return -1;
  long count = 0;
  char line[LINE_SIZE];
  while (fgets(line, sizeof line, f))
    if (strstr(line, "generating link map")) count++;
  fclose(f);
  return count;
}

/// Lines of `ldd program` (each a library, the vDSO and ld.so included).
static long ldd_lines(const char *program) {
  char cmd[PATH_SIZE + 16];
  snprintf(cmd, sizeof cmd, "ldd '%s'", program);
  FILE *p = popen(cmd, "r");
  if (p == NULL) return -1;
  long lines = 0;
  int c;
  while ((c = fgetc(p)) != EOF)
    if (c == '\n') lines++;
  return pclose(p) == 0 ? lines : -1;
}

static void print_command(command *c) {
  const size_t n = (size_t)c->runs;
  bench_sort(c->seconds, n);
  printf("  %-34s median %6.2f ms  (p10 %6.2f, p90 %6.2f; %ld runs)", c->label,
         MILLISECONDS_PER_SECOND * bench_percentile(c->seconds, n, 0.5),
         MILLISECONDS_PER_SECOND * bench_percentile(c->seconds, n, LOW_PERCENTILE),
         MILLISECONDS_PER_SECOND * bench_percentile(c->seconds, n, HIGH_PERCENTILE), c->runs);
  if (c->objects >= 0) printf("  %ld objects", c->objects);
  printf("\n");
}

static int usage(void) {
  fprintf(stderr, "usage: bench_startup [--runs N] [ZENO...]\n");
  return 2;
}

int main(int argc, char **argv) {
  long runs = DEFAULT_RUNS;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "--runs") == 0) {
    runs = strtol(argv[2], NULL, 10);
    if (runs < FIGURE_RUNS_DIVISOR) return usage();
    first = 3;
  }
  const char *programs[MAX_PROGRAMS] = {ZENO_EXE};
  int program_count = argc - first;
  if (program_count > MAX_PROGRAMS) return usage();
  for (int i = 0; i < program_count; i++) programs[i] = argv[first + i];
  if (program_count == 0) program_count = 1;

  char png[PATH_SIZE], log[PATH_SIZE];
  const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
  snprintf(png, sizeof png, "%s/bench-startup-%ld.png", tmp, (long)getpid());
  snprintf(log, sizeof log, "%s/bench-startup-%ld.log", tmp, (long)getpid());

  static command commands[MAX_COMMANDS];
  int n = 0;
  commands[n++] = (command){"/bin/true (floor)", NULL, {"/bin/true", NULL}, runs, NULL, -1};
  for (int i = 0; i < program_count; i++) {
    char *zeno = (char *)programs[i];
    commands[n++] = (command){"zeno --version", zeno, {zeno, "--version", NULL}, runs, NULL, -1};
    commands[n++] = (command){"zeno simulate example2 --json",
                              zeno,
                              {zeno, "simulate", ZENO_SCENES_DIR "/example2.yaml", "--json", NULL},
                              runs,
                              NULL,
                              -1};
    commands[n++] = (command){
        "zeno analyze example2 --plot F",
        zeno,
        {zeno, "analyze", ZENO_SCENES_DIR "/example2.yaml", "--plot", png, NULL},
        runs / FIGURE_RUNS_DIVISOR,
        NULL,
        -1};
  }
  for (int k = 0; k < n; k++) {
    commands[k].seconds = malloc((size_t)commands[k].runs * sizeof(double));
    if (commands[k].seconds == NULL) return fprintf(stderr, "bench_startup: out of memory\n"), 1;
    commands[k].objects = count_objects(commands[k].argv, log);
    for (int w = 0; w < WARMUP_RUNS; w++)
      if (run(commands[k].argv, environ, NULL) != 0) {
        fprintf(stderr, "bench_startup: '%s' failed (%s)\n", commands[k].label,
                commands[k].argv[0]);
        return 1;
      }
  }
  // Round robin: run i of every command that has an i-th run.
  for (long i = 0; i < runs; i++)
    for (int k = 0; k < n; k++) {
      if (i >= commands[k].runs) continue;
      const double start = bench_seconds();
      if (run(commands[k].argv, environ, NULL) != 0) {
        fprintf(stderr, "bench_startup: '%s' failed\n", commands[k].label);
        return 1;
      }
      commands[k].seconds[i] = bench_seconds() - start;
    }
  unlink(png);
  unlink(log);

  printf("start-up as a whole process; objects: mapped by ld.so (LD_DEBUG=files)\n");
  print_command(&commands[0]);
  for (int i = 0; i < program_count; i++) {
    printf("%s (ldd: %ld lines)\n", programs[i], ldd_lines(programs[i]));
    for (int k = 1; k < n; k++)
      if (commands[k].program == programs[i]) print_command(&commands[k]);
  }
  for (int k = 0; k < n; k++) free(commands[k].seconds);
  return 0;
}
