// Seeded property tests over random two-contact equilibria in the paper's
// parameterisation (Fig. 1), filtered to feasible, non-ambiguous,
// Painlevé-free equilibria with the index order (13), each perturbed at
// random. For every case:
// - no NaN or Inf anywhere in any event; every located guard's residual is
//   bounded; inelastic impacts never add energy; gaps never go negative;
//   the final status is one of the documented outcomes;
// - ZOD invariances (23) (shift of x2), (24) (positions x beta^2, rates x
//   beta, times x beta) and (28) (a tangential speed added to a slip-only
//   run adds beta t to x2) hold to rounding;
// - the full model at eps = 1e-3 and the ZOD agree on the mode word (up to
//   the number of repetitions of a chatter period) in >= 95 % of cases, and
//   every disagreement is explained by an event that zeno reports as a
//   near tie at the scale eps (see TIE_EXPLAIN).
// The case count comes from argv[1] or ZENO_PROPERTY_CASES (default 500),
// so the same binary runs hundreds of cases in the default suite and
// thousands in the `slow` one; ZENO_PROPERTY_SEED changes the seed and
// ZENO_PROPERTY_VERBOSE=1 prints each disagreement.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "test_util.h"
#include "test_words.h"

/// Cases when neither argv nor the environment says.
#define DEFAULT_CASES 500
/// Default seed of the generator (any fixed value: the runs are reproducible).
#define DEFAULT_SEED 20261123u
/// Random draws per accepted case at most (the filter keeps about 1 in 4).
#define MAX_DRAWS_PER_CASE 200
/// Events per run in the default suite: long chatters are completed well
/// before this; a run reaching it ends with event-limit, itself a
/// documented outcome. The slow suite runs to the scenes' own default
/// (ZENO_PROPERTY_MAX_EVENTS=100000, zeno_scene_default()), where an
/// `event-limit` is one a user would meet: a slowly decaying chatter at
/// both contacts in turn took up to 30,000 events (at 4000, 41 of 20,000
/// restitution runs ended there while the full model rested).
#define MAX_EVENTS 4000
/// The scenes' default event limit (zeno_scene_default()).
#define SCENE_MAX_EVENTS 100000
/// Perturbation scale of the full model (paper Sec. 3.3).
#define EPS 1e-3
/// The full model differs from the ZOD by relative corrections of order
/// eps (positions eps^2 (1 + O(eps))), so a decision whose relative margin
/// is below a few eps may go the other way in the full model. Margins up to
/// 10 eps explain a disagreement; anything larger is a bug.
#define TIE_EXPLAIN (10 * EPS)
/// Required agreement of the mode words.
#define MIN_AGREEMENT 0.95
/// Guard residuals, relative to the segment's own scale: the ZOD locates
/// roots in closed form (rounding, about 1e-15); CVODE's root finding
/// reaches 1e-10 at rtol = 1e-10 on ordinary segments
/// (tests/test_full_model.c), but a chatter's last bounces before the
/// library's rounding floor (SIM_FULL_BOUNCE_ULPS: 1e6 ulps of the
/// positions) are located to about 1e-7 of their own tiny height.
#define ZOD_RESIDUAL_MAX 1e-9
#define FULL_RESIDUAL_MAX 1e-6
/// Energy may not grow at an inelastic impact beyond rounding of the
/// energy's own size.
#define ENERGY_RTOL 1e-9
/// Invariances hold to rounding of the exact segments (test_sim_zod.c),
/// which accumulates along a run: every event adds a few ulps, amplified by
/// the impact maps of a slowly converging chatter (measured 2e-9 after 2000
/// events at a period ratio near 1).
#define INVARIANCE_RTOL 1e-9
#define INVARIANCE_RTOL_PER_EVENT 1e-11
/// A Zeno limit is extrapolated from the last periods; runs that complete
/// it at different periods agree on it to about the ratio's rounding
/// amplified by 1/(1 - r) (zeno_error): 1e-6 of the run's scale is ample.
#define ZENO_LIMIT_RTOL 1e-6
/// Scale of (24): positions x 1e-6, rates x 1e-3.
#define SCALE_BETA 1e-3
/// Shift of (23) in x2 [length].
#define SHIFT_BETA 3.7
/// Tangential speed of (28), as a fraction of the run's speed scale: small,
/// so a slip keeps its sign unless it was within that of zero (a near tie).
#define TANGENTIAL_BETA 1e-7
/// A free contact's gap below -this times the run's largest gap is a
/// penetration (a missed impact). ZOD gaps are exact coordinates; the full
/// model's are differences of positions with rounding 1e-16 of them, and a
/// Zeno limit extrapolated from inexact periods loses a few digits more.
#define ZOD_GAP_RTOL 1e-12
#define FULL_GAP_RTOL 1e-9

/* ---- generator ----------------------------------------------------------- */

// The generator (rng, rng_uniform) is test_util.h's.

/// Events per run: MAX_EVENTS, or ZENO_PROPERTY_MAX_EVENTS.
static long g_max_events = MAX_EVENTS;

typedef struct prop_case {
  zeno_paper_params p;
  double qp[3], qdp[3];
} prop_case;

// The paper's examples span these ranges (angles in degrees, m = rho = |f|
// = 1, tau = 0).
static prop_case draw_case(rng *r) {
  prop_case c;
  c.p = draw_paper_params(r);
  c.qp[0] = rng_uniform(r, 0, 1);
  c.qp[1] = rng_uniform(r, 0, 1);
  c.qp[2] = rng_uniform(r, -1, 1);
  for (int k = 0; k < 3; k++) c.qdp[k] = rng_uniform(r, -1, 1);
  return c;
}

static zeno_scene case_scene(const prop_case *c) {
  zeno_scene s = paper_scene(c->p, c->qp, c->qdp);
  s.max_events = g_max_events;
  // A radius of its own, not the body-relative default: the scaling
  // property (24) scales it with the state, which the body does not follow.
  s.escape_radius = ZENO_ESCAPE_RADIUS_SCALES;
  return s;
}

// Feasible, non-ambiguous (Theorem 1), Painlevé-free (11), index order
// (13), not wedged, and a valid ZOD coordinate map.
static bool acceptable(const zeno_scene *s) {
  zeno_equilibrium_report rep;
  if (zeno_equilibrium_check(s, &rep, NULL) != ZENO_OK) return false;
  if (!rep.feasible || rep.ambiguous_count != 0 || rep.wedged) return false;
  if (!rep.painleve_ok[0] || !rep.painleve_ok[1] || !rep.index_order_ok) return false;
  zeno_sim *sim = zeno_sim_create(s, NULL, NULL);
  zeno_sim_destroy(sim);
  return sim != NULL;
}

/* ---- runs ---------------------------------------------------------------- */

typedef struct prop_run {
  zeno_event *events;
  int count;
  zeno_summary summary;
  char *word;
  double min_tie;  ///< smallest tie_margin over the events
} prop_run;

static void prop_free(prop_run *r) {
  free(r->events);
  free(r->word);
  memset(r, 0, sizeof *r);
}

static void prop_exec(const zeno_scene *s, double tie_rtol, prop_run *r) {
  memset(r, 0, sizeof *r);
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  def.tie_rtol = tie_rtol;
  zeno_error err;
  zeno_sim *sim = zeno_sim_create(s, &def, &err);
  assert_non_null(sim);
  r->events = collect_events(sim, &r->count);
  assert_non_null(r->events);
  r->min_tie = INFINITY;
  for (int k = 0; k < r->count; k++) r->min_tie = fmin(r->min_tie, r->events[k].tie_margin);
  assert_true(r->count <= g_max_events + 1);
  zeno_sim_summary(sim, &r->summary);
  // No run ends past its time limit (a Zeno limit beyond t_end is not
  // jumped to; the full model used to, by up to 8 times t_end).
  if (!(r->summary.t <= s->t_end))
    fail_msg("a run ended at t = %.17g > t_end = %.17g", r->summary.t, s->t_end);
  const size_t n = zeno_sim_word(sim, NULL, 0);
  r->word = malloc(n + 1);
  zeno_sim_word(sim, r->word, n + 1);
  zeno_sim_destroy(sim);
}

/* ---- health of one run --------------------------------------------------- */

static const struct prop_case *g_current;  ///< printed when a check fails
/// The restitution of the current case (restitution_cases), printed with it.
static zeno_impact_law g_law = ZENO_LAW_INELASTIC;
static double g_e, g_et;
static void print_case(const struct prop_case *c);

static void check_finite_state(const zeno_state *st) {
  assert_true(isfinite(st->t) && isfinite(st->energy));
  for (int k = 0; k < 3; k++)
    assert_true(isfinite(st->q[k]) && isfinite(st->qdot[k]) && isfinite(st->zod[k]) &&
                isfinite(st->zod_rate[k]));
  for (int i = 0; i < ZENO_PAIR_CONTACTS; i++) {
    assert_true(isfinite(st->gap[i]) && isfinite(st->gap_rate[i]));
    assert_true(isfinite(st->slip[i]) && isfinite(st->slip_rate[i]));
    assert_true(isfinite(st->force[i][0]) && isfinite(st->force[i][1]));
  }
}

static bool documented_outcome(zeno_outcome o, bool full) {
  switch (o) {
    case ZENO_OUTCOME_REST:
    case ZENO_OUTCOME_ESCAPED:
    case ZENO_OUTCOME_DIVERGING:
    case ZENO_OUTCOME_AMBIGUOUS:
    case ZENO_OUTCOME_INCONSISTENT:
    case ZENO_OUTCOME_TIME_LIMIT:
    case ZENO_OUTCOME_EVENT_LIMIT: return true;
    case ZENO_OUTCOME_SOLVER_FAILURE: return full;  // the ZOD has no solver
    default: return false;
  }
}

// restitution: Newton's law with friction can add energy at an impact
// (reported as energy_gain; every other law must dissipate), and a chatter
// with restitution runs its speeds down to underflow (chained Zeno
// sequences, not completed as one), where the guard residual's own scale,
// a speed squared, is no longer a number: the residual is then not
// checked, the gaps are.
static void check_health_of(const prop_run *r, bool full, bool restitution, bool energy_may_grow) {
  const double residual_max = full ? FULL_RESIDUAL_MAX : ZOD_RESIDUAL_MAX;
  // Length scale of the run: its largest gap.
  double len = 0;
  for (int i = 0; i < r->count; i++)
    for (int c = 0; c < 2; c++) len = fmax(len, fabs(r->events[i].before.gap[c]));
  for (int i = 0; i < r->count; i++) {
    const zeno_event *e = &r->events[i];
    if (!(isfinite(e->t) && isfinite(e->guard_residual))) {
      printf("%s event %d (%s, %s): t %g, guard residual %g\n", full ? "full" : "ZOD", i,
             zeno_event_kind_name(e->kind), zeno_guard_name(e->guard), e->t, e->guard_residual);
      print_case(g_current);
      fail();
    }
    assert_true(isfinite(e->tie_margin) && e->tie_margin >= 0);
    check_finite_state(&e->before);
    check_finite_state(&e->after);
    for (int c = 0; c < 2; c++)
      assert_true(isfinite(e->impulse[c][0]) && isfinite(e->impulse[c][1]));
    if ((e->kind == ZENO_EVENT_IMPACT || e->kind == ZENO_EVENT_TRANSITION) && !restitution &&
        !(e->guard_residual <= residual_max)) {
      printf("%s event %d (%s, %s): guard residual %g\n", full ? "full" : "ZOD", i,
             zeno_event_kind_name(e->kind), zeno_guard_name(e->guard), e->guard_residual);
      print_case(g_current);
      fail();
    }
    if (e->kind == ZENO_EVENT_IMPACT) {
      // Inelastic law (15) and Chatterjee-Ruina: kinetic energy falls,
      // potential is continuous. A gain is reported as such.
      const double scale = fmax(fabs(e->before.energy), fabs(e->after.energy));
      const bool gained = e->after.energy > e->before.energy + ENERGY_RTOL * scale;
      if (gained && !energy_may_grow) {
        printf("%s event %d: impact (mask %u) added energy %g of %g\n", full ? "full" : "ZOD", i,
               e->impact_mask, e->after.energy - e->before.energy, e->before.energy);
        print_case(g_current);
        fail();
      }
      if (gained) assert_true(e->energy_gain > 0);
      assert_true(e->energy_gain >= 0);
    }
    // A free contact never goes below its surface (a missed impact);
    // closed ones drift within constraint_drift (full model). A ZENO
    // event's state before is the extrapolated limit (its error is
    // zeno_error; amplified by 1/(1 - r) for ratios near 1), projected
    // onto the contacts right after.
    for (int c = 0; c < 2 && e->kind != ZENO_EVENT_ZENO; c++)
      if (e->mode_before.letter[c] == ZENO_LETTER_F &&
          !(e->before.gap[c] >= -(full ? FULL_GAP_RTOL : ZOD_GAP_RTOL) * len)) {
        printf("%s event %d (%s): gap %d is %g of the run's largest gap %g\n",
               full ? "full" : "ZOD", i, zeno_event_kind_name(e->kind), c + 1, e->before.gap[c],
               len);
        print_case(g_current);
        fail();
      }
    // ... nor after any event, a completion included: a contact left free
    // by a Zeno completion was no part of it and keeps its gap.
    for (int c = 0; c < 2; c++)
      if (e->mode_after.letter[c] == ZENO_LETTER_F &&
          !(e->after.gap[c] >= -(full ? FULL_GAP_RTOL : ZOD_GAP_RTOL) * len)) {
        printf("%s event %d (%s): gap %d after it is %g of the run's largest gap %g\n",
               full ? "full" : "ZOD", i, zeno_event_kind_name(e->kind), c + 1, e->after.gap[c],
               len);
        print_case(g_current);
        fail();
      }
  }
  assert_true(r->count >= 2);
  const zeno_event *end = &r->events[r->count - 1];
  assert_int_equal(end->kind, ZENO_EVENT_END);
  assert_int_equal(end->outcome, r->summary.outcome);
  assert_true(documented_outcome(r->summary.outcome, full));
  assert_string_not_equal(zeno_outcome_name(r->summary.outcome), "unknown");
  if (end->outcome == ZENO_OUTCOME_INCONSISTENT) assert_inconsistency_proved(end, 2);
}

static void check_health(const prop_run *r, bool full) { check_health_of(r, full, false, false); }

/* ---- mode words ---------------------------------------------------------- */

static bool words_agree(const prop_run *a, const prop_run *b) {
  return test_words_fold_alike(a->word, a->summary.outcome, b->word, b->summary.outcome);
}

/* ---- invariances --------------------------------------------------------- */

static double position_scale(const prop_run *r) {
  double scale = 0;
  for (int i = 0; i < r->count; i++)
    for (int k = 0; k < 3; k++) scale = fmax(scale, fabs(r->events[i].after.zod[k]));
  return scale;
}

static double speed_scale(const prop_run *r) {
  double scale = 0;
  for (int i = 0; i < r->count; i++)
    for (int k = 0; k < 3; k++) scale = fmax(scale, fabs(r->events[i].after.zod_rate[k]));
  return scale;
}

typedef struct invariance_counts {
  int shift, scaling, tangential;              ///< cases checked
  int shift_tie, scaling_tie, tangential_tie;  ///< words changed at a reported near tie
} invariance_counts;

static bool words_agree(const prop_run *a, const prop_run *b);

// Event i of run b happens at tb times event i of run a.
static void check_mapped_time(const prop_run *a, const prop_run *b, int i, double tb,
                              double tscale) {
  const double ta = a->events[i].t, t = b->events[i].t;
  const double rtol = INVARIANCE_RTOL + INVARIANCE_RTOL_PER_EVENT * i;
  if (fabs(tb * ta - t) <= rtol * tb * fmax(tscale, 1e-300)) return;
  printf(
      "invariance (t x %g): event %d at %.17g maps to %.17g, got %.17g\n  %.300s\n"
      "  %.300s\n",
      tb, i, ta, tb * ta, t, a->word, b->word);
  print_case(g_current);
  fail();
}

// Compares run b with run a mapped by t -> tb t, x2 -> x2 + dx + dv t and
// positions x pb (the other coordinates). True when the words agree and
// every event matches; a differing word must come with a near tie. A Zeno
// sequence may be completed a period earlier or later (its ratio is found
// constant to rounding): then the events match up to the first ZENO event
// and the final states to ZENO_LIMIT_RTOL.
static bool compare_mapped(const prop_run *a, const prop_run *b, double tb, double pb, double dx,
                           double dv) {
  const double ps = position_scale(a), tscale = a->events[a->count - 1].t;
  if (strcmp(a->word, b->word) != 0 && strchr(a->word, 'Z') && words_agree(a, b)) {
    assert_int_equal(a->summary.outcome, b->summary.outcome);
    for (int i = 0; i < a->count && i < b->count; i++) {
      const zeno_event *ea = &a->events[i], *eb = &b->events[i];
      if (ea->kind == ZENO_EVENT_ZENO || eb->kind == ZENO_EVENT_ZENO) break;
      check_mapped_time(a, b, i, tb, tscale);
    }
    const zeno_state *fa = &a->summary.final_state, *fb = &b->summary.final_state;
    for (int k = 0; k < 3; k++) {
      const double mapped = pb * fa->zod[k] + (k == 2 ? dx + dv * fa->t : 0);
      assert_true(fabs(mapped - fb->zod[k]) <=
                  ZENO_LIMIT_RTOL * (pb * ps + fabs(dx) + fabs(dv) * tscale));
    }
    return true;
  }
  if (strcmp(a->word, b->word) != 0) {
    if (!(fmin(a->min_tie, b->min_tie) <= zeno_sim_def_default().tie_rtol)) {
      printf(
          "invariance (t x %g, x %g, x2 + %g + %g t) changed the word without a near "
          "tie (margins %g, %g):\n  %.300s\n  %.300s\n",
          tb, pb, dx, dv, a->min_tie, b->min_tie, a->word, b->word);
      print_case(g_current);
      fail();
    }
    return false;
  }
  assert_int_equal(a->count, b->count);
  assert_int_equal(a->summary.outcome, b->summary.outcome);
  for (int i = 0; i < a->count; i++) {
    const zeno_event *ea = &a->events[i], *eb = &b->events[i];
    check_mapped_time(a, b, i, tb, tscale);
    for (int k = 0; k < 3; k++) {
      const double mapped = pb * ea->after.zod[k] + (k == 2 ? dx + dv * ea->t : 0);
      const double scale = pb * ps + fabs(dx) + fabs(dv) * tscale;
      const double rtol = INVARIANCE_RTOL + INVARIANCE_RTOL_PER_EVENT * i;
      assert_true(fabs(mapped - eb->after.zod[k]) <= rtol * scale);
    }
  }
  return true;
}

// Eq. (28) needs every contact that touches to slip without stopping: no
// sticking letter, no slip-stop event, no stick after an impact, and no
// Zeno extrapolation (which ends in a static tail).
static bool slip_only(const prop_run *r) {
  if (strchr(r->word, 'S') != NULL || strchr(r->word, 'Z') != NULL) return false;
  for (int i = 0; i < r->count; i++) {
    const zeno_event *e = &r->events[i];
    if (e->guard == ZENO_GUARD_SLIP_VELOCITY) return false;
    for (int c = 0; c < 2; c++)
      if (e->impact_letter[c] == ZENO_LETTER_S) return false;
  }
  return r->summary.outcome != ZENO_OUTCOME_ESCAPED;  // the radius is not shifted
}

static void check_invariances(const prop_case *c, const prop_run *base, invariance_counts *n) {
  const double tie = zeno_sim_def_default().tie_rtol;
  // (23): x2 -> x2 + beta.
  prop_case d = *c;
  d.qp[2] += SHIFT_BETA;
  zeno_scene s = case_scene(&d);
  if (base->summary.outcome != ZENO_OUTCOME_ESCAPED) {
    prop_run r;
    prop_exec(&s, tie, &r);
    n->shift++;
    if (!compare_mapped(base, &r, 1, 1, SHIFT_BETA, 0)) n->shift_tie++;
    prop_free(&r);
  }
  // (24): positions x beta^2, rates x beta; stop conditions scale alike.
  d = *c;
  for (int k = 0; k < 3; k++) {
    d.qp[k] *= SCALE_BETA * SCALE_BETA;
    d.qdp[k] *= SCALE_BETA;
  }
  s = case_scene(&d);
  s.escape_radius *= SCALE_BETA * SCALE_BETA;
  s.t_end *= SCALE_BETA;
  {
    prop_run r;
    prop_exec(&s, tie, &r);
    n->scaling++;
    if (!compare_mapped(base, &r, SCALE_BETA, SCALE_BETA * SCALE_BETA, 0, 0)) n->scaling_tie++;
    prop_free(&r);
  }
  // (28): xdot2 -> xdot2 + beta on a slip-only run.
  if (slip_only(base)) {
    const double beta = TANGENTIAL_BETA * speed_scale(base);
    d = *c;
    d.qdp[2] += beta;
    s = case_scene(&d);
    prop_run r;
    prop_exec(&s, tie, &r);
    n->tangential++;
    if (!compare_mapped(base, &r, 1, 1, 0, beta)) n->tangential_tie++;
    prop_free(&r);
  }
}

/* ---- the property run ---------------------------------------------------- */

static int g_cases = DEFAULT_CASES;
static uint64_t g_seed = DEFAULT_SEED;
static bool g_verbose = false;

static void print_case(const prop_case *c) {
  printf(
      "  alpha=%.17g l1=%.17g l2=%.17g h=%.17g phi1=%.17g phi2=%.17g mu1=%.17g "
      "mu2=%.17g\n  qp=(%.17g, %.17g, %.17g) qdp=(%.17g, %.17g, %.17g)\n",
      c->p.alpha, c->p.l1, c->p.l2, c->p.h, c->p.phi1, c->p.phi2, c->p.mu1, c->p.mu2, c->qp[0],
      c->qp[1], c->qp[2], c->qdp[0], c->qdp[1], c->qdp[2]);
  if (g_law != ZENO_LAW_INELASTIC)
    printf("  impact.law=%s impact.e=%.17g impact.et=%.17g\n", zeno_impact_law_name(g_law), g_e,
           g_et);
}

/// Required agreement of the outcomes (issue 30), inelastic and restitution
/// cases each, in
/// the slow suite's run of 20,000 cases at the scenes' event limit: at
/// most 20 apart (measured 23 before the floor rules for chains that
/// hover at the floor and chains that shrink without a period, 18 after).
#define MIN_OUTCOME_AGREEMENT 0.999
/// Cases from which the outcome agreement is asserted: fewer give no
/// useful bound (one disagreement in 500 is 99.8 %).
#define OUTCOME_AGREEMENT_CASES 20000

static void random_cases(void **state) {
  (void)state;
  rng r = {g_seed};
  int accepted = 0, draws = 0, agree = 0, explained = 0, quiet_agree = 0, outcome_agree = 0;
  invariance_counts inv = {0};
  long zod_events = 0, full_events = 0;
  while (accepted < g_cases) {
    assert_true(draws < MAX_DRAWS_PER_CASE * g_cases);
    draws++;
    const prop_case c = draw_case(&r);
    zeno_scene s = case_scene(&c);
    if (!acceptable(&s)) continue;
    accepted++;
    g_current = &c;
    prop_run z, f;
    prop_exec(&s, TIE_EXPLAIN, &z);
    check_health(&z, false);
    check_invariances(&c, &z, &inv);
    s.model = ZENO_MODEL_FULL;
    s.epsilon = EPS;
    s.t_end *= EPS;  // full-model times are the ZOD's times eps (24)
    prop_exec(&s, TIE_EXPLAIN, &f);
    check_health(&f, true);
    zod_events += z.count;
    full_events += f.count;
    outcome_agree += z.summary.outcome == f.summary.outcome;
    if (words_agree(&z, &f)) {
      agree++;
      quiet_agree += fmin(z.min_tie, f.min_tie) > TIE_EXPLAIN;
    } else {
      // Explained: one of the two runs reported a near tie at the scale eps.
      const bool tie = fmin(z.min_tie, f.min_tie) <= TIE_EXPLAIN;
      explained += tie;
      if (g_verbose || !tie) {
        printf("disagreement %d (%s), tie margins ZOD %.3g full %.3g\n", accepted,
               tie ? "near tie" : "UNEXPLAINED", z.min_tie, f.min_tie);
        print_case(&c);
        printf("  ZOD  [%s] %.400s\n  full [%s] %.400s\n", zeno_outcome_name(z.summary.outcome),
               z.word, zeno_outcome_name(f.summary.outcome), f.word);
      }
    }
    prop_free(&z);
    prop_free(&f);
  }
  const int disagree = accepted - agree;
  printf("properties: %d cases (seed %llu, %d draws), %ld ZOD and %ld full-model events\n",
         accepted, (unsigned long long)g_seed, draws, zod_events, full_events);
  printf(
      "properties: invariance (23) %d cases, (24) %d, (28) %d; words changed at a "
      "reported near tie: %d, %d, %d\n",
      inv.shift, inv.scaling, inv.tangential, inv.shift_tie, inv.scaling_tie, inv.tangential_tie);
  printf(
      "properties: ZOD/full (eps = %g) mode-word agreement %.2f %% (%d of %d); "
      "%d disagreements, %d explained by a near tie (margin <= %g)\n",
      EPS, 100.0 * agree / accepted, agree, accepted, disagree, explained, TIE_EXPLAIN);
  printf("properties: %d of the %d agreeing cases report no near tie at that margin\n", quiet_agree,
         agree);
  printf("properties: ZOD/full outcome agreement %.3f %% (%d of %d)\n",
         100.0 * outcome_agree / accepted, outcome_agree, accepted);
  fflush(stdout);
  assert_int_equal(explained, disagree);
  if (accepted >= OUTCOME_AGREEMENT_CASES)
    assert_true(outcome_agree >= MIN_OUTCOME_AGREEMENT * accepted);
  assert_true(agree >= MIN_AGREEMENT * accepted);
  // The invariances were exercised, not skipped.
  assert_true(inv.scaling == accepted);
  assert_true(inv.shift >= accepted / 2);
  // (28) needs a slip-only run, about 1 case in 1000.
  if (g_cases >= 2000) assert_true(inv.tangential >= 1);
}

/// Largest restitution coefficient drawn (above it, chatters take the
/// event limit's worth of impacts before their completion).
#define RESTITUTION_MAX 0.9

/// A disagreement of outcomes is run again, refined: the ZOD with this many
/// times the time limit, the full model at REFINED_EPS with as many times
/// its (scaled) limit. A `time-limit` is a budget, not an outcome, and the
/// full model differs from the ZOD by relative corrections of order eps
/// times the perturbation (24): a perturbation that grows to hundreds of
/// its start (a slide of x2 = -632 at eps = 1e-3 is 0.6 body lengths,
/// where the wedge's contact geometry has changed) leaves the ZOD's reach
/// at eps = 1e-3 and not at 1e-5.
#define REFINED_TIME 10.0
#define REFINED_EPS 1e-5
/// Disagreements kept for the refined runs (measured 29 of 20,000).
#define REFINED_MAX 400

typedef struct refined_case {
  prop_case c;
  int index;  ///< the case's number in the run
  zeno_impact_law law;
  double e, et;
  zeno_outcome zod, full;
  double zod_tie, full_tie;  ///< the runs' smallest tie margins
} refined_case;

// Runs the kept disagreements again, refined, and prints each with both
// outcomes and the runs' tie margins; returns how many the refinement
// brings to one outcome, and in *explained how many report a near tie at
// the scale eps (TIE_EXPLAIN).
static int refine_disagreements(const refined_case *list, int n, int *explained) {
  int agree = 0;
  *explained = 0;
  for (int k = 0; k < n; k++) {
    const refined_case *d = &list[k];
    zeno_scene s = case_scene(&d->c);
    s.impact_law = d->law;
    s.restitution = d->e;
    s.tangential_restitution = d->et;
    const double t_end = s.t_end;
    prop_run z, f;
    s.t_end = REFINED_TIME * t_end;
    prop_exec(&s, TIE_EXPLAIN, &z);
    s.model = ZENO_MODEL_FULL;
    s.epsilon = REFINED_EPS;
    s.t_end = REFINED_TIME * t_end * REFINED_EPS;
    prop_exec(&s, TIE_EXPLAIN, &f);
    const bool same = z.summary.outcome == f.summary.outcome;
    agree += same;
    const bool tie = fmin(d->zod_tie, d->full_tie) <= TIE_EXPLAIN;
    *explained += tie;
    printf(
        "properties: disagreement %d ZOD %s / full %s (tie margins ZOD %.3g full %.3g: %s); "
        "refined (ZOD to %g t_end, full at eps %g): ZOD %s / full %s%s\n",
        d->index, zeno_outcome_name(d->zod), zeno_outcome_name(d->full), d->zod_tie, d->full_tie,
        tie ? "near tie" : "UNEXPLAINED", REFINED_TIME, REFINED_EPS,
        zeno_outcome_name(z.summary.outcome), zeno_outcome_name(f.summary.outcome),
        same ? "" : " (still apart)");
    if (!same || !tie) {
      g_law = d->law;
      g_e = d->e;
      g_et = d->et;
      print_case(&d->c);
    }
    prop_free(&z);
    prop_free(&f);
  }
  return agree;
}

// The same random equilibria with restitution: Chatterjee-Ruina (random e,
// et) or Newton (random e), both models. No free contact goes below its
// surface, every run ends in a documented outcome with finite states, and
// Chatterjee-Ruina never adds energy (Newton's law may, with friction: its
// gains are counted and reported).
static void restitution_cases(void **state) {
  (void)state;
  rng r = {g_seed ^ 0x5eed5eedu};
  int accepted = 0, draws = 0, newton_gaining = 0, outcomes[ZENO_OUTCOME_WALL_LIMIT + 1] = {0},
      full_outcomes[ZENO_OUTCOME_WALL_LIMIT + 1] = {0};
  // ZOD outcome (row) against the full model's (column).
  static int pairs[ZENO_OUTCOME_WALL_LIMIT + 1][ZENO_OUTCOME_WALL_LIMIT + 1];
  memset(pairs, 0, sizeof pairs);
  static refined_case apart[REFINED_MAX];
  int apart_count = 0;
  long events = 0;
  while (accepted < g_cases) {
    assert_true(draws < MAX_DRAWS_PER_CASE * g_cases);
    draws++;
    const prop_case c = draw_case(&r);
    zeno_scene s = case_scene(&c);
    if (!acceptable(&s)) continue;
    accepted++;
    g_current = &c;
    const bool newton = rng_uniform(&r, 0, 1) < 0.5;
    s.impact_law = newton ? ZENO_LAW_NEWTON : ZENO_LAW_CHATTERJEE_RUINA;
    s.restitution = rng_uniform(&r, 0, RESTITUTION_MAX);
    s.tangential_restitution = newton ? 0 : rng_uniform(&r, -0.5, 0.5);
    g_law = s.impact_law;
    g_e = s.restitution;
    g_et = s.tangential_restitution;
    prop_run z, f;
    prop_exec(&s, TIE_EXPLAIN, &z);
    check_health_of(&z, false, true, newton);
    s.model = ZENO_MODEL_FULL;
    s.epsilon = EPS;
    s.t_end *= EPS;
    prop_exec(&s, TIE_EXPLAIN, &f);
    check_health_of(&f, true, true, newton);
    if (g_verbose &&
        (z.summary.outcome != ZENO_OUTCOME_REST || f.summary.outcome != ZENO_OUTCOME_REST)) {
      printf(
          "restitution case %d: ZOD %s after %ld events, full %s after %ld; ends at t %.6g "
          "and %.6g (ZOD time)\n",
          accepted, zeno_outcome_name(z.summary.outcome), z.summary.events,
          zeno_outcome_name(f.summary.outcome), f.summary.events, z.summary.t, f.summary.t / EPS);
      print_case(&c);
      const size_t n = strlen(z.word);
      printf("  ZOD word ... %s\n", z.word + (n > 300 ? n - 300 : 0));
    }
    newton_gaining += newton && (z.summary.energy_gains > 0 || f.summary.energy_gains > 0);
    events += z.count + f.count;
    outcomes[z.summary.outcome]++;
    full_outcomes[f.summary.outcome]++;
    pairs[z.summary.outcome][f.summary.outcome]++;
    if (z.summary.outcome != f.summary.outcome && apart_count < REFINED_MAX)
      apart[apart_count++] = (refined_case){c,
                                            accepted,
                                            s.impact_law,
                                            s.restitution,
                                            s.tangential_restitution,
                                            z.summary.outcome,
                                            f.summary.outcome,
                                            z.min_tie,
                                            f.min_tie};
    prop_free(&z);
    prop_free(&f);
  }
  printf(
      "properties: %d cases with restitution (%ld events), Newton runs that gained "
      "energy at an impact: %d; ZOD outcomes:",
      accepted, events, newton_gaining);
  for (int o = 0; o <= ZENO_OUTCOME_WALL_LIMIT; o++)
    if (outcomes[o]) printf(" %s %d", zeno_outcome_name((zeno_outcome)o), outcomes[o]);
  printf("; full-model outcomes:");
  for (int o = 0; o <= ZENO_OUTCOME_WALL_LIMIT; o++)
    if (full_outcomes[o]) printf(" %s %d", zeno_outcome_name((zeno_outcome)o), full_outcomes[o]);
  printf("\n");
  // Every disagreement of outcomes, by kind.
  int agree = 0;
  for (int o = 0; o <= ZENO_OUTCOME_WALL_LIMIT; o++) agree += pairs[o][o];
  printf(
      "properties: ZOD and full model reach the same outcome in %d of %d restitution cases "
      "(%.2f %%)",
      agree, accepted, 100.0 * agree / accepted);
  for (int o = 0; o <= ZENO_OUTCOME_WALL_LIMIT; o++)
    for (int p = 0; p <= ZENO_OUTCOME_WALL_LIMIT; p++)
      if (o != p && pairs[o][p])
        printf("; ZOD %s / full %s: %d", zeno_outcome_name((zeno_outcome)o),
               zeno_outcome_name((zeno_outcome)p), pairs[o][p]);
  printf("\n");
  int explained = 0;
  const int refined = refine_disagreements(apart, apart_count, &explained);
  printf(
      "properties: refined, ZOD and full model reach the same outcome in %d of %d restitution "
      "cases (%.2f %%); %d of the %d disagreements still apart; %d explained by a near tie "
      "(margin <= %g)\n",
      agree + refined, accepted, 100.0 * (agree + refined) / accepted, apart_count - refined,
      apart_count, explained, TIE_EXPLAIN);
  fflush(stdout);
  // Every disagreement of outcomes is listed and explained by a near tie
  // of one of its runs at the scale eps; at the scenes' event limit and
  // 20,000 cases, at least 99.9 % agree.
  assert_int_equal(explained, apart_count);
  if (g_cases >= OUTCOME_AGREEMENT_CASES && g_max_events >= SCENE_MAX_EVENTS)
    assert_true(agree >= MIN_OUTCOME_AGREEMENT * accepted);
  assert_true(outcomes[ZENO_OUTCOME_REST] > accepted / 4);
  // The ZOD never gives up where the physics goes on: no `inconsistent`
  // where the full model rests (303 of 20,000 before the floor rules of
  // issue 30), and, at the scenes' event limit, no `event-limit` there
  // (the last, property case 6581, a chain shrinking without a period at
  // 5e-10 of its first speed, is closed at the full model's floor as the
  // limit comes near; a sequence of ratio near 1 whose limit lies beyond
  // t_end is fast-forwarded to t_end, case 12221; chatters at both
  // contacts re-excited after each floor completion rest since the floor
  // closes a contact at its surface moving at the floor's speeds).
  assert_int_equal(pairs[ZENO_OUTCOME_INCONSISTENT][ZENO_OUTCOME_REST], 0);
  if (g_max_events >= SCENE_MAX_EVENTS)
    assert_int_equal(pairs[ZENO_OUTCOME_EVENT_LIMIT][ZENO_OUTCOME_REST], 0);
}

int main(int argc, char **argv) {
  const char *env = getenv("ZENO_PROPERTY_CASES");
  if (argc > 1) g_cases = atoi(argv[1]);
  else if (env && *env) g_cases = atoi(env);
  const char *seed = getenv("ZENO_PROPERTY_SEED");
  if (seed && *seed) g_seed = strtoull(seed, NULL, 10);
  const char *max_events = getenv("ZENO_PROPERTY_MAX_EVENTS");
  if (max_events && *max_events) g_max_events = atol(max_events);
  const char *verbose = getenv("ZENO_PROPERTY_VERBOSE");
  g_verbose = verbose && *verbose == '1';
  if (g_cases < 1 || g_seed == 0 || g_max_events < 1) {
    fprintf(stderr, "test_properties: cases and events must be >= 1 and the seed nonzero\n");
    return 2;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(random_cases),
                                     cmocka_unit_test(restitution_cases)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
