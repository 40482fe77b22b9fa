// `zeno regions --certify` (regions_certify.h).
#include "regions_certify.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli_certify.h"
#include "zeno/io.h"

/// The region the Poincaré analysis leaves undecided.
#define REGION_UNDECIDED 7
/// The file written beside regions.csv.
static const char *const CERTIFICATES_NAME = "certificates.csv";
/// Room for a "path=value" override with a round-trip number.
#define OVERRIDE_SIZE (ZENO_REGION_PATH_SIZE + 32)
/// Room for a certificate's reason in the table.
#define REASON_SIZE 256

typedef struct point_certificate {
  size_t k;  ///< index in the grid
  bool certified, refused;
  double seconds;
  char reason[REASON_SIZE];
} point_certificate;

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
                          point_certificate *pc) {
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
  pc->seconds = cli_seconds() - start;
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

static int write_table(const regions_certify_input *in, const char *out_dir,
                       const point_certificate *pcs, size_t n) {
  // Written aside and renamed into place whole, never through a link.
  zeno_error err;
  zeno_io_output *out = zeno_io_output_open(out_dir, CERTIFICATES_NAME, &err);
  if (out == NULL) return cli_output_error(&err);
  FILE *f = zeno_io_output_stream(out);
  if (in->z) fprintf(f, "iz,%s,", in->z->path);
  fprintf(f, "ix,iy,%s,%s,region,certified,refused,sim,seconds,reason\n", in->x->path, in->y->path);
  for (size_t i = 0; i < n; i++) {
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
  return zeno_io_output_commit(out, &err) == ZENO_OK ? CLI_CONTINUE : cli_output_error(&err);
}

int regions_certify_run(const regions_certify_input *in, const char *out_dir,
                        regions_certify_result *r) {
  memset(r, 0, sizeof *r);
  cli_certificate_library lib;
  if (!cli_certificate_library_load(&lib)) return CLI_EXIT_RUNTIME;
  const size_t total = in->nx * in->ny * in->nz;
  point_certificate *pcs = calloc(total ? total : 1, sizeof *pcs);
  if (pcs == NULL) return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  size_t n = 0;
  for (size_t k = 0; k < total; k++)
    if (in->grid[k].region == REGION_UNDECIDED ||
        (in->all && in->grid[k].region >= 0 && in->grid[k].region < ZENO_REGION_COUNT))
      pcs[n++].k = k;
  const double start = cli_seconds();
  const int team = zeno_regions_threads(in->threads);
  (void)team;  // unused without OpenMP
  // Each certificate on a thread of its own; CSDP's solves queue on its
  // mutex (docs/certificate.md), the rest (the exact check, the scene)
  // runs in parallel.
#ifdef _OPENMP
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
#endif
  for (size_t i = 0; i < n; i++) certify_point(&lib, in, &pcs[i]);
  r->seconds = cli_seconds() - start;
  r->verdicts = malloc(total ? total : 1);
  if (r->verdicts == NULL) {
    free(pcs);
    return cli_error("out of memory"), CLI_EXIT_RUNTIME;
  }
  memset(r->verdicts, -1, total);
  r->all = in->all;
  for (size_t i = 0; i < n; i++) {
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
  const int code = out_dir ? write_table(in, out_dir, pcs, n) : CLI_CONTINUE;
  free(pcs);
  return code;
}

void regions_certify_free(regions_certify_result *r) {
  free(r->verdicts);
  r->verdicts = NULL;
}

void regions_certify_json(FILE *f, const regions_certify_result *r) {
  if (r->verdicts == NULL) return;
  fprintf(f,
          ", \"certify\": {\"undecided\": %zu, \"certified\": %zu, \"refused\": %zu, "
          "\"certified_but_departs\": %zu, \"certified_returns_slowly\": %zu, \"seconds\": ",
          r->undecided, r->certified, r->refused, r->disagree, r->slow);
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
  printf("%zu of %zu (%zu refused before the SDP; %.3g s)\n", r->certified, r->undecided,
         r->refused, r->seconds);
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
