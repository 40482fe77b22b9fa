// The certificate's conditions' shared builders (certify_conditions.h).
#include "certify/certify_conditions.h"

#include <string.h>

#include "certify/certify_program.h"

zeno_status cert_jump_expr(sos_expr *x, const sos_expr *w, double c, const ze_poly z[2],
                           const ze_poly v[3], const ze_poly post[3], const ze_poly *t,
                           const double acc[3], ze_poly *gaps, zeno_error *e) {
  const int nv = t->nvars;
  ze_poly start[CERT_PROGRAM_NVARS], after[CERT_PROGRAM_NVARS], t2, tmp;
  memset(start, 0, sizeof start);
  memset(after, 0, sizeof after);
  memset(&t2, 0, sizeof t2);
  memset(&tmp, 0, sizeof tmp);
  sos_expr a;
  zeno_status st = sos_expr_init(&a, nv, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(poly_init(&t2, nv, e));
  CERT_TRY(poly_init(&tmp, nv, e));
  CERT_TRY(poly_mul(&t2, t, t, e));
  // After the impact: (z, post v); at the motion's start: z - v t + acc t^2/2, v - acc t.
  for (int k = 0; k < 2; k++) CERT_TRY(poly_copy(&after[Z1 + k], &z[k], e));
  for (int k = 0; k < 3; k++) CERT_TRY(poly_copy(&after[U1 + k], &post[k], e));
  for (int k = 0; k < 2; k++) {
    CERT_TRY(poly_copy(&start[Z1 + k], &z[k], e));
    CERT_TRY(poly_mul(&tmp, &v[k], t, e));
    CERT_TRY(poly_axpy(&start[Z1 + k], -1.0, &tmp, e));
    CERT_TRY(poly_axpy(&start[Z1 + k], 0.5 * acc[k], &t2, e));
  }
  for (int k = 0; k < 3; k++) {
    CERT_TRY(poly_copy(&start[U1 + k], &v[k], e));
    CERT_TRY(poly_axpy(&start[U1 + k], -acc[k], t, e));
  }
  CERT_TRY(sos_expr_compose(x, w, start, e));
  CERT_TRY(sos_expr_compose(&a, w, after, e));
  CERT_TRY(sos_expr_axpy(x, -1.0, &a, e));
  // c (x2_0 - x2-) = c (-w2 t + acc3 t^2 / 2).
  CERT_TRY(poly_mul(&tmp, &v[2], t, e));
  CERT_TRY(sos_expr_add(x, SOS_CONSTANT, -c, &tmp, e));
  CERT_TRY(sos_expr_add(x, SOS_CONSTANT, 0.5 * c * acc[2], &t2, e));
  for (int k = 0; gaps && k < 2; k++) CERT_TRY(poly_copy(&gaps[k], &start[Z1 + k], e));
done:
  sos_expr_free(&a);
  cert_free_polys(start, CERT_PROGRAM_NVARS);
  cert_free_polys(after, CERT_PROGRAM_NVARS);
  poly_free(&t2);
  poly_free(&tmp);
  return st;
}

void cert_drop_structural_zeros(ze_poly *p, int ngen, bool zero[][CERT_PROGRAM_NVARS]) {
  int kept = 0;
  for (int t = 0; t < p->nterms; t++) {
    int at[2] = {-1, -1}, n = 0;
    for (int q = 0; q < ngen; q++)
      for (int r = 0; r < p->t[t].m.e[q] && n < 2; r++) at[n++] = q;
    if (!(n == 2 && zero[at[0]][at[1]])) p->t[kept++] = p->t[t];
  }
  p->nterms = kept;
}

zeno_status cert_generator_condition(sos_program *prog, const sos_expr *x, int dim, const int *vmap,
                                     double gen[][4], bool zero[][CERT_PROGRAM_NVARS], int ngen,
                                     int nmu, const ze_poly *extra, int *extra_at, int *count,
                                     zeno_error *e) {
  const int nv = CERT_PROGRAM_NVARS;
  enum { MAX_G = CERT_PROGRAM_NVARS * (CERT_PROGRAM_NVARS + 1) / 2 + 1 };
  ze_poly map[CERT_PROGRAM_NVARS], g[MAX_G];
  memset(map, 0, sizeof map);
  memset(g, 0, sizeof g);
  sos_expr y;
  zeno_status st = sos_expr_init(&y, nv, e);
  if (st != ZENO_OK) return st;
  for (int v = 0; v < nv; v++) CERT_TRY(poly_init(&map[v], nv, e));
  for (int k = 0; k < dim; k++) {
    double coef[CERT_PROGRAM_NVARS] = {0};
    for (int q = 0; q < ngen; q++) coef[q] = gen[q][k];
    poly_free(&map[vmap[k]]);
    CERT_TRY(cert_linear(&map[vmap[k]], nv, coef, e));
  }
  CERT_TRY(sos_expr_compose(&y, x, map, e));
  for (int p = 0; p < y.nparts; p++) cert_drop_structural_zeros(&y.part[p], ngen, zero);
  // Multipliers mu_g, mu_g mu_h (g < h) where Q(g, h) is not a structural
  // zero (there the term is absent, and a multiplier would only take the
  // margin's room); none for the free coordinates.
  int ng = 0;
  for (int q = 0; q < nmu; q++) CERT_TRY(poly_var(&g[ng++], nv, q, e));
  for (int q = 0; q < nmu; q++)
    for (int r = q + 1; r < nmu; r++) {
      if (zero[q][r]) continue;
      CERT_TRY(poly_init(&g[ng], nv, e));
      CERT_TRY(poly_mul(&g[ng], &g[q], &g[r], e));
      ng++;
    }
  if (extra) {  // a chain's start gap, with its constant multiplier lambda
    CERT_TRY(poly_init(&g[ng], nv, e));
    CERT_TRY(poly_compose(&g[ng], extra, map, e));
    cert_drop_structural_zeros(&g[ng], ngen, zero);
    *extra_at = ng++;
  }
  static const int weights[CERT_PROGRAM_NVARS] = {1, 1, 1, 1, 1};
  CERT_TRY(sos_set_weights(prog, weights, e));
  CERT_TRY(cert_add_condition(prog, &y, ng, g, count, e));
  CERT_TRY(sos_set_weights(prog, NULL, e));
done:
  sos_expr_free(&y);
  cert_free_polys(map, nv);
  cert_free_polys(g, MAX_G);
  return st;
}
