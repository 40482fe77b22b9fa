// The exact check of a sums-of-squares constraint (sos_exact.h).
//
// Why it proves the claim: after the correction, expr - sum_i g_i
// z_i^T Q_i z_i - z^T Q z is the zero polynomial exactly (every monomial's
// equation holds in rationals), and each Q, Q_i is positive semidefinite
// exactly (an LDL^T factorisation with non-negative pivots, computed in
// rationals, is the matrix's congruence to a non-negative diagonal). So
// expr = sigma_0 + sum_i s_i g_i with sums of squares sigma_0, s_i: expr >= 0
// wherever every g_i >= 0. Nothing is rounded after the Gram matrices are
// read.
#include "sos/sos_exact.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sos/sos_check.h"

bool sos_exact_has(const poly_mono *set, int n, const poly_mono *m) {
  for (int k = 0; k < n; k++)
    if (memcmp(&set[k], m, sizeof *m) == 0) return true;
  return false;
}

// Appends m to a growing set unless present; false without memory.
static bool push(poly_mono **set, int *n, int *cap, const poly_mono *m) {
  if (sos_exact_has(*set, *n, m)) return true;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 32;
    poly_mono *g = realloc(*set, (size_t)*cap * sizeof *g);
    if (!g) return false;
    *set = g;
  }
  (*set)[(*n)++] = *m;
  return true;
}

bool sos_exact_reach(int ngs, const qpoly_poly *g, const sos_gram *gram, poly_mono **out, int *n) {
  *out = NULL;
  *n = 0;
  int cap = 0;
  const poly_mono one = {{0}};
  for (int G = 0; G <= ngs; G++) {
    const sos_gram *q = &gram[G];
    const int nt = G == 0 ? 1 : g[G - 1].n;
    for (int j = 0; j < q->n; j++)
      for (int k = j; k < q->n; k++)
        for (int t = 0; t < nt; t++) {
          poly_mono jk, a;
          poly_mono_add(&q->basis[j], &q->basis[k], &jk);
          poly_mono_add(G == 0 ? &one : &g[G - 1].m[t], &jk, &a);
          if (!push(out, n, &cap, &a)) return false;
        }
  }
  return true;
}

bool sos_exact_min_norm(int m, int n, mpq_t *A, mpq_t *r, mpq_t *d, int *rank) {
  return sos_exact_min_norm_in(m, n, A, r, d, rank, NULL);
}

bool sos_exact_min_norm_in(int m, int n, mpq_t *A, mpq_t *r, mpq_t *d, int *rank, const bool *use) {
  for (int k = 0; k < n; k++) mpq_set_ui(d[k], 0, 1);
  if (rank) *rank = 0;
  if (m == 0) return true;
  mpq_t *M = malloc((size_t)m * (size_t)m * sizeof *M), *y = malloc((size_t)m * sizeof *y);
  int *piv = malloc((size_t)m * sizeof *piv);
  if (!M || !y || !piv) {
    free(M);
    free(y);
    free(piv);
    return false;
  }
  mpq_t t, f;
  mpq_inits(t, f, NULL);
  for (int i = 0; i < m; i++) {
    mpq_init(y[i]);
    mpq_set(y[i], r[i]);
    piv[i] = -1;
    for (int j = 0; j < m; j++) mpq_init(M[i * m + j]);
  }
  // M = A A^T, over each column's non-zero rows.
  int *nz = malloc((size_t)m * sizeof *nz);
  bool ok = nz != NULL;
  for (int c = 0; ok && c < n; c++) {
    if (use && !use[c]) continue;
    int cnt = 0;
    for (int i = 0; i < m; i++)
      if (mpq_sgn(A[i * n + c]) != 0) nz[cnt++] = i;
    for (int a = 0; a < cnt; a++)
      for (int b = 0; b < cnt; b++) {
        mpq_mul(t, A[nz[a] * n + c], A[nz[b] * n + c]);
        mpq_add(M[nz[a] * m + nz[b]], M[nz[a] * m + nz[b]], t);
      }
  }
  free(nz);
  // Gauss-Jordan; a column without a pivot leaves its y at 0 (M is
  // symmetric positive semidefinite: any solution gives the same A^T y).
  bool *used = calloc((size_t)m, sizeof *used);
  ok = ok && used != NULL;
  for (int c = 0; ok && c < m; c++) {
    int p = -1;
    for (int i = 0; i < m && p < 0; i++)
      if (!used[i] && mpq_sgn(M[i * m + c]) != 0) p = i;
    if (p < 0) continue;
    used[p] = true;
    piv[c] = p;
    if (rank) (*rank)++;
    for (int i = 0; i < m; i++) {
      if (i == p || mpq_sgn(M[i * m + c]) == 0) continue;
      mpq_div(f, M[i * m + c], M[p * m + c]);
      for (int k = c; k < m; k++) {
        if (mpq_sgn(M[p * m + k]) == 0) continue;
        mpq_mul(t, f, M[p * m + k]);
        mpq_sub(M[i * m + k], M[i * m + k], t);
      }
      mpq_mul(t, f, y[p]);
      mpq_sub(y[i], y[i], t);
    }
  }
  for (int i = 0; ok && i < m; i++)  // rows without a pivot: 0 = y_i
    if (!used[i] && mpq_sgn(y[i]) != 0) ok = false;
  if (ok) {
    mpq_t *sol = malloc((size_t)m * sizeof *sol);
    ok = sol != NULL;
    for (int c = 0; ok && c < m; c++) {
      mpq_init(sol[c]);
      if (piv[c] >= 0) mpq_div(sol[c], y[piv[c]], M[piv[c] * m + c]);
    }
    for (int c = 0; ok && c < m; c++) {
      if (mpq_sgn(sol[c]) != 0)
        for (int k = 0; k < n; k++) {
          if ((use && !use[k]) || mpq_sgn(A[c * n + k]) == 0) continue;
          mpq_mul(t, sol[c], A[c * n + k]);
          mpq_add(d[k], d[k], t);
        }
    }
    for (int c = 0; ok && c < m; c++) mpq_clear(sol[c]);
    free(sol);
  }
  free(used);
  for (int i = 0; i < m; i++) {
    mpq_clear(y[i]);
    for (int j = 0; j < m; j++) mpq_clear(M[i * m + j]);
  }
  free(M);
  free(y);
  free(piv);
  mpq_clears(t, f, NULL);
  return ok;
}

bool sos_exact_psd(int n, mpq_t *a) {
  mpq_t f, t;
  mpq_inits(f, t, NULL);
  bool ok = true;
  for (int k = 0; ok && k < n; k++) {
    const int s = mpq_sgn(a[k * n + k]);
    if (s < 0) ok = false;
    if (s <= 0) {
      for (int i = k + 1; ok && i < n; i++) ok = mpq_sgn(a[i * n + k]) == 0;
      continue;
    }
    for (int i = k + 1; i < n; i++) {
      if (mpq_sgn(a[i * n + k]) == 0) continue;
      mpq_div(f, a[i * n + k], a[k * n + k]);
      for (int j = k + 1; j < n; j++) {
        if (mpq_sgn(a[k * n + j]) == 0) continue;
        mpq_mul(t, f, a[k * n + j]);
        mpq_sub(a[i * n + j], a[i * n + j], t);
      }
    }
  }
  mpq_clears(f, t, NULL);
  return ok;
}

// Whether Q + D is positive definite for the rounded Q (doubles, exactly
// q) and the exact correction d (n x n), by a floating-point Cholesky
// factorisation with room: with ||D||_2 <= ||D||_F <= enorm, when
// Q - (2 enorm + allowance) I factorises, lambda_min(Q + D) >= 2 enorm -
// enorm > 0 (the argument of sos_check.h). False decides nothing.
static bool pd_with_room(int n, mpq_t *q, mpq_t *qd) {
  if (n == 0) return true;
  long double *a = malloc((size_t)n * (size_t)n * sizeof *a);
  if (!a) return false;
  long double sum = 0.0L, max_diag = 0.0L;
  for (int i = 0; i < n * n; i++) {
    a[i] = mpq_get_d(q[i]);  // exact: q holds doubles
    mpq_t t;
    mpq_init(t);
    mpq_sub(t, qd[i], q[i]);
    // mpq_get_d truncates: |value| (1 + 2^-50) bounds |d|, and DBL_MIN
    // covers a value below the normal doubles.
    const long double v = fabsl((long double)mpq_get_d(t)) * (1.0L + 0x1p-50L) + DBL_MIN;
    mpq_clear(t);
    sum += v * v;
  }
  for (int i = 0; i < n; i++) max_diag = fmaxl(max_diag, fabsl(a[i * n + i]));
  const long double enorm = sqrtl(sum * (1.0L + 0x1p-40L)) * (1.0L + 0x1p-40L);
  const long double shift = 2.0L * enorm +
                            sos_cholesky_allowance(n, max_diag, (long double)DBL_EPSILON / 2.0L);
  const bool ok = sos_cholesky_ok(n, a, shift, false);
  free(a);
  return ok;
}

static int index_of(const poly_mono *set, int n, const poly_mono *m) {
  for (int k = 0; k < n; k++)
    if (memcmp(&set[k], m, sizeof *m) == 0) return k;
  return -1;
}

bool sos_exact_check(const qpoly_poly *expr, int ngs, const qpoly_poly *g, const sos_gram *gram,
                     char *why, size_t nwhy) {
  why[0] = '\0';
  poly_mono *rows = NULL;
  int m = 0, cap = 0;
  bool ok = sos_exact_reach(ngs, g, gram, &rows, &m);
  cap = m;
  for (int t = 0; ok && t < expr->n; t++) ok = push(&rows, &m, &cap, &expr->m[t]);
  // Columns: the upper-triangular entries of every Gram matrix.
  int n = 0;
  for (int G = 0; G <= ngs; G++) n += gram[G].n * (gram[G].n + 1) / 2;
  mpq_t *A = ok ? malloc((size_t)(m ? m : 1) * (size_t)(n ? n : 1) * sizeof *A) : NULL;
  mpq_t *r = ok ? malloc((size_t)(m ? m : 1) * sizeof *r) : NULL;
  mpq_t *d = ok ? malloc((size_t)(n ? n : 1) * sizeof *d) : NULL;
  mpq_t **Q = ok ? calloc((size_t)ngs + 1, sizeof *Q) : NULL;
  if (!A || !r || !d || !Q) {
    free(rows);
    free(A);
    free(r);
    free(d);
    free(Q);
    snprintf(why, nwhy, "out of memory");
    return false;
  }
  for (int i = 0; i < m * n; i++) mpq_init(A[i]);
  for (int i = 0; i < m; i++) mpq_init(r[i]);
  for (int k = 0; k < n; k++) mpq_init(d[k]);
  for (int t = 0; t < expr->n; t++) mpq_set(r[index_of(rows, m, &expr->m[t])], expr->c[t]);
  mpq_t t, q;
  mpq_inits(t, q, NULL);
  const poly_mono one = {{0}};
  for (int G = 0; ok && G <= ngs; G++) {
    const int nn = gram[G].n;
    Q[G] = malloc((size_t)(nn ? nn * nn : 1) * sizeof **Q);
    ok = Q[G] != NULL;
    for (int j = 0; ok && j < nn * nn; j++) mpq_init(Q[G][j]);
  }
  if (!ok) snprintf(why, nwhy, "out of memory");
  for (int G = 0, col = 0; ok && G <= ngs; G++) {
    const sos_gram *gr = &gram[G];
    const int nn = gr->n;
    for (int j = 0; j < nn; j++)
      for (int k = j; k < nn; k++, col++) {
        // Rounded and symmetrised as the floating-point re-check does.
        const double v = sos_round(0.5 * (gr->q[j * nn + k] + gr->q[k * nn + j]));
        mpq_set_d(q, v);
        mpq_set(Q[G][j * nn + k], q);
        mpq_set(Q[G][k * nn + j], q);
        const int nt = G == 0 ? 1 : g[G - 1].n;
        for (int s = 0; s < nt; s++) {
          poly_mono jk, a;
          poly_mono_add(&gr->basis[j], &gr->basis[k], &jk);
          poly_mono_add(G == 0 ? &one : &g[G - 1].m[s], &jk, &a);
          const int row = index_of(rows, m, &a);
          if (G == 0) mpq_set_ui(t, 1, 1);
          else mpq_set(t, g[G - 1].c[s]);
          if (j != k) mpq_add(t, t, t);
          mpq_add(A[row * n + col], A[row * n + col], t);
          mpq_mul(t, t, q);
          mpq_sub(r[row], r[row], t);  // the residual expr - sum of products
        }
      }
  }
  // The correction in the main matrix, the multipliers of polynomials of at
  // most two terms and the constant entries of the others first: their
  // entries touch few monomials and keep the numbers short; all entries
  // when that fails.
  bool *use = ok ? malloc((size_t)(n ? n : 1) * sizeof *use) : NULL;
  ok = ok && use != NULL;
  for (int G = 0, col = 0; ok && G <= ngs; G++)
    for (int j = 0; j < gram[G].n; j++)
      for (int k = j; k < gram[G].n; k++, col++)
        use[col] = G == 0 || g[G - 1].n <= 2 ||
                   (j == k && poly_mono_degree(&gram[G].basis[j]) == 0);
  if (ok && !sos_exact_min_norm_in(m, n, A, r, d, NULL, use))
    ok = sos_exact_min_norm(m, n, A, r, d, NULL);
  free(use);
  if (!ok && !why[0]) snprintf(why, nwhy, "a residual on a monomial no Gram matrix reaches");
  for (int G = 0, col = 0; ok && G <= ngs; G++) {
    const int nn = gram[G].n;
    mpq_t *Q0 = malloc((size_t)(nn ? nn * nn : 1) * sizeof *Q0);
    if (!Q0) {
      ok = false;
      snprintf(why, nwhy, "out of memory");
      break;
    }
    for (int j = 0; j < nn * nn; j++) {
      mpq_init(Q0[j]);
      mpq_set(Q0[j], Q[G][j]);
    }
    for (int j = 0; j < nn; j++)
      for (int k = j; k < nn; k++, col++) {
        mpq_add(Q[G][j * nn + k], Q[G][j * nn + k], d[col]);
        if (j != k) mpq_set(Q[G][k * nn + j], Q[G][j * nn + k]);
      }
    // Positive definite with room in floating point, else exactly.
    const bool fast = pd_with_room(nn, Q0, Q[G]);
    for (int j = 0; j < nn * nn; j++) mpq_clear(Q0[j]);
    free(Q0);
    if (!fast && !sos_exact_psd(nn, Q[G])) {
      ok = false;
      if (G == 0) snprintf(why, nwhy, "the main Gram matrix is not positive semidefinite");
      else snprintf(why, nwhy, "multiplier %d's Gram matrix is not positive semidefinite", G);
    }
  }
  for (int G = 0; G <= ngs; G++) {
    if (!Q[G]) continue;
    for (int j = 0; j < gram[G].n * gram[G].n; j++) mpq_clear(Q[G][j]);
    free(Q[G]);
  }
  for (int i = 0; i < m * n; i++) mpq_clear(A[i]);
  for (int i = 0; i < m; i++) mpq_clear(r[i]);
  for (int k = 0; k < n; k++) mpq_clear(d[k]);
  mpq_clears(t, q, NULL);
  free(Q);
  free(A);
  free(r);
  free(d);
  free(rows);
  return ok;
}
