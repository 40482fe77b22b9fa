// The trajectory header of format version 2 (more than two contacts),
// written by io_csv.c and recognised by run_dir_read.c from one format.
// Not public API.
#ifndef ZENO_IO_IO_CSV_H
#define ZENO_IO_IO_CSV_H

#include "zeno/io.h"

/// The trajectory header of n contacts whose q' coordinates have these
/// names (zeno_scene_zod_names()): t, the pose and its rates, q' and its
/// rates, mode, a force pair per contact, kind, event.
void io_trajectory_columns_named(int n, const char names[3][ZENO_ZOD_NAME_SIZE],
                                 char buffer[ZENO_IO_TRAJECTORY_COLUMNS_SIZE]);

#endif
