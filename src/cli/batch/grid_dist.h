// How `zeno regions` and `zeno sweep` spread rows over processes
// (grid_rows.h). The plain `zeno` program links grid_serial.c (one process:
// rank 0 of 1); `zeno-mpi` links grid_mpi.c, which hands rows out over Open
// MPI ranks and gathers the finished rows on rank 0, the only rank that
// writes files and progress. Rows are assigned cyclically (row k of the
// rows still to do goes to rank k mod size), which balances the
// strip-shaped cost of region maps. A row travels as its bytes.
#ifndef ZENO_CLI_GRID_DIST_H
#define ZENO_CLI_GRID_DIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct grid_dist {
  int rank;    ///< this process, 0 writes the output
  int size;    ///< processes
  void *impl;  ///< implementation state
} grid_dist;

/// Starts the distribution (MPI_Init for zeno-mpi). Returns false when it
/// cannot start (message printed).
bool grid_dist_start(grid_dist *d, int *argc, char ***argv);

/// Ends it (MPI_Finalize); `code` is this process's exit code. Returns the
/// exit code every process should use (rank 0's, shared).
int grid_dist_end(grid_dist *d, int code);

/// Stops every process at once after a failure on one (MPI_Abort).
void grid_dist_abort(grid_dist *d, int code);

/// Rank 0's `done` flags (rows finished by an earlier, resumed run) are
/// copied to every rank.
bool grid_dist_share_done(grid_dist *d, unsigned char *done, size_t rows);

/// Ranks other than 0: hands a finished row (`bytes` long) to rank 0.
bool grid_dist_send_row(grid_dist *d, size_t iy, const void *row, size_t bytes);

/// Rank 0: receives a row finished by another rank into row (`bytes`
/// long) and returns true with *iy set; with wait false returns false at
/// once when none is pending.
bool grid_dist_receive_row(grid_dist *d, bool wait, size_t *iy, void *row, size_t bytes);

#endif
