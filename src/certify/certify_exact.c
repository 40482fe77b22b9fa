// Exact check of a weighted-degree-2 Lyapunov certificate
// (certify_exact.h) in rational arithmetic (GMP): the scene's data are
// doubles, hence exact rationals, and every condition of
// docs/certificate.md reduces, at weighted degree 2, to the sign of a
// small rational expression.
#include "certify/certify_exact.h"

#include <assert.h>
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "certify/certify_flight.h"
#include "certify/certify_piece.h"
#include "certify/certify_rat.h"

/// Most equalities: one per single-contact mode.
#define CERT_EXACT_MAX_EQ CERT_MAX_MODES
/// Most candidate equalities: the modes' and, under Newton's law, the
/// flight conditions' (certify_flight.h).
#define CERT_EXACT_MAX_CAND (CERT_EXACT_MAX_EQ + CERT_FLIGHT_MAX_EQ)

// A linear form k + sum_x co[x] x in the unknowns.
typedef struct lform {
  mpq_t co[CERT_EXACT_NX];
  mpq_t k;
} lform;

static void lf_init(lform *f) {
  for (int i = 0; i < CERT_EXACT_NX; i++) mpq_init(f->co[i]);
  mpq_init(f->k);
}

static void lf_clear(lform *f) {
  for (int i = 0; i < CERT_EXACT_NX; i++) mpq_clear(f->co[i]);
  mpq_clear(f->k);
}

// Index of P[r][k] among the unknowns.
static int pidx(int r, int k) {
  static const int idx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
  return idx[r][k];
}

// The rate's gradient g (dV2/dt = g . v) in a mode: g_r = a_r (r < 2) +
// [r == 2] c + 2 sum_k P_rk acc_k, as linear forms.
static void rate_gradient(double c, mpq_t acc[3], lform g[3]) {
  mpq_t t;
  mpq_init(t);
  for (int r = 0; r < 3; r++) {
    lf_init(&g[r]);
    if (r < 2) mpq_set_ui(g[r].co[r], 1, 1);
    else mpq_set_d(g[r].k, c);
    for (int k = 0; k < 3; k++) {
      mpq_add(t, acc[k], acc[k]);
      mpq_add(g[r].co[pidx(r, k)], g[r].co[pidx(r, k)], t);
    }
  }
  mpq_clear(t);
}

// out = a * f + b * h (linear forms; a, b rationals).
static void lf_comb(lform *out, const mpq_t a, const lform *f, const mpq_t b, const lform *h) {
  mpq_t t;
  mpq_init(t);
  for (int i = 0; i <= CERT_EXACT_NX; i++) {
    mpq_ptr o = i < CERT_EXACT_NX ? out->co[i] : out->k;
    mpq_srcptr x = i < CERT_EXACT_NX ? f->co[i] : f->k, y = i < CERT_EXACT_NX ? h->co[i] : h->k;
    mpq_mul(o, a, x);
    mpq_mul(t, b, y);
    mpq_add(o, o, t);
  }
  mpq_clear(t);
}

static void lf_eval(mpq_t out, const lform *f, mpq_t *x) {
  mpq_t t;
  mpq_init(t);
  mpq_set(out, f->k);
  for (int i = 0; i < CERT_EXACT_NX; i++) {
    mpq_mul(t, f->co[i], x[i]);
    mpq_add(out, out, t);
  }
  mpq_clear(t);
}

// One mode's conditions: equalities appended to eq (their count in *neq),
// sign conditions (form <= 0) to le.
static bool mode_conditions(const cert_system *s, const cert_mode *m, double c, lform *eq, int *neq,
                            lform *le, int *nle) {
  lform g[3];
  mpq_t acc[3];
  for (int k = 0; k < 3; k++) mpq_init(acc[k]);
  const bool solved = cert_rat_mode_acc(s, m->mode, acc);
  rate_gradient(c, acc, g);
  for (int k = 0; k < 3; k++) mpq_clear(acc[k]);
  if (!solved) {
    for (int r = 0; r < 3; r++) lf_clear(&g[r]);
    return false;
  }
  const unsigned char l0 = m->mode.letter[0], l1 = m->mode.letter[1];
  mpq_t one, zero, k2, k3, sgn;
  mpq_inits(one, zero, k2, k3, sgn, NULL);
  mpq_set_ui(one, 1, 1);
  mpq_set_d(k2, s->slip1[1]);
  mpq_set_d(k3, s->slip1[2]);
  if (l0 != ZENO_LETTER_F && l1 != ZENO_LETTER_F) {
    // PP / NN: v = (0, 0, w2), w2 of contact 2's sign: sign * g2 <= 0.
    mpq_set_si(sgn, l1 == ZENO_LETTER_P ? 1 : -1, 1);
    lf_init(&le[*nle]);
    lf_comb(&le[(*nle)++], sgn, &g[2], zero, &g[2]);
  } else if (l1 != ZENO_LETTER_F) {
    // Contact 2 closed: u2 = 0; g0 = 0 (u1 free); slipping: sign * g2 <= 0.
    lf_init(&eq[*neq]);
    lf_comb(&eq[(*neq)++], one, &g[0], zero, &g[0]);
    if (l1 != ZENO_LETTER_S) {
      mpq_set_si(sgn, l1 == ZENO_LETTER_P ? 1 : -1, 1);
      lf_init(&le[*nle]);
      lf_comb(&le[(*nle)++], sgn, &g[2], zero, &g[2]);
    }
  } else {
    // Contact 1 closed: u1 = 0, w1 = k2 u2 + k3 w2. In (u2, w1):
    // rate = (g1 - g2 k2 / k3) u2 + g2 w1 / k3: k3 g1 - k2 g2 = 0, and
    // slipping: sign * k3 g2 <= 0.
    mpq_t mk2;
    mpq_init(mk2);
    mpq_neg(mk2, k2);
    lf_init(&eq[*neq]);
    lf_comb(&eq[(*neq)++], k3, &g[1], mk2, &g[2]);
    mpq_clear(mk2);
    if (l0 != ZENO_LETTER_S) {
      mpq_set_si(sgn, l0 == ZENO_LETTER_P ? 1 : -1, 1);
      mpq_mul(sgn, sgn, k3);
      lf_init(&le[*nle]);
      lf_comb(&le[(*nle)++], sgn, &g[2], zero, &g[2]);
    }
  }
  mpq_clears(one, zero, k2, k3, sgn, NULL);
  for (int r = 0; r < 3; r++) lf_clear(&g[r]);
  return true;
}

// Keeps the linearly independent equalities (exact row reduction of their
// coefficient rows); false when a dependent one contradicts them.
static bool independent(lform *eq, int neq, int *keep, int *nkeep) {
  mpq_t R[CERT_EXACT_MAX_CAND][CERT_EXACT_NX + 1], f, t;
  mpq_inits(f, t, NULL);
  for (int i = 0; i < neq; i++)
    for (int k = 0; k <= CERT_EXACT_NX; k++) {
      mpq_init(R[i][k]);
      mpq_set(R[i][k], k < CERT_EXACT_NX ? eq[i].co[k] : eq[i].k);
    }
  bool ok = true;
  *nkeep = 0;
  int pivrow[CERT_EXACT_MAX_CAND], pivcol[CERT_EXACT_MAX_CAND], np = 0;
  for (int i = 0; i < neq && ok; i++) {
    for (int q = 0; q < np; q++) {  // reduce row i by the pivots so far
      if (mpq_sgn(R[i][pivcol[q]]) == 0) continue;
      mpq_div(f, R[i][pivcol[q]], R[pivrow[q]][pivcol[q]]);
      for (int k = 0; k <= CERT_EXACT_NX; k++) {
        mpq_mul(t, f, R[pivrow[q]][k]);
        mpq_sub(R[i][k], R[i][k], t);
      }
    }
    int col = -1;
    for (int k = 0; k < CERT_EXACT_NX && col < 0; k++)
      if (mpq_sgn(R[i][k]) != 0) col = k;
    if (col < 0) {
      ok = mpq_sgn(R[i][CERT_EXACT_NX]) == 0;  // 0 = k: consistent only when k = 0
      continue;
    }
    pivrow[np] = i;
    pivcol[np++] = col;
    keep[(*nkeep)++] = i;
  }
  for (int i = 0; i < neq; i++)
    for (int k = 0; k <= CERT_EXACT_NX; k++) mpq_clear(R[i][k]);
  mpq_clears(f, t, NULL);
  return ok;
}

// Projects x onto {eq(x) = 0} (minimal Euclidean change, exact).
static bool project(lform *eq, const int *keep, int m, mpq_t *x) {
  mpq_t M[CERT_EXACT_MAX_EQ][CERT_EXACT_MAX_EQ], r[CERT_EXACT_MAX_EQ], t;
  mpq_init(t);
  for (int i = 0; i < m; i++) {
    mpq_init(r[i]);
    lf_eval(r[i], &eq[keep[i]], x);
    mpq_neg(r[i], r[i]);
    for (int j = 0; j < m; j++) {
      mpq_init(M[i][j]);
      for (int k = 0; k < CERT_EXACT_NX; k++) {
        mpq_mul(t, eq[keep[i]].co[k], eq[keep[j]].co[k]);
        mpq_add(M[i][j], M[i][j], t);
      }
    }
  }
  const bool ok = cert_rat_solve(m, M, r);
  for (int i = 0; ok && i < m; i++)
    for (int k = 0; k < CERT_EXACT_NX; k++) {
      mpq_mul(t, r[i], eq[keep[i]].co[k]);
      mpq_add(x[k], x[k], t);
    }
  for (int i = 0; i < m; i++) {
    mpq_clear(r[i]);
    for (int j = 0; j < m; j++) mpq_clear(M[i][j]);
  }
  mpq_clear(t);
  return ok;
}

// W + kappa V1' is positive definite on z >= 0 (V1' = b1 z1 + b2 z2 +
// v^T M' v / 2): a1 + kappa b1 > 0, a2 + kappa b2 > 0 and P + kappa M' / 2
// > 0 by its leading principal minors.
static bool positive(const cert_system *s, mpq_t *x, const mpq_t kappa) {
  mpq_t P[3][3], m2, t, d;
  mpq_inits(m2, t, d, NULL);
  bool ok = true;
  for (int i = 0; i < 2; i++) {
    mpq_set_d(t, s->b[i]);
    mpq_mul(t, t, kappa);
    mpq_add(t, t, x[i]);
    ok = ok && mpq_sgn(t) > 0;
  }
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      mpq_init(P[r][k]);
      mpq_set_d(t, s->Mp[r < k ? r : k][r < k ? k : r]);  // symmetric
      mpq_mul(t, t, kappa);
      mpq_div_2exp(t, t, 1);
      mpq_add(P[r][k], x[pidx(r, k)], t);
    }
  mpq_mul(m2, P[0][0], P[1][1]);
  mpq_mul(t, P[0][1], P[1][0]);
  mpq_sub(m2, m2, t);
  // det = P00 (P11 P22 - P12 P21) - P01 (P10 P22 - P12 P20) + P02 (P10 P21 - P11 P20)
  mpq_t a, b;
  mpq_inits(a, b, NULL);
  mpq_mul(a, P[1][1], P[2][2]);
  mpq_mul(b, P[1][2], P[2][1]);
  mpq_sub(a, a, b);
  mpq_mul(d, P[0][0], a);
  mpq_mul(a, P[1][0], P[2][2]);
  mpq_mul(b, P[1][2], P[2][0]);
  mpq_sub(a, a, b);
  mpq_mul(a, a, P[0][1]);
  mpq_sub(d, d, a);
  mpq_mul(a, P[1][0], P[2][1]);
  mpq_mul(b, P[1][1], P[2][0]);
  mpq_sub(a, a, b);
  mpq_mul(a, a, P[0][2]);
  mpq_add(d, d, a);
  ok = ok && mpq_sgn(P[0][0]) > 0 && mpq_sgn(m2) > 0 && mpq_sgn(d) > 0;
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) mpq_clear(P[r][k]);
  mpq_clears(m2, t, d, a, b, NULL);
  return ok;
}

// q(v) = v^T A v for a 2 x 2 symmetric A.
static void quad(mpq_t out, mpq_t A[2][2], mpq_t r[2], mpq_t s[2]) {
  mpq_t t;
  mpq_init(t);
  mpq_set_ui(out, 0, 1);
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 2; k++) {
      mpq_mul(t, r[i], A[i][k]);
      mpq_mul(t, t, s[k]);
      mpq_add(out, out, t);
    }
  mpq_clear(t);
}

// v^T A v >= 0 on the cone {v : l_k . v >= 0} of the plane (exact); nl is at
// most CERT_MAX_CONDS + 2 (a case's conditions, the touching contact's, -u_i).
static bool copositive2(mpq_t A[2][2], mpq_t L[][2], int nl) {
  mpq_t cand[2 * (CERT_MAX_CONDS + 2)][2], t, u;
  mpq_inits(t, u, NULL);
  int nc = 0;
  for (int k = 0; k < nl; k++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      mpq_init(cand[nc][0]);
      mpq_init(cand[nc][1]);
      mpq_neg(cand[nc][0], L[k][1]);  // l^perp = (-l1, l0), both signs
      mpq_set(cand[nc][1], L[k][0]);
      if (sgn < 0) {
        mpq_neg(cand[nc][0], cand[nc][0]);
        mpq_neg(cand[nc][1], cand[nc][1]);
      }
      bool feasible = true;
      for (int j = 0; j < nl && feasible; j++) {
        mpq_mul(t, L[j][0], cand[nc][0]);
        mpq_mul(u, L[j][1], cand[nc][1]);
        mpq_add(t, t, u);
        feasible = mpq_sgn(t) >= 0;
      }
      if (feasible) nc++;
      else {
        mpq_clear(cand[nc][0]);
        mpq_clear(cand[nc][1]);
      }
    }
  bool ok = true;
  if (nc > 0) {
    mpq_t q1, q2, b;
    mpq_inits(q1, q2, b, NULL);
    int r2 = -1, opp = -1;
    for (int k = 1; k < nc; k++) {
      mpq_mul(t, cand[0][0], cand[k][1]);
      mpq_mul(u, cand[0][1], cand[k][0]);
      mpq_sub(t, t, u);
      if (mpq_sgn(t) != 0 && r2 < 0) r2 = k;
      mpq_mul(t, cand[0][0], cand[k][0]);
      mpq_mul(u, cand[0][1], cand[k][1]);
      mpq_add(t, t, u);
      if (mpq_sgn(t) < 0 && opp < 0) opp = k;
    }
    quad(q1, A, cand[0], cand[0]);
    ok = mpq_sgn(q1) >= 0;
    // The second ray and, for a half-plane, its inner direction l_0.
    mpq_t inner[2];
    mpq_init(inner[0]);
    mpq_init(inner[1]);
    int sectors = 0;
    mpq_t *ends[2][2] = {{NULL, NULL}, {NULL, NULL}};
    if (r2 >= 0) {
      ends[0][0] = cand[0];
      ends[0][1] = cand[r2];
      sectors = 1;
    } else if (opp >= 0) {
      for (int k = 0; k < nl; k++)
        if (mpq_sgn(L[k][0]) != 0 || mpq_sgn(L[k][1]) != 0) {
          mpq_set(inner[0], L[k][0]);
          mpq_set(inner[1], L[k][1]);
          break;
        }
      ends[0][0] = cand[0];
      ends[0][1] = inner;
      ends[1][0] = inner;
      ends[1][1] = cand[opp];
      sectors = 2;
    }
    for (int sct = 0; sct < sectors && ok; sct++) {
      quad(q1, A, ends[sct][0], ends[sct][0]);
      quad(q2, A, ends[sct][1], ends[sct][1]);
      quad(b, A, ends[sct][0], ends[sct][1]);
      ok = mpq_sgn(q1) >= 0 && mpq_sgn(q2) >= 0;
      if (ok && mpq_sgn(b) < 0) {  // min over the sector: b^2 <= q1 q2
        mpq_mul(t, b, b);
        mpq_mul(u, q1, q2);
        ok = mpq_cmp(t, u) <= 0;
      }
    }
    mpq_clear(inner[0]);
    mpq_clear(inner[1]);
    mpq_clears(q1, q2, b, NULL);
  }
  for (int k = 0; k < nc; k++) {
    mpq_clear(cand[k][0]);
    mpq_clear(cand[k][1]);
  }
  mpq_clears(t, u, NULL);
  return ok;
}

// V2(s-) - V2(s+) >= 0 for an impact at contact i with the other contact
// closed (u_j = 0): a quadratic form in (u_i, w2) on the case's cone.
static bool impact_ok(const cert_case *cs, int i, mpq_t *x) {
  const int j = 1 - i, idx[2] = {i, 2};
  mpq_t P[3][3], G[3][3], E[3][3], t, A[2][2], L[CERT_MAX_CONDS + 2][2];
  mpq_init(t);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      mpq_init(P[r][k]);
      mpq_init(G[r][k]);
      mpq_init(E[r][k]);
      mpq_set(P[r][k], x[pidx(r, k)]);
      mpq_set_d(G[r][k], cs->post[r][k]);
    }
  // E = P - G^T P G.
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      mpq_set(E[r][k], P[r][k]);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          mpq_mul(t, G[a][r], P[a][b]);
          mpq_mul(t, t, G[b][k]);
          mpq_sub(E[r][k], E[r][k], t);
        }
    }
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 2; k++) {
      mpq_init(A[r][k]);
      mpq_set(A[r][k], E[idx[r]][idx[k]]);
    }
  int nl = 0;
  for (int k = 0; k < cs->ncond; k++) {
    if (cs->cond[k][idx[0]] == 0 && cs->cond[k][idx[1]] == 0) continue;  // 0 >= 0
    mpq_init(L[nl][0]);
    mpq_init(L[nl][1]);
    mpq_set_d(L[nl][0], cs->cond[k][idx[0]]);
    mpq_set_d(L[nl][1], cs->cond[k][idx[1]]);
    nl++;
  }
  // The other contact touches (z_j = u_j = 0): the law leaves it free
  // (letter F) only when it does not drive it in, post u_j >= 0.
  if (!cs->both && cs->letter[j] == ZENO_LETTER_F) {
    mpq_init(L[nl][0]);
    mpq_init(L[nl][1]);
    mpq_set_d(L[nl][0], cs->post[j][idx[0]]);
    mpq_set_d(L[nl][1], cs->post[j][idx[1]]);
    nl++;
  }
  // The impacting contact approaches: -u_i >= 0 (already a condition of
  // every case; kept explicit).
  mpq_init(L[nl][0]);
  mpq_init(L[nl][1]);
  mpq_set_si(L[nl][0], -1, 1);
  nl++;
  const bool ok = copositive2(A, L, nl);
  for (int k = 0; k < nl; k++) {
    mpq_clear(L[k][0]);
    mpq_clear(L[k][1]);
  }
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 2; k++) mpq_clear(A[r][k]);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      mpq_clear(P[r][k]);
      mpq_clear(G[r][k]);
      mpq_clear(E[r][k]);
    }
  mpq_clear(t);
  return ok;
}

bool cert_exact_energy_ok(const cert_system *s, char *reason, size_t n) {
  // V1 across the impacts, exactly: its potential does not jump, its
  // kinetic part is v^T (M' / 2) v (the law never adds energy; checked
  // for the model's rounded maps). Newton's law: certify_flight.h.
  switch (s->law) {
    case ZENO_LAW_NEWTON: return true;  // its flights' energy: certify_flight.h
    case ZENO_LAW_INELASTIC:
    case ZENO_LAW_CHATTERJEE_RUINA: break;
  }
  const char *fail = NULL;
  char text[200] = "";
  mpq_t m[CERT_EXACT_NX];
  for (int k = 0; k < CERT_EXACT_NX; k++) mpq_init(m[k]);
  for (int r = 0; r < 3; r++)
    for (int k = r; k < 3; k++) {
      mpq_set_d(m[pidx(r, k)], s->Mp[r][k]);
      mpq_div_2exp(m[pidx(r, k)], m[pidx(r, k)], 1);
    }
  for (int k = 0; k < s->ncases && !fail; k++) {
    const cert_case *cs = &s->cases[k];
    for (int i = 0; i < 2 && !fail; i++) {
      if (!cs->both && i != cs->contact) continue;
      if (!impact_ok(cs, i, m)) {
        snprintf(text, sizeof text,
                 "the energy V1 grows across an impact at contact %d (case %c%c)", i + 1,
                 "FSPN"[cs->letter[0]], "FSPN"[cs->letter[1]]);
        fail = text;
      }
    }
  }
  for (int k = 0; k < CERT_EXACT_NX; k++) mpq_clear(m[k]);
  if (fail) snprintf(reason, n, "%s", fail);
  return fail == NULL;
}

bool cert_exact_applies(const cert_system *s) {
  return (!cert_flights(s) && s->a_ff[0] < 0 && s->a_ff[1] < 0) || cert_flight_applies(s);
}

// The envelope max(V1, V2) is positive definite (docs/certificate.md): on
// V2's own side of the slip (side +1, c x2 >= 0) and, when kappa[1] is
// given, on the other (side -1, where V1 takes over), with r = side c x2
// and beta = c b3: kappa >= 0, side (1 + kappa beta) > 0 and W + kappa V1'
// positive definite on z >= 0. A level floor's V2 needs its own side only
// (V2- takes the other); kappa[1] infinite is V1 alone there, the sign
// conditions (55), (56). False with the failing side in *why.
static bool envelope_positive(const cert_system *s, double c, mpq_t *x, const double kappa[2],
                              const char **why) {
  static const char *const fail[2] = {
      "positivity on V2's own side of the slip: W + kappa V1 is not positive definite "
      "(or kappa < 0, or 1 + kappa c b3 <= 0)",
      "positivity on the other side of the slip: W + kappa V1 is not positive definite "
      "(or kappa c b3 >= -1)"};
  mpq_t k, t, b3;
  mpq_inits(k, t, b3, NULL);
  mpq_set_d(b3, s->b[2]);
  bool ok = true;
  for (int side = 0; side < 2 && ok; side++) {
    if (side == 1 && isnan(kappa[1])) break;
    if (side == 1 && isinf(kappa[1])) {              // V1 alone: (55) and (56)
      ok = !s->level && s->b[0] > 0 && s->b[1] > 0;  // M' > 0: a mass matrix
      if (!ok) *why = "positivity: V1 alone bounds the other side only with b3 != 0, b1, b2 > 0";
      break;
    }
    ok = isfinite(kappa[side]) && kappa[side] >= 0;
    if (ok) {
      mpq_set_d(k, kappa[side]);
      mpq_set_d(t, c);
      mpq_mul(t, t, b3);
      mpq_mul(t, t, k);                              // kappa beta
      if (side == 0) ok = mpq_cmp_si(t, -1, 1) > 0;  // 1 + kappa beta > 0
      else ok = mpq_cmp_si(t, -1, 1) < 0;            // -(1 + kappa beta) > 0
    }
    ok = ok && positive(s, x, k);
    if (!ok) *why = fail[side];
  }
  mpq_clears(k, t, b3, NULL);
  return ok;
}

zeno_status cert_exact_verify(const cert_system *s, double c, const double x0[CERT_EXACT_NX],
                              const double kappa[2], const double *lambda, cert_exact_result *out,
                              zeno_error *e) {
  (void)e;
  memset(out, 0, sizeof *out);
  static_assert(CERT_EXACT_NX <= CERT_EXACT_MAX_EQ, "independent equalities fit project()");
  lform eq[CERT_EXACT_MAX_CAND], le[CERT_EXACT_MAX_EQ];
  int neq = 0, nle = 0, keep[CERT_EXACT_MAX_CAND], nkeep = 0;
  mpq_t x[CERT_EXACT_NX], v;
  mpq_init(v);
  for (int k = 0; k < CERT_EXACT_NX; k++) {
    mpq_init(x[k]);
    mpq_set_d(x[k], x0[k]);
  }
  const char *fail = NULL;
  char text[200] = "";
  for (int k = 0; k < s->nmodes; k++)  // a piece mode's decrease: cert_piece_verify
    if (!cert_piece_mode(s, &s->modes[k]) &&
        !mode_conditions(s, &s->modes[k], c, eq, &neq, le, &nle))
      fail = "a mode's exact solve is singular";
  if (!fail) {  // the flights' equalities, or the pieces'
    mpq_t rows[CERT_FLIGHT_MAX_EQ * (CERT_EXACT_NX + 1)];
    for (int k = 0; k < CERT_FLIGHT_MAX_EQ * (CERT_EXACT_NX + 1); k++) mpq_init(rows[k]);
    const int n = cert_flights(s) ? cert_flight_equalities(s, c, rows, CERT_FLIGHT_MAX_EQ)
                                  : cert_piece_equalities(s, c, rows, CERT_FLIGHT_MAX_EQ);
    for (int r = 0; r < n; r++, neq++) {
      lf_init(&eq[neq]);
      for (int k = 0; k < CERT_EXACT_NX; k++)
        mpq_set(eq[neq].co[k], rows[r * (CERT_EXACT_NX + 1) + k]);
      mpq_set(eq[neq].k, rows[r * (CERT_EXACT_NX + 1) + CERT_EXACT_NX]);
    }
    for (int k = 0; k < CERT_FLIGHT_MAX_EQ * (CERT_EXACT_NX + 1); k++) mpq_clear(rows[k]);
  }

  if (!fail && (!independent(eq, neq, keep, &nkeep) || !project(eq, keep, nkeep, x)))
    fail = "the single-contact modes' equalities are inconsistent";
  out->equalities = nkeep;

  for (int k = 0; k < CERT_EXACT_NX; k++) {
    out->x[k] = mpq_get_d(x[k]);
    out->shift = fmax(out->shift, fabs(out->x[k] - x0[k]));
  }
  const char *side = NULL;
  if (!fail && !envelope_positive(s, c, x, kappa, &side)) fail = side;
  for (int k = 0; k < nle && !fail; k++) {
    lf_eval(v, &le[k], x);
    if (mpq_sgn(v) > 0) {
      snprintf(text, sizeof text, "a slipping mode's rate is positive (%.3g)", mpq_get_d(v));
      fail = text;
    }
  }
  // Newton's law: a flight may precede every impact (certify_flight.h).
  if (!fail && cert_flights(s) && !cert_flight_verify(s, c, x, text, sizeof text, &out->generators))
    fail = text;
  if (!fail && !cert_flights(s) && !cert_piece_verify(s, c, x, lambda, text, sizeof text))
    fail = text;
  const int ncases = cert_flights(s) ? 0 : s->ncases;
  for (int k = 0; k < ncases && !fail; k++) {
    const cert_case *cs = &s->cases[k];
    for (int i = 0; i < 2 && !fail; i++) {
      if (!cs->both && i != cs->contact) continue;
      if (!impact_ok(cs, i, x)) {
        snprintf(text, sizeof text, "V2 grows across an impact at contact %d (case %c%c)", i + 1,
                 "FSPN"[cs->letter[0]], "FSPN"[cs->letter[1]]);
        fail = text;
      }
    }
  }
  if (!fail && !cert_exact_energy_ok(s, text, sizeof text)) fail = text;
  out->certified = fail == NULL;
  if (fail) snprintf(out->reason, sizeof out->reason, "%s", fail);
  for (int k = 0; k < neq; k++) lf_clear(&eq[k]);
  for (int k = 0; k < nle; k++) lf_clear(&le[k]);
  for (int k = 0; k < CERT_EXACT_NX; k++) mpq_clear(x[k]);
  mpq_clear(v);
  return ZENO_OK;
}
