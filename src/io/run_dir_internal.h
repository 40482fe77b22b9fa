// Shared by the run directory's writer (run_dir.c) and reader
// (run_dir_read.c): the sampling rule and growing the in-memory data. Not
// public API.
#ifndef ZENO_IO_RUN_DIR_INTERNAL_H
#define ZENO_IO_RUN_DIR_INTERNAL_H

#include <stdbool.h>

#include "zeno/run_dir.h"

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

/// The next sample time; false when there is none left.
bool run_dir_sampler_next(run_dir_sampler *sampler, double *t);

/// Appends a row / an event; false when out of memory.
bool run_dir_add_row(zeno_run_dir_data *data, const zeno_run_dir_row *row);
bool run_dir_add_event(zeno_run_dir_data *data, const zeno_run_dir_event *event);

#endif
