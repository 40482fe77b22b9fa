// nettle's SHA-256 loaded on first use (cli_sha256.h).
#include "cli_sha256.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#ifndef ZENO_NETTLE_SONAME
/// Debian 12's nettle 3.8 (meson.build reads the soname of the library found).
#define ZENO_NETTLE_SONAME "libnettle.so.8"
#endif

/// Room for the reason a load failed.
#define WHY_SIZE 512

bool cli_sha256_open(const char *soname, cli_sha256 *t, char *why, size_t n) {
  memset(t, 0, sizeof *t);
  void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    snprintf(why, n,
             "nettle (SHA-256 of the journal) could not be loaded (%s): "
             "apt-get install libnettle8",
             dlerror());
    return false;
  }
  // nettle's sha2.h maps sha256_init and its kin to these names.
  struct {
    const char *name;
    void **slot;
  } const table[] = {{"nettle_sha256_init", (void **)&t->init},
                     {"nettle_sha256_update", (void **)&t->update},
                     {"nettle_sha256_digest", (void **)&t->digest}};
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++) {
    *table[k].slot = dlsym(h, table[k].name);
    if (*table[k].slot == NULL) {
      snprintf(why, n, "nettle (%s) has no function %s: a nettle of another version", soname,
               table[k].name);
      memset(t, 0, sizeof *t);
      dlclose(h);
      return false;
    }
  }
  return true;
}

/* The process's one table, as a linked nettle would be: loaded by the
   first caller, read by all. */
static pthread_once_t once = PTHREAD_ONCE_INIT;
static cli_sha256 process_table;
static bool process_ok;
static char process_why[WHY_SIZE];

static void load_once(void) {
  process_ok = cli_sha256_open(ZENO_NETTLE_SONAME, &process_table, process_why, sizeof process_why);
}

const cli_sha256 *cli_sha256_get(const char **why) {
  pthread_once(&once, load_once);
  if (!process_ok && why) *why = process_why;
  return process_ok ? &process_table : NULL;
}
