// End-to-end tests of `zeno certify` (src/cli/cmd_certify.c): the real
// program loads libzeno-certify on demand; Example 4 is certified with its
// simulation check, Example 3 is not (and the command still exits 0), the
// JSON and certificate.json carry the verdict and V2, and bad options exit 2
// naming the option and its range.
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

#define EXAMPLE3 ZENO_SCENES_DIR "/example3-zeno.yaml"
#define EXAMPLE4 ZENO_SCENES_DIR "/example4.yaml"

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

static void example3_not_certified(void **state) {
  (void)state;
  run_result r = run_zeno_captured("certify", EXAMPLE3, "--json");
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
    assert_int_equal(sscanf(line, "%lf,%31[a-z],%lf,%lf,%lf,%lf", &t, kind, &b1, &b2, &a1, &a2),
                     6);
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
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example4_certified),
      cmocka_unit_test(example3_not_certified),
      cmocka_unit_test(json_and_out),
      cmocka_unit_test(bad_options),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
