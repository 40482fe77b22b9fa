// The N-contact ZOD engine (src/simn/, issue 34 slices 4 and 5):
//  - the oracle: on random two-contact scenes under all three laws, the
//    same events (kind, modes, impacts, Zeno completions of both orders,
//    floors, reverse chatter) at the same times and states as the
//    two-contact engine, up to a near tie or a ratio test decided by
//    the rounding of its durations;
//  - a third contact that never touches changes nothing, bit for bit;
//  - closed forms: a box sliding into a wall (the impact with both floor
//    contacts closed, post-impact velocities by hand), a flat-bottomed body
//    dropped flat onto three collinear corners (one inelastic impact, rest),
//    the same bouncing under Newton's law to its Zeno limit; the shipped
//    box in a corner comes to rest; error paths.
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dynamics/impact_series.h"
#include "simn/simn.h"
#include "test_util.h"

/// Random scenes of the oracle per law (the issue asks 2,000 over the
/// three laws).
#define ORACLE_SCENES 700
#define SEED 0x73696d6e34ULL
/// Events per run compared at most.
#define ORACLE_EVENTS 400
/// Times and states agree to this, relative to the run's scales (the
/// issue's 1e-12), or within the rounding bounds below.
#define ORACLE_RTOL 1e-12
/// The shadow run's initial rates are moved by this (a few ulps): how far
/// the two-contact engine moves from itself under rounding.
#define SHADOW_RTOL 1e-15
/// The N-contact engine may be this many times further than the shadow
/// (its rounding, an ulp or so per operation, enters at every step, the
/// shadow's only at the start).
#define SHADOW_FACTOR 100
/// A shadow this far from the run (relative) means the motion amplified
/// rounding to a visible size (chaotic flights): the comparison stops.
#define SHADOW_CHAOS 1e-6
/// A completion and an impact within this (relative time) of each other
/// may be a detection decided apart by rounding: the impact is the
/// sequence's next, just before its limit ...
#define TAIL_TIE_RTOL 1e-6
/// ... where the rounding of the sequence's durations (differences of
/// times DBL_EPSILON t apart, the last flight (t_limit - t_impact)
/// (1 - r) / r long) comes within this factor of the ratio test's
/// tolerance SERIES_RATIO_RTOL: one engine's ratios agree to it, the
/// other's not yet (a flight of 3.4e-7 at t = 60: rounding 4e-8).
#define RATIO_ROUNDING_FACTOR 10
/// Rounding of the maps between q' and q that both engines cross at every
/// impact, per unit of their condition number (a scene whose normal at
/// contact 1 passes near contact 2 has q ~ 1000 q').
#define MAP_ROUNDING 1e-15
/// Closed forms: rounding of a few solves.
#define CLOSED_TOL 1e-9

typedef struct oracle_stats {
  int scenes, compared, events, strict, completions, chains, floors, diverging;
  int cut_ratio, cut_tie, cut_sensitive, apart;
  double worst_t, worst_state, worst_shadow;
} oracle_stats;

static zeno_scene oracle_scene(rng *r, zeno_impact_law law) {
  zeno_scene s = draw_law_scene(r, law);
  s.initial_qp[0] = rng_uniform(r, 0, 1);
  s.initial_qp[1] = rng_uniform(r, 0, 1);
  s.initial_qp[2] = rng_uniform(r, -1, 1);
  for (int k = 0; k < 3; k++) s.initial_qdp[k] = rng_uniform(r, -1, 1);
  s.max_events = ORACLE_EVENTS;
  s.ambiguity = ZENO_AMBIGUITY_PREFER_STATIC;
  return s;
}

static void mode_text(const unsigned char *letter, int n, char *out) {
  for (int i = 0; i < n; i++) out[i] = zeno_letter_name((zeno_letter)letter[i]);
  out[n] = '\0';
}

/// One event's time and contact coordinates (z1, x1, z2, x2 and rates).
typedef struct oracle_point {
  double t, c[4], cd[4];
} oracle_point;

static oracle_point point_of_event(const zeno_event *a) {
  oracle_point p = {a->t, {0}, {0}};
  for (int i = 0; i < 2; i++) {
    p.c[2 * i] = a->after.gap[i];
    p.c[2 * i + 1] = a->after.slip[i];
    p.cd[2 * i] = a->after.gap_rate[i];
    p.cd[2 * i + 1] = a->after.slip_rate[i];
  }
  return p;
}

/// Scales of a run so far: its latest time and largest contact coordinates.
typedef struct oracle_scale {
  double t, c, cd;
} oracle_scale;

// Relative distance of two points on the run's scales; x1 (no coordinate
// of q') weighted down by the condition number of q''s map, through which
// both engines form it.
static void distance(const oracle_point *a, const oracle_point *b, const oracle_scale *sc,
                     double cond, double *dt, double *dq) {
  *dt = fabs(a->t - b->t) / fmax(sc->t, 1e-300);
  *dq = 0;
  for (int j = 0; j < 4; j++) {
    const double w = j == 1 ? 1 / cond : 1;
    *dq = fmax(*dq, w * fabs(a->c[j] - b->c[j]) / fmax(sc->c, 1e-300));
    *dq = fmax(*dq, w * fabs(a->cd[j] - b->cd[j]) / fmax(sc->cd, 1e-300));
  }
}

static double condition(const simn_model *m) {
  double na = 0, ni = 0;  // the infinity norms of A and A^-1
  for (int r = 0; r < 3; r++) {
    na = fmax(na, fabs(m->A[r][0]) + fabs(m->A[r][1]) + fabs(m->A[r][2]));
    ni = fmax(ni, fabs(m->Ainv[r][0]) + fabs(m->Ainv[r][1]) + fabs(m->Ainv[r][2]));
  }
  return fmax(1, na * ni);
}

// Runs both engines on one scene, and the two-contact engine again from a
// state moved by SHADOW_RTOL (its own sensitivity to rounding), and
// compares their events: the N-contact engine must stay within
// ORACLE_RTOL, or within SHADOW_FACTOR times the shadow's distance where
// the motion amplifies rounding more than that (chaotic flights).
static void oracle_case(const zeno_scene *s, oracle_stats *st, int index) {
  const zeno_sim_def def = zeno_sim_def_default();
  zeno_scene moved = *s;
  for (int k = 0; k < 3; k++) moved.initial_qdp[k] *= 1 + SHADOW_RTOL;
  zeno_sim *two = zeno_sim_create(s, &def, NULL), *shadow = zeno_sim_create(&moved, &def, NULL);
  if (two == NULL || shadow == NULL) {
    zeno_sim_destroy(two);
    zeno_sim_destroy(shadow);
    return;
  }
  simn_model m;
  assert_int_equal(simn_model_of_scene(s, &m, NULL), ZENO_OK);
  assert_true(m.coord[0] == 0 && m.coord[1] == 2 && m.coord[2] == 3);  // (z1, z2, x2)
  const simn_def nd = simn_def_of_scene(s);
  simn *sn = NULL;
  zeno_error err;
  if (simn_create_prime(&m, &nd, s->initial_qp, s->initial_qdp, &sn, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  st->scenes++;
  const double cond = condition(&m);
  oracle_scale sc = {0, 0, 0};
  bool apart = false, shadow_on = true;
  double gain = 1;  // of the completions so far
  for (int k = 0; k < ORACLE_EVENTS && !apart; k++) {
    zeno_event a, h;
    simn_event b;
    const zeno_status sa = zeno_sim_next_event(two, &a, NULL);
    const zeno_status sb = simn_next_event(sn, &b, &err);
    if (sb != ZENO_OK && sb != ZENO_DONE) fail_msg("case %d: %s", index, err.message);
    if (sa != ZENO_OK) break;
    char ma[8], mb[8], mh[8];
    zeno_mode_name(a.mode_after, 2, ma);
    mode_text(b.mode_after, 2, mb);
    if (shadow_on && zeno_sim_next_event(shadow, &h, NULL) == ZENO_OK) {
      zeno_mode_name(h.mode_after, 2, mh);
      shadow_on = h.kind == a.kind && strcmp(mh, ma) == 0 && h.impact_mask == a.impact_mask;
    } else {
      shadow_on = false;
    }
    if (!shadow_on) {  // rounding alone changes the events: a sensitive run
      st->cut_sensitive++;
      break;
    }
    const oracle_point pa = point_of_event(&a), ph = point_of_event(&h);
    oracle_point pb = {b.t, {0}, {0}};
    memcpy(pb.c, b.c, sizeof pb.c);
    memcpy(pb.cd, b.cd, sizeof pb.cd);
    sc.t = fmax(sc.t, fabs(a.t));
    for (int j = 0; j < 4; j++) {
      sc.c = fmax(sc.c, fabs(pa.c[j]));
      sc.cd = fmax(sc.cd, fabs(pa.cd[j]));
    }
    double dt, dq, ht, hq;
    distance(&pa, &pb, &sc, cond, &dt, &dq);
    distance(&pa, &ph, &sc, cond, &ht, &hq);
    if (fmax(ht, hq) > SHADOW_CHAOS) {  // rounding has grown to a visible size
      st->cut_sensitive++;
      break;
    }
    // An extrapolated limit carries its records' rounding times
    // 1 + r / (1 - r), and every later state that gain.
    if (a.kind == ZENO_EVENT_ZENO && a.zeno_ratio > 0 && a.zeno_ratio < 1)
      gain *= 1 + a.zeno_ratio / (1 - a.zeno_ratio);
    const double allowed = gain * fmax(fmax(ORACLE_RTOL, MAP_ROUNDING * cond),
                                       SHADOW_FACTOR * fmax(ht, hq));
    const bool same = sb == ZENO_OK && a.kind == b.kind && strcmp(ma, mb) == 0 &&
                      a.impact_mask == b.impact_mask &&
                      (a.kind != ZENO_EVENT_ZENO || a.zeno_order == b.zeno_order) &&
                      (a.kind != ZENO_EVENT_END || a.outcome == b.outcome) && dt <= allowed &&
                      dq <= allowed;
    if (same) {
      st->completions += a.kind == ZENO_EVENT_ZENO;
      st->chains += a.kind == ZENO_EVENT_ZENO && a.zeno_order == 2;
      st->floors += a.kind == ZENO_EVENT_ZENO && a.zeno_period == 0;
      st->diverging += a.kind == ZENO_EVENT_END && a.outcome == ZENO_OUTCOME_DIVERGING;
      st->worst_t = fmax(st->worst_t, dt);
      st->worst_state = fmax(st->worst_state, dq);
      st->worst_shadow = fmax(st->worst_shadow, fmax(ht, hq));
    }
    st->events++;
    st->strict += dt <= ORACLE_RTOL && dq <= ORACLE_RTOL;
    if (!same && a.near_tie) {  // a near tie the engines decide apart: explained
      st->cut_tie++;
      break;
    }
    // A completion one engine makes at the impact where the other simulates
    // one more, where the durations' rounding reaches the ratio test's
    // tolerance: the test decided on records equal to rounding.
    if (!same && (a.kind == ZENO_EVENT_ZENO) != (b.kind == ZENO_EVENT_ZENO) &&
        (a.kind == ZENO_EVENT_IMPACT || b.kind == ZENO_EVENT_IMPACT) && dt <= TAIL_TIE_RTOL) {
      const double r = a.kind == ZENO_EVENT_ZENO ? a.zeno_ratio : b.zeno_ratio;
      const double flight = fabs(a.t - b.t) * (1 - r) / r;
      if (r > 0 && r < 1 &&
          DBL_EPSILON * fabs(a.t) / flight * RATIO_ROUNDING_FACTOR >= SERIES_RATIO_RTOL) {
        st->cut_ratio++;
        break;
      }
    }
    if (!same) {
      apart = true;
      printf(
          "simn oracle: case %d (law %d) apart at event %d: two-contact %d %s mask %u "
          "outcome %d t %.17g; N-contact %d %s mask %u outcome %d t %.17g; dt %.3g dq %.3g "
          "(shadow %.3g)\n",
          index, (int)s->impact_law, k, (int)a.kind, ma, a.impact_mask, (int)a.outcome, a.t,
          (int)b.kind, mb, b.impact_mask, (int)b.outcome, b.t, dt, dq, fmax(ht, hq));
    }
    if (a.kind == ZENO_EVENT_END) break;
  }
  st->compared++;
  if (apart) st->apart++;
  simn_destroy(sn);
  zeno_sim_destroy(two);
  zeno_sim_destroy(shadow);
}

static void test_oracle_two_contacts(void **state) {
  (void)state;
  oracle_stats st = {0};
  rng r = {SEED};
  const zeno_impact_law laws[3] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON, ZENO_LAW_CHATTERJEE_RUINA};
  int index = 0;
  for (int l = 0; l < 3; l++)
    for (int c = 0; c < ORACLE_SCENES; c++, index++) {
      const zeno_scene s = oracle_scene(&r, laws[l]);
      if (zeno_scene_validate(&s, NULL) != ZENO_OK) continue;
      oracle_case(&s, &st, index);
    }
  printf(
      "simn oracle: %d scenes, %d compared, %d events (%d within %g; %d Zeno completions, %d "
      "of them chains, %d at a floor; %d diverging ends); cut at a ratio test decided by "
      "rounding %d, apart at a near tie %d, where rounding changes the two-contact run %d; "
      "apart %d; largest distance: time %.3g, state %.3g (the shadow's %.3g)\n",
      st.scenes, st.compared, st.events, st.strict, ORACLE_RTOL, st.completions, st.chains,
      st.floors, st.diverging, st.cut_ratio, st.cut_tie, st.cut_sensitive, st.apart, st.worst_t,
      st.worst_state, st.worst_shadow);
  assert_true(st.compared >= 1500);
  assert_true(st.events >= 30000);
  assert_true(st.chains >= 100);  // chains of completions are compared, not cut
  assert_int_equal(st.apart, 0);
}

/* ---- a contact that never touches ---------------------------------------- */

/// The far contact's surface lies this many length scales from the body:
/// beyond the escape radius (ZENO_ESCAPE_RADIUS_SCALES), so no run reaches
/// it before it ends.
#define FAR_SCALES 1e7
/// Scenes of the far-contact test (the oracle's first ones).
#define FAR_SCENES 400

// The model with a third contact at the centre of mass on a surface of
// angle phi, FAR_SCALES length scales away.
static simn_model with_far_contact(const simn_model *m2, double phi) {
  simn_model m3 = *m2;
  m3.n = m3.dyn.n = 3;
  const double t[2] = {cos(phi), sin(phi)}, nrm[2] = {-t[1], t[0]};
  for (int k = 0; k < 2; k++) {
    m3.dyn.W[k][4] = nrm[k];
    m3.dyn.W[k][5] = t[k];
  }
  m3.dyn.W[2][4] = m3.dyn.W[2][5] = 0;  // at the centre of mass: no lever
  m3.dyn.mu[2] = 0.5;
  m3.gap0[2] = FAR_SCALES * m2->length_scale;
  assert_int_equal(simn_model_fix(&m3, NULL), ZENO_OK);
  return m3;
}

static void test_far_contact_changes_nothing(void **state) {
  (void)state;
  rng r = {SEED};
  int runs = 0, events = 0, completions = 0, chains = 0;
  double worst = 0;
  for (int c = 0; c < FAR_SCENES; c++) {
    const zeno_scene s = oracle_scene(&r, c % 3 == 0   ? ZENO_LAW_INELASTIC
                                          : c % 3 == 1 ? ZENO_LAW_NEWTON
                                                       : ZENO_LAW_CHATTERJEE_RUINA);
    simn_model m2;
    if (simn_model_of_scene(&s, &m2, NULL) != ZENO_OK) continue;
    const simn_model m3 = with_far_contact(&m2, rng_uniform(&r, -3, 3));
    assert_true(m3.coord[0] == 0 && m3.coord[1] == 2 && m3.coord[2] == 3);
    const simn_def def = simn_def_of_scene(&s);
    simn *a = NULL, *b = NULL;
    assert_int_equal(simn_create_prime(&m2, &def, s.initial_qp, s.initial_qdp, &a, NULL), ZENO_OK);
    assert_int_equal(simn_create_prime(&m3, &def, s.initial_qp, s.initial_qdp, &b, NULL), ZENO_OK);
    simn_event ea, eb;
    double tscale = 0, cscale = 0;
    for (;;) {
      zeno_error ra, rb;
      const zeno_status sa = simn_next_event(a, &ea, &ra), sb = simn_next_event(b, &eb, &rb);
      if (sa != sb)
        fail_msg("case %d: %d (%s) / %d (%s) after %s / %s", c, (int)sa,
                 sa == ZENO_OK || sa == ZENO_DONE ? "" : ra.message, (int)sb,
                 sb == ZENO_OK || sb == ZENO_DONE ? "" : rb.message, simn_word(a), simn_word(b));
      if (sa != ZENO_OK) break;
      if (ea.kind != eb.kind || ea.impact_mask != eb.impact_mask ||
          memcmp(ea.mode_after, eb.mode_after, 2) != 0)
        fail_msg("case %d event %ld apart: %s / %s", c, ea.index, simn_word(a), simn_word(b));
      assert_int_equal(eb.mode_after[2], ZENO_LETTER_F);
      assert_int_equal(ea.outcome, eb.outcome);
      tscale = fmax(tscale, fabs(ea.t));
      for (int j = 0; j < 4; j++) cscale = fmax(cscale, fmax(fabs(ea.c[j]), fabs(ea.cd[j])));
      double d = fabs(ea.t - eb.t) / fmax(tscale, 1e-300);
      for (int j = 0; j < 4; j++)
        d = fmax(d,
                 fmax(fabs(ea.c[j] - eb.c[j]), fabs(ea.cd[j] - eb.cd[j])) / fmax(cscale, 1e-300));
      worst = fmax(worst, d);
      events++;
      completions += ea.kind == ZENO_EVENT_ZENO;
      chains += ea.kind == ZENO_EVENT_ZENO && ea.zeno_order == 2;
      assert_int_equal(ea.zeno_order, eb.zeno_order);
    }
    // The same word: each mode and impact token with the far contact's F
    // added, each Z as it is.
    const char *wa = simn_word(a), *wb = simn_word(b);
    for (;;) {
      const size_t la = strcspn(wa, " "), lb = strcspn(wb, " ");
      const bool zeno = la == 1 && wa[0] == 'Z';
      assert_true(zeno ? lb == 1 && wb[0] == 'Z'
                       : lb == la + 1 && strncmp(wa, wb, la) == 0 && wb[la] == 'F');
      wa += la;
      wb += lb;
      assert_true(*wa == *wb);
      if (*wa == '\0') break;
      wa++;
      wb++;
    }
    simn_destroy(a);
    simn_destroy(b);
    runs++;
  }
  printf(
      "simn far contact: %d runs, %d events, %d Zeno completions (%d chains), the same words; "
      "largest distance %.3g\n",
      runs, events, completions, chains, worst);
  assert_true(runs >= 300);
  assert_true(chains >= 1);  // the chain's rules see the third contact too
  assert_true(worst <= ORACLE_RTOL);
}

/* ---- closed forms -------------------------------------------------------- */

// |a - b| <= tol, printing both when not.
static void assert_near(double a, double b, double tol) {
  if (!(fabs(a - b) <= tol)) fail_msg("%.17g != %.17g (tolerance %g)", a, b, tol);
}

/// g, the box's half sizes, its friction on the floor and the wall.
#define BOX_G 9.81
#define BOX_B 1.0
#define BOX_H 0.5

// A box of half sizes (b, h), m = 1, on a level floor under gravity, with
// contacts at its bottom corners (the caller adds more).
static zeno_scene box_scene(double mu) {
  zeno_scene s = zeno_scene_default();
  s.mass = 1;
  s.rho = sqrt((BOX_B * BOX_B + BOX_H * BOX_H) / 3);
  s.load_magnitude = BOX_G;
  s.load_angle = 0;
  s.load_torque = 0;
  s.contact_count = 2;
  const double x[2] = {-BOX_B, BOX_B};
  for (int i = 0; i < 2; i++) {
    s.contacts[i].point[0] = x[i];
    s.contacts[i].point[1] = -BOX_H;
    s.contacts[i].surface_angle = 0;
    s.contacts[i].surface_point_set = false;
    s.contacts[i].mu = mu;
  }
  s.ambiguity = ZENO_AMBIGUITY_PREFER_STATIC;
  s.initial_kind = ZENO_INITIAL_POSE;  // q' is the two-contact form
  return s;
}

// The box slides along the floor (mu) at v0 into a wall a distance d ahead
// of its right face, touching at the face's middle (the centre's height):
// V^2 = v0^2 - 2 mu g d at the wall, and the inelastic impact's impulse
// m V along the face's normal stops the box: its line passes through the
// centre of mass, so it turns nothing and the floor corners, closed, take
// none. The box then rests against the wall.
static void test_box_slides_into_wall(void **state) {
  (void)state;
  const double mu = 0.3, v0 = 2.0, d = 0.1;
  zeno_scene s = box_scene(mu);
  s.contact_count = 3;
  s.contacts[2].point[0] = BOX_B;
  s.contacts[2].point[1] = 0;
  s.contacts[2].surface_angle = ZENO_PI / 2;  // the wall: normal (-1, 0), pushing back
  s.contacts[2].surface_point_set = false;
  s.contacts[2].mu = 0.5;
  s.impact_law = ZENO_LAW_INELASTIC;
  simn_model m;
  assert_int_equal(simn_model_of_scene(&s, &m, NULL), ZENO_OK);
  m.gap0[2] = d;
  assert_int_equal(simn_model_fix(&m, NULL), ZENO_OK);
  const simn_def def = simn_def_of_scene(&s);
  const double q0[3] = {0, 0, 0}, qd0[3] = {v0, 0, 0};
  simn *run = NULL;
  assert_int_equal(simn_create(&m, &def, q0, qd0, &run, NULL), ZENO_OK);
  const double V = sqrt(v0 * v0 - 2 * mu * BOX_G * d), t_hit = (v0 - V) / (mu * BOX_G);
  simn_event ev;
  int impacts = 0;
  zeno_outcome outcome = ZENO_OUTCOME_RUNNING;
  while (simn_next_event(run, &ev, NULL) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT) {
      impacts++;
      assert_near(ev.t, t_hit, CLOSED_TOL);
      assert_int_equal(ev.impact_mask & 4u, 4u);
      assert_near(ev.impulse[4], V, CLOSED_TOL);  // m V at the wall
      assert_near(ev.impulse[5], 0, CLOSED_TOL);
      assert_near(ev.impulse[0] + ev.impulse[2], 0, CLOSED_TOL);
      for (int k = 0; k < 3; k++) assert_near(ev.qd[k], 0, CLOSED_TOL);
      assert_near(ev.q[0], d, CLOSED_TOL);
    }
    if (ev.kind == ZENO_EVENT_END) outcome = ev.outcome;
  }
  assert_int_equal(impacts, 1);
  assert_int_equal(outcome, ZENO_OUTCOME_REST);
  assert_string_equal(simn_word(run), "PPF FFI SSS");
  simn_destroy(run);
}

// A run of the box (its law set by the caller) with a third bottom corner
// between the two, held flat a height d above the floor, from rest.
static simn *drop_on_three_corners(zeno_scene *s, double d) {
  s->contact_count = 3;
  s->contacts[2] = s->contacts[0];
  s->contacts[2].point[0] = 0.25;
  simn_model m;
  assert_int_equal(simn_model_of_scene(s, &m, NULL), ZENO_OK);
  for (int i = 0; i < 3; i++) m.gap0[i] = d;
  assert_int_equal(simn_model_fix(&m, NULL), ZENO_OK);
  const simn_def def = simn_def_of_scene(s);
  const double zero[3] = {0, 0, 0};
  simn *run = NULL;
  assert_int_equal(simn_create(&m, &def, zero, zero, &run, NULL), ZENO_OK);
  return run;
}

// A flat-bottomed body dropped flat from a height d onto three collinear
// corners: they land at once at t = sqrt(2 d / g) with speed sqrt(2 g d),
// and one inelastic impact stops the body whatever the split of the
// impulses (their sum is m V). It rests.
static void test_three_corners_dropped_flat(void **state) {
  (void)state;
  const double d = 0.2;
  zeno_scene s = box_scene(0.4);
  s.impact_law = ZENO_LAW_INELASTIC;
  simn *run = drop_on_three_corners(&s, d);
  simn_event ev;
  int impacts = 0;
  zeno_outcome outcome = ZENO_OUTCOME_RUNNING;
  while (simn_next_event(run, &ev, NULL) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT) {
      impacts++;
      assert_near(ev.t, sqrt(2 * d / BOX_G), CLOSED_TOL);
      assert_near(ev.impulse[0] + ev.impulse[2] + ev.impulse[4], sqrt(2 * BOX_G * d), CLOSED_TOL);
      for (int k = 0; k < 3; k++) assert_near(ev.qd[k], 0, CLOSED_TOL);
      for (int i = 0; i < 3; i++) {
        assert_true(ev.impulse[2 * i] >= -CLOSED_TOL);
        assert_near(ev.c[2 * i], 0, CLOSED_TOL);
      }
    }
    if (ev.kind == ZENO_EVENT_END) outcome = ev.outcome;
  }
  assert_int_equal(impacts, 1);
  assert_int_equal(outcome, ZENO_OUTCOME_REST);
  simn_destroy(run);
}

// The same body dropped flat with Newton's restitution e: it bounces on
// its three corners at once (each leaves at e times its approach speed), each flight e times the last, and the
// sequence accumulates at t1 + 2 e v1 / (g (1 - e)) (t1 = sqrt(2 d / g),
// v1 = sqrt(2 g d)), where the N-contact engine completes it (one ZENO
// event, ratio e, period one impact) and the body rests on its corners.
static void test_three_corners_bounce_to_rest(void **state) {
  (void)state;
  const double d = 0.2, e = 0.5;
  zeno_scene s = box_scene(0.4);
  s.impact_law = ZENO_LAW_NEWTON;
  s.restitution = e;
  simn *run = drop_on_three_corners(&s, d);
  const double t1 = sqrt(2 * d / BOX_G), v1 = sqrt(2 * BOX_G * d);
  const double t_limit = t1 + 2 * e * v1 / (BOX_G * (1 - e));
  simn_event ev;
  int completions = 0, impacts = 0;
  zeno_outcome outcome = ZENO_OUTCOME_RUNNING;
  while (simn_next_event(run, &ev, NULL) == ZENO_OK) {
    if (ev.kind == ZENO_EVENT_IMPACT) {
      impacts++;
      // Two corners suffice to return the body at e v (the law takes the
      // fewest contacts); the third is left touching at the same speed.
      assert_true(ev.impact_mask != 0);
      for (int i = 0; i < 3; i++) assert_near(ev.cd[2 * i], v1 * pow(e, impacts), CLOSED_TOL);
      assert_near(ev.qd[1], v1 * pow(e, impacts), CLOSED_TOL);
    }
    if (ev.kind == ZENO_EVENT_ZENO) {
      completions++;
      assert_near(ev.t, t_limit, CLOSED_TOL);
      assert_near(ev.zeno_ratio, e, CLOSED_TOL);
      assert_int_equal(ev.zeno_period, 1);
      assert_int_equal(ev.zeno_impacts, impacts);
      for (int i = 0; i < 3; i++) assert_near(ev.c[2 * i], 0, CLOSED_TOL);
      for (int k = 0; k < 3; k++) assert_near(ev.qd[k], 0, CLOSED_TOL);
    }
    if (ev.kind == ZENO_EVENT_END) outcome = ev.outcome;
  }
  assert_int_equal(completions, 1);
  assert_true(impacts >= 5);
  assert_int_equal(outcome, ZENO_OUTCOME_REST);
  const char *w = simn_word(run);
  assert_string_equal(w + strlen(w) - strlen("Z SSS"), "Z SSS");
  simn_destroy(run);
}

// The shipped scene scenes/box-in-a-corner.yaml.
static zeno_scene box_in_a_corner(void) {
  zeno_scene s;
  zeno_error err;
  if (zeno_scene_load(ZENO_SCENES_DIR "/box-in-a-corner.yaml", NULL, 0, &s, &err) != ZENO_OK)
    fail_msg("%s", err.message);
  return s;
}

// The shipped box in a corner (scenes/box-in-a-corner.yaml: two floor
// corners and a wall, its load pushing down and into the wall), let go a
// little away from the corner, tilted: it falls, strikes (and under
// Newton's law chatters, the bounces completed) and comes to rest in the
// corner on at least two sticking contacts, under both laws.
static void test_box_in_a_corner_settles(void **state) {
  (void)state;
  zeno_scene s = box_in_a_corner();
  zeno_error err;
  const zeno_impact_law laws[2] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON};
  for (int l = 0; l < 2; l++) {
    s.impact_law = laws[l];
    s.restitution = l == 0 ? 0 : 0.5;
    simn_model m;
    assert_int_equal(simn_model_of_scene(&s, &m, NULL), ZENO_OK);
    const simn_def def = simn_def_of_scene(&s);
    const double q0[3] = {0.01, 0.02, 0.01}, qd0[3] = {0, 0, 0};
    simn *run = NULL;
    assert_int_equal(simn_create(&m, &def, q0, qd0, &run, NULL), ZENO_OK);
    simn_event ev;
    int completions = 0, impacts = 0;
    while (simn_next_event(run, &ev, &err) == ZENO_OK) {
      completions += ev.kind == ZENO_EVENT_ZENO;
      impacts += ev.kind == ZENO_EVENT_IMPACT;
      if (ev.kind != ZENO_EVENT_END) continue;
      printf(
          "simn box in a corner (%s): %s after %ld events, %d impacts, %d completions, t = %.6g\n",
          l == 0 ? "inelastic" : "Newton e = 0.5",
          ev.outcome == ZENO_OUTCOME_REST ? "rest" : "not at rest", ev.index, impacts, completions,
          ev.t);
      if (ev.outcome != ZENO_OUTCOME_REST)
        fail_msg("outcome %d: %s", (int)ev.outcome, simn_word(run));
      // At rest on its closed contacts, sticking; an open one above its
      // surface (the inelastic run jams the box between the wall and the
      // right floor corner, its left corner 1.9e-5 up: FSS).
      int closed = 0;
      for (int i = 0; i < 3; i++) {
        const int letter = ev.mode_after[i];
        assert_true(letter == ZENO_LETTER_S || letter == ZENO_LETTER_F);
        if (letter == ZENO_LETTER_S) assert_near(ev.c[2 * i], 0, CLOSED_TOL), closed++;
        else assert_true(ev.c[2 * i] > 0);
      }
      assert_true(closed >= 2);
      for (int k = 0; k < 3; k++) assert_near(ev.qd[k], 0, CLOSED_TOL);
    }
    if (l == 1) assert_true(completions >= 1);  // bounces accumulate under restitution
    simn_destroy(run);
  }
}

/// The full model's scale for the rounding floor's test: positions
/// eps^2, times eps.
#define FULL_EPS 1e-2

// The run of a scene's model from the pose q0 (generalised, rest): under
// the ZOD, or in the full model at FULL_EPS (its end's time back on the
// ZOD's scale). Counts its events and its completions at a floor.
static zeno_outcome run_box(const zeno_scene *s, const double q0[3], bool full, double *t_end,
                            long *events, int *floors) {
  simn_model m;
  assert_int_equal(simn_model_of_scene(s, &m, NULL), ZENO_OK);
  simn_def def = simn_def_of_scene(s);
  m.full = full;
  const double L = full ? FULL_EPS * FULL_EPS : 1, T = full ? FULL_EPS : 1;
  double q[3];
  const double qd[3] = {0, 0, 0};
  for (int k = 0; k < 3; k++) q[k] = L * q0[k];
  def.t_end *= T;
  def.escape_radius = L * ZENO_ESCAPE_RADIUS_SCALES * m.length_scale;
  simn *run = NULL;
  assert_int_equal(simn_create(&m, &def, q, qd, &run, NULL), ZENO_OK);
  simn_event ev;
  zeno_outcome outcome = ZENO_OUTCOME_RUNNING;
  *floors = 0;
  while (simn_next_event(run, &ev, NULL) == ZENO_OK) {
    *floors += ev.kind == ZENO_EVENT_ZENO && ev.zeno_period == 0;
    if (ev.kind != ZENO_EVENT_END) continue;
    outcome = ev.outcome;
    *t_end = ev.t / T;
    *events = ev.index + 1;
  }
  simn_destroy(run);
  return outcome;
}

// The full model's rounding floor (sim_zeno_ratio.c's rule, in the
// N-contact engine): the box in a corner under Newton's law (e = 0.5) at
// eps = 1e-2 chatters until a bounce is lost in the rounding of the
// positions, and is completed there, as the ZOD's chatters are at theirs:
// it rests within twice the ZOD's events (68, two completions at the
// floor; before the rule, and before simn_full.c's finer length scale and
// rewind, it bounced on to the 20,000-impact rule: 20,094 events, resting
// 5.6e-4 late), at the ZOD's time to eps^2 (measured 1e-8).
static void test_full_chatter_completed_at_rounding(void **state) {
  (void)state;
  zeno_scene s = box_in_a_corner();
  s.impact_law = ZENO_LAW_NEWTON;
  s.restitution = 0.5;
  const double q0[3] = {0.01, 0.02, 0.01};
  double t_zod = 0, t_full = 0;
  long n_zod = 0, n_full = 0;
  int floors_zod = 0, floors_full = 0;
  assert_int_equal(run_box(&s, q0, false, &t_zod, &n_zod, &floors_zod), ZENO_OUTCOME_REST);
  assert_int_equal(run_box(&s, q0, true, &t_full, &n_full, &floors_full), ZENO_OUTCOME_REST);
  printf(
      "simn full-model rounding floor: rest after %ld events (ZOD %ld), %d floor completions, "
      "t %.9g (ZOD %.9g)\n",
      n_full, n_zod, floors_full, t_full, t_zod);
  assert_true(n_full <= 2 * n_zod);
  assert_true(floors_full >= 1);
  assert_true(fabs(t_full - t_zod) <= FULL_EPS * FULL_EPS * t_zod);
}

// Error paths: a run's arguments, and a class of more closed contacts than
// the mode selection enumerates (nine corners landing at once).
static void test_errors(void **state) {
  (void)state;
  zeno_scene s = box_scene(0.4);
  s.contact_count = 9;
  for (int i = 0; i < 9; i++) {
    s.contacts[i] = s.contacts[0];
    s.contacts[i].point[0] = -1 + 0.25 * i;
  }
  simn_model m;
  assert_int_equal(simn_model_of_scene(&s, &m, NULL), ZENO_OK);
  const simn_def def = simn_def_of_scene(&s);
  const double zero[3] = {0, 0, 0}, bad[3] = {0, NAN, 0};
  simn *run = NULL;
  zeno_error err;
  assert_int_equal(simn_create(NULL, &def, zero, zero, &run, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(simn_create(&m, &def, bad, zero, &run, &err), ZENO_ERR_ARGUMENT);
  assert_string_equal(err.parameter, "initial");
  simn_model none = m;
  none.n = 0;
  assert_int_equal(simn_create(&none, &def, zero, zero, &run, &err), ZENO_ERR_ARGUMENT);
  assert_string_equal(err.parameter, "contacts");
  assert_null(run);
  simn_event ev;
  assert_int_equal(simn_next_event(NULL, &ev, &err), ZENO_ERR_ARGUMENT);
  for (int i = 0; i < 9; i++) m.gap0[i] = 0.1;
  assert_int_equal(simn_model_fix(&m, NULL), ZENO_OK);
  assert_int_equal(simn_create(&m, &def, zero, zero, &run, NULL), ZENO_OK);
  zeno_status st;
  while ((st = simn_next_event(run, &ev, &err)) == ZENO_OK) continue;
  assert_int_equal(st, ZENO_ERR_UNSUPPORTED);
  assert_string_equal(err.parameter, "contacts");
  // The centre corner's impulse alone stops the flat fall (it is under the
  // centre of mass); then nine closed contacts admit 4^9 letter patterns.
  assert_non_null(strstr(err.message, "262144 letter patterns"));
  simn_destroy(run);
  simn_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_oracle_two_contacts),
      cmocka_unit_test(test_far_contact_changes_nothing),
      cmocka_unit_test(test_box_slides_into_wall),
      cmocka_unit_test(test_three_corners_dropped_flat),
      cmocka_unit_test(test_three_corners_bounce_to_rest),
      cmocka_unit_test(test_box_in_a_corner_settles),
      cmocka_unit_test(test_full_chatter_completed_at_rounding),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
