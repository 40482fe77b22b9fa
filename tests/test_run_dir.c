// The run directory (zeno/run_dir.h) through the public API: the sampling
// rule, the writer and the reader agreeing bit for bit with the in-memory
// recording, the scene kept beside the run, and every error the reader and
// the writer report, with its file, line and column.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

/// Sampling interval of the recorded runs [time] (Example 2 lasts 17.2).
#define SAMPLE_DT 0.5
/// Room for a temporary directory, and for paths in it.
#define DIR_LEN 256
#define PATH_LEN 512

/// A fresh temporary directory.
static void temp_dir_make(char *dir) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, DIR_LEN, "%s/zeno-run-dir-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  assert_non_null(mkdtemp(dir));
}

static void path_in(const char *dir, const char *name, char *path) {
  snprintf(path, PATH_LEN, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static void remove_dir(const char *dir) {
  static const char *const NAMES[] = {ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                      ZENO_RUN_DIR_SCENE, ZENO_RUN_DIR_OVERRIDES,
                                      "t.csv", "e.jsonl", "blocker", NULL};
  char path[PATH_LEN];
  for (const char *const *n = NAMES; *n; n++) {
    path_in(dir, *n, path);
    unlink(path);
  }
  rmdir(dir);
}

static zeno_scene example2_scene(void) {
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load(ZENO_SCENES_DIR "/example2.yaml", NULL, 0, &s, &e) != ZENO_OK)
    fail_msg("%s", e.message);
  s.sample_dt = SAMPLE_DT;
  return s;
}

/// Runs Example 2 in a model, recording it in memory and writing it into
/// dir, with the whole history kept or not.
static void record_and_write_with(const char *dir, zeno_run_dir_data *data,
                                  zeno_model model, bool keep_history) {
  zeno_scene s = example2_scene();
  s.model = model;
  // The full model's Example 2 rests at 0.0172: 172 samples at 1e-4.
  if (model == ZENO_MODEL_FULL) s.sample_dt = 1e-4;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = keep_history;
  zeno_error e;
  zeno_sim *sim = zeno_sim_create(&s, &def, &e);
  assert_non_null(sim);
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(dir, &s, &e);
  assert_non_null(w);
  memset(data, 0, sizeof *data);
  data->contact_count = 2;
  zeno_event ev;
  zeno_status st;
  while ((st = zeno_sim_next_event(sim, &ev, &e)) == ZENO_OK) {
    assert_int_equal(zeno_run_dir_record(data, sim, &ev, &e), ZENO_OK);
    assert_int_equal(zeno_run_dir_writer_event(w, sim, &ev, &e), ZENO_OK);
  }
  assert_int_equal(st, ZENO_DONE);
  assert_int_equal(zeno_run_dir_writer_skipped(w), data->skipped_samples);
  assert_int_equal(zeno_run_dir_writer_close(w, &e), ZENO_OK);
  zeno_sim_destroy(sim);
}

static void record_and_write(const char *dir, zeno_run_dir_data *data) {
  record_and_write_with(dir, data, ZENO_MODEL_ZOD, true);
}

/// Two rows hold the same numbers, bit for bit, and the same mode.
static void assert_rows_equal(const zeno_run_dir_row *a, const zeno_run_dir_row *b) {
  assert_true(a->t == b->t);
  assert_memory_equal(a->q, b->q, sizeof a->q);
  assert_memory_equal(a->qdot, b->qdot, sizeof a->qdot);
  assert_memory_equal(a->zod, b->zod, sizeof a->zod);
  assert_memory_equal(a->zod_rate, b->zod_rate, sizeof a->zod_rate);
  assert_memory_equal(&a->mode, &b->mode, sizeof a->mode);
  assert_memory_equal(a->force, b->force, sizeof a->force);
}

// The rows are the multiples of sample_dt strictly between consecutive
// events, then the states before and after each event; written and read
// back, rows and events equal the recording bit for bit (%.17g).
static void recording_writing_reading_agree(void **state) {
  (void)state;
  char dir[DIR_LEN];
  temp_dir_make(dir);
  zeno_run_dir_data mine, back = {0};
  record_and_write(dir, &mine);
  zeno_error e;
  assert_int_equal(zeno_run_dir_read(dir, &back, &e), ZENO_OK);
  assert_int_equal(back.contact_count, 2);  // from the first row's mode
  // Example 2: 7 events (the paper's word FF IF PF FI FP IF PF SF II SS).
  assert_int_equal(mine.event_count, 7);
  size_t samples = 0;
  for (size_t i = 1; i < mine.event_count; i++) {
    const double a = mine.events[i - 1].t, b = mine.events[i].t;
    for (double k = ceil(a / SAMPLE_DT); k * SAMPLE_DT < b; k++)
      if (k * SAMPLE_DT > a) samples++;
  }
  assert_int_equal(mine.skipped_samples, 0);
  assert_int_equal(mine.row_count, samples + 2 * mine.event_count);
  assert_true(samples >= 30);  // 17.2 s at 0.5 s
  assert_int_equal(back.row_count, mine.row_count);
  for (size_t i = 0; i < mine.row_count; i++) assert_rows_equal(&back.rows[i], &mine.rows[i]);
  assert_int_equal(back.event_count, mine.event_count);
  for (size_t i = 0; i < mine.event_count; i++) {
    const zeno_run_dir_event *a = &mine.events[i], *b = &back.events[i];
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->guard, b->guard);
    assert_int_equal(a->contact, b->contact);
    assert_true(a->t == b->t);
    assert_memory_equal(&a->mode_before, &b->mode_before, sizeof a->mode_before);
    assert_memory_equal(&a->mode_after, &b->mode_after, sizeof a->mode_after);
    assert_int_equal(a->impact_mask, b->impact_mask);
    assert_memory_equal(a->impulse, b->impulse, sizeof a->impulse);
    assert_int_equal(a->outcome, b->outcome);
  }
  assert_int_equal(back.events[6].outcome, ZENO_OUTCOME_REST);
  zeno_run_dir_data_free(&mine);
  zeno_run_dir_data_free(&back);
  zeno_run_dir_data_free(NULL);
  remove_dir(dir);
}

// Without keep_history a simulator keeps the segments since the previous
// event only (memory that does not grow with the run); sampled as the
// events come, the recording is the same, bit for bit, in both models
// (the full model's dense output comes from CVODE's kept steps).
static void bounded_history_records_the_same(void **state) {
  (void)state;
  for (int m = 0; m < 2; m++) {
    const zeno_model model = m ? ZENO_MODEL_FULL : ZENO_MODEL_ZOD;
    char dir[DIR_LEN];
    zeno_run_dir_data all, bounded;
    temp_dir_make(dir);
    record_and_write_with(dir, &all, model, true);
    remove_dir(dir);
    temp_dir_make(dir);
    record_and_write_with(dir, &bounded, model, false);
    remove_dir(dir);
    assert_int_equal(bounded.event_count, all.event_count);
    assert_int_equal(bounded.row_count, all.row_count);
    assert_true(all.row_count > 2 * all.event_count);  // samples between events
    for (size_t i = 0; i < all.row_count; i++)
      assert_rows_equal(&bounded.rows[i], &all.rows[i]);
    zeno_run_dir_data_free(&all);
    zeno_run_dir_data_free(&bounded);
  }
}

// The scene is read whole before it is written, so a scene file inside the
// run directory itself survives; the overrides come back in order, blank
// lines left out, and a run without overrides.txt has none (ZENO_DONE).
static void scene_and_overrides(void **state) {
  (void)state;
  char dir[DIR_LEN], scene[PATH_LEN];
  temp_dir_make(dir);
  path_in(dir, ZENO_RUN_DIR_SCENE, scene);
  char *original = NULL;
  {
    FILE *f = fopen(ZENO_SCENES_DIR "/example2.yaml", "rb");
    assert_non_null(f);
    original = calloc(1, 1 << 16);
    assert_non_null(original);
    assert_true(fread(original, 1, (1 << 16) - 1, f) > 100);
    fclose(f);
  }
  write_text(scene, original);
  char **list = NULL;
  size_t count = 1;
  zeno_error e;
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_DONE);
  assert_null(list);
  assert_int_equal(count, 0);
  const zeno_scene s = example2_scene();
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(dir, &s, &e);
  assert_non_null(w);
  const char *overrides[] = {"paper.mu1=0.5", "initial.qdp=[0, 0, 1]"};
  // The run reads its scene once, from inside the run directory itself.
  char *text = NULL;
  size_t length = 0;
  assert_int_equal(zeno_scene_read_file(scene, &text, &length, &e), ZENO_OK);
  assert_int_equal(length, strlen(original));
  assert_int_equal(zeno_run_dir_writer_save_scene(w, text, length, overrides, 2, &e), ZENO_OK);
  free(text);
  assert_int_equal(zeno_run_dir_writer_close(w, &e), ZENO_OK);
  FILE *f = fopen(scene, "rb");
  assert_non_null(f);
  char *kept = calloc(1, 1 << 16);
  assert_non_null(kept);
  assert_true(fread(kept, 1, (1 << 16) - 1, f) > 100);
  fclose(f);
  assert_string_equal(kept, original);
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_OK);
  assert_int_equal(count, 2);
  assert_string_equal(list[0], "paper.mu1=0.5");
  assert_string_equal(list[1], "initial.qdp=[0, 0, 1]");
  zeno_run_dir_overrides_free(list, count);
  char path[PATH_LEN];
  path_in(dir, ZENO_RUN_DIR_OVERRIDES, path);
  write_text(path, "\na=1\n\nb=2");
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_OK);
  assert_int_equal(count, 2);
  assert_string_equal(list[1], "b=2");
  zeno_run_dir_overrides_free(list, count);
  // What replay applies is checked line by line.
  write_text(path, "a=1\nnot an override\n");
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_ERR_SYNTAX);
  assert_int_equal(e.line, 2);
  assert_string_equal(e.file, path);
  assert_non_null(strstr(e.message, "not an override"));
  write_text(path, "name=\"a\x1b[2Jb\"\n");
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_ERR_SYNTAX);
  assert_int_equal(e.line, 1);
  char *long_line = malloc(ZENO_RUN_DIR_OVERRIDE_MAX + 8);
  assert_non_null(long_line);
  memset(long_line, 'a', ZENO_RUN_DIR_OVERRIDE_MAX + 6);
  memcpy(long_line, "name=", 5);
  long_line[ZENO_RUN_DIR_OVERRIDE_MAX + 6] = '\0';
  write_text(path, long_line);
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_ERR_SYNTAX);
  free(long_line);
  zeno_run_dir_overrides_free(NULL, 0);
  free(original);
  free(kept);
  remove_dir(dir);
}

// Links planted in the run directory are replaced, never written through:
// every file is written aside and renamed into place.
static void links_are_never_followed(void **state) {
  (void)state;
  char dir[DIR_LEN], victim[PATH_LEN], link[PATH_LEN];
  temp_dir_make(dir);
  path_in(dir, "blocker", victim);  // a file the links point at
  write_text(victim, "precious\n");
  static const char *const NAMES[] = {ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                      ZENO_RUN_DIR_SCENE, ZENO_RUN_DIR_OVERRIDES};
  for (size_t i = 0; i < 4; i++) {
    path_in(dir, NAMES[i], link);
    assert_int_equal(symlink(victim, link), 0);
  }
  zeno_run_dir_data data;
  record_and_write(dir, &data);
  zeno_run_dir_data_free(&data);
  char *text = NULL;
  zeno_error e;
  assert_int_equal(zeno_scene_read_file(victim, &text, NULL, &e), ZENO_OK);
  assert_string_equal(text, "precious\n");
  free(text);
  path_in(dir, ZENO_RUN_DIR_TRAJECTORY, link);
  struct stat info;
  assert_int_equal(lstat(link, &info), 0);
  assert_true(S_ISREG(info.st_mode));
  assert_true(info.st_size > 1000);
  remove_dir(dir);
}

/// Reads `text` as a trajectory (or as events) and expects an error at
/// line:column naming `part`.
static void expect_read_error(bool events, const char *text, zeno_status code, int line,
                              int column, const char *part) {
  char dir[DIR_LEN], path[PATH_LEN];
  temp_dir_make(dir);
  path_in(dir, events ? "e.jsonl" : "t.csv", path);
  write_text(path, text);
  zeno_run_dir_data d = {.contact_count = events ? 2 : 0};
  zeno_error e;
  const zeno_status st = events ? zeno_run_dir_read_events(path, &d, &e)
                                : zeno_run_dir_read_trajectory(path, &d, &e);
  if (st != code || strstr(e.message, part) == NULL || e.line != line ||
      (column > 0 && e.column != column))
    fail_msg("got %s at %d:%d: %s; expected '%s' at %d:%d", zeno_status_name(st), e.line,
             e.column, e.message, part, line, column);
  assert_string_equal(e.file, path);
  char formatted[1024];
  zeno_error_format(&e, formatted, sizeof formatted);
  assert_non_null(strstr(formatted, path));
  zeno_run_dir_data_free(&d);
  remove_dir(dir);
}

#define ROW_HEAD ZENO_IO_TRAJECTORY_HEADER "\n"
/// A valid row (t = 1, mode FF) and one at t = 0.5.
#define ROW_T1 "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0\n"
#define ROW_T05 "0.5,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0\n"

static void trajectory_errors(void **state) {
  (void)state;
  expect_read_error(false, "", ZENO_ERR_SYNTAX, 0, 0, "empty file: no trajectory header");
  expect_read_error(false, "t,x,y\n" ROW_T1, ZENO_ERR_SYNTAX, 1, 1,
                    "not a trajectory written by 'zeno simulate --out'");
  expect_read_error(false, ROW_HEAD, ZENO_ERR_SYNTAX, 1, 0, "no rows");
  // Column 5: the fourth number is not one.
  expect_read_error(false, ROW_HEAD "1,0,0,x,0,0,0,1,1,0,0,0,2,FF,0,0,0,0\n",
                    ZENO_ERR_SYNTAX, 2, 7, "a number is expected");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FX,0,0,0,0\n",
                    ZENO_ERR_SYNTAX, 2, 27, "'FX' is not a mode of the run");
  expect_read_error(false, ROW_HEAD ROW_T1 "1,0,0,0,0,0,0,1,1,0,0,0,2,F,0,0,0,0\n",
                    ZENO_ERR_SYNTAX, 3, 0, "'F' is not a mode of the run");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,7\n",
                    ZENO_ERR_SYNTAX, 2, 0, "the row goes on after f2t");
  expect_read_error(false, ROW_HEAD ROW_T1 ROW_T05, ZENO_ERR_SYNTAX, 3, 1,
                    "time going back");
  zeno_run_dir_data d = {0};
  zeno_error e;
  assert_int_equal(zeno_run_dir_read_trajectory("/nonexistent-zeno/t.csv", &d, &e),
                   ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "cannot read '/nonexistent-zeno/t.csv'"));
  assert_int_equal(zeno_run_dir_read_trajectory(NULL, &d, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_read_trajectory("x", NULL, &e), ZENO_ERR_ARGUMENT);
}

/// An event line with `extra` members after the required ones.
#define EVENT(kind, extra)                                                              \
  "{\"index\": 0, \"t\": 1.5, \"kind\": \"" kind "\", \"mode_before\": \"FF\", "        \
  "\"mode_after\": \"SF\", \"impact\": null, \"impulse\": [[0, 0], [0, 0]]" extra "}\n"

static void events_errors(void **state) {
  (void)state;
  expect_read_error(true, "", ZENO_ERR_SYNTAX, 0, 0, "no events");
  expect_read_error(true, "[1, 2]\n", ZENO_ERR_SYNTAX, 1, 0, "not one JSON object");
  expect_read_error(true, "{\"index\": 0,\n", ZENO_ERR_SYNTAX, 1, 0, "not one JSON object");
  expect_read_error(true, "{\"index\": 0}\n", ZENO_ERR_SYNTAX, 1, 0,
                    "event without member \"t\"");
  expect_read_error(true, EVENT("bounce", ""), ZENO_ERR_SYNTAX, 1, 0, "unknown kind");
  expect_read_error(true, EVENT("end", ""), ZENO_ERR_SYNTAX, 1, 0,
                    "event without member \"outcome\"");
  expect_read_error(true, EVENT("end", ", \"outcome\": \"nowhere\""), ZENO_ERR_SYNTAX, 1, 0,
                    "unknown outcome");
  expect_read_error(true,
                    "{\"index\": 0, \"t\": 1, \"kind\": \"start\", \"mode_before\": \"FF\", "
                    "\"mode_after\": \"SF\", \"impact\": null, \"impulse\": [[0, 0]]}\n",
                    ZENO_ERR_SYNTAX, 1, 0, "not one [n, t] pair per contact");
  // An index beyond any count of events (a cast of 1e308 to long is
  // undefined behaviour) or not a whole number is refused.
  expect_read_error(true,
                    "{\"index\": 1e308, \"t\": 1.5, \"kind\": \"start\", \"mode_before\": \"FF\", "
                    "\"mode_after\": \"SF\", \"impact\": null, \"impulse\": [[0, 0], [0, 0]]}\n",
                    ZENO_ERR_SYNTAX, 1, 0, "member \"index\" is not an event index");
  expect_read_error(true,
                    "{\"index\": -1, \"t\": 1.5, \"kind\": \"start\", \"mode_before\": \"FF\", "
                    "\"mode_after\": \"SF\", \"impact\": null, \"impulse\": [[0, 0], [0, 0]]}\n",
                    ZENO_ERR_SYNTAX, 1, 0, "member \"index\" is not an event index");
  expect_read_error(true, EVENT("start", "") "{\"index\": 1.5, \"t\": 2}\n", ZENO_ERR_SYNTAX,
                    2, 0, "event without member \"kind\"");
  // Members in another order and spacing, and nested members of the same
  // name (the states' "t"-less objects) are no obstacle; a null time is NaN.
  char dir[DIR_LEN], path[PATH_LEN];
  temp_dir_make(dir);
  path_in(dir, "e.jsonl", path);
  write_text(path,
             "{ \"impulse\" : [ [0.25,-0.5] , [0, 0] ],\"before\": {\"q\": [1, 2], "
             "\"kind\": \"end\"}, \"impact\":\"IF\",\"mode_after\":\"SF\" , "
             "\"guard\": \"gap\", \"contact\": 1, \"mode_before\":\"FF\",\"kind\":"
             "\"impact\",\"t\":null,\"index\":3 }\n");
  zeno_run_dir_data d = {.contact_count = 2};
  zeno_error e;
  assert_int_equal(zeno_run_dir_read_events(path, &d, &e), ZENO_OK);
  assert_int_equal(d.event_count, 1);
  const zeno_run_dir_event *ev = &d.events[0];
  assert_int_equal(ev->index, 3);
  assert_int_equal(ev->kind, ZENO_EVENT_IMPACT);
  assert_int_equal(ev->guard, ZENO_GUARD_GAP);
  assert_int_equal(ev->contact, 0);
  assert_true(isnan(ev->t));
  assert_int_equal(ev->impact_mask, 1);
  assert_int_equal(ev->mode_after.letter[0], ZENO_LETTER_S);
  assert_true(ev->impulse[0][0] == 0.25 && ev->impulse[0][1] == -0.5);
  zeno_run_dir_data_free(&d);
  remove_dir(dir);
}

// The writer: a directory that cannot be made, a scene that cannot be read,
// NULL arguments; closing NULL is fine.
static void writer_errors(void **state) {
  (void)state;
  char dir[DIR_LEN], blocker[PATH_LEN], inside[PATH_LEN + 8];
  temp_dir_make(dir);
  path_in(dir, "blocker", blocker);
  write_text(blocker, "a file where a directory should be\n");
  snprintf(inside, sizeof inside, "%s/run", blocker);
  const zeno_scene s = example2_scene();
  zeno_error e;
  assert_null(zeno_run_dir_writer_create(inside, &s, &e));
  assert_int_equal(e.code, ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "cannot create directory"));
  assert_non_null(strstr(e.message, "Not a directory"));
  assert_null(zeno_run_dir_writer_create(NULL, &s, &e));
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  assert_null(zeno_run_dir_writer_create(dir, NULL, &e));
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(dir, &s, &e);
  assert_non_null(w);
  // A second writer of the same directory is refused while this one runs.
  assert_null(zeno_run_dir_writer_create(dir, &s, &e));
  assert_int_equal(e.code, ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "is in use by another zeno run"));
  const char *broken[] = {"name=\"two\nlines\""};
  assert_int_equal(zeno_run_dir_writer_save_scene(w, "x", 1, broken, 1, &e), ZENO_ERR_RANGE);
  assert_non_null(strstr(e.message, "override 1 cannot be kept"));
  assert_int_equal(zeno_run_dir_writer_save_scene(w, NULL, 0, NULL, 0, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_writer_save_scene(w, "x", 1, NULL, 1, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_writer_event(w, NULL, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_writer_skipped(NULL), 0);
  assert_int_equal(zeno_run_dir_writer_close(w, &e), ZENO_OK);
  assert_int_equal(zeno_run_dir_writer_close(NULL, &e), ZENO_OK);
  zeno_run_dir_data d = {0};
  assert_int_equal(zeno_run_dir_record(&d, NULL, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_read(NULL, &d, &e), ZENO_ERR_ARGUMENT);
  char **list;
  size_t count;
  assert_int_equal(zeno_run_dir_read_overrides(NULL, &list, &count, &e), ZENO_ERR_ARGUMENT);
  // mkdir -p: parents are made, an existing directory is fine.
  char deep[DIR_LEN + 8];
  snprintf(deep, sizeof deep, "%s/a/b", dir);
  assert_int_equal(zeno_io_make_directories(deep, &e), ZENO_OK);
  assert_int_equal(zeno_io_make_directories(deep, &e), ZENO_OK);
  struct stat info;
  assert_int_equal(stat(deep, &info), 0);
  assert_true(S_ISDIR(info.st_mode));
  rmdir(deep);
  snprintf(deep, sizeof deep, "%s/a", dir);
  rmdir(deep);
  assert_int_equal(zeno_io_make_directories("", &e), ZENO_ERR_IO);
  remove_dir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recording_writing_reading_agree),
      cmocka_unit_test(bounded_history_records_the_same),
      cmocka_unit_test(scene_and_overrides),
      cmocka_unit_test(links_are_never_followed),
      cmocka_unit_test(trajectory_errors),
      cmocka_unit_test(events_errors),
      cmocka_unit_test(writer_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
