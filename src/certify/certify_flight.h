// The exact check's impact conditions under Newton's law (certify_flight.c,
// docs/certificate.md): with restitution a free flight of any duration tau
// may precede every impact, and at weighted degree 2 the condition
// V2(s0) - V2(s+) >= 0 (s0 the flight's start, s+ the state after the
// impact) is a quadratic form in (qdot'-, tau) on a polyhedral cone, and
// V1(s-) - V1(s+) >= 0 one in qdot'- alone. Both decided exactly
// (copositive.h) on the model solved exactly (certify_rat.h). Not public
// API.
#ifndef ZENO_CERTIFY_CERTIFY_FLIGHT_H
#define ZENO_CERTIFY_CERTIFY_FLIGHT_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "certify/certify_rat.h"
#include "certify/certify_system.h"
#include "sos/sos.h"

/// Whether the flight conditions decide the impacts: Newton's law, and a
/// free-flight gap acceleration negative (every flight ends, Lemma 1).
bool cert_flight_applies(const cert_system *s);

/// Most equalities cert_flight_equalities gives.
#define CERT_FLIGHT_MAX_EQ 240

/// The flight conditions' equalities on the unknowns x (as cert_flight_verify's):
/// where a case's cone has a lineality direction l on which the form
/// vanishes whatever x (an impact at zero approach speed that changes
/// nothing, l of either sign), the form's cross terms B(l, y) must vanish
/// on the whole cone, since Q(y + t l) = Q(y) + 2 t B(l, y) for every real
/// t. Rows k + sum_i co[i] x[i] = 0 into rows (stride 9: co[0..7], k;
/// initialised by the caller), at most max; their count returned.
int cert_flight_equalities(const cert_system *s, double c, mpq_t *rows, int max);

/// Builds item k's form Q (16, row major over (u1, u2, w2, tau)) and its
/// cone's rows L (stride 4, zeroed by the caller; *m rows) for the
/// unknowns xv (certify_exact.h's 8); false when the item cannot be built
/// (a singular case), which then adds no equality.
typedef bool (*cert_form_fn)(void *ctx, int k, mpq_t *xv, mpq_t *Q, mpq_t *L, int *m);

/// The lineality equalities of the forms of items 0..count-1 (the flights'
/// cases, the pieces' faces): where a cone has a lineality direction l on
/// which the form vanishes whatever the unknowns, B(l, g) = 0 for every
/// generator g. Rows k + sum_i co[i] x[i] = 0 into rows (stride 9,
/// initialised by the caller), at most max; their count. With at_zeros,
/// also B(r, l) = 0 at every generator r on which the form vanishes
/// whatever the unknowns, for every l of the lineality of the rows tight
/// at r (both r + t l and r - t l are in the cone for small t).
int cert_form_equalities(cert_form_fn form, void *ctx, int count, bool at_zeros, mpq_t *rows,
                         int max);

/// Decides every impact case's flight condition for V2 = c x2 + x[0] z1 +
/// x[1] z2 + v^T P v (x[2..7] = P00, P01, P02, P11, P12, P22) and V1's
/// across the case. False with the reason in text when one fails or
/// cannot be decided; *max_gen, when given, receives the most generators
/// of a cone met.
bool cert_flight_verify(const cert_system *s, double c, mpq_t *x, char *text, size_t size,
                        int *max_gen);

/// The flight condition's form Q (16, 4 x 4 row major over y = (u1, u2, w2,
/// tau), zeroed here) for the unknowns xv (V2 = c x2 + xv[0] z1 + xv[1] z2 +
/// v^T P v, P from xv[2..7]) after a motion of constant acceleration a for
/// tau and the impact of case cs with exact map x1->G; its cone's rows into
/// L (tau >= 0, the case's conditions, the impacting contacts' start gaps
/// over tau; stride 4, zeroed here), their count in *m. certify_piece.c
/// takes the same form with a mode's acceleration.
void cert_flight_form_at(const cert_case *cs, cert_rat_case *x1, mpq_t *xv, double c, mpq_t a[3],
                         mpq_t *Q, mpq_t *L, int *m);

/// Adds case cs's impact condition to the program for V2 = c x2 + w
/// (certify_flight_program.c): after a free flight of any duration
/// (flight) V2(s0) - V2(s+) >= 0 on the case's cone, in its generators'
/// coordinates on level floors where the cone allows; without one (the
/// other contact closed) V2(s-) - V2(s+) >= 0. Counted in *count.
zeno_status cert_flight_condition(sos_program *prog, const cert_system *s, const cert_case *cs,
                                  const sos_expr *w, double c, bool flight, int *count,
                                  zeno_error *e);

#endif
