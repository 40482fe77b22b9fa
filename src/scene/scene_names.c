// The spellings of the scene's enums (scene_names.h) and the public
// zeno_*_name() functions that read them.
#include "scene/scene_names.h"

#include "zeno/scene.h"

static const char *const MODELS[] = {"zod", "full"};
static const char *const LAWS[ZENO_LAW_COUNT] = {[ZENO_LAW_INELASTIC] = "inelastic",
                                                 [ZENO_LAW_CHATTERJEE_RUINA] = "chatterjee-ruina",
                                                 [ZENO_LAW_NEWTON] = "newton"};
static const char *const AMBIGUITY[] = {"stop", "prefer-static", "prefer-motion"};

// clang-format off
#define NAMES_OF(array) {(array), (int)(sizeof(array) / sizeof *(array))}
// clang-format on

const scene_enum_names SCENE_MODEL_NAMES = NAMES_OF(MODELS);
const scene_enum_names SCENE_LAW_NAMES = NAMES_OF(LAWS);
const scene_enum_names SCENE_AMBIGUITY_NAMES = NAMES_OF(AMBIGUITY);

// The name of value v, or the first name (the default) for a value out of
// range.
static const char *name_of(const scene_enum_names *e, int v) {
  return v >= 0 && v < e->count ? e->names[v] : e->names[0];
}

const char *zeno_model_name(zeno_model m) { return name_of(&SCENE_MODEL_NAMES, (int)m); }

const char *zeno_impact_law_name(zeno_impact_law law) {
  return name_of(&SCENE_LAW_NAMES, (int)law);
}

const char *zeno_ambiguity_policy_name(zeno_ambiguity_policy p) {
  return name_of(&SCENE_AMBIGUITY_NAMES, (int)p);
}
