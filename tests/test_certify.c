// The Lyapunov certificate's system (src/certify/certify_system.c) against
// the simulator: the constant mode accelerations it uses are those of the
// ZOD segments the simulator runs, and each impact case's linear map gives
// the post-impact velocity the simulator's impact law gives, on random
// perturbations of Example 4 (inelastic) and of Example 7 under Newton's
// law; the refusals before any SDP; the program built from a scene and
// solved (docs/certificate.md says why it is not certified yet).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "certify/certify_check.h"
#include "certify/certify_piece.h"
#include "certify/certify_program.h"
#include "certify/certify_system.h"
#include "scene/scene_units.h"
#include "zeno/zeno.h"

#include "certify_test_util.h"

static double norm3(const double v[3]) { return fabs(v[0]) + fabs(v[1]) + fabs(v[2]); }

typedef struct tally {
  int mode_segments, flights, impacts, grazing;
} tally;

// One impact event: the system's case with the simulator's letters gives
// its post-impact velocity.
static void compare_impact(const cert_system *sys, const zeno_event *e, tally *t) {
  const zeno_event ev = *e;
  const double *pre = ev.before.zod_rate, *post = ev.after.zod_rate;
  const bool both = ev.impact_mask == 3u;
  const int contact = both ? 0 : (ev.impact_mask == 2u ? 1 : 0);
  // Under the Chatterjee-Ruina law the law's own cases and its
  // complementarity fallback share letters: one of them is the impact. Its
  // runs meet grazing impacts (approach speeds about 5e-9 of the state's size)
  // whose bounce -e u_i is below the simulator's zero tolerance: it
  // sets u_i+ to 0 and projects the other velocities, which moves them by
  // more than 1e-12 of the state's size. Not compared (test_certify_cr
  // compares the law itself at every speed).
  const bool cr = sys->law == ZENO_LAW_CHATTERJEE_RUINA;
  bool zeroed = false;
  for (int i = 0; i < 2; i++)
    if ((ev.impact_mask & (1u << i)) && post[i] == 0.0 && pre[i] < 0) zeroed = true;
  if (cr && sys->e > 0 && zeroed) {
    t->grazing++;
    t->impacts++;
    return;
  }
  int found = 0, matched = 0;
  for (int j = 0; j < sys->ncases; j++) {
    const cert_case *c = &sys->cases[j];
    if (c->both != both || c->contact != contact || c->letter[0] != ev.impact_letter[0] ||
        c->letter[1] != ev.impact_letter[1])
      continue;
    double out[3];
    cert_case_apply(c, pre, out);
    const double scale = norm3(pre);
    bool same = cert_case_holds(c, pre, 1e-9 * scale);
    for (int r = 0; r < 3; r++) same = same && fabs(out[r] - post[r]) <= 1e-12 * scale;
    if (!cr) assert_true(same);
    matched += same;
    found++;
  }
  // Newton's and the inelastic law's letters name one case; under
  // Chatterjee-Ruina a clipped case and the complementarity fallback may
  // share them, and one of those is the impact.
  if (cr) assert_true(matched >= 1);
  else assert_int_equal(found, 1);
  t->impacts++;
}

// One run from (qp, qdp): every segment's constant acceleration equals the
// system's for its mode, every impact the system's case map.
static void compare_run(zeno_sim *sim, const cert_system *sys, const double qp[3],
                        const double qdp[3], tally *t) {
  assert_int_equal(zeno_sim_restart(sim, qp, qdp, NULL), ZENO_OK);
  zeno_event prev, ev;
  memset(&prev, 0, sizeof prev);
  bool have = false;
  for (int k = 0; k < 400; k++) {
    assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_OK);
    if (have && ev.kind != ZENO_EVENT_ZENO) {
      const double dt = ev.t - prev.t;
      const zeno_mode m = prev.mode_after;
      const double *acc = NULL;
      if (m.letter[0] == ZENO_LETTER_F && m.letter[1] == ZENO_LETTER_F) {
        acc = sys->a_ff;
        t->flights++;
      }
      for (int j = 0; j < sys->nmodes && !acc; j++)
        if (sys->modes[j].mode.letter[0] == m.letter[0] &&
            sys->modes[j].mode.letter[1] == m.letter[1]) {
          acc = sys->modes[j].acc;
          t->mode_segments++;
        }
      const bool is_static = m.letter[0] == ZENO_LETTER_S && m.letter[1] == ZENO_LETTER_S;
      if (!is_static && dt > 1e-3) {
        char name[8];
        if (acc == NULL)
          fail_msg("mode %s of the simulator is not in the system", zeno_mode_name(m, 2, name));
        const double scale = norm3(prev.after.zod_rate) / dt + norm3(acc);
        for (int r = 0; r < 3; r++) {
          const double fd = (ev.before.zod_rate[r] - prev.after.zod_rate[r]) / dt;
          if (fabs(fd - acc[r]) > 1e-9 * scale)
            fail_msg("mode %s: qdd'[%d] %.17g, system %.17g", zeno_mode_name(m, 2, name), r, fd,
                     acc[r]);
        }
      }
    }
    if (ev.kind == ZENO_EVENT_IMPACT) compare_impact(sys, &ev, t);
    if (ev.kind == ZENO_EVENT_END) break;
    prev = ev;
    have = true;
  }
}

static void compare_scene(const zeno_scene *s, unsigned seed, tally *t) {
  cert_system sys;
  build(s, &sys);
  zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *sim = zeno_sim_create(s, &def, NULL);
  assert_non_null(sim);
  for (int run = 0; run < 40; run++) {
    const double qp[3] = {uniform(&seed, 0, 0.2), uniform(&seed, 0, 0.2),
                          uniform(&seed, -0.1, 0.1)};
    const double qdp[3] = {uniform(&seed, -0.5, 0.5), uniform(&seed, -0.5, 0.5),
                           uniform(&seed, -0.5, 0.5)};
    compare_run(sim, &sys, qp, qdp, t);
  }
  zeno_sim_destroy(sim);
}

// 40 random starts near Example 4's equilibrium: every ZOD segment and
// every impact the simulator takes is one the certificate covers, with the
// same numbers (accelerations to 1e-9 of a finite difference over the
// segment, impact maps to 1e-12).
static void example4_matches_simulator(void **state) {
  (void)state;
  tally t = {0, 0, 0, 0};
  zeno_scene s = load("example4.yaml", NULL, 0);
  compare_scene(&s, 7u, &t);
  print_message("Example 4: %d mode segments, %d flights, %d impacts compared\n", t.mode_segments,
                t.flights, t.impacts);
  assert_true(t.mode_segments > 20 && t.flights > 20 && t.impacts > 40);
}

// Newton's law (e = 0.5) on Example 4: restitution enters every case map.
static void newton_matches_simulator(void **state) {
  (void)state;
  tally t = {0, 0, 0, 0};
  const char *const set[] = {"impact.law=newton", "impact.e=0.5"};
  zeno_scene s = load("example4.yaml", set, 2);
  compare_scene(&s, 11u, &t);
  print_message("Example 4, Newton e = 0.5: %d mode segments, %d flights, %d impacts\n",
                t.mode_segments, t.flights, t.impacts);
  assert_true(t.impacts > 40);
}

// The Chatterjee-Ruina law (e = 0.2, et = 0.5) on Example 4: the law's own
// cases and its fallback's.
static void chatterjee_ruina_matches_simulator(void **state) {
  (void)state;
  tally t = {0, 0, 0, 0};
  const char *const set[] = {"impact.law=chatterjee-ruina", "impact.e=0.2", "impact.et=0.5"};
  zeno_scene s = load("example4.yaml", set, 3);
  compare_scene(&s, 13u, &t);
  print_message(
      "Example 4, Chatterjee-Ruina e = 0.2, et = 0.5: %d mode segments, %d "
      "flights, %d impacts (%d grazing)\n",
      t.mode_segments, t.flights, t.impacts, t.grazing);
  assert_true(t.impacts - t.grazing > 1000);
}

// M' and the potential: V1 is the simulator's energy up to the constant of
// the nominal pose, at every event of a run.
static void energy_is_the_simulators(void **state) {
  (void)state;
  zeno_scene s = load("example4.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  zeno_sim_def def = zeno_sim_def_default();
  zeno_sim *sim = zeno_sim_create(&s, &def, NULL);
  assert_non_null(sim);
  zeno_event ev;
  double offset = NAN;
  int n = 0;
  for (int k = 0; k < 100; k++) {
    assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_OK);
    if (ev.kind == ZENO_EVENT_END) break;
    const double st[6] = {ev.after.zod[0],      ev.after.zod[1],      ev.after.zod[2],
                          ev.after.zod_rate[0], ev.after.zod_rate[1], ev.after.zod_rate[2]};
    const double d = ev.after.energy - cert_program_v1(&sys, st);
    if (isnan(offset)) offset = d;
    assert_true(fabs(d - offset) < 1e-12);
    n++;
  }
  assert_true(n > 10);
  zeno_sim_destroy(sim);
}

static void refusals_and_errors(void **state) {
  (void)state;
  cert_system sys;
  bool refused = false;
  char reason[CERT_REASON_SIZE];
  // Example 3 (unstable by Theorem 2): b2 < 0 violates (56), which only
  // weighted degrees 3 and 4 need; at degree 2 the program is solved and
  // finds no certificate.
  zeno_scene s = load("example3-zeno.yaml", NULL, 0);
  assert_int_equal(cert_build(&s, &sys, &refused, reason, NULL), ZENO_OK);
  assert_false(refused);
  assert_false(cert_sign_conditions(&sys, reason));
  assert_non_null(strstr(reason, "(56)"));
  cert_program_outcome o;
  certify(&sys, &DEGREE2, &o);
  assert_false(o.certified);
  cert_program_outcome_free(&o);
  // The ambiguous equilibrium of test_equilibrium (SF consistent at rest).
  const zeno_paper_params amb = {-2, -1.1, -1.6, 1.5, -50, 55, 0.65, 0.85, 1, 1, 1, 0};
  s = zeno_scene_default();
  zeno_scene_apply_paper(&s, &amb);
  assert_int_equal(cert_build(&s, &sys, &refused, reason, NULL), ZENO_OK);
  assert_true(refused);
  assert_non_null(strstr(reason, "ambiguous"));
  // One contact: an error naming the contacts.
  s = load("bouncing-ball.yaml", NULL, 0);
  zeno_error e;
  assert_int_equal(cert_build(&s, &sys, &refused, reason, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "contacts");
}

// Example 4 (stable by Theorem 3) is certified at weighted degree 2: CSDP
// solves the program, the exact check projects W onto the modes'
// equalities (4 independent of 6: the physics makes the contact forces do
// no work along the free coordinates, which the exact mode solve keeps)
// with a change of rounding size and decides every condition exactly. V1
// and V2 then never grow between or across the events of 200 random runs
// after the first impact, beyond rounding. Example 7 (region 7, undecided
// by the Poincare analysis) likewise.
static void certify_scene(const char *file, double *max_increase) {
  zeno_scene s = load(file, NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_program_outcome o;
  certify_exactly(&sys, &DEGREE2, file, &o);
  assert_int_equal(o.equalities, 4);
  assert_true(o.exact_shift < 1e-8);
  assert_int_equal(o.unknowns, 8);  // z1, z2 and the 6 velocity products
  cert_check_result chk;
  check_runs(&s, &sys, &o, 200, true, &chk);
  print_message(
      "%s: certified, SDP order %d, %d constraints, %.3f s, projection %.2g; "
      "200 runs, %d pieces and impacts, largest relative increase %.3g\n",
      file, o.sdp_order, o.sdp_constraints, o.seconds, o.exact_shift, chk.events, chk.max_increase);
  *max_increase = chk.max_increase;
  cert_program_outcome_free(&o);
}

static void example4_certified(void **state) {
  (void)state;
  double inc;
  certify_scene("example4.yaml", &inc);
  assert_true(inc < 1e-12);
}

static void example7_certified(void **state) {
  (void)state;
  double inc;
  certify_scene("example7.yaml", &inc);
  assert_true(inc < 1e-12);
}

// A wrong certificate is caught by the simulation: Example 4's V2 with its
// x2 coefficient's sign flipped grows along the downhill slips.
static void check_catches_a_wrong_certificate(void **state) {
  (void)state;
  zeno_scene s = load("example4.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_program_outcome o;
  certify(&sys, &DEGREE2, &o);
  o.c = -o.c;
  cert_check_result chk;
  assert_int_equal(cert_check_check(&s, &sys, &o, 50, 0.1, 5u, true, NULL, &chk, NULL), ZENO_OK);
  assert_true(chk.max_increase > 1e-3);
  cert_program_outcome_free(&o);
}

// Soundness where the truth is known: points of the Example 6 map that the
// Poincare analysis proves unstable (region 4: persistent with a fixed
// point of R with G > 1; region 5: the same, not persistent) pass the
// system conditions, so the SOS program is built and solved, and none is
// certified. (On the 60 x 60 map of docs/certificate.md, 42 such points
// reach the SDP; none is certified.)
static void unstable_points_not_certified(void **state) {
  (void)state;
  static const struct {
    const char *x, *y;
    int region;
  } points[] = {{"com.x=-0.13559322033898313", "com.y=-0.16949152542372881", 4},
                {"com.x=-0.059322033898304927", "com.y=-0.16949152542372881", 4},
                {"com.x=-1.6610169491525424", "com.y=1.3135593220338984", 5},
                {"com.x=-1.3559322033898304", "com.y=0.95762711864406769", 5}};
  for (size_t k = 0; k < sizeof points / sizeof points[0]; k++) {
    const char *const set[] = {points[k].x, points[k].y};
    zeno_scene s = load("example6.yaml", set, 2);
    zeno_analysis a;
    assert_int_equal(zeno_analyze(&s, NULL, &a, NULL), ZENO_OK);
    assert_int_equal(a.verdict, ZENO_VERDICT_UNSTABLE);
    assert_int_equal(a.region, points[k].region);
    zeno_analysis_free(&a);
    cert_system sys;
    build(&s, &sys);  // not refused: the program is solved
    cert_program_outcome o;
    certify(&sys, &DEGREE2, &o);
    assert_false(o.certified);
    cert_program_outcome_free(&o);
  }
}

// A level-floor scene in its own units, its system (not refused, level)
// and its certificate: V2+ and V2- both certified exactly.
static void level_floor_system(const char *file, zeno_scene *own, cert_system *sys,
                               cert_program_outcome *o) {
  zeno_scene s = load(file, NULL, 0);
  scene_in_units(&s, scene_units_of(&s), own);
  bool refused = true;
  char reason[CERT_REASON_SIZE];
  assert_int_equal(cert_build(own, sys, &refused, reason, NULL), ZENO_OK);
  assert_false(refused);
  assert_true(sys->level);
  certify_exactly(sys, &DEGREE2, file, o);
  assert_non_null(o->minus);
  assert_true(o->minus->exact && o->minus->certified);
}

// A level floor (b3 = 0): V1 bounds neither side of the slip, so the
// rocking block is certified by two slip functions, V2+ = x2 + W+ and
// V2- = -x2 + W-, each decreasing everywhere and positive with V1 on its
// own side, both decided exactly; 1000 runs never increase V1, V2+ or V2-.
// Before issue 33 it was refused by (55).
static void level_floor_certified(void **state) {
  (void)state;
  zeno_scene own;
  cert_system sys;
  cert_program_outcome o;
  level_floor_system("rocking-block.yaml", &own, &sys, &o);
  assert_true(o.c == 1.0 && o.minus->c == -1.0);
  assert_true(o.kappa[0] >= 0 && isnan(o.kappa[1]));
  cert_check_result chk;
  assert_int_equal(cert_check_check(&own, &sys, &o, 1000, 0.1, 5u, true, NULL, &chk, NULL),
                   ZENO_OK);
  assert_true(chk.max_increase < 1e-12);
  cert_program_outcome_free(&o);
}

// The sliding block on a level floor: a double impact at contact 2 while
// contact 1 slides (case PP) changes nothing at zero approach speed, so its
// form E(u2, w2) has no w2^2 term and needs the cross term B <= 0 (from the
// ray u2 = 0 into the cone). With total-degree bases its Gram matrix had a
// zero diagonal, CSDP met B <= 0 only to sqrt(1e-9) and the exact check
// found B = +1.5e-5 (not certified). With the tight variable's bases it is
// certified exactly, B < 0 with room, and 1000 runs never increase V1, V2+
// or V2-.
static void sliding_block_certified(void **state) {
  (void)state;
  zeno_scene own;
  cert_system sys;
  cert_program_outcome o;
  level_floor_system("sliding-block.yaml", &own, &sys, &o);
  // The PP case at contact 2 (u1 = 0, G e_w2 = e_w2): E = P - G^T P G has
  // B = E12 = P12 - sum_a G_a1 P_a2 (P from V2+'s coefficients).
  double x[CERT_EXACT_NX];
  unknowns_of(&o, x);
  const cert_case *pp = NULL;
  for (int k = 0; k < sys.ncases; k++)
    if (sys.cases[k].both && sys.cases[k].letter[0] == ZENO_LETTER_P &&
        sys.cases[k].letter[1] == ZENO_LETTER_P)
      pp = &sys.cases[k];
  assert_non_null(pp);
  const double b = x[6] - (pp->post[0][1] * x[4] + pp->post[1][1] * x[6] + pp->post[2][1] * x[7]);
  assert_true(b < -1e-7);
  cert_check_result chk;
  assert_int_equal(cert_check_check(&own, &sys, &o, 1000, 0.1, 5u, true, NULL, &chk, NULL),
                   ZENO_OK);
  assert_true(chk.events > 1000);
  assert_true(chk.max_increase < 1e-12);
  print_message("sliding block: PP's cross term %.3g; %d checked events, largest increase %.3g\n",
                b, chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
}

// An Example 6 point (overrides x, y) that the analysis puts in region 2
// (stable by Theorem 3), certified exactly at weighted degree 2 and
// through 1000 checked runs that never increase V1 or V2.
static void region2_certified(const char *x, const char *y, cert_system *sys,
                              cert_program_outcome *o, cert_check_result *chk) {
  const char *const set[] = {x, y};
  zeno_scene s = load("example6.yaml", set, 2);
  zeno_analysis a;
  assert_int_equal(zeno_analyze(&s, NULL, &a, NULL), ZENO_OK);
  assert_int_equal(a.region, 2);
  zeno_analysis_free(&a);
  build(&s, sys);
  certify_exactly(sys, &DEGREE2, "example6.yaml", o);
  check_runs(&s, sys, o, 1000, true, chk);
  assert_true(chk->max_increase < 1e-12);
}

// An Example 6 region-2 point (stable by Theorem 3) where V2's pointwise
// decrease is infeasible: with the decrease of the sticking and the
// accelerating-slip modes asked over their pieces (certify_piece.h) it is
// certified exactly, and 1000 runs, comparing a piece's start with the
// state after the event that ends it, never increase V1 or V2.
static void piece_conditions_certify(void **state) {
  (void)state;
  cert_system sys;
  cert_program_outcome o;
  cert_check_result chk;
  region2_certified("com.x=0.38461538461538503", "com.y=-1", &sys, &o, &chk);
  assert_true(o.pieces);
  print_message("Example 6 (2) over pieces: %d checked events, largest increase %.3g\n", chk.events,
                chk.max_increase);
  cert_program_outcome_free(&o);
}

// An Example 6 region-2 point (stable by Theorem 3) whose program over the
// pieces is infeasible (CSDP's margin -0.76): its decelerating slips FN, PF
// and NF stay pointwise there. Asked over their chains (the slip, its stop,
// the one mode it can stop into and the impact that ends that,
// certify_piece.h) it is certified exactly, and 1000 runs, comparing a
// chain's start with the state after the impact that ends it, never
// increase V1 or V2. The exact check reads the chains' S-procedure
// multipliers: without them no chain is decided, and with every one
// 0 (the start gap not used) some chain is refused.
static void chain_conditions_certify(void **state) {
  (void)state;
  cert_system sys;
  cert_program_outcome o;
  cert_check_result chk;
  region2_certified("com.x=0.038461538461538325", "com.y=-0.46153846153846156", &sys, &o, &chk);
  assert_true(o.pieces && o.chains);
  assert_true(o.nlambda > 0);
  double lmax = 0;
  for (int k = 0; k < o.nlambda; k++) {
    assert_true(o.lambda[k] >= 0);
    lmax = fmax(lmax, o.lambda[k]);
  }
  // The stops: FN into FP (contact 2 slips back), PF and NF into SF.
  cert_system p = sys;
  p.pieces = p.chains = true;
  const char *expect[][2] = {{"FN", "FP"}, {"PF", "SF"}, {"NF", "SF"}};
  for (int k = 0; k < p.nmodes; k++) {
    const cert_mode *m = &p.modes[k], *next = cert_piece_stop_mode(&p, m);
    const char name[3] = {"FSPN"[m->mode.letter[0]], "FSPN"[m->mode.letter[1]], 0};
    const char *want = NULL;
    for (int q = 0; q < 3; q++)
      if (!strcmp(name, expect[q][0])) want = expect[q][1];
    if (!want) {
      assert_null(next);
      continue;
    }
    assert_non_null(next);
    const char got[3] = {"FSPN"[next->mode.letter[0]], "FSPN"[next->mode.letter[1]], 0};
    assert_string_equal(got, want);
  }
  double x[CERT_EXACT_NX];
  unknowns_of(&o, x);
  cert_exact_result r;
  assert_int_equal(cert_exact_verify(&p, o.c, x, o.kappa, o.lambda, &r, NULL), ZENO_OK);
  if (!r.certified) fail_msg("%s", r.reason);
  assert_int_equal(cert_exact_verify(&p, o.c, x, o.kappa, NULL, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  if (!strstr(r.reason, "stop and")) fail_msg("%s", r.reason);
  double zero[CERT_PIECE_MAX_CHAINS] = {0};
  assert_int_equal(cert_exact_verify(&p, o.c, x, o.kappa, zero, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  if (!strstr(r.reason, "stop and")) fail_msg("%s", r.reason);
  print_message(
      "Example 6 (2) over chains: %d multipliers (largest %.3g); %d checked events, "
      "largest increase %.3g\n",
      o.nlambda, lmax, chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
}

// An Example 6 region-2 point (stable by Theorem 3) that the program did
// not certify before issue 33 (CSDP's margin -2.5e-7): with the touching
// contact's condition on single impacts it is certified, exactly and
// through 1000 checked runs. The exact check reads the envelope's
// multipliers: on the other side of the slip kappa must exceed 1 / |b3|
// (2 / |b3| certifies this W, 0.999 / |b3| is refused), on V2's own side
// it must be >= 0. (Before the chains, W alone was not positive there; the
// chains' program finds a W that is, with kappa small.)
static void envelope_positivity(void **state) {
  (void)state;
  cert_system sys;
  cert_program_outcome o;
  cert_check_result chk;
  region2_certified("com.x=-0.076923076923077094", "com.y=-0.55128205128205132", &sys, &o, &chk);
  double x[CERT_EXACT_NX];
  unknowns_of(&o, x);
  cert_exact_result r;
  const double ib3 = 1 / fabs(sys.b[2]);
  // The sign conditions' program found nothing, the envelope's did.
  assert_true(o.kappa[0] >= 0 && o.kappa[1] * fabs(sys.b[2]) > 1);
  sys.pieces = o.pieces;  // the exact check of the program that certified
  sys.chains = o.chains;
  double k[2] = {o.kappa[0], 2 * ib3};
  assert_int_equal(cert_exact_verify(&sys, o.c, x, k, o.lambda, &r, NULL), ZENO_OK);
  if (!r.certified) fail_msg("%s", r.reason);
  k[1] = 0.999 * ib3;
  assert_int_equal(cert_exact_verify(&sys, o.c, x, k, o.lambda, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  if (!strstr(r.reason, "other side")) fail_msg("%s", r.reason);
  k[0] = -1e-3;  // a negative multiplier proves nothing
  k[1] = 2 * ib3;
  assert_int_equal(cert_exact_verify(&sys, o.c, x, k, o.lambda, &r, NULL), ZENO_OK);
  assert_false(r.certified);
  if (!strstr(r.reason, "own side")) fail_msg("%s", r.reason);
  print_message(
      "Example 6 (2): kappa %.4g on V2's side, %.4g on the other (1/|b3| = %.4g); "
      "%d checked events, largest increase %.3g\n",
      o.kappa[0], o.kappa[1], ib3, chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
}

// Example 2 (stable, Theorem 4): its accelerating slip FP ends at the
// single impact PF at contact 1 with contact 2 leaving, where V2 may grow
// whatever W (the chains' program is infeasible, CSDP's margin -0.94).
// Asked through the impact (certify_chain_impact.c: the slip, the impact,
// and the next slip's piece to the impact at contact 2 or to its stop) it
// is certified exactly, and 1000 runs comparing the slip's start with the
// end of the next piece never increase V1 or V2.
static void example2_certified(void **state) {
  (void)state;
  zeno_scene s = load("example2.yaml", NULL, 0);
  cert_system sys;
  build(&s, &sys);
  cert_program_outcome o;
  certify_exactly(&sys, &DEGREE2, "example2.yaml", &o);
  assert_true(o.pieces && o.chains && o.through);
  cert_system p = sys;
  p.pieces = p.chains = p.through = true;
  int through = 0, binding = 0;
  for (int k = 0; k < p.ncases; k++)
    for (int m = 0; m < p.nmodes; m++) {
      const cert_mode *n = cert_piece_through_mode(&p, &p.modes[m], &p.cases[k]);
      if (!n) continue;
      through++;
      const char got[5] = {"FSPN"[p.modes[m].mode.letter[0]], "FSPN"[p.modes[m].mode.letter[1]],
                           "FSPN"[n->mode.letter[0]], "FSPN"[n->mode.letter[1]], 0};
      // FP (the one accelerating slip) through its leaving impacts into PF, NF
      assert_true(!strcmp(got, "FPPF") || !strcmp(got, "FPNF"));
      binding += !strcmp(got, "FPPF");
    }
  assert_int_equal(through, 2);
  assert_int_equal(binding, 1);
  cert_check_result chk;
  assert_int_equal(cert_check_check(&s, &sys, &o, 1000, 0.1, 5u, true, NULL, &chk, NULL), ZENO_OK);
  assert_true(chk.events > 1000);
  assert_true(chk.max_increase < 1e-12);
  print_message("Example 2 through FP's impacts: %d checked events, largest increase %.3g\n",
                chk.events, chk.max_increase);
  cert_program_outcome_free(&o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(example4_matches_simulator),
      cmocka_unit_test(newton_matches_simulator),
      cmocka_unit_test(chatterjee_ruina_matches_simulator),
      cmocka_unit_test(energy_is_the_simulators),
      cmocka_unit_test(refusals_and_errors),
      cmocka_unit_test(example4_certified),
      cmocka_unit_test(example7_certified),
      cmocka_unit_test(check_catches_a_wrong_certificate),
      cmocka_unit_test(unstable_points_not_certified),
      cmocka_unit_test(level_floor_certified),
      cmocka_unit_test(sliding_block_certified),
      cmocka_unit_test(piece_conditions_certify),
      cmocka_unit_test(envelope_positivity),
      cmocka_unit_test(chain_conditions_certify),
      cmocka_unit_test(example2_certified),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
