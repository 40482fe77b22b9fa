// `zeno simulate SCENE`: runs a scene event by event, reports the outcome
// and optionally writes the trajectory and the events to a directory.
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"

#define COMMAND_NAME "simulate"
static const char *const COMMAND = COMMAND_NAME;
static const char *const TRAJECTORY_FILE = "trajectory.csv";
static const char *const EVENTS_FILE = "events.jsonl";

/// First size of the mode-word buffer; it grows when the word is longer.
#define WORD_INITIAL_SIZE 256
/// First capacity of the section-angle list.
#define SECTIONS_INITIAL 16
/// Section angles printed per line in the human summary.
#define SECTIONS_PER_LINE 6

/* Long-only options get values outside the character range. */
enum {
  OPT_EPS = 256,
  OPT_T_END,
  OPT_MAX_EVENTS,
  OPT_WALL_TIME,
};

typedef struct simulate_options {
  cli_scene_options common; ///< --set and the dedicated options, in order;
                            ///< the scene
  const char *out_dir; ///< NULL: no files
  bool json;
  bool quiet;
} simulate_options;

/// Output files of --out (both NULL without --out).
typedef struct output_files {
  char *trajectory_path;
  char *events_path;
  FILE *trajectory;
  FILE *events;
} output_files;

/// What the report needs from the event stream.
typedef struct run_record {
  double *sections; ///< Poincaré section angles in event order [rad]
  long section_count;
  long section_capacity;
  zeno_event end; ///< the END event
  bool has_end;
  long skipped_samples; ///< sample times zeno_sim_state_at() could not serve
} run_record;

/// Trajectory sampling state between events.
typedef struct sampler {
  double dt;      ///< scene.sample_dt; 0 disables sampling
  double t_prev;  ///< time of the previous event
  bool has_prev;  ///< false before the first event
} sampler;

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
      "                       event), and DIR/scene.yaml with\n"
      "                       DIR/overrides.txt (the scene file and the --set\n"
      "                       values of the run, for 'zeno replay DIR')\n"
      "  -j, --json           print one JSON object instead of the summary:\n"
      "                       scene, model, status, word, t, events, impacts,\n"
      "                       zeno_time, zeno_impacts, final_zod,\n"
      "                       final_zod_velocity, final_pose, sections,\n"
      "                       consistent_modes\n"
      "  -q, --quiet          no summary and no notes (for use with --out);\n"
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
  if (key != NULL || option == 's')
    return cli_override_option(&o->common.overrides, key, optarg);
  switch (option) {
    case 'o': o->out_dir = optarg; return CLI_CONTINUE;
    case 'j': o->json = true; return CLI_CONTINUE;
    case 'q': o->quiet = true; return CLI_CONTINUE;
    case 'h': print_help(); return CLI_EXIT_OK;
    default: return cli_option_error(COMMAND, option, argv);
  }
}

/* ---- output files -------------------------------------------------------- */

static int write_failure(const char *path) {
  cli_error("cannot write '%s': %s", path, strerror(errno));
  return CLI_EXIT_RUNTIME;
}

static FILE *open_output(const char *path) {
  FILE *f = fopen(path, "w");
  if (f == NULL) cli_error("cannot create '%s': %s", path, strerror(errno));
  return f;
}

static int open_outputs(const char *dir, int contact_count,
                        output_files *files) {
  if (dir == NULL) return CLI_EXIT_OK;
  if (cli_make_directories(dir) != 0) {
    cli_error("cannot create directory '%s': %s", dir, strerror(errno));
    return CLI_EXIT_RUNTIME;
  }
  files->trajectory_path = cli_path_join(dir, TRAJECTORY_FILE);
  files->events_path = cli_path_join(dir, EVENTS_FILE);
  if (files->trajectory_path == NULL || files->events_path == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  files->trajectory = open_output(files->trajectory_path);
  if (files->trajectory == NULL) return CLI_EXIT_RUNTIME;
  files->events = open_output(files->events_path);
  if (files->events == NULL) return CLI_EXIT_RUNTIME;
  if (zeno_io_trajectory_header(files->trajectory, contact_count) != ZENO_OK)
    return write_failure(files->trajectory_path);
  return CLI_EXIT_OK;
}

/// Closes one output file; a failing close turns success into a failure.
static int close_output(FILE *f, const char *path, int code) {
  if (f == NULL) return code;
  const bool failed = ferror(f) != 0;
  if (fclose(f) != 0 || failed) {
    if (code == CLI_EXIT_OK) code = write_failure(path);
  }
  return code;
}

static int close_outputs(output_files *files, int code) {
  code = close_output(files->trajectory, files->trajectory_path, code);
  code = close_output(files->events, files->events_path, code);
  free(files->trajectory_path);
  free(files->events_path);
  memset(files, 0, sizeof *files);
  return code;
}

/* ---- the event loop ------------------------------------------------------ */

static bool record_section(run_record *rec, double angle) {
  if (rec->section_count == rec->section_capacity) {
    const long capacity = rec->section_capacity ? 2 * rec->section_capacity
                                                : SECTIONS_INITIAL;
    double *grown = realloc(rec->sections, (size_t)capacity * sizeof *grown);
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

/// Writes the dense-output samples k*dt strictly between the previous event
/// and t_event.
static int write_samples(const zeno_sim *sim, const sampler *smp,
                         double t_event, const output_files *files,
                         run_record *rec, int contact_count) {
  if (smp->dt <= 0 || !smp->has_prev || !isfinite(t_event)) return CLI_EXIT_OK;
  for (double k = floor(smp->t_prev / smp->dt) + 1; k * smp->dt < t_event;
       k++) {
    const double t = k * smp->dt;
    if (t <= smp->t_prev) continue;
    zeno_state st;
    if (zeno_sim_state_at(sim, t, &st) != ZENO_OK) {
      rec->skipped_samples++;
      continue;
    }
    if (zeno_io_trajectory_row(files->trajectory, &st, contact_count) !=
        ZENO_OK)
      return write_failure(files->trajectory_path);
  }
  return CLI_EXIT_OK;
}

static int write_event(const zeno_event *ev, const output_files *files,
                       int contact_count) {
  if (zeno_io_trajectory_row(files->trajectory, &ev->before, contact_count) !=
          ZENO_OK ||
      zeno_io_trajectory_row(files->trajectory, &ev->after, contact_count) !=
          ZENO_OK)
    return write_failure(files->trajectory_path);
  if (zeno_io_event_jsonl(files->events, ev, contact_count) != ZENO_OK)
    return write_failure(files->events_path);
  return CLI_EXIT_OK;
}

static int handle_event(const zeno_sim *sim, const zeno_event *ev,
                        sampler *smp, const output_files *files,
                        run_record *rec) {
  const int contact_count = zeno_sim_scene(sim)->contact_count;
  int code = record_event(rec, ev);
  if (code == CLI_EXIT_OK && files->trajectory) {
    code = write_samples(sim, smp, ev->t, files, rec, contact_count);
    if (code == CLI_EXIT_OK) code = write_event(ev, files, contact_count);
  }
  smp->t_prev = ev->t;
  smp->has_prev = true;
  return code;
}

static int run_events(zeno_sim *sim, const output_files *files,
                      run_record *rec) {
  sampler smp = {zeno_sim_scene(sim)->sample_dt, 0.0, false};
  zeno_event ev;
  zeno_status status;
  while ((status = zeno_sim_next_event(sim, &ev)) == ZENO_OK) {
    const int code = handle_event(sim, &ev, &smp, files, rec);
    if (code != CLI_EXIT_OK) return code;
  }
  if (status != ZENO_DONE) {
    cli_error("simulation failed: %s", zeno_status_name(status));
    return CLI_EXIT_RUNTIME;
  }
  return CLI_EXIT_OK;
}

/* ---- reports ------------------------------------------------------------- */

/// The mode word, newly allocated; NULL when out of memory.
static char *mode_word(const zeno_sim *sim) {
  int size = WORD_INITIAL_SIZE;
  for (;;) {
    char *word = malloc((size_t)size);
    if (word == NULL) return NULL;
    const int length = zeno_sim_word(sim, word, size);
    if (length < size) return word;
    free(word);
    size = length + 1;
  }
}

static void print_triple(const char *label, const double v[3]) {
  cli_label(label);
  printf("(%.6g, %.6g, %.6g)\n", v[0], v[1], v[2]);
}

static void print_sections(const run_record *rec) {
  cli_label("section angles [rad]");
  if (rec->section_count == 0) printf("none");
  for (long i = 0; i < rec->section_count; i++) {
    if (i > 0) printf(",");
    if (i > 0 && i % SECTIONS_PER_LINE == 0)
      printf("\n%-*s", CLI_LABEL_WIDTH, "");
    else if (i > 0)
      printf(" ");
    printf("%.6g", rec->sections[i]);
  }
  printf("\n");
}

static void print_end_details(const run_record *rec, int contact_count) {
  if (!rec->has_end) return;
  const zeno_event *end = &rec->end;
  if (end->outcome == ZENO_OUTCOME_AMBIGUOUS) {
    char name[ZENO_MODE_NAME_SIZE];
    cli_label("consistent modes");
    for (int i = 0; i < end->consistent_count; i++)
      printf("%s%s", i ? " " : "",
             zeno_mode_name(end->consistent[i], contact_count, name));
    printf("\n");
  }
  if (end->outcome == ZENO_OUTCOME_DIVERGING) {
    cli_label("divergence ratio");
    printf("%.6g per %d impacts\n", end->zeno_ratio, end->zeno_period);
  }
}

static void print_counts(const zeno_summary *s) {
  cli_label("final time");
  printf("%.6g\n", s->t);
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
  printf("%s\n", run->word);
  print_counts(s);
  print_sections(rec);
  print_triple("final q' (z1, z2, x2)", s->final_state.zod);
  print_triple("final q' rate", s->final_state.zod_rate);
  print_triple("final pose (x, y, th)", s->final_state.q);
}

static int report(const zeno_sim *sim, const simulate_options *o,
                  const run_record *rec) {
  if (rec->skipped_samples > 0 && !o->quiet)
    cli_error("note: %ld trajectory samples had no dense output and were "
              "skipped", rec->skipped_samples);
  if (o->quiet && !o->json) return CLI_EXIT_OK;
  zeno_summary summary;
  zeno_sim_summary(sim, &summary);
  char *word = mode_word(sim);
  if (word == NULL) {
    cli_error("out of memory");
    return CLI_EXIT_RUNTIME;
  }
  const zeno_io_run run = {zeno_sim_scene(sim), &summary, word,
                           rec->sections, rec->section_count,
                           rec->has_end ? &rec->end : NULL};
  if (o->json) {
    zeno_io_run_json(stdout, &run);
    putchar('\n');
  } else {
    print_summary(&run, rec);
  }
  free(word);
  return CLI_EXIT_OK;
}

/* ---- the command --------------------------------------------------------- */

static int run_scene(zeno_sim *sim, const simulate_options *o) {
  output_files files = {0};
  run_record rec = {0};
  int code = open_outputs(o->out_dir, zeno_sim_scene(sim)->contact_count,
                          &files);
  // The run directory keeps its scene, so `zeno replay DIR` needs nothing else.
  if (code == CLI_EXIT_OK && o->out_dir)
    code = cli_save_run_scene(o->out_dir, o->common.scene_path, &o->common.overrides);
  if (code == CLI_EXIT_OK) code = run_events(sim, &files, &rec);
  code = close_outputs(&files, code);
  if (code == CLI_EXIT_OK) code = report(sim, o, &rec);
  free(rec.sections);
  return code;
}

static int simulate(const void *options, const zeno_scene *scene,
                    zeno_error *err) {
  const simulate_options *o = options;
  zeno_sim_def def = zeno_sim_def_default();
  // Sampling between events needs the segments of the whole run.
  def.keep_history = o->out_dir != NULL && scene->sample_dt > 0;
  zeno_sim *sim = zeno_sim_create(scene, &def, err);
  if (sim == NULL) return cli_library_error(err);
  const int code = run_scene(sim, o);
  zeno_sim_destroy(sim);
  return code;
}

static const cli_scene_command SIMULATE_COMMAND = {
    COMMAND_NAME, ":m:s:o:jqh", LONG_OPTIONS, apply_option, simulate,
};

int cmd_simulate(int argc, char **argv) {
  simulate_options o = {0};
  return cli_scene_command_main(&SIMULATE_COMMAND, &o.common, &o, argc, argv);
}
