// Region maps: the sweep of `zeno regions` (zeno_regions_create on the
// scene's text with its overrides, then zeno_regions_row row by row over
// OpenMP threads, each row without the GIL), returned as 2-D arrays of the
// fields of regions.csv, one row per y value.
#include "ext.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ext_parse_axis(const char *text, zeno_region_axis *axis) {
  zeno_error e;
  if (zeno_region_axis_parse(text, axis, &e) == ZENO_OK) return true;
  ext_raise(&e, EXT_CALL);
  return false;
}

/// The sweep of the scene text with its overrides; NULL with the error set.
static zeno_regions *create(PyObject *text, const char *name, PyObject *override_list,
                            const zeno_regions_def *def) {
  ext_source source;
  if (!ext_source_of(text, override_list, &source)) return NULL;
  zeno_error e;
  zeno_regions *r = zeno_regions_create(source.text, name, (const char *const *)source.overrides,
                                        source.count, def, &e);
  ext_source_free(&source);
  if (r == NULL) ext_raise(&e, e.code == ZENO_ERR_NOMEM ? EXT_CALL : EXT_SCENE);
  return r;
}

static zeno_status regions_row(const void *map, size_t iy, int threads, void *row,
                               zeno_error *error) {
  return zeno_regions_row(map, iy, threads, row, error);
}

/* ---- the grid as arrays ------------------------------------------------------------ */

PyObject *ext_field_grid(const void *points, size_t stride, npy_intp ny, npy_intp nx, int type,
                         size_t offset, size_t size) {
  const npy_intp shape[2] = {ny, nx};
  PyObject *a = PyArray_SimpleNew(2, (npy_intp *)shape, type);
  char *v = a ? PyArray_DATA((PyArrayObject *)a) : NULL;
  for (npy_intp k = 0; v != NULL && k < ny * nx; k++)
    memcpy(v + (size_t)k * size, (const char *)points + (size_t)k * stride + offset, size);
  return a;
}

PyObject *ext_grid_shape(PyObject *flat, npy_intp ny, npy_intp nx) {
  if (flat == NULL) return NULL;
  PyArray_Dims dims = {(npy_intp[]){ny, nx}, 2};
  PyObject *a = PyArray_Newshape((PyArrayObject *)flat, &dims, NPY_CORDER);
  Py_DECREF(flat);
  return a;
}

#define FIELD(name, type, member)                                                       \
  ext_field_grid(grid, sizeof *grid, ny, nx, type, offsetof(zeno_region_point, member), \
                 sizeof(((zeno_region_point *)0)->member))

/// Which names name_grid() writes.
typedef enum grid_name { NAME_VERDICT, NAME_SIM, NAME_REGION } grid_name;

/// Room for the longest name of a region (zeno_region_name: "unstable, not
/// persistent (Theorem 2)", 36 characters) and its NUL.
#define REGION_NAME_CHARS 40

/// A (ny, nx) array of names (verdicts, simulation verdicts or regions).
static PyObject *name_grid(const zeno_region_point *grid, npy_intp ny, npy_intp nx,
                           grid_name which) {
  const size_t n = (size_t)(ny * nx);
  char(*names)[REGION_NAME_CHARS] = PyMem_Calloc(n ? n : 1, sizeof *names);
  if (names == NULL) return ext_no_memory();
  for (size_t k = 0; k < n; k++)
    snprintf(names[k], sizeof *names, "%s",
             which == NAME_VERDICT ? zeno_verdict_name(grid[k].verdict)
             : which == NAME_SIM   ? zeno_region_sim_name(grid[k].sim)
                                   : zeno_region_name(grid[k].region));
  PyObject *flat = ext_texts(names[0], n, sizeof *names);
  PyMem_Free(names);
  return ext_grid_shape(flat, ny, nx);
}

/// A (ny, nx) array of the error rows' messages ("" for analysed points),
/// read in place from the points.
static PyObject *error_grid(const zeno_region_point *grid, npy_intp ny, npy_intp nx) {
  return ext_grid_shape(ext_texts(grid[0].error, (size_t)(ny * nx), sizeof *grid), ny, nx);
}

PyObject *ext_axis_values(const zeno_region_axis *axis) {
  const npy_intp shape[1] = {(npy_intp)axis->count};
  PyObject *a = PyArray_SimpleNew(1, (npy_intp *)shape, NPY_DOUBLE);
  double *v = a ? PyArray_DATA((PyArrayObject *)a) : NULL;
  for (size_t i = 0; v != NULL && i < axis->count; i++) v[i] = zeno_region_axis_value(axis, i);
  return a;
}

static PyObject *grid_dict(const zeno_region_point *grid, const zeno_regions_def *def,
                           int threads) {
  const npy_intp ny = (npy_intp)def->y.count, nx = (npy_intp)def->x.count;
  PyObject *d = PyDict_New();
  const bool ok =
      d != NULL && ext_put(d, "x", ext_axis_values(&def->x)) &&
      ext_put(d, "y", ext_axis_values(&def->y)) &&
      ext_put(d, "x_path", PyUnicode_FromString(def->x.path)) &&
      ext_put(d, "y_path", PyUnicode_FromString(def->y.path)) &&
      ext_put(d, "region", FIELD(region, NPY_INT, region)) &&
      ext_put(d, "region_name", name_grid(grid, ny, nx, NAME_REGION)) &&
      ext_put(d, "theorem", FIELD(theorem, NPY_INT, theorem)) &&
      ext_put(d, "verdict", name_grid(grid, ny, nx, NAME_VERDICT)) &&
      ext_put(d, "persistent", FIELD(persistent, NPY_BOOL, persistent)) &&
      ext_put(d, "has_maps", FIELD(has_maps, NPY_BOOL, has_maps)) &&
      ext_put(d, "G_max", FIELD(G_max, NPY_DOUBLE, G_max)) &&
      ext_put(d, "fixed_point_phi", FIELD(fixed_point_phi, NPY_DOUBLE, fixed_point_phi)) &&
      ext_put(d, "fixed_point_G", FIELD(fixed_point_G, NPY_DOUBLE, fixed_point_G)) &&
      ext_put(d, "fixed_points", FIELD(fixed_point_count, NPY_UINTP, fixed_point_count)) &&
      ext_put(d, "partition", FIELD(partition_count, NPY_UINTP, partition_count)) &&
      ext_put(d, "unsafe", FIELD(unsafe_count, NPY_UINTP, unsafe_count)) &&
      ext_put(d, "mc_runs", FIELD(mc_runs, NPY_INT, mc_runs)) &&
      ext_put(d, "mc_rest", FIELD(mc_rest, NPY_INT, mc_rest)) &&
      ext_put(d, "mc_full_runs", FIELD(mc_full_runs, NPY_INT, mc_full_runs)) &&
      ext_put(d, "mc_full_rest", FIELD(mc_full_rest, NPY_INT, mc_full_rest)) &&
      ext_put(d, "sim", name_grid(grid, ny, nx, NAME_SIM)) &&
      ext_put(d, "on_breakpoint", FIELD(on_breakpoint, NPY_INT, on_breakpoint)) &&
      ext_put(d, "error", error_grid(grid, ny, nx)) &&
      ext_put(d, "threads", PyLong_FromLong(zeno_regions_threads(threads)));
  if (!ok) Py_CLEAR(d);
  return d;
}

/* ---- the call ----------------------------------------------------------------------- */

/// regions(text, name, overrides, x, y, *, threads=0, samples, intervals,
/// mc_runs, mc_seed, mc_full): x and y are "PATH=LO:HI:N".
PyObject *ext_regions(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *keywords[] = {"text",    "name",      "overrides", "x",       "y",       "threads",
                             "samples", "intervals", "mc_runs",   "mc_seed", "mc_full", NULL};
  PyObject *text, *overrides, *threads_arg = Py_None, *seed_arg = Py_None;
  PyObject *samples_arg = Py_None, *intervals_arg = Py_None, *mc_runs_arg = Py_None;
  const char *name, *x, *y;
  zeno_regions_def def = zeno_regions_def_default();
  int mc_full = def.mc_full;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UsOss|$OOOOOp", keywords, &text, &name,
                                   &overrides, &x, &y, &threads_arg, &samples_arg, &intervals_arg,
                                   &mc_runs_arg, &seed_arg, &mc_full))
    return NULL;
  // The program's ranges: threads in [1, ZENO_REGIONS_MAX_THREADS] (None:
  // every core), a seed of 64 bits (never taken modulo 2^64).
  long long threads = 0, samples = (long long)def.analysis.maps.samples;
  long long intervals = (long long)def.analysis.partition_intervals, mc_runs = def.mc_runs;
  if ((threads_arg != Py_None &&
       !ext_integer(threads_arg, "threads", 1, ZENO_REGIONS_MAX_THREADS, EXT_CALL, &threads)) ||
      (samples_arg != Py_None && !ext_integer(samples_arg, "samples", ZENO_MAPS_MIN_SAMPLES,
                                              ZENO_MAPS_MAX_SAMPLES, EXT_CALL, &samples)) ||
      (intervals_arg != Py_None && !ext_integer(intervals_arg, "intervals", ZENO_MIN_PARTITION,
                                                ZENO_MAX_PARTITION / 2, EXT_CALL, &intervals)) ||
      (mc_runs_arg != Py_None &&
       !ext_integer(mc_runs_arg, "mc_runs", 0, ZENO_REGIONS_MAX_MC_RUNS, EXT_CALL, &mc_runs)))
    return NULL;
  unsigned long long seed = def.mc_seed;
  if (seed_arg != Py_None) {
    seed = PyLong_AsUnsignedLongLong(seed_arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) {
      if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
      PyErr_Clear();
      return ext_range_error("mc_seed", "mc_seed outside [0, 2**64 - 1]");
    }
  }
  if (!ext_parse_axis(x, &def.x) || !ext_parse_axis(y, &def.y)) return NULL;
  def.analysis.maps.samples = (size_t)samples;
  def.analysis.partition_intervals = (size_t)intervals;
  def.mc_runs = (int)mc_runs;
  def.mc_seed = seed;
  def.mc_full = mc_full;
  ext_interrupt stop = {0};
  def.interrupt = ext_interrupt_of(&stop);
  zeno_regions *r = create(text, name, overrides, &def);
  if (r == NULL) return NULL;
  const size_t points = def.x.count * def.y.count;
  zeno_region_point *grid = PyMem_Calloc(points, sizeof *grid);
  PyObject *d = NULL;
  if (grid == NULL) ext_no_memory();
  else if (ext_grid_rows(r, regions_row, def.x.count, def.y.count, sizeof *grid, (int)threads,
                         &stop, grid))
    d = grid_dict(grid, &def, (int)threads);
  PyMem_Free(grid);
  zeno_regions_destroy(r);
  return d;
}
