// The flight conditions of the sums-of-squares program (certify_flight.h,
// docs/certificate.md): V2(s0) - V2(s+) >= 0 after a free flight of any
// duration tau and the impact of a case, on the case's cone; where the
// exact cone allows, in the coordinates of its generators.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "sos/copositive.h"

/// Most inequalities of one condition: flight (tau, both start gaps, the
/// free gap) and an impact case's conditions.
#define FLIGHT_MAX_LIN (4 + CERT_MAX_CONDS)
/// With their pairwise products (a quadratic expression on a polyhedral
/// cone needs them: constant multipliers of linear g give linear terms only).
#define FLIGHT_MAX_G (FLIGHT_MAX_LIN + FLIGHT_MAX_LIN * (FLIGHT_MAX_LIN - 1) / 2)
/// Unknowns of the weighted-degree-2 W (certify_exact.h's CERT_EXACT_NX).
#define FLIGHT_NX 8

// The case's exact cone in y = (u1, u2, w2, tau) (cert_flight_form_at) by
// its generators: at most one lineality direction l and, with it, at most
// CERT_PROGRAM_NVARS generators in all. Then y = sum_g mu_g r_g + t l with
// mu >= 0 and t free: the rays' coordinates mu_g at the program's
// variables 0.., l's t after them; the rays scaled to largest entry 1 into
// gen (row k: variable k's vector), the form's structural zeros (g^T Q h =
// 0 whatever W, decided in rationals) into zero. False where the cone does
// not allow it or a solve is singular.
static bool flight_cone(const cert_system *s, const cert_case *cs, double gen[][4],
                        bool zero[][CERT_PROGRAM_NVARS], int *nrays, int *nlin) {
  enum { NU = FLIGHT_NX + 1, ROWS = CERT_MAX_CONDS + 3 };
  mpq_t xv[FLIGHT_NX], Q[NU][16], L[ROWS * 4], a[3], t, v, *G;
  G = malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *G);
  if (!G) return false;
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(G[q]);
  for (int q = 0; q < FLIGHT_NX; q++) mpq_init(xv[q]);
  for (int u = 0; u < NU; u++)
    for (int q = 0; q < 16; q++) mpq_init(Q[u][q]);
  for (int q = 0; q < ROWS * 4; q++) mpq_init(L[q]);
  mpq_inits(a[0], a[1], a[2], t, v, NULL);
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  const zeno_mode ff = {{ZENO_LETTER_F, ZENO_LETTER_F}};
  int m = 0;
  *nrays = *nlin = 0;
  bool ok = cert_rat_mode_acc(s, ff, a) && cert_rat_case_exact(s, cs, &x1);
  for (int u = 0; u < NU && ok; u++) {  // Q_0: c's part; Q_u: e_u's alone
    for (int q = 0; q < FLIGHT_NX; q++) mpq_set_ui(xv[q], q == u - 1 ? 1 : 0, 1);
    cert_flight_form_at(cs, &x1, xv, u == 0 ? 1.0 : 0.0, a, Q[u], L, &m);
  }
  ok = ok && m <= COPOSITIVE_MAX_ROWS && copositive_cone_generators(4, m, L, G, nlin, nrays) &&
       *nlin <= 1 && *nrays + *nlin <= CERT_PROGRAM_NVARS && *nrays > 0;
  for (int g = 0; ok && g < *nrays + *nlin; g++) {
    const int at = g < *nlin ? *nrays : g - *nlin;  // the lineality after the rays
    double big = 0;
    for (int k = 0; k < 4; k++) big = fmax(big, fabs(mpq_get_d(G[g * 4 + k])));
    for (int k = 0; k < 4; k++) gen[at][k] = mpq_get_d(G[g * 4 + k]) / big;
    for (int h = 0; h < *nrays + *nlin; h++) {
      const int ht = h < *nlin ? *nrays : h - *nlin;
      bool z = true;
      for (int u = 0; u < NU && z; u++) {
        mpq_set_ui(v, 0, 1);
        for (int r = 0; r < 4; r++)
          for (int k = 0; k < 4; k++) {
            mpq_mul(t, G[g * 4 + r], Q[u][r * 4 + k]);
            mpq_mul(t, t, G[h * 4 + k]);
            mpq_add(v, v, t);
          }
        z = mpq_sgn(v) == 0;
      }
      zero[at][ht] = z;
    }
  }
  cert_rat_case_clear(&x1);
  mpq_clears(a[0], a[1], a[2], t, v, NULL);
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(G[q]);
  for (int q = 0; q < FLIGHT_NX; q++) mpq_clear(xv[q]);
  for (int u = 0; u < NU; u++)
    for (int q = 0; q < 16; q++) mpq_clear(Q[u][q]);
  for (int q = 0; q < ROWS * 4; q++) mpq_clear(L[q]);
  free(G);
  return ok;
}

// x >= 0 on the case's cone in its generators' coordinates (flight_cone;
// *done false where it does not allow them): the rays' coordinates and
// their pairwise products as constant multipliers, the lineality's t free.
// Where the form vanishes on l whatever W (a single impact with the other
// contact in the air: the impacting contact at rest, the free one's normal
// velocity either way, tau = 0), t^2 is a structural zero, t leaves the
// main basis and the cross terms t mu_g, which no Gram entry reaches,
// become the lineality equalities B(l, g) = 0 (7') as linear equalities on
// W: with the cone's rows and their products the program had no room there
// (docs/certificate.md, restitution on level floors).
static zeno_status flight_generator_condition(sos_program *prog, const cert_system *s,
                                              const cert_case *cs, const sos_expr *x, double c,
                                              bool *done, int *count, zeno_error *e) {
  (void)c;  // the structural zeros are those of c's form at c = 1 (c is +-1)
  double gen[CERT_PROGRAM_NVARS][4];
  bool zero[CERT_PROGRAM_NVARS][CERT_PROGRAM_NVARS];
  int nrays = 0, nlin = 0;
  *done = flight_cone(s, cs, gen, zero, &nrays, &nlin);
  if (!*done) return ZENO_OK;
  // (zj, u1, u2, w2, tau): x does not depend on the free gap zj (the gaps
  // cancel), which the generators' map sets to 0.
  static const int vmap[4] = {1, 2, 3, 4};
  return cert_generator_condition(prog, x, 4, vmap, gen, zero, nrays + nlin, nrays, NULL, NULL,
                                  count, e);
}

// Variables (zj, u1, u2, w2, tau); zj = 0 for double impacts.
// V2(s0) - V2(s+) with s0 the state tau before the pre-impact state s-.
// Without the flight (an impact from a mode with the other contact closed:
// z_j = 0, u_j = 0, tau = 0) the condition is V2(s-) - V2(s+) >= 0.
zeno_status cert_flight_condition(sos_program *prog, const cert_system *s, const cert_case *cs,
                                  const sos_expr *w, double c, bool flight, int *count,
                                  zeno_error *e) {
  const int nv = CERT_PROGRAM_NVARS, off = 1, tau = nv - 1;
  const int i = cs->contact, j = 1 - i;
  ze_poly z[2], v[3], post[3], gap[2], g[FLIGHT_MAX_G], t;
  memset(z, 0, sizeof z);
  memset(v, 0, sizeof v);
  memset(post, 0, sizeof post);
  memset(gap, 0, sizeof gap);
  memset(g, 0, sizeof g);
  memset(&t, 0, sizeof t);
  sos_expr x;
  zeno_status st = sos_expr_init(&x, nv, e);
  if (st != ZENO_OK) return st;
  int ng = 0;
  if (flight) CERT_TRY(poly_var(&t, nv, tau, e));
  else CERT_TRY(poly_init(&t, nv, e));
  for (int k = 0; k < 2; k++) CERT_TRY(poly_init(&gap[k], nv, e));
  // Pre-impact state: z_i = 0, z_j = var 0 (single) or 0, velocities.
  CERT_TRY(poly_init(&z[i], nv, e));
  if (cs->both || !flight) CERT_TRY(poly_init(&z[j], nv, e));
  else CERT_TRY(poly_var(&z[j], nv, 0, e));
  for (int k = 0; k < 3; k++) {
    if (!flight && k == j) CERT_TRY(poly_init(&v[k], nv, e));  // u_j = 0
    else CERT_TRY(poly_var(&v[k], nv, off + k, e));
  }
  for (int k = 0; k < 3; k++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    for (int r = 0; r < 3; r++)
      if (flight || r != j) coef[off + r] = cs->post[k][r];
    CERT_TRY(cert_linear(&post[k], nv, coef, e));
  }
  CERT_TRY(cert_jump_expr(&x, w, c, z, v, post, &t, s->a_ff, gap, e));
  if (flight && s->level) {  // in generator coordinates where the cone allows
    bool gens = false;
    CERT_TRY(flight_generator_condition(prog, s, cs, &x, c, &gens, count, e));
    if (gens) goto done;
  }
  // Domain: tau >= 0, both start gaps >= 0, z_j- >= 0, the case's conditions.
  if (flight) {
    CERT_TRY(poly_copy(&g[ng++], &t, e));
    for (int k = 0; k < 2; k++) CERT_TRY(poly_copy(&g[ng++], &gap[k], e));
    if (!cs->both) CERT_TRY(poly_copy(&g[ng++], &z[j], e));
  }
  for (int k = 0; k < cs->ncond; k++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    bool any = false;
    for (int r = 0; r < 3; r++)
      if (flight || r != j) {
        coef[off + r] = cs->cond[k][r];
        any = any || coef[off + r] != 0;
      }
    if (any) CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
  // Without a flight the other contact touches (z_j = u_j = 0): the law
  // leaves it free (letter F) only when it does not drive it in,
  // post u_j >= 0 (impact.c; a touching free contact must not approach).
  if (!flight && !cs->both && cs->letter[j] == ZENO_LETTER_F) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    for (int r = 0; r < 3; r++)
      if (r != j) coef[off + r] = cs->post[j][r];
    CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
  CERT_TRY(cert_products(g, &ng, poly_degree(&x.part[0]), e));
  // A slipping impact without a flight changes nothing at zero approach
  // speed: its form vanishes on u_i = 0 whatever W, so u_i is in every
  // monomial (the tight variable of sos_set_weights). Its certificate
  // must vanish there too: bases by weighted degree (weights 1, the form is
  // quadratic in the velocities) narrowed to the monomials with u_i, which
  // leave CSDP room where the total-degree bases forced a zero diagonal
  // (docs/certificate.md, the sliding block). On level floors only: on
  // slopes CSDP's answers with the total-degree bases certify more
  // (Example 6 at 40 x 40: 3 and 5 points of regions 2 and 7 against 2 and 3).
  static const int velocity_weights[CERT_PROGRAM_NVARS] = {1, 1, 1, 1, 1};
  const bool tight = s->level && !flight && cert_vanishes_on(&x, off + i);
  if (tight) CERT_TRY(sos_set_weights(prog, velocity_weights, e));
  CERT_TRY(cert_add_condition(prog, &x, ng, g, count, e));
  if (tight) CERT_TRY(sos_set_weights(prog, NULL, e));
done:
  sos_expr_free(&x);
  cert_free_polys(z, 2);
  cert_free_polys(v, 3);
  cert_free_polys(post, 3);
  cert_free_polys(gap, 2);
  cert_free_polys(g, FLIGHT_MAX_G);
  poly_free(&t);
  return st;
}
