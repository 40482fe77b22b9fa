// The rows of a grid (a region map, an outcome sweep, or a batch of them:
// rows of several maps numbered one after the other) computed on OpenMP
// threads, which share out the points of a process's rows across rows, and,
// in zeno-mpi, over Open MPI ranks (grid_dist.h).
// With --out, every finished row is appended to the command's journal at
// once (grid_journal.h), so a killed run restarted with the same --out
// computes only the rows it had not finished. Rank 0 collects the whole
// grid and alone writes the journal and the progress line.
#ifndef ZENO_CLI_GRID_ROWS_H
#define ZENO_CLI_GRID_ROWS_H

#include "grid_dist.h"
#include "grid_journal.h"
#include "grid_progress.h"

/// Computes point ix of row `row` into *point (point_size bytes); called
/// on several threads at once.
typedef zeno_status (*grid_point_fn)(const void *context, size_t row, size_t ix, void *point,
                                     zeno_error *error);

/// Describes the row for a message: "paper.alpha = 12" (at most size bytes).
typedef void (*grid_row_name_fn)(const void *context, size_t row, char *out, size_t size);

typedef struct grid_rows_def {
  const grid_journal_format *format;  ///< command, point size, nx, rows, journal lines
  grid_point_fn point;
  grid_row_name_fn row_name;
  const void *context;    ///< given to point and row_name
  int threads;            ///< OpenMP threads per process (<= 0: all)
  const char *out_dir;    ///< NULL: no journal
  const char *signature;  ///< the run's (grid_journal_signature()), with out_dir
  bool quiet;             ///< no progress line
  bool overwrite;         ///< --overwrite: another run's journal is begun again
} grid_rows_def;

typedef struct grid_rows {
  grid_dist dist;
  void *grid;           ///< rows * nx points, row r at r * nx (whole on rank 0)
  unsigned char *done;  ///< rows finished (resumed or computed)
  size_t resumed_rows;
  long total_points, computed_points;  ///< to compute in this run, and so far
  grid_progress progress;              ///< the line of the points (rank 0)
  grid_journal journal;                ///< rank 0 with --out
  const grid_rows_def *def;
} grid_rows;

/// Starts the distribution (MPI_Init in zeno-mpi). False when it cannot
/// (message printed).
bool grid_rows_start(grid_rows *rows);

/// Computes every row not done yet: allocates the grid, opens (or resumes)
/// the journal on rank 0, shares the finished rows with every rank, and
/// runs this rank's share. Returns CLI_CONTINUE (rank 0 then holds every
/// row) or an exit code (reported).
int grid_rows_run(grid_rows *rows, const grid_rows_def *def);

/// Seconds since grid_rows_run() started computing.
double grid_rows_seconds(const grid_rows *rows);

/// Closes the journal and frees the grid; returns `code`, or an error code
/// when the journal cannot be closed. Then ends the distribution
/// (MPI_Finalize) and returns the code every process exits with.
int grid_rows_end(grid_rows *rows, int code);

/* ---- batches: --z PATH=LO:HI:N, one map per z value --------------------- */

/// Room for the override "PATH=Z" of a z value.
#define GRID_Z_ITEM_SIZE (ZENO_REGION_PATH_SIZE + 32)

/// Checks --z against --x and --y: a third parameter. Returns CLI_CONTINUE
/// or a usage error (reported).
int grid_z_check(const char *command, const zeno_region_axis *z, const zeno_region_axis *x,
                 const zeno_region_axis *y);

/// Creates one map (a zeno_regions, a zeno_sweep) from the command's
/// overrides; NULL with `error` filled on failure.
typedef void *(*grid_create_fn)(const void *context, const char *const *overrides, size_t count,
                                zeno_error *error);

/// Creates maps[0..nz-1], map iz with the command's overrides then
/// "PATH=Z" of z value iz (z NULL: one map, the overrides alone). On a
/// failure the maps made so far stay in `maps` (the caller destroys them)
/// and the error is returned, not reported.
zeno_status grid_z_create(const cli_overrides *overrides, const zeno_region_axis *z, size_t nz,
                          grid_create_fn create, const void *context, void **maps,
                          zeno_error *error);

/// Describes row `row` of a batch (z NULL: of one map) for messages:
/// "paper.mu1 = 0.5, initial.qdp.0 = 1" (rows of all maps one after the
/// other, ny per map).
void grid_z_row_name(const zeno_region_axis *y, const zeno_region_axis *z, size_t row, char *out,
                     size_t size);

/// Room for a figure's path with its "-zIZ" (PATH_MAX on Linux).
#define GRID_FIGURE_PATH_SIZE 4096
/// Room for a title's " at PATH = Z".
#define GRID_Z_TITLE_SIZE (ZENO_REGION_PATH_SIZE + 32)

/// The figure of map iz: `plot_path` itself without a batch (z NULL), else
/// FILE with "-zIZ" before its extension ("map.png": "map-z0.png", ...);
/// `title` gets " at PATH = Z" (or ""). False after reporting a path too
/// long.
bool grid_z_figure(const char *command, const char *plot_path, const zeno_region_axis *z, size_t iz,
                   char path[GRID_FIGURE_PATH_SIZE], char title[GRID_Z_TITLE_SIZE]);

/// Writes a batch row's first columns "IZ,Z," (Z round-trips).
void grid_z_prefix(FILE *f, const zeno_region_axis *z, size_t iz);

/// Reads those columns: the rest of the text, or NULL when they are not
/// one of z's values; *iz is its index.
const char *grid_z_read_prefix(const char *text, const zeno_region_axis *z, size_t *iz);

/* ---- a batch: the maps of every z value run as one grid ------------------ */

/// A command's maps (one per z value; one map without --z) and how their
/// points are computed, written and read back.
typedef struct grid_batch {
  const char *command;                ///< "regions", "sweep"
  const char *journal_name;           ///< "regions.journal"
  const char *journal_magic;          ///< its first line, before the signature
  const zeno_region_axis *x, *y, *z;  ///< z NULL: one map
  void *const *maps;                  ///< z->count of them (or one)
  size_t point_size;                  ///< bytes of a point
  /// Computes point (ix, iy) of a map into *point (on several threads at once).
  zeno_status (*map_point)(const void *map, size_t ix, size_t iy, void *point, zeno_error *error);
  /// Writes a point's table columns, newline included.
  zeno_status (*write_point)(FILE *f, const void *point, const void *context);
  /// Reads a point's columns: false when they are not a point; else its
  /// indices and axis values.
  bool (*read_point)(const char *text, void *point, size_t *ix, size_t *iy, double *x, double *y,
                     const void *context);
  const void *context;                  ///< given to write_point and read_point
  bool overwrite;                       ///< --overwrite (grid_rows_def.overwrite)
  grid_journal_format format;           ///< filled by grid_batch_run()
  grid_rows_def rows;                   ///< filled by grid_batch_run()
  char signature[GRID_SIGNATURE_SIZE];  ///< filled by grid_batch_run()
} grid_batch;

/// Maps in the batch.
size_t grid_batch_maps(const grid_batch *batch);

/// Computes every row of every map not done yet (grid_rows_run(); rows of
/// map iz are iz * y->count + iy, journaled with "IZ,Z," in front in a
/// batch, the journal signed with `settings`, the scene text and the
/// overrides of `common`). Returns CLI_CONTINUE (rank 0 then holds every
/// row) or an exit code (reported).
int grid_batch_run(grid_rows *rows, grid_batch *batch, const cli_scene_options *common,
                   const char *settings, int threads, const char *out_dir, bool quiet);

/// The table's first columns in a batch: "iz,PATH," (nothing without).
void grid_batch_header(FILE *f, const grid_batch *batch);

/// Writes every point of `grid` as a table row ("IZ,Z," in front in a
/// batch), map after map, row after row.
void grid_batch_table(FILE *f, const grid_batch *batch, const void *grid);

#endif
