// The digest of a run directory (zeno/run_dir.h): DIR/digest.sha256 holds
// the SHA-256 of each file the writer wrote, one "HEX  NAME" line each in
// sha256sum's format (`cd DIR && sha256sum -c digest.sha256` checks it
// too). The writer digests its files as written aside (run_dir.c); the
// reader checks the folder's files against the digest before it reads them,
// and opens every file of the run here (bounded, never waiting).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "io/run_dir_internal.h"
#include "zeno/io.h"

/// Bytes read at a time when a file is digested.
#define DIGEST_CHUNK 65536
/// The largest digest.sha256 read: a line per file of a run (five lines of
/// at most 80 characters) with ample room.
#define DIGEST_MAX_BYTES 4096
/// A line's separator between the digest and the name (sha256sum's text mode).
#define DIGEST_SEPARATOR "  "

/// The files a digest lists: every file of a run but the digest itself.
static const char *const DIGESTED[] = {ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                       ZENO_RUN_DIR_EVENTS_CSV, ZENO_RUN_DIR_OVERRIDES,
                                       ZENO_RUN_DIR_SCENE};
#define DIGESTED_COUNT (sizeof DIGESTED / sizeof DIGESTED[0])

// Opens a file of the run directory: a regular file (a link to one
// included) of at most ZENO_RUN_DIR_MAX_BYTES. The open does not wait: a
// FIFO under the name is refused at once (it blocked for ever), as is a
// device (/dev/zero grew the reader by 330 MB/s).
zeno_status run_dir_open(const char *path, FILE **f, zeno_error *error) {
  if (path == NULL) return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a path is required");
  *f = NULL;
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    const int saved = errno;
    if (fd >= 0) close(fd);
    return zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "", "cannot read '%s': %s", path,
                        strerror(saved));
  }
  zeno_status status = ZENO_OK;
  if (!S_ISREG(st.st_mode))
    status = zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "",
                          "cannot read '%s': not a regular file (%s)", path,
                          S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
  else if (st.st_size > ZENO_RUN_DIR_MAX_BYTES)
    status = zeno_fail_at(error, ZENO_ERR_RANGE, path, 0, 0, "",
                          "'%s' holds %lld bytes, more than the %lld a run directory's file may",
                          path, (long long)st.st_size, (long long)ZENO_RUN_DIR_MAX_BYTES);
  const int flags = status == ZENO_OK ? fcntl(fd, F_GETFL) : -1;
  if (status == ZENO_OK &&
      (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || (*f = fdopen(fd, "r")) == NULL))
    status = zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "", "cannot read '%s': %s", path,
                          strerror(errno));
  if (status != ZENO_OK) close(fd);
  return status;
}

zeno_status run_dir_digest_fd(int fd, char hex[ZENO_SHA256_HEX_SIZE], zeno_error *error) {
  zeno_sha256 hash;
  const zeno_status st = zeno_sha256_begin(&hash, error);
  if (st != ZENO_OK) return st;
  unsigned char *chunk = malloc(DIGEST_CHUNK);
  if (chunk == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  long long offset = 0;
  ssize_t n;
  while ((n = pread(fd, chunk, DIGEST_CHUNK, (off_t)offset)) > 0 &&
         offset <= ZENO_RUN_DIR_MAX_BYTES) {
    zeno_sha256_update(&hash, chunk, (size_t)n);
    offset += n;
  }
  free(chunk);
  if (n < 0) return ZENO_ERR_IO;
  if (offset > ZENO_RUN_DIR_MAX_BYTES) return ZENO_ERR_RANGE;
  unsigned char digest[ZENO_SHA256_BYTES];
  zeno_sha256_finish(&hash, digest);
  zeno_sha256_hex(digest, sizeof digest, hex);
  return ZENO_OK;
}

/// The index in DIGESTED of a name `length` characters long, or -1.
static int digested_index(const char *name, size_t length) {
  for (size_t k = 0; k < DIGESTED_COUNT; k++)
    if (strlen(DIGESTED[k]) == length && strncmp(DIGESTED[k], name, length) == 0) return (int)k;
  return -1;
}

// One line of the digest, "HEX  NAME": the file DIR/NAME digested and
// compared; listed[] marks the names seen.
static zeno_status check_line(const char *dir, const char *digest_path, int line, const char *text,
                              bool listed[DIGESTED_COUNT], zeno_error *error) {
  const size_t hex_length = ZENO_SHA256_HEX_SIZE - 1;
  const bool shape = strspn(text, "0123456789abcdef") == hex_length &&
                     strncmp(text + hex_length, DIGEST_SEPARATOR, strlen(DIGEST_SEPARATOR)) == 0;
  const char *name = shape ? text + hex_length + strlen(DIGEST_SEPARATOR) : text;
  const int k = shape ? digested_index(name, strcspn(name, "\n")) : -1;
  if (!shape)
    return zeno_fail_at(error, ZENO_ERR_SYNTAX, digest_path, line, 1, "",
                        "not a line of a run's digest: %zu hex digits, two spaces and the name "
                        "of a file of the run",
                        hex_length);
  if (k < 0 || listed[k])
    return zeno_fail_at(error, ZENO_ERR_SYNTAX, digest_path, line, (int)(name - text) + 1, "", "%s",
                        k < 0 ? "not a file of a run directory" : "a file listed twice");
  listed[k] = true;
  char *path = zeno_io_path_join(dir, DIGESTED[k]);
  if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  FILE *f;
  zeno_status st = run_dir_open(path, &f, error);
  char hex[ZENO_SHA256_HEX_SIZE];
  if (st == ZENO_OK) {
    errno = 0;
    st = run_dir_digest_fd(fileno(f), hex, error);
    if (st == ZENO_ERR_IO || st == ZENO_ERR_RANGE)
      zeno_fail_at(error, st, path, 0, 0, "", "cannot read '%s': %s", path,
                   st == ZENO_ERR_RANGE ? "larger than a run directory's file may be"
                                        : strerror(errno));
    fclose(f);
  }
  if (st == ZENO_OK && strncmp(hex, text, hex_length) != 0)
    st = zeno_fail_at(error, ZENO_ERR_SYNTAX, path, 0, 0, "",
                      "not the file the run wrote: its SHA-256 is not the one line %d of '%s' "
                      "records (the file was changed, cut or replaced)",
                      line, digest_path);
  free(path);
  return st;
}

// A file of the run that the digest does not list is another run's.
static zeno_status check_unlisted(const char *dir, const char *digest_path,
                                  const bool listed[DIGESTED_COUNT], zeno_error *error) {
  zeno_status st = ZENO_OK;
  for (size_t k = 0; st == ZENO_OK && k < DIGESTED_COUNT; k++) {
    if (listed[k]) continue;
    char *path = zeno_io_path_join(dir, DIGESTED[k]);
    if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
    struct stat info;
    if (lstat(path, &info) == 0)
      st = zeno_fail_at(error, ZENO_ERR_SYNTAX, path, 0, 0, "",
                        "not a file of the run: '%s' does not list it", digest_path);
    free(path);
  }
  return st;
}

// The digest's text (at most DIGEST_MAX_BYTES) into a new string.
static zeno_status read_digest(const char *path, char **text, zeno_error *error) {
  FILE *f;
  zeno_status st = run_dir_open(path, &f, error);
  if (st != ZENO_OK) return st;
  *text = malloc(DIGEST_MAX_BYTES + 2);
  const size_t n = *text ? fread(*text, 1, DIGEST_MAX_BYTES + 1, f) : 0;
  if (*text == NULL) st = zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  else if (ferror(f))
    st = zeno_fail_at(error, ZENO_ERR_IO, path, 0, 0, "", "cannot read '%s': %s", path,
                      strerror(errno));
  else if (n > DIGEST_MAX_BYTES || memchr(*text, '\0', n) != NULL)
    st = zeno_fail_at(error, ZENO_ERR_SYNTAX, path, 0, 0, "",
                      "not a run's digest: more than %d bytes, or a NUL byte", DIGEST_MAX_BYTES);
  if (*text) (*text)[n] = '\0';
  fclose(f);
  return st;
}

zeno_status run_dir_digest_check(const char *dir, bool *found, zeno_error *error) {
  *found = false;
  char *path = zeno_io_path_join(dir, ZENO_RUN_DIR_DIGEST);
  if (path == NULL) return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  struct stat info;
  if (lstat(path, &info) != 0 && errno == ENOENT) {
    free(path);
    return ZENO_OK;  // a run of an older zeno: checked without a digest
  }
  *found = true;
  char *text = NULL;
  zeno_status st = read_digest(path, &text, error);
  bool listed[DIGESTED_COUNT] = {false};
  int line = 0;
  for (const char *p = text; st == ZENO_OK && p && *p;) {
    st = check_line(dir, path, ++line, p, listed, error);
    p += strcspn(p, "\n");
    p += *p == '\n';
  }
  if (st == ZENO_OK) st = check_unlisted(dir, path, listed, error);
  free(text);
  free(path);
  return st;
}
