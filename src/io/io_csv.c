// CSV writers (zeno/io.h): the trajectory rows of `simulate --out` and the
// maps R and G. Numbers round-trip
// (IO_NUMBER_FORMAT); write errors are read back from the stream's error
// indicator.
#include "zeno/io.h"

#include <stdbool.h>
#include <stdio.h>

#include "base/util.h"
#include "io/io_stream.h"

static bool contact_count_ok(int contact_count) {
  return contact_count >= 1 && contact_count <= ZENO_MAX_CONTACTS;
}

const char *zeno_io_trajectory_columns(int contact_count) {
  if (!contact_count_ok(contact_count)) return NULL;
  return contact_count == 1 ? ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT
                            : ZENO_IO_TRAJECTORY_HEADER;
}

static zeno_status no_such_count(int contact_count, zeno_error *error) {
  return zeno_fail(error, ZENO_ERR_ARGUMENT, "contact_count",
                   "%d contacts: a scene has 1 or %d", contact_count, ZENO_MAX_CONTACTS);
}

zeno_status zeno_io_trajectory_header(FILE *stream, int contact_count,
                                      zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  if (!contact_count_ok(contact_count)) return no_such_count(contact_count, error);
  fprintf(stream, "%s\n", zeno_io_trajectory_columns(contact_count));
  return io_stream_status(stream, error);
}

static void csv_numbers(FILE *f, const double *v, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(f, "," IO_NUMBER_FORMAT, v[i]);
}

zeno_status zeno_io_trajectory_row(FILE *stream, const zeno_run_dir_row *row,
                                   int contact_count, zeno_error *error) {
  if (stream == NULL || row == NULL) return io_no_stream(error);
  if (!contact_count_ok(contact_count)) return no_such_count(contact_count, error);
  char mode[ZENO_MODE_NAME_SIZE];
  fprintf(stream, IO_NUMBER_FORMAT, row->t);
  csv_numbers(stream, row->q, 3);
  csv_numbers(stream, row->qdot, 3);
  csv_numbers(stream, row->zod, 3);
  csv_numbers(stream, row->zod_rate, 3);
  fprintf(stream, ",%s", zeno_mode_name(row->mode, contact_count, mode));
  for (int i = 0; i < contact_count; i++) csv_numbers(stream, row->force[i], 2);
  fprintf(stream, ",%s,%ld\n", zeno_run_dir_row_kind_name(row->kind), row->event);
  return io_stream_status(stream, error);
}

/* ---- maps ---------------------------------------------------------------- */

zeno_status zeno_io_maps_csv(FILE *stream, const zeno_maps *maps, zeno_error *error) {
  if (stream == NULL || maps == NULL) return io_no_stream(error);
  fputs("phi,R,G,word\n", stream);
  for (size_t k = 0; k < maps->sample_count; k++) {
    const zeno_cycle *c = &maps->samples[k];
    fprintf(stream, IO_NUMBER_FORMAT ",", c->phi);
    if (c->defined)
      fprintf(stream, IO_NUMBER_FORMAT "," IO_NUMBER_FORMAT ",", c->R, c->G);
    else
      fputs(",,", stream);
    io_csv_text(stream, c->word);
    fputc('\n', stream);
  }
  return io_stream_status(stream, error);
}
