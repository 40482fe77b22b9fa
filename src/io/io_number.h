// Numbers as the io writers print them: IO_NUMBER_FORMAT ("%.17g", every
// double round-trips) made without printf for the values a run, a map or a
// region table holds (|v| from 1e-16 to 1e17; others through snprintf),
// the same text to the last character in the C locale (the decimal point
// is always '.', as CSV and JSON want; the library sets no locale). Not
// public API.
#ifndef ZENO_IO_IO_NUMBER_H
#define ZENO_IO_IO_NUMBER_H

#include <stddef.h>
#include <stdio.h>

/// Room for a number's text, terminator included ("-1.2345678901234567e-308").
#define IO_NUMBER_SIZE 32

/// Writes snprintf(out, IO_NUMBER_SIZE, "%.17g", v)'s text to out; returns
/// its length.
size_t io_format_number(double v, char out[IO_NUMBER_SIZE]);

/// Writes the number's text to the stream (its error indicator keeps a
/// failure).
void io_put_number(FILE *stream, double v);

#endif
