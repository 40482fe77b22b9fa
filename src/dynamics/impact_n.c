// Impact laws for N contacts (impact_n.h). The candidates' order, the
// rule that reduces to impact.c's for two contacts:
//   1. single impacts: the impacting contacts first, then the touching
//      ones, each by index, each sticking (S) before slipping (P, N);
//   2. then by the number of contacts with an impulse, fewest first; among
//      candidates of as many, the most sticking first, then the lowest mask
//      of contacts with an impulse, then the letters compared contact by
//      contact (S < P < N).
// For two contacts step 2 is impact.c's list: SS, SP, SN, PS, NS, PP, PN,
// NP, NN.
#include "dynamics/impact_n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/friction_cone.h"
#include "dynamics/impact.h"
#include "dynamics/lp.h"

#define MAXC MODE_N_MAX_CONTACTS
#define MAXV (2 * MODE_N_MAX_CONTACTS)

/// Touching contacts whose every letter combination is enumerated at most
/// (4^8 = IMPACT_N_MAX_CANDIDATES candidates).
#define IMPACT_N_MAX_TOUCHING 8

/// The LP of a redundant candidate caps its margin at this many impulse
/// units (the largest target speed over the most mobile contact's
/// mobility): a margin that large is an unbounded family, and the cap
/// keeps the LP bounded.
#define IMPACT_N_MARGIN_CAP 1e6

void impact_n_dyn_build(const mode_n_dyn *d, impact_n_dyn *out) {
  out->d = d;
  const int m = 2 * d->n;
  for (int a = 0; a < m; a++)
    for (int b = 0; b < m; b++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += d->W[k][a] * d->inv_mass[k] * d->W[k][b];
      out->D[a][b] = s;
    }
}

bool contact_n_independent(double rows[][3], int k) {
  double G[9], rhs[3] = {0, 0, 0};
  for (int r = 0; r < k; r++)
    for (int c = 0; c < k; c++)
      G[r * k + c] = rows[r][0] * rows[c][0] + rows[r][1] * rows[c][1] + rows[r][2] * rows[c][2];
  return zeno_linsolve(k, G, rhs, ZENO_PIVOT_RTOL);
}

int contact_n_correct(const mode_n_dyn *d, const int *cols, int count, const double *target,
                      double v[3]) {
  int use[3], k = 0;
  double rows[3][3];
  for (int a = 0; a < count && k < 3; a++) {  // an independent subset, in order
    for (int j = 0; j < 3; j++) rows[k][j] = d->W[j][cols[a]] * sqrt(d->inv_mass[j]);
    if (contact_n_independent(rows, k + 1)) use[k++] = a;
  }
  if (k == 0) return 0;
  double G[9], r[3];
  for (int a = 0; a < k; a++) {
    const int ca = cols[use[a]];
    double cur = 0;
    for (int j = 0; j < 3; j++) cur += d->W[j][ca] * v[j];
    r[a] = target[use[a]] - cur;
    for (int c = 0; c < k; c++) {
      double g = 0;
      for (int j = 0; j < 3; j++) g += d->W[j][ca] * d->inv_mass[j] * d->W[j][cols[use[c]]];
      G[a * k + c] = g;
    }
  }
  if (!zeno_linsolve(k, G, r, ZENO_PIVOT_RTOL)) return 0;
  for (int j = 0; j < 3; j++) {
    double dv = 0;
    for (int a = 0; a < k; a++) dv += d->W[j][cols[use[a]]] * r[a];
    v[j] += d->inv_mass[j] * dv;
  }
  return k;
}

/// One candidate: letters of every contact (F for no impulse).
typedef struct candidate {
  unsigned char letter[MAXC];
  unsigned mask;
  int stick;
} candidate;

// The restitution targets: b = v + shift with shift_n = e v_n at the
// impacting contacts, so that y = b + D x is zero where the target holds.
static void targets(const impact_n_dyn *dn, const impact_n_input *in, double e, double b[MAXV]) {
  for (int i = 0; i < dn->d->n; i++) {
    b[2 * i] = in->v[2 * i] + (in->impacting[i] ? e * in->v[2 * i] : 0.0);
    b[2 * i + 1] = in->v[2 * i + 1];
  }
}

// Contact coordinate a's rate at the generalised velocity qd: W_a . qd.
static double contact_rate(const mode_n_dyn *d, int a, const double qd[3]) {
  return d->W[0][a] * qd[0] + d->W[1][a] * qd[1] + d->W[2][a] * qd[2];
}

static void finish(const impact_n_dyn *dn, const impact_n_input *in, const double x[MAXV],
                   const unsigned char letter[MAXC], impact_n_result *out) {
  const mode_n_dyn *d = dn->d;
  const int m = 2 * d->n;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < d->n; i++) {
    out->letter[i] = letter[i];
    if (letter[i] != ZENO_LETTER_F) out->mask |= 1u << i;
  }
  memcpy(out->impulse, x, sizeof(double) * (size_t)m);
  for (int k = 0; k < 3; k++) {
    double s = 0;
    for (int a = 0; a < m; a++) s += d->W[k][a] * x[a];
    out->qd[k] = in->qd[k] + d->inv_mass[k] * s;
  }
  for (int a = 0; a < m; a++) {
    double s = in->v[a];
    for (int b = 0; b < m; b++) s += dn->D[a][b] * x[b];
    out->v[a] = s;
  }
}

// impact.c's checks: a positive normal impulse at every contact with a
// letter, inside the cone when it sticks; no touching free contact driven
// in, a slipping contact's slip in its direction.
// A redundant candidate's velocities: the LP's impulses meet the targets
// to the velocity zero only; the targets fix qdot+ (the two-contact double
// stick's rule), so it is projected onto them exactly.
static void exact_targets(const impact_n_dyn *dn, const impact_n_input *in, double e_target,
                          const unsigned char *letter, impact_n_result *out) {
  const mode_n_dyn *d = dn->d;
  int cols[MAXV], m = 0;
  double target[MAXV];
  for (int i = 0; i < d->n; i++) {
    if (letter[i] == ZENO_LETTER_F) continue;
    cols[m] = 2 * i;
    target[m++] = in->impacting[i] ? -e_target * in->v[2 * i] : 0.0;
    if (letter[i] == ZENO_LETTER_S) {
      cols[m] = 2 * i + 1;
      target[m++] = 0;
    }
  }
  contact_n_correct(d, cols, m, target, out->qd);
  for (int a = 0; a < 2 * d->n; a++) out->v[a] = contact_rate(d, a, out->qd);
}

static bool candidate_ok(const impact_n_dyn *dn, const impact_n_input *in,
                         const unsigned char *letter, const double x[MAXV], const double b[MAXV]) {
  const mode_n_dyn *d = dn->d;
  const int m = 2 * d->n;
  for (int i = 0; i < d->n; i++) {
    if (letter[i] == ZENO_LETTER_F) continue;
    if (!(x[2 * i] > in->tol_impulse)) return false;
    if (letter[i] == ZENO_LETTER_S &&
        !friction_cone_holds(d->mu[i], x[2 * i], x[2 * i + 1], in->tol_impulse))
      return false;
  }
  for (int i = 0; i < d->n; i++) {
    const bool free_touching = letter[i] == ZENO_LETTER_F && in->touching[i];
    const bool slipping = letter[i] == ZENO_LETTER_P || letter[i] == ZENO_LETTER_N;
    if (!free_touching && !slipping) continue;
    const int a = free_touching ? 2 * i : 2 * i + 1;
    double y = b[a];
    for (int c = 0; c < m; c++) y += dn->D[a][c] * x[c];
    if (free_touching && y < -in->tol_v) return false;
    if (letter[i] == ZENO_LETTER_P && y < -in->tol_v) return false;
    if (letter[i] == ZENO_LETTER_N && y > in->tol_v) return false;
  }
  return true;
}

// A row of the redundant candidate's LP over the impulses of the contacts
// with a letter: y_a = b_a + sum D[a][.] x within [lo, hi] of zero.
static void velocity_row(lp_problem *lp, int row, const impact_n_dyn *dn, const double b[MAXV],
                         int a, const int *col, int k, lp_bound kind, double lo, double hi) {
  for (int v = 0; v < k; v++) lp->a[row * lp->stride + v] = dn->D[a][col[v]];
  lp->row_kind[row] = kind;
  lp->row_lo[row] = lo - b[a];
  lp->row_hi[row] = hi - b[a];
}

// Redundant contacts: the equalities fix the velocities, not the impulses;
// the max-margin member of the family (normal impulses and cone slacks
// over |(mu, 1)| at least s, maximised), with the velocity targets and the
// checks to the velocity zero. *ok when the LP's point meets them. The LP
// is solved in units of the largest target speed (impulses per unit of
// it), so that its data are of order one however small the impact.
static zeno_status solve_family(const impact_n_dyn *dn, const impact_n_input *in,
                                const double b_raw[MAXV], const candidate *c, double x[MAXV],
                                bool *ok, zeno_error *e) {
  const mode_n_dyn *d = dn->d;
  *ok = false;
  int col[MAXV], k = 0;
  for (int i = 0; i < d->n; i++)
    if (c->letter[i] != ZENO_LETTER_F) {
      col[k++] = 2 * i;
      col[k++] = 2 * i + 1;
    }
  double speed = 0, mobility = 0, b[MAXV];
  for (int a = 0; a < 2 * d->n; a++) {
    speed = fmax(speed, fabs(b_raw[a]));
    mobility = fmax(mobility, dn->D[a][a]);
  }
  if (!(speed > 0) || !(mobility > 0)) return ZENO_OK;  // nothing to stop: no impulse
  for (int a = 0; a < 2 * d->n; a++) b[a] = b_raw[a] / speed;
  const int s = k, rows = 6 * d->n;
  lp_problem lp;
  zeno_status st = lp_problem_create(&lp, rows, k + 1, e);
  if (st != ZENO_OK) return st;
  int row = 0;
  const double tv = in->tol_v / speed;
  const lp_bound band = tv > 0 ? LP_RANGE : LP_FIXED;  // a velocity target to its zero
  for (int u = 0; u < k; u += 2) {
    const int i = col[u] / 2;
    velocity_row(&lp, row++, dn, b, 2 * i, col, k, band, -tv, tv);
    double *n_row = lp.a + row * lp.stride;  // n - s >= 0
    n_row[u] = 1;
    n_row[s] = -1;
    lp.row_kind[row] = LP_LOWER;
    lp.row_lo[row++] = 0;
    if (c->letter[i] == ZENO_LETTER_S) {
      velocity_row(&lp, row++, dn, b, 2 * i + 1, col, k, band, -tv, tv);
      const double norm = friction_cone_norm(d->mu[i]);
      for (int side = -1; side <= 1; side += 2) {  // (mu n -+ t) / |(mu, 1)| - s >= 0
        double *cone = lp.a + row * lp.stride;
        cone[u] = d->mu[i] / norm;
        cone[u + 1] = side / norm;
        cone[s] = -1;
        lp.row_kind[row] = LP_LOWER;
        lp.row_lo[row++] = 0;
      }
    } else {
      double *edge = lp.a + row * lp.stride;  // t -+ mu n = 0
      edge[u + 1] = 1;
      edge[u] = c->letter[i] == ZENO_LETTER_P ? d->mu[i] : -d->mu[i];
      lp.row_kind[row] = LP_FIXED;
      lp.row_lo[row] = lp.row_hi[row] = 0;
      row++;
      const bool pos = c->letter[i] == ZENO_LETTER_P;
      velocity_row(&lp, row++, dn, b, 2 * i + 1, col, k, pos ? LP_LOWER : LP_UPPER, pos ? -tv : 0,
                   pos ? 0 : tv);
    }
  }
  for (int i = 0; i < d->n; i++)
    if (c->letter[i] == ZENO_LETTER_F && in->touching[i])
      velocity_row(&lp, row++, dn, b, 2 * i, col, k, LP_LOWER, -tv, 0);
  lp.rows = row;
  lp.col_kind[s] = LP_UPPER;
  lp.col_hi[s] = IMPACT_N_MARGIN_CAP / mobility;
  lp.obj[s] = 1;
  double sol[MAXV + 1];
  lp_outcome outc;
  st = lp_problem_solve(&lp, &outc, sol, e);
  lp_problem_destroy(&lp);
  if (st != ZENO_OK) return st;
  *ok = outc.status == LP_OPTIMAL && outc.violation <= LP_CERTIFIED_RTOL &&
        sol[s] * speed >= -in->tol_impulse;
  memset(x, 0, sizeof(double) * (size_t)(2 * d->n));
  for (int u = 0; u < k; u++) x[col[u]] = sol[u] * speed;
  return ZENO_OK;
}

/// A redundant candidate whose letters fix the body well (their Gram
/// determinant at least this fraction of its scale: a condition number of
/// tens) is refused before its LP when its one velocity after misses a
/// target, drives a touching free contact in, or slips against its letter
/// by more than this many velocity zeros: the LP's velocity bands (one zero
/// wide) cannot move a well-conditioned qdot+ that far, so the LP would
/// find it infeasible too.
#define IMPACT_N_PRECHECK_RTOL 1e-3
#define IMPACT_N_PRECHECK_ZEROS 1e3

// Whether the candidate is refused by its velocities alone (see above).
static bool refused_by_velocities(const impact_n_dyn *dn, const impact_n_input *in,
                                  const double b[MAXV], const unsigned char *letter) {
  const mode_n_dyn *d = dn->d;
  if (!mode_n_letters_fix_body(d, letter, IMPACT_N_PRECHECK_RTOL)) return false;
  int cols[MAXV] = {0}, m = 0;
  double target[MAXV] = {0}, qd[3];
  for (int i = 0; i < d->n; i++) {
    if (letter[i] == ZENO_LETTER_F) continue;
    cols[m] = 2 * i;
    target[m++] = in->v[2 * i] - b[2 * i];  // -e v_n at an impacting contact, else 0
    if (letter[i] == ZENO_LETTER_S) {
      cols[m] = 2 * i + 1;
      target[m++] = 0;
    }
  }
  memcpy(qd, in->qd, sizeof qd);
  contact_n_correct(d, cols, m, target, qd);
  const double far = IMPACT_N_PRECHECK_ZEROS * in->tol_v;
  for (int r = 0; r < m; r++) {
    const int a = cols[r];
    const double v = contact_rate(d, a, qd);
    if (fabs(v - target[r]) > far) return true;  // the targets contradict each other
  }
  for (int i = 0; i < d->n; i++) {
    const double vn = contact_rate(d, 2 * i, qd), vt = contact_rate(d, 2 * i + 1, qd);
    if (letter[i] == ZENO_LETTER_F && in->touching[i] && vn < -far) return true;
    if (letter[i] == ZENO_LETTER_P && vt < -far) return true;
    if (letter[i] == ZENO_LETTER_N && vt > far) return true;
  }
  return false;
}

static zeno_status try_candidate(const impact_n_dyn *dn, const impact_n_input *in,
                                 const double b[MAXV], const candidate *c, double x[MAXV], bool *ok,
                                 bool *family, zeno_error *e) {
  *ok = false;
  *family = !mode_n_letter_solve(dn->d->n, &dn->D[0][0], b, dn->d->mu, c->letter, x);
  if (*family && refused_by_velocities(dn, in, b, c->letter)) return ZENO_OK;
  if (*family) {
    const zeno_status st = solve_family(dn, in, b, c, x, ok, e);
    if (st != ZENO_OK || !*ok) return st;
  }
  *ok = candidate_ok(dn, in, c->letter, x, b);
  return ZENO_OK;
}

static int compare_candidates(const void *pa, const void *pb) {
  const candidate *a = pa, *b = pb;
  const int ka = __builtin_popcount(a->mask), kb = __builtin_popcount(b->mask);
  if (ka != kb) return ka < kb ? -1 : 1;
  if (a->stick != b->stick) return a->stick > b->stick ? -1 : 1;
  if (a->mask != b->mask) return a->mask < b->mask ? -1 : 1;
  // Letters contact by contact, S < P < N (zeno_letter's order).
  return memcmp(a->letter, b->letter, sizeof a->letter);
}

// The candidates of two or more impulses in the order of the file's head.
static zeno_status multiple_candidates(const impact_n_input *in, int n, candidate **out, int *count,
                                       zeno_error *e) {
  int touch[MAXC], t = 0;
  for (int i = 0; i < n; i++)
    if (in->touching[i]) touch[t++] = i;
  *out = NULL;
  *count = 0;
  if (t < 2) return ZENO_OK;
  if (t > IMPACT_N_MAX_TOUCHING)
    return zeno_fail(e, ZENO_ERR_UNSUPPORTED, "contacts",
                     "an impact with %d touching contacts: at most %d are resolved", t,
                     IMPACT_N_MAX_TOUCHING);
  const long total = 1L << (2 * t);
  candidate *list = malloc(sizeof *list * (size_t)total);
  if (list == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory for impact candidates");
  int k = 0;
  for (long code = 0; code < total; code++) {
    candidate c = {{0}, 0, 0};
    for (int j = 0; j < t; j++) {
      const unsigned char l = (unsigned char)((code >> (2 * j)) & 3);
      c.letter[touch[j]] = l;
      if (l != ZENO_LETTER_F) c.mask |= 1u << touch[j];
      c.stick += l == ZENO_LETTER_S;
    }
    if (__builtin_popcount(c.mask) >= 2) list[k++] = c;
  }
  qsort(list, (size_t)k, sizeof *list, compare_candidates);
  *out = list;
  *count = k;
  return ZENO_OK;
}

static zeno_status resolve_complementarity(const impact_n_dyn *dn, const impact_n_input *in,
                                           double e_target, impact_n_result *out, bool *resolved,
                                           zeno_error *e) {
  const int n = dn->d->n;
  double b[MAXV], x[MAXV];
  targets(dn, in, e_target, b);
  static const unsigned char slip_order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  *resolved = false;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < n; i++) {
      if (!in->touching[i] || in->impacting[i] != (pass == 0)) continue;
      for (int k = 0; k < 3; k++) {
        candidate c = {{0}, 1u << i, slip_order[k] == ZENO_LETTER_S};
        c.letter[i] = slip_order[k];
        bool ok, family;
        const zeno_status st = try_candidate(dn, in, b, &c, x, &ok, &family, e);
        if (st != ZENO_OK) return st;
        if (!ok) continue;
        finish(dn, in, x, c.letter, out);
        if (family) exact_targets(dn, in, e_target, c.letter, out);
        *resolved = true;
        return ZENO_OK;
      }
    }
  candidate *list;
  int count;
  zeno_status st = multiple_candidates(in, n, &list, &count, e);
  if (st != ZENO_OK) return st;
  for (int k = 0; k < count && !*resolved; k++) {
    bool ok, family;
    st = try_candidate(dn, in, b, &list[k], x, &ok, &family, e);
    if (st != ZENO_OK) break;
    if (!ok) continue;
    finish(dn, in, x, list[k].letter, out);
    if (family) exact_targets(dn, in, e_target, list[k].letter, out);
    *resolved = true;
  }
  free(list);
  return st;
}

// Chatterjee & Ruina for the one impacting contact i (impact.c's rule,
// whose derivation is there): false when it does not apply or drives a
// touching contact in.
static bool chatterjee_ruina(const impact_n_dyn *dn, const impact_n_input *in,
                             impact_n_result *out) {
  const mode_n_dyn *d = dn->d;
  const int i = impact_single_contact(in->impacting, d->n);
  if (i < 0) return false;
  const int n = 2 * i, t = n + 1;
  // Sticking plastic impulse of contact i alone: D_ii x = -v_i.
  const double a = dn->D[n][n], bb = dn->D[n][t], c = dn->D[t][n], dd = dn->D[t][t];
  const double det = a * dd - bb * c;
  if (!(a > 0) || !(fabs(det) > ZENO_PIVOT_RTOL * fmax(a, dd) * fmax(a, dd))) return false;
  const double pn_II = (-in->v[n] * dd + in->v[t] * bb) / det;
  const double pt_II = (-in->v[t] * a + in->v[n] * c) / det;
  const double pn_I = -in->v[n] / a;
  unsigned char letter[MAXC] = {0};
  double pn, pt;
  letter[i] = impact_chatterjee_ruina(d->mu[i], in->e, in->et, pn_I, pn_II, pt_II, &pn, &pt);
  double x[MAXV] = {0};
  x[n] = pn;
  x[t] = pt;
  finish(dn, in, x, letter, out);
  for (int j = 0; j < d->n; j++)
    if (j != i && in->touching[j] && out->v[2 * j] < -in->tol_v) return false;
  return true;
}

zeno_status impact_n_resolve(const impact_n_dyn *dn, const impact_n_input *in, impact_n_result *out,
                             bool *resolved, zeno_error *e) {
  const double e_target = zeno_impact_law_info_of(in->law).restitution ? in->e : 0.0;
  *resolved = false;
  switch (in->law) {
    case ZENO_LAW_INELASTIC:
    case ZENO_LAW_NEWTON: return resolve_complementarity(dn, in, e_target, out, resolved, e);
    case ZENO_LAW_CHATTERJEE_RUINA: {
      if (chatterjee_ruina(dn, in, out)) {
        *resolved = true;
        return ZENO_OK;
      }
      const zeno_status st = resolve_complementarity(dn, in, e_target, out, resolved, e);
      if (st != ZENO_OK || !*resolved ||
          !impact_adds_energy(2 * dn->d->n, &dn->D[0][0], MAXV, in->v, out->impulse))
        return st;
      return resolve_complementarity(dn, in, 0.0, out, resolved, e);
    }
  }
  return ZENO_OK;
}
