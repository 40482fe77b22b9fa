// YAML scene loader. libyaml events become a small document tree whose nodes
// keep their start marks; `--set` overrides edit that tree; the tree is then
// converted into a zeno_scene (starting from zeno_scene_default()) and
// validated, and a validation failure is traced back to the node it came
// from so that every error names file:line:column or the override text.
#include "zeno/scene.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util.h"

/// Deepest nesting accepted. Scenes use four levels; the limit only keeps
/// hostile input from exhausting the stack of the recursive parser.
#define YAML_MAX_DEPTH 64
/// First allocation of a node's child array; it doubles from there.
#define NODE_INITIAL_CAPACITY 4
/// Scene files are read in chunks of this size (works for pipes too).
#define READ_CHUNK 4096
/// Longest piece of a scalar quoted back in an error message.
#define QUOTE_MAX 40
/// Room for a dotted scene path, the same as zeno_error.parameter.
#define SCENE_PATH_LEN 128
/// Room for a composed message fragment (allowed-key lists and the like).
#define TEXT_LEN 256
/// Room for one strerror text.
#define ERRNO_TEXT_LEN 128
/// Largest sequence index accepted in an override path; scenes never get
/// near it and the bound keeps the index parse free of overflow.
#define MAX_INDEX 9999
/// File name reported for errors inside --set expressions.
#define OVERRIDE_FILE "--set"
/// File name used by zeno_scene_load_string() when the caller gives none.
#define STRING_FILE "<string>"

/// Coordinates of a point [x, y].
#define POINT_DIM 2
/// Entries of a state vector: (z1, z2, x2) or (x, y, theta) and their rates.
#define STATE_DIM 3
/// Fewest vertices of a polygon outline.
#define POLYGON_MIN_VERTICES 3

/// The paper normalises mass, radius of gyration and load to 1 and uses no
/// load torque; those are the defaults of the optional paper keys.
#define PAPER_DEFAULT_RHO 1.0
#define PAPER_DEFAULT_M 1.0
#define PAPER_DEFAULT_F 1.0
#define PAPER_DEFAULT_TAU 0.0

static const double DEG_TO_RAD = M_PI / 180.0;

/// Elements of a fixed-size array, as an int for loop bounds.
#define COUNT_OF(array) ((int)(sizeof(array) / sizeof *(array)))

/* ------------------------------------------------------------------------ */
/* Document tree                                                             */
/* ------------------------------------------------------------------------ */

typedef enum ynode_kind {
  YNODE_SCALAR,
  YNODE_SEQUENCE,
  YNODE_MAPPING
} ynode_kind;

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
};

static ynode *node_new(ynode_kind kind, int line, int column,
                       const char *origin) {
  ynode *n = calloc(1, sizeof *n);
  if (n == NULL) return NULL;
  n->kind = kind;
  n->line = line;
  n->column = column;
  n->origin = origin;
  return n;
}

// Copies `length` bytes: libyaml scalars carry a length, not a terminator.
static ynode *scalar_new(const char *text, size_t length, int line, int column,
                         const char *origin) {
  ynode *n = node_new(YNODE_SCALAR, line, column, origin);
  if (n == NULL) return NULL;
  n->text = malloc(length + 1);
  if (n->text == NULL) {
    free(n);
    return NULL;
  }
  memcpy(n->text, text, length);
  n->text[length] = '\0';
  return n;
}

static void node_free(ynode *n) {
  if (n == NULL) return;
  for (int i = 0; i < n->count; i++) {
    if (n->kind == YNODE_SEQUENCE) {
      node_free(n->items[i]);
    } else {
      node_free(n->entries[i].key);
      node_free(n->entries[i].value);
    }
  }
  free(n->items);
  free(n->entries);
  free(n->text);
  free(n);
}

// Makes room for one more child; false when out of memory.
static bool node_reserve(ynode *n) {
  if (n->count < n->capacity) return true;
  int capacity = n->capacity ? 2 * n->capacity : NODE_INITIAL_CAPACITY;
  if (n->kind == YNODE_SEQUENCE) {
    ynode **items = realloc(n->items, (size_t)capacity * sizeof *items);
    if (items == NULL) return false;
    n->items = items;
  } else {
    yentry *entries = realloc(n->entries, (size_t)capacity * sizeof *entries);
    if (entries == NULL) return false;
    n->entries = entries;
  }
  n->capacity = capacity;
  return true;
}

// On failure the caller still owns `item`.
static bool seq_append(ynode *seq, ynode *item) {
  if (!node_reserve(seq)) return false;
  seq->items[seq->count++] = item;
  return true;
}

// On failure the caller still owns `key` and `value`.
static bool map_append(ynode *map, ynode *key, ynode *value) {
  if (!node_reserve(map)) return false;
  map->entries[map->count].key = key;
  map->entries[map->count].value = value;
  map->count++;
  return true;
}

// YAML's null: an unquoted empty, "~" or "null" scalar (`stop:` with nothing
// after it). Quoted text is never null.
static bool node_is_null(const ynode *n) {
  static const char *const NULL_SPELLINGS[] = {"", "~", "null", "Null", "NULL"};
  if (n == NULL || n->kind != YNODE_SCALAR || !n->plain) return false;
  for (int i = 0; i < COUNT_OF(NULL_SPELLINGS); i++)
    if (strcmp(n->text, NULL_SPELLINGS[i]) == 0) return true;
  return false;
}

// The entry of `key` in a mapping; NULL when absent or `map` is no mapping.
static yentry *map_find(const ynode *map, const char *key) {
  if (map == NULL || map->kind != YNODE_MAPPING) return NULL;
  for (int i = 0; i < map->count; i++)
    if (strcmp(map->entries[i].key->text, key) == 0) return &map->entries[i];
  return NULL;
}

static const ynode *map_get(const ynode *map, const char *key) {
  const yentry *e = map_find(map, key);
  return e ? e->value : NULL;
}

// Parses a decimal sequence index ("0", "12"); false for anything else.
static bool parse_index(const char *text, int *out) {
  if (*text == '\0') return false;
  long value = 0;
  for (const char *c = text; *c; c++) {
    if (*c < '0' || *c > '9') return false;
    value = value * 10 + (*c - '0');
    if (value > MAX_INDEX) return false;
  }
  *out = (int)value;
  return true;
}

// The child of a mapping (by key) or a sequence (by decimal index).
static const ynode *node_child(const ynode *n, const char *segment) {
  int index;
  if (n != NULL && n->kind == YNODE_SEQUENCE)
    return parse_index(segment, &index) && index < n->count ? n->items[index]
                                                            : NULL;
  return map_get(n, segment);
}

// Follows a dotted path ("contacts.1.mu") from the root; NULL if absent.
static const ynode *tree_lookup(const ynode *root, const char *dotted) {
  char path[SCENE_PATH_LEN];
  if (snprintf(path, sizeof path, "%s", dotted) >= (int)sizeof path)
    return NULL;
  const ynode *n = root;
  char *segment = path;
  while (n != NULL && segment != NULL) {
    char *dot = strchr(segment, '.');
    if (dot) *dot = '\0';
    n = node_child(n, segment);
    segment = dot ? dot + 1 : NULL;
  }
  return n;
}

/* ------------------------------------------------------------------------ */
/* Error reporting                                                           */
/* ------------------------------------------------------------------------ */

// snprintf for text that may be cut at the buffer's end (paths, quotes,
// messages): cutting is acceptable there, and going through vsnprintf keeps
// gcc's -Wformat-truncation quiet about it.
static void text_format(char *out, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void text_format(char *out, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out, size, fmt, ap);
  va_end(ap);
}

/// What one load call reports against.
typedef struct loader {
  const char *file;   ///< file name in messages
  zeno_error *error;  ///< never NULL inside the loader
} loader;

// Fills the error. Positions inside an override are not reported: the file
// is "--set", the line 0 and the message quotes the whole override.
static zeno_status report_v(const loader *ld, const char *origin, int line,
                            int column, zeno_status code, const char *param,
                            const char *fmt, va_list ap) {
  char message[sizeof ld->error->message];
  vsnprintf(message, sizeof message, fmt, ap);
  if (origin != NULL)
    return zeno_fail_at(ld->error, code, OVERRIDE_FILE, 0, 0, param,
                        OVERRIDE_FILE " %s: %s", origin, message);
  return zeno_fail_at(ld->error, code, ld->file, line, column, param, "%s",
                      message);
}

static zeno_status fail_mark(const loader *ld, const char *origin, int line,
                             int column, zeno_status code, const char *param,
                             const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static zeno_status fail_mark(const loader *ld, const char *origin, int line,
                             int column, zeno_status code, const char *param,
                             const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zeno_status st = report_v(ld, origin, line, column, code, param, fmt, ap);
  va_end(ap);
  return st;
}

static zeno_status fail_node(const loader *ld, const ynode *n, zeno_status code,
                             const char *param, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static zeno_status fail_node(const loader *ld, const ynode *n, zeno_status code,
                             const char *param, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  zeno_status st =
      n ? report_v(ld, n->origin, n->line, n->column, code, param, fmt, ap)
        : report_v(ld, NULL, 0, 0, code, param, fmt, ap);
  va_end(ap);
  return st;
}

static zeno_status out_of_memory(const loader *ld) {
  return zeno_fail_at(ld->error, ZENO_ERR_NOMEM, ld->file, 0, 0, "",
                      "out of memory while loading the scene");
}

// "a mapping", "a sequence of 4 items" or the quoted scalar, for messages.
static void describe(const ynode *n, char *out, size_t size) {
  if (n->kind == YNODE_MAPPING)
    text_format(out, size, "a mapping");
  else if (n->kind == YNODE_SEQUENCE)
    text_format(out, size, "a sequence of %d item%s", n->count,
                n->count == 1 ? "" : "s");
  else
    text_format(out, size, "'%.*s%s'", QUOTE_MAX, n->text,
                strlen(n->text) > QUOTE_MAX ? "..." : "");
}

// Where a node was written, for messages that point at a second place.
static void describe_position(const ynode *n, char *out, size_t size) {
  if (n->origin != NULL)
    text_format(out, size, "given by " OVERRIDE_FILE " %s", n->origin);
  else
    text_format(out, size, "given at %d:%d", n->line, n->column);
}

/* ------------------------------------------------------------------------ */
/* Dotted paths                                                              */
/* ------------------------------------------------------------------------ */

static void path_join(char *out, const char *parent, const char *key) {
  text_format(out, SCENE_PATH_LEN, "%s%s%s", parent, *parent ? "." : "", key);
}

static void path_index(char *out, const char *parent, int index) {
  char key[SCENE_PATH_LEN];
  text_format(key, sizeof key, "%d", index);
  path_join(out, parent, key);
}

// "at top level", or "in contacts[1].surface" for "contacts.1.surface":
// how messages name a mapping.
static void path_where(char *out, size_t size, const char *dotted) {
  if (*dotted == '\0') {
    text_format(out, size, "at top level");
    return;
  }
  static const char PREFIX[] = "in ";
  char path[SCENE_PATH_LEN];
  text_format(path, sizeof path, "%s", dotted);
  size_t used = (size_t)snprintf(out, size, "%s", PREFIX);
  int index;
  char *rest = NULL;
  // The loop stops once the buffer is full, so `size - used` never wraps.
  for (char *seg = strtok_r(path, ".", &rest); seg && used < size;
       seg = strtok_r(NULL, ".", &rest)) {
    bool first = used == sizeof PREFIX - 1;
    used += (size_t)(parse_index(seg, &index)
                         ? snprintf(out + used, size - used, "[%d]", index)
                         : snprintf(out + used, size - used, "%s%s",
                                    first ? "" : ".", seg));
  }
}

/* ------------------------------------------------------------------------ */
/* Parsing: libyaml events -> tree                                           */
/* ------------------------------------------------------------------------ */

typedef struct parse_ctx {
  yaml_parser_t parser;
  const loader *ld;
  const char *origin;  ///< stamped on every node: the --set text, or NULL
  const char *text;    ///< the input, to place reader (encoding) errors
  size_t length;
} parse_ctx;

static int mark_line(yaml_mark_t m) { return (int)m.line + 1; }
static int mark_column(yaml_mark_t m) { return (int)m.column + 1; }

// Reader errors (bad UTF-8) carry a byte offset instead of a mark.
static yaml_mark_t offset_mark(const parse_ctx *pc, size_t offset) {
  yaml_mark_t mark = {offset, 0, 0};
  for (size_t i = 0; i < offset && i < pc->length; i++) {
    if (pc->text[i] == '\n') {
      mark.line++;
      mark.column = 0;
    } else {
      mark.column++;
    }
  }
  return mark;
}

// Turns libyaml's error state into ZENO_ERR_SYNTAX at the problem mark.
static zeno_status parser_failure(const parse_ctx *pc) {
  const yaml_parser_t *p = &pc->parser;
  if (p->error == YAML_MEMORY_ERROR) return out_of_memory(pc->ld);
  yaml_mark_t mark = p->error == YAML_READER_ERROR
                         ? offset_mark(pc, p->problem_offset)
                         : p->problem_mark;
  const char *problem = p->problem ? p->problem : "malformed YAML";
  if (p->context == NULL)
    return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                     ZENO_ERR_SYNTAX, "", "%s", problem);
  return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                   ZENO_ERR_SYNTAX, "", "%s (%s that started at %d:%d)",
                   problem, p->context, mark_line(p->context_mark),
                   mark_column(p->context_mark));
}

// On success the caller owns *ev and must yaml_event_delete() it.
static zeno_status next_event(parse_ctx *pc, yaml_event_t *ev) {
  if (yaml_parser_parse(&pc->parser, ev)) return ZENO_OK;
  return parser_failure(pc);
}

static zeno_status parse_node(parse_ctx *pc, const yaml_event_t *ev, int depth,
                              ynode **out);

static zeno_status parse_scalar(parse_ctx *pc, const yaml_event_t *ev,
                                ynode **out) {
  ynode *n = scalar_new((const char *)ev->data.scalar.value,
                        ev->data.scalar.length, mark_line(ev->start_mark),
                        mark_column(ev->start_mark), pc->origin);
  if (n == NULL) return out_of_memory(pc->ld);
  n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  *out = n;
  return ZENO_OK;
}

static zeno_status parse_sequence(parse_ctx *pc, ynode *seq, int depth) {
  for (;;) {
    yaml_event_t ev;
    zeno_status st = next_event(pc, &ev);
    if (st != ZENO_OK) return st;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      return ZENO_OK;
    }
    ynode *item = NULL;
    st = parse_node(pc, &ev, depth + 1, &item);
    yaml_event_delete(&ev);
    if (st == ZENO_OK && !seq_append(seq, item)) {
      node_free(item);
      st = out_of_memory(pc->ld);
    }
    if (st != ZENO_OK) return st;
  }
}

// Keys must be scalars (the schema has no complex keys) and unique.
static zeno_status parse_key(parse_ctx *pc, const ynode *map,
                             const yaml_event_t *ev, ynode **out) {
  if (ev->type != YAML_SCALAR_EVENT)
    return fail_mark(pc->ld, pc->origin, mark_line(ev->start_mark),
                     mark_column(ev->start_mark), ZENO_ERR_TYPE, "",
                     "mapping keys must be scalars");
  zeno_status st = parse_scalar(pc, ev, out);
  if (st != ZENO_OK) return st;
  const yentry *first = map_find(map, (*out)->text);
  if (first == NULL) return ZENO_OK;
  st = fail_node(pc->ld, *out, ZENO_ERR_SYNTAX, "",
                 "duplicate key '%s' (first at %d:%d)", (*out)->text,
                 first->key->line, first->key->column);
  node_free(*out);
  *out = NULL;
  return st;
}

// Reads the value that follows `key` and adds the pair; owns `key`.
static zeno_status parse_entry_value(parse_ctx *pc, ynode *map, ynode *key,
                                     int depth) {
  yaml_event_t ev;
  ynode *value = NULL;
  zeno_status st = next_event(pc, &ev);
  if (st == ZENO_OK) {
    st = parse_node(pc, &ev, depth + 1, &value);
    yaml_event_delete(&ev);
  }
  if (st == ZENO_OK && !map_append(map, key, value)) st = out_of_memory(pc->ld);
  if (st != ZENO_OK) {
    node_free(key);
    node_free(value);
  }
  return st;
}

static zeno_status parse_mapping(parse_ctx *pc, ynode *map, int depth) {
  for (;;) {
    yaml_event_t ev;
    zeno_status st = next_event(pc, &ev);
    if (st != ZENO_OK) return st;
    if (ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      return ZENO_OK;
    }
    ynode *key = NULL;
    st = parse_key(pc, map, &ev, &key);
    yaml_event_delete(&ev);
    if (st == ZENO_OK) st = parse_entry_value(pc, map, key, depth);
    if (st != ZENO_OK) return st;
  }
}

static zeno_status parse_container(parse_ctx *pc, ynode_kind kind,
                                   yaml_mark_t mark, int depth, ynode **out) {
  ynode *n = node_new(kind, mark_line(mark), mark_column(mark), pc->origin);
  if (n == NULL) return out_of_memory(pc->ld);
  zeno_status st = kind == YNODE_SEQUENCE ? parse_sequence(pc, n, depth)
                                          : parse_mapping(pc, n, depth);
  if (st != ZENO_OK) {
    node_free(n);
    return st;
  }
  *out = n;
  return ZENO_OK;
}

// Builds the node that starts with `ev` (already read; the caller deletes it).
static zeno_status parse_node(parse_ctx *pc, const yaml_event_t *ev, int depth,
                              ynode **out) {
  yaml_mark_t mark = ev->start_mark;
  if (depth > YAML_MAX_DEPTH)
    return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                     ZENO_ERR_SYNTAX, "", "nesting deeper than %d levels",
                     YAML_MAX_DEPTH);
  switch (ev->type) {
    case YAML_SCALAR_EVENT:
      return parse_scalar(pc, ev, out);
    case YAML_SEQUENCE_START_EVENT:
      return parse_container(pc, YNODE_SEQUENCE, mark, depth, out);
    case YAML_MAPPING_START_EVENT:
      return parse_container(pc, YNODE_MAPPING, mark, depth, out);
    case YAML_ALIAS_EVENT:
      return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                       ZENO_ERR_SYNTAX, "",
                       "aliases (*%s) are not supported in scene files",
                       (const char *)ev->data.alias.anchor);
    default:
      return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                       ZENO_ERR_SYNTAX, "", "unexpected YAML structure");
  }
}

// The body of one document: its root node, then DOCUMENT-END.
static zeno_status parse_document(parse_ctx *pc, ynode **root) {
  yaml_event_t ev;
  zeno_status st = next_event(pc, &ev);
  if (st != ZENO_OK) return st;
  st = parse_node(pc, &ev, 0, root);
  yaml_event_delete(&ev);
  if (st != ZENO_OK) return st;
  st = next_event(pc, &ev);
  if (st == ZENO_OK) yaml_event_delete(&ev);
  return st;
}

// The whole stream: nothing (root stays NULL) or exactly one document.
static zeno_status parse_stream(parse_ctx *pc, ynode **root) {
  for (;;) {
    yaml_event_t ev;
    zeno_status st = next_event(pc, &ev);
    if (st != ZENO_OK) return st;
    yaml_event_type_t type = ev.type;
    yaml_mark_t mark = ev.start_mark;
    yaml_event_delete(&ev);
    if (type == YAML_STREAM_END_EVENT) return ZENO_OK;
    if (type != YAML_DOCUMENT_START_EVENT) continue;
    if (*root != NULL)
      return fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark),
                       ZENO_ERR_SYNTAX, "",
                       "a scene holds one YAML document; a second starts here");
    st = parse_document(pc, root);
    if (st != ZENO_OK) return st;
  }
}

// Parses YAML text into a tree; *root is NULL for an empty stream. Every
// node is stamped with `origin` (NULL for the scene file itself).
static zeno_status parse_text(const loader *ld, const char *text, size_t length,
                              const char *origin, ynode **root) {
  parse_ctx pc = {.ld = ld, .origin = origin, .text = text, .length = length};
  *root = NULL;
  if (!yaml_parser_initialize(&pc.parser)) return out_of_memory(ld);
  yaml_parser_set_input_string(&pc.parser, (const unsigned char *)text, length);
  zeno_status st = parse_stream(&pc, root);
  yaml_parser_delete(&pc.parser);
  if (st != ZENO_OK) {
    node_free(*root);
    *root = NULL;
  }
  return st;
}

/* ------------------------------------------------------------------------ */
/* --set overrides                                                           */
/* ------------------------------------------------------------------------ */

// The slot under `container` named by `segment`, appending an empty slot
// for a new mapping key or for the index just past a sequence's end (so
// `contacts.1=...` can add a second contact).
static zeno_status child_slot(const loader *ld, ynode *container,
                              const char *segment, const char *parent,
                              const char *origin, ynode ***slot) {
  if (container->kind == YNODE_MAPPING) {
    yentry *e = map_find(container, segment);
    if (e != NULL) {
      *slot = &e->value;
      return ZENO_OK;
    }
    ynode *key = scalar_new(segment, strlen(segment), 0, 0, origin);
    if (key == NULL || !map_append(container, key, NULL)) {
      node_free(key);
      return out_of_memory(ld);
    }
    *slot = &container->entries[container->count - 1].value;
    return ZENO_OK;
  }
  int index;
  if (!parse_index(segment, &index))
    return fail_mark(ld, origin, 0, 0, ZENO_ERR_TYPE, "",
                     "'%s' is a sequence; expected an index, got '%s'", parent,
                     segment);
  if (index > container->count)
    return fail_mark(ld, origin, 0, 0, ZENO_ERR_RANGE, "",
                     "index %d is out of range; '%s' has %d item%s", index,
                     parent, container->count,
                     container->count == 1 ? "" : "s");
  if (index == container->count && !seq_append(container, NULL))
    return out_of_memory(ld);
  *slot = &container->items[index];
  return ZENO_OK;
}

// Makes *slot a mapping or sequence to descend into: a missing or null
// node becomes an empty mapping; any other scalar cannot hold keys.
static zeno_status ensure_container(const loader *ld, ynode **slot,
                                    const char *segment, const char *origin) {
  if (*slot != NULL && (*slot)->kind != YNODE_SCALAR) return ZENO_OK;
  if (*slot != NULL && !node_is_null(*slot))
    return fail_mark(ld, origin, 0, 0, ZENO_ERR_TYPE, "",
                     "'%s' holds the value '%s', not a mapping", segment,
                     (*slot)->text);
  ynode *map = node_new(YNODE_MAPPING, 0, 0, origin);
  if (map == NULL) return out_of_memory(ld);
  node_free(*slot);
  *slot = map;
  return ZENO_OK;
}

// Puts `value` at the dotted `path` (modified in place); owns `value`.
static zeno_status tree_set(const loader *ld, ynode **root, char *path,
                            ynode *value, const char *origin) {
  ynode **slot = root;
  const char *parent = "the top level";
  for (char *segment = path;;) {
    char *dot = strchr(segment, '.');
    if (dot) *dot = '\0';
    zeno_status st = child_slot(ld, *slot, segment, parent, origin, &slot);
    if (st == ZENO_OK && dot) st = ensure_container(ld, slot, segment, origin);
    if (st != ZENO_OK) {
      node_free(value);
      return st;
    }
    if (!dot) break;
    parent = segment;
    segment = dot + 1;
  }
  node_free(*slot);
  *slot = value;
  return ZENO_OK;
}

// Copies the path part of "path=VALUE" without surrounding blanks and
// checks that it has no empty segment. `text` is the whole override.
static zeno_status override_path(const loader *ld, const char *text,
                                 const char *equals, char *path) {
  const char *start = text, *end = equals;
  while (start < end && (*start == ' ' || *start == '\t')) start++;
  while (end > start && (end[-1] == ' ' || end[-1] == '\t')) end--;
  size_t length = (size_t)(end - start);
  if (length == 0)
    return fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "",
                     "empty path before '='");
  if (length >= SCENE_PATH_LEN)
    return fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "",
                     "path longer than %d characters", SCENE_PATH_LEN - 1);
  memcpy(path, start, length);
  path[length] = '\0';
  if (path[0] == '.' || path[length - 1] == '.' || strstr(path, ".."))
    return fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, path,
                     "empty segment in path '%s'", path);
  return ZENO_OK;
}

// Applies one "dotted.path=VALUE"; VALUE is YAML (flow syntax allowed).
static zeno_status override_apply(const loader *ld, ynode **root,
                                  const char *text) {
  const char *equals = strchr(text, '=');
  if (equals == NULL)
    return fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "",
                     "expected dotted.path=VALUE (e.g. paper.alpha=45)");
  char path[SCENE_PATH_LEN];
  zeno_status st = override_path(ld, text, equals, path);
  if (st != ZENO_OK) return st;
  ynode *value = NULL;
  st = parse_text(ld, equals + 1, strlen(equals + 1), text, &value);
  if (st != ZENO_OK) return st;
  if (value == NULL)
    return fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, path,
                     "missing value after '='");
  if (*root == NULL) *root = node_new(YNODE_MAPPING, 1, 1, NULL);
  if (*root == NULL) {
    node_free(value);
    return out_of_memory(ld);
  }
  return tree_set(ld, root, path, value, text);
}

/* ------------------------------------------------------------------------ */
/* Conversion primitives                                                     */
/* ------------------------------------------------------------------------ */

typedef struct key_set {
  const char *const *keys;
  int count;
} key_set;

#define KEY_SET(array) \
  { (array), COUNT_OF(array) }

static bool key_allowed(const key_set *allowed, const char *key) {
  for (int i = 0; i < allowed->count; i++)
    if (strcmp(allowed->keys[i], key) == 0) return true;
  return false;
}

// "a, b, c" for messages.
static void join_names(const char *const *names, int count, char *out,
                       size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < count && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "",
                             names[i]);
}

static zeno_status unknown_key(const loader *ld, const ynode *key,
                               const char *path, const key_set *allowed) {
  char param[SCENE_PATH_LEN], where[SCENE_PATH_LEN], names[TEXT_LEN];
  path_join(param, path, key->text);
  path_where(where, sizeof where, path);
  join_names(allowed->keys, allowed->count, names, sizeof names);
  return fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, param,
                   "unknown key '%s' %s (allowed: %s)", key->text, where,
                   names);
}

// Accepts a mapping whose keys are all in `allowed`, or null (an empty
// mapping: `stop:` with nothing after it keeps the defaults).
static zeno_status expect_mapping(const loader *ld, const ynode *n,
                                  const char *path, const key_set *allowed) {
  if (node_is_null(n)) return ZENO_OK;
  if (n->kind != YNODE_MAPPING) {
    char got[TEXT_LEN];
    describe(n, got, sizeof got);
    return fail_node(ld, n, ZENO_ERR_TYPE, path, "expected a mapping, got %s",
                     got);
  }
  for (int i = 0; i < n->count; i++)
    if (!key_allowed(allowed, n->entries[i].key->text))
      return unknown_key(ld, n->entries[i].key, path, allowed);
  return ZENO_OK;
}

// A required key: reported missing at the mark of the mapping that lacks it.
static zeno_status require(const loader *ld, const ynode *map, const char *path,
                           const char *key, const ynode **out) {
  *out = map_get(map, key);
  if (*out != NULL) return ZENO_OK;
  char param[SCENE_PATH_LEN], where[SCENE_PATH_LEN];
  path_join(param, path, key);
  path_where(where, sizeof where, path);
  return fail_node(ld, map, ZENO_ERR_MISSING, param, "missing key '%s' %s", key,
                   where);
}

// YAML 1.2 spellings of infinity and NaN; they load so that validation can
// report them as not finite instead of as a type error.
static bool parse_special_number(const char *text, double *out) {
  static const char *const INF_SPELLINGS[] = {".inf", ".Inf", ".INF"};
  static const char *const NAN_SPELLINGS[] = {".nan", ".NaN", ".NAN"};
  double sign = *text == '-' ? -1.0 : 1.0;
  const char *body = (*text == '-' || *text == '+') ? text + 1 : text;
  for (int i = 0; i < COUNT_OF(INF_SPELLINGS); i++) {
    if (strcmp(body, INF_SPELLINGS[i]) == 0) {
      *out = sign * INFINITY;
      return true;
    }
    if (body == text && strcmp(text, NAN_SPELLINGS[i]) == 0) {
      *out = NAN;
      return true;
    }
  }
  return false;
}

// A decimal number that strtod consumes entirely. The character check
// keeps out what strtod would also take: hex, "inf", "nan", blanks.
static bool parse_number_text(const char *text, double *out) {
  if (parse_special_number(text, out)) return true;
  if (text[0] == '\0' || strspn(text, "0123456789+-.eE") != strlen(text) ||
      strpbrk(text, "0123456789") == NULL)
    return false;
  char *end;
  double value = strtod(text, &end);
  if (*end != '\0') return false;
  *out = value;
  return true;
}

static zeno_status read_number(const loader *ld, const ynode *n,
                               const char *param, double *out) {
  if (n->kind == YNODE_SCALAR && parse_number_text(n->text, out))
    return ZENO_OK;
  char got[TEXT_LEN];
  describe(n, got, sizeof got);
  return fail_node(ld, n, ZENO_ERR_TYPE, param, "expected a number, got %s",
                   got);
}

// An angle written in degrees, stored in radians.
static zeno_status read_degrees(const loader *ld, const ynode *n,
                                const char *param, double *out) {
  double degrees = 0;
  zeno_status st = read_number(ld, n, param, &degrees);
  if (st == ZENO_OK) *out = degrees * DEG_TO_RAD;
  return st;
}

// A decimal integer; no fractions or exponents, so a count stays a count.
static zeno_status read_integer(const loader *ld, const ynode *n,
                                const char *param, long *out) {
  const char *text = n->kind == YNODE_SCALAR ? n->text : "";
  const char *digits = (*text == '-' || *text == '+') ? text + 1 : text;
  if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits)) {
    char got[TEXT_LEN];
    describe(n, got, sizeof got);
    return fail_node(ld, n, ZENO_ERR_TYPE, param, "expected an integer, got %s",
                     got);
  }
  errno = 0;
  long value = strtol(text, NULL, 10);
  if (errno == ERANGE)
    return fail_node(ld, n, ZENO_ERR_RANGE, param,
                     "integer %s does not fit; allowed at most %ld", text,
                     (long)LONG_MAX);
  *out = value;
  return ZENO_OK;
}

// A sequence of exactly `dim` numbers, e.g. a point [x, y].
static zeno_status read_vector(const loader *ld, const ynode *n,
                               const char *param, int dim, double *out) {
  if (n->kind != YNODE_SEQUENCE || n->count != dim) {
    char got[TEXT_LEN];
    describe(n, got, sizeof got);
    return fail_node(ld, n, ZENO_ERR_TYPE, param,
                     "expected a sequence of %d numbers, got %s", dim, got);
  }
  for (int i = 0; i < dim; i++) {
    char item[SCENE_PATH_LEN];
    path_index(item, param, i);
    zeno_status st = read_number(ld, n->items[i], item, &out[i]);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// One of `names`; *out is its index.
static zeno_status read_choice(const loader *ld, const ynode *n,
                               const char *param, const char *const *names,
                               int count, int *out) {
  for (int i = 0; n->kind == YNODE_SCALAR && i < count; i++) {
    if (strcmp(n->text, names[i]) == 0) {
      *out = i;
      return ZENO_OK;
    }
  }
  char got[TEXT_LEN], list[TEXT_LEN];
  describe(n, got, sizeof got);
  join_names(names, count, list, sizeof list);
  return fail_node(ld, n, ZENO_ERR_TYPE, param, "expected one of %s; got %s",
                   list, got);
}

static zeno_status read_text(const loader *ld, const ynode *n,
                             const char *param, char *out, size_t size) {
  if (n->kind != YNODE_SCALAR) {
    char got[TEXT_LEN];
    describe(n, got, sizeof got);
    return fail_node(ld, n, ZENO_ERR_TYPE, param, "expected text, got %s", got);
  }
  if (strlen(n->text) >= size)
    return fail_node(ld, n, ZENO_ERR_RANGE, param,
                     "text of %zu characters; at most %zu allowed",
                     strlen(n->text), size - 1);
  text_format(out, size, "%s", n->text);
  return ZENO_OK;
}

/// A number-valued key of a mapping and where it is stored.
typedef struct number_field {
  const char *key;
  size_t offset;  ///< of a double inside the target struct
  bool required;
} number_field;

// Reads the listed number keys of `map` into the struct at `base`; absent
// optional keys leave the stored value (the default) alone.
static zeno_status read_number_fields(const loader *ld, const ynode *map,
                                      const char *path,
                                      const number_field *fields, int count,
                                      void *base) {
  for (int i = 0; i < count; i++) {
    const ynode *v = map_get(map, fields[i].key);
    zeno_status st = ZENO_OK;
    if (v == NULL && fields[i].required)
      st = require(ld, map, path, fields[i].key, &v);
    if (st != ZENO_OK) return st;
    if (v == NULL) continue;
    char param[SCENE_PATH_LEN];
    path_join(param, path, fields[i].key);
    st = read_number(ld, v, param, (double *)((char *)base + fields[i].offset));
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

/* ------------------------------------------------------------------------ */
/* Schema                                                                    */
/* ------------------------------------------------------------------------ */

static const char *const TOP_KEYS[] = {
    "name",     "model", "epsilon", "ambiguity", "paper", "com",   "body",
    "contacts", "load",  "impact",  "initial",   "stop",  "solver"};
static const char *const PAPER_KEYS[] = {"alpha", "l1",   "l2",  "h",
                                         "phi1",  "phi2", "mu1", "mu2",
                                         "rho",   "m",    "f",   "tau"};
static const char *const COM_KEYS[] = {"x", "y"};
static const char *const BODY_KEYS[] = {"mass", "rho", "outline",
                                        "outline_radius"};
static const char *const CONTACT_KEYS[] = {"point", "surface", "mu"};
static const char *const SURFACE_KEYS[] = {"angle", "point"};
static const char *const LOAD_KEYS[] = {"magnitude", "angle", "torque"};
static const char *const IMPACT_KEYS[] = {"law", "e", "et"};
static const char *const INITIAL_KEYS[] = {"qp", "qdp", "pose", "velocity"};
static const char *const STOP_KEYS[] = {"t_end", "max_events", "escape_radius"};
static const char *const SOLVER_KEYS[] = {"rtol", "atol", "sample_dt"};

/// Enum spellings, indexed by enum value (the same as zeno_*_name()).
static const char *const MODEL_NAMES[] = {"zod", "full"};
static const char *const LAW_NAMES[] = {"inelastic", "chatterjee-ruina",
                                        "newton"};
static const char *const AMBIGUITY_NAMES[] = {"stop", "prefer-static",
                                              "prefer-motion"};
/// Named outlines; a sequence of vertices gives a polygon instead.
static const char *const OUTLINE_NAMES[] = {"biped", "disk"};
static const zeno_outline_kind OUTLINE_KINDS[] = {ZENO_OUTLINE_BIPED,
                                                  ZENO_OUTLINE_DISK};

static const number_field PAPER_FIELDS[] = {
    {"alpha", offsetof(zeno_paper_params, alpha), true},
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
static const number_field BODY_FIELDS[] = {
    {"mass", offsetof(zeno_scene, mass), true},
    {"rho", offsetof(zeno_scene, rho), true}};
static const number_field LOAD_FIELDS[] = {
    {"magnitude", offsetof(zeno_scene, load_magnitude), true},
    {"torque", offsetof(zeno_scene, load_torque), false}};
static const number_field IMPACT_FIELDS[] = {
    {"e", offsetof(zeno_scene, restitution), false},
    {"et", offsetof(zeno_scene, tangential_restitution), false}};
static const number_field STOP_FIELDS[] = {
    {"t_end", offsetof(zeno_scene, t_end), false},
    {"escape_radius", offsetof(zeno_scene, escape_radius), false}};
static const number_field SOLVER_FIELDS[] = {
    {"rtol", offsetof(zeno_scene, rtol), false},
    {"atol", offsetof(zeno_scene, atol), false},
    {"sample_dt", offsetof(zeno_scene, sample_dt), false}};

/* ------------------------------------------------------------------------ */
/* Sections                                                                  */
/* ------------------------------------------------------------------------ */

// Reads an enum-valued key when present.
static zeno_status read_enum_key(const loader *ld, const ynode *map,
                                 const char *path, const char *key,
                                 const char *const *names, int count,
                                 int *out) {
  const ynode *v = map_get(map, key);
  if (v == NULL) return ZENO_OK;
  char param[SCENE_PATH_LEN];
  path_join(param, path, key);
  return read_choice(ld, v, param, names, count, out);
}

// name, model, epsilon, ambiguity.
static zeno_status read_header(const loader *ld, const ynode *root,
                               zeno_scene *s) {
  const ynode *name = map_get(root, "name");
  zeno_status st =
      name ? read_text(ld, name, "name", s->name, sizeof s->name) : ZENO_OK;
  int model = (int)s->model, ambiguity = (int)s->ambiguity;
  if (st == ZENO_OK)
    st = read_enum_key(ld, root, "", "model", MODEL_NAMES,
                       COUNT_OF(MODEL_NAMES), &model);
  if (st == ZENO_OK)
    st = read_enum_key(ld, root, "", "ambiguity", AMBIGUITY_NAMES,
                       COUNT_OF(AMBIGUITY_NAMES), &ambiguity);
  const ynode *epsilon = map_get(root, "epsilon");
  if (st == ZENO_OK && epsilon)
    st = read_number(ld, epsilon, "epsilon", &s->epsilon);
  s->model = (zeno_model)model;
  s->ambiguity = (zeno_ambiguity_policy)ambiguity;
  return st;
}

// com: {x, y}, the centre of mass moved with the contacts kept in place.
static zeno_status read_com(const loader *ld, const ynode *root,
                            zeno_scene *s) {
  const ynode *com = map_get(root, "com");
  if (com == NULL) return ZENO_OK;
  static const key_set keys = KEY_SET(COM_KEYS);
  zeno_status st = expect_mapping(ld, com, "com", &keys);
  const ynode *x = map_get(com, "x"), *y = map_get(com, "y");
  if (st == ZENO_OK && x) st = read_number(ld, x, "com.x", &s->com_shift[0]);
  if (st == ZENO_OK && y) st = read_number(ld, y, "com.y", &s->com_shift[1]);
  return st;
}

static zeno_status conflict(const loader *ld, const ynode *key,
                            const char *name, const ynode *paper_key) {
  char given[TEXT_LEN];
  describe_position(paper_key, given, sizeof given);
  return fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, name,
                   "'%s' conflicts with 'paper' (%s); use one form", name,
                   given);
}

// The paper block defines body, contacts and load: the general-form keys
// for those cannot also be given.
static zeno_status check_paper_conflicts(const loader *ld, const ynode *root,
                                         const ynode *paper_key) {
  static const char *const TOP[] = {"contacts", "load"};
  static const char *const BODY[] = {"mass", "rho"};
  for (int i = 0; i < COUNT_OF(TOP); i++) {
    const yentry *e = map_find(root, TOP[i]);
    if (e) return conflict(ld, e->key, TOP[i], paper_key);
  }
  const ynode *body = map_get(root, "body");
  for (int i = 0; i < COUNT_OF(BODY); i++) {
    const yentry *e = map_find(body, BODY[i]);
    char name[SCENE_PATH_LEN];
    path_join(name, "body", BODY[i]);
    if (e) return conflict(ld, e->key, name, paper_key);
  }
  return ZENO_OK;
}

// paper: expands through zeno_scene_apply_paper(), which reads com_shift.
static zeno_status read_paper_form(const loader *ld, const ynode *root,
                                   const yentry *paper, zeno_scene *s) {
  static const key_set keys = KEY_SET(PAPER_KEYS);
  zeno_status st = check_paper_conflicts(ld, root, paper->key);
  if (st == ZENO_OK) st = expect_mapping(ld, paper->value, "paper", &keys);
  zeno_paper_params p = {.rho = PAPER_DEFAULT_RHO,
                         .m = PAPER_DEFAULT_M,
                         .f = PAPER_DEFAULT_F,
                         .tau = PAPER_DEFAULT_TAU};
  if (st == ZENO_OK)
    st = read_number_fields(ld, paper->value, "paper", PAPER_FIELDS,
                            COUNT_OF(PAPER_FIELDS), &p);
  if (st == ZENO_OK) zeno_scene_apply_paper(s, &p);
  return st;
}

// contacts[i].surface: {angle (deg, required), point (optional)}.
static zeno_status read_surface(const loader *ld, const ynode *n,
                                const char *path, zeno_contact_def *c) {
  static const key_set keys = KEY_SET(SURFACE_KEYS);
  char param[SCENE_PATH_LEN];
  const ynode *angle = NULL, *point = map_get(n, "point");
  zeno_status st = expect_mapping(ld, n, path, &keys);
  if (st == ZENO_OK) st = require(ld, n, path, "angle", &angle);
  path_join(param, path, "angle");
  if (st == ZENO_OK) st = read_degrees(ld, angle, param, &c->surface_angle);
  path_join(param, path, "point");
  if (st == ZENO_OK && point)
    st = read_vector(ld, point, param, POINT_DIM, c->surface_point);
  c->surface_point_set = point != NULL;
  return st;
}

// One contact: {point (required), surface (optional: flat through the
// point), mu (required)}.
static zeno_status read_contact(const loader *ld, const ynode *n,
                                const char *path, zeno_contact_def *c) {
  static const key_set keys = KEY_SET(CONTACT_KEYS);
  char param[SCENE_PATH_LEN];
  const ynode *point = NULL, *mu = NULL, *surface = map_get(n, "surface");
  memset(c, 0, sizeof *c);
  zeno_status st = expect_mapping(ld, n, path, &keys);
  if (st == ZENO_OK) st = require(ld, n, path, "point", &point);
  path_join(param, path, "point");
  if (st == ZENO_OK) st = read_vector(ld, point, param, POINT_DIM, c->point);
  path_join(param, path, "surface");
  if (st == ZENO_OK && surface) st = read_surface(ld, surface, param, c);
  if (st == ZENO_OK) st = require(ld, n, path, "mu", &mu);
  path_join(param, path, "mu");
  if (st == ZENO_OK) st = read_number(ld, mu, param, &c->mu);
  return st;
}

static zeno_status read_contacts(const loader *ld, const ynode *root,
                                 zeno_scene *s) {
  const ynode *list = NULL;
  zeno_status st = require(ld, root, "", "contacts", &list);
  if (st != ZENO_OK) return st;
  if (list->kind != YNODE_SEQUENCE) {
    char got[TEXT_LEN];
    describe(list, got, sizeof got);
    return fail_node(ld, list, ZENO_ERR_TYPE, "contacts",
                     "expected a sequence of 1 to %d contacts, got %s",
                     ZENO_MAX_CONTACTS, got);
  }
  if (list->count < 1 || list->count > ZENO_MAX_CONTACTS)
    return fail_node(ld, list, ZENO_ERR_RANGE, "contacts",
                     "%d contacts given; allowed 1 to %d", list->count,
                     ZENO_MAX_CONTACTS);
  for (int i = 0; i < list->count && st == ZENO_OK; i++) {
    char path[SCENE_PATH_LEN];
    path_index(path, "contacts", i);
    st = read_contact(ld, list->items[i], path, &s->contacts[i]);
  }
  s->contact_count = list->count;
  return st;
}

// load: {magnitude (required), angle (deg from -y, default 0), torque}.
static zeno_status read_load(const loader *ld, const ynode *root,
                             zeno_scene *s) {
  static const key_set keys = KEY_SET(LOAD_KEYS);
  const ynode *load = NULL;
  zeno_status st = require(ld, root, "", "load", &load);
  if (st == ZENO_OK) st = expect_mapping(ld, load, "load", &keys);
  s->load_angle = 0;
  s->load_torque = 0;
  if (st == ZENO_OK)
    st = read_number_fields(ld, load, "load", LOAD_FIELDS,
                            COUNT_OF(LOAD_FIELDS), s);
  const ynode *angle = map_get(load, "angle");
  if (st == ZENO_OK && angle)
    st = read_degrees(ld, angle, "load.angle", &s->load_angle);
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
      c->surface_point[k] = c->surface_point_set
                                ? c->surface_point[k] - s->com_shift[k]
                                : c->point[k];
    }
  }
}

// body.mass/rho, contacts and load written out explicitly.
static zeno_status read_general_form(const loader *ld, const ynode *root,
                                     zeno_scene *s) {
  const ynode *body = NULL;
  s->has_paper = false;
  memset(&s->paper, 0, sizeof s->paper);
  zeno_status st = require(ld, root, "", "body", &body);
  if (st == ZENO_OK)
    st = read_number_fields(ld, body, "body", BODY_FIELDS,
                            COUNT_OF(BODY_FIELDS), s);
  if (st == ZENO_OK) st = read_contacts(ld, root, s);
  if (st == ZENO_OK) st = read_load(ld, root, s);
  if (st == ZENO_OK) shift_contacts(s);
  return st;
}

// Any of these keys selects the general form (and makes the rest of it
// required); with none of them and no paper the default body stays.
static bool uses_general_form(const ynode *root) {
  const ynode *body = map_get(root, "body");
  return map_get(root, "contacts") || map_get(root, "load") ||
         map_get(body, "mass") || map_get(body, "rho");
}

static zeno_status read_form(const loader *ld, const ynode *root,
                             zeno_scene *s) {
  const yentry *paper = map_find(root, "paper");
  if (paper != NULL) return read_paper_form(ld, root, paper, s);
  if (uses_general_form(root)) return read_general_form(ld, root, s);
  // The default (Example 2) body, expanded again around a moved centre of mass.
  zeno_paper_params p = s->paper;
  zeno_scene_apply_paper(s, &p);
  return ZENO_OK;
}

// A polygon of 3..ZENO_MAX_OUTLINE [x, y] vertices in the scene frame.
static zeno_status read_polygon(const loader *ld, const ynode *n,
                                zeno_scene *s) {
  if (n->count < POLYGON_MIN_VERTICES || n->count > ZENO_MAX_OUTLINE)
    return fail_node(ld, n, ZENO_ERR_RANGE, "body.outline",
                     "a polygon outline needs %d to %d vertices, got %d",
                     POLYGON_MIN_VERTICES, ZENO_MAX_OUTLINE, n->count);
  for (int i = 0; i < n->count; i++) {
    char param[SCENE_PATH_LEN];
    path_index(param, "body.outline", i);
    zeno_status st =
        read_vector(ld, n->items[i], param, POINT_DIM, s->outline[i]);
    if (st != ZENO_OK) return st;
    for (int k = 0; k < POINT_DIM; k++) s->outline[i][k] -= s->com_shift[k];
  }
  s->outline_kind = ZENO_OUTLINE_POLYGON;
  s->outline_count = n->count;
  return ZENO_OK;
}

// body.outline: a named shape or a polygon.
static zeno_status read_outline(const loader *ld, const ynode *n,
                                zeno_scene *s) {
  if (n->kind == YNODE_SEQUENCE) return read_polygon(ld, n, s);
  for (int i = 0; n->kind == YNODE_SCALAR && i < COUNT_OF(OUTLINE_NAMES); i++) {
    if (strcmp(n->text, OUTLINE_NAMES[i]) == 0) {
      s->outline_kind = OUTLINE_KINDS[i];
      s->outline_count = 0;
      return ZENO_OK;
    }
  }
  char got[TEXT_LEN];
  describe(n, got, sizeof got);
  return fail_node(ld, n, ZENO_ERR_TYPE, "body.outline",
                   "expected biped, disk or a sequence of [x, y] vertices, "
                   "got %s",
                   got);
}

// The drawing keys of body (both forms).
static zeno_status read_body_shape(const loader *ld, const ynode *body,
                                   zeno_scene *s) {
  const ynode *outline = map_get(body, "outline");
  const ynode *radius = map_get(body, "outline_radius");
  zeno_status st = outline ? read_outline(ld, outline, s) : ZENO_OK;
  if (st == ZENO_OK && radius)
    st = read_number(ld, radius, "body.outline_radius", &s->outline_radius);
  return st;
}

static zeno_status read_impact(const loader *ld, const ynode *impact,
                               zeno_scene *s) {
  static const key_set keys = KEY_SET(IMPACT_KEYS);
  int law = (int)s->impact_law;
  zeno_status st = expect_mapping(ld, impact, "impact", &keys);
  if (st == ZENO_OK)
    st = read_enum_key(ld, impact, "impact", "law", LAW_NAMES,
                       COUNT_OF(LAW_NAMES), &law);
  if (st == ZENO_OK)
    st = read_number_fields(ld, impact, "impact", IMPACT_FIELDS,
                            COUNT_OF(IMPACT_FIELDS), s);
  s->impact_law = (zeno_impact_law)law;
  return st;
}

// Which initial form a key belongs to: qp/qdp (ZOD) or pose/velocity.
static zeno_initial_kind initial_form_of(const char *key) {
  return strcmp(key, "qp") == 0 || strcmp(key, "qdp") == 0 ? ZENO_INITIAL_ZOD
                                                           : ZENO_INITIAL_POSE;
}

// The form used by `initial`, rejecting a mapping that mixes both.
// *given is false for an empty mapping (the default initial state stays).
static zeno_status initial_form(const loader *ld, const ynode *n,
                                zeno_initial_kind *kind, bool *given) {
  *given = false;
  const ynode *first = NULL;
  for (int i = 0; n->kind == YNODE_MAPPING && i < n->count; i++) {
    const ynode *key = n->entries[i].key;
    zeno_initial_kind k = initial_form_of(key->text);
    if (first != NULL && k != *kind) {
      char given_at[TEXT_LEN], param[SCENE_PATH_LEN];
      describe_position(first, given_at, sizeof given_at);
      path_join(param, "initial", key->text);
      return fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, param,
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
static zeno_status read_initial(const loader *ld, const ynode *n,
                                zeno_scene *s) {
  static const key_set keys = KEY_SET(INITIAL_KEYS);
  zeno_initial_kind kind = ZENO_INITIAL_ZOD;
  bool given = false;
  zeno_status st = expect_mapping(ld, n, "initial", &keys);
  if (st == ZENO_OK) st = initial_form(ld, n, &kind, &given);
  if (st != ZENO_OK || !given) return st;
  const bool zod = kind == ZENO_INITIAL_ZOD;
  const char *position = zod ? "qp" : "pose", *rate = zod ? "qdp" : "velocity";
  double *q = zod ? s->initial_qp : s->initial_pose;
  double *qd = zod ? s->initial_qdp : s->initial_velocity;
  const ynode *qn = map_get(n, position), *qdn = map_get(n, rate);
  char param[SCENE_PATH_LEN];
  memset(q, 0, STATE_DIM * sizeof *q);
  memset(qd, 0, STATE_DIM * sizeof *qd);
  s->initial_kind = kind;
  path_join(param, "initial", position);
  if (qn) st = read_vector(ld, qn, param, STATE_DIM, q);
  path_join(param, "initial", rate);
  if (st == ZENO_OK && qdn) st = read_vector(ld, qdn, param, STATE_DIM, qd);
  return st;
}

static zeno_status read_stop(const loader *ld, const ynode *stop,
                             zeno_scene *s) {
  static const key_set keys = KEY_SET(STOP_KEYS);
  const ynode *max_events = map_get(stop, "max_events");
  zeno_status st = expect_mapping(ld, stop, "stop", &keys);
  if (st == ZENO_OK)
    st = read_number_fields(ld, stop, "stop", STOP_FIELDS,
                            COUNT_OF(STOP_FIELDS), s);
  if (st == ZENO_OK && max_events)
    st = read_integer(ld, max_events, "stop.max_events", &s->max_events);
  return st;
}

static zeno_status read_solver(const loader *ld, const ynode *solver,
                               zeno_scene *s) {
  static const key_set keys = KEY_SET(SOLVER_KEYS);
  zeno_status st = expect_mapping(ld, solver, "solver", &keys);
  if (st == ZENO_OK)
    st = read_number_fields(ld, solver, "solver", SOLVER_FIELDS,
                            COUNT_OF(SOLVER_FIELDS), s);
  return st;
}

typedef zeno_status (*section_reader)(const loader *, const ynode *,
                                      zeno_scene *);

// Runs `reader` on the top-level key when it is present.
static zeno_status read_section(const loader *ld, const ynode *root,
                                const char *key, section_reader reader,
                                zeno_scene *s) {
  const ynode *n = map_get(root, key);
  return n ? reader(ld, n, s) : ZENO_OK;
}

// The tree (root may be NULL: empty document) into *s, which holds the
// defaults on entry. com comes before the body forms, which use it.
static zeno_status convert(const loader *ld, const ynode *root, zeno_scene *s) {
  static const key_set top = KEY_SET(TOP_KEYS);
  static const key_set body_keys = KEY_SET(BODY_KEYS);
  const ynode *body = map_get(root, "body");
  zeno_status st = root ? expect_mapping(ld, root, "", &top) : ZENO_OK;
  if (st == ZENO_OK && body) st = expect_mapping(ld, body, "body", &body_keys);
  if (st == ZENO_OK) st = read_header(ld, root, s);
  if (st == ZENO_OK) st = read_com(ld, root, s);
  if (st == ZENO_OK) st = read_form(ld, root, s);
  if (st == ZENO_OK) st = read_body_shape(ld, body, s);
  if (st == ZENO_OK) st = read_section(ld, root, "impact", read_impact, s);
  if (st == ZENO_OK) st = read_section(ld, root, "initial", read_initial, s);
  if (st == ZENO_OK) st = read_section(ld, root, "stop", read_stop, s);
  if (st == ZENO_OK) st = read_section(ld, root, "solver", read_solver, s);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Validation, located                                                       */
/* ------------------------------------------------------------------------ */

// zeno_scene_validate() names a dotted parameter; point the error at the
// node that set it (or at the override that did), keeping the message.
static void locate_error(const loader *ld, const ynode *root) {
  zeno_error *e = ld->error;
  const ynode *n = e->parameter[0] ? tree_lookup(root, e->parameter) : NULL;
  if (n == NULL) return;
  if (n->origin == NULL) {
    text_format(e->file, sizeof e->file, "%s", ld->file);
    e->line = n->line;
    e->column = n->column;
    return;
  }
  char message[sizeof e->message];
  text_format(message, sizeof message, "%s", e->message);
  text_format(e->file, sizeof e->file, "%s", OVERRIDE_FILE);
  e->line = 0;
  e->column = 0;
  text_format(e->message, sizeof e->message, OVERRIDE_FILE " %s: %s", n->origin,
              message);
}

static zeno_status validate_located(const loader *ld, const ynode *root,
                                    const zeno_scene *s) {
  zeno_status st = zeno_scene_validate(s, ld->error);
  if (st != ZENO_OK) locate_error(ld, root);
  return st;
}

/* ------------------------------------------------------------------------ */
/* Entry points                                                              */
/* ------------------------------------------------------------------------ */

/// Numbers in scene files use '.' whatever locale the caller set, so the
/// load runs in the C locale on this thread only (uselocale is per thread).
typedef struct locale_scope {
  locale_t c_locale;
  locale_t previous;
} locale_scope;

static void locale_enter(locale_scope *scope) {
  scope->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  scope->previous = scope->c_locale ? uselocale(scope->c_locale) : (locale_t)0;
}

static void locale_leave(locale_scope *scope) {
  if (scope->c_locale == (locale_t)0) return;
  uselocale(scope->previous);
  freelocale(scope->c_locale);
}

// Default scene name: the file's base name without a .yaml/.yml extension.
static void name_from_file(const char *file, char *out, size_t size) {
  const char *base = strrchr(file, '/');
  base = base ? base + 1 : file;
  size_t length = strlen(base);
  const char *dot = strrchr(base, '.');
  if (dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0))
    length = (size_t)(dot - base);
  if (length > 0) text_format(out, size, "%.*s", (int)length, base);
}

// The scene file's tree with the overrides applied, in order.
static zeno_status build_tree(const loader *ld, const char *text, size_t length,
                              const char *const *overrides, int override_count,
                              ynode **root) {
  zeno_status st = parse_text(ld, text, length, NULL, root);
  if (st == ZENO_OK && node_is_null(*root)) {
    node_free(*root);
    *root = NULL;
  }
  if (st == ZENO_OK && *root && (*root)->kind != YNODE_MAPPING) {
    char got[TEXT_LEN];
    describe(*root, got, sizeof got);
    st = fail_node(ld, *root, ZENO_ERR_TYPE, "",
                   "a scene must be a mapping of keys, got %s", got);
  }
  for (int i = 0; st == ZENO_OK && i < override_count; i++)
    st = override_apply(ld, root, overrides[i]);
  return st;
}

static zeno_status check_arguments(const loader *ld, const void *input,
                                   const char *const *overrides,
                                   int override_count,
                                   const zeno_scene *scene) {
  bool ok = input && scene && override_count >= 0 &&
            (override_count == 0 || overrides);
  for (int i = 0; ok && i < override_count; i++) ok = overrides[i] != NULL;
  if (ok) return ZENO_OK;
  return zeno_fail(ld->error, ZENO_ERR_ARGUMENT, "",
                   "scene loading needs a file name or text, a scene, "
                   "non-NULL overrides and an override count >= 0");
}

// Shared by both entry points; *scene is written only on success.
// `name_source` (a file name, or NULL to keep the default) names the scene
// when it has no `name` key.
static zeno_status load_text(const loader *ld, const char *text, size_t length,
                             const char *name_source,
                             const char *const *overrides, int override_count,
                             zeno_scene *scene) {
  locale_scope scope;
  locale_enter(&scope);
  zeno_scene s = zeno_scene_default();
  if (name_source) name_from_file(name_source, s.name, sizeof s.name);
  ynode *root = NULL;
  zeno_status st =
      build_tree(ld, text, length, overrides, override_count, &root);
  if (st == ZENO_OK) st = convert(ld, root, &s);
  if (st == ZENO_OK) st = validate_located(ld, root, &s);
  node_free(root);
  locale_leave(&scope);
  if (st == ZENO_OK) *scene = s;
  return st;
}

static zeno_status io_error(const loader *ld, const char *what, int err) {
  char reason[ERRNO_TEXT_LEN];
  if (strerror_r(err, reason, sizeof reason) != 0) reason[0] = '\0';
  return zeno_fail_at(ld->error, ZENO_ERR_IO, ld->file, 0, 0, "",
                      "cannot %s '%s': %s", what, ld->file, reason);
}

// Reads `f` to its end in chunks (so pipes work too). *buffer is
// NUL-terminated; the caller frees it whatever the result.
static zeno_status read_stream(const loader *ld, FILE *f, char **buffer,
                               size_t *length) {
  size_t got = 0;
  *length = 0;
  do {
    char *grown = realloc(*buffer, *length + READ_CHUNK + 1);
    if (grown == NULL) return out_of_memory(ld);
    *buffer = grown;
    got = fread(*buffer + *length, 1, READ_CHUNK, f);
    *length += got;
  } while (got == READ_CHUNK);
  if (ferror(f)) return io_error(ld, "read", errno);
  (*buffer)[*length] = '\0';
  return ZENO_OK;
}

// Reads the whole scene file; *text is owned by the caller.
static zeno_status read_file(const loader *ld, char **text, size_t *length) {
  FILE *f = fopen(ld->file, "rb");
  if (f == NULL) return io_error(ld, "open", errno);
  zeno_status st = read_stream(ld, f, text, length);
  fclose(f);
  return st;
}

zeno_status zeno_scene_load(const char *path, const char *const *overrides,
                            int override_count, zeno_scene *scene,
                            zeno_error *error) {
  zeno_error local;
  loader ld = {.file = path ? path : "", .error = error ? error : &local};
  zeno_error_clear(ld.error);
  zeno_status st = check_arguments(&ld, path, overrides, override_count, scene);
  char *text = NULL;
  size_t length = 0;
  if (st == ZENO_OK) st = read_file(&ld, &text, &length);
  if (st == ZENO_OK)
    st = load_text(&ld, text, length, path, overrides, override_count, scene);
  free(text);
  return st;
}

zeno_status zeno_scene_load_string(const char *text, const char *name,
                                   const char *const *overrides,
                                   int override_count, zeno_scene *scene,
                                   zeno_error *error) {
  zeno_error local;
  loader ld = {.file = name && *name ? name : STRING_FILE,
               .error = error ? error : &local};
  zeno_error_clear(ld.error);
  zeno_status st = check_arguments(&ld, text, overrides, override_count, scene);
  if (st != ZENO_OK) return st;
  return load_text(&ld, text, strlen(text), name && *name ? name : NULL,
                   overrides, override_count, scene);
}
