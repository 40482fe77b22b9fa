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
#include "certify/certify_piece_internal.h"

#include "base/util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "sos/copositive.h"

cert_piece_cache *cert_piece_cache_create(void) {
  cert_piece_cache *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  for (int k = 0; k < CERT_MAX_MODES; k++)
    mpq_inits(c->acc[k][0], c->acc[k][1], c->acc[k][2], NULL);
  for (int k = 0; k < CERT_MAX_CASES; k++) cert_rat_case_init(&c->cases[k]);
  return c;
}

void cert_piece_cache_destroy(cert_piece_cache *c) {
  if (!c) return;
  for (int k = 0; k < CERT_MAX_MODES; k++)
    mpq_clears(c->acc[k][0], c->acc[k][1], c->acc[k][2], NULL);
  for (int k = 0; k < CERT_MAX_CASES; k++) cert_rat_case_clear(&c->cases[k]);
  free(c);
}

// Mode m's exact acceleration (cert_rat_mode_acc), from s's cache.
bool piece_mode_acc(const cert_system *s, const cert_mode *m, mpq_t a[3]) {
  const int k = s->cache ? index_in(m, s->modes, sizeof *m, s->nmodes) : -1;
  if (k < 0) return cert_rat_mode_acc(s, m->mode, a);
  cert_piece_cache *c = s->cache;
  if (!c->acc_state[k]) c->acc_state[k] = cert_rat_mode_acc(s, m->mode, c->acc[k]) ? 1 : -1;
  for (int r = 0; r < 3; r++) mpq_set(a[r], c->acc[k][r]);
  return c->acc_state[k] > 0;
}

// Case cs's exact map and conditions (cert_rat_case_exact), from s's cache.
bool piece_case_exact(const cert_system *s, const cert_case *cs, cert_rat_case *out) {
  const int k = s->cache ? index_in(cs, s->cases, sizeof *cs, s->ncases) : -1;
  if (k < 0) return cert_rat_case_exact(s, cs, out);
  cert_piece_cache *c = s->cache;
  if (!c->case_state[k]) c->case_state[k] = cert_rat_case_exact(s, cs, &c->cases[k]) ? 1 : -1;
  const cert_rat_case *x = &c->cases[k];
  for (int r = 0; r < 3; r++)
    for (int q = 0; q < 3; q++) mpq_set(out->G[r][q], x->G[r][q]);
  out->ncond = x->ncond;
  for (int r = 0; r < x->ncond; r++)
    for (int q = 0; q < 3; q++) mpq_set(out->cond[r][q], x->cond[r][q]);
  return c->case_state[k] > 0;
}

// out = sgn x for sgn = +-1.
static void mul_si(mpq_ptr out, mpq_srcptr x, int sgn) {
  mpq_set(out, x);
  if (sgn < 0) mpq_neg(out, out);
}

// The closed contact's slip rate direction sl (w_i = sl . v) and, for the
// mode's exact acceleration a, its acceleration sl . a into asl.
static void slip_row(const cert_system *s, int i, mpq_t a[3], mpq_t sl[3], mpq_t asl) {
  mpq_t t;
  mpq_init(t);
  mpq_set_ui(asl, 0, 1);
  for (int r = 0; r < 3; r++) {
    if (i == 1) mpq_set_ui(sl[r], r == 2, 1);
    else mpq_set_d(sl[r], s->slip1[r]);
    mpq_mul(t, sl[r], a[r]);
    mpq_add(asl, asl, t);
  }
  mpq_clear(t);
}

const cert_mode *piece_find_mode(const cert_system *s, unsigned char l0, unsigned char l1) {
  for (int k = 0; k < s->nmodes; k++)
    if (s->modes[k].mode.letter[0] == l0 && s->modes[k].mode.letter[1] == l1) return &s->modes[k];
  return NULL;
}

bool piece_falling_mode(const cert_system *s, const cert_mode *m, int *dir) {
  const int i = closed_contact(m);
  if (!s->pieces || i < 0 || cert_flights(s) || !(s->a_ff[0] < 0 && s->a_ff[1] < 0)) return false;
  mpq_t a[3], sl[3], asl;
  mpq_inits(a[0], a[1], a[2], sl[0], sl[1], sl[2], asl, NULL);
  // The closed contact's gap acceleration is 0 exactly (its start-gap row
  // in a double case's cone is then 0 >= 0), the free one's negative.
  const bool ok = piece_mode_acc(s, m, a) && mpq_sgn(a[i]) == 0 && mpq_sgn(a[1 - i]) < 0;
  const unsigned char li = m->mode.letter[i];
  *dir = 0;
  if (ok && li != ZENO_LETTER_S) {
    slip_row(s, i, a, sl, asl);
    *dir = li == ZENO_LETTER_P ? mpq_sgn(asl) : -mpq_sgn(asl);
  }
  mpq_clears(a[0], a[1], a[2], sl[0], sl[1], sl[2], asl, NULL);
  return ok;
}

const cert_mode *cert_piece_stop_mode(const cert_system *s, const cert_mode *m) {
  int dir = 0;
  if (!s->chains || !piece_falling_mode(s, m, &dir) || dir >= 0) return NULL;
  const int i = closed_contact(m);
  // w_i = 0 solved for w2 where contact 1 stops: sl[2] != 0.
  if (i == 0 && s->slip1[2] == 0) return NULL;
  unsigned char stick[2] = {ZENO_LETTER_F, ZENO_LETTER_F}, back[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
  stick[i] = ZENO_LETTER_S;
  back[i] = m->mode.letter[i] == ZENO_LETTER_P ? ZENO_LETTER_N : ZENO_LETTER_P;
  const cert_mode *st = piece_find_mode(s, stick[0], stick[1]),
                  *rev = piece_find_mode(s, back[0], back[1]);
  // At the stop the reversed slip starts only where its slip accelerates
  // in its own direction (a slipping mode's forces are consistent for
  // either acceleration); with a single contact closed (no Painleve's
  // paradox) at most one of it and sticking is possible: both (within the
  // modes' tolerance) is not a chain. The next mode's free gap must fall,
  // and a reversed slip accelerates away from the stop (never stops again).
  int sdir = 0, rdir = 0;
  const bool stick_ok = st && piece_falling_mode(s, st, &sdir);
  const bool rev_falls = rev && piece_falling_mode(s, rev, &rdir);
  const bool rev_starts = rev && (!rev_falls || rdir >= 0);  // unknown: it may
  if (st && !rev_starts) return stick_ok ? st : NULL;
  if (!st && rev_falls && rdir > 0) return rev;
  return NULL;
}

bool cert_piece_mode(const cert_system *s, const cert_mode *m) {
  int dir = 0;
  if (!piece_falling_mode(s, m, &dir)) return false;
  // A slip that decelerates can stop first, from any state with the free
  // gap large: that face alone asks V2's pointwise decrease again (g_j = 0
  // and the slip's rate, docs/certificate.md). Where the stop can only
  // lead to the sticking mode, the slip and the sticking piece after it
  // are asked together, up to the impact that ends them (the chains).
  return dir >= 0 || cert_piece_stop_mode(s, m) != NULL;
}

bool cert_piece_case(const cert_mode *m, const cert_case *cs) {
  const int i = closed_contact(m);
  return i >= 0 && cs->kind == CERT_COMPLEMENTARITY && (cs->both || cs->contact == 1 - i);
}

// Solves a face's map exactly into x1: case cs's, or (cs NULL, the slip
// stop) the identity. False when the case's exact solve is singular.
bool piece_face_map(const cert_system *s, const cert_case *cs, cert_rat_case *x1) {
  if (cs) return piece_case_exact(s, cs, x1);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) mpq_set_ui(x1->G[r][k], r == k ? 1 : 0, 1);
  x1->ncond = 0;
  return true;
}

// One face of mode m (a the mode's exact acceleration): case cs's impact,
// or the slip stop (cs NULL), with its map x1 (face_map), for the unknowns
// xv: Q (16, zeroed here) and the cone's rows L (PIECE_ROWS x 4, zeroed
// here), their count in *nrows.
void piece_face_form(const cert_system *s, const cert_mode *m, mpq_t a[3], const cert_case *cs,
                     cert_rat_case *x1, mpq_t *xv, double c, mpq_t *Q, mpq_t *L, int *nrows) {
  const int i = closed_contact(m);
  const unsigned char li = m->mode.letter[i];
  mpq_t sl[3], asl, t;
  mpq_inits(sl[0], sl[1], sl[2], asl, t, NULL);
  // The closed contact's slip rate sl . v and its acceleration sl . a.
  if (i == 1) mpq_set_ui(sl[2], 1, 1);
  else
    for (int r = 0; r < 3; r++) mpq_set_d(sl[r], s->slip1[r]);
  for (int r = 0; r < 3; r++) {
    mpq_mul(t, sl[r], a[r]);
    mpq_add(asl, asl, t);
  }
  // The slip stop: no jump; the start gap row of the closed contact i is 0 >= 0.
  cert_case stop = {0};
  stop.contact = i;
  int n = 0;
  cert_flight_form_at(cs ? cs : &stop, x1, xv, c, a, Q, L, &n);
  for (int q = n * 4; q < PIECE_ROWS * 4; q++) mpq_set_ui(L[q], 0, 1);
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
    for (int r = 0; r < 3; r++) mpq_set(L[n * 4 + r], x1->G[i][r]);
    n++;
  }
  *nrows = n;
  mpq_clears(sl[0], sl[1], sl[2], asl, t, NULL);
}

// The faces of mode m: its impact cases, then (slipping) the slip stop, or
// the chains through the sticking mode; their count.

// The generators of face f's cone of mode m (its lineality basis and
// extreme rays), -1 when it cannot be built or has too many.

// Face f's cone for the program's conditions in generator coordinates
// (piece_condition): its extreme rays as doubles, each scaled to largest
// entry 1, into gen (ngen x dim, dim 4 or a chain's 3), and the form's
// structural zeros: zero[g][h] when Q(g, h) = 0 whatever W and a chain's
// lambda.
// False when the cone has a lineality space, more than
// CERT_PROGRAM_NVARS rays, or cannot be built.
