// The plot code as a loadable module: build/zeno-plot.so, installed as
// LIBDIR/zeno/zeno-plot.so. The zeno program links neither it nor cairo; it
// dlopen()s the module the first time a command asks for a figure
// (src/cli/cli_module.c), so commands that draw nothing start without
// cairo's libraries.
//
// The module exports one symbol, zeno_plot_module_get(), which returns the
// table of the functions of plot.h that the program calls. The types the
// table takes and gives are plot.h's (which includes no cairo header) and
// the library's (zeno.h), so a table is only usable by a program of the same
// zeno version: it carries that version, and the ABI number below changes
// whenever the table or plot.h's types change.
#ifndef ZENO_PLOT_PLOT_MODULE_H
#define ZENO_PLOT_PLOT_MODULE_H

#include <stdbool.h>

#include "plot/plot.h"

/// The table's layout and meaning; bump on any change of the table or of
/// the types of plot.h it uses.
#define ZENO_PLOT_MODULE_ABI 8
/// The module's file name and its one exported symbol.
#define ZENO_PLOT_MODULE_FILE "zeno-plot.so"
#define ZENO_PLOT_MODULE_SYMBOL "zeno_plot_module_get"

/// What the module gives the program: plot.h's functions of the same names.
typedef struct zeno_plot_module {
  int abi;              ///< ZENO_PLOT_MODULE_ABI
  const char *version;  ///< the zeno version it was built with (ZENO_VERSION)
  bool (*format_known)(const char *path);
  const char *(*status_message)(plot_status status);
  void (*release_caches)(void);
  plot_status (*maps)(const char *path, const plot_maps_input *input);
  plot_status (*graph)(const char *path, const plot_graph_input *input);
  plot_status (*trajectory)(const char *path, const plot_trajectory_input *input);
  plot_status (*regions)(const char *path, const plot_regions_input *input);
  plot_status (*sweep)(const char *path, const plot_sweep_input *input);
} zeno_plot_module;

/// The exported entry: the table when the module provides ABI `abi`, else
/// NULL. (The module is built with hidden visibility: this is its only
/// dynamic symbol.)
__attribute__((visibility("default"))) const zeno_plot_module *zeno_plot_module_get(int abi);
/// Its type, for the program's dlsym().
typedef const zeno_plot_module *(*zeno_plot_module_get_fn)(int abi);

#endif
