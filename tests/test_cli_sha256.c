// nettle's SHA-256 as the program loads it for its journals
// (src/cli/cli_sha256.c): the digests of FIPS 180-2's test messages, and
// the failures (no such library, a library without the functions), each
// named.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli_sha256.h"

static void hex_digest(const cli_sha256 *sha, const char *text, char out[65]) {
  struct sha256_ctx ctx;
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha->init(&ctx);
  sha->update(&ctx, strlen(text), (const uint8_t *)text);
  sha->digest(&ctx, sizeof digest, digest);
  for (int k = 0; k < SHA256_DIGEST_SIZE; k++) snprintf(out + 2 * k, 3, "%02x", digest[k]);
}

// FIPS 180-2, appendix B: "abc" and the 448-bit two-block message.
static void digests_are_sha256(void **state) {
  (void)state;
  const char *why = NULL;
  const cli_sha256 *sha = cli_sha256_get(&why);
  assert_non_null(sha);
  assert_ptr_equal(cli_sha256_get(NULL), sha);  // loaded once
  char out[65];
  hex_digest(sha, "abc", out);
  assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  hex_digest(sha, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", out);
  assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void failures_are_named(void **state) {
  (void)state;
  cli_sha256 t;
  char why[512];
  assert_false(cli_sha256_open("libzeno-no-such-nettle.so.0", &t, why, sizeof why));
  assert_non_null(strstr(why, "libzeno-no-such-nettle.so.0"));
  assert_non_null(strstr(why, "apt-get install libnettle8"));
  assert_null(t.init);
  // A library that loads but is no nettle: the missing function is named.
  assert_false(cli_sha256_open("libm.so.6", &t, why, sizeof why));
  assert_non_null(strstr(why, "nettle_sha256_init"));
  assert_null(t.init);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(digests_are_sha256),
      cmocka_unit_test(failures_are_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
