// SUNDIALS CVODE, loaded when the first full-model integrator is created
// rather than linked: the commands and runs that never integrate (every
// ZOD run, the maps, the analyses) then do not map it (issue 14's
// start-up). The full model's flow (flow_cvode.c) calls CVODE through this
// table, whose members have the exact types of SUNDIALS' declarations.
// Not public API.
#ifndef ZENO_DYNAMICS_SUNDIALS_LOAD_H
#define ZENO_DYNAMICS_SUNDIALS_LOAD_H

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include "zeno/error.h"

/// The SUNDIALS functions zeno uses (all in libsundials_cvode).
typedef struct sundials_api {
  __typeof__(SUNContext_Create) *SUNContext_Create;
  __typeof__(SUNContext_Free) *SUNContext_Free;
  __typeof__(N_VNew_Serial) *N_VNew_Serial;
  __typeof__(N_VDestroy) *N_VDestroy;
  __typeof__(N_VConst) *N_VConst;
  __typeof__(N_VGetArrayPointer) *N_VGetArrayPointer;
  __typeof__(SUNNonlinSol_FixedPoint) *SUNNonlinSol_FixedPoint;
  __typeof__(SUNNonlinSolFree) *SUNNonlinSolFree;
  __typeof__(CVodeCreate) *CVodeCreate;
  __typeof__(CVodeFree) *CVodeFree;
  __typeof__(CVodeInit) *CVodeInit;
  __typeof__(CVodeReInit) *CVodeReInit;
  __typeof__(CVodeSetNonlinearSolver) *CVodeSetNonlinearSolver;
  __typeof__(CVodeSetUserData) *CVodeSetUserData;
  __typeof__(CVodeSetErrHandlerFn) *CVodeSetErrHandlerFn;
  __typeof__(CVodeSetNoInactiveRootWarn) *CVodeSetNoInactiveRootWarn;
  __typeof__(CVodeSetMaxNumSteps) *CVodeSetMaxNumSteps;
  __typeof__(CVodeSVtolerances) *CVodeSVtolerances;
  __typeof__(CVodeRootInit) *CVodeRootInit;
  __typeof__(CVodeSetRootDirection) *CVodeSetRootDirection;
  __typeof__(CVodeSetStopTime) *CVodeSetStopTime;
  __typeof__(CVode) *CVode;
  __typeof__(CVodeGetRootInfo) *CVodeGetRootInfo;
  __typeof__(CVodeGetReturnFlagName) *CVodeGetReturnFlagName;
} sundials_api;

/// Loads SUNDIALS' shared library `soname` and its functions into *t. On
/// failure ZENO_ERR_UNSUPPORTED naming the library and what to install, or
/// the function missing. The library stays loaded.
zeno_status sundials_api_open(const char *soname, sundials_api *t, zeno_error *e);

/// The process's SUNDIALS (ZENO_SUNDIALS_SONAME), loaded by the first call
/// that succeeds, from any thread; NULL on failure (*e: why), and the next
/// call tries again.
const sundials_api *sundials_api_get(zeno_error *e);

#endif
