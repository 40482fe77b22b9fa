// Figure options (issue 16, "figures fit for a paper"): --size, --dpi,
// --font-scale, --xlim, --ylim on the commands that draw, the trajectory
// figure's log time-to-accumulation axis and its event strip. The files
// the real `zeno` binary writes are read back: the PNG header (IHDR size,
// pHYs density), the PDF MediaBox, and pixels at positions computed with
// the plot module's own layout functions.
#include <cairo.h>
#include <limits.h>
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
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "plot_pixels.h"

/// Metres per inch (PNG's pHYs counts pixels per metre).
#define METRES_PER_INCH 0.0254
/// Example 2's R (paper Fig. 4c): R = -0.524 for phi in (0, 1.39).
#define EX2_FLAT_PHI 0.3
#define EX2_FLAT_R (-0.5236)
/// Antialiasing tolerance of a curve pixel, and the search radius [px].
#define CURVE_TOLERANCE 40
#define CURVE_RADIUS 1

/* ---- files ----------------------------------------------------------------- */

/// Width and height from the PNG's IHDR; *ppm the pHYs pixels per metre
/// (0 when the file has no pHYs chunk before its image data), read with
/// libpng.
static void png_header(const char *path, uint32_t *width, uint32_t *height, uint32_t *ppm) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  assert_non_null(info);
  if (setjmp(png_jmpbuf(png))) fail_msg("%s: not a PNG libpng reads", path);
  png_init_io(png, f);
  png_read_info(png, info);
  *width = png_get_image_width(png, info);
  *height = png_get_image_height(png, info);
  png_uint_32 x, y;
  int unit;
  *ppm = 0;
  if (png_get_pHYs(png, info, &x, &y, &unit)) {
    assert_int_equal(x, y);
    assert_int_equal(unit, PNG_RESOLUTION_METER);
    *ppm = x;
  }
  png_destroy_read_struct(&png, &info, NULL);
  fclose(f);
}

static bool exists(const char *path) { return access(path, F_OK) == 0; }

/// Whether the file's bytes (binary: a PDF's streams hold NULs) contain `text`.
static bool file_contains(const char *path, const char *text) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return false;
  const size_t k = strlen(text);
  size_t matched = 0;
  int c;
  while ((c = fgetc(f)) != EOF && matched < k) {
    if (c == (unsigned char)text[matched]) matched++;
    else matched = c == (unsigned char)text[0] ? 1 : 0;
  }
  fclose(f);
  return matched == k;
}

static bool curve_near(cairo_surface_t *s, double x, double y, plot_color want) {
  for (int dy = -CURVE_RADIUS; dy <= CURVE_RADIUS; dy++)
    for (int dx = -CURVE_RADIUS; dx <= CURVE_RADIUS; dx++)
      if (color_distance(pixel(s, x + dx, y + dy), want) <= CURVE_TOLERANCE) return true;
  return false;
}

/// Pixels of exactly `want` in the rectangle [x0, x1) x [y0, y1).
static long count_in(cairo_surface_t *s, double x0, double y0, double x1, double y1,
                     plot_color want) {
  long n = 0;
  for (int y = (int)ceil(y0); y < (int)floor(y1); y++)
    for (int x = (int)ceil(x0); x < (int)floor(x1); x++)
      n += color_distance(pixel(s, x + 0.5, y + 0.5), want) == 0;
  return n;
}

/// The first bytes of a file as a string ("" when it cannot be read).
static const char *read_head(const char *path) {
  static char head[16];
  memset(head, 0, sizeof head);
  FILE *f = fopen(path, "rb");
  if (f != NULL) {
    if (fread(head, 1, sizeof head - 1, f) == 0) head[0] = '\0';
    fclose(f);
  }
  return head;
}

/* ---- size, density, PDF page ---------------------------------------------------- */

// --size sets the PNG's pixels; --dpi alone scales the default 460 x 345 by
// dpi/96 and writes the density; a PDF's page is --size points.
static void test_size_and_dpi(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "figures");
  char a[PATH_SIZE], b[PATH_SIZE], c[PATH_SIZE], pdf[PATH_SIZE];
  work_path(&w, "a.png", a);
  work_path(&w, "b.png", b);
  work_path(&w, "c.png", c);
  work_path(&w, "d.pdf", pdf);
  const int ca = run_zeno("maps", EXAMPLE2, "--plot", a, "--size", "1234x567");
  const int cb = run_zeno("maps", EXAMPLE2, "--plot", b, "--dpi", "192");
  const int cc = run_zeno("maps", EXAMPLE2, "--plot", c, "--size", "2000x1500", "--dpi", "300",
                          "--font-scale", "1.5");
  const int cd = run_zeno("analyze", EXAMPLE2, "--plot", pdf, "--size", "450x300");
  uint32_t wa, ha, pa, wb, hb, pb, wc, hc, pc;
  png_header(a, &wa, &ha, &pa);
  png_header(b, &wb, &hb, &pb);
  png_header(c, &wc, &hc, &pc);
  const bool pdf_ok = strncmp(read_head(pdf), "%PDF-", 5) == 0 &&
                      file_contains(pdf, "/MediaBox [ 0 0 450 300 ]");
  work_dir_remove(&w, (const char *const[]){"a.png", "b.png", "c.png", "d.pdf", NULL}, NULL);
  assert_int_equal(ca, 0);
  assert_int_equal(cb, 0);
  assert_int_equal(cc, 0);
  assert_int_equal(cd, 0);
  assert_int_equal(wa, 1234);
  assert_int_equal(ha, 567);
  assert_int_equal(pa, lround(96 / METRES_PER_INCH));  // 3780 px/m
  assert_int_equal(wb, 2 * PLOT_WIDTH);
  assert_int_equal(hb, 2 * PLOT_HEIGHT);
  assert_int_equal(pb, lround(192 / METRES_PER_INCH));
  assert_int_equal(wc, 2000);
  assert_int_equal(hc, 1500);
  assert_int_equal(pc, lround(300 / METRES_PER_INCH));  // 11811 px/m
  assert_true(pdf_ok);
}

// --dpi 192 draws the default figure with twice the pixels: the R curve of
// Example 2 sits at twice the coordinates of the 96-dpi layout.
static void test_dpi_scales_the_drawing(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "figures");
  char png[PATH_SIZE];
  work_path(&w, "m.png", png);
  const int code = run_zeno("maps", EXAMPLE2, "--plot", png, "--dpi", "192");
  cairo_surface_t *s = cairo_image_surface_create_from_png(png);
  work_dir_remove(&w, (const char *const[]){"m.png", NULL}, NULL);
  assert_int_equal(code, 0);
  assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  plot_frame r, g;
  plot_maps_frames(PLOT_WIDTH, PLOT_HEIGHT, 2.5, NULL, &r, &g);
  assert_true(curve_near(s, 2 * plot_frame_x(&r, EX2_FLAT_PHI), 2 * plot_frame_y(&r, EX2_FLAT_R),
                         PLOT_COLOR_R));
  cairo_surface_destroy(s);
}

// --xlim A:B maps A and B to the frame's edges: Example 2's flat R = -0.524
// is drawn where the limited frame puts phi = 0.3, and no x tick lies
// outside the frame (ticks at the step's multiples inside [A, B] only).
static void test_xlim(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "figures");
  char png[PATH_SIZE];
  work_path(&w, "m.png", png);
  const int code = run_zeno("maps", EXAMPLE2, "--plot", png, "--xlim", "0.05:1.35", "--ylim",
                            "-1:0");
  cairo_surface_t *s = cairo_image_surface_create_from_png(png);
  work_dir_remove(&w, (const char *const[]){"m.png", NULL}, NULL);
  assert_int_equal(code, 0);
  plot_options o = plot_options_default();
  o.has_xlim = o.has_ylim = true;
  o.xlim[0] = 0.05;
  o.xlim[1] = 1.35;
  o.ylim[0] = -1;
  o.ylim[1] = 0;
  plot_frame r, g, r0, g0;
  plot_maps_frames(PLOT_WIDTH, PLOT_HEIGHT, 2.5, &o, &r, &g);
  plot_maps_frames(PLOT_WIDTH, PLOT_HEIGHT, 2.5, NULL, &r0, &g0);
  assert_true(r.x_min == 0.05 && r.x_max == 1.35 && g.x_min == 0.05 && r.y_max == 0);
  // The point moved: the default frame puts phi = 0.3 elsewhere.
  assert_true(fabs(plot_frame_x(&r, EX2_FLAT_PHI) - plot_frame_x(&r0, EX2_FLAT_PHI)) > 50);
  assert_true(curve_near(s, plot_frame_x(&r, EX2_FLAT_PHI), plot_frame_y(&r, EX2_FLAT_R),
                         PLOT_COLOR_R));
  // Tick marks hang under both frames; none left of A or right of B.
  const plot_frame *frames[2] = {&r, &g};
  for (int k = 0; k < 2; k++) {
    const plot_frame *f = frames[k];
    const double y0 = f->top + f->height + 1.5, y1 = y0 + 3;
    assert_true(count_in(s, f->left + 2, y0, f->left + f->width - 1, y1, PLOT_COLOR_INK) > 0);
    assert_int_equal(count_in(s, 0, y0, f->left - 1, y1, PLOT_COLOR_INK), 0);
    assert_int_equal(count_in(s, f->left + f->width + 2, y0, PLOT_WIDTH, y1, PLOT_COLOR_INK), 0);
  }
  cairo_surface_destroy(s);
}

// Every command that draws takes the figure options: each writes a
// 640 x 480 PNG at 120 dpi, and an SVG's size is --size in points.
static void test_every_command(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "figures");
  char run[PATH_SIZE], png[5][PATH_SIZE], svg[PATH_SIZE];
  static const char *const NAMES[5] = {"a.png", "m.png", "r.png", "s.png", "t.png"};
  for (int k = 0; k < 5; k++) work_path(&w, NAMES[k], png[k]);
  work_path(&w, "run", run);
  work_path(&w, "t.svg", svg);
#define FIGURE_OPTIONS "--size", "640x480", "--dpi", "120", "--font-scale", "1.2"
  int codes[7];
  codes[0] = run_zeno("analyze", EXAMPLE2, "--plot", png[0], FIGURE_OPTIONS);
  codes[1] = run_zeno("maps", EXAMPLE2, "--plot", png[1], FIGURE_OPTIONS, "--xlim", "-1:1");
  codes[2] = run_zeno("regions", ZENO_SCENES_DIR "/example7.yaml", "--x", "paper.mu2=0:1.3:4",
                      "--y", "paper.alpha=0:40:3", "--mc-runs", "0", "--plot", png[2], "-q",
                      FIGURE_OPTIONS, "--ylim", "10:30");
  codes[3] = run_zeno("sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-2:2:3", "--y",
                      "initial.qdp.0=0:1:2", "--plot", png[3], "-q", FIGURE_OPTIONS);
  codes[4] = run_zeno("simulate", EXAMPLE3_ZENO, "--out", run, "--quiet");
  codes[5] = run_zeno("plot-trajectory", run, "--plot", png[4], FIGURE_OPTIONS, "--xlim", "20:40");
  codes[6] = run_zeno("plot-trajectory", run, "--plot", svg, "--size", "450x300");
#undef FIGURE_OPTIONS
  uint32_t size[5][3];
  for (int k = 0; k < 5; k++)
    if (exists(png[k])) png_header(png[k], &size[k][0], &size[k][1], &size[k][2]);
  const bool svg_ok = file_contains(svg, "width=\"450pt\" height=\"300pt\"") ||
                      file_contains(svg, "width=\"450\" height=\"300\"");
  remove_simulate_out(run);
  work_dir_remove(&w,
                  (const char *const[]){"a.png", "m.png", "r.png", "s.png", "t.png", "t.svg", NULL},
                  "run");
  for (int k = 0; k < 7; k++) assert_int_equal(codes[k], 0);
  for (int k = 0; k < 5; k++) {
    assert_int_equal(size[k][0], 640);
    assert_int_equal(size[k][1], 480);
    assert_int_equal(size[k][2], lround(120 / METRES_PER_INCH));
  }
  assert_true(svg_ok);
}

/* ---- bad values ---------------------------------------------------------------- */

/// One bad figure option: exit 2, one line on stderr naming `option`, no
/// figure file.
static void assert_refused(const char *command, const char *scene, const char *figure,
                           const char *option, const char *value, const char *named) {
  work_dir w;
  work_dir_create(&w, "figures");
  char path[PATH_SIZE];
  work_path(&w, figure, path);
  run_result r = run_zeno_captured(command, scene, "--plot", path, option, value);
  const bool written = exists(path);
  work_dir_remove(&w, (const char *const[]){figure, NULL}, NULL);
  if (r.exit_code != 2 || written || strstr(r.err, named) == NULL ||
      strchr(r.err, '\n') != r.err + strlen(r.err) - 1)
    fail_msg("%s %s %s: exit %d, written %d, stderr '%s'", command, option, value, r.exit_code,
             written, r.err);
  run_result_free(&r);
}

static void test_bad_values(void **state) {
  (void)state;
  static const struct {
    const char *option, *value;
  } BAD[] = {
      {"--size", "99x600"},    {"--size", "900x8001"},  {"--size", "900"},
      {"--size", "axb"},       {"--size", "900.5x600"}, {"--size", "-900x600"},
      {"--dpi", "0"},          {"--dpi", "1201"},       {"--dpi", "nan"},
      {"--dpi", "2000"},       {"--font-scale", "0.1"}, {"--font-scale", "5"},
      {"--font-scale", "inf"}, {"--xlim", "1:1"},       {"--xlim", "2:1"},
      {"--xlim", "nan:1"},     {"--xlim", "0"},         {"--xlim", "0:1x"},
      {"--ylim", "1:-1"},      {"--ylim", "1:inf"},
  };
  for (size_t k = 0; k < sizeof BAD / sizeof *BAD; k++)
    assert_refused("maps", EXAMPLE2, "m.png", BAD[k].option, BAD[k].value, BAD[k].option);
  // Checked against the figure: no density for vector files, the layout
  // at least 100 a side, ranges of t* - t positive.
  assert_refused("maps", EXAMPLE2, "m.pdf", "--dpi", "150", "--dpi");
  assert_refused("maps", EXAMPLE2, "m.png", "--dpi", "24", "--dpi");  // 86 px high
  work_dir w;
  work_dir_create(&w, "figures");
  char path[PATH_SIZE];
  work_path(&w, "m.png", path);
  run_result r = run_zeno_captured("maps", EXAMPLE2, "--plot", path, "--size", "300x200", "--dpi",
                                   "300");  // laid out on 96 x 64
  const bool written = exists(path);
  work_dir_remove(&w, (const char *const[]){"m.png", NULL}, NULL);
  assert_int_equal(r.exit_code, 2);
  assert_false(written);
  assert_non_null(strstr(r.err, "--dpi 300 with --size 300x200"));
  run_result_free(&r);
  assert_refused("sweep", EXAMPLE3_ZENO, "s.png", "--xlim", "3:-3", "--xlim");
  assert_refused("regions", EXAMPLE2, "r.png", "--ylim", "a:b", "--ylim");
}

// A figure option without a figure, and --xlim for the interval graph only.
static void test_options_need_a_figure(void **state) {
  (void)state;
  run_result r = run_zeno_captured("maps", EXAMPLE2, "--size", "800x600");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--plot"));
  run_result_free(&r);
  work_dir w;
  work_dir_create(&w, "figures");
  char graph[PATH_SIZE];
  work_path(&w, "g.png", graph);
  r = run_zeno_captured("analyze", EXAMPLE2, "--graph", graph, "--xlim", "0:1");
  const bool written = exists(graph);
  work_dir_remove(&w, (const char *const[]){"g.png", NULL}, NULL);
  assert_int_equal(r.exit_code, 2);
  assert_false(written);
  assert_non_null(strstr(r.err, "--xlim"));
  run_result_free(&r);
}

/* ---- trajectories: event strip and log time axis ---------------------------------- */

typedef struct run_files {
  work_dir w;
  char run[PATH_SIZE], png[PATH_SIZE];
} run_files;

static int simulate(run_files *f, const char *scene) {
  work_dir_create(&f->w, "figures");
  work_path(&f->w, "run", f->run);
  work_path(&f->w, "t.png", f->png);
  return run_zeno("simulate", scene, "--out", f->run, "--quiet");
}

static void run_files_remove(run_files *f) {
  remove_simulate_out(f->run);
  work_dir_remove(&f->w, (const char *const[]){"t.png", NULL}, "run");
}

/// Columns of the strip holding impact ink.
static int impact_columns(cairo_surface_t *s, const plot_frame *strip) {
  int n = 0;
  for (int x = (int)ceil(strip->left); x < (int)(strip->left + strip->width); x++)
    n += count_in(s, x, strip->top, x + 1, strip->top + strip->height, PLOT_COLOR_IMPACT) > 0;
  return n;
}

/// The layout of the default trajectory figure of a run read back (its
/// legend names the run's modes, as the program's does).
static void trajectory_layout(const zeno_run_dir_data *d, plot_frame *top, plot_frame *bottom,
                              plot_frame *strip) {
  char(*mode)[ZENO_MODE_NAME_SIZE] = calloc(d->row_count + 1, sizeof *mode);
  assert_non_null(mode);
  for (size_t i = 0; i < d->row_count; i++)
    zeno_mode_name(d->rows[i].mode, d->contact_count, mode[i]);
  const plot_trajectory_input in = {.count = d->row_count,
                                    .contact_count = d->contact_count,
                                    .mode = (const char(*)[ZENO_MODE_NAME_SIZE])mode};
  plot_trajectory_layout(&in, PLOT_WIDTH, PLOT_HEIGHT, top, bottom, strip);
  free(mode);
}

// Example 3's Zeno run: impacts are ticks in the strip under the bottom
// panel, none inside the panels (black ink there would hide the tail); on
// the log axis t* - t (t* the 'zeno' event's time) each impact tick is at
// the column log10(t* - t) maps to, and the comb spreads over more columns.
static void test_trajectory_axes(void **state) {
  (void)state;
  run_files f;
  int code = simulate(&f, EXAMPLE3_ZENO);
  zeno_run_dir_data d = {0};
  zeno_error err;
  char events[2 * PATH_SIZE];
  snprintf(events, sizeof events, "%s/events.jsonl", f.run);
  char trajectory[2 * PATH_SIZE];
  snprintf(trajectory, sizeof trajectory, "%s/trajectory.csv", f.run);
  zeno_status read = zeno_run_dir_read_trajectory(trajectory, &d, &err);
  if (read == ZENO_OK) read = zeno_run_dir_read_events(events, &d, &err);
  cairo_surface_t *linear = NULL, *log = NULL;
  if (code == 0) code = run_zeno("plot-trajectory", f.run, "--plot", f.png);
  if (code == 0) linear = cairo_image_surface_create_from_png(f.png);
  if (code == 0)
    code = run_zeno("plot-trajectory", f.run, "--plot", f.png, "--time-axis", "log", "--xlim",
                    "1e-3:100");
  if (code == 0) log = cairo_image_surface_create_from_png(f.png);
  run_files_remove(&f);
  assert_int_equal(code, 0);
  assert_int_equal(read, ZENO_OK);
  plot_frame top, bottom, strip;
  trajectory_layout(&d, &top, &bottom, &strip);
  assert_true(strip.top > bottom.top + bottom.height);
  const plot_frame *panels[2] = {&top, &bottom};
  for (int k = 0; k < 2; k++) {
    const plot_frame *p = panels[k];
    assert_int_equal(count_in(linear, p->left + 2, p->top + 2, p->left + p->width - 1,
                              p->top + p->height - 1, PLOT_COLOR_IMPACT),
                     0);
  }
  const int linear_columns = impact_columns(linear, &strip);
  const int log_columns = impact_columns(log, &strip);
  assert_true(linear_columns > 10);
  assert_true(log_columns > linear_columns);
  double t_star = NAN;
  for (size_t i = 0; i < d.event_count; i++)
    if (d.events[i].kind == ZENO_EVENT_ZENO && isnan(t_star)) t_star = d.events[i].t;
  assert_true(isfinite(t_star));
  int checked = 0;
  plot_frame lf = strip;
  lf.x_min = 2;   // log10(100), left
  lf.x_max = -3;  // log10(1e-3), right
  for (size_t i = 0; i < d.event_count; i++) {
    const double gap = t_star - d.events[i].t;
    if (d.events[i].kind != ZENO_EVENT_IMPACT || !(gap > 1e-3 && gap < 100)) continue;
    const double x = floor(plot_frame_x(&lf, log10(gap)));
    assert_true(count_in(log, x, strip.top, x + 1, strip.top + strip.height, PLOT_COLOR_IMPACT) >
                0);
    checked++;
  }
  assert_true(checked > 20);
  zeno_run_dir_data_free(&d);
  cairo_surface_destroy(linear);
  cairo_surface_destroy(log);
}

// A run without a Zeno completion has no t*: --time-axis log is refused
// with one line, exit 2, and no figure; so are a bad axis name and limits
// of t* - t that are not positive.
static void test_log_axis_refused(void **state) {
  (void)state;
  run_files f;
  const int code = simulate(&f, EXAMPLE2);
  run_result no_zeno = run_zeno_captured("plot-trajectory", f.run, "--plot", f.png, "--time-axis",
                                         "log");
  const bool written = exists(f.png);
  run_result bad_name = run_zeno_captured("plot-trajectory", f.run, "--plot", f.png, "--time-axis",
                                          "ln");
  run_result bad_lim = run_zeno_captured("plot-trajectory", f.run, "--plot", f.png, "--time-axis",
                                         "log", "--xlim", "0:1");
  const bool written2 = exists(f.png);
  run_files_remove(&f);
  assert_int_equal(code, 0);
  const run_result *all[3] = {&no_zeno, &bad_name, &bad_lim};
  const char *named[3] = {"--time-axis log", "--time-axis ln", "--xlim 0:1"};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(all[k]->exit_code, 2);
    assert_non_null(strstr(all[k]->err, named[k]));
    assert_true(strchr(all[k]->err, '\n') == all[k]->err + strlen(all[k]->err) - 1);
  }
  assert_non_null(strstr(no_zeno.err, "Zeno"));
  assert_false(written || written2);
  run_result_free(&no_zeno);
  run_result_free(&bad_name);
  run_result_free(&bad_lim);
}

// The grid layout: at the design size the legend stands beside the map;
// in a small figure with a wide legend it goes under the map in columns,
// giving the map the whole width; equal scales keep the data's aspect.
static void test_grid_layout(void **state) {
  (void)state;
  const double lw = 270, fs = 1;
  plot_frame f = {.x_min = 0, .x_max = 4, .y_min = 0, .y_max = 1};
  plot_legend_layout l;
  plot_grid_layout(PLOT_DESIGN_WIDTH, PLOT_DESIGN_HEIGHT, fs, 9, lw, false, &f, &l);
  assert_false(l.below);
  assert_true(fabs(l.x - (f.left + f.width + 18)) < 1e-9 && l.y == f.top);
  assert_true(f.left + f.width + 18 + lw <= PLOT_DESIGN_WIDTH);
  double x, y;
  plot_legend_position(&l, 8, &x, &y);
  assert_true(x == l.x && fabs(y - (l.y + 8 * l.row)) < 1e-9);
  // 640 x 480 at 120 dpi is a 512 x 384 layout: beside, the map would keep
  // 512 - 76 - 16 - 18 - 270 = 132 px, under 35% of the 420 px inside.
  plot_grid_layout(512, 384, fs, 2, lw, false, &f, &l);
  assert_true(l.below);
  assert_true(fabs(f.width - (512 - 76 - 16)) < 1e-9);
  assert_true(l.y > f.top + f.height && l.y + 2 * l.row <= 384);
  plot_frame e = {.x_min = -2, .x_max = 2, .y_min = 0, .y_max = 1};
  plot_grid_layout(PLOT_DESIGN_WIDTH, PLOT_DESIGN_HEIGHT, fs, 12, lw, true, &e, &l);
  assert_true(fabs(e.width / e.height - 4.0) < 1e-9);
}

/* ---- region maps ---------------------------------------------- */

/// The whole grid of a region map, computed in-process as the binary does.
static zeno_region_point *region_grid(const char *scene, zeno_regions_def *d, const char *x,
                                      const char *y) {
  *d = zeno_regions_def_default();
  assert_int_equal(zeno_region_axis_parse(x, &d->x, NULL), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse(y, &d->y, NULL), ZENO_OK);
  d->mc_runs = 0;
  zeno_error err;
  zeno_regions *r = zeno_regions_create_file(scene, NULL, 0, d, &err);
  assert_non_null(r);
  zeno_region_point *g = calloc(d->x.count * d->y.count, sizeof *g);
  assert_non_null(g);
  for (size_t iy = 0; iy < d->y.count; iy++)
    assert_int_equal(zeno_regions_row(r, iy, 1, &g[iy * d->x.count], &err), ZENO_OK);
  zeno_regions_destroy(r);
  return g;
}

/// Rows of background at the bottom edge, columns at the right edge.
static void blank_edges(cairo_surface_t *s, int *rows, int *columns) {
  const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
  *rows = 0;
  while (*rows < h && count_in(s, 0, h - *rows - 1, w, h - *rows, PLOT_COLOR_BACKGROUND) == w)
    (*rows)++;
  *columns = 0;
  while (*columns < w &&
         count_in(s, w - *columns - 1, 0, w - *columns, h, PLOT_COLOR_BACKGROUND) == h)
    (*columns)++;
}

// Example 6's centre-of-mass map (Fig. 8a): equal scales leave space over,
// which is split around the map (no band of a sixth of the figure left
// empty at the bottom or the right), and the legend explains the
// configuration drawn over the map: one row per mark, with its glyph.
static void test_region_map_layout(void **state) {
  (void)state;
  static const char *const X = "com.x=-2.5:2:10", *const Y = "com.y=-1:2.5:8";
  static const char *const SCENE = ZENO_SCENES_DIR "/example6.yaml";
  work_dir w;
  work_dir_create(&w, "figures");
  char png[PATH_SIZE];
  work_path(&w, "r.png", png);
  // At the design size (its legend rows PLOT_GRID_LEGEND_ROW = 18 px,
  // swatches 12 px).
  const int code = run_zeno("regions", SCENE, "--x", X, "--y", Y, "--mc-runs", "0", "--plot", png,
                            "-q", "--size", "900x600");
  cairo_surface_t *s = cairo_image_surface_create_from_png(png);
  work_dir_remove(&w, (const char *const[]){"r.png", NULL}, NULL);
  assert_int_equal(code, 0);
  int rows, columns;
  blank_edges(s, &rows, &columns);
  assert_true(rows < PLOT_DESIGN_HEIGHT / 10);
  assert_true(columns < PLOT_DESIGN_WIDTH / 10);
  plot_options design = plot_options_default();
  design.width = PLOT_DESIGN_WIDTH;
  design.height = PLOT_DESIGN_HEIGHT;

  zeno_regions_def d;
  zeno_region_point *g = region_grid(SCENE, &d, X, Y);
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(SCENE, NULL, 0, &scene, NULL), ZENO_OK);
  plot_regions_input in = {.x = &d.x, .y = &d.y, .grid = g, .overlay = &scene, .options = &design};
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  const size_t n = plot_regions_legend(&in, labels);
  assert_string_equal(labels[n - 5], "contact point on its surface");
  assert_string_equal(labels[n - 1], "load direction");
  plot_frame f;
  plot_regions_frame(&in, &f);
  // The glyphs of the contact (row n-5) and of the centre of mass (row
  // n-2): ink at their centres, half a row below the region rows.
  const double x = f.left + f.width + 18 + 6, row = 18;
  const double regions_end = f.top + (double)(n - 5) * row + row / 2;
  assert_int_equal(color_distance(pixel(s, x, regions_end + 6), PLOT_COLOR_OVERLAY), 0);
  assert_int_equal(color_distance(pixel(s, x, regions_end + 3 * row + 6), PLOT_COLOR_OVERLAY), 0);
  // A parameter chart has no overlay and so no overlay rows.
  in.overlay = NULL;
  assert_int_equal(plot_regions_legend(&in, labels), n - 5);
  free(g);
  cairo_surface_destroy(s);
}

// regions --certify splits region 7: points with a certificate have a row
// of their own (drawn in their colour), the others keep their simulation
// classes; without the array nothing changes.
static void test_region_map_certified(void **state) {
  (void)state;
  static const char *const X = "paper.mu2=0:1.3:8", *const Y = "paper.alpha=0:40:8";
  zeno_regions_def d;
  zeno_region_point *g = region_grid(ZENO_SCENES_DIR "/example7.yaml", &d, X, Y);
  const size_t n = d.x.count * d.y.count;
  signed char *cert = malloc(n);
  assert_non_null(cert);
  long undecided = 0, marked = 0;
  for (size_t k = 0; k < n; k++) {
    cert[k] = -1;
    if (g[k].region != 7) continue;
    undecided++;
    cert[k] = (signed char)(undecided % 3 != 0);  // two in three certified
    marked += cert[k];
  }
  assert_true(undecided >= 6);
  plot_regions_input in = {.x = &d.x, .y = &d.y, .grid = g};
  char labels[PLOT_REGIONS_LEGEND_MAX][PLOT_LEGEND_LABEL_SIZE];
  size_t rows = plot_regions_legend(&in, labels);
  char want[PLOT_LEGEND_LABEL_SIZE], plain[PLOT_LEGEND_LABEL_SIZE];
  snprintf(want, sizeof want, "7 undecided, certified (Lyapunov, SOS): %ld", marked);
  snprintf(plain, sizeof plain, "7 undecided: %ld", undecided);
  bool found = false;
  for (size_t r = 0; r < rows; r++) found = found || strcmp(labels[r], plain) == 0;
  assert_true(found);  // mc_runs 0: region 7 is one class without certificates
  in.certified = cert;
  rows = plot_regions_legend(&in, labels);
  snprintf(plain, sizeof plain, "7 undecided: %ld", undecided - marked);
  bool certified_row = false, rest_row = false;
  for (size_t r = 0; r < rows; r++) {
    certified_row = certified_row || strcmp(labels[r], want) == 0;
    rest_row = rest_row || strcmp(labels[r], plain) == 0;
  }
  assert_true(certified_row && rest_row);
  // --certify-all: certified points of other regions are dots, counted in
  // a row of their own; region 7's rows stay as they were.
  long others = 0;
  for (size_t k = 0; k < n && others < 3; k++)
    if (g[k].region == 0) {
      cert[k] = 1;
      others++;
    }
  assert_int_equal(others, 3);
  const size_t before = rows;
  rows = plot_regions_legend(&in, labels);
  assert_int_equal(rows, before + 1);
  bool dot_row = false;
  for (size_t r = 0; r < rows; r++)
    dot_row = dot_row || strcmp(labels[r], "dot: certified (Lyapunov) in 0-6: 3") == 0;
  assert_true(dot_row);
  // A certified point whose perturbed runs depart (2): still counted as
  // certified, and crossed, with a row of its own saying they disagree.
  for (size_t k = 0; k < n; k++)
    if (cert[k] == 1 && g[k].region == 7) {
      cert[k] = 2;
      break;
    }
  rows = plot_regions_legend(&in, labels);
  assert_int_equal(rows, before + 2);
  bool cross_row = false, still_certified = false;
  for (size_t r = 0; r < rows; r++) {
    cross_row = cross_row || strcmp(labels[r], "x: certified, but a perturbed run departs: 1") == 0;
    still_certified = still_certified || strcmp(labels[r], want) == 0;
  }
  assert_true(cross_row && still_certified);
  free(cert);
  free(g);
}

/* ---- one-column figures (issue 32) ------------------------------------------ */

/// A standard one-column figure [pt], and the least text size a journal
/// prints [pt].
#define ONE_COLUMN_WIDTH 252
#define ONE_COLUMN_HEIGHT 180
#define TEXT_MIN_PT 7.0
/// Rounding of sizes measured through cairo's transformation [pt].
#define PT_SLACK 1e-9

static plot_options one_column(plot_layout *layout) {
  plot_options o = plot_options_default();
  o.width = ONE_COLUMN_WIDTH;
  o.height = ONE_COLUMN_HEIGHT;
  o.layout = layout;
  return o;
}

static bool boxes_meet(plot_box a, plot_box b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

static bool box_inside(plot_box a, double width, double height) {
  return a.x0 >= 0 && a.y0 >= 0 && a.x1 <= width && a.y1 <= height;
}

/// A figure's text: at least 7 pt everywhere, and the legend's never
/// smaller than the axes' (tick labels and axis labels).
static void assert_text_sizes(const plot_layout *l) {
  if (!(l->text_min >= TEXT_MIN_PT))
    fail_msg("smallest text %.2f pt, less than %.0f pt", l->text_min, TEXT_MIN_PT);
  if (!(l->legend_text_min >= l->axis_text_min - PT_SLACK))
    fail_msg("legend text %.2f pt, smaller than the axis text %.2f pt", l->legend_text_min,
             l->axis_text_min);
}

static void work_pdf(work_dir *w, char *path) {
  work_dir_create(w, "figures");
  work_path(w, "f.pdf", path);
}

// The maps of Example 2 on a one-column PDF (252 x 180 pt): text at least
// 7 pt, the legend's as large as the tick labels', on the page, and no
// fixed-point marker (those at phi = 1.53 and pi/2 sit on the frame's top
// edge) on the legend. So too the docs' recipe, 360 x 260 at --font-scale
// 0.8, whose legend was shrunk to about 4 pt.
static void test_one_column_maps(void **state) {
  (void)state;
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(EXAMPLE2, NULL, 0, &scene, NULL), ZENO_OK);
  const zeno_analysis_def def = zeno_analysis_def_default();
  zeno_analysis a;
  assert_int_equal(zeno_analyze(&scene, &def, &a, NULL), ZENO_OK);
  work_dir w;
  char pdf[PATH_SIZE];
  work_pdf(&w, pdf);
  plot_layout l, recipe;
  plot_options o = one_column(&l);
  plot_maps_input in = {.title = "example2", .maps = &a.maps, .options = &o};
  const plot_status st = plot_maps(pdf, &in);
  plot_options r = one_column(&recipe);
  r.width = 360;
  r.height = 260;
  r.font_scale = 0.8;
  in.options = &r;
  const plot_status st2 = plot_maps(pdf, &in);
  work_dir_remove(&w, (const char *const[]){"f.pdf", NULL}, NULL);
  assert_int_equal(st, PLOT_OK);
  assert_int_equal(st2, PLOT_OK);
  const plot_layout *both[2] = {&l, &recipe};
  const double widths[2] = {ONE_COLUMN_WIDTH, 360}, heights[2] = {ONE_COLUMN_HEIGHT, 260};
  for (int k = 0; k < 2; k++) {
    const plot_layout *p = both[k];
    if (k == 0) assert_text_sizes(p);
    else assert_true(p->legend_text_min >= p->axis_text_min - PT_SLACK);
    assert_true(box_inside(p->legend, widths[k], heights[k]));
    assert_int_equal(p->marker_count, a.maps.fixed_point_count);
    assert_true(p->marker_count >= 2);
    for (size_t m = 0; m < p->marker_count; m++)
      if (boxes_meet(p->markers[m], p->legend))
        fail_msg("fixed point %zu [%.1f, %.1f] x [%.1f, %.1f] on the legend (bottom %.1f)", m,
                 p->markers[m].x0, p->markers[m].x1, p->markers[m].y0, p->markers[m].y1,
                 p->legend.y1);
  }
  // The recipe's legend: tick-sized text at 0.8 of the size scale's.
  assert_true(recipe.legend_text_min >= 0.8 * 12 * plot_size_scale(360, 260) - PT_SLACK);
  zeno_analysis_free(&a);
}

// A region map (Example 7's parameter chart) on a one-column PDF: text at
// least 7 pt and a legend on the page, off the map.
static void test_one_column_regions(void **state) {
  (void)state;
  zeno_regions_def d;
  zeno_region_point *g = region_grid(ZENO_SCENES_DIR "/example7.yaml", &d, "paper.mu2=0:1.3:12",
                                     "paper.alpha=0:40:12");
  work_dir w;
  char pdf[PATH_SIZE];
  work_pdf(&w, pdf);
  plot_layout l;
  const plot_options o = one_column(&l);
  const plot_regions_input in = {
      .title = "example7", .x = &d.x, .y = &d.y, .grid = g, .options = &o};
  const plot_status st = plot_regions(pdf, &in);
  work_dir_remove(&w, (const char *const[]){"f.pdf", NULL}, NULL);
  assert_int_equal(st, PLOT_OK);
  assert_text_sizes(&l);
  plot_frame f;
  plot_regions_frame(&in, &f);
  const plot_box map = {f.left, f.top, f.left + f.width, f.top + f.height};
  assert_true(box_inside(l.legend, ONE_COLUMN_WIDTH, ONE_COLUMN_HEIGHT));
  assert_false(boxes_meet(l.legend, map));
  assert_true(f.width > ONE_COLUMN_WIDTH / 4.0 && f.height > ONE_COLUMN_HEIGHT / 4.0);
  assert_string_equal(l.labels[0], "μ₂");
  assert_string_equal(l.labels[1], "α [°] (load angle)");
  free(g);
}

/// The mode names of a run's rows, as the program passes them.
static char (*row_modes(const zeno_run_dir_data *d))[ZENO_MODE_NAME_SIZE] {
  char(*mode)[ZENO_MODE_NAME_SIZE] = calloc(d->row_count + 1, sizeof *mode);
  assert_non_null(mode);
  for (size_t i = 0; i < d->row_count; i++)
    zeno_mode_name(d->rows[i].mode, d->contact_count, mode[i]);
  return mode;
}

/// The figure's columns of a run (t and q''s three, new arrays) and the
/// runs of rows of one mode, each a band of a panel.
static size_t run_columns(const zeno_run_dir_data *d, const char (*mode)[ZENO_MODE_NAME_SIZE],
                          double *column[4]) {
  for (int c = 0; c < 4; c++) {
    column[c] = malloc((d->row_count ? d->row_count : 1) * sizeof(double));
    assert_non_null(column[c]);
  }
  size_t runs = 0;
  for (size_t i = 0; i < d->row_count; i++) {
    column[0][i] = d->rows[i].t;
    for (int c = 1; c < 4; c++) column[c][i] = d->rows[i].zod[c - 1];
    if (i + 1 < d->row_count && (i == 0 || strcmp(mode[i], mode[i - 1]) != 0)) runs++;
  }
  return runs;
}

// Example 2's run on a one-column PDF: text at least 7 pt, units on every
// axis, the time shaded by mode, one band per run of rows of a mode and
// the legend naming the modes in the order they come; the PNG's band
// pixels are the mode's colour.
static void test_one_column_trajectory(void **state) {
  (void)state;
  run_files f;
  const int code = simulate(&f, EXAMPLE2);
  zeno_run_dir_data d = {0};
  char trajectory[2 * PATH_SIZE];
  snprintf(trajectory, sizeof trajectory, "%s/trajectory.csv", f.run);
  const zeno_status read = zeno_run_dir_read_trajectory(trajectory, &d, NULL);
  char pdf[2 * PATH_SIZE];
  snprintf(pdf, sizeof pdf, "%s.pdf", f.png);
  assert_int_equal(code, 0);
  assert_int_equal(read, ZENO_OK);
  char(*mode)[ZENO_MODE_NAME_SIZE] = row_modes(&d);
  double *column[4];
  const size_t runs = run_columns(&d, (const char(*)[ZENO_MODE_NAME_SIZE])mode, column);
  char order[ZENO_MAX_MODES][ZENO_MODE_NAME_SIZE];
  size_t modes = 0;
  for (size_t i = 0; i < d.row_count; i++) {
    bool seen = false;
    for (size_t m = 0; m < modes; m++) seen = seen || strcmp(order[m], mode[i]) == 0;
    if (!seen) snprintf(order[modes++], ZENO_MODE_NAME_SIZE, "%s", mode[i]);
  }
  plot_layout l;
  const plot_options o = one_column(&l);
  const plot_trajectory_input in = {.title = "example2",
                                    .count = d.row_count,
                                    .t = column[0],
                                    .z1 = column[1],
                                    .z2 = column[2],
                                    .x2 = column[3],
                                    .contact_count = d.contact_count,
                                    .accumulation_t = NAN,
                                    .options = &o,
                                    .mode = (const char(*)[ZENO_MODE_NAME_SIZE])mode};
  const plot_status st = plot_trajectory(pdf, &in);
  // The PNG at the default size: a band's colour where no curve is (the
  // top panel's upper edge, the middle of Example 2's long FP flight).
  plot_trajectory_input png_in = in;
  png_in.options = NULL;
  const plot_status st_png = plot_trajectory(f.png, &png_in);
  cairo_surface_t *s = cairo_image_surface_create_from_png(f.png);
  remove(pdf);
  run_files_remove(&f);
  assert_int_equal(st, PLOT_OK);
  assert_int_equal(st_png, PLOT_OK);
  assert_text_sizes(&l);
  assert_true(box_inside(l.legend, ONE_COLUMN_WIDTH, ONE_COLUMN_HEIGHT));
  assert_int_equal(l.band_count, 2 * runs);  // both panels
  assert_int_equal(l.mode_count, modes);
  assert_true(modes >= 3);
  for (size_t m = 0; m < modes; m++) assert_string_equal(l.modes[m], order[m]);
  assert_int_equal(l.label_count, 3);
  assert_string_equal(l.labels[0], "z₁, z₂ [L]");
  assert_string_equal(l.labels[1], "x₂ [L]");
  assert_string_equal(l.labels[2], "t [T]");
  plot_frame top, bottom, strip;
  trajectory_layout(&d, &top, &bottom, &strip);
  double t_mid = NAN;
  const char *mid_mode = NULL;
  const double t_end = d.rows[d.row_count - 1].t;
  for (size_t i = 0; i + 1 < d.row_count; i++)
    if (d.rows[i].t <= t_end / 2 && d.rows[i + 1].t > t_end / 2) {
      t_mid = t_end / 2;
      mid_mode = mode[i];
    }
  assert_non_null(mid_mode);
  top.x_min = d.rows[0].t;
  top.x_max = t_end;
  const plot_color want = plot_mode_color(mid_mode);
  const plot_color got = pixel(s, plot_frame_x(&top, t_mid), top.top + 2);
  if (color_distance(got, want) != 0)
    fail_msg("band of %s at t = %g: (%d, %d, %d), expected (%d, %d, %d)", mid_mode, t_mid, got.r,
             got.g, got.b, want.r, want.g, want.b);
  cairo_surface_destroy(s);
  for (int c = 0; c < 4; c++) free(column[c]);
  free(mode);
  zeno_run_dir_data_free(&d);
}

/// A run of more than two contacts and what its figure must show: the
/// scene, q''s names (zeno_scene_zod_names), and the axis labels.
typedef struct many_case {
  const char *scene;
  const char *names[3];
  const char *labels[3];  ///< y of each panel drawn, then t
  int panels;
} many_case;

// Runs of three contacts, perturbed from rest (pose (0.01, 0.02, 0.01),
// Newton's law, e = 0.5):
// q''s gaps drawn above and its slip below (the polygon on its slope,
// q' = (z1, z2, x3)), or one panel when q' holds gaps only (the box in a
// corner, q' = (z1, z2, z3)); one band per run of rows of a mode in each
// panel, the legend naming the modes of three letters in the order they
// come, and each mode's band in a colour of its own: two modes never share
// one, and a mode's bands all have its colour.
static void test_many_contacts_trajectory(void **state) {
  (void)state;
  static const many_case CASES[] = {
      {ZENO_SCENES_DIR "/box-in-a-corner.yaml", {"z1", "z2", "z3"}, {"z₁, z₂, z₃ [L]", "t [T]"}, 1},
      {ZENO_SCENES_DIR "/polygon-on-slope.yaml",
       {"z1", "z2", "x3"},
       {"z₁, z₂ [L]", "x₃ [L]", "t [T]"},
       2},
  };
  for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
    const many_case *k = &CASES[c];
    run_files f;
    work_dir_create(&f.w, "figures");
    work_path(&f.w, "run", f.run);
    work_path(&f.w, "t.png", f.png);
    const int code = run_zeno("simulate", k->scene, "--set", "initial.pose=[0.01, 0.02, 0.01]",
                              "--set", "impact.law=newton", "--set", "impact.e=0.5", "--out", f.run,
                              "--quiet");
    zeno_run_dir_data d = {0};
    char trajectory[2 * PATH_SIZE];
    snprintf(trajectory, sizeof trajectory, "%s/trajectory.csv", f.run);
    const zeno_status read = zeno_run_dir_read_trajectory(trajectory, &d, NULL);
    assert_int_equal(code, 0);
    assert_int_equal(read, ZENO_OK);
    assert_int_equal(d.contact_count, 3);
    for (int r = 0; r < 3; r++) assert_string_equal(d.zod_names[r], k->names[r]);
    char(*mode)[ZENO_MODE_NAME_SIZE] = row_modes(&d);
    double *column[4];
    const size_t runs = run_columns(&d, (const char(*)[ZENO_MODE_NAME_SIZE])mode, column);
    plot_layout l;
    plot_options o = plot_options_default();
    o.layout = &l;
    const plot_trajectory_input in = {.title = k->scene,
                                      .count = d.row_count,
                                      .t = column[0],
                                      .z1 = column[1],
                                      .z2 = column[2],
                                      .x2 = column[3],
                                      .contact_count = d.contact_count,
                                      .zod_names = (const char(*)[ZENO_ZOD_NAME_SIZE])d.zod_names,
                                      .accumulation_t = NAN,
                                      .options = &o,
                                      .mode = (const char(*)[ZENO_MODE_NAME_SIZE])mode};
    assert_int_equal(plot_trajectory(f.png, &in), PLOT_OK);
    cairo_surface_t *s = cairo_image_surface_create_from_png(f.png);
    plot_frame top, bottom, strip;
    plot_trajectory_input sized = in;
    sized.options = NULL;
    plot_trajectory_layout(&sized, PLOT_WIDTH, PLOT_HEIGHT, &top, &bottom, &strip);
    assert_int_equal(l.band_count, (size_t)k->panels * runs);
    assert_true(l.mode_count >= 3);
    assert_int_equal(l.label_count, (size_t)k->panels + 1);
    for (int i = 0; i <= k->panels; i++) assert_string_equal(l.labels[i], k->labels[i]);
    for (size_t m = 0; m < l.mode_count; m++) assert_int_equal(strlen(l.modes[m]), 3);
    // A band's colour at the top panel's upper edge, at the middle of each
    // band at least 4 px wide.
    top.x_min = d.rows[0].t;
    top.x_max = d.rows[d.row_count - 1].t;
    plot_color seen[ZENO_MAX_MODES];
    bool have[ZENO_MAX_MODES] = {false};
    size_t checked = 0;
    for (size_t i = 0; i + 1 < d.row_count;) {
      size_t end = i + 1;
      while (end + 1 < d.row_count && strcmp(mode[end], mode[i]) == 0) end++;
      const double u0 = plot_frame_x(&top, d.rows[i].t), u1 = plot_frame_x(&top, d.rows[end].t);
      size_t m = 0;
      while (m < l.mode_count && strcmp(l.modes[m], mode[i]) != 0) m++;
      assert_true(m < l.mode_count);
      if (u1 - u0 >= 4) {
        const plot_color got = pixel(s, (u0 + u1) / 2, top.top + 2);
        if (have[m] && color_distance(got, seen[m]) != 0)
          fail_msg("%s: two colours for %s", k->scene, mode[i]);
        for (size_t other = 0; other < l.mode_count; other++)
          if (other != m && have[other] && color_distance(got, seen[other]) == 0)
            fail_msg("%s: %s and %s share a colour", k->scene, mode[i], l.modes[other]);
        seen[m] = got;
        have[m] = true;
        checked++;
      }
      i = end;
    }
    assert_true(checked >= 2);
    cairo_surface_destroy(s);
    for (int i = 0; i < 4; i++) free(column[i]);
    free(mode);
    zeno_run_dir_data_free(&d);
    run_files_remove(&f);
  }
}

/// Points of the curves of the label test.
#define LABEL_TEST_POINTS 50

// The y axis's label stays left of the tick labels, with a blank column
// between, however wide they are: values from -0.002 to 0.026 (the gaps of
// a small perturbation: "-0.002" and "0.026", which the label's fixed
// offset overlapped at --dpi 192), at 96 and 192 dpi. The label's pixels
// are those the figure has and the same figure without the label lacks.
static void test_y_label_clear_of_tick_labels(void **state) {
  (void)state;
  double t[LABEL_TEST_POINTS], a[LABEL_TEST_POINTS], b[LABEL_TEST_POINTS], c[LABEL_TEST_POINTS];
  for (int k = 0; k < LABEL_TEST_POINTS; k++) {
    t[k] = k / (LABEL_TEST_POINTS - 1.0);
    a[k] = -0.002 + 0.028 * t[k];
    b[k] = a[k] / 2;
    c[k] = t[k];
  }
  const char *const names[3] = {"a", "b", "c"};
  work_dir w;
  work_dir_create(&w, "figures");
  char with[PATH_SIZE], without[PATH_SIZE];
  work_path(&w, "with.png", with);
  work_path(&w, "without.png", without);
  for (int scale = 1; scale <= 2; scale++) {
    plot_options o = plot_options_default();
    o.width = scale * PLOT_WIDTH;
    o.height = scale * PLOT_HEIGHT;
    o.dpi = scale * PLOT_DPI_BASE;
    plot_trajectory_input in = {.count = LABEL_TEST_POINTS,
                                .t = t,
                                .z1 = a,
                                .z2 = b,
                                .x2 = c,
                                .accumulation_t = NAN,
                                .options = &o,
                                .names = names,
                                .top_label = "z₁, z₂, z₃ [L]",
                                .bottom_label = "x₃ [L]"};
    assert_int_equal(plot_trajectory(with, &in), PLOT_OK);
    in.top_label = NULL;
    assert_int_equal(plot_trajectory(without, &in), PLOT_OK);
    cairo_surface_t *sw = cairo_image_surface_create_from_png(with);
    cairo_surface_t *so = cairo_image_surface_create_from_png(without);
    plot_frame top, bottom, strip;
    in.options = NULL;
    plot_trajectory_layout(&in, PLOT_WIDTH, PLOT_HEIGHT, &top, &bottom, &strip);
    int label_right = -1, ticks_left = INT_MAX;
    for (int y = (int)ceil(scale * top.top); y < (int)(scale * (top.top + top.height)); y++)
      for (int x = 0; x < (int)(scale * top.left); x++) {
        const bool ink_with = color_distance(pixel(sw, x + 0.5, y + 0.5), PLOT_COLOR_BACKGROUND);
        const bool ink_without = color_distance(pixel(so, x + 0.5, y + 0.5), PLOT_COLOR_BACKGROUND);
        if (ink_without && x < ticks_left) ticks_left = x;
        if (ink_with && !ink_without && x > label_right) label_right = x;
      }
    cairo_surface_destroy(sw);
    cairo_surface_destroy(so);
    assert_true(label_right >= 0 && ticks_left < INT_MAX);
    if (!(label_right + 1 < ticks_left))
      fail_msg("%d dpi: the label reaches column %d, the tick labels start at %d",
               (int)(scale * PLOT_DPI_BASE), label_right, ticks_left);
  }
  work_dir_remove(&w, (const char *const[]){"with.png", "without.png", NULL}, NULL);
}

// --size 252x180 (a one-column figure) is taken: the PDF's page is
// 252 x 180 pt; sides down to 100 are.
static void test_one_column_size_taken(void **state) {
  (void)state;
  work_dir w;
  char pdf[PATH_SIZE], png[PATH_SIZE];
  work_pdf(&w, pdf);
  work_path(&w, "s.png", png);
  run_result r = run_zeno_captured("maps", EXAMPLE2, "--plot", pdf, "--size", "252x180");
  const bool page = file_contains(pdf, "/MediaBox [ 0 0 252 180 ]");
  const int small = run_zeno("maps", EXAMPLE2, "--plot", png, "--size", "100x100");
  uint32_t width = 0, height = 0, ppm = 0;
  if (small == 0) png_header(png, &width, &height, &ppm);
  work_dir_remove(&w, (const char *const[]){"f.pdf", "s.png", NULL}, NULL);
  assert_int_equal(r.exit_code, 0);
  assert_true(page);
  assert_int_equal(small, 0);
  assert_int_equal(width, 100);
  assert_int_equal(height, 100);
  run_result_free(&r);
}

// A trajectory figure's note (zeno certify's remark that V2 may rise in
// free flight) ends its legend: its parts (split after "; ") wrap as
// items do, on the page, at the legend's text size.
static void test_trajectory_note(void **state) {
  (void)state;
  static const double t[3] = {0, 0.5, 1}, v1[3] = {1, 0.8, 0.5}, v2[3] = {2, 2.2, 0.7};
  static const char *const names[3] = {"V₁ (energy)", NULL, "V₂"};
  work_dir w;
  char pdf[PATH_SIZE];
  work_pdf(&w, pdf);
  plot_layout plain, noted;
  plot_options o = one_column(&plain);
  plot_trajectory_input in = {.title = "certificate",
                              .count = 3,
                              .t = t,
                              .z1 = v1,
                              .x2 = v2,
                              .accumulation_t = NAN,
                              .options = &o,
                              .names = names,
                              .top_label = "V₁",
                              .bottom_label = "V₂"};
  const plot_status st = plot_trajectory(pdf, &in);
  o.layout = &noted;
  in.note = "V₂ may rise in free flight; it falls from a flight's start to after its impact";
  const plot_status st2 = plot_trajectory(pdf, &in);
  work_dir_remove(&w, (const char *const[]){"f.pdf", NULL}, NULL);
  assert_int_equal(st, PLOT_OK);
  assert_int_equal(st2, PLOT_OK);
  assert_int_equal(plain.legend_items, 4);                       // V1, V2, event, impact
  assert_int_equal(noted.legend_items, plain.legend_items + 2);  // parts split after "; "
  assert_true(box_inside(noted.legend, ONE_COLUMN_WIDTH, ONE_COLUMN_HEIGHT));
  assert_true(noted.legend.y1 > plain.legend.y1);  // a row of its own
  assert_text_sizes(&noted);
}

/* ---- sweep --color (issue 32) -------------------------------------------------- */

/// The sweep figure's fixed colours (plot_sweep.c): viridis's ends, points
/// without a value, errors.
static const plot_color VIRIDIS_LO = {68, 1, 84}, VIRIDIS_HI = {253, 231, 37};
static const plot_color NO_VALUE = {190, 190, 190}, NOT_SIMULATED = {230, 0, 200};

// --color x2: a 3 x 2 grid whose resting runs end at x2 = -1, 0.5, 2, 3;
// one run escaped (no rest position) and one was not simulated. The
// colour bar spans the values, the lowest cell is viridis's first colour,
// the highest its last, the escaped run grey and the error magenta.
static void test_sweep_color_x2(void **state) {
  (void)state;
  zeno_region_axis x = {.count = 3, .lo = 0, .hi = 2}, y = {.count = 2, .lo = 0, .hi = 1};
  snprintf(x.path, sizeof x.path, "initial.qdp.2");
  snprintf(y.path, sizeof y.path, "initial.qdp.1");
  zeno_sweep_point g[6];
  memset(g, 0, sizeof g);
  const double x2[6] = {-1, 0.5, 2, 3, 0, 0};
  for (int k = 0; k < 6; k++) {
    g[k].ix = (size_t)(k % 3);
    g[k].iy = (size_t)(k / 3);
    g[k].x = k % 3;
    g[k].y = k / 3;
    g[k].ok = k != 5;
    g[k].outcome = k == 4 ? ZENO_OUTCOME_ESCAPED : ZENO_OUTCOME_REST;
    g[k].final_zod[2] = x2[k];
    g[k].zeno_time = NAN;
  }
  work_dir w;
  work_dir_create(&w, "figures");
  char png[PATH_SIZE];
  work_path(&w, "s.png", png);
  plot_layout l;
  plot_options o = plot_options_default();
  o.layout = &l;
  const plot_sweep_input in = {
      .title = "x2", .x = &x, .y = &y, .grid = g, .options = &o, .color = PLOT_SWEEP_COLOR_X2};
  const plot_status st = plot_sweep(png, &in);
  cairo_surface_t *s = cairo_image_surface_create_from_png(png);
  work_dir_remove(&w, (const char *const[]){"s.png", NULL}, NULL);
  assert_int_equal(st, PLOT_OK);
  assert_true(l.color_bar_lo == -1 && l.color_bar_hi == 3);
  assert_true(l.color_bar.y1 - l.color_bar.y0 > 50);
  // Every cell's colour covers about a sixth of the map; cells 1 and 2
  // (between the ends of the scale) are not counted.
  const plot_color expect[6] = {VIRIDIS_LO, {0, 0, 0}, {0, 0, 0},
                                VIRIDIS_HI, NO_VALUE,  NOT_SIMULATED};
  long found[6] = {0};
  for (int py = 0; py < PLOT_HEIGHT; py++)
    for (int px = 0; px < PLOT_WIDTH; px++) {
      const plot_color c = pixel(s, px + 0.5, py + 0.5);
      for (int k = 0; k < 6; k++)
        if (k != 1 && k != 2 && color_distance(c, expect[k]) == 0) found[k]++;
    }
  // Each cell is about a sixth of the map: thousands of pixels, far more
  // than the colour bar's ends hold of its end colours.
  for (int k = 0; k < 6; k++)
    if (k != 1 && k != 2 && found[k] < 1000)
      fail_msg("cell %d: %ld pixels of its colour", k, found[k]);
  cairo_surface_destroy(s);
}

// --color: a name it does not know, or without --plot, or with the basin
// map (--magnitude), is refused with one line naming it, exit 2; each
// quantity draws.
static void test_sweep_color_option(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "figures");
  char png[PATH_SIZE];
  work_path(&w, "s.png", png);
  static const char *const NAMES[] = {"outcome", "t", "impacts", "zeno_time", "x2"};
  int codes[5];
  for (int k = 0; k < 5; k++)
    codes[k] = run_zeno("sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-1:1:3", "--y",
                        "initial.qdp.1=-1:-0.5:2", "--plot", png, "--color", NAMES[k], "-q");
  run_result bad = run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-1:1:3", "--y",
                                     "initial.qdp.1=-1:-0.5:2", "--plot", png, "--color", "speed");
  run_result no_plot = run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-1:1:3",
                                         "--y", "initial.qdp.1=-1:-0.5:2", "--color", "t");
  run_result basin = run_zeno_captured("sweep", EXAMPLE3_ZENO, "--x", "initial.qdp.2=-1:1:3", "--y",
                                       "initial.qdp.1=-1:-0.5:2", "--plot", png, "--color",
                                       "impacts", "--magnitude", "0.1:1:3");
  work_dir_remove(&w, (const char *const[]){"s.png", NULL}, NULL);
  for (int k = 0; k < 5; k++) assert_int_equal(codes[k], 0);
  const run_result *refused[3] = {&bad, &no_plot, &basin};
  const char *named[3] = {"--color speed", "--color t", "--color impacts"};
  for (int k = 0; k < 3; k++) {
    assert_int_equal(refused[k]->exit_code, 2);
    assert_non_null(strstr(refused[k]->err, named[k]));
    assert_true(strchr(refused[k]->err, '\n') == refused[k]->err + strlen(refused[k]->err) - 1);
  }
  assert_non_null(strstr(no_plot.err, "--plot"));
  assert_non_null(strstr(basin.err, "basin map"));
  run_result_free(&basin);
  run_result_free(&bad);
  run_result_free(&no_plot);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_size_and_dpi),
      cmocka_unit_test(test_dpi_scales_the_drawing),
      cmocka_unit_test(test_xlim),
      cmocka_unit_test(test_every_command),
      cmocka_unit_test(test_bad_values),
      cmocka_unit_test(test_options_need_a_figure),
      cmocka_unit_test(test_trajectory_axes),
      cmocka_unit_test(test_log_axis_refused),
      cmocka_unit_test(test_grid_layout),
      cmocka_unit_test(test_region_map_layout),
      cmocka_unit_test(test_region_map_certified),
      cmocka_unit_test(test_one_column_maps),
      cmocka_unit_test(test_one_column_regions),
      cmocka_unit_test(test_one_column_trajectory),
      cmocka_unit_test(test_many_contacts_trajectory),
      cmocka_unit_test(test_y_label_clear_of_tick_labels),
      cmocka_unit_test(test_one_column_size_taken),
      cmocka_unit_test(test_trajectory_note),
      cmocka_unit_test(test_sweep_color_x2),
      cmocka_unit_test(test_sweep_color_option),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  plot_release_caches();
  return failed;
}
