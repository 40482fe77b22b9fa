// `zeno check SCENE`: analyses the nominal equilibrium of a scene: static
// feasibility, the index ordering (13), ambiguity (Theorem 1) and the
// Painleve bounds (11).
#include <getopt.h>
#include <stdio.h>

#include "cli_common.h"

#define COMMAND_NAME "check"
static const char *const COMMAND = COMMAND_NAME;

typedef struct check_options {
  cli_scene_options common;  ///< --set overrides and the scene
  bool json;
} check_options;

static void print_help(void) {
  printf(
      "Usage: zeno check SCENE [OPTIONS]\n"
      "\n"
      "Analyses the nominal equilibrium of the scene file SCENE (YAML):\n"
      "  - feasibility: do contact forces strictly inside the friction cones\n"
      "    balance the load (all contacts sticking, SS)? with the margin and\n"
      "    the balancing forces (normal, tangential) per contact;\n"
      "  - the normal accelerations under FF and the index ordering (13),\n"
      "    z1'' < 0, with a hint when swapping the contacts would satisfy it;\n"
      "  - ambiguity: non-static modes consistent at rest (Theorem 1: any\n"
      "    makes the equilibrium not finite-time Lyapunov stable);\n"
      "  - the Painleve bound (11) per contact: mu_i must stay below it.\n"
      "An infeasible equilibrium is a result and exits 0; bad input exits 2.\n"
      "\n"
      "Options:\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path, e.g.\n"
      "                       --set paper.alpha=30; VALUE in YAML flow\n"
      "                       syntax; repeatable, applied in order\n"
      "  -j, --json           print one JSON object: scene, feasible, margin,\n"
      "                       forces, zdd_ff, index_order_ok,\n"
      "                       index_order_swappable, ambiguous, painleve\n"
      "  -h, --help           show this help\n");
}

static const struct option LONG_OPTIONS[] = {
    {"set", required_argument, NULL, 's'},
    {"json", no_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  check_options *o = options;
  switch (option) {
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- human report -------------------------------------------------------- */

static void print_feasibility(const zeno_equilibrium_report *r) {
  cli_print_feasibility(r);
  cli_label("balancing forces");
  for (int i = 0; i < r->contact_count; i++)
    printf("%scontact %d: n = %.6g, t = %.6g", i ? "; " : "", i + 1, r->forces[i][0],
           r->forces[i][1]);
  printf("\n");
}

static void print_ordering(const zeno_equilibrium_report *r) {
  cli_label("FF normal accel.");
  for (int i = 0; i < r->contact_count; i++)
    printf("%sz%d'' = %.6g", i ? ", " : "", i + 1, r->zdd_ff[i]);
  printf("\n");
  cli_label("ordering (13) z1''<0");
  if (r->contact_count < ZENO_MAX_CONTACTS) printf("n/a (one contact)\n");
  else if (r->index_order_ok) printf("holds\n");
  else if (r->index_order_swappable)
    printf("violated; swap the contact order (1 <-> 2) to satisfy it\n");
  else printf("violated, also with the contacts swapped\n");
}

static void print_ambiguity(const zeno_equilibrium_report *r) {
  char name[ZENO_MODE_NAME_SIZE];
  cli_label("ambiguity");
  if (r->ambiguous_count == 0) {
    printf("none\n");
    return;
  }
  for (size_t i = 0; i < r->ambiguous_count; i++)
    printf("%s%s", i ? " " : "", zeno_mode_name(r->ambiguous_modes[i], r->contact_count, name));
  printf(
      " consistent at rest (Theorem 1: not finite-time Lyapunov "
      "stable)\n");
}

static void print_report(const zeno_scene *scene, const zeno_equilibrium_report *r) {
  cli_label("scene");
  printf("%s\n", scene->name);
  print_feasibility(r);
  print_ordering(r);
  print_ambiguity(r);
  cli_print_painleve(scene, r);
}

/* ---- the command --------------------------------------------------------- */

typedef struct check_json {
  const zeno_scene *scene;
  const zeno_equilibrium_report *report;
} check_json;

static zeno_status report_json(FILE *out, const void *context) {
  const check_json *c = context;
  return zeno_io_equilibrium_json(out, c->scene, c->report, NULL);
}

static int check(const void *options, const zeno_scene *scene, zeno_error *err) {
  const check_options *o = options;
  zeno_equilibrium_report report;
  if (zeno_equilibrium_check(scene, &report, err) != ZENO_OK) return cli_library_error(err);
  if (o->json) {
    cli_print_json(stdout, &o->common, report_json, &(check_json){scene, &report});
    putchar('\n');
  } else {
    print_report(scene, &report);
  }
  return CLI_EXIT_OK;
}

static const cli_scene_command CHECK_COMMAND = {.name = COMMAND_NAME,
                                                .short_options = ":s:jh",
                                                .long_options = LONG_OPTIONS,
                                                .apply = apply_option,
                                                .run = check};

int cmd_check(int argc, char **argv) {
  check_options o = {0};
  return cli_scene_command_main(&CHECK_COMMAND, &o.common, &o, argc, argv);
}
