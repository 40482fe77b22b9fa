// Shared by the writers of the io folder: the number format and the
// stream's error indicator as a zeno_status. Not public API.
#ifndef ZENO_IO_IO_STREAM_H
#define ZENO_IO_IO_STREAM_H

#include <stdio.h>

#include "zeno/error.h"

/// printf format that round-trips every double (DBL_DECIMAL_DIG digits).
#define IO_NUMBER_FORMAT "%.17g"

/// ZENO_OK, or ZENO_ERR_IO (error filled with the system's reason) when the
/// stream's error indicator is set.
zeno_status io_stream_status(FILE *stream, zeno_error *error);

/// ZENO_ERR_ARGUMENT for a writer called without a stream or its data.
zeno_status io_no_stream(zeno_error *error);

/// Writes a CSV text field: as it is, or quoted with quotes doubled when it
/// holds a comma, a quote or a line break (RFC 4180).
void io_csv_text(FILE *stream, const char *text);

#endif
