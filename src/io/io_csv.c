// CSV writers (zeno/io.h): the trajectory rows of `simulate --out` and the
// maps R and G. Numbers round-trip (IO_NUMBER_FORMAT); write errors are read
// back from the stream's error indicator.
#include "zeno/io.h"

#include <stdio.h>

#include "io/io_stream.h"

zeno_status zeno_io_trajectory_header(FILE *stream, int contact_count,
                                      zeno_error *error) {
  (void)contact_count; // the columns are the same for one and two contacts
  if (stream == NULL) return io_no_stream(error);
  fputs(ZENO_IO_TRAJECTORY_HEADER "\n", stream);
  return io_stream_status(stream, error);
}

static void csv_numbers(FILE *f, const double *v, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(f, "," IO_NUMBER_FORMAT, v[i]);
}

zeno_status zeno_io_trajectory_row(FILE *stream, const zeno_state *state,
                                   int contact_count, zeno_error *error) {
  if (stream == NULL || state == NULL) return io_no_stream(error);
  char mode[ZENO_MODE_NAME_SIZE];
  fprintf(stream, IO_NUMBER_FORMAT, state->t);
  csv_numbers(stream, state->q, 3);
  csv_numbers(stream, state->qdot, 3);
  csv_numbers(stream, state->zod, 3);
  csv_numbers(stream, state->zod_rate, 3);
  fprintf(stream, ",%s", zeno_mode_name(state->mode, contact_count, mode));
  for (int i = 0; i < ZENO_MAX_CONTACTS; i++)
    csv_numbers(stream, state->force[i], 2);
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

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
