// The full nonlinear model inside the hybrid loop: initial state from the
// epsilon-scaled ZOD coordinates, projection onto the exact contact
// constraints, the CVODE flow between events and its dense output.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/flow_cvode.h"
#include "sim/sim_internal.h"

/// Newton iterations for the position projection and the initial pose: the
/// constraints are smooth and the start is within O(eps^2) of the
/// solution, so two or three iterations reach rounding.
#define FULL_NEWTON_ITERATIONS 8
/// Relative residual at which Newton stops [of the length scale].
#define FULL_NEWTON_RTOL 1e-15
/// Relative residual the initial pose must reach: a regular map gets to
/// rounding in two or three iterations; a nearly singular one stalls far
/// above (4 times the target itself at phi1 = 90 - 1e-7 deg in Example 2).
#define FULL_START_RTOL 1e-9

void sim_jacobian(const zeno_sim *s, const double q[3], double W[3][4]) {
  if (!sim_is_full(s)) {
    memcpy(W, s->km.W0, sizeof(double) * 12);
    return;
  }
  double bias[4];
  const double zero[3] = {0, 0, 0};
  kinematics_full_jacobian(&s->km, q, zero, W, bias);
}

// Rows of the coordinates that make up q': (z1, z2, x2) or (z1, x1, theta).
static void zod_rows(const zeno_sim *s, const double q[3], const double qd[3], double J[9],
                     double value[3], double rate[3]) {
  double W[3][4], c[4], cd[4];
  sim_jacobian(s, q, W);
  kinematics_full_contacts(&s->km, q, qd, c, cd);
  const int col[3] = {0, s->km.n == 2 ? 2 : 1, s->km.n == 2 ? 3 : -1};
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) J[r * 3 + k] = col[r] >= 0 ? W[k][col[r]] : (k == 2 ? 1.0 : 0.0);
    value[r] = col[r] >= 0 ? c[col[r]] : q[2];
    rate[r] = col[r] >= 0 ? cd[col[r]] : qd[2];
  }
}

bool sim_full_initial_state(zeno_sim *s) {
  const zeno_scene *sc = &s->scene;
  if (sc->initial_kind == ZENO_INITIAL_POSE) {
    memcpy(s->run.q, sc->initial_pose, sizeof s->run.q);
    memcpy(s->run.qd, sc->initial_velocity, sizeof s->run.qd);
    return true;
  }
  // Positions eps^2 q'(0), velocities eps q'dot(0) (invariance (24)).
  double target[3], vtarget[3];
  for (int k = 0; k < 3; k++) {
    target[k] = s->len_scale * sc->initial_qp[k];
    vtarget[k] = s->vel_scale * sc->initial_qdp[k];
  }
  kinematics_zod_to_gen(&s->km, target, s->run.q);  // the linear guess
  double scale = 0;
  for (int k = 0; k < 3; k++) scale = fmax(scale, fabs(target[k]));
  bool converged = false;
  for (int it = 0; it <= FULL_NEWTON_ITERATIONS && !converged; it++) {
    double J[9], val[3], rate[3], r[3];
    const double zero[3] = {0, 0, 0};
    zod_rows(s, s->run.q, zero, J, val, rate);
    double err = 0;
    for (int k = 0; k < 3; k++) {
      r[k] = target[k] - val[k];
      err = fmax(err, fabs(r[k]));
    }
    converged = err <= FULL_START_RTOL * scale;
    if (err <= FULL_NEWTON_RTOL * scale || it == FULL_NEWTON_ITERATIONS) break;
    if (!zeno_linsolve(3, J, r, ZENO_PIVOT_RTOL)) return false;
    for (int k = 0; k < 3; k++) s->run.q[k] += r[k];
  }
  // A nearly singular map (contact 1's normal line nearly through contact
  // 2) does not reach the target q': the start would be another state.
  if (!converged) return false;
  double J[9], val[3], rate[3];
  const double zero[3] = {0, 0, 0};
  zod_rows(s, s->run.q, zero, J, val, rate);
  memcpy(s->run.qd, vtarget, sizeof s->run.qd);
  return zeno_linsolve(3, J, s->run.qd, ZENO_PIVOT_RTOL);
}

void sim_full_zero_gaps(zeno_sim *s, const bool closed[2]) {
  int cols[2], m = 0;
  for (int i = 0; i < s->km.n; i++)
    if (closed[i]) cols[m++] = 2 * i;
  if (m == 0) return;
  for (int it = 0; it < FULL_NEWTON_ITERATIONS; it++) {
    double c[4], cd[4], W[3][4], r[2];
    const double zero[3] = {0, 0, 0};
    kinematics_full_contacts(&s->km, s->run.q, zero, c, cd);
    double err = 0;
    for (int a = 0; a < m; a++) {
      r[a] = -c[cols[a]];
      err = fmax(err, fabs(r[a]));
    }
    if (err == 0 || err <= FULL_NEWTON_RTOL * s->len_scale) break;
    sim_jacobian(s, s->run.q, W);
    if (!contact_correct(W, s->km.inv_mass, cols, m, r, s->run.q)) return;
  }
}

void sim_full_refresh_dyn(zeno_sim *s) {
  double W[3][4], bias[4];
  kinematics_full_jacobian(&s->km, s->run.q, s->run.qd, W, bias);
  contact_dyn_build(&s->dyn, s->km.n, W, s->km.inv_mass, s->km.h, bias, s->km.mu);
}

static zeno_status push_nodes(zeno_sim *s, double t0, const cvode_result *r, size_t *first) {
  *first = s->run.node_len;
  return cvode_nodes_append(&s->nodes, &s->run.node_len, &s->node_cap, r->nodes,
                            (size_t)r->node_count, t0)
             ? ZENO_OK
             : ZENO_ERR_NOMEM;
}

zeno_status sim_full_flow(zeno_sim *s, zeno_event *ev, double *vscale, flow_crossing *first,
                          sim_hits *hits) {
  cvode_scales sc;
  double c[4], cd[4];
  kinematics_full_contacts(&s->km, s->run.q, s->run.qd, c, cd);
  double v = 0, z = 0;
  for (int a = 0; a < 2 * s->km.n; a++) v = fmax(v, fabs(cd[a]));
  for (int i = 0; i < s->km.n; i++) z = fmax(z, fabs(c[2 * i]));
  // Scales of this segment: speeds, and lengths as gaps or what the load
  // makes of the speeds; both shrink with the perturbation (24).
  sc.speed = fmax(v, s->run.vscale);
  sc.length = fmax(z, sc.speed * sc.speed / s->km.accel_scale);
  sc.force = s->km.force_scale;
  const double tau_max = fmax(s->scene.t_end - s->run.t, 0);
  // A free contact found at a negative gap while approaching (rounding of
  // a long chatter) impacts at once: CVODE cannot find a crossing that has
  // already happened. Approaching means a gap rate below the velocity
  // tolerance, or a zero rate (to that tolerance) with the mode pulling the
  // contact in. A contact that just lifted off (rate zero to rounding,
  // acceleration outward) at a gap of -1e-16 from the rounding of the
  // projection is not approaching: taking it for an impact repeated the
  // same zero-time tangent touch forever.
  const double tol_v = sim_make_tol(s, s->run.vscale).v;
  for (int i = 0; i < s->km.n; i++)
    if (s->run.sol.mode.letter[i] == ZENO_LETTER_F && c[2 * i] < 0 &&
        (cd[2 * i] < -tol_v || (cd[2 * i] <= tol_v && s->run.sol.acc[2 * i] < 0))) {
      hits->gap[i] = true;
      first->guard = ZENO_GUARD_GAP;
      first->contact = i;
      first->tau = 0;
      *vscale = sc.speed;
      ev->guard_residual = fabs(c[2 * i]) / sc.length;
      return ZENO_OK;
    }
  cvode_result r;
  const int flag = cvode_advance(s->cv, s->run.sol.mode, s->run.q, s->run.qd, tau_max,
                                 s->scene.escape_radius * s->len_scale, &sc, &r);
  const double t0 = s->run.t;
  if (r.node_count > 1 && flag >= 0) {
    size_t firstn;
    if (push_nodes(s, t0, &r, &firstn) != ZENO_OK) return ZENO_ERR_NOMEM;
    segment g = {.t0 = t0,
                 .t1 = t0 + r.tau,
                 .mode = s->run.sol.mode,
                 .full = true,
                 .node_first = firstn,
                 .node_count = (size_t)r.node_count};
    memcpy(g.force, s->run.sol.force, sizeof g.force);
    zeno_status st = sim_hist_push(s, &g);
    if (st != ZENO_OK) return st;
  }
  if (flag < 0) {
    ev->guard_residual = 0;
    snprintf(s->run.failure, sizeof s->run.failure, "%s", r.flag_name);
    return ZENO_DONE;  // the caller ends the run with solver-failure
  }
  s->run.t = t0 + r.tau;
  kinematics_full_contacts(&s->km, s->run.q, s->run.qd, c, cd);
  double v1 = 0;
  for (int a = 0; a < 2 * s->km.n; a++) v1 = fmax(v1, fabs(cd[a]));
  *vscale = fmax(fmax(sc.speed, v1), s->km.accel_scale * r.tau);
  ev->guard_residual = r.residual;
  first->guard = r.crossing_count ? r.crossings[0].guard : ZENO_GUARD_TIME;
  first->contact = r.crossing_count ? r.crossings[0].contact : -1;
  first->tau = r.tau;
  for (int k = 0; k < r.crossing_count; k++) {
    const int i = r.crossings[k].contact;
    switch (r.crossings[k].guard) {
      case ZENO_GUARD_GAP: hits->gap[i] = true; break;
      case ZENO_GUARD_SLIP_VELOCITY: hits->slip[i] = true; break;
      case ZENO_GUARD_NORMAL_FORCE: hits->lift[i] = true; break;
      case ZENO_GUARD_FRICTION_MARGIN: hits->margin[i] = true; break;
      case ZENO_GUARD_ESCAPE: first->guard = ZENO_GUARD_ESCAPE; break;
      default: break;
    }
  }
  return ZENO_OK;
}

void sim_full_sample(const zeno_sim *s, const segment *g, double t, double q[3], double qd[3]) {
  cvode_nodes_sample(s->nodes + g->node_first, g->node_count, t, q, qd);
}
