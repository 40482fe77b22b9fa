// GLPK, loaded when the first linear program is solved rather than linked:
// commands that solve none (simulate, maps) then map neither GLPK nor its
// six dependencies (AMD, COLAMD, SuiteSparse, GMP, zlib, ltdl), half the
// objects a `zeno` process would load (issue 14's start-up). The
// LP code (lp.c) calls GLPK through this table. Not
// public API.
#ifndef ZENO_DYNAMICS_GLPK_LOAD_H
#define ZENO_DYNAMICS_GLPK_LOAD_H

#include <glpk.h>

#include "zeno/error.h"

/// The GLPK functions zeno uses.
typedef struct glpk_api {
  glp_prob *(*create_prob)(void);
  void (*delete_prob)(glp_prob *P);
  void (*set_obj_dir)(glp_prob *P, int dir);
  int (*add_rows)(glp_prob *P, int nrs);
  int (*add_cols)(glp_prob *P, int ncs);
  void (*set_row_bnds)(glp_prob *P, int i, int type, double lb, double ub);
  void (*set_col_bnds)(glp_prob *P, int j, int type, double lb, double ub);
  void (*set_obj_coef)(glp_prob *P, int j, double coef);
  void (*load_matrix)(glp_prob *P, int ne, const int ia[], const int ja[], const double ar[]);
  void (*scale_prob)(glp_prob *P, int flags);
  void (*init_smcp)(glp_smcp *parm);
  int (*simplex)(glp_prob *P, const glp_smcp *parm);
  int (*get_status)(glp_prob *P);
  int (*get_row_stat)(glp_prob *P, int i);
  int (*get_col_stat)(glp_prob *P, int j);
  double (*get_col_prim)(glp_prob *P, int j);
  int (*term_out)(int flag);
  int (*free_env)(void);
} glpk_api;

/// Loads GLPK's shared library `soname` and its functions into *g. On
/// failure ZENO_ERR_UNSUPPORTED naming the library and what to install.
/// The handle is never closed (GLPK keeps per-thread state).
zeno_status glpk_api_open(const char *soname, glpk_api *g, zeno_error *e);

/// The process's GLPK, loaded once (thread-safe) from the library the
/// build linked against (ZENO_GLPK_SONAME); NULL with *e filled when it
/// cannot be loaded.
const glpk_api *glpk_api_get(zeno_error *e);

/// GLPK when it was loaded already, else NULL (loads nothing).
const glpk_api *glpk_api_loaded(void);

#endif
