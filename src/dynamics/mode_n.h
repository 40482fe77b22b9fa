// Table 1's mode selection for N contacts (issue 34, slice 3; docs/model.md,
// "Any number of contacts: the plan"): every letter pattern of the closed
// contacts whose forces meet Table 1's conditions, decided by the LP of
// the pattern with a margin variable (GLPK), or, where the pattern's
// equalities fix its forces, by those rows evaluated at the solved forces
// (the same test without the LP), in the two-contact code's preference
// order. The modes layer of the N-contact engine (the two-contact engine
// keeps its table, mode_table.h); it solves with the LP helpers of lp.h.
// Not public API.
#ifndef ZENO_DYNAMICS_MODE_N_H
#define ZENO_DYNAMICS_MODE_N_H

#include <stdbool.h>

#include "dynamics/mode_table.h"
#include "zeno/error.h"
#include "zeno/scene.h"

/// Contacts the module takes (a scene's bound).
#define MODE_N_MAX_CONTACTS ZENO_MAX_CONTACTS
/// Row stride of the N-wide Delassus matrices (2 MODE_N_MAX_CONTACTS).
#define MODE_N_D_STRIDE (2 * MODE_N_MAX_CONTACTS)
/// Letter patterns tried at most: 4^8, every letter of eight zero-slip
/// closed contacts (slipping contacts have two letters, F and their slip's).
/// Each pattern is one LP of at most 2N + 1 columns (about 30 us), so the
/// bound keeps one selection under a few seconds.
#define MODE_N_MAX_PATTERNS 65536

/// Dynamics seen from N contacts (contact_dyn's data, N wide): contact
/// accelerations a = afree + D c for contact forces c, columns ordered
/// (n1, t1, n2, t2, ...).
typedef struct mode_n_dyn {
  int n;                                 ///< contacts, 1 .. MODE_N_MAX_CONTACTS
  double W[3][2 * MODE_N_MAX_CONTACTS];  ///< generalised Jacobian
  double inv_mass[3];                    ///< diagonal of M^-1
  double h[3];                           ///< generalised applied force
  double bias[2 * MODE_N_MAX_CONTACTS];  ///< velocity terms of a (0 under the ZOD)
  double mu[MODE_N_MAX_CONTACTS];
} mode_n_dyn;

/// Kinematic class of each contact (mode_class, N wide; the same meaning
/// per contact).
typedef struct mode_n_class {
  unsigned char gap[MODE_N_MAX_CONTACTS];   ///< mode_gap_class
  unsigned char slip[MODE_N_MAX_CONTACTS];  ///< mode_slip_class
  bool lifting[MODE_N_MAX_CONTACTS];
  bool leaving_stick[MODE_N_MAX_CONTACTS];
} mode_n_class;

/// One consistent pattern.
typedef struct mode_n_solution {
  unsigned char letter[MODE_N_MAX_CONTACTS];  ///< zeno_letter per contact
  /// Every closed contact sticks and at least two do: the forces are a
  /// family, judged by its max-margin member with closed conditions (the
  /// two-contact SS rule, mode_static).
  bool is_static;
  /// The pattern's polyhedron has one qdd (its range per component is
  /// within the acceleration zero); false: several accelerations, an
  /// ambiguous pattern.
  bool unique;
  double margin;                          ///< the LP's optimal margin; INFINITY when unbounded
  double force[2 * MODE_N_MAX_CONTACTS];  ///< the max-margin forces
  double acc[2 * MODE_N_MAX_CONTACTS];    ///< their contact accelerations
  double qdd[3];                          ///< their generalised accelerations
  double qdd_lo[3], qdd_hi[3];            ///< range of qdd over the pattern's forces
} mode_n_solution;

/// Preference rank of a pattern (mode_static_rank for N letters): most
/// sticking, then most closed contacts first; lower is more static.
int mode_n_rank(const unsigned char *letter, int n);

/// The pattern's code: sum letter[i] 4^i (mode_code for two contacts).
unsigned long mode_n_code(const unsigned char *letter, int n);

/// The letters' equalities solved (contact_solve's N-wide form, shared by
/// the mode selection and the impact law, impact_n.h): y = b + D x with,
/// per contact with a letter, y_n = 0, and y_t = 0 (S) or x on the cone's
/// edge mu x_n + x_t = 0 (P), mu x_n - x_t = 0 (N); x = 0 at F. False
/// when they do not fix x (redundant contacts). D is the Delassus matrix
/// of the n contacts, row-major with MODE_N_D_STRIDE, b their free
/// accelerations or velocity targets.
bool mode_n_letter_solve(int n, const double *D, const double *b, const double *mu,
                         const unsigned char *letter, double *x);

/// mode_n_letter_solve's equations A u = r: u are the forces of the
/// contacts with a letter, in the columns col[0..k-1] of x (k returned),
/// A row-major k x k. For a solver of the redundant case (the full model's
/// forces nearest to a family member).
int mode_n_letter_rows(int n, const double *D, const double *b, const double *mu,
                       const unsigned char *letter, int *col, double *A, double *r);

/// Every admissible (Table 1, column 3) and consistent pattern of d's
/// contacts in class cls, ordered by mode_n_rank and then code; the first
/// `capacity` of them go to out, and *count is how many there are.
/// ZENO_ERR_ARGUMENT for a count of contacts outside 1..16 or a tolerance
/// that is negative or not finite, ZENO_ERR_UNSUPPORTED when the class has
/// more than MODE_N_MAX_PATTERNS admissible patterns; the LP's errors.
zeno_status mode_n_enumerate(const mode_n_dyn *d, const mode_n_class *cls, const mode_tol *tol,
                             mode_n_solution *out, int capacity, int *count, zeno_error *e);

/// Whether the letters' rows (a closed contact's normal, a sticking one's
/// tangent too: columns of W, as functions of qdd or qdot) fix the body:
/// their mass-weighted, normalised Gram matrix has a determinant above
/// rtol times its scale (rank 3, conditioned to rtol). Then the pattern's
/// acceleration, or an impact candidate's velocity after, is unique.
bool mode_n_letters_fix_body(const mode_n_dyn *d, const unsigned char *letter, double rtol);

#endif
