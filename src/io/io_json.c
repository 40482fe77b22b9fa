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
#include "io/io_number.h"
#include "io/io_stream.h"
/// JSON requires \u escapes below this code point.
#define IO_JSON_FIRST_PLAIN 0x20
/// The replacement character written for bytes that are not UTF-8.
#define IO_JSON_REPLACEMENT "\\ufffd"

/* UTF-8 structure (RFC 3629). */
#define UTF8_ASCII_END 0x80u
#define UTF8_CONT_MASK 0xC0u
#define UTF8_CONT_TAG 0x80u
#define UTF8_CONT_BITS 6
#define UTF8_PAYLOAD_MASK 0x3Fu
#define UTF8_LEAD2_FIRST 0xC2u
#define UTF8_LEAD3_FIRST 0xE0u
#define UTF8_LEAD4_FIRST 0xF0u
#define UTF8_LEAD4_LAST 0xF4u
#define UTF8_MIN_3 0x800u
#define UTF8_MIN_4 0x10000u
#define UTF8_SURROGATE_FIRST 0xD800u
#define UTF8_SURROGATE_LAST 0xDFFFu
#define UTF8_MAX 0x10FFFFu
#define UTF8_LEAD2_PAYLOAD 0x1Fu
#define UTF8_LEAD3_PAYLOAD 0x0Fu
#define UTF8_LEAD4_PAYLOAD 0x07u

/* ---- JSON primitives ---------------------------------------------------- */

static void put_number(FILE *f, double v) {
  if (isfinite(v)) io_put_number(f, v);
  else fputs("null", f);
}

static void put_bool(FILE *f, bool v) { fputs(v ? "true" : "false", f); }

/// Length of the valid UTF-8 sequence starting at s, 0 when s does not start
/// one (bad lead byte, truncated, overlong, surrogate or beyond U+10FFFF).
static int utf8_sequence_length(const unsigned char *s) {
  const unsigned lead = s[0];
  int length;
  unsigned code;
  if (lead < UTF8_ASCII_END) return 1;
  if (lead >= UTF8_LEAD2_FIRST && lead < UTF8_LEAD3_FIRST) {
    length = 2;
    code = lead & UTF8_LEAD2_PAYLOAD;
  } else if (lead >= UTF8_LEAD3_FIRST && lead < UTF8_LEAD4_FIRST) {
    length = 3;
    code = lead & UTF8_LEAD3_PAYLOAD;
  } else if (lead >= UTF8_LEAD4_FIRST && lead <= UTF8_LEAD4_LAST) {
    length = 4;
    code = lead & UTF8_LEAD4_PAYLOAD;
  } else {
    return 0;
  }
  for (int i = 1; i < length; i++) {
    if ((s[i] & UTF8_CONT_MASK) != UTF8_CONT_TAG) return 0;
    code = (code << UTF8_CONT_BITS) | (s[i] & UTF8_PAYLOAD_MASK);
  }
  if (length == 3 &&
      (code < UTF8_MIN_3 || (code >= UTF8_SURROGATE_FIRST && code <= UTF8_SURROGATE_LAST)))
    return 0;
  if (length == 4 && (code < UTF8_MIN_4 || code > UTF8_MAX)) return 0;
  return length;
}

/// Writes one ASCII byte, escaped as JSON requires.
static void put_ascii_escaped(FILE *f, unsigned char c) {
  switch (c) {
    case '"': fputs("\\\"", f); return;
    case '\\': fputs("\\\\", f); return;
    case '\b': fputs("\\b", f); return;
    case '\f': fputs("\\f", f); return;
    case '\n': fputs("\\n", f); return;
    case '\r': fputs("\\r", f); return;
    case '\t': fputs("\\t", f); return;
    default: break;
  }
  if (c < IO_JSON_FIRST_PLAIN) fprintf(f, "\\u%04x", (unsigned)c);
  else fputc(c, f);
}

static void put_string(FILE *f, const char *text) {
  if (text == NULL) {
    fputs("null", f);
    return;
  }
  const unsigned char *s = (const unsigned char *)text;
  fputc('"', f);
  while (*s) {
    const int length = utf8_sequence_length(s);
    if (length == 0) {
      fputs(IO_JSON_REPLACEMENT, f);
      s++;
    } else if (length == 1) {
      put_ascii_escaped(f, *s++);
    } else {
      fwrite(s, 1, (size_t)length, f);
      s += length;
    }
  }
  fputc('"', f);
}

static void put_numbers(FILE *f, const double *v, size_t n) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    put_number(f, v[i]);
  }
  fputc(']', f);
}

static void put_mode(FILE *f, zeno_mode mode, int contact_count) {
  char name[ZENO_MODE_NAME_SIZE];
  put_string(f, zeno_mode_name(mode, contact_count, name));
}

/// One contact letter as a one-character string ("S").
static void put_letter(FILE *f, unsigned char letter) {
  const zeno_mode single = {{letter}};
  put_mode(f, single, 1);
}

static void put_modes(FILE *f, const zeno_mode *modes, size_t n, int contact_count) {
  fputc('[', f);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    put_mode(f, modes[i], contact_count);
  }
  fputc(']', f);
}

/// One (normal, tangential) pair per contact: [[n, t], [n, t]].
/// The same for `count` pairs, the caller bounding it by its array.
static void put_pair_list(FILE *f, const double pairs[][2], int count) {
  fputc('[', f);
  for (int i = 0; i < count; i++) fputs(i ? ", " : "", f), put_numbers(f, pairs[i], 2);
  fputc(']', f);
}

static void put_pairs(FILE *f, const double pairs[][2], int contact_count) {
  put_pair_list(f, pairs, contact_count < ZENO_PAIR_CONTACTS ? contact_count : ZENO_PAIR_CONTACTS);
}

/// A JSON object being written: tracks whether a comma is due.
typedef struct json_object {
  FILE *f;
  int members;
} json_object;

static json_object object_begin(FILE *f) {
  json_object o = {f, 0};
  fputc('{', f);
  return o;
}

/// Starts a member: writes the separator and `"key": `. Keys are ASCII
/// identifiers chosen by this file, so they need no escaping.
static void object_key(json_object *o, const char *key) {
  fprintf(o->f, "%s\"%s\": ", o->members++ ? ", " : "", key);
}

static void object_end(json_object *o) { fputc('}', o->f); }

static void member_number(json_object *o, const char *key, double v) {
  object_key(o, key);
  put_number(o->f, v);
}

static void member_long(json_object *o, const char *key, long v) {
  object_key(o, key);
  fprintf(o->f, "%ld", v);
}

static void member_string(json_object *o, const char *key, const char *v) {
  object_key(o, key);
  put_string(o->f, v);
}

static void member_size(json_object *o, const char *key, size_t v) {
  object_key(o, key);
  fprintf(o->f, "%zu", v);
}

static void member_bool(json_object *o, const char *key, bool v) {
  object_key(o, key);
  put_bool(o->f, v);
}

static void member_numbers(json_object *o, const char *key, const double *v, size_t n) {
  object_key(o, key);
  put_numbers(o->f, v, n);
}

static void member_mode(json_object *o, const char *key, zeno_mode mode, int contact_count) {
  object_key(o, key);
  put_mode(o->f, mode, contact_count);
}

/* ---- public JSON primitives ---------------------------------------------- */

zeno_status zeno_io_json_number(FILE *stream, double value, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  put_number(stream, value);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_json_string(FILE *stream, const char *text, zeno_error *error) {
  if (stream == NULL) return io_no_stream(error);
  put_string(stream, text);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_json_numbers(FILE *stream, const double *values, size_t count,
                                 zeno_error *error) {
  if (stream == NULL || (count > 0 && values == NULL)) return io_no_stream(error);
  put_numbers(stream, values, count);
  return io_stream_status(stream, error);
}

/* ---- states and events --------------------------------------------------- */

static void put_state(FILE *f, const zeno_state *s, int contact_count) {
  json_object o = object_begin(f);
  member_numbers(&o, "q", s->q, 3);
  member_numbers(&o, "qdot", s->qdot, 3);
  member_numbers(&o, "zod", s->zod, 3);
  member_numbers(&o, "zod_rate", s->zod_rate, 3);
  object_key(&o, "force");
  put_pairs(f, s->force, contact_count);
  member_number(&o, "energy", s->energy);
  object_end(&o);
}

zeno_status zeno_io_state_json(FILE *stream, const zeno_state *state, int contact_count,
                               zeno_error *error) {
  if (stream == NULL || state == NULL) return io_no_stream(error);
  put_state(stream, state, contact_count);
  return io_stream_status(stream, error);
}

static void event_zeno_members(json_object *o, const zeno_event *e) {
  member_long(o, "zeno_impacts", e->zeno_impacts);
  member_number(o, "zeno_ratio", e->zeno_ratio);
  member_number(o, "zeno_error", e->zeno_error);
  member_long(o, "zeno_period", e->zeno_period);
  member_long(o, "zeno_order", e->zeno_order);
}

/// END(inconsistent): the proof, {"of": "mode" or "impact", "refused":
/// [{"mode" (or "candidate"): "NN", "why": "normal", "contact": 2}, ...]}
/// with every mode (impact candidate) tried and the condition it violates;
/// contacts 1-based, null where the refusal names none.
static void put_proof(FILE *f, const zeno_event *e, int contact_count) {
  json_object o = object_begin(f);
  member_string(&o, "of", e->refusal_of_impact ? "impact" : "mode");
  object_key(&o, "refused");
  fputc('[', f);
  int written = 0;
  for (int code = 0; code < ZENO_MAX_MODES; code++) {
    if (e->refusal[code] == ZENO_REFUSAL_NONE) continue;
    if (written++) fputs(", ", f);
    json_object r = object_begin(f);
    object_key(&r, e->refusal_of_impact ? "candidate" : "mode");
    put_mode(f, zeno_mode_of_code((unsigned)code), contact_count);
    member_string(&r, "why", zeno_refusal_name((zeno_refusal)e->refusal[code]));
    object_key(&r, "contact");
    if (e->refusal_contact[code] >= 0) fprintf(f, "%d", e->refusal_contact[code] + 1);
    else fputs("null", f);
    object_end(&r);
  }
  fputc(']', f);
  object_end(&o);
}

static void event_end_members(json_object *o, const zeno_event *e, int contact_count) {
  member_string(o, "outcome", zeno_outcome_name(e->outcome));
  if (e->outcome == ZENO_OUTCOME_DIVERGING) {
    member_number(o, "zeno_ratio", e->zeno_ratio);
    member_long(o, "zeno_period", e->zeno_period);
  }
  if (e->outcome == ZENO_OUTCOME_AMBIGUOUS) {
    object_key(o, "consistent_modes");
    put_modes(o->f, e->consistent, e->consistent_count, contact_count);
  }
  if (e->outcome == ZENO_OUTCOME_INCONSISTENT) {
    object_key(o, "proof");
    put_proof(o->f, e, contact_count);
  }
  if (e->outcome == ZENO_OUTCOME_SOLVER_FAILURE) member_string(o, "solver_flag", e->solver_flag);
}

/// IMPACT: per contact, the letter it takes after the impact (S sticks, P or
/// N slips) when it received an impulse, null when it did not.
static void put_impact_outcome(FILE *f, const zeno_event *e, int contact_count) {
  fputc('[', f);
  for (int i = 0; i < contact_count && i < ZENO_PAIR_CONTACTS; i++) {
    if (i) fputs(", ", f);
    if (e->impact_mask & (1u << i)) put_letter(f, e->impact_letter[i]);
    else fputs("null", f);
  }
  fputc(']', f);
}

static void event_head_members(json_object *o, const zeno_event *e, int contact_count) {
  member_long(o, "index", e->index);
  member_number(o, "t", e->t);
  member_string(o, "kind", zeno_event_kind_name(e->kind));
  member_string(o, "guard", zeno_guard_name(e->guard));
  object_key(o, "contact");
  if (e->contact >= 0) fprintf(o->f, "%d", e->contact + 1);
  else fputs("null", o->f);
  member_mode(o, "mode_before", e->mode_before, contact_count);
  member_mode(o, "mode_after", e->mode_after, contact_count);
  member_string(o, "impact",
                e->kind == ZENO_EVENT_IMPACT ? zeno_impact_name(e->impact_mask, contact_count)
                                             : NULL);
  object_key(o, "impulse");
  put_pairs(o->f, e->impulse, contact_count);
  if (e->kind == ZENO_EVENT_IMPACT) {
    object_key(o, "impact_outcome");
    put_impact_outcome(o->f, e, contact_count);
    // Only impacts that added energy carry it (Newton's law with friction).
    if (e->energy_gain > 0) member_number(o, "energy_gain", e->energy_gain);
  }
}

zeno_status zeno_io_event_jsonl(FILE *stream, const zeno_event *event, int contact_count,
                                zeno_error *error) {
  if (stream == NULL || event == NULL) return io_no_stream(error);
  json_object o = object_begin(stream);
  event_head_members(&o, event, contact_count);
  object_key(&o, "before");
  put_state(stream, &event->before, contact_count);
  object_key(&o, "after");
  put_state(stream, &event->after, contact_count);
  member_bool(&o, "on_section", event->on_section);
  if (event->on_section) member_number(&o, "section_angle", event->section_angle);
  if (event->kind == ZENO_EVENT_ZENO) event_zeno_members(&o, event);
  if (event->kind == ZENO_EVENT_END) event_end_members(&o, event, contact_count);
  member_number(&o, "guard_residual", event->guard_residual);
  member_number(&o, "constraint_drift", event->constraint_drift);
  member_number(&o, "tie_margin", event->tie_margin);
  member_bool(&o, "near_tie", event->near_tie);
  object_end(&o);
  fputc('\n', stream);
  return io_stream_status(stream, error);
}

/* ---- reports ------------------------------------------------------------- */

static void run_result_members(json_object *o, const zeno_io_run *run) {
  const zeno_summary *s = run->summary;
  member_string(o, "scene", run->scene->name);
  member_string(o, "model", zeno_model_name(run->scene->model));
  member_string(o, "status", zeno_outcome_name(s->outcome));
  member_string(o, "word", run->word ? run->word : "");
  member_number(o, "t", s->t);
  member_long(o, "events", s->events);
  member_long(o, "impacts", s->impacts);
  member_number(o, "zeno_time", s->has_zeno ? s->zeno_time : NAN);
  member_long(o, "zeno_impacts", s->has_zeno ? s->zeno_impacts : 0);
  member_long(o, "energy_gains", s->energy_gains);
  member_number(o, "energy_gain_max", s->energy_gain_max);
}

static void run_state_members(json_object *o, const zeno_io_run *run) {
  const zeno_state *fin = &run->summary->final_state;
  member_numbers(o, "final_zod", fin->zod, 3);
  member_numbers(o, "final_zod_velocity", fin->zod_rate, 3);
  member_numbers(o, "final_pose", fin->q, 3);
}

static void run_list_members(json_object *o, const zeno_io_run *run) {
  object_key(o, "sections");
  put_numbers(o->f, run->sections, run->section_count);
  object_key(o, "consistent_modes");
  const zeno_event *end = run->end;
  if (end && end->outcome == ZENO_OUTCOME_AMBIGUOUS)
    put_modes(o->f, end->consistent, end->consistent_count, run->scene->contact_count);
  else fputs("[]", o->f);
  object_key(o, "proof");
  if (end && end->outcome == ZENO_OUTCOME_INCONSISTENT)
    put_proof(o->f, end, run->scene->contact_count);
  else fputs("null", o->f);
}

zeno_status zeno_io_run_json(FILE *stream, const zeno_io_run *run, zeno_error *error) {
  if (stream == NULL || run == NULL || run->scene == NULL || run->summary == NULL)
    return io_no_stream(error);
  json_object o = object_begin(stream);
  run_result_members(&o, run);
  run_state_members(&o, run);
  run_list_members(&o, run);
  object_end(&o);
  return io_stream_status(stream, error);
}

static void put_painleve(FILE *f, const zeno_scene *scene, const zeno_equilibrium_report *r) {
  fputc('[', f);
  for (int i = 0; i < r->contact_count; i++) {
    if (i) fputs(", ", f);
    json_object o = object_begin(f);
    member_long(&o, "contact", i + 1);
    member_number(&o, "mu", scene->contacts[i].mu);
    member_number(&o, "bound", r->painleve_bound[i]);
    member_bool(&o, "ok", r->painleve_ok[i]);
    object_end(&o);
  }
  fputc(']', f);
}

zeno_status zeno_io_equilibrium_json(FILE *stream, const zeno_scene *scene,
                                     const zeno_equilibrium_report *report, zeno_error *error) {
  if (stream == NULL || scene == NULL || report == NULL) return io_no_stream(error);
  const int n = report->contact_count;
  json_object o = object_begin(stream);
  member_string(&o, "scene", scene->name);
  member_bool(&o, "feasible", report->feasible);
  member_number(&o, "margin", report->margin);
  object_key(&o, "forces");
  put_pairs(stream, report->forces, n);
  member_numbers(&o, "zdd_ff", report->zdd_ff, (size_t)n);
  member_bool(&o, "index_order_ok", report->index_order_ok);
  member_bool(&o, "index_order_swappable", report->index_order_swappable);
  object_key(&o, "ambiguous");
  put_modes(stream, report->ambiguous_modes, report->ambiguous_count, n);
  object_key(&o, "painleve");
  put_painleve(stream, scene, report);
  object_end(&o);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_contact_set_json(FILE *stream, const zeno_scene *scene,
                                     const zeno_contact_set_report *report, zeno_error *error) {
  if (stream == NULL || scene == NULL || report == NULL) return io_no_stream(error);
  const int n = report->contact_count;  // at most ZENO_CONTACT_SET_MAX (the check's bound)
  json_object o = object_begin(stream);
  member_string(&o, "scene", scene->name);
  member_long(&o, "contact_count", n);
  member_bool(&o, "feasible", report->feasible);
  member_number(&o, "margin", report->margin);
  member_bool(&o, "wedged", report->wedged);
  object_key(&o, "forces");
  put_pair_list(stream, report->forces, n);
  member_bool(&o, "weakly_stable", report->weakly_stable);
  member_bool(&o, "frictionless_stable", report->frictionless_stable);
  member_bool(&o, "strongly_stable", report->strongly_stable);
  member_bool(&o, "ambiguous", report->ambiguous);
  member_long(&o, "modes_examined", report->modes_examined);
  member_long(&o, "unstable_mode_count", report->unstable_mode_count);
  object_key(&o, "unstable_modes");
  char name[ZENO_CONTACT_SET_MAX + 1];
  fputc('[', stream);
  for (int k = 0; k < report->unstable_mode_count && k < ZENO_CONTACT_SET_MODE_LIST; k++)
    fprintf(stream, "%s\"%s\"", k ? ", " : "",
            zeno_contact_set_mode_name(&report->unstable_modes[k], n, name));
  fputc(']', stream);
  member_bool(&o, "theorem4_checked", report->theorem4_checked);
  member_long(&o, "theorem4_systems", report->theorem4_systems);
  member_long(&o, "theorem4_consistent", report->theorem4_consistent);
  member_bool(&o, "weak_implies_strong", report->weak_implies_strong);
  object_end(&o);
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
    json_object o = object_begin(f);
    member_number(&o, "lo", iv[i].lo);
    member_number(&o, "hi", iv[i].hi);
    member_bool(&o, "safe", iv[i].safe);
    object_end(&o);
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
    json_object o = object_begin(f);
    member_number(&o, "phi", p->phi);
    member_number(&o, "G", p->G);
    member_number(&o, "slope", p->slope);
    member_bool(&o, "convergent", p->convergent);
    member_bool(&o, "limiting", p->limiting);
    // On a breakpoint: the two words and what the exact cycle from it did;
    // null for the others.
    member_bool(&o, "at_breakpoint", p->at_breakpoint);
    if (p->at_breakpoint) {
      member_string(&o, "word_left", p->word_left);
      member_string(&o, "word_right", p->word_right);
      member_bool(&o, "returns", p->returns);
      member_bool(&o, "tie", p->tie);
      member_number(&o, "tie_margin", p->tie_margin);
    } else {
      static const char *const none[] = {"word_left", "word_right", "returns", "tie", "tie_margin"};
      for (size_t k = 0; k < sizeof none / sizeof *none; k++) {
        object_key(&o, none[k]);
        fputs("null", o.f);
      }
    }
    object_end(&o);
  }
  fputc(']', f);
}

static void analysis_verdict_members(json_object *o, const zeno_analysis *a) {
  member_string(o, "verdict", zeno_verdict_name(a->verdict));
  object_key(o, "theorem");
  if (a->theorem > 0) fprintf(o->f, "%d", a->theorem);
  else fputs("null", o->f);
  member_long(o, "region", a->region);
  member_string(o, "reason", a->reason);
  member_bool(o, "persistent", a->persistent);
}

/// The maps' members; `m` is NULL when the analysis computed no maps.
static void analysis_map_members(json_object *o, const zeno_maps *m) {
  static const zeno_maps NO_MAPS = {.G_max = NAN};
  if (m == NULL) m = &NO_MAPS;
  member_bool(o, "swapped", m->swapped);
  member_size(o, "samples", m->sample_count);
  member_numbers(o, "breakpoints", m->breakpoints, m->breakpoint_count);
  object_key(o, "fixed_points");
  put_fixed_points(o->f, m);
  member_number(o, "G_max", m->G_max);
  member_number(o, "G_minus", m->G_minus_defined ? m->G_minus : NAN);
  member_number(o, "G_plus", m->G_plus_defined ? m->G_plus : NAN);
}

zeno_status zeno_io_maps_json(FILE *stream, const zeno_scene *scene, const zeno_maps *maps,
                              zeno_error *error) {
  if (stream == NULL || scene == NULL || maps == NULL) return io_no_stream(error);
  json_object o = object_begin(stream);
  member_string(&o, "scene", scene->name);
  analysis_map_members(&o, maps);
  object_key(&o, "points");
  fputc('[', stream);
  for (size_t k = 0; k < maps->sample_count; k++) {
    const zeno_cycle *c = &maps->samples[k];
    if (k) fputs(", ", stream);
    json_object p = object_begin(stream);
    member_number(&p, "phi", c->phi);
    member_number(&p, "R", c->defined ? c->R : NAN);
    member_number(&p, "G", c->defined ? c->G : NAN);
    member_string(&p, "word", c->word);
    object_end(&p);
  }
  fputc(']', stream);
  object_end(&o);
  return io_stream_status(stream, error);
}

zeno_status zeno_io_analysis_json(FILE *stream, const zeno_scene *scene,
                                  const zeno_analysis *analysis, zeno_error *error) {
  if (stream == NULL || scene == NULL || analysis == NULL) return io_no_stream(error);
  const zeno_equilibrium_report *eq = &analysis->equilibrium;
  json_object o = object_begin(stream);
  member_string(&o, "scene", scene->name);
  analysis_verdict_members(&o, analysis);
  member_bool(&o, "feasible", eq->feasible);
  member_number(&o, "margin", eq->margin);
  object_key(&o, "painleve");
  put_painleve(stream, scene, eq);
  analysis_map_members(&o, analysis->has_maps ? &analysis->maps : NULL);
  object_key(&o, "partition");
  if (!put_merged_partition(stream, analysis))
    return zeno_fail(error, ZENO_ERR_NOMEM, "", "out of memory");
  object_end(&o);
  return io_stream_status(stream, error);
}
