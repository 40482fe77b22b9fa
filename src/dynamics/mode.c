// The contact-mode vocabulary (zeno/mode.h): letters, mode names and their
// parser, guard names and impact names, as printed in words, JSON and CSV.
#include "zeno/mode.h"

#include <string.h>

#include "base/util.h"

/// Letters by zeno_letter value.
static const char LETTERS[] = "FSPN";
/// zeno_letter values (two bits).
#define LETTER_MASK 3u

char zeno_letter_name(zeno_letter letter) { return LETTERS[(unsigned)letter & LETTER_MASK]; }

zeno_mode zeno_mode_of_code(unsigned code) {
  const zeno_mode m = {{(unsigned char)(code % 4), (unsigned char)(code / 4)}};
  return m;
}

const char *zeno_mode_name(zeno_mode mode, int n, char *buf) {
  int k = 0;
  for (int i = 0; i < n && i < ZENO_MAX_CONTACTS; i++)
    buf[k++] = zeno_letter_name((zeno_letter)mode.letter[i]);
  buf[k] = '\0';
  return buf;
}

zeno_status zeno_mode_parse(const char *text, int n, zeno_mode *mode, zeno_error *error) {
  if (text == NULL || mode == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "text and mode are required");
  zeno_mode m = {{0}};
  bool ok = n >= 1 && n <= ZENO_MAX_CONTACTS && strlen(text) == (size_t)n;
  for (int i = 0; ok && i < n; i++) {
    const char *p = text[i] ? strchr(LETTERS, text[i]) : NULL;
    ok = p != NULL;
    if (ok) m.letter[i] = (unsigned char)(p - LETTERS);
  }
  if (!ok)
    return zeno_fail(error, ZENO_ERR_SYNTAX, "mode",
                     "'%s' is not a mode of %d contact%s (letters F, S, P, N, "
                     "one per contact)",
                     text, n, n == 1 ? "" : "s");
  *mode = m;
  return ZENO_OK;
}

const char *zeno_guard_name(zeno_guard g) {
  switch (g) {
    case ZENO_GUARD_NONE: return "none";
    case ZENO_GUARD_GAP: return "gap";
    case ZENO_GUARD_NORMAL_FORCE: return "normal-force";
    case ZENO_GUARD_SLIP_VELOCITY: return "slip-velocity";
    case ZENO_GUARD_FRICTION_MARGIN: return "friction-margin";
    case ZENO_GUARD_ESCAPE: return "escape";
    case ZENO_GUARD_TIME: return "time";
    case ZENO_GUARD_ZENO: return "zeno";
  }
  return "unknown";
}

/// Impact names of two contacts by mask (bit i: contact i).
static const char *const IMPACT_NAMES[] = {"FF", "IF", "FI", "II"};
/// The two mask bits of two contacts.
#define IMPACT_MASK_BITS 3u

const char *zeno_impact_name(unsigned mask, int n) {
  if (n == 1) return "I";
  if (n > ZENO_PAIR_CONTACTS) return NULL;
  return IMPACT_NAMES[mask & IMPACT_MASK_BITS];
}

const char *zeno_impact_word(unsigned mask, int n, char *buf) {
  if (n == 1) return strcpy(buf, "I");
  int k = 0;
  for (int i = 0; i < n && i < ZENO_MAX_CONTACTS; i++) buf[k++] = (mask >> i) & 1u ? 'I' : 'F';
  buf[k] = '\0';
  return buf;
}

unsigned zeno_impact_mask(const char *name, int n) {
  if (name == NULL || n < 1 || n > ZENO_MAX_CONTACTS) return 0;
  if (n == 1) return strcmp(name, "I") == 0 ? 1u : 0u;
  if (strlen(name) != (size_t)n) return 0;
  unsigned mask = 0;
  for (int i = 0; i < n; i++) {
    if (name[i] == 'I') mask |= 1u << i;
    else if (name[i] != 'F') return 0;
  }
  return mask;
}

const char *zeno_refusal_name(zeno_refusal refusal) {
  switch (refusal) {
    case ZENO_REFUSAL_NONE: return "none";
    case ZENO_REFUSAL_KINEMATICS: return "kinematics";
    case ZENO_REFUSAL_SINGULAR: return "singular";
    case ZENO_REFUSAL_NORMAL: return "normal";
    case ZENO_REFUSAL_CONE: return "cone";
    case ZENO_REFUSAL_PENETRATION: return "penetration";
    case ZENO_REFUSAL_SLIP: return "slip";
    case ZENO_REFUSAL_INCOMPATIBLE: return "incompatible";
  }
  return "unknown";
}
