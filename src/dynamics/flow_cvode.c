// The full nonlinear flow on SUNDIALS CVODE (flow_cvode.h): the mode's
// right-hand side, its guard functions for root finding, and one segment
// integrated to the first guard crossing with its accepted steps kept.
#include "dynamics/flow_cvode.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/contact_solve.h"
#include "dynamics/friction_cone.h"
#include "dynamics/mode_table.h"
#include "dynamics/sundials_load.h"

/// Steps one segment may take before it is a solver failure (CVODE's own
/// default is 500 per output; segments of a long slip need more, and a
/// runaway integration must still end).
#define CVODE_MAX_STEPS 2000000
/// The farthest output time handed to CVODE, in time scales of the segment
/// (its length over its speed). CVODE sizes its first step from the output
/// time, with a floor of 100 unit roundoffs of it: an end at 1e24 gave a
/// first step of 2e10 and a failure at t = 0. In one-step mode the output
/// time only sets that first step (the stop time ends the segment). At 1e12
/// scales the floor is 2% of a scale, and no run within the paper's ranges
/// (ends of 1e3 against scales of 1e-8 in a late chatter) is touched.
#define CVODE_HORIZON_SCALES 1e12
/// Fixed-point iterations of the corrector: Adams on non-stiff rigid-body
/// dynamics converges in a few.
#define CVODE_FIXED_POINT_ACCEL 0
/// The most guards of one mode: 2 per contact plus 4 escape pairs.
#define CVODE_MAX_GUARDS FLOW_MAX_CROSSINGS

typedef struct guard_def {
  zeno_guard kind;
  int contact;
  int coordinate;  ///< ESCAPE: contact coordinate index (z1, x1, z2, x2)
  int sign;        ///< FRICTION_MARGIN: +1 for mu fn - ft, -1 for mu fn + ft; ESCAPE: side
  /// GAP: the gap's level at the segment start when below zero (rounding
  /// of a projection). A just-separated contact a hair below the surface
  /// must still be caught when it comes back down to that level; a guard
  /// starting negative would never cross zero.
  double offset;
} guard_def;

struct zfc {
  const sundials_api *sun;  ///< SUNDIALS, loaded at the first integrator
  SUNContext ctx;
  void *mem;
  N_Vector y, atol;
  SUNNonlinearSolver nls;
  bool initialized;
  kinematics_model km;
  double rtol, atol_rel;
  /* the segment being integrated */
  const cvode_system *sys;  ///< what is integrated (own: cvode_advance's two-contact mode)
  cvode_system own;
  zeno_mode mode;
  int guard_count;
  guard_def guards[CVODE_MAX_GUARDS];
  int dirs[CVODE_MAX_GUARDS];
  double radius;
  cvode_scales sc;
  /// Positions are integrated relative to the segment's start, so CVODE's
  /// relative error control sees the segment's own motion and not the
  /// offset accumulated before (e.g. a long slip).
  double q_base[3];
  cvode_node *nodes;
  int node_count, node_cap;
};

// CVODE reports errors through this handler instead of printing them: the
// library never prints, and failures reach the caller as events.
static void quiet_errors(int code, const char *module, const char *function, char *message,
                         void *user) {
  (void)code;
  (void)module;
  (void)function;
  (void)message;
  (void)user;
}

bool cvode_mode_accel(const kinematics_model *km, zeno_mode mode, const double q[3],
                      const double qd[3], double qdd[3], double force[4]) {
  double W[3][4], bias[4];
  kinematics_full_jacobian(km, q, qd, W, bias);
  contact_dyn d;
  contact_dyn_build(&d, km->n, W, km->inv_mass, km->h, bias, km->mu);
  mode_solution sol;
  if (!mode_solve(&d, mode, &sol)) return false;
  memcpy(qdd, sol.qdd, 3 * sizeof *qdd);
  memcpy(force, sol.force, 4 * sizeof *force);
  return true;
}

static void absolute_q(const zfc *f, const double *Y, double q[3]) {
  for (int k = 0; k < 3; k++) q[k] = f->q_base[k] + Y[k];
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *user) {
  (void)t;
  zfc *f = user;
  const double *Y = f->sun->N_VGetArrayPointer(y);
  double *D = f->sun->N_VGetArrayPointer(ydot);
  double q[3], qdd[3];
  absolute_q(f, Y, q);
  if (!f->sys->accel(f->sys->user, q, Y + 3, qdd)) return -1;
  for (int k = 0; k < 3; k++) {
    D[k] = Y[3 + k];
    D[3 + k] = qdd[k];
  }
  return 0;
}

// Value of one guard at (q, qd), in units of its scale.
static double guard_value(const zfc *f, const guard_def *g, const double c[4], const double cd[4],
                          const double force[4]) {
  const int i = g->contact;
  switch (g->kind) {
    case ZENO_GUARD_GAP: return (c[2 * i] - g->offset) / f->sc.length;
    case ZENO_GUARD_NORMAL_FORCE: return force[2 * i] / f->sc.force;
    case ZENO_GUARD_SLIP_VELOCITY: return cd[2 * i + 1] / f->sc.speed;
    case ZENO_GUARD_FRICTION_MARGIN:
      return friction_cone_edge(f->km.mu[i], force[2 * i], force[2 * i + 1], g->sign) / f->sc.force;
    case ZENO_GUARD_ESCAPE: return (c[g->coordinate] - g->sign * f->radius) / f->sc.length;
    default: return 1.0;
  }
}

// The two-contact mode's guards (cvode_system.guards of cvode_advance).
static bool mode_guards(void *user, const double q[3], const double qd[3], double *out) {
  const zfc *f = user;
  double c[4], cd[4], qdd[3], force[4] = {0, 0, 0, 0};
  kinematics_full_contacts(&f->km, q, qd, c, cd);
  const bool ok = cvode_mode_accel(&f->km, f->mode, q, qd, qdd, force);
  for (int k = 0; k < f->guard_count; k++) out[k] = guard_value(f, &f->guards[k], c, cd, force);
  return ok;
}

// The two-contact mode's accelerations (cvode_system.accel of cvode_advance).
static bool mode_accel(void *user, const double q[3], const double qd[3], double qdd[3]) {
  const zfc *f = user;
  double force[4];
  return cvode_mode_accel(&f->km, f->mode, q, qd, qdd, force);
}

static int groot(sunrealtype t, N_Vector y, sunrealtype *gout, void *user) {
  (void)t;
  const zfc *f = user;
  double q[3];
  const double *Y = f->sun->N_VGetArrayPointer(y);
  absolute_q(f, Y, q);
  return f->sys->guards(f->sys->user, q, Y + 3, gout) ? 0 : -1;
}

static void add_guard(zfc *f, zeno_guard kind, int contact, int coordinate, int sign, int dir) {
  guard_def *g = &f->guards[f->guard_count];
  g->kind = kind;
  g->contact = contact;
  g->coordinate = coordinate;
  g->sign = sign;
  g->offset = 0;
  f->dirs[f->guard_count++] = dir;
}

// The guards that can fire in `mode`; identically zero ones (the gap of a
// closed contact, the slip rate of a sticking one) are not monitored.
static void build_guards(zfc *f) {
  f->guard_count = 0;
  for (int i = 0; i < f->km.n; i++) {
    switch (f->mode.letter[i]) {
      case ZENO_LETTER_F: add_guard(f, ZENO_GUARD_GAP, i, 0, 0, -1); break;
      case ZENO_LETTER_S:
        add_guard(f, ZENO_GUARD_NORMAL_FORCE, i, 0, 0, -1);
        add_guard(f, ZENO_GUARD_FRICTION_MARGIN, i, 0, +1, -1);
        add_guard(f, ZENO_GUARD_FRICTION_MARGIN, i, 0, -1, -1);
        break;
      case ZENO_LETTER_P:
        add_guard(f, ZENO_GUARD_NORMAL_FORCE, i, 0, 0, -1);
        add_guard(f, ZENO_GUARD_SLIP_VELOCITY, i, 0, 0, -1);
        break;
      default:
        add_guard(f, ZENO_GUARD_NORMAL_FORCE, i, 0, 0, -1);
        add_guard(f, ZENO_GUARD_SLIP_VELOCITY, i, 0, 0, +1);
    }
  }
  for (int a = 0; a < 2 * f->km.n && f->guard_count + 2 <= CVODE_MAX_GUARDS; a++) {
    add_guard(f, ZENO_GUARD_ESCAPE, a / 2, a, +1, +1);
    add_guard(f, ZENO_GUARD_ESCAPE, a / 2, a, -1, -1);
  }
}

zfc *cvode_create(const kinematics_model *km, double rtol, double atol_rel, zeno_error *error) {
  zfc *f = calloc(1, sizeof *f);
  if (f == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  f->sun = sundials_api_get(error);
  if (f->sun == NULL) {
    free(f);
    return NULL;
  }
  if (km != NULL) f->km = *km;
  f->rtol = rtol;
  f->atol_rel = atol_rel;
  if (f->sun->SUNContext_Create(NULL, &f->ctx) != 0) goto fail;
  f->y = f->sun->N_VNew_Serial(6, f->ctx);
  f->atol = f->sun->N_VNew_Serial(6, f->ctx);
  f->mem = f->sun->CVodeCreate(CV_ADAMS, f->ctx);
  if (f->y == NULL || f->atol == NULL || f->mem == NULL) goto fail;
  f->sun->N_VConst(0.0, f->y);
  f->nls = f->sun->SUNNonlinSol_FixedPoint(f->y, CVODE_FIXED_POINT_ACCEL, f->ctx);
  if (f->nls == NULL) goto fail;
  return f;
fail:
  cvode_destroy(f);
  zeno_fail(error, ZENO_ERR_NOMEM, "model", "could not create the CVODE integrator");
  return NULL;
}

void cvode_destroy(zfc *f) {
  if (f == NULL) return;
  if (f->mem) f->sun->CVodeFree(&f->mem);
  if (f->nls) f->sun->SUNNonlinSolFree(f->nls);
  if (f->y) f->sun->N_VDestroy(f->y);
  if (f->atol) f->sun->N_VDestroy(f->atol);
  if (f->ctx) f->sun->SUNContext_Free(&f->ctx);
  free(f->nodes);
  free(f);
}

static bool push_node(zfc *f, double t, const double *Y) {
  if (f->node_count == f->node_cap) {
    const int cap = f->node_cap ? 2 * f->node_cap : 64;
    cvode_node *n = realloc(f->nodes, (size_t)cap * sizeof *n);
    if (n == NULL) return false;
    f->nodes = n;
    f->node_cap = cap;
  }
  cvode_node *n = &f->nodes[f->node_count++];
  n->t = t;
  absolute_q(f, Y, n->q);
  memcpy(n->qd, Y + 3, sizeof n->qd);
  if (!f->sys->accel(f->sys->user, n->q, n->qd, n->qdd)) memset(n->qdd, 0, sizeof n->qdd);
  return true;
}

/// A gap guard starting exactly at zero (a contact just released, its gap
/// projected to 0) is deactivated by CVODE until it moves away from zero,
/// and a bounce shorter than the first step then goes unseen: the contact
/// sank through the surface. The guard starts this fraction of the
/// segment's length scale above zero instead (far below the located
/// guard's residual, 1e-10).
#define CVODE_GAP_START_MARGIN 1e-12
/// A contact starting below the surface (by rounding: a free contact left
/// a hair under it by a long chatter) has its guard this many ulps of the
/// pose's coordinates below its start: the gap, a difference of those
/// coordinates, wobbles by a few ulps of them from step to step, and a
/// guard within that wobble fired at once, again and again (a thousand
/// zero-time transitions of a separating contact at the rounding floor).
#define CVODE_GAP_NOISE_ULPS 64

// Gap guards of contacts starting a hair below the surface are measured
// from where they start (see guard_def.offset); one starting at zero from
// just below it.
static void set_gap_offsets(zfc *f, const double q[3], const double qd[3]) {
  double c[4], cd[4];
  kinematics_full_contacts(&f->km, q, qd, c, cd);
  const double wobble = CVODE_GAP_NOISE_ULPS * DBL_EPSILON *
                        (fabs(q[0]) + fabs(q[1]) + fabs(q[2]) * f->km.length_scale);
  for (int k = 0; k < f->guard_count; k++) {
    if (f->guards[k].kind != ZENO_GUARD_GAP) continue;
    const double gap = c[2 * f->guards[k].contact];
    double margin = CVODE_GAP_START_MARGIN * f->sc.length;
    if (gap < 0) margin = fmax(margin, wobble);
    f->guards[k].offset = fmin(gap - margin, 0.0);
  }
}

static int start_segment(zfc *f, const double q[3], const double qd[3]) {
  double *Y = f->sun->N_VGetArrayPointer(f->y), *A = f->sun->N_VGetArrayPointer(f->atol);
  for (int k = 0; k < 3; k++) {
    f->q_base[k] = q[k];
    Y[k] = 0;
    Y[3 + k] = qd[k];
    // Absolute tolerances from the state's own scale (homogeneity (24)).
    const double arm = k == 2 ? f->sys->arm : 1.0;
    A[k] = f->atol_rel * f->sc.length / arm;
    A[3 + k] = f->atol_rel * f->sc.speed / arm;
  }
  int flag;
  if (!f->initialized) {
    flag = f->sun->CVodeInit(f->mem, rhs, 0.0, f->y);
    if (flag == CV_SUCCESS) flag = f->sun->CVodeSetNonlinearSolver(f->mem, f->nls);
    if (flag == CV_SUCCESS) flag = f->sun->CVodeSetUserData(f->mem, f);
    if (flag == CV_SUCCESS) flag = f->sun->CVodeSetErrHandlerFn(f->mem, quiet_errors, f);
    if (flag == CV_SUCCESS) flag = f->sun->CVodeSetNoInactiveRootWarn(f->mem);
    if (flag == CV_SUCCESS) flag = f->sun->CVodeSetMaxNumSteps(f->mem, CVODE_MAX_STEPS);
    f->initialized = flag == CV_SUCCESS;
  } else {
    flag = f->sun->CVodeReInit(f->mem, 0.0, f->y);
  }
  if (flag == CV_SUCCESS) flag = f->sun->CVodeSVtolerances(f->mem, f->rtol, f->atol);
  if (flag == CV_SUCCESS) flag = f->sun->CVodeRootInit(f->mem, f->sys->guard_count, groot);
  // CVODE copies the directions (SUNDIALS 6: a cast away of const only).
  if (flag == CV_SUCCESS && f->sys->guard_count > 0)
    flag = f->sun->CVodeSetRootDirection(f->mem, (int *)f->sys->dirs);
  return flag;
}

int cvode_integrate(zfc *f, const cvode_system *sys, double q[3], double qd[3], double tau_max,
                    const cvode_scales *scales, cvode_result *out, int *found) {
  memset(out, 0, sizeof *out);
  f->sys = sys;
  f->sc = *scales;
  f->node_count = 0;
  const double *Y = f->sun->N_VGetArrayPointer(f->y);
  int flag = start_segment(f, q, qd);
  if (flag == CV_SUCCESS) flag = f->sun->CVodeSetStopTime(f->mem, tau_max);
  if (flag != CV_SUCCESS) goto done;
  if (!push_node(f, 0.0, Y)) {
    flag = CV_MEM_FAIL;
    goto done;
  }
  double t = 0;
  const double tout = fmin(tau_max, CVODE_HORIZON_SCALES * scales->length / scales->speed);
  for (long steps = 0;; steps++) {
    if (steps >= CVODE_MAX_STEPS) {
      flag = CV_TOO_MUCH_WORK;
      break;
    }
    flag = f->sun->CVode(f->mem, tout, f->y, &t, CV_ONE_STEP);
    if (flag < 0) break;
    if (!push_node(f, t, Y)) {
      flag = CV_MEM_FAIL;
      break;
    }
    if (flag == CV_ROOT_RETURN) {
      f->sun->CVodeGetRootInfo(f->mem, found);
      break;
    }
    if (flag == CV_TSTOP_RETURN || t >= tau_max) break;
  }
  out->tau = t;
done:
  out->flag = flag;
  char *name = f->sun->CVodeGetReturnFlagName(flag);  // allocated by SUNDIALS
  snprintf(out->flag_name, sizeof out->flag_name, "%s", name ? name : "unknown");
  free(name);
  out->nodes = f->nodes;
  out->node_count = f->node_count;
  if (flag >= 0) {
    absolute_q(f, Y, q);
    memcpy(qd, Y + 3, 3 * sizeof *qd);
  }
  if (flag != CV_ROOT_RETURN)
    for (int k = 0; k < sys->guard_count; k++) found[k] = 0;
  return flag;
}

int cvode_advance(zfc *f, zeno_mode mode, double q[3], double qd[3], double tau_max, double radius,
                  const cvode_scales *scales, cvode_result *out) {
  f->mode = mode;
  f->radius = radius;
  f->sc = *scales;
  build_guards(f);
  set_gap_offsets(f, q, qd);
  f->own = (cvode_system){.accel = mode_accel,
                          .guards = mode_guards,
                          .user = f,
                          .guard_count = f->guard_count,
                          .dirs = f->dirs,
                          .arm = f->km.length_scale};
  int found[CVODE_MAX_GUARDS] = {0};
  const int flag = cvode_integrate(f, &f->own, q, qd, tau_max, scales, out, found);
  if (flag != CV_ROOT_RETURN) return flag;
  double g[CVODE_MAX_GUARDS];
  mode_guards(f, q, qd, g);
  for (int k = 0; k < f->guard_count; k++) {
    if (!found[k]) continue;
    flow_crossing *c = &out->crossings[out->crossing_count++];
    c->tau = out->tau;
    c->guard = f->guards[k].kind;
    c->contact = f->guards[k].contact;
    out->residual = fmax(out->residual, fabs(g[k]));
  }
  return flag;
}

// Cubic Hermite interpolation of x with derivative dx between two nodes.
static double hermite(double x0, double d0, double x1, double d1, double h, double u) {
  const double u2 = u * u, u3 = u2 * u;
  return (2 * u3 - 3 * u2 + 1) * x0 + (u3 - 2 * u2 + u) * h * d0 + (-2 * u3 + 3 * u2) * x1 +
         (u3 - u2) * h * d1;
}

/// First room of a run's array of steps (a segment takes tens).
#define CVODE_NODES_INITIAL 64

bool cvode_nodes_append(cvode_node **nodes, size_t *count, size_t *cap, const cvode_node *add,
                        size_t n, double t0) {
  if (*count + n > *cap) {
    size_t grown_cap = *cap ? *cap : CVODE_NODES_INITIAL;
    while (grown_cap < *count + n) grown_cap *= 2;
    cvode_node *grown = realloc(*nodes, grown_cap * sizeof *grown);
    if (grown == NULL) return false;
    *nodes = grown;
    *cap = grown_cap;
  }
  for (size_t k = 0; k < n; k++) {
    cvode_node nd = add[k];
    nd.t += t0;
    (*nodes)[(*count)++] = nd;
  }
  return true;
}

void cvode_nodes_sample(const cvode_node *n, size_t count, double t, double q[3], double qd[3]) {
  size_t lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    const size_t mid = (lo + hi) / 2;
    if (n[mid].t <= t) lo = mid;
    else hi = mid;
  }
  const cvode_node *a = &n[lo], *b = &n[hi];
  const double h = b->t - a->t;
  const double u = h > 0 ? fmin(fmax((t - a->t) / h, 0), 1) : 0;
  for (int k = 0; k < 3; k++) {
    q[k] = hermite(a->q[k], a->qd[k], b->q[k], b->qd[k], h, u);
    qd[k] = hermite(a->qd[k], a->qdd[k], b->qd[k], b->qdd[k], h, u);
  }
}
