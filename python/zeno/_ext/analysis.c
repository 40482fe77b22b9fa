// The static analyses as dicts of Python values and numpy arrays, members
// named as in `zeno check --json` and `zeno analyze --json`: the
// equilibrium check, the maps R and G, and the stability verdict. The maps
// and the verdict run without the GIL.
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- arguments ------------------------------------------------------------------ */

/// The maps' settings with `samples` checked like the library does.
static bool maps_def(PyObject *samples_arg, zeno_maps_def *def) {
  *def = zeno_maps_def_default();
  long long samples;
  if (!ext_integer(samples_arg, "samples", ZENO_MAPS_MIN_SAMPLES, ZENO_MAPS_MAX_SAMPLES, EXT_CALL,
                   &samples))
    return false;
  def->samples = (size_t)samples;
  zeno_error e;
  if (zeno_maps_def_validate(def, &e) == ZENO_OK) return true;
  ext_raise(&e, EXT_CALL);
  return false;
}

/* ---- the equilibrium ------------------------------------------------------------- */

static PyObject *painleve(const zeno_scene *s, const zeno_equilibrium_report *r) {
  PyObject *list = PyList_New(r->contact_count);
  for (int i = 0; list != NULL && i < r->contact_count; i++) {
    PyObject *item = Py_BuildValue("{s:i,s:d,s:d,s:O}", "contact", i + 1, "mu", s->contacts[i].mu,
                                   "bound", r->painleve_bound[i], "ok",
                                   r->painleve_ok[i] ? Py_True : Py_False);
    if (item == NULL) Py_CLEAR(list);
    else PyList_SET_ITEM(list, i, item);
  }
  return list;
}

static PyObject *equilibrium_dict(const zeno_scene *s, const zeno_equilibrium_report *r) {
  const npy_intp shape[2] = {r->contact_count, 2};
  PyObject *forces = PyArray_SimpleNew(2, (npy_intp *)shape, NPY_DOUBLE);
  if (forces != NULL)
    memcpy(PyArray_DATA((PyArrayObject *)forces), r->forces,
           (size_t)r->contact_count * 2 * sizeof(double));
  PyObject *d = PyDict_New();
  const bool ok =
      d != NULL &&
      ext_put(d, "scene", PyUnicode_DecodeUTF8(s->name, (Py_ssize_t)strlen(s->name), "replace")) &&
      ext_put(d, "feasible", PyBool_FromLong(r->feasible)) &&
      ext_put(d, "margin", PyFloat_FromDouble(r->margin)) && ext_put(d, "forces", forces) &&
      ext_put(d, "zdd_ff", ext_doubles(r->zdd_ff, (size_t)r->contact_count)) &&
      ext_put(d, "index_order_ok", PyBool_FromLong(r->index_order_ok)) &&
      ext_put(d, "index_order_swappable", PyBool_FromLong(r->index_order_swappable)) &&
      ext_put(d, "ambiguous",
              ext_modes(r->ambiguous_modes, r->ambiguous_count, r->contact_count)) &&
      ext_put(d, "painleve", painleve(s, r)) && ext_put(d, "wedged", PyBool_FromLong(r->wedged));
  if (!ok) Py_CLEAR(d);
  return d;
}

PyObject *ext_check(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object;
  if (!PyArg_ParseTuple(args, "O", &scene_object)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  zeno_equilibrium_report r;
  zeno_error e;
  zeno_status st;
  Py_BEGIN_ALLOW_THREADS st = zeno_equilibrium_check(scene, &r, &e);
  Py_END_ALLOW_THREADS if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  return equilibrium_dict(scene, &r);
}

PyObject *ext_contact_set_json(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object;
  if (!PyArg_ParseTuple(args, "O", &scene_object)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  zeno_contact_set_def def;
  zeno_contact_set_report r;
  zeno_error e;
  zeno_status st;
  Py_BEGIN_ALLOW_THREADS st = zeno_contact_set_def_from_scene(scene, &def, &e);
  if (st == ZENO_OK) st = zeno_contact_set_check(&def, &r, &e);
  Py_END_ALLOW_THREADS if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  // The program's writer, into memory: the object equals `zeno check --json`.
  char *text = NULL;
  size_t size = 0;
  FILE *stream = open_memstream(&text, &size);
  if (stream == NULL) return PyErr_NoMemory();
  st = zeno_io_contact_set_json(stream, scene, &r, &e);
  if (fclose(stream) != 0 && st == ZENO_OK) {
    free(text);
    return PyErr_NoMemory();
  }
  if (st != ZENO_OK) {
    free(text);
    return ext_raise(&e, EXT_CALL);
  }
  PyObject *out = PyUnicode_FromStringAndSize(text, (Py_ssize_t)size);
  free(text);
  return out;
}

PyObject *ext_scene_warnings(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object;
  if (!PyArg_ParseTuple(args, "O", &scene_object)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  zeno_warnings w;
  zeno_error e;
  zeno_status st;
  Py_BEGIN_ALLOW_THREADS st = zeno_scene_warnings(scene, &w, &e);
  Py_END_ALLOW_THREADS if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  PyObject *list = PyList_New((Py_ssize_t)w.count);
  for (size_t k = 0; list != NULL && k < w.count; k++) {
    const zeno_warning *item = &w.items[k];
    PyObject *t = Py_BuildValue("(sss)", zeno_warning_name(item->kind), item->parameter,
                                item->message);
    if (t == NULL) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)k, t);
  }
  return list;
}

PyObject *ext_zod_names(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object;
  if (!PyArg_ParseTuple(args, "O", &scene_object)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  char names[3][ZENO_ZOD_NAME_SIZE];
  zeno_error e;
  if (zeno_scene_zod_names(scene, names, &e) != ZENO_OK) return ext_raise(&e, EXT_CALL);
  return Py_BuildValue("(sss)", names[0], names[1], names[2]);
}

/* ---- the maps R and G -------------------------------------------------------------- */

static PyObject *fixed_points(const zeno_maps *m) {
  PyObject *list = PyList_New((Py_ssize_t)m->fixed_point_count);
  for (size_t k = 0; list != NULL && k < m->fixed_point_count; k++) {
    const zeno_fixed_point *p = &m->fixed_points[k];
    PyObject *item = Py_BuildValue("{s:d,s:d,s:d,s:O,s:O,s:O}", "phi", p->phi, "G", p->G, "slope",
                                   p->slope, "convergent", p->convergent ? Py_True : Py_False,
                                   "limiting", p->limiting ? Py_True : Py_False, "at_breakpoint",
                                   p->at_breakpoint ? Py_True : Py_False);
    // On a breakpoint: the two words and what the exact cycle from it did.
    if (item != NULL && p->at_breakpoint) {
      PyObject *more = Py_BuildValue("{s:s,s:s,s:O,s:O,s:d}", "word_left", p->word_left,
                                     "word_right", p->word_right, "returns",
                                     p->returns ? Py_True : Py_False, "tie",
                                     p->tie ? Py_True : Py_False, "tie_margin", p->tie_margin);
      if (more == NULL || PyDict_Update(item, more) != 0) Py_CLEAR(item);
      Py_XDECREF(more);
    }
    if (item == NULL) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)k, item);
  }
  return list;
}

/// The samples' number columns (phi; R, G, T, NaN where the cycle does not
/// return; defined), filled in one pass over the samples: a new reference
/// in each, or false with the error set and none kept.
static bool number_columns(const zeno_maps *m, PyObject *col[5]) {
  const npy_intp shape[1] = {(npy_intp)m->sample_count};
  for (int c = 0; c < 5; c++)
    col[c] = PyArray_SimpleNew(1, (npy_intp *)shape, c < 4 ? NPY_DOUBLE : NPY_BOOL);
  if (col[0] == NULL || col[1] == NULL || col[2] == NULL || col[3] == NULL || col[4] == NULL) {
    for (int c = 0; c < 5; c++) Py_CLEAR(col[c]);
    return false;
  }
  double *phi = PyArray_DATA((PyArrayObject *)col[0]), *R = PyArray_DATA((PyArrayObject *)col[1]),
         *G = PyArray_DATA((PyArrayObject *)col[2]), *T = PyArray_DATA((PyArrayObject *)col[3]);
  npy_bool *defined = PyArray_DATA((PyArrayObject *)col[4]);
  for (size_t k = 0; k < m->sample_count; k++) {
    const zeno_cycle *c = &m->samples[k];
    phi[k] = c->phi;
    R[k] = c->defined ? c->R : NAN;
    G[k] = c->defined ? c->G : NAN;
    T[k] = c->defined ? c->T : NAN;
    defined[k] = c->defined;
  }
  return true;
}

static const char *end_name(const void *context, size_t k) {
  const zeno_cycle *c = &((const zeno_maps *)context)->samples[k];
  return c->defined ? "" : zeno_outcome_name(c->end);
}

/// The cycle's end outcome names ("" where it returns to the section).
static PyObject *end_column(const zeno_maps *m) {
  return ext_texts_by(m->sample_count, end_name, m);
}

PyObject *ext_maps_dict(const zeno_maps *m) {
  const char *samples = (const char *)m->samples;
  const size_t stride = sizeof *m->samples;
  static const char *const names[5] = {"phi", "R", "G", "T", "defined"};
  PyObject *col[5];
  if (!number_columns(m, col)) return NULL;
  PyObject *d = PyDict_New();
  bool put = d != NULL;
  for (int c = 0; c < 5; c++) {  // each column's reference taken or dropped
    if (put) put = ext_put(d, names[c], col[c]);
    else Py_DECREF(col[c]);
  }
  const bool ok =
      put && ext_put(d, "end", end_column(m)) &&
      ext_put(d, "word",
              ext_texts(samples + offsetof(zeno_cycle, word), m->sample_count, stride)) &&
      ext_put(d, "outcomes",
              ext_texts(samples + offsetof(zeno_cycle, outcomes), m->sample_count, stride)) &&
      ext_put(d, "breakpoints", ext_doubles(m->breakpoints, m->breakpoint_count)) &&
      ext_put(d, "fixed_points", fixed_points(m)) &&
      ext_put(d, "G_max", PyFloat_FromDouble(m->G_max)) &&
      ext_put(d, "G_minus",
              m->G_minus_defined ? PyFloat_FromDouble(m->G_minus) : Py_NewRef(Py_None)) &&
      ext_put(d, "G_plus",
              m->G_plus_defined ? PyFloat_FromDouble(m->G_plus) : Py_NewRef(Py_None)) &&
      ext_put(d, "swapped", PyBool_FromLong(m->swapped));
  if (!ok) Py_CLEAR(d);
  return d;
}

PyObject *ext_maps(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object, *samples;
  if (!PyArg_ParseTuple(args, "OO", &scene_object, &samples)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  zeno_maps_def def;
  if (scene == NULL || !maps_def(samples, &def)) return NULL;
  zeno_maps maps;
  zeno_error e;
  ext_interrupt stop;
  def.interrupt = ext_interrupt_of(&stop);
  ext_release(&stop);
  const zeno_status st = zeno_maps_compute(scene, &def, &maps, &e);
  if (!ext_acquire(&stop)) {
    if (st == ZENO_OK) zeno_maps_free(&maps);
    return NULL;
  }
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  PyObject *d = ext_maps_dict(&maps);
  zeno_maps_free(&maps);
  return d;
}

/* ---- the verdict --------------------------------------------------------------------- */

/// The Theorem 4 partition merged as `zeno analyze --json` writes it
/// (empty unless Theorem 4 decided).
static PyObject *merged_partition(const zeno_analysis *a) {
  const size_t n = a->theorem == 4 ? a->partition_count : 0;
  zeno_interval *iv = PyMem_Calloc(n ? n : 1, sizeof *iv);
  if (iv == NULL) return ext_no_memory();
  const size_t count = n ? zeno_partition_merge(a->partition, a->safe, n, iv) : 0;
  PyObject *list = PyList_New((Py_ssize_t)count);
  for (size_t k = 0; list != NULL && k < count; k++) {
    PyObject *item = Py_BuildValue("(ddO)", iv[k].lo, iv[k].hi, iv[k].safe ? Py_True : Py_False);
    if (item == NULL) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)k, item);
  }
  PyMem_Free(iv);
  return list;
}

static PyObject *safe_column(const zeno_analysis *a) {
  const npy_intp shape[1] = {(npy_intp)a->partition_count};
  PyObject *s = PyArray_SimpleNew(1, (npy_intp *)shape, NPY_BOOL);
  npy_bool *v = s ? PyArray_DATA((PyArrayObject *)s) : NULL;
  for (size_t k = 0; v != NULL && k < a->partition_count; k++) v[k] = a->safe[k];
  return s;
}

static PyObject *analysis_dict(const zeno_scene *s, const zeno_analysis *a) {
  PyObject *d = PyDict_New();
  const size_t edges = a->partition_count ? a->partition_count + 1 : 0;
  const bool ok =
      d != NULL && ext_put(d, "verdict", PyUnicode_FromString(zeno_verdict_name(a->verdict))) &&
      ext_put(d, "theorem", a->theorem > 0 ? PyLong_FromLong(a->theorem) : Py_NewRef(Py_None)) &&
      ext_put(d, "region", PyLong_FromLong(a->region)) &&
      ext_put(d, "reason", PyUnicode_FromString(a->reason)) &&
      ext_put(d, "persistent", PyBool_FromLong(a->persistent)) &&
      ext_put(d, "equilibrium", equilibrium_dict(s, &a->equilibrium)) &&
      ext_put(d, "maps", a->has_maps ? ext_maps_dict(&a->maps) : Py_NewRef(Py_None)) &&
      ext_put(d, "partition_edges", ext_doubles(a->partition, edges)) &&
      ext_put(d, "partition_safe", safe_column(a)) &&
      ext_put(d, "unsafe_count", PyLong_FromSize_t(a->unsafe_count)) &&
      ext_put(d, "partition", merged_partition(a));
  if (!ok) Py_CLEAR(d);
  return d;
}

PyObject *ext_analyze(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *scene_object, *samples, *partition_arg;
  if (!PyArg_ParseTuple(args, "OOO", &scene_object, &samples, &partition_arg)) return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  zeno_analysis_def def = zeno_analysis_def_default();
  long long partition;
  if (scene == NULL || !maps_def(samples, &def.maps) ||
      !ext_integer(partition_arg, "partition", ZENO_MIN_PARTITION, ZENO_MAX_PARTITION / 2, EXT_CALL,
                   &partition))
    return NULL;
  def.partition_intervals = (size_t)partition;
  zeno_error e;
  if (zeno_analysis_def_validate(&def, &e) != ZENO_OK) return ext_raise(&e, EXT_CALL);
  zeno_analysis *a = PyMem_Malloc(sizeof *a);  // large: kept off the stack
  if (a == NULL) return ext_no_memory();
  ext_interrupt stop;
  def.maps.interrupt = ext_interrupt_of(&stop);
  ext_release(&stop);
  const zeno_status st = zeno_analyze(scene, &def, a, &e);
  PyObject *d = !ext_acquire(&stop) ? NULL
                : st == ZENO_OK     ? analysis_dict(scene, a)
                                    : ext_raise(&e, EXT_CALL);
  if (st == ZENO_OK) zeno_analysis_free(a);
  PyMem_Free(a);
  return d;
}
