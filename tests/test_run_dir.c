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

/// A small text file's content (a new string; up to 64 KiB).
static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  char *text = calloc(1, 1 << 16);
  assert_non_null(text);
  assert_true(fread(text, 1, (1 << 16) - 1, f) > 0);
  fclose(f);
  return text;
}

static void remove_dir(const char *dir) {
  static const char *const NAMES[] = {ZENO_RUN_DIR_TRAJECTORY,
                                      ZENO_RUN_DIR_EVENTS,
                                      ZENO_RUN_DIR_EVENTS_CSV,
                                      ZENO_RUN_DIR_SCENE,
                                      ZENO_RUN_DIR_OVERRIDES,
                                      ZENO_RUN_DIR_DIGEST,
                                      "t.csv",
                                      "e.jsonl",
                                      "blocker",
                                      NULL};
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

/// Runs a scene, recording it in memory and writing it into dir, with the
/// whole history kept or not.
static void record_and_write_scene(const char *dir, zeno_run_dir_data *data,
                                   const zeno_scene *scene, bool keep_history) {
  const zeno_scene s = *scene;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = keep_history;
  zeno_error e;
  zeno_sim *sim = zeno_sim_create(&s, &def, &e);
  assert_non_null(sim);
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(dir, &s, &e);
  assert_non_null(w);
  memset(data, 0, sizeof *data);
  data->contact_count = s.contact_count;
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

/// Example 2 in a model, recorded and written.
static void record_and_write_with(const char *dir, zeno_run_dir_data *data, zeno_model model,
                                  bool keep_history) {
  zeno_scene s = example2_scene();
  s.model = model;
  // The full model's Example 2 rests at 0.0172: 172 samples at 1e-4.
  if (model == ZENO_MODEL_FULL) s.sample_dt = 1e-4;
  record_and_write_scene(dir, data, &s, keep_history);
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
  assert_int_equal(a->kind, b->kind);
  assert_int_equal(a->event, b->event);
}

/// Each row says what it is: the rows of event k (its index) are the
/// samples strictly between event k-1 and event k, then the states just
/// before and just after event k (at its time, the mode after it last).
static void assert_rows_name_their_events(const zeno_run_dir_data *d) {
  size_t i = 0;
  for (size_t k = 0; k < d->event_count; k++) {
    const zeno_run_dir_event *e = &d->events[k];
    assert_int_equal(e->index, (long)k);
    for (; i < d->row_count && d->rows[i].kind == ZENO_ROW_SAMPLE; i++) {
      assert_int_equal(d->rows[i].event, e->index);
      assert_true(k > 0 && d->rows[i].t > d->events[k - 1].t && d->rows[i].t < e->t);
    }
    assert_true(i + 2 <= d->row_count);
    const zeno_run_dir_row *before = &d->rows[i], *after = &d->rows[i + 1];
    assert_int_equal(before->kind, ZENO_ROW_BEFORE);
    assert_int_equal(after->kind, ZENO_ROW_AFTER);
    assert_int_equal(before->event, e->index);
    assert_int_equal(after->event, e->index);
    assert_true(before->t == e->t && after->t == e->t);
    assert_memory_equal(&after->mode, &e->mode_after, sizeof after->mode);
    i += 2;
  }
  assert_int_equal(i, d->row_count);
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
  assert_rows_name_their_events(&mine);
  assert_string_equal(zeno_run_dir_row_kind_name(ZENO_ROW_BEFORE), "before");
  assert_string_equal(zeno_run_dir_row_kind_name((zeno_run_dir_row_kind)7), "unknown");
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
    for (size_t i = 0; i < all.row_count; i++) assert_rows_equal(&bounded.rows[i], &all.rows[i]);
    zeno_run_dir_data_free(&all);
    zeno_run_dir_data_free(&bounded);
  }
}

/// The ball of scenes/bouncing-ball.yaml thrown sideways: dropped from
/// height H with horizontal speed VX under gravity G (no spin).
#define BALL_H 1.0
#define BALL_G 9.81
#define BALL_VX 0.5
#define BALL_E 0.8
/// Tolerance of the ZOD model's closed-form flight (relative).
#define BALL_TOL 1e-9

static const char *read_first_line(const char *path, char *line, size_t size) {
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  assert_non_null(fgets(line, (int)size, f));
  fclose(f);
  line[strcspn(line, "\n")] = '\0';
  return line;
}

// A one-contact scene has its own header: q' is (z1, x1, theta) and there
// is one force, so the columns are named z1, x1, zod_theta and f1n, f1t
// only. The columns hold what they say: before the first impact the ball
// has fallen H (z1 = 0, z1dot = -sqrt(2 G H)) and moved VX t sideways (x1);
// after it z1dot = E sqrt(2 G H) (Newton's law). Read back, the contact
// count comes from the header and every row equals the recording.
static void one_contact_columns(void **state) {
  (void)state;
  const char *set[] = {"initial.velocity=[0.5, 0, 0]", "stop.max_events=4"};
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load(ZENO_SCENES_DIR "/bouncing-ball.yaml", set, 2, &s, &e) != ZENO_OK)
    fail_msg("%s", e.message);
  assert_true(s.initial_velocity[0] == BALL_VX);
  s.sample_dt = 0.1;
  char dir[DIR_LEN], path[PATH_LEN], line[1024];
  temp_dir_make(dir);
  zeno_run_dir_data mine, back = {0};
  record_and_write_scene(dir, &mine, &s, true);
  path_in(dir, ZENO_RUN_DIR_TRAJECTORY, path);
  assert_string_equal(read_first_line(path, line, sizeof line),
                      ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT);
  assert_string_equal(zeno_io_trajectory_columns(1), ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT);
  assert_string_equal(zeno_io_trajectory_columns(2), ZENO_IO_TRAJECTORY_HEADER);
  assert_int_equal(zeno_run_dir_read(dir, &back, &e), ZENO_OK);
  assert_int_equal(back.contact_count, 1);
  assert_int_equal(back.row_count, mine.row_count);
  for (size_t i = 0; i < mine.row_count; i++) assert_rows_equal(&back.rows[i], &mine.rows[i]);
  assert_rows_name_their_events(&back);
  const zeno_run_dir_event *impact = &back.events[1];
  assert_int_equal(impact->kind, ZENO_EVENT_IMPACT);
  const double t = sqrt(2 * BALL_H / BALL_G), v = sqrt(2 * BALL_G * BALL_H);
  size_t i = 0;
  while (back.rows[i].kind != ZENO_ROW_BEFORE || back.rows[i].event != 1) i++;
  const zeno_run_dir_row *before = &back.rows[i], *after = &back.rows[i + 1];
  assert_true(fabs(before->t - t) <= BALL_TOL * t);
  assert_true(fabs(before->zod[0]) <= BALL_TOL);                // z1
  assert_true(fabs(before->zod[1] - BALL_VX * t) <= BALL_TOL);  // x1
  assert_true(fabs(before->zod_rate[0] + v) <= BALL_TOL * v);   // z1dot
  assert_true(fabs(after->zod_rate[0] - BALL_E * v) <= BALL_TOL * v);
  zeno_run_dir_data_free(&mine);
  zeno_run_dir_data_free(&back);
  remove_dir(dir);
}

// The scene is read whole before it is written, so a scene file inside the
// run directory itself survives; the overrides come back in order, blank
// lines left out, and a run without overrides.txt has none (ZENO_DONE).
static void scene_and_overrides(void **state) {
  (void)state;
  char dir[DIR_LEN], scene[PATH_LEN];
  temp_dir_make(dir);
  path_in(dir, ZENO_RUN_DIR_SCENE, scene);
  char *original = read_text(ZENO_SCENES_DIR "/example2.yaml");
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
  char *kept = read_text(scene);
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
  // The scene's text comes back as written; a FIFO in place of either file
  // is refused at once (opening it blocked for ever), as are NULLs.
  assert_int_equal(zeno_run_dir_read_scene(dir, &text, &length, &e), ZENO_OK);
  assert_string_equal(text, original);
  assert_int_equal(length, strlen(original));
  free(text);
  const char *const names[] = {ZENO_RUN_DIR_SCENE, ZENO_RUN_DIR_OVERRIDES};
  for (int k = 0; k < 2; k++) {
    char fifo[PATH_LEN];
    path_in(dir, names[k], fifo);
    assert_int_equal(unlink(fifo), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
  }
  assert_int_equal(zeno_run_dir_read_scene(dir, &text, &length, &e), ZENO_ERR_IO);
  assert_null(text);
  assert_non_null(strstr(e.message, "not a regular file"));
  assert_int_equal(zeno_run_dir_read_overrides(dir, &list, &count, &e), ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "not a regular file"));
  assert_int_equal(zeno_run_dir_read_scene(NULL, &text, &length, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_read_scene(dir, NULL, &length, &e), ZENO_ERR_ARGUMENT);
  for (int k = 0; k < 2; k++) {
    char fifo[PATH_LEN];
    path_in(dir, names[k], fifo);
    unlink(fifo);
  }
  // None: ZENO_DONE.
  assert_int_equal(zeno_run_dir_read_scene(dir, &text, &length, &e), ZENO_DONE);
  assert_null(text);
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
static void expect_read_error(bool events, const char *text, zeno_status code, int line, int column,
                              const char *part) {
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
    fail_msg("got %s at %d:%d: %s; expected '%s' at %d:%d", zeno_status_name(st), e.line, e.column,
             e.message, part, line, column);
  assert_string_equal(e.file, path);
  char formatted[1024];
  zeno_error_format(&e, formatted, sizeof formatted);
  assert_non_null(strstr(formatted, path));
  zeno_run_dir_data_free(&d);
  remove_dir(dir);
}

#define ROW_HEAD ZENO_IO_TRAJECTORY_HEADER "\n"
/// A valid row (t = 1, mode FF, a sample leading to event 1) and one at
/// t = 0.5.
#define ROW_T1 "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,sample,1\n"
#define ROW_T05 "0.5,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,sample,1\n"
/// The header and a row written before the kind and event columns.
#define OLD_HEAD "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t\n"
#define OLD_ROW "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0\n"
/// Column of the field after f2t in ROW_T1 (the kind).
#define KIND_COLUMN 38

static void trajectory_errors(void **state) {
  (void)state;
  expect_read_error(false, "", ZENO_ERR_SYNTAX, 0, 0, "empty file: no trajectory header");
  expect_read_error(false, "t,x,y\n" ROW_T1, ZENO_ERR_SYNTAX, 1, 1,
                    "not a trajectory written by 'zeno simulate --out'");
  // A trajectory of an older zeno: the message says what is missing, at
  // the end of its header, and what to do.
  expect_read_error(false, OLD_HEAD OLD_ROW, ZENO_ERR_SYNTAX, 1, (int)strlen(OLD_HEAD),
                    "written by an older zeno: the columns kind and event (which rows are "
                    "samples and which the states before and after an event) are missing; "
                    "run 'zeno simulate SCENE --out DIR' again");
  expect_read_error(false, ROW_HEAD, ZENO_ERR_SYNTAX, 1, 0, "no rows");
  // Column 5: the fourth number is not one.
  expect_read_error(false, ROW_HEAD "1,0,0,x,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,sample,1\n",
                    ZENO_ERR_SYNTAX, 2, 7, "a number is expected");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FX,0,0,0,0,sample,1\n",
                    ZENO_ERR_SYNTAX, 2, 27, "'FX' is not a mode of the run");
  expect_read_error(false, ROW_HEAD ROW_T1 "1,0,0,0,0,0,0,1,1,0,0,0,2,F,0,0,0,0,sample,1\n",
                    ZENO_ERR_SYNTAX, 3, 0, "'F' is not a mode of the run");
  // An old row under the new header: the kind is missing at its end.
  expect_read_error(false, ROW_HEAD OLD_ROW, ZENO_ERR_SYNTAX, 2, KIND_COLUMN - 1,
                    "the kind is expected: sample, before or after");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,during,1\n",
                    ZENO_ERR_SYNTAX, 2, KIND_COLUMN, "the kind is expected");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,after,-1\n",
                    ZENO_ERR_SYNTAX, 2, KIND_COLUMN + 6, "the event index is expected last");
  expect_read_error(false, ROW_HEAD "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,after,1,7\n",
                    ZENO_ERR_SYNTAX, 2, KIND_COLUMN + 6, "the event index is expected last");
  expect_read_error(false, ROW_HEAD ROW_T1 ROW_T05, ZENO_ERR_SYNTAX, 3, 1, "time going back");
  expect_read_error(false, ROW_HEAD ROW_T1 "1,0,0,0,0,0,0,1,1,0,0,0,2,FF,0,0,0,0,after,0\n",
                    ZENO_ERR_SYNTAX, 3, 1, "event index going back");
  // One contact: one force (the kind comes 5 columns earlier), one-letter
  // modes.
  expect_read_error(false,
                    ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT
                    "\n"
                    "1,0,0,0,0,0,0,1,0,0,0,0,0,F,0,0,0,0,"
                    "sample,1\n",
                    ZENO_ERR_SYNTAX, 2, KIND_COLUMN - 5, "the kind is expected");
  expect_read_error(false,
                    ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT
                    "\n"
                    "1,0,0,0,0,0,0,1,0,0,0,0,0,FF,0,0,"
                    "sample,1\n",
                    ZENO_ERR_SYNTAX, 2, 27, "'FF' is not a mode of the run");
  {
    // The header says how many contacts: a reader that expects two is told.
    char dir[DIR_LEN], path[PATH_LEN];
    temp_dir_make(dir);
    path_in(dir, "t.csv", path);
    write_text(path, ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT
               "\n"
               "1,0,0,0,0,0,0,1,0,0,0,0,0,F,0,0,sample,1\n");
    zeno_run_dir_data two = {.contact_count = 2}, one = {0};
    zeno_error err;
    assert_int_equal(zeno_run_dir_read_trajectory(path, &two, &err), ZENO_ERR_SYNTAX);
    assert_non_null(strstr(err.message,
                           "the header is that of a scene of 1 contact; 2 are expected"));
    assert_int_equal(err.line, 1);
    assert_int_equal(zeno_run_dir_read_trajectory(path, &one, &err), ZENO_OK);
    assert_int_equal(one.contact_count, 1);
    // Format version 2 (more than two contacts): q' named in the header, a
    // force pair per contact; a name that is no contact coordinate is not it.
    char many[PATH_LEN];
    path_in(dir, "n.csv", many);
    write_text(many,
               "t,x,y,theta,vx,vy,omega,z1,z2,x3,z1dot,z2dot,x3dot,mode,f1n,f1t,f2n,f2t,f3n,f3t,"
               "kind,event\n1,0,0,0,0,0,0,0,0,0,0,0,0,SSF,1,0,2,0,0.5,0.25,sample,1\n");
    zeno_run_dir_data three = {0};
    assert_int_equal(zeno_run_dir_read_trajectory(many, &three, &err), ZENO_OK);
    assert_int_equal(three.contact_count, 3);
    assert_true(three.rows[0].force[2][0] == 0.5 && three.rows[0].force[2][1] == 0.25);
    assert_int_equal(three.rows[0].mode.letter[2], ZENO_LETTER_F);
    zeno_run_dir_data_free(&three);
    write_text(many,
               "t,x,y,theta,vx,vy,omega,z1,z2,q3,z1dot,z2dot,q3dot,mode,f1n,f1t,f2n,f2t,f3n,f3t,"
               "kind,event\n");
    zeno_run_dir_data bad = {0};
    assert_int_equal(zeno_run_dir_read_trajectory(many, &bad, &err), ZENO_ERR_SYNTAX);
    assert_int_equal(err.line, 1);
    zeno_run_dir_data_free(&bad);
    remove(many);
    assert_int_equal(one.rows[0].kind, ZENO_ROW_SAMPLE);
    assert_int_equal(one.rows[0].event, 1);
    zeno_run_dir_data_free(&one);
    remove_dir(dir);
  }
  zeno_run_dir_data d = {0};
  zeno_error e;
  assert_int_equal(zeno_run_dir_read_trajectory("/nonexistent-zeno/t.csv", &d, &e), ZENO_ERR_IO);
  assert_non_null(strstr(e.message, "cannot read '/nonexistent-zeno/t.csv'"));
  assert_int_equal(zeno_run_dir_read_trajectory(NULL, &d, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_read_trajectory("x", NULL, &e), ZENO_ERR_ARGUMENT);
}

/// An event line with `extra` members after the required ones.
// clang-format off
#define EVENT(kind, extra)                                                              \
  "{\"index\": 0, \"t\": 1.5, \"kind\": \"" kind "\", \"mode_before\": \"FF\", "        \
  "\"mode_after\": \"SF\", \"impact\": null, \"impulse\": [[0, 0], [0, 0]]" extra "}\n"
// clang-format on

static void events_errors(void **state) {
  (void)state;
  expect_read_error(true, "", ZENO_ERR_SYNTAX, 0, 0, "no events");
  expect_read_error(true, "[1, 2]\n", ZENO_ERR_SYNTAX, 1, 0, "not one JSON object");
  expect_read_error(true, "{\"index\": 0,\n", ZENO_ERR_SYNTAX, 1, 0, "not one JSON object");
  expect_read_error(true, "{\"index\": 0}\n", ZENO_ERR_SYNTAX, 1, 0, "event without member \"t\"");
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
  expect_read_error(true, EVENT("start", "") "{\"index\": 1.5, \"t\": 2}\n", ZENO_ERR_SYNTAX, 2, 0,
                    "event without member \"kind\"");
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
  // Every number is read as strtod reads it: -0 keeps its sign, and an
  // integer beyond 64 bits is a number like the others.
  write_text(path, EVENT("start", "") "{\"index\": 1, \"t\": -0, \"kind\": \"end\", "
                   "\"outcome\": \"rest\", \"mode_before\": \"SS\", \"mode_after\": \"SS\", "
                   "\"impact\": null, \"impulse\": [[12345678901234567890, 1e-320], [0.1, 0]]}\n");
  assert_int_equal(zeno_run_dir_read_events(path, &d, &e), ZENO_OK);
  assert_int_equal(d.event_count, 2);
  ev = &d.events[1];
  assert_true(ev->t == 0 && signbit(ev->t));
  assert_int_equal(ev->outcome, ZENO_OUTCOME_REST);
  assert_true(ev->impulse[0][0] == strtod("12345678901234567890", NULL));
  assert_true(ev->impulse[0][1] == strtod("1e-320", NULL) && ev->impulse[1][0] == 0.1);
  zeno_run_dir_data_free(&d);
  remove_dir(dir);
  // Nesting: 16 levels of arrays and objects, the event's own included, and
  // no deeper.
  expect_read_error(true,
                    EVENT("start", ", \"x\": [[[[[[[[[[[[[[[]]]]]]]]]]]]]]]")
                        EVENT("start", ", \"x\": [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]"),
                    ZENO_ERR_SYNTAX, 2, 1, "not one JSON object");
  // What follows the object: white space only.
  expect_read_error(true, "{\"index\": 0} {}\n", ZENO_ERR_SYNTAX, 1, 13, "not one JSON object");
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

// A run whose samples would pass ZENO_RUN_DIR_MAX_ROWS (Example 2 sampled
// every 1e-9 s) is refused before its rows are made, by the recorder and
// the writer alike, naming solver.sample_dt and the rows it would take;
// the data keeps what it had and the writer wrote no sample. (Recording
// asked for gigabytes: Python's Run.trajectory hit MemoryError.)
static void too_many_rows(void **state) {
  (void)state;
  char dir[DIR_LEN];
  temp_dir_make(dir);
  zeno_scene s = example2_scene();
  s.sample_dt = 1e-9;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = true;
  zeno_error e;
  zeno_sim *sim = zeno_sim_create(&s, &def, &e);
  assert_non_null(sim);
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(dir, &s, &e);
  assert_non_null(w);
  zeno_run_dir_data d = {0};
  d.contact_count = s.contact_count;
  zeno_event ev;
  assert_int_equal(zeno_sim_next_event(sim, &ev, &e), ZENO_OK);  // the start: no samples
  assert_int_equal(zeno_run_dir_record(&d, sim, &ev, &e), ZENO_OK);
  assert_int_equal(zeno_run_dir_writer_event(w, sim, &ev, &e), ZENO_OK);
  assert_int_equal(d.row_count, 2);
  assert_int_equal(zeno_sim_next_event(sim, &ev, &e), ZENO_OK);
  // The two rows so far, the samples k * dt for k = 1, 2, ... below the
  // event, and its two rows.
  const double rows = 2.0 + (ceil(ev.t / s.sample_dt) - 1) + 2;
  char expected[128];
  snprintf(expected, sizeof expected, "would take %.0f rows by t = %g, more than %lld", rows, ev.t,
           (long long)ZENO_RUN_DIR_MAX_ROWS);
  for (int k = 0; k < 2; k++) {
    memset(&e, 0, sizeof e);
    const zeno_status st = k == 0 ? zeno_run_dir_record(&d, sim, &ev, &e)
                                  : zeno_run_dir_writer_event(w, sim, &ev, &e);
    assert_int_equal(st, ZENO_ERR_RANGE);
    assert_string_equal(e.parameter, "solver.sample_dt");
    assert_non_null(strstr(e.message, "solver.sample_dt = 1e-09"));
    if (strstr(e.message, expected) == NULL) fail_msg("'%s' lacks '%s'", e.message, expected);
  }
  assert_int_equal(d.row_count, 2);
  assert_int_equal(d.event_count, 1);
  zeno_run_dir_writer_discard(w);
  zeno_sim_destroy(sim);
  zeno_run_dir_data_free(&d);
  // One rule: the longest rows of the most rows fit in a file's limit.
  assert_true(ZENO_RUN_DIR_MAX_ROWS * ZENO_RUN_DIR_ROW_MAX_BYTES <= ZENO_RUN_DIR_MAX_BYTES);
  remove_dir(dir);
}

/* ---- verification (issue 31) ---------------------------------------------- */

/// A deep copy of recorded data.
static zeno_run_dir_data data_copy(const zeno_run_dir_data *d) {
  zeno_run_dir_data c = *d;
  c.rows = malloc(d->row_count * sizeof *c.rows);
  c.events = malloc(d->event_count * sizeof *c.events);
  assert_non_null(c.rows);
  assert_non_null(c.events);
  memcpy(c.rows, d->rows, d->row_count * sizeof *c.rows);
  memcpy(c.events, d->events, d->event_count * sizeof *c.events);
  c.row_capacity = d->row_count;
  c.event_capacity = d->event_count;
  return c;
}

/// The index of the first row of event `event` of kind `kind`.
static size_t row_of(const zeno_run_dir_data *d, long event, zeno_run_dir_row_kind kind) {
  for (size_t i = 0; i < d->row_count; i++)
    if (d->rows[i].event == event && d->rows[i].kind == kind) return i;
  fail_msg("no row of event %ld", event);
  return 0;
}

static void event_renumbered(zeno_run_dir_data *d) { d->events[2].index = 5; }
static void first_not_start(zeno_run_dir_data *d) { d->events[0].kind = ZENO_EVENT_IMPACT; }
static void second_start(zeno_run_dir_data *d) { d->events[3].kind = ZENO_EVENT_START; }
static void early_end(zeno_run_dir_data *d) { d->events[3].kind = ZENO_EVENT_END; }
static void event_nan(zeno_run_dir_data *d) { d->events[2].t = NAN; }
static void event_back(zeno_run_dir_data *d) { d->events[2].t = d->events[1].t - 1; }
static void event_contact(zeno_run_dir_data *d) { d->events[1].contact = 2; }
static void last_dropped(zeno_run_dir_data *d) { d->event_count--; }
static void row_event_missing(zeno_run_dir_data *d) { d->rows[5].event = 99; }
static void start_sample(zeno_run_dir_data *d) { d->rows[0].kind = ZENO_ROW_SAMPLE; }
static void rows_swapped(zeno_run_dir_data *d) {
  const size_t i = row_of(d, 1, ZENO_ROW_BEFORE);
  const zeno_run_dir_row r = d->rows[i];
  d->rows[i] = d->rows[i + 1];
  d->rows[i + 1] = r;
}
static void before_moved(zeno_run_dir_data *d) { d->rows[row_of(d, 2, ZENO_ROW_BEFORE)].t += 1e-9; }
static void sample_moved(zeno_run_dir_data *d) {
  d->rows[row_of(d, 2, ZENO_ROW_SAMPLE)].t = d->events[1].t;
}
static void rows_cut(zeno_run_dir_data *d) { d->row_count -= 2; }
static void row_inf(zeno_run_dir_data *d) { d->rows[3].t = INFINITY; }
static void start_mode(zeno_run_dir_data *d) { d->events[0].mode_after.letter[0] = ZENO_LETTER_S; }
static void start_row(zeno_run_dir_data *d) { d->rows[1].qdot[2] *= 1 + 1e-6; }

/// A change to a run's data and what zeno_run_dir_verify() says of it.
typedef struct verify_case {
  void (*edit)(zeno_run_dir_data *d);
  const char *file;  ///< ZENO_RUN_DIR_EVENTS or ZENO_RUN_DIR_TRAJECTORY
  int line;          ///< 0: the file's last line
  const char *part;  ///< of the message
} verify_case;

// Each inconsistency of rows and events is refused, naming the file and
// line; the data as recorded passes, with the scene and without.
static void verify_refuses_inconsistent_data(void **state) {
  (void)state;
  static const verify_case CASES[] = {
      {event_renumbered, ZENO_RUN_DIR_EVENTS, 3, "event 5 where event 2 is expected"},
      {first_not_start, ZENO_RUN_DIR_EVENTS, 1, "the first event is not the start"},
      {second_start, ZENO_RUN_DIR_EVENTS, 4, "a second start event"},
      {early_end, ZENO_RUN_DIR_EVENTS, 4, "an end event before the last"},
      {event_nan, ZENO_RUN_DIR_EVENTS, 3, "not finite"},
      {event_back, ZENO_RUN_DIR_EVENTS, 3, "time going back"},
      {event_contact, ZENO_RUN_DIR_EVENTS, 2, "contact 3 is not a contact of the run"},
      {last_dropped, ZENO_RUN_DIR_EVENTS, 6, "cut short"},
      {row_event_missing, ZENO_RUN_DIR_TRAJECTORY, 7, "event 99, which"},
      {start_sample, ZENO_RUN_DIR_TRAJECTORY, 2, "not between the times"},
      {rows_swapped, ZENO_RUN_DIR_TRAJECTORY, 0, "where the rows of event 1 are expected"},
      {before_moved, ZENO_RUN_DIR_TRAJECTORY, 0, "not at the event's time"},
      {sample_moved, ZENO_RUN_DIR_TRAJECTORY, 0, "not between the times of events 1 and 2"},
      {rows_cut, ZENO_RUN_DIR_TRAJECTORY, 0, "the rows of event 6 and after are missing"},
      {row_inf, ZENO_RUN_DIR_TRAJECTORY, 5, "not finite"},
      {start_mode, ZENO_RUN_DIR_EVENTS, 1, "the start event is not that of the run's scene"},
      {start_row, ZENO_RUN_DIR_TRAJECTORY, 3, "the start state is not that of the run's scene"},
  };
  char dir[DIR_LEN], path[PATH_LEN];
  temp_dir_make(dir);
  zeno_run_dir_data mine;
  record_and_write(dir, &mine);
  const zeno_scene scene = example2_scene();
  zeno_error e;
  assert_int_equal(zeno_run_dir_verify(dir, &mine, &scene, &e), ZENO_OK);
  assert_int_equal(zeno_run_dir_verify(dir, &mine, NULL, &e), ZENO_OK);
  for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
    const verify_case *c = &CASES[k];
    zeno_run_dir_data d = data_copy(&mine);
    c->edit(&d);
    int line = c->line;
    if (line == 0) {  // the line of the first row that differs, or the file's last
      line = (int)d.row_count + 1;
      for (size_t i = 0; i < d.row_count && i < mine.row_count; i++)
        if (memcmp(&d.rows[i], &mine.rows[i], sizeof d.rows[i]) != 0) {
          line = (int)i + 2;
          break;
        }
    }
    path_in(dir, c->file, path);
    const zeno_status st = zeno_run_dir_verify(dir, &d, &scene, &e);
    if (st != ZENO_ERR_SYNTAX || strstr(e.message, c->part) == NULL || e.line != line ||
        strcmp(e.file, path) != 0)
      fail_msg("case %zu: got %s at %s:%d: %s; expected '%s' at %s:%d", k, zeno_status_name(st),
               e.file, e.line, e.message, c->part, path, line);
    zeno_run_dir_data_free(&d);
  }
  // Another scene: its contact count, its start.
  zeno_scene other;
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR "/bouncing-ball.yaml", NULL, 0, &other, &e),
                   ZENO_OK);
  assert_int_equal(zeno_run_dir_verify(dir, &mine, &other, &e), ZENO_ERR_SYNTAX);
  assert_non_null(strstr(e.message, "the rows have 2 contact(s)"));
  const char *const faster[] = {"initial.qdp=[0, 0, 2.000001]"};
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR "/example2.yaml", faster, 1, &other, &e),
                   ZENO_OK);
  assert_int_equal(zeno_run_dir_verify(dir, &mine, &other, &e), ZENO_ERR_SYNTAX);
  assert_int_equal(e.line, 2);
  assert_non_null(strstr(e.message, "the start state is not that of the run's scene"));
  assert_int_equal(zeno_run_dir_verify(NULL, &mine, NULL, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_run_dir_verify(dir, NULL, NULL, &e), ZENO_ERR_ARGUMENT);
  zeno_run_dir_data_free(&mine);
  remove_dir(dir);
}

/// Writes `text` as the digest of dir, reads dir back and expects an error
/// of `code` naming the file `name` of dir at `line` (0: none) with `part`.
static void expect_digest_error(const char *dir, const char *text, const char *name, int line,
                                const char *part) {
  char path[PATH_LEN];
  path_in(dir, ZENO_RUN_DIR_DIGEST, path);
  write_text(path, text);
  zeno_run_dir_data d = {0};
  zeno_error e;
  const zeno_status st = zeno_run_dir_read(dir, &d, &e);
  path_in(dir, name, path);
  if (st != ZENO_ERR_SYNTAX || strstr(e.message, part) == NULL || e.line != line ||
      strcmp(e.file, path) != 0)
    fail_msg("got %s at %s:%d: %s; expected '%s' at %s:%d", zeno_status_name(st), e.file, e.line,
             e.message, part, path, line);
}

// The digest's own faults, each named with its line; a file of the run it
// does not list; a file that does not match it. Without a digest the run
// is read (digest_checked false), with it digest_checked is true.
static void digest_errors(void **state) {
  (void)state;
  char dir[DIR_LEN], path[PATH_LEN];
  temp_dir_make(dir);
  zeno_run_dir_data mine, back = {0};
  record_and_write(dir, &mine);  // no scene saved: the digest lists three files
  zeno_error e;
  assert_int_equal(zeno_run_dir_read(dir, &back, &e), ZENO_OK);
  assert_true(back.digest_checked);
  zeno_run_dir_data_free(&back);
  path_in(dir, ZENO_RUN_DIR_DIGEST, path);
  char *digest = read_text(path);
  assert_non_null(digest);
  const size_t first = strcspn(digest, "\n") + 1;
  char text[4096];
  expect_digest_error(dir, "0123  trajectory.csv\n", ZENO_RUN_DIR_DIGEST, 1,
                      "not a line of a run's digest");
  snprintf(text, sizeof text, "%.64s  notes.txt\n", digest);
  expect_digest_error(dir, text, ZENO_RUN_DIR_DIGEST, 1, "not a file of a run directory");
  snprintf(text, sizeof text, "%s%.*s", digest, (int)first, digest);
  expect_digest_error(dir, text, ZENO_RUN_DIR_DIGEST, 4, "a file listed twice");
  snprintf(text, sizeof text, "%.*s", (int)first, digest);  // the trajectory alone
  expect_digest_error(dir, text, ZENO_RUN_DIR_EVENTS, 0, "not a file of the run");
  char big[5000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  expect_digest_error(dir, big, ZENO_RUN_DIR_DIGEST, 0, "more than 4096 bytes");
  // A file that is not the one written; the digest's first digit changed.
  char csv[PATH_LEN];
  path_in(dir, ZENO_RUN_DIR_EVENTS_CSV, csv);
  char *events_csv = read_text(csv);
  write_text(csv, "index\n");
  expect_digest_error(dir, digest, ZENO_RUN_DIR_EVENTS_CSV, 0, "not the file the run wrote");
  write_text(csv, events_csv);
  snprintf(text, sizeof text, "%s", digest);
  text[0] = text[0] == '0' ? '1' : '0';
  expect_digest_error(dir, text, ZENO_RUN_DIR_TRAJECTORY, 0, "line 1 of");
  // No digest: a run of an older zeno.
  assert_int_equal(unlink(path), 0);
  assert_int_equal(zeno_run_dir_read(dir, &back, &e), ZENO_OK);
  assert_false(back.digest_checked);
  zeno_run_dir_data_free(&back);
  free(events_csv);
  free(digest);
  zeno_run_dir_data_free(&mine);
  remove_dir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(recording_writing_reading_agree),
      cmocka_unit_test(bounded_history_records_the_same),
      cmocka_unit_test(one_contact_columns),
      cmocka_unit_test(scene_and_overrides),
      cmocka_unit_test(links_are_never_followed),
      cmocka_unit_test(trajectory_errors),
      cmocka_unit_test(events_errors),
      cmocka_unit_test(writer_errors),
      cmocka_unit_test(too_many_rows),
      cmocka_unit_test(verify_refuses_inconsistent_data),
      cmocka_unit_test(digest_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
