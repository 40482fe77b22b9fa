// Body, contacts and load of a scene: the paper block (expanded by
// zeno_scene_apply_paper) or the general form written out key by key, the
// conflicts between the two, the centre-of-mass shift, and the outline.
#include "scene/scene_yaml_internal.h"

#include <stddef.h>
#include <string.h>

/// Fewest vertices of a polygon outline.
#define POLYGON_MIN_VERTICES 3

/// The paper normalises mass, radius of gyration and load to 1 and uses no
/// load torque; those are the defaults of the optional paper keys.
#define PAPER_DEFAULT_RHO 1.0
#define PAPER_DEFAULT_M 1.0
#define PAPER_DEFAULT_F 1.0
#define PAPER_DEFAULT_TAU 0.0

static const char *const PAPER_KEYS[] = {"alpha", "l1",  "l2",  "h", "phi1", "phi2",
                                         "mu1",   "mu2", "rho", "m", "f",    "tau"};
static const char *const CONTACT_KEYS[] = {"point", "surface", "mu"};
static const char *const SURFACE_KEYS[] = {"angle", "point"};
static const char *const LOAD_KEYS[] = {"magnitude", "angle", "torque"};

/// Named outlines; a sequence of vertices gives a polygon instead.
static const char *const OUTLINE_NAMES[] = {"biped", "disk"};
static const zeno_outline_kind OUTLINE_KINDS[] = {ZENO_OUTLINE_BIPED, ZENO_OUTLINE_DISK};

static const number_field PAPER_FIELDS[] = {{"alpha", offsetof(zeno_paper_params, alpha), true},
                                            {"l1", offsetof(zeno_paper_params, l1), true},
                                            {"l2", offsetof(zeno_paper_params, l2), true},
                                            {"h", offsetof(zeno_paper_params, h), true},
                                            {"phi1", offsetof(zeno_paper_params, phi1), true},
                                            {"phi2", offsetof(zeno_paper_params, phi2), true},
                                            {"mu1", offsetof(zeno_paper_params, mu1), true},
                                            {"mu2", offsetof(zeno_paper_params, mu2), true},
                                            {"rho", offsetof(zeno_paper_params, rho), false},
                                            {"m", offsetof(zeno_paper_params, m), false},
                                            {"f", offsetof(zeno_paper_params, f), false},
                                            {"tau", offsetof(zeno_paper_params, tau), false}};
static const number_field BODY_FIELDS[] = {{"mass", offsetof(zeno_scene, mass), true},
                                           {"rho", offsetof(zeno_scene, rho), true}};
static const number_field LOAD_FIELDS[] = {
    {"magnitude", offsetof(zeno_scene, load_magnitude), true},
    {"torque", offsetof(zeno_scene, load_torque), false}};

/* ------------------------------------------------------------------------ */
/* Paper form                                                                */
/* ------------------------------------------------------------------------ */

static zeno_status conflict(const yt_loader *ld, const ynode *key, const char *name,
                            const ynode *paper_key) {
  char given[SY_TEXT_LEN];
  sy_describe_position(paper_key, given, sizeof given);
  return yt_fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, name,
                      "'%s' conflicts with 'paper' (%s); use one form", name, given);
}

// The paper block defines body, contacts and load: the general-form keys
// for those cannot also be given.
static zeno_status check_paper_conflicts(const yt_loader *ld, const ynode *root,
                                         const ynode *paper_key) {
  static const char *const TOP[] = {"contacts", "load"};
  static const char *const BODY[] = {"mass", "rho"};
  for (int i = 0; i < COUNT_OF(TOP); i++) {
    const yentry *e = yt_map_find(root, TOP[i]);
    if (e) return conflict(ld, e->key, TOP[i], paper_key);
  }
  const ynode *body = yt_map_get(root, "body");
  for (int i = 0; i < COUNT_OF(BODY); i++) {
    const yentry *e = yt_map_find(body, BODY[i]);
    char name[YT_PATH_LEN];
    sy_path_join(name, "body", BODY[i]);
    if (e) return conflict(ld, e->key, name, paper_key);
  }
  return ZENO_OK;
}

// paper: expands through zeno_scene_apply_paper(), which reads com_shift.
static zeno_status read_paper_form(const yt_loader *ld, const ynode *root, const yentry *paper,
                                   zeno_scene *s) {
  static const key_set keys = KEY_SET(PAPER_KEYS);
  zeno_status st = check_paper_conflicts(ld, root, paper->key);
  if (st == ZENO_OK) st = sy_expect_mapping(ld, paper->value, "paper", &keys);
  zeno_paper_params p = {.rho = PAPER_DEFAULT_RHO,
                         .m = PAPER_DEFAULT_M,
                         .f = PAPER_DEFAULT_F,
                         .tau = PAPER_DEFAULT_TAU};
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, paper->value, "paper", PAPER_FIELDS, COUNT_OF(PAPER_FIELDS), &p);
  if (st == ZENO_OK) zeno_scene_apply_paper(s, &p);
  return st;
}

/* ------------------------------------------------------------------------ */
/* General form                                                              */
/* ------------------------------------------------------------------------ */

// contacts[i].surface: {angle (deg, required), point (optional)}.
static zeno_status read_surface(const yt_loader *ld, const ynode *n, const char *path,
                                zeno_contact_def *c) {
  static const key_set keys = KEY_SET(SURFACE_KEYS);
  char param[YT_PATH_LEN];
  const ynode *angle = NULL, *point = yt_map_get(n, "point");
  zeno_status st = sy_expect_mapping(ld, n, path, &keys);
  if (st == ZENO_OK) st = sy_require(ld, n, path, "angle", &angle);
  sy_path_join(param, path, "angle");
  if (st == ZENO_OK) st = sy_read_degrees(ld, angle, param, &c->surface_angle);
  sy_path_join(param, path, "point");
  if (st == ZENO_OK && point) st = sy_read_vector(ld, point, param, POINT_DIM, c->surface_point);
  c->surface_point_set = point != NULL;
  return st;
}

// One contact: {point (required), surface (optional: flat through the
// point), mu (required)}.
static zeno_status read_contact(const yt_loader *ld, const ynode *n, const char *path,
                                zeno_contact_def *c) {
  static const key_set keys = KEY_SET(CONTACT_KEYS);
  char param[YT_PATH_LEN];
  const ynode *point = NULL, *mu = NULL, *surface = yt_map_get(n, "surface");
  memset(c, 0, sizeof *c);
  zeno_status st = sy_expect_mapping(ld, n, path, &keys);
  if (st == ZENO_OK) st = sy_require(ld, n, path, "point", &point);
  sy_path_join(param, path, "point");
  if (st == ZENO_OK) st = sy_read_vector(ld, point, param, POINT_DIM, c->point);
  sy_path_join(param, path, "surface");
  if (st == ZENO_OK && surface) st = read_surface(ld, surface, param, c);
  if (st == ZENO_OK) st = sy_require(ld, n, path, "mu", &mu);
  sy_path_join(param, path, "mu");
  if (st == ZENO_OK) st = sy_read_number(ld, mu, param, &c->mu);
  return st;
}

static zeno_status read_contacts(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  const ynode *list = NULL;
  zeno_status st = sy_require(ld, root, "", "contacts", &list);
  if (st != ZENO_OK) return st;
  if (list->kind != YNODE_SEQUENCE) {
    char got[SY_TEXT_LEN];
    sy_describe(list, got, sizeof got);
    return yt_fail_node(ld, list, ZENO_ERR_TYPE, "contacts",
                        "expected a sequence of 1 to %d contacts, got %s", ZENO_MAX_CONTACTS, got);
  }
  if (list->count < 1 || list->count > ZENO_MAX_CONTACTS)
    return yt_fail_node(ld, list, ZENO_ERR_RANGE, "contacts", "%d contacts given; allowed 1 to %d",
                        list->count, ZENO_MAX_CONTACTS);
  for (int i = 0; i < list->count && st == ZENO_OK; i++) {
    char path[YT_PATH_LEN];
    sy_path_index(path, "contacts", i);
    st = read_contact(ld, list->items[i], path, &s->contacts[i]);
  }
  s->contact_count = list->count;
  return st;
}

// load: {magnitude (required), angle (deg from -y, default 0), torque}.
static zeno_status read_load(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  static const key_set keys = KEY_SET(LOAD_KEYS);
  const ynode *load = NULL;
  zeno_status st = sy_require(ld, root, "", "load", &load);
  if (st == ZENO_OK) st = sy_expect_mapping(ld, load, "load", &keys);
  s->load_angle = 0;
  s->load_torque = 0;
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, load, "load", LOAD_FIELDS, COUNT_OF(LOAD_FIELDS), s);
  const ynode *angle = yt_map_get(load, "angle");
  if (st == ZENO_OK && angle) st = sy_read_degrees(ld, angle, "load.angle", &s->load_angle);
  return st;
}

// Points are written in the scene frame; the body frame sits at the moved
// centre of mass, so subtract the shift (zeno_scene_apply_paper does the
// same for the paper form).
static void shift_contacts(zeno_scene *s) {
  for (int i = 0; i < s->contact_count; i++) {
    zeno_contact_def *c = &s->contacts[i];
    for (int k = 0; k < POINT_DIM; k++) {
      c->point[k] -= s->com_shift[k];
      c->surface_point[k] = c->surface_point_set ? c->surface_point[k] - s->com_shift[k]
                                                 : c->point[k];
    }
  }
}

// body.mass/rho, contacts and load written out explicitly.
static zeno_status read_general_form(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  const ynode *body = NULL;
  s->has_paper = false;
  memset(&s->paper, 0, sizeof s->paper);
  zeno_status st = sy_require(ld, root, "", "body", &body);
  if (st == ZENO_OK)
    st = sy_read_number_fields(ld, body, "body", BODY_FIELDS, COUNT_OF(BODY_FIELDS), s);
  if (st == ZENO_OK) st = read_contacts(ld, root, s);
  if (st == ZENO_OK) st = read_load(ld, root, s);
  if (st == ZENO_OK) shift_contacts(s);
  return st;
}

// Any of these keys selects the general form (and makes the rest of it
// required); with none of them and no paper the default body stays, and
// the loader refuses the scene (sy_names_body) once its sections are read.
static bool uses_general_form(const ynode *root) {
  const ynode *body = yt_map_get(root, "body");
  return yt_map_get(root, "contacts") || yt_map_get(root, "load") || yt_map_get(body, "mass") ||
         yt_map_get(body, "rho");
}

bool sy_names_body(const ynode *root) {
  return yt_map_find(root, "paper") != NULL || uses_general_form(root);
}

zeno_status sy_read_form(const yt_loader *ld, const ynode *root, zeno_scene *s) {
  const yentry *paper = yt_map_find(root, "paper");
  if (paper != NULL) return read_paper_form(ld, root, paper, s);
  if (uses_general_form(root)) return read_general_form(ld, root, s);
  // The default (Example 2) body, expanded again around a moved centre of mass.
  zeno_paper_params p;
  if (zeno_scene_paper(s, &p)) zeno_scene_apply_paper(s, &p);
  return ZENO_OK;
}

/* ------------------------------------------------------------------------ */
/* Outline                                                                   */
/* ------------------------------------------------------------------------ */

// A polygon of 3..ZENO_MAX_OUTLINE [x, y] vertices in the scene frame.
static zeno_status read_polygon(const yt_loader *ld, const ynode *n, zeno_scene *s) {
  if (n->count < POLYGON_MIN_VERTICES || n->count > ZENO_MAX_OUTLINE)
    return yt_fail_node(ld, n, ZENO_ERR_RANGE, "body.outline",
                        "a polygon outline needs %d to %d vertices, got %d", POLYGON_MIN_VERTICES,
                        ZENO_MAX_OUTLINE, n->count);
  for (int i = 0; i < n->count; i++) {
    char param[YT_PATH_LEN];
    sy_path_index(param, "body.outline", i);
    zeno_status st = sy_read_vector(ld, n->items[i], param, POINT_DIM, s->outline[i]);
    if (st != ZENO_OK) return st;
    for (int k = 0; k < POINT_DIM; k++) s->outline[i][k] -= s->com_shift[k];
  }
  s->outline_kind = ZENO_OUTLINE_POLYGON;
  s->outline_count = (size_t)n->count;
  return ZENO_OK;
}

// body.outline: a named shape or a polygon.
static zeno_status read_outline(const yt_loader *ld, const ynode *n, zeno_scene *s) {
  if (n->kind == YNODE_SEQUENCE) return read_polygon(ld, n, s);
  for (int i = 0; n->kind == YNODE_SCALAR && i < COUNT_OF(OUTLINE_NAMES); i++) {
    if (strcmp(n->text, OUTLINE_NAMES[i]) == 0) {
      s->outline_kind = OUTLINE_KINDS[i];
      s->outline_count = 0;
      return ZENO_OK;
    }
  }
  char got[SY_TEXT_LEN];
  sy_describe(n, got, sizeof got);
  return yt_fail_node(ld, n, ZENO_ERR_TYPE, "body.outline",
                      "expected biped, disk or a sequence of [x, y] vertices, "
                      "got %s",
                      got);
}

// The drawing keys of body (both forms).
zeno_status sy_read_body_shape(const yt_loader *ld, const ynode *body, zeno_scene *s) {
  const ynode *outline = yt_map_get(body, "outline");
  const ynode *radius = yt_map_get(body, "outline_radius");
  zeno_status st = outline ? read_outline(ld, outline, s) : ZENO_OK;
  if (st == ZENO_OK && radius)
    st = sy_read_number(ld, radius, "body.outline_radius", &s->outline_radius);
  return st;
}
