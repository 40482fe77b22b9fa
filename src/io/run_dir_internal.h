// Shared by the run directory's writer (run_dir.c), reader (run_dir_read.c)
// and digest (run_dir_digest.c): the sampling rule, growing the in-memory
// data, opening a file of the run and digesting it. Not public API.
#ifndef ZENO_IO_RUN_DIR_INTERNAL_H
#define ZENO_IO_RUN_DIR_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "zeno/run_dir.h"
#include "zeno/sha256.h"

/// The sampling rule of trajectory.csv between two events: the multiples
/// k * dt strictly between the previous event's time and this event's.
typedef struct run_dir_sampler {
  double dt, t_prev, t_event;
  double k;     ///< the next multiple to try
  bool active;  ///< samples may be left
} run_dir_sampler;

/// The samples before an event at t_event; none for the first event
/// (has_prev false), for dt = 0 or for a non-finite time.
run_dir_sampler run_dir_sampler_start(double dt, bool has_prev, double t_prev, double t_event);

/// Checks that `rows` rows so far, the samples the sampler has left and the
/// two rows of its event stay within ZENO_RUN_DIR_MAX_ROWS; else
/// ZENO_ERR_RANGE naming solver.sample_dt and the rows it would take.
zeno_status run_dir_check_rows(size_t rows, const run_dir_sampler *sampler, zeno_error *error);

/// The next sample time; false when there is none left.
bool run_dir_sampler_next(run_dir_sampler *sampler, double *t);

/// Opens a file of the run directory for reading: a regular file (a link to
/// one included) of at most ZENO_RUN_DIR_MAX_BYTES, never waiting (a FIFO
/// or a device is refused at once). Errors name the file.
zeno_status run_dir_open(const char *path, FILE **f, zeno_error *error);

/// The digest of the bytes of the open file `fd` from its start, at most
/// ZENO_RUN_DIR_MAX_BYTES of them (pread: a stream's position is left as
/// it was), in hex. ZENO_ERR_IO (errno set) or ZENO_ERR_RANGE (a larger
/// file) with an empty message for the caller to fill; ZENO_ERR_UNSUPPORTED
/// with nettle's.
zeno_status run_dir_digest_fd(int fd, char hex[ZENO_SHA256_HEX_SIZE], zeno_error *error);

/// Checks the files of `dir` against DIR/digest.sha256: *found is false
/// (and nothing checked) when there is none, a run of an older zeno.
zeno_status run_dir_digest_check(const char *dir, bool *found, zeno_error *error);

/// Appends a row / an event; false when out of memory.
bool run_dir_add_row(zeno_run_dir_data *data, const zeno_run_dir_row *row);
bool run_dir_add_event(zeno_run_dir_data *data, const zeno_run_dir_event *event);

#endif
