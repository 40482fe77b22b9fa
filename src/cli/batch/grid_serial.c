// One-process distribution of grid rows (the plain `zeno` program):
// rank 0 of 1, nothing to send or receive.
#include "grid_dist.h"

bool grid_dist_start(grid_dist *d, int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  d->rank = 0;
  d->size = 1;
  d->impl = NULL;
  return true;
}

int grid_dist_end(grid_dist *d, int code) {
  (void)d;
  return code;
}

void grid_dist_abort(grid_dist *d, int code) {
  (void)d;
  (void)code;
}

bool grid_dist_share_done(grid_dist *d, unsigned char *done, size_t rows) {
  (void)d;
  (void)done;
  (void)rows;
  return true;
}

bool grid_dist_send_row(grid_dist *d, size_t iy, const void *row, size_t bytes) {
  (void)d;
  (void)iy;
  (void)row;
  (void)bytes;
  return false;
}

bool grid_dist_receive_row(grid_dist *d, bool wait, size_t *iy, void *row, size_t bytes) {
  (void)d;
  (void)wait;
  (void)iy;
  (void)row;
  (void)bytes;
  return false;
}
