// Restarting a ZOD simulator from a new state while keeping its model, its
// mode solutions and its buffers: the one entry into the simulator the
// Poincaré maps (maps/poincare.c) need beyond the public zeno/sim.h,
// because a map evaluates thousands of cycles of one scene. Not public API.
#ifndef ZENO_SIM_SIM_RESTART_H
#define ZENO_SIM_SIM_RESTART_H

#include <stdbool.h>

#include "zeno/sim.h"

/// Starts a new run of the simulator's scene from q' = qp, qdot' = qdp (ZOD
/// coordinates), as if it had been created with that initial state: the
/// run's record (time, events, word, sequences) starts afresh. Fails with
/// ZENO_ERR_ARGUMENT for a full-model simulator (its state is not q').
zeno_status sim_restart_zod(zeno_sim *sim, const double qp[3], const double qdp[3]);

/// Events of a map's cycles: with lean, each event carries its time,
/// kind, guard, modes, impact, section, tie margin and outcome, and its
/// states only their ZOD coordinates (zod, zod_rate) and mode; the rest of
/// the state records, the constraint drift and the guard residual stay
/// zero. Energy gains are noted as ever (from the ZOD rates), so the
/// summary is the same. A ZOD simulator only; kept across restarts;
/// zeno_run() runs lean.
void sim_set_lean_events(zeno_sim *sim, bool lean);

/// Has the simulator's table resolve every impact through its maps from
/// each letter system's first use (as a Poincaré runner's kernel does)
/// instead of after CONTACT_MAP_AFTER_USES solves (contact_letter_maps.
/// from_first_use): no run's result then depends on the runs before it on
/// the same simulator. A no-op without a table (zeno_sim_def.zod_table
/// false, or the full model).
void sim_use_impact_maps(zeno_sim *sim);

#endif
