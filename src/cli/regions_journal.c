// The journal of `zeno regions --out DIR` (see regions_journal.h).
#include "regions_journal.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static const char *const COMMAND = "regions";
static const char *const JOURNAL_NAME = "regions.journal";
/// First line of a journal; the sweep's signature follows on the same line.
static const char *const JOURNAL_MAGIC = "# zeno regions journal v1";
/// A journal line that closes row IY: "done,IY".
static const char *const JOURNAL_DONE = "done,";

/// Longest journal line (a region row is about 300 characters).
#define LINE_SIZE 1024
/// FNV-1a (64 bit) of the scene file: part of the signature.
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t hash_file(const char *path) {
  uint64_t h = FNV_OFFSET;
  FILE *f = fopen(path, "rb");
  if (f == NULL) return h;
  int c;
  while ((c = fgetc(f)) != EOF) h = (h ^ (uint64_t)(unsigned char)c) * FNV_PRIME;
  fclose(f);
  return h;
}

void regions_journal_signature(const char *scene_path, const cli_overrides *overrides,
                               const zeno_regions_def *d, char *out, size_t size) {
  int n = snprintf(out, size,
                   "%s; zeno %s; scene %016llx; x %s=%.17g:%.17g:%zu; y %s=%.17g:%.17g:%zu; "
                   "samples %zu; intervals %zu; breakpoint_tol %.17g; endpoint_delta %.17g; "
                   "mc %d seed %llu full %d",
                   JOURNAL_MAGIC, zeno_version(), (unsigned long long)hash_file(scene_path),
                   d->x.path, d->x.lo, d->x.hi, d->x.count, d->y.path, d->y.lo, d->y.hi,
                   d->y.count, d->analysis.maps.samples, d->analysis.partition_intervals,
                   d->analysis.maps.breakpoint_tol, d->analysis.maps.endpoint_delta,
                   d->mc_runs, d->mc_seed, d->mc_full ? 1 : 0);
  for (size_t i = 0; i < overrides->count && n > 0 && (size_t)n < size; i++)
    n += snprintf(out + n, size - (size_t)n, "; set %s", overrides->items[i]);
}

static bool point_matches(const zeno_regions_def *d, const zeno_region_point *p) {
  return p->ix < d->x.count && p->iy < d->y.count &&
         p->x == zeno_region_axis_value(&d->x, p->ix) &&
         p->y == zeno_region_axis_value(&d->y, p->iy);
}

// Reads the rows an earlier run finished. *keep is the length of the part
// of the file to keep (up to the last finished row).
static int read_journal(const regions_journal *j, FILE *f, const char *sig,
                        const zeno_regions_def *d, zeno_region_point *grid,
                        unsigned char *done, size_t *resumed_rows, long *keep) {
  char first[REGIONS_SIGNATURE_SIZE + 2], line[LINE_SIZE];
  if (fgets(first, sizeof first, f) == NULL || strncmp(first, sig, strlen(sig)) != 0 ||
      (first[strlen(sig)] != '\n' && first[strlen(sig)] != '\0')) {
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
  while (fgets(line, sizeof line, f) != NULL) {
    if (strchr(line, '\n') == NULL) break;  // a line cut short by the kill
    if (strncmp(line, JOURNAL_DONE, strlen(JOURNAL_DONE)) == 0) {
      char *end;
      const unsigned long iy = strtoul(line + strlen(JOURNAL_DONE), &end, 10);
      if (end != line + strlen(JOURNAL_DONE) && iy == row && seen_count == nx) {
        if (!done[iy]) (*resumed_rows)++;
        done[iy] = 1;
        *keep = ftell(f);
      }
      row = SIZE_MAX;
      continue;
    }
    zeno_region_point p;
    if (zeno_io_region_parse(line, &p, NULL) != ZENO_OK || !point_matches(d, &p)) break;
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

int regions_journal_open(regions_journal *j, const char *dir, const char *sig,
                         const zeno_regions_def *d, zeno_region_point *grid,
                         unsigned char *done, size_t *resumed_rows) {
  zeno_error err;
  if (zeno_io_make_directories(dir, &err) != ZENO_OK) {
    cli_error("%s: %s", COMMAND, err.message);
    return CLI_EXIT_RUNTIME;
  }
  j->path = zeno_io_path_join(dir, JOURNAL_NAME);
  if (j->path == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  FILE *f = fopen(j->path, "r+");
  if (f != NULL) {
    long keep = 0;
    const int code = read_journal(j, f, sig, d, grid, done, resumed_rows, &keep);
    // Drop a row cut short by the kill, then append after the last
    // finished row.
    if (code == CLI_CONTINUE &&
        (fflush(f) != 0 || ftruncate(fileno(f), (off_t)keep) != 0 ||
         fseek(f, keep, SEEK_SET) != 0)) {
      fclose(f);
      cli_error("%s: cannot rewrite '%s': %s", COMMAND, j->path, strerror(errno));
      return CLI_EXIT_RUNTIME;
    }
    if (code != CLI_CONTINUE) {
      fclose(f);
      return code;
    }
    j->file = f;
    return CLI_CONTINUE;
  }
  j->file = fopen(j->path, "w");
  if (j->file == NULL || fprintf(j->file, "%s\n", sig) < 0 || fflush(j->file) != 0) {
    cli_error("%s: cannot write '%s': %s", COMMAND, j->path, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

int regions_journal_append(regions_journal *j, size_t iy, const zeno_region_point *row,
                           size_t count) {
  for (size_t ix = 0; ix < count; ix++) zeno_io_region_row(j->file, &row[ix], NULL);
  fprintf(j->file, "%s%zu\n", JOURNAL_DONE, iy);
  if (fflush(j->file) != 0 || ferror(j->file)) {
    cli_error("%s: cannot write '%s': %s", COMMAND, j->path, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

int regions_journal_close(regions_journal *j, int code) {
  if (j->file && fclose(j->file) != 0 && code == CLI_EXIT_OK) {
    cli_error("%s: cannot write '%s': %s", COMMAND, j->path, strerror(errno));
    code = CLI_EXIT_RUNTIME;
  }
  free(j->path);
  j->file = NULL;
  j->path = NULL;
  return code;
}
