// Sequences of impacts as a Zeno detection reads them, for any number of
// contacts: the records of the impacts (or of completed sequences), their
// periodic steps and constant ratios, and the geometric extrapolation of
// their accumulation point. Shared by the two-contact loop's Zeno
// completion (sim/sim_zeno*.c) and the N-contact engine's (simn/). The
// state in a record is the engine's own (q' and its rate). Not public API.
#ifndef ZENO_DYNAMICS_IMPACT_SERIES_H
#define ZENO_DYNAMICS_IMPACT_SERIES_H

#include <stdbool.h>
#include <stdint.h>

/// The default tests of a Zeno detection (zeno_sim_def's and the N-contact
/// engine's). ZOD period ratios are exact up to rounding (~1e-13 after a
/// few periods); 1e-7 separates them from transient ratios.
#define SERIES_RATIO_RTOL 1e-7
/// The full model's period ratios converge as the chatter shrinks
/// (corrections of the order of the amplitude, Example 3 at eps = 1e-3: 2e-4
/// at first, 1e-6 after 20 periods), while the integrator's relative
/// accuracy on the shrinking gaps degrades like 1/r per period. Agreement
/// to this is reached well inside the accurate regime; the ZENO event
/// reports the resulting extrapolation error.
#define SERIES_FULL_RATIO_RTOL 1e-5
/// Growth ratios of reverse chatter agreeing to 1 % over four periods are
/// unmistakable; the full model's drift from nonlinearity is of the
/// amplitude's order.
#define SERIES_DIVERGE_RTOL 1e-2
/// Periods that must repeat beyond the first for a ratio to count.
#define SERIES_RATIO_PERIODS 3
/// Longest period searched, in impacts.
#define SERIES_MAX_PERIOD 8
/// Impacts a loop remembers for Zeno detection: ratio_periods + 2 periods
/// of the longest period searched, with room to spare (the simulator's
/// settings are checked against it).
#define SERIES_RING 256
/// The seed of a step's signature, the hash of the mode word's tokens since
/// the previous impact (any fixed value serves: signatures are compared,
/// never decoded).
#define SERIES_SIGNATURE_SEED 1469598103934665603ull
/// The 64-bit FNV-1a prime.
#define SERIES_FNV_PRIME 1099511628211ull

typedef struct impact_record {
  double t;
  uint64_t signature;  ///< hash of the modes and impact since the previous impact
  double speed;        ///< largest approach speed of the impacting contacts
  double q[3], qd[3];  ///< state just after the impact
  unsigned touched;    ///< contacts touching at the impact
  long impacts;        ///< a chain's record: impacts of the completed sequence
} impact_record;

/// The records a detection reads, newest last: the impacts of the current
/// sequence, or the completions of the current chain.
typedef struct rview {
  const impact_record *r;
  int len;
} rview;

static inline const impact_record *at(rview v, int back) { return &v.r[v.len - 1 - back]; }

/// A signature with one more token of the mode word (the token's bytes and
/// a blank, FNV-1a).
static inline uint64_t series_signature_add(uint64_t h, const char *token, int n) {
  for (int k = 0; k < n; k++) {
    h ^= (unsigned char)token[k];
    h *= SERIES_FNV_PRIME;
  }
  h ^= (unsigned char)' ';
  return h * SERIES_FNV_PRIME;
}

/// True when a and b agree to relative tolerance rtol.
bool series_close_rel(double a, double b, double rtol);
/// True when the last K periods of length p of v keep one ratio r0 of
/// durations and of speeds, to relative tolerance rtol (r < 1: a
/// converging Zeno sequence; r > 1: reverse chatter).
bool series_constant_ratio(rview v, int p, int K, double rtol, double *r0);
/// True when the last K periods of length p of v repeat the same steps
/// (signatures).
bool series_periodic(rview v, int p, int K);
/// True when the contact velocities va and vb (m rates each) point the same
/// way to rtol: each divided by its largest rate, no component apart by
/// more (a fixed point of the return map reached, reverse chatter's test).
/// False when either is zero.
bool series_same_direction(const double *va, const double *vb, int m, double rtol);
/// The state at the phase of the newest record, sums g and g2 of the
/// series of ratios r and r^2 later (g = r / (1 - r), g2 = r^2 / (1 - r^2)
/// at the limit): velocities and times are geometric series of ratio r;
/// positions add v tau + a tau^2 / 2, a sum of two series of ratios r and
/// r^2, fitted through the last three periods.
void series_geometric_advance(rview v, int p, double r, double g, double g2, double *t, double q[3],
                              double qd[3]);

#endif
