// The outputs a researcher loads (issue 16, "Outputs and API without
// traps"), through the real binary: events.csv, the flat table of the
// events, against the paper's Example 2 and a bouncing ball's closed form
// and against events.jsonl, number for number; a trajectory.csv of an
// older zeno read back; human summaries of long runs that stay readable.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_runner.h"

#define BOUNCING_BALL ZENO_SCENES_DIR "/bouncing-ball.yaml"

/// The header of events.csv for two contacts and for one (docs/outputs.md).
#define EVENTS_CSV_HEADER                                                               \
  "index,t,kind,guard,contact,mode_before,mode_after,impact,impulse1n,impulse1t,"       \
  "impulse2n,impulse2t,impact_outcome1,impact_outcome2,zeno_impacts,zeno_ratio,"        \
  "zeno_error,zeno_period,zeno_order,outcome,tie_margin,near_tie,on_section,"           \
  "section_angle,before_z1,before_z2,before_x2,before_z1dot,before_z2dot,before_x2dot," \
  "before_energy,after_z1,after_z2,after_x2,after_z1dot,after_z2dot,after_x2dot,"       \
  "after_energy"
#define EVENTS_CSV_HEADER_ONE_CONTACT                                                  \
  "index,t,kind,guard,contact,mode_before,mode_after,impact,impulse1n,impulse1t,"      \
  "impact_outcome1,zeno_impacts,zeno_ratio,zeno_error,zeno_period,zeno_order,outcome," \
  "tie_margin,near_tie,on_section,section_angle,before_z1,before_x1,before_zod_theta," \
  "before_z1dot,before_x1dot,before_zod_thetadot,before_energy,after_z1,after_x1,"     \
  "after_zod_theta,after_z1dot,after_x1dot,after_zod_thetadot,after_energy"

/// Example 2 (the paper's Table 2, word FF IF PF FI FP IF PF SF II SS):
/// its events, the section angles of its two section impacts (paper:
/// 0.948 and -0.524) and where it rests (x2 = 14.87).
#define EX2_EVENTS 7
#define EX2_SECTION_1 0.948
#define EX2_SECTION_2 (-0.524)
#define EX2_SECTION_TOL 0.002
#define EX2_REST_X2 14.87
#define EX2_REST_X2_TOL 0.01
/// The ball: dropped from 1 under 9.81 with e = 0.8, its bounces
/// accumulate at sqrt(2 / 9.81) (1 + e) / (1 - e) (docs/scenes.md).
#define BALL_H 1.0
#define BALL_G 9.81
#define BALL_E 0.8
#define BALL_ZENO_TOL 1e-9

/// Longest line or field these tests read.
#define LINE_SIZE 4096

/* ---- reading the CSV ----------------------------------------------------- */

/// Piece k (0-based) of text cut at `separator`, into out.
static void piece(const char *text, char separator, int k, char out[LINE_SIZE]) {
  const char *p = text;
  for (int i = 0; i < k; i++) {
    p = strchr(p, separator);
    assert_non_null(p);
    p++;
  }
  const char stop[] = {separator, '\n', '\0'};
  const size_t n = strcspn(p, stop);
  assert_true(n < LINE_SIZE);
  memcpy(out, p, n);
  out[n] = '\0';
}

static int count_char(const char *text, char c) {
  int n = 0;
  for (; *text; text++) n += *text == c;
  return n;
}

/// Line k (0: the header) of text, without its newline.
static void csv_line(const char *text, int k, char out[LINE_SIZE]) {
  piece(text, '\n', k, out);
  assert_true(out[0] != '\0');
}

static int csv_count_lines(const char *text) { return count_char(text, '\n'); }

/// Field `column` (0-based) of a line without quoted fields.
static void csv_field(const char *line, int column, char out[LINE_SIZE]) {
  assert_null(strchr(line, '"'));
  piece(line, ',', column, out);
}

static int csv_fields(const char *line) { return 1 + count_char(line, ','); }

/// Column of `name` in the header line.
static int csv_column(const char *header, const char *name) {
  char field[LINE_SIZE];
  for (int c = 0; c < csv_fields(header); c++) {
    csv_field(header, c, field);
    if (strcmp(field, name) == 0) return c;
  }
  fail_msg("no column %s", name);
  return -1;
}

/// The field of column `name` on data line `row` (1-based).
static const char *field_of(const char *text, int row, const char *name, char out[LINE_SIZE]) {
  char header[LINE_SIZE], line[LINE_SIZE];
  csv_line(text, 0, header);
  csv_line(text, row, line);
  csv_field(line, csv_column(header, name), out);
  return out;
}

/// The text of a top-level JSON number or literal member ("t": 1.5) of a
/// line of events.jsonl: the first occurrence of the key (top-level
/// members come before the nested states').
static void json_member_text(const char *line, const char *key, char out[LINE_SIZE]) {
  char quoted[64];
  snprintf(quoted, sizeof quoted, "\"%s\": ", key);
  const char *p = strstr(line, quoted);
  assert_non_null(p);
  p += strlen(quoted);
  const size_t n = strcspn(p, ",}");
  memcpy(out, p, n);
  out[n] = '\0';
}

/* ---- running ------------------------------------------------------------- */

/// A run directory of `zeno simulate SCENE --out DIR` and its files.
typedef struct run_files {
  work_dir dir;
  char *events_csv, *events_jsonl;
} run_files;

static void simulate_into(run_files *r, const char *scene) {
  work_dir_create(&r->dir, "outputs");
  char run[PATH_SIZE], path[PATH_SIZE];
  work_path(&r->dir, "run", run);
  assert_int_equal(run_zeno("simulate", scene, "--out", run, "--quiet"), 0);
  work_path(&r->dir, "run/events.csv", path);
  r->events_csv = read_file(path);
  work_path(&r->dir, "run/events.jsonl", path);
  r->events_jsonl = read_file(path);
  assert_non_null(r->events_csv);
  assert_non_null(r->events_jsonl);
  remove_simulate_out(run);
  work_dir_remove(&r->dir, (const char *const[]){NULL}, "run");
}

static void run_files_free(run_files *r) {
  free(r->events_csv);
  free(r->events_jsonl);
}

/* ---- events.csv ---------------------------------------------------------- */

/// Column `name` of every data row, joined with '|': "start|impact|...".
static void column_values(const char *text, const char *name, char out[LINE_SIZE]) {
  out[0] = '\0';
  char field[LINE_SIZE];
  for (int row = 1; row < csv_count_lines(text); row++) {
    field_of(text, row, name, field);
    strcat(out, row > 1 ? "|" : "");
    strcat(out, field);
  }
}

static void assert_column(const char *text, const char *name, const char *expected) {
  char values[LINE_SIZE];
  column_values(text, name, values);
  if (strcmp(values, expected) != 0)
    fail_msg("column %s: '%s', expected '%s'", name, values, expected);
}

/// The table's header is `header` and every row has its fields; returns
/// the number of rows.
static int assert_table(const char *csv, const char *header) {
  char line[LINE_SIZE];
  csv_line(csv, 0, line);
  assert_string_equal(line, header);
  const int rows = csv_count_lines(csv) - 1;
  for (int row = 1; row <= rows; row++) {
    csv_line(csv, row, line);
    assert_int_equal(csv_fields(line), csv_fields(header));
  }
  return rows;
}

// Example 2's events as one flat row each: the header as documented, the
// sequence of the paper's word (kinds, impacts, modes, the contacts whose
// guards fired, how each impact left its contacts), the section angles of
// the paper and the rest point; empty cells where an event has no such
// field; and every number the same text as in events.jsonl.
static void events_csv_of_example2(void **state) {
  (void)state;
  run_files r;
  simulate_into(&r, EXAMPLE2);
  const char *csv = r.events_csv;
  char field[LINE_SIZE];
  assert_int_equal(assert_table(csv, EVENTS_CSV_HEADER), EX2_EVENTS);
  assert_column(csv, "index", "0|1|2|3|4|5|6");
  assert_column(csv, "kind", "start|impact|impact|impact|transition|impact|end");
  assert_column(csv, "guard", "none|gap|gap|gap|slip-velocity|gap|none");
  assert_column(csv, "contact", "|1|2|1|1|2|");  // 1-based as in events.jsonl
  assert_column(csv, "mode_before", "FF|FF|PF|FP|PF|SF|SS");
  assert_column(csv, "mode_after", "FF|PF|FP|PF|SF|SS|SS");
  assert_column(csv, "impact", "|IF|FI|IF||II|");
  assert_column(csv, "impact_outcome1", "|P||P||S|");
  assert_column(csv, "impact_outcome2", "||P|||S|");
  assert_column(csv, "outcome", "||||||rest");
  assert_column(csv, "on_section", "false|false|true|false|false|true|false");
  assert_column(csv, "near_tie", "false|false|false|false|false|false|false");
  assert_column(csv, "zeno_ratio", "||||||");
  assert_true(fabs(atof(field_of(csv, 3, "section_angle", field)) - EX2_SECTION_1) <=
              EX2_SECTION_TOL);
  assert_true(fabs(atof(field_of(csv, 6, "section_angle", field)) - EX2_SECTION_2) <=
              EX2_SECTION_TOL);
  assert_true(fabs(atof(field_of(csv, 7, "after_x2", field)) - EX2_REST_X2) <= EX2_REST_X2_TOL);
  // The numbers are those of events.jsonl, digit for digit.
  static const char *const SAME[] = {"t", "tie_margin", "section_angle"};
  for (int row = 1; row <= EX2_EVENTS; row++) {
    char json[LINE_SIZE], text[LINE_SIZE];
    csv_line(r.events_jsonl, row - 1, json);
    for (size_t k = 0; k < sizeof SAME / sizeof *SAME; k++) {
      field_of(csv, row, SAME[k], field);
      if (field[0] == '\0' && strstr(json, "\"section_angle\"") == NULL) continue;
      json_member_text(json, SAME[k], text);
      if (strcmp(field, text) != 0)
        fail_msg("event %d %s: csv '%s', jsonl '%s'", row - 1, SAME[k], field, text);
    }
  }
  run_files_free(&r);
}

// Each contact's impulse has its own columns: an impact reaches the
// contacts its name says.
static void events_csv_impulses(void **state) {
  (void)state;
  run_files r;
  simulate_into(&r, EXAMPLE2);
  char field[LINE_SIZE];
  // IF (row 2) reaches contact 1 only, FI (row 3) contact 2 only.
  assert_string_equal(field_of(r.events_csv, 2, "impulse2n", field), "0");
  assert_true(atof(field_of(r.events_csv, 2, "impulse1n", field)) > 0);
  assert_string_equal(field_of(r.events_csv, 3, "impulse1n", field), "0");
  assert_true(atof(field_of(r.events_csv, 3, "impulse2n", field)) > 0);
  run_files_free(&r);
}

// A one-contact scene has its own header (no second impulse, q' named z1,
// x1, zod_theta); the ZENO event of the bouncing ball sits at the closed
// form's accumulation time and alone fills the zeno_* fields.
static void events_csv_of_a_ball(void **state) {
  (void)state;
  run_files r;
  simulate_into(&r, BOUNCING_BALL);
  const char *csv = r.events_csv;
  char field[LINE_SIZE];
  const int rows = assert_table(csv, EVENTS_CSV_HEADER_ONE_CONTACT);
  int zeno_row = 0;
  for (int row = 1; row <= rows; row++) {
    const bool zeno = strcmp(field_of(csv, row, "kind", field), "zeno") == 0;
    if (zeno) zeno_row = row;
    assert_int_equal(field_of(csv, row, "zeno_impacts", field)[0] != '\0', zeno);
    assert_int_equal(field_of(csv, row, "zeno_order", field)[0] != '\0', zeno);
  }
  assert_true(zeno_row > 0);
  const double t_zeno = sqrt(2 * BALL_H / BALL_G) * (1 + BALL_E) / (1 - BALL_E);
  assert_true(fabs(atof(field_of(csv, zeno_row, "t", field)) - t_zeno) <= BALL_ZENO_TOL * t_zeno);
  assert_true(atoi(field_of(csv, zeno_row, "zeno_impacts", field)) > 0);
  assert_string_equal(field_of(csv, rows, "outcome", field), "rest");
  run_files_free(&r);
}

/* ---- trajectory.csv read back --------------------------------------------- */

/// The header and a row of trajectory.csv as zeno wrote them before rows
/// said what they are (no kind and event columns).
#define OLD_TRAJECTORY                                                        \
  "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t\n" \
  "0,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0\n"
/// Column just after that header.
#define OLD_HEADER_END 72
/// Exit status for bad input.
#define EXIT_BAD_INPUT 2

// A run directory of an older zeno is bad input to plot-trajectory: one
// line naming the file, where its header ends, what is missing and what to
// do; a run of this zeno draws.
static void old_trajectory_is_named(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "old-run");
  char csv[PATH_SIZE], png[PATH_SIZE], where[2 * PATH_SIZE];
  work_path(&w, "trajectory.csv", csv);
  work_path(&w, "x.png", png);
  FILE *f = fopen(csv, "w");
  assert_non_null(f);
  fputs(OLD_TRAJECTORY, f);
  assert_int_equal(fclose(f), 0);
  run_result r = run_zeno_captured("plot-trajectory", w.root, "--plot", png);
  assert_int_equal(r.exit_code, EXIT_BAD_INPUT);
  snprintf(where, sizeof where, "%s:1:%d: ", csv, OLD_HEADER_END);
  if (strstr(r.err, where) == NULL || strchr(r.err, '\n') != r.err + strlen(r.err) - 1)
    fail_msg("not one line at %s: %s", where, r.err);
  assert_non_null(strstr(r.err, "written by an older zeno: the columns kind and event"));
  assert_non_null(strstr(r.err, "run 'zeno simulate SCENE --out DIR' again"));
  assert_int_equal(access(png, F_OK), -1);
  run_result_free(&r);
  // Written again by this zeno, the directory draws.
  unlink(csv);
  assert_int_equal(run_zeno("simulate", EXAMPLE2, "--out", w.root, "--quiet"), 0);
  assert_int_equal(run_zeno("plot-trajectory", w.root, "--plot", png), 0);
  assert_int_equal(access(png, F_OK), 0);
  remove_simulate_out(w.root);
  work_dir_remove(&w, (const char *const[]){"x.png", NULL}, NULL);
}

/* ---- human summaries ------------------------------------------------------ */

/// Example 2 under Newton's law with e = 0.8 chatters: its mode word has
/// about 2000 tokens (a line of 6 KB in the summary before abbreviation).
#define LONG_WORD_SETTINGS "impact.law=newton", "--set", "impact.e=0.8"
/// The longest summary line allowed: the word line abbreviated is about
/// 130 characters, the longest fixed line (energy gained) 120.
#define SUMMARY_LINE_MAX 160
/// Tokens of a long word shown at each end (src/cli/cmd_simulate.c).
#define WORD_TOKENS_SHOWN 10
/// Section angles shown on each of the first and last lines.
#define SECTIONS_PER_LINE 6
/// Width of a summary's labels (the values start in this column + 1).
#define LABEL_WIDTH 24

static size_t longest_line(const char *text) {
  size_t longest = 0;
  for (const char *p = text; *p;) {
    const size_t n = strcspn(p, "\n");
    if (n > longest) longest = n;
    p += n + (p[n] == '\n');
  }
  return longest;
}

/// The string member `key` of a JSON object (no escapes in it), new.
static char *json_string(const char *json, const char *key) {
  char quoted[64];
  snprintf(quoted, sizeof quoted, "\"%s\": \"", key);
  const char *p = strstr(json, quoted);
  assert_non_null(p);
  p += strlen(quoted);
  return strndup(p, strcspn(p, "\""));
}

/// Entries of the array member `key` of numbers.
static size_t json_array_length(const char *json, const char *key) {
  char quoted[64];
  snprintf(quoted, sizeof quoted, "\"%s\": [", key);
  const char *p = strstr(json, quoted);
  assert_non_null(p);
  p += strlen(quoted);
  if (*p == ']') return 0;
  size_t n = 1;
  for (; *p != ']'; p++) n += *p == ',';
  return n;
}

static size_t word_tokens(const char *word) {
  size_t n = word[0] != '\0';
  for (; *word; word++) n += *word == ' ';
  return n;
}

/// The first `n` tokens of a word and its last `n` ("A B C").
static char *first_tokens(const char *word, int n) {
  const char *end = word;
  for (int k = 0; k < n; k++) end = strchr(end, ' ') + 1;
  return strndup(word, (size_t)(end - word - 1));
}

static const char *last_tokens(const char *word, int n) {
  const char *p = word + strlen(word);
  for (int k = 0; k < n; k++) {
    if (k > 0) p--;
    while (p > word && p[-1] != ' ') p--;
  }
  return p;
}

// The human summary of a chattering run stays a few lines of terminal
// width: the word shows its first and last tokens around their count, and
// count and tokens are those of the whole word the JSON keeps.
static void long_word_is_abbreviated(void **state) {
  (void)state;
  run_result human = run_zeno_captured("simulate", EXAMPLE2, "--set", LONG_WORD_SETTINGS);
  run_result json = run_zeno_captured("simulate", EXAMPLE2, "--set", LONG_WORD_SETTINGS, "--json");
  assert_int_equal(human.exit_code, 0);
  assert_int_equal(json.exit_code, 0);
  char *word = json_string(json.out, "word");
  const size_t tokens = word_tokens(word);
  assert_true(tokens > 1000);
  if (longest_line(human.out) > SUMMARY_LINE_MAX)
    fail_msg("a line of %zu characters", longest_line(human.out));
  char *head = first_tokens(word, WORD_TOKENS_SHOWN), expected[LINE_SIZE];
  snprintf(expected, sizeof expected, "%s ... (%zu tokens; --json has the whole word) %s\n", head,
           tokens, last_tokens(word, WORD_TOKENS_SHOWN));
  if (strstr(human.out, expected) == NULL) fail_msg("expected '%s' in:\n%s", expected, human.out);
  free(head);
  free(word);
  run_result_free(&human);
  run_result_free(&json);
}

// Example 3's 36 section angles: the first and the last line of six and
// their count; Example 2's word of 10 tokens and its two angles whole; a
// one-contact run's final q' named for what it holds.
static void long_section_list_is_abbreviated(void **state) {
  (void)state;
  run_result human = run_zeno_captured("simulate", EXAMPLE3_ZENO);
  run_result json = run_zeno_captured("simulate", EXAMPLE3_ZENO, "--json");
  assert_int_equal(human.exit_code, 0);
  const size_t sections = json_array_length(json.out, "sections");
  assert_true(sections > 2 * SECTIONS_PER_LINE);
  char expected[LINE_SIZE];
  snprintf(expected, sizeof expected, ",\n%*s... (%zu angles; --json lists all)\n", LABEL_WIDTH, "",
           sections);
  if (strstr(human.out, expected) == NULL) fail_msg("expected '%s' in:\n%s", expected, human.out);
  const char *list = strstr(human.out, "section angles [rad]");
  assert_non_null(list);
  int commas = 0;  // 5 within each line of 6, one at the end of the first
  for (const char *p = list; *p && strncmp(p, "final", 5) != 0; p++) commas += *p == ',';
  assert_int_equal(commas, 2 * (SECTIONS_PER_LINE - 1) + 1);
  run_result_free(&human);
  run_result_free(&json);
  run_result short_run = run_zeno_captured("simulate", EXAMPLE2);
  assert_non_null(strstr(short_run.out, "modes                   FF IF PF FI FP IF PF SF II SS\n"));
  assert_non_null(strstr(short_run.out, "section angles [rad]    0.947647, -0.523599\n"));
  run_result_free(&short_run);
  // One contact: q' is (z1, x1, theta), and the summary says so.
  run_result ball = run_zeno_captured("simulate", BOUNCING_BALL);
  assert_non_null(strstr(ball.out, "\nfinal q' (z1, x1, th)   ("));
  run_result_free(&ball);
}

// What a summary number is: the ZOD's pose is marked linearised, with its
// units (Example 3's -114.583 rad is no 18 turns); a full-model run from
// q' gives its final time on the ZOD's scale, t / eps, beside its own.
static void summary_says_what_numbers_are(void **state) {
  (void)state;
  run_result zod = run_zeno_captured("simulate", EXAMPLE3_ZENO);
  assert_int_equal(zod.exit_code, 0);
  assert_non_null(strstr(zod.out, ") [length, length, rad], linearised on the ZOD's scale\n"));
  assert_null(strstr(zod.out, "final time / eps"));
  run_result_free(&zod);
  run_result full = run_zeno_captured("simulate", EXAMPLE3_ZENO, "--model", "full", "--eps",
                                      "1e-3");
  assert_int_equal(full.exit_code, 0);
  const char *t = strstr(full.out, "\nfinal time              ");
  const char *scaled = strstr(full.out, "\nfinal time / eps        ");
  assert_non_null(t);
  assert_non_null(scaled);
  const double t_full = strtod(t + 25, NULL), t_zod = strtod(scaled + 25, NULL);
  assert_true(fabs(t_zod - t_full / 1e-3) <= 1e-5 * t_zod);  // both printed to 6 digits
  assert_true(fabs(t_zod - 60.5351) < 0.1);                  // near the ZOD's own rest time
  assert_null(strstr(full.out, "linearised"));
  run_result_free(&full);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(events_csv_of_example2),
      cmocka_unit_test(events_csv_impulses),
      cmocka_unit_test(events_csv_of_a_ball),
      cmocka_unit_test(old_trajectory_is_named),
      cmocka_unit_test(long_word_is_abbreviated),
      cmocka_unit_test(summary_says_what_numbers_are),
      cmocka_unit_test(long_section_list_is_abbreviated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
