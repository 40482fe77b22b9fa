// The impact law on the flat kernel (sim_kernel.h), and the kernel's data:
// impact.c's complementarity resolution for two contacts under the ZOD,
// each impact context's preference list made once with its letters' maps
// folded into rows on the contact rates, so that each check is one dot
// product, and its double stick made once as rows on qdot'.
#include "sim/sim_kernel_law.h"
#include "sim/sim_kernel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics/contact_solve.h"
#include "dynamics/friction_cone.h"
#include "dynamics/kinematics.h"
#include "sim/sim_internal.h"
#include "sim/sim_restart.h"

static double dot4(const double r[4], const double b[4]) {
  return r[0] * b[0] + r[1] * b[1] + r[2] * b[2] + r[3] * b[3];
}

static double dot3(const double r[3], const double b[3]) {
  return r[0] * b[0] + r[1] * b[1] + r[2] * b[2];
}

// The skipped row's residual velocity and the particular impulse x0 of
// impact.c's double_stick() at qdot' qd: linear in qd (made from unit
// vectors by make_stick).
static void stick_at(const zeno_sim *s, const bool impacting[2], double e, const double qd[3],
                     double *residual, double x0[4]) {
  const contact_letter_maps *m = &s->table.letters;
  const contact_dyn *d = &s->dyn;
  const double shift[4] = {impacting[0] ? e * qd[0] : 0, 0, impacting[1] ? e * qd[1] : 0, 0};
  const int skip = m->stick_skip;
  double rt[3], t[3];
  for (int a = 0, n = 0; a < 4; a++)
    if (a != skip) rt[n++] = -shift[a];
  for (int k = 0; k < 3; k++) t[k] = dot3(m->stick_T[k], rt);
  double vs = 0;
  for (int k = 0; k < 3; k++) vs += d->W[k][skip] * t[k];
  *residual = vs + shift[skip];
  double rhs[3], qdg[3];
  kinematics_zod_to_gen(&s->km, qd, qdg);
  for (int k = 0; k < 3; k++) rhs[k] = (t[k] - qdg[k]) / d->inv_mass[k];
  for (int j = 0; j < 4; j++) x0[j] = dot3(m->static_P[j], rhs);
}

// The cone slacks of impulse x (cone_lines() of contact_solve.c).
static void slacks_of(const contact_dyn *d, const double x[4], double g[KERNEL_SLACKS]) {
  for (int i = 0; i < 2; i++) {
    const double mu = d->mu[i], nrm = friction_cone_norm(mu);
    g[3 * i] = x[2 * i];
    g[3 * i + 1] = friction_cone_edge(mu, x[2 * i], x[2 * i + 1], 1) / nrm;
    g[3 * i + 2] = friction_cone_edge(mu, x[2 * i], x[2 * i + 1], -1) / nrm;
  }
}

static void make_stick(zeno_sim *s, const bool impacting[2], double e, kstick *st) {
  memset(st, 0, sizeof *st);
  contact_letter_maps *m = &s->table.letters;
  impact_stick_maps_make(&s->dyn, m);
  st->ok = m->stick_state == 1 && m->static_state == 1;
  if (!st->ok) return;
  for (int j = 0; j < 3; j++) {
    double unit[3] = {0, 0, 0}, x0[4], g0[KERNEL_SLACKS];
    unit[j] = 1;
    stick_at(s, impacting, e, unit, &st->vrow[j], x0);
    slacks_of(&s->dyn, x0, g0);
    for (int a = 0; a < 4; a++) st->X0[a][j] = x0[a];
    for (int a = 0; a < KERNEL_SLACKS; a++) st->G0[a][j] = g0[a];
  }
  memcpy(st->k, m->static_k, sizeof st->k);
  slacks_of(&s->dyn, st->k, st->g1);
  const double(*AMW)[4] = (const double(*)[4])s->table.kernel->AMW;
  for (int r = 0; r < 3; r++) {
    st->Ak[r] = dot4(AMW[r], st->k);
    for (int j = 0; j < 3; j++)
      st->AX0[r][j] = AMW[r][0] * st->X0[0][j] + AMW[r][1] * st->X0[1][j] +
                      AMW[r][2] * st->X0[2][j] + AMW[r][3] * st->X0[3][j];
  }
  bool up = false, down = false;
  for (int a = 0; a < KERNEL_SLACKS; a++) {
    up = up || st->g1[a] > 0;
    down = down || st->g1[a] < 0;
  }
  st->bounded = up && down;
  // static_pick_crossings()'s order: rising a, then falling b.
  for (int a = 0; a < KERNEL_SLACKS; a++) {
    if (st->g1[a] == 0) st->flat[st->flats++] = (unsigned char)a;
    if (!(st->g1[a] > 0)) continue;
    for (int b = 0; b < KERNEL_SLACKS; b++) {
      if (!(st->g1[b] < 0)) continue;
      st->rise[st->pairs] = (unsigned char)a;
      st->fall[st->pairs] = (unsigned char)b;
      st->inv[st->pairs++] = 1 / (st->g1[a] - st->g1[b]);
    }
  }
}

// double_stick() of impact.c on the context's made rows: qdot' after it in
// qd.
static bool double_stick(const kstick *st, double tol_v, double tol_impulse, double qd[3]) {
  if (!st->ok || fabs(dot3(st->vrow, qd)) > tol_v) return false;
  double g0[KERNEL_SLACKS];
  for (int a = 0; a < KERNEL_SLACKS; a++) g0[a] = dot3(st->G0[a], qd);
  double best_s = 0, best = INFINITY;
  if (st->bounded) {
    for (int p = 0; p < st->pairs; p++) {
      const int a = st->rise[p];
      const double at = (g0[st->fall[p]] - g0[a]) * st->inv[p];
      const double v = g0[a] + st->g1[a] * at;
      if (v < best) {
        best = v;
        best_s = at;
      }
    }
    for (int f = 0; f < st->flats; f++)
      if (g0[st->flat[f]] < best) best = g0[st->flat[f]];
  }
  const double xn1 = dot3(st->X0[0], qd) + best_s * st->k[0];
  const double xn2 = dot3(st->X0[2], qd) + best_s * st->k[2];
  if (!(best >= -tol_impulse && xn1 > tol_impulse && xn2 > tol_impulse)) return false;
  double dq[3];
  for (int r = 0; r < 3; r++) dq[r] = dot3(st->AX0[r], qd) + best_s * st->Ak[r];
  for (int r = 0; r < 3; r++) qd[r] += dq[r];
  return true;
}

// The rows of a letters' candidate; false when its system is singular (it
// never passes, as on the steps).
static bool make_candidate(zeno_sim *s, const bool touching[2], const double B[4],
                           const unsigned char letter[2], kcand *c) {
  memset(c, 0, sizeof *c);
  c->letter[0] = letter[0];
  c->letter[1] = letter[1];
  c->mask = (letter[0] != ZENO_LETTER_F ? 1u : 0u) | (letter[1] != ZENO_LETTER_F ? 2u : 0u);
  contact_letter_maps *m = &s->table.letters;
  if (!contact_letter_map_make(&s->dyn, m, letter)) return false;
  const int code = letter[0] + 4 * letter[1];
  double X[4][4];  // x = X cd: the free contacts' impulse rows zero
  memset(X, 0, sizeof X);
  const double mass = s->km.mass, *mu = s->dyn.mu;
  for (int i = 0; i < 2; i++) {
    if (letter[i] == ZENO_LETTER_F) continue;
    for (int a = 0; a < 2; a++)
      for (int col = 0; col < 4; col++) X[2 * i + a][col] = m->X[code][2 * i + a][col] * B[col];
    const double *xn = X[2 * i], *xt = X[2 * i + 1];
    c->strict |= (unsigned char)(1u << c->checks);
    for (int col = 0; col < 4; col++) c->row[c->checks][col] = xn[col] / mass;
    c->checks++;
    if (letter[i] != ZENO_LETTER_S) continue;
    for (int sign = -1; sign <= 1; sign += 2, c->checks++)
      for (int col = 0; col < 4; col++)
        c->row[c->checks][col] = friction_cone_edge(mu[i], xn[col], xt[col], -sign) / mass;
  }
  for (int i = 0; i < 2; i++) {
    // F at a touching contact: its gap opens; P (N): it slips forward
    // (backward) after the impact.
    const int ysign = letter[i] == ZENO_LETTER_F   ? (touching[i] ? 1 : 0)
                      : letter[i] == ZENO_LETTER_P ? 1
                      : letter[i] == ZENO_LETTER_N ? -1
                                                   : 0;
    if (ysign == 0) continue;
    const int row = letter[i] == ZENO_LETTER_F ? 2 * i : 2 * i + 1;
    for (int col = 0; col < 4; col++)
      c->row[c->checks][col] = ysign * m->Y[code][row][col] * B[col];
    c->checks++;
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

// Appends letters to a context's list.
static void list_add(sim_kernel_context *ctx, unsigned char a, unsigned char b) {
  ctx->letters[ctx->count][0] = a;
  ctx->letters[ctx->count][1] = b;
  ctx->state[ctx->count++] = 0;
}

// The preference list of a context, in resolve_complementarity()'s order;
// its candidates are made as the law reaches them (make_entry).
static void make_context(const bool touching[2], const bool impacting[2], double e,
                         sim_kernel_context *ctx) {
  ctx->count = 0;
  ctx->e = e;
  for (int i = 0; i < 2; i++) {
    ctx->touching[i] = touching[i];
    ctx->impacting[i] = impacting[i];
  }
  for (int a = 0; a < 4; a++) ctx->B[a] = a % 2 == 0 && impacting[a / 2] ? 1 + e : 1;
  static const unsigned char slip_order[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < 2; i++) {
      if (!touching[i] || impacting[i] != (pass == 0)) continue;
      for (int k = 0; k < 3; k++)
        list_add(ctx, i == 0 ? slip_order[k] : ZENO_LETTER_F,
                 i == 1 ? slip_order[k] : ZENO_LETTER_F);
    }
  if (!touching[0] || !touching[1]) return;
  list_add(ctx, ZENO_LETTER_S, ZENO_LETTER_S);  // the double stick
  static const unsigned char pairs[8][2] = {
      {ZENO_LETTER_S, ZENO_LETTER_P}, {ZENO_LETTER_S, ZENO_LETTER_N},
      {ZENO_LETTER_P, ZENO_LETTER_S}, {ZENO_LETTER_N, ZENO_LETTER_S},
      {ZENO_LETTER_P, ZENO_LETTER_P}, {ZENO_LETTER_P, ZENO_LETTER_N},
      {ZENO_LETTER_N, ZENO_LETTER_P}, {ZENO_LETTER_N, ZENO_LETTER_N}};
  for (int k = 0; k < 8; k++) list_add(ctx, pairs[k][0], pairs[k][1]);
}

// Candidate k of a context's list, made now: false when its system is
// singular (it never passes, as on the steps).
static bool make_entry(zeno_sim *s, sim_kernel_context *ctx, int k) {
  kcand *c = &ctx->cand[k];
  const unsigned char *letter = ctx->letters[k];
  if (letter[0] != ZENO_LETTER_S || letter[1] != ZENO_LETTER_S)
    return make_candidate(s, ctx->touching, ctx->B, letter, c);
  make_stick(s, ctx->impacting, ctx->e, &ctx->stick);
  memset(c, 0, sizeof *c);
  c->letter[0] = c->letter[1] = ZENO_LETTER_S;
  c->mask = 3u;
  c->stick2 = true;
  return true;
}

void sim_kernel_swap_checks(kcand *c, int j, int k) {
  double row[4];
  memcpy(row, c->row[j], sizeof row);
  memcpy(c->row[j], c->row[k], sizeof row);
  memcpy(c->row[k], row, sizeof row);
  const unsigned strict = c->strict, bj = (strict >> j) & 1u, bk = (strict >> k) & 1u;
  c->strict = (unsigned char)((strict & ~((1u << j) | (1u << k))) | (bj << k) | (bk << j));
}

// A letters' candidate's checks (impulses_ok, then rates_ok). They must
// all pass, in any order: the one that fails is moved first, where the
// next state (most often on the same side of it) meets it at once; the
// order changes the cost, never the result.
static bool passes(kcand *c, const double cd[4], double tol_v) {
  for (int k = 0; k < c->checks; k++) {
    const double v = dot4(c->row[k], cd);
    if (c->strict & (1u << k) ? !(v > tol_v) : v < -tol_v) {
      if (k > 0) sim_kernel_swap_checks(c, 0, k);
      return false;
    }
  }
  return true;
}

// resolve_complementarity(): the first candidate of the preference list
// that passes, applied to qdot'; its mask and letters.
bool sim_kernel_resolve(zeno_sim *s, const bool touching[2], const bool impacting[2],
                        const double cd[4], double tol_v, unsigned *mask, unsigned char letter[2]) {
  sim_kernel_data *kd = s->table.kernel;
  const unsigned key = (touching[0] ? 1u : 0u) | (touching[1] ? 2u : 0u) |
                       (impacting[0] ? 4u : 0u) | (impacting[1] ? 8u : 0u);
  sim_kernel_context *ctx = &kd->contexts[key];
  if (!kd->context_made[key]) {
    make_context(touching, impacting, zeno_impact_law_restitution(&s->scene), ctx);
    kd->context_made[key] = true;
  }
  const double tol_impulse = tol_v * s->km.mass;
  for (int k = 0; k < ctx->count; k++) {
    if (ctx->state[k] == 0) ctx->state[k] = make_entry(s, ctx, k) ? 1 : 2;
    if (ctx->state[k] == 2) continue;
    kcand *c = &ctx->cand[k];
    if (c->stick2) {
      if (!double_stick(&ctx->stick, tol_v, tol_impulse, s->run.qd)) continue;
    } else {
      if (!passes(c, cd, tol_v)) continue;
      for (int j = 0; j < 3; j++) s->run.qd[j] += dot4(c->G[j], cd);
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
  // Every impact through the maps from its system's first use, so that no
  // cycle's result depends on the cycles before it (which maps they made):
  // a cycle is a function of its section angle alone, however many runners
  // share out the samples. (The maps are the same whenever they are made;
  // making all sixteen here was a third of a fresh simulator's run.) The
  // event loop's impacts too, where the kernel does not serve.
  sim_use_impact_maps(s);
  // The kernel resolves impacts by the complementarity laws only
  // (zeno_impact_law_info.complementarity): without its data it serves
  // nothing, and the other laws' cycles run on the event loop.
  if (!zeno_impact_law_info_of(s->scene.impact_law).complementarity) return ZENO_OK;
  sim_kernel_data *kd = calloc(1, sizeof *kd);
  if (kd == NULL) return ZENO_ERR_NOMEM;
  kd->contexts = malloc(SIM_KERNEL_CONTEXTS * sizeof *kd->contexts);
  if (kd->contexts == NULL) {
    free(kd);
    return ZENO_ERR_NOMEM;
  }
  s->table.kernel = kd;
  return ZENO_OK;
}

void sim_kernel_free(zeno_sim *s) {
  if (s->table.kernel == NULL) return;
  free(s->table.kernel->contexts);
  free(s->table.kernel);
  s->table.kernel = NULL;
}
