// The impact law's data on the flat kernel (sim_kernel_law.c): each
// impact context's preference list of candidates, their checks as rows on
// the contact rates, and its double stick as rows on qdot'. Shared with
// the kernel's four-lane cycles (sim_kernel4.c), which read the same rows.
// Not public API.
#ifndef ZENO_SIM_SIM_KERNEL_LAW_H
#define ZENO_SIM_SIM_KERNEL_LAW_H

#include <stdbool.h>

#include "sim/sim_table.h"

/// Candidates of an impact context: 3 per touching contact, the double
/// stick and 8 pairs.
#define KERNEL_CANDIDATES 15
/// Checks of a candidate: per contact a normal impulse and a cone (two
/// rows), or a rate.
#define KERNEL_CHECKS 6

/// One candidate of the law's preference list (impact.c's
/// resolve_complementarity) with its letters' map folded into rows on the
/// contact rates before the impact (the targets b = B cd, B the law's
/// restitution on approaching normals): the checks read one row each.
typedef struct kcand {
  unsigned char letter[2];
  unsigned char mask;
  bool stick2;  ///< both sticking: its own test (double_stick)
  /// Its checks in impact.c's order (impulses, then rates), each one row
  /// r on the rates: r cd > tol_v where bit k of `strict` is set (a
  /// pressing normal impulse), else r cd >= -tol_v. Impulse rows are
  /// divided by the mass (the impulse threshold is tol_v times it); a
  /// sticking contact's |x_t| <= mu x_n is two rows, mu x_n -+ x_t.
  int checks;
  unsigned char strict;
  double row[KERNEL_CHECKS][4];
  double G[3][4];  ///< qdot' change AMW x, as rows on the rates
} kcand;

/// Cone slacks of two contacts (contact_static_family's pieces).
#define KERNEL_SLACKS 6
/// Crossings of a rising with a falling slack: at most 3 x 3.
#define KERNEL_STICK_PAIRS 9

/// The double stick of a context (impact.c's double_stick) as rows on
/// qdot' before the impact: the stick's consistency residual, the family of
/// impulses x0 + s k balancing it, and its cone slacks g0 + g1 s, whose
/// smallest is maximised where a rising and a falling one cross
/// (contact_static_family_mapped's peak, the pairs and their divisors made once).
typedef struct kstick {
  bool ok;                         ///< the maps are regular
  bool bounded;                    ///< some slack rises and another falls
  double vrow[3];                  ///< residual velocity of the skipped row
  double X0[4][3];                 ///< x0 = X0 qdot'
  double G0[KERNEL_SLACKS][3];     ///< g0 = G0 qdot'
  double g1[KERNEL_SLACKS], k[4];  ///< slopes of the slacks; the family's direction
  double AX0[3][3], Ak[3];         ///< qdot' change: AX0 qdot' + s Ak
  int pairs;
  unsigned char rise[KERNEL_STICK_PAIRS], fall[KERNEL_STICK_PAIRS];
  double inv[KERNEL_STICK_PAIRS];  ///< 1 / (g1[rise] - g1[fall])
  int flats;
  unsigned char flat[KERNEL_SLACKS];  ///< slacks constant along the family
} kstick;

/// The candidates of one context (which contacts touch, which approach):
/// its preference list of letters, each candidate made when the law first
/// reaches it (a short run never pays for the candidates after its
/// impacts' outcomes).
struct sim_kernel_context {
  int count;
  /// Its letters (S S: the double stick, the only candidate sticking at both).
  unsigned char letters[KERNEL_CANDIDATES][2];
  unsigned char state[KERNEL_CANDIDATES];  ///< 0 not made, 1 made, 2 singular (never passes)
  kcand cand[KERNEL_CANDIDATES];
  bool touching[2], impacting[2];
  double e, B[4];  ///< the restitution; its targets' factors
  kstick stick;
};

/// Swaps checks j and k of a candidate (with their strictness): the check
/// that failed goes first, where the next state most often meets it at
/// once (the order changes the cost, never the result).
void sim_kernel_swap_checks(kcand *c, int j, int k);

#endif
