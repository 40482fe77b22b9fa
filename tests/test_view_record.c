// `zeno view --record out.gif` (issue 16): the animation decodes with
// giflib's reader to fps x seconds frames of the requested size, its
// delays add up to the length, its last frame is the screenshot of the same
// time up to the palette's rounding, it needs no display, and bad names or
// values give one error line naming the option, exit 2 and leave no file.
// Without --record-seconds it is the whole run and a hold, ending at rest
// (issue 32).
#include <gif_lib.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "png_rgb.h"
#include "view/view.h"

/// The largest rounding of a channel to the palette's 6x6x6 cube (levels
/// 51 apart) for colours not kept exactly [0-255].
#define CUBE_HALF_STEP 26
/// Pixels of a recorded frame and the screenshot at its time that may
/// differ by more (the clock adds 1/fps per frame: its sum may be the
/// screenshot's time to within rounding).
#define MAX_DIFFERENT_FRACTION 1e-3

typedef struct decoded {
  int width, height, frames;
  int delay_sum;         ///< hundredths of a second
  unsigned char *last;   ///< RGB of the last frame, composed over the ones before
  unsigned char *first;  ///< RGB of the first frame
  int changed_frames;    ///< frames whose rectangle is more than one pixel
} decoded;

/// Decodes with giflib: frames are composed in order (each is drawn over
/// the previous ones, as the writer's disposal says).
static bool decode(const char *path, decoded *d) {
  memset(d, 0, sizeof *d);
  int code = 0;
  GifFileType *gif = DGifOpenFileName(path, &code);
  if (gif == NULL) return false;
  if (DGifSlurp(gif) != GIF_OK || gif->SColorMap == NULL) {
    DGifCloseFile(gif, &code);
    return false;
  }
  d->width = gif->SWidth;
  d->height = gif->SHeight;
  d->frames = gif->ImageCount;
  const size_t n = (size_t)d->width * (size_t)d->height * 3;
  d->last = calloc(n, 1);
  d->first = calloc(n, 1);
  for (int f = 0; f < gif->ImageCount; f++) {
    const SavedImage *im = &gif->SavedImages[f];
    const ColorMapObject *map = im->ImageDesc.ColorMap ? im->ImageDesc.ColorMap : gif->SColorMap;
    GraphicsControlBlock gcb;
    if (DGifSavedExtensionToGCB(gif, f, &gcb) == GIF_OK) d->delay_sum += gcb.DelayTime;
    const GifImageDesc *r = &im->ImageDesc;
    if (r->Width * r->Height > 1) d->changed_frames++;
    for (int y = 0; y < r->Height; y++)
      for (int x = 0; x < r->Width; x++) {
        const GifColorType c = map->Colors[im->RasterBits[y * r->Width + x]];
        unsigned char *p = d->last +
                           3 * ((size_t)(r->Top + y) * (size_t)d->width + (size_t)(r->Left + x));
        p[0] = c.Red;
        p[1] = c.Green;
        p[2] = c.Blue;
      }
    if (f == 0) memcpy(d->first, d->last, n);
  }
  DGifCloseFile(gif, &code);
  return true;
}

static void decoded_free(decoded *d) {
  free(d->last);
  free(d->first);
}

/// Example 2 at 1x, 2 s at 10 fps: 20 frames of 640x400 lasting 200
/// hundredths; frame 19 shows t = 1.9, the screenshot --at 1.9, each channel
/// within the cube's half step, the background and the body's fill exact.
static void test_record_matches_screenshots(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE], png[PATH_SIZE];
  work_path(&w, "ex2.gif", gif);
  work_path(&w, "ex2.png", png);
  // No display needed: the recording is drawn offscreen.
  assert_int_equal(unsetenv("DISPLAY"), 0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--record", gif, "--record-seconds", "2", "--fps",
                            "10", "--size", "640x400", "--speed", "1"),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--at", "1.9", "--size",
                            "640x400", "--speed", "1"),
                   0);
  decoded d;
  assert_true(decode(gif, &d));
  assert_int_equal(d.frames, 20);
  assert_int_equal(d.width, 640);
  assert_int_equal(d.height, 400);
  assert_int_equal(d.delay_sum, 200);
  int pw, ph;
  unsigned char *shot = read_png(png, &pw, &ph);
  assert_non_null(shot);
  assert_int_equal(pw, 640);
  assert_int_equal(ph, 400);
  long far = 0, body_exact = 0;
  for (long p = 0; p < 640L * 400; p++) {
    for (int c = 0; c < 3; c++)
      if (abs((int)d.last[3 * p + c] - (int)shot[3 * p + c]) > CUBE_HALF_STEP) {
        far++;
        break;
      }
    if (shot[3 * p] == VIEW_BODY_FILL.r && shot[3 * p + 1] == VIEW_BODY_FILL.g &&
        shot[3 * p + 2] == VIEW_BODY_FILL.b)
      body_exact += memcmp(d.last + 3 * p, shot + 3 * p, 3) == 0;
  }
  print_message(
      "last frame against the screenshot at t = 1.9: %ld pixels beyond the palette's "
      "rounding, %ld body pixels exact\n",
      far, body_exact);
  assert_true((double)far <= MAX_DIFFERENT_FRACTION * 640 * 400);
  assert_true(body_exact > 1000);
  const unsigned char *corner = d.first + 3 * (size_t)(640 * (VIEW_OVERLAY_HEIGHT + 4) + 4);
  assert_int_equal(corner[0], VIEW_BACKGROUND.r);
  assert_int_equal(corner[1], VIEW_BACKGROUND.g);
  assert_int_equal(corner[2], VIEW_BACKGROUND.b);
  free(shot);
  decoded_free(&d);
  work_dir_remove(&w, (const char *const[]){"ex2.gif", "ex2.png", NULL}, NULL);
}

/// Example 3 in Zeno warp, 3 s at 10 fps: 30 frames, and the chatter moves
/// in nearly every one; 7 fps gives delays that add up to the length.
static void test_record_warp_and_rates(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE];
  work_path(&w, "ex3.gif", gif);
  assert_int_equal(run_zeno("view", EXAMPLE3_ZENO, "--record", gif, "--record-seconds", "3",
                            "--fps", "10", "--size", "320x320", "--zeno-warp"),
                   0);
  decoded d;
  assert_true(decode(gif, &d));
  assert_int_equal(d.frames, 30);
  assert_int_equal(d.delay_sum, 300);
  assert_true(d.changed_frames >= 29);
  assert_int_equal(d.width, 320);
  decoded_free(&d);
  // 7 fps: delays of 14 and 15 hundredths that add up to 1 s per 7 frames.
  assert_int_equal(run_zeno("view", EXAMPLE2, "--record", gif, "--record-seconds", "1", "--fps",
                            "7", "--size", "320x320"),
                   0);
  assert_true(decode(gif, &d));
  assert_int_equal(d.frames, 7);
  assert_int_equal(d.delay_sum, 100);
  decoded_free(&d);
  work_dir_remove(&w, (const char *const[]){"ex3.gif", NULL}, NULL);
}

/* ---- the whole run by default ------------------------------------------------ */

/// Frame rate and size of the whole-run recordings: few small frames, so
/// the default suite stays fast (the length does not depend on them).
#define WHOLE_FPS 5
#define WHOLE_FPS_TEXT "5"
#define WHOLE_SIZE 320
#define WHOLE_SIZE_TEXT "320x320"
/// A display time past any run's end: --at clamps it to the end.
#define AFTER_THE_END "1e9"
/// Text-band pixels of the old last frame (Example 2 cut at t = 9.92,
/// "status running") that differ from the end's beyond the palette's
/// rounding: the time and status words differ in hundreds of pixels.
#define MIN_TEXT_BAND_CHANGE 100

/// Pixels of the first n where a and b differ by more than the palette's
/// rounding in some channel.
static long frame_far(const unsigned char *a, const unsigned char *b, long n) {
  long far = 0;
  for (long p = 0; p < n; p++)
    for (int c = 0; c < 3; c++)
      if (abs((int)a[3 * p + c] - (int)b[3 * p + c]) > CUBE_HALF_STEP) {
        far++;
        break;
      }
  return far;
}

/// The same over the text band (the rows above VIEW_OVERLAY_HEIGHT: the
/// first width x VIEW_OVERLAY_HEIGHT pixels).
static long text_band_far(const unsigned char *a, const unsigned char *b, int width) {
  return frame_far(a, b, (long)width * VIEW_OVERLAY_HEIGHT);
}

/// The first line of the text band drawn at the end of the run (the text
/// hook's first string).
typedef struct first_text {
  char text[256];
} first_text;

static void keep_first(void *user, const char *text, const SDL_Rect *box) {
  (void)box;
  first_text *f = user;
  if (f->text[0] == '\0') snprintf(f->text, sizeof f->text, "%s", text);
}

/// The run of a scene in-process, and the overlay's first line at its end:
/// "t = T_END ... status rest".
static void end_of_run(const char *path, bool warp, view_run *run, first_text *line) {
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(path, NULL, 0, &s, &err) != ZENO_OK) fail_msg("%s", err.message);
  if (view_run_simulate(run, &s, &err) != ZENO_OK) fail_msg("%s", err.message);
  assert_int_equal(TTF_Init(), 0);
  view_canvas cv;
  char message[256];
  // The default size: the whole line fits (320 px cut it with "...").
  if (!view_canvas_create(&cv, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT, message, sizeof message))
    fail_msg("%s", message);
  memset(line, 0, sizeof *line);
  cv.text_hook = keep_first;
  cv.text_user = line;
  view_play play;
  view_play_init(&play, run);
  view_play_set_warp(&play, run, warp);
  view_play_seek(&play, run, 1e9);
  view_draw_frame(&cv, run, &play, NULL);
  view_canvas_destroy(&cv);
  TTF_Quit();
  char t_end[64];
  snprintf(t_end, sizeof t_end, "t = %.6g ", run->t_end);
  if (strstr(line->text, t_end) != strstr(line->text, "t = ") ||
      strstr(line->text, t_end) == NULL || strstr(line->text, "status rest") == NULL)
    fail_msg("the end of %s draws '%s', want '%s' and 'status rest'", path, line->text, t_end);
}

/// Event of Example 2 a recording starts at in test_record_from_event: the
/// second impact.
#define FROM_EVENT 2
#define FROM_EVENT_TEXT "2"

/// --at-event chooses where a recording starts, as for a screenshot (it
/// started at t = 0 whatever the event): the first frame is the screenshot
/// of --at-event, and the whole run from there is ceil((t_end - t_event +
/// hold) x fps) frames.
static void test_record_from_event(void **state) {
  (void)state;
  view_run run;
  first_text line;
  end_of_run(EXAMPLE2, false, &run, &line);
  assert_true(run.data.event_count > FROM_EVENT);
  const double t_event = run.data.events[FROM_EVENT].t;
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE], png[PATH_SIZE], start[PATH_SIZE];
  work_path(&w, "ev.gif", gif);
  work_path(&w, "ev.png", png);
  work_path(&w, "start.png", start);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--record", gif, "--at-event", FROM_EVENT_TEXT,
                            "--fps", WHOLE_FPS_TEXT, "--size", WHOLE_SIZE_TEXT),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--at-event", FROM_EVENT_TEXT,
                            "--size", WHOLE_SIZE_TEXT),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", start, "--size", WHOLE_SIZE_TEXT), 0);
  decoded d;
  assert_true(decode(gif, &d));
  const long want = (long)ceil((run.t_end - t_event + VIEW_RECORD_HOLD_SECONDS) * WHOLE_FPS);
  print_message("from event %d (t = %g): %d frames (want %ld)\n", FROM_EVENT, t_event, d.frames,
                want);
  assert_int_equal(d.frames, want);
  int pw, ph;
  unsigned char *at_event = read_png(png, &pw, &ph), *at_start = read_png(start, &pw, &ph);
  assert_non_null(at_event);
  assert_non_null(at_start);
  const long n = (long)WHOLE_SIZE * WHOLE_SIZE;
  assert_true((double)frame_far(d.first, at_event, n) <= MAX_DIFFERENT_FRACTION * (double)n);
  assert_true(text_band_far(d.first, at_start, WHOLE_SIZE) >= MIN_TEXT_BAND_CHANGE);
  free(at_event);
  free(at_start);
  decoded_free(&d);
  view_run_free(&run);
  work_dir_remove(&w, (const char *const[]){"ev.gif", "ev.png", "start.png", NULL}, NULL);
}

/// Acceptance (issue 32): without --record-seconds a recording plays the
/// whole run, from --at to the end, then holds the end for
/// VIEW_RECORD_HOLD_SECONDS: Example 2 at 1x is ceil((17.2205 + 1) x 5) =
/// 92 frames at 5 fps (it stopped at t = 9.92, "status running"), and its
/// last frame is the frame at the end of the run, "status rest", to within
/// the palette's rounding: its text band exactly, unlike the old cut.
static void test_record_whole_run(void **state) {
  (void)state;
  view_run run;
  first_text line;
  end_of_run(EXAMPLE2, false, &run, &line);
  assert_int_equal(run.outcome, ZENO_OUTCOME_REST);
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE], end[PATH_SIZE], cut[PATH_SIZE];
  work_path(&w, "ex2.gif", gif);
  work_path(&w, "end.png", end);
  work_path(&w, "cut.png", cut);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--record", gif, "--fps", WHOLE_FPS_TEXT, "--size",
                            WHOLE_SIZE_TEXT),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", end, "--at", AFTER_THE_END, "--size",
                            WHOLE_SIZE_TEXT),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", cut, "--at", "9.92", "--size",
                            WHOLE_SIZE_TEXT),
                   0);
  decoded d;
  assert_true(decode(gif, &d));
  const long want = (long)ceil((run.t_end + VIEW_RECORD_HOLD_SECONDS) * WHOLE_FPS);
  print_message("Example 2, the whole run: %d frames (want %ld), %d hundredths\n", d.frames, want,
                d.delay_sum);
  assert_int_equal(d.frames, want);
  assert_int_equal(d.delay_sum, (int)lround(100.0 * (double)want / WHOLE_FPS));
  int pw, ph;
  unsigned char *at_end = read_png(end, &pw, &ph), *at_cut = read_png(cut, &pw, &ph);
  assert_non_null(at_end);
  assert_non_null(at_cut);
  const long n = (long)WHOLE_SIZE * WHOLE_SIZE;
  const long far = frame_far(d.last, at_end, n);
  const long band_end = text_band_far(d.last, at_end, WHOLE_SIZE);
  const long band_cut = text_band_far(d.last, at_cut, WHOLE_SIZE);
  print_message(
      "last frame against the end ('%s'): %ld pixels beyond the palette's rounding, "
      "%ld in the text band; against t = 9.92: %ld in the text band\n",
      line.text, far, band_end, band_cut);
  assert_true((double)far <= MAX_DIFFERENT_FRACTION * (double)n);
  assert_int_equal(band_end, 0);
  assert_true(band_cut >= MIN_TEXT_BAND_CHANGE);
  free(at_end);
  free(at_cut);
  decoded_free(&d);
  view_run_free(&run);
  work_dir_remove(&w, (const char *const[]){"ex2.gif", "end.png", "cut.png", NULL}, NULL);
}

/// In Zeno warp the whole run is its event intervals at
/// VIEW_WARP_EVENTS_PER_SECOND plus the hold: Example 3's 73 impacts, the
/// accumulation point and the slide to rest (the docs' 6 s showed 11
/// impacts); the last frame is the end, "status rest".
static void test_record_whole_warp(void **state) {
  (void)state;
  view_run run;
  first_text line;
  end_of_run(EXAMPLE3_ZENO, true, &run, &line);
  assert_true(run.has_zeno);
  assert_non_null(strstr(line.text, "impacts 73 "));
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE], end[PATH_SIZE];
  work_path(&w, "ex3.gif", gif);
  work_path(&w, "end.png", end);
  assert_int_equal(run_zeno("view", EXAMPLE3_ZENO, "--zeno-warp", "--record", gif, "--fps",
                            WHOLE_FPS_TEXT, "--size", WHOLE_SIZE_TEXT),
                   0);
  assert_int_equal(run_zeno("view", EXAMPLE3_ZENO, "--zeno-warp", "--screenshot", end, "--at",
                            AFTER_THE_END, "--size", WHOLE_SIZE_TEXT),
                   0);
  decoded d;
  assert_true(decode(gif, &d));
  const long want =
      (long)ceil((view_warp_length(&run) / VIEW_WARP_EVENTS_PER_SECOND + VIEW_RECORD_HOLD_SECONDS) *
                 WHOLE_FPS);
  print_message("Example 3 in the warp: %d frames (want %ld)\n", d.frames, want);
  assert_int_equal(d.frames, want);
  int pw, ph;
  unsigned char *at_end = read_png(end, &pw, &ph);
  assert_non_null(at_end);
  assert_int_equal(text_band_far(d.last, at_end, WHOLE_SIZE), 0);
  assert_true((double)frame_far(d.last, at_end, (long)WHOLE_SIZE * WHOLE_SIZE) <=
              MAX_DIFFERENT_FRACTION * WHOLE_SIZE * WHOLE_SIZE);
  free(at_end);
  decoded_free(&d);
  view_run_free(&run);
  work_dir_remove(&w, (const char *const[]){"ex3.gif", "end.png", NULL}, NULL);
}

/// A whole run longer than VIEW_RECORD_MAX_SECONDS at its speed (Example 2
/// at 0.0001x: 172205 s) is cut there, and stderr says so and names
/// --record-seconds; --record-seconds still limits any run.
static void test_record_whole_run_capped(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE];
  work_path(&w, "slow.gif", gif);
  const run_result r = run_zeno_argv((const char *const[]){"view", EXAMPLE2, "--record", gif,
                                                           "--speed", "5", "--fps", "1", "--size",
                                                           WHOLE_SIZE_TEXT, NULL},
                                     true);
  assert_int_equal(r.exit_code, 0);
  print_message("%s", r.err);
  assert_non_null(strstr(r.err, "--record-seconds"));
  decoded d;
  assert_true(decode(gif, &d));
  assert_int_equal(d.frames, (int)lround(VIEW_RECORD_MAX_SECONDS));
  decoded_free(&d);
  run_result tmp = r;
  run_result_free(&tmp);
  work_dir_remove(&w, (const char *const[]){"slow.gif", NULL}, NULL);
}

/// One bad option: exit `code`, one line on stderr naming `option`, no file.
static void check_refused(const char *const *args, int code, const char *option, const char *file) {
  const run_result r = run_zeno_argv(args, true);
  if (r.exit_code != code) fail_msg("%s: exit %d, want %d: %s", option, r.exit_code, code, r.err);
  if (strstr(r.err, option) == NULL) fail_msg("stderr does not name %s: %s", option, r.err);
  const char *newline = strchr(r.err, '\n');
  if (newline == NULL || newline[1] != '\0') fail_msg("%s: not one line: %s", option, r.err);
  if (access(file, F_OK) == 0) fail_msg("%s: %s was left behind", option, file);
  run_result tmp = r;
  run_result_free(&tmp);
}

static void test_record_bad_input(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "record");
  char gif[PATH_SIZE], avi[PATH_SIZE], png[PATH_SIZE], missing[PATH_SIZE];
  work_path(&w, "x.gif", gif);
  work_path(&w, "x.avi", avi);
  work_path(&w, "x.png", png);
  work_path(&w, "no-such-dir/x.gif", missing);
  check_refused((const char *const[]){"view", EXAMPLE2, "--record", avi, NULL}, 2, "--record", avi);
  check_refused((const char *const[]){"view", EXAMPLE2, "--record", ".gif", NULL}, 2, "--record",
                ".gif");
  const char *const bad_seconds[] = {"0", "-1", "601", "abc", "nan"};
  for (size_t k = 0; k < sizeof bad_seconds / sizeof bad_seconds[0]; k++)
    check_refused((const char *const[]){"view", EXAMPLE2, "--record", gif, "--record-seconds",
                                        bad_seconds[k], NULL},
                  2, "--record-seconds", gif);
  const char *const bad_fps[] = {"0", "51", "2.5", "x"};
  for (size_t k = 0; k < sizeof bad_fps / sizeof bad_fps[0]; k++)
    check_refused((const char *const[]){"view", EXAMPLE2, "--record", gif, "--fps", bad_fps[k],
                                        NULL},
                  2, "--fps", gif);
  check_refused((const char *const[]){"view", EXAMPLE2, "--fps", "10", "--screenshot", png, NULL},
                2, "--fps", png);
  check_refused((const char *const[]){"view", EXAMPLE2, "--record-seconds", "1", NULL}, 2,
                "--record-seconds", gif);
  check_refused((const char *const[]){"view", EXAMPLE2, "--record", gif, "--screenshot", png, NULL},
                2, "--record", gif);
  // A file that cannot be created: exit 1, its name in the one line.
  check_refused((const char *const[]){"view", EXAMPLE2, "--record", missing, NULL}, 1,
                "no-such-dir/x.gif", missing);
  assert_int_equal(access(png, F_OK), -1);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

/// `view --help` and `replay --help` state the default length with the
/// hold the recorder uses.
static void test_record_help(void **state) {
  (void)state;
  char hold[64];
  snprintf(hold, sizeof hold, "the whole run from --at or --at-event to its end, then %g s",
           VIEW_RECORD_HOLD_SECONDS);
  const char *const commands[] = {"view", "replay"};
  for (int k = 0; k < 2; k++) {
    run_result r = run_zeno_captured(commands[k], "--help");
    assert_int_equal(r.exit_code, 0);
    // The help wraps lines: compare with its runs of spaces folded.
    char folded[8192];
    size_t n = 0;
    for (const char *p = r.out; *p != '\0' && n + 1 < sizeof folded; p++)
      if (!((*p == ' ' || *p == '\n') && n > 0 && folded[n - 1] == ' '))
        folded[n++] = *p == '\n' ? ' ' : *p;
    folded[n] = '\0';
    if (strstr(folded, hold) == NULL) fail_msg("%s --help lacks '%s'", commands[k], hold);
    run_result_free(&r);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_record_matches_screenshots),
      cmocka_unit_test(test_record_warp_and_rates),
      cmocka_unit_test(test_record_whole_run),
      cmocka_unit_test(test_record_from_event),
      cmocka_unit_test(test_record_whole_warp),
      cmocka_unit_test(test_record_whole_run_capped),
      cmocka_unit_test(test_record_help),
      cmocka_unit_test(test_record_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
