// What the region maps' two files share (regions.c: the map and its
// two-contact points; regions_contacts.c: points of more than two
// contacts): a point's seeded random stream and the simulation verdict
// from a point's counts. Not public API.
#ifndef ZENO_GRID_REGIONS_INTERNAL_H
#define ZENO_GRID_REGIONS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "zeno/regions.h"
#include "zeno/scene.h"
#include "zeno/sim.h"

/// Monte-Carlo perturbations: every fourth run starts touching at its
/// first contact coordinate and every fourth (shifted by one) at its
/// second, moving away from the surface.
#define MC_TOUCH_PERIOD 4

/// How a perturbed run ended: at rest, stopped by a limit while still
/// returning, or otherwise (escaped, diverging, growing at its limit, no
/// consistent mode, ...).
typedef enum run_fate { RUN_RESTS, RUN_RETURNING, RUN_DEPARTS } run_fate;

/// One perturbed run of the point's scene in `model` from a start of `kind`
/// (q' and its rate, or a pose and its velocity), by zeno_run(), to its
/// summary.
zeno_status regions_run(const zeno_scene *base, zeno_model model, zeno_initial_kind kind,
                        const double x[3], const double xd[3], const zeno_interrupt *interrupt,
                        zeno_summary *summary, zeno_error *error);

/// A point's stream, seeded by mixing the map's seed with its grid indices
/// (SplitMix64): the verdict does not depend on threads, ranks or order.
uint64_t regions_stream(uint64_t seed, size_t ix, size_t iy);
/// The stream's next number, uniform in [0, 1).
double regions_uniform01(uint64_t *state);
/// The simulation verdict of a point's counts: every run at rest, every
/// run at rest or returning slowly, or some departing.
zeno_region_sim regions_sim_verdict(const zeno_region_point *p);

/// A point of more than two contacts (regions_contacts.c): Pang & Trinkle's
/// static check decides its region (0 infeasible, 6 ambiguous, else 7:
/// no theorem decides N contacts), and a region-7 point's seeded
/// perturbations its simulation verdict. Errors as zeno_regions_point's.
zeno_status regions_contacts_point(const zeno_regions_def *def, const zeno_scene *scene,
                                   const zeno_interrupt *interrupt, zeno_region_point *p,
                                   zeno_error *error);

#endif
