// The reduced maps R (26) and G (27) sample by sample: uniform samples of
// the section angle, breakpoints between cycle words located by bisection,
// fixed points inside word intervals and on breakpoints, endpoint limits
// (Lemma 3). The samples are handed out in phi order as they are made and
// only a window of them is kept (zeno_maps_stream), so a map of any number
// of samples runs in constant memory; zeno_maps_compute() (maps_compute.c)
// collects them. Threads share out the uniform samples (maps_block.c).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parallel.h"
#include "base/util.h"
#include "maps/maps_stream_internal.h"
#include "zeno/poincare.h"

/// Relative step for the slope of R by central differences within a word
/// interval (R is smooth there; 1e-6 balances truncation and rounding).
#define SLOPE_STEP 1e-6
/// Between two samples, a further word change is looked for only this far
/// [rad] beyond the one just located: nearer, words flicker by rounding at
/// a tie. A thousand times the default breakpoint_tol, far below a sample
/// step.
#define MAPS_MIN_WORD_WIDTH 1e-9
/// Two word changes nearer than this [rad], with different words at the
/// two ends of the sliver between them, are one breakpoint where several
/// words meet (locate_breakpoint()): ten times the nearest a next change
/// is looked for, far below a sample step.
#define MAPS_TIE_WIDTH ZENO_BREAKPOINT_TIE_WIDTH
/// First capacity of the sample window (it doubles as it fills): two
/// windows between uniform samples hold a few samples unless breakpoints
/// crowd there. Small, so that a map allocates nothing large for it: a
/// region map makes one per grid point, and a quarter megabyte each (a
/// thousand samples) went to the heap's top and back at every point, a
/// fifth of the map's time in page faults.
#define MAPS_WINDOW_INITIAL 16
/// With zeno_maps_def.threads 0 the samples are shared out only for maps
/// this large (about 50 ms of cycles): a barrier's wait on a busy machine would
/// cost smaller maps more than the threads save them (measured with a
/// compile running: 6000 samples 3 ms on one thread, 2.3 ms to 90 ms on
/// two).
#define MAPS_THREADS_MIN_SAMPLES 100000

// The cycles come from poincare_runner_eval(), which leaves their words'
// and outcomes' bytes past the terminators zero: comparing the whole arrays
// compares the strings (a fixed-size comparison is a few vector compares,
// where strcmp was 3% of a region map).
static bool same_branch(const zeno_cycle *a, const zeno_cycle *b) {
  return a->defined == b->defined && memcmp(a->word, b->word, sizeof a->word) == 0 &&
         memcmp(a->outcomes, b->outcomes, sizeof a->outcomes) == 0;
}

static zeno_status eval(zeno_maps_stream *s, double phi, zeno_cycle *c) {
  return poincare_runner_eval(&s->runner, phi, c, s->error);
}

// Appends a sample to the window, keeping it sorted (samples come in order;
// an equal phi goes after its equals).
static zeno_status add_sample(zeno_maps_stream *s, const zeno_cycle *c) {
  if (s->win_len == s->win_cap) {
    const size_t cap = s->win_cap ? 2 * s->win_cap : MAPS_WINDOW_INITIAL;
    zeno_cycle *p = realloc(s->win, cap * sizeof *p);
    if (p == NULL) return zeno_fail(s->error, ZENO_ERR_NOMEM, "", "out of memory");
    s->win = p;
    s->win_cap = cap;
  }
  size_t at = s->win_len;
  while (at > s->handed && s->win[at - 1].phi > c->phi) at--;
  memmove(&s->win[at + 1], &s->win[at], (s->win_len - at) * sizeof *s->win);
  s->win[at] = *c;
  s->win_len++;
  if (c->defined) s->maps.G_max = fmax(s->maps.G_max, c->G);
  return ZENO_OK;
}

// Locates the word changes between lo and hi by bisection and adds both
// sides of each. Two samples may hold more than one change between them
// (Example 6 at com = (0.955, -0.929): a word 2e-3 wide between samples
// 2.6e-3 apart); after each, the search goes on from its right side while
// that is not yet hi's word. (A word that appears only inside hi's is
// missed, as any word narrower than the sampling may be.) A change found
// within MAPS_TIE_WIDTH of the one before, whose left side is not that
// one's right side, leaves a sliver that is no word: the rounding at a
// point where several words meet decides there, and both changes are one
// breakpoint, from the first's left word to the second's right word.
// (Example 2 at -0.375646 listed two breakpoints 1.5e-9 apart, the
// sliver named "FI NP SS" on one line and "FI PN SS" on the next.)
static zeno_status locate_breakpoint(zeno_maps_stream *s, zeno_cycle lo, zeno_cycle hi) {
  const double tol = s->def.breakpoint_tol;
  const zeno_cycle end = hi;
  zeno_maps *m = &s->maps;
  zeno_cycle right;  // the right side of the last change, added once the next is known
  bool pending = false;
  zeno_status st = ZENO_OK;
  for (size_t found = 0; found < ZENO_MAX_BREAKPOINTS && st == ZENO_OK; found++) {
    while (hi.phi - lo.phi > tol) {
      zeno_cycle mid;
      st = eval(s, 0.5 * (lo.phi + hi.phi), &mid);
      if (st != ZENO_OK) return st;
      if (same_branch(&mid, &lo)) lo = mid;
      else hi = mid;
    }
    if (pending && lo.phi - right.phi < MAPS_TIE_WIDTH && !same_branch(&lo, &right)) {
      // One breakpoint where several words meet: it spans the sliver.
      m->breakpoints[m->breakpoint_count - 1] =
          0.5 * (m->breakpoints[m->breakpoint_count - 1] + 0.5 * (lo.phi + hi.phi));
    } else {
      if (pending) st = add_sample(s, &right);
      if (m->breakpoint_count < ZENO_MAX_BREAKPOINTS)
        m->breakpoints[m->breakpoint_count++] = 0.5 * (lo.phi + hi.phi);
      if (st == ZENO_OK) st = add_sample(s, &lo);
    }
    right = hi;
    pending = true;
    if (st != ZENO_OK || same_branch(&hi, &end) || hi.phi >= end.phi) break;
    // The next change is looked for beyond MAPS_MIN_WORD_WIDTH: closer, the
    // words flicker by rounding at a tie (Example 2 at -0.3756 alternates
    // "FI NP" and "FI NP SS" within 1e-12) and are not words of the map.
    const double next = hi.phi + MAPS_MIN_WORD_WIDTH;
    if (next >= end.phi) break;
    st = eval(s, next, &lo);
    if (st != ZENO_OK || same_branch(&lo, &end)) break;
    hi = end;
  }
  if (st == ZENO_OK && pending) st = add_sample(s, &right);
  return st;
}

static void add_fixed_point(fp_list *l, zeno_fixed_point fp) {
  if (l->count < ZENO_MAX_FIXED_POINTS) l->fp[l->count++] = fp;
}

// Fixed point of R between two samples of one word with R - phi of opposite
// signs: bisection, then the slope by central differences inside the word.
static zeno_status refine_fixed_point(zeno_maps_stream *s, zeno_cycle lo, zeno_cycle hi) {
  const double flo = lo.R - lo.phi;
  while (hi.phi - lo.phi > s->def.breakpoint_tol) {
    zeno_cycle mid;
    const zeno_status st = eval(s, 0.5 * (lo.phi + hi.phi), &mid);
    if (st != ZENO_OK) return st;
    if (!same_branch(&mid, &lo)) break;  // a breakpoint in between: keep the bracket
    if ((mid.R - mid.phi > 0) == (flo > 0)) lo = mid;
    else hi = mid;
  }
  zeno_fixed_point fp = {.phi = 0.5 * (lo.phi + hi.phi)};
  zeno_cycle at, left, right;
  zeno_status st = eval(s, fp.phi, &at);
  if (st != ZENO_OK) return st;
  fp.G = at.G;
  const double h = SLOPE_STEP * fmax(1.0, fabs(fp.phi));
  st = eval(s, fp.phi - h, &left);
  if (st == ZENO_OK) st = eval(s, fp.phi + h, &right);
  if (st != ZENO_OK) return st;
  if (same_branch(&left, &at) && same_branch(&right, &at)) fp.slope = (right.R - left.R) / (2 * h);
  else if (same_branch(&left, &at)) fp.slope = (at.R - left.R) / h;
  else fp.slope = (right.R - at.R) / h;
  fp.convergent = fabs(fp.slope) < 1;
  add_fixed_point(&s->sign, fp);
  return ZENO_OK;
}

// Fixed points between consecutive samples win[from..]: a sign change of
// R - phi inside one word is refined; across words it sits on the
// breakpoint (R is continuous, Lemma 2), decided when that is settled.
static zeno_status find_fixed_points(zeno_maps_stream *s, size_t from) {
  zeno_status st = ZENO_OK;
  // Refining evaluates cycles but adds no sample: the window stays put.
  for (size_t k = from; k + 1 < s->win_len && st == ZENO_OK; k++) {
    const zeno_cycle *a = &s->win[k], *b = &s->win[k + 1];
    if (!a->defined || !b->defined) continue;
    const double f0 = a->R - a->phi, f1 = b->R - b->phi;
    if (f0 == 0) {
      add_fixed_point(&s->sign, (zeno_fixed_point){.phi = a->phi, .G = a->G});
      continue;
    }
    if ((f0 > 0) == (f1 > 0) || f1 == 0) continue;
    if (same_branch(a, b)) {
      st = refine_fixed_point(s, *a, *b);
    } else {
      zeno_fixed_point fp = {.phi = 0.5 * (a->phi + b->phi), .at_breakpoint = true};
      fp.G = fp.slope = NAN;
      add_fixed_point(&s->sign, fp);
    }
  }
  return st;
}

// Index of the first kept sample beyond phi (the window is sorted).
static size_t first_beyond(const zeno_maps_stream *s, double phi) {
  size_t lo = 0, hi = s->win_len;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (s->win[mid].phi <= phi) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static void copy_word(char *dst, const zeno_cycle *c) {
  snprintf(dst, ZENO_CYCLE_WORD, "%s", c ? c->word : "");
}

// A fixed point on the breakpoint bp: which word holds there is decided by
// the exact cycle from phi itself (Table 1 at that state, with the tie
// rules of the simulator), not by the side a sample or R's rounded value
// fell on. G and the slope become that cycle's; a cycle that does not
// come back to phi makes it no fixed point; one deciding on a near tie
// makes it a tie.
static zeno_status settle_on_breakpoint(zeno_maps_stream *s, zeno_fixed_point *fp, double bp) {
  const size_t k = first_beyond(s, bp);
  const zeno_cycle *left = k > 0 ? &s->win[k - 1] : NULL;
  const zeno_cycle *right = k < s->win_len ? &s->win[k] : NULL;
  fp->at_breakpoint = true;
  copy_word(fp->word_left, left);
  copy_word(fp->word_right, right);
  zeno_cycle at;
  const zeno_status st = eval(s, fp->phi, &at);
  if (st != ZENO_OK) return st;
  fp->tie_margin = at.tie_margin;
  fp->tie = at.tie_margin <= s->def.fixed_point_tie_margin;
  fp->returns = at.defined && fabs(at.R - fp->phi) <=
                                  fmax(s->def.fixed_point_breakpoint_tol, s->def.breakpoint_tol);
  fp->G = fp->returns ? at.G : NAN;
  // The slope on the branch the exact cycle took, from its sample.
  const zeno_cycle *side = left && same_branch(left, &at)     ? left
                           : right && same_branch(right, &at) ? right
                                                              : NULL;
  fp->slope = fp->returns && side && side->phi != fp->phi ? (side->R - at.R) / (side->phi - fp->phi)
                                                          : NAN;
  fp->convergent = isfinite(fp->slope) && fabs(fp->slope) < 1;
  return ZENO_OK;
}

// Settles the fixed points within tol of breakpoint bp; true in *found
// when there were some.
static zeno_status settle_near(zeno_maps_stream *s, fp_list *l, double bp, double tol,
                               bool *found) {
  for (size_t k = 0; k < l->count; k++) {
    zeno_fixed_point *fp = &l->fp[k];
    if (fp->limiting || fabs(fp->phi - bp) > tol) continue;
    *found = true;
    const zeno_status st = settle_on_breakpoint(s, fp, bp);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// Fixed points on the breakpoints of one window (those located from
// w->breakpoint up to end_bp): those found within
// fixed_point_breakpoint_tol of one, and those the sign test cannot see,
// where R reaches phi at the end of its word's interval and the other side
// does not return (Example 6's R = -phi2 up to a breakpoint at -phi2). Then
// a sign change across words that flicker within MAPS_MIN_WORD_WIDTH of a
// located breakpoint (not located themselves) left a fixed point between
// two samples of different words: settled at its own phi.
static zeno_status settle_window(zeno_maps_stream *s, const window_mark *w, size_t end_bp,
                                 size_t end_sign) {
  const zeno_maps *m = &s->maps;
  // A fixed point found at a sign change across a breakpoint lies within
  // breakpoint_tol of it whatever the setting.
  const size_t bp_fp_first = s->on_bp.count;
  // Nothing located in the window: nothing to settle (most windows).
  if (w->breakpoint == end_bp && w->sign_fp == end_sign) return ZENO_OK;
  const double tol = fmax(s->def.fixed_point_breakpoint_tol, s->def.breakpoint_tol);
  zeno_status st = ZENO_OK;
  for (size_t j = w->breakpoint; j < end_bp && st == ZENO_OK; j++) {
    const double bp = m->breakpoints[j];
    bool found = false;
    st = settle_near(s, &s->sign, bp, tol, &found);
    if (st == ZENO_OK) st = settle_near(s, &s->on_bp, bp, tol, &found);
    if (st != ZENO_OK || found) continue;
    const size_t k = first_beyond(s, bp);
    for (size_t i = k > 0 ? k - 1 : k; i <= k && i < s->win_len; i++) {
      const zeno_cycle *c = &s->win[i];
      if (!c->defined || fabs(c->R - c->phi) > tol || fabs(c->phi - bp) > tol) continue;
      zeno_fixed_point fp = {.phi = c->R};
      st = settle_on_breakpoint(s, &fp, bp);
      if (st == ZENO_OK) add_fixed_point(&s->on_bp, fp);
      break;
    }
  }
  fp_list *lists[2] = {&s->sign, &s->on_bp};
  const size_t first[2] = {w->sign_fp, bp_fp_first}, last[2] = {end_sign, s->on_bp.count};
  for (int l = 0; l < 2 && st == ZENO_OK; l++)
    for (size_t k = first[l]; k < last[l] && st == ZENO_OK; k++) {
      zeno_fixed_point *fp = &lists[l]->fp[k];
      if (!fp->at_breakpoint || fp->word_left[0] != '\0' || fp->word_right[0] != '\0') continue;
      st = settle_on_breakpoint(s, fp, fp->phi);
    }
  return st;
}

static window_mark mark_here(const zeno_maps_stream *s, size_t sample) {
  return (window_mark){
      .sample = sample, .breakpoint = s->maps.breakpoint_count, .sign_fp = s->sign.count};
}

// Drops the samples handed out that no window needs any more, once they
// are at least half the window: the kept ones are moved down once every few
// samples instead of at every one (a move was a tenth of a map's own work).
static void compact(zeno_maps_stream *s) {
  const size_t keep_from = s->have_prev ? s->prev.sample : s->cur.sample;
  const size_t drop = s->handed < keep_from ? s->handed : keep_from;
  if (drop == 0 || 2 * drop < s->win_len) return;
  memmove(s->win, s->win + drop, (s->win_len - drop) * sizeof *s->win);
  s->win_len -= drop;
  s->handed -= drop;
  s->prev.sample -= s->have_prev ? drop : 0;
  s->cur.sample -= drop;
}

// One uniform sample: its window (the breakpoints since the previous one,
// both sides of each), the fixed points in it, and the breakpoints of the
// window two back settled. After the last, the last two are settled.
static zeno_status step(zeno_maps_stream *s) {
  compact(s);
  const size_t n = s->def.samples;
  if (s->next_uniform == n) {
    // The last two windows, each once the one after it is complete.
    s->sampled = true;
    zeno_status st = ZENO_OK;
    if (s->have_prev) st = settle_window(s, &s->prev, s->cur.breakpoint, s->cur.sign_fp);
    if (st == ZENO_OK && n > 0)
      st = settle_window(s, &s->cur, s->maps.breakpoint_count, s->sign.count);
    return st;
  }
  const size_t k = s->next_uniform++;
  const zeno_cycle *c;
  zeno_status st = maps_eval_uniform(s, k, &c);
  if (st != ZENO_OK) return st;
  // The new window starts at the previous uniform sample (the last kept).
  const bool first = k == 0;
  const window_mark started = mark_here(s, first ? s->win_len : s->win_len - 1);
  // The previous uniform sample is the window's last (compact() keeps it).
  if (!first && !same_branch(&s->win[s->win_len - 1], c))
    st = locate_breakpoint(s, s->win[s->win_len - 1], *c);
  if (st == ZENO_OK) st = add_sample(s, c);
  if (st == ZENO_OK) st = find_fixed_points(s, started.sample);
  if (st != ZENO_OK) return st;
  // The window two back is settled now: a fixed point of its breakpoints
  // may have been found in the one after it, which this sample completed.
  if (!first) {
    if (s->have_prev) st = settle_window(s, &s->prev, s->cur.breakpoint, s->cur.sign_fp);
    s->prev = s->cur;
    s->have_prev = true;
  }
  s->cur = started;
  return st;
}

static zeno_status endpoint_limits(zeno_maps_stream *s, fp_list *limits) {
  zeno_maps *m = &s->maps;
  const double delta = s->def.endpoint_delta;
  for (int side = -1; side <= 1; side += 2) {
    zeno_cycle c;
    const zeno_status st = eval(s, side * (ZENO_PI / 2 - delta), &c);
    if (st != ZENO_OK) return st;
    if (!c.defined) continue;
    // Lemma 3: R -> +-pi/2 with slope G+- there: a limiting fixed point.
    if (side < 0) {
      m->G_minus_defined = true;
      m->G_minus = c.G;
    } else {
      m->G_plus_defined = true;
      m->G_plus = c.G;
    }
    zeno_fixed_point fp = {
        .phi = side * ZENO_PI / 2, .G = c.G, .slope = c.G, .limiting = true, .convergent = c.G < 1};
    add_fixed_point(limits, fp);
    m->G_max = fmax(m->G_max, c.G);
  }
  return ZENO_OK;
}

// The endpoint limits, then the fixed points in the order the map reports
// them: sign changes (by phi), those on breakpoints, the limits.
static zeno_status finish(zeno_maps_stream *s) {
  fp_list limits = {0};
  const zeno_status st = endpoint_limits(s, &limits);
  if (st != ZENO_OK) return st;
  zeno_maps *m = &s->maps;
  const fp_list *lists[3] = {&s->sign, &s->on_bp, &limits};
  for (int l = 0; l < 3; l++)
    for (size_t k = 0; k < lists[l]->count && m->fixed_point_count < ZENO_MAX_FIXED_POINTS; k++)
      m->fixed_points[m->fixed_point_count++] = lists[l]->fp[k];
  s->finished = true;
  return ZENO_OK;
}

/* ---------- the stream ---------- */

zeno_maps_stream *zeno_maps_stream_create(const zeno_scene *scene, const zeno_maps_def *def,
                                          zeno_error *error) {
  if (scene == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene is required");
    return NULL;
  }
  const zeno_maps_def d = def ? *def : zeno_maps_def_default();
  if (zeno_maps_def_validate(&d, error) != ZENO_OK || zeno_scene_validate(scene, error) != ZENO_OK)
    return NULL;
  zeno_maps_stream *s = calloc(1, sizeof *s);
  if (s == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  s->def = d;
  // In the scene's own units (see zeno_cycle_eval); sample times are
  // converted back as they are handed out.
  s->units = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, s->units, &own);
  s->maps.swapped = poincare_ordered_scene(&own, &s->ordered);
  s->maps.G_max = -INFINITY;
  if (poincare_runner_init(&s->runner, &s->ordered, d.zod_table, error) != ZENO_OK) {
    zeno_maps_stream_destroy(s);
    return NULL;
  }
  s->lanes = poincare_runner_lanes(&s->runner);
  s->threads = d.threads > 0                           ? d.threads
               : d.samples >= MAPS_THREADS_MIN_SAMPLES ? parallel_team(0, ZENO_MAPS_MAX_THREADS)
                                                       : 1;
  return s;
}

void zeno_maps_stream_destroy(zeno_maps_stream *s) {
  if (s == NULL) return;
  poincare_runner_free(&s->runner);
  maps_block_free(s);
  free(s->win);
  free(s);
}

static zeno_status stream_failed(const zeno_maps_stream *s, zeno_error *error) {
  return zeno_fail(error, s->failure, "maps",
                   "the maps failed at an earlier sample; destroy the stream");
}

zeno_status zeno_maps_stream_next(zeno_maps_stream *s, zeno_cycle *cycle, zeno_error *error) {
  if (s == NULL || cycle == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "stream and cycle are required");
  if (s->failure != ZENO_OK) return stream_failed(s, error);
  zeno_error local;
  s->error = error ? error : &local;  // the returned code comes from it
  zeno_status st = ZENO_OK;
  // The caller's interrupt is asked before each uniform sample's step (a
  // step is one cycle and the breakpoints it brackets): a stop ends the
  // stream as a failure does.
  while (st == ZENO_OK && s->handed == s->win_len && !s->sampled)
    if ((st = zeno_interrupt_check(&s->def.interrupt, s->error)) == ZENO_OK) st = step(s);
  if (st == ZENO_OK && s->handed < s->win_len) {
    *cycle = s->win[s->handed++];
    maps_cycle_to_user(s->units, cycle);
    return ZENO_OK;
  }
  if (st == ZENO_OK && !s->finished) st = finish(s);
  if (st != ZENO_OK) {
    s->failure = st;
    return st;
  }
  return ZENO_DONE;
}

zeno_status zeno_maps_stream_result(const zeno_maps_stream *s, zeno_maps *maps, zeno_error *error) {
  if (s == NULL || maps == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "stream and maps are required");
  if (s->failure != ZENO_OK) return stream_failed(s, error);
  if (!s->finished)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "maps",
                     "the maps are complete only after zeno_maps_stream_next() "
                     "returned ZENO_DONE");
  *maps = s->maps;
  maps->samples = NULL;
  maps->sample_count = 0;
  return ZENO_OK;
}
