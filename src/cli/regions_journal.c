// The journal of `zeno regions --out DIR` (see regions_journal.h): the
// sweep's SHA-256 signature, checksummed lines, and the directory lock that
// keeps a second sweep out.
#define _DEFAULT_SOURCE  // O_NOFOLLOW
#include "regions_journal.h"

#include <errno.h>
#include <fcntl.h>
#include <nettle/sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static const char *const COMMAND = "regions";
static const char *const JOURNAL_NAME = "regions.journal";
/// First line of a journal: this, then the sweep's digest.
/// v3: rows gained the on_breakpoint column; v4: the region_name column,
/// and theorem empty when none decides. An older journal belongs to
/// another sweep.
static const char *const JOURNAL_MAGIC = "# zeno regions journal v4 sha256 ";
/// A journal line that closes row IY: "done,IY".
static const char *const JOURNAL_DONE = "done,";

/// Longest journal line (a region row with its error message is at most
/// about 500 characters).
#define LINE_SIZE 1024
/// Hex digits of a line's checksum (the first 8 bytes of its SHA-256).
#define CHECK_DIGITS 16
/// Permissions of a new journal before the umask.
#define JOURNAL_MODE 0666

/* ---------- digests ---------- */

static void hex(const uint8_t *bytes, size_t n, char *out) {
  static const char DIGITS[] = "0123456789abcdef";
  for (size_t k = 0; k < n; k++) {
    out[2 * k] = DIGITS[bytes[k] >> 4];
    out[2 * k + 1] = DIGITS[bytes[k] & 15];
  }
  out[2 * n] = '\0';
}

// A field of the signature: its length, then its bytes, so that no two
// different lists of fields hash the same.
static void digest_field(struct sha256_ctx *ctx, const char *text, size_t length) {
  char prefix[32];
  const int n = snprintf(prefix, sizeof prefix, "%zu:", length);
  sha256_update(ctx, (size_t)n, (const uint8_t *)prefix);
  sha256_update(ctx, length, (const uint8_t *)text);
}

void regions_journal_signature(const char *scene_text, size_t scene_length,
                               const cli_overrides *overrides, const zeno_regions_def *d,
                               char out[REGIONS_SIGNATURE_SIZE]) {
  struct sha256_ctx ctx;
  sha256_init(&ctx);
  char settings[1024];
  const int n = snprintf(
      settings, sizeof settings,
      "zeno %s; x %s=%.17g:%.17g:%zu; y %s=%.17g:%.17g:%zu; samples %zu; intervals %zu; "
      "breakpoint_tol %.17g; endpoint_delta %.17g; fixed point on a breakpoint %.17g tie "
      "%.17g; mc %d seed %llu full %d",
      zeno_version(), d->x.path, d->x.lo, d->x.hi, d->x.count, d->y.path, d->y.lo,
      d->y.hi, d->y.count, d->analysis.maps.samples, d->analysis.partition_intervals,
      d->analysis.maps.breakpoint_tol, d->analysis.maps.endpoint_delta,
      d->analysis.maps.fixed_point_breakpoint_tol, d->analysis.maps.fixed_point_tie_margin,
      d->mc_runs,
      d->mc_seed, d->mc_full ? 1 : 0);
  digest_field(&ctx, settings, (size_t)n < sizeof settings ? (size_t)n : sizeof settings);
  digest_field(&ctx, scene_text, scene_length);
  for (size_t i = 0; i < overrides->count; i++)
    digest_field(&ctx, overrides->items[i], strlen(overrides->items[i]));
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, sizeof digest, digest);
  hex(digest, sizeof digest, out);
}

// The checksum of a journal line's text (without its newline).
static void line_check(const char *text, size_t length, char out[CHECK_DIGITS + 1]) {
  struct sha256_ctx ctx;
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_init(&ctx);
  sha256_update(&ctx, length, (const uint8_t *)text);
  sha256_digest(&ctx, sizeof digest, digest);
  hex(digest, CHECK_DIGITS / 2, out);
}

/* ---------- reading ---------- */

static bool point_matches(const zeno_regions_def *d, const zeno_region_point *p) {
  return p->ix < d->x.count && p->iy < d->y.count &&
         p->x == zeno_region_axis_value(&d->x, p->ix) &&
         p->y == zeno_region_axis_value(&d->y, p->iy);
}

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

// Reads the rows an earlier run finished. *keep is the length of the part
// of the file to keep (up to the last finished row): the rest (a row cut
// short, a line that fails its checksum and all after it) is recomputed.
static int read_journal(const regions_journal *j, FILE *f, const char *sig,
                        const zeno_regions_def *d, zeno_region_point *grid,
                        unsigned char *done, size_t *resumed_rows, long *keep) {
  char line[LINE_SIZE];
  const size_t magic = strlen(JOURNAL_MAGIC);
  if (fgets(line, sizeof line, f) == NULL || strncmp(line, JOURNAL_MAGIC, magic) != 0 ||
      strncmp(line + magic, sig, strlen(sig)) != 0 || line[magic + strlen(sig)] != '\n') {
    cli_error("%s: '%s' belongs to another sweep (scene, axes or settings differ); "
              "remove it or choose another --out",
              COMMAND, j->path);
    return CLI_EXIT_USAGE;
  }
  *keep = ftell(f);
  const size_t nx = d->x.count;
  unsigned char *seen = calloc(nx, 1);
  if (seen == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  size_t row = SIZE_MAX, seen_count = 0;  // SIZE_MAX: no row under way
  long number = 1;
  char *text;
  while (fgets(line, sizeof line, f) != NULL) {
    number++;
    if (!checked_line(line, &text)) {
      if (strchr(line, '\n') != NULL || !feof(f))
        cli_error("note: %s:%ld fails its checksum; the sweep recomputes from there",
                  j->path, number);
      break;
    }
    if (strncmp(text, JOURNAL_DONE, strlen(JOURNAL_DONE)) == 0) {
      char *end;
      const unsigned long iy = strtoul(text + strlen(JOURNAL_DONE), &end, 10);
      if (end != text + strlen(JOURNAL_DONE) && *end == '\0' && iy == row &&
          seen_count == nx) {
        if (!done[iy]) (*resumed_rows)++;
        done[iy] = 1;
        *keep = ftell(f);
      }
      row = SIZE_MAX;
      continue;
    }
    zeno_region_point p;
    if (zeno_io_region_parse(text, &p, NULL) != ZENO_OK || !point_matches(d, &p)) break;
    if (p.iy != row) {
      row = p.iy;
      seen_count = 0;
      memset(seen, 0, nx);
    }
    if (!seen[p.ix]) seen_count++;
    seen[p.ix] = 1;
    grid[p.iy * nx + p.ix] = p;
  }
  free(seen);
  return CLI_CONTINUE;
}

/* ---------- writing ---------- */

static int write_failed(const regions_journal *j) {
  cli_error("%s: cannot write '%s': %s", COMMAND, j->path, strerror(errno));
  return CLI_EXIT_RUNTIME;
}

// Writes one line with its checksum in front.
static void put_line(FILE *f, const char *text) {
  char check[CHECK_DIGITS + 1];
  line_check(text, strlen(text), check);
  fprintf(f, "%s %s\n", check, text);
}

// Opens the journal for reading and appending without following a link
// planted in its place; a new one is created.
static FILE *open_journal(const regions_journal *j, bool *created) {
  int fd = open(j->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
  *created = false;
  if (fd < 0 && errno == ENOENT) {
    fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, JOURNAL_MODE);
    *created = fd >= 0;
  }
  FILE *f = fd >= 0 ? fdopen(fd, "r+") : NULL;
  if (fd >= 0 && f == NULL) close(fd);
  return f;
}

int regions_journal_open(regions_journal *j, const char *dir, const char *sig,
                         const zeno_regions_def *d, zeno_region_point *grid,
                         unsigned char *done, size_t *resumed_rows) {
  zeno_error err;
  if (zeno_io_make_directories(dir, &err) != ZENO_OK ||
      (j->lock = zeno_io_dir_lock_take(dir, &err)) == NULL) {
    cli_error("%s: %s", COMMAND, err.message);
    return CLI_EXIT_RUNTIME;
  }
  j->path = zeno_io_path_join(dir, JOURNAL_NAME);
  if (j->path == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  bool created;
  FILE *f = open_journal(j, &created);
  if (f == NULL) {
    cli_error("%s: cannot open '%s': %s%s", COMMAND, j->path, strerror(errno),
              errno == ELOOP ? " (a link; the journal must be a file of its own)" : "");
    return CLI_EXIT_RUNTIME;
  }
  j->file = f;
  if (created) {
    fprintf(f, "%s%s\n", JOURNAL_MAGIC, sig);
    return fflush(f) != 0 || ferror(f) ? write_failed(j) : CLI_CONTINUE;
  }
  long keep = 0;
  const int code = read_journal(j, f, sig, d, grid, done, resumed_rows, &keep);
  if (code != CLI_CONTINUE) return code;
  // Drop what is not kept, then append after the last finished row.
  if (fflush(f) != 0 || ftruncate(fileno(f), (off_t)keep) != 0 ||
      fseek(f, keep, SEEK_SET) != 0) {
    cli_error("%s: cannot rewrite '%s': %s", COMMAND, j->path, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

int regions_journal_append(regions_journal *j, size_t iy, const zeno_region_point *row,
                           size_t count) {
  char text[LINE_SIZE];
  for (size_t ix = 0; ix < count; ix++) {
    FILE *m = fmemopen(text, sizeof text, "w");
    if (m == NULL) return write_failed(j);
    const bool written = zeno_io_region_row(m, &row[ix], NULL) == ZENO_OK;
    if (fclose(m) != 0 || !written) return write_failed(j);
    text[strcspn(text, "\n")] = '\0';
    put_line(j->file, text);
  }
  snprintf(text, sizeof text, "%s%zu", JOURNAL_DONE, iy);
  put_line(j->file, text);
  if (fflush(j->file) != 0 || ferror(j->file)) return write_failed(j);
  return CLI_CONTINUE;
}

int regions_journal_close(regions_journal *j, int code) {
  if (j->file && fclose(j->file) != 0 && code == CLI_EXIT_OK) code = write_failed(j);
  zeno_io_dir_lock_release(j->lock);
  free(j->path);
  j->file = NULL;
  j->path = NULL;
  j->lock = NULL;
  return code;
}
