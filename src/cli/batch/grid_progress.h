// The progress line of a batch command's long phases on standard error:
// "\rzeno: COMMAND: DONE/TOTAL UNIT (P%), R UNIT/s, T left", redrawn in
// place at most every GRID_PROGRESS_INTERVAL seconds and closed by a
// newline, drawn only when standard error is a terminal. The rows of a
// map or sweep count points, `regions --certify` its certificates.
#ifndef ZENO_CLI_GRID_PROGRESS_H
#define ZENO_CLI_GRID_PROGRESS_H

#include <stdbool.h>

/// The line is redrawn at most this often [s]: readable, and no cost to
/// the work.
#define GRID_PROGRESS_INTERVAL 0.2

typedef struct grid_progress {
  const char *command;  ///< "regions"
  const char *unit;     ///< "points", "certificates"
  long total;           ///< to do in this run
  double start, last;   ///< when the phase began, when the line was drawn [s]
  bool shown;           ///< drawn at all: wanted, and standard error a terminal
} grid_progress;

/// Starts a phase of `total` items; the line is shown when `wanted` (not
/// --quiet, rank 0) and standard error is a terminal.
void grid_progress_start(grid_progress *progress, const char *command, const char *unit, long total,
                         bool wanted);

/// Redraws the line for `done` items (at most every GRID_PROGRESS_INTERVAL).
void grid_progress_draw(grid_progress *progress, long done);

/// Draws the line a last time for `done` items and ends it with a newline.
void grid_progress_finish(grid_progress *progress, long done);

/// Ends the line where it stands (a phase stopped part way).
void grid_progress_break(const grid_progress *progress);

#endif
