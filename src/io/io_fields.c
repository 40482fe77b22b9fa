// Reading CSV rows field by field (io_fields.h).
#include "io/io_fields.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// Largest index or count a row may hold (far above any grid or map).
#define IO_SIZE_MAX 1000000000UL

bool io_next_field(io_field_reader *r) {
  r->column++;
  if (r->next == NULL) return false;
  const char *end = r->next + strcspn(r->next, ",\r\n");
  const size_t n = (size_t)(end - r->next);
  if (n >= sizeof r->text) return false;
  memcpy(r->text, r->next, n);
  r->text[n] = '\0';
  r->next = *end == ',' ? end + 1 : NULL;
  return true;
}

bool io_read_double(io_field_reader *r, double *v) {
  if (!io_next_field(r)) return false;
  char *end = NULL;
  errno = 0;
  *v = strtod(r->text, &end);
  return end != r->text && *end == '\0';
}

bool io_read_optional_double(io_field_reader *r, double *v) {
  if (r->next != NULL && (*r->next == ',' || *r->next == '\0' || *r->next == '\n')) {
    io_next_field(r);
    *v = NAN;
    return true;
  }
  return io_read_double(r, v);
}

bool io_read_long(io_field_reader *r, long *v) {
  if (!io_next_field(r)) return false;
  char *end = NULL;
  errno = 0;
  *v = strtol(r->text, &end, 10);
  return end != r->text && *end == '\0' && errno == 0;
}

bool io_read_int(io_field_reader *r, int *v) {
  long x;
  if (!io_read_long(r, &x) || x < -2147483647L || x > 2147483647L) return false;
  *v = (int)x;
  return true;
}

bool io_read_size(io_field_reader *r, size_t *v) {
  if (!io_next_field(r) || r->text[0] == '-') return false;
  char *end = NULL;
  errno = 0;
  const unsigned long x = strtoul(r->text, &end, 10);
  if (end == r->text || *end != '\0' || errno != 0 || x > IO_SIZE_MAX) return false;
  *v = (size_t)x;
  return true;
}

bool io_read_text(io_field_reader *r, char *out, size_t size, bool last) {
  r->column++;
  if (r->next == NULL) return false;
  const char *p = r->next;
  size_t n = 0;
  if (*p == '"') {
    for (p++; *p && !(p[0] == '"' && p[1] != '"'); p++) {
      if (p[0] == '"') p++;  // a doubled quote
      if (n + 1 >= size) return false;
      out[n++] = *p;
    }
    if (*p++ != '"') return false;
  } else {
    for (; *p && *p != ',' && *p != '"' && *p != '\r' && *p != '\n'; p++) {
      if (n + 1 >= size) return false;
      out[n++] = *p;
    }
  }
  out[n] = '\0';
  if (last) {
    r->next = NULL;
    return strspn(p, "\r\n") == strlen(p);
  }
  r->next = *p == ',' ? p + 1 : NULL;
  return *p == ',';
}
