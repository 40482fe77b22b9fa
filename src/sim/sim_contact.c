// The contact state inside the hybrid loop: coordinates of the state,
// projections onto closed contacts, tolerances, kinematic classes and the
// choice of the next mode (Table 1 via dynamics/mode_table.c).
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "sim/sim_internal.h"

void sim_contacts(const zeno_sim *s, const double q[3], const double qd[3], double c[4],
                  double cd[4]) {
  if (sim_is_full(s)) kinematics_full_contacts(&s->km, q, qd, c, cd);
  else kinematics_zod_prime_contacts(&s->km, q, qd, c, cd);
}

// The simulator's state holds q' (ZOD) or q (full model); the solvers work
// in generalised coordinates.
void sim_rates_to_gen(const zeno_sim *s, const double v[3], double out[3]) {
  if (sim_is_full(s)) memcpy(out, v, 3 * sizeof *out);
  else kinematics_zod_to_gen(&s->km, v, out);
}

void sim_gen_to_rates(const zeno_sim *s, const double v[3], double out[3]) {
  if (sim_is_full(s)) memcpy(out, v, 3 * sizeof *out);
  else kinematics_gen_to_zod(&s->km, v, out);
}

// The mode's accelerations in ZOD coordinates. The gaps of closed contacts
// (and x2 of a sticking contact 2) are components of q': their
// accelerations are zero exactly, not to the rounding of M^-1 and A, which
// over a long segment (t^2 / 2 = 5e5 at t = 1000) let the gaps drift by
// 1e-11.
void sim_mode_rates(const zeno_sim *s, const mode_solution *sol, double qddp[3]) {
  kinematics_gen_to_zod(&s->km, sol->qdd, qddp);
  for (int i = 0; i < s->km.n; i++)
    if (sol->mode.letter[i] != ZENO_LETTER_F) qddp[i] = 0;
  if (s->km.n == 2 && sol->mode.letter[1] == ZENO_LETTER_S) qddp[2] = 0;
}

void sim_state_contacts(zeno_state *st, int n, const double *c, const double *cd,
                        const double *force) {
  for (int i = 0; i < n; i++) {
    st->gap[i] = c[2 * i];
    st->gap_rate[i] = cd[2 * i];
    st->slip[i] = c[2 * i + 1];
    st->slip_rate[i] = cd[2 * i + 1];
    st->force[i][0] = force[2 * i];
    st->force[i][1] = force[2 * i + 1];
  }
}

void sim_fill_state(const zeno_sim *s, double t, const double q[3], const double qd[3],
                    const mode_solution *sol, zeno_state *st) {
  memset(st, 0, sizeof *st);
  st->t = t;
  double c[4], cd[4];
  sim_contacts(s, q, qd, c, cd);
  sim_rates_to_gen(s, q, st->q);
  sim_rates_to_gen(s, qd, st->qdot);
  // Full model: the mode's forces depend on the state; ZOD: constants.
  double force[4], qdd[3];
  memcpy(force, sol->force, sizeof force);
  if (sim_is_full(s) && !cvode_mode_accel(&s->km, sol->mode, q, qd, qdd, force))
    memset(force, 0, sizeof force);
  sim_state_contacts(st, s->km.n, c, cd, force);
  if (sim_is_full(s)) {
    // Scaled ZOD coordinates: divided by eps^2 (positions) and eps (rates).
    const int col[3] = {0, s->km.n == 2 ? 2 : 1, s->km.n == 2 ? 3 : -1};
    for (int r = 0; r < 3; r++) {
      st->zod[r] = (col[r] >= 0 ? c[col[r]] : q[2]) / s->len_scale;
      st->zod_rate[r] = (col[r] >= 0 ? cd[col[r]] : qd[2]) / s->vel_scale;
    }
  } else {
    memcpy(st->zod, q, sizeof st->zod);
    memcpy(st->zod_rate, qd, sizeof st->zod_rate);
  }
  st->mode = sol->mode;
  st->energy = kinematics_energy(&s->km, st->q, st->qdot);
}

void sim_event_state(const zeno_sim *s, zeno_state *st) {
  if (!s->lean_events || sim_is_full(s)) {
    sim_fill_state(s, s->run.t, s->run.q, s->run.qd, &s->run.sol, st);
    return;
  }
  memset(st, 0, sizeof *st);
  st->t = s->run.t;
  memcpy(st->zod, s->run.q, sizeof st->zod);
  memcpy(st->zod_rate, s->run.qd, sizeof st->zod_rate);
  st->mode = s->run.sol.mode;
}

double sim_contact_speed(const zeno_sim *s, const double qd[3]) {
  double c[4], cd[4];
  sim_contacts(s, s->run.q, qd, c, cd);
  return sim_speed_of(s, cd);
}

double sim_speed_of(const zeno_sim *s, const double cd[4]) {
  double v = 0;
  for (int a = 0; a < 2 * s->km.n; a++) {
    const double r = fabs(cd[a]);  // as fmax: a NaN rate is passed over
    if (r > v) v = r;
  }
  return v;
}

/* ---------- constraint projection ---------- */

// Mass-weighted projection of the rates qdot' so that the listed contact
// rates take the target values exactly: dqdot = M^-1 C (C^T M^-1 C)^-1 r in
// generalised coordinates. This removes rounding drift only; it applies no
// physical impulse.
// Under the ZOD with a table the correction is a constant map of r for
// each set of coordinates (their order is fixed by the set: closed gaps,
// then slips, each ascending), made once from contact_correct() of the unit
// vectors. False when the coordinates are dependent.
static bool correct_mapped(zeno_sim *s, double W[3][4], const int *cols, int m, const double *r,
                           double v[3]) {
  if (!sim_has_table(s)) return contact_correct(W, s->km.inv_mass, cols, m, r, v);
  unsigned key = 0;
  for (int a = 0; a < m; a++) key |= 1u << cols[a];
  sim_table *t = &s->table;
  if (t->correct_state[key] == 0) {
    bool ok = true;
    for (int a = 0; a < m && ok; a++) {
      double unit[4] = {0, 0, 0, 0}, dv[3] = {0, 0, 0};
      unit[a] = 1;
      ok = contact_correct(W, s->km.inv_mass, cols, m, unit, dv);
      for (int k = 0; k < 3; k++) t->correct_K[key][k][a] = ok ? dv[k] : 0;
    }
    t->correct_state[key] = ok ? 1 : 2;
  }
  if (t->correct_state[key] != 1) return false;
  for (int k = 0; k < 3; k++)
    for (int a = 0; a < m; a++) v[k] += t->correct_K[key][k][a] * r[a];
  return true;
}

bool sim_table_projection(zeno_sim *s, const int *cols, int m) {
  double W[3][4], v[3] = {0, 0, 0};
  const double r[4] = {0, 0, 0, 0};
  sim_jacobian(s, s->run.q, W);
  return correct_mapped(s, W, cols, m, r, v);
}

static void sim_project_rates(zeno_sim *s, double vp[3], const int *cols, int m,
                              const double *target) {
  if (m == 0) return;
  double v[3], r[4], W[3][4];
  sim_rates_to_gen(s, vp, v);
  sim_jacobian(s, s->run.q, W);
  for (int a = 0; a < m; a++) {
    double cur = 0;
    for (int k = 0; k < 3; k++) cur += W[k][cols[a]] * v[k];
    r[a] = target[a] - cur;
  }
  if (!correct_mapped(s, W, cols, m, r, v)) return;
  sim_gen_to_rates(s, v, vp);
  // ZOD gap rates are components of qdot': make the targeted ones exact.
  if (!sim_is_full(s))
    for (int a = 0; a < m; a++)
      if (cols[a] % 2 == 0) vp[cols[a] / 2] = target[a];
}

// Gaps of the listed contacts to exactly zero: under the ZOD they are the
// first n components of q' (z1, z2 or z1 alone); in the full model a
// Newton projection onto the nonlinear constraints.
void sim_zero_gaps(zeno_sim *s, const bool closed[2]) {
  if (sim_is_full(s)) {
    sim_full_zero_gaps(s, closed);
    return;
  }
  for (int i = 0; i < s->km.n; i++)
    if (closed[i]) s->run.q[i] = 0;
}

// The contact dynamics at the current state (constant under the ZOD).
void sim_refresh_dyn(zeno_sim *s) {
  if (sim_is_full(s)) sim_full_refresh_dyn(s);
}

// Gaps and normal rates of closed contacts to exactly zero, and slip rates
// of contacts classified as not slipping.
void sim_enforce(zeno_sim *s, const mode_class *cls) {
  int cols[4] = {0, 0, 0, 0}, m = 0;
  const double target[4] = {0, 0, 0, 0};
  bool closed[2] = {false, false};
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED) {
      closed[i] = true;
      cols[m++] = 2 * i;
    }
  sim_zero_gaps(s, closed);
  for (int i = 0; i < s->km.n; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED && cls->slip[i] == MODE_SLIP_ZERO) cols[m++] = 2 * i + 1;
  bool all_zero = m == 2 * s->km.n && m >= 3;
  if (m > 3) m = 3;  // three velocity constraints already fix qdot = 0
  sim_project_rates(s, s->run.qd, cols, m, target);
  // All velocities of a fully constrained body are zero; make it exact.
  if (all_zero) s->run.qd[0] = s->run.qd[1] = s->run.qd[2] = 0;
}

/* ---------- classification and mode selection ---------- */

tolerances sim_make_tol(const zeno_sim *s, double vscale) {
  return zero_tol_make(s->def.velocity_rtol, s->def.force_rtol, vscale, s->km.mass,
                       s->km.force_scale, s->km.accel_scale);
}

static unsigned char slip_class(double xd, double tol) {
  if (xd > tol) return MODE_SLIP_POS;
  if (xd < -tol) return MODE_SLIP_NEG;
  return MODE_SLIP_ZERO;
}

// closed[i]: the contact is known to touch (z = 0) at this instant.
void sim_classify(const zeno_sim *s, const bool touching[2], double tol_v, mode_class *cls) {
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  memset(cls, 0, sizeof *cls);
  for (int i = 0; i < s->km.n; i++) {
    if (!touching[i]) {
      cls->gap[i] = MODE_GAP_OPEN;
    } else if (cd[2 * i] > tol_v) {
      cls->gap[i] = MODE_GAP_OPEN;
    } else if (cd[2 * i] < -tol_v) {
      cls->gap[i] = MODE_GAP_IMPACTING;
    } else {
      cls->gap[i] = MODE_GAP_CLOSED;
    }
    cls->slip[i] = slip_class(cd[2 * i + 1], tol_v);
  }
}

static bool is_rest(const zeno_sim *s, const mode_solution *sol, const tolerances *tol) {
  for (int i = 0; i < s->km.n; i++)
    if (sol->mode.letter[i] != ZENO_LETTER_S) return false;
  if (sim_contact_speed(s, s->run.qd) != 0) return false;
  // One contact: sticking must also hold the body still (no pivoting).
  double c[4], cd[4], qddp[3];
  sim_mode_rates(s, sol, qddp);
  sim_contacts(s, (double[3]){0, 0, 0}, qddp, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++)
    if (fabs(cd[a]) > tol->mode.accel) return false;
  const double rot = fabs(sol->qdd[2]) * s->km.length_scale;
  return rot <= tol->mode.accel && hypot(sol->qdd[0], sol->qdd[1]) <= tol->mode.accel;
}

double sim_choice_margin(zeno_sim *s, const mode_class *cls) {
  const int n = s->km.n, total = n == 2 ? ZENO_MAX_MODES : 4;
  double margin = INFINITY;
  for (int code = 0; code < total; code++) {
    const zeno_mode mode = zeno_mode_of_code((unsigned)code);
    if (!mode_admissible(cls, n, mode)) continue;
    // Two closed contacts with one sticking lock the body (three velocity
    // constraints): the other's slip acceleration is zero identically, a
    // structural zero, never a tie (SS has its own static margin).
    int constraints = 0, stick = 0;
    for (int i = 0; i < n; i++) {
      constraints += mode.letter[i] != ZENO_LETTER_F;
      stick += mode.letter[i] == ZENO_LETTER_S;
    }
    if (constraints + stick >= 3 && stick < n) continue;
    mode_solution sol;
    if (!mode_solve_cached(&s->dyn, mode, sim_is_full(s) ? NULL : &s->mode_cache, &sol)) continue;
    const double slack = mode_slack(&s->dyn, cls, &sol, s->km.force_scale, s->km.accel_scale);
    if (isfinite(slack)) margin = fmin(margin, fabs(slack));
  }
  return margin;
}

// The consistent modes of a class in preference order, and the choice's
// tie margin: from the table when the scene has one and met the class
// before (returns false), else worked out, their solutions in all[] (returns
// true), and remembered in the table.
static bool consistent_modes(zeno_sim *s, const mode_class *cls, const tolerances *tol,
                             sim_choice *ch, mode_solution all[ZENO_MAX_MODES]) {
  const bool table = sim_has_table(s);
  const unsigned code = table ? sim_table_class_code(cls) : 0;
  const sim_choice *known = table ? sim_table_find(&s->table, code) : NULL;
  if (known != NULL) {
    *ch = *known;
    return false;
  }
  // Under the ZOD the mode solutions are constants: solve each once.
  const int n = mode_enumerate_cached(&s->dyn, cls, &tol->mode,
                                      sim_is_full(s) ? NULL : &s->mode_cache, all);
  ch->count = (uint8_t)n;
  for (int k = 0; k < n; k++)
    ch->code[k] = (uint8_t)(all[k].mode.letter[0] + 4 * all[k].mode.letter[1]);
  ch->margin = sim_choice_margin(s, cls);
  if (table) sim_table_store(&s->table, code, ch);
  return true;
}

void sim_class_choice(zeno_sim *s, const mode_class *cls, const tolerances *tol, sim_choice *ch) {
  mode_solution all[ZENO_MAX_MODES];
  consistent_modes(s, cls, tol, ch, all);
}

// True when the modes' generalised accelerations agree to the acceleration
// zero (rotation on the length scale): one motion, however its contacts
// are named.
static bool one_motion(const zeno_sim *s, const mode_solution *sol, int n, double zero) {
  for (int k = 1; k < n; k++)
    if (hypot(sol[k].qdd[0] - sol[0].qdd[0], sol[k].qdd[1] - sol[0].qdd[1]) > zero ||
        fabs(sol[k].qdd[2] - sol[0].qdd[2]) * s->km.length_scale > zero)
      return false;
  return true;
}

// No mode meets Table 1's strict conditions: the modes that meet them read
// closed (a contact force and the acceleration it would prevent both zero,
// e.g. a sliding box's trailing corner at mu = b / h exactly) in all[],
// their count returned, and the choice noted as an exact tie. Modes that
// all move the body alike are one motion: the most static of them is
// kept alone (its force is zero where another's contact lifts).
static int tied_modes(zeno_sim *s, const mode_class *cls, const tolerances *tol,
                      mode_solution all[ZENO_MAX_MODES]) {
  mode_tol closed = tol->mode;
  closed.closed = true;
  int n = mode_enumerate_cached(&s->dyn, cls, &closed, &s->mode_cache, all);
  if (n > 1 && one_motion(s, all, n, tol->mode.accel)) n = 1;
  if (n > 0) sim_note_tie(s, 0);
  return n;
}

// No mode is consistent: the run ends `inconsistent`, with every mode's
// refusal as its proof (under the ZOD read closed, as the ties were).
static void end_inconsistent(zeno_sim *s, const mode_class *cls, const tolerances *tol) {
  mode_tol proof = tol->mode;
  proof.closed = !sim_is_full(s);
  mode_explain(&s->dyn, cls, &proof, &s->run.refusals);
  s->run.refusal_of_impact = false;
  s->run.end_pending = true;
  s->run.pending_outcome = ZENO_OUTCOME_INCONSISTENT;
}

// After an event: choose the next mode and set what ends the run, if anything.
void sim_choose_next(zeno_sim *s, const mode_class *cls, const tolerances *tol) {
  sim_choice ch;
  mode_solution all[ZENO_MAX_MODES];
  bool solved = consistent_modes(s, cls, tol, &ch, all);
  int n = ch.count;
  sim_note_tie(s, ch.margin);
  if (n == 0 && !sim_is_full(s)) {
    // Under the ZOD states and mode solutions are exact, and so are its
    // ties. (The full model's states carry the integrator's error: a tie
    // within the zero there is one in some units and not in others, and
    // 4 of 640 full-model runs in other units went on differently.)
    n = tied_modes(s, cls, tol, all);
    solved = true;
  } else if (!solved) {
    for (int k = 0; k < n; k++) all[k].mode = zeno_mode_of_code(ch.code[k]);
  }
  s->run.consistent_count = (size_t)n;
  for (int k = 0; k < n; k++) s->run.consistent[k] = all[k].mode;
  if (n == 0) {
    end_inconsistent(s, cls, tol);
    return;
  }
  int pick = 0;  // one mode, or the most static (prefer_static)
  if (n > 1) {
    if (s->scene.ambiguity == ZENO_AMBIGUITY_PREFER_MOTION) {
      pick = n - 1;
    } else if (s->scene.ambiguity != ZENO_AMBIGUITY_PREFER_STATIC) {
      s->run.end_pending = true;
      s->run.pending_outcome = ZENO_OUTCOME_AMBIGUOUS;
      return;
    }
  }
  // The chosen mode's solution: just worked out, or, for a class the table
  // knew, from the ZOD's cache of mode solutions (it solved when the class
  // was first met, so it is there).
  mode_solution chosen;
  if (solved) {
    chosen = all[pick];
  } else if (!mode_solve_cached(&s->dyn, s->run.consistent[pick], &s->mode_cache, &chosen)) {
    end_inconsistent(s, cls, tol);
    return;
  }
  s->run.sol = chosen;
  if (is_rest(s, &chosen, tol)) {
    s->run.end_pending = true;
    s->run.pending_outcome = ZENO_OUTCOME_REST;
  }
}
