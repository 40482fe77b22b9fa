// JSON writers (zeno/io.h): numbers, strings, states, events as JSON Lines,
// and the run, equilibrium and stability reports. Writers only format to
// the stream they are given; write errors are read back from the stream's
// error indicator (io_internal.h).
#include "zeno/io.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "io/io_json_put.h"
#include "io/io_number.h"
#include "io/io_stream.h"

/// Output format of runs of more than two contacts (zeno_io_run_json()):
/// version 1, without the key, is the two-contact format.
#define IO_FORMAT_VERSION_N 2

/* ---- public JSON primitives ---------------------------------------------- */

zeno_status zeno_io_json_number(FILE *stream, double value, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  json_put_number(stream, value);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_json_string(FILE *stream, const char *text, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  json_put_string(stream, text);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_json_numbers(FILE *stream, const double *values, size_t count,
                                 zeno_error *error) {
  if (stream == NULL || (count > 0 && values == NULL)) return io_no_stream(error);
  json_put_numbers(stream, values, count);
  return io_stream_status(stream, error);
}

/* ---- states and events --------------------------------------------------- */

static void put_state(FILE *f, const zeno_state *s, int contact_count) {
  json_object o = json_object_begin(f);
  json_member_numbers(&o, "q", s->q, 3);
  json_member_numbers(&o, "qdot", s->qdot, 3);
  json_member_numbers(&o, "zod", s->zod, 3);
  json_member_numbers(&o, "zod_rate", s->zod_rate, 3);
  json_object_key(&o, "force");
  json_put_pairs(f, s->force, contact_count);
  json_member_number(&o, "energy", s->energy);
  json_object_end(&o);
}

zeno_status zeno_io_state_json(FILE *stream, const zeno_state *state, int contact_count,
                               zeno_error *error) {
  if (stream == NULL || state == NULL) return io_no_stream(error);
  put_state(stream, state, contact_count);
  return io_stream_status(stream, error);
}

static void event_zeno_members(json_object *o, const zeno_event *e) {
  json_member_long(o, "zeno_impacts", e->zeno_impacts);
  json_member_number(o, "zeno_ratio", e->zeno_ratio);
  json_member_number(o, "zeno_error", e->zeno_error);
  json_member_long(o, "zeno_period", e->zeno_period);
  json_member_long(o, "zeno_order", e->zeno_order);
}

/// END(inconsistent): the proof, {"of": "mode" or "impact", "refused":
/// [{"mode" (or "candidate"): "NN", "why": "normal", "contact": 2}, ...]}
/// with every mode (impact candidate) tried and the condition it violates;
/// contacts 1-based, null where the refusal names none.
static void put_proof(FILE *f, const zeno_event *e, int contact_count) {
  json_object o = json_object_begin(f);
  json_member_string(&o, "of", e->refusal_of_impact ? "impact" : "mode");
  json_object_key(&o, "refused");
  fputc('[', f);
  int written = 0;
  for (int code = 0; code < ZENO_MAX_MODES; code++) {
    if (e->refusal[code] == ZENO_REFUSAL_NONE) continue;
    if (written++) fputs(", ", f);
    json_object r = json_object_begin(f);
    json_object_key(&r, e->refusal_of_impact ? "candidate" : "mode");
    json_put_mode(f, zeno_mode_of_code((unsigned)code), contact_count);
    json_member_string(&r, "why", zeno_refusal_name((zeno_refusal)e->refusal[code]));
    json_object_key(&r, "contact");
    if (e->refusal_contact[code] >= 0) fprintf(f, "%d", e->refusal_contact[code] + 1);
    else fputs("null", f);
    json_object_end(&r);
  }
  fputc(']', f);
  json_object_end(&o);
}

static void event_end_members(json_object *o, const zeno_event *e, int contact_count) {
  json_member_string(o, "outcome", zeno_outcome_name(e->outcome));
  if (e->outcome == ZENO_OUTCOME_DIVERGING) {
    json_member_number(o, "zeno_ratio", e->zeno_ratio);
    json_member_long(o, "zeno_period", e->zeno_period);
  }
  if (e->outcome == ZENO_OUTCOME_AMBIGUOUS) {
    json_object_key(o, "consistent_modes");
    json_put_modes(o->f, e->consistent, e->consistent_count, contact_count);
  }
  if (e->outcome == ZENO_OUTCOME_INCONSISTENT) {
    json_object_key(o, "proof");
    put_proof(o->f, e, contact_count);
  }
  if (e->outcome == ZENO_OUTCOME_SOLVER_FAILURE)
    json_member_string(o, "solver_flag", e->solver_flag);
}

/// IMPACT: per contact, the letter it takes after the impact (S sticks, P or
/// N slips) when it received an impulse, null when it did not.
static void put_impact_outcome(FILE *f, const zeno_event *e, int contact_count) {
  fputc('[', f);
  for (int i = 0; i < contact_count && i < ZENO_MAX_CONTACTS; i++) {
    if (i) fputs(", ", f);
    if (e->impact_mask & (1u << i)) json_put_letter(f, e->impact_letter[i]);
    else fputs("null", f);
  }
  fputc(']', f);
}

static void event_head_members(json_object *o, const zeno_event *e, int contact_count) {
  json_member_long(o, "index", e->index);
  json_member_number(o, "t", e->t);
  json_member_string(o, "kind", zeno_event_kind_name(e->kind));
  json_member_string(o, "guard", zeno_guard_name(e->guard));
  json_object_key(o, "contact");
  if (e->contact >= 0) fprintf(o->f, "%d", e->contact + 1);
  else fputs("null", o->f);
  json_member_mode(o, "mode_before", e->mode_before, contact_count);
  json_member_mode(o, "mode_after", e->mode_after, contact_count);
  char impact[ZENO_MODE_NAME_SIZE];
  json_member_string(o, "impact",
                     e->kind == ZENO_EVENT_IMPACT
                         ? zeno_impact_word(e->impact_mask, contact_count, impact)
                         : NULL);
  json_object_key(o, "impulse");
  json_put_pairs(o->f, e->impulse, contact_count);
  if (e->kind == ZENO_EVENT_IMPACT) {
    json_object_key(o, "impact_outcome");
    put_impact_outcome(o->f, e, contact_count);
    // Only impacts that added energy carry it (Newton's law with friction).
    if (e->energy_gain > 0) json_member_number(o, "energy_gain", e->energy_gain);
  }
}

zeno_status zeno_io_event_jsonl(FILE *stream, const zeno_event *event, int contact_count,
                                zeno_error *error) {
  if (stream == NULL || event == NULL) return io_no_stream(error);
  json_object o = json_object_begin(stream);
  event_head_members(&o, event, contact_count);
  json_object_key(&o, "before");
  put_state(stream, &event->before, contact_count);
  json_object_key(&o, "after");
  put_state(stream, &event->after, contact_count);
  json_member_bool(&o, "on_section", event->on_section);
  if (event->on_section) json_member_number(&o, "section_angle", event->section_angle);
  if (event->kind == ZENO_EVENT_ZENO) event_zeno_members(&o, event);
  if (event->kind == ZENO_EVENT_END) event_end_members(&o, event, contact_count);
  json_member_number(&o, "guard_residual", event->guard_residual);
  json_member_number(&o, "constraint_drift", event->constraint_drift);
  json_member_number(&o, "tie_margin", event->tie_margin);
  json_member_bool(&o, "near_tie", event->near_tie);
  json_object_end(&o);
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

/* ---- reports ------------------------------------------------------------- */

static void run_result_members(json_object *o, const zeno_io_run *run) {
  const zeno_summary *s = run->summary;
  json_member_string(o, "scene", run->scene->name);
  json_member_string(o, "model", zeno_model_name(run->scene->model));
  json_member_string(o, "status", zeno_outcome_name(s->outcome));
  json_member_string(o, "word", run->word ? run->word : "");
  json_member_number(o, "t", s->t);
  json_member_long(o, "events", s->events);
  json_member_long(o, "impacts", s->impacts);
  json_member_number(o, "zeno_time", s->has_zeno ? s->zeno_time : NAN);
  json_member_long(o, "zeno_impacts", s->has_zeno ? s->zeno_impacts : 0);
  json_member_long(o, "energy_gains", s->energy_gains);
  json_member_number(o, "energy_gain_max", s->energy_gain_max);
}

static void run_state_members(json_object *o, const zeno_io_run *run) {
  const zeno_state *fin = &run->summary->final_state;
  json_member_numbers(o, "final_zod", fin->zod, 3);
  json_member_numbers(o, "final_zod_velocity", fin->zod_rate, 3);
  if (run->scene->contact_count > ZENO_PAIR_CONTACTS) {
    static const char DEFAULT_NAMES[3][ZENO_ZOD_NAME_SIZE] = {"z1", "z2", "x2"};
    const char(*names)[ZENO_ZOD_NAME_SIZE] = run->zod_names ? run->zod_names : DEFAULT_NAMES;
    json_object_key(o, "zod_names");
    fputc('[', o->f);
    for (int r = 0; r < 3; r++) fputs(r ? ", " : "", o->f), json_put_string(o->f, names[r]);
    fputc(']', o->f);
  }
  json_member_numbers(o, "final_pose", fin->q, 3);
}

static void run_list_members(json_object *o, const zeno_io_run *run) {
  json_object_key(o, "sections");
  json_put_numbers(o->f, run->sections, run->section_count);
  json_object_key(o, "consistent_modes");
  const zeno_event *end = run->end;
  if (end && end->outcome == ZENO_OUTCOME_AMBIGUOUS)
    json_put_modes(o->f, end->consistent, end->consistent_count, run->scene->contact_count);
  else fputs("[]", o->f);
  json_object_key(o, "proof");
  if (end && end->outcome == ZENO_OUTCOME_INCONSISTENT)
    put_proof(o->f, end, run->scene->contact_count);
  else fputs("null", o->f);
  if (run->scene->contact_count > ZENO_PAIR_CONTACTS) {
    json_member_long(o, "format_version", IO_FORMAT_VERSION_N);
    json_member_long(o, "contact_count", run->scene->contact_count);
  }
}

zeno_status zeno_io_run_json(FILE *stream, const zeno_io_run *run, zeno_error *error) {
  if (stream == NULL || run == NULL || run->scene == NULL || run->summary == NULL)
    return io_no_stream(error);
  json_object o = json_object_begin(stream);
  run_result_members(&o, run);
  run_state_members(&o, run);
  run_list_members(&o, run);
  json_object_end(&o);
  return io_stream_status(stream, error);
}

static void put_painleve(FILE *f, const zeno_scene *scene, const zeno_equilibrium_report *r) {
  fputc('[', f);
  for (int i = 0; i < r->contact_count; i++) {
    if (i) fputs(", ", f);
    json_object o = json_object_begin(f);
    json_member_long(&o, "contact", i + 1);
    json_member_number(&o, "mu", scene->contacts[i].mu);
    json_member_number(&o, "bound", r->painleve_bound[i]);
    json_member_bool(&o, "ok", r->painleve_ok[i]);
    json_object_end(&o);
  }
  fputc(']', f);
}

zeno_status zeno_io_equilibrium_json(FILE *stream, const zeno_scene *scene,
                                     const zeno_equilibrium_report *report, zeno_error *error) {
  if (stream == NULL || scene == NULL || report == NULL) return io_no_stream(error);
  const int n = report->contact_count;
  json_object o = json_object_begin(stream);
  json_member_string(&o, "scene", scene->name);
  json_member_bool(&o, "feasible", report->feasible);
  json_member_number(&o, "margin", report->margin);
  json_object_key(&o, "forces");
  json_put_pairs(stream, report->forces, n);
  json_member_numbers(&o, "zdd_ff", report->zdd_ff, (size_t)n);
  json_member_bool(&o, "index_order_ok", report->index_order_ok);
  json_member_bool(&o, "index_order_swappable", report->index_order_swappable);
  json_object_key(&o, "ambiguous");
  json_put_modes(stream, report->ambiguous_modes, report->ambiguous_count, n);
  json_object_key(&o, "painleve");
  put_painleve(stream, scene, report);
  json_object_end(&o);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_contact_set_json(FILE *stream, const zeno_scene *scene,
                                     const zeno_contact_set_report *report, zeno_error *error) {
  if (stream == NULL || scene == NULL || report == NULL) return io_no_stream(error);
  const int n = report->contact_count;  // at most ZENO_CONTACT_SET_MAX (the check's bound)
  json_object o = json_object_begin(stream);
  json_member_string(&o, "scene", scene->name);
  json_member_long(&o, "contact_count", n);
  json_member_bool(&o, "feasible", report->feasible);
  json_member_number(&o, "margin", report->margin);
  json_member_bool(&o, "wedged", report->wedged);
  json_object_key(&o, "forces");
  json_put_pair_list(stream, report->forces, n);
  json_member_bool(&o, "weakly_stable", report->weakly_stable);
  json_member_bool(&o, "frictionless_stable", report->frictionless_stable);
  json_member_bool(&o, "strongly_stable", report->strongly_stable);
  json_member_bool(&o, "ambiguous", report->ambiguous);
  json_member_long(&o, "modes_examined", report->modes_examined);
  json_member_long(&o, "unstable_mode_count", report->unstable_mode_count);
  json_object_key(&o, "unstable_modes");
  char name[ZENO_CONTACT_SET_MAX + 1];
  fputc('[', stream);
  for (int k = 0; k < report->unstable_mode_count && k < ZENO_CONTACT_SET_MODE_LIST; k++)
    fprintf(stream, "%s\"%s\"", k ? ", " : "",
            zeno_contact_set_mode_name(&report->unstable_modes[k], n, name));
  fputc(']', stream);
  json_member_bool(&o, "theorem4_checked", report->theorem4_checked);
  json_member_long(&o, "theorem4_systems", report->theorem4_systems);
  json_member_long(&o, "theorem4_consistent", report->theorem4_consistent);
  json_member_bool(&o, "weak_implies_strong", report->weak_implies_strong);
  json_object_end(&o);
  return io_stream_status(stream, error);
}

/* ---- stability analysis and maps ----------------------------------------- */

// The Theorem 4 partition with consecutive intervals of one class merged;
// false when out of memory.
static bool put_merged_partition(FILE *f, const zeno_analysis *a) {
  const size_t n = a->theorem == 4 ? a->partition_count : 0;
  zeno_interval *iv = n ? malloc(n * sizeof *iv) : NULL;
  if (n && iv == NULL) return false;
  const size_t count = n ? zeno_partition_merge(a->partition, a->safe, n, iv) : 0;
  fputc('[', f);
  for (size_t i = 0; i < count; i++) {
    if (i) fputs(", ", f);
    json_object o = json_object_begin(f);
    json_member_number(&o, "lo", iv[i].lo);
    json_member_number(&o, "hi", iv[i].hi);
    json_member_bool(&o, "safe", iv[i].safe);
    json_object_end(&o);
  }
  fputc(']', f);
  free(iv);
  return true;
}

static void put_fixed_points(FILE *f, const zeno_maps *m) {
  fputc('[', f);
  for (size_t i = 0; i < m->fixed_point_count; i++) {
    const zeno_fixed_point *p = &m->fixed_points[i];
    if (i) fputs(", ", f);
    json_object o = json_object_begin(f);
    json_member_number(&o, "phi", p->phi);
    json_member_number(&o, "G", p->G);
    json_member_number(&o, "slope", p->slope);
    json_member_bool(&o, "convergent", p->convergent);
    json_member_bool(&o, "limiting", p->limiting);
    // On a breakpoint: the two words and what the exact cycle from it did;
    // null for the others.
    json_member_bool(&o, "at_breakpoint", p->at_breakpoint);
    if (p->at_breakpoint) {
      json_member_string(&o, "word_left", p->word_left);
      json_member_string(&o, "word_right", p->word_right);
      json_member_bool(&o, "returns", p->returns);
      json_member_bool(&o, "tie", p->tie);
      json_member_number(&o, "tie_margin", p->tie_margin);
    } else {
      static const char *const none[] = {"word_left", "word_right", "returns", "tie", "tie_margin"};
      for (size_t k = 0; k < sizeof none / sizeof *none; k++) {
        json_object_key(&o, none[k]);
        fputs("null", o.f);
      }
    }
    json_object_end(&o);
  }
  fputc(']', f);
}

static void analysis_verdict_members(json_object *o, const zeno_analysis *a) {
  json_member_string(o, "verdict", zeno_verdict_name(a->verdict));
  json_object_key(o, "theorem");
  if (a->theorem > 0) fprintf(o->f, "%d", a->theorem);
  else fputs("null", o->f);
  json_member_long(o, "region", a->region);
  json_member_string(o, "reason", a->reason);
  json_member_bool(o, "persistent", a->persistent);
}

/// The maps' members; `m` is NULL when the analysis computed no maps.
static void analysis_map_members(json_object *o, const zeno_maps *m) {
  static const zeno_maps NO_MAPS = {.G_max = NAN};
  if (m == NULL) m = &NO_MAPS;
  json_member_bool(o, "swapped", m->swapped);
  json_member_size(o, "samples", m->sample_count);
  json_member_numbers(o, "breakpoints", m->breakpoints, m->breakpoint_count);
  json_object_key(o, "fixed_points");
  put_fixed_points(o->f, m);
  json_member_number(o, "G_max", m->G_max);
  json_member_number(o, "G_minus", m->G_minus_defined ? m->G_minus : NAN);
  json_member_number(o, "G_plus", m->G_plus_defined ? m->G_plus : NAN);
}

zeno_status zeno_io_maps_json(FILE *stream, const zeno_scene *scene, const zeno_maps *maps,
                              zeno_error *error) {
  if (stream == NULL || scene == NULL || maps == NULL) return io_no_stream(error);
  json_object o = json_object_begin(stream);
  json_member_string(&o, "scene", scene->name);
  analysis_map_members(&o, maps);
  json_object_key(&o, "points");
  fputc('[', stream);
  for (size_t k = 0; k < maps->sample_count; k++) {
    const zeno_cycle *c = &maps->samples[k];
    if (k) fputs(", ", stream);
    json_object p = json_object_begin(stream);
    json_member_number(&p, "phi", c->phi);
    json_member_number(&p, "R", c->defined ? c->R : NAN);
    json_member_number(&p, "G", c->defined ? c->G : NAN);
    json_member_string(&p, "word", c->word);
    json_object_end(&p);
  }
  fputc(']', stream);
  json_object_end(&o);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_analysis_json(FILE *stream, const zeno_scene *scene,
                                  const zeno_analysis *analysis, zeno_error *error) {
  if (stream == NULL || scene == NULL || analysis == NULL) return io_no_stream(error);
  const zeno_equilibrium_report *eq = &analysis->equilibrium;
  json_object o = json_object_begin(stream);
  json_member_string(&o, "scene", scene->name);
  analysis_verdict_members(&o, analysis);
  json_member_bool(&o, "feasible", eq->feasible);
  json_member_number(&o, "margin", eq->margin);
  json_object_key(&o, "painleve");
  put_painleve(stream, scene, eq);
  analysis_map_members(&o, analysis->has_maps ? &analysis->maps : NULL);
  json_object_key(&o, "partition");
  if (!put_merged_partition(stream, analysis))
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  json_object_end(&o);
  return io_stream_status(stream, error);
}
