// Sequences of impacts (impact_series.h): periodic steps, constant ratios,
// the geometric extrapolation of their accumulation point, and the
// arithmetic both engines' further Zeno rules share (a chain's gap rule
// and signature, reverse chatter's growth, a floor's tail, the
// fast-forward).
#include "dynamics/impact_series.h"

#include <math.h>
#include <string.h>

bool series_close_rel(double a, double b, double rtol) {
  return fabs(a - b) <= rtol * fmax(fabs(a), fabs(b));
}

// True when the last K periods of length p of v keep one ratio r0 of
// durations and of speeds, to relative tolerance rtol (r < 1: a converging
// Zeno sequence; r > 1: reverse chatter).
bool series_constant_ratio(rview v, int p, int K, double rtol, double *r0) {
  for (int k = 0; k + 1 < K; k++) {
    const double Tk = at(v, k * p)->t - at(v, (k + 1) * p)->t;
    const double Tk1 = at(v, (k + 1) * p)->t - at(v, (k + 2) * p)->t;
    if (!(Tk > 0 && Tk1 > 0)) return false;
    const double rk = Tk / Tk1;
    const double rv = at(v, k * p)->speed / at(v, (k + 1) * p)->speed;
    if (k == 0) *r0 = rk;
    if (!series_close_rel(rk, *r0, rtol) || !series_close_rel(rv, *r0, rtol)) return false;
  }
  return true;
}

// True when the last K periods of length p of v repeat the same steps
// (signatures).
bool series_periodic(rview v, int p, int K) {
  for (int j = 0; j + p <= K * p; j++)
    if (at(v, j)->signature != at(v, j + p)->signature) return false;
  return true;
}

// Geometric extrapolation of the accumulation point from the states at the
// same phase of the last three periods. Velocities and times of a ZOD
// sequence are exact geometric series of ratio r; positions add the
// increments v tau + a tau^2 / 2, a sum of two series of ratios r and r^2.
// The state at the phase of the newest record, sums g and g2 of the
// series of ratios r and r^2 later: g = r / (1 - r), g2 = r^2 / (1 - r^2)
// at the limit; r (1 - r^n) / (1 - r) and r^2 (1 - r^2n) / (1 - r^2) n
// periods on.
void series_geometric_advance(rview v, int p, double r, double g, double g2, double *t, double q[3],
                              double qd[3]) {
  const impact_record *a = at(v, 0), *b = at(v, p), *c = at(v, 2 * p);
  *t = a->t + (a->t - b->t) * g;
  for (int k = 0; k < 3; k++) {
    qd[k] = a->qd[k] + (a->qd[k] - b->qd[k]) * g;
    const double e0 = a->q[k] - b->q[k], e1 = b->q[k] - c->q[k];
    const double lin = (e1 * r * r - e0) / (r - 1);
    const double quad = e0 - lin;
    q[k] = a->q[k] + lin * g + quad * g2;
  }
}

bool series_same_direction(const double *va, const double *vb, int m, double rtol) {
  double na = 0, nb = 0;
  for (int a = 0; a < m; a++) {
    na = fmax(na, fabs(va[a]));
    nb = fmax(nb, fabs(vb[a]));
  }
  if (!(na > 0 && nb > 0)) return false;
  double diff = 0;
  for (int a = 0; a < m; a++) diff = fmax(diff, fabs(va[a] / na - vb[a] / nb));
  return diff <= rtol;
}

impact_record *series_ring_next(impact_record *ring, int *len, int cap) {
  if (*len == cap) {
    memmove(ring, ring + 1, (size_t)(cap - 1) * sizeof *ring);
    (*len)--;
  }
  return &ring[(*len)++];
}

// A chain goes on while each sequence starts within a few times the
// duration of the chain's last cycles after its completion: in a shrinking
// chain the wait is a part of the next, shorter, cycle; a new motion (a
// drop after a long slip) starts a new chain. Measured against the last
// cycle alone, a rocking body's chain (a short chatter, then a long swing
// to the other contact's: period two) started anew at every swing, and a
// chain shrinking to rest ran into the event limit.
bool series_chain_goes_on(double t, double tz, double t_ref) {
  return t - tz <= SERIES_CHAIN_GAP_FACTOR * (tz - t_ref);
}

uint64_t series_sequence_signature(uint64_t first, uint64_t last, int period, unsigned contacts) {
  uint64_t h = first;
  const uint64_t parts[3] = {last, (uint64_t)period, (uint64_t)contacts};
  for (int k = 0; k < 3; k++) h = (h ^ parts[k]) * SERIES_FNV_PRIME;
  return h;
}

void series_geometric_limit(rview v, int p, double r, double *t, double q[3], double qd[3],
                            double *t_err, double dqd[3]) {
  const impact_record *b = at(v, p), *c = at(v, 2 * p);
  const double g = r / (1 - r), g2 = r * r / (1 - r * r);
  series_geometric_advance(v, p, r, g, g2, t, q, qd);
  const double t_prev = b->t + (b->t - c->t) * g;
  *t_err = fabs(*t - t_prev);
  for (int k = 0; k < 3; k++) dqd[k] = b->qd[k] + (b->qd[k] - c->qd[k]) * g - qd[k];
}

bool series_outgrowing(rview v, int p, int K, double grow) {
  for (int k = 0; k + 1 < K; k++) {
    const impact_record *a = at(v, k * p), *b = at(v, (k + 1) * p), *c = at(v, (k + 2) * p);
    if (!(a->t - b->t > grow * (b->t - c->t) && a->speed > grow * b->speed)) return false;
  }
  return true;
}

bool series_floor_tail(rview v, int max_period, int *p, double *r) {
  for (int k = 1; k <= max_period && v.len >= 2 * k + 1; k++) {
    if (!series_periodic(v, k, 1)) continue;
    if (!series_constant_ratio(v, k, 2, SERIES_FLOOR_TAIL_RTOL, r) || !(*r < 1)) return false;
    *p = k;
    return true;
  }
  return false;
}

// The periods repeat exactly, each r times the last, so the state n
// periods on is the geometric sum of n of them: the periods n with
// a->t + T0 r (1 - r^n) / (1 - r) <= t_end.
bool series_forward(rview v, int p, double r, double t_now, double t_end, double *t, double q[3],
                    double qd[3]) {
  const impact_record *a = at(v, 0), *b = at(v, p);
  const double T0 = a->t - b->t;
  const double x = 1 - (t_end - a->t) / T0 * (1 - r) / r;
  if (!(T0 > 0 && x > 0 && x < 1)) return false;
  const double n = floor(log(x) / log(r)) - SERIES_FORWARD_MARGIN_PERIODS;
  if (!(n >= SERIES_FORWARD_MIN_PERIODS)) return false;
  const double rn = pow(r, n);
  series_geometric_advance(v, p, r, r * (1 - rn) / (1 - r), r * r * (1 - rn * rn) / (1 - r * r), t,
                           q, qd);
  return *t > t_now && *t < t_end;
}

// Full model: a sequence completed at a floor cut its chatter short; its
// bounces left would have taken the geometric tail of its last flight,
// T r / (1 - r), r the ratio of its last two impact speeds. Noted for the
// next sequence's first impact (sim_zeno.c's note_interruption, and
// simn_zeno.c's).
void series_note_cut(series_zeno *z, rview seq, bool full) {
  z->cut_contacts = 0;
  if (!full || z->pending_period != 0 || seq.len < 2) return;
  const impact_record *last = at(seq, 0), *prev = at(seq, 1);
  const double r = last->speed / prev->speed;
  if (!(r < 1)) return;
  z->cut_end_t = last->t + (last->t - prev->t) * r / (1 - r);
  z->cut_contacts = z->pending_contacts;
}

void series_chain_record(series_zeno *z, impact_record *chain, rview seq, bool full, double t,
                         const double q[3], const double qd[3]) {
  if (z->chain_len == 0) {
    z->chain_first_speed = z->seq_first_speed;
    z->chain_first_t = z->seq_first_t;
    z->chain_lead_t = z->seq_lead_t;
    z->chain_impacts = 0;
    z->chain_touched = 0;
  }
  impact_record r;
  memset(&r, 0, sizeof r);
  r.t = t;
  r.signature = series_sequence_signature(z->seq_first_signature,
                                          seq.len > 0 ? at(seq, 0)->signature : 0,
                                          z->pending_period, z->pending_contacts);
  r.speed = z->seq_first_speed;
  memcpy(r.q, q, sizeof r.q);
  memcpy(r.qd, qd, sizeof r.qd);
  r.touched = z->seq_touched | z->pending_contacts;
  r.impacts = z->pending_impacts;
  z->chain_impacts += r.impacts;
  z->chain_touched |= r.touched;
  *series_ring_next(chain, &z->chain_len, SERIES_CHAIN) = r;
  series_note_cut(z, seq, full);
}

bool series_grown(const series_zeno *z, rview seq) {
  return at(seq, 0)->speed > SERIES_DIVERGE_GROWTH * z->seq_first_speed;
}

double series_outgrown_ratio(const series_zeno *z, rview seq, int p, int K, double rtol) {
  if (!series_grown(z, seq) || !series_outgrowing(seq, p, K, 1 + rtol)) return 0;
  return at(seq, 0)->speed / at(seq, p)->speed;
}

double series_reverse_ratio(rview v, int p, int K, double rtol, double margin) {
  double r0 = 0;
  return series_constant_ratio(v, p, K, rtol, &r0) && r0 > 1 + margin ? r0 : 0;
}

bool series_chain_converging(rview v, int K, double rtol, int *p, double *r0, long *impacts) {
  for (int q = 1; q <= SERIES_CHAIN_MAX_PERIOD && v.len >= K * q + 1; q++) {
    double r = 0;
    if (!series_periodic(v, q, K) || !series_constant_ratio(v, q, K, rtol, &r)) continue;
    if (!(r < 1 - rtol)) return false;
    long n = 0;
    for (int k = 0; k < q; k++) n += at(v, k)->impacts;
    *p = q;
    *r0 = r;
    *impacts = n;
    return true;
  }
  return false;
}
