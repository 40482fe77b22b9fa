/// @file sha256.h
/// SHA-256 (FIPS 180-4), computed by nettle, which is loaded when the first
/// digest begins rather than linked: commands that compute none (simulate
/// without --out, analyze, maps, ...) then map one object fewer at start-up
/// (issue 14). It digests a run directory's files (run_dir.h) and the
/// journals of region maps and sweeps. The context is caller-owned: no
/// allocation, one per thread.
#ifndef ZENO_SHA256_H
#define ZENO_SHA256_H

#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Bytes of a digest, and characters of one in hex with its terminator.
#define ZENO_SHA256_BYTES 32
#define ZENO_SHA256_HEX_SIZE (2 * ZENO_SHA256_BYTES + 1)
/// Room for nettle's context (112 bytes in nettle 3), checked when zeno is
/// built.
#define ZENO_SHA256_STATE_BYTES 128

/// A digest under way. Its members are private.
typedef struct zeno_sha256 {
  const void *functions;  ///< nettle's, loaded
  union {
    unsigned long long align;
    unsigned char bytes[ZENO_SHA256_STATE_BYTES];
  } state;  ///< nettle's context
} zeno_sha256;

/// Starts a digest, loading nettle at the first call of the process.
/// ZENO_ERR_UNSUPPORTED naming the library and the package to install when
/// it cannot be loaded.
ZENO_API zeno_status zeno_sha256_begin(zeno_sha256 *hash, zeno_error *error);

/// Adds `length` bytes to a begun digest.
ZENO_API void zeno_sha256_update(zeno_sha256 *hash, const void *data, size_t length);

/// The digest of the bytes added; the context starts again, empty.
ZENO_API void zeno_sha256_finish(zeno_sha256 *hash, unsigned char digest[ZENO_SHA256_BYTES]);

/// The first `count` bytes of a digest in lower-case hex: 2 * count
/// characters and a terminator into `out`.
ZENO_API void zeno_sha256_hex(const unsigned char *digest, size_t count, char *out);

#ifdef __cplusplus
}
#endif
#endif
