// Semidefinite programs on CSDP (src/analysis/sdp_csdp.c) and the
// sums-of-squares machinery on top of them: textbook SDP and SOS facts,
// silence (CSDP prints nothing), the error paths and the soundness re-check.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/sdp_csdp.h"

// Runs f(arg) with stdout redirected to a temporary file; returns the
// number of bytes written to it.
static long stdout_bytes_of(void (*f)(void *), void *arg) {
  fflush(stdout);
  FILE *tmp = tmpfile();
  assert_non_null(tmp);
  int saved = dup(STDOUT_FILENO);
  assert_true(saved >= 0);
  assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
  f(arg);
  fflush(stdout);
  assert_true(dup2(saved, STDOUT_FILENO) >= 0);
  close(saved);
  long size = ftell(tmp) >= 0 ? (fseek(tmp, 0, SEEK_END), ftell(tmp)) : -1;
  fclose(tmp);
  return size;
}

// max 2 X12 s.t. X11 = 1, X22 = 1, X >= 0 (2x2): X12 <= sqrt(X11 X22) = 1,
// so the optimum is 2 at X = [1 1; 1 1].
static void two_by_two(void *arg) {
  ze_sdp_solution *s = arg;
  ze_sdp p;
  int size = 2;
  bool diag = false;
  assert_int_equal(ze_sdp_init(&p, 1, &size, &diag, 2, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, ZE_SDP_OBJECTIVE, 0, 0, 1, 1.0, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 0, 1.0, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 1, 0, 1, 1, 1.0, NULL), ZENO_OK);
  p.rhs[0] = p.rhs[1] = 1.0;
  assert_int_equal(ze_sdp_solve(&p, s, NULL), ZENO_OK);
  ze_sdp_free(&p);
}

static void sdp_two_by_two_correlation(void **state) {
  (void)state;
  ze_sdp_solution s;
  assert_int_equal(stdout_bytes_of(two_by_two, &s), 0); // CSDP printed nothing
  assert_int_equal(s.status, ZE_SDP_SOLVED);
  assert_true(fabs(s.pobj - 2.0) < 1e-7 && fabs(s.dobj - 2.0) < 1e-7);
  assert_true(fabs(s.x[0][1] - 1.0) < 1e-7 && fabs(s.x[0][2] - 1.0) < 1e-7);
  ze_sdp_solution_free(&s, 1);
}

// Diagonal block: x1 + x2 = 1 and x1 - x2 = 3 force x2 = -1 < 0: infeasible.
static void sdp_infeasible_diagonal(void **state) {
  (void)state;
  ze_sdp p;
  int size = 2;
  bool diag = true;
  assert_int_equal(ze_sdp_init(&p, 1, &size, &diag, 2, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 0, 1.0, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 1, 1, 1.0, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 1, 0, 0, 0, 1.0, NULL), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 1, 0, 1, 1, -1.0, NULL), ZENO_OK);
  p.rhs[0] = 1.0;
  p.rhs[1] = 3.0;
  ze_sdp_solution s;
  assert_int_equal(ze_sdp_solve(&p, &s, NULL), ZENO_OK);
  assert_int_equal(s.status, ZE_SDP_PRIMAL_INFEASIBLE);
  ze_sdp_solution_free(&s, 1);
  ze_sdp_free(&p);
}

// Bad programs are errors, never CSDP's exit(): no block, an entry out of
// range, an off-diagonal entry of a diagonal block, a NaN, every
// constraint empty; an empty constraint with b != 0 is infeasible; and an
// iteration limit of 1 is CSDP's failure code 4, reported as an error.
static void sdp_error_paths(void **state) {
  (void)state;
  ze_sdp p;
  zeno_error e;
  int size = 2;
  bool diag = true, dense = false;
  assert_int_equal(ze_sdp_init(&p, 0, &size, &diag, 1, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(ze_sdp_init(&p, 1, &size, &diag, 2, &e), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 2, 1.0, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 1, 1.0, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 0, NAN, &e), ZENO_ERR_ARGUMENT);
  assert_int_equal(ze_sdp_add(&p, 2, 0, 0, 0, 1.0, &e), ZENO_ERR_ARGUMENT);
  ze_sdp_solution s;
  assert_int_equal(ze_sdp_solve(&p, &s, &e), ZENO_ERR_ARGUMENT);
  assert_non_null(strstr(e.message, "empty"));
  p.rhs[1] = 1.0; // constraint 1 reads 0 = 1
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 0, 1.0, &e), ZENO_OK);
  p.rhs[0] = 1.0;
  assert_int_equal(ze_sdp_solve(&p, &s, &e), ZENO_OK);
  assert_int_equal(s.status, ZE_SDP_PRIMAL_INFEASIBLE);
  ze_sdp_solution_free(&s, 1);
  ze_sdp_free(&p);

  assert_int_equal(ze_sdp_init(&p, 1, &size, &dense, 2, &e), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, ZE_SDP_OBJECTIVE, 0, 0, 1, 1.0, &e), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 0, 0, 0, 0, 1.0, &e), ZENO_OK);
  assert_int_equal(ze_sdp_add(&p, 1, 0, 1, 1, 1.0, &e), ZENO_OK);
  p.rhs[0] = p.rhs[1] = 1.0;
  p.max_iterations = 1;
  assert_int_equal(ze_sdp_solve(&p, &s, &e), ZENO_ERR_SINGULAR);
  assert_non_null(strstr(e.message, "CSDP failed: code 4"));
  p.max_iterations = 0;
  assert_int_equal(ze_sdp_solve(&p, &s, &e), ZENO_ERR_ARGUMENT);
  ze_sdp_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sdp_two_by_two_correlation),
      cmocka_unit_test(sdp_infeasible_diagonal),
      cmocka_unit_test(sdp_error_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
