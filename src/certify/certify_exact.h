// The exact check of a weighted-degree-2 certificate (certify_exact.c,
// docs/certificate.md): V2 = c x2 + a1 z1 + a2 z2 + v^T P v with
// v = (u1, u2, w2), for the inelastic law with both free-flight gap
// accelerations negative (no free flight after the first impact). Every
// condition is then a sign of a rational expression in the scene's data (the
// doubles as exact rationals) and the coefficients: the decrease along the
// single-contact modes, whose motion is reversible in the free contact's
// gap, needs linear equalities that no floating-point check can prove, so
// the numerical coefficients are projected onto them in exact arithmetic
// (GMP) and every condition is decided exactly. Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_EXACT_H
#define ZENO_CERTIFY_CERTIFY_EXACT_H

#include <stdbool.h>
#include <stddef.h>

#include "certify/certify_system.h"
#include "zeno/error.h"

/// Unknowns of a weighted-degree-2 W: a1, a2, P00, P01, P02, P11, P12, P22.
#define CERT_EXACT_NX 8

typedef struct cert_exact_result {
  bool certified;
  char reason[200];
  int equalities;           ///< independent linear equalities imposed exactly
  double x[CERT_EXACT_NX];  ///< the projected coefficients, rounded to double
  double shift;             ///< largest |projected - given| coefficient change
  int generators;           ///< Newton's law: most generators of a flight's cone
} cert_exact_result;

/// Whether the exact check applies to the system: the inelastic law and
/// both free-flight gap accelerations negative (no flight after the first
/// impact), or Newton's law with a free-flight gap acceleration negative
/// (every impact after a flight of any duration: certify_flight.h).
bool cert_exact_applies(const cert_system *s);

/// Projects x0 onto the modes' equalities exactly and decides every
/// condition; the envelope's positivity with the multipliers kappa of V1
/// on V2's own side of the slip and on the other (kappa[1] NAN: the own
/// side only, a level floor's slip function): docs/certificate.md; the
/// pieces' chains with their multipliers lambda (cert_piece_verify; NULL:
/// none). ZENO_ERR_NOMEM only; an unmet condition is a result.
zeno_status cert_exact_verify(const cert_system *s, double c, const double x0[CERT_EXACT_NX],
                              const double kappa[2], const double *lambda, cert_exact_result *out,
                              zeno_error *e);

/// V1 (the energy) never grows across an impact case with the other contact
/// closed, decided exactly for the model's maps (as cert_exact_verify does); false
/// with a reason.
bool cert_exact_energy_ok(const cert_system *s, char *reason, size_t n);

#endif
