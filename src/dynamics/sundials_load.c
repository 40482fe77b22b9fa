// SUNDIALS CVODE loaded on first use (sundials_load.h).
#include "dynamics/sundials_load.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "base/util.h"

#ifndef ZENO_SUNDIALS_SONAME
/// Debian 12's SUNDIALS 6.4 (meson.build reads the soname of the library found).
#define ZENO_SUNDIALS_SONAME "libsundials_cvode.so.6"
#endif

zeno_status sundials_api_open(const char *soname, sundials_api *t, zeno_error *e) {
  memset(t, 0, sizeof *t);
// clang-format off
#define CVODE_SLOT(name) {#name, (void **)&t->name}
  const zeno_dl_symbol table[] = {
      CVODE_SLOT(SUNContext_Create),       CVODE_SLOT(SUNContext_Free),
      CVODE_SLOT(N_VNew_Serial),           CVODE_SLOT(N_VDestroy),
      CVODE_SLOT(N_VConst),                CVODE_SLOT(N_VGetArrayPointer),
      CVODE_SLOT(SUNNonlinSol_FixedPoint), CVODE_SLOT(SUNNonlinSolFree),
      CVODE_SLOT(CVodeCreate),             CVODE_SLOT(CVodeFree),
      CVODE_SLOT(CVodeInit),               CVODE_SLOT(CVodeReInit),
      CVODE_SLOT(CVodeSetNonlinearSolver), CVODE_SLOT(CVodeSetUserData),
      CVODE_SLOT(CVodeSetErrHandlerFn),    CVODE_SLOT(CVodeSetNoInactiveRootWarn),
      CVODE_SLOT(CVodeSetMaxNumSteps),     CVODE_SLOT(CVodeSVtolerances),
      CVODE_SLOT(CVodeRootInit),           CVODE_SLOT(CVodeSetRootDirection),
      CVODE_SLOT(CVodeSetStopTime),        CVODE_SLOT(CVode),
      CVODE_SLOT(CVodeGetRootInfo),        CVODE_SLOT(CVodeGetReturnFlagName),
  };
// clang-format on
#undef CVODE_SLOT
  static const zeno_dl_library sundials = {"SUNDIALS CVODE", "the full model's integrator",
                                           "libsundials-cvode6", "model"};
  return zeno_dl_load(soname, table, sizeof table / sizeof table[0], &sundials, e);
}

/* The process's one table, as a linked SUNDIALS would be: loaded by the
   first caller that succeeds, read by all. A failed load is not kept (a
   later call tries again: the library may have been out of memory's
   reach); nothing else is. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static sundials_api process_table;
static atomic_bool process_ok;

const sundials_api *sundials_api_get(zeno_error *e) {
  if (atomic_load(&process_ok)) return &process_table;
  zeno_status st = ZENO_OK;
  pthread_mutex_lock(&load_lock);
  if (!atomic_load(&process_ok)) {
    sundials_api t;
    st = sundials_api_open(ZENO_SUNDIALS_SONAME, &t, e);
    if (st == ZENO_OK) {
      process_table = t;
      atomic_store(&process_ok, true);  // after the table is complete
    }
  }
  pthread_mutex_unlock(&load_lock);
  return st == ZENO_OK ? &process_table : NULL;
}
