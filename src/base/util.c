// Internal helpers of every layer (util.h): filling an error record, the
// small dense solve, and the C-locale scope of number parsing.
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/// Stands for a control character (a newline, a tab, ...) of user text
/// quoted in an error, so that every error stays on one printable line.
#define CONTROL_STAND_IN '?'

static void one_line(char *text) {
  for (unsigned char *p = (unsigned char *)text; *p; p++)
    if (*p < 0x20 || *p == 0x7f) *p = CONTROL_STAND_IN;
}

static void fill(zeno_error *e, zeno_status code, const char *file, int line, int column,
                 const char *parameter, const char *fmt, va_list ap) {
  if (e == NULL) return;
  memset(e, 0, sizeof *e);
  e->code = code;
  if (file) snprintf(e->file, sizeof e->file, "%s", file);
  e->line = line;
  e->column = column;
  if (parameter) snprintf(e->parameter, sizeof e->parameter, "%s", parameter);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  // Scene text and file names can hold any byte; messages are one line.
  one_line(e->file);
  one_line(e->parameter);
  one_line(e->message);
}

zeno_status zeno_fail(zeno_error *e, zeno_status code, const char *parameter, const char *fmt,
                      ...) {
  va_list ap;
  va_start(ap, fmt);
  fill(e, code, NULL, 0, 0, parameter, fmt, ap);
  va_end(ap);
  return code;
}

zeno_status zeno_fail_at(zeno_error *e, zeno_status code, const char *file, int line, int column,
                         const char *parameter, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fill(e, code, file, line, column, parameter, fmt, ap);
  va_end(ap);
  return code;
}

bool zeno_linsolve(int n, double *A, double *b, double rel_pivot_tol) {
  double amax = 0;
  for (int i = 0; i < n * n; i++)  // as fmax(): a NaN entry is passed over, then fails below
    if (fabs(A[i]) > amax) amax = fabs(A[i]);
  if (amax == 0 || !isfinite(amax)) return false;
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++)
      if (fabs(A[i * n + k]) > fabs(A[piv * n + k])) piv = i;
    if (fabs(A[piv * n + k]) <= rel_pivot_tol * amax) return false;
    if (piv != k) {
      for (int j = 0; j < n; j++) {
        double t = A[k * n + j];
        A[k * n + j] = A[piv * n + j];
        A[piv * n + j] = t;
      }
      double t = b[k];
      b[k] = b[piv];
      b[piv] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = A[i * n + k] / A[k * n + k];
      if (f == 0) continue;
      for (int j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= A[i * n + j] * b[j];
    b[i] = s / A[i * n + i];
  }
  return true;
}

void zeno_locale_enter(zeno_locale_scope *scope) {
  scope->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  scope->previous = scope->c_locale ? uselocale(scope->c_locale) : (locale_t)0;
}

void zeno_locale_leave(zeno_locale_scope *scope) {
  if (scope->c_locale == (locale_t)0) return;
  uselocale(scope->previous);
  freelocale(scope->c_locale);
}
