// One-process distribution of `zeno regions` (the plain `zeno` program):
// rank 0 of 1, nothing to send or receive.
#include "regions_dist.h"

bool regions_dist_start(regions_dist *d, int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  d->rank = 0;
  d->size = 1;
  d->impl = NULL;
  return true;
}

int regions_dist_end(regions_dist *d, int code) {
  (void)d;
  return code;
}

void regions_dist_abort(regions_dist *d, int code) {
  (void)d;
  (void)code;
}

bool regions_dist_share_done(regions_dist *d, unsigned char *done, size_t rows) {
  (void)d;
  (void)done;
  (void)rows;
  return true;
}

bool regions_dist_send_row(regions_dist *d, size_t iy, const zeno_region_point *row,
                           size_t count) {
  (void)d;
  (void)iy;
  (void)row;
  (void)count;
  return false;
}

bool regions_dist_receive_row(regions_dist *d, bool wait, size_t *iy,
                              zeno_region_point *row, size_t count) {
  (void)d;
  (void)wait;
  (void)iy;
  (void)row;
  (void)count;
  return false;
}
