// Semidefinite programs in CSDP's primal form, solved by CSDP 6.2
// (libsdp-dev) through its C API:
//
//   maximise  tr(C X)  subject to  tr(A_k X) = b_k  (k = 0 .. m-1),  X >= 0,
//
// X block diagonal; each block a dense symmetric matrix (positive
// semidefinite) or a diagonal (a vector of non-negative scalars). The
// matrices C and A_k are given as entries (i <= j; an off-diagonal entry v
// stands for both (i, j) and (j, i)). Indices here are 0-based; the
// translation to CSDP's 1-based, Fortran-ordered structures is in
// sdp_csdp.c.
//
// CSDP facts the wrapper relies on (checked on Debian's 6.2.0 build):
// - easy_sdp() and initparams() read a file `param.csdp` from the current
//   directory and print at printlevel 1 by default. The wrapper calls
//   neither: it sets the parameters in code and calls sdp() itself with
//   printlevel 0, at which CSDP prints nothing (tests/test_sos.c checks
//   stdout stays empty).
// - CSDP calls exit() on malformed input (an empty constraint, no
//   constraint at all, a non-symmetric C, inconsistent block sizes): the
//   wrapper checks and drops such input before the call. It also calls
//   exit() when malloc fails; that cannot be intercepted.
// - sdp() keeps a static pointer to its work matrices (op_o.c), so two
//   concurrent calls would share it: every call runs under one process
//   wide mutex. Debian's build has no OpenMP (libsdp.so does not link
//   libgomp), so one call uses one thread.
#ifndef ZENO_SOS_SDP_CSDP_H
#define ZENO_SOS_SDP_CSDP_H

#include <stdbool.h>
#include <stddef.h>

#include "zeno/error.h"

/// One entry of C (con = SDP_OBJECTIVE) or of A_con.
typedef struct sdp_entry {
  int con;    ///< constraint index, or SDP_OBJECTIVE
  int block;  ///< block index
  int i, j;   ///< position in the block, i <= j (diagonal blocks: i == j)
  double value;
} sdp_entry;

#define SDP_OBJECTIVE (-1)

typedef struct ze_sdp {
  int nblocks;
  int *block_size;   ///< order of each block
  bool *block_diag;  ///< true: a diagonal block (non-negative scalars)
  int ncons;
  double *rhs;  ///< b_k, k < ncons
  sdp_entry *entries;
  size_t nentries, cap;
  int max_iterations;  ///< CSDP's maxiter (default SDP_MAX_ITERATIONS)
} ze_sdp;

/// CSDP's default iteration limit.
#define SDP_MAX_ITERATIONS 100

typedef enum sdp_status {
  SDP_SOLVED = 0,         ///< optimal to CSDP's tolerances (code 0)
  SDP_PRIMAL_INFEASIBLE,  ///< no X satisfies the constraints (code 1)
  SDP_DUAL_INFEASIBLE,    ///< the objective is unbounded (code 2)
  SDP_REDUCED_ACCURACY    ///< solved with reduced accuracy (code 3)
} sdp_status;

typedef struct sdp_solution {
  sdp_status status;
  int csdp_code;      ///< sdp()'s return value
  double pobj, dobj;  ///< primal and dual objectives
  double **x;         ///< per block: dense n*n row-major, or the n diagonal values
  double *y;          ///< dual variables, one per constraint
  double seconds;     ///< wall time of the solve
} sdp_solution;

/// Empty program with the given blocks and constraints (all rhs 0).
zeno_status sdp_init(ze_sdp *p, int nblocks, const int *block_size, const bool *block_diag,
                     int ncons, zeno_error *e);
/// Adds value to entry (i, j) of block of A_con (or C); entries may repeat
/// (they add up). Swaps i and j when i > j.
zeno_status sdp_add(ze_sdp *p, int con, int block, int i, int j, double value, zeno_error *e);
void sdp_free(ze_sdp *p);

/// Solves with CSDP. Returns ZENO_OK with a status for codes 0-3;
/// ZENO_ERR_SINGULAR naming CSDP's code for its failures (codes 4-9: the
/// iteration limit, lack of progress, a singular system, NaN);
/// ZENO_ERR_ARGUMENT for a program without blocks or constraints.
zeno_status sdp_solve(const ze_sdp *p, sdp_solution *s, zeno_error *e);
void sdp_solution_free(sdp_solution *s, int nblocks);

/// CSDP's meaning of its return code (e.g. "maximum iterations reached").
const char *sdp_code_name(int code);

#endif
