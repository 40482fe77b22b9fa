// The kernel's four-lane cycles (sim_kernel4.c, sim_kernel4_contact.c):
// their lanes' state and the operations on four lanes at once. Not
// public API.
#ifndef ZENO_SIM_SIM_KERNEL4_H
#define ZENO_SIM_SIM_KERNEL4_H

#include <stdbool.h>

#include "sim/sim_internal.h"
#include "sim/sim_kernel.h"

/// Cycles at once: four doubles to an AVX2 register. (Eight to an AVX-512
/// register were a third slower on the AMD EPYC this was measured on.)
#define LANES 4

#if defined(__x86_64__) && defined(__GNUC__)
#define SIM_KERNEL4 1
#include <immintrin.h>

#define L4 __attribute__((target("avx2")))

_Static_assert(LANES == 4, "vb() and bits() are written for four lanes");
typedef double v4 __attribute__((vector_size(8 * LANES)));
typedef long long m4 __attribute__((vector_size(8 * LANES)));

/// A step's result: go on, the four cycles are done, or leave them to the
/// one-lane kernel.
typedef enum q_step { Q_ON, Q_DONE, Q_PART } q_step;

/// All lanes' bits of a mask (movemask).
#define ALL4 ((1 << LANES) - 1)

typedef struct quad {
  zeno_sim *s;
  const sim_kernel_data *kd;
  double k1[3];   ///< the slip of contact 1 as a row of q' (Cp[.][1])
  unsigned code;  ///< the mode in force (letter[0] + 4 letter[1])
  int events, sections;
  long impacts;
  bool returned, rest;
  zeno_outcome end;  ///< how cycles that did not return ended
  size_t word_len, outcomes_len;
  char *word, *outcomes;  ///< lane 0's, copied to the others at the end
  /// Each lane's state: time, q', qdot', the tie margin noted for the
  /// event being made, the speed scale, the start's speed scale, the
  /// smallest margin of every event and of those that count, the first
  /// impact's speed, the return's angle and rate.
  v4 t, q[3], qd[3], tie, vscale, start_speed, all_tie, tie_margin, first_speed, angle, rate;
} quad;

static inline L4 v4 vb(double x) { return (v4){x, x, x, x}; }

static inline L4 int bits(m4 m) { return _mm256_movemask_pd((__m256d)m); }

// m ? a : b by lane (each of m's lanes all ones or all zeros).
static inline L4 v4 vsel(m4 m, v4 a, v4 b) { return _mm256_blendv_pd(b, a, (__m256d)m); }

static inline L4 v4 vabs(v4 x) { return (v4)((m4)x & ~(m4)vb(-0.0)); }

// A decision taken on every lane alike: *on its value; false when the
// lanes part.
static inline L4 bool same(m4 m, bool *on) {
  const int b = bits(m);
  *on = b == ALL4;
  return b == 0 || b == ALL4;
}

// sim_note_tie() on each lane: the smaller margin (NaN none).
static inline L4 void note(quad *w, v4 margin) { w->tie = vsel(margin < w->tie, margin, w->tie); }

// The same, where m is set.
static inline L4 void note_where(quad *w, m4 m, v4 margin) {
  w->tie = vsel(m & (margin < w->tie), margin, w->tie);
}

static inline L4 void rates_of(const quad *w, const v4 qd[3], v4 cd[4]) {
  cd[0] = qd[0];
  cd[1] = vb(w->k1[0]) * qd[0] + vb(w->k1[1]) * qd[1] + vb(w->k1[2]) * qd[2];
  cd[2] = qd[1];
  cd[3] = qd[2];
}

static inline L4 v4 speed_of(const v4 cd[4]) {
  v4 v = vb(0);
  for (int a = 0; a < 4; a++) {
    const v4 x = vabs(cd[a]);
    v = vsel(x > v, x, v);
  }
  return v;
}

static inline L4 v4 dot4(const double r[4], const v4 b[4]) {
  return vb(r[0]) * b[0] + vb(r[1]) * b[1] + vb(r[2]) * b[2] + vb(r[3]) * b[3];
}

static inline L4 v4 dot3(const double r[3], const v4 b[3]) {
  return vb(r[0]) * b[0] + vb(r[1]) * b[1] + vb(r[2]) * b[2];
}

/// classify() of a cycle on each lane: false when a velocity lies in its
/// band or the lanes' classes part.
L4 bool sim_k4_classify(const quad *w, const v4 cd[4], const bool touching[2], v4 tol,
                        mode_class *cls);
/// enforce() on each lane: false where the one-lane kernel has not made
/// the projection.
L4 bool sim_k4_enforce(quad *w, const mode_class *cls, v4 cd[4]);
/// sim_kernel_resolve() on each lane, on a made context and made
/// candidates: false when the lanes part or something is not made.
L4 bool sim_k4_resolve(quad *w, const bool touching[2], const bool impacting[2], const v4 cd[4],
                       v4 tol_v, unsigned *mask, unsigned char letter[2]);
#endif

#endif
