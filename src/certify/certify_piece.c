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

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "sos/copositive.h"

/// Unknowns of the weighted-degree-2 W (certify_exact.h's CERT_EXACT_NX).
#define PIECE_NX 8
/// Rows of a face's cone: the flight form's (tau, the case's conditions,
/// two start gaps), u_i = 0 (two), the slip at e and at s (two), touching.
#define PIECE_ROWS (CERT_MAX_CONDS + 3 + 5)
/// Linear conditions of a piece's program condition: tau, the slip at the
/// end and the start, w_i = 0 as two rows, the case's conditions, the start
/// gap, touching; and with their pairwise products.
#define PIECE_MAX_LIN (CERT_MAX_CONDS + 7)
#define PIECE_MAX_G (PIECE_MAX_LIN + PIECE_MAX_LIN * (PIECE_MAX_LIN - 1) / 2)
/// Faces of a mode: its impact cases and the slip stop.
#define PIECE_MAX_FACES (CERT_MAX_CASES + 1)

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
  // The closed contact's gap acceleration is 0 exactly (its start-gap row
  // in a double case's cone is then 0 >= 0), the free one's negative.
  bool ok = cert_rat_mode_acc(s, m->mode, a) && mpq_sgn(a[i]) == 0 && mpq_sgn(a[1 - i]) < 0;
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

// Solves a face's map exactly into x1: case cs's, or (cs NULL, the slip
// stop) the identity. False when the case's exact solve is singular.
static bool face_map(const cert_system *s, const cert_case *cs, cert_rat_case *x1) {
  if (cs) return cert_rat_case_exact(s, cs, x1);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) mpq_set_ui(x1->G[r][k], r == k ? 1 : 0, 1);
  x1->ncond = 0;
  return true;
}

// One face of mode m (a the mode's exact acceleration): case cs's impact,
// or the slip stop (cs NULL), with its map x1 (face_map), for the unknowns
// xv: Q (16, zeroed here) and the cone's rows L (PIECE_ROWS x 4, zeroed
// here), their count in *nrows.
static void face_form(const cert_system *s, const cert_mode *m, mpq_t a[3], const cert_case *cs,
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

// The faces of mode m: its impact cases, then (slipping) the slip stop
// (NULL); their count.
static int faces(const cert_system *s, const cert_mode *m, const cert_case **f) {
  int n = 0;
  for (int k = 0; k < s->ncases; k++)
    if (cert_piece_case(m, &s->cases[k])) f[n++] = &s->cases[k];
  if (m->mode.letter[closed_contact(m)] != ZENO_LETTER_S) f[n++] = NULL;
  return n;
}

// The pieces' faces for cert_form_equalities: item k is face k of the
// list of (mode, face) pairs.
typedef struct piece_ctx {
  const cert_system *s;
  double c;
  int n;
  const cert_mode *mode[CERT_MAX_MODES * PIECE_MAX_FACES];
  const cert_case *face[CERT_MAX_MODES * PIECE_MAX_FACES];
  mpq_t a[3];
  cert_rat_case x1;
  int solved;  ///< the item whose mode acceleration and map a, x1 hold
} piece_ctx;

static bool piece_item(void *ctx, int k, mpq_t *xv, mpq_t *Q, mpq_t *L, int *m) {
  piece_ctx *p = ctx;
  if (p->solved != k) {
    if (!cert_rat_mode_acc(p->s, p->mode[k]->mode, p->a) || !face_map(p->s, p->face[k], &p->x1))
      return false;  // cert_piece_verify reports it
    p->solved = k;
  }
  face_form(p->s, p->mode[k], p->a, p->face[k], &p->x1, xv, p->c, Q, L, m);
  return true;
}

int cert_piece_equalities(const cert_system *s, double c, mpq_t *rows, int max) {
  piece_ctx *p = malloc(sizeof *p);
  if (!p) return 0;  // no equality: the verification then refuses what needs one
  p->s = s;
  p->c = c;
  p->n = 0;
  p->solved = -1;
  for (int md = 0; md < s->nmodes; md++) {
    const cert_mode *m = &s->modes[md];
    if (!cert_piece_mode(s, m)) continue;
    const cert_case *f[PIECE_MAX_FACES];
    const int nf = faces(s, m, f);
    for (int fc = 0; fc < nf; fc++, p->n++) {
      p->mode[p->n] = m;
      p->face[p->n] = f[fc];
    }
  }
  mpq_inits(p->a[0], p->a[1], p->a[2], NULL);
  cert_rat_case_init(&p->x1);
  const int n = cert_form_equalities(piece_item, p, p->n, rows, max);
  cert_rat_case_clear(&p->x1);
  mpq_clears(p->a[0], p->a[1], p->a[2], NULL);
  free(p);
  return n;
}

bool cert_piece_verify(const cert_system *s, double c, mpq_t *x, char *text, size_t size) {
  mpq_t a[3], Q[16], L[PIECE_ROWS * 4];
  mpq_inits(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_init(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_init(L[q]);
  bool ok = true;
  cert_rat_case x1;
  cert_rat_case_init(&x1);
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
      ok = face_map(s, f[fc], &x1);
      if (ok) face_form(s, m, a, f[fc], &x1, x, c, Q, L, &nr);
      copositive_answer ans = COPOSITIVE_TOO_LARGE;
      if (ok && nr <= COPOSITIVE_MAX_ROWS) ans = copositive_cone_nonneg(4, Q, nr, L, &ngen);
      if (ans != COPOSITIVE_YES) {
        ok = false;
        if (!f[fc])
          snprintf(text, size, "V2 where mode %s's slip stops exceeds its value in the piece",
                   mode);
        else
          snprintf(text, size, "V2 after the impact %c%c ending mode %s %s",
                   "FSPN"[f[fc]->letter[0]], "FSPN"[f[fc]->letter[1]], mode,
                   ans == COPOSITIVE_NO ? "exceeds its value in the piece"
                                        : "is not decided (a singular case or a cone too large)");
      }
    }
  }
  cert_rat_case_clear(&x1);
  mpq_clears(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_clear(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_clear(L[q]);
  return ok;
}

/* ---------- the conditions of the sums-of-squares program ---------- */

/// Rows whose directions differ by less than this (relative, after
/// normalising) are one row: dropping one enlarges the condition's domain,
/// which only makes the program's claim stronger (the exact check decides
/// on the exact cone), and saves its products.
#define PIECE_PARALLEL_TOL 1e-12

// A linear row's coefficients over the program's variables, normalised to
// unit length; false for a zero row.
static bool row_direction(const ze_poly *g, double out[CERT_PROGRAM_NVARS]) {
  double n2 = 0;
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) out[v] = 0;
  for (int t = 0; t < g->nterms; t++)
    for (int v = 0; v < CERT_PROGRAM_NVARS; v++)
      if (g->t[t].m.e[v] == 1) out[v] += g->t[t].c;
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) n2 += out[v] * out[v];
  if (!(n2 > 0)) return false;
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) out[v] /= sqrt(n2);
  return true;
}

// Drops the zero rows and every row parallel to an earlier one (the same
// half-space) from the linear rows g[0..*ng-1], keeping their order.
static void drop_parallel_rows(ze_poly *g, int *ng) {
  double dir[PIECE_MAX_LIN][CERT_PROGRAM_NVARS];
  int kept = 0;
  for (int k = 0; k < *ng; k++) {
    bool keep = row_direction(&g[k], dir[kept]);
    for (int q = 0; q < kept && keep; q++) {
      double d = 0;
      for (int v = 0; v < CERT_PROGRAM_NVARS; v++) d += fabs(dir[q][v] - dir[kept][v]);
      keep = d > PIECE_PARALLEL_TOL;
    }
    if (!keep) {
      poly_free(&g[k]);
      continue;
    }
    if (kept != k) {
      g[kept] = g[k];
      memset(&g[k], 0, sizeof g[k]);
    }
    kept++;
  }
  *ng = kept;
}

// Theorem 2's decrease over a piece of a single-contact mode m
// (certify_piece.h): V2 at any state s of the piece is at least V2 after
// the piece's end e, reached after tau: the impact of case cs at the free
// contact (V2(G e)), or, cs NULL, the closed contact's slip stop (V2(e)).
// Variables (-, u1, u2, w2, tau); the gaps at e are 0 (a slip stop's free
// gap cancels: V2 is linear in the gaps at weighted degree 2).
static zeno_status piece_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                   const cert_case *cs, const sos_expr *w, double c, int *count,
                                   zeno_error *e) {
  const int nv = CERT_PROGRAM_NVARS, off = 1, tau = nv - 1;
  const int i = m->mode.letter[0] == ZENO_LETTER_F ? 1 : 0, j = 1 - i;
  const unsigned char li = m->mode.letter[i];
  const double *a = m->acc;
  // The closed contact's slip rate sl . v and its acceleration.
  double sl[3] = {0, 0, 1};
  if (i == 0)
    for (int r = 0; r < 3; r++) sl[r] = s->slip1[r];
  const double asl = sl[0] * a[0] + sl[1] * a[1] + sl[2] * a[2];
  const double sgn = li == ZENO_LETTER_P ? 1.0 : -1.0;
  // v = B (u1, u2, w2): u_i = 0, and w_i = 0 substituted where it holds
  // (sticking, or where the slip stops) and can be solved for w2.
  double B[3][3] = {{0}};
  for (int k = 0; k < 3; k++)
    if (k != i) B[k][k] = 1;
  const bool stuck = li == ZENO_LETTER_S || !cs;
  bool subst = false;
  if (stuck && i == 1) {
    B[2][2] = 0;
    subst = true;
  } else if (stuck && sl[2] != 0) {  // contact 1: w2 = -(sl1 u2) / sl2
    B[2][1] = -sl[1] / sl[2];
    B[2][2] = 0;
    subst = true;
  }
  ze_poly z[2], v[3], post[3], g[PIECE_MAX_G], t;
  memset(z, 0, sizeof z);
  memset(v, 0, sizeof v);
  memset(post, 0, sizeof post);
  memset(g, 0, sizeof g);
  memset(&t, 0, sizeof t);
  sos_expr x;
  zeno_status st = sos_expr_init(&x, nv, e);
  if (st != ZENO_OK) return st;
  int ng = 0;
  CERT_TRY(poly_var(&t, nv, tau, e));
  for (int k = 0; k < 2; k++) CERT_TRY(poly_init(&z[k], nv, e));  // the gaps at the end
  // A row over (v, tau) as a linear polynomial: row . B y + rt tau.
  double coef[CERT_PROGRAM_NVARS];
#define PIECE_ROW(row, rt)                                                    \
  do {                                                                        \
    memset(coef, 0, sizeof coef);                                             \
    for (int r_ = 0; r_ < 3; r_++)                                            \
      for (int k_ = 0; k_ < 3; k_++) coef[off + k_] += (row)[r_] * B[r_][k_]; \
    coef[tau] = (rt);                                                         \
  } while (0)
  for (int k = 0; k < 3; k++) {
    PIECE_ROW(((double[3]){k == 0, k == 1, k == 2}), 0.0);
    CERT_TRY(cert_linear(&v[k], nv, coef, e));
  }
  for (int k = 0; k < 3; k++) {  // after the end: the impact's map, or no jump
    if (cs) {
      PIECE_ROW(cs->post[k], 0.0);
      CERT_TRY(cert_linear(&post[k], nv, coef, e));
    } else {
      CERT_TRY(poly_copy(&post[k], &v[k], e));
    }
  }
  CERT_TRY(cert_jump_expr(&x, w, c, z, v, post, &t, a, NULL, e));
  // Domain.
  CERT_TRY(poly_copy(&g[ng++], &t, e));
  if (!stuck) {  // the slip's sign at the end
    const double at_end[3] = {sgn * sl[0], sgn * sl[1], sgn * sl[2]};
    PIECE_ROW(at_end, 0.0);
    CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
  if (li != ZENO_LETTER_S) {  // the slip's sign at the start
    const double zero[3] = {0, 0, 0}, at_end[3] = {sgn * sl[0], sgn * sl[1], sgn * sl[2]};
    PIECE_ROW(cs ? at_end : zero, -sgn * asl);
    CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
  if (stuck && !subst) {  // w_i = 0 as two rows
    for (int sg = -1; sg <= 1; sg += 2) {
      const double r[3] = {sg * sl[0], sg * sl[1], sg * sl[2]};
      PIECE_ROW(r, 0.0);
      CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
    }
  }
  if (cs) {
    for (int k = 0; k < cs->ncond; k++) {
      PIECE_ROW(cs->cond[k], 0.0);
      bool any = false;
      for (int r = 0; r < nv; r++) any = any || coef[r] != 0;
      if (any) CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
    }
    const double uj[3] = {j == 0 ? -1.0 : 0.0, j == 1 ? -1.0 : 0.0, 0};
    PIECE_ROW(uj, 0.5 * a[j]);  // the free contact's start gap over tau
    CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
    if (!cs->both && cs->letter[i] == ZENO_LETTER_F) {  // touching: post u_i >= 0
      PIECE_ROW(cs->post[i], 0.0);
      CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
    }
  }
#undef PIECE_ROW
  drop_parallel_rows(g, &ng);
  CERT_TRY(cert_products(g, &ng, 2, e));
  // The form is homogeneous quadratic in (v, tau): bases by weighted degree
  // with weights 1 (sos_set_weights) give the main Gram matrix the linear
  // monomials only and the products constant multipliers, the rows none
  // (a linear multiplier cannot help a quadratic form).
  static const int weights[CERT_PROGRAM_NVARS] = {1, 1, 1, 1, 1};
  CERT_TRY(sos_set_weights(prog, weights, e));
  CERT_TRY(cert_add_condition(prog, &x, ng, g, count, e));
  CERT_TRY(sos_set_weights(prog, NULL, e));
done:
  sos_expr_free(&x);
  cert_free_polys(z, 2);
  cert_free_polys(v, 3);
  cert_free_polys(post, 3);
  cert_free_polys(g, PIECE_MAX_G);
  poly_free(&t);
  return st;
}

zeno_status cert_piece_conditions(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const sos_expr *w, double c, int *count, zeno_error *e) {
  zeno_status st = ZENO_OK;
  // Over the mode's pieces (certify_piece.h): each impact that can end
  // one, and the slip stop.
  for (int q = 0; q < s->ncases; q++)
    if (cert_piece_case(m, &s->cases[q]))
      CERT_TRY(piece_condition(prog, s, m, &s->cases[q], w, c, count, e));
  // The slip stop: a piece mode's slip never decelerates, so that face
  // is only tau = 0 (empty) unless the slip's rate is constant.
  const int ci = m->mode.letter[0] == ZENO_LETTER_F ? 1 : 0;
  const unsigned char li = m->mode.letter[ci];
  const double asl = ci == 1 ? m->acc[2]
                             : s->slip1[0] * m->acc[0] + s->slip1[1] * m->acc[1] +
                                   s->slip1[2] * m->acc[2];
  if (li != ZENO_LETTER_S && (li == ZENO_LETTER_P ? asl : -asl) <= 0)
    CERT_TRY(piece_condition(prog, s, m, NULL, w, c, count, e));
done:
  return st;
}
