// Impact laws: the inelastic law (15) of the paper with its preference list,
// Newton restitution with Coulomb friction (the same complementarity with
// a restitution target), and Chatterjee-Ruina for single impacts.
#ifndef ZENO_DYNAMICS_IMPACT_H
#define ZENO_DYNAMICS_IMPACT_H

#include <stdbool.h>

#include "dynamics/contact_solve.h"
#include "dynamics/mode_table.h"
#include "zeno/scene.h"

typedef struct impact_input {
  zeno_impact_law law;
  double e;      ///< normal restitution
  double et;     ///< tangential restitution (Chatterjee-Ruina)
  double qd[3];  ///< pre-impact generalised velocity
  double v[4];   ///< pre-impact contact velocities (zdot1, xdot1, zdot2, xdot2)
  bool touching[ZENO_PAIR_CONTACTS];   ///< z_i = 0 (closed or impacting)
  bool impacting[ZENO_PAIR_CONTACTS];  ///< z_i = 0 and zdot_i < 0
  double tol_v;                        ///< zero velocity [length/time]
  double tol_impulse;                  ///< zero impulse [force*time]
  /// Constant dynamics (the ZOD): the letter systems' maps, made at first
  /// use (NULL: each candidate is solved).
  contact_letter_maps *maps;
} impact_input;

typedef struct impact_result {
  unsigned mask;                             ///< bit i: contact i received an impulse
  unsigned char letter[ZENO_PAIR_CONTACTS];  ///< S/P/N for contacts with impulse, F otherwise
  double impulse[4];                         ///< (n1, t1, n2, t2) [force*time]
  double v[4];                               ///< post-impact contact velocities
  double qd[3];                              ///< post-impact generalised velocity
} impact_result;

/// Chatterjee & Ruina's impulse (pn, pt) at one contact from its
/// frictionless plastic normal impulse pn_I and its sticking plastic
/// impulse (pn_II, pt_II): (1 + e) P_I + (1 + et) (P_II - P_I), its second
/// coefficient lowered onto the friction cone's edge when outside. Returns
/// the contact's letter: S inside the cone, P or N on its edge.
unsigned char impact_chatterjee_ruina(double mu, double e, double et, double pn_I, double pn_II,
                                      double pt_II, double *pn, double *pt);

/// Whether the impulse x adds kinetic energy above rounding: the change
/// x . (v- + D x / 2) in contact space (m coordinates, D row-major with
/// `stride`) above IMPACT_ENERGY_RTOL of |x . v-| (Chatterjee-Ruina's
/// fallback never does).
bool impact_adds_energy(int m, const double *D, int stride, const double *v, const double *x);

/// The one impacting contact of n, or -1 when none or several impact
/// (Chatterjee-Ruina resolves single impacts).
int impact_single_contact(const bool *impacting, int n);

/// Resolves one impact. Returns false when no candidate of the law is
/// consistent (an inconsistent impact, Painlevé-type).
bool impact_resolve(const contact_dyn *d, const impact_input *in, impact_result *out);

/// The proof of an impact impact_resolve() could not resolve: every
/// candidate of the complementarity law (15) for the touching contacts,
/// solved afresh, with the condition it violates, indexed by its letters'
/// code (F: no impulse at that contact).
void impact_explain(const contact_dyn *d, const impact_input *in, refusal_table *out);

/// Makes the maps of the double stick and of the statically indeterminate
/// family under constant dynamics d, if they are not made (impact_resolve()
/// makes them as it meets them; a letter pair's map is
/// contact_letter_map_make()'s).
void impact_stick_maps_make(const contact_dyn *d, contact_letter_maps *maps);

#endif
