// `zeno check SCENE`: analyses the nominal equilibrium of a scene: static
// feasibility, the index ordering (13), ambiguity (Theorem 1) and the
// Painleve bounds (11). A scene of more than two contacts gets
// Pang-Trinkle's static check in its general form (zeno_contact_set_check).
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
      "A scene of more than two contacts (up to 16) gets Pang-Trinkle's check\n"
      "in its general form instead: feasibility and margin, the balancing\n"
      "forces, wedged, weak, strong and frictionless stability, the unstable\n"
      "contact modes (ambiguous: weakly but not strongly stable), and Theorem 4\n"
      "for up to 4 contacts.\n"
      "An infeasible equilibrium is a result and exits 0; bad input exits 2.\n"
      "\n"
      "Options:\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path, e.g.\n"
      "                       --set paper.alpha=30; VALUE in YAML flow\n"
      "                       syntax; repeatable, applied in order\n"
      "  -j, --json           print one JSON object: scene, feasible, margin,\n"
      "                       forces, zdd_ff, index_order_ok,\n"
      "                       index_order_swappable, ambiguous, painleve;\n"
      "                       for more than two contacts: scene,\n"
      "                       contact_count, feasible, margin, wedged, forces,\n"
      "                       weakly_stable, frictionless_stable,\n"
      "                       strongly_stable, ambiguous, modes_examined,\n"
      "                       unstable_mode_count, unstable_modes,\n"
      "                       theorem4_checked, theorem4_systems,\n"
      "                       theorem4_consistent, weak_implies_strong\n"
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
  if (r->contact_count < ZENO_PAIR_CONTACTS) printf("n/a (one contact)\n");
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

/* ---- more than two contacts ---------------------------------------------- */

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

static void print_set_forces(const zeno_contact_set_report *r) {
  cli_label("equilibrium (SS)");
  printf("%s, margin %.6g%s\n", r->feasible ? "feasible" : "infeasible", r->margin,
         r->wedged ? " (wedged: the cap, unbounded)" : "");
  if (!r->weakly_stable) return;  // no force balances the load
  cli_label("balancing forces");
  for (int i = 0; i < r->contact_count; i++)
    printf("%scontact %d: n = %.6g, t = %.6g", i ? "; " : "", i + 1, r->forces[i][0],
           r->forces[i][1]);
  printf("\n");
}

static void print_set_modes(const zeno_contact_set_report *r) {
  char name[ZENO_CONTACT_SET_MAX + 1];
  cli_label("unstable modes");
  if (r->unstable_mode_count == 0) {
    printf("none of %d examined\n", r->modes_examined);
    return;
  }
  const int listed = r->unstable_mode_count < ZENO_CONTACT_SET_MODE_LIST
                         ? r->unstable_mode_count
                         : ZENO_CONTACT_SET_MODE_LIST;
  for (int k = 0; k < listed; k++)
    printf("%s%s", k ? " " : "",
           zeno_contact_set_mode_name(&r->unstable_modes[k], r->contact_count, name));
  if (listed < r->unstable_mode_count) printf(" ...");
  printf(" (%d of %d examined move from rest)\n", r->unstable_mode_count, r->modes_examined);
}

static void print_set_report(const zeno_scene *scene, const zeno_contact_set_report *r) {
  cli_label("scene");
  printf("%s\n", scene->name);
  cli_label("contacts");
  printf("%d (Pang-Trinkle's check for any number of contacts)\n", r->contact_count);
  print_set_forces(r);
  cli_label("weakly stable");
  printf("%s\n", yes_no(r->weakly_stable));
  cli_label("frictionless stable");
  printf("%s\n",
         r->frictionless_stable ? "yes (Theorem 1: strongly stable for every friction)" : "no");
  cli_label("strongly stable");
  printf("%s\n", yes_no(r->strongly_stable));
  cli_label("ambiguity");
  printf("%s\n",
         r->ambiguous ? "ambiguous: rest and motion both solve the contact problem" : "none");
  print_set_modes(r);
  cli_label("Theorem 4");
  if (!r->theorem4_checked)
    printf("not checked (more than %d contacts)\n", ZENO_CONTACT_SET_THEOREM4_MAX);
  else
    printf("%d of %d systems consistent: %s\n", r->theorem4_consistent, r->theorem4_systems,
           r->weak_implies_strong ? "every weakly stable load is strongly stable"
                                  : "not decided by geometry and friction alone");
}

static zeno_status set_report_json(FILE *out, const void *context) {
  const void *const *c = context;
  return zeno_io_contact_set_json(out, c[0], c[1], NULL);
}

// A scene of more than two contacts: zeno_contact_set_check's report.
static int check_set(const check_options *o, const zeno_scene *scene, zeno_error *err) {
  zeno_contact_set_def def;
  zeno_contact_set_report report;
  if (zeno_contact_set_def_from_scene(scene, &def, err) != ZENO_OK ||
      zeno_contact_set_check(&def, &report, err) != ZENO_OK)
    return cli_library_error(err);
  if (o->json) {
    const void *context[2] = {scene, &report};
    cli_print_json(stdout, &o->common, set_report_json, context);
    putchar('\n');
  } else {
    print_set_report(scene, &report);
  }
  return CLI_EXIT_OK;
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
  if (scene->contact_count > ZENO_PAIR_CONTACTS) return check_set(o, scene, err);
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
