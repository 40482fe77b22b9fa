// Replays a fuzz corpus through a harness without libFuzzer (any compiler):
// each argument is a file or a directory whose regular files are fed, in
// name order, to LLVMFuzzerTestOneInput(). The harness aborts on a broken
// invariant, so a clean exit means every input passed. Prints the count.
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/// Largest corpus file replayed: tools/fuzz's -max_len, the most a scene
/// may hold (ZENO_SCENE_MAX_BYTES, 1 MB).
#define REPLAY_MAX_BYTES (1 << 20)
/// Room for a corpus path.
#define REPLAY_PATH_LEN 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return -1;
  }
  // One byte more than the limit tells a file of exactly the limit (read
  // whole) from a longer one.
  uint8_t *data = malloc(REPLAY_MAX_BYTES + 1);
  if (data == NULL) {
    fclose(f);
    return -1;
  }
  const size_t size = fread(data, 1, REPLAY_MAX_BYTES + 1, f);
  const int bad = ferror(f);
  fclose(f);
  if (bad || size > REPLAY_MAX_BYTES) {
    if (bad) fprintf(stderr, "replay: cannot read %s\n", path);
    else
      fprintf(stderr, "replay: %s holds more than %d bytes (tools/fuzz's -max_len)\n", path,
              REPLAY_MAX_BYTES);
    free(data);
    return -1;
  }
  // An exact-size copy, so ASan sees reads past the input's end.
  uint8_t *exact = malloc(size ? size : 1);
  if (exact != NULL) {
    memcpy(exact, data, size);
    LLVMFuzzerTestOneInput(exact, size);
  }
  free(exact);
  free(data);
  return exact ? 1 : -1;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

// Replays the regular files of a directory; returns the count or -1.
static int replay_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d == NULL) return -1;
  char **names = NULL;
  int n = 0, cap = 0, done = 0;
  for (struct dirent *ent; (ent = readdir(d)) != NULL;) {
    if (ent->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      char **grown = realloc(names, (size_t)cap * sizeof *names);
      if (grown == NULL) break;
      names = grown;
    }
    if ((names[n] = strdup(ent->d_name)) == NULL) break;
    n++;
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, by_name);
  for (int i = 0; i < n; i++) {
    char path[REPLAY_PATH_LEN];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (done >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      const int r = replay_file(path);
      done = r < 0 ? -1 : done + r;
    }
    free(names[i]);
  }
  free(names);
  return done;
}

int main(int argc, char **argv) {
  long total = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
      return 1;
    }
    const int r = S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]);
    if (r < 0) return 1;
    total += r;
  }
  printf("replayed %ld inputs\n", total);
  return total > 0 ? 0 : 1;
}
