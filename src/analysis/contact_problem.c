// The Pang–Trinkle form of a body on point contacts (zeno_contact_problem):
// built from a scene, validated, and its Delassus matrix.
#include "analysis/contact_problem_internal.h"
#include "analysis/contact_set_problem.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

/// A contact's normal and tangent force directions count as parallel when
/// |n x t| is below this fraction of |n| |t|: friction then has no
/// direction of its own. Scenes give |n x t| = 1.
#define CONTACT_PROBLEM_PARALLEL_RTOL 1e-12

zeno_status zeno_contact_problem_from_scene(const zeno_scene *scene, zeno_contact_problem *p,
                                            zeno_error *error) {
  if (scene == NULL || p == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and problem are required");
  zeno_status st = zeno_scene_validate(scene, error);
  if (st == ZENO_OK) st = zeno_scene_require_pair(scene, error);
  if (st != ZENO_OK) return st;
  memset(p, 0, sizeof *p);
  p->contact_count = scene->contact_count;
  for (int i = 0; i < scene->contact_count; i++) {
    const zeno_contact_def *c = &scene->contacts[i];
    contact_wrenches(c->point, c->surface_angle, p->normal[i], p->tangent[i]);
    p->mu[i] = c->mu;
  }
  p->inv_mass[0] = p->inv_mass[1] = 1.0 / scene->mass;
  p->inv_mass[2] = 1.0 / (scene->mass * scene->rho * scene->rho);
  p->load[0] = scene->load_magnitude * sin(scene->load_angle);
  p->load[1] = -scene->load_magnitude * cos(scene->load_angle);
  p->load[2] = scene->load_torque;
  return ZENO_OK;
}

static bool all_finite(const double *v, int n) {
  for (int k = 0; k < n; k++)
    if (!isfinite(v[k])) return false;
  return true;
}

static zeno_status check_contact(const zeno_contact_problem *p, int i, zeno_error *e) {
  const double *n = p->normal[i], *t = p->tangent[i];
  if (!all_finite(n, 3) || !all_finite(t, 3))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.normal",
                     "contact %d: a wrench entry is NaN or infinite", i + 1);
  if (!(p->mu[i] >= 0) || !isfinite(p->mu[i]))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.mu",
                     "contact %d: friction coefficient %g; allowed [0, inf)", i + 1, p->mu[i]);
  const double cross = n[0] * t[1] - n[1] * t[0];
  if (!(fabs(cross) > CONTACT_PROBLEM_PARALLEL_RTOL * hypot(n[0], n[1]) * hypot(t[0], t[1])))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.tangent",
                     "contact %d: normal and tangent forces are parallel "
                     "(or zero)",
                     i + 1);
  return ZENO_OK;
}

zeno_status contact_problem_check(const zeno_contact_problem *p, int min_contacts, zeno_error *e) {
  if (p == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "problem is NULL");
  if (p->contact_count < min_contacts || p->contact_count > ZENO_PAIR_CONTACTS)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.contact_count", "%d contacts; allowed %d to %d",
                     p->contact_count, min_contacts, ZENO_PAIR_CONTACTS);
  for (int k = 0; k < 3; k++)
    if (!(p->inv_mass[k] > 0) || !isfinite(p->inv_mass[k]))
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.inv_mass",
                       "inverse mass entries must be positive and finite");
  if (!all_finite(p->load, 3))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "problem.load", "a load entry is NaN or infinite");
  for (int i = 0; i < p->contact_count; i++) {
    const zeno_status st = check_contact(p, i, e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// Column a of J in Pang–Trinkle order (n_1 .. n_nc, t_1 .. t_nc).
static const double *pt_column(const zeno_contact_problem *p, int a) {
  const int nc = p->contact_count;
  return a < nc ? p->normal[a] : p->tangent[a - nc];
}

void contact_problem_delassus(const zeno_contact_problem *p, double A[4][4]) {
  memset(A, 0, sizeof(double) * 16);
  const int m = 2 * p->contact_count;
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) {
      const double *ca = pt_column(p, a), *cb = pt_column(p, b);
      double s = 0;
      for (int k = 0; k < 3; k++) s += ca[k] * p->inv_mass[k] * cb[k];
      A[a][b] = s;
    }
}

void contact_problem_jacobian(const zeno_contact_problem *p, double W[3][4]) {
  memset(W, 0, sizeof(double) * 12);
  for (int i = 0; i < p->contact_count; i++)
    for (int k = 0; k < 3; k++) {
      W[k][2 * i] = p->normal[i][k];
      W[k][2 * i + 1] = p->tangent[i][k];
    }
}

double contact_problem_force_scale(const zeno_contact_problem *p) {
  const double rho = sqrt(p->inv_mass[0] / p->inv_mass[2]);
  const double s = hypot(p->load[0], p->load[1]) + fabs(p->load[2]) / rho;
  return s > 0 ? s : 1.0 / p->inv_mass[0];
}
