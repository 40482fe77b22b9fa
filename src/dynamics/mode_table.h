// Contact modes (paper Table 1): admissibility, the 7x7 solve (done in
// contact space, see contact_solve.h), consistency and enumeration.
#ifndef ZENO_DYNAMICS_MODE_TABLE_H
#define ZENO_DYNAMICS_MODE_TABLE_H

#include <stdbool.h>

#include "dynamics/contact_solve.h"
#include "zeno/mode.h"

/// Kinematic class of one contact at an event (decided by the hybrid loop
/// with its state-scaled tolerances).
typedef enum mode_gap_class {
  MODE_GAP_OPEN = 0,  ///< z > 0, or z = 0 and separating (zdot > 0)
  MODE_GAP_CLOSED,    ///< z = 0 and zdot = 0
  MODE_GAP_IMPACTING  ///< z = 0 and zdot < 0
} mode_gap_class;

typedef enum mode_slip_class {
  MODE_SLIP_ZERO = 0,  ///< xdot = 0
  MODE_SLIP_POS,       ///< xdot > 0
  MODE_SLIP_NEG        ///< xdot < 0
} mode_slip_class;

typedef struct mode_class {
  unsigned char gap[ZENO_PAIR_CONTACTS];
  unsigned char slip[ZENO_PAIR_CONTACTS];
  /// The contact's normal force just fell to zero (a lift-off guard): the
  /// closed letters tie with F there; the trend decides, so only F is
  /// admissible and its acceleration test is not strict.
  bool lifting[ZENO_PAIR_CONTACTS];
  /// The contact's friction margin just fell to zero (a slip-onset guard):
  /// S ties with slipping there, and the trend excludes S.
  bool leaving_stick[ZENO_PAIR_CONTACTS];
} mode_class;

/// Zero thresholds for the strict inequalities of Table 1.
typedef struct mode_tol {
  double force;  ///< [force]
  double accel;  ///< [length/time^2]
  /// Table 1's strict conditions (a force or acceleration above its zero)
  /// read closed: at least minus the zero. Ties then count, where a force
  /// and the acceleration it would prevent both vanish.
  bool closed;
} mode_tol;

/// A solved mode.
typedef struct mode_solution {
  zeno_mode mode;
  /// Every contact sticking with zero velocity (SS): forces are the max-margin member of the family
  bool is_static;
  double force[4];       ///< contact forces (n1, t1, n2, t2) [force]
  double acc[4];         ///< contact accelerations (zdd1, xdd1, zdd2, xdd2)
  double qdd[3];         ///< generalised accelerations
  double static_margin;  ///< is_static: smallest cone slack of the forces [force]
} mode_solution;

/// Column 3 of Table 1.
bool mode_admissible(const mode_class *cls, int n, zeno_mode mode);

/// Column 4: solves the mode's equalities. False when singular.
bool mode_solve(const contact_dyn *d, zeno_mode mode, mode_solution *sol);

/// Column 5: consistency of a solved, admissible mode.
bool mode_consistent(const contact_dyn *d, const mode_class *cls, const mode_solution *sol,
                     const mode_tol *tol);

/// Smallest slack of the Table 1 inequalities (column 5) of a solved,
/// admissible mode, forces over force_scale and accelerations over
/// accel_scale: positive when all hold strictly, negative when one fails;
/// INFINITY when the mode has none (every contact open). Its magnitude says
/// how near the mode is to changing between consistent and inconsistent.
/// Why each mode (or impact candidate) was refused, indexed by its code
/// (letter[0] + 4 letter[1]): a zeno_refusal and the contact it names (-1:
/// none); ZENO_REFUSAL_NONE for codes that were not tried.
typedef struct refusal_table {
  unsigned char refusal[ZENO_MAX_MODES];
  signed char contact[ZENO_MAX_MODES];
} refusal_table;

/// Every mode of d's contacts with its refusal in class cls (the proof of
/// an inconsistent mode choice).
void mode_explain(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                  refusal_table *out);

/// Why Table 1 refuses `mode` in class cls (column 3, its solve, or one of
/// its conditions), and at which contact (-1: the mode as a whole);
/// ZENO_REFUSAL_NONE when it is consistent. Solves afresh: for the proof
/// of an `inconsistent` end, not for the loop.
zeno_refusal mode_refusal(const contact_dyn *d, const mode_class *cls, zeno_mode mode,
                          const mode_tol *tol, int *contact);

double mode_slack(const contact_dyn *d, const mode_class *cls, const mode_solution *sol,
                  double force_scale, double accel_scale);

/// Every admissible and consistent mode, in preference order (most sticking,
/// then most closed contacts first). Returns the count.
int mode_enumerate(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                   mode_solution out[ZENO_MAX_MODES]);

/// Mode solutions remembered for dynamics that do not change (the ZOD):
/// each mode is solved once, at its first use.
typedef struct mode_solution_cache {
  unsigned char state[ZENO_MAX_MODES];  ///< 0 unknown, 1 solved, 2 singular
  mode_solution sol[ZENO_MAX_MODES];
} mode_solution_cache;

/// Solves a mode through a cache when there is one (NULL: solve).
bool mode_solve_cached(const contact_dyn *d, zeno_mode mode, mode_solution_cache *cache,
                       mode_solution *sol);

/// mode_enumerate with a cache (NULL: none). Valid only while d is constant.
int mode_enumerate_cached(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                          mode_solution_cache *cache, mode_solution out[ZENO_MAX_MODES]);

/// The static solve at zero velocity (all contacts sticking): for two
/// contacts the max-margin member of the force family balancing the load;
/// *margin is its smallest cone slack [force]. For one contact the S solve;
/// *margin is the cone slack, and rest also needs qdd = 0.
bool mode_static(const contact_dyn *d, mode_solution *sol, double *margin);

/// Preference rank of a mode: lower is more static.
int mode_static_rank(zeno_mode mode, int n);

#endif
