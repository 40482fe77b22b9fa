/// @file error.h
/// Status codes and the caller-owned error record of zeno.
///
/// Every fallible function returns a zeno_status and, when given a non-NULL
/// zeno_error, fills it with a message that names the file, line and column
/// (for scene files) or the parameter and its allowed range (for values).
/// The library never prints and never exits.
#ifndef ZENO_ERROR_H
#define ZENO_ERROR_H

#include <stddef.h>
#include "zeno/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of a zeno call.
typedef enum zeno_status {
  ZENO_OK = 0,           ///< success
  ZENO_DONE,             ///< iteration finished: no more events
  ZENO_ERR_IO,           ///< a file could not be opened or read
  ZENO_ERR_SYNTAX,       ///< malformed YAML or malformed --set expression
  ZENO_ERR_UNKNOWN_KEY,  ///< a key the scene schema does not know
  ZENO_ERR_MISSING,      ///< a required key is absent
  ZENO_ERR_TYPE,         ///< a value of the wrong type (e.g. text for a number)
  ZENO_ERR_RANGE,        ///< a number outside its allowed range, NaN or Inf
  ZENO_ERR_GEOMETRY,     ///< contacts coincide, or a contact is off its surface
  ZENO_ERR_ARGUMENT,     ///< invalid argument to an API function
  ZENO_ERR_NOMEM,        ///< out of memory
  ZENO_ERR_SINGULAR,     ///< a linear system has no unique solution
  ZENO_ERR_UNSUPPORTED,  ///< a valid request this build cannot serve
  ZENO_ERR_INTERRUPTED   ///< the caller's interrupt stopped the call (zeno/interrupt.h)
} zeno_status;

/// Error details; owned by the caller, filled by the library.
typedef struct zeno_error {
  zeno_status code;     ///< same as the returned status
  char message[512];    ///< one line, no trailing newline
  char file[256];       ///< scene file, "" when not from a file
  int line;             ///< 1-based line in file, 0 when unknown
  int column;           ///< 1-based column in file, 0 when unknown
  char parameter[128];  ///< dotted scene path of the offending value, or ""
} zeno_error;

/// Stable lower-case name of a status (e.g. "range").
ZENO_API const char *zeno_status_name(zeno_status status);

/// Formats an error as one line: "file:line:column: parameter: message" when
/// a file position is known, "parameter: message" when only a parameter is,
/// else the message. An error from a `--set` override (file "--set", line 0)
/// is its message alone: "--set KEY=VALUE: message", which already names the
/// override and the parameter. Returns the number of characters that would be
/// written.
ZENO_API size_t zeno_error_format(const zeno_error *error, char *buffer, size_t size);

/// Clears an error record (code ZENO_OK, empty strings). NULL is accepted.
ZENO_API void zeno_error_clear(zeno_error *error);

/// The one of `names` that `word` most likely misspells, for "did you mean"
/// hints: the unique name at the smallest edit distance (insertions,
/// deletions, substitutions and swaps of neighbours, each 1), when that
/// distance is at most ZENO_SUGGEST_MAX_EDITS and at most a third of the
/// word's length (rounded up); NULL otherwise, and for an exact match.
ZENO_API const char *zeno_closest_name(const char *word, const char *const *names, size_t count);

/// Most edits a suggestion may be away from the word typed.
#define ZENO_SUGGEST_MAX_EDITS 2

#ifdef __cplusplus
}
#endif
#endif
