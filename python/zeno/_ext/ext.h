// The C extension zeno._zeno over libzeno's public API (docs/python.md):
// what its files share. Python.h comes first, as CPython requires.
//
//   module.c    the module zeno._zeno: its functions, numpy helpers, timing hooks
//   common.c    errors, checked ints and Ctrl-C, shared with zeno._certify
//   scene.c     the Scene type: a zeno_scene loaded, validated and written
//   records.c   events, states and trajectory rows as numpy arrays
//   simulate.c  whole runs (GIL released) and the event iterator
//   analysis.c  check, maps and analyze as dicts of Python values and arrays
//   regions.c   region maps row by row (GIL released) into 2-D arrays
//   sweep.c     outcome sweeps row by row (GIL released) into 2-D arrays
//   certify.c   the module zeno._certify over libzeno-certify (CSDP, GMP),
//               imported by zeno.certify only, as the program loads it for
//               `zeno certify` only
//
// Every array handed to Python is allocated by numpy and filled by copying,
// so no array points into memory of the library.
#ifndef ZENO_PYTHON_EXT_H
#define ZENO_PYTHON_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL zeno_ext_ARRAY_API
#ifndef EXT_MODULE_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include <stdbool.h>

#include "zeno/zeno.h"

/* ---- errors (common.c) ------------------------------------------------------- */

/// Finds zeno.errors.from_c, which makes the exceptions; a module's init
/// calls it first. False with the Python error set.
bool ext_common_init(void);

/// Where an error comes from: loading or validating a scene (its values),
/// or a call on valid data (an argument, a time outside a run, ...).
typedef enum ext_context { EXT_SCENE, EXT_CALL } ext_context;

/// Raises the Python exception for a library error (zeno.errors.from_c
/// picks the class: SceneError, ArgumentError, MemoryError, ...). Returns
/// NULL.
PyObject *ext_raise(const zeno_error *error, ext_context context);

/// Raises MemoryError; returns NULL.
PyObject *ext_no_memory(void);

/// Raises the library's range error (ZENO_ERR_RANGE) for an argument the
/// library would refuse as the program does: `parameter` names it, the
/// message says the allowed range. Returns NULL.
PyObject *ext_range_error(const char *parameter, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- values ------------------------------------------------------------------ */

/// An int argument in [lo, hi]: TypeError for another type (bool too); the library's
/// range error naming `parameter` and the range for any int outside it,
/// however large (never OverflowError, never a value taken modulo 2^64).
/// `context` picks the class as for the library's errors (EXT_SCENE: a
/// scene value, SceneError).
bool ext_integer(PyObject *value, const char *parameter, long long lo, long long hi,
                 ext_context context, long long *out);

/// A Python float, None for NaN (what JSON writes as null).
PyObject *ext_float_or_none(double v);

/// Sets dict[key] = value and drops the reference to value; false (with the
/// Python error set) when value is NULL or the dict refuses it.
bool ext_put(PyObject *dict, const char *key, PyObject *value);

/// A new 1-D float64 array of v[0..n-1].
PyObject *ext_doubles(const double *v, size_t n);

/// A new array of the given dtype (a reference is taken) and shape, zeroed.
PyObject *ext_zeros(PyArray_Descr *dtype, int ndim, const npy_intp *shape);

/// Copies ASCII text into a numpy unicode field of n characters
/// (zero-padded, cut at n).
void ext_put_text(Py_UCS4 *dst, size_t n, const char *text);

/// A new 1-D unicode array of the strings texts[0..n-1] (stride bytes
/// apart), as wide as the longest.
PyObject *ext_texts(const char *texts, size_t n, size_t stride);

/// The string of row k of a column (ext_texts_by).
typedef const char *(*ext_text_at)(const void *context, size_t k);

/// A new 1-D unicode array of the n strings at(context, k), as wide as the
/// longest.
PyObject *ext_texts_by(size_t n, ext_text_at at, const void *context);

/// Converts a Python sequence of str into a new array of `*count` UTF-8
/// strings (free with ext_strings_free); NULL with the error set.
char **ext_strings(PyObject *sequence, size_t *count);
void ext_strings_free(char **strings, size_t count);

/// A scene's text and its overrides as C strings, for the library's calls
/// that load a scene per grid point or setting (ext_source_free frees
/// them; `text` is the Python string's own).
typedef struct ext_source {
  const char *text;
  char **overrides;
  size_t count;
} ext_source;

/// Fills *source from a str and a sequence of str; false with the error
/// set (nothing to free then).
bool ext_source_of(PyObject *text, PyObject *override_list, ext_source *source);
void ext_source_free(ext_source *source);

/* ---- the Scene type (scene.c) ------------------------------------------------- */

typedef struct ext_scene {
  PyObject_HEAD zeno_scene scene;
} ext_scene;

extern PyTypeObject ext_scene_type;

/// The zeno_scene of a Scene object; NULL with TypeError for anything else.
const zeno_scene *ext_scene_of(PyObject *object);

PyObject *ext_scene_load(PyObject *module, PyObject *args);
PyObject *ext_scene_load_string(PyObject *module, PyObject *args);

/* ---- records (records.c) ------------------------------------------------------ */

/// The dtypes of one- and two-contact events and states (EVENT_DTYPE,
/// STATE_DTYPE; built by ext_records_init).
extern PyArray_Descr *ext_event_dtype, *ext_state_dtype;

/// Builds the two-contact record dtypes; false with the Python error set.
bool ext_records_init(void);

/// The contacts a record of a scene of `contact_count` (1..ZENO_MAX_CONTACTS)
/// holds: the count, but 2 for one contact (one- and two-contact runs share
/// EVENT_DTYPE and STATE_DTYPE).
int ext_record_width(int contact_count);

/// event_dtype(n), state_dtype(n) -> numpy.dtype: the records of a scene
/// of n contacts (1..ZENO_MAX_CONTACTS; the library's range error naming
/// "contacts" otherwise), built once per width.
PyObject *ext_event_dtype_of(PyObject *module, PyObject *arg);
PyObject *ext_state_dtype_of(PyObject *module, PyObject *arg);

/// A new structured array of n events (the dtype of the contact count),
/// stride bytes apart; NULL with the Python error set.
PyObject *ext_event_array(const zeno_event *events, size_t n, size_t stride, int contact_count);

/// A new list of the names of modes[0..n-1] ("PF").
PyObject *ext_modes(const zeno_mode *modes, size_t n, int contact_count);

/// A new 0-d structured array of one state (the dtype of the contact count).
PyObject *ext_state_array(const zeno_state *state, int contact_count);

/// Most float columns of a trajectory row (t, 3 + 3 pose, 3 + 3 q', a
/// force pair per contact).
#define TRAJECTORY_FLOATS_MAX (1 + 4 * 3 + 2 * ZENO_MAX_CONTACTS)

/// The rows of a recorded run as a dict: "values" (float64, one row per
/// float column of trajectory.csv, its header `header`, the run's
/// zeno_io_trajectory_columns_of()), "mode", "kind" ("sample", "before",
/// "after") and "event" (the index of the event a row leads to or belongs
/// to), as the rows carry them; "columns", the names of the rows of
/// "values", and "header", every column of trajectory.csv in order.
PyObject *ext_trajectory(const zeno_run_dir_data *data, const char *header);

/// The float column names of trajectory.csv for a contact count (1 or 2),
/// in order, as a tuple of str.
PyObject *ext_trajectory_columns(int contact_count);

/* ---- simulation (simulate.c) -------------------------------------------------- */

extern PyTypeObject ext_simulator_type;
/// A finished run kept for its trajectory (simulate()'s "history").
extern PyTypeObject ext_history_type;

PyObject *ext_simulate(PyObject *module, PyObject *args, PyObject *kwargs);

/// Seconds per run of the C work of simulate() (the run, and with
/// `trajectory` the recording of its rows), without the conversion to
/// Python: the best of `repeats` runs.
bool ext_time_simulate_core(const zeno_scene *scene, bool trajectory, int repeats, double *seconds);

/* ---- analysis (analysis.c, regions.c) ------------------------------------------ */

PyObject *ext_check(PyObject *module, PyObject *args);
PyObject *ext_contact_set_json(PyObject *module, PyObject *args);
/// scene_warnings(scene) -> [(kind, key, message)]: zeno_scene_warnings().
PyObject *ext_scene_warnings(PyObject *module, PyObject *args);
PyObject *ext_zod_names(PyObject *module, PyObject *args);
PyObject *ext_maps(PyObject *module, PyObject *args);
PyObject *ext_analyze(PyObject *module, PyObject *args);
PyObject *ext_regions(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *ext_sweep(PyObject *module, PyObject *args, PyObject *kwargs);

/// The maps as a dict of arrays and values (shared by maps and analyze).
PyObject *ext_maps_dict(const zeno_maps *maps);

/// The values of an axis as a new 1-D float64 array (regions.c).
PyObject *ext_axis_values(const zeno_region_axis *axis);

/// Parses an axis "PATH=LO:HI:N" as the command line does; false with the
/// error set.
bool ext_parse_axis(const char *text, zeno_region_axis *axis);

/// A new (ny, nx) array of one numeric field (`size` bytes at `offset`,
/// numpy type `type`) of ny * nx points `stride` bytes apart (regions.c).
PyObject *ext_field_grid(const void *points, size_t stride, npy_intp ny, npy_intp nx, int type,
                         size_t offset, size_t size);

/// A 1-D array of ny * nx items reshaped to (ny, nx); the reference to
/// `flat` is dropped (NULL passes through).
PyObject *ext_grid_shape(PyObject *flat, npy_intp ny, npy_intp nx);

/// Monotonic clock [s].
double ext_now(void);

/* ---- Ctrl-C during a long call (common.c) ---------------------------------------- */

/// A long call's link to Python's signal handlers. The call runs without
/// the GIL; the library asks ext_interrupt_of()'s question on the calling
/// thread (zeno/interrupt.h), which takes the GIL back at most every
/// EXT_SIGNAL_PERIOD seconds, just long enough for PyErr_CheckSignals():
/// a handler that raises (Ctrl-C: KeyboardInterrupt) stops the call.
typedef struct ext_interrupt {
  PyThreadState *thread;  ///< the caller's, while the GIL is released; NULL otherwise
  double next_look;       ///< clock time of the next look at the signals [s]
  bool raised;            ///< a handler raised: the call stops (stays true until released again)
} ext_interrupt;

/// Seconds between two looks at the signals: well inside the 0.5 s a
/// Ctrl-C is promised in (docs/python.md), and rare enough that taking the
/// GIL (a few microseconds, up to the switch interval when other Python
/// threads run) costs nothing measurable.
#define EXT_SIGNAL_PERIOD 0.01

/// The library's interrupt over x, for a call's settings.
zeno_interrupt ext_interrupt_of(ext_interrupt *x);

/// Releases the GIL for a long call that x may stop (x->raised cleared).
void ext_release(ext_interrupt *x);

/// Takes the GIL back after the call; false when a signal handler raised
/// meanwhile: its exception is set, the call's result is to be dropped and
/// NULL returned.
bool ext_acquire(ext_interrupt *x);

/// One row of a grid (zeno_regions_row, zeno_sweep_row): the row's points
/// into `row`.
typedef zeno_status (*ext_row_fn)(const void *map, size_t iy, int threads, void *row,
                                  zeno_error *error);

/// Every row of an nx by ny grid of points `point_size` bytes each, each
/// row without the GIL (common.c); false with the error set (a row's
/// error, or KeyboardInterrupt: `stop`, the map's interrupt, is asked
/// within the rows).
bool ext_grid_rows(const void *map, ext_row_fn row, size_t nx, size_t ny, size_t point_size,
                   int threads, ext_interrupt *stop, void *grid);

#endif
