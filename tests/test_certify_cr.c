// The Lyapunov certificate under the Chatterjee-Ruina impact law
// (src/certify/certify_system.c's cr_case, certify_rat.c's cr_exact;
// docs/certificate.md): the law's cases are linear maps with linear
// conditions that reproduce the simulator's impacts (dynamics/impact.c) on
// random pre-impact velocities; the clipped impulse is exactly Newton's
// slipping impact; the exact maps are the floating ones; Example 4 with
// e = 0.2 is certified and its runs support it; a flipped certificate and
// an unstable configuration are refused.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "certify/certify_check.h"
#include "certify/certify_exact.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "certify/certify_system.h"
#include "dynamics/impact.h"
#include "scene/scene_units.h"
#include "zeno/zeno.h"

#include "certify_test_util.h"

/// Cases counted by what matched: [contact][S, P, N] of the law's own
/// impacts, and the complementarity fallback's.
typedef struct cr_tally {
  int own[2][3], fallback, impacts, unresolved;
} cr_tally;

// One impact of the law at pre-impact ZOD velocity qdp, contacts touching
// and impacting as given: the system's cases with the simulator's letters
// and contacts, whose conditions hold, include one whose map gives the
// simulator's post-impact velocity to 1e-12 (relative to |qdp|); one of the
// law's own cases when own (one contact impacting, the other open: the law
// never falls back there).
static void one_impact(const cert_system *sys, const double qdp[3], const bool touching[2],
                       const bool impacting[2], bool own, cr_tally *t) {
  impact_input in;
  memset(&in, 0, sizeof in);
  in.law = ZENO_LAW_CHATTERJEE_RUINA;
  in.e = sys->e;
  in.et = sys->et;
  kinematics_zod_to_gen(&sys->km, qdp, in.qd);
  for (int a = 0; a < 4; a++) {
    in.v[a] = 0;
    for (int r = 0; r < 3; r++) in.v[a] += sys->km.Cp[r][a] * qdp[r];
  }
  double scale = 0;
  for (int r = 0; r < 3; r++) scale = fmax(scale, fabs(qdp[r]));
  for (int i = 0; i < 2; i++) {
    in.touching[i] = touching[i];
    in.impacting[i] = impacting[i];
  }
  in.tol_v = 1e-12 * scale;
  in.tol_impulse = 1e-12 * scale;
  impact_result out;
  if (!impact_resolve(&sys->d, &in, &out)) {
    t->unresolved++;
    return;
  }
  double post[3];
  kinematics_gen_to_zod(&sys->km, out.qd, post);
  const bool both = out.mask == 3u;
  const int contact = out.mask == 2u ? 1 : 0;
  int found = 0;
  for (int k = 0; k < sys->ncases; k++) {
    const cert_case *c = &sys->cases[k];
    if (c->both != both || (!both && c->contact != contact) || c->letter[0] != out.letter[0] ||
        c->letter[1] != out.letter[1])
      continue;
    if (!cert_case_holds(c, qdp, 1e-9 * scale)) continue;
    double mine[3];
    cert_case_apply(c, qdp, mine);
    bool same = true;
    for (int r = 0; r < 3; r++) same = same && fabs(mine[r] - post[r]) <= 1e-12 * scale;
    if (!same || (own && c->kind == CERT_COMPLEMENTARITY)) continue;
    if (found++ > 0) continue;
    if (own) t->own[c->contact][c->letter[c->contact] - ZENO_LETTER_S]++;
    else t->fallback++;
  }
  if (found == 0)
    fail_msg("no case gives the impact %c%c (mask %u) at (%.17g, %.17g, %.17g)",
             "FSPN"[out.letter[0]], "FSPN"[out.letter[1]], out.mask, qdp[0], qdp[1], qdp[2]);
  t->impacts++;
}

// 6000 random pre-impact velocities of Example 4 under the law (e = 0.2,
// et = 0 and et = 0.5): an impact at one contact with the other open, or
// closed (u_j = 0) or leaving (u_j > 0), or at both. Every impact the law
// resolves is one of the system's cases, with the same numbers; with the
// other contact open, one of the law's own cases, each of which (S, P, N at
// each contact) occurs.
static void cases_are_the_law(void **state) {
  (void)state;
  const char *const sets[2][1] = {{"impact.et=0"}, {"impact.et=0.5"}};
  for (int v = 0; v < 2; v++) {
    zeno_scene s = load("example4-cr.yaml", sets[v], 1);
    cert_system sys;
    build(&s, &sys);
    assert_int_equal(sys.law, ZENO_LAW_CHATTERJEE_RUINA);
    assert_int_equal(sys.ncases, 6 + 15);
    cr_tally t;
    memset(&t, 0, sizeof t);
    unsigned seed = 17u + (unsigned)v;
    for (int n = 0; n < 3000; n++) {
      double qdp[3] = {uniform(&seed, -1, 1), uniform(&seed, -1, 1), uniform(&seed, -1, 1)};
      const int kind = n % 4, i = (n / 4) % 2, j = 1 - i;
      qdp[i] = -fabs(qdp[i]);
      bool touching[2] = {true, true}, impacting[2] = {true, true};
      if (kind == 0) touching[j] = impacting[j] = false;  // j open
      if (kind == 1) {                                    // j closed
        qdp[j] = 0;
        impacting[j] = false;
      }
      if (kind == 2) {  // j touching and leaving
        qdp[j] = fabs(qdp[j]);
        impacting[j] = false;
      }
      if (kind == 3) qdp[j] = -fabs(qdp[j]);  // both impacting
      one_impact(&sys, qdp, touching, impacting, kind == 0, &t);
    }
    print_message(
        "et = %s: %d impacts; other contact open, S P N: contact 1 %d %d %d, "
        "contact 2 %d %d %d; touching or impacting %d; unresolved %d\n",
        sets[v][0] + 10, t.impacts, t.own[0][0], t.own[0][1], t.own[0][2], t.own[1][0], t.own[1][1],
        t.own[1][2], t.fallback, t.unresolved);
    for (int i = 0; i < 2; i++)
      for (int l = 0; l < 3; l++) assert_true(t.own[i][l] > 20);
    assert_true(t.fallback > 2000);
    assert_true(t.impacts + t.unresolved == 3000);
    assert_true(t.unresolved < 30);
  }
}

// The exact cases are the floating ones (1e-12), and the clipped impulse
// is Newton's slipping impact: the edge cases' maps equal, exactly, the
// complementarity P / N cases' at the same contact (the same restitution
// target, the impulse on the same cone edge), and an impact at zero
// approach speed changes nothing (G e_r = e_r, r != i, exactly).
static void exact_maps_match(void **state) {
  (void)state;
  zeno_scene s = load("example4-cr.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_rat_case x, y;
  cert_rat_case_init(&x);
  cert_rat_case_init(&y);
  int edges = 0;
  for (int k = 0; k < sys.ncases; k++) {
    const cert_case *cs = &sys.cases[k];
    if (cs->kind == CERT_COMPLEMENTARITY) continue;
    assert_true(cert_rat_case_exact(&sys, cs, &x));
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++)
        if (fabs(mpq_get_d(x.G[r][c]) - cs->post[r][c]) > 1e-12)
          fail_msg("case %d G[%d][%d]: %.17g exact, %.17g", k, r, c, mpq_get_d(x.G[r][c]),
                   cs->post[r][c]);
    assert_int_equal(x.ncond, cs->ncond);
    assert_int_equal(x.ncond, 3);
    for (int q = 0; q < cs->ncond; q++) {
      double size = 0;
      for (int r = 0; r < 3; r++) size = fmax(size, fabs(cs->cond[q][r]));
      assert_true(size > 0);
      for (int r = 0; r < 3; r++)
        assert_true(fabs(mpq_get_d(x.cond[q][r]) - cs->cond[q][r]) <= 1e-12 * size);
    }
    if (cs->kind != CERT_CR_EDGE) continue;
    for (int m = 0; m < sys.ncases; m++) {
      const cert_case *nw = &sys.cases[m];
      if (nw->kind != CERT_COMPLEMENTARITY || nw->both || nw->contact != cs->contact ||
          nw->letter[cs->contact] != cs->letter[cs->contact])
        continue;
      assert_true(cert_rat_case_exact(&sys, nw, &y));
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) assert_true(mpq_equal(x.G[r][c], y.G[r][c]));
      for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3 && c != cs->contact; r++)
          assert_int_equal(mpq_cmp_si(x.G[r][c], r == c ? 1 : 0, 1), 0);
      edges++;
    }
  }
  assert_int_equal(edges, 4);
  cert_rat_case_clear(&x);
  cert_rat_case_clear(&y);
}

// Example 4 with e = 0.2, et = 0 (scenes/example4-cr.yaml): certified
// exactly; 1000 random perturbed runs never increase V1, nor V2 over a
// flight and its impact, beyond rounding; 200 plain perturbed runs all
// come to rest.
static void cr_scene_certified(void **state) {
  (void)state;
  zeno_scene s = load("example4-cr.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  assert_true(cert_flights(&sys) && cert_exact_applies(&sys) && cert_flight_applies(&sys));
  cert_program_outcome o;
  certify_exactly(&sys, &DEGREE2, "example4-cr", &o);
  assert_true(o.exact_shift < 1e-8);
  cert_check_result chk;
  check_runs(&s, &sys, &o, 1000, false, &chk);
  assert_true(chk.max_increase < 1e-12);
  print_message(
      "Example 4 CR e = 0.2: certified, SDP order %d, %d constraints, %d "
      "equalities, projection %.2g; 1000 runs, %d steps, largest relative "
      "increase %.3g\n",
      o.sdp_order, o.sdp_constraints, o.equalities, o.exact_shift, chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
  assert_int_equal(runs_at_rest(&s, 200, 0.1, true, 3u), 200);
}

// The exact check reads the certificate: the certified coefficients pass,
// flipped (W -> -W) they fail positivity.
static void flipped_certificate_fails(void **state) {
  (void)state;
  zeno_scene s = load("example4-cr.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_program_outcome o;
  certify(&sys, &DEGREE2, &o);
  assert_true(o.certified);
  double x[CERT_EXACT_NX], flipped[CERT_EXACT_NX];
  unknowns_of(&o, x);
  cert_exact_result r;
  assert_int_equal(cert_exact_verify(&sys, o.c, x, o.kappa, o.lambda, &r, NULL), ZENO_OK);
  assert_true(r.certified);
  for (int k = 0; k < CERT_EXACT_NX; k++) flipped[k] = -x[k];
  assert_int_equal(cert_exact_verify(&sys, o.c, flipped, o.kappa, o.lambda, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  assert_non_null(strstr(r.reason, "positivity"));
  cert_program_outcome_free(&o);
}

// Soundness: an Example 6 point that the Poincare analysis proves unstable
// under the inelastic law (region 4) keeps chattering under the law with
// e = 0.2 (its perturbed runs do not come to rest) and is not certified,
// with the reason; so is Example 4 with e = 0.9.
static void unstable_not_certified(void **state) {
  (void)state;
  const char *const set[] = {"com.x=-0.13559322033898313", "com.y=-0.16949152542372881",
                             "impact.law=chatterjee-ruina", "impact.e=0.2", "stop.t_end=20"};
  zeno_scene s = load("example6.yaml", set, 5);
  const int rest = runs_at_rest(&s, 10, 0.1, false, 9u);
  print_message("Example 6 region-4 point, CR e = 0.2: %d of 10 runs at rest\n", rest);
  assert_true(rest < 5);
  const char *const elastic[] = {"impact.e=0.9"};
  const zeno_scene scenes[2] = {s, load("example4-cr.yaml", elastic, 1)};
  for (int k = 0; k < 2; k++) {
    cert_system sys;
    build(&scenes[k], &sys);  // not refused: the program is solved
    cert_program_outcome o;
    certify(&sys, &DEGREE2, &o);
    assert_false(o.certified);
    assert_true(o.reason[0] != '\0');
    print_message("not certified: %s\n", o.reason);
    cert_program_outcome_free(&o);
  }
}

// The exact cases' refusals: with contact 1's normal direction lost (Dnn
// = 0) the law's cases there are not solved, and the flight check names
// the singular case; with its friction raised until the edge impulse would
// pull (Dnn + sig mu Dnt <= 0, Painleve's bound, refused by cert_build
// before) the clipped case on that side is not solved either.
static void exact_refusals(void **state) {
  (void)state;
  zeno_scene s = load("example4-cr.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_rat_case x;
  cert_rat_case_init(&x);
  cert_system flat = sys;
  for (int r = 0; r < 3; r++) flat.km.Cp[r][0] = 0;
  int refused = 0;
  for (int k = 0; k < sys.ncases; k++)
    if (sys.cases[k].kind != CERT_COMPLEMENTARITY && sys.cases[k].contact == 0)
      refused += !cert_rat_case_exact(&flat, &sys.cases[k], &x);
  assert_int_equal(refused, 3);
  mpq_t w[CERT_EXACT_NX];
  for (int k = 0; k < CERT_EXACT_NX; k++) {
    mpq_init(w[k]);
    mpq_set_ui(w[k], k == 2 || k == 5 || k == 7 ? 1 : 0, 1);
  }
  char text[200];
  assert_false(cert_flight_verify(&flat, -1, w, text, sizeof text, NULL));
  assert_non_null(strstr(text, "exact solve is singular"));
  for (int k = 0; k < CERT_EXACT_NX; k++) mpq_clear(w[k]);
  // Contact 1's Delassus entries: Dnn > 0, Dnt != 0; the friction at which
  // one edge's Dnn + sig mu Dnt vanishes, and beyond it.
  const double Dnn = sys.d.D[0][0], Dnt = sys.d.D[0][1];
  assert_true(Dnn > 0 && fabs(Dnt) > 1e-6 * Dnn);
  cert_system slick = sys;
  slick.d.mu[0] = 1.01 * Dnn / fabs(Dnt);
  const int pulling = Dnt > 0 ? ZENO_LETTER_P : ZENO_LETTER_N;  // sig Dnt < 0
  int edges = 0;
  for (int k = 0; k < sys.ncases; k++) {
    const cert_case *c = &sys.cases[k];
    if (c->kind != CERT_CR_EDGE || c->contact != 0) continue;
    assert_true(cert_rat_case_exact(&slick, c, &x) == (c->letter[0] != pulling));
    edges++;
  }
  assert_int_equal(edges, 2);
  cert_rat_case_clear(&x);
}

// Restitution on level floors: the rocking and sliding blocks under
// Newton's law (e = 0.2) and the Chatterjee-Ruina law (e = 0.2, et = 0).
// A single impact's cone has a lineality direction (the free contact's
// normal velocity with the impacting one at rest, tau = 0) on which the
// flight form vanishes whatever W; asked on the cone's rows with their
// products the program was infeasible (CSDP's margin -1). In the cone's
// generators, the lineality's cross terms equalities, both slip functions
// are certified exactly, and 1000 runs never increase V1, V2+ or V2-.
static void level_floor_restitution(void **state) {
  (void)state;
  const char *const laws[][3] = {{"impact.law=newton", "impact.e=0.2", "impact.et=0"},
                                 {"impact.law=chatterjee-ruina", "impact.e=0.2", "impact.et=0"}};
  const char *const files[] = {"rocking-block.yaml", "sliding-block.yaml"};
  for (int f = 0; f < 2; f++)
    for (int l = 0; l < 2; l++) {
      zeno_scene s = load(files[f], laws[l], 3), own;
      scene_in_units(&s, scene_units_of(&s), &own);  // the blocks' own units are not 1
      cert_system sys;
      bool refused = true;
      char reason[CERT_REASON_SIZE];
      assert_int_equal(cert_build(&own, &sys, &refused, reason, NULL), ZENO_OK);
      assert_false(refused);
      assert_true(sys.level && cert_flights(&sys) && cert_flight_applies(&sys));
      cert_program_outcome o;
      certify_exactly(&sys, &DEGREE2, files[f], &o);
      assert_non_null(o.minus);
      assert_true(o.minus->exact && o.minus->certified);
      assert_true(o.equalities > 0 && o.minus->equalities > 0);
      cert_check_result chk;
      check_runs(&own, &sys, &o, 1000, false, &chk);
      assert_true(chk.max_increase < 1e-12);
      print_message("%s, %s: %d + %d equalities; 1000 runs, %d steps, largest increase %.3g\n",
                    files[f], laws[l][0], o.equalities, o.minus->equalities, chk.events,
                    chk.max_increase);
      cert_program_outcome_free(&o);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cases_are_the_law),       cmocka_unit_test(exact_maps_match),
      cmocka_unit_test(cr_scene_certified),      cmocka_unit_test(flipped_certificate_fails),
      cmocka_unit_test(unstable_not_certified),  cmocka_unit_test(exact_refusals),
      cmocka_unit_test(level_floor_restitution),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
