// The hybrid loop: next event, impact resolution, mode selection, Zeno
// completion and outcomes (paper Sec. 3-5, Fig. 3).
#include "zeno/sim.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contact_solve.h"
#include "flow_zod.h"
#include "impact.h"
#include "kinematics.h"
#include "modes.h"
#include "util.h"

/// Impacts remembered for Zeno detection: enough for ratio_periods + 2
/// periods of the longest period searched.
#define SIM_RING 256
/// A Zeno sequence whose impact speed fell below this fraction of its
/// first impact speed is at the limit of double precision: it is completed
/// from its current state even without a constant period ratio.
#define SIM_ZENO_SPEED_FLOOR 1e-12
/// Impacts after which a sequence with shrinking, but never exactly
/// periodic, ratios is completed the same way.
#define SIM_ZENO_MAX_IMPACTS 20000
/// Section angles kept for the summary.
#define SIM_MAX_SECTIONS 16

typedef struct segment {
  double t0, t1;
  double q0[3], qd0[3], qdd[3];
  zeno_mode mode;
  double force[4];
  bool zeno_tail;  ///< linear stand-in for the infinitely many Zeno impacts
} segment;

typedef struct impact_record {
  double t;
  uint64_t signature;  ///< hash of the modes and impact since the previous impact
  double speed;        ///< largest approach speed of the impacting contacts
  double q[3], qd[3];  ///< state just after the impact
  unsigned touched;    ///< contacts touching at the impact
} impact_record;

struct zeno_sim {
  zeno_scene scene;
  zeno_sim_def def;
  zk_model km;
  zc_dyn dyn;  ///< constant under the ZOD

  double t, q[3], qd[3];
  zm_solution sol;  ///< the mode in force
  double vscale;    ///< velocity scale of the current segment

  bool started, finished, end_pending, zeno_pending;
  bool start_impact;  ///< the initial state is an impact (zero gap, approaching)
  zeno_outcome outcome, pending_outcome;
  zeno_guard pending_guard;
  long event_count, impact_count;
  int consistent_count;
  zeno_mode consistent[ZENO_MAX_MODES];

  char *word;
  size_t word_len, word_cap;
  uint64_t signature;  ///< running hash since the last impact

  segment *hist;
  size_t hist_len, hist_cap;

  impact_record ring[SIM_RING];
  int ring_len;            ///< records in the current sequence (capped)
  long seq_impacts;        ///< impacts in the current sequence
  double seq_first_speed;  ///< first impact speed of the sequence

  /* pending Zeno completion */
  double zeno_t, zeno_q[3], zeno_qd[3], zeno_ratio, zeno_err;
  unsigned zeno_contacts;
  int zeno_period;
  long zeno_seq_impacts;
  /* diverging */
  double div_ratio;
  int div_period;

  bool has_zeno;
  double first_zeno_time;
  long first_zeno_impacts;
  int section_count;
  double sections[SIM_MAX_SECTIONS];
};

/* ---------- names ---------- */

static const char LETTERS[4] = {'F', 'S', 'P', 'N'};

const char *zeno_mode_name(zeno_mode mode, int n, char *buf) {
  int k = 0;
  for (int i = 0; i < n && i < ZENO_MAX_CONTACTS; i++)
    buf[k++] = LETTERS[mode.letter[i] & 3];
  buf[k] = '\0';
  return buf;
}

bool zeno_mode_parse(const char *text, int n, zeno_mode *mode) {
  if (text == NULL || (int)strlen(text) != n) return false;
  zeno_mode m = {{0, 0}};
  for (int i = 0; i < n; i++) {
    const char *p = memchr(LETTERS, text[i], 4);
    if (p == NULL) return false;
    m.letter[i] = (unsigned char)(p - LETTERS);
  }
  *mode = m;
  return true;
}

const char *zeno_outcome_name(zeno_outcome o) {
  switch (o) {
    case ZENO_OUTCOME_RUNNING: return "running";
    case ZENO_OUTCOME_REST: return "rest";
    case ZENO_OUTCOME_ESCAPED: return "escaped";
    case ZENO_OUTCOME_DIVERGING: return "diverging";
    case ZENO_OUTCOME_AMBIGUOUS: return "ambiguous";
    case ZENO_OUTCOME_INCONSISTENT: return "inconsistent";
    case ZENO_OUTCOME_TIME_LIMIT: return "time-limit";
    case ZENO_OUTCOME_EVENT_LIMIT: return "event-limit";
    case ZENO_OUTCOME_SOLVER_FAILURE: return "solver-failure";
  }
  return "unknown";
}

const char *zeno_event_kind_name(zeno_event_kind k) {
  switch (k) {
    case ZENO_EVENT_START: return "start";
    case ZENO_EVENT_IMPACT: return "impact";
    case ZENO_EVENT_TRANSITION: return "transition";
    case ZENO_EVENT_ZENO: return "zeno";
    case ZENO_EVENT_END: return "end";
  }
  return "unknown";
}

const char *zeno_guard_name(zeno_guard g) {
  switch (g) {
    case ZENO_GUARD_NONE: return "none";
    case ZENO_GUARD_GAP: return "gap";
    case ZENO_GUARD_NORMAL_FORCE: return "normal-force";
    case ZENO_GUARD_SLIP_VELOCITY: return "slip-velocity";
    case ZENO_GUARD_FRICTION_MARGIN: return "friction-margin";
    case ZENO_GUARD_ESCAPE: return "escape";
    case ZENO_GUARD_TIME: return "time";
    case ZENO_GUARD_ZENO: return "zeno";
  }
  return "unknown";
}

const char *zeno_impact_name(unsigned mask, int n) {
  if (n == 1) return "I";
  switch (mask & 3u) {
    case 1: return "IF";
    case 2: return "FI";
    case 3: return "II";
    default: return "FF";
  }
}

/* ---------- defaults and life cycle ---------- */

zeno_sim_def zeno_sim_def_default(void) {
  zeno_sim_def d;
  memset(&d, 0, sizeof d);
  // Exact ZOD arithmetic loses a few ulps per event; 1e-9 of the state's
  // own velocity scale is zero with room for ~1e6 accumulated roundings.
  d.velocity_rtol = 1e-9;
  // Forces are constants of one linear solve per mode: 1e-10 of the load.
  d.force_rtol = 1e-10;
  // Guards within 1e-9 of the segment length are one simultaneous event.
  d.time_rtol = 1e-9;
  // ZOD period ratios are exact up to rounding (~1e-13 after a few
  // periods); 1e-7 separates them from transient ratios.
  d.ratio_rtol = 1e-7;
  d.ratio_periods = 3;
  d.max_period = 8;
  d.keep_history = true;
  return d;
}

static zeno_status word_append(zeno_sim *s, const char *token) {
  const size_t n = strlen(token);
  if (s->word_len + n + 2 > s->word_cap) {
    size_t cap = s->word_cap ? 2 * s->word_cap : 256;
    while (cap < s->word_len + n + 2) cap *= 2;
    char *w = realloc(s->word, cap);
    if (w == NULL) return ZENO_ERR_NOMEM;
    s->word = w;
    s->word_cap = cap;
  }
  if (s->word_len) s->word[s->word_len++] = ' ';
  memcpy(s->word + s->word_len, token, n + 1);
  s->word_len += n;
  // FNV-1a over the tokens since the last impact: the signature of a step.
  for (size_t k = 0; k <= n; k++) {
    s->signature ^= (unsigned char)(k < n ? token[k] : ' ');
    s->signature *= 1099511628211ull;
  }
  return ZENO_OK;
}

static zeno_status hist_push(zeno_sim *s, const segment *g) {
  if (!s->def.keep_history) s->hist_len = 0;
  if (s->hist_len == s->hist_cap) {
    size_t cap = s->hist_cap ? 2 * s->hist_cap : 64;
    segment *h = realloc(s->hist, cap * sizeof *h);
    if (h == NULL) return ZENO_ERR_NOMEM;
    s->hist = h;
    s->hist_cap = cap;
  }
  s->hist[s->hist_len++] = *g;
  return ZENO_OK;
}

static void contacts_of(const zeno_sim *s, const double q[3], const double qd[3],
                        double c[4], double cd[4]) {
  zk_zod_contacts(&s->km, q, qd, c, cd);
}

static void fill_state(const zeno_sim *s, double t, const double q[3],
                       const double qd[3], const zm_solution *sol,
                       zeno_state *st) {
  memset(st, 0, sizeof *st);
  st->t = t;
  double c[4], cd[4];
  contacts_of(s, q, qd, c, cd);
  for (int k = 0; k < 3; k++) {
    st->q[k] = q[k];
    st->qdot[k] = qd[k];
  }
  for (int i = 0; i < s->km.n; i++) {
    st->gap[i] = c[2 * i];
    st->gap_rate[i] = cd[2 * i];
    st->slip[i] = c[2 * i + 1];
    st->slip_rate[i] = cd[2 * i + 1];
    st->force[i][0] = sol->force[2 * i];
    st->force[i][1] = sol->force[2 * i + 1];
  }
  zk_to_zod(&s->km, q, qd, st->zod, st->zod_rate);
  st->mode = sol->mode;
  st->energy = zk_energy(&s->km, q, qd);
}

static double contact_speed(const zeno_sim *s, const double qd[3]) {
  double c[4], cd[4];
  const double zero[3] = {0, 0, 0};
  contacts_of(s, zero, qd, c, cd);
  double v = 0;
  for (int a = 0; a < 2 * s->km.n; a++) v = fmax(v, fabs(cd[a]));
  return v;
}

/* ---------- constraint projection ---------- */

// Mass-weighted projection of (q, qdot) so that the listed contact
// coordinates take the target values exactly: dq = M^-1 C (C^T M^-1 C)^-1 r.
// This removes rounding drift only; it applies no physical impulse.
static void project(const zeno_sim *s, double v[3], const int *cols, int m,
                    const double *target, bool position) {
  if (m == 0) return;
  double A[16], r[4];
  for (int a = 0; a < m; a++) {
    double cur = 0;
    for (int k = 0; k < 3; k++) cur += s->km.W0[k][cols[a]] * v[k];
    r[a] = target[a] - cur;
    for (int b = 0; b < m; b++) {
      double sum = 0;
      for (int k = 0; k < 3; k++)
        sum += s->km.W0[k][cols[a]] * s->km.inv_mass[k] * s->km.W0[k][cols[b]];
      A[a * m + b] = sum;
    }
  }
  if (!zeno_linsolve(m, A, r, 1e-12)) return;
  for (int k = 0; k < 3; k++) {
    double dv = 0;
    for (int a = 0; a < m; a++) dv += s->km.W0[k][cols[a]] * r[a];
    v[k] += s->km.inv_mass[k] * dv;
  }
  (void)position;
}

// Gaps and normal rates of closed contacts to exactly zero, and slip rates
// of contacts classified as not slipping.
static void enforce(zeno_sim *s, const zm_class *cls) {
  int cols[4] = {0, 0, 0, 0}, m = 0;
  double target[4] = {0, 0, 0, 0};
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == ZM_GAP_CLOSED) cols[m++] = 2 * i;
  project(s, s->q, cols, m, target, true);
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == ZM_GAP_CLOSED && cls->slip[i] == ZM_SLIP_ZERO)
      cols[m++] = 2 * i + 1;
  if (m > 3) m = 3;  // three velocity constraints already fix qdot = 0
  project(s, s->qd, cols, m, target, false);
  if (m == 3) {
    // All velocities of a fully constrained body are zero; make it exact.
    bool all_zero = true;
    for (int i = 0; i < s->km.n; i++)
      if (!(cls->gap[i] == ZM_GAP_CLOSED && cls->slip[i] == ZM_SLIP_ZERO))
        all_zero = false;
    if (all_zero) s->qd[0] = s->qd[1] = s->qd[2] = 0;
  }
}

/* ---------- classification and mode selection ---------- */

typedef struct tolerances {
  double v;        ///< zero velocity
  double impulse;  ///< zero impulse
  zm_tol mode;
} tolerances;

static tolerances make_tol(const zeno_sim *s, double vscale) {
  tolerances t;
  t.v = s->def.velocity_rtol * vscale;
  t.impulse = s->def.velocity_rtol * vscale * s->km.mass;
  t.mode.force = s->def.force_rtol * s->km.force_scale;
  t.mode.accel = s->def.force_rtol * s->km.accel_scale;
  return t;
}

static unsigned char slip_class(double xd, double tol) {
  if (xd > tol) return ZM_SLIP_POS;
  if (xd < -tol) return ZM_SLIP_NEG;
  return ZM_SLIP_ZERO;
}

// closed[i]: the contact is known to touch (z = 0) at this instant.
static void classify(const zeno_sim *s, const bool touching[2], double tol_v,
                     zm_class *cls) {
  double c[4], cd[4];
  contacts_of(s, s->q, s->qd, c, cd);
  memset(cls, 0, sizeof *cls);
  for (int i = 0; i < s->km.n; i++) {
    if (!touching[i]) {
      cls->gap[i] = ZM_GAP_OPEN;
    } else if (cd[2 * i] > tol_v) {
      cls->gap[i] = ZM_GAP_OPEN;
    } else if (cd[2 * i] < -tol_v) {
      cls->gap[i] = ZM_GAP_IMPACTING;
    } else {
      cls->gap[i] = ZM_GAP_CLOSED;
    }
    cls->slip[i] = slip_class(cd[2 * i + 1], tol_v);
  }
}

typedef enum select_result { SELECT_ONE, SELECT_NONE, SELECT_MANY } select_result;

static select_result select_mode(zeno_sim *s, const zm_class *cls,
                                 const tolerances *tol, zm_solution *chosen) {
  zm_solution all[ZENO_MAX_MODES];
  const int n = zm_enumerate(&s->dyn, cls, &tol->mode, all);
  s->consistent_count = n;
  for (int k = 0; k < n; k++) s->consistent[k] = all[k].mode;
  if (n == 0) return SELECT_NONE;
  if (n == 1) {
    *chosen = all[0];
    return SELECT_ONE;
  }
  switch (s->scene.ambiguity) {
    case ZENO_AMBIGUITY_PREFER_STATIC: *chosen = all[0]; return SELECT_ONE;
    case ZENO_AMBIGUITY_PREFER_MOTION: *chosen = all[n - 1]; return SELECT_ONE;
    default: return SELECT_MANY;
  }
}

static bool is_rest(const zeno_sim *s, const zm_solution *sol, const tolerances *tol) {
  for (int i = 0; i < s->km.n; i++)
    if (sol->mode.letter[i] != ZENO_LETTER_S) return false;
  if (contact_speed(s, s->qd) != 0) return false;
  // One contact: sticking must also hold the body still (no pivoting).
  double c[4], cd[4];
  contacts_of(s, (double[3]){0, 0, 0}, sol->qdd, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++)
    if (fabs(cd[a]) > tol->mode.accel) return false;
  const double rot = fabs(sol->qdd[2]) * s->km.length_scale;
  return rot <= tol->mode.accel && hypot(sol->qdd[0], sol->qdd[1]) <= tol->mode.accel;
}

// After an event: choose the next mode and set what ends the run, if anything.
static void choose_next(zeno_sim *s, const zm_class *cls, const tolerances *tol) {
  zm_solution chosen;
  const select_result r = select_mode(s, cls, tol, &chosen);
  if (r == SELECT_NONE) {
    s->end_pending = true;
    s->pending_outcome = ZENO_OUTCOME_INCONSISTENT;
    return;
  }
  if (r == SELECT_MANY) {
    s->end_pending = true;
    s->pending_outcome = ZENO_OUTCOME_AMBIGUOUS;
    return;
  }
  s->sol = chosen;
  if (is_rest(s, &chosen, tol)) {
    s->end_pending = true;
    s->pending_outcome = ZENO_OUTCOME_REST;
  }
}

static zeno_status handle_crossing(zeno_sim *s, zeno_event *ev, zeno_guard guard,
                                   int contact, const bool gap_hit[2],
                                   const bool slip_hit[2], double vscale);
static void project_gaps(zeno_sim *s, const zm_class *cls);

/* ---------- creation ---------- */

zeno_sim *zeno_sim_create(const zeno_scene *scene, const zeno_sim_def *def,
                          zeno_error *error) {
  if (scene == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene is NULL");
    return NULL;
  }
  if (zeno_scene_validate(scene, error) != ZENO_OK) return NULL;
  zeno_sim_def d = def ? *def : zeno_sim_def_default();
  if (!(d.velocity_rtol > 0 && d.velocity_rtol < 1e-2) ||
      !(d.force_rtol > 0 && d.force_rtol < 1e-2) ||
      !(d.time_rtol > 0 && d.time_rtol < 1e-2) ||
      !(d.ratio_rtol > 0 && d.ratio_rtol < 1e-1) || d.ratio_periods < 1 ||
      d.max_period < 1 ||
      d.max_period * (d.ratio_periods + 2) + 1 > SIM_RING) {
    zeno_fail(error, ZENO_ERR_RANGE, "sim_def",
              "tolerances must lie in (0, 1e-2) (ratio_rtol in (0, 0.1)), "
              "ratio_periods >= 1 and 1 <= max_period with "
              "max_period * (ratio_periods + 2) < %d",
              SIM_RING);
    return NULL;
  }
  if (scene->model == ZENO_MODEL_FULL) {
    zeno_fail(error, ZENO_ERR_UNSUPPORTED, "model",
              "the full nonlinear model is not available in this version; "
              "use model: zod");
    return NULL;
  }
  zeno_sim *s = calloc(1, sizeof *s);
  if (s == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  s->scene = *scene;
  s->def = d;
  if (zk_model_init(&s->km, scene, error) != ZENO_OK) {
    free(s);
    return NULL;
  }
  const double bias[4] = {0, 0, 0, 0};
  zc_dyn_build(&s->dyn, s->km.n, s->km.W0, s->km.inv_mass, s->km.h, bias,
               s->km.mu);
  if (scene->initial_kind == ZENO_INITIAL_ZOD) {
    zk_from_zod(&s->km, scene->initial_qp, scene->initial_qdp, s->q, s->qd);
  } else {
    memcpy(s->q, scene->initial_pose, sizeof s->q);
    memcpy(s->qd, scene->initial_velocity, sizeof s->qd);
  }
  // The initial state must be contact-feasible (10).
  double c[4], cd[4];
  contacts_of(s, s->q, s->qd, c, cd);
  const double lscale = s->km.length_scale;
  for (int i = 0; i < s->km.n; i++) {
    const double qscale = fmax(fabs(s->q[0]) + fabs(s->q[1]),
                               fabs(s->q[2]) * lscale);
    const double ztol = 1e-12 * qscale;
    if (c[2 * i] < -ztol) {
      zeno_fail(error, ZENO_ERR_RANGE, "initial",
                "initial state penetrates the surface at contact %d: gap %g "
                "(need gap >= 0)",
                i + 1, c[2 * i]);
      free(s);
      return NULL;
    }
  }
  s->signature = 1469598103934665603ull;
  return s;
}

void zeno_sim_destroy(zeno_sim *s) {
  if (s == NULL) return;
  free(s->word);
  free(s->hist);
  free(s);
}

zeno_outcome zeno_sim_outcome(const zeno_sim *s) { return s->outcome; }
const zeno_scene *zeno_sim_scene(const zeno_sim *s) { return &s->scene; }

/* ---------- events ---------- */

static void event_begin(zeno_sim *s, zeno_event *ev, zeno_event_kind kind,
                        zeno_guard guard, int contact) {
  memset(ev, 0, sizeof *ev);
  ev->index = s->event_count;
  ev->kind = kind;
  ev->guard = guard;
  ev->contact = contact;
  ev->t = s->t;
  ev->mode_before = s->sol.mode;
  fill_state(s, s->t, s->q, s->qd, &s->sol, &ev->before);
}

static void event_finish(zeno_sim *s, zeno_event *ev) {
  ev->mode_after = s->sol.mode;
  fill_state(s, s->t, s->q, s->qd, &s->sol, &ev->after);
  s->event_count++;
  if (!s->end_pending && s->event_count >= s->scene.max_events) {
    s->end_pending = true;
    s->pending_outcome = ZENO_OUTCOME_EVENT_LIMIT;
  }
}

static void mode_token(zeno_sim *s) {
  char name[4];
  word_append(s, zeno_mode_name(s->sol.mode, s->km.n, name));
}

// A contact touches at the start when its gap is zero to rounding of the
// initial state (q' -> q conversion).
static double start_gap_tol(const zeno_sim *s) {
  double qscale = fmax(fabs(s->q[0]), fabs(s->q[1]));
  qscale = fmax(qscale, fabs(s->q[2]) * s->km.length_scale);
  return 1e-12 * qscale;
}

static zeno_status emit_start(zeno_sim *s, zeno_event *ev) {
  s->started = true;
  s->vscale = fmax(contact_speed(s, s->qd), 0);
  double c[4], cd[4];
  contacts_of(s, s->q, s->qd, c, cd);
  if (s->vscale == 0) {
    // Starting at rest: the velocity scale is what the load makes of the gaps.
    double zmax = 0;
    for (int a = 0; a < 2 * s->km.n; a++) zmax = fmax(zmax, fabs(c[a]));
    s->vscale = sqrt(s->km.accel_scale * fmax(zmax, s->km.length_scale));
  }
  const tolerances tol = make_tol(s, s->vscale);
  bool touching[2] = {false, false};
  for (int i = 0; i < s->km.n; i++)
    touching[i] = fabs(c[2 * i]) <= start_gap_tol(s);
  zm_class cls;
  classify(s, touching, tol.v, &cls);
  memset(&s->sol, 0, sizeof s->sol);
  for (int i = 0; i < s->km.n; i++)
    if (cls.gap[i] == ZM_GAP_IMPACTING) s->start_impact = true;
  if (s->start_impact) {
    // Starting on an impact (e.g. on the Poincaré section): the start mode
    // names the sustained contacts by their slip; the impact comes next.
    for (int i = 0; i < s->km.n; i++) {
      static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P,
                                               ZENO_LETTER_N};
      s->sol.mode.letter[i] =
          cls.gap[i] == ZM_GAP_CLOSED ? by_slip[cls.slip[i]] : ZENO_LETTER_F;
    }
    project_gaps(s, &cls);
    event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    mode_token(s);
  } else {
    enforce(s, &cls);
    event_begin(s, ev, ZENO_EVENT_START, ZENO_GUARD_NONE, -1);
    choose_next(s, &cls, &tol);
    if (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) mode_token(s);
  }
  event_finish(s, ev);
  ev->before = ev->after;
  ev->mode_before = ev->mode_after;
  return ZENO_OK;
}

static zeno_status emit_start_impact(zeno_sim *s, zeno_event *ev) {
  s->start_impact = false;
  double c[4], cd[4];
  contacts_of(s, s->q, s->qd, c, cd);
  bool gap_hit[2] = {false, false};
  const bool slip_hit[2] = {false, false};
  int first = -1;
  for (int i = 0; i < s->km.n; i++) {
    gap_hit[i] = s->sol.mode.letter[i] == ZENO_LETTER_F &&
                 fabs(c[2 * i]) <= start_gap_tol(s) && cd[2 * i] < 0;
    if (gap_hit[i] && first < 0) first = i;
  }
  return handle_crossing(s, ev, ZENO_GUARD_GAP, first, gap_hit, slip_hit,
                         s->vscale);
}

static zeno_status emit_end(zeno_sim *s, zeno_event *ev) {
  event_begin(s, ev, ZENO_EVENT_END, s->pending_guard, -1);
  ev->outcome = s->pending_outcome;
  ev->mode_after = s->sol.mode;
  ev->after = ev->before;
  if (s->pending_outcome == ZENO_OUTCOME_AMBIGUOUS) {
    ev->consistent_count = s->consistent_count;
    memcpy(ev->consistent, s->consistent, sizeof ev->consistent);
  }
  if (s->pending_outcome == ZENO_OUTCOME_DIVERGING) {
    ev->zeno_ratio = s->div_ratio;
    ev->zeno_period = s->div_period;
  }
  s->outcome = s->pending_outcome;
  s->finished = true;
  s->event_count++;
  return ZENO_OK;
}

/* ---------- Zeno detection ---------- */

static void ring_push(zeno_sim *s, const impact_record *r) {
  if (s->ring_len == SIM_RING) {
    memmove(s->ring, s->ring + 1, (SIM_RING - 1) * sizeof *s->ring);
    s->ring_len--;
  }
  s->ring[s->ring_len++] = *r;
}

static const impact_record *rec(const zeno_sim *s, int back) {
  return &s->ring[s->ring_len - 1 - back];
}

static bool close_rel(double a, double b, double rtol) {
  return fabs(a - b) <= rtol * fmax(fabs(a), fabs(b));
}

// Geometric extrapolation of the accumulation point from the states at the
// same phase of the last three periods. Velocities and times of a ZOD
// sequence are exact geometric series of ratio r; positions add the
// increments v tau + a tau^2 / 2, a sum of two series of ratios r and r^2.
static void extrapolate(zeno_sim *s, int p, double r) {
  const impact_record *a = rec(s, 0), *b = rec(s, p), *c = rec(s, 2 * p);
  const double g = r / (1 - r), g2 = r * r / (1 - r * r);
  s->zeno_t = a->t + (a->t - b->t) * g;
  const double t_prev = b->t + (b->t - c->t) * g;
  s->zeno_err = fabs(s->zeno_t - t_prev);
  for (int k = 0; k < 3; k++) {
    s->zeno_qd[k] = a->qd[k] + (a->qd[k] - b->qd[k]) * g;
    const double e0 = a->q[k] - b->q[k], e1 = b->q[k] - c->q[k];
    const double lin = (e1 * r * r - e0) / (r - 1);
    const double quad = e0 - lin;
    s->zeno_q[k] = a->q[k] + lin * g + quad * g2;
  }
  unsigned touched = 0;
  for (int k = 0; k < p; k++) touched |= rec(s, k)->touched;
  s->zeno_contacts = touched;
  s->zeno_ratio = r;
  s->zeno_period = p;
  s->zeno_seq_impacts = s->seq_impacts;
}

// Sign of a contact slip rate with a zero band.
static int slip_sign(double xd, double tol) { return xd > tol ? 1 : (xd < -tol ? -1 : 0); }

// True when every contact slipping at a phase point of the last period slips
// the same way at the extrapolated limit. Along a period of fixed steps the
// phase velocities approach the limit monotonically, so a sign that holds at
// both ends holds throughout.
static bool limit_keeps_slip_signs(const zeno_sim *s, int p) {
  const double tol = s->def.velocity_rtol * s->seq_first_speed;
  double c[4], lim[4];
  const double zero[3] = {0, 0, 0};
  contacts_of(s, zero, s->zeno_qd, c, lim);
  for (int k = 0; k < p; k++) {
    double cd[4];
    contacts_of(s, zero, rec(s, k)->qd, c, cd);
    for (int i = 0; i < s->km.n; i++) {
      const int sk = slip_sign(cd[2 * i + 1], tol);
      const int sl = slip_sign(lim[2 * i + 1], tol);
      // A slip that fades to zero together with the normal motion (sl = 0)
      // is a limit, not a reversal.
      if (sk != 0 && sl != 0 && sk != sl) return false;
    }
  }
  return true;
}

// Reverse chatter is declared once the post-impact velocity direction at the
// phase point repeats from period to period (a fixed point of R).
static bool direction_settled(const zeno_sim *s, int p) {
  const impact_record *a = rec(s, 0), *b = rec(s, p);
  const double na = hypot(hypot(a->qd[0], a->qd[1]), a->qd[2] * s->km.length_scale);
  const double nb = hypot(hypot(b->qd[0], b->qd[1]), b->qd[2] * s->km.length_scale);
  if (!(na > 0 && nb > 0)) return false;
  double diff = 0;
  for (int k = 0; k < 3; k++) {
    const double w = k == 2 ? s->km.length_scale : 1.0;
    diff = fmax(diff, fabs(a->qd[k] / na - b->qd[k] / nb) * w);
  }
  return diff <= s->def.ratio_rtol;
}

// Looks for the shortest period p over which the last ratio_periods + 1
// periods repeat the same steps with one constant ratio of durations and
// impact speeds. r < 1: a converging Zeno sequence; r > 1: reverse chatter.
static void detect_sequence(zeno_sim *s) {
  const int K = s->def.ratio_periods + 1;
  for (int p = 1; p <= s->def.max_period; p++) {
    if (s->ring_len < K * p + 1) break;
    bool periodic = true;
    for (int j = 0; j + p <= K * p && periodic; j++)
      periodic = rec(s, j)->signature == rec(s, j + p)->signature;
    if (!periodic) continue;
    double r0 = 0;
    bool constant = true;
    for (int k = 0; k + 1 < K && constant; k++) {
      const double Tk = rec(s, k * p)->t - rec(s, (k + 1) * p)->t;
      const double Tk1 = rec(s, (k + 1) * p)->t - rec(s, (k + 2) * p)->t;
      if (!(Tk > 0 && Tk1 > 0)) {
        constant = false;
        break;
      }
      const double rk = Tk / Tk1;
      const double rv = rec(s, k * p)->speed / rec(s, (k + 1) * p)->speed;
      if (k == 0) r0 = rk;
      constant = close_rel(rk, r0, s->def.ratio_rtol) &&
                 close_rel(rv, r0, s->def.ratio_rtol);
    }
    if (!constant) continue;
    if (r0 < 1 - s->def.ratio_rtol) {
      extrapolate(s, p, r0);
      // The series continues forever only if no slip reverses on the way:
      // otherwise the steps change before the limit and simulation goes on.
      s->zeno_pending = limit_keeps_slip_signs(s, p);
    } else if (r0 > 1 + s->def.ratio_rtol && direction_settled(s, p)) {
      s->end_pending = true;
      s->pending_outcome = ZENO_OUTCOME_DIVERGING;
      s->div_ratio = r0;
      s->div_period = p;
    }
    return;
  }
  // Precision floor: a sequence shrunk to the last digits of the state is
  // at its accumulation point, whatever its ratios do.
  const impact_record *last = rec(s, 0);
  if (s->seq_impacts >= 2 &&
      (last->speed < SIM_ZENO_SPEED_FLOOR * s->seq_first_speed ||
       s->seq_impacts >= SIM_ZENO_MAX_IMPACTS)) {
    const impact_record *prev = rec(s, 1);
    s->zeno_t = last->t;
    s->zeno_err = last->t - prev->t;
    memcpy(s->zeno_q, last->q, sizeof s->zeno_q);
    memcpy(s->zeno_qd, last->qd, sizeof s->zeno_qd);
    s->zeno_contacts = last->touched | prev->touched;
    s->zeno_ratio = last->speed / prev->speed;
    s->zeno_period = 0;
    s->zeno_seq_impacts = s->seq_impacts;
    s->zeno_pending = true;
  }
}

static void record_impact(zeno_sim *s, double speed, unsigned touched) {
  impact_record r;
  r.t = s->t;
  r.signature = s->signature;
  r.speed = speed;
  memcpy(r.q, s->q, sizeof r.q);
  memcpy(r.qd, s->qd, sizeof r.qd);
  r.touched = touched;
  if (s->seq_impacts == 0) s->seq_first_speed = speed;
  s->seq_impacts++;
  ring_push(s, &r);
  s->signature = 1469598103934665603ull;
}

static void reset_sequence(zeno_sim *s) {
  s->ring_len = 0;
  s->seq_impacts = 0;
}

/* ---------- one event ---------- */

static zeno_status emit_zeno(zeno_sim *s, zeno_event *ev) {
  s->zeno_pending = false;
  segment g = {.t0 = s->t, .t1 = s->zeno_t, .mode = s->sol.mode, .zeno_tail = true};
  memcpy(g.q0, s->q, sizeof g.q0);
  memcpy(g.qd0, s->qd, sizeof g.qd0);
  for (int k = 0; k < 3; k++)
    g.qdd[k] = s->zeno_t > s->t ? (s->zeno_q[k] - s->q[k]) / (s->zeno_t - s->t) : 0;
  if (hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  event_begin(s, ev, ZENO_EVENT_ZENO, ZENO_GUARD_ZENO, -1);
  const double vscale = s->vscale;
  s->t = s->zeno_t;
  memcpy(s->q, s->zeno_q, sizeof s->q);
  memcpy(s->qd, s->zeno_qd, sizeof s->qd);
  fill_state(s, s->t, s->q, s->qd, &s->sol, &ev->before);
  ev->t = s->t;
  ev->zeno_impacts = s->zeno_seq_impacts;
  ev->zeno_ratio = s->zeno_ratio;
  ev->zeno_error = s->zeno_err;
  ev->zeno_period = s->zeno_period;
  if (!s->has_zeno) {
    s->has_zeno = true;
    s->first_zeno_time = s->zeno_t;
    s->first_zeno_impacts = s->zeno_seq_impacts;
  }
  // The impacting contacts close: normal gaps and rates vanish at the limit.
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = (s->zeno_contacts >> i) & 1u;
  // Zero is judged on the scale of the sequence (its first impact speed):
  // what is left at the limit is either that large (a tangential slip) or
  // rounding of the vanished normal motion.
  const tolerances tol = make_tol(s, fmax(fmax(contact_speed(s, s->qd), vscale),
                                          s->seq_first_speed));
  zm_class cls;
  classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->km.n; i++)
    if (touching[i]) cls.gap[i] = ZM_GAP_CLOSED;
  enforce(s, &cls);
  s->vscale = fmax(contact_speed(s, s->qd), tol.v);
  reset_sequence(s);
  word_append(s, "Z");
  const zeno_mode before = s->sol.mode;
  choose_next(s, &cls, &tol);
  if (!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) mode_token(s);
  ev->mode_before = before;
  event_finish(s, ev);
  s->signature = 1469598103934665603ull;
  return ZENO_OK;
}

static zeno_status emit_time_limit(zeno_sim *s, zeno_event *ev, double tau) {
  segment g = {.t0 = s->t, .t1 = s->t + tau, .mode = s->sol.mode};
  memcpy(g.q0, s->q, sizeof g.q0);
  memcpy(g.qd0, s->qd, sizeof g.qd0);
  memcpy(g.qdd, s->sol.qdd, sizeof g.qdd);
  memcpy(g.force, s->sol.force, sizeof g.force);
  if (hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  zf_advance(g.q0, g.qd0, g.qdd, tau, s->q, s->qd);
  s->t = s->scene.t_end;
  s->pending_outcome = ZENO_OUTCOME_TIME_LIMIT;
  s->pending_guard = ZENO_GUARD_TIME;
  return emit_end(s, ev);
}

// Gaps of touching contacts to exactly zero (positions only).
static void project_gaps(zeno_sim *s, const zm_class *cls) {
  int cols[2] = {0, 0}, m = 0;
  const double target[2] = {0, 0};
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] != ZM_GAP_OPEN) cols[m++] = 2 * i;
  project(s, s->q, cols, m, target, true);
}

// Impact at the touching contacts. *impacted is false for a tangent touch.
static zeno_status resolve_impact(zeno_sim *s, zeno_event *ev, zm_class *cls,
                                  const bool gap_hit[2], const tolerances *tol,
                                  bool *impacted) {
  double c[4], cd[4];
  contacts_of(s, s->q, s->qd, c, cd);
  zi_input in;
  memset(&in, 0, sizeof in);
  in.law = s->scene.impact_law;
  in.e = s->scene.restitution;
  in.et = s->scene.tangential_restitution;
  memcpy(in.qd, s->qd, sizeof in.qd);
  memcpy(in.v, cd, sizeof in.v);
  double speed = 0;
  unsigned touched = 0;
  for (int i = 0; i < s->km.n; i++) {
    in.touching[i] = cls->gap[i] != ZM_GAP_OPEN || gap_hit[i];
    in.impacting[i] = cls->gap[i] == ZM_GAP_IMPACTING;
    if (in.impacting[i]) speed = fmax(speed, -cd[2 * i]);
    if (in.touching[i]) touched |= 1u << i;
  }
  *impacted = speed > 0;
  if (!*impacted) return ZENO_OK;
  in.tol_v = tol->v;
  in.tol_impulse = tol->impulse;
  // Poincaré section (22): contact 1 sustained, contact 2 colliding.
  if (s->km.n == 2 && cls->gap[0] == ZM_GAP_CLOSED &&
      cls->gap[1] == ZM_GAP_IMPACTING) {
    ev->on_section = true;
    ev->section_angle = atan(cd[3] / fabs(cd[2]));
    if (s->section_count < SIM_MAX_SECTIONS)
      s->sections[s->section_count] = ev->section_angle;
    s->section_count++;
  }
  zi_result out;
  if (!zi_resolve(&s->dyn, &in, &out)) {
    s->pending_outcome = ZENO_OUTCOME_INCONSISTENT;
    s->pending_guard = ZENO_GUARD_GAP;
    return emit_end(s, ev);
  }
  memcpy(s->qd, out.qd, sizeof s->qd);
  ev->impact_mask = out.mask;
  for (int i = 0; i < s->km.n; i++) {
    ev->impact_letter[i] = out.letter[i];
    ev->impulse[i][0] = out.impulse[2 * i];
    ev->impulse[i][1] = out.impulse[2 * i + 1];
  }
  s->impact_count++;
  word_append(s, zeno_impact_name(out.mask, s->km.n));
  // Post-impact classes: touching contacts close unless they separate.
  bool touch_after[2];
  for (int i = 0; i < 2; i++) touch_after[i] = i < s->km.n && in.touching[i];
  classify(s, touch_after, tol->v, cls);
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == ZM_GAP_IMPACTING) cls->gap[i] = ZM_GAP_CLOSED;
  enforce(s, cls);
  record_impact(s, speed, touched);
  return ZENO_OK;
}

// Handles the guards that fired at the current instant: gap_hit contacts
// reached zero gap, slip_hit contacts zero slip rate. vscale is the
// velocity scale of the segment that led here.
static zeno_status handle_crossing(zeno_sim *s, zeno_event *ev, zeno_guard guard,
                                   int contact, const bool gap_hit[2],
                                   const bool slip_hit[2], double vscale) {
  const bool impact = gap_hit[0] || gap_hit[1];
  event_begin(s, ev, impact ? ZENO_EVENT_IMPACT : ZENO_EVENT_TRANSITION, guard,
              contact);
  const tolerances tol = make_tol(s, vscale);
  bool touching[2] = {false, false};
  for (int i = 0; i < s->km.n; i++)
    touching[i] = s->sol.mode.letter[i] != ZENO_LETTER_F || gap_hit[i];
  zm_class cls;
  classify(s, touching, tol.v, &cls);
  for (int i = 0; i < s->km.n; i++) {
    // A crossing slip rate is zero by definition of the event; a
    // contact closed in the previous mode stays closed.
    if (slip_hit[i]) cls.slip[i] = ZM_SLIP_ZERO;
    if (s->sol.mode.letter[i] != ZENO_LETTER_F) cls.gap[i] = ZM_GAP_CLOSED;
  }
  project_gaps(s, &cls);
  fill_state(s, s->t, s->q, s->qd, &s->sol, &ev->before);
  bool impacted = false;
  if (impact) {
    zeno_status st = resolve_impact(s, ev, &cls, gap_hit, &tol, &impacted);
    if (st != ZENO_OK || s->finished) return st;
  }
  if (!impacted) {
    // A tangent touch (zero approach speed) is no impact: the contact
    // stays free, and the event is a transition.
    ev->kind = ZENO_EVENT_TRANSITION;
    enforce(s, &cls);
  }
  s->vscale = fmax(contact_speed(s, s->qd), tol.v);
  const zeno_mode before = s->sol.mode;
  choose_next(s, &cls, &tol);
  const bool changed = memcmp(&before, &s->sol.mode, sizeof before) != 0;
  if ((!s->end_pending || s->pending_outcome == ZENO_OUTCOME_REST) &&
      (changed || impacted))
    mode_token(s);
  if (impacted && !s->end_pending) detect_sequence(s);
  event_finish(s, ev);
  return ZENO_OK;
}

static zeno_status flow_to_event(zeno_sim *s, zeno_event *ev) {
  zf_crossing cr[ZF_MAX_CROSSINGS];
  const int n = zf_crossings(&s->km, s->q, s->qd, &s->sol,
                             s->scene.escape_radius, cr);
  const double tau_end = s->scene.t_end - s->t;
  if (n == 0 || cr[0].tau >= tau_end) return emit_time_limit(s, ev, fmax(tau_end, 0));
  const double tau = cr[0].tau;
  segment g = {.t0 = s->t, .t1 = s->t + tau, .mode = s->sol.mode};
  memcpy(g.q0, s->q, sizeof g.q0);
  memcpy(g.qd0, s->qd, sizeof g.qd0);
  memcpy(g.qdd, s->sol.qdd, sizeof g.qdd);
  memcpy(g.force, s->sol.force, sizeof g.force);
  if (hist_push(s, &g) != ZENO_OK) return ZENO_ERR_NOMEM;
  const double vstart = contact_speed(s, s->qd);
  zf_advance(g.q0, g.qd0, g.qdd, tau, s->q, s->qd);
  s->t += tau;
  const double vscale = fmax(fmax(vstart, contact_speed(s, s->qd)),
                             s->km.accel_scale * tau);
  if (cr[0].guard == ZENO_GUARD_ESCAPE) {
    s->pending_outcome = ZENO_OUTCOME_ESCAPED;
    s->pending_guard = ZENO_GUARD_ESCAPE;
    return emit_end(s, ev);
  }
  // Every guard crossing within the time tolerance happens now.
  bool gap_hit[2] = {false, false}, slip_hit[2] = {false, false};
  const double tau_tol = s->def.time_rtol * tau;
  for (int k = 0; k < n && cr[k].tau <= tau + tau_tol; k++) {
    if (cr[k].guard == ZENO_GUARD_GAP) gap_hit[cr[k].contact] = true;
    if (cr[k].guard == ZENO_GUARD_SLIP_VELOCITY) slip_hit[cr[k].contact] = true;
  }
  return handle_crossing(s, ev, cr[0].guard, cr[0].contact, gap_hit, slip_hit,
                         vscale);
}

zeno_status zeno_sim_next_event(zeno_sim *s, zeno_event *ev) {
  if (s == NULL || ev == NULL) return ZENO_ERR_ARGUMENT;
  if (s->finished) return ZENO_DONE;
  if (!s->started) return emit_start(s, ev);
  if (s->start_impact) return emit_start_impact(s, ev);
  if (s->end_pending) return emit_end(s, ev);
  if (s->zeno_pending) return emit_zeno(s, ev);
  return flow_to_event(s, ev);
}

/* ---------- queries ---------- */

zeno_status zeno_sim_state_at(const zeno_sim *s, double t, zeno_state *st) {
  if (s == NULL || st == NULL) return ZENO_ERR_ARGUMENT;
  if (s->hist_len == 0 || t < s->hist[0].t0 || t > s->hist[s->hist_len - 1].t1) {
    if (t == s->t) {
      fill_state(s, s->t, s->q, s->qd, &s->sol, st);
      return ZENO_OK;
    }
    return zeno_fail(NULL, ZENO_ERR_RANGE, "t", "outside the simulated part");
  }
  // Last segment starting at or before t (later segments win at shared ends).
  size_t lo = 0, hi = s->hist_len - 1;
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (s->hist[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  const segment *g = &s->hist[lo];
  double q[3], qd[3];
  const double tau = t - g->t0;
  if (g->zeno_tail) {
    for (int k = 0; k < 3; k++) {
      q[k] = g->q0[k] + g->qdd[k] * tau;
      qd[k] = g->qd0[k];
    }
  } else {
    zf_advance(g->q0, g->qd0, g->qdd, tau, q, qd);
  }
  zm_solution sol;
  memset(&sol, 0, sizeof sol);
  sol.mode = g->mode;
  memcpy(sol.force, g->force, sizeof sol.force);
  fill_state(s, t, q, qd, &sol, st);
  return ZENO_OK;
}

void zeno_sim_summary(const zeno_sim *s, zeno_summary *sum) {
  memset(sum, 0, sizeof *sum);
  sum->outcome = s->outcome;
  sum->t = s->t;
  sum->events = s->event_count;
  sum->impacts = s->impact_count;
  sum->has_zeno = s->has_zeno;
  sum->zeno_time = s->has_zeno ? s->first_zeno_time : NAN;
  sum->zeno_impacts = s->first_zeno_impacts;
  fill_state(s, s->t, s->q, s->qd, &s->sol, &sum->final_state);
  sum->section_count = s->section_count < SIM_MAX_SECTIONS ? s->section_count
                                                           : SIM_MAX_SECTIONS;
  memcpy(sum->section_angles, s->sections, sizeof sum->section_angles);
}

int zeno_sim_word(const zeno_sim *s, char *buf, int size) {
  const char *w = s->word ? s->word : "";
  return snprintf(buf, size > 0 ? (size_t)size : 0, "%s", w);
}

zeno_status zeno_run(const zeno_scene *scene, const zeno_sim_def *def,
                     zeno_summary *summary, char *word, int word_size,
                     zeno_error *error) {
  zeno_sim_def d = def ? *def : zeno_sim_def_default();
  d.keep_history = false;
  zeno_sim *s = zeno_sim_create(scene, &d, error);
  if (s == NULL) return error ? error->code : ZENO_ERR_ARGUMENT;
  zeno_event ev;
  zeno_status st;
  while ((st = zeno_sim_next_event(s, &ev)) == ZENO_OK) {
  }
  if (st == ZENO_DONE) st = ZENO_OK;
  else zeno_fail(error, st, "", "simulation failed: %s", zeno_status_name(st));
  if (summary) zeno_sim_summary(s, summary);
  if (word) zeno_sim_word(s, word, word_size);
  zeno_sim_destroy(s);
  return st;
}
