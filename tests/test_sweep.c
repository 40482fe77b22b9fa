// Outcome sweeps (zeno/sweep.h, `zeno sweep`): every point is the run of
// its scene, checked against closed forms (the bouncing ball) and the
// paper (Example 3: unstable, most perturbations end in reverse chatter,
// some chatter to rest; Example 2: stable, every perturbation rests).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli_runner.h"
#include "zeno/zeno.h"

#define G 9.81
/// Exact ZOD segments reproduce closed forms to rounding.
#define CLOSED_FORM_RTOL 1e-9

static char *scene_text(const char *name) {
  char path[PATH_SIZE];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, name);
  char *text = read_file(path);
  assert_non_null(text);
  return text;
}

static zeno_sweep_def axes(const char *x, const char *y) {
  zeno_sweep_def d = zeno_sweep_def_default();
  zeno_error err;
  assert_int_equal(zeno_region_axis_parse(x, &d.x, &err), ZENO_OK);
  assert_int_equal(zeno_region_axis_parse(y, &d.y, &err), ZENO_OK);
  return d;
}

// The bouncing ball over restitution e and drop height h: every point comes
// to rest after a Zeno completion at t = sqrt(2h/g) (1 + e)/(1 - e); the
// same sweep on 1 and 2 threads is the same.
static void ball_accumulates_at_the_closed_form(void **state) {
  (void)state;
  char *text = scene_text("bouncing-ball.yaml");
  const zeno_sweep_def d = axes("impact.e=0.3:0.9:7", "initial.pose.1=0.25:2:5");
  zeno_error err;
  zeno_sweep *w = zeno_sweep_create(text, "ball", NULL, 0, &d, &err);
  assert_non_null(w);
  zeno_sweep_point row[7], again[7];
  for (size_t iy = 0; iy < d.y.count; iy++) {
    assert_int_equal(zeno_sweep_row(w, iy, 2, row, &err), ZENO_OK);
    assert_int_equal(zeno_sweep_row(w, iy, 1, again, &err), ZENO_OK);
    for (size_t ix = 0; ix < d.x.count; ix++) {
      const zeno_sweep_point *p = &row[ix];
      assert_true(p->ok && p->ix == ix && p->iy == iy);
      assert_int_equal(p->outcome, ZENO_OUTCOME_REST);
      assert_true(p->has_zeno);
      const double e = p->x, h = p->y;
      const double expect = sqrt(2 * h / G) * (1 + e) / (1 - e);
      if (!(fabs(p->zeno_time - expect) <= CLOSED_FORM_RTOL * expect))
        fail_msg("e = %g, h = %g: accumulation at %.12g, closed form %.12g", e, h, p->zeno_time,
                 expect);
      assert_true(p->zeno_time == again[ix].zeno_time && p->events == again[ix].events);
    }
  }
  zeno_sweep_destroy(w);
  free(text);
}

// Example 3 is unstable (Theorem 2): over the perturbation direction most
// runs end in reverse chatter, and those starting on contact 1's slip side
// with little normal speed chatter to rest. Example 2 is stable (Theorem 4):
// every perturbation comes to rest.
static void examples_2_and_3(void **state) {
  (void)state;
  const struct {
    const char *scene;
    long rest_min, rest_max, diverging_min;
  } cases[] = {{"example3-zeno.yaml", 10, 150, 600}, {"example2.yaml", 861, 861, 0}};
  for (size_t k = 0; k < 2; k++) {
    char *text = scene_text(cases[k].scene);
    const zeno_sweep_def d = axes("initial.qdp.2=-2:2:41", "initial.qdp.0=0:1:21");
    zeno_error err;
    zeno_sweep *w = zeno_sweep_create(text, cases[k].scene, NULL, 0, &d, &err);
    assert_non_null(w);
    long rest = 0, diverging = 0;
    zeno_sweep_point row[41];
    for (size_t iy = 0; iy < d.y.count; iy++) {
      assert_int_equal(zeno_sweep_row(w, iy, 0, row, &err), ZENO_OK);
      for (size_t ix = 0; ix < d.x.count; ix++) {
        assert_true(row[ix].ok);
        rest += row[ix].outcome == ZENO_OUTCOME_REST;
        diverging += row[ix].outcome == ZENO_OUTCOME_DIVERGING;
      }
    }
    if (!(rest >= cases[k].rest_min && rest <= cases[k].rest_max &&
          diverging >= cases[k].diverging_min))
      fail_msg("%s: %ld rest, %ld diverging of 861", cases[k].scene, rest, diverging);
    zeno_sweep_destroy(w);
    free(text);
  }
}

static void errors(void **state) {
  (void)state;
  char *text = scene_text("example2.yaml");
  zeno_error err;
  zeno_sweep_def d = axes("initial.qdp.2=-1:1:3", "initial.qdp.2=0:1:3");
  assert_null(zeno_sweep_create(text, "x", NULL, 0, &d, &err));
  assert_int_equal(err.code, ZENO_ERR_ARGUMENT);
  d = axes("paper.mu1=-1:1:3", "initial.qdp.0=0:1:3");
  assert_null(zeno_sweep_create(text, "x", NULL, 0, &d, &err));
  assert_int_equal(err.code, ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "paper.mu1");
  d = axes("paper.l2=-1:1:3", "initial.qdp.0=0:1:3");
  zeno_sweep *w = zeno_sweep_create(text, "x", NULL, 0, &d, &err);
  assert_null(zeno_sweep_create(NULL, "x", NULL, 0, &d, &err));
  assert_non_null(w);
  zeno_sweep_point p;
  assert_int_equal(zeno_sweep_point_run(w, 3, 0, &p, &err), ZENO_ERR_RANGE);
  assert_int_equal(zeno_sweep_point_run(NULL, 0, 0, &p, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_sweep_row(w, 5, 1, &p, &err), ZENO_ERR_RANGE);
  zeno_sweep_point row[3];
  assert_int_equal(zeno_sweep_row(w, 0, ZENO_REGIONS_MAX_THREADS + 1, row, &err), ZENO_ERR_RANGE);
  assert_string_equal(err.parameter, "threads");
  zeno_sweep_destroy(w);
  zeno_sweep_destroy(NULL);
  free(text);
}

// The command: sweep.csv (header, one row per point, the closed form in
// it), summary.json, the figure, and bad input.
static void command(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "sweep");
  char out[PATH_SIZE], png[PATH_SIZE], csv[2 * PATH_SIZE], json[2 * PATH_SIZE];
  work_path(&w, "out", out);
  work_path(&w, "map.png", png);
  snprintf(csv, sizeof csv, "%s/sweep.csv", out);
  snprintf(json, sizeof json, "%s/summary.json", out);
  assert_int_equal(run_zeno("sweep", ZENO_SCENES_DIR "/bouncing-ball.yaml", "--x",
                            "impact.e=0.5:0.8:2", "--y", "initial.pose.1=1:1:1", "--out", out,
                            "--plot", png, "--quiet"),
                   0);
  char *table = read_file(csv), *summary = read_file(json);
  assert_non_null(table);
  assert_non_null(summary);
  assert_int_equal(strncmp(table,
                           "ix,iy,impact.e,initial.pose.1,outcome,t,events,impacts,zeno,"
                           "zeno_time,z1,x1,zod_theta,energy_gains,error\n0,0,0.5,1,rest,",
                           strlen("ix,iy,impact.e,initial.pose.1,outcome,t,events,impacts,"
                                  "zeno,zeno_time,z1,x1,zod_theta,energy_gains,error\n0,0,0.5,"
                                  "1,rest,")),
                   0);
  // e = 0.5, h = 1: rest at the accumulation point t = sqrt(2/g) * 3.
  const char *row = strchr(table, '\n') + 1;
  double e, h, t, zeno_time;
  long events, impacts;
  int zeno;
  assert_int_equal(sscanf(row, "0,0,%lf,%lf,rest,%lf,%ld,%ld,%d,%lf,", &e, &h, &t, &events,
                          &impacts, &zeno, &zeno_time),
                   7);
  assert_true(e == 0.5 && h == 1 && zeno == 1 && t == zeno_time);
  assert_true(fabs(zeno_time - sqrt(2 / G) * 3) <= CLOSED_FORM_RTOL * zeno_time);
  assert_non_null(strstr(summary, "\"counts\": {\"rest\": 2}, \"zeno_then_rest\": 2"));
  char *image = read_file(png);  // a PNG (its signature)
  assert_non_null(image);
  assert_int_equal(memcmp(image, "\x89PNG", 4), 0);
  free(image);
  free(table);
  free(summary);
  run_result r = run_zeno_captured("sweep", EXAMPLE2, "--x", "initial.qdp.2=0:1:3");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "both --x PATH=LO:HI:N and --y PATH=LO:HI:N are required"));
  run_result_free(&r);
  r = run_zeno_captured("sweep", EXAMPLE2, "--x", "initial.qdpp.2=0:1:3", "--y",
                        "initial.qdp.0=0:1:3");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "zeno: --x initial.qdpp.2=0:1:3: unknown key 'qdpp'"));
  run_result_free(&r);
  remove(csv);
  remove(json);
  const char *const names[] = {"map.png", NULL};
  work_dir_remove(&w, names, "out");
}

/// Housner's rocking block (scenes/rocking-block.yaml: half-width b = 1,
/// half-height h = 2, rho^2 = 5/3, g = 9.81) rotating about corner 1 at
/// angular velocity w tips over when its kinetic energy
/// (1/2) m (rho^2 + b^2 + h^2) w^2 exceeds the rise of its centre of mass
/// over the corner, m g (sqrt(b^2 + h^2) - h): w* = sqrt(2 g (sqrt(5) - 2) /
/// (20/3)) = 0.8335 rad/s. A start q'dot = (0, v, 0) from q' = 0 lifts
/// corner 2, 2b from corner 1, at v = 2b w (a pure rotation about corner 1,
/// which sticks: mu = 1), and the full model scales it by epsilon, so the
/// basin's edge along that direction is eps* = 2b w* / v.
#define ROCK_B 1.0
#define ROCK_H 2.0
#define ROCK_RHO2 (5.0 / 3.0)
/// The run at eps* +- 1e-6 decides as the closed form does: CVODE's
/// tolerance (1e-10) moves the apex's energy balance far less.
#define BASIN_EDGE_SLACK 1e-6

static double rock_w_star(void) {
  const double r = sqrt(ROCK_B * ROCK_B + ROCK_H * ROCK_H);
  return sqrt(2 * G * (r - ROCK_H) / (ROCK_RHO2 + r * r));
}

// The basin of a rocking block swept along q'dot = (0, v, 0) from q' = 0
// (v along v_axis), whose contact 2 is `lever` from corner 1: every
// direction's scan
// returning count, one edge (a monotone basin), bisected to the tolerance
// around eps* = lever w* / v, and every scanned magnitude returning where
// eps* > 1. The same row on two threads is the same.
static void assert_rocking_basin(const char *text, const char *name, const char *const *fixed,
                                 size_t fixed_count, double lever, const char *v_axis) {
  zeno_sweep_def d = axes("initial.qdp.0=0:0:1", v_axis);
  d.basin.count = 8;
  d.basin.lo = 0.3;
  d.basin.hi = 1;
  zeno_error err;
  zeno_sweep *w = zeno_sweep_create(text, name, fixed, fixed_count, &d, &err);
  if (w == NULL) fail_msg("%s", err.message);
  const double tol = d.basin.tol;
  for (size_t iy = 0; iy < d.y.count; iy++) {
    zeno_sweep_point p, again;
    assert_int_equal(zeno_sweep_point_run(w, 0, iy, &p, &err), ZENO_OK);
    assert_int_equal(zeno_sweep_row(w, iy, 2, &again, &err), ZENO_OK);
    assert_true(p.ok && again.ok);
    if (!(p.basin_inner == again.basin_inner && p.basin_returns == again.basin_returns))
      fail_msg("%s, v = %g: %.17g (%d) alone, %.17g (%d) in its row", name, p.y, p.basin_inner,
               p.basin_returns, again.basin_inner, again.basin_returns);
    const double edge = lever * rock_w_star() / p.y;
    int below = 0;  // scanned magnitudes 0.3, 0.4, ..., 1 below the edge
    for (int k = 0; k < 8; k++) below += 0.3 + 0.1 * k < edge;
    assert_int_equal(p.basin_returns, below);
    if (edge > d.basin.hi) {
      assert_true(p.basin_inner == d.basin.hi && p.basin_outer == d.basin.hi);
      assert_int_equal(p.basin_transitions, 0);
      assert_true(p.basin_width == 0);
      continue;
    }
    assert_int_equal(p.basin_transitions, 1);
    assert_true(p.basin_inner == p.basin_outer);
    assert_true(p.basin_width > 0 && p.basin_width <= tol);
    if (!(p.basin_inner <= edge + BASIN_EDGE_SLACK &&
          edge <= p.basin_inner + p.basin_width + BASIN_EDGE_SLACK))
      fail_msg("%s, v = %g: bracket [%.9g, %.9g], closed form %.9g", name, p.y, p.basin_inner,
               p.basin_inner + p.basin_width, edge);
  }
  zeno_sweep_destroy(w);
}

// Contact 2 of scenes/rocking-block.yaml is the far corner, 2b from
// corner 1: eps* = 2b w* / v; v = 1 (eps* = 1.67) returns at every scanned
// magnitude up to 1.
static void basin_of_the_rocking_block(void **state) {
  (void)state;
  char *text = scene_text("rocking-block.yaml");
  const char *const fixed[] = {"model=full", "initial.qp=[0,0,0]"};
  assert_rocking_basin(text, "rock", fixed, 2, 2 * ROCK_B, "initial.qdp.1=1:4:4");
  free(text);
}

/// The rocking block standing on three points of its base, its corners and
/// the middle (the N-contact engine): q' = (z1, z2, x3), the gaps of the
/// corner and the middle and the slip of the far corner.
static const char ROCK_ON_THREE_POINTS[] =
    "name: rock-on-three-points\n"
    "model: full\n"
    "body: {mass: 1, rho: 1.2909944487, outline: [[-1, -2], [1, -2], [1, 2], [-1, 2]]}\n"
    "contacts:\n"
    "  - {point: [-1, -2], surface: {angle: 0}, mu: 1}\n"
    "  - {point: [0, -2], surface: {angle: 0}, mu: 1}\n"
    "  - {point: [1, -2], surface: {angle: 0}, mu: 1}\n"
    "load: {magnitude: 9.81, angle: 0}\n"
    "initial: {qp: [0, 0, 0], qdp: [0, 0, 0]}\n";

// On three points: q'dot = (0, v, 0) lifts the middle point, b from
// corner 1, at v with the far corner not slipping: the same rotation about
// corner 1 at w = v / b, so eps* = b w* / v, half the two-contact block's
// (v = 0.5 to 2: the edges of v = 1 to 4 there, 1.67 to 0.42).
static void basin_on_three_points(void **state) {
  (void)state;
  assert_rocking_basin(ROCK_ON_THREE_POINTS, "rock3", NULL, 0, ROCK_B, "initial.qdp.1=0.5:2:4");
}

// The magnitude is refused where it cannot matter or cannot be applied,
// and out of its ranges; a magnitude that cannot be posed makes the point
// an error point with the reason.
static void basin_errors(void **state) {
  (void)state;
  char *rock = scene_text("rocking-block.yaml"), *ball = scene_text("bouncing-ball.yaml");
  const char *const full[] = {"model=full"};
  zeno_error err;
  zeno_sweep_def d = axes("initial.qdp.0=0:0:1", "initial.qdp.1=1:2:2");
  d.basin.count = 3;
  assert_null(zeno_sweep_create(rock, "rock", NULL, 0, &d, &err));  // the ZOD
  assert_int_equal(err.code, ZENO_ERR_ARGUMENT);
  assert_string_equal(err.parameter, "basin");
  assert_non_null(strstr(err.message, "homogeneous"));
  zeno_sweep_def pose = axes("impact.e=0.5:0.6:2", "initial.pose.1=1:2:2");
  pose.basin.count = 3;
  assert_null(zeno_sweep_create(ball, "ball", full, 1, &pose, &err));
  assert_non_null(strstr(err.message, "starts from a pose"));
  zeno_sweep_def eps = axes("epsilon=0.1:0.2:2", "initial.qdp.1=1:2:2");
  eps.basin.count = 3;
  assert_null(zeno_sweep_create(rock, "rock", full, 1, &eps, &err));
  assert_non_null(strstr(err.message, "cannot be an axis too"));
  const struct {
    size_t count;
    double lo, hi, tol, turn;
  } bad[] = {{1, 0.1, 1, 1e-3, 0.5},   {3, 0, 1, 1e-3, 0.5},   {3, 0.5, 0.5, 1e-3, 0.5},
             {3, 0.1, 1.5, 1e-3, 0.5}, {3, 0.1, 1, 0, 0.5},    {3, 0.1, 1, NAN, 0.5},
             {3, 0.1, 1, 1e-3, 0},     {3, 0.1, 1, 1e-3, 3.2}, {5000, 0.1, 1, 1e-3, 0.5}};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    zeno_sweep_def b = d;
    b.basin.count = bad[k].count;
    b.basin.lo = bad[k].lo;
    b.basin.hi = bad[k].hi;
    b.basin.tol = bad[k].tol;
    b.basin.turn_max = bad[k].turn;
    assert_null(zeno_sweep_create(rock, "rock", full, 1, &b, &err));
    assert_int_equal(err.code, ZENO_ERR_RANGE);
    assert_string_equal(err.parameter, "basin");
  }
  // q' = (0, 100, 0) scaled by eps^2: corner 2, 2 from corner 1, is not 25
  // above the floor with corner 1 on it at eps = 0.505.
  const char *const far[] = {"model=full", "initial.qp=[0,100,0]"};
  d.basin.lo = 0.01;
  d.basin.hi = 1;
  zeno_sweep *w = zeno_sweep_create(rock, "rock", far, 2, &d, &err);
  assert_non_null(w);
  zeno_sweep_point p;
  assert_int_equal(zeno_sweep_point_run(w, 0, 0, &p, &err), ZENO_OK);
  assert_false(p.ok);
  assert_non_null(strstr(p.error, "reached by no pose"));
  zeno_sweep_destroy(w);
  free(rock);
  free(ball);
}

// The command: the basin columns and summary, and --magnitude refused
// under the ZOD naming the option.
static void basin_command(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "sweep-basin");
  char out[PATH_SIZE], png[PATH_SIZE], csv[2 * PATH_SIZE], json[2 * PATH_SIZE];
  work_path(&w, "out", out);
  work_path(&w, "basin.png", png);
  snprintf(csv, sizeof csv, "%s/sweep.csv", out);
  snprintf(json, sizeof json, "%s/summary.json", out);
  assert_int_equal(run_zeno("sweep", ZENO_SCENES_DIR "/rocking-block.yaml", "--set", "model=full",
                            "--set", "initial.qp=[0,0,0]", "--x", "initial.qdp.0=0:0:1", "--y",
                            "initial.qdp.1=2:2:1", "--magnitude", "0.3:1:8", "--basin-tol", "1e-4",
                            "--out", out, "--plot", png, "--quiet"),
                   0);
  char *table = read_file(csv), *summary = read_file(json);
  assert_non_null(table);
  assert_non_null(summary);
  const char *header =
      "ix,iy,initial.qdp.0,initial.qdp.1,outcome,t,events,impacts,zeno,"
      "zeno_time,z1,z2,x2,energy_gains,basin_inner,basin_outer,basin_width,"
      "basin_returns,basin_transitions,error\n";
  assert_int_equal(strncmp(table, header, strlen(header)), 0);
  // The row's last fields: inner, outer, width, returns, transitions, "".
  const char *row = table + strlen(header);
  const char *f = row;
  for (int k = 0; k < 14; k++) f = strchr(f, ',') + 1;
  double inner, outer, width;
  int returns, transitions;
  assert_int_equal(sscanf(f, "%lf,%lf,%lf,%d,%d,\n", &inner, &outer, &width, &returns,
                          &transitions),
                   5);
  const double edge = 2 * ROCK_B * rock_w_star() / 2;
  assert_true(inner == outer && returns == 6 && transitions == 1 && width <= 1e-4);
  assert_true(inner <= edge + BASIN_EDGE_SLACK && edge <= inner + width + BASIN_EDGE_SLACK);
  assert_non_null(strstr(summary, "\"all_return\": 0, \"none_return\": 0, \"non_monotone\": 0"));
  char *image = read_file(png);
  assert_non_null(image);
  assert_int_equal(memcmp(image, "\x89PNG", 4), 0);
  free(image);
  free(table);
  free(summary);
  run_result r = run_zeno_captured("sweep", ZENO_SCENES_DIR "/rocking-block.yaml", "--x",
                                   "initial.qdp.0=0:0:1", "--y", "initial.qdp.1=2:2:1",
                                   "--magnitude", "0.3:1:8");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err,
                         "zeno: sweep: --magnitude: a basin estimate needs the full "
                         "model"));
  run_result_free(&r);
  r = run_zeno_captured("sweep", ZENO_SCENES_DIR "/rocking-block.yaml", "--x",
                        "initial.qdp.0=0:0:1", "--y", "initial.qdp.1=2:2:1", "--basin-turn", "200");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--basin-turn: '200' out of range; allowed (0, 180]"));
  run_result_free(&r);
  r = run_zeno_captured("sweep", ZENO_SCENES_DIR "/rocking-block.yaml", "--x",
                        "initial.qdp.0=0:0:1", "--y", "initial.qdp.1=2:2:1", "--magnitude",
                        "0.3:1");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--magnitude: '0.3:1' is not LO:HI:N"));
  run_result_free(&r);
  r = run_zeno_captured("sweep", ZENO_SCENES_DIR "/rocking-block.yaml", "--x",
                        "initial.qdp.0=0:0:1", "--y", "initial.qdp.1=2:2:1", "--basin-tol", "1e-4");
  assert_int_equal(r.exit_code, 2);
  assert_non_null(strstr(r.err, "--basin-tol: only with --magnitude LO:HI:N"));
  run_result_free(&r);
  remove(csv);
  remove(json);
  const char *const names[] = {"basin.png", NULL};
  work_dir_remove(&w, names, "out");
}

// Sweep rows round-trip exactly through zeno_io_sweep_row/parse (what a
// resumed sweep reads from its journal), with and without the basin
// columns, error rows included; a bad field is ZENO_ERR_SYNTAX naming it.
static void rows_round_trip(void **state) {
  (void)state;
  zeno_sweep_def d = axes("initial.qdp.2=-1:1:3", "initial.qdp.0=0:1:3");
  zeno_sweep_point p;
  memset(&p, 0, sizeof p);
  p.ix = 2;
  p.iy = 1;
  p.x = 1;
  p.y = 0.1 + 0.2;  // 17 digits needed
  p.ok = true;
  p.outcome = ZENO_OUTCOME_DIVERGING;
  p.t = 1.0 / 3;
  p.events = 77;
  p.impacts = 73;
  p.zeno_time = NAN;
  p.final_zod[0] = -1e-300;
  p.final_zod[1] = 2.5;
  p.final_zod[2] = NAN;
  p.energy_gains = 2;
  p.basin_inner = 0.83281249999999996;
  p.basin_outer = NAN;
  p.basin_width = 7.8e-4;
  p.basin_returns = 6;
  p.basin_transitions = 3;
  zeno_sweep_point bad = p;
  bad.ok = false;
  snprintf(bad.error, sizeof bad.error, "paper.l2=0: contacts meet, \"here\"");
  for (int basin = 0; basin < 2; basin++) {
    d.basin.count = basin ? 8 : 0;
    const zeno_sweep_point *points[2] = {&p, &bad};
    for (int k = 0; k < 2; k++) {
      char line[1024];
      FILE *f = fmemopen(line, sizeof line, "w");
      assert_non_null(f);
      assert_int_equal(zeno_io_sweep_row(f, &d, points[k], NULL), ZENO_OK);
      fclose(f);
      zeno_sweep_point q;
      zeno_error err;
      if (zeno_io_sweep_parse(line, &d, &q, &err) != ZENO_OK)
        fail_msg("'%s': %s", line, err.message);
      const zeno_sweep_point *w = points[k];
      assert_true(q.ix == w->ix && q.iy == w->iy && q.x == w->x && q.y == w->y && q.ok == w->ok);
      assert_string_equal(q.error, w->ok ? "" : w->error);
      if (!w->ok) continue;
      assert_true(q.outcome == w->outcome && q.t == w->t && q.events == w->events &&
                  q.impacts == w->impacts && q.has_zeno == w->has_zeno && isnan(q.zeno_time) &&
                  q.final_zod[0] == w->final_zod[0] && q.final_zod[1] == w->final_zod[1] &&
                  isnan(q.final_zod[2]) && q.energy_gains == w->energy_gains);
      if (basin)
        assert_true(q.basin_inner == w->basin_inner && isnan(q.basin_outer) &&
                    q.basin_width == w->basin_width && q.basin_returns == 6 &&
                    q.basin_transitions == 3);
    }
  }
  d.basin.count = 0;
  const struct {
    const char *line, *field;
  } wrong[] = {
      {"0,0,0,0,rested,1,2,1,0,,0,0,0,0,\n", "field 5 (outcome)"},
      {"0,0,0,0,rest,1,2,1,2,,0,0,0,0,\n", "field 9 (zeno)"},
      {"0,0,0,0,rest,1,2,1,0,,0,0,0,0,oops\n", "field 15 (error)"},
      {"0,0,0,0,,,,,,,,,,,,\n", "field 15 (error)"},
      {"0,0,0,0,,,,,5,,,,,,,x\n", "field 9 (zeno)"},
      {"0,0,x,0,rest,1,2,1,0,,0,0,0,0,\n", "field 3 (x)"},
      {"0,0,0,0,rest,1,2,1,0,,0,0,0,0\n", "field 15 (error)"},
  };
  for (size_t k = 0; k < sizeof wrong / sizeof wrong[0]; k++) {
    zeno_sweep_point q;
    zeno_error err;
    assert_int_equal(zeno_io_sweep_parse(wrong[k].line, &d, &q, &err), ZENO_ERR_SYNTAX);
    if (strstr(err.message, wrong[k].field) == NULL)
      fail_msg("'%s': '%s' does not name %s", wrong[k].line, err.message, wrong[k].field);
  }
  // With the basin columns, a missing one is named.
  d.basin.count = 8;
  zeno_sweep_point q;
  zeno_error err;
  assert_int_equal(zeno_io_sweep_parse("0,0,0,0,rest,1,2,1,0,,0,0,0,0,1,1,0,x,0,\n", &d, &q, &err),
                   ZENO_ERR_SYNTAX);
  assert_non_null(strstr(err.message, "field 18 (basin_returns)"));
  assert_int_equal(zeno_io_sweep_parse(NULL, &d, &q, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_sweep_row(NULL, &d, &p, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_io_sweep_header(NULL, &d, 2, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_regions_check_axis(NULL, "z", &err), ZENO_ERR_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ball_accumulates_at_the_closed_form),
      cmocka_unit_test(examples_2_and_3),
      cmocka_unit_test(errors),
      cmocka_unit_test(command),
      cmocka_unit_test(basin_of_the_rocking_block),
      cmocka_unit_test(basin_on_three_points),
      cmocka_unit_test(basin_errors),
      cmocka_unit_test(basin_command),
      cmocka_unit_test(rows_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
