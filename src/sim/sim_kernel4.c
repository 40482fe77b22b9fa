// Four Poincaré cycles at once on the flat kernel (sim_kernel.h): the
// cycle steps of sim_kernel.c for four section states in lockstep, four
// doubles to an AVX2 register. Every number of a lane is formed by the
// operations sim_kernel.c uses, in its order (no contraction: the project
// compiles with -ffp-contract=off), so that each lane's cycle is
// sim_kernel_cycle()'s bit for bit; test_sim_kernel4 holds them to it.
//
// The lanes must make the same decisions: the same classes, guards, impact
// outcomes and modes. Where they part (near a breakpoint of the map), or
// where sim_kernel.c would make something of the table first or hand its
// cycle back, nothing is kept and the caller runs the four one by one.
#include "sim/sim_kernel4.h"

#include <math.h>
#include <string.h>

#ifdef SIM_KERNEL4

/* ---------- the cycle's steps ---------- */

static L4 bool token(quad *w, char a, char b) {
  const char t[2] = {a, b};
  return sim_cycle_append(w->word, &w->word_len, t, 2);
}

static L4 void take_tie(quad *w, bool counts) {
  w->all_tie = vsel(w->tie < w->all_tie, w->tie, w->all_tie);
  if (counts) w->tie_margin = vsel(w->tie < w->tie_margin, w->tie, w->tie_margin);
  w->tie = vb(SIM_TIE_NONE);
}

// choose() on a class the one-lane kernel has made.
static L4 bool choose(quad *w, const mode_class *cls, v4 v_after) {
  const sim_kernel_data *kd = w->kd;
  const unsigned index = cls->gap[0] + 3u * cls->slip[0] + 9u * cls->gap[1] + 27u * cls->slip[1];
  if (kd->class_state[index] != 1) return false;
  const unsigned code = kd->class_code[index];
  note(w, vb(kd->class_margin[index]));
  w->code = code;
  w->rest = false;
  return !kd->mode_rest[code] || same(v_after == vb(0), &w->rest);
}

static L4 bool impact(quad *w, mode_class *cls, const bool gap_hit[2], v4 cd[4], v4 tol_v,
                      unsigned *mask, unsigned char letter[2]) {
  bool touching[2], impacting[2];
  for (int i = 0; i < 2; i++) {
    touching[i] = cls->gap[i] != MODE_GAP_OPEN || gap_hit[i];
    impacting[i] = cls->gap[i] == MODE_GAP_IMPACTING;
  }
  if (!sim_k4_resolve(w, touching, impacting, cd, tol_v, mask, letter)) return false;
  rates_of(w, w->qd, cd);
  if (!sim_k4_classify(w, cd, touching, tol_v, cls)) return false;
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
  return sim_k4_enforce(w, cls, cd);
}

static L4 q_step crossing(quad *w, const sim_hits *hits, v4 cd[4], v4 vscale) {
  zeno_sim *s = w->s;
  if (++w->events > SIM_CYCLE_MAX_EVENTS) return Q_PART;
  const bool *gap_hit = hits->gap;
  const v4 tol_v = vb(s->def.velocity_rtol) * vscale;
  const unsigned before = w->code, letters[2] = {before % 4, before / 4};
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = letters[i] != ZENO_LETTER_F || gap_hit[i];
  mode_class cls;
  if (!sim_k4_classify(w, cd, touching, tol_v, &cls)) return Q_PART;
  for (int i = 0; i < 2; i++) {
    if (hits->slip[i]) cls.slip[i] = MODE_SLIP_ZERO;
    if (letters[i] != ZENO_LETTER_F) cls.gap[i] = MODE_GAP_CLOSED;
    if (cls.gap[i] != MODE_GAP_OPEN) w->q[i] = vb(0);
  }
  const v4 rate_before = w->qd[1];
  for (int i = 0; i < 2; i++)
    if (gap_hit[i]) {
      const v4 r = cd[2 * i] / vscale;
      note(w, r * r);
    }
  bool impacted = false, section = false;
  v4 speed = vb(0), angle = vb(0);
  unsigned mask = 0;
  unsigned char letter[2] = {0, 0};
  if (gap_hit[0] || gap_hit[1]) {
    for (int i = 0; i < 2; i++)
      if (cls.gap[i] == MODE_GAP_IMPACTING) speed = vsel(-cd[2 * i] > speed, -cd[2 * i], speed);
    if (!same(speed > vb(0), &impacted)) return Q_PART;
    if (impacted) {
      section = cls.gap[0] == MODE_GAP_CLOSED && cls.gap[1] == MODE_GAP_IMPACTING;
      if (section && w->sections == 1)
        for (int l = 0; l < LANES; l++) angle[l] = atan(cd[3][l] / fabs(cd[2][l]));
      if (!impact(w, &cls, gap_hit, cd, tol_v, &mask, letter)) return Q_PART;
      if (!token(w, mask & 1u ? 'I' : 'F', mask & 2u ? 'I' : 'F')) return Q_PART;
      if (w->impacts++ == 0) w->first_speed = speed;
    }
  }
  if (!impacted && !sim_k4_enforce(w, &cls, cd)) return Q_PART;
  for (int i = 0; i < 2; i++) {  // sim_note_small_speeds()
    if (cls.gap[i] == MODE_GAP_OPEN && !gap_hit[i]) continue;
    const v4 zd = vabs(cd[2 * i]), xd = vabs(cd[2 * i + 1]);
    if (cls.gap[i] == MODE_GAP_OPEN) note_where(w, zd > tol_v, (zd / vscale) * (zd / vscale));
    if (cls.gap[i] == MODE_GAP_CLOSED) note_where(w, xd > tol_v, xd / vscale);
  }
  const v4 v_after = speed_of(cd);
  w->vscale = vsel(v_after > tol_v, v_after, tol_v);
  if (!choose(w, &cls, v_after)) return Q_PART;
  if (section && ++w->sections == 2) {
    take_tie(w, false);
    w->returned = true;
    w->angle = angle;
    w->rate = rate_before;
    return Q_DONE;
  }
  if (w->code != before || impacted) {
    const char *l = w->kd->mode_letters[w->code];
    if (!token(w, l[0], l[1])) return Q_PART;
  }
  if (impacted && !w->rest)
    for (int l = 0; l < LANES; l++)
      if (!sim_zeno_quiet_at(s, w->impacts, speed[l], w->first_speed[l], w->vscale[l]))
        return Q_PART;
  if (impacted) {
    const char t[2] = {zeno_letter_name((zeno_letter)letter[0]),
                       zeno_letter_name((zeno_letter)letter[1])};
    if (!sim_cycle_append(w->outcomes, &w->outcomes_len, t, 2)) return Q_PART;
  }
  take_tie(w, true);
  if (!w->rest) return Q_ON;
  w->end = ZENO_OUTCOME_REST;
  return Q_DONE;
}

/* ---------- the segment ---------- */

// A free contact's gap guard (first_root() of flow_zod.c with direction
// -1, or 0 when the impact is now): its time on each lane, INFINITY for
// none; false where a lane needs the scaled discriminant.
static L4 bool gap_root(v4 z, v4 zd, double a, double inv, v4 *tau) {
  const v4 inf = vb(INFINITY), zero = vb(0);
  const m4 now = (z <= zero) & ((zd < zero) | ((zd == zero) & (a < 0 ? ~(m4){0} : (m4){0})));
  v4 best = inf;
  if (a == 0) {
    const v4 r = -z / zd;
    const m4 ok = (zd != zero) & (r > zero) & (vabs(r) < inf) & (zd + vb(a) * r < zero);
    best = vsel(ok, r, inf);
  } else {
    // flow_zod.c's safe range for c1 squared, or c1 = 0; in between a
    // scaled form this kernel does not make.
    const m4 c1_zero = zd == zero;
    const m4 safe = (vabs(zd) > vb(FLOW_SQUARE_SAFE_MIN)) & (vabs(zd) < vb(FLOW_SQUARE_SAFE_MAX));
    if (bits(safe | c1_zero) != ALL4) return false;
    const v4 disc = vsel(c1_zero, vb(-2.0 * a) * z, zd * zd - vb(2.0 * a) * z);
    const m4 real = ~(disc < zero);
    const v4 root_disc = _mm256_sqrt_pd(vsel(real, disc, zero));
    const m4 sign = (m4)vb(-0.0);  // copysign(root_disc, zd)
    const v4 qq = vb(-0.5) * (zd + (v4)(((m4)root_disc & ~sign) | ((m4)zd & sign)));
    const m4 qq_on = real & (qq != zero);
    const m4 qq_pos = qq > zero, qq_neg = qq < zero;
    const m4 take1 = qq_on & (a > 0 ? qq_pos : ~qq_pos);
    const m4 take2 = qq_on & (((z > zero) & qq_pos) | ((z < zero) & qq_neg));
    const v4 r1 = qq * vb(inv), r2 = z / qq;
    const m4 ok1 = take1 & (r1 > zero) & (vabs(r1) < inf) & (zd + vb(a) * r1 < zero);
    best = vsel(ok1, r1, best);
    const m4 ok2 = take2 & (r2 > zero) & (vabs(r2) < inf) & (zd + vb(a) * r2 < zero) & (r2 < best);
    best = vsel(ok2, r2, best);
  }
  *tau = vsel(now, zero, best);
  return true;
}

// A slipping contact's guard (a linear root with direction dir).
static L4 v4 slip_root(v4 c0, double c1, double inv, int dir) {
  const v4 inf = vb(INFINITY), zero = vb(0);
  if (c1 == 0) return inf;
  const v4 r = -c0 * vb(inv);
  const double slope = c1;  // c1 + 0 r for a finite r
  const bool dir_ok = dir < 0 ? slope < 0 : slope > 0;
  if (!dir_ok) return inf;
  return vsel((r > zero) & (vabs(r) < inf), r, inf);
}

// sim_note_near_misses() over the first tau of the segment from c, cd
// (accelerations cdd).
static L4 void near_misses(quad *w, const v4 c[4], const v4 cd[4], const double cdd[4], v4 tau) {
  for (int i = 0; i < 2; i++) {
    const double zdd = cdd[2 * i];
    const unsigned l = i == 0 ? w->code % 4 : w->code / 4;
    if (l != ZENO_LETTER_F || !(zdd > 0)) continue;
    const v4 z = c[2 * i], zd = cd[2 * i], zero = vb(0);
    const m4 dips = (z > zero) & (zd < zero) & ~(-zd / vb(zdd) >= tau);
    const v4 lowest = z - zd * zd / vb(2 * zdd);
    note_where(w, dips & (lowest > zero), lowest / z);
  }
}

// sim_cycle_segment_end() where no lane has a guard crossing: an escape
// or the time limit ends the cycles, the same on every lane (the escape
// crossings are flow_zod.c's own, lane by lane: a cycle meets them once).
static L4 q_step segment_end(quad *w, const v4 c[4], const v4 cd[4], const double cdd[4],
                             const double inv[4]) {
  const zeno_sim *s = w->s;
  const zeno_mode mode = {{(unsigned char)(w->code % 4), (unsigned char)(w->code / 4)}};
  int kind = -1;        // 0 the time limit, 1 an escape
  v4 tau_note = vb(0);  // near misses count up to the end, lane by lane
  for (int l = 0; l < LANES; l++) {
    double cl[4], cdl[4];
    for (int a = 0; a < 4; a++) {
      cl[a] = c[a][l];
      cdl[a] = cd[a][l];
    }
    flow_crossing cr[FLOW_MAX_CROSSINGS];
    const int n = flow_crossings_inv(2, mode, cl, cdl, cdd, inv, s->scene.escape_radius, cr);
    const double tau_end = s->scene.t_end - w->t[l];
    const flow_end end = flow_segment_end(cr, n, tau_end, s->escape_horizon);
    if (end == FLOW_END_GUARD) return Q_PART;
    const int lane_kind = end == FLOW_END_TIME ? 0 : 1;
    tau_note[l] = lane_kind == 0 ? tau_end : cr[0].tau;
    if (kind >= 0 && lane_kind != kind) return Q_PART;
    kind = lane_kind;
  }
  near_misses(w, c, cd, cdd, tau_note);
  take_tie(w, true);
  w->end = kind == 0 ? ZENO_OUTCOME_TIME_LIMIT : ZENO_OUTCOME_ESCAPED;
  return Q_DONE;
}

// flow(): the segment to its first guard crossing.
static L4 q_step flow(quad *w) {
  zeno_sim *s = w->s;
  const sim_kernel_data *kd = w->kd;
  const unsigned code = w->code;
  const double *qddp = kd->mode_qddp[code], *cdd = kd->mode_cdd[code], *inv = kd->mode_inv[code];
  v4 c[4], cd[4];
  c[0] = w->q[0];
  c[1] = vb(w->k1[0]) * w->q[0] + vb(w->k1[1]) * w->q[1] + vb(w->k1[2]) * w->q[2];
  c[2] = w->q[1];
  c[3] = w->q[2];
  rates_of(w, w->qd, cd);
  // The guards' times by contact, INFINITY for none (flow_crossings_inv).
  v4 tau_of[2];
  bool is_gap[2] = {false, false}, is_slip[2] = {false, false};
  for (int i = 0; i < 2; i++) {
    const unsigned l = i == 0 ? code % 4 : code / 4;
    tau_of[i] = vb(INFINITY);
    if (l == ZENO_LETTER_F) {
      is_gap[i] = true;
      if (!gap_root(c[2 * i], cd[2 * i], cdd[2 * i], inv[2 * i], &tau_of[i])) return Q_PART;
    } else if (l == ZENO_LETTER_P || l == ZENO_LETTER_N) {
      is_slip[i] = true;
      tau_of[i] = slip_root(cd[2 * i + 1], cdd[2 * i + 1], inv[2 * i + 1],
                            l == ZENO_LETTER_P ? -1 : +1);
    }
  }
  const v4 inf = vb(INFINITY);
  const m4 fin0 = tau_of[0] < inf, fin1 = tau_of[1] < inf;
  const int crossing_lanes = bits(fin0 | fin1);
  if (crossing_lanes == 0) return segment_end(w, c, cd, cdd, inv);
  if (crossing_lanes != ALL4) return Q_PART;
  // escape_may_matter(): reach bounds inside the radius on every lane.
  v4 latest = vb(0);
  latest = vsel(fin0 & (tau_of[0] > latest), tau_of[0], latest);
  latest = vsel(fin1 & (tau_of[1] > latest), tau_of[1], latest);
  const v4 T = vb(2) * latest;
  const double bound = (1 - FLOW_ESCAPE_BOUND_RTOL) * s->scene.escape_radius;
  for (int a = 0; a < 4; a++) {
    const v4 reach = vabs(c[a]) + T * (vabs(cd[a]) + vb(0.5) * T * vb(fabs(cdd[a])));
    if (bits(reach < vb(bound)) != ALL4) return Q_PART;
  }
  // The sorted crossings' first (contact 0's on a tie).
  bool first0;
  if (!same(tau_of[0] <= tau_of[1], &first0)) return Q_PART;
  const int f = first0 ? 0 : 1, o = 1 - f;
  const v4 tau = tau_of[f], other = tau_of[o];
  if (bits(tau >= vb(s->scene.t_end) - w->t) != 0) return Q_PART;  // the time limit
  const v4 vstart = speed_of(cd);
  for (int k = 0; k < 3; k++) {  // flow_advance()
    w->q[k] = w->q[k] + tau * (w->qd[k] + vb(0.5) * tau * vb(qddp[k]));
    w->qd[k] = w->qd[k] + tau * vb(qddp[k]);
  }
  w->t += tau;
  v4 cd1[4];
  rates_of(w, w->qd, cd1);
  const v4 v1 = speed_of(cd1), vt = vb(s->km.accel_scale) * tau;
  const v4 vmax = vsel(vstart > v1, vstart, v1), vscale = vsel(vmax > vt, vmax, vt);
  // sim_crossing_hits(): the first guard, and the other within the time
  // tolerance.
  sim_hits hits = {0};
  bool other_hit;
  if (!same(other <= tau + vb(s->def.time_rtol) * tau, &other_hit)) return Q_PART;
  for (int i = 0; i < 2; i++) {
    const bool hit = i == f || other_hit;
    hits.gap[i] = hit && is_gap[i];
    hits.slip[i] = hit && is_slip[i];
  }
  // sim_note_crossing_ties(): the next crossing over the segment's
  // duration (none past an infinite one or a zero duration), but two slips
  // of a body on both contacts; then the near misses.
  const bool both_closed = code % 4 != ZENO_LETTER_F && code / 4 != ZENO_LETTER_F;
  if (!(both_closed && is_slip[f] && is_slip[o])) note(w, (other - tau) / tau);
  near_misses(w, c, cd, cdd, tau);
  return crossing(w, &hits, cd1, vscale);
}

// start(): q' = 0, both gaps touching, an impact now.
static L4 q_step start(quad *w) {
  v4 cd[4];
  rates_of(w, w->qd, cd);
  w->vscale = w->start_speed = speed_of(cd);
  if (bits(w->vscale > vb(0)) != ALL4) return Q_PART;
  const bool touching[2] = {true, true};
  mode_class cls;
  const v4 tol = vb(w->s->def.velocity_rtol) * w->vscale;
  if (!sim_k4_classify(w, cd, touching, tol, &cls)) return Q_PART;
  static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  bool impacting = false;
  unsigned char letter[2];
  for (int i = 0; i < 2; i++) {
    impacting = impacting || cls.gap[i] == MODE_GAP_IMPACTING;
    letter[i] = cls.gap[i] == MODE_GAP_CLOSED ? by_slip[cls.slip[i]] : ZENO_LETTER_F;
  }
  if (!impacting) return Q_PART;
  w->code = letter[0] + 4u * letter[1];
  sim_hits hits = {0};
  for (int i = 0; i < 2; i++)
    if (letter[i] == ZENO_LETTER_F && !same(cd[2 * i] < vb(0), &hits.gap[i])) return Q_PART;
  return crossing(w, &hits, cd, w->vscale);
}

static L4 unsigned cycles(zeno_sim *s, const double qdp[][3], sim_cycle out[]) {
  // Each field set before it is read (no zeroing of the whole: the compiler
  // made that a `rep stos`, slow to start): first_speed at the first impact,
  // vscale and start_speed at the start, angle and rate at the return.
  quad w;
  w.s = s;
  w.kd = s->table.kernel;
  for (int j = 0; j < 3; j++) w.k1[j] = s->km.Cp[j][1];
  w.code = 0;
  w.events = w.sections = 0;
  w.impacts = 0;
  w.returned = w.rest = false;
  w.end = ZENO_OUTCOME_RUNNING;
  w.word_len = w.outcomes_len = 0;
  sim_cycle_track k[LANES];
  for (int l = 0; l < LANES; l++) sim_cycle_track_init(&k[l], &out[l]);
  w.word = out[0].word;
  w.outcomes = out[0].outcomes;
  for (int j = 0; j < 3; j++) {
    w.q[j] = vb(0);
    for (int l = 0; l < LANES; l++) w.qd[j][l] = qdp[l][j];
  }
  w.t = vb(0);
  w.tie = w.all_tie = w.tie_margin = vb(SIM_TIE_NONE);
  q_step st = start(&w);
  while (st == Q_ON) st = flow(&w);
  if (st != Q_DONE) return 0;
  unsigned taken = 0;
  for (int l = 0; l < LANES; l++) {
    sim_cycle *o = &out[l];
    if (l > 0) {
      memcpy(o->word, w.word, w.word_len + 1);
      memcpy(o->outcomes, w.outcomes, w.outcomes_len + 1);
    }
    o->tie_margin = w.tie_margin[l];
    if (w.returned) {
      o->returned = true;
      o->angle = w.angle[l];
      o->rate = w.rate[l];
      o->t = w.t[l];
    } else {
      o->end = w.end;
    }
    k[l].word_len = w.word_len;
    k[l].outcomes_len = w.outcomes_len;
    k[l].all_tie = w.all_tie[l];
    if (sim_cycle_finish(&k[l], s, true)) taken |= 1u << l;
  }
  return taken;
}

unsigned sim_kernel_cycle4(zeno_sim *s, const double qdp[4][3], sim_cycle out[4]) {
  if (!__builtin_cpu_supports("avx2")) return 0;
  // Its constants are made by the one-lane kernel's first cycle.
  if (!sim_kernel_serves(s) || !s->table.kernel->made) return 0;
  return cycles(s, qdp, out);
}

int sim_kernel_lanes(void) { return __builtin_cpu_supports("avx2") ? LANES : 1; }

#else

int sim_kernel_lanes(void) { return 1; }

unsigned sim_kernel_cycle4(zeno_sim *s, const double qdp[4][3], sim_cycle out[4]) {
  (void)s;
  (void)qdp;
  (void)out;
  return 0;
}

#endif
