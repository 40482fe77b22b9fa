// JSON primitives of the io layer's writers (io_json.c): numbers (null
// for a non-finite one), strings (UTF-8 checked, escaped), modes, contact
// pairs, and objects written member by member. Not public API.
#ifndef ZENO_IO_IO_JSON_PUT_H
#define ZENO_IO_IO_JSON_PUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "zeno/mode.h"

/// A JSON object being written: tracks whether a comma is due.
typedef struct json_object {
  FILE *f;
  int members;
} json_object;

void json_put_number(FILE *f, double v);

void json_put_bool(FILE *f, bool v);

void json_put_string(FILE *f, const char *text);

void json_put_numbers(FILE *f, const double *v, size_t n);

void json_put_mode(FILE *f, zeno_mode mode, int contact_count);

/// One contact letter as a one-character string ("S").
void json_put_letter(FILE *f, unsigned char letter);

void json_put_modes(FILE *f, const zeno_mode *modes, size_t n, int contact_count);

/// One (normal, tangential) pair per contact: [[n, t], [n, t]].
/// The same for `count` pairs, the caller bounding it by its array.
void json_put_pair_list(FILE *f, const double pairs[][2], int count);

void json_put_pairs(FILE *f, const double pairs[][2], int contact_count);

json_object json_object_begin(FILE *f);

/// Starts a member: writes the separator and `"key": `. Keys are ASCII
/// identifiers chosen by this file, so they need no escaping.
void json_object_key(json_object *o, const char *key);

void json_object_end(json_object *o);

void json_member_number(json_object *o, const char *key, double v);

void json_member_long(json_object *o, const char *key, long v);

void json_member_string(json_object *o, const char *key, const char *v);

void json_member_size(json_object *o, const char *key, size_t v);

void json_member_bool(json_object *o, const char *key, bool v);

void json_member_numbers(json_object *o, const char *key, const double *v, size_t n);

void json_member_mode(json_object *o, const char *key, zeno_mode mode, int contact_count);

#endif
