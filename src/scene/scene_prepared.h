// A scene text parsed once, loaded many times with different overrides:
// the region maps and sweeps load their scene at every grid point with
// the point's two values as overrides, and parsing the YAML each time
// (libyaml's scanner) was a tenth of a region map's time. A prepared scene
// keeps the parsed tree with the fixed overrides applied; each load clones
// it, applies its own overrides and converts, with the same results and
// messages as zeno_scene_load_string() of the text with all the overrides.
// Not public API.
#ifndef ZENO_SCENE_SCENE_PREPARED_H
#define ZENO_SCENE_SCENE_PREPARED_H

#include <stddef.h>

#include "zeno/error.h"
#include "zeno/scene.h"

typedef struct scene_prepared scene_prepared;

/// Parses `text` (named `name` in messages, as zeno_scene_load_string) and
/// applies the fixed overrides. The overrides' strings must outlive the
/// prepared scene (nodes they made point to their text for messages). On
/// failure *out is NULL and `error` is the load's error.
zeno_status scene_prepare(const char *text, const char *name, const char *const *fixed,
                          size_t fixed_count, scene_prepared **out, zeno_error *error);

/// The scene with `overrides` applied after the fixed ones: what
/// zeno_scene_load_string(text, name, fixed + overrides) gives. Safe to
/// call from several threads at once on one prepared scene.
zeno_status scene_prepared_load(const scene_prepared *p, const char *const *overrides,
                                size_t override_count, zeno_scene *scene, zeno_error *error);

void scene_prepared_free(scene_prepared *p);

#endif
