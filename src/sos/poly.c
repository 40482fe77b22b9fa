// Multivariate polynomials (poly.h): sorted term arrays, merged on insert.
#include "sos/poly.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int poly_mono_degree(const poly_mono *m) {
  int d = 0;
  for (int v = 0; v < POLY_MAX_VARS; v++) d += m->e[v];
  return d;
}

int poly_mono_compare(const poly_mono *a, const poly_mono *b) {
  int da = poly_mono_degree(a), db = poly_mono_degree(b);
  if (da != db) return da < db ? -1 : 1;
  for (int v = 0; v < POLY_MAX_VARS; v++)
    if (a->e[v] != b->e[v]) return a->e[v] > b->e[v] ? -1 : 1;
  return 0;
}

bool poly_mono_add(const poly_mono *a, const poly_mono *b, poly_mono *sum) {
  if (poly_mono_degree(a) + poly_mono_degree(b) > POLY_MAX_DEGREE) return false;
  for (int v = 0; v < POLY_MAX_VARS; v++) sum->e[v] = (unsigned char)(a->e[v] + b->e[v]);
  return true;
}

static zeno_status degree_error(zeno_error *e) {
  return zeno_fail(e, ZENO_ERR_RANGE, "polynomial.degree",
                   "a monomial of total degree above %d (POLY_MAX_DEGREE)", POLY_MAX_DEGREE);
}

static zeno_status nomem(zeno_error *e) {
  return zeno_fail(e, ZENO_ERR_NOMEM, "polynomial", "out of memory");
}

// Monomials of degree exactly d in variables v..nvars-1, appended.
static void basis_rec(int nvars, int v, int d, poly_mono *cur, poly_mono *out, int *count) {
  if (v == nvars - 1) {
    cur->e[v] = (unsigned char)d;
    out[(*count)++] = *cur;
    cur->e[v] = 0;
    return;
  }
  for (int k = d; k >= 0; k--) {
    cur->e[v] = (unsigned char)k;
    basis_rec(nvars, v + 1, d - k, cur, out, count);
  }
  cur->e[v] = 0;
}

static int binomial(int n, int k) {
  double r = 1.0;
  for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
  return (int)lround(r);
}

zeno_status poly_mono_basis(int nvars, int dmin, int dmax, poly_mono **out, int *count,
                            zeno_error *e) {
  *out = NULL;
  *count = 0;
  const zeno_status vst = poly_check_vars(nvars, "polynomial.variables", e);
  if (vst != ZENO_OK) return vst;
  if (dmin < 0) dmin = 0;
  if (dmax > POLY_MAX_DEGREE) return degree_error(e);
  if (dmax < dmin) return ZENO_OK;
  // Monomials of degree <= d in n variables: C(n + d, d).
  int total = binomial(nvars + dmax, dmax) - (dmin > 0 ? binomial(nvars + dmin - 1, dmin - 1) : 0);
  *out = malloc((size_t)total * sizeof **out);
  if (!*out) return nomem(e);
  poly_mono cur;
  memset(&cur, 0, sizeof cur);
  for (int d = dmin; d <= dmax; d++) basis_rec(nvars, 0, d, &cur, *out, count);
  return ZENO_OK;
}

zeno_status poly_mono_basis_weighted(int nvars, const int *weight, const int *max_exp, int wmin,
                                     int wmax, poly_mono **out, int *count, zeno_error *e) {
  *out = NULL;
  *count = 0;
  for (int v = 0; v < nvars && nvars <= POLY_MAX_VARS; v++)
    if (weight[v] < 1)
      return zeno_fail(e, ZENO_ERR_RANGE, "polynomial.weight",
                       "weight %d of variable %d (must be >= 1)", weight[v], v);
  // Every monomial of weighted degree <= wmax has total degree <= wmax.
  poly_mono *all;
  int n;
  zeno_status st = poly_mono_basis(nvars, 0, wmax < POLY_MAX_DEGREE ? wmax : POLY_MAX_DEGREE, &all,
                                   &n, e);
  if (st != ZENO_OK) return st;
  int kept = 0;
  for (int k = 0; k < n; k++) {
    int w = 0;
    bool ok = true;
    for (int v = 0; v < nvars; v++) {
      w += weight[v] * all[k].e[v];
      ok = ok && (!max_exp || all[k].e[v] <= max_exp[v]);
    }
    if (ok && w >= wmin && w <= wmax) all[kept++] = all[k];
  }
  if (kept == 0) {
    free(all);
    all = NULL;
  }
  *out = all;
  *count = kept;
  return ZENO_OK;
}

zeno_status poly_check_vars(int nvars, const char *what, zeno_error *e) {
  if (nvars < 1 || nvars > POLY_MAX_VARS)
    return zeno_fail(e, ZENO_ERR_RANGE, what, "%d variables (allowed 1 to %d, POLY_MAX_VARS)",
                     nvars, POLY_MAX_VARS);
  return ZENO_OK;
}

zeno_status poly_init(ze_poly *p, int nvars, zeno_error *e) {
  memset(p, 0, sizeof *p);
  const zeno_status vst = poly_check_vars(nvars, "polynomial.variables", e);
  if (vst != ZENO_OK) return vst;
  p->nvars = nvars;
  return ZENO_OK;
}

void poly_free(ze_poly *p) {
  free(p->t);
  p->t = NULL;
  p->nterms = p->cap = 0;
}

void poly_clear(ze_poly *p) { p->nterms = 0; }

static bool reserve(ze_poly *p, int n) {
  if (n <= p->cap) return true;
  int cap = p->cap ? p->cap : 8;
  while (cap < n) cap *= 2;
  poly_term *t = realloc(p->t, (size_t)cap * sizeof *t);
  if (!t) return false;
  p->t = t;
  p->cap = cap;
  return true;
}

zeno_status poly_copy(ze_poly *dst, const ze_poly *src, zeno_error *e) {
  dst->nvars = src->nvars;
  if (!reserve(dst, src->nterms)) return nomem(e);
  if (src->nterms) memcpy(dst->t, src->t, (size_t)src->nterms * sizeof *src->t);
  dst->nterms = src->nterms;
  return ZENO_OK;
}

// Index of m in p, or -(insertion point) - 1.
static int find(const ze_poly *p, const poly_mono *m) {
  int lo = 0, hi = p->nterms - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2, c = poly_mono_compare(&p->t[mid].m, m);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -lo - 1;
}

zeno_status poly_add_term(ze_poly *p, const poly_mono *m, double c, zeno_error *e) {
  if (poly_mono_degree(m) > POLY_MAX_DEGREE) return degree_error(e);
  for (int v = p->nvars; v < POLY_MAX_VARS; v++)
    if (m->e[v])
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "polynomial",
                       "a monomial in variable %d of a polynomial in %d variables", v, p->nvars);
  if (c == 0.0) return ZENO_OK;
  int at = find(p, m);
  if (at >= 0) {
    p->t[at].c += c;
    if (p->t[at].c == 0.0) {
      memmove(&p->t[at], &p->t[at + 1], (size_t)(p->nterms - at - 1) * sizeof *p->t);
      p->nterms--;
    }
    return ZENO_OK;
  }
  at = -at - 1;
  if (!reserve(p, p->nterms + 1)) return nomem(e);
  memmove(&p->t[at + 1], &p->t[at], (size_t)(p->nterms - at) * sizeof *p->t);
  p->t[at] = (poly_term){*m, c};
  p->nterms++;
  return ZENO_OK;
}

zeno_status poly_from_list(ze_poly *p, int nvars, int nterms, const double *coef, const int *exps,
                           zeno_error *e) {
  zeno_status st = poly_init(p, nvars, e);
  for (int k = 0; st == ZENO_OK && k < nterms; k++) {
    poly_mono m;
    memset(&m, 0, sizeof m);
    for (int v = 0; v < nvars; v++) {
      int x = exps[k * nvars + v];
      if (x < 0 || x > POLY_MAX_DEGREE) {
        poly_free(p);
        return degree_error(e);
      }
      m.e[v] = (unsigned char)x;
    }
    st = poly_add_term(p, &m, coef[k], e);
  }
  if (st != ZENO_OK) poly_free(p);
  return st;
}

zeno_status poly_var(ze_poly *p, int nvars, int var, zeno_error *e) {
  zeno_status st = poly_init(p, nvars, e);
  if (st != ZENO_OK) return st;
  if (var < 0 || var >= nvars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "polynomial", "variable %d of %d", var, nvars);
  poly_mono m;
  memset(&m, 0, sizeof m);
  m.e[var] = 1;
  return poly_add_term(p, &m, 1.0, e);
}

zeno_status poly_axpy(ze_poly *dst, double s, const ze_poly *src, zeno_error *e) {
  if (dst == src) {
    poly_scale(dst, 1.0 + s);
    return ZENO_OK;
  }
  for (int k = 0; k < src->nterms; k++) {
    zeno_status st = poly_add_term(dst, &src->t[k].m, s * src->t[k].c, e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

void poly_scale(ze_poly *p, double s) {
  if (s == 0.0) {
    p->nterms = 0;
    return;
  }
  for (int k = 0; k < p->nterms; k++) p->t[k].c *= s;
}

zeno_status poly_mul(ze_poly *out, const ze_poly *a, const ze_poly *b, zeno_error *e) {
  poly_clear(out);
  out->nvars = a->nvars > b->nvars ? a->nvars : b->nvars;
  for (int i = 0; i < a->nterms; i++)
    for (int j = 0; j < b->nterms; j++) {
      poly_mono m;
      if (!poly_mono_add(&a->t[i].m, &b->t[j].m, &m)) return degree_error(e);
      zeno_status st = poly_add_term(out, &m, a->t[i].c * b->t[j].c, e);
      if (st != ZENO_OK) return st;
    }
  return ZENO_OK;
}

zeno_status poly_deriv(ze_poly *out, const ze_poly *p, int var, zeno_error *e) {
  if (var < 0 || var >= p->nvars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "polynomial", "variable %d of %d", var, p->nvars);
  poly_clear(out);
  out->nvars = p->nvars;
  for (int k = 0; k < p->nterms; k++) {
    if (!p->t[k].m.e[var]) continue;
    poly_mono m = p->t[k].m;
    double c = p->t[k].c * m.e[var];
    m.e[var]--;
    zeno_status st = poly_add_term(out, &m, c, e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

zeno_status poly_compose(ze_poly *out, const ze_poly *p, const ze_poly *map, zeno_error *e) {
  const int ny = map[0].nvars;
  poly_clear(out);
  out->nvars = ny;
  // powers[v][k] = map_v^k, built as needed up to the highest exponent.
  int maxe[POLY_MAX_VARS] = {0};
  for (int k = 0; k < p->nterms; k++)
    for (int v = 0; v < p->nvars; v++)
      if (p->t[k].m.e[v] > maxe[v]) maxe[v] = p->t[k].m.e[v];
  ze_poly pw[POLY_MAX_VARS][POLY_MAX_DEGREE + 1];
  memset(pw, 0, sizeof pw);
  ze_poly term, tmp;
  memset(&term, 0, sizeof term);
  memset(&tmp, 0, sizeof tmp);
  zeno_status st = ZENO_OK;
  for (int v = 0; v < p->nvars && st == ZENO_OK; v++) {
    if (map[v].nvars != ny) {
      st = zeno_fail(e, ZENO_ERR_ARGUMENT, "polynomial",
                     "the substituted polynomials have different variables");
      break;
    }
    pw[v][0].nvars = ny;
    poly_mono one;
    memset(&one, 0, sizeof one);
    st = poly_add_term(&pw[v][0], &one, 1.0, e);
    for (int k = 1; k <= maxe[v] && st == ZENO_OK; k++)
      st = poly_mul(&pw[v][k], &pw[v][k - 1], &map[v], e);
  }
  for (int k = 0; k < p->nterms && st == ZENO_OK; k++) {
    term.nvars = ny;
    poly_clear(&term);
    poly_mono one;
    memset(&one, 0, sizeof one);
    st = poly_add_term(&term, &one, p->t[k].c, e);
    for (int v = 0; v < p->nvars && st == ZENO_OK; v++) {
      if (!p->t[k].m.e[v]) continue;
      st = poly_mul(&tmp, &term, &pw[v][p->t[k].m.e[v]], e);
      if (st == ZENO_OK) st = poly_copy(&term, &tmp, e);
    }
    if (st == ZENO_OK) st = poly_axpy(out, 1.0, &term, e);
  }
  for (int v = 0; v < POLY_MAX_VARS; v++)
    for (int k = 0; k <= POLY_MAX_DEGREE; k++) poly_free(&pw[v][k]);
  poly_free(&term);
  poly_free(&tmp);
  return st;
}

int poly_degree(const ze_poly *p) {
  return p->nterms ? poly_mono_degree(&p->t[p->nterms - 1].m) : -1;
}

int poly_min_degree(const ze_poly *p) { return p->nterms ? poly_mono_degree(&p->t[0].m) : -1; }

double poly_coef(const ze_poly *p, const poly_mono *m) {
  int at = find(p, m);
  return at >= 0 ? p->t[at].c : 0.0;
}

double poly_eval(const ze_poly *p, const double *x) {
  double sum = 0.0;
  for (int k = 0; k < p->nterms; k++) {
    double t = p->t[k].c;
    for (int v = 0; v < p->nvars; v++)
      for (int j = 0; j < p->t[k].m.e[v]; j++) t *= x[v];
    sum += t;
  }
  return sum;
}

long double poly_eval_l(const ze_poly *p, const long double *x) {
  long double sum = 0.0L;
  for (int k = 0; k < p->nterms; k++) {
    long double t = p->t[k].c;
    for (int v = 0; v < p->nvars; v++)
      for (int j = 0; j < p->t[k].m.e[v]; j++) t *= x[v];
    sum += t;
  }
  return sum;
}
