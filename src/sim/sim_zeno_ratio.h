// Impact records as a Zeno detection reads them (the impacts of the
// current sequence, or the completions of the current chain, newest
// first), the tests on their ratios and steps, and the ends they can
// decide: reverse chatter (`diverging`). Internal to sim_zeno*.c.
#ifndef ZENO_SIM_ZENO_RATIO_H
#define ZENO_SIM_ZENO_RATIO_H

#include "sim/sim_internal.h"

static inline rview impacts_of(const zeno_sim *s) {
  return (rview){s->records.ring, s->zeno.ring_len};
}
static inline rview chain_of(const zeno_sim *s) {
  return (rview){s->records.chain, s->zeno.chain_len};
}
static inline const impact_record *rec(const zeno_sim *s, int back) {
  return at(impacts_of(s), back);
}

/// Full model: the bounce after this impact is lost in the rounding of the
/// positions.
bool sim_at_rounding(const zeno_sim *s, const impact_record *r);

/// The rule of reverse chatter: ends the run `diverging` (and returns true)
/// when the last K periods of length p of v keep one ratio to rtol, above
/// 1 + margin, and the velocity direction has settled to dir_rtol.
bool sim_reverse_chatter(zeno_sim *s, rview v, int p, int K, double rtol, double margin,
                         double dir_rtol);

/// Ends the run `diverging` (and returns true) for reverse chatter whose
/// ratios have settled only to diverge_rtol once its bounces have grown.
bool sim_grown_reverse_chatter(zeno_sim *s, rview v, int p, int K);

/// Full model: ends the run `diverging` (and returns true) for reverse
/// chatter whose ratio has settled to full_ratio_rtol.
bool sim_settled_reverse_chatter(zeno_sim *s, rview v, int p, int K);

/// Ends the run `diverging` (and returns true) for reverse chatter whose
/// periods of the same steps keep growing, by more than diverge_rtol each,
/// once its bounces have grown tenfold (ratios that drift as it grows).
bool sim_outgrown_reverse_chatter(zeno_sim *s, rview v, int p, int K);

/// ZOD: the limit of the sequence (or chain) v of period p and ratio r
/// lies beyond t_end: a fast-forward over its whole periods before t_end
/// is made pending (sim_zeno_forward.c).
void sim_zeno_forward_periods(zeno_sim *s, rview v, int p, double r);

#endif
