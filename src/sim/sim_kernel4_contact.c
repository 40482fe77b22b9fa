// The contacts of the kernel's four-lane cycles (sim_kernel4.h): the
// classes of their velocities, the projection onto closed contacts and the
// impact law, each on four lanes at once with sim_kernel.c's and
// sim_kernel_law.c's operations in their order.
#include "sim/sim_kernel4.h"

#include <math.h>
#include <string.h>

#include "sim/sim_kernel_law.h"

#ifdef SIM_KERNEL4

/* ---------- classes ---------- */

// classify() of a cycle on each lane: false when a velocity lies in its
// band or the lanes' classes part.
L4 bool sim_k4_classify(const quad *w, const v4 cd[4], const bool touching[2], v4 tol,
                        mode_class *cls) {
  v4 e = vb(SIM_KERNEL_CYCLE_ROUNDING) * w->start_speed;
  const v4 e_lo = vb(0.01) * tol, e_hi = vb(0.75) * tol;
  e = vsel(e < e_lo, e_lo, vsel(e > e_hi, e_hi, e));
  const v4 lo = tol - e, hi = tol + e, ntol = -tol;
  memset(cls, 0, sizeof *cls);
  for (int i = 0; i < 2; i++) {
    const v4 zd = cd[2 * i], xd = cd[2 * i + 1], az = vabs(zd), ax = vabs(xd);
    m4 band = (ax >= lo) & (ax <= hi);
    if (touching[i]) band |= (az >= lo) & (az <= hi);
    if (bits(band) != 0) return false;
    bool on;
    if (!touching[i]) {
      cls->gap[i] = MODE_GAP_OPEN;
    } else if (!same(zd > tol, &on)) {
      return false;
    } else if (on) {
      cls->gap[i] = MODE_GAP_OPEN;
    } else {
      if (!same(zd < ntol, &on)) return false;
      cls->gap[i] = on ? MODE_GAP_IMPACTING : MODE_GAP_CLOSED;
    }
    if (!same(xd > tol, &on)) return false;
    if (on) {
      cls->slip[i] = MODE_SLIP_POS;
    } else {
      if (!same(xd < ntol, &on)) return false;
      cls->slip[i] = on ? MODE_SLIP_NEG : MODE_SLIP_ZERO;
    }
  }
  return true;
}

// enforce(): closed gaps to zero, the constrained rates projected out.
L4 bool sim_k4_enforce(quad *w, const mode_class *cls, v4 cd[4]) {
  int cols[4], m = 0;
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED) {
      w->q[i] = vb(0);
      cols[m++] = 2 * i;
    }
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED && cls->slip[i] == MODE_SLIP_ZERO) cols[m++] = 2 * i + 1;
  if (m == 4) {
    w->qd[0] = w->qd[1] = w->qd[2] = vb(0);
  } else if (m > 0) {
    unsigned key = 0;
    for (int a = 0; a < m; a++) key |= 1u << cols[a];
    if (w->kd->proj_state[key] != 1) return false;  // made by the one-lane kernel
    const double(*K)[3] = (const double(*)[3])w->kd->proj_K[key];
    v4 rr[3];
    for (int a = 0; a < m; a++) rr[a] = -cd[cols[a]];
    for (int k = 0; k < 3; k++)
      for (int a = 0; a < m; a++) w->qd[k] += vb(K[k][a]) * rr[a];
    for (int a = 0; a < m; a++)
      if (cols[a] % 2 == 0) w->qd[cols[a] / 2] = vb(0);
  }
  rates_of(w, w->qd, cd);
  return true;
}

/* ---------- the impact law ---------- */

typedef enum q_pass { P_NO, P_YES, P_PART } q_pass;

// passes() on each lane.
static L4 q_pass passes(kcand *c, const v4 cd[4], v4 tol) {
  const v4 ntol = -tol;
  for (int k = 0; k < c->checks; k++) {
    const v4 v = dot4(c->row[k], cd);
    const m4 fail = c->strict & (1u << k) ? ~(v > tol) : v < ntol;
    const int b = bits(fail);
    if (b == ALL4) {
      if (k > 0) sim_kernel_swap_checks(c, 0, k);
      return P_NO;
    }
    if (b != 0) return P_PART;
  }
  return P_YES;
}

// double_stick() on each lane.
static L4 q_pass double_stick(const kstick *st, v4 tol_v, v4 tol_impulse, v4 qd[3]) {
  if (!st->ok) return P_NO;
  bool on;
  if (!same(vabs(dot3(st->vrow, qd)) > tol_v, &on)) return P_PART;
  if (on) return P_NO;
  v4 g0[KERNEL_SLACKS];
  for (int a = 0; a < KERNEL_SLACKS; a++) g0[a] = dot3(st->G0[a], qd);
  v4 best_s = vb(0), best = vb(INFINITY);
  if (st->bounded) {
    for (int p = 0; p < st->pairs; p++) {
      const int a = st->rise[p];
      const v4 at = (g0[st->fall[p]] - g0[a]) * vb(st->inv[p]);
      const v4 v = g0[a] + vb(st->g1[a]) * at;
      const m4 lower = v < best;
      best = vsel(lower, v, best);
      best_s = vsel(lower, at, best_s);
    }
    for (int f = 0; f < st->flats; f++) {
      const v4 g = g0[st->flat[f]];
      best = vsel(g < best, g, best);
    }
  }
  const v4 xn1 = dot3(st->X0[0], qd) + best_s * vb(st->k[0]);
  const v4 xn2 = dot3(st->X0[2], qd) + best_s * vb(st->k[2]);
  if (!same((best >= -tol_impulse) & (xn1 > tol_impulse) & (xn2 > tol_impulse), &on)) return P_PART;
  if (!on) return P_NO;
  v4 dq[3];
  for (int r = 0; r < 3; r++) dq[r] = dot3(st->AX0[r], qd) + best_s * vb(st->Ak[r]);
  for (int r = 0; r < 3; r++) qd[r] += dq[r];
  return P_YES;
}

// sim_kernel_resolve() on each lane, on a made context and made candidates.
L4 bool sim_k4_resolve(quad *w, const bool touching[2], const bool impacting[2], const v4 cd[4],
                       v4 tol_v, unsigned *mask, unsigned char letter[2]) {
  const zeno_sim *s = w->s;
  const sim_kernel_data *kd = w->kd;
  const unsigned key = (touching[0] ? 1u : 0u) | (touching[1] ? 2u : 0u) |
                       (impacting[0] ? 4u : 0u) | (impacting[1] ? 8u : 0u);
  if (!kd->context_made[key]) return false;
  sim_kernel_context *ctx = &kd->contexts[key];
  const v4 tol_impulse = tol_v * vb(s->km.mass);
  for (int k = 0; k < ctx->count; k++) {
    if (ctx->state[k] == 0) return false;
    if (ctx->state[k] == 2) continue;
    kcand *c = &ctx->cand[k];
    const q_pass p = c->stick2 ? double_stick(&ctx->stick, tol_v, tol_impulse, w->qd)
                               : passes(c, cd, tol_v);
    if (p == P_PART) return false;
    if (p == P_NO) continue;
    if (!c->stick2)
      for (int j = 0; j < 3; j++) w->qd[j] += dot4(c->G[j], cd);
    *mask = c->mask;
    letter[0] = c->letter[0];
    letter[1] = c->letter[1];
    return true;
  }
  return false;
}

#endif
