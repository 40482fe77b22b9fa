// The Poincaré cycle, and a whole run, on the flat kernel (sim_kernel.h):
// the event loop's steps (sim.c's emit_start, emit_start_impact,
// flow_to_event and handle_crossing) for two contacts under the ZOD, with
// the state kept in q' and its contact rates carried along instead of
// recomputed, every constant of the scene read from the table, and the
// impact law's candidates checked inline. The decisions, their order and
// the tie margins noted are the loop's; so are the shared pieces it calls
// (flow_crossings_inv, the tie notes, the table's class choices, letter maps
// and projections). The event loop is its oracle (test_sim_cycle).
#include "sim/sim_kernel.h"

#include <math.h>
#include <string.h>

#include "base/util.h"
#include "dynamics/flow_zod.h"
#include "sim/sim_internal.h"

/// A step's result: go on, the cycle or run is done, hand it back (to be
/// made again by the event loop), or (a run) hand the next
/// event to the event loop, from the consistent state after this one.
typedef enum kstep { K_ON, K_DONE, K_BACK, K_LOOP } kstep;

typedef struct kernel_run {
  zeno_sim *s;
  sim_kernel_data *kd;
  sim_cycle_track k;
  double k1[3];  ///< the slip of contact 1 as a row of q' (Cp[.][1])
  double tol_accel;
  /// A whole run (sim_kernel_run) rather than a cycle: the simulator's
  /// word, counts, sections and Zeno records are kept as the event loop
  /// keeps them, and the run goes on past the section.
  bool run;
  long max_crossings;  ///< crossings the kernel may take before handing back
  /// A cycle's starting speed scale (its band, classify); 0 in a run.
  double start_speed;
} kernel_run;

/* ---------- the scene's data in q' ---------- */

static void rates_of(const kernel_run *r, const double qd[3], double cd[4]) {
  cd[0] = qd[0];
  cd[1] = r->k1[0] * qd[0] + r->k1[1] * qd[1] + r->k1[2] * qd[2];
  cd[2] = qd[1];
  cd[3] = qd[2];
}

// The contact coordinates and rates of the simulator's state.
static void contacts_of(const kernel_run *r, double c[4], double cd[4]) {
  const zeno_sim *s = r->s;
  c[0] = s->run.q[0];
  c[1] = r->k1[0] * s->run.q[0] + r->k1[1] * s->run.q[1] + r->k1[2] * s->run.q[2];
  c[2] = s->run.q[1];
  c[3] = s->run.q[2];
  rates_of(r, s->run.qd, cd);
}

static double speed_of(const double cd[4]) {
  double v = 0;
  for (int a = 0; a < 4; a++) {
    const double x = fabs(cd[a]);
    if (x > v) v = x;
  }
  return v;
}

static void make_constants(zeno_sim *s, sim_kernel_data *kd) {
  // qdot'+ = A (qdot + M^-1 W x): the impulse's effect on qdot'.
  for (int k = 0; k < 3; k++)
    for (int a = 0; a < 4; a++) {
      double sum = 0;
      for (int j = 0; j < 3; j++) sum += s->km.A[k][j] * s->km.inv_mass[j] * s->dyn.W[j][a];
      kd->AMW[k][a] = sum;
    }
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      double sum = 0;
      for (int j = 0; j < 3; j++) sum += s->km.Ainv[j][a] * s->km.mass_diag[j] * s->km.Ainv[j][b];
      kd->kinetic[a][b] = 0.5 * sum;
    }
  for (unsigned code = 0; code < 16; code++) {
    kd->mode_letters[code][0] = zeno_letter_name((zeno_letter)(code % 4));
    kd->mode_letters[code][1] = zeno_letter_name((zeno_letter)(code / 4));
  }
  kd->made = true;
}

// The kinetic energy of the ZOD rates v (the event loop's, sim.c, to
// rounding, without its conversion to generalised rates).
static double kinetic_of(const kernel_run *r, const double v[3]) {
  const double(*K)[3] = (const double(*)[3])r->kd->kinetic;
  return K[0][0] * v[0] * v[0] + K[1][1] * v[1] * v[1] + K[2][2] * v[2] * v[2] +
         2 * (K[0][1] * v[0] * v[1] + K[0][2] * v[0] * v[2] + K[1][2] * v[1] * v[2]);
}

// The mode's accelerations and rest test (sim_mode_rates, is_rest); false
// when the mode has no solution.
static bool mode_data(kernel_run *r, unsigned code) {
  sim_kernel_data *kd = r->kd;
  if (kd->mode_state[code] == 0) {
    zeno_sim *s = r->s;
    const zeno_mode mode = {{(unsigned char)(code % 4), (unsigned char)(code / 4)}};
    mode_solution sol;
    if (!mode_solve_cached(&s->dyn, mode, &s->mode_cache, &sol)) {
      kd->mode_state[code] = 2;
      return false;
    }
    sim_mode_rates(s, &sol, kd->mode_qddp[code]);
    rates_of(r, kd->mode_qddp[code], kd->mode_cdd[code]);
    for (int a = 0; a < 4; a++) {
      const double acc = kd->mode_cdd[code][a];
      kd->mode_inv[code][a] = acc == 0 ? 0 : a % 2 == 0 ? 1 / (0.5 * acc) : 1 / acc;
    }
    bool rest = mode.letter[0] == ZENO_LETTER_S && mode.letter[1] == ZENO_LETTER_S;
    for (int a = 0; a < 4; a++) rest = rest && !(fabs(kd->mode_cdd[code][a]) > r->tol_accel);
    rest = rest && fabs(sol.qdd[2]) * s->km.length_scale <= r->tol_accel &&
           hypot(sol.qdd[0], sol.qdd[1]) <= r->tol_accel;
    kd->mode_rest[code] = rest;
    kd->mode_state[code] = 1;
  }
  return kd->mode_state[code] == 1;
}

// The projection onto the coordinates cols[0..m) (set `key`) in q': the
// table's map in generalised rates (made here if it is not), carried
// through A; false when the coordinates are dependent.
static bool projection(kernel_run *r, unsigned key, const int *cols, int m) {
  sim_kernel_data *kd = r->kd;
  if (kd->proj_state[key] == 0) {
    const sim_table *t = &r->s->table;
    if (t->correct_state[key] == 0) sim_table_projection(r->s, cols, m);
    if (t->correct_state[key] != 1) return false;
    for (int k = 0; k < 3; k++)
      for (int a = 0; a < 3; a++) {
        double sum = 0;
        for (int j = 0; j < 3; j++) sum += r->s->km.A[k][j] * t->correct_K[key][j][a];
        kd->proj_K[key][k][a] = sum;
      }
    kd->proj_state[key] = 1;
  }
  return true;
}

/* ---------- classes ---------- */

// Whether a velocity lies outside the band [lo, hi] around its threshold,
// where rounding could class it otherwise.
static bool clear_of(double v, double lo, double hi) {
  const double a = fabs(v);
  return !(a >= lo && a <= hi);
}

// The velocities' classes against tol, or false when one lies in the band
// (a run's: SIM_KERNEL_BAND; a cycle's: SIM_KERNEL_CYCLE_ROUNDING).
static bool classify(const kernel_run *r, const double cd[4], const bool touching[2], double tol,
                     mode_class *cls) {
  double lo = tol / SIM_KERNEL_BAND, hi = tol * SIM_KERNEL_BAND;
  if (!r->run) {
    double e = SIM_KERNEL_CYCLE_ROUNDING * r->start_speed;
    e = e < 0.01 * tol ? 0.01 * tol : e > 0.75 * tol ? 0.75 * tol : e;
    lo = tol - e;
    hi = tol + e;
  }
  memset(cls, 0, sizeof *cls);
  for (int i = 0; i < 2; i++) {
    const double zd = cd[2 * i], xd = cd[2 * i + 1];
    if (!clear_of(xd, lo, hi) || (touching[i] && !clear_of(zd, lo, hi))) return false;
    cls->gap[i] = !touching[i] || zd > tol ? MODE_GAP_OPEN
                  : zd < -tol              ? MODE_GAP_IMPACTING
                                           : MODE_GAP_CLOSED;
    cls->slip[i] = xd > tol ? MODE_SLIP_POS : xd < -tol ? MODE_SLIP_NEG : MODE_SLIP_ZERO;
  }
  return true;
}

// sim_enforce: closed gaps to zero, and the rates of closed gaps and of
// closed contacts that do not slip projected to zero.
static bool enforce(kernel_run *r, const mode_class *cls, double cd[4]) {
  zeno_sim *s = r->s;
  int cols[4], m = 0;
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED) {
      s->run.q[i] = 0;
      cols[m++] = 2 * i;
    }
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_CLOSED && cls->slip[i] == MODE_SLIP_ZERO) cols[m++] = 2 * i + 1;
  if (m == 4) {  // a fully constrained body stands still
    s->run.qd[0] = s->run.qd[1] = s->run.qd[2] = 0;
  } else if (m > 0) {
    unsigned key = 0;
    for (int a = 0; a < m; a++) key |= 1u << cols[a];
    if (!projection(r, key, cols, m)) return false;
    double(*K)[3] = r->kd->proj_K[key];
    double rr[3];
    for (int a = 0; a < m; a++) rr[a] = -cd[cols[a]];
    for (int k = 0; k < 3; k++)
      for (int a = 0; a < m; a++) s->run.qd[k] += K[k][a] * rr[a];
    for (int a = 0; a < m; a++)
      if (cols[a] % 2 == 0) s->run.qd[cols[a] / 2] = 0;
  }
  rates_of(r, s->run.qd, cd);
  return true;
}

/* ---------- the cycle's steps ---------- */

static bool append2(char *buf, size_t *len, char a, char b) {
  const char token[2] = {a, b};
  return sim_cycle_append(buf, len, token, 2);
}

static void take_tie(kernel_run *r, bool counts) {
  sim_cycle_take_tie(&r->k, &r->s->run.tie, SIM_TIE_NONE, counts);
}

static unsigned mode_code(const zeno_sim *s) {
  return s->run.sol.mode.letter[0] + 4u * s->run.sol.mode.letter[1];
}

// Appends a token of two letters: to a run's word (and its step
// signature, sim_word_append), or to the cycle's.
static bool token(kernel_run *r, char a, char b) {
  if (r->run) return sim_word_append2(r->s, a, b) == ZENO_OK;
  return append2(r->k.out->word, &r->k.word_len, a, b);
}

static bool mode_token(kernel_run *r, unsigned code) {
  const char *letters = r->kd->mode_letters[code];
  return token(r, letters[0], letters[1]);
}

// The kernel's choice of a class from the table's choice ch: the state
// (sim_kernel_data.class_state) and the picked mode's code.
static unsigned char class_choice(kernel_run *r, const sim_choice *ch, unsigned *code) {
  if (ch->count == 0) return 2;  // inconsistent: the event loop reports it
  int pick = 0;
  if (ch->count > 1) {
    if (r->s->scene.ambiguity == ZENO_AMBIGUITY_PREFER_MOTION) pick = ch->count - 1;
    else if (r->s->scene.ambiguity != ZENO_AMBIGUITY_PREFER_STATIC) return 2;
  }
  *code = ch->code[pick];
  return mode_data(r, *code) ? 1 : 3;
}

// sim_choose_next() from the table's choice of the class (worked out and
// remembered when first met, then kept as the kernel's; tolerances of the
// speed scale vscale): the mode in force becomes the pick, *rest tells
// whether it is the rest (v_after: the contact speed after the event).
static kstep choose(kernel_run *r, const mode_class *cls, double vscale, double v_after,
                    bool *rest) {
  zeno_sim *s = r->s;
  sim_kernel_data *kd = r->kd;
  // The kernel's classes set neither lifting nor leaving_stick.
  const unsigned index = cls->gap[0] + 3u * cls->slip[0] + 9u * cls->gap[1] + 27u * cls->slip[1];
  unsigned char state = kd->class_state[index];
  unsigned code = kd->class_code[index];
  double margin = kd->class_margin[index];
  if (state == 0) {
    const sim_choice *ch = sim_table_find(&s->table, sim_table_class_code(cls));
    if (ch != NULL) {  // remembered from now on
      state = kd->class_state[index] = class_choice(r, ch, &code);
      kd->class_code[index] = (unsigned char)code;
      margin = kd->class_margin[index] = ch->margin;
    } else {  // a full table: worked out each time
      sim_choice made;
      const tolerances tol = sim_make_tol(s, vscale);
      sim_class_choice(s, cls, &tol, &made);
      state = class_choice(r, &made, &code);
      margin = made.margin;
    }
  }
  if (state == 2) return K_BACK;
  if (state == 3) return K_BACK;
  sim_note_tie(s, margin);
  s->run.sol.mode.letter[0] = (unsigned char)(code % 4);
  s->run.sol.mode.letter[1] = (unsigned char)(code / 4);
  *rest = kd->mode_rest[code] && v_after == 0;
  return K_ON;
}

// What a run's impact adds to the simulator's record, as resolve_impact()
// and sim_event_finish() of sim.c note it: the section crossing, the
// count, the energy gained (kinetic: before the impact) and the Zeno
// record (the contacts touched).
static void run_impact(kernel_run *r, double speed, unsigned touched, double kinetic, bool section,
                       double angle) {
  zeno_sim *s = r->s;
  if (section) {
    if (s->run.section_count < ZENO_SUMMARY_SECTIONS) s->run.sections[s->run.section_count] = angle;
    s->run.section_count++;
  }
  s->run.impact_count++;
  sim_note_energy_gain(s, kinetic, kinetic_of(r, s->run.qd));
  sim_zeno_record_impact(s, speed, touched);
}

// The impact at the current state (cd its contact rates): resolved and
// applied; *cls becomes the post-impact classes.
static kstep impact(kernel_run *r, mode_class *cls, const bool gap_hit[2], double cd[4],
                    double tol_v, unsigned *mask, unsigned char letter[2]) {
  zeno_sim *s = r->s;
  bool touching[2], impacting[2];
  for (int i = 0; i < 2; i++) {
    touching[i] = cls->gap[i] != MODE_GAP_OPEN || gap_hit[i];
    impacting[i] = cls->gap[i] == MODE_GAP_IMPACTING;
  }
  if (!sim_kernel_resolve(s, touching, impacting, cd, tol_v, mask, letter)) return K_BACK;
  rates_of(r, s->run.qd, cd);
  if (!classify(r, cd, touching, tol_v, cls)) return K_BACK;
  for (int i = 0; i < 2; i++)
    if (cls->gap[i] == MODE_GAP_IMPACTING) cls->gap[i] = MODE_GAP_CLOSED;
  return enforce(r, cls, cd) ? K_ON : K_BACK;
}

// crossing() of sim_cycle.c, or handle_crossing() of sim.c in a run.
static kstep crossing(kernel_run *r, const sim_hits *hits, double cd[4], double vscale) {
  zeno_sim *s = r->s;
  if (++r->k.events > r->max_crossings) return K_BACK;
  const bool *gap_hit = hits->gap;
  const double tol_v = s->def.velocity_rtol * vscale;
  const unsigned before = mode_code(s);
  bool touching[2];
  for (int i = 0; i < 2; i++)
    touching[i] = s->run.sol.mode.letter[i] != ZENO_LETTER_F || gap_hit[i];
  mode_class cls;
  if (!classify(r, cd, touching, tol_v, &cls)) return K_BACK;
  unsigned touched = 0;
  for (int i = 0; i < 2; i++) {
    if (hits->slip[i]) cls.slip[i] = MODE_SLIP_ZERO;
    if (s->run.sol.mode.letter[i] != ZENO_LETTER_F) cls.gap[i] = MODE_GAP_CLOSED;
    if (cls.gap[i] != MODE_GAP_OPEN) s->run.q[i] = 0;
    if (cls.gap[i] != MODE_GAP_OPEN || gap_hit[i]) touched |= 1u << i;
  }
  const double rate_before = s->run.qd[1];
  sim_note_grazing(s, gap_hit, cd, vscale);
  bool impacted = false, section = false;
  double angle = 0, speed = 0;
  unsigned mask = 0;
  unsigned char letter[2] = {0, 0};
  if (gap_hit[0] || gap_hit[1]) {
    for (int i = 0; i < 2; i++)
      if (cls.gap[i] == MODE_GAP_IMPACTING && -cd[2 * i] > speed) speed = -cd[2 * i];
    impacted = speed > 0;
    if (impacted) {
      // On the section; a cycle reads only the return's angle.
      section = cls.gap[0] == MODE_GAP_CLOSED && cls.gap[1] == MODE_GAP_IMPACTING;
      if (section && (r->run || r->k.sections == 1)) angle = atan(cd[3] / fabs(cd[2]));
      const double kinetic = r->run ? kinetic_of(r, s->run.qd) : 0;
      if (impact(r, &cls, gap_hit, cd, tol_v, &mask, letter) != K_ON) return K_BACK;
      if (!token(r, mask & 1u ? 'I' : 'F', mask & 2u ? 'I' : 'F')) return K_BACK;
      if (r->k.impacts++ == 0) r->k.first_speed = speed;
      if (r->run) run_impact(r, speed, touched, kinetic, section, angle);
    }
  }
  if (!impacted && !enforce(r, &cls, cd)) return K_BACK;
  if (!impacted && r->run) s->zeno.quiet_t = s->run.t;  // as sim_event_finish() notes it
  sim_note_small_speeds(s, &cls, gap_hit, cd, tol_v, vscale);
  const double v_after = speed_of(cd);
  s->run.vscale = v_after > tol_v ? v_after : tol_v;
  bool rest = false;
  if (choose(r, &cls, vscale, v_after, &rest) != K_ON) return K_BACK;
  const unsigned code = mode_code(s);
  if (section && !r->run && ++r->k.sections == 2) {
    take_tie(r, false);
    sim_cycle_return(&r->k, s, angle, rate_before);
    return K_DONE;
  }
  if ((code != before || impacted) && !mode_token(r, code)) return K_BACK;
  bool to_loop = false;
  if (impacted && !rest) {
    if (r->run) {
      // The event loop's detection: the completion of a Zeno sequence (the
      // ZENO event) and a diverging run's end are the loop's next event.
      sim_zeno_detect(s);
      to_loop = s->run.zeno_pending || s->run.end_pending || s->zeno.forward_pending;
    } else if (!sim_zeno_quiet(s, r->k.impacts, speed, r->k.first_speed)) {
      return K_BACK;
    }
  }
  if (impacted && !r->run &&
      !append2(r->k.out->outcomes, &r->k.outcomes_len, zeno_letter_name((zeno_letter)letter[0]),
               zeno_letter_name((zeno_letter)letter[1])))
    return K_BACK;
  take_tie(r, true);
  if (rest) {
    r->k.out->end = ZENO_OUTCOME_REST;
    return K_DONE;
  }
  return to_loop ? K_LOOP : K_ON;
}

// flow() of sim_cycle.c: the segment to its first guard crossing.
static kstep flow(kernel_run *r) {
  zeno_sim *s = r->s;
  const unsigned code = mode_code(s);
  const double *qddp = r->kd->mode_qddp[code], *cdd = r->kd->mode_cdd[code];
  double c[4], cd[4];
  contacts_of(r, c, cd);
  flow_crossing cr[FLOW_MAX_CROSSINGS];
  const int n = flow_crossings_inv(2, s->run.sol.mode, c, cd, cdd, r->kd->mode_inv[code],
                                   s->scene.escape_radius, cr);
  const double tau_end = s->scene.t_end - s->run.t;
  if (sim_cycle_segment_end(&r->k, s, cr, n, c, cd, cdd)) {
    if (r->run) {
      // The END event of a run: the state at the time limit (emit_time_limit()
      // of sim.c), at the escape, or where a terminal mode begins (its escape
      // beyond the time limit).
      const bool limit = r->k.out->end == ZENO_OUTCOME_TIME_LIMIT;
      const double tau = limit ? (tau_end > 0 ? tau_end : 0) : cr[0].tau < tau_end ? cr[0].tau : 0;
      flow_advance(s->run.q, s->run.qd, qddp, tau, s->run.q, s->run.qd);
      s->run.t = limit ? s->scene.t_end : s->run.t + tau;
    }
    return K_DONE;
  }
  const double tau = cr[0].tau, vstart = speed_of(cd);
  flow_advance(s->run.q, s->run.qd, qddp, tau, s->run.q, s->run.qd);
  s->run.t += tau;
  double cd1[4];
  rates_of(r, s->run.qd, cd1);
  // fmax() of values that are never NaN (speeds, a time): comparisons
  // instead of its calls.
  const double v1 = speed_of(cd1), vt = s->km.accel_scale * tau;
  const double vmax = vstart > v1 ? vstart : v1, vscale = vmax > vt ? vmax : vt;
  const sim_hits hits = sim_crossing_hits(s, cr, n);
  sim_note_crossing_ties(s, cr, n, c, cd, cdd);
  return crossing(r, &hits, cd1, vscale);
}

// start() of sim_cycle.c: q' = 0, so both gaps touch.
static kstep start(kernel_run *r) {
  zeno_sim *s = r->s;
  double cd[4];
  rates_of(r, s->run.qd, cd);
  s->run.vscale = r->start_speed = speed_of(cd);
  if (!(s->run.vscale > 0)) return K_BACK;
  const bool touching[2] = {true, true};
  mode_class cls;
  if (!classify(r, cd, touching, s->def.velocity_rtol * s->run.vscale, &cls)) return K_BACK;
  static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
  bool impacting = false;
  for (int i = 0; i < 2; i++) {
    impacting = impacting || cls.gap[i] == MODE_GAP_IMPACTING;
    s->run.sol.mode.letter[i] = cls.gap[i] == MODE_GAP_CLOSED ? by_slip[cls.slip[i]]
                                                              : ZENO_LETTER_F;
  }
  if (!impacting) return K_BACK;
  sim_hits hits = {0};
  for (int i = 0; i < 2; i++)
    hits.gap[i] = s->run.sol.mode.letter[i] == ZENO_LETTER_F && cd[2 * i] < 0;
  return crossing(r, &hits, cd, s->run.vscale);
}

// emit_start() and emit_start_impact() of sim.c for a run from anywhere:
// on an impact as start() (the START event's pseudo-mode named first), or
// with the mode the start's class chooses. A start at rest or beyond the
// escape radius goes to the event loop.
static kstep run_start(kernel_run *r) {
  zeno_sim *s = r->s;
  double c[4], cd[4];
  contacts_of(r, c, cd);
  s->run.vscale = speed_of(cd);
  if (!(s->run.vscale > 0)) return K_BACK;
  const double tol_v = s->def.velocity_rtol * s->run.vscale;
  const double gap_tol = sim_start_gap_tol(s), radius = s->scene.escape_radius;
  for (int a = 0; a < 4; a++)
    if (!(fabs(c[a]) < radius)) return K_BACK;
  bool touching[2];
  for (int i = 0; i < 2; i++) touching[i] = fabs(c[2 * i]) <= gap_tol;
  mode_class cls;
  if (!classify(r, cd, touching, tol_v, &cls)) return K_BACK;
  memset(&s->run.sol, 0, sizeof s->run.sol);
  if (cls.gap[0] == MODE_GAP_IMPACTING || cls.gap[1] == MODE_GAP_IMPACTING) {
    static const unsigned char by_slip[3] = {ZENO_LETTER_S, ZENO_LETTER_P, ZENO_LETTER_N};
    for (int i = 0; i < 2; i++) {
      s->run.sol.mode.letter[i] = cls.gap[i] == MODE_GAP_CLOSED ? by_slip[cls.slip[i]]
                                                                : ZENO_LETTER_F;
      if (cls.gap[i] != MODE_GAP_OPEN) s->run.q[i] = c[2 * i] = 0;
    }
    if (!mode_token(r, mode_code(s))) return K_BACK;
    take_tie(r, true);  // the START event
    sim_hits hits = {0};
    for (int i = 0; i < 2; i++)
      hits.gap[i] = s->run.sol.mode.letter[i] == ZENO_LETTER_F && fabs(c[2 * i]) <= gap_tol &&
                    cd[2 * i] < 0;
    return crossing(r, &hits, cd, s->run.vscale);
  }
  if (!enforce(r, &cls, cd)) return K_BACK;
  bool rest = false;
  if (choose(r, &cls, s->run.vscale, speed_of(cd), &rest) != K_ON) return K_BACK;
  if (!mode_token(r, mode_code(s))) return K_BACK;
  take_tie(r, true);  // the START event
  if (rest) r->k.out->end = ZENO_OUTCOME_REST;
  return rest ? K_DONE : K_ON;
}

bool sim_kernel_serves(const zeno_sim *s) {
  return s != NULL && sim_has_table(s) && s->km.n == 2 && s->scene.wall_time <= 0 &&
         s->table.kernel != NULL;
}

// The kernel runs the simulator's cycles and runs (sim_kernel_serves), its
// constants made first.
static bool kernel_applies(zeno_sim *s) {
  if (!sim_kernel_serves(s)) return false;
  sim_kernel_data *kd = s->table.kernel;
  if (!kd->made) make_constants(s, kd);
  return true;
}

// The run's fields but its track (set by the caller), each set on its own:
// the compiler made zeroing the whole struct first a `rep stos`, slow to
// start for a run of a few events.
static void kernel_run_init(kernel_run *r, zeno_sim *s, bool run) {
  r->s = s;
  r->kd = s->table.kernel;
  for (int j = 0; j < 3; j++) r->k1[j] = s->km.Cp[j][1];
  r->tol_accel = s->def.force_rtol * s->km.accel_scale;
  r->run = run;
  // The event limit ends a run after the event that reaches it: the event
  // loop's.
  r->max_crossings = run ? s->scene.max_events - 2 : SIM_CYCLE_MAX_EVENTS;
  r->start_speed = 0;
}

bool sim_kernel_runs(const zeno_sim *s) {
  return s != NULL && sim_has_table(s) && s->km.n == 2 && s->scene.wall_time <= 0 &&
         !s->def.keep_history && s->scene.max_events >= 2 &&
         zeno_impact_law_info_of(s->scene.impact_law).complementarity;
}

sim_kernel_end sim_kernel_run(zeno_sim *s) {
  if (!sim_kernel_runs(s) || s->run.finished || !kernel_applies(s) ||
      (s->run.started && (s->run.start_impact || s->run.end_pending || s->run.zeno_pending ||
                          s->zeno.forward_pending)))
    return SIM_KERNEL_LOOP;
  kernel_run r;
  kernel_run_init(&r, s, true);
  // A run reads only the end and the tie margins of the cycle's record.
  sim_cycle out;
  out.end = ZENO_OUTCOME_RUNNING;
  out.tie_margin = SIM_TIE_NONE;
  sim_cycle_track_clear(&r.k, &out);
  kstep st = K_ON;
  if (!s->run.started) st = run_start(&r);
  else if (!mode_data(&r, mode_code(s))) return SIM_KERNEL_LOOP;  // the loop's mode, made here
  else r.k.events = (int)(s->run.event_count - 1);  // the crossings so far (START counts one)
  while (st == K_ON) {
    st = flow(&r);
    if (st == K_ON && r.k.events % SIM_KERNEL_INTERRUPT_EVENTS == 0 &&
        zeno_interrupt_check(&s->def.interrupt, NULL) != ZENO_OK)
      st = K_BACK;  // the event loop asks again, before its first event
  }
  // A decision nearer a tie than the floor may be the loop's otherwise.
  if (st == K_BACK || r.k.all_tie < SIM_KERNEL_RUN_TIE_FLOOR || s->word_failed)
    return SIM_KERNEL_BACK;
  // The mode's solution (its forces: the loop's next event, the summary).
  mode_solution sol;
  if (!mode_solve_cached(&s->dyn, s->run.sol.mode, &s->mode_cache, &sol)) return SIM_KERNEL_BACK;
  s->run.sol = sol;
  s->run.started = true;
  s->run.event_count = r.k.events + 1;
  s->run.tie = SIM_TIE_NONE;
  if (st == K_LOOP) return SIM_KERNEL_LOOP;
  // The END event, and the run's record as the event loop leaves it.
  s->run.end_pending = s->run.finished = true;
  s->run.outcome = s->run.pending_outcome = out.end;
  s->run.pending_guard = out.end == ZENO_OUTCOME_TIME_LIMIT ? ZENO_GUARD_TIME
                         : out.end == ZENO_OUTCOME_ESCAPED  ? ZENO_GUARD_ESCAPE
                                                            : ZENO_GUARD_NONE;
  s->run.event_count++;
  return SIM_KERNEL_DONE;
}

bool sim_kernel_cycle(zeno_sim *s, const double qdp[3], sim_cycle *out) {
  if (!kernel_applies(s)) return false;
  // What the kernel and the shared pieces it calls read of the run; a cycle
  // handed back is restarted in full by the event loop.
  s->run.t = 0;
  memset(s->run.q, 0, sizeof s->run.q);
  memcpy(s->run.qd, qdp, sizeof s->run.qd);
  s->run.tie = SIM_TIE_NONE;
  kernel_run r;
  kernel_run_init(&r, s, false);
  sim_cycle_track_init(&r.k, out);
  kstep st = start(&r);
  while (st == K_ON) st = flow(&r);
  return sim_cycle_finish(&r.k, s, st == K_DONE);
}
