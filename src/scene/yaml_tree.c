// YAML text -> document tree (see yaml_tree.h): the nodes, lookup by
// dotted path, and parsing with libyaml's event API. Located error reports
// are yaml_report.c; `--set` overrides yaml_override.c.
#include "scene/yaml_tree.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/// Deepest nesting accepted. Scenes use four levels; the limit only keeps
/// hostile input from exhausting the stack of the recursive parser.
#define YAML_MAX_DEPTH 64
/// First allocation of a node's child array; it doubles from there.
#define NODE_INITIAL_CAPACITY 4
/// Mappings of at most this many keys are scanned; larger ones are hashed
/// (the scene schema's mappings have at most 14 keys).
#define MAP_SCAN_MAX 16
/// Largest sequence index accepted in an override path; scenes never get
/// near it and the bound keeps the index parse free of overflow.
#define MAX_INDEX 9999

/* ------------------------------------------------------------------------ */
/* Document tree                                                             */
/* ------------------------------------------------------------------------ */

ynode *yt_node_new(ynode_kind kind, int line, int column, const char *origin) {
  ynode *n = calloc(1, sizeof *n);
  if (n == NULL) return NULL;
  n->kind = kind;
  n->line = line;
  n->column = column;
  n->origin = origin;
  return n;
}

// Copies `length` bytes: libyaml scalars carry a length, not a terminator.
ynode *yt_scalar_new(const char *text, size_t length, int line, int column, const char *origin) {
  ynode *n = yt_node_new(YNODE_SCALAR, line, column, origin);
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

ynode *yt_clone(const ynode *n) {
  if (n == NULL) return NULL;
  ynode *c = n->kind == YNODE_SCALAR
                 ? yt_scalar_new(n->text, strlen(n->text), n->line, n->column, n->origin)
                 : yt_node_new(n->kind, n->line, n->column, n->origin);
  if (c == NULL) return NULL;
  c->plain = n->plain;
  bool ok = true;
  for (int i = 0; i < n->count && ok; i++) {
    if (n->kind == YNODE_SEQUENCE) {
      ynode *item = yt_clone(n->items[i]);
      ok = item && yt_seq_append(c, item);
      if (!ok) yt_free(item);
    } else {
      ynode *key = yt_clone(n->entries[i].key), *value = yt_clone(n->entries[i].value);
      ok = key && value && yt_map_append(c, key, value);
      if (!ok) {
        yt_free(key);
        yt_free(value);
      }
    }
  }
  if (ok) return c;
  yt_free(c);
  return NULL;
}

void yt_free(ynode *n) {
  if (n == NULL) return;
  for (int i = 0; i < n->count; i++) {
    if (n->kind == YNODE_SEQUENCE) {
      yt_free(n->items[i]);
    } else {
      yt_free(n->entries[i].key);
      yt_free(n->entries[i].value);
    }
  }
  free(n->items);
  free(n->entries);
  free(n->slots);
  free(n->text);
  free(n);
}

// FNV-1a of a key.
static size_t key_hash(const char *key) {
  uint64_t h = 14695981039346656037ull;
  for (const unsigned char *c = (const unsigned char *)key; *c; c++) {
    h ^= *c;
    h *= 1099511628211ull;
  }
  return (size_t)h;
}

// Puts entry i into the index (which has room).
static void slot_insert(ynode *map, int i) {
  const size_t mask = (size_t)map->slot_count - 1;
  size_t s = key_hash(map->entries[i].key->text) & mask;
  while (map->slots[s] != 0) s = (s + 1) & mask;
  map->slots[s] = i + 1;
}

// Keeps the index of a large mapping at most half full; false when out of
// memory.
static bool index_reserve(ynode *map) {
  if (map->count < MAP_SCAN_MAX || 2 * (map->count + 1) <= map->slot_count) return true;
  int slot_count = map->slot_count ? 2 * map->slot_count : 4 * MAP_SCAN_MAX;
  while (slot_count < 2 * (map->count + 1)) slot_count *= 2;
  int *slots = calloc((size_t)slot_count, sizeof *slots);
  if (slots == NULL) return false;
  free(map->slots);
  map->slots = slots;
  map->slot_count = slot_count;
  for (int i = 0; i < map->count; i++) slot_insert(map, i);
  return true;
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
bool yt_seq_append(ynode *seq, ynode *item) {
  if (!node_reserve(seq)) return false;
  seq->items[seq->count++] = item;
  return true;
}

// On failure the caller still owns `key` and `value`.
bool yt_map_append(ynode *map, ynode *key, ynode *value) {
  if (!node_reserve(map) || !index_reserve(map)) return false;
  map->entries[map->count].key = key;
  map->entries[map->count].value = value;
  if (map->slots) slot_insert(map, map->count);
  map->count++;
  return true;
}

// YAML's null: an unquoted empty, "~" or "null" scalar (`stop:` with nothing
// after it). Quoted text is never null.
bool yt_is_null(const ynode *n) {
  static const char *const NULL_SPELLINGS[] = {"", "~", "null", "Null", "NULL"};
  if (n == NULL || n->kind != YNODE_SCALAR || !n->plain) return false;
  for (int i = 0; i < COUNT_OF(NULL_SPELLINGS); i++)
    if (strcmp(n->text, NULL_SPELLINGS[i]) == 0) return true;
  return false;
}

// The entry of `key` in a mapping; NULL when absent or `map` is no mapping.
yentry *yt_map_find(const ynode *map, const char *key) {
  if (map == NULL || map->kind != YNODE_MAPPING) return NULL;
  if (map->slots == NULL) {
    for (int i = 0; i < map->count; i++)
      if (strcmp(map->entries[i].key->text, key) == 0) return &map->entries[i];
    return NULL;
  }
  const size_t mask = (size_t)map->slot_count - 1;
  for (size_t s = key_hash(key) & mask; map->slots[s] != 0; s = (s + 1) & mask) {
    yentry *e = &map->entries[map->slots[s] - 1];
    if (strcmp(e->key->text, key) == 0) return e;
  }
  return NULL;
}

const ynode *yt_map_get(const ynode *map, const char *key) {
  const yentry *e = yt_map_find(map, key);
  return e ? e->value : NULL;
}

// Parses a decimal sequence index ("0", "12"); false for anything else.
bool yt_parse_index(const char *text, int *out) {
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
    return yt_parse_index(segment, &index) && index < n->count ? n->items[index] : NULL;
  return yt_map_get(n, segment);
}

// Follows a dotted path ("contacts.1.mu") from the root; NULL if absent.
const ynode *yt_lookup(const ynode *root, const char *dotted) {
  char path[YT_PATH_LEN];
  if (snprintf(path, sizeof path, "%s", dotted) >= (int)sizeof path) return NULL;
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
/* Parsing: libyaml events -> tree                                           */
/* ------------------------------------------------------------------------ */

typedef struct parse_ctx {
  yaml_parser_t parser;
  const yt_loader *ld;
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
  if (p->error == YAML_MEMORY_ERROR) return yt_out_of_memory(pc->ld);
  yaml_mark_t mark = p->error == YAML_READER_ERROR ? offset_mark(pc, p->problem_offset)
                                                   : p->problem_mark;
  const char *problem = p->problem ? p->problem : "malformed YAML";
  if (p->context == NULL)
    return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX, "",
                        "%s", problem);
  return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX, "",
                      "%s (%s that started at %d:%d)", problem, p->context,
                      mark_line(p->context_mark), mark_column(p->context_mark));
}

// On success the caller owns *ev and must yaml_event_delete() it.
static zeno_status next_event(parse_ctx *pc, yaml_event_t *ev) {
  if (yaml_parser_parse(&pc->parser, ev)) return ZENO_OK;
  return parser_failure(pc);
}

static zeno_status parse_node(parse_ctx *pc, const yaml_event_t *ev, int depth, ynode **out);

static zeno_status parse_scalar(parse_ctx *pc, const yaml_event_t *ev, ynode **out) {
  ynode *n = yt_scalar_new((const char *)ev->data.scalar.value, ev->data.scalar.length,
                           mark_line(ev->start_mark), mark_column(ev->start_mark), pc->origin);
  if (n == NULL) return yt_out_of_memory(pc->ld);
  n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
  *out = n;
  return ZENO_OK;
}

// The events of a collection up to its end event, each handed to `child`
// (which owns what it makes of it; the event is deleted here).
typedef zeno_status (*child_parser)(parse_ctx *pc, ynode *parent, const yaml_event_t *ev,
                                    int depth);

static zeno_status parse_children(parse_ctx *pc, ynode *parent, int depth, yaml_event_type_t end,
                                  child_parser child) {
  for (;;) {
    yaml_event_t ev;
    zeno_status st = next_event(pc, &ev);
    if (st != ZENO_OK) return st;
    if (ev.type != end) st = child(pc, parent, &ev, depth);
    const bool done = ev.type == end;
    yaml_event_delete(&ev);
    if (st != ZENO_OK || done) return st;
  }
}

// One item of a sequence.
static zeno_status sequence_item(parse_ctx *pc, ynode *seq, const yaml_event_t *ev, int depth) {
  ynode *item = NULL;
  zeno_status st = parse_node(pc, ev, depth + 1, &item);
  if (st == ZENO_OK && !yt_seq_append(seq, item)) {
    yt_free(item);
    st = yt_out_of_memory(pc->ld);
  }
  return st;
}

// Keys must be scalars (the schema has no complex keys) and unique.
static zeno_status parse_key(parse_ctx *pc, const ynode *map, const yaml_event_t *ev, ynode **out) {
  if (ev->type != YAML_SCALAR_EVENT)
    return yt_fail_mark(pc->ld, pc->origin, mark_line(ev->start_mark), mark_column(ev->start_mark),
                        ZENO_ERR_TYPE, "", "mapping keys must be scalars");
  zeno_status st = parse_scalar(pc, ev, out);
  if (st != ZENO_OK) return st;
  const yentry *first = yt_map_find(map, (*out)->text);
  if (first == NULL) return ZENO_OK;
  st = yt_fail_node(pc->ld, *out, ZENO_ERR_SYNTAX, "", "duplicate key '%s' (first at %d:%d)",
                    (*out)->text, first->key->line, first->key->column);
  yt_free(*out);
  *out = NULL;
  return st;
}

// Reads the value that follows `key` and adds the pair; owns `key`.
static zeno_status parse_entry_value(parse_ctx *pc, ynode *map, ynode *key, int depth) {
  yaml_event_t ev;
  ynode *value = NULL;
  zeno_status st = next_event(pc, &ev);
  if (st == ZENO_OK) {
    st = parse_node(pc, &ev, depth + 1, &value);
    yaml_event_delete(&ev);
  }
  if (st == ZENO_OK && !yt_map_append(map, key, value)) st = yt_out_of_memory(pc->ld);
  if (st != ZENO_OK) {
    yt_free(key);
    yt_free(value);
  }
  return st;
}

// One key of a mapping and the value after it.
static zeno_status mapping_entry(parse_ctx *pc, ynode *map, const yaml_event_t *ev, int depth) {
  ynode *key = NULL;
  const zeno_status st = parse_key(pc, map, ev, &key);
  return st == ZENO_OK ? parse_entry_value(pc, map, key, depth) : st;
}

static zeno_status parse_container(parse_ctx *pc, ynode_kind kind, yaml_mark_t mark, int depth,
                                   ynode **out) {
  ynode *n = yt_node_new(kind, mark_line(mark), mark_column(mark), pc->origin);
  if (n == NULL) return yt_out_of_memory(pc->ld);
  zeno_status st = kind == YNODE_SEQUENCE
                       ? parse_children(pc, n, depth, YAML_SEQUENCE_END_EVENT, sequence_item)
                       : parse_children(pc, n, depth, YAML_MAPPING_END_EVENT, mapping_entry);
  if (st != ZENO_OK) {
    yt_free(n);
    return st;
  }
  *out = n;
  return ZENO_OK;
}

// Builds the node that starts with `ev` (already read; the caller deletes it).
static zeno_status parse_node(parse_ctx *pc, const yaml_event_t *ev, int depth, ynode **out) {
  yaml_mark_t mark = ev->start_mark;
  if (depth > YAML_MAX_DEPTH)
    return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX, "",
                        "nesting deeper than %d levels", YAML_MAX_DEPTH);
  switch (ev->type) {
    case YAML_SCALAR_EVENT: return parse_scalar(pc, ev, out);
    case YAML_SEQUENCE_START_EVENT: return parse_container(pc, YNODE_SEQUENCE, mark, depth, out);
    case YAML_MAPPING_START_EVENT: return parse_container(pc, YNODE_MAPPING, mark, depth, out);
    case YAML_ALIAS_EVENT:
      return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX,
                          "", "aliases (*%s) are not supported in scene files",
                          (const char *)ev->data.alias.anchor);
    default:
      return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX,
                          "", "unexpected YAML structure");
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
      return yt_fail_mark(pc->ld, pc->origin, mark_line(mark), mark_column(mark), ZENO_ERR_SYNTAX,
                          "", "a scene holds one YAML document; a second starts here");
    st = parse_document(pc, root);
    if (st != ZENO_OK) return st;
  }
}

// Parses YAML text into a tree; *root is NULL for an empty stream. Every
// node is stamped with `origin` (NULL for the scene file itself).
zeno_status yt_parse(const yt_loader *ld, const char *text, size_t length, const char *origin,
                     ynode **root) {
  parse_ctx pc = {.ld = ld, .origin = origin, .text = text, .length = length};
  *root = NULL;
  if (!yaml_parser_initialize(&pc.parser)) return yt_out_of_memory(ld);
  yaml_parser_set_input_string(&pc.parser, (const unsigned char *)text, length);
  zeno_status st = parse_stream(&pc, root);
  yaml_parser_delete(&pc.parser);
  if (st != ZENO_OK) {
    yt_free(*root);
    *root = NULL;
  }
  return st;
}
