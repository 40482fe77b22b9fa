// Shared by the scene loader's files: scene_yaml_values.c reads typed values
// (numbers, vectors, enums, mappings with a fixed key set) from tree nodes
// and names them in messages; scene_yaml_body.c converts the body, contacts
// and load; scene_yaml.c the other sections and the entry points.
// Not part of the public API.
#ifndef ZENO_SCENE_SCENE_YAML_INTERNAL_H
#define ZENO_SCENE_SCENE_YAML_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "scene/scene_names.h"
#include "scene/yaml_tree.h"
#include "zeno/scene.h"

/// Room for a composed message fragment (allowed-key lists and the like).
#define SY_TEXT_LEN 256
/// Coordinates of a point [x, y].
#define POINT_DIM 2

/// The keys a mapping may hold.
typedef struct key_set {
  const char *const *keys;
  int count;
} key_set;

#define KEY_SET(array) \
  { (array), COUNT_OF(array) }

/// A number-valued key of a mapping and where it is stored.
typedef struct number_field {
  const char *key;
  size_t offset;  ///< of a double inside the target struct
  bool required;
} number_field;

/* ---- paths and descriptions for messages (scene_yaml_values.c) ---------- */

/// out[YT_PATH_LEN] = "parent.key" (just "key" at the top level).
void sy_path_join(char *out, const char *parent, const char *key);

/// out[YT_PATH_LEN] = "parent.index".
void sy_path_index(char *out, const char *parent, int index);

/// "a mapping", "a sequence of 4 items" or the quoted scalar.
void sy_describe(const ynode *n, char *out, size_t size);

/// Where a node was written ("given at 3:1" or "given by --set ..."), for
/// messages that point at a second place.
void sy_describe_position(const ynode *n, char *out, size_t size);

/* ---- typed reads (scene_yaml_values.c) ----------------------------------- */

/// A mapping whose keys are all in `allowed`, or null (an empty mapping:
/// `stop:` with nothing after it keeps the defaults).
zeno_status sy_expect_mapping(const yt_loader *ld, const ynode *n, const char *path,
                              const key_set *allowed);

/// A required key of the mapping at `path`: *out is its value, or the error
/// is reported at the mapping that lacks it.
zeno_status sy_require(const yt_loader *ld, const ynode *map, const char *path, const char *key,
                       const ynode **out);

/// A plain decimal ([+-] digits [. digits] [(e|E) [+-] digits]) whose
/// significand has at most 15 significant digits and whose value is m
/// times 10^e with |e| <= 22: its double, exactly what strtod gives (one
/// correctly rounded operation on exact operands). False for any other
/// text, which strtod then decides.
bool sy_fast_decimal(const char *text, double *out);

/// A decimal number (or a YAML .inf/.nan, left for validation to reject).
zeno_status sy_read_number(const yt_loader *ld, const ynode *n, const char *param, double *out);

/// An angle written in degrees, stored in radians.
zeno_status sy_read_degrees(const yt_loader *ld, const ynode *n, const char *param, double *out);

/// A decimal integer; no fractions or exponents, so a count stays a count.
zeno_status sy_read_integer(const yt_loader *ld, const ynode *n, const char *param, long *out);

/// A sequence of exactly `dim` numbers, e.g. a point [x, y].
zeno_status sy_read_vector(const yt_loader *ld, const ynode *n, const char *param, int dim,
                           double *out);

/// A scalar of fewer than `size` characters, copied to out.
zeno_status sy_read_text(const yt_loader *ld, const ynode *n, const char *param, char *out,
                         size_t size);

/// Reads the listed number keys of `map` into the struct at `base`; absent
/// optional keys leave the stored value (the default) alone.
zeno_status sy_read_number_fields(const yt_loader *ld, const ynode *map, const char *path,
                                  const number_field *fields, int count, void *base);

/// An enum-valued key, when present: *out is the index of its name.
zeno_status sy_read_enum_key(const yt_loader *ld, const ynode *map, const char *path,
                             const char *key, const scene_enum_names *names, int *out);

/* ---- body, contacts and load (scene_yaml_body.c) ------------------------- */

/// The paper block, the general form (body.mass/rho, contacts, load) or, with
/// neither, the default body around a moved centre of mass. Reads com_shift,
/// so com must be read first.
zeno_status sy_read_form(const yt_loader *ld, const ynode *root, zeno_scene *s);

/// The scene gives its body: a paper block or the general form. A scene
/// without one (an empty file from a crash or a full disk, or settings
/// only) would run the default body as a plausible wrong answer.
bool sy_names_body(const ynode *root);

/// The drawing keys of body (outline, outline_radius), in both forms.
zeno_status sy_read_body_shape(const yt_loader *ld, const ynode *body, zeno_scene *s);

#endif
