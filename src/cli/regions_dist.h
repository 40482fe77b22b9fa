// How `zeno regions` spreads rows over processes. The plain `zeno` program
// links regions_serial.c (one process: rank 0 of 1); `zeno-mpi` links
// regions_mpi.c, which hands rows out over Open MPI ranks and gathers the
// finished rows on rank 0, the only rank that writes files and progress.
// Rows are assigned cyclically (row k of the rows still to do goes to rank
// k mod size), which balances the strip-shaped cost of region maps.
#ifndef ZENO_CLI_REGIONS_DIST_H
#define ZENO_CLI_REGIONS_DIST_H

#include <stdbool.h>
#include <stddef.h>

#include "zeno/regions.h"

typedef struct regions_dist {
  int rank;  ///< this process, 0 writes the output
  int size;  ///< processes
  void *impl; ///< implementation state
} regions_dist;

/// Starts the distribution (MPI_Init for zeno-mpi). Returns false when it
/// cannot start (message printed).
bool regions_dist_start(regions_dist *d, int *argc, char ***argv);

/// Ends it (MPI_Finalize); `code` is this process's exit code. Returns the
/// exit code every process should use (rank 0's, shared).
int regions_dist_end(regions_dist *d, int code);

/// Stops every process at once after a failure on one (MPI_Abort).
void regions_dist_abort(regions_dist *d, int code);

/// Rank 0's `done` flags (rows finished by an earlier, resumed run) are
/// copied to every rank.
bool regions_dist_share_done(regions_dist *d, unsigned char *done, size_t rows);

/// Ranks other than 0: hands a finished row to rank 0. Row buffers of
/// `count` points.
bool regions_dist_send_row(regions_dist *d, size_t iy, const zeno_region_point *row,
                           size_t count);

/// Rank 0: receives a row finished by another rank into row[0..count-1]
/// and returns true with *iy set; with wait false returns false at once
/// when none is pending.
bool regions_dist_receive_row(regions_dist *d, bool wait, size_t *iy,
                              zeno_region_point *row, size_t count);

#endif
