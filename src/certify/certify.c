// The public certificate (zeno/certify.h): the system of the scene in its
// own units (certify_system.c), the SOS program and its verdict
// (certify_program.c, certify_exact.c) and the simulation check
// (certify_check.c). Built into libzeno-certify, not libzeno.
#include "zeno/certify.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "certify/certify_check.h"
#include "certify/certify_program.h"
#include "certify/certify_system.h"
#include "scene/scene_units.h"

/// Ranges of the settings.
#define CERTIFY_MIN_DEGREE 2
#define CERTIFY_MAX_DEGREE 4
#define CERTIFY_MAX_ITER 1000
#define CERTIFY_MIN_ITER 10
#define CERTIFY_MAX_RUNS 100000
#define CERTIFY_MAX_SIZE 10.0

zeno_certify_def zeno_certify_def_default(void) {
  zeno_certify_def d = {.degree = 2,
                        .eps = 1e-3,
                        .max_iterations = 100,
                        .check_runs = 0,
                        .check_size = 0.1,
                        .check_seed = 1};
  return d;
}

static zeno_status validate(const zeno_certify_def *d, zeno_error *e) {
  if (d->degree < CERTIFY_MIN_DEGREE || d->degree > CERTIFY_MAX_DEGREE)
    return zeno_fail(e, ZENO_ERR_RANGE, "degree", "value %d out of range; allowed [%d, %d]",
                     d->degree, CERTIFY_MIN_DEGREE, CERTIFY_MAX_DEGREE);
  if (!(d->eps > 0 && d->eps <= 1))
    return zeno_fail(e, ZENO_ERR_RANGE, "eps", "value %g out of range; allowed (0, 1]", d->eps);
  if (d->max_iterations < CERTIFY_MIN_ITER || d->max_iterations > CERTIFY_MAX_ITER)
    return zeno_fail(e, ZENO_ERR_RANGE, "max_iterations", "value %d out of range; allowed [%d, %d]",
                     d->max_iterations, CERTIFY_MIN_ITER, CERTIFY_MAX_ITER);
  if (d->check_runs < 0 || d->check_runs > CERTIFY_MAX_RUNS)
    return zeno_fail(e, ZENO_ERR_RANGE, "check_runs", "value %d out of range; allowed [0, %d]",
                     d->check_runs, CERTIFY_MAX_RUNS);
  if (!(d->check_size > 0 && d->check_size <= CERTIFY_MAX_SIZE))
    return zeno_fail(e, ZENO_ERR_RANGE, "check_size", "value %g out of range; allowed (0, %g]",
                     d->check_size, CERTIFY_MAX_SIZE);
  return ZENO_OK;
}

static size_t terms_of(const cert_program_outcome *o, zeno_certificate_term *terms) {
  size_t n = 0;
  for (int k = 0; k < o->nterms && k < ZENO_CERTIFY_MAX_TERMS; k++) {
    zeno_certificate_term *t = &terms[n++];
    for (int v = 0; v < 5; v++) t->exponents[v] = o->mono[k].e[v];
    t->coef = o->coef[k];
  }
  return n;
}

static void keep_outcome(const cert_program_outcome *o, zeno_certificate *out) {
  out->certified = o->certified;
  snprintf(out->reason, sizeof out->reason, "%s", o->reason);
  snprintf(out->solver_status, sizeof out->solver_status, "%s",
           o->solver_failed              ? "failed"
           : o->status == SOS_FEASIBLE   ? "solved"
           : o->status == SOS_INFEASIBLE ? "infeasible"
                                         : "unbounded");
  out->csdp_code = o->csdp_code;
  out->solver_margin = o->solver_margin;
  out->exact = o->exact;
  out->projection = o->exact_shift;
  out->equalities = o->equalities;
  out->sdp_order = o->sdp_order;
  out->sdp_constraints = o->sdp_constraints;
  out->conditions = o->constraints;
  out->unknowns = o->unknowns;
  out->c = o->c;
  out->term_count = terms_of(o, out->terms);
  if (o->minus) {
    out->c_minus = o->minus->c;
    out->term_count_minus = terms_of(o->minus, out->terms_minus);
  }
}

// A failed or stopped call leaves no partial certificate.
static zeno_status stopped(zeno_certificate *out, zeno_status st) {
  memset(out, 0, sizeof *out);
  return st;
}

zeno_status zeno_certify(const zeno_scene *scene, const zeno_certify_def *def,
                         zeno_certificate *out, zeno_error *error) {
  if (scene == NULL || out == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and result are required");
  memset(out, 0, sizeof *out);
  const zeno_certify_def d = def ? *def : zeno_certify_def_default();
  zeno_status st = validate(&d, error);
  if (st != ZENO_OK) return st;
  if (zeno_scene_require_pair(scene, error) != ZENO_OK) return ZENO_ERR_UNSUPPORTED;
  if (scene->contact_count != 2)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "contacts",
                     "a Lyapunov certificate needs two contacts (the scene has %d)",
                     scene->contact_count);
  st = zeno_scene_validate(scene, error);
  if (st != ZENO_OK) return st;
  const double t0 = clock_seconds();
  const scene_units u = scene_units_of(scene);
  out->units[0] = u.mass;
  out->units[1] = u.length;
  out->units[2] = u.time;
  zeno_scene own;
  scene_in_units(scene, u, &own);
  cert_system sys;
  bool refused = false;
  st = cert_build(&own, &sys, &refused, out->reason, error);
  if (st != ZENO_OK) return st;
  for (int r = 0; r < 3; r++) {
    out->b[r] = sys.b[r];
    for (int k = 0; k < 3; k++) out->mass[r][k] = sys.Mp[r][k];
  }
  // Weighted degrees 3 and 4 keep positivity (54), which needs the sign
  // conditions (55), (56); degree 2 makes positivity part of the program.
  if (!refused && d.degree != 2) refused = !cert_sign_conditions(&sys, out->reason);
  if (refused) {
    out->refused = true;
    out->seconds = clock_seconds() - t0;
    return ZENO_OK;
  }
  const cert_program_settings set = {
      .degree = d.degree, .eps = d.eps, .max_iterations = d.max_iterations, .parts = 0};
  cert_program_outcome o;
  st = zeno_interrupt_check(&d.interrupt, error);
  if (st == ZENO_OK) st = cert_program_certify(&sys, &set, &o, error);
  if (st != ZENO_OK) return stopped(out, st);
  if ((st = zeno_interrupt_check(&d.interrupt, error)) != ZENO_OK) {
    cert_program_outcome_free(&o);
    return stopped(out, st);
  }
  keep_outcome(&o, out);
  if (out->certified && !out->exact) snprintf(out->reason, sizeof out->reason, "%s", "");
  if (d.check_runs > 0 && o.nterms > 0) {
    cert_check_result chk;
    st = cert_check_check(&own, &sys, &o, d.check_runs, d.check_size, d.check_seed,
                          o.exact && !cert_flights(&sys), &d.interrupt, &chk, error);
    if (st == ZENO_OK) {
      out->check_runs = chk.runs;
      out->check_events = chk.events;
      out->check_max_increase = chk.max_increase;
      if (out->certified && chk.max_increase > ZENO_CERTIFY_CHECK_TOL) {
        out->certified = false;
        snprintf(out->reason, sizeof out->reason,
                 "the simulation check found V growing by %.3g (relative) in run %d",
                 chk.max_increase, chk.worst_run);
      }
    }
  }
  cert_program_outcome_free(&o);
  if (st != ZENO_OK) return stopped(out, st);
  out->seconds = clock_seconds() - t0;
  return st;
}

// A user's ZOD state in the certificate's own units.
static void own_state(const zeno_certificate *c, const double state[6], double s[6]) {
  const scene_units u = {c->units[0], c->units[1], c->units[2]};
  for (int k = 0; k < 6; k++)
    s[k] = scene_units_from_user(u, k < 3 ? SCENE_DIM_LENGTH : SCENE_DIM_SPEED, state[k]);
}

// cx x2 + W at an own-units state s.
static double slip_function(double cx, const zeno_certificate_term *terms, size_t n,
                            const double s[6]) {
  const double y[5] = {s[0], s[1], s[3], s[4], s[5]};
  double v = cx * s[2];
  for (size_t k = 0; k < n; k++) {
    double m = terms[k].coef;
    for (int j = 0; j < 5; j++)
      for (int q = 0; q < terms[k].exponents[j]; q++) m *= y[j];
    v += m;
  }
  return v;
}

void zeno_certificate_eval(const zeno_certificate *c, const double state[6], double *v1,
                           double *v2) {
  double s[6];
  own_state(c, state, s);
  double t = 0, p = 0;
  for (int r = 0; r < 3; r++) {
    p += c->b[r] * s[r];
    for (int k = 0; k < 3; k++) t += 0.5 * s[3 + r] * c->mass[r][k] * s[3 + k];
  }
  if (v1) *v1 = t + p;
  if (v2) *v2 = slip_function(c->c, c->terms, c->term_count, s);
}

double zeno_certificate_eval_minus(const zeno_certificate *c, const double state[6]) {
  if (c->c_minus == 0) return 0;
  double s[6];
  own_state(c, state, s);
  return slip_function(c->c_minus, c->terms_minus, c->term_count_minus, s);
}
