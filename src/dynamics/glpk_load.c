// GLPK loaded on first use (glpk_load.h).
#include "dynamics/glpk_load.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "base/util.h"

#ifndef ZENO_GLPK_SONAME
/// Debian 12's GLPK 5.0 (meson.build reads the soname of the library found).
#define ZENO_GLPK_SONAME "libglpk.so.40"
#endif

zeno_status glpk_api_open(const char *soname, glpk_api *g, zeno_error *e) {
  memset(g, 0, sizeof *g);
  const zeno_dl_symbol table[] = {
      {"glp_create_prob", (void **)&g->create_prob},
      {"glp_delete_prob", (void **)&g->delete_prob},
      {"glp_set_obj_dir", (void **)&g->set_obj_dir},
      {"glp_add_rows", (void **)&g->add_rows},
      {"glp_add_cols", (void **)&g->add_cols},
      {"glp_set_row_bnds", (void **)&g->set_row_bnds},
      {"glp_set_col_bnds", (void **)&g->set_col_bnds},
      {"glp_set_obj_coef", (void **)&g->set_obj_coef},
      {"glp_load_matrix", (void **)&g->load_matrix},
      {"glp_scale_prob", (void **)&g->scale_prob},
      {"glp_init_smcp", (void **)&g->init_smcp},
      {"glp_simplex", (void **)&g->simplex},
      {"glp_get_status", (void **)&g->get_status},
      {"glp_get_row_stat", (void **)&g->get_row_stat},
      {"glp_get_col_stat", (void **)&g->get_col_stat},
      {"glp_get_col_prim", (void **)&g->get_col_prim},
      {"glp_term_out", (void **)&g->term_out},
      {"glp_free_env", (void **)&g->free_env},
  };
  static const zeno_dl_library glpk = {"GLPK", "the linear-programming library", "libglpk40", ""};
  return zeno_dl_load(soname, table, sizeof table / sizeof table[0], &glpk, e);
}

/* The process's one GLPK, as a dynamically linked one would be: loaded by
   the first caller, read by all; nothing else is kept. */
static pthread_once_t glpk_once = PTHREAD_ONCE_INIT;
static glpk_api glpk;
static atomic_bool glpk_ok;
static zeno_error glpk_error;

static void load_once(void) {
  atomic_store(&glpk_ok, glpk_api_open(ZENO_GLPK_SONAME, &glpk, &glpk_error) == ZENO_OK);
}

const glpk_api *glpk_api_get(zeno_error *e) {
  pthread_once(&glpk_once, load_once);
  if (atomic_load(&glpk_ok)) return &glpk;
  if (e) *e = glpk_error;
  return NULL;
}

const glpk_api *glpk_api_loaded(void) {
  // Set once, after the table is complete (sequentially consistent).
  return atomic_load(&glpk_ok) ? &glpk : NULL;
}
