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

/// The exact model's solves that the pieces' conditions take many times
/// (each mode's acceleration, each case's map), for one system: set in
/// cert_system.cache by the caller, which destroys it after its programs.
typedef struct cert_piece_cache cert_piece_cache;
/// NULL when out of memory (the solves are then repeated).
cert_piece_cache *cert_piece_cache_create(void);
void cert_piece_cache_destroy(cert_piece_cache *c);

/// Whether mode m's decrease is asked over its pieces: the inelastic law
/// without free flight after the first impact (both free-flight gap
/// accelerations negative), one contact closed, the other's exact gap
/// acceleration negative.
bool cert_piece_mode(const cert_system *s, const cert_mode *m);

/// Most chains (a decelerating slip, its stop, the sticking piece after it
/// and the impact that ends that) of one program: one per mode and case.
#define CERT_PIECE_MAX_CHAINS (CERT_MAX_MODES * CERT_MAX_CASES)

/// The sticking mode that a decelerating slip of single-contact mode m
/// stops into, where its stop can lead to nothing else (the reversed slip
/// is not consistent, the sticking mode is and its free gap falls): the
/// slip and the sticking piece are asked together up to the impact that
/// ends them (docs/certificate.md). NULL otherwise.
const cert_mode *cert_piece_stop_mode(const cert_system *s, const cert_mode *m);

/// The mode that a piece of mode m continues into after the single impact
/// of case cs at its free contact j, where that piece is asked through the
/// impact (certify_chain_impact.c): the closed contact i leaves (letter F,
/// post u_i >= 0) and j slips (P or N) into the mode n of those letters,
/// whose free gap falls and whose slip decelerates. NULL otherwise (the
/// face is asked at the impact).
const cert_mode *cert_piece_through_mode(const cert_system *s, const cert_mode *m,
                                         const cert_case *cs);

/// Whether a piece of mode m can end at an impact of case cs (at the free
/// contact, the closed one's letter not contradicting the mode's).
bool cert_piece_case(const cert_mode *m, const cert_case *cs);

/// The pieces' equalities (lineality directions on which a face's form
/// vanishes whatever the unknowns, as cert_flight_equalities): rows
/// k + sum_i co[i] x[i] = 0 into rows (stride 9), at most max; their count.
int cert_piece_equalities(const cert_system *s, double c, mpq_t *rows, int max);

/// Decides every piece condition of the piece modes for V2 = c x2 + x[0] z1
/// + x[1] z2 + v^T P v, the chains' with the S-procedure multipliers
/// lambda (in cert_piece_conditions' order over the modes; NULL: none, the
/// chains are then not decided). False with the reason in text.
bool cert_piece_verify(const cert_system *s, double c, mpq_t *x, const double *lambda, char *text,
                       size_t size);

/// Adds mode m's piece conditions to the program for V2 = c x2 + w: one per
/// impact that can end a piece (cert_piece_case) and, where the slip's rate
/// is constant, the slip stop, or for a decelerating slip the chains
/// through the mode it stops into (cert_piece_stop_mode); each V2(start) -
/// V2(end) >= 0 on its cone, with the rows' pairwise products (or the
/// cone's rays' coordinates) as multipliers. A chain's start gap joins its
/// domain with a constant multiplier lambda, whose place is appended to
/// lref[*nl] (room for CERT_PIECE_MAX_CHAINS; cert_piece_lambda reads it).
/// Counted in *count.
zeno_status cert_piece_conditions(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const sos_expr *w, double c, int *lref, int *nl, int *count,
                                  zeno_error *e);

/// A chain's multiplier lambda in a solution of the program, from its place
/// (cert_piece_conditions); NAN when the place is not a constant multiplier.
double cert_piece_lambda(const sos_solution *sol, int ref);

#endif
