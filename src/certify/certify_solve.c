// A certificate's program solved (certify_program.h: cert_program_solve) and its
// outcome freed: shared by the program of weighted degree 2
// (certify_program.c) and the exactly decided quartic (certify_quartic.c).
#include <stdio.h>
#include <stdlib.h>

#include "certify/certify_program.h"

zeno_status cert_program_solve(const sos_program *prog, const sos_options *o,
                               cert_program_outcome *out, sos_solution *sol, zeno_error *e) {
  zeno_error solve_error;
  const zeno_status st = sos_solve(prog, o, sol, &solve_error);
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
  out->solved = sol->status == SOS_FEASIBLE;
  if (!out->solved)
    snprintf(out->reason, sizeof out->reason,
             "the SOS program is infeasible to CSDP (margin t* = %.3g)", sol->margin);
  return ZENO_OK;
}

void cert_program_outcome_free(cert_program_outcome *out) {
  if (out->minus) {
    cert_program_outcome_free(out->minus);
    free(out->minus);
    out->minus = NULL;
  }
  free(out->mono);
  free(out->coef);
  out->mono = NULL;
  out->coef = NULL;
  out->nterms = 0;
}
