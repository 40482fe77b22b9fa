// Theorem 2's decrease over a mode's piece, decided exactly
// (certify_piece.h, docs/certificate.md).
//
// A piece of mode m (contact i closed, contact j free with zddot_j = a_j <
// 0) from a state s runs with constant acceleration a until it leaves the
// mode at its end e, reached after tau >= 0: s = (q'e - v tau + a tau^2 / 2,
// v - a tau) with v = qdot'(e). The end is one of the faces
//
//   impact: z_j(e) = 0, u_j <= 0, case cs of the law at contact j (the
//           other contact closed, u_i = 0), V2 after it is V2(G e);
//   slip stop (i slipping): the slip w_i(e) = 0, V2 continuous.
//
// (A touchdown at zero speed, u_j(e) = 0, cannot end a piece that ran: the
// gap -u_j tau + a_j tau^2 / 2 would be negative before it.) The condition
// V2(s) - V2(end) >= 0 is, as for a flight (certify_flight.c), a quadratic
// form in y = (u1, u2, w2, tau); its cone: tau >= 0, u_i = 0, the slip's
// sign at e and at s (it is linear in the time, so then all along), and
// for an impact the case's conditions, the touching contact's post u_i >= 0
// (single cases) and the start gap -u_j + a_j tau / 2 >= 0. For a slip stop
// z_j(e) >= 0 is free and cancels (V2 is linear in the gaps), so no gap
// condition. Each cone holds every (e, tau) of the pieces that end there
// (a superset: sound).
#include "certify/certify_piece.h"

#include <stdio.h>
#include <stdlib.h>

#include "certify/certify_flight.h"
#include "certify/certify_rat.h"
#include "sos/copositive.h"

/// Unknowns of the weighted-degree-2 W (certify_exact.h's CERT_EXACT_NX).
#define PIECE_NX 8
/// Rows of a face's cone: the flight form's (tau, the case's conditions,
/// two start gaps), u_i = 0 (two), the slip at e and at s (two), touching.
#define PIECE_ROWS (CERT_MAX_CONDS + 3 + 5)
/// Faces of a mode: its impact cases and the slip stop.
#define PIECE_MAX_FACES (CERT_MAX_CASES + 1)

static int pidx(int r, int k) {
  static const int idx[3][3] = {{2, 3, 4}, {3, 5, 6}, {4, 6, 7}};
  return idx[r][k];
}

// out = sgn x for sgn = +-1.
static void mul_si(mpq_ptr out, mpq_srcptr x, int sgn) {
  mpq_set(out, x);
  if (sgn < 0) mpq_neg(out, out);
}

// The closed and the free contact of a single-contact mode (-1: not one).
static int closed_contact(const cert_mode *m) {
  const bool f0 = m->mode.letter[0] == ZENO_LETTER_F, f1 = m->mode.letter[1] == ZENO_LETTER_F;
  return f0 == f1 ? -1 : (f0 ? 1 : 0);
}

bool cert_piece_mode(const cert_system *s, const cert_mode *m) {
  const int i = closed_contact(m);
  if (!s->pieces || i < 0 || cert_flights(s) || !(s->a_ff[0] < 0 && s->a_ff[1] < 0)) return false;
  mpq_t a[3], asl, t;
  mpq_inits(a[0], a[1], a[2], asl, t, NULL);
  bool ok = cert_rat_mode_acc(s, m->mode, a) && mpq_sgn(a[1 - i]) < 0;
  // A slip that decelerates can stop first, from any state with the free
  // gap large: that face asks V2's pointwise decrease again (g_j = 0 and
  // the slip's rate, docs/certificate.md), so such modes stay pointwise.
  const unsigned char li = m->mode.letter[i];
  if (ok && li != ZENO_LETTER_S) {
    for (int r = 0; r < 3; r++) {
      if (i == 1 && r < 2) continue;
      mpq_set_d(t, i == 1 ? 1.0 : s->slip1[r]);
      mpq_mul(t, t, a[r]);
      mpq_add(asl, asl, t);
    }
    ok = (li == ZENO_LETTER_P ? mpq_sgn(asl) : -mpq_sgn(asl)) >= 0;
  }
  mpq_clears(a[0], a[1], a[2], asl, t, NULL);
  return ok;
}

bool cert_piece_case(const cert_mode *m, const cert_case *cs) {
  const int i = closed_contact(m);
  return i >= 0 && cs->kind == CERT_COMPLEMENTARITY && (cs->both || cs->contact == 1 - i);
}

// One face of mode m (a the mode's exact acceleration): case cs's impact,
// or the slip stop (cs NULL), for the unknowns xv: Q (16, zeroed here) and
// the cone's rows L (PIECE_ROWS x 4, zeroed here), their count in *nrows.
// False when the case's exact solve is singular.
static bool face_form(const cert_system *s, const cert_mode *m, mpq_t a[3], const cert_case *cs,
                      mpq_t *xv, double c, mpq_t *Q, mpq_t *L, int *nrows) {
  const int i = closed_contact(m);
  const unsigned char li = m->mode.letter[i];
  mpq_t P[3][3], h[3], sl[3], asl, t;
  mpq_inits(asl, t, NULL);
  for (int r = 0; r < 3; r++) {
    mpq_inits(h[r], sl[r], NULL);
    for (int k = 0; k < 3; k++) {
      mpq_init(P[r][k]);
      mpq_set(P[r][k], xv[pidx(r, k)]);
    }
  }
  mpq_set(h[0], xv[0]);
  mpq_set(h[1], xv[1]);
  mpq_set_d(h[2], c);
  for (int q = 0; q < 16; q++) mpq_set_ui(Q[q], 0, 1);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_set_ui(L[q], 0, 1);
  // The closed contact's slip rate sl . v and its acceleration sl . a.
  if (i == 1) mpq_set_ui(sl[2], 1, 1);
  else
    for (int r = 0; r < 3; r++) mpq_set_d(sl[r], s->slip1[r]);
  for (int r = 0; r < 3; r++) {
    mpq_mul(t, sl[r], a[r]);
    mpq_add(asl, asl, t);
  }
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  cert_case stop = {0};
  bool ok = true;
  if (cs) ok = cert_rat_case_exact(s, cs, &x1);
  else {  // no jump; the start gap row of the closed contact i is 0 >= 0
    stop.contact = i;
    for (int r = 0; r < 3; r++) mpq_set_ui(x1.G[r][r], 1, 1);
    x1.ncond = 0;
  }
  int n = 0;
  if (ok) cert_flight_form(cs ? cs : &stop, &x1, P, h, a, Q, L, &n);
  if (ok) {
    for (int sg = -1; sg <= 1; sg += 2, n++) mpq_set_si(L[n * 4 + i], sg, 1);  // u_i = 0
    const int sgn = li == ZENO_LETTER_P ? 1 : -1;
    if (li == ZENO_LETTER_S || !cs) {  // w_i = 0 (sticking, or where the slip stops)
      for (int sg = -1; sg <= 1; sg += 2, n++)
        for (int r = 0; r < 3; r++) {
          mpq_set(L[n * 4 + r], sl[r]);
          if (sg < 0) mpq_neg(L[n * 4 + r], L[n * 4 + r]);
        }
    } else {  // sgn w_i >= 0 at the end
      for (int r = 0; r < 3; r++) mul_si(L[n * 4 + r], sl[r], sgn);
      n++;
    }
    if (li != ZENO_LETTER_S) {  // and at the start: sgn (w_i - asl tau) >= 0
      if (cs)
        for (int r = 0; r < 3; r++) mul_si(L[n * 4 + r], sl[r], sgn);
      mul_si(L[n * 4 + 3], asl, -sgn);
      n++;
    }
    if (cs && !cs->both && cs->letter[i] == ZENO_LETTER_F) {  // touching: post u_i >= 0
      for (int r = 0; r < 3; r++) mpq_set(L[n * 4 + r], x1.G[i][r]);
      n++;
    }
  }
  *nrows = n;
  cert_rat_case_clear(&x1);
  mpq_clears(asl, t, NULL);
  for (int r = 0; r < 3; r++) {
    mpq_clears(h[r], sl[r], NULL);
    for (int k = 0; k < 3; k++) mpq_clear(P[r][k]);
  }
  return ok;
}

// The faces of mode m: its impact cases, then (slipping) the slip stop
// (NULL); their count.
static int faces(const cert_system *s, const cert_mode *m, const cert_case **f) {
  int n = 0;
  for (int k = 0; k < s->ncases; k++)
    if (cert_piece_case(m, &s->cases[k])) f[n++] = &s->cases[k];
  if (m->mode.letter[closed_contact(m)] != ZENO_LETTER_S) f[n++] = NULL;
  return n;
}

// B(y, y') = y^T Q y' over R^4.
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

int cert_piece_equalities(const cert_system *s, double c, mpq_t *rows, int max) {
  mpq_t a[3], xv[PIECE_NX], Q[PIECE_NX + 1][16], L[PIECE_ROWS * 4], *G, v0, v1;
  mpq_inits(a[0], a[1], a[2], v0, v1, NULL);
  for (int k = 0; k < PIECE_NX; k++) mpq_init(xv[k]);
  for (int u = 0; u <= PIECE_NX; u++)
    for (int q = 0; q < 16; q++) mpq_init(Q[u][q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_init(L[q]);
  G = malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *G);
  if (G)
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(G[q]);
  int n = 0;
  for (int md = 0; G && md < s->nmodes; md++) {
    const cert_mode *m = &s->modes[md];
    if (!cert_piece_mode(s, m) || !cert_rat_mode_acc(s, m->mode, a)) continue;
    const cert_case *f[PIECE_MAX_FACES];
    const int nf = faces(s, m, f);
    for (int fc = 0; fc < nf; fc++) {
      int nr = 0, nlin = 0, nrays = 0;
      bool ok = true;
      for (int u = 0; u <= PIECE_NX && ok; u++) {  // Q at xv = 0 (u = 0) and e_{u-1}
        for (int q = 0; q < PIECE_NX; q++) mpq_set_ui(xv[q], q == u - 1 ? 1 : 0, 1);
        ok = face_form(s, m, a, f[fc], xv, c, Q[u], L, &nr);
      }
      if (!ok || nr > COPOSITIVE_MAX_ROWS ||
          !copositive_cone_generators(4, nr, L, G, &nlin, &nrays))
        continue;  // cert_piece_verify reports it
      for (int b = 0; b < nlin; b++) {
        bool structural = true;  // Q(l, l) = 0 whatever the unknowns
        for (int u = 0; u <= PIECE_NX && structural; u++) {
          bilinear(v0, Q[u], &G[b * 4], &G[b * 4]);
          structural = mpq_sgn(v0) == 0;
        }
        if (!structural) continue;
        for (int g = 0; g < nlin + nrays && n < max; g++, n++) {
          mpq_t *row = &rows[n * (PIECE_NX + 1)];
          bilinear(v0, Q[0], &G[b * 4], &G[g * 4]);
          mpq_set(row[PIECE_NX], v0);
          for (int u = 1; u <= PIECE_NX; u++) {
            bilinear(v1, Q[u], &G[b * 4], &G[g * 4]);
            mpq_sub(row[u - 1], v1, v0);
          }
        }
      }
    }
  }
  if (G) {
    for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(G[q]);
    free(G);
  }
  mpq_clears(a[0], a[1], a[2], v0, v1, NULL);
  for (int k = 0; k < PIECE_NX; k++) mpq_clear(xv[k]);
  for (int u = 0; u <= PIECE_NX; u++)
    for (int q = 0; q < 16; q++) mpq_clear(Q[u][q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_clear(L[q]);
  return n;
}

bool cert_piece_verify(const cert_system *s, double c, mpq_t *x, char *text, size_t size) {
  mpq_t a[3], Q[16], L[PIECE_ROWS * 4];
  mpq_inits(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_init(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_init(L[q]);
  bool ok = true;
  for (int md = 0; md < s->nmodes && ok; md++) {
    const cert_mode *m = &s->modes[md];
    if (!cert_piece_mode(s, m)) continue;
    const char *mode = (const char[]){(char)"FSPN"[m->mode.letter[0]],
                                      (char)"FSPN"[m->mode.letter[1]], 0};
    if (!cert_rat_mode_acc(s, m->mode, a)) {
      snprintf(text, size, "mode %s's exact solve is singular", mode);
      ok = false;
      break;
    }
    const cert_case *f[PIECE_MAX_FACES];
    const int nf = faces(s, m, f);
    for (int fc = 0; fc < nf && ok; fc++) {
      int nr = 0, ngen = 0;
      ok = face_form(s, m, a, f[fc], x, c, Q, L, &nr);
      copositive_answer ans = COPOSITIVE_TOO_LARGE;
      if (ok && nr <= COPOSITIVE_MAX_ROWS) ans = copositive_cone_nonneg(4, Q, nr, L, &ngen);
      if (ans != COPOSITIVE_YES) {
        ok = false;
        if (!f[fc])
          snprintf(text, size, "V2 where mode %s's slip stops exceeds its value in the piece", mode);
        else
          snprintf(text, size, "V2 after the impact %c%c ending mode %s %s", "FSPN"[f[fc]->letter[0]],
                   "FSPN"[f[fc]->letter[1]], mode,
                   ans == COPOSITIVE_NO ? "exceeds its value in the piece"
                                        : "is not decided (a singular case or a cone too large)");
      }
    }
  }
  mpq_clears(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_clear(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_clear(L[q]);
  return ok;
}
