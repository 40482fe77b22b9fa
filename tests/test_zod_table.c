// The per-scene ZOD table (zeno_sim_def.zod_table, src/sim/sim_table.c)
// against the general path, its oracle: on random equilibria of the
// paper's parameterisation under the three impact laws, the same events
// (kinds, modes, contacts, outcomes) and mode words, times and states equal
// to 1e-12 of their scale, unless a near tie (an event flagged near_tie)
// came first, where rounding may decide; the R and G maps of the paper's
// scenes with the same samples, words, breakpoints and fixed points; and
// the pieces of the table on their own (class codes, the letter maps
// against the solve they replace, a full table).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dynamics/contact_solve.h"
#include "sim/sim_restart.h"
#include "sim/sim_table.h"
#include "test_util.h"
#include "zeno/zeno.h"

/// Random cases per law (each runs both paths).
#define CASES_PER_LAW 300
#define SEED 20261125u
#define MAX_EVENTS 2000
/// Agreement of times and states, relative to their scale, over a run's
/// first AGREE_EVENTS events: the two paths differ by the rounding of one
/// 4x4 product against a pivoted solve per impact candidate (a few ulps).
#define AGREE_RTOL 1e-12
#define AGREE_EVENTS 10
/// Later the difference is carried forward and grows (chatter amplifies
/// it: a Newton run differs by 1.1e-12 at its 22nd event); it must stay
/// below the loop's own zero velocity (zeno_sim_def.velocity_rtol), under
/// which it can change no decision but a near tie.
#define AGREE_LATE_RTOL 1e-9
/// The letter maps against contact_solve, relative to the solution's size.
#define MAP_RTOL 1e-13

// A random scene of the paper's ranges (as test_properties draws them),
// with the law and a restitution drawn too.
static zeno_scene draw_scene(rng *r, zeno_impact_law law) {
  const zeno_paper_params p = draw_paper_params(r);
  double qp[3] = {rng_uniform(r, 0, 1), rng_uniform(r, 0, 1), rng_uniform(r, -1, 1)}, qdp[3];
  for (int k = 0; k < 3; k++) qdp[k] = rng_uniform(r, -1, 1);
  zeno_scene s = paper_scene(p, qp, qdp);
  s.max_events = MAX_EVENTS;
  s.impact_law = law;
  s.restitution = law == ZENO_LAW_INELASTIC ? 0 : rng_uniform(r, 0, 0.9);
  s.tangential_restitution = law == ZENO_LAW_CHATTERJEE_RUINA ? rng_uniform(r, -0.5, 0.5) : 0;
  return s;
}

typedef struct run {
  zeno_event *events;
  int count;
  char word[8192];
  zeno_summary summary;
} run;

static bool exec(const zeno_scene *s, bool table, run *out) {
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  def.zod_table = table;
  zeno_sim *sim = zeno_sim_create(s, &def, NULL);
  if (sim == NULL) return false;
  out->events = collect_events(sim, &out->count);
  zeno_sim_word(sim, out->word, sizeof out->word);
  zeno_sim_summary(sim, &out->summary);
  zeno_sim_destroy(sim);
  assert_non_null(out->events);
  return true;
}

static double state_scale(const zeno_state *a) {
  double m = 0;
  for (int k = 0; k < 3; k++) m = fmax(m, fmax(fabs(a->zod[k]), fabs(a->zod_rate[k])));
  return m;
}

static bool close_to(double a, double b, double scale, double rtol) {
  return fabs(a - b) <= rtol * fmax(scale, fmax(fabs(a), fabs(b)));
}

// Whether event k of the two runs agree; the first disagreement is allowed
// only after a near tie (rounding decides there).
static bool same_event(const zeno_event *a, const zeno_event *b, double rtol) {
  if (a->kind != b->kind || a->outcome != b->outcome ||
      memcmp(&a->mode_after, &b->mode_after, sizeof a->mode_after) != 0 ||
      a->impact_mask != b->impact_mask || a->guard != b->guard)
    return false;
  // The contact named is the first of the guards that fire together; when
  // both slip rates of a body on two closed contacts vanish at once (a
  // structural coincidence) rounding orders them, so it is not compared.
  const double scale = fmax(state_scale(&a->after), state_scale(&b->after));
  if (!close_to(a->t, b->t, 0, rtol)) return false;
  for (int k = 0; k < 3; k++)
    if (!close_to(a->after.zod[k], b->after.zod[k], scale, rtol) ||
        !close_to(a->after.zod_rate[k], b->after.zod_rate[k], scale, rtol))
      return false;
  return true;
}

// zeno_run() runs on lean events (nobody reads them): the same run as the
// full records, its summary, energy gains (Newton's law) included.
static int lean_runs_with_gains;

static void lean_run_matches(const zeno_scene *s, const run *full) {
  zeno_summary sum;
  char word[8192];
  assert_int_equal(zeno_run(s, NULL, &sum, word, sizeof word, NULL), ZENO_OK);
  assert_string_equal(word, full->word);
  assert_int_equal(sum.outcome, full->summary.outcome);
  assert_int_equal(sum.events, full->summary.events);
  assert_int_equal(sum.energy_gains, full->summary.energy_gains);
  assert_true(sum.energy_gain_max == full->summary.energy_gain_max);
  assert_true(memcmp(&sum.final_state, &full->summary.final_state, sizeof sum.final_state) == 0);
  lean_runs_with_gains += sum.energy_gains > 0;
}

static void compare_law(zeno_impact_law law, int *compared, int *tie_split, int *late_split) {
  rng r = {SEED + (uint64_t)law};
  for (int c = 0; c < CASES_PER_LAW; c++) {
    const zeno_scene s = draw_scene(&r, law);
    run fast, general;
    if (!exec(&s, false, &general)) continue;  // penetrating start: drawn again next case
    assert_true(exec(&s, true, &fast));
    (*compared)++;
    bool tie_before = false, split = false;
    const int n = fast.count < general.count ? fast.count : general.count;
    for (int k = 0; k < n && !split; k++) {
      const double rtol = k < AGREE_EVENTS ? AGREE_RTOL : AGREE_LATE_RTOL;
      if (!same_event(&fast.events[k], &general.events[k], rtol)) {
        // Early, the paths must agree unless a near tie let rounding
        // decide; later, rounding amplified by chatter may part them.
        if (!tie_before && k < AGREE_EVENTS) {
          const zeno_event *a = &fast.events[k], *b = &general.events[k];
          fprintf(stderr,
                  "law %s case %d: event %d differs with no near tie before it: "
                  "kind %d/%d, t %.17g/%.17g\n  fast    %s\n  general %s\n",
                  zeno_impact_law_name(law), c, k, a->kind, b->kind, a->t, b->t, fast.word,
                  general.word);
          fprintf(stderr, "  mode %d%d/%d%d mask %u/%u contact %d/%d outcome %d/%d\n",
                  a->mode_after.letter[0], a->mode_after.letter[1], b->mode_after.letter[0],
                  b->mode_after.letter[1], a->impact_mask, b->impact_mask, a->contact, b->contact,
                  a->outcome, b->outcome);
          fail();
        }
        split = true;
        *late_split += !tie_before;
      }
      tie_before = tie_before || general.events[k].near_tie || fast.events[k].near_tie;
    }
    if (!split) {
      assert_int_equal(fast.count, general.count);
      assert_string_equal(fast.word, general.word);
    }
    lean_run_matches(&s, &fast);
    *tie_split += split;
    free(fast.events);
    free(general.events);
  }
}

static void runs_agree_with_the_general_path(void **state) {
  (void)state;
  const zeno_impact_law laws[] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON, ZENO_LAW_CHATTERJEE_RUINA};
  for (size_t l = 0; l < sizeof laws / sizeof laws[0]; l++) {
    int compared = 0, split = 0, late = 0;
    compare_law(laws[l], &compared, &split, &late);
    printf(
        "# %s: %d cases, %d identical, %d part after a near tie, %d after "
        "event %d with no near tie\n",
        zeno_impact_law_name(laws[l]), compared, compared - split, split - late, late,
        AGREE_EVENTS);
    // Nearly every case is a plain one: a split must stay the exception.
    assert_true(compared >= CASES_PER_LAW / 2);
    assert_true(split * 20 <= compared);
  }
  // Newton's law with friction gains energy in some runs: the lean runs'
  // gains were compared, not only zeros.
  printf("# lean runs with energy gains: %d\n", lean_runs_with_gains);
  assert_true(lean_runs_with_gains >= 5);
}

// The sample of a map at uniform grid point k (found by its exact phi).
static const zeno_cycle *grid_sample(const zeno_maps *m, size_t samples, size_t k, size_t *from) {
  const double phi = -ZENO_PI / 2 + ((double)k + 0.5) * ZENO_PI / (double)samples;
  while (*from < m->sample_count && m->samples[*from].phi < phi) ++*from;
  assert_true(*from < m->sample_count);
  assert_true(m->samples[*from].phi == phi);
  return &m->samples[*from];
}

// Breakpoint bp of one map has one of the other's within tol, or lies
// within tol of a neighbour of its own: a word narrower than the maps
// resolve (MAPS_MIN_WORD_WIDTH, 1e-9), whose sides bisection finds one
// way or the other (Example 2 near phi = -0.3756461742 has "FI PN" over
// 2.4e-10 between "FI PN SS" and "FI FP IF PF SF II").
static bool breakpoint_matched(const zeno_maps *own, size_t k, const zeno_maps *other, double tol) {
  const double bp = own->breakpoints[k];
  for (size_t j = 0; j < other->breakpoint_count; j++)
    if (fabs(other->breakpoints[j] - bp) <= tol) return true;
  return (k > 0 && bp - own->breakpoints[k - 1] <= tol) ||
         (k + 1 < own->breakpoint_count && own->breakpoints[k + 1] - bp <= tol);
}

static void maps_agree_with_the_general_path(void **state) {
  (void)state;
  const char *files[] = {"example2.yaml", "example3-zeno.yaml", "example4.yaml", "example6.yaml"};
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, files[f]);
    zeno_scene scene;
    assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
    zeno_maps_def def = zeno_maps_def_default();
    def.samples = 2000;
    zeno_maps fast, general;
    assert_int_equal(zeno_maps_compute(&scene, &def, &fast, NULL), ZENO_OK);
    def.zod_table = false;
    assert_int_equal(zeno_maps_compute(&scene, &def, &general, NULL), ZENO_OK);
    // The uniform samples: the same cycles, R and G to rounding.
    size_t ia = 0, ib = 0;
    for (size_t k = 0; k < def.samples; k++) {
      const zeno_cycle *a = grid_sample(&fast, def.samples, k, &ia);
      const zeno_cycle *b = grid_sample(&general, def.samples, k, &ib);
      assert_string_equal(a->word, b->word);
      assert_string_equal(a->outcomes, b->outcomes);
      assert_int_equal(a->defined, b->defined);
      assert_int_equal(a->end, b->end);
      assert_true(close_to(a->tie_margin, b->tie_margin, 0, AGREE_LATE_RTOL));
      if (!a->defined) continue;
      assert_true(close_to(a->R, b->R, 1, AGREE_RTOL));
      assert_true(close_to(a->G, b->G, 1, AGREE_RTOL));
      assert_true(close_to(a->T, b->T, 0, AGREE_RTOL));
    }
    // Breakpoints are bisection ends: where a branch ends on a decision that
    // changes slowly with phi, rounding moves them by more than the
    // bisection's width (1.2e-11 at one of Example 2's); within the maps'
    // own resolution of a breakpoint they are the same.
    const double tol = def.fixed_point_breakpoint_tol;
    for (size_t k = 0; k < fast.breakpoint_count; k++)
      assert_true(breakpoint_matched(&fast, k, &general, tol));
    for (size_t k = 0; k < general.breakpoint_count; k++)
      assert_true(breakpoint_matched(&general, k, &fast, tol));
    assert_int_equal(fast.fixed_point_count, general.fixed_point_count);
    for (size_t k = 0; k < fast.fixed_point_count; k++) {
      assert_true(fabs(fast.fixed_points[k].phi - general.fixed_points[k].phi) <= tol);
      assert_int_equal(fast.fixed_points[k].convergent, general.fixed_points[k].convergent);
      assert_true(close_to(fast.fixed_points[k].G, general.fixed_points[k].G, 1, tol));
    }
    assert_true(close_to(fast.G_max, general.G_max, 1, AGREE_RTOL));
    zeno_maps_free(&fast);
    zeno_maps_free(&general);
  }
}

// Every kinematic class has its own code, below 36^2.
static void class_codes_are_distinct(void **state) {
  (void)state;
  static unsigned char seen[1296];
  memset(seen, 0, sizeof seen);
  int classes = 0;
  for (int k = 0; k < 1296; k++) {
    mode_class cls;
    memset(&cls, 0, sizeof cls);
    int v = k;
    for (int i = 0; i < ZENO_PAIR_CONTACTS; i++) {
      cls.gap[i] = (unsigned char)(v % 3), v /= 3;
      cls.slip[i] = (unsigned char)(v % 3), v /= 3;
      cls.lifting[i] = v % 2, v /= 2;
      cls.leaving_stick[i] = v % 2, v /= 2;
    }
    const unsigned code = sim_table_class_code(&cls);
    assert_true(code < 1296);
    assert_int_equal(seen[code], 0);
    seen[code] = 1;
    classes++;
  }
  assert_int_equal(classes, 1296);
}

// A table takes three quarters of its slots, finds each of them, and
// forgets nothing it took when more come.
static void a_full_table_remembers_what_it_took(void **state) {
  (void)state;
  static sim_table t;
  memset(&t, 0, sizeof t);
  for (unsigned code = 0; code < SIM_TABLE_CLASSES; code++) {
    sim_choice ch;
    memset(&ch, 0, sizeof ch);
    ch.count = 1;
    ch.code[0] = (uint8_t)(code % 16);
    ch.margin = (double)code;
    // Codes a table apart share their first slot: probing must sort them.
    sim_table_store(&t, code * SIM_TABLE_CLASSES + 7, &ch);
  }
  assert_int_equal(t.classes, 3 * SIM_TABLE_CLASSES / 4);
  for (unsigned code = 0; code < SIM_TABLE_CLASSES; code++) {
    const sim_choice *c = sim_table_find(&t, code * SIM_TABLE_CLASSES + 7);
    if (code < 3 * SIM_TABLE_CLASSES / 4) {
      assert_non_null(c);
      assert_true(c->margin == (double)code);
    } else {
      assert_null(c);
    }
  }
}

// The letter maps give contact_solve's answer for every letter pair, on the
// first uses (the solve itself), the one that makes the map and later.
static void letter_maps_match_the_solve(void **state) {
  (void)state;
  // A two-contact body with an unbalanced load and unequal friction.
  contact_dyn d;
  double W[3][4] = {{0, 1, 0, 1}, {1, 0, 1, 0}, {-1, 0, 1, 0.5}};
  const double inv_mass[3] = {1, 1, 1}, h[3] = {0.3, -1, 0.1}, bias[4] = {0, 0, 0, 0};
  const double mu[2] = {0.4, 0.7};
  contact_dyn_build(&d, 2, W, inv_mass, h, bias, mu);
  static contact_letter_maps maps;
  memset(&maps, 0, sizeof maps);
  rng r = {SEED};
  int singular = 0;
  for (int use = 0; use < CONTACT_MAP_AFTER_USES + 3; use++)
    for (int code = 0; code < 16; code++) {
      const unsigned char letter[2] = {(unsigned char)(code % 4), (unsigned char)(code / 4)};
      double b[4], x0[4], y0[4], x1[4], y1[4];
      for (int a = 0; a < 4; a++) b[a] = rng_uniform(&r, -2, 2);
      const bool ok0 = contact_solve(&d, b, letter, x0, y0);
      const bool ok1 = contact_solve_mapped(&d, &maps, b, letter, x1, y1);
      assert_int_equal(ok0, ok1);
      if (!ok0) {
        singular += use == 0;
        continue;
      }
      double size = 0;
      for (int a = 0; a < 4; a++) size = fmax(size, fmax(fabs(x0[a]), fabs(b[a])));
      for (int a = 0; a < 4; a++) {
        assert_true(fabs(x0[a] - x1[a]) <= MAP_RTOL * size);
        assert_true(fabs(y0[a] - y1[a]) <= MAP_RTOL * size);
      }
    }
  // SS is the statically indeterminate pair: four constraints, three
  // degrees of freedom.
  assert_int_equal(singular, 1);
  const int ss = ZENO_LETTER_S + 4 * ZENO_LETTER_S;
  for (int code = 0; code < 16; code++) assert_int_equal(maps.state[code], code == ss ? 2 : 1);
  // No maps: the solve itself, bit for bit.
  const unsigned char sp[2] = {ZENO_LETTER_S, ZENO_LETTER_P};
  const double b[4] = {0.1, -0.7, 0.3, 0.2};
  double x0[4], y0[4], x1[4], y1[4];
  assert_true(contact_solve(&d, b, sp, x0, y0));
  assert_true(contact_solve_mapped(&d, NULL, b, sp, x1, y1));
  assert_memory_equal(x0, x1, sizeof x0);
  assert_memory_equal(y0, y1, sizeof y0);
}

// A random ZOD start (q' in [0, 1]^2 x [-1, 1], qdot' in [-1, 1]^3) and
// the scene that starts there.
static zeno_scene draw_start(rng *r, const zeno_scene *scene, double qp[3], double qdp[3]) {
  qp[0] = rng_uniform(r, 0, 1);
  qp[1] = rng_uniform(r, 0, 1);
  qp[2] = rng_uniform(r, -1, 1);
  for (int j = 0; j < 3; j++) qdp[j] = rng_uniform(r, -1, 1);
  zeno_scene s = *scene;
  s.initial_kind = ZENO_INITIAL_ZOD;
  memcpy(s.initial_qp, qp, 3 * sizeof *qp);
  memcpy(s.initial_qdp, qdp, 3 * sizeof *qdp);
  return s;
}

// A restarted simulator runs as a fresh one from the same state: the same
// events and word, times and states to 1e-12 (its table is warm, a fresh
// one's cold: their letter systems round differently).
static void restart_runs_as_a_fresh_simulator(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/example2.yaml", ZENO_SCENES_DIR);
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  zeno_sim *sim = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(sim);
  int count;
  free(collect_events(sim, &count));
  rng r = {SEED};
  for (int k = 0; k < 50; k++) {
    double qp[3], qdp[3];
    const zeno_scene fresh_scene = draw_start(&r, &scene, qp, qdp);
    run fresh;
    assert_true(exec(&fresh_scene, true, &fresh));
    assert_int_equal(zeno_sim_restart(sim, qp, qdp, NULL), ZENO_OK);
    run again;
    again.events = collect_events(sim, &again.count);
    zeno_sim_word(sim, again.word, sizeof again.word);
    assert_string_equal(again.word, fresh.word);
    assert_int_equal(again.count, fresh.count);
    for (int e = 0; e < fresh.count; e++)
      assert_true(same_event(&again.events[e], &fresh.events[e], AGREE_RTOL));
    free(fresh.events);
    free(again.events);
  }
  // Errors leave the simulator as it was.
  zeno_error err;
  const double nan3[3] = {0, NAN, 0}, zero[3] = {0, 0, 0}, below[3] = {-0.1, 0, 0};
  assert_int_equal(zeno_sim_restart(sim, nan3, zero, &err), ZENO_ERR_RANGE);
  assert_non_null(strstr(err.message, "not finite"));
  assert_int_equal(zeno_sim_restart(sim, below, zero, &err), ZENO_ERR_RANGE);
  assert_non_null(strstr(err.message, "penetrates the surface at contact 1"));
  assert_int_equal(zeno_sim_restart(NULL, zero, zero, &err), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_sim_restart(sim, NULL, zero, &err), ZENO_ERR_ARGUMENT);
  zeno_sim_destroy(sim);
  const char *full[] = {"model=full", "epsilon=1e-3"};
  assert_int_equal(zeno_scene_load(path, full, 2, &scene, NULL), ZENO_OK);
  sim = zeno_sim_create(&scene, &def, NULL);
  assert_non_null(sim);
  assert_int_equal(zeno_sim_restart(sim, zero, zero, &err), ZENO_ERR_ARGUMENT);
  assert_non_null(strstr(err.message, "ZOD simulator"));
  zeno_sim_destroy(sim);
}

// Runs on one simulator restarted from many states, its impacts resolved
// through its maps from their first use (sim_use_impact_maps, as the
// region maps' Monte-Carlo runs use it): each run equals, bit for bit, the
// run of a fresh simulator doing the same, whatever ran before it. Without
// it, a warm table
// resolves by its maps what a cold one still solves: some runs differ in
// their last bits (the check has teeth).
static bool bit_equal(const run *a, const run *b) {
  if (a->count != b->count || strcmp(a->word, b->word) != 0) return false;
  for (int e = 0; e < a->count; e++)
    if (a->events[e].t != b->events[e].t ||
        memcmp(a->events[e].after.zod, b->events[e].after.zod, sizeof a->events[e].after.zod) ||
        memcmp(a->events[e].after.zod_rate, b->events[e].after.zod_rate,
               sizeof a->events[e].after.zod_rate))
      return false;
  return true;
}

static void collect_run(zeno_sim *sim, run *out) {
  out->events = collect_events(sim, &out->count);
  zeno_sim_word(sim, out->word, sizeof out->word);
}

static void made_maps_make_runs_independent(void **state) {
  (void)state;
  rng r = {SEED + 7};
  int differ_cold = 0, compared = 0;
  for (int law = 0; law < 2; law++)
    for (int c = 0; c < 20; c++) {
      const zeno_scene s = draw_scene(&r, law ? ZENO_LAW_NEWTON : ZENO_LAW_INELASTIC);
      zeno_sim_def def = zeno_sim_def_default();
      def.keep_history = false;
      zeno_sim *warm = zeno_sim_create(&s, &def, NULL),
               *warm_cold = zeno_sim_create(&s, &def, NULL);
      if (warm == NULL) continue;  // a draw the loop refuses (as exec skips)
      assert_non_null(warm_cold);
      sim_use_impact_maps(warm);
      for (int k = 0; k < 10; k++) {
        double qp[3], qdp[3];
        const zeno_scene fs = draw_start(&r, &s, qp, qdp);
        zeno_sim *fresh = zeno_sim_create(&fs, &def, NULL),
                 *cold = zeno_sim_create(&fs, &def, NULL);
        assert_non_null(fresh);
        assert_non_null(cold);
        sim_use_impact_maps(fresh);
        run a, b, x, y;
        collect_run(fresh, &a);
        assert_int_equal(zeno_sim_restart(warm, qp, qdp, NULL), ZENO_OK);
        collect_run(warm, &b);
        assert_true(bit_equal(&a, &b));
        collect_run(cold, &x);
        assert_int_equal(zeno_sim_restart(warm_cold, qp, qdp, NULL), ZENO_OK);
        collect_run(warm_cold, &y);
        differ_cold += !bit_equal(&x, &y);
        compared++;
        free(a.events);
        free(b.events);
        free(x.events);
        free(y.events);
        zeno_sim_destroy(fresh);
        zeno_sim_destroy(cold);
      }
      zeno_sim_destroy(warm);
      zeno_sim_destroy(warm_cold);
    }
  print_message(
      "# %d runs on restarted simulators: bit-equal with the maps made; "
      "%d differ without\n",
      compared, differ_cold);
  assert_true(compared >= 300);
  assert_true(differ_cold > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(class_codes_are_distinct),
      cmocka_unit_test(a_full_table_remembers_what_it_took),
      cmocka_unit_test(letter_maps_match_the_solve),
      cmocka_unit_test(runs_agree_with_the_general_path),
      cmocka_unit_test(maps_agree_with_the_general_path),
      cmocka_unit_test(restart_runs_as_a_fresh_simulator),
      cmocka_unit_test(made_maps_make_runs_independent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
