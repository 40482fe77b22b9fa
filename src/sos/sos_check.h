// The soundness re-check of a sums-of-squares solution (sos_check.c): a
// numerical SDP answer is not a proof. The check rounds the solution,
// recomputes in long double, per constraint, the residual r_a of the
// identity  expr(c) = z^T Q z + sum_i g_i z_i^T Q_i z_i  on every monomial
// a, spreads it into a matrix E with z^T E z = sum_a r_a x^a (the
// Frobenius-smallest such E), and certifies the constraint only when
// Q - delta I is positive definite by a Cholesky factorisation in double
// and in long double, with delta = ||E||_F (1 + SOS_RESIDUAL_SAFETY)
// plus a bound of the factorisation's rounding; each multiplier's Q_i
// likewise with E = 0. Then Q + E >= 0 and expr(c) - sum_i s_i g_i =
// z^T (Q + E) z exactly: a sum of squares. docs/certificate.md has the
// argument.
#ifndef ZENO_SOS_SOS_CHECK_H
#define ZENO_SOS_SOS_CHECK_H

#include <stdbool.h>

#include "sos/sos.h"

/// Significant bits kept of each scalar and Gram entry before the check: a
/// relative change of 2^-40 ~ 1e-12, far below CSDP's 1e-8 tolerances, so
/// rounding never decides a certificate; the rounded numbers are short.
#define SOS_ROUND_BITS 40
/// The residual matrix is absorbed twice over: delta = (1 + 1) ||E||_F.
#define SOS_RESIDUAL_SAFETY 1.0

typedef struct sos_check {
  bool certified;
  /// min over Gram matrices of lambda_min(Q) - ||E||_F (long double Jacobi
  /// eigenvalues): how much room the certificate has.
  double margin;
  double min_eigenvalue;  ///< smallest lambda_min of a Gram matrix
  double residual_norm;   ///< largest ||E||_F of a constraint (with its error bound)
  double max_residual;    ///< largest |r_a|
  int failed_constraint;  ///< first constraint not certified, -1 when all are
  char reason[200];       ///< why not certified ("" when certified)
} sos_check;

/// Rounds x to SOS_ROUND_BITS significant bits (0, NaN and Inf kept).
double sos_round(double x);

/// Re-checks a feasible solution of p (s is not modified: the check works
/// on a rounded copy). ZENO_ERR_ARGUMENT when s is not a feasible solution
/// of p.
zeno_status sos_check_solution(const sos_program *p, const sos_solution *s, sos_check *out,
                               zeno_error *e);

/// Smallest eigenvalue of a symmetric n x n row-major matrix (cyclic
/// Jacobi in long double).
long double sos_sym_min_eigenvalue(int n, const long double *a);
/// Whether a - shift I has a Cholesky factorisation, in double or long
/// double.
bool sos_cholesky_ok(int n, const long double *a, long double shift, bool long_double);

/// The rounding allowance of a Cholesky factorisation of order n whose
/// largest diagonal entry is max_diag, in unit roundoff u (Higham, Accuracy
/// and Stability, Thm 10.3, doubled for the shift's own rounding): when
/// a - shift I factorises, lambda_min(a) >= shift - the allowance.
long double sos_cholesky_allowance(int n, long double max_diag, long double u);

#endif
