// YAML document tree for the scene loader (scene_yaml*.c): libyaml events
// become nodes that keep their start marks, so that the schema conversion
// can report every error at file:line:column; `--set` overrides edit the
// tree before conversion. Not part of the public API.
#ifndef ZENO_SCENE_YAML_TREE_H
#define ZENO_SCENE_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "zeno/error.h"

/// Room for a dotted scene path, the same as zeno_error.parameter.
#define YT_PATH_LEN 128

/// Elements of a fixed-size array, as an int for loop bounds.
#define COUNT_OF(array) ((int)(sizeof(array) / sizeof *(array)))

typedef enum ynode_kind { YNODE_SCALAR, YNODE_SEQUENCE, YNODE_MAPPING } ynode_kind;

typedef struct ynode ynode;

/// One key: value pair. The key is a node of its own so that an unknown or
/// conflicting key is reported where the key is written.
typedef struct yentry {
  ynode *key;
  ynode *value;
} yentry;

/// A YAML node and the position it starts at.
struct ynode {
  ynode_kind kind;
  int line;            ///< 1-based; 0 for nodes made up by overrides
  int column;          ///< 1-based; 0 for nodes made up by overrides
  const char *origin;  ///< --set text that created the node; NULL: the file
  char *text;          ///< scalar value, NUL-terminated
  bool plain;          ///< scalar written without quotes (only these are null)
  ynode **items;       ///< sequence items
  yentry *entries;     ///< mapping entries, in file order
  int count;           ///< items or entries in use
  int capacity;        ///< items or entries allocated
  /// A large mapping's hash index of its keys (open addressing, linear
  /// probing): slot values are entry index + 1, 0 for empty; NULL while
  /// the mapping is small enough to scan. Lookups, and so the duplicate
  /// check of a hostile file with 100k keys, stay linear in the file.
  int *slots;
  int slot_count;  ///< a power of two, at least twice `count`
};

/// What one load call reports against.
typedef struct yt_loader {
  const char *file;   ///< file name in messages
  zeno_error *error;  ///< never NULL inside the loader
} yt_loader;

/* ---- nodes (yaml_tree.c) ---------------------------------------------- */

/// A new empty node of `kind` at a position; NULL when out of memory.
ynode *yt_node_new(ynode_kind kind, int line, int column, const char *origin);

/// A new scalar of `length` bytes of text (libyaml scalars carry a length,
/// not a terminator); NULL when out of memory.
ynode *yt_scalar_new(const char *text, size_t length, int line, int column, const char *origin);

/// Appends an item to a sequence / an entry to a mapping; false when out of
/// memory.
bool yt_seq_append(ynode *seq, ynode *item);
bool yt_map_append(ynode *map, ynode *key, ynode *value);

/// Parses YAML text into a tree; *root is NULL for an empty stream. Every
/// node is stamped with `origin` (the --set text, or NULL for the scene
/// file). On failure *root is NULL and ld->error says where.
zeno_status yt_parse(const yt_loader *ld, const char *text, size_t length, const char *origin,
                     ynode **root);

/// Applies one "dotted.path=VALUE" override (VALUE is YAML, flow syntax
/// allowed), creating missing mappings on the way. *root may be NULL.
zeno_status yt_override_apply(const yt_loader *ld, ynode **root, const char *text);

/// A deep copy of a tree (positions, origins and plainness kept); NULL
/// when out of memory (or for NULL).
ynode *yt_clone(const ynode *n);

/// Frees a node and everything below it; NULL is accepted.
void yt_free(ynode *n);

/// YAML's null: an unquoted empty, "~" or "null" scalar.
bool yt_is_null(const ynode *n);

/// The entry of `key` in a mapping; NULL when absent or `map` is no mapping.
yentry *yt_map_find(const ynode *map, const char *key);

/// The value of `key` in a mapping; NULL when absent or `map` is no mapping.
const ynode *yt_map_get(const ynode *map, const char *key);

/// Follows a dotted path ("contacts.1.mu") from the root; NULL if absent.
const ynode *yt_lookup(const ynode *root, const char *dotted);

/// Parses a decimal sequence index ("0", "12"); false for anything else.
bool yt_parse_index(const char *text, int *out);

/* ---- errors (yaml_report.c) ------------------------------------------- */

/// Fills ld->error at a file position, or as an override error when
/// `origin` (the --set text) is given; returns `code`.
zeno_status yt_fail_mark(const yt_loader *ld, const char *origin, int line, int column,
                         zeno_status code, const char *param, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/// The path part of an override "path=VALUE" without surrounding blanks:
/// *start and its length. `equals` points at the '='.
size_t yt_override_path_span(const char *text, const char *equals, const char **start);

/// Fills ld->error at node `n` (at the file's start when n is NULL) and
/// returns `code`. A node made by an override is reported as the override:
/// file "--set", line 0, and a message that quotes the override, and names
/// `param` too when it lies below the path the override sets.
zeno_status yt_fail_node(const yt_loader *ld, const ynode *n, zeno_status code, const char *param,
                         const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/// ZENO_ERR_NOMEM, reported against the scene file.
zeno_status yt_out_of_memory(const yt_loader *ld);

/// Checks the result of an snprintf into out[size]: true when the text fit.
/// Otherwise the cut text ends in "..." so that it is not taken for whole.
bool yt_text_fits(char *out, size_t size, int written);

/// The scalars the override "path=VALUE" would replace, when each of its
/// paths ('+'-joined) already names a scalar of `root` (through existing
/// mappings and sequence items) and VALUE is a plain decimal number ([+-]
/// digits [. digits] [e [+-] digits], nothing else): applying the override
/// is then the same as giving those scalars VALUE's text in place, plain,
/// at line 1, column 1 of the override (what yt_parse() makes of VALUE).
/// Returns how many (at most max); 0 when the override is not of this kind.
int yt_override_scalars(ynode *root, const char *text, ynode **out, int max);

#endif
