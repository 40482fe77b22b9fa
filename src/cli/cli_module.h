// The front ends that draw, loaded when a command asks for a figure or a
// window: the plot module zeno-plot.so (cairo) and the viewer zeno-view.so
// (SDL2). The zeno program links neither, so commands that draw nothing
// start without their libraries (issue 14).
//
// Where a module is looked for, in order:
//   $ZENO_MODULE_DIR   when set and not empty: that directory only
//   the directory of the program (/proc/self/exe): the build tree, where
//                      build/zeno sits beside build/zeno-plot.so
//   PROGRAM_DIR/ZENO_MODULE_RELDIR: the installed layout, BINDIR/../LIBDIR/zeno
//                      (relocatable: a DESTDIR copy finds its own modules)
//   ZENO_MODULE_INSTALL_DIR: PREFIX/LIBDIR/zeno, when the program's own path
//                      is unknown
// The first file that exists is loaded (RTLD_NOW | RTLD_LOCAL) and kept
// until exit. A missing file, one that does not load, or a module of
// another ABI or zeno version is reported as one line naming the file and
// what to install; the command then exits CLI_EXIT_RUNTIME.
#ifndef ZENO_CLI_CLI_MODULE_H
#define ZENO_CLI_CLI_MODULE_H

#include "cli_common.h"
#include "plot/plot_module.h"

/// The environment variable that overrides where modules are looked for.
#define CLI_MODULE_DIR_ENV "ZENO_MODULE_DIR"

/// The plot module, loaded on the first call; NULL after reporting why it
/// cannot be (the caller returns CLI_EXIT_RUNTIME).
const zeno_plot_module *cli_plot_module(void);

/// Frees the plot module's font caches when it was loaded (at exit, so
/// leak checkers see none); nothing otherwise.
void cli_modules_release(void);

#ifdef ZENO_HAVE_VIEWER
#include "view/view_module.h"

/// The viewer module, loaded on the first call; NULL after reporting why it
/// cannot be (the caller returns CLI_EXIT_RUNTIME).
const zeno_view_module *cli_view_module(void);
#endif

#endif
