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

zeno_status zfc_sundials_open(const char *soname, zfc_sundials *t, zeno_error *e) {
  memset(t, 0, sizeof *t);
#define ZFC_SLOT(name) {#name, (void **)&t->name}
  const zeno_dl_symbol table[] = {
      ZFC_SLOT(SUNContext_Create),       ZFC_SLOT(SUNContext_Free),
      ZFC_SLOT(N_VNew_Serial),           ZFC_SLOT(N_VDestroy),
      ZFC_SLOT(N_VConst),                ZFC_SLOT(N_VGetArrayPointer),
      ZFC_SLOT(SUNNonlinSol_FixedPoint), ZFC_SLOT(SUNNonlinSolFree),
      ZFC_SLOT(CVodeCreate),             ZFC_SLOT(CVodeFree),
      ZFC_SLOT(CVodeInit),               ZFC_SLOT(CVodeReInit),
      ZFC_SLOT(CVodeSetNonlinearSolver), ZFC_SLOT(CVodeSetUserData),
      ZFC_SLOT(CVodeSetErrHandlerFn),    ZFC_SLOT(CVodeSetNoInactiveRootWarn),
      ZFC_SLOT(CVodeSetMaxNumSteps),     ZFC_SLOT(CVodeSVtolerances),
      ZFC_SLOT(CVodeRootInit),           ZFC_SLOT(CVodeSetRootDirection),
      ZFC_SLOT(CVodeSetStopTime),        ZFC_SLOT(CVode),
      ZFC_SLOT(CVodeGetRootInfo),        ZFC_SLOT(CVodeGetReturnFlagName),
  };
#undef ZFC_SLOT
  static const zeno_dl_library sundials = {"SUNDIALS CVODE", "the full model's integrator",
                                           "libsundials-cvode6", "model"};
  return zeno_dl_load(soname, table, sizeof table / sizeof table[0], &sundials, e);
}

/* The process's one table, as a linked SUNDIALS would be: loaded by the
   first caller that succeeds, read by all. A failed load is not kept (a
   later call tries again: the library may have been out of memory's
   reach); nothing else is. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static zfc_sundials process_table;
static atomic_bool process_ok;

const zfc_sundials *zfc_sundials_get(zeno_error *e) {
  if (atomic_load(&process_ok)) return &process_table;
  zeno_status st = ZENO_OK;
  pthread_mutex_lock(&load_lock);
  if (!atomic_load(&process_ok)) {
    zfc_sundials t;
    st = zfc_sundials_open(ZENO_SUNDIALS_SONAME, &t, e);
    if (st == ZENO_OK) {
      process_table = t;
      atomic_store(&process_ok, true);  // after the table is complete
    }
  }
  pthread_mutex_unlock(&load_lock);
  return st == ZENO_OK ? &process_table : NULL;
}
