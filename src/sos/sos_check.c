// The soundness re-check of a sums-of-squares solution (sos_check.h).
#include "sos/sos_check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/// Jacobi sweeps before giving up (quadratic convergence takes ~10).
#define SOS_JACOBI_MAX_SWEEPS 100

double sos_round(double x) {
  if (x == 0.0 || !isfinite(x)) return x;
  int ex;
  double m = frexp(x, &ex);
  return ldexp(nearbyint(ldexp(m, SOS_ROUND_BITS)), ex - SOS_ROUND_BITS);
}

long double sos_sym_min_eigenvalue(int n, const long double *a0) {
  long double *a = malloc((size_t)n * (size_t)n * sizeof *a);
  if (!a) return NAN;
  memcpy(a, a0, (size_t)n * (size_t)n * sizeof *a);
  for (int sweep = 0; sweep < SOS_JACOBI_MAX_SWEEPS; sweep++) {
    long double off = 0.0L, all = 0.0L;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        all += a[i * n + j] * a[i * n + j];
        if (i != j) off += a[i * n + j] * a[i * n + j];
      }
    if (off <= all * LDBL_EPSILON * LDBL_EPSILON) break;
    for (int p = 0; p < n; p++)
      for (int q = p + 1; q < n; q++) {
        long double apq = a[p * n + q];
        if (apq == 0.0L) continue;
        long double theta = (a[q * n + q] - a[p * n + p]) / (2.0L * apq);
        long double t = (theta >= 0 ? 1.0L : -1.0L) / (fabsl(theta) + sqrtl(theta * theta + 1.0L));
        long double c = 1.0L / sqrtl(t * t + 1.0L), s = t * c;
        for (int k = 0; k < n; k++) {  // columns p, q
          long double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; k++) {  // rows p, q
          long double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
  }
  long double lo = a[0];
  for (int i = 1; i < n; i++) lo = a[i * n + i] < lo ? a[i * n + i] : lo;
  free(a);
  return lo;
}

bool sos_cholesky_ok(int n, const long double *a, long double shift, bool long_double) {
  long double *l = calloc((size_t)n * (size_t)n, sizeof *l);
  if (!l) return false;
  bool ok = true;
  for (int j = 0; ok && j < n; j++) {
    for (int i = j; i < n; i++) {
      if (long_double) {
        long double s = a[i * n + j] - (i == j ? shift : 0.0L);
        for (int k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
        if (i == j) {
          ok = s > 0.0L;
          l[j * n + j] = ok ? sqrtl(s) : 0.0L;
        } else {
          l[i * n + j] = s / l[j * n + j];
        }
      } else {
        double s = (double)a[i * n + j] - (i == j ? (double)shift : 0.0);
        for (int k = 0; k < j; k++) s -= (double)l[i * n + k] * (double)l[j * n + k];
        if (i == j) {
          ok = s > 0.0;
          l[j * n + j] = ok ? sqrt(s) : 0.0;
        } else {
          l[i * n + j] = (double)(s / (double)l[j * n + j]);
        }
      }
      if (!ok) break;
    }
  }
  free(l);
  return ok;
}

// Rounding allowance of a Cholesky factorisation of order n (Higham,
// Accuracy and Stability, Thm 10.3: the factors are exact for A + dA with
// |dA| <= gamma_{n+1} |R^T||R|, so ||dA||_2 <= gamma_{n+1} n max A_jj (1 +
// gamma)), doubled to cover the shift's own rounding, in unit roundoff u.
long double sos_cholesky_allowance(int n, long double max_diag, long double u) {
  long double gamma = (n + 2) * u / (1.0L - (n + 2) * u);
  return 2.0L * gamma * n * max_diag * (1.0L + gamma);
}

// One contribution to the residual of a monomial.
typedef struct contrib {
  poly_mono m;
  long double value, abs;
} contrib;

typedef struct contribs {
  contrib *c;
  int n, cap;
} contribs;

static bool push(contribs *r, const poly_mono *m, long double v) {
  if (r->n == r->cap) {
    int cap = r->cap ? 2 * r->cap : 256;
    contrib *g = realloc(r->c, (size_t)cap * sizeof *g);
    if (!g) return false;
    r->c = g;
    r->cap = cap;
  }
  r->c[r->n++] = (contrib){*m, v, fabsl(v)};
  return true;
}

static int contrib_cmp(const void *a, const void *b) {
  return poly_mono_compare(&((const contrib *)a)->m, &((const contrib *)b)->m);
}

// Rounded, symmetrised copy of a Gram matrix in long double.
static long double *rounded_gram(const sos_gram *g) {
  const int n = g->n;
  long double *q = malloc((size_t)(n ? n * n : 1) * sizeof *q);
  if (!q) return NULL;
  for (int i = 0; i < n; i++)
    for (int j = i; j < n; j++) {
      double v = sos_round(0.5 * (g->q[i * n + j] + g->q[j * n + i]));
      q[i * n + j] = q[j * n + i] = v;
    }
  return q;
}

// Adds -coef * z^T Q z (shifted by a monomial) to the contributions.
static bool gram_contribs(contribs *r, const sos_gram *g, const long double *q,
                          const poly_mono *shift, double coef) {
  for (int j = 0; j < g->n; j++)
    for (int k = 0; k < g->n; k++) {
      poly_mono jk, a;
      poly_mono_add(&g->basis[j], &g->basis[k], &jk);
      poly_mono_add(shift, &jk, &a);
      if (!push(r, &a, -(long double)coef * q[j * g->n + k])) return false;
    }
  return true;
}

// Checks one Gram matrix q against a residual norm; updates out.
static bool gram_ok(int n, const long double *q, long double enorm, sos_check *out) {
  if (n == 0) return enorm == 0.0L;
  long double max_diag = 0.0L;
  for (int i = 0; i < n; i++)
    max_diag = fabsl(q[i * n + i]) > max_diag ? fabsl(q[i * n + i]) : max_diag;
  const long double lmin = sos_sym_min_eigenvalue(n, q);
  const long double margin = lmin - enorm;
  if ((double)lmin < out->min_eigenvalue) out->min_eigenvalue = (double)lmin;
  if ((double)margin < out->margin) out->margin = (double)margin;
  const long double base = enorm * (1.0L + SOS_RESIDUAL_SAFETY);
  const long double ud = DBL_EPSILON / 2.0, ul = LDBL_EPSILON / 2.0L;
  return sos_cholesky_ok(n, q, base + sos_cholesky_allowance(n, max_diag, ud), false) &&
         sos_cholesky_ok(n, q, base + sos_cholesky_allowance(n, max_diag, ul), true);
}

// The residual norm ||E||_F of constraint c (with the error bound of its
// long double evaluation), or -1 when a residual falls on a monomial that
// no product of the main basis makes.
static long double residual_norm(const sos_constraint *c, const double *scalars,
                                 const sos_gram *gram, long double *const *q, double *max_residual,
                                 bool *nomem) {
  contribs r = {0};
  poly_mono one;
  memset(&one, 0, sizeof one);
  bool ok = true;
  for (int k = 0; ok && k < c->expr.nparts; k++) {
    const double s = c->expr.var[k] == SOS_CONSTANT ? 1.0 : scalars[c->expr.var[k]];
    for (int t = 0; ok && t < c->expr.part[k].nterms; t++)
      ok = push(&r, &c->expr.part[k].t[t].m, (long double)c->expr.part[k].t[t].c * s);
  }
  ok = ok && gram_contribs(&r, &gram[0], q[0], &one, 1.0);
  for (int i = 0; ok && i < c->ngs; i++)
    for (int t = 0; ok && t < c->g[i].nterms; t++)
      ok = gram_contribs(&r, &gram[1 + i], q[1 + i], &c->g[i].t[t].m, c->g[i].t[t].c);
  if (!ok) {
    free(r.c);
    *nomem = true;
    return -1.0L;
  }
  if (r.n > 0) qsort(r.c, (size_t)r.n, sizeof *r.c, contrib_cmp);  // none: r.c may be NULL
  long double sum2 = 0.0L;
  bool absorbed = true;
  for (int a = 0; a < r.n;) {
    int b = a;
    long double v = 0.0L, abs = 0.0L;
    for (; b < r.n && poly_mono_compare(&r.c[a].m, &r.c[b].m) == 0; b++) {
      v += r.c[b].value;
      abs += r.c[b].abs;
    }
    // Each product and sum in long double errs by at most u_L of its size.
    const long double bound = fabsl(v) + (b - a + 3) * LDBL_EPSILON * abs;
    if (fabsl(v) > *max_residual) *max_residual = (double)fabsl(v);
    int pairs = 0;
    const sos_gram *g = &gram[0];
    for (int j = 0; j < g->n; j++)
      for (int k = 0; k < g->n; k++) {
        poly_mono jk;
        poly_mono_add(&g->basis[j], &g->basis[k], &jk);
        pairs += poly_mono_compare(&jk, &r.c[a].m) == 0;
      }
    if (pairs == 0 && bound > 0.0L) absorbed = false;
    else if (pairs > 0) sum2 += bound * bound / pairs;
    a = b;
  }
  free(r.c);
  return absorbed ? sqrtl(sum2) : -1.0L;
}

zeno_status sos_check_solution(const sos_program *p, const sos_solution *s, sos_check *out,
                               zeno_error *e) {
  memset(out, 0, sizeof *out);
  out->failed_constraint = -1;
  out->margin = out->min_eigenvalue = INFINITY;
  if (s->status != SOS_FEASIBLE || s->ncons != p->ncons || s->nscalars != p->nscalars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "only a feasible solution of the same program can be checked");
  double *scalars = malloc((size_t)(p->nscalars ? p->nscalars : 1) * sizeof *scalars);
  if (!scalars) return zeno_fail(e, ZENO_ERR_NOMEM, "sos", "out of memory");
  for (int v = 0; v < p->nscalars; v++) scalars[v] = sos_round(s->scalars[v]);
  zeno_status st = ZENO_OK;
  out->certified = true;
  for (int c = 0, g0 = 0; st == ZENO_OK && c < p->ncons; g0 += s->ngrams[c], c++) {
    const sos_constraint *k = &p->cons[c];
    long double **q = calloc((size_t)k->ngs + 1, sizeof *q);
    bool nomem = !q || s->ngrams[c] != 1 + k->ngs;
    for (int i = 0; !nomem && i <= k->ngs; i++) nomem = !(q[i] = rounded_gram(&s->gram[g0 + i]));
    long double enorm = -1.0L;
    if (!nomem) enorm = residual_norm(k, scalars, &s->gram[g0], q, &out->max_residual, &nomem);
    if (nomem) {
      st = zeno_fail(e, ZENO_ERR_NOMEM, "sos", "out of memory");
    } else {
      if ((double)enorm > out->residual_norm) out->residual_norm = (double)enorm;
      bool ok = enorm >= 0.0L;
      if (!ok)
        snprintf(out->reason, sizeof out->reason,
                 "constraint %d: a residual on a monomial outside its Gram basis", c);
      if (ok && !gram_ok(s->gram[g0].n, q[0], enorm, out)) {
        ok = false;
        snprintf(out->reason, sizeof out->reason,
                 "constraint %d: its Gram matrix is not positive definite by more than "
                 "its residual (%.3g)",
                 c, (double)enorm);
      }
      for (int i = 1; ok && i <= k->ngs; i++)
        if (!gram_ok(s->gram[g0 + i].n, q[i], 0.0L, out)) {
          ok = false;
          snprintf(out->reason, sizeof out->reason,
                   "constraint %d: multiplier %d is not positive definite", c, i - 1);
        }
      if (!ok && out->certified) {
        out->certified = false;
        out->failed_constraint = c;
      }
    }
    for (int i = 0; q && i <= k->ngs; i++) free(q[i]);
    free(q);
  }
  free(scalars);
  if (st != ZENO_OK) out->certified = false;
  return st;
}
