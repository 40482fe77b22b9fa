// Simulator life cycle: the loop's default tolerances, creation (the
// initial state in the model's coordinates, checked for penetration),
// restarts of the cycle runner, destruction and the simple queries.
#include "zeno/sim.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/zero_tol.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"
#include "sim/sim_restart.h"

/* ---------- defaults and life cycle ---------- */

zeno_sim_def zeno_sim_def_default(void) {
  zeno_sim_def d;
  memset(&d, 0, sizeof d);
  d.velocity_rtol = ZERO_TOL_VELOCITY_RTOL;  // the reasons: dynamics/zero_tol.h
  d.force_rtol = ZERO_TOL_FORCE_RTOL;
  d.time_rtol = ZERO_TOL_TIME_RTOL;
  d.ratio_rtol = SERIES_RATIO_RTOL;  // the reasons: dynamics/impact_series.h
  d.full_ratio_rtol = SERIES_FULL_RATIO_RTOL;
  d.diverge_rtol = SERIES_DIVERGE_RTOL;
  d.ratio_periods = SERIES_RATIO_PERIODS;
  d.max_period = SERIES_MAX_PERIOD;
  d.keep_history = true;
  // A decision within 1e-6 (relative) of going another way is reported as
  // a near tie: far above rounding, and still small against the O(eps)
  // corrections separating the full model from the ZOD at eps >= 1e-5.
  d.tie_rtol = 1e-6;
  d.zod_table = true;
  return d;
}

/* ---------- creation ---------- */

// A contact touches at the start when its gap is zero to rounding of the
// initial state (exact for q' input; the pose input goes through A).
double sim_start_gap_tol(const zeno_sim *s) {
  double c[4], cd[4], scale = 0;
  const double zero[3] = {0, 0, 0};
  sim_contacts(s, s->run.q, zero, c, cd);
  for (int a = 0; a < 2 * s->km.n; a++) scale = fmax(scale, fabs(c[a]));
  return ZERO_TOL_START_GAP_RTOL * scale;
}

zeno_sim *zeno_sim_create(const zeno_scene *scene, const zeno_sim_def *def, zeno_error *error) {
  if (scene == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene is NULL");
    return NULL;
  }
  if (zeno_scene_validate(scene, error) != ZENO_OK) return NULL;
  zeno_sim_def d = def ? *def : zeno_sim_def_default();
  if (!(d.velocity_rtol > 0 && d.velocity_rtol < 1e-2) ||
      !(d.force_rtol > 0 && d.force_rtol < 1e-2) || !(d.time_rtol > 0 && d.time_rtol < 1e-2) ||
      !(d.ratio_rtol > 0 && d.ratio_rtol < 1e-1) ||
      !(d.full_ratio_rtol > 0 && d.full_ratio_rtol < 1e-1) ||
      !(d.diverge_rtol > 0 && d.diverge_rtol < 1e-1) || !(d.tie_rtol >= 0 && d.tie_rtol < 1) ||
      d.ratio_periods < 1 || d.max_period < 1 ||
      d.max_period * (d.ratio_periods + 2) + 1 > SERIES_RING) {
    zeno_fail(error, ZENO_ERR_RANGE, "sim_def",
              "tolerances must lie in (0, 1e-2) (ratio_rtol, full_ratio_rtol "
              "and diverge_rtol in (0, 0.1), tie_rtol in [0, 1)), "
              "ratio_periods >= 1 and 1 <= max_period with "
              "max_period * (ratio_periods + 2) < %d",
              SERIES_RING);
    return NULL;
  }
  zeno_sim *s = malloc(sizeof *s);
  // All but the records, which only the lengths in s->zeno make valid.
  if (s != NULL) memset(s, 0, offsetof(zeno_sim, records));
  if (s == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  s->user_scene = *scene;
  s->units = scene_units_of(scene);
  scene_in_units(scene, s->units, &s->scene);
  scene = &s->scene;  // from here on, the scene in its own units
  s->def = d;
  if (scene->contact_count > ZENO_PAIR_CONTACTS) {  // the N-contact engine (sim_multi.c)
    if (sim_multi_init(s, error) != ZENO_OK) {
      zeno_sim_destroy(s);
      return NULL;
    }
    return s;
  }
  if (kinematics_model_init(&s->km, scene, error) != ZENO_OK) {
    free(s);
    return NULL;
  }
  // The default escape radius: sizes of the body, whatever its units.
  if (!(s->scene.escape_radius > 0))
    s->scene.escape_radius = ZENO_ESCAPE_RADIUS_SCALES * s->km.length_scale;
  s->escape_horizon =
      sqrt(2 * s->scene.escape_radius / (ZERO_TOL_TERMINAL_ACCEL_RTOL * s->km.accel_scale));
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(&s->dyn, s->km.n, s->km.W0, s->km.inv_mass, s->km.h, bias, s->km.mu);
  const bool scaled = scene->initial_kind == ZENO_INITIAL_ZOD;
  s->len_scale = sim_is_full(s) && scaled ? scene->epsilon * scene->epsilon : 1.0;
  s->vel_scale = sim_is_full(s) && scaled ? scene->epsilon : 1.0;
  if (sim_is_full(s)) {
    // CVODE's absolute tolerances follow the state's scale; atol is read
    // relative to that scale (see docs/scenes.md).
    s->cv = cvode_create(&s->km, scene->rtol, scene->atol, error);
    if (s->cv == NULL) {
      free(s);
      return NULL;
    }
    if (!sim_full_initial_state(s)) {
      zeno_fail(error, ZENO_ERR_GEOMETRY, "initial",
                "the initial q' (scaled by epsilon) is reached by no pose "
                "near the nominal one: the contact coordinates are (nearly) "
                "singular there; give initial.pose instead");
      zeno_sim_destroy(s);
      return NULL;
    }
    sim_refresh_dyn(s);
  } else if (scaled) {
    // The ZOD state is kept in q' = A q (gaps exact, see kinematics_model.Cp).
    memcpy(s->run.q, scene->initial_qp, sizeof s->run.q);
    memcpy(s->run.qd, scene->initial_qdp, sizeof s->run.qd);
  } else {
    kinematics_gen_to_zod(&s->km, scene->initial_pose, s->run.q);
    kinematics_gen_to_zod(&s->km, scene->initial_velocity, s->run.qd);
  }
  // The initial state must be contact-feasible (10).
  double c[4], cd[4];
  sim_contacts(s, s->run.q, s->run.qd, c, cd);
  for (int i = 0; i < s->km.n; i++) {
    const double ztol = sim_start_gap_tol(s);
    if (c[2 * i] < -ztol) {
      zeno_fail(error, ZENO_ERR_RANGE, "initial",
                "initial state penetrates the surface at contact %d: gap %g "
                "(need gap >= 0)",
                i + 1, scene_units_to_user(s->units, SCENE_DIM_LENGTH, c[2 * i]));
      zeno_sim_destroy(s);
      return NULL;
    }
  }
  s->run.signature = SERIES_SIGNATURE_SEED;
  s->run.tie = SIM_TIE_NONE;
  return s;
}

zeno_status sim_restart_zod(zeno_sim *s, const double qp[3], const double qdp[3]) {
  if (s == NULL || sim_is_full(s)) return ZENO_ERR_ARGUMENT;
  memset(&s->run, 0, sizeof s->run);
  memset(&s->zeno, 0, sizeof s->zeno);
  memcpy(s->run.q, qp, sizeof s->run.q);
  memcpy(s->run.qd, qdp, sizeof s->run.qd);
  s->run.signature = SERIES_SIGNATURE_SEED;
  s->run.tie = SIM_TIE_NONE;
  if (s->word) s->word[0] = '\0';
  return ZENO_OK;
}

zeno_status zeno_sim_restart(zeno_sim *s, const double qp[3], const double qdp[3],
                             zeno_error *error) {
  if (s == NULL || qp == NULL || qdp == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "simulator and state are required");
  if (sim_is_full(s))
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "model",
                     "zeno_sim_restart needs a ZOD simulator (the full model "
                     "starts from a pose: create a simulator)");
  double q[3], qd[3];
  for (int k = 0; k < 3; k++) {
    if (!isfinite(qp[k]) || !isfinite(qdp[k]))
      return zeno_fail(error, ZENO_ERR_RANGE, "initial",
                       "component %d of the restart state is not finite", k + 1);
    // As scene_in_units() converts the scene's initial q' and its rate.
    q[k] = scene_units_from_user(s->units, SCENE_DIM_LENGTH, qp[k]);
    qd[k] = scene_units_from_user(s->units, SCENE_DIM_SPEED, qdp[k]);
  }
  if (s->multi != NULL) {
    const zeno_status st = sim_multi_restart(s, q, qd, error);
    if (st != ZENO_OK) return st;
  } else {
    double c[4], cd[4], scale = 0;
    kinematics_zod_prime_contacts(&s->km, q, qd, c, cd);
    for (int a = 0; a < 2 * s->km.n; a++) scale = fmax(scale, fabs(c[a]));
    for (int i = 0; i < s->km.n; i++)
      if (c[2 * i] < -ZERO_TOL_START_GAP_RTOL * scale)
        return zeno_fail(error, ZENO_ERR_RANGE, "initial",
                         "the restart state penetrates the surface at contact %d: gap %g "
                         "(need gap >= 0)",
                         i + 1, scene_units_to_user(s->units, SCENE_DIM_LENGTH, c[2 * i]));
    sim_restart_zod(s, q, qd);
  }
  s->user_scene.initial_kind = s->scene.initial_kind = ZENO_INITIAL_ZOD;
  memcpy(s->user_scene.initial_qp, qp, sizeof s->user_scene.initial_qp);
  memcpy(s->user_scene.initial_qdp, qdp, sizeof s->user_scene.initial_qdp);
  memcpy(s->scene.initial_qp, q, sizeof s->scene.initial_qp);
  memcpy(s->scene.initial_qdp, qd, sizeof s->scene.initial_qdp);
  return ZENO_OK;
}

void sim_set_lean_events(zeno_sim *s, bool lean) {
  if (s != NULL && !sim_is_full(s)) s->lean_events = lean;
}

void sim_use_impact_maps(zeno_sim *s) {
  if (s != NULL && sim_has_table(s)) s->table.letters.from_first_use = true;
}

void zeno_sim_destroy(zeno_sim *s) {
  if (s == NULL) return;
  sim_multi_destroy(s->multi);
  sim_kernel_free(s);
  free(s->word);
  free(s->hist);
  free(s->nodes);
  cvode_destroy(s->cv);
  free(s);
}

zeno_outcome zeno_sim_outcome(const zeno_sim *s) { return s->run.outcome; }
const zeno_scene *zeno_sim_scene(const zeno_sim *s) { return &s->user_scene; }

const zeno_sim_def *zeno_sim_settings(const zeno_sim *s) { return &s->def; }
