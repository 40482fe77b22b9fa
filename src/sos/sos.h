// Sums-of-squares programs: polynomial expressions affine in free decision
// scalars (the coefficients of unknown polynomials, a bound gamma, ...),
// constraints "expression - sum_i s_i g_i is a sum of squares, with each
// multiplier s_i a sum of squares" (the S-procedure for "expression >= 0
// on {g_i >= 0}"), linear equalities among the scalars, and an objective
// to maximise. sos.c translates a program into one semidefinite program
// (sdp_csdp.h) by coefficient matching, one equality per monomial, and
// reads back the scalars and Gram matrices; sos_check.c re-checks a
// solution in long double before calling it a certificate. See
// docs/certificate.md. Not part of the public API.
#ifndef ZENO_SOS_SOS_H
#define ZENO_SOS_SOS_H

#include <stdbool.h>

#include "sos/poly.h"
#include "zeno/error.h"

/// Largest Gram matrix (monomial basis) of one constraint or multiplier:
/// 8 variables to degree 2 have 45 monomials, 4 variables to degree 4
/// have 70; a larger basis means the degree asked for is too high.
#define SOS_MAX_GRAM 120
/// Most decision scalars of a program.
#define SOS_MAX_SCALARS 4000

/// A polynomial affine in the decision scalars: sum_k part[k] * c_{var[k]},
/// with var[k] = SOS_CONSTANT for the part without a scalar.
typedef struct sos_expr {
  int nvars;
  int nparts, cap;
  int *var;
  ze_poly *part;
} sos_expr;

#define SOS_CONSTANT (-1)

zeno_status sos_expr_init(sos_expr *x, int nvars, zeno_error *e);
void sos_expr_free(sos_expr *x);
/// x += s * p * c_var (var may be SOS_CONSTANT).
zeno_status sos_expr_add(sos_expr *x, int var, double s, const ze_poly *p, zeno_error *e);
/// x += s * y.
zeno_status sos_expr_axpy(sos_expr *x, double s, const sos_expr *y, zeno_error *e);
/// out = x * p (out initialised, distinct from x).
zeno_status sos_expr_mul(sos_expr *out, const sos_expr *x, const ze_poly *p, zeno_error *e);
/// out = x(map(y)): each part composed with the polynomial map (sos.c).
zeno_status sos_expr_compose(sos_expr *out, const sos_expr *x, const ze_poly *map, zeno_error *e);
/// The polynomial at given scalar values (out initialised).
zeno_status sos_expr_value(ze_poly *out, const sos_expr *x, const double *scalars, zeno_error *e);

/// One constraint: expr - sum_i s_i g_i is SOS, s_i SOS of degree
/// 2 * mult_half[i].
typedef struct sos_constraint {
  sos_expr expr;
  int ngs;
  ze_poly *g;
  int *mult_half;
  /// The program's weights when the constraint was added (all 0: bases
  /// by total degree; see sos_set_weights).
  int weight[POLY_MAX_VARS];
} sos_constraint;

typedef struct sos_lineq {
  int nterms;
  int *var;
  double *coef;
  double rhs;
} sos_lineq;

typedef struct sos_program {
  int nvars;          ///< polynomial variables x
  int nscalars;       ///< free decision scalars
  double *objective;  ///< maximise sum objective[v] c_v (NULL: feasibility)
  int ncons;
  sos_constraint *cons;
  int nlineqs;
  sos_lineq *lineqs;
  /// Positive weights of the variables for the constraints added from now
  /// on (all 0, the default: bases by total degree).
  int weight[POLY_MAX_VARS];
} sos_program;

zeno_status sos_program_init(sos_program *p, int nvars, zeno_error *e);
void sos_program_free(sos_program *p);
/// A new free scalar; its index in *var.
zeno_status sos_new_scalar(sos_program *p, int *var, zeno_error *e);
/// An unknown polynomial with a free coefficient per monomial of degree
/// dmin..dmax: *poly = sum_k c_{first+k} m_k (poly initialised here).
zeno_status sos_new_poly(sos_program *p, int dmin, int dmax, sos_expr *poly, zeno_error *e);
/// The same with the monomials given: *poly = sum_k c_{first+k} basis[k].
zeno_status sos_new_poly_in(sos_program *p, const poly_mono *basis, int n, sos_expr *poly,
                            zeno_error *e);
/// Requires expr - sum_i s_i g_i to be SOS with SOS multipliers s_i of
/// degree 2 * mult_half[i]; mult_half NULL or an entry < 0: the largest
/// degree with deg(s_i g_i) <= deg(expr). Copies everything.
zeno_status sos_add_sos(sos_program *p, const sos_expr *expr, int ngs, const ze_poly *g,
                        const int *mult_half, zeno_error *e);
/// Weighted bases (sos_basis.c) for the constraints added from now on:
/// weight[v] >= 1 for each variable. A constraint whose expression has
/// weighted degrees wl..wh gets a main basis of the monomials, in the
/// variables it uses, of weighted degree ceil(wl/2)..floor(wh/2), and the
/// multiplier of g (weighted degrees gl..gh) one of weighted degree
/// ceil((wl-gl)/2)..floor((wh-gh)/2) (mult_half is then ignored). Where
/// every monomial of the expression has a variable v, the expression
/// vanishes on v = 0, and so must every term of its certificate: the
/// monomials free of v leave the main basis and those of multipliers of a g
/// that does not vanish there. Each rule only narrows the search (sound).
/// NULL: back to total degree.
zeno_status sos_set_weights(sos_program *p, const int *weight, zeno_error *e);
/// sum_k coef[k] c_{var[k]} = rhs.
zeno_status sos_add_equality(sos_program *p, int nterms, const int *var, const double *coef,
                             double rhs, zeno_error *e);
/// objective += weight * c_var (maximised).
zeno_status sos_maximise(sos_program *p, int var, double weight, zeno_error *e);

/// A Gram matrix Q (row-major, order n) of the basis z: the polynomial z^T Q z.
typedef struct sos_gram {
  int n;
  poly_mono *basis;
  double *q;
} sos_gram;

typedef enum sos_status {
  SOS_FEASIBLE = 0,  ///< CSDP solved the program (codes 0 and 3)
  SOS_INFEASIBLE,    ///< CSDP proved it infeasible (code 1), or a
                     ///< feasibility program's margin t* < -1e-7
  SOS_UNBOUNDED      ///< the objective is unbounded (code 2)
} sos_status;

typedef struct sos_options {
  int max_iterations;  ///< CSDP's iteration limit
  /// Cap of a feasibility program's margin t (sos.c; default 1, <= 0: the
  /// default).
  double margin_cap;
} sos_options;

sos_options sos_options_default(void);

typedef struct sos_solution {
  sos_status status;
  int csdp_code;
  bool reduced_accuracy;  ///< CSDP's code 3
  double objective;       ///< sum objective[v] c_v at the solution
  int nscalars;
  double *scalars;
  int ncons;
  sos_gram *gram;  ///< per constraint: 1 + ngs matrices (main, multipliers)
  int *ngrams;
  /// Feasibility programs: the largest common lower bound t of the Gram
  /// matrices' eigenvalues CSDP found (each is Q' + t I, Q' >= 0); below
  /// -1e-7 the program is reported infeasible. 0 for programs with an
  /// objective.
  double margin;
  int sdp_order;        ///< sum of the block orders of the SDP
  int sdp_constraints;  ///< equality constraints of the SDP
  double seconds;       ///< wall time of CSDP
} sos_solution;

/// Translates, solves with CSDP and reads back. ZENO_OK with a status
/// (infeasible is not an error); ZENO_ERR_RANGE when a basis exceeds
/// SOS_MAX_GRAM; ZENO_ERR_ARGUMENT for a program without constraints;
/// ZENO_ERR_SINGULAR when CSDP fails (sdp_csdp.h).
zeno_status sos_solve(const sos_program *p, const sos_options *o, sos_solution *s, zeno_error *e);
void sos_solution_free(sos_solution *s);

/// The monomial basis of constraint's main Gram matrix (sos.c): degrees
/// floor(dmin/2)..ceil(dmax/2) of the possible support, cut to half its
/// degree in each variable, then every monomial whose square cannot appear
/// removed, until none is. *basis malloc'ed.
zeno_status sos_main_basis(const sos_constraint *c, poly_mono **basis, int *n, zeno_error *e);
/// The basis of constraint c's multiplier i: sos_mult_basis of its
/// mult_half, or the weighted rule (sos_set_weights).
zeno_status sos_constraint_mult_basis(const sos_constraint *c, int i, poly_mono **basis, int *n,
                                      zeno_error *e);
/// The weighted main basis before sos_main_basis prunes it (sos_basis.c).
zeno_status sos_weighted_main_basis(const sos_constraint *c, poly_mono **basis, int *n,
                                    zeno_error *e);
/// The multiplier basis: monomials of degree 0..half.
zeno_status sos_mult_basis(int nvars, int half, poly_mono **basis, int *n, zeno_error *e);

#endif
