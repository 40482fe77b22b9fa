// Results do not depend on the units: seeded random scenes (two contacts in
// the paper's form with random mass, size, load and torque; one contact in
// the general form with random laws), each re-expressed after changing the
// unit of mass, length, force or time by 1e-12, 1e-6, 1e6 and 1e12 (a pure
// change of units: every dimensional input converted, see rescale()). The
// outcome and the stability verdict must be identical, times, positions,
// forces and energies the converted ones to rounding, and the mode word
// identical but for two effects of rounding, counted, printed and bounded:
// a chatter simulated for one period more or less before its Zeno
// completion (its period ratios agree to ratio_rtol one period earlier or
// later: the words agree once repeated periods are folded), and a decision
// the run itself reports as a near tie at the rounding level.
// The full model is checked on every FULL_EVERY-th case (it is slower).
// Case count from argv[1] or ZENO_UNITS_CASES (default 1000); seed from
// ZENO_UNITS_SEED.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "test_util.h"
#include "test_words.h"

/// Cases when neither argv nor the environment says.
#define DEFAULT_CASES TEST_SCALED(1000)
#define DEFAULT_SEED 20261125u
/// Events per run: long chatters complete well before; a run reaching it
/// ends with event-limit, which must then be reached in every unit system.
#define MAX_EVENTS 2000
/// The full model runs on every FULL_EVERY-th case.
#define FULL_EVERY 25
/// A change of units by a factor that is not a power of two changes the
/// numbers the library computes on by rounding (1e-16) only; converted
/// back, times and states agree to rounding accumulated over the run.
#define VALUE_RTOL 1e-8
/// The full model integrates with relative tolerance 1e-10 (scene default):
/// its step sequence changes with rounding, its values by about rtol.
#define FULL_VALUE_RTOL 1e-6
/// An event whose tie margin is at most this is one the library reports as
/// a near tie (zeno_sim_def.tie_rtol's default): rounding of a badly
/// conditioned geometry (contacts nearly on one normal line amplify it by
/// 1e4 and more) may turn it.
#define ROUNDING_TIE 1e-6
/// At most this fraction of the runs in other units may differ in their
/// word through either effect above.
#define MAX_EXPLAINED_FRACTION 0.02
/// Maps settings of the verdicts: coarse (the verdict only has to be the
/// same in every unit system, not the paper's).
#define VERDICT_SAMPLES 64
#define VERDICT_PARTITION 24

static const double FACTORS[] = {1e-12, 1e-6, 1e6, 1e12};
#define FACTOR_COUNT (sizeof FACTORS / sizeof *FACTORS)

/// The quantity whose unit changes; the others keep theirs.
typedef enum unit_kind { UNIT_MASS, UNIT_LENGTH, UNIT_FORCE, UNIT_TIME, UNIT_KINDS } unit_kind;
static const char *const UNIT_NAMES[UNIT_KINDS] = {"mass", "length", "force", "time"};

/* ---- generator --------------------------------------------------------- */

// The generator (rng, rng_uniform) is test_util.h's.

// Two contacts in the paper's form: the angles and friction of the paper's
// examples, and a body of any mass, size and load (torque up to a third of
// the load's moment), perturbed in q'.
static zeno_scene two_contact_case(rng *r) {
  const double rho = rng_uniform(r, 0.2, 5), f = rng_uniform(r, 0.1, 20);
  zeno_paper_params p = {rng_uniform(r, -60, 60),
                         rho * rng_uniform(r, -3, 3),
                         rho * rng_uniform(r, -3, 3),
                         rho * rng_uniform(r, 0.2, 2),
                         rng_uniform(r, -60, 80),
                         rng_uniform(r, -60, 80),
                         rng_uniform(r, 0.1, 1),
                         rng_uniform(r, 0.1, 1),
                         rho,
                         rng_uniform(r, 0.1, 10),
                         f,
                         f * rho * rng_uniform(r, -0.3, 0.3)};
  const double length = rho * rng_uniform(r, 0.01, 1);
  const double speed = sqrt(length * f / p.m) * rng_uniform(r, 0.1, 2);
  const double qp[3] = {length * rng_uniform(r, 0, 1), length * rng_uniform(r, 0, 1),
                        length * rng_uniform(r, -1, 1)};
  const double qdp[3] = {speed * rng_uniform(r, -1, 1), speed * rng_uniform(r, -1, 1),
                         speed * rng_uniform(r, -1, 1)};
  zeno_scene s = paper_scene(p, qp, qdp);
  s.max_events = MAX_EVENTS;
  return s;
}

// Feasible, non-ambiguous, Painlevé-free, in the index order (13) and with
// a valid ZOD coordinate map: the equilibria the paper analyses, which
// mostly come to rest after a chatter (unfiltered cases mostly slide away).
static bool analysable(const zeno_scene *s) {
  zeno_equilibrium_report rep;
  if (zeno_equilibrium_check(s, &rep, NULL) != ZENO_OK) return false;
  if (!rep.feasible || rep.ambiguous_count != 0 || rep.wedged) return false;
  if (!rep.painleve_ok[0] || !rep.painleve_ok[1] || !rep.index_order_ok) return false;
  zeno_sim *sim = zeno_sim_create(s, NULL, NULL);
  zeno_sim_destroy(sim);
  return sim != NULL;
}

/// Draws per analysable case at most (about one draw in ten is).
#define MAX_DRAWS 1000

static zeno_scene analysable_case(rng *r) {
  for (int k = 0; k < MAX_DRAWS; k++) {
    const zeno_scene s = two_contact_case(r);
    if (analysable(&s)) return s;
  }
  fail_msg("no analysable case in %d draws", MAX_DRAWS);
  return zeno_scene_default();
}

// One contact in the general form (a body dropped and spun onto a sloped
// surface) with any of the three impact laws.
static zeno_scene one_contact_case(rng *r) {
  const double rho = rng_uniform(r, 0.05, 3), g = rng_uniform(r, 0.5, 20);
  zeno_scene s = one_contact_scene(rho, rho * rng_uniform(r, -1, 1), -rho * rng_uniform(r, 0.2, 2),
                                   rng_uniform(r, 0.1, 1.5), g);
  s.mass = rng_uniform(r, 0.1, 10);
  s.load_magnitude *= s.mass;
  s.contacts[0].surface_angle = rng_uniform(r, -0.4, 0.4);
  const int law = (int)rng_uniform(r, 0, 3);
  s.impact_law = law == 0   ? ZENO_LAW_INELASTIC
                 : law == 1 ? ZENO_LAW_NEWTON
                            : ZENO_LAW_CHATTERJEE_RUINA;
  s.restitution = rng_uniform(r, 0, 0.9);
  s.tangential_restitution = rng_uniform(r, -0.5, 0.5);
  const double speed = sqrt(g * rho);
  s.initial_pose[1] = rho * rng_uniform(r, 0, 1);
  s.initial_pose[2] = rng_uniform(r, -0.2, 0.2);
  s.initial_velocity[0] = speed * rng_uniform(r, -1, 1);
  s.initial_velocity[1] = speed * rng_uniform(r, -1, 0.5);
  s.initial_velocity[2] = speed / rho * rng_uniform(r, -1, 1);
  s.t_end = 50 * sqrt(rho / g);
  s.max_events = MAX_EVENTS;
  return s;
}

/* ---- a change of units ----------------------------------------------------- */

/// The factors by which values of each dimension are multiplied when the
/// unit of mass is divided by 1/mass, and so on: a value v [M^a L^b T^c]
/// becomes v * mass^a * length^b * time^c.
typedef struct units_change {
  double mass, length, time;
} units_change;

static units_change change_of(unit_kind kind, double k) {
  switch (kind) {
    case UNIT_MASS: return (units_change){k, 1, 1};
    case UNIT_LENGTH: return (units_change){1, k, 1};
    case UNIT_TIME: return (units_change){1, 1, k};
    default: return (units_change){1, 1, 1 / sqrt(k)};  // force x k, mass and length kept
  }
}

static double scale(units_change c, int m, int l, int t) {
  return pow(c.mass, m) * pow(c.length, l) * pow(c.time, t);
}

// Every dimensional input of the scene in the new units.
static zeno_scene rescale(const zeno_scene *in, units_change c) {
  zeno_scene s = *in;
  const double L = scale(c, 0, 1, 0), T = scale(c, 0, 0, 1), V = scale(c, 0, 1, -1);
  const double F = scale(c, 1, 1, -2);
  s.mass *= scale(c, 1, 0, 0);
  s.rho *= L;
  for (int i = 0; i < s.contact_count; i++)
    for (int k = 0; k < 2; k++) {
      s.contacts[i].point[k] *= L;
      s.contacts[i].surface_point[k] *= L;
    }
  s.load_magnitude *= F;
  s.load_torque *= F * L;
  s.paper.l1 *= L;
  s.paper.l2 *= L;
  s.paper.h *= L;
  for (int k = 0; k < 3; k++) {
    s.initial_qp[k] *= L;
    s.initial_qdp[k] *= V;
  }
  s.initial_pose[0] *= L;
  s.initial_pose[1] *= L;
  s.initial_velocity[0] *= V;
  s.initial_velocity[1] *= V;
  s.initial_velocity[2] /= T;
  s.t_end *= T;
  s.escape_radius *= L;
  s.sample_dt *= T;
  s.outline_radius *= L;
  return s;
}

/* ---- runs and their comparison ---------------------------------------------- */

typedef struct units_run {
  bool created;  ///< zeno_sim_create() accepted the scene
  zeno_summary summary;
  double min_tie;  ///< smallest tie margin of the run's events
  char word[16384];
} units_run;

static void run(const zeno_scene *s, units_run *r) {
  memset(r, 0, sizeof *r);
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  zeno_sim *sim = zeno_sim_create(s, &def, NULL);
  r->created = sim != NULL;
  r->min_tie = INFINITY;
  if (sim == NULL) return;
  zeno_event ev;
  while (zeno_sim_next_event(sim, &ev, NULL) == ZENO_OK)
    r->min_tie = fmin(r->min_tie, ev.tie_margin);
  zeno_sim_summary(sim, &r->summary);
  zeno_sim_word(sim, r->word, sizeof r->word);
  zeno_sim_destroy(sim);
}

static zeno_verdict verdict(const zeno_scene *s, zeno_status *status) {
  zeno_analysis_def def = zeno_analysis_def_default();
  def.maps.samples = VERDICT_SAMPLES;
  def.partition_intervals = VERDICT_PARTITION;
  zeno_analysis a;
  zeno_error e;
  *status = zeno_analyze(s, &def, &a, &e);
  const zeno_verdict v = a.verdict;
  zeno_analysis_free(&a);
  return v;
}

static bool near(double converted, double base, double rtol, double floor) {
  return fabs(converted - base) <= rtol * fmax(fabs(base), floor);
}

typedef struct tally {
  long runs, full_runs, verdicts, mismatches;
  long folded;  ///< words alike once repeated chatter periods are folded
  long tied;    ///< words differing after a rounding-level near tie
} tally;

static void report(const char *what, const zeno_scene *s, unit_kind kind, double k) {
  if (getenv("ZENO_UNITS_DUMP")) zeno_io_scene_yaml(stderr, s, NULL);
  print_error(
      "units: %s differs with the %s unit x %g (scene: m %.17g rho %.17g f %.17g "
      "tau %.17g, contacts %d)\n",
      what, UNIT_NAMES[kind], k, s->mass, s->rho, s->load_magnitude, s->load_torque,
      s->contact_count);
}

// The run of `scaled` (the scene in new units c) against the base run.
static bool same_run(const units_run *base, const units_run *other, units_change c, double rtol,
                     const zeno_scene *s, unit_kind kind, double k, tally *t) {
  if (other->created != base->created) {
    report("the scene's acceptance", s, kind, k);
    return false;
  }
  if (!base->created) return true;
  const zeno_outcome oa = base->summary.outcome, ob = other->summary.outcome;
  if (strcmp(other->word, base->word) != 0 || oa != ob) {
    // A different count of periods or a turned tie changes the numbers too.
    if (oa == ob && test_words_fold_alike(base->word, oa, other->word, ob)) {
      t->folded++;
      return true;
    }
    if (fmin(base->min_tie, other->min_tie) <= ROUNDING_TIE) {
      t->tied++;
      return true;
    }
    report("the word or the outcome", s, kind, k);
    print_error("  base %s: %s at t = %.17g (tie %g)\n  new  %s: %s at t = %.17g (tie %g)\n",
                base->word, zeno_outcome_name(oa), base->summary.t, base->min_tie, other->word,
                zeno_outcome_name(ob), other->summary.t / scale(c, 0, 0, 1), other->min_tie);
    return false;
  }
  const zeno_state *a = &base->summary.final_state, *b = &other->summary.final_state;
  const double T = scale(c, 0, 0, 1), L = scale(c, 0, 1, 0), F = scale(c, 1, 1, -2);
  // Positions are compared against the body's size or the state's own
  // (an escape happens far away), forces against the load, the energy
  // against the load's work over that size (it is a difference of terms
  // of that size).
  double size = fabs(s->rho);
  for (int k3 = 0; k3 < 3; k3++) size = fmax(size, fabs(a->zod[k3]));
  const double load = fabs(s->load_magnitude) + fabs(s->load_torque) / s->rho;
  bool ok = near(other->summary.t / T, base->summary.t, rtol, 0) &&
            near(b->energy / (F * L), a->energy, rtol, load * size);
  // q' = (z1, z2, x2), or (z1, x1, theta) for one contact.
  for (int k3 = 0; k3 < 3; k3++) {
    const bool angle = k3 == 2 && s->contact_count == 1;
    ok = ok && near(b->zod[k3] / (angle ? 1 : L), a->zod[k3], rtol, angle ? 1 : size);
  }
  for (int i = 0; i < s->contact_count; i++)
    ok = ok && near(b->force[i][0] / F, a->force[i][0], rtol, load);
  if (!ok) {
    report("a converted number", s, kind, k);
    print_error(
        "  %s model: t %.17g vs %.17g, energy %.17g vs %.17g, zod (%.17g %.17g %.17g) vs "
        "(%.17g %.17g %.17g), normal forces (%.17g %.17g) vs (%.17g %.17g)\n",
        zeno_model_name(s->model), other->summary.t / T, base->summary.t, b->energy / (F * L),
        a->energy, b->zod[0] / L, b->zod[1] / L, b->zod[2] / L, a->zod[0], a->zod[1], a->zod[2],
        b->force[0][0] / F, b->force[1][0] / F, a->force[0][0], a->force[1][0]);
  }
  return ok;
}

// One case (its run in the given units: base) in every unit system.
static void check_case(const zeno_scene *s, const units_run *base, bool full, tally *t) {
  static units_run base_full, other;  // large: off the stack
  zeno_scene sf = *s;
  sf.model = ZENO_MODEL_FULL;
  if (full) run(&sf, &base_full);
  zeno_status vstatus = ZENO_OK, vs;
  const zeno_verdict v = s->contact_count == 2 ? verdict(s, &vstatus) : ZENO_VERDICT_UNDECIDED;
  for (int kind = 0; kind < UNIT_KINDS; kind++)
    for (size_t f = 0; f < FACTOR_COUNT; f++) {
      const units_change c = change_of((unit_kind)kind, FACTORS[f]);
      const zeno_scene scaled = rescale(s, c);
      run(&scaled, &other);
      t->runs++;
      if (!same_run(base, &other, c, VALUE_RTOL, s, (unit_kind)kind, FACTORS[f], t))
        t->mismatches++;
      if (full) {
        zeno_scene scaled_full = scaled;
        scaled_full.model = ZENO_MODEL_FULL;
        run(&scaled_full, &other);
        t->full_runs++;
        if (!same_run(&base_full, &other, c, FULL_VALUE_RTOL, &sf, (unit_kind)kind, FACTORS[f], t))
          t->mismatches++;
      }
      if (s->contact_count == 2) {
        t->verdicts++;
        const zeno_verdict w = verdict(&scaled, &vs);
        if (vs != vstatus || w != v) {
          report("the verdict", s, (unit_kind)kind, FACTORS[f]);
          t->mismatches++;
        }
      }
    }
}

/* ---- the test -------------------------------------------------------------- */

static long g_cases = DEFAULT_CASES;
static uint64_t g_seed = DEFAULT_SEED;

static void units_do_not_matter(void **state) {
  (void)state;
  rng r = {g_seed};
  tally t = {0};
  long two = 0, outcomes[ZENO_OUTCOME_WALL_LIMIT + 1] = {0};
  for (long n = 0; n < g_cases; n++) {
    // Three cases in four have two contacts (they carry the verdicts), two
    // of those analysable equilibria, one drawn without a filter.
    const bool pair = n % 4 != 3;
    const zeno_scene s = n % 4 < 2    ? analysable_case(&r)
                         : n % 4 == 2 ? two_contact_case(&r)
                                      : one_contact_case(&r);
    two += pair;
    units_run base;
    run(&s, &base);
    if (base.created && base.summary.outcome <= ZENO_OUTCOME_WALL_LIMIT)
      outcomes[base.summary.outcome]++;
    check_case(&s, &base, n % FULL_EVERY == 0, &t);
  }
  printf(
      "units: %ld cases (%ld with two contacts), %ld ZOD runs, %ld full-model runs and "
      "%ld verdicts in other units: %ld differ\n",
      g_cases, two, t.runs, t.full_runs, t.verdicts, t.mismatches);
  printf(
      "units: words alike up to repeated chatter periods: %ld, different after a near tie "
      "(margin <= %g): %ld\n",
      t.folded, ROUNDING_TIE, t.tied);
  printf("units: base outcomes:");
  for (int o = 0; o <= ZENO_OUTCOME_WALL_LIMIT; o++)
    if (outcomes[o]) printf(" %s %ld", zeno_outcome_name((zeno_outcome)o), outcomes[o]);
  printf("\n");
  assert_int_equal(t.mismatches, 0);
  assert_true((double)(t.folded + t.tied) <=
              MAX_EXPLAINED_FRACTION * (double)(t.runs + t.full_runs));
  // The cases must exercise the physics, not only fail: most runs are
  // valid scenes that end at rest or in a chatter's limit.
  assert_true(outcomes[ZENO_OUTCOME_REST] > g_cases / 4);
}

// Every shipped scene in every unit system of FACTORS: the same run. A
// default threshold that is a length (the escape radius was 1e6 whatever
// the units) made Example 3 written with lengths x 1e6 escape at t = 0.196
// instead of resting at t = 60.5 (issue 30).
static void shipped_scenes_in_any_units(void **state) {
  (void)state;
  static units_run base, other;  // large: off the stack
  tally t = {0};
  for (size_t f = 0; f < CYCLE_TEST_SCENE_COUNT; f++) {
    zeno_scene s;
    assert_int_equal(load_repo_scene(CYCLE_TEST_SCENES[f], &s), ZENO_OK);
    s.model = ZENO_MODEL_ZOD;
    run(&s, &base);
    assert_true(base.created);
    for (int kind = 0; kind < UNIT_KINDS; kind++)
      for (size_t k = 0; k < FACTOR_COUNT; k++) {
        const units_change c = change_of((unit_kind)kind, FACTORS[k]);
        const zeno_scene scaled = rescale(&s, c);
        run(&scaled, &other);
        t.runs++;
        if (!same_run(&base, &other, c, VALUE_RTOL, &s, (unit_kind)kind, FACTORS[k], &t))
          t.mismatches++;
      }
  }
  printf("units: the shipped scenes in %ld other unit systems: %ld differ\n", t.runs, t.mismatches);
  assert_int_equal(t.mismatches, 0);
}

int main(int argc, char **argv) {
  const char *cases = argc > 1 ? argv[1] : getenv("ZENO_UNITS_CASES");
  if (cases) g_cases = strtol(cases, NULL, 10);
  const char *seed = getenv("ZENO_UNITS_SEED");
  if (seed) g_seed = strtoull(seed, NULL, 10);
  const struct CMUnitTest tests[] = {cmocka_unit_test(units_do_not_matter),
                                     cmocka_unit_test(shipped_scenes_in_any_units)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
