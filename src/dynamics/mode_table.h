// Contact modes (paper Table 1): admissibility, the 7x7 solve (done in
// contact space, see contact_solve.h), consistency and enumeration.
#ifndef ZENO_DYNAMICS_MODE_TABLE_H
#define ZENO_DYNAMICS_MODE_TABLE_H

#include <stdbool.h>

#include "dynamics/contact_solve.h"
#include "zeno/mode.h"

/// Kinematic class of one contact at an event (decided by the hybrid loop
/// with its state-scaled tolerances).
typedef enum zm_gap_class {
  ZM_GAP_OPEN = 0,   ///< z > 0, or z = 0 and separating (zdot > 0)
  ZM_GAP_CLOSED,     ///< z = 0 and zdot = 0
  ZM_GAP_IMPACTING   ///< z = 0 and zdot < 0
} zm_gap_class;

typedef enum zm_slip_class {
  ZM_SLIP_ZERO = 0,  ///< xdot = 0
  ZM_SLIP_POS,       ///< xdot > 0
  ZM_SLIP_NEG        ///< xdot < 0
} zm_slip_class;

typedef struct zm_class {
  unsigned char gap[ZENO_MAX_CONTACTS];
  unsigned char slip[ZENO_MAX_CONTACTS];
  /// The contact's normal force just fell to zero (a lift-off guard): the
  /// closed letters tie with F there; the trend decides, so only F is
  /// admissible and its acceleration test is not strict.
  bool lifting[ZENO_MAX_CONTACTS];
  /// The contact's friction margin just fell to zero (a slip-onset guard):
  /// S ties with slipping there, and the trend excludes S.
  bool leaving_stick[ZENO_MAX_CONTACTS];
} zm_class;

/// Zero thresholds for the strict inequalities of Table 1.
typedef struct zm_tol {
  double force; ///< [force]
  double accel; ///< [length/time^2]
} zm_tol;

/// A solved mode.
typedef struct zm_solution {
  zeno_mode mode;
  bool is_static;  ///< every contact sticking with zero velocity (SS): forces are the max-margin member of the family
  double force[4]; ///< contact forces (n1, t1, n2, t2) [force]
  double acc[4];   ///< contact accelerations (zdd1, xdd1, zdd2, xdd2)
  double qdd[3];   ///< generalised accelerations
  double static_margin; ///< is_static: smallest cone slack of the forces [force]
} zm_solution;

/// Column 3 of Table 1.
bool zm_admissible(const zm_class *cls, int n, zeno_mode mode);

/// Column 4: solves the mode's equalities. False when singular.
bool zm_solve(const zc_dyn *d, zeno_mode mode, zm_solution *sol);

/// Column 5: consistency of a solved, admissible mode.
bool zm_consistent(const zc_dyn *d, const zm_class *cls, const zm_solution *sol,
                   const zm_tol *tol);

/// Smallest slack of the Table 1 inequalities (column 5) of a solved,
/// admissible mode, forces over force_scale and accelerations over
/// accel_scale: positive when all hold strictly, negative when one fails;
/// INFINITY when the mode has none (every contact open). Its magnitude says
/// how near the mode is to changing between consistent and inconsistent.
double zm_slack(const zc_dyn *d, const zm_class *cls, const zm_solution *sol,
                double force_scale, double accel_scale);

/// Every admissible and consistent mode, in preference order (most sticking,
/// then most closed contacts first). Returns the count.
int zm_enumerate(const zc_dyn *d, const zm_class *cls, const zm_tol *tol,
                 zm_solution out[ZENO_MAX_MODES]);

/// Mode solutions remembered for dynamics that do not change (the ZOD):
/// each mode is solved once, at its first use.
typedef struct zm_cache {
  unsigned char state[ZENO_MAX_MODES]; ///< 0 unknown, 1 solved, 2 singular
  zm_solution sol[ZENO_MAX_MODES];
} zm_cache;

/// Solves a mode through a cache when there is one (NULL: solve).
bool zm_solve_cached(const zc_dyn *d, zeno_mode mode, zm_cache *cache,
                     zm_solution *sol);

/// zm_enumerate with a cache (NULL: none). Valid only while d is constant.
int zm_enumerate_cached(const zc_dyn *d, const zm_class *cls, const zm_tol *tol,
                        zm_cache *cache, zm_solution out[ZENO_MAX_MODES]);

/// The static solve at zero velocity (all contacts sticking): for two
/// contacts the max-margin member of the force family balancing the load;
/// *margin is its smallest cone slack [force]. For one contact the S solve;
/// *margin is the cone slack, and rest also needs qdd = 0.
bool zm_static(const zc_dyn *d, zm_solution *sol, double *margin);

/// Preference rank of a mode: lower is more static.
int zm_static_rank(zeno_mode mode, int n);

#endif
