// JSON primitives of the io layer's writers (io_json_put.h).
#include "io/io_json_put.h"

#include <math.h>
#include <string.h>

#include "io/io_number.h"

/// JSON requires \u escapes below this code point.
#define IO_JSON_FIRST_PLAIN 0x20
/// The replacement character written for bytes that are not UTF-8.
#define IO_JSON_REPLACEMENT "\\ufffd"

/* UTF-8 structure (RFC 3629). */
#define UTF8_ASCII_END 0x80u
#define UTF8_CONT_MASK 0xC0u
#define UTF8_CONT_TAG 0x80u
#define UTF8_CONT_BITS 6
#define UTF8_PAYLOAD_MASK 0x3Fu
#define UTF8_LEAD2_FIRST 0xC2u
#define UTF8_LEAD3_FIRST 0xE0u
#define UTF8_LEAD4_FIRST 0xF0u
#define UTF8_LEAD4_LAST 0xF4u
#define UTF8_MIN_3 0x800u
#define UTF8_MIN_4 0x10000u
#define UTF8_SURROGATE_FIRST 0xD800u
#define UTF8_SURROGATE_LAST 0xDFFFu
#define UTF8_MAX 0x10FFFFu
#define UTF8_LEAD2_PAYLOAD 0x1Fu
#define UTF8_LEAD3_PAYLOAD 0x0Fu
#define UTF8_LEAD4_PAYLOAD 0x07u

/* ---- JSON primitives ---------------------------------------------------- */

void json_put_number(FILE *f, double v) {
  if (isfinite(v)) io_put_number(f, v);
  else fputs("null", f);
}

void json_put_bool(FILE *f, bool v) { fputs(v ? "true" : "false", f); }

/// Length of the valid UTF-8 sequence starting at s, 0 when s does not start
/// one (bad lead byte, truncated, overlong, surrogate or beyond U+10FFFF).
static int utf8_sequence_length(const unsigned char *s) {
  const unsigned lead = s[0];
  int length;
  unsigned code;
  if (lead < UTF8_ASCII_END) return 1;
  if (lead >= UTF8_LEAD2_FIRST && lead < UTF8_LEAD3_FIRST) {
    length = 2;
    code = lead & UTF8_LEAD2_PAYLOAD;
  } else if (lead >= UTF8_LEAD3_FIRST && lead < UTF8_LEAD4_FIRST) {
    length = 3;
    code = lead & UTF8_LEAD3_PAYLOAD;
  } else if (lead >= UTF8_LEAD4_FIRST && lead <= UTF8_LEAD4_LAST) {
    length = 4;
    code = lead & UTF8_LEAD4_PAYLOAD;
  } else {
    return 0;
  }
  for (int i = 1; i < length; i++) {
    if ((s[i] & UTF8_CONT_MASK) != UTF8_CONT_TAG) return 0;
    code = (code << UTF8_CONT_BITS) | (s[i] & UTF8_PAYLOAD_MASK);
  }
  if (length == 3 &&
      (code < UTF8_MIN_3 || (code >= UTF8_SURROGATE_FIRST && code <= UTF8_SURROGATE_LAST)))
    return 0;
  if (length == 4 && (code < UTF8_MIN_4 || code > UTF8_MAX)) return 0;
  return length;
}

/// Writes one ASCII byte, escaped as JSON requires.
static void put_ascii_escaped(FILE *f, unsigned char c) {
  switch (c) {
    case '"': fputs("\\\"", f); return;
    case '\\': fputs("\\\\", f); return;
    case '\b': fputs("\\b", f); return;
    case '\f': fputs("\\f", f); return;
    case '\n': fputs("\\n", f); return;
    case '\r': fputs("\\r", f); return;
    case '\t': fputs("\\t", f); return;
    default: break;
  }
  if (c < IO_JSON_FIRST_PLAIN) fprintf(f, "\\u%04x", (unsigned)c);
  else fputc(c, f);
}

void json_put_string(FILE *f, const char *text) {
  if (text == NULL) {
    fputs("null", f);
    return;
  }
  const unsigned char *s = (const unsigned char *)text;
  fputc('"', f);
  while (*s) {
    const int length = utf8_sequence_length(s);
    if (length == 0) {
      fputs(IO_JSON_REPLACEMENT, f);
      s++;
    } else if (length == 1) {
      put_ascii_escaped(f, *s++);
    } else {
      fwrite(s, 1, (size_t)length, f);
      s += length;
    }
  }
  fputc('"', f);
}

void json_put_numbers(FILE *f, const double *v, size_t n) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    json_put_number(f, v[i]);
  }
  fputc(']', f);
}

void json_put_mode(FILE *f, zeno_mode mode, int contact_count) {
  char name[ZENO_MODE_NAME_SIZE];
  json_put_string(f, zeno_mode_name(mode, contact_count, name));
}

/// One contact letter as a one-character string ("S").
void json_put_letter(FILE *f, unsigned char letter) {
  const zeno_mode single = {{letter}};
  json_put_mode(f, single, 1);
}

void json_put_modes(FILE *f, const zeno_mode *modes, size_t n, int contact_count) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    json_put_mode(f, modes[i], contact_count);
  }
  fputc(']', f);
}

/// One (normal, tangential) pair per contact: [[n, t], [n, t]].
/// The same for `count` pairs, the caller bounding it by its array.
void json_put_pair_list(FILE *f, const double pairs[][2], int count) {
  fputc('[', f);
  for (int i = 0; i < count; i++) fputs(i ? ", " : "", f), json_put_numbers(f, pairs[i], 2);
  fputc(']', f);
}

void json_put_pairs(FILE *f, const double pairs[][2], int contact_count) {
  json_put_pair_list(f, pairs,
                     contact_count < ZENO_MAX_CONTACTS ? contact_count : ZENO_MAX_CONTACTS);
}

json_object json_object_begin(FILE *f) {
  json_object o = {f, 0};
  fputc('{', f);
  return o;
}

/// Starts a member: writes the separator and `"key": `. Keys are ASCII
/// identifiers chosen by this file, so they need no escaping.
void json_object_key(json_object *o, const char *key) {
  fprintf(o->f, "%s\"%s\": ", o->members++ ? ", " : "", key);
}

void json_object_end(json_object *o) { fputc('}', o->f); }

void json_member_number(json_object *o, const char *key, double v) {
  json_object_key(o, key);
  json_put_number(o->f, v);
}

void json_member_long(json_object *o, const char *key, long v) {
  json_object_key(o, key);
  fprintf(o->f, "%ld", v);
}

void json_member_string(json_object *o, const char *key, const char *v) {
  json_object_key(o, key);
  json_put_string(o->f, v);
}

void json_member_size(json_object *o, const char *key, size_t v) {
  json_object_key(o, key);
  fprintf(o->f, "%zu", v);
}

void json_member_bool(json_object *o, const char *key, bool v) {
  json_object_key(o, key);
  json_put_bool(o->f, v);
}

void json_member_numbers(json_object *o, const char *key, const double *v, size_t n) {
  json_object_key(o, key);
  json_put_numbers(o->f, v, n);
}

void json_member_mode(json_object *o, const char *key, zeno_mode mode, int contact_count) {
  json_object_key(o, key);
  json_put_mode(o->f, mode, contact_count);
}
