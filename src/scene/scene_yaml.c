// YAML scene loader. The scene file is parsed into a document tree whose
// nodes keep their marks (yaml_tree.c) and `--set` overrides edit that tree;
// the tree is then converted into a zeno_scene (starting from
// zeno_scene_default(); body, contacts and load in scene_yaml_body.c) and
// validated, and a validation failure is traced back to the node it came
// from so that every error names file:line:column or the override text.
#include "zeno/scene.h"

#include <errno.h>
#include <locale.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_names.h"
#include "scene/scene_prepared.h"
#include "scene/scene_yaml_internal.h"

/// File name used by zeno_scene_load_string() when the caller gives none.
#define STRING_FILE "<string>"
/// Entries of a state vector: (z1, z2, x2) or (x, y, theta) and their rates.
#define STATE_DIM 3

/* ------------------------------------------------------------------------ */
/* Schema                                                                    */
/* ------------------------------------------------------------------------ */

static const char *const TOP_KEYS[] = {"name",    "model", "epsilon",  "ambiguity", "paper",
                                       "com",     "body",  "contacts", "load",      "impact",
                                       "initial", "stop",  "solver"};
static const char *const COM_KEYS[] = {"x", "y"};
static const char *const BODY_KEYS[] = {"mass", "rho", "outline", "outline_radius"};
static const char *const IMPACT_KEYS[] = {"law", "e", "et"};
static const char *const INITIAL_KEYS[] = {"qp", "qdp", "pose", "velocity"};
static const char *const STOP_KEYS[] = {"t_end", "max_events", "escape_radius", "wall_time"};
static const char *const SOLVER_KEYS[] = {"rtol", "atol", "sample_dt"};

static const number_field IMPACT_FIELDS[] = {
    {"e", offsetof(zeno_scene, restitution), false},
    {"et", offsetof(zeno_scene, tangential_restitution), false}};
static const number_field STOP_FIELDS[] = {
    {"t_end", offsetof(zeno_scene, t_end), false},
    {"escape_radius", offsetof(zeno_scene, escape_radius), false},
    {"wall_time", offsetof(zeno_scene, wall_time), false}};
static const number_field SOLVER_FIELDS[] = {{"rtol", offsetof(zeno_scene, rtol), false},
                                             {"atol", offsetof(zeno_scene, atol), false},
                                             {"sample_dt", offsetof(zeno_scene, sample_dt), false}};

/* ------------------------------------------------------------------------ */
/* Sections                                                                  */
/* ------------------------------------------------------------------------ */

// name, model, epsilon, ambiguity.
static zeno_status read_header(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  const ynode *name = yt_map_get(root, "name");
  zeno_status st = name ? sy_read_text(ld, name, "name", s->name, sizeof s->name) : ZENO_OK;
  int model = (int)s->model, ambiguity = (int)s->ambiguity;
  if (st == ZENO_OK) st = sy_read_enum_key(ld, root, "", "model", &SCENE_MODEL_NAMES, &model);
  if (st == ZENO_OK)
    st = sy_read_enum_key(ld, root, "", "ambiguity", &SCENE_AMBIGUITY_NAMES, &ambiguity);
  const ynode *epsilon = yt_map_get(root, "epsilon");
  if (st == ZENO_OK && epsilon) st = sy_read_number(ld, epsilon, "epsilon", &s->epsilon);
  s->model = (zeno_model)model;
  s->ambiguity = (zeno_ambiguity_policy)ambiguity;
  return st;
}

// com: {x, y}, the centre of mass moved with the contacts kept in place.
static zeno_status read_com(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  const ynode *com = yt_map_get(root, "com");
  if (com == NULL) return ZENO_OK;
  static const key_set keys = KEY_SET(COM_KEYS);
  zeno_status st = sy_expect_mapping(ld, com, "com", &keys);
  const ynode *x = yt_map_get(com, "x"), *y = yt_map_get(com, "y");
  if (st == ZENO_OK && x) st = sy_read_number(ld, x, "com.x", &s->com_shift[0]);
  if (st == ZENO_OK && y) st = sy_read_number(ld, y, "com.y", &s->com_shift[1]);
  return st;
}

static zeno_status read_impact(const yt_loader *ld, const ynode *impact, zeno_scene *s) {
  static const key_set keys = KEY_SET(IMPACT_KEYS);
  int law = (int)s->impact_law;
  zeno_status st = sy_expect_mapping(ld, impact, "impact", &keys);
  if (st == ZENO_OK) st = sy_read_enum_key(ld, impact, "impact", "law", &SCENE_LAW_NAMES, &law);
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, impact, "impact", IMPACT_FIELDS, COUNT_OF(IMPACT_FIELDS), s);
  s->impact_law = (zeno_impact_law)law;
  return st;
}

// Which initial form a key belongs to: qp/qdp (ZOD) or pose/velocity.
static zeno_initial_kind initial_form_of(const char *key) {
  return strcmp(key, "qp") == 0 || strcmp(key, "qdp") == 0 ? ZENO_INITIAL_ZOD : ZENO_INITIAL_POSE;
}

// The form used by `initial`, rejecting a mapping that mixes both.
// *given is false for an empty mapping (the default initial state stays).
static zeno_status initial_form(const yt_loader *ld, const ynode *n, zeno_initial_kind *kind,
                                bool *given) {
  *given = false;
  const ynode *first = NULL;
  for (int i = 0; n->kind == YNODE_MAPPING && i < n->count; i++) {
    const ynode *key = n->entries[i].key;
    zeno_initial_kind k = initial_form_of(key->text);
    if (first != NULL && k != *kind) {
      char given_at[SY_TEXT_LEN], param[YT_PATH_LEN];
      sy_describe_position(first, given_at, sizeof given_at);
      sy_path_join(param, "initial", key->text);
      return yt_fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, param,
                          "'%s' conflicts with '%s' (%s); use qp/qdp or "
                          "pose/velocity",
                          key->text, first->text, given_at);
    }
    if (first == NULL) first = key;
    *kind = k;
    *given = true;
  }
  return ZENO_OK;
}

// initial: {qp, qdp} or {pose, velocity}; an omitted vector of the chosen
// form is zero, so `initial: {pose: [...]}` starts at rest.
static zeno_status read_initial(const yt_loader *ld, const ynode *n, zeno_scene *s) {
  static const key_set keys = KEY_SET(INITIAL_KEYS);
  zeno_initial_kind kind = ZENO_INITIAL_ZOD;
  bool given = false;
  zeno_status st = sy_expect_mapping(ld, n, "initial", &keys);
  if (st == ZENO_OK) st = initial_form(ld, n, &kind, &given);
  if (st != ZENO_OK || !given) return st;
  const bool zod = kind == ZENO_INITIAL_ZOD;
  const char *position = zod ? "qp" : "pose", *rate = zod ? "qdp" : "velocity";
  double *q = zod ? s->initial_qp : s->initial_pose;
  double *qd = zod ? s->initial_qdp : s->initial_velocity;
  const ynode *qn = yt_map_get(n, position), *qdn = yt_map_get(n, rate);
  char param[YT_PATH_LEN];
  memset(q, 0, STATE_DIM * sizeof *q);
  memset(qd, 0, STATE_DIM * sizeof *qd);
  s->initial_kind = kind;
  sy_path_join(param, "initial", position);
  if (qn) st = sy_read_vector(ld, qn, param, STATE_DIM, q);
  sy_path_join(param, "initial", rate);
  if (st == ZENO_OK && qdn) st = sy_read_vector(ld, qdn, param, STATE_DIM, qd);
  return st;
}

static zeno_status read_stop(const yt_loader *ld, const ynode *stop, zeno_scene *s) {
  static const key_set keys = KEY_SET(STOP_KEYS);
  const ynode *max_events = yt_map_get(stop, "max_events");
  zeno_status st = sy_expect_mapping(ld, stop, "stop", &keys);
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, stop, "stop", STOP_FIELDS, COUNT_OF(STOP_FIELDS), s);
  if (st == ZENO_OK && max_events)
    st = sy_read_integer(ld, max_events, "stop.max_events", &s->max_events);
  return st;
}

static zeno_status read_solver(const yt_loader *ld, const ynode *solver, zeno_scene *s) {
  static const key_set keys = KEY_SET(SOLVER_KEYS);
  zeno_status st = sy_expect_mapping(ld, solver, "solver", &keys);
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, solver, "solver", SOLVER_FIELDS, COUNT_OF(SOLVER_FIELDS), s);
  return st;
}

typedef zeno_status (*section_reader)(const yt_loader *, const ynode *, zeno_scene *);

// Runs `reader` on the top-level key when it is present.
static zeno_status read_section(const yt_loader *ld, const ynode *root, const char *key,
                                section_reader reader, zeno_scene *s) {
  const ynode *n = yt_map_get(root, key);
  return n ? reader(ld, n, s) : ZENO_OK;
}

// The tree (root may be NULL: empty document) into *s, which holds the
// defaults on entry. com comes before the body forms, which use it.
static zeno_status convert(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  static const key_set top = KEY_SET(TOP_KEYS);
  static const key_set body_keys = KEY_SET(BODY_KEYS);
  const ynode *body = yt_map_get(root, "body");
  zeno_status st = root ? sy_expect_mapping(ld, root, "", &top) : ZENO_OK;
  if (st == ZENO_OK && body) st = sy_expect_mapping(ld, body, "body", &body_keys);
  if (st == ZENO_OK) st = read_header(ld, root, s);
  if (st == ZENO_OK) st = read_com(ld, root, s);
  if (st == ZENO_OK) st = sy_read_form(ld, root, s);
  if (st == ZENO_OK) st = sy_read_body_shape(ld, body, s);
  if (st == ZENO_OK) st = read_section(ld, root, "impact", read_impact, s);
  if (st == ZENO_OK) st = read_section(ld, root, "initial", read_initial, s);
  if (st == ZENO_OK) st = read_section(ld, root, "stop", read_stop, s);
  if (st == ZENO_OK) st = read_section(ld, root, "solver", read_solver, s);
  return st;
}

// A scene must give its body (checked after everything else, so that an
// error with a position in the file is reported first).
static zeno_status require_body(const yt_loader *ld, const ynode *root) {
  if (sy_names_body(root)) return ZENO_OK;
  return yt_fail_node(ld, root, ZENO_ERR_MISSING, "paper",
                      "%s: a scene must name its body, with a paper block or "
                      "with body, contacts and load",
                      root ? "no body" : "the scene is empty");
}

/* ------------------------------------------------------------------------ */
/* Validation, located                                                       */
/* ------------------------------------------------------------------------ */

// zeno_scene_validate() names a dotted parameter; point the error at the
// node that set it (or at the override that did), keeping the message.
static void locate_error(const yt_loader *ld, const ynode *root) {
  const zeno_error found = *ld->error;  // the report below overwrites it
  const ynode *n = found.parameter[0] ? yt_lookup(root, found.parameter) : NULL;
  if (n != NULL) yt_fail_node(ld, n, found.code, found.parameter, "%s", found.message);
}

static zeno_status validate_located(const yt_loader *ld, const ynode *root, const zeno_scene *s) {
  zeno_status st = zeno_scene_validate(s, ld->error);
  if (st != ZENO_OK) locate_error(ld, root);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                              */
/* ------------------------------------------------------------------------ */

// Default scene name: the file's base name without a .yaml/.yml extension.
static void name_from_file(const char *file, char *out, size_t size) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  size_t length = strlen(base);
  const char *dot = strrchr(base, '.');
  if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0)) length = (size_t)(dot - base);
  if (length == 0) return;
  if (length >= size) length = size - 1;  // cut to what the name field holds
  memcpy(out, base, length);
  out[length] = '\0';
}

// The scene file's tree with the overrides applied, in order.
static zeno_status build_tree(const yt_loader *ld, const char *text, size_t length,
                              const char *const *overrides, size_t override_count, ynode **root) {
  zeno_status st = yt_parse(ld, text, length, NULL, root);
  if (st == ZENO_OK && yt_is_null(*root)) {
    yt_free(*root);
    *root = NULL;
  }
  if (st == ZENO_OK && *root && (*root)->kind != YNODE_MAPPING) {
    // Not a scene at all: say what the file holds, never its content (it
    // may be any file a user named by mistake).
    st = yt_fail_node(ld, *root, ZENO_ERR_TYPE, "",
                      "a scene must be a mapping of keys; this file holds %s",
                      (*root)->kind == YNODE_SCALAR ? "a single value" : "a list");
  }
  for (size_t i = 0; st == ZENO_OK && i < override_count; i++)
    st = yt_override_apply(ld, root, overrides[i]);
  return st;
}

static zeno_status check_arguments(const yt_loader *ld, const void *input,
                                   const char *const *overrides, size_t override_count,
                                   const zeno_scene *scene) {
  bool ok = input && scene && (override_count == 0 || overrides);
  for (size_t i = 0; ok && i < override_count; i++) ok = overrides[i] != NULL;
  if (ok) return ZENO_OK;
  return zeno_fail(ld->error, ZENO_ERR_ARGUMENT, "",
                   "scene loading needs a file name or text, a scene, "
                   "and override_count non-NULL overrides");
}

// The scene of a tree: conversion, validation located at the nodes, and
// the body check. `name_source` (a file name, or NULL to keep the default)
// names the scene when it has no `name` key. Inside the locale scope.
static zeno_status scene_of_tree(const yt_loader *ld, const ynode *root, const char *name_source,
                                 zeno_scene *scene) {
  zeno_scene s = zeno_scene_default();
  if (name_source) name_from_file(name_source, s.name, sizeof s.name);
  zeno_status st = convert(ld, root, &s);
  if (st == ZENO_OK) st = validate_located(ld, root, &s);
  if (st == ZENO_OK) st = require_body(ld, root);
  if (st == ZENO_OK) *scene = s;
  return st;
}

// Shared by both entry points; *scene is written only on success.
static zeno_status load_text(const yt_loader *ld, const char *text, size_t length,
                             const char *name_source, const char *const *overrides,
                             size_t override_count, zeno_scene *scene) {
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  ynode *root = NULL;
  zeno_status st = build_tree(ld, text, length, overrides, override_count, &root);
  if (st == ZENO_OK) st = scene_of_tree(ld, root, name_source, scene);
  yt_free(root);
  zeno_locale_leave(&scope);
  return st;
}

zeno_status zeno_scene_load(const char *path, const char *const *overrides, size_t override_count,
                            zeno_scene *scene, zeno_error *error) {
  zeno_error local;
  yt_loader ld = {.file = path ? path : "", .error = error ? error : &local};
  zeno_error_clear(ld.error);
  zeno_status st = check_arguments(&ld, path, overrides, override_count, scene);
  char *text = NULL;
  size_t length = 0;
  if (st == ZENO_OK) st = zeno_read_text_file(path, ZENO_SCENE_MAX_BYTES, &text, &length, ld.error);
  if (st == ZENO_OK) st = load_text(&ld, text, length, path, overrides, override_count, scene);
  free(text);
  return st;
}

zeno_status zeno_scene_read_file(const char *path, char **text, size_t *length, zeno_error *error) {
  return zeno_read_text_file(path, ZENO_SCENE_MAX_BYTES, text, length, error);
}

zeno_status zeno_scene_read_stream(FILE *stream, const char *name, char **text, size_t *length,
                                   zeno_error *error) {
  return zeno_read_text_stream(stream, name, ZENO_SCENE_MAX_BYTES, text, length, error);
}

zeno_status zeno_scene_load_string(const char *text, const char *name, const char *const *overrides,
                                   size_t override_count, zeno_scene *scene, zeno_error *error) {
  zeno_error local;
  yt_loader ld = {.file = name && *name ? name : STRING_FILE, .error = error ? error : &local};
  zeno_error_clear(ld.error);
  zeno_status st = check_arguments(&ld, text, overrides, override_count, scene);
  if (st != ZENO_OK) return st;
  const size_t length = strnlen(text, ZENO_SCENE_MAX_BYTES + 1);
  if (length > ZENO_SCENE_MAX_BYTES)
    return zeno_fail_at(ld.error, ZENO_ERR_RANGE, ld.file, 0, 0, "",
                        "the scene is larger than %d bytes, the most a scene may hold",
                        ZENO_SCENE_MAX_BYTES);
  return load_text(&ld, text, length, name && *name ? name : NULL, overrides, override_count,
                   scene);
}

/* ------------------------------------------------------------------------ */
/* Prepared scenes (scene_prepared.h)                                        */
/* ------------------------------------------------------------------------ */

/// Working copies of a prepared tree: one per thread loading at once, at
/// most this many (a thread that finds all in use clones the tree for its
/// load, as every load did before).
#define PREPARED_COPIES 64
/// Scalars one load may set in place (two overrides of a few '+'-joined
/// paths each).
#define PREPARED_TARGETS 16

/// Copies of the tree that loads whose overrides only set existing scalars
/// to numbers (a region map's or sweep's points) edit in place and restore,
/// instead of cloning and freeing the whole tree at every point.
typedef struct prepared_copies {
  atomic_flag busy[PREPARED_COPIES];
  ynode *tree[PREPARED_COPIES];  ///< made by the first load that takes the slot
} prepared_copies;

struct scene_prepared {
  char *name;   ///< as given to zeno_scene_load_string, NULL for none
  ynode *root;  ///< the parsed text with the fixed overrides applied
  prepared_copies *copies;
};

zeno_status scene_prepare(const char *text, const char *name, const char *const *fixed,
                          size_t fixed_count, scene_prepared **out, zeno_error *error) {
  *out = NULL;
  zeno_error local;
  yt_loader ld = {.file = name && *name ? name : STRING_FILE, .error = error ? error : &local};
  zeno_error_clear(ld.error);
  if (text == NULL || (fixed_count > 0 && fixed == NULL))
    return zeno_fail(ld.error, ZENO_ERR_ARGUMENT, "", "scene text and overrides are required");
  const size_t length = strnlen(text, ZENO_SCENE_MAX_BYTES + 1);
  if (length > ZENO_SCENE_MAX_BYTES)
    return zeno_fail(ld.error, ZENO_ERR_RANGE, "", "the scene is larger than %d bytes",
                     ZENO_SCENE_MAX_BYTES);
  scene_prepared *p = calloc(1, sizeof *p);
  if (p != NULL) p->copies = calloc(1, sizeof *p->copies);
  if (p == NULL || p->copies == NULL) {
    free(p);
    return zeno_fail(ld.error, ZENO_ERR_NOMEM, "", "out of memory");
  }
  for (int i = 0; i < PREPARED_COPIES; i++) atomic_flag_clear(&p->copies->busy[i]);
  if (name && *name) {
    p->name = malloc(strlen(name) + 1);
    if (p->name == NULL) {
      scene_prepared_free(p);
      return zeno_fail(ld.error, ZENO_ERR_NOMEM, "", "out of memory");
    }
    memcpy(p->name, name, strlen(name) + 1);
  }
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  const zeno_status st = build_tree(&ld, text, length, fixed, fixed_count, &p->root);
  zeno_locale_leave(&scope);
  if (st != ZENO_OK) {
    scene_prepared_free(p);
    return st;
  }
  *out = p;
  return ZENO_OK;
}

// One scalar set in place, and what it held.
typedef struct scalar_edit {
  ynode *node;
  char *text;
  const char *origin;
  int line, column;
  bool plain;
} scalar_edit;

// The load on a working copy of the tree when every override sets
// existing scalars to plain numbers (yt_override_scalars): the scalars
// take the values' text as the parser would make them, the copy is
// converted and given back as it was. False when the load is not of this
// kind or no copy is free: the caller clones.
static bool load_in_place(const yt_loader *ld, const scene_prepared *p,
                          const char *const *overrides, size_t override_count, zeno_scene *scene,
                          zeno_status *status) {
  prepared_copies *c = p->copies;
  int slot = -1;
  for (int i = 0; i < PREPARED_COPIES && slot < 0; i++)
    if (!atomic_flag_test_and_set(&c->busy[i])) slot = i;
  if (slot < 0) return false;
  if (c->tree[slot] == NULL && p->root != NULL) c->tree[slot] = yt_clone(p->root);
  if (c->tree[slot] == NULL) {  // out of memory, reported as a clone's would be
    atomic_flag_clear(&c->busy[slot]);
    *status = p->root == NULL ? ZENO_OK : zeno_fail(ld->error, ZENO_ERR_NOMEM, "", "out of memory");
    return p->root != NULL;
  }
  scalar_edit edit[PREPARED_TARGETS];
  int edits = 0;
  bool fits = true;
  for (size_t k = 0; k < override_count && fits; k++) {
    ynode *nodes[PREPARED_TARGETS];
    const int n = yt_override_scalars(c->tree[slot], overrides[k], nodes, PREPARED_TARGETS - edits);
    fits = n > 0;
    if (!fits) break;
    char *value = strchr(overrides[k], '=') + 1;  // only read (a scalar's text)
    for (int j = 0; j < n; j++, edits++) {
      ynode *node = nodes[j];
      edit[edits] = (scalar_edit){node,       node->text,   node->origin,
                                  node->line, node->column, node->plain};
      *node = (ynode){.kind = YNODE_SCALAR,
                      .line = 1,
                      .column = 1,
                      .origin = overrides[k],
                      .text = value,
                      .plain = true};
    }
  }
  if (fits) {
    zeno_locale_scope scope;
    zeno_locale_enter(&scope);
    *status = scene_of_tree(ld, c->tree[slot], p->name, scene);
    zeno_locale_leave(&scope);
  }
  while (edits-- > 0) {  // last first: a scalar set twice gets its own text back
    const scalar_edit *e = &edit[edits];
    *e->node = (ynode){.kind = YNODE_SCALAR,
                       .line = e->line,
                       .column = e->column,
                       .origin = e->origin,
                       .text = e->text,
                       .plain = e->plain};
  }
  atomic_flag_clear(&c->busy[slot]);
  return fits;
}

zeno_status scene_prepared_load(const scene_prepared *p, const char *const *overrides,
                                size_t override_count, zeno_scene *scene, zeno_error *error) {
  zeno_error local;
  yt_loader ld = {.file = p && p->name ? p->name : STRING_FILE, .error = error ? error : &local};
  zeno_error_clear(ld.error);
  zeno_status st = check_arguments(&ld, p, overrides, override_count, scene);
  if (st != ZENO_OK) return st;
  if (load_in_place(&ld, p, overrides, override_count, scene, &st)) return st;
  ynode *root = yt_clone(p->root);
  if (p->root && root == NULL) return zeno_fail(ld.error, ZENO_ERR_NOMEM, "", "out of memory");
  zeno_locale_scope scope;
  zeno_locale_enter(&scope);
  for (size_t i = 0; st == ZENO_OK && i < override_count; i++)
    st = yt_override_apply(&ld, &root, overrides[i]);
  if (st == ZENO_OK) st = scene_of_tree(&ld, root, p->name, scene);
  zeno_locale_leave(&scope);
  yt_free(root);
  return st;
}

void scene_prepared_free(scene_prepared *p) {
  if (p == NULL) return;
  if (p->copies != NULL)
    for (int i = 0; i < PREPARED_COPIES; i++) yt_free(p->copies->tree[i]);
  free(p->copies);
  yt_free(p->root);
  free(p->name);
  free(p);
}
