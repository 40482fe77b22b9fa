// The Poincaré section (22): one exact ZOD cycle per angle (the runner the
// maps reuse), the maps' settings, and the contact order of eq. (13). The
// maps R (26) and G (27) themselves are maps_stream.c.
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/util.h"
#include "dynamics/contact_order.h"
#include "maps/poincare_internal.h"
#include "sim/sim_cycle.h"
#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"
#include "zeno/poincare.h"

_Static_assert(sizeof((zeno_cycle *)0)->word == SIM_CYCLE_WORD &&
                   sizeof((zeno_cycle *)0)->outcomes == SIM_CYCLE_WORD,
               "a cycle record's word and outcomes fit zeno_cycle's");

/// Events one cycle may take before it counts as not returning (a cycle of
/// the paper has 4-6; Zeno sequences inside a cycle are completed).
#define CYCLE_MAX_EVENTS 4000
/// Stop conditions of a cycle, far beyond any cycle of a unit-speed start
/// (positions and times scale with the start speed, eq. (24)).
#define CYCLE_T_END 1e9
#define CYCLE_ESCAPE_RADIUS 1e12

zeno_maps_def zeno_maps_def_default(void) {
  zeno_maps_def d = {.samples = 6000,
                     .breakpoint_tol = 1e-12,
                     .endpoint_delta = 1e-7,
                     .fixed_point_breakpoint_tol = ZENO_FIXED_POINT_BREAKPOINT_TOL,
                     .fixed_point_tie_margin = ZENO_FIXED_POINT_TIE_MARGIN,
                     .zod_table = true};
  return d;
}

zeno_status poincare_runner_init(cycle_runner *r, const zeno_scene *scene, bool zod_table,
                                 zeno_error *error) {
  r->sim = NULL;
  r->fast = zod_table;
  if (scene == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and cycle are required");
  if (zeno_scene_require_pair(scene, error) != ZENO_OK) return ZENO_ERR_UNSUPPORTED;
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
  if (r->sim == NULL) return error->code;
  // A cycle reads the events' times, kinds, sections, impact letters, tie
  // margins, outcomes and the ZOD rate at the return: no more.
  sim_set_lean_events(r->sim, true);
  // Cycles on the table run on the flat kernel first (sim_kernel.h).
  if (zod_table && sim_kernel_prepare(r->sim) != ZENO_OK)
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  return ZENO_OK;
}

_Static_assert(ZENO_CYCLE_WORD % 16 == 0 && ZENO_CYCLE_WORD <= 128,
               "copy_padded() copies 16 bytes at a time, indexed by signed bytes");

// A string of length len < ZENO_CYCLE_WORD from an array of that size into
// a zeno_cycle's, its bytes past the terminator zero. On x86-64, 16 bytes
// at a time with the bytes from len on masked out: compilers turned the
// memset and memcpy of a small array into `rep stos` and `rep movsb`,
// whose start-up was a tenth of a map's time on one AMD EPYC.
static void copy_padded(char *to, const char *from, size_t len) {
#if defined(__x86_64__) && defined(__SSE2__)
  const __m128i limit = _mm_set1_epi8((char)len);
  __m128i index = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (size_t i = 0; i < ZENO_CYCLE_WORD; i += 16) {
    const __m128i keep = _mm_cmplt_epi8(index, limit);
    const __m128i bytes = _mm_loadu_si128((const __m128i *)(from + i));
    _mm_storeu_si128((__m128i *)(to + i), _mm_and_si128(bytes, keep));
    index = _mm_add_epi8(index, _mm_set1_epi8(16));
  }
#else
  memset(to, 0, ZENO_CYCLE_WORD);
  memcpy(to, from, len);
#endif
}

// The cycle from phi of its record (cos_phi: cos(phi)), every byte of
// *cy past its fields zero (its padding included: the maps and
// their tests compare cycles as arrays), each written once.
static void cycle_of(double phi, double cos_phi, const sim_cycle *c, zeno_cycle *cy) {
  const size_t tail = offsetof(zeno_cycle, outcomes) + ZENO_CYCLE_WORD;
  memset(cy, 0, offsetof(zeno_cycle, word));
  memset((char *)cy + tail, 0, sizeof *cy - tail);
  cy->phi = phi;
  cy->defined = c->returned;
  if (c->returned) {
    cy->R = c->angle;
    cy->G = fabs(c->rate) / cos_phi;
    cy->T = c->t;
  } else {
    cy->end = c->end;
  }
  cy->tie_margin = c->tie_margin;
  // As strings (sim_cycle_track_init leaves the bytes past them).
  copy_padded(cy->word, c->word, c->word_len);
  copy_padded(cy->outcomes, c->outcomes, c->outcomes_len);
}

// Whether phi is a section angle: in I = (-pi/2, pi/2).
static bool on_section(double phi) { return phi > -ZENO_PI / 2 && phi < ZENO_PI / 2; }

static zeno_status check_phi(double phi, zeno_error *error) {
  if (!on_section(phi))
    return zeno_fail(error, ZENO_ERR_RANGE, "phi", "section angle %g outside (-pi/2, pi/2)", phi);
  return ZENO_OK;
}

// On the section: z1 = z2 = 0, zdot1 = 0, unit approach speed of contact 2.
static void section_state(double phi, double qdp[3]) {
  qdp[0] = 0;
  qdp[1] = -cos(phi);
  qdp[2] = sin(phi);
}

zeno_status poincare_runner_eval(cycle_runner *r, double phi, zeno_cycle *cy, zeno_error *error) {
  if (check_phi(phi, error) != ZENO_OK) return ZENO_ERR_RANGE;
  double qdp[3];
  section_state(phi, qdp);
  sim_cycle c;
  zeno_error e;
  const zeno_status st = r->fast ? sim_cycle_run(r->sim, qdp, &c, &e)
                                 : sim_cycle_run_loop(r->sim, qdp, &c, &e);
  if (st == ZENO_ERR_ARGUMENT) {  // not a ZOD simulator
    if (error) *error = e;
    return st;
  }
  if (st != ZENO_OK)
    return zeno_fail(error, st, "", "the cycle from phi = %g failed: %s", phi, e.message);
  cycle_of(phi, -qdp[1], &c, cy);
  return ZENO_OK;
}

int poincare_runner_lanes(const cycle_runner *r) { return r->fast ? sim_kernel_lanes() : 1; }

zeno_status poincare_runner_eval_lanes(cycle_runner *r, int n, const double phi[], zeno_cycle cy[],
                                       int *made, zeno_error *error) {
  *made = 0;
  unsigned lanes = 0;
  if (r->fast && n == SIM_KERNEL_MAX_LANES) {
    double qdp[SIM_KERNEL_MAX_LANES][3];
    bool in_range = true;
    for (int l = 0; l < n; l++) {
      in_range = in_range && on_section(phi[l]);
      section_state(phi[l], qdp[l]);
    }
    sim_cycle fast[SIM_KERNEL_MAX_LANES];
    if (in_range) lanes = sim_kernel_cycle4(r->sim, (const double(*)[3])qdp, fast);
    for (int l = 0; l < n; l++)
      if (lanes & (1u << l)) cycle_of(phi[l], -qdp[l][1], &fast[l], &cy[l]);
  }
  for (; *made < n; (*made)++) {
    if (lanes & (1u << *made)) continue;
    const zeno_status st = poincare_runner_eval(r, phi[*made], &cy[*made], error);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

void poincare_runner_free(cycle_runner *r) { zeno_sim_destroy(r->sim); }

zeno_status zeno_cycle_eval(const zeno_scene *scene, double phi, zeno_cycle *cy,
                            zeno_error *error) {
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
  st = poincare_runner_init(&r, &own, true, error);
  if (st == ZENO_OK) st = poincare_runner_eval(&r, phi, cy, error);
  if (st == ZENO_OK) maps_cycle_to_user(u, cy);
  poincare_runner_free(&r);
  return st;
}

bool poincare_ordered_scene(const zeno_scene *scene, zeno_scene *out) {
  *out = *scene;
  contact_order order;
  if (!contact_order_of_scene(scene, &order) || !order.swappable) return false;
  const zeno_contact_def c0 = out->contacts[0];
  out->contacts[0] = out->contacts[1];
  out->contacts[1] = c0;
  out->has_paper = false;  // the paper block names contacts in the old order
  return true;
}

zeno_status zeno_maps_def_validate(const zeno_maps_def *d, zeno_error *error) {
  if (d == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "settings are required");
  if (d->samples < ZENO_MAPS_MIN_SAMPLES || d->samples > ZENO_MAPS_MAX_SAMPLES)
    return zeno_fail(error, ZENO_ERR_RANGE, "samples", "samples %zu out of range; allowed [%d, %d]",
                     d->samples, ZENO_MAPS_MIN_SAMPLES, ZENO_MAPS_MAX_SAMPLES);
  if (!(d->breakpoint_tol > 0) || !(d->endpoint_delta > 0 && d->endpoint_delta < 0.1) ||
      !(d->fixed_point_breakpoint_tol >= 0 && d->fixed_point_breakpoint_tol < 0.1) ||
      !(d->fixed_point_tie_margin >= 0 && d->fixed_point_tie_margin <= 1))
    return zeno_fail(error, ZENO_ERR_RANGE, "maps",
                     "breakpoint_tol > 0, endpoint_delta in (0, 0.1), "
                     "fixed_point_breakpoint_tol in [0, 0.1) and fixed_point_tie_margin "
                     "in [0, 1] needed");
  if (d->threads < 0 || d->threads > ZENO_MAPS_MAX_THREADS)
    return zeno_fail(error, ZENO_ERR_RANGE, "threads", "maps threads %d outside [0, %d]",
                     d->threads, ZENO_MAPS_MAX_THREADS);
  return ZENO_OK;
}
