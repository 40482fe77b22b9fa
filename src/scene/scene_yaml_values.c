// Typed values from YAML tree nodes for the scene loader: numbers, angles,
// integers, vectors, enums, text, and mappings restricted to a key set, each
// failing with a message that names the dotted parameter and what was found
// instead (see scene_yaml_internal.h).
#include "scene/scene_yaml_internal.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Longest piece of a scalar quoted back in an error message.
#define QUOTE_MAX 40

/* ------------------------------------------------------------------------ */
/* Descriptions and dotted paths                                             */
/* ------------------------------------------------------------------------ */

void sy_describe(const ynode *n, char *out, size_t size) {
  // Every form is short (the scalar is quoted to QUOTE_MAX characters), so
  // callers' SY_TEXT_LEN buffers always hold it.
  if (n->kind == YNODE_MAPPING) snprintf(out, size, "a mapping");
  else if (n->kind == YNODE_SEQUENCE)
    snprintf(out, size, "a sequence of %d item%s", n->count, n->count == 1 ? "" : "s");
  else
    snprintf(out, size, "'%.*s%s'", QUOTE_MAX, n->text, strlen(n->text) > QUOTE_MAX ? "..." : "");
}

void sy_describe_position(const ynode *n, char *out, size_t size) {
  // An override can be any length: a long one is cut, visibly.
  int written = n->origin != NULL
                    ? snprintf(out, size, "given by " ZENO_OVERRIDE_FILE " %s", n->origin)
                    : snprintf(out, size, "given at %d:%d", n->line, n->column);
  yt_text_fits(out, size, written);
}

// Appends text to out[0..*len) within YT_PATH_LEN - 1 bytes; *len counts
// what did not fit too (as snprintf's return does).
static void path_append(char *out, size_t *len, const char *text) {
  const size_t n = strlen(text);
  if (*len < YT_PATH_LEN - 1) {
    const size_t room = YT_PATH_LEN - 1 - *len, copy = n < room ? n : room;
    memcpy(out + *len, text, copy);
    out[*len + copy] = '\0';
  }
  *len += n;
}

void sy_path_join(char *out, const char *parent, const char *key) {
  // Keys come from the scene file and can be any length; a path cut to
  // YT_PATH_LEN only ever names the parameter of an error. Every value read
  // names its path, errors or not: snprintf("%s%s%s") was a fifth of a
  // scene's conversion, so the parts are copied (the same text).
  size_t len = 0;
  out[0] = '\0';
  path_append(out, &len, parent);
  if (*parent) path_append(out, &len, ".");
  path_append(out, &len, key);
  yt_text_fits(out, YT_PATH_LEN, len > INT_MAX ? INT_MAX : (int)len);
}

void sy_path_index(char *out, const char *parent, int index) {
  char key[YT_PATH_LEN];
  if (index >= 0 && index < 10) {  // the vectors' items: no printf
    key[0] = (char)('0' + index);
    key[1] = '\0';
  } else {
    snprintf(key, sizeof key, "%d", index);
  }
  sy_path_join(out, parent, key);
}

// "at top level", or "in contacts[1].surface" for "contacts.1.surface":
// how messages name a mapping.
static void path_where(char *out, size_t size, const char *dotted) {
  if (*dotted == '\0') {
    snprintf(out, size, "at top level");
    return;
  }
  static const char PREFIX[] = "in ";
  char path[YT_PATH_LEN];
  snprintf(path, sizeof path, "%s", dotted);
  size_t used = (size_t)snprintf(out, size, "%s", PREFIX);
  int index;
  char *rest = NULL;
  // The loop stops once the buffer is full, so `size - used` never wraps.
  for (char *seg = strtok_r(path, ".", &rest); seg && used < size;
       seg = strtok_r(NULL, ".", &rest)) {
    bool first = used == sizeof PREFIX - 1;
    used += (size_t)(yt_parse_index(seg, &index)
                         ? snprintf(out + used, size - used, "[%d]", index)
                         : snprintf(out + used, size - used, "%s%s", first ? "" : ".", seg));
  }
}

/* ------------------------------------------------------------------------ */
/* Conversion primitives                                                     */
/* ------------------------------------------------------------------------ */

static bool key_allowed(const key_set *allowed, const char *key) {
  for (int i = 0; i < allowed->count; i++)
    if (strcmp(allowed->keys[i], key) == 0) return true;
  return false;
}

// "a, b, c" for messages.
static void join_names(const char *const *names, int count, char *out, size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = 0; i < count && used < size; i++)
    used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", names[i]);
}

static zeno_status unknown_key(const yt_loader *ld, const ynode *key, const char *path,
                               const key_set *allowed) {
  char param[YT_PATH_LEN], where[YT_PATH_LEN], names[SY_TEXT_LEN];
  sy_path_join(param, path, key->text);
  path_where(where, sizeof where, path);
  join_names(allowed->keys, allowed->count, names, sizeof names);
  const char *hint = zeno_closest_name(key->text, allowed->keys, (size_t)allowed->count);
  if (hint != NULL)
    return yt_fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, param,
                        "unknown key '%s' %s; did you mean '%s'? (allowed: %s)", key->text, where,
                        hint, names);
  return yt_fail_node(ld, key, ZENO_ERR_UNKNOWN_KEY, param, "unknown key '%s' %s (allowed: %s)",
                      key->text, where, names);
}

// Accepts a mapping whose keys are all in `allowed`, or null (an empty
// mapping: `stop:` with nothing after it keeps the defaults).
zeno_status sy_expect_mapping(const yt_loader *ld, const ynode *n, const char *path,
                              const key_set *allowed) {
  if (yt_is_null(n)) return ZENO_OK;
  if (n->kind != YNODE_MAPPING) {
    char got[SY_TEXT_LEN];
    sy_describe(n, got, sizeof got);
    return yt_fail_node(ld, n, ZENO_ERR_TYPE, path, "expected a mapping, got %s", got);
  }
  for (int i = 0; i < n->count; i++)
    if (!key_allowed(allowed, n->entries[i].key->text))
      return unknown_key(ld, n->entries[i].key, path, allowed);
  return ZENO_OK;
}

// A required key: reported missing at the mark of the mapping that lacks it.
zeno_status sy_require(const yt_loader *ld, const ynode *map, const char *path, const char *key,
                       const ynode **out) {
  *out = yt_map_get(map, key);
  if (*out != NULL) return ZENO_OK;
  char param[YT_PATH_LEN], where[YT_PATH_LEN];
  sy_path_join(param, path, key);
  path_where(where, sizeof where, path);
  return yt_fail_node(ld, map, ZENO_ERR_MISSING, param, "missing key '%s' %s", key, where);
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

/// Significant digits of a decimal significand that a double holds
/// exactly (10^15 < 2^53).
#define FAST_DIGITS 15
/// Powers of ten a double holds exactly: 10^0 to 10^22.
#define FAST_POW10_MAX 22
/// An exponent beyond any a fast decimal can use: the digits' parse stops.
#define FAST_EXPONENT_CAP 1000

static const double POW10[FAST_POW10_MAX + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Digits of a decimal into its significand m (at most FAST_DIGITS
// significant ones); false past them. *count counts every digit read.
static bool fast_digits(const char **t, uint64_t *m, int *significant, int *count) {
  for (; **t >= '0' && **t <= '9'; (*t)++, (*count)++) {
    if (*m == 0 && **t == '0') continue;  // a leading zero
    if (++*significant > FAST_DIGITS) return false;
    *m = *m * 10 + (uint64_t)(**t - '0');
  }
  return true;
}

bool sy_fast_decimal(const char *t, double *out) {
  bool negative = false;
  if (*t == '+' || *t == '-') negative = *t++ == '-';
  uint64_t m = 0;
  int significant = 0, whole = 0, fraction = 0;
  if (!fast_digits(&t, &m, &significant, &whole)) return false;
  if (*t == '.') {
    t++;
    if (!fast_digits(&t, &m, &significant, &fraction)) return false;
  }
  if (whole + fraction == 0) return false;
  int e = 0;
  if (*t == 'e' || *t == 'E') {
    t++;
    bool below = false;
    if (*t == '+' || *t == '-') below = *t++ == '-';
    if (!(*t >= '0' && *t <= '9')) return false;
    for (; *t >= '0' && *t <= '9'; t++) {
      if (e > FAST_EXPONENT_CAP) return false;
      e = e * 10 + (*t - '0');
    }
    if (below) e = -e;
  }
  if (*t != '\0') return false;
  e -= fraction;
  // Clinger's fast path: m and 10^|e| are exact, so one correctly rounded
  // product or quotient is the correctly rounded decimal, strtod's double.
  double v = (double)m;
  if (m != 0 && e >= 0 && e <= FAST_POW10_MAX) v *= POW10[e];
  else if (m != 0 && e < 0 && e >= -FAST_POW10_MAX) v /= POW10[-e];
  else if (m != 0) return false;
  *out = negative ? -v : v;
  return true;
}

// A decimal number that strtod consumes entirely. The character check
// keeps out what strtod would also take: hex, "inf", "nan", blanks. Short
// decimals (every number of a shipped scene) take the exact fast path;
// strtod's multi-precision conversion was a fifth of a scene's conversion.
static bool parse_number_text(const char *text, double *out) {
  if (parse_special_number(text, out)) return true;
  if (sy_fast_decimal(text, out)) return true;
  if (text[0] == '\0' || strspn(text, "0123456789+-.eE") != strlen(text) ||
      strpbrk(text, "0123456789") == NULL)
    return false;
  char *end;
  double value = strtod(text, &end);
  if (*end != '\0') return false;
  *out = value;
  return true;
}

zeno_status sy_read_number(const yt_loader *ld, const ynode *n, const char *param, double *out) {
  if (n->kind == YNODE_SCALAR && parse_number_text(n->text, out)) return ZENO_OK;
  char got[SY_TEXT_LEN];
  sy_describe(n, got, sizeof got);
  return yt_fail_node(ld, n, ZENO_ERR_TYPE, param, "expected a number, got %s", got);
}

// An angle written in degrees, stored in radians.
zeno_status sy_read_degrees(const yt_loader *ld, const ynode *n, const char *param, double *out) {
  double degrees = 0;
  zeno_status st = sy_read_number(ld, n, param, &degrees);
  if (st == ZENO_OK) *out = degrees * ZENO_RADIANS_PER_DEGREE;
  return st;
}

// A decimal integer; no fractions or exponents, so a count stays a count.
zeno_status sy_read_integer(const yt_loader *ld, const ynode *n, const char *param, long *out) {
  const char *text = n->kind == YNODE_SCALAR ? n->text : "";
  const char *digits = (*text == '-' || *text == '+') ? text + 1 : text;
  if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits)) {
    char got[SY_TEXT_LEN];
    sy_describe(n, got, sizeof got);
    return yt_fail_node(ld, n, ZENO_ERR_TYPE, param, "expected an integer, got %s", got);
  }
  errno = 0;
  long value = strtol(text, NULL, 10);
  if (errno == ERANGE)
    return yt_fail_node(ld, n, ZENO_ERR_RANGE, param,
                        "integer %s does not fit; allowed at most %ld", text, (long)LONG_MAX);
  *out = value;
  return ZENO_OK;
}

// A sequence of exactly `dim` numbers, e.g. a point [x, y].
zeno_status sy_read_vector(const yt_loader *ld, const ynode *n, const char *param, int dim,
                           double *out) {
  if (n->kind != YNODE_SEQUENCE || n->count != dim) {
    char got[SY_TEXT_LEN];
    sy_describe(n, got, sizeof got);
    return yt_fail_node(ld, n, ZENO_ERR_TYPE, param, "expected a sequence of %d numbers, got %s",
                        dim, got);
  }
  for (int i = 0; i < dim; i++) {
    char item[YT_PATH_LEN];
    sy_path_index(item, param, i);
    zeno_status st = sy_read_number(ld, n->items[i], item, &out[i]);
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// One of `names`; *out is its index.
static zeno_status read_choice(const yt_loader *ld, const ynode *n, const char *param,
                               const char *const *names, int count, int *out) {
  for (int i = 0; n->kind == YNODE_SCALAR && i < count; i++) {
    if (strcmp(n->text, names[i]) == 0) {
      *out = i;
      return ZENO_OK;
    }
  }
  char got[SY_TEXT_LEN], list[SY_TEXT_LEN];
  sy_describe(n, got, sizeof got);
  join_names(names, count, list, sizeof list);
  return yt_fail_node(ld, n, ZENO_ERR_TYPE, param, "expected one of %s; got %s", list, got);
}

zeno_status sy_read_text(const yt_loader *ld, const ynode *n, const char *param, char *out,
                         size_t size) {
  if (n->kind != YNODE_SCALAR) {
    char got[SY_TEXT_LEN];
    sy_describe(n, got, sizeof got);
    return yt_fail_node(ld, n, ZENO_ERR_TYPE, param, "expected text, got %s", got);
  }
  size_t length = strlen(n->text);
  if (length >= size)
    return yt_fail_node(ld, n, ZENO_ERR_RANGE, param, "text of %zu characters; at most %zu allowed",
                        length, size - 1);
  memcpy(out, n->text, length + 1);
  return ZENO_OK;
}

// Reads the listed number keys of `map` into the struct at `base`; absent
// optional keys leave the stored value (the default) alone.
zeno_status sy_read_number_fields(const yt_loader *ld, const ynode *map, const char *path,
                                  const number_field *fields, int count, void *base) {
  for (int i = 0; i < count; i++) {
    const ynode *v = yt_map_get(map, fields[i].key);
    zeno_status st = ZENO_OK;
    if (v == NULL && fields[i].required) st = sy_require(ld, map, path, fields[i].key, &v);
    if (st != ZENO_OK) return st;
    if (v == NULL) continue;
    char param[YT_PATH_LEN];
    sy_path_join(param, path, fields[i].key);
    st = sy_read_number(ld, v, param, (double *)((char *)base + fields[i].offset));
    if (st != ZENO_OK) return st;
  }
  return ZENO_OK;
}

// Reads an enum-valued key when present.
zeno_status sy_read_enum_key(const yt_loader *ld, const ynode *map, const char *path,
                             const char *key, const scene_enum_names *names, int *out) {
  const ynode *v = yt_map_get(map, key);
  if (v == NULL) return ZENO_OK;
  char param[YT_PATH_LEN];
  sy_path_join(param, path, key);
  return read_choice(ld, v, param, names->names, names->count, out);
}
