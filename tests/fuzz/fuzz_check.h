// Invariants the fuzz harnesses check after every scene load (tests/fuzz/):
// a failed load carries a code and a non-empty one-line message; a loaded
// scene passes zeno_scene_validate() and holds only finite numbers. A broken
// invariant aborts, which libFuzzer reports as a crash and the replay test
// (replay.c) as a failed test.
#ifndef ZENO_FUZZ_CHECK_H
#define ZENO_FUZZ_CHECK_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zeno/zeno.h"

/// Room for a formatted error: zeno_error's file (256), parameter (128) and
/// message (512) plus separators.
#define FUZZ_LINE_LEN 1024

/// Reports which invariant failed and aborts.
#define FUZZ_REQUIRE(cond)                                                              \
  do {                                                                                  \
    if (!(cond)) {                                                                      \
      fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                          \
    }                                                                                   \
  } while (0)

static inline bool fuzz_finite_all(const double *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return false;
  return true;
}

/// A string field is terminated inside its array.
static inline bool fuzz_terminated(const char *text, size_t size) {
  return memchr(text, '\0', size) != NULL;
}

/// A failed load: an error code, a message, and one line when formatted.
static inline void fuzz_check_error(zeno_status st, const zeno_error *e) {
  FUZZ_REQUIRE(st != ZENO_OK && st != ZENO_DONE);
  FUZZ_REQUIRE(e->code == st);
  FUZZ_REQUIRE(fuzz_terminated(e->message, sizeof e->message));
  FUZZ_REQUIRE(fuzz_terminated(e->file, sizeof e->file));
  FUZZ_REQUIRE(fuzz_terminated(e->parameter, sizeof e->parameter));
  FUZZ_REQUIRE(e->message[0] != '\0');
  FUZZ_REQUIRE(strcmp(zeno_status_name(st), "unknown") != 0);
  char line[FUZZ_LINE_LEN];
  const size_t n = zeno_error_format(e, line, sizeof line);
  FUZZ_REQUIRE(n > 0);
  FUZZ_REQUIRE(strpbrk(line, "\n\r") == NULL);
}

/// A loaded scene: valid, finite, with its counts in range.
static inline void fuzz_check_scene(const zeno_scene *s) {
  zeno_error e;
  FUZZ_REQUIRE(zeno_scene_validate(s, &e) == ZENO_OK);
  FUZZ_REQUIRE(fuzz_terminated(s->name, sizeof s->name));
  FUZZ_REQUIRE(s->contact_count >= 1 && s->contact_count <= ZENO_MAX_CONTACTS);
  FUZZ_REQUIRE(s->outline_count <= ZENO_MAX_OUTLINE);
  const double body[] = {s->mass,           s->rho,
                         s->outline_radius, s->load_magnitude,
                         s->load_angle,     s->load_torque,
                         s->com_shift[0],   s->com_shift[1],
                         s->restitution,    s->tangential_restitution,
                         s->epsilon,        s->t_end,
                         s->escape_radius,  s->rtol,
                         s->atol,           s->sample_dt};
  FUZZ_REQUIRE(fuzz_finite_all(body, (int)(sizeof body / sizeof *body)));
  for (size_t k = 0; k < s->outline_count; k++) FUZZ_REQUIRE(fuzz_finite_all(s->outline[k], 2));
  for (int i = 0; i < s->contact_count; i++) {
    const zeno_contact_def *c = &s->contacts[i];
    FUZZ_REQUIRE(fuzz_finite_all(c->point, 2));
    FUZZ_REQUIRE(fuzz_finite_all(c->surface_point, 2));
    FUZZ_REQUIRE(isfinite(c->surface_angle) && isfinite(c->mu) && c->mu >= 0);
  }
  FUZZ_REQUIRE(fuzz_finite_all(s->initial_qp, 3));
  FUZZ_REQUIRE(fuzz_finite_all(s->initial_qdp, 3));
  FUZZ_REQUIRE(fuzz_finite_all(s->initial_pose, 3));
  FUZZ_REQUIRE(fuzz_finite_all(s->initial_velocity, 3));
  FUZZ_REQUIRE(s->max_events >= 1);
  if (s->has_paper) {
    const zeno_paper_geometry *p = &s->paper;
    const double paper[] = {p->alpha, p->l1, p->l2, p->h, p->phi1, p->phi2};
    FUZZ_REQUIRE(fuzz_finite_all(paper, (int)(sizeof paper / sizeof *paper)));
  }
}

/// The input as a new NUL-terminated string (NULL when out of memory).
static inline char *fuzz_text(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) return NULL;
  memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

/// Loads `text` with the overrides and checks whichever outcome it has.
static inline void fuzz_load(const char *text, const char *const *overrides,
                             size_t override_count) {
  zeno_scene scene;
  zeno_error e;
  const zeno_status st = zeno_scene_load_string(text, "fuzz.yaml", overrides, override_count,
                                                &scene, &e);
  if (st == ZENO_OK) fuzz_check_scene(&scene);
  else fuzz_check_error(st, &e);
}

/// The libFuzzer entry point every harness defines.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
