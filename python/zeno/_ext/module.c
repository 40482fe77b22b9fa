// The module zeno._zeno: its function table, the numpy value helpers
// shared by the other files, and the timing hooks of tools/bench_python
// (errors and Ctrl-C: common.c).
#define EXT_MODULE_MAIN
#include "ext.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

PyObject *ext_doubles(const double *v, size_t n) {
  const npy_intp shape[1] = {(npy_intp)n};
  PyObject *a = PyArray_SimpleNew(1, shape, NPY_DOUBLE);
  if (a != NULL && n > 0) memcpy(PyArray_DATA((PyArrayObject *)a), v, n * sizeof *v);
  return a;
}

PyObject *ext_zeros(PyArray_Descr *dtype, int ndim, const npy_intp *shape) {
  Py_INCREF(dtype);  // PyArray_Zeros steals it
  return PyArray_Zeros(ndim, (npy_intp *)shape, dtype, 0);
}

void ext_put_text(Py_UCS4 *dst, size_t n, const char *text) {
  size_t i = 0;
  for (; text != NULL && text[i] != '\0' && i < n; i++) dst[i] = (unsigned char)text[i];
  for (; i < n; i++) dst[i] = 0;
}

static bool same_text(const char *a, const char *b) {
  while (*a != '\0' && *a == *b) {
    a++;
    b++;
  }
  return *a == *b;
}

PyObject *ext_texts_by(size_t n, ext_text_at at, const void *context) {
  // Rows repeat (a map's words change at its breakpoints only): the first
  // pass marks each row equal to the one before, the second writes the
  // first row of each run and copies it over the rest, doubling.
  unsigned char *repeat = PyMem_Malloc(n ? n : 1);
  if (repeat == NULL) return ext_no_memory();
  size_t width = 1;
  const char *before = NULL;
  for (size_t k = 0; k < n; k++) {
    const char *text = at(context, k);
    repeat[k] = before != NULL && same_text(text, before);
    if (!repeat[k]) {
      const size_t len = strlen(text);
      if (len > width) width = len;
    }
    before = text;
  }
  PyArray_Descr *dtype = PyArray_DescrNewFromType(NPY_UNICODE);
  PyObject *a = NULL;
  if (dtype != NULL) {
    dtype->elsize = (int)(width * sizeof(Py_UCS4));
    const npy_intp shape[1] = {(npy_intp)n};
    // Every row is written whole below (its tail zeroed): no zero fill first.
    a = PyArray_Empty(1, (npy_intp *)shape, dtype, 0);  // steals dtype
  }
  if (a != NULL) {
    Py_UCS4 *rows = PyArray_DATA((PyArrayObject *)a);
    for (size_t k = 0, end; k < n; k = end) {
      ext_put_text(rows + k * width, width, at(context, k));
      for (end = k + 1; end < n && repeat[end]; end++) continue;
      for (size_t done = 1; k + done < end;) {
        const size_t copy = done < end - k - done ? done : end - k - done;
        memcpy(rows + (k + done) * width, rows + k * width, copy * width * sizeof *rows);
        done += copy;
      }
    }
  }
  PyMem_Free(repeat);
  return a;
}

typedef struct strided_texts {
  const char *texts;
  size_t stride;
} strided_texts;

static const char *strided_text(const void *context, size_t k) {
  const strided_texts *t = context;
  return t->texts + k * t->stride;
}

PyObject *ext_texts(const char *texts, size_t n, size_t stride) {
  const strided_texts t = {texts, stride};
  return ext_texts_by(n, strided_text, &t);
}

/* ---- timing hooks (tools/bench_python) ---------------------------------------- */

/// Best of `repeats` timings of the maps at `samples` samples [s].
static bool time_maps(const zeno_scene *scene, size_t samples, int repeats, double *best) {
  zeno_maps_def def = zeno_maps_def_default();
  def.samples = samples;
  *best = INFINITY;
  for (int i = 0; i < repeats; i++) {
    zeno_maps maps;
    const double start = ext_now();
    if (zeno_maps_compute(scene, &def, &maps, NULL) != ZENO_OK) return false;
    zeno_maps_free(&maps);
    *best = fmin(*best, ext_now() - start);
  }
  return true;
}

/// Best of `repeats` timings of zeno_run(), the call tools/bench_core times [s].
static bool time_run(const zeno_scene *scene, int repeats, double *best) {
  const zeno_sim_def def = zeno_sim_def_default();
  *best = INFINITY;
  for (int i = 0; i < repeats; i++) {
    zeno_summary summary;
    char word[256];
    const double start = ext_now();
    if (zeno_run(scene, &def, &summary, word, sizeof word, NULL) != ZENO_OK) return false;
    *best = fmin(*best, ext_now() - start);
  }
  return true;
}

/// time_core(kind, scene, repeats, samples=6000): the best time [s] of the
/// C work that zeno.simulate wraps (kind "simulate": the run and the
/// recording of its trajectory; "simulate-events": the run alone), of
/// zeno_run() ("run"), or of zeno_maps_compute() ("maps"), in this process.
static PyObject *time_core(PyObject *module, PyObject *args) {
  (void)module;
  const char *kind;
  PyObject *scene_object;
  int repeats;
  Py_ssize_t samples = 6000;
  if (!PyArg_ParseTuple(args, "sOi|n", &kind, &scene_object, &repeats, &samples)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  if (repeats < 1 || samples < 16) {
    PyErr_SetString(PyExc_ValueError, "repeats >= 1 and samples >= 16 are needed");
    return NULL;
  }
  bool ok = false;
  double seconds = 0;
  const bool maps = strcmp(kind, "maps") == 0, run = strcmp(kind, "run") == 0;
  const bool trajectory = strcmp(kind, "simulate") == 0;
  if (!maps && !run && !trajectory && strcmp(kind, "simulate-events") != 0) {
    PyErr_Format(PyExc_ValueError, "unknown kind '%s'", kind);
    return NULL;
  }
  Py_BEGIN_ALLOW_THREADS ok = maps  ? time_maps(scene, (size_t)samples, repeats, &seconds)
                              : run ? time_run(scene, repeats, &seconds)
                                    : ext_time_simulate_core(scene, trajectory, repeats, &seconds);
  Py_END_ALLOW_THREADS if (!ok) return ext_no_memory();
  return PyFloat_FromDouble(seconds);
}

/* ---- the module ---------------------------------------------------------------- */

static PyObject *version(PyObject *module, PyObject *unused) {
  (void)module;
  (void)unused;
  return PyUnicode_FromString(zeno_version());
}

static PyMethodDef METHODS[] = {
    {"version", version, METH_NOARGS, "The library's version."},
    {"scene_load", ext_scene_load, METH_VARARGS,
     "scene_load(path, overrides) -> Scene: zeno_scene_load()."},
    {"scene_load_string", ext_scene_load_string, METH_VARARGS,
     "scene_load_string(text, name, overrides) -> Scene: zeno_scene_load_string()."},
    {"simulate", (PyCFunction)(void (*)(void))ext_simulate, METH_VARARGS | METH_KEYWORDS,
     "simulate(scene, trajectory=True) -> dict: a whole run, recorded as the run "
     "directory records it."},
    {"event_dtype", ext_event_dtype_of, METH_O,
     "event_dtype(n) -> numpy.dtype: the event records of a scene of n contacts."},
    {"state_dtype", ext_state_dtype_of, METH_O,
     "state_dtype(n) -> numpy.dtype: the state records of a scene of n contacts."},
    {"check", ext_check, METH_VARARGS, "check(scene) -> dict: zeno_equilibrium_check()."},
    {"contact_set_json", ext_contact_set_json, METH_VARARGS,
     "contact_set_json(scene) -> str: zeno_contact_set_check() as `zeno check --json`."},
    {"scene_warnings", ext_scene_warnings, METH_VARARGS,
     "scene_warnings(scene) -> list of (kind, key, message): zeno_scene_warnings()."},
    {"zod_names", ext_zod_names, METH_VARARGS,
     "zod_names(scene) -> (str, str, str): zeno_scene_zod_names()."},
    {"maps", ext_maps, METH_VARARGS, "maps(scene, samples) -> dict: zeno_maps_compute()."},
    {"analyze", ext_analyze, METH_VARARGS,
     "analyze(scene, samples, partition) -> dict: zeno_analyze()."},
    {"regions", (PyCFunction)(void (*)(void))ext_regions, METH_VARARGS | METH_KEYWORDS,
     "regions(text, name, overrides, x, y, ...) -> dict: a region map."},
    {"sweep", (PyCFunction)(void (*)(void))ext_sweep, METH_VARARGS | METH_KEYWORDS,
     "sweep(text, name, overrides, x, y, ...) -> dict: an outcome sweep."},
    {"time_core", time_core, METH_VARARGS,
     "time_core(kind, scene, repeats, samples=6000) -> seconds of the C work alone."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT,
    "zeno._zeno",
    "The C extension of zeno over libzeno (use the zeno package, not this module).",
    -1,
    METHODS,
    NULL,
    NULL,
    NULL,
    NULL,
};

/// Adds a new reference to the module (dropped on failure).
static bool add_object(PyObject *module, const char *name, PyObject *value) {
  if (value == NULL) return false;
  if (PyModule_AddObject(module, name, value) < 0) {
    Py_DECREF(value);
    return false;
  }
  return true;
}

static bool add_type(PyObject *module, const char *name, PyTypeObject *type) {
  return PyType_Ready(type) == 0 && add_object(module, name, Py_NewRef(type));
}

/// The names of the outcomes a run ends with, in zeno_outcome's order
/// (ZENO_OUTCOME_RUNNING, which no finished run has, left out).
static PyObject *outcome_names(void) {
  PyObject *names = PyTuple_New(ZENO_OUTCOME_WALL_LIMIT);
  for (int k = ZENO_OUTCOME_RUNNING + 1; names != NULL && k <= ZENO_OUTCOME_WALL_LIMIT; k++) {
    PyObject *name = PyUnicode_FromString(zeno_outcome_name((zeno_outcome)k));
    if (name == NULL) Py_CLEAR(names);
    else PyTuple_SET_ITEM(names, k - ZENO_OUTCOME_RUNNING - 1, name);
  }
  return names;
}

PyMODINIT_FUNC PyInit__zeno(void);  // the entry point CPython looks up
PyMODINIT_FUNC PyInit__zeno(void) {
  import_array();
  if (!ext_common_init() || !ext_records_init()) return NULL;
  PyObject *module = PyModule_Create(&MODULE);
  if (module == NULL) return NULL;
  const zeno_regions_def regions = zeno_regions_def_default();
  const zeno_sweep_basin_def basin = zeno_sweep_basin_def_default();
  if (!add_type(module, "Scene", &ext_scene_type) ||
      !add_type(module, "Simulator", &ext_simulator_type) ||
      !add_type(module, "RunHistory", &ext_history_type) ||
      !add_object(module, "TRAJECTORY_COLUMNS", ext_trajectory_columns(2)) ||
      !add_object(module, "TRAJECTORY_COLUMNS_ONE_CONTACT", ext_trajectory_columns(1)) ||
      !add_object(module, "EVENT_DTYPE", Py_NewRef(ext_event_dtype)) ||
      !add_object(module, "STATE_DTYPE", Py_NewRef(ext_state_dtype)) ||
      !add_object(module, "OUTCOMES", outcome_names()) ||
      !add_object(module, "SWEEP_BASIN_DEFAULTS",
                  Py_BuildValue("{s:d,s:d}", "tol", basin.tol, "turn_max", basin.turn_max)) ||
      !add_object(module, "DEFAULTS",
                  Py_BuildValue("{s:n,s:n,s:n,s:i,s:K}", "samples",
                                (Py_ssize_t)zeno_maps_def_default().samples, "partition",
                                (Py_ssize_t)zeno_analysis_def_default().partition_intervals,
                                "regions_samples", (Py_ssize_t)regions.analysis.maps.samples,
                                "mc_runs", regions.mc_runs, "mc_seed", regions.mc_seed))) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
