// Impact laws for N contacts (issue 34, slice 4): the complementarity law
// (15) in Glocker & Pfeiffer's form for any set of touching contacts, with
// Newton's restitution target, and Chatterjee-Ruina for single impacts. For
// two contacts it tries the candidates of impact.c in the same order and
// with the same checks (docs/model.md, "Impacts at N contacts").
//
// A candidate gives each touching contact a letter: F (no impulse), or an
// impulse that leaves it sticking (S) or slipping (P, N). Its equalities
// (per contact with an impulse: the normal velocity at its target, and the
// tangential velocity zero (S) or the impulse on the cone's edge (P, N))
// are solved directly when they fix the impulses; with redundant contacts
// (several sticking) they fix the velocities only, and the impulses are the
// max-margin member of their family, found by an LP (lp.h). Not public API.
#ifndef ZENO_DYNAMICS_IMPACT_N_H
#define ZENO_DYNAMICS_IMPACT_N_H

#include <stdbool.h>

#include "dynamics/mode_n.h"
#include "zeno/error.h"
#include "zeno/impact_law.h"

/// Candidates tried at most: every letter (F, S, P, N) of up to eight
/// touching contacts (4^8). More touching contacts are refused with
/// ZENO_ERR_UNSUPPORTED naming `contacts`.
#define IMPACT_N_MAX_CANDIDATES 65536

/// The dynamics an impact sees: mode_n_dyn's W, M^-1 and friction with the
/// Delassus matrix D = W^T M^-1 W.
typedef struct impact_n_dyn {
  const mode_n_dyn *d;
  double D[2 * MODE_N_MAX_CONTACTS][2 * MODE_N_MAX_CONTACTS];
} impact_n_dyn;

/// Fills D from d (kept by pointer: d must outlive the result).
void impact_n_dyn_build(const mode_n_dyn *d, impact_n_dyn *out);

typedef struct impact_n_input {
  zeno_impact_law law;
  double e;                             ///< normal restitution
  double et;                            ///< tangential restitution (Chatterjee-Ruina)
  double qd[3];                         ///< pre-impact generalised velocity
  double v[2 * MODE_N_MAX_CONTACTS];    ///< pre-impact contact velocities (zdot_i, xdot_i)
  bool touching[MODE_N_MAX_CONTACTS];   ///< z_i = 0 (closed or impacting)
  bool impacting[MODE_N_MAX_CONTACTS];  ///< z_i = 0 and zdot_i < 0
  double tol_v;                         ///< zero velocity [length/time]
  double tol_impulse;                   ///< zero impulse [force*time]
} impact_n_input;

typedef struct impact_n_result {
  unsigned mask;                              ///< bit i: contact i received an impulse
  unsigned char letter[MODE_N_MAX_CONTACTS];  ///< S/P/N with an impulse, F otherwise
  double impulse[2 * MODE_N_MAX_CONTACTS];    ///< (n_i, t_i) [force*time]
  double v[2 * MODE_N_MAX_CONTACTS];          ///< post-impact contact velocities
  double qd[3];                               ///< post-impact generalised velocity
} impact_n_result;

/// Whether the generalised 3-vectors rows[0..k-1] (k <= 3) are
/// independent: their Gram matrix is regular (pivots above
/// ZENO_PIVOT_RTOL).
bool contact_n_independent(double rows[][3], int k);

/// Mass-weighted correction of the generalised velocity (or position) v so
/// that the listed contact rows W^T v (columns of d->W) take the targets,
/// over an independent subset of the rows in their order (at most three):
/// dv = M^-1 C (C^T M^-1 C)^-1 r. Returns the rank used (3: v is fixed).
int contact_n_correct(const mode_n_dyn *d, const int *cols, int count, const double *target,
                      double v[3]);

/// Resolves one impact: *resolved false when no candidate of the law is
/// consistent (an inconsistent impact). Errors: ZENO_ERR_UNSUPPORTED for
/// more touching contacts than IMPACT_N_MAX_CANDIDATES allows, and the
/// LP's.
zeno_status impact_n_resolve(const impact_n_dyn *d, const impact_n_input *in, impact_n_result *out,
                             bool *resolved, zeno_error *e);

#endif
