// Every command that writes, on a full disk (issue 31): a table of each
// command and output option, each run with its files limited in size
// (RLIMIT_FSIZE in the child, SIGXFSZ ignored: a write past the limit
// fails with EFBIG, as on a full disk; no root, no mount) once where the
// first byte fails and once part way through a file. Each must exit 1 with
// a line naming its output, and leave the output of the previous run (a
// file or a whole folder) byte for byte, with nothing beside it: no
// partial file, no temporary. The table is held against the programs'
// help: an output option (FILE or DIR) that a command's help lists and the
// table lacks fails the test, so that a new writer comes with its case.
// A recording stopped by Ctrl-C or SIGTERM keeps the previous file too,
// and the viewer's outputs are checked as every command's.
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"

/// The exit status of a runtime failure (README, "Exit status").
#define EXIT_RUNTIME 1
/// File sizes the full-disk runs allow [bytes]: none (the first write
/// fails) and a little, which every output of the table outgrows (checked
/// on its unlimited run), so that its writer fails part way through; a
/// third run allows all but the last byte of the output's largest file.
#define FULL_DISK_AT_START 0
#define FULL_DISK_EARLY 512
/// Most arguments of a case, most files a snapshot of a work folder holds.
#define CASE_ARGS 20
#define SNAPSHOT_FILES 32
/// Room for a command's standard error and its help.
#define TEXT_SIZE 65536

/// Stands for the output's path in a case's arguments, and for the run
/// folder that `replay` and `plot-trajectory` read.
#define OUT "@out"
#define RUN "@run"

#define EXAMPLE4 ZENO_SCENES_DIR "/example4.yaml"
#define EXAMPLE6 ZENO_SCENES_DIR "/example6.yaml"
/// Small grids: a few seconds under the sanitizers.
// On one thread: LLVM's OpenMP runtime (the clang-14 sanitizer build)
// registers itself in a 1 KiB file of /dev/shm at its first parallel region
// and dies of SIGBUS under a file size limit below that, which a full disk
// of outputs (not /dev/shm) does not impose; one thread never starts it.
#define REGIONS_GRID \
  "--x", "com.x=-2.5:2:3", "--y", "com.y=-1:2.5:3", "--mc-runs", "2", "--threads", "1", "-q"
#define SWEEP_GRID \
  "--x", "initial.qdp.2=0.5:1:3", "--y", "paper.mu1=0.2:0.5:3", "--threads", "1", "-q"
/// Recordings of a second at 10 frames per second, at the smallest size.
#define RECORDING "--record-seconds", "1", "--fps", "10", "--size", "320x320"

/// What a case needs of the build.
typedef enum need { NEED_NOTHING, NEED_VIEWER, NEED_MP4 } need;

/// One writing command and output: the output's name in the work folder
/// (a file, or a folder for --out DIR), and the arguments after the
/// program's name, NULL-terminated, OUT and RUN standing for the paths.
typedef struct fault_case {
  const char *command, *option;
  const char *output;
  need needs;
  const char *args[CASE_ARGS];
} fault_case;

// clang-format off
static const fault_case CASES[] = {
    {"simulate", "--out", "run", NEED_NOTHING,
     {"simulate", EXAMPLE2, "--out", OUT, "-q", NULL}},
    {"maps", "--csv", "maps.csv", NEED_NOTHING, {"maps", EXAMPLE2, "--csv", OUT, NULL}},
    {"maps", "--plot", "maps.png", NEED_NOTHING, {"maps", EXAMPLE2, "--plot", OUT, NULL}},
    {"maps", "--plot", "maps.svg", NEED_NOTHING, {"maps", EXAMPLE2, "--plot", OUT, NULL}},
    {"maps", "--plot", "maps.pdf", NEED_NOTHING, {"maps", EXAMPLE2, "--plot", OUT, NULL}},
    {"analyze", "--plot", "maps.png", NEED_NOTHING, {"analyze", EXAMPLE2, "--plot", OUT, NULL}},
    {"analyze", "--plot", "maps.svg", NEED_NOTHING, {"analyze", EXAMPLE2, "--plot", OUT, NULL}},
    {"analyze", "--plot", "maps.pdf", NEED_NOTHING, {"analyze", EXAMPLE2, "--plot", OUT, NULL}},
    {"analyze", "--graph", "graph.png", NEED_NOTHING, {"analyze", EXAMPLE2, "--graph", OUT, NULL}},
    {"analyze", "--graph", "graph.svg", NEED_NOTHING, {"analyze", EXAMPLE2, "--graph", OUT, NULL}},
    {"analyze", "--graph", "graph.pdf", NEED_NOTHING, {"analyze", EXAMPLE2, "--graph", OUT, NULL}},
    {"certify", "--out", "certificate", NEED_NOTHING, {"certify", EXAMPLE4, "--out", OUT, NULL}},
    {"certify", "--plot", "v.png", NEED_NOTHING, {"certify", EXAMPLE4, "--plot", OUT, NULL}},
    {"certify", "--plot", "v.svg", NEED_NOTHING, {"certify", EXAMPLE4, "--plot", OUT, NULL}},
    {"certify", "--plot", "v.pdf", NEED_NOTHING, {"certify", EXAMPLE4, "--plot", OUT, NULL}},
    {"regions", "--out", "regions", NEED_NOTHING, {"regions", EXAMPLE6, REGIONS_GRID, "--out", OUT, NULL}},
    {"regions", "--out", "regions", NEED_NOTHING,
     {"regions", EXAMPLE6, REGIONS_GRID, "--certify", "--out", OUT, NULL}},
    {"regions", "--plot", "regions.png", NEED_NOTHING, {"regions", EXAMPLE6, REGIONS_GRID, "--plot", OUT, NULL}},
    {"regions", "--plot", "regions.svg", NEED_NOTHING, {"regions", EXAMPLE6, REGIONS_GRID, "--plot", OUT, NULL}},
    {"regions", "--plot", "regions.pdf", NEED_NOTHING, {"regions", EXAMPLE6, REGIONS_GRID, "--plot", OUT, NULL}},
    {"sweep", "--out", "sweep", NEED_NOTHING, {"sweep", EXAMPLE3_ZENO, SWEEP_GRID, "--out", OUT, NULL}},
    {"sweep", "--plot", "sweep.png", NEED_NOTHING, {"sweep", EXAMPLE3_ZENO, SWEEP_GRID, "--plot", OUT, NULL}},
    {"sweep", "--plot", "sweep.svg", NEED_NOTHING, {"sweep", EXAMPLE3_ZENO, SWEEP_GRID, "--plot", OUT, NULL}},
    {"sweep", "--plot", "sweep.pdf", NEED_NOTHING, {"sweep", EXAMPLE3_ZENO, SWEEP_GRID, "--plot", OUT, NULL}},
    {"plot-trajectory", "--plot", "run.png", NEED_NOTHING, {"plot-trajectory", RUN, "--plot", OUT, NULL}},
    {"plot-trajectory", "--plot", "run.svg", NEED_NOTHING, {"plot-trajectory", RUN, "--plot", OUT, NULL}},
    {"plot-trajectory", "--plot", "run.pdf", NEED_NOTHING, {"plot-trajectory", RUN, "--plot", OUT, NULL}},
    {"view", "--screenshot", "view.png", NEED_VIEWER, {"view", EXAMPLE2, "--screenshot", OUT, NULL}},
    {"view", "--record", "view.gif", NEED_VIEWER, {"view", EXAMPLE2, "--record", OUT, RECORDING, NULL}},
    {"view", "--record", "view.mp4", NEED_MP4, {"view", EXAMPLE2, "--record", OUT, RECORDING, NULL}},
    {"replay", "--screenshot", "replay.png", NEED_VIEWER, {"replay", RUN, "--screenshot", OUT, NULL}},
    {"replay", "--record", "replay.gif", NEED_VIEWER, {"replay", RUN, "--record", OUT, RECORDING, NULL}},
    {"replay", "--record", "replay.mp4", NEED_MP4, {"replay", RUN, "--record", OUT, RECORDING, NULL}},
};
// clang-format on
#define CASE_COUNT (sizeof CASES / sizeof CASES[0])

static bool available(need needs) {
#ifndef TEST_HAVE_VIEWER
  if (needs != NEED_NOTHING) return false;
#endif
#ifndef TEST_HAVE_MP4
  if (needs == NEED_MP4) return false;
#endif
  (void)needs;
  return true;
}

/* ---- running zeno with a file size limit --------------------------------- */

/// Runs zeno with the arguments, its files limited to `limit` bytes (no
/// limit when negative), stdout discarded and stderr (a pipe, which no
/// file limit cuts) into err[TEXT_SIZE]; returns the exit status (-1 when
/// it did not exit).
static int run_limited(const char *const *args, long limit, char err[TEXT_SIZE]) {
  char *argv[MAX_ARGS + 2];
  zeno_argv(args, argv);
  int pipe_fds[2];
  assert_int_equal(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, STDIN_FILENO);
    dup2(null_fd, STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit small;
    getrlimit(RLIMIT_FSIZE, &small);
    if (limit >= 0) small.rlim_cur = (rlim_t)limit;
    if (setrlimit(RLIMIT_FSIZE, &small) != 0) _exit(127);
    execv(argv[0], argv);
    _exit(127);
  }
  close(pipe_fds[1]);
  size_t n = 0;
  for (ssize_t got; (got = read(pipe_fds[0], err + n, TEXT_SIZE - 1 - n)) != 0;) {
    if (got < 0) {
      assert_int_equal(errno, EINTR);
      continue;
    }
    n += (size_t)got;
    if (n == TEXT_SIZE - 1) break;
  }
  err[n] = '\0';
  close(pipe_fds[0]);
  return wait_exit(pid);
}

/// A case's arguments with OUT and RUN replaced by the paths.
static void case_args(const fault_case *c, const char *out, const char *run,
                      const char *args[CASE_ARGS]) {
  size_t k = 0;
  for (; c->args[k] != NULL; k++) {
    assert_true(k + 1 < CASE_ARGS);
    args[k] = strcmp(c->args[k], OUT) == 0 ? out : strcmp(c->args[k], RUN) == 0 ? run : c->args[k];
  }
  args[k] = NULL;
}

/* ---- a folder's files, byte for byte -------------------------------------- */

/// Every file of a folder and of its sub-folders, hidden ones included: its
/// path under the folder and its bytes.
typedef struct snapshot {
  size_t count;
  char *name[SNAPSHOT_FILES];
  char *bytes[SNAPSHOT_FILES];
  size_t length[SNAPSHOT_FILES];
} snapshot;

static void snapshot_add(snapshot *s, const char *root, const char *sub) {
  char dir_path[DIR_FILE_PATH_SIZE];
  snprintf(dir_path, sizeof dir_path, "%s%s%s", root, sub[0] ? "/" : "", sub);
  DIR *d = opendir(dir_path);
  assert_non_null(d);
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char name[PATH_SIZE], path[DIR_FILE_PATH_SIZE];
    snprintf(name, sizeof name, "%s%s%s", sub, sub[0] ? "/" : "", e->d_name);
    snprintf(path, sizeof path, "%s/%s", root, name);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    if (S_ISDIR(st.st_mode)) {
      snapshot_add(s, root, name);
      continue;
    }
    assert_true(s->count < SNAPSHOT_FILES);
    s->name[s->count] = strdup(name);
    s->bytes[s->count] = read_file_bytes(path, &s->length[s->count]);
    assert_non_null(s->bytes[s->count]);
    s->count++;
  }
  closedir(d);
}

static void snapshot_take(snapshot *s, const char *root) {
  memset(s, 0, sizeof *s);
  snapshot_add(s, root, "");
}

static void snapshot_free(snapshot *s) {
  for (size_t k = 0; k < s->count; k++) {
    free(s->name[k]);
    free(s->bytes[k]);
  }
  memset(s, 0, sizeof *s);
}

/// The journal of a regions or sweep folder: a rerun of the same grid
/// resumes from it and appends nothing.
#define JOURNAL_SUFFIX ".journal"

/// The largest file of a snapshot that a rerun writes again (its journal
/// aside) [bytes].
static size_t snapshot_largest(const snapshot *s) {
  size_t most = 0;
  for (size_t k = 0; k < s->count; k++) {
    const size_t n = strlen(s->name[k]);
    const bool journal = n >= strlen(JOURNAL_SUFFIX) &&
                         strcmp(s->name[k] + n - strlen(JOURNAL_SUFFIX), JOURNAL_SUFFIX) == 0;
    if (!journal && s->length[k] > most) most = s->length[k];
  }
  return most;
}

// Whether the folder holds what `before` held, each file byte for byte, and
// nothing more (no partial file, no temporary); else says what differs,
// for `what`, the run.
static bool snapshot_unchanged(const snapshot *before, const char *root, const char *what) {
  snapshot after;
  snapshot_take(&after, root);
  bool same = after.count == before->count;
  if (!same) printf("%s: %zu files where there were %zu\n", what, after.count, before->count);
  for (size_t k = 0; k < after.count; k++) {
    size_t j = 0;
    while (j < before->count && strcmp(before->name[j], after.name[k]) != 0) j++;
    if (j == before->count) {
      printf("%s: '%s' was left behind\n", what, after.name[k]);
      same = false;
    } else if (after.length[k] != before->length[j] ||
               memcmp(after.bytes[k], before->bytes[j], after.length[k]) != 0) {
      printf("%s: '%s' is not the previous file (%zu bytes, was %zu)\n", what, after.name[k],
             after.length[k], before->length[j]);
      same = false;
    }
  }
  snapshot_free(&after);
  return same;
}

// Removes a folder and everything in it (two levels: --out folders hold
// files only).
static void remove_tree(const char *root) {
  DIR *d = opendir(root);
  if (d == NULL) return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    char path[DIR_FILE_PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", root, e->d_name);
    if (unlink(path) != 0) remove_tree(path);
  }
  closedir(d);
  rmdir(root);
}

/* ---- the table ------------------------------------------------------------ */

/// The run folder `replay` and `plot-trajectory` read: Example 2's.
static void make_run(const work_dir *w, char run[PATH_SIZE]) {
  work_path(w, "input-run", run);
  char err[TEXT_SIZE];
  const char *const args[] = {"simulate", EXAMPLE2, "--out", run, "-q", NULL};
  const int code = run_limited(args, -1, err);
  if (code != 0) fail_msg("simulate --out: exit %d: %s", code, err);
}

// One case: a run without a limit writes the previous output; the
// full-disk runs, where the first byte fails, where an early one does, and
// where only the last byte of the largest file does (every smaller file of
// a folder is written whole, a late error of a buffered writer), must each
// exit 1 with a line naming the output and leave the previous output
// whole. False (with what went wrong on stdout) when one does not.
static bool check_case(const fault_case *c, const char *run) {
  work_dir w;
  work_dir_create(&w, "faults");
  char out[PATH_SIZE], err[TEXT_SIZE];
  work_path(&w, c->output, out);
  const char *args[CASE_ARGS];
  case_args(c, out, run, args);
  int code = run_limited(args, -1, err);
  if (code != 0) fail_msg("%s %s %s: exit %d: %s", c->command, c->option, c->output, code, err);
  snapshot before;
  snapshot_take(&before, w.root);
  const size_t largest = snapshot_largest(&before);
  if (largest <= FULL_DISK_EARLY)
    fail_msg("%s %s %s: no file larger than %d bytes", c->command, c->option, c->output,
             FULL_DISK_EARLY);
  const long limits[] = {FULL_DISK_AT_START, FULL_DISK_EARLY, (long)largest - 1};
  bool held = true;
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; k++) {
    char what[PATH_SIZE];
    snprintf(what, sizeof what, "%s %s %s, files limited to %ld bytes", c->command, c->option,
             c->output, limits[k]);
    code = run_limited(args, limits[k], err);
    if (code != EXIT_RUNTIME) {
      printf("%s: exit %d, not 1: %s\n", what, code, err);
      held = false;
    } else if (strstr(err, out) == NULL || strstr(err, "cannot") == NULL) {
      printf("%s: the message names no output: %s\n", what, err);
      held = false;
    }
    held = snapshot_unchanged(&before, w.root, what) && held;
  }
  if (held)
    printf("%-16s %-12s %-12s exit 1 at 0, %d and %zu bytes, previous output whole\n", c->command,
           c->option, c->output, FULL_DISK_EARLY, largest - 1);
  snapshot_free(&before);
  remove_tree(w.root);
  return held;
}

static void full_disk_leaves_previous_outputs(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "faults-run");
  char run[PATH_SIZE];
  make_run(&w, run);
  size_t tried = 0, held = 0;
  for (size_t k = 0; k < CASE_COUNT; k++) {
    if (!available(CASES[k].needs)) {
      printf("%s %s %s: not in this build, skipped\n", CASES[k].command, CASES[k].option,
             CASES[k].output);
      continue;
    }
    tried++;
    held += check_case(&CASES[k], run);
  }
  remove_tree(w.root);
  printf("full disk: %zu of %zu cases held\n", held, tried);
  assert_int_equal(held, tried);
}

/* ---- the table against the help ------------------------------------------- */

// A command's help (`zeno COMMAND --help`, or `zeno --help` for NULL) into
// text[TEXT_SIZE].
static void help_of(const char *command, char text[TEXT_SIZE]) {
  run_result r = command ? run_zeno_captured(command, "--help") : run_zeno_captured("--help");
  assert_int_equal(r.exit_code, 0);
  assert_true(strlen(r.out) < TEXT_SIZE);
  strcpy(text, r.out);
  run_result_free(&r);
}

static bool in_table(const char *command, const char *option) {
  for (size_t k = 0; k < CASE_COUNT; k++)
    if (strcmp(CASES[k].command, command) == 0 && strcmp(CASES[k].option, option) == 0) return true;
  return false;
}

// The output options of a command's help: the option lines ("  -p, --plot
// FILE", "      --out DIR") whose value is a FILE or a DIR. Each must be in
// the table; returns how many there are.
static int check_help_outputs(const char *command) {
  char help[TEXT_SIZE];
  help_of(command, help);
  int outputs = 0;
  for (char *line = strtok(help, "\n"); line != NULL; line = strtok(NULL, "\n")) {
    const char *p = line + strspn(line, " ");
    if (p == line || strncmp(p, "-", 1) != 0) continue;  // not an option line
    if (p[1] != '-') p += strcspn(p, " ");               // "-p, " before "--plot"
    p += strspn(p, ", ");
    char option[64] = "", value[64] = "";
    if (sscanf(p, "%63s %63s", option, value) != 2 || strncmp(option, "--", 2) != 0) continue;
    if (strcmp(value, "FILE") != 0 && strcmp(value, "DIR") != 0) continue;
    if (!in_table(command, option))
      fail_msg("'zeno %s --help' lists the output %s %s, which the full-disk table lacks", command,
               option, value);
    outputs++;
  }
  return outputs;
}

// Every output option of every command the program lists is in the table,
// and every row of the table is an option its command lists.
static void table_covers_every_output(void **state) {
  (void)state;
  char help[TEXT_SIZE];
  help_of(NULL, help);
  char *commands = strstr(help, "Commands:\n");
  assert_non_null(commands);
  commands += strlen("Commands:\n");
  char *end = strstr(commands, "\n\n");
  assert_non_null(end);
  *end = '\0';
  int listed = 0, writing = 0;
  char *names[MAX_ARGS];
  for (char *line = strtok(commands, "\n"); line != NULL; line = strtok(NULL, "\n")) {
    assert_true(listed < MAX_ARGS);
    names[listed++] = line;
  }
  for (int k = 0; k < listed; k++) {
    char command[64];
    assert_int_equal(sscanf(names[k], "%63s", command), 1);
    const int outputs = check_help_outputs(command);
    writing += outputs > 0;
  }
  for (size_t k = 0; k < CASE_COUNT; k++) {
    char command_help[TEXT_SIZE], needle[128];
    help_of(CASES[k].command, command_help);
    snprintf(needle, sizeof needle, "%s ", CASES[k].option);
    if (strstr(command_help, needle) == NULL)
      fail_msg("the table's %s %s is not in its help", CASES[k].command, CASES[k].option);
  }
  printf("%d commands, %d of them writing; %zu cases in the table\n", listed, writing, CASE_COUNT);
  assert_true(writing > 0);
}

/* ---- a recording stopped by a signal ------------------------------------- */

/// A recording far longer than the test: stopped part way.
#define LONG_RECORDING "600"

// `view --record NAME` stopped by `signal_number` once its file aside has
// grown: exit 128 + the signal, the previous NAME whole, no temporary.
static void stop_recording(const char *name, int signal_number) {
  work_dir w;
  work_dir_create(&w, "faults-stop");
  char out[PATH_SIZE], err[TEXT_SIZE], hidden[PATH_SIZE];
  work_path(&w, name, out);
  const char *const first[] = {"view", EXAMPLE2, "--record", out, RECORDING, NULL};
  int code = run_limited(first, -1, err);
  if (code != 0) fail_msg("%s: exit %d: %s", name, code, err);
  snapshot before;
  snapshot_take(&before, w.root);
  char *argv[MAX_ARGS + 2];
  zeno_argv((const char *const[]){"view", EXAMPLE2, "--record", out, "--record-seconds",
                                  LONG_RECORDING, NULL},
            argv);
  char err_path[PATH_SIZE];
  const int err_fd = make_temp_file(err_path);
  const pid_t pid = spawn_async(argv, NULL, -1, err_fd);
  snprintf(hidden, sizeof hidden, ".%s.", name);
  wait_for_file(w.root, hidden, 1);  // frames being written aside
  assert_int_equal(kill(pid, signal_number), 0);
  code = wait_exit(pid);
  char *text = take_temp_file(err_fd, err_path);
  if (code != 128 + signal_number) fail_msg("%s: exit %d: %s", name, code, text);
  assert_non_null(strstr(text, signal_number == SIGINT ? "interrupted by SIGINT"
                                                       : "interrupted by SIGTERM"));
  free(text);
  assert_true(snapshot_unchanged(&before, w.root, name));
  snapshot_free(&before);
  remove_tree(w.root);
}

// Ctrl-C or SIGTERM during a recording drops it: the previous GIF or MP4
// stays as it was (a failed recording deleted it, an interrupted MP4 was
// left without its index, undecodable), and no temporary is left.
static void stopped_recording_keeps_the_previous_file(void **state) {
  (void)state;
  if (!available(NEED_VIEWER)) {
    printf("no viewer in this build: skipped\n");
    return;
  }
  stop_recording("stopped.gif", SIGINT);
  if (available(NEED_MP4)) stop_recording("stopped.mp4", SIGTERM);
}

/* ---- the viewer's outputs checked ----------------------------------------- */

// The viewer's outputs as every command's: a link is replaced, never
// written through (a screenshot and a GIF wrote into what it named); a FIFO
// of the name is refused at once (a GIF blocked on it for ever); `replay`
// checks the folder of its output before it reads the run (it read and
// verified the run first).
static void viewer_outputs_are_checked(void **state) {
  (void)state;
  if (!available(NEED_VIEWER)) {
    printf("no viewer in this build: skipped\n");
    return;
  }
  work_dir w;
  work_dir_create(&w, "faults-viewer");
  char victim[PATH_SIZE], png[PATH_SIZE], gif[PATH_SIZE], fifo[PATH_SIZE], typo[PATH_SIZE];
  char missing_run[PATH_SIZE], err[TEXT_SIZE];
  work_path(&w, "victim.txt", victim);
  work_path(&w, "link.png", png);
  work_path(&w, "link.gif", gif);
  work_path(&w, "fifo.gif", fifo);
  work_path(&w, "typo/shot.png", typo);
  work_path(&w, "no-run", missing_run);
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("keep me\n", f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(symlink(victim, png), 0);
  assert_int_equal(symlink(victim, gif), 0);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  const char *const shot[] = {"view", EXAMPLE2, "--screenshot", png, NULL};
  const char *const record[] = {"view", EXAMPLE2, "--record", gif, RECORDING, NULL};
  for (int k = 0; k < 2; k++) {
    const int code = run_limited(k == 0 ? shot : record, -1, err);
    if (code != 0) fail_msg("exit %d: %s", code, err);
    struct stat st;
    assert_int_equal(lstat(k == 0 ? png : gif, &st), 0);
    assert_true(S_ISREG(st.st_mode));
  }
  char *kept = read_file(victim);
  assert_string_equal(kept, "keep me\n");
  free(kept);
  const char *const into_fifo[] = {"view", EXAMPLE2, "--record", fifo, RECORDING, NULL};
  assert_int_equal(run_limited(into_fifo, -1, err), EXIT_RUNTIME);
  assert_non_null(strstr(err, "not a regular file"));
  struct stat st;
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  const char *const replay[] = {"replay", missing_run, "--screenshot", typo, NULL};
  assert_int_equal(run_limited(replay, -1, err), EXIT_RUNTIME);
  assert_non_null(strstr(err, "no folder"));
  const char *const names[] = {"victim.txt", "link.png", "link.gif", "fifo.gif", NULL};
  work_dir_remove(&w, names, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table_covers_every_output),
      cmocka_unit_test(full_disk_leaves_previous_outputs),
      cmocka_unit_test(stopped_recording_keeps_the_previous_file),
      cmocka_unit_test(viewer_outputs_are_checked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
