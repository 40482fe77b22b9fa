// An impact inside the hybrid loop: the impact law's input at the current
// state, the Poincaré section (22), and the state after the law's result.
// Shared by the event loop (sim.c) and the fast cycle (sim_cycle.c).
#include <math.h>
#include <string.h>

#include "sim/sim_internal.h"

double sim_impact_input(zeno_sim *s, const mode_class *cls, const bool gap_hit[2],
                        const double cd[4], const tolerances *tol, impact_input *in,
                        unsigned *touched) {
  memset(in, 0, sizeof *in);
  memcpy(in->v, cd, sizeof in->v);
  in->law = s->scene.impact_law;
  in->e = zeno_impact_law_restitution(&s->scene);
  in->et = zeno_impact_law_tangential_restitution(&s->scene);
  sim_rates_to_gen(s, s->run.qd, in->qd);
  double speed = 0;
  *touched = 0;
  for (int i = 0; i < s->km.n; i++) {
    in->touching[i] = cls->gap[i] != MODE_GAP_OPEN || gap_hit[i];
    in->impacting[i] = cls->gap[i] == MODE_GAP_IMPACTING;
    if (in->impacting[i]) speed = fmax(speed, -in->v[2 * i]);
    if (in->touching[i]) *touched |= 1u << i;
  }
  in->tol_v = tol->v;
  in->tol_impulse = tol->impulse;
  in->maps = sim_has_table(s) ? &s->table.letters : NULL;
  return speed;
}

bool sim_on_section(const zeno_sim *s, const mode_class *cls, const double cd[4], double *angle) {
  // Contact 1 sustained, contact 2 colliding.
  if (s->km.n != 2 || cls->gap[0] != MODE_GAP_CLOSED || cls->gap[1] != MODE_GAP_IMPACTING)
    return false;
  *angle = atan(cd[3] / fabs(cd[2]));
  return true;
}

void sim_impact_apply(zeno_sim *s, const impact_input *in, const impact_result *out,
                      const tolerances *tol, mode_class *cls) {
  sim_gen_to_rates(s, out->qd, s->run.qd);
  sim_refresh_dyn(s);  // the centripetal terms follow the new velocities
  // Post-impact classes: touching contacts close unless they separate.
  bool touch_after[2];
  for (int i = 0; i < 2; i++) touch_after[i] = i < s->km.n && in->touching[i];
  sim_classify(s, touch_after, tol->v, cls);
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
  sim_enforce(s, cls);
}
