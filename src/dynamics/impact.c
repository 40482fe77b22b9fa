// The impact laws (impact.h): the inelastic law (15) over its preference
// list of candidates, Newton restitution with Coulomb friction, and
// Chatterjee-Ruina for single impacts.
#include "dynamics/impact.h"
#include "dynamics/friction_cone.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "zeno/impact_law.h"

// Restitution target: y = v + DΛ + shift must vanish (or be >= 0) in the
// normal direction, where shift = e v_n for contacts that were approaching.
static void shifted_velocity(const contact_dyn *d, const impact_input *in, double b[4],
                             double shift[4]) {
  for (int a = 0; a < 4; a++) b[a] = shift[a] = 0;
  for (int i = 0; i < d->n; i++) {
    shift[2 * i] = in->impacting[i] ? in->e * in->v[2 * i] : 0.0;
    b[2 * i] = in->v[2 * i] + shift[2 * i];
    b[2 * i + 1] = in->v[2 * i + 1];
  }
}

static void finish(const contact_dyn *d, const impact_input *in, const double x[4], unsigned mask,
                   const unsigned char letter[2], impact_result *out) {
  memset(out, 0, sizeof *out);
  out->mask = mask;
  for (int i = 0; i < ZENO_PAIR_CONTACTS; i++) out->letter[i] = letter[i];
  for (int a = 0; a < 4; a++) out->impulse[a] = x[a];
  const double zero[3] = {0, 0, 0};
  double dqd[3];
  contact_generalized(d, zero, x, dqd);
  for (int k = 0; k < 3; k++) out->qd[k] = in->qd[k] + dqd[k];
  for (int a = 0; a < 2 * d->n; a++) {
    double s = in->v[a];
    for (int b = 0; b < 2 * d->n; b++) s += d->D[a][b] * x[b];
    out->v[a] = s;
  }
}

// Complementarity checks of one candidate's impulses x: positive normal
// impulse at every contact with a letter, inside the cone when it sticks.
// The first violation and its contact.
static zeno_refusal impulse_violation(const contact_dyn *d, const impact_input *in,
                                      const unsigned char letter[2], const double x[4],
                                      int *contact) {
  for (int i = 0; i < d->n; i++) {
    const double xn = x[2 * i], xt = x[2 * i + 1];
    *contact = i;
    switch (letter[i]) {
      case ZENO_LETTER_F: break;
      case ZENO_LETTER_S:
        if (!(xn > in->tol_impulse)) return ZENO_REFUSAL_NORMAL;
        if (!friction_cone_holds(d->mu[i], xn, xt, in->tol_impulse)) return ZENO_REFUSAL_CONE;
        break;
      case ZENO_LETTER_P:
      case ZENO_LETTER_N:
        if (!(xn > in->tol_impulse)) return ZENO_REFUSAL_NORMAL;
        break;
      default: return ZENO_REFUSAL_KINEMATICS;
    }
  }
  *contact = -1;
  return ZENO_REFUSAL_NONE;
}

static bool impulses_ok(const contact_dyn *d, const impact_input *in, const unsigned char letter[2],
                        const double x[4]) {
  int contact;
  return impulse_violation(d, in, letter, x, &contact) == ZENO_REFUSAL_NONE;
}

// ... and of its post-impact contact velocities y: no touching free
// contact driven in, the slip of a slipping contact in its direction.
static zeno_refusal rate_violation(const contact_dyn *d, const impact_input *in,
                                   const unsigned char letter[2], const double y[4], int *contact) {
  for (int i = 0; i < d->n; i++) {
    const double yn = y[2 * i], yt = y[2 * i + 1];
    *contact = i;
    if (letter[i] == ZENO_LETTER_F && in->touching[i] && yn < -in->tol_v)
      return ZENO_REFUSAL_PENETRATION;
    if (letter[i] == ZENO_LETTER_P && yt < -in->tol_v) return ZENO_REFUSAL_SLIP;
    if (letter[i] == ZENO_LETTER_N && yt > in->tol_v) return ZENO_REFUSAL_SLIP;
  }
  *contact = -1;
  return ZENO_REFUSAL_NONE;
}

static bool rates_ok(const contact_dyn *d, const impact_input *in, const unsigned char letter[2],
                     const double y[4]) {
  int contact;
  return rate_violation(d, in, letter, y, &contact) == ZENO_REFUSAL_NONE;
}

static double row_dot(const double r[4], const double b[4]) {
  return r[0] * b[0] + r[1] * b[1] + r[2] * b[2] + r[3] * b[3];
}

// One candidate (letters with impulse where not F) for the targets b:
// solved and checked. Through its letters' map, when made, only what the
// checks read is formed, impulses first (most candidates of the preference
// list fail there): a free contact's impulse rows are zero, and of the
// velocities only a touching free contact's normal and a slipping one's
// slip are read (the rest of y is left zero).
static bool try_candidate(const contact_dyn *d, const impact_input *in, const double b[4],
                          const unsigned char letter[2], double x[4], double y[4]) {
  const contact_letter_maps *m = in->maps;
  const int code = letter[0] + 4 * letter[1];
  if (m == NULL || m->state[code] != 1)
    return contact_solve_mapped(d, in->maps, b, letter, x, y) && impulses_ok(d, in, letter, x) &&
           rates_ok(d, in, letter, y);
  for (int a = 0; a < 4; a++) x[a] = y[a] = 0;
  for (int i = 0; i < d->n; i++)
    if (letter[i] != ZENO_LETTER_F) {
      x[2 * i] = row_dot(m->X[code][2 * i], b);
      x[2 * i + 1] = row_dot(m->X[code][2 * i + 1], b);
    }
  if (!impulses_ok(d, in, letter, x)) return false;
  for (int i = 0; i < d->n; i++) {
    if (letter[i] == ZENO_LETTER_F && in->touching[i]) y[2 * i] = row_dot(m->Y[code][2 * i], b);
    if (letter[i] == ZENO_LETTER_P || letter[i] == ZENO_LETTER_N)
      y[2 * i + 1] = row_dot(m->Y[code][2 * i + 1], b);
  }
  return rates_ok(d, in, letter, y);
}

// The target left out when both contacts stick: the column of W whose
// other three are best conditioned (largest |det|); -1 when none is
// regular.
static int stick_skip(const contact_dyn *d) {
  double best = 0;
  int skip = -1;
  for (int s = 0; s < 4; s++) {
    int r[3], n = 0;
    for (int a = 0; a < 4; a++)
      if (a != s) r[n++] = a;
    const double(*W)[4] = d->W;
    double det = W[0][r[0]] * (W[1][r[1]] * W[2][r[2]] - W[2][r[1]] * W[1][r[2]]) -
                 W[1][r[0]] * (W[0][r[1]] * W[2][r[2]] - W[2][r[1]] * W[0][r[2]]) +
                 W[2][r[0]] * (W[0][r[1]] * W[1][r[2]] - W[1][r[1]] * W[0][r[2]]);
    if (fabs(det) > best) {
      best = fabs(det);
      skip = s;
    }
  }
  return skip;
}

// qdot+ with the kept contact velocity targets t (in column order, the
// skipped one left out): W_kept^T qdot+ = t. False when singular.
static bool stick_solve(const contact_dyn *d, int skip, double t[3]) {
  double A[9];
  int n = 0;
  for (int a = 0; a < 4; a++) {
    if (a == skip) continue;
    for (int k = 0; k < 3; k++) A[n * 3 + k] = d->W[k][a];
    n++;
  }
  return zeno_linsolve(3, A, t, ZENO_PIVOT_RTOL);
}

// The velocity targets -shift of the three kept columns, in column order.
static void stick_targets(const double shift[4], int skip, double t[3]) {
  int n = 0;
  for (int a = 0; a < 4; a++)
    if (a != skip) t[n++] = -shift[a];
}

// qdot+ with both contacts sticking after an impact (targets -shift) from
// three of the four targets; *skip the one left out. Through the maps
// (NULL: solved) under constant dynamics: the column and the map of the
// targets made once.
static bool stick_rates(const contact_dyn *d, contact_letter_maps *maps, const double shift[4],
                        double t[3], int *skip) {
  if (maps == NULL) {
    *skip = stick_skip(d);
    if (*skip < 0) return false;
    stick_targets(shift, *skip, t);
    return stick_solve(d, *skip, t);
  }
  if (maps->stick_state == 0) {
    maps->stick_skip = stick_skip(d);
    bool ok = maps->stick_skip >= 0;
    for (int c = 0; c < 3 && ok; c++) {
      double unit[3] = {0, 0, 0};
      unit[c] = 1;
      ok = stick_solve(d, maps->stick_skip, unit);
      for (int k = 0; k < 3; k++) maps->stick_T[k][c] = ok ? unit[k] : 0;
    }
    maps->stick_state = ok ? 1 : 2;
  }
  if (maps->stick_state != 1) return false;
  *skip = maps->stick_skip;
  double r[3];
  stick_targets(shift, *skip, r);
  for (int k = 0; k < 3; k++)
    t[k] = maps->stick_T[k][0] * r[0] + maps->stick_T[k][1] * r[1] + maps->stick_T[k][2] * r[2];
  return true;
}

void impact_stick_maps_make(const contact_dyn *d, contact_letter_maps *maps) {
  if (d->n < 2) return;
  double t[3];
  int skip;
  const double shift[4] = {0, 0, 0, 0};
  stick_rates(d, maps, shift, t, &skip);  // makes the double stick's map
  const double rhs[3] = {0, 0, 0};
  double x[4], margin;
  contact_static_family_mapped(d, maps, rhs, x, &margin);  // ... and the family's
}

// Both contacts stick: all velocity targets hold, which fixes qdot+ (three
// degrees of freedom, four targets that must be compatible) and leaves a
// one-parameter family of impulses (as for SS statics). ZENO_REFUSAL_NONE
// with the impulses in x, else why not (and at which contact).
static zeno_refusal double_stick(const contact_dyn *d, const impact_input *in,
                                 const double shift[4], double x[4], int *contact) {
  *contact = -1;
  // Target contact velocities T = -shift; three of them fix qdot+.
  double t[3];
  int skip;
  if (!stick_rates(d, in->maps, shift, t, &skip)) return ZENO_REFUSAL_SINGULAR;
  // The skipped target must hold too.
  double vs = 0;
  for (int k = 0; k < 3; k++) vs += d->W[k][skip] * t[k];
  if (fabs(vs + shift[skip]) > in->tol_v) return ZENO_REFUSAL_INCOMPATIBLE;
  // Impulses: W x = M (qdot+ - qdot-).
  double rhs[3];
  for (int k = 0; k < 3; k++) rhs[k] = (t[k] - in->qd[k]) / d->inv_mass[k];
  double margin;
  if (!contact_static_family_mapped(d, in->maps, rhs, x, &margin)) return ZENO_REFUSAL_SINGULAR;
  if (!(margin >= -in->tol_impulse)) return ZENO_REFUSAL_CONE;
  for (int i = 0; i < 2; i++)
    if (!(x[2 * i] > in->tol_impulse)) {
      *contact = i;
      return ZENO_REFUSAL_NORMAL;
    }
  return ZENO_REFUSAL_NONE;
}

static bool resolve_complementarity(const contact_dyn *d, const impact_input *in,
                                    impact_result *out) {
  double b[4], shift[4], x[4], y[4];
  shifted_velocity(d, in, b, shift);
  static const unsigned char slip_order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  // 1. Single impacts, impacting contacts first; sticking before slipping.
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < d->n; i++) {
      if (!in->touching[i] || in->impacting[i] != (pass == 0)) continue;
      for (int k = 0; k < 3; k++) {
        unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
        letter[i] = slip_order[k];
        if (!try_candidate(d, in, b, letter, x, y)) continue;
        finish(d, in, x, 1u << i, letter, out);
        return true;
      }
    }
  }
  if (d->n < 2 || !in->touching[0] || !in->touching[1]) return false;
  // 2. Double impacts: both sticking, then one sticking, then both slipping.
  const unsigned char stick2[2] = {ZENO_LETTER_S, ZENO_LETTER_S};
  int contact;
  if (double_stick(d, in, shift, x, &contact) == ZENO_REFUSAL_NONE) {
    finish(d, in, x, 3u, stick2, out);
    return true;
  }
  static const unsigned char pairs[8][2] = {
      {ZENO_LETTER_S, ZENO_LETTER_P}, {ZENO_LETTER_S, ZENO_LETTER_N},
      {ZENO_LETTER_P, ZENO_LETTER_S}, {ZENO_LETTER_N, ZENO_LETTER_S},
      {ZENO_LETTER_P, ZENO_LETTER_P}, {ZENO_LETTER_P, ZENO_LETTER_N},
      {ZENO_LETTER_N, ZENO_LETTER_P}, {ZENO_LETTER_N, ZENO_LETTER_N}};
  for (int k = 0; k < 8; k++) {
    if (!try_candidate(d, in, b, pairs[k], x, y)) continue;
    finish(d, in, x, 3u, pairs[k], out);
    return true;
  }
  return false;
}

unsigned char impact_chatterjee_ruina(double mu, double e, double et, double pn_I, double pn_II,
                                      double pt_II, double *pn, double *pt) {
  double kappa = 1 + et;
  *pn = (1 + e) * pn_I + kappa * (pn_II - pn_I);
  *pt = kappa * pt_II;
  if (friction_cone_holds(mu, *pn, *pt, 0)) return ZENO_LETTER_S;
  // Clipped onto the cone's edge: |kappa pt_II| = mu ((1 + e) pn_I + kappa (pn_II - pn_I)).
  kappa = mu * (1 + e) * pn_I / (fabs(pt_II) - mu * (pn_II - pn_I));
  *pn = (1 + e) * pn_I + kappa * (pn_II - pn_I);
  *pt = kappa * pt_II;
  return *pt < 0 ? ZENO_LETTER_P : ZENO_LETTER_N;
}

// Chatterjee & Ruina (1998): with P_I the plastic frictionless impulse
// (along the normal, it stops the normal velocity) and P_II the plastic
// sticking impulse (it stops the contact), the candidate is
//   P = (1 + e) P_I + (1 + e_t) (P_II - P_I);
// outside the friction cone the second coefficient is lowered to kappa, which
// puts P on the cone's edge. P_I and P_II - P_I are orthogonal in the metric
// of the Delassus matrix D (n . D (P_II - P_I) = 0), so for e, e_t in
// [-1, 1] the kinetic energy never grows. (Scaling the normal and
// tangential components of P_II instead, as an earlier version did, is not
// D-orthogonal: an off-centre impact, Example 2's contact 1, doubled its
// kinetic energy at e = 0.8.)
static bool resolve_chatterjee_ruina(const contact_dyn *d, const impact_input *in,
                                     impact_result *out) {
  const int i = impact_single_contact(in->impacting, d->n);
  if (i < 0) return false;
  unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
  letter[i] = ZENO_LETTER_S;
  double x[4], y[4];
  if (!contact_solve_mapped(d, in->maps, in->v, letter, x, y)) return false;
  const int n = 2 * i, t = n + 1;
  if (!(d->D[n][n] > 0)) return false;
  const double pn_I = -in->v[n] / d->D[n][n];  // frictionless plastic: normal only
  const double pn_II = x[n], pt_II = x[t];     // sticking plastic
  double pn, pt;
  letter[i] = impact_chatterjee_ruina(d->mu[i], in->e, in->et, pn_I, pn_II, pt_II, &pn, &pt);
  double xx[4] = {0, 0, 0, 0};
  xx[2 * i] = pn;
  xx[2 * i + 1] = pt;
  finish(d, in, xx, 1u << i, letter, out);
  const int j = 1 - i;
  if (d->n == 2 && in->touching[j] && out->v[2 * j] < -in->tol_v) return false;
  return true;
}

/// Kinetic energy an impulse gains above rounding, relative to the terms it
/// is made of (|P . v-|): below, the impact dissipated or kept it.
#define IMPACT_ENERGY_RTOL 1e-12

// Change of kinetic energy by the impulse x in contact space:
// x . (v- + D x / 2).
bool impact_adds_energy(int m, const double *D, int stride, const double *v, const double *x) {
  double change = 0, size = 0;
  for (int a = 0; a < m; a++) {
    double dx = 0;
    for (int b = 0; b < m; b++) dx += D[a * stride + b] * x[b];
    change += x[a] * (v[a] + 0.5 * dx);
    size += fabs(x[a] * v[a]);
  }
  return change > IMPACT_ENERGY_RTOL * size;
}

int impact_single_contact(const bool *impacting, int n) {
  int i = -1, count = 0;
  for (int c = 0; c < n; c++)
    if (impacting[c]) {
      i = c;
      count++;
    }
  return count == 1 ? i : -1;
}

// The complementarity laws (15) with their restitution target: the
// inelastic law's is 0 (zeno_impact_law_info.restitution).
static impact_input complementarity_input(const impact_input *in) {
  impact_input eff = *in;
  if (!zeno_impact_law_info_of(in->law).restitution) eff.e = 0;
  return eff;
}

// Why the complementarity law refuses the candidate with these letters (F:
// no impulse), and at which contact.
static zeno_refusal candidate_refusal(const contact_dyn *d, const impact_input *in,
                                      const double b[4], const unsigned char letter[2],
                                      int *contact) {
  double x[4], y[4];
  *contact = -1;
  if (!contact_solve_mapped(d, NULL, b, letter, x, y)) return ZENO_REFUSAL_SINGULAR;
  const zeno_refusal r = impulse_violation(d, in, letter, x, contact);
  return r != ZENO_REFUSAL_NONE ? r : rate_violation(d, in, letter, y, contact);
}

static void note_refusal(refusal_table *r, const unsigned char letter[2], zeno_refusal why,
                         int contact) {
  const int code = letter[0] + 4 * letter[1];
  r->refusal[code] = (unsigned char)why;
  r->contact[code] = (signed char)contact;
}

void impact_explain(const contact_dyn *d, const impact_input *in, refusal_table *out) {
  memset(out, 0, sizeof *out);
  impact_input eff = complementarity_input(in);
  eff.maps = NULL;
  double b[4], shift[4], x[4];
  shifted_velocity(d, &eff, b, shift);
  static const unsigned char slip_order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  int contact;
  for (int i = 0; i < d->n; i++) {
    if (!in->touching[i]) continue;
    for (int k = 0; k < 3; k++) {
      unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
      letter[i] = slip_order[k];
      const zeno_refusal why = candidate_refusal(d, &eff, b, letter, &contact);
      note_refusal(out, letter, why, contact);
    }
  }
  if (d->n < 2 || !in->touching[0] || !in->touching[1]) return;
  for (int l0 = 0; l0 < 3; l0++)
    for (int l1 = 0; l1 < 3; l1++) {
      const unsigned char letter[2] = {slip_order[l0], slip_order[l1]};
      const zeno_refusal why = l0 == 0 && l1 == 0 ? double_stick(d, &eff, shift, x, &contact)
                                                  : candidate_refusal(d, &eff, b, letter, &contact);
      note_refusal(out, letter, why, contact);
    }
}

bool impact_resolve(const contact_dyn *d, const impact_input *in, impact_result *out) {
  impact_input eff = complementarity_input(in);
  switch (in->law) {
    case ZENO_LAW_INELASTIC:
    case ZENO_LAW_NEWTON: return resolve_complementarity(d, &eff, out);
    case ZENO_LAW_CHATTERJEE_RUINA:
      // Its own rule for single impacts; Newton's complementarity for
      // double impacts (and a single impact that would drive the other,
      // touching, contact in), or the plastic one (e = 0) where that would
      // add energy: the law never does.
      if (resolve_chatterjee_ruina(d, in, out)) return true;
      if (!resolve_complementarity(d, &eff, out)) return false;
      if (!impact_adds_energy(2 * d->n, &d->D[0][0], 4, in->v, out->impulse)) return true;
      eff.e = 0;
      return resolve_complementarity(d, &eff, out);
  }
  return false;
}
