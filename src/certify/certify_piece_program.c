// The pieces' and chains' conditions of the sums-of-squares program
// (certify_piece.h, docs/certificate.md).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_piece_internal.h"

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
void piece_drop_parallel_rows(ze_poly *g, int *ng) {
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

// The end of a piece's condition on its rows g[0..*ng-1]: the zero and
// parallel rows dropped, their pairwise products added (and `extra` after
// them when given: a chain's start gap, whose multiplier is lambda), then
// x >= 0 asked. The form is homogeneous quadratic in (v, tau): bases by
// weighted degree with weights 1 (sos_set_weights) give the main Gram
// matrix the linear monomials only and the products constant multipliers,
// the rows none (a linear multiplier cannot help a quadratic form).
static zeno_status add_quadratic_condition(sos_program *prog, const sos_expr *x, ze_poly *g,
                                           int *ng, const ze_poly *extra, int *count,
                                           zeno_error *e) {
  static const int weights[CERT_PROGRAM_NVARS] = {1, 1, 1, 1, 1};
  zeno_status st;
  piece_drop_parallel_rows(g, ng);
  CERT_TRY(cert_products(g, ng, 2, e));
  if (extra != NULL) CERT_TRY(poly_copy(&g[(*ng)++], extra, e));
  CERT_TRY(sos_set_weights(prog, weights, e));
  CERT_TRY(cert_add_condition(prog, x, *ng, g, count, e));
  CERT_TRY(sos_set_weights(prog, NULL, e));
done:
  return st;
}

// Adds condition x >= 0 on face f's cone in generator coordinates where
// face_cone gives them (*done true): y = sum_g lambda_g gen_g with lambda
// >= 0 (x's variable vmap[k] is y's coordinate k), the lambdas' pairwise
// products as constant multipliers (for at most 4 rays, a copositive form
// is such a sum: Diananda), and a structural zero's lambda_g^2 term
// (rounding: it is 0 exactly) dropped so that the main basis leaves
// lambda_g out and its cross terms have the multipliers' room. *done
// false: the caller takes the rows.
zeno_status piece_generator_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                      const piece_face *f, double c, const sos_expr *x,
                                      const int *vmap, const ze_poly *extra, int *extra_at,
                                      bool *done, int *count, zeno_error *e) {
  double gen[CERT_PROGRAM_NVARS][4];
  bool zero[CERT_PROGRAM_NVARS][CERT_PROGRAM_NVARS];
  int ngen = 0;
  *done = piece_face_cone(s, m, f, c, gen, zero, &ngen);
  if (!*done) return ZENO_OK;
  return cert_generator_condition(prog, x, piece_face_dim(f), vmap, gen, zero, ngen, ngen, extra,
                                  extra_at, count, e);
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
  {  // in generator coordinates where the cone allows (face_cone)
    const piece_face f = {cs, false, NULL, NULL};
    const int vmap[4] = {off, off + 1, off + 2, tau};
    bool gens = false;
    CERT_TRY(piece_generator_condition(prog, s, m, &f, c, &x, vmap, NULL, NULL, &gens, count, e));
    if (gens) goto done;
  }
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
  CERT_TRY(add_quadratic_condition(prog, &x, g, &ng, NULL, count, e));
done:
  sos_expr_free(&x);
  cert_free_polys(z, 2);
  cert_free_polys(v, 3);
  cert_free_polys(post, 3);
  cert_free_polys(g, PIECE_MAX_G);
  poly_free(&t);
  return st;
}

/// A chain's multiplier's place: its condition times this plus its index
/// among the condition's multipliers (fewer than this).
#define PIECE_LREF_STRIDE 1024

// The place of multiplier `at` of the program's last condition.
static int lambda_ref(const sos_program *prog, int at) {
  return (prog->ncons - 1) * PIECE_LREF_STRIDE + at;
}

double cert_piece_lambda(const sos_solution *sol, int ref) {
  const int c = ref / PIECE_LREF_STRIDE, i = ref % PIECE_LREF_STRIDE;
  int g = 0;
  for (int k = 0; k < c && k < sol->ncons; k++) g += sol->ngrams[k];
  if (c >= sol->ncons || i + 1 >= sol->ngrams[c] || sol->gram[g + 1 + i].n != 1) return NAN;
  return sol->gram[g + 1 + i].q[0];  // a constant multiplier: its 1 x 1 Gram matrix
}

// A chain of mode m (cert_piece_stop_mode): its slip from a state s for
// tau1 until it stops, the sticking mode st for tau2 until the impact of
// case cs at the free contact j. V2(s) - V2(G e2) - lambda z_j(s) >= 0 on
// tau1, tau2 >= 0, the case's conditions, the sticking piece's start gap
// and touching, with lambda >= 0 the constant multiplier of the start gap
// (its place in *lref, cert_piece_lambda): the S-procedure of
// the quadratic z_j(s) >= 0 (chain_verify). Variables (tau1, u1, u2, w2,
// tau2); the velocity at e2 is u_j d + tau2 e, at the stop (u_j - a2_j
// tau2) d (chain_verify).
zeno_status piece_chain_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const cert_mode *st_mode, const cert_case *cs, const sos_expr *w,
                                  double c, int *lref, int *count, zeno_error *e) {
  const int nv = CERT_PROGRAM_NVARS, T1 = 0, T2 = nv - 1;
  const int i = closed_contact(m), j = 1 - i;
  const double *a1 = m->acc, *a2 = st_mode->acc;
  double d[3] = {0, 0, 0}, ev[3];
  d[j] = 1;
  if (i == 0) d[2] = -s->slip1[1] / s->slip1[2];
  for (int k = 0; k < 3; k++) ev[k] = a2[k] - a2[j] * d[k];
  ze_poly z[2], v2[3], v1[3], post[3], gb[2], ga[2], g[PIECE_MAX_G + 1], t1, t2, gap;
  memset(z, 0, sizeof z);
  memset(v2, 0, sizeof v2);
  memset(v1, 0, sizeof v1);
  memset(post, 0, sizeof post);
  memset(gb, 0, sizeof gb);
  memset(ga, 0, sizeof ga);
  memset(g, 0, sizeof g);
  memset(&t1, 0, sizeof t1);
  memset(&t2, 0, sizeof t2);
  memset(&gap, 0, sizeof gap);
  sos_expr xa, xb;
  memset(&xb, 0, sizeof xb);
  zeno_status st = sos_expr_init(&xa, nv, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(sos_expr_init(&xb, nv, e));
  int ng = 0;
  double coef[CERT_PROGRAM_NVARS];
  CERT_TRY(poly_var(&t1, nv, T1, e));
  CERT_TRY(poly_var(&t2, nv, T2, e));
  for (int k = 0; k < 2; k++) {
    CERT_TRY(poly_init(&z[k], nv, e));
    CERT_TRY(poly_init(&gb[k], nv, e));
    CERT_TRY(poly_init(&ga[k], nv, e));
  }
  // A row over v2 as a linear polynomial in (u_j, tau2).
#define CHAIN_ROW(row)                  \
  do {                                  \
    memset(coef, 0, sizeof coef);       \
    for (int r_ = 0; r_ < 3; r_++) {    \
      coef[1 + j] += (row)[r_] * d[r_]; \
      coef[T2] += (row)[r_] * ev[r_];   \
    }                                   \
  } while (0)
  for (int k = 0; k < 3; k++) {
    CHAIN_ROW(((double[3]){k == 0, k == 1, k == 2}));
    CERT_TRY(cert_linear(&v2[k], nv, coef, e));
    coef[T2] = -a2[j] * d[k];
    CERT_TRY(cert_linear(&v1[k], nv, coef, e));
    CHAIN_ROW(cs->post[k]);
    CERT_TRY(cert_linear(&post[k], nv, coef, e));
  }
  // V2(e1) - V2(G e2) over the sticking piece, V2(s) - V2(e1) over the
  // slip (the gaps cancel: V2 is linear in them), and their gap changes.
  CERT_TRY(cert_jump_expr(&xb, w, c, z, v2, post, &t2, a2, gb, e));
  CERT_TRY(cert_jump_expr(&xa, w, c, z, v1, v1, &t1, a1, ga, e));
  CERT_TRY(sos_expr_axpy(&xa, 1.0, &xb, e));
  CERT_TRY(poly_copy(&gap, &gb[j], e));
  CERT_TRY(poly_axpy(&gap, 1.0, &ga[j], e));  // z_j(s)
  {  // in generator coordinates where the cone allows (face_cone)
    const piece_face f = {cs, true, NULL, NULL};
    const int vmap[3] = {1 + j, T1, T2};
    bool gens = false;
    int at = -1;
    CERT_TRY(piece_generator_condition(prog, s, m, &f, c, &xa, vmap, &gap, &at, &gens, count, e));
    *lref = lambda_ref(prog, at);
    if (gens) goto done;
  }
  // Domain.
  CERT_TRY(poly_copy(&g[ng++], &t1, e));
  CERT_TRY(poly_copy(&g[ng++], &t2, e));
  for (int k = 0; k < cs->ncond; k++) {
    CHAIN_ROW(cs->cond[k]);
    if (coef[1 + j] != 0 || coef[T2] != 0) CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
  memset(coef, 0, sizeof coef);
  coef[1 + j] = -1;
  coef[T2] = 0.5 * a2[j];  // the sticking piece's start gap over tau2
  CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  if (!cs->both && cs->letter[i] == ZENO_LETTER_F) {  // touching: post u_i >= 0
    CHAIN_ROW(cs->post[i]);
    CERT_TRY(cert_linear(&g[ng++], nv, coef, e));
  }
#undef CHAIN_ROW
  // The start gap last, its multiplier lambda.
  CERT_TRY(add_quadratic_condition(prog, &xa, g, &ng, &gap, count, e));
  *lref = lambda_ref(prog, ng - 1);
done:
  sos_expr_free(&xa);
  sos_expr_free(&xb);
  cert_free_polys(z, 2);
  cert_free_polys(v2, 3);
  cert_free_polys(v1, 3);
  cert_free_polys(post, 3);
  cert_free_polys(gb, 2);
  cert_free_polys(ga, 2);
  cert_free_polys(g, PIECE_MAX_G + 1);
  poly_free(&t1);
  poly_free(&t2);
  poly_free(&gap);
  return st;
}

// A chain through an impact (certify_chain_impact.c): V2(s) - V2(end) >= 0
// on its cone in y = (u_j, w2, tau1) at the program's (u_j, w2, tau).
// p = sum_k row[k] y_k over the program's variables (y_k at vmap[k]).
static zeno_status linear_in_y(ze_poly *p, const double row[3], const int vmap[3], zeno_error *e) {
  double coef[CERT_PROGRAM_NVARS] = {0};
  for (int k = 0; k < 3; k++) coef[vmap[k]] = row[k];
  return cert_linear(p, CERT_PROGRAM_NVARS, coef, e);
}

zeno_status piece_through_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                    const piece_face *f, const sos_expr *w, double c, int *count,
                                    zeno_error *e) {
  const int nv = CERT_PROGRAM_NVARS, i = closed_contact(m), j = 1 - i;
  const int vmap[3] = {1 + j, 3, nv - 1};  // y = (u_j, w2, tau1): the program's u_j, w2, tau
  const cert_case *cs = f->cs, *end = f->end;
  const double *am = m->acc, *an = f->next->acc;
  double ve[3][3] = {{0}}, p1[3][3] = {{0}}, tn[3] = {0}, vn[3][3], p2[3][3];
  ve[j][0] = 1;
  ve[2][1] = 1;
  for (int q = 0; q < 3; q++)
    for (int k = 0; k < 3; k++)
      for (int p = 0; p < 3; p++) p1[q][k] += cs->post[q][p] * ve[p][k];
  double sl[3] = {0, 0, 1};
  if (j == 0)
    for (int k = 0; k < 3; k++) sl[k] = s->slip1[k];
  const double asl = sl[0] * an[0] + sl[1] * an[1] + sl[2] * an[2];
  for (int k = 0; k < 3; k++) {
    if (end) tn[k] = -2 * p1[i][k] / an[i];
    else tn[k] = -(sl[0] * p1[0][k] + sl[1] * p1[1][k] + sl[2] * p1[2][k]) / asl;
  }
  for (int q = 0; q < 3; q++)
    for (int k = 0; k < 3; k++) vn[q][k] = p1[q][k] + an[q] * tn[k];
  for (int q = 0; q < 3; q++)
    for (int k = 0; k < 3; k++) {
      p2[q][k] = end ? 0.0 : vn[q][k];
      for (int p = 0; end && p < 3; p++) p2[q][k] += end->post[q][p] * vn[p][k];
    }
  ze_poly z0[2], zn[2], v[3], post[3], v2[3], post2[3], t1, t2, sq, g[PIECE_MAX_G];
  memset(z0, 0, sizeof z0);
  memset(zn, 0, sizeof zn);
  memset(v, 0, sizeof v);
  memset(post, 0, sizeof post);
  memset(v2, 0, sizeof v2);
  memset(post2, 0, sizeof post2);
  memset(&t1, 0, sizeof t1);
  memset(&t2, 0, sizeof t2);
  memset(&sq, 0, sizeof sq);
  memset(g, 0, sizeof g);
  mpq_t xv[PIECE_NX], Q3[9], L3[PIECE_THROUGH_ROWS * 3];
  for (int q = 0; q < PIECE_NX; q++) mpq_init(xv[q]);
  for (int q = 0; q < 9; q++) mpq_init(Q3[q]);
  for (int q = 0; q < PIECE_THROUGH_ROWS * 3; q++) mpq_init(L3[q]);
  sos_expr x, xb;
  memset(&xb, 0, sizeof xb);
  zeno_status st = sos_expr_init(&x, nv, e);
  if (st != ZENO_OK) goto done;
  CERT_TRY(sos_expr_init(&xb, nv, e));
  CERT_TRY(poly_var(&t1, nv, nv - 1, e));
  CERT_TRY(linear_in_y(&t2, tn, vmap, e));
  CERT_TRY(poly_init(&sq, nv, e));
  CERT_TRY(poly_mul(&sq, &t2, &t2, e));
  for (int k = 0; k < 3; k++) {
    CERT_TRY(linear_in_y(&v[k], ve[k], vmap, e));
    CERT_TRY(linear_in_y(&post[k], p1[k], vmap, e));
    CERT_TRY(linear_in_y(&v2[k], vn[k], vmap, e));
    CERT_TRY(linear_in_y(&post2[k], p2[k], vmap, e));
  }
  for (int k = 0; k < 2; k++) {
    CERT_TRY(poly_init(&z0[k], nv, e));
    CERT_TRY(poly_init(&zn[k], nv, e));
  }
  if (!end) {  // the stop's free gap u_i+ tau_s + a_n,i tau_s^2 / 2 (n's start at z_i = 0)
    CERT_TRY(poly_mul(&zn[i], &post[i], &t2, e));
    CERT_TRY(poly_axpy(&zn[i], 0.5 * an[i], &sq, e));
  }
  // V2(s) - V2(G1 e) over m's piece and V2(G1 e) - V2(n's end) over n's.
  CERT_TRY(cert_jump_expr(&x, w, c, z0, v, post, &t1, am, NULL, e));
  CERT_TRY(cert_jump_expr(&xb, w, c, zn, v2, post2, &t2, an, NULL, e));
  CERT_TRY(sos_expr_axpy(&x, 1.0, &xb, e));
  bool gens = false;
  CERT_TRY(piece_generator_condition(prog, s, m, f, c, &x, vmap, NULL, NULL, &gens, count, e));
  if (gens) goto done;
  // The cone's exact rows, rounded (a larger or smaller domain only
  // changes what CSDP is asked; the exact check decides on the exact cone).
  int nr = 0, ng = 0;
  if (!piece_through_form(s, m, f, xv, 0.0, Q3, L3, &nr)) {
    st = zeno_fail(e, ZENO_ERR_SINGULAR, "", "a chain through an impact's exact solve is singular");
    goto done;
  }
  for (int q = 0; q < nr && ng < PIECE_MAX_LIN; q++) {
    const double row[3] = {mpq_get_d(L3[q * 3]), mpq_get_d(L3[q * 3 + 1]),
                           mpq_get_d(L3[q * 3 + 2])};
    CERT_TRY(linear_in_y(&g[ng++], row, vmap, e));
  }
  CERT_TRY(add_quadratic_condition(prog, &x, g, &ng, NULL, count, e));
done:
  sos_expr_free(&x);
  sos_expr_free(&xb);
  cert_free_polys(z0, 2);
  cert_free_polys(zn, 2);
  cert_free_polys(v, 3);
  cert_free_polys(post, 3);
  cert_free_polys(v2, 3);
  cert_free_polys(post2, 3);
  cert_free_polys(g, PIECE_MAX_G);
  poly_free(&t1);
  poly_free(&t2);
  poly_free(&sq);
  for (int q = 0; q < PIECE_NX; q++) mpq_clear(xv[q]);
  for (int q = 0; q < 9; q++) mpq_clear(Q3[q]);
  for (int q = 0; q < PIECE_THROUGH_ROWS * 3; q++) mpq_clear(L3[q]);
  return st;
}

zeno_status cert_piece_conditions(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const sos_expr *w, double c, int *lref, int *nl, int *count,
                                  zeno_error *e) {
  zeno_status st = ZENO_OK;
  // Over the mode's pieces (certify_piece.h): each impact that can end
  // one, and the slip stop or the chains through the sticking mode.
  piece_face f[PIECE_MAX_FACES];
  const int nf = piece_faces(s, m, f);
  for (int k = 0; k < nf; k++) {
    if (f[k].next) {  // through the impact into the next mode (certify_chain_impact.c)
      CERT_TRY(piece_through_condition(prog, s, m, &f[k], w, c, count, e));
      continue;
    }
    if (f[k].chain) {
      if (*nl >= CERT_PIECE_MAX_CHAINS)
        return zeno_fail(e, ZENO_ERR_RANGE, "", "more than %d chains", CERT_PIECE_MAX_CHAINS);
      CERT_TRY(piece_chain_condition(prog, s, m, cert_piece_stop_mode(s, m), f[k].cs, w, c,
                                     &lref[*nl], count, e));
      (*nl)++;
      continue;
    }
    // The slip stop of a slip that never decelerates is only tau = 0
    // (empty) unless the slip's rate is constant.
    if (!f[k].cs) {
      const int ci = closed_contact(m);
      const double asl = ci == 1 ? m->acc[2]
                                 : s->slip1[0] * m->acc[0] + s->slip1[1] * m->acc[1] +
                                       s->slip1[2] * m->acc[2];
      if ((m->mode.letter[ci] == ZENO_LETTER_P ? asl : -asl) > 0) continue;
    }
    CERT_TRY(piece_condition(prog, s, m, f[k].cs, w, c, count, e));
  }
done:
  return st;
}
