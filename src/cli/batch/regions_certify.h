// `zeno regions --certify`: a Lyapunov certificate (zeno/certify.h) at every
// point the Poincaré analysis leaves undecided (region 7, which includes
// every point of a scene with restitution), or with --certify-all at every
// point analysed (to hold certificates against the maps' verdicts), on the
// map's threads, after the map is complete (rank 0). With --out DIR each
// certificate is appended to DIR/certificates.journal as it finishes, with
// the rules of the rows' journal (grid_journal.h: a signed header, every
// line behind its checksum, no link followed, DIR's lock held): a killed
// or interrupted run restarted with the same command certifies only the
// points not journaled yet, and writes the same certificates.csv.
#ifndef ZENO_CLI_REGIONS_CERTIFY_H
#define ZENO_CLI_REGIONS_CERTIFY_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli_common.h"
#include "zeno/regions.h"

typedef struct regions_certify_input {
  const cli_scene_options *common;  ///< the scene text and the --set overrides
  const zeno_region_axis *x, *y;
  const zeno_region_axis *z;      ///< a batch's axis, or NULL
  const zeno_region_point *grid;  ///< map iz's point (ix, iy) at (iz * ny + iy) * nx + ix
  size_t nx, ny, nz;
  int threads;     ///< as --threads (0: every core)
  int check_runs;  ///< each certificate's simulation check (0: none)
  bool all;        ///< every point analysed, not only region 7
  bool quiet;      ///< no progress line (--quiet)
  bool overwrite;  ///< --overwrite: another run's journal of certificates is begun again
  /// The map's journal signature (grid_batch.signature): the journal of
  /// certificates belongs to the map and to check_runs; with out_dir.
  const char *map_signature;
} regions_certify_input;

/// One point's certificate: a row of certificates.csv.
typedef struct regions_certificate regions_certificate;

typedef struct regions_certify_result {
  size_t undecided;  ///< region-7 points
  size_t certified;  ///< of them, certified
  size_t refused;    ///< of them, refused before any SDP (the reason says why)
  /// Certified points (any region) whose perturbed runs disagree: some run
  /// departs (zeno_region_point.sim), though the certificate says every
  /// small enough perturbation returns; and those whose runs return slowly
  /// (stopped by their limits while still returning): no disagreement.
  size_t disagree, slow;
  /// With `all`: points tried and certified per region 0-7.
  size_t tried_in[ZENO_REGION_COUNT], certified_in[ZENO_REGION_COUNT];
  size_t resumed;  ///< certificates read back from the journal
  double seconds;  ///< wall time of this run's certificates
  bool all;        ///< every point analysed was tried (tried_in, certified_in)
  /// Per grid point: 1 certified, 2 certified but a perturbed run departs
  /// (a disagreement), 0 not, -1 no certificate sought (not region 7); for
  /// the figure. NULL when no certificates ran. Free with
  /// regions_certify_free().
  signed char *verdicts;
  regions_certify_input in;           ///< the points' input, for the table
  regions_certificate *certificates;  ///< `count` of them, in grid order
  size_t count;
} regions_certify_result;

/// Certifies every undecided point (every analysed one with `all`) not in
/// out_dir's journal of certificates (NULL: no journal), journaling each
/// as it finishes. Ctrl-C and SIGTERM stop it between certificates. A CLI
/// exit code (CLI_CONTINUE when done).
int regions_certify_run(const regions_certify_input *in, const char *out_dir,
                        regions_certify_result *result);

/// The name of the table in --out, and the table (one row per point tried:
/// its indices and values, region, certified, refused, sim, the
/// certificate's seconds, as computed, and its reason).
#define REGIONS_CERTIFICATES_NAME "certificates.csv"
void regions_certify_table(FILE *f, const regions_certify_result *result);

void regions_certify_free(regions_certify_result *result);

/// The summary's part: `, "certify": {...}` for summary.json, and its lines
/// in the human summary; nothing when no certificates ran.
void regions_certify_json(FILE *f, const regions_certify_result *result);
void regions_certify_print(const regions_certify_result *result);

#endif
