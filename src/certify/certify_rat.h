// The certificate's model solved exactly in GMP rationals (certify_rat.c,
// docs/certificate.md): the scene's data M', b, the contact directions Cp,
// mu and e are doubles, hence exact rationals; each mode's acceleration and
// each impact case's map and conditions are solved again from them, so that
// the identities the physics gives (a contact's force does no work along
// the other coordinates, an impact at zero approach speed changes nothing)
// hold exactly. Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_RAT_H
#define ZENO_CERTIFY_CERTIFY_RAT_H

#include <gmp.h>
#include <stdbool.h>

#include "certify/certify_system.h"

/// Row length of the square systems cert_rat_solve takes.
#define CERT_RAT_DIM CERT_MAX_MODES

/// Solves the square system M y = r (n x n, n <= CERT_RAT_DIM) in place (y in
/// r); false when M is singular.
bool cert_rat_solve(int n, mpq_t M[][CERT_RAT_DIM], mpq_t *r);

/// A mode's acceleration qddot' (free flight too), solved exactly; false
/// when singular.
bool cert_rat_mode_acc(const cert_system *s, zeno_mode m, mpq_t acc[3]);

/// An impact case solved exactly: qdot'+ = G qdot'- on cond[k] . qdot'- >= 0.
typedef struct cert_rat_case {
  mpq_t G[3][3];
  int ncond;
  mpq_t cond[CERT_MAX_CONDS][3];
} cert_rat_case;

void cert_rat_case_init(cert_rat_case *c);
void cert_rat_case_clear(cert_rat_case *c);

/// The case cs of the system (its letters, law and e) solved exactly: the
/// same map and conditions as certify_system.c builds in floating point.
/// False when its system is singular.
bool cert_rat_case_exact(const cert_system *s, const cert_case *cs, cert_rat_case *out);

#endif
