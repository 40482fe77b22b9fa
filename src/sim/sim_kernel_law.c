// The impact law on the flat kernel (sim_kernel.h), and the kernel's data:
// impact.c's
// complementarity resolution for two contacts under the ZOD, each impact
// context's preference list made once with its letters' maps folded into
// rows on the contact rates, so that each check is one dot product.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics/contact_solve.h"
#include "dynamics/kinematics.h"
#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"


static double dot4(const double r[4], const double b[4]) {
  return r[0] * b[0] + r[1] * b[1] + r[2] * b[2] + r[3] * b[3];
}

/// Candidates of an impact context: 3 per touching contact, the double
/// stick and 8 pairs.
#define KERNEL_CANDIDATES 15

/// One candidate of the law's preference list (impact.c's
/// resolve_complementarity) with its letters' map folded into rows on the
/// contact rates before the impact (the targets b = B cd, B the law's
/// restitution on approaching normals): the checks read one row each.
typedef struct kcand {
  unsigned char letter[2];
  unsigned char mask;
  bool stick2;                ///< both sticking: its own test (double_stick)
  double xn[2][4], xt[2][4];  ///< impulse rows of the contacts with a letter
  double y[2][4];             ///< the rate row each contact's check reads
  signed char ysign[2];       ///< 0 none; +1: y >= -tol_v; -1: y <= tol_v
  double G[3][4];             ///< qdot' change AMW x, as rows on the rates
} kcand;

/// The candidates of one context (which contacts touch, which approach).
struct sim_kernel_context {
  int count;
  kcand cand[KERNEL_CANDIDATES];
};

// The rows of a letters' candidate; false when its system is singular (it
// never passes, as on the steps).
static bool make_candidate(zeno_sim *s, const bool touching[2], const double B[4],
                           const unsigned char letter[2], kcand *c) {
  memset(c, 0, sizeof *c);
  c->letter[0] = letter[0];
  c->letter[1] = letter[1];
  c->mask = (letter[0] != ZENO_LETTER_F ? 1u : 0u) | (letter[1] != ZENO_LETTER_F ? 2u : 0u);
  zc_letter_maps *m = &s->table.letters;
  if (!zc_letter_map_make(&s->dyn, m, letter)) return false;
  const int code = letter[0] + 4 * letter[1];
  double X[4][4];  // x = X cd: the free contacts' impulse rows zero
  memset(X, 0, sizeof X);
  for (int i = 0; i < 2; i++) {
    if (letter[i] != ZENO_LETTER_F)
      for (int a = 0; a < 2; a++)
        for (int col = 0; col < 4; col++) X[2 * i + a][col] = m->X[code][2 * i + a][col] * B[col];
    memcpy(c->xn[i], X[2 * i], sizeof c->xn[i]);
    memcpy(c->xt[i], X[2 * i + 1], sizeof c->xt[i]);
    const int row = letter[i] == ZENO_LETTER_F ? 2 * i : 2 * i + 1;
    c->ysign[i] = letter[i] == ZENO_LETTER_F ? (touching[i] ? 1 : 0)
                  : letter[i] == ZENO_LETTER_P ? 1
                  : letter[i] == ZENO_LETTER_N ? -1
                                               : 0;
    for (int col = 0; col < 4; col++) c->y[i][col] = m->Y[code][row][col] * B[col];
  }
  const double(*AMW)[4] = (const double(*)[4])s->table.kernel->AMW;
  for (int k = 0; k < 3; k++)
    for (int col = 0; col < 4; col++) {
      double sum = 0;
      for (int a = 0; a < 4; a++) sum += AMW[k][a] * X[a][col];
      c->G[k][col] = sum;
    }
  return true;
}

// The preference list of a context, in resolve_complementarity()'s order.
static void make_context(zeno_sim *s, const bool touching[2], const bool impacting[2],
                         double e, sim_kernel_context *ctx) {
  ctx->count = 0;
  double B[4];
  for (int a = 0; a < 4; a++) B[a] = a % 2 == 0 && impacting[a / 2] ? 1 + e : 1;
  static const unsigned char slip_order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < 2; i++) {
      if (!touching[i] || impacting[i] != (pass == 0)) continue;
      for (int k = 0; k < 3; k++) {
        unsigned char letter[2] = {ZENO_LETTER_F, ZENO_LETTER_F};
        letter[i] = slip_order[k];
        ctx->count += make_candidate(s, touching, B, letter, &ctx->cand[ctx->count]);
      }
    }
  if (!touching[0] || !touching[1]) return;
  kcand *st = &ctx->cand[ctx->count++];
  memset(st, 0, sizeof *st);
  st->letter[0] = st->letter[1] = ZENO_LETTER_S;
  st->mask = 3u;
  st->stick2 = true;
  static const unsigned char pairs[8][2] = {
      {ZENO_LETTER_S, ZENO_LETTER_P}, {ZENO_LETTER_S, ZENO_LETTER_N},
      {ZENO_LETTER_P, ZENO_LETTER_S}, {ZENO_LETTER_N, ZENO_LETTER_S},
      {ZENO_LETTER_P, ZENO_LETTER_P}, {ZENO_LETTER_P, ZENO_LETTER_N},
      {ZENO_LETTER_N, ZENO_LETTER_P}, {ZENO_LETTER_N, ZENO_LETTER_N}};
  for (int k = 0; k < 8; k++)
    ctx->count += make_candidate(s, touching, B, pairs[k], &ctx->cand[ctx->count]);
}

// A letters' candidate's checks (impulses_ok, then rates_ok).
static bool passes(const kcand *c, const double cd[4], const double mu[2], double tol_v,
                   double tol_impulse) {
  for (int i = 0; i < 2; i++) {
    if (c->letter[i] == ZENO_LETTER_F) continue;
    const double xn = dot4(c->xn[i], cd);
    if (!(xn > tol_impulse)) return false;
    if (c->letter[i] == ZENO_LETTER_S && mu[i] * xn - fabs(dot4(c->xt[i], cd)) < -tol_impulse)
      return false;
  }
  for (int i = 0; i < 2; i++) {
    if (c->ysign[i] > 0 && dot4(c->y[i], cd) < -tol_v) return false;
    if (c->ysign[i] < 0 && dot4(c->y[i], cd) > tol_v) return false;
  }
  return true;
}

// double_stick() of impact.c through the made maps: qdot' after it in qd.
static bool double_stick(zeno_sim *s, const double shift[4], double tol_v, double qd[3]) {
  zc_letter_maps *m = &s->table.letters;
  if (m->stick_state != 1 || m->static_state != 1) return false;  // made by sim_kernel_prepare
  const zc_dyn *d = &s->dyn;
  const double tol_impulse = tol_v * s->km.mass;
  const int skip = m->stick_skip;
  double rt[3], t[3];
  for (int a = 0, n = 0; a < 4; a++)
    if (a != skip) rt[n++] = -shift[a];
  for (int k = 0; k < 3; k++)
    t[k] = m->stick_T[k][0] * rt[0] + m->stick_T[k][1] * rt[1] + m->stick_T[k][2] * rt[2];
  double vs = 0;
  for (int k = 0; k < 3; k++) vs += d->W[k][skip] * t[k];
  if (fabs(vs + shift[skip]) > tol_v) return false;
  double rhs[3], margin, qdg[3], x[4];
  zk_zod_to_gen(&s->km, qd, qdg);
  for (int k = 0; k < 3; k++) rhs[k] = (t[k] - qdg[k]) / d->inv_mass[k];
  if (!zc_static_family_mapped(d, m, rhs, x, &margin)) return false;
  if (!(margin >= -tol_impulse && x[0] > tol_impulse && x[2] > tol_impulse)) return false;
  for (int k = 0; k < 3; k++) qd[k] += dot4(s->table.kernel->AMW[k], x);
  return true;
}

// resolve_complementarity(): the first candidate of the preference list
// that passes, applied to qdot'; its mask and letters.
bool sim_kernel_resolve(zeno_sim *s, const bool touching[2], const bool impacting[2],
                        const double cd[4], double tol_v, unsigned *mask,
                        unsigned char letter[2]) {
  sim_kernel_data *kd = s->table.kernel;
  const double e = s->scene.impact_law == ZENO_LAW_INELASTIC ? 0 : s->scene.restitution;
  const unsigned key = (touching[0] ? 1u : 0u) | (touching[1] ? 2u : 0u) |
                       (impacting[0] ? 4u : 0u) | (impacting[1] ? 8u : 0u);
  sim_kernel_context *ctx = &kd->contexts[key];
  if (!kd->context_made[key]) {
    make_context(s, touching, impacting, e, ctx);
    kd->context_made[key] = true;
  }
  const double tol_impulse = tol_v * s->km.mass;
  for (int k = 0; k < ctx->count; k++) {
    const kcand *c = &ctx->cand[k];
    if (c->stick2) {
      const double shift[4] = {impacting[0] ? e * cd[0] : 0, 0, impacting[1] ? e * cd[2] : 0, 0};
      if (!double_stick(s, shift, tol_v, s->qd)) continue;
    } else {
      if (!passes(c, cd, s->dyn.mu, tol_v, tol_impulse)) continue;
      for (int j = 0; j < 3; j++) s->qd[j] += dot4(c->G[j], cd);
    }
    *mask = c->mask;
    letter[0] = c->letter[0];
    letter[1] = c->letter[1];
    return true;
  }
  return false;  // no outcome: the steps report it
}

zeno_status sim_kernel_prepare(zeno_sim *s) {
  if (s == NULL) return ZENO_ERR_ARGUMENT;
  if (s->table.kernel != NULL) return ZENO_OK;
  sim_kernel_data *kd = calloc(1, sizeof *kd);
  if (kd == NULL) return ZENO_ERR_NOMEM;
  kd->contexts = malloc(SIM_KERNEL_CONTEXTS * sizeof *kd->contexts);
  if (kd->contexts == NULL) {
    free(kd);
    return ZENO_ERR_NOMEM;
  }
  s->table.kernel = kd;
  // Every impact map made now, so that no cycle's result depends on the
  // cycles before it (which maps they made): a cycle is a function of its
  // section angle alone, however many runners share out the samples.
  zi_maps_make(&s->dyn, &s->table.letters);
  return ZENO_OK;
}

void sim_kernel_free(zeno_sim *s) {
  if (s->table.kernel == NULL) return;
  free(s->table.kernel->contexts);
  free(s->table.kernel);
  s->table.kernel = NULL;
}
