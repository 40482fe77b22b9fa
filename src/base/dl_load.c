// A shared library loaded on first use, its functions into a caller's
// table (util.h): what GLPK's and SUNDIALS' loaders share.
#include <dlfcn.h>
#include <string.h>

#include "base/util.h"

zeno_status zeno_dl_load(const char *soname, const zeno_dl_symbol *symbols, size_t count,
                         const zeno_dl_library *library, zeno_error *e) {
  for (size_t k = 0; k < count; k++) *symbols[k].slot = NULL;
  void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL)
    return zeno_fail(e, ZENO_ERR_UNSUPPORTED, library->parameter,
                     "%s, %s, could not be loaded (%s): apt-get install %s", library->name,
                     library->role, dlerror(), library->package);
  for (size_t k = 0; k < count; k++) {
    *symbols[k].slot = dlsym(h, symbols[k].name);
    if (*symbols[k].slot == NULL) {
      for (size_t j = 0; j < count; j++) *symbols[j].slot = NULL;
      dlclose(h);
      return zeno_fail(e, ZENO_ERR_UNSUPPORTED, library->parameter,
                       "%s (%s) has no function %s: a %s of another version", library->name, soname,
                       symbols[k].name, library->name);
    }
  }
  return ZENO_OK;  // the handle stays open: the functions live in it
}
