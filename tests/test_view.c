// The SDL2 viewer, headless: frames of Example 2 drawn offscreen and
// checked pixel by pixel (background, surfaces, body fill at the centre of
// mass, contact colours by letter, the text band), view against replay of
// the same run (in-process and through the real binary's PNGs), the mode
// word against the library's, the Zeno warp on Example 3 (hops per frame),
// the warp clock, impulses and the CLI's bad input.
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
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
#include "png_rgb.h"
#include "view/view.h"

/// Frame size of the pixel tests [px] (the default window).
#define WIDTH VIEW_DEFAULT_WIDTH
#define HEIGHT VIEW_DEFAULT_HEIGHT
/// Acceptance 1: frames of view and replay may differ in fewer than this
/// fraction of their pixels.
#define MAX_DIFFERENT_FRACTION 1e-3
/// Text band: drawn pixels of three lines of 13 pt text (a line of 40
/// characters covers ~1500 non-background pixels).
#define MIN_TEXT_PIXELS 1000
/// Acceptance 2: hops seen in the Zeno warp, frames drawn (15 s at 60 fps:
/// 30 event intervals at 2 per second) and the fewest frames one hop gets.
#define MIN_HOPS 10
#define WARP_FRAMES 900
#define FPS 60.0
#define MIN_FRAMES_PER_HOP 20
/// A hop is distinguishable when the gap it opens is drawn this wide [px].
#define MIN_HOP_PIXELS 1.0
/// Example 3's accumulation point [time] (simulate: 33.0884) and a start
/// 8 s before it for the real-time contrast.
#define EX3_ZENO_TIME 33.0884
#define EX3_TAIL_START 25.0
/// Pixels from a surface's drawn line into its strip / out of it, and the
/// distance from the surface point along the surface, in body sizes.
#define INTO_STRIP_PX 5.0
#define OUT_OF_STRIP_PX 5.0
#define ALONG_SURFACE 0.3
/// Relative tolerance on copied numbers (rows read back are exact).
#define TOLERANCE 1e-12

/* ---- helpers --------------------------------------------------------------- */

static zeno_scene load(const char *path) {
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, &s, &err) != ZENO_OK) fail_msg("%s: %s", path, err.message);
  return s;
}

static void live(view_run *run, const char *path) {
  const zeno_scene s = load(path);
  zeno_error err;
  if (view_run_simulate(run, &s, &err) != ZENO_OK) fail_msg("%s: %s", path, err.message);
}

/// A fresh directory with `zeno simulate SCENE --out DIR -q` in it.
static void saved_run(work_dir *w, const char *scene) {
  work_dir_create(w, "view");
  assert_int_equal(run_zeno("simulate", scene, "--out", w->root, "-q"), 0);
}

/// The scene run live (mine) and saved by the binary then read back (back).
static void live_and_saved(work_dir *w, const char *scene, view_run *mine, view_run *back) {
  saved_run(w, scene);
  live(mine, scene);
  zeno_error err;
  if (view_run_load(back, &mine->scene, w->root, &err) != ZENO_OK) fail_msg("%s", err.message);
}

static bool same_rgb(view_rgb a, view_rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static void assert_pixel(const view_canvas *cv, const double s[2], view_rgb want,
                         const char *what) {
  const int x = (int)lround(s[0]), y = (int)lround(s[1]);
  const view_rgb got = view_pixel(cv, x, y);
  if (!same_rgb(got, want))
    fail_msg("%s at (%d, %d): (%d, %d, %d), want (%d, %d, %d)", what, x, y, got.r, got.g, got.b,
             want.r, want.g, want.b);
}

/// Some pixel within 1 px of s has the colour.
static void assert_pixel_near(const view_canvas *cv, const double s[2], view_rgb want,
                              const char *what) {
  const int x = (int)lround(s[0]), y = (int)lround(s[1]);
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (same_rgb(view_pixel(cv, x + dx, y + dy), want)) return;
  fail_msg("%s: no pixel of the colour near (%d, %d)", what, x, y);
}

static int group_setup(void **state) {
  (void)state;
  return TTF_Init();
}

static int group_teardown(void **state) {
  (void)state;
  TTF_Quit();
  SDL_Quit();
  return 0;
}

static void canvas(view_canvas *cv) {
  char message[256];
  if (!view_canvas_create(cv, WIDTH, HEIGHT, message, sizeof message)) fail_msg("%s", message);
}

/// Draws the run at time t; fills the transform of the drawn pose.
static void draw_at(view_canvas *cv, const view_run *run, double t, view_frame_info *info,
                    view_transform *tf) {
  view_play play;
  view_play_init(&play, run);
  view_play_seek(&play, run, t);
  view_draw_frame(cv, run, &play, info);
  double d[3];
  view_displayed(&run->scene, view_play_zoom(&play, run), info->state.q, d);
  const SDL_Rect area = view_scene_area(cv, &play);
  *tf = view_transform_make(&area, view_canvas_camera(cv, run, &play), d);
}

/// Middle of the first interval whose mode after its first event is `mode`.
static double time_in_mode(const view_run *run, const char *mode) {
  char name[ZENO_MODE_NAME_SIZE];
  for (size_t i = 0; i + 1 < run->data.event_count; i++)
    if (strcmp(zeno_mode_name(run->data.events[i].mode_after, 2, name), mode) == 0 &&
        run->data.events[i + 1].t > run->data.events[i].t)
      return (run->data.events[i].t + run->data.events[i + 1].t) / 2;
  fail_msg("no interval in mode %s", mode);
  return NAN;
}

/* ---- the mode word ----------------------------------------------------------- */

/// The word the viewer spells from the events is the library's.
static void test_word_matches_library(void **state) {
  (void)state;
  static const char *const scenes[] = {
      ZENO_SCENES_DIR "/example2.yaml",         ZENO_SCENES_DIR "/example3-zeno.yaml",
      ZENO_SCENES_DIR "/example3-reverse.yaml", ZENO_SCENES_DIR "/example4.yaml",
      ZENO_SCENES_DIR "/example7.yaml",         ZENO_SCENES_DIR "/rocking-block.yaml",
      ZENO_SCENES_DIR "/sliding-block.yaml",    ZENO_SCENES_DIR "/bouncing-ball.yaml",
  };
  for (size_t k = 0; k < sizeof scenes / sizeof scenes[0]; k++) {
    view_run run;
    live(&run, scenes[k]);
    static char mine[1 << 16], theirs[1 << 16];
    view_run_word(&run, INFINITY, mine, (int)sizeof mine);
    zeno_sim_word(run.sim, theirs, (int)sizeof theirs);
    if (strcmp(mine, theirs) != 0)
      fail_msg("%s:\n view    %s\n library %s", scenes[k], mine, theirs);
    view_run_free(&run);
  }
}

/* ---- replay reads what simulate wrote --------------------------------------- */

static void assert_rows_equal(const zeno_run_dir_row *a, const zeno_run_dir_row *b) {
  assert_true(a->t == b->t);
  for (int k = 0; k < 3; k++) {
    assert_true(a->q[k] == b->q[k]);
    assert_true(a->qdot[k] == b->qdot[k]);
    assert_true(a->zod[k] == b->zod[k]);
    assert_true(a->zod_rate[k] == b->zod_rate[k]);
  }
  assert_memory_equal(&a->mode, &b->mode, sizeof a->mode);
  for (int i = 0; i < ZENO_PAIR_CONTACTS; i++)
    for (int k = 0; k < 2; k++) assert_true(a->force[i][k] == b->force[i][k]);
}

static void check_replay_of(const char *scene) {
  work_dir w;
  view_run mine, back;
  live_and_saved(&w, scene, &mine, &back);
  // %.17g round-trips: the rows read back are the live rows, bit for bit.
  assert_int_equal(back.data.row_count, mine.data.row_count);
  for (size_t i = 0; i < mine.data.row_count; i++)
    assert_rows_equal(&back.data.rows[i], &mine.data.rows[i]);
  assert_int_equal(back.data.event_count, mine.data.event_count);
  for (size_t i = 0; i < mine.data.event_count; i++) {
    const zeno_run_dir_event *a = &back.data.events[i], *b = &mine.data.events[i];
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->kind, b->kind);
    assert_true(a->t == b->t);
    assert_memory_equal(&a->mode_after, &b->mode_after, sizeof a->mode_after);
    assert_int_equal(a->impact_mask, b->impact_mask);
    for (int c = 0; c < 2; c++)
      for (int k = 0; k < 2; k++) assert_true(a->impulse[c][k] == b->impulse[c][k]);
  }
  assert_int_equal(back.outcome, mine.outcome);
  assert_int_equal(back.has_zeno, mine.has_zeno);
  assert_true(back.t_end == mine.t_end);
  view_run_free(&mine);
  view_run_free(&back);
  remove_simulate_out(w.root);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

static void test_replay_reads_simulate_output(void **state) {
  (void)state;
  check_replay_of(EXAMPLE2);
  check_replay_of(EXAMPLE3_ZENO);
}

/* ---- pixels of Example 2 ------------------------------------------------------ */

/// Background far from everything: the scene area's top-left corner, which
/// lies more than 20 px from both surfaces' lines.
static void check_background(const view_canvas *cv, const view_run *run, const view_transform *tf) {
  const double corner[2] = {4, VIEW_OVERLAY_HEIGHT + 4};
  for (int i = 0; i < run->scene.contact_count; i++) {
    const zeno_contact_def *c = &run->scene.contacts[i];
    double s[2];
    view_to_screen(tf, c->point, s);
    // Screen direction of the tangent (y down).
    const double tx = cos(c->surface_angle), ty = -sin(c->surface_angle);
    const double distance = fabs((corner[0] - s[0]) * ty - (corner[1] - s[1]) * tx);
    assert_true(distance > 20);
  }
  assert_pixel(cv, corner, VIEW_BACKGROUND, "background");
}

static bool in_scene_area(const double s[2]) {
  return s[0] > 0 && s[0] < WIDTH && s[1] > VIEW_OVERLAY_HEIGHT &&
         s[1] < HEIGHT - VIEW_CHART_HEIGHT;
}

/// Each surface: its line, its strip below it, background above it, at a
/// point ALONG_SURFACE body sizes from the contact (away from the centre of
/// mass when that stays in the scene area).
static void check_surfaces(const view_canvas *cv, const view_run *run, const view_transform *tf) {
  const double L = view_body_size(&run->scene);
  for (int i = 0; i < run->scene.contact_count; i++) {
    const zeno_contact_def *c = &run->scene.contacts[i];
    const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
    const double n[2] = {-t[1], t[0]};
    double away = t[0] * c->point[0] + t[1] * c->point[1] > 0 ? 1 : -1;
    double w[2], s[2];
    for (int attempt = 0; attempt < 2; attempt++, away = -away) {
      w[0] = c->point[0] + away * ALONG_SURFACE * L * t[0];
      w[1] = c->point[1] + away * ALONG_SURFACE * L * t[1];
      view_to_screen(tf, w, s);
      if (in_scene_area(s)) break;
    }
    assert_true(in_scene_area(s));
    assert_pixel_near(cv, s, VIEW_SURFACE_LINE, "surface line");
    const double below[2] = {s[0] - INTO_STRIP_PX * n[0], s[1] + INTO_STRIP_PX * n[1]};
    assert_pixel(cv, below, VIEW_SURFACE_FILL, "surface strip");
    const double above[2] = {s[0] + OUT_OF_STRIP_PX * n[0], s[1] - OUT_OF_STRIP_PX * n[1]};
    assert_pixel(cv, above, VIEW_BACKGROUND, "above the surface");
  }
}

/// The body's fill at the centre of mass (inside the centre-of-mass ring).
static void check_body(const view_canvas *cv, const view_transform *tf) {
  const double com[2] = {0, 0};
  double w[2], s[2];
  view_body_point(tf, com, w);
  view_to_screen(tf, w, s);
  assert_pixel(cv, s, VIEW_BODY_FILL, "body at the centre of mass");
}

/// Contact i's disc in the colour of its letter, at its drawn position.
static void check_contact(const view_canvas *cv, const view_run *run, const view_transform *tf,
                          int i, int letter) {
  double w[2], s[2];
  view_body_point(tf, run->scene.contacts[i].point, w);
  view_to_screen(tf, w, s);
  assert_pixel(cv, s, VIEW_LETTER_COLOUR[letter], "contact");
}

/// Contact 2 is drawn where its true coordinates put it, magnified:
/// p2 + zoom_n z2 n2 + zoom_t x2 t2 (independent of the pose algebra).
static void check_contact2_position(const view_canvas *cv, const view_run *run,
                                    const view_frame_info *info, const view_transform *tf,
                                    int letter) {
  view_play play;
  view_play_init(&play, run);
  view_play_seek(&play, run, info->t);
  const view_zoom z = view_play_zoom(&play, run);
  const zeno_contact_def *c = &run->scene.contacts[1];
  const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
  const double n[2] = {-t[1], t[0]};
  // ZOD: the rows' zod are the linearised contact coordinates of q.
  const double z2 = info->state.zod[1], x2 = info->state.zod[2];
  const double w[2] = {c->point[0] + z.normal * z2 * n[0] + z.tangential * x2 * t[0],
                       c->point[1] + z.normal * z2 * n[1] + z.tangential * x2 * t[1]};
  double s[2];
  view_to_screen(tf, w, s);
  assert_pixel(cv, s, VIEW_LETTER_COLOUR[letter], "contact 2 at z2, x2");
}

static void check_text_band(const view_canvas *cv) {
  long drawn = 0, dark = 0;
  for (int y = 0; y < VIEW_OVERLAY_HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++) {
      const view_rgb p = view_pixel(cv, x, y);
      if (!same_rgb(p, VIEW_BACKGROUND)) drawn++;
      if (p.r < 100 && p.g < 100 && p.b < 100) dark++;
    }
  assert_true(drawn > MIN_TEXT_PIXELS);
  assert_true(dark > 0);
}

static void test_example2_pixels(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE2);
  view_canvas cv;
  canvas(&cv);
  view_frame_info info;
  view_transform tf;
  // Start: both contacts free (FF), lifted by z = 1.
  draw_at(&cv, &run, 0, &info, &tf);
  check_background(&cv, &run, &tf);
  check_surfaces(&cv, &run, &tf);
  check_body(&cv, &tf);
  check_contact(&cv, &run, &tf, 0, ZENO_LETTER_F);
  check_contact(&cv, &run, &tf, 1, ZENO_LETTER_F);
  check_contact2_position(&cv, &run, &info, &tf, ZENO_LETTER_F);
  check_text_band(&cv);
  // SF: contact 1 sticks, contact 2 is free.
  draw_at(&cv, &run, time_in_mode(&run, "SF"), &info, &tf);
  assert_int_equal(info.state.mode.letter[0], ZENO_LETTER_S);
  check_body(&cv, &tf);
  check_contact(&cv, &run, &tf, 0, ZENO_LETTER_S);
  check_contact(&cv, &run, &tf, 1, ZENO_LETTER_F);
  check_contact2_position(&cv, &run, &info, &tf, ZENO_LETTER_F);
  // FP: contact 2 slips forward.
  draw_at(&cv, &run, time_in_mode(&run, "FP"), &info, &tf);
  check_contact(&cv, &run, &tf, 0, ZENO_LETTER_F);
  check_contact(&cv, &run, &tf, 1, ZENO_LETTER_P);
  check_contact2_position(&cv, &run, &info, &tf, ZENO_LETTER_P);
  // Rest (SS) at x2 = 14.87 (paper).
  draw_at(&cv, &run, run.t_end, &info, &tf);
  assert_true(fabs(info.state.zod[2] - 14.87) < 0.01);
  check_contact(&cv, &run, &tf, 0, ZENO_LETTER_S);
  check_contact(&cv, &run, &tf, 1, ZENO_LETTER_S);
  check_contact2_position(&cv, &run, &info, &tf, ZENO_LETTER_S);
  check_body(&cv, &tf);
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

/// Body point p drawn within half a pixel of its ghost (p itself at the
/// equilibrium pose).
static void assert_on_ghost(const view_transform *tf, const double p[2], const char *what) {
  double w[2], drawn[2], ghost[2];
  view_body_point(tf, p, w);
  view_to_screen(tf, w, drawn);
  view_to_screen(tf, p, ghost);
  const double off = hypot(drawn[0] - ghost[0], drawn[1] - ghost[1]);
  if (!(off < 0.5)) fail_msg("%s drawn %.3g px off its ghost", what, off);
}

// The automatic zoom magnifies no rounding (issue 30): the rocking block
// at rest, its slip x2 ~ 1e-18 of rounding, was magnified 2.29e17 times
// and drawn 58 px off its ghost; at t = 0.1 its sticking contact 2 was
// drawn 22 px off. Both are now on their ghosts (within half a pixel),
// the sticking contact in the colour of S; the slips' zoom stays at
// most VIEW_ZOOM_FRACTION / VIEW_ZOOM_FLOOR.
static void test_rest_is_drawn_on_its_ghost(void **state) {
  (void)state;
  view_run run;
  live(&run, ZENO_SCENES_DIR "/rocking-block.yaml");
  view_canvas cv;
  canvas(&cv);
  view_frame_info info;
  view_transform tf;
  draw_at(&cv, &run, run.t_end, &info, &tf);
  assert_int_equal(info.state.mode.letter[0], ZENO_LETTER_S);
  assert_int_equal(info.state.mode.letter[1], ZENO_LETTER_S);
  const double com[2] = {0, 0};
  assert_on_ghost(&tf, com, "the centre of mass at rest");
  check_body(&cv, &tf);
  for (int i = 0; i < 2; i++) {
    assert_on_ghost(&tf, run.scene.contacts[i].point, "a contact at rest");
    check_contact(&cv, &run, &tf, i, ZENO_LETTER_S);
  }
  view_play play;
  view_play_init(&play, &run);
  view_play_seek(&play, &run, run.t_end);
  const view_zoom z = view_play_zoom(&play, &run);
  assert_true(z.tangential <= VIEW_ZOOM_FRACTION / VIEW_ZOOM_FLOOR * (1 + 1e-12));
  draw_at(&cv, &run, 0.1, &info, &tf);
  assert_int_equal(info.state.mode.letter[1], ZENO_LETTER_S);
  assert_on_ghost(&tf, run.scene.contacts[1].point, "the sticking contact 2");
  check_contact(&cv, &run, &tf, 1, ZENO_LETTER_S);
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

// A scene of three contacts (issue 34): the box in a corner let go off
// it, tilted, under Newton's law (e = 0.5) chatters (79 impacts, 4 Zeno
// completions) and rests jammed between the wall and the right floor
// corner (FSS). At rest its two closed, sticking contacts are drawn on
// their surfaces in the colour of S, the lifted one in that of F; the word
// spells three-letter impacts and ends with the completion and the rest;
// the chart has a lane per gap. Six floor points dropped flat: six lanes,
// all closed at rest.
static void test_box_in_a_corner_drawn(void **state) {
  (void)state;
  const char *const set[] = {"impact.law=newton", "impact.e=0.5",
                             "initial.pose=[0.01, 0.02, 0.01]"};
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", set, 3, &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  view_run run;
  if (view_run_simulate(&run, &s, &err) != ZENO_OK) fail_msg("%s", err.message);
  assert_int_equal(run.outcome, ZENO_OUTCOME_REST);
  view_canvas cv;
  canvas(&cv);
  view_frame_info info;
  view_transform tf;
  draw_at(&cv, &run, run.t_end, &info, &tf);
  const int rest[3] = {ZENO_LETTER_F, ZENO_LETTER_S, ZENO_LETTER_S};
  for (int i = 0; i < 3; i++) {
    assert_int_equal(info.state.mode.letter[i], rest[i]);
    check_contact(&cv, &run, &tf, i, rest[i]);
  }
  // Closed: on their surfaces (within half a pixel along the normal),
  // whatever the magnified slip they made before they stuck.
  for (int i = 1; i < 3; i++) {
    const zeno_contact_def *c = &run.scene.contacts[i];
    double w[2], drawn[2], ghost[2];
    view_body_point(&tf, c->point, w);
    view_to_screen(&tf, w, drawn);
    view_to_screen(&tf, c->point, ghost);
    const double n[2] = {-sin(c->surface_angle), -cos(c->surface_angle)};  // screen y is down
    const double off = (drawn[0] - ghost[0]) * n[0] + (drawn[1] - ghost[1]) * n[1];
    if (!(fabs(off) < 0.5)) fail_msg("closed contact %d drawn %.3g px off its surface", i + 1, off);
  }
  check_body(&cv, &tf);
  // The chart: a lane per contact's gap, at the start (0.015, 0.025,
  // 0.005) by hand: n . (d + theta J p) for the pose (0.01, 0.02, 0.01).
  assert_int_equal(view_chart_lanes(&run.scene), 3);
  zeno_run_dir_row start;
  view_run_state(&run, 0, &start);
  const double gap0[3] = {0.015, 0.025, 0.005};
  for (int i = 0; i < 3; i++)
    assert_true(fabs(view_chart_value(&run.scene, &start, i) - gap0[i]) < 1e-15);
  char word[8192];
  view_run_word(&run, run.t_end, word, (int)sizeof word);
  assert_int_equal(strncmp(word, "FFF FFI FFF FIF", strlen("FFF FFI FFF FIF")), 0);
  assert_string_equal(word + strlen(word) - strlen("Z FPP FSS"), "Z FPP FSS");
  view_canvas_destroy(&cv);
  view_run_free(&run);
  // Six floor points (the box's bottom), dropped flat: six lanes drawn,
  // each its gap (0.2 at the start; all closed at rest).
  s.contact_count = 6;
  for (int i = 0; i < 6; i++) {
    s.contacts[i] = s.contacts[0];
    s.contacts[i].point[0] = -0.5 + i / 5.0;
  }
  s.load_angle = 0;
  const double drop[3] = {0, 0.2, 0};
  memcpy(s.initial_pose, drop, sizeof drop);
  if (view_run_simulate(&run, &s, &err) != ZENO_OK) fail_msg("%s", err.message);
  assert_int_equal(view_chart_lanes(&run.scene), 6);
  canvas(&cv);
  draw_at(&cv, &run, run.t_end, &info, &tf);
  view_run_state(&run, 0, &start);
  for (int i = 0; i < 6; i++) {
    assert_true(fabs(view_chart_value(&run.scene, &start, i) - 0.2) < 1e-15);
    assert_true(fabs(cv.chart_range[i] - 0.2) < 1e-15);  // the largest gap: the start's
    assert_int_equal(info.state.mode.letter[i] == ZENO_LETTER_F, false);  // all closed at rest
  }
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

/* ---- view against replay ----------------------------------------------------- */

static long different_pixels(const view_canvas *a, const view_canvas *b) {
  long n = 0;
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      if (!same_rgb(view_pixel(a, x, y), view_pixel(b, x, y))) n++;
  return n;
}

/// In-process: the live run and the run read back, drawn at the same times.
static void test_view_equals_replay_in_process(void **state) {
  (void)state;
  work_dir w;
  view_run mine, back;
  live_and_saved(&w, EXAMPLE2, &mine, &back);
  view_canvas a, b;
  canvas(&a);
  canvas(&b);
  // Sample times (k * sample_dt), an event time, a time between samples.
  const double times[] = {0.5, 2.5, 10.0, mine.data.events[3].t, 3.14159};
  for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
    view_frame_info ia, ib;
    view_transform ta, tb;
    draw_at(&a, &mine, times[k], &ia, &ta);
    draw_at(&b, &back, times[k], &ib, &tb);
    const long n = different_pixels(&a, &b);
    print_message("view vs replay in-process, t = %g: %ld pixels differ\n", times[k], n);
    if ((double)n >= MAX_DIFFERENT_FRACTION * WIDTH * HEIGHT)
      fail_msg("t = %g: %ld pixels differ", times[k], n);
  }
  view_canvas_destroy(&a);
  view_canvas_destroy(&b);
  view_run_free(&mine);
  view_run_free(&back);
  remove_simulate_out(w.root);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

/// The real binary: `zeno view --screenshot` and `zeno replay --screenshot`
/// at the same time give the same PNG.
static void test_view_equals_replay_binary(void **state) {
  (void)state;
  work_dir w;
  saved_run(&w, EXAMPLE2);
  char view_png[PATH_SIZE], replay_png[PATH_SIZE];
  work_path(&w, "view.png", view_png);
  work_path(&w, "replay.png", replay_png);
  static const char *const at[] = {"2.5", "7.25"};
  for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
    assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", view_png, "--at", at[k]), 0);
    // The run directory holds its scene: replay needs nothing else (the
    // second time, --scene gives it explicitly).
    if (k == 0)
      assert_int_equal(run_zeno("replay", w.root, "--screenshot", replay_png, "--at", at[k]), 0);
    else
      assert_int_equal(run_zeno("replay", w.root, "--scene", EXAMPLE2, "--screenshot", replay_png,
                                "--at", at[k]),
                       0);
    int wa, ha, wb, hb;
    unsigned char *a = read_png(view_png, &wa, &ha);
    unsigned char *b = read_png(replay_png, &wb, &hb);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(wa, WIDTH);
    assert_int_equal(ha, HEIGHT);
    assert_int_equal(wb, WIDTH);
    assert_int_equal(hb, HEIGHT);
    long n = 0;
    for (long p = 0; p < (long)WIDTH * HEIGHT; p++)
      if (memcmp(a + 3 * p, b + 3 * p, 3) != 0) n++;
    print_message("view vs replay PNGs, --at %s: %ld pixels differ\n", at[k], n);
    if ((double)n >= MAX_DIFFERENT_FRACTION * WIDTH * HEIGHT)
      fail_msg("--at %s: %ld pixels differ", at[k], n);
    // Not a blank image: the body's fill colour is there.
    long body = 0;
    for (long p = 0; p < (long)WIDTH * HEIGHT; p++)
      if (a[3 * p] == VIEW_BODY_FILL.r && a[3 * p + 1] == VIEW_BODY_FILL.g &&
          a[3 * p + 2] == VIEW_BODY_FILL.b)
        body++;
    assert_true(body > 1000);
    free(a);
    free(b);
  }
  remove_simulate_out(w.root);
  work_dir_remove(&w, (const char *const[]){"view.png", "replay.png", NULL}, NULL);
}

/* ---- the Zeno warp ------------------------------------------------------------ */

/// Acceptance 2: Example 3's converging chatter in the Zeno warp, drawn
/// frame by frame at 60 fps: at least ten impacts, one at a time, each
/// hop on screen for many frames and opening a gap wider than a pixel.
static void test_zeno_warp_hops(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE3_ZENO);
  assert_true(run.has_zeno);
  assert_true(fabs(run.zeno_time - EX3_ZENO_TIME) < 1e-3);
  view_canvas cv;
  canvas(&cv);
  view_play play;
  view_play_init(&play, &run);
  view_play_set_warp(&play, &run, true);
  long impacts = 0, last_change = 0, hops = 0;
  double widest = 0;  // widest gap drawn in the current hop [px]
  for (long f = 1; f <= WARP_FRAMES; f++) {
    view_play_advance(&play, &run, 1.0 / FPS);
    view_frame_info info;
    view_draw_frame(&cv, &run, &play, &info);
    double d[3];
    const view_zoom z = view_play_zoom(&play, &run);
    view_displayed(&run.scene, z, info.state.q, d);
    const SDL_Rect area = view_scene_area(&cv, &play);
    const view_transform tf = view_transform_make(&area, view_canvas_camera(&cv, &run, &play), d);
    const double gap = fmax(info.state.zod[0], info.state.zod[1]);
    widest = fmax(widest, tf.scale * z.normal * gap);
    if (info.impacts != impacts) {
      // One impact per step: none is lost between two frames.
      assert_int_equal(info.impacts, impacts + 1);
      if (impacts > 0) {
        // The hop that just ended (from the previous impact to this one).
        assert_true(f - last_change >= MIN_FRAMES_PER_HOP);
        if (hops < MIN_HOPS) assert_true(widest >= MIN_HOP_PIXELS);
        hops++;
      }
      impacts = info.impacts;
      last_change = f;
      widest = 0;
    }
  }
  print_message("Zeno warp: %ld hops in %d frames\n", hops, WARP_FRAMES);
  assert_true(hops >= MIN_HOPS);
  assert_true(play.t < run.zeno_time);  // still chattering, not at rest
  // Real time over the last 8 s before the accumulation point: the same
  // impacts pile up, several in one frame.
  view_play_set_warp(&play, &run, false);
  play.speed_level = 1;
  view_play_seek(&play, &run, EX3_TAIL_START);
  long most_in_a_frame = 0, before = view_run_impacts(&run, play.t);
  while (play.t < run.zeno_time) {
    view_play_advance(&play, &run, 1.0 / FPS);
    const long now = view_run_impacts(&run, play.t);
    most_in_a_frame = now - before > most_in_a_frame ? now - before : most_in_a_frame;
    before = now;
  }
  print_message("real time: up to %ld impacts in one frame\n", most_in_a_frame);
  assert_true(most_in_a_frame > 1);
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

/// The warp clock counts event intervals: its knots are the event times
/// and time -> clock -> time is the identity.
static void test_warp_clock(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE2);
  // Example 2 has 7 events; the END shares the last impact's time: 6
  // distinct times, 5 intervals.
  assert_int_equal(run.data.event_count, 7);
  assert_true(run.data.events[6].t == run.data.events[5].t);
  assert_true(view_warp_length(&run) == 5.0);
  for (long i = 0; i < 6; i++) {
    assert_true(fabs(view_warp_clock(&run, run.data.events[i].t) - (double)i) < TOLERANCE);
    assert_true(view_warp_time(&run, (double)i) == run.data.events[i].t);
  }
  for (double t = 0; t < run.t_end; t += 0.37)
    assert_true(fabs(view_warp_time(&run, view_warp_clock(&run, t)) - t) < TOLERANCE * run.t_end);
  view_run_free(&run);
}

/* ---- impulses ------------------------------------------------------------------ */

/// An impulse P at body point r on the body at rest starts a new run with
/// velocity P/m and spin (r x P)/(m rho^2) from the resting pose.
static void test_impulse_restarts_from_state(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE2);
  view_play play;
  view_play_init(&play, &run);
  view_play_seek(&play, &run, run.t_end);
  zeno_run_dir_row rest;
  view_run_state(&run, run.t_end, &rest);
  const zeno_scene sc = run.scene;
  // Upward at the centre of mass: both contacts lift off (FF).
  const double com[2] = {0, 0}, up[2] = {0, 0.5 * sc.mass};
  zeno_error err;
  assert_int_equal(view_apply_impulse(&run, &play, com, up, &err), ZENO_OK);
  assert_int_equal(play.run_number, 2);
  assert_true(play.t == 0);
  const zeno_run_dir_row *start = &run.data.rows[0];
  for (int k = 0; k < 3; k++)
    assert_true(fabs(start->q[k] - rest.q[k]) < TOLERANCE * (1 + fabs(rest.q[k])));
  assert_true(fabs(start->qdot[0]) < TOLERANCE);
  assert_true(fabs(start->qdot[1] - 0.5) < TOLERANCE);
  assert_true(fabs(start->qdot[2]) < TOLERANCE);
  assert_int_equal(run.data.events[0].mode_after.letter[0], ZENO_LETTER_F);
  assert_int_equal(run.data.events[0].mode_after.letter[1], ZENO_LETTER_F);
  // Horizontal at (0, rho) above the centre of mass: spin -P/(m rho).
  view_play_seek(&play, &run, 0);
  zeno_run_dir_row now;
  view_run_state(&run, 0, &now);
  const double top[2] = {0, sc.rho}, side[2] = {0.25 * sc.mass, 0};
  assert_int_equal(view_apply_impulse(&run, &play, top, side, &err), ZENO_OK);
  assert_true(fabs(run.data.rows[0].qdot[0] - (now.qdot[0] + 0.25)) < TOLERANCE);
  assert_true(fabs(run.data.rows[0].qdot[2] - (now.qdot[2] - 0.25 / sc.rho)) < TOLERANCE);
  view_run_free(&run);
}

// `p` perturbs at VIEW_PERTURB_FRACTION of the scene's own velocity scale
// times a size in [1/2, 1), whatever the run it is pressed in: presses used
// to scale by the current run's speed and shrank by orders of magnitude
// from rest. The impulse acts at a point across the body's width.
static void test_perturbation_size(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE2);
  const double scale = view_velocity_scale(&run);
  assert_true(scale > 0);
  const double L = view_body_size(&run.scene);
  const double us[4][3] = {{0, 0, 0}, {0.25, 0.5, 0.5}, {0.999, 0.999, 0.999}, {0.5, 0.1, 0.9}};
  for (int k = 0; k < 4; k++) {
    double point[2], impulse[2];
    view_perturbation(&run.scene, scale, us[k][0], us[k][1], us[k][2], point, impulse);
    const double speed = hypot(impulse[0], impulse[1]) / run.scene.mass;
    const double expect = VIEW_PERTURB_FRACTION * scale * (0.5 + 0.5 * us[k][1]);
    assert_true(fabs(speed - expect) <= 1e-12 * expect);
    assert_true(speed >= 0.5 * VIEW_PERTURB_FRACTION * scale);
    assert_true(fabs(atan2(impulse[1], impulse[0]) -
                     remainder(2 * ZENO_PI * us[k][0], 2 * ZENO_PI)) < 1e-9);
    assert_true(fabs(point[0] - L * (2 * us[k][2] - 1) / 2) < 1e-12 && point[1] == 0);
  }
  view_run_free(&run);
}

// `s` never overwrites: names view-N.png are taken from the first free N,
// reserved as they are handed out.
static void test_fresh_screenshot_names(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "names");
  char cwd[PATH_SIZE], path[PATH_SIZE], message[256];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(w.root), 0);
  FILE *f = fopen("view-1.png", "w");  // an earlier session's
  assert_non_null(f);
  fputs("earlier", f);
  fclose(f);
  int counter = 0;
  assert_true(view_fresh_name("view", "png", &counter, path, sizeof path, message, sizeof message));
  assert_string_equal(path, "view-2.png");
  assert_true(view_fresh_name("view", "png", &counter, path, sizeof path, message, sizeof message));
  assert_string_equal(path, "view-3.png");
  char *earlier = read_file("view-1.png");
  assert_non_null(earlier);
  assert_string_equal(earlier, "earlier");
  free(earlier);
  assert_int_equal(chdir(cwd), 0);
  const char *const names[] = {"view-1.png", "view-2.png", "view-3.png", NULL};
  work_dir_remove(&w, names, NULL);
}

/* ---- the command line ---------------------------------------------------------- */

static void test_cli_bad_input(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "view");
  char png[PATH_SIZE], csv[PATH_SIZE];
  work_path(&w, "x.png", png);
  assert_int_equal(run_zeno("replay", w.root, "--screenshot", png), 2);
  assert_int_equal(run_zeno("replay", w.root, "--scene", EXAMPLE2, "--screenshot", png),
                   2);  // no trajectory.csv
  work_path(&w, "trajectory.csv", csv);
  FILE *f = fopen(csv, "w");
  assert_non_null(f);
  fputs(
      "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,"
      "f2t\n0,1,2,3\n",
      f);
  fclose(f);
  assert_int_equal(run_zeno("replay", w.root, "--scene", EXAMPLE2, "--screenshot", png),
                   2);  // malformed row
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--at-event", "99"), 2);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--size", "10x10"), 2);
  // A window the script resizes beyond --size's range crashed SDL's renderer.
  assert_int_equal(run_zeno("view", EXAMPLE2, "--frames", "3", "--keys", "size=23200x23200"), 2);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--frames", "3", "--keys", "a,size=100x9000"), 2);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--zoom", "0"), 2);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--at", "-1"), 2);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--speed", "6"), 2);
  char jpg[PATH_SIZE];
  work_path(&w, "x.jpg", jpg);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", jpg), 2);  // writes PNG only
  assert_int_equal(access(jpg, F_OK), -1);
  assert_int_equal(access(png, F_OK), -1);  // nothing written on bad input
  // --at-event 0 is the start; the last event index is fine.
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--at-event", "6", "--size",
                            "400x320"),
                   0);
  int width, height;
  unsigned char *pixels = read_png(png, &width, &height);
  assert_non_null(pixels);
  assert_int_equal(width, 400);
  assert_int_equal(height, 320);
  free(pixels);
  static const char *const files[] = {"x.png", "trajectory.csv", NULL};
  work_dir_remove(&w, files, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_word_matches_library),
      cmocka_unit_test(test_replay_reads_simulate_output),
      cmocka_unit_test(test_example2_pixels),
      cmocka_unit_test(test_view_equals_replay_in_process),
      cmocka_unit_test(test_view_equals_replay_binary),
      cmocka_unit_test(test_zeno_warp_hops),
      cmocka_unit_test(test_warp_clock),
      cmocka_unit_test(test_impulse_restarts_from_state),
      cmocka_unit_test(test_perturbation_size),
      cmocka_unit_test(test_fresh_screenshot_names),
      cmocka_unit_test(test_rest_is_drawn_on_its_ghost),
      cmocka_unit_test(test_box_in_a_corner_drawn),
      cmocka_unit_test(test_cli_bad_input),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
