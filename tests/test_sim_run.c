// zeno_sim_run() against the event loop it stands for. A run it makes on
// the table's flat kernel (src/sim/sim_kernel.c, sim_kernel_run) has the
// loop's word, outcome, event, impact and section counts and energy gains,
// and its times, section angles and final state to rounding; a run the
// kernel hands back is the loop's, bit for bit. On the shipped two-contact
// ZOD scenes and on random equilibria of the paper's parameterisation under
// the three impact laws, from random starts, with time limits and escape
// radii that end some runs there; then the API's other cases (a run
// already started, dense output kept, errors).
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"
#include "test_util.h"
#include "zeno/zeno.h"

#define SEED 20261126u
/// Random starts per shipped scene, and per random scene.
#define STARTS_PER_SCENE TEST_SCALED(400)
#define STARTS_PER_RANDOM TEST_SCALED(40)
/// Random scenes per law.
#define SCENES_PER_LAW TEST_SCALED(30)
/// The kernel forms the loop's quantities in another order: times, angles
/// and states agree to rounding (of the value or of 1: the scenes' unit
/// accelerations and speeds of order 1), carried through a run's impacts
/// (at most 1.1e-13 on the shipped scenes, 9e-13 on random ones) ...
#define RUN_RTOL 1e-11
/// ... and through a chatter (a Zeno completion, or more impacts than
/// CHATTER_IMPACTS), which amplifies it at each impact and each
/// extrapolation of a limit: below the loop's zero velocity
/// (zeno_sim_def.velocity_rtol), under which it changes no decision, as
/// test_zod_table allows later events; ...
#define RUN_ZENO_RTOL 1e-9
#define CHATTER_IMPACTS 20
/// ... but for a few runs of tens of completions in a row (5.4e-9 after 25
/// of a Newton chatter), which must stay rare (a percent of the runs) and
/// still far below anything a plot or a decision could see.
#define RUN_LATE_RTOL 1e-6
/// Rounding differences grow in a chatter (each impact carries them
/// forward, amplified): after tens of impacts they may reach a decision's
/// margin and part the two runs, as test_zod_table finds between the
/// table and the general path. Words may differ only after this many
/// tokens, in a few runs.
#define SPLIT_TOKENS 40
/// A chatter of more impacts than this that completes no sequence (a
/// Newton bouncing to the time limit) carries the difference up to where
/// it is no longer small (5e-5 after 2035 impacts, with the same word): the
/// loop's own numbers are that sensitive to the last bit of the start, so
/// such runs are compared by their words and counts only.
#define LONG_CHATTER_IMPACTS 200
#define WORD_SIZE 8192

typedef struct tally {
  long runs;
  long kernel;        ///< runs the kernel made whole
  long mixed;         ///< runs it made but for the loop's Zeno completions or end
  long zeno;          ///< of those, runs with a Zeno completion
  long split;         ///< runs whose words part after SPLIT_TOKENS
  long long_chatter;  ///< runs of more than LONG_CHATTER_IMPACTS impacts
  long late;          ///< runs whose completions carried a difference past RUN_ZENO_RTOL
  long ends[ZENO_OUTCOME_WALL_LIMIT + 1];  ///< outcomes of the runs the kernel took
  long with_gains;                         ///< kernel runs with energy gains
  long sections;                           ///< section crossings of kernel runs
  double dev;                              ///< largest relative difference
} tally;

typedef struct result {
  zeno_summary sum;
  char word[WORD_SIZE];
} result;

// The index of the first token at which two words differ.
static size_t first_difference(const char *a, const char *b) {
  size_t tokens = 0;
  for (size_t k = 0; a[k] == b[k] && a[k] != '\0'; k++) tokens += a[k] == ' ';
  return tokens;
}

static void result_of(const zeno_sim *sim, result *out) {
  zeno_sim_summary(sim, &out->sum);
  zeno_sim_word(sim, out->word, sizeof out->word);
}

static double dev_of(double a, double b) {
  if (a == b) return 0;  // infinities and zeros alike
  return fabs(a - b) / fmax(1, fmax(fabs(a), fabs(b)));
}

// The largest relative difference of the numbers the two summaries carry.
static double summary_dev(const zeno_summary *a, const zeno_summary *b) {
  double d = dev_of(a->t, b->t);
  const zeno_state *x = &a->final_state, *y = &b->final_state;
  for (int k = 0; k < 3; k++) {
    d = fmax(d, dev_of(x->zod[k], y->zod[k]));
    d = fmax(d, dev_of(x->zod_rate[k], y->zod_rate[k]));
    d = fmax(d, dev_of(x->q[k], y->q[k]));
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) d = fmax(d, dev_of(x->force[i][j], y->force[i][j]));
  const size_t n = a->section_count < ZENO_SUMMARY_SECTIONS ? a->section_count
                                                            : ZENO_SUMMARY_SECTIONS;
  for (size_t k = 0; k < n; k++) d = fmax(d, dev_of(a->section_angles[k], b->section_angles[k]));
  return d;
}

static bool bit_equal(const result *a, const result *b) {
  return strcmp(a->word, b->word) == 0 && a->sum.t == b->sum.t &&
         memcmp(&a->sum.final_state, &b->sum.final_state, sizeof a->sum.final_state) == 0 &&
         a->sum.events == b->sum.events;
}

// One start on the three simulators (each with its impact maps made, so
// that each run is a function of its start): `run` by zeno_sim_run(),
// `loop` by the event loop, `probe` to tell whether the kernel takes it.
static void compare_start(zeno_sim *run, zeno_sim *loop, zeno_sim *probe, const double qp[3],
                          const double qdp[3], tally *t) {
  if (zeno_sim_restart(loop, qp, qdp, NULL) != ZENO_OK) return;  // penetrating
  assert_int_equal(zeno_sim_restart(run, qp, qdp, NULL), ZENO_OK);
  assert_int_equal(zeno_sim_restart(probe, qp, qdp, NULL), ZENO_OK);
  // The kernel's first stretch (none where it does not run the scene).
  const sim_kernel_end first = sim_kernel_runs(probe) ? sim_kernel_run(probe) : SIM_KERNEL_BACK;
  int count;
  free(collect_events(loop, &count));
  assert_int_equal(zeno_sim_run(run, NULL), ZENO_OK);
  assert_int_equal(zeno_sim_outcome(run), zeno_sim_outcome(loop));
  static result a, b;
  result_of(run, &a);
  result_of(loop, &b);
  if (strcmp(a.word, b.word) != 0) {
    // Only a long chatter may part the two (see SPLIT_TOKENS).
    const size_t at = first_difference(a.word, b.word);
    if (at < SPLIT_TOKENS)
      fprintf(stderr, "kernel %d: run '%s', loop '%s'\n", (int)first, a.word, b.word);
    assert_true(at >= SPLIT_TOKENS);
    t->runs++;
    t->split++;
    return;
  }
  assert_int_equal(a.sum.outcome, b.sum.outcome);
  assert_int_equal(a.sum.events, b.sum.events);
  assert_int_equal(a.sum.events, count);
  assert_int_equal(a.sum.impacts, b.sum.impacts);
  assert_int_equal(a.sum.has_zeno, b.sum.has_zeno);
  assert_int_equal(a.sum.section_count, b.sum.section_count);
  assert_int_equal(a.sum.energy_gains, b.sum.energy_gains);
  assert_memory_equal(&a.sum.final_state.mode, &b.sum.final_state.mode,
                      sizeof a.sum.final_state.mode);
  const double dev = summary_dev(&a.sum, &b.sum);
  const bool chatter = a.sum.has_zeno || a.sum.impacts > CHATTER_IMPACTS;
  const double rtol = chatter ? RUN_LATE_RTOL : RUN_RTOL;
  if (a.sum.impacts <= LONG_CHATTER_IMPACTS) {
    if (dev > rtol) fprintf(stderr, "%ld impacts: deviation %g\n", a.sum.impacts, dev);
    assert_true(dev <= rtol);
    t->late += dev > RUN_ZENO_RTOL;
    if (first != SIM_KERNEL_BACK) t->dev = fmax(t->dev, dev);
  } else {
    t->long_chatter++;
  }
  t->runs++;
  if (first == SIM_KERNEL_BACK) {
    // Handed back at once: the loop's run from the start, bit for bit.
    assert_true(bit_equal(&a, &b));
    return;
  }
  t->ends[a.sum.outcome]++;
  t->with_gains += a.sum.energy_gains > 0;
  t->sections += (long)a.sum.section_count;
  if (first == SIM_KERNEL_DONE) {
    t->kernel++;
    // The probe's run is zeno_sim_run's.
    static result c;
    result_of(probe, &c);
    assert_true(bit_equal(&a, &c));
  } else {
    t->mixed++;
    t->zeno += a.sum.has_zeno;
  }
}

// A shipped scene, by its file's name without ".yaml".
static zeno_scene shipped(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.yaml", ZENO_SCENES_DIR, name);
  zeno_scene s;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &s, NULL), ZENO_OK);
  return s;
}

static zeno_sim *make_sim(const zeno_scene *s) {
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  zeno_sim *sim = zeno_sim_create(s, &def, NULL);
  if (sim != NULL) sim_use_impact_maps(sim);
  return sim;
}

// Random starts of a scene, a tenth of them touching at one contact (as
// the region maps' Monte-Carlo runs draw them).
static void compare_scene(const zeno_scene *s, rng *r, int starts, tally *t) {
  zeno_sim *run = make_sim(s), *loop = make_sim(s), *probe = make_sim(s);
  if (run == NULL) return;  // a draw the loop refuses
  assert_non_null(loop);
  assert_non_null(probe);
  assert_int_equal(sim_kernel_prepare(probe), ZENO_OK);
  for (int k = 0; k < starts; k++) {
    double qp[3] = {rng_uniform(r, 0, 1), rng_uniform(r, 0, 1), rng_uniform(r, -1, 1)}, qdp[3];
    for (int j = 0; j < 3; j++) qdp[j] = rng_uniform(r, -1, 1);
    if (k % 10 == 1) qp[0] = 0;
    if (k % 10 == 2) qp[1] = 0, qdp[1] = -fabs(qdp[1]);
    compare_start(run, loop, probe, qp, qdp, t);
  }
  zeno_sim_destroy(run);
  zeno_sim_destroy(loop);
  zeno_sim_destroy(probe);
}

static void print_tally(const char *what, const tally *t) {
  printf(
      "# %s: %ld runs (%ld part after %d tokens): %ld on the kernel alone, "
      "%ld with the loop's completions or end (%ld with Zeno), %ld handed back; "
      "kernel runs ending at rest %ld, time limit %ld, escaped %ld, diverging %ld; "
      "%ld with energy gains, %ld section crossings; largest difference %.2g "
      "(%ld past %g; %ld long chatters compared by their words)\n",
      what, t->runs, t->split, SPLIT_TOKENS, t->kernel, t->mixed, t->zeno,
      t->runs - t->kernel - t->mixed - t->split, t->ends[ZENO_OUTCOME_REST],
      t->ends[ZENO_OUTCOME_TIME_LIMIT], t->ends[ZENO_OUTCOME_ESCAPED],
      t->ends[ZENO_OUTCOME_DIVERGING], t->with_gains, t->sections, t->dev, t->late, RUN_ZENO_RTOL,
      t->long_chatter);
  // A rate: the full counts' (TEST_SCALED cuts the runs under the sanitizers).
  if (!TEST_SANITIZED) assert_true(t->late * 100 <= t->runs);
}

static void shipped_scenes_agree(void **state) {
  (void)state;
  static const char *const names[] = {"example2", "example3-zeno",   "example3-reverse",
                                      "example4", "example4-newton", "example4-cr",
                                      "example6", "example7"};
  rng r = {SEED};
  tally all = {0};
  for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
    const zeno_scene s = shipped(names[n]);
    tally t = {0};
    compare_scene(&s, &r, STARTS_PER_SCENE, &t);
    print_tally(names[n], &t);
    assert_true(t.runs >= STARTS_PER_SCENE * 9 / 10);
    // Chatterjee-Ruina's law is the event loop's; elsewhere most runs are
    // the kernel's.
    if (s.impact_law == ZENO_LAW_CHATTERJEE_RUINA) assert_int_equal(t.kernel + t.mixed, 0);
    else assert_true((t.kernel + t.mixed) * 2 >= t.runs);
    all.kernel += t.kernel;
    all.with_gains += t.with_gains;
    all.sections += t.sections;
  }
  assert_true(all.sections > 1000);

  // Example 2 from its own start is the kernel's, with the paper's word.
  const zeno_scene s = shipped("example2");
  zeno_sim *probe = make_sim(&s);
  assert_int_equal(sim_kernel_prepare(probe), ZENO_OK);
  assert_int_equal(sim_kernel_run(probe), SIM_KERNEL_DONE);
  result a;
  result_of(probe, &a);
  assert_string_equal(a.word, "FF IF PF FI FP IF PF SF II SS");
  assert_int_equal(a.sum.outcome, ZENO_OUTCOME_REST);
  assert_int_equal(a.sum.events, 7);
  assert_int_equal(a.sum.impacts, 4);
  assert_true(fabs(a.sum.final_state.zod[2] - 14.8681) < 1e-4);
  zeno_sim_destroy(probe);
}

// Random equilibria of the paper's ranges (as test_properties draws them)
// under each law, with a time limit or an escape radius that ends a share
// of the runs there.
static void random_scenes_agree(void **state) {
  (void)state;
  const zeno_impact_law laws[] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON, ZENO_LAW_CHATTERJEE_RUINA};
  for (size_t l = 0; l < sizeof laws / sizeof laws[0]; l++) {
    rng r = {SEED + 1 + l};
    tally t = {0};
    for (int c = 0; c < SCENES_PER_LAW; c++) {
      const zeno_paper_params p = {rng_uniform(&r, -60, 60),
                                   rng_uniform(&r, -3, 3),
                                   rng_uniform(&r, -3, 3),
                                   rng_uniform(&r, 0.2, 2),
                                   rng_uniform(&r, -60, 80),
                                   rng_uniform(&r, -60, 80),
                                   rng_uniform(&r, 0.1, 1),
                                   rng_uniform(&r, 0.1, 1),
                                   1,
                                   1,
                                   1,
                                   0};
      const double qp[3] = {0.5, 0.5, 0}, qdp[3] = {0, 0, 0};
      zeno_scene s = paper_scene(p, qp, qdp);
      s.impact_law = laws[l];
      s.restitution = laws[l] == ZENO_LAW_INELASTIC ? 0 : rng_uniform(&r, 0, 0.9);
      s.tangential_restitution = laws[l] == ZENO_LAW_CHATTERJEE_RUINA ? rng_uniform(&r, -0.5, 0.5)
                                                                      : 0;
      if (c % 3 == 1) s.t_end = rng_uniform(&r, 0.5, 3);
      if (c % 3 == 2) s.escape_radius = rng_uniform(&r, 2, 5);
      compare_scene(&s, &r, STARTS_PER_RANDOM, &t);
    }
    print_tally(zeno_impact_law_name(laws[l]), &t);
    assert_true(t.runs >= SCENES_PER_LAW * STARTS_PER_RANDOM / 2);
    if (laws[l] == ZENO_LAW_CHATTERJEE_RUINA) {
      assert_int_equal(t.kernel + t.mixed, 0);
      continue;
    }
    // Most runs are the kernel's, and each way its runs end was compared.
    assert_true((t.kernel + t.mixed) * 2 >= t.runs);
    assert_true(t.split * 50 <= t.runs);
    assert_true(t.ends[ZENO_OUTCOME_REST] > 0);
    assert_true(t.ends[ZENO_OUTCOME_TIME_LIMIT] > 0);
    assert_true(t.ends[ZENO_OUTCOME_ESCAPED] > 0);
    if (laws[l] == ZENO_LAW_NEWTON) assert_true(t.with_gains > 0);
  }
}

// A run already started goes on in the event loop; a finished one stays
// as it is; dense output kept (keep_history) runs the loop, whose segments
// are then all there; the errors.
static void other_cases(void **state) {
  (void)state;
  const zeno_scene s = shipped("example2");
  zeno_sim *sim = make_sim(&s);
  zeno_event ev;
  for (int k = 0; k < 3; k++) assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_OK);
  assert_int_equal(zeno_sim_run(sim, NULL), ZENO_OK);
  result a;
  result_of(sim, &a);
  assert_string_equal(a.word, "FF IF PF FI FP IF PF SF II SS");
  assert_int_equal(a.sum.events, 7);
  assert_int_equal(zeno_sim_run(sim, NULL), ZENO_OK);  // finished: nothing more
  result b;
  result_of(sim, &b);
  assert_true(bit_equal(&a, &b));
  assert_int_equal(zeno_sim_next_event(sim, &ev, NULL), ZENO_DONE);
  zeno_sim_destroy(sim);

  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = true;
  sim = zeno_sim_create(&s, &def, NULL);
  assert_int_equal(zeno_sim_run(sim, NULL), ZENO_OK);
  zeno_state st;
  assert_int_equal(zeno_sim_state_at(sim, 1.0, &st, NULL), ZENO_OK);
  assert_int_equal(zeno_sim_outcome(sim), ZENO_OUTCOME_REST);
  zeno_sim_destroy(sim);

  // Without keep_history the kernel's run leaves the final instant.
  sim = make_sim(&s);
  assert_int_equal(zeno_sim_run(sim, NULL), ZENO_OK);
  zeno_summary sum;
  zeno_sim_summary(sim, &sum);
  assert_int_equal(zeno_sim_state_at(sim, sum.t, &st, NULL), ZENO_OK);
  assert_true(st.zod[2] == sum.final_state.zod[2]);
  zeno_error err;
  assert_int_equal(zeno_sim_state_at(sim, 1.0, &st, &err), ZENO_ERR_RANGE);
  zeno_sim_destroy(sim);

  assert_int_equal(zeno_sim_run(NULL, &err), ZENO_ERR_ARGUMENT);
  assert_non_null(strstr(err.message, "simulator"));
  assert_int_equal(zeno_sim_run(NULL, NULL), ZENO_ERR_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(shipped_scenes_agree),
      cmocka_unit_test(random_scenes_agree),
      cmocka_unit_test(other_cases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
