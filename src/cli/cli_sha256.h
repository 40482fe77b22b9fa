// SHA-256 (nettle's) for the journals of region maps and sweeps, with
// nettle loaded when the first journal is signed rather than linked: the
// commands that keep no journal (simulate, analyze, maps, ...) then map one
// object fewer at start-up (issue 14). nettle's context type comes from
// its header, its functions through this table.
#ifndef ZENO_CLI_CLI_SHA256_H
#define ZENO_CLI_CLI_SHA256_H

#include <nettle/sha2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_sha256 {
  void (*init)(struct sha256_ctx *ctx);
  void (*update)(struct sha256_ctx *ctx, size_t length, const uint8_t *data);
  void (*digest)(struct sha256_ctx *ctx, size_t length, uint8_t *digest);
} cli_sha256;

/// Loads nettle's SHA-256 from the shared library `soname` into *t (the
/// library stays loaded). False on failure, with why (n bytes) naming the
/// library and what to install, or the function missing.
bool cli_sha256_open(const char *soname, cli_sha256 *t, char *why, size_t n);

/// The process's SHA-256 from nettle's library (ZENO_NETTLE_SONAME),
/// loaded by the first call. NULL on failure (*why: the reason).
const cli_sha256 *cli_sha256_get(const char **why);

#endif
