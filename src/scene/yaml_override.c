// `--set dotted.path=VALUE` overrides (yt_override_apply in yaml_tree.h):
// the value is parsed as YAML and put into the document tree before the
// schema conversion, creating the mappings on its path.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/yaml_tree.h"

// The slot under `container` named by `segment`, appending an empty slot
// for a new mapping key or for the index just past a sequence's end (so
// `contacts.1=...` can add a second contact).
static zeno_status child_slot(const yt_loader *ld, ynode *container, const char *segment,
                              const char *parent, const char *origin, ynode ***slot) {
  if (container->kind == YNODE_MAPPING) {
    yentry *e = yt_map_find(container, segment);
    if (e != NULL) {
      *slot = &e->value;
      return ZENO_OK;
    }
    ynode *key = yt_scalar_new(segment, strlen(segment), 0, 0, origin);
    if (key == NULL || !yt_map_append(container, key, NULL)) {
      yt_free(key);
      return yt_out_of_memory(ld);
    }
    *slot = &container->entries[container->count - 1].value;
    return ZENO_OK;
  }
  int index;
  if (!yt_parse_index(segment, &index))
    return yt_fail_mark(ld, origin, 0, 0, ZENO_ERR_TYPE, "",
                        "'%s' is a sequence; expected an index, got '%s'", parent, segment);
  if (index > container->count)
    return yt_fail_mark(ld, origin, 0, 0, ZENO_ERR_RANGE, "",
                        "index %d is out of range; '%s' has %d item%s", index, parent,
                        container->count, container->count == 1 ? "" : "s");
  if (index == container->count && !yt_seq_append(container, NULL)) return yt_out_of_memory(ld);
  *slot = &container->items[index];
  return ZENO_OK;
}

// Makes *slot a mapping or sequence to descend into: a missing or null
// node becomes an empty mapping; any other scalar cannot hold keys.
static zeno_status ensure_container(const yt_loader *ld, ynode **slot, const char *segment,
                                    const char *origin) {
  if (*slot != NULL && (*slot)->kind != YNODE_SCALAR) return ZENO_OK;
  if (*slot != NULL && !yt_is_null(*slot))
    return yt_fail_mark(ld, origin, 0, 0, ZENO_ERR_TYPE, "",
                        "'%s' holds the value '%s', not a mapping", segment, (*slot)->text);
  ynode *map = yt_node_new(YNODE_MAPPING, 0, 0, origin);
  if (map == NULL) return yt_out_of_memory(ld);
  yt_free(*slot);
  *slot = map;
  return ZENO_OK;
}

// Puts `value` at the dotted `path` (modified in place); owns `value`.
static zeno_status tree_set(const yt_loader *ld, ynode **root, char *path, ynode *value,
                            const char *origin) {
  ynode **slot = root;
  const char *parent = "the top level";
  for (char *segment = path;;) {
    char *dot = strchr(segment, '.');
    if (dot) *dot = '\0';
    zeno_status st = child_slot(ld, *slot, segment, parent, origin, &slot);
    if (st == ZENO_OK && dot) st = ensure_container(ld, slot, segment, origin);
    if (st != ZENO_OK) {
      yt_free(value);
      return st;
    }
    if (!dot) break;
    parent = segment;
    segment = dot + 1;
  }
  yt_free(*slot);
  *slot = value;
  return ZENO_OK;
}

// Copies the path part of "path=VALUE" without surrounding blanks and
// checks that it has no empty segment. `text` is the whole override.
static zeno_status override_path(const yt_loader *ld, const char *text, const char *equals,
                                 char *path) {
  const char *start;
  size_t length = yt_override_path_span(text, equals, &start);
  if (length == 0)
    return yt_fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "", "empty path before '='");
  if (length >= YT_PATH_LEN)
    return yt_fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "", "path longer than %d characters",
                        YT_PATH_LEN - 1);
  memcpy(path, start, length);
  path[length] = '\0';
  // Each of a list of paths joined by '+'.
  for (const char *p = path;;) {
    const char *plus = strchr(p, '+');
    const size_t n = plus ? (size_t)(plus - p) : strlen(p);
    bool empty = n == 0 || p[0] == '.' || p[n - 1] == '.';
    for (size_t k = 0; k + 1 < n && !empty; k++) empty = p[k] == '.' && p[k + 1] == '.';
    if (empty)
      return yt_fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, path, "empty segment in path '%s'",
                          path);
    if (!plus) break;
    p = plus + 1;
  }
  return ZENO_OK;
}

// Applies one "dotted.path=VALUE"; VALUE is YAML (flow syntax allowed).
zeno_status yt_override_apply(const yt_loader *ld, ynode **root, const char *text) {
  const char *equals = strchr(text, '=');
  if (equals == NULL)
    return yt_fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, "",
                        "expected dotted.path=VALUE (e.g. paper.alpha=45)");
  char path[YT_PATH_LEN];
  zeno_status st = override_path(ld, text, equals, path);
  if (st != ZENO_OK) return st;
  // "a.b+c.d=VALUE" puts VALUE at each path (e.g. equal friction at both
  // contacts: paper.mu1+paper.mu2=0.4), in order.
  for (char *p = path; st == ZENO_OK;) {
    char *plus = strchr(p, '+');
    if (plus) *plus = '\0';
    ynode *value = NULL;
    st = yt_parse(ld, equals + 1, strlen(equals + 1), text, &value);
    if (st != ZENO_OK) return st;
    if (value == NULL)
      return yt_fail_mark(ld, text, 0, 0, ZENO_ERR_SYNTAX, p, "missing value after '='");
    if (*root == NULL) *root = yt_node_new(YNODE_MAPPING, 1, 1, NULL);
    if (*root == NULL) {
      yt_free(value);
      return yt_out_of_memory(ld);
    }
    st = tree_set(ld, root, p, value, text);
    if (!plus) break;
    p = plus + 1;
  }
  return st;
}

// A plain decimal number: [+-] digits [. digits] [(e|E) [+-] digits], with
// at least one digit before the exponent. YAML reads it as one plain
// scalar with this very text.
static bool plain_number(const char *t) {
  if (*t == '+' || *t == '-') t++;
  int digits = 0;
  while (*t >= '0' && *t <= '9') t++, digits++;
  if (*t == '.') {
    t++;
    while (*t >= '0' && *t <= '9') t++, digits++;
  }
  if (digits == 0) return false;
  if (*t == 'e' || *t == 'E') {
    t++;
    if (*t == '+' || *t == '-') t++;
    if (!(*t >= '0' && *t <= '9')) return false;
    while (*t >= '0' && *t <= '9') t++;
  }
  return *t == '\0';
}

// The existing scalar at a dotted path, walking as tree_set() does; NULL
// when a segment is missing or the node there is not a scalar.
static ynode *existing_scalar(ynode *root, const char *path, size_t length) {
  ynode *n = root;
  char segment[YT_PATH_LEN];
  for (size_t at = 0; n != NULL && at <= length;) {
    const char *dot = memchr(path + at, '.', length - at);
    const size_t end = dot ? (size_t)(dot - path) : length, n_seg = end - at;
    memcpy(segment, path + at, n_seg);
    segment[n_seg] = '\0';
    if (n->kind == YNODE_MAPPING) {
      const yentry *e = yt_map_find(n, segment);
      n = e ? e->value : NULL;
    } else if (n->kind == YNODE_SEQUENCE) {
      int index;
      n = yt_parse_index(segment, &index) && index < n->count ? n->items[index] : NULL;
    } else {
      return NULL;  // a scalar cannot hold the next segment
    }
    at = end + 1;
  }
  return n != NULL && n->kind == YNODE_SCALAR ? n : NULL;
}

int yt_override_scalars(ynode *root, const char *text, ynode **out, int max) {
  const char *equals = strchr(text, '=');
  if (root == NULL || equals == NULL || !plain_number(equals + 1)) return 0;
  const char *start;
  const size_t length = yt_override_path_span(text, equals, &start);
  if (length == 0 || length >= YT_PATH_LEN) return 0;
  int n = 0;
  for (size_t at = 0; at <= length;) {
    const char *plus = memchr(start + at, '+', length - at);
    const size_t end = plus ? (size_t)(plus - start) : length;
    if (n == max || end == at) return 0;
    ynode *node = existing_scalar(root, start + at, end - at);
    if (node == NULL) return 0;
    out[n++] = node;
    at = end + 1;
  }
  return n;
}
