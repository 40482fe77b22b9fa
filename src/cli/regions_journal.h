// The journal of `zeno regions --out DIR`: DIR/regions.journal holds the
// sweep's signature (a SHA-256 of the scene text as read, the overrides,
// the axes and settings, and the zeno version) on its first line, then
// every finished row as region CSV rows (zeno_io_region_row) closed by a
// line "done,IY", each line behind the checksum of its text. A killed sweep
// restarted with the same command reads the finished rows back and appends
// the rest; a row cut short by the kill, or a line edited or appended by
// hand (its checksum fails), is dropped with what follows it and
// recomputed. While a sweep runs it holds the directory's lock: a second
// sweep into the same --out is refused.
#ifndef ZENO_CLI_REGIONS_JOURNAL_H
#define ZENO_CLI_REGIONS_JOURNAL_H

#include <stdio.h>

#include "cli_common.h"

/// Room for a sweep's signature: a SHA-256 in hex.
#define REGIONS_SIGNATURE_SIZE 65

typedef struct regions_journal {
  FILE *file; ///< open for appending, NULL before open
  char *path; ///< DIR/regions.journal
  zeno_io_dir_lock *lock; ///< DIR's lock, held until close
} regions_journal;

/// Everything that decides the points' results, digested: the zeno version,
/// the scene file's text as read (once: a pipe works), the overrides, the
/// axes and the settings, each with its length, none cut short. A journal
/// is reused only by a sweep with the same signature.
void regions_journal_signature(const char *scene_text, size_t scene_length,
                               const cli_overrides *overrides, const zeno_regions_def *def,
                               char out[REGIONS_SIGNATURE_SIZE]);

/// Creates DIR (with parents), takes its lock (another sweep writing there
/// is refused: CLI_EXIT_RUNTIME) and opens DIR/regions.journal, never
/// through a link. An existing journal with this signature is resumed: its
/// finished rows are copied into grid (row iy at iy * x.count) with
/// done[iy] set, *resumed_rows counts them. One of another sweep is refused
/// (CLI_EXIT_USAGE). Returns CLI_CONTINUE or an exit code (reported).
int regions_journal_open(regions_journal *journal, const char *dir, const char *signature,
                         const zeno_regions_def *def, zeno_region_point *grid,
                         unsigned char *done, size_t *resumed_rows);

/// Appends finished row iy (count points) and flushes it to the file.
/// Returns CLI_CONTINUE or CLI_EXIT_RUNTIME (reported).
int regions_journal_append(regions_journal *journal, size_t iy,
                           const zeno_region_point *row, size_t count);

/// Closes the journal and releases the directory; a failing close turns
/// CLI_EXIT_OK into CLI_EXIT_RUNTIME (reported). Returns the resulting code.
int regions_journal_close(regions_journal *journal, int code);

#endif
