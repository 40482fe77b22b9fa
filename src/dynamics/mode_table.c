// The paper's Table 1 (mode_table.h): admissibility of a mode at an event,
// its solve, its consistency and slack, and the enumeration of every
// consistent mode in preference order (with a cache for the ZOD).
#include "dynamics/mode_table.h"
#include "dynamics/friction_cone.h"

#include <math.h>
#include <string.h>

// Whether contact i's letter is admissible in its class (column 3 of Table 1).
static bool letter_admissible(const mode_class *cls, int i, int l) {
  if (cls->gap[i] == MODE_GAP_IMPACTING) return false;  // impacts first
  if (cls->gap[i] == MODE_GAP_OPEN || cls->lifting[i]) return l == ZENO_LETTER_F;
  if (cls->leaving_stick[i] && l == ZENO_LETTER_S) return false;
  switch (l) {
    case ZENO_LETTER_S: return cls->slip[i] == MODE_SLIP_ZERO;
    case ZENO_LETTER_P: return cls->slip[i] != MODE_SLIP_NEG;
    case ZENO_LETTER_N: return cls->slip[i] != MODE_SLIP_POS;
    default: return true;
  }
}

// The first contact whose letter is not admissible, -1 when all are.
static int inadmissible_contact(const mode_class *cls, int n, zeno_mode mode) {
  for (int i = 0; i < n; i++)
    if (!letter_admissible(cls, i, mode.letter[i])) return i;
  for (int i = n; i < ZENO_PAIR_CONTACTS; i++)
    if (mode.letter[i] != ZENO_LETTER_F) return i;
  return -1;
}

bool mode_admissible(const mode_class *cls, int n, zeno_mode mode) {
  return inadmissible_contact(cls, n, mode) < 0;
}

static bool all_stick(zeno_mode mode, int n) {
  for (int i = 0; i < n; i++)
    if (mode.letter[i] != ZENO_LETTER_S) return false;
  return true;
}

bool mode_static(const contact_dyn *d, mode_solution *sol, double *margin) {
  memset(sol, 0, sizeof *sol);
  for (int i = 0; i < d->n; i++) sol->mode.letter[i] = ZENO_LETTER_S;
  sol->is_static = true;
  if (d->n == 2) {
    // Zero acceleration: h + W f = 0 (bias vanishes at zero velocity).
    const double rhs[3] = {-d->h[0], -d->h[1], -d->h[2]};
    if (!contact_static_family(d, rhs, sol->force, margin)) return false;
    sol->static_margin = *margin;
    return true;  // acc and qdd are zero
  }
  const unsigned char letters[2] = {ZENO_LETTER_S, ZENO_LETTER_F};
  if (!contact_solve(d, d->afree, letters, sol->force, sol->acc)) return false;
  contact_generalized(d, d->h, sol->force, sol->qdd);
  *margin = contact_cone_slack(d, sol->force, 0);
  sol->static_margin = *margin;
  return true;
}

bool mode_solve(const contact_dyn *d, zeno_mode mode, mode_solution *sol) {
  if (d->n == 2 && all_stick(mode, 2)) {
    double margin;
    return mode_static(d, sol, &margin);
  }
  memset(sol, 0, sizeof *sol);
  sol->mode = mode;
  if (!contact_solve(d, d->afree, mode.letter, sol->force, sol->acc)) return false;
  contact_generalized(d, d->h, sol->force, sol->qdd);
  return true;
}

// A force or acceleration Table 1 wants positive: above its zero, or (a
// closed reading) not below minus it.
static bool positive(double x, double zero, bool closed) { return closed ? x >= -zero : x > zero; }

// Why a solved mode is not consistent (Table 1's conditions), and at which
// contact (-1: the mode as a whole); ZENO_REFUSAL_NONE when it is.
static zeno_refusal violation(const contact_dyn *d, const mode_class *cls, const mode_solution *sol,
                              const mode_tol *tol, int *contact) {
  *contact = -1;
  if (sol->is_static && d->n == 2) {
    // Ties at the cone boundary count as sticking (closed cone), so a
    // frictionless contact carrying a purely normal force can rest.
    return sol->static_margin >= -tol->force ? ZENO_REFUSAL_NONE : ZENO_REFUSAL_CONE;
  }
  for (int i = 0; i < d->n; i++) {
    const double fn = sol->force[2 * i], ft = sol->force[2 * i + 1];
    const double an = sol->acc[2 * i], at = sol->acc[2 * i + 1];
    const bool zero_slip = cls->slip[i] == MODE_SLIP_ZERO;
    zeno_refusal r = ZENO_REFUSAL_NONE;
    switch (sol->mode.letter[i]) {
      case ZENO_LETTER_F:
        if (cls->lifting[i]) {
          if (an < -tol->accel) r = ZENO_REFUSAL_PENETRATION;
        } else if (cls->gap[i] == MODE_GAP_CLOSED && !positive(an, tol->accel, tol->closed)) {
          r = ZENO_REFUSAL_PENETRATION;
        }
        break;
      case ZENO_LETTER_S:
        if (!positive(fn, tol->force, tol->closed)) r = ZENO_REFUSAL_NORMAL;
        else if (!friction_cone_holds(d->mu[i], fn, ft, tol->force)) r = ZENO_REFUSAL_CONE;
        break;
      case ZENO_LETTER_P:
        if (!positive(fn, tol->force, tol->closed)) r = ZENO_REFUSAL_NORMAL;
        else if (zero_slip && !positive(at, tol->accel, tol->closed)) r = ZENO_REFUSAL_SLIP;
        break;
      case ZENO_LETTER_N:
        if (!positive(fn, tol->force, tol->closed)) r = ZENO_REFUSAL_NORMAL;
        else if (zero_slip && !positive(-at, tol->accel, tol->closed)) r = ZENO_REFUSAL_SLIP;
        break;
      default: r = ZENO_REFUSAL_KINEMATICS; break;
    }
    if (r != ZENO_REFUSAL_NONE) {
      *contact = i;
      return r;
    }
  }
  return ZENO_REFUSAL_NONE;
}

bool mode_consistent(const contact_dyn *d, const mode_class *cls, const mode_solution *sol,
                     const mode_tol *tol) {
  int contact;
  return violation(d, cls, sol, tol, &contact) == ZENO_REFUSAL_NONE;
}

zeno_refusal mode_refusal(const contact_dyn *d, const mode_class *cls, zeno_mode mode,
                          const mode_tol *tol, int *contact) {
  *contact = inadmissible_contact(cls, d->n, mode);
  if (*contact >= 0) return ZENO_REFUSAL_KINEMATICS;
  mode_solution sol;
  if (!mode_solve(d, mode, &sol)) return ZENO_REFUSAL_SINGULAR;
  return violation(d, cls, &sol, tol, contact);
}

void mode_explain(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                  refusal_table *out) {
  memset(out, 0, sizeof *out);
  const int total = d->n == 2 ? ZENO_MAX_MODES : 4;
  for (int code = 0; code < total; code++) {
    const zeno_mode mode = zeno_mode_of_code((unsigned)code);
    int contact;
    out->refusal[code] = (unsigned char)mode_refusal(d, cls, mode, tol, &contact);
    out->contact[code] = (signed char)contact;
  }
}

double mode_slack(const contact_dyn *d, const mode_class *cls, const mode_solution *sol,
                  double force_scale, double accel_scale) {
  if (sol->is_static && d->n == 2) return sol->static_margin / force_scale;
  double slack = INFINITY;
  for (int i = 0; i < d->n; i++) {
    const double fn = sol->force[2 * i] / force_scale;
    const double ft = sol->force[2 * i + 1] / force_scale;
    const double an = sol->acc[2 * i] / accel_scale;
    const double at = sol->acc[2 * i + 1] / accel_scale;
    const bool zero_slip = cls->slip[i] == MODE_SLIP_ZERO;
    switch (sol->mode.letter[i]) {
      case ZENO_LETTER_F:
        if (cls->lifting[i] || cls->gap[i] == MODE_GAP_CLOSED) slack = fmin(slack, an);
        break;
      case ZENO_LETTER_S:
        slack = fmin(slack, fmin(fn, friction_cone_slack(d->mu[i], fn, ft)));
        break;
      case ZENO_LETTER_P:
        slack = fmin(slack, fn);
        if (zero_slip) slack = fmin(slack, at);
        break;
      case ZENO_LETTER_N:
        slack = fmin(slack, fn);
        if (zero_slip) slack = fmin(slack, -at);
        break;
      default: break;
    }
  }
  return slack;
}

int mode_static_rank(zeno_mode mode, int n) {
  int stick = 0, closed = 0;
  for (int i = 0; i < n; i++) {
    if (mode.letter[i] == ZENO_LETTER_S) stick++;
    if (mode.letter[i] != ZENO_LETTER_F) closed++;
  }
  return (n - stick) * (n + 1) + (n - closed);
}

static int mode_code(zeno_mode mode) { return mode.letter[0] + 4 * mode.letter[1]; }

bool mode_solve_cached(const contact_dyn *d, zeno_mode mode, mode_solution_cache *cache,
                       mode_solution *sol) {
  const int code = mode_code(mode);
  if (cache == NULL) return mode_solve(d, mode, sol);
  if (cache->state[code] == 0) {
    cache->state[code] = mode_solve(d, mode, &cache->sol[code]) ? 1 : 2;
  }
  if (cache->state[code] != 1) return false;
  *sol = cache->sol[code];
  return true;
}

int mode_enumerate_cached(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                          mode_solution_cache *cache, mode_solution out[ZENO_MAX_MODES]) {
  int count = 0;
  const int letters = 4;
  const int total = d->n == 2 ? letters * letters : letters;
  for (int code = 0; code < total; code++) {
    const zeno_mode mode = zeno_mode_of_code((unsigned)code);  // total is 4 for one contact
    if (!mode_admissible(cls, d->n, mode)) continue;
    mode_solution sol;
    if (!mode_solve_cached(d, mode, cache, &sol)) continue;
    if (!mode_consistent(d, cls, &sol, tol)) continue;
    out[count++] = sol;
  }
  // Insertion sort by static rank (stable: keeps letter order within a rank).
  for (int a = 1; a < count; a++) {
    mode_solution key = out[a];
    const int rk = mode_static_rank(key.mode, d->n);
    int b = a - 1;
    while (b >= 0 && mode_static_rank(out[b].mode, d->n) > rk) {
      out[b + 1] = out[b];
      b--;
    }
    out[b + 1] = key;
  }
  return count;
}

int mode_enumerate(const contact_dyn *d, const mode_class *cls, const mode_tol *tol,
                   mode_solution out[ZENO_MAX_MODES]) {
  return mode_enumerate_cached(d, cls, tol, NULL, out);
}
