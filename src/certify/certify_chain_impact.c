// A piece's chain through the impact that ends it (certify_piece.h,
// docs/certificate.md): a piece of mode m (contact i closed, j free) ends
// at the single impact of case cs at j with contact i leaving (letter F,
// post u_i >= 0) and j slipping; the mode n that follows (j closed, i
// free from z_i = 0) runs until contact i closes again, after
// tau_c = 2 u_i+ / |a_n,i|, or, first, until j's decelerating slip stops,
// after tau_s = |w_j+| / |sl . a_n|: both linear in the pre-impact
// velocity. V2 after that end (after the impact of case `end` at i, or at
// the stop) must not exceed V2 at the piece's start: a quadratic form in
// y = (u_j, w2, tau1), u_j and w2 the pre-impact velocity (u_i = 0) and
// tau1 m's time before it, on a polyhedral cone.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_piece_internal.h"

const cert_mode *cert_piece_through_mode(const cert_system *s, const cert_mode *m,
                                         const cert_case *cs) {
  const int i = closed_contact(m), j = 1 - i;
  if (!s->through || i < 0 || cs->kind != CERT_COMPLEMENTARITY || cs->both || cs->contact != j ||
      cs->letter[i] != ZENO_LETTER_F)
    return NULL;
  const unsigned char lj = cs->letter[j];
  // An accelerating slip (a piece mode that never stops): the face at its
  // impact is what binds Example 2 (docs/certificate.md).
  int dir = 0;
  if ((lj != ZENO_LETTER_P && lj != ZENO_LETTER_N) || !piece_falling_mode(s, m, &dir) || dir <= 0)
    return NULL;
  unsigned char l[2];
  l[i] = ZENO_LETTER_F;
  l[j] = lj;
  const cert_mode *n = piece_find_mode(s, l[0], l[1]);
  // A slip after the impact (w_j+ of the case's sign): n is the only mode
  // with contact i leaving. Its free gap must fall (its piece ends) and its
  // slip decelerate (the stop, the other end, is where the chain stops).
  if (!n || !piece_falling_mode(s, n, &dir) || dir >= 0) return NULL;
  return n;
}

// Whether row b (dim entries) is a positive multiple of row a.
static bool same_row(mpq_t *a, mpq_t *b, int dim, mpq_t r, mpq_t t) {
  int k0 = -1;
  for (int k = 0; k < dim && k0 < 0; k++)
    if (mpq_sgn(a[k])) k0 = k;
  if (k0 < 0 || mpq_sgn(b[k0]) != mpq_sgn(a[k0])) return false;
  mpq_div(r, b[k0], a[k0]);
  for (int k = 0; k < dim; k++) {
    mpq_mul(t, r, a[k]);
    if (!mpq_equal(t, b[k])) return false;
  }
  return true;
}

// rows L3 += L T for L (n x 4) and T 4 x 3, dropping the zero rows and those
// repeating an earlier one.
static void add_rows(mpq_t *L3, int *n3, mpq_t *L, int n, mpq_t *T, mpq_t r, mpq_t t) {
  for (int q = 0; q < n; q++) {
    mpq_t *row = &L3[*n3 * 3];
    bool any = false;
    for (int k = 0; k < 3; k++) {
      mpq_set_ui(row[k], 0, 1);
      for (int p = 0; p < 4; p++) {
        mpq_mul(t, L[q * 4 + p], T[p * 3 + k]);
        mpq_add(row[k], row[k], t);
      }
      any = any || mpq_sgn(row[k]);
    }
    for (int o = 0; o < *n3 && any; o++) any = !same_row(&L3[o * 3], row, 3, r, t);
    if (any) (*n3)++;
  }
}

// The slip rate of contact k (w_k = sl . v) into sl.
static void slip_of(const cert_system *s, int k, mpq_t sl[3]) {
  for (int r = 0; r < 3; r++) {
    if (k == 1) mpq_set_ui(sl[r], r == 2, 1);
    else mpq_set_d(sl[r], s->slip1[r]);
  }
}

bool piece_through_form(const cert_system *s, const cert_mode *m, const piece_face *f, mpq_t *xv,
                        double c, mpq_t *Q3, mpq_t *L3, int *nrows) {
  const int i = closed_contact(m), j = 1 - i;
  const cert_mode *n = f->next;
  mpq_t am[3], an[3], sl[3], P1[9], tn[3], QA[16], QB[16], LA[PIECE_ROWS * 4], LB[PIECE_ROWS * 4],
      Ta[12], Tb[12], t, r, asl;
  mpq_inits(t, r, asl, NULL);
  for (int k = 0; k < 3; k++) mpq_inits(am[k], an[k], sl[k], tn[k], NULL);
  for (int k = 0; k < 9; k++) mpq_init(P1[k]);
  for (int k = 0; k < 16; k++) mpq_inits(QA[k], QB[k], NULL);
  for (int k = 0; k < PIECE_ROWS * 4; k++) mpq_inits(LA[k], LB[k], NULL);
  for (int k = 0; k < 12; k++) mpq_inits(Ta[k], Tb[k], NULL);
  cert_rat_case x1, x2;
  cert_rat_case_init(&x1);
  cert_rat_case_init(&x2);
  bool ok = piece_mode_acc(s, m, am) && piece_mode_acc(s, n, an) && piece_face_map(s, f->cs, &x1) &&
            piece_face_map(s, f->end, &x2);
  slip_of(s, j, sl);
  for (int k = 0; ok && k < 3; k++) {
    mpq_mul(t, sl[k], an[k]);
    mpq_add(asl, asl, t);
  }
  ok = ok && mpq_sgn(an[i]) < 0 && mpq_sgn(asl) != 0;
  *nrows = 0;
  if (ok) {
    // (v_e, tau1) = Ta y: u_i = 0.
    mpq_set_ui(Ta[j * 3 + 0], 1, 1);
    mpq_set_ui(Ta[2 * 3 + 1], 1, 1);
    mpq_set_ui(Ta[3 * 3 + 2], 1, 1);
    // The post-impact velocity P1 y = G1 v_e.
    for (int q = 0; q < 3; q++)
      for (int k = 0; k < 3; k++)
        for (int p = 0; p < 3; p++) {
          mpq_mul(t, x1.G[q][p], Ta[p * 3 + k]);
          mpq_add(P1[q * 3 + k], P1[q * 3 + k], t);
        }
    // n's time: to contact i's closing, -2 u_i+ / a_n,i, or to the stop,
    // -w_j+ / (sl . a_n).
    for (int k = 0; k < 3; k++) {
      if (f->end) {
        mpq_div(tn[k], P1[i * 3 + k], an[i]);
        mpq_mul_2exp(tn[k], tn[k], 1);
      } else {
        mpq_set_ui(tn[k], 0, 1);
        for (int p = 0; p < 3; p++) {
          mpq_mul(t, sl[p], P1[p * 3 + k]);
          mpq_add(tn[k], tn[k], t);
        }
        mpq_div(tn[k], tn[k], asl);
      }
      mpq_neg(tn[k], tn[k]);
    }
    // (v_n, tau_n) = Tb y: v_n = P1 y + a_n tau_n at n's end.
    for (int q = 0; q < 3; q++)
      for (int k = 0; k < 3; k++) {
        mpq_mul(t, an[q], tn[k]);
        mpq_add(Tb[q * 3 + k], P1[q * 3 + k], t);
      }
    for (int k = 0; k < 3; k++) mpq_set(Tb[9 + k], tn[k]);
    int na = 0, nb = 0;
    piece_face_form(s, m, am, f->cs, &x1, xv, c, QA, LA, &na);   // V2(s) - V2(G1 e)
    piece_face_form(s, n, an, f->end, &x2, xv, c, QB, LB, &nb);  // V2(G1 e) - V2(n's end)
    for (int q = 0; q < 9; q++) mpq_set_ui(Q3[q], 0, 1);
    piece_add_congruent(Q3, QA, Ta);
    piece_add_congruent(Q3, QB, Tb);
    add_rows(L3, nrows, LA, na, Ta, r, t);
    add_rows(L3, nrows, LB, nb, Tb, r, t);
    if (!f->end) {  // the stop comes first: z_i there >= 0, u_i+ + a_n,i tau_s / 2 >= 0
      mpq_t gap[4 * 4];
      for (int q = 0; q < 16; q++) mpq_init(gap[q]);
      mpq_set_ui(gap[i], 1, 1);
      mpq_div_2exp(gap[3], an[i], 1);
      // as a row over (v_n, tau_n): u_i(v_n) - a_n,i tau_n / 2 = u_i+ + a_n,i tau_n / 2
      mpq_neg(gap[3], gap[3]);
      add_rows(L3, nrows, gap, 1, Tb, r, t);
      for (int q = 0; q < 16; q++) mpq_clear(gap[q]);
    }
  }
  cert_rat_case_clear(&x1);
  cert_rat_case_clear(&x2);
  mpq_clears(t, r, asl, NULL);
  for (int k = 0; k < 3; k++) mpq_clears(am[k], an[k], sl[k], tn[k], NULL);
  for (int k = 0; k < 9; k++) mpq_clear(P1[k]);
  for (int k = 0; k < 16; k++) mpq_clears(QA[k], QB[k], NULL);
  for (int k = 0; k < PIECE_ROWS * 4; k++) mpq_clears(LA[k], LB[k], NULL);
  for (int k = 0; k < 12; k++) mpq_clears(Ta[k], Tb[k], NULL);
  return ok;
}
