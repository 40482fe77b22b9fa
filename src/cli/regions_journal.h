// The journal of `zeno regions --out DIR`: DIR/regions.journal holds the
// sweep's signature on its first line, then every finished row as region
// CSV rows (zeno_io_region_row) closed by a line "done,IY". A killed sweep
// restarted with the same command reads the finished rows back and appends
// the rest; a row cut short by the kill is dropped.
#ifndef ZENO_CLI_REGIONS_JOURNAL_H
#define ZENO_CLI_REGIONS_JOURNAL_H

#include <stdio.h>

#include "cli_common.h"

/// Room for a sweep's signature.
#define REGIONS_SIGNATURE_SIZE 2048

typedef struct regions_journal {
  FILE *file; ///< open for appending, NULL before open
  char *path; ///< DIR/regions.journal
} regions_journal;

/// Everything that decides the points' results, on one line: the zeno
/// version, a hash of the scene file, the axes, the overrides and the
/// settings. A journal is reused only by a sweep with the same signature.
void regions_journal_signature(const char *scene_path, const cli_overrides *overrides,
                               const zeno_regions_def *def, char *out, size_t size);

/// Creates DIR (with parents) and opens DIR/regions.journal. An existing
/// journal with this signature is resumed: its finished rows are copied into
/// grid (row iy at iy * x.count) with done[iy] set, *resumed_rows counts
/// them. One of another sweep is refused (CLI_EXIT_USAGE). Returns
/// CLI_CONTINUE or an exit code (reported).
int regions_journal_open(regions_journal *journal, const char *dir, const char *signature,
                         const zeno_regions_def *def, zeno_region_point *grid,
                         unsigned char *done, size_t *resumed_rows);

/// Appends finished row iy (count points) and flushes it to the file.
/// Returns CLI_CONTINUE or CLI_EXIT_RUNTIME (reported).
int regions_journal_append(regions_journal *journal, size_t iy,
                           const zeno_region_point *row, size_t count);

/// Closes the journal; a failing close turns CLI_EXIT_OK into
/// CLI_EXIT_RUNTIME (reported). Returns the resulting code.
int regions_journal_close(regions_journal *journal, int code);

#endif
