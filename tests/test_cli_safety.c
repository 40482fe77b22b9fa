// Nothing lost, nothing silently wrong, at the command line (issue 17's
// reproductions): a scene kept inside its own run directory, reached
// through `.` or a link, or piped on stdin survives a `simulate --out` and
// is saved whole; an empty scene, an endless or oversized input and a file
// that is no scene are refused with one line that quotes nothing of the
// file; a scene name with a terminal escape is refused; a change of units
// changes no result; `simulate --out` runs in memory that does not grow
// with the number of events.
#define _DEFAULT_SOURCE  // wait4
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "test_util.h"
#include "zeno/run_dir.h"

/// Exit status for bad input (README, "Exit status").
#define EXIT_BAD_INPUT 2
#define EXAMPLE4_NEWTON ZENO_SCENES_DIR "/example4-newton.yaml"
/// The scene size limit (ZENO_SCENE_MAX_BYTES, docs/scenes.md).
#define SCENE_MAX_BYTES 1048576
/// Example 2's mode word (the paper's Table 2).
#define EXAMPLE2_WORD "FF IF PF FI FP IF PF SF II SS"

/// Every file a test here leaves in its work directory.
static const char *const FILES[] = {"run/trajectory.csv",
                                    "run/events.jsonl",
                                    "run/events.csv",
                                    "run/scene.yaml",
                                    "run/overrides.txt",
                                    "run/digest.sha256",
                                    "original.yaml",
                                    "scene.yaml",
                                    "empty.yaml",
                                    "notes.txt",
                                    NULL};

static void cleanup(const work_dir *w) { work_dir_remove(w, FILES, "run"); }

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

/// The mode word of a `simulate --json` output (a new string).
static char *json_word(const char *json) {
  const char *p = strstr(json, "\"word\": \"");
  assert_non_null(p);
  p += strlen("\"word\": \"");
  const char *end = strchr(p, '"');
  assert_non_null(end);
  char *word = malloc((size_t)(end - p) + 1);
  assert_non_null(word);
  memcpy(word, p, (size_t)(end - p));
  word[end - p] = '\0';
  return word;
}

/// A scene run from `path` and its saved copy in `run`: both give Example
/// 2, and the copy holds exactly `text`.
static void assert_saved_example2(const work_dir *w, const char *text) {
  char saved_path[PATH_SIZE];
  work_path(w, "run/scene.yaml", saved_path);
  char *saved = read_file(saved_path);
  assert_non_null(saved);
  assert_string_equal(saved, text);
  free(saved);
  run_result again = run_zeno_captured("simulate", saved_path, "--json");
  assert_int_equal(again.exit_code, 0);
  char *word = json_word(again.out);
  assert_string_equal(word, EXAMPLE2_WORD);
  free(word);
  run_result_free(&again);
}

/// simulate `scene` --out `out` (stdin from `in`), which must succeed with
/// Example 2's word.
static void simulate_example2(const char *scene, const char *out, const char *in) {
  run_result r =
      run_zeno_input((const char *const[]){"simulate", scene, "--out", out, "--json", NULL}, in,
                     true);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  char *word = json_word(r.out);
  assert_string_equal(word, EXAMPLE2_WORD);
  free(word);
  run_result_free(&r);
}

// `cp example2.yaml run/scene.yaml && zeno simulate run/scene.yaml --out run`
// used to leave run/scene.yaml empty (the copy truncated its own source).
// The scene is read once, before anything is written: it survives, the
// same bytes, named as the run directory itself or through `run/.`.
static void scene_inside_its_run_directory(void **state) {
  (void)state;
  char *example2 = read_file(EXAMPLE2);
  assert_non_null(example2);
  work_dir w;
  work_dir_create(&w, "inside");
  char run[PATH_SIZE], scene[PATH_SIZE], dot[PATH_SIZE + 4];
  work_path(&w, "run", run);
  work_path(&w, "run/scene.yaml", scene);
  snprintf(dot, sizeof dot, "%s/.", run);
  assert_int_equal(mkdir(run, 0700), 0);
  write_file(scene, example2);
  simulate_example2(scene, run, NULL);
  assert_saved_example2(&w, example2);
  simulate_example2(scene, dot, NULL);  // `--out .` from inside the directory
  assert_saved_example2(&w, example2);
  cleanup(&w);
  free(example2);
}

// run/scene.yaml a link to the user's own scene: the run replaces the link
// by its copy and never writes through it; the user's file is untouched.
static void linked_scene_is_not_written_through(void **state) {
  (void)state;
  char *example2 = read_file(EXAMPLE2);
  assert_non_null(example2);
  work_dir w;
  work_dir_create(&w, "link");
  char run[PATH_SIZE], scene[PATH_SIZE], original[PATH_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "run/scene.yaml", scene);
  work_path(&w, "original.yaml", original);
  assert_int_equal(mkdir(run, 0700), 0);
  // The user's file holds a comment the run's copy would not have if it
  // were re-emitted rather than copied.
  char *mine = malloc(strlen(example2) + 64);
  assert_non_null(mine);
  sprintf(mine, "# my own notes\n%s", example2);
  write_file(original, mine);
  assert_int_equal(symlink(original, scene), 0);
  simulate_example2(scene, run, NULL);
  char *after = read_file(original);
  assert_non_null(after);
  assert_string_equal(after, mine);  // the target is untouched
  free(after);
  struct stat st;
  assert_int_equal(lstat(scene, &st), 0);
  assert_true(S_ISREG(st.st_mode));  // the link was replaced, not followed
  assert_saved_example2(&w, mine);
  // A link planted as another output file is replaced the same way.
  char notes[PATH_SIZE], trajectory[PATH_SIZE];
  work_path(&w, "notes.txt", notes);
  work_path(&w, "run/trajectory.csv", trajectory);
  write_file(notes, "not a trajectory\n");
  unlink(trajectory);
  assert_int_equal(symlink(notes, trajectory), 0);
  simulate_example2(scene, run, NULL);
  char *kept = read_file(notes);
  assert_string_equal(kept, "not a trajectory\n");
  free(kept);
  assert_int_equal(lstat(trajectory, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  cleanup(&w);
  free(mine);
  free(example2);
}

/// Starts a process that writes `text` into the FIFO at `path` (opening it
/// blocks until zeno opens the other end); returns its pid.
static pid_t feed_fifo(const char *path, const char *text) {
  const pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    FILE *f = fopen(path, "wb");
    const bool ok = f && fputs(text, f) >= 0 && fclose(f) == 0;
    _exit(ok ? 0 : 1);
  }
  return pid;
}

// A scene piped on stdin (/dev/stdin, a pipe that can be read only once)
// is read once, from the standard input already open (reopening
// /dev/stdin blocks on a FIFO whose writer is done): it runs, and the run
// directory keeps it whole (it used to save an empty scene.yaml).
static void piped_scene_is_saved(void **state) {
  (void)state;
  char *example2 = read_file(EXAMPLE2);
  assert_non_null(example2);
  work_dir w;
  work_dir_create(&w, "stdin");
  char run[PATH_SIZE], fifo[PATH_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "scene.yaml", fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  // "-" names the standard input too.
  const char *const names[] = {"/dev/stdin", "-"};
  for (int k = 0; k < 2; k++) {
    const pid_t writer = feed_fifo(fifo, example2);
    simulate_example2(names[k], run, fifo);
    assert_int_equal(wait_exit(writer), 0);
    assert_saved_example2(&w, example2);
  }
  cleanup(&w);
  free(example2);
}

/// Runs `simulate path` and expects a refusal: exit 2, one line naming the
/// path and holding `needle`.
static run_result expect_refused(const char *path, const char *needle) {
  run_result r = run_zeno_captured("simulate", path);
  if (r.exit_code != EXIT_BAD_INPUT) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_non_null(strstr(r.err, path));
  if (strstr(r.err, needle) == NULL) fail_msg("'%s' not in: %s", needle, r.err);
  const char *newline = strchr(r.err, '\n');
  assert_non_null(newline);
  assert_int_equal(newline[1], '\0');  // one line
  return r;
}

// An empty scene (a crash, a full disk) used to run the defaults: it is
// refused, and so is a scene of settings alone. A scene must name its body.
static void empty_scene_is_refused(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "empty");
  char empty[PATH_SIZE], settings[PATH_SIZE];
  work_path(&w, "empty.yaml", empty);
  work_path(&w, "scene.yaml", settings);
  write_file(empty, "");
  write_file(settings, "# only settings\nmodel: full\nstop: {t_end: 3}\n");
  run_result r = expect_refused(empty, "the scene is empty");
  run_result_free(&r);
  r = expect_refused(settings, "no body");
  run_result_free(&r);
  cleanup(&w);
}

// `zeno simulate /dev/zero` used to read forever: input beyond 1 MiB is
// refused after reading 1 MiB and a byte (well under a second).
static void endless_input_is_refused(void **state) {
  (void)state;
  const time_t start = time(NULL);
  run_result r = expect_refused("/dev/zero", "larger than 1048576 bytes");
  assert_true(time(NULL) - start < 30);
  run_result_free(&r);
}

// A NUL byte in a scene file: the program read the file as a C string and
// ran the text before the NUL (the defaults, exit 0) where the library's
// loader refused it. Every reader now refuses it, naming its line and
// column, from a file and from standard input alike.
static void nul_byte_is_refused(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "nul");
  char path[PATH_SIZE];
  work_path(&w, "scene.yaml", path);
  static const char text[] =
      "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, mu1: 0.75, "
      "mu2: 0.6}\n\0\nimpact: {law: newton, e: 0.9}\nmodel: full\n";
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
  fclose(f);
  run_result r = expect_refused(path, ":2:1: a NUL byte");
  run_result_free(&r);
  cleanup(&w);
}

// An output named on the command line is checked before any work: the
// scene file itself (`maps s.yaml --csv s.yaml` replaced the scene with the
// table; through a link as well) is refused with exit 2, and a figure in a
// folder that does not exist (`regions ... --plot typo/map.png` computed
// every point, then failed) with exit 1, naming the folder, at once.
static void outputs_are_checked_first(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "outputs");
  char scene[PATH_SIZE], link[PATH_SIZE], typo[PATH_SIZE];
  work_path(&w, "scene.yaml", scene);
  work_path(&w, "original.yaml", link);
  work_path(&w, "run/map.png", typo);  // no folder run/
  char *text = read_file(ZENO_SCENES_DIR "/example4.yaml");
  write_file(scene, text);
  assert_int_equal(symlink(scene, link), 0);
  for (int k = 0; k < 2; k++) {
    const char *output = k == 0 ? scene : link;
    run_result r = run_zeno_captured("maps", scene, "--csv", output);
    assert_int_equal(r.exit_code, EXIT_BAD_INPUT);
    assert_non_null(strstr(r.err, "is the scene file: it would be overwritten"));
    run_result_free(&r);
    char *after = read_file(scene);
    assert_string_equal(after, text);  // the scene as it was
    free(after);
  }
  const time_t start = time(NULL);
  run_result r = run_zeno_captured("regions", scene, "--x", "paper.mu1=0.3:0.6:200", "--y",
                                   "paper.alpha=5:10:200", "--plot", typo);
  assert_int_equal(r.exit_code, 1);
  assert_non_null(strstr(r.err, "no folder"));
  assert_true(time(NULL) - start < 30);  // the 40,000 points were not computed
  run_result_free(&r);
  r = run_zeno_captured("analyze", scene, "--graph", typo);
  assert_int_equal(r.exit_code, 1);
  run_result_free(&r);
  free(text);
  cleanup(&w);
}

// A table or a certificate named through a planted link: the link is
// replaced by the file, never written through (`maps --csv` and `certify
// --out` wrote through it into whatever it named).
static void outputs_are_not_written_through_links(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "links");
  char victim[PATH_SIZE], csv[PATH_SIZE], run_dir[PATH_SIZE], json[PATH_SIZE];
  work_path(&w, "notes.txt", victim);
  work_path(&w, "scene.yaml", csv);  // a link named like a table
  work_path(&w, "run", run_dir);
  work_path(&w, "run/events.csv", json);
  write_file(victim, "keep me\n");
  assert_int_equal(symlink(victim, csv), 0);
  assert_int_equal(run_zeno("maps", EXAMPLE2, "--samples", "16", "--csv", csv), 0);
  char *kept = read_file(victim);
  assert_string_equal(kept, "keep me\n");
  free(kept);
  struct stat st;
  assert_int_equal(lstat(csv, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(mkdir(run_dir, 0700), 0);
  char certificate[PATH_SIZE];
  work_path(&w, "run/certificate.json", certificate);
  assert_int_equal(symlink(victim, certificate), 0);
  assert_int_equal(run_zeno("certify", ZENO_SCENES_DIR "/example4.yaml", "--out", run_dir), 0);
  kept = read_file(victim);
  assert_string_equal(kept, "keep me\n");
  free(kept);
  assert_int_equal(lstat(certificate, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  unlink(certificate);
  work_path(&w, "run/v_events.csv", json);
  unlink(json);
  cleanup(&w);
}

// A file that is no scene (here the zeno program itself, binary) is
// refused by its path and position; nothing of its content is printed.
static void no_content_of_a_non_scene_is_printed(void **state) {
  (void)state;
  struct stat st;
  assert_int_equal(stat(ZENO_EXE, &st), 0);
  run_result r = run_zeno_captured("simulate", ZENO_EXE);
  assert_int_equal(r.exit_code, EXIT_BAD_INPUT);
  assert_non_null(strstr(r.err, ZENO_EXE));
  assert_null(strstr(r.err, "ELF"));
  for (const unsigned char *p = (const unsigned char *)r.err; *p; p++)
    assert_true(*p == '\n' || (*p >= 0x20 && *p < 0x7f));  // printable text only
  run_result_free(&r);

  work_dir w;
  work_dir_create(&w, "secret");
  char notes[PATH_SIZE];
  work_path(&w, "notes.txt", notes);
  write_file(notes, "hunter2-secret-token\n");
  r = expect_refused(notes, "a single value");
  assert_null(strstr(r.err, "hunter2"));
  run_result_free(&r);
  cleanup(&w);
}

// A scene name holding a terminal escape sequence is refused, not printed
// raw into the user's terminal; the message shows it as '?'.
static void escape_sequence_in_name_is_refused(void **state) {
  (void)state;
  // A raw ESC, and YAML's "\e" escape for it.
  const char *const values[] = {"name=\x1b[31mred", "name=\"\\e[31mred\""};
  for (int k = 0; k < 2; k++) {
    run_result r = run_zeno_captured("simulate", EXAMPLE2, "--set", values[k]);
    assert_int_equal(r.exit_code, EXIT_BAD_INPUT);
    assert_non_null(strstr(r.err, "--set name="));
    assert_non_null(strstr(r.err, k == 0 ? "control characters are not allowed"
                                         : "a scene name is printable text"));
    assert_null(strchr(r.err, '\x1b'));
    assert_string_equal(r.out, "");
    run_result_free(&r);
  }
}

/// The value of "key": NUMBER in a JSON text.
static double json_number(const char *json, const char *key) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *p = strstr(json, pattern);
  assert_non_null(p);
  return strtod(p + strlen(pattern), NULL);
}

/// Runs zeno with the arguments and returns its JSON output (a new string).
static char *zeno_json(const char *const *args) {
  run_result r = run_zeno_input(args, NULL, true);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  char *out = r.out;
  r.out = NULL;
  run_result_free(&r);
  return out;
}

// `zeno simulate example2.yaml --set paper.m=1e-10 --set paper.f=1e-10` (a
// change of the mass unit) ended `inconsistent`; `analyze` at 1e-9 said
// "undecided"; lengths scaled by 1e6 were refused as degenerate. Now the
// same run, the same verdict, times unchanged and lengths scaled. (A change
// of the length unit converts every length, the stop conditions' too.)
static void a_change_of_units_changes_nothing(void **state) {
  (void)state;
  char *base = zeno_json((const char *const[]){"simulate", EXAMPLE2, "--json", NULL});
  char *mass = zeno_json((const char *const[]){"simulate", EXAMPLE2, "--set", "paper.m=1e-10",
                                               "--set", "paper.f=1e-10", "--json", NULL});
  char *length = zeno_json((const char *const[]){"simulate", EXAMPLE2,
                                                 "--set",    "paper.l1=-3.5e6",
                                                 "--set",    "paper.l2=2.25e6",
                                                 "--set",    "paper.h=1.25e6",
                                                 "--set",    "paper.rho=1e6",
                                                 "--set",    "initial.qp=[1e6,1e6,0]",
                                                 "--set",    "initial.qdp=[0,0,2e3]",
                                                 "--set",    "stop.escape_radius=1e12",
                                                 "--set",    "stop.t_end=1e6",
                                                 "--json",   NULL});
  char *word = json_word(base);
  for (int k = 0; k < 2; k++) {
    const char *other = k ? length : mass;
    char *w = json_word(other);
    assert_string_equal(w, word);
    free(w);
    assert_non_null(strstr(other, "\"status\": \"rest\""));
  }
  // Times: the same for m and f x 1e-10; x 1e3 for lengths x 1e6 at speeds
  // x 1e3 (time = length / speed).
  const double t = json_number(base, "t");
  assert_true(fabs(json_number(mass, "t") - t) <= 1e-12 * t);
  assert_true(fabs(json_number(length, "t") - 1e3 * t) <= 1e-12 * 1e3 * t);
  free(word);
  free(base);
  free(mass);
  free(length);
  char *verdict = zeno_json((const char *const[]){"analyze", EXAMPLE2, "--set", "paper.m=1e-9",
                                                  "--set", "paper.f=1e-9", "--json", NULL});
  assert_non_null(strstr(verdict, "\"verdict\": \"stable\""));
  assert_int_equal((int)json_number(verdict, "theorem"), 4);
  free(verdict);
}

/// Events of the memory runs: enough for the old growth (about 150 bytes
/// per event kept) to show as megabytes.
#define FEW_EVENTS 5000
#define MANY_EVENTS 60000
/// Allowed growth of the peak resident size between them: the old 7.8 MB
/// (150 bytes x 55,000 events) fails it; buffers of stdio and the kernel's
/// accounting in pages stay far below.
#define MAX_GROWTH_KB 2048

// Peak resident size [kB] of `simulate --out` of a ball bouncing forever
// (restitution 1) for `events` events, sampled every 1000 s (a few hundred
// rows: sampling is what kept the whole history).
static long peak_kb(const work_dir *w, long events) {
  char run[PATH_SIZE], limit[64];
  work_path(w, "run", run);
  snprintf(limit, sizeof limit, "stop.max_events=%ld", events);
  char *argv[MAX_ARGS + 2];
  zeno_argv((const char *const[]){"simulate", ZENO_SCENES_DIR "/bouncing-ball.yaml", "--set",
                                  "impact.e=1", "--set", limit, "--set", "stop.t_end=1e9", "--set",
                                  "solver.sample_dt=1000", "--out", run, "--quiet", NULL},
            argv);
  const pid_t pid = spawn_async(argv, NULL, -1, -1);
  int status;
  struct rusage usage;
  assert_int_equal(wait4(pid, &status, 0, &usage), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return usage.ru_maxrss;
}

// Memory grew with the events of a run written with --out (the whole
// history was kept for sampling): now the segments since the previous
// event are kept, and twelve times the events take the same memory.
static void out_memory_does_not_grow(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "memory");
  const long few = peak_kb(&w, FEW_EVENTS);
  const long many = peak_kb(&w, MANY_EVENTS);
  cleanup(&w);
  printf("simulate --out peak memory: %ld kB at %d events, %ld kB at %d\n", few, FEW_EVENTS, many,
         MANY_EVENTS);
  assert_true(many - few < MAX_GROWTH_KB);
}

/// Bytes a file may grow to in the full-disk runs (RLIMIT_FSIZE): far
/// less than a trajectory of Example 3 sampled every 1e-3.
#define FULL_DISK_BYTES 65536
/// The files of a run folder (SIMULATE_OUT_FILES' six).
#define RUN_FILES 6

/// The six files of a run folder as they were.
typedef struct run_files {
  char *bytes[RUN_FILES];
  size_t length[RUN_FILES];
} run_files;

static void run_files_read(run_files *f, const char *run) {
  char path[2 * PATH_SIZE];
  for (int k = 0; k < RUN_FILES; k++) {
    snprintf(path, sizeof path, "%s/%s", run, SIMULATE_OUT_FILES[k]);
    f->bytes[k] = read_file_bytes(path, &f->length[k]);
    assert_non_null(f->bytes[k]);
  }
}

// Each file of the run folder is the one read before, byte for byte
// (frees what was read).
static void run_files_unchanged(run_files *f, const char *run) {
  char path[2 * PATH_SIZE];
  for (int k = 0; k < RUN_FILES; k++) {
    snprintf(path, sizeof path, "%s/%s", run, SIMULATE_OUT_FILES[k]);
    size_t n = 0;
    char *after = read_file_bytes(path, &n);
    assert_non_null(after);
    if (n != f->length[k] || memcmp(after, f->bytes[k], n) != 0)
      fail_msg("%s is not the previous run's", SIMULATE_OUT_FILES[k]);
    free(after);
    free(f->bytes[k]);
  }
}

// Runs zeno with files limited to FULL_DISK_BYTES (writes past it fail
// with EFBIG, SIGXFSZ ignored), as on a full disk.
static run_result run_on_full_disk(const char *const *args) {
  struct rlimit old, small;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small = old;
  small.rlim_cur = FULL_DISK_BYTES;
  void (*previous)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  run_result r = run_zeno_argv(args, true);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, previous);
  return r;
}

// A run that fails part way (its trajectory.csv past a full disk) leaves
// the folder's previous run whole: each of its six files byte for byte
// (the new run's scene.yaml and overrides.txt were written first and
// stayed beside the old trajectory, a mixture that replay played), nothing
// of the new run, no hidden temporary. A temporary that a killed writer
// left (".trajectory.csv.XXXXXX") is removed by the next run.
static void failed_run_leaves_the_previous_run(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "whole");
  char run[PATH_SIZE], stale[2 * PATH_SIZE];
  work_path(&w, "run", run);
  run_result first = run_zeno_argv((const char *const[]){"simulate", EXAMPLE2, "--set",
                                                         "stop.t_end=20", "--out", run, "-q", NULL},
                                   true);
  if (first.exit_code != 0) fail_msg("exit %d: %s", first.exit_code, first.err);
  run_result_free(&first);
  run_files before;
  run_files_read(&before, run);
  snprintf(stale, sizeof stale, "%s/.trajectory.csv.Ab12Cd", run);
  write_file(stale, "the start of a trajectory a killed run left\n");
  run_result second = run_on_full_disk((const char *const[]){
      "simulate", EXAMPLE3_ZENO, "--set", "solver.sample_dt=1e-3", "--out", run, "-q", NULL});
  assert_int_equal(second.exit_code, 1);
  if (strstr(second.err, "trajectory.csv") == NULL) fail_msg("no file named: %s", second.err);
  run_result_free(&second);
  run_files_unchanged(&before, run);
  DIR *d = opendir(run);
  assert_non_null(d);
  int entries = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      bool known = false;
      for (int k = 0; k < RUN_FILES; k++)
        known = known || strcmp(e->d_name, SIMULATE_OUT_FILES[k]) == 0;
      if (!known) fail_msg("'%s' left in the run folder", e->d_name);
      entries++;
    }
  closedir(d);
  assert_int_equal(entries, RUN_FILES);
  remove_simulate_out(run);
  rmdir(run);
  rmdir(w.root);
}

// A run folder's files are read only as regular files of at most
// ZENO_RUN_DIR_MAX_BYTES: a FIFO named events.jsonl blocked the reader for
// ever, trajectory.csv linked to /dev/zero grew it by 330 MB/s; each is
// refused at once, naming the file, by the library and by plot-trajectory
// (the events, optional to it, with a note; the trajectory as bad input, exit 2).
// A file larger than the limit (sparse: it takes no disk) is refused
// before a byte of it is read.
static void run_folder_reads_are_bounded(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "bounded");
  char run[PATH_SIZE], trajectory[2 * PATH_SIZE], events[2 * PATH_SIZE], figure[PATH_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "figure.png", figure);
  simulate_example2(EXAMPLE2, run, NULL);
  snprintf(trajectory, sizeof trajectory, "%s/%s", run, ZENO_RUN_DIR_TRAJECTORY);
  snprintf(events, sizeof events, "%s/%s", run, ZENO_RUN_DIR_EVENTS);
  zeno_run_dir_data data = {0};
  zeno_error err;
  // A FIFO: refused without waiting for a writer.
  assert_int_equal(unlink(events), 0);
  assert_int_equal(mkfifo(events, 0600), 0);
  assert_int_equal(zeno_run_dir_read_events(events, &data, &err), ZENO_ERR_IO);
  assert_non_null(strstr(err.message, "not a regular file"));
  const char *const plot[] = {"plot-trajectory", run, "--plot", figure, NULL};
  run_result r = run_zeno_argv(plot, true);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.err, "events.jsonl': not a regular file"));
  run_result_free(&r);
  // A link to a device without end.
  assert_int_equal(unlink(trajectory), 0);
  assert_int_equal(symlink("/dev/zero", trajectory), 0);
  assert_int_equal(zeno_run_dir_read_trajectory(trajectory, &data, &err), ZENO_ERR_IO);
  assert_non_null(strstr(err.message, "not a regular file"));
  r = run_zeno_argv(plot, true);
  assert_int_equal(r.exit_code, EXIT_BAD_INPUT);
  assert_non_null(strstr(r.err, "trajectory.csv': not a regular file"));
  run_result_free(&r);
  // A file one byte over the limit.
  assert_int_equal(unlink(trajectory), 0);
  const int fd = open(trajectory, O_WRONLY | O_CREAT | O_EXCL, 0600);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, (off_t)ZENO_RUN_DIR_MAX_BYTES + 1), 0);
  close(fd);
  assert_int_equal(zeno_run_dir_read_trajectory(trajectory, &data, &err), ZENO_ERR_RANGE);
  assert_non_null(strstr(err.message, "1073741825 bytes"));
  zeno_run_dir_data_free(&data);
  remove_simulate_out(run);
  rmdir(run);
  unlink(figure);
  rmdir(w.root);
}

/// A refusal comes at once: far within this [s] (a FIFO blocked for ever).
#define REFUSAL_SECONDS 30

// Runs args to its end within REFUSAL_SECONDS (else kills it and fails);
// its exit status, stderr in err (freed by the caller).
static int run_within(const char *const *args, char **err) {
  char *argv[MAX_ARGS + 2];
  zeno_argv(args, argv);
  char err_path[PATH_SIZE];
  const int err_fd = make_temp_file(err_path);
  const pid_t pid = spawn_async(argv, NULL, -1, err_fd);
  const struct timespec pause = {0, 10 * 1000 * 1000};
  int status = 0;
  pid_t done = 0;
  for (int k = 0; k < REFUSAL_SECONDS * 100 && (done = waitpid(pid, &status, WNOHANG)) == 0; k++)
    nanosleep(&pause, NULL);
  if (done == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    fail_msg("%s %s: still running after %d s", args[0], args[1], REFUSAL_SECONDS);
  }
  *err = take_temp_file(err_fd, err_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Every file the program reads from an output folder is a regular file or
// absent: a FIFO named sweep.journal or regions.journal (which hung the
// sweep for ever), or a run folder's scene.yaml or overrides.txt (which
// hung replay), is refused at once, naming it: exit 1, a file error.
static void output_folder_fifos_are_refused(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "fifos");
  char sweep_dir[PATH_SIZE], regions_dir[PATH_SIZE], run[PATH_SIZE], fifo[2 * PATH_SIZE];
  work_path(&w, "sweep", sweep_dir);
  work_path(&w, "regions", regions_dir);
  work_path(&w, "run", run);
  assert_int_equal(mkdir(sweep_dir, 0700), 0);
  assert_int_equal(mkdir(regions_dir, 0700), 0);
  snprintf(fifo, sizeof fifo, "%s/sweep.journal", sweep_dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  char *err = NULL;
  const char *const sweep[] = {
      "sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-2:0:3", "--y", "initial.qdp.0=0:1:3", "-q",
      "--out", sweep_dir,     NULL};
  assert_int_equal(run_within(sweep, &err), 1);
  assert_non_null(strstr(err, "sweep.journal': not a regular file"));
  free(err);
  unlink(fifo);
  snprintf(fifo, sizeof fifo, "%s/regions.journal", regions_dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  const char *const regions[] = {"regions",   ZENO_SCENES_DIR "/example6.yaml",
                                 "--x",       "com.x=-1:1:3",
                                 "--y",       "com.y=-1:1:3",
                                 "-q",        "--out",
                                 regions_dir, NULL};
  assert_int_equal(run_within(regions, &err), 1);
  assert_non_null(strstr(err, "regions.journal': not a regular file"));
  free(err);
  unlink(fifo);
  const char *const names[] = {"scene.yaml", "overrides.txt"};
  for (int k = 0; k < 2; k++) {
    simulate_example2(EXAMPLE2, run, NULL);
    snprintf(fifo, sizeof fifo, "%s/%s", run, names[k]);
    assert_int_equal(unlink(fifo), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    const char *const replay[] = {"replay", run, "--frames", "1", NULL};
    const int code = run_within(replay, &err);
    char expected[64];
    snprintf(expected, sizeof expected, "%s': not a regular file", names[k]);
    if (code != 1 || strstr(err, expected) == NULL) fail_msg("replay: exit %d: %s", code, err);
    free(err);
    unlink(fifo);
    remove_simulate_out(run);
  }
  rmdir(run);
  rmdir(sweep_dir);
  rmdir(regions_dir);
  rmdir(w.root);
}

/// The interrupted sweep's grid side: a sweep of some seconds (a fourth of
/// it under the sanitizers, which run it 20 times slower).
#define SIGNAL_SWEEP_SIDE (TEST_SANITIZED ? "100" : "400")

// A tiny solver.sample_dt: simulate --out is refused before it writes a
// sample (exit 1, one line naming solver.sample_dt and the rows it would
// take, ZENO_RUN_DIR_MAX_ROWS, the rule of zeno_run_dir_record() too), and
// the folder keeps the previous run. (It wrote 250 MB in 1.5 s up to the
// byte limit.)
static void tiny_sample_dt_is_refused(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "sample-dt");
  char run[PATH_SIZE];
  work_path(&w, "run", run);
  simulate_example2(EXAMPLE2, run, NULL);
  run_files before;
  run_files_read(&before, run);
  run_result r = run_zeno_captured("simulate", EXAMPLE3_ZENO, "--set", "solver.sample_dt=1e-12",
                                   "--out", run, "-q");
  assert_int_equal(r.exit_code, 1);
  assert_non_null(strstr(r.err, "solver.sample_dt = 1e-12 would take "));
  assert_non_null(strstr(r.err, "rows by t = "));
  assert_non_null(strstr(r.err, "more than 2097152"));
  assert_int_equal(count_lines(r.err), 1);
  run_result_free(&r);
  run_files_unchanged(&before, run);
  remove_simulate_out(run);
  rmdir(run);
  const char *const none[] = {NULL};
  work_dir_remove(&w, none, NULL);
}

// Ctrl-C stops `simulate --out` between events (exit 130): the folder
// keeps its previous run byte for byte and no temporary; SIGTERM stops a
// sweep between points (exit 143) with the finished rows journaled, and
// the same command resumes to the table of an uninterrupted sweep, byte
// for byte. (No command handled either signal: a run left 250 MB of
// hidden temporaries.)
static void signals_stop_cleanly(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "signals");
  char run[PATH_SIZE];
  work_path(&w, "run", run);
  simulate_example2(EXAMPLE2, run, NULL);
  run_files before;
  run_files_read(&before, run);
  char *argv[MAX_ARGS + 2];
  zeno_argv((const char *const[]){"simulate", EXAMPLE3_ZENO, "--set", "solver.sample_dt=1e-5",
                                  "--out", run, "-q", NULL},
            argv);
  char err_path[PATH_SIZE];
  int err_fd = make_temp_file(err_path);
  pid_t pid = spawn_async(argv, NULL, -1, err_fd);
  wait_for_file(run, ".trajectory.csv.", 1 << 20);  // samples being written
  assert_int_equal(kill(pid, SIGINT), 0);
  assert_int_equal(wait_exit(pid), 130);
  char *err = take_temp_file(err_fd, err_path);
  assert_non_null(strstr(err, "interrupted by SIGINT"));
  free(err);
  run_files_unchanged(&before, run);
  for (int k = 0; k < RUN_FILES; k++) {  // no hidden temporary ".NAME.XXXXXX" left
    char hidden[64];
    snprintf(hidden, sizeof hidden, ".%s.", SIMULATE_OUT_FILES[k]);
    assert_false(holds_file(run, hidden, 0));
  }
  remove_simulate_out(run);
  rmdir(run);
  // A sweep of some seconds, stopped once rows are journaled.
  char grid[PATH_SIZE], whole[PATH_SIZE], x_axis[64], y_axis[64];
  snprintf(x_axis, sizeof x_axis, "initial.qdp.2=-2:0:%s", SIGNAL_SWEEP_SIDE);
  snprintf(y_axis, sizeof y_axis, "initial.qdp.0=0:1:%s", SIGNAL_SWEEP_SIDE);
  work_path(&w, "grid", grid);
  work_path(&w, "whole", whole);
  const char *const sweep[] = {"sweep",     EXAMPLE3_ZENO, "--x", x_axis,  "--y", y_axis,
                               "--threads", "2",           "-q",  "--out", grid,  NULL};
  zeno_argv(sweep, argv);
  err_fd = make_temp_file(err_path);
  pid = spawn_async(argv, NULL, -1, err_fd);
  wait_for_file(grid, "sweep.journal", 64 * 1024);
  assert_int_equal(kill(pid, SIGTERM), 0);
  assert_int_equal(wait_exit(pid), 143);
  err = take_temp_file(err_fd, err_path);
  assert_non_null(strstr(err, "interrupted by SIGTERM: the rows finished are journaled"));
  free(err);
  run_result again = run_zeno_argv(sweep, true);
  assert_int_equal(again.exit_code, 0);
  run_result_free(&again);
  const char *const fresh[] = {"sweep",     EXAMPLE3_ZENO, "--x", x_axis,  "--y", y_axis,
                               "--threads", "2",           "-q",  "--out", whole, NULL};
  run_result uninterrupted = run_zeno_argv(fresh, true);
  assert_int_equal(uninterrupted.exit_code, 0);
  run_result_free(&uninterrupted);
  char a_path[2 * PATH_SIZE], b_path[2 * PATH_SIZE];
  snprintf(a_path, sizeof a_path, "%s/sweep.csv", grid);
  snprintf(b_path, sizeof b_path, "%s/sweep.csv", whole);
  size_t na = 0, nb = 0;
  char *a = read_file_bytes(a_path, &na), *b = read_file_bytes(b_path, &nb);
  assert_non_null(a);
  assert_non_null(b);
  assert_true(na == nb && memcmp(a, b, na) == 0);
  free(a);
  free(b);
  static const char *const GRID_FILES[] = {"sweep.csv", "summary.json", "sweep.journal"};
  for (int k = 0; k < 3; k++) {
    snprintf(a_path, sizeof a_path, "%s/%s", grid, GRID_FILES[k]);
    unlink(a_path);
    snprintf(b_path, sizeof b_path, "%s/%s", whole, GRID_FILES[k]);
    unlink(b_path);
  }
  rmdir(grid);
  rmdir(whole);
  rmdir(w.root);
}

/* ---- replay verifies the run folder (issue 31) ------------------------------ */

/// The run of the tampering tests: Example 2 with an override of its start
/// (so that an edited overrides.txt changes the start).
#define TAMPER_OVERRIDE "initial.qdp=[0, 0, 1.5]"

/// A run folder's file as text (a new string) and written back.
static char *tamper_read(const char *run, const char *name) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", run, name);
  char *text = read_file(path);
  if (text == NULL) fail_msg("cannot read %s", path);
  return text;
}

static void tamper_write(const char *run, const char *name, const char *text) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", run, name);
  write_file(path, text);
}

/// Start of line `n` (1-based; n <= 0 counts from the end: 0 is the last
/// line) of text, whose lines all end with '\n'.
static char *line_at(char *text, long n) {
  long lines = 0;
  for (const char *p = text; *p; p++) lines += *p == '\n';
  if (n <= 0) n += lines;
  assert_true(n >= 1 && n <= lines);
  char *p = text;
  for (long k = 1; k < n; k++) p = strchr(p, '\n') + 1;
  return p;
}

static size_t line_length(const char *line) { return strcspn(line, "\n") + 1; }

/// The number of the first line of `text` that contains `needle`.
static long line_with(const char *text, const char *needle) {
  const char *hit = strstr(text, needle);
  if (hit == NULL) fail_msg("no line with '%s'", needle);
  long n = 1;
  for (const char *p = text; p < hit; p++) n += *p == '\n';
  return n;
}

typedef enum line_edit { LINE_DROP, LINE_DUPLICATE, LINE_SWAP_WITH_NEXT } line_edit;

static void edit_line(const char *run, const char *name, long n, line_edit edit) {
  char *text = tamper_read(run, name);
  char *line = line_at(text, n);
  const size_t length = line_length(line), size = strlen(text);
  char *out = malloc(size + length + 1);
  assert_non_null(out);
  const size_t head = (size_t)(line - text);
  memcpy(out, text, head);
  size_t k = head;
  if (edit == LINE_DUPLICATE) {
    memcpy(out + k, line, length);
    k += length;
    memcpy(out + k, line, length);
    k += length;
  } else if (edit == LINE_SWAP_WITH_NEXT) {
    const char *next = line + length;
    const size_t next_length = line_length(next);
    memcpy(out + k, next, next_length);
    k += next_length;
    memcpy(out + k, line, length);
    k += length;
    line += next_length;  // what follows the pair
  }
  strcpy(out + k, line + length);
  tamper_write(run, name, out);
  free(out);
  free(text);
}

// Replaces the first `from` at or after line `n` of the file by `to`.
static void replace_text(const char *run, const char *name, long n, const char *from,
                         const char *to) {
  char *text = tamper_read(run, name);
  char *at = strstr(line_at(text, n), from);
  if (at == NULL) fail_msg("no '%s' in %s", from, name);
  const size_t size = strlen(text) - strlen(from) + strlen(to);
  char *out = malloc(size + 1);
  assert_non_null(out);
  snprintf(out, size + 1, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  tamper_write(run, name, out);
  free(out);
  free(text);
}

// Replaces the time (the first field) of the trajectory row that holds
// `needle` by `time`.
static void row_time(const char *run, const char *needle, const char *time) {
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  const long n = line_with(text, needle);
  char *line = line_at(text, n);
  char field[64];
  snprintf(field, sizeof field, "%.*s", (int)strcspn(line, ","), line);
  free(text);
  replace_text(run, ZENO_RUN_DIR_TRAJECTORY, n, field, time);
}

static void swap_scene(const char *run) {
  char *other = read_file(EXAMPLE3_ZENO);
  assert_non_null(other);
  tamper_write(run, ZENO_RUN_DIR_SCENE, other);
  free(other);
}
static void edit_overrides(const char *run) {
  replace_text(run, ZENO_RUN_DIR_OVERRIDES, 1, "1.5]", "1.25]");
}
static void cut_events(const char *run) { edit_line(run, ZENO_RUN_DIR_EVENTS, 0, LINE_DROP); }
static void cut_events_twice(const char *run) {
  cut_events(run);
  cut_events(run);
}
static void drop_event(const char *run) { edit_line(run, ZENO_RUN_DIR_EVENTS, 3, LINE_DROP); }
static void duplicate_event(const char *run) {
  edit_line(run, ZENO_RUN_DIR_EVENTS, 3, LINE_DUPLICATE);
}
static void swap_events(const char *run) {
  edit_line(run, ZENO_RUN_DIR_EVENTS, 2, LINE_SWAP_WITH_NEXT);
}
static void contact_9(const char *run) {
  replace_text(run, ZENO_RUN_DIR_EVENTS, 2, "\"contact\": 1", "\"contact\": 9");
}
static void contact_0(const char *run) {
  replace_text(run, ZENO_RUN_DIR_EVENTS, 2, "\"contact\": 1", "\"contact\": 0");
}
// Replaces the time of the event on line 3 of events.jsonl by `time`.
static void event_time(const char *run, const char *time) {
  char *text = tamper_read(run, ZENO_RUN_DIR_EVENTS);
  const char *t = strstr(line_at(text, 3), "\"t\": ");
  assert_non_null(t);
  char from[64], to[64];
  snprintf(from, sizeof from, "%.*s", (int)strcspn(t, ","), t);
  snprintf(to, sizeof to, "\"t\": %s", time);
  free(text);
  replace_text(run, ZENO_RUN_DIR_EVENTS, 3, from, to);
}
static void event_time_null(const char *run) { event_time(run, "null"); }  // the reader's NaN
static void event_time_huge(const char *run) { event_time(run, "1e999"); }
static void event_time_back(const char *run) { event_time(run, "0.5"); }
static void row_time_nan(const char *run) { row_time(run, ",sample,3\n", "nan"); }
static void row_time_inf(const char *run) { row_time(run, ",before,6\n", "inf"); }
static void row_time_moved(const char *run) { row_time(run, ",before,3\n", "15.5"); }
static void drop_sample_row(const char *run) {
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  const long n = line_with(text, ",sample,3\n") + 100;
  free(text);
  edit_line(run, ZENO_RUN_DIR_TRAJECTORY, n, LINE_DROP);
}
static void drop_before_row(const char *run) {
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  const long n = line_with(text, ",before,2\n");
  free(text);
  edit_line(run, ZENO_RUN_DIR_TRAJECTORY, n, LINE_DROP);
}
static void cut_trajectory(const char *run) {
  edit_line(run, ZENO_RUN_DIR_TRAJECTORY, 0, LINE_DROP);
}
static void row_of_no_event(const char *run) {
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  const long n = line_with(text, ",after,6\n");
  free(text);
  replace_text(run, ZENO_RUN_DIR_TRAJECTORY, n, ",after,6", ",after,60");
}
static void start_moved(const char *run) {
  // The first rows' x (the second field), both before and after START.
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  char *row = line_at(text, 2);
  char *x = strchr(row, ',') + 1;
  *x = *x == '-' ? '0' : '-';
  char *next = line_at(text, 3);
  x = strchr(next, ',') + 1;
  *x = *x == '-' ? '0' : '-';
  tamper_write(run, ZENO_RUN_DIR_TRAJECTORY, text);
  free(text);
}
static void flip_trajectory_byte(const char *run) {
  // A digit in the middle of the file (a sample row's number) made another.
  char *text = tamper_read(run, ZENO_RUN_DIR_TRAJECTORY);
  char *p = text + strlen(text) / 2;
  while (*p < '1' || *p > '8') p++;
  (*p)++;
  tamper_write(run, ZENO_RUN_DIR_TRAJECTORY, text);
  free(text);
}
static void edit_events_csv(const char *run) {
  replace_text(run, ZENO_RUN_DIR_EVENTS_CSV, 2, ",", ";");
}
static void edit_digest(const char *run) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", run, ZENO_RUN_DIR_DIGEST);
  char *text = read_file(path);
  if (text == NULL) fail_msg("no digest in %s", run);
  text[0] = text[0] == '0' ? '1' : '0';
  tamper_write(run, ZENO_RUN_DIR_DIGEST, text);
  free(text);
}
static void remove_overrides(const char *run) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", run, ZENO_RUN_DIR_OVERRIDES);
  assert_int_equal(unlink(path), 0);
}

/// One way of tampering with a run folder: the file its refusal must name,
/// and whether the folder's checks catch it without the digest (a run of an
/// older zeno has none): a sample row dropped or changed, events.csv
/// edited, are the digest's alone.
typedef struct tamper {
  const char *what;
  void (*apply)(const char *run);
  const char *names;  ///< the file the message names
  bool without_digest;
} tamper;

static const tamper TAMPERS[] = {
    {"scene.yaml swapped for Example 3's", swap_scene, "scene.yaml", true},
    {"overrides.txt edited (the start's velocity)", edit_overrides, "overrides.txt", true},
    {"overrides.txt removed", remove_overrides, "overrides.txt", true},
    {"events.jsonl cut at a line boundary", cut_events, "events.jsonl", true},
    {"events.jsonl cut by two lines", cut_events_twice, "events.jsonl", true},
    {"an event deleted", drop_event, "events.jsonl", true},
    {"an event duplicated", duplicate_event, "events.jsonl", true},
    {"two events swapped", swap_events, "events.jsonl", true},
    {"contact 9", contact_9, "events.jsonl", true},
    {"contact 0", contact_0, "events.jsonl", true},
    {"an event's time null (NaN)", event_time_null, "events.jsonl", true},
    {"an event's time 1e999 (inf)", event_time_huge, "events.jsonl", true},
    {"an event's time going back", event_time_back, "events.jsonl", true},
    {"a row's time nan", row_time_nan, "trajectory.csv", true},
    {"a row's time inf", row_time_inf, "trajectory.csv", true},
    {"an event's row moved in time", row_time_moved, "trajectory.csv", true},
    {"a sample row deleted from the middle", drop_sample_row, "trajectory.csv", false},
    {"an event's row deleted", drop_before_row, "trajectory.csv", true},
    {"trajectory.csv cut at a line boundary", cut_trajectory, "trajectory.csv", true},
    {"a row of an event that is not there", row_of_no_event, "trajectory.csv", true},
    {"the start state moved", start_moved, "trajectory.csv", true},
    {"a byte flipped in trajectory.csv", flip_trajectory_byte, "trajectory.csv", false},
    {"events.csv edited", edit_events_csv, "events.csv", false},
    {"the digest edited", edit_digest, ZENO_RUN_DIR_DIGEST, false},
};

/// Copies the files of run folder `from` (those it has) into `to`.
static void copy_run(const char *from, const char *to, bool digest) {
  char path[2 * PATH_SIZE];
  for (const char *const *name = SIMULATE_OUT_FILES; *name; name++) {
    snprintf(path, sizeof path, "%s/%s", to, *name);
    unlink(path);
    if (!digest && strcmp(*name, ZENO_RUN_DIR_DIGEST) == 0) continue;
    snprintf(path, sizeof path, "%s/%s", from, *name);
    size_t length = 0;
    char *bytes = read_file_bytes(path, &length);
    if (bytes == NULL) continue;
    snprintf(path, sizeof path, "%s/%s", to, *name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, length, f), length);
    assert_int_equal(fclose(f), 0);
    free(bytes);
  }
}

static void remove_digest(const char *run) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", run, ZENO_RUN_DIR_DIGEST);
  unlink(path);
}

static run_result replay_run(const char *run, const char *png) {
  return run_zeno_argv((const char *const[]){"replay", run, "--screenshot", png, NULL}, true);
}

/* ---- stale temporaries of single-file outputs ------------------------------ */

static void touch(const char *dir, const char *name) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "partial", 7), 7);
  close(fd);
}

static bool exists(const char *dir, const char *name) {
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return lstat(path, &st) == 0;
}

// A writer killed by SIGKILL leaves its temporary ".NAME.XXXXXX"; the next
// command writing NAME removes it: exactly the files of the writer's
// pattern for NAME, regular, this user's, that no live writer holds locked.
// A live writer's (locked), other names, other patterns and a FIFO stay.
// (Every SIGKILL left a temporary for good: 10 MB of maps samples.)
static void stale_temporaries_are_removed(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "stale");
  char csv[PATH_SIZE];
  work_path(&w, "m.csv", csv);
  char *argv[MAX_ARGS + 2];
  zeno_argv((const char *const[]){"maps", EXAMPLE4_NEWTON, "--samples", "1000000", "--threads", "1",
                                  "--csv", csv, NULL},
            argv);
  const pid_t pid = spawn_async(argv, NULL, -1, -1);
  wait_for_file(w.root, ".m.csv.", 64 * 1024);
  assert_int_equal(kill(pid, SIGKILL), 0);
  assert_int_equal(wait_exit(pid), -1);
  assert_true(holds_file(w.root, ".m.csv.", 64 * 1024));  // the killed writer's
  touch(w.root, ".m.csv.AbC123");                         // another stale one
  touch(w.root, ".m.csv.Live99");                         // a live writer's, locked below
  touch(w.root, ".m.csv.short");                          // not the pattern
  touch(w.root, ".m.csv.AbC123.bak");
  touch(w.root, "m.csv.AbC123");
  touch(w.root, ".other.csv.AbC123");  // another name's
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/.m.csv.Fifo12", w.root);
  assert_int_equal(mkfifo(path, 0600), 0);
  snprintf(path, sizeof path, "%s/.m.csv.Live99", w.root);
  const int live = open(path, O_RDONLY);
  assert_true(live >= 0);
  assert_int_equal(flock(live, LOCK_EX), 0);
  assert_int_equal(run_zeno("maps", EXAMPLE4_NEWTON, "--samples", "1000", "--csv", csv), 0);
  close(live);
  assert_true(exists(w.root, "m.csv"));
  assert_false(exists(w.root, ".m.csv.AbC123"));
  assert_false(holds_file(w.root, ".m.csv.", 64 * 1024));  // the killed writer's is gone
  const char *const kept[] = {".m.csv.Live99", ".m.csv.short",      ".m.csv.AbC123.bak",
                              "m.csv.AbC123",  ".other.csv.AbC123", ".m.csv.Fifo12"};
  for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++)
    if (!exists(w.root, kept[k])) fail_msg("%s removed", kept[k]);
  const char *const names[] = {
      "m.csv",        ".m.csv.Live99",     ".m.csv.short",  ".m.csv.AbC123.bak",
      "m.csv.AbC123", ".other.csv.AbC123", ".m.csv.Fifo12", NULL};
  work_dir_remove(&w, names, NULL);
}

/* ---- commands that compute, stopped by a signal ---------------------------- */

/// A computation of tens of seconds (Example 4 under Newton's law, a
/// million samples of the maps, a hundred thousand certificate check runs)
/// is stopped by a signal within this [s]: between samples or events.
#define SIGNAL_STOP_SECONDS (TEST_SANITIZED ? 60.0 : 10.0)

// The names and bytes of every entry of dir (sorted) and of its folders',
// one level down, to compare before and after: a file written, changed or
// left beside the others shows. Its size in *size.
static char *folder_state(const char *dir, size_t *size, int depth) {
  struct dirent **entries;
  const int n = scandir(dir, &entries, NULL, alphasort);
  assert_true(n >= 0);
  char *state = NULL;
  *size = 0;
  for (int k = 0; k < n; k++) {
    char path[2 * PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", dir, entries[k]->d_name);
    size_t length = 0;
    char *bytes = NULL;
    if (entries[k]->d_type == DT_REG) bytes = read_file_bytes(path, &length);
    else if (entries[k]->d_type == DT_DIR && depth > 0 && entries[k]->d_name[0] != '.')
      bytes = folder_state(path, &length, depth - 1);
    const size_t name = strlen(entries[k]->d_name) + 1;
    state = realloc(state, *size + name + length);
    assert_non_null(state);
    memcpy(state + *size, entries[k]->d_name, name);
    if (length > 0) memcpy(state + *size + name, bytes, length);
    *size += name + length;
    free(bytes);
    free(entries[k]);
  }
  free(entries);
  return state;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// Runs `args` in the work folder `dir`, signals it with `signal_number`
// once under way (a file `prefix`* of some bytes there when prefix is not
// NULL, else once it catches the signal), and checks: exit 128 + the signal
// within SIGNAL_STOP_SECONDS, one line on stderr saying it was
// interrupted, and the folder as it was, byte for byte (no file written or
// changed, no temporary left).
static void stop_computation(const char *dir, const char *const *args, const char *prefix,
                             int signal_number) {
  size_t before_size, after_size;
  char *before = folder_state(dir, &before_size, 1);
  char *argv[MAX_ARGS + 2];
  zeno_argv(args, argv);
  char err_path[PATH_SIZE];
  const int err_fd = make_temp_file(err_path);
  const pid_t pid = spawn_async(argv, NULL, -1, err_fd);
  if (prefix) wait_for_file(dir, prefix, 64 * 1024);  // samples being written aside
  else wait_for_handler(pid, signal_number);
  const double start = now_seconds();
  assert_int_equal(kill(pid, signal_number), 0);
  const int code = wait_exit(pid);
  const double took = now_seconds() - start;
  char *err = take_temp_file(err_fd, err_path);
  if (code != 128 + signal_number) fail_msg("%s: exit %d: %s", args[0], code, err);
  if (took > SIGNAL_STOP_SECONDS) fail_msg("%s: stopped after %.1f s", args[0], took);
  char expected[64];
  snprintf(expected, sizeof expected, "%s: interrupted by %s", args[0],
           signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  assert_non_null(strstr(err, expected));
  assert_int_equal(count_lines(err), 1);
  print_message("%s stopped by signal %d in %.3f s\n", args[0], signal_number, took);
  free(err);
  char *after = folder_state(dir, &after_size, 1);
  assert_int_equal(after_size, before_size);
  assert_memory_equal(before, after, before_size);
  free(before);
  free(after);
}

// SIGINT and SIGTERM stop `maps --csv` (the stream of samples), `analyze
// --plot --graph` and `certify --check --out --plot` while they compute:
// exit 130 or 143, the previous files as they were, no temporary. (maps
// --csv left its 10 MB temporary and died; analyze and certify ran to
// their end, tens of seconds, or died by the signal before.)
static void computing_commands_stop_on_signals(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "signals-compute");
  char csv[PATH_SIZE], maps_plot[PATH_SIZE], graph[PATH_SIZE], cert[PATH_SIZE], v_plot[PATH_SIZE];
  work_path(&w, "m.csv", csv);
  work_path(&w, "a.png", maps_plot);
  work_path(&w, "g.png", graph);
  work_path(&w, "cert", cert);
  work_path(&w, "v.png", v_plot);
  // The previous results, quickly.
  assert_int_equal(run_zeno("maps", EXAMPLE4_NEWTON, "--samples", "1000", "--csv", csv), 0);
  assert_int_equal(run_zeno("analyze", EXAMPLE4_NEWTON, "--samples", "1000", "--plot", maps_plot,
                            "--graph", graph),
                   0);
  assert_int_equal(run_zeno("certify", EXAMPLE4_NEWTON, "--out", cert, "--plot", v_plot), 0);
  const char *const maps[] = {"maps", EXAMPLE4_NEWTON, "--samples", "1000000", "--threads",
                              "1",    "--csv",         csv,         NULL};
  stop_computation(w.root, maps, ".m.csv.", SIGINT);
  const char *const analyze[] = {"analyze", EXAMPLE4_NEWTON, "--samples", "1000000", "--plot",
                                 maps_plot, "--graph",       graph,       NULL};
  stop_computation(w.root, analyze, NULL, SIGTERM);
  const char *const certify[] = {"certify", EXAMPLE4_NEWTON, "--check", "100000", "--out",
                                 cert,      "--plot",        v_plot,    NULL};
  stop_computation(w.root, certify, NULL, SIGINT);
  const char *const cert_files[] = {"certificate.json", "v_events.csv"};
  remove_dir_files(cert, cert_files, 2);
  const char *const names[] = {"m.csv", "a.png", "g.png", "v.png", NULL};
  work_dir_remove(&w, names, NULL);
}

// `zeno replay` refuses a tampered run folder (it played 16 of issue 31's
// 52 with exit 0): each of TAMPERS, with a message naming the file, in a
// new run (its digest.sha256 catches every one) and, where the folder's
// own checks can, in a run without the digest (an older zeno's). The
// untouched folder replays, with its digest and without it.
static void replay_refuses_tampered_runs(void **state) {
  (void)state;
  if (run_zeno("replay", "--help") != 0) skip();  // a build without the viewer
  work_dir w;
  work_dir_create(&w, "tamper");
  char run[PATH_SIZE], copy[PATH_SIZE], png[PATH_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "copy", copy);
  work_path(&w, "x.png", png);
  run_result r = run_zeno_argv((const char *const[]){"simulate", EXAMPLE2, "--set", TAMPER_OVERRIDE,
                                                     "--out", run, "-q", NULL},
                               true);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  run_result_free(&r);
  assert_int_equal(mkdir(copy, 0700), 0);
  for (int digest = 1; digest >= 0; digest--) {
    copy_run(run, copy, digest);
    r = replay_run(copy, png);
    if (r.exit_code != 0) fail_msg("the untouched run refused: %s", r.err);
    // Without the digest (an older zeno's run, or deleted): played, with a note.
    assert_int_equal(strstr(r.err, ZENO_RUN_DIR_DIGEST " missing") == NULL, digest);
    run_result_free(&r);
  }
  const size_t count = sizeof TAMPERS / sizeof TAMPERS[0];
  int tried = 0, accepted = 0;
  for (int digest = 1; digest >= 0; digest--)
    for (size_t k = 0; k < count; k++) {
      const tamper *t = &TAMPERS[k];
      if (!digest && !t->without_digest) continue;
      copy_run(run, copy, true);
      t->apply(copy);
      if (!digest) remove_digest(copy);
      tried++;
      r = replay_run(copy, png);
      if (r.exit_code == 0 || strstr(r.err, t->names) == NULL) {
        print_message("%s%s: exit %d, %s", t->what, digest ? "" : " (no digest)", r.exit_code,
                      r.exit_code == 0 ? "accepted\n" : r.err);
        accepted++;
      }
      run_result_free(&r);
    }
  print_message("%d tampered run folders tried, %d refused\n", tried, tried - accepted);
  assert_int_equal(accepted, 0);
  for (const char *const *name = SIMULATE_OUT_FILES; *name; name++) {
    char path[2 * PATH_SIZE];
    snprintf(path, sizeof path, "%s/%s", copy, *name);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", run, *name);
    unlink(path);
  }
  rmdir(copy);
  rmdir(run);
  unlink(png);
  rmdir(w.root);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scene_inside_its_run_directory),
      cmocka_unit_test(linked_scene_is_not_written_through),
      cmocka_unit_test(piped_scene_is_saved),
      cmocka_unit_test(empty_scene_is_refused),
      cmocka_unit_test(nul_byte_is_refused),
      cmocka_unit_test(outputs_are_checked_first),
      cmocka_unit_test(outputs_are_not_written_through_links),
      cmocka_unit_test(endless_input_is_refused),
      cmocka_unit_test(no_content_of_a_non_scene_is_printed),
      cmocka_unit_test(escape_sequence_in_name_is_refused),
      cmocka_unit_test(a_change_of_units_changes_nothing),
      cmocka_unit_test(out_memory_does_not_grow),
      cmocka_unit_test(failed_run_leaves_the_previous_run),
      cmocka_unit_test(run_folder_reads_are_bounded),
      cmocka_unit_test(output_folder_fifos_are_refused),
      cmocka_unit_test(signals_stop_cleanly),
      cmocka_unit_test(tiny_sample_dt_is_refused),
      cmocka_unit_test(computing_commands_stop_on_signals),
      cmocka_unit_test(stale_temporaries_are_removed),
      cmocka_unit_test(replay_refuses_tampered_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
