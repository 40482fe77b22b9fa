// Events, states and trajectory rows as numpy arrays. An event is one
// record of a structured dtype built from the C structs below (one table of
// names, formats and offsets per struct), with the states before and after
// it as nested records; names follow events.jsonl (zeno_io_event_jsonl).
#include "ext.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

PyArray_Descr *ext_event_dtype, *ext_state_dtype;

/// Room for names: "transition", "friction-margin", "solver-failure".
#define NAME_CHARS 16
#define MODE_CHARS ZENO_PAIR_CONTACTS
#define SOLVER_FLAG_CHARS 48

/// One zeno_state (ext_state_dtype).
typedef struct state_record {
  double t, q[3], qdot[3];
  double gap[ZENO_PAIR_CONTACTS], gap_rate[ZENO_PAIR_CONTACTS];
  double slip[ZENO_PAIR_CONTACTS], slip_rate[ZENO_PAIR_CONTACTS];
  double zod[3], zod_rate[3];
  double force[ZENO_PAIR_CONTACTS][2];
  double energy;
  Py_UCS4 mode[MODE_CHARS];
} state_record;

/// One zeno_event (ext_event_dtype). contact is 1-based, 0 for none.
typedef struct event_record {
  int64_t index;
  double t;
  Py_UCS4 kind[NAME_CHARS], guard[NAME_CHARS];
  int32_t contact;
  Py_UCS4 mode_before[MODE_CHARS], mode_after[MODE_CHARS];
  Py_UCS4 impact[MODE_CHARS];  ///< "IF", "FI", "II", "I"; "" unless an impact
  uint32_t impact_mask;
  double impulse[ZENO_PAIR_CONTACTS][2];
  Py_UCS4 impact_outcome[ZENO_PAIR_CONTACTS];  ///< S, P or N per contact with an impulse; 0 else
  state_record before, after;
  uint8_t on_section;
  double section_angle;  ///< NaN unless on_section
  int64_t zeno_impacts;
  double zeno_ratio, zeno_error;
  int32_t zeno_period, zeno_order;
  Py_UCS4 outcome[NAME_CHARS];  ///< END events; "" for the others
  Py_UCS4 solver_flag[SOLVER_FLAG_CHARS];
  int32_t consistent_count;
  Py_UCS4 consistent[ZENO_MAX_MODES][MODE_CHARS];
  /// END(inconsistent): per mode code, its refusal's name ("" none) and the
  /// contact it names (1-based, 0 none); zeno_event.refusal.
  Py_UCS4 refusal[ZENO_MAX_MODES][NAME_CHARS];
  int32_t refusal_contact[ZENO_MAX_MODES];
  uint8_t refusal_of_impact;
  double guard_residual, constraint_drift, tie_margin;
  uint8_t near_tie;
} event_record;

/// A field: its name, its numpy format (NULL: the state dtype) and offset.
typedef struct field {
  const char *name, *format;
  size_t offset;
} field;

// clang-format off
#define S(member, format) {#member, format, offsetof(state_record, member)}
static const field STATE_FIELDS[] = {
    S(t, "f8"),          S(q, "(3,)f8"),         S(qdot, "(3,)f8"),
    S(gap, "(2,)f8"),    S(gap_rate, "(2,)f8"),  S(slip, "(2,)f8"),
    S(slip_rate, "(2,)f8"), S(zod, "(3,)f8"),    S(zod_rate, "(3,)f8"),
    S(force, "(2,2)f8"), S(energy, "f8"),        S(mode, "U2"),
};
#undef S
// clang-format on

// clang-format off
#define E(member, format) {#member, format, offsetof(event_record, member)}
static const field EVENT_FIELDS[] = {
    E(index, "i8"),         E(t, "f8"),
    E(kind, "U16"),         E(guard, "U16"),
    E(contact, "i4"),       E(mode_before, "U2"),
    E(mode_after, "U2"),    E(impact, "U2"),
    E(impact_mask, "u4"),   E(impulse, "(2,2)f8"),
    E(impact_outcome, "(2,)U1"), E(before, NULL),
    E(after, NULL),         E(on_section, "?"),
    E(section_angle, "f8"), E(zeno_impacts, "i8"),
    E(zeno_ratio, "f8"),    E(zeno_error, "f8"),
    E(zeno_period, "i4"),   E(zeno_order, "i4"),
    E(outcome, "U16"),
    E(solver_flag, "U48"),  E(consistent_count, "i4"),
    E(consistent, "(16,)U2"), E(refusal, "(16,)U16"),
    E(refusal_contact, "(16,)i4"), E(refusal_of_impact, "?"),
    E(guard_residual, "f8"),
    E(constraint_drift, "f8"), E(tie_margin, "f8"),
    E(near_tie, "?"),
};
#undef E
// clang-format on

/// The dtype of a table: {"names", "formats", "offsets", "itemsize"}.
static PyArray_Descr *dtype_of(const field *fields, size_t n, size_t itemsize) {
  PyObject *names = PyList_New((Py_ssize_t)n), *formats = PyList_New((Py_ssize_t)n);
  PyObject *offsets = PyList_New((Py_ssize_t)n), *spec = PyDict_New();
  PyArray_Descr *dtype = NULL;
  bool ok = names && formats && offsets && spec;
  for (size_t i = 0; ok && i < n; i++) {
    PyObject *format = fields[i].format ? PyUnicode_FromString(fields[i].format)
                                        : (Py_INCREF(ext_state_dtype), (PyObject *)ext_state_dtype);
    PyObject *name = PyUnicode_FromString(fields[i].name);
    PyObject *offset = PyLong_FromSize_t(fields[i].offset);
    ok = format && name && offset;
    if (ok) {
      PyList_SET_ITEM(names, (Py_ssize_t)i, name);
      PyList_SET_ITEM(formats, (Py_ssize_t)i, format);
      PyList_SET_ITEM(offsets, (Py_ssize_t)i, offset);
    } else {
      Py_XDECREF(format), Py_XDECREF(name), Py_XDECREF(offset);
    }
  }
  ok = ok && PyDict_SetItemString(spec, "names", names) == 0 &&
       PyDict_SetItemString(spec, "formats", formats) == 0 &&
       PyDict_SetItemString(spec, "offsets", offsets) == 0 &&
       ext_put(spec, "itemsize", PyLong_FromSize_t(itemsize));
  if (ok && !PyArray_DescrConverter(spec, &dtype)) dtype = NULL;
  Py_XDECREF(names), Py_XDECREF(formats), Py_XDECREF(offsets), Py_XDECREF(spec);
  return dtype;
}

bool ext_records_init(void) {
  ext_state_dtype = dtype_of(STATE_FIELDS, sizeof STATE_FIELDS / sizeof *STATE_FIELDS,
                             sizeof(state_record));
  if (ext_state_dtype == NULL) return false;
  ext_event_dtype = dtype_of(EVENT_FIELDS, sizeof EVENT_FIELDS / sizeof *EVENT_FIELDS,
                             sizeof(event_record));
  return ext_event_dtype != NULL;
}

PyObject *ext_modes(const zeno_mode *modes, size_t n, int contact_count) {
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t k = 0; list != NULL && k < n; k++) {
    char name[ZENO_MODE_NAME_SIZE];
    PyObject *text = PyUnicode_FromString(zeno_mode_name(modes[k], contact_count, name));
    if (text == NULL) Py_CLEAR(list);
    else PyList_SET_ITEM(list, (Py_ssize_t)k, text);
  }
  return list;
}

/* ---- filling records ----------------------------------------------------------- */

static void put_mode(Py_UCS4 *dst, zeno_mode mode, int contact_count) {
  char name[ZENO_MODE_NAME_SIZE];
  ext_put_text(dst, MODE_CHARS, zeno_mode_name(mode, contact_count, name));
}

static void fill_state(state_record *r, const zeno_state *s, int contact_count) {
  r->t = s->t;
  memcpy(r->q, s->q, sizeof r->q);
  memcpy(r->qdot, s->qdot, sizeof r->qdot);
  memcpy(r->gap, s->gap, sizeof r->gap);
  memcpy(r->gap_rate, s->gap_rate, sizeof r->gap_rate);
  memcpy(r->slip, s->slip, sizeof r->slip);
  memcpy(r->slip_rate, s->slip_rate, sizeof r->slip_rate);
  memcpy(r->zod, s->zod, sizeof r->zod);
  memcpy(r->zod_rate, s->zod_rate, sizeof r->zod_rate);
  memcpy(r->force, s->force, sizeof r->force);
  r->energy = s->energy;
  put_mode(r->mode, s->mode, contact_count);
}

static void fill_impact(event_record *r, const zeno_event *e, int contact_count) {
  if (e->kind != ZENO_EVENT_IMPACT) return;
  ext_put_text(r->impact, MODE_CHARS, zeno_impact_name(e->impact_mask, contact_count));
  r->impact_mask = e->impact_mask;
  for (int i = 0; i < contact_count && i < ZENO_PAIR_CONTACTS; i++)
    if (e->impact_mask & (1u << i)) {
      const zeno_mode letter = {{e->impact_letter[i]}};
      char name[ZENO_MODE_NAME_SIZE];
      r->impact_outcome[i] = (unsigned char)zeno_mode_name(letter, 1, name)[0];
    }
}

static void fill_event(event_record *r, const zeno_event *e, int contact_count) {
  r->index = e->index;
  r->t = e->t;
  ext_put_text(r->kind, NAME_CHARS, zeno_event_kind_name(e->kind));
  ext_put_text(r->guard, NAME_CHARS, zeno_guard_name(e->guard));
  r->contact = e->contact >= 0 ? e->contact + 1 : 0;
  put_mode(r->mode_before, e->mode_before, contact_count);
  put_mode(r->mode_after, e->mode_after, contact_count);
  memcpy(r->impulse, e->impulse, sizeof r->impulse);
  fill_impact(r, e, contact_count);
  fill_state(&r->before, &e->before, contact_count);
  fill_state(&r->after, &e->after, contact_count);
  r->on_section = e->on_section;
  r->section_angle = e->on_section ? e->section_angle : NAN;
  r->zeno_impacts = e->zeno_impacts;
  r->zeno_ratio = e->zeno_ratio;
  r->zeno_error = e->zeno_error;
  r->zeno_period = e->zeno_period;
  r->zeno_order = e->zeno_order;
  if (e->kind == ZENO_EVENT_END)
    ext_put_text(r->outcome, NAME_CHARS, zeno_outcome_name(e->outcome));
  ext_put_text(r->solver_flag, SOLVER_FLAG_CHARS, e->solver_flag);
  const size_t consistent = e->consistent_count < ZENO_MAX_MODES ? e->consistent_count
                                                                 : ZENO_MAX_MODES;
  r->consistent_count = (int32_t)consistent;
  for (size_t k = 0; k < consistent; k++)
    put_mode(r->consistent[k], e->consistent[k], contact_count);
  if (e->kind == ZENO_EVENT_END && e->outcome == ZENO_OUTCOME_INCONSISTENT) {
    r->refusal_of_impact = e->refusal_of_impact;
    for (int code = 0; code < ZENO_MAX_MODES; code++) {
      if (e->refusal[code] == ZENO_REFUSAL_NONE) continue;
      ext_put_text(r->refusal[code], NAME_CHARS, zeno_refusal_name((zeno_refusal)e->refusal[code]));
      r->refusal_contact[code] = e->refusal_contact[code] + 1;
    }
  }
  r->guard_residual = e->guard_residual;
  r->constraint_drift = e->constraint_drift;
  r->tie_margin = e->tie_margin;
  r->near_tie = e->near_tie;
}

PyObject *ext_event_array(const zeno_event *events, size_t n, size_t stride, int contact_count) {
  const npy_intp shape[1] = {(npy_intp)n};
  PyObject *a = ext_zeros(ext_event_dtype, 1, shape);
  if (a == NULL) return NULL;
  event_record *r = PyArray_DATA((PyArrayObject *)a);
  for (size_t k = 0; k < n; k++)
    fill_event(&r[k], (const zeno_event *)((const char *)events + k * stride), contact_count);
  return a;
}

PyObject *ext_state_array(const zeno_state *state, int contact_count) {
  PyObject *a = ext_zeros(ext_state_dtype, 0, NULL);
  if (a != NULL) fill_state(PyArray_DATA((PyArrayObject *)a), state, contact_count);
  return a;
}

/* ---- trajectory ---------------------------------------------------------------- */

/// Columns of trajectory.csv that are not numbers (kept as their own arrays).
static bool text_column(const char *name, size_t n) {
  static const char *const TEXT[] = {"mode", "kind", "event"};
  for (size_t k = 0; k < sizeof TEXT / sizeof *TEXT; k++)
    if (n == strlen(TEXT[k]) && strncmp(name, TEXT[k], n) == 0) return true;
  return false;
}

/// The columns of trajectory.csv for a contact count (its header,
/// zeno_io_trajectory_columns), all of them or only the float ones, as a
/// tuple of str.
static PyObject *header_columns(int contact_count, bool floats_only) {
  const char *header = zeno_io_trajectory_columns(contact_count);
  PyObject *list = header ? PyList_New(0) : NULL;
  for (const char *p = header; list != NULL && *p;) {
    const size_t n = strcspn(p, ",");
    if (!floats_only || !text_column(p, n)) {
      PyObject *name = PyUnicode_FromStringAndSize(p, (Py_ssize_t)n);
      if (name == NULL || PyList_Append(list, name) < 0) Py_CLEAR(list);
      Py_XDECREF(name);
    }
    p += n + (p[n] == ',');
  }
  PyObject *t = list ? PyList_AsTuple(list) : NULL;
  Py_XDECREF(list);
  return t;
}

PyObject *ext_trajectory_columns(int contact_count) { return header_columns(contact_count, true); }

/// The float values of a row in header order: t, the pose and its rates,
/// q' and its rates, the forces of the scene's contacts. Returns the count.
static size_t row_values(const zeno_run_dir_row *r, int contact_count,
                         double out[TRAJECTORY_FLOATS_MAX]) {
  size_t n = 0;
  out[n++] = r->t;
  for (int k = 0; k < 3; k++) out[n++] = r->q[k];
  for (int k = 0; k < 3; k++) out[n++] = r->qdot[k];
  for (int k = 0; k < 3; k++) out[n++] = r->zod[k];
  for (int k = 0; k < 3; k++) out[n++] = r->zod_rate[k];
  for (int i = 0; i < contact_count; i++)
    for (int k = 0; k < 2; k++) out[n++] = r->force[i][k];
  return n;
}

/// Widest row kind name ("sample", "before", "after").
#define KIND_CHARS 6

/// A new 1-D unicode array of n strings of `width` characters.
static PyObject *unicode_array(size_t n, size_t width) {
  PyArray_Descr *dtype = PyArray_DescrNewFromType(NPY_UNICODE);
  if (dtype == NULL) return NULL;
  dtype->elsize = (int)(width * sizeof(Py_UCS4));
  const npy_intp shape[1] = {(npy_intp)n};
  return PyArray_Zeros(1, (npy_intp *)shape, dtype, 0);  // steals dtype
}

/// Fills the arrays of the rows; touches no Python object (runs without the GIL).
static void fill_rows(const zeno_run_dir_data *data, size_t columns, double *v, Py_UCS4 *mode,
                      Py_UCS4 *kind, int64_t *event) {
  const size_t n = data->row_count, width = (size_t)data->contact_count;
  for (size_t i = 0; i < n; i++) {
    const zeno_run_dir_row *r = &data->rows[i];
    double row[TRAJECTORY_FLOATS_MAX];
    row_values(r, data->contact_count, row);
    for (size_t c = 0; c < columns; c++) v[c * n + i] = row[c];
    char name[ZENO_MODE_NAME_SIZE];
    ext_put_text(mode + i * width, width, zeno_mode_name(r->mode, data->contact_count, name));
    // What the row is and its event come with it (zeno_run_dir_record).
    ext_put_text(kind + i * KIND_CHARS, KIND_CHARS, zeno_run_dir_row_kind_name(r->kind));
    event[i] = (int64_t)r->event;
  }
}

PyObject *ext_trajectory(const zeno_run_dir_data *data) {
  const size_t n = data->row_count;
  PyObject *floats = header_columns(data->contact_count, true);
  PyObject *header = header_columns(data->contact_count, false);
  if (floats == NULL || header == NULL) {
    Py_XDECREF(floats);
    Py_XDECREF(header);
    return NULL;
  }
  const size_t columns = (size_t)PyTuple_GET_SIZE(floats);
  const npy_intp shape[2] = {(npy_intp)columns, (npy_intp)n};
  PyObject *values = PyArray_SimpleNew(2, (npy_intp *)shape, NPY_DOUBLE);
  PyObject *event = PyArray_SimpleNew(1, (npy_intp *)&shape[1], NPY_INT64);
  PyObject *mode = unicode_array(n, (size_t)data->contact_count);
  PyObject *kind = unicode_array(n, KIND_CHARS);
  PyObject *out = NULL;
  if (values != NULL && event != NULL && mode != NULL && kind != NULL) {
    double *v = PyArray_DATA((PyArrayObject *)values);
    Py_UCS4 *m = PyArray_DATA((PyArrayObject *)mode), *w = PyArray_DATA((PyArrayObject *)kind);
    int64_t *e = PyArray_DATA((PyArrayObject *)event);
    Py_BEGIN_ALLOW_THREADS  // the arrays are not visible to Python yet
        fill_rows(data, columns, v, m, w, e);
    Py_END_ALLOW_THREADS out = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O}", "values", values, "mode",
                                             mode, "kind", kind, "event", event, "columns", floats,
                                             "header", header);
  }
  Py_XDECREF(values);
  Py_XDECREF(event);
  Py_XDECREF(mode);
  Py_XDECREF(kind);
  Py_DECREF(floats);
  Py_DECREF(header);
  return out;
}
