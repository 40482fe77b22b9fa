// `zeno regions --certify` (regions_certify.h).
#include "regions_certify.h"

#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli_certify.h"
#include "cli/cli_signal.h"
#include "grid_journal.h"
#include "grid_progress.h"
#include "zeno/io.h"

/// The region the Poincaré analysis leaves undecided.
#define REGION_UNDECIDED 7
/// The journal of certificates in --out, and its first line before the
/// signature.
static const char *const JOURNAL_NAME = "certificates.journal";
static const char *const JOURNAL_MAGIC = "# zeno regions certificates journal v1 sha256 ";
/// Room for a journal line: an index, two flags, the seconds and a reason.
#define JOURNAL_LINE_SIZE (REASON_SIZE + 128)
/// Room for a "path=value" override with a round-trip number.
#define OVERRIDE_SIZE (ZENO_REGION_PATH_SIZE + 32)
/// Room for a certificate's reason in the table.
#define REASON_SIZE 256

struct regions_certificate {
  size_t k;   ///< index in the grid
  bool done;  ///< certified in this run, or read back from the journal
  bool certified, refused;
  double seconds;            ///< the certificate's wall time, when it was computed
  char reason[REASON_SIZE];  ///< one line (line breaks made spaces)
};

// The scene of grid point k: the scene text with the --set overrides, then
// the batch's z value, then the point's x and y, as the map loaded it.
static zeno_status point_scene(const regions_certify_input *in, size_t k, zeno_scene *scene,
                               zeno_error *error) {
  const zeno_region_point *p = &in->grid[k];
  const cli_overrides *ov = &in->common->overrides;
  const char **items = malloc((ov->count + 3) * sizeof *items);
  if (items == NULL) return cli_out_of_memory(error);
  size_t n = 0;
  for (size_t i = 0; i < ov->count; i++) items[n++] = ov->items[i];
  char zs[OVERRIDE_SIZE], xs[OVERRIDE_SIZE], ys[OVERRIDE_SIZE];
  if (in->z) {
    snprintf(zs, sizeof zs, "%s=%.17g", in->z->path,
             zeno_region_axis_value(in->z, k / (in->nx * in->ny)));
    items[n++] = zs;
  }
  snprintf(xs, sizeof xs, "%s=%.17g", in->x->path, p->x);
  snprintf(ys, sizeof ys, "%s=%.17g", in->y->path, p->y);
  items[n++] = xs;
  items[n++] = ys;
  const zeno_status st = zeno_scene_load_string(in->common->scene_text, in->common->scene_path,
                                                items, n, scene, error);
  free(items);
  return st;
}

static void certify_point(const cli_certificate_library *lib, const regions_certify_input *in,
                          regions_certificate *pc) {
  const double start = cli_seconds();
  zeno_scene scene;
  zeno_error err;
  zeno_certificate *c = malloc(sizeof *c);
  zeno_status st = c ? point_scene(in, pc->k, &scene, &err) : ZENO_ERR_NOMEM;
  if (st == ZENO_OK) {
    zeno_certify_def def = lib->def_default();
    def.check_runs = in->check_runs;
    st = lib->certify(&scene, &def, c, &err);
  }
  if (st == ZENO_OK) {
    pc->certified = c->certified;
    pc->refused = c->refused;
    snprintf(pc->reason, sizeof pc->reason, "%s", c->reason);
  } else {
    // Not certified, with the error as the reason (a point the map analysed
    // loads; a certificate that cannot be set up is no certificate).
    pc->refused = true;
    if (c == NULL) snprintf(pc->reason, sizeof pc->reason, "out of memory");
    else zeno_error_format(&err, pc->reason, sizeof pc->reason);
  }
  free(c);
  // One line in the journal as in the table.
  for (char *at = pc->reason; (at = strpbrk(at, "\n\r")) != NULL;) *at = ' ';
  pc->seconds = cli_seconds() - start;
  pc->done = true;
}

/* ---------- the journal of certificates ---------- */

// The journal's signature: the map's (its scene, overrides, axes and
// settings) and what else decides a certificate, check_runs. Which
// points are tried (--certify-all) is not in it: each line is one point's.
static int journal_signature(const regions_certify_input *in, char out[GRID_SIGNATURE_SIZE]) {
  char settings[GRID_SIGNATURE_SIZE + 128];
  snprintf(settings, sizeof settings, "zeno %s; certificates of map %s; check_runs %d",
           zeno_version(), in->map_signature, in->check_runs);
  const cli_scene_options *common = in->common;
  return grid_journal_signature(settings, common->scene_text, common->scene_length,
                                &common->overrides, out);
}

// A journal line "K,CERTIFIED,REFUSED,SECONDS,REASON" into *pc; false when
// it is not one.
static bool read_certificate(const char *text, regions_certificate *pc) {
  int certified, refused, used = 0;
  if (sscanf(text, "%zu,%d,%d,%lf,%n", &pc->k, &certified, &refused, &pc->seconds, &used) != 4 ||
      used == 0 || (certified != 0 && certified != 1) || (refused != 0 && refused != 1) ||
      !isfinite(pc->seconds) || pc->seconds < 0 || strlen(text + used) >= REASON_SIZE)
    return false;
  pc->certified = certified, pc->refused = refused;
  snprintf(pc->reason, sizeof pc->reason, "%s", text + used);
  return true;
}

// Reads the certificates an earlier run journaled into pcs (where[k]: the
// index in pcs of grid point k, SIZE_MAX when it is not tried); keeps the
// file up to the last good line.
static void read_journal(journal_lines *j, size_t total, const size_t *where,
                         regions_certificate *pcs, size_t *resumed) {
  char line[JOURNAL_LINE_SIZE];
  char *text;
  regions_certificate pc;
  while ((text = journal_lines_next(j, line, sizeof line)) != NULL) {
    if (!read_certificate(text, &pc) || pc.k >= total) {
      cli_error("note: %s:%ld is not a certificate of this map; %s", j->path, j->line, j->redo);
      break;
    }
    journal_lines_accept(j);
    const size_t i = where[pc.k];
    if (i == SIZE_MAX || pcs[i].done) continue;  // a point not tried now, or twice
    pcs[i] = pc;
    pcs[i].done = true;
    (*resumed)++;
  }
}

static int open_journal(journal_lines *j, const regions_certify_input *in, const char *dir,
                        size_t total, const size_t *where, regions_certificate *pcs,
                        size_t *resumed) {
  *j = (journal_lines){.command = "regions",
                       .other_run = "other certificates (--certify-check or the map differs)",
                       .redo = "the certificates from there are computed again",
                       .overwrite = in->overwrite};
  char sig[GRID_SIGNATURE_SIZE];
  int code = journal_signature(in, sig);
  bool created;
  if (code == CLI_CONTINUE)
    code = journal_lines_open(j, dir, JOURNAL_NAME, JOURNAL_MAGIC, sig, &created);
  if (code != CLI_CONTINUE || created) return code;
  read_journal(j, total, where, pcs, resumed);
  return journal_lines_truncate(j);
}

static int append_certificate(journal_lines *j, const regions_certificate *pc) {
  char text[JOURNAL_LINE_SIZE];
  snprintf(text, sizeof text, "%zu,%d,%d,%.17g,%s", pc->k, pc->certified, pc->refused, pc->seconds,
           pc->reason);
  journal_lines_put(j, text);
  return journal_lines_flush(j);
}

// A CSV field: quoted, quotes doubled, when it holds a comma, a quote or a
// line break (RFC 4180).
static void csv_text(FILE *f, const char *s) {
  if (strpbrk(s, ",\"\n\r") == NULL) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void regions_certify_table(FILE *f, const regions_certify_result *r) {
  const regions_certify_input *in = &r->in;
  const regions_certificate *pcs = r->certificates;
  if (in->z) fprintf(f, "iz,%s,", in->z->path);
  fprintf(f, "ix,iy,%s,%s,region,certified,refused,sim,seconds,reason\n", in->x->path, in->y->path);
  for (size_t i = 0; i < r->count; i++) {
    const zeno_region_point *p = &in->grid[pcs[i].k];
    if (in->z) {
      const size_t iz = pcs[i].k / (in->nx * in->ny);
      fprintf(f, "%zu,%.17g,", iz, zeno_region_axis_value(in->z, iz));
    }
    fprintf(f, "%zu,%zu,%.17g,%.17g,%d,%d,%d,%s,%.6g,", p->ix, p->iy, p->x, p->y, p->region,
            pcs[i].certified, pcs[i].refused, zeno_region_sim_name(p->sim), pcs[i].seconds);
    csv_text(f, pcs[i].reason);
    fputc('\n', f);
  }
}

// The points tried, in grid order (where[k]: point k's index in pcs, or
// SIZE_MAX); their count.
static size_t tried_points(const regions_certify_input *in, size_t total, regions_certificate *pcs,
                           size_t *where) {
  size_t n = 0;
  for (size_t k = 0; k < total; k++) {
    const int region = in->grid[k].region;
    const bool tried = region == REGION_UNDECIDED ||
                       (in->all && region >= 0 && region < ZENO_REGION_COUNT);
    where[k] = tried ? n : SIZE_MAX;
    if (tried) pcs[n++].k = k;
  }
  return n;
}

/// The certificates of this run so far, and their progress line.
typedef struct certify_progress {
  grid_progress line;
  long done;
} certify_progress;

// A certificate finished: journaled (journal NULL: none; `code` is the
// run's, CLI_CONTINUE until a write fails) and counted on the line. One
// caller at a time.
static int certificate_done(journal_lines *journal, const regions_certificate *pc,
                            certify_progress *progress, int code) {
  if (journal != NULL && code == CLI_CONTINUE) code = append_certificate(journal, pc);
  grid_progress_draw(&progress->line, ++progress->done);
  return code;
}

// The certificates not done yet on `team` OpenMP threads, each journaled
// as it finishes; a failing journal write stops the rest. Only for a team
// of two or more: one thread never starts the OpenMP runtime (LLVM's dies
// of SIGBUS when its /dev/shm registration cannot be written, see
// grid_rows.c's compute_shared()).
static int certify_shared(const cli_certificate_library *lib, const regions_certify_input *in,
                          journal_lines *journal, certify_progress *progress,
                          regions_certificate *pcs, size_t n, int team) {
  // Written only in the critical section below, read by every thread.
  atomic_int code;
  atomic_init(&code, CLI_CONTINUE);
  // Each certificate on a thread of its own; CSDP's solves queue on its
  // mutex (docs/certificate.md), the rest (the exact check, the scene)
  // runs in parallel.
#ifdef _OPENMP
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
#else
  (void)team;
#endif
  for (size_t i = 0; i < n; i++) {
    if (pcs[i].done || atomic_load(&code) != CLI_CONTINUE || cli_interrupted()) continue;
    certify_point(lib, in, &pcs[i]);
#ifdef _OPENMP
#pragma omp critical(regions_certificates_done)
#endif
    atomic_store(&code, certificate_done(journal, &pcs[i], progress, atomic_load(&code)));
  }
  return atomic_load(&code);
}

// Every certificate not done yet, each journaled as it finishes (journal
// NULL: none). A failing journal write or a signal stops the rest.
static int certify_points(const cli_certificate_library *lib, const regions_certify_input *in,
                          journal_lines *journal, regions_certificate *pcs, size_t n,
                          size_t resumed) {
  const int team = zeno_regions_threads(in->threads);
  certify_progress progress = {.done = 0};
  grid_progress_start(&progress.line, "regions", "certificates", (long)(n - resumed), !in->quiet);
  int code = CLI_CONTINUE;
  if (team > 1) {
    code = certify_shared(lib, in, journal, &progress, pcs, n, team);
  } else {
    for (size_t i = 0; i < n && code == CLI_CONTINUE && !cli_interrupted(); i++) {
      if (pcs[i].done) continue;
      certify_point(lib, in, &pcs[i]);
      code = certificate_done(journal, &pcs[i], &progress, code);
    }
  }
  if (code == CLI_CONTINUE && !cli_interrupted())
    grid_progress_finish(&progress.line, progress.done);
  else grid_progress_break(&progress.line);
  if (code == CLI_CONTINUE && cli_interrupted())
    code = cli_interrupted_exit("regions", journal ? "the certificates finished are journaled; "
                                                     "the same command resumes"
                                                   : "nothing written");
  return code;
}

// The counts and the figure's verdicts of the certificates.
static int count_certificates(const regions_certify_input *in, size_t total,
                              regions_certify_result *r) {
  r->verdicts = malloc(total ? total : 1);
  if (r->verdicts == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  memset(r->verdicts, -1, total);
  r->all = in->all;
  const regions_certificate *pcs = r->certificates;
  for (size_t i = 0; i < r->count; i++) {
    const zeno_region_point *p = &in->grid[pcs[i].k];
    const int region = p->region;
    const bool disagree = pcs[i].certified && p->sim == ZENO_REGION_SIM_DEPARTS;
    r->tried_in[region]++;
    r->certified_in[region] += pcs[i].certified;
    r->verdicts[pcs[i].k] = disagree ? 2 : pcs[i].certified ? 1 : 0;
    r->disagree += disagree;
    r->slow += pcs[i].certified && p->sim == ZENO_REGION_SIM_SLOW;
    if (region != REGION_UNDECIDED) continue;
    r->undecided++;
    r->certified += pcs[i].certified;
    r->refused += pcs[i].refused;
  }
  return CLI_CONTINUE;
}

int regions_certify_run(const regions_certify_input *in, const char *out_dir,
                        regions_certify_result *r) {
  memset(r, 0, sizeof *r);
  r->in = *in;
  cli_certificate_library lib;
  if (!cli_certificate_library_load(&lib)) return CLI_EXIT_RUNTIME;
  const size_t total = in->nx * in->ny * in->nz;
  regions_certificate *pcs = calloc(total ? total : 1, sizeof *pcs);
  size_t *where = malloc((total ? total : 1) * sizeof *where);
  if (pcs == NULL || where == NULL) {
    free(pcs), free(where);
    return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  }
  r->certificates = pcs;
  r->count = tried_points(in, total, pcs, where);
  journal_lines journal = {0};
  int code = out_dir ? open_journal(&journal, in, out_dir, total, where, pcs, &r->resumed)
                     : CLI_CONTINUE;
  free(where);
  const double start = cli_seconds();
  if (code == CLI_CONTINUE)
    code = certify_points(&lib, in, out_dir ? &journal : NULL, pcs, r->count, r->resumed);
  r->seconds = cli_seconds() - start;
  code = journal_lines_close(&journal, code == CLI_CONTINUE ? CLI_EXIT_OK : code);
  if (code != CLI_EXIT_OK) return code;
  return count_certificates(in, total, r);
}

void regions_certify_free(regions_certify_result *r) {
  free(r->verdicts);
  free(r->certificates);
  r->verdicts = NULL;
  r->certificates = NULL;
}

void regions_certify_json(FILE *f, const regions_certify_result *r) {
  if (r->verdicts == NULL) return;
  fprintf(f,
          ", \"certify\": {\"undecided\": %zu, \"certified\": %zu, \"refused\": %zu, "
          "\"certified_but_departs\": %zu, \"certified_returns_slowly\": %zu, \"resumed\": %zu, "
          "\"seconds\": ",
          r->undecided, r->certified, r->refused, r->disagree, r->slow, r->resumed);
  zeno_io_json_number(f, r->seconds, NULL);
  if (r->all) {
    fputs(", \"by_region\": {", f);
    for (int k = 0; k < ZENO_REGION_COUNT; k++)
      fprintf(f, "%s\"%d\": {\"tried\": %zu, \"certified\": %zu}", k ? ", " : "", k, r->tried_in[k],
              r->certified_in[k]);
    fputc('}', f);
  }
  fputc('}', f);
}

void regions_certify_print(const regions_certify_result *r) {
  if (r->verdicts == NULL) return;
  cli_label("region 7 certified");
  printf("%zu of %zu (%zu refused before the SDP; %.3g s", r->certified, r->undecided, r->refused,
         r->seconds);
  if (r->resumed > 0) printf(", %zu certificates resumed", r->resumed);
  printf(")\n");
  if (r->disagree + r->slow > 0) {
    cli_label("certified vs runs");
    printf(
        "%zu certified where a perturbed run departs (marked x), %zu where runs return "
        "slowly\n",
        r->disagree, r->slow);
  }
  for (int k = 0; r->all && k < ZENO_REGION_COUNT - 1; k++) {
    char label[sizeof "region -2147483648 certified"];  // any int
    snprintf(label, sizeof label, "region %d certified", k);
    cli_label(label);
    printf("%zu of %zu\n", r->certified_in[k], r->tried_in[k]);
  }
}
