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
  zeno_sweep_def d;
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
        fail_msg("e = %g, h = %g: accumulation at %.12g, closed form %.12g", e, h,
                 p->zeno_time, expect);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(ball_accumulates_at_the_closed_form),
      cmocka_unit_test(examples_2_and_3),
      cmocka_unit_test(errors),
      cmocka_unit_test(command),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
