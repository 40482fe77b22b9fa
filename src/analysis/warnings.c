// The scene-sanity pass (zeno/warnings.h): likely radians in degrees
// fields, and an equilibrium outside the paper's assumptions, found once
// for every command and for Python.
#include "zeno/warnings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "zeno/equilibrium.h"

const char *zeno_warning_name(zeno_warning_kind kind) {
  switch (kind) {
    case ZENO_WARNING_RADIANS: return "radians";
    case ZENO_WARNING_INFEASIBLE: return "infeasible";
    case ZENO_WARNING_AMBIGUOUS: return "ambiguous";
    case ZENO_WARNING_PAINLEVE: return "painleve";
  }
  return "unknown";
}

static void add(zeno_warnings *w, zeno_warning_kind kind, const char *parameter, const char *fmt,
                ...) {
  if (w->count == ZENO_MAX_WARNINGS) return;
  zeno_warning *item = &w->items[w->count++];
  item->kind = kind;
  snprintf(item->parameter, sizeof item->parameter, "%s", parameter);
  va_list args;
  va_start(args, fmt);
  vsnprintf(item->message, sizeof item->message, fmt, args);
  va_end(args);
}

// An angle as written (degrees) that looks like radians.
static void angle(zeno_warnings *w, const char *parameter, double degrees) {
  if (degrees == 0 || !(fabs(degrees) < ZENO_WARNING_RADIANS_BELOW)) return;
  add(w, ZENO_WARNING_RADIANS, parameter,
      "%.6g deg is small: scene angles are in degrees; if %.6g was meant in radians, write %.6g",
      degrees, degrees, degrees / ZENO_RADIANS_PER_DEGREE);
}

static void angles(const zeno_scene *s, zeno_warnings *w) {
  if (s->has_paper) {
    angle(w, "paper.alpha", s->paper.alpha);
    angle(w, "paper.phi1", s->paper.phi1);
    if (s->contact_count > 1) angle(w, "paper.phi2", s->paper.phi2);
    return;
  }
  angle(w, "load.angle", s->load_angle / ZENO_RADIANS_PER_DEGREE);
  for (int i = 0; i < s->contact_count; i++) {
    char parameter[64];
    snprintf(parameter, sizeof parameter, "contacts.%d.surface.angle", i);
    angle(w, parameter, s->contacts[i].surface_angle / ZENO_RADIANS_PER_DEGREE);
  }
}

zeno_status zeno_scene_warnings(const zeno_scene *scene, zeno_warnings *w, zeno_error *error) {
  if (scene == NULL || w == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a scene and a warnings record are required");
  memset(w, 0, sizeof *w);
  angles(scene, w);
  // The equilibrium's warnings come from the two-contact check; a scene of
  // more contacts has its angles checked only (`zeno check` reports its
  // equilibrium).
  if (scene->contact_count > ZENO_PAIR_CONTACTS) return ZENO_OK;
  zeno_equilibrium_report rep;
  const zeno_status st = zeno_equilibrium_check(scene, &rep, error);
  if (st != ZENO_OK) return st;
  char modes[ZENO_MAX_MODES * (ZENO_MODE_NAME_SIZE + 1)] = "";
  for (size_t k = 0; k < rep.ambiguous_count; k++) {
    char name[ZENO_MODE_NAME_SIZE];
    const size_t n = strlen(modes);
    snprintf(modes + n, sizeof modes - n, "%s%s", k ? " " : "",
             zeno_mode_name(rep.ambiguous_modes[k], scene->contact_count, name));
  }
  // An infeasible equilibrium leaves in the modes consistent at rest: one
  // warning names both.
  if (!rep.feasible)
    add(w, ZENO_WARNING_INFEASIBLE, "",
        "the equilibrium is infeasible (margin %.3g): no contact forces inside the friction "
        "cones hold the body at rest%s%s",
        rep.margin, modes[0] ? "; it leaves in " : "", modes);
  else if (rep.ambiguous_count > 0)
    add(w, ZENO_WARNING_AMBIGUOUS, "",
        "the equilibrium is ambiguous: %s consistent at rest besides sticking (Theorem 1: not "
        "finite-time stable)",
        modes);
  for (int i = 0; i < scene->contact_count; i++) {
    if (rep.painleve_ok[i]) continue;
    char parameter[64];
    if (scene->has_paper) snprintf(parameter, sizeof parameter, "paper.mu%d", i + 1);
    else snprintf(parameter, sizeof parameter, "contacts.%d.mu", i);
    add(w, ZENO_WARNING_PAINLEVE, parameter,
        "mu %.6g is at or above the Painleve bound %.6g (11): slipping on contact %d may have "
        "no consistent mode",
        scene->contacts[i].mu, rep.painleve_bound[i], i + 1);
  }
  return ZENO_OK;
}
