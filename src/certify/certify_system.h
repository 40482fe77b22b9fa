// The two-contact body under the ZOD in the form the Lyapunov certificate
// needs (certify_system.c, docs/certificate.md): the state
// s = (z1, z2, x2, u1, u2, w2) = (q', qdot'), the constant mass matrix M'
// and load potential U = b . q', the constant acceleration of every
// consistent non-static mode with a closed contact and of free flight, and
// each impact case of the scene's law as a linear map of the pre-impact
// velocity qdot'- with linear conditions on it. Everything in the scene's
// own units (scene_units.h). Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_SYSTEM_H
#define ZENO_CERTIFY_CERTIFY_SYSTEM_H

#include <stdbool.h>

#include "dynamics/contact_solve.h"
#include "dynamics/kinematics.h"
#include "zeno/error.h"
#include "zeno/scene.h"

/// Modes with a closed contact other than SS: 15 letter pairs at most.
#define CERT_MAX_MODES 16
/// Impact cases: 3 single per contact, 8 double, the double stick; under
/// the Chatterjee-Ruina law 3 more per contact (its own single impacts).
#define CERT_MAX_CASES 24
/// Linear conditions of one impact case (impacting, impulses, slip signs).
#define CERT_MAX_CONDS 8
/// Size of a refusal's reason.
#define CERT_REASON_SIZE 200

/// A consistent non-static mode with at least one closed contact.
typedef struct cert_mode {
  zeno_mode mode;
  double acc[3];    ///< qddot' = (zddot1, zddot2, xddot2) [length/time^2]
  double force[4];  ///< (n1, t1, n2, t2) [force]
} cert_mode;

/// How a case's impulse is made.
typedef enum cert_kind {
  /// The letters' contact system with restitution targets (inelastic,
  /// Newton, and the Chatterjee-Ruina law's fallback).
  CERT_COMPLEMENTARITY = 0,
  /// Chatterjee-Ruina at one contact, the impulse inside the cone
  /// (letter S): P = (1 + e) P_I + (1 + et) (P_II - P_I).
  CERT_CR_CONE,
  /// Chatterjee-Ruina at one contact, the impulse clipped onto the cone's
  /// edge (letter P: friction impulse -mu pn, N: +mu pn).
  CERT_CR_EDGE,
} cert_kind;

/// One case of the impact law: qdot'+ = post qdot'- on the pre-impact
/// velocities with cond[k] . qdot'- >= 0 for every k.
typedef struct cert_case {
  cert_kind kind;
  int contact;              ///< impacting contact (0 or 1)
  bool both;                ///< both gaps zero and both contacts take impulses
  unsigned char letter[2];  ///< the law's candidate letters
  double post[3][3];        ///< qdot'+ = post qdot'-
  double impulse[4][3];     ///< (n1, t1, n2, t2) = impulse qdot'- [force*time]
  int ncond;
  double cond[CERT_MAX_CONDS][3];
} cert_case;

typedef struct cert_system {
  kinematics_model km;
  contact_dyn d;
  zeno_impact_law law;
  double e;         ///< normal restitution (0 for the inelastic law)
  double et;        ///< tangential restitution (Chatterjee-Ruina; else 0)
  double Mp[3][3];  ///< M' = A^-T M A^-1, T = qdot'^T M' qdot' / 2
  double b[3];      ///< U = b . q' [force]
  double slip1[3];  ///< x1 = slip1 . q' (and w1 = slip1 . qdot')
  double a_ff[3];   ///< free flight's qddot'
  /// b3 = 0 within the modes' tolerance (a level floor): V1 bounds neither
  /// side of the slip, and two slip functions V2+ and V2- are searched.
  bool level;
  /// The single-contact modes whose free contact falls have their decrease
  /// asked over their pieces (certify_piece.h), not pointwise; false from
  /// cert_build, set by the program for its second attempt.
  bool pieces;
  /// With pieces: a decelerating slip whose stop leads to one mode is
  /// asked over its chains (cert_piece_stop_mode), not pointwise; set by
  /// the program for its third attempt.
  bool chains;
  /// With pieces: an accelerating slip's piece ending at a single impact
  /// that the closed contact leaves is asked through that impact
  /// (cert_piece_through_mode); set by the program where the others did
  /// not certify.
  bool through;
  /// The pieces' exact solves, kept over one system's programs
  /// (certify_piece.h; NULL: solved each time). Owned by whoever set it.
  struct cert_piece_cache *cache;
  int nmodes;
  cert_mode modes[CERT_MAX_MODES];
  int ncases;
  cert_case cases[CERT_MAX_CASES];
} cert_system;

/// Builds the system of a validated two-contact scene in its own units.
/// *refused with a reason (no error) when the certificate does not apply:
/// no consistent static equilibrium, an ambiguous one (Theorem 1), a
/// singular mode, a Chatterjee-Ruina edge impulse that would pull. (The
/// sign conditions (55), (56) are no refusal here: cert_sign_conditions.) Errors: ZENO_ERR_ARGUMENT for a
/// scene without two contacts, ZENO_ERR_GEOMETRY from the kinematics.
zeno_status cert_build(const zeno_scene *own, cert_system *sys, bool *refused,
                       char reason[CERT_REASON_SIZE], zeno_error *e);

/// The system conditions of our reading of (55), (56): b3 != 0 and b1,
/// b2 > 0, which positivity (54) of W alone needs (weighted degrees 3 and
/// 4). At degree 2 positivity is part of the program instead
/// (docs/certificate.md). False with the reason.
bool cert_sign_conditions(const cert_system *s, char reason[CERT_REASON_SIZE]);

/// Whether a free flight may precede an impact (a law with restitution,
/// zeno_impact_law_info.restitution: Newton's and the Chatterjee-Ruina
/// law), so that the impacts' conditions are the flight conditions
/// (certify_flight.h). Without, the law is plastic: contacts never leave
/// at an impact.
bool cert_flights(const cert_system *s);

/// The post-impact velocity of a case: out = post qdp.
void cert_case_apply(const cert_case *c, const double qdp[3], double out[3]);
/// Whether every condition of the case holds at qdp within tol.
bool cert_case_holds(const cert_case *c, const double qdp[3], double tol);

#endif
