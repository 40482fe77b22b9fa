// The flight conditions of the sums-of-squares program (certify_flight.h,
// docs/certificate.md): V2(s0) - V2(s+) >= 0 after a free flight of any
// duration tau and the impact of a case, on the case's cone.
#include <string.h>

#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"

/// Most inequalities of one condition: flight (tau, both start gaps, the
/// free gap) and an impact case's conditions.
#define FLIGHT_MAX_LIN (4 + CERT_MAX_CONDS)
/// With their pairwise products (a quadratic expression on a polyhedral
/// cone needs them: constant multipliers of linear g give linear terms only).
#define FLIGHT_MAX_G (FLIGHT_MAX_LIN + FLIGHT_MAX_LIN * (FLIGHT_MAX_LIN - 1) / 2)
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
