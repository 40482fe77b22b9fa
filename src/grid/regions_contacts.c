// Region-map points of more than two contacts (issue 34: "stability of the
// equilibrium by simulation ... regions Monte-Carlo columns work for N"). No
// theorem of the paper decides N contacts, so a point's region is Pang &
// Trinkle's static verdict (zeno_contact_set_check): 0 when no force in the
// open cones balances the load, 6 when rest and motion both solve the
// contact problem (weakly, not strongly, stable: Theorem 1's ambiguity), 7
// otherwise; a region-7 point is then simulated from seeded perturbations,
// as a two-contact map's region-7 points are, on the N-contact engine.
//
// A perturbation is drawn in the engine's coordinates q' (simn.h: three
// contact coordinates, the gaps first): its gaps in [0, 1), its slips 0
// (their shifts are the equilibria's family), its rates in [-1, 1)^3, every
// fourth run touching at its first coordinate and every fourth (shifted) at
// its second, moving away. A draw that puts another contact below its
// surface is drawn again. Under the ZOD the unit size is no loss (24); the
// full model (mc_full) starts at eps^2 q', eps q'dot through the exact
// coordinates (simn_full_pose).
#include <math.h>

#include "base/util.h"
#include "dynamics/kinematics.h"
#include "grid/regions_internal.h"
#include "simn/simn.h"
#include "zeno/contact_set.h"
#include "zeno/sim.h"

#define MAXV (2 * SIMN_MAX_CONTACTS)
/// Draws of one perturbation at most; one never drawn is not run (mc_runs
/// counts the runs made). A free draw on the shipped scenes penetrates
/// another contact at most one time in two (a collinear third corner below
/// the line of the first two), so 64 fail with probability 2^-64; a
/// touching one may never be drawn (touching at a middle corner of three
/// on a line puts an outer one below its surface when the other lifts).
#define MC_CONTACTS_DRAWS 64

// A draw of the k-th perturbation in q' (the file comment); false when it
// puts a contact below its surface.
static bool draw(const simn_model *m, uint64_t *stream, int k, double qp[3], double qdp[3]) {
  for (int r = 0; r < 3; r++) {
    const bool gap = m->coord[r] >= 0 && m->coord[r] % 2 == 0;
    qp[r] = gap ? regions_uniform01(stream) : 0;
  }
  for (int r = 0; r < 3; r++) qdp[r] = 2 * regions_uniform01(stream) - 1;
  const int touch = k % MC_TOUCH_PERIOD;
  if (touch < 2 && m->coord[touch] >= 0 && m->coord[touch] % 2 == 0)
    qp[touch] = 0, qdp[touch] = fabs(qdp[touch]);
  double c[MAXV], cd[MAXV];
  simn_contacts(m, qp, qdp, c, cd);
  for (int i = 0; i < m->n; i++)
    if (c[2 * i] < 0) return false;
  return true;
}

// The energy over the equilibrium family at the pose q and rate qd (regions.c's
// energy_over_family for N): kinetic plus the load's potential with q''s
// slips set to zero.
static double energy_over_family(const simn_model *m, const double q[3], const double qd[3]) {
  double y[3], on[3];
  simn_of_gen(m, q, y);
  for (int r = 0; r < 3; r++)
    if (m->coord[r] >= 0 && m->coord[r] % 2 == 1) y[r] = 0;
  simn_to_gen(m, y, on);
  return kinematics_body_energy(m->dyn.inv_mass, m->dyn.h, on, qd);
}

// One run from the pose q, rate qd in the scene's model; its fate.
static zeno_status run_from(const zeno_scene *base, zeno_model model, const simn_model *m,
                            const double q[3], const double qd[3], const zeno_interrupt *interrupt,
                            run_fate *fate, zeno_error *error) {
  zeno_summary summary;
  const zeno_status st = regions_run(base, model, ZENO_INITIAL_POSE, q, qd, interrupt, &summary,
                                     error);
  *fate = RUN_DEPARTS;
  if (st != ZENO_OK) return st;
  if (summary.outcome == ZENO_OUTCOME_REST) {
    *fate = RUN_RESTS;
  } else if (summary.outcome == ZENO_OUTCOME_TIME_LIMIT ||
             summary.outcome == ZENO_OUTCOME_EVENT_LIMIT) {
    const zeno_state *fin = &summary.final_state;
    if (energy_over_family(m, fin->q, fin->qdot) < energy_over_family(m, q, qd))
      *fate = RUN_RETURNING;
  }
  return ZENO_OK;
}

// The k-th perturbation's runs (ZOD, and the full model with mc_full).
static zeno_status perturbed_runs(const zeno_regions_def *def, const zeno_scene *scene,
                                  const simn_model *m, uint64_t *stream, int k,
                                  const zeno_interrupt *interrupt, zeno_region_point *p,
                                  zeno_error *error) {
  double qp[3], qdp[3], q[3], qd[3];
  bool drawn = false;
  for (int d = 0; d < MC_CONTACTS_DRAWS && !drawn; d++) drawn = draw(m, stream, k, qp, qdp);
  if (!drawn) return ZENO_OK;
  run_fate fate = RUN_DEPARTS;
  simn_to_gen(m, qp, q);
  simn_to_gen(m, qdp, qd);
  zeno_status st = run_from(scene, ZENO_MODEL_ZOD, m, q, qd, interrupt, &fate, error);
  if (st != ZENO_OK) return st;
  p->mc_runs++;
  p->mc_rest += fate == RUN_RESTS;
  p->mc_slow += fate == RUN_RETURNING;
  if (!def->mc_full) return ZENO_OK;
  fate = RUN_DEPARTS;
  const double eps = scene->epsilon;
  double sp[3], sdp[3];
  for (int r = 0; r < 3; r++) sp[r] = eps * eps * qp[r], sdp[r] = eps * qdp[r];
  simn_model full = *m;
  full.full = true;
  st = simn_full_pose(&full, sp, sdp, q, qd, error);
  if (st == ZENO_OK) st = run_from(scene, ZENO_MODEL_FULL, m, q, qd, interrupt, &fate, error);
  if (st == ZENO_ERR_GEOMETRY) st = ZENO_OK;  // no exact start: a run that departs
  if (st != ZENO_OK) return st;
  p->mc_full_runs++;
  p->mc_full_rest += fate == RUN_RESTS;
  p->mc_slow += fate == RUN_RETURNING;
  return ZENO_OK;
}

zeno_status regions_contacts_point(const zeno_regions_def *def, const zeno_scene *scene,
                                   const zeno_interrupt *interrupt, zeno_region_point *p,
                                   zeno_error *error) {
  zeno_contact_set_def cs;
  zeno_contact_set_report rep;
  zeno_status st = zeno_contact_set_def_from_scene(scene, &cs, error);
  if (st == ZENO_OK) st = zeno_contact_set_check(&cs, &rep, error);
  if (st != ZENO_OK) return st;
  p->theorem = 0;
  if (!rep.feasible) {
    p->region = 0;  // no static equilibrium: sticking is not consistent
    p->verdict = ZENO_VERDICT_UNSTABLE;
    return ZENO_OK;
  }
  if (rep.ambiguous) {
    p->region = 6;  // rest and motion both solve: unstable (Theorem 1's ambiguity)
    p->theorem = 1;
    p->verdict = ZENO_VERDICT_UNSTABLE;
    return ZENO_OK;
  }
  p->region = ZENO_REGION_COUNT - 1;
  p->verdict = ZENO_VERDICT_UNDECIDED;
  if (def->mc_runs <= 0) return ZENO_OK;
  simn_model m;
  st = simn_model_of_scene(scene, &m, error);
  if (st != ZENO_OK) return st;
  uint64_t stream = regions_stream(def->mc_seed, p->ix, p->iy);
  for (int k = 0; k < def->mc_runs && st == ZENO_OK; k++) {
    st = zeno_interrupt_check(interrupt, error);
    if (st == ZENO_OK) st = perturbed_runs(def, scene, &m, &stream, k, interrupt, p, error);
  }
  if (st != ZENO_OK) return st;
  if (p->mc_runs > 0) p->sim = regions_sim_verdict(p);
  return ZENO_OK;
}
