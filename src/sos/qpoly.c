// Exact rational polynomials (qpoly.h).
#include "sos/qpoly.h"

#include <stdlib.h>
#include <string.h>

void qpoly_init(qpoly_poly *p) { memset(p, 0, sizeof *p); }

void qpoly_clear(qpoly_poly *p) {
  for (int k = 0; k < p->cap; k++) mpq_clear(p->c[k]);
  free(p->m);
  free(p->c);
  memset(p, 0, sizeof *p);
}

void qpoly_zero(qpoly_poly *p) { p->n = 0; }

static int find(const qpoly_poly *p, const poly_mono *m) {
  for (int k = 0; k < p->n; k++)
    if (memcmp(&p->m[k], m, sizeof *m) == 0) return k;
  return -1;
}

bool qpoly_add_term(qpoly_poly *p, const poly_mono *m, const mpq_t s) {
  if (mpq_sgn(s) == 0) return true;
  int k = find(p, m);
  if (k >= 0) {
    mpq_add(p->c[k], p->c[k], s);
    if (mpq_sgn(p->c[k]) == 0) {  // keep no zero term: move the last here
      p->n--;
      if (k != p->n) {
        p->m[k] = p->m[p->n];
        mpq_swap(p->c[k], p->c[p->n]);
      }
    }
    return true;
  }
  if (p->n == p->cap) {
    const int cap = p->cap ? 2 * p->cap : 16;
    poly_mono *m2 = realloc(p->m, (size_t)cap * sizeof *m2);
    if (!m2) return false;
    p->m = m2;
    mpq_t *c2 = realloc(p->c, (size_t)cap * sizeof *c2);
    if (!c2) return false;
    p->c = c2;
    for (int j = p->cap; j < cap; j++) mpq_init(p->c[j]);
    p->cap = cap;
  }
  p->m[p->n] = *m;
  mpq_set(p->c[p->n], s);
  p->n++;
  return true;
}

bool qpoly_axpy(qpoly_poly *p, const mpq_t s, const qpoly_poly *q) {
  mpq_t t;
  mpq_init(t);
  bool ok = true;
  for (int k = 0; ok && k < q->n; k++) {
    mpq_mul(t, s, q->c[k]);
    ok = qpoly_add_term(p, &q->m[k], t);
  }
  mpq_clear(t);
  return ok;
}

bool qpoly_mul(qpoly_poly *out, const qpoly_poly *a, const qpoly_poly *b) {
  qpoly_zero(out);
  mpq_t t;
  mpq_init(t);
  bool ok = true;
  for (int i = 0; ok && i < a->n; i++)
    for (int j = 0; ok && j < b->n; j++) {
      poly_mono m;
      ok = poly_mono_add(&a->m[i], &b->m[j], &m);
      mpq_mul(t, a->c[i], b->c[j]);
      ok = ok && qpoly_add_term(out, &m, t);
    }
  mpq_clear(t);
  return ok;
}

bool qpoly_mono_compose(qpoly_poly *out, const poly_mono *m, const qpoly_poly *map, int nvars) {
  qpoly_poly acc, tmp;
  qpoly_init(&acc);
  qpoly_init(&tmp);
  mpq_t one;
  mpq_init(one);
  mpq_set_ui(one, 1, 1);
  const poly_mono unit = {{0}};
  bool ok = qpoly_add_term(&acc, &unit, one);
  for (int v = 0; ok && v < nvars; v++)
    for (int p = 0; ok && p < m->e[v]; p++) {
      ok = qpoly_mul(&tmp, &acc, &map[v]);
      qpoly_poly swap = acc;
      acc = tmp;
      tmp = swap;
    }
  qpoly_zero(out);
  ok = ok && qpoly_axpy(out, one, &acc);
  mpq_clear(one);
  qpoly_clear(&acc);
  qpoly_clear(&tmp);
  return ok;
}

void qpoly_coef(mpq_t out, const qpoly_poly *p, const poly_mono *m) {
  const int k = find(p, m);
  if (k >= 0) mpq_set(out, p->c[k]);
  else mpq_set_ui(out, 0, 1);
}

zeno_status qpoly_to_poly(const qpoly_poly *p, ze_poly *q, zeno_error *e) {
  for (int k = 0; k < p->n; k++) {
    const zeno_status st = poly_add_term(q, &p->m[k], mpq_get_d(p->c[k]), e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}
