// The flat kernel (src/sim/sim_kernel.c), the Poincaré maps' fast path,
// against the event loop it stands for (sim_cycle_run_loop, its oracle),
// on the same simulator and table: on the paper's scenes and on random
// equilibria of the paper's parameterisation under every impact law, every
// cycle the kernel takes has the loop's word, outcomes, end and return, R,
// G and T to 1e-12 and tie margins to 1e-9; it takes nearly all of the
// paper's cycles, and hands back what it must not take (many impacts, near
// ties, a law it does not resolve). Near breakpoints located to the last
// bit, it has the loop's words beyond 1e-14 rad of them.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "maps/poincare_internal.h"
#include "sim/sim_cycle.h"
#include "sim/sim_kernel.h"
#include "test_util.h"
#include "zeno/zeno.h"

/// Section angles per scene, uniform over I (as the maps sample it).
#define ANGLES TEST_SCALED(1500)
/// Random scenes per law.
#define SCENES_PER_LAW TEST_SCALED(40)
#define SEED 20261125u

/// The kernel against the loop: the same decisions on quantities formed in
/// another order, so R, G and T agree to rounding (the 1e-12, of
/// the value or of 1: the section's unit speed and the scenes' unit
/// accelerations make times and rates of order 1, and a cycle of 1e-4 that
/// ends in a small difference of impulses differs by 1e-16 absolute, 6e-12
/// relative), and the tie margins, differences of nearby crossing times
/// over their sum, to rounding amplified by that quotient.
#define KERNEL_RTOL 1e-12
#define KERNEL_TIE_TOL 1e-9

typedef struct tally {
  long cycles, returned, rested, away;  ///< the loop's cycles and how they ended
  long kernel;                          ///< cycles the kernel took
  double kernel_dev;                    ///< largest relative difference of R, G, T from the loop's
  double kernel_tie_dev;                ///< largest difference of a tie margin
} tally;

static double rel_dev(double a, double b, double scale) {
  return fabs(a - b) / fmax(scale, fmax(fabs(a), fabs(b)));
}

// The kernel's cycle against the loop's.
static void compare_kernel(const sim_cycle *k, const sim_cycle *l, tally *t) {
  t->kernel++;
  if (strcmp(k->word, l->word) != 0 || strcmp(k->outcomes, l->outcomes) != 0)
    fprintf(stderr, "kernel '%s' [%s], loop '%s' [%s]\n", k->word, k->outcomes, l->word,
            l->outcomes);
  assert_string_equal(k->word, l->word);
  assert_string_equal(k->outcomes, l->outcomes);
  assert_int_equal(k->word_len, l->word_len);
  assert_int_equal(k->outcomes_len, l->outcomes_len);
  assert_int_equal(k->returned, l->returned);
  t->kernel_tie_dev = fmax(t->kernel_tie_dev, fabs(k->tie_margin - l->tie_margin));
  assert_true(k->tie_margin >= 0 && k->tie_margin <= 1);
  assert_true(fabs(k->tie_margin - l->tie_margin) <= KERNEL_TIE_TOL);
  if (!k->returned) {
    assert_int_equal(k->end, l->end);
    return;
  }
  const double dev = fmax(fmax(rel_dev(k->angle, l->angle, 1), rel_dev(k->rate, l->rate, 1)),
                          rel_dev(k->t, l->t, 1));
  t->kernel_dev = fmax(t->kernel_dev, dev);
  assert_true(dev <= KERNEL_RTOL);
}

// One cycle both ways on one runner: the kernel, then the event loop.
static void compare_cycle(cycle_runner *r, double phi, tally *t) {
  const double qdp[3] = {0, -cos(phi), sin(phi)};
  sim_cycle kern, loop;
  const bool kernel = sim_kernel_cycle(r->sim, qdp, &kern);
  assert_int_equal(sim_cycle_run_loop(r->sim, qdp, &loop, NULL), ZENO_OK);
  t->cycles++;
  t->returned += loop.returned;
  t->rested += !loop.returned && loop.end == ZENO_OUTCOME_REST;
  t->away += !loop.returned &&
             (loop.end == ZENO_OUTCOME_ESCAPED || loop.end == ZENO_OUTCOME_TIME_LIMIT);
  if (kernel) compare_kernel(&kern, &loop, t);
}

static void compare_scene(const zeno_scene *scene, void *context) {
  tally *t = context;
  cycle_runner r;
  if (!ordered_runner(scene, &r)) return;  // nothing to compare
  assert_true(r.fast);
  for (int k = 0; k < ANGLES; k++)
    compare_cycle(&r, -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / ANGLES, t);
  poincare_runner_free(&r);
}

static void paper_scenes_agree(void **state) {
  (void)state;
  for (size_t f = 0; f < CYCLE_TEST_SCENE_COUNT; f++) {
    zeno_scene scene;
    assert_int_equal(load_repo_scene(CYCLE_TEST_SCENES[f], &scene), ZENO_OK);
    tally t = {0};
    compare_scene(&scene, &t);
    printf(
        "# %s: %ld cycles (%ld returned, %ld at rest), the kernel took %ld (R, G, T "
        "to %.2g, tie margins to %.2g)\n",
        CYCLE_TEST_SCENES[f], t.cycles, t.returned, t.rested, t.kernel, t.kernel_dev,
        t.kernel_tie_dev);
    assert_int_equal(t.cycles, ANGLES);
    // The paper's cycles are the kernel's. It hands back cycles with a
    // decision at a tie: the rocking block's rests after a double impact
    // (57 of 1500), where a mode's slack is zero by its symmetry.
    assert_true(t.kernel >= ANGLES - ANGLES / 20);
    assert_true(t.returned > 0);
  }
}

static void random_scenes_agree(void **state) {
  (void)state;
  for (int l = 0; l < ZENO_LAW_COUNT; l++) {
    const zeno_impact_law law = (zeno_impact_law)l;
    const zeno_impact_law_info info = zeno_impact_law_info_of(law);
    tally t = {0};
    visit_law_scenes(SEED + (uint64_t)l, law, SCENES_PER_LAW, compare_scene, &t);
    printf(
        "# %s: %ld cycles (%ld returned, %ld at rest, %ld escaped or at the time "
        "limit), the kernel took %ld (R, G, T to %.2g, tie margins to %.2g)\n",
        zeno_impact_law_name(law), t.cycles, t.returned, t.rested, t.away, t.kernel, t.kernel_dev,
        t.kernel_tie_dev);
    assert_true(t.returned > 0 && t.away > 0);
    if (!info.complementarity) {  // a rule of its own: the loop's alone
      assert_int_equal(t.kernel, 0);
      continue;
    }
    if (!info.restitution) {
      // A plastic law's cycles are the kernel's (measured: all 60,000 of
      // the inelastic law's), those that escape or slide on to the time
      // limit included.
      assert_true(t.kernel >= t.cycles - t.cycles / 100);
      assert_true(t.rested > 0);
    } else {
      // With restitution a cycle bounces, and past ratio_periods + 1
      // impacts it is the event loop's (measured: 74% of Newton's).
      assert_true(t.kernel > 0 && t.kernel < t.cycles);
    }
  }
}

// A cycle is a function of its section angle alone: on a fresh runner and
// on one that ran the whole map before it (made its classes, projections
// and contexts), word, outcomes, tie margin, R, G and T are the same to the
// last bit. The maps share their samples out among runners on this.
static void cycles_do_not_depend_on_history(void **state) {
  (void)state;
  const char *files[] = {"example2.yaml", "example6.yaml", "rocking-block.yaml"};
  enum { PROBES = 40 };
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, files[f]);
    zeno_scene scene, ordered;
    assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
    poincare_ordered_scene(&scene, &ordered);
    cycle_runner warm;
    assert_int_equal(poincare_runner_init(&warm, &ordered, true, NULL), ZENO_OK);
    for (int k = 0; k < ANGLES; k++) {
      zeno_cycle c;
      assert_int_equal(poincare_runner_eval(&warm, -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / ANGLES, &c,
                                            NULL),
                       ZENO_OK);
    }
    for (int k = 0; k < PROBES; k++) {
      const double phi = -ZENO_PI / 2 + (k + 0.25) * ZENO_PI / PROBES;
      cycle_runner fresh;
      assert_int_equal(poincare_runner_init(&fresh, &ordered, true, NULL), ZENO_OK);
      zeno_cycle a, b;
      assert_int_equal(poincare_runner_eval(&fresh, phi, &a, NULL), ZENO_OK);
      assert_int_equal(poincare_runner_eval(&warm, phi, &b, NULL), ZENO_OK);
      poincare_runner_free(&fresh);
      assert_string_equal(a.word, b.word);
      assert_string_equal(a.outcomes, b.outcomes);
      assert_int_equal(a.defined, b.defined);
      assert_memory_equal(&a.tie_margin, &b.tie_margin, sizeof a.tie_margin);
      if (a.defined) {
        assert_memory_equal(&a.R, &b.R, sizeof a.R);
        assert_memory_equal(&a.G, &b.G, sizeof a.G);
        assert_memory_equal(&a.T, &b.T, sizeof a.T);
      }
    }
    poincare_runner_free(&warm);
  }
}

/// Coarse samples of a scene in which near_breakpoints_agree looks for
/// word changes, and the most breakpoints it probes per scene.
#define BP_SAMPLES 240
#define BP_PER_SCENE 12

// The event loop's cycle (the reference) at phi.
static zeno_cycle loop_cycle(cycle_runner *r, double phi) {
  zeno_cycle c;
  r->fast = false;
  assert_int_equal(poincare_runner_eval(r, phi, &c, NULL), ZENO_OK);
  r->fast = true;
  return c;
}

static bool same_word(const zeno_cycle *a, const zeno_cycle *b) {
  return a->defined == b->defined && strcmp(a->word, b->word) == 0 &&
         strcmp(a->outcomes, b->outcomes) == 0;
}

/// Within this distance [rad] of a breakpoint located to the last bit, the
/// kernel and the loop may decide a tie apart: their velocities and
/// impulses differ by rounding (1e-13 of the section speed), which moves
/// where a check meets its threshold by about as much. A hundredth of the
/// maps' breakpoint_tol (1e-12): a breakpoint is located the same to it.
#define BP_TIE_WIDTH 1e-14

/// What the probes around the breakpoints found.
typedef struct bp_tally {
  long probes, taken, apart;
  double widest_apart;  ///< largest distance from its breakpoint of a probe decided apart
} bp_tally;

// The kernel at phi, d from the breakpoint, against the event loop: the
// same word and outcomes beyond BP_TIE_WIDTH (within it the probes decided
// apart are counted), and R, G, T and tie margins as compare_kernel's.
static void probe(cycle_runner *r, double phi, double d, tally *t, bp_tally *b) {
  if (!(phi > -ZENO_PI / 2 && phi < ZENO_PI / 2)) return;
  const double qdp[3] = {0, -cos(phi), sin(phi)};
  sim_cycle kern, loop;
  const bool kernel = sim_kernel_cycle(r->sim, qdp, &kern);
  b->probes++;
  if (!kernel) return;
  b->taken++;
  assert_int_equal(sim_cycle_run_loop(r->sim, qdp, &loop, NULL), ZENO_OK);
  if (strcmp(kern.word, loop.word) != 0 || strcmp(kern.outcomes, loop.outcomes) != 0 ||
      kern.returned != loop.returned) {
    b->apart++;
    b->widest_apart = fmax(b->widest_apart, d);
    if (d <= BP_TIE_WIDTH) return;
    fprintf(stderr, "phi %.17g, %.3g from a breakpoint: kernel '%s' [%s], loop '%s' [%s]\n", phi, d,
            kern.word, kern.outcomes, loop.word, loop.outcomes);
    fail();
  }
  compare_kernel(&kern, &loop, t);
}

// The maps bisect every word change down to 1e-12 rad, so that where a
// velocity crosses its zero threshold there (a slip that stops, a bounce
// that dies) the kernel meets velocities at the threshold itself: its band
// around the threshold (SIM_KERNEL_CYCLE_ROUNDING) must cover the two
// paths' rounding. Each breakpoint of the paper's scenes and of random ones
// (inelastic and Newton's law) is located by the event loop to the last
// bit, and the kernel is probed at offsets of 1e-16 to 1e-8 rad from it:
// every cycle it takes has the loop's word and outcomes beyond
// BP_TIE_WIDTH, and its R, G, T.
static void near_breakpoints_agree(void **state) {
  (void)state;
  const char *files[] = {"example2.yaml", "example3-zeno.yaml", "example4.yaml",
                         "example6.yaml", "example7.yaml",      "rocking-block.yaml"};
  enum { RANDOM = TEST_SCALED(24) };
  const size_t nfiles = sizeof files / sizeof files[0];
  rng g = {SEED + 7};
  tally t = {0};
  bp_tally bt = {0};
  long breakpoints = 0;
  for (size_t f = 0; f < nfiles + RANDOM; f++) {
    zeno_scene scene;
    if (f < nfiles) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, files[f]);
      assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
    } else {
      const zeno_impact_law laws[] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON};
      scene = draw_law_scene(&g, laws[f % 2]);
      if (zeno_scene_validate(&scene, NULL) != ZENO_OK) continue;
    }
    zeno_scene ordered;
    poincare_ordered_scene(&scene, &ordered);
    cycle_runner r;
    if (poincare_runner_init(&r, &ordered, true, NULL) != ZENO_OK) {
      poincare_runner_free(&r);
      continue;
    }
    double lo_phi = -ZENO_PI / 2 + 0.5 * ZENO_PI / BP_SAMPLES;
    zeno_cycle lo = loop_cycle(&r, lo_phi);
    int found = 0;
    for (int k = 1; k < BP_SAMPLES && found < BP_PER_SCENE; k++) {
      const double hi_phi = -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / BP_SAMPLES;
      const zeno_cycle hi = loop_cycle(&r, hi_phi);
      if (!same_word(&lo, &hi)) {
        // Bisection to adjacent doubles (or until the midpoint is an end).
        double a = lo_phi, b = hi_phi;
        zeno_cycle ca = lo;
        for (int it = 0; it < 80; it++) {
          const double m = 0.5 * (a + b);
          if (m <= a || m >= b) break;
          const zeno_cycle cm = loop_cycle(&r, m);
          if (same_word(&cm, &ca)) {
            a = m;
          } else {
            b = m;
          }
        }
        found++;
        breakpoints++;
        for (int e = -16; e <= -8; e++)
          for (int m = 1; m <= 5; m += 2) {
            const double d = m * pow(10, e);
            probe(&r, a - d, d, &t, &bt);
            probe(&r, b + d, d, &t, &bt);
          }
        probe(&r, a, 0, &t, &bt);
        probe(&r, b, 0, &t, &bt);
      }
      lo = hi;
      lo_phi = hi_phi;
    }
    poincare_runner_free(&r);
  }
  printf(
      "# near %ld breakpoints: %ld probes, the kernel took %ld, %ld of them decided "
      "apart from the event loop, at most %.2g rad from their breakpoint (R, G, T of the "
      "others to %.2g, tie margins to %.2g)\n",
      breakpoints, bt.probes, bt.taken, bt.apart, bt.widest_apart, t.kernel_dev, t.kernel_tie_dev);
  assert_true(breakpoints >= TEST_SCALED(100));
  // The probes are near ties by construction: the kernel hands back those
  // with a decision nearer a tie than the floor, SIM_CYCLE_TIE_FLOOR (mostly
  // within 1e-11 rad of a breakpoint), and those with a velocity in its
  // band. It takes the rest (measured: 4489 of 8624 probes; 4108 with a
  // floor of 1e-9, 3299 with the run's band as well).
  assert_true(bt.taken * 100 >= 50 * bt.probes);
}

// What the kernel must hand back to the event loop: a wall-clock limit
// (checked between the loop's events), a tableless simulator, and a run of
// bounces (Newton's law, e = 0.9, on Example 4's body) with more impacts
// than a Zeno period search needs; the loop makes those cycles. Not a
// simulator of the maps: the full model, none.
static void hands_back_what_it_does_not_cover(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, "example4.yaml");
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
  const double qdp[3] = {0, -cos(0.3), sin(0.3)};
  sim_cycle out, loop;
  cycle_runner r;
  assert_int_equal(poincare_runner_init(&r, &scene, false, NULL), ZENO_OK);
  assert_false(sim_kernel_cycle(r.sim, qdp, &out));  // no table
  assert_int_equal(sim_cycle_run(r.sim, qdp, &out, NULL), ZENO_OK);
  assert_true(out.returned);
  poincare_runner_free(&r);
  assert_int_equal(poincare_runner_init(&r, &scene, true, NULL), ZENO_OK);
  assert_true(sim_kernel_cycle(r.sim, qdp, &out));
  assert_int_equal(sim_cycle_run_loop(r.sim, qdp, &loop, NULL), ZENO_OK);
  assert_string_equal(out.word, loop.word);
  poincare_runner_free(&r);
  zeno_scene limited = scene;
  limited.wall_time = 100;
  assert_int_equal(poincare_runner_init(&r, &limited, true, NULL), ZENO_OK);
  assert_false(sim_kernel_cycle(r.sim, qdp, &out));
  assert_int_equal(sim_cycle_run(r.sim, qdp, &out, NULL), ZENO_OK);
  assert_string_equal(out.word, loop.word);
  poincare_runner_free(&r);
  zeno_scene bouncy = scene;
  bouncy.impact_law = ZENO_LAW_NEWTON;
  bouncy.restitution = 0.9;
  assert_int_equal(poincare_runner_init(&r, &bouncy, true, NULL), ZENO_OK);
  long handed = 0, many_impacts = 0;
  for (int k = 0; k < 200; k++) {
    const double phi = -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / 200;
    const double q[3] = {0, -cos(phi), sin(phi)};
    const bool taken = sim_kernel_cycle(r.sim, q, &out);
    assert_int_equal(sim_cycle_run_loop(r.sim, q, &loop, NULL), ZENO_OK);
    long impacts = 0;
    for (const char *w = loop.word; *w; w++) impacts += w[0] == 'I' && (w[1] == ' ' || !w[1]);
    // Impacts of the cycle's word ("FI", "IF", "II" end in I), the start
    // impact and the return's included: a cycle past the period search's
    // reach (ratio_periods + 2 = 5 impacts before the return) is never the
    // kernel's.
    if (impacts > 6) {
      many_impacts++;
      assert_false(taken);
    }
    handed += !taken;
  }
  poincare_runner_free(&r);
  printf("# Newton e = 0.9: %ld of 200 cycles handed back, %ld with over 6 impacts\n", handed,
         many_impacts);
  assert_true(many_impacts > 0);
  zeno_sim_def def = zeno_sim_def_default();
  zeno_scene full = scene;
  full.model = ZENO_MODEL_FULL;
  full.epsilon = 1e-3;
  zeno_sim *sim = zeno_sim_create(&full, &def, NULL);
  assert_non_null(sim);
  assert_false(sim_kernel_cycle(sim, qdp, &out));
  zeno_error e;
  assert_int_equal(sim_cycle_run(sim, qdp, &out, &e), ZENO_ERR_ARGUMENT);
  zeno_sim_destroy(sim);
  assert_false(sim_kernel_cycle(NULL, qdp, &out));
  assert_int_equal(sim_cycle_run(NULL, qdp, &out, &e), ZENO_ERR_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(paper_scenes_agree),
      cmocka_unit_test(random_scenes_agree),
      cmocka_unit_test(cycles_do_not_depend_on_history),
      cmocka_unit_test(near_breakpoints_agree),
      cmocka_unit_test(hands_back_what_it_does_not_cover),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
