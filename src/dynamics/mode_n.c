// Table 1 for N contacts (mode_n.h). A candidate is a letter pattern: F for
// the open contacts, and for each closed one a letter its class admits
// (mode_admissible of that contact alone, so the rule is Table 1's column
// 3 as the two-contact code reads it). The patterns are all enumerated (the
// admissible letters' product, at most MODE_N_MAX_PATTERNS): the static
// module's face enumeration (contact_set.c) finds the patterns that can
// carry a motion at rest, but Table 1 also needs the strict margins, the
// slipping contacts' fixed letters and the lift-off and slip-onset flags,
// and the exhaustive list is the one the two-contact code tries.
//
// A pattern's LP (unknowns the contact forces c and a margin s; maximise s):
//   F: c_n = c_t = 0; at a closed contact a_n - s >= z_a (penetration),
//      lifting: a_n >= -tol.accel (the trend decides; not strict);
//   S: a_n = a_t = 0; c_n - s >= z_f; mu c_n -+ c_t >= -tol.force;
//   P: a_n = 0, c_t = -mu c_n; c_n - s >= z_f; at zero slip a_t - s >= z_a;
//   N: a_n = 0, c_t = +mu c_n; c_n - s >= z_f; at zero slip -a_t - s >= z_a;
// with z = tol (strict reading: consistent when s* > 0) or -tol (the closed
// reading, mode_tol.closed: consistent when s* >= 0). A static pattern (every
// closed contact sticking, at least two) is the two-contact SS rule,
// mode_static: c_n - s >= -tol.force and (mu c_n -+ c_t) / |(mu, 1)| - s >=
// -tol.force, consistent when s* >= 0 (ties at the cone count). When the
// equalities fix c (any pattern of two contacts but SS), s* is the smallest
// slack and the test is mode_consistent's; otherwise the LP finds a member
// of the force family meeting all conditions if there is one.
//
// A consistent pattern's acceleration is unique when each component of
// qdd = M^-1 (h + W c) has one value over the pattern's forces (s = 0:
// the conditions' closure): 6 LPs, min and max.
#include "dynamics/mode_n.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/friction_cone.h"
#include "dynamics/lp.h"

/// Letters of one contact (zeno_letter values 0..3).
#define MODE_N_LETTERS 4
/// qdd's range counts as one value within tol.accel plus this fraction of
/// the accelerations' size (|qdd| and M^-1 h): the LP's certified points
/// meet their rows to LP_CERTIFIED_RTOL of their terms, and a redundant
/// pattern's family moves qdd by rounding of that order only.
#define MODE_N_RANGE_RTOL 1e-9
/// Rows of a pattern's LP per contact at most (a static S: two
/// accelerations, the normal force and two cone edges).
#define MODE_N_ROWS_PER_CONTACT 5

int mode_n_rank(const unsigned char *letter, int n) {
  int stick = 0, closed = 0;
  for (int i = 0; i < n; i++) {
    stick += letter[i] == ZENO_LETTER_S;
    closed += letter[i] != ZENO_LETTER_F;
  }
  return (n - stick) * (n + 1) + (n - closed);
}

unsigned long mode_n_code(const unsigned char *letter, int n) {
  unsigned long code = 0;
  for (int i = n - 1; i >= 0; i--) code = code * MODE_N_LETTERS + letter[i];
  return code;
}

// Contact i's class alone, as the two-contact table reads it.
static bool letter_ok(const mode_n_class *cls, int i, int letter) {
  mode_class one;
  memset(&one, 0, sizeof one);
  one.gap[0] = cls->gap[i];
  one.slip[0] = cls->slip[i];
  one.lifting[0] = cls->lifting[i];
  one.leaving_stick[0] = cls->leaving_stick[i];
  zeno_mode m = {{(unsigned char)letter, ZENO_LETTER_F}};
  return mode_admissible(&one, 1, m);
}

/// The data every pattern's LP shares: D = W^T M^-1 W and afree.
typedef struct mode_n_ctx {
  const mode_n_dyn *d;
  const mode_n_class *cls;
  const mode_tol *tol;
  int m;  ///< 2n force columns; column m is the margin s
  double D[2 * MODE_N_MAX_CONTACTS][2 * MODE_N_MAX_CONTACTS];
  double afree[2 * MODE_N_MAX_CONTACTS];
  lp_problem lp;
} mode_n_ctx;

static void ctx_init(mode_n_ctx *c, const mode_n_dyn *d, const mode_n_class *cls,
                     const mode_tol *tol) {
  c->d = d;
  c->cls = cls;
  c->tol = tol;
  c->m = 2 * d->n;
  for (int a = 0; a < c->m; a++) {
    double af = d->bias[a];
    for (int k = 0; k < 3; k++) af += d->W[k][a] * d->inv_mass[k] * d->h[k];
    c->afree[a] = af;
    for (int b = 0; b < c->m; b++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += d->W[k][a] * d->inv_mass[k] * d->W[k][b];
      c->D[a][b] = s;
    }
  }
}

// Row: sign times contact acceleration j, minus `margin` s, against `value`.
static void accel_row(mode_n_ctx *c, int *row, int j, double sign, lp_bound kind, double value,
                      double margin) {
  lp_problem *lp = &c->lp;
  double *a = &lp->a[*row * lp->stride];
  for (int b = 0; b < c->m; b++) a[b] = sign * c->D[j][b];
  a[c->m] = -margin;
  lp->row_kind[*row] = kind;
  lp->row_lo[*row] = lp->row_hi[*row] = value - sign * c->afree[j];
  (*row)++;
}

// Row: wn c_n + wt c_t - margin s against lo (kind LP_LOWER or LP_FIXED).
static void force_row(mode_n_ctx *c, int *row, int i, double wn, double wt, double margin,
                      lp_bound kind, double lo) {
  lp_problem *lp = &c->lp;
  double *a = &lp->a[*row * lp->stride];
  memset(a, 0, sizeof(double) * (size_t)lp->stride);
  a[2 * i] = wn;
  a[2 * i + 1] = wt;
  a[c->m] = -margin;
  lp->row_kind[*row] = kind;
  lp->row_lo[*row] = lp->row_hi[*row] = lo;
  (*row)++;
}

static bool pattern_static(const mode_n_ctx *c, const unsigned char *letter) {
  int stick = 0;
  for (int i = 0; i < c->d->n; i++) {
    if (letter[i] == ZENO_LETTER_S) stick++;
    else if (letter[i] != ZENO_LETTER_F || c->cls->gap[i] != MODE_GAP_OPEN) return false;
  }
  return stick >= 2;
}

// Fills the LP of a pattern (objective: maximise s).
static void pattern_lp(mode_n_ctx *c, const unsigned char *letter, bool is_static) {
  const mode_tol *t = c->tol;
  const double zf = t->closed ? -t->force : t->force, za = t->closed ? -t->accel : t->accel;
  lp_problem *lp = &c->lp;
  memset(lp->a, 0, sizeof(double) * (size_t)(lp->rows * lp->stride));
  int row = 0;
  for (int i = 0; i < c->d->n; i++) {
    const int jn = 2 * i, jt = 2 * i + 1;
    const double mu = c->d->mu[i];
    const bool zero_slip = c->cls->slip[i] == MODE_SLIP_ZERO;
    lp->col_kind[jn] = lp->col_kind[jt] = LP_FREE;
    switch (letter[i]) {
      case ZENO_LETTER_F:
        lp->col_kind[jn] = lp->col_kind[jt] = LP_FIXED;
        lp->col_lo[jn] = lp->col_lo[jt] = lp->col_hi[jn] = lp->col_hi[jt] = 0;
        if (c->cls->lifting[i]) accel_row(c, &row, jn, 1, LP_LOWER, -t->accel, 0);
        else if (c->cls->gap[i] == MODE_GAP_CLOSED) accel_row(c, &row, jn, 1, LP_LOWER, za, 1);
        break;
      case ZENO_LETTER_S:
        accel_row(c, &row, jn, 1, LP_FIXED, 0, 0);
        accel_row(c, &row, jt, 1, LP_FIXED, 0, 0);
        if (is_static) {
          const double norm = friction_cone_norm(mu);
          force_row(c, &row, i, 1, 0, 1, LP_LOWER, -t->force);
          force_row(c, &row, i, mu / norm, 1 / norm, 1, LP_LOWER, -t->force);
          force_row(c, &row, i, mu / norm, -1 / norm, 1, LP_LOWER, -t->force);
        } else {
          force_row(c, &row, i, 1, 0, 1, LP_LOWER, zf);
          force_row(c, &row, i, mu, 1, 0, LP_LOWER, -t->force);
          force_row(c, &row, i, mu, -1, 0, LP_LOWER, -t->force);
        }
        break;
      default: {  // P or N
        const double sign = letter[i] == ZENO_LETTER_P ? 1 : -1;
        accel_row(c, &row, jn, 1, LP_FIXED, 0, 0);
        // Slip toward sign t meets friction -sign mu c_n: mu c_n + sign c_t = 0.
        force_row(c, &row, i, mu, sign, 0, LP_FIXED, 0);
        force_row(c, &row, i, 1, 0, 1, LP_LOWER, zf);
        if (zero_slip) accel_row(c, &row, jt, sign, LP_LOWER, za, 1);
        break;
      }
    }
  }
  lp->rows = row;
  lp->col_kind[c->m] = LP_FREE;
  memset(lp->obj, 0, sizeof(double) * (size_t)lp->cols);
  lp->obj[c->m] = 1;
}

// Solves the LP as it stands; *ok when it has a certified optimum.
static zeno_status solve(mode_n_ctx *c, double *x, lp_outcome *out, bool *ok, zeno_error *e) {
  if (c->lp.rows == 0) {
    // No conditions (GLPK takes no empty problem): every contact is F, its
    // forces fixed zeros; s is unbounded unless fixed.
    const bool s_fixed = c->lp.col_kind[c->m] == LP_FIXED;
    memset(x, 0, sizeof(double) * (size_t)c->lp.cols);
    if (s_fixed) x[c->m] = c->lp.col_lo[c->m];
    *ok = s_fixed || c->lp.obj[c->m] == 0;
    out->status = *ok ? LP_OPTIMAL : LP_UNBOUNDED;
    out->objective = *ok ? c->lp.obj[c->m] * x[c->m] : INFINITY;
    out->violation = 0;
    return ZENO_OK;
  }
  const zeno_status st = lp_problem_solve(&c->lp, out, x, e);
  *ok = st == ZENO_OK && out->status == LP_OPTIMAL && out->violation <= LP_CERTIFIED_RTOL;
  return st;
}

// A pattern whose margin is unbounded (a condition-free pattern, or a
// force family whose normal forces grow without bound: a wedged body) has
// every margin; its forces are a certified point of the closure s = 0.
static zeno_status unbounded_point(mode_n_ctx *c, double *x, bool *ok, zeno_error *e) {
  lp_problem *lp = &c->lp;
  lp->col_kind[c->m] = LP_FIXED;
  lp->col_lo[c->m] = lp->col_hi[c->m] = 0;
  lp->obj[c->m] = 0;
  lp_outcome out;
  return solve(c, x, &out, ok, e);
}

static void qdd_of(const mode_n_dyn *d, const double *x, double qdd[3]) {
  for (int k = 0; k < 3; k++) {
    double g = d->h[k];
    for (int b = 0; b < 2 * d->n; b++) g += d->W[k][b] * x[b];
    qdd[k] = d->inv_mass[k] * g;
  }
}

/// The constrained contact accelerations fix the body (their rows in qdd
/// have rank 3) when the determinant of their normalised Gram matrix is
/// above this fraction of its scale: far above rounding of unit rows; a
/// nearly dependent set takes the LPs, the safe path.
#define MODE_N_FIXING_RTOL 1e-10

// Whether the pattern's equalities fix qdd (mode_n.h): every member of its force
// family meets them (a_n of each closed contact, a_t of each sticking one,
// as linear functions of qdd: W's columns), so qdd varies over the family
// only in their rows' null space, which is {0} when they have rank 3. The
// rows are taken in mass-weighted coordinates (qdd_k / sqrt(inv_mass_k)),
// where every column has one unit, and normalised.
bool mode_n_letters_fix_body(const mode_n_dyn *d, const unsigned char *letter, double rtol) {
  double G[3][3] = {{0}};
  for (int i = 0; i < d->n; i++) {
    const int rows = letter[i] == ZENO_LETTER_S ? 2 : letter[i] == ZENO_LETTER_F ? 0 : 1;
    for (int r = 0; r < rows; r++) {
      double v[3], norm = 0;
      for (int k = 0; k < 3; k++) {
        v[k] = d->W[k][2 * i + r] * sqrt(d->inv_mass[k]);
        norm += v[k] * v[k];
      }
      if (!(norm > 0)) continue;
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++) G[j][k] += v[j] * v[k] / norm;
    }
  }
  const double det = G[0][0] * (G[1][1] * G[2][2] - G[1][2] * G[2][1]) -
                     G[0][1] * (G[1][0] * G[2][2] - G[1][2] * G[2][0]) +
                     G[0][2] * (G[1][0] * G[2][1] - G[1][1] * G[2][0]);
  const double scale = (G[0][0] + G[1][1] + G[2][2]) / 3;
  return det > rtol * scale * scale * scale;
}

// The range of each qdd component over the pattern's forces (s fixed 0).
static zeno_status qdd_range(mode_n_ctx *c, mode_n_solution *sol, zeno_error *e) {
  const mode_n_dyn *d = c->d;
  if (mode_n_letters_fix_body(d, sol->letter, MODE_N_FIXING_RTOL)) {  // one qdd: no LP needed
    memcpy(sol->qdd_lo, sol->qdd, sizeof sol->qdd_lo);
    memcpy(sol->qdd_hi, sol->qdd, sizeof sol->qdd_hi);
    sol->unique = true;
    return ZENO_OK;
  }
  lp_problem *lp = &c->lp;
  lp->col_kind[c->m] = LP_FIXED;
  lp->col_lo[c->m] = lp->col_hi[c->m] = 0;
  double x[2 * MODE_N_MAX_CONTACTS + 1], size = 0;
  for (int k = 0; k < 3; k++)
    size = fmax(size, fmax(fabs(sol->qdd[k]), fabs(d->inv_mass[k] * d->h[k])));
  sol->unique = true;
  for (int k = 0; k < 3; k++) {
    double ends[2];
    for (int side = 0; side < 2; side++) {
      const double sign = side == 0 ? -1 : 1;  // min, then max
      for (int b = 0; b < c->m; b++) lp->obj[b] = sign * d->inv_mass[k] * d->W[k][b];
      lp->obj[c->m] = 0;
      lp_outcome out;
      bool ok;
      const zeno_status st = solve(c, x, &out, &ok, e);
      if (st != ZENO_OK) return st;
      if (out.status == LP_UNBOUNDED) ends[side] = sign * INFINITY;
      else if (ok) ends[side] = sign * out.objective + d->inv_mass[k] * d->h[k];
      else ends[side] = sol->qdd[k];  // the closure met only by GLPK's tolerance
    }
    sol->qdd_lo[k] = ends[0];
    sol->qdd_hi[k] = ends[1];
    if (!(ends[1] - ends[0] <= c->tol->accel + MODE_N_RANGE_RTOL * size)) sol->unique = false;
  }
  return ZENO_OK;
}

int mode_n_letter_rows(int n, const double *D, const double *b, const double *mu,
                       const unsigned char *letter, int *col, double *A, double *r) {
  int k = 0;
  for (int i = 0; i < n; i++)
    if (letter[i] != ZENO_LETTER_F) {
      col[k++] = 2 * i;
      col[k++] = 2 * i + 1;
    }
  memset(A, 0, sizeof(double) * (size_t)(k * k));
  for (int u = 0; u < k; u += 2) {
    const int i = col[u] / 2;
    for (int v = 0; v < k; v++) A[u * k + v] = D[2 * i * MODE_N_D_STRIDE + col[v]];
    r[u] = -b[2 * i];
    if (letter[i] == ZENO_LETTER_S) {
      for (int v = 0; v < k; v++) A[(u + 1) * k + v] = D[(2 * i + 1) * MODE_N_D_STRIDE + col[v]];
      r[u + 1] = -b[2 * i + 1];
    } else {  // mu x_n + sign x_t = 0
      A[(u + 1) * k + u] = mu[i];
      A[(u + 1) * k + u + 1] = letter[i] == ZENO_LETTER_P ? 1 : -1;
      r[u + 1] = 0;
    }
  }
  return k;
}

bool mode_n_letter_solve(int n, const double *D, const double *b, const double *mu,
                         const unsigned char *letter, double *x) {
  int col[2 * MODE_N_MAX_CONTACTS];
  double A[4 * MODE_N_MAX_CONTACTS * MODE_N_MAX_CONTACTS], r[2 * MODE_N_MAX_CONTACTS];
  const int k = mode_n_letter_rows(n, D, b, mu, letter, col, A, r);
  memset(x, 0, sizeof(double) * (size_t)(2 * n));
  if (k == 0) return true;
  if (!zeno_linsolve(k, A, r, ZENO_PIVOT_RTOL)) return false;
  for (int u = 0; u < k; u++) x[col[u]] = r[u];
  return true;
}

// The pattern's LP (pattern_lp, built) at forces x its equalities fix: its
// optimum is the smallest slack of the rows with the margin s (INFINITY:
// none), feasible when the inequality rows without s hold. The LP's test
// without the LP, on the same rows.
static bool rows_at(const mode_n_ctx *c, const double *x, double *margin) {
  const lp_problem *lp = &c->lp;
  double s = INFINITY;
  for (int r = 0; r < lp->rows; r++) {
    if (lp->row_kind[r] != LP_LOWER) continue;  // the equalities hold: x solves them
    const double *a = &lp->a[r * lp->stride];
    double v = 0;
    for (int b = 0; b < c->m; b++) v += a[b] * x[b];
    if (a[c->m] != 0) s = fmin(s, (v - lp->row_lo[r]) / -a[c->m]);
    else if (!(v >= lp->row_lo[r])) return false;
  }
  *margin = s;
  return true;
}

// Decides one pattern; *consistent and, when it is, sol.
static zeno_status try_pattern(mode_n_ctx *c, const unsigned char *letter, mode_n_solution *sol,
                               bool *consistent, zeno_error *e) {
  const mode_n_dyn *d = c->d;
  const bool is_static = pattern_static(c, letter);
  pattern_lp(c, letter, is_static);
  double xf[2 * MODE_N_MAX_CONTACTS];
  if (!is_static && mode_n_letter_solve(d->n, &c->D[0][0], c->afree, d->mu, letter, xf)) {
    // Forces fixed by the equalities: the LP's answer without the LP (its
    // rows evaluated at them), the acceleration unique.
    double acc[2 * MODE_N_MAX_CONTACTS], margin;
    for (int a = 0; a < c->m; a++) {
      double v = c->afree[a];
      for (int b = 0; b < c->m; b++) v += c->D[a][b] * xf[b];
      acc[a] = v;
    }
    const bool feasible = rows_at(c, xf, &margin);
    *consistent = feasible && (c->tol->closed ? margin >= 0 : margin > 0);
    if (!*consistent) return ZENO_OK;
    memset(sol, 0, sizeof *sol);
    memcpy(sol->letter, letter, (size_t)d->n);
    sol->unique = true;
    sol->margin = margin;
    memcpy(sol->force, xf, sizeof(double) * (size_t)c->m);
    memcpy(sol->acc, acc, sizeof(double) * (size_t)c->m);
    qdd_of(d, xf, sol->qdd);
    memcpy(sol->qdd_lo, sol->qdd, sizeof sol->qdd_lo);
    memcpy(sol->qdd_hi, sol->qdd, sizeof sol->qdd_hi);
    return ZENO_OK;
  }
  double x[2 * MODE_N_MAX_CONTACTS + 1];
  lp_outcome out;
  bool ok;
  zeno_status st = solve(c, x, &out, &ok, e);
  if (st != ZENO_OK) return st;
  const bool strict = !is_static && !c->tol->closed;
  if (out.status == LP_UNBOUNDED) {
    st = unbounded_point(c, x, &ok, e);
    if (st != ZENO_OK) return st;
    out.objective = INFINITY;
  }
  *consistent = ok && (strict ? out.objective > 0 : out.objective >= 0);
  if (!*consistent) return ZENO_OK;
  memset(sol, 0, sizeof *sol);
  memcpy(sol->letter, letter, (size_t)d->n);
  sol->is_static = is_static;
  sol->margin = out.objective;
  for (int a = 0; a < c->m; a++) {
    sol->force[a] = x[a];
    double acc = c->afree[a];
    for (int b = 0; b < c->m; b++) acc += c->D[a][b] * x[b];
    sol->acc[a] = acc;
  }
  qdd_of(d, x, sol->qdd);
  return qdd_range(c, sol, e);
}

static int by_preference(const void *pa, const void *pb, int n) {
  const mode_n_solution *a = pa, *b = pb;
  const int ra = mode_n_rank(a->letter, n), rb = mode_n_rank(b->letter, n);
  if (ra != rb) return ra < rb ? -1 : 1;
  const unsigned long ca = mode_n_code(a->letter, n), cb = mode_n_code(b->letter, n);
  return ca < cb ? -1 : ca > cb;
}

// Inserts sol into out[0..*stored) by preference, keeping the first
// `capacity` (a sorted list: the selection's consistent patterns are few).
static void insert_sorted(mode_n_solution *out, int capacity, int *stored,
                          const mode_n_solution *sol, int n) {
  int at = *stored;
  while (at > 0 && by_preference(&out[at - 1], sol, n) > 0) at--;
  if (at >= capacity) return;
  const int keep = *stored < capacity ? *stored : capacity - 1;
  memmove(&out[at + 1], &out[at], sizeof *out * (size_t)(keep - at));
  out[at] = *sol;
  if (*stored < capacity) (*stored)++;
}

static zeno_status check_args(const mode_n_dyn *d, const mode_n_class *cls, const mode_tol *tol,
                              const mode_n_solution *out, int capacity, const int *count,
                              zeno_error *e) {
  if (d == NULL || cls == NULL || tol == NULL || count == NULL || capacity < 0 ||
      (out == NULL && capacity > 0))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "",
                     "dynamics, class, tolerances and a count are required");
  if (d->n < 1 || d->n > MODE_N_MAX_CONTACTS)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "n", "%d contacts; allowed 1 to %d", d->n,
                     MODE_N_MAX_CONTACTS);
  if (!(tol->force >= 0) || !isfinite(tol->force) || !(tol->accel >= 0) || !isfinite(tol->accel))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "tol",
                     "force and acceleration zeros %g, %g; allowed [0, inf)", tol->force,
                     tol->accel);
  return ZENO_OK;
}

// Every contact's letters in turn (the contacts as given).
static zeno_status enumerate_all(const mode_n_dyn *d, const mode_n_class *cls, const mode_tol *tol,
                                 mode_n_solution *out, int capacity, int *count, zeno_error *e) {
  zeno_status st = ZENO_OK;
  *count = 0;
  // Each contact's admissible letters; the patterns are their product.
  unsigned char choice[MODE_N_MAX_CONTACTS][MODE_N_LETTERS];
  int choices[MODE_N_MAX_CONTACTS];
  double patterns = 1;
  for (int i = 0; i < d->n; i++) {
    choices[i] = 0;
    for (int l = 0; l < MODE_N_LETTERS; l++)
      if (letter_ok(cls, i, l)) choice[i][choices[i]++] = (unsigned char)l;
    patterns *= choices[i];
  }
  if (patterns == 0) return ZENO_OK;  // an impacting contact: impacts first
  if (patterns > MODE_N_MAX_PATTERNS)
    return zeno_fail(e, ZENO_ERR_UNSUPPORTED, "contacts",
                     "the class admits %.0f letter patterns; mode selection tries at most %d "
                     "(eight zero-slip closed contacts)",
                     patterns, MODE_N_MAX_PATTERNS);
  mode_n_ctx *c = malloc(sizeof *c);
  if (c == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
  ctx_init(c, d, cls, tol);
  st = lp_problem_create(&c->lp, MODE_N_ROWS_PER_CONTACT * d->n, c->m + 1, e);
  if (st != ZENO_OK) {
    free(c);
    return st;
  }
  int digit[MODE_N_MAX_CONTACTS] = {0}, stored = 0;
  for (bool more = true; more && st == ZENO_OK;) {
    unsigned char letter[MODE_N_MAX_CONTACTS];
    for (int i = 0; i < d->n; i++) letter[i] = choice[i][digit[i]];
    c->lp.rows = MODE_N_ROWS_PER_CONTACT * d->n;
    mode_n_solution sol;
    bool consistent = false;
    st = try_pattern(c, letter, &sol, &consistent, e);
    if (st == ZENO_OK && consistent) {
      (*count)++;
      insert_sorted(out, capacity, &stored, &sol, d->n);
    }
    // The next pattern (an odometer over the contacts' letters).
    int i = 0;
    while (i < d->n && ++digit[i] == choices[i]) digit[i++] = 0;
    more = i < d->n;
  }
  lp_problem_destroy(&c->lp);
  free(c);
  return st;
}

// An open contact (its gap open: F alone is admissible) carries no force
// and sets no condition: the patterns are those of the other contacts,
// solved without it, and each is given F there, its contact accelerations
// formed from the forces found. So a contact away from the body changes
// no digit of the others' solutions (the same LPs, not LPs with more
// columns, whose scaling and pivots round otherwise), and the LPs are
// smaller.
zeno_status mode_n_enumerate(const mode_n_dyn *d, const mode_n_class *cls, const mode_tol *tol,
                             mode_n_solution *out, int capacity, int *count, zeno_error *e) {
  zeno_status st = check_args(d, cls, tol, out, capacity, count, e);
  if (st != ZENO_OK) return st;
  int keep[MODE_N_MAX_CONTACTS], n = 0;
  for (int i = 0; i < d->n; i++)
    if (cls->gap[i] != MODE_GAP_OPEN) keep[n++] = i;
  if (n == 0 || n == d->n) return enumerate_all(d, cls, tol, out, capacity, count, e);
  mode_n_dyn sub;
  mode_n_class sub_cls;
  memset(&sub, 0, sizeof sub);
  memset(&sub_cls, 0, sizeof sub_cls);
  sub.n = n;
  memcpy(sub.inv_mass, d->inv_mass, sizeof sub.inv_mass);
  memcpy(sub.h, d->h, sizeof sub.h);
  for (int j = 0; j < n; j++) {
    const int i = keep[j];
    for (int k = 0; k < 3; k++) {
      sub.W[k][2 * j] = d->W[k][2 * i];
      sub.W[k][2 * j + 1] = d->W[k][2 * i + 1];
    }
    sub.bias[2 * j] = d->bias[2 * i];
    sub.bias[2 * j + 1] = d->bias[2 * i + 1];
    sub.mu[j] = d->mu[i];
    sub_cls.gap[j] = cls->gap[i];
    sub_cls.slip[j] = cls->slip[i];
    sub_cls.lifting[j] = cls->lifting[i];
    sub_cls.leaving_stick[j] = cls->leaving_stick[i];
  }
  st = enumerate_all(&sub, &sub_cls, tol, out, capacity, count, e);
  if (st != ZENO_OK) return st;
  mode_n_ctx *c = malloc(sizeof *c);  // the full D and afree, for the open contacts' accelerations
  if (c == NULL) return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
  ctx_init(c, d, cls, tol);
  const int stored = *count < capacity ? *count : capacity;
  for (int k = 0; k < stored; k++) {
    const mode_n_solution r = out[k];
    mode_n_solution *o = &out[k];
    memset(o->letter, ZENO_LETTER_F, sizeof o->letter);
    memset(o->force, 0, sizeof o->force);
    for (int j = 0; j < n; j++) {
      o->letter[keep[j]] = r.letter[j];
      o->force[2 * keep[j]] = r.force[2 * j];
      o->force[2 * keep[j] + 1] = r.force[2 * j + 1];
    }
    for (int a = 0; a < c->m; a++) {
      double acc = c->afree[a];
      for (int b = 0; b < c->m; b++) acc += c->D[a][b] * o->force[b];
      o->acc[a] = acc;
    }
    for (int j = 0; j < n; j++) {  // the kept contacts' as solved
      o->acc[2 * keep[j]] = r.acc[2 * j];
      o->acc[2 * keep[j] + 1] = r.acc[2 * j + 1];
    }
  }
  free(c);
  return ZENO_OK;
}
