// The Scene type of zeno._zeno: a validated zeno_scene held by value. It is
// made only by the loader (_load, _load_string), changed only into a new,
// validated copy (_replace), and read back as YAML (to_yaml) or as a dict
// of its fields (_fields). zeno.Scene (scene.py) subclasses it.
#include "ext.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const zeno_scene *ext_scene_of(PyObject *object) {
  if (!PyObject_TypeCheck(object, &ext_scene_type)) {
    PyErr_Format(PyExc_TypeError, "expected a zeno.Scene, got %.80s", Py_TYPE(object)->tp_name);
    return NULL;
  }
  const ext_scene *s = (const ext_scene *)object;
  if (s->scene.contact_count < 1) {  // made without the loader: no scene
    PyErr_SetString(PyExc_TypeError,
                    "this Scene was not loaded; use zeno.Scene.load, from_dict or from_yaml");
    return NULL;
  }
  return &s->scene;
}

/// A new instance of `type` holding `scene`.
static PyObject *wrap(PyTypeObject *type, const zeno_scene *scene) {
  ext_scene *s = (ext_scene *)type->tp_alloc(type, 0);
  if (s != NULL) s->scene = *scene;
  return (PyObject *)s;
}

/* ---- loading ---------------------------------------------------------------- */

typedef zeno_status (*load_fn)(const void *input, const char *name, const char *const *overrides,
                               size_t n, zeno_scene *scene, zeno_error *error);

static zeno_status load_file(const void *input, const char *name, const char *const *o, size_t n,
                             zeno_scene *scene, zeno_error *error) {
  (void)name;
  return zeno_scene_load(input, o, n, scene, error);
}

static zeno_status load_text(const void *input, const char *name, const char *const *o, size_t n,
                             zeno_scene *scene, zeno_error *error) {
  return zeno_scene_load_string(input, name, o, n, scene, error);
}

static PyObject *load_with(PyTypeObject *type, load_fn load, const void *input, const char *name,
                           PyObject *override_list) {
  size_t n = 0;
  char **overrides = ext_strings(override_list, &n);
  if (overrides == NULL) return NULL;
  zeno_scene scene;
  zeno_error error;
  const zeno_status st = load(input, name, (const char *const *)overrides, n, &scene, &error);
  ext_strings_free(overrides, n);
  if (st != ZENO_OK) return ext_raise(&error, EXT_SCENE);
  return wrap(type, &scene);
}

/// Scene._load(path, overrides): zeno_scene_load().
static PyObject *scene_load(PyObject *cls, PyObject *args) {
  PyObject *path = NULL, *overrides;
  if (!PyArg_ParseTuple(args, "O&O", PyUnicode_FSConverter, &path, &overrides)) return NULL;
  PyObject *scene = load_with((PyTypeObject *)cls, load_file, PyBytes_AS_STRING(path), NULL,
                              overrides);
  Py_DECREF(path);
  return scene;
}

/// Scene._load_string(text, name, overrides): zeno_scene_load_string().
static PyObject *scene_load_string(PyObject *cls, PyObject *args) {
  const char *text, *name;
  Py_ssize_t length;
  PyObject *overrides;
  if (!PyArg_ParseTuple(args, "s#sO", &text, &length, &name, &overrides)) return NULL;
  if ((size_t)length != strlen(text)) {
    PyErr_SetString(PyExc_ValueError, "scene text must not contain NUL characters");
    return NULL;
  }
  return load_with((PyTypeObject *)cls, load_text, text, name, overrides);
}

PyObject *ext_scene_load(PyObject *module, PyObject *args) {
  (void)module;
  return scene_load((PyObject *)&ext_scene_type, args);
}

PyObject *ext_scene_load_string(PyObject *module, PyObject *args) {
  (void)module;
  return scene_load_string((PyObject *)&ext_scene_type, args);
}

/* ---- writing ------------------------------------------------------------------ */

static PyObject *to_yaml(PyObject *self, PyObject *unused) {
  (void)unused;
  const zeno_scene *scene = ext_scene_of(self);
  if (scene == NULL) return NULL;
  char *text = NULL;
  size_t size = 0;
  FILE *f = open_memstream(&text, &size);
  if (f == NULL) return ext_no_memory();
  zeno_error error;
  const zeno_status st = zeno_io_scene_yaml(f, scene, &error);
  const bool closed = fclose(f) == 0;
  PyObject *out = NULL;
  if (st != ZENO_OK) ext_raise(&error, EXT_CALL);
  else if (!closed || text == NULL) ext_no_memory();
  else out = PyUnicode_DecodeUTF8(text, (Py_ssize_t)size, "strict");
  free(text);
  return out;
}

/* ---- a changed copy --------------------------------------------------------------- */

/// Fails like the loader for a model name it does not know.
static PyObject *bad_model(const char *name) {
  zeno_error e;
  zeno_error_clear(&e);
  e.code = ZENO_ERR_TYPE;
  snprintf(e.parameter, sizeof e.parameter, "model");
  snprintf(e.message, sizeof e.message, "expected one of %s, %s; got '%.64s'",
           zeno_model_name(ZENO_MODEL_ZOD), zeno_model_name(ZENO_MODEL_FULL), name);
  return ext_raise(&e, EXT_SCENE);
}

static bool read_double(PyObject *value, double *out) {
  *out = PyFloat_AsDouble(value);
  return !(*out == -1.0 && PyErr_Occurred());
}

/// _replace(model=None, epsilon=None, t_end=None, sample_dt=None,
/// max_events=None, wall_time=None): a validated copy with those fields set
/// (None keeps a field), as the loader would have stored them.
static PyObject *scene_replace(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"model",      "epsilon",   "t_end", "sample_dt",
                             "max_events", "wall_time", NULL};
  PyObject *v[6] = {Py_None, Py_None, Py_None, Py_None, Py_None, Py_None};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOOOO", keywords, &v[0], &v[1], &v[2], &v[3],
                                   &v[4], &v[5]))
    return NULL;
  const zeno_scene *base = ext_scene_of(self);
  if (base == NULL) return NULL;
  zeno_scene s = *base;
  if (v[0] != Py_None) {
    const char *name = PyUnicode_Check(v[0]) ? PyUnicode_AsUTF8(v[0]) : NULL;
    if (name == NULL) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "model must be 'zod' or 'full'");
      return NULL;
    }
    if (strcmp(name, zeno_model_name(ZENO_MODEL_ZOD)) == 0) s.model = ZENO_MODEL_ZOD;
    else if (strcmp(name, zeno_model_name(ZENO_MODEL_FULL)) == 0) s.model = ZENO_MODEL_FULL;
    else return bad_model(name);
  }
  double *fields[] = {NULL, &s.epsilon, &s.t_end, &s.sample_dt, NULL, &s.wall_time};
  for (int i = 1; i < 6; i++)
    if (fields[i] != NULL && v[i] != Py_None && !read_double(v[i], fields[i])) return NULL;
  long long max_events;
  if (v[4] != Py_None) {
    // The loader's range [1, inf), as far as the field holds.
    if (!ext_integer(v[4], "stop.max_events", 1, LONG_MAX, EXT_SCENE, &max_events)) return NULL;
    s.max_events = (long)max_events;
  }
  zeno_error error;
  if (zeno_scene_validate(&s, &error) != ZENO_OK) return ext_raise(&error, EXT_SCENE);
  return wrap(Py_TYPE(self), &s);
}

/* ---- fields --------------------------------------------------------------------- */

static PyObject *pair(const double v[2]) { return Py_BuildValue("(dd)", v[0], v[1]); }
static PyObject *triple(const double v[3]) { return Py_BuildValue("(ddd)", v[0], v[1], v[2]); }

static PyObject *contact_dict(const zeno_contact_def *c) {
  return Py_BuildValue("{s:N,s:d,s:N,s:O,s:d}", "point", pair(c->point), "surface_angle",
                       c->surface_angle, "surface_point", pair(c->surface_point),
                       "surface_point_set", c->surface_point_set ? Py_True : Py_False, "mu", c->mu);
}

static PyObject *paper_dict(const zeno_scene *s) {
  zeno_paper_params block;
  if (!zeno_scene_paper(s, &block)) Py_RETURN_NONE;
  const zeno_paper_params *p = &block;
  return Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d}", "alpha", p->alpha, "l1",
                       p->l1, "l2", p->l2, "h", p->h, "phi1", p->phi1, "phi2", p->phi2, "mu1",
                       p->mu1, "mu2", p->mu2, "rho", p->rho, "m", p->m, "f", p->f, "tau", p->tau);
}

static PyObject *outline_list(const zeno_scene *s) {
  PyObject *list = PyList_New(0);
  for (size_t k = 0; list != NULL && k < s->outline_count; k++) {
    PyObject *vertex = pair(s->outline[k]);
    if (vertex == NULL || PyList_Append(list, vertex) < 0) Py_CLEAR(list);
    Py_XDECREF(vertex);
  }
  return list;
}

static const char *outline_name(zeno_outline_kind kind) {
  return kind == ZENO_OUTLINE_POLYGON ? "polygon" : kind == ZENO_OUTLINE_DISK ? "disk" : "biped";
}

/// _fields(): the stored fields (SI of the scene, angles in radians).
static PyObject *scene_fields(PyObject *self, PyObject *unused) {
  (void)unused;
  const zeno_scene *s = ext_scene_of(self);
  if (s == NULL) return NULL;
  PyObject *d = PyDict_New();
  PyObject *contacts = PyTuple_New(s->contact_count);
  for (int i = 0; contacts != NULL && i < s->contact_count; i++) {
    PyObject *c = contact_dict(&s->contacts[i]);
    if (c == NULL) Py_CLEAR(contacts);
    else PyTuple_SET_ITEM(contacts, i, c);
  }
  const bool zod = s->initial_kind == ZENO_INITIAL_ZOD;
  const bool ok =
      d != NULL &&
      ext_put(d, "name", PyUnicode_DecodeUTF8(s->name, (Py_ssize_t)strlen(s->name), "replace")) &&
      ext_put(d, "model", PyUnicode_FromString(zeno_model_name(s->model))) &&
      ext_put(d, "epsilon", PyFloat_FromDouble(s->epsilon)) &&
      ext_put(d, "ambiguity", PyUnicode_FromString(zeno_ambiguity_policy_name(s->ambiguity))) &&
      ext_put(d, "mass", PyFloat_FromDouble(s->mass)) &&
      ext_put(d, "rho", PyFloat_FromDouble(s->rho)) &&
      ext_put(d, "outline", PyUnicode_FromString(outline_name(s->outline_kind))) &&
      ext_put(d, "outline_vertices", outline_list(s)) &&
      ext_put(d, "outline_radius", PyFloat_FromDouble(s->outline_radius)) &&
      ext_put(d, "contacts", contacts) &&
      ext_put(d, "load_magnitude", PyFloat_FromDouble(s->load_magnitude)) &&
      ext_put(d, "load_angle", PyFloat_FromDouble(s->load_angle)) &&
      ext_put(d, "load_torque", PyFloat_FromDouble(s->load_torque)) &&
      ext_put(d, "paper", paper_dict(s)) && ext_put(d, "com", pair(s->com_shift)) &&
      ext_put(d, "impact_law", PyUnicode_FromString(zeno_impact_law_name(s->impact_law))) &&
      ext_put(d, "restitution", PyFloat_FromDouble(s->restitution)) &&
      ext_put(d, "tangential_restitution", PyFloat_FromDouble(s->tangential_restitution)) &&
      ext_put(d, "initial_form", PyUnicode_FromString(zod ? "qp" : "pose")) &&
      ext_put(d, "initial_position", triple(zod ? s->initial_qp : s->initial_pose)) &&
      ext_put(d, "initial_velocity", triple(zod ? s->initial_qdp : s->initial_velocity)) &&
      ext_put(d, "t_end", PyFloat_FromDouble(s->t_end)) &&
      ext_put(d, "max_events", PyLong_FromLong(s->max_events)) &&
      ext_put(d, "escape_radius", PyFloat_FromDouble(s->escape_radius)) &&
      ext_put(d, "wall_time", PyFloat_FromDouble(s->wall_time)) &&
      ext_put(d, "rtol", PyFloat_FromDouble(s->rtol)) &&
      ext_put(d, "atol", PyFloat_FromDouble(s->atol)) &&
      ext_put(d, "sample_dt", PyFloat_FromDouble(s->sample_dt));
  if (!ok) Py_CLEAR(d);
  return d;
}

static PyMethodDef SCENE_METHODS[] = {
    {"_load", scene_load, METH_VARARGS | METH_CLASS, "_load(path, overrides): zeno_scene_load()."},
    {"_load_string", scene_load_string, METH_VARARGS | METH_CLASS,
     "_load_string(text, name, overrides): zeno_scene_load_string()."},
    {"to_yaml", to_yaml, METH_NOARGS,
     "The scene as YAML that loads back into the identical scene."},
    {"_replace", (PyCFunction)(void (*)(void))scene_replace, METH_VARARGS | METH_KEYWORDS,
     "_replace(model=, epsilon=, t_end=, sample_dt=, max_events=, wall_time=): a validated "
     "copy."},
    {"_fields", scene_fields, METH_NOARGS, "The stored fields as a dict."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject ext_scene_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zeno._zeno.Scene",
    .tp_basicsize = sizeof(ext_scene),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A validated zeno_scene (the base of zeno.Scene).",
    .tp_methods = SCENE_METHODS,
};
