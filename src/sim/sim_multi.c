// zeno_sim for more than two contacts (issue 34, slice 7): the public
// simulator hands a scene of 3..ZENO_MAX_CONTACTS contacts to the N-contact
// engine (simn/) and turns its events into zeno_event records, N contacts
// wide. The same calls serve both: events one by one, dense output, the
// summary, the word, restarts; under the ZOD or the full model (simn_full.c,
// started and reported as sim_full.c's: a q' start at eps^2 q', eps q'dot
// through the exact coordinates, q' reported as those coordinates over
// eps^2 and eps, dense output from the integrator's steps). The scene runs
// in its own units (scene_units.h), as the two-contact engine's does, and
// what leaves is converted back.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "sim/sim_internal.h"
#include "simn/simn.h"

#define MAXV (2 * SIMN_MAX_CONTACTS)
/// First capacity of the kept segments.
#define MULTI_HISTORY_INITIAL 64

/// A stretch between two events: the flow of the mode in force (q' and its
/// rate at t0, constant acceleration), or the straight stand-in for the
/// infinitely many impacts of a completed Zeno sequence (qddp: its slope).
typedef struct multi_segment {
  double t0;
  double qp0[3], qdp0[3], qddp[3];
  bool zeno_tail;
  zeno_mode mode;
  double force[MAXV];
  size_t node_first, node_count;  ///< the full model's steps in sim_multi.nodes (0: none)
} multi_segment;

struct sim_multi {
  simn_model model;
  simn_def def;
  simn *run;
  multi_segment *hist;  ///< segments in time order; the last is open (the run's state)
  size_t hist_len, hist_cap;
  /// The full model's q' scale eps^2 and rate scale eps (a q' start), 1
  /// otherwise (sim_create.c's len_scale, vel_scale).
  double len_scale, vel_scale;
  cvode_node *nodes;  ///< the full model's accepted steps of the kept segments
  size_t node_len, node_cap;
};

bool sim_multi_zod_angle(const zeno_sim *s) { return s->multi->model.coord[2] < 0; }

// The name of contact coordinate a (z_i at 2i, x_i at 2i + 1; -1: theta).
static void coord_name(int a, char name[ZENO_ZOD_NAME_SIZE]) {
  if (a < 0) {
    snprintf(name, ZENO_ZOD_NAME_SIZE, "th");
    return;
  }
  const int contact = a / 2 + 1;  // 1 .. ZENO_MAX_CONTACTS: one or two digits
  int k = 0;
  name[k++] = a % 2 == 0 ? 'z' : 'x';
  if (contact >= 10) name[k++] = (char)('0' + contact / 10);
  name[k++] = (char)('0' + contact % 10);
  name[k] = '\0';
}

static void model_names(const simn_model *m, char names[3][ZENO_ZOD_NAME_SIZE]) {
  for (int r = 0; r < 3; r++) coord_name(m->coord[r], names[r]);
}

void sim_multi_zod_names(const zeno_sim *s, char names[3][ZENO_ZOD_NAME_SIZE]) {
  model_names(&s->multi->model, names);
}

void sim_pair_zod_names(int contact_count, char names[3][ZENO_ZOD_NAME_SIZE]) {
  static const char *const ONE[3] = {"z1", "x1", "th"}, *const TWO[3] = {"z1", "z2", "x2"};
  for (int r = 0; r < 3; r++)
    snprintf(names[r], ZENO_ZOD_NAME_SIZE, "%s", contact_count == 1 ? ONE[r] : TWO[r]);
}

zeno_status zeno_scene_zod_names(const zeno_scene *scene, char names[3][ZENO_ZOD_NAME_SIZE],
                                 zeno_error *error) {
  if (scene == NULL || names == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and names are required");
  if (scene->contact_count <= ZENO_PAIR_CONTACTS) {
    sim_pair_zod_names(scene->contact_count, names);
    return ZENO_OK;
  }
  simn_model m;
  const zeno_status st = simn_model_of_scene(scene, &m, error);
  if (st == ZENO_OK) model_names(&m, names);
  return st;
}

/* ---- states ---------------------------------------------------------------- */

static zeno_mode mode_of(const unsigned char *letters) {
  zeno_mode m;
  memset(&m, 0, sizeof m);
  memcpy(m.letter, letters, SIMN_MAX_CONTACTS);
  return m;
}

// The reported q' and its rate at the engine's (q', q''): the engine's own
// under the ZOD; in the full model the exact coordinates that q''s rows
// name (a contact coordinate from its nominal value; theta) over eps^2 and
// eps (sim_contact.c's), whose closed gaps are zero.
static void reported_zod(const sim_multi *mu, const double qp[3], const double qdp[3],
                         const double *c, const double *cd, double zod[3], double rate[3]) {
  const simn_model *m = &mu->model;
  if (!m->full) {
    memcpy(zod, qp, 3 * sizeof *zod);
    memcpy(rate, qdp, 3 * sizeof *rate);
    return;
  }
  double q[3], qd[3];
  simn_to_gen(m, qp, q);
  simn_to_gen(m, qdp, qd);
  for (int r = 0; r < 3; r++) {
    const int a = m->coord[r];
    const double offset = a >= 0 && a % 2 == 0 ? m->gap0[a / 2] : 0;
    zod[r] = (a >= 0 ? c[a] - offset : q[2]) / mu->len_scale;
    rate[r] = (a >= 0 ? cd[a] : qd[2]) / mu->vel_scale;
  }
}

// The public state at (t, q', q'') in the mode with these forces, in the
// scene's own units.
static void fill_state(const sim_multi *mu, double t, const double qp[3], const double qdp[3],
                       zeno_mode mode, const double *force, zeno_state *st) {
  const simn_model *m = &mu->model;
  memset(st, 0, sizeof *st);
  st->t = t;
  simn_to_gen(m, qp, st->q);
  simn_to_gen(m, qdp, st->qdot);
  double c[MAXV], cd[MAXV];
  simn_contacts(m, qp, qdp, c, cd);
  sim_state_contacts(st, m->n, c, cd, force);
  reported_zod(mu, qp, qdp, c, cd, st->zod, st->zod_rate);
  st->mode = mode;
  st->energy = kinematics_body_energy(m->dyn.inv_mass, m->dyn.h, st->q, st->qdot);
}

/// The kinetic energy at the rate q''.
static double kinetic(const simn_model *m, const double qdp[3]) {
  const double at_rest_pose[3] = {0, 0, 0};  // no potential: the kinetic part alone
  double qd[3];
  simn_to_gen(m, qdp, qd);
  return kinematics_body_energy(m->dyn.inv_mass, m->dyn.h, at_rest_pose, qd);
}

// A lean record (zeno_sim_run()'s loop, sim_set_lean_events): the time,
// the mode and q' with its rate, as the two-contact loop's lean events.
static void fill_lean(const sim_multi *mu, double t, const double qp[3], const double qdp[3],
                      zeno_mode mode, zeno_state *st) {
  memset(st, 0, sizeof *st);
  st->t = t;
  double c[MAXV], cd[MAXV];
  if (mu->model.full) simn_contacts(&mu->model, qp, qdp, c, cd);
  reported_zod(mu, qp, qdp, c, cd, st->zod, st->zod_rate);
  st->mode = mode;
}

/* ---- the kept segments ------------------------------------------------------ */

static bool push_segment(sim_multi *mu, const simn_event *ev) {
  if (mu->hist_len == mu->hist_cap) {
    const size_t cap = mu->hist_cap ? 2 * mu->hist_cap : MULTI_HISTORY_INITIAL;
    multi_segment *grown = realloc(mu->hist, cap * sizeof *grown);
    if (grown == NULL) return false;
    mu->hist = grown;
    mu->hist_cap = cap;
  }
  multi_segment *g = &mu->hist[mu->hist_len++];
  memset(g, 0, sizeof *g);
  g->t0 = ev->t;
  memcpy(g->qp0, ev->qp, sizeof g->qp0);
  memcpy(g->qdp0, ev->qdp, sizeof g->qdp0);
  memcpy(g->qddp, ev->qddp, sizeof g->qddp);
  g->mode = mode_of(ev->mode_after);
  memcpy(g->force, ev->force, sizeof g->force);
  return true;
}

// A ZENO event: the segment from the sequence's last impact to the limit
// becomes the straight stand-in for the impacts in between.
static void close_tail(sim_multi *mu, const simn_event *ev) {
  if (mu->hist_len == 0) return;
  multi_segment *g = &mu->hist[mu->hist_len - 1];
  const double span = ev->t - g->t0;
  g->zeno_tail = true;
  for (int k = 0; k < 3; k++) {
    g->qddp[k] = span > 0 ? (ev->qp_before[k] - g->qp0[k]) / span : 0;
    g->qdp0[k] = g->qddp[k];
  }
}

/* ---- events ------------------------------------------------------------------ */

static void to_event(const zeno_sim *s, const simn_event *in, zeno_event *ev) {
  const sim_multi *mu = s->multi;
  const int n = mu->model.n;
  memset(ev, 0, sizeof *ev);
  ev->index = in->index;
  ev->kind = in->kind;
  ev->guard = in->guard;
  ev->contact = in->contact;
  ev->t = in->t;
  ev->mode_before = mode_of(in->mode_before);
  ev->mode_after = mode_of(in->mode_after);
  ev->impact_mask = in->impact_mask;
  for (int i = 0; i < n; i++) {
    ev->impulse[i][0] = in->impulse[2 * i];
    ev->impulse[i][1] = in->impulse[2 * i + 1];
    ev->impact_letter[i] = in->impact_letter[i];
  }
  // The forces before the event are those of the segment it ends.
  const double *before_force = mu->hist_len > 0 ? mu->hist[mu->hist_len - 1].force : in->force;
  if (s->lean_events) {
    fill_lean(mu, in->t, in->qp_before, in->qdp_before, ev->mode_before, &ev->before);
    fill_lean(mu, in->t, in->qp, in->qdp, ev->mode_after, &ev->after);
  } else {
    fill_state(mu, in->t, in->qp_before, in->qdp_before, ev->mode_before, before_force,
               &ev->before);
    fill_state(mu, in->t, in->qp, in->qdp, ev->mode_after, in->force, &ev->after);
  }
  if (in->kind == ZENO_EVENT_IMPACT)
    ev->energy_gain = fmax(kinetic(&mu->model, in->qdp) - kinetic(&mu->model, in->qdp_before), 0);
  // Not measured by the N-contact engine: null in JSON, never a number
  // that would claim a check (sim.h).
  ev->tie_margin = NAN;
  ev->constraint_drift = in->constraint_drift;
  ev->guard_residual = in->guard_residual;  // NaN where no guard was located
  ev->zeno_impacts = in->zeno_impacts;
  ev->zeno_ratio = in->zeno_ratio;
  ev->zeno_period = in->zeno_period;
  ev->zeno_order = in->kind == ZENO_EVENT_ZENO ? in->zeno_order : 0;
  ev->outcome = in->outcome;
  if (in->outcome == ZENO_OUTCOME_SOLVER_FAILURE)
    snprintf(ev->solver_flag, sizeof ev->solver_flag, "%.47s", in->failure);
  if (in->outcome == ZENO_OUTCOME_AMBIGUOUS) {
    const int listed = in->consistent_count < ZENO_MAX_MODES ? in->consistent_count
                                                             : ZENO_MAX_MODES;
    // The first ZENO_MAX_MODES in preference order: the record's list (a
    // count beyond it would send readers past the array).
    ev->consistent_count = (size_t)listed;
    for (int k = 0; k < listed; k++) ev->consistent[k] = mode_of(in->consistent[k]);
  }
}

// The full model's steps of the segment an event ends, kept with it.
static bool keep_nodes(sim_multi *mu) {
  const cvode_node *nodes;
  const size_t count = simn_segment_nodes(mu->run, &nodes);
  if (count < 2 || mu->hist_len == 0) return true;
  const size_t first = mu->node_len;
  if (!cvode_nodes_append(&mu->nodes, &mu->node_len, &mu->node_cap, nodes, count, 0)) return false;
  multi_segment *g = &mu->hist[mu->hist_len - 1];
  g->node_first = first;
  g->node_count = count;
  return true;
}

// What the run's record keeps of an event: counts, the first completion,
// the end, the segments.
static bool record(zeno_sim *s, const simn_event *in) {
  sim_multi *mu = s->multi;
  sim_run *r = &s->run;
  if (!keep_nodes(mu)) return false;
  r->started = true;
  r->t = in->t;
  r->event_count = in->index + 1;
  if (in->kind == ZENO_EVENT_IMPACT) r->impact_count++;
  if (in->kind == ZENO_EVENT_ZENO) {
    if (!r->has_zeno) {
      r->has_zeno = true;
      r->first_zeno_time = in->t;
      r->first_zeno_impacts = in->zeno_impacts;
    }
    close_tail(mu, in);
  }
  if (in->kind == ZENO_EVENT_END) {
    r->finished = true;
    r->outcome = in->outcome;
  }
  return push_segment(mu, in);
}

zeno_status sim_multi_next_event(zeno_sim *s, zeno_event *ev, zeno_error *error) {
  sim_multi *mu = s->multi;
  if (!s->def.keep_history && mu->hist_len > 1) {
    // Only the segment since the previous event is kept (sim.c's trim).
    mu->hist[0] = mu->hist[mu->hist_len - 1];
    mu->hist_len = 1;
    mu->node_len = 0;  // the open segment has none yet
  }
  if (!s->run.started) s->run.wall_start = clock_seconds();
  else if (s->scene.wall_time > 0 && clock_seconds() - s->run.wall_start >= s->scene.wall_time)
    simn_stop(mu->run, ZENO_OUTCOME_WALL_LIMIT);
  simn_event in;
  const zeno_status st = simn_next_event(mu->run, &in, error);
  if (st != ZENO_OK) return st;
  // The event record first: its state before reads the segment it ends.
  to_event(s, &in, ev);
  if (!record(s, &in)) {
    s->word_failed = true;  // the run cannot go on (zeno_sim_next_event reports it)
    return ZENO_ERR_NOMEM;
  }
  if (ev->kind == ZENO_EVENT_IMPACT) {
    const double gain = ev->energy_gain, kin = kinetic(&mu->model, in.qdp_before);
    if (gain > 0) {
      s->run.energy_gains++;
      s->run.energy_gain_max = fmax(s->run.energy_gain_max, kin > 0 ? gain / kin : 0);
    }
  }
  return ZENO_OK;
}

/* ---- queries ------------------------------------------------------------------ */

zeno_status sim_multi_state_at(const zeno_sim *s, double t, zeno_state *st, zeno_error *error) {
  const sim_multi *mu = s->multi;
  if (mu->hist_len == 0 || t < mu->hist[0].t0 || t > s->run.t)
    return zeno_fail(error, ZENO_ERR_RANGE, "t",
                     "time %g outside the simulated (and kept) part of the run",
                     scene_units_to_user(s->units, SCENE_DIM_TIME, t));
  size_t lo = 0, hi = mu->hist_len - 1;  // the last segment starting at or before t
  while (lo < hi) {
    const size_t mid = (lo + hi + 1) / 2;
    if (mu->hist[mid].t0 <= t) lo = mid;
    else hi = mid - 1;
  }
  const multi_segment *g = &mu->hist[lo];
  const double tau = t - g->t0;
  double qp[3], qdp[3];
  if (!g->zeno_tail && g->node_count > 1) {  // the full model's flow
    double q[3], qd[3];
    cvode_nodes_sample(mu->nodes + g->node_first, g->node_count, t, q, qd);
    simn_of_gen(&mu->model, q, qp);
    simn_of_gen(&mu->model, qd, qdp);
    fill_state(mu, t, qp, qdp, g->mode, g->force, st);
    return ZENO_OK;
  }
  for (int k = 0; k < 3; k++) {
    if (g->zeno_tail) {
      qp[k] = g->qp0[k] + g->qddp[k] * tau;
      qdp[k] = g->qdp0[k];
    } else {
      qp[k] = g->qp0[k] + (g->qdp0[k] + 0.5 * g->qddp[k] * tau) * tau;
      qdp[k] = g->qdp0[k] + g->qddp[k] * tau;
    }
  }
  fill_state(mu, t, qp, qdp, g->mode, g->force, st);
  return ZENO_OK;
}

void sim_multi_final_state(const zeno_sim *s, zeno_state *st) {
  const sim_multi *mu = s->multi;
  if (mu->hist_len == 0) {  // not started: the initial state, no mode yet
    const zeno_mode none = {{0}};
    const double zero[MAXV] = {0};
    double qp[3], qdp[3];
    simn_run_state(mu->run, qp, qdp);
    fill_state(mu, 0.0, qp, qdp, none, zero, st);  // runs start at t = 0
    return;
  }
  const multi_segment *g = &mu->hist[mu->hist_len - 1];
  fill_state(mu, g->t0, g->qp0, g->qdp0, g->mode, g->force, st);
}

const char *sim_multi_word(const zeno_sim *s) { return simn_word(s->multi->run); }

/* ---- life cycle ------------------------------------------------------------------ */

// The run from the scene's initial state: q' as given (the engine's
// q' = A q, simn.h), or the pose and its velocity; refused when it
// penetrates a surface.
static zeno_status start_run(zeno_sim *s, zeno_error *e) {
  sim_multi *mu = s->multi;
  const zeno_scene *sc = &s->scene;
  simn *run = NULL;
  zeno_status st;
  if (sc->initial_kind == ZENO_INITIAL_ZOD && mu->model.full) {
    // Positions eps^2 q'(0), velocities eps q'dot(0) (invariance (24)), as
    // exact coordinates.
    double qp[3], qdp[3], q[3], qd[3];
    for (int k = 0; k < 3; k++) {
      qp[k] = mu->len_scale * sc->initial_qp[k];
      qdp[k] = mu->vel_scale * sc->initial_qdp[k];
    }
    st = simn_full_pose(&mu->model, qp, qdp, q, qd, e);
    if (st == ZENO_OK) st = simn_create(&mu->model, &mu->def, q, qd, &run, e);
  } else if (sc->initial_kind == ZENO_INITIAL_ZOD) {
    st = simn_create_prime(&mu->model, &mu->def, sc->initial_qp, sc->initial_qdp, &run, e);
  } else {
    st = simn_create(&mu->model, &mu->def, sc->initial_pose, sc->initial_velocity, &run, e);
  }
  if (st != ZENO_OK) return st;
  double qp[3], qdp[3], c[MAXV], cd[MAXV], scale = 0;
  simn_run_state(run, qp, qdp);
  simn_contacts(&mu->model, qp, qdp, c, cd);
  for (int a = 0; a < 2 * mu->model.n; a++) scale = fmax(scale, fabs(c[a]));
  for (int i = 0; i < mu->model.n; i++)
    if (c[2 * i] < -ZERO_TOL_START_GAP_RTOL * scale) {
      simn_destroy(run);
      return zeno_fail(e, ZENO_ERR_RANGE, "initial",
                       "initial state penetrates the surface at contact %d: gap %g "
                       "(need gap >= 0)",
                       i + 1, scene_units_to_user(s->units, SCENE_DIM_LENGTH, c[2 * i]));
    }
  simn_destroy(mu->run);
  mu->run = run;
  mu->hist_len = 0;
  mu->node_len = 0;
  memset(&s->run, 0, sizeof s->run);
  return ZENO_OK;
}

zeno_status sim_multi_init(zeno_sim *s, zeno_error *e) {
  s->multi = calloc(1, sizeof *s->multi);
  if (s->multi == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
  sim_multi *mu = s->multi;
  zeno_status st = simn_model_of_scene(&s->scene, &mu->model, e);
  if (st != ZENO_OK) return st;
  mu->def = simn_def_of_scene(&s->scene);
  mu->def.velocity_rtol = s->def.velocity_rtol;
  mu->def.force_rtol = s->def.force_rtol;
  mu->def.time_rtol = s->def.time_rtol;
  mu->def.full_ratio_rtol = s->def.full_ratio_rtol;
  mu->def.diverge_rtol = s->def.diverge_rtol;
  const bool full = s->scene.model == ZENO_MODEL_FULL;
  mu->model.full = full;
  const bool scaled = full && s->scene.initial_kind == ZENO_INITIAL_ZOD;
  mu->len_scale = scaled ? s->scene.epsilon * s->scene.epsilon : 1.0;
  mu->vel_scale = scaled ? s->scene.epsilon : 1.0;
  // The escape radius on the run's scale (sim.c's: the scene's, or sizes
  // of the body, times eps^2).
  const double radius = s->scene.escape_radius > 0
                            ? s->scene.escape_radius
                            : ZENO_ESCAPE_RADIUS_SCALES * mu->model.length_scale;
  mu->def.escape_radius = radius * mu->len_scale;
  return start_run(s, e);
}

zeno_status sim_multi_restart(zeno_sim *s, const double qp[3], const double qdp[3], zeno_error *e) {
  zeno_scene saved = s->scene;
  s->scene.initial_kind = ZENO_INITIAL_ZOD;
  memcpy(s->scene.initial_qp, qp, sizeof s->scene.initial_qp);
  memcpy(s->scene.initial_qdp, qdp, sizeof s->scene.initial_qdp);
  const zeno_status st = start_run(s, e);
  if (st != ZENO_OK) s->scene = saved;  // the simulator unchanged
  return st;
}

void sim_multi_destroy(sim_multi *mu) {
  if (mu == NULL) return;
  simn_destroy(mu->run);
  free(mu->hist);
  free(mu->nodes);
  free(mu);
}
