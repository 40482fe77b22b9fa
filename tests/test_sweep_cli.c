// `zeno sweep` end to end: a killed sweep resumed from its journal writes
// the same sweep.csv as one that ran without a break; two Open MPI ranks
// (zeno-mpi) write the same table as one process. Batches (--z) of `zeno
// sweep` and `zeno regions`: each map is the map run alone with the z value
// set, and a batch resumes across its maps; bad --z input exits 2 naming
// the option.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"

/// Example 3 over the perturbation direction: rows of 11 points, some
/// coming to rest, most diverging (well under a second).
#define GRID_X "initial.qdp.2=-2:2:11"
#define GRID_Y "initial.qdp.0=0:1:6"
#define NX 11
#define NY 6
/// A batch over contact 1's friction: 3 maps of 5 x 3 points.
#define BATCH_X "initial.qdp.2=-2:2:5"
#define BATCH_Y "initial.qdp.0=0:1:3"
#define BATCH_Z "paper.mu1=0.5:0.7:3"
/// Room for a path in a directory plus a file name.
#define FILE_PATH_SIZE (PATH_SIZE + 64)

static const char *const FILES[] = {"sweep.csv",       "sweep.journal", "regions.csv",
                                    "regions.journal", "summary.json",  "m-z0.png",
                                    "m-z1.png",        "m-z2.png"};

static void new_dir(char *path, const char *name) {
  snprintf(path, PATH_SIZE, "%s/zeno-sweep-%s-XXXXXX", temp_dir(), name);
  assert_non_null(mkdtemp(path));
}

static void file_in(const char *dir, const char *name, char *path) {
  snprintf(path, FILE_PATH_SIZE, "%s/%s", dir, name);
}

static void write_in(const char *dir, const char *name, const char *text) {
  char path[FILE_PATH_SIZE];
  file_in(dir, name, path);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static void remove_dir(const char *dir) {
  remove_dir_files(dir, FILES, sizeof FILES / sizeof FILES[0]);
}

/// Cuts a journal after `rows` finished rows plus a few characters of the
/// next one (as a kill leaves it).
static void cut_after(char *journal, int rows) {
  char *p = journal;
  for (int done = 0; done < rows; p++) {
    p = strstr(p, " done,");
    assert_non_null(p);
    done++;
  }
  char *end = strchr(p, '\n');
  assert_non_null(end);
  end[1 + strlen(end + 1) / 20] = '\0';
}

static void assert_summary(const char *dir, long resumed, long computed) {
  char *summary = read_in(dir, "summary.json");
  assert_non_null(summary);
  char needle[96];
  snprintf(needle, sizeof needle, "\"computed\": %ld, \"resumed_rows\": %ld", computed, resumed);
  if (strstr(summary, needle) == NULL) fail_msg("%s not in %s", needle, summary);
  free(summary);
}

// Two rows and a piece of the third kept: the rerun computes the other four
// and writes the same table; run again it computes nothing; another sweep
// into the same directory is refused. zeno-mpi on 2 ranks agrees.
static void resumes_to_the_same_table(void **state) {
  (void)state;
  char full[PATH_SIZE], cut[PATH_SIZE];
  new_dir(full, "full");
  new_dir(cut, "cut");
  assert_int_equal(run_zeno("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y", GRID_Y, "--out", full,
                            "--quiet"),
                   0);
  char *table = read_in(full, "sweep.csv"), *journal = read_in(full, "sweep.journal");
  assert_non_null(table);
  assert_non_null(journal);
  assert_int_equal(count_lines(table), 1 + NX * NY);
  assert_int_equal(count_lines(journal), 1 + (NX + 1) * NY);
  cut_after(journal, 2);
  write_in(cut, "sweep.journal", journal);
  assert_int_equal(run_zeno("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y", GRID_Y, "--out", cut,
                            "--quiet"),
                   0);
  char *resumed = read_in(cut, "sweep.csv");
  assert_non_null(resumed);
  assert_string_equal(table, resumed);
  assert_summary(cut, 2, (NY - 2) * NX);
  assert_int_equal(run_zeno("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y", GRID_Y, "--out", cut,
                            "--quiet"),
                   0);
  assert_summary(cut, NY, 0);
  run_result r = run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y",
                                   "initial.qdp.0=0:1:5", "--out", cut);
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "sweep.journal' belongs to another sweep"));
  run_result_free(&r);
  // A journal that a full disk or a kill left empty, or with its first line
  // cut short, holds nothing of a run: it is begun again (it refused every
  // rerun as "another sweep" until removed by hand). A first line of its
  // own that is not ours is another sweep's.
  char first_line[1024];
  snprintf(first_line, sizeof first_line, "%.*s", (int)(strchr(journal, '\n') - journal), journal);
  const size_t cuts[] = {0, 10, strlen(first_line) * 2 / 3};
  for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
    char fresh[PATH_SIZE];
    new_dir(fresh, "fresh");
    char start[1024];
    snprintf(start, sizeof start, "%.*s", (int)cuts[k], first_line);
    write_in(fresh, "sweep.journal", start);
    assert_int_equal(run_zeno("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y", GRID_Y, "--out", fresh,
                              "--quiet"),
                     0);
    char *again = read_in(fresh, "sweep.csv");
    assert_non_null(again);
    assert_string_equal(table, again);
    free(again);
    remove_dir(fresh);
  }
  // A folder of the other batch command: its summary.json is kept, the
  // region map refused before any work (it replaced it silently).
  char *sweep_summary = read_in(cut, "summary.json");
  run_result refused = run_zeno_captured("regions", EXAMPLE3_ZENO, "--x", "com.x=-1:1:3", "--y",
                                         "com.y=0:1:2", "--out", cut);
  assert_int_equal(refused.exit_code, 2);
  assert_non_null(strstr(refused.err, "holds sweep.csv, another command's"));
  run_result_free(&refused);
  char *kept = read_in(cut, "summary.json");
  assert_string_equal(sweep_summary, kept);
  free(sweep_summary);
  free(kept);
  char other[PATH_SIZE];
  new_dir(other, "other");
  write_in(other, "sweep.journal", "not a journal\n");
  assert_int_equal(run_zeno("sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y", GRID_Y, "--out", other,
                            "--quiet"),
                   2);
  remove_dir(other);
#ifdef ZENO_MPI_EXE
  if (mpi_available()) {
    char mpi[PATH_SIZE];
    new_dir(mpi, "mpi");
    assert_int_equal(mpi_run((const char *const[]){"sweep", EXAMPLE3_ZENO, "--x", GRID_X, "--y",
                                                   GRID_Y, "--threads", "1", "--out", mpi,
                                                   "--quiet", NULL}),
                     0);
    char *by_ranks = read_in(mpi, "sweep.csv"), *summary = read_in(mpi, "summary.json");
    assert_non_null(by_ranks);
    assert_string_equal(table, by_ranks);
    assert_non_null(strstr(summary, "\"ranks\": 2"));
    free(by_ranks);
    free(summary);
    remove_dir(mpi);
  }
#else
  printf("zeno-mpi not built: the MPI comparison is skipped\n");
#endif
  free(resumed);
  free(journal);
  free(table);
  remove_dir(full);
  remove_dir(cut);
}

/// The line after `line` (NULL at the end).
static const char *next_line(const char *line) {
  const char *end = strchr(line, '\n');
  return end && end[1] ? end + 1 : NULL;
}

/// A batch: the command, its scene and axes, its table, the header's
/// start, and its size.
typedef struct batch_case {
  const char *command, *scene, *x, *y, *z, *table, *header;
  int maps, rows_per_map, points_per_row;
} batch_case;

// Every map of the batch, its rows stripped of "IZ,Z,", is the table of the
// map run alone with --set PATH=Z; one figure per map; a batch cut after
// four of its rows (inside its second map) resumes to the same table.
static void check_batch(const batch_case *c) {
  char batch[PATH_SIZE], one[PATH_SIZE], cut[PATH_SIZE], plot[FILE_PATH_SIZE];
  new_dir(batch, "batch");
  new_dir(one, "one");
  new_dir(cut, "batch-cut");
  file_in(batch, "m.png", plot);
  assert_int_equal(run_zeno(c->command, c->scene, "--x", c->x, "--y", c->y, "--z", c->z, "--out",
                            batch, "--plot", plot, "--quiet"),
                   0);
  char *table = read_in(batch, c->table);
  assert_non_null(table);
  const int points = c->maps * c->rows_per_map * c->points_per_row;
  assert_int_equal(count_lines(table), 1 + points);
  assert_int_equal(strncmp(table, c->header, strlen(c->header)), 0);
  const char *row = next_line(table);
  const size_t path_length = strcspn(c->z, "=");
  for (int iz = 0; iz < c->maps; iz++) {
    // The map's z value as the batch wrote it (17 digits: it round-trips).
    char z[64], set[96], figure[32];
    const char *comma = strchr(row, ',');
    snprintf(z, sizeof z, "%.*s", (int)(strcspn(comma + 1, ",")), comma + 1);
    snprintf(set, sizeof set, "%.*s=%s", (int)path_length, c->z, z);
    assert_int_equal(run_zeno(c->command, c->scene, "--x", c->x, "--y", c->y, "--set", set, "--out",
                              one, "--quiet"),
                     0);
    char *alone = read_in(one, c->table);
    assert_non_null(alone);
    const char *line = next_line(alone);
    for (int k = 0; k < c->rows_per_map * c->points_per_row; k++) {
      assert_non_null(row);
      assert_non_null(line);
      char prefix[96];
      const int n = snprintf(prefix, sizeof prefix, "%d,%s,", iz, z);
      assert_int_equal(strncmp(row, prefix, (size_t)n), 0);
      const size_t length = strcspn(line, "\n");
      if (strncmp(row + n, line, length) != 0 || row[(size_t)n + length] != '\n')
        fail_msg("%s map %d row %d: batch '%.*s', alone '%.*s'", c->command, iz, k,
                 (int)strcspn(row + n, "\n"), row + n, (int)length, line);
      row = next_line(row);
      line = next_line(line);
    }
    free(alone);
    char *image = read_in(batch, (snprintf(figure, sizeof figure, "m-z%d.png", iz), figure));
    assert_non_null(image);
    assert_int_equal(memcmp(image, "\x89PNG", 4), 0);
    free(image);
    remove_dir(one);
    new_dir(one, "one");
  }
  char journal_name[64];
  snprintf(journal_name, sizeof journal_name, "%s.journal", c->command);
  char *journal = read_in(batch, journal_name);
  assert_non_null(journal);
  const int kept = c->rows_per_map + 1;
  cut_after(journal, kept);
  write_in(cut, journal_name, journal);
  assert_int_equal(run_zeno(c->command, c->scene, "--x", c->x, "--y", c->y, "--z", c->z, "--out",
                            cut, "--quiet"),
                   0);
  char *resumed = read_in(cut, c->table);
  assert_non_null(resumed);
  assert_string_equal(table, resumed);
  assert_summary(cut, kept, (c->maps * c->rows_per_map - kept) * c->points_per_row);
  free(resumed);
  free(journal);
  free(table);
  remove_dir(batch);
  remove_dir(one);
  remove_dir(cut);
}

static void batch_is_the_maps_one_by_one(void **state) {
  (void)state;
  const batch_case sweep = {"sweep",
                            EXAMPLE3_ZENO,
                            BATCH_X,
                            BATCH_Y,
                            BATCH_Z,
                            "sweep.csv",
                            "iz,paper.mu1,ix,iy,initial.qdp.2,initial.qdp.0,outcome,",
                            3,
                            3,
                            5};
  check_batch(&sweep);
  // Example 7 over the slope and friction, a map per rho (region 7 points
  // simulate their perturbations).
  const batch_case regions = {"regions",
                              ZENO_SCENES_DIR "/example7.yaml",
                              "paper.mu2=0:1.3:5",
                              "paper.alpha=0:40:4",
                              "paper.rho=0.15:0.2:2",
                              "regions.csv",
                              "iz,paper.rho,ix,iy,paper.mu2,paper.alpha,region,",
                              2,
                              4,
                              5};
  check_batch(&regions);
}

static void bad_z_exits_2(void **state) {
  (void)state;
  const struct {
    const char *z, *extra, *message;
  } cases[] = {
      {"initial.qdp.2=0:1:2", NULL, "--z: 'initial.qdp.2' is already the --x axis"},
      {"paper.mu1=-1:1:2", NULL, "--z paper.mu1=-1:1:2: value -1 is out of range"},
      {"paper.mu1=0:1", NULL, "--z: axis 'paper.mu1=0:1'"},
      {"epsilon=0.1:0.2:2", "--magnitude", "--z: epsilon is the basin estimate's magnitude"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    run_result r = cases[k].extra ? run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", BATCH_X, "--y",
                                                      BATCH_Y, "--z", cases[k].z, "--set",
                                                      "model=full", cases[k].extra, "0.1:1:3")
                                  : run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", BATCH_X, "--y",
                                                      BATCH_Y, "--z", cases[k].z);
    assert_int_equal(r.exit_code, 2);
    if (strstr(r.err, cases[k].message) == NULL)
      fail_msg("--z %s: '%s' does not say '%s'", cases[k].z, r.err, cases[k].message);
    run_result_free(&r);
  }
  // A region map does not depend on the initial state: such a z is refused
  // as --x and --y are, pointing to the sweep.
  run_result r = run_zeno_captured("regions", ZENO_SCENES_DIR "/example7.yaml", "--x",
                                   "paper.mu2=0:1.3:5", "--y", "paper.alpha=0:40:4", "--z",
                                   "initial.qdp.1=0:1:2");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err,
                         "zeno: regions: --z: z axis: the region map does not depend "
                         "on the initial state"));
  assert_non_null(strstr(r.err, "outcome sweep (zeno sweep"));
  run_result_free(&r);
  r = run_zeno_captured("regions", ZENO_SCENES_DIR "/example7.yaml", "--x", "paper.mu2=0:1.3:5",
                        "--y", "paper.alpha=0:40:4", "--z", "paper.alpha=0:1:2");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--z: 'paper.alpha' is already the --y axis"));
  run_result_free(&r);
}

/// sweep.csv of the box in a corner let go at nine poses (`dir`, its
/// header checked by the caller): every point rests jammed between the
/// wall and the right floor corner, |z2|, |z3| <= zero, the left corner
/// lifted (z1 > 0).
static void assert_box_jammed(const char *dir, double zero) {
  char *table = read_in(dir, "sweep.csv");
  assert_non_null(table);
  const char header[] =
      "ix,iy,initial.pose.0,initial.pose.1,outcome,t,events,impacts,zeno,"
      "zeno_time,z1,z2,z3,energy_gains,error\n";
  assert_int_equal(strncmp(table, header, strlen(header)), 0);
  int rows = 0;
  for (char *line = strchr(table, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
    double z[3];
    char outcome[16];
    assert_int_equal(sscanf(line, "%*d,%*d,%*[^,],%*[^,],%15[^,],%*[^,],%*d,%*d,%*d,,%lf,%lf,%lf",
                            outcome, &z[0], &z[1], &z[2]),
                     4);
    assert_string_equal(outcome, "rest");
    assert_true(z[0] > 0 && fabs(z[1]) <= zero && fabs(z[2]) <= zero);
    rows++;
  }
  assert_int_equal(rows, 9);
  free(table);
}

// A scene of three contacts is swept on the N-contact engine (issue 34):
// the box let go from nine poses off its corner rests in each, jammed
// between the wall and the right floor corner (z2 = z3 = 0, the left
// corner lifted, z1 > 0), q''s names in the header; in the full model too,
// on the exact contacts to below 1e-15. A basin estimate needs the full model,
// as for two contacts (three contacts take it there: tests/test_sweep.c,
// basin_on_three_points).
static void three_contacts_swept(void **state) {
  (void)state;
  char dir[PATH_SIZE];
  const char *box = ZENO_SCENES_DIR "/box-in-a-corner.yaml";
  new_dir(dir, "box");
  assert_int_equal(run_zeno("sweep", box, "--x", "initial.pose.0=0.005:0.015:3", "--y",
                            "initial.pose.1=0.01:0.03:3", "--out", dir, "--quiet"),
                   0);
  assert_box_jammed(dir, 0);
  remove_dir(dir);
  new_dir(dir, "boxfull");
  assert_int_equal(run_zeno("sweep", box, "--x", "initial.pose.0=0.005:0.015:3", "--y",
                            "initial.pose.1=0.01:0.03:3", "--set", "model=full", "--out", dir,
                            "--quiet"),
                   0);
  assert_box_jammed(dir, nextafter(1e-15, 0));  // |z| < 1e-15
  remove_dir(dir);
  run_result r = run_zeno_captured("sweep", box, "--x", "initial.pose.0=0.005:0.015:3", "--y",
                                   "initial.pose.1=0.01:0.03:3", "--magnitude", "0.001:0.01:3");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "a basin estimate needs the full model"));
  run_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(resumes_to_the_same_table),
      cmocka_unit_test(batch_is_the_maps_one_by_one),
      cmocka_unit_test(bad_z_exits_2),
      cmocka_unit_test(three_contacts_swept),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
