// The conditions of the certificate's programs as both builders add them
// (certify_program.c, certify_positivity.c): one place for W's variables,
// the builders' error step, adding a condition and freeing its
// polynomials. Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_CONDITIONS_H
#define ZENO_CERTIFY_CERTIFY_CONDITIONS_H

#include "sos/poly.h"
#include "sos/sos.h"

/// W's variables, in order: the gaps z1, z2, their rates u1, u2, the slip
/// rate w2 (CERT_PROGRAM_NVARS of them).
enum { Z1, Z2, U1, U2, W2 };

/// A builder's step: the status into `st`, and on failure to `done`, where
/// the builder frees what it made.
#define CERT_TRY(x)               \
  do {                            \
    st = (x);                     \
    if (st != ZENO_OK) goto done; \
  } while (0)

/// Frees polynomials p[0..n-1].
static inline void cert_free_polys(ze_poly *p, int n) {
  for (int k = 0; k < n; k++) poly_free(&p[k]);
}

/// Adds one condition of the program, expr >= 0 on {g >= 0} (ng
/// multipliers' domain polynomials g), and counts it in *count.
static inline zeno_status cert_add_condition(sos_program *prog, const sos_expr *x, int ng,
                                             const ze_poly *g, int *count, zeno_error *e) {
  (*count)++;
  return sos_add_sos(prog, x, ng, g, NULL, e);
}

#endif
