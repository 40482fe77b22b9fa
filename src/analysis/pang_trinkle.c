// Pang & Trinkle, weak and strong stability of a frictional equilibrium in
// the plane (seeds/pang-trinkle-stability.txt) for one or two contacts:
// weak stability as the LP of system (7), strong stability through the
// inequality systems (32)-(35) of Theorem 4 and the witness load of
// Proposition 5 (contact_set.c's N-contact check, run on the problem).
#include <math.h>
#include <string.h>

#include "analysis/analysis_units.h"
#include "analysis/contact_problem_internal.h"
#include "analysis/contact_set_problem.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"
#include "zeno/equilibrium.h"
#include "zeno/pang_trinkle.h"

/// Weak stability uses the closed cones: a margin down to -1e-10 of the load
/// counts as zero (rounding of forces of the load's size is ~1e-16 of it;
/// the margin LP's vertex is exact to a few ulps of its lever ratios).
#define PT_WEAK_RTOL 1e-10
/// Cap of the weak-stability margin relative to the load (as in
/// equilibrium.c): only a wedged body, with an unbounded margin, reaches it.
#define PT_MARGIN_CAP_FACTOR 1e6

zeno_status zeno_strong_stability_check(const zeno_contact_problem *p, zeno_strong_stability *r,
                                        zeno_error *e) {
  if (r == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "result is NULL");
  zeno_status st = contact_problem_check(p, 1, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  // The N-contact check (contact_set.c) on the problem as given.
  contact_set_problem q;
  memset(&q, 0, sizeof q);
  q.n = p->contact_count;
  for (int i = 0; i < q.n; i++) {
    memcpy(q.normal[i], p->normal[i], sizeof q.normal[i]);
    memcpy(q.tangent[i], p->tangent[i], sizeof q.tangent[i]);
    q.mu[i] = p->mu[i];
  }
  memcpy(q.inv_mass, p->inv_mass, sizeof q.inv_mass);
  memcpy(q.load, p->load, sizeof q.load);
  contact_set_theorem4 t4;
  if ((st = contact_set_theorem4_check(&q, &t4, e)) != ZENO_OK) return st;
  r->systems = t4.systems;
  r->consistent = t4.consistent;
  for (int k = 0; k < ZENO_PT_SIGNS; k++) r->consistent_by_sign[k] = t4.consistent_by_sign[k];
  r->weak_implies_strong = t4.consistent == 0;
  r->witness_sign = t4.witness_sign;
  r->witness_gamma = t4.witness_gamma;
  memcpy(r->witness_load, t4.witness_load, sizeof r->witness_load);
  return ZENO_OK;
}

zeno_status zeno_weak_stability_check(const zeno_contact_problem *p, zeno_weak_stability *r,
                                      zeno_error *e) {
  if (r == NULL) return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "result is NULL");
  zeno_status st = contact_problem_check(p, 1, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  const double scale = contact_problem_force_scale(p);
  lp_margin_lp lp = {.n = p->contact_count,
                     .mu = {p->mu[0], p->mu[1]},
                     .cap = PT_MARGIN_CAP_FACTOR * scale,
                     .scale = scale};
  contact_problem_jacobian(p, lp.W);
  for (int k = 0; k < 3; k++) lp.rhs[k] = -p->load[k];
  lp_margin_result res;
  st = lp_margin_lp_solve(&lp, &res, e);
  if (st != ZENO_OK) return st;
  r->margin = res.margin;
  r->unbounded = res.capped;
  r->weakly_stable = res.feasible && res.margin >= -PT_WEAK_RTOL * scale;
  lp_margin_forces(&res, p->contact_count, r->forces);
  return ZENO_OK;
}

zeno_status zeno_scene_stability_check(const zeno_scene *scene, zeno_scene_stability *r,
                                       zeno_error *e) {
  if (scene == NULL || r == NULL)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "scene and result are required");
  // Validated as given (errors quote the user's values), then computed in
  // the scene's own units (scene_units.h) and converted back at the end.
  zeno_status st = zeno_scene_validate(scene, e);
  if (st != ZENO_OK) return st;
  const scene_units u = scene_units_of(scene);
  zeno_scene own;
  scene_in_units(scene, u, &own);
  scene = &own;
  zeno_contact_problem p;
  st = zeno_contact_problem_from_scene(scene, &p, e);
  if (st != ZENO_OK) return st;
  if (p.contact_count != 2)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts",
                     "stability of an equilibrium needs two contacts; the "
                     "scene has %d",
                     p.contact_count);
  memset(r, 0, sizeof *r);
  if ((st = zeno_weak_stability_check(&p, &r->weak, e)) != ZENO_OK) return st;
  if ((st = zeno_strong_stability_check(&p, &r->theorem4, e)) != ZENO_OK) return st;
  zeno_equilibrium_report eq;
  if ((st = zeno_equilibrium_check(scene, &eq, e)) != ZENO_OK) return st;
  r->strong_by_theorem4 = r->weak.weakly_stable && r->theorem4.weak_implies_strong;
  r->unstable_mode_count = eq.ambiguous_count;
  memcpy(r->unstable_modes, eq.ambiguous_modes, sizeof r->unstable_modes);
  r->strongly_stable = r->weak.weakly_stable && r->unstable_mode_count == 0;
  analysis_scene_stability_to_user(u, r);
  return ZENO_OK;
}
