// A batch command's run (zeno regions, zeno sweep) from its parsed
// options to its outputs: one map per z value (one without --z) made from
// the scene and its overrides, their points computed as one grid
// (grid_rows.h), then on rank 0 the table and the summary of --out, the
// figures of --plot and the summary on standard output. The command
// supplies its maps, points and outputs as callbacks.
#ifndef ZENO_CLI_GRID_COMMAND_H
#define ZENO_CLI_GRID_COMMAND_H

#include "cli/cli_figure.h"
#include "cli/cli_module.h"
#include "cli/cli_stability.h"
#include "grid_rows.h"

/// The options of every batch command: the axes as typed, --z, --out,
/// --plot and the figure's options, --threads, --json and --quiet.
typedef struct grid_options {
  bool x_set, y_set, z_set;
  /// "--x PATH=LO:HI:N" as typed, and --y, --z
  char x_typed[CLI_TYPED_SIZE], y_typed[CLI_TYPED_SIZE], z_typed[CLI_TYPED_SIZE];
  zeno_region_axis z;     ///< --z: a batch of maps, one per value; count 1 without
  const char *out_dir;    ///< --out (NULL: no files, no journal)
  const char *plot_path;  ///< --plot (NULL: no figures)
  cli_figure figure;      ///< --size, --dpi, --font-scale, --xlim, --ylim
  int threads;            ///< --threads (<= 0: all cores)
  bool quiet, json;       ///< --quiet, --json
  /// --overwrite: a folder of another run (its journal, or the other batch
  /// command's files) is taken over, not refused; its files are replaced
  /// with this run's in one commit.
  bool overwrite;
} grid_options;

/// getopt codes of the shared long options without a short form; a
/// command numbers its own from GRID_OPT_OWN.
enum { GRID_OPT_X = 256, GRID_OPT_Y, GRID_OPT_Z, GRID_OPT_OVERWRITE, GRID_OPT_OWN };

/// The shared options' entries of a command's getopt_long() table (the
/// figure's included), and their short forms.
// clang-format off
#define GRID_LONG_OPTIONS                          \
  {"x", required_argument, NULL, GRID_OPT_X},      \
  {"y", required_argument, NULL, GRID_OPT_Y},      \
  {"z", required_argument, NULL, GRID_OPT_Z},      \
  {"set", required_argument, NULL, 's'},           \
  {"out", required_argument, NULL, 'o'},           \
  {"plot", required_argument, NULL, 'p'},          \
  {"threads", required_argument, NULL, 't'},       \
  {"json", no_argument, NULL, 'j'},                \
  {"quiet", no_argument, NULL, 'q'},               \
  {"overwrite", no_argument, NULL, GRID_OPT_OVERWRITE}, \
  CLI_FIGURE_LONG_OPTIONS
// clang-format on
#define GRID_SHORT_OPTIONS "s:o:p:t:jq"

/// grid_option()'s answer for an option that is not a shared one.
#define GRID_OPTION_OTHER (-2)

/// Applies a shared option (--x and --y into the command's axes x and y,
/// --set into common's overrides, --plot noted as an output there):
/// CLI_CONTINUE, an exit code (reported), or GRID_OPTION_OTHER.
int grid_option(const char *command, int option, const char *arg, grid_options *g,
                zeno_region_axis *x, zeno_region_axis *y, cli_scene_options *common);

/// A batch command's name and its files in --out.
typedef struct grid_names {
  const char *command;        ///< "regions"
  const char *table;          ///< "regions.csv"
  const char *summary;        ///< "summary.json"
  const char *journal;        ///< "regions.journal"
  const char *journal_magic;  ///< the journal's first line, before the signature
  /// The other batch command's table and journal ("sweep.csv",
  /// "sweep.journal"): a --out folder holding one is the other command's,
  /// whose summary.json this one would replace; it is refused, or with
  /// --overwrite removed with this run's commit.
  const char *foreign[2];
} grid_names;

typedef struct grid_command grid_command;

struct grid_command {
  /* ---- set by the command ---- */
  const grid_names *names;
  const cli_scene_options *common;  ///< the scene and its overrides
  const grid_options *options;
  /// The points: point_size, map_point, write_point, read_point and
  /// context; its names, axes (x and y: the command's; z: the options')
  /// and maps are set here.
  grid_batch batch;
  /// Makes map iz (called with `context`) and destroys one.
  grid_create_fn create_map;
  void (*destroy_map)(void *map);
  /// Optional: the command's own check of the z axis, before any map is
  /// made (reported as a usage error of --z).
  zeno_status (*check_z)(const zeno_region_axis *z, zeno_error *error);
  /// Optional: reports a map's creation error the command names itself
  /// (an exit code), or returns CLI_CONTINUE to leave it to the overrides.
  int (*map_error)(const grid_command *c, const zeno_error *error);
  /// Optional: rank 0's work after the rows, before the outputs;
  /// CLI_CONTINUE or an exit code.
  int (*after_rows)(grid_command *c);
  /// Optional: a third file of --out, committed with the table and
  /// summary.json (between them). `has_extra` says whether this run writes
  /// it (write_extra writes it); when not, an earlier run's file of that
  /// name is removed in the same commit, so that the folder holds one
  /// run's files.
  const char *extra_name;
  bool (*has_extra)(const grid_command *c);
  void (*write_extra)(FILE *f, const grid_command *c);
  /// The table's header after the batch's columns, newline included.
  void (*table_header)(FILE *f, const grid_command *c, const zeno_scene *scene);
  /// The summary: as one JSON object (newline included) and as text.
  void (*write_summary)(FILE *f, const grid_command *c, const zeno_scene *scene, double seconds);
  void (*print_summary)(const grid_command *c, const zeno_scene *scene, double seconds);
  /// Draws --plot's figure of map iz into `path` with `plot`; z_title is
  /// the title's " at PATH = Z" ("" without --z).
  plot_status (*draw)(const grid_command *c, const zeno_scene *scene, const zeno_plot_module *plot,
                      const char *path, const char *z_title, size_t iz);
  void *context;  ///< the command's, given to create_map

  /* ---- set by grid_command_run() ---- */
  void **maps;        ///< nz of them
  size_t nx, ny, nz;  ///< points per row, rows and maps
  grid_rows rows;     ///< the grid, its journal and ranks
  /// rows.grid (whole on rank 0): map iz's row iy at (iz * ny + iy) * nx.
  const void *grid;
};

/// Points of all the maps.
size_t grid_command_points(const grid_command *c);

/// Runs the command on the axes x and y: starts the distribution, makes
/// the maps, computes every row not journaled yet (the journal signed with
/// `settings`), then on rank 0 after_rows and the outputs; destroys the
/// maps and ends the distribution. Returns the code the process exits
/// with.
int grid_command_run(grid_command *c, const zeno_region_axis *x, const zeno_region_axis *y,
                     const zeno_scene *scene, const char *settings);

#endif
