// Positivity conditions of the certificate's program (certify_positivity.h).
#include "certify/certify_positivity.h"

#include <string.h>

#include "certify/certify_conditions.h"
#include "certify/certify_program.h"

/* ---------- positivity (54) ---------- */

zeno_status cert_positivity_signs(sos_program *prog, const sos_expr *w, double eps, int *count,
                                  zeno_error *e) {
  sos_expr x;
  ze_poly n, g[2];
  memset(g, 0, sizeof g);
  memset(&n, 0, sizeof n);
  zeno_status st = sos_expr_init(&x, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(poly_init(&n, CERT_PROGRAM_NVARS, e));
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) {
    poly_mono m = {{0}};
    m.e[v] = v <= Z2 ? 1 : 2;  // weighted degree 2: gaps, squared velocities
    CERT_TRY(poly_add_term(&n, &m, 1.0, e));
  }
  CERT_TRY(sos_expr_axpy(&x, 1.0, w, e));
  CERT_TRY(sos_expr_add(&x, SOS_CONSTANT, -eps, &n, e));
  for (int i = 0; i < 2; i++) CERT_TRY(poly_var(&g[i], CERT_PROGRAM_NVARS, i, e));
  CERT_TRY(cert_add_condition(prog, &x, 2, g, count, e));
done:
  sos_expr_free(&x);
  poly_free(&n);
  cert_free_polys(g, 2);
  return st;
}

/* ---------- positivity of the envelope at weighted degree 2 ---------- */

// k0 + k1 c_var >= 0 for a scalar of the program (a constant sum of
// squares: its 1 x 1 Gram matrix).
static zeno_status scalar_bound(sos_program *prog, int var, double k0, double k1, int *count,
                                zeno_error *e) {
  sos_expr x;
  ze_poly one;
  memset(&one, 0, sizeof one);
  zeno_status st = sos_expr_init(&x, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(poly_init(&one, CERT_PROGRAM_NVARS, e));
  poly_mono m = {{0}};
  CERT_TRY(poly_add_term(&one, &m, 1.0, e));
  CERT_TRY(sos_expr_add(&x, SOS_CONSTANT, k0, &one, e));
  CERT_TRY(sos_expr_add(&x, var, k1, &one, e));
  CERT_TRY(cert_add_condition(prog, &x, 0, NULL, count, e));
done:
  sos_expr_free(&x);
  poly_free(&one);
  return st;
}

// The envelope on one side of the slip (docs/certificate.md): with
// r = side c x2 >= 0 (side +1: V2's own side, -1: the other), V2 = side r
// + W and V1 = V1' + side beta r (V1' = T + b1 z1 + b2 z2, beta = c b3),
// so for a scalar kappa >= 0
//   max(V1, V2) >= (kappa V1 + V2) / (1 + kappa) >= eps (n + r)
// when W + kappa (V1' - eps n) - eps n >= 0 on z >= 0 (n = z1 + z2 +
// |v|^2) and side (1 + kappa beta) - eps (1 + kappa) >= 0. Both are linear
// in W and kappa together: kappa is one more unknown, *kvar.
zeno_status cert_positivity_side(sos_program *prog, const cert_system *s, const sos_expr *w,
                                 double c, int side, double eps, int *kvar, int *count,
                                 zeno_error *e) {
  sos_expr x;
  ze_poly n, v1, g[2];
  memset(g, 0, sizeof g);
  memset(&n, 0, sizeof n);
  memset(&v1, 0, sizeof v1);
  zeno_status st = sos_expr_init(&x, CERT_PROGRAM_NVARS, e);
  if (st != ZENO_OK) return st;
  CERT_TRY(sos_new_scalar(prog, kvar, e));
  CERT_TRY(poly_init(&n, CERT_PROGRAM_NVARS, e));
  CERT_TRY(poly_init(&v1, CERT_PROGRAM_NVARS, e));
  for (int v = 0; v < CERT_PROGRAM_NVARS; v++) {
    poly_mono m = {{0}};
    m.e[v] = v <= Z2 ? 1 : 2;  // weighted degree 2: gaps, squared velocities
    CERT_TRY(poly_add_term(&n, &m, 1.0, e));
    if (v <= Z2) CERT_TRY(poly_add_term(&v1, &m, s->b[v], e));
  }
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) {
      poly_mono m = {{0}};
      m.e[U1 + r]++;
      m.e[U1 + k]++;
      CERT_TRY(poly_add_term(&v1, &m, 0.5 * s->Mp[r][k], e));
    }
  CERT_TRY(sos_expr_axpy(&x, 1.0, w, e));
  CERT_TRY(sos_expr_add(&x, SOS_CONSTANT, -eps, &n, e));
  CERT_TRY(sos_expr_add(&x, *kvar, 1.0, &v1, e));
  CERT_TRY(sos_expr_add(&x, *kvar, -eps, &n, e));
  for (int i = 0; i < 2; i++) CERT_TRY(poly_var(&g[i], CERT_PROGRAM_NVARS, i, e));
  CERT_TRY(cert_add_condition(prog, &x, 2, g, count, e));
  const double beta = c * s->b[2];
  CERT_TRY(scalar_bound(prog, *kvar, 0.0, 1.0, count, e));  // kappa >= 0
  CERT_TRY(scalar_bound(prog, *kvar, side - eps, side * beta - eps, count, e));
done:
  sos_expr_free(&x);
  poly_free(&n);
  poly_free(&v1);
  cert_free_polys(g, 2);
  return st;
}
