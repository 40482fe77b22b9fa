// The conditions of the certificate's programs as the builders add them
// (certify_program.c, certify_positivity.c, certify_piece.c): one place for
// W's variables, the builders' error step, adding a condition and freeing
// its polynomials, linear rows and their products, and the jump of V2 over
// a motion and an impact (certify_conditions.c). Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_CONDITIONS_H
#define ZENO_CERTIFY_CERTIFY_CONDITIONS_H

#include <stdbool.h>

#include "certify/certify_program.h"
#include "sos/poly.h"
#include "sos/sos.h"

/// W's variables, in order: the gaps z1, z2, their rates u1, u2, the slip
/// rate w2 (CERT_PROGRAM_NVARS of them).
enum { Z1, Z2, U1, U2, W2 };

/// A builder's step: the status into `st`, and on failure to `done`, where
/// the builder frees what it made.
#define CERT_TRY(x)               \
  do {                            \
    st = (x);                     \
    if (st != ZENO_OK) goto done; \
  } while (0)

/// Frees polynomials p[0..n-1].
static inline void cert_free_polys(ze_poly *p, int n) {
  for (int k = 0; k < n; k++) poly_free(&p[k]);
}

/// Adds one condition of the program, expr >= 0 on {g >= 0} (ng
/// multipliers' domain polynomials g), and counts it in *count.
static inline zeno_status cert_add_condition(sos_program *prog, const sos_expr *x, int ng,
                                             const ze_poly *g, int *count, zeno_error *e) {
  (*count)++;
  return sos_add_sos(prog, x, ng, g, NULL, e);
}

// p = sum_k coef[k] x_k + c0 (nvars variables).
static inline zeno_status cert_linear(ze_poly *p, int nvars, const double *coef, zeno_error *e) {
  zeno_status st = poly_init(p, nvars, e);
  for (int k = 0; st == ZENO_OK && k < nvars; k++) {
    if (coef[k] == 0) continue;
    poly_mono m = {{0}};
    m.e[k] = 1;
    st = poly_add_term(p, &m, coef[k], e);
  }
  return st;
}

// Appends the pairwise products g_k g_l of the first *ng conditions (those
// of degree at most 2, or at most the expression's degree deg).
static inline zeno_status cert_products(ze_poly *g, int *ng, int deg, zeno_error *e) {
  const int nlin = *ng;
  for (int a1 = 0; a1 < nlin; a1++)
    for (int a2 = a1 + 1; a2 < nlin; a2++) {
      const int d = poly_degree(&g[a1]) + poly_degree(&g[a2]);
      if (d > deg && d > 2) continue;
      zeno_status st = poly_init(&g[*ng], g[a1].nvars, e);
      if (st == ZENO_OK) st = poly_mul(&g[*ng], &g[a1], &g[a2], e);
      if (st != ZENO_OK) return st;
      (*ng)++;
    }
  return ZENO_OK;
}

// Whether every monomial of every part of x has variable v (x vanishes on
// v = 0 whatever the scalars).
static inline bool cert_vanishes_on(const sos_expr *x, int v) {
  for (int k = 0; k < x->nparts; k++)
    for (int t = 0; t < x->part[k].nterms; t++)
      if (x->part[k].t[t].m.e[v] == 0) return false;
  return true;
}

/// x = W(s0) - W(s+) + c (x2(s0) - x2(s-)): s- the pre-impact state (gaps
/// z, velocity v), s0 the state a time t (a polynomial) before it under the
/// constant acceleration acc (gaps z - v t + acc t^2 / 2, velocity v - acc
/// t), s+ = (z, post); V2(s0) - V2(s+) for V2 = c x2 + W. Every polynomial
/// in t's variables; x initialised by the caller; s0's gaps into gaps[0..1]
/// (initialised, or NULL). The flights' and the pieces' conditions
/// (certify_piece.h) both take it.
zeno_status cert_jump_expr(sos_expr *x, const sos_expr *w, double c, const ze_poly z[2],
                           const ze_poly v[3], const ze_poly post[3], const ze_poly *t,
                           const double acc[3], ze_poly *gaps, zeno_error *e);

/// Drops from p (in generator coordinates, variables 0..ngen-1) the terms
/// mu_g mu_h of the structural zeros zero[g][h] (0 exactly whatever the
/// unknowns; rounding left them), so that a basis can leave them out.
void cert_drop_structural_zeros(ze_poly *p, int ngen, bool zero[][CERT_PROGRAM_NVARS]);

/// Adds x >= 0 on a cone given by its generators (docs/certificate.md):
/// y = sum_q t_q gen[q] in R^dim, the program's variable vmap[k] y's
/// coordinate k, t_q at the program's variable q (ngen of them, the first
/// nmu a cone's rays with t_q >= 0, the rest free: a lineality). The rays'
/// coordinates and their pairwise products are constant multipliers (for
/// at most 4 rays exactly the copositive forms: Diananda), the structural
/// zeros zero[g][h] dropped (cert_drop_structural_zeros) so that the main
/// basis (weights 1: the linear monomials) leaves such a t_g out; extra (or
/// NULL), a polynomial in the program's variables, joins the domain with a
/// constant multiplier, its index among the multipliers in *extra_at.
zeno_status cert_generator_condition(sos_program *prog, const sos_expr *x, int dim, const int *vmap,
                                     double gen[][4], bool zero[][CERT_PROGRAM_NVARS], int ngen,
                                     int nmu, const ze_poly *extra, int *extra_at, int *count,
                                     zeno_error *e);

#endif
