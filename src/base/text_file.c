// Reading a whole text file of bounded size (zeno_read_text_file in
// util.h): scenes and a run directory's overrides are read this way, in
// chunks so that pipes work too, and never past their limit (/dev/zero
// ends with an error, not an exhausted memory). A NUL byte is refused: a
// reader of the text as a C string would stop there and silently drop the
// rest of the file.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/// Files are read in chunks of this size.
#define READ_CHUNK 4096
/// Room for one strerror text.
#define ERRNO_TEXT_LEN 128

static zeno_status io_error(zeno_error *error, const char *path, const char *what, int err) {
  char reason[ERRNO_TEXT_LEN];
  if (strerror_r(err, reason, sizeof reason) != 0) reason[0] = '\0';
  return zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "", "cannot %s '%s': %s", what, path, reason);
}

// Reads `f` to its end, or to one byte past max_bytes. *buffer is
// NUL-terminated; the caller frees it whatever the result.
static zeno_status read_stream(FILE *f, const char *path, size_t max_bytes, char **buffer,
                               size_t *length, zeno_error *error) {
  size_t got = 0;
  *length = 0;
  do {
    char *grown = realloc(*buffer, *length + READ_CHUNK + 1);
    if (grown == NULL)
      return zeno_fail_at(error, ZENO_ERR_NOMEM, path, 0, 0, "",
                          "out of memory while reading the file");
    *buffer = grown;
    got = fread(*buffer + *length, 1, READ_CHUNK, f);
    *length += got;
  } while (got == READ_CHUNK && *length <= max_bytes);
  if (ferror(f)) return io_error(error, path, "read", errno);
  if (*length > max_bytes)
    return zeno_fail_at(error, ZENO_ERR_RANGE, path, 0, 0, "",
                        "'%s' is larger than %zu bytes, the most this file may hold", path,
                        max_bytes);
  (*buffer)[*length] = '\0';
  const char *nul = memchr(*buffer, '\0', *length);
  if (nul != NULL) {
    int line = 1;
    const char *line_start = *buffer;
    for (const char *p = *buffer; p < nul; p++)
      if (*p == '\n') line++, line_start = p + 1;
    return zeno_fail_at(error, ZENO_ERR_SYNTAX, path, line, (int)(nul - line_start) + 1, "",
                        "a NUL byte: '%s' is not a text file", path);
  }
  return ZENO_OK;
}

zeno_status zeno_read_text_stream(FILE *stream, const char *name, size_t max_bytes, char **text,
                                  size_t *length, zeno_error *error) {
  if (stream == NULL || name == NULL || text == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a stream and its name are required");
  *text = NULL;
  size_t n = 0;
  const zeno_status st = read_stream(stream, name, max_bytes, text, &n, error);
  if (st != ZENO_OK) {
    free(*text);
    *text = NULL;
  }
  if (length) *length = st == ZENO_OK ? n : 0;
  return st;
}

zeno_status zeno_read_text_file(const char *path, size_t max_bytes, char **text, size_t *length,
                                zeno_error *error) {
  if (path == NULL || text == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a file path is required");
  *text = NULL;
  if (length) *length = 0;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return io_error(error, path, "open", errno);
  const zeno_status st = zeno_read_text_stream(f, path, max_bytes, text, length, error);
  fclose(f);
  return st;
}
