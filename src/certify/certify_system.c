// The ZOD system of a two-contact scene for the Lyapunov certificate
// (certify_system.h): M', the load potential, the modes' constant
// accelerations (Table 1, dynamics/mode_table.h) and the impact law's
// cases as linear maps, each built from the simulator's own solves
// (mode_solve, contact_solve) applied to unit velocities: the solves are linear in
// their right-hand side, so the columns are the maps.
#include "certify/certify_system.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/friction_cone.h"
#include "dynamics/mode_table.h"
#include "zeno/equilibrium.h"
#include "zeno/impact_law.h"

/// Strictness of the modes' consistency tests, relative to the load: a mode
/// within this of consistent is kept (keeping one too many is sound).
#define CERT_FORCE_RTOL 1e-10

static bool refuse(bool *refused, char *reason, const char *text) {
  *refused = true;
  snprintf(reason, CERT_REASON_SIZE, "%s", text);
  return false;
}

// Contact velocities (n1, t1, n2, t2) of a ZOD velocity qdp.
static void contact_velocities(const cert_system *s, const double qdp[3], double v[4]) {
  for (int a = 0; a < 4; a++) {
    v[a] = 0;
    for (int r = 0; r < 3; r++) v[a] += s->km.Cp[r][a] * qdp[r];
  }
}

// Generalised velocity change M^-1 W x in ZOD coordinates, added to qdp.
static void apply_impulse(const cert_system *s, const double qdp[3], const double x[4],
                          double out[3]) {
  const double zero[3] = {0, 0, 0};
  double dqd[3], dqp[3];
  contact_generalized(&s->d, zero, x, dqd);
  kinematics_gen_to_zod(&s->km, dqd, dqp);
  for (int r = 0; r < 3; r++) out[r] = qdp[r] + dqp[r];
}

static void add_cond(cert_case *c, const double row[3], double sign) {
  if (c->ncond >= CERT_MAX_CONDS) return;
  for (int r = 0; r < 3; r++) c->cond[c->ncond][r] = sign * row[r];
  c->ncond++;
}

static void unit_row(int r, double row[3]) {
  for (int k = 0; k < 3; k++) row[k] = k == r ? 1.0 : 0.0;
}

// A complementarity candidate (letters at contacts with impulse, F at the
// others) as linear maps: column r is the solve for qdp = e_r.
static bool letter_case(const cert_system *s, const unsigned char letter[2], bool both,
                        cert_case *c) {
  double yv[4][3];
  for (int r = 0; r < 3; r++) {
    double qdp[3], v[4], b[4], x[4], y[4];
    unit_row(r, qdp);
    contact_velocities(s, qdp, v);
    for (int a = 0; a < 4; a++) b[a] = v[a];
    for (int i = 0; i < 2; i++)
      if (letter[i] != ZENO_LETTER_F) b[2 * i] += s->e * v[2 * i];  // restitution target
    if (!contact_solve(&s->d, b, letter, x, y)) return false;
    double post[3];
    apply_impulse(s, qdp, x, post);
    for (int k = 0; k < 3; k++) c->post[k][r] = post[k];
    for (int a = 0; a < 4; a++) {
      c->impulse[a][r] = x[a];
      yv[a][r] = y[a];
    }
  }
  c->letter[0] = letter[0];
  c->letter[1] = letter[1];
  c->both = both;
  c->ncond = 0;
  for (int i = 0; i < 2; i++) {
    if (letter[i] == ZENO_LETTER_F) continue;
    double row[3];
    unit_row(i, row);
    add_cond(c, row, -1.0);  // approaching or closed: u_i <= 0
    double xn[3], xt[3];
    for (int r = 0; r < 3; r++) {
      xn[r] = c->impulse[2 * i][r];
      xt[r] = c->impulse[2 * i + 1][r];
    }
    add_cond(c, xn, 1.0);              // a pushing normal impulse
    if (letter[i] == ZENO_LETTER_S) {  // inside the cone: mu xn -+ xt >= 0
      double a[3], b[3];
      for (int r = 0; r < 3; r++) {
        a[r] = friction_cone_edge(s->d.mu[i], xn[r], xt[r], 1);
        b[r] = friction_cone_edge(s->d.mu[i], xn[r], xt[r], -1);
      }
      add_cond(c, a, 1.0);
      add_cond(c, b, 1.0);
    } else {  // the post-impact slip has the letter's sign
      add_cond(c, yv[2 * i + 1], letter[i] == ZENO_LETTER_P ? 1.0 : -1.0);
    }
  }
  return true;
}

// Both contacts stick: qdot+ meets all four velocity targets, three of them
// fix it (the best-conditioned rows of W, as the impact law picks them; the
// choice depends on W only) and the fourth must hold: two conditions
// +-(its residual) >= 0. The impulses are a family; no condition on them
// (a larger domain is sound).
static bool double_stick_case(const cert_system *s, cert_case *c) {
  double best = 0;
  int skip = -1;
  for (int k = 0; k < 4; k++) {
    int r[3], n = 0;
    for (int a = 0; a < 4; a++)
      if (a != k) r[n++] = a;
    const double(*W)[4] = s->d.W;
    const double det = W[0][r[0]] * (W[1][r[1]] * W[2][r[2]] - W[2][r[1]] * W[1][r[2]]) -
                       W[1][r[0]] * (W[0][r[1]] * W[2][r[2]] - W[2][r[1]] * W[0][r[2]]) +
                       W[2][r[0]] * (W[0][r[1]] * W[1][r[2]] - W[1][r[1]] * W[0][r[2]]);
    if (fabs(det) > best) {
      best = fabs(det);
      skip = k;
    }
  }
  if (skip < 0) return false;
  double resid[3];
  for (int r = 0; r < 3; r++) {
    double qdp[3], v[4], shift[4] = {0, 0, 0, 0}, A[9], t[3];
    unit_row(r, qdp);
    contact_velocities(s, qdp, v);
    shift[0] = s->e * v[0];
    shift[2] = s->e * v[2];
    int n = 0;
    for (int a = 0; a < 4; a++) {
      if (a == skip) continue;
      for (int k = 0; k < 3; k++) A[n * 3 + k] = s->d.W[k][a];
      t[n++] = -shift[a];
    }
    if (!zeno_linsolve(3, A, t, ZENO_PIVOT_RTOL)) return false;
    double vs = shift[skip];
    for (int k = 0; k < 3; k++) vs += s->d.W[k][skip] * t[k];
    resid[r] = vs;
    double post[3];
    kinematics_gen_to_zod(&s->km, t, post);
    for (int k = 0; k < 3; k++) c->post[k][r] = post[k];
    for (int a = 0; a < 4; a++) c->impulse[a][r] = 0;
  }
  c->letter[0] = c->letter[1] = ZENO_LETTER_S;
  c->both = true;
  c->contact = 0;
  c->ncond = 0;
  double row[3];
  unit_row(0, row);
  add_cond(c, row, -1.0);
  unit_row(1, row);
  add_cond(c, row, -1.0);
  bool zero = true;
  for (int r = 0; r < 3; r++) zero = zero && fabs(resid[r]) <= ZENO_PIVOT_RTOL;
  if (!zero) {
    add_cond(c, resid, 1.0);
    add_cond(c, resid, -1.0);
  }
  return true;
}

// The Chatterjee-Ruina law's own impact at contact i alone
// (impact.c's resolve_chatterjee_ruina), with n, t its normal and
// tangential rows of the Delassus matrix D: P_II = (pn_II, pt_II), the
// sticking plastic impulse (letter S, no restitution), P_I = (pn_I, 0) with
// pn_I = -v_n / Dnn, and the candidate P = (1 + e) P_I + (1 + et) (P_II - P_I),
// linear in qdot'-. Clipped when |pt| > mu pn: then P lies on the cone's
// edge pt = sig mu pn with sig = sign(pt_II), on the line
// (1 + e) P_I + kappa (P_II - P_I). Since D P_II = -v, pn_II - pn_I =
// -(Dnt / Dnn) pt_II: the line's direction (-Dnt / Dnn, 1) is fixed, and the
// edge point is pn = -(1 + e) v_n / (Dnn + sig mu Dnt), linear too (the
// simulator's kappa is the ratio that gives it). Cases: the cone (S) on
// mu pn -+ pt >= 0; the edge sig = -1 (letter P) on pt_II <= 0, -pt - mu pn
// >= 0; sig = +1 (letter N) on pt_II >= 0, pt - mu pn >= 0; all with
// u_i <= 0. (The law's refusals, a touching other contact driven in, only
// shrink where a case is chosen: not conditions, which is sound.)
static bool cr_case(const cert_system *s, int i, int sig, cert_case *c) {
  const int n = 2 * i, t = n + 1;
  const double Dnn = s->d.D[n][n], Dnt = s->d.D[n][t], mu = s->d.mu[i];
  if (!(Dnn > 0)) return false;
  const double edge = Dnn + sig * mu * Dnt;
  if (sig != 0 && !(edge > ZENO_PIVOT_RTOL * Dnn)) return false;
  double pnu[3], ptu[3], ptII[3];
  memset(c, 0, sizeof *c);
  for (int r = 0; r < 3; r++) {
    double qdp[3], v[4], x[4], y[4], imp[4] = {0, 0, 0, 0};
    unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
    letter[i] = ZENO_LETTER_S;
    unit_row(r, qdp);
    contact_velocities(s, qdp, v);
    if (!contact_solve(&s->d, v, letter, x, y)) return false;
    const double pnI = -v[n] / Dnn;
    pnu[r] = (1 + s->e) * pnI + (1 + s->et) * (x[n] - pnI);
    ptu[r] = (1 + s->et) * x[t];
    ptII[r] = x[t];
    if (sig == 0) {
      imp[n] = pnu[r];
      imp[t] = ptu[r];
    } else {
      imp[n] = -(1 + s->e) * v[n] / edge;
      imp[t] = sig * mu * imp[n];
    }
    double post[3];
    apply_impulse(s, qdp, imp, post);
    for (int k = 0; k < 3; k++) c->post[k][r] = post[k];
    for (int a = 0; a < 4; a++) c->impulse[a][r] = imp[a];
  }
  c->kind = sig == 0 ? CERT_CR_CONE : CERT_CR_EDGE;
  c->contact = i;
  c->letter[0] = c->letter[1] = ZENO_LETTER_F;
  c->letter[i] = sig == 0 ? ZENO_LETTER_S : sig < 0 ? ZENO_LETTER_P : ZENO_LETTER_N;
  double row[3];
  unit_row(i, row);
  add_cond(c, row, -1.0);  // approaching: u_i <= 0
  double a[3], b[3];
  for (int r = 0; r < 3; r++) {  // mu pn -+ pt (inside), or sig pt - mu pn (clipped)
    a[r] = friction_cone_edge(mu, pnu[r], ptu[r], 1);
    b[r] = friction_cone_edge(mu, pnu[r], ptu[r], -1);
  }
  if (sig == 0) {
    add_cond(c, a, 1.0);
    add_cond(c, b, 1.0);
  } else {
    add_cond(c, ptII, sig);
    add_cond(c, sig < 0 ? b : a, -1.0);
  }
  return true;
}

// The single impacts of a law with a rule of its own (impact.c's
// impact_resolve): the cases before the complementarity law's.
static bool own_cases(cert_system *s, char *reason) {
  switch (s->law) {
    case ZENO_LAW_INELASTIC:
    case ZENO_LAW_NEWTON: return true;  // the complementarity law's cases only
    case ZENO_LAW_CHATTERJEE_RUINA:
      // Its own single impacts, then the complementarity law with
      // restitution e that it falls back to (double impacts, a touching
      // contact driven in). Its second fallback, to e = 0 where the first
      // adds energy, is never taken when every case of the first keeps V1
      // from growing, which the certificate asks (docs/certificate.md).
      for (int i = 0; i < 2; i++)
        for (int sig = -1; sig <= 1; sig++) {
          if (!cr_case(s, i, sig, &s->cases[s->ncases])) {
            snprintf(reason, CERT_REASON_SIZE,
                     "the Chatterjee-Ruina impact at contact %d is singular (its sticking "
                     "solve, or an edge impulse that would pull)",
                     i + 1);
            return false;
          }
          s->ncases++;
        }
      return true;
  }
  return false;
}

static bool build_cases(cert_system *s, char *reason) {
  static const unsigned char order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  s->ncases = 0;
  if (!own_cases(s, reason)) return false;
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 3; k++) {
      unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
      letter[i] = order[k];
      cert_case *c = &s->cases[s->ncases];
      if (!letter_case(s, letter, false, c)) continue;  // singular: never chosen
      c->contact = i;
      s->ncases++;
    }
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      if (a == 0 && b == 0) continue;  // SS: below
      const unsigned char letter[2] = {order[a], order[b]};
      cert_case *c = &s->cases[s->ncases];
      if (!letter_case(s, letter, true, c)) continue;
      c->contact = 0;
      s->ncases++;
    }
  if (!double_stick_case(s, &s->cases[s->ncases])) {
    snprintf(reason, CERT_REASON_SIZE, "%s", "the double sticking impact is singular");
    return false;
  }
  s->ncases++;
  return true;
}

// Whether the solved mode's forces satisfy Table 1's force conditions
// within tol (the free contacts' acceleration tests apply only at z = 0,
// which the certificate's domains do not separate: not used).
static bool forces_consistent(const cert_system *s, const mode_solution *sol, double tol) {
  for (int i = 0; i < 2; i++) {
    const unsigned char l = sol->mode.letter[i];
    if (l == ZENO_LETTER_F) continue;
    if (sol->force[2 * i] < -tol) return false;
    if (l == ZENO_LETTER_S && contact_cone_slack(&s->d, sol->force, i) < -tol) return false;
  }
  return true;
}

static bool build_modes(cert_system *s, bool *refused, char *reason) {
  const double tol = CERT_FORCE_RTOL * s->km.force_scale;
  s->nmodes = 0;
  for (int l0 = 0; l0 < 4; l0++)
    for (int l1 = 0; l1 < 4; l1++) {
      const zeno_mode m = {{(unsigned char)l0, (unsigned char)l1}};
      const bool closed0 = l0 != ZENO_LETTER_F, closed1 = l1 != ZENO_LETTER_F;
      if (!closed0 && !closed1) continue;                        // free flight: with the impacts
      if (l0 == ZENO_LETTER_S && l1 == ZENO_LETTER_S) continue;  // static
      if (closed0 && closed1) {
        // Both closed: w1 = slip1[2] w2, so the slips' signs are tied and a
        // sticking contact stops the other (static).
        if (l0 == ZENO_LETTER_S || l1 == ZENO_LETTER_S) continue;
        const bool same = l0 == l1;
        if ((s->slip1[2] > 0) != same) continue;
      }
      mode_solution sol;
      if (!mode_solve(&s->d, m, &sol)) {
        char name[8], text[CERT_REASON_SIZE];
        snprintf(text, sizeof text, "mode %s is singular under the ZOD",
                 zeno_mode_name(m, 2, name));
        return refuse(refused, reason, text);
      }
      if (!forces_consistent(s, &sol, tol)) continue;
      cert_mode *out = &s->modes[s->nmodes++];
      out->mode = m;
      kinematics_gen_to_zod(&s->km, sol.qdd, out->acc);
      for (int a = 0; a < 4; a++) out->force[a] = sol.force[a];
    }
  return true;
}

// The equilibrium's requirements without GLPK: SS consistent at rest (the
// max-margin member of the static family, mode_static, the same margin as
// the equilibrium LP unless the body is wedged), no non-static mode
// consistent at rest (Theorem 1, as zeno_equilibrium_check decides it),
// no contact exposed to Painleve's paradox. False after a refusal.
static bool equilibrium_ok(const cert_system *s, const zeno_scene *own, bool *refused,
                           char *reason) {
  const mode_tol tol = {CERT_FORCE_RTOL * s->km.force_scale, CERT_FORCE_RTOL * s->km.accel_scale,
                        false};
  mode_solution ss;
  double margin = -INFINITY;
  if (!mode_static(&s->d, &ss, &margin) || !(margin > tol.force))
    return refuse(refused, reason, "no static equilibrium: SS is not consistent");
  mode_class cls;
  memset(&cls, 0, sizeof cls);
  for (int i = 0; i < 2; i++) {
    cls.gap[i] = MODE_GAP_CLOSED;
    cls.slip[i] = MODE_SLIP_ZERO;
  }
  mode_solution all[ZENO_MAX_MODES];
  const int n = mode_enumerate(&s->d, &cls, &tol, all);
  for (int k = 0; k < n; k++)
    if (!all[k].is_static &&
        !(all[k].mode.letter[0] == ZENO_LETTER_S && all[k].mode.letter[1] == ZENO_LETTER_S))
      return refuse(refused, reason,
                    "ambiguous equilibrium: a non-static mode is consistent at rest "
                    "(Theorem 1); Theorem 2 needs an unambiguous one");
  for (int i = 0; i < 2; i++)
    if (!(s->km.mu[i] < zeno_painleve_bound(s->km.rho, s->km.p[i], own->contacts[i].surface_angle)))
      return refuse(refused, reason,
                    "a slipping contact is exposed to Painleve's paradox (bound (11)): "
                    "the dynamics the certificate assumes are not well posed");
  return true;
}

zeno_status cert_build(const zeno_scene *own, cert_system *s, bool *refused,
                       char reason[CERT_REASON_SIZE], zeno_error *e) {
  memset(s, 0, sizeof *s);
  *refused = false;
  reason[0] = '\0';
  if (own->contact_count != 2)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts",
                     "a Lyapunov certificate needs two contacts (the scene has %d)",
                     own->contact_count);
  zeno_status st = kinematics_model_init(&s->km, own, e);
  if (st != ZENO_OK) return st;
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(&s->d, 2, s->km.W0, s->km.inv_mass, s->km.h, bias, s->km.mu);
  if (!equilibrium_ok(s, own, refused, reason)) return ZENO_OK;
  s->law = own->impact_law;
  s->e = zeno_impact_law_restitution(own);
  s->et = zeno_impact_law_tangential_restitution(own);
  // M' = A^-T M A^-1 and U = -h . q = -(A^-T h) . q'.
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      double m = 0;
      for (int k = 0; k < 3; k++) m += s->km.Ainv[k][r] * s->km.Ainv[k][c] / s->km.inv_mass[k];
      s->Mp[r][c] = m;
    }
    double f = 0;
    for (int k = 0; k < 3; k++) f += s->km.Ainv[k][r] * s->km.h[k];
    s->b[r] = -f;
    s->slip1[r] = s->km.Cp[r][1];
  }
  double qdd[3];
  for (int k = 0; k < 3; k++) qdd[k] = s->km.inv_mass[k] * s->km.h[k];
  kinematics_gen_to_zod(&s->km, qdd, s->a_ff);
  // A level floor: the load has no component along the slip (within the
  // modes' tolerance), and V1 bounds neither side of it (two slip
  // functions, docs/certificate.md).
  s->level = !(fabs(s->b[2]) > CERT_FORCE_RTOL * s->km.force_scale);
  if (!build_modes(s, refused, reason)) return ZENO_OK;
  if (!build_cases(s, reason)) *refused = true;
  return ZENO_OK;
}

bool cert_sign_conditions(const cert_system *s, char reason[CERT_REASON_SIZE]) {
  const double tol = CERT_FORCE_RTOL * s->km.force_scale;
  if (s->level) {
    snprintf(reason, CERT_REASON_SIZE, "%s",
             "system condition (55) fails: the load has no component "
             "along the slip x2 (b3 = 0)");
    return false;
  }
  if (!(s->b[0] > tol && s->b[1] > tol)) {
    snprintf(reason, CERT_REASON_SIZE,
             "system condition (56) fails: b1 = %.6g, b2 = %.6g "
             "must be positive",
             s->b[0], s->b[1]);
    return false;
  }
  return true;
}

bool cert_flights(const cert_system *s) { return zeno_impact_law_info_of(s->law).restitution; }

void cert_case_apply(const cert_case *c, const double qdp[3], double out[3]) {
  for (int k = 0; k < 3; k++) {
    out[k] = 0;
    for (int r = 0; r < 3; r++) out[k] += c->post[k][r] * qdp[r];
  }
}

bool cert_case_holds(const cert_case *c, const double qdp[3], double tol) {
  for (int k = 0; k < c->ncond; k++) {
    double v = 0;
    for (int r = 0; r < 3; r++) v += c->cond[k][r] * qdp[r];
    if (v < -tol) return false;
  }
  return true;
}
