// A plot module that does not fit the program, for tests/test_startup.c:
// with ZENO_FAKE_MODULE=abi it provides no ABI the program asks for, with
// ZENO_FAKE_MODULE=version it is the module of another zeno version. The
// program must refuse it with one line naming the file (exit 1); it never
// calls the table's functions, which are left NULL.
#include <stdlib.h>
#include <string.h>

#include "plot/plot_module.h"

/// A version no build of zeno has.
#define FAKE_VERSION "0.0.0-fake"

const zeno_plot_module *zeno_plot_module_get(int abi) {
  static zeno_plot_module table;
  const char *mode = getenv("ZENO_FAKE_MODULE");
  if (mode == NULL || strcmp(mode, "abi") == 0) return NULL;
  table.abi = abi;
  table.version = FAKE_VERSION;
  return &table;
}
