// Static stability on N contacts (zeno/contact_set.h): closed forms of a box
// on three collinear floor contacts and of a box in a corner (floor and
// wall), the two-contact checks (zeno_equilibrium_check and the
// Pang-Trinkle API) as an oracle on every shipped two-contact scene and on
// 500 random configurations, open contacts that change nothing, the mode
// enumeration against all 4^N modes, and every error path.
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/contact_set_problem.h"
#include "test_util.h"

/// Closed forms hold to this, in force scales (the LP's refined vertex is
/// exact to rounding).
#define CLOSED_TOL 1e-9
/// Margins of the N-contact LP and of the two-contact closed form agree to
/// this, in force scales (both exact to rounding of their lever ratios).
#define ORACLE_MARGIN_TOL 1e-9
/// Random two-contact configurations of the oracle.
#define ORACLE_CASES 500
/// Every this many oracle cases also get a far open third contact (it
/// doubles a case's cost).
#define FAR_EVERY 5
/// Random N-contact sets compared with the brute force over 4^N modes.
#define BRUTE_CASES 40

/* ---- helpers ---------------------------------------------------------------- */

static void add_contact(zeno_contact_set_def *d, double x, double y, double phi, double mu) {
  zeno_contact_set_contact *c = &d->contacts[d->contact_count++];
  c->point[0] = x;
  c->point[1] = y;
  c->surface_angle = phi;
  c->mu = mu;
  c->gap = 0;
}

static zeno_contact_set_report check(const zeno_contact_set_def *d) {
  zeno_contact_set_report r;
  zeno_error e;
  assert_int_equal(zeno_contact_set_check(d, &r, &e), ZENO_OK);
  return r;
}

static const char *name_of(const zeno_contact_set_report *r, int k, char *buf) {
  return zeno_contact_set_mode_name(&r->unstable_modes[k], r->contact_count, buf);
}

// The load as (f_x, f_y, tau).
static void load_of(const zeno_contact_set_def *d, double g[3]) {
  g[0] = d->load_magnitude * sin(d->load_angle);
  g[1] = -d->load_magnitude * cos(d->load_angle);
  g[2] = d->load_torque;
}

// The report's forces balance the load and keep every cone slack at least
// the margin.
static void assert_forces_balance(const zeno_contact_set_def *d, const zeno_contact_set_report *r) {
  double g[3];
  load_of(d, g);
  double sum[3] = {g[0], g[1], g[2]};
  for (int i = 0; i < d->contact_count; i++) {
    const zeno_contact_set_contact *c = &d->contacts[i];
    const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)}, n[2] = {-t[1], t[0]};
    const double fn = r->forces[i][0], ft = r->forces[i][1];
    const double f[2] = {fn * n[0] + ft * t[0], fn * n[1] + ft * t[1]};
    sum[0] += f[0];
    sum[1] += f[1];
    sum[2] += c->point[0] * f[1] - c->point[1] * f[0];
    if (c->gap > 0) continue;
    assert_true(fn >= r->margin - CLOSED_TOL);
    assert_true((c->mu * fn - fabs(ft)) / sqrt(1 + c->mu * c->mu) >= r->margin - CLOSED_TOL);
  }
  for (int k = 0; k < 3; k++) assert_true(fabs(sum[k]) < CLOSED_TOL * r->force_scale);
}

/* ---- closed forms ------------------------------------------------------------ */

/// The box on three collinear floor contacts: half-height h, corners and
/// middle of the bottom at x = -1, 0, 1, friction mu.
#define FLOOR_H 0.5
#define FLOOR_MU 0.5

static zeno_contact_set_def floor_box(double tan_a) {
  zeno_contact_set_def d = zeno_contact_set_def_default();
  for (int i = -1; i <= 1; i++) add_contact(&d, i, -FLOOR_H, 0, FLOOR_MU);
  d.load_angle = atan(tan_a);  // f = (sin a, -cos a): tilted toward +x
  return d;
}

// Balance: sum c_n = cos a, sum c_t = -sin a, sum x_i c_n,i = h sin a. The
// cone slacks (mu c_n,i - |c_t,i|)/k, k = sqrt(1 + mu^2), sum to at most
// (mu cos a - sin a)/k, and equal shares are reachable while the normal
// forces stay above them (tipping needs tan a > 1/h = 2), so the margin is
// (mu cos a - sin a) / (3 k), on both sides of the cone's edge tan a = mu.
static double floor_margin(double tan_a) {
  const double a = atan(tan_a);
  return (FLOOR_MU * cos(a) - sin(a)) / (3 * sqrt(1 + FLOOR_MU * FLOOR_MU));
}

static void three_floor_contacts_inside_the_cone(void **state) {
  (void)state;
  const zeno_contact_set_def d = floor_box(0.25);
  const zeno_contact_set_report r = check(&d);
  assert_int_equal(r.contact_count, 3);
  assert_true(fabs(r.force_scale - 1) < 1e-15);
  assert_true(fabs(r.margin - floor_margin(0.25)) < CLOSED_TOL);
  assert_true(r.margin > 0.07);  // 0.0723...
  assert_true(r.feasible);
  assert_true(r.weakly_stable);
  assert_false(r.wedged);
  // Theorem 1 does not apply: no normal force balances a sideways load.
  assert_false(r.frictionless_stable);
  // Strongly stable: sliding (PPP) would need sin a > mu cos a, tipping
  // tan a > 2; no other motion exists.
  assert_true(r.strongly_stable);
  assert_false(r.ambiguous);
  assert_int_equal(r.unstable_mode_count, 0);
  assert_true(r.modes_examined > 0);
  assert_true(r.theorem4_checked);
  assert_int_equal(r.theorem4_systems, 8 * 63);  // 2^3 (2^6 - 1)
  assert_forces_balance(&d, &r);
}

static void three_floor_contacts_outside_the_cone(void **state) {
  (void)state;
  const zeno_contact_set_def d = floor_box(0.6);
  const zeno_contact_set_report r = check(&d);
  assert_true(fabs(r.margin - floor_margin(0.6)) < CLOSED_TOL);
  assert_true(r.margin < -0.02);  // -0.0256...
  assert_false(r.feasible);
  assert_false(r.weakly_stable);
  assert_false(r.strongly_stable);
  assert_false(r.ambiguous);
  // The one motion: all three slide toward +x, x'' = sin a - mu cos a > 0.
  assert_int_equal(r.unstable_mode_count, 1);
  char buf[ZENO_CONTACT_SET_MAX + 1];
  assert_string_equal(name_of(&r, 0, buf), "PPP");
  assert_forces_balance(&d, &r);
}

// The edge of the cone, tan a = mu, from both sides: the verdict changes
// exactly there (the margin is (mu cos a - sin a)/(3k), linear across it).
static void three_floor_contacts_at_the_cone_edge(void **state) {
  (void)state;
  const double delta = 1e-6;
  const zeno_contact_set_def below = floor_box(FLOOR_MU - delta),
                             above = floor_box(FLOOR_MU + delta);
  const zeno_contact_set_report in = check(&below), out = check(&above);
  assert_true(in.weakly_stable && in.strongly_stable);
  assert_false(out.weakly_stable || out.strongly_stable);
  assert_true(fabs(in.margin - floor_margin(FLOOR_MU - delta)) < CLOSED_TOL);
  assert_true(fabs(out.margin - floor_margin(FLOOR_MU + delta)) < CLOSED_TOL);
}

/// A box of half-width 1 and half-height 0.5 in a corner: floor contacts
/// at its bottom corners, a wall on its right touching it at mid-height
/// (normal -x, surface angle 90 deg).
static zeno_contact_set_def corner_box(double angle) {
  zeno_contact_set_def d = zeno_contact_set_def_default();
  add_contact(&d, -1, -0.5, 0, 0.3);
  add_contact(&d, 1, -0.5, 0, 0.3);
  add_contact(&d, 1, 0, ZENO_PI / 2, 0.3);
  d.load_angle = angle;
  return d;
}

static void box_in_a_corner(void **state) {
  (void)state;
  // Pushed into the wall at 40 deg (tan 40 > mu): the wall's normal force
  // (through the centre of mass) takes sin a, the floor corners cos a / 2
  // each: frictionless stable, hence strongly stable (Theorem 1).
  zeno_contact_set_def d = corner_box(40 * ZENO_PI / 180);
  zeno_contact_set_report r = check(&d);
  assert_true(r.frictionless_stable);
  assert_true(r.feasible && r.weakly_stable && r.strongly_stable);
  assert_int_equal(r.unstable_mode_count, 0);
  assert_forces_balance(&d, &r);
  // Pulled away from the wall at 40 deg: friction alone (0.3 < tan 40)
  // cannot hold it; it slides left along the floor, leaving the wall (NNF).
  d = corner_box(-40 * ZENO_PI / 180);
  r = check(&d);
  assert_false(r.frictionless_stable || r.weakly_stable || r.strongly_stable);
  assert_true(r.unstable_mode_count >= 1);
  char buf[ZENO_CONTACT_SET_MAX + 1];
  bool slides_left = false;
  for (int k = 0; k < r.unstable_mode_count && k < ZENO_CONTACT_SET_MODE_LIST; k++)
    slides_left |= strcmp(name_of(&r, k, buf), "NNF") == 0;
  assert_true(slides_left);
  // Pulled away at 10 deg (tan 10 < 0.3): friction holds it, and the
  // strictly positive margin means the floor contacts stick.
  d = corner_box(-10 * ZENO_PI / 180);
  r = check(&d);
  assert_false(r.frictionless_stable);
  assert_true(r.feasible && r.weakly_stable && r.strongly_stable);
  assert_forces_balance(&d, &r);
}

/* ---- open contacts ------------------------------------------------------------ */

static void assert_same_verdicts(const zeno_contact_set_report *a,
                                 const zeno_contact_set_report *b) {
  assert_int_equal(a->feasible, b->feasible);
  assert_int_equal(a->weakly_stable, b->weakly_stable);
  assert_int_equal(a->frictionless_stable, b->frictionless_stable);
  assert_int_equal(a->strongly_stable, b->strongly_stable);
  assert_int_equal(a->ambiguous, b->ambiguous);
  assert_int_equal(a->wedged, b->wedged);
  assert_int_equal(a->unstable_mode_count, b->unstable_mode_count);
  assert_true(a->margin == b->margin || fabs(a->margin - b->margin) < 1e-12 * a->force_scale);
}

// A contact with a gap, far from the body, carries no load and changes no
// verdict; its letter is F in every mode and its force zero.
static void far_open_contact_changes_nothing(void **state) {
  (void)state;
  const double tans[3] = {0.25, 0.6, -0.45};
  for (int k = 0; k < 3; k++) {
    const zeno_contact_set_def d = floor_box(tans[k]);
    zeno_contact_set_def far = d;
    add_contact(&far, 40, 25, 1.0, 0.8);
    far.contacts[3].gap = 30;
    const zeno_contact_set_report a = check(&d), b = check(&far);
    assert_same_verdicts(&a, &b);
    assert_int_equal(b.contact_count, 4);
    assert_true(b.forces[3][0] == 0 && b.forces[3][1] == 0);
    for (int m = 0; m < b.unstable_mode_count && m < ZENO_CONTACT_SET_MODE_LIST; m++) {
      assert_int_equal(b.unstable_modes[m].letter[3], ZENO_LETTER_F);
      assert_memory_equal(b.unstable_modes[m].letter, a.unstable_modes[m].letter, 3);
    }
  }
}

/* ---- the two-contact oracle ---------------------------------------------------- */

static zeno_contact_set_def def_of_scene(const zeno_scene *s) {
  zeno_contact_set_def d;
  assert_int_equal(zeno_contact_set_def_from_scene(s, &d, NULL), ZENO_OK);
  return d;
}

typedef struct oracle_counts {
  int cases, feasible, strongly_stable, ambiguous, wedged, theorem4_fails;
} oracle_counts;

// The module's verdicts on a two-contact scene equal zeno_equilibrium_check's
// and the Pang-Trinkle API's; a far open third contact changes none.
static void compare_with_two_contact_checks(const zeno_scene *s, oracle_counts *counts) {
  zeno_equilibrium_report eq;
  zeno_scene_stability ss;
  assert_int_equal(zeno_equilibrium_check(s, &eq, NULL), ZENO_OK);
  assert_int_equal(zeno_scene_stability_check(s, &ss, NULL), ZENO_OK);
  zeno_contact_problem p;
  assert_int_equal(zeno_contact_problem_from_scene(s, &p, NULL), ZENO_OK);
  p.mu[0] = p.mu[1] = 0;
  zeno_weak_stability frictionless;
  assert_int_equal(zeno_weak_stability_check(&p, &frictionless, NULL), ZENO_OK);

  const zeno_contact_set_def d = def_of_scene(s);
  const zeno_contact_set_report r = check(&d);
  assert_int_equal(r.feasible, eq.feasible);
  assert_int_equal(r.wedged, eq.wedged);
  if (!eq.wedged) assert_true(fabs(r.margin - eq.margin) < ORACLE_MARGIN_TOL * r.force_scale);
  assert_int_equal(r.weakly_stable, ss.weak.weakly_stable);
  assert_int_equal(r.frictionless_stable, frictionless.weakly_stable);
  assert_int_equal(r.strongly_stable, ss.strongly_stable);
  assert_int_equal(r.unstable_mode_count, (int)eq.ambiguous_count);
  for (size_t k = 0; k < eq.ambiguous_count; k++)
    assert_memory_equal(r.unstable_modes[k].letter, eq.ambiguous_modes[k].letter, 2);
  assert_true(r.theorem4_checked);
  assert_int_equal(r.theorem4_systems, ss.theorem4.systems);
  assert_int_equal(r.weak_implies_strong, ss.theorem4.weak_implies_strong);

  if (counts->cases % FAR_EVERY == 0) {
    zeno_contact_set_def far = d;
    add_contact(&far, -30, 40, 2.0, 0.4);
    far.contacts[2].gap = 50;
    const zeno_contact_set_report f = check(&far);
    assert_same_verdicts(&r, &f);
  }

  counts->cases++;
  counts->feasible += r.feasible;
  counts->strongly_stable += r.strongly_stable;
  counts->ambiguous += r.ambiguous;
  counts->wedged += r.wedged;
  counts->theorem4_fails += !r.weak_implies_strong;
}

static void oracle_shipped_scenes(void **state) {
  (void)state;
  DIR *dir = opendir(ZENO_SCENES_DIR);
  assert_non_null(dir);
  oracle_counts counts = {0};
  struct dirent *ent;
  while ((ent = readdir(dir)) != NULL) {
    const size_t len = strlen(ent->d_name);
    if (len < 6 || strcmp(ent->d_name + len - 5, ".yaml") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, ent->d_name);
    zeno_scene s;
    assert_int_equal(zeno_scene_load(path, NULL, 0, &s, NULL), ZENO_OK);
    if (s.contact_count != 2) continue;
    compare_with_two_contact_checks(&s, &counts);
  }
  closedir(dir);
  printf("contact set: %d shipped two-contact scenes agree\n", counts.cases);
  assert_true(counts.cases >= 8);
}

static void oracle_random_configurations(void **state) {
  (void)state;
  rng r = {20260734u};
  oracle_counts counts = {0};
  int draws = 0;
  while (counts.cases < ORACLE_CASES) {
    assert_true(++draws < 4 * ORACLE_CASES);
    const double zero[3] = {0, 0, 0};
    const zeno_scene s = paper_scene(draw_paper_params(&r), zero, zero);
    if (zeno_scene_validate(&s, NULL) != ZENO_OK) continue;
    compare_with_two_contact_checks(&s, &counts);
  }
  printf(
      "contact set: %d random configurations agree (%d feasible, %d strongly stable, "
      "%d ambiguous, %d wedged, %d failing Theorem 4)\n",
      counts.cases, counts.feasible, counts.strongly_stable, counts.ambiguous, counts.wedged,
      counts.theorem4_fails);
  // The draw covers every verdict.
  assert_true(counts.feasible > 0 && counts.feasible < counts.cases);
  assert_true(counts.strongly_stable > 0 && counts.ambiguous > 0);
}

/* ---- the mode enumeration against all 4^N modes -------------------------------- */

// Strongly unstable-or-not by every one of the 4^N modes' LPs.
static bool brute_force_moves(const contact_set_problem *p) {
  int total = 1;
  for (int i = 0; i < p->n; i++) total *= 4;
  for (int code = 0; code < total; code++) {
    zeno_contact_set_mode mode;
    memset(&mode, 0, sizeof mode);
    for (int i = 0, c = code; i < p->n; i++, c /= 4) mode.letter[i] = (unsigned char)(c % 4);
    double depth;
    bool moves;
    assert_int_equal(contact_set_mode_depth(p, &mode, &depth, &moves, NULL), ZENO_OK);
    if (moves) return true;
  }
  return false;
}

static void faces_find_every_motion(void **state) {
  (void)state;
  rng g = {77003u};
  int moving = 0;
  for (int k = 0; k < BRUTE_CASES; k++) {
    zeno_contact_set_def d = zeno_contact_set_def_default();
    d.rho = rng_uniform(&g, 0.3, 1.5);
    d.load_angle = rng_uniform(&g, -1.2, 1.2);
    d.load_torque = rng_uniform(&g, -0.3, 0.3);
    const int n = 3 + k % 2;  // 3 or 4 contacts
    for (int i = 0; i < n; i++) {
      // A point of the body's lower half on a surface facing up-ish.
      const double x = rng_uniform(&g, -1.5, 1.5), y = rng_uniform(&g, -1, 0);
      add_contact(&d, x, y, rng_uniform(&g, -0.8, 0.8), rng_uniform(&g, 0, 1.2));
    }
    const zeno_contact_set_report r = check(&d);
    contact_set_problem p;
    double scale;
    int index[ZENO_CONTACT_SET_MAX];
    contact_set_problem_of(&d, &p, &scale, index);
    const bool brute = brute_force_moves(&p);
    assert_int_equal(r.unstable_mode_count > 0, brute);
    assert_true(r.modes_examined < (n == 3 ? 64 : 256));
    moving += brute;
  }
  printf("contact set: %d of %d random 3- and 4-contact sets move, as the brute force says\n",
         moving, BRUTE_CASES);
  assert_true(moving > 0 && moving < BRUTE_CASES);
}

// Sixteen contacts (the bound): a regular 16-gon's corners on the floor is
// not possible, so: 16 floor contacts along the bottom of a long plank.
static void sixteen_contacts(void **state) {
  (void)state;
  zeno_contact_set_def d = zeno_contact_set_def_default();
  for (int i = 0; i < ZENO_CONTACT_SET_MAX; i++) add_contact(&d, -3 + 0.4 * i, -0.2, 0, 0.4);
  d.load_angle = atan(0.3);
  zeno_contact_set_report r = check(&d);
  assert_true(r.weakly_stable && r.strongly_stable);
  assert_false(r.theorem4_checked);
  // Margin: the cone slacks share mu cos a - sin a equally (as for three).
  const double a = atan(0.3);
  assert_true(fabs(r.margin - (0.4 * cos(a) - sin(a)) / (16 * sqrt(1.16))) < CLOSED_TOL);
  d.load_angle = atan(0.5);
  r = check(&d);
  assert_false(r.weakly_stable);
  char buf[ZENO_CONTACT_SET_MAX + 1];
  assert_int_equal(r.unstable_mode_count, 1);
  assert_string_equal(name_of(&r, 0, buf), "PPPPPPPPPPPPPPPP");
}

/* ---- errors ---------------------------------------------------------------------- */

static void expect_error(const zeno_contact_set_def *d, const char *parameter) {
  zeno_contact_set_report r;
  zeno_error e;
  assert_int_equal(zeno_contact_set_check(d, &r, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, parameter);
  assert_true(strlen(e.message) > 0);
}

static void bad_definitions(void **state) {
  (void)state;
  zeno_contact_set_report r;
  assert_int_equal(zeno_contact_set_check(NULL, &r, NULL), ZENO_ERR_ARGUMENT);
  const zeno_contact_set_def good = floor_box(0.1);
  assert_int_equal(zeno_contact_set_check(&good, NULL, NULL), ZENO_ERR_ARGUMENT);
  zeno_contact_set_def d = zeno_contact_set_def_default();
  expect_error(&d, "contact_count");  // no contacts
  d = good;
  d.contact_count = ZENO_CONTACT_SET_MAX + 1;
  expect_error(&d, "contact_count");
  d = good;
  d.mass = 0;
  expect_error(&d, "mass");
  d = good;
  d.rho = NAN;
  expect_error(&d, "rho");
  d = good;
  d.load_magnitude = -1;
  expect_error(&d, "load_magnitude");
  d = good;
  d.load_torque = INFINITY;
  expect_error(&d, "load_angle");
  d = good;
  d.contacts[1].point[1] = NAN;
  expect_error(&d, "contacts.point");
  d = good;
  d.contacts[2].mu = -0.1;
  expect_error(&d, "contacts.mu");
  d = good;
  d.contacts[0].gap = -1;
  expect_error(&d, "contacts.gap");
  d = good;
  for (int i = 0; i < 3; i++) d.contacts[i].gap = 1;
  expect_error(&d, "contacts.gap");
  // Theorem 4 refuses more contacts than its bound.
  contact_set_problem p;
  memset(&p, 0, sizeof p);
  p.n = ZENO_CONTACT_SET_THEOREM4_MAX + 1;
  contact_set_theorem4 t4;
  zeno_error e;
  assert_int_equal(contact_set_theorem4_check(&p, &t4, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "contact_count");
}

static void mode_names(void **state) {
  (void)state;
  zeno_contact_set_mode m;
  memset(&m, 0, sizeof m);
  m.letter[0] = ZENO_LETTER_S;
  m.letter[1] = ZENO_LETTER_P;
  m.letter[2] = ZENO_LETTER_N;
  char buf[ZENO_CONTACT_SET_MAX + 1];
  assert_string_equal(zeno_contact_set_mode_name(&m, 4, buf), "SPNF");
  assert_string_equal(zeno_contact_set_mode_name(&m, 0, buf), "");
  assert_int_equal(strlen(zeno_contact_set_mode_name(&m, 99, buf)), ZENO_CONTACT_SET_MAX);
}

/* ---- the shipped scenes of more than two contacts ---------------------------- */

static zeno_contact_set_report check_scene_file(const char *name, const char *override) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.yaml", ZENO_SCENES_DIR, name);
  const char *overrides[1] = {override};
  zeno_scene s;
  zeno_error e;
  if (zeno_scene_load(path, overrides, override ? 1 : 0, &s, &e) != ZENO_OK)
    fail_msg("%s: %s", path, e.message);
  zeno_contact_set_def d = def_of_scene(&s);
  assert_int_equal(d.contact_count, 3);
  return check(&d);
}

// The scenes' headers, from closed forms: the box pushed into the wall at
// 30 deg is frictionless stable (normal forces (cos 30 -/+ sin 30) / 2 and
// sin 30, all positive); the polygon slides past a = 20 - atan 0.5 =
// -6.565 deg; the stand tips past a = 10 -/+ atan 0.25 (-4.036 and 24.036
// deg); the rod with mu 0.7 > 1/tan 60 is wedged.
static void shipped_scenes_of_three_contacts(void **state) {
  (void)state;
  zeno_contact_set_report r = check_scene_file("box-in-a-corner", NULL);
  assert_true(r.frictionless_stable && r.feasible && r.strongly_stable && !r.ambiguous);
  r = check_scene_file("box-in-a-corner", "load.angle=-44");
  assert_true(r.frictionless_stable);
  r = check_scene_file("box-in-a-corner", "load.angle=-46");
  assert_false(r.frictionless_stable);
  r = check_scene_file("polygon-on-slope", NULL);
  assert_true(r.feasible && r.strongly_stable && !r.frictionless_stable);
  r = check_scene_file("polygon-on-slope", "load.angle=-6.4");
  assert_true(r.feasible);
  r = check_scene_file("polygon-on-slope", "load.angle=-6.7");
  assert_false(r.weakly_stable);
  r = check_scene_file("three-legged-stand", NULL);
  assert_true(r.feasible && r.strongly_stable);
  const char *tips[][2] = {{"load.angle=-3.9", "load.angle=-4.2"},
                           {"load.angle=23.9", "load.angle=24.2"}};
  for (int k = 0; k < 2; k++) {
    assert_true(check_scene_file("three-legged-stand", tips[k][0]).feasible);
    assert_false(check_scene_file("three-legged-stand", tips[k][1]).weakly_stable);
  }
  r = check_scene_file("wedge-third-contact", NULL);
  assert_true(r.wedged && r.feasible && r.weakly_stable);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(three_floor_contacts_inside_the_cone),
      cmocka_unit_test(three_floor_contacts_outside_the_cone),
      cmocka_unit_test(three_floor_contacts_at_the_cone_edge),
      cmocka_unit_test(box_in_a_corner),
      cmocka_unit_test(shipped_scenes_of_three_contacts),
      cmocka_unit_test(far_open_contact_changes_nothing),
      cmocka_unit_test(oracle_shipped_scenes),
      cmocka_unit_test(oracle_random_configurations),
      cmocka_unit_test(faces_find_every_motion),
      cmocka_unit_test(sixteen_contacts),
      cmocka_unit_test(bad_definitions),
      cmocka_unit_test(mode_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
