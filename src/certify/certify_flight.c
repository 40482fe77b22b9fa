// The flight conditions of Newton's law, decided exactly (certify_flight.h).
//
// An impact at contact i (z_i- = 0, u_i- <= 0) after a free flight of
// duration tau >= 0 from s0: with a = qddot'_FF, q'0 = q'- - v tau +
// a tau^2 / 2, v0 = v - a tau, and V2 = c x2 + a1 z1 + a2 z2 + v^T P v,
//
//   V2(s0) - V2(s+) = v^T (P - G^T P G) v - tau g . v + tau^2 k,
//   g = h + 2 P a,  k = h . a / 2 + a^T P a,  h = (a1, a2, c),
//
// a quadratic form in y = (v, tau): the pre-impact gaps cancel between s0
// and s+ (the impact does not move the body). Its domain: tau >= 0, the
// case's conditions on v, and the start gaps >= 0. The impacting contact's
// start gap is -u_i tau + a_i tau^2 / 2 (z_i- = 0), over tau > 0 the linear
// -u_i + a_i tau / 2 >= 0 (at tau = 0 it is -u_i >= 0, a condition of every
// case); the other contact's is z_j- - u_j tau + a_j tau^2 / 2 with z_j- >= 0
// free, which any (v, tau) meets for z_j- large: no condition, except in a
// double impact (z_j- = 0), where it is -u_j + a_j tau / 2 >= 0 too.
#include "certify/certify_flight.h"

#include <stdio.h>
#include <stdlib.h>

#include "certify/certify_rat.h"
#include "sos/copositive.h"

/// Unknowns of the weighted-degree-2 W (certify_exact.h's CERT_EXACT_NX).
#define CERT_FLIGHT_NX 8

// Index of P[r][k] among the unknowns.
static int pidx(int r, int k) {
  static const int idx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
  return idx[r][k];
}

bool cert_flight_applies(const cert_system *s) {
  return cert_flights(s) && (s->a_ff[0] < 0 || s->a_ff[1] < 0);
}

// E = P - G^T P G (3 x 3, row major in a stride of n).
static void jump_form(mpq_t P[3][3], mpq_t G[3][3], mpq_t *E, int n) {
  mpq_t t;
  mpq_init(t);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      mpq_set(E[r * n + k], P[r][k]);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          mpq_mul(t, G[a][r], P[a][b]);
          mpq_mul(t, t, G[b][k]);
          mpq_sub(E[r * n + k], E[r * n + k], t);
        }
    }
  mpq_clear(t);
}

// The flight condition's form Q (4 x 4 over (u1, u2, w2, tau)) and cone L
// (rows over the same); their count in *m.
static void flight_form(const cert_case *cs, cert_rat_case *x, mpq_t P[3][3], mpq_t h[3],
                        mpq_t a[3], mpq_t *Q, mpq_t *L, int *m) {
  mpq_t g[3], k, t;
  mpq_inits(g[0], g[1], g[2], k, t, NULL);
  jump_form(P, x->G, Q, 4);
  for (int r = 0; r < 3; r++) {  // g = h + 2 P a
    mpq_set(g[r], h[r]);
    for (int c = 0; c < 3; c++) {
      mpq_mul(t, P[r][c], a[c]);
      mpq_add(g[r], g[r], t);
      mpq_add(g[r], g[r], t);
    }
  }
  for (int r = 0; r < 3; r++) {  // k = h . a / 2 + a^T P a
    mpq_mul(t, h[r], a[r]);
    mpq_div_2exp(t, t, 1);
    mpq_add(k, k, t);
    for (int c = 0; c < 3; c++) {
      mpq_mul(t, a[r], P[r][c]);
      mpq_mul(t, t, a[c]);
      mpq_add(k, k, t);
    }
  }
  for (int r = 0; r < 3; r++) {
    mpq_div_2exp(t, g[r], 1);
    mpq_neg(Q[r * 4 + 3], t);
    mpq_neg(Q[3 * 4 + r], t);
  }
  mpq_set(Q[15], k);
  int n = 0;
  mpq_set_ui(L[n * 4 + 3], 1, 1);  // tau >= 0
  n++;
  for (int c = 0; c < x->ncond; c++, n++)
    for (int r = 0; r < 3; r++) mpq_set(L[n * 4 + r], x->cond[c][r]);
  for (int i = 0; i < 2; i++) {  // start gaps over tau
    if (!cs->both && i != cs->contact) continue;
    mpq_set_si(L[n * 4 + i], -1, 1);
    mpq_div_2exp(L[n * 4 + 3], a[i], 1);
    n++;
  }
  *m = n;
  mpq_clears(g[0], g[1], g[2], k, t, NULL);
}

static const char *case_name(const cert_case *cs, char out[3]) {
  out[0] = "FSPN"[cs->letter[0]];
  out[1] = "FSPN"[cs->letter[1]];
  out[2] = 0;
  return out;
}

// B(y, y') = y^T Q y' for two vectors of R^4.
static void bilinear(mpq_t out, mpq_t *Q, mpq_t *y, mpq_t *z) {
  mpq_t t;
  mpq_init(t);
  mpq_set_ui(out, 0, 1);
  for (int r = 0; r < 4; r++)
    for (int k = 0; k < 4; k++) {
      mpq_mul(t, y[r], Q[r * 4 + k]);
      mpq_mul(t, t, z[k]);
      mpq_add(out, out, t);
    }
  mpq_clear(t);
}

void cert_flight_form_at(const cert_case *cs, cert_rat_case *x1, mpq_t *xv, double c, mpq_t a[3],
                         mpq_t *Q, mpq_t *L, int *m) {
  mpq_t P[3][3], h[3];
  for (int r = 0; r < 3; r++) {
    mpq_init(h[r]);
    for (int k = 0; k < 3; k++) {
      mpq_init(P[r][k]);
      mpq_set(P[r][k], xv[pidx(r, k)]);
    }
  }
  mpq_set(h[0], xv[0]);
  mpq_set(h[1], xv[1]);
  mpq_set_d(h[2], c);
  for (int q = 0; q < 16; q++) mpq_set_ui(Q[q], 0, 1);
  for (int q = 0; q < (CERT_MAX_CONDS + 3) * 4; q++) mpq_set_ui(L[q], 0, 1);
  flight_form(cs, x1, P, h, a, Q, L, m);
  for (int r = 0; r < 3; r++) {
    mpq_clear(h[r]);
    for (int k = 0; k < 3; k++) mpq_clear(P[r][k]);
  }
}

// The equality B(r, l) = 0 as a row k + sum_u co[u] x[u] (Q[0] the form
// at the unknowns 0, Q[u] at e_{u-1}; v0, v1 scratch).
static void equality_row(mpq_t Q[][16], mpq_t *r, mpq_t *l, mpq_t *row, mpq_t v0, mpq_t v1) {
  bilinear(v0, Q[0], r, l);
  mpq_set(row[CERT_FLIGHT_NX], v0);
  for (int u = 1; u <= CERT_FLIGHT_NX; u++) {
    bilinear(v1, Q[u], r, l);
    mpq_sub(row[u - 1], v1, v0);
  }
}

// The lineality rows of one form on its cone (cert_form_equalities): Q[0]
// at the unknowns 0, Q[u] at e_{u-1}; G room for the generators.
static int lineality(mpq_t Q[][16], int m, mpq_t *L, mpq_t *G, mpq_t *rows, int n, int max) {
  int nlin = 0, nrays = 0;
  if (m > COPOSITIVE_MAX_ROWS || !copositive_cone_generators(4, m, L, G, &nlin, &nrays)) return n;
  mpq_t v0, v1;
  mpq_inits(v0, v1, NULL);
  for (int b = 0; b < nlin; b++) {
    bool structural = true;  // Q(l, l) = 0 whatever the unknowns
    for (int u = 0; u <= CERT_FLIGHT_NX && structural; u++) {
      bilinear(v0, Q[u], &G[b * 4], &G[b * 4]);
      structural = mpq_sgn(v0) == 0;
    }
    if (!structural) continue;
    for (int g = 0; g < nlin + nrays && n < max; g++, n++)
      equality_row(Q, &G[b * 4], &G[g * 4], &rows[n * (CERT_FLIGHT_NX + 1)], v0, v1);
  }
  mpq_clears(v0, v1, NULL);
  return n;
}

// The equalities of one form at the structural zeros of its cone (a
// generator r with Q(r, r) = 0 whatever the unknowns, as an impact at zero
// approach speed): for every l with r + t l in the cone for small |t|
// (the lineality of the rows tight at r), Q(r + t l) = 2 t B(r, l) + t^2
// Q(l) >= 0 for both signs of t needs B(r, l) = 0 (necessary, so the
// projection on them loses no certificate). Q, L, G as lineality()'s
// (G holding the cone's nlin + nrays generators), T room for the tight
// rows and H for their generators.
static int tangent(mpq_t Q[][16], int m, mpq_t *L, mpq_t *G, int ngen, mpq_t *T, mpq_t *H,
                   mpq_t *rows, int n, int max) {
  mpq_t v0, v1;
  mpq_inits(v0, v1, NULL);
  for (int b = 0; b < ngen && n < max; b++) {
    bool structural = true;
    for (int u = 0; u <= CERT_FLIGHT_NX && structural; u++) {
      bilinear(v0, Q[u], &G[b * 4], &G[b * 4]);
      structural = mpq_sgn(v0) == 0;
    }
    if (!structural) continue;
    int mt = 0;
    for (int k = 0; k < m; k++) {  // the rows tight at r
      mpq_set_ui(v0, 0, 1);
      for (int q = 0; q < 4; q++) {
        mpq_mul(v1, L[k * 4 + q], G[b * 4 + q]);
        mpq_add(v0, v0, v1);
      }
      if (mpq_sgn(v0) != 0) continue;
      for (int q = 0; q < 4; q++) mpq_set(T[mt * 4 + q], L[k * 4 + q]);
      mt++;
    }
    int nlin = 0, nrays = 0;
    if (!copositive_cone_generators(4, mt, T, H, &nlin, &nrays)) continue;
    for (int l = 0; l < nlin && n < max; l++, n++)
      equality_row(Q, &G[b * 4], &H[l * 4], &rows[n * (CERT_FLIGHT_NX + 1)], v0, v1);
  }
  mpq_clears(v0, v1, NULL);
  return n;
}

int cert_form_equalities(cert_form_fn form, void *ctx, int count, bool at_zeros, mpq_t *rows,
                         int max) {
  mpq_t xv[CERT_FLIGHT_NX], Q[CERT_FLIGHT_NX + 1][16], L[COPOSITIVE_MAX_ROWS * 4], *G;
  for (int k = 0; k < CERT_FLIGHT_NX; k++) mpq_init(xv[k]);
  for (int u = 0; u <= CERT_FLIGHT_NX; u++)
    for (int q = 0; q < 16; q++) mpq_init(Q[u][q]);
  for (int q = 0; q < COPOSITIVE_MAX_ROWS * 4; q++) mpq_init(L[q]);
  G = malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *G);
  if (G)
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(G[q]);
  mpq_t *H = at_zeros ? malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *H) : NULL,
        T[COPOSITIVE_MAX_ROWS * 4];
  for (int q = 0; q < COPOSITIVE_MAX_ROWS * 4; q++) mpq_init(T[q]);
  if (H)
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(H[q]);
  int n = 0;
  for (int k = 0; G && k < count; k++) {
    int m = 0;
    bool ok = true;
    for (int u = 0; u <= CERT_FLIGHT_NX && ok; u++) {  // Q at xv = 0 (u = 0) and e_{u-1}
      for (int q = 0; q < CERT_FLIGHT_NX; q++) mpq_set_ui(xv[q], q == u - 1 ? 1 : 0, 1);
      for (int q = 0; q < COPOSITIVE_MAX_ROWS * 4; q++) mpq_set_ui(L[q], 0, 1);
      ok = form(ctx, k, xv, Q[u], L, &m);
    }
    if (ok) n = lineality(Q, m, L, G, rows, n, max);  // else the verification reports it
    int nlin = 0, nrays = 0;
    if (ok && at_zeros && H && m <= COPOSITIVE_MAX_ROWS &&
        copositive_cone_generators(4, m, L, G, &nlin, &nrays))
      n = tangent(Q, m, L, G, nlin + nrays, T, H, rows, n, max);
  }
  if (G) {
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(G[q]);
    free(G);
  }
  if (H) {
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(H[q]);
    free(H);
  }
  for (int q = 0; q < COPOSITIVE_MAX_ROWS * 4; q++) mpq_clear(T[q]);
  for (int k = 0; k < CERT_FLIGHT_NX; k++) mpq_clear(xv[k]);
  for (int u = 0; u <= CERT_FLIGHT_NX; u++)
    for (int q = 0; q < 16; q++) mpq_clear(Q[u][q]);
  for (int q = 0; q < COPOSITIVE_MAX_ROWS * 4; q++) mpq_clear(L[q]);
  return n;
}

// The flights' forms for cert_form_equalities: item k is case k.
typedef struct flight_ctx {
  const cert_system *s;
  double c;
  mpq_t a[3];
  cert_rat_case x1;
  int solved;  ///< the case x1 holds (-1: none)
} flight_ctx;

static bool flight_item(void *ctx, int k, mpq_t *xv, mpq_t *Q, mpq_t *L, int *m) {
  flight_ctx *f = ctx;
  const cert_case *cs = &f->s->cases[k];
  if (f->solved != k) {
    if (!cert_rat_case_exact(f->s, cs, &f->x1)) return false;  // cert_flight_verify reports it
    f->solved = k;
  }
  cert_flight_form_at(cs, &f->x1, xv, f->c, f->a, Q, L, m);
  return true;
}

int cert_flight_equalities(const cert_system *s, double c, mpq_t *rows, int max) {
  flight_ctx f = {.s = s, .c = c, .solved = -1};
  mpq_inits(f.a[0], f.a[1], f.a[2], NULL);
  cert_rat_case_init(&f.x1);
  const zeno_mode ff = {{ZENO_LETTER_F, ZENO_LETTER_F}};
  const int n = cert_rat_mode_acc(s, ff, f.a)
                    ? cert_form_equalities(flight_item, &f, s->ncases, false, rows, max)
                    : 0;
  cert_rat_case_clear(&f.x1);
  mpq_clears(f.a[0], f.a[1], f.a[2], NULL);
  return n;
}

bool cert_flight_verify(const cert_system *s, double c, mpq_t *x, char *text, size_t size,
                        int *max_gen) {
  enum { ROWS = CERT_MAX_CONDS + 3 };
  mpq_t P[3][3], h[3], a[3], T[3][3], Q[16], L[ROWS * 4], Q1[9], L1[CERT_MAX_CONDS * 3];
  for (int r = 0; r < 3; r++) {
    mpq_inits(h[r], a[r], NULL);
    for (int k = 0; k < 3; k++) {
      mpq_inits(P[r][k], T[r][k], NULL);
      mpq_set(P[r][k], x[pidx(r, k)]);
      mpq_set_d(T[r][k], s->Mp[r][k]);
      mpq_div_2exp(T[r][k], T[r][k], 1);
    }
  }
  for (int k = 0; k < 16; k++) mpq_init(Q[k]);
  for (int k = 0; k < ROWS * 4; k++) mpq_init(L[k]);
  for (int k = 0; k < 9; k++) mpq_init(Q1[k]);
  for (int k = 0; k < CERT_MAX_CONDS * 3; k++) mpq_init(L1[k]);
  mpq_set(h[0], x[0]);
  mpq_set(h[1], x[1]);
  mpq_set_d(h[2], c);
  const zeno_mode ff = {{ZENO_LETTER_F, ZENO_LETTER_F}};
  bool ok = cert_rat_mode_acc(s, ff, a);
  if (!ok) snprintf(text, size, "%s", "free flight's exact solve is singular");
  if (ok && mpq_sgn(a[0]) >= 0 && mpq_sgn(a[1]) >= 0) {
    ok = false;
    snprintf(text, size, "%s",
             "both free-flight gap accelerations are >= 0: a flight need not end");
  }
  if (max_gen) *max_gen = 0;
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  for (int k = 0; k < s->ncases && ok; k++) {
    const cert_case *cs = &s->cases[k];
    char name[3];
    if (!cert_rat_case_exact(s, cs, &x1)) {
      snprintf(text, size, "impact case %s's exact solve is singular", case_name(cs, name));
      ok = false;
      break;
    }
    for (int q = 0; q < 16; q++) mpq_set_ui(Q[q], 0, 1);
    for (int q = 0; q < ROWS * 4; q++) mpq_set_ui(L[q], 0, 1);
    int m = 0, ngen = 0;
    flight_form(cs, &x1, P, h, a, Q, L, &m);
    copositive_answer ans = copositive_cone_nonneg(4, Q, m, L, &ngen);
    if (max_gen && ngen > *max_gen) *max_gen = ngen;
    if (ans != COPOSITIVE_YES) {
      snprintf(text, size, "%s (case %s, contact %d)",
               ans == COPOSITIVE_NO ? "V2 after a flight and an impact exceeds its value at the "
                                      "flight's start"
                                    : "a flight condition's cone has too many generators",
               case_name(cs, name), cs->contact + 1);
      ok = false;
      break;
    }
    // V1 (kinetic part M' / 2; the potential does not jump) across the case.
    jump_form(T, x1.G, Q1, 3);
    for (int q = 0; q < x1.ncond; q++)
      for (int r = 0; r < 3; r++) mpq_set(L1[q * 3 + r], x1.cond[q][r]);
    ans = copositive_cone_nonneg(3, Q1, x1.ncond, L1, &ngen);
    if (ans != COPOSITIVE_YES) {
      snprintf(text, size, "%s (case %s)",
               ans == COPOSITIVE_NO ? "the energy V1 grows across an impact"
                                    : "an energy condition's cone has too many generators",
               case_name(cs, name));
      ok = false;
    }
  }
  cert_rat_case_clear(&x1);
  for (int r = 0; r < 3; r++) {
    mpq_clears(h[r], a[r], NULL);
    for (int k = 0; k < 3; k++) mpq_clears(P[r][k], T[r][k], NULL);
  }
  for (int k = 0; k < 16; k++) mpq_clear(Q[k]);
  for (int k = 0; k < ROWS * 4; k++) mpq_clear(L[k]);
  for (int k = 0; k < 9; k++) mpq_clear(Q1[k]);
  for (int k = 0; k < CERT_MAX_CONDS * 3; k++) mpq_clear(L1[k]);
  return ok;
}
