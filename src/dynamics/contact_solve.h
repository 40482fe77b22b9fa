// Contact-space linear solves shared by the Table 1 mode solve and the impact
// laws. Both have the form  y = b + D x  with x the contact forces (or
// impulses) and y the contact accelerations (or post-impact velocities),
// ordered (normal 1, tangential 1, normal 2, tangential 2), and per-contact
// equalities chosen by a letter:
//   F: x_n = x_t = 0         S: y_n = y_t = 0
//   P: y_n = 0, x_t = -mu x_n   N: y_n = 0, x_t = +mu x_n
#ifndef ZENO_DYNAMICS_CONTACT_SOLVE_H
#define ZENO_DYNAMICS_CONTACT_SOLVE_H

#include <stdbool.h>

#include "zeno/mode.h"

/// Dynamics seen from the contacts at one state.
typedef struct contact_dyn {
  int n;               ///< contacts
  double W[3][4];      ///< generalised Jacobian, columns (n1, t1, n2, t2)
  double inv_mass[3];  ///< diagonal of M^-1
  double h[3];         ///< generalised applied force
  double bias[4];      ///< velocity-dependent contact accelerations (0 under ZOD)
  double D[4][4];      ///< Delassus matrix W^T M^-1 W
  double afree[4];     ///< contact accelerations with no contact force
  double mu[ZENO_PAIR_CONTACTS];
} contact_dyn;

/// Fills D and afree from W, M^-1, h and bias (W is only read; it is not
/// const because C17 will not convert double (*)[4] to const double (*)[4]).
void contact_dyn_build(contact_dyn *d, int n, double W[3][4], const double inv_mass[3],
                       const double h[3], const double bias[4], const double mu[2]);

/// Solves y = b + D x under the letters' equalities. Returns false when the
/// system is singular (e.g. S at both contacts: use contact_static_family).
bool contact_solve(const contact_dyn *d, const double b[4], const unsigned char letter[2],
                   double x[4], double y[4]);

/// The letter systems of constant dynamics (the ZOD) as linear maps: for
/// each letter pair, x = X b and y = Y b are what contact_solve() computes for
/// any b (it is
/// linear in b, and its pivots depend on the matrix only). Each map is made
/// once, after a few uses of its letters (solved as they are until then),
/// from contact_solve() of the unit vectors; later solves are one 4x4 product
/// instead of a pivoted elimination. Agrees
/// with contact_solve() to rounding (a few ulps of the terms), not bit for bit.
/// Solves of a letter system before its map is made: the map costs four.
#define CONTACT_MAP_AFTER_USES 4

typedef struct contact_letter_maps {
  unsigned char state[16];  ///< by letter[0] + 4 letter[1]: 0 no map yet, 1 made, 2 singular
  unsigned char uses[16];   ///< solves before the map was made
  /// Every system goes through its map, made at its first use rather than
  /// after CONTACT_MAP_AFTER_USES solves: the results are then those of maps all
  /// made up front (a map's values do not depend on when it is made),
  /// whatever the solves before it met.
  bool from_first_use;
  double X[16][4][4];  ///< x[a] = sum_c X[a][c] b[c]
  double Y[16][4][4];  ///< y = Y b (the letters' equalities exact zeros)
  /// The statically indeterminate family (contact_static_family): 0 not made, 1
  /// made, 2 W of rank < 3; its null vector, and x0 = P rhs.
  unsigned char static_state;
  int static_jmax;
  double static_k[4];
  double static_P[4][3];
  /// Both contacts sticking after an impact (impact.c): 0 not made, 1
  /// made, 2 no three independent rows; the target left out (the best
  /// conditioned three of W's four columns are kept) and the map from the
  /// kept targets to qdot+.
  unsigned char stick_state;
  int stick_skip;
  double stick_T[3][3];
} contact_letter_maps;

/// Makes the letters' map now if it is not made (4 solves of the unit
/// targets); false when the system is singular.
bool contact_letter_map_make(const contact_dyn *d, contact_letter_maps *maps,
                             const unsigned char letter[2]);

/// contact_solve() through the maps (NULL: contact_solve itself). Valid only while d
/// is constant.
bool contact_solve_mapped(const contact_dyn *d, contact_letter_maps *maps, const double b[4],
                          const unsigned char letter[2], double x[4], double y[4]);

/// Generalised effect of contact forces: M^-1 (r + W x).
void contact_generalized(const contact_dyn *d, const double r[3], const double x[4], double out[3]);

/// Statically indeterminate case, two contacts: all x with W x = rhs form the
/// line x0 + s k. The friction cones |x_t| <= mu x_n, x_n >= 0 cut it to an
/// interval; the returned x maximises the smallest cone slack (in force
/// units), *margin is that slack (negative when no x fits the cones).
/// Returns false when W has rank < 3.
bool contact_static_family(const contact_dyn *d, const double rhs[3], double x[4], double *margin);

/// contact_static_family() with the margin capped at `cap` (> 0, force units;
/// INFINITY: no cap, contact_static_family() itself): the smallest slack is
/// maximised with `cap` as one more constant piece, so a family whose
/// slacks all rise without bound (a wedged body) gives *margin = cap and
/// the first member reaching it; a bounded peak below the cap is
/// contact_static_family()'s, bit for bit. The exact solution of the max-margin
/// static LP of two contacts (analysis/equilibrium_lp.h's, which GLPK solves).
bool contact_static_family_capped(const contact_dyn *d, const double rhs[3], double cap,
                                  double x[4], double *margin);

/// contact_static_family() through the maps (NULL: contact_static_family itself):
/// the null vector and the particular solution's map made once, and the
/// peak found from the crossings of rising and falling cone slacks only.
/// The margin is contact_static_family()'s (to rounding); where a cone slack
/// constant along the family binds, x may be another member of the
/// interval of peaks (same W x). Valid only while d is constant.
bool contact_static_family_mapped(const contact_dyn *d, contact_letter_maps *maps,
                                  const double rhs[3], double x[4], double *margin);

/// Mass-weighted minimal correction of a generalised vector x so that the
/// contact coordinates cols[0..m) of W^T x change by r exactly:
/// x += M^-1 C (C^T M^-1 C)^-1 r with C the chosen columns of W. Used to
/// project positions and rates back onto contact constraints (no physical
/// impulse). Returns false when those columns are dependent.
bool contact_correct(double W[3][4], const double inv_mass[3], const int *cols, int m,
                     const double *r, double x[3]);

/// Smallest cone slack of contact i's force: min(x_n, (mu x_n - |x_t|) / sqrt(1 + mu^2)).
double contact_cone_slack(const contact_dyn *d, const double x[4], int i);

#endif
