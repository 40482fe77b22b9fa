// The writers' numbers (src/io/io_number.c) against printf's "%.17g": the
// same text, character for character, on every kind of double: random bit
// patterns, random magnitudes over the whole range it covers and beyond,
// exact ties of the 18th digit (rounded half to even), integers, the
// digits' carries (9.99...), the layout's edges (1e-5, 1e-4, 1e16, 1e17)
// and zeros, subnormals, infinities and NaNs.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "io/io_number.h"
#include "test_util.h"

/// Random doubles of each kind.
#define DRAWS 400000
#define SEED 20261128u

static long checked;

static void check(double v) {
  char want[64], got[IO_NUMBER_SIZE];
  snprintf(want, sizeof want, "%.17g", v);
  const size_t n = io_format_number(v, got);
  if (strcmp(want, got) != 0) fprintf(stderr, "%a: printf '%s', io '%s'\n", v, want, got);
  assert_string_equal(got, want);
  assert_int_equal(n, strlen(want));
  checked++;
}

static double from_bits(uint64_t b) {
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

static void random_bit_patterns(void **state) {
  (void)state;
  rng r = {SEED};
  for (int k = 0; k < DRAWS; k++) check(from_bits(rng_next(&r)));
}

// Magnitudes uniform in log10 over [1e-20, 1e20] (the covered range
// [1e-16, 1e17) and both sides of it), both signs.
static void random_magnitudes(void **state) {
  (void)state;
  rng r = {SEED + 1};
  for (int k = 0; k < DRAWS; k++) {
    const double v = pow(10, rng_uniform(&r, -20, 20));
    check(k % 2 ? v : -v);
  }
}

// Values whose exact expansion ends in a 5 right after the 17th digit:
// m / 4 and m / 2 with m an odd 17- or 18-digit integer below 2^53, and
// their neighbours one ulp away.
static void ties_round_half_to_even(void **state) {
  (void)state;
  rng r = {SEED + 2};
  for (int k = 0; k < DRAWS / 4; k++) {
    const uint64_t m = (rng_next(&r) % (1ULL << 53)) | 1;
    const double vs[] = {(double)m / 2, (double)m / 4, (double)m / 8, (double)m * 0.5e-3};
    for (size_t j = 0; j < sizeof vs / sizeof vs[0]; j++) {
      check(vs[j]);
      check(nextafter(vs[j], 0));
      check(nextafter(vs[j], INFINITY));
    }
  }
  check(1234567890123456.75);  // ...6.75 -> ...6.8 (a tie, to even)
  check(1234567890123456.25);  // ...6.25 -> ...6.2
}

static void integers_edges_and_specials(void **state) {
  (void)state;
  for (int e = -330; e <= 310; e++) {
    const double p = pow(10, e);
    check(p);
    check(nextafter(p, 0));
    check(nextafter(p, INFINITY));
    check(-p);
    check(9.9999999999999999 * p);
    check(0.99999999999999994 * p);
  }
  for (long k = -100000; k <= 100000; k += 7) check((double)k);
  for (uint64_t k = 1; k < (1ULL << 53); k = 3 * k + 1) check((double)k);
  const double specials[] = {0.0,
                             -0.0,
                             INFINITY,
                             -INFINITY,
                             NAN,
                             -NAN,
                             5e-324,
                             -5e-324,
                             2.2250738585072014e-308,
                             1.7976931348623157e308,
                             0.1,
                             0.2,
                             0.3,
                             1.0 / 3,
                             2.0 / 3,
                             3.141592653589793,
                             -1.5707963267948966,
                             1e-4,
                             1e-5,
                             9.9999999999999991e-5,
                             1e16,
                             1e17,
                             99999999999999984.0,
                             1e-16,
                             1e-17};
  for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) check(specials[k]);
  printf("# %ld numbers, each printf's text\n", checked);
}

// The stream form writes the same text.
static void put_number_writes_the_text(void **state) {
  (void)state;
  char buf[128];
  FILE *f = fmemopen(buf, sizeof buf, "w");
  assert_non_null(f);
  io_put_number(f, -0.0625);
  fputc(',', f);
  io_put_number(f, 1e300);
  assert_int_equal(fclose(f), 0);
  assert_string_equal(buf, "-0.0625,1.0000000000000001e+300");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_bit_patterns),        cmocka_unit_test(random_magnitudes),
      cmocka_unit_test(ties_round_half_to_even),    cmocka_unit_test(integers_edges_and_specials),
      cmocka_unit_test(put_number_writes_the_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
