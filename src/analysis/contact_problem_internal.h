// Internal helpers on zeno_contact_problem shared by pang_trinkle.c and
// jamming.c: validation, the Delassus matrix and the load's force scale.
#ifndef ZENO_ANALYSIS_CONTACT_PROBLEM_INTERNAL_H
#define ZENO_ANALYSIS_CONTACT_PROBLEM_INTERNAL_H

#include "zeno/contact_problem.h"

/// Checks a problem: non-NULL, min_contacts..2 contacts, finite entries,
/// mu >= 0, inv_mass > 0, and per contact a normal and a tangent whose force
/// parts are independent. Fills e and returns ZENO_ERR_ARGUMENT otherwise.
zeno_status contact_problem_check(const zeno_contact_problem *p, int min_contacts, zeno_error *e);

/// Delassus matrix A = J^T M^-1 J with J = [W_n W_t], rows and columns
/// ordered as in Pang–Trinkle: (n_1 .. n_nc, t_1 .. t_nc).
void contact_problem_delassus(const zeno_contact_problem *p, double A[4][4]);

/// Generalised Jacobian in zeno's column order (n1, t1, n2, t2).
void contact_problem_jacobian(const zeno_contact_problem *p, double W[3][4]);

/// Size of the load: |f| + |tau| / rho with rho^2 = inv_mass[0] /
/// inv_mass[2]; the mass when the load vanishes [force].
double contact_problem_force_scale(const zeno_contact_problem *p);

#endif
