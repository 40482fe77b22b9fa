// Open MPI distribution of grid rows (the zeno-mpi program): every rank
// computes its cyclic share of the rows (on its OpenMP threads) and
// sends each finished row to rank 0 without waiting (MPI_Isend; the buffers
// are kept until the end), tagged with its row index. Rank 0 computes its own
// share too and collects the others' rows between its own. Rows travel as
// bytes: the ranks of one run are copies of one program on machines of one
// architecture, as mpirun starts them.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grid_dist.h"

/// First capacity of the list of rows in flight.
#define PENDING_INITIAL 16

typedef struct mpi_state {
  MPI_Request *requests;
  void **buffers;
  int count, capacity;
} mpi_state;

bool grid_dist_start(grid_dist *d, int *argc, char ***argv) {
  // Rows are sent and collected by a rank's master thread while its other
  // threads compute (grid_rows.c): MPI calls from one thread of many.
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "zeno: MPI_Init_thread failed\n");
    return false;
  }
  if (provided < MPI_THREAD_FUNNELED) {
    fprintf(stderr, "zeno: the MPI library does not support MPI_THREAD_FUNNELED\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    return false;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &d->rank);
  MPI_Comm_size(MPI_COMM_WORLD, &d->size);
  d->impl = calloc(1, sizeof(mpi_state));
  if (d->impl == NULL) {
    fprintf(stderr, "zeno: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
    return false;
  }
  return true;
}

int grid_dist_end(grid_dist *d, int code) {
  mpi_state *s = d->impl;
  if (s) {
    if (s->count > 0) MPI_Waitall(s->count, s->requests, MPI_STATUSES_IGNORE);
    for (int i = 0; i < s->count; i++) free(s->buffers[i]);
    free(s->requests);
    free(s->buffers);
    free(s);
    d->impl = NULL;
  }
  // Rank 0 decides the exit code of the whole run.
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return code;
}

void grid_dist_abort(grid_dist *d, int code) {
  (void)d;
  fflush(stdout);
  fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, code);
}

bool grid_dist_share_done(grid_dist *d, unsigned char *done, size_t rows) {
  (void)d;
  return MPI_Bcast(done, (int)rows, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
}

static bool reserve(mpi_state *s) {
  if (s->count < s->capacity) return true;
  const int capacity = s->capacity ? 2 * s->capacity : PENDING_INITIAL;
  MPI_Request *r = realloc(s->requests, (size_t)capacity * sizeof *r);
  if (r == NULL) return false;
  s->requests = r;
  void **b = realloc(s->buffers, (size_t)capacity * sizeof *b);
  if (b == NULL) return false;
  s->buffers = b;
  s->capacity = capacity;
  return true;
}

bool grid_dist_send_row(grid_dist *d, size_t iy, const void *row, size_t bytes) {
  mpi_state *s = d->impl;
  if (!reserve(s)) return false;
  void *copy = malloc(bytes);
  if (copy == NULL) return false;
  memcpy(copy, row, bytes);
  if (MPI_Isend(copy, (int)bytes, MPI_BYTE, 0, (int)iy, MPI_COMM_WORLD, &s->requests[s->count]) !=
      MPI_SUCCESS) {
    free(copy);
    return false;
  }
  s->buffers[s->count++] = copy;
  return true;
}

bool grid_dist_receive_row(grid_dist *d, bool wait, size_t *iy, void *row, size_t bytes) {
  (void)d;
  MPI_Status status;
  int pending = 0;
  if (wait) {
    if (MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status) != MPI_SUCCESS)
      return false;
  } else if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &pending, &status) !=
                 MPI_SUCCESS ||
             !pending) {
    return false;
  }
  if (MPI_Recv(row, (int)bytes, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE) != MPI_SUCCESS)
    return false;
  *iy = (size_t)status.MPI_TAG;
  return true;
}
