// Output paths and directories (zeno/io.h): joining a directory and a file
// name, and creating a directory with its parents (mkdir -p).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
