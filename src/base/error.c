// Status names and the caller-owned error record (zeno/error.h): one-line
// formatting of an error with its file position or parameter, and clearing.
#include "zeno/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

const char *zeno_status_name(zeno_status s) {
  switch (s) {
    case ZENO_OK: return "ok";
    case ZENO_DONE: return "done";
    case ZENO_ERR_IO: return "io";
    case ZENO_ERR_SYNTAX: return "syntax";
    case ZENO_ERR_UNKNOWN_KEY: return "unknown-key";
    case ZENO_ERR_MISSING: return "missing";
    case ZENO_ERR_TYPE: return "type";
    case ZENO_ERR_RANGE: return "range";
    case ZENO_ERR_GEOMETRY: return "geometry";
    case ZENO_ERR_ARGUMENT: return "argument";
    case ZENO_ERR_NOMEM: return "nomem";
    case ZENO_ERR_SINGULAR: return "singular";
    case ZENO_ERR_UNSUPPORTED: return "unsupported";
  }
  return "unknown";
}

// An override error's message already starts with "--set <override>: " and
// names the parameter; file and parameter in front would repeat both.
static bool is_override_error(const zeno_error *e) {
  return e->line == 0 && strcmp(e->file, ZENO_OVERRIDE_FILE) == 0;
}

// snprintf's count as a size (an output error counts as nothing written).
static size_t written(int n) { return n < 0 ? 0 : (size_t)n; }

size_t zeno_error_format(const zeno_error *e, char *buf, size_t n) {
  if (e == NULL) return written(snprintf(buf, n, "no error"));
  if (is_override_error(e)) return written(snprintf(buf, n, "%s", e->message));
  if (e->file[0] && e->line > 0)
    return written(snprintf(buf, n, "%s:%d:%d: %s%s%s", e->file, e->line,
                            e->column, e->parameter[0] ? e->parameter : "",
                            e->parameter[0] ? ": " : "", e->message));
  if (e->file[0])
    return written(snprintf(buf, n, "%s: %s%s%s", e->file,
                            e->parameter[0] ? e->parameter : "",
                            e->parameter[0] ? ": " : "", e->message));
  if (e->parameter[0])
    return written(snprintf(buf, n, "%s: %s", e->parameter, e->message));
  return written(snprintf(buf, n, "%s", e->message));
}

void zeno_error_clear(zeno_error *e) {
  if (e) memset(e, 0, sizeof *e);
}
