// Running the real `zeno` binary from the end-to-end tests (test_cli.c,
// test_plot.c, test_view.c, test_regions_cli.c, test_edge_states.c):
// argument vectors, spawning with stdin from /dev/null, the exit status and
// the captured output, temporary files and reading them back.
// Include after <cmocka.h>; needs ZENO_EXE and ZENO_SCENES_DIR.
#ifndef ZENO_TESTS_CLI_RUNNER_H
#define ZENO_TESTS_CLI_RUNNER_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef ZENO_EXE
#error "ZENO_EXE (path of the zeno binary) must be defined"
#endif
#ifndef ZENO_SCENES_DIR
#error "ZENO_SCENES_DIR must be defined"
#endif

/// Scenes both test programs run.
#define EXAMPLE2 ZENO_SCENES_DIR "/example2.yaml"
#define EXAMPLE3_ZENO ZENO_SCENES_DIR "/example3-zeno.yaml"

extern char **environ;

/// Most arguments a test passes to zeno.
#define MAX_ARGS 24
/// Room for temporary paths.
#define PATH_SIZE 1024

static inline const char *temp_dir(void) {
  const char *dir = getenv("TMPDIR");
  return dir && dir[0] ? dir : "/tmp";
}

/// The files `zeno simulate --out DIR` writes into DIR.
static const char *const SIMULATE_OUT_FILES[] = {
    "trajectory.csv", "events.jsonl",  "events.csv", "scene.yaml",
    "overrides.txt",  "digest.sha256", NULL};

/// Removes what `zeno simulate --out DIR` wrote into DIR (not DIR itself).
static inline void remove_simulate_out(const char *dir) {
  char path[2 * PATH_SIZE];
  for (const char *const *name = SIMULATE_OUT_FILES; *name; name++) {
    snprintf(path, sizeof path, "%s/%s", dir, *name);
    unlink(path);
  }
}

/// A fresh temporary directory for one test's files.
typedef struct work_dir {
  char root[PATH_SIZE / 4];
} work_dir;

/// Creates TMPDIR/zeno-TAG-XXXXXX.
static inline void work_dir_create(work_dir *w, const char *tag) {
  snprintf(w->root, sizeof w->root, "%s/zeno-%s-XXXXXX", temp_dir(), tag);
  assert_non_null(mkdtemp(w->root));
}

/// path[PATH_SIZE] = "root/name".
static inline void work_path(const work_dir *w, const char *name, char *path) {
  snprintf(path, PATH_SIZE, "%s/%s", w->root, name);
}

/// Removes the named files (NULL-terminated), the directory `sub` when not
/// NULL, then the directory itself.
static inline void work_dir_remove(const work_dir *w, const char *const *names, const char *sub) {
  char path[PATH_SIZE];
  for (; *names; names++) {
    work_path(w, *names, path);
    unlink(path);
  }
  if (sub) {
    work_path(w, sub, path);
    rmdir(path);
  }
  rmdir(w->root);
}

/// Reads a whole file into a new NUL-terminated buffer (NULL on failure),
/// its size (without the terminator) in *length when not NULL: binary
/// files too.
static inline char *read_file_bytes(const char *path, size_t *length) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t size = 0, capacity = BUFSIZ;
  char *text = malloc(capacity + 1);
  size_t got;
  while (text && (got = fread(text + size, 1, capacity - size, f)) > 0) {
    size += got;
    if (size == capacity) {
      capacity *= 2;
      char *grown = realloc(text, capacity + 1);
      if (grown == NULL) free(text);
      text = grown;
    }
  }
  fclose(f);
  if (text) text[size] = '\0';
  if (length) *length = size;
  return text;
}

/// Reads a whole text file into a new NUL-terminated buffer (NULL on
/// failure).
static inline char *read_file(const char *path) { return read_file_bytes(path, NULL); }

/// The argument vector of zeno: ZENO_EXE, then the NULL-terminated args.
static inline void zeno_argv(const char *const *args, char *argv[MAX_ARGS + 2]) {
  int n = 0;
  argv[n++] = (char *)ZENO_EXE;
  for (; args[n - 1] != NULL; n++) {
    assert_true(n <= MAX_ARGS);
    argv[n] = (char *)args[n - 1];
  }
  argv[n] = NULL;
}

/// Starts argv with stdin from in_path (/dev/null when NULL), stdout to
/// out_fd (discarded when negative) and stderr to err_fd (the test's stderr
/// when negative); returns its pid without waiting.
static inline pid_t spawn_async(char *const argv[], const char *in_path, int out_fd, int err_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, in_path ? in_path : "/dev/null",
                                   O_RDONLY, 0);
  if (out_fd >= 0) posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
  else posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  if (err_fd >= 0) posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
  pid_t pid;
  const int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  assert_int_equal(rc, 0);
  return pid;
}

/// Waits for a process; its exit status, or -1 when it did not exit.
static inline int wait_exit(pid_t pid) {
  int status;
  while (waitpid(pid, &status, 0) < 0) assert_int_equal(errno, EINTR);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs argv with stdin from /dev/null, stdout to out_fd (discarded when
/// negative) and stderr to err_fd (the test's stderr when negative); waits
/// and returns the exit status, or -1 when the process did not exit.
static inline int spawn_and_wait(char *const argv[], int out_fd, int err_fd) {
  return wait_exit(spawn_async(argv, NULL, out_fd, err_fd));
}

/// What a run of zeno gave: its exit status (-1 when it did not exit) and,
/// when captured, its stdout and stderr as new NUL-terminated strings.
typedef struct run_result {
  int exit_code;
  char *out;  ///< captured stdout, else NULL
  char *err;  ///< captured stderr, else NULL
} run_result;

static inline void run_result_free(run_result *r) {
  free(r->out);
  free(r->err);
  r->out = r->err = NULL;
}

/// Creates an empty temporary file; returns its descriptor, path in `path`.
static inline int make_temp_file(char path[PATH_SIZE]) {
  snprintf(path, PATH_SIZE, "%s/zeno-test-XXXXXX", temp_dir());
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  return fd;
}

/// Reads a temporary file back and removes it.
static inline char *take_temp_file(int fd, const char *path) {
  close(fd);
  char *text = read_file(path);
  unlink(path);
  assert_non_null(text);
  return text;
}

/// Starts two zeno runs together (NULL-terminated arguments) and waits for
/// both: their exit codes and their stderr (free() them).
static inline void run_two_at_once(const char *const *first, const char *const *second,
                                   int codes[2], char *errors[2]) {
  const char *const *args[2] = {first, second};
  char *argv[2][MAX_ARGS + 2], paths[2][PATH_SIZE];
  int fds[2];
  pid_t pids[2];
  for (int k = 0; k < 2; k++) {
    zeno_argv(args[k], argv[k]);
    fds[k] = make_temp_file(paths[k]);
  }
  for (int k = 0; k < 2; k++) pids[k] = spawn_async(argv[k], NULL, -1, fds[k]);
  for (int k = 0; k < 2; k++) {
    codes[k] = wait_exit(pids[k]);
    errors[k] = take_temp_file(fds[k], paths[k]);
  }
}

/// Runs zeno with the NULL-terminated arguments (after the program name),
/// stdin from in_path (/dev/null when NULL). With `capture` its stdout and
/// stderr are kept in the result; without, stdout is discarded and stderr
/// is the test's.
static inline run_result run_zeno_input(const char *const *args, const char *in_path,
                                        bool capture) {
  char *argv[MAX_ARGS + 2];
  zeno_argv(args, argv);
  run_result r = {-1, NULL, NULL};
  if (!capture) {
    r.exit_code = wait_exit(spawn_async(argv, in_path, -1, -1));
    return r;
  }
  char out_path[PATH_SIZE], err_path[PATH_SIZE];
  const int out_fd = make_temp_file(out_path);
  const int err_fd = make_temp_file(err_path);
  r.exit_code = wait_exit(spawn_async(argv, in_path, out_fd, err_fd));
  r.out = take_temp_file(out_fd, out_path);
  r.err = take_temp_file(err_fd, err_path);
  return r;
}

/// run_zeno_input() with stdin from /dev/null.
static inline run_result run_zeno_argv(const char *const *args, bool capture) {
  return run_zeno_input(args, NULL, capture);
}

#ifdef ZENO_MPIRUN
/// True when mpirun can start 2 processes here (no slots or no shared
/// memory: it cannot, and the test says so and skips its MPI part). Open
/// MPI refuses root without the two variables (CI runs as root in a
/// container); --oversubscribe lets 2 ranks start on any machine.
static inline bool mpi_available(void) {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  char *probe[] = {(char *)ZENO_MPIRUN, "-n", "2", "--oversubscribe", "/bin/true", NULL};
  if (spawn_and_wait(probe, -1, -1) == 0) return true;
  printf("mpirun cannot start 2 processes here: the MPI comparison is skipped\n");
  return false;
}

/// Runs `mpirun -n 2 --oversubscribe ZENO_MPI_EXE ARGS...` (NULL-terminated
/// args) and returns its exit status. Open MPI's own start-up allocations
/// outlive MPI_Finalize; under ASan (tools/sanitize) LeakSanitizer would
/// blame them on zeno-mpi, so leaks are not checked here (the serial runs
/// share all code but grid_mpi.c).
static inline int mpi_run(const char *const *args) {
  char *argv[MAX_ARGS + 6] = {(char *)ZENO_MPIRUN, "-n", "2", "--oversubscribe",
                              (char *)ZENO_MPI_EXE};
  size_t n = 5;
  for (; *args && n + 1 < sizeof argv / sizeof argv[0]; args++) argv[n++] = (char *)*args;
  argv[n] = NULL;
  const char *asan = getenv("ASAN_OPTIONS");
  char asan_saved[1024], options[1024];
  snprintf(asan_saved, sizeof asan_saved, "%s", asan ? asan : "");
  snprintf(options, sizeof options, "%s%sdetect_leaks=0", asan ? asan : "", asan ? ":" : "");
  setenv("ASAN_OPTIONS", options, 1);
  const int code = spawn_and_wait(argv, -1, -1);
  if (asan) setenv("ASAN_OPTIONS", asan_saved, 1);
  else unsetenv("ASAN_OPTIONS");
  return code;
}
#endif

/// Room for a path in a test directory (PATH_SIZE) plus a file name.
#define DIR_FILE_PATH_SIZE (PATH_SIZE + 64)

/// Reads DIR/NAME (NULL on failure).
static inline char *read_in(const char *dir, const char *name) {
  char path[DIR_FILE_PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return read_file(path);
}

/// Removes the `count` named files of a directory, then the directory.
static inline void remove_dir_files(const char *dir, const char *const *names, size_t count) {
  char path[DIR_FILE_PATH_SIZE];
  for (size_t k = 0; k < count; k++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    unlink(path);
  }
  rmdir(dir);
}

/// How long a test waits for a command to be under way before it signals
/// it [s]: far beyond a start-up, even under a sanitizer.
#define START_WAIT_SECONDS 120.0

// Whether dir holds a file whose name starts with `prefix` and that holds
// at least `bytes` bytes.
static inline bool holds_file(const char *dir, const char *prefix, long bytes) {
  DIR *d = opendir(dir);
  if (d == NULL) return false;
  bool found = false;
  for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
    if (strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
    char path[2 * PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    found = stat(path, &st) == 0 && st.st_size >= bytes;
  }
  closedir(d);
  return found;
}

// Waits until dir holds such a file (the command is under way), or fails.
static inline void wait_for_file(const char *dir, const char *prefix, long bytes) {
  const struct timespec pause = {0, 10 * 1000 * 1000};
  for (double waited = 0; !holds_file(dir, prefix, bytes); waited += 0.01) {
    if (waited > START_WAIT_SECONDS) fail_msg("no %s* of %ld bytes in %s", prefix, bytes, dir);
    nanosleep(&pause, NULL);
  }
}

// Whether process `pid` catches `signal_number` (a handler of its own in
// place): the SigCgt mask of /proc/PID/status.
static inline bool catches_signal(pid_t pid, int signal_number) {
  char path[PATH_SIZE], line[256];
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  FILE *f = fopen(path, "r");
  unsigned long long mask = 0;
  bool found = false;
  while (f && !found && fgets(line, sizeof line, f))
    found = sscanf(line, "SigCgt: %llx", &mask) == 1;
  if (f) fclose(f);
  return found && (mask >> (signal_number - 1) & 1) != 0;
}

// Waits until the command catches the signal (it asked for it, and its
// work is about to start), or fails.
static inline void wait_for_handler(pid_t pid, int signal_number) {
  const struct timespec pause = {0, 1000 * 1000};
  for (double waited = 0; !catches_signal(pid, signal_number); waited += 0.001)
    if (waited > START_WAIT_SECONDS)
      fail_msg("process %d never caught signal %d", (int)pid, signal_number);
    else nanosleep(&pause, NULL);
}

/// Lines of a text (its newlines).
static inline int count_lines(const char *text) {
  int n = 0;
  for (; *text; text++) n += *text == '\n';
  return n;
}

/// run_zeno("analyze", path, ...): the exit status alone.
#define run_zeno(...) (run_zeno_argv((const char *const[]){__VA_ARGS__, NULL}, false).exit_code)
/// The same with stdout and stderr captured (free with run_result_free()).
#define run_zeno_captured(...) run_zeno_argv((const char *const[]){__VA_ARGS__, NULL}, true)

#endif
