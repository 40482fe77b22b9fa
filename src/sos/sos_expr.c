// Sums-of-squares programs, the building side (sos.h): expressions affine
// in the decision scalars, and the program's scalars, constraints,
// equalities and objective.
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "sos/sos.h"

static zeno_status nomem(zeno_error *e) {
  return zeno_fail(e, ZENO_ERR_NOMEM, "sos", "out of memory");
}

zeno_status sos_expr_init(sos_expr *x, int nvars, zeno_error *e) {
  memset(x, 0, sizeof *x);
  const zeno_status vst = poly_check_vars(nvars, "sos.variables", e);
  if (vst != ZENO_OK) return vst;
  x->nvars = nvars;
  return ZENO_OK;
}

void sos_expr_free(sos_expr *x) {
  for (int k = 0; k < x->nparts; k++) poly_free(&x->part[k]);
  free(x->part);
  free(x->var);
  int nvars = x->nvars;
  memset(x, 0, sizeof *x);
  x->nvars = nvars;
}

// The part of scalar var, created (zero) when absent; NULL without memory.
static ze_poly *part_of(sos_expr *x, int var) {
  for (int k = 0; k < x->nparts; k++)
    if (x->var[k] == var) return &x->part[k];
  if (x->nparts == x->cap) {
    int cap = x->cap ? 2 * x->cap : 8;
    int *v = realloc(x->var, (size_t)cap * sizeof *v);
    if (!v) return NULL;
    x->var = v;
    ze_poly *p = realloc(x->part, (size_t)cap * sizeof *p);
    if (!p) return NULL;
    x->part = p;
    x->cap = cap;
  }
  x->var[x->nparts] = var;
  memset(&x->part[x->nparts], 0, sizeof x->part[0]);
  x->part[x->nparts].nvars = x->nvars;
  return &x->part[x->nparts++];
}

zeno_status sos_expr_add(sos_expr *x, int var, double s, const ze_poly *p, zeno_error *e) {
  if (p->nvars != x->nvars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "a polynomial in %d variables added to an expression in %d", p->nvars,
                     x->nvars);
  if (var < SOS_CONSTANT)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var);
  ze_poly *q = part_of(x, var);
  return q ? poly_axpy(q, s, p, e) : nomem(e);
}

zeno_status sos_expr_axpy(sos_expr *x, double s, const sos_expr *y, zeno_error *e) {
  for (int k = 0; k < y->nparts; k++) {
    zeno_status st = sos_expr_add(x, y->var[k], s, &y->part[k], e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

zeno_status sos_expr_mul(sos_expr *out, const sos_expr *x, const ze_poly *p, zeno_error *e) {
  ze_poly prod;
  zeno_status st = poly_init(&prod, x->nvars, e);
  for (int k = 0; st == ZENO_OK && k < x->nparts; k++) {
    st = poly_mul(&prod, &x->part[k], p, e);
    if (st == ZENO_OK) st = sos_expr_add(out, x->var[k], 1.0, &prod, e);
  }
  poly_free(&prod);
  return st;
}

zeno_status sos_expr_compose(sos_expr *out, const sos_expr *x, const ze_poly *map, zeno_error *e) {
  ze_poly comp;
  zeno_status st = poly_init(&comp, map[0].nvars, e);
  for (int k = 0; st == ZENO_OK && k < x->nparts; k++) {
    st = poly_compose(&comp, &x->part[k], map, e);
    if (st == ZENO_OK) st = sos_expr_add(out, x->var[k], 1.0, &comp, e);
  }
  poly_free(&comp);
  return st;
}

zeno_status sos_expr_value(ze_poly *out, const sos_expr *x, const double *scalars, zeno_error *e) {
  poly_clear(out);
  out->nvars = x->nvars;
  for (int k = 0; k < x->nparts; k++) {
    double s = x->var[k] == SOS_CONSTANT ? 1.0 : scalars[x->var[k]];
    zeno_status st = poly_axpy(out, s, &x->part[k], e);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

zeno_status sos_program_init(sos_program *p, int nvars, zeno_error *e) {
  memset(p, 0, sizeof *p);
  const zeno_status vst = poly_check_vars(nvars, "sos.variables", e);
  if (vst != ZENO_OK) return vst;
  p->nvars = nvars;
  return ZENO_OK;
}

void sos_program_free(sos_program *p) {
  for (int c = 0; c < p->ncons; c++) {
    sos_constraint *k = &p->cons[c];
    sos_expr_free(&k->expr);
    for (int i = 0; i < k->ngs; i++) poly_free(&k->g[i]);
    free(k->g);
    free(k->mult_half);
  }
  free(p->cons);
  for (int l = 0; l < p->nlineqs; l++) {
    free(p->lineqs[l].var);
    free(p->lineqs[l].coef);
  }
  free(p->lineqs);
  free(p->objective);
  int nvars = p->nvars;
  memset(p, 0, sizeof *p);
  p->nvars = nvars;
}

zeno_status sos_new_scalar(sos_program *p, int *var, zeno_error *e) {
  if (p->nscalars >= SOS_MAX_SCALARS)
    return zeno_fail(e, ZENO_ERR_RANGE, "sos.scalars",
                     "more than %d decision scalars (SOS_MAX_SCALARS)", SOS_MAX_SCALARS);
  if (p->objective) {
    double *o = realloc(p->objective, (size_t)(p->nscalars + 1) * sizeof *o);
    if (!o) return nomem(e);
    o[p->nscalars] = 0.0;
    p->objective = o;
  }
  *var = p->nscalars++;
  return ZENO_OK;
}

zeno_status sos_new_poly(sos_program *p, int dmin, int dmax, sos_expr *poly, zeno_error *e) {
  poly_mono *basis = NULL;
  int n = 0;
  zeno_status st = poly_mono_basis(p->nvars, dmin, dmax, &basis, &n, e);
  if (st == ZENO_OK) st = sos_new_poly_in(p, basis, n, poly, e);
  else sos_expr_init(poly, p->nvars, NULL);
  free(basis);
  return st;
}

zeno_status sos_new_poly_in(sos_program *p, const poly_mono *basis, int n, sos_expr *poly,
                            zeno_error *e) {
  zeno_status st = sos_expr_init(poly, p->nvars, e);
  ze_poly mono;
  memset(&mono, 0, sizeof mono);
  mono.nvars = p->nvars;
  for (int k = 0; st == ZENO_OK && k < n; k++) {
    int var = 0;
    poly_clear(&mono);
    st = sos_new_scalar(p, &var, e);
    if (st == ZENO_OK) st = poly_add_term(&mono, &basis[k], 1.0, e);
    if (st == ZENO_OK) st = sos_expr_add(poly, var, 1.0, &mono, e);
  }
  poly_free(&mono);
  if (st != ZENO_OK) sos_expr_free(poly);
  return st;
}

zeno_status sos_add_sos(sos_program *p, const sos_expr *expr, int ngs, const ze_poly *g,
                        const int *mult_half, zeno_error *e) {
  if (expr->nvars != p->nvars || ngs < 0)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "a constraint in %d variables in a program in %d",
                     expr->nvars, p->nvars);
  for (int k = 0; k < expr->nparts; k++)
    if (expr->var[k] >= p->nscalars)
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", expr->var[k]);
  sos_constraint *cons = realloc(p->cons, (size_t)(p->ncons + 1) * sizeof *cons);
  if (!cons) return nomem(e);
  p->cons = cons;
  sos_constraint *c = &cons[p->ncons];
  memset(c, 0, sizeof *c);
  memcpy(c->weight, p->weight, sizeof c->weight);
  zeno_status st = sos_expr_init(&c->expr, p->nvars, e);
  if (st == ZENO_OK) st = sos_expr_axpy(&c->expr, 1.0, expr, e);
  int deg = -1;
  for (int k = 0; k < c->expr.nparts; k++) {
    int d = poly_degree(&c->expr.part[k]);
    deg = d > deg ? d : deg;
  }
  if (st == ZENO_OK && ngs > 0) {
    c->g = calloc((size_t)ngs, sizeof *c->g);
    c->mult_half = malloc((size_t)ngs * sizeof *c->mult_half);
    if (!c->g || !c->mult_half) st = nomem(e);
  }
  for (int i = 0; st == ZENO_OK && i < ngs; i++) {
    c->ngs++;
    if (g[i].nvars != p->nvars) {
      st = zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "multiplied polynomial %d has %d "
                     "variables, the program %d",
                     i, g[i].nvars, p->nvars);
      break;
    }
    st = poly_copy(&c->g[i], &g[i], e);
    int h = mult_half && mult_half[i] >= 0 ? mult_half[i] : (deg - poly_degree(&g[i])) / 2;
    c->mult_half[i] = h < 0 ? 0 : h;
  }
  p->ncons++;
  if (st != ZENO_OK) {
    // Drop the half-built constraint.
    sos_expr_free(&c->expr);
    for (int i = 0; i < c->ngs; i++) poly_free(&c->g[i]);
    free(c->g);
    free(c->mult_half);
    p->ncons--;
  }
  return st;
}

zeno_status sos_add_equality(sos_program *p, int nterms, const int *var, const double *coef,
                             double rhs, zeno_error *e) {
  for (int k = 0; k < nterms; k++)
    if (var[k] < 0 || var[k] >= p->nscalars)
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var[k]);
  sos_lineq *l = realloc(p->lineqs, (size_t)(p->nlineqs + 1) * sizeof *l);
  if (!l) return nomem(e);
  p->lineqs = l;
  sos_lineq *q = &l[p->nlineqs];
  q->var = malloc((size_t)(nterms ? nterms : 1) * sizeof *q->var);
  q->coef = malloc((size_t)(nterms ? nterms : 1) * sizeof *q->coef);
  if (!q->var || !q->coef) {
    free(q->var);
    free(q->coef);
    return nomem(e);
  }
  if (nterms) {
    memcpy(q->var, var, (size_t)nterms * sizeof *var);
    memcpy(q->coef, coef, (size_t)nterms * sizeof *coef);
  }
  q->nterms = nterms;
  q->rhs = rhs;
  p->nlineqs++;
  return ZENO_OK;
}

zeno_status sos_maximise(sos_program *p, int var, double weight, zeno_error *e) {
  if (var < 0 || var >= p->nscalars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var);
  if (!p->objective) {
    p->objective = calloc((size_t)p->nscalars, sizeof *p->objective);
    if (!p->objective) return nomem(e);
  }
  p->objective[var] += weight;
  return ZENO_OK;
}
