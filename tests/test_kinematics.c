// Contact kinematics: the ZOD Jacobian is the full one at q = 0; the full
// Jacobian and centripetal terms match finite differences of the exact gaps.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "dynamics/kinematics.h"
#include "test_util.h"

static kinematics_model model_of(zeno_paper_params p) {
  zeno_scene s = zeno_scene_default();
  zeno_scene_apply_paper(&s, &p);
  kinematics_model km;
  assert_int_equal(kinematics_model_init(&km, &s, NULL), ZENO_OK);
  return km;
}

static void zod_jacobian_is_full_at_nominal(void **state) {
  (void)state;
  kinematics_model km = model_of(example2());
  double W[3][4], bias[4];
  const double q0[3] = {0, 0, 0}, qd0[3] = {0, 0, 0};
  kinematics_full_jacobian(&km, q0, qd0, W, bias);
  for (int k = 0; k < 3; k++)
    for (int a = 0; a < 4; a++) assert_true(fabs(W[k][a] - km.W0[k][a]) < 1e-15);
  // Column of z1 for Example 2: n1 = (-sin 75, cos 75), torque arm n1 . J p1.
  const double n1[2] = {-sin(75 * DEG), cos(75 * DEG)};
  assert_true(fabs(km.W0[0][0] - n1[0]) < 1e-15);
  assert_true(fabs(km.W0[2][0] - (n1[0] * 1.25 + n1[1] * -3.5)) < 1e-14);
}

static void full_jacobian_matches_finite_differences(void **state) {
  (void)state;
  kinematics_model km = model_of(example3());
  const double q[3] = {0.03, -0.02, 0.2}, qd[3] = {0.3, -0.1, 0.7};
  double W[3][4], bias[4], c0[4], cd0[4];
  kinematics_full_jacobian(&km, q, qd, W, bias);
  kinematics_full_contacts(&km, q, qd, c0, cd0);
  const double h = 1e-6;
  for (int k = 0; k < 3; k++) {
    double qp[3] = {q[0], q[1], q[2]}, qm[3] = {q[0], q[1], q[2]};
    qp[k] += h;
    qm[k] -= h;
    double cp[4], cm[4], dummy[4];
    kinematics_full_contacts(&km, qp, qd, cp, dummy);
    kinematics_full_contacts(&km, qm, qd, cm, dummy);
    for (int a = 0; a < 4; a++) assert_true(fabs((cp[a] - cm[a]) / (2 * h) - W[k][a]) < 1e-8);
  }
  // Rates are W^T qdot.
  for (int a = 0; a < 4; a++) {
    const double v = W[0][a] * qd[0] + W[1][a] * qd[1] + W[2][a] * qd[2];
    assert_true(fabs(v - cd0[a]) < 1e-14);
  }
  // Along q(t) = q + qd t (no acceleration) the contact acceleration is the bias.
  const double dt = 1e-4;
  double cp[4], cm[4], d[4];
  double qp[3], qm[3];
  for (int k = 0; k < 3; k++) {
    qp[k] = q[k] + qd[k] * dt;
    qm[k] = q[k] - qd[k] * dt;
  }
  kinematics_full_contacts(&km, qp, qd, cp, d);
  kinematics_full_contacts(&km, qm, qd, cm, d);
  for (int a = 0; a < 4; a++)
    assert_true(fabs((cp[a] - 2 * c0[a] + cm[a]) / (dt * dt) - bias[a]) < 1e-5);
}

static void zod_coordinates_round_trip(void **state) {
  (void)state;
  kinematics_model km = model_of(example2());
  const double qp[3] = {0.4, 1.3, -2.5}, qdp[3] = {-0.3, 0.2, 1.1};
  double q[3], qd[3], qp2[3], qdp2[3];
  kinematics_zod_to_gen(&km, qp, q);
  kinematics_zod_to_gen(&km, qdp, qd);
  kinematics_gen_to_zod(&km, q, qp2);
  kinematics_gen_to_zod(&km, qd, qdp2);
  for (int k = 0; k < 3; k++) {
    assert_true(fabs(qp2[k] - qp[k]) < 1e-14);
    assert_true(fabs(qdp2[k] - qdp[k]) < 1e-14);
  }
}

static void degenerate_geometry_is_refused(void **state) {
  (void)state;
  // Normal at contact 1 through contact 2: flat floor with contact 1's
  // surface vertical (phi1 = 90 deg) and both contacts at the same height.
  zeno_paper_params p = {0, -1, 1, 1, 90, 0, 0.5, 0.5, 1, 1, 1, 0};
  zeno_scene s = zeno_scene_default();
  zeno_scene_apply_paper(&s, &p);
  kinematics_model km;
  zeno_error err;
  assert_int_equal(kinematics_model_init(&km, &s, &err), ZENO_ERR_GEOMETRY);
  assert_non_null(strstr(err.message, "normal"));
}

static void energy_of_constant_load(void **state) {
  (void)state;
  kinematics_model km = model_of(example2());
  const double q[3] = {0, 0, 0}, qd[3] = {1, 0, 0};
  // Kinetic energy m v^2 / 2 with m = 1.
  assert_true(fabs(kinematics_energy(&km, q, qd) - 0.5) < 1e-15);
  // Moving along the load lowers the potential by |f| * distance.
  const double dir[3] = {sin(65 * DEG), -cos(65 * DEG), 0}, zero[3] = {0, 0, 0};
  assert_true(fabs(kinematics_energy(&km, dir, zero) + 1.0) < 1e-15);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(zod_jacobian_is_full_at_nominal),
      cmocka_unit_test(full_jacobian_matches_finite_differences),
      cmocka_unit_test(zod_coordinates_round_trip),
      cmocka_unit_test(degenerate_geometry_is_refused),
      cmocka_unit_test(energy_of_constant_load),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
