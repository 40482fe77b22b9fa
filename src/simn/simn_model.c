// The N-contact engine's model (simn.h): W, M^-1 and the load of a scene's
// contacts under the ZOD, the coordinates q' that hold the state, and the
// mass-weighted projection onto contact constraints.
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/impact_series.h"
#include "dynamics/kinematics.h"
#include "dynamics/zero_tol.h"
#include "scene/scene_units.h"
#include "simn/simn.h"

#define MAXV (2 * SIMN_MAX_CONTACTS)

// Row a of W^T (contact coordinate a as a function of q), or theta (-1).
static void coord_row(const simn_model *m, int a, double row[3]) {
  for (int k = 0; k < 3; k++) row[k] = a >= 0 ? m->dyn.W[k][a] : (k == 2 ? 1.0 : 0.0);
}

// q': the gaps first, then the slips from the last contact back, the
// first three independent ones (two contacts: z1, z2, x2; one: z1, x1,
// and theta); contacts touching at the nominal pose before the others, so
// that a contact away from the body changes no coordinate.
static zeno_status choose_coordinates(simn_model *m, zeno_error *e) {
  const int n = m->n;
  int order[MAXV + 1], k = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < n; i++)
      if ((m->gap0[i] == 0) == (pass == 0)) order[k++] = 2 * i;
    for (int i = n - 1; i >= 0; i--)
      if ((m->gap0[i] == 0) == (pass == 0)) order[k++] = 2 * i + 1;
  }
  order[k++] = -1;
  double rows[3][3];
  int chosen = 0;
  for (int j = 0; j < k && chosen < 3; j++) {
    coord_row(m, order[j], rows[chosen]);
    if (contact_n_independent(rows, chosen + 1)) m->coord[chosen++] = order[j];
  }
  if (chosen < 3)
    return zeno_fail(e, ZENO_ERR_GEOMETRY, "contacts",
                     "the contact coordinates do not determine the pose (a degenerate "
                     "configuration)");
  for (int r = 0; r < 3; r++) coord_row(m, m->coord[r], m->A[r]);
  double inv[9];
  for (int c = 0; c < 3; c++) {
    double M[9], col[3] = {c == 0, c == 1, c == 2};
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 3; j++) M[r * 3 + j] = m->A[r][j];
    if (!zeno_linsolve(3, M, col, ZENO_PIVOT_RTOL))
      return zeno_fail(e, ZENO_ERR_GEOMETRY, "contacts", "singular contact coordinates");
    for (int r = 0; r < 3; r++) inv[r * 3 + c] = col[r];
  }
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) m->Ainv[r][c] = inv[r * 3 + c];
  for (int r = 0; r < 3; r++)
    for (int a = 0; a < 2 * n; a++) {
      double v = 0;
      for (int j = 0; j < 3; j++) v += m->Ainv[j][r] * m->dyn.W[j][a];
      m->Cp[r][a] = v;
    }
  for (int r = 0; r < 3; r++)
    if (m->coord[r] >= 0)
      for (int q = 0; q < 3; q++) m->Cp[q][m->coord[r]] = q == r ? 1.0 : 0.0;
  return ZENO_OK;
}

zeno_status simn_model_fix(simn_model *m, zeno_error *e) {
  impact_n_dyn_build(&m->dyn, &m->imp);
  double mobility = 0;
  for (int a = 0; a < 2 * m->n; a++) mobility = fmax(mobility, m->imp.D[a][a]);
  m->contact_mass = mobility > 0 ? 1.0 / mobility : m->mass;
  return choose_coordinates(m, e);
}

zeno_status simn_model_of_scene(const zeno_scene *s, simn_model *m, zeno_error *e) {
  memset(m, 0, sizeof *m);
  const zeno_status st = zeno_scene_validate(s, e);
  if (st != ZENO_OK) return st;
  m->n = s->contact_count;
  m->mass = s->mass;
  mode_n_dyn *d = &m->dyn;
  d->n = m->n;
  d->inv_mass[0] = d->inv_mass[1] = 1.0 / s->mass;
  d->inv_mass[2] = 1.0 / (s->mass * s->rho * s->rho);
  d->h[0] = s->load_magnitude * sin(s->load_angle);
  d->h[1] = -s->load_magnitude * cos(s->load_angle);
  d->h[2] = s->load_torque;
  m->length_scale = s->rho;
  for (int i = 0; i < m->n; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    double normal[3], tangent[3];
    contact_wrenches(c->point, c->surface_angle, normal, tangent);
    for (int k = 0; k < 3; k++) {
      d->W[k][2 * i] = normal[k];
      d->W[k][2 * i + 1] = tangent[k];
    }
    d->mu[i] = c->mu;
    m->p[i][0] = c->point[0];
    m->p[i][1] = c->point[1];
    m->sp[i][0] = c->surface_point_set ? c->surface_point[0] : c->point[0];
    m->sp[i][1] = c->surface_point_set ? c->surface_point[1] : c->point[1];
    m->tan[i][0] = tangent[0];
    m->tan[i][1] = tangent[1];
    m->nrm[i][0] = normal[0];
    m->nrm[i][1] = normal[1];
    if (c->surface_point_set)
      m->gap0[i] = normal[0] * (c->point[0] - c->surface_point[0]) +
                   normal[1] * (c->point[1] - c->surface_point[1]);
    m->length_scale = fmax(m->length_scale, hypot(c->point[0], c->point[1]));
  }
  m->force_scale = scene_load_scale(s);
  if (m->force_scale == 0) m->force_scale = s->mass;
  m->accel_scale = m->force_scale / s->mass;
  return simn_model_fix(m, e);
}

simn_def simn_def_of_scene(const zeno_scene *scene) {
  simn_def d;
  memset(&d, 0, sizeof d);
  d.velocity_rtol = ZERO_TOL_VELOCITY_RTOL;
  d.force_rtol = ZERO_TOL_FORCE_RTOL;
  d.time_rtol = ZERO_TOL_TIME_RTOL;
  d.ambiguity = scene->ambiguity;
  d.law = scene->impact_law;
  d.e = zeno_impact_law_restitution(scene);
  d.et = zeno_impact_law_tangential_restitution(scene);
  d.t_end = scene->t_end;
  d.max_events = scene->max_events;
  d.escape_radius = scene->escape_radius;
  d.rtol = scene->rtol;
  d.atol = scene->atol;
  d.full_ratio_rtol = SERIES_FULL_RATIO_RTOL;
  d.diverge_rtol = SERIES_DIVERGE_RTOL;
  return d;
}

void simn_contacts(const simn_model *m, const double qp[3], const double qdp[3], double *c,
                   double *cd) {
  if (m->full) {
    double q[3], qd[3];
    simn_to_gen(m, qp, q);
    simn_to_gen(m, qdp, qd);
    for (int i = 0; i < m->n; i++)
      kinematics_contact_full(m->p[i], m->sp[i], m->nrm[i], m->tan[i], q, qd, c + 2 * i,
                              cd + 2 * i);
    return;
  }
  for (int a = 0; a < 2 * m->n; a++) {
    c[a] = (a % 2 == 0 ? m->gap0[a / 2] : 0) + m->Cp[0][a] * qp[0] + m->Cp[1][a] * qp[1] +
           m->Cp[2][a] * qp[2];
    cd[a] = m->Cp[0][a] * qdp[0] + m->Cp[1][a] * qdp[1] + m->Cp[2][a] * qdp[2];
  }
  // q''s own coordinates are copied exactly (their Cp columns are units).
  for (int r = 0; r < 3; r++)
    if (m->coord[r] >= 0) {
      c[m->coord[r]] = (m->coord[r] % 2 == 0 ? m->gap0[m->coord[r] / 2] : 0) + qp[r];
      cd[m->coord[r]] = qdp[r];
    }
}

void simn_to_gen(const simn_model *m, const double qp[3], double q[3]) {
  for (int r = 0; r < 3; r++)
    q[r] = m->Ainv[r][0] * qp[0] + m->Ainv[r][1] * qp[1] + m->Ainv[r][2] * qp[2];
}

void simn_of_gen(const simn_model *m, const double q[3], double qp[3]) {
  for (int r = 0; r < 3; r++) qp[r] = m->A[r][0] * q[0] + m->A[r][1] * q[1] + m->A[r][2] * q[2];
}
