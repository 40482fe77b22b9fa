// SHA-256 as the library computes it with nettle, loaded on first use
// (src/base/sha256.c): the digests of FIPS 180-2's test messages, added at
// once and in pieces, and the loader's failures (no such library, a
// library without the functions), each named.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/sha256_load.h"
#include "zeno/sha256.h"

static void hex_digest(const char *text, size_t piece, char out[ZENO_SHA256_HEX_SIZE]) {
  zeno_sha256 hash;
  zeno_error err;
  assert_int_equal(zeno_sha256_begin(&hash, &err), ZENO_OK);
  const size_t n = strlen(text);
  for (size_t k = 0; k < n; k += piece)
    zeno_sha256_update(&hash, text + k, n - k < piece ? n - k : piece);
  unsigned char digest[ZENO_SHA256_BYTES];
  zeno_sha256_finish(&hash, digest);
  zeno_sha256_hex(digest, sizeof digest, out);
}

// FIPS 180-2, appendix B: "abc" and the 448-bit two-block message.
static void digests_are_sha256(void **state) {
  (void)state;
  static const char *const ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  static const char *const TWO_BLOCKS =
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
  char out[ZENO_SHA256_HEX_SIZE];
  hex_digest("abc", 3, out);
  assert_string_equal(out, ABC);
  hex_digest("abc", 1, out);
  assert_string_equal(out, ABC);
  hex_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 64, out);
  assert_string_equal(out, TWO_BLOCKS);
  hex_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 5, out);
  assert_string_equal(out, TWO_BLOCKS);
  // The first bytes only (the journals' line checks).
  unsigned char bytes[2] = {0xba, 0x78};
  zeno_sha256_hex(bytes, 2, out);
  assert_string_equal(out, "ba78");
  assert_int_equal(zeno_sha256_begin(NULL, NULL), ZENO_ERR_ARGUMENT);
}

static void failures_are_named(void **state) {
  (void)state;
  sha256_api t;
  zeno_error err;
  assert_int_equal(sha256_api_open("libzeno-no-such-nettle.so.0", &t, &err), ZENO_ERR_UNSUPPORTED);
  assert_non_null(strstr(err.message, "libzeno-no-such-nettle.so.0"));
  assert_non_null(strstr(err.message, "apt-get install libnettle8"));
  assert_null(t.init);
  // A library that loads but is no nettle: the missing function is named.
  assert_int_equal(sha256_api_open("libm.so.6", &t, &err), ZENO_ERR_UNSUPPORTED);
  assert_non_null(strstr(err.message, "nettle_sha256_init"));
  assert_null(t.init);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(digests_are_sha256),
      cmocka_unit_test(failures_are_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
