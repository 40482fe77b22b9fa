// Contact-space solves (contact_solve.h): the Delassus system of a letter
// per contact, the statically indeterminate two-contact family, and the
// mass-weighted correction onto contact constraints.
#include "dynamics/contact_solve.h"
#include "dynamics/friction_cone.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

/// A pivot smaller than this fraction of the largest matrix entry means the
/// letter system is singular (e.g. four velocity constraints on three
/// degrees of freedom). Regular systems of this size have pivots near 1e-2
/// of the largest entry or more; 1e-11 leaves room for ill-conditioned but
/// genuine geometries.
#define CONTACT_SINGULAR_RTOL 1e-11

void contact_dyn_build(contact_dyn *d, int n, double W[3][4], const double inv_mass[3],
                       const double h[3], const double bias[4], const double mu[2]) {
  memset(d, 0, sizeof *d);
  d->n = n;
  memcpy(d->W, W, sizeof d->W);
  for (int k = 0; k < 3; k++) {
    d->inv_mass[k] = inv_mass[k];
    d->h[k] = h[k];
  }
  for (int i = 0; i < n; i++) d->mu[i] = mu[i];
  const int m = 2 * n;
  for (int a = 0; a < m; a++) {
    d->bias[a] = bias ? bias[a] : 0.0;
    double af = d->bias[a];
    for (int k = 0; k < 3; k++) af += W[k][a] * inv_mass[k] * h[k];
    d->afree[a] = af;
    for (int b = 0; b < m; b++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += W[k][a] * inv_mass[k] * W[k][b];
      d->D[a][b] = s;
    }
  }
}

// y = b + D x with the letters' equalities exact (contact_solve's last step).
static void letter_rates(const contact_dyn *d, const double b[4], const unsigned char letter[2],
                         const double x[4], double y[4]) {
  const int m = 2 * d->n;
  for (int a = 0; a < 4; a++) {
    double s = a < m ? b[a] : 0;
    for (int j = 0; j < m; j++) s += (a < m ? d->D[a][j] : 0) * x[j];
    y[a] = a < m ? s : 0;
  }
  // Enforce the equalities exactly: they hold to rounding, and callers test
  // signs of the other components only.
  for (int i = 0; i < d->n; i++) {
    if (letter[i] != ZENO_LETTER_F) y[2 * i] = 0;
    if (letter[i] == ZENO_LETTER_S) y[2 * i + 1] = 0;
  }
}

bool contact_solve(const contact_dyn *d, const double b[4], const unsigned char letter[2],
                   double x[4], double y[4]) {
  // Free contacts carry no force (x = 0 on both of their components), so
  // only the closed contacts' unknowns are solved for: a 2x2 system for one
  // closed contact, 4x4 for two.
  int col[4], k = 0;
  for (int i = 0; i < d->n; i++)
    if (letter[i] != ZENO_LETTER_F) col[k++] = 2 * i, col[k++] = 2 * i + 1;
  double A[16], r[4];
  memset(A, 0, sizeof A);
  // Row pair of each closed contact: one equality per unknown; y = b + D x.
  for (int q = 0; q < k; q += 2) {
    const int i = col[q] / 2, rn = q, rt = q + 1;
    const int cn = col[q];
    switch (letter[i]) {
      case ZENO_LETTER_S:
        for (int j = 0; j < k; j++) {
          A[rn * k + j] = d->D[cn][col[j]];
          A[rt * k + j] = d->D[cn + 1][col[j]];
        }
        r[rn] = -b[cn];
        r[rt] = -b[cn + 1];
        break;
      default: {  // P or N: y_n = 0, x_t = -+mu x_n
        const double sgn = letter[i] == ZENO_LETTER_P ? -1.0 : 1.0;
        for (int j = 0; j < k; j++) A[rn * k + j] = d->D[cn][col[j]];
        r[rn] = -b[cn];
        A[rt * k + rt] = 1;
        A[rt * k + rn] = -sgn * d->mu[i];
        r[rt] = 0;
      }
    }
  }
  if (k > 0 && !zeno_linsolve(k, A, r, CONTACT_SINGULAR_RTOL)) return false;
  for (int a = 0; a < 4; a++) x[a] = 0;
  for (int q = 0; q < k; q++) x[col[q]] = r[q];
  letter_rates(d, b, letter, x, y);
  return true;
}

bool contact_letter_map_make(const contact_dyn *d, contact_letter_maps *maps,
                             const unsigned char letter[2]) {
  const int code = letter[0] + 4 * letter[1];
  if (maps->state[code] == 0) {
    bool ok = true;
    for (int c = 0; c < 4 && ok; c++) {
      double unit[4] = {0, 0, 0, 0}, xc[4], yc[4];
      unit[c] = 1;
      ok = contact_solve(d, unit, letter, xc, yc);
      for (int a = 0; a < 4; a++) {
        maps->X[code][a][c] = ok ? xc[a] : 0;
        maps->Y[code][a][c] = ok ? yc[a] : 0;
      }
    }
    maps->state[code] = ok ? 1 : 2;
  }
  return maps->state[code] == 1;
}

bool contact_solve_mapped(const contact_dyn *d, contact_letter_maps *maps, const double b[4],
                          const unsigned char letter[2], double x[4], double y[4]) {
  if (maps == NULL) return contact_solve(d, b, letter, x, y);
  const int code = letter[0] + 4 * letter[1];
  // A map costs four solves: a system is solved as it is the first
  // CONTACT_MAP_AFTER_USES times it is met, and its map made when it comes again
  // (a short run never pays for maps it hardly uses), unless every use is
  // to go through the maps (from_first_use).
  if (maps->state[code] == 0 && !maps->from_first_use &&
      maps->uses[code] < CONTACT_MAP_AFTER_USES) {
    maps->uses[code]++;
    return contact_solve(d, b, letter, x, y);
  }
  if (!contact_letter_map_make(d, maps, letter)) return false;
  for (int a = 0; a < 4; a++) {
    const double *X = maps->X[code][a], *Y = maps->Y[code][a];
    x[a] = X[0] * b[0] + X[1] * b[1] + X[2] * b[2] + X[3] * b[3];
    y[a] = Y[0] * b[0] + Y[1] * b[1] + Y[2] * b[2] + Y[3] * b[3];
  }
  return true;
}

void contact_generalized(const contact_dyn *d, const double r[3], const double x[4],
                         double out[3]) {
  for (int k = 0; k < 3; k++) {
    double s = r[k];
    for (int a = 0; a < 2 * d->n; a++) s += d->W[k][a] * x[a];
    out[k] = d->inv_mass[k] * s;
  }
}

bool contact_correct(double W[3][4], const double inv_mass[3], const int *cols, int m,
                     const double *r, double x[3]) {
  if (m == 0) return true;
  double A[16], y[4];
  for (int a = 0; a < m; a++) {
    y[a] = r[a];
    for (int b = 0; b < m; b++) {
      double sum = 0;
      for (int k = 0; k < 3; k++) sum += W[k][cols[a]] * inv_mass[k] * W[k][cols[b]];
      A[a * m + b] = sum;
    }
  }
  if (!zeno_linsolve(m, A, y, CONTACT_SINGULAR_RTOL)) return false;
  for (int k = 0; k < 3; k++) {
    double dx = 0;
    for (int a = 0; a < m; a++) dx += W[k][cols[a]] * y[a];
    x[k] += inv_mass[k] * dx;
  }
  return true;
}

double contact_cone_slack(const contact_dyn *d, const double x[4], int i) {
  const double mu = d->mu[i], xn = x[2 * i], xt = x[2 * i + 1];
  return fmin(xn, friction_cone_slack(mu, xn, xt) / friction_cone_norm(mu));
}

// Determinant of the 3x3 matrix made of columns c[0..2] of W.
static double det3_cols(const double W[3][4], const int c[3]) {
  return W[0][c[0]] * (W[1][c[1]] * W[2][c[2]] - W[1][c[2]] * W[2][c[1]]) -
         W[0][c[1]] * (W[1][c[0]] * W[2][c[2]] - W[1][c[2]] * W[2][c[0]]) +
         W[0][c[2]] * (W[1][c[0]] * W[2][c[1]] - W[1][c[1]] * W[2][c[0]]);
}

// The null vector k of W (normalised to its largest component, index
// *jmax) by cofactors: k_j = (-1)^j det(W without column j). False when W
// has rank < 3.
static bool static_null_vector(const contact_dyn *d, double k[4], int *jmax) {
  double kmax = 0;
  *jmax = 0;
  for (int j = 0; j < 4; j++) {
    int c[3], n = 0;
    for (int l = 0; l < 4; l++)
      if (l != j) c[n++] = l;
    k[j] = ((j % 2) ? -1.0 : 1.0) * det3_cols(d->W, c);
    if (fabs(k[j]) > kmax) {
      kmax = fabs(k[j]);
      *jmax = j;
    }
  }
  double wmax = 0;
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < 4; j++) wmax = fmax(wmax, fabs(d->W[r][j]));
  if (!(kmax > CONTACT_SINGULAR_RTOL * wmax * wmax * wmax)) return false;
  for (int j = 0; j < 4; j++) k[j] /= kmax;
  return true;
}

// Particular solution of W x0 = rhs with x0[jmax] = 0: the other three
// columns are regular.
static bool static_particular(const contact_dyn *d, int jmax, const double rhs[3], double x0[4]) {
  double A[9], b[3];
  int c[3], n = 0;
  for (int l = 0; l < 4; l++)
    if (l != jmax) c[n++] = l;
  for (int r = 0; r < 3; r++) {
    for (int q = 0; q < 3; q++) A[r * 3 + q] = d->W[r][c[q]];
    b[r] = rhs[r];
  }
  if (!zeno_linsolve(3, A, b, CONTACT_SINGULAR_RTOL)) return false;
  for (int j = 0; j < 4; j++) x0[j] = 0;
  for (int q = 0; q < 3; q++) x0[c[q]] = b[q];
  return true;
}

// Cone constraints of the family x0 + s k, each affine in s: g(s) = g0 +
// g1 s >= 0, in force units. Returns how many (six).
static int cone_lines(const contact_dyn *d, const double x0[4], const double k[4], double g0[6],
                      double g1[6]) {
  int ng = 0;
  for (int i = 0; i < 2; i++) {
    const double mu = d->mu[i], nrm = friction_cone_norm(mu);
    const int in = 2 * i, it = 2 * i + 1;
    g0[ng] = x0[in];
    g1[ng++] = k[in];
    for (double sign = 1; sign >= -1; sign -= 2) {
      g0[ng] = friction_cone_edge(mu, x0[in], x0[it], sign) / nrm;
      g1[ng++] = friction_cone_edge(mu, k[in], k[it], sign) / nrm;
    }
  }
  return ng;
}

// Whether min_j g_j(s) is bounded above: some piece rises, another falls.
// Unbounded, the margin would grow without bound (cannot happen for a real
// body: x0 + s k would be a self-equilibrated force pair inside both
// cones); the callers report a large finite witness.
static bool bounded(const double g1[6], int ng) {
  bool up = false, down = false;
  for (int j = 0; j < ng; j++) {
    if (g1[j] > 0) up = true;
    if (g1[j] < 0) down = true;
  }
  return up && down;
}

// The member x0 + s k of the family that maximises the smallest cone slack,
// and the smallest of the slacks and `cap` (INFINITY: no cap).
static void static_pick(const contact_dyn *d, const double x0[4], const double k[4], double cap,
                        double x[4], double *margin) {
  double g0[7], g1[7];
  int ng = cone_lines(d, x0, k, g0, g1);
  if (cap < INFINITY) {  // one more piece, constant along the family
    g0[ng] = cap;
    g1[ng++] = 0;
  }
  // Maximise min_j g_j(s): a concave piecewise-linear function of one
  // variable peaks where two pieces cross (or is unbounded). With a cap a
  // family rising without bound peaks where the cap's piece crosses it.
  double best_s = 0, best = INFINITY;
  if (cap < INFINITY || bounded(g1, ng)) {
    best = -INFINITY;
    for (int a = 0; a < ng; a++)
      for (int b2 = a + 1; b2 < ng; b2++) {
        if (g1[a] == g1[b2]) continue;
        const double s = (g0[b2] - g0[a]) / (g1[a] - g1[b2]);
        // The smallest piece at s (a comparison, not fmin(): the values
        // are never NaN).
        double mn = INFINITY;
        for (int j = 0; j < ng; j++) {
          const double v = g0[j] + g1[j] * s;
          if (v < mn) mn = v;
        }
        if (mn > best) {
          best = mn;
          best_s = s;
        }
      }
  }
  for (int j = 0; j < 4; j++) x[j] = x0[j] + best_s * k[j];
  *margin = best;
}

// The same largest smallest slack in 9 crossings instead of 15 x 6 values
// (a double impact's cost): the rising pieces' minimum U and the falling
// pieces' minimum D meet at the peak, whose value is the smallest of the
// crossings of a rising with a falling piece (each bounds the peak from
// above, and the pair binding at the peak attains it), capped by the
// constant pieces. Where a constant piece binds the peak is an interval
// and the member differs from static_pick()'s; the generalised impulse W x
// = rhs, hence the velocity after an impact, does not.
static void static_pick_crossings(const contact_dyn *d, const double x0[4], const double k[4],
                                  double x[4], double *margin) {
  double g0[6], g1[6], flat = INFINITY;
  const int ng = cone_lines(d, x0, k, g0, g1);
  double best_s = 0, best = INFINITY;
  if (bounded(g1, ng)) {
    for (int a = 0; a < ng; a++) {
      if (g1[a] == 0 && g0[a] < flat) flat = g0[a];
      if (!(g1[a] > 0)) continue;
      for (int b = 0; b < ng; b++) {
        if (!(g1[b] < 0)) continue;
        const double s = (g0[b] - g0[a]) / (g1[a] - g1[b]);
        const double v = g0[a] + g1[a] * s;
        if (v < best) {
          best = v;
          best_s = s;
        }
      }
    }
    if (flat < best) best = flat;
  }
  for (int j = 0; j < 4; j++) x[j] = x0[j] + best_s * k[j];
  *margin = best;
}

bool contact_static_family_capped(const contact_dyn *d, const double rhs[3], double cap,
                                  double x[4], double *margin) {
  double k[4], x0[4];
  int jmax;
  if (!static_null_vector(d, k, &jmax) || !static_particular(d, jmax, rhs, x0)) return false;
  static_pick(d, x0, k, cap, x, margin);
  return true;
}

bool contact_static_family(const contact_dyn *d, const double rhs[3], double x[4], double *margin) {
  return contact_static_family_capped(d, rhs, INFINITY, x, margin);
}

bool contact_static_family_mapped(const contact_dyn *d, contact_letter_maps *maps,
                                  const double rhs[3], double x[4], double *margin) {
  if (maps == NULL) return contact_static_family(d, rhs, x, margin);
  if (maps->static_state == 0) {
    // x0 is linear in rhs: its map from the unit vectors.
    bool ok = static_null_vector(d, maps->static_k, &maps->static_jmax);
    for (int c = 0; c < 3 && ok; c++) {
      double unit[3] = {0, 0, 0}, x0[4];
      unit[c] = 1;
      ok = static_particular(d, maps->static_jmax, unit, x0);
      for (int j = 0; j < 4; j++) maps->static_P[j][c] = ok ? x0[j] : 0;
    }
    maps->static_state = ok ? 1 : 2;
  }
  if (maps->static_state != 1) return false;
  double x0[4];
  for (int j = 0; j < 4; j++) {
    const double *P = maps->static_P[j];
    x0[j] = P[0] * rhs[0] + P[1] * rhs[1] + P[2] * rhs[2];
  }
  static_pick_crossings(d, x0, maps->static_k, x, margin);
  return true;
}
