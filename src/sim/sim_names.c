// Names of modes, outcomes, events, guards and impacts, as printed in
// words, JSON and CSV.
#include <string.h>

#include "zeno/sim.h"


static const char LETTERS[4] = {'F', 'S', 'P', 'N'};

const char *zeno_mode_name(zeno_mode mode, int n, char *buf) {
  int k = 0;
  for (int i = 0; i < n && i < ZENO_MAX_CONTACTS; i++)
    buf[k++] = LETTERS[mode.letter[i] & 3];
  buf[k] = '\0';
  return buf;
}

bool zeno_mode_parse(const char *text, int n, zeno_mode *mode) {
  if (text == NULL || (int)strlen(text) != n) return false;
  zeno_mode m = {{0, 0}};
  for (int i = 0; i < n; i++) {
    const char *p = memchr(LETTERS, text[i], 4);
    if (p == NULL) return false;
    m.letter[i] = (unsigned char)(p - LETTERS);
  }
  *mode = m;
  return true;
}

const char *zeno_outcome_name(zeno_outcome o) {
  switch (o) {
    case ZENO_OUTCOME_RUNNING: return "running";
    case ZENO_OUTCOME_REST: return "rest";
    case ZENO_OUTCOME_ESCAPED: return "escaped";
    case ZENO_OUTCOME_DIVERGING: return "diverging";
    case ZENO_OUTCOME_AMBIGUOUS: return "ambiguous";
    case ZENO_OUTCOME_INCONSISTENT: return "inconsistent";
    case ZENO_OUTCOME_TIME_LIMIT: return "time-limit";
    case ZENO_OUTCOME_EVENT_LIMIT: return "event-limit";
    case ZENO_OUTCOME_SOLVER_FAILURE: return "solver-failure";
    case ZENO_OUTCOME_WALL_LIMIT: return "wall-limit";
  }
  return "unknown";
}

const char *zeno_event_kind_name(zeno_event_kind k) {
  switch (k) {
    case ZENO_EVENT_START: return "start";
    case ZENO_EVENT_IMPACT: return "impact";
    case ZENO_EVENT_TRANSITION: return "transition";
    case ZENO_EVENT_ZENO: return "zeno";
    case ZENO_EVENT_END: return "end";
  }
  return "unknown";
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

const char *zeno_impact_name(unsigned mask, int n) {
  if (n == 1) return "I";
  switch (mask & 3u) {
    case 1: return "IF";
    case 2: return "FI";
    case 3: return "II";
    default: return "FF";
  }
}

