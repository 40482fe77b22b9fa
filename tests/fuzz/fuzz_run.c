// libFuzzer harness of what runs after loading: a scene that loads is
// checked (zeno_equilibrium_check) and simulated with the ZOD for at most
// FUZZ_RUN_EVENTS events. Every result must be a status with a message or
// finite numbers: no NaN or infinity in any report, event or state, and the
// run ends with a documented outcome. Input as in fuzz_scene.c.
#include "fuzz_check.h"

/// Events simulated per input: enough for impacts, transitions and a Zeno
/// completion (Example 3 completes after ~30), few enough for ~1e3 runs/s.
#define FUZZ_RUN_EVENTS 64

static void check_state(const zeno_state *st, int contacts) {
  FUZZ_REQUIRE(isfinite(st->t) && isfinite(st->energy));
  FUZZ_REQUIRE(fuzz_finite_all(st->q, 3) && fuzz_finite_all(st->qdot, 3));
  FUZZ_REQUIRE(fuzz_finite_all(st->zod, 3) && fuzz_finite_all(st->zod_rate, 3));
  FUZZ_REQUIRE(fuzz_finite_all(st->gap, contacts));
  FUZZ_REQUIRE(fuzz_finite_all(st->gap_rate, contacts));
  for (int i = 0; i < contacts; i++) FUZZ_REQUIRE(fuzz_finite_all(st->force[i], 2));
}

static void check_event(const zeno_event *ev, int contacts) {
  check_state(&ev->before, contacts);
  check_state(&ev->after, contacts);
  FUZZ_REQUIRE(isfinite(ev->t));
  for (int i = 0; i < contacts; i++) FUZZ_REQUIRE(fuzz_finite_all(ev->impulse[i], 2));
  if (ev->kind == ZENO_EVENT_END)
    FUZZ_REQUIRE(ev->outcome > ZENO_OUTCOME_RUNNING && ev->outcome <= ZENO_OUTCOME_SOLVER_FAILURE);
}

static void check_equilibrium(const zeno_scene *s) {
  zeno_equilibrium_report rep;
  zeno_error e;
  const zeno_status st = zeno_equilibrium_check(s, &rep, &e);
  if (st != ZENO_OK) {
    fuzz_check_error(st, &e);
    return;
  }
  FUZZ_REQUIRE(!isnan(rep.margin));
  for (int i = 0; i < s->contact_count; i++) {
    FUZZ_REQUIRE(fuzz_finite_all(rep.forces[i], 2));
    FUZZ_REQUIRE(isfinite(rep.zdd_ff[i]));
    FUZZ_REQUIRE(!isnan(rep.painleve_bound[i]));
  }
}

static void run(zeno_scene s) {
  s.model = ZENO_MODEL_ZOD;
  if (s.max_events > FUZZ_RUN_EVENTS) s.max_events = FUZZ_RUN_EVENTS;
  zeno_error e;
  zeno_sim *sim = zeno_sim_create(&s, NULL, &e);
  if (sim == NULL) {
    fuzz_check_error(e.code, &e);
    return;
  }
  zeno_event ev;
  long n = 0;
  zeno_status st;
  while ((st = zeno_sim_next_event(sim, &ev, NULL)) == ZENO_OK) {
    check_event(&ev, s.contact_count);
    n++;
    FUZZ_REQUIRE(n <= FUZZ_RUN_EVENTS + 2);  // START and END on top
  }
  FUZZ_REQUIRE(st == ZENO_DONE);
  FUZZ_REQUIRE(zeno_sim_outcome(sim) != ZENO_OUTCOME_RUNNING);
  zeno_sim_destroy(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  if (text == NULL) return 0;
  zeno_scene s;
  zeno_error e;
  const zeno_status st = zeno_scene_load_string(text, "fuzz.yaml", NULL, 0, &s, &e);
  free(text);
  if (st != ZENO_OK) {
    fuzz_check_error(st, &e);
    return 0;
  }
  check_equilibrium(&s);
  run(s);
  return 0;
}
