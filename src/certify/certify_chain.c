// A decelerating slip's chains (certify_piece.h, docs/certificate.md):
// the slip from a state s for tau1 until it stops, the one mode it can
// stop into for tau2 until the impact of case cs at the free contact j. As
// a form in y = (u_j, tau1, tau2), u_j the free contact's normal velocity
// before the impact: V2(s) - V2(G e2) >= 0 where the free gap at the
// slip's start z_j(s) >= 0, with an S-procedure multiplier lambda >= 0.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_piece_internal.h"

// The free gap at the start of a chain (docs/certificate.md) as a form Z
// (9, row major) in y = (u_j, tau1, tau2), u_j the free contact's normal
// velocity before the impact, tau2 the sticking piece's time and tau1 the
// slip's before it, a1, a2 their free-gap accelerations:
//   z_j(s) = -u_j tau2 + a2 tau2^2 / 2 - (u_j - a2 tau2) tau1 + a1 tau1^2 / 2.
static void chain_gap(mpq_srcptr a1, mpq_srcptr a2, mpq_t *Z) {
  for (int q = 0; q < 9; q++) mpq_set_ui(Z[q], 0, 1);
  mpq_set_si(Z[1], -1, 2);
  mpq_set_si(Z[2], -1, 2);
  mpq_set_si(Z[3], -1, 2);
  mpq_set_si(Z[6], -1, 2);
  mpq_div_2exp(Z[4], a1, 1);
  mpq_div_2exp(Z[5], a2, 1);
  mpq_div_2exp(Z[7], a2, 1);
  mpq_div_2exp(Z[8], a2, 1);
}

void piece_add_congruent(mpq_t *Q3, mpq_t *Q4, mpq_t *T) {
  mpq_t t;
  mpq_init(t);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++)
      for (int p = 0; p < 4; p++)
        for (int q = 0; q < 4; q++) {
          mpq_mul(t, T[p * 3 + r], Q4[p * 4 + q]);
          mpq_mul(t, t, T[q * 3 + k]);
          mpq_add(Q3[r * 3 + k], Q3[r * 3 + k], t);
        }
  mpq_clear(t);
}

// A chain of mode m (cert_piece_stop_mode: a decelerating slip of contact
// i stopping into the sticking mode st, whose piece ends at the impact of
// case cs at the free contact j): V2(s) - V2(G e2) - lambda z_j(s) >= 0 on
// the polyhedral cone of y = (u_j, tau1, tau2), s the slip's start, e2 the
// pre-impact state, decided exactly. At the stop the velocity is v1 =
// (u_j - a2_j tau2) d (u_i = 0, w_i = 0, d_j = 1), at e2 v2 = v1 + a2 tau2
// = u_j d + tau2 e with e = a2 - a2_j d (0 when st sticks). Lambda >= 0 is CSDP's
// S-procedure multiplier of the quadratic z_j(s) >= 0 (sound: on the
// cone's states with z_j(s) >= 0 the form is >= lambda z_j(s) >= 0).
copositive_answer piece_chain_verify(const cert_system *s, const cert_mode *m, const cert_mode *st,
                                     const cert_case *cs, double lambda, mpq_t *xv, double c,
                                     mpq_t *cone, int *ncone, mpq_t *form) {
  const int i = closed_contact(m), j = 1 - i;
  enum { ROWS = CERT_MAX_CONDS + 3 };
  mpq_t a1[3], a2[3], d[3], ev[3], QA[16], QB[16], LA[ROWS * 4], LB[ROWS * 4], Ta[12], Tb[12],
      Q3[9], Z[9], L3[(ROWS + 2) * 3], t, lam;
  mpq_inits(t, lam, NULL);
  for (int r = 0; r < 3; r++) mpq_inits(a1[r], a2[r], d[r], ev[r], NULL);
  for (int q = 0; q < 16; q++) mpq_inits(QA[q], QB[q], NULL);
  for (int q = 0; q < ROWS * 4; q++) mpq_inits(LA[q], LB[q], NULL);
  for (int q = 0; q < 12; q++) mpq_inits(Ta[q], Tb[q], NULL);
  for (int q = 0; q < 9; q++) mpq_inits(Q3[q], Z[q], NULL);
  for (int q = 0; q < (ROWS + 2) * 3; q++) mpq_init(L3[q]);
  cert_rat_case x1, x0;
  cert_rat_case_init(&x1);
  cert_rat_case_init(&x0);
  copositive_answer ans = COPOSITIVE_TOO_LARGE;
  if (isfinite(lambda) && lambda >= 0 && piece_mode_acc(s, m, a1) && piece_mode_acc(s, st, a2) &&
      piece_case_exact(s, cs, &x1) && piece_face_map(s, NULL, &x0)) {
    mpq_set_d(lam, lambda);
    // d: u_j = 1, u_i = 0, w_i = 0 (contact 2 sticking: w2 = 0; contact 1:
    // w2 = -(sl1 / sl2) u2).
    mpq_set_ui(d[j], 1, 1);
    if (i == 0) {
      mpq_set_d(d[2], s->slip1[1]);
      mpq_set_d(t, s->slip1[2]);
      mpq_div(d[2], d[2], t);
      mpq_neg(d[2], d[2]);
    }
    // (v2, tau2) = Tb y and (v1, tau1) = Ta y.
    for (int r = 0; r < 3; r++) {
      mpq_mul(t, a2[j], d[r]);
      mpq_sub(ev[r], a2[r], t);
      mpq_set(Tb[r * 3], d[r]);
      mpq_set(Tb[r * 3 + 2], ev[r]);
      mpq_set(Ta[r * 3], d[r]);
      mpq_neg(Ta[r * 3 + 2], t);
    }
    mpq_set_ui(Tb[3 * 3 + 2], 1, 1);
    mpq_set_ui(Ta[3 * 3 + 1], 1, 1);
    int nb = 0, na = 0;
    cert_flight_form_at(cs, &x1, xv, c, a2, QB, LB, &nb);  // V2(e1) - V2(G e2)
    cert_case stop = {0};
    stop.contact = i;
    cert_flight_form_at(&stop, &x0, xv, c, a1, QA, LA, &na);  // V2(s) - V2(e1)
    piece_add_congruent(Q3, QB, Tb);
    piece_add_congruent(Q3, QA, Ta);
    chain_gap(a1[j], a2[j], Z);
    for (int q = 0; q < 9; q++) {
      mpq_mul(t, lam, Z[q]);
      mpq_sub(Q3[q], Q3[q], t);
    }
    // The cone: the impact's rows (tau2 >= 0, the case's conditions, the
    // start gaps of the sticking piece) through Tb, tau1 >= 0, touching.
    int n = 0;
    for (int r = 0; r < nb; r++, n++)
      for (int k = 0; k < 3; k++)
        for (int p = 0; p < 4; p++) {
          mpq_mul(t, LB[r * 4 + p], Tb[p * 3 + k]);
          mpq_add(L3[n * 3 + k], L3[n * 3 + k], t);
        }
    mpq_set_ui(L3[n++ * 3 + 1], 1, 1);
    if (!cs->both && cs->letter[i] == ZENO_LETTER_F) {  // touching: post u_i >= 0
      for (int p = 0; p < 3; p++) {
        mpq_mul(t, x1.G[i][p], d[p]);
        mpq_add(L3[n * 3], L3[n * 3], t);
        mpq_mul(t, x1.G[i][p], ev[p]);
        mpq_add(L3[n * 3 + 2], L3[n * 3 + 2], t);
      }
      n++;
    }
    // Only the cone or the form asked for (cone given): not decided.
    if (cone) ans = COPOSITIVE_YES;
    else
      ans = n <= COPOSITIVE_MAX_ROWS ? copositive_cone_nonneg(3, Q3, n, L3, NULL)
                                     : COPOSITIVE_TOO_LARGE;
    if (cone) {  // the cone's rows (stride 3; at most CERT_MAX_CONDS + 5)
      for (int q = 0; q < n * 3; q++) mpq_set(cone[q], L3[q]);
      *ncone = n;
    }
    for (int q = 0; form && q < 9; q++) mpq_set(form[q], Q3[q]);
  }
  cert_rat_case_clear(&x1);
  cert_rat_case_clear(&x0);
  mpq_clears(t, lam, NULL);
  for (int r = 0; r < 3; r++) mpq_clears(a1[r], a2[r], d[r], ev[r], NULL);
  for (int q = 0; q < 16; q++) mpq_clears(QA[q], QB[q], NULL);
  for (int q = 0; q < ROWS * 4; q++) mpq_clears(LA[q], LB[q], NULL);
  for (int q = 0; q < 12; q++) mpq_clears(Ta[q], Tb[q], NULL);
  for (int q = 0; q < 9; q++) mpq_clears(Q3[q], Z[q], NULL);
  for (int q = 0; q < (ROWS + 2) * 3; q++) mpq_clear(L3[q]);
  return ans;
}
