// The journal of a grid run with --out DIR (see grid_journal.h): the run's
// SHA-256 signature, checksummed lines, and the directory lock that keeps a
// second run out.
#define _DEFAULT_SOURCE  // O_NOFOLLOW
#include "grid_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "zeno/sha256.h"

/// A journal line that closes row IY: "done,IY".
static const char *const JOURNAL_DONE = "done,";

/// Longest journal line (a region row with its error message is at most
/// about 500 characters, a sweep row less).
#define LINE_SIZE 1024
/// Hex digits of a line's checksum (the first 8 bytes of its SHA-256).
#define CHECK_DIGITS 16
/// Permissions of a new journal before the umask.
#define JOURNAL_MODE 0666

/* ---------- digests ---------- */

// A field of the signature: its length, then its bytes, so that no two
// different lists of fields hash the same.
static void digest_field(zeno_sha256 *hash, const char *text, size_t length) {
  char prefix[32];
  const int n = snprintf(prefix, sizeof prefix, "%zu:", length);
  zeno_sha256_update(hash, prefix, (size_t)n);
  zeno_sha256_update(hash, text, length);
}

int grid_journal_signature(const char *settings, const char *scene_text, size_t scene_length,
                           const cli_overrides *overrides, char out[GRID_SIGNATURE_SIZE]) {
  zeno_sha256 hash;
  zeno_error err;
  if (zeno_sha256_begin(&hash, &err) != ZENO_OK) return cli_output_error(&err);
  digest_field(&hash, settings, strlen(settings));
  digest_field(&hash, scene_text, scene_length);
  for (size_t i = 0; i < overrides->count; i++)
    digest_field(&hash, overrides->items[i], strlen(overrides->items[i]));
  unsigned char digest[ZENO_SHA256_BYTES];
  zeno_sha256_finish(&hash, digest);
  zeno_sha256_hex(digest, sizeof digest, out);
  return CLI_CONTINUE;
}

// The checksum of a journal line's text (without its newline). nettle is
// loaded: every journal is signed before it is opened.
static void line_check(const char *text, size_t length, char out[CHECK_DIGITS + 1]) {
  zeno_sha256 hash;
  unsigned char digest[ZENO_SHA256_BYTES];
  zeno_sha256_begin(&hash, NULL);
  zeno_sha256_update(&hash, text, length);
  zeno_sha256_finish(&hash, digest);
  zeno_sha256_hex(digest, CHECK_DIGITS / 2, out);
}

/* ---------- files of checksummed lines ---------- */

// A journal line "CHECK TEXT\n": *text is TEXT when CHECK is its checksum.
// False for a line cut short by a kill, edited, or appended by hand.
static bool checked_line(char *line, char **text) {
  const size_t length = strlen(line);
  if (length < CHECK_DIGITS + 2 || line[length - 1] != '\n' || line[CHECK_DIGITS] != ' ')
    return false;
  line[length - 1] = '\0';
  *text = line + CHECK_DIGITS + 1;
  char want[CHECK_DIGITS + 1];
  line_check(*text, strlen(*text), want);
  return memcmp(line, want, CHECK_DIGITS) == 0;
}

static int write_failed(const journal_lines *j) {
  cli_error("%s: cannot write '%s': %s", j->command, j->path, strerror(errno));
  return CLI_EXIT_RUNTIME;
}

// Opens the journal for reading and appending without following a link
// planted in its place; a new one is created. The open does not wait, and
// anything but a regular file is refused (*irregular): a FIFO under the
// name hung the run for ever at its first read.
static FILE *open_journal(const char *path, bool *created, bool *irregular) {
  int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  *created = *irregular = false;
  if (fd < 0 && errno == ENOENT) {
    fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, JOURNAL_MODE);
    *created = fd >= 0;
  }
  struct stat st;
  if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
    *irregular = true;
    close(fd);
    return NULL;
  }
  const int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
  FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 ? fdopen(fd, "r+") : NULL;
  if (fd >= 0 && f == NULL) close(fd);
  return f;
}

// Whether the journal holds no more than the start of this run's first
// line, the header (magic and signature) without its newline: empty, or
// cut short. Leaves the file at its start.
static bool header_cut_short(FILE *f, const char *magic, const char *sig) {
  char line[LINE_SIZE];
  const bool read = fgets(line, sizeof line, f) != NULL;
  const bool at_end = fgetc(f) == EOF && feof(f);
  rewind(f);
  if (!read) return at_end;
  const size_t n = strlen(line), magic_length = strlen(magic);
  if (!at_end || strchr(line, '\n') != NULL) return false;
  char header[LINE_SIZE];
  snprintf(header, sizeof header, "%s%s", magic, sig);
  return n <= magic_length + strlen(sig) && strncmp(line, header, n) == 0;
}

// Whether the journal's first line is this run's header, MAGIC SIG. Leaves
// the file at its start.
static bool own_header(FILE *f, const char *magic, const char *sig) {
  char line[LINE_SIZE];
  const size_t magic_length = strlen(magic);
  const bool own = fgets(line, sizeof line, f) != NULL && strncmp(line, magic, magic_length) == 0 &&
                   strncmp(line + magic_length, sig, strlen(sig)) == 0 &&
                   line[magic_length + strlen(sig)] == '\n';
  rewind(f);
  return own;
}

int journal_lines_open(journal_lines *j, const char *dir, const char *name, const char *magic,
                       const char *sig, bool *created) {
  j->file = NULL;
  j->line = 1;
  j->keep = 0;
  j->path = zeno_io_path_join(dir, name);
  if (j->path == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  bool irregular;
  FILE *f = open_journal(j->path, created, &irregular);
  if (irregular) {
    cli_error(
        "%s: cannot open '%s': not a regular file (a FIFO, a device or a directory); the "
        "journal must be a regular file or absent",
        j->command, j->path);
    return CLI_EXIT_RUNTIME;
  }
  if (f == NULL) {
    cli_error("%s: cannot open '%s': %s%s", j->command, j->path, strerror(errno),
              errno == ELOOP ? " (a link; the journal must be a file of its own)" : "");
    return CLI_EXIT_RUNTIME;
  }
  j->file = f;
  if (!*created &&
      (header_cut_short(f, magic, sig) || (j->overwrite && !own_header(f, magic, sig)))) {
    // Empty, or its first line cut short (a full disk or a kill as the run
    // began): nothing of a run is in it, and it is begun again; so is
    // another run's with --overwrite.
    if (ftruncate(fileno(f), 0) != 0 || fseek(f, 0, SEEK_SET) != 0) {
      cli_error("%s: cannot rewrite '%s': %s", j->command, j->path, strerror(errno));
      return CLI_EXIT_RUNTIME;
    }
    *created = true;
  }
  if (*created) {
    fprintf(f, "%s%s\n", magic, sig);
    return fflush(f) != 0 || ferror(f) ? write_failed(j) : CLI_CONTINUE;
  }
  if (!own_header(f, magic, sig)) {
    cli_error(
        "%s: '%s' belongs to %s; choose another --out, or add --overwrite to replace that run's "
        "files",
        j->command, j->path, j->other_run);
    return CLI_EXIT_USAGE;
  }
  char line[LINE_SIZE];
  if (fgets(line, sizeof line, f) == NULL) return write_failed(j);
  j->keep = ftell(f);
  return CLI_CONTINUE;
}

char *journal_lines_next(journal_lines *j, char *line, size_t size) {
  char *text;
  if (fgets(line, (int)size, j->file) == NULL) return NULL;
  j->line++;
  if (checked_line(line, &text)) return text;
  // A line cut short at the end is a kill's; any other is noted.
  if (strchr(line, '\n') != NULL || !feof(j->file))
    cli_error("note: %s:%ld fails its checksum; %s", j->path, j->line, j->redo);
  return NULL;
}

void journal_lines_accept(journal_lines *j) { j->keep = ftell(j->file); }

int journal_lines_truncate(journal_lines *j) {
  FILE *f = j->file;
  if (fflush(f) != 0 || ftruncate(fileno(f), (off_t)j->keep) != 0 ||
      fseek(f, j->keep, SEEK_SET) != 0) {
    cli_error("%s: cannot rewrite '%s': %s", j->command, j->path, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

void journal_lines_put(journal_lines *j, const char *text) {
  char check[CHECK_DIGITS + 1];
  line_check(text, strlen(text), check);
  fprintf(j->file, "%s %s\n", check, text);
}

int journal_lines_flush(journal_lines *j) {
  return fflush(j->file) != 0 || ferror(j->file) ? write_failed(j) : CLI_CONTINUE;
}

int journal_lines_close(journal_lines *j, int code) {
  if (j->file && fclose(j->file) != 0 && code == CLI_EXIT_OK) code = write_failed(j);
  free(j->path);
  j->file = NULL;
  j->path = NULL;
  return code;
}

/* ---------- the rows ---------- */

// Reads the rows an earlier run finished. What is kept of the file ends
// at the last finished row: the rest (a row cut short, a line that fails
// its checksum and all after it) is recomputed. The points of a row
// collect in `pending` until its "done" line.
static int read_journal(grid_journal *j, char *grid, unsigned char *done, size_t *resumed_rows) {
  const grid_journal_format *fm = j->format;
  char line[LINE_SIZE];
  const size_t nx = fm->nx, size = fm->point_size;
  unsigned char *seen = calloc(nx, 1);
  char *pending = malloc(nx * size), *point = malloc(size);
  if (seen == NULL || pending == NULL || point == NULL) {
    free(seen), free(pending), free(point);
    return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  }
  size_t row = SIZE_MAX, seen_count = 0;  // SIZE_MAX: no row under way
  char *text;
  while ((text = journal_lines_next(&j->lines, line, sizeof line)) != NULL) {
    if (strncmp(text, JOURNAL_DONE, strlen(JOURNAL_DONE)) == 0) {
      char *end;
      const unsigned long r = strtoul(text + strlen(JOURNAL_DONE), &end, 10);
      if (end != text + strlen(JOURNAL_DONE) && *end == '\0' && r == row && seen_count == nx) {
        memcpy(grid + r * nx * size, pending, nx * size);
        if (!done[r]) (*resumed_rows)++;
        done[r] = 1;
        journal_lines_accept(&j->lines);
      }
      row = SIZE_MAX;
      continue;
    }
    size_t ix, r;
    if (!fm->read(text, point, &ix, &r, fm->context) || ix >= nx || r >= fm->rows) break;
    if (r != row) {
      row = r;
      seen_count = 0;
      memset(seen, 0, nx);
    }
    if (!seen[ix]) seen_count++;
    seen[ix] = 1;
    memcpy(pending + ix * size, point, size);
  }
  free(seen), free(pending), free(point);
  return CLI_CONTINUE;
}

int grid_journal_open(grid_journal *j, const grid_journal_format *format, const char *dir,
                      const char *sig, bool overwrite, void *grid, unsigned char *done,
                      size_t *resumed_rows) {
  j->format = format;
  j->lines = (journal_lines){.command = format->command,
                             .other_run = "another sweep (scene, axes or settings differ)",
                             .redo = "the sweep recomputes from there",
                             .overwrite = overwrite};
  zeno_error err;
  if (zeno_io_make_directories(dir, &err) != ZENO_OK ||
      (j->lock = zeno_io_dir_lock_take(dir, &err)) == NULL) {
    cli_error("%s: %s", format->command, err.message);
    return CLI_EXIT_RUNTIME;
  }
  bool created;
  int code = journal_lines_open(&j->lines, dir, format->name, format->magic, sig, &created);
  if (code != CLI_CONTINUE || created) return code;
  code = read_journal(j, grid, done, resumed_rows);
  // Drop what is not kept, then append after the last finished row.
  return code == CLI_CONTINUE ? journal_lines_truncate(&j->lines) : code;
}

int grid_journal_append(grid_journal *j, size_t row, const void *points) {
  const grid_journal_format *fm = j->format;
  char text[LINE_SIZE];
  for (size_t ix = 0; ix < fm->nx; ix++) {
    FILE *m = fmemopen(text, sizeof text, "w");
    if (m == NULL) return write_failed(&j->lines);
    const bool written = fm->write(m, (const char *)points + ix * fm->point_size, row,
                                   fm->context) == ZENO_OK;
    if (fclose(m) != 0 || !written) return write_failed(&j->lines);
    text[strcspn(text, "\n")] = '\0';
    journal_lines_put(&j->lines, text);
  }
  snprintf(text, sizeof text, "%s%zu", JOURNAL_DONE, row);
  journal_lines_put(&j->lines, text);
  return journal_lines_flush(&j->lines);
}

int grid_journal_close(grid_journal *j, int code) {
  code = journal_lines_close(&j->lines, code);
  zeno_io_dir_lock_release(j->lock);
  j->lock = NULL;
  return code;
}
