/// @file jamming.h
/// Jamming and wedging of a body on frictional point contacts (Dupont &
/// Yamajako, "Jamming and wedging in constrained rigid-body dynamics",
/// seeds/dupont-jamming-wedging.txt).
///
/// In the plane the friction pyramid (5) and the Coulomb cone (4) coincide:
/// |c_t| <= mu c_n. Every test here is a linear program solved with GLPK;
/// the library sets GLPK's terminal output off for the call (and restores
/// it), so nothing is printed.
#ifndef ZENO_JAMMING_H
#define ZENO_JAMMING_H

#include <stdbool.h>
#include "zeno/api.h"
#include "zeno/contact_problem.h"
#include "zeno/error.h"
#include "zeno/mode.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Dupont's jamming coefficient (Theorem 1, eq. (43) for a rod) of contact
/// `contact` (0-based) slipping alone in direction `slip` (ZENO_LETTER_P:
/// xdot_i > 0, ZENO_LETTER_N: xdot_i < 0): the friction coefficient at which
/// the slipping mode's normal-force equation (D_nn - s mu D_nt) c_n = -a_n
/// (s = +1 for P, -1 for N) loses rank, mu_J = D_nn / (s D_nt). INFINITY
/// when s D_nt <= 0 (that direction never jams). The smaller of the two
/// directions is the Painlevé bound (11) of the contact.
ZENO_API zeno_status zeno_jamming_coefficient(const zeno_contact_problem *problem, int contact,
                                              zeno_letter slip, double *mu_jam, zeno_error *error);

/// Result of zeno_wedging_check().
typedef struct zeno_wedging {
  /// Dupont Theorem 2: a nonzero self-equilibrated pair of contact forces
  /// lies in both closed friction cones (the force columns are dependent
  /// for some mu_W <= mu).
  bool wedged;
  /// Largest over self-equilibrated pairs with c_n1 + c_n2 = 1 of the
  /// smallest cone slack [-]; > 0: strictly inside both cones (internal
  /// forces can grow without bound). -INFINITY when no such pair has a
  /// positive normal sum.
  double margin;
  /// The pair achieving the margin, (normal, tangential) per contact [-].
  double forces[ZENO_PAIR_CONTACTS][2];
  /// mu_W per contact: the smallest friction coefficient whose cone holds
  /// the line through both contacts, oriented so that both normal
  /// components are positive (the only possible direction of a
  /// self-equilibrated pair). INFINITY when no orientation has both.
  double wedging_mu[ZENO_PAIR_CONTACTS];
} zeno_wedging;

/// Wedging test of a two-contact problem (load not used). Fails with
/// ZENO_ERR_ARGUMENT for one contact.
ZENO_API zeno_status zeno_wedging_check(const zeno_contact_problem *problem, zeno_wedging *result,
                                        zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
