// `zeno regions` end to end: the same regions.csv from one thread, two
// threads and two Open MPI ranks (zeno-mpi), a killed sweep resumed from
// its journal, an edited journal recomputed, concurrent sweeps kept apart,
// degenerate points as error rows, and bad input (exit 2, one line naming
// the problem).
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"

#define EXAMPLE6 ZENO_SCENES_DIR "/example6.yaml"
/// A small Example 6 grid through the strip: every region class but few
/// points (about a second of work).
#define GRID_X "com.x=-2.5:1.5:21"
#define GRID_Y "com.y=-0.6:2.4:15"
#define GRID_ROWS 15
/// Rows kept from a finished journal to fake a killed sweep.
#define KEPT_ROWS 6
/// Room for a captured error message.
#define MESSAGE_SIZE 4096

/// Runs zeno with stderr captured into message; returns the exit code.
static int run_zeno_message(char *message, const char *const *args) {
  run_result r = run_zeno_argv(args, true);
  snprintf(message, MESSAGE_SIZE, "%s", r.err);
  run_result_free(&r);
  return r.exit_code;
}

static void out_dir(char *path, const char *name) {
  snprintf(path, PATH_SIZE, "%s/zeno-regions-%s-XXXXXX", temp_dir(), name);
  assert_non_null(mkdtemp(path));
}

/// Room for a path in one of the directories (PATH_SIZE) plus a file name.
#define FILE_PATH_SIZE (PATH_SIZE + 64)

static void remove_dir(const char *dir) {
  static const char *const NAMES[] = {"regions.csv", "regions.journal", "summary.json"};
  remove_dir_files(dir, NAMES, sizeof NAMES / sizeof NAMES[0]);
}

/// True when some row of a regions.csv table has region r (5th column).
static bool has_region(const char *table, int r) {
  for (const char *line = strchr(table, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
    const char *field = line + 1;
    for (int k = 0; k < 4 && field; k++) field = strchr(field, ',') ? strchr(field, ',') + 1 : NULL;
    if (field && atoi(field) == r) return true;
  }
  return false;
}

/// The table of the grid with `threads` threads, into a new directory.
static char *sweep_table(char *dir, const char *threads) {
  out_dir(dir, "t");
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_Y, "--threads", threads,
                            "--out", dir, "--quiet"),
                   0);
  char *table = read_in(dir, "regions.csv");
  assert_non_null(table);
  return table;
}

static void threads_and_ranks_agree(void **state) {
  (void)state;
  char one_dir[PATH_SIZE], two_dir[PATH_SIZE];
  char *one = sweep_table(one_dir, "1"), *two = sweep_table(two_dir, "2");
  assert_int_equal(count_lines(one), 1 + 21 * GRID_ROWS);
  assert_string_equal(one, two);
  // Every class of region 0-7 shows up on this small grid.
  for (int r = 0; r < 8; r++)
    if (!has_region(one, r)) fail_msg("region %d missing from the table", r);
  char *summary = read_in(one_dir, "summary.json");
  assert_non_null(summary);
  assert_non_null(strstr(summary, "\"points\": 315"));
  assert_non_null(strstr(summary, "\"resumed_rows\": 0"));
  free(summary);
#ifdef ZENO_MPI_EXE
  char mpi_dir[PATH_SIZE];
  out_dir(mpi_dir, "mpi");
  if (!mpi_available()) {
    remove_dir(mpi_dir);
    free(one);
    free(two);
    remove_dir(one_dir);
    remove_dir(two_dir);
    return;
  }
  const int mpi_code = mpi_run((const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                     GRID_Y, "--threads", "1", "--out", mpi_dir,
                                                     "--quiet", NULL});
  assert_int_equal(mpi_code, 0);
  char *mpi = read_in(mpi_dir, "regions.csv");
  assert_non_null(mpi);
  assert_string_equal(one, mpi);
  char *mpi_summary = read_in(mpi_dir, "summary.json");
  assert_non_null(strstr(mpi_summary, "\"ranks\": 2"));
  free(mpi_summary);
  free(mpi);
  remove_dir(mpi_dir);
#else
  print_message("zeno-mpi not built: the MPI comparison is skipped\n");
#endif
  free(one);
  free(two);
  remove_dir(one_dir);
  remove_dir(two_dir);
}

// A journal cut after KEPT_ROWS finished rows plus half a row (as a kill
// leaves it): the rerun computes only the rest and writes the same table.
static void resumes_from_journal(void **state) {
  (void)state;
  char full_dir[PATH_SIZE], cut_dir[PATH_SIZE];
  char *full = sweep_table(full_dir, "2");
  char *journal = read_in(full_dir, "regions.journal");
  assert_non_null(journal);
  char *p = journal;
  for (int done = 0; done < KEPT_ROWS; p++) {
    p = strstr(p, " done,");
    assert_non_null(p);
    done++;
  }
  char *end = strchr(p, '\n');  // end of the last kept "done" line
  assert_non_null(end);
  char *half = end + 1 + strlen(end + 1) / 40;  // a few points and a cut line
  *half = '\0';
  out_dir(cut_dir, "cut");
  char path[FILE_PATH_SIZE];
  snprintf(path, sizeof path, "%s/regions.journal", cut_dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(journal, f);
  fclose(f);
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_Y, "--out", cut_dir,
                            "--quiet"),
                   0);
  char *resumed = read_in(cut_dir, "regions.csv");
  assert_non_null(resumed);
  assert_string_equal(full, resumed);
  char *summary = read_in(cut_dir, "summary.json");
  char needle[64];
  snprintf(needle, sizeof needle, "\"resumed_rows\": %d", KEPT_ROWS);
  assert_non_null(strstr(summary, needle));
  snprintf(needle, sizeof needle, "\"computed\": %d", 21 * (GRID_ROWS - KEPT_ROWS));
  assert_non_null(strstr(summary, needle));
  // A finished sweep run again computes nothing.
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_Y, "--out", cut_dir,
                            "--quiet"),
                   0);
  free(summary);
  summary = read_in(cut_dir, "summary.json");
  assert_non_null(strstr(summary, "\"computed\": 0"));
  // Another sweep refuses the journal: exit 2, one line naming it.
  char message[MESSAGE_SIZE];
  assert_int_equal(
      run_zeno_message(message, (const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                      "com.y=-0.6:2.4:16", "--out", cut_dir, NULL}),
      2);
  assert_non_null(strstr(message, "regions.journal"));
  assert_non_null(strstr(message, "another sweep"));
  assert_int_equal(count_lines(message), 1);
  free(summary);
  free(resumed);
  free(journal);
  free(full);
  remove_dir(full_dir);
  remove_dir(cut_dir);
}

static void bad_input_exits_2(void **state) {
  (void)state;
  static const struct {
    const char *args[10];
    const char *needle;
  } BAD[] = {
      {{"regions", EXAMPLE6, "--x", GRID_X}, "--y"},
      {{"regions", EXAMPLE6, "--x", "com.x=0:1", "--y", GRID_Y}, "PATH=LO:HI:N"},
      {{"regions", EXAMPLE6, "--x", "com.z=0:1:3", "--y", GRID_Y}, "com.z"},
      {{"regions", EXAMPLE6, "--x", "paper.mu1=-1:1:3", "--y", GRID_Y}, "allowed [0, inf)"},
      {{"regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_X}, "same parameter"},
      {{"regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_Y, "--threads", "0"}, "--threads"},
      {{"regions", EXAMPLE6, "--x", GRID_X, "--y", GRID_Y, "--plot", "map.jpg"}, "--plot"},
      {{"regions", ZENO_SCENES_DIR "/bouncing-ball.yaml", "--x", GRID_X, "--y", GRID_Y},
       "a scene of 2 to 16 contacts"},
      {{"regions", ZENO_SCENES_DIR "/missing.yaml", "--x", GRID_X, "--y", GRID_Y}, "missing.yaml"},
      // Axes the map does not depend on (it was a uniform map).
      {{"regions", EXAMPLE6, "--x", "initial.qdp.2=0:1:3", "--y", GRID_Y},
       "initial.qdp.2: x axis: the region map does not depend on the initial state"},
      {{"regions", EXAMPLE6, "--x", GRID_X, "--y", "initial.qp=0:1:3"},
       "zeno sweep SCENE --x initial.qp=LO:HI:N"},
      {{"regions", EXAMPLE6, "--x", GRID_X, "--y", "body.outline_radius=1:2:3"},
       "body.outline_radius: y axis: the region map does not depend on it"},
      {{"regions", EXAMPLE6, "--x", "solver.sample_dt=0:1:3", "--y", GRID_Y}, "sample_dt"},
  };
  for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
    char message[MESSAGE_SIZE];
    const int code = run_zeno_message(message, BAD[k].args);
    if (code != 2 || strstr(message, BAD[k].needle) == NULL || count_lines(message) != 1)
      fail_msg("case %zu: exit %d, message '%s' (expected exit 2 naming '%s')", k, code, message,
               BAD[k].needle);
  }
}

/// Runs zeno with stdin from in_path and stderr captured into message;
/// returns the exit code.
static int run_zeno_stdin(char *message, const char *in_path, const char *const *args) {
  run_result r = run_zeno_input(args, in_path, true);
  snprintf(message, MESSAGE_SIZE, "%s", r.err);
  run_result_free(&r);
  return r.exit_code;
}

/// The header of regions.csv for the grid over com.x and com.y.
#define REGIONS_HEADER                                                           \
  "ix,iy,com.x,com.y,region,region_name,theorem,verdict,persistent,G_max,"       \
  "fixed_point_phi,fixed_point_G,fixed_points,partition,unsafe,mc_runs,mc_rest," \
  "mc_full_runs,mc_full_rest,sim,on_breakpoint,error\n"

// Every row names its region (zeno_region_name, quoted where it holds a
// comma) and its deciding theorem, empty where none decides (infeasible,
// Painleve, undecided), as the JSON's null: regions 0-7 of docs/regions.md.
static void table_names_regions(void **state) {
  (void)state;
  static const struct {
    const char *name, *theorem;
  } REGION[] = {{"infeasible equilibrium", ""},
                {"Painleve paradox", ""},
                {"stable (Theorem 3)", "3"},
                {"stable (Theorem 4)", "4"},
                {"\"unstable, persistent (Theorem 2)\"", "2"},
                {"\"unstable, not persistent (Theorem 2)\"", "2"},
                {"\"ambiguous, unstable (Theorem 1)\"", "1"},
                {"undecided", ""}};
  char dir[PATH_SIZE];
  char *table = sweep_table(dir, "2");
  assert_int_equal(strncmp(table, REGIONS_HEADER, strlen(REGIONS_HEADER)), 0);
  int seen = 0;
  for (const char *line = strchr(table, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
    const char *field = line;
    for (int k = 0; k < 4; k++) field = strchr(field, ',') + 1;
    const int region = atoi(field);
    assert_true(region >= 0 && region < 8);
    char expected[128];
    snprintf(expected, sizeof expected, "%d,%s,%s,", region, REGION[region].name,
             REGION[region].theorem);
    if (strncmp(field, expected, strlen(expected)) != 0)
      fail_msg("row '%.*s' does not start its region with '%s'", (int)strcspn(line, "\n"), line,
               expected);
    seen |= 1 << region;
  }
  assert_int_equal(seen, 0xff);  // every region shows up on this grid
  free(table);
  // A journal of the rows before region_name (v3) belongs to another
  // sweep: refused, exit 2.
  char *journal = read_in(dir, "regions.journal");
  char *version = strstr(journal, " v4 ");
  assert_non_null(version);
  version[2] = '3';
  char path[FILE_PATH_SIZE], message[MESSAGE_SIZE];
  snprintf(path, sizeof path, "%s/regions.journal", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(journal, f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(run_zeno_message(message,
                                    (const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                          GRID_Y, "--out", dir, "--quiet", NULL}),
                   2);
  assert_non_null(strstr(message, "belongs to another sweep"));
  free(journal);
  remove_dir(dir);
}

// An interior point whose geometry is degenerate (contact 2 meets contact 1
// at paper.l2 = 1.5, inside 1:2:3) is an error row; the sweep goes on and
// summary.json counts it.
static void degenerate_point_is_an_error_row(void **state) {
  (void)state;
  char dir[PATH_SIZE];
  out_dir(dir, "err");
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", "paper.l2=1:2:3", "--y", "com.y=0:0:1",
                            "--out", dir, "--quiet"),
                   0);
  char *table = read_in(dir, "regions.csv");
  char *summary = read_in(dir, "summary.json");
  assert_non_null(table);
  assert_non_null(summary);
  assert_non_null(strstr(table, ",error\n"));  // the header's last column
  assert_non_null(strstr(table, "\n1,0,1.5,0,-1,"));
  assert_non_null(strstr(table, "--set paper.l2=1.5: contacts 1 and 2 coincide"));
  assert_non_null(strstr(summary, "\"errors\": 1"));
  assert_true(has_region(table, 0) || has_region(table, 7) || has_region(table, 4));
  free(table);
  free(summary);
  remove_dir(dir);
}

// A journal line edited or appended by hand fails its checksum: the sweep
// recomputes from there (with a note) and writes the correct table.
static void edited_journal_is_recomputed(void **state) {
  (void)state;
  char full_dir[PATH_SIZE], dir[PATH_SIZE];
  char *full = sweep_table(full_dir, "2");
  char *journal = read_in(full_dir, "regions.journal");
  assert_non_null(journal);
  // Change the region of a point of the fourth row: ",0," -> ",6,",
  // keeping the line's old checksum.
  char *p = journal;
  for (int done = 0; done < 3; done++) p = strstr(p, " done,") + 1;
  static const char REGION_0[] = ",0,infeasible equilibrium,";  // a region-0 point
  char *region = strstr(p, REGION_0) ? strstr(p, REGION_0) + 1 : NULL;
  assert_non_null(region);
  *region = '6';
  out_dir(dir, "edit");
  char path[FILE_PATH_SIZE];
  snprintf(path, sizeof path, "%s/regions.journal", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(journal, f);
  fputs(
      "0123456789abcdef 0,0,-2.5,-0.59999999999999998,2,stable (Theorem 3),3,stable,1,0.5,"
      "nan,nan,0,0,0,0,0,0,0,,0,\n",
      f);  // a forged row
  fclose(f);
  char message[MESSAGE_SIZE];
  assert_int_equal(run_zeno_message(message,
                                    (const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                          GRID_Y, "--out", dir, "--quiet", NULL}),
                   0);
  assert_non_null(strstr(message, "fails its checksum"));
  char *table = read_in(dir, "regions.csv");
  assert_non_null(table);
  assert_string_equal(table, full);
  char *summary = read_in(dir, "summary.json");
  assert_non_null(strstr(summary, "\"resumed_rows\": 3"));
  free(summary);
  free(table);
  free(journal);
  free(full);
  remove_dir(dir);
  remove_dir(full_dir);
}

// Two different sweeps started together into one directory: one runs, the
// other is refused with a clear message, and the table is the first's.
static void concurrent_sweeps_do_not_mix(void **state) {
  (void)state;
  char dir[PATH_SIZE], alone_dir[PATH_SIZE];
  out_dir(dir, "race");
  static const char *const OTHER_Y = "com.y=-0.6:2.4:16";
  const char *const first[] = {"regions", EXAMPLE6, "--x", GRID_X,    "--y",
                               GRID_Y,    "--out",  dir,   "--quiet", NULL};
  const char *const second[] = {"regions", EXAMPLE6, "--x", GRID_X,    "--y",
                                OTHER_Y,   "--out",  dir,   "--quiet", NULL};
  int codes[2];
  char *errors[2];
  run_two_at_once(first, second, codes, errors);
  const int c1 = codes[0], c2 = codes[1];
  char *m1 = errors[0], *m2 = errors[1];
  if (!((c1 == 0) ^ (c2 == 0))) fail_msg("exits %d and %d: %s / %s", c1, c2, m1, m2);
  const char *refusal = c1 == 0 ? m2 : m1;
  const int refused = c1 == 0 ? c2 : c1;
  if (!((refused == 1 && strstr(refusal, "is in use by another zeno run")) ||
        (refused == 2 && strstr(refusal, "belongs to another sweep"))))
    fail_msg("refused with exit %d: %s", refused, refusal);
  assert_int_equal(count_lines(refusal), 1);
  // The table is complete and the winner's own.
  char *table = read_in(dir, "regions.csv");
  out_dir(alone_dir, "alone");
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", GRID_X, "--y", c1 == 0 ? GRID_Y : OTHER_Y,
                            "--out", alone_dir, "--quiet"),
                   0);
  char *alone = read_in(alone_dir, "regions.csv");
  assert_non_null(table);
  assert_non_null(alone);
  assert_string_equal(table, alone);
  free(table);
  free(alone);
  free(m1);
  free(m2);
  remove_dir(dir);
  remove_dir(alone_dir);
}

// Sweeps that differ only after 2,047 characters of their settings, or in
// the scene piped on stdin, do not share a journal; a link planted as the
// journal is refused.
static void journals_are_not_shared_or_followed(void **state) {
  (void)state;
  char dir[PATH_SIZE], message[MESSAGE_SIZE];
  out_dir(dir, "sig");
  char long_mu[2200] = "paper.mu1=0.75";
  memset(long_mu + strlen(long_mu), '0', 2100);  // the same value, 2,114 characters
  long_mu[2114] = '\0';
  assert_int_equal(run_zeno("regions", EXAMPLE6, "--x", GRID_X, "--y", "com.y=0:1:2", "--set",
                            long_mu, "--set", "paper.mu2=0.6", "--out", dir, "--quiet"),
                   0);
  assert_int_equal(run_zeno_message(message,
                                    (const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                          "com.y=0:1:2", "--set", long_mu, "--set",
                                                          "paper.mu2=0.5", "--out", dir, NULL}),
                   2);
  assert_non_null(strstr(message, "belongs to another sweep"));
  remove_dir(dir);
  // Two different scenes on stdin.
  out_dir(dir, "pipe");
  assert_int_equal(run_zeno_stdin(message, EXAMPLE6,
                                  (const char *const[]){"regions", "/dev/stdin", "--x", GRID_X,
                                                        "--y", "com.y=0:1:2", "--out", dir,
                                                        "--quiet", NULL}),
                   0);
  assert_int_equal(run_zeno_stdin(message, ZENO_SCENES_DIR "/example2.yaml",
                                  (const char *const[]){"regions", "/dev/stdin", "--x", GRID_X,
                                                        "--y", "com.y=0:1:2", "--out", dir,
                                                        "--quiet", NULL}),
                   2);
  assert_non_null(strstr(message, "belongs to another sweep"));
  remove_dir(dir);
  // A link where the journal goes.
  out_dir(dir, "link");
  char victim[FILE_PATH_SIZE], journal[FILE_PATH_SIZE];
  snprintf(victim, sizeof victim, "%s/summary.json", dir);
  snprintf(journal, sizeof journal, "%s/regions.journal", dir);
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("precious\n", f);
  fclose(f);
  assert_int_equal(symlink(victim, journal), 0);
  assert_int_equal(run_zeno_message(message,
                                    (const char *const[]){"regions", EXAMPLE6, "--x", GRID_X, "--y",
                                                          "com.y=0:1:2", "--out", dir, NULL}),
                   1);
  assert_non_null(strstr(message, "a link"));
  char *kept = read_file(victim);
  assert_string_equal(kept, "precious\n");
  free(kept);
  remove_dir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_and_ranks_agree),
      cmocka_unit_test(resumes_from_journal),
      cmocka_unit_test(bad_input_exits_2),
      cmocka_unit_test(table_names_regions),
      cmocka_unit_test(degenerate_point_is_an_error_row),
      cmocka_unit_test(edited_journal_is_recomputed),
      cmocka_unit_test(concurrent_sweeps_do_not_mix),
      cmocka_unit_test(journals_are_not_shared_or_followed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
