// What the commands tell the user beside their results (issue 32): a
// "zeno: wrote FILE" line for every file a command writes, a note for an
// option that has no effect, a progress line for every long phase, and
// the refusal of a used --out folder that names --overwrite (and what
// --overwrite replaces). Runs the real binary.
#define _GNU_SOURCE  // posix_openpt(), ptsname()
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_runner.h"

#define EXAMPLE4 ZENO_SCENES_DIR "/example4.yaml"
#define EXAMPLE7 ZENO_SCENES_DIR "/example7.yaml"

/// Room for the expected standard error of one run.
#define EXPECTED_SIZE (8 * PATH_SIZE)

static void assert_contains(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL)
    fail_msg("'%s' not found in:\n%s", part, text ? text : "(null)");
}

/// Appends "zeno: wrote PATH\n" (PATH = dir/name, or name alone when dir
/// is NULL) to `expected`.
static void expect_wrote(char *expected, const char *dir, const char *name) {
  const size_t used = strlen(expected);
  if (dir) snprintf(expected + used, EXPECTED_SIZE - used, "zeno: wrote %s/%s\n", dir, name);
  else snprintf(expected + used, EXPECTED_SIZE - used, "zeno: wrote %s\n", name);
}

/// Runs zeno (NULL-terminated arguments): exit 0, and standard error is
/// exactly `expected`.
static void assert_run_says(const char *const *args, const char *expected) {
  run_result r = run_zeno_argv(args, true);
  if (r.exit_code != 0 || strcmp(r.err, expected) != 0)
    fail_msg("%s: exit %d, stderr:\n%s\nexpected:\n%s", args[0], r.exit_code, r.err, expected);
  run_result_free(&r);
}

/* ---- "zeno: wrote FILE" ---------------------------------------------------- */

// Every file every command writes is named once on standard error, in the
// order written; a folder's files one line each. Standard output ("-") is
// no file; --quiet says nothing.
static void every_file_is_named(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "wrote");
  char run[PATH_SIZE], csv[PATH_SIZE], maps[PATH_SIZE], graph[PATH_SIZE], trajectory[PATH_SIZE];
  char regions[PATH_SIZE], map[PATH_SIZE], sweep[PATH_SIZE], outcomes[PATH_SIZE];
  char expected[EXPECTED_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "maps.csv", csv);
  work_path(&w, "maps.svg", maps);
  work_path(&w, "graph.svg", graph);
  work_path(&w, "trajectory.svg", trajectory);
  work_path(&w, "regions", regions);
  work_path(&w, "regions.svg", map);
  work_path(&w, "sweep", sweep);
  work_path(&w, "sweep.svg", outcomes);

  expected[0] = '\0';
  for (const char *const *name = SIMULATE_OUT_FILES; *name; name++)
    expect_wrote(expected, run, *name);
  assert_run_says((const char *const[]){"simulate", EXAMPLE2, "--out", run, NULL}, expected);
  assert_run_says((const char *const[]){"simulate", EXAMPLE2, "--out", run, "--quiet", NULL}, "");

  expected[0] = '\0';
  expect_wrote(expected, NULL, trajectory);
  assert_run_says((const char *const[]){"plot-trajectory", run, "--plot", trajectory, NULL},
                  expected);

  expected[0] = '\0';
  expect_wrote(expected, NULL, csv);
  expect_wrote(expected, NULL, maps);
  assert_run_says((const char *const[]){"maps", EXAMPLE2, "--samples", "64", "--csv", csv, "--plot",
                                        maps, NULL},
                  expected);
  // The table alone is written as its samples come: named all the same.
  expected[0] = '\0';
  expect_wrote(expected, NULL, csv);
  assert_run_says((const char *const[]){"maps", EXAMPLE2, "--samples", "64", "--csv", csv, NULL},
                  expected);
  assert_run_says((const char *const[]){"maps", EXAMPLE2, "--samples", "64", "--csv", "-", NULL},
                  "");

  expected[0] = '\0';
  expect_wrote(expected, NULL, maps);
  expect_wrote(expected, NULL, graph);
  assert_run_says((const char *const[]){"analyze", EXAMPLE2, "--samples", "64", "--plot", maps,
                                        "--graph", graph, NULL},
                  expected);

  expected[0] = '\0';
  expect_wrote(expected, regions, "regions.csv");
  expect_wrote(expected, regions, "summary.json");
  expect_wrote(expected, NULL, map);
  assert_run_says((const char *const[]){"regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:3", "--y",
                                        "paper.alpha=0:40:3", "--samples", "64", "--out", regions,
                                        "--plot", map, "--json", NULL},
                  expected);

  expected[0] = '\0';
  expect_wrote(expected, sweep, "sweep.csv");
  expect_wrote(expected, sweep, "summary.json");
  expect_wrote(expected, NULL, outcomes);
  assert_run_says((const char *const[]){"sweep", EXAMPLE2, "--x", "initial.qdp.2=-1:1:3", "--y",
                                        "initial.qdp.1=-1:-0.05:3", "--out", sweep, "--plot",
                                        outcomes, "--json", NULL},
                  expected);

  remove_simulate_out(run);
  rmdir(run);
  const char *const grid_files[] = {"regions.csv", "summary.json", "regions.journal"};
  remove_dir_files(regions, grid_files, 3);
  const char *const sweep_files[] = {"sweep.csv", "summary.json", "sweep.journal"};
  remove_dir_files(sweep, sweep_files, 3);
  work_dir_remove(&w,
                  (const char *const[]){"maps.csv", "maps.svg", "graph.svg", "trajectory.svg",
                                        "regions.svg", "sweep.svg", NULL},
                  NULL);
}

// A batch draws one figure per map, each named; certify's folder and
// figure; the viewer's screenshot.
static void batch_certify_and_screenshot_files(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "wrote-more");
  char map[PATH_SIZE], out[PATH_SIZE], figure[PATH_SIZE], expected[EXPECTED_SIZE];
  work_path(&w, "map.svg", map);
  expected[0] = '\0';
  for (int iz = 0; iz < 2; iz++) {
    char name[PATH_SIZE];
    snprintf(name, sizeof name, "%s/map-z%d.svg", w.root, iz);
    expect_wrote(expected, NULL, name);
  }
  assert_run_says((const char *const[]){"regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:2", "--y",
                                        "paper.alpha=0:40:2", "--z", "paper.mu1=0.3:0.4:2",
                                        "--samples", "64", "--plot", map, NULL},
                  expected);
  // --quiet: no line, the figures all the same.
  assert_run_says((const char *const[]){"regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:2", "--y",
                                        "paper.alpha=0:40:2", "--z", "paper.mu1=0.3:0.4:2",
                                        "--samples", "64", "--plot", map, "--quiet", NULL},
                  "");

  work_path(&w, "certificate", out);
  work_path(&w, "v.svg", figure);
  expected[0] = '\0';
  expect_wrote(expected, out, "v_events.csv");
  expect_wrote(expected, out, "certificate.json");
  expect_wrote(expected, NULL, figure);
  assert_run_says((const char *const[]){"certify", EXAMPLE4, "--out", out, "--plot", figure, NULL},
                  expected);
  const char *const certificate_files[] = {"v_events.csv", "certificate.json"};
  remove_dir_files(out, certificate_files, 2);
#ifdef TEST_HAVE_VIEWER
  char png[PATH_SIZE];
  work_path(&w, "frame.png", png);
  expected[0] = '\0';
  expect_wrote(expected, NULL, png);
  assert_run_says((const char *const[]){"view", EXAMPLE2, "--screenshot", png, NULL}, expected);
#endif
  work_dir_remove(&w, (const char *const[]){"map-z0.svg", "map-z1.svg", "v.svg", "frame.png", NULL},
                  NULL);
}

/* ---- notes for options without effect -------------------------------------- */

/// Runs zeno: exit 0 and standard error holds `note`, or (note NULL) is
/// empty.
static void assert_note(const char *const *args, const char *note) {
  run_result r = run_zeno_argv(args, true);
  if (r.exit_code != 0) fail_msg("%s: exit %d: %s", args[0], r.exit_code, r.err);
  if (note == NULL && r.err[0] != '\0') fail_msg("%s: unexpected stderr:\n%s", args[0], r.err);
  if (note != NULL) {
    assert_contains(r.err, note);
    assert_int_equal(count_lines(r.err), 1);  // the note alone, one line
  }
  run_result_free(&r);
}

// An option the run cannot use is noted (stderr, exit 0), naming it as
// typed and why: --eps outside the full model or with a start it does not
// scale (epsilon scales q' = (qp, qdp) only, docs/model.md), and the same
// in `view`; Monte-Carlo options without runs.
static void options_without_effect_are_noted(void **state) {
  (void)state;
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--eps", "1e-3", NULL},
              "zeno: note: --eps 1e-3 has no effect: the model is 'zod' (epsilon scales the "
              "full model's start; add --model full)\n");
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--eps", "1e-3", "--json", NULL},
              "zeno: note: --eps 1e-3 has no effect: the model is 'zod'");
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--eps", "1e-3", "--quiet", NULL}, NULL);
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--model", "full", "--eps", "0.01", NULL},
              NULL);
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--model", "full", "--set",
                                    "initial={pose: [0, 0.001, 0]}", "--eps", "0.01", NULL},
              "zeno: note: --eps 0.01 has no effect: the run starts from initial.pose and "
              "initial.velocity, which epsilon does not scale (it scales qp and qdp)\n");
  // --set model=full before --eps: the scene as loaded decides.
  assert_note((const char *const[]){"simulate", EXAMPLE2, "--set", "model=full", "--eps", "0.01",
                                    NULL},
              NULL);
  assert_note((const char *const[]){"regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:2", "--y",
                                    "paper.alpha=0:40:2", "--samples", "64", "--mc-runs", "0",
                                    "--mc-seed", "7", "--mc-full", NULL},
              "zeno: note: --mc-seed 7 and --mc-full have no effect: --mc-runs 0 runs no "
              "perturbations\n");
  assert_note((const char *const[]){"regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:2", "--y",
                                    "paper.alpha=0:40:2", "--samples", "64", "--mc-runs", "0",
                                    "--mc-full", NULL},
              "zeno: note: --mc-full has no effect: --mc-runs 0 runs no perturbations\n");
  work_dir w;
  work_dir_create(&w, "notes");
  char png[PATH_SIZE], svg[PATH_SIZE];
  work_path(&w, "frame.png", png);
  work_path(&w, "v.svg", svg);
  // A refused certificate has nothing to draw: said, not silently skipped.
  run_result r = run_zeno_captured("certify", EXAMPLE7, "--set", "paper.mu2=0", "--plot", svg);
  assert_int_equal(r.exit_code, 0);
  char note[2 * PATH_SIZE];
  snprintf(note, sizeof note,
           "zeno: note: --plot: a refused certificate has no V1 and V2 to draw; '%s' not "
           "written\n",
           svg);
  assert_contains(r.err, note);  // after the scene's warning (no equilibrium)
  assert_int_equal(count_lines(r.err), 2);
  run_result_free(&r);
  assert_int_equal(access(svg, F_OK), -1);
#ifdef TEST_HAVE_VIEWER
  char said[2 * PATH_SIZE];
  snprintf(said, sizeof said, "zeno: wrote %s\n", png);
  const char *const view_cases[][3] = {
      {"--eps", "1e-3", "zeno: note: --eps 1e-3 has no effect: the model is 'zod'"},
      {"--frames", "5",
       "zeno: note: --frames 5 has no effect: it counts the window's frames, and --screenshot "
       "opens no window\n"},
      {"--keys", "z",
       "zeno: note: --keys z has no effect: it presses keys in the window, and "
       "--screenshot opens no window\n"},
      {"--at", "2", "zeno: note: --at 2 has no effect: --at-event 1 chooses the time\n"},
  };
  for (size_t k = 0; k < sizeof view_cases / sizeof *view_cases; k++) {
    r = run_zeno_captured("view", EXAMPLE2, "--screenshot", png, "--at-event", "1",
                          view_cases[k][0], view_cases[k][1]);
    assert_int_equal(r.exit_code, 0);
    assert_contains(r.err, view_cases[k][2]);
    assert_contains(r.err, said);
    assert_int_equal(count_lines(r.err), 2);
    run_result_free(&r);
  }
#endif
  work_dir_remove(&w, (const char *const[]){"frame.png", "v.svg", NULL}, NULL);
}

/* ---- progress lines --------------------------------------------------------- */

/// Runs zeno (NULL-terminated arguments) with standard error on a
/// pseudo-terminal (progress lines are drawn on a terminal only) and
/// standard output into a file: what each received, and the exit status.
static run_result run_on_terminal(const char *const *args) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  assert_true(master >= 0);
  assert_int_equal(grantpt(master), 0);
  assert_int_equal(unlockpt(master), 0);
  const int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  assert_true(slave >= 0);
  char out_path[PATH_SIZE], *argv[MAX_ARGS + 2];
  const int out_fd = make_temp_file(out_path);
  zeno_argv(args, argv);
  const pid_t pid = spawn_async(argv, NULL, out_fd, slave);
  close(slave);
  size_t size = 0, capacity = BUFSIZ;
  char *text = malloc(capacity + 1);
  ssize_t got;
  // Read until the terminal closes (EIO once the program has exited).
  while (text && (got = read(master, text + size, capacity - size)) > 0) {
    size += (size_t)got;
    if (size == capacity) text = realloc(text, (capacity *= 2) + 1);
  }
  assert_non_null(text);
  text[size] = '\0';
  close(master);
  run_result r = {wait_exit(pid), take_temp_file(out_fd, out_path), text};
  return r;
}

// regions --certify: after the map's points, the certificates have a
// progress line of their own in the same style (done/total, percent,
// rate, time left), ending at every undecided point certified (Example 7,
// 8 x 8: the map's region-7 points, as summary counts them); --quiet draws
// neither line. (The certificates ran in silence after "100%, 0s left".)
static void certificates_have_progress(void **state) {
  (void)state;
  const char *const args[] = {"regions",           EXAMPLE7, "--x",
                              "paper.mu2=0:1.3:8", "--y",    "paper.alpha=0:40:8",
                              "--certify",         "--json", NULL};
  run_result r = run_on_terminal(args);
  assert_int_equal(r.exit_code, 0);
  const char *undecided = strstr(r.out, "\"undecided\": ");
  assert_non_null(undecided);
  const int n = atoi(undecided + strlen("\"undecided\": "));
  assert_true(n >= 5);
  char line[256];
  snprintf(line, sizeof line, "\rzeno: regions: %d/%d certificates (100.0%%), ", n, n);
  assert_contains(r.err, "\rzeno: regions: 64/64 points (100.0%), ");
  assert_contains(r.err, line);
  assert_true(strstr(r.err, line) > strstr(r.err, "64/64 points"));
  assert_contains(strstr(r.err, line), " certificates/s, 0s left");
  run_result_free(&r);
  const char *const quiet[] = {"regions",           EXAMPLE7,  "--x",
                               "paper.mu2=0:1.3:8", "--y",     "paper.alpha=0:40:8",
                               "--certify",         "--quiet", NULL};
  r = run_on_terminal(quiet);
  assert_int_equal(r.exit_code, 0);
  assert_string_equal(r.err, "");
  run_result_free(&r);
}

/* ---- --overwrite of map and sweep folders ---------------------------------- */

/// Lines of DIR/NAME, -1 when it cannot be read.
static int lines_of(const char *dir, const char *name) {
  char *text = read_in(dir, name);
  const int n = text ? count_lines(text) : -1;
  free(text);
  return n;
}

#define REGIONS_3X3 "--x", "paper.mu2=0:1.3:3", "--y", "paper.alpha=0:40:3", "--samples", "64"
#define REGIONS_4X3 "--x", "paper.mu2=0:1.3:4", "--y", "paper.alpha=0:40:3", "--samples", "64"
#define SWEEP_3X2 "--x", "initial.qdp.2=-1:1:3", "--y", "initial.qdp.1=-1:-0.05:2"

// A second map into a used --out folder (another map's journal there, or
// the other command's files) is refused as before, the refusal naming
// --overwrite, the folder untouched; with --overwrite the new run's files
// replace the old ones, and the other command's table and journal go in
// the same commit: the folder holds one run's files.
static void used_folders_are_overwritten_on_request(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "overwrite");
  char dir[PATH_SIZE];
  work_path(&w, "out", dir);
  run_result r = run_zeno_captured("regions", EXAMPLE7, REGIONS_3X3, "--out", dir, "--quiet");
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  char *first = read_in(dir, "regions.csv");
  assert_non_null(first);
  assert_int_equal(count_lines(first), 1 + 9);
  r = run_zeno_captured("regions", EXAMPLE7, REGIONS_4X3, "--out", dir, "--quiet");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "regions.journal' belongs to another sweep");
  assert_contains(r.err, "add --overwrite to replace");
  assert_int_equal(count_lines(r.err), 1);
  run_result_free(&r);
  char *kept = read_in(dir, "regions.csv");
  assert_string_equal(kept, first);
  free(kept);
  free(first);
  r = run_zeno_captured("regions", EXAMPLE7, REGIONS_4X3, "--out", dir, "--quiet", "--overwrite");
  assert_int_equal(r.exit_code, 0);
  assert_string_equal(r.err, "");
  run_result_free(&r);
  assert_int_equal(lines_of(dir, "regions.csv"), 1 + 12);
  // The journal is the new map's: the same command resumes all 3 rows.
  r = run_zeno_captured("regions", EXAMPLE7, REGIONS_4X3, "--out", dir, "--json");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "\"computed\": 0, \"resumed_rows\": 3");
  run_result_free(&r);

  // The other command's folder.
  r = run_zeno_captured("sweep", EXAMPLE2, SWEEP_3X2, "--out", dir, "--quiet");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "holds regions.csv, another command's");
  assert_contains(r.err, "add --overwrite to replace");
  run_result_free(&r);
  assert_int_equal(lines_of(dir, "regions.csv"), 1 + 12);
  r = run_zeno_captured("sweep", EXAMPLE2, SWEEP_3X2, "--out", dir, "--quiet", "--overwrite");
  assert_int_equal(r.exit_code, 0);
  assert_string_equal(r.err, "");
  run_result_free(&r);
  assert_int_equal(lines_of(dir, "sweep.csv"), 1 + 6);
  assert_int_equal(access(dir, F_OK), 0);
  char path[2 * PATH_SIZE];
  snprintf(path, sizeof path, "%s/regions.csv", dir);
  assert_int_equal(access(path, F_OK), -1);
  snprintf(path, sizeof path, "%s/regions.journal", dir);
  assert_int_equal(access(path, F_OK), -1);
  char *summary = read_in(dir, "summary.json");
  assert_contains(summary, "\"x\": \"initial.qdp.2\"");
  free(summary);
  const char *const files[] = {"sweep.csv", "summary.json", "sweep.journal"};
  remove_dir_files(dir, files, 3);
  const char *const none[] = {NULL};
  work_dir_remove(&w, none, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_file_is_named),
      cmocka_unit_test(batch_certify_and_screenshot_files),
      cmocka_unit_test(options_without_effect_are_noted),
      cmocka_unit_test(certificates_have_progress),
      cmocka_unit_test(used_folders_are_overwritten_on_request),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
