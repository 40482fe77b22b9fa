// The writers' view of a stream (io_stream.h): its sticky error indicator
// as a zeno_status with the system's reason, and CSV text fields.
#include "io/io_stream.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

zeno_status io_stream_status(FILE *stream, zeno_error *error) {
  if (!ferror(stream)) return ZENO_OK;
  return zeno_fail(error, ZENO_ERR_IO, "", "write error on the output stream: %s",
                   errno ? strerror(errno) : "unknown reason");
}

zeno_status io_no_stream(zeno_error *error) {
  return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a stream and the data to write are required");
}

/// A CSV field: quoted, with quotes doubled, when it holds a comma, a quote
/// or a line break (RFC 4180).
void io_csv_text(FILE *f, const char *text) {
  if (strpbrk(text, ",\"\r\n") == NULL) {
    fputs(text, f);
    return;
  }
  fputc('"', f);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}
