// Multivariate polynomials with double coefficients in up to
// ZE_POLY_MAX_VARS variables: terms sorted by monomial (graded, then
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
#define ZE_POLY_MAX_VARS 8
/// Highest total degree of a monomial (products of a degree-4 Lyapunov
/// function with degree-4 maps stay below it).
#define ZE_POLY_MAX_DEGREE 24

/// Exponents of x_0 .. x_{n-1}; unused variables are 0.
typedef struct ze_mono {
  unsigned char e[ZE_POLY_MAX_VARS];
} ze_mono;

typedef struct ze_term {
  ze_mono m;
  double c;
} ze_term;

typedef struct ze_poly {
  int nvars;
  int nterms, cap;
  ze_term *t;
} ze_poly;

int ze_mono_degree(const ze_mono *m);
/// Graded lexicographic order: -1, 0 or 1.
int ze_mono_compare(const ze_mono *a, const ze_mono *b);
/// a + b; false when the sum's degree exceeds ZE_POLY_MAX_DEGREE.
bool ze_mono_add(const ze_mono *a, const ze_mono *b, ze_mono *sum);

/// All monomials in nvars variables of total degree dmin..dmax, in the
/// order of ze_mono_compare; *out malloc'ed (NULL when *count is 0).
zeno_status ze_mono_basis(int nvars, int dmin, int dmax, ze_mono **out, int *count,
                          zeno_error *e);

/// The monomials of weighted degree wmin..wmax, sum_v weight[v] e_v, with
/// positive integer weights (the ZOD's: 2 for positions, 1 for velocities
/// and time), at most max_exp[v] in each variable (NULL: no cap), in the
/// order of ze_mono_compare; *out malloc'ed.
zeno_status ze_mono_basis_weighted(int nvars, const int *weight, const int *max_exp,
                                   int wmin, int wmax, ze_mono **out, int *count,
                                   zeno_error *e);

/// The zero polynomial in nvars variables (1..ZE_POLY_MAX_VARS).
zeno_status ze_poly_init(ze_poly *p, int nvars, zeno_error *e);

/// ZENO_ERR_RANGE naming `what` unless 1 <= nvars <= ZE_POLY_MAX_VARS.
zeno_status ze_poly_check_vars(int nvars, const char *what, zeno_error *e);
void ze_poly_free(ze_poly *p);
/// Sets p to zero, keeping its variables and storage.
void ze_poly_clear(ze_poly *p);
/// dst = src; dst initialised (ze_poly_init) or zeroed.
zeno_status ze_poly_copy(ze_poly *dst, const ze_poly *src, zeno_error *e);
/// p += c x^m.
zeno_status ze_poly_add_term(ze_poly *p, const ze_mono *m, double c, zeno_error *e);
/// p = sum_k coef[k] x^(exps[k*nvars ..]), a polynomial from a list.
zeno_status ze_poly_from_list(ze_poly *p, int nvars, int nterms, const double *coef,
                              const int *exps, zeno_error *e);
/// p = x_var.
zeno_status ze_poly_var(ze_poly *p, int nvars, int var, zeno_error *e);
/// dst += s * src (same variables).
zeno_status ze_poly_axpy(ze_poly *dst, double s, const ze_poly *src, zeno_error *e);
void ze_poly_scale(ze_poly *p, double s);
/// out = a * b (out distinct from a and b).
zeno_status ze_poly_mul(ze_poly *out, const ze_poly *a, const ze_poly *b, zeno_error *e);
/// out = d p / d x_var.
zeno_status ze_poly_deriv(ze_poly *out, const ze_poly *p, int var, zeno_error *e);
/// out(y) = p(map_0(y), .., map_{n-1}(y)): map has p->nvars polynomials in
/// the same variables y (out takes their number of variables).
zeno_status ze_poly_compose(ze_poly *out, const ze_poly *p, const ze_poly *map,
                            zeno_error *e);
/// Highest and lowest total degree of a term (-1 for the zero polynomial).
int ze_poly_degree(const ze_poly *p);
int ze_poly_min_degree(const ze_poly *p);
/// Coefficient of x^m (0 when absent).
double ze_poly_coef(const ze_poly *p, const ze_mono *m);
double ze_poly_eval(const ze_poly *p, const double *x);
long double ze_poly_eval_l(const ze_poly *p, const long double *x);

#endif
