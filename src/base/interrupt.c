// The caller's interrupt asked (zeno/interrupt.h): the one call every
// long loop of the library makes between its steps.
#include "zeno/interrupt.h"

#include "base/util.h"

zeno_status zeno_interrupt_check(const zeno_interrupt *interrupt, zeno_error *e) {
  if (interrupt == NULL || interrupt->check == NULL || !interrupt->check(interrupt->user))
    return ZENO_OK;
  return zeno_fail(e, ZENO_ERR_INTERRUPTED, "", "interrupted");
}
