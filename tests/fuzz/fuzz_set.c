// libFuzzer harness of `--set` overrides: the input is NUL-separated pieces,
// the first the YAML scene text and each further one a "dotted.path=VALUE"
// override (at most FUZZ_MAX_OVERRIDES; the rest are ignored). Seeds:
// tests/fuzz/regress/set/. See tools/fuzz.
#include "fuzz_check.h"

/// More overrides than any command line in the tests uses; bounds the work
/// per input.
#define FUZZ_MAX_OVERRIDES 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (text == NULL) return 0;
  const char *overrides[FUZZ_MAX_OVERRIDES];
  size_t count = 0;
  const char *end = text + size;
  for (char *p = text + strlen(text); p < end && count < FUZZ_MAX_OVERRIDES; p += strlen(p)) {
    p++;  // skip the NUL separator
    overrides[count++] = p;
  }
  fuzz_load(text, overrides, count);
  free(text);
  return 0;
}
