// Certificates of weighted degree 3 and 4 decided exactly
// (certify_quartic.c, docs/certificate.md): for the inelastic law with both
// free-flight gap accelerations negative (no free flight after the first
// impact, as certify_exact.h), every condition is built in exact rationals
// from the model solved exactly (certify_rat.h): the modes' accelerations
// and the impact cases' maps and conditions. The SOS program CSDP solves is
// those conditions rounded, with weighted Gram bases in the variables each
// condition uses (sos_basis.c); the verdict projects CSDP's coefficients
// exactly onto the equalities the conditions force (the monomials no Gram
// matrix reaches) and decides each condition by an exact Gram matrix
// (sos_exact.h). Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_QUARTIC_H
#define ZENO_CERTIFY_CERTIFY_QUARTIC_H

#include <stdbool.h>

#include "certify/certify_program.h"
#include "certify/certify_system.h"

/// Whether the exact path applies: degree 3 or 4, the inelastic law, both
/// free-flight gap accelerations negative, contact 1's slip moving with w2
/// (slip1[2] != 0).
bool cert_quartic_applies(const cert_system *s, const cert_program_settings *set);

/// Builds, solves and decides the program (the outcome as cert_program_certify's;
/// exact is set). ZENO_ERR_NOMEM, ZENO_ERR_RANGE, or a CSDP failure as an
/// outcome.
zeno_status cert_quartic_certify(const cert_system *s, const cert_program_settings *set,
                                 cert_program_outcome *out, zeno_error *e);

/// Edits CSDP's coefficients of W (one per monomial mono[k]) before the
/// exact check reads them (tests/test_certify_quartic.c: a wrong
/// certificate must fail the check).
typedef void (*cert_quartic_edit)(double *coef, int n, const poly_mono *mono, void *ctx);

/// cert_quartic_certify with the coefficients edited (edit NULL: as cert_quartic_certify).
zeno_status cert_quartic_certify_edited(const cert_system *s, const cert_program_settings *set,
                                        cert_quartic_edit edit, void *ctx,
                                        cert_program_outcome *out, zeno_error *e);

#endif
