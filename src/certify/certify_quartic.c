// Certificates of weighted degree 3 and 4 decided exactly
// (certify_quartic.h, docs/certificate.md). The conditions are those of
// certify_program.c without free flight, in the variables (z1, z2, u1, u2,
// w2) (weights 2, 2, 1, 1, 1), each in the few variables it needs:
//   positivity (54): W - eps (z1 + z2 + |v|^2) >= 0 on z1, z2 >= 0;
//   a mode with contact 2 closed: -dV2/dt >= 0 in (z1, u1, w2) (w2 = 0 when
//     sticking), z1 >= 0, w2's sign when slipping;
//   a mode with contact 1 closed: the same in (z2, u2, w1), w1 = k2 u2 +
//     k3 w2 contact 1's slip rate (in w2's place), z2 >= 0, w1's sign;
//   both closed and slipping: in w2 alone, w2's sign;
//   an impact at contact i, the other closed: V2(s-) - V2(s+) >= 0 in
//     (u_i, w2) on the case's cone, with the pairwise products of its
//     conditions.
// Every multiplied polynomial of a mode is a single term, so the exact
// correction of the Gram matrices stays small.
#include "certify/certify_quartic.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_exact.h"
#include "certify/certify_rat.h"
#include "sos/qpoly.h"
#include "sos/sos_check.h"
#include "sos/sos_exact.h"

enum { Z1, Z2, U1, U2, W2, NV };

/// Most multiplied polynomials of a condition: an impact case's conditions,
/// the approach -u_i >= 0, and their pairwise products.
#define CERT_QUARTIC_MAX_LIN (CERT_MAX_CONDS + 1)
#define CERT_QUARTIC_MAX_G \
  (CERT_QUARTIC_MAX_LIN + CERT_QUARTIC_MAX_LIN * (CERT_QUARTIC_MAX_LIN - 1) / 2)
/// Cap of CSDP's margin t: the exact check needs room of the order of
/// CSDP's accuracy only, and a margin capped low converges in fewer
/// iterations. Measured (iterations, Example 4 / Example 7): cap 1: 30 / 65
/// (code 3); 0.1: 28 / 50; 0.01: 26 / 41, all certified.
#define CERT_QUARTIC_MARGIN_CAP 0.01
/// Most conditions: positivity, the modes, two per impact case.
#define CERT_QUARTIC_MAX_CONDS (1 + CERT_MAX_MODES + 2 * CERT_MAX_CASES)

/// One condition: sum_k x_k part[k] + part[nu] >= 0 on {g >= 0}.
typedef struct qcond {
  char name[48];  ///< for a refusal's reason: "positivity", "mode FS", ...
  int nu, ng;
  qpoly_poly *part;
  qpoly_poly g[CERT_QUARTIC_MAX_G];
} qcond;

static bool qcond_init(qcond *q, int nu) {
  memset(q, 0, sizeof *q);
  q->nu = nu;
  q->part = malloc((size_t)(nu + 1) * sizeof *q->part);
  if (!q->part) return false;
  for (int k = 0; k <= nu; k++) qpoly_init(&q->part[k]);
  for (int k = 0; k < CERT_QUARTIC_MAX_G; k++) qpoly_init(&q->g[k]);
  return true;
}

static void qcond_clear(qcond *q) {
  if (q->part)
    for (int k = 0; k <= q->nu; k++) qpoly_clear(&q->part[k]);
  free(q->part);
  for (int k = 0; k < CERT_QUARTIC_MAX_G; k++) qpoly_clear(&q->g[k]);
  memset(q, 0, sizeof *q);
}

// p += s x_var.
static bool add_var(qpoly_poly *p, int var, const mpq_t s) {
  poly_mono m = {{0}};
  m.e[var] = 1;
  return qpoly_add_term(p, &m, s);
}

static bool add_var_si(qpoly_poly *p, int var, long s) {
  mpq_t q;
  mpq_init(q);
  mpq_set_si(q, s, 1);
  const bool ok = add_var(p, var, q);
  mpq_clear(q);
  return ok;
}

// out = in(map(y)), term by term.
static bool compose(qpoly_poly *out, const qpoly_poly *in, const qpoly_poly map[NV]) {
  qpoly_poly t;
  qpoly_init(&t);
  qpoly_zero(out);
  bool ok = true;
  for (int k = 0; ok && k < in->n; k++)
    ok = qpoly_mono_compose(&t, &in->m[k], map, NV) && qpoly_axpy(out, in->c[k], &t);
  qpoly_clear(&t);
  return ok;
}

// -d(x^m)/dt along zdot = u, (u, w)dot = acc.
static bool rate(qpoly_poly *out, const poly_mono *m, mpq_t acc[3]) {
  qpoly_zero(out);
  mpq_t s;
  mpq_init(s);
  bool ok = true;
  for (int v = 0; ok && v < NV; v++) {
    if (m->e[v] == 0) continue;
    poly_mono d = *m;
    d.e[v]--;
    mpq_set_si(s, -(long)m->e[v], 1);
    if (v <= Z2) {  // d/dz_i times u_i
      d.e[U1 + v]++;
      ok = qpoly_add_term(out, &d, s);
    } else {
      mpq_mul(s, s, acc[v - U1]);
      ok = qpoly_add_term(out, &d, s);
    }
  }
  mpq_clear(s);
  return ok;
}

// Appends the pairwise products of g[0..*ng).
static bool products(qcond *q) {
  const int n = q->ng;
  bool ok = true;
  for (int a = 0; ok && a < n; a++)
    for (int b = a + 1; ok && b < n && q->ng < CERT_QUARTIC_MAX_G; b++)
      ok = qpoly_mul(&q->g[q->ng++], &q->g[a], &q->g[b]);
  return ok;
}

static bool positivity(const poly_mono *mono, double eps, qcond *q) {
  mpq_t s;
  mpq_init(s);
  mpq_set_ui(s, 1, 1);
  bool ok = true;
  for (int k = 0; ok && k < q->nu; k++) ok = qpoly_add_term(&q->part[k], &mono[k], s);
  mpq_set_d(s, -eps);
  for (int v = 0; ok && v < NV; v++) {
    poly_mono m = {{0}};
    m.e[v] = v <= Z2 ? 1 : 2;
    ok = qpoly_add_term(&q->part[q->nu], &m, s);
  }
  for (int i = 0; ok && i < 2; i++) ok = add_var_si(&q->g[q->ng++], Z1 + i, 1);
  mpq_clear(s);
  return ok;
}

// A mode's condition; *skip when the mode holds only the equilibrium.
static bool mode(const cert_system *s, const cert_mode *md, double c, const poly_mono *mono,
                 qcond *q, bool *skip) {
  const unsigned char l0 = md->mode.letter[0], l1 = md->mode.letter[1];
  *skip = false;
  mpq_t acc[3], k2, k3, t;
  for (int k = 0; k < 3; k++) mpq_init(acc[k]);
  mpq_inits(k2, k3, t, NULL);
  qpoly_poly map[NV], r;
  for (int v = 0; v < NV; v++) qpoly_init(&map[v]);
  qpoly_init(&r);
  bool ok = cert_rat_mode_acc(s, md->mode, acc);
  const int sign1 = l0 == ZENO_LETTER_P ? 1 : -1, sign2 = l1 == ZENO_LETTER_P ? 1 : -1;
  if (l0 != ZENO_LETTER_F && l1 != ZENO_LETTER_F) {  // w1 = k3 w2: w2 alone
    *skip = l0 == ZENO_LETTER_S || l1 == ZENO_LETTER_S || (sign1 * s->slip1[2] > 0) != (sign2 > 0);
    ok = ok && add_var_si(&map[W2], W2, 1) && add_var_si(&q->g[q->ng++], W2, sign2);
  } else if (l1 != ZENO_LETTER_F) {  // contact 2 closed: (z1, u1, w2)
    ok = ok && add_var_si(&map[Z1], Z1, 1) && add_var_si(&map[U1], U1, 1) &&
         add_var_si(&q->g[q->ng++], Z1, 1);
    if (ok && l1 != ZENO_LETTER_S)
      ok = add_var_si(&map[W2], W2, 1) && add_var_si(&q->g[q->ng++], W2, sign2);
  } else {  // contact 1 closed: (z2, u2, w1), w2 = (w1 - k2 u2) / k3
    mpq_set_d(k2, s->slip1[1]);
    mpq_set_d(k3, s->slip1[2]);
    mpq_div(t, k2, k3);
    mpq_neg(t, t);
    ok = ok && add_var_si(&map[Z2], Z2, 1) && add_var_si(&map[U2], U2, 1) &&
         add_var(&map[W2], U2, t) && add_var_si(&q->g[q->ng++], Z2, 1);
    if (ok && l0 != ZENO_LETTER_S) {
      mpq_inv(t, k3);
      ok = add_var(&map[W2], W2, t) && add_var_si(&q->g[q->ng++], W2, sign1);
    }
  }
  for (int k = 0; ok && !*skip && k < q->nu; k++)
    ok = rate(&r, &mono[k], acc) && compose(&q->part[k], &r, map);
  if (ok && !*skip) {  // -c w2
    qpoly_zero(&r);
    ok = add_var_si(&r, W2, c > 0 ? -1 : 1) && compose(&q->part[q->nu], &r, map);
  }
  ok = ok && products(q);
  for (int k = 0; k < 3; k++) mpq_clear(acc[k]);
  mpq_clears(k2, k3, t, NULL);
  for (int v = 0; v < NV; v++) qpoly_clear(&map[v]);
  qpoly_clear(&r);
  return ok;
}

// An impact at contact i with the other closed: (u_i, w2), the exact case.
static bool impact(const cert_rat_case *x, int i, const poly_mono *mono, qcond *q) {
  qpoly_poly pre[NV], post[NV], a, b;
  for (int v = 0; v < NV; v++) {
    qpoly_init(&pre[v]);
    qpoly_init(&post[v]);
  }
  qpoly_init(&a);
  qpoly_init(&b);
  const int ui = U1 + i;
  bool ok = add_var_si(&pre[ui], ui, 1) && add_var_si(&pre[W2], W2, 1);
  for (int r = 0; ok && r < 3; r++)  // post v = G v, v = (u_i e_i, w2)
    ok = add_var(&post[U1 + r], ui, x->G[r][i]) && add_var(&post[U1 + r], W2, x->G[r][2]);
  mpq_t one, mone;
  mpq_inits(one, mone, NULL);
  mpq_set_si(one, 1, 1);
  mpq_set_si(mone, -1, 1);
  for (int k = 0; ok && k < q->nu; k++) {
    ok = qpoly_mono_compose(&a, &mono[k], pre, NV) && qpoly_mono_compose(&b, &mono[k], post, NV) &&
         qpoly_axpy(&q->part[k], one, &a) && qpoly_axpy(&q->part[k], mone, &b);
  }
  bool approach = false;  // -u_i >= 0 among the conditions
  for (int k = 0; ok && k < x->ncond && q->ng < CERT_QUARTIC_MAX_LIN; k++) {
    if (mpq_sgn(x->cond[k][i]) == 0 && mpq_sgn(x->cond[k][2]) == 0) continue;  // 0 >= 0
    approach = approach || (mpq_sgn(x->cond[k][i]) < 0 && mpq_sgn(x->cond[k][2]) == 0);
    qpoly_poly *g = &q->g[q->ng++];
    ok = add_var(g, ui, x->cond[k][i]) && add_var(g, W2, x->cond[k][2]);
  }
  if (ok && !approach) ok = add_var(&q->g[q->ng++], ui, mone);
  ok = ok && products(q);
  mpq_clears(one, mone, NULL);
  for (int v = 0; v < NV; v++) {
    qpoly_clear(&pre[v]);
    qpoly_clear(&post[v]);
  }
  qpoly_clear(&a);
  qpoly_clear(&b);
  return ok;
}

bool cert_quartic_applies(const cert_system *s, const cert_program_settings *set) {
  return set->degree >= 3 && !cert_flights(s) && s->a_ff[0] < 0 && s->a_ff[1] < 0 &&
         s->slip1[2] != 0 && (set->parts == 0 || set->parts == CERT_PROGRAM_ALL);
}

// Every condition of the system, exactly; *n of them. False: *why.
static bool build(const cert_system *s, const cert_program_settings *set, double c,
                  const poly_mono *mono, int nu, qcond *q, int *n, const char **why) {
  *n = 0;
  *why = "out of memory";
  if (!qcond_init(&q[*n], nu) || !positivity(mono, set->eps, &q[*n])) return false;
  snprintf(q[*n].name, sizeof q[*n].name, "positivity (54)");
  (*n)++;
  for (int k = 0; k < s->nmodes; k++) {
    bool skip = false;
    if (!qcond_init(&q[*n], nu)) return false;
    if (!mode(s, &s->modes[k], c, mono, &q[*n], &skip)) {
      *why = "a mode's exact solve is singular";
      qcond_clear(&q[*n]);
      return false;
    }
    const zeno_mode md = s->modes[k].mode;
    snprintf(q[*n].name, sizeof q[*n].name, "the mode %c%c", "FSPN"[md.letter[0]],
             "FSPN"[md.letter[1]]);
    if (skip) qcond_clear(&q[*n]);
    else (*n)++;
  }
  for (int k = 0; k < s->ncases; k++) {
    const cert_case *cs = &s->cases[k];
    cert_rat_case x;
    cert_rat_case_init(&x);
    bool ok = cert_rat_case_exact(s, cs, &x);
    if (!ok) *why = "an impact case's exact solve is singular";
    for (int i = 0; ok && i < 2; i++) {
      if (!cs->both && i != cs->contact) continue;
      ok = qcond_init(&q[*n], nu) && impact(&x, i, mono, &q[*n]);
      if (!ok) break;
      snprintf(q[*n].name, sizeof q[*n].name, "an impact at contact %d (case %c%c)", i + 1,
               "FSPN"[cs->letter[0]], "FSPN"[cs->letter[1]]);
      (*n)++;
    }
    cert_rat_case_clear(&x);
    if (!ok) return false;
  }
  return true;
}

// The rounded program: the same conditions in doubles, weighted bases.
static zeno_status program(const qcond *q, int n, const poly_mono *mono, int nu, sos_program *prog,
                           zeno_error *e) {
  static const int weight[NV] = {2, 2, 1, 1, 1};
  sos_expr w;
  zeno_status st = sos_program_init(prog, NV, e);
  if (st == ZENO_OK) st = sos_set_weights(prog, weight, e);
  if (st == ZENO_OK) st = sos_new_poly_in(prog, mono, nu, &w, e);
  if (st != ZENO_OK) return st;
  sos_expr_free(&w);
  for (int c = 0; st == ZENO_OK && c < n; c++) {
    sos_expr x;
    ze_poly p, g[CERT_QUARTIC_MAX_G];
    memset(g, 0, sizeof g);
    st = sos_expr_init(&x, NV, e);
    if (st != ZENO_OK) break;
    for (int k = 0; st == ZENO_OK && k <= nu; k++) {
      if (q[c].part[k].n == 0) continue;
      st = poly_init(&p, NV, e);
      if (st == ZENO_OK) st = qpoly_to_poly(&q[c].part[k], &p, e);
      if (st == ZENO_OK) st = sos_expr_add(&x, k < nu ? k : SOS_CONSTANT, 1.0, &p, e);
      poly_free(&p);
    }
    for (int i = 0; st == ZENO_OK && i < q[c].ng; i++) {
      st = poly_init(&g[i], NV, e);
      if (st == ZENO_OK) st = qpoly_to_poly(&q[c].g[i], &g[i], e);
    }
    if (st == ZENO_OK) st = sos_add_sos(prog, &x, q[c].ng, g, NULL, e);
    for (int i = 0; i < q[c].ng; i++) poly_free(&g[i]);
    sos_expr_free(&x);
  }
  return st;
}

// The exact verdict: x projected onto the equalities, each condition's
// Gram matrices corrected and factorised, V1 across the impacts.
static bool decide(const cert_system *s, const qcond *q, int n, const sos_solution *sol, mpq_t *x,
                   int *rank, char *why, size_t nwhy) {
  const int nu = q[0].nu;
  int neq = 0, cap = 0;
  mpq_t *L = NULL;  // rows of nu + 1: the coefficients and the constant
  bool ok = true;
  for (int c = 0, at = 0; ok && c < n; at += sol->ngrams[c], c++) {
    poly_mono *reach;
    int nr;
    ok = sos_exact_reach(q[c].ng, q[c].g, &sol->gram[at], &reach, &nr);
    for (int k = 0; ok && k <= nu; k++)
      for (int t = 0; ok && t < q[c].part[k].n; t++) {
        const poly_mono *m = &q[c].part[k].m[t];
        if (sos_exact_has(reach, nr, m)) continue;
        bool seen = false;  // one row per monomial of a condition
        for (int j = 0; j < k && !seen; j++)
          seen = q[c].part[j].n > 0 && sos_exact_has(q[c].part[j].m, q[c].part[j].n, m);
        if (seen) continue;
        if (neq == cap) {
          cap = cap ? 2 * cap : 64;
          mpq_t *L2 = realloc(L, (size_t)cap * (size_t)(nu + 1) * sizeof *L2);
          if (!L2) {
            ok = false;
            break;
          }
          L = L2;
        }
        for (int j = 0; j <= nu; j++) {
          mpq_init(L[neq * (nu + 1) + j]);
          qpoly_coef(L[neq * (nu + 1) + j], &q[c].part[j], m);
        }
        neq++;
      }
    free(reach);
  }
  // A (neq x nu) and the right side -(A x + const).
  mpq_t *A = malloc((size_t)(neq ? neq : 1) * (size_t)nu * sizeof *A);
  mpq_t *r = malloc((size_t)(neq ? neq : 1) * sizeof *r);
  mpq_t *d = malloc((size_t)nu * sizeof *d);
  ok = ok && A && r && d;
  if (ok) {
    mpq_t t;
    mpq_init(t);
    for (int i = 0; i < neq; i++) {
      mpq_init(r[i]);
      mpq_set(r[i], L[i * (nu + 1) + nu]);
      for (int j = 0; j < nu; j++) {
        mpq_init(A[i * nu + j]);
        mpq_set(A[i * nu + j], L[i * (nu + 1) + j]);
        mpq_mul(t, A[i * nu + j], x[j]);
        mpq_add(r[i], r[i], t);
      }
      mpq_neg(r[i], r[i]);
    }
    for (int j = 0; j < nu; j++) mpq_init(d[j]);
    ok = sos_exact_min_norm(neq, nu, A, r, d, rank);
    if (!ok) snprintf(why, nwhy, "the equalities the conditions force are inconsistent");
    for (int j = 0; ok && j < nu; j++) mpq_add(x[j], x[j], d[j]);
    for (int j = 0; j < nu; j++) mpq_clear(d[j]);
    for (int i = 0; i < neq; i++) {
      mpq_clear(r[i]);
      for (int j = 0; j < nu; j++) mpq_clear(A[i * nu + j]);
    }
    mpq_clear(t);
  } else {
    snprintf(why, nwhy, "out of memory");
  }
  for (int i = 0; i < neq * (nu + 1); i++) mpq_clear(L[i]);
  free(L);
  free(A);
  free(r);
  free(d);
  qpoly_poly expr;
  qpoly_init(&expr);
  for (int c = 0, at = 0; ok && c < n; at += sol->ngrams[c], c++) {
    qpoly_zero(&expr);
    for (int k = 0; ok && k <= nu; k++) {
      mpq_t one;
      mpq_init(one);
      mpq_set_ui(one, 1, 1);
      ok = qpoly_axpy(&expr, k < nu ? x[k] : one, &q[c].part[k]);
      mpq_clear(one);
    }
    char text[160];
    if (ok && !sos_exact_check(&expr, q[c].ng, q[c].g, &sol->gram[at], text, sizeof text)) {
      ok = false;
      snprintf(why, nwhy, "%.47s: %.140s", q[c].name, text);
    }
  }
  qpoly_clear(&expr);
  if (ok && !cert_exact_energy_ok(s, why, nwhy)) ok = false;
  return ok;
}

zeno_status cert_quartic_certify(const cert_system *s, const cert_program_settings *set,
                                 cert_program_outcome *out, zeno_error *e) {
  return cert_quartic_certify_edited(s, set, NULL, NULL, out, e);
}

zeno_status cert_quartic_certify_edited(const cert_system *s, const cert_program_settings *set,
                                        cert_quartic_edit edit, void *ctx,
                                        cert_program_outcome *out, zeno_error *e) {
  memset(out, 0, sizeof *out);
  out->c = s->b[2] > 0 ? -1.0 : 1.0;
  out->exact = true;
  static const int weight[NV] = {2, 2, 1, 1, 1};
  poly_mono *mono = NULL;
  int nu = 0, n = 0;
  zeno_status st = poly_mono_basis_weighted(NV, weight, NULL, 2, set->degree, &mono, &nu, e);
  if (st != ZENO_OK) return st;
  out->unknowns = nu;
  qcond *q = calloc(CERT_QUARTIC_MAX_CONDS, sizeof *q);
  sos_program prog;
  memset(&prog, 0, sizeof prog);
  sos_solution sol;
  memset(&sol, 0, sizeof sol);
  mpq_t *x = NULL;
  const char *why = "out of memory";
  if (!q || !build(s, set, out->c, mono, nu, q, &n, &why)) {
    st = strcmp(why, "out of memory") == 0 ? zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory")
                                           : ZENO_OK;
    snprintf(out->reason, sizeof out->reason, "%s", why);
    goto done;
  }
  out->constraints = n;
  st = program(q, n, mono, nu, &prog, e);
  if (st != ZENO_OK) goto done;
  sos_options o = sos_options_default();
  o.max_iterations = set->max_iterations;
  o.margin_cap = CERT_QUARTIC_MARGIN_CAP;
  st = cert_program_solve(&prog, &o, out, &sol, e);
  if (st != ZENO_OK || !out->solved) goto done;
  out->mono = malloc((size_t)nu * sizeof *out->mono);
  out->coef = malloc((size_t)nu * sizeof *out->coef);
  x = malloc((size_t)nu * sizeof *x);
  if (!out->mono || !out->coef || !x) {
    st = zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
    goto done;
  }
  out->nterms = nu;
  if (edit) edit(sol.scalars, nu, mono, ctx);
  for (int k = 0; k < nu; k++) {
    mpq_init(x[k]);
    mpq_set_d(x[k], sos_round(sol.scalars[k]));
  }
  out->certified = decide(s, q, n, &sol, x, &out->equalities, out->reason, sizeof out->reason);
  for (int k = 0; k < nu; k++) {
    out->mono[k] = mono[k];
    out->coef[k] = mpq_get_d(x[k]);
    out->exact_shift = fmax(out->exact_shift, fabs(out->coef[k] - sol.scalars[k]));
    mpq_clear(x[k]);
  }
done:
  free(x);
  if (st != ZENO_OK) cert_program_outcome_free(out);
  if (q)
    for (int c = 0; c < CERT_QUARTIC_MAX_CONDS; c++) qcond_clear(&q[c]);
  free(q);
  sos_solution_free(&sol);
  sos_program_free(&prog);
  free(mono);
  return st;
}
