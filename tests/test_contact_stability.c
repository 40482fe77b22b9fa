// The equilibrium's max-margin LP in closed form against GLPK's solution;
// Pang–Trinkle weak and strong stability (disk Example 1, ramp Example 2,
// Theorem 4, Proposition 5); Dupont jamming (eq. (43)) and wedging
// (Theorem 2). Expected values come from the papers or closed forms.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <cmocka.h>

#include "analysis/equilibrium_lp.h"
#include "dynamics/contact_solve.h"
#include "dynamics/kinematics.h"
#include "test_util.h"

/// LP margin vs exact family margin (brief: 1e-9, load of size 1).
#define MARGIN_TOL 1e-9

/* ---------- helpers ---------- */

static void set_load(zeno_scene *s, const double g[3]) {
  s->load_magnitude = hypot(g[0], g[1]);
  s->load_angle = atan2(g[0], -g[1]);  // f = |f| (sin a, -cos a)
  s->load_torque = g[2];
}

// A body of mass 1 with the given rho and contacts (point, surface angle, mu).
static zeno_scene body_scene(double rho, int n, const double pts[][2], const double phi[],
                             const double mu[]) {
  zeno_scene s = zeno_scene_default();
  s.has_paper = false;
  s.mass = 1;
  s.rho = rho;
  s.contact_count = n;
  for (int i = 0; i < n; i++) {
    s.contacts[i].point[0] = pts[i][0];
    s.contacts[i].point[1] = pts[i][1];
    s.contacts[i].surface_angle = phi[i];
    s.contacts[i].surface_point_set = false;
    s.contacts[i].mu = mu[i];
  }
  s.initial_kind = ZENO_INITIAL_POSE;
  return s;
}

// Pang–Trinkle Example 1 in zeno's terms: a uniform disk, R = sqrt(2),
// m = 1 (so rho = R / sqrt(2) = 1), fixels at theta_i; the surface touching
// the disk at theta has normal -(cos, sin) theta (towards the centre), so
// phi = theta + 90 deg.
static const double DISK_THETA[2] = {ZENO_PI / 4, 2.5 * ZENO_PI / 4};
static zeno_scene disk_scene(double mu1, double mu2, const double g[3]) {
  const double R = sqrt(2.0);
  const double pts[2][2] = {{R * cos(DISK_THETA[0]), R * sin(DISK_THETA[0])},
                            {R * cos(DISK_THETA[1]), R * sin(DISK_THETA[1])}};
  const double phi[2] = {DISK_THETA[0] + ZENO_PI / 2, DISK_THETA[1] + ZENO_PI / 2};
  const double mu[2] = {mu1, mu2};
  zeno_scene s = body_scene(R / sqrt(2.0), 2, pts, phi, mu);
  set_load(&s, g);
  return s;
}

// The same disk from the paper's matrices W_n, W_t and M = diag(1, 1, 1)
// (its tangent is minus zeno's: positive c_t turns clockwise).
static zeno_contact_problem paper_disk(double mu1, double mu2) {
  zeno_contact_problem p;
  memset(&p, 0, sizeof p);
  const double R = sqrt(2.0);
  p.contact_count = 2;
  for (int i = 0; i < 2; i++) {
    const double th = DISK_THETA[i];
    p.normal[i][0] = -cos(th);
    p.normal[i][1] = -sin(th);
    p.normal[i][2] = 0;
    p.tangent[i][0] = sin(th);
    p.tangent[i][1] = -cos(th);
    p.tangent[i][2] = -R;
  }
  p.mu[0] = mu1;
  p.mu[1] = mu2;
  p.inv_mass[0] = p.inv_mass[1] = 1;
  p.inv_mass[2] = 1 / (R * R / 2);
  return p;
}

// r = sin(theta2 - theta1), s = cos(theta2 - theta1) (Example 1).
static double disk_r(void) { return sin(DISK_THETA[1] - DISK_THETA[0]); }
static double disk_s(void) { return cos(DISK_THETA[1] - DISK_THETA[0]); }

static zeno_contact_problem problem_of(const zeno_scene *s) {
  zeno_contact_problem p;
  assert_int_equal(zeno_contact_problem_from_scene(s, &p, NULL), ZENO_OK);
  return p;
}

// Pang–Trinkle Example 2: block on a ramp of angle theta, contacts at the
// ends of the contact segment: p_i = +-t - n with t = (cos, sin) theta,
// n = J t (their W_n, W_t with zeno's tangent sign).
static zeno_scene ramp_scene(double theta, double mu1, double mu2, const double g[3]) {
  const double t[2] = {cos(theta), sin(theta)}, n[2] = {-t[1], t[0]};
  const double pts[2][2] = {{t[0] - n[0], t[1] - n[1]}, {-t[0] - n[0], -t[1] - n[1]}};
  const double phi[2] = {theta, theta}, mu[2] = {mu1, mu2};
  zeno_scene s = body_scene(1, 2, pts, phi, mu);
  set_load(&s, g);
  return s;
}

// Dupont Example 2: a uniform rod of half-length 1 at angle theta between a
// floor (contact 1, lower end) and a ceiling (contact 2, upper end), gravity.
static zeno_scene rod_between_walls(double theta, double mu1, double mu2) {
  const double c = cos(theta), s = sin(theta);
  const double pts[2][2] = {{-c, -s}, {c, s}};
  const double phi[2] = {0, ZENO_PI}, mu[2] = {mu1, mu2};
  zeno_scene sc = body_scene(1 / sqrt(3.0), 2, pts, phi, mu);
  const double g[3] = {0, -1, 0};
  set_load(&sc, g);
  return sc;
}

// Dupont Example 1: uniform rod, half-length l (J = m l^2 / 3), one end on
// the floor, theta between rod and floor, centre of mass up and to the right.
static zeno_scene rod_on_floor(double theta, double mu) {
  const double pts[1][2] = {{-cos(theta), -sin(theta)}};
  const double phi[1] = {0}, mus[1] = {mu};
  return body_scene(1 / sqrt(3.0), 1, pts, phi, mus);
}

// The max-margin static LP of a two-contact scene solved by GLPK (the
// reference of equilibrium.c's closed form), in the scene's own units.
static bool glpk_margin(const zeno_scene *s, kinematics_model *km, lp_margin_result *res) {
  if (kinematics_model_init(km, s, NULL) != ZENO_OK) return false;
  lp_margin_lp lp = {
      .n = 2, .mu = {km->mu[0], km->mu[1]}, .cap = 1e6 * km->force_scale, .scale = km->force_scale};
  memcpy(lp.W, km->W0, sizeof lp.W);
  for (int k = 0; k < 3; k++) lp.rhs[k] = -km->h[k];
  return lp_margin_lp_solve(&lp, res, NULL) == ZENO_OK && res->feasible;
}

// The report's forces are an optimum of the LP whose value GLPK found: they
// balance the load and every cone slack reaches the margin.
static void assert_forces_optimal(const kinematics_model *km, const zeno_equilibrium_report *rep) {
  for (int r = 0; r < 3; r++) {
    double sum = km->h[r];
    for (int i = 0; i < 2; i++)
      sum += km->W0[r][2 * i] * rep->forces[i][0] + km->W0[r][2 * i + 1] * rep->forces[i][1];
    assert_true(fabs(sum) < 1e-9 * km->force_scale * (1 + fabs(rep->margin) / km->force_scale));
  }
  for (int i = 0; i < 2; i++) {
    const double n = rep->forces[i][0], t = rep->forces[i][1], mu = km->mu[i];
    const double slack = fmin(n, fmin(mu * n - t, mu * n + t) / sqrt(1 + mu * mu));
    assert_true(slack >= rep->margin - MARGIN_TOL * (1 + fabs(rep->margin)));
  }
}

static zeno_paper_params random_paper(rng *seed) {
  zeno_paper_params p = example2();
  p.alpha = rng_uniform(seed, -50, 50);
  p.l1 = rng_uniform(seed, -3, 3);
  do p.l2 = rng_uniform(seed, -3, 3);
  while (fabs(p.l2 - p.l1) < 0.2);
  p.h = rng_uniform(seed, 0.1, 2);
  p.phi1 = rng_uniform(seed, -70, 70);
  p.phi2 = rng_uniform(seed, -70, 70);
  p.mu1 = rng_uniform(seed, 0, 1.5);
  p.mu2 = rng_uniform(seed, 0, 1.5);
  p.rho = rng_uniform(seed, 0.3, 2);
  return p;
}

/* ---------- 1. the equilibrium's closed form vs GLPK's LP ---------- */

static void lp_margin_matches_family_on_paper_examples(void **state) {
  (void)state;
  const zeno_paper_params ps[3] = {example2(), example3(), example4()};
  for (int k = 0; k < 3; k++) {
    zeno_scene s = zeno_scene_default();
    zeno_scene_apply_paper(&s, &ps[k]);
    zeno_equilibrium_report rep;
    assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
    kinematics_model km;
    lp_margin_result lp;
    assert_true(glpk_margin(&s, &km, &lp));
    assert_true(rep.feasible && !rep.wedged && !lp.capped);
    assert_true(fabs(rep.margin - lp.margin) < MARGIN_TOL);
    assert_forces_optimal(&km, &rep);
  }
}

// Seeded random two-contact configurations: every margin (feasible or not)
// agrees with GLPK's, wedged ones are capped in both, and the closed form's
// forces are an optimum.
static void lp_margin_matches_family_random(void **state) {
  (void)state;
  rng seed = {0x2545F4914F6CDD1DULL};
  int feasible = 0, infeasible = 0, wedged = 0;
  double worst = 0;
  for (int k = 0; k < 1500; k++) {
    zeno_paper_params p = random_paper(&seed);
    zeno_scene s = zeno_scene_default();
    zeno_scene_apply_paper(&s, &p);
    zeno_equilibrium_report rep;
    if (zeno_equilibrium_check(&s, &rep, NULL) != ZENO_OK) continue;
    kinematics_model km;
    lp_margin_result lp;
    assert_true(glpk_margin(&s, &km, &lp));
    assert_int_equal(rep.wedged, lp.capped);
    assert_forces_optimal(&km, &rep);
    if (rep.wedged) {
      assert_true(rep.feasible);
      assert_true(fabs(rep.margin - 1e6 * s.load_magnitude) < 1e-3);
      wedged++;
      continue;
    }
    assert_true(fabs(rep.margin - lp.margin) < MARGIN_TOL);
    worst = fmax(worst, fabs(rep.margin - lp.margin));
    if (rep.feasible) feasible++;
    else infeasible++;
  }
  assert_true(feasible >= 200 && infeasible >= 200 && wedged >= 10);
  // GLPK's refined vertex and the closed form are both exact to rounding
  // (1.8e-14 seen); GLPK's own unrefined point was off by up to 4e-10.
  assert_true(worst < 1e-12);
}

// The margin scales with the load (homogeneity): a load of 1e-9 gives 1e-9
// times the margin of a unit load, not a tolerance artefact.
static void lp_margin_is_homogeneous(void **state) {
  (void)state;
  zeno_scene s = zeno_scene_default();
  zeno_paper_params p = example3();
  zeno_scene_apply_paper(&s, &p);
  zeno_equilibrium_report big, small;
  assert_int_equal(zeno_equilibrium_check(&s, &big, NULL), ZENO_OK);
  s.load_magnitude = 1e-9;
  assert_int_equal(zeno_equilibrium_check(&s, &small, NULL), ZENO_OK);
  assert_true(small.feasible);
  assert_true(rel_diff(small.margin, 1e-9 * big.margin) < 1e-9);
}

// One contact keeps the S solve: a vertex straight below the centre of
// mass carries f_n = |f|, f_t = 0, slack mu / sqrt(1 + mu^2); a vertex off
// to the side tips the body (not still).
static void one_contact_equilibrium(void **state) {
  (void)state;
  zeno_scene s = one_contact_scene(1, 0, -1, 0.5, 2);
  zeno_equilibrium_report rep;
  assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
  assert_true(rep.feasible && !rep.wedged);
  assert_true(fabs(rep.forces[0][0] - 2) < 1e-12 && fabs(rep.forces[0][1]) < 1e-12);
  assert_true(fabs(rep.margin - 2 * 0.5 / sqrt(1.25)) < 1e-12);
  s = one_contact_scene(1, 0.3, -1, 0.5, 2);
  assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
  assert_false(rep.feasible);
}

// One contact balances a load only through its line of action: exactly
// (vertex below the centre of mass) yes, 1e-10 off no. GLPK alone accepts
// that point (within its feasibility tolerance); the library certifies
// the point to rounding (LP_CERTIFIED_RTOL).
static void one_contact_weak_stability_is_exact(void **state) {
  (void)state;
  zeno_scene s = one_contact_scene(1, 0, -1, 0.5, 1);
  zeno_contact_problem p = problem_of(&s);
  zeno_weak_stability w;
  assert_int_equal(zeno_weak_stability_check(&p, &w, NULL), ZENO_OK);
  assert_true(w.weakly_stable);
  assert_true(fabs(w.margin - 0.5 / sqrt(1.25)) < 1e-14);
  s = one_contact_scene(1, 1e-10, -1, 0.5, 1);
  p = problem_of(&s);
  assert_int_equal(zeno_weak_stability_check(&p, &w, NULL), ZENO_OK);
  assert_false(w.weakly_stable);
  assert_true(isinf(w.margin) && w.margin < 0);
}

/* ---------- 2. Pang–Trinkle ---------- */

// The paper's numbers r = 0.9239, s = 0.3827, r/(1-s) = 1.4966 (4 digits).
static void disk_constants_of_the_paper(void **state) {
  (void)state;
  assert_true(fabs(disk_r() - 0.9239) < 5e-5);
  assert_true(fabs(disk_s() - 0.3827) < 5e-5);
  assert_true(fabs(disk_r() / (1 - disk_s()) - 1.4966) < 5e-5);
}

// Weak stability of the disk against (12)-(15): a load is weakly stable iff
// some c_2t satisfies the four inequalities alpha_k c_2t >= beta_k.
static int disk_closed_form(double mu1, double mu2, const double g[3]) {
  const double R = sqrt(2.0), r = disk_r(), s = disk_s();
  const double t1 = DISK_THETA[0], t2 = DISK_THETA[1];
  const double y = -mu1 * g[0] * sin(t2) + mu1 * g[1] * cos(t2);
  const double x = -g[0] * sin(t1) + g[1] * cos(t1) - g[2] / R;
  const double alpha[4] = {r + mu1 * (1 - s), -r + mu1 * (1 - s), -(r - mu2 * (1 - s)),
                           r + mu2 * (1 - s)};
  const double beta[4] = {y + (r - mu1 * s) * g[2] / R, y - (r + mu1 * s) * g[2] / R, -mu2 * x,
                          -mu2 * x};
  double lo = -INFINITY, hi = INFINITY, zero_rows = -INFINITY;
  for (int k = 0; k < 4; k++) {
    if (alpha[k] > 0) lo = fmax(lo, beta[k] / alpha[k]);
    else if (alpha[k] < 0) hi = fmin(hi, beta[k] / alpha[k]);
    else zero_rows = fmax(zero_rows, beta[k]);
  }
  const double gap = fmin(hi - lo, -zero_rows);  // >= 0: weakly stable
  if (fabs(gap) < 1e-9) return -1;               // on the boundary: skip
  return gap > 0;
}

static void disk_weak_stability_matches_12_15(void **state) {
  (void)state;
  // Figure 3 (0.2, 0.5), Figure 5 (1.8, 0.5) and frictionless contact 2.
  const double mus[3][2] = {{0.2, 0.5}, {1.8, 0.5}, {0.7, 0}};
  int yes = 0, no = 0;
  for (int m = 0; m < 3; m++)
    for (double g1 = -2; g1 <= 2; g1 += 0.25)
      for (double g2 = -2; g2 <= 2; g2 += 0.25)
        for (double g3 = -2; g3 <= 2; g3 += 0.5) {
          const double g[3] = {g1, g2, g3};
          const int want = disk_closed_form(mus[m][0], mus[m][1], g);
          if (want < 0) continue;
          zeno_scene s = disk_scene(mus[m][0], mus[m][1], g);
          zeno_contact_problem p = problem_of(&s);
          zeno_weak_stability w;
          assert_int_equal(zeno_weak_stability_check(&p, &w, NULL), ZENO_OK);
          assert_int_equal(w.weakly_stable, want);
          want ? yes++ : no++;
        }
  assert_true(yes >= 300 && no >= 3000);
}

// (17)-(20) as printed: weakly stable iff all four are >= 0.
static void ramp_closed_form(double th, double m1, double m2, const double g[3], double e[4]) {
  const double s = sin(th), c = cos(th);
  e[0] = g[0] * (s + c) + g[1] * (s - c) - g[2];
  e[1] = g[0] * (s - c) - g[1] * (s + c) + g[2];
  e[2] = g[0] * ((m1 + m2) * s + (m1 - m2 - 2) * c) + g[1] * ((m1 - m2 - 2) * s - (m1 + m2) * c) +
         (m2 - m1) * g[2];
  e[3] = g[0] * ((m1 + m2) * s + (m1 - m2 + 2) * c) + g[1] * ((m1 - m2 + 2) * s - (m1 + m2) * c) +
         (m2 - m1) * g[2];
}

static bool ramp_weak(double th, double m1, double m2, const double g[3]) {
  zeno_scene s = ramp_scene(th, m1, m2, g);
  zeno_contact_problem p = problem_of(&s);
  zeno_weak_stability w;
  assert_int_equal(zeno_weak_stability_check(&p, &w, NULL), ZENO_OK);
  return w.weakly_stable;
}

static void ramp_weak_stability_matches_17_20(void **state) {
  (void)state;
  const double thetas[2] = {20 * DEG, 35 * DEG};
  const double mus[4][2] = {{0.3, 0.7}, {0.8, 0.2}, {0.5, 0.5}, {0, 0.4}};
  int yes = 0, no = 0;
  for (int a = 0; a < 2; a++)
    for (int m = 0; m < 4; m++)
      for (double g1 = -2; g1 <= 2; g1 += 0.25)
        for (double g2 = -2; g2 <= 2; g2 += 0.25)
          for (double g3 = -2; g3 <= 2; g3 += 0.25) {
            const double g[3] = {g1, g2, g3};
            double e[4];
            ramp_closed_form(thetas[a], mus[m][0], mus[m][1], g, e);
            const double worst = fmin(fmin(e[0], e[1]), fmin(e[2], e[3]));
            if (fabs(worst) < 1e-9) continue;  // on the boundary
            const bool want = worst > 0;
            assert_int_equal(ramp_weak(thetas[a], mus[m][0], mus[m][1], g), want);
            want ? yes++ : no++;
          }
  assert_true(yes >= 1000 && no >= 10000);
}

// The paper's remarks on g = (0, -1, 0): with mu1 = mu2 = mu it is weakly
// stable iff mu >= tan(theta); below (1/2) tan(theta) at both it is not.
static void ramp_gravity_needs_tan_theta(void **state) {
  (void)state;
  const double th = 30 * DEG, t = tan(th), g[3] = {0, -1, 0};
  assert_true(ramp_weak(th, t * 1.001, t * 1.001, g));
  assert_false(ramp_weak(th, t * 0.999, t * 0.999, g));
  assert_false(ramp_weak(th, 0.49 * t, 0.49 * t, g));
  assert_false(ramp_weak(th, 0.49 * t, 0, g));
  assert_false(ramp_weak(th, 0, 0.49 * t, g));
}

static int theorem4_count(const zeno_contact_problem *p) {
  zeno_strong_stability r;
  assert_int_equal(zeno_strong_stability_check(p, &r, NULL), ZENO_OK);
  assert_int_equal(r.systems, p->contact_count == 2 ? 60 : 6);
  assert_int_equal(r.weak_implies_strong, r.consistent == 0);
  return r.consistent;
}

// All 60 systems are inconsistent below r/(1-s) and not above; bisection on
// mu1 = mu2 = mu finds the threshold from the geometry.
static void disk_theorem4_threshold(void **state) {
  (void)state;
  const double mu_star = disk_r() / (1 - disk_s());
  const double below[4] = {0, 0.2, 1.0, 1.49};
  for (int k = 0; k < 4; k++) {
    zeno_contact_problem p = paper_disk(below[k], below[k]);
    assert_int_equal(theorem4_count(&p), 0);
  }
  double lo = 1.0, hi = 2.0;
  for (int it = 0; it < 40; it++) {
    const double mid = 0.5 * (lo + hi);
    zeno_contact_problem p = paper_disk(mid, mid);
    if (theorem4_count(&p) == 0) lo = mid;
    else hi = mid;
  }
  assert_true(fabs(lo - mu_star) < 1e-7);  // the brief asks 1e-4
}

// At mu = 0.1 + r/(1-s) with sigma_t = (1, 1), 7 of the 15 systems are
// consistent. zeno's tangent is minus the paper's, so sigma flips: the
// scene's counts are the paper's with both signs reversed.
static void disk_seven_of_fifteen(void **state) {
  (void)state;
  const double mu = 0.1 + disk_r() / (1 - disk_s());
  zeno_contact_problem p = paper_disk(mu, mu);
  zeno_strong_stability paper, scene;
  assert_int_equal(zeno_strong_stability_check(&p, &paper, NULL), ZENO_OK);
  assert_int_equal(paper.consistent_by_sign[0], 7);
  const double g[3] = {0, 1, 0};
  zeno_scene s = disk_scene(mu, mu, g);
  zeno_contact_problem q = problem_of(&s);
  assert_int_equal(zeno_strong_stability_check(&q, &scene, NULL), ZENO_OK);
  assert_int_equal(scene.consistent, paper.consistent);
  for (int k = 0; k < 4; k++)
    assert_int_equal(scene.consistent_by_sign[k], paper.consistent_by_sign[3 - k]);
  assert_false(scene.weak_implies_strong);
}

// The paper's worked solution (gamma = {1,2,3,4}, u = 0, v printed) gives
// c_t and, through g = -J c, a load that is weakly but not strongly stable:
// b = J^T M^-1 g > 0, so zero force (mode FF) is a dynamic intensity. The
// printed c_t fits mu = r/(1-s) + 0.01 (not + 0.1 as the text says), and the
// printed g_3 = +0.92429 has the wrong sign: the printed b needs -0.92429.
static void disk_paper_witness(void **state) {
  (void)state;
  const double mu = 0.01 + disk_r() / (1 - disk_s());
  const double v[4] = {155.62764, 155.19384, 0, 467.6318};
  const double c[4] = {v[0], v[1], v[2] - mu * v[0], v[3] - mu * v[1]};
  assert_true(fabs(c[2] - -234.46950) < 1e-3 && fabs(c[3] - 233.81593) < 1e-3);
  zeno_contact_problem p = paper_disk(mu, mu);
  double g[3];
  for (int k = 0; k < 3; k++)
    g[k] = -(p.normal[0][k] * c[0] + p.normal[1][k] * c[1] + p.tangent[0][k] * c[2] +
             p.tangent[1][k] * c[3]);
  const double g_paper[3] = {0.4324728, -1.8466864, -0.9242900};
  for (int k = 0; k < 3; k++) assert_true(fabs(g[k] - g_paper[k]) < 2e-4);
  const double *cols[4] = {p.normal[0], p.normal[1], p.tangent[0], p.tangent[1]};
  const double b_paper[4] = {1, 1.871616, 2.918752, 1};
  for (int a = 0; a < 4; a++) {
    double b = 0;
    for (int k = 0; k < 3; k++) b += cols[a][k] * p.inv_mass[k] * g[k];
    assert_true(fabs(b - b_paper[a]) < 2e-4);
  }
  memcpy(p.load, g, sizeof g);
  zeno_weak_stability w;
  assert_int_equal(zeno_weak_stability_check(&p, &w, NULL), ZENO_OK);
  assert_true(w.weakly_stable);
  zeno_scene s = disk_scene(mu, mu, g);
  zeno_scene_stability st;
  assert_int_equal(zeno_scene_stability_check(&s, &st, NULL), ZENO_OK);
  assert_true(st.weak.weakly_stable);
  assert_false(st.strongly_stable || st.strong_by_theorem4);
  char name[ZENO_MODE_NAME_SIZE];
  bool ff = false;
  for (size_t k = 0; k < st.unstable_mode_count; k++)
    ff = ff || strcmp(zeno_mode_name(st.unstable_modes[k], 2, name), "FF") == 0;
  assert_true(ff);
}

// Proposition 5 checked by zeno's own mode solver: the witness load is
// weakly stable, and some non-static mode is consistent at rest under it.
static void witness_loads_are_weak_not_strong(void **state) {
  (void)state;
  const double mus[3] = {1.55, 1.8, 2.5};
  for (int k = 0; k < 3; k++) {
    const double g0[3] = {0, 1, 0};
    zeno_scene s = disk_scene(mus[k], mus[k], g0);
    zeno_contact_problem p = problem_of(&s);
    zeno_strong_stability r;
    assert_int_equal(zeno_strong_stability_check(&p, &r, NULL), ZENO_OK);
    assert_true(r.consistent > 0);
    const double size = hypot(r.witness_load[0], r.witness_load[1]) +
                        fabs(r.witness_load[2]);  // rho = 1
    assert_true(fabs(size - 1) < 1e-12);
    set_load(&s, r.witness_load);
    zeno_scene_stability st;
    assert_int_equal(zeno_scene_stability_check(&s, &st, NULL), ZENO_OK);
    assert_true(st.weak.weakly_stable);
    assert_true(st.unstable_mode_count > 0);
    assert_false(st.strongly_stable);
  }
}

// Below r/(1-s) Theorem 4 says SS = WS: no weakly stable load admits a
// non-static mode (zeno's enumeration agrees), and the verdicts match.
static void disk_weak_loads_are_strong_below_threshold(void **state) {
  (void)state;
  rng seed = {77};
  int weak = 0;
  for (int k = 0; k < 600; k++) {
    const double g[3] = {rng_uniform(&seed, -1, 1), rng_uniform(&seed, -1, 1),
                         rng_uniform(&seed, -1, 1)};
    zeno_scene s = disk_scene(1.0, 0.8, g);
    zeno_scene_stability st;
    assert_int_equal(zeno_scene_stability_check(&s, &st, NULL), ZENO_OK);
    assert_true(st.theorem4.weak_implies_strong);
    if (!(st.weak.weakly_stable && st.weak.margin > 1e-6)) continue;
    weak++;
    assert_true(st.strong_by_theorem4 && st.strongly_stable);
    assert_int_equal(st.unstable_mode_count, 0);
  }
  assert_true(weak >= 30);
}

// One contact (6 systems): Theorem 4 fails exactly at the jamming
// coefficient of the slipping direction that jams (Dupont (43)).
static void one_contact_theorem4_threshold_is_jamming(void **state) {
  (void)state;
  const double thetas[4] = {15 * DEG, 45 * DEG, atan(2.0), 75 * DEG};
  for (int k = 0; k < 4; k++) {
    zeno_scene s = rod_on_floor(thetas[k], 0.1);
    zeno_contact_problem p = problem_of(&s);
    double mu_j;
    assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_N, &mu_j, NULL), ZENO_OK);
    double lo = 0.5 * mu_j, hi = 2 * mu_j;
    p.mu[0] = lo;
    assert_int_equal(theorem4_count(&p), 0);
    p.mu[0] = hi;
    assert_true(theorem4_count(&p) > 0);
    for (int it = 0; it < 40; it++) {
      p.mu[0] = 0.5 * (lo + hi);
      if (theorem4_count(&p) == 0) lo = p.mu[0];
      else hi = p.mu[0];
    }
    assert_true(rel_diff(lo, mu_j) < 1e-8);
  }
}

/* ---------- 3. Dupont: jamming and wedging ---------- */

static double rod_jamming(double theta, zeno_letter slip) {
  zeno_scene s = rod_on_floor(theta, 0.1);
  zeno_contact_problem p = problem_of(&s);
  double mu_j;
  assert_int_equal(zeno_jamming_coefficient(&p, 0, slip, &mu_j, NULL), ZENO_OK);
  return mu_j;
}

// Eq. (43) with J = m l^2 / 3, theta the angle between rod and wall:
// mu_J = (1/3 + cos^2) / (sin cos) for the contact moving away from the
// centre of mass (xdot_c < 0 here), none for the other direction. Smallest
// 4/3 at tan(theta) = 2; 5/3 at 45 degrees.
static void rod_jamming_coefficient(void **state) {
  (void)state;
  assert_true(fabs(rod_jamming(atan(2.0), ZENO_LETTER_N) - 4.0 / 3.0) < 1e-9);
  assert_true(fabs(rod_jamming(ZENO_PI / 4, ZENO_LETTER_N) - 5.0 / 3.0) < 1e-9);
  double best = INFINITY;
  for (int k = 1; k < 1000; k++) {
    const double th = k * (ZENO_PI / 2) / 1000;
    const double c = cos(th), s = sin(th);
    const double mu_j = rod_jamming(th, ZENO_LETTER_N);
    assert_true(rel_diff(mu_j, (1.0 / 3.0 + c * c) / (s * c)) < 1e-12);
    assert_true(isinf(rod_jamming(th, ZENO_LETTER_P)));
    best = fmin(best, mu_j);
  }
  assert_true(best >= 4.0 / 3.0 - 1e-12 && best < 4.0 / 3.0 + 1e-5);
}

// Any contact: the smaller jamming coefficient is the Painlevé bound (11).
static void jamming_is_painleve_bound(void **state) {
  (void)state;
  rng seed = {4242};
  for (int k = 0; k < 300; k++) {
    const double pts[1][2] = {{rng_uniform(&seed, -2, 2), rng_uniform(&seed, -2, 2)}};
    const double phi[1] = {rng_uniform(&seed, -3, 3)}, mu[1] = {0.5};
    const double rho = rng_uniform(&seed, 0.2, 2);
    zeno_scene s = body_scene(rho, 1, pts, phi, mu);
    zeno_contact_problem p = problem_of(&s);
    double jp, jn;
    assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_P, &jp, NULL), ZENO_OK);
    assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_N, &jn, NULL), ZENO_OK);
    assert_true(isinf(jp) || isinf(jn));  // only one direction can jam
    const double bound = zeno_painleve_bound(rho, pts[0], phi[0]);
    assert_true(rel_diff(fmin(jp, jn), bound) < 1e-12);
  }
}

static zeno_wedging wedging_of(const zeno_scene *s) {
  zeno_contact_problem p = problem_of(s);
  zeno_wedging w;
  assert_int_equal(zeno_wedging_check(&p, &w, NULL), ZENO_OK);
  return w;
}

// Dupont Example 2: mu_W = 1/tan(theta) at both contacts (56); wedged iff
// both coefficients reach it. The equilibrium report's `wedged` (unbounded
// margin) agrees when the cones hold the contact line strictly.
static void rod_between_walls_wedges(void **state) {
  (void)state;
  const double th = 60 * DEG, mu_w = 1 / tan(th);
  zeno_scene s = rod_between_walls(th, 0.7, 0.7);
  zeno_wedging w = wedging_of(&s);
  assert_true(fabs(w.wedging_mu[0] - mu_w) < 1e-12 && fabs(w.wedging_mu[1] - mu_w) < 1e-12);
  assert_true(w.wedged && w.margin > 0);
  assert_true(fabs(w.forces[0][0] + w.forces[1][0] - 1) < 1e-12);
  zeno_equilibrium_report rep;
  assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
  assert_true(rep.wedged && rep.feasible);
  assert_true(fabs(rep.margin - 1e6) < 1e-3);  // the cap: 1e6 times |f| = 1
  const double mus[3][2] = {{0.5, 0.7}, {0.7, 0.5}, {0.5, 0.5}};
  for (int k = 0; k < 3; k++) {
    s = rod_between_walls(th, mus[k][0], mus[k][1]);
    w = wedging_of(&s);
    assert_false(w.wedged);
    assert_true(w.margin < 0);
    assert_int_equal(zeno_equilibrium_check(&s, &rep, NULL), ZENO_OK);
    assert_false(rep.wedged);
  }
}

// The disk wedges exactly where Theorem 4 starts to fail: the chord between
// the fixels makes the angle atan(r/(1-s)) with each normal.
static void disk_wedging_angle_is_theorem4_threshold(void **state) {
  (void)state;
  const double mu_star = disk_r() / (1 - disk_s()), g[3] = {0, 1, 0};
  zeno_scene s = disk_scene(1, 1, g);
  zeno_wedging w = wedging_of(&s);
  for (int i = 0; i < 2; i++) assert_true(fabs(w.wedging_mu[i] - mu_star) < 1e-12);
  assert_false(w.wedged);
  s = disk_scene(mu_star * 1.001, mu_star * 1.001, g);
  assert_true(wedging_of(&s).wedged);
}

static void paper_examples_do_not_wedge(void **state) {
  (void)state;
  const zeno_paper_params ps[3] = {example2(), example3(), example4()};
  for (int k = 0; k < 3; k++) {
    zeno_scene s = zeno_scene_default();
    zeno_scene_apply_paper(&s, &ps[k]);
    zeno_wedging w = wedging_of(&s);
    assert_false(w.wedged);
    assert_true(w.margin < 0);
  }
}

// The LP agrees with the geometry of the contact line on random bodies, and
// strict wedging is what makes the equilibrium margin unbounded.
static void wedging_lp_matches_geometry(void **state) {
  (void)state;
  rng seed = {99};
  int wedged = 0, free_ = 0;
  for (int k = 0; k < 1500; k++) {
    zeno_paper_params p = random_paper(&seed);
    zeno_scene s = zeno_scene_default();
    zeno_scene_apply_paper(&s, &p);
    zeno_wedging w = wedging_of(&s);
    const double slack = fmin(p.mu1 - w.wedging_mu[0], p.mu2 - w.wedging_mu[1]);
    if (fabs(slack) < 1e-6) continue;
    assert_int_equal(w.wedged, slack > 0);
    zeno_equilibrium_report rep;
    if (zeno_equilibrium_check(&s, &rep, NULL) == ZENO_OK) assert_int_equal(rep.wedged, w.wedged);
    w.wedged ? wedged++ : free_++;
  }
  assert_true(wedged >= 10 && free_ >= 1000);
}

/* ---------- the library never prints ---------- */

static void nothing_is_printed(void **state) {
  (void)state;
  char path[] = "/tmp/zeno_cs_stdout_XXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stdout);
  const int saved = dup(STDOUT_FILENO);
  assert_true(dup2(fd, STDOUT_FILENO) >= 0);
  // An infeasible LP (one contact, load off its line), Theorem 4, wedging.
  zeno_scene one = one_contact_scene(1, 0.5, -1, 0.5, 1);
  zeno_contact_problem p = problem_of(&one);
  zeno_weak_stability w;
  const zeno_status st = zeno_weak_stability_check(&p, &w, NULL);
  zeno_strong_stability r;
  const double mu = 2.0;
  zeno_contact_problem d = paper_disk(mu, mu);
  const zeno_status st2 = zeno_strong_stability_check(&d, &r, NULL);
  fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  const off_t size = lseek(fd, 0, SEEK_END);
  close(fd);
  unlink(path);
  assert_int_equal(st, ZENO_OK);
  assert_int_equal(st2, ZENO_OK);
  assert_false(w.weakly_stable);
  assert_true(isinf(w.margin) && w.margin < 0);
  assert_int_equal(size, 0);
}

/* ---------- error paths ---------- */

static void problem_from_scene_errors(void **state) {
  (void)state;
  zeno_scene s = zeno_scene_default();
  zeno_contact_problem p;
  zeno_error e;
  assert_int_equal(zeno_contact_problem_from_scene(NULL, &p, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(e.code, ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_contact_problem_from_scene(&s, NULL, &e), ZENO_ERR_ARGUMENT);
  s.contacts[0].mu = -1;  // the scene's own validation answers
  assert_int_equal(zeno_contact_problem_from_scene(&s, &p, &e), ZENO_ERR_RANGE);
  assert_string_equal(e.parameter, "paper.mu1");
}

// Every malformed problem, for every function taking one.
static void invalid_problems_are_refused(void **state) {
  (void)state;
  const zeno_contact_problem good = paper_disk(0.5, 0.5);
  zeno_contact_problem bad[7];
  for (int k = 0; k < 7; k++) bad[k] = good;
  bad[0].contact_count = 0;
  bad[1].contact_count = 3;
  bad[2].inv_mass[2] = 0;
  bad[3].load[1] = NAN;
  bad[4].mu[1] = -0.1;
  bad[5].normal[0][2] = INFINITY;
  memcpy(bad[6].tangent[1], bad[6].normal[1], sizeof bad[6].tangent[1]);  // parallel
  const char *param[7] = {"problem.contact_count",
                          "problem.contact_count",
                          "problem.inv_mass",
                          "problem.load",
                          "problem.mu",
                          "problem.normal",
                          "problem.tangent"};
  for (int k = 0; k < 7; k++) {
    zeno_error e;
    zeno_weak_stability w;
    zeno_strong_stability r;
    zeno_wedging wd;
    double mu_j;
    assert_int_equal(zeno_weak_stability_check(&bad[k], &w, &e), ZENO_ERR_ARGUMENT);
    assert_string_equal(e.parameter, param[k]);
    assert_int_equal(zeno_strong_stability_check(&bad[k], &r, &e), ZENO_ERR_ARGUMENT);
    assert_int_equal(zeno_wedging_check(&bad[k], &wd, &e), ZENO_ERR_ARGUMENT);
    assert_int_equal(zeno_jamming_coefficient(&bad[k], 0, ZENO_LETTER_P, &mu_j, &e),
                     ZENO_ERR_ARGUMENT);
  }
}

static void null_arguments_are_refused(void **state) {
  (void)state;
  const zeno_contact_problem p = paper_disk(0.5, 0.5);
  zeno_scene s = disk_scene(0.5, 0.5, (const double[3]){0, 1, 0});
  zeno_weak_stability w;
  zeno_strong_stability r;
  zeno_wedging wd;
  zeno_scene_stability ss;
  double mu_j;
  assert_int_equal(zeno_weak_stability_check(NULL, &w, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_weak_stability_check(&p, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_strong_stability_check(NULL, &r, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_strong_stability_check(&p, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_wedging_check(NULL, &wd, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_wedging_check(&p, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_jamming_coefficient(NULL, 0, ZENO_LETTER_P, &mu_j, NULL),
                   ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_P, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_scene_stability_check(NULL, &ss, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_scene_stability_check(&s, NULL, NULL), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_equilibrium_check(NULL, NULL, NULL), ZENO_ERR_ARGUMENT);
}

static void jamming_argument_errors(void **state) {
  (void)state;
  const zeno_contact_problem p = paper_disk(0.5, 0.5);
  zeno_error e;
  double mu_j;
  assert_int_equal(zeno_jamming_coefficient(&p, -1, ZENO_LETTER_P, &mu_j, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "contact");
  assert_int_equal(zeno_jamming_coefficient(&p, 2, ZENO_LETTER_P, &mu_j, &e), ZENO_ERR_ARGUMENT);
  zeno_scene rod = rod_on_floor(ZENO_PI / 4, 0.3);
  zeno_contact_problem one = problem_of(&rod);
  assert_int_equal(zeno_jamming_coefficient(&one, 1, ZENO_LETTER_N, &mu_j, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_S, &mu_j, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "slip");
  assert_int_equal(zeno_jamming_coefficient(&p, 0, ZENO_LETTER_F, &mu_j, &e), ZENO_ERR_ARGUMENT);
}

// Two contacts are needed for wedging and for the scene's stability; a
// scene error or a degenerate geometry is passed through.
static void two_contact_requirements(void **state) {
  (void)state;
  zeno_scene rod = rod_on_floor(ZENO_PI / 4, 0.3);
  zeno_contact_problem one = problem_of(&rod);
  zeno_error e;
  zeno_wedging wd;
  assert_int_equal(zeno_wedging_check(&one, &wd, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "problem.contact_count");
  zeno_scene_stability ss;
  assert_int_equal(zeno_scene_stability_check(&rod, &ss, &e), ZENO_ERR_ARGUMENT);
  assert_string_equal(e.parameter, "contacts");
  // One contact is fine for weak stability and Theorem 4.
  zeno_weak_stability w;
  assert_int_equal(zeno_weak_stability_check(&one, &w, &e), ZENO_OK);
  zeno_scene bad = zeno_scene_default();
  bad.mass = -1;
  assert_int_equal(zeno_scene_stability_check(&bad, &ss, &e), ZENO_ERR_RANGE);
  // The normal at contact 1 passes through contact 2: no ZOD coordinates.
  const double pts[2][2] = {{0, -1}, {0, 1}}, phi[2] = {0, ZENO_PI}, mu[2] = {1, 1};
  zeno_scene deg = body_scene(1, 2, pts, phi, mu);
  assert_int_equal(zeno_scene_stability_check(&deg, &ss, &e), ZENO_ERR_GEOMETRY);
}

// The internal dense LP refuses bad sizes and non-finite data, and the
// margin LP bad contact counts, scales and caps.
static void dense_lp_errors(void **state) {
  (void)state;
  lp_dense lp;
  lp_solution sol;
  zeno_error e;
  lp_dense_init(&lp, 0, 2);
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_ARGUMENT);
  lp_dense_init(&lp, 1, LP_MAX_COLS + 1);
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_ARGUMENT);
  lp_dense_init(&lp, 1, 1);
  lp.a[0][0] = NAN;
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_ERR_RANGE);
  // max x subject to x >= 0 (no upper bound): unbounded; x <= -1, x >= 0: infeasible.
  lp_dense_init(&lp, 1, 1);
  lp.a[0][0] = 1;
  lp.row_kind[0] = LP_LOWER;
  lp.obj[0] = 1;
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_OK);
  assert_int_equal(sol.status, LP_UNBOUNDED);
  lp.row_kind[0] = LP_UPPER;
  lp.row_hi[0] = -1;
  lp.col_kind[0] = LP_LOWER;
  assert_int_equal(lp_dense_solve(&lp, &sol, &e), ZENO_OK);
  assert_int_equal(sol.status, LP_INFEASIBLE);
  lp_margin_lp m = {.n = 3, .cap = 1, .scale = 1};
  lp_margin_result res;
  assert_int_equal(lp_margin_lp_solve(&m, &res, &e), ZENO_ERR_ARGUMENT);
  m.n = 2;
  m.scale = 0;
  assert_int_equal(lp_margin_lp_solve(&m, &res, &e), ZENO_ERR_ARGUMENT);
  m.scale = 1;
  m.cap = 0;
  assert_int_equal(lp_margin_lp_solve(&m, &res, &e), ZENO_ERR_ARGUMENT);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lp_margin_matches_family_on_paper_examples),
      cmocka_unit_test(lp_margin_matches_family_random),
      cmocka_unit_test(lp_margin_is_homogeneous),
      cmocka_unit_test(one_contact_equilibrium),
      cmocka_unit_test(one_contact_weak_stability_is_exact),
      cmocka_unit_test(disk_constants_of_the_paper),
      cmocka_unit_test(disk_weak_stability_matches_12_15),
      cmocka_unit_test(ramp_weak_stability_matches_17_20),
      cmocka_unit_test(ramp_gravity_needs_tan_theta),
      cmocka_unit_test(disk_theorem4_threshold),
      cmocka_unit_test(disk_seven_of_fifteen),
      cmocka_unit_test(disk_paper_witness),
      cmocka_unit_test(witness_loads_are_weak_not_strong),
      cmocka_unit_test(disk_weak_loads_are_strong_below_threshold),
      cmocka_unit_test(one_contact_theorem4_threshold_is_jamming),
      cmocka_unit_test(rod_jamming_coefficient),
      cmocka_unit_test(jamming_is_painleve_bound),
      cmocka_unit_test(rod_between_walls_wedges),
      cmocka_unit_test(disk_wedging_angle_is_theorem4_threshold),
      cmocka_unit_test(paper_examples_do_not_wedge),
      cmocka_unit_test(wedging_lp_matches_geometry),
      cmocka_unit_test(nothing_is_printed),
      cmocka_unit_test(problem_from_scene_errors),
      cmocka_unit_test(invalid_problems_are_refused),
      cmocka_unit_test(null_arguments_are_refused),
      cmocka_unit_test(jamming_argument_errors),
      cmocka_unit_test(two_contact_requirements),
      cmocka_unit_test(dense_lp_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
