// Polynomials with exact rational coefficients (GMP) in the variables of
// poly.h, for the exact check of weighted-degree-4 certificates
// (certify_quartic.c): few terms, kept unsorted and without zero
// coefficients. Not public API.
#ifndef ZENO_SOS_QPOLY_H
#define ZENO_SOS_QPOLY_H

#include <gmp.h>
#include <stdbool.h>

#include "sos/poly.h"

typedef struct qpoly_poly {
  int n, cap;
  poly_mono *m;
  mpq_t *c;
} qpoly_poly;

void qpoly_init(qpoly_poly *p);
void qpoly_clear(qpoly_poly *p);
/// p = 0 (storage kept).
void qpoly_zero(qpoly_poly *p);
/// p += s x^m; false without memory.
bool qpoly_add_term(qpoly_poly *p, const poly_mono *m, const mpq_t s);
/// p += s q.
bool qpoly_axpy(qpoly_poly *p, const mpq_t s, const qpoly_poly *q);
/// out = a b (out distinct from a and b).
bool qpoly_mul(qpoly_poly *out, const qpoly_poly *a, const qpoly_poly *b);
/// out = x^m (each variable v replaced by map[v]): a monomial composed with
/// a polynomial map (out distinct from map).
bool qpoly_mono_compose(qpoly_poly *out, const poly_mono *m, const qpoly_poly *map, int nvars);
/// Coefficient of x^m (0 when absent) into out.
void qpoly_coef(mpq_t out, const qpoly_poly *p, const poly_mono *m);
/// The polynomial rounded to doubles (q initialised by poly_init).
zeno_status qpoly_to_poly(const qpoly_poly *p, ze_poly *q, zeno_error *e);

#endif
