// Internal helpers shared by the library's files: error filling, small
// dense linear algebra, the C-locale scope of number parsing (util.c) and
// reading a whole file (text_file.c). Not part of the public API.
#ifndef ZENO_BASE_UTIL_H
#define ZENO_BASE_UTIL_H

#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "zeno/error.h"
#include "zeno/interrupt.h"

/// File name of errors raised inside a `--set` override. They have line 0,
/// and their message starts with "--set <the override>: ".
#define ZENO_OVERRIDE_FILE "--set"

/// Fills *e (when non-NULL) with code, parameter and a printf message and
/// returns code. file/line/column are left empty.
zeno_status zeno_fail(zeno_error *e, zeno_status code, const char *parameter, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/// Same with a file position.
zeno_status zeno_fail_at(zeno_error *e, zeno_status code, const char *file, int line, int column,
                         const char *parameter, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/// Asks the caller's interrupt (NULL or one without a question: never):
/// ZENO_ERR_INTERRUPTED with *e filled ("interrupted") when it says stop,
/// else ZENO_OK with *e untouched (base/interrupt.c).
zeno_status zeno_interrupt_check(const zeno_interrupt *interrupt, zeno_error *e);

/// Relative pivot below which a small dense system (3x3, 4x4) of contact
/// geometry counts as singular: regular geometries have pivots above about
/// 1e-3 of the largest entry; 1e-12 flags only true degeneracy.
#define ZENO_PIVOT_RTOL 1e-12

/// Solves A x = b in place for an n x n row-major matrix (any n; used up
/// to 10, the LP vertex refinement) by
/// Gaussian elimination with partial pivoting. A pivot below
/// rel_pivot_tol times the largest entry of A means singular: returns false.
bool zeno_linsolve(int n, double *A, double *b, double rel_pivot_tol);

/// One function a loaded library must have, and where its address goes.
typedef struct zeno_dl_symbol {
  const char *name;
  void **slot;
} zeno_dl_symbol;

/// A library loaded on first use, as its errors name it.
typedef struct zeno_dl_library {
  const char *name;       ///< e.g. "GLPK"
  const char *role;       ///< what it does for zeno, e.g. "the linear-programming library"
  const char *package;    ///< the Debian package that installs it
  const char *parameter;  ///< zeno_error.parameter of a failure ("" for none)
} zeno_dl_library;

/// Loads the shared library `soname` (dlopen; it stays loaded) and each
/// symbol into its slot. On failure every slot is NULL and the error
/// (ZENO_ERR_UNSUPPORTED) names the library, the loader's reason and the
/// package to install, or the missing function.
zeno_status zeno_dl_load(const char *soname, const zeno_dl_symbol *symbols, size_t count,
                         const zeno_dl_library *library, zeno_error *e);

/// Numbers in scene files and sweep axes use '.' whatever locale the caller
/// set, so parsing runs in the C locale on this thread only (uselocale is
/// per thread, so concurrent sweeps do not disturb each other).
typedef struct zeno_locale_scope {
  locale_t c_locale;
  locale_t previous;
} zeno_locale_scope;

/// Switches this thread to the C locale until zeno_locale_leave().
void zeno_locale_enter(zeno_locale_scope *scope);
/// Restores the thread's previous locale.
void zeno_locale_leave(zeno_locale_scope *scope);

/// Reads a whole file of at most max_bytes bytes into *text (NUL-terminated,
/// owned by the caller; NULL on failure) and its length into *length (may
/// be NULL). Errors name the file: ZENO_ERR_IO with the system's reason,
/// ZENO_ERR_RANGE for a larger file, ZENO_ERR_NOMEM (base/text_file.c).
zeno_status zeno_read_text_file(const char *path, size_t max_bytes, char **text, size_t *length,
                                zeno_error *error);

/// The same from an open stream (read to its end, not closed), named
/// `name` in errors.
zeno_status zeno_read_text_stream(FILE *stream, const char *name, size_t max_bytes, char **text,
                                  size_t *length, zeno_error *error);

#endif
