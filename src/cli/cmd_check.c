// `zeno check SCENE`: analyses the nominal equilibrium of a scene: static
// feasibility, the index ordering (13), ambiguity (Theorem 1) and the
// Painleve bounds (11).
#include <getopt.h>
#include <stdio.h>

#include "cli_common.h"

static const char *const COMMAND = "check";

/// Buffer for zeno_mode_name().
#define MODE_NAME_SIZE 3

typedef struct check_options {
  cli_overrides overrides; ///< --set overrides, in order
  const char *scene_path;
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

static int apply_option(check_options *o, int option, char **argv) {
  switch (option) {
    case 's':
      if (cli_overrides_add(&o->overrides, NULL, optarg)) return CLI_CONTINUE;
      cli_error("out of memory");
      return CLI_EXIT_RUNTIME;
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

static int parse_options(int argc, char **argv, check_options *o) {
  opterr = 0;
  int option;
  while ((option = getopt_long(argc, argv, ":s:jh", LONG_OPTIONS, NULL)) !=
         -1) {
    const int code = apply_option(o, option, argv);
    if (code != CLI_CONTINUE) return code;
  }
  return cli_scene_argument(COMMAND, argc, argv, &o->scene_path);
}

/* ---- human report -------------------------------------------------------- */

static void print_feasibility(const zeno_equilibrium_report *r) {
  cli_label("equilibrium (SS)");
  printf("%s, margin %.6g\n", r->feasible ? "feasible" : "infeasible",
         r->margin);
  cli_label("balancing forces");
  for (int i = 0; i < r->contact_count; i++)
    printf("%scontact %d: n = %.6g, t = %.6g", i ? "; " : "", i + 1,
           r->forces[i][0], r->forces[i][1]);
  printf("\n");
}

static void print_ordering(const zeno_equilibrium_report *r) {
  cli_label("FF normal accel.");
  for (int i = 0; i < r->contact_count; i++)
    printf("%sz%d'' = %.6g", i ? ", " : "", i + 1, r->zdd_ff[i]);
  printf("\n");
  cli_label("ordering (13) z1''<0");
  if (r->contact_count < ZENO_MAX_CONTACTS)
    printf("n/a (one contact)\n");
  else if (r->index_order_ok)
    printf("holds\n");
  else if (r->index_order_swappable)
    printf("violated; swap the contact order (1 <-> 2) to satisfy it\n");
  else
    printf("violated, also with the contacts swapped\n");
}

static void print_ambiguity(const zeno_equilibrium_report *r) {
  char name[MODE_NAME_SIZE];
  cli_label("ambiguity");
  if (r->ambiguous_count == 0) {
    printf("none\n");
    return;
  }
  for (int i = 0; i < r->ambiguous_count; i++)
    printf("%s%s", i ? " " : "",
           zeno_mode_name(r->ambiguous_modes[i], r->contact_count, name));
  printf(" consistent at rest (Theorem 1: not finite-time Lyapunov "
         "stable)\n");
}

static void print_painleve(const zeno_scene *scene,
                           const zeno_equilibrium_report *r) {
  for (int i = 0; i < r->contact_count; i++) {
    char label[CLI_LABEL_WIDTH];
    snprintf(label, sizeof label, "Painleve (11) c%d", i + 1);
    cli_label(label);
    printf("mu = %.6g %s bound %.6g: %s\n", scene->contacts[i].mu,
           r->painleve_ok[i] ? "<" : ">=", r->painleve_bound[i],
           r->painleve_ok[i] ? "ok" : "violated");
  }
}

static void print_report(const zeno_scene *scene,
                         const zeno_equilibrium_report *r) {
  cli_label("scene");
  printf("%s\n", scene->name);
  print_feasibility(r);
  print_ordering(r);
  print_ambiguity(r);
  print_painleve(scene, r);
}

/* ---- the command --------------------------------------------------------- */

static int check(const check_options *o) {
  zeno_scene scene;
  zeno_equilibrium_report report;
  zeno_error err;
  zeno_error_clear(&err);
  if (zeno_scene_load(o->scene_path, cli_overrides_items(&o->overrides),
                      o->overrides.count, &scene, &err) != ZENO_OK ||
      zeno_equilibrium_check(&scene, &report, &err) != ZENO_OK)
    return cli_library_error(&err);
  if (o->json) {
    zeno_io_equilibrium_json(stdout, &scene, &report);
    putchar('\n');
  } else {
    print_report(&scene, &report);
  }
  return CLI_EXIT_OK;
}

int cmd_check(int argc, char **argv) {
  check_options o = {0};
  int code = parse_options(argc, argv, &o);
  if (code == CLI_CONTINUE) code = check(&o);
  cli_overrides_free(&o.overrides);
  return code;
}
