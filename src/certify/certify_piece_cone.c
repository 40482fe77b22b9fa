// The pieces' faces in generator coordinates (certify_piece_internal.h,
// docs/certificate.md): a face's cone by its extreme rays, counted once per
// system (an empty cone drops its face) and, where it has at most
// CERT_PROGRAM_NVARS rays and no lineality, the rays and the form's
// structural zeros for the program.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "certify/certify_conditions.h"
#include "certify/certify_flight.h"
#include "certify/certify_piece_internal.h"

static int count_generators(const cert_system *s, const cert_mode *m, const piece_face *f) {
  mpq_t xv[PIECE_NX], Q[16], L[PIECE_L_ROOM], a[3], *G;
  int ngen = -1, nr = 0, nlin = 0, nrays = 0, dim = piece_face_dim(f);
  G = malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *G);
  if (!G) return -1;
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(G[q]);
  for (int q = 0; q < PIECE_NX; q++) mpq_init(xv[q]);
  for (int q = 0; q < 16; q++) mpq_init(Q[q]);
  for (int q = 0; q < PIECE_L_ROOM; q++) mpq_init(L[q]);
  mpq_inits(a[0], a[1], a[2], NULL);
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  bool ok = false;
  if (f->next) {
    ok = piece_through_form(s, m, f, xv, 0.0, Q, L, &nr);
  } else if (f->chain) {
    ok = piece_chain_verify(s, m, cert_piece_stop_mode(s, m), f->cs, 0.0, xv, 0.0, L, &nr, NULL) !=
         COPOSITIVE_TOO_LARGE;
  } else if (piece_mode_acc(s, m, a) && piece_face_map(s, f->cs, &x1)) {
    piece_face_form(s, m, a, f->cs, &x1, xv, 0.0, Q, L, &nr);
    ok = true;
  }
  if (ok && nr <= COPOSITIVE_MAX_ROWS && copositive_cone_generators(dim, nr, L, G, &nlin, &nrays))
    ngen = nlin + nrays;
  cert_rat_case_clear(&x1);
  mpq_clears(a[0], a[1], a[2], NULL);
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(G[q]);
  for (int q = 0; q < PIECE_NX; q++) mpq_clear(xv[q]);
  for (int q = 0; q < 16; q++) mpq_clear(Q[q]);
  for (int q = 0; q < PIECE_L_ROOM; q++) mpq_clear(L[q]);
  free(G);
  return ngen;
}

static bool build_face_cone(const cert_system *s, const cert_mode *m, const piece_face *f,
                            double gen[][4], bool zero[][CERT_PROGRAM_NVARS], int *ngen,
                            int *count) {
  const double c = 1.0;
  const int dim = piece_face_dim(f), nu = PIECE_NX + 2;  // Q at 0, e_u, and lambda 1
  mpq_t xv[PIECE_NX], Q[PIECE_NX + 2][16], L[PIECE_L_ROOM], a[3], *G, t, v;
  G = malloc(COPOSITIVE_MAX_GEN * 4 * sizeof *G);
  if (!G) return false;
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_init(G[q]);
  for (int q = 0; q < PIECE_NX; q++) mpq_init(xv[q]);
  for (int u = 0; u < nu; u++)
    for (int q = 0; q < 16; q++) mpq_init(Q[u][q]);
  for (int q = 0; q < PIECE_L_ROOM; q++) mpq_init(L[q]);
  mpq_inits(a[0], a[1], a[2], t, v, NULL);
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  const cert_mode *st = f->chain ? cert_piece_stop_mode(s, m) : NULL;
  bool ok = f->chain || f->next || (piece_mode_acc(s, m, a) && piece_face_map(s, f->cs, &x1));
  int nr = 0, nlin = 0, nrays = 0;
  *count = -1;
  *ngen = 0;
  // The cone first (its rows do not depend on the unknowns), the forms
  // only where it is used in generator coordinates.
  for (int u = 0; u < nu && ok; u++) {
    for (int q = 0; q < PIECE_NX; q++) mpq_set_ui(xv[q], q == u - 1 ? 1 : 0, 1);
    const double cu = u == 0 ? c : 0.0;  // Q_0: c's part; Q_u: e_u's alone
    if (f->next) ok = piece_through_form(s, m, f, xv, cu, Q[u], L, &nr);
    else if (f->chain)
      ok = piece_chain_verify(s, m, st, f->cs, u == nu - 1 ? 1.0 : 0.0, xv, cu, L, &nr, Q[u]) !=
           COPOSITIVE_TOO_LARGE;
    else piece_face_form(s, m, a, f->cs, &x1, xv, cu, Q[u], L, &nr);
    if (ok && u == 0) {
      if (nr <= COPOSITIVE_MAX_ROWS && copositive_cone_generators(dim, nr, L, G, &nlin, &nrays))
        *count = nlin + nrays;
      ok = *count > 0 && nlin == 0 && nrays <= CERT_PROGRAM_NVARS;
    }
  }
  for (int g = 0; ok && g < nrays; g++) {
    double big = 0;
    for (int k = 0; k < dim; k++) big = fmax(big, fabs(mpq_get_d(G[g * dim + k])));
    for (int k = 0; k < 4; k++) gen[g][k] = k < dim ? mpq_get_d(G[g * dim + k]) / big : 0.0;
  }
  for (int g = 0; ok && g < nrays; g++)
    for (int h = g; h < nrays; h++) {
      bool z = true;
      for (int u = 0; u < nu && z; u++) {  // g^T Q_u h
        mpq_set_ui(v, 0, 1);
        for (int r = 0; r < dim; r++)
          for (int k = 0; k < dim; k++) {
            mpq_mul(t, G[g * dim + r], Q[u][r * dim + k]);
            mpq_mul(t, t, G[h * dim + k]);
            mpq_add(v, v, t);
          }
        z = mpq_sgn(v) == 0;
      }
      zero[g][h] = zero[h][g] = z;
    }
  if (ok) *ngen = nrays;
  cert_rat_case_clear(&x1);
  mpq_clears(a[0], a[1], a[2], t, v, NULL);
  for (int q = 0; q < COPOSITIVE_MAX_GEN * 4; q++) mpq_clear(G[q]);
  for (int q = 0; q < PIECE_NX; q++) mpq_clear(xv[q]);
  for (int u = 0; u < nu; u++)
    for (int q = 0; q < 16; q++) mpq_clear(Q[u][q]);
  for (int q = 0; q < PIECE_L_ROOM; q++) mpq_clear(L[q]);
  free(G);
  return ok;
}

// The memo of face f's cone (face_cone, face_generators) in s's cache, or
// NULL (no cache, or the slip stop).
static struct face_cone_memo *cone_memo(const cert_system *s, const cert_mode *m,
                                        const piece_face *f) {
  const int k = s->cache ? index_in(m, s->modes, sizeof *m, s->nmodes) : -1;
  const int q = f->cs ? index_in(f->cs, s->cases, sizeof *f->cs, s->ncases) : -1;
  if (k < 0 || q < 0 || f->next) return NULL;  // a chain through an impact: not kept
  struct face_cone_memo *o = &s->cache->cone[k][q][f->chain];
  if (!o->state) o->state = build_face_cone(s, m, f, o->gen, o->zero, &o->ngen, &o->count) ? 1 : -1;
  return o;
}

int piece_face_generators(const cert_system *s, const cert_mode *m, const piece_face *f) {
  const struct face_cone_memo *o = cone_memo(s, m, f);
  return o ? o->count : count_generators(s, m, f);
}

bool piece_face_cone(const cert_system *s, const cert_mode *m, const piece_face *f, double c,
                     double gen[][4], bool zero[][CERT_PROGRAM_NVARS], int *ngen) {
  (void)c;  // the structural zeros are those of c's form at c = 1 (c is +-1)
  int count = 0;
  const struct face_cone_memo *o = cone_memo(s, m, f);
  if (!o) return build_face_cone(s, m, f, gen, zero, ngen, &count);
  memcpy(gen, o->gen, sizeof o->gen);
  memcpy(zero, o->zero, sizeof o->zero);
  *ngen = o->ngen;
  return o->state > 0;
}

// Every face of mode m (piece_faces() without the empty ones).
static int all_faces(const cert_system *s, const cert_mode *m, piece_face *f) {
  int n = 0;
  for (int k = 0; k < s->ncases; k++) {
    const cert_case *cs = &s->cases[k];
    if (!cert_piece_case(m, cs)) continue;
    // Through the impact (certify_chain_impact.c): the next mode's piece
    // ends at one of its impacts or where its slip stops.
    const cert_mode *next = cert_piece_through_mode(s, m, cs);
    if (!next) {
      f[n++] = (piece_face){cs, false, NULL, NULL};
      continue;
    }
    for (int q = 0; q < s->ncases; q++)
      if (cert_piece_case(next, &s->cases[q])) f[n++] = (piece_face){cs, false, next, &s->cases[q]};
    f[n++] = (piece_face){cs, false, next, NULL};
  }
  if (m->mode.letter[closed_contact(m)] == ZENO_LETTER_S) return n;
  const cert_mode *st = cert_piece_stop_mode(s, m);
  if (!st) {
    f[n++] = (piece_face){NULL, false, NULL, NULL};
    return n;
  }
  for (int k = 0; k < s->ncases; k++)
    if (cert_piece_case(st, &s->cases[k])) f[n++] = (piece_face){&s->cases[k], true, NULL, NULL};
  return n;
}

int piece_faces(const cert_system *s, const cert_mode *m, piece_face *f) {
  int n = all_faces(s, m, f), kept = 0;
  // A face whose cone is {0} holds no piece's end (its condition is
  // 0 >= 0): dropped, from the program and the exact check alike.
  for (int k = 0; k < n; k++)
    if (piece_face_generators(s, m, &f[k]) != 0) f[kept++] = f[k];
  return kept;
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
    if (!piece_mode_acc(p->s, p->mode[k], p->a) || !piece_face_map(p->s, p->face[k], &p->x1))
      return false;  // cert_piece_verify reports it
    p->solved = k;
  }
  piece_face_form(p->s, p->mode[k], p->a, p->face[k], &p->x1, xv, p->c, Q, L, m);
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
    piece_face f[PIECE_MAX_FACES];
    const int nf = piece_faces(s, m, f);
    for (int fc = 0; fc < nf; fc++) {
      if (f[fc].chain || f[fc].next) continue;  // pointed cones in 3 variables: no lineality
      p->mode[p->n] = m;
      p->face[p->n++] = f[fc].cs;
    }
  }
  mpq_inits(p->a[0], p->a[1], p->a[2], NULL);
  cert_rat_case_init(&p->x1);
  const int n = cert_form_equalities(piece_item, p, p->n, true, rows, max);
  cert_rat_case_clear(&p->x1);
  mpq_clears(p->a[0], p->a[1], p->a[2], NULL);
  free(p);
  return n;
}

bool cert_piece_verify(const cert_system *s, double c, mpq_t *x, const double *lambda, char *text,
                       size_t size) {
  mpq_t a[3], Q[16], L[PIECE_ROWS * 4];
  mpq_inits(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_init(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_init(L[q]);
  bool ok = true;
  int nl = 0;  // the chains met, in cert_piece_conditions' order
  cert_rat_case x1;
  cert_rat_case_init(&x1);
  for (int md = 0; md < s->nmodes && ok; md++) {
    const cert_mode *m = &s->modes[md];
    if (!cert_piece_mode(s, m)) continue;
    const char *mode = (const char[]){(char)"FSPN"[m->mode.letter[0]],
                                      (char)"FSPN"[m->mode.letter[1]], 0};
    if (!piece_mode_acc(s, m, a)) {
      snprintf(text, size, "mode %s's exact solve is singular", mode);
      ok = false;
      break;
    }
    piece_face f[PIECE_MAX_FACES];
    const int nf = piece_faces(s, m, f);
    for (int fc = 0; fc < nf && ok; fc++) {
      const cert_case *cs = f[fc].cs;
      copositive_answer ans = COPOSITIVE_TOO_LARGE;
      if (f[fc].next) {
        int nr = 0;
        mpq_t Q3[9], L3[PIECE_THROUGH_ROWS * 3];
        for (int q = 0; q < 9; q++) mpq_init(Q3[q]);
        for (int q = 0; q < PIECE_THROUGH_ROWS * 3; q++) mpq_init(L3[q]);
        if (piece_through_form(s, m, &f[fc], x, c, Q3, L3, &nr) && nr <= COPOSITIVE_MAX_ROWS)
          ans = copositive_cone_nonneg(3, Q3, nr, L3, NULL);
        for (int q = 0; q < 9; q++) mpq_clear(Q3[q]);
        for (int q = 0; q < PIECE_THROUGH_ROWS * 3; q++) mpq_clear(L3[q]);
      } else if (f[fc].chain) {
        ans = piece_chain_verify(s, m, cert_piece_stop_mode(s, m), cs, lambda ? lambda[nl] : NAN, x,
                                 c, NULL, NULL, NULL);
        nl++;
      } else {
        int nr = 0;
        ok = piece_face_map(s, cs, &x1);
        if (ok) piece_face_form(s, m, a, cs, &x1, x, c, Q, L, &nr);
        if (ok && nr <= COPOSITIVE_MAX_ROWS) ans = copositive_cone_nonneg(4, Q, nr, L, NULL);
      }
      if (ans != COPOSITIVE_YES) {
        ok = false;
        const char *how = ans == COPOSITIVE_NO
                              ? "exceeds its value in the piece"
                              : "is not decided (a singular case or a cone too large)";
        if (f[fc].next)
          snprintf(text, size, "V2 after mode %s's impact %c%c and %s %s", mode,
                   "FSPN"[cs->letter[0]], "FSPN"[cs->letter[1]],
                   f[fc].end ? "the next impact" : "the next slip's stop", how);
        else if (!cs)
          snprintf(text, size, "V2 where mode %s's slip stops exceeds its value in the piece",
                   mode);
        else if (f[fc].chain)
          snprintf(text, size, "V2 after the impact %c%c ending mode %s's stop and stick %s",
                   "FSPN"[cs->letter[0]], "FSPN"[cs->letter[1]], mode, how);
        else
          snprintf(text, size, "V2 after the impact %c%c ending mode %s %s", "FSPN"[cs->letter[0]],
                   "FSPN"[cs->letter[1]], mode, how);
      }
    }
  }
  cert_rat_case_clear(&x1);
  mpq_clears(a[0], a[1], a[2], NULL);
  for (int q = 0; q < 16; q++) mpq_clear(Q[q]);
  for (int q = 0; q < PIECE_ROWS * 4; q++) mpq_clear(L[q]);
  return ok;
}
