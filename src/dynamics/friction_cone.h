// Coulomb's friction cone of a contact: the contact forces (or impulses)
// (fn, ft) [force, or force*time] with fn >= 0 and |ft| <= mu fn. Every
// test of it in the library is made of these forms, one home for its sign
// conventions and its tolerance rule:
// - a test with a tolerance (is a sticking force or impulse inside?) takes
//   the slack mu fn - |ft| against the caller's absolute tolerance, its
//   rtol times its force or impulse scale (friction_cone_holds);
// - the edges mu fn -+ ft are linear in (fn, ft): they apply to a family's
//   offset and direction alike, and to the rows of linear maps (the
//   certificate's exact conditions, the kernel's checks of impulses);
// - where the slacks of several contacts are compared with each other or
//   with other constraints (the static family's range, the largest static
//   margin of the equilibrium LP), they are divided by friction_cone_norm():
//   the distances to the cone's edge lines, whatever mu.
// Not public API.
#ifndef ZENO_DYNAMICS_FRICTION_CONE_H
#define ZENO_DYNAMICS_FRICTION_CONE_H

#include <math.h>
#include <stdbool.h>

/// The edge of side `sign` (+1: ft <= mu fn, the edge of positive ft; -1:
/// -ft <= mu fn): mu fn - sign ft, >= 0 inside the cone (with fn >= 0).
static inline double friction_cone_edge(double mu, double fn, double ft, double sign) {
  return mu * fn - sign * ft;
}

/// The slack mu fn - |ft|, the smaller edge: >= 0 inside (with fn >= 0).
static inline double friction_cone_slack(double mu, double fn, double ft) {
  return mu * fn - fabs(ft);
}

/// |(mu, 1)|: an edge or the slack divided by it is the distance of (fn, ft)
/// from the edge line.
static inline double friction_cone_norm(double mu) { return sqrt(1 + mu * mu); }

/// The predicate: (fn, ft) inside the cone up to tol [force or force*time,
/// absolute: the caller's relative tolerance times its scale]; false for
/// NaN. (The normal's sign is tested apart, against its own threshold.)
static inline bool friction_cone_holds(double mu, double fn, double ft, double tol) {
  return friction_cone_slack(mu, fn, ft) >= -tol;
}

#endif
