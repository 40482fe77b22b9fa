// Polynomials with exact rational coefficients (GMP) in the variables of
// poly.h, for the exact check of weighted-degree-4 certificates
// (certify_quartic.c): few terms, kept unsorted and without zero
// coefficients. Not public API.
#ifndef ZENO_SOS_QPOLY_H
#define ZENO_SOS_QPOLY_H

#include <gmp.h>
#include <stdbool.h>

#include "sos/poly.h"

typedef struct zq_poly {
  int n, cap;
  ze_mono *m;
  mpq_t *c;
} zq_poly;

void zq_init(zq_poly *p);
void zq_clear(zq_poly *p);
/// p = 0 (storage kept).
void zq_zero(zq_poly *p);
/// p += s x^m; false without memory.
bool zq_add_term(zq_poly *p, const ze_mono *m, const mpq_t s);
/// p += s q.
bool zq_axpy(zq_poly *p, const mpq_t s, const zq_poly *q);
/// out = a b (out distinct from a and b).
bool zq_mul(zq_poly *out, const zq_poly *a, const zq_poly *b);
/// out = x^m (each variable v replaced by map[v]): a monomial composed with
/// a polynomial map (out distinct from map).
bool zq_mono_compose(zq_poly *out, const ze_mono *m, const zq_poly *map, int nvars);
/// Coefficient of x^m (0 when absent) into out.
void zq_coef(mpq_t out, const zq_poly *p, const ze_mono *m);
/// The polynomial rounded to doubles (q initialised by ze_poly_init).
zeno_status zq_to_poly(const zq_poly *p, ze_poly *q, zeno_error *e);

#endif
