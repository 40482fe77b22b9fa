// Multivariate polynomials with double coefficients in up to
// POLY_MAX_VARS variables: terms sorted by monomial (graded, then
// lexicographic), no zero coefficient, no repeated monomial. Arithmetic,
// evaluation (double and long double), partial derivatives, substitution of
// a polynomial map, and monomial bases for the sums-of-squares programs
// (sos.h). Not part of the public API.
#ifndef ZENO_SOS_POLY_H
#define ZENO_SOS_POLY_H

#include <stdbool.h>

#include "zeno/error.h"

/// Most variables of a polynomial (the state of the two-contact body under
/// the ZOD with a flight time has 7).
#define POLY_MAX_VARS 8
/// Highest total degree of a monomial (products of a degree-4 Lyapunov
/// function with degree-4 maps stay below it).
#define POLY_MAX_DEGREE 24

/// Exponents of x_0 .. x_{n-1}; unused variables are 0.
typedef struct poly_mono {
  unsigned char e[POLY_MAX_VARS];
} poly_mono;

typedef struct poly_term {
  poly_mono m;
  double c;
} poly_term;

typedef struct ze_poly {
  int nvars;
  int nterms, cap;
  poly_term *t;
} ze_poly;

int poly_mono_degree(const poly_mono *m);
/// Graded lexicographic order: -1, 0 or 1.
int poly_mono_compare(const poly_mono *a, const poly_mono *b);
/// a + b; false when the sum's degree exceeds POLY_MAX_DEGREE.
bool poly_mono_add(const poly_mono *a, const poly_mono *b, poly_mono *sum);

/// All monomials in nvars variables of total degree dmin..dmax, in the
/// order of poly_mono_compare; *out malloc'ed (NULL when *count is 0).
zeno_status poly_mono_basis(int nvars, int dmin, int dmax, poly_mono **out, int *count,
                            zeno_error *e);

/// The monomials of weighted degree wmin..wmax, sum_v weight[v] e_v, with
/// positive integer weights (the ZOD's: 2 for positions, 1 for velocities
/// and time), at most max_exp[v] in each variable (NULL: no cap), in the
/// order of poly_mono_compare; *out malloc'ed.
zeno_status poly_mono_basis_weighted(int nvars, const int *weight, const int *max_exp, int wmin,
                                     int wmax, poly_mono **out, int *count, zeno_error *e);

/// The zero polynomial in nvars variables (1..POLY_MAX_VARS).
zeno_status poly_init(ze_poly *p, int nvars, zeno_error *e);

/// ZENO_ERR_RANGE naming `what` unless 1 <= nvars <= POLY_MAX_VARS.
zeno_status poly_check_vars(int nvars, const char *what, zeno_error *e);
void poly_free(ze_poly *p);
/// Sets p to zero, keeping its variables and storage.
void poly_clear(ze_poly *p);
/// dst = src; dst initialised (poly_init) or zeroed.
zeno_status poly_copy(ze_poly *dst, const ze_poly *src, zeno_error *e);
/// p += c x^m.
zeno_status poly_add_term(ze_poly *p, const poly_mono *m, double c, zeno_error *e);
/// p = sum_k coef[k] x^(exps[k*nvars ..]), a polynomial from a list.
zeno_status poly_from_list(ze_poly *p, int nvars, int nterms, const double *coef, const int *exps,
                           zeno_error *e);
/// p = x_var.
zeno_status poly_var(ze_poly *p, int nvars, int var, zeno_error *e);
/// dst += s * src (same variables).
zeno_status poly_axpy(ze_poly *dst, double s, const ze_poly *src, zeno_error *e);
void poly_scale(ze_poly *p, double s);
/// out = a * b (out distinct from a and b).
zeno_status poly_mul(ze_poly *out, const ze_poly *a, const ze_poly *b, zeno_error *e);
/// out = d p / d x_var.
zeno_status poly_deriv(ze_poly *out, const ze_poly *p, int var, zeno_error *e);
/// out(y) = p(map_0(y), .., map_{n-1}(y)): map has p->nvars polynomials in
/// the same variables y (out takes their number of variables).
zeno_status poly_compose(ze_poly *out, const ze_poly *p, const ze_poly *map, zeno_error *e);
/// Highest and lowest total degree of a term (-1 for the zero polynomial).
int poly_degree(const ze_poly *p);
int poly_min_degree(const ze_poly *p);
/// Coefficient of x^m (0 when absent).
double poly_coef(const ze_poly *p, const poly_mono *m);
double poly_eval(const ze_poly *p, const double *x);
long double poly_eval_l(const ze_poly *p, const long double *x);

#endif
