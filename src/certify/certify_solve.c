// A certificate's program solved (certify_program.h: zcp_solve) and its
// outcome freed: shared by the program of weighted degree 2
// (certify_program.c) and the exactly decided quartic (certify_quartic.c).
#include <stdio.h>
#include <stdlib.h>

#include "certify/certify_program.h"

zeno_status zcp_solve(const ze_sos_program *prog, const ze_sos_options *o, zcp_outcome *out,
                      ze_sos_solution *sol, zeno_error *e) {
  zeno_error solve_error;
  const zeno_status st = ze_sos_solve(prog, o, sol, &solve_error);
  if (st == ZENO_ERR_SINGULAR) {
    out->solver_failed = true;
    snprintf(out->reason, sizeof out->reason, "%.190s", solve_error.message);
    return ZENO_OK;
  }
  if (st != ZENO_OK) {
    if (e) *e = solve_error;
    return st;
  }
  out->status = sol->status;
  out->csdp_code = sol->csdp_code;
  out->sdp_order = sol->sdp_order;
  out->sdp_constraints = sol->sdp_constraints;
  out->seconds = sol->seconds;
  out->solver_margin = out->margin = sol->margin;
  out->solved = sol->status == ZE_SOS_FEASIBLE;
  if (!out->solved)
    snprintf(out->reason, sizeof out->reason,
             "the SOS program is infeasible to CSDP (margin t* = %.3g)", sol->margin);
  return ZENO_OK;
}

void zcp_outcome_free(zcp_outcome *out) {
  free(out->mono);
  free(out->coef);
  out->mono = NULL;
  out->coef = NULL;
  out->nterms = 0;
}
