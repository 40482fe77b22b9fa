// End-to-end tests of `zeno certify` (src/cli/cmd_certify.c): the real
// program loads libzeno-certify on demand; Example 4 is certified with its
// simulation check, Example 3 is not (and the command still exits 0), the
// JSON and certificate.json carry the verdict and V2, and bad options exit 2
// naming the option and its range.
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli_runner.h"

#define EXAMPLE3 ZENO_SCENES_DIR "/example3-zeno.yaml"
#define EXAMPLE4 ZENO_SCENES_DIR "/example4.yaml"
#define EXAMPLE6 ZENO_SCENES_DIR "/example6.yaml"
#define EXAMPLE7 ZENO_SCENES_DIR "/example7.yaml"
#define EXAMPLE4_CR ZENO_SCENES_DIR "/example4-cr.yaml"

static void assert_contains(const char *text, const char *part) {
  if (text == NULL || strstr(text, part) == NULL)
    fail_msg("'%s' not found in:\n%s", part, text ? text : "(null)");
}

static void example4_certified(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--check", "50");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "verdict                 certified\n");
  assert_contains(r.out, "CSDP solved");
  assert_contains(r.out, "50 runs");
  assert_contains(r.out, "x2");
  run_result_free(&r);
}

/// The printed V2's relative floor (cmd_certify.c's CERTIFY_TERM_FLOOR).
#define TERM_FLOOR 1e-9

// The text says what its numbers mean: Example 4's CSDP margin is a tiny
// negative number beside "certified" (zero within CSDP's accuracy: the
// exact check decided), and V2 prints no term below 1e-9 of its largest
// (its 2.4e-11 u1 u2 is rounding), saying that it left some out.
static void human_output_honest(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE4);
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "verdict                 certified\n");
  const char *margin = strstr(r.out, "Gram margin t* = -");
  assert_non_null(margin);
  assert_contains(margin, "(zero within CSDP's accuracy; the exact check decided)");
  const char *v2 = strstr(r.out, "V2 (own units)");
  assert_non_null(v2);
  char line[1024];
  snprintf(line, sizeof line, "%.*s", (int)strcspn(v2, "\n"), v2);
  assert_contains(line, "1 term below 1e-09 of the largest left out");
  double largest = 0, smallest = INFINITY;
  for (const char *p = line + strlen("V2 (own units)"); *p && *p != '('; p++) {
    if (!(*p == '-' || *p == '+' || (*p >= '0' && *p <= '9')) || (p[-1] != ' ' && p[-1] != '-'))
      continue;
    char *end;
    const double v = fabs(strtod(p, &end));
    if (end == p) continue;
    largest = fmax(largest, v);
    smallest = fmin(smallest, v);
    p = end - 1;
  }
  assert_true(largest > 1);
  if (!(smallest >= TERM_FLOOR * largest)) fail_msg("a term of %g in: %s", smallest, line);
  run_result_free(&r);
}

// Example 4 under the Chatterjee-Ruina law (e = 0.2): certified exactly,
// through a 1000-run check; with e = 0.9 not certified, with the reason.
static void chatterjee_ruina(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE4_CR, "--check", "1000");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "verdict                 certified\n");
  assert_contains(r.out, "exact check");
  assert_contains(r.out, "1000 runs");
  run_result_free(&r);
  r = run_zeno_captured("certify", EXAMPLE4_CR, "--set", "impact.e=0.9");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "verdict                 not certified\n");
  assert_contains(r.out, "reason                  the SOS program is infeasible");
  run_result_free(&r);
}

static void example3_not_certified(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE3, "--json");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "\"certified\": false");
  assert_contains(r.out, "infeasible");
  run_result_free(&r);
  r = run_zeno_captured("certify", EXAMPLE3, "--json", "--degree", "4");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "\"certified\": false");
  assert_contains(r.out, "(56)");
  run_result_free(&r);
}

static void json_and_out(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "certify");
  char dir[PATH_SIZE], file[PATH_SIZE + 32];
  work_path(&w, "out", dir);
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--json", "--out", dir);
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "\"certified\": true");
  assert_contains(r.out, "\"exact\": true");
  assert_contains(r.out, "\"exponents\": [1, 0, 0, 0, 0]");
  snprintf(file, sizeof file, "%s/certificate.json", dir);
  char *text = read_file(file);
  assert_non_null(text);
  assert_string_equal(text, r.out);  // the same object
  free(text);
  run_result_free(&r);
  remove(file);
  // The scene's own run: V1 and V2 never grow after the first impact
  // (between events: before of one row against after of the previous).
  snprintf(file, sizeof file, "%s/v_events.csv", dir);
  FILE *f = fopen(file, "r");
  assert_non_null(f);
  char line[512];
  assert_non_null(fgets(line, sizeof line, f));
  assert_string_equal(line, "t,kind,v1_before,v2_before,v1_after,v2_after\n");
  double prev1 = 0, prev2 = 0;
  bool impacted = false;
  int rows = 0, impacts = 0;
  while (fgets(line, sizeof line, f)) {
    double t, b1, b2, a1, a2;
    char kind[32];
    assert_int_equal(sscanf(line, "%lf,%31[a-z],%lf,%lf,%lf,%lf", &t, kind, &b1, &b2, &a1, &a2), 6);
    if (impacted) {
      assert_true(b1 <= prev1 + 1e-12 && b2 <= prev2 + 1e-12);
      assert_true(a1 <= b1 + 1e-12 && a2 <= b2 + 1e-12);
    }
    if (strcmp(kind, "impact") == 0) {
      impacted = true;
      impacts++;
    }
    prev1 = a1;
    prev2 = a2;
    rows++;
  }
  fclose(f);
  assert_true(rows > 10 && impacts > 3);
  remove(file);
  rmdir(dir);
  const char *const names[] = {NULL};
  work_dir_remove(&w, names, NULL);
}

// A certificate row of certificates.csv: indices, values, verdict, reason.
typedef struct cert_row {
  int ix, iy, region, certified, refused;
  double x, y;
  char sim[32];  ///< the point's simulation verdict (zeno_region_sim_name())
  char reason[256];
} cert_row;

static int read_certificates(const char *dir, cert_row *rows, int max) {
  char *text = read_in(dir, "certificates.csv");
  assert_non_null(text);
  char *line = strchr(text, '\n');
  assert_non_null(line);
  *line = '\0';
  assert_string_equal(text, "ix,iy,com.x,com.y,region,certified,refused,sim,seconds,reason");
  int n = 0;
  for (char *next = line + 1; *next; n++) {
    char *end = strchr(next, '\n');
    assert_non_null(end);
    *end = '\0';
    assert_true(n < max);
    cert_row *r = &rows[n];
    double seconds;
    int used = 0;
    assert_int_equal(sscanf(next, "%d,%d,%lf,%lf,%d,%d,%d,%31[a-z-],%lf,%n", &r->ix, &r->iy, &r->x,
                            &r->y, &r->region, &r->certified, &r->refused, r->sim, &seconds, &used),
                     9);
    snprintf(r->reason, sizeof r->reason, "%s", next + used);
    next = end + 1;
  }
  free(text);
  return n;
}

// The region of point (ix, iy) in regions.csv (columns ix, iy, x, y, region).
static int region_of(const char *table, int ix, int iy) {
  char key[64];
  snprintf(key, sizeof key, "\n%d,%d,", ix, iy);
  const char *at = strstr(table, key);
  assert_non_null(at);
  double x, y;
  int region = -9;
  assert_int_equal(sscanf(at + strlen(key), "%lf,%lf,%d", &x, &y, &region), 3);
  return region;
}

// regions --certify: a certificate at every undecided point (region 7)
// and nowhere else, the same verdicts on one thread and on two (with
// --certify-check 200: the simulation check confirms each), counts in
// summary.json, and each verdict the one `zeno certify` gives the point's
// scene alone (Example 6, 14 x 14: 3 of 5 certified; on Example 7's 8 x 8
// map the chains of issue 33 certify all 21 undecided points).
static void regions_certify(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "regions-certify");
  char d1[PATH_SIZE], d2[PATH_SIZE];
  work_path(&w, "one", d1);
  work_path(&w, "two", d2);
  // The second run checks each certificate along 200 perturbed runs too:
  // none of them fails it, so the verdicts are the same.
  const char *threads[2] = {"1", "2"};
  const char *dirs[2] = {d1, d2};
  const char *check[2][2] = {{"--certify", "--quiet"}, {"--certify-check", "200"}};
  for (int k = 0; k < 2; k++) {
    run_result r = run_zeno_captured("regions", EXAMPLE6, "--x", "com.x=-2.5:2:14", "--y",
                                     "com.y=-1:2.5:14", "--out", dirs[k], check[k][0], check[k][1],
                                     "--quiet", "--threads", threads[k]);
    assert_int_equal(r.exit_code, 0);
    run_result_free(&r);
  }
  static cert_row one[64], two[64];
  const int n = read_certificates(d1, one, 64);
  assert_int_equal(read_certificates(d2, two, 64), n);
  char *table = read_in(d1, "regions.csv");
  assert_non_null(table);
  int undecided = 0, certified = 0, refused = 0, disagree = 0, slow = 0;
  for (const char *at = strchr(table, '\n'); at && at[1]; at = strchr(at + 1, '\n')) {
    int ix, iy, region;
    double x, y;
    assert_int_equal(sscanf(at + 1, "%d,%d,%lf,%lf,%d", &ix, &iy, &x, &y, &region), 5);
    undecided += region == 7;
  }
  assert_int_equal(n, undecided);
  assert_true(n >= 5);
  for (int i = 0; i < n; i++) {
    assert_int_equal(region_of(table, one[i].ix, one[i].iy), 7);
    assert_int_equal(one[i].region, 7);
    assert_int_equal(one[i].ix, two[i].ix);
    assert_int_equal(one[i].iy, two[i].iy);
    assert_int_equal(one[i].certified, two[i].certified);
    assert_string_equal(one[i].reason, two[i].reason);
    certified += one[i].certified;
    refused += one[i].refused;
    // Region 7 is simulated (the map's default Monte-Carlo runs).
    assert_true(strcmp(one[i].sim, "rests") == 0 || strcmp(one[i].sim, "departs") == 0 ||
                strcmp(one[i].sim, "returns-slowly") == 0);
    disagree += one[i].certified && strcmp(one[i].sim, "departs") == 0;
    slow += one[i].certified && strcmp(one[i].sim, "returns-slowly") == 0;
  }
  free(table);
  assert_true(certified > 0 && certified < n);  // both verdicts are checked below
  char *summary = read_in(d1, "summary.json");
  // Certificates against the runs: the disagreements counted (and marked
  // in the figure), slow returns apart.
  char expected[256];
  snprintf(expected, sizeof expected,
           "\"certify\": {\"undecided\": %d, \"certified\": %d, \"refused\": %d, "
           "\"certified_but_departs\": %d, \"certified_returns_slowly\": %d, ",
           n, certified, refused, disagree, slow);
  assert_contains(summary, expected);
  free(summary);
  // Every point certified alone gives the map's verdict.
  for (int i = 0; i < n; i++) {
    const int want = one[i].certified;
    char cx[64], cy[64];
    snprintf(cx, sizeof cx, "com.x=%.17g", one[i].x);
    snprintf(cy, sizeof cy, "com.y=%.17g", one[i].y);
    run_result r = run_zeno_captured("certify", EXAMPLE6, "--set", cx, "--set", cy, "--json");
    assert_int_equal(r.exit_code, 0);
    assert_contains(r.out, want ? "\"certified\": true" : "\"certified\": false");
    run_result_free(&r);
  }
  const char *const names[] = {"regions.csv", "summary.json", "certificates.csv", "regions.journal",
                               NULL};
  for (int k = 0; k < 2; k++) {
    for (const char *const *f = names; *f; f++) {
      char path[PATH_SIZE + 32];
      snprintf(path, sizeof path, "%s/%s", dirs[k], *f);
      remove(path);
    }
    rmdir(dirs[k]);
  }
  const char *const none[] = {NULL};
  work_dir_remove(&w, none, NULL);
}

// --certify-all holds certificates against the maps' verdicts (issue 13's
// soundness): on a 15 x 15 Example 6 map every point is tried, and none
// that the Poincaré analysis proves unstable (regions 4, 5, 6) or that has
// no equilibrium (0, 1) is certified, while some undecided one is.
static void regions_certify_all_is_sound(void **state) {
  (void)state;
  run_result r = run_zeno_captured("regions", ZENO_SCENES_DIR "/example6.yaml", "--x",
                                   "com.x=-2.5:2:15", "--y", "com.y=-1:2.5:15", "--certify-all",
                                   "--json", "--quiet");
  assert_int_equal(r.exit_code, 0);
  const char *by = strstr(r.out, "\"by_region\": {");
  assert_non_null(by);
  long tried_total = 0, unstable_tried = 0;
  for (int region = 0; region < 8; region++) {
    char key[32];
    snprintf(key, sizeof key, "\"%d\": {\"tried\": ", region);
    const char *at = strstr(by, key);
    assert_non_null(at);
    long tried = -1, certified = -1;
    assert_int_equal(sscanf(at + strlen(key), "%ld, \"certified\": %ld", &tried, &certified), 2);
    tried_total += tried;
    if (region != 7 && region != 2 && region != 3) assert_int_equal(certified, 0);
    if (region >= 4 && region <= 6) unstable_tried += tried;
    if (region == 7) assert_true(certified >= 1);
  }
  assert_int_equal(tried_total, 15 * 15);
  assert_true(unstable_tried >= 10);  // the assertion above had points to bite on
  run_result_free(&r);
}

// --plot: the figure of V1 and V2 along Example 4's run, a PNG of the
// default figure size (460 x 345, matplotlib's 6.4 x 4.8 in); a format it cannot write is refused.
static void plot_along_the_run(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "certify-plot");
  char png[PATH_SIZE];
  work_path(&w, "v.png", png);
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--plot", png);
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "certified");
  run_result_free(&r);
  FILE *f = fopen(png, "rb");
  assert_non_null(f);
  unsigned char head[24];
  assert_int_equal(fread(head, 1, sizeof head, f), sizeof head);
  fclose(f);
  assert_memory_equal(head, "\x89PNG\r\n\x1a\n", 8);
  assert_memory_equal(head + 12, "IHDR", 4);
  const unsigned width = (unsigned)head[16] << 24 | (unsigned)head[17] << 16 |
                         (unsigned)head[18] << 8 | head[19];
  const unsigned height = (unsigned)head[20] << 24 | (unsigned)head[21] << 16 |
                          (unsigned)head[22] << 8 | head[23];
  assert_int_equal(width, 460);  // PLOT_WIDTH x PLOT_HEIGHT (src/plot/plot.h)
  assert_int_equal(height, 345);
  r = run_zeno_captured("certify", EXAMPLE4, "--plot", "v.bmp");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "--plot");
  run_result_free(&r);
  work_dir_remove(&w, (const char *const[]){"v.png", NULL}, NULL);
}

/// The Example 7 map of the kill test, its certificates checked along
/// runs enough to take some seconds on one thread (21 certificates).
static const char *const KILL_MAP[] = {"regions",
                                       EXAMPLE7,
                                       "--x",
                                       "paper.mu2=0:1.3:8",
                                       "--y",
                                       "paper.alpha=0:40:8",
                                       "--certify-check",
                                       "2000",
                                       "--threads",
                                       "1",
                                       "--quiet",
                                       "--out",
                                       NULL};
#define KILL_MAP_ARGS 12
#define KILL_MAP_CERTIFICATES 21
/// Certificates journaled before the kill.
#define KILL_AFTER 3

static void kill_map_argv(const char *dir, const char *args[KILL_MAP_ARGS + 2]) {
  memcpy(args, KILL_MAP, KILL_MAP_ARGS * sizeof *args);
  args[KILL_MAP_ARGS] = dir;
  args[KILL_MAP_ARGS + 1] = NULL;
}

/// The number of whole lines of DIR/NAME (0 when absent).
static int lines_in(const char *dir, const char *name) {
  char *text = read_in(dir, name);
  const int n = text ? count_lines(text) : 0;
  free(text);
  return n;
}

/// The text with the numbers of the named members (timing and resume
/// counts) replaced by '#', and the seconds column of certificates.csv
/// (the 9th) cut: what must be the same after a resume.
static void mask_member(char *text, const char *key) {
  for (char *at = text; (at = strstr(at, key)) != NULL;) {
    at += strlen(key);
    const size_t length = strcspn(at, ",}");
    *at = '#';
    memmove(at + 1, at + length, strlen(at + length) + 1);
  }
}

static void cut_seconds(char *table) {
  for (char *line = table; *line;) {
    char *field = line;
    for (int k = 0; k < 8 && field; k++) field = strchr(field, ',') ? strchr(field, ',') + 1 : NULL;
    char *end = field ? strchr(field, ',') : NULL;
    assert_non_null(end);
    memmove(field, end + 1, strlen(end + 1) + 1);
    line = strchr(line, '\n') ? strchr(line, '\n') + 1 : line + strlen(line);
  }
}

static void assert_same_outputs(const char *dir, const char *whole) {
  char *a = read_in(dir, "regions.csv"), *b = read_in(whole, "regions.csv");
  assert_non_null(a);
  assert_non_null(b);
  assert_string_equal(a, b);
  free(a), free(b);
  a = read_in(dir, "certificates.csv"), b = read_in(whole, "certificates.csv");
  assert_non_null(a);
  assert_non_null(b);
  cut_seconds(a), cut_seconds(b);
  assert_string_equal(a, b);
  free(a), free(b);
  a = read_in(dir, "summary.json"), b = read_in(whole, "summary.json");
  static const char *const VARYING[] = {"\"seconds\": ", "\"points_per_second\": ",
                                        "\"computed\": ", "\"resumed_rows\": ", "\"resumed\": "};
  for (size_t k = 0; k < sizeof VARYING / sizeof *VARYING; k++)
    mask_member(a, VARYING[k]), mask_member(b, VARYING[k]);
  assert_string_equal(a, b);
  free(a), free(b);
}

// regions --certify --out journals each certificate as it finishes: a run
// killed (SIGKILL) during the certificates resumes with the rest only and
// writes the uninterrupted run's certificates.csv (but the seconds, which
// are each certificate's own, journaled) and summary.json (but timing and
// resume counts). A certificate line edited in the journal is dropped
// with what follows (a note names the file and the line) and computed
// again. (Certificates were not journaled: a kill lost them all.)
static void regions_certificates_resume(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "certify-journal");
  char whole[PATH_SIZE], dir[PATH_SIZE];
  work_path(&w, "whole", whole);
  work_path(&w, "killed", dir);
  const char *args[KILL_MAP_ARGS + 2];
  kill_map_argv(whole, args);
  run_result r = run_zeno_argv(args, true);
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  assert_int_equal(lines_in(whole, "certificates.journal"), 1 + KILL_MAP_CERTIFICATES);
  // Killed once KILL_AFTER certificates are journaled.
  kill_map_argv(dir, args);
  char *argv[MAX_ARGS + 2];
  zeno_argv(args, argv);
  const pid_t pid = spawn_async(argv, NULL, -1, -1);
  const struct timespec pause = {0, 2 * 1000 * 1000};
  for (double waited = 0; lines_in(dir, "certificates.journal") < 1 + KILL_AFTER; waited += 0.002) {
    if (waited > START_WAIT_SECONDS) fail_msg("no certificates journaled in %s", dir);
    nanosleep(&pause, NULL);
  }
  assert_int_equal(kill(pid, SIGKILL), 0);
  wait_exit(pid);
  const int journaled = lines_in(dir, "certificates.journal") - 1;
  if (journaled >= KILL_MAP_CERTIFICATES) fail_msg("the run finished before its kill");
  assert_false(holds_file(dir, "certificates.csv", 0));
  r = run_zeno_argv(args, true);
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  char *summary = read_in(dir, "summary.json");
  char expected[PATH_SIZE + 64];
  snprintf(expected, sizeof expected, "\"resumed\": %d, ", journaled);
  assert_contains(summary, expected);
  free(summary);
  assert_same_outputs(dir, whole);
  // An edited certificate: line 3 (the second certificate) made certified
  // the other way, its checksum kept.
  char *journal = read_in(dir, "certificates.journal");
  char *line3 = strchr(strchr(journal, '\n') + 1, '\n') + 1;
  char *flag = strchr(line3, ',') + 1;
  *flag = *flag == '1' ? '0' : '1';
  char path[PATH_SIZE + 32];
  snprintf(path, sizeof path, "%s/certificates.journal", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(journal, f);
  fclose(f);
  free(journal);
  r = run_zeno_argv(args, true);
  assert_int_equal(r.exit_code, 0);
  snprintf(expected, sizeof expected, "%s:3 fails its checksum", path);
  assert_contains(r.err, expected);
  run_result_free(&r);
  summary = read_in(dir, "summary.json");
  assert_contains(summary, "\"resumed\": 1, ");
  free(summary);
  assert_same_outputs(dir, whole);
  // Another --certify-check does not reuse the certificates: refused.
  r = run_zeno_captured("regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:8", "--y",
                        "paper.alpha=0:40:8", "--certify", "--out", dir);
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "certificates.journal' belongs to other certificates");
  run_result_free(&r);
  // The same map without --certify: its folder holds no certificates.csv
  // of the earlier run (removed with the commit).
  r = run_zeno_captured("regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:8", "--y",
                        "paper.alpha=0:40:8", "--quiet", "--out", whole);
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  assert_false(holds_file(whole, "certificates.csv", 0));
  assert_true(holds_file(whole, "regions.csv", 0));
  static const char *const NAMES[] = {"regions.csv", "summary.json", "certificates.csv",
                                      "regions.journal", "certificates.journal"};
  for (int k = 0; k < 2; k++) {
    const char *d = k ? dir : whole;
    for (size_t n = 0; n < sizeof NAMES / sizeof *NAMES; n++) {
      snprintf(path, sizeof path, "%s/%s", d, NAMES[n]);
      remove(path);
    }
    rmdir(d);
  }
  const char *const none[] = {NULL};
  work_dir_remove(&w, none, NULL);
}

/// Perturbed runs of a certificate that takes about a second (Example 4).
#define SLOW_CHECK "100000"

// certify --out DIR holds DIR's lock from before the certificate to its
// files' commit: a run into a folder another run writes is refused (exit
// 1, naming the folder), whether the lock is this test's or a concurrent
// certify's, and the folder holds the winner's files. (It took no lock.)
static void out_dir_is_locked(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "certify-lock");
  char dir[PATH_SIZE];
  work_path(&w, "out", dir);
  assert_int_equal(mkdir(dir, 0777), 0);
  const int fd = open(dir, O_RDONLY | O_DIRECTORY);
  assert_true(fd >= 0);
  assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--out", dir);
  assert_int_equal(r.exit_code, 1);
  assert_contains(r.err, "in use by another zeno run");
  assert_contains(r.err, dir);
  assert_false(holds_file(dir, "certificate.json", 0));
  run_result_free(&r);
  close(fd);  // the lock goes with it
  // Two runs at once: one writes, the other is refused.
  const char *const first[] = {"certify", EXAMPLE4, "--check", SLOW_CHECK, "--out", dir, NULL};
  const char *const second[] = {"certify", EXAMPLE4, "--check", "7", "--out", dir, NULL};
  int codes[2];
  char *errors[2];
  run_two_at_once(first, second, codes, errors);
  const int c1 = codes[0], c2 = codes[1];
  char *m1 = errors[0], *m2 = errors[1];
  if (!((c1 == 0 && c2 == 1) || (c1 == 1 && c2 == 0)))
    fail_msg("exits %d and %d: %s / %s", c1, c2, m1, m2);
  assert_contains(c1 == 0 ? m2 : m1, "in use by another zeno run");
  char *json = read_in(dir, "certificate.json");
  assert_non_null(json);
  assert_contains(json, c1 == 0 ? "\"runs\": " SLOW_CHECK : "\"runs\": 7,");
  free(json);
  free(m1);
  free(m2);
  work_dir_remove(&w, (const char *const[]){"out/certificate.json", "out/v_events.csv", NULL},
                  "out");
}

// A refused certificate into a folder of a certified one: the folder holds
// the new run's files only (the old v_events.csv is removed with the
// commit; it was left beside the new certificate.json).
static void out_dir_holds_one_run(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "certify-one-run");
  char dir[PATH_SIZE];
  work_path(&w, "out", dir);
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--out", dir);
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  assert_true(holds_file(dir, "v_events.csv", 0));
  r = run_zeno_captured("certify", EXAMPLE3, "--degree", "4", "--out", dir);  // (56)
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  char *json = read_in(dir, "certificate.json");
  assert_non_null(json);
  assert_contains(json, "\"refused\": true");
  free(json);
  assert_false(holds_file(dir, "v_events.csv", 0));
  // Certified again: both files, the new run's.
  r = run_zeno_captured("certify", EXAMPLE4, "--out", dir);
  assert_int_equal(r.exit_code, 0);
  run_result_free(&r);
  assert_true(holds_file(dir, "v_events.csv", 0));
  // A v_events.csv that is not a file (a directory) is never removed: the
  // run fails before writing, the folder as it was.
  char *before = read_in(dir, "certificate.json");
  work_dir_remove(&w, (const char *const[]){"out/v_events.csv", NULL}, NULL);
  char sub[PATH_SIZE];
  work_path(&w, "out/v_events.csv", sub);
  assert_int_equal(mkdir(sub, 0777), 0);
  r = run_zeno_captured("certify", EXAMPLE3, "--degree", "4", "--out", dir);
  assert_int_equal(r.exit_code, 1);
  assert_contains(r.err, "not a regular file");
  run_result_free(&r);
  char *after = read_in(dir, "certificate.json");
  assert_string_equal(before, after);
  free(before);
  free(after);
  rmdir(sub);
  work_dir_remove(&w, (const char *const[]){"out/certificate.json", NULL}, "out");
}

static void bad_options(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE4, "--degree", "5");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "--degree");
  assert_contains(r.err, "[2, 4]");
  run_result_free(&r);
  r = run_zeno_captured("certify", EXAMPLE4, "--check", "-1");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "--check");
  run_result_free(&r);
  r = run_zeno_captured("certify", ZENO_SCENES_DIR "/bouncing-ball.yaml");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "two contacts");
  run_result_free(&r);
  r = run_zeno_captured("certify", "--help");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "--check N");
  run_result_free(&r);
  r = run_zeno_captured("regions", EXAMPLE7, "--x", "paper.mu2=0:1.3:2", "--y",
                        "paper.alpha=0:40:2", "--certify-check", "-5");
  assert_int_equal(r.exit_code, 2);
  assert_contains(r.err, "--certify-check");
  assert_contains(r.err, "[0, 100000]");
  run_result_free(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example4_certified),    cmocka_unit_test(example3_not_certified),
      cmocka_unit_test(chatterjee_ruina),      cmocka_unit_test(json_and_out),
      cmocka_unit_test(regions_certify),       cmocka_unit_test(regions_certify_all_is_sound),
      cmocka_unit_test(plot_along_the_run),    cmocka_unit_test(out_dir_is_locked),
      cmocka_unit_test(out_dir_holds_one_run), cmocka_unit_test(regions_certificates_resume),
      cmocka_unit_test(bad_options),           cmocka_unit_test(human_output_honest),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
