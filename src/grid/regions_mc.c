// The Monte-Carlo verdict's shared parts (regions_internal.h): a point's
// seeded random stream, one perturbed run and the verdict of its counts,
// for the two-contact points (regions.c) and those of more contacts
// (regions_contacts.c).
#include <stdint.h>
#include <string.h>

#include "grid/regions_internal.h"

/// SplitMix64 constants (Steele, Lea, Flood 2014): a point's stream is
/// seeded by mixing the sweep seed with its grid indices.
#define SPLITMIX_GAMMA 0x9E3779B97F4A7C15ull
#define SPLITMIX_MUL1 0xBF58476D1CE4E5B9ull
#define SPLITMIX_MUL2 0x94D049BB133111EBull
/// 2^-53: a 53-bit integer times this is uniform in [0, 1).
#define UNIT_53 (1.0 / 9007199254740992.0)

static uint64_t splitmix_next(uint64_t *state) {
  uint64_t z = (*state += SPLITMIX_GAMMA);
  z = (z ^ (z >> 30)) * SPLITMIX_MUL1;
  z = (z ^ (z >> 27)) * SPLITMIX_MUL2;
  return z ^ (z >> 31);
}

double regions_uniform01(uint64_t *state) { return (double)(splitmix_next(state) >> 11) * UNIT_53; }

uint64_t regions_stream(uint64_t seed, size_t ix, size_t iy) {
  uint64_t stream = seed;
  stream ^= splitmix_next(&stream) ^ ((uint64_t)(unsigned)ix << 32) ^ (uint64_t)(unsigned)iy;
  return stream;
}

zeno_region_sim regions_sim_verdict(const zeno_region_point *p) {
  const int runs = p->mc_runs + p->mc_full_runs, rest = p->mc_rest + p->mc_full_rest;
  return rest == runs                ? ZENO_REGION_SIM_RESTS
         : rest + p->mc_slow == runs ? ZENO_REGION_SIM_SLOW
                                     : ZENO_REGION_SIM_DEPARTS;
}

zeno_status regions_run(const zeno_scene *base, zeno_model model, zeno_initial_kind kind,
                        const double x[3], const double xd[3], const zeno_interrupt *interrupt,
                        zeno_summary *summary, zeno_error *error) {
  zeno_scene s = *base;
  s.model = model;
  s.initial_kind = kind;
  const bool zod = kind == ZENO_INITIAL_ZOD;
  memcpy(zod ? s.initial_qp : s.initial_pose, x, 3 * sizeof *x);
  memcpy(zod ? s.initial_qdp : s.initial_velocity, xd, 3 * sizeof *xd);
  zeno_sim_def def = zeno_sim_def_default();
  def.interrupt = *interrupt;
  return zeno_run(&s, &def, summary, NULL, 0, error);
}
