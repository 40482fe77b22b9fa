// The fast Poincaré cycle (src/sim/sim_cycle.c) against the event loop it
// stands for, on the same simulator and table: on the paper's scenes and on
// random equilibria of the paper's parameterisation under the three impact
// laws, every cycle the fast path takes has the event loop's word,
// outcomes, end, tie margin, R, G and T (bit for bit), and the cycles it
// hands back are the ones it must not take (many impacts, near ties). The
// flat kernel (src/sim/sim_kernel.c), which the maps run first, is held to
// the steps: the same words and outcomes, R, G and T to 1e-12, and it takes
// no cycle the steps hand back; near breakpoints located to the last bit,
// it has the loop's words beyond 1e-14 rad of them.
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
#define ANGLES 1500
/// Random scenes per law.
#define SCENES_PER_LAW 40
#define SEED 20261125u
/// Agreement of R, G, T and the tie margins: none. The fast path runs the
/// event loop's functions on the same numbers in the same order, so its
/// cycles are the loop's to the last bit (a reordered sum would show here).
#define CYCLE_RTOL 0.0
#define TIE_RTOL 0.0

/// The flat kernel (src/sim/sim_kernel.c) against the steps: the same
/// decisions on quantities formed in another order, so R, G and T agree to
/// rounding (the 1e-12, of the value or of 1: the section's unit
/// speed and the scenes' unit accelerations make times and rates of order
/// 1, and a cycle of 1e-4 that ends in a small difference of impulses
/// differs by 1e-16 absolute, 6e-12 relative), and the tie margins,
/// differences of nearby crossing times over their sum, to rounding
/// amplified by that quotient.
#define KERNEL_RTOL 1e-12
#define KERNEL_TIE_TOL 1e-9

typedef struct tally {
  long cycles, taken, handed_back, returned, rested, away;
  long kernel;             ///< cycles the kernel took
  long loop_only;          ///< cycles it sent straight to the event loop
  long loop_only_taken;    ///< of those, cycles the steps would have taken
  double kernel_dev;       ///< largest relative difference of R, G, T from the steps'
  double kernel_tie_dev;   ///< largest difference of a tie margin
} tally;

static double rel_dev(double a, double b, double scale) {
  return fabs(a - b) / fmax(scale, fmax(fabs(a), fabs(b)));
}

// The kernel's cycle against the steps' (which took it too).
static void compare_kernel(const sim_cycle *k, const sim_cycle *f, tally *t) {
  t->kernel++;
  if (strcmp(k->word, f->word) != 0 || strcmp(k->outcomes, f->outcomes) != 0)
    fprintf(stderr, "kernel '%s' [%s], steps '%s' [%s]\n", k->word, k->outcomes, f->word,
            f->outcomes);
  assert_string_equal(k->word, f->word);
  assert_string_equal(k->outcomes, f->outcomes);
  assert_int_equal(k->returned, f->returned);
  t->kernel_tie_dev = fmax(t->kernel_tie_dev, fabs(k->tie_margin - f->tie_margin));
  assert_true(fabs(k->tie_margin - f->tie_margin) <= KERNEL_TIE_TOL);
  if (!k->returned) {
    assert_int_equal(k->end, f->end);
    return;
  }
  const double dev = fmax(fmax(rel_dev(k->angle, f->angle, 1), rel_dev(k->rate, f->rate, 1)),
                          rel_dev(k->t, f->t, 1));
  t->kernel_dev = fmax(t->kernel_dev, dev);
  assert_true(dev <= KERNEL_RTOL);
}

static bool close_to(double a, double b, double scale, double rtol) {
  return fabs(a - b) <= rtol * fmax(scale, fmax(fabs(a), fabs(b)));
}

// One cycle both ways on one runner: the fast path, then the event loop.
static void compare_cycle(cycle_runner *r, double phi, tally *t) {
  const double qdp[3] = {0, -cos(phi), sin(phi)};
  sim_cycle kern, fast;
  const bool kernel = sim_kernel_cycle(r->sim, qdp, &kern);
  const bool taken = sim_cycle_run_steps(r->sim, qdp, &fast);
  // What the kernel takes, the steps take (it hands back at least what they do).
  assert_true(taken || !kernel);
  // What it sends straight to the loop (sim_cycle.loop_only), the steps
  // hand back: nearly always (a decision at the rounding of its threshold
  // may go either way; the loop's answer is then the steps' own).
  if (!kernel && kern.loop_only) {
    t->loop_only++;
    t->loop_only_taken += taken;
  }
  if (kernel) compare_kernel(&kern, &fast, t);
  r->fast = false;
  zeno_cycle loop;
  assert_int_equal(poincare_runner_eval(r, phi, &loop, NULL), ZENO_OK);
  r->fast = true;
  t->cycles++;
  if (!taken) {
    t->handed_back++;
    return;
  }
  t->taken++;
  if (strcmp(fast.word, loop.word) != 0 || fast.returned != loop.defined)
    fprintf(stderr, "phi %.17g: fast '%s' (%d), loop '%s' (%d)\n", phi, fast.word,
            fast.returned, loop.word, loop.defined);
  assert_string_equal(fast.word, loop.word);
  assert_string_equal(fast.outcomes, loop.outcomes);
  assert_int_equal(fast.returned, loop.defined);
  assert_true(fast.tie_margin >= 0 && fast.tie_margin <= 1);
  assert_true(close_to(fast.tie_margin, loop.tie_margin, 0, TIE_RTOL));
  if (!fast.returned) {
    assert_int_equal(fast.end, loop.end);
    t->rested += fast.end == ZENO_OUTCOME_REST;
    t->away += fast.end == ZENO_OUTCOME_ESCAPED || fast.end == ZENO_OUTCOME_TIME_LIMIT;
    return;
  }
  t->returned++;
  assert_true(close_to(fast.angle, loop.R, 1, CYCLE_RTOL));
  assert_true(close_to(fabs(fast.rate) / cos(phi), loop.G, 1, CYCLE_RTOL));
  assert_true(close_to(fast.t, loop.T, 0, CYCLE_RTOL));
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
    printf("# %s: %ld cycles, %ld fast (%ld returned, %ld at rest), %ld handed back; "
           "kernel %ld (R, G, T to %.2g, tie margins to %.2g), %ld straight to the loop "
           "(%ld the steps take)\n",
           CYCLE_TEST_SCENES[f], t.cycles, t.taken, t.returned, t.rested, t.handed_back, t.kernel,
           t.kernel_dev, t.kernel_tie_dev, t.loop_only, t.loop_only_taken);
    assert_true(t.loop_only_taken * 100 <= t.loop_only);
    assert_int_equal(t.cycles, ANGLES);
    // The kernel takes what the steps take (measured: all of it).
    assert_true(t.kernel >= t.taken - t.taken / 1000);
    // The paper's cycles are the fast path's. Hand-backs are cycles with a
    // decision at a tie: the rocking block's rests after a double impact
    // (57 of 1500), where a mode's slack is zero by its symmetry.
    assert_true(t.handed_back <= ANGLES / 20);
    assert_true(t.returned > 0);
  }
}


static void random_scenes_agree(void **state) {
  (void)state;
  const zeno_impact_law laws[] = {ZENO_LAW_INELASTIC, ZENO_LAW_NEWTON,
                                  ZENO_LAW_CHATTERJEE_RUINA};
  for (size_t l = 0; l < 3; l++) {
    tally t = {0};
    visit_law_scenes(SEED + (uint64_t)l, laws[l], SCENES_PER_LAW, compare_scene, &t);
    printf("# %s: %ld cycles, %ld fast (%ld returned, %ld at rest, %ld escaped or at "
           "the time limit), %ld handed back; kernel %ld (R, G, T to %.2g, tie margins "
           "to %.2g), %ld straight to the loop (%ld the steps take)\n",
           zeno_impact_law_name(laws[l]), t.cycles, t.taken, t.returned, t.rested, t.away,
           t.handed_back, t.kernel, t.kernel_dev, t.kernel_tie_dev, t.loop_only,
           t.loop_only_taken);
    // What the kernel sends straight to the loop the steps hand back.
    assert_true(t.loop_only_taken * 100 <= t.loop_only);
    if (laws[l] == ZENO_LAW_NEWTON) assert_true(t.loop_only > 0);
    // Inelastic cycles are the fast path's (measured: all 60,000), those
    // that escape or slide on to the time limit included. With restitution
    // a cycle bounces, and past ratio_periods + 1 impacts it is the event
    // loop's (measured: 60% of Newton's, 72% of Chatterjee-Ruina's).
    if (laws[l] != ZENO_LAW_CHATTERJEE_RUINA)  // its impacts are the steps' alone
      assert_true(t.kernel >= t.taken - t.taken / 1000);
    if (laws[l] == ZENO_LAW_INELASTIC) {
      assert_true(t.taken >= t.cycles - t.cycles / 100);
      assert_true(t.rested > 0);
    }
    assert_true(t.returned > 0 && t.away > 0);
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
      assert_int_equal(
          poincare_runner_eval(&warm, -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / ANGLES, &c, NULL),
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
/// kernel and the steps may decide a tie apart: their velocities and
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
// apart are counted), and where the steps take the cycle too, their R, G, T
// and tie margin (compare_kernel). (Where a decision's tie margin meets the
// tie floor, rounding may have the steps hand back a cycle the kernel takes.)
static void probe(cycle_runner *r, double phi, double d, tally *t, bp_tally *b) {
  if (!(phi > -ZENO_PI / 2 && phi < ZENO_PI / 2)) return;
  const double qdp[3] = {0, -cos(phi), sin(phi)};
  sim_cycle kern, steps;
  const bool kernel = sim_kernel_cycle(r->sim, qdp, &kern);
  const bool taken = sim_cycle_run_steps(r->sim, qdp, &steps);
  b->probes++;
  if (!kernel) return;
  b->taken++;
  const zeno_cycle loop = loop_cycle(r, phi);
  if (strcmp(kern.word, loop.word) != 0 || strcmp(kern.outcomes, loop.outcomes) != 0 ||
      kern.returned != loop.defined) {
    b->apart++;
    b->widest_apart = fmax(b->widest_apart, d);
    if (d <= BP_TIE_WIDTH) return;
    fprintf(stderr, "phi %.17g, %.3g from a breakpoint: kernel '%s' [%s], loop '%s' [%s]\n",
            phi, d, kern.word, kern.outcomes, loop.word, loop.outcomes);
    fail();
  }
  if (taken) compare_kernel(&kern, &steps, t);
}

// The maps bisect every word change down to 1e-12 rad, so that where a
// velocity crosses its zero threshold there (a slip that stops, a bounce
// that dies) the kernel meets velocities at the threshold itself: its band
// around the threshold (SIM_KERNEL_CYCLE_ROUNDING) must cover the two
// paths' rounding. Each breakpoint of the paper's scenes and of random ones
// (inelastic and Newton's law) is located by the event loop to the last
// bit, and the kernel is probed at offsets of 1e-16 to 1e-8 rad from it:
// every cycle it takes has the loop's word and outcomes beyond
// BP_TIE_WIDTH, and the steps' R, G, T where they take it too.
static void near_breakpoints_agree(void **state) {
  (void)state;
  const char *files[] = {"example2.yaml", "example3-zeno.yaml", "example4.yaml",
                         "example6.yaml", "example7.yaml", "rocking-block.yaml"};
  enum { RANDOM = 24 };
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
  printf("# near %ld breakpoints: %ld probes, the kernel took %ld, %ld of them decided "
         "apart from the event loop, at most %.2g rad from their breakpoint (R, G, T of the "
         "others to %.2g, tie margins to %.2g)\n",
         breakpoints, bt.probes, bt.taken, bt.apart, bt.widest_apart, t.kernel_dev,
         t.kernel_tie_dev);
  assert_true(breakpoints >= 100);
  // The probes are near ties by construction: the kernel hands back those
  // with a decision nearer a tie than the floor, SIM_CYCLE_TIE_FLOOR (mostly
  // within 1e-11 rad of a breakpoint), and those with a velocity in its
  // band. It takes the rest (measured: 4489 of 8624 probes; 4108 with a
  // floor of 1e-9, 3299 with the run's band as well).
  assert_true(bt.taken * 100 >= 50 * bt.probes);
}

// What the fast path must hand back: a wall-clock limit (checked between
// the loop's events), a full-model or tableless simulator, and a run of
// bounces (Newton's law, e = 0.9, on Example 4's body) with more impacts
// than a Zeno period search needs.
static void hands_back_what_it_does_not_cover(void **state) {
  (void)state;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", ZENO_SCENES_DIR, "example4.yaml");
  zeno_scene scene;
  assert_int_equal(zeno_scene_load(path, NULL, 0, &scene, NULL), ZENO_OK);
  const double qdp[3] = {0, -cos(0.3), sin(0.3)};
  sim_cycle out;
  cycle_runner r;
  assert_int_equal(poincare_runner_init(&r, &scene, false, NULL), ZENO_OK);
  assert_false(sim_cycle_run(r.sim, qdp, &out));  // no table
  poincare_runner_free(&r);
  assert_int_equal(poincare_runner_init(&r, &scene, true, NULL), ZENO_OK);
  assert_true(sim_cycle_run(r.sim, qdp, &out));
  poincare_runner_free(&r);
  zeno_scene limited = scene;
  limited.wall_time = 100;
  assert_int_equal(poincare_runner_init(&r, &limited, true, NULL), ZENO_OK);
  assert_false(sim_cycle_run(r.sim, qdp, &out));
  poincare_runner_free(&r);
  zeno_scene bouncy = scene;
  bouncy.impact_law = ZENO_LAW_NEWTON;
  bouncy.restitution = 0.9;
  assert_int_equal(poincare_runner_init(&r, &bouncy, true, NULL), ZENO_OK);
  long handed = 0, many_impacts = 0;
  for (int k = 0; k < 200; k++) {
    const double phi = -ZENO_PI / 2 + (k + 0.5) * ZENO_PI / 200;
    const double q[3] = {0, -cos(phi), sin(phi)};
    const bool taken = sim_cycle_run(r.sim, q, &out);
    zeno_cycle loop;
    r.fast = false;
    assert_int_equal(poincare_runner_eval(&r, phi, &loop, NULL), ZENO_OK);
    r.fast = true;
    long impacts = 0;
    for (const char *w = loop.word; *w; w++) impacts += w[0] == 'I' && (w[1] == ' ' || !w[1]);
    // Impacts of the cycle's word ("FI", "IF", "II" end in I), the start
    // impact and the return's included: a cycle past the period search's
    // reach (ratio_periods + 2 = 5 impacts before the return) is never fast.
    if (impacts > 6) {
      many_impacts++;
      assert_false(taken);
    }
    handed += !taken;
  }
  poincare_runner_free(&r);
  printf("# Newton e = 0.9: %ld of 200 cycles handed back, %ld with over 6 impacts\n",
         handed, many_impacts);
  assert_true(many_impacts > 0);
  // Not a simulator of the maps: one contact, the full model.
  zeno_sim_def def = zeno_sim_def_default();
  zeno_scene full = scene;
  full.model = ZENO_MODEL_FULL;
  full.epsilon = 1e-3;
  zeno_sim *sim = zeno_sim_create(&full, &def, NULL);
  assert_non_null(sim);
  assert_false(sim_cycle_run(sim, qdp, &out));
  zeno_sim_destroy(sim);
  assert_false(sim_cycle_run(NULL, qdp, &out));
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
