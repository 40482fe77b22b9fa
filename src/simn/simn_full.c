// The full model in the N-contact engine (issue 34, slice 6; docs/model.md,
// "The full model" and "Any number of contacts: the plan"): the planar rigid
// body itself on N contacts. Contact points move with the pose, gaps and
// slips are the exact coordinates of the vertices relative to their straight
// surfaces (kinematics_contact_full), and a mode's accelerations come from
// the same letters' equations as under the ZOD (mode_n_letter_rows) with W,
// the Delassus matrix and the centripetal terms at the current state. The
// engine's loop (simn.c) is the ZOD's: its events, classes, mode choice
// (mode_n.h, now at the state), impacts (impact_n.h at the state) and Zeno
// rules; what differs is here: each segment integrated by CVODE to its first
// guard (flow_cvode.h's cvode_integrate, one root function per guard). The
// geometry at a state (W, the start, the Newton projections onto the
// closed contacts) is simn_full_pose.c's.
//
// Redundant contacts (three corners on a line, a box in a corner) leave a
// pattern's forces a family: its accelerations are unique, its forces are
// not. The segment follows the member nearest to the one mode selection
// chose (its max-margin forces), so the forces move continuously; when a
// force guard of such a pattern fires, mode selection at that state decides:
// if the pattern is still consistent, its new max-margin member is taken and
// the segment goes on without an event (`full.refreshes`), else the event is
// the lift-off or slip onset it is for two contacts.
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/friction_cone.h"
#include "simn/simn_run.h"

/// A row of a redundant pattern's equations whose part independent of the
/// rows before it is below this fraction of its length is a combination of
/// them (redundant contacts repeat a row exactly, up to rounding ~1e-16).
#define SIMN_FULL_DEPENDENT_RTOL 1e-10
/// A gap guard starting at zero starts this fraction of the segment's
/// length above it, and one starting below the surface, or above it by
/// less than this many ulps of the pose, that many ulps below its start
/// (flow_cvode.c's CVODE_GAP_START_MARGIN and CVODE_GAP_NOISE_ULPS, with
/// their reasons; its crossing is then taken back to its start,
/// rewind_to_level).
#define SIMN_FULL_GAP_START_MARGIN 1e-12
#define SIMN_FULL_GAP_NOISE_ULPS 64
/// A crossing is taken back by at most this fraction of the segment's last
/// step: the step's node, moved with it, stays after the one before it.
#define SIMN_FULL_REWIND_STEP_FRACTION 0.5
/// A redundant pattern's forces may move to another member this many times
/// within one segment before the next guard is an event (each move takes a
/// member strictly inside the pattern's conditions, so few are met).
#define SIMN_FULL_MAX_REFRESHES 64
/* ---------- a mode's forces and accelerations at a state ---------- */

// u nearest u0 with A u = r (A k x k, row-major): the rows made orthonormal
// one by one (modified Gram-Schmidt, a row dependent on those before it
// dropped: redundant contacts), then u = u0 + sum_j beta_j q_j, where the
// beta_j meet the kept rows. The correction is the least change of the
// forces, so a family's member moves continuously with the state.
static void nearest_solution(int k, const double *A, const double *r, const double *u0, double *u) {
  double Q[2 * MAXV][2 * MAXV], beta[2 * MAXV];
  int kept = 0;
  for (int i = 0; i < k; i++) {
    double v[2 * MAXV], res = r[i], norm0 = 0;
    for (int c = 0; c < k; c++) {
      v[c] = A[i * k + c];
      res -= v[c] * u0[c];
      norm0 += v[c] * v[c];
    }
    for (int j = 0; j < kept; j++) {
      double dot = 0;
      for (int c = 0; c < k; c++) dot += v[c] * Q[j][c];
      for (int c = 0; c < k; c++) v[c] -= dot * Q[j][c];
      res -= dot * beta[j];
    }
    double norm = 0;
    for (int c = 0; c < k; c++) norm += v[c] * v[c];
    if (!(norm > SIMN_FULL_DEPENDENT_RTOL * SIMN_FULL_DEPENDENT_RTOL * norm0)) continue;
    norm = sqrt(norm);
    for (int c = 0; c < k; c++) Q[kept][c] = v[c] / norm;
    beta[kept++] = res / norm;
  }
  for (int c = 0; c < k; c++) {
    u[c] = u0[c];
    for (int j = 0; j < kept; j++) u[c] += beta[j] * Q[j][c];
  }
}

// The contacts' accelerations without contact forces: the load's and the
// centripetal terms.
static void free_accel(const mode_n_dyn *d, double *afree) {
  for (int a = 0; a < 2 * d->n; a++) {
    afree[a] = d->bias[a];
    for (int k = 0; k < 3; k++) afree[a] += d->W[k][a] * d->inv_mass[k] * d->h[k];
  }
}

// The mode's contact forces x and accelerations qdd at (q, qd): its letters'
// equations at the state, solved, or (redundant contacts) the solution
// nearest the segment's forces. Returns false for no finite solution.
static bool mode_at(const simn *s, const double q[3], const double qd[3], double *x,
                    double qdd[3]) {
  const int n = s->m.n;
  mode_n_dyn d;
  simn_full_dyn_at(&s->m, q, qd, &d);
  impact_n_dyn imp;
  impact_n_dyn_build(&d, &imp);
  double afree[MAXV];
  free_accel(&d, afree);
  if (!mode_n_letter_solve(n, &imp.D[0][0], afree, d.mu, s->sol.letter, x)) {
    int col[MAXV];
    double A[MAXV * MAXV], r[MAXV], u0[MAXV], u[MAXV];
    const int k = mode_n_letter_rows(n, &imp.D[0][0], afree, d.mu, s->sol.letter, col, A, r);
    for (int c = 0; c < k; c++) u0[c] = s->sol.force[col[c]];
    nearest_solution(k, A, r, u0, u);
    memset(x, 0, sizeof(double) * (size_t)(2 * n));
    for (int c = 0; c < k; c++) x[col[c]] = u[c];
  }
  for (int k = 0; k < 3; k++) {
    double g = d.h[k];
    for (int b = 0; b < 2 * n; b++) g += d.W[k][b] * x[b];
    qdd[k] = d.inv_mass[k] * g;
    if (!isfinite(qdd[k])) return false;
  }
  return true;
}

static bool accel_at(void *user, const double q[3], const double qd[3], double qdd[3]) {
  double x[MAXV];
  return mode_at(user, q, qd, x, qdd);
}

static bool guards_at(void *user, const double q[3], const double qd[3], double *g) {
  const simn *s = user;
  const simn_full_run *f = &s->full;
  double x[MAXV], qdd[3], c[MAXV], cd[MAXV];
  const bool ok = mode_at(s, q, qd, x, qdd);
  for (int i = 0; i < s->m.n; i++)
    kinematics_contact_full(s->m.p[i], s->m.sp[i], s->m.nrm[i], s->m.tan[i], q, qd, c + 2 * i,
                            cd + 2 * i);
  for (int k = 0; k < f->guard_count; k++) {
    const simn_guard *gd = &f->guards[k];
    const int i = gd->contact;
    switch (gd->kind) {
      case ZENO_GUARD_GAP: g[k] = (c[2 * i] - gd->offset) / f->sc.length; break;
      case ZENO_GUARD_NORMAL_FORCE: g[k] = x[2 * i] / f->sc.force; break;
      case ZENO_GUARD_SLIP_VELOCITY: g[k] = cd[2 * i + 1] / f->sc.speed; break;
      case ZENO_GUARD_FRICTION_MARGIN:
        g[k] = friction_cone_edge(s->m.dyn.mu[i], x[2 * i], x[2 * i + 1], gd->sign) / f->sc.force;
        break;
      default:  // ESCAPE
        g[k] = (c[gd->coordinate] - gd->offset - gd->sign * s->escape_radius) / f->sc.length;
    }
  }
  return ok;
}

// The wobble of a gap at pose q: SIMN_FULL_GAP_NOISE_ULPS ulps of the
// pose's coordinates, of which the gap is a difference.
static double gap_wobble(const simn *s, const double q[3]) {
  return SIMN_FULL_GAP_NOISE_ULPS * DBL_EPSILON *
         (fabs(q[0]) + fabs(q[1]) + fabs(q[2]) * s->m.length_scale);
}

static void add_guard(simn_full_run *f, zeno_guard kind, int contact, int coordinate, int sign,
                      double offset, int dir) {
  f->guards[f->guard_count] = (simn_guard){
      .kind = kind, .contact = contact, .coordinate = coordinate, .sign = sign, .offset = offset};
  f->dirs[f->guard_count++] = dir;
}

// The guards that can fire in the mode (flow_cvode.c's build_guards, N
// wide): a free contact's gap (falling), a closed contact's normal force
// (falling), a slipping one's slip rate (towards zero), a sticking one's two
// friction margins (falling), and the escapes of every contact coordinate.
// A gap within the wobble of its rounding from its surface (or below it)
// is measured from that wobble below where it starts, so that the rounding
// does not fire it at once; the state at its crossing is then taken back to
// where it started (rewind_to_level), so that the margin adds no energy.
static void build_guards(simn *s, const double q[3], const double *c) {
  simn_full_run *f = &s->full;
  f->guard_count = 0;
  const double wobble = gap_wobble(s, q);
  for (int i = 0; i < s->m.n; i++) {
    const int l = s->sol.letter[i];
    if (l == ZENO_LETTER_F) {
      double margin = SIMN_FULL_GAP_START_MARGIN * f->sc.length;
      if (c[2 * i] < wobble) margin = fmax(margin, wobble);
      add_guard(f, ZENO_GUARD_GAP, i, 2 * i, 0, fmin(c[2 * i] - margin, 0.0), -1);
      f->guards[f->guard_count - 1].level = c[2 * i] < wobble ? c[2 * i] : 0;
      continue;
    }
    add_guard(f, ZENO_GUARD_NORMAL_FORCE, i, 2 * i, 0, 0, -1);
    if (l == ZENO_LETTER_S) {
      add_guard(f, ZENO_GUARD_FRICTION_MARGIN, i, 2 * i + 1, +1, 0, -1);
      add_guard(f, ZENO_GUARD_FRICTION_MARGIN, i, 2 * i + 1, -1, 0, -1);
    } else {
      add_guard(f, ZENO_GUARD_SLIP_VELOCITY, i, 2 * i + 1, 0, 0, l == ZENO_LETTER_P ? -1 : +1);
    }
  }
  for (int a = 0; a < 2 * s->m.n; a++) {
    add_guard(f, ZENO_GUARD_ESCAPE, a / 2, a, +1, simn_offset(s, a), +1);
    add_guard(f, ZENO_GUARD_ESCAPE, a / 2, a, -1, simn_offset(s, a), -1);
  }
}

// A redundant pattern whose force guard fired: whether mode selection at
// this state still finds the pattern consistent; then its new member is
// taken (true), and the segment goes on.
static zeno_status refresh_member(simn *s, bool *refreshed, zeno_error *e) {
  *refreshed = false;
  if (s->full.refreshes >= SIMN_FULL_MAX_REFRESHES) return ZENO_OK;
  const int n = s->m.n;
  double x[MAXV];
  simn_full_refresh(s);
  double afree[MAXV];
  free_accel(&s->full.dyn, afree);
  if (mode_n_letter_solve(n, &s->full.imp.D[0][0], afree, s->full.dyn.mu, s->sol.letter, x))
    return ZENO_OK;  // its forces are fixed: the guard is the event
  const zero_tol tol = simn_make_tol(s, s->vscale);
  mode_n_class cls;
  bool touching[MAXC];
  for (int i = 0; i < n; i++) touching[i] = s->sol.letter[i] != ZENO_LETTER_F;
  simn_classify(s, touching, tol.v, &cls);
  for (int i = 0; i < n; i++)
    if (touching[i]) cls.gap[i] = MODE_GAP_CLOSED;
  mode_n_solution *all = malloc(sizeof *all * SIMN_LISTED_MODES);
  if (all == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for a mode choice");
  int count = 0;
  mode_tol mt = tol.mode;
  const zeno_status st = mode_n_enumerate(s->dyn, &cls, &mt, all, SIMN_LISTED_MODES, &count, e);
  for (int k = 0; st == ZENO_OK && k < count && k < SIMN_LISTED_MODES && !*refreshed; k++)
    if (memcmp(all[k].letter, s->sol.letter, (size_t)n) == 0) {
      memcpy(s->sol.force, all[k].force, sizeof s->sol.force);
      s->full.refreshes++;
      *refreshed = true;
    }
  free(all);
  return simn_solver_failure(s, st, e);
}

// The largest value of the guards that fired, at the located state (in
// their scales: cvode_advance's residual); NaN when none fired.
static double located_residual(simn *s, const double q[3], const double qd[3], const int *found) {
  double g[SIMN_MAX_GUARDS], residual = NAN;
  guards_at(s, q, qd, g);
  for (int k = 0; k < s->full.guard_count; k++)
    if (found[k]) residual = isnan(residual) ? fabs(g[k]) : fmax(residual, fabs(g[k]));
  return residual;
}

// The segment's accepted steps appended to the run's, in run time.
static bool keep_nodes(simn *s, const cvode_result *r) {
  simn_full_run *f = &s->full;
  return cvode_nodes_append(&f->nodes, &f->node_count, &f->node_cap, r->nodes,
                            (size_t)r->node_count, s->t);
}

size_t simn_segment_nodes(const simn *s, const cvode_node **nodes) {
  *nodes = s->full.nodes;
  return s->full.node_count;
}

// Scales of a segment: speeds, and a length from the free contact whose
// motion is finest, its distance to its surface or what the load makes of
// its normal rate (a bounce's height); with no free contact, what the load
// makes of the speeds. Not sim_full_flow's largest gap and speed: with N
// contacts a free one may hover far above its surface, or another slide
// fast, while a third chatters (the box in a corner: a floor corner
// 4e-5 eps^2 up, the wall struck at 1e-9 eps; the polygon's third corner
// sliding at 0.1 eps under its face's chatter). Positions to rtol of that
// scale left the bounces below the integrator's error, whose drift fired
// the gap guards and fed the bounces (issue 34's stall). At least the
// velocity zero's and the gap's wobble (no finer than the pose's rounding).
static cvode_scales segment_scales(const simn *s, const double q[3], const double *c,
                                   const double *cd) {
  double v = 0, z = INFINITY;
  for (int a = 0; a < 2 * s->m.n; a++) v = fmax(v, fabs(cd[a]));
  const double a = s->m.accel_scale;
  for (int i = 0; i < s->m.n; i++)
    if (s->sol.letter[i] == ZENO_LETTER_F)
      z = fmin(z, fmax(fabs(c[2 * i]), cd[2 * i] * cd[2 * i] / a));
  cvode_scales sc = {.speed = fmax(v, s->vscale), .force = s->m.force_scale};
  const double vzero = s->def.velocity_rtol * sc.speed;
  sc.length = isfinite(z) ? z : sc.speed * sc.speed / a;
  sc.length = fmax(sc.length, fmax(vzero * vzero / a, gap_wobble(s, q)));
  return sc;
}

// The state at a gap guard's crossing taken back along its motion to the
// level the contact left from (its gap at the segment's start, or the
// surface). The guard sits a wobble below that level (build_guards), and a
// contact that fell that much farther and was then projected up kept the
// speed of the longer fall: its squared speed gained 2 g wobble a bounce,
// and a chatter whose bounces rise little above the wobble never shrank
// (issue 34: the box in a corner's wall struck at a constant
// sqrt(8 g wobble / 3) under e = 0.5). The time back b solves
// u b - g b^2 / 2 = depth (u the approach speed, g the pull towards the
// surface), the state goes back by b at constant acceleration (within the
// segment's last step), and that step's node with it. No root (a
// rounding): back to the lowest point, the contact's rate zero.
static void rewind_to_level(simn *s, const cvode_result *r, int i, double level) {
  double c[MAXV], cd[MAXV], q[3], qd[3], qdd[3];
  simn_contacts(&s->m, s->q, s->qd, c, cd);
  const double depth = level - c[2 * i], u = -cd[2 * i];
  simn_to_gen(&s->m, s->q, q);
  simn_to_gen(&s->m, s->qd, qd);
  if (!(depth > 0 && u > 0) || r->node_count < 2 || !accel_at(s, q, qd, qdd)) return;
  mode_n_dyn d;
  simn_full_dyn_at(&s->m, q, qd, &d);
  double g = -d.bias[2 * i];
  for (int k = 0; k < 3; k++) g -= d.W[k][2 * i] * qdd[k];
  const double disc = u * u - 2 * g * depth;
  double b = depth / u;  // no pull: the linear estimate
  if (g > 0) b = disc > 0 ? 2 * depth / (u + sqrt(disc)) : u / g;
  const double step = r->nodes[r->node_count - 1].t - r->nodes[r->node_count - 2].t;
  b = fmin(b, SIMN_FULL_REWIND_STEP_FRACTION * step);
  for (int k = 0; k < 3; k++) {
    q[k] -= b * qd[k] - 0.5 * b * b * qdd[k];
    qd[k] -= b * qdd[k];
  }
  s->t -= b;
  simn_of_gen(&s->m, q, s->q);
  simn_of_gen(&s->m, qd, s->qd);
  cvode_node *last = &s->full.nodes[s->full.node_count - 1];
  last->t = s->t;
  memcpy(last->q, q, sizeof q);
  memcpy(last->qd, qd, sizeof qd);
  if (!accel_at(s, q, qd, last->qdd)) memset(last->qdd, 0, sizeof last->qdd);
}

zeno_status simn_full_flow(simn *s, simn_event *ev, zeno_error *e) {
  simn_full_run *f = &s->full;
  f->refreshes = 0;
  for (;;) {
    double q[3], qd[3], c[MAXV], cd[MAXV];
    simn_to_gen(&s->m, s->q, q);
    simn_to_gen(&s->m, s->qd, qd);
    simn_contacts(&s->m, s->q, s->qd, c, cd);
    f->sc = segment_scales(s, q, c, cd);
    const double vstart = simn_contact_speed(s, s->qd);
    simn_hits h;
    memset(&h, 0, sizeof h);
    // A free contact found below its surface while approaching impacts at
    // once (sim_full_flow's rule): CVODE cannot find a past crossing.
    const double tol_v = simn_make_tol(s, s->vscale).v;
    int first = -1;
    for (int i = 0; i < s->m.n; i++)
      if (s->sol.letter[i] == ZENO_LETTER_F && c[2 * i] < 0 &&
          (cd[2 * i] < -tol_v || (cd[2 * i] <= tol_v && s->sol.acc[2 * i] < 0))) {
        h.gap[i] = true;
        if (first < 0) first = i;
      }
    if (first >= 0) {
      f->residual = fabs(c[2 * first]) / f->sc.length;  // sim_full_flow's
      return simn_handle_crossing(s, ev, ZENO_GUARD_GAP, first, &h, f->sc.speed, e);
    }
    build_guards(s, q, c);
    f->sys = (cvode_system){.accel = accel_at,
                            .guards = guards_at,
                            .user = s,
                            .guard_count = f->guard_count,
                            .dirs = f->dirs,
                            .arm = s->m.length_scale};
    cvode_result r;
    int found[SIMN_MAX_GUARDS] = {0};
    const double tau_max = fmax(s->def.t_end - s->t, 0);
    const int flag = cvode_integrate(f->cv, &f->sys, q, qd, tau_max, &f->sc, &r, found);
    if (flag >= 0 && !keep_nodes(s, &r))
      return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for the dense output");
    if (flag < 0) {
      snprintf(s->failure, sizeof s->failure, "%s", r.flag_name);
      simn_end_with(s, ZENO_OUTCOME_SOLVER_FAILURE, ZENO_GUARD_NONE);
      return simn_emit_end(s, ev);
    }
    s->t += r.tau;
    simn_of_gen(&s->m, q, s->q);
    simn_of_gen(&s->m, qd, s->qd);
    f->residual = located_residual(s, q, qd, found);
    const double vscale = fmax(fmax(vstart, simn_contact_speed(s, s->qd)),
                               s->m.accel_scale * r.tau);
    zeno_guard guard = ZENO_GUARD_TIME;
    int contact = -1;
    bool forces_only = true;
    for (int k = 0; k < f->guard_count; k++) {
      if (!found[k]) continue;
      const simn_guard *g = &f->guards[k];
      const int i = g->contact;
      if (guard == ZENO_GUARD_TIME || g->kind == ZENO_GUARD_ESCAPE) {
        guard = g->kind;
        contact = i;
      }
      h.gap[i] = h.gap[i] || g->kind == ZENO_GUARD_GAP;
      h.slip[i] = h.slip[i] || g->kind == ZENO_GUARD_SLIP_VELOCITY;
      h.lift[i] = h.lift[i] || g->kind == ZENO_GUARD_NORMAL_FORCE;
      h.margin[i] = h.margin[i] || g->kind == ZENO_GUARD_FRICTION_MARGIN;
      forces_only = forces_only &&
                    (g->kind == ZENO_GUARD_NORMAL_FORCE || g->kind == ZENO_GUARD_FRICTION_MARGIN);
    }
    if (guard == ZENO_GUARD_GAP) {
      for (int k = 0; k < f->guard_count; k++)
        if (found[k] && f->guards[k].kind == ZENO_GUARD_GAP) {
          const int i = f->guards[k].contact;
          rewind_to_level(s, &r, i, f->guards[k].level);
          break;
        }
      // Free contacts that reach their surfaces within the time zero of
      // this one land with it (flow_to_event's window of time_rtol): the
      // corners of a flat face rotating onto its surface land together,
      // and CVODE locates one root, the others a rounding on either side.
      double cn[MAXV], cdn[MAXV];
      simn_contacts(&s->m, s->q, s->qd, cn, cdn);
      const double window = s->def.time_rtol * r.tau;
      for (int i = 0; i < s->m.n; i++)
        if (s->sol.letter[i] == ZENO_LETTER_F && cdn[2 * i] < 0 &&
            cn[2 * i] <= -cdn[2 * i] * window)
          h.gap[i] = true;
    }
    if (guard == ZENO_GUARD_TIME) {
      s->t = fmax(s->t, s->def.t_end);
      simn_end_with(s, ZENO_OUTCOME_TIME_LIMIT, ZENO_GUARD_TIME);
      return simn_emit_end(s, ev);
    }
    if (guard == ZENO_GUARD_ESCAPE) {
      simn_end_with(s, ZENO_OUTCOME_ESCAPED, ZENO_GUARD_ESCAPE);
      return simn_emit_end(s, ev);
    }
    if (forces_only) {
      bool refreshed;
      const zeno_status st = refresh_member(s, &refreshed, e);
      if (st != ZENO_OK || s->end_pending) return st == ZENO_OK ? simn_emit_end(s, ev) : st;
      if (refreshed) continue;
    }
    return simn_handle_crossing(s, ev, guard, contact, &h, vscale, e);
  }
}
