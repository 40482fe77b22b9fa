// Simulations: simulate() runs a scene to its end without the GIL, keeping
// every event, and converts them into numpy arrays; the run's trajectory,
// the rows `zeno simulate --out` writes (zeno_run_dir_record, the same
// sampling rule), is recorded from the kept history when first asked for.
// The Simulator type steps through a run one event at a time, like the C
// loop.
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- a whole run, in C ---------------------------------------------------------- */

/// What a run leaves behind: its events, its summary and word, and (for the
/// trajectory) the simulator with its history and the Ctrl-C link its
/// settings point to (allocated, so that it lives as long as the simulator
/// when the record moves into a history object).
typedef struct run_record {
  zeno_sim *sim;
  ext_interrupt *interrupt;
  zeno_event *events;
  size_t count, capacity;
  zeno_summary summary;
  char *word;
  int contact_count;
  char zod_names[3][ZENO_ZOD_NAME_SIZE];                    ///< q''s coordinates
  char trajectory_header[ZENO_IO_TRAJECTORY_COLUMNS_SIZE];  ///< trajectory.csv's
} run_record;

static void run_free(run_record *r) {
  zeno_sim_destroy(r->sim);
  free(r->interrupt);
  free(r->events);
  free(r->word);
  memset(r, 0, sizeof *r);
}

static bool keep_event(run_record *r, const zeno_event *ev) {
  if (r->count == r->capacity) {
    const size_t capacity = r->capacity ? 2 * r->capacity : 32;
    zeno_event *events = realloc(r->events, capacity * sizeof *events);
    if (events == NULL) return false;
    r->events = events;
    r->capacity = capacity;
  }
  r->events[r->count++] = *ev;
  return true;
}

static zeno_status out_of_memory(zeno_error *e) {
  zeno_error_clear(e);
  e->code = ZENO_ERR_NOMEM;
  snprintf(e->message, sizeof e->message, "out of memory");
  return ZENO_ERR_NOMEM;
}

/// Runs the scene to its end keeping every event; with `history` the
/// simulator stays in r->sim with the segments that dense output needs
/// (keep_history, as `zeno simulate --out` runs it). The simulator asks
/// `interrupt` (NULL: none) before each event; it moves into the record
/// when the run succeeds (the caller keeps it otherwise). Needs no Python:
/// called without the GIL.
static zeno_status run_scene(const zeno_scene *scene, bool history, ext_interrupt *interrupt,
                             run_record *r, zeno_error *e) {
  memset(r, 0, sizeof *r);
  r->contact_count = scene->contact_count;
  if (zeno_io_trajectory_columns_of(scene, r->trajectory_header, e) != ZENO_OK) return e->code;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = history && scene->sample_dt > 0;
  if (interrupt) def.interrupt = ext_interrupt_of(interrupt);
  r->sim = zeno_sim_create(scene, &def, e);
  if (r->sim == NULL) return e->code;
  zeno_event ev;
  zeno_status st;
  while ((st = zeno_sim_next_event(r->sim, &ev, e)) == ZENO_OK)
    if (!keep_event(r, &ev)) {
      st = out_of_memory(e);
      break;
    }
  if (st == ZENO_DONE) {
    zeno_sim_summary(r->sim, &r->summary);
    zeno_sim_zod_names(r->sim, r->zod_names);
    const size_t size = zeno_sim_word(r->sim, NULL, 0) + 1;
    r->word = malloc(size);
    st = r->word ? ZENO_OK : out_of_memory(e);
    if (r->word) zeno_sim_word(r->sim, r->word, size);
  }
  if (st != ZENO_OK) run_free(r);
  else r->interrupt = interrupt;
  if (!history) zeno_sim_destroy(r->sim), r->sim = NULL;
  return st;
}

/// The rows `zeno simulate --out` writes to trajectory.csv, recorded from
/// the finished run (zeno_run_dir_record, event by event, sampling the
/// kept history; the simulator's interrupt is asked between samples).
static zeno_status record_rows(const run_record *r, zeno_run_dir_data *data, zeno_error *e) {
  memset(data, 0, sizeof *data);
  data->contact_count = r->contact_count;
  for (size_t k = 0; k < r->count; k++) {
    const zeno_status st = zeno_run_dir_record(data, r->sim, &r->events[k], e);
    if (st != ZENO_OK) {
      zeno_run_dir_data_free(data);
      return st;
    }
  }
  return ZENO_OK;
}

bool ext_time_simulate_core(const zeno_scene *scene, bool trajectory, int repeats,
                            double *seconds) {
  *seconds = INFINITY;
  for (int i = 0; i < repeats; i++) {
    run_record r;
    zeno_error e;
    const double start = ext_now();
    bool ok = run_scene(scene, trajectory, NULL, &r, &e) == ZENO_OK;
    if (ok && trajectory) {
      zeno_run_dir_data data;
      ok = record_rows(&r, &data, &e) == ZENO_OK;
      if (ok) zeno_run_dir_data_free(&data);
    }
    run_free(&r);
    if (!ok) return false;
    *seconds = fmin(*seconds, ext_now() - start);
  }
  return true;
}

/* ---- the run's history: its trajectory on demand ------------------------------------ */

/// A finished run kept for its trajectory, computed on the first call of
/// trajectory() (without the GIL) and then kept; the simulator is freed then.
typedef struct history {
  PyObject_HEAD run_record run;
  PyObject *trajectory;
  PyThread_type_lock lock;  ///< one computation at a time
} history;

static void history_dealloc(PyObject *object) {
  history *h = (history *)object;
  run_free(&h->run);
  Py_XDECREF(h->trajectory);
  if (h->lock) PyThread_free_lock(h->lock);
  Py_TYPE(object)->tp_free(object);
}

static PyObject *history_trajectory(PyObject *object, PyObject *unused) {
  (void)unused;
  history *h = (history *)object;
  Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(h->lock, WAIT_LOCK);
  Py_END_ALLOW_THREADS if (h->trajectory == NULL) {
    zeno_run_dir_data data;
    zeno_error e;
    ext_release(h->run.interrupt);  // the simulator's: asked between samples
    const zeno_status st = record_rows(&h->run, &data, &e);
    if (!ext_acquire(h->run.interrupt)) {
      if (st == ZENO_OK) zeno_run_dir_data_free(&data);
    } else if (st == ZENO_OK) {
      h->trajectory = ext_trajectory(&data, h->run.trajectory_header);
      if (h->trajectory != NULL)
        h->trajectory = Py_BuildValue("{s:N,s:n}", "rows", h->trajectory, "skipped",
                                      (Py_ssize_t)data.skipped_samples);
      zeno_run_dir_data_free(&data);
    } else {
      ext_raise(&e, EXT_CALL);
    }
    if (h->trajectory != NULL) run_free(&h->run);  // not needed any more
  }
  PyThread_release_lock(h->lock);
  return h->trajectory ? Py_NewRef(h->trajectory) : NULL;
}

static PyMethodDef HISTORY_METHODS[] = {
    {"trajectory", history_trajectory, METH_NOARGS,
     "trajectory() -> {'rows': dict of arrays, 'skipped': int}: the rows of trajectory.csv."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject ext_history_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zeno._zeno.RunHistory",
    .tp_basicsize = sizeof(history),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A finished run kept for its trajectory.",
    .tp_dealloc = history_dealloc,
    .tp_methods = HISTORY_METHODS,
};

/// Moves the run into a new history object (the run is emptied).
static PyObject *history_new(run_record *r) {
  history *h = PyObject_New(history, &ext_history_type);
  if (h == NULL) return NULL;
  h->run = *r;
  memset(r, 0, sizeof *r);
  h->trajectory = NULL;
  h->lock = PyThread_allocate_lock();
  if (h->lock == NULL) {
    Py_DECREF(h);
    return ext_no_memory();
  }
  return (PyObject *)h;
}

/* ---- the run in Python ------------------------------------------------------------ */

static PyObject *triple(const double v[3]) { return ext_doubles(v, 3); }

/// The Poincaré section angles of the run's events, in order.
static PyObject *sections(const run_record *r) {
  size_t n = 0;
  for (size_t k = 0; k < r->count; k++) n += r->events[k].on_section;
  const npy_intp shape[1] = {(npy_intp)n};
  PyObject *a = PyArray_SimpleNew(1, (npy_intp *)shape, NPY_DOUBLE);
  double *v = a ? PyArray_DATA((PyArrayObject *)a) : NULL;
  for (size_t k = 0, i = 0; v != NULL && k < r->count; k++)
    if (r->events[k].on_section) v[i++] = r->events[k].section_angle;
  return a;
}

/// Summary members, named as in `zeno simulate --json`.
static bool put_summary(PyObject *d, const zeno_summary *s, const char *word) {
  const zeno_state *fin = &s->final_state;
  return ext_put(d, "status", PyUnicode_FromString(zeno_outcome_name(s->outcome))) &&
         ext_put(d, "word", PyUnicode_FromString(word)) &&
         ext_put(d, "t", PyFloat_FromDouble(s->t)) &&
         ext_put(d, "event_count", PyLong_FromLong(s->events)) &&
         ext_put(d, "impacts", PyLong_FromLong(s->impacts)) &&
         ext_put(d, "zeno_time",
                 s->has_zeno ? PyFloat_FromDouble(s->zeno_time) : Py_NewRef(Py_None)) &&
         ext_put(d, "zeno_impacts", PyLong_FromLong(s->has_zeno ? s->zeno_impacts : 0)) &&
         ext_put(d, "final_zod", triple(fin->zod)) &&
         ext_put(d, "final_zod_velocity", triple(fin->zod_rate)) &&
         ext_put(d, "final_pose", triple(fin->q));
}

/// The run as a dict; with `trajectory` the run moves into its "history".
static PyObject *run_dict(run_record *r, bool trajectory) {
  PyObject *d = PyDict_New();
  const zeno_event *end = r->count ? &r->events[r->count - 1] : NULL;
  const bool ambiguous = end && end->kind == ZENO_EVENT_END &&
                         end->outcome == ZENO_OUTCOME_AMBIGUOUS;
  const bool ok =
      d != NULL && put_summary(d, &r->summary, r->word) && ext_put(d, "sections", sections(r)) &&
      ext_put(d, "consistent_modes",
              ext_modes(ambiguous ? end->consistent : NULL, ambiguous ? end->consistent_count : 0,
                        r->contact_count)) &&
      ext_put(d, "events",
              ext_event_array(r->events, r->count, sizeof *r->events, r->contact_count)) &&
      ext_put(d, "contact_count", PyLong_FromLong(r->contact_count)) &&
      ext_put(d, "zod_names",
              Py_BuildValue("(sss)", r->zod_names[0], r->zod_names[1], r->zod_names[2])) &&
      ext_put(d, "history", trajectory ? history_new(r) : Py_NewRef(Py_None));
  if (!ok) Py_CLEAR(d);
  return d;
}

PyObject *ext_simulate(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *keywords[] = {"scene", "trajectory", NULL};
  PyObject *scene_object;
  int trajectory = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p", keywords, &scene_object, &trajectory))
    return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  ext_interrupt *stop = calloc(1, sizeof *stop);  // the record's (run_scene())
  if (stop == NULL) return ext_no_memory();
  run_record r;
  zeno_error e;
  ext_release(stop);
  const zeno_status st = run_scene(scene, trajectory, stop, &r, &e);
  const bool go_on = ext_acquire(stop);
  if (st != ZENO_OK) free(stop);  // else the record's
  if (!go_on) {                   // the signal handler's exception is set
    if (st == ZENO_OK) run_free(&r);
    return NULL;
  }
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  PyObject *d = run_dict(&r, trajectory);
  run_free(&r);
  return d;
}

/* ---- the Simulator type ------------------------------------------------------------ */

typedef struct simulator {
  PyObject_HEAD zeno_sim *sim;
  int contact_count;
  bool busy;           ///< a call is running without the GIL
  ext_interrupt stop;  ///< Ctrl-C during next() and run(): the simulator's settings point here
} simulator;

static PyObject *simulator_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *keywords[] = {"scene", "keep_history", NULL};
  PyObject *scene_object;
  int keep_history = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p", keywords, &scene_object, &keep_history))
    return NULL;
  const zeno_scene *scene = ext_scene_of(scene_object);
  if (scene == NULL) return NULL;
  simulator *self = (simulator *)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  zeno_sim_def def = zeno_sim_def_default();
  def.keep_history = keep_history;
  def.interrupt = ext_interrupt_of(&self->stop);
  zeno_error e;
  self->sim = zeno_sim_create(scene, &def, &e);
  self->contact_count = scene->contact_count;
  if (self->sim == NULL) {
    Py_DECREF(self);
    return ext_raise(&e, EXT_SCENE);
  }
  return (PyObject *)self;
}

static void simulator_dealloc(PyObject *object) {
  zeno_sim_destroy(((simulator *)object)->sim);
  Py_TYPE(object)->tp_free(object);
}

/// False with RuntimeError while another thread uses the simulator.
static bool claim(simulator *self) {
  if (!self->busy) return self->busy = true;
  PyErr_SetString(PyExc_RuntimeError, "this Simulator is in use by another thread");
  return false;
}

/// The next event as a 1-element structured array; StopIteration after END.
static PyObject *simulator_next(PyObject *object) {
  simulator *self = (simulator *)object;
  if (!claim(self)) return NULL;
  zeno_event ev;
  zeno_error e;
  ext_release(&self->stop);
  const zeno_status st = zeno_sim_next_event(self->sim, &ev, &e);
  const bool go_on = ext_acquire(&self->stop);
  self->busy = false;
  if (!go_on) return NULL;           // the simulator is as before the call
  if (st == ZENO_DONE) return NULL;  // StopIteration
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  return ext_event_array(&ev, 1, sizeof ev, self->contact_count);
}

/// state_at(t): the state at time t (0-d structured array).
static PyObject *simulator_state_at(PyObject *object, PyObject *arg) {
  simulator *self = (simulator *)object;
  const double t = PyFloat_AsDouble(arg);
  if (t == -1.0 && PyErr_Occurred()) return NULL;
  if (!claim(self)) return NULL;
  zeno_state state;
  zeno_error e;
  const zeno_status st = zeno_sim_state_at(self->sim, t, &state, &e);
  self->busy = false;
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  return ext_state_array(&state, self->contact_count);
}

/// summary(): the run so far, members as simulate()'s.
static PyObject *simulator_summary(PyObject *object, PyObject *unused) {
  (void)unused;
  simulator *self = (simulator *)object;
  if (!claim(self)) return NULL;
  zeno_summary s;
  zeno_sim_summary(self->sim, &s);
  const size_t size = zeno_sim_word(self->sim, NULL, 0) + 1;
  char *word = malloc(size);
  if (word) zeno_sim_word(self->sim, word, size);
  self->busy = false;
  if (word == NULL) return ext_no_memory();
  PyObject *d = PyDict_New();
  if (d != NULL && !put_summary(d, &s, word)) Py_CLEAR(d);
  free(word);
  return d;
}

/// restart((z1, z2, x2), (z1', z2', x2')): zeno_sim_restart.
static PyObject *simulator_restart(PyObject *object, PyObject *args) {
  simulator *self = (simulator *)object;
  double qp[3], qdp[3];
  if (!PyArg_ParseTuple(args, "(ddd)(ddd)", &qp[0], &qp[1], &qp[2], &qdp[0], &qdp[1], &qdp[2]))
    return NULL;
  if (!claim(self)) return NULL;
  zeno_error e;
  const zeno_status st = zeno_sim_restart(self->sim, qp, qdp, &e);
  self->busy = false;
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  Py_RETURN_NONE;
}

/// run(): zeno_sim_run, then summary() (the GIL released meanwhile).
static PyObject *simulator_run(PyObject *object, PyObject *unused) {
  simulator *self = (simulator *)object;
  if (!claim(self)) return NULL;
  zeno_error e;
  ext_release(&self->stop);
  const zeno_status st = zeno_sim_run(self->sim, &e);
  const bool go_on = ext_acquire(&self->stop);
  self->busy = false;
  if (!go_on) return NULL;
  if (st != ZENO_OK) return ext_raise(&e, EXT_CALL);
  return simulator_summary(object, unused);
}

static PyMethodDef SIMULATOR_METHODS[] = {
    {"restart", simulator_restart, METH_VARARGS,
     "restart(qp, qdp): start over from ZOD coordinates, keeping the per-scene table."},
    {"run", simulator_run, METH_NOARGS,
     "run(): zeno_sim_run, to the end without the events; the summary as a dict."},
    {"state_at", simulator_state_at, METH_O,
     "state_at(t): dense output at time t (needs keep_history before the last event)."},
    {"summary", simulator_summary, METH_NOARGS, "summary(): the run so far as a dict."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject ext_simulator_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "zeno._zeno.Simulator",
    .tp_basicsize = sizeof(simulator),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "Simulator(scene, keep_history=False): zeno_sim; next() gives events as "
        "1-element record arrays.",
    .tp_new = simulator_new,
    .tp_dealloc = simulator_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = simulator_next,
    .tp_methods = SIMULATOR_METHODS,
};
