// `zeno certify SCENE`: a Lyapunov certificate by sums of squares
// (zeno/certify.h, docs/certificate.md). The certificate's library,
// libzeno-certify (CSDP, GMP, BLAS, LAPACK), is loaded when this command
// runs, never by the others (tests/test_startup): from $ZENO_MODULE_DIR,
// else beside the program (the build tree), else by its soname from the
// system's library path (installed).
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_certify.h"
#include "cli_common.h"
#include "cli_module.h"
#include "cli_signal.h"
#include "cli_stability.h"
#include "zeno/certify.h"

#define COMMAND_NAME "certify"
static const char *const COMMAND = COMMAND_NAME;
/// Terms of V2 shown in the human report before "...".
#define CERTIFY_SHOWN_TERMS 12
/// The printed V2 leaves out terms below this fraction of its largest
/// coefficient: CSDP's rounding (Example 4's 2.4e-11 u1 u2 beside
/// coefficients of order 1); --json lists every term as computed.
#define CERTIFY_TERM_FLOOR 1e-9
/// The figure's remark on V2 (docs/certificate.md, "Free flight can make V2
/// grow"): Theorem 2 asks only that it fall from a flight's start to after
/// the impact that ends it.
#define CERTIFY_PLOT_NOTE \
  "V₂ may rise in free flight; it falls from a flight's start to after its impact"
/// CSDP's accuracy (its default gap and feasibility tolerances, 1e-8): a
/// Gram margin above -CERTIFY_MARGIN_NOISE is zero within it.
#define CERTIFY_MARGIN_NOISE 1e-8

typedef struct certify_options {
  cli_scene_options common;
  bool json;
  const char *out;
  const char *plot;  ///< --plot: the figure of V1 and V2 along the run
  zeno_certify_def def;
} certify_options;

/// Events of the scene's own run written to DIR/v_events.csv at most.
#define CERTIFY_MAX_EVENTS 2000

static void print_help(void) {
  printf(
      "Usage: zeno certify SCENE [OPTIONS]\n"
      "\n"
      "Searches a Lyapunov certificate of the scene's equilibrium by sums of\n"
      "squares (V1 the energy, V2 = c x2 + W, docs/certificate.md), solved by\n"
      "CSDP and decided exactly. Prints 'certified' or 'not certified' (never\n"
      "'unstable': not certified proves nothing) with the reason, the\n"
      "solver status, the SDP's size, the time and V2. Exits 0 either way;\n"
      "bad input exits 2.\n"
      "\n"
      "Options:\n"
      "  -d, --degree D       weighted degree of V2, 2..4 (default 2, all a local\n"
      "                       certificate needs; 4 is decided exactly for the\n"
      "                       inelastic law without flights after an impact)\n"
      "  -c, --check N        N random perturbed runs: V1 and V2 must never grow\n"
      "                       between or across events beyond rounding, or the\n"
      "                       certificate is not certified (0..100000, default 0)\n"
      "  -j, --json           print one JSON object with everything (its\n"
      "                       members: docs/outputs.md)\n"
      "  -o, --out DIR        also write DIR/certificate.json and DIR/v_events.csv:\n"
      "                       V1 and V2 before and after every event of the\n"
      "                       scene's own run (its initial state)\n"
      "  -p, --plot FILE      the figure of V1 (top) and V2 (bottom) before and\n"
      "                       after every event of that run (.png/.svg/.pdf)\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path\n"
      "  -h, --help           show this help\n");
}

static const struct option LONG_OPTIONS[] = {
    {"degree", required_argument, NULL, 'd'}, {"check", required_argument, NULL, 'c'},
    {"json", no_argument, NULL, 'j'},         {"out", required_argument, NULL, 'o'},
    {"plot", required_argument, NULL, 'p'},   {"set", required_argument, NULL, 's'},
    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
};

static int apply_option(void *options, int option, char **argv) {
  certify_options *o = options;
  switch (option) {
    case 'd': return cli_int_option(COMMAND, "--degree", optarg, 2, 4, &o->def.degree);
    case 'c': return cli_int_option(COMMAND, "--check", optarg, 0, 100000, &o->def.check_runs);
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'o': o->out = optarg; return CLI_CONTINUE;
    case 'p': o->plot = optarg; return cli_image_option(&o->common, COMMAND, "--plot", optarg);
    case 's': return cli_override_option(&o->common.overrides, NULL, optarg);
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

static cli_certificate_library certificate_library;

/* ---- reports ------------------------------------------------------------- */

static const char *const VARS[5] = {"z1", "z2", "u1", "u2", "w2"};

static void print_term(FILE *f, const zeno_certificate_term *t, bool first) {
  fprintf(f, "%s%.6g", first ? "" : (t->coef < 0 ? " - " : " + "),
          first ? t->coef : (t->coef < 0 ? -t->coef : t->coef));
  for (int v = 0; v < 5; v++) {
    if (t->exponents[v] == 0) continue;
    fprintf(f, " %s", VARS[v]);
    if (t->exponents[v] > 1) fprintf(f, "^%d", t->exponents[v]);
  }
}

// One slip function cx x2 + W, its first terms.
// One slip function: its x2 coefficient and the terms of W, those below
// CERTIFY_TERM_FLOOR of the largest coefficient left out (and counted).
static void print_slip_function(const char *label, double cx, const zeno_certificate_term *terms,
                                size_t n) {
  cli_label(label);
  printf("%+.6g x2", cx);
  double largest = fabs(cx);
  for (size_t k = 0; k < n; k++) largest = fmax(largest, fabs(terms[k].coef));
  size_t shown = 0, dropped = 0;
  for (size_t k = 0; k < n; k++) {
    if (fabs(terms[k].coef) < CERTIFY_TERM_FLOOR * largest) dropped++;
    else if (shown++ < CERTIFY_SHOWN_TERMS) print_term(stdout, &terms[k], false);
  }
  if (shown > CERTIFY_SHOWN_TERMS) printf(" ... (%zu terms: --json lists all)", n);
  if (dropped > 0)
    printf(" (%zu term%s below %g of the largest left out; --json lists all)", dropped,
           dropped == 1 ? "" : "s", CERTIFY_TERM_FLOOR);
  printf("\n");
}

static void print_human(const zeno_scene *scene, const zeno_certificate *c) {
  cli_label("scene");
  printf("%s\n", scene->name);
  cli_label("verdict");
  printf("%s\n", c->certified ? "certified" : "not certified");
  if (!c->certified) {
    cli_label("reason");
    printf("%s\n", c->reason);
  }
  if (!c->refused && strcmp(c->solver_status, "failed") == 0) {
    cli_label("solver");
    printf("CSDP failed (the reason above): no verdict either way\n");
  } else if (!c->refused) {
    cli_label("solver");
    // A tiny negative margin beside "certified" is CSDP's rounding: the
    // exact check (next line) is what certifies.
    const bool noise = c->solver_margin < 0 && c->solver_margin > -CERTIFY_MARGIN_NOISE;
    printf("CSDP %s (code %d), Gram margin t* = %.3g%s\n", c->solver_status, c->csdp_code,
           c->solver_margin,
           noise && c->certified ? " (zero within CSDP's accuracy; the exact check decided)" : "");
    if (c->exact) {
      cli_label("exact check");
      printf("%d equalities imposed exactly, coefficients moved by %.3g\n", c->equalities,
             c->projection);
    }
    cli_label("SDP");
    printf("order %d, %d constraints; %d conditions, %d unknowns\n", c->sdp_order,
           c->sdp_constraints, c->conditions, c->unknowns);
    print_slip_function(c->c_minus != 0 ? "V2+ (own units)" : "V2 (own units)", c->c, c->terms,
                        c->term_count);
    if (c->c_minus != 0)
      print_slip_function("V2- (own units)", c->c_minus, c->terms_minus, c->term_count_minus);
  }
  if (c->check_runs > 0) {
    cli_label("check");
    printf("%d runs, %d pieces and impacts, largest relative increase %.3g\n", c->check_runs,
           c->check_events, c->check_max_increase);
  }
  cli_label("time");
  printf("%.3f s\n", c->seconds);
}

static void json_field(FILE *f, const char *name, double v, bool last) {
  fprintf(f, "\"%s\": ", name);
  zeno_io_json_number(f, v, NULL);
  fprintf(f, "%s", last ? "" : ", ");
}

// "name": {"variables": [...], "x2": cx, "terms": [...]}, (a slip function)
static void json_slip_function(FILE *f, const char *name, double cx,
                               const zeno_certificate_term *terms, size_t n) {
  fprintf(f, "\"%s\": {\"variables\": [\"z1\", \"z2\", \"u1\", \"u2\", \"w2\"], ", name);
  json_field(f, "x2", cx, false);
  fprintf(f, "\"terms\": [");
  for (size_t k = 0; k < n; k++) {
    const zeno_certificate_term *t = &terms[k];
    fprintf(f, "%s{\"exponents\": [%d, %d, %d, %d, %d], ", k ? ", " : "", t->exponents[0],
            t->exponents[1], t->exponents[2], t->exponents[3], t->exponents[4]);
    json_field(f, "coef", t->coef, true);
    fprintf(f, "}");
  }
  fprintf(f, "]}, ");
}

static void print_json(FILE *f, const zeno_scene *scene, const zeno_certificate *c) {
  fprintf(f, "{\"scene\": ");
  zeno_io_json_string(f, scene->name, NULL);
  fprintf(f, ", \"certified\": %s, \"refused\": %s, \"reason\": ", c->certified ? "true" : "false",
          c->refused ? "true" : "false");
  zeno_io_json_string(f, c->reason, NULL);
  fprintf(f, ", \"solver_status\": ");
  zeno_io_json_string(f, c->solver_status, NULL);
  fprintf(f, ", \"csdp_code\": %d, \"exact\": %s, \"equalities\": %d, ", c->csdp_code,
          c->exact ? "true" : "false", c->equalities);
  json_field(f, "solver_margin", c->solver_margin, false);
  json_field(f, "projection", c->projection, false);
  fprintf(f,
          "\"sdp_order\": %d, \"sdp_constraints\": %d, \"conditions\": %d, "
          "\"unknowns\": %d, ",
          c->sdp_order, c->sdp_constraints, c->conditions, c->unknowns);
  json_field(f, "seconds", c->seconds, false);
  fprintf(f, "\"units_log2\": {\"mass\": %d, \"length\": %d, \"time\": %d}, ", c->units[0],
          c->units[1], c->units[2]);
  fprintf(f, "\"v1\": {\"b\": ");
  zeno_io_json_numbers(f, c->b, 3, NULL);
  fprintf(f, ", \"mass\": [");
  for (int r = 0; r < 3; r++) {
    if (r) fprintf(f, ", ");
    zeno_io_json_numbers(f, c->mass[r], 3, NULL);
  }
  fprintf(f, "]}, ");
  json_slip_function(f, "v2", c->c, c->terms, c->term_count);
  if (c->c_minus != 0)
    json_slip_function(f, "v2_minus", c->c_minus, c->terms_minus, c->term_count_minus);
  fprintf(f, "\"check\": {\"runs\": %d, \"events\": %d, ", c->check_runs, c->check_events);
  json_field(f, "max_increase", c->check_max_increase, true);
  fprintf(f, "}}\n");
}

static void state_of(const zeno_state *st, double s[6]) {
  for (int k = 0; k < 3; k++) {
    s[k] = st->zod[k];
    s[3 + k] = st->zod_rate[k];
  }
}

/// V1 and V2 at one event of the scene's own run (own energy units).
typedef struct v_event {
  double t;
  zeno_event_kind kind;
  double v1_before, v2_before, v1_after, v2_after;
} v_event;

/// The scene's own run, V1 and V2 at each of its events (at most
/// CERTIFY_MAX_EVENTS).
typedef struct v_run {
  size_t count;
  v_event *events;
} v_run;

static int run_events(const zeno_scene *scene, const zeno_certificate *c, v_run *run,
                      zeno_error *err) {
  run->count = 0;
  run->events = malloc(CERTIFY_MAX_EVENTS * sizeof *run->events);
  if (run->events == NULL) {
    cli_out_of_memory(err);
    return cli_library_error(err);
  }
  zeno_sim *sim = zeno_sim_create(scene, NULL, err);
  if (sim == NULL) return cli_library_error(err);
  int code = CLI_EXIT_OK;
  while (run->count < CERTIFY_MAX_EVENTS) {
    zeno_event ev;
    if (zeno_sim_next_event(sim, &ev, err) != ZENO_OK) {
      code = cli_library_error(err);
      break;
    }
    double sb[6], sa[6];
    state_of(&ev.before, sb);
    state_of(&ev.after, sa);
    v_event *v = &run->events[run->count++];
    v->t = ev.t;
    v->kind = ev.kind;
    certificate_library.eval(c, sb, &v->v1_before, &v->v2_before);
    certificate_library.eval(c, sa, &v->v1_after, &v->v2_after);
    if (ev.kind == ZENO_EVENT_END) break;
  }
  zeno_sim_destroy(sim);
  return code;
}

// V1 and V2 at the events of the scene's own run: t, kind, V1 and V2
// before and after (own energy units).
static void write_events(FILE *f, const v_run *run) {
  fprintf(f, "t,kind,v1_before,v2_before,v1_after,v2_after\n");
  for (size_t k = 0; k < run->count; k++) {
    const v_event *v = &run->events[k];
    fprintf(f, "%.17g,%s,%.17g,%.17g,%.17g,%.17g\n", v->t, zeno_event_kind_name(v->kind),
            v->v1_before, v->v2_before, v->v1_after, v->v2_after);
  }
}

// The figure: V1 (top) and V2 (bottom) through each event's before and
// after values, the events as ticks.
static int plot_events(const char *path, const zeno_scene *scene, const v_run *run) {
  const zeno_plot_module *plot = cli_plot_module();
  if (plot == NULL) return CLI_EXIT_RUNTIME;
  const size_t rows = 2 * run->count;
  double *t = malloc((rows + 1) * sizeof *t), *v1 = malloc((rows + 1) * sizeof *v1);
  double *v2 = malloc((rows + 1) * sizeof *v2), *et = malloc((run->count + 1) * sizeof *et);
  bool *impact = malloc((run->count + 1) * sizeof *impact);
  int code = CLI_EXIT_OK;
  if (t && v1 && v2 && et && impact) {
    for (size_t k = 0; k < run->count; k++) {
      const v_event *v = &run->events[k];
      t[2 * k] = t[2 * k + 1] = et[k] = v->t;
      v1[2 * k] = v->v1_before;
      v1[2 * k + 1] = v->v1_after;
      v2[2 * k] = v->v2_before;
      v2[2 * k + 1] = v->v2_after;
      impact[k] = v->kind == ZENO_EVENT_IMPACT;
    }
    char title[sizeof scene->name + 64];
    snprintf(title, sizeof title, "%s: the certificate along its run", scene->name);
    static const char *const names[3] = {"V₁ (energy)", NULL, "V₂"};
    const plot_trajectory_input in = {.title = title,
                                      .count = rows,
                                      .t = t,
                                      .z1 = v1,
                                      .x2 = v2,
                                      .event_count = run->count,
                                      .event_t = et,
                                      .event_impact = impact,
                                      .accumulation_t = NAN,
                                      .names = names,
                                      .top_label = "V₁",
                                      .bottom_label = "V₂",
                                      .note = CERTIFY_PLOT_NOTE};
    code = cli_plot_result(plot, path, plot->trajectory(path, &in));
  } else {
    cli_error("out of memory");
    code = CLI_EXIT_RUNTIME;
  }
  free(t);
  free(v1);
  free(v2);
  free(et);
  free(impact);
  return code;
}

/// The files of --out DIR.
#define CERTIFICATE_NAME "certificate.json"
#define V_EVENTS_NAME "v_events.csv"

// DIR/certificate.json, and DIR/v_events.csv unless refused (run NULL):
// both written aside, then committed together, so that a failure (a full
// disk) leaves the folder's previous pair, never a new certificate beside
// the old run's values. A refused certificate has no v_events.csv: an
// earlier run's is removed in the same commit. The certificate goes last
// (it says what the folder holds).
static int write_out(const char *dir, const zeno_scene *scene, const zeno_certificate *c,
                     const v_run *run, zeno_error *err) {
  zeno_io_output *out[2] = {run != NULL ? zeno_io_output_open(dir, V_EVENTS_NAME, err)
                                        : zeno_io_output_open_removal(dir, V_EVENTS_NAME, err),
                            NULL};
  if (out[0] != NULL) out[1] = zeno_io_output_open(dir, CERTIFICATE_NAME, err);
  if (out[1] == NULL) {
    zeno_io_output_discard(out[0]);
    return cli_output_error(err);
  }
  if (run != NULL) write_events(zeno_io_output_stream(out[0]), run);
  print_json(zeno_io_output_stream(out[1]), scene, c);
  if (zeno_io_output_commit_all(out, 2, err) != ZENO_OK) return cli_output_error(err);
  const char *const names[2] = {V_EVENTS_NAME, CERTIFICATE_NAME};
  // v_events.csv removed (refused) is not named.
  cli_wrote_in(dir, names + (run == NULL), run == NULL ? 1 : 2);
  return CLI_EXIT_OK;
}

/* ---- the command --------------------------------------------------------- */

// The reports, the files and the figure of one certificate; the scene's
// own run is simulated once, for v_events.csv and the figure alike.
typedef struct certificate_json {
  const zeno_scene *scene;
  const zeno_certificate *certificate;
} certificate_json;

static zeno_status write_json(FILE *out, const void *context) {
  const certificate_json *j = context;
  print_json(out, j->scene, j->certificate);
  return ZENO_OK;
}

static int report(const certify_options *o, const zeno_scene *scene, const zeno_certificate *c,
                  zeno_error *err) {
  if (o->json) cli_print_json(stdout, &o->common, write_json, &(certificate_json){scene, c});
  else print_human(scene, c);
  v_run run = {0, NULL};
  int code = CLI_EXIT_OK;
  const bool along_run = !c->refused && (o->out || o->plot);
  if (along_run) code = run_events(scene, c, &run, err);
  if (code == CLI_EXIT_OK && o->out)
    code = write_out(o->out, scene, c, along_run ? &run : NULL, err);
  if (code == CLI_EXIT_OK && o->plot && along_run) code = plot_events(o->plot, scene, &run);
  if (code == CLI_EXIT_OK && o->plot && c->refused)
    cli_error("note: --plot: a refused certificate has no V1 and V2 to draw; '%s' not written",
              o->plot);
  free(run.events);
  return code;
}

// --out DIR: the folder made and its lock taken before any work, held
// until the files are committed (a second run writing there is refused,
// as `sweep` and `regions` refuse one).
static int take_out_dir(const char *dir, zeno_io_dir_lock **lock, zeno_error *err) {
  if (dir == NULL) return CLI_CONTINUE;
  if (zeno_io_make_directories(dir, err) != ZENO_OK) return cli_output_error(err);
  *lock = zeno_io_dir_lock_take(dir, err);
  return *lock != NULL ? CLI_CONTINUE : cli_output_error(err);
}

static int certify(const void *options, const zeno_scene *scene, zeno_error *err) {
  const certify_options *o = options;
  if (!cli_certificate_library_load(&certificate_library)) return CLI_EXIT_RUNTIME;
  zeno_io_dir_lock *lock = NULL;
  const int taken = take_out_dir(o->out, &lock, err);
  if (taken != CLI_CONTINUE) return taken;
  zeno_certificate *c = malloc(sizeof *c);
  int code;
  if (c == NULL) {
    cli_out_of_memory(err);
    code = cli_library_error(err);
  } else {
    // Ctrl-C and SIGTERM stop the certificate before or after its SDP and
    // between the check's events; once it is made, the reports and files
    // are written whole.
    zeno_certify_def def = o->def;
    def.interrupt = cli_interrupt_hook();
    cli_signals_cooperate();
    code = certificate_library.certify(scene, &def, c, err) != ZENO_OK ? cli_library_error(err)
                                                                       : cli_signals_hold();
    if (code == CLI_CONTINUE) code = report(o, scene, c, err);
  }
  free(c);
  zeno_io_dir_lock_release(lock);
  return code;
}

static const cli_scene_command CERTIFY_COMMAND = {.name = COMMAND_NAME,
                                                  .short_options = ":d:c:jo:p:s:h",
                                                  .long_options = LONG_OPTIONS,
                                                  .apply = apply_option,
                                                  .run = certify};

int cmd_certify(int argc, char **argv) {
  certify_options o = {0};
  // The defaults of zeno_certify_def_default(), which lives in the library
  // loaded later: degree 2, eps 1e-3, 100 iterations, runs of size 0.1.
  o.def = (zeno_certify_def){.degree = 2,
                             .eps = 1e-3,
                             .max_iterations = 100,
                             .check_runs = 0,
                             .check_size = 0.1,
                             .check_seed = 1};
  return cli_scene_command_main(&CERTIFY_COMMAND, &o.common, &o, argc, argv);
}
