// Simulation check of a certificate (certify_check.h).
#include "certify/certify_check.h"

#include "base/util.h"
#include "certify/certify_piece.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "zeno/sim.h"

/// Events simulated per run at most.
#define CERT_CHECK_MAX_EVENTS 2000

static void state_of(const zeno_state *st, double s[6]) {
  for (int k = 0; k < 3; k++) {
    s[k] = st->zod[k];
    s[3 + k] = st->zod_rate[k];
  }
}

// The size of V's terms at s: what rounding is relative to.
static double scale_of(const cert_system *sys, const cert_program_outcome *o, const double s[6]) {
  double t = fabs(o->c * s[2]);
  for (int k = 0; k < 3; k++) t += fabs(sys->b[k] * s[k]);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) t += fabs(sys->Mp[r][k] * s[3 + r] * s[3 + k]);
  return t;
}

static double uniform(unsigned *seed, double lo, double hi) {
  *seed = *seed * 1664525u + 1013904223u;
  return lo + (hi - lo) * (double)(*seed >> 8) / (double)(1u << 24);
}

static void compare(const cert_system *sys, const cert_program_outcome *o, const zeno_state *a,
                    const zeno_state *b, int run, long index, cert_check_result *out) {
  double sa[6], sb[6];
  state_of(a, sa);
  state_of(b, sb);
  const double scale = fmax(scale_of(sys, o, sa), scale_of(sys, o, sb));
  if (!(scale > 0)) return;
  const double d1 = (cert_program_v1(sys, sb) - cert_program_v1(sys, sa)) / scale;
  double d = fmax(d1, (cert_program_v2(o, sb) - cert_program_v2(o, sa)) / scale);
  if (o->minus)  // a level floor's second slip function, V2-
    d = fmax(d, (cert_program_v2(o->minus, sb) - cert_program_v2(o->minus, sa)) / scale);
  if (d > out->max_increase) {
    out->max_increase = d;
    out->worst_run = run;
    out->worst_event = index;
  }
  out->events++;
}

zeno_status cert_check_check(const zeno_scene *own, const cert_system *sys,
                             const cert_program_outcome *o, int n, double size, unsigned seed,
                             bool skip_first_flight, const zeno_interrupt *interrupt,
                             cert_check_result *out, zeno_error *e) {
  memset(out, 0, sizeof *out);
  out->worst_run = -1;
  out->max_increase = -INFINITY;
  zeno_sim_def def = zeno_sim_def_default();
  if (interrupt) def.interrupt = *interrupt;  // asked before each event
  zeno_sim *sim = zeno_sim_create(own, &def, e);
  if (!sim) return e ? e->code : ZENO_ERR_ARGUMENT;
  zeno_status st = ZENO_OK;
  const bool newton = cert_flights(sys);
  // Pieces of the modes whose decrease the certificate asks over the piece
  // (certify_piece.h): V2 may grow inside one; Theorem 2 asks its value
  // after the event that ends the piece to be below the piece's start.
  bool piece_mode[CERT_MAX_MODES] = {false};
  // A chain's slip (certify_piece.h): the index of the mode its stop leads
  // to, whose piece's end is compared with the slip's start.
  int stop_next[CERT_MAX_MODES];
  for (int m = 0; m < CERT_MAX_MODES; m++) stop_next[m] = -1;
  // A piece asked through its impact into mode n (cert_piece_through_mode):
  // through[m][n]; n's piece's end is compared with m's piece's start.
  bool through[CERT_MAX_MODES][CERT_MAX_MODES] = {{false}};
  if (o->pieces || (o->minus && o->minus->pieces)) {
    cert_system *ps = malloc(sizeof *ps);
    if (!ps) {
      zeno_sim_destroy(sim);
      return zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory");
    }
    *ps = *sys;
    ps->pieces = true;
    ps->chains = o->chains || (o->minus && o->minus->chains);
    ps->through = o->through || (o->minus && o->minus->through);
    for (int m = 0; m < ps->nmodes; m++) {
      piece_mode[m] = cert_piece_mode(ps, &ps->modes[m]);
      const cert_mode *next = cert_piece_stop_mode(ps, &ps->modes[m]);
      if (next) stop_next[m] = (int)(next - ps->modes);
      for (int k = 0; k < ps->ncases; k++) {
        const cert_mode *nx = cert_piece_through_mode(ps, &ps->modes[m], &ps->cases[k]);
        if (nx) through[m][nx - ps->modes] = true;
      }
    }
    free(ps);
  }
  for (int run = 0; run < n && st == ZENO_OK; run++) {
    const double qp[3] = {uniform(&seed, 0, size), uniform(&seed, 0, size),
                          uniform(&seed, -size, size)};
    const double qdp[3] = {uniform(&seed, -size, size), uniform(&seed, -size, size),
                           uniform(&seed, -size, size)};
    st = zeno_sim_restart(sim, qp, qdp, e);
    zeno_event ev, prev;
    zeno_state start;  // a chain's start, carried over its stop or impact
    memset(&prev, 0, sizeof prev);
    memset(&start, 0, sizeof start);
    bool have = false, impacted = !skip_first_flight, carrying = false;
    for (int k = 0; st == ZENO_OK && k < CERT_CHECK_MAX_EVENTS; k++) {
      st = zeno_sim_next_event(sim, &ev, e);
      if (st != ZENO_OK) break;
      // Under Newton's law V2 may grow in a free flight: Theorem 2 asks
      // its value after the impact that ends the flight to be below the one
      // at the flight's start (certify_flight.h): one step. A Zeno
      // completion's jump is the simulator's limit, which drops the bounce
      // velocities below its zero tolerance (relative 1e-9 of a persisting
      // slip's speed) without their friction impulses, not an impact of the
      // law: not compared (nor a flight that the run's end or a completion
      // cuts short).
      const bool flight = newton && have && prev.mode_after.letter[0] == ZENO_LETTER_F &&
                          prev.mode_after.letter[1] == ZENO_LETTER_F;
      int pm = -1;
      for (int m = 0; have && m < sys->nmodes; m++)
        if (piece_mode[m] && sys->modes[m].mode.letter[0] == prev.mode_after.letter[0] &&
            sys->modes[m].mode.letter[1] == prev.mode_after.letter[1])
          pm = m;
      const bool piece = pm >= 0;
      // A chain's slip stopping into its next mode: V2 may grow at the
      // stop; the next piece's end is compared with the slip's start too.
      const int nx = piece ? stop_next[pm] : -1;
      const bool stop = nx >= 0 && ev.kind == ZENO_EVENT_TRANSITION &&
                        ev.mode_after.letter[0] == sys->modes[nx].mode.letter[0] &&
                        ev.mode_after.letter[1] == sys->modes[nx].mode.letter[1];
      bool across = false;  // an impact that a piece is asked through
      for (int m = 0; piece && ev.kind == ZENO_EVENT_IMPACT && m < sys->nmodes; m++)
        across = across ||
                 (through[pm][m] && ev.mode_after.letter[0] == sys->modes[m].mode.letter[0] &&
                  ev.mode_after.letter[1] == sys->modes[m].mode.letter[1]);
      if (piece && impacted) {
        // A chain (a slip through its stop, a piece through its impact)
        // ends with the next piece: its start against that piece's end.
        if (carrying && ev.kind != ZENO_EVENT_END)
          compare(sys, o, &start, &ev.after, run, ev.index, out);
        carrying = stop || across;  // V2 may grow here; a chain starts
        if (carrying) start = prev.after;
        else if (ev.kind != ZENO_EVENT_END)
          compare(sys, o, &prev.after, &ev.after, run, ev.index, out);
      } else if (newton && (ev.kind == ZENO_EVENT_ZENO || (flight && ev.kind == ZENO_EVENT_END))) {
        if (have && !flight) compare(sys, o, &prev.after, &ev.before, run, ev.index, out);
      } else if (flight) {
        compare(sys, o, &prev.after, &ev.after, run, ev.index, out);
      } else {
        if (have && impacted) compare(sys, o, &prev.after, &ev.before, run, ev.index, out);
        if (ev.kind == ZENO_EVENT_IMPACT || ev.kind == ZENO_EVENT_ZENO) {
          if (impacted) compare(sys, o, &ev.before, &ev.after, run, ev.index, out);
          impacted = true;
        }
      }
      if (!piece) carrying = false;
      if (ev.kind == ZENO_EVENT_END) break;
      prev = ev;
      have = true;
    }
    out->runs++;
  }
  zeno_sim_destroy(sim);
  if (out->events == 0) out->max_increase = 0;
  return st;
}
