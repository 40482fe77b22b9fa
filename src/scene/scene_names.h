// The spellings of the scene's enums, one table per enum indexed by its
// value: the scene file's words, the zeno_*_name() functions and the
// loader's error messages all come from here (scene_names.c). Not public
// API.
#ifndef ZENO_SCENE_SCENE_NAMES_H
#define ZENO_SCENE_SCENE_NAMES_H

/// The names of one enum, names[value] for value 0 .. count - 1.
typedef struct scene_enum_names {
  const char *const *names;
  int count;
} scene_enum_names;

/// zeno_model: "zod", "full".
extern const scene_enum_names SCENE_MODEL_NAMES;
/// zeno_impact_law: "inelastic", "chatterjee-ruina", "newton".
extern const scene_enum_names SCENE_LAW_NAMES;
/// zeno_ambiguity_policy: "stop", "prefer-static", "prefer-motion".
extern const scene_enum_names SCENE_AMBIGUITY_NAMES;

#endif
