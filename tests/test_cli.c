// End-to-end tests of the `zeno` program: runs the real binary with stdin
// from /dev/null and stdout/stderr captured in temporary files, and checks
// exit codes, JSON output, output files and error lines.
#include <errno.h>
#include <fcntl.h>
#include <math.h>
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

#define BOUNCING_BALL ZENO_SCENES_DIR "/bouncing-ball.yaml"
#define EXAMPLE4 ZENO_SCENES_DIR "/example4.yaml"

/// Nesting deeper than this is not expected in zeno's JSON.
#define JSON_MAX_DEPTH 32
/// Digits of a \u escape.
#define JSON_UNICODE_DIGITS 4
/// Fields of a trajectory.csv row: two contacts, and one (no f2n, f2t).
#define TRAJECTORY_COLUMNS 20
#define TRAJECTORY_COLUMNS_ONE_CONTACT 18

/// Exit codes of zeno.
#define EXIT_BAD_INPUT 2
#define EXIT_RUNTIME 1

/// Published numbers (paper Examples 2 and 3) and their tolerances.
#define EX2_REST_X2 14.87
#define EX2_REST_X2_TOL 0.01
#define EX2_PAINLEVE_1 0.846
#define EX2_PAINLEVE_2 0.942
#define EX2_PAINLEVE_TOL 1e-3
#define EX3_PAINLEVE_1 2.12
#define EX3_PAINLEVE_2 6.64
#define EX3_PAINLEVE_TOL 1e-2
/// Stability (paper Secs. 6-7, Examples 3-5): Example 3's fixed point of R
/// near -0.70 with G > 1 (Theorem 2), Example 4's G <= 0.22 (Theorem 3),
/// Example 2's R undefined below -0.38 and constant -0.524 around 0.
#define EX3_FIXED_POINT (-0.70)
#define EX3_FIXED_POINT_TOL 0.01
#define EX4_G_MAX 0.22
#define EX2_R_UNDEFINED_BELOW (-0.39)
#define EX2_R_PLATEAU (-0.524)
#define EX2_R_PLATEAU_TOL 0.002
/// Samples for quick maps runs (the default is 6000).
#define QUICK_SAMPLES "1000"

static const char *const MAPS_HEADER = "phi,R,G,word";
static const char *const TRAJECTORY_HEADER =
    "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t,kind,event";
static const char *const TRAJECTORY_HEADER_ONE_CONTACT =
    "t,x,y,theta,vx,vy,omega,z1,x1,zod_theta,z1dot,x1dot,zod_thetadot,mode,f1n,f1t,kind,"
    "event";

/* ---- running the binary -------------------------------------------------- */

/* ---- a small JSON checker ------------------------------------------------ */

static const char *json_value(const char *p, int depth);

static const char *skip_space(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

static const char *json_string(const char *p) {
  if (*p++ != '"') return NULL;
  while (*p != '"') {
    if ((unsigned char)*p < 0x20) return NULL;  // also catches the end
    if (*p++ != '\\') continue;
    if (*p == 'u') {
      for (int i = 1; i <= JSON_UNICODE_DIGITS; i++)
        if (!strchr("0123456789abcdefABCDEF", p[i]) || p[i] == '\0') return NULL;
      p += JSON_UNICODE_DIGITS + 1;
    } else if (*p && strchr("\"\\/bfnrt", *p)) {
      p++;
    } else {
      return NULL;
    }
  }
  return p + 1;
}

static const char *json_digits(const char *p) {
  if (*p < '0' || *p > '9') return NULL;
  while (*p >= '0' && *p <= '9') p++;
  return p;
}

static const char *json_number(const char *p) {
  if (*p == '-') p++;
  if (*p == '0') p++;
  else if ((p = json_digits(p)) == NULL) return NULL;
  if (*p == '.' && (p = json_digits(p + 1)) == NULL) return NULL;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    p = json_digits(p);
  }
  return p;
}

/// Parses "[v, v]" or "{"k": v, ...}" starting at the opening bracket.
static const char *json_container(const char *p, int depth) {
  const char close = *p == '{' ? '}' : ']';
  const bool object = close == '}';
  p = skip_space(p + 1);
  if (*p == close) return p + 1;
  for (;;) {
    if (object) {
      if ((p = json_string(skip_space(p))) == NULL) return NULL;
      p = skip_space(p);
      if (*p++ != ':') return NULL;
    }
    if ((p = json_value(p, depth + 1)) == NULL) return NULL;
    p = skip_space(p);
    if (*p == close) return p + 1;
    if (*p++ != ',') return NULL;
  }
}

static const char *json_value(const char *p, int depth) {
  if (depth > JSON_MAX_DEPTH) return NULL;
  p = skip_space(p);
  if (*p == '{' || *p == '[') return json_container(p, depth);
  if (*p == '"') return json_string(p);
  if (strncmp(p, "true", 4) == 0) return p + 4;
  if (strncmp(p, "false", 5) == 0) return p + 5;
  if (strncmp(p, "null", 4) == 0) return p + 4;
  return json_number(p);
}

/// The text is exactly one JSON object (with surrounding white space).
static bool is_one_json_object(const char *text) {
  const char *p = skip_space(text);
  if (*p != '{') return false;
  p = json_value(p, 0);
  return p != NULL && *skip_space(p) == '\0';
}

/// Position right after `"key":` and white space (n-th occurrence, 0-based).
static const char *json_after_key(const char *text, const char *key, int n) {
  char pattern[PATH_SIZE];
  snprintf(pattern, sizeof pattern, "\"%s\"", key);
  const size_t length = strlen(pattern);
  // The same text can be a value ("kind": "impact"); a key is followed by ':'.
  for (const char *p = strstr(text, pattern); p; p = strstr(p + length, pattern)) {
    const char *after = skip_space(p + length);
    if (*after == ':' && n-- == 0) return skip_space(after + 1);
  }
  return NULL;
}

static double json_number_at(const char *text, const char *key, int n) {
  const char *p = json_after_key(text, key, n);
  assert_non_null(p);
  char *end;
  const double v = strtod(p, &end);
  assert_true(end != p);
  return v;
}

/// Item i of the array of numbers under key.
static double json_array_item(const char *text, const char *key, int i) {
  const char *p = json_after_key(text, key, 0);
  assert_non_null(p);
  assert_int_equal(*p, '[');
  p++;
  for (int k = 0; k < i; k++) {
    p = strchr(p, ',');
    assert_non_null(p);
    p++;
  }
  char *end;
  const double v = strtod(p, &end);
  assert_true(end != p);
  return v;
}

static void assert_json_literal(const char *text, const char *key, const char *literal) {
  const char *p = json_after_key(text, key, 0);
  assert_non_null(p);
  if (strncmp(p, literal, strlen(literal)) != 0)
    fail_msg("\"%s\" is not %s in %s", key, literal, text);
}

/* ---- error-line checks --------------------------------------------------- */

/// Exit 2, nothing on stdout, exactly one line on stderr starting "zeno: ".
static void assert_bad_input(const run_result *r) {
  if (r->exit_code != EXIT_BAD_INPUT || count_lines(r->err) != 1)
    fail_msg("exit %d, stderr: %s", r->exit_code, r->err);
  assert_string_equal(r->out, "");
  assert_int_equal(strncmp(r->err, "zeno: ", strlen("zeno: ")), 0);
}

static void assert_contains(const char *text, const char *part) {
  if (strstr(text, part) == NULL) fail_msg("'%s' not found in: %s", part, text);
}

/// stderr names `path` followed by ":LINE:COLUMN:".
static void assert_file_position(const char *err, const char *path) {
  const char *p = strstr(err, path);
  if (p == NULL) fail_msg("'%s' not in: %s", path, err);
  char *end;
  p += strlen(path);
  assert_int_equal(*p, ':');
  const long line = strtol(p + 1, &end, 10);
  assert_true(end != p + 1 && *end == ':' && line > 0);
  p = end;
  const long column = strtol(p + 1, &end, 10);
  if (end == p + 1 || *end != ':' || column <= 0) fail_msg("no file:line:column in: %s", err);
}

/* ---- scene files for error cases ----------------------------------------- */

/// Writes text to a new temporary file; its path goes to `path`.
static void write_temp_scene(char path[PATH_SIZE], const char *text) {
  const int fd = make_temp_file(path);
  const size_t length = strlen(text);
  assert_int_equal(write(fd, text, length), (ssize_t)length);
  close(fd);
}

/// example2.yaml with the number after the first "key:" replaced by value.
static char *example2_with(const char *key, const char *value) {
  char *text = read_file(EXAMPLE2);
  assert_non_null(text);
  char pattern[PATH_SIZE];
  snprintf(pattern, sizeof pattern, "%s:", key);
  char *p = strstr(text, pattern);
  assert_non_null(p);
  p = (char *)skip_space(p + strlen(pattern));
  const size_t number = strspn(p, "+-.0123456789eE");
  assert_true(number > 0);
  const size_t head = (size_t)(p - text);
  const size_t size = strlen(text) + strlen(value) + 1;
  char *edited = malloc(size);
  assert_non_null(edited);
  snprintf(edited, size, "%.*s%s%s", (int)head, text, value, p + number);
  free(text);
  return edited;
}

/* ---- tests: help and usage ------------------------------------------------ */

static void test_help(void **state) {
  (void)state;
  const char *const flags[] = {"--help", "-h"};
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    run_result r = run_zeno_captured(flags[i]);
    assert_int_equal(r.exit_code, 0);
    assert_contains(r.out, "simulate");
    assert_contains(r.out, "check");
    assert_contains(r.out, "analyze");
    assert_contains(r.out, "maps");
    assert_contains(r.out, "plot-trajectory");
    run_result_free(&r);
  }
}

static void test_version(void **state) {
  (void)state;
  run_result r = run_zeno_captured("--version");
  assert_int_equal(r.exit_code, 0);
  assert_int_equal(strncmp(r.out, "zeno ", strlen("zeno ")), 0);
  run_result_free(&r);
}

static void test_simulate_help(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", "--help");
  assert_int_equal(r.exit_code, 0);
  const char *const options[] = {"--set", "--json",  "--out",        "--model",
                                 "--eps", "--t-end", "--max-events", "--quiet"};
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
    assert_contains(r.out, options[i]);
  run_result_free(&r);
}

static void test_check_help(void **state) {
  (void)state;
  run_result r = run_zeno_captured("check", "--help");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "--set");
  assert_contains(r.out, "--json");
  run_result_free(&r);
}

static void test_unknown_command(void **state) {
  (void)state;
  run_result r = run_zeno_captured("frobnicate");
  assert_bad_input(&r);
  assert_contains(r.err, "frobnicate");
  run_result_free(&r);
  r = run_zeno_argv((const char *const[]){NULL}, true);
  assert_bad_input(&r);
  run_result_free(&r);
}

static void test_unknown_option(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--bogus");
  assert_bad_input(&r);
  assert_contains(r.err, "--bogus");
  run_result_free(&r);
  r = run_zeno_captured("check", "-x", EXAMPLE2);
  assert_bad_input(&r);
  assert_contains(r.err, "-x");
  run_result_free(&r);
}

// "Did you mean": a misspelt command, option or scene key (in a file and in
// --set) is answered with the closest name (one or two edits away); a word
// far from every name gets none.
static void test_did_you_mean(void **state) {
  (void)state;
  char path[PATH_SIZE];
  write_temp_scene(path,
                   "name: x\npaper: {alpah: 45, l1: 1.5, l2: -0.1, h: 0.6, phi1: 80, "
                   "phi2: 40, mu1: 0.6, mu2: 0.001}\n");
  const struct {
    const char *const *argv;
    const char *hint;
  } cases[] = {
      {(const char *const[]){"simulat", EXAMPLE2, NULL}, "did you mean 'simulate'?"},
      {(const char *const[]){"simulate", EXAMPLE2, "--tend", "3", NULL}, "did you mean '--t-end'?"},
      {(const char *const[]){"simulate", EXAMPLE2, "--jsno", NULL}, "did you mean '--json'?"},
      {(const char *const[]){"analyze", EXAMPLE2, "--sampels", "100", NULL},
       "did you mean '--samples'?"},
      {(const char *const[]){"simulate", EXAMPLE2, "--set", "stop.tend=3", NULL},
       "unknown key 'tend' in stop; did you mean 't_end'?"},
      {(const char *const[]){"simulate", path, NULL},
       "unknown key 'alpah' in paper; did you mean 'alpha'?"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    run_result r = run_zeno_argv(cases[k].argv, true);
    assert_bad_input(&r);
    assert_contains(r.err, cases[k].hint);
    run_result_free(&r);
  }
  run_result r = run_zeno_captured("frobnicate");
  assert_true(strstr(r.err, "did you mean") == NULL);
  run_result_free(&r);
  r = run_zeno_captured("simulate", EXAMPLE2, "--bogus");
  assert_true(strstr(r.err, "did you mean") == NULL);
  run_result_free(&r);
  remove(path);
}

// An option that stands for an override is named as typed in its error,
// not as the --set the program made of it; so is a region axis.
static void test_errors_name_the_option_typed(void **state) {
  (void)state;
  const struct {
    const char *const *argv;
    const char *start;
  } cases[] = {
      {(const char *const[]){"simulate", EXAMPLE2, "--model", "bogus", NULL},
       "zeno: --model bogus (model): expected one of zod, full; got 'bogus'"},
      {(const char *const[]){"simulate", EXAMPLE2, "--t-end", "-3", NULL},
       "zeno: --t-end -3 (stop.t_end): value -3 is out of range; allowed (0, inf)"},
      {(const char *const[]){"simulate", EXAMPLE2, "--max-events", "0", NULL},
       "zeno: --max-events 0 (stop.max_events): value 0 is out of range; allowed [1, inf)"},
      {(const char *const[]){"simulate", EXAMPLE2, "--set", "model=bogus", NULL},
       "zeno: --set model=bogus: expected one of zod, full"},
      {(const char *const[]){"regions", ZENO_SCENES_DIR "/example6.yaml", "--x", "com.xx=0:1:3",
                             "--y", "com.y=0:1:3", NULL},
       "zeno: --x com.xx=0:1:3: unknown key 'xx' in com; did you mean 'x'?"},
      {(const char *const[]){"regions", ZENO_SCENES_DIR "/example6.yaml", "--x", "com.x=0:1:3",
                             "--y", "paper.mu1=-1:1:3", NULL},
       "zeno: --y paper.mu1=-1:1:3: value -1 is out of range"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    run_result r = run_zeno_argv(cases[k].argv, true);
    assert_bad_input(&r);
    if (strncmp(r.err, cases[k].start, strlen(cases[k].start)) != 0)
      fail_msg("case %zu: stderr '%s' does not start with '%s'", k, r.err, cases[k].start);
    run_result_free(&r);
  }
}

// `zeno show`: the paper block and the general form it expands to, angles
// in degrees and radians (Example 2's alpha = 65 deg = 1.13446 rad, its
// contact points (l_i, -h)); --yaml writes a scene that loads back to the
// same scene, every value explicit; an angle that looks like radians in a
// degrees field
// is noted with the degrees it would be.
static void test_show(void **state) {
  (void)state;
  run_result r = run_zeno_captured("show", EXAMPLE2);
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "alpha                   65 deg (1.13446 rad)\n");
  assert_contains(r.out,
                  "contact 1               point (-3.5, -1.25) from the centre of mass, mu 0.75\n");
  assert_contains(r.out, "  surface angle         30 deg (0.523599 rad)");
  assert_contains(r.out, "force (0.906308, -0.422618)");
  assert_contains(r.out, "initial                 q' = (1, 1, 0), q'dot = (0, 0, 2)\n");
  assert_true(strstr(r.out, "note") == NULL);
  const char *form = strstr(r.out, "form ");
  assert_non_null(form);
  char first[4096];
  snprintf(first, sizeof first, "%s", form);
  run_result_free(&r);
  // --yaml round trip: the scene reads back the same.
  r = run_zeno_captured("show", EXAMPLE2, "--yaml");
  assert_int_equal(r.exit_code, 0);
  char path[PATH_SIZE];
  write_temp_scene(path, r.out);
  run_result_free(&r);
  r = run_zeno_captured("show", path);
  assert_int_equal(r.exit_code, 0);
  const char *again = strstr(r.out, "form ");
  assert_non_null(again);
  assert_string_equal(again, first);
  run_result_free(&r);
  remove(path);
  r = run_zeno_captured("show", EXAMPLE2, "--set", "paper.phi1=1.3");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out,
                  "note                    paper.phi1 = 1.3 deg is small: scene angles "
                  "are in degrees; if 1.3 was meant in radians, write 74.4845\n");
  run_result_free(&r);
  r = run_zeno_captured("show", EXAMPLE2, "--yml");
  assert_bad_input(&r);
  assert_contains(r.err, "did you mean '--yaml'?");
  run_result_free(&r);
}

static void test_option_needs_value(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--out");
  assert_bad_input(&r);
  assert_contains(r.err, "--out");
  run_result_free(&r);
}

static void test_missing_scene(void **state) {
  (void)state;
  const char *const commands[] = {"simulate", "check"};
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    run_result r = run_zeno_captured(commands[i], "--json");
    assert_bad_input(&r);
    assert_contains(r.err, "SCENE");
    run_result_free(&r);
  }
}

static void test_missing_file(void **state) {
  (void)state;
  const char *path = "/nonexistent-zeno-dir/no-such-scene.yaml";
  run_result r = run_zeno_captured("simulate", path);
  assert_bad_input(&r);
  assert_contains(r.err, path);
  run_result_free(&r);
}

/* ---- tests: scene errors ------------------------------------------------- */

static void test_yaml_syntax_error(void **state) {
  (void)state;
  char path[PATH_SIZE];
  write_temp_scene(path,
                   "name: broken\npaper: {alpha: 65, l1: -3.5\n"
                   "model: zod\n");
  run_result r = run_zeno_captured("simulate", path);
  unlink(path);
  assert_bad_input(&r);
  assert_file_position(r.err, path);
  run_result_free(&r);
}

static void test_unknown_key(void **state) {
  (void)state;
  char *text = read_file(EXAMPLE2);
  assert_non_null(text);
  const size_t size = strlen(text) + PATH_SIZE;
  char *edited = malloc(size);
  assert_non_null(edited);
  snprintf(edited, size, "%s\nno_such_key_xyz: 1\n", text);
  char path[PATH_SIZE];
  write_temp_scene(path, edited);
  free(text);
  free(edited);
  run_result r = run_zeno_captured("simulate", path);
  unlink(path);
  assert_bad_input(&r);
  assert_file_position(r.err, path);
  assert_contains(r.err, "no_such_key_xyz");
  run_result_free(&r);
}

static void test_negative_mu(void **state) {
  (void)state;
  char *edited = example2_with("mu1", "-0.5");
  char path[PATH_SIZE];
  write_temp_scene(path, edited);
  free(edited);
  run_result r = run_zeno_captured("simulate", path);
  unlink(path);
  assert_bad_input(&r);
  assert_contains(r.err, path);
  assert_contains(r.err, "mu1");
  if (!strstr(r.err, ">= 0") && !strstr(r.err, "[0")) fail_msg("no allowed range in: %s", r.err);
  run_result_free(&r);
}

static void test_set_type_error(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--set", "paper.alpha=abc");
  assert_bad_input(&r);
  assert_contains(r.err, "paper.alpha");
  run_result_free(&r);
}

static void test_set_range_error(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--max-events", "0");
  assert_bad_input(&r);
  assert_contains(r.err, "stop.max_events");
  run_result_free(&r);
  r = run_zeno_captured("simulate", EXAMPLE2, "--model", "quantum");
  assert_bad_input(&r);
  assert_contains(r.err, "model");
  run_result_free(&r);
}

/// A paper block (Example 2) for the malformed-scene classes below.
#define EX2_PAPER                                                        \
  "paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, " \
  "mu1: 0.75, mu2: 0.6, rho: 1, m: 1, f: 1, tau: 0}\n"
/// Two flat contacts of the general form; %s is the second contact's point.
#define GENERAL_BODY "body: {mass: 1, rho: 1}\nload: {magnitude: 1, angle: 0}\n"

typedef struct malformed_case {
  const char *text;
  const char *part;  ///< the error line names this (parameter, code word)
} malformed_case;

/// Sixteen floor contacts at x = 0..15 (a scene's most, ZENO_MAX_CONTACTS).
#define FLOOR_CONTACT(x) "{point: [" #x ", -1], surface: {angle: 0}, mu: 1}, "
// clang-format off
#define FLOOR_CONTACTS_16 \
  FLOOR_CONTACT(0) FLOOR_CONTACT(1) FLOOR_CONTACT(2) FLOOR_CONTACT(3) FLOOR_CONTACT(4) \
  FLOOR_CONTACT(5) FLOOR_CONTACT(6) FLOOR_CONTACT(7) FLOOR_CONTACT(8) FLOOR_CONTACT(9) \
  FLOOR_CONTACT(10) FLOOR_CONTACT(11) FLOOR_CONTACT(12) FLOOR_CONTACT(13) \
  FLOOR_CONTACT(14) FLOOR_CONTACT(15)
// clang-format on

// One scene per malformed-input class of docs/scenes.md (syntax,
// unknown-key, missing, type, range, geometry), including the hostile forms
// the fuzzer exercises: non-finite and overflowing numbers, control
// characters, bytes that are not UTF-8, aliases, a second document.
static const malformed_case MALFORMED[] = {
    {"name: [unclosed\n", "flow"},
    {"name: a\n---\nname: b\n", "document"},
    {"a: &x 1\nname: *x\n", "alias"},
    {"name: a\nname: b\n", "name"},
    {"name: a\n\tmodel: zod\n", ":"},
    {"name: \x01\n", "control"},
    {"name: \xff\xfe\n", ":"},
    {"- 1\n- 2\n", "mapping"},
    {"no_such: 1\n", "no_such"},
    {EX2_PAPER "contacts: []\n", "conflicts"},
    {"paper: {alpha: 65}\n", "missing"},
    {GENERAL_BODY "contacts: [{point: [0, -1], surface: {angle: 0}}]\n", "missing key 'mu'"},
    {"model: [zod]\n", "model"},
    {"model: quantum\n", "quantum"},
    {"paper: {alpha: x}\n", "paper.alpha"},
    {"initial: {qp: [1, 2]}\n", "initial.qp"},
    {"paper: {alpha: .nan, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, "
     "mu1: 0.75, mu2: 0.6, rho: 1, m: 1, f: 1, tau: 0}\n",
     "paper.alpha"},
    {EX2_PAPER "initial: {qp: [.inf, 1, 0], qdp: [0, 0, 1]}\n", "initial.qp"},
    {EX2_PAPER "stop: {t_end: 1e400}\n", "stop.t_end"},
    {EX2_PAPER "initial: {qp: [1, 1, 0], qdp: [0, 0, 1e31]}\n", "initial.qdp"},
    {"paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, "
     "mu1: 0.75, mu2: 0.6, rho: 1, m: 1e-40, f: 1, tau: 0}\n",
     "paper.m"},
    {EX2_PAPER "initial: {qp: [-1, 1, 0], qdp: [0, 0, 1]}\n", "initial.qp"},
    {EX2_PAPER "stop: {max_events: 99999999999999999999999}\n", "max_events"},
    {EX2_PAPER "body: {outline: [[0, 0], [1, 0]]}\n", "body.outline"},
    {GENERAL_BODY "contacts: [" FLOOR_CONTACTS_16
                  "{point: [16, -1], surface: {angle: 0}, mu: 1}]\n",
     "17 contacts given; allowed 1 to 16"},
    {GENERAL_BODY "contacts: [{point: [0, -1], surface: {angle: 0}, mu: 1}, "
                  "{point: [0, -1], surface: {angle: 0}, mu: 1}]\n",
     "coincide"},
    {GENERAL_BODY "contacts: [{point: [0, -1], surface: {angle: 0, point: "
                  "[0, 0]}, mu: 1}, {point: [1, -1], surface: {angle: 0}, "
                  "mu: 1}]\n",
     "surface"},
};

// Every class: exit 2, one line naming file:line:column, for each command
// that reads a scene.
static void test_malformed_scene_classes(void **state) {
  (void)state;
  const char *const commands[] = {"simulate", "check", "analyze"};
  for (size_t k = 0; k < sizeof MALFORMED / sizeof *MALFORMED; k++) {
    char path[PATH_SIZE];
    write_temp_scene(path, MALFORMED[k].text);
    for (size_t c = 0; c < sizeof commands / sizeof *commands; c++) {
      run_result r = run_zeno_captured(commands[c], path);
      if (r.exit_code != EXIT_BAD_INPUT)
        fail_msg("case %zu (%s) %s: exit %d, stderr: %s", k, MALFORMED[k].part, commands[c],
                 r.exit_code, r.err);
      assert_bad_input(&r);
      assert_file_position(r.err, path);
      assert_contains(r.err, MALFORMED[k].part);
      run_result_free(&r);
    }
    unlink(path);
  }
  // A directory opens but cannot be read as a scene.
  run_result r = run_zeno_captured("simulate", ZENO_SCENES_DIR);
  assert_bad_input(&r);
  assert_contains(r.err, "cannot read");
  run_result_free(&r);
}

/* ---- tests: scenes of more than two contacts ------------------------------ */

#define BOX_IN_A_CORNER ZENO_SCENES_DIR "/box-in-a-corner.yaml"

// Every command that runs the two-contact engine or its analysis refuses a
// three-contact scene: exit 2, one line naming the count and what takes it.
static void test_three_contacts_refused(void **state) {
  (void)state;
  const char *const runs[][12] = {
      {"analyze", BOX_IN_A_CORNER, NULL},
      {"maps", BOX_IN_A_CORNER, NULL},
      {"certify", BOX_IN_A_CORNER, NULL},
  };
  for (size_t k = 0; k < sizeof runs / sizeof *runs; k++) {
    run_result r = run_zeno_argv(runs[k], true);
    if (r.exit_code != EXIT_BAD_INPUT) fail_msg("%s: exit %d: %s", runs[k][0], r.exit_code, r.err);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err,
                        "zeno: contacts: the scene has 3 contacts; the analysis, maps and "
                        "certificates take 1 or 2 contacts today ('zeno check', 'simulate', "
                        "'view', 'sweep' and 'regions' take up to 16)\n");
    run_result_free(&r);
  }
}

// `zeno simulate` runs a three-contact scene under the ZOD (the N-contact
// engine): the box let go off its corner, tilted, falls, strikes the wall
// and the floor and rests in the corner. The JSON is format version 2
// (q''s coordinate names, the contact count); the text names q''s
// coordinates. The full model runs it too (the same word); --out writes the run directory in format version 2, which `zeno
// replay` verifies and draws.
static void test_three_contacts_simulated(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", BOX_IN_A_CORNER, "--json", "--set",
                                   "initial.pose=[0.01, 0.02, 0.01]");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  assert_json_literal(r.out, "status", "\"rest\"");
  assert_json_literal(r.out, "word", "\"FFF FFI FFP IFF NFF IIF NNF FII FNN FSS\"");
  assert_json_literal(r.out, "zod_names", "[\"z1\", \"z2\", \"z3\"]");
  assert_json_literal(r.out, "format_version", "2");
  assert_json_literal(r.out, "contact_count", "3");
  // At rest jammed between the wall and the right floor corner: both
  // closed (z2 = z3 = 0), the left corner lifted (z1 > 0).
  assert_true(json_array_item(r.out, "final_zod", 0) > 0);
  assert_true(json_array_item(r.out, "final_zod", 1) == 0);
  assert_true(json_array_item(r.out, "final_zod", 2) == 0);
  run_result_free(&r);
  r = run_zeno_captured("simulate", BOX_IN_A_CORNER, "--set", "initial.pose=[0.01, 0.02, 0.01]");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_contains(r.out, "final q' (z1, z2, z3)");
  run_result_free(&r);
  // The full model: the same word, at rest on its exact contacts.
  r = run_zeno_captured("simulate", BOX_IN_A_CORNER, "--json", "--model", "full", "--set",
                        "initial.pose=[0.01, 0.02, 0.01]");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_json_literal(r.out, "status", "\"rest\"");
  assert_json_literal(r.out, "word", "\"FFF FFI FFP IFF NFF IIF NNF FII FNN FSS\"");
  assert_true(json_array_item(r.out, "final_zod", 0) > 0);
  assert_true(fabs(json_array_item(r.out, "final_zod", 1)) < 1e-15);
  assert_true(fabs(json_array_item(r.out, "final_zod", 2)) < 1e-15);
  run_result_free(&r);
  // --out writes format version 2: q''s names in the header, a force pair
  // per contact; `zeno replay` verifies and reads it back.
  char root[PATH_SIZE / 2], nested[PATH_SIZE], trajectory[PATH_SIZE + 32];
  snprintf(root, sizeof root, "%s/zeno-n-XXXXXX", temp_dir());
  assert_non_null(mkdtemp(root));
  snprintf(nested, sizeof nested, "%s/run", root);
  r = run_zeno_captured("simulate", BOX_IN_A_CORNER, "--set", "initial.pose=[0.01, 0.02, 0.01]",
                        "--out", nested, "-q");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  run_result_free(&r);
  snprintf(trajectory, sizeof trajectory, "%s/trajectory.csv", nested);
  char *text = read_file_bytes(trajectory, NULL);
  assert_non_null(text);
  const char header[] =
      "t,x,y,theta,vx,vy,omega,z1,z2,z3,z1dot,z2dot,z3dot,mode,f1n,f1t,f2n,"
      "f2t,f3n,f3t,kind,event\n";
  assert_int_equal(strncmp(text, header, strlen(header)), 0);
  free(text);
  char shot[PATH_SIZE + 32];
  snprintf(shot, sizeof shot, "%s/box.png", root);
  r = run_zeno_captured("replay", nested, "--screenshot", shot);
  if (r.exit_code != 0) fail_msg("replay: exit %d: %s", r.exit_code, r.err);
  run_result_free(&r);
  remove(shot);
  remove_simulate_out(nested);
  rmdir(nested);
  rmdir(root);
}

/* ---- tests: simulate ----------------------------------------------------- */

static void test_simulate_example2_json(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--json");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  assert_json_literal(r.out, "status", "\"rest\"");
  assert_json_literal(r.out, "word", "\"FF IF PF FI FP IF PF SF II SS\"");
  assert_json_literal(r.out, "model", "\"zod\"");
  assert_json_literal(r.out, "zeno_time", "null");
  assert_json_literal(r.out, "consistent_modes", "[]");
  assert_true(fabs(json_array_item(r.out, "final_zod", 2) - EX2_REST_X2) < EX2_REST_X2_TOL);
  assert_string_equal(r.err, "");
  run_result_free(&r);
}

static void test_simulate_human(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_contains(r.out, "rest");
  assert_contains(r.out, "FF IF PF FI FP IF PF SF II SS");
  assert_contains(r.out, "14.8");
  run_result_free(&r);
}

static void test_simulate_quiet(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--quiet");
  assert_int_equal(r.exit_code, 0);
  assert_string_equal(r.out, "");
  run_result_free(&r);
}

static void test_simulate_all_scenes_json(void **state) {
  (void)state;
  const char *const scenes[] = {EXAMPLE2, EXAMPLE3_ZENO, BOUNCING_BALL};
  for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
    run_result r = run_zeno_captured("simulate", scenes[i], "--json");
    if (r.exit_code != 0) fail_msg("%s: exit %d: %s", scenes[i], r.exit_code, r.err);
    if (!is_one_json_object(r.out)) fail_msg("%s: not JSON: %s", scenes[i], r.out);
    run_result_free(&r);
  }
}

static void test_json_escapes_scene_name(void **state) {
  (void)state;
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--json", "--set",
                                   "name='say \"hi\" \\ ok'");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  assert_json_literal(r.out, "scene", "\"say \\\"hi\\\" \\\\ ok\"");
  run_result_free(&r);
}

/* ---- tests: --out -------------------------------------------------------- */

typedef struct out_dir {
  char root[PATH_SIZE / 4];    ///< mkdtemp directory
  char nested[PATH_SIZE / 2];  ///< root/run/a: created by zeno (mkdir -p)
  char trajectory[PATH_SIZE];
  char events[PATH_SIZE];
} out_dir;

static void out_dir_create(out_dir *d) {
  snprintf(d->root, sizeof d->root, "%s/zeno-out-XXXXXX", temp_dir());
  assert_non_null(mkdtemp(d->root));
  snprintf(d->nested, sizeof d->nested, "%s/run/a", d->root);
  snprintf(d->trajectory, sizeof d->trajectory, "%s/trajectory.csv", d->nested);
  snprintf(d->events, sizeof d->events, "%s/events.jsonl", d->nested);
}

static void out_dir_remove(const out_dir *d) {
  char run[PATH_SIZE];
  snprintf(run, sizeof run, "%s/run", d->root);
  remove_simulate_out(d->nested);
  rmdir(d->nested);
  rmdir(run);
  rmdir(d->root);
}

/// Every line of the events file is one JSON object; returns the count.
static long check_event_lines(char *text) {
  long lines = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (!is_one_json_object(line)) fail_msg("bad event line: %s", line);
    lines++;
  }
  return lines;
}

/// Header exactly as documented; every row has the same number of fields.
static void check_trajectory(const char *text, const char *expected, int columns) {
  const size_t header = strlen(expected);
  assert_int_equal(strncmp(text, expected, header), 0);
  assert_int_equal(text[header], '\n');
  long rows = 0;
  for (const char *p = text + header + 1; *p; rows++) {
    int fields = 1;
    for (; *p && *p != '\n'; p++) fields += *p == ',';
    assert_int_equal(fields, columns);
    if (*p) p++;
  }
  assert_true(rows >= 2);
}

/// A copy of the first (or the last) line of the events text whose "kind"
/// is "impact"; NULL when there is none. The caller frees it.
static char *impact_line(const char *events, bool last) {
  static const char IMPACT_KIND[] = "\"impact\"";
  char *found = NULL;
  for (const char *line = events; *line && (last || found == NULL);) {
    const size_t length = strcspn(line, "\n");
    char *copy = strndup(line, length);
    assert_non_null(copy);
    const char *kind = json_after_key(copy, "kind", 0);
    if (kind && strncmp(kind, IMPACT_KIND, strlen(IMPACT_KIND)) == 0) {
      free(found);
      found = copy;
    } else {
      free(copy);
    }
    line += length + (line[length] == '\n');
  }
  return found;
}

/// Example 2's impacts: the first (IF) leaves contact 1 slipping forward
/// (the next mode is PF); the last (II) sticks both contacts: the body stops.
static void check_example2_impact_outcomes(const char *events) {
  char *first = impact_line(events, false);
  char *last = impact_line(events, true);
  assert_non_null(first);
  assert_non_null(last);
  assert_json_literal(first, "impact", "\"IF\"");
  assert_json_literal(first, "mode_after", "\"PF\"");
  assert_json_literal(first, "impact_outcome", "[\"P\", null]");
  assert_json_literal(last, "impact", "\"II\"");
  assert_json_literal(last, "impact_outcome", "[\"S\", \"S\"]");
  free(first);
  free(last);
}

/// A one-contact scene's impacts list one letter: ["S"], ["P"] or ["N"].
static void check_one_contact_impact_outcome(const char *events) {
  static const char OPEN[] = "[\"", CLOSE[] = "\"]";
  char *first = impact_line(events, false);
  assert_non_null(first);
  const char *p = json_after_key(first, "impact_outcome", 0);
  assert_non_null(p);
  const char *letter = p + strlen(OPEN);
  if (strncmp(p, OPEN, strlen(OPEN)) != 0 || *letter == '\0' || strchr("SPN", *letter) == NULL ||
      strncmp(letter + 1, CLOSE, strlen(CLOSE)) != 0)
    fail_msg("impact_outcome is not one letter: %s", p);
  free(first);
}

static void test_simulate_out(void **state) {
  (void)state;
  out_dir d;
  out_dir_create(&d);
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--out", d.nested);
  run_result j = run_zeno_captured("simulate", EXAMPLE2, "--json");
  char *trajectory = read_file(d.trajectory);
  char *events = read_file(d.events);
  out_dir_remove(&d);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_int_equal(j.exit_code, 0);
  assert_non_null(trajectory);
  assert_non_null(events);
  check_trajectory(trajectory, TRAJECTORY_HEADER, TRAJECTORY_COLUMNS);
  check_example2_impact_outcomes(events);  // before strtok splits the text
  const long lines = check_event_lines(events);
  assert_int_equal(lines, (long)json_number_at(j.out, "events", 0));
  free(trajectory);
  free(events);
  run_result_free(&r);
  run_result_free(&j);
}

static void test_simulate_out_one_contact(void **state) {
  (void)state;
  out_dir d;
  out_dir_create(&d);
  run_result r = run_zeno_captured("simulate", BOUNCING_BALL, "--out", d.nested, "--quiet");
  char *trajectory = read_file(d.trajectory);
  char *events = read_file(d.events);
  out_dir_remove(&d);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_non_null(trajectory);
  assert_non_null(events);
  check_trajectory(trajectory, TRAJECTORY_HEADER_ONE_CONTACT, TRAJECTORY_COLUMNS_ONE_CONTACT);
  check_one_contact_impact_outcome(events);
  assert_true(check_event_lines(events) >= 2);
  free(trajectory);
  free(events);
  run_result_free(&r);
}

static void test_out_not_creatable(void **state) {
  (void)state;
  char file[PATH_SIZE], below[PATH_SIZE + 8];
  close(make_temp_file(file));
  snprintf(below, sizeof below, "%s/sub", file);  // a directory under a file
  run_result r = run_zeno_captured("simulate", EXAMPLE2, "--out", below);
  unlink(file);
  assert_int_equal(r.exit_code, EXIT_RUNTIME);
  assert_int_equal(count_lines(r.err), 1);
  assert_contains(r.err, below);
  run_result_free(&r);
}

/* ---- tests: check -------------------------------------------------------- */

static void assert_painleve(const char *json, double bound1, double bound2, double tol) {
  const double b1 = json_number_at(json, "bound", 0);
  const double b2 = json_number_at(json, "bound", 1);
  if (fabs(b1 - bound1) > tol || fabs(b2 - bound2) > tol)
    fail_msg("Painleve bounds %g, %g; expected %g, %g", b1, b2, bound1, bound2);
}

static void test_check_example2(void **state) {
  (void)state;
  run_result r = run_zeno_captured("check", EXAMPLE2, "--json");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  assert_json_literal(r.out, "feasible", "true");
  assert_painleve(r.out, EX2_PAINLEVE_1, EX2_PAINLEVE_2, EX2_PAINLEVE_TOL);
  run_result_free(&r);
}

static void test_check_example3(void **state) {
  (void)state;
  run_result r = run_zeno_captured("check", EXAMPLE3_ZENO, "--json");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  assert_painleve(r.out, EX3_PAINLEVE_1, EX3_PAINLEVE_2, EX3_PAINLEVE_TOL);
  run_result_free(&r);
}

static void test_check_human(void **state) {
  (void)state;
  run_result r = run_zeno_captured("check", EXAMPLE2);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_contains(r.out, "feasible");
  assert_contains(r.out, "0.846");
  assert_contains(r.out, "0.9418");  // 0.94182 (the paper rounds to 0.942)
  run_result_free(&r);
}

/* ---- tests: analyze, maps, plot-trajectory ------------------------------- */

static void test_analyze_maps_help(void **state) {
  (void)state;
  const char *const analyze_options[] = {"--set",   "--json",    "--plot",
                                         "--graph", "--samples", "--partition"};
  run_result r = run_zeno_captured("analyze", "--help");
  assert_int_equal(r.exit_code, 0);
  for (size_t i = 0; i < sizeof analyze_options / sizeof analyze_options[0]; i++)
    assert_contains(r.out, analyze_options[i]);
  run_result_free(&r);
  const char *const maps_options[] = {"--set", "--samples", "--csv", "--plot"};
  r = run_zeno_captured("maps", "--help");
  assert_int_equal(r.exit_code, 0);
  for (size_t i = 0; i < sizeof maps_options / sizeof maps_options[0]; i++)
    assert_contains(r.out, maps_options[i]);
  run_result_free(&r);
  r = run_zeno_captured("plot-trajectory", "--help");
  assert_int_equal(r.exit_code, 0);
  assert_contains(r.out, "--plot");
  run_result_free(&r);
}

/// Runs `zeno analyze SCENE --json` and checks it is one JSON object.
static run_result analyze_json(const char *scene) {
  run_result r = run_zeno_captured("analyze", scene, "--json");
  if (r.exit_code != 0) fail_msg("%s: exit %d: %s", scene, r.exit_code, r.err);
  if (!is_one_json_object(r.out)) fail_msg("not one JSON object: %s", r.out);
  return r;
}

static void test_analyze_example2(void **state) {
  (void)state;
  run_result r = analyze_json(EXAMPLE2);
  assert_json_literal(r.out, "verdict", "\"stable\"");
  assert_json_literal(r.out, "theorem", "4");
  assert_json_literal(r.out, "region", "3");
  assert_json_literal(r.out, "persistent", "true");
  assert_json_literal(r.out, "feasible", "true");
  assert_json_literal(r.out, "swapped", "false");
  assert_json_literal(r.out, "G_minus", "null");  // R undefined near -pi/2
  assert_painleve(r.out, EX2_PAINLEVE_1, EX2_PAINLEVE_2, EX2_PAINLEVE_TOL);
  // The merged partition alternates classes and contains an unsafe interval.
  assert_json_literal(r.out, "safe", "true");
  assert_json_literal(r.out, "partition", "[{\"lo\": ");
  assert_true(strstr(r.out, "\"safe\": false") != NULL);
  assert_string_equal(r.err, "");
  run_result_free(&r);
}

/// Index of the fixed point within tol of phi (-1 when none).
static int fixed_point_near(const char *json, double phi, double tol) {
  for (int n = 0; json_after_key(json, "phi", n); n++)
    if (fabs(json_number_at(json, "phi", n) - phi) < tol) return n;
  return -1;
}

static void test_analyze_example3(void **state) {
  (void)state;
  run_result r = analyze_json(EXAMPLE3_ZENO);
  assert_json_literal(r.out, "verdict", "\"unstable\"");
  assert_json_literal(r.out, "theorem", "2");
  assert_json_literal(r.out, "partition", "[]");
  const int k = fixed_point_near(r.out, EX3_FIXED_POINT, EX3_FIXED_POINT_TOL);
  if (k < 0) fail_msg("no fixed point near %g: %s", EX3_FIXED_POINT, r.out);
  assert_true(json_number_at(r.out, "G", k) > 1);
  assert_painleve(r.out, EX3_PAINLEVE_1, EX3_PAINLEVE_2, EX3_PAINLEVE_TOL);
  run_result_free(&r);
}

static void test_analyze_example4(void **state) {
  (void)state;
  run_result r = analyze_json(EXAMPLE4);
  assert_json_literal(r.out, "verdict", "\"stable\"");
  assert_json_literal(r.out, "theorem", "3");
  assert_json_literal(r.out, "region", "2");
  assert_true(json_number_at(r.out, "G_max", 0) <= EX4_G_MAX);
  run_result_free(&r);
}

static void test_analyze_human(void **state) {
  (void)state;
  run_result r = run_zeno_captured("analyze", EXAMPLE2);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_contains(r.out, "stable (Theorem 4)");
  assert_contains(r.out, "partition (merged)");
  assert_contains(r.out, "unsafe");
  assert_contains(r.out, "0.846");
  run_result_free(&r);
}

static void test_analyze_bad_options(void **state) {
  (void)state;
  const char *const cases[][3] = {
      {"--samples", "abc", "--samples"},      {"--samples", "8", "--samples"},
      {"--partition", "1", "--partition"},    {"--partition", "9x", "--partition"},
      {"--plot", "figure.gif", "figure.gif"}, {"--graph", "graph", "graph"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    run_result r = run_zeno_captured("analyze", EXAMPLE2, cases[i][0], cases[i][1]);
    assert_bad_input(&r);
    assert_contains(r.err, cases[i][2]);
    run_result_free(&r);
  }
  run_result r = run_zeno_captured("analyze", EXAMPLE2, "--bogus");
  assert_bad_input(&r);
  run_result_free(&r);
  r = run_zeno_captured("analyze", BOUNCING_BALL);  // one contact: no Poincare section
  assert_bad_input(&r);
  run_result_free(&r);
}

/// The CSV row (0-based, after the header) whose phi is nearest `phi`;
/// its fields go to *row_phi, *R, *G (NAN when empty).
static void maps_row_near(const char *csv, double phi, double *row_phi, double *R, double *G) {
  double best = INFINITY;
  for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
    char *end;
    const double v = strtod(p + 1, &end);
    if (fabs(v - phi) >= best) continue;
    best = fabs(v - phi);
    *row_phi = v;
    *R = end[1] == ',' ? NAN : strtod(end + 1, &end);
    *G = end[1] == ',' ? NAN : strtod(end + 1, &end);
  }
}

/// Every row with phi below `limit` has empty R and G; returns the rows.
static long check_maps_rows(const char *csv, double limit) {
  long rows = 0;
  for (const char *p = strchr(csv, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
    char *end;
    const double phi = strtod(p + 1, &end);
    assert_true(end != p + 1 && *end == ',');
    if (phi < limit && strncmp(end, ",,,", 3) != 0) fail_msg("R or G defined at phi = %g", phi);
    rows++;
  }
  return rows;
}

static void test_maps_csv(void **state) {
  (void)state;
  run_result r = run_zeno_captured("maps", EXAMPLE2, "--csv", "-");
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  const size_t header = strlen(MAPS_HEADER);
  assert_int_equal(strncmp(r.out, MAPS_HEADER, header), 0);
  assert_int_equal(r.out[header], '\n');
  assert_true(check_maps_rows(r.out, EX2_R_UNDEFINED_BELOW) >= 6000);
  double phi = NAN, R = NAN, G = NAN;
  maps_row_near(r.out, 0.0, &phi, &R, &G);
  assert_true(fabs(phi) < 1e-3);
  if (!(fabs(R - EX2_R_PLATEAU) < EX2_R_PLATEAU_TOL))
    fail_msg("R(%g) = %g, expected %g", phi, R, EX2_R_PLATEAU);
  assert_true(G > 0);
  run_result_free(&r);
}

static void test_maps_summary_and_errors(void **state) {
  (void)state;
  run_result r = run_zeno_captured("maps", EXAMPLE3_ZENO, "--samples", QUICK_SAMPLES);
  if (r.exit_code != 0) fail_msg("exit %d: %s", r.exit_code, r.err);
  assert_contains(r.out, "breakpoints");
  assert_contains(r.out, "-0.698");  // Example 3's fixed point
  assert_contains(r.out, "G- / G+");
  run_result_free(&r);
  r = run_zeno_captured("maps", EXAMPLE2, "--samples", "0");
  assert_bad_input(&r);
  run_result_free(&r);
  r = run_zeno_captured("maps", EXAMPLE2, "--plot", "maps.jpg");
  assert_bad_input(&r);
  run_result_free(&r);
  r = run_zeno_captured("maps", "--csv", "-");
  assert_bad_input(&r);
  assert_contains(r.err, "SCENE");
  run_result_free(&r);
  r = run_zeno_captured("maps", "/nonexistent-zeno-dir/scene.yaml");
  assert_bad_input(&r);
  run_result_free(&r);
  // --threads: the samples shared out, the same CSV on 1 and 3 threads;
  // out of range is one line naming the option and its range.
  run_result one = run_zeno_captured("maps", EXAMPLE2, "--samples", QUICK_SAMPLES, "--csv", "-",
                                     "--threads", "1");
  run_result three = run_zeno_captured("maps", EXAMPLE2, "--samples", QUICK_SAMPLES, "--csv", "-",
                                       "--threads", "3");
  assert_int_equal(one.exit_code, 0);
  assert_int_equal(three.exit_code, 0);
  assert_true(count_lines(one.out) > 100);
  assert_string_equal(one.out, three.out);
  run_result_free(&one);
  run_result_free(&three);
  const char *bad[] = {"0", "257", "two"};
  for (int k = 0; k < 3; k++) {
    r = run_zeno_captured("analyze", EXAMPLE2, "--threads", bad[k]);
    assert_bad_input(&r);
    assert_int_equal(count_lines(r.err), 1);
    assert_contains(r.err, "--threads");
    assert_contains(r.err, "[1, 256]");
    run_result_free(&r);
  }
}

static void test_maps_csv_not_writable(void **state) {
  (void)state;
  run_result r = run_zeno_captured("maps", EXAMPLE2, "--samples", QUICK_SAMPLES, "--csv",
                                   "/nonexistent-zeno-dir/maps.csv");
  assert_int_equal(r.exit_code, EXIT_RUNTIME);
  assert_int_equal(count_lines(r.err), 1);
  assert_contains(r.err, "/nonexistent-zeno-dir/maps.csv");
  run_result_free(&r);
  r = run_zeno_captured("analyze", EXAMPLE2, "--samples", QUICK_SAMPLES, "--plot",
                        "/nonexistent-zeno-dir/maps.png");
  assert_int_equal(r.exit_code, EXIT_RUNTIME);
  assert_contains(r.err, "/nonexistent-zeno-dir/maps.png");
  run_result_free(&r);
}

static void test_plot_trajectory_errors(void **state) {
  (void)state;
  run_result r = run_zeno_captured("plot-trajectory", "/nonexistent-zeno-dir");
  assert_bad_input(&r);
  assert_contains(r.err, "--plot");
  run_result_free(&r);
  r = run_zeno_captured("plot-trajectory", "/nonexistent-zeno-dir", "--plot", "t.png");
  assert_bad_input(&r);
  assert_contains(r.err, "trajectory.csv");
  run_result_free(&r);
  r = run_zeno_captured("plot-trajectory", "--plot", "t.png");
  assert_bad_input(&r);
  assert_contains(r.err, "DIR");
  run_result_free(&r);
}

static int setup_environment(void **state) {
  (void)state;
  return setenv("CI", "true", 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_help),
      cmocka_unit_test(test_version),
      cmocka_unit_test(test_simulate_help),
      cmocka_unit_test(test_check_help),
      cmocka_unit_test(test_unknown_command),
      cmocka_unit_test(test_unknown_option),
      cmocka_unit_test(test_did_you_mean),
      cmocka_unit_test(test_show),
      cmocka_unit_test(test_errors_name_the_option_typed),
      cmocka_unit_test(test_option_needs_value),
      cmocka_unit_test(test_missing_scene),
      cmocka_unit_test(test_missing_file),
      cmocka_unit_test(test_yaml_syntax_error),
      cmocka_unit_test(test_unknown_key),
      cmocka_unit_test(test_negative_mu),
      cmocka_unit_test(test_set_type_error),
      cmocka_unit_test(test_set_range_error),
      cmocka_unit_test(test_malformed_scene_classes),
      cmocka_unit_test(test_simulate_example2_json),
      cmocka_unit_test(test_simulate_human),
      cmocka_unit_test(test_simulate_quiet),
      cmocka_unit_test(test_simulate_all_scenes_json),
      cmocka_unit_test(test_json_escapes_scene_name),
      cmocka_unit_test(test_simulate_out),
      cmocka_unit_test(test_simulate_out_one_contact),
      cmocka_unit_test(test_three_contacts_refused),
      cmocka_unit_test(test_three_contacts_simulated),
      cmocka_unit_test(test_out_not_creatable),
      cmocka_unit_test(test_check_example2),
      cmocka_unit_test(test_check_example3),
      cmocka_unit_test(test_check_human),
      cmocka_unit_test(test_analyze_maps_help),
      cmocka_unit_test(test_analyze_example2),
      cmocka_unit_test(test_analyze_example3),
      cmocka_unit_test(test_analyze_example4),
      cmocka_unit_test(test_analyze_human),
      cmocka_unit_test(test_analyze_bad_options),
      cmocka_unit_test(test_maps_csv),
      cmocka_unit_test(test_maps_summary_and_errors),
      cmocka_unit_test(test_maps_csv_not_writable),
      cmocka_unit_test(test_plot_trajectory_errors),
  };
  return cmocka_run_group_tests(tests, setup_environment, NULL);
}
