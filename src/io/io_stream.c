// The writers' view of a stream (io_stream.h): its sticky error indicator
// as a zeno_status with the system's reason.
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
