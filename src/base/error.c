// Status names and the caller-owned error record (zeno/error.h): one-line
// formatting of an error with its file position or parameter, clearing,
// and the "did you mean" suggestion of a misspelt name.
#include "zeno/error.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

const char *zeno_status_name(zeno_status s) {
  switch (s) {
    case ZENO_OK: return "ok";
    case ZENO_DONE: return "done";
    case ZENO_ERR_IO: return "io";
    case ZENO_ERR_SYNTAX: return "syntax";
    case ZENO_ERR_UNKNOWN_KEY: return "unknown-key";
    case ZENO_ERR_MISSING: return "missing";
    case ZENO_ERR_TYPE: return "type";
    case ZENO_ERR_RANGE: return "range";
    case ZENO_ERR_GEOMETRY: return "geometry";
    case ZENO_ERR_ARGUMENT: return "argument";
    case ZENO_ERR_NOMEM: return "nomem";
    case ZENO_ERR_SINGULAR: return "singular";
    case ZENO_ERR_UNSUPPORTED: return "unsupported";
    case ZENO_ERR_INTERRUPTED: return "interrupted";
  }
  return "unknown";
}

// An override error's message already starts with "--set <override>: " and
// names the parameter; file and parameter in front would repeat both.
static bool is_override_error(const zeno_error *e) {
  return e->line == 0 && strcmp(e->file, ZENO_OVERRIDE_FILE) == 0;
}

// snprintf's count as a size (an output error counts as nothing written).
static size_t written(int n) { return n < 0 ? 0 : (size_t)n; }

size_t zeno_error_format(const zeno_error *e, char *buf, size_t n) {
  if (e == NULL) return written(snprintf(buf, n, "no error"));
  if (is_override_error(e)) return written(snprintf(buf, n, "%s", e->message));
  if (e->file[0] && e->line > 0)
    return written(snprintf(buf, n, "%s:%d:%d: %s%s%s", e->file, e->line, e->column,
                            e->parameter[0] ? e->parameter : "", e->parameter[0] ? ": " : "",
                            e->message));
  if (e->file[0])
    return written(snprintf(buf, n, "%s: %s%s%s", e->file, e->parameter[0] ? e->parameter : "",
                            e->parameter[0] ? ": " : "", e->message));
  if (e->parameter[0]) return written(snprintf(buf, n, "%s: %s", e->parameter, e->message));
  return written(snprintf(buf, n, "%s", e->message));
}

void zeno_error_clear(zeno_error *e) {
  if (e) memset(e, 0, sizeof *e);
}

/// Longest word or name compared for suggestions (longer ones get none).
#define SUGGEST_MAX_LEN 64

// Edit distance with swaps of neighbours (optimal string alignment).
static size_t edit_distance(const char *a, size_t n, const char *b, size_t m) {
  size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
  for (size_t i = 0; i <= n; i++) d[i][0] = i;
  for (size_t j = 0; j <= m; j++) d[0][j] = j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t v = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
      if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
        v = d[i - 2][j - 2] + 1;
      d[i][j] = v;
    }
  return d[n][m];
}

const char *zeno_closest_name(const char *word, const char *const *names, size_t count) {
  if (word == NULL || names == NULL) return NULL;
  const size_t n = strlen(word);
  if (n == 0 || n > SUGGEST_MAX_LEN) return NULL;
  size_t limit = (n + 2) / 3;
  if (limit > ZENO_SUGGEST_MAX_EDITS) limit = ZENO_SUGGEST_MAX_EDITS;
  const char *best = NULL;
  size_t best_d = limit + 1;
  bool tie = false;
  for (size_t k = 0; k < count; k++) {
    if (names[k] == NULL) continue;
    const size_t m = strlen(names[k]);
    if (m > SUGGEST_MAX_LEN) continue;
    const size_t dist = edit_distance(word, n, names[k], m);
    if (dist == 0) return NULL;
    if (dist < best_d) {
      best = names[k];
      best_d = dist;
      tie = false;
    } else if (dist == best_d && best != NULL && strcmp(best, names[k]) != 0) {
      tie = true;
    }
  }
  return tie ? NULL : best;
}
