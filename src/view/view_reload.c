// Live reload: the window looks at the scene file once a second (its
// modification time and size; no inotify, so any file system and editor
// works) and, when it changed, loads and simulates it again. A version
// that does not load keeps the old run on screen with the error over it.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "view/view.h"

static bool file_version(const char *path, struct timespec *mtime, long long *size, bool *regular) {
  struct stat st;
  if (stat(path, &st) != 0) return false;
  *mtime = st.st_mtim;
  *size = (long long)st.st_size;
  *regular = S_ISREG(st.st_mode);
  return true;
}

void view_reload_init(view_reload *r, const view_options *o) {
  memset(r, 0, sizeof *r);
  bool regular = false;
  // Only a regular file can change under the viewer (not a pipe, not "-").
  if (o->scene_path == NULL || !file_version(o->scene_path, &r->mtime, &r->size, &regular) ||
      !regular)
    return;
  r->path = o->scene_path;
  r->overrides = o->overrides;
  r->override_count = o->override_count;
}

view_reload_result view_reload_check(view_reload *r, view_run *run) {
  if (r->path == NULL) return VIEW_RELOAD_UNCHANGED;
  struct timespec mtime;
  long long size;
  bool regular;
  if (!file_version(r->path, &mtime, &size, &regular)) {
    // Editors that replace the file may leave it missing for a moment.
    if (r->error[0] != '\0') return VIEW_RELOAD_UNCHANGED;
    snprintf(r->error, sizeof r->error, "%s: %s", r->path, strerror(errno));
    memset(&r->mtime, 0, sizeof r->mtime);
    return VIEW_RELOAD_FAILED;
  }
  if (mtime.tv_sec == r->mtime.tv_sec && mtime.tv_nsec == r->mtime.tv_nsec && size == r->size)
    return VIEW_RELOAD_UNCHANGED;
  r->mtime = mtime;
  r->size = size;
  zeno_scene scene;
  zeno_error err;
  zeno_error_clear(&err);
  view_run fresh;
  if (zeno_scene_load(r->path, r->overrides, r->override_count, &scene, &err) != ZENO_OK ||
      view_run_simulate(&fresh, &scene, &err) != ZENO_OK) {
    zeno_error_format(&err, r->error, sizeof r->error);  // file:line:column: ...
    return VIEW_RELOAD_FAILED;
  }
  view_run_free(run);
  *run = fresh;
  r->error[0] = '\0';
  return VIEW_RELOAD_DONE;
}
