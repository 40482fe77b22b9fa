// The whole map at once (zeno_maps_compute): every sample of the stream
// (maps_stream.c) collected.
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "zeno/poincare.h"

/// First capacity of a collected map beyond its uniform samples (room for
/// the sides of this many breakpoints before it grows).
#define MAPS_COLLECT_EXTRA 64

zeno_status zeno_maps_compute(const zeno_scene *scene, const zeno_maps_def *def, zeno_maps *maps,
                              zeno_error *error) {
  if (scene == NULL || maps == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "scene and maps are required");
  memset(maps, 0, sizeof *maps);
  zeno_error local;
  if (error == NULL) error = &local;  // the returned code comes from it
  zeno_maps_stream *s = zeno_maps_stream_create(scene, def, error);
  if (s == NULL) return error->code;
  zeno_cycle *samples = NULL;
  size_t count = 0, cap = 0;
  zeno_status st;
  // Each sample is handed out straight into its place (room for one more
  // is made first); the stream asks the interrupt.
  for (;;) {
    if (count == cap) {
      cap = cap ? 2 * cap
                : (def ? def->samples : zeno_maps_def_default().samples) + MAPS_COLLECT_EXTRA;
      zeno_cycle *p = realloc(samples, cap * sizeof *p);
      if (p == NULL) {
        st = zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
        break;
      }
      samples = p;
    }
    if ((st = zeno_maps_stream_next(s, &samples[count], error)) != ZENO_OK) break;
    count++;
  }
  if (st == ZENO_DONE) st = zeno_maps_stream_result(s, maps, error);
  zeno_maps_stream_destroy(s);
  if (st != ZENO_OK) {
    free(samples);
    memset(maps, 0, sizeof *maps);
    return st;
  }
  maps->samples = samples;
  maps->sample_count = count;
  return ZENO_OK;
}

void zeno_maps_free(zeno_maps *maps) {
  if (maps == NULL) return;
  free(maps->samples);
  maps->samples = NULL;
  maps->sample_count = 0;
}
