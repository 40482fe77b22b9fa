// What both extensions of the package share (zeno._zeno and
// zeno._certify): the conversion of library errors into the exceptions of
// zeno.errors, checked integer arguments, small dict helpers and the link
// to Python's signal handlers during a long call (Ctrl-C). Nothing here
// uses numpy, so _certify, which returns plain Python values, links it
// without numpy's C API.
#include "ext.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// zeno.errors.from_c, which builds the exception of a library error.
static PyObject *error_factory;

bool ext_common_init(void) {
  PyObject *errors = PyImport_ImportModule("zeno.errors");
  if (errors == NULL) return false;
  error_factory = PyObject_GetAttrString(errors, "from_c");
  Py_DECREF(errors);
  return error_factory != NULL;
}

/* ---- errors --------------------------------------------------------------- */

PyObject *ext_raise(const zeno_error *e, ext_context context) {
  char line[1024];
  zeno_error_format(e, line, sizeof line);
  PyObject *exc = PyObject_CallFunction(error_factory, "sssiisss", zeno_status_name(e->code),
                                        e->message, e->file, e->line, e->column, e->parameter, line,
                                        context == EXT_SCENE ? "scene" : "call");
  if (exc != NULL) {
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
  }
  return NULL;
}

PyObject *ext_no_memory(void) { return PyErr_NoMemory(); }

/// ext_range_error() in a context.
static PyObject *range_error(ext_context context, const char *parameter, const char *fmt,
                             va_list args) {
  zeno_error e;
  zeno_error_clear(&e);
  e.code = ZENO_ERR_RANGE;
  snprintf(e.parameter, sizeof e.parameter, "%s", parameter);
  vsnprintf(e.message, sizeof e.message, fmt, args);
  return ext_raise(&e, context);
}

PyObject *ext_range_error(const char *parameter, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  range_error(EXT_CALL, parameter, fmt, args);
  va_end(args);
  return NULL;
}

/// range_error() with its arguments.
static PyObject *range_error_in(ext_context context, const char *parameter, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static PyObject *range_error_in(ext_context context, const char *parameter, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  range_error(context, parameter, fmt, args);
  va_end(args);
  return NULL;
}

/* ---- values ------------------------------------------------------------------ */

bool ext_integer(PyObject *value, const char *parameter, long long lo, long long hi,
                 ext_context context, long long *out) {
  if (!PyLong_Check(value) || PyBool_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s must be an int, got %s", parameter, Py_TYPE(value)->tp_name);
    return false;
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (v == -1 && overflow == 0 && PyErr_Occurred()) return false;
  if (overflow == 0 && v >= lo && v <= hi) {
    *out = v;
    return true;
  }
  PyObject *text = PyObject_Str(value);
  const char *digits = text ? PyUnicode_AsUTF8(text) : NULL;
  if (digits != NULL)
    range_error_in(context, parameter, "value %.40s%s out of range; allowed [%lld, %lld]", digits,
                   strlen(digits) > 40 ? "..." : "", lo, hi);
  Py_XDECREF(text);
  return false;
}

PyObject *ext_float_or_none(double v) {
  if (isnan(v)) Py_RETURN_NONE;
  return PyFloat_FromDouble(v);
}

bool ext_put(PyObject *dict, const char *key, PyObject *value) {
  if (value == NULL) return false;
  const int failed = PyDict_SetItemString(dict, key, value);
  Py_DECREF(value);
  return failed == 0;
}

void ext_strings_free(char **strings, size_t count) {
  for (size_t i = 0; strings != NULL && i < count; i++) free(strings[i]);
  free(strings);
}

char **ext_strings(PyObject *sequence, size_t *count) {
  PyObject *items = PySequence_Fast(sequence, "expected a sequence of str");
  if (items == NULL) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
  char **out = calloc((size_t)n + 1, sizeof *out);
  if (out == NULL) {
    Py_DECREF(items);
    return (char **)ext_no_memory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(items, i);
    const char *text = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
    if (text == NULL) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "expected a sequence of str");
      ext_strings_free(out, (size_t)n);
      Py_DECREF(items);
      return NULL;
    }
    out[i] = strdup(text);
    if (out[i] == NULL) {
      ext_strings_free(out, (size_t)n);
      Py_DECREF(items);
      return (char **)ext_no_memory();
    }
  }
  Py_DECREF(items);
  *count = (size_t)n;
  return out;
}

bool ext_source_of(PyObject *text, PyObject *override_list, ext_source *source) {
  source->overrides = NULL;
  source->count = 0;
  source->text = PyUnicode_AsUTF8(text);
  if (source->text == NULL) return false;
  source->overrides = ext_strings(override_list, &source->count);
  return source->overrides != NULL;
}

void ext_source_free(ext_source *source) {
  ext_strings_free(source->overrides, source->count);
  source->overrides = NULL;
  source->count = 0;
}

bool ext_grid_rows(const void *map, ext_row_fn row, size_t nx, size_t ny, size_t point_size,
                   int threads, ext_interrupt *stop, void *grid) {
  for (size_t iy = 0; iy < ny; iy++) {
    zeno_error e;
    ext_release(stop);
    const zeno_status st = row(map, iy, threads, (char *)grid + iy * nx * point_size, &e);
    if (!ext_acquire(stop)) return false;
    if (st != ZENO_OK) {
      ext_raise(&e, e.code == ZENO_ERR_NOMEM ? EXT_CALL : EXT_SCENE);
      return false;
    }
  }
  return true;
}

double ext_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Ctrl-C during a long call -------------------------------------------------- */

/// The library's question (zeno/interrupt.h), on the thread of the call.
static bool signals_raised(void *user) {
  ext_interrupt *x = user;
  if (x->raised) return true;
  const double now = ext_now();
  if (now < x->next_look) return false;
  x->next_look = now + EXT_SIGNAL_PERIOD;
  if (x->thread == NULL) return x->raised = PyErr_CheckSignals() < 0;  // the GIL is held
  PyEval_RestoreThread(x->thread);
  x->raised = PyErr_CheckSignals() < 0;
  x->thread = PyEval_SaveThread();
  return x->raised;
}

zeno_interrupt ext_interrupt_of(ext_interrupt *x) {
  const zeno_interrupt i = {signals_raised, x};
  return i;
}

void ext_release(ext_interrupt *x) {
  x->raised = false;
  x->next_look = ext_now() + EXT_SIGNAL_PERIOD;
  x->thread = PyEval_SaveThread();
}

bool ext_acquire(ext_interrupt *x) {
  PyEval_RestoreThread(x->thread);
  x->thread = NULL;
  return !x->raised;
}
