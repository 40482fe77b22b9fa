// Reports and figures shared by `zeno analyze` and `zeno maps`.
#include "cli_stability.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int cli_axis_option(const char *command, const char *option, const char *text,
                    zeno_region_axis *axis, char typed[CLI_TYPED_SIZE], bool *set) {
  zeno_error err;
  if (zeno_region_axis_parse(text, axis, &err) != ZENO_OK)
    return cli_usage_error(command, "%s: %s", option, err.message);
  snprintf(typed, CLI_TYPED_SIZE, "%s %s", option, text);
  *set = true;
  return CLI_CONTINUE;
}

int cli_image_option(cli_scene_options *common, const char *command, const char *option,
                     const char *path) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  if (plot->format_known(path)) return cli_output(common, option, path);
  return cli_usage_error(command, "%s: '%s' must end in .png, .svg or .pdf", option, path);
}

int cli_plot_result(const zeno_plot_module *plot, const char *path, plot_status status) {
  if (status == PLOT_OK) return cli_wrote(path), CLI_EXIT_OK;
  if (status == PLOT_STOPPED) return CLI_EXIT_INTERRUPTED;  // a signal: nothing written
  cli_error("cannot write '%s': %s", path, plot->status_message(status));
  return CLI_EXIT_RUNTIME;
}

void cli_append_law(const zeno_scene *scene, char *title, size_t size) {
  // The coefficients the law reads (the paper's reads none: no note).
  const zeno_impact_law_info law = zeno_impact_law_info_of(scene->impact_law);
  if (!law.restitution && !law.tangential_restitution) return;
  const size_t used = strlen(title);
  if (used >= size) return;
  if (!law.tangential_restitution)
    snprintf(title + used, size - used, ", %s law e = %g", zeno_impact_law_name(scene->impact_law),
             scene->restitution);
  else
    snprintf(title + used, size - used, ", %s law e = %g, et = %g",
             zeno_impact_law_name(scene->impact_law), scene->restitution,
             scene->tangential_restitution);
}

int cli_plot_maps(const char *path, const char *title, const zeno_maps *maps,
                  const zeno_interval *iv, size_t n, const plot_options *options) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  const plot_maps_input input = {title, maps, iv, n, options};
  return cli_plot_result(plot, path, plot->maps(path, &input));
}

/// A sample's branch: its cycle word and impact outcomes, or how it ended.
static void print_branch(const zeno_cycle *c) {
  printf("%s", c->word[0] ? c->word : zeno_outcome_name(c->end));
  if (c->outcomes[0]) printf(" [%s]", c->outcomes);
  if (!c->defined) printf(" (no return)");
}

/// The samples on both sides of breakpoint phi (the maps keep both).
static void print_breakpoint(const zeno_maps *m, double phi) {
  size_t k = 0;
  while (k < m->sample_count && m->samples[k].phi < phi) k++;
  printf("phi = %.6f", phi);
  if (k > 0 && k < m->sample_count) {
    printf("  ");
    print_branch(&m->samples[k - 1]);
    printf(" | ");
    print_branch(&m->samples[k]);
  }
  printf("\n");
}

static void print_breakpoints(const zeno_maps *m) {
  cli_label("breakpoints");
  if (m->breakpoint_count == 0) printf("none\n");
  for (size_t k = 0; k < m->breakpoint_count; k++) {
    if (k > 0) printf("%-*s", CLI_LABEL_WIDTH, "");
    print_breakpoint(m, m->breakpoints[k]);
  }
}

static void print_limit(bool defined, double value) {
  if (defined) printf("%.6g", value);
  else printf("undefined");
}

static void print_fixed_points(const zeno_maps *m) {
  cli_label("fixed points of R");
  if (m->fixed_point_count == 0) printf("none\n");
  for (size_t k = 0; k < m->fixed_point_count; k++) {
    const zeno_fixed_point *p = &m->fixed_points[k];
    if (k > 0) printf("%-*s", CLI_LABEL_WIDTH, "");
    printf("phi = %.6f  G = %.6g  slope = ", p->phi, p->G);
    print_limit(isfinite(p->slope), p->slope);
    printf("  %s%s\n", p->convergent ? "convergent" : "divergent",
           p->limiting ? ", limiting (Lemma 3)" : "");
    if (p->at_breakpoint) {
      printf(
          "%-*s  on a breakpoint: [%s] | [%s]; the exact cycle from it %s%s "
          "(tie margin %.3g)\n",
          CLI_LABEL_WIDTH, "", p->word_left, p->word_right,
          p->returns ? "returns to it" : "does not return to it (no fixed point)",
          p->tie ? ", a tie" : "", p->tie_margin);
    }
  }
}

void cli_print_maps(const zeno_maps *m) {
  cli_label("contacts swapped (13)");
  printf("%s\n", m->swapped ? "yes" : "no");
  cli_label("samples");
  printf("%zu\n", m->sample_count);
  print_breakpoints(m);
  print_fixed_points(m);
  cli_label("G_max");
  print_limit(isfinite(m->G_max), m->G_max);
  printf("\n");
  cli_label("G- / G+ (Lemma 3)");
  print_limit(m->G_minus_defined, m->G_minus);
  printf(" / ");
  print_limit(m->G_plus_defined, m->G_plus);
  printf("\n");
}
