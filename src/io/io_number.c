// printf's "%.17g" of a double without printf (io_number.h): the value's
// 17 significant digits found exactly in 128-bit integer arithmetic and
// rounded half to even, as glibc rounds the exact binary value, then laid
// out as %g lays them out. Values it does not cover go to snprintf.
#include "io/io_number.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/io_stream.h"

/// Significant digits of IO_NUMBER_FORMAT.
#define DIGITS 17
/// Decimal exponents of the leading digit covered: the digits are
/// floor(|v| 10^k) for k = DIGITS - 1 - X in [0, 32], so that |v| 5^k (a
/// 53-bit significand times at most 5^32 < 2^75) fits in 128 bits. Beyond,
/// snprintf.
#define LEAD_MIN (DIGITS - 1 - 32)
#define LEAD_MAX (DIGITS - 1)

#ifdef __SIZEOF_INT128__
/// GCC's and clang's 128-bit integer (__extension__: ISO C has none).
__extension__ typedef unsigned __int128 u128;

/// 10^(DIGITS - 1) and 10^DIGITS: the range of the 17-digit integer.
static const uint64_t TEN16 = 10000000000000000ULL, TEN17 = 100000000000000000ULL;

/// 5^0 .. 5^27, the powers of five below 2^64.
static const uint64_t POW5[28] = {1ULL,
                                  5ULL,
                                  25ULL,
                                  125ULL,
                                  625ULL,
                                  3125ULL,
                                  15625ULL,
                                  78125ULL,
                                  390625ULL,
                                  1953125ULL,
                                  9765625ULL,
                                  48828125ULL,
                                  244140625ULL,
                                  1220703125ULL,
                                  6103515625ULL,
                                  30517578125ULL,
                                  152587890625ULL,
                                  762939453125ULL,
                                  3814697265625ULL,
                                  19073486328125ULL,
                                  95367431640625ULL,
                                  476837158203125ULL,
                                  2384185791015625ULL,
                                  11920928955078125ULL,
                                  59604644775390625ULL,
                                  298023223876953125ULL,
                                  1490116119384765625ULL,
                                  7450580596923828125ULL};

// The digits of a = m 2^e (m < 2^53) times 10^k, k in [0, 32]: the integer
// part of the exact product and whether the fraction is above, at or below
// one half (+1, 0, -1; no fraction: -2).
static uint64_t scaled(uint64_t m, int e, int k, int *half) {
  u128 p = (u128)m * POW5[k < 27 ? k : 27];
  if (k > 27) p *= POW5[k - 27];  // m 5^k < 2^53 5^32 < 2^128
  const int s = e + k;            // a 10^k = m 5^k 2^s
  if (s >= 0) {
    *half = -2;
    // a 10^k < 10^17 < 2^57 here, so the shift keeps every bit.
    return (uint64_t)(p << s);
  }
  if (-s >= 128) {  // below 1: never in range (the caller retries)
    *half = -1;
    return 0;
  }
  const u128 one = (u128)1 << (-s), rest = p & (one - 1), mid = one >> 1;
  *half = rest == 0 ? -2 : rest > mid ? 1 : rest == mid ? 0 : -1;
  return (uint64_t)(p >> (-s));
}

// Writes n digits of d (most significant first) to out.
static void put_digits(uint64_t d, int n, char *out) {
  for (int j = n - 1; j >= 0; j--) {
    out[j] = (char)('0' + d % 10);
    d /= 10;
  }
}

// snprintf's text, for the values the digits below do not cover.
static size_t printf_number(double v, char out[IO_NUMBER_SIZE]) {
  const int n = snprintf(out, IO_NUMBER_SIZE, IO_NUMBER_FORMAT, v);
  return n > 0 ? (size_t)n : 0;
}

size_t io_format_number(double v, char out[IO_NUMBER_SIZE]) {
  const double a = fabs(v);
  if (!(a >= DBL_MIN && a <= DBL_MAX)) return printf_number(v, out);  // 0, subnormal, inf, nan
  // a = m 2^e, m the 53-bit significand (a is normal here).
  uint64_t bits;
  memcpy(&bits, &a, sizeof bits);
  const int biased = (int)(bits >> 52);
  const uint64_t m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
  const int e = biased - 1075;
  // X, the decimal exponent of the leading digit, floor(log10 a): that of
  // 2^(biased - 1023) or one more, settled by the digits' range below.
  int x = (int)floor((biased - 1023) * 0.30102999566398120);
  uint64_t d = 0;
  int half = -2;
  for (int tries = 0;; tries++) {
    if (x < LEAD_MIN || x > LEAD_MAX || tries == 3) return printf_number(v, out);
    d = scaled(m, e, DIGITS - 1 - x, &half);
    if (d < TEN16) x--;
    else if (d >= TEN17) x++;
    else break;
  }
  // Half to even on the exact value (glibc's rounding of "%.17g").
  if (half == 1 || (half == 0 && (d & 1))) d++;
  if (d == TEN17) {
    d = TEN16;
    x++;
  }
  // %g: the trailing zeros of the digits go; e-style below 1e-4 and from
  // 1e17 on.
  char digits[DIGITS];
  put_digits(d, DIGITS, digits);
  int nd = DIGITS;
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  size_t n = 0;
  if (v < 0) out[n++] = '-';
  if (x < -4 || x >= DIGITS) {
    out[n++] = digits[0];
    if (nd > 1) {
      out[n++] = '.';
      memcpy(out + n, digits + 1, (size_t)(nd - 1));
      n += (size_t)(nd - 1);
    }
    out[n++] = 'e';
    out[n++] = x < 0 ? '-' : '+';
    const int ax = x < 0 ? -x : x;
    if (ax >= 100) out[n++] = (char)('0' + ax / 100);
    out[n++] = (char)('0' + ax / 10 % 10);
    out[n++] = (char)('0' + ax % 10);
  } else if (x < 0) {
    out[n++] = '0';
    out[n++] = '.';
    for (int j = 0; j < -x - 1; j++) out[n++] = '0';
    memcpy(out + n, digits, (size_t)nd);
    n += (size_t)nd;
  } else {
    const int whole = x + 1;  // digits before the point
    if (nd <= whole) {
      memcpy(out + n, digits, (size_t)whole);  // trailing zeros of the integer stay
      n += (size_t)whole;
    } else {
      memcpy(out + n, digits, (size_t)whole);
      n += (size_t)whole;
      out[n++] = '.';
      memcpy(out + n, digits + whole, (size_t)(nd - whole));
      n += (size_t)(nd - whole);
    }
  }
  out[n] = '\0';
  return n;
}
#else
size_t io_format_number(double v, char out[IO_NUMBER_SIZE]) {
  const int n = snprintf(out, IO_NUMBER_SIZE, IO_NUMBER_FORMAT, v);
  return n > 0 ? (size_t)n : 0;
}
#endif

void io_put_number(FILE *stream, double v) {
  char text[IO_NUMBER_SIZE];
  fwrite(text, 1, io_format_number(v, text), stream);
}
