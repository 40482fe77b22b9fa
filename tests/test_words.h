// Mode words compared up to repeated periods: the tests that hold two runs
// against each other (ZOD and full model, a scene in other units) read the
// same story in words whose chatters were simulated a different number of
// periods, or cut at another phase by their completion or a limit.
#ifndef ZENO_TESTS_TEST_WORDS_H
#define ZENO_TESTS_TEST_WORDS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "zeno/sim.h"

/// Longest chatter period (in tokens) folded when comparing words.
#define TEST_MAX_FOLD 16

/// A word as its tokens ("FF", "IF", "Z", ...), malloc'd.
typedef struct test_tokens {
  int count;
  char (*tok)[3];
} test_tokens;

/// The tokens of a space-separated mode word; without "FF" (the flights
/// between impacts) when drop_ff. Free with test_tokens_free().
static inline test_tokens test_split_word(const char *word, bool drop_ff) {
  test_tokens t = {0, malloc((strlen(word) / 2 + 2) * sizeof *t.tok)};
  assert_non_null(t.tok);
  for (const char *p = word; *p;) {
    while (*p == ' ') p++;
    if (!*p) break;
    int n = 0;
    while (p[n] && p[n] != ' ') n++;
    assert_true(n <= 2);
    if (!(drop_ff && n == 2 && strncmp(p, "FF", 2) == 0)) {
      memset(t.tok[t.count], 0, 3);
      memcpy(t.tok[t.count], p, (size_t)n);
      t.count++;
    }
    p += n;
  }
  return t;
}

static inline void test_tokens_free(test_tokens *t) {
  free(t->tok);
  t->tok = NULL;
  t->count = 0;
}

static inline bool test_same_block(const test_tokens *t, int a, int b, int p) {
  for (int k = 0; k < p; k++)
    if (strcmp(t->tok[a + k], t->tok[b + k]) != 0) return false;
  return true;
}

/// Folds every immediate repetition of a block of up to max_fold tokens
/// ("IF PF FI FF IF PF FI FF" -> "IF PF FI FF"): a chatter's period is
/// simulated a different number of times by the two models (the ZOD runs
/// on to a negligible tail, the full model completes at detection).
static inline void test_fold_repeats(test_tokens *t, int max_fold) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (int p = 1; p <= max_fold && !changed; p++)
      for (int i = 0; i + 2 * p <= t->count; i++)
        if (test_same_block(t, i, i + p, p)) {
          memmove(t->tok + i + p, t->tok + i + 2 * p,
                  (size_t)(t->count - i - 2 * p) * sizeof *t->tok);
          t->count -= p;
          changed = true;
          break;
        }
  }
}

/// A chatter completed (Z) or cut by a limit (the end, when cut) part-way
/// through a period: drops a partial repetition of the block just before it.
static inline bool test_drop_partial_period(test_tokens *t, bool cut) {
  for (int j = 0; j <= t->count; j++) {
    if (j < t->count ? strcmp(t->tok[j], "Z") != 0 : !cut) continue;
    for (int p = 2; p <= TEST_MAX_FOLD; p++)
      for (int k = p - 1; k >= 1; k--) {
        if (j - k - p < 0 || !test_same_block(t, j - k - p, j - k, k)) continue;
        memmove(t->tok + j - k, t->tok + j, (size_t)(t->count - j) * sizeof *t->tok);
        t->count -= k;
        return true;
      }
  }
  return false;
}

/// Runs that end part-way through a repeated pattern: limits, and reverse
/// chatter (declared once its growth ratio is constant, at any phase).
static inline bool test_cut_by_limit(zeno_outcome o) {
  return o == ZENO_OUTCOME_EVENT_LIMIT || o == ZENO_OUTCOME_TIME_LIMIT ||
         o == ZENO_OUTCOME_DIVERGING;
}

/// The same word but for how many periods of a chatter were simulated and
/// at which phase its completion (or a limit) cut it.
static inline bool test_words_fold_alike(const char *a, zeno_outcome oa, const char *b,
                                         zeno_outcome ob) {
  test_tokens ta = test_split_word(a, false), tb = test_split_word(b, false);
  do test_fold_repeats(&ta, TEST_MAX_FOLD);
  while (test_drop_partial_period(&ta, test_cut_by_limit(oa)));
  do test_fold_repeats(&tb, TEST_MAX_FOLD);
  while (test_drop_partial_period(&tb, test_cut_by_limit(ob)));
  bool same = ta.count == tb.count;
  for (int k = 0; same && k < ta.count; k++) same = strcmp(ta.tok[k], tb.tok[k]) == 0;
  test_tokens_free(&ta);
  test_tokens_free(&tb);
  return same;
}

#endif
