// SHA-256 by nettle, loaded on first use (zeno/sha256.h, sha256_load.h).
#include "zeno/sha256.h"

#include <nettle/sha2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "base/sha256_load.h"
#include "base/util.h"

#ifndef ZENO_NETTLE_SONAME
/// Debian 12's nettle 3.8 (meson.build reads the soname of the library found).
#define ZENO_NETTLE_SONAME "libnettle.so.8"
#endif

_Static_assert(sizeof(struct sha256_ctx) <= ZENO_SHA256_STATE_BYTES,
               "zeno_sha256 has no room for nettle's context");

zeno_status sha256_api_open(const char *soname, sha256_api *t, zeno_error *e) {
  memset(t, 0, sizeof *t);
  // nettle's sha2.h maps sha256_init and its kin to these names.
  const zeno_dl_symbol table[] = {{"nettle_sha256_init", (void **)&t->init},
                                  {"nettle_sha256_update", (void **)&t->update},
                                  {"nettle_sha256_digest", (void **)&t->digest}};
  static const zeno_dl_library nettle = {"nettle", "the SHA-256 of run directories and journals",
                                         "libnettle8", ""};
  return zeno_dl_load(soname, table, sizeof table / sizeof table[0], &nettle, e);
}

/* The process's one table, as a linked nettle would be: loaded by the
   first caller, read by all; nothing else is kept. */
static pthread_once_t nettle_once = PTHREAD_ONCE_INIT;
static sha256_api nettle;
static atomic_bool nettle_ok;
static zeno_error nettle_error;

static void load_once(void) {
  atomic_store(&nettle_ok, sha256_api_open(ZENO_NETTLE_SONAME, &nettle, &nettle_error) == ZENO_OK);
}

static struct sha256_ctx *context(zeno_sha256 *hash) {
  return (struct sha256_ctx *)(void *)hash->state.bytes;
}

zeno_status zeno_sha256_begin(zeno_sha256 *hash, zeno_error *error) {
  if (hash == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a context is required");
  pthread_once(&nettle_once, load_once);
  if (!atomic_load(&nettle_ok)) {
    hash->functions = NULL;
    if (error) *error = nettle_error;
    return nettle_error.code;
  }
  hash->functions = &nettle;
  nettle.init(context(hash));
  return ZENO_OK;
}

void zeno_sha256_update(zeno_sha256 *hash, const void *data, size_t length) {
  const sha256_api *t = hash->functions;
  t->update(context(hash), length, data);
}

void zeno_sha256_finish(zeno_sha256 *hash, unsigned char digest[ZENO_SHA256_BYTES]) {
  const sha256_api *t = hash->functions;
  t->digest(context(hash), ZENO_SHA256_BYTES, digest);
}

void zeno_sha256_hex(const unsigned char *digest, size_t count, char *out) {
  static const char DIGITS[] = "0123456789abcdef";
  for (size_t k = 0; k < count; k++) {
    out[2 * k] = DIGITS[digest[k] >> 4];
    out[2 * k + 1] = DIGITS[digest[k] & 15];
  }
  out[2 * count] = '\0';
}
