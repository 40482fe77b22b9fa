// The exact check of a sums-of-squares constraint (sos_exact.c,
// docs/certificate.md): given the expression and the multiplied polynomials
// with exact rational coefficients and CSDP's Gram matrices, find Gram
// matrices that match the expression exactly (the given ones plus the
// smallest correction, solved in rationals) and decide that each is
// positive semidefinite by an exact LDL^T factorisation. Also the exact
// minimal-norm solve both corrections use. Not public API.
#ifndef ZENO_SOS_SOS_EXACT_H
#define ZENO_SOS_SOS_EXACT_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>

#include "sos/qpoly.h"
#include "sos/sos.h"

/// The monomials the Gram matrices of one constraint reach: gram[0] is the
/// main one (z_j z_k), gram[1 + i] the multiplier of g[i] (the terms of g[i]
/// times z_j z_k). *out malloc'ed (NULL when *n is 0); false without memory.
bool sos_exact_reach(int ngs, const qpoly_poly *g, const sos_gram *gram, poly_mono **out, int *n);
/// Whether m is among the n monomials of set (as sos_exact_reach returns them).
bool sos_exact_has(const poly_mono *set, int n, const poly_mono *m);

/// The smallest (Euclidean) d with A d = r, exactly: d = A^T y with
/// (A A^T) y = r. A is m x n, row-major; *rank (NULL: not wanted) the rank
/// of A. False when A d = r has no solution (or without memory).
bool sos_exact_min_norm(int m, int n, mpq_t *A, mpq_t *r, mpq_t *d, int *rank);
/// The same over the columns c with use[c] (NULL: all); d is 0 on the others.
bool sos_exact_min_norm_in(int m, int n, mpq_t *A, mpq_t *r, mpq_t *d, int *rank, const bool *use);

/// Whether the symmetric n x n rational matrix (row-major, overwritten) is
/// positive semidefinite: exact LDL^T, a zero pivot allowed only with a
/// zero column below it.
bool sos_exact_psd(int n, mpq_t *a);

/// Decides expr = z^T Q z + sum_i g_i z_i^T Q_i z_i with every Q
/// positive semidefinite, from the given Gram matrices (rounded as the
/// floating-point re-check rounds them) plus their exact minimal-norm
/// correction. False with a reason in why.
bool sos_exact_check(const qpoly_poly *expr, int ngs, const qpoly_poly *g, const sos_gram *gram,
                     char *why, size_t nwhy);

#endif
