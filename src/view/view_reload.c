// Live reload: the window looks at the scene file once a second (its
// modification time and size; no inotify, so any file system and editor
// works) and, when it changed, loads and simulates it again. A version
// that does not load keeps the old run on screen with the error over it.
// Only a regular file is read, and the open never waits: a FIFO put in the
// scene's place froze the window in its open.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

// The scene file's text, read without waiting: a regular file only (a
// FIFO, a device or a directory put in its place is refused, its message
// in r->error). Returns the text (free() it), or NULL with r->error set.
static char *read_scene(view_reload *r) {
  const int fd = open(r->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    snprintf(r->error, sizeof r->error, "%s: %s", r->path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  FILE *f = NULL;
  if (!S_ISREG(st.st_mode)) {
    snprintf(r->error, sizeof r->error, "%s: not a regular file (%s)", r->path,
             S_ISDIR(st.st_mode) ? "a directory" : "a FIFO, a device or a socket");
  } else if ((f = fdopen(fd, "r")) == NULL) {
    snprintf(r->error, sizeof r->error, "%s: %s", r->path, strerror(errno));
  }
  if (f == NULL) {
    close(fd);
    return NULL;
  }
  char *text = NULL;
  zeno_error err;
  if (zeno_scene_read_stream(f, r->path, &text, NULL, &err) != ZENO_OK)
    zeno_error_format(&err, r->error, sizeof r->error);
  fclose(f);
  return text;
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
  char *text = read_scene(r);
  if (text == NULL) return VIEW_RELOAD_FAILED;
  zeno_scene scene;
  zeno_error err;
  zeno_error_clear(&err);
  view_run fresh;
  const bool loaded = zeno_scene_load_string(text, r->path, r->overrides, r->override_count, &scene,
                                             &err) == ZENO_OK &&
                      view_run_simulate(&fresh, &scene, &err) == ZENO_OK;
  free(text);
  if (!loaded) {
    zeno_error_format(&err, r->error, sizeof r->error);  // file:line:column: ...
    return VIEW_RELOAD_FAILED;
  }
  view_run_free(run);
  *run = fresh;
  r->error[0] = '\0';
  return VIEW_RELOAD_DONE;
}
