// Output paths and directories (zeno/io.h): joining a directory and a file
// name, creating a directory with its parents (mkdir -p), output files that
// are written aside and renamed into place (never through a planted link,
// never half-written under their name), and the lock that keeps a second
// run out of a directory another run is writing.
#define _DEFAULT_SOURCE  // flock, fchmod
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "zeno/io.h"

/// Permissions of created directories (umask applies).
#define IO_DIRECTORY_MODE 0777

char *zeno_io_path_join(const char *dir, const char *name) {
  if (dir == NULL || name == NULL) return NULL;
  const size_t size = strlen(dir) + 1 + strlen(name) + 1;
  char *path = malloc(size);
  if (path) snprintf(path, size, "%s/%s", dir, name);
  return path;
}

char *zeno_io_path_folder(const char *path) {
  if (path == NULL) return NULL;
  const char *slash = strrchr(path, '/');
  if (slash == NULL) return strdup(".");
  return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

/// mkdir that accepts an existing directory.
static int make_one_directory(const char *path) {
  if (mkdir(path, IO_DIRECTORY_MODE) == 0) return 0;
  if (errno != EEXIST) return -1;
  struct stat info;
  if (stat(path, &info) != 0) return -1;
  if (!S_ISDIR(info.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}

zeno_status zeno_io_make_directories(const char *dir, zeno_error *error) {
  if (dir == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory is required");
  char *copy = dir[0] ? strdup(dir) : NULL;
  if (dir[0] && copy == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  int result = dir[0] ? 0 : -1;
  if (!dir[0]) errno = ENOENT;
  // Create every proper prefix ending before a '/', then the whole path.
  for (char *p = copy ? copy + 1 : NULL; p && *p && result == 0; p++) {
    if (*p != '/' || p[-1] == '/') continue;
    *p = '\0';
    result = make_one_directory(copy);
    *p = '/';
  }
  if (result == 0) result = make_one_directory(copy);
  const int saved = errno;
  free(copy);
  if (result == 0) return ZENO_OK;
  return zeno_fail(error, ZENO_ERR_IO, "", "cannot create directory '%s': %s", dir,
                   strerror(saved));
}

/* ---------- output files: written aside, then renamed into place ---------- */

/// Room for the temporary name's suffix ".NAME.XXXXXX".
#define IO_TEMP_SUFFIX ".XXXXXX"
/// Permissions of output files when the process umask cannot be read.
#define IO_FILE_MODE_FALLBACK 0644
/// Permissions of output files before the umask, as fopen() would create them.
#define IO_FILE_MODE 0666

/// Length of mkstemp's suffix (the X's of IO_TEMP_SUFFIX).
#define IO_TEMP_RANDOM 6
/// Tries at a temporary file that a remover of stale ones took in the
/// moment before it was locked (never more than one in practice).
#define IO_TEMP_TRIES 8

struct zeno_io_output {
  char *path;    ///< the file's final path
  char *temp;    ///< the temporary file beside it
  FILE *stream;  ///< NULL once closed (zeno_io_output_commit_all), and for a removal
  /// A second descriptor of the temporary file holding an exclusive
  /// flock() on it until it is renamed or removed: the mark of a live
  /// writer (remove_stale()). -1 when none.
  int lock_fd;
  bool placed;   ///< renamed into place (a removal: removed)
  bool removal;  ///< zeno_io_output_open_removal(): the commit removes the file
};

// The process umask, read without changing it (umask() would, and is not
// thread-safe): the "Umask:" line of /proc/self/status (Linux >= 4.7).
static mode_t file_mode(void) {
  FILE *f = fopen("/proc/self/status", "r");
  unsigned mask = 0;
  bool found = false;
  char line[128];
  while (f && !found && fgets(line, sizeof line, f)) found = sscanf(line, "Umask: %o", &mask) == 1;
  if (f) fclose(f);
  return found ? (mode_t)(IO_FILE_MODE & ~mask) : IO_FILE_MODE_FALLBACK;
}

static void output_free(zeno_io_output *o) {
  if (o->lock_fd >= 0) close(o->lock_fd);
  free(o->path);
  free(o->temp);
  free(o);
}

// Whether `entry` is a temporary file name of `name` as mkstemp() makes
// them: "." NAME "." and six letters or digits.
static bool temp_name_of(const char *entry, const char *name) {
  const size_t n = strlen(name);
  if (entry[0] != '.' || strncmp(entry + 1, name, n) != 0 || entry[n + 1] != '.') return false;
  const char *random = entry + n + 2;
  size_t k = 0;
  while (k < IO_TEMP_RANDOM && random[k] != '\0' && isalnum((unsigned char)random[k])) k++;
  return k == IO_TEMP_RANDOM && random[k] == '\0';
}

// Whether the open file fd is the one `path` names now.
static bool names_fd(const char *path, int fd) {
  struct stat named, opened;
  return lstat(path, &named) == 0 && fstat(fd, &opened) == 0 && named.st_dev == opened.st_dev &&
         named.st_ino == opened.st_ino;
}

// Removes the temporaries of DIR/NAME that a killed writer left: each
// regular file of the temporary pattern, owned by this user, that no live
// process holds locked (a writer keeps its lock until its file is renamed
// or removed, and the kernel drops it when the writer dies). The lock is
// taken before the unlink, so a writer that has locked its file is never
// touched; one that had not yet is told by its own check and starts again
// (zeno_io_output_open()).
static void remove_stale(const char *dir, const char *name) {
  DIR *d = opendir(dir);
  if (d == NULL) return;
  for (const struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!temp_name_of(e->d_name, name)) continue;
    char *path = zeno_io_path_join(dir, e->d_name);
    const int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
        flock(fd, LOCK_EX | LOCK_NB) == 0 && names_fd(path, fd))
      unlink(path);
    if (fd >= 0) close(fd);
    free(path);
  }
  closedir(d);
}

// Creates and locks o->temp from `template_path` (its X's replaced); the
// stream, or NULL with errno set.
static FILE *create_temp(zeno_io_output *o, const char *template_path) {
  for (int tries = 0; tries < IO_TEMP_TRIES; tries++) {
    strcpy(o->temp, template_path);
    // mkstemp creates the file exclusively: it never opens a planted link.
    const int fd = mkstemp(o->temp);
    if (fd < 0) return NULL;
    o->lock_fd = open(o->temp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    // Locked, and still ours: a remover of stale files did not take it in
    // between (it unlinks only what it holds locked).
    if (o->lock_fd >= 0 && flock(o->lock_fd, LOCK_EX) == 0 && names_fd(o->temp, fd)) {
      FILE *f = fchmod(fd, file_mode()) == 0 ? fdopen(fd, "w") : NULL;
      if (f != NULL) return f;
    }
    const int saved = errno;
    if (names_fd(o->temp, fd)) unlink(o->temp);  // ours, not kept: removed
    close(fd);
    if (o->lock_fd >= 0) close(o->lock_fd);
    o->lock_fd = -1;
    errno = saved;
    if (saved != 0 && saved != ENOENT) return NULL;  // a failure, not a remover
  }
  errno = EEXIST;
  return NULL;
}

// The handle of DIR/NAME and its temporary name, when DIR/NAME is a file,
// a link or absent; NULL with the error otherwise.
static zeno_io_output *output_new(const char *dir, const char *name, zeno_error *error) {
  if (dir == NULL || name == NULL || name[0] == '\0' || strchr(name, '/') != NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory and a plain file name are required");
    return NULL;
  }
  zeno_io_output *o = calloc(1, sizeof *o);
  char *hidden = malloc(strlen(name) + sizeof "." IO_TEMP_SUFFIX);
  if (o != NULL) o->lock_fd = -1;
  if (o != NULL && hidden != NULL) {
    sprintf(hidden, ".%s" IO_TEMP_SUFFIX, name);
    o->path = zeno_io_path_join(dir, name);
    o->temp = zeno_io_path_join(dir, hidden);
  }
  free(hidden);
  if (o == NULL || o->path == NULL || o->temp == NULL) {
    if (o) output_free(o);
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  // A device, a FIFO or a directory under the name is no output to replace
  // (the rename would put a file in place of /dev/full); a link is
  // replaced, never written through.
  struct stat st;
  if (lstat(o->path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    zeno_fail(error, ZENO_ERR_IO, "", "cannot write '%s': not a regular file (%s)", o->path,
              S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
    output_free(o);
    return NULL;
  }
  return o;
}

zeno_io_output *zeno_io_output_open(const char *dir, const char *name, zeno_error *error) {
  zeno_io_output *o = output_new(dir, name, error);
  if (o == NULL) return NULL;
  // o->temp is the template; create_temp() fills in its X's at each try.
  char *template_path = strdup(o->temp);
  if (template_path == NULL) {
    output_free(o);
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  remove_stale(dir, name);
  o->stream = create_temp(o, template_path);
  free(template_path);
  if (o->stream == NULL) {
    zeno_fail(error, ZENO_ERR_IO, "", "cannot create '%s': %s", o->path, strerror(errno));
    output_free(o);
    return NULL;
  }
  return o;
}

zeno_io_output *zeno_io_output_open_path(const char *path, zeno_error *error) {
  if (path == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a file path is required");
    return NULL;
  }
  char *dir = zeno_io_path_folder(path);
  if (dir == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  const char *slash = strrchr(path, '/');
  zeno_io_output *out = zeno_io_output_open(dir, slash ? slash + 1 : path, error);
  free(dir);
  return out;
}

zeno_io_output *zeno_io_output_open_removal(const char *dir, const char *name, zeno_error *error) {
  zeno_io_output *o = output_new(dir, name, error);
  if (o != NULL) o->removal = true;
  return o;
}

FILE *zeno_io_output_stream(const zeno_io_output *o) { return o ? o->stream : NULL; }

// Flushes, syncs and closes the temporary file; false on a failure, its
// errno in *err (0 when only the stream's error indicator tells).
static bool output_close(zeno_io_output *o, int *err) {
  errno = 0;
  bool ok = fflush(o->stream) == 0 && !ferror(o->stream) && fsync(fileno(o->stream)) == 0;
  *err = ok ? 0 : errno;
  if (fclose(o->stream) != 0 && ok) {
    ok = false;
    *err = errno;
  }
  o->stream = NULL;
  return ok;
}

zeno_status zeno_io_output_commit_all(zeno_io_output *const *outputs, size_t count,
                                      zeno_error *error) {
  if (outputs == NULL && count > 0)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "outputs are required");
  const zeno_io_output *failed = NULL;
  int err = 0;
  // Every file whole first: only then does any of them replace its
  // previous one.
  for (size_t k = 0; k < count && failed == NULL; k++)
    if (outputs[k] != NULL && !outputs[k]->removal && !output_close(outputs[k], &err))
      failed = outputs[k];
  // rename() replaces whatever the final name is, a link included, without
  // following it.
  for (size_t k = 0; k < count && failed == NULL; k++) {
    zeno_io_output *o = outputs[k];
    if (o == NULL) continue;
    if (o->removal) o->placed = unlink(o->path) == 0 || errno == ENOENT;
    else o->placed = rename(o->temp, o->path) == 0;
    if (!o->placed) {
      failed = o;
      err = errno;
    }
  }
  const zeno_status st = failed == NULL
                             ? ZENO_OK
                             : zeno_fail(error, ZENO_ERR_IO, "", "cannot write '%s': %s",
                                         failed->path, err ? strerror(err) : "write error");
  for (size_t k = 0; k < count; k++) {
    zeno_io_output *o = outputs[k];
    if (o == NULL) continue;
    if (o->stream != NULL) fclose(o->stream);
    if (!o->placed && !o->removal) unlink(o->temp);
    output_free(o);
  }
  return st;
}

zeno_status zeno_io_output_commit(zeno_io_output *o, zeno_error *error) {
  if (o == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "an output is required");
  return zeno_io_output_commit_all(&o, 1, error);
}

void zeno_io_output_discard(zeno_io_output *o) {
  if (o == NULL) return;
  if (o->stream != NULL) fclose(o->stream);
  if (!o->removal) unlink(o->temp);
  output_free(o);
}

/* ---------- one writer per directory ---------- */

struct zeno_io_dir_lock {
  int fd;
};

zeno_io_dir_lock *zeno_io_dir_lock_take(const char *dir, zeno_error *error) {
  if (dir == NULL) {
    zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a directory is required");
    return NULL;
  }
  zeno_io_dir_lock *lock = malloc(sizeof *lock);
  if (lock == NULL) {
    zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    return NULL;
  }
  lock->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock->fd < 0) {
    zeno_fail(error, ZENO_ERR_IO, "", "cannot open directory '%s': %s", dir, strerror(errno));
  } else if (flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
    const bool busy = errno == EWOULDBLOCK;
    zeno_fail(error, ZENO_ERR_IO, "",
              busy ? "'%s' is in use by another zeno run writing there; wait for it "
                     "to finish or choose another output directory"
                   : "cannot lock directory '%s': %s",
              dir, strerror(errno));
  } else {
    return lock;
  }
  if (lock->fd >= 0) close(lock->fd);
  free(lock);
  return NULL;
}

void zeno_io_dir_lock_release(zeno_io_dir_lock *lock) {
  if (lock == NULL) return;
  close(lock->fd);  // releases the lock
  free(lock);
}
