/// @file zeno.h
/// zeno: a planar rigid body on two frictional unilateral contacts after its
/// equilibrium is disturbed. Includes the whole public API.
#ifndef ZENO_ZENO_H
#define ZENO_ZENO_H

#include "zeno/error.h"
#include "zeno/scene.h"
#include "zeno/sim.h"
#include "zeno/analysis.h"
#include "zeno/stability.h"
#include "zeno/io.h"
#include "zeno/contact_stability.h"
#include "zeno/regions.h"

/// Library version string, e.g. "0.1.0".
const char *zeno_version(void);

#endif
