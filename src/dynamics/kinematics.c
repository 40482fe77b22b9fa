// Contact kinematics (kinematics.h): the model of a scene, contact
// coordinates and Jacobians at the full pose and under the ZOD, the q'
// coordinates and the energy.
#include "dynamics/kinematics.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "scene/scene_units.h"

/// Relative pivot below which the q' map counts as singular.
#define KIN_SINGULAR_RTOL 1e-12

static bool invert3(double A[3][3], double inv[3][3]) {
  double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
               A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
               A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
  double scale = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) scale = fmax(scale, fabs(A[i][j]));
  if (!(fabs(det) > KIN_SINGULAR_RTOL * scale * scale * scale)) return false;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (j + 1) % 3, i2 = (j + 2) % 3, j1 = (i + 1) % 3, j2 = (i + 2) % 3;
      inv[i][j] = (A[i1][j1] * A[i2][j2] - A[i1][j2] * A[i2][j1]) / det;
    }
  return true;
}

void contact_wrenches(const double point[2], double surface_angle, double normal[3],
                      double tangent[3]) {
  const double t[2] = {cos(surface_angle), sin(surface_angle)};
  const double n[2] = {-t[1], t[0]};  // n = J t
  normal[0] = n[0];
  normal[1] = n[1];
  normal[2] = point[0] * n[1] - point[1] * n[0];
  tangent[0] = t[0];
  tangent[1] = t[1];
  tangent[2] = point[0] * t[1] - point[1] * t[0];
}

zeno_status kinematics_model_init(kinematics_model *km, const zeno_scene *s, zeno_error *e) {
  memset(km, 0, sizeof *km);
  const zeno_status pair = zeno_scene_require_pair(s, e);
  if (pair != ZENO_OK) return pair;
  km->n = s->contact_count;
  km->mass = s->mass;
  km->rho = s->rho;
  km->inv_mass[0] = km->inv_mass[1] = 1.0 / s->mass;
  km->inv_mass[2] = 1.0 / (s->mass * s->rho * s->rho);
  km->mass_diag[0] = km->mass_diag[1] = s->mass;
  km->mass_diag[2] = s->mass * s->rho * s->rho;
  km->h[0] = s->load_magnitude * sin(s->load_angle);
  km->h[1] = -s->load_magnitude * cos(s->load_angle);
  km->h[2] = s->load_torque;
  km->length_scale = s->rho;
  for (int i = 0; i < km->n; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    km->p[i][0] = c->point[0];
    km->p[i][1] = c->point[1];
    km->tan_[i][0] = cos(c->surface_angle);
    km->tan_[i][1] = sin(c->surface_angle);
    km->nrm[i][0] = -km->tan_[i][1];
    km->nrm[i][1] = km->tan_[i][0];
    if (c->surface_point_set) {
      km->s[i][0] = c->surface_point[0];
      km->s[i][1] = c->surface_point[1];
    } else {
      km->s[i][0] = c->point[0];
      km->s[i][1] = c->point[1];
    }
    km->mu[i] = c->mu;
    km->length_scale = fmax(km->length_scale, hypot(c->point[0], c->point[1]));
    // d r_i = d r_c + d theta J p_i at theta = 0: the contact's wrenches.
    double normal[3], tangent[3];
    contact_wrenches(c->point, c->surface_angle, normal, tangent);
    for (int k = 0; k < 3; k++) {
      km->W0[k][2 * i] = normal[k];
      km->W0[k][2 * i + 1] = tangent[k];
    }
  }
  km->force_scale = scene_load_scale(s);
  if (km->force_scale == 0) km->force_scale = s->mass;  // unloaded body: any unit scale
  km->accel_scale = km->force_scale / s->mass;
  double mobility = 0;  // max_a D_aa
  for (int a = 0; a < 2 * km->n; a++) {
    double d = 0;
    for (int k = 0; k < 3; k++) d += km->W0[k][a] * km->W0[k][a] * km->inv_mass[k];
    mobility = fmax(mobility, d);
  }
  km->contact_mass = 1.0 / mobility;

  // Rows of q' = A q: (z1, z2, x2) for two contacts, (z1, x1, theta) for one.
  const int col[3] = {0, km->n == 2 ? 2 : 1, km->n == 2 ? 3 : -1};
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < 3; j++)
      km->A[r][j] = col[r] >= 0 ? km->W0[j][col[r]] : (j == 2 ? 1.0 : 0.0);
  if (!invert3(km->A, km->Ainv)) {
    if (km->n == 2)
      return zeno_fail(e, ZENO_ERR_GEOMETRY, "contacts",
                       "the ZOD coordinates (z1, z2, x2) do not determine the "
                       "pose: the normal line at contact 1 passes through "
                       "contact 2 (a degenerate configuration)");
    return zeno_fail(e, ZENO_ERR_GEOMETRY, "contacts", "degenerate single-contact geometry");
  }
  for (int r = 0; r < 3; r++)
    for (int a = 0; a < 4; a++) {
      double v = 0;
      for (int k = 0; k < 3; k++) v += km->Ainv[k][r] * km->W0[k][a];
      km->Cp[r][a] = a < 2 * km->n ? v : 0;
    }
  for (int r = 0; r < 3; r++) {
    if (col[r] < 0) continue;
    for (int q = 0; q < 3; q++) km->Cp[q][col[r]] = q == r ? 1.0 : 0.0;
  }
  return ZENO_OK;
}

void kinematics_zod_prime_contacts(const kinematics_model *km, const double qp[3],
                                   const double qdp[3], double c[4], double cd[4]) {
  // The coordinates that make up q' are copied (their columns of Cp are
  // exact unit vectors, see kinematics_model_init); only the slip of contact 1 (two
  // contacts) is a sum. The simulator asks for contact coordinates a dozen
  // times per event.
  if (km->n == 2) {
    c[0] = qp[0];
    c[1] = km->Cp[0][1] * qp[0] + km->Cp[1][1] * qp[1] + km->Cp[2][1] * qp[2];
    c[2] = qp[1];
    c[3] = qp[2];
    cd[0] = qdp[0];
    cd[1] = km->Cp[0][1] * qdp[0] + km->Cp[1][1] * qdp[1] + km->Cp[2][1] * qdp[2];
    cd[2] = qdp[1];
    cd[3] = qdp[2];
  } else {
    c[0] = qp[0];
    c[1] = qp[1];
    cd[0] = qdp[0];
    cd[1] = qdp[1];
    c[2] = c[3] = cd[2] = cd[3] = 0;
  }
}

void kinematics_gen_to_zod(const kinematics_model *km, const double x[3], double y[3]) {
  for (int r = 0; r < 3; r++) y[r] = km->A[r][0] * x[0] + km->A[r][1] * x[1] + km->A[r][2] * x[2];
}

void kinematics_zod_to_gen(const kinematics_model *km, const double y[3], double x[3]) {
  for (int r = 0; r < 3; r++)
    x[r] = km->Ainv[r][0] * y[0] + km->Ainv[r][1] * y[1] + km->Ainv[r][2] * y[2];
}

void kinematics_contact_full(const double p[2], const double sp[2], const double nrm[2],
                             const double tan[2], const double q[3], const double qd[3],
                             double c[2], double cd[2]) {
  // The displacement of a vertex from its nominal position, q + (R - I) p,
  // is formed without cancellation (cos theta - 1 = -2 sin^2(theta/2)): gaps
  // of size eps^2 stay accurate to rounding of themselves, not of |p|.
  const double st = sin(q[2]), sh = sin(0.5 * q[2]), cm1 = -2 * sh * sh;
  const double d[2] = {q[0] + cm1 * p[0] - st * p[1], q[1] + st * p[0] + cm1 * p[1]};
  // Offset of the nominal vertex from the surface point (along t_i only
  // for a vertex on its surface; exact zero when they coincide).
  const double o[2] = {p[0] - sp[0], p[1] - sp[1]};
  const double Rp[2] = {p[0] + cm1 * p[0] - st * p[1], p[1] + st * p[0] + cm1 * p[1]};
  const double v[2] = {qd[0] - qd[2] * Rp[1], qd[1] + qd[2] * Rp[0]};
  c[0] = (d[0] + o[0]) * nrm[0] + (d[1] + o[1]) * nrm[1];
  // x_i is measured from the nominal contact point (7).
  c[1] = d[0] * tan[0] + d[1] * tan[1];
  cd[0] = v[0] * nrm[0] + v[1] * nrm[1];
  cd[1] = v[0] * tan[0] + v[1] * tan[1];
}

void kinematics_full_contacts(const kinematics_model *km, const double q[3], const double qd[3],
                              double c[4], double cd[4]) {
  for (int i = 0; i < km->n; i++)
    kinematics_contact_full(km->p[i], km->s[i], km->nrm[i], km->tan_[i], q, qd, c + 2 * i,
                            cd + 2 * i);
  for (int k = 2 * km->n; k < 4; k++) c[k] = cd[k] = 0;
}

void kinematics_contact_jacobian(const double p[2], const double nrm[2], const double tan[2],
                                 const double q[3], const double qd[3], double col[2][3],
                                 double bias[2]) {
  const double ct = cos(q[2]), st = sin(q[2]);
  const double Rp[2] = {ct * p[0] - st * p[1], st * p[0] + ct * p[1]};
  const double JRp[2] = {-Rp[1], Rp[0]};
  const double *dir[2] = {nrm, tan};
  for (int k = 0; k < 2; k++) {
    col[k][0] = dir[k][0];
    col[k][1] = dir[k][1];
    col[k][2] = dir[k][0] * JRp[0] + dir[k][1] * JRp[1];
    bias[k] = -qd[2] * qd[2] * (dir[k][0] * Rp[0] + dir[k][1] * Rp[1]);
  }
}

void kinematics_full_jacobian(const kinematics_model *km, const double q[3], const double qd[3],
                              double W[3][4], double bias[4]) {
  memset(W, 0, sizeof(double) * 12);
  for (int k = 0; k < 4; k++) bias[k] = 0;
  for (int i = 0; i < km->n; i++) {
    double col[2][3];
    kinematics_contact_jacobian(km->p[i], km->nrm[i], km->tan_[i], q, qd, col, bias + 2 * i);
    for (int k = 0; k < 2; k++)
      for (int r = 0; r < 3; r++) W[r][2 * i + k] = col[k][r];
  }
}

double kinematics_body_energy(const double inv_mass[3], const double h[3], const double q[3],
                              const double qd[3]) {
  double kin = 0, pot = 0;
  for (int k = 0; k < 3; k++) {
    kin += 0.5 * qd[k] * qd[k] / inv_mass[k];
    pot -= h[k] * q[k];
  }
  return kin + pot;
}

double kinematics_energy(const kinematics_model *km, const double q[3], const double qd[3]) {
  return kinematics_body_energy(km->inv_mass, km->h, q, qd);
}
