// The certificate's model solved exactly (certify_rat.h): the modes and the
// impact cases as square rational systems in the unknowns (a velocity
// change or acceleration in q' (3), the contact forces or impulses (4)).
#include "certify/certify_rat.h"

#include <string.h>

/// Unknowns of a contact system: qddot' or the velocity jump (3), f (4).
#define CERT_RAT_N 7

bool cert_rat_solve(int n, mpq_t M[][CERT_RAT_DIM], mpq_t *r) {
  mpq_t f, t;
  mpq_inits(f, t, NULL);
  bool ok = true;
  for (int col = 0; col < n && ok; col++) {
    int p = -1;
    for (int row = col; row < n; row++)
      if (mpq_sgn(M[row][col]) != 0) {
        p = row;
        break;
      }
    if (p < 0) {
      ok = false;
      break;
    }
    if (p != col) {
      for (int k = 0; k < n; k++) mpq_swap(M[p][k], M[col][k]);
      mpq_swap(r[p], r[col]);
    }
    for (int row = 0; row < n; row++) {
      if (row == col || mpq_sgn(M[row][col]) == 0) continue;
      mpq_div(f, M[row][col], M[col][col]);
      for (int k = col; k < n; k++) {
        mpq_mul(t, f, M[col][k]);
        mpq_sub(M[row][k], M[row][k], t);
      }
      mpq_mul(t, f, r[col]);
      mpq_sub(r[row], r[row], t);
    }
  }
  for (int row = 0; row < n && ok; row++) mpq_div(r[row], r[row], M[row][row]);
  mpq_clears(f, t, NULL);
  return ok;
}

// The contact system's matrix for the letters (docs/certificate.md):
// M' y - sum_a C_a f_a (rows 0-2) with C_a = Cp[.][a] (the contact
// directions in q', C_0, C_2, C_3 exact unit vectors), and per contact F:
// f_n = f_t = 0; S: C_n . y, C_t . y; P / N: C_n . y, f_t +- mu f_n (the
// friction opposes the slip of the letter's sign).
static void contact_matrix(const cert_system *s, const unsigned char letter[2],
                           mpq_t M[][CERT_RAT_DIM]) {
  for (int i = 0; i < 3; i++) {
    for (int k = 0; k < 3; k++) mpq_set_d(M[i][k], s->Mp[i][k]);
    for (int a = 0; a < 4; a++) mpq_set_d(M[i][3 + a], -s->km.Cp[i][a]);
  }
  for (int c = 0; c < 2; c++) {
    const int row = 3 + 2 * c, fn = 3 + 2 * c, ft = fn + 1;
    const unsigned char l = letter[c];
    if (l == ZENO_LETTER_F) {
      mpq_set_ui(M[row][fn], 1, 1);
      mpq_set_ui(M[row + 1][ft], 1, 1);
      continue;
    }
    for (int k = 0; k < 3; k++) mpq_set_d(M[row][k], s->km.Cp[k][2 * c]);
    if (l == ZENO_LETTER_S) {
      for (int k = 0; k < 3; k++) mpq_set_d(M[row + 1][k], s->km.Cp[k][2 * c + 1]);
    } else {
      mpq_set_ui(M[row + 1][ft], 1, 1);
      mpq_set_d(M[row + 1][fn], l == ZENO_LETTER_P ? s->d.mu[c] : -s->d.mu[c]);
    }
  }
}

typedef struct cert_rat_sys {
  mpq_t M[CERT_RAT_DIM][CERT_RAT_DIM], r[CERT_RAT_DIM];
} cert_rat_sys;

static void sys_init(cert_rat_sys *y) {
  for (int i = 0; i < CERT_RAT_N; i++) {
    mpq_init(y->r[i]);
    for (int k = 0; k < CERT_RAT_N; k++) mpq_init(y->M[i][k]);
  }
}

static void sys_clear(cert_rat_sys *y) {
  for (int i = 0; i < CERT_RAT_N; i++) {
    mpq_clear(y->r[i]);
    for (int k = 0; k < CERT_RAT_N; k++) mpq_clear(y->M[i][k]);
  }
}

// The mode's acceleration solved exactly from the model's data (doubles
// taken as exact): the contact system with the load -b on the right; the
// closed contacts' rows ask zero normal (S: and tangential) acceleration.
bool cert_rat_mode_acc(const cert_system *s, zeno_mode m, mpq_t acc[3]) {
  cert_rat_sys y;
  sys_init(&y);
  contact_matrix(s, m.letter, y.M);
  for (int i = 0; i < 3; i++) mpq_set_d(y.r[i], -s->b[i]);
  const bool ok = cert_rat_solve(CERT_RAT_N, y.M, y.r);
  for (int k = 0; k < 3; k++) mpq_set(acc[k], y.r[k]);
  sys_clear(&y);
  return ok;
}

void cert_rat_case_init(cert_rat_case *c) {
  memset(c, 0, sizeof *c);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) mpq_init(c->G[r][k]);
  for (int k = 0; k < CERT_MAX_CONDS; k++)
    for (int r = 0; r < 3; r++) mpq_init(c->cond[k][r]);
}

void cert_rat_case_clear(cert_rat_case *c) {
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) mpq_clear(c->G[r][k]);
  for (int k = 0; k < CERT_MAX_CONDS; k++)
    for (int r = 0; r < 3; r++) mpq_clear(c->cond[k][r]);
}

// cond[ncond++] = sign * row.
static void add_cond(cert_rat_case *c, mpq_t row[3], int sign) {
  if (c->ncond >= CERT_MAX_CONDS) return;
  for (int r = 0; r < 3; r++) {
    mpq_set(c->cond[c->ncond][r], row[r]);
    if (sign < 0) mpq_neg(c->cond[c->ncond][r], row[r]);
  }
  c->ncond++;
}

// out = C_a . v for the unit velocity e_r: Cp[r][a].
static void dir(const cert_system *s, int a, int r, mpq_t out) { mpq_set_d(out, s->km.Cp[r][a]); }

// Both contacts stick: the targets C_a . qdot+ = -e C_a . qdot- on the
// normals and 0 on the tangents are four equations on three unknowns: the
// first three independent ones fix qdot+, the fourth's residual must vanish
// (+-r >= 0), and both contacts approach or touch.
static bool double_stick(const cert_system *s, cert_rat_case *out) {
  static const int order[4][3] = {{0, 2, 3}, {0, 1, 2}, {0, 1, 3}, {1, 2, 3}};
  static const int skipped[4] = {1, 3, 2, 0};
  mpq_t M[CERT_RAT_DIM][CERT_RAT_DIM], r[CERT_RAT_DIM], t, mine[3], res[3];
  bool ok = false;
  mpq_inits(t, mine[0], mine[1], mine[2], res[0], res[1], res[2], NULL);
  for (int i = 0; i < 3; i++) {
    mpq_init(r[i]);
    for (int k = 0; k < 3; k++) mpq_init(M[i][k]);
  }
  for (int o = 0; o < 4 && !ok; o++) {
    bool singular = false;
    for (int col = 0; col < 3 && !singular; col++) {  // qdot+ for qdot- = e_col
      for (int i = 0; i < 3; i++) {
        const int a = order[o][i];
        for (int k = 0; k < 3; k++) dir(s, a, k, M[i][k]);
        dir(s, a, col, r[i]);  // target: -e C_a . e_col (normals), 0 (tangents)
        mpq_set_d(t, a % 2 == 0 ? -s->e : 0.0);
        mpq_mul(r[i], r[i], t);
      }
      singular = !cert_rat_solve(3, M, r);
      for (int k = 0; k < 3 && !singular; k++) mpq_set(out->G[k][col], r[k]);
      if (singular) break;
      // The fourth target's residual C_b . qdot+ - target_b.
      const int b = skipped[o];
      mpq_set_ui(res[col], 0, 1);
      for (int k = 0; k < 3; k++) {
        dir(s, b, k, t);
        mpq_mul(t, t, out->G[k][col]);
        mpq_add(res[col], res[col], t);
      }
      if (b % 2 == 0) {
        dir(s, b, col, t);
        mpq_set_d(mine[0], s->e);
        mpq_mul(t, t, mine[0]);
        mpq_add(res[col], res[col], t);
      }
    }
    ok = !singular;
  }
  if (ok) {
    out->ncond = 0;
    for (int i = 0; i < 2; i++) {
      for (int k = 0; k < 3; k++) mpq_set_si(mine[k], k == i ? -1 : 0, 1);
      add_cond(out, mine, 1);
    }
    if (mpq_sgn(res[0]) || mpq_sgn(res[1]) || mpq_sgn(res[2])) {
      add_cond(out, res, 1);
      add_cond(out, res, -1);
    }
  }
  for (int i = 0; i < 3; i++) {
    mpq_clear(r[i]);
    for (int k = 0; k < 3; k++) mpq_clear(M[i][k]);
  }
  mpq_clears(t, mine[0], mine[1], mine[2], res[0], res[1], res[2], NULL);
  return ok;
}

// sum_k a[k] b[k] over three entries.
static void dot3(mpq_t out, mpq_t a[3], mpq_t b[3]) {
  mpq_t t;
  mpq_init(t);
  mpq_set_ui(out, 0, 1);
  for (int k = 0; k < 3; k++) {
    mpq_mul(t, a[k], b[k]);
    mpq_add(out, out, t);
  }
  mpq_clear(t);
}

// A Chatterjee-Ruina case at contact i (certify_system.c's cr_case), exactly:
// y_n = M'^-1 C_n, y_t = M'^-1 C_t, the Delassus block Dnn = C_n . y_n,
// Dnt = C_t . y_n, Dtt = C_t . y_t; for qdot'- = e_col with v = (C_n, C_t) .
// e_col the sticking plastic impulse P_II = -D^-1 v, pn_I = -v_n / Dnn; the
// cone's P = (1 + e) P_I + (1 + et) (P_II - P_I), the edge's pn = -(1 + e)
// v_n / (Dnn + sig mu Dnt), pt = sig mu pn; qdot'+ = e_col + pn y_n + pt y_t.
static bool cr_exact(const cert_system *s, const cert_case *cs, cert_rat_case *out) {
  const int i = cs->contact, n = 2 * i, t = n + 1;
  const int sig = cs->kind == CERT_CR_CONE ? 0 : cs->letter[i] == ZENO_LETTER_P ? -1 : 1;
  mpq_t M[CERT_RAT_DIM][CERT_RAT_DIM], y[2][3], C[2][3], pnu[3], ptu[3], ptII[3], row[3];
  mpq_t Dnn, Dnt, Dtt, det, e1, et1, mu, vn, vt, pnI, pn, pt, w, edge;
  mpq_inits(Dnn, Dnt, Dtt, det, e1, et1, mu, vn, vt, pnI, pn, pt, w, edge, NULL);
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) mpq_init(M[r][k]);
    mpq_inits(y[0][r], y[1][r], C[0][r], C[1][r], pnu[r], ptu[r], ptII[r], row[r], NULL);
    mpq_set_d(C[0][r], s->km.Cp[r][n]);
    mpq_set_d(C[1][r], s->km.Cp[r][t]);
  }
  bool ok = true;
  for (int d = 0; d < 2 && ok; d++) {
    for (int r = 0; r < 3; r++) {
      for (int k = 0; k < 3; k++) mpq_set_d(M[r][k], s->Mp[r][k]);
      mpq_set(y[d][r], C[d][r]);
    }
    ok = cert_rat_solve(3, M, y[d]);
  }
  if (ok) {
    dot3(Dnn, C[0], y[0]);
    dot3(Dnt, C[1], y[0]);
    dot3(Dtt, C[1], y[1]);
    mpq_mul(det, Dnn, Dtt);
    mpq_mul(w, Dnt, Dnt);
    mpq_sub(det, det, w);
    mpq_set_d(mu, s->d.mu[i]);
    mpq_set_d(e1, s->e);
    mpq_set_d(et1, s->et);
    mpq_set_ui(w, 1, 1);
    mpq_add(e1, e1, w);
    mpq_add(et1, et1, w);
    mpq_mul(edge, mu, Dnt);
    if (sig < 0) mpq_neg(edge, edge);
    mpq_add(edge, edge, Dnn);
    ok = mpq_sgn(Dnn) > 0 && mpq_sgn(det) != 0 && (sig == 0 || mpq_sgn(edge) > 0);
  }
  for (int col = 0; col < 3 && ok; col++) {
    mpq_set(vn, C[0][col]);
    mpq_set(vt, C[1][col]);
    // P_II = -D^-1 v: pn_II = (Dnt vt - Dtt vn) / det, pt_II = (Dnt vn - Dnn vt) / det.
    mpq_mul(pn, Dnt, vt);
    mpq_mul(w, Dtt, vn);
    mpq_sub(pn, pn, w);
    mpq_div(pn, pn, det);
    mpq_mul(ptII[col], Dnt, vn);
    mpq_mul(w, Dnn, vt);
    mpq_sub(ptII[col], ptII[col], w);
    mpq_div(ptII[col], ptII[col], det);
    mpq_div(pnI, vn, Dnn);
    mpq_neg(pnI, pnI);
    mpq_sub(pnu[col], pn, pnI);  // (1 + e) pn_I + (1 + et) (pn_II - pn_I)
    mpq_mul(pnu[col], pnu[col], et1);
    mpq_mul(w, e1, pnI);
    mpq_add(pnu[col], pnu[col], w);
    mpq_mul(ptu[col], et1, ptII[col]);
    if (sig == 0) {
      mpq_set(pn, pnu[col]);
      mpq_set(pt, ptu[col]);
    } else {
      mpq_mul(pn, e1, vn);
      mpq_neg(pn, pn);
      mpq_div(pn, pn, edge);
      mpq_mul(pt, mu, pn);
      if (sig < 0) mpq_neg(pt, pt);
    }
    for (int k = 0; k < 3; k++) {
      mpq_set_ui(out->G[k][col], k == col ? 1 : 0, 1);
      mpq_mul(w, pn, y[0][k]);
      mpq_add(out->G[k][col], out->G[k][col], w);
      mpq_mul(w, pt, y[1][k]);
      mpq_add(out->G[k][col], out->G[k][col], w);
    }
  }
  out->ncond = 0;
  if (ok) {  // as cr_case: u_i <= 0, then the cone's or the edge's rows
    for (int r = 0; r < 3; r++) mpq_set_si(row[r], r == i ? -1 : 0, 1);
    add_cond(out, row, 1);
    for (int sg = -1; sg <= 1; sg += 2) {  // mu pn -+ pt
      if (sig != 0 && sg != -sig) continue;
      for (int r = 0; r < 3; r++) {
        mpq_mul(row[r], mu, pnu[r]);
        if (sg < 0) mpq_sub(row[r], row[r], ptu[r]);
        else mpq_add(row[r], row[r], ptu[r]);
      }
      if (sig != 0) add_cond(out, ptII, sig);
      add_cond(out, row, sig == 0 ? 1 : -1);
    }
  }
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 3; k++) mpq_clear(M[r][k]);
    mpq_clears(y[0][r], y[1][r], C[0][r], C[1][r], pnu[r], ptu[r], ptII[r], row[r], NULL);
  }
  mpq_clears(Dnn, Dnt, Dtt, det, e1, et1, mu, vn, vt, pnI, pn, pt, w, edge, NULL);
  return ok;
}

bool cert_rat_case_exact(const cert_system *s, const cert_case *cs, cert_rat_case *out) {
  if (cs->kind != CERT_COMPLEMENTARITY) return cr_exact(s, cs, out);
  if (cs->both && cs->letter[0] == ZENO_LETTER_S && cs->letter[1] == ZENO_LETTER_S)
    return double_stick(s, out);
  // Column col: the jump dv and impulse x for qdot- = e_col, from the
  // contact system with the targets on the right: C_n . dv = -(1 + e)
  // C_n . e_col (S, P, N), C_t . dv = -C_t . e_col (S).
  mpq_t x[4][3], slip[2][3], t, u, e1;
  mpq_inits(t, u, e1, NULL);
  for (int a = 0; a < 4; a++)
    for (int r = 0; r < 3; r++) mpq_init(x[a][r]);
  for (int i = 0; i < 2; i++)
    for (int r = 0; r < 3; r++) mpq_init(slip[i][r]);
  mpq_set_d(e1, s->e);
  mpq_set_ui(t, 1, 1);
  mpq_add(e1, e1, t);
  bool ok = true;
  for (int col = 0; col < 3 && ok; col++) {
    cert_rat_sys y;
    sys_init(&y);
    contact_matrix(s, cs->letter, y.M);
    for (int c = 0; c < 2; c++) {
      const unsigned char l = cs->letter[c];
      if (l == ZENO_LETTER_F) continue;
      dir(s, 2 * c, col, y.r[3 + 2 * c]);
      mpq_mul(y.r[3 + 2 * c], y.r[3 + 2 * c], e1);
      mpq_neg(y.r[3 + 2 * c], y.r[3 + 2 * c]);
      if (l == ZENO_LETTER_S) {
        dir(s, 2 * c + 1, col, y.r[4 + 2 * c]);
        mpq_neg(y.r[4 + 2 * c], y.r[4 + 2 * c]);
      }
    }
    ok = cert_rat_solve(CERT_RAT_N, y.M, y.r);
    for (int k = 0; k < 3 && ok; k++) {
      mpq_set(out->G[k][col], y.r[k]);
      if (k == col) mpq_add(out->G[k][col], out->G[k][col], t);  // + e_col
    }
    for (int a = 0; a < 4 && ok; a++) mpq_set(x[a][col], y.r[3 + a]);
    for (int c = 0; c < 2 && ok; c++) {  // post-impact slip C_t . qdot+
      mpq_set_ui(slip[c][col], 0, 1);
      for (int k = 0; k < 3; k++) {
        dir(s, 2 * c + 1, k, u);
        mpq_mul(u, u, out->G[k][col]);
        mpq_add(slip[c][col], slip[c][col], u);
      }
    }
    sys_clear(&y);
  }
  out->ncond = 0;
  for (int c = 0; c < 2 && ok; c++) {  // as certify_system.c's letter_case
    const unsigned char l = cs->letter[c];
    if (l == ZENO_LETTER_F) continue;
    mpq_t row[3], mu;
    mpq_inits(row[0], row[1], row[2], mu, NULL);
    mpq_set_si(row[c], -1, 1);
    add_cond(out, row, 1);       // approaching or closed: u_c <= 0
    add_cond(out, x[2 * c], 1);  // a pushing normal impulse
    if (l == ZENO_LETTER_S) {    // inside the cone: mu xn -+ xt >= 0
      mpq_set_d(mu, s->d.mu[c]);
      for (int sg = -1; sg <= 1; sg += 2) {
        for (int r = 0; r < 3; r++) {
          mpq_mul(row[r], mu, x[2 * c][r]);
          if (sg < 0) mpq_sub(row[r], row[r], x[2 * c + 1][r]);
          else mpq_add(row[r], row[r], x[2 * c + 1][r]);
        }
        add_cond(out, row, 1);
      }
    } else {  // the post-impact slip has the letter's sign
      add_cond(out, slip[c], l == ZENO_LETTER_P ? 1 : -1);
    }
    mpq_clears(row[0], row[1], row[2], mu, NULL);
  }
  for (int a = 0; a < 4; a++)
    for (int r = 0; r < 3; r++) mpq_clear(x[a][r]);
  for (int i = 0; i < 2; i++)
    for (int r = 0; r < 3; r++) mpq_clear(slip[i][r]);
  mpq_clears(t, u, e1, NULL);
  return ok;
}
