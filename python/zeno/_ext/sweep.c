// Outcome sweeps: the sweep of `zeno sweep` (zeno_sweep_create on the
// scene's text with its overrides, then zeno_sweep_row row by row over
// OpenMP threads, each row without the GIL), returned as 2-D arrays of the
// fields of sweep.csv, one row per y value.
#include "ext.h"

#include <stdlib.h>
#include <string.h>

/// The sweep of the scene text with its overrides; NULL with the error set.
static zeno_sweep *create(PyObject *text, const char *name, PyObject *override_list,
                          const zeno_sweep_def *def) {
  ext_source source;
  if (!ext_source_of(text, override_list, &source)) return NULL;
  zeno_error e;
  zeno_sweep *w = zeno_sweep_create(source.text, name, (const char *const *)source.overrides,
                                    source.count, def, &e);
  ext_source_free(&source);
  // A basin estimate the library refuses is an argument's fault, not the
  // scene's (the package names the argument).
  if (w == NULL)
    ext_raise(&e,
              e.code == ZENO_ERR_NOMEM || strcmp(e.parameter, "basin") == 0 ? EXT_CALL : EXT_SCENE);
  return w;
}

static zeno_status sweep_row(const void *map, size_t iy, int threads, void *row,
                             zeno_error *error) {
  return zeno_sweep_row(map, iy, threads, row, error);
}

/* ---- the grid as arrays ------------------------------------------------------------ */

#define FIELD(type, member)                                                            \
  ext_field_grid(grid, sizeof *grid, ny, nx, type, offsetof(zeno_sweep_point, member), \
                 sizeof(((zeno_sweep_point *)0)->member))

/// Room for the longest outcome name and its NUL.
#define OUTCOME_NAME_CHARS 32

/// A (ny, nx) array of the outcomes' names, "" where a point was not
/// simulated (an empty field in sweep.csv).
static PyObject *outcome_grid(const zeno_sweep_point *grid, npy_intp ny, npy_intp nx) {
  const size_t n = (size_t)(ny * nx);
  char(*names)[OUTCOME_NAME_CHARS] = PyMem_Calloc(n ? n : 1, sizeof *names);
  if (names == NULL) return ext_no_memory();
  for (size_t k = 0; k < n; k++)
    snprintf(names[k], sizeof *names, "%s", grid[k].ok ? zeno_outcome_name(grid[k].outcome) : "");
  PyObject *flat = ext_texts(names[0], n, sizeof *names);
  PyMem_Free(names);
  return ext_grid_shape(flat, ny, nx);
}

/// A (ny, nx, 3) array of q' at the end of each run.
static PyObject *final_zod_grid(const zeno_sweep_point *grid, npy_intp ny, npy_intp nx) {
  const npy_intp shape[3] = {ny, nx, 3};
  PyObject *a = PyArray_SimpleNew(3, (npy_intp *)shape, NPY_DOUBLE);
  double *v = a ? PyArray_DATA((PyArrayObject *)a) : NULL;
  for (npy_intp k = 0; v != NULL && k < ny * nx; k++)
    memcpy(v + 3 * k, grid[k].final_zod, sizeof grid[k].final_zod);
  return a;
}

static PyObject *grid_dict(const zeno_sweep_point *grid, const zeno_sweep_def *def, int threads) {
  const npy_intp ny = (npy_intp)def->y.count, nx = (npy_intp)def->x.count;
  PyObject *d = PyDict_New();
  bool ok =
      d != NULL && ext_put(d, "x", ext_axis_values(&def->x)) &&
      ext_put(d, "y", ext_axis_values(&def->y)) &&
      ext_put(d, "x_path", PyUnicode_FromString(def->x.path)) &&
      ext_put(d, "y_path", PyUnicode_FromString(def->y.path)) &&
      ext_put(d, "ok", FIELD(NPY_BOOL, ok)) && ext_put(d, "outcome", outcome_grid(grid, ny, nx)) &&
      ext_put(d, "t", FIELD(NPY_DOUBLE, t)) && ext_put(d, "events", FIELD(NPY_LONG, events)) &&
      ext_put(d, "impacts", FIELD(NPY_LONG, impacts)) &&
      ext_put(d, "zeno", FIELD(NPY_BOOL, has_zeno)) &&
      ext_put(d, "zeno_time", FIELD(NPY_DOUBLE, zeno_time)) &&
      ext_put(d, "final_zod", final_zod_grid(grid, ny, nx)) &&
      ext_put(d, "energy_gains", FIELD(NPY_LONG, energy_gains)) &&
      ext_put(d, "error",
              ext_grid_shape(ext_texts(grid[0].error, (size_t)(ny * nx), sizeof *grid), ny, nx)) &&
      ext_put(d, "threads", PyLong_FromLong(zeno_regions_threads(threads)));
  if (ok && def->basin.count > 0)
    ok = ext_put(d, "basin_inner", FIELD(NPY_DOUBLE, basin_inner)) &&
         ext_put(d, "basin_outer", FIELD(NPY_DOUBLE, basin_outer)) &&
         ext_put(d, "basin_width", FIELD(NPY_DOUBLE, basin_width)) &&
         ext_put(d, "basin_returns", FIELD(NPY_INT, basin_returns)) &&
         ext_put(d, "basin_transitions", FIELD(NPY_INT, basin_transitions));
  if (!ok) Py_CLEAR(d);
  return d;
}

/* ---- the call ----------------------------------------------------------------------- */

/// sweep(text, name, overrides, x, y, *, threads=None, magnitude=None,
/// basin_tol=None, basin_turn=None): x and y are "PATH=LO:HI:N", magnitude
/// "LO:HI:N" (the scene's epsilon, as --magnitude), basin_turn in radians.
PyObject *ext_sweep(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *keywords[] = {"text",    "name",      "overrides", "x",          "y",
                             "threads", "magnitude", "basin_tol", "basin_turn", NULL};
  PyObject *text, *overrides, *threads_arg = Py_None, *tol_arg = Py_None, *turn_arg = Py_None;
  const char *name, *x, *y, *magnitude = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UsOss|$OzOO", keywords, &text, &name, &overrides,
                                   &x, &y, &threads_arg, &magnitude, &tol_arg, &turn_arg))
    return NULL;
  long long threads = 0;
  if (threads_arg != Py_None &&
      !ext_integer(threads_arg, "threads", 1, ZENO_REGIONS_MAX_THREADS, EXT_CALL, &threads))
    return NULL;
  zeno_sweep_def def = zeno_sweep_def_default();
  if (!ext_parse_axis(x, &def.x) || !ext_parse_axis(y, &def.y)) return NULL;
  if (magnitude != NULL) {
    // --magnitude LO:HI:N, read as an axis of the scene's epsilon.
    char axis[ZENO_REGION_PATH_SIZE + 128];
    snprintf(axis, sizeof axis, "epsilon=%s", magnitude);
    zeno_region_axis a;
    zeno_error e;
    if (zeno_region_axis_parse(axis, &a, &e) != ZENO_OK) {
      snprintf(e.parameter, sizeof e.parameter, "basin");
      return ext_raise(&e, EXT_CALL);
    }
    def.basin.lo = a.lo;
    def.basin.hi = a.hi;
    def.basin.count = a.count;
  }
  if (tol_arg != Py_None && (def.basin.tol = PyFloat_AsDouble(tol_arg)) == -1 && PyErr_Occurred())
    return NULL;
  if (turn_arg != Py_None && (def.basin.turn_max = PyFloat_AsDouble(turn_arg)) == -1 &&
      PyErr_Occurred())
    return NULL;
  ext_interrupt stop = {0};
  def.interrupt = ext_interrupt_of(&stop);
  zeno_sweep *w = create(text, name, overrides, &def);
  if (w == NULL) return NULL;
  const size_t points = def.x.count * def.y.count;
  zeno_sweep_point *grid = PyMem_Calloc(points, sizeof *grid);
  PyObject *d = NULL;
  if (grid == NULL) ext_no_memory();
  else if (ext_grid_rows(w, sweep_row, def.x.count, def.y.count, sizeof *grid, (int)threads, &stop,
                         grid))
    d = grid_dict(grid, &def, (int)threads);
  PyMem_Free(grid);
  zeno_sweep_destroy(w);
  return d;
}
