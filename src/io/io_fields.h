// Reading CSV rows field by field: the tables zeno writes and reads back
// when a sweep resumes from its journal (region maps, outcome sweeps). Not
// public API.
#ifndef ZENO_IO_IO_FIELDS_H
#define ZENO_IO_IO_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "zeno/regions.h"

/// Longest field accepted (an error message is the longest).
#define IO_FIELD_SIZE ZENO_REGION_ERROR_SIZE

/// A row being read: where the next field starts (NULL after the last),
/// the 1-based column of the field read last, and its text.
typedef struct io_field_reader {
  const char *next;
  int column;
  char text[IO_FIELD_SIZE];
} io_field_reader;

/// Copies the next comma-separated field into r->text; false at the end of
/// the line or for an over-long field.
bool io_next_field(io_field_reader *r);

/// A number (strtod: "nan" and "inf" included).
bool io_read_double(io_field_reader *r, double *v);

/// A number, or an empty field read as NaN.
bool io_read_optional_double(io_field_reader *r, double *v);

/// A decimal int.
bool io_read_int(io_field_reader *r, int *v);

/// A decimal long.
bool io_read_long(io_field_reader *r, long *v);

/// A non-negative count or index (at most 1e9).
bool io_read_size(io_field_reader *r, size_t *v);

/// A text field: plain, or quoted with quotes doubled. `last`: the line
/// ends after it.
bool io_read_text(io_field_reader *r, char *out, size_t size, bool last);

#endif
