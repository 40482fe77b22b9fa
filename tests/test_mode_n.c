// N-contact mode selection (src/dynamics/mode_n.c, issue 34 slice 3):
// - the oracle: on random two-contact scenes (test_properties' draw) and
//   every combination of open / closed and slip sign per contact (with
//   random lift-off and slip-onset flags and strict or closed readings), the
//   same consistent modes in the same order as the two-contact
//   mode_enumerate, with the same accelerations; classes where some mode's
//   Table 1 slack is within ORACLE_TIE of zero are counted, not compared;
// - an open third contact changes nothing;
// - three collinear floor contacts: at rest under a load inside the cone
//   only SSS, with qdd = 0 (forces a family); pushed beyond friction only
//   PPP, with qdd = ((f_x - mu g) / m, 0, 0);
// - every error path.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/contact_set_problem.h"
#include "dynamics/contact_solve.h"
#include "dynamics/mode_n.h"
#include "dynamics/mode_table.h"
#include "test_util.h"

/// Random two-contact scenes of the oracle (the number).
#define ORACLE_SCENES 2000
#define SEED 0x6d6f64656eULL
/// Table 1's zeros, relative to the body's units (the simulator's default
/// force_rtol).
#define ZERO_TOL 1e-9
/// A class is a near tie, not compared, when some admissible mode's Table
/// 1 slack (mode_slack, in the body's units) is within this of zero: the
/// LP's certified point meets its rows to 1e-12 of their terms, so slacks
/// much larger than that decide alike in both codes.
#define ORACLE_TIE 1e-7
/// Accelerations of the two codes agree to rounding of their solves.
#define QDD_TOL 1e-9
/// Closed forms: rounding of a few LP pivots.
#define CLOSED_TOL 1e-9
/// Room for the consistent modes of one class.
#define OUT_CAP 64

static const mode_tol g_strict = {ZERO_TOL, ZERO_TOL, false};

/// A two-contact scene's problem in the body's units; false when the draw
/// is not a valid scene.
static bool draw_problem(rng *r, contact_set_problem *p) {
  const double zero[3] = {0, 0, 0};
  const zeno_scene s = paper_scene(draw_paper_params(r), zero, zero);
  zeno_contact_set_def def;
  if (zeno_contact_set_def_from_scene(&s, &def, NULL) != ZENO_OK) return false;
  double force_scale;
  int index[ZENO_CONTACT_SET_MAX];
  contact_set_problem_of(&def, p, &force_scale, index);
  return p->n == 2;
}

static void two_contact_dyn(const mode_n_dyn *dn, contact_dyn *d) {
  double W[3][4];
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 4; j++) W[k][j] = dn->W[k][j];
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(d, 2, W, dn->inv_mass, dn->h, bias, dn->mu);
}

// Class of one contact from a state code 0..3 (open, closed at zero slip,
// slipping + or -) and random flags (only where the hybrid loop sets them:
// lift-off at a closed contact, slip onset at a sticking one).
static void set_contact(rng *r, int state, int i, mode_class *c2, mode_n_class *cn) {
  const unsigned char gap = state == 0 ? MODE_GAP_OPEN : MODE_GAP_CLOSED;
  const unsigned char slip = state <= 1   ? MODE_SLIP_ZERO
                             : state == 2 ? MODE_SLIP_POS
                                          : MODE_SLIP_NEG;
  const bool lifting = state != 0 && rng_uniform(r, 0, 1) < 0.15;
  const bool leaving = state == 1 && rng_uniform(r, 0, 1) < 0.15;
  c2->gap[i] = cn->gap[i] = gap;
  c2->slip[i] = cn->slip[i] = slip;
  c2->lifting[i] = cn->lifting[i] = lifting;
  c2->leaving_stick[i] = cn->leaving_stick[i] = leaving;
}

// Some admissible mode's Table 1 slack within ORACLE_TIE of zero.
static bool near_tie(const contact_dyn *d, const mode_class *cls) {
  for (unsigned code = 0; code < ZENO_MAX_MODES; code++) {
    const zeno_mode m = zeno_mode_of_code(code);
    mode_solution sol;
    if (!mode_admissible(cls, 2, m) || !mode_solve(d, m, &sol)) continue;
    if (fabs(mode_slack(d, cls, &sol, 1, 1)) <= ORACLE_TIE) return true;
  }
  return false;
}

static int code2(const unsigned char *letter) { return letter[0] + 4 * letter[1]; }

// Adds a third contact, open, with a random wrench.
static void add_open_contact(rng *r, const mode_n_dyn *d2, const mode_n_class *c2, mode_n_dyn *d3,
                             mode_n_class *c3) {
  *d3 = *d2;
  *c3 = *c2;
  d3->n = 3;
  const double point[2] = {rng_uniform(r, -3, 3), rng_uniform(r, -3, 3)};
  double normal[3], tangent[3];
  contact_wrenches(point, rng_uniform(r, -1.5, 1.5), normal, tangent);
  for (int k = 0; k < 3; k++) {
    d3->W[k][4] = normal[k];
    d3->W[k][5] = tangent[k];
  }
  d3->mu[2] = rng_uniform(r, 0.1, 1);
  c3->gap[2] = MODE_GAP_OPEN;
  c3->slip[2] = (unsigned char)(rng_next(r) % 3);
}

static void two_contact_oracle(void **state) {
  (void)state;
  rng r = {SEED};
  static mode_solution two[ZENO_MAX_MODES];
  static mode_n_solution many[OUT_CAP], third[OUT_CAP];
  int scenes = 0, classes = 0, compared = 0, ties = 0, consistent = 0, far = 0;
  while (scenes < ORACLE_SCENES) {
    contact_set_problem p;
    if (!draw_problem(&r, &p)) continue;
    scenes++;
    mode_n_dyn dn;
    contact_set_problem_dyn(&p, &dn);
    contact_dyn d;
    two_contact_dyn(&dn, &d);
    for (int states = 0; states < 16; states++) {
      mode_class c2;
      mode_n_class cn;
      memset(&c2, 0, sizeof c2);
      memset(&cn, 0, sizeof cn);
      set_contact(&r, states % 4, 0, &c2, &cn);
      set_contact(&r, states / 4, 1, &c2, &cn);
      const mode_tol tol = {ZERO_TOL, ZERO_TOL, rng_uniform(&r, 0, 1) < 0.25};
      classes++;
      if (near_tie(&d, &c2)) {
        ties++;
        continue;
      }
      compared++;
      const int count2 = mode_enumerate(&d, &c2, &tol, two);
      int count = -1;
      assert_int_equal(mode_n_enumerate(&dn, &cn, &tol, many, OUT_CAP, &count, NULL), ZENO_OK);
      if (count != count2)
        printf("scene %d class %d: %d vs %d modes\n", scenes, states, count, count2);
      assert_int_equal(count, count2);
      consistent += count;
      for (int k = 0; k < count; k++) {
        assert_int_equal(code2(many[k].letter), code2(two[k].mode.letter));
        assert_int_equal(mode_n_rank(many[k].letter, 2), mode_static_rank(two[k].mode, 2));
        // Two contacts: one acceleration per consistent mode, the table's.
        assert_true(many[k].unique);
        for (int c = 0; c < 3; c++) assert_true(fabs(many[k].qdd[c] - two[k].qdd[c]) <= QDD_TOL);
      }
      // An open third contact changes nothing (one class per scene).
      if (states == (int)(rng_next(&r) % 16) || states == 15) {
        mode_n_dyn d3;
        mode_n_class c3;
        add_open_contact(&r, &dn, &cn, &d3, &c3);
        int count3 = -1;
        assert_int_equal(mode_n_enumerate(&d3, &c3, &tol, third, OUT_CAP, &count3, NULL), ZENO_OK);
        assert_int_equal(count3, count);
        for (int k = 0; k < count; k++) {
          assert_memory_equal(third[k].letter, many[k].letter, 2);
          assert_int_equal(third[k].letter[2], ZENO_LETTER_F);
          for (int c = 0; c < 3; c++)
            assert_true(fabs(third[k].qdd[c] - many[k].qdd[c]) <= QDD_TOL);
        }
        far++;
      }
    }
  }
  printf(
      "mode_n oracle: %d scenes, %d classes, %d compared (%d consistent modes), %d near "
      "ties skipped, %d with an open third contact\n",
      scenes, classes, compared, consistent, ties, far);
  assert_true(ties * 20 < classes);  // ties are rare: under 5%
}

/* ---- three collinear floor contacts --------------------------------------- */

/// The box: contacts at x = -1, 0, 1 on the floor, HALF_HEIGHT below the
/// centre of mass; m = rho = 1.
#define HALF_HEIGHT 0.5
#define FLOOR_MU 0.3

static void floor_problem(double fx, mode_n_dyn *d) {
  zeno_contact_set_def def = zeno_contact_set_def_default();
  def.contact_count = 3;
  const double fy = -1;  // weight m g = 1
  def.load_magnitude = hypot(fx, fy);
  def.load_angle = atan2(fx, -fy);  // f = |f| (sin, -cos) angle
  for (int i = 0; i < 3; i++) {
    def.contacts[i].point[0] = i - 1;
    def.contacts[i].point[1] = -HALF_HEIGHT;
    def.contacts[i].mu = FLOOR_MU;
  }
  contact_set_problem p;
  double force_scale;
  int index[ZENO_CONTACT_SET_MAX];
  contact_set_problem_of(&def, &p, &force_scale, index);
  assert_int_equal(p.n, 3);
  assert_true(fabs(force_scale - def.load_magnitude) <= CLOSED_TOL);
  contact_set_problem_dyn(&p, d);
}

static void closed_class(mode_n_class *c, int n) {
  memset(c, 0, sizeof *c);
  for (int i = 0; i < n; i++) c->gap[i] = MODE_GAP_CLOSED;
}

static void word(const mode_n_solution *s, int n, char *out) {
  for (int i = 0; i < n; i++) out[i] = zeno_letter_name((zeno_letter)s->letter[i]);
  out[n] = '\0';
}

// The class's one consistent mode, whose word must be `expected`.
static mode_n_solution only_mode(const mode_n_dyn *d, const mode_n_class *c, const char *expected) {
  mode_n_solution out[OUT_CAP];
  int count = -1;
  assert_int_equal(mode_n_enumerate(d, c, &g_strict, out, OUT_CAP, &count, NULL), ZENO_OK);
  assert_int_equal(count, 1);
  char w[MODE_N_MAX_CONTACTS + 1];
  word(&out[0], d->n, w);
  assert_string_equal(w, expected);
  assert_true(out[0].unique);
  return out[0];
}

static void three_floor_contacts_at_rest(void **state) {
  (void)state;
  mode_n_dyn d;
  floor_problem(0, &d);
  mode_n_class c;
  closed_class(&c, 3);
  const mode_n_solution sss = only_mode(&d, &c, "SSS");
  assert_true(sss.is_static);
  for (int k = 0; k < 3; k++) {
    assert_true(fabs(sss.qdd[k]) <= CLOSED_TOL);
    assert_true(fabs(sss.qdd_hi[k] - sss.qdd_lo[k]) <= CLOSED_TOL);
  }
  // The forces are a family; the chosen member balances the weight.
  double sum_n = 0;
  for (int i = 0; i < 3; i++) sum_n += sss.force[2 * i];
  assert_true(fabs(sum_n - 1) <= CLOSED_TOL);
  // The open fourth contact far away changes nothing.
  mode_n_dyn d4 = d;
  d4.n = 4;
  const double point[2] = {5, 7};
  double normal[3], tangent[3];
  contact_wrenches(point, 2.0, normal, tangent);
  for (int k = 0; k < 3; k++) {
    d4.W[k][6] = normal[k];
    d4.W[k][7] = tangent[k];
  }
  d4.mu[3] = 0.5;
  mode_n_class c4 = c;
  c4.gap[3] = MODE_GAP_OPEN;
  const mode_n_solution sssf = only_mode(&d4, &c4, "SSSF");
  for (int k = 0; k < 3; k++) assert_true(fabs(sssf.qdd[k]) <= CLOSED_TOL);
}

static void three_floor_contacts_pushed(void **state) {
  (void)state;
  const double fx = 0.5;  // above mu m g = 0.3
  mode_n_dyn d;
  floor_problem(fx, &d);
  mode_n_class c;
  closed_class(&c, 3);
  const mode_n_solution ppp = only_mode(&d, &c, "PPP");
  assert_false(ppp.is_static);
  // In the body's units (force |f|, M = I): qdd = ((fx - mu) / |f|, 0, 0).
  const double scale = hypot(fx, 1);
  assert_true(fabs(ppp.qdd[0] - (fx - FLOOR_MU) / scale) <= CLOSED_TOL);
  assert_true(fabs(ppp.qdd[1]) <= CLOSED_TOL);
  assert_true(fabs(ppp.qdd[2]) <= CLOSED_TOL);
  // Pushed the other way: only NNN.
  floor_problem(-fx, &d);
  only_mode(&d, &c, "NNN");
  // Already sliding forward: the slip's letters are fixed; PPP again.
  for (int i = 0; i < 3; i++) c.slip[i] = MODE_SLIP_POS;
  floor_problem(fx, &d);
  only_mode(&d, &c, "PPP");
}

// One contact at (1, -2) on a floor, mu = 1: then D_nn = mu D_nt (both 2),
// so under P the normal acceleration a_n = afree_n does not depend on the
// force, and with a load (1, -1, 1) (afree_n = 0, afree_t = 3) every c_n in
// (0, 1) meets a_t = 3 - 3 c_n > 0: a family of forces with qdd_x = 1 -
// c_n from 0 to 1. P is consistent with several accelerations (ambiguous);
// the two-contact table calls its solve singular and skips it (a
// Painlevé-type degeneracy; the oracle's random scenes meet none).
static void several_accelerations_are_ambiguous(void **state) {
  (void)state;
  mode_n_dyn d;
  memset(&d, 0, sizeof d);
  d.n = 1;
  const double point[2] = {1, -2};
  double normal[3], tangent[3];
  contact_wrenches(point, 0, normal, tangent);
  for (int k = 0; k < 3; k++) {
    d.W[k][0] = normal[k];
    d.W[k][1] = tangent[k];
    d.inv_mass[k] = 1;
  }
  d.h[0] = 1;
  d.h[1] = -1;
  d.h[2] = 1;
  d.mu[0] = 1;
  mode_n_class c;
  closed_class(&c, 1);
  mode_n_solution out[OUT_CAP];
  int count = -1;
  assert_int_equal(mode_n_enumerate(&d, &c, &g_strict, out, OUT_CAP, &count, NULL), ZENO_OK);
  // S too, at rest on its cone's edge (c = (1, -1), the family's end),
  // first by preference, with its one acceleration 0.
  assert_int_equal(count, 2);
  assert_int_equal(out[0].letter[0], ZENO_LETTER_S);
  assert_true(out[0].unique);
  for (int k = 0; k < 3; k++) assert_true(fabs(out[0].qdd[k]) <= CLOSED_TOL);
  assert_int_equal(out[1].letter[0], ZENO_LETTER_P);
  assert_false(out[1].unique);
  assert_true(fabs(out[1].qdd_lo[0]) <= 1e-8);
  assert_true(fabs(out[1].qdd_hi[0] - 1) <= 1e-8);
  // qdd_y = c_n - 1 and qdd_theta = 1 - c_n: their sum, a_n, stays 0.
  assert_true(fabs(out[1].qdd_lo[1] + 1) <= 1e-8 && fabs(out[1].qdd_hi[1]) <= 1e-8);
  assert_true(fabs(out[1].qdd_lo[2]) <= 1e-8 && fabs(out[1].qdd_hi[2] - 1) <= 1e-8);
  // The two-contact table: P's system is singular.
  contact_dyn d2;
  double W[3][4] = {{0}};
  for (int k = 0; k < 3; k++) {
    W[k][0] = normal[k];
    W[k][1] = tangent[k];
  }
  const double bias[4] = {0}, mu[2] = {1, 0};
  contact_dyn_build(&d2, 1, W, d.inv_mass, d.h, bias, mu);
  const zeno_mode p = {{ZENO_LETTER_P, ZENO_LETTER_F}};
  mode_solution sol;
  assert_false(mode_solve(&d2, p, &sol));
}

/* ---- errors ------------------------------------------------------------------ */

static void bad_input_is_refused(void **state) {
  (void)state;
  mode_n_dyn d;
  floor_problem(0, &d);
  mode_n_class c;
  closed_class(&c, 3);
  mode_n_solution out[OUT_CAP];
  int count = 0;
  zeno_error e;
  assert_int_equal(mode_n_enumerate(NULL, &c, &g_strict, out, OUT_CAP, &count, &e),
                   ZENO_ERR_ARGUMENT);
  assert_int_equal(mode_n_enumerate(&d, &c, &g_strict, NULL, 1, &count, &e), ZENO_ERR_ARGUMENT);
  mode_n_dyn bad = d;
  bad.n = 0;
  assert_int_equal(mode_n_enumerate(&bad, &c, &g_strict, out, OUT_CAP, &count, &e),
                   ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "n");
  bad.n = MODE_N_MAX_CONTACTS + 1;
  assert_int_equal(mode_n_enumerate(&bad, &c, &g_strict, out, OUT_CAP, &count, &e),
                   ZENO_ERR_ARGUMENT);
  assert_non_null(strstr(e.message, "17 contacts; allowed 1 to 16"));
  const mode_tol negative = {-1, ZERO_TOL, false}, nan_tol = {ZERO_TOL, NAN, false};
  assert_int_equal(mode_n_enumerate(&d, &c, &negative, out, OUT_CAP, &count, &e),
                   ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "tol");
  assert_int_equal(mode_n_enumerate(&d, &c, &nan_tol, out, OUT_CAP, &count, &e), ZENO_ERR_ARGUMENT);
  // Nine zero-slip closed contacts: 4^9 patterns, over the bound.
  mode_n_dyn nine = d;
  nine.n = 9;
  for (int i = 3; i < 9; i++) {
    for (int k = 0; k < 3; k++) {
      nine.W[k][2 * i] = d.W[k][2 * (i % 3)];
      nine.W[k][2 * i + 1] = d.W[k][2 * (i % 3) + 1];
    }
    nine.mu[i] = FLOOR_MU;
  }
  mode_n_class c9;
  closed_class(&c9, 9);
  assert_int_equal(mode_n_enumerate(&nine, &c9, &g_strict, out, OUT_CAP, &count, &e),
                   ZENO_ERR_UNSUPPORTED);
  assert_string_equal(e.parameter, "contacts");
  assert_non_null(strstr(e.message, "262144 letter patterns"));
  // An impacting contact admits no letter: no mode (impacts first).
  c.gap[1] = MODE_GAP_IMPACTING;
  count = -1;
  assert_int_equal(mode_n_enumerate(&d, &c, &g_strict, out, OUT_CAP, &count, NULL), ZENO_OK);
  assert_int_equal(count, 0);
}

// A capacity below the count keeps the most preferred modes and counts all.
static void capacity_keeps_the_preferred(void **state) {
  (void)state;
  // A load lifting the box off the three floor contacts: only FFF, the
  // free flight.
  mode_n_dyn d;
  floor_problem(0, &d);
  for (int k = 0; k < 3; k++) d.h[k] = -d.h[k];  // the load lifts the box
  mode_n_class c;
  closed_class(&c, 3);
  const mode_n_solution fff = only_mode(&d, &c, "FFF");
  assert_true(fabs(fff.qdd[1] - d.inv_mass[1] * d.h[1]) <= CLOSED_TOL);
  mode_n_solution out[OUT_CAP];
  int count = -1;
  // Pushed exactly at the cone's edge (f_x = mu m g), the closed reading
  // admits SSS (a tie at the cone) and PPP (a tie at a_t = 0), at least:
  // counted with capacity 0, then the first kept with capacity 1.
  floor_problem(FLOOR_MU, &d);
  const mode_tol closed = {ZERO_TOL, ZERO_TOL, true};
  assert_int_equal(mode_n_enumerate(&d, &c, &closed, NULL, 0, &count, NULL), ZENO_OK);
  const int all = count;
  assert_true(all >= 2);
  mode_n_solution first;
  assert_int_equal(mode_n_enumerate(&d, &c, &closed, &first, 1, &count, NULL), ZENO_OK);
  assert_int_equal(count, all);
  assert_int_equal(mode_n_enumerate(&d, &c, &closed, out, OUT_CAP, &count, NULL), ZENO_OK);
  assert_memory_equal(first.letter, out[0].letter, 3);
  for (int k = 1; k < count; k++)
    assert_true(mode_n_rank(out[k - 1].letter, 3) < mode_n_rank(out[k].letter, 3) ||
                (mode_n_rank(out[k - 1].letter, 3) == mode_n_rank(out[k].letter, 3) &&
                 mode_n_code(out[k - 1].letter, 3) < mode_n_code(out[k].letter, 3)));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_contact_oracle),
      cmocka_unit_test(three_floor_contacts_at_rest),
      cmocka_unit_test(three_floor_contacts_pushed),
      cmocka_unit_test(several_accelerations_are_ambiguous),
      cmocka_unit_test(bad_input_is_refused),
      cmocka_unit_test(capacity_keeps_the_preferred),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
