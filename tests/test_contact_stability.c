// Placeholder, filled below.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "test_util.h"

static void placeholder(void **state) { (void)state; }

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(placeholder)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
