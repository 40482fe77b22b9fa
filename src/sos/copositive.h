// Exact copositivity, and quadratic forms on polyhedral cones, in rational
// arithmetic (copositive.c, docs/certificate.md). A symmetric M is
// copositive when x^T M x >= 0 for every x >= 0. Decided by the criterion of
// Cottle, Habetler and Lemke (1970, Theorem 3.1; Hadeler 1983): when every
// principal submatrix of order n - 1 of M is copositive, M is not
// copositive exactly when M is invertible with M^-1 <= 0 entrywise. A
// quadratic form Q is >= 0 on the cone K = {y : L y >= 0} exactly when
// G^T Q G is copositive for a matrix G whose columns generate K (its
// extreme rays and both signs of a basis of its lineality space). Not
// public API.
#ifndef ZENO_SOS_COPOSITIVE_H
#define ZENO_SOS_COPOSITIVE_H

#include <gmp.h>
#include <stdbool.h>

/// Largest dimension of a cone's space.
#define COPOSITIVE_MAX_DIM 6
/// Most rows of a cone's inequalities.
#define COPOSITIVE_MAX_ROWS 16
/// Largest order of a matrix handed to copositive_copositive (a cone's generators).
#define COPOSITIVE_MAX_GEN 64
/// Largest order decided after the reduction (an index whose row is >= 0
/// is dropped): the test visits the principal submatrices, 2^n at most.
#define COPOSITIVE_MAX_ORDER 20

typedef enum copositive_answer {
  COPOSITIVE_NO = 0,        ///< not copositive / negative somewhere on the cone
  COPOSITIVE_YES = 1,       ///< copositive / >= 0 on the whole cone
  COPOSITIVE_TOO_LARGE = 2  ///< too many generators or too large an order: not decided
} copositive_answer;

/// Whether the symmetric n x n matrix M (row major) is
/// copositive (n <= COPOSITIVE_MAX_GEN). *witness, when given and the answer is
/// COPOSITIVE_NO, receives the index mask of a principal submatrix that is not
/// copositive (a negative diagonal entry, or an inverse <= 0).
copositive_answer copositive_copositive(int n, mpq_t *M, unsigned long *witness);

/// Generators of K = {y : L y >= 0} (L m x n, row major, n <= COPOSITIVE_MAX_DIM,
/// m <= COPOSITIVE_MAX_ROWS) into G (room for COPOSITIVE_MAX_GEN rows of n): first a
/// basis of its lineality space {L y = 0} (*nlin vectors), then the extreme
/// rays of K within the lineality's complement (*nrays; each has n - 1
/// independent equations tight: the lineality's and n - nlin - 1 rows of
/// L), so that K = span(lineality) + cone(rays). False when there are more
/// than COPOSITIVE_MAX_GEN.
bool copositive_cone_generators(int n, int m, mpq_t *L, mpq_t *G, int *nlin, int *nrays);

/// Whether y^T Q y >= 0 for every y with L y >= 0: Q symmetric n x n (row
/// major), L m x n (row major), n <= COPOSITIVE_MAX_DIM, m <= COPOSITIVE_MAX_ROWS. *ngen,
/// when given, receives the number of generators of the cone.
copositive_answer copositive_cone_nonneg(int n, mpq_t *Q, int m, mpq_t *L, int *ngen);

#endif
