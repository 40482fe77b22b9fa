// The Poincaré section (22) and the reduced maps R (26) and G (27): one
// exact ZOD cycle per angle, breakpoints between cycle words located by
// bisection, fixed points inside word intervals, endpoint limits (Lemma 3).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis_units.h"
#include "base/util.h"
#include "sim/sim_restart.h"
#include "zeno/equilibrium.h"
#include "zeno/poincare.h"

/// Events one cycle may take before it counts as not returning (a cycle of
/// the paper has 4-6; Zeno sequences inside a cycle are completed).
#define CYCLE_MAX_EVENTS 4000
/// Stop conditions of a cycle, far beyond any cycle of a unit-speed start
/// (positions and times scale with the start speed, eq. (24)).
#define CYCLE_T_END 1e9
#define CYCLE_ESCAPE_RADIUS 1e12
/// Relative step for the slope of R by central differences within a word
/// interval (R is smooth there; 1e-6 balances truncation and rounding).
#define SLOPE_STEP 1e-6
/// Between two samples, a further word change is looked for only this far
/// [rad] beyond the one just located: nearer, words flicker by rounding at
/// a tie. A thousand times the default breakpoint_tol, far below a sample
/// step.
#define MAPS_MIN_WORD_WIDTH 1e-9
/// First capacity of the samples array (it doubles as it fills).
#define MAPS_SAMPLES_INITIAL 1024

zeno_maps_def zeno_maps_def_default(void) {
  zeno_maps_def d = {.samples = 6000, .breakpoint_tol = 1e-12, .endpoint_delta = 1e-7,
                     .fixed_point_breakpoint_tol = ZENO_FIXED_POINT_BREAKPOINT_TOL,
                     .fixed_point_tie_margin = ZENO_FIXED_POINT_TIE_MARGIN,
                     .zod_table = true};
  return d;
}

// Drops the first and (for a returning cycle) the last token of the word:
// the start pseudo-mode and the mode after the return impact.
static void cycle_word(const char *word, bool returned, char *out, size_t n) {
  const char *start = strchr(word, ' ');
  start = start ? start + 1 : word + strlen(word);
  size_t len = strlen(start);
  if (returned) {
    const char *last = strrchr(start, ' ');
    len = last ? (size_t)(last - start) : 0;
  }
  if (len >= n) len = n - 1;
  memcpy(out, start, len);
  out[len] = '\0';
}

// One simulator reused for every cycle of a map: restarting it keeps the
// model and its mode solutions (constant under the ZOD).
typedef struct cycle_runner {
  zeno_sim *sim;
} cycle_runner;

static zeno_status runner_init(cycle_runner *r, const zeno_scene *scene,
                               bool zod_table, zeno_error *error) {
  r->sim = NULL;
  if (scene == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and cycle are required");
  if (scene->contact_count != 2)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "contacts",
                     "the Poincaré section (22) needs two contacts");
  zeno_scene s = *scene;
  s.model = ZENO_MODEL_ZOD;
  s.initial_kind = ZENO_INITIAL_ZOD;
  memset(s.initial_qp, 0, sizeof s.initial_qp);
  memset(s.initial_qdp, 0, sizeof s.initial_qdp);
  s.max_events = CYCLE_MAX_EVENTS;
  s.t_end = CYCLE_T_END;
  s.escape_radius = CYCLE_ESCAPE_RADIUS;
  s.ambiguity = ZENO_AMBIGUITY_STOP;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = false;
  def.zod_table = zod_table;
  zeno_error local;
  if (error == NULL) error = &local;  // the returned code comes from it
  r->sim = zeno_sim_create(&s, &def, error);
  // A cycle reads the events' times, kinds, sections, impact letters, tie
  // margins, outcomes and the ZOD rate at the return: no more.
  sim_set_lean_events(r->sim, true);
  return r->sim ? ZENO_OK : error->code;
}

static zeno_status runner_eval(cycle_runner *r, double phi, zeno_cycle *cy,
                               zeno_error *error) {
  if (!(phi > -ZENO_PI / 2 && phi < ZENO_PI / 2))
    return zeno_fail(error, ZENO_ERR_RANGE, "phi",
                     "section angle %g outside (-pi/2, pi/2)", phi);
  // On the section: z1 = z2 = 0, zdot1 = 0, unit approach speed of contact 2.
  const double qp[3] = {0, 0, 0}, qdp[3] = {0, -cos(phi), sin(phi)};
  if (sim_restart_zod(r->sim, qp, qdp) != ZENO_OK)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "cycles run on a ZOD simulator");
  memset(cy, 0, sizeof *cy);
  cy->phi = phi;
  cy->tie_margin = 1;  // margins are reported up to 1
  zeno_event ev;
  int sections = 0;
  size_t olen = 0;
  zeno_status st;
  zeno_error run_error;
  while ((st = zeno_sim_next_event(r->sim, &ev, &run_error)) == ZENO_OK) {
    if (ev.on_section && ++sections == 2) {
      // The return impact belongs to the next cycle: R and G are fixed before it.
      cy->defined = true;
      cy->R = ev.section_angle;
      cy->G = fabs(ev.before.zod_rate[1]) / cos(phi);
      cy->T = ev.t;
      break;
    }
    cy->tie_margin = fmin(cy->tie_margin, ev.tie_margin);
    if (ev.kind == ZENO_EVENT_IMPACT && olen + 4 < sizeof cy->outcomes) {
      if (olen) cy->outcomes[olen++] = ' ';
      cy->outcomes[olen++] = zeno_letter_name((zeno_letter)ev.impact_letter[0]);
      cy->outcomes[olen++] = zeno_letter_name((zeno_letter)ev.impact_letter[1]);
      cy->outcomes[olen] = '\0';
    }
    if (ev.kind == ZENO_EVENT_END) cy->end = ev.outcome;
  }
  // An iterator failure (out of memory) must not pass for an undefined R.
  if (st != ZENO_OK && st != ZENO_DONE)
    return zeno_fail(error, st, "", "the cycle from phi = %g failed: %s", phi,
                     run_error.message);
  char word[4096];
  zeno_sim_word(r->sim, word, sizeof word);
  cycle_word(word, cy->defined, cy->word, sizeof cy->word);
  return ZENO_OK;
}

static void runner_free(cycle_runner *r) { zeno_sim_destroy(r->sim); }

zeno_status zeno_cycle_eval(const zeno_scene *scene, double phi,
                            zeno_cycle *cy, zeno_error *error) {
  if (scene == NULL || cy == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and cycle are required");
  // Cycles start at unit speed and stop far beyond it: in the scene's own
  // units (scene_units.h), whatever the user's. Validated as given, so that
  // errors quote the user's values.
  zeno_status st = zeno_scene_validate(scene, error);
  if (st != ZENO_OK) return st;
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  cycle_runner r;
  st = runner_init(&r, &own, true, error);
  if (st == ZENO_OK) st = runner_eval(&r, phi, cy, error);
  if (st == ZENO_OK) analysis_cycle_to_user(u, cy);
  runner_free(&r);
  return st;
}

/* ---------- maps ---------- */

typedef struct builder {
  cycle_runner runner;
  const zeno_maps_def *def;
  const zeno_scene *scene;
  zeno_maps *maps;
  size_t cap;
  zeno_error *error;
} builder;

static zeno_status add_sample(builder *b, const zeno_cycle *c) {
  zeno_maps *m = b->maps;
  if (m->sample_count == b->cap) {
    const size_t cap = b->cap ? 2 * b->cap : MAPS_SAMPLES_INITIAL;
    zeno_cycle *p = realloc(m->samples, cap * sizeof *p);
    if (p == NULL) return zeno_fail(b->error, ZENO_ERR_NOMEM, "", "out of memory");
    m->samples = p;
    b->cap = cap;
  }
  m->samples[m->sample_count++] = *c;
  return ZENO_OK;
}

static bool same_branch(const zeno_cycle *a, const zeno_cycle *b) {
  return a->defined == b->defined && strcmp(a->word, b->word) == 0 &&
         strcmp(a->outcomes, b->outcomes) == 0;
}

static int by_phi(const void *pa, const void *pb) {
  const double a = ((const zeno_cycle *)pa)->phi, b = ((const zeno_cycle *)pb)->phi;
  return (a > b) - (a < b);
}

// Locates the word changes between lo and hi by bisection and adds both
// sides of each. Two samples may hold more than one change between them
// (Example 6 at com = (0.955, -0.929): a word 2e-3 wide between samples
// 2.6e-3 apart); after each, the search goes on from its right side while
// that is not yet hi's word. (A word that appears only inside hi's is
// missed, as any word narrower than the sampling may be.)
static zeno_status locate_breakpoint(builder *b, zeno_cycle lo, zeno_cycle hi,
                                     double tol) {
  const zeno_cycle end = hi;
  zeno_maps *m = b->maps;
  for (size_t found = 0; found < ZENO_MAX_BREAKPOINTS; found++) {
    while (hi.phi - lo.phi > tol) {
      zeno_cycle mid;
      const zeno_status st = runner_eval(&b->runner, 0.5 * (lo.phi + hi.phi), &mid, b->error);
      if (st != ZENO_OK) return st;
      if (same_branch(&mid, &lo)) lo = mid;
      else hi = mid;
    }
    if (m->breakpoint_count < ZENO_MAX_BREAKPOINTS)
      m->breakpoints[m->breakpoint_count++] = 0.5 * (lo.phi + hi.phi);
    zeno_status st = add_sample(b, &lo);
    if (st == ZENO_OK) st = add_sample(b, &hi);
    if (st != ZENO_OK || same_branch(&hi, &end) || hi.phi >= end.phi) return st;
    // The next change is looked for beyond MAPS_MIN_WORD_WIDTH: closer, the
    // words flicker by rounding at a tie (Example 2 at -0.3756 alternates
    // "FI NP" and "FI NP SS" within 1e-12) and are not words of the map.
    const double next = hi.phi + MAPS_MIN_WORD_WIDTH;
    if (next >= end.phi) return ZENO_OK;
    st = runner_eval(&b->runner, next, &lo, b->error);
    if (st != ZENO_OK || same_branch(&lo, &end)) return st;
    hi = end;
  }
  return ZENO_OK;
}

static void add_fixed_point(zeno_maps *m, zeno_fixed_point fp) {
  if (m->fixed_point_count < ZENO_MAX_FIXED_POINTS)
    m->fixed_points[m->fixed_point_count++] = fp;
}

// Fixed point of R between two samples of one word with R - phi of opposite
// signs: bisection, then the slope by central differences inside the word.
static zeno_status refine_fixed_point(builder *b, zeno_cycle lo, zeno_cycle hi,
                                      double tol) {
  const double flo = lo.R - lo.phi;
  while (hi.phi - lo.phi > tol) {
    zeno_cycle mid;
    const zeno_status st = runner_eval(&b->runner, 0.5 * (lo.phi + hi.phi), &mid, b->error);
    if (st != ZENO_OK) return st;
    if (!same_branch(&mid, &lo)) break;  // a breakpoint in between: keep the bracket
    if ((mid.R - mid.phi > 0) == (flo > 0)) lo = mid;
    else hi = mid;
  }
  zeno_fixed_point fp = {.phi = 0.5 * (lo.phi + hi.phi)};
  zeno_cycle at, left, right;
  zeno_status st = runner_eval(&b->runner, fp.phi, &at, b->error);
  if (st != ZENO_OK) return st;
  fp.G = at.G;
  const double h = SLOPE_STEP * fmax(1.0, fabs(fp.phi));
  st = runner_eval(&b->runner, fp.phi - h, &left, b->error);
  if (st == ZENO_OK) st = runner_eval(&b->runner, fp.phi + h, &right, b->error);
  if (st != ZENO_OK) return st;
  if (same_branch(&left, &at) && same_branch(&right, &at))
    fp.slope = (right.R - left.R) / (2 * h);
  else if (same_branch(&left, &at))
    fp.slope = (at.R - left.R) / h;
  else
    fp.slope = (right.R - at.R) / h;
  fp.convergent = fabs(fp.slope) < 1;
  add_fixed_point(b->maps, fp);
  return ZENO_OK;
}

static zeno_status find_fixed_points(builder *b, double tol) {
  zeno_maps *m = b->maps;
  // The samples array may grow while refining: iterate over a copy.
  const size_t n = m->sample_count;
  zeno_cycle *s = malloc(n * sizeof *s);
  if (s == NULL) return zeno_fail(b->error, ZENO_ERR_NOMEM, "", "out of memory");
  memcpy(s, m->samples, n * sizeof *s);
  zeno_status st = ZENO_OK;
  for (size_t k = 0; k + 1 < n && st == ZENO_OK; k++) {
    if (!s[k].defined || !s[k + 1].defined) continue;
    const double f0 = s[k].R - s[k].phi, f1 = s[k + 1].R - s[k + 1].phi;
    if (f0 == 0) {
      add_fixed_point(m, (zeno_fixed_point){.phi = s[k].phi, .G = s[k].G});
      continue;
    }
    if ((f0 > 0) == (f1 > 0) || f1 == 0) continue;
    if (same_branch(&s[k], &s[k + 1])) {
      st = refine_fixed_point(b, s[k], s[k + 1], tol);
    } else {
      // R is continuous (Lemma 2): the fixed point sits at the breakpoint,
      // which breakpoint_fixed_points() decides from the exact cycle there.
      zeno_fixed_point fp = {.phi = 0.5 * (s[k].phi + s[k + 1].phi), .at_breakpoint = true};
      fp.G = fp.slope = NAN;
      add_fixed_point(m, fp);
    }
  }
  free(s);
  return st;
}

// Index of the first sample beyond phi (the samples are sorted).
static size_t first_beyond(const zeno_maps *m, double phi) {
  size_t lo = 0, hi = m->sample_count;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (m->samples[mid].phi <= phi) lo = mid + 1;
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
static zeno_status settle_on_breakpoint(builder *b, zeno_fixed_point *fp, double bp) {
  const zeno_maps *m = b->maps;
  const size_t k = first_beyond(m, bp);
  const zeno_cycle *left = k > 0 ? &m->samples[k - 1] : NULL;
  const zeno_cycle *right = k < m->sample_count ? &m->samples[k] : NULL;
  fp->at_breakpoint = true;
  copy_word(fp->word_left, left);
  copy_word(fp->word_right, right);
  zeno_cycle at;
  const zeno_status st = runner_eval(&b->runner, fp->phi, &at, b->error);
  if (st != ZENO_OK) return st;
  fp->tie_margin = at.tie_margin;
  fp->tie = at.tie_margin <= b->def->fixed_point_tie_margin;
  fp->returns = at.defined && fabs(at.R - fp->phi) <= fmax(b->def->fixed_point_breakpoint_tol,
                                                         b->def->breakpoint_tol);
  fp->G = fp->returns ? at.G : NAN;
  // The slope on the branch the exact cycle took, from its sample.
  const zeno_cycle *side = left && same_branch(left, &at) ? left
                         : right && same_branch(right, &at) ? right : NULL;
  fp->slope = fp->returns && side && side->phi != fp->phi
                  ? (side->R - at.R) / (side->phi - fp->phi) : NAN;
  fp->convergent = isfinite(fp->slope) && fabs(fp->slope) < 1;
  return ZENO_OK;
}

// Fixed points on a breakpoint: those found within
// ZENO_FIXED_POINT_BREAKPOINT_TOL of one, and those the sign test cannot
// see, where R reaches phi at the end of its word's interval and the other
// side does not return (Example 6's R = -phi2 up to a breakpoint at -phi2).
static zeno_status breakpoint_fixed_points(builder *b) {
  zeno_maps *m = b->maps;
  // A fixed point found at a sign change across a breakpoint lies within
  // breakpoint_tol of it whatever the setting.
  const double tol = fmax(b->def->fixed_point_breakpoint_tol, b->def->breakpoint_tol);
  for (size_t j = 0; j < m->breakpoint_count; j++) {
    const double bp = m->breakpoints[j];
    bool found = false;
    for (size_t k = 0; k < m->fixed_point_count; k++) {
      zeno_fixed_point *fp = &m->fixed_points[k];
      if (fp->limiting || fabs(fp->phi - bp) > tol) continue;
      found = true;
      const zeno_status st = settle_on_breakpoint(b, fp, bp);
      if (st != ZENO_OK) return st;
    }
    if (found) continue;
    const size_t k = first_beyond(m, bp);
    for (size_t i = k > 0 ? k - 1 : k; i <= k && i < m->sample_count; i++) {
      const zeno_cycle *c = &m->samples[i];
      if (!c->defined || fabs(c->R - c->phi) > tol || fabs(c->phi - bp) > tol) continue;
      zeno_fixed_point fp = {.phi = c->R};
      const zeno_status st = settle_on_breakpoint(b, &fp, bp);
      if (st != ZENO_OK) return st;
      add_fixed_point(m, fp);
      break;
    }
  }
  // A sign change across words that flicker within MAPS_MIN_WORD_WIDTH of
  // a located breakpoint (not located themselves) left a fixed point
  // between two samples of different words: settled at its own phi.
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    zeno_fixed_point *fp = &m->fixed_points[k];
    if (!fp->at_breakpoint || fp->word_left[0] != '\0' || fp->word_right[0] != '\0') continue;
    const zeno_status st = settle_on_breakpoint(b, fp, fp->phi);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

static zeno_status endpoint_limits(builder *b, double delta) {
  zeno_maps *m = b->maps;
  for (int side = -1; side <= 1; side += 2) {
    zeno_cycle c;
    const zeno_status st = runner_eval(&b->runner, side * (ZENO_PI / 2 - delta), &c, b->error);
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
    zeno_fixed_point fp = {.phi = side * ZENO_PI / 2, .G = c.G, .slope = c.G,
                           .limiting = true, .convergent = c.G < 1};
    add_fixed_point(m, fp);
    m->G_max = fmax(m->G_max, c.G);
  }
  return ZENO_OK;
}

// The scene with its contacts in the order of eq. (13) (zddot1 < 0 under FF).
static bool ordered_scene(const zeno_scene *scene, zeno_scene *out) {
  *out = *scene;
  zeno_equilibrium_report rep;
  if (zeno_equilibrium_check(scene, &rep, NULL) != ZENO_OK) return false;
  if (rep.index_order_ok || !rep.index_order_swappable) return false;
  const zeno_contact_def c0 = out->contacts[0];
  out->contacts[0] = out->contacts[1];
  out->contacts[1] = c0;
  out->has_paper = false;  // the paper block names contacts in the old order
  return true;
}

zeno_status zeno_maps_def_validate(const zeno_maps_def *d, zeno_error *error) {
  if (d == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "settings are required");
  if (d->samples < 16 || !(d->breakpoint_tol > 0) ||
      !(d->endpoint_delta > 0 && d->endpoint_delta < 0.1) ||
      !(d->fixed_point_breakpoint_tol >= 0 && d->fixed_point_breakpoint_tol < 0.1) ||
      !(d->fixed_point_tie_margin >= 0 && d->fixed_point_tie_margin <= 1))
    return zeno_fail(error, ZENO_ERR_RANGE, "maps",
                     "samples >= 16, breakpoint_tol > 0, endpoint_delta in (0, 0.1), "
                     "fixed_point_breakpoint_tol in [0, 0.1) and fixed_point_tie_margin "
                     "in [0, 1] needed");
  return ZENO_OK;
}

zeno_status zeno_maps_compute(const zeno_scene *scene, const zeno_maps_def *def,
                              zeno_maps *maps, zeno_error *error) {
  if (scene == NULL || maps == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and maps are required");
  const zeno_maps_def d = def ? *def : zeno_maps_def_default();
  memset(maps, 0, sizeof *maps);
  maps->G_max = -INFINITY;
  zeno_status st = zeno_maps_def_validate(&d, error);
  if (st == ZENO_OK) st = zeno_scene_validate(scene, error);
  if (st != ZENO_OK) return st;
  // In the scene's own units (see zeno_cycle_eval), converted back at the end.
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  zeno_scene ordered;
  maps->swapped = ordered_scene(&own, &ordered);
  builder b = {.scene = &ordered, .def = &d, .maps = maps, .error = error};
  st = runner_init(&b.runner, &ordered, d.zod_table, error);
  if (st != ZENO_OK) return st;
  zeno_cycle prev;
  for (size_t k = 0; k < d.samples && st == ZENO_OK; k++) {
    zeno_cycle c;
    const double phi = -ZENO_PI / 2 + ((double)k + 0.5) * ZENO_PI / (double)d.samples;
    st = runner_eval(&b.runner, phi, &c, error);
    if (st != ZENO_OK) break;
    if (k > 0 && !same_branch(&prev, &c))
      st = locate_breakpoint(&b, prev, c, d.breakpoint_tol);
    if (st == ZENO_OK) st = add_sample(&b, &c);
    prev = c;
  }
  if (st == ZENO_OK) {
    // Breakpoint sides are added between the uniform samples they separate,
    // so the samples usually come in order: sort only when they do not
    // (the samples are large, and sorting sorted ones still moves them).
    bool sorted = true;
    for (size_t k = 1; k < maps->sample_count && sorted; k++)
      sorted = by_phi(&maps->samples[k - 1], &maps->samples[k]) <= 0;
    if (!sorted) qsort(maps->samples, maps->sample_count, sizeof *maps->samples, by_phi);
    for (size_t k = 0; k < maps->sample_count; k++)
      if (maps->samples[k].defined) maps->G_max = fmax(maps->G_max, maps->samples[k].G);
    st = find_fixed_points(&b, d.breakpoint_tol);
    if (st == ZENO_OK) st = breakpoint_fixed_points(&b);
  }
  if (st == ZENO_OK) st = endpoint_limits(&b, d.endpoint_delta);
  runner_free(&b.runner);
  if (st != ZENO_OK) zeno_maps_free(maps);
  else analysis_maps_to_user(u, maps);
  return st;
}

void zeno_maps_free(zeno_maps *maps) {
  if (maps == NULL) return;
  free(maps->samples);
  maps->samples = NULL;
  maps->sample_count = 0;
}

