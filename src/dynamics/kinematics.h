// Contact kinematics: contact points, gaps, slips and their Jacobians, for the
// ZOD (linearised at the nominal pose q = 0) and for the full pose.
#ifndef ZENO_DYNAMICS_KINEMATICS_H
#define ZENO_DYNAMICS_KINEMATICS_H

#include <stdbool.h>

#include "zeno/scene.h"

/// Rigid body, contacts and load in the form the solvers use.
/// Generalised coordinates q = (x, y, theta), mass matrix M = diag(m, m, m rho^2).
typedef struct kinematics_model {
  int n;  ///< contacts (1 or 2)
  double mass, rho;
  double inv_mass[3];               ///< diagonal of M^-1
  double mass_diag[3];              ///< diagonal of M (products instead of divisions by inv_mass)
  double h[3];                      ///< generalised applied force (f_ex, tau) [force, force*length]
  double p[ZENO_PAIR_CONTACTS][2];  ///< contact vertices, body frame [length]
  double tan_[ZENO_PAIR_CONTACTS][2];  ///< surface tangents t_i, world frame
  double nrm[ZENO_PAIR_CONTACTS][2];   ///< surface normals n_i = J t_i
  double s[ZENO_PAIR_CONTACTS][2];     ///< a point of each surface line, world frame
  double mu[ZENO_PAIR_CONTACTS];
  /// ZOD Jacobian: gap z_i = W0[.][2i] . q, slip x_i = W0[.][2i+1] . q.
  double W0[3][4];
  /// q' = A q with rows (z1, z2, x2) (two contacts) or (z1, x1, theta) (one).
  double A[3][3], Ainv[3][3];
  /// Contact coordinates as functions of q': c_a = sum_r Cp[r][a] q'_r.
  /// The columns of the coordinates that make up q' are exact unit
  /// vectors, so gaps carry no rounding from large slips (e.g. x2).
  double Cp[3][4];
  double force_scale;   ///< |f_ex| + |tau| / rho, or m if both vanish [force]
  double accel_scale;   ///< force_scale / m [length/time^2]
  double length_scale;  ///< max(rho, |p_i|) [length]
  /// The impulse that changes the most mobile contact velocity by one unit
  /// of velocity: 1 / max_a D_aa of the equilibrium's Delassus matrix D =
  /// W0^T M^-1 W0 [mass]; at most m (by up to 1 + |p|^2 / rho^2). An impulse
  /// below the velocity zero times this cannot change any contact velocity
  /// by as much as that zero.
  double contact_mass;
} kinematics_model;

/// The wrenches (f_x, f_y, torque about the centre of mass) of a unit
/// normal and a unit tangential force at a contact point (relative to the
/// centre of mass) on a surface of tangent angle phi: t = (cos, sin) phi,
/// n = J t. They are also the ZOD's Jacobian columns of the contact's gap
/// and slip (z = n . q, x = t . q for q = (x, y, theta)).
void contact_wrenches(const double point[2], double surface_angle, double normal[3],
                      double tangent[3]);

/// Builds the model of a validated scene. Fails with ZENO_ERR_GEOMETRY when
/// the q' coordinates are undefined (the normal at contact 1 passes through
/// contact 2, so z1, z2, x2 do not fix the pose).
zeno_status kinematics_model_init(kinematics_model *km, const zeno_scene *scene, zeno_error *e);

/// Exact contact coordinates at pose q (full model), ordered (z1, x1, z2, x2):
/// gap and slip of vertex r_i = r_c + R(theta) p_i relative to the surface
/// point, along n_i and t_i; rates from qdot.
void kinematics_full_contacts(const kinematics_model *km, const double q[3], const double qd[3],
                              double c[4], double cd[4]);

/// One contact's exact coordinates (gap, slip) and rates at pose q: vertex
/// p (body frame, from the centre of mass), a point sp of its surface line,
/// the line's normal and tangent (any number of contacts; the two-contact
/// kinematics_full_contacts calls it per contact).
void kinematics_contact_full(const double p[2], const double sp[2], const double nrm[2],
                             const double tan[2], const double q[3], const double qd[3],
                             double c[2], double cd[2]);
/// One contact's Jacobian columns at pose q (col[0]: the gap's, col[1]:
/// the slip's, as generalised 3-vectors) and its centripetal terms.
void kinematics_contact_jacobian(const double p[2], const double nrm[2], const double tan[2],
                                 const double q[3], const double qd[3], double col[2][3],
                                 double bias[2]);

/// Jacobian at pose q: column 2i maps qdot to zdot_i, column 2i+1 to xdot_i.
/// Also the velocity-dependent contact accelerations (centripetal terms):
/// bias[2i] = -thetadot^2 n_i . R p_i and bias[2i+1] = -thetadot^2 t_i . R p_i.
void kinematics_full_jacobian(const kinematics_model *km, const double q[3], const double qd[3],
                              double W[3][4], double bias[4]);

/// Contact coordinates (z1, x1, z2, x2) and rates from q', qdot' under the ZOD.
void kinematics_zod_prime_contacts(const kinematics_model *km, const double qp[3],
                                   const double qdp[3], double c[4], double cd[4]);

/// y = A x (generalised -> ZOD coordinates) and x = A^-1 y.
void kinematics_gen_to_zod(const kinematics_model *km, const double x[3], double y[3]);
void kinematics_zod_to_gen(const kinematics_model *km, const double y[3], double x[3]);

/// Kinetic energy plus the potential of the constant load [energy].
double kinematics_energy(const kinematics_model *km, const double q[3], const double qd[3]);
/// The same of a body of diagonal M^-1 `inv_mass` under the generalised
/// load h, at pose q and rate qd (any number of contacts).
double kinematics_body_energy(const double inv_mass[3], const double h[3], const double q[3],
                              const double qd[3]);

#endif
