// Events, states and trajectory rows as numpy arrays. An event is one
// record of a structured dtype, with the states before and after it as
// nested records; names follow events.jsonl (zeno_io_event_jsonl). The
// dtypes are laid out per contact count from one table of fields each
// (record_layout): per-contact fields hold one entry per contact and a mode
// one letter per contact. One and two contacts share the two-contact
// layout (EVENT_DTYPE, STATE_DTYPE; a one-contact run leaves the second
// entries zero), so their records are those of the C structs they were
// first written from, byte for byte.
#include "ext.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

PyArray_Descr *ext_event_dtype, *ext_state_dtype;

/// Room for names: "transition", "friction-margin", "solver-failure".
#define NAME_CHARS 16
#define SOLVER_FLAG_CHARS 48

/// A dimension or a text width of a field that is the record's contact
/// count (ext_record_width()).
#define PER_CONTACT (-1)

/// A field of a record: its name, type ('f' float64, 'q' int64, 'i' int32,
/// 'u' uint32, 'b' bool, 'U' text of `chars` characters, 'R' a state
/// record) and shape (up to two dimensions, 0 ending it).
typedef struct field {
  const char *name;
  char type;
  int chars;
  int shape[2];
} field;

// clang-format off
enum state_field {
    S_T, S_Q, S_QDOT, S_GAP, S_GAP_RATE, S_SLIP, S_SLIP_RATE, S_ZOD, S_ZOD_RATE, S_FORCE,
    S_ENERGY, S_MODE, STATE_FIELD_COUNT
};
// clang-format on

/// One zeno_state.
static const field STATE_FIELDS[STATE_FIELD_COUNT] = {
    [S_T] = {"t", 'f', 0, {0}},
    [S_Q] = {"q", 'f', 0, {3}},
    [S_QDOT] = {"qdot", 'f', 0, {3}},
    [S_GAP] = {"gap", 'f', 0, {PER_CONTACT}},
    [S_GAP_RATE] = {"gap_rate", 'f', 0, {PER_CONTACT}},
    [S_SLIP] = {"slip", 'f', 0, {PER_CONTACT}},
    [S_SLIP_RATE] = {"slip_rate", 'f', 0, {PER_CONTACT}},
    [S_ZOD] = {"zod", 'f', 0, {3}},
    [S_ZOD_RATE] = {"zod_rate", 'f', 0, {3}},
    [S_FORCE] = {"force", 'f', 0, {PER_CONTACT, 2}},
    [S_ENERGY] = {"energy", 'f', 0, {0}},
    [S_MODE] = {"mode", 'U', PER_CONTACT, {0}},
};

// clang-format off
enum event_field {
    E_INDEX, E_T, E_KIND, E_GUARD, E_CONTACT, E_MODE_BEFORE, E_MODE_AFTER, E_IMPACT,
    E_IMPACT_MASK, E_IMPULSE, E_IMPACT_OUTCOME, E_BEFORE, E_AFTER, E_ON_SECTION,
    E_SECTION_ANGLE, E_ZENO_IMPACTS, E_ZENO_RATIO, E_ZENO_ERROR, E_ZENO_PERIOD, E_ZENO_ORDER,
    E_OUTCOME, E_SOLVER_FLAG, E_CONSISTENT_COUNT, E_CONSISTENT, E_REFUSAL, E_REFUSAL_CONTACT,
    E_REFUSAL_OF_IMPACT, E_GUARD_RESIDUAL, E_CONSTRAINT_DRIFT, E_TIE_MARGIN, E_NEAR_TIE,
    EVENT_FIELD_COUNT
};
// clang-format on

/// One zeno_event. contact is 1-based, 0 for none; impact ("IF", "FFI", ...)
/// is "" unless an impact; impact_outcome S, P or N per contact with an
/// impulse, "" else; section_angle NaN unless on_section; outcome "" but
/// for END. END(inconsistent): per mode code, its refusal's name ("" none)
/// and the contact it names (1-based, 0 none); zeno_event.refusal.
static const field EVENT_FIELDS[EVENT_FIELD_COUNT] = {
    [E_INDEX] = {"index", 'q', 0, {0}},
    [E_T] = {"t", 'f', 0, {0}},
    [E_KIND] = {"kind", 'U', NAME_CHARS, {0}},
    [E_GUARD] = {"guard", 'U', NAME_CHARS, {0}},
    [E_CONTACT] = {"contact", 'i', 0, {0}},
    [E_MODE_BEFORE] = {"mode_before", 'U', PER_CONTACT, {0}},
    [E_MODE_AFTER] = {"mode_after", 'U', PER_CONTACT, {0}},
    [E_IMPACT] = {"impact", 'U', PER_CONTACT, {0}},
    [E_IMPACT_MASK] = {"impact_mask", 'u', 0, {0}},
    [E_IMPULSE] = {"impulse", 'f', 0, {PER_CONTACT, 2}},
    [E_IMPACT_OUTCOME] = {"impact_outcome", 'U', 1, {PER_CONTACT}},
    [E_BEFORE] = {"before", 'R', 0, {0}},
    [E_AFTER] = {"after", 'R', 0, {0}},
    [E_ON_SECTION] = {"on_section", 'b', 0, {0}},
    [E_SECTION_ANGLE] = {"section_angle", 'f', 0, {0}},
    [E_ZENO_IMPACTS] = {"zeno_impacts", 'q', 0, {0}},
    [E_ZENO_RATIO] = {"zeno_ratio", 'f', 0, {0}},
    [E_ZENO_ERROR] = {"zeno_error", 'f', 0, {0}},
    [E_ZENO_PERIOD] = {"zeno_period", 'i', 0, {0}},
    [E_ZENO_ORDER] = {"zeno_order", 'i', 0, {0}},
    [E_OUTCOME] = {"outcome", 'U', NAME_CHARS, {0}},
    [E_SOLVER_FLAG] = {"solver_flag", 'U', SOLVER_FLAG_CHARS, {0}},
    [E_CONSISTENT_COUNT] = {"consistent_count", 'i', 0, {0}},
    [E_CONSISTENT] = {"consistent", 'U', PER_CONTACT, {ZENO_MAX_MODES}},
    [E_REFUSAL] = {"refusal", 'U', NAME_CHARS, {ZENO_MAX_MODES}},
    [E_REFUSAL_CONTACT] = {"refusal_contact", 'i', 0, {ZENO_MAX_MODES}},
    [E_REFUSAL_OF_IMPACT] = {"refusal_of_impact", 'b', 0, {0}},
    [E_GUARD_RESIDUAL] = {"guard_residual", 'f', 0, {0}},
    [E_CONSTRAINT_DRIFT] = {"constraint_drift", 'f', 0, {0}},
    [E_TIE_MARGIN] = {"tie_margin", 'f', 0, {0}},
    [E_NEAR_TIE] = {"near_tie", 'b', 0, {0}},
};

/// A record's layout for one contact count: its dtype and each field's
/// offset, as a C compiler lays out a struct of those fields (each at the
/// next multiple of its alignment, the size a multiple of the largest).
typedef struct record_layout {
  PyArray_Descr *dtype;
  size_t itemsize;
  size_t offset[EVENT_FIELD_COUNT];  ///< STATE_FIELD_COUNT used by a state
} record_layout;

/// The layouts built so far, by record width (2..ZENO_MAX_CONTACTS).
static record_layout state_layouts[ZENO_MAX_CONTACTS + 1], event_layouts[ZENO_MAX_CONTACTS + 1];

/// Every record aligns to a float64 (the widest type of its fields).
#define RECORD_ALIGN sizeof(double)

int ext_record_width(int contact_count) {
  return contact_count < ZENO_PAIR_CONTACTS ? ZENO_PAIR_CONTACTS : contact_count;
}

static size_t align_up(size_t at, size_t alignment) {
  return (at + alignment - 1) / alignment * alignment;
}

static int dim(int d, int width) { return d == PER_CONTACT ? width : d; }

/// The scalar types of the fields: the C type's size (its alignment too)
/// and numpy's format of it.
static const struct scalar_type {
  char type;
  size_t size;
  const char *format;
} SCALAR_TYPES[] = {
    {'f', sizeof(double), "f8"},   {'q', sizeof(int64_t), "i8"}, {'i', sizeof(int32_t), "i4"},
    {'u', sizeof(uint32_t), "u4"}, {'b', sizeof(bool), "?"},
};

static const struct scalar_type *scalar_type(char type) {
  for (size_t k = 0; k < sizeof SCALAR_TYPES / sizeof *SCALAR_TYPES; k++)
    if (SCALAR_TYPES[k].type == type) return &SCALAR_TYPES[k];
  return NULL;  // 'U' and 'R'
}

/// The size and alignment of one element of a field.
static size_t element_size(const field *f, int width, size_t state_size, size_t *alignment) {
  const struct scalar_type *scalar = scalar_type(f->type);
  if (scalar != NULL) return *alignment = scalar->size;
  if (f->type == 'U') {
    *alignment = sizeof(Py_UCS4);
    return sizeof(Py_UCS4) * (size_t)dim(f->chars, width);
  }
  *alignment = RECORD_ALIGN;  // 'R'
  return state_size;
}

/// The number of elements of a field (the product of its shape).
static size_t elements(const field *f, int width) {
  size_t n = 1;
  for (int d = 0; d < 2 && f->shape[d] != 0; d++) n *= (size_t)dim(f->shape[d], width);
  return n;
}

/// The numpy format of a field ("(3,2)f8", "U3"; the state record's dtype
/// for 'R').
static PyObject *format_of(const field *f, int width, PyArray_Descr *state) {
  if (f->type == 'R') return Py_NewRef((PyObject *)state);
  char shape[32] = "";
  if (f->shape[1] != 0)
    snprintf(shape, sizeof shape, "(%d,%d)", dim(f->shape[0], width), dim(f->shape[1], width));
  else if (f->shape[0] != 0) snprintf(shape, sizeof shape, "(%d,)", dim(f->shape[0], width));
  if (f->type == 'U') return PyUnicode_FromFormat("%sU%d", shape, dim(f->chars, width));
  return PyUnicode_FromFormat("%s%s", shape, scalar_type(f->type)->format);
}

/// Lays out a table of fields for a record width and builds its dtype
/// ({"names", "formats", "offsets", "itemsize"}); `state` is the nested
/// state record's layout (events only). False with the Python error set.
static bool build_layout(const field *fields, size_t n, int width, const record_layout *state,
                         record_layout *out) {
  PyObject *names = PyList_New((Py_ssize_t)n), *formats = PyList_New((Py_ssize_t)n);
  PyObject *offsets = PyList_New((Py_ssize_t)n), *spec = PyDict_New();
  bool ok = names && formats && offsets && spec;
  size_t end = 0;
  for (size_t i = 0; ok && i < n; i++) {
    size_t alignment;
    const size_t size = element_size(&fields[i], width, state ? state->itemsize : 0, &alignment);
    out->offset[i] = align_up(end, alignment);
    end = out->offset[i] + size * elements(&fields[i], width);
    PyObject *format = format_of(&fields[i], width, state ? state->dtype : NULL);
    PyObject *name = PyUnicode_FromString(fields[i].name);
    PyObject *offset = PyLong_FromSize_t(out->offset[i]);
    ok = format && name && offset;
    if (ok) {
      PyList_SET_ITEM(names, (Py_ssize_t)i, name);
      PyList_SET_ITEM(formats, (Py_ssize_t)i, format);
      PyList_SET_ITEM(offsets, (Py_ssize_t)i, offset);
    } else {
      Py_XDECREF(format), Py_XDECREF(name), Py_XDECREF(offset);
    }
  }
  out->itemsize = align_up(end, RECORD_ALIGN);
  ok = ok && PyDict_SetItemString(spec, "names", names) == 0 &&
       PyDict_SetItemString(spec, "formats", formats) == 0 &&
       PyDict_SetItemString(spec, "offsets", offsets) == 0 &&
       ext_put(spec, "itemsize", PyLong_FromSize_t(out->itemsize));
  if (ok && !PyArray_DescrConverter(spec, &out->dtype)) out->dtype = NULL;
  Py_XDECREF(names), Py_XDECREF(formats), Py_XDECREF(offsets), Py_XDECREF(spec);
  return out->dtype != NULL;
}

/// The layout of a state (event: false) or an event record for a contact
/// count (1..ZENO_MAX_CONTACTS), built on first use and kept; NULL with the
/// Python error set.
static const record_layout *layout_of(int contact_count, bool event) {
  const int width = ext_record_width(contact_count);
  record_layout *state = &state_layouts[width], *ev = &event_layouts[width];
  if (state->dtype == NULL && !build_layout(STATE_FIELDS, STATE_FIELD_COUNT, width, NULL, state))
    return NULL;
  if (!event) return state;
  if (ev->dtype == NULL && !build_layout(EVENT_FIELDS, EVENT_FIELD_COUNT, width, state, ev))
    return NULL;
  return ev;
}

bool ext_records_init(void) {
  const record_layout *event = layout_of(ZENO_PAIR_CONTACTS, true);
  if (event == NULL) return false;
  ext_event_dtype = event->dtype;
  ext_state_dtype = state_layouts[ZENO_PAIR_CONTACTS].dtype;
  return true;
}

/// event_dtype(n) and state_dtype(n): the dtype of a record of n contacts.
static PyObject *dtype_of_count(PyObject *arg, bool event) {
  long long n;
  if (!ext_integer(arg, "contacts", 1, ZENO_MAX_CONTACTS, EXT_CALL, &n)) return NULL;
  const record_layout *layout = layout_of((int)n, event);
  return layout ? Py_NewRef((PyObject *)layout->dtype) : NULL;
}

PyObject *ext_event_dtype_of(PyObject *module, PyObject *arg) {
  (void)module;
  return dtype_of_count(arg, true);
}

PyObject *ext_state_dtype_of(PyObject *module, PyObject *arg) {
  (void)module;
  return dtype_of_count(arg, false);
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

/// A record being filled: its bytes, layout, width and the scene's contacts.
typedef struct record {
  char *bytes;
  const record_layout *layout;
  int width, contact_count;
} record;

static void *at(const record *r, int which) { return r->bytes + r->layout->offset[which]; }

static void put_doubles(const record *r, int which, const double *v, size_t n) {
  memcpy(at(r, which), v, n * sizeof *v);
}

/// Element k of a text field of `chars` characters (an array of texts).
static void put_text(const record *r, int which, size_t k, size_t chars, const char *text) {
  ext_put_text((Py_UCS4 *)at(r, which) + k * chars, chars, text);
}

static void put_mode(const record *r, int which, size_t k, zeno_mode mode) {
  char name[ZENO_MODE_NAME_SIZE];
  put_text(r, which, k, (size_t)r->width, zeno_mode_name(mode, r->contact_count, name));
}

/// Scalars of the record's fields, at their offsets.
#define PUT(r, which, type, value)                        \
  do {                                                    \
    const type put_value_ = (value);                      \
    memcpy(at(r, which), &put_value_, sizeof put_value_); \
  } while (0)

static void fill_state(const record *r, const zeno_state *s) {
  const size_t w = (size_t)r->width;
  put_doubles(r, S_T, &s->t, 1);
  put_doubles(r, S_Q, s->q, 3);
  put_doubles(r, S_QDOT, s->qdot, 3);
  put_doubles(r, S_GAP, s->gap, w);
  put_doubles(r, S_GAP_RATE, s->gap_rate, w);
  put_doubles(r, S_SLIP, s->slip, w);
  put_doubles(r, S_SLIP_RATE, s->slip_rate, w);
  put_doubles(r, S_ZOD, s->zod, 3);
  put_doubles(r, S_ZOD_RATE, s->zod_rate, 3);
  put_doubles(r, S_FORCE, s->force[0], 2 * w);
  put_doubles(r, S_ENERGY, &s->energy, 1);
  put_mode(r, S_MODE, 0, s->mode);
}

static void fill_impact(const record *r, const zeno_event *e) {
  if (e->kind != ZENO_EVENT_IMPACT) return;
  char name[ZENO_MODE_NAME_SIZE];
  put_text(r, E_IMPACT, 0, (size_t)r->width,
           zeno_impact_word(e->impact_mask, r->contact_count, name));
  PUT(r, E_IMPACT_MASK, uint32_t, e->impact_mask);
  for (int i = 0; i < r->contact_count; i++)
    if (e->impact_mask & (1u << i)) {
      const zeno_mode letter = {{e->impact_letter[i]}};
      put_text(r, E_IMPACT_OUTCOME, (size_t)i, 1, zeno_mode_name(letter, 1, name));
    }
}

/// END(inconsistent): the proof, per mode code.
static void fill_refusals(const record *r, const zeno_event *e) {
  PUT(r, E_REFUSAL_OF_IMPACT, bool, e->refusal_of_impact);
  for (int code = 0; code < ZENO_MAX_MODES; code++) {
    if (e->refusal[code] == ZENO_REFUSAL_NONE) continue;
    put_text(r, E_REFUSAL, (size_t)code, NAME_CHARS,
             zeno_refusal_name((zeno_refusal)e->refusal[code]));
    const int32_t contact = e->refusal_contact[code] + 1;
    memcpy((int32_t *)at(r, E_REFUSAL_CONTACT) + code, &contact, sizeof contact);
  }
}

static void fill_event(const record *r, const record *before, const record *after,
                       const zeno_event *e) {
  PUT(r, E_INDEX, int64_t, e->index);
  PUT(r, E_T, double, e->t);
  put_text(r, E_KIND, 0, NAME_CHARS, zeno_event_kind_name(e->kind));
  put_text(r, E_GUARD, 0, NAME_CHARS, zeno_guard_name(e->guard));
  PUT(r, E_CONTACT, int32_t, e->contact >= 0 ? e->contact + 1 : 0);
  put_mode(r, E_MODE_BEFORE, 0, e->mode_before);
  put_mode(r, E_MODE_AFTER, 0, e->mode_after);
  put_doubles(r, E_IMPULSE, e->impulse[0], 2 * (size_t)r->width);
  fill_impact(r, e);
  fill_state(before, &e->before);
  fill_state(after, &e->after);
  PUT(r, E_ON_SECTION, bool, e->on_section);
  PUT(r, E_SECTION_ANGLE, double, e->on_section ? e->section_angle : NAN);
  PUT(r, E_ZENO_IMPACTS, int64_t, e->zeno_impacts);
  PUT(r, E_ZENO_RATIO, double, e->zeno_ratio);
  PUT(r, E_ZENO_ERROR, double, e->zeno_error);
  PUT(r, E_ZENO_PERIOD, int32_t, e->zeno_period);
  PUT(r, E_ZENO_ORDER, int32_t, e->zeno_order);
  if (e->kind == ZENO_EVENT_END)
    put_text(r, E_OUTCOME, 0, NAME_CHARS, zeno_outcome_name(e->outcome));
  put_text(r, E_SOLVER_FLAG, 0, SOLVER_FLAG_CHARS, e->solver_flag);
  const size_t consistent = e->consistent_count < ZENO_MAX_MODES ? e->consistent_count
                                                                 : ZENO_MAX_MODES;
  PUT(r, E_CONSISTENT_COUNT, int32_t, (int32_t)consistent);
  for (size_t k = 0; k < consistent; k++) put_mode(r, E_CONSISTENT, k, e->consistent[k]);
  if (e->kind == ZENO_EVENT_END && e->outcome == ZENO_OUTCOME_INCONSISTENT) fill_refusals(r, e);
  PUT(r, E_GUARD_RESIDUAL, double, e->guard_residual);
  PUT(r, E_CONSTRAINT_DRIFT, double, e->constraint_drift);
  PUT(r, E_TIE_MARGIN, double, e->tie_margin);
  PUT(r, E_NEAR_TIE, bool, e->near_tie);
}

PyObject *ext_event_array(const zeno_event *events, size_t n, size_t stride, int contact_count) {
  const record_layout *layout = layout_of(contact_count, true);
  const npy_intp shape[1] = {(npy_intp)n};
  PyObject *a = layout ? ext_zeros(layout->dtype, 1, shape) : NULL;
  if (a == NULL) return NULL;
  const record_layout *state = &state_layouts[ext_record_width(contact_count)];
  char *bytes = PyArray_DATA((PyArrayObject *)a);
  const int width = ext_record_width(contact_count);
  for (size_t k = 0; k < n; k++) {
    const record r = {bytes + k * layout->itemsize, layout, width, contact_count};
    const record before = {at(&r, E_BEFORE), state, width, contact_count};
    const record after = {at(&r, E_AFTER), state, width, contact_count};
    fill_event(&r, &before, &after, (const zeno_event *)((const char *)events + k * stride));
  }
  return a;
}

PyObject *ext_state_array(const zeno_state *state, int contact_count) {
  const record_layout *layout = layout_of(contact_count, false);
  PyObject *a = layout ? ext_zeros(layout->dtype, 0, NULL) : NULL;
  if (a != NULL) {
    const record r = {PyArray_DATA((PyArrayObject *)a), layout, ext_record_width(contact_count),
                      contact_count};
    fill_state(&r, state);
  }
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

/// The columns of a trajectory.csv header, all of them or only the float
/// ones, as a tuple of str.
static PyObject *header_columns(const char *header, bool floats_only) {
  PyObject *list = PyList_New(0);
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

PyObject *ext_trajectory_columns(int contact_count) {
  return header_columns(zeno_io_trajectory_columns(contact_count), true);
}

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

PyObject *ext_trajectory(const zeno_run_dir_data *data, const char *header_text) {
  const size_t n = data->row_count;
  PyObject *floats = header_columns(header_text, true);
  PyObject *header = header_columns(header_text, false);
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
