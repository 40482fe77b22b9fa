// Rows of a grid on threads and ranks, journaled, with a progress line
// (grid_rows.h).
#include "grid_rows.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli_signal.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/// Room for one error line.
#define LINE_SIZE 1024
/// Room for a row's description in a message.
#define ROW_NAME_SIZE 128
static void draw_progress(grid_rows *w, bool final) {
  if (final) grid_progress_finish(&w->progress, w->computed_points);
  else grid_progress_draw(&w->progress, w->computed_points);
}

static size_t row_bytes(const grid_rows *w) {
  return w->def->format->nx * w->def->format->point_size;
}

// Rank 0: a finished row goes into the grid (it may be there already), the
// journal and the progress.
static int store_row(grid_rows *w, size_t row, const void *points) {
  char *at = (char *)w->grid + row * row_bytes(w);
  if (points != at) memcpy(at, points, row_bytes(w));
  w->done[row] = 1;
  w->computed_points += (long)w->def->format->nx;
  if (w->journal.lines.file) {
    const int code = grid_journal_append(&w->journal, row, points);
    if (code != CLI_CONTINUE) return code;
  }
  draw_progress(w, false);
  return CLI_CONTINUE;
}

// Rank 0: stores every row other ranks have finished; with wait, blocks
// until `expected` rows have arrived in all.
static int collect(grid_rows *w, void *buffer, bool wait, size_t *received, size_t expected) {
  size_t row = 0;
  while (*received < expected &&
         grid_dist_receive_row(&w->dist, wait, &row, buffer, row_bytes(w))) {
    (*received)++;
    const int code = store_row(w, row, buffer);
    if (code != CLI_CONTINUE) return code;
  }
  if (wait && *received < expected) {
    cli_error("%s: lost contact with the other MPI ranks", w->def->format->command);
    return CLI_EXIT_RUNTIME;
  }
  return CLI_CONTINUE;
}

/// This rank's rows being computed: their points are shared out over the
/// threads across rows (a thread done with its part of a row goes on with
/// the next one instead of waiting for the row's last point), and the
/// master thread hands the finished rows on in order between its points.
typedef struct row_run {
  grid_rows *w;
  const size_t *rows;     ///< the rows, in the order they are handed on
  size_t count;           ///< how many
  atomic_size_t *left;    ///< points of each row still to compute
  atomic_bool *finished;  ///< rows whose every point is computed
  size_t handed;          ///< rows handed on (master thread)
  /// The first failed point (row * nx + ix in the run's order; count * nx
  /// when none), its status and error; rows after its row are skipped.
  size_t failed;
  atomic_size_t failed_row;
  zeno_status fail_status;
  zeno_error fail_error;
  /// Guards the first failure. A mutex, not an OpenMP critical section: a
  /// run on one thread never starts the OpenMP runtime (compute_shared()).
  pthread_mutex_t failure_lock;
  atomic_bool stop;           ///< a row could not be handed on: stop
  int code;                   ///< CLI_CONTINUE, or why it could not
  void *incoming;             ///< rank 0: a row from another rank
  size_t received, expected;  ///< rank 0: rows received, and to receive
} row_run;

// Hands the finished rows on in order (master thread): rank 0 stores them
// and collects what the other ranks sent meanwhile; another rank sends them.
// Rows from the first failed point's on are not handed on.
static void hand_on(row_run *r) {
  grid_rows *w = r->w;
  while (r->code == CLI_CONTINUE && r->handed < r->count &&
         r->handed < atomic_load(&r->failed_row) && atomic_load(&r->finished[r->handed])) {
    const size_t row = r->rows[r->handed++];
    const void *points = (const char *)w->grid + row * row_bytes(w);
    if (w->dist.rank == 0) {
      r->code = store_row(w, row, points);
      if (r->code == CLI_CONTINUE)
        r->code = collect(w, r->incoming, false, &r->received, r->expected);
    } else if (!grid_dist_send_row(&w->dist, row, points, row_bytes(w))) {
      cli_error("%s: cannot send row %zu to rank 0", w->def->format->command, row);
      grid_dist_abort(&w->dist, CLI_EXIT_RUNTIME);
    }
  }
  // Ctrl-C or SIGTERM: the rows finished so far are kept, the rest not
  // begun (compute_point()).
  if (r->code == CLI_CONTINUE && cli_interrupted()) r->code = CLI_EXIT_INTERRUPTED;
  if (r->code != CLI_CONTINUE) atomic_store(&r->stop, true);
}

// Point `item` of the run (row item / nx, in the run's order).
static void compute_point(row_run *r, size_t item) {
  const grid_rows_def *d = r->w->def;
  const size_t nx = d->format->nx, k = item / nx;
  if (atomic_load_explicit(&r->stop, memory_order_relaxed) || cli_interrupted() ||
      k > atomic_load_explicit(&r->failed_row, memory_order_relaxed))
    return;
  const size_t row = r->rows[k];
  zeno_error err;
  void *point = (char *)r->w->grid + row * row_bytes(r->w) + (item % nx) * d->format->point_size;
  const zeno_status st = d->point(d->context, row, item % nx, point, &err);
  if (st != ZENO_OK) {
    pthread_mutex_lock(&r->failure_lock);
    if (item < r->failed) {
      r->failed = item;
      r->fail_status = st;
      r->fail_error = err;
      atomic_store(&r->failed_row, k);
    }
    pthread_mutex_unlock(&r->failure_lock);
  }
  // The failure is recorded before its row can count as finished.
  if (atomic_fetch_sub(&r->left[k], 1) == 1) atomic_store(&r->finished[k], true);
}

// The points on the calling thread, each row handed on as it finishes.
static void compute_serial(row_run *r, size_t items) {
  for (size_t item = 0; item < items; item++) {
    compute_point(r, item);
    hand_on(r);
  }
}

// The points shared out over `threads` OpenMP threads, the rows handed on
// by the first. A function of its own: one thread never starts the OpenMP
// runtime (LLVM's registers itself in a 1 KiB file of /dev/shm at its
// first parallel region and dies of SIGBUS when that cannot be written,
// e.g. under a file size limit), and clang starts it on entry to any
// function holding a parallel region.
static void compute_shared(row_run *r, size_t items, int threads) {
#ifdef _OPENMP
#pragma omp parallel num_threads(threads)
  {
#pragma omp for schedule(dynamic, 1) nowait
    for (size_t item = 0; item < items; item++) {
      compute_point(r, item);
      if (omp_get_thread_num() == 0) hand_on(r);
    }
  }
#else
  (void)threads;
  compute_serial(r, items);
#endif
}

// Computes this rank's share of the rows still to do.
static int compute(grid_rows *w) {
  const grid_rows_def *d = w->def;
  const size_t rows = d->format->rows, nx = d->format->nx;
  size_t *todo = malloc(rows * sizeof *todo);
  size_t *own = malloc(rows * sizeof *own);
  atomic_size_t *left = malloc(rows * sizeof *left);
  atomic_bool *finished = malloc(rows * sizeof *finished);
  void *incoming = malloc(row_bytes(w));
  if (todo == NULL || own == NULL || left == NULL || finished == NULL || incoming == NULL) {
    free(todo), free(own), free(left), free(finished), free(incoming);
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  size_t todo_count = 0;
  for (size_t r = 0; r < rows; r++)
    if (!w->done[r]) todo[todo_count++] = r;
  w->total_points = w->progress.total = (long)(todo_count * nx);
  const size_t first = (size_t)w->dist.rank, step = (size_t)w->dist.size;
  size_t count = 0;
  for (size_t k = first; k < todo_count; k += step) {
    own[count] = todo[k];
    atomic_init(&left[count], nx);
    atomic_init(&finished[count], false);
    count++;
  }
  row_run r = {.w = w,
               .rows = own,
               .count = count,
               .left = left,
               .finished = finished,
               .failed = count * nx,
               .code = CLI_CONTINUE,
               .incoming = incoming,
               .expected = todo_count - count};
  atomic_init(&r.failed_row, count);
  atomic_init(&r.stop, false);
  pthread_mutex_init(&r.failure_lock, NULL);
  const size_t items = count * nx;
  const int threads = zeno_regions_threads(d->threads);
  if (threads > 1) compute_shared(&r, items, threads);
  else compute_serial(&r, items);
  hand_on(&r);  // the rows the other threads finished last
  pthread_mutex_destroy(&r.failure_lock);
  int code = r.code;
  if (code == CLI_CONTINUE && r.failed < items) {
    const size_t row = own[r.failed / nx];
    char line[LINE_SIZE], name[ROW_NAME_SIZE];
    zeno_error_format(&r.fail_error, line, sizeof line);
    d->row_name(d->context, row, name, sizeof name);
    cli_error("%s: row %zu (%s): %s", d->format->command, row, name, line);
    code = r.fail_status == ZENO_ERR_NOMEM ? CLI_EXIT_RUNTIME : CLI_EXIT_USAGE;
    if (w->dist.size > 1) grid_dist_abort(&w->dist, code);
  }
  if (code == CLI_CONTINUE && w->dist.rank == 0)
    code = collect(w, incoming, true, &r.received, r.expected);
  free(todo), free(own), free(left), free(finished), free(incoming);
  return code;
}

bool grid_rows_start(grid_rows *w) {
  memset(w, 0, sizeof *w);
  return grid_dist_start(&w->dist, NULL, NULL);
}

int grid_rows_run(grid_rows *w, const grid_rows_def *d) {
  w->def = d;
  const size_t rows = d->format->rows;
  w->grid = calloc(rows, row_bytes(w));
  w->done = calloc(rows, 1);
  int code = w->grid && w->done ? CLI_CONTINUE : (cli_error("out of memory"), CLI_EXIT_RUNTIME);
  if (code == CLI_CONTINUE && w->dist.rank == 0 && d->out_dir)
    code = grid_journal_open(&w->journal, d->format, d->out_dir, d->signature, d->overwrite,
                             w->grid, w->done, &w->resumed_rows);
  // Every rank learns which rows are done; a rank that cannot go on stops
  // them all (the others would wait for it forever).
  if (w->dist.size > 1) {
    if (code != CLI_CONTINUE) grid_dist_abort(&w->dist, code);
    if (!grid_dist_share_done(&w->dist, w->done, rows)) {
      cli_error("%s: cannot share the finished rows between MPI ranks", d->format->command);
      grid_dist_abort(&w->dist, CLI_EXIT_RUNTIME);
    }
  }
  grid_progress_start(&w->progress, d->format->command, "points", 0,
                      w->dist.rank == 0 && !d->quiet);
  // One process: Ctrl-C and SIGTERM stop it between points, the finished
  // rows journaled. Under MPI the ranks end at once, as before: the
  // journal holds every row rank 0 stored.
  if (w->dist.size == 1) cli_signals_cooperate();
  if (code == CLI_CONTINUE) code = compute(w);
  if (code == CLI_EXIT_INTERRUPTED) {
    grid_progress_break(&w->progress);
    code = cli_interrupted_exit(d->format->command,
                                d->out_dir ? "the rows finished are journaled; the same command "
                                             "resumes"
                                           : "nothing written");
  }
  if (code == CLI_CONTINUE && w->dist.rank == 0) draw_progress(w, true);
  return code;
}

double grid_rows_seconds(const grid_rows *w) { return cli_seconds() - w->progress.start; }

int grid_rows_end(grid_rows *w, int code) {
  code = grid_journal_close(&w->journal, code);
  free(w->grid);
  free(w->done);
  w->grid = NULL;
  w->done = NULL;
  return grid_dist_end(&w->dist, code);
}

/* ---- batches ---- */

int grid_z_check(const char *command, const zeno_region_axis *z, const zeno_region_axis *x,
                 const zeno_region_axis *y) {
  if (strcmp(z->path, x->path) == 0 || strcmp(z->path, y->path) == 0)
    return cli_usage_error(command,
                           "--z: '%s' is already the %s axis; --z sweeps a third "
                           "parameter",
                           z->path, strcmp(z->path, x->path) == 0 ? "--x" : "--y");
  return CLI_CONTINUE;
}

zeno_status grid_z_create(const cli_overrides *overrides, const zeno_region_axis *z, size_t nz,
                          grid_create_fn create, const void *context, void **maps,
                          zeno_error *error) {
  const char **items = malloc((overrides->count + 1) * sizeof *items);
  if (items == NULL) return cli_out_of_memory(error);
  for (size_t i = 0; i < overrides->count; i++) items[i] = overrides->items[i];
  zeno_status st = ZENO_OK;
  for (size_t iz = 0; iz < nz && st == ZENO_OK; iz++) {
    char z_item[GRID_Z_ITEM_SIZE];
    if (z) {
      // %.17g: the value round-trips.
      snprintf(z_item, sizeof z_item, "%s=%.17g", z->path, zeno_region_axis_value(z, iz));
      items[overrides->count] = z_item;
    }
    maps[iz] = create(context, items, overrides->count + (z ? 1 : 0), error);
    if (maps[iz] == NULL) st = error->code;
  }
  free(items);
  return st;
}

void grid_z_row_name(const zeno_region_axis *y, const zeno_region_axis *z, size_t row, char *out,
                     size_t size) {
  if (z)
    snprintf(out, size, "%s = %.17g, %s = %.17g", z->path,
             zeno_region_axis_value(z, row / y->count), y->path,
             zeno_region_axis_value(y, row % y->count));
  else snprintf(out, size, "%s = %.17g", y->path, zeno_region_axis_value(y, row));
}

bool grid_z_figure(const char *command, const char *plot_path, const zeno_region_axis *z, size_t iz,
                   char path[GRID_FIGURE_PATH_SIZE], char title[GRID_Z_TITLE_SIZE]) {
  title[0] = '\0';
  if (z == NULL) {
    snprintf(path, GRID_FIGURE_PATH_SIZE, "%s", plot_path);
    return true;
  }
  snprintf(title, GRID_Z_TITLE_SIZE, " at %s = %g", z->path, zeno_region_axis_value(z, iz));
  const char *dot = strrchr(plot_path, '.');
  const char *slash = strrchr(plot_path, '/');
  if (dot == NULL || (slash && dot < slash)) dot = plot_path + strlen(plot_path);
  const int n = snprintf(path, GRID_FIGURE_PATH_SIZE, "%.*s-z%zu%s", (int)(dot - plot_path),
                         plot_path, iz, dot);
  if (n >= 0 && n < GRID_FIGURE_PATH_SIZE) return true;
  cli_error("%s: --plot: '%s' is too long", command, plot_path);
  return false;
}

void grid_z_prefix(FILE *f, const zeno_region_axis *z, size_t iz) {
  fprintf(f, "%zu,%.17g,", iz, zeno_region_axis_value(z, iz));
}

const char *grid_z_read_prefix(const char *text, const zeno_region_axis *z, size_t *iz) {
  char *end = NULL;
  const unsigned long k = strtoul(text, &end, 10);
  if (end == text || *end != ',' || k >= z->count) return NULL;
  const char *value = end + 1;
  const double v = strtod(value, &end);
  if (end == value || *end != ',' || v != zeno_region_axis_value(z, k)) return NULL;
  *iz = k;
  return end + 1;
}

/* ---- batches run as one grid ---- */

size_t grid_batch_maps(const grid_batch *b) { return b->z ? b->z->count : 1; }

static zeno_status batch_point(const void *context, size_t row, size_t ix, void *point,
                               zeno_error *error) {
  const grid_batch *b = context;
  return b->map_point(b->maps[row / b->y->count], ix, row % b->y->count, point, error);
}

static void batch_row_name(const void *context, size_t row, char *out, size_t size) {
  const grid_batch *b = context;
  grid_z_row_name(b->y, b->z, row, out, size);
}

static zeno_status batch_write(FILE *f, const void *point, size_t row, const void *context) {
  const grid_batch *b = context;
  if (b->z) grid_z_prefix(f, b->z, row / b->y->count);
  return b->write_point(f, point, b->context);
}

static bool batch_read(const char *text, void *point, size_t *ix, size_t *row,
                       const void *context) {
  const grid_batch *b = context;
  size_t iz = 0, iy;
  double x, y;
  if (b->z && (text = grid_z_read_prefix(text, b->z, &iz)) == NULL) return false;
  if (!b->read_point(text, point, ix, &iy, &x, &y, b->context) || *ix >= b->x->count ||
      iy >= b->y->count || x != zeno_region_axis_value(b->x, *ix) ||
      y != zeno_region_axis_value(b->y, iy))
    return false;
  *row = iz * b->y->count + iy;
  return true;
}

int grid_batch_run(grid_rows *rows, grid_batch *b, const cli_scene_options *common,
                   const char *settings, int threads, const char *out_dir, bool quiet) {
  const int signed_code = grid_journal_signature(settings, common->scene_text, common->scene_length,
                                                 &common->overrides, b->signature);
  if (signed_code != CLI_CONTINUE) return signed_code;
  b->format = (grid_journal_format){
      .command = b->command,
      .name = b->journal_name,
      .magic = b->journal_magic,
      .point_size = b->point_size,
      .nx = b->x->count,
      .rows = b->y->count * grid_batch_maps(b),
      .write = batch_write,
      .read = batch_read,
      .context = b,
  };
  b->rows = (grid_rows_def){.format = &b->format,
                            .point = batch_point,
                            .row_name = batch_row_name,
                            .context = b,
                            .threads = threads,
                            .out_dir = out_dir,
                            .signature = b->signature,
                            .quiet = quiet,
                            .overwrite = b->overwrite};
  return grid_rows_run(rows, &b->rows);
}

void grid_batch_header(FILE *f, const grid_batch *b) {
  if (b->z) fprintf(f, "iz,%s,", b->z->path);
}

void grid_batch_table(FILE *f, const grid_batch *b, const void *grid) {
  const size_t nx = b->x->count, rows = b->y->count * grid_batch_maps(b);
  for (size_t k = 0; k < nx * rows; k++)
    batch_write(f, (const char *)grid + k * b->point_size, k / nx, b);
}
