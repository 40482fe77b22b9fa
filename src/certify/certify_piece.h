// Theorem 2's decrease over a mode's piece (certify_piece.c,
// docs/certificate.md): under the inelastic law without free flight after
// the first impact, a single-contact mode whose free contact falls
// (zddot_j < 0) ends within a time bounded by the state (the gap closes, or
// the closed contact's slip stops first). Instead of V2's pointwise
// decrease along the mode, V2 at the piece's end (after the impact that
// ends it, or where the slip stops) must not exceed V2 at any state of the
// piece. At weighted degree 2 each end (face) is a quadratic form in
// y = (u1, u2, w2, tau) on a polyhedral cone, decided exactly (copositive.h).
// Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_PIECE_H
#define ZENO_CERTIFY_CERTIFY_PIECE_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "certify/certify_system.h"
#include "sos/sos.h"

/// CSDP's cap of the Gram matrices' margin t for the program over the
/// pieces: the exact check needs room of CSDP's accuracy only, and a low
/// cap converges sooner (as at weighted degree 4, certify_quartic.c).
#define CERT_PIECE_MARGIN_CAP 0.01

/// Whether mode m's decrease is asked over its pieces: the inelastic law
/// without free flight after the first impact (both free-flight gap
/// accelerations negative), one contact closed, the other's exact gap
/// acceleration negative.
bool cert_piece_mode(const cert_system *s, const cert_mode *m);

/// Whether a piece of mode m can end at an impact of case cs (at the free
/// contact, the closed one's letter not contradicting the mode's).
bool cert_piece_case(const cert_mode *m, const cert_case *cs);

/// The pieces' equalities (lineality directions on which a face's form
/// vanishes whatever the unknowns, as cert_flight_equalities): rows
/// k + sum_i co[i] x[i] = 0 into rows (stride 9), at most max; their count.
int cert_piece_equalities(const cert_system *s, double c, mpq_t *rows, int max);

/// Decides every piece condition of the piece modes for V2 = c x2 + x[0] z1
/// + x[1] z2 + v^T P v. False with the reason in text.
bool cert_piece_verify(const cert_system *s, double c, mpq_t *x, char *text, size_t size);

/// Adds mode m's piece conditions to the program for V2 = c x2 + w: one per
/// impact that can end a piece (cert_piece_case) and, where the slip's rate
/// is constant, the slip stop; each V2(start) - V2(end) >= 0 on its cone,
/// with the rows' pairwise products as multipliers. Counted in *count.
zeno_status cert_piece_conditions(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const sos_expr *w, double c, int *count, zeno_error *e);

#endif
