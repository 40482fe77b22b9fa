/// @file certify.h
/// Lyapunov certificates by sums of squares (docs/certificate.md), after
/// Varkonyi's "Lyapunov stability analysis of rigid body systems with
/// multiple contacts by sums-of-squares programming": V1, the mechanical
/// energy, and V2 = c x2 + W(z1, z2, u1, u2, w2), searched by CSDP and
/// decided exactly. Implemented in the separate library libzeno-certify
/// (pkg-config zeno-certify), which links CSDP and GMP; libzeno itself
/// does not.
#ifndef ZENO_CERTIFY_H
#define ZENO_CERTIFY_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/interrupt.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Settings of zeno_certify().
typedef struct zeno_certify_def {
  /// Weighted degree of V2 (positions weigh 2, velocities 1), 2..4.
  /// Weighted degree 2 is all a local certificate needs
  /// (docs/certificate.md). Degrees 3 and 4 are decided exactly under the
  /// inelastic law without free flight after the first impact (degree 3
  /// leaves its odd top part no room: Examples 4 and 7 are not certified
  /// at 3); other scenes are
  /// re-checked in floating point, which cannot prove the modes'
  /// equalities: they are reported not certified.
  int degree;
  /// Margin of the positivity condition (54) in the scene's own units, in
  /// (0, 1]: V2 - c x2 >= eps (z1 + z2 + |v|^2) on z >= 0.
  double eps;
  /// CSDP's iteration limit, 10..1000.
  int max_iterations;
  /// Random perturbed runs of the simulation check (0: none), 0..100000.
  int check_runs;
  /// Their initial gaps, slip and velocities are drawn from [0, size] and
  /// [-size, size] in the scene's own units, in (0, 10].
  double check_size;
  unsigned check_seed;
  /// Asked before the semidefinite program is solved, after it, and
  /// between the events of the check's runs (CSDP's solve itself is not
  /// asked: it is one call of the solver): a stop ends zeno_certify() with
  /// ZENO_ERR_INTERRUPTED and the certificate zeroed. Default: none.
  zeno_interrupt interrupt;
} zeno_certify_def;

ZENO_API zeno_certify_def zeno_certify_def_default(void);

/// Most terms of W (weighted degree 2..4 in five variables: 54).
#define ZENO_CERTIFY_MAX_TERMS 64

/// One term coef * z1^e0 z2^e1 u1^e2 u2^e3 w2^e4 of W.
typedef struct zeno_certificate_term {
  unsigned char exponents[5];
  double coef;
} zeno_certificate_term;

/// Result of zeno_certify().
typedef struct zeno_certificate {
  bool certified;    ///< never "unstable": not certified says nothing
  char reason[256];  ///< why not certified ("" when certified)
  bool refused;      ///< refused before any SDP (reason says why)
  /// CSDP's outcome: "solved", "infeasible", "unbounded", "failed" (its
  /// codes 4-9, named in reason), or "" (no SDP).
  char solver_status[16];
  int csdp_code;
  double solver_margin;  ///< CSDP's common Gram margin t*
  bool exact;            ///< decided by the exact rational check
  double projection;     ///< its largest coefficient change
  int equalities;        ///< equalities it imposed exactly
  int sdp_order, sdp_constraints, conditions, unknowns;
  double seconds;  ///< wall time of the whole certificate [s]
  double c;        ///< V2's coefficient of x2 (-sign b3)
  size_t term_count;
  zeno_certificate_term terms[ZENO_CERTIFY_MAX_TERMS];
  /// A level floor (b3 = 0, docs/certificate.md): V2 above is V2+ = x2 +
  /// W+, and this is the second slip function V2- = c_minus x2 + W-
  /// (c_minus = -1); c_minus = 0 and no terms otherwise.
  double c_minus;
  size_t term_count_minus;
  zeno_certificate_term terms_minus[ZENO_CERTIFY_MAX_TERMS];
  double b[3];        ///< V1's potential b . q' (own units)
  double mass[3][3];  ///< V1's kinetic part: qdot'^T M' qdot' / 2
  /// The simulation check (check_runs > 0): runs, pieces and impacts
  /// compared, and the largest increase of V1 or V2 relative to the size
  /// of their terms; above ZENO_CERTIFY_CHECK_TOL the certificate is
  /// reported not certified.
  int check_runs, check_events;
  double check_max_increase;
  /// The scene's own units as powers of two (mass, length, time): the
  /// coefficients are in them.
  int units[3];
} zeno_certificate;

/// Largest relative increase the simulation check accepts (rounding).
#define ZENO_CERTIFY_CHECK_TOL 1e-9

/// Builds, solves and decides the certificate of a two-contact scene.
/// Not certifying is a result (reason filled); errors: ZENO_ERR_ARGUMENT
/// (NULL, or not two contacts: parameter "contacts"), ZENO_ERR_RANGE (a
/// setting out of range, named), ZENO_ERR_GEOMETRY, ZENO_ERR_NOMEM. A
/// failure of CSDP is a result: not certified, solver_status "failed".
ZENO_API zeno_status zeno_certify(const zeno_scene *scene, const zeno_certify_def *def,
                                  zeno_certificate *out, zeno_error *error);

/// V1 and V2 (V2+ on a level floor; V2- by zeno_certificate_eval_minus) at a ZOD state (z1, z2, x2, u1, u2, w2) in the user's units
/// [length, length/time]; values in the scene's own energy unit.
ZENO_API void zeno_certificate_eval(const zeno_certificate *c, const double state[6], double *v1,
                                    double *v2);

/// V2- at a ZOD state (as zeno_certificate_eval); 0 when the certificate has
/// no second slip function (c_minus = 0).
ZENO_API double zeno_certificate_eval_minus(const zeno_certificate *c, const double state[6]);

#ifdef __cplusplus
}
#endif
#endif
