// Weighted monomial bases of sums-of-squares constraints (sos.h,
// sos_set_weights): the Gram bases of a constraint whose expression is a
// sum of weighted-homogeneous parts of weights wl..wh (the ZOD's scaling:
// positions weigh 2, velocities 1), in the variables the constraint uses.
//
// Why these bases suffice, and why narrower ones are still sound: a
// certificate is expr = sigma_0 + sum_i s_i g_i with sums of squares
// sigma_0 = sum_k q_k^2 and s_i. When every term stays within the
// weights wl..wh, the lowest weighted part of sum_k q_k^2 is the sum of the
// squares of the q_k's lowest parts (never zero), so each q_k has weights
// ceil(wl/2)..floor(wh/2); likewise s_i g_i. Any basis is sound (the
// re-check decides from the numbers); these keep the SDP small, because
// a monomial outside them could only be used by cancelling terms.
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "sos/sos.h"

static int wdeg(const int *weight, const poly_mono *m) {
  int w = 0;
  for (int v = 0; v < POLY_MAX_VARS; v++) w += weight[v] * m->e[v];
  return w;
}

// Lowest and highest weighted degree of a polynomial's terms (false when
// it is zero).
static bool range_of(const int *weight, const ze_poly *p, int *lo, int *hi) {
  for (int t = 0; t < p->nterms; t++) {
    const int w = wdeg(weight, &p->t[t].m);
    *lo = w < *lo ? w : *lo;
    *hi = w > *hi ? w : *hi;
  }
  return p->nterms > 0;
}

// The constraint's facts: variables used, the expression's weights, and
// its tight variables (every monomial of the expression has them).
typedef struct facts {
  bool used[POLY_MAX_VARS], tight[POLY_MAX_VARS];
  int wl, wh;
} facts;

static facts facts_of(const sos_constraint *c) {
  facts f;
  memset(&f, 0, sizeof f);
  f.wl = 1 << 20;
  f.wh = -1;
  for (int v = 0; v < c->expr.nvars; v++) f.tight[v] = true;
  bool any = false;
  for (int k = 0; k < c->expr.nparts; k++) {
    const ze_poly *p = &c->expr.part[k];
    any = range_of(c->weight, p, &f.wl, &f.wh) || any;
    for (int t = 0; t < p->nterms; t++)
      for (int v = 0; v < c->expr.nvars; v++) {
        f.used[v] = f.used[v] || p->t[t].m.e[v] > 0;
        f.tight[v] = f.tight[v] && p->t[t].m.e[v] > 0;
      }
  }
  for (int i = 0; i < c->ngs; i++)
    for (int t = 0; t < c->g[i].nterms; t++)
      for (int v = 0; v < c->expr.nvars; v++) f.used[v] = f.used[v] || c->g[i].t[t].m.e[v] > 0;
  for (int v = 0; v < c->expr.nvars; v++) f.tight[v] = f.tight[v] && any;
  if (!any) f.wl = f.wh = 0;
  return f;
}

static int ceil_half(int x) { return x >= 0 ? (x + 1) / 2 : -((-x) / 2); }
static int floor_half(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

// Monomials of weight lo..hi in the used variables, without those free of
// a variable in drop[] (each drop[v] true: keep only monomials with v).
static zeno_status weighted(const sos_constraint *c, const facts *f, int lo, int hi,
                            const bool *drop, poly_mono **basis, int *n, zeno_error *e) {
  *basis = NULL;
  *n = 0;
  lo = lo < 0 ? 0 : lo;
  if (hi < lo) return ZENO_OK;
  int cap[POLY_MAX_VARS];
  for (int v = 0; v < c->expr.nvars; v++) cap[v] = f->used[v] ? POLY_MAX_DEGREE : 0;
  zeno_status st = poly_mono_basis_weighted(c->expr.nvars, c->weight, cap, lo, hi, basis, n, e);
  if (st != ZENO_OK) return st;
  int kept = 0;
  for (int k = 0; k < *n; k++) {
    bool in = true;
    for (int v = 0; v < c->expr.nvars; v++) in = in && !(drop[v] && (*basis)[k].e[v] == 0);
    if (in) (*basis)[kept++] = (*basis)[k];
  }
  *n = kept;
  if (kept == 0) {
    free(*basis);
    *basis = NULL;
  }
  if (kept > SOS_MAX_GRAM) {
    free(*basis);
    *basis = NULL;
    return zeno_fail(e, ZENO_ERR_RANGE, "sos.degree",
                     "a weighted Gram basis of %d monomials, above SOS_MAX_GRAM = %d", kept,
                     SOS_MAX_GRAM);
  }
  return ZENO_OK;
}

zeno_status sos_weighted_main_basis(const sos_constraint *c, poly_mono **basis, int *n,
                                    zeno_error *e) {
  const facts f = facts_of(c);
  return weighted(c, &f, ceil_half(f.wl), floor_half(f.wh), f.tight, basis, n, e);
}

zeno_status sos_constraint_mult_basis(const sos_constraint *c, int i, poly_mono **basis, int *n,
                                      zeno_error *e) {
  if (c->weight[0] <= 0) return sos_mult_basis(c->expr.nvars, c->mult_half[i], basis, n, e);
  const facts f = facts_of(c);
  int gl = 1 << 20, gh = -1;
  if (!range_of(c->weight, &c->g[i], &gl, &gh)) {
    *basis = NULL;
    *n = 0;
    return ZENO_OK;
  }
  // g vanishes on v = 0 when each of its terms has v; otherwise the
  // multiplier must vanish there.
  bool drop[POLY_MAX_VARS] = {false};
  for (int v = 0; v < c->expr.nvars; v++) {
    bool g_vanishes = true;
    for (int t = 0; t < c->g[i].nterms; t++) g_vanishes = g_vanishes && c->g[i].t[t].m.e[v] > 0;
    drop[v] = f.tight[v] && !g_vanishes;
  }
  return weighted(c, &f, ceil_half(f.wl - gl), floor_half(f.wh - gh), drop, basis, n, e);
}

zeno_status sos_set_weights(sos_program *p, const int *weight, zeno_error *e) {
  for (int v = 0; weight && v < p->nvars; v++)
    if (weight[v] < 1)
      return zeno_fail(e, ZENO_ERR_RANGE, "sos.weight", "weight %d of variable %d (allowed: >= 1)",
                       weight[v], v);
  for (int v = 0; v < POLY_MAX_VARS; v++) p->weight[v] = weight && v < p->nvars ? weight[v] : 0;
  return ZENO_OK;
}

zeno_status sos_mult_basis(int nvars, int half, poly_mono **basis, int *n, zeno_error *e) {
  zeno_status st = poly_mono_basis(nvars, 0, half, basis, n, e);
  if (st == ZENO_OK && *n > SOS_MAX_GRAM) {
    free(*basis);
    *basis = NULL;
    return zeno_fail(e, ZENO_ERR_RANGE, "sos.degree",
                     "a multiplier of degree %d in %d variables needs %d monomials, "
                     "above SOS_MAX_GRAM = %d: the degree is too high",
                     2 * half, nvars, *n, SOS_MAX_GRAM);
  }
  return st;
}
