// Loading libzeno-certify (cli_certify.h).
#include "cli_certify.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_module.h"

/// The library's soname.
#define CERTIFY_LIBRARY "libzeno-certify.so.0"
/// Room for a path.
#define CERTIFY_PATH_SIZE 4096

static void *open_library(void) {
  char path[CERTIFY_PATH_SIZE];
  const char *env = getenv(CLI_MODULE_DIR_ENV);
  if (env != NULL && env[0] != '\0') {
    snprintf(path, sizeof path, "%s/%s", env, CERTIFY_LIBRARY);
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
  }
  char exe[CERTIFY_PATH_SIZE / 2];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash != NULL) {
      *slash = '\0';
      snprintf(path, sizeof path, "%s/%s", exe, CERTIFY_LIBRARY);
      if (access(path, F_OK) == 0) return dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
  }
  return dlopen(CERTIFY_LIBRARY, RTLD_NOW | RTLD_LOCAL);
}

// Copies the address of `name` into *slot (a function pointer of `size`
// bytes); false after an error line.
static bool find_symbol(void *handle, const char *name, void *slot, size_t size) {
  void *symbol = dlsym(handle, name);
  if (symbol == NULL) {
    cli_error("%s has no %s: install the libzeno-certify of this zeno (%s)", CERTIFY_LIBRARY, name,
              ZENO_VERSION);
    return false;
  }
  memcpy(slot, &symbol, size);
  return true;
}

bool cli_certificate_library_load(cli_certificate_library *lib) {
  void *handle = open_library();
  if (handle == NULL) {
    const char *why = dlerror();
    cli_error(
        "cannot load the certificate library %s: %s (install zeno with "
        "libzeno-certify; it needs libsdp0 and libgmp10)",
        CERTIFY_LIBRARY, why ? why : "unknown error");
    return false;
  }
  return find_symbol(handle, "zeno_certify", &lib->certify, sizeof lib->certify) &&
         find_symbol(handle, "zeno_certificate_eval", &lib->eval, sizeof lib->eval) &&
         find_symbol(handle, "zeno_certify_def_default", &lib->def_default,
                     sizeof lib->def_default);
}
