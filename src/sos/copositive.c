// Exact copositivity and quadratic forms on polyhedral cones
// (copositive.h), in GMP rationals.
#include "sos/copositive.h"

#include <stdlib.h>
#include <string.h>

static mpq_t *qalloc(int n) {
  mpq_t *a = malloc((size_t)(n > 0 ? n : 1) * sizeof *a);
  if (a)
    for (int k = 0; k < n; k++) mpq_init(a[k]);
  return a;
}

static void qfree(mpq_t *a, int n) {
  if (!a) return;
  for (int k = 0; k < n; k++) mpq_clear(a[k]);
  free(a);
}

// Reduces the rows x n matrix A (row major) to reduced row echelon form in
// place; pivot columns in piv (their count returned).
static int rref(int rows, int n, mpq_t *A, int *piv) {
  mpq_t f, t;
  mpq_inits(f, t, NULL);
  int r = 0;
  for (int col = 0; col < n && r < rows; col++) {
    int p = -1;
    for (int i = r; i < rows && p < 0; i++)
      if (mpq_sgn(A[i * n + col]) != 0) p = i;
    if (p < 0) continue;
    if (p != r)
      for (int k = 0; k < n; k++) mpq_swap(A[p * n + k], A[r * n + k]);
    mpq_inv(f, A[r * n + col]);
    for (int k = 0; k < n; k++) mpq_mul(A[r * n + k], A[r * n + k], f);
    for (int i = 0; i < rows; i++) {
      if (i == r || mpq_sgn(A[i * n + col]) == 0) continue;
      mpq_set(f, A[i * n + col]);
      for (int k = 0; k < n; k++) {
        mpq_mul(t, f, A[r * n + k]);
        mpq_sub(A[i * n + k], A[i * n + k], t);
      }
    }
    piv[r++] = col;
  }
  mpq_clears(f, t, NULL);
  return r;
}

// A basis of {y : A y = 0} (A rows x n, left intact): its dimension, the
// vectors in N (dim x n, row major; room for n rows).
static int null_basis(int rows, int n, mpq_t *A, mpq_t *N) {
  mpq_t *R = qalloc(rows * n);
  for (int k = 0; k < rows * n; k++) mpq_set(R[k], A[k]);
  int piv[COPOSITIVE_MAX_ROWS + COPOSITIVE_MAX_DIM];
  const int rank = rref(rows, n, R, piv);
  int dim = 0;
  for (int col = 0; col < n; col++) {
    bool is_pivot = false;
    for (int r = 0; r < rank; r++) is_pivot = is_pivot || piv[r] == col;
    if (is_pivot) continue;
    for (int k = 0; k < n; k++) mpq_set_ui(N[dim * n + k], k == col ? 1 : 0, 1);
    for (int r = 0; r < rank; r++) mpq_neg(N[dim * n + piv[r]], R[r * n + col]);
    dim++;
  }
  qfree(R, rows * n);
  return dim;
}

// Scales y by a positive number to the primitive integer vector of its
// direction (a ray's normal form, and small numbers).
static void normalise(int n, mpq_t *y) {
  mpz_t den, g;
  mpz_init_set_ui(den, 1);
  mpz_init_set_ui(g, 0);
  for (int k = 0; k < n; k++) {
    mpz_lcm(den, den, mpq_denref(y[k]));
    mpz_gcd(g, g, mpq_numref(y[k]));
  }
  if (mpz_sgn(g) != 0)
    for (int k = 0; k < n; k++) {
      mpz_divexact(mpq_denref(y[k]), den, mpq_denref(y[k]));
      mpz_mul(mpq_numref(y[k]), mpq_numref(y[k]), mpq_denref(y[k]));
      mpz_divexact(mpq_numref(y[k]), mpq_numref(y[k]), g);
      mpz_set_ui(mpq_denref(y[k]), 1);
    }
  mpz_clears(den, g, NULL);
}

// Whether L y >= 0 (every row), and whether some row is > 0.
static bool feasible(int m, int n, mpq_t *L, mpq_t *y) {
  mpq_t s, t;
  mpq_inits(s, t, NULL);
  bool ok = true;
  for (int i = 0; i < m && ok; i++) {
    mpq_set_ui(s, 0, 1);
    for (int k = 0; k < n; k++) {
      mpq_mul(t, L[i * n + k], y[k]);
      mpq_add(s, s, t);
    }
    ok = mpq_sgn(s) >= 0;
  }
  mpq_clears(s, t, NULL);
  return ok;
}

// Appends y (normalised) to the generators G unless it is among them from
// index from on already.
static bool add_gen(int n, mpq_t *G, int from, int *ng, mpq_t *y) {
  normalise(n, y);
  for (int g = from; g < *ng; g++) {
    bool same = true;
    for (int k = 0; k < n && same; k++) same = mpq_equal(G[g * n + k], y[k]) != 0;
    if (same) return true;
  }
  if (*ng >= COPOSITIVE_MAX_GEN) return false;
  for (int k = 0; k < n; k++) mpq_set(G[*ng * n + k], y[k]);
  (*ng)++;
  return true;
}

// Whether row b (n entries) is a positive multiple of row a: a_k b_l =
// a_l b_k for all k, l, and a . b > 0.
static bool same_halfspace(int n, mpq_t *a, mpq_t *b, mpq_t t, mpq_t u) {
  for (int k = 0; k < n; k++)
    for (int l = k + 1; l < n; l++) {
      mpq_mul(t, a[k], b[l]);
      mpq_mul(u, a[l], b[k]);
      if (!mpq_equal(t, u)) return false;
    }
  mpq_set_ui(u, 0, 1);
  for (int k = 0; k < n; k++) {
    mpq_mul(t, a[k], b[k]);
    mpq_add(u, u, t);
  }
  return mpq_sgn(u) > 0;
}

// Copies into R the rows of L (m x n) that are not zero and not a positive
// multiple of an earlier row (the same cone); their count.
static int distinct_rows(int n, int m, mpq_t *L, mpq_t *R) {
  mpq_t t, u;
  mpq_inits(t, u, NULL);
  int kept = 0;
  for (int r = 0; r < m; r++) {
    bool keep = false;
    for (int k = 0; k < n && !keep; k++) keep = mpq_sgn(L[r * n + k]) != 0;
    for (int q = 0; q < kept && keep; q++) keep = !same_halfspace(n, &R[q * n], &L[r * n], t, u);
    if (!keep) continue;
    for (int k = 0; k < n; k++) mpq_set(R[kept * n + k], L[r * n + k]);
    kept++;
  }
  mpq_clears(t, u, NULL);
  return kept;
}

bool copositive_cone_generators(int n, int m, mpq_t *L0, mpq_t *G, int *nlin, int *nrays) {
  *nlin = *nrays = 0;
  if (m > COPOSITIVE_MAX_ROWS || n > COPOSITIVE_MAX_DIM) return false;  // the stated limits
  // Zero and repeated rows leave the cone as it is and only multiply the
  // subsets of rows visited below.
  mpq_t *L = qalloc(m * n);
  const int m0 = m;
  m = distinct_rows(n, m0, L0, L);
  mpq_t *N = qalloc(n * n), *A = qalloc((n + m) * n), *Y = qalloc(n * n), t, u;
  mpq_inits(t, u, NULL);
  bool ok = true;
  int ng = 0;
  const int d = null_basis(m, n, L, N);
  for (int b = 0; b < d; b++) {
    for (int k = 0; k < n; k++) mpq_set(G[b * n + k], N[b * n + k]);
    normalise(n, &G[b * n]);
  }
  ng = d;
  // A row with an opposite one (r and -c r, c > 0) is an equality, tight at
  // every ray: the rays' tight sets are the equalities and enough other
  // rows, so only those others are chosen (C(m - 2k, .) subsets, not C(m, .)).
  int eq[COPOSITIVE_MAX_ROWS], fr[COPOSITIVE_MAX_ROWS], ne = 0, nf = 0;
  bool paired[COPOSITIVE_MAX_ROWS] = {false};
  for (int r = 0; r < m; r++) {
    for (int q = r + 1; q < m && !paired[r]; q++) {
      if (paired[q]) continue;
      for (int k = 0; k < n; k++) mpq_neg(Y[k], L[q * n + k]);
      if (same_halfspace(n, &L[r * n], Y, t, u)) paired[r] = paired[q] = true, eq[ne++] = r;
    }
    if (!paired[r]) fr[nf++] = r;
  }
  for (int r = 0; r < ne; r++)
    for (int k = 0; k < n; k++) mpq_set(A[r * n + k], L[eq[r] * n + k]);
  const int rank_eq = ne ? n - null_basis(ne, n, A, Y) : 0;
  const int need = n - d - 1 - rank_eq;  // other rows tight at an extreme ray
  if (need >= 0 && d + rank_eq < n) {
    int idx[COPOSITIVE_MAX_DIM];
    for (int k = 0; k < need; k++) idx[k] = k;
    for (bool more = need <= nf; more && ok;) {
      int rows = 0;
      for (int r = 0; r < d; r++, rows++)
        for (int k = 0; k < n; k++) mpq_set(A[rows * n + k], N[r * n + k]);
      for (int r = 0; r < ne; r++, rows++)
        for (int k = 0; k < n; k++) mpq_set(A[rows * n + k], L[eq[r] * n + k]);
      for (int r = 0; r < need; r++, rows++)
        for (int k = 0; k < n; k++) mpq_set(A[rows * n + k], L[fr[idx[r]] * n + k]);
      if (null_basis(rows, n, A, Y) == 1) {
        for (int sgn = 0; sgn < 2 && ok; sgn++) {
          if (feasible(m, n, L, Y)) ok = add_gen(n, G, d, &ng, Y);
          for (int k = 0; k < n; k++) mpq_neg(Y[k], Y[k]);
        }
      }
      // Next subset of need rows among the nf others (lexicographic).
      int p = need - 1;
      while (p >= 0 && idx[p] == nf - need + p) p--;
      if (p < 0) break;
      idx[p]++;
      for (int q = p + 1; q < need; q++) idx[q] = idx[q - 1] + 1;
    }
  }
  *nlin = d;
  *nrays = ng - d;
  mpq_clears(t, u, NULL);
  qfree(L, m0 * n);
  qfree(N, n * n);
  qfree(A, (n + m) * n);
  qfree(Y, n * n);
  return ok;
}

// Whether the principal submatrix of the integer matrix Z (order n) on the
// index set J (k entries) is invertible with an inverse <= 0 entrywise:
// fraction-free Gauss-Jordan elimination (Bareiss) of [Z_J | I], whose
// divisions are exact and which ends with d I on the left and d Z_J^-1 on
// the right, d = +-det Z_J.
static bool inverse_nonpositive(int n, mpz_t *Z, const int *J, int k) {
  const int w = 2 * k;
  mpz_t *A = malloc((size_t)(k * w) * sizeof *A), prev, t;
  if (!A) return false;
  mpz_inits(prev, t, NULL);
  for (int r = 0; r < k; r++)
    for (int c = 0; c < w; c++) {
      mpz_init(A[r * w + c]);
      if (c < k) mpz_set(A[r * w + c], Z[J[r] * n + J[c]]);
      else mpz_set_ui(A[r * w + c], r == c - k ? 1 : 0);
    }
  mpz_set_ui(prev, 1);
  bool bad = true;
  for (int col = 0; col < k && bad; col++) {
    int p = -1;
    for (int r = col; r < k && p < 0; r++)
      if (mpz_sgn(A[r * w + col]) != 0) p = r;
    if (p < 0) {
      bad = false;  // singular
      break;
    }
    if (p != col)
      for (int c = 0; c < w; c++) mpz_swap(A[p * w + c], A[col * w + c]);
    for (int r = 0; r < k; r++) {
      if (r == col) continue;
      for (int c = 0; c < w; c++) {
        if (c == col) continue;
        mpz_mul(A[r * w + c], A[r * w + c], A[col * w + col]);
        mpz_mul(t, A[r * w + col], A[col * w + c]);
        mpz_sub(A[r * w + c], A[r * w + c], t);
        mpz_divexact(A[r * w + c], A[r * w + c], prev);
      }
      mpz_set_ui(A[r * w + col], 0);
    }
    mpz_set(prev, A[col * w + col]);
  }
  // Rows not yet scaled to the last pivot: row r holds d_r I_r, with every
  // d_r of the sign of the final d (each is a leading minor ratio... use
  // the rows' own diagonal): Z_J^-1 entry (r, c) = A[r][k + c] / A[r][r].
  for (int r = 0; r < k && bad; r++) {
    const int sd = mpz_sgn(A[r * w + r]);
    for (int c = 0; c < k && bad; c++) bad = mpz_sgn(A[r * w + k + c]) * sd <= 0;
  }
  for (int q = 0; q < k * w; q++) mpz_clear(A[q]);
  free(A);
  mpz_clears(prev, t, NULL);
  return bad;
}

copositive_answer copositive_copositive(int n, mpq_t *M, unsigned long *witness) {
  // Reduction: an index k with M_kk >= 0 and M_kl >= 0 for every l adds
  // M_kk x_k^2 + 2 x_k sum_l M_kl x_l >= 0 to the form of the others, so M
  // is copositive exactly when M without k is. A negative diagonal: not.
  if (n > COPOSITIVE_MAX_GEN) return COPOSITIVE_TOO_LARGE;
  int keep[COPOSITIVE_MAX_GEN], nk = 0;
  for (int k = 0; k < n; k++) {
    if (mpq_sgn(M[k * n + k]) < 0) {
      if (witness) *witness = 1ul << k;
      return COPOSITIVE_NO;
    }
    keep[nk++] = k;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int a = 0; a < nk; a++) {
      bool nonneg = true;
      for (int b = 0; b < nk && nonneg; b++) nonneg = mpq_sgn(M[keep[a] * n + keep[b]]) >= 0;
      if (!nonneg) continue;
      keep[a] = keep[--nk];
      changed = true;
      break;
    }
  }
  if (nk == 0) return COPOSITIVE_YES;
  if (nk > COPOSITIVE_MAX_ORDER) return COPOSITIVE_TOO_LARGE;
  // The kept submatrix with each row scaled by a positive number to the
  // smallest integers (D M, D positive diagonal): (D M)_J^-1 = M_J^-1 D_J^-1
  // has the signs of M_J^-1, and the signs of the entries are M's.
  mpz_t *Z = malloc((size_t)(nk * nk) * sizeof *Z), den, g;
  if (!Z) return COPOSITIVE_TOO_LARGE;
  mpz_inits(den, g, NULL);
  for (int a = 0; a < nk; a++) {
    mpz_set_ui(den, 1);
    mpz_set_ui(g, 0);
    for (int b = 0; b < nk; b++) {
      mpz_lcm(den, den, mpq_denref(M[keep[a] * n + keep[b]]));
      mpz_gcd(g, g, mpq_numref(M[keep[a] * n + keep[b]]));
    }
    for (int b = 0; b < nk; b++) {
      mpq_srcptr q = M[keep[a] * n + keep[b]];
      mpz_init(Z[a * nk + b]);
      mpz_divexact(Z[a * nk + b], den, mpq_denref(q));
      mpz_mul(Z[a * nk + b], Z[a * nk + b], mpq_numref(q));
      if (mpz_sgn(g) != 0) mpz_divexact(Z[a * nk + b], Z[a * nk + b], g);
    }
  }
  mpz_clears(den, g, NULL);
  // Every principal submatrix by increasing order: the first whose inverse
  // is <= 0 has copositive proper principal submatrices (all smaller ones
  // passed), so by Cottle-Habetler-Lemke it is not copositive, and neither
  // is M. (Conversely x = -M_J^-1 e >= 0 gives x^T M_J x = e^T M_J^-1 e < 0.)
  // A subset with a row >= 0 (within it) is copositive when its proper
  // principal submatrices are (the reduction above): only subsets where
  // every row has a negative entry are inverted.
  int J[COPOSITIVE_MAX_ORDER];
  copositive_answer ans = COPOSITIVE_YES;
  for (int k = 1; k <= nk && ans == COPOSITIVE_YES; k++) {
    unsigned long s = (1ul << k) - 1;
    while (s < (1ul << nk) && ans == COPOSITIVE_YES) {
      int c = 0;
      for (int b = 0; b < nk; b++)
        if (s & (1ul << b)) J[c++] = b;
      bool each_row_negative = true;
      for (int r = 0; r < k && each_row_negative; r++) {
        bool neg = false;
        for (int q = 0; q < k && !neg; q++) neg = mpz_sgn(Z[J[r] * nk + J[q]]) < 0;
        each_row_negative = neg;
      }
      if (each_row_negative && inverse_nonpositive(nk, Z, J, k)) {
        if (witness) {
          *witness = 0;
          for (int b = 0; b < k; b++) *witness |= 1ul << keep[J[b]];
        }
        ans = COPOSITIVE_NO;
      }
      const unsigned long lo = s & -s, hi = s + lo;  // next with k bits (Gosper)
      s = (((hi ^ s) >> 2) / lo) | hi;
    }
  }
  for (int q = 0; q < nk * nk; q++) mpz_clear(Z[q]);
  free(Z);
  return ans;
}

copositive_answer copositive_cone_nonneg(int n, mpq_t *Q, int m, mpq_t *L, int *ngen) {
  if (n < 1 || n > COPOSITIVE_MAX_DIM || m < 0 || m > COPOSITIVE_MAX_ROWS)
    return COPOSITIVE_TOO_LARGE;
  mpq_t *G = qalloc(COPOSITIVE_MAX_GEN * n);
  int nlin = 0, nrays = 0;
  if (!copositive_cone_generators(n, m, L, G, &nlin, &nrays) ||
      2 * nlin + nrays > COPOSITIVE_MAX_GEN) {
    qfree(G, COPOSITIVE_MAX_GEN * n);
    if (ngen) *ngen = COPOSITIVE_MAX_GEN + 1;
    return COPOSITIVE_TOO_LARGE;
  }
  // The lineality space in both signs: -l after the rays.
  for (int b = 0; b < nlin; b++)
    for (int k = 0; k < n; k++) mpq_neg(G[(nlin + nrays + b) * n + k], G[b * n + k]);
  const int ng = 2 * nlin + nrays;
  if (ngen) *ngen = ng;
  // M = G^T Q G over the generators.
  mpq_t *QG = qalloc(n * ng), *M = qalloc(ng * ng), t;
  mpq_init(t);
  for (int r = 0; r < n; r++)
    for (int g = 0; g < ng; g++)
      for (int k = 0; k < n; k++) {
        mpq_mul(t, Q[r * n + k], G[g * n + k]);
        mpq_add(QG[r * ng + g], QG[r * ng + g], t);
      }
  for (int a = 0; a < ng; a++)
    for (int b = 0; b < ng; b++)
      for (int r = 0; r < n; r++) {
        mpq_mul(t, G[a * n + r], QG[r * ng + b]);
        mpq_add(M[a * ng + b], M[a * ng + b], t);
      }
  const copositive_answer ans = ng == 0 ? COPOSITIVE_YES : copositive_copositive(ng, M, NULL);
  mpq_clear(t);
  qfree(QG, n * ng);
  qfree(M, ng * ng);
  qfree(G, COPOSITIVE_MAX_GEN * n);
  return ans;
}
