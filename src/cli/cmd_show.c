// `zeno show SCENE`: the scene as zeno reads it, after its overrides: the
// paper block (when it has one) and the general form it expands to, every
// angle in degrees and radians, the initial state, impact law, model and
// stop conditions; notes where an angle looks like radians typed into a
// degrees field. --yaml prints the scene as a scene file, every value
// explicit, instead.
#include <getopt.h>
#include <math.h>
#include <stdio.h>

#include "cli_common.h"

#define COMMAND_NAME "show"
static const char *const COMMAND = COMMAND_NAME;

/// Degrees per radian.
#define DEG_PER_RAD (180.0 / 3.14159265358979323846)

typedef struct show_options {
  cli_scene_options common;  ///< --set overrides and the scene
  bool yaml;
} show_options;

static void print_help(void) {
  printf(
      "Usage: zeno show SCENE [OPTIONS]\n"
      "\n"
      "Prints the scene file SCENE (YAML) as zeno reads it, overrides\n"
      "applied: the paper block when the scene has one and the general form\n"
      "it expands to (contacts, load, body), every angle in degrees and in\n"
      "radians, the impact law, initial state, model, stop conditions and\n"
      "solver settings. Angles that look like radians typed into a degrees\n"
      "field are noted. Bad input exits 2.\n"
      "\n"
      "Options:\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path, e.g.\n"
      "                       --set paper.alpha=30; repeatable, applied in\n"
      "                       order\n"
      "  -y, --yaml           print the scene as a scene file with every value\n"
      "                       explicit, defaults included (it loads back to the\n"
      "                       same scene)\n"
      "  -h, --help           show this help\n");
}

static const struct option LONG_OPTIONS[] = {
    {"set", required_argument, NULL, 's'},
    {"yaml", no_argument, NULL, 'y'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  show_options *o = options;
  switch (option) {
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 'y': o->yaml = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

// "65 deg (1.13446 rad)".
static void print_angle(double rad) { printf("%.6g deg (%.6g rad)", rad * DEG_PER_RAD, rad); }

static void print_paper(const zeno_paper_params *p) {
  const double angles[3] = {p->alpha, p->phi1, p->phi2};
  static const char *const angle_name[3] = {"alpha", "phi1", "phi2"};
  cli_label("paper block");
  printf("given (Fig. 1 of Varkonyi & Or); contact points (l_i, -h)\n");
  for (int k = 0; k < 3; k++) {
    cli_label(angle_name[k]);
    print_angle(angles[k] / DEG_PER_RAD);
    printf("\n");
  }
  cli_label("l1, l2, h");
  printf("%.6g, %.6g, %.6g\n", p->l1, p->l2, p->h);
  cli_label("mu1, mu2");
  printf("%.6g, %.6g\n", p->mu1, p->mu2);
  cli_label("rho, m, f, tau");
  printf("%.6g, %.6g, %.6g, %.6g\n", p->rho, p->m, p->f, p->tau);
}

static void print_general(const zeno_scene *sc) {
  cli_label("body");
  printf("mass %.6g, rho %.6g (I = m rho^2 = %.6g)", sc->mass, sc->rho,
         sc->mass * sc->rho * sc->rho);
  if (sc->com_shift[0] != 0 || sc->com_shift[1] != 0)
    printf(", centre of mass moved by (%.6g, %.6g)", sc->com_shift[0], sc->com_shift[1]);
  printf("\n");
  for (int i = 0; i < sc->contact_count; i++) {
    const zeno_contact_def *c = &sc->contacts[i];
    char label[32];
    snprintf(label, sizeof label, "contact %d", i + 1);
    cli_label(label);
    printf("point (%.6g, %.6g) from the centre of mass, mu %.6g\n", c->point[0], c->point[1],
           c->mu);
    cli_label("  surface angle");
    print_angle(c->surface_angle);
    if (c->surface_point_set)
      printf(", through (%.6g, %.6g)\n", c->surface_point[0], c->surface_point[1]);
    else printf(", through the vertex at the nominal pose\n");
  }
  cli_label("load");
  printf("magnitude %.6g, torque %.6g, angle from -y ", sc->load_magnitude, sc->load_torque);
  print_angle(sc->load_angle);
  printf(": force (%.6g, %.6g)\n", sc->load_magnitude * sin(sc->load_angle),
         -sc->load_magnitude * cos(sc->load_angle));
}

static void print_rest(const zeno_scene *sc) {
  cli_label("impact law");
  printf("%s, e = %.6g, e_t = %.6g\n", zeno_impact_law_name(sc->impact_law), sc->restitution,
         sc->tangential_restitution);
  cli_label("initial");
  if (sc->initial_kind == ZENO_INITIAL_ZOD)
    printf("q' = (%.6g, %.6g, %.6g), q'dot = (%.6g, %.6g, %.6g)\n", sc->initial_qp[0],
           sc->initial_qp[1], sc->initial_qp[2], sc->initial_qdp[0], sc->initial_qdp[1],
           sc->initial_qdp[2]);
  else
    printf("pose (%.6g, %.6g, %.6g rad = %.6g deg), velocity (%.6g, %.6g, %.6g rad/time)\n",
           sc->initial_pose[0], sc->initial_pose[1], sc->initial_pose[2],
           sc->initial_pose[2] * DEG_PER_RAD, sc->initial_velocity[0], sc->initial_velocity[1],
           sc->initial_velocity[2]);
  cli_label("model");
  if (sc->model == ZENO_MODEL_FULL)
    printf("%s, epsilon %.6g\n", zeno_model_name(sc->model), sc->epsilon);
  else printf("%s\n", zeno_model_name(sc->model));
  cli_label("stop");
  printf("t_end %.6g, max_events %ld, ", sc->t_end, sc->max_events);
  if (sc->escape_radius > 0) printf("escape_radius %.6g", sc->escape_radius);
  else printf("escape_radius %g body sizes (0)", ZENO_ESCAPE_RADIUS_SCALES);
  printf(", wall_time %.6g s\n", sc->wall_time);
  cli_label("solver");
  printf("rtol %.6g, atol %.6g, sample_dt %.6g\n", sc->rtol, sc->atol, sc->sample_dt);
}

// The scene's warnings (zeno/warnings.h) as notes of the report: an angle
// that looks like radians, an equilibrium outside the paper's assumptions.
static void print_notes(const zeno_warnings *w) {
  for (size_t k = 0; k < w->count; k++) {
    const zeno_warning *n = &w->items[k];
    cli_label("note");
    if (n->kind == ZENO_WARNING_RADIANS) printf("%s = %s\n", n->parameter, n->message);
    else printf("%s%s%s\n", n->parameter, n->parameter[0] ? ": " : "", n->message);
  }
}

static int show(const void *options, const zeno_scene *scene, zeno_error *err) {
  const show_options *o = options;
  if (o->yaml) {
    cli_print_warnings(&o->common.warnings);
    if (zeno_io_scene_yaml(stdout, scene, err) != ZENO_OK) return cli_output_error(err);
    return CLI_EXIT_OK;
  }
  cli_label("scene");
  printf("%s\n", scene->name);
  cli_label("form");
  printf("%s\n", scene->has_paper ? "paper block, expanded to the general form below" : "general");
  zeno_paper_params block;
  if (zeno_scene_paper(scene, &block)) print_paper(&block);
  print_general(scene);
  print_rest(scene);
  print_notes(&o->common.warnings);
  return CLI_EXIT_OK;
}

static const cli_scene_command SHOW_COMMAND = {.name = COMMAND_NAME,
                                               .short_options = ":s:yh",
                                               .long_options = LONG_OPTIONS,
                                               .apply = apply_option,
                                               .run = show,
                                               .own_warnings = true};

int cmd_show(int argc, char **argv) {
  show_options o = {0};
  return cli_scene_command_main(&SHOW_COMMAND, &o.common, &o, argc, argv);
}
