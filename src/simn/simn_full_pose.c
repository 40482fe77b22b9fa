// The full model's geometry at a state, in the N-contact engine (simn_full.c
// integrates between events): the integrator made, W and the centripetal
// terms at the state (the dynamics mode selection and impacts see), the
// start from exact contact coordinates, and the Newton projections onto
// the closed contacts' exact gaps.
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "simn/simn_run.h"

/// Newton iterations for the position projection: the constraints are
/// smooth and the start is within rounding of the integrator's drift, so
/// two or three reach rounding (sim_full.c's).
#define SIMN_FULL_NEWTON_ITERATIONS 8
/// Relative residual at which Newton stops [of the state's length].
#define SIMN_FULL_NEWTON_RTOL 1e-15
/// CVODE's tolerances at most: the scene's range for solver.rtol and
/// solver.atol (docs/scenes.md), where a run still resolves its events.
#define SIMN_FULL_MAX_TOL 1e-2

zeno_status simn_full_create(simn *s, zeno_error *e) {
  if (!s->m.full) return ZENO_OK;
  if (!(s->def.rtol > 0 && s->def.rtol <= SIMN_FULL_MAX_TOL) ||
      !(s->def.atol > 0 && s->def.atol <= SIMN_FULL_MAX_TOL))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "solver",
                     "the full model's rtol and atol must lie in (0, %g]", SIMN_FULL_MAX_TOL);
  zeno_error local;
  zeno_error *err = e ? e : &local;
  s->full.cv = cvode_create(NULL, s->def.rtol, s->def.atol, err);
  return s->full.cv ? ZENO_OK : err->code;
}

// W and the centripetal terms at the generalised state (q, qd).
void simn_full_dyn_at(const simn_model *m, const double q[3], const double qd[3], mode_n_dyn *d) {
  *d = m->dyn;  // M^-1, the load and friction
  for (int i = 0; i < m->n; i++) {
    double col[2][3];
    kinematics_contact_jacobian(m->p[i], m->nrm[i], m->tan[i], q, qd, col, d->bias + 2 * i);
    for (int k = 0; k < 2; k++)
      for (int r = 0; r < 3; r++) d->W[r][2 * i + k] = col[k][r];
  }
}

void simn_full_refresh(simn *s) {
  double q[3], qd[3];
  simn_to_gen(&s->m, s->q, q);
  simn_to_gen(&s->m, s->qd, qd);
  simn_full_dyn_at(&s->m, q, qd, &s->full.dyn);
  impact_n_dyn_build(&s->full.dyn, &s->full.imp);
}

/// Newton's iterations and residuals for the start from contact coordinates
/// (sim_full.c's FULL_START_RTOL, with its reason: a regular map reaches
/// rounding in two or three iterations, a nearly singular one stalls far
/// above the target).
#define SIMN_FULL_START_RTOL 1e-9

// The exact values of q''s coordinates at pose q (a contact coordinate
// from its nominal value, or theta) and their rows J (as functions of q).
static void coordinate_rows(const simn_model *m, const double q[3], double J[9], double val[3]) {
  const double zero[3] = {0, 0, 0};
  mode_n_dyn d;
  simn_full_dyn_at(m, q, zero, &d);
  for (int r = 0; r < 3; r++) {
    const int a = m->coord[r];
    if (a < 0) {
      val[r] = q[2];
      for (int k = 0; k < 3; k++) J[r * 3 + k] = k == 2;
      continue;
    }
    double c[2], cd[2];
    kinematics_contact_full(m->p[a / 2], m->sp[a / 2], m->nrm[a / 2], m->tan[a / 2], q, zero, c,
                            cd);
    val[r] = c[a % 2] - (a % 2 == 0 ? m->gap0[a / 2] : 0);
    for (int k = 0; k < 3; k++) J[r * 3 + k] = d.W[k][a];
  }
}

zeno_status simn_full_pose(const simn_model *m, const double qp[3], const double qdp[3],
                           double q[3], double qd[3], zeno_error *e) {
  simn_to_gen(m, qp, q);  // the linear guess
  double scale = 0;
  for (int k = 0; k < 3; k++) scale = fmax(scale, fabs(qp[k]));
  bool converged = false;
  for (int it = 0; it <= SIMN_FULL_NEWTON_ITERATIONS && !converged; it++) {
    double J[9], val[3], r[3], err = 0;
    coordinate_rows(m, q, J, val);
    for (int k = 0; k < 3; k++) {
      r[k] = qp[k] - val[k];
      err = fmax(err, fabs(r[k]));
    }
    converged = err <= SIMN_FULL_START_RTOL * scale;
    if (err <= SIMN_FULL_NEWTON_RTOL * scale || it == SIMN_FULL_NEWTON_ITERATIONS) break;
    if (!zeno_linsolve(3, J, r, ZENO_PIVOT_RTOL)) break;
    for (int k = 0; k < 3; k++) q[k] += r[k];
  }
  double J[9], val[3];
  coordinate_rows(m, q, J, val);
  memcpy(qd, qdp, 3 * sizeof *qd);
  if (!converged || !zeno_linsolve(3, J, qd, ZENO_PIVOT_RTOL))
    return zeno_fail(e, ZENO_ERR_GEOMETRY, "initial",
                     "the full model finds no pose with these contact coordinates (a nearly "
                     "singular configuration)");
  return ZENO_OK;
}

int simn_full_correct_positions(simn *s, const int *cols, int count, const double *target) {
  if (count == 0) return 0;
  int rank = 0;
  for (int it = 0; it < SIMN_FULL_NEWTON_ITERATIONS; it++) {
    double c[MAXV], cd[MAXV], r[MAXV], q[3], size = 0, err = 0;
    const double zero[3] = {0, 0, 0};
    simn_contacts(&s->m, s->q, zero, c, cd);
    simn_to_gen(&s->m, s->q, q);
    size = fmax(fmax(fabs(q[0]), fabs(q[1])), fabs(q[2]) * s->m.length_scale);
    for (int a = 0; a < count; a++) {
      r[a] = target[a] - (c[cols[a]] - simn_offset(s, cols[a]));  // targets of W q
      err = fmax(err, fabs(r[a]));
    }
    if (err == 0 || err <= SIMN_FULL_NEWTON_RTOL * size) break;
    mode_n_dyn d;
    simn_full_dyn_at(&s->m, q, zero, &d);
    double dq[3] = {0, 0, 0};
    rank = contact_n_correct(&d, cols, count, r, dq);
    for (int k = 0; k < 3; k++) q[k] += dq[k];
    simn_of_gen(&s->m, q, s->q);
  }
  return rank;
}
