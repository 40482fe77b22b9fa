// The certificate's sums-of-squares program (certify_program.h): every
// condition of docs/certificate.md as "expression >= 0 on {g >= 0}", built
// by substituting the system's linear and quadratic maps into the unknown
// W exactly (sos_expr_compose), then solved and re-checked.
#include "certify/certify_program.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_exact.h"
#include "certify/certify_flight.h"
#include "certify/certify_piece.h"
#include "certify/certify_positivity.h"
#include "certify/certify_quartic.h"
#include "sos/sos_check.h"

/* ---------- decrease along a mode ---------- */

// Orthonormal basis of {y : E y = 0} (rows of E, CERT_PROGRAM_NVARS columns):
// returns its dimension, basis vectors in N[k].
static int null_space(int m, const double E[][CERT_PROGRAM_NVARS], double N[][CERT_PROGRAM_NVARS]) {
  double Q[2 * CERT_PROGRAM_NVARS][CERT_PROGRAM_NVARS];
  int nq = 0, nn = 0;
  for (int pass = 0; pass < 2; pass++) {
    const int count = pass == 0 ? m : CERT_PROGRAM_NVARS;
    for (int r = 0; r < count; r++) {
      double v[CERT_PROGRAM_NVARS];
      for (int k = 0; k < CERT_PROGRAM_NVARS; k++)
        v[k] = pass == 0 ? E[r][k] : (k == r ? 1.0 : 0.0);
      for (int it = 0; it < 2; it++)  // Gram-Schmidt, twice for accuracy
        for (int q = 0; q < nq; q++) {
          double d = 0;
          for (int k = 0; k < CERT_PROGRAM_NVARS; k++) d += Q[q][k] * v[k];
          for (int k = 0; k < CERT_PROGRAM_NVARS; k++) v[k] -= d * Q[q][k];
        }
      double norm = 0;
      for (int k = 0; k < CERT_PROGRAM_NVARS; k++) norm += v[k] * v[k];
      norm = sqrt(norm);
      if (norm < 1e-9) continue;
      for (int k = 0; k < CERT_PROGRAM_NVARS; k++) Q[nq][k] = v[k] / norm;
      if (pass == 1) {
        for (int k = 0; k < CERT_PROGRAM_NVARS; k++) N[nn][k] = Q[nq][k];
        nn++;
      }
      nq++;
    }
  }
  return nn;
}

// -dV2/dt in mode m: -(c w2 + sum_v dW/dy_v ydot_v), ydot = (u1, u2, acc).
static zeno_status mode_rate(const sos_expr *w, double c, const double acc[3], sos_expr *out,
                             zeno_error *e) {
  ze_poly rate[CERT_PROGRAM_NVARS], dw, prod, cw;
  memset(rate, 0, sizeof rate);
  zeno_status st = poly_init(&dw, CERT_PROGRAM_NVARS, e);
  if (st == ZENO_OK) st = poly_init(&prod, CERT_PROGRAM_NVARS, e);
  if (st == ZENO_OK) st = poly_init(&cw, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    if (v == Z1) coef[U1] = 1;
    if (v == Z2) coef[U2] = 1;
    CERT_TRY(cert_linear(&rate[v], CERT_PROGRAM_NVARS, coef, e));
    if (v >= U1) {
      poly_mono one = {{0}};
      CERT_TRY(poly_add_term(&rate[v], &one, acc[v - U1], e));
    }
  }
  for (int k = 0; k < w->nparts; k++)
    for (int v = 0; v < CERT_PROGRAM_NVARS; v++) {
      CERT_TRY(poly_deriv(&dw, &w->part[k], v, e));
      CERT_TRY(poly_mul(&prod, &dw, &rate[v], e));
      CERT_TRY(sos_expr_add(out, w->var[k], -1.0, &prod, e));
    }
  CERT_TRY(poly_var(&cw, CERT_PROGRAM_NVARS, W2, e));
  CERT_TRY(sos_expr_add(out, SOS_CONSTANT, -c, &cw, e));
done:
  cert_free_polys(rate, CERT_PROGRAM_NVARS);
  poly_free(&dw);
  poly_free(&prod);
  poly_free(&cw);
  return st;
}

static zeno_status mode_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const sos_expr *w, double c, int *count, zeno_error *e) {
  double E[6][CERT_PROGRAM_NVARS], G[4][CERT_PROGRAM_NVARS],
      N[CERT_PROGRAM_NVARS][CERT_PROGRAM_NVARS];
  int ne = 0, ng = 0;
  memset(E, 0, sizeof E);
  memset(G, 0, sizeof G);
  for (int i = 0; i < 2; i++) {
    const unsigned char l = m->mode.letter[i];
    if (l == ZENO_LETTER_F) {
      G[ng++][Z1 + i] = 1;  // open: z_i >= 0
      continue;
    }
    E[ne++][Z1 + i] = 1;  // closed: z_i = 0, u_i = 0
    E[ne++][U1 + i] = 1;
    double slip[CERT_PROGRAM_NVARS] = {0};  // w_i
    if (i == 0) {
      slip[U1] = s->slip1[0];
      slip[U2] = s->slip1[1];
      slip[W2] = s->slip1[2];
    } else {
      slip[W2] = 1;
    }
    if (l == ZENO_LETTER_S) {
      memcpy(E[ne++], slip, sizeof slip);
    } else {
      const double sign = l == ZENO_LETTER_P ? 1.0 : -1.0;
      for (int k = 0; k < CERT_PROGRAM_NVARS; k++) G[ng][k] = sign * slip[k];
      ng++;
    }
  }
  const int dim = null_space(ne, (const double(*)[CERT_PROGRAM_NVARS])E, N);
  if (dim == 0) return ZENO_OK;  // the mode is only the equilibrium
  sos_expr full, sub;
  ze_poly map[CERT_PROGRAM_NVARS], g[4];
  memset(map, 0, sizeof map);
  memset(g, 0, sizeof g);
  zeno_status st = sos_expr_init(&full, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  st = sos_expr_init(&sub, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) {
    sos_expr_free(&full);
    return st;
  }
  CERT_TRY(mode_rate(w, c, m->acc, &full, e));
  // y_v = sum_k N[k][v] t_k: t_0..t_{dim-1} are the program's first
  // variables (every constraint of a program has the same variables; the
  // others do not appear).
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    for (int k = 0; k < dim; k++) coef[k] = N[k][v];
    CERT_TRY(cert_linear(&map[v], CERT_PROGRAM_NVARS, coef, e));
  }
  CERT_TRY(sos_expr_compose(&sub, &full, map, e));
  for (int k = 0; k < ng; k++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    for (int j = 0; j < dim; j++)
      for (int v = 0; v < CERT_PROGRAM_NVARS; v++) coef[j] += G[k][v] * N[j][v];
    CERT_TRY(cert_linear(&g[k], CERT_PROGRAM_NVARS, coef, e));
  }
  CERT_TRY(cert_add_condition(prog, &sub, ng, g, count, e));
done:
  sos_expr_free(&full);
  sos_expr_free(&sub);
  cert_free_polys(map, CERT_PROGRAM_NVARS);
  cert_free_polys(g, 4);
  return st;
}

// Newton's law can add energy: V1(s-) - V1(s+) = T(v-) - T(post v-) >= 0
// on the case's conditions, a pure check (no unknown).
static zeno_status energy_impact(sos_program *prog, const cert_system *s, const cert_case *cs,
                                 int *count, zeno_error *e) {
  sos_expr x;
  ze_poly q, g[CERT_MAX_CONDS * (CERT_MAX_CONDS + 1) / 2];
  memset(g, 0, sizeof g);
  memset(&q, 0, sizeof q);
  // In the program's variables (every constraint has them all): v in the
  // first three, the others do not appear.
  zeno_status st = sos_expr_init(&x, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(poly_init(&q, CERT_PROGRAM_NVARS, e));
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      double d = s->Mp[r][k];  // T(v) - T(P v), coefficient of v_r v_k
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) d -= cs->post[a][r] * s->Mp[a][b] * cs->post[b][k];
      poly_mono m = {{0}};
      m.e[r]++;
      m.e[k]++;
      CERT_TRY(poly_add_term(&q, &m, 0.5 * d, e));
    }
  CERT_TRY(sos_expr_add(&x, SOS_CONSTANT, 1.0, &q, e));
  int ng = 0;
  for (int k = 0; k < cs->ncond; k++) {
    const double coef[CERT_PROGRAM_NVARS] = {cs->cond[k][0], cs->cond[k][1], cs->cond[k][2], 0, 0};
    CERT_TRY(cert_linear(&g[ng++], CERT_PROGRAM_NVARS, coef, e));
  }
  // A quadratic form on a cone: the pairwise products, as for the flights.
  CERT_TRY(cert_products(g, &ng, 2, e));
  CERT_TRY(cert_add_condition(prog, &x, ng, g, count, e));
done:
  sos_expr_free(&x);
  poly_free(&q);
  cert_free_polys(g, CERT_MAX_CONDS * (CERT_MAX_CONDS + 1) / 2);
  return st;
}

/* ---------- the program ---------- */

// The exact check of a weighted-degree-2 W (certify_exact.h): replaces the
// floating-point re-check's verdict, which cannot prove the modes'
// equalities, and W's coefficients by the exactly projected ones.
static zeno_status exact_check(const cert_system *s, cert_program_outcome *out, zeno_error *e) {
  double x[CERT_EXACT_NX] = {0};
  for (int k = 0; k < out->nterms; k++) {
    const poly_mono *m = &out->mono[k];
    int at = -1, deg = 0, vars[2] = {-1, -1};
    for (int v = 0; v < CERT_PROGRAM_NVARS; v++)
      for (int p = 0; p < m->e[v]; p++) {
        if (deg < 2) vars[deg] = v;
        deg++;
      }
    if (deg == 1 && vars[0] <= Z2) at = vars[0];
    if (deg == 2 && vars[0] >= U1) {
      static const int pidx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
      at = pidx[vars[0] - U1][vars[1] - U1];
    }
    if (at < 0) continue;
    x[at] = (deg == 2 && vars[0] != vars[1]) ? 0.5 * out->coef[k] : out->coef[k];
  }
  cert_exact_result r;
  const zeno_status st = cert_exact_verify(s, out->c, x, out->kappa, out->lambda, &r, e);
  if (st != ZENO_OK) return st;
  out->exact = true;
  out->certified = r.certified;
  out->exact_shift = r.shift;
  out->equalities = r.equalities;
  snprintf(out->reason, sizeof out->reason, "%s", r.reason);
  for (int k = 0; k < out->nterms; k++) {  // the projected coefficients
    const poly_mono *m = &out->mono[k];
    int deg = 0, vars[2] = {-1, -1};
    for (int v = 0; v < CERT_PROGRAM_NVARS; v++)
      for (int p = 0; p < m->e[v]; p++) {
        if (deg < 2) vars[deg] = v;
        deg++;
      }
    static const int pidx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
    if (deg == 1 && vars[0] <= Z2) out->coef[k] = r.x[vars[0]];
    if (deg == 2 && vars[0] >= U1) {
      const double p = r.x[pidx[vars[0] - U1][vars[1] - U1]];
      out->coef[k] = vars[0] != vars[1] ? 2 * p : p;
    }
  }
  return ZENO_OK;
}

// One slip function V2 = c x2 + W: its program, solved and decided, with
// positivity asked as pos says (weighted degrees above 2: CERT_POS_SIGNS).
static zeno_status certify_one(const cert_system *s, const cert_program_settings *set, double c,
                               cert_positivity pos, cert_program_outcome *out, zeno_error *e) {
  memset(out, 0, sizeof *out);
  out->c = c;
  // The sign conditions' reading: kappa 0 on V2's side, V1 alone (an
  // infinite multiplier) on the other.
  out->kappa[0] = pos == CERT_POS_SIGNS ? 0.0 : NAN;
  out->kappa[1] = pos == CERT_POS_SIGNS ? INFINITY : NAN;
  int kvar[2] = {-1, -1}, lvar[CERT_PIECE_MAX_CHAINS], nl = 0;
  sos_program prog;
  sos_expr w;
  poly_mono *basis = NULL;
  sos_solution sol;
  memset(&sol, 0, sizeof sol);
  memset(&w, 0, sizeof w);
  int n = 0;
  zeno_status st = sos_program_init(&prog, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  static const int weight[CERT_PROGRAM_NVARS] = {2, 2, 1, 1, 1};
  CERT_TRY(poly_mono_basis_weighted(CERT_PROGRAM_NVARS, weight, NULL, 2, set->degree, &basis, &n,
                                    e));
  CERT_TRY(sos_new_poly_in(&prog, basis, n, &w, e));
  out->unknowns = n;
  const unsigned mask = set->parts ? set->parts : CERT_PROGRAM_ALL;
  // Under a plastic law (the inelastic one) with both free-flight accelerations pressing
  // (zddot_i < 0 in FF), free flight happens only before the first impact
  // (docs/certificate.md): the impacts' pre-states have the other contact
  // closed, and no flight condition is needed.
  const bool no_flight = !cert_flights(s) && s->a_ff[0] < 0 && s->a_ff[1] < 0 &&
                         !(mask & CERT_PROGRAM_FORCE_FLIGHT);
  // At weighted degree 2 the exact check decides (certify_exact.h).
  const bool exact = set->degree == 2 && cert_exact_applies(s) && mask == CERT_PROGRAM_ALL;
  if ((mask & 1) && pos == CERT_POS_SIGNS)
    CERT_TRY(cert_positivity_signs(&prog, &w, set->eps, &out->constraints, e));
  for (int side = 0;
       side < (pos == CERT_POS_BOTH_SIDES ? 2 : 1) && (mask & 1) && pos != CERT_POS_SIGNS; side++)
    CERT_TRY(cert_positivity_side(&prog, s, &w, out->c, side == 0 ? 1 : -1, set->eps, &kvar[side],
                                  &out->constraints, e));
  for (int k = 0; k < s->nmodes && (mask & 2); k++) {
    const cert_mode *m = &s->modes[k];
    if (!cert_piece_mode(s, m)) {
      CERT_TRY(mode_condition(&prog, s, m, &w, out->c, &out->constraints, e));
      continue;
    }
    CERT_TRY(cert_piece_conditions(&prog, s, m, &w, out->c, lvar, &nl, &out->constraints, e));
  }
  for (int k = 0; k < s->ncases && (mask & 4); k++) {
    CERT_TRY(cert_flight_condition(&prog, s, &s->cases[k], &w, out->c, !no_flight,
                                   &out->constraints, e));
    if (no_flight && s->cases[k].both) {  // a double impact with contact 2 impacting
      cert_case other = s->cases[k];
      other.contact = 1;
      CERT_TRY(cert_flight_condition(&prog, s, &other, &w, out->c, false, &out->constraints, e));
    }
    if (cert_flights(s) && !exact)  // the exact check decides V1 exactly
      CERT_TRY(energy_impact(&prog, s, &s->cases[k], &out->constraints, e));
  }
  sos_options o = sos_options_default();
  o.max_iterations = set->max_iterations;
  if (s->pieces) o.margin_cap = CERT_PIECE_MARGIN_CAP;
  st = cert_program_solve(&prog, &o, out, &sol, e);
  if (st != ZENO_OK || !out->solved) goto done;
  sos_check chk;
  CERT_TRY(sos_check_solution(&prog, &sol, &chk, e));
  out->certified = chk.certified;
  out->margin = chk.margin;
  if (!chk.certified)
    snprintf(out->reason, sizeof out->reason, "the re-check refused condition %d: %.150s",
             chk.failed_constraint, chk.reason);
  out->mono = malloc((size_t)n * sizeof *out->mono);
  out->coef = malloc((size_t)n * sizeof *out->coef);
  if (!out->mono || !out->coef) {
    st = zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
    goto done;
  }
  out->nterms = n;
  for (int k = 0; k < w.nparts; k++) {  // each part is one monomial times its scalar
    if (w.var[k] == SOS_CONSTANT || w.part[k].nterms != 1) continue;
    const int idx = w.var[k] - w.var[0];
    if (idx < 0 || idx >= n) continue;
    out->mono[idx] = w.part[k].t[0].m;
    out->coef[idx] = sos_round(sol.scalars[w.var[k]]);
  }
  for (int side = 0; side < 2; side++)
    if (kvar[side] >= 0) out->kappa[side] = sos_round(sol.scalars[kvar[side]]);
  out->nlambda = nl;
  for (int k = 0; k < nl; k++) out->lambda[k] = sos_round(cert_piece_lambda(&sol, lvar[k]));
  if (exact) CERT_TRY(exact_check(s, out, e));
done:
  if (st != ZENO_OK) cert_program_outcome_free(out);
  sos_solution_free(&sol);
  sos_expr_free(&w);
  sos_program_free(&prog);
  free(basis);
  return st;
}

// The outcome of two programs, V2+ then V2- (a level floor): certified
// when both are; the first failure's figures and reason otherwise.
static void combine(cert_program_outcome *out, const cert_program_outcome *minus) {
  out->sdp_order += minus->sdp_order;
  out->sdp_constraints += minus->sdp_constraints;
  out->constraints += minus->constraints;
  out->unknowns += minus->unknowns;
  out->seconds += minus->seconds;
  out->equalities += minus->equalities;
  out->exact_shift = fmax(out->exact_shift, minus->exact_shift);
  out->exact = out->exact && minus->exact;
  out->margin = fmin(out->margin, minus->margin);
  if (minus->certified) return;
  out->certified = false;
  out->solved = minus->solved;
  out->solver_failed = minus->solver_failed;
  out->status = minus->status;
  out->csdp_code = minus->csdp_code;
  out->solver_margin = minus->solver_margin;
  snprintf(out->reason, sizeof out->reason, "V2- (slip function of x2 < 0): %.160s", minus->reason);
}

// certify_one over the modes' pieces where some mode's decrease can be
// asked over its pieces (certify_piece.h), else pointwise. Every pointwise
// certificate is one over the pieces too, but CSDP's answer to the larger
// program can fail the exact check where the pointwise one passes (the
// rocking and sliding blocks' V2-, an Example 6 region-2 point): where the
// program over the pieces is solved but not certified, or CSDP fails on
// it, the pointwise one is tried; where it is infeasible, so is that.
// Where out (a program over the pieces, p's) did not certify: the same
// program with the accelerating slips' pieces asked through their impacts
// (cert_piece_through_mode), where some is, kept when it certifies. Asking
// them so everywhere lost certificates that the faces at the impacts give
// (Example 6 at 60 x 60: 144 of 160 region-2 points against 150).
static zeno_status with_through(cert_system *p, const cert_program_settings *set, double c,
                                cert_positivity pos, cert_program_outcome *out, zeno_error *e) {
  bool any = false;
  p->through = true;
  for (int m = 0; m < p->nmodes && !out->certified; m++)
    for (int k = 0; k < p->ncases; k++)
      any = any || cert_piece_through_mode(p, &p->modes[m], &p->cases[k]);
  cert_program_outcome second;
  zeno_status st = any ? certify_one(p, set, c, pos, &second, e) : ZENO_OK;
  p->through = false;
  if (!any || st != ZENO_OK) return st;
  if (!second.certified) {
    cert_program_outcome_free(&second);
    return ZENO_OK;
  }
  second.pieces = true;
  second.chains = p->chains;
  second.through = true;
  cert_program_outcome_free(out);
  *out = second;
  return ZENO_OK;
}

static zeno_status certify_pieces(const cert_system *s, const cert_program_settings *set, double c,
                                  cert_positivity pos, cert_program_outcome *out, zeno_error *e) {
  cert_system *p = set->degree == 2 ? malloc(sizeof *p) : NULL;
  bool any = false, chains = false;
  if (p) {
    *p = *s;
    p->cache = cert_piece_cache_create();  // NULL: solved each time
    p->pieces = true;
    for (int k = 0; k < p->nmodes; k++) any = any || cert_piece_mode(p, &p->modes[k]);
    p->chains = true;
    for (int k = 0; k < p->nmodes; k++) chains = chains || cert_piece_stop_mode(p, &p->modes[k]);
    p->chains = false;
  }
  zeno_status st = ZENO_OK;
  // The chains (certify_piece.h) first where some decelerating slip has
  // them: every program over the pieces holds where they do, and the
  // chains' program is infeasible or certifies at nearly every point where
  // the pieces' does (measured: docs/certificate.md). Where it is solved
  // but not certified, or CSDP fails on it, the pieces alone are tried.
  bool done = false;
  if (chains) {
    p->chains = true;
    st = certify_one(p, set, c, pos, out, e);
    out->pieces = out->chains = st == ZENO_OK;
    if (st == ZENO_OK) st = with_through(p, set, c, pos, out, e);
    p->chains = false;
    done = st != ZENO_OK || out->certified || out->status == SOS_INFEASIBLE;
    if (!done) cert_program_outcome_free(out);
  }
  if (any && !done) {
    st = certify_one(p, set, c, pos, out, e);
    out->pieces = st == ZENO_OK;
    if (st == ZENO_OK) st = with_through(p, set, c, pos, out, e);
  }
  if (p) cert_piece_cache_destroy(p->cache);
  free(p);
  if (st != ZENO_OK || (any && (out->certified || out->status == SOS_INFEASIBLE))) return st;
  cert_program_outcome first;
  if (any) first = *out;
  st = certify_one(s, set, c, pos, out, e);
  if (any && st == ZENO_OK && !out->certified) {  // the pieces' reason stands
    cert_program_outcome_free(out);
    *out = first;
  } else if (any) {
    cert_program_outcome_free(&first);
  }
  return st;
}

zeno_status cert_program_certify(const cert_system *s, const cert_program_settings *set,
                                 cert_program_outcome *out, zeno_error *e) {
  if (set->degree != 2) {
    char why[CERT_REASON_SIZE];
    if (!cert_sign_conditions(s, why)) {  // (54) alone needs them
      memset(out, 0, sizeof *out);
      out->c = s->b[2] > 0 ? -1.0 : 1.0;
      snprintf(out->reason, sizeof out->reason, "%s", why);
      return ZENO_OK;
    }
    // Weighted degree 3 and 4 without free flight: built and decided
    // exactly (certify_quartic.h).
    if (cert_quartic_applies(s, set)) return cert_quartic_certify(s, set, out, e);
  }
  const double c = s->b[2] > 0 ? -1.0 : 1.0;
  if (set->degree != 2) return certify_one(s, set, c, CERT_POS_SIGNS, out, e);
  zeno_status st;
  if (!s->level) {
    // The sign conditions, where they hold, are the faster sufficient test
    // and the program CSDP has been solving: tried first, then the
    // envelope's positivity as part of the program.
    char why[CERT_REASON_SIZE];
    if (cert_sign_conditions(s, why)) {
      st = certify_one(s, set, c, CERT_POS_SIGNS, out, e);
      if (st != ZENO_OK || out->certified) return st;
      cert_program_outcome_free(out);
    }
    return certify_pieces(s, set, c, CERT_POS_BOTH_SIDES, out, e);
  }
  // A level floor: V1 bounds neither side of the slip; V2+ = x2 + W+ bounds
  // x2 >= 0 and V2- = -x2 + W- bounds x2 <= 0, each decreasing everywhere.
  st = certify_pieces(s, set, 1.0, CERT_POS_OWN_SIDE, out, e);
  if (st != ZENO_OK || !out->certified) {
    if (st == ZENO_OK) {
      char why[sizeof out->reason];
      snprintf(why, sizeof why, "V2+ (slip function of x2 > 0): %.160s", out->reason);
      snprintf(out->reason, sizeof out->reason, "%s", why);
    }
    return st;
  }
  cert_program_outcome *minus = malloc(sizeof *minus);
  if (!minus) {
    cert_program_outcome_free(out);
    return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
  }
  st = certify_pieces(s, set, -1.0, CERT_POS_OWN_SIDE, minus, e);
  if (st != ZENO_OK) {
    free(minus);
    cert_program_outcome_free(out);
    return st;
  }
  combine(out, minus);
  out->minus = minus;
  return ZENO_OK;
}

double cert_program_v2(const cert_program_outcome *o, const double s[6]) {
  const double y[CERT_PROGRAM_NVARS] = {s[0], s[1], s[3], s[4], s[5]};
  double v = o->c * s[2];
  for (int k = 0; k < o->nterms; k++) {
    double m = o->coef[k];
    for (int j = 0; j < CERT_PROGRAM_NVARS; j++)
      for (int p = 0; p < o->mono[k].e[j]; p++) m *= y[j];
    v += m;
  }
  return v;
}

double cert_program_v1(const cert_system *sys, const double s[6]) {
  double t = 0, u = 0;
  for (int r = 0; r < 3; r++) {
    u += sys->b[r] * s[r];
    for (int k = 0; k < 3; k++) t += 0.5 * s[3 + r] * sys->Mp[r][k] * s[3 + k];
  }
  return t + u;
}
