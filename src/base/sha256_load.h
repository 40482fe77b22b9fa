// nettle's SHA-256 functions, loaded on first use (zeno/sha256.h): the
// table and its loader, apart for the test of its failures. Not public API.
#ifndef ZENO_BASE_SHA256_LOAD_H
#define ZENO_BASE_SHA256_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "zeno/error.h"

struct sha256_ctx;  // nettle's (nettle/sha2.h)

/// The nettle functions zeno uses.
typedef struct sha256_api {
  void (*init)(struct sha256_ctx *ctx);
  void (*update)(struct sha256_ctx *ctx, size_t length, const uint8_t *data);
  void (*digest)(struct sha256_ctx *ctx, size_t length, uint8_t *digest);
} sha256_api;

/// Loads nettle's shared library `soname` and its functions into *t. On
/// failure ZENO_ERR_UNSUPPORTED naming the library and what to install, or
/// the missing function; every slot NULL.
zeno_status sha256_api_open(const char *soname, sha256_api *t, zeno_error *e);

#endif
