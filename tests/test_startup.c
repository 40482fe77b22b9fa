// Start-up of the `zeno` program (issue 14): commands that draw nothing
// load libzeno and its numerical libraries only, never cairo, SDL2 or the
// modules that use them; a figure loads the plot module and cairo, a
// screenshot the viewer module and SDL2; a module that is missing, broken
// or of another build is one clear error (exit 1), never a crash. GLPK is
// loaded by the commands that solve a contact-stability LP, not by
// simulate, check, analyze or maps (the equilibrium's LP has a closed
// form).
//
// What a process loaded is read from the dynamic loader itself: with
// LD_DEBUG=files glibc's ld.so reports "file=NAME [0];  generating link map"
// on stderr for every object it maps, at start-up and at dlopen() alike.
// The figure and screenshot cases check that the same reading does see
// cairo and SDL2 when they are loaded, so an absence is not an artefact.
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_runner.h"
#include "plot/plot_module.h"
#include "view/view_module.h"

#ifndef ZENO_FAKE_MODULE_DIR
#error "ZENO_FAKE_MODULE_DIR (the directory of the fake zeno-plot.so) must be defined"
#endif
#ifndef ZENO_LIBRARY
#error "ZENO_LIBRARY (the path of libzeno.so) must be defined"
#endif

/// Exit codes of zeno.
#define EXIT_RUNTIME 1

/// Example 2 (the paper): rest at x2 = 14.87.
#define EX2_REST_X2 14.87
#define EX2_REST_X2_TOL 0.01

/// Objects a command that draws nothing must not load: cairo and what only
/// it brings (pixman, fontconfig, X11), SDL2 and its companions, and the
/// two modules.
static const char *const DRAWING_OBJECTS[] = {
    "libcairo.so",        "libpixman-1.so", "libfontconfig.so", "libX11.so",    "libSDL2-2.0.so",
    "libSDL2_ttf-2.0.so", "libpng16.so",    "zeno-plot.so",     "zeno-view.so", NULL};
/// At most this many objects (besides the program, ld.so and the vDSO) for
/// a command that draws nothing: libzeno's numerical stack is 12 on Debian
/// 12 (libm, libc, libyaml, libgomp, the program carrying libzeno; GLPK
/// with its 6 at a linear program, SUNDIALS for the full model, nettle for
/// a journal), 16 with the sanitizer runtimes; with cairo and SDL2 linked
/// in it was 76.
#define MAX_OBJECTS_NO_DRAWING 20

/// Loaded-object names kept from one run.
#define MAX_OBJECTS 256
#define OBJECT_NAME_SIZE 512

/// Objects a ZOD simulate maps when the program carries libzeno, libyaml,
/// Jansson and libgomp (ZENO_PROGRAM_STATIC): libc and libm.
#define PROGRAM_STATIC_OBJECTS 2

/// The objects ld.so reported mapping, from LD_DEBUG=files output.
typedef struct loaded_objects {
  size_t count;
  char name[MAX_OBJECTS][OBJECT_NAME_SIZE];
} loaded_objects;

// Only the zeno process's lines count: each line starts with the pid of the
// process that wrote it, and the first is zeno's. Under LeakSanitizer
// another process writes too: at exit LSan runs llvm-symbolizer (and its 60
// libraries) to match a dlopen()ed library's thread-local block, which
// glibc allocates, against its built-in suppression of such blocks.
static void parse_loaded(const char *log, loaded_objects *objects) {
  static const char KEY[] = "file=", MAPPED[] = "generating link map";
  objects->count = 0;
  long zeno_pid = -1;
  for (const char *line = log; line && *line;) {
    const char *end = strchr(line, '\n');
    const size_t length = end ? (size_t)(end - line) : strlen(line);
    const char *key = strstr(line, KEY);
    const char *mapped = strstr(line, MAPPED);
    char *after_pid = NULL;
    const long pid = strtol(line, &after_pid, 10);
    const bool has_pid = after_pid != line && *after_pid == ':';
    if (has_pid && zeno_pid < 0) zeno_pid = pid;
    const bool zeno_line = !has_pid || pid == zeno_pid;
    if (zeno_line && key && mapped && key < line + length && mapped < line + length) {
      const char *name = key + sizeof KEY - 1;
      const size_t n = strcspn(name, " [\n");
      assert_true(objects->count < MAX_OBJECTS);
      assert_true(n < OBJECT_NAME_SIZE);
      memcpy(objects->name[objects->count], name, n);
      objects->name[objects->count][n] = '\0';
      objects->count++;
    }
    line = end ? end + 1 : NULL;
  }
}

/// The loaded object whose name contains `part`, or NULL.
static const char *find_object(const loaded_objects *objects, const char *part) {
  for (size_t i = 0; i < objects->count; i++)
    if (strstr(objects->name[i], part)) return objects->name[i];
  return NULL;
}

/// Runs zeno with LD_DEBUG=files (and ZENO_MODULE_DIR=module_dir unless
/// NULL), stdout and stderr captured; fills the objects it loaded.
static run_result run_traced(const char *const *args, const char *module_dir,
                             loaded_objects *objects) {
  assert_int_equal(setenv("LD_DEBUG", "files", 1), 0);
  if (module_dir) assert_int_equal(setenv("ZENO_MODULE_DIR", module_dir, 1), 0);
  run_result r = run_zeno_argv(args, true);
  unsetenv("LD_DEBUG");
  unsetenv("ZENO_MODULE_DIR");
  parse_loaded(r.err, objects);
  return r;
}

/// Runs zeno with ZENO_MODULE_DIR=module_dir, output captured.
static run_result run_with_modules(const char *const *args, const char *module_dir) {
  assert_int_equal(setenv("ZENO_MODULE_DIR", module_dir, 1), 0);
  run_result r = run_zeno_argv(args, true);
  unsetenv("ZENO_MODULE_DIR");
  return r;
}

static void assert_no_drawing_objects(const loaded_objects *objects, const char *what) {
  for (const char *const *name = DRAWING_OBJECTS; *name; name++) {
    const char *found = find_object(objects, *name);
    if (found) fail_msg("%s loaded %s", what, found);
  }
  if (objects->count > MAX_OBJECTS_NO_DRAWING)
    fail_msg("%s loaded %zu objects (at most %d)", what, objects->count, MAX_OBJECTS_NO_DRAWING);
}

/// The width and height of a PNG file (its IHDR chunk); false when it is
/// not a PNG.
static bool png_size(const char *path, uint32_t *width, uint32_t *height) {
  static const unsigned char SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char head[24];
  FILE *f = fopen(path, "rb");
  if (f == NULL) return false;
  const size_t got = fread(head, 1, sizeof head, f);
  fclose(f);
  if (got != sizeof head || memcmp(head, SIGNATURE, sizeof SIGNATURE) != 0 ||
      memcmp(head + 12, "IHDR", 4) != 0)
    return false;
  *width = (uint32_t)head[16] << 24 | (uint32_t)head[17] << 16 | (uint32_t)head[18] << 8 | head[19];
  *height = (uint32_t)head[20] << 24 | (uint32_t)head[21] << 16 | (uint32_t)head[22] << 8 |
            head[23];
  return true;
}

static void assert_png(const char *path, uint32_t width, uint32_t height) {
  uint32_t w, h;
  if (!png_size(path, &w, &h)) fail_msg("%s: not a PNG", path);
  assert_int_equal(w, width);
  assert_int_equal(h, height);
}

/// The error output is one line that contains every one of `parts`.
static void assert_one_line_naming(const char *err, const char *const *parts) {
  const char *newline = strchr(err, '\n');
  if (newline == NULL || newline[1] != '\0') fail_msg("not one line: %s", err);
  for (; *parts; parts++)
    if (strstr(err, *parts) == NULL) fail_msg("'%s' missing from: %s", *parts, err);
}

// The program carries libzeno's objects itself (one object fewer to map),
// and in a plain GCC build libyaml's, Jansson's and libgomp's too
// (meson.build); else the scene reader's libyaml was loaded and seen.
static void assert_carried_libraries(const loaded_objects *objects) {
  assert_null(find_object(objects, "libzeno.so"));
#ifdef ZENO_PROGRAM_STATIC
  assert_null(find_object(objects, "libyaml"));
  assert_null(find_object(objects, "libjansson"));
  assert_null(find_object(objects, "libgomp"));
#else
  assert_non_null(find_object(objects, "libyaml"));
#endif
}

/* ---- commands that draw nothing ------------------------------------------ */

static void simulate_json_loads_no_drawing_library(void **state) {
  (void)state;
  loaded_objects objects;
  run_result r = run_traced((const char *const[]){"simulate", EXAMPLE2, "--json", NULL}, NULL,
                            &objects);
  assert_int_equal(r.exit_code, 0);
  // The command still does its work: Example 2 comes to rest at x2 = 14.87.
  assert_non_null(strstr(r.out, "\"status\": \"rest\""));
  const char *zod = strstr(r.out, "\"final_zod\": [");
  assert_non_null(zod);
  char *end;
  strtod(zod + strlen("\"final_zod\": ["), &end);
  strtod(end + 1, &end);
  const double x2 = strtod(end + 1, &end);
  assert_float_equal(x2, EX2_REST_X2, EX2_REST_X2_TOL);
  assert_carried_libraries(&objects);
#ifdef ZENO_PROGRAM_STATIC
  if (objects.count > PROGRAM_STATIC_OBJECTS)
    fail_msg("simulate --json loaded %zu objects (libc and libm: %d)", objects.count,
             PROGRAM_STATIC_OBJECTS);
#endif
  assert_no_drawing_objects(&objects, "simulate --json");
  // Nor GLPK: it is loaded at the first linear program (glpk_load.h). Nor
  // nettle: it is loaded when the first digest begins (zeno/sha256.h).
  assert_null(find_object(&objects, "libglpk.so"));
  assert_null(find_object(&objects, "libnettle.so"));
  // Nor SUNDIALS: a ZOD run integrates nothing (sundials_load.h).
  assert_null(find_object(&objects, "libsundials_cvode"));
  run_result_free(&r);
  // The full model loads it at its first integrator, and runs.
  r = run_traced((const char *const[]){"simulate", EXAMPLE2, "--set", "model=full", "--set",
                                       "epsilon=1e-3", "--json", NULL},
                 NULL, &objects);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "\"status\": \"rest\""));
  assert_non_null(find_object(&objects, "libsundials_cvode"));
  assert_null(find_object(&objects, "libglpk.so"));
  run_result_free(&r);
}

static void check_and_analyze_load_no_drawing_library(void **state) {
  (void)state;
  const char *const *commands[] = {
      (const char *const[]){"check", EXAMPLE2, "--json", NULL},
      (const char *const[]){"analyze", EXAMPLE2, "--json", "--samples", "200", NULL},
      (const char *const[]){"maps", EXAMPLE2, "--samples", "200", "--csv", "-", NULL},
  };
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    loaded_objects objects;
    run_result r = run_traced(commands[i], NULL, &objects);
    assert_int_equal(r.exit_code, 0);
    assert_carried_libraries(&objects);
    assert_no_drawing_objects(&objects, commands[i][0]);
    // Each checks the equilibrium, whose two-contact margin LP is solved in
    // closed form: GLPK was not loaded. None keeps a journal: nettle was
    // not.
    assert_null(find_object(&objects, "libglpk.so"));
    assert_null(find_object(&objects, "libnettle.so"));
    run_result_free(&r);
  }
}

/// Without any module to be found, commands that draw nothing run as before.
static void simulate_needs_no_module(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "startup-empty");
  run_result r = run_with_modules((const char *const[]){"simulate", EXAMPLE2, "--json", NULL},
                                  w.root);
  assert_int_equal(r.exit_code, 0);
  assert_non_null(strstr(r.out, "\"status\": \"rest\""));
  assert_string_equal(r.err, "");
  run_result_free(&r);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

/* ---- figures and windows load their module ------------------------------- */

static void figure_loads_plot_module(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "startup-plot");
  char png[PATH_SIZE];
  work_path(&w, "maps.png", png);
  loaded_objects objects;
  run_result r = run_traced((const char *const[]){"analyze", EXAMPLE2, "--samples", "400", "--plot",
                                                  png, NULL},
                            NULL, &objects);
  assert_int_equal(r.exit_code, 0);
  assert_png(png, PLOT_WIDTH, PLOT_HEIGHT);
  const char *module = find_object(&objects, "/" ZENO_PLOT_MODULE_FILE);
  if (module == NULL) fail_msg("analyze --plot did not load %s", ZENO_PLOT_MODULE_FILE);
  assert_non_null(find_object(&objects, "libcairo.so"));
  assert_null(find_object(&objects, "libSDL2-2.0.so"));
  assert_null(find_object(&objects, "zeno-view.so"));
  run_result_free(&r);
  work_dir_remove(&w, (const char *const[]){"maps.png", NULL}, NULL);
}

#ifdef ZENO_TEST_VIEWER
static void screenshot_loads_view_module(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "startup-view");
  char png[PATH_SIZE];
  work_path(&w, "view.png", png);
  loaded_objects objects;
  run_result r = run_traced((const char *const[]){"view", EXAMPLE2, "--screenshot", png,
                                                  "--at-event", "3", NULL},
                            NULL, &objects);
  assert_int_equal(r.exit_code, 0);
  assert_png(png, VIEW_DEFAULT_WIDTH, VIEW_DEFAULT_HEIGHT);
  assert_non_null(find_object(&objects, "/" ZENO_VIEW_MODULE_FILE));
  assert_non_null(find_object(&objects, "libSDL2-2.0.so"));
  assert_null(find_object(&objects, "libcairo.so"));
  assert_null(find_object(&objects, "zeno-plot.so"));
  run_result_free(&r);
  work_dir_remove(&w, (const char *const[]){"view.png", NULL}, NULL);
}
#endif

/* ---- modules that are missing, broken or of another build --------------- */

/// analyze --plot with the modules looked for in `dir` only: exit 1, one
/// line on stderr containing `parts`, nothing on stdout, no figure.
static void assert_plot_refused(const char *dir, const char *const *parts) {
  work_dir w;
  work_dir_create(&w, "startup-refused");
  char png[PATH_SIZE];
  work_path(&w, "maps.png", png);
  run_result r = run_with_modules((const char *const[]){"analyze", EXAMPLE2, "--samples", "200",
                                                        "--plot", png, NULL},
                                  dir);
  assert_int_equal(r.exit_code, EXIT_RUNTIME);
  assert_string_equal(r.out, "");
  assert_one_line_naming(r.err, parts);
  assert_int_equal(access(png, F_OK), -1);
  run_result_free(&r);
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

static void missing_module_is_an_error(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "startup-empty");
  assert_plot_refused(w.root,
                      (const char *const[]){"zeno-plot.so", w.root, "ZENO_MODULE_DIR", NULL});
#ifdef ZENO_TEST_VIEWER
  char png[PATH_SIZE];
  work_path(&w, "view.png", png);
  run_result r =
      run_with_modules((const char *const[]){"view", EXAMPLE2, "--screenshot", png, NULL}, w.root);
  assert_int_equal(r.exit_code, EXIT_RUNTIME);
  assert_one_line_naming(r.err, (const char *const[]){"zeno-view.so", w.root, NULL});
  assert_int_equal(access(png, F_OK), -1);
  run_result_free(&r);
#endif
  work_dir_remove(&w, (const char *const[]){NULL}, NULL);
}

/// Copies `from` to `to`; false when it cannot.
static bool copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  bool ok = in && out;
  char buffer[BUFSIZ];
  size_t n;
  while (ok && (n = fread(buffer, 1, sizeof buffer, in)) > 0) ok = fwrite(buffer, 1, n, out) == n;
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = false;
  return ok;
}

static void broken_module_is_an_error(void **state) {
  (void)state;
  work_dir w;
  work_dir_create(&w, "startup-broken");
  char module[PATH_SIZE];
  work_path(&w, ZENO_PLOT_MODULE_FILE, module);
  // Not a shared object at all.
  FILE *f = fopen(module, "w");
  assert_non_null(f);
  fputs("not a module\n", f);
  assert_int_equal(fclose(f), 0);
  assert_plot_refused(w.root, (const char *const[]){module, "cannot load", NULL});
  // A shared object, but no zeno module: no entry symbol.
  assert_true(copy_file(ZENO_LIBRARY, module));
  assert_plot_refused(w.root, (const char *const[]){module, ZENO_PLOT_MODULE_SYMBOL, NULL});
  work_dir_remove(&w, (const char *const[]){ZENO_PLOT_MODULE_FILE, NULL}, NULL);
}

static void mismatched_module_is_an_error(void **state) {
  (void)state;
  const char *module = ZENO_FAKE_MODULE_DIR "/" ZENO_PLOT_MODULE_FILE;
  assert_int_equal(setenv("ZENO_FAKE_MODULE", "abi", 1), 0);
  assert_plot_refused(ZENO_FAKE_MODULE_DIR, (const char *const[]){module, "ABI", NULL});
  assert_int_equal(setenv("ZENO_FAKE_MODULE", "version", 1), 0);
  assert_plot_refused(ZENO_FAKE_MODULE_DIR,
                      (const char *const[]){module, "zeno 0.0.0-fake", ZENO_VERSION, NULL});
  unsetenv("ZENO_FAKE_MODULE");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(simulate_json_loads_no_drawing_library),
      cmocka_unit_test(check_and_analyze_load_no_drawing_library),
      cmocka_unit_test(simulate_needs_no_module),
      cmocka_unit_test(figure_loads_plot_module),
#ifdef ZENO_TEST_VIEWER
      cmocka_unit_test(screenshot_loads_view_module),
#endif
      cmocka_unit_test(missing_module_is_an_error),
      cmocka_unit_test(broken_module_is_an_error),
      cmocka_unit_test(mismatched_module_is_an_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
