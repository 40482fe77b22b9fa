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

/// Completed sequences a loop remembers for second-order detection (a
/// chain of completions): ratio_periods + 2 periods of
/// SERIES_CHAIN_MAX_PERIOD at the default ratio_periods (3), with room to
/// spare.
#define SERIES_CHAIN 32
/// Longest period of a chain searched, in completed sequences.
#define SERIES_CHAIN_MAX_PERIOD 4
/// A sequence starting later than this many times the chain's last cycle
/// after its last completion starts a new chain. Within a shrinking chain
/// the wait is below one cycle; its first cycle is measured from its first
/// impact only, which the wait for the other contact's landing can exceed
/// (Example 2, Newton e = 0.5: 1.3 times).
#define SERIES_CHAIN_GAP_FACTOR 4.0
/// Reverse chatter whose period ratios have settled only to diverge_rtol
/// (the direction converging to its fixed point of R slowly, e.g. 0.5 % a
/// period) is diverging once its impact speed has grown to this many times
/// its first: the flights then outgrow any time limit before the ratios
/// settle to ratio_rtol (a chatter growing 1.81 times a period ended
/// `time-limit` after 21 impacts, at 144 times its first speed, where the
/// full model said `diverging`). The growth keeps out the sequences whose
/// ratios only hover above 1 at the bottom of a decay (five of 20,000
/// restitution cases, 1e-5 to 1e-11 of their first speed, which the full
/// model completes to rest).
#define SERIES_DIVERGE_GROWTH 10.0
/// A sequence stopped at a floor whose last two periods repeat the same
/// steps with ratios of durations and speeds within this of each other is
/// extrapolated over its remaining bounces rather than cut at the last.
#define SERIES_FLOOR_TAIL_RTOL 0.05
/// A sequence (or chain) whose limit lies beyond t_end is fast-forwarded
/// (ZOD) by whole periods to within this many periods of t_end, which are
/// then simulated: the rounding of the geometric sums (a few ulps of the
/// time per period skipped) never carries the run past t_end ...
#define SERIES_FORWARD_MARGIN_PERIODS 1
/// ... when at least this many periods are skipped (fewer cost nothing to
/// simulate).
#define SERIES_FORWARD_MIN_PERIODS 4

typedef struct impact_record {
  double t;
  uint64_t signature;  ///< hash of the modes and impact since the previous impact
  double speed;        ///< largest approach speed of the impacting contacts
  double q[3], qd[3];  ///< state just after the impact
  unsigned touched;    ///< contacts touching at the impact
  long impacts;        ///< a chain's record: impacts of the completed sequence
} impact_record;

/// Zeno detection's state, the same in both engines (sim/sim_zeno*.c,
/// simn/simn_zeno*.c): the current sequence of impacts, the chain of
/// completed sequences, a pending completion, a pending fast-forward and a
/// diverging sequence. The records themselves (the sequence's ring and the
/// chain's) are the engine's. Zeroed as a whole with a run.
typedef struct series_zeno {
  int ring_len;                  ///< records in the current sequence (capped)
  long seq_impacts;              ///< impacts in the current sequence
  double seq_first_speed;        ///< first impact speed of the sequence
  double seq_first_t;            ///< time of the sequence's first impact
  double quiet_t;                ///< time of the last event that was no impact
  double seq_lead_t;             ///< ... before the sequence's first impact
  uint64_t seq_first_signature;  ///< steps from its start to its first impact
  unsigned seq_touched;          ///< contacts touching at any of its impacts

  /* the chain: completed sequences following each other (second order) */
  int chain_len;             ///< completions in the chain (capped at SERIES_CHAIN)
  long chain_impacts;        ///< impacts of its sequences
  double chain_first_speed;  ///< first impact speed of its first sequence
  double chain_first_t;      ///< time of that impact
  double chain_lead_t;       ///< time of the last event before it (seq_lead_t)
  unsigned chain_touched;    ///< contacts touching in any of its sequences
  /// The pending completion closes the chain: every contact it touched.
  bool chain_closing;
  /* full model: the chatter the last floor completion cut, and the chain's
     completions whose cut another contact's landing interrupted */
  double cut_end_t;       ///< when the cut chatter's bounces would have ended
  unsigned cut_contacts;  ///< the contacts that completion closed (0: none to judge)
  int chain_interrupted;  ///< the chain's last completions in a row so interrupted

  /* the pending completion: the accumulation point and its state */
  double pending_t, pending_q[3], pending_qd[3], pending_ratio;
  double pending_err;  ///< two-contact loop: the limit time's error (zeno_event.zeno_error)
  /// Extrapolated: the largest change of a contact rate of the limit
  /// between the predictions from the last two periods.
  double pending_rate_err;
  /// Two-contact loop, completed at a precision floor: its last bounce's
  /// height over its first's, the ZENO event's tie margin (the rest was
  /// below resolution).
  double pending_floor_tie;
  unsigned pending_contacts;  ///< the contacts the completion closes
  int pending_period;         ///< 0: at a precision floor
  int pending_order;          ///< 1: a sequence of impacts; 2: a chain of sequences
  long pending_impacts;
  /* a pending fast-forward (ZOD): whole periods of a sequence or chain
     whose limit lies beyond t_end, skipped to this state */
  bool forward_pending;
  double forward_t, forward_q[3], forward_qd[3];
  /* diverging */
  double div_ratio;  ///< a `diverging` end: the growth per period
  int div_period;
} series_zeno;

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

/// The next record of a ring of capacity cap, the oldest dropped when it
/// is full (filled by the caller).
impact_record *series_ring_next(impact_record *ring, int *len, int cap);

/// Whether a sequence starting at t goes on the chain whose last
/// completion was at tz: within SERIES_CHAIN_GAP_FACTOR times the chain's
/// last cycles, measured from t_ref (the completion SERIES_CHAIN_MAX_PERIOD
/// before, or the event that led into the chain's first sequence).
bool series_chain_goes_on(double t, double tz, double t_ref);

/// A completed sequence's steps, for a chain's period search: the
/// signature of what led to its first impact, of its last step, its
/// period (0 at a floor) and the contacts it closed.
uint64_t series_sequence_signature(uint64_t first, uint64_t last, int period, unsigned contacts);

/// Full model (`full`), after a completion at a floor (pending_period 0)
/// of the sequence `seq`: when the chatter it cut would have ended, its
/// last two impacts' ratio continued (cut_end_t), and the contacts it
/// closed (cut_contacts; 0: none to judge, as in the ZOD).
void series_note_cut(series_zeno *z, rview seq, bool full);

/// Records the completion just made in the chain (chain, capacity
/// SERIES_CHAIN): the state after closing (t, q, qd), the steps of the
/// completed sequence seq, its first impact speed, the contacts it touched
/// and its impacts; starts a chain if none is on. Then notes the chatter
/// it cut (series_note_cut).
void series_chain_record(series_zeno *z, impact_record *chain, rview seq, bool full, double t,
                         const double q[3], const double qd[3]);

/// The limit of the periods p of v at ratio r (series_geometric_advance's
/// sums to infinity), with the limit the period before predicts: the
/// difference of times (*t_err) and of velocities (dqd, that one minus
/// this).
void series_geometric_limit(rview v, int p, double r, double *t, double q[3], double qd[3],
                            double *t_err, double dqd[3]);

/// The last K periods of length p of v each last longer, and end with a
/// faster impact, than the one before by the factor grow (reverse chatter
/// whose ratios drift as it grows).
bool series_outgrowing(rview v, int p, int K, double grow);

/// Reverse chatter of one ratio: the last K periods of length p of v keep
/// one ratio r0 to rtol (series_constant_ratio) above 1 + margin. Returns
/// r0, the growth per period, or 0 when not.
double series_reverse_ratio(rview v, int p, int K, double rtol, double margin);

/// Second order, on the chain's completions v: the shortest period p (up
/// to SERIES_CHAIN_MAX_PERIOD, while v holds K periods and one more
/// completion) whose last K periods repeat the same steps with one ratio
/// r0 to rtol. True when there is one and it converges (r0 < 1 - rtol),
/// with *impacts the impacts of one period; false when none repeats, or
/// the first that does diverges or stalls.
bool series_chain_converging(rview v, int K, double rtol, int *p, double *r0, long *impacts);

/// Reverse chatter's growth tests on the sequence seq: its newest impact
/// is faster than SERIES_DIVERGE_GROWTH times the sequence's first
/// (series_grown); and, grown so, its last K periods of length p each
/// longer and faster than the one before by 1 + rtol (series_outgrowing):
/// the growth of its last period (series_outgrown_ratio), 0 when not.
bool series_grown(const series_zeno *z, rview seq);
double series_outgrown_ratio(const series_zeno *z, rview seq, int p, int K, double rtol);

/// For a floor's tail: the shortest period p (up to max_period) whose
/// last two periods repeat the same steps, and their ratio, to
/// SERIES_FLOOR_TAIL_RTOL. False when the shortest periodic p has no such
/// ratio below 1, or none repeats.
bool series_floor_tail(rview v, int max_period, int *p, double *r);

/// The ZOD's fast-forward: the whole periods of v (period p, ratio r)
/// that end before t_end, to within SERIES_FORWARD_MARGIN_PERIODS of it
/// and at least SERIES_FORWARD_MIN_PERIODS of them: the state at the phase
/// of the newest record that many periods on (t, q, qd), after the time
/// t_now. False when there are too few.
bool series_forward(rview v, int p, double r, double t_now, double t_end, double *t, double q[3],
                    double qd[3]);

#endif
