// Region maps (paper Examples 6 and 7, Fig. 8): axes, sweep errors, the
// Example 6 centre-of-mass map against a closed-form feasible strip and
// against zeno_analyze(), the Example 7 (alpha, mu2) chart against the
// Painlevé bound (11), threads against one thread, and the CSV rows.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "zeno/zeno.h"

#define EXAMPLE6 ZENO_SCENES_DIR "/example6.yaml"
#define EXAMPLE7 ZENO_SCENES_DIR "/example7.yaml"
#define EXAMPLE4_NEWTON ZENO_SCENES_DIR "/example4-newton.yaml"

/// The coarse Example 6 grid: the feasible strip crosses it diagonally
/// (it is parallel to the load, alpha = 45 deg) and the Example 3 centre of
/// mass (0, 0) is a grid point.
#define EX6_X "com.x=-2.5:1.5:41"
#define EX6_Y "com.y=-0.6:2.4:41"
#define EX6_ORIGIN_IX 25
#define EX6_ORIGIN_IY 8
/// The paper's resolution (slow suite, `test_regions --full`): 321 x 301
/// points keep (0, 0) on the grid.
#define EX6_FULL_X "com.x=-2.5:1.5:321"
#define EX6_FULL_Y "com.y=-0.6:2.4:301"
#define EX6_FULL_ORIGIN_IX 200
#define EX6_FULL_ORIGIN_IY 60
#define EX7_FULL_X "paper.mu2=0:1.3:261"
#define EX7_FULL_Y "paper.alpha=0:40:201"

/// The coarse Example 7 chart: mu2 in [0, 1.3] (past the paper's Painlevé
/// threshold 1.1), alpha in [0, 40] deg.
#define EX7_X "paper.mu2=0:1.3:27"
#define EX7_Y "paper.alpha=0:40:21"
/// Example 7 contact 2 at (l2, -h) = (0.1, -0.4) on flat ground.
#define EX7_L2 0.1
#define EX7_H 0.4
/// rho^2 = 1.1 l2 h - l2^2 puts the Painlevé bound (11) of contact 2,
/// (rho^2 + l2^2) / (l2 h), at the paper's 1.1 (contact 1's bound,
/// (rho^2 + 1) / 0.4 >= 2.5, never binds).
#define EX7_PAINLEVE 1.1
/// Points of a strip boundary closer than this (in the coordinate across
/// the strip) are not asserted: the LP's feasibility margin decides them.
#define STRIP_EDGE_TOL 1e-6
/// G_max of the sweep (1200 samples) against zeno_analyze (6000 samples):
/// the sampled maximum of a smooth branch moves by O(h^2).
#define G_MAX_RTOL 2e-3
/// Fixed points are bisected to 1e-12 in both.
#define FIXED_POINT_TOL 1e-9
/// Points checked against zeno_analyze() per region.
#define CHECKS_PER_REGION 3

/// The grids the map tests run: coarse by default, the paper's with --full.
typedef struct grid_choice {
  const char *ex6_x, *ex6_y, *ex7_x, *ex7_y;
  size_t origin_ix, origin_iy;
} grid_choice;

static grid_choice grids = {EX6_X, EX6_Y, EX7_X, EX7_Y, EX6_ORIGIN_IX, EX6_ORIGIN_IY};

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  const long n = ftell(f);
  assert_true(n > 0);
  rewind(f);
  char *text = malloc((size_t)n + 1);
  assert_non_null(text);
  assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
  text[n] = '\0';
  fclose(f);
  return text;
}

static zeno_regions_def axes(const char *x, const char *y) {
  zeno_regions_def d = zeno_regions_def_default();
  zeno_error err;
  assert_int_equal(zeno_region_axis_parse(x, &d.x, &err), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse(y, &d.y, &err), ZENO_OK);
  return d;
}

/// The whole grid, row iy at iy * x.count, with `threads` threads.
static zeno_region_point *sweep_grid(const zeno_regions *r, int threads) {
  const zeno_regions_def *d = zeno_regions_settings(r);
  zeno_region_point *g = calloc((size_t)d->x.count * (size_t)d->y.count, sizeof *g);
  assert_non_null(g);
  for (size_t iy = 0; iy < d->y.count; iy++) {
    zeno_error err;
    assert_int_equal(zeno_regions_row(r, iy, threads, &g[iy * d->x.count], &err), ZENO_OK);
  }
  return g;
}

/// The scene of a grid point, loaded as the sweep loads it.
static zeno_scene point_scene(const char *path, const char *const *fixed, size_t fixed_count,
                              const zeno_regions_def *d, const zeno_region_point *p) {
  const char *items[4];
  char xs[128], ys[128];
  for (size_t i = 0; i < fixed_count; i++) items[i] = fixed[i];
  snprintf(xs, sizeof xs, "%s=%.17g", d->x.path, p->x);
  snprintf(ys, sizeof ys, "%s=%.17g", d->y.path, p->y);
  items[fixed_count] = xs;
  items[fixed_count + 1] = ys;
  zeno_scene s;
  zeno_error err;
  assert_int_equal(zeno_scene_load(path, items, fixed_count + 2, &s, &err), ZENO_OK);
  return s;
}

/// Up to CHECKS_PER_REGION points of every region present agree with
/// zeno_analyze() at its defaults (6000 samples) on the region, the
/// theorem, persistence, G_max and the witness fixed point.
static void check_against_analyze(const char *path, const char *const *fixed, size_t fixed_count,
                                  const zeno_regions_def *d, const zeno_region_point *g,
                                  int *regions_seen) {
  int checked[ZENO_REGION_COUNT] = {0};
  const size_t n = d->x.count * d->y.count;
  for (size_t k = 0; k < n; k++) {
    const zeno_region_point *p = &g[k];
    if (checked[p->region] >= CHECKS_PER_REGION) continue;
    // Spread the checks: the first point of a region, then every 7th.
    if (checked[p->region] > 0 && k % 7 != 0) continue;
    checked[p->region]++;
    zeno_scene s = point_scene(path, fixed, fixed_count, d, p);
    zeno_analysis a;
    zeno_error err;
    assert_int_equal(zeno_analyze(&s, NULL, &a, &err), ZENO_OK);
    if (a.region != p->region)
      fail_msg("point (%g, %g): sweep region %d, analyze region %d (%s)", p->x, p->y, p->region,
               a.region, a.reason);
    assert_int_equal(a.theorem, p->theorem);
    assert_int_equal(a.persistent, p->persistent);
    assert_int_equal(a.has_maps, p->has_maps);
    if (a.has_maps && isfinite(a.maps.G_max)) {
      assert_true(fabs(a.maps.G_max - p->G_max) <= G_MAX_RTOL * fabs(a.maps.G_max));
      assert_int_equal(a.maps.fixed_point_count, p->fixed_point_count);
    }
    if (p->region == 4 || p->region == 5) {
      bool found = false;
      for (size_t j = 0; j < a.maps.fixed_point_count; j++)
        found |= fabs(a.maps.fixed_points[j].phi - p->fixed_point_phi) < FIXED_POINT_TOL;
      assert_true(found);
      assert_true(p->fixed_point_G > 1);
    }
    zeno_analysis_free(&a);
  }
  for (int r = 0; r < ZENO_REGION_COUNT; r++) regions_seen[r] = checked[r];
}

/* ---- axes ---------------------------------------------------------------- */

static void axis_parse_and_values(void **state) {
  (void)state;
  zeno_region_axis a;
  zeno_error err;
  assert_int_equal(zeno_region_axis_parse("paper.mu2=0:1.1:12", &a, &err), ZENO_OK);
  assert_string_equal(a.path, "paper.mu2");
  assert_int_equal(a.count, 12);
  assert_true(zeno_region_axis_value(&a, 0) == 0.0);
  assert_true(zeno_region_axis_value(&a, 11) == 1.1);  // the end is exact
  assert_true(fabs(zeno_region_axis_value(&a, 5) - 0.5) < 1e-15);
  // A descending axis and a single point.
  assert_int_equal(zeno_region_axis_parse("com.y=2:-1:4", &a, &err), ZENO_OK);
  assert_true(zeno_region_axis_value(&a, 1) == 1.0 && zeno_region_axis_value(&a, 3) == -1.0);
  assert_int_equal(zeno_region_axis_parse("com.y=0.25:0.25:1", &a, &err), ZENO_OK);
  assert_true(zeno_region_axis_value(&a, 0) == 0.25);
}

static void axis_parse_errors(void **state) {
  (void)state;
  static const struct {
    const char *text;
    zeno_status code;
    const char *needle;
  } BAD[] = {
      {"paper.mu2", ZENO_ERR_SYNTAX, "PATH=LO:HI:N"},
      {"=0:1:3", ZENO_ERR_SYNTAX, "PATH=LO:HI:N"},
      {"paper.mu2=0:1", ZENO_ERR_SYNTAX, "integer N"},
      {"paper.mu2=a:1:3", ZENO_ERR_SYNTAX, "integer N"},
      {"paper.mu2=0:1:3x", ZENO_ERR_SYNTAX, "integer N"},
      {"paper.mu2=0:1:0", ZENO_ERR_RANGE, "allowed [1, 4096]"},
      {"paper.mu2=0:1:5000", ZENO_ERR_RANGE, "allowed [1, 4096]"},
      {"paper.mu2=0:inf:3", ZENO_ERR_RANGE, "finite"},
      {"paper.mu2=1:1:3", ZENO_ERR_RANGE, "equal"},
  };
  for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
    zeno_region_axis a;
    zeno_error err;
    assert_int_equal(zeno_region_axis_parse(BAD[k].text, &a, &err), BAD[k].code);
    if (strstr(err.message, BAD[k].needle) == NULL)
      fail_msg("'%s': message '%s' lacks '%s'", BAD[k].text, err.message, BAD[k].needle);
  }
  char long_path[200];
  memset(long_path, 'a', sizeof long_path);
  strcpy(long_path + 150, "=0:1:3");
  zeno_region_axis a;
  zeno_error err;
  assert_int_equal(zeno_region_axis_parse(long_path, &a, &err), ZENO_ERR_RANGE);
  assert_int_equal(zeno_region_axis_parse(NULL, &a, &err), ZENO_ERR_ARGUMENT);
}

/* ---- sweep errors -------------------------------------------------------- */

static void expect_create_error(const char *scene_text, const zeno_regions_def *d, zeno_status code,
                                const char *needle) {
  zeno_error err;
  zeno_regions *r = zeno_regions_create(scene_text, "s.yaml", NULL, 0, d, &err);
  assert_null(r);
  assert_int_equal(err.code, code);
  char line[1024];
  zeno_error_format(&err, line, sizeof line);
  if (strstr(line, needle) == NULL) fail_msg("error '%s' lacks '%s'", line, needle);
}

static void create_errors(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE6);
  zeno_regions_def d = axes("com.z=0:1:3", "com.y=0:1:3");
  expect_create_error(text, &d, ZENO_ERR_UNKNOWN_KEY, "com.z");
  d = axes("paper.mu2=-1:1:3", "com.y=0:1:3");
  expect_create_error(text, &d, ZENO_ERR_RANGE, "allowed [0, inf)");
  d = axes("com.y=0:1:3", "com.y=0:2:3");
  expect_create_error(text, &d, ZENO_ERR_ARGUMENT, "same parameter");
  d = axes("com.x=0:1:3", "com.y=0:1:3");
  d.mc_runs = -1;
  expect_create_error(text, &d, ZENO_ERR_RANGE, "mc_runs");
  d = axes("com.x=0:1:3", "com.y=0:1:3");
  d.analysis.partition_intervals = 2;
  expect_create_error(text, &d, ZENO_ERR_RANGE, "partition_intervals");
  // The maps' settings are checked for the whole grid, although infeasible
  // points never compute maps.
  d = axes("com.x=0:1:3", "com.y=0:1:3");
  d.analysis.maps.breakpoint_tol = 0;
  expect_create_error(text, &d, ZENO_ERR_RANGE, "breakpoint_tol > 0");
  assert_int_equal(zeno_maps_def_validate(NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_analysis_def_validate(NULL, NULL), ZENO_ERR_ARGUMENT);
  d = axes("com.x=0:1:3", "com.y=0:1:3");
  assert_int_equal(zeno_analysis_def_validate(&d.analysis, NULL), ZENO_OK);
  expect_create_error("paper: {alpha: 45\n", &d, ZENO_ERR_SYNTAX, "s.yaml:");
  char *ball = read_text(ZENO_SCENES_DIR "/bouncing-ball.yaml");
  expect_create_error(ball, &d, ZENO_ERR_ARGUMENT, "a scene of 2 to 16 contacts");
  free(ball);
  zeno_error err;
  assert_null(zeno_regions_create_file(ZENO_SCENES_DIR "/no-such.yaml", NULL, 0, &d, &err));
  assert_int_equal(err.code, ZENO_ERR_IO);
  assert_non_null(strstr(err.message, "no-such.yaml"));
  // A valid sweep rejects points outside its grid.
  zeno_regions *r = zeno_regions_create(text, "s.yaml", NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point p;
  assert_int_equal(zeno_regions_point(r, 3, 0, &p, &err), ZENO_ERR_RANGE);
  zeno_regions_destroy(r);
  zeno_regions_destroy(NULL);
  // Both ends of an axis are valid but an interior point is not: contact 2
  // meets contact 1 (l1 = 1.5) in the middle of paper.l2 = 1:2:3. That
  // point is an error row naming the override, the others are analysed,
  // with threads as without; the row round-trips through its CSV.
  d = axes("paper.l2=1:2:3", "com.y=0:0:1");
  r = zeno_regions_create(text, "s.yaml", NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point row[3];
  for (int threads = 1; threads <= 2; threads++) {
    assert_int_equal(zeno_regions_row(r, 0, threads, row, &err), ZENO_OK);
    assert_int_equal(row[1].region, ZENO_REGION_ERROR);
    assert_non_null(strstr(row[1].error, "--set paper.l2=1.5"));
    assert_non_null(strstr(row[1].error, "coincide"));
    assert_true(isnan(row[1].G_max));
    assert_true(row[0].region >= 0 && row[2].region >= 0);
    assert_string_equal(row[0].error, "");
    assert_string_equal(zeno_region_name(ZENO_REGION_ERROR), "error (not analysed)");
  }
  // A team larger than ZENO_REGIONS_MAX_THREADS is refused before any
  // thread starts (100000 crashed inside OpenMP's runtime); the default is
  // capped at it.
  assert_int_equal(zeno_regions_row(r, 0, ZENO_REGIONS_MAX_THREADS + 1, row, &err), ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "threads");
  assert_int_equal(zeno_regions_row(r, 0, 100000, row, &err), ZENO_ERR_RANGE);
  assert_true(zeno_regions_threads(0) >= 1 && zeno_regions_threads(0) <= ZENO_REGIONS_MAX_THREADS);
  char line[1024];
  FILE *f = fmemopen(line, sizeof line, "w");
  assert_non_null(f);
  assert_int_equal(zeno_io_region_row(f, &row[1], &err), ZENO_OK);
  fclose(f);
  assert_non_null(strstr(line, ",-1,"));
  zeno_region_point back;
  assert_int_equal(zeno_io_region_parse(line, &back, &err), ZENO_OK);
  assert_int_equal(back.region, ZENO_REGION_ERROR);
  assert_string_equal(back.error, row[1].error);
  zeno_regions_destroy(r);
  free(text);
}

/* ---- Example 6 ----------------------------------------------------------- */

// Closed form of the feasible strip. Static balance with contact forces
// lambda_i in the friction cones K_i: lambda_1 + lambda_2 = -f and zero
// moment about the centre of mass c, i.e. c x f = -(p1 x l1 + p2 x l2).
// With f = (sin a, -cos a), c x f = -s where s = c_x cos a + c_y sin a is
// c's coordinate across the load, so s = (p1 - p2) x l1 - p2 x f over the
// polygon K1 ∩ (-f - K2) of l1: an interval [s_lo, s_hi] reached at the
// polygon's vertices (0, -f and the crossings of the cones' edge rays).
static double cross(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }

static bool in_cone(const zeno_contact_def *c, const double v[2]) {
  const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
  const double n[2] = {-t[1], t[0]};
  const double vn = v[0] * n[0] + v[1] * n[1], vt = v[0] * t[0] + v[1] * t[1];
  const double scale = hypot(v[0], v[1]) + 1;
  return vn >= -1e-12 * scale && fabs(vt) <= c->mu * vn + 1e-12 * scale;
}

static void edge_ray(const zeno_contact_def *c, int side, double r[2]) {
  const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
  const double n[2] = {-t[1], t[0]};
  r[0] = n[0] + side * c->mu * t[0];
  r[1] = n[1] + side * c->mu * t[1];
}

static void feasible_strip(const zeno_scene *s, double *s_lo, double *s_hi) {
  const double a = s->load_angle;
  const double f[2] = {s->load_magnitude * sin(a), -s->load_magnitude * cos(a)};
  // Scene-frame contact positions (com_shift is (0, 0) in the base scene).
  const double p1[2] = {s->contacts[0].point[0], s->contacts[0].point[1]};
  const double p2[2] = {s->contacts[1].point[0], s->contacts[1].point[1]};
  const double d[2] = {p1[0] - p2[0], p1[1] - p2[1]};
  double cand[6][2] = {{0, 0}, {-f[0], -f[1]}};
  int n = 2;
  for (int i = -1; i <= 1; i += 2)
    for (int j = -1; j <= 1; j += 2) {
      // l1 = u r1 on K1's edge and l1 = -f - v r2 on (-f - K2)'s edge.
      double r1[2], r2[2];
      edge_ray(&s->contacts[0], i, r1);
      edge_ray(&s->contacts[1], j, r2);
      const double det = cross(r1, r2);
      if (fabs(det) < 1e-14) continue;
      const double mf[2] = {-f[0], -f[1]};
      const double u = cross(mf, r2) / det;  // u r1 + v r2 = -f
      cand[n][0] = u * r1[0];
      cand[n][1] = u * r1[1];
      n++;
    }
  *s_lo = INFINITY;
  *s_hi = -INFINITY;
  for (int k = 0; k < n; k++) {
    const double l2v[2] = {-f[0] - cand[k][0], -f[1] - cand[k][1]};
    if (!in_cone(&s->contacts[0], cand[k]) || !in_cone(&s->contacts[1], l2v)) continue;
    const double sv = cross(d, cand[k]) - cross(p2, f);
    *s_lo = fmin(*s_lo, sv);
    *s_hi = fmax(*s_hi, sv);
  }
}

static void example6_map(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE6);
  const zeno_regions_def d = axes(grids.ex6_x, grids.ex6_y);
  zeno_error err;
  zeno_regions *r = zeno_regions_create(text, EXAMPLE6, NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point *g = sweep_grid(r, 2);
  zeno_scene base;
  assert_int_equal(zeno_scene_load(EXAMPLE6, NULL, 0, &base, &err), ZENO_OK);

  // Region 0 exactly outside the strip of centre-of-mass positions whose
  // line of action the friction cones can balance (parallel to the load).
  double s_lo, s_hi;
  feasible_strip(&base, &s_lo, &s_hi);
  assert_true(s_lo < s_hi);
  size_t feasible = 0;
  const double ca = cos(base.load_angle), sa = sin(base.load_angle);
  for (size_t k = 0; k < d.x.count * d.y.count; k++) {
    const double sv = g[k].x * ca + g[k].y * sa;
    if (sv < s_lo - STRIP_EDGE_TOL || sv > s_hi + STRIP_EDGE_TOL) assert_int_equal(g[k].region, 0);
    else if (sv > s_lo + STRIP_EDGE_TOL && sv < s_hi - STRIP_EDGE_TOL) {
      if (g[k].region == 0) fail_msg("(%g, %g) inside the strip is region 0", g[k].x, g[k].y);
      feasible++;
    }
  }
  assert_true(feasible > d.x.count * d.y.count / 20);  // the strip crosses the whole grid

  // Example 3's centre of mass: unstable by Theorem 2 (paper Example 3).
  const zeno_region_point *o = &g[grids.origin_iy * d.x.count + grids.origin_ix];
  assert_true(fabs(o->x) < 1e-12 && fabs(o->y) < 1e-12);
  assert_true(o->region == 4 || o->region == 5);
  assert_int_equal(o->theorem, 2);
  assert_true(fabs(o->fixed_point_phi - (-0.6981)) < 1e-3);  // paper: phi* = -0.698
  assert_true(o->fixed_point_G > 1);

  // Points of every region agree with zeno_analyze(); the map shows all
  // eight classes (paper Fig. 8a), among them the Example 4-like stable
  // region (Theorem 3) and the Example 2-like one (Theorem 4).
  int seen[ZENO_REGION_COUNT];
  check_against_analyze(EXAMPLE6, NULL, 0, &d, g, seen);
  for (int k = 0; k < ZENO_REGION_COUNT; k++)
    if (seen[k] == 0) fail_msg("region %d missing from the Example 6 map", k);
  free(g);
  zeno_regions_destroy(r);
  free(text);
}

static void threads_match_one_thread(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE6);
  // The rows through the middle of the strip hold most regions.
  zeno_regions_def d = axes("com.x=-1.5:0.5:24", "com.y=-0.3:0.9:3");
  zeno_error err;
  zeno_regions *r = zeno_regions_create(text, EXAMPLE6, NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point *one = sweep_grid(r, 1), *two = sweep_grid(r, 2);
  for (size_t k = 0; k < d.x.count * d.y.count; k++) {
    zeno_region_point single;
    assert_int_equal(zeno_regions_point(r, one[k].ix, one[k].iy, &single, &err), ZENO_OK);
    // Bit for bit: the same code on the same data, whatever the thread.
    assert_memory_equal(&one[k], &two[k], sizeof one[k]);
    assert_memory_equal(&one[k], &single, sizeof single);
  }
  free(one);
  free(two);
  zeno_regions_destroy(r);
  free(text);
}

/* ---- Example 7 ----------------------------------------------------------- */

static void example7_chart(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE7);
  zeno_regions_def d = axes(grids.ex7_x, grids.ex7_y);
  d.mc_runs = 0;  // the simulation verdict has its own test
  zeno_error err;

  // With the examples' rho = 1 the Painlevé bound of contact 2 is
  // (1 + l2^2) / (l2 h) = 25.25: no region 1 anywhere on the chart.
  zeno_regions *r = zeno_regions_create(text, EXAMPLE7, NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point *g = sweep_grid(r, 2);
  int seen[ZENO_REGION_COUNT];
  for (size_t k = 0; k < d.x.count * d.y.count; k++) assert_int_not_equal(g[k].region, 1);
  check_against_analyze(EXAMPLE7, NULL, 0, &d, g, seen);
  int classes = 0;
  for (int k = 0; k < ZENO_REGION_COUNT; k++) classes += seen[k] > 0;
  assert_true(classes >= 2);
  free(g);
  zeno_regions_destroy(r);

  // With rho^2 = 1.1 l2 h - l2^2 the bound is the paper's 1.1: every
  // feasible point is region 1 exactly when mu2 > 1.1 (paper: "Painlevé
  // paradox for this example occurs only for mu2 > 1.1").
  char rho[64];
  snprintf(rho, sizeof rho, "paper.rho=%.17g",
           sqrt(EX7_PAINLEVE * EX7_L2 * EX7_H - EX7_L2 * EX7_L2));
  const char *fixed[] = {rho};
  r = zeno_regions_create(text, EXAMPLE7, fixed, 1, &d, &err);
  assert_non_null(r);
  g = sweep_grid(r, 2);
  int painleve = 0, below = 0;
  for (size_t k = 0; k < d.x.count * d.y.count; k++) {
    if (g[k].region == 0) continue;
    if (g[k].x > EX7_PAINLEVE + 1e-9) {
      assert_int_equal(g[k].region, 1);
      painleve++;
    } else if (g[k].x < EX7_PAINLEVE - 1e-9) {
      assert_int_not_equal(g[k].region, 1);
      below++;
    }
  }
  assert_true(painleve > 0 && below > 0);
  check_against_analyze(EXAMPLE7, fixed, 1, &d, g, seen);
  assert_true(seen[1] > 0);
  free(g);
  zeno_regions_destroy(r);
  free(text);
}

/* ---- region 7's simulation verdict ---------------------------------------- */

static void simulation_verdict(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE7);
  zeno_regions_def d = axes("paper.mu2=0.5:0.9:2", "paper.alpha=20:25:2");
  d.mc_runs = 24;
  d.mc_full = true;
  zeno_error err;
  zeno_regions *r = zeno_regions_create(text, EXAMPLE7, NULL, 0, &d, &err);
  assert_non_null(r);
  for (size_t iy = 0; iy < 2; iy++)
    for (size_t ix = 0; ix < 2; ix++) {
      zeno_region_point p, again;
      assert_int_equal(zeno_regions_point(r, ix, iy, &p, &err), ZENO_OK);
      assert_int_equal(p.region, 7);  // not persistent (NN lifts contact 1)
      assert_int_equal(p.mc_runs, 24);
      assert_int_equal(p.mc_full_runs, 24);
      assert_true(p.mc_rest >= 0 && p.mc_rest <= p.mc_runs);
      const int rest = p.mc_rest + p.mc_full_rest;
      assert_true(p.mc_slow >= 0 && rest + p.mc_slow <= 48);
      assert_int_equal(p.sim, rest == 48               ? ZENO_REGION_SIM_RESTS
                              : rest + p.mc_slow == 48 ? ZENO_REGION_SIM_SLOW
                                                       : ZENO_REGION_SIM_DEPARTS);
      // Seeded per point: the same counts again.
      assert_int_equal(zeno_regions_point(r, ix, iy, &again, &err), ZENO_OK);
      assert_memory_equal(&p, &again, sizeof p);
      // Most perturbations of these slope postures come to rest (the
      // paper: region 7 is "practically stable" in simulations).
      assert_true(p.mc_rest * 4 >= p.mc_runs * 3);
    }
  zeno_regions_destroy(r);
  // Without runs there is no verdict.
  d.mc_runs = 0;
  r = zeno_regions_create(text, EXAMPLE7, NULL, 0, &d, &err);
  zeno_region_point p;
  assert_int_equal(zeno_regions_point(r, 0, 0, &p, &err), ZENO_OK);
  assert_int_equal(p.sim, ZENO_REGION_SIM_NONE);
  assert_int_equal(p.mc_runs, 0);
  zeno_regions_destroy(r);
  free(text);
}

// Runs stopped by a limit while still returning are a slow return, not a
// departure: Example 4 with Newton's law chatters to rest within 200
// events from every perturbation; cut at 60 events, every run is still
// chattering, its amplitude (largest gap plus v^2 / 2a) below its start's,
// and the point "returns slowly". Before, any run that had not rested
// counted as departing (Example 7's certified points, 9-15 of 32 runs).
static void slow_returns_are_no_departures(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE4_NEWTON);
  zeno_regions_def d = axes("paper.mu1=0.4:0.6:2", "paper.alpha=0:10:2");
  const int limits[2] = {60, 200};
  const zeno_region_sim want[2] = {ZENO_REGION_SIM_SLOW, ZENO_REGION_SIM_RESTS};
  for (int k = 0; k < 2; k++) {
    char fixed[64];
    snprintf(fixed, sizeof fixed, "stop.max_events=%d", limits[k]);
    const char *const set[] = {fixed};
    zeno_error err;
    zeno_regions *r = zeno_regions_create(text, EXAMPLE4_NEWTON, set, 1, &d, &err);
    assert_non_null(r);
    zeno_region_point p;
    assert_int_equal(zeno_regions_point(r, 1, 1, &p, &err), ZENO_OK);
    assert_int_equal(p.region, 7);
    assert_int_equal(p.sim, want[k]);
    assert_int_equal(p.mc_rest + p.mc_slow, p.mc_runs);
    assert_true(k == 0 ? p.mc_slow > 0 : p.mc_slow == 0);
    assert_string_equal(zeno_region_sim_name(p.sim), k == 0 ? "returns-slowly" : "rests");
    zeno_regions_destroy(r);
  }
  free(text);
}

// Under a law other than the inelastic one the maps decide nothing: a
// region map leaves them out (region 7, no maps, G_max nan), while
// zeno_analyze() by default still computes them to be drawn; the region and
// the simulations are the same either way.
static void restitution_points_compute_no_maps(void **state) {
  (void)state;
  char *text = read_text(EXAMPLE4_NEWTON);
  zeno_regions_def d = axes("paper.mu1+paper.mu2=0.4:0.8:2", "impact.e=0.1:0.3:2");
  d.mc_runs = 4;
  zeno_error err;
  zeno_regions *r = zeno_regions_create(text, EXAMPLE4_NEWTON, NULL, 0, &d, &err);
  assert_non_null(r);
  zeno_region_point p;
  assert_int_equal(zeno_regions_point(r, 1, 1, &p, &err), ZENO_OK);
  assert_int_equal(p.region, 7);
  assert_false(p.has_maps);
  assert_true(isnan(p.G_max));
  assert_int_equal(p.mc_runs, 4);
  zeno_regions_destroy(r);
  // The same point with the maps: the same region and simulations.
  d.analysis.maps_when_undecided = true;
  r = zeno_regions_create(text, EXAMPLE4_NEWTON, NULL, 0, &d, &err);
  zeno_region_point q;
  assert_int_equal(zeno_regions_point(r, 1, 1, &q, &err), ZENO_OK);
  assert_true(q.has_maps);
  assert_true(q.G_max > 0);
  assert_int_equal(q.region, p.region);
  assert_int_equal(q.mc_rest, p.mc_rest);
  zeno_regions_destroy(r);
  // zeno_analyze() of such a scene draws its maps by default.
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(EXAMPLE4_NEWTON, NULL, 0, &scene, &err), ZENO_OK);
  zeno_analysis_def ad = zeno_analysis_def_default();
  assert_true(ad.maps_when_undecided);
  ad.maps.samples = 64;
  zeno_analysis a;
  assert_int_equal(zeno_analyze(&scene, &ad, &a, &err), ZENO_OK);
  assert_int_equal(a.region, 7);
  assert_true(a.has_maps);
  zeno_analysis_free(&a);
  ad.maps_when_undecided = false;
  assert_int_equal(zeno_analyze(&scene, &ad, &a, &err), ZENO_OK);
  assert_int_equal(a.region, 7);
  assert_false(a.has_maps);
  assert_non_null(strstr(a.reason, "not computed"));
  zeno_analysis_free(&a);
  free(text);
}

/* ---- CSV rows ----------------------------------------------------------- */

/// The CSV row of a point, into buffer.
static void region_row_text(const zeno_region_point *p, char *buffer, size_t size) {
  FILE *f = fmemopen(buffer, size, "w");
  assert_non_null(f);
  assert_int_equal(zeno_io_region_row(f, p, NULL), ZENO_OK);
  assert_int_equal(fclose(f), 0);
}

static void csv_round_trip(void **state) {
  (void)state;
  zeno_region_point p;
  memset(&p, 0, sizeof p);
  p.ix = 3;
  p.iy = 17;
  p.x = 0.1 + 0.2;  // not representable in few digits
  p.y = -1.0 / 3.0;
  p.region = 4;
  p.theorem = 2;
  p.verdict = ZENO_VERDICT_UNSTABLE;
  p.persistent = true;
  p.has_maps = true;
  p.G_max = 1.0542133;
  p.fixed_point_phi = -0.69812;
  p.fixed_point_G = 1.0542;
  p.fixed_point_count = 5;
  p.partition_count = 0;
  p.mc_runs = 0;
  char buffer[1024];
  region_row_text(&p, buffer, sizeof buffer);
  // Every field as written (17 significant digits, the region's name quoted).
  assert_string_equal(buffer,
                      "3,17,0.30000000000000004,-0.33333333333333331,4,"
                      "\"unstable, persistent (Theorem 2)\",2,unstable,1,1.0542133,"
                      "-0.69811999999999996,1.0542,5,0,0,0,0,0,0,,0,\n");
  zeno_region_point q;
  zeno_error err;
  assert_int_equal(zeno_io_region_parse(buffer, &q, &err), ZENO_OK);
  assert_memory_equal(&p, &q, sizeof p);

  // An error message with a quote and a comma is quoted, its quote doubled;
  // infinities and large counts keep their text.
  zeno_region_point e = p;
  snprintf(e.error, sizeof e.error, "bad \"value\", here");
  e.G_max = INFINITY;
  e.fixed_point_G = -INFINITY;
  e.mc_runs = 2147483647;
  e.mc_rest = -1;
  region_row_text(&e, buffer, sizeof buffer);
  assert_non_null(strstr(buffer, ",inf,-0.69811999999999996,-inf,5,0,0,2147483647,-1,"));
  assert_non_null(strstr(buffer, ",\"bad \"\"value\"\", here\"\n"));

  // Without maps: NaN witnesses and no region-7 verdict survive too.
  p.region = 7;
  p.has_maps = false;
  p.G_max = p.fixed_point_phi = p.fixed_point_G = NAN;
  p.mc_runs = 32;
  p.mc_rest = 31;
  p.sim = ZENO_REGION_SIM_DEPARTS;
  region_row_text(&p, buffer, sizeof buffer);
  assert_int_equal(zeno_io_region_parse(buffer, &q, &err), ZENO_OK);
  assert_true(isnan(q.G_max) && !q.has_maps && q.sim == ZENO_REGION_SIM_DEPARTS);
  assert_int_equal(q.mc_rest, 31);

  // The row of a region-4 point names its region (quoted: the name holds a
  // comma); a row without a deciding theorem leaves that field empty.
  p.region = 4;
  p.sim = ZENO_REGION_SIM_NONE;
  region_row_text(&p, buffer, sizeof buffer);
  assert_non_null(strstr(buffer, ",4,\"unstable, persistent (Theorem 2)\",2,unstable,1,"));
  p.region = 7;
  p.theorem = 0;
  p.verdict = ZENO_VERDICT_UNDECIDED;
  region_row_text(&p, buffer, sizeof buffer);
  assert_non_null(strstr(buffer, ",7,undecided,,undecided,1,"));
  assert_int_equal(zeno_io_region_parse(buffer, &q, &err), ZENO_OK);
  assert_int_equal(q.theorem, 0);

  static const struct {
    const char *line;
    const char *field;
  } BAD[] = {
      {"x,17,0.3,0,4,\"unstable, persistent (Theorem 2)\",2,unstable,1,1,1,1,5,0,0,0,0,0,0,,0,",
       "ix"},
      {"3,17,0.3,0,9,undecided,2,unstable,1,1,1,1,5,0,0,0,0,0,0,,0,", "region"},
      // The name must be the region's, the theorem empty or 1-4.
      {"3,17,0.3,0,4,undecided,2,unstable,1,1,1,1,5,0,0,0,0,0,0,,0,", "region_name"},
      {"3,17,0.3,0,7,undecided,0,undecided,1,1,1,1,5,0,0,0,0,0,0,,0,", "theorem"},
      {"3,17,0.3,0,7,undecided,5,undecided,1,1,1,1,5,0,0,0,0,0,0,,0,", "theorem"},
      {"3,17,0.3,0,4,\"unstable, persistent (Theorem 2)\",2,maybe,1,1,1,1,5,0,0,0,0,0,0,,0,",
       "verdict"},
      {"3,17,0.3,0,4,\"unstable, persistent (Theorem 2)\",2,unstable,1,1,1,1,5,0,0,0,0,0,0,often,"
       "0,",
       "sim"},
      {"3,17,0.3,0,4,\"unstable, persistent (Theorem 2)\",2,unstable,1,1,1,1,5,0,0,0,0,0,0,,3,",
       "on_breakpoint"},
      {"3,17,0.3,0,4,\"unstable, persistent (Theorem 2)\",2,unstable,1,1,1", "fixed_point_G"},
  };
  for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
    assert_int_equal(zeno_io_region_parse(BAD[k].line, &q, &err), ZENO_ERR_SYNTAX);
    if (strstr(err.message, BAD[k].field) == NULL)
      fail_msg("'%s': message '%s' does not name %s", BAD[k].line, err.message, BAD[k].field);
  }
}

// A map of a three-contact scene (regions_contacts.c): the box in a corner
// (mu 0.3 at every contact) under a load at angle a from the downward
// vertical, toward the wall for a < 0. Pushed away from the wall it stands
// on its floor corners only while friction holds, tan a <= 0.3 (it slides
// before it tips: the load's line meets the floor inside the base while
// tan a <= 1): region 0 beyond; elsewhere Pang and Trinkle's check finds
// it strongly stable, no theorem decides three contacts (region 7), and
// its perturbations come to rest, jammed in the corner or on its floor.
// The load's magnitude changes nothing (the verdicts are homogeneous).
static void three_contact_map(void **state) {
  (void)state;
  zeno_regions_def d = axes("load.angle=-60:60:9", "load.magnitude=5:15:2");
  d.mc_runs = 8;
  char *text = read_text(ZENO_SCENES_DIR "/box-in-a-corner.yaml");
  zeno_error err;
  zeno_regions *r = zeno_regions_create(text, "box-in-a-corner.yaml", NULL, 0, &d, &err);
  if (r == NULL) fail_msg("%s", err.message);
  zeno_region_point *g = sweep_grid(r, 1);
  for (size_t iy = 0; iy < 2; iy++)
    for (size_t ix = 0; ix < 9; ix++) {
      const zeno_region_point *p = &g[iy * 9 + ix];
      const double a = (-60.0 + 15.0 * (double)ix) * ZENO_PI / 180;
      const int region = tan(a) > 0.3 ? 0 : 7;
      if (p->region != region)
        fail_msg("angle %g deg: region %d, expected %d (%s)", p->x, p->region, region, p->error);
      assert_int_equal(p->theorem, 0);
      if (region == 0) {
        assert_int_equal(p->verdict, ZENO_VERDICT_UNSTABLE);
        assert_int_equal(p->mc_runs, 0);
        continue;
      }
      assert_int_equal(p->verdict, ZENO_VERDICT_UNDECIDED);
      assert_int_equal(p->mc_runs, 8);  // every coordinate a gap: every draw is a start
      assert_int_equal(p->mc_rest, 8);
      assert_int_equal(p->sim, ZENO_REGION_SIM_RESTS);
    }
  free(g);
  zeno_regions_destroy(r);
  free(text);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--full") == 0) {
    // The slow suite: the maps at the paper's resolution.
    grids = (grid_choice){EX6_FULL_X, EX6_FULL_Y,         EX7_FULL_X,
                          EX7_FULL_Y, EX6_FULL_ORIGIN_IX, EX6_FULL_ORIGIN_IY};
    const struct CMUnitTest full[] = {
        cmocka_unit_test(example6_map),
        cmocka_unit_test(example7_chart),
    };
    return cmocka_run_group_tests(full, NULL, NULL);
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(axis_parse_and_values),
      cmocka_unit_test(axis_parse_errors),
      cmocka_unit_test(create_errors),
      cmocka_unit_test(example6_map),
      cmocka_unit_test(threads_match_one_thread),
      cmocka_unit_test(example7_chart),
      cmocka_unit_test(simulation_verdict),
      cmocka_unit_test(slow_returns_are_no_departures),
      cmocka_unit_test(restitution_points_compute_no_maps),
      cmocka_unit_test(csv_round_trip),
      cmocka_unit_test(three_contact_map),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
