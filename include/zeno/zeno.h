/// @file zeno.h
/// zeno: a planar rigid body on two frictional unilateral contacts after its
/// equilibrium is disturbed. Includes the whole public API, one header per
/// layer's concept (docs/api.md):
///   error.h, version.h          status codes, error records; the version
///   interrupt.h                 stopping a long call early (Ctrl-C)
///   scene.h                     scene data, validation, the YAML loader
///   mode.h                      contact letters, modes, guards, their names
///   impact_law.h                the impact laws' table: what each reads and decides
///   sim.h                       the hybrid simulator, events, outcomes
///   equilibrium.h               feasibility, ordering (13), ambiguity, Painlevé
///   contact_problem.h, contact_set.h, pang_trinkle.h, jamming.h
///                               contact stability beyond the paper
///   poincare.h                  the Poincaré maps R and G
///   stability.h                 verdicts, persistence, the interval graph
///   regions.h                   region maps over two scene parameters
///   io.h, run_dir.h             JSON and CSV; the `simulate --out` directory
#ifndef ZENO_ZENO_H
#define ZENO_ZENO_H

#include "zeno/contact_problem.h"
#include "zeno/contact_set.h"
#include "zeno/equilibrium.h"
#include "zeno/error.h"
#include "zeno/impact_law.h"
#include "zeno/interrupt.h"
#include "zeno/io.h"
#include "zeno/jamming.h"
#include "zeno/mode.h"
#include "zeno/pang_trinkle.h"
#include "zeno/poincare.h"
#include "zeno/regions.h"
#include "zeno/run_dir.h"
#include "zeno/scene.h"
#include "zeno/sha256.h"
#include "zeno/sim.h"
#include "zeno/stability.h"
#include "zeno/sweep.h"
#include "zeno/version.h"
#include "zeno/warnings.h"

#endif
