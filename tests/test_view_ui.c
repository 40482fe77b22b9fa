// The viewer explains itself and fits its window (issue 16): the colour
// legend and its key, the strip chart's lane labels (quantity and unit),
// every string inside the canvas at small sizes, thick friction cones, and
// screenshots of the requested size. Headless: frames drawn offscreen.
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "view/view.h"

/// Sizes the tests draw at [px]: the default, a small laptop window and
/// the smallest allowed.
static const int SIZES[][2] = {
    {VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT}, {640, 400}, {VIEW_MIN_WIDTH, VIEW_MIN_HEIGHT}};
#define SIZE_COUNT ((int)(sizeof SIZES / sizeof SIZES[0]))
/// The legend draws its swatches and text: at least this many of its
/// pixels change when it is switched off (a 9-line legend has thousands).
#define MIN_LEGEND_PIXELS 1500
/// A one-contact scene whose motion (a 1 m drop) is large against its body.
#define BOUNCING_BALL ZENO_SCENES_DIR "/bouncing-ball.yaml"
/// Most strings one frame draws (text band, chart, help, legend).
#define MAX_STRINGS 64
/// Cone-coloured pixels in a 5x5 window on a cone edge (see
/// test_cones_are_thick).
#define MIN_CONE_PIXELS 11
#define STRING_SIZE 256

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

static void live(view_run *run, const char *path, const char *model) {
  zeno_scene s;
  zeno_error err;
  const char *set[1] = {model};
  if (zeno_scene_load(path, set, model ? 1 : 0, &s, &err) != ZENO_OK)
    fail_msg("%s: %s", path, err.message);
  if (view_run_simulate(run, &s, &err) != ZENO_OK) fail_msg("%s: %s", path, err.message);
}

static void canvas(view_canvas *cv, int width, int height) {
  char message[256];
  if (!view_canvas_create(cv, width, height, message, sizeof message)) fail_msg("%s", message);
}

static bool same_rgb(view_rgb a, view_rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

/// What the text hook saw: every string and its box.
typedef struct text_log {
  int count;
  char text[MAX_STRINGS][STRING_SIZE];
  SDL_Rect box[MAX_STRINGS];
} text_log;

static void record_text(void *user, const char *text, const SDL_Rect *box) {
  text_log *log = user;
  if (log->count >= MAX_STRINGS) fail_msg("more than %d strings in one frame", MAX_STRINGS);
  snprintf(log->text[log->count], STRING_SIZE, "%s", text);
  log->box[log->count++] = *box;
}

static const char *find_text(const text_log *log, const char *part) {
  for (int k = 0; k < log->count; k++)
    if (strstr(log->text[k], part) != NULL) return log->text[k];
  return NULL;
}

static void draw(view_canvas *cv, const view_run *run, view_play *play, double t, text_log *log) {
  view_play_seek(play, run, t);
  memset(log, 0, sizeof *log);
  cv->text_hook = record_text;
  cv->text_user = log;
  view_draw_frame(cv, run, play, NULL);
}

/// The scene's run drawn at time t (clamped to the run: INFINITY is its
/// end) on a new canvas of the default size, the legend off.
static void draw_scene(const char *scene, double t, view_run *run, view_canvas *cv, view_play *play,
                       text_log *log) {
  live(run, scene, NULL);
  canvas(cv, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  view_play_init(play, run);
  play->legend = false;
  draw(cv, run, play, t, log);
}

/* ---- the legend ---------------------------------------------------------------- */

/// `l` switches the legend: its box changes, nothing else does; with it on,
/// the box holds each contact letter's colour, the force's, the impulse's
/// and the cone's, and its text names them.
static void test_legend_toggle(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE2, NULL);
  for (int s = 0; s < SIZE_COUNT; s++) {
    view_canvas on, off;
    canvas(&on, SIZES[s][0], SIZES[s][1]);
    canvas(&off, SIZES[s][0], SIZES[s][1]);
    view_play play;
    view_play_init(&play, &run);
    assert_true(play.legend);  // on at the start
    text_log log;
    draw(&on, &run, &play, 2.5, &log);
    assert_non_null(find_text(&log, "S  sticking"));
    assert_non_null(find_text(&log, "friction cone"));
    assert_non_null(find_text(&log, "ghost"));
    play.legend = false;
    draw(&off, &run, &play, 2.5, &log);
    assert_null(find_text(&log, "friction cone"));
    const SDL_Rect box = view_legend_box(&on);
    assert_true(box.x >= 0 && box.x + box.w <= on.width);
    assert_true(box.y >= VIEW_OVERLAY_HEIGHT && box.y + box.h <= on.height - VIEW_CHART_HEIGHT);
    long inside = 0, outside = 0;
    bool seen[ZENO_LETTER_N + 4] = {false};
    const view_rgb *wanted[] = {&VIEW_LETTER_COLOUR[0],
                                &VIEW_LETTER_COLOUR[1],
                                &VIEW_LETTER_COLOUR[2],
                                &VIEW_LETTER_COLOUR[3],
                                &VIEW_FORCE,
                                &VIEW_IMPULSE,
                                &VIEW_CONE};
    const int want_count = (int)(sizeof wanted / sizeof wanted[0]);
    for (int y = 0; y < on.height; y++)
      for (int x = 0; x < on.width; x++) {
        const view_rgb a = view_pixel(&on, x, y);
        const bool in = x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h;
        if (!same_rgb(a, view_pixel(&off, x, y))) {
          if (in) inside++;
          else outside++;
        }
        for (int k = 0; in && k < want_count; k++)
          if (same_rgb(a, *wanted[k])) seen[k] = true;
      }
    print_message("%dx%d: legend %dx%d, %ld pixels change inside, %ld outside\n", SIZES[s][0],
                  SIZES[s][1], box.w, box.h, inside, outside);
    assert_true(inside >= MIN_LEGEND_PIXELS);
    assert_int_equal(outside, 0);
    for (int k = 0; k < want_count; k++)
      if (!seen[k]) fail_msg("%dx%d: legend colour %d missing", SIZES[s][0], SIZES[s][1], k);
    view_canvas_destroy(&on);
    view_canvas_destroy(&off);
  }
  view_run_free(&run);
}

/* ---- lane labels ------------------------------------------------------------------ */

static void assert_lane(const text_log *log, const char *meaning, const char *unit) {
  const char *s = find_text(log, meaning);
  if (s == NULL) fail_msg("no lane label '%s'", meaning);
  if (strstr(s, unit) == NULL) fail_msg("lane label '%s' lacks the unit '%s'", s, unit);
}

/// Each lane says what its number is and its unit: z1, z2, x2 in length
/// (the full model's divided by eps^2), one-contact scenes z1, x1 and the
/// tilt theta in rad; the abscissa says time or event intervals.
static void test_lane_labels(void **state) {
  (void)state;
  view_canvas cv;
  canvas(&cv, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  text_log log;
  view_play play;
  view_run run;
  live(&run, EXAMPLE2, NULL);
  view_play_init(&play, &run);
  draw(&cv, &run, &play, 2.5, &log);
  assert_lane(&log, "z1: gap at contact 1", "[length]");
  assert_lane(&log, "z2: gap at contact 2", "[length]");
  assert_lane(&log, "x2: slip of contact 2", "[length]");
  assert_non_null(find_text(&log, "time t [time]"));
  // The lane's half range is the largest |x2| the chart samples: within
  // 1% of the largest of the run's rows (at least the rest value 14.87,
  // paper).
  double largest = 0;
  for (size_t i = 0; i < run.data.row_count; i++)
    largest = fmax(largest, fabs(run.data.rows[i].zod[2]));
  assert_true(largest >= 14.86);
  const char *x2 = strstr(find_text(&log, "x2: slip"), "lane \u00b1");
  assert_non_null(x2);
  const double range = strtod(x2 + strlen("lane \u00b1"), NULL);
  print_message("x2 lane: \u00b1%g, largest |x2| of the rows %g\n", range, largest);
  assert_true(fabs(range - largest) <= 1e-2 * largest);
  view_play_set_warp(&play, &run, true);
  draw(&cv, &run, &play, 2.5, &log);
  assert_non_null(find_text(&log, "event intervals"));
  view_run_free(&run);
  live(&run, EXAMPLE2, "model=full");
  view_play_init(&play, &run);
  draw(&cv, &run, &play, 0, &log);
  assert_lane(&log, "z1: gap at contact 1", "[length / eps\u00b2]");
  view_run_free(&run);
  live(&run, BOUNCING_BALL, NULL);
  assert_int_equal(run.scene.contact_count, 1);
  view_play_init(&play, &run);
  draw(&cv, &run, &play, 0, &log);
  assert_lane(&log, "z1: gap at the contact", "[length]");
  assert_lane(&log, "x1: slip", "[length]");
  assert_lane(&log, "theta: tilt", "[rad]");
  view_run_free(&run);
  view_canvas_destroy(&cv);
}

/* ---- text that fits ------------------------------------------------------------------ */

/// At every size, with the help and the legend on, in real time and in the
/// Zeno warp, late in Example 3's long chatter (the longest word): every
/// string lies inside the canvas.
static void test_text_fits(void **state) {
  (void)state;
  view_run run;
  live(&run, EXAMPLE3_ZENO, NULL);
  for (int s = 0; s < SIZE_COUNT; s++) {
    view_canvas cv;
    canvas(&cv, SIZES[s][0], SIZES[s][1]);
    for (int mode = 0; mode < 2; mode++) {
      view_play play;
      view_play_init(&play, &run);
      play.help = true;
      view_play_set_warp(&play, &run, mode == 1);
      text_log log;
      draw(&cv, &run, &play, run.zeno_time, &log);
      assert_true(log.count > VIEW_HELP_LINE_COUNT);
      for (int k = 0; k < log.count; k++) {
        const SDL_Rect *b = &log.box[k];
        if (b->x < 0 || b->y < 0 || b->x + b->w > cv.width || b->y + b->h > cv.height)
          fail_msg("%dx%d: '%s' at (%d, %d) size %dx%d leaves the canvas", cv.width, cv.height,
                   log.text[k], b->x, b->y, b->w, b->h);
      }
      // The help has all its lines, whole or cut with "...".
      for (int k = 0; k < VIEW_HELP_LINE_COUNT; k++) {
        char head[12];
        snprintf(head, sizeof head, "%.11s", VIEW_HELP_LINES[k]);
        assert_non_null(find_text(&log, head));
      }
    }
    view_canvas_destroy(&cv);
  }
  view_run_free(&run);
}

/* ---- friction cones -------------------------------------------------------------------- */

/// At rest (SS) both cones are drawn: across each edge, at a point along
/// it, three pixels in a row have the cone's colour (the edges used to be
/// 1 px lines at partial opacity).
static void test_cones_are_thick(void **state) {
  (void)state;
  view_run run;
  view_canvas cv;
  view_play play;
  text_log log;
  draw_scene(EXAMPLE2, INFINITY, &run, &cv, &play, &log);
  zeno_run_dir_row st;
  view_run_state(&run, run.t_end, &st);
  double d[3];
  view_displayed(&run.scene, view_play_zoom(&play, &run), st.q, d);
  const SDL_Rect area = view_scene_area(&cv, &play);
  const view_transform tf = view_transform_make(&area, view_canvas_camera(&cv, &run, &play), d);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(st.mode.letter[i], ZENO_LETTER_S);
    const zeno_contact_def *c = &run.scene.contacts[i];
    double w[2], at[2];
    view_body_point(&tf, c->point, w);
    view_to_screen(&tf, w, at);
    const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
    const double n[2] = {-t[1], t[0]};
    for (int side = -1; side <= 1; side += 2) {
      double e[2] = {n[0] + side * c->mu * t[0], -(n[1] + side * c->mu * t[1])};  // screen
      const double len = hypot(e[0], e[1]);
      e[0] /= len;
      e[1] /= len;
      // Three-quarters along (clear of the contact disc and the force), a
      // 5x5 window holds at least MIN_CONE_PIXELS of the cone's colour: a
      // 3 px edge covers ~15, a 1 px line at most 9.
      const int x0 = (int)floor(at[0] + 0.75 * VIEW_CONE_PX * e[0]);
      const int y0 = (int)floor(at[1] + 0.75 * VIEW_CONE_PX * e[1]);
      int count = 0;
      for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++)
          if (same_rgb(view_pixel(&cv, x0 + dx, y0 + dy), VIEW_CONE)) count++;
      print_message("contact %d edge %+d: %d cone pixels around (%d, %d)\n", i + 1, side, count, x0,
                    y0);
      if (count < MIN_CONE_PIXELS)
        fail_msg("contact %d edge %+d: %d cone pixels around (%d, %d)", i + 1, side, count, x0, y0);
    }
  }
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

/* ---- screenshots of a requested size ---------------------------------------------------- */

static bool png_size(const char *path, int *width, int *height) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) return false;
  *width = (int)image.width;
  *height = (int)image.height;
  png_image_free(&image);
  return true;
}

/// `--size WxH` gives a WxH screenshot; the default is 1000x700.
static void test_screenshot_sizes(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "view-ui");
  char png[PATH_SIZE];
  work_path(&w, "shot.png", png);
  int width, height;
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--size", "640x400", "--at",
                            "2.5"),
                   0);
  assert_true(png_size(png, &width, &height));
  assert_int_equal(width, 640);
  assert_int_equal(height, 400);
  assert_int_equal(run_zeno("view", EXAMPLE2, "--screenshot", png, "--at", "2.5"), 0);
  assert_true(png_size(png, &width, &height));
  assert_int_equal(width, VIEW_DEFAULT_WIDTH);
  assert_int_equal(height, VIEW_DEFAULT_HEIGHT);
  work_dir_remove(&w, (const char *const[]){"shot.png", NULL}, NULL);
}

/* ---- live reload ---------------------------------------------------------------------- */

/// Writes text to path and moves its modification time `ahead` seconds
/// past the previous version (two writes in one clock tick would look the
/// same).
static void write_scene(const char *path, const char *text, long ahead) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  struct timespec times[2] = {st.st_atim, st.st_mtim};
  times[1].tv_sec += ahead;
  assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/// A changed scene file replaces the run (with the --set overrides applied
/// again); a broken one keeps the run and says why, with file:line:column,
/// on screen; the fixed file loads again.
static void test_live_reload(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "reload");
  char path[PATH_SIZE];
  work_path(&w, "scene.yaml", path);
  char *text = read_file(EXAMPLE2);
  assert_non_null(text);
  write_scene(path, text, 0);
  const char *overrides[] = {"stop.t_end=12"};
  view_options o = view_options_default();
  o.scene_path = path;
  o.overrides = overrides;
  o.override_count = 1;
  view_run run;
  zeno_scene s;
  zeno_error err;
  assert_int_equal(zeno_scene_load(path, overrides, 1, &s, &err), ZENO_OK);
  assert_int_equal(view_run_simulate(&run, &s, &err), ZENO_OK);
  view_reload r;
  view_reload_init(&r, &o);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_UNCHANGED);
  assert_true(fabs(run.scene.contacts[1].mu - 0.6) < 1e-12);
  // mu2 0.6 -> 0.9: reloaded, the override still applied.
  char *changed = strdup(text);
  char *mu2 = strstr(changed, "mu2: 0.6");
  assert_non_null(mu2);
  mu2[strlen("mu2: 0.")] = '9';
  write_scene(path, changed, 1);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_DONE);
  assert_true(fabs(run.scene.contacts[1].mu - 0.9) < 1e-12);
  assert_true(fabs(run.scene.t_end - 12) < 1e-12);
  assert_string_equal(r.error, "");
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_UNCHANGED);
  // Broken: a value out of range on line 21.
  char *broken = strdup(changed);
  mu2 = strstr(broken, "mu2: 0.9");
  memcpy(mu2, "mu2: -.9", strlen("mu2: -.9"));
  write_scene(path, broken, 2);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_FAILED);
  print_message("reload error: %s\n", r.error);
  assert_non_null(strstr(r.error, "scene.yaml:21:"));
  assert_non_null(strstr(r.error, "mu2"));
  assert_true(fabs(run.scene.contacts[1].mu - 0.9) < 1e-12);             // the old run goes on
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_UNCHANGED);  // said once
  // The error is on screen.
  view_canvas cv;
  canvas(&cv, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  view_play play;
  view_play_init(&play, &run);
  play.banner = r.error;
  text_log log;
  draw(&cv, &run, &play, 0, &log);
  assert_non_null(find_text(&log, "not reloaded"));
  assert_non_null(find_text(&log, "scene.yaml:21:"));
  view_canvas_destroy(&cv);
  // Fixed: loads again.
  write_scene(path, text, 3);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_DONE);
  assert_true(fabs(run.scene.contacts[1].mu - 0.6) < 1e-12);
  assert_string_equal(r.error, "");
  // A FIFO in the scene's place is refused at once, in the status line,
  // the old run kept (its open froze the window for ever), and said once.
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkfifo(path, 0600), 0);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_FAILED);
  assert_non_null(strstr(r.error, "not a regular file"));
  assert_true(fabs(run.scene.contacts[1].mu - 0.6) < 1e-12);
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_UNCHANGED);
  assert_int_equal(unlink(path), 0);
  write_scene(path, changed, 4);  // a file again: reloaded
  assert_int_equal(view_reload_check(&r, &run), VIEW_RELOAD_DONE);
  assert_true(fabs(run.scene.contacts[1].mu - 0.9) < 1e-12);
  // Nothing is watched without a path (replay).
  view_reload none;
  view_reload_init(&none, &(view_options){.scene_path = NULL});
  assert_int_equal(view_reload_check(&none, &run), VIEW_RELOAD_UNCHANGED);
  view_run_free(&run);
  free(text);
  free(changed);
  free(broken);
  work_dir_remove(&w, (const char *const[]){"scene.yaml", NULL}, NULL);
}

/* ---- the maps panel ---------------------------------------------------------------------- */

/// The viewer's section angles are the library's (zeno_sim_summary: 0.948
/// then -0.524 for Example 2, as the paper and the scene say), and for
/// Example 3's chatter the same list, one per crossing, in order.
static void check_sections(const char *scene) {
  view_run run;
  live(&run, scene, NULL);
  zeno_summary sum;
  zeno_sim_summary(run.sim, &sum);
  assert_true(sum.section_count >= 2);
  size_t seen = 0;
  for (size_t i = 0;
       i < run.data.event_count && seen < sum.section_count && seen < ZENO_SUMMARY_SECTIONS; i++) {
    double phi;
    long count;
    if (!view_section_angle(&run, run.data.events[i].t, &phi, &count) || (size_t)count == seen)
      continue;
    assert_int_equal(count, (long)seen + 1);
    if (fabs(phi - sum.section_angles[seen]) > 1e-9)
      fail_msg("%s: crossing %zu at %.9f, the library's %.9f", scene, seen + 1, phi,
               sum.section_angles[seen]);
    seen++;
  }
  print_message("%s: %zu section angles as the library's\n", scene, seen);
  assert_true(seen >= 2);
  view_run_free(&run);
}

/// The maps' tick labels (issue 32: there were none): the section angle's
/// ends and middle under each plot, R's ends beside it, each inside the
/// panel.
static void check_ticks(const text_log *log, SDL_Rect box) {
  static const char *const TICKS[] = {"-1.57", "1.57", "phi [rad]"};
  for (size_t k = 0; k < sizeof TICKS / sizeof TICKS[0]; k++) {
    int found = 0;
    for (int i = 0; i < log->count; i++) {
      if (strcmp(log->text[i], TICKS[k]) != 0) continue;
      const SDL_Rect *b = &log->box[i];
      if (b->x < box.x || b->x + b->w > box.x + box.w || b->y < box.y ||
          b->y + b->h > box.y + box.h)
        fail_msg("tick label '%s' at (%d, %d, %d, %d) is outside the panel", TICKS[k], b->x, b->y,
                 b->w, b->h);
      found++;
    }
    print_message("maps panel: %d tick labels '%s'\n", found, TICKS[k]);
    // Each plot's abscissa, and R's ordinate for the numbers.
    if (found < (k < 2 ? 3 : 2)) fail_msg("maps panel: %d tick labels '%s'", found, TICKS[k]);
  }
}

/// With the panel on, both contacts are drawn right of it in their
/// letter's colour (the scene area starts where the panel ends).
static void check_contacts_clear(view_canvas *cv, const view_run *run, const view_play *play,
                                 SDL_Rect box) {
  zeno_run_dir_row st;
  view_run_state(run, play->t, &st);
  double d[3];
  view_displayed(&run->scene, view_play_zoom(play, run), st.q, d);
  const SDL_Rect area = view_scene_area(cv, play);
  assert_true(area.x >= box.x + box.w);
  const view_transform tf = view_transform_make(&area, view_canvas_camera(cv, run, play), d);
  for (int i = 0; i < run->scene.contact_count; i++) {
    double w[2], at[2];
    view_body_point(&tf, run->scene.contacts[i].point, w);
    view_to_screen(&tf, w, at);
    const int x = (int)lround(at[0]), y = (int)lround(at[1]);
    const view_rgb got = view_pixel(cv, x, y);
    print_message("maps on: contact %d drawn at (%d, %d), the panel ends at x = %d\n", i + 1, x, y,
                  box.x + box.w);
    assert_true(x > box.x + box.w);
    assert_true(same_rgb(got, VIEW_LETTER_COLOUR[st.mode.letter[i]]));
  }
}

/// `m` shows the maps panel: its box changes, the scene moves right of it
/// and nothing else changes, its title names R and G, its axes have tick
/// labels, and the marker follows the section angle.
static void test_maps_panel(void **state) {
  (void)state;
  check_sections(EXAMPLE2);
  check_sections(EXAMPLE3_ZENO);
  view_run run;
  live(&run, EXAMPLE2, NULL);
  view_canvas on, off;
  canvas(&on, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  canvas(&off, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  view_play play;
  view_play_init(&play, &run);
  text_log log;
  draw(&off, &run, &play, run.t_end, &log);
  play.maps = true;
  draw(&on, &run, &play, run.t_end, &log);
  assert_non_null(find_text(&log, "R(phi)"));
  assert_non_null(find_text(&log, "G(phi)"));
  const char *marker = find_text(&log, "phi = ");
  assert_non_null(marker);
  assert_non_null(strstr(marker, "phi = -0.524 rad, section crossing 2"));
  const SDL_Rect box = view_maps_box(&on);
  // The scene moves right of the panel (issue 32: it covered contact 1);
  // the text band and the chart do not change.
  long inside = 0, outside = 0;
  for (int y = 0; y < on.height; y++)
    for (int x = 0; x < on.width; x++)
      if (!same_rgb(view_pixel(&on, x, y), view_pixel(&off, x, y))) {
        if (x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h) inside++;
        else if (y < VIEW_OVERLAY_HEIGHT || y >= on.height - VIEW_CHART_HEIGHT) outside++;
      }
  assert_true(inside > box.w * box.h / 2);
  assert_int_equal(outside, 0);
  check_ticks(&log, box);
  check_contacts_clear(&on, &run, &play, box);
  // Before the first crossing there is no marker.
  draw(&on, &run, &play, 0, &log);
  assert_non_null(find_text(&log, "no section crossing yet"));
  view_canvas_destroy(&on);
  view_canvas_destroy(&off);
  view_run_free(&run);
  // A one-contact scene has no maps: the panel says so.
  live(&run, BOUNCING_BALL, NULL);
  canvas(&on, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  view_play_init(&play, &run);
  play.maps = true;
  draw(&on, &run, &play, 0, &log);
  assert_non_null(find_text(&log, "the maps need two contacts"));
  view_canvas_destroy(&on);
  view_run_free(&run);
}

/* ---- motions large against the body ------------------------------------------ */

/// The ball's radius and drop height [m], gravity [m/s^2] (the scene), and
/// the time drawn [s]: before the first impact at sqrt(2 h / g) = 0.4515.
#define BALL_RADIUS 0.1
#define BALL_DROP 1.0
#define BALL_G 9.81
#define BALL_T 0.2
/// Pixels the drawn radius and heights may be off: the outline is a
/// 32-gon with a 1 px edge, and rows are whole pixels; the measured radius
/// (half the fill's width) to within a pixel.
#define BALL_PX_SLACK 2.0
#define BALL_RADIUS_SLACK 1.0

/// The bouncing ball at t = 0.2 (issue 32: drawn 206 px in radius, cut by
/// the text band, the 1 m drop shrunk x0.035): the drop is drawn at true
/// scale, the gap between the ball's lowest point and the ground is
/// h - g t^2 / 2 = 0.8038 m = 8.038 radii; the whole motion, ground to the
/// top of the ball at the start (h + 2 r = 1.2 m), fills VIEW_MOTION_FILL
/// of the scene area's height; and the ball lies inside the scene area,
/// clear of the text band and the chart.
static void test_large_motion_fits(void **state) {
  (void)state;
  view_run run;
  view_canvas cv;
  view_play play;
  text_log log;
  draw_scene(BOUNCING_BALL, BALL_T, &run, &cv, &play, &log);
  const view_zoom zoom = view_play_zoom(&play, &run);
  int x0 = cv.width, x1 = -1, y0 = cv.height, y1 = -1;
  for (int y = 0; y < cv.height; y++)
    for (int x = 0; x < cv.width; x++)
      if (same_rgb(view_pixel(&cv, x, y), VIEW_BODY_FILL)) {
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;
      }
  assert_true(x1 >= x0);
  const double radius = (x1 - x0 + 1) / 2.0;
  // The ground: the surface line's row in the column 0.9 radii right of
  // the ball's centre (clear of the ghost, inside the drawn stretch).
  const int column = (int)lround((x0 + x1) / 2.0 + 0.9 * radius);
  int ground = -1;
  for (int y = y1; y < cv.height - VIEW_CHART_HEIGHT && ground < 0; y++)
    if (same_rgb(view_pixel(&cv, column, y), VIEW_SURFACE_LINE)) ground = y;
  const double area = cv.height - VIEW_OVERLAY_HEIGHT - VIEW_CHART_HEIGHT;
  const double gap = BALL_DROP - 0.5 * BALL_G * BALL_T * BALL_T;
  print_message(
      "ball at t = %g: zoom x%g, radius %.1f px, fill rows %d-%d, ground row %d: gap "
      "%.3f radii (true %.3f); the motion %.1f px of %.0f\n",
      BALL_T, zoom.normal, radius, y0, y1, ground, (ground - y1) / radius, gap / BALL_RADIUS,
      radius * (BALL_DROP + 2 * BALL_RADIUS) / BALL_RADIUS, area);
  assert_true(y0 > VIEW_OVERLAY_HEIGHT && y1 < cv.height - VIEW_CHART_HEIGHT);
  assert_true(x0 > 0 && x1 < cv.width - 1);
  assert_true(abs((y1 - y0) - (x1 - x0)) <= BALL_PX_SLACK);  // round: not cut
  assert_true(ground > y1);
  assert_true(fabs((ground - y1) - gap / BALL_RADIUS * radius) <= 2 * BALL_PX_SLACK);
  assert_true(fabs(radius * (BALL_DROP + 2 * BALL_RADIUS) / BALL_RADIUS -
                   VIEW_MOTION_FILL * area) <=
              (BALL_DROP + 2 * BALL_RADIUS) / BALL_RADIUS * BALL_RADIUS_SLACK);
  view_canvas_destroy(&cv);
  view_run_free(&run);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_legend_toggle),    cmocka_unit_test(test_lane_labels),
      cmocka_unit_test(test_text_fits),        cmocka_unit_test(test_cones_are_thick),
      cmocka_unit_test(test_screenshot_sizes), cmocka_unit_test(test_live_reload),
      cmocka_unit_test(test_maps_panel),       cmocka_unit_test(test_large_motion_fits),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
