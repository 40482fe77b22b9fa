// The a-posteriori check of a certificate by simulation (certify_check.c):
// random perturbed ZOD runs of the scene (public zeno_sim API, restarted
// for each run), V1 and V2 evaluated before and after every event; the
// largest increase of either over a piece between events or across an
// event, relative to the size of the terms, must be rounding. Without free
// flight after the first impact (certify_exact.h) the pieces before the
// first impact are exempt: Theorem 2 needs no decrease there (Lemma 2
// bounds them). Under Newton's law a free flight and the event that ends
// it are one step: V2 after it must not exceed V2 at the flight's start.
// Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_CHECK_H
#define ZENO_CERTIFY_CERTIFY_CHECK_H

#include "certify/certify_program.h"
#include "zeno/interrupt.h"

typedef struct cert_check_result {
  int runs, events;     ///< runs simulated, events checked
  double max_increase;  ///< largest relative increase of V1 or V2
  int worst_run;        ///< run where it happened (-1: none)
  long worst_event;
} cert_check_result;

/// n runs of the scene (in its own units, as the system) from perturbations
/// of its equilibrium with gaps in [0, size], slip in [-size, size] and
/// velocities in [-size, size] (own units), seeded. `interrupt` is asked
/// between the runs' events (ZENO_ERR_INTERRUPTED; NULL: never).
zeno_status cert_check_check(const zeno_scene *own, const cert_system *sys,
                             const cert_program_outcome *o, int n, double size, unsigned seed,
                             bool skip_first_flight, const zeno_interrupt *interrupt,
                             cert_check_result *out, zeno_error *e);

#endif
