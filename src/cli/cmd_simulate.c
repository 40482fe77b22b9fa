// `zeno simulate SCENE`: runs a scene event by event, reports the outcome
// and with --out writes the run directory (zeno/run_dir.h's writer).
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"
#include "cli_signal.h"

#define COMMAND_NAME "simulate"
static const char *const COMMAND = COMMAND_NAME;

/// First capacity of the section-angle list.
#define SECTIONS_INITIAL 16
/// Section angles printed per line in the human summary.
#define SECTIONS_PER_LINE 6
/// A longer list shows its first and its last line of angles and their
/// count; so does a mode word of more tokens than this, with
/// WORD_TOKENS_SHOWN tokens at each end: a summary line stays within a
/// terminal's width (a chattering run's word has thousands of tokens; the
/// JSON keeps all of them).
#define SECTIONS_SHOWN_MAX (2 * SECTIONS_PER_LINE)
#define WORD_TOKENS_SHOWN 10
#define WORD_TOKENS_SHOWN_MAX (2 * WORD_TOKENS_SHOWN)

/* Long-only options get values outside the character range. */
enum {
  OPT_EPS = 256,
  OPT_T_END,
  OPT_MAX_EVENTS,
  OPT_WALL_TIME,
};

typedef struct simulate_options {
  cli_scene_options common;        ///< --set and the dedicated options, in order;
                                   ///< the scene
  const char *out_dir;             ///< NULL: no files
  char eps_typed[CLI_TYPED_SIZE];  ///< "--eps E" as typed, "" without
  bool json;
  bool quiet;
} simulate_options;

/// What the report needs from the event stream.
typedef struct run_record {
  double *sections;  ///< Poincaré section angles in event order [rad]
  size_t section_count;
  size_t section_capacity;
  zeno_event end;  ///< the END event
  bool has_end;
  size_t skipped_samples;  ///< sample times the dense output could not serve
} run_record;

static void print_help(void) {
  printf(
      "Usage: zeno simulate SCENE [OPTIONS]\n"
      "\n"
      "Runs the scene file SCENE (YAML) event by event until it ends (rest,\n"
      "escape, divergence, ambiguity, inconsistency or a limit) and prints a\n"
      "summary. Every outcome exits 0; bad input exits 2; file errors exit 1.\n"
      "\n"
      "Options:\n"
      "  -m, --model M        dynamics: 'zod' (zero-order, exact) or 'full'\n"
      "                       (nonlinear, CVODE); same as --set model=M\n"
      "      --eps E          full model: perturbation scale epsilon in\n"
      "                       (0, 1] (positions ~ E^2, velocities ~ E);\n"
      "                       same as --set epsilon=E\n"
      "  -s, --set KEY=VALUE  override a scene value by its dotted path, e.g.\n"
      "                       --set paper.mu1=0.5 --set initial.qdp=[0,0,1];\n"
      "                       VALUE in YAML flow syntax; repeatable, applied\n"
      "                       in order after the file is read\n"
      "      --t-end T        stop with 'time-limit' at time T > 0; same as\n"
      "                       --set stop.t_end=T\n"
      "      --max-events N   stop with 'event-limit' after N >= 1 events;\n"
      "                       same as --set stop.max_events=N\n"
      "      --wall-time S    stop with 'wall-limit' after S >= 0 seconds of\n"
      "                       wall-clock time (0: no limit); same as\n"
      "                       --set stop.wall_time=S\n"
      "  -o, --out DIR        create DIR (with parents) and write\n"
      "                       DIR/trajectory.csv (samples every sample_dt of\n"
      "                       the scene plus the states before and after each\n"
      "                       event), DIR/events.jsonl (one JSON object per\n"
      "                       event), DIR/events.csv (the same events, one\n"
      "                       flat row each), and DIR/scene.yaml with\n"
      "                       DIR/overrides.txt (the scene file and the --set\n"
      "                       values of the run, for 'zeno replay DIR')\n"
      "  -j, --json           print one JSON object instead of the summary:\n"
      "                       scene, model, status, word, t, events, impacts,\n"
      "                       zeno_time, zeno_impacts, energy_gains,\n"
      "                       energy_gain_max, final_zod, final_zod_velocity,\n"
      "                       final_pose, sections, consistent_modes, proof;\n"
      "                       for more than two contacts also zod_names,\n"
      "                       format_version (2) and contact_count\n"
      "                       (docs/outputs.md)\n"
      "  -q, --quiet          no summary, no notes and no 'wrote FILE' lines\n"
      "                       (for use with --out);\n"
      "                       --json still prints its object\n"
      "  -h, --help           show this help\n");
}

static const struct option LONG_OPTIONS[] = {
    {"model", required_argument, NULL, 'm'},
    {"eps", required_argument, NULL, OPT_EPS},
    {"set", required_argument, NULL, 's'},
    {"t-end", required_argument, NULL, OPT_T_END},
    {"max-events", required_argument, NULL, OPT_MAX_EVENTS},
    {"wall-time", required_argument, NULL, OPT_WALL_TIME},
    {"out", required_argument, NULL, 'o'},
    {"json", no_argument, NULL, 'j'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/// Scene path of an option that stands for a --set override, else NULL.
static const char *override_key(int option) {
  switch (option) {
    case 'm': return "model";
    case OPT_EPS: return "epsilon";
    case OPT_T_END: return "stop.t_end";
    case OPT_MAX_EVENTS: return "stop.max_events";
    case OPT_WALL_TIME: return "stop.wall_time";
    default: return NULL;
  }
}

/// Applies one parsed option; returns CLI_CONTINUE or an exit code.
static int apply_option(void *options, int option, char **argv) {
  simulate_options *o = options;
  const char *key = override_key(option);
  if (option == 's') return cli_override_option(&o->common.overrides, NULL, optarg);
  if (option == OPT_EPS) snprintf(o->eps_typed, sizeof o->eps_typed, "--eps %s", optarg);
  if (key != NULL)
    return cli_override_typed_option(&o->common.overrides, key, optarg, option, LONG_OPTIONS);
  switch (option) {
    case 'o': o->out_dir = optarg; return CLI_CONTINUE;
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'q': o->quiet = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- the event loop ------------------------------------------------------ */

static bool record_section(run_record *rec, double angle) {
  if (rec->section_count == rec->section_capacity) {
    const size_t capacity = rec->section_capacity ? 2 * rec->section_capacity : SECTIONS_INITIAL;
    double *grown = realloc(rec->sections, capacity * sizeof *grown);
    if (grown == NULL) return false;
    rec->sections = grown;
    rec->section_capacity = capacity;
  }
  rec->sections[rec->section_count++] = angle;
  return true;
}

static int record_event(run_record *rec, const zeno_event *ev) {
  if (ev->on_section && !record_section(rec, ev->section_angle)) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  if (ev->kind == ZENO_EVENT_END) {
    rec->end = *ev;
    rec->has_end = true;
  }
  return CLI_EXIT_OK;
}

static int run_events(zeno_sim *sim, zeno_run_dir_writer *out, run_record *rec) {
  zeno_event ev;
  zeno_error err;
  zeno_status status;
  while ((status = zeno_sim_next_event(sim, &ev, &err)) == ZENO_OK) {
    if (cli_interrupted())
      return cli_interrupted_exit(COMMAND, out ? "nothing of the run written; the folder keeps its "
                                                 "previous run"
                                               : "no summary");
    const int code = record_event(rec, &ev);
    if (code != CLI_EXIT_OK) return code;
    if (out && zeno_run_dir_writer_event(out, sim, &ev, &err) != ZENO_OK)
      return cli_output_error(&err);
  }
  if (status != ZENO_DONE) {
    cli_error("simulation failed: %s", err.message);
    return CLI_EXIT_RUNTIME;
  }
  return CLI_EXIT_OK;
}

/* ---- reports ------------------------------------------------------------- */

/// The mode word, newly allocated; NULL when out of memory.
static char *mode_word(const zeno_sim *sim) {
  const size_t size = zeno_sim_word(sim, NULL, 0) + 1;
  char *word = malloc(size);
  if (word) zeno_sim_word(sim, word, size);
  return word;
}

static void print_triple(const char *label, const double v[3]) {
  cli_label(label);
  printf("(%.6g, %.6g, %.6g)\n", v[0], v[1], v[2]);
}

/// Prints angles [first, last) of the list, SECTIONS_PER_LINE per line.
static void print_section_range(const run_record *rec, size_t first, size_t last) {
  for (size_t i = first; i < last; i++) {
    if (i > first) printf(",");
    if (i > first && (i - first) % SECTIONS_PER_LINE == 0) printf("\n%-*s", CLI_LABEL_WIDTH, "");
    else if (i > first) printf(" ");
    printf("%.6g", rec->sections[i]);
  }
}

static void print_sections(const run_record *rec) {
  const size_t n = rec->section_count;
  cli_label("section angles [rad]");
  if (n == 0) printf("none");
  if (n <= SECTIONS_SHOWN_MAX) {
    print_section_range(rec, 0, n);
  } else {
    print_section_range(rec, 0, SECTIONS_PER_LINE);
    printf(",\n%-*s... (%zu angles; --json lists all)\n%-*s", CLI_LABEL_WIDTH, "", n,
           CLI_LABEL_WIDTH, "");
    print_section_range(rec, n - SECTIONS_PER_LINE, n);
  }
  printf("\n");
}

/// Prints the mode word, or for a long one its first and last
/// WORD_TOKENS_SHOWN tokens around "... (N tokens; ...)".
static void print_word(const char *word) {
  size_t tokens = word[0] != '\0';
  for (const char *p = word; *p; p++) tokens += *p == ' ';
  if (tokens <= WORD_TOKENS_SHOWN_MAX) {
    printf("%s\n", word);
    return;
  }
  const char *head_end = word, *tail = word + strlen(word);
  for (int k = 0; k < WORD_TOKENS_SHOWN; k++) head_end = strchr(head_end, ' ') + 1;
  for (int k = 0; k < WORD_TOKENS_SHOWN; k++) {
    if (k > 0) tail--;  // onto the space before the token found last
    while (tail[-1] != ' ') tail--;
  }
  printf("%.*s... (%zu tokens; --json has the whole word) %s\n", (int)(head_end - word), word,
         tokens, tail);
}

static void print_end_details(const run_record *rec, int contact_count) {
  if (!rec->has_end) return;
  const zeno_event *end = &rec->end;
  if (end->outcome == ZENO_OUTCOME_AMBIGUOUS) {
    char name[ZENO_MODE_NAME_SIZE];
    cli_label("consistent modes");
    for (size_t i = 0; i < end->consistent_count; i++)
      printf("%s%s", i ? " " : "", zeno_mode_name(end->consistent[i], contact_count, name));
    printf("\n");
  }
  if (end->outcome == ZENO_OUTCOME_INCONSISTENT) {
    // The proof: every mode (impact candidate) and the condition it breaks.
    char name[ZENO_MODE_NAME_SIZE];
    cli_label(end->refusal_of_impact ? "impacts refused" : "modes refused");
    int written = 0;
    for (int code = 0; code < ZENO_MAX_MODES; code++) {
      if (end->refusal[code] == ZENO_REFUSAL_NONE) continue;
      printf("%s%s (%s", written++ ? ", " : "",
             zeno_mode_name(zeno_mode_of_code((unsigned)code), contact_count, name),
             zeno_refusal_name((zeno_refusal)end->refusal[code]));
      if (end->refusal_contact[code] >= 0) printf(" at %d", end->refusal_contact[code] + 1);
      printf(")");
    }
    printf("\n");
  }
  if (end->outcome == ZENO_OUTCOME_DIVERGING) {
    cli_label("divergence ratio");
    printf("%.6g per %d impacts\n", end->zeno_ratio, end->zeno_period);
  }
}

static void print_counts(const zeno_summary *s, const zeno_scene *scene) {
  cli_label("final time");
  printf("%.6g\n", s->t);
  // A full-model run started from q' (positions eps^2, velocities eps)
  // runs on times eps those of the ZOD (docs/model.md, Scaling).
  if (scene->model == ZENO_MODEL_FULL && scene->initial_kind == ZENO_INITIAL_ZOD) {
    cli_label("final time / eps");
    printf("%.6g (the ZOD's time)\n", s->t / scene->epsilon);
  }
  cli_label("events");
  printf("%ld\n", s->events);
  cli_label("impacts");
  printf("%ld\n", s->impacts);
  if (s->has_zeno) {
    cli_label("Zeno accumulation t");
    printf("%.6g\n", s->zeno_time);
    cli_label("impacts before it");
    printf("%ld\n", s->zeno_impacts);
  }
  if (s->energy_gains > 0) {
    // Newton's law with friction can add energy (docs/model.md, Impacts).
    cli_label("energy gained");
    printf(
        "at %ld impacts, up to %.3g of the kinetic energy (Newton's law with "
        "friction; see docs/model.md)\n",
        s->energy_gains, s->energy_gain_max);
  }
}

static void print_summary(const zeno_io_run *run, const run_record *rec) {
  const zeno_summary *s = run->summary;
  cli_label("scene");
  printf("%s\n", run->scene->name);
  cli_label("model");
  printf("%s\n", zeno_model_name(run->scene->model));
  cli_label("status");
  printf("%s\n", zeno_outcome_name(s->outcome));
  print_end_details(rec, run->scene->contact_count);
  cli_label("modes");
  print_word(run->word);
  print_counts(s, run->scene);
  print_sections(rec);
  // q' is (z1, x1, theta) for one contact (zeno_state.zod), the
  // engine's choice for more than two.
  char label[3 * ZENO_ZOD_NAME_SIZE + 16];
  snprintf(label, sizeof label, "final q' (%s, %s, %s)", run->zod_names[0], run->zod_names[1],
           run->zod_names[2]);
  print_triple(label, s->final_state.zod);
  print_triple("final q' rate", s->final_state.zod_rate);
  // The ZOD's pose is the linear image of q' on the ZOD's own scale (any
  // multiple is as good, eq. (24)): no pose of the body, and said so.
  cli_label("final pose (x, y, th)");
  printf("(%.6g, %.6g, %.6g) [length, length, rad]%s\n", s->final_state.q[0], s->final_state.q[1],
         s->final_state.q[2],
         run->scene->model == ZENO_MODEL_ZOD ? ", linearised on the ZOD's scale" : "");
}

static zeno_status run_json(FILE *out, const void *run) { return zeno_io_run_json(out, run, NULL); }

static int report(const zeno_sim *sim, const simulate_options *o, const run_record *rec) {
  if (rec->skipped_samples > 0 && !o->quiet)
    cli_error(
        "note: %zu trajectory samples had no dense output and were "
        "skipped",
        rec->skipped_samples);
  if (o->quiet && !o->json) return CLI_EXIT_OK;
  zeno_summary summary;
  zeno_sim_summary(sim, &summary);
  char *word = mode_word(sim);
  if (word == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  char zod_names[3][ZENO_ZOD_NAME_SIZE];
  zeno_sim_zod_names(sim, zod_names);
  const zeno_io_run run = {zeno_sim_scene(sim),
                           &summary,
                           word,
                           rec->sections,
                           rec->section_count,
                           rec->has_end ? &rec->end : NULL,
                           (const char(*)[ZENO_ZOD_NAME_SIZE])zod_names};
  if (o->json) {
    cli_print_json(stdout, &o->common, run_json, &run);
    putchar('\n');
  } else {
    print_summary(&run, rec);
  }
  free(word);
  return CLI_EXIT_OK;
}

/* ---- the command --------------------------------------------------------- */

/// The files of --out DIR (zeno/run_dir.h), as docs/outputs.md lists them.
static const char *const RUN_DIR_FILES[] = {ZENO_RUN_DIR_TRAJECTORY, ZENO_RUN_DIR_EVENTS,
                                            ZENO_RUN_DIR_EVENTS_CSV, ZENO_RUN_DIR_SCENE,
                                            ZENO_RUN_DIR_OVERRIDES,  ZENO_RUN_DIR_DIGEST};
#define RUN_DIR_FILE_COUNT (sizeof RUN_DIR_FILES / sizeof *RUN_DIR_FILES)

// --out DIR: the run directory's writer with the run's scene saved, so that
// `zeno replay DIR` needs nothing else; NULL without --out or on failure
// (*code says which).
static zeno_run_dir_writer *open_run_dir(const zeno_sim *sim, const simulate_options *o,
                                         int *code) {
  *code = CLI_EXIT_OK;
  if (o->out_dir == NULL) return NULL;
  zeno_error err;
  zeno_run_dir_writer *w = zeno_run_dir_writer_create(o->out_dir, zeno_sim_scene(sim), &err);
  if (w == NULL || zeno_run_dir_writer_save_scene(w, o->common.scene_text, o->common.scene_length,
                                                  cli_overrides_items(&o->common.overrides),
                                                  o->common.overrides.count, &err) != ZENO_OK) {
    // A scene the run directory cannot hold is bad input (exit 2), not a file error.
    *code = err.code == ZENO_ERR_UNSUPPORTED ? cli_library_error(&err) : cli_output_error(&err);
    zeno_run_dir_writer_discard(w);
    return NULL;
  }
  return w;
}

static int run_scene(zeno_sim *sim, const simulate_options *o) {
  run_record rec = {0};
  int code;
  zeno_run_dir_writer *out = open_run_dir(sim, o, &code);
  // Ctrl-C and SIGTERM stop the run between events, its files dropped.
  cli_signals_cooperate();
  if (code == CLI_EXIT_OK) code = run_events(sim, out, &rec);
  rec.skipped_samples = zeno_run_dir_writer_skipped(out);
  zeno_error err;
  // The run's files land together, only when the run did: a failed run
  // leaves the folder's previous run whole.
  if (code != CLI_EXIT_OK) zeno_run_dir_writer_discard(out);
  else if (zeno_run_dir_writer_close(out, &err) != ZENO_OK) code = cli_output_error(&err);
  else if (out != NULL && !o->quiet) cli_wrote_in(o->out_dir, RUN_DIR_FILES, RUN_DIR_FILE_COUNT);
  if (code == CLI_EXIT_OK) code = report(sim, o, &rec);
  free(rec.sections);
  return code;
}

static int simulate(const void *options, const zeno_scene *scene, zeno_error *err) {
  const simulate_options *o = options;
  if (!o->quiet) cli_note_epsilon(o->eps_typed[0] ? o->eps_typed : NULL, scene);
  zeno_sim_def def = zeno_sim_def_default();
  // The run directory is sampled as the events come: the segments since
  // the previous event are enough, and memory does not grow with the run.
  def.keep_history = false;
  zeno_sim *sim = zeno_sim_create(scene, &def, err);
  if (sim == NULL) return cli_library_error(err);
  const int code = run_scene(sim, o);
  zeno_sim_destroy(sim);
  return code;
}

static const cli_scene_command SIMULATE_COMMAND = {.name = COMMAND_NAME,
                                                   .short_options = ":m:s:o:jqh",
                                                   .long_options = LONG_OPTIONS,
                                                   .apply = apply_option,
                                                   .run = simulate};

int cmd_simulate(int argc, char **argv) {
  simulate_options o = {0};
  return cli_scene_command_main(&SIMULATE_COMMAND, &o.common, &o, argc, argv);
}
