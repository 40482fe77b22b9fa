// Positivity of the Lyapunov certificate's envelope at weighted degree 2
// and (54) (certify_positivity.c, docs/certificate.md), as conditions of
// the sums-of-squares program on W's unknown coefficients. Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_POSITIVITY_H
#define ZENO_CERTIFY_CERTIFY_POSITIVITY_H

#include "certify/certify_system.h"
#include "sos/sos.h"

/// How a slip function's positivity is asked (docs/certificate.md).
typedef enum cert_positivity {
  /// (54), W - eps n >= 0 on z >= 0, with the sign conditions (55), (56)
  /// (checked by the caller): V1 alone bounds the other side of the slip.
  CERT_POS_SIGNS = 0,
  /// The envelope on V2's own side of the slip only (a level floor's V2+ or
  /// V2-, the other side is the other function's).
  CERT_POS_OWN_SIDE,
  /// The envelope on both sides, with V1 on the other.
  CERT_POS_BOTH_SIDES,
} cert_positivity;

/// (54): W - eps (z1 + z2 + |v|^2) >= 0 on z1, z2 >= 0, which with the sign
/// conditions (55), (56) makes max(V1, V2) positive definite.
zeno_status cert_positivity_signs(sos_program *prog, const sos_expr *w, double eps, int *count,
                                  zeno_error *e);

/// The envelope max(V1, V2) >= eps (n + |x2|) on one side of the slip (side
/// +1: c x2 >= 0, -1: c x2 <= 0) with a new scalar kappa of the program,
/// its index in *kvar: W + kappa (V1' - eps n) - eps n >= 0 on z >= 0,
/// kappa >= 0 and side (1 + kappa c b3) - eps (1 + kappa) >= 0.
zeno_status cert_positivity_side(sos_program *prog, const cert_system *s, const sos_expr *w,
                                 double c, int side, double eps, int *kvar, int *count,
                                 zeno_error *e);

#endif
