// Loading the plot and viewer modules on first use (cli_module.h).
#include "cli_module.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef ZENO_MODULE_INSTALL_DIR
#error "ZENO_MODULE_INSTALL_DIR (PREFIX/LIBDIR/zeno) must be defined"
#endif
#ifndef ZENO_MODULE_RELDIR
#error "ZENO_MODULE_RELDIR (LIBDIR/zeno relative to BINDIR, or \"\") must be defined"
#endif

/// Room for a directory or file path.
#define MODULE_PATH_SIZE 4096
/// Directories looked in: the program's, the installed layout, the prefix.
#define MODULE_DIRS 3
/// Room for the list of directories in a message.
#define MODULE_DIR_LIST_SIZE (MODULE_DIRS * (MODULE_PATH_SIZE + 2))

// dlsym() returns an object pointer that holds the address of a function
// (POSIX); it is copied, not converted, into a function pointer.
_Static_assert(sizeof(void *) == sizeof(zeno_plot_module_get_fn),
               "function and object pointers differ in size");

/// A kind of module: what it is called in messages, its file, its symbol
/// and the Debian packages of the libraries it needs.
typedef struct module_kind {
  const char *what;
  const char *file;
  const char *symbol;
  const char *packages;
} module_kind;

static const module_kind PLOT = {"plot module", ZENO_PLOT_MODULE_FILE, ZENO_PLOT_MODULE_SYMBOL,
                                 "libcairo2 libfontconfig1"};

/// path = "dir/name" (or dir alone when name is NULL); false when it does
/// not fit.
static bool path_join(char path[MODULE_PATH_SIZE], const char *dir, const char *name) {
  const int n = name ? snprintf(path, MODULE_PATH_SIZE, "%s/%s", dir, name)
                     : snprintf(path, MODULE_PATH_SIZE, "%s", dir);
  return n >= 0 && n < MODULE_PATH_SIZE;
}

/// The directories to look in (see cli_module.h); returns their count.
/// `*from_env` tells whether they come from CLI_MODULE_DIR_ENV.
static int module_dirs(char dirs[MODULE_DIRS][MODULE_PATH_SIZE], bool *from_env) {
  const char *env = getenv(CLI_MODULE_DIR_ENV);
  *from_env = env != NULL && env[0] != '\0';
  if (*from_env) return path_join(dirs[0], env, NULL) ? 1 : 0;
  int n = 0;
  char exe[MODULE_PATH_SIZE];
  const ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
  char *slash = NULL;
  if (length > 0) {
    exe[length] = '\0';
    slash = strrchr(exe, '/');
  }
  if (slash != NULL) {
    *slash = '\0';
    const char *program_dir = slash == exe ? "/" : exe;
    if (path_join(dirs[n], program_dir, NULL)) n++;
    if (ZENO_MODULE_RELDIR[0] != '\0' && path_join(dirs[n], program_dir, ZENO_MODULE_RELDIR)) n++;
  }
  if (path_join(dirs[n], ZENO_MODULE_INSTALL_DIR, NULL)) n++;
  return n;
}

/// Finds the module's file in path[]; false after reporting that it is in
/// none of the directories.
static bool module_find(const module_kind *kind, char path[MODULE_PATH_SIZE]) {
  char dirs[MODULE_DIRS][MODULE_PATH_SIZE];
  bool from_env;
  const int n = module_dirs(dirs, &from_env);
  for (int i = 0; i < n; i++)
    if (path_join(path, dirs[i], kind->file) && access(path, F_OK) == 0) return true;
  char list[MODULE_DIR_LIST_SIZE] = "";
  for (int i = 0; i < n; i++) {
    const size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", i > 0 ? ", " : "", dirs[i]);
  }
  if (from_env)
    cli_error(
        "the %s %s is not in %s=%s: point it at the directory holding "
        "zeno's modules, or unset it",
        kind->what, kind->file, CLI_MODULE_DIR_ENV, list);
  else
    cli_error(
        "the %s %s is not installed (looked in %s): install zeno with "
        "its modules ('meson install' puts them in %s)",
        kind->what, kind->file, list, ZENO_MODULE_INSTALL_DIR);
  return false;
}

/// Loads the module at path and returns its entry symbol; NULL after
/// reporting why.
static void *module_symbol(const module_kind *kind, const char *path) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    if (why == NULL) why = "unknown error";
    // dlerror() starts with the path when the file itself is at fault (not
    // a module of this machine, a symbol of another libzeno), else it names
    // the library that is missing.
    if (strncmp(why, path, strlen(path)) == 0)
      cli_error("cannot load the %s %s: %s (install the %s of this zeno, %s)", kind->what, path,
                why, kind->file, ZENO_VERSION);
    else
      cli_error("cannot load the %s %s: %s (apt-get install %s)", kind->what, path, why,
                kind->packages);
    return NULL;
  }
  // The module stays loaded until exit: its code may be running at any
  // later point, and unloading would hide its allocations from leak checks.
  void *symbol = dlsym(handle, kind->symbol);
  if (symbol == NULL)
    cli_error(
        "%s is not a zeno %s (no symbol %s): install the %s of this zeno "
        "(%s)",
        path, kind->what, kind->symbol, kind->file, ZENO_VERSION);
  return symbol;
}

/// Checks the table's ABI and version; false after reporting a mismatch.
static bool module_matches(const module_kind *kind, const char *path, int abi, int table_abi,
                           const char *version) {
  if (table_abi != abi) {
    cli_error(
        "%s does not provide ABI %d of the zeno %s: install the %s of "
        "this zeno (%s)",
        path, abi, kind->what, kind->file, ZENO_VERSION);
    return false;
  }
  if (version == NULL || strcmp(version, ZENO_VERSION) != 0) {
    cli_error(
        "%s is the %s of zeno %s, this is zeno %s: install the %s of "
        "this zeno",
        path, kind->what, version ? version : "(unknown)", ZENO_VERSION, kind->file);
    return false;
  }
  return true;
}

/// The plot module once loaded; `plot_failed` after a reported failure.
static const zeno_plot_module *plot_module;
static bool plot_failed;

const zeno_plot_module *cli_plot_module(void) {
  if (plot_module != NULL || plot_failed) return plot_module;
  char path[MODULE_PATH_SIZE];
  void *symbol = module_find(&PLOT, path) ? module_symbol(&PLOT, path) : NULL;
  if (symbol != NULL) {
    zeno_plot_module_get_fn get;
    memcpy(&get, &symbol, sizeof get);
    const zeno_plot_module *m = get(ZENO_PLOT_MODULE_ABI);
    if (module_matches(&PLOT, path, ZENO_PLOT_MODULE_ABI, m ? m->abi : 0, m ? m->version : NULL))
      plot_module = m;
  }
  plot_failed = plot_module == NULL;
  return plot_module;
}

void cli_modules_release(void) {
  if (plot_module != NULL) plot_module->release_caches();
}

#ifdef ZENO_HAVE_VIEWER
static const module_kind VIEW = {"viewer module", ZENO_VIEW_MODULE_FILE, ZENO_VIEW_MODULE_SYMBOL,
                                 "libsdl2-2.0-0 libsdl2-ttf-2.0-0 libpng16-16 libgif7"};

static const zeno_view_module *view_module;
static bool view_failed;

const zeno_view_module *cli_view_module(void) {
  if (view_module != NULL || view_failed) return view_module;
  char path[MODULE_PATH_SIZE];
  void *symbol = module_find(&VIEW, path) ? module_symbol(&VIEW, path) : NULL;
  if (symbol != NULL) {
    zeno_view_module_get_fn get;
    memcpy(&get, &symbol, sizeof get);
    const zeno_view_module *m = get(ZENO_VIEW_MODULE_ABI);
    if (module_matches(&VIEW, path, ZENO_VIEW_MODULE_ABI, m ? m->abi : 0, m ? m->version : NULL))
      view_module = m;
  }
  view_failed = view_module == NULL;
  return view_module;
}
#endif
