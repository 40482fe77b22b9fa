// libzeno-certify (zeno/certify.h), loaded by the commands that certify:
// `zeno certify` and `zeno regions --certify`. Its CSDP, GMP, BLAS and
// LAPACK never load for the others (tests/test_startup).
#ifndef ZENO_CLI_CLI_CERTIFY_H
#define ZENO_CLI_CLI_CERTIFY_H

#include <stdbool.h>

#include "zeno/certify.h"

typedef struct cli_certificate_library {
  zeno_certify_def (*def_default)(void);
  zeno_status (*certify)(const zeno_scene *scene, const zeno_certify_def *def,
                         zeno_certificate *certificate, zeno_error *error);
  void (*eval)(const zeno_certificate *certificate, const double state[6], double *v1, double *v2);
} cli_certificate_library;

/// Loads the library: from $ZENO_MODULE_DIR, else beside the program (the
/// build tree), else by its soname from the system's library path
/// (installed). False after one error line naming it and what to install.
bool cli_certificate_library_load(cli_certificate_library *lib);

#endif
