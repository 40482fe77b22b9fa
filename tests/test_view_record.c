// `zeno view --record out.gif` (issue 16): the animation decodes with
// giflib's reader to fps x seconds frames of the requested size, its
// delays add up to the length, its last frame is the screenshot of the same
// time up to the palette's rounding, it needs no display, and bad names or
// values give one error line naming the option, exit 2 and leave no file.
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
/// in nearly every one; the defaults are 10 s at 25 fps (250 frames).
static void test_record_warp_and_defaults(void **state) {
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
  decoded_free(&d);
  assert_int_equal(run_zeno("view", EXAMPLE3_ZENO, "--record", gif, "--size", "320x320"), 0);
  assert_true(decode(gif, &d));
  assert_int_equal(d.frames, (int)lround(VIEW_RECORD_DEFAULT_SECONDS * VIEW_RECORD_DEFAULT_FPS));
  assert_int_equal(d.delay_sum, (int)lround(100 * VIEW_RECORD_DEFAULT_SECONDS));
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_record_matches_screenshots),
      cmocka_unit_test(test_record_warp_and_defaults),
      cmocka_unit_test(test_record_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
