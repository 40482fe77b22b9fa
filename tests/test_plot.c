// Figures: the plot module's axis mapping, G axis and interval-graph edges
// in-process, then the PNG and SVG files the real `zeno` binary writes:
// sizes, and the palette's colours at pixels computed with the module's own
// axis mapping from the maps (computed here with the library).
#include <cairo.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "plot/plot.h"
#include "plot/plot_internal.h"
#include "plot_pixels.h"

/// A sane figure file: more than a blank image, less than a photograph.
#define MIN_FILE_BYTES 5000
#define MAX_FILE_BYTES 5000000
/// Pixels below the top edge of a panel where no curve reaches (the G
/// axis has 20% headroom over G_max).
#define PANEL_TOP_INSET 4.0
/// Largest channel difference accepted for an antialiased curve pixel, and
/// the search radius around the computed position [px].
#define CURVE_TOLERANCE 40
#define CURVE_RADIUS 1
/// Pixels a node colour must cover in the graph (a node is about 120 x 58
/// at the design size, 900 x 600, and the default figure draws it at about
/// half that: 60 x 30).
#define MIN_NODE_PIXELS 1000
/// Pixels a trajectory curve colour must cover.
#define MIN_CURVE_PIXELS 200
/// Data points of Example 2 (paper Fig. 4c): R = -0.524 at phi = 0, G
/// constant (G+) beyond phi = 1.4; an R-undefined, safe region at -1.
#define EX2_R_PHI 0.0
#define EX2_G_PHI 1.5
#define EX2_SAFE_PHI (-1.0)
/// A value of R below Example 2's curve (R >= -0.53 where defined).
#define EX2_R_BELOW_CURVE (-1.3)
#define TOLERANCE 1e-12
/// The PNG writer's test image [px], its density, the colour of its left
/// half, and the colour and alpha of a rectangle drawn over its middle.
#define PNG_TEST_WIDTH 8
#define PNG_TEST_HEIGHT 4
#define PNG_TEST_DPI 150
static const double PNG_TEST_BASE[3] = {0.9, 0.3, 0.1}, PNG_TEST_OVER[3] = {0.2, 0.6, 0.8};
#define PNG_TEST_OVER_ALPHA 0.4

/* ---- running the binary -------------------------------------------------- */

/* ---- images ---------------------------------------------------------------- */

static long file_size(const char *path) {
  struct stat info;
  return stat(path, &info) == 0 ? (long)info.st_size : -1;
}

static void assert_sane_size(const char *path) {
  const long size = file_size(path);
  if (size <= MIN_FILE_BYTES || size >= MAX_FILE_BYTES) fail_msg("%s: %ld bytes", path, size);
}

/// Loads a PNG written by zeno and checks its size.
static cairo_surface_t *load_png(const char *path) {
  assert_sane_size(path);
  cairo_surface_t *s = cairo_image_surface_create_from_png(path);
  assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  assert_int_equal(cairo_image_surface_get_width(s), PLOT_WIDTH);
  assert_int_equal(cairo_image_surface_get_height(s), PLOT_HEIGHT);
  return s;
}

static void assert_pixel(cairo_surface_t *s, double x, double y, plot_color want) {
  const plot_color got = pixel(s, x, y);
  if (color_distance(got, want) != 0)
    fail_msg("pixel (%.1f, %.1f) is (%d, %d, %d), expected (%d, %d, %d)", x, y, got.r, got.g, got.b,
             want.r, want.g, want.b);
}

/// Some pixel within CURVE_RADIUS of (x, y) is close to `want`.
static void assert_curve_near(cairo_surface_t *s, double x, double y, plot_color want) {
  for (int dy = -CURVE_RADIUS; dy <= CURVE_RADIUS; dy++)
    for (int dx = -CURVE_RADIUS; dx <= CURVE_RADIUS; dx++)
      if (color_distance(pixel(s, x + dx, y + dy), want) <= CURVE_TOLERANCE) return;
  const plot_color got = pixel(s, x, y);
  fail_msg("no curve colour (%d, %d, %d) near (%.1f, %.1f): (%d, %d, %d)", want.r, want.g, want.b,
           x, y, got.r, got.g, got.b);
}

static long count_color(cairo_surface_t *s, plot_color want) {
  long n = 0;
  for (int y = 0; y < PLOT_HEIGHT; y++)
    for (int x = 0; x < PLOT_WIDTH; x++) n += color_distance(pixel(s, x + 0.5, y + 0.5), want) == 0;
  return n;
}

/* ---- the library's analysis of Example 2 ------------------------------------ */

static void analyze_example2(zeno_analysis *a) {
  zeno_scene scene;
  zeno_error err;
  assert_int_equal(zeno_scene_load(EXAMPLE2, NULL, 0, &scene, &err), ZENO_OK);
  const zeno_analysis_def def = zeno_analysis_def_default();
  assert_int_equal(zeno_analyze(&scene, &def, a, &err), ZENO_OK);
  assert_int_equal(a->theorem, 4);
}

/// The sample nearest phi where R is defined.
static const zeno_cycle *sample_near(const zeno_maps *m, double phi) {
  const zeno_cycle *best = NULL;
  for (size_t k = 0; k < m->sample_count; k++)
    if (m->samples[k].defined &&
        (best == NULL || fabs(m->samples[k].phi - phi) < fabs(best->phi - phi)))
      best = &m->samples[k];
  assert_non_null(best);
  return best;
}

/// Midpoint of the widest unsafe interval of the merged partition.
static double unsafe_midpoint(const zeno_analysis *a) {
  zeno_interval *iv = malloc(a->partition_count * sizeof *iv);
  assert_non_null(iv);
  const size_t n = zeno_partition_merge(a->partition, a->safe, a->partition_count, iv);
  double mid = NAN, width = 0;
  for (size_t i = 0; i < n; i++)
    if (!iv[i].safe && iv[i].hi - iv[i].lo > width) {
      width = iv[i].hi - iv[i].lo;
      mid = 0.5 * (iv[i].lo + iv[i].hi);
    }
  free(iv);
  assert_true(isfinite(mid));
  return mid;
}

/* ---- tests: the module in-process ------------------------------------------- */

static void test_frame_mapping(void **state) {
  (void)state;
  const plot_frame f = {10, 20, 100, 50, -1, 1, 0, 2, false, false};
  assert_true(fabs(plot_frame_x(&f, -1) - 10) < TOLERANCE);
  assert_true(fabs(plot_frame_x(&f, 1) - 110) < TOLERANCE);
  assert_true(fabs(plot_frame_x(&f, 0) - 60) < TOLERANCE);
  assert_true(fabs(plot_frame_y(&f, 0) - 70) < TOLERANCE);  // y grows downwards
  assert_true(fabs(plot_frame_y(&f, 2) - 20) < TOLERANCE);
}

static void test_maps_frames(void **state) {
  (void)state;
  // The G axis: 20% headroom over max(G_max, 1) rounded up to a tick, <= 5.
  assert_true(fabs(plot_maps_g_top(1.7704) - 2.5) < TOLERANCE);
  assert_true(fabs(plot_maps_g_top(0.2125) - 1.2) < TOLERANCE);
  assert_true(fabs(plot_maps_g_top(-INFINITY) - 1.2) < TOLERANCE);
  assert_true(fabs(plot_maps_g_top(1.8e6) - 5.0) < TOLERANCE);
  plot_frame r, g;
  plot_maps_frames(PLOT_WIDTH, PLOT_HEIGHT, 2.5, NULL, &r, &g);
  assert_true(r.top + r.height < g.top);  // R above G, not overlapping
  assert_true(g.top + g.height < PLOT_HEIGHT);
  assert_true(r.left > 0 && r.left + r.width < PLOT_WIDTH);
  assert_true(fabs(r.x_min + ZENO_PI / 2) < TOLERANCE && fabs(g.x_max - ZENO_PI / 2) < TOLERANCE);
  assert_true(fabs(r.y_max - ZENO_PI / 2) < TOLERANCE && g.y_min == 0 && g.y_max == 2.5);
  assert_true(plot_format_known("a.png") && plot_format_known("b.SVG"));
  assert_false(plot_format_known("c.jpg") || plot_format_known("png"));
}

static void test_unknown_format_is_refused(void **state) {
  (void)state;
  zeno_maps maps = {.G_max = 1.0};
  const plot_maps_input in = {"x", &maps, NULL, 0, NULL};
  assert_int_equal(plot_maps("/nonexistent-zeno-dir/x.gif", &in), PLOT_ERR_FORMAT);
  assert_int_equal(plot_maps("/nonexistent-zeno-dir/x.png", &in), PLOT_ERR_WRITE);
}

/* ---- tests: the PNG writer (plot_png.c) --------------------------------------- */

/// A PNG's rows as libpng decodes them (free `pixels`), its colour type and
/// its bit depth.
typedef struct decoded_png {
  unsigned char *pixels;
  size_t size;
  int color_type, bit_depth;
} decoded_png;

static void decode_png(const char *path, decoded_png *d) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  assert_non_null(info);
  if (setjmp(png_jmpbuf(png))) fail_msg("%s: not a PNG libpng reads", path);
  png_init_io(png, f);
  png_read_info(png, info);
  d->color_type = png_get_color_type(png, info);
  d->bit_depth = png_get_bit_depth(png, info);
  const size_t row = png_get_rowbytes(png, info);
  d->size = row * png_get_image_height(png, info);
  d->pixels = malloc(d->size);
  assert_non_null(d->pixels);
  for (size_t y = 0; y < png_get_image_height(png, info); y++)
    png_read_row(png, d->pixels + y * row, NULL);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  fclose(f);
}

/// The test image: opaque on a white background, else transparent on the
/// right and half transparent in the middle.
static cairo_surface_t *png_test_image(cairo_format_t format, bool opaque) {
  cairo_surface_t *s = cairo_image_surface_create(format, PNG_TEST_WIDTH, PNG_TEST_HEIGHT);
  cairo_t *cr = cairo_create(s);
  if (opaque) {
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
  }
  cairo_set_source_rgb(cr, PNG_TEST_BASE[0], PNG_TEST_BASE[1], PNG_TEST_BASE[2]);
  cairo_rectangle(cr, 0, 0, PNG_TEST_WIDTH / 2, PNG_TEST_HEIGHT);
  cairo_fill(cr);
  cairo_set_source_rgba(cr, PNG_TEST_OVER[0], PNG_TEST_OVER[1], PNG_TEST_OVER[2],
                        PNG_TEST_OVER_ALPHA);
  cairo_rectangle(cr, PNG_TEST_WIDTH / 4, 0, PNG_TEST_WIDTH / 2, PNG_TEST_HEIGHT);
  cairo_fill(cr);
  cairo_destroy(cr);
  assert_int_equal(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
  return s;
}

// plot_png_write() lays the pixels out as cairo's own writer does: a
// transparent ARGB32 image as RGBA with the alpha divided out, an opaque one
// and an RGB24 one as RGB, 8 bits a channel, the same bytes once decoded.
static void test_png_as_cairo_writes(void **state) {
  (void)state;
  static const struct {
    cairo_format_t format;
    bool opaque;
    int color_type;
  } CASES[] = {{CAIRO_FORMAT_ARGB32, false, PNG_COLOR_TYPE_RGB_ALPHA},
               {CAIRO_FORMAT_ARGB32, true, PNG_COLOR_TYPE_RGB},
               {CAIRO_FORMAT_RGB24, false, PNG_COLOR_TYPE_RGB}};
  work_dir w;
  work_dir_create(&w, "png");
  char ours[PATH_SIZE], cairos[PATH_SIZE];
  work_path(&w, "ours.png", ours);
  work_path(&w, "cairo.png", cairos);
  for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
    cairo_surface_t *s = png_test_image(CASES[k].format, CASES[k].opaque);
    FILE *f = fopen(ours, "wb");
    assert_non_null(f);
    assert_int_equal(plot_png_write(s, f, PNG_TEST_DPI), PLOT_OK);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(cairo_surface_write_to_png(s, cairos), CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(s);
    decoded_png a, b;
    decode_png(ours, &a);
    decode_png(cairos, &b);
    assert_int_equal(a.color_type, CASES[k].color_type);
    assert_int_equal(b.color_type, CASES[k].color_type);
    assert_int_equal(a.bit_depth, b.bit_depth);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.pixels, b.pixels, a.size);
    free(a.pixels);
    free(b.pixels);
  }
  work_dir_remove(&w, (const char *const[]){"ours.png", "cairo.png", NULL}, NULL);
}

/// Bytes a file may grow to in the full-disk test (RLIMIT_FSIZE): less than
/// any figure.
#define FULL_DISK_BYTES 4096

// The file at path holds the n bytes `before` (freed here) still.
static void assert_file_kept(const char *path, char *before, size_t n) {
  size_t n_after;
  char *after = read_file_bytes(path, &n_after);
  assert_non_null(after);
  assert_int_equal(n, n_after);
  assert_memory_equal(before, after, n);
  free(before);
  free(after);
}

// The figures of a name already written, then again on a full disk
// (RLIMIT_FSIZE, writes past it fail with EFBIG): each failure is reported,
// the previous figure is kept whole and nothing is left beside it. (PDF
// and SVG went through cairo's own file writer, whose late errors were
// reported nowhere: a truncated PDF passed for written.)
static void check_full_disk(const work_dir *w, const char *name) {
  char path[PATH_SIZE];
  work_path(w, name, path);
  zeno_maps maps = {.G_max = 1.0};
  const plot_maps_input in = {"x", &maps, NULL, 0, NULL};
  assert_int_equal(plot_maps(path, &in), PLOT_OK);
  size_t n_before = 0;
  char *before = read_file_bytes(path, &n_before);
  assert_non_null(before);
  struct rlimit old, small;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
  small = old;
  small.rlim_cur = FULL_DISK_BYTES;
  void (*previous)(int) = signal(SIGXFSZ, SIG_IGN);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
  const plot_status figure = plot_maps(path, &in);
  assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
  signal(SIGXFSZ, previous);
  assert_int_equal(figure, PLOT_ERR_WRITE);
  assert_file_kept(path, before, n_before);
  DIR *d = opendir(w->root);
  assert_non_null(d);
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    assert_true(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
                strcmp(e->d_name, name) == 0);
  closedir(d);
  unlink(path);
}

// A full disk: an image that fits stdio's buffer fails when it is flushed;
// a figure of any format, while it is written, leaving the previous one.
static void test_png_full_disk(void **state) {
  (void)state;
  cairo_surface_t *s = png_test_image(CAIRO_FORMAT_RGB24, true);
  FILE *f = fopen("/dev/full", "wb");
  assert_non_null(f);
  const plot_status small = plot_png_write(s, f, PNG_TEST_DPI);
  fclose(f);
  cairo_surface_destroy(s);
  assert_int_equal(small, PLOT_ERR_WRITE);
  work_dir w;
  work_dir_create(&w, "full");
  check_full_disk(&w, "maps.png");
  check_full_disk(&w, "maps.pdf");
  check_full_disk(&w, "maps.svg");
  // A FIFO (or a device) under the name is not replaced by a file.
  char fifo[PATH_SIZE];
  work_path(&w, "fifo.png", fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  zeno_maps maps = {.G_max = 1.0};
  const plot_maps_input in = {"x", &maps, NULL, 0, NULL};
  assert_int_equal(plot_maps(fifo, &in), PLOT_ERR_WRITE);
  struct stat st;
  assert_int_equal(lstat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  work_dir_remove(&w, (const char *const[]){"fifo.png", NULL}, NULL);
}

// A stop asked while a figure was drawn (plot_options.stop, the program's
// signal flag): PLOT_STOPPED, the previous figure of the name kept whole,
// no temporary left; a stop flag at 0 changes nothing.
static void test_stop_keeps_the_previous_figure(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "stop");
  const char *const names[] = {"maps.png", "maps.pdf"};
  for (int k = 0; k < 2; k++) {
    char path[PATH_SIZE];
    work_path(&w, names[k], path);
    zeno_maps maps = {.G_max = 1.0};
    volatile sig_atomic_t flag = 0;
    plot_options options = plot_options_default();
    options.stop = &flag;
    const plot_maps_input in = {"x", &maps, NULL, 0, &options};
    assert_int_equal(plot_maps(path, &in), PLOT_OK);
    size_t n_before = 0;
    char *before = read_file_bytes(path, &n_before);
    assert_non_null(before);
    flag = SIGINT;
    const plot_maps_input other = {"another title", &maps, NULL, 0, &options};
    assert_int_equal(plot_maps(path, &other), PLOT_STOPPED);
    assert_file_kept(path, before, n_before);
    unlink(path);
  }
  DIR *d = opendir(w.root);
  assert_non_null(d);
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    assert_true(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0);
  closedir(d);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

/* ---- tests: figures of the binary ------------------------------------------- */

static void check_maps_png(cairo_surface_t *png, const zeno_analysis *a) {
  plot_frame r, g;
  plot_maps_frames(PLOT_WIDTH, PLOT_HEIGHT, plot_maps_g_top(a->maps.G_max), NULL, &r, &g);
  assert_pixel(png, 1, 1, PLOT_COLOR_BACKGROUND);
  assert_pixel(png, PLOT_WIDTH - 2, PLOT_HEIGHT - 2, PLOT_COLOR_BACKGROUND);
  // Unsafe: shaded in both panels; safe (R undefined near -1): background.
  const double unsafe = unsafe_midpoint(a);
  assert_pixel(png, plot_frame_x(&g, unsafe), g.top + PANEL_TOP_INSET, PLOT_COLOR_UNSAFE_SHADE);
  assert_pixel(png, plot_frame_x(&r, unsafe), plot_frame_y(&r, EX2_R_BELOW_CURVE),
               PLOT_COLOR_UNSAFE_SHADE);
  assert_pixel(png, plot_frame_x(&g, EX2_SAFE_PHI), g.top + PANEL_TOP_INSET, PLOT_COLOR_BACKGROUND);
  // The curves where the maps put them.
  const zeno_cycle *c = sample_near(&a->maps, EX2_G_PHI);
  assert_curve_near(png, plot_frame_x(&g, c->phi), plot_frame_y(&g, c->G), PLOT_COLOR_G);
  c = sample_near(&a->maps, EX2_R_PHI);
  assert_curve_near(png, plot_frame_x(&r, c->phi), plot_frame_y(&r, c->R), PLOT_COLOR_R);
}

static void test_analyze_figures(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "plot");
  char maps[PATH_SIZE], graph[PATH_SIZE];
  work_path(&w, "maps.png", maps);
  work_path(&w, "graph.png", graph);
  const int code = run_zeno("analyze", EXAMPLE2, "--plot", maps, "--graph", graph);
  zeno_analysis a;
  analyze_example2(&a);
  cairo_surface_t *png = code == 0 ? load_png(maps) : NULL;
  cairo_surface_t *graph_png = code == 0 ? load_png(graph) : NULL;
  work_dir_remove(&w, (const char *const[]){"maps.png", "graph.png", NULL}, NULL);
  assert_int_equal(code, 0);
  check_maps_png(png, &a);
  assert_true(count_color(graph_png, PLOT_COLOR_SAFE) > MIN_NODE_PIXELS);
  assert_true(count_color(graph_png, PLOT_COLOR_UNSAFE) > MIN_NODE_PIXELS);
  assert_pixel(graph_png, 1, 1, PLOT_COLOR_BACKGROUND);
  cairo_surface_destroy(png);
  cairo_surface_destroy(graph_png);
  zeno_analysis_free(&a);
}

static void test_maps_svg(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "plot");
  char svg[PATH_SIZE];
  work_path(&w, "maps.svg", svg);
  const int code = run_zeno("maps", EXAMPLE2, "--plot", svg);
  char *text = read_file(svg);
  const long size = file_size(svg);
  work_dir_remove(&w, (const char *const[]){"maps.svg", NULL}, NULL);
  assert_int_equal(code, 0);
  assert_non_null(text);
  assert_true(size > MIN_FILE_BYTES && size < MAX_FILE_BYTES);
  assert_int_equal(strncmp(text, "<?xml", strlen("<?xml")), 0);
  assert_non_null(strstr(text, "<svg"));
  free(text);
}

// PDF, cairo's third surface: every figure kind writes a one-page PDF of the
// figure's size in points (900 x 600 for the maps), and a .jpg is refused.
static void test_figures_pdf(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "plot");
  char maps[PATH_SIZE], graph[PATH_SIZE], regions[PATH_SIZE], jpg[PATH_SIZE];
  work_path(&w, "maps.pdf", maps);
  work_path(&w, "graph.PDF", graph);
  work_path(&w, "regions.pdf", regions);
  work_path(&w, "maps.jpg", jpg);
  const int c1 = run_zeno("analyze", EXAMPLE2, "--plot", maps, "--graph", graph);
  const int c2 = run_zeno("regions", ZENO_SCENES_DIR "/example6.yaml", "--x", "com.x=-2.5:2:8",
                          "--y", "com.y=-1:2.5:8", "--plot", regions, "--quiet");
  const int c3 = run_zeno("maps", EXAMPLE2, "--plot", jpg);
  char *texts[3] = {read_file(maps), read_file(graph), read_file(regions)};
  const long size = file_size(maps);
  const bool jpg_written = access(jpg, F_OK) == 0;
  work_dir_remove(&w, (const char *const[]){"maps.pdf", "graph.PDF", "regions.pdf", NULL}, NULL);
  assert_int_equal(c1, 0);
  assert_int_equal(c2, 0);
  assert_int_equal(c3, 2);
  assert_false(jpg_written);
  assert_true(size > MIN_FILE_BYTES && size < MAX_FILE_BYTES);
  for (int k = 0; k < 3; k++) {
    assert_non_null(texts[k]);
    assert_int_equal(strncmp(texts[k], "%PDF-", 5), 0);
    free(texts[k]);
  }
}

// Axis labels print symbols, not scene paths: the paper's parameters as
// Greek letters with subscripts and units, the centre of mass in words;
// a path without a symbol is its own label.
static void test_axis_labels(void **state) {
  (void)state;
  assert_string_equal(plot_axis_label("paper.alpha"), "α [°] (load angle)");
  assert_string_equal(plot_axis_label("paper.mu2"), "μ₂");
  assert_string_equal(plot_axis_label("paper.phi1"), "φ₁ [°] (surface 1)");
  assert_string_equal(plot_axis_label("com.y"), "centre of mass y [L]");
  assert_string_equal(plot_axis_label("contacts.1.mu"), "μ₂");
  assert_string_equal(plot_axis_label("stop.t_end"), "stop.t_end");
  assert_string_equal(plot_axis_label(NULL), "");
}

// `zeno simulate SCENE [--set SET] --out` then `zeno plot-trajectory`: the
// figure as read back (NULL when either command failed; *code says which
// exit).
static cairo_surface_t *trajectory_figure(const char *scene, const char *set, int *code) {
  work_dir w;
  work_dir_create(&w, "plot");
  char run[PATH_SIZE], figure[PATH_SIZE];
  work_path(&w, "run", run);
  work_path(&w, "trajectory.png", figure);
  *code = set ? run_zeno("simulate", scene, "--set", set, "--out", run, "--quiet")
              : run_zeno("simulate", scene, "--out", run, "--quiet");
  if (*code == 0) *code = run_zeno("plot-trajectory", run, "--plot", figure);
  cairo_surface_t *png = *code == 0 ? load_png(figure) : NULL;
  remove_simulate_out(run);
  work_dir_remove(&w, (const char *const[]){"trajectory.png", NULL}, "run");
  return png;
}

static void test_trajectory_figure(void **state) {
  (void)state;
  int code;
  cairo_surface_t *png = trajectory_figure(EXAMPLE3_ZENO, NULL, &code);
  assert_int_equal(code, 0);
  assert_pixel(png, 1, 1, PLOT_COLOR_BACKGROUND);
  assert_true(count_color(png, PLOT_COLOR_Z1) > MIN_CURVE_PIXELS);
  assert_true(count_color(png, PLOT_COLOR_Z2) > MIN_CURVE_PIXELS);
  assert_true(count_color(png, PLOT_COLOR_X2) > MIN_CURVE_PIXELS);
  cairo_surface_destroy(png);
}

// A one-contact run (the bouncing ball) draws its gap z1 above and its
// slip x1 below in the slip's colour: nothing in z2's colour, which drew
// x1 as "z2 (gap 2)" before.
static void test_one_contact_trajectory_figure(void **state) {
  (void)state;
  int code;
  cairo_surface_t *png = trajectory_figure(ZENO_SCENES_DIR "/bouncing-ball.yaml", NULL, &code);
  assert_int_equal(code, 0);
  assert_true(count_color(png, PLOT_COLOR_Z1) > MIN_CURVE_PIXELS);
  assert_true(count_color(png, PLOT_COLOR_X2) > MIN_CURVE_PIXELS);
  assert_int_equal(count_color(png, PLOT_COLOR_Z2), 0);
  cairo_surface_destroy(png);
}

// A run of three contacts (the box in a corner knocked off its rest,
// q' = (z1, z2, z3)): its three gaps in the colours of q''s three places,
// each at least half a curve's pixels (closed, they lie on one another
// along z = 0, the later drawn over the earlier).
static void test_many_contacts_trajectory_figure(void **state) {
  (void)state;
  int code;
  cairo_surface_t *png = trajectory_figure(ZENO_SCENES_DIR "/box-in-a-corner.yaml",
                                           "initial.pose=[0.01, 0.02, 0.01]", &code);
  assert_int_equal(code, 0);
  assert_true(count_color(png, PLOT_COLOR_Z1) > MIN_CURVE_PIXELS / 2);
  assert_true(count_color(png, PLOT_COLOR_Z2) > MIN_CURVE_PIXELS / 2);
  assert_true(count_color(png, PLOT_COLOR_X2) > MIN_CURVE_PIXELS / 2);
  cairo_surface_destroy(png);
}

// Example 2's limiting fixed point at phi = pi/2 (convergent, Lemma 3) is
// a whole filled circle on the corner of the R panel, not cut by the frame.
static void test_limiting_fixed_point_whole(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "plot");
  char png[PATH_SIZE];
  work_path(&w, "m.png", png);
  // At the design size, where the markers are 5 px in radius.
  const int code = run_zeno("maps", EXAMPLE2, "--plot", png, "--size", "900x600");
  cairo_surface_t *s = cairo_image_surface_create_from_png(png);
  work_dir_remove(&w, (const char *const[]){"m.png", NULL}, NULL);
  assert_int_equal(code, 0);
  plot_frame r, g;
  plot_options o = plot_options_default();
  o.width = PLOT_DESIGN_WIDTH;
  o.height = PLOT_DESIGN_HEIGHT;
  plot_maps_frames(PLOT_DESIGN_WIDTH, PLOT_DESIGN_HEIGHT, 2.5, &o, &r, &g);
  const double cx = plot_frame_x(&r, ZENO_PI / 2), cy = plot_frame_y(&r, ZENO_PI / 2);
  assert_int_equal(color_distance(pixel(s, cx + 3, cy), PLOT_COLOR_INK), 0);      // outside
  assert_int_equal(color_distance(pixel(s, cx, cy - 3), PLOT_COLOR_INK), 0);      // above
  assert_int_equal(color_distance(pixel(s, cx - 3, cy + 3), PLOT_COLOR_INK), 0);  // inside
  cairo_surface_destroy(s);
}

/* ---- region maps ---------------------------------------------------------- */

/// The whole grid of a sweep, computed in-process as the binary does.
static zeno_region_point *region_grid(const char *scene, const zeno_regions_def *d) {
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

static zeno_regions_def region_axes(const char *x, const char *y, int mc_runs) {
  zeno_regions_def d = zeno_regions_def_default();
  assert_int_equal(zeno_region_axis_parse(x, &d.x, NULL), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse(y, &d.y, NULL), ZENO_OK);
  d.mc_runs = mc_runs;
  return d;
}

// Every cell of the Example 7 chart has its region's colour at its centre
// (no overlay on a parameter chart), and the Example 6 map draws the
// contact configuration: the contact points are ink.
static void test_regions_figures(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "plot");
  char chart[PATH_SIZE], map[PATH_SIZE];
  work_path(&w, "chart.png", chart);
  work_path(&w, "map.png", map);
  static const char *const CHART_X = "paper.mu2=0:1.3:14", *const CHART_Y = "paper.alpha=0:40:11";
  static const char *const MAP_X = "com.x=-2.5:2:10", *const MAP_Y = "com.y=-1:2.5:8";
  const int chart_code = run_zeno("regions", ZENO_SCENES_DIR "/example7.yaml", "--x", CHART_X,
                                  "--y", CHART_Y, "--mc-runs", "8", "--plot", chart, "-q");
  const int map_code = run_zeno("regions", ZENO_SCENES_DIR "/example6.yaml", "--x", MAP_X, "--y",
                                MAP_Y, "--mc-runs", "0", "--plot", map, "-q");
  cairo_surface_t *chart_png = chart_code == 0 ? load_png(chart) : NULL;
  cairo_surface_t *map_png = map_code == 0 ? load_png(map) : NULL;
  work_dir_remove(&w, (const char *const[]){"chart.png", "map.png", NULL}, NULL);
  assert_int_equal(chart_code, 0);
  assert_int_equal(map_code, 0);

  const zeno_regions_def cd = region_axes(CHART_X, CHART_Y, 8);
  zeno_region_point *g = region_grid(ZENO_SCENES_DIR "/example7.yaml", &cd);
  const plot_regions_input in = {.x = &cd.x, .y = &cd.y, .grid = g};
  plot_frame f;
  plot_regions_frame(&in, &f);
  int classes = 0;
  bool seen[ZENO_REGION_COUNT + 2] = {false};
  for (size_t k = 0; k < cd.x.count * cd.y.count; k++) {
    assert_pixel(chart_png, plot_frame_x(&f, g[k].x), plot_frame_y(&f, g[k].y),
                 plot_region_color(&g[k]));
    const int slot = g[k].region + (g[k].sim == ZENO_REGION_SIM_DEPARTS ? 2 : 0);
    classes += !seen[slot];
    seen[slot] = true;
  }
  assert_true(classes >= 2);

  zeno_scene scene;
  assert_int_equal(zeno_scene_load(ZENO_SCENES_DIR "/example6.yaml", NULL, 0, &scene, NULL),
                   ZENO_OK);
  const zeno_regions_def md = region_axes(MAP_X, MAP_Y, 0);
  const plot_regions_input min = {.x = &md.x, .y = &md.y, .grid = g, .overlay = &scene};
  plot_regions_frame(&min, &f);
  // Equal scales: one unit of com.x spans as many pixels as one of com.y.
  assert_true(fabs(f.width / (f.x_max - f.x_min) - f.height / (f.y_max - f.y_min)) < 1e-9);
  for (int i = 0; i < 2; i++)
    assert_pixel(map_png, plot_frame_x(&f, scene.contacts[i].point[0]),
                 plot_frame_y(&f, scene.contacts[i].point[1]), PLOT_COLOR_OVERLAY);
  free(g);
  cairo_surface_destroy(chart_png);
  cairo_surface_destroy(map_png);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_frame_mapping),
      cmocka_unit_test(test_maps_frames),
      cmocka_unit_test(test_unknown_format_is_refused),
      cmocka_unit_test(test_png_as_cairo_writes),
      cmocka_unit_test(test_png_full_disk),
      cmocka_unit_test(test_stop_keeps_the_previous_figure),
      cmocka_unit_test(test_analyze_figures),
      cmocka_unit_test(test_maps_svg),
      cmocka_unit_test(test_figures_pdf),
      cmocka_unit_test(test_axis_labels),
      cmocka_unit_test(test_trajectory_figure),
      cmocka_unit_test(test_one_contact_trajectory_figure),
      cmocka_unit_test(test_many_contacts_trajectory_figure),
      cmocka_unit_test(test_limiting_fixed_point_whole),
      cmocka_unit_test(test_regions_figures),
  };
  const int failed = cmocka_run_group_tests(tests, NULL, NULL);
  plot_release_caches();  // fontconfig's caches, so leak checkers see none
  return failed;
}
