// The module zeno._certify: Lyapunov certificates (zeno/certify.h) over
// libzeno-certify, which links CSDP, GMP, BLAS and LAPACK. It is a module
// of its own, imported by zeno.certify when first called, so that `import
// zeno` loads none of them (as the program loads the library for `zeno
// certify` only). certify() returns the certificate's members as plain
// Python values (zeno/certify.py makes the arrays) and the certificate
// itself in a capsule, which evaluate() reads: V1 and V2 at ZOD states.
#include "ext.h"

#include "zeno/certify.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/// The capsule's name (checked when it is read back).
#define CERTIFICATE_CAPSULE "zeno._certify.certificate"

static void free_certificate(PyObject *capsule) {
  free(PyCapsule_GetPointer(capsule, CERTIFICATE_CAPSULE));
}

/// A C int argument (the library checks its own range and names it).
static bool int_argument(PyObject *value, const char *name, int *out) {
  long long v;
  if (!ext_integer(value, name, INT_MIN, INT_MAX, EXT_CALL, &v)) return false;
  *out = (int)v;
  return true;
}

static PyObject *terms_list(const zeno_certificate *c) {
  PyObject *list = PyList_New((Py_ssize_t)c->term_count);
  for (size_t k = 0; list != NULL && k < c->term_count; k++) {
    const zeno_certificate_term *t = &c->terms[k];
    PyObject *term = Py_BuildValue("(iiiii)d", t->exponents[0], t->exponents[1], t->exponents[2],
                                   t->exponents[3], t->exponents[4], t->coef);
    if (term == NULL) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)k, term);
  }
  return list;
}

static PyObject *certificate_dict(const zeno_certificate *c) {
  const double *m = &c->mass[0][0];
  PyObject *d = PyDict_New();
  const bool ok = d != NULL && ext_put(d, "certified", PyBool_FromLong(c->certified)) &&
                  ext_put(d, "refused", PyBool_FromLong(c->refused)) &&
                  ext_put(d, "reason", PyUnicode_FromString(c->reason)) &&
                  ext_put(d, "solver_status", PyUnicode_FromString(c->solver_status)) &&
                  ext_put(d, "csdp_code", PyLong_FromLong(c->csdp_code)) &&
                  ext_put(d, "exact", PyBool_FromLong(c->exact)) &&
                  ext_put(d, "equalities", PyLong_FromLong(c->equalities)) &&
                  ext_put(d, "solver_margin", PyFloat_FromDouble(c->solver_margin)) &&
                  ext_put(d, "projection", PyFloat_FromDouble(c->projection)) &&
                  ext_put(d, "sdp_order", PyLong_FromLong(c->sdp_order)) &&
                  ext_put(d, "sdp_constraints", PyLong_FromLong(c->sdp_constraints)) &&
                  ext_put(d, "conditions", PyLong_FromLong(c->conditions)) &&
                  ext_put(d, "unknowns", PyLong_FromLong(c->unknowns)) &&
                  ext_put(d, "seconds", PyFloat_FromDouble(c->seconds)) &&
                  ext_put(d, "units_log2",
                          Py_BuildValue("{s:i,s:i,s:i}", "mass", c->units[0], "length", c->units[1],
                                        "time", c->units[2])) &&
                  ext_put(d, "v1_b", Py_BuildValue("(ddd)", c->b[0], c->b[1], c->b[2])) &&
                  ext_put(d, "v1_mass",
                          Py_BuildValue("((ddd)(ddd)(ddd))", m[0], m[1], m[2], m[3], m[4], m[5],
                                        m[6], m[7], m[8])) &&
                  ext_put(d, "v2_x2", PyFloat_FromDouble(c->c)) &&
                  ext_put(d, "v2_terms", terms_list(c)) &&
                  ext_put(d, "check_runs", PyLong_FromLong(c->check_runs)) &&
                  ext_put(d, "check_events", PyLong_FromLong(c->check_events)) &&
                  ext_put(d, "check_max_increase", PyFloat_FromDouble(c->check_max_increase));
  if (!ok) Py_CLEAR(d);
  return d;
}

/// The scene of a text and its overrides, loaded as zeno.Scene loaded it
/// (this module cannot read the other's Scene objects); false with the
/// error set.
static bool load_scene(PyObject *text, const char *name, PyObject *override_list,
                       zeno_scene *scene) {
  ext_source source;
  if (!ext_source_of(text, override_list, &source)) return false;
  zeno_error e;
  const zeno_status st = zeno_scene_load_string(source.text, name,
                                                (const char *const *)source.overrides, source.count,
                                                scene, &e);
  ext_source_free(&source);
  if (st != ZENO_OK) ext_raise(&e, EXT_SCENE);
  return st == ZENO_OK;
}

/// certify(text, name, overrides, *, degree, eps, max_iterations, check_runs, check_size,
/// check_seed) -> (dict, capsule): zeno_certify() without the GIL; each
/// setting None keeps zeno_certify_def_default()'s.
static PyObject *certify(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *keywords[] = {"text",           "name",       "overrides",  "degree",     "eps",
                             "max_iterations", "check_runs", "check_size", "check_seed", NULL};
  PyObject *text, *overrides, *degree = Py_None, *eps = Py_None, *iterations = Py_None;
  PyObject *runs = Py_None, *size = Py_None, *seed = Py_None;
  const char *name;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UsO|$OOOOOO", keywords, &text, &name, &overrides,
                                   &degree, &eps, &iterations, &runs, &size, &seed))
    return NULL;
  zeno_certify_def def = zeno_certify_def_default();
  long long seed_value = def.check_seed;
  if ((degree != Py_None && !int_argument(degree, "degree", &def.degree)) ||
      (iterations != Py_None && !int_argument(iterations, "max_iterations", &def.max_iterations)) ||
      (runs != Py_None && !int_argument(runs, "check_runs", &def.check_runs)) ||
      (seed != Py_None && !ext_integer(seed, "check_seed", 0, UINT_MAX, EXT_CALL, &seed_value)))
    return NULL;
  def.check_seed = (unsigned)seed_value;
  if (eps != Py_None && (def.eps = PyFloat_AsDouble(eps)) == -1 && PyErr_Occurred()) return NULL;
  if (size != Py_None && (def.check_size = PyFloat_AsDouble(size)) == -1 && PyErr_Occurred())
    return NULL;
  zeno_scene scene;
  if (!load_scene(text, name, overrides, &scene)) return NULL;
  zeno_certificate *c = malloc(sizeof *c);
  if (c == NULL) return ext_no_memory();
  ext_interrupt stop = {0};
  def.interrupt = ext_interrupt_of(&stop);
  zeno_error e;
  ext_release(&stop);
  const zeno_status st = zeno_certify(&scene, &def, c, &e);
  if (!ext_acquire(&stop) || st != ZENO_OK) {
    free(c);
    return st != ZENO_OK && !PyErr_Occurred()
               ? ext_raise(&e, e.code == ZENO_ERR_GEOMETRY ? EXT_SCENE : EXT_CALL)
               : NULL;
  }
  PyObject *capsule = PyCapsule_New(c, CERTIFICATE_CAPSULE, free_certificate);
  if (capsule == NULL) {
    free(c);
    return NULL;
  }
  PyObject *d = certificate_dict(c);
  PyObject *result = d ? PyTuple_Pack(2, d, capsule) : NULL;
  Py_XDECREF(d);
  Py_DECREF(capsule);
  return result;
}

/// evaluate(capsule, states) -> (v1 list, v2 list): zeno_certificate_eval()
/// at each state (z1, z2, x2, u1, u2, w2) of a sequence of 6-sequences.
static PyObject *evaluate(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *capsule, *states;
  if (!PyArg_ParseTuple(args, "OO", &capsule, &states)) return NULL;
  const zeno_certificate *c = PyCapsule_GetPointer(capsule, CERTIFICATE_CAPSULE);
  if (c == NULL) return NULL;
  PyObject *rows = PySequence_Fast(states, "states must be a sequence of 6 numbers each");
  if (rows == NULL) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
  PyObject *v1 = PyList_New(n), *v2 = PyList_New(n);
  bool ok = v1 != NULL && v2 != NULL;
  for (Py_ssize_t i = 0; ok && i < n; i++) {
    PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(rows, i), "a state is 6 numbers");
    ok = row != NULL && PySequence_Fast_GET_SIZE(row) == 6;
    if (row != NULL && !ok)
      PyErr_Format(PyExc_ValueError, "a state is 6 numbers (z1, z2, x2, u1, u2, w2), got %zd",
                   PySequence_Fast_GET_SIZE(row));
    double s[6] = {0}, a = 0, b = 0;
    for (int k = 0; ok && k < 6; k++)
      ok = !((s[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(row, k))) == -1 && PyErr_Occurred());
    Py_XDECREF(row);
    if (!ok) break;
    zeno_certificate_eval(c, s, &a, &b);
    PyList_SET_ITEM(v1, i, PyFloat_FromDouble(a));
    PyList_SET_ITEM(v2, i, PyFloat_FromDouble(b));
  }
  Py_DECREF(rows);
  PyObject *result = ok ? PyTuple_Pack(2, v1, v2) : NULL;
  Py_XDECREF(v1);
  Py_XDECREF(v2);
  return result;
}

static PyMethodDef METHODS[] = {
    {"certify", (PyCFunction)(void (*)(void))certify, METH_VARARGS | METH_KEYWORDS,
     "certify(text, name, overrides, *, degree, eps, max_iterations, check_runs, check_size, "
     "check_seed) -> "
     "(dict, certificate): zeno_certify()."},
    {"evaluate", evaluate, METH_VARARGS,
     "evaluate(certificate, states) -> (v1, v2): zeno_certificate_eval() at each state."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT,
    .m_name = "zeno._certify",
    .m_doc = "Lyapunov certificates over libzeno-certify (use zeno.certify, not this module).",
    .m_size = -1,
    .m_methods = METHODS,
};

PyMODINIT_FUNC PyInit__certify(void);  // the entry point CPython looks up
PyMODINIT_FUNC PyInit__certify(void) {
  if (!ext_common_init()) return NULL;
  return PyModule_Create(&MODULE);
}
