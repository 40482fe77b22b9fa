// libFuzzer harness of the scene loader: the input is YAML scene text
// (bytes after a NUL are ignored, as zeno_scene_load_string() reads a C
// string). Seeds: scenes/*.yaml. See tools/fuzz.
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (text == NULL) return 0;
  fuzz_load(text, NULL, 0);
  free(text);
  return 0;
}
