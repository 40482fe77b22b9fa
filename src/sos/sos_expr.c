// Sums-of-squares programs, the building side (sos.h): expressions affine
// in the decision scalars, and the program's scalars, constraints,
// equalities and objective.
#include <stdlib.h>
#include <string.h>

#include "sos/sos.h"
#include "base/util.h"

static zeno_status nomem(zeno_error *e) {
  return zeno_fail(e, ZENO_ERR_NOMEM, "sos", "out of memory");
}

zeno_status ze_sos_expr_init(ze_sos_expr *x, int nvars, zeno_error *e) {
  memset(x, 0, sizeof *x);
  const zeno_status vst = ze_poly_check_vars(nvars, "sos.variables", e);
  if (vst != ZENO_OK) return vst;
  x->nvars = nvars;
  return ZENO_OK;
}

void ze_sos_expr_free(ze_sos_expr *x) {
  for (int k = 0; k < x->nparts; k++)
    ze_poly_free(&x->part[k]);
  free(x->part);
  free(x->var);
  int nvars = x->nvars;
  memset(x, 0, sizeof *x);
  x->nvars = nvars;
}

// The part of scalar var, created (zero) when absent; NULL without memory.
static ze_poly *part_of(ze_sos_expr *x, int var) {
  for (int k = 0; k < x->nparts; k++)
    if (x->var[k] == var)
      return &x->part[k];
  if (x->nparts == x->cap) {
    int cap = x->cap ? 2 * x->cap : 8;
    int *v = realloc(x->var, (size_t)cap * sizeof *v);
    if (!v)
      return NULL;
    x->var = v;
    ze_poly *p = realloc(x->part, (size_t)cap * sizeof *p);
    if (!p)
      return NULL;
    x->part = p;
    x->cap = cap;
  }
  x->var[x->nparts] = var;
  memset(&x->part[x->nparts], 0, sizeof x->part[0]);
  x->part[x->nparts].nvars = x->nvars;
  return &x->part[x->nparts++];
}

zeno_status ze_sos_expr_add(ze_sos_expr *x, int var, double s, const ze_poly *p,
                            zeno_error *e) {
  if (p->nvars != x->nvars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "a polynomial in %d variables added to an expression in %d",
                     p->nvars, x->nvars);
  if (var < ZE_SOS_CONSTANT)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var);
  ze_poly *q = part_of(x, var);
  return q ? ze_poly_axpy(q, s, p, e) : nomem(e);
}

zeno_status ze_sos_expr_axpy(ze_sos_expr *x, double s, const ze_sos_expr *y,
                             zeno_error *e) {
  for (int k = 0; k < y->nparts; k++) {
    zeno_status st = ze_sos_expr_add(x, y->var[k], s, &y->part[k], e);
    if (st != ZENO_OK)
      return st;
  }
  return ZENO_OK;
}

zeno_status ze_sos_expr_mul(ze_sos_expr *out, const ze_sos_expr *x, const ze_poly *p,
                            zeno_error *e) {
  ze_poly prod;
  zeno_status st = ze_poly_init(&prod, x->nvars, e);
  for (int k = 0; st == ZENO_OK && k < x->nparts; k++) {
    st = ze_poly_mul(&prod, &x->part[k], p, e);
    if (st == ZENO_OK)
      st = ze_sos_expr_add(out, x->var[k], 1.0, &prod, e);
  }
  ze_poly_free(&prod);
  return st;
}

zeno_status ze_sos_expr_compose(ze_sos_expr *out, const ze_sos_expr *x,
                                const ze_poly *map, zeno_error *e) {
  ze_poly comp;
  zeno_status st = ze_poly_init(&comp, map[0].nvars, e);
  for (int k = 0; st == ZENO_OK && k < x->nparts; k++) {
    st = ze_poly_compose(&comp, &x->part[k], map, e);
    if (st == ZENO_OK)
      st = ze_sos_expr_add(out, x->var[k], 1.0, &comp, e);
  }
  ze_poly_free(&comp);
  return st;
}

zeno_status ze_sos_expr_value(ze_poly *out, const ze_sos_expr *x, const double *scalars,
                              zeno_error *e) {
  ze_poly_clear(out);
  out->nvars = x->nvars;
  for (int k = 0; k < x->nparts; k++) {
    double s = x->var[k] == ZE_SOS_CONSTANT ? 1.0 : scalars[x->var[k]];
    zeno_status st = ze_poly_axpy(out, s, &x->part[k], e);
    if (st != ZENO_OK)
      return st;
  }
  return ZENO_OK;
}

zeno_status ze_sos_program_init(ze_sos_program *p, int nvars, zeno_error *e) {
  memset(p, 0, sizeof *p);
  const zeno_status vst = ze_poly_check_vars(nvars, "sos.variables", e);
  if (vst != ZENO_OK) return vst;
  p->nvars = nvars;
  return ZENO_OK;
}

void ze_sos_program_free(ze_sos_program *p) {
  for (int c = 0; c < p->ncons; c++) {
    ze_sos_constraint *k = &p->cons[c];
    ze_sos_expr_free(&k->expr);
    for (int i = 0; i < k->ngs; i++)
      ze_poly_free(&k->g[i]);
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

zeno_status ze_sos_new_scalar(ze_sos_program *p, int *var, zeno_error *e) {
  if (p->nscalars >= ZE_SOS_MAX_SCALARS)
    return zeno_fail(e, ZENO_ERR_RANGE, "sos.scalars",
                     "more than %d decision scalars (ZE_SOS_MAX_SCALARS)",
                     ZE_SOS_MAX_SCALARS);
  if (p->objective) {
    double *o = realloc(p->objective, (size_t)(p->nscalars + 1) * sizeof *o);
    if (!o)
      return nomem(e);
    o[p->nscalars] = 0.0;
    p->objective = o;
  }
  *var = p->nscalars++;
  return ZENO_OK;
}

zeno_status ze_sos_new_poly(ze_sos_program *p, int dmin, int dmax, ze_sos_expr *poly,
                            zeno_error *e) {
  ze_mono *basis = NULL;
  int n = 0;
  zeno_status st = ze_mono_basis(p->nvars, dmin, dmax, &basis, &n, e);
  if (st == ZENO_OK)
    st = ze_sos_new_poly_in(p, basis, n, poly, e);
  else
    ze_sos_expr_init(poly, p->nvars, NULL);
  free(basis);
  return st;
}

zeno_status ze_sos_new_poly_in(ze_sos_program *p, const ze_mono *basis, int n,
                               ze_sos_expr *poly, zeno_error *e) {
  zeno_status st = ze_sos_expr_init(poly, p->nvars, e);
  ze_poly mono;
  memset(&mono, 0, sizeof mono);
  mono.nvars = p->nvars;
  for (int k = 0; st == ZENO_OK && k < n; k++) {
    int var = 0;
    ze_poly_clear(&mono);
    st = ze_sos_new_scalar(p, &var, e);
    if (st == ZENO_OK)
      st = ze_poly_add_term(&mono, &basis[k], 1.0, e);
    if (st == ZENO_OK)
      st = ze_sos_expr_add(poly, var, 1.0, &mono, e);
  }
  ze_poly_free(&mono);
  if (st != ZENO_OK)
    ze_sos_expr_free(poly);
  return st;
}

zeno_status ze_sos_add_sos(ze_sos_program *p, const ze_sos_expr *expr, int ngs,
                           const ze_poly *g, const int *mult_half, zeno_error *e) {
  if (expr->nvars != p->nvars || ngs < 0)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos",
                     "a constraint in %d variables in a program in %d", expr->nvars,
                     p->nvars);
  for (int k = 0; k < expr->nparts; k++)
    if (expr->var[k] >= p->nscalars)
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist",
                       expr->var[k]);
  ze_sos_constraint *cons = realloc(p->cons, (size_t)(p->ncons + 1) * sizeof *cons);
  if (!cons)
    return nomem(e);
  p->cons = cons;
  ze_sos_constraint *c = &cons[p->ncons];
  memset(c, 0, sizeof *c);
  memcpy(c->weight, p->weight, sizeof c->weight);
  zeno_status st = ze_sos_expr_init(&c->expr, p->nvars, e);
  if (st == ZENO_OK)
    st = ze_sos_expr_axpy(&c->expr, 1.0, expr, e);
  int deg = -1;
  for (int k = 0; k < c->expr.nparts; k++) {
    int d = ze_poly_degree(&c->expr.part[k]);
    deg = d > deg ? d : deg;
  }
  if (st == ZENO_OK && ngs > 0) {
    c->g = calloc((size_t)ngs, sizeof *c->g);
    c->mult_half = malloc((size_t)ngs * sizeof *c->mult_half);
    if (!c->g || !c->mult_half)
      st = nomem(e);
  }
  for (int i = 0; st == ZENO_OK && i < ngs; i++) {
    c->ngs++;
    if (g[i].nvars != p->nvars) {
      st = zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "multiplied polynomial %d has %d "
                     "variables, the program %d", i, g[i].nvars, p->nvars);
      break;
    }
    st = ze_poly_copy(&c->g[i], &g[i], e);
    int h = mult_half && mult_half[i] >= 0 ? mult_half[i]
                                           : (deg - ze_poly_degree(&g[i])) / 2;
    c->mult_half[i] = h < 0 ? 0 : h;
  }
  p->ncons++;
  if (st != ZENO_OK) {
    // Drop the half-built constraint.
    ze_sos_expr_free(&c->expr);
    for (int i = 0; i < c->ngs; i++)
      ze_poly_free(&c->g[i]);
    free(c->g);
    free(c->mult_half);
    p->ncons--;
  }
  return st;
}

zeno_status ze_sos_add_equality(ze_sos_program *p, int nterms, const int *var,
                                const double *coef, double rhs, zeno_error *e) {
  for (int k = 0; k < nterms; k++)
    if (var[k] < 0 || var[k] >= p->nscalars)
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var[k]);
  ze_sos_lineq *l = realloc(p->lineqs, (size_t)(p->nlineqs + 1) * sizeof *l);
  if (!l)
    return nomem(e);
  p->lineqs = l;
  ze_sos_lineq *q = &l[p->nlineqs];
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

zeno_status ze_sos_maximise(ze_sos_program *p, int var, double weight, zeno_error *e) {
  if (var < 0 || var >= p->nscalars)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "sos", "scalar %d does not exist", var);
  if (!p->objective) {
    p->objective = calloc((size_t)p->nscalars, sizeof *p->objective);
    if (!p->objective)
      return nomem(e);
  }
  p->objective[var] += weight;
  return ZENO_OK;
}
