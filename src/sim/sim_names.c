// Names of outcomes and event kinds, as printed in JSON and summaries
// (mode, guard and impact names: dynamics/mode.c).
#include "zeno/sim.h"

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
