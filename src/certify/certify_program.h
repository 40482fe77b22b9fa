// The sums-of-squares program of the Lyapunov certificate (certify_program.c,
// docs/certificate.md): V2 = c x2 + W(z1, z2, u1, u2, w2) with W unknown of
// weighted degree 2..D, positivity (54), decrease along every mode of the
// system, and across every impact case after a free flight of any
// duration; solved by CSDP and re-checked (sos_check.h). Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_PROGRAM_H
#define ZENO_CERTIFY_CERTIFY_PROGRAM_H

#include <stdbool.h>

#include "certify/certify_system.h"
#include "sos/poly.h"
#include "sos/sos.h"

/// Variables of W: (z1, z2, u1, u2, w2).
#define CERT_PROGRAM_NVARS 5

typedef struct cert_program_settings {
  int degree;          ///< weighted degree of V2 (2..CERT_PROGRAM_MAX_DEGREE)
  double eps;          ///< positivity margin of (54), own units
  int max_iterations;  ///< CSDP's iteration limit
  /// Which conditions to build (CERT_PROGRAM_POSITIVITY | CERT_PROGRAM_MODES | CERT_PROGRAM_FLIGHTS);
  /// 0: all. Parts alone diagnose which condition a scene fails.
  unsigned parts;
} cert_program_settings;

#define CERT_PROGRAM_POSITIVITY 1u
#define CERT_PROGRAM_MODES 2u
#define CERT_PROGRAM_FLIGHTS 4u
#define CERT_PROGRAM_ALL (CERT_PROGRAM_POSITIVITY | CERT_PROGRAM_MODES | CERT_PROGRAM_FLIGHTS)
/// Flights before impacts even where the law cannot fly again (a check).
#define CERT_PROGRAM_FORCE_FLIGHT 8u

#define CERT_PROGRAM_MAX_DEGREE 6

typedef struct cert_program_outcome {
  bool solved;         ///< CSDP returned a solution (status feasible)
  bool solver_failed;  ///< CSDP failed (codes 4-9): reason has its word
  sos_status status;
  int csdp_code;
  bool certified;        ///< solved and every constraint re-checked
  double margin;         ///< the re-check's margin (solver's t* when not solved)
  double solver_margin;  ///< CSDP's t*
  int sdp_order, sdp_constraints, constraints, unknowns;
  double seconds;  ///< wall time of CSDP
  char reason[200];
  /// The verdict is the exact check's (weighted degree 2, inelastic law
  /// without free flight after the first impact: certify_exact.h).
  bool exact;
  double exact_shift;  ///< largest coefficient change of its projection
  int equalities;      ///< equalities it imposed exactly
  double c;            ///< V2's coefficient of x2
  int nterms;          ///< W = sum_k coef[k] y^mono[k]
  poly_mono *mono;
  double *coef;
  /// Weighted degree 2: the envelope's multipliers of V1 on V2's own side
  /// of the slip and on the other (NAN where not used): docs/certificate.md.
  double kappa[2];
  /// Some modes' decrease is asked over their pieces (certify_piece.h): the
  /// simulation check compares a piece's start with the state after its end.
  bool pieces;
  /// Some decelerating slips are asked over their chains (with pieces).
  bool chains;
  /// Some accelerating slips' pieces are asked through their impacts
  /// (cert_piece_through_mode; with pieces).
  bool through;
  /// The chains' S-procedure multipliers of their start gap
  /// (cert_piece_conditions' order), CSDP's, rounded.
  int nlambda;
  double lambda[CERT_MAX_MODES * CERT_MAX_CASES];
  /// A level floor (b3 = 0): this outcome is V2+ = x2 + W+, and minus the
  /// second slip function V2- = -x2 + W- (malloc'ed, freed with it); NULL
  /// otherwise, or when V2+ already failed.
  struct cert_program_outcome *minus;
} cert_program_outcome;

/// Builds the program of a system, solves and re-checks it. A refusal of
/// the solver is an outcome (certified false), not an error; errors are
/// out of memory, an oversized basis (ZENO_ERR_RANGE) and CSDP failures
/// (ZENO_ERR_SINGULAR).
zeno_status cert_program_certify(const cert_system *sys, const cert_program_settings *set,
                                 cert_program_outcome *out, zeno_error *e);
void cert_program_outcome_free(cert_program_outcome *out);

/// Solves a built program with CSDP and records the solver's figures in
/// *out (status, CSDP's code, sizes, time, margins, solved). CSDP's
/// failures (stuck, no progress, iteration limit: codes 4 to 9) decide
/// nothing: solver_failed with CSDP's word as the reason, not an error; an
/// infeasible program gets its reason too. Both return ZENO_OK with solved
/// false; errors are out of memory only.
zeno_status cert_program_solve(const sos_program *prog, const sos_options *o,
                               cert_program_outcome *out, sos_solution *sol, zeno_error *e);

/// V2 at a ZOD state s = (z1, z2, x2, u1, u2, w2).
double cert_program_v2(const cert_program_outcome *o, const double s[6]);
/// V1 (energy) at s.
double cert_program_v1(const cert_system *sys, const double s[6]);

#endif
