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
