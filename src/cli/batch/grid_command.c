// A batch command's run (grid_command.h).
#include "grid_command.h"

#include <stdlib.h>
#include <unistd.h>

int grid_option(const char *command, int option, const char *arg, grid_options *g,
                zeno_region_axis *x, zeno_region_axis *y, cli_scene_options *common) {
  if (cli_figure_is_option(option)) return cli_figure_option(command, &g->figure, option, arg);
  switch (option) {
    case GRID_OPT_X: return cli_axis_option(command, "--x", arg, x, g->x_typed, &g->x_set);
    case GRID_OPT_Y: return cli_axis_option(command, "--y", arg, y, g->y_typed, &g->y_set);
    case GRID_OPT_Z: return cli_axis_option(command, "--z", arg, &g->z, g->z_typed, &g->z_set);
    case 's': return cli_override_option(&common->overrides, NULL, arg);
    case 'o': g->out_dir = arg; return CLI_CONTINUE;
    case 'p': g->plot_path = arg; return cli_image_option(common, command, "--plot", arg);
    case 't':
      return cli_int_option(command, "--threads", arg, 1, ZENO_REGIONS_MAX_THREADS, &g->threads);
    case 'j': g->json = true; return CLI_CONTINUE;
    case 'q': g->quiet = true; return CLI_CONTINUE;
    case GRID_OPT_OVERWRITE: g->overwrite = true; return CLI_CONTINUE;
    default: return GRID_OPTION_OTHER;
  }
}

size_t grid_command_points(const grid_command *c) { return c->nx * c->ny * c->nz; }

// One map per z value. A failure is reported on rank 0 alone: an error
// about an axis names --x, --y or --z as typed, not the override the
// library made of one of its ends.
static int create_maps(grid_command *c) {
  const grid_batch *b = &c->batch;
  const bool report = c->rows.dist.rank == 0;
  c->maps = calloc(c->nz, sizeof *c->maps);
  if (c->maps == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  zeno_error err;
  if (b->z && c->check_z && c->check_z(b->z, &err) != ZENO_OK)
    return report ? cli_usage_error(b->command, "--z: %s", err.message) : CLI_EXIT_USAGE;
  if (grid_z_create(&c->common->overrides, b->z, c->nz, c->create_map, c->context, c->maps, &err) ==
      ZENO_OK)
    return CLI_CONTINUE;
  if (!report) return CLI_EXIT_USAGE;
  const int code = c->map_error ? c->map_error(c, &err) : CLI_CONTINUE;
  if (code != CLI_CONTINUE) return code;
  const grid_options *g = c->options;
  const cli_origin axes[3] = {
      {b->x->path, g->x_typed}, {b->y->path, g->y_typed}, {g->z.path, g->z_typed}};
  return cli_override_error(&err, &c->common->overrides, axes, b->z ? 3 : 2);
}

// Writes the table (or the summary) into --out, aside and renamed into
// place; reports a failure.
// The summary's JSON object with the scene's warnings (cli_print_json()).
typedef struct summary_json {
  const grid_command *c;
  const zeno_scene *scene;
  double seconds;
} summary_json;

static zeno_status write_summary(FILE *f, const void *context) {
  const summary_json *j = context;
  j->c->write_summary(f, j->c, j->scene, j->seconds);
  return ferror(f) ? ZENO_ERR_IO : ZENO_OK;
}

// DIR's table, the command's extra file and summary.json: all written
// aside, then renamed into place together (a failure keeps the folder's
// previous files). A run without the extra file removes an earlier one's.
static int write_files(const grid_command *c, const zeno_scene *scene, double seconds) {
  enum { TABLE, EXTRA, SUMMARY, FOREIGN, FILES = FOREIGN + 2 };
  zeno_error err;
  const char *dir = c->options->out_dir;
  const bool extra = c->extra_name && c->has_extra(c);
  zeno_io_output *out[FILES] = {zeno_io_output_open(dir, c->names->table, &err)};
  bool opened = out[TABLE] != NULL;
  if (opened && c->extra_name)
    opened = (out[EXTRA] = extra ? zeno_io_output_open(dir, c->extra_name, &err)
                                 : zeno_io_output_open_removal(dir, c->extra_name, &err)) != NULL;
  if (opened) opened = (out[SUMMARY] = zeno_io_output_open(dir, c->names->summary, &err)) != NULL;
  // --overwrite of the other command's folder: its table and journal go
  // with this commit (check_out_dir() refused the folder without it).
  for (int k = 0; k < 2 && opened && c->options->overwrite; k++)
    opened = (out[FOREIGN + k] = zeno_io_output_open_removal(dir, c->names->foreign[k], &err)) !=
             NULL;
  if (!opened) {
    for (int k = 0; k < FILES; k++) zeno_io_output_discard(out[k]);
  } else {
    FILE *f = zeno_io_output_stream(out[TABLE]);
    grid_batch_header(f, &c->batch);
    c->table_header(f, c, scene);
    grid_batch_table(f, &c->batch, c->grid);
    if (extra) c->write_extra(zeno_io_output_stream(out[EXTRA]), c);
    cli_print_json(zeno_io_output_stream(out[SUMMARY]), c->common, write_summary,
                   &(summary_json){c, scene, seconds});
    if (zeno_io_output_commit_all(out, FILES, &err) == ZENO_OK) {
      // The extra file an earlier run left and this one removed is not named.
      const char *const names[SUMMARY + 1] = {c->names->table, extra ? c->extra_name : NULL,
                                              c->names->summary};
      for (int k = 0; k <= SUMMARY && !c->options->quiet; k++)
        if (names[k]) cli_wrote_in(dir, &names[k], 1);
      return CLI_EXIT_OK;
    }
  }
  cli_error("%s: %s", c->batch.command, err.message);
  return CLI_EXIT_RUNTIME;
}

// The --plot figure of map iz (FILE-zIZ.EXT in a batch).
static int draw(const grid_command *c, const zeno_scene *scene, size_t iz) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  char path[GRID_FIGURE_PATH_SIZE], z_title[GRID_Z_TITLE_SIZE];
  if (!grid_z_figure(c->batch.command, c->options->plot_path, c->batch.z, iz, path, z_title))
    return CLI_EXIT_USAGE;
  const plot_status st = c->draw(c, scene, plot, path, z_title, iz);
  if (st == PLOT_OK && c->options->quiet) return CLI_EXIT_OK;  // --quiet: not named
  return cli_plot_result(plot, path, st);
}

static int write_outputs(const grid_command *c, const zeno_scene *scene, double seconds) {
  const grid_options *g = c->options;
  int code = CLI_EXIT_OK;
  if (g->out_dir) code = write_files(c, scene, seconds);
  for (size_t iz = 0; iz < c->nz && code == CLI_EXIT_OK && g->plot_path; iz++)
    code = draw(c, scene, iz);
  if (code == CLI_EXIT_OK && g->json)
    cli_print_json(stdout, c->common, write_summary, &(summary_json){c, scene, seconds});
  else if (code == CLI_EXIT_OK && !g->quiet) c->print_summary(c, scene, seconds);
  return code;
}

// A --out folder of the other batch command (its table or journal there):
// refused before any work, its summary.json kept.
static int check_out_dir(const grid_command *c) {
  const char *dir = c->options->out_dir;
  for (int k = 0; dir && !c->options->overwrite && k < 2; k++) {
    char *path = zeno_io_path_join(dir, c->names->foreign[k]);
    if (path == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
    const bool there = access(path, F_OK) == 0;
    free(path);
    if (there)
      return c->rows.dist.rank == 0
                 ? cli_usage_error(c->names->command,
                                   "--out '%s' holds %s, another command's: its %s would be "
                                   "replaced; choose another --out, or add --overwrite to "
                                   "replace that run's files",
                                   dir, c->names->foreign[k], c->names->summary)
                 : CLI_EXIT_USAGE;
  }
  return CLI_CONTINUE;
}

static int run_rows(grid_command *c, const zeno_scene *scene, const char *settings) {
  int code = check_out_dir(c);
  if (code != CLI_CONTINUE) return code;
  code = create_maps(c);
  if (code != CLI_CONTINUE) return code;
  c->batch.maps = c->maps;
  const grid_options *g = c->options;
  code = grid_batch_run(&c->rows, &c->batch, c->common, settings, g->threads, g->out_dir, g->quiet);
  c->grid = c->rows.grid;
  if (c->rows.dist.rank != 0) return code == CLI_CONTINUE ? CLI_EXIT_OK : code;
  if (code == CLI_CONTINUE && c->after_rows) code = c->after_rows(c);
  if (code == CLI_CONTINUE) code = write_outputs(c, scene, grid_rows_seconds(&c->rows));
  return code == CLI_CONTINUE ? CLI_EXIT_OK : code;
}

int grid_command_run(grid_command *c, const zeno_region_axis *x, const zeno_region_axis *y,
                     const zeno_scene *scene, const char *settings) {
  c->batch.command = c->names->command;
  c->batch.journal_name = c->names->journal;
  c->batch.journal_magic = c->names->journal_magic;
  c->batch.overwrite = c->options->overwrite;
  c->batch.x = x;
  c->batch.y = y;
  c->batch.z = c->options->z_set ? &c->options->z : NULL;
  c->nx = c->batch.x->count;
  c->ny = c->batch.y->count;
  c->nz = grid_batch_maps(&c->batch);
  if (!grid_rows_start(&c->rows)) return CLI_EXIT_RUNTIME;
  const int code = run_rows(c, scene, settings);
  for (size_t iz = 0; c->maps && iz < c->nz; iz++) c->destroy_map(c->maps[iz]);
  free(c->maps);
  c->maps = NULL;
  return grid_rows_end(&c->rows, code);
}
