// Checks of the nominal equilibrium: SS feasibility with its margin (for two
// contacts the max-margin LP of equilibrium_lp.h, solved in closed form on
// the family of balancing forces), the index ordering
// (13), ambiguity (Theorem 1) and the Painlevé bounds (11).
#include <math.h>
#include <string.h>

#include "analysis/analysis_units.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"
#include "dynamics/contact_order.h"
#include "dynamics/contact_solve.h"
#include "dynamics/kinematics.h"
#include "dynamics/mode_table.h"
#include "zeno/equilibrium.h"

/// Strictness threshold of the consistency inequalities, relative to the
/// load (as zeno_sim_def.force_rtol).
#define EQ_FORCE_RTOL 1e-10

/// Cap of the LP margin, relative to the load (force_scale): a bounded
/// margin never exceeds the load's own size by more than the geometry's
/// lever ratios (1e2 for the paper's examples), so 1e6 is only reached by a
/// wedged body, whose margin is unbounded.
#define EQ_MARGIN_CAP_FACTOR 1e6

// One contact: the S solve; rest needs zero acceleration as well.
static zeno_status static_one(const kinematics_model *km, const contact_dyn *d, const mode_tol *tol,
                              zeno_equilibrium_report *rep, zeno_error *error) {
  mode_solution ss;
  double margin = -INFINITY;
  if (!mode_static(d, &ss, &margin))
    return zeno_fail(error, ZENO_ERR_SINGULAR, "contacts",
                     "the contact Jacobian is singular: the static forces are "
                     "undetermined");
  bool still = true;
  for (int k = 0; k < 3; k++)
    if (fabs(ss.qdd[k]) * (k == 2 ? km->length_scale : 1.0) > tol->accel) still = false;
  rep->margin = margin;
  rep->feasible = margin > tol->force && still;
  rep->forces[0][0] = ss.force[0];
  rep->forces[0][1] = ss.force[1];
  return ZENO_OK;
}

// Two contacts: the max-margin static LP (equilibrium_lp.h's), solved
// exactly on the line of forces balancing the load (contact_static_family_capped):
// a concave piecewise-linear function of one variable, no simplex needed.
// GLPK's solution of the same LP is the test's reference.
static zeno_status static_two(const kinematics_model *km, const contact_dyn *d, const mode_tol *tol,
                              zeno_equilibrium_report *rep, zeno_error *error) {
  const double rhs[3] = {-d->h[0], -d->h[1], -d->h[2]};
  const double cap = EQ_MARGIN_CAP_FACTOR * km->force_scale;
  double force[4], margin;
  if (!contact_static_family_capped(d, rhs, cap, force, &margin))
    return zeno_fail(error, ZENO_ERR_SINGULAR, "contacts",
                     "the contact Jacobian is singular: the static forces are "
                     "undetermined");
  rep->margin = margin;
  rep->wedged = margin >= cap * (1 - LP_CAP_RTOL);
  rep->feasible = margin > tol->force;
  for (int i = 0; i < 2; i++) {
    rep->forces[i][0] = force[2 * i];
    rep->forces[i][1] = force[2 * i + 1];
  }
  return ZENO_OK;
}

// The report of a scene in its own units (scene_units.h).
static zeno_status check_in_own_units(const zeno_scene *scene, zeno_equilibrium_report *rep,
                                      zeno_error *error) {
  kinematics_model km;
  zeno_status st = kinematics_model_init(&km, scene, error);
  if (st != ZENO_OK) return st;
  contact_dyn d;
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(&d, km.n, km.W0, km.inv_mass, km.h, bias, km.mu);
  memset(rep, 0, sizeof *rep);
  rep->contact_count = km.n;
  const mode_tol tol = {EQ_FORCE_RTOL * km.force_scale, EQ_FORCE_RTOL * km.accel_scale, false};

  st = km.n == 2 ? static_two(&km, &d, &tol, rep, error) : static_one(&km, &d, &tol, rep, error);
  if (st != ZENO_OK) return st;
  contact_order order;
  contact_order_of(&d, km.n, &order);
  memcpy(rep->zdd_ff, order.zdd_ff, sizeof rep->zdd_ff);
  rep->index_order_ok = order.ok;
  rep->index_order_swappable = order.swappable;
  for (int i = 0; i < km.n; i++) {
    rep->painleve_bound[i] = zeno_painleve_bound(km.rho, km.p[i], scene->contacts[i].surface_angle);
    rep->painleve_ok[i] = km.mu[i] < rep->painleve_bound[i];
  }

  // Theorem 1: non-static modes consistent at zero velocity, all contacts closed.
  mode_class cls;
  memset(&cls, 0, sizeof cls);
  for (int i = 0; i < km.n; i++) {
    cls.gap[i] = MODE_GAP_CLOSED;
    cls.slip[i] = MODE_SLIP_ZERO;
  }
  mode_solution all[ZENO_MAX_MODES];
  const int n = mode_enumerate(&d, &cls, &tol, all);
  for (int k = 0; k < n; k++) {
    if (all[k].is_static) continue;
    bool stick_all = true;
    for (int i = 0; i < km.n; i++)
      if (all[k].mode.letter[i] != ZENO_LETTER_S) stick_all = false;
    if (stick_all) continue;
    rep->ambiguous_modes[rep->ambiguous_count++] = all[k].mode;
  }
  return ZENO_OK;
}

zeno_status zeno_equilibrium_check(const zeno_scene *scene, zeno_equilibrium_report *rep,
                                   zeno_error *error) {
  if (scene == NULL || rep == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and report are required");
  zeno_status st = zeno_scene_validate(scene, error);
  if (st != ZENO_OK) return st;
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  st = check_in_own_units(&own, rep, error);
  if (st == ZENO_OK) analysis_equilibrium_to_user(u, rep);
  return st;
}
