// Trajectory figure: the gaps z1, z2 (top) and the slip x2 (bottom)
// against t, with event ticks and the time shaded by contact mode. More
// than two contacts: q''s gaps above, its slips and tilt below (one panel
// when q' holds gaps only).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

/* Layout [px at the design size; margins that hold text times the font
   scale, the others times the size scale]. */
#define TRAJ_MARGIN_LEFT 76.0
#define TRAJ_MARGIN_RIGHT 24.0
#define TRAJ_MARGIN_BOTTOM 66.0
/// Between the panels (the top one's x ticks carry no labels).
#define TRAJ_PANEL_GAP 16.0
#define TRAJ_LEGEND_Y 44.0
/// The event strip under the bottom panel's tick labels: its distance from
/// the panel, its height, the heights of event and impact ticks in it, and
/// the gap to the axis label under it.
#define TRAJ_STRIP_OFFSET 26.0
#define TRAJ_STRIP_HEIGHT 14.0
#define TRAJ_EVENT_TICK 7.0
#define TRAJ_IMPACT_TICK 14.0
#define TRAJ_STRIP_LABEL_GAP 4.0
/// Legend items: three series, events, impacts, "mode" with a band per
/// mode, and the note.
#define TRAJ_LEGEND_ITEMS (3 + 2 + 1 + ZENO_MAX_MODES + TRAJ_NOTE_PARTS)
/// A mode band's colour: its palette colour this far towards white.
#define TRAJ_MODE_TINT 0.55
/// Largest 8-bit channel value (white).
#define PLOT_CHANNEL_FULL 255.0
/// The note's parts (split after "; ") and the room for each.
#define TRAJ_NOTE_PARTS 4
#define TRAJ_NOTE_SIZE 160
/// Room for a mode's legend text.
#define TRAJ_MODE_TEXT_SIZE 16
/// About this many ticks per axis.
#define TRAJ_TICKS 8
#define TRAJ_LABEL_SIZE 128
/// Room for a series' name built from a q' name ("z₁₂ (gap 12)").
#define TRAJ_NAME_SIZE 48
/// Series a figure draws: q''s three coordinates.
#define TRAJ_SERIES 3

typedef struct series {
  const double *v;
  plot_color color;
  const char *name;
} series;

/// What the figure draws against: x[k] of every row and xe[k] of every
/// event (t, or log10(t* - t) on a log axis; NAN: not drawn), and the
/// range of x that is shown.
typedef struct abscissa {
  double *x, *xe;
  plot_frame frame;  ///< left, width, x range, x_log
  double step;
  char label[TRAJ_LABEL_SIZE];
} abscissa;

/// Smallest and largest finite value of v[k] over the rows whose x[k] is
/// inside [lo, hi] (every row when x is NULL), widening *vlo and *vhi.
static void widen(const double *v, const double *x, size_t n, double lo, double hi, double *vlo,
                  double *vhi) {
  for (size_t k = 0; k < n; k++)
    if (isfinite(v[k]) && (x == NULL || (x[k] >= lo && x[k] <= hi))) {
      *vlo = fmin(*vlo, v[k]);
      *vhi = fmax(*vhi, v[k]);
    }
}

/// Rounds [lo, hi] outwards to multiples of a nice step; returns the step.
static double nice_range(double *lo, double *hi) {
  if (!(*lo <= *hi)) {  // no finite value
    *lo = 0;
    *hi = 1;
  }
  if (*hi - *lo <= 0) {
    *lo -= 1;
    *hi += 1;
  }
  const double step = plot_nice_step(*hi - *lo, TRAJ_TICKS);
  *lo = floor(*lo / step) * step;
  *hi = ceil(*hi / step) * step;
  return step;
}

/// The abscissa t: the data's range or xlim.
static void linear_abscissa(const plot_trajectory_input *in, const plot_options *o, abscissa *a) {
  for (size_t k = 0; k < in->count; k++) a->x[k] = in->t[k];
  for (size_t k = 0; k < in->event_count; k++) a->xe[k] = in->event_t[k];
  plot_frame *f = &a->frame;
  f->x_min = INFINITY;
  f->x_max = -INFINITY;
  widen(in->t, NULL, in->count, 0, 0, &f->x_min, &f->x_max);
  if (!(f->x_min < f->x_max)) {  // a single time: any unit range around it
    f->x_min = isfinite(f->x_min) ? f->x_min : 0;
    f->x_max = f->x_min + 1;
  }
  if (o->has_xlim) {
    f->x_min = o->xlim[0];
    f->x_max = o->xlim[1];
  }
  a->step = plot_nice_step(f->x_max - f->x_min, TRAJ_TICKS);
  snprintf(a->label, sizeof a->label, "%s", PLOT_TRAJECTORY_T_LABEL);
}

/// log10(t* - t), NAN at and after t*.
static double log_to_accumulation(double t_star, double t) {
  return t < t_star ? log10(t_star - t) : NAN;
}

/// The abscissa t* - t on a log scale, growing to the left: whole decades
/// around the data, or xlim.
static void log_abscissa(const plot_trajectory_input *in, const plot_options *o, abscissa *a) {
  const double t_star = in->accumulation_t;
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < in->count; k++) {
    a->x[k] = log_to_accumulation(t_star, in->t[k]);
    if (isfinite(a->x[k])) {
      lo = fmin(lo, a->x[k]);
      hi = fmax(hi, a->x[k]);
    }
  }
  for (size_t k = 0; k < in->event_count; k++)
    a->xe[k] = log_to_accumulation(t_star, in->event_t[k]);
  if (!(lo <= hi)) {  // nothing before t*: one decade under t*
    lo = 0;
    hi = 1;
  }
  plot_frame *f = &a->frame;
  f->x_log = true;
  f->x_min = ceil(hi);
  f->x_max = floor(lo);
  if (f->x_min <= f->x_max) f->x_min = f->x_max + 1;
  if (o->has_xlim) {
    f->x_min = log10(o->xlim[1]);
    f->x_max = log10(o->xlim[0]);
  }
  a->step = fmax(1.0, round(plot_nice_step(f->x_min - f->x_max, TRAJ_TICKS)));
  snprintf(a->label, sizeof a->label,
           "t* − t [T]  (log scale; t* = %.6g, the Zeno accumulation time)", t_star);
}

/* ---- modes ----------------------------------------------------------------- */

/// The palette of the mode bands by mode index (letter[0] + 4 letter[1],
/// letters F, S, P, N), before the tint: free flight grey, then
/// matplotlib's tab20 light colours and a few more.
static const plot_color MODE_PALETTE[PLOT_MODE_COLORS] = {
    {225, 225, 225}, {174, 199, 232}, {255, 187, 120}, {152, 223, 138},
    {255, 152, 150}, {197, 176, 213}, {196, 156, 148}, {247, 182, 210},
    {219, 219, 141}, {158, 218, 229}, {253, 208, 162}, {199, 233, 192},
    {218, 218, 235}, {252, 187, 161}, {204, 235, 197}, {254, 217, 166},
};

/// The index of a mode name; -1 for a name of other letters.
static int mode_index(const char *mode) {
  static const char LETTERS[] = "FSPN";
  int index = 0, weight = 1;
  for (const char *c = mode; *c; c++, weight *= 4) {
    const char *at = strchr(LETTERS, *c);
    if (at == NULL || weight >= PLOT_MODE_COLORS) return -1;
    index += (int)(at - LETTERS) * weight;
  }
  return mode[0] != '\0' && index < PLOT_MODE_COLORS ? index : -1;
}

static uint8_t tint(uint8_t channel) {
  return (uint8_t)lround(channel + TRAJ_MODE_TINT * (PLOT_CHANNEL_FULL - channel));
}

plot_color plot_mode_color(const char *mode) {
  const int k = mode ? mode_index(mode) : -1;
  const plot_color c = k >= 0 ? MODE_PALETTE[k] : MODE_PALETTE[0];
  return (plot_color){tint(c.r), tint(c.g), tint(c.b)};
}

/// The modes of the rows, in the order they first appear (at most
/// ZENO_MAX_MODES).
typedef struct mode_table {
  char name[ZENO_MAX_MODES][ZENO_MODE_NAME_SIZE];
  size_t count;
} mode_table;

static void modes_present(const plot_trajectory_input *in, mode_table *m) {
  m->count = 0;
  if (in->mode == NULL) return;
  for (size_t k = 0; k < in->count; k++) {
    bool seen = false;
    for (size_t i = 0; i < m->count && !seen; i++) seen = strcmp(m->name[i], in->mode[k]) == 0;
    if (!seen && m->count < ZENO_MAX_MODES && in->mode[k][0] != '\0')
      snprintf(m->name[m->count++], ZENO_MODE_NAME_SIZE, "%s", in->mode[k]);
  }
}

/// A band's colour. One and two contacts: by the mode's letters
/// (plot_mode_color), the same in every figure. More: free flight as there,
/// the other modes by their place among those present, so that the bands
/// of one figure differ (a mode past the table's ZENO_MAX_MODES is grey).
static plot_color band_color(const mode_table *m, const char *mode) {
  if (strlen(mode) <= ZENO_PAIR_CONTACTS) return plot_mode_color(mode);
  if (mode[strspn(mode, "F")] == '\0') return plot_mode_color("F");  // free flight
  size_t place = 0;
  for (size_t i = 0; i < m->count; i++) {
    if (strcmp(m->name[i], mode) == 0) {
      const plot_color c = MODE_PALETTE[1 + place % (PLOT_MODE_COLORS - 1)];
      return (plot_color){tint(c.r), tint(c.g), tint(c.b)};
    }
    if (strspn(m->name[i], "F") != strlen(m->name[i])) place++;
  }
  return plot_mode_color("F");
}

/* ---- series and legend ---------------------------------------------------- */

/// What the figure draws: the top panel's series, the bottom one's (none:
/// the top panel alone), the panels' labels, and the texts built for them.
typedef struct traj_series {
  series top[TRAJ_SERIES], bottom[TRAJ_SERIES];
  int top_count, bottom_count;
  const char *top_label, *bottom_label;
  char name[TRAJ_SERIES][TRAJ_NAME_SIZE];
  char label[2][TRAJ_LABEL_SIZE];
} traj_series;

/// A q' name of more than two contacts as the figure prints it: the
/// contact's number in subscript digits ("z12" -> "z₁₂"), "th" as θ.
static void pretty_name(const char *name, char *out, size_t size) {
  if (strcmp(name, "th") == 0) {
    snprintf(out, size, "θ");
    return;
  }
  size_t n = (size_t)snprintf(out, size, "%c", name[0]);
  for (const char *d = name + 1; *d >= '0' && *d <= '9' && n + 4 <= size; d++)
    n += (size_t)snprintf(out + n, size - n, "\xe2\x82%c", (char)(0x80 + (*d - '0')));
}

/// Appends "what" to a label of `size` bytes, after ", " unless it is the
/// first.
static void label_add(char *label, size_t size, const char *what) {
  const size_t n = strlen(label);
  snprintf(label + n, size - n, "%s%s", n ? ", " : "", what);
}

/// More than two contacts: q''s gaps (zK) above, its slips (xK) and tilt
/// (th) below, each coordinate in the colour of its place in q' (as z1, z2
/// and x2 of two contacts).
static void series_of_many(const plot_trajectory_input *in, traj_series *t) {
  const double *v[TRAJ_SERIES] = {in->z1, in->z2, in->x2};
  const plot_color color[TRAJ_SERIES] = {PLOT_COLOR_Z1, PLOT_COLOR_Z2, PLOT_COLOR_X2};
  // The names of each panel (room for three, with the unit after them).
  char gaps[TRAJ_LABEL_SIZE / 2] = "", slips[TRAJ_LABEL_SIZE / 2] = "";
  bool tilt = false;
  for (int r = 0; r < TRAJ_SERIES; r++) {
    const char *q = in->zod_names ? in->zod_names[r] : "";
    char pretty[TRAJ_NAME_SIZE / 2];
    pretty_name(q, pretty, sizeof pretty);
    const bool gap = q[0] == 'z', turn = strcmp(q, "th") == 0;
    if (turn) snprintf(t->name[r], TRAJ_NAME_SIZE, "%s (tilt)", pretty);
    else snprintf(t->name[r], TRAJ_NAME_SIZE, "%s (%s %s)", pretty, gap ? "gap" : "slip", q + 1);
    const series s = {v[r], color[r], t->name[r]};
    if (gap) {
      t->top[t->top_count++] = s;
      label_add(gaps, sizeof gaps, pretty);
    } else {
      t->bottom[t->bottom_count++] = s;
      if (turn) tilt = true;
      else label_add(slips, sizeof slips, pretty);
    }
  }
  if (gaps[0]) snprintf(t->label[0], TRAJ_LABEL_SIZE, "%s [L]", gaps);
  if (slips[0]) snprintf(t->label[1], TRAJ_LABEL_SIZE, "%s [L]", slips);
  if (tilt) label_add(t->label[1], TRAJ_LABEL_SIZE, "θ [rad]");
  t->top_label = t->label[0];
  t->bottom_label = t->label[1];
}

static void series_of(const plot_trajectory_input *in, traj_series *t) {
  memset(t, 0, sizeof *t);
  if (in->names != NULL) {  // other quantities (names given)
    const bool pair = in->names[1] != NULL;
    t->top[0] = (series){in->z1, PLOT_COLOR_Z1, in->names[0]};
    t->top[1] = (series){in->z2, PLOT_COLOR_Z2, pair ? in->names[1] : ""};
    t->top_count = pair ? 2 : 1;
    t->bottom[0] = (series){in->x2, PLOT_COLOR_X2, in->names[2]};
    t->bottom_count = 1;
    t->top_label = in->top_label;
    t->bottom_label = in->bottom_label;
  } else if (in->contact_count > ZENO_PAIR_CONTACTS) {
    series_of_many(in, t);
  } else if (in->contact_count == 1) {
    // One contact: q' = (z1, x1, theta) in the same arrays; its gap above,
    // its slip below (theta, the body's turn, is not drawn).
    t->top[0] = (series){in->z1, PLOT_COLOR_Z1, "z₁ (gap)"};
    t->top_count = 1;
    t->bottom[0] = (series){in->z2, PLOT_COLOR_X2, "x₁ (slip)"};
    t->bottom_count = 1;
    t->top_label = PLOT_TRAJECTORY_GAP1_LABEL;
    t->bottom_label = PLOT_TRAJECTORY_SLIP1_LABEL;
  } else {
    t->top[0] = (series){in->z1, PLOT_COLOR_Z1, "z₁ (gap 1)"};
    t->top[1] = (series){in->z2, PLOT_COLOR_Z2, "z₂ (gap 2)"};
    t->top_count = 2;
    t->bottom[0] = (series){in->x2, PLOT_COLOR_X2, "x₂ (slip 2)"};
    t->bottom_count = 1;
    t->top_label = PLOT_TRAJECTORY_GAPS_LABEL;
    t->bottom_label = PLOT_TRAJECTORY_SLIP_LABEL;
  }
  if (t->top_count == 0) {  // q' without a gap: its coordinates above, alone
    memcpy(t->top, t->bottom, sizeof t->top);
    t->top_count = t->bottom_count;
    t->top_label = t->bottom_label;
    t->bottom_count = 0;
  }
}

/// The legend's items: the series, events, impacts and the modes shaded
/// (their texts in `text`). Returns their count.
/// Room for the legend's own texts: the modes' names and the note's parts.
typedef struct legend_text {
  char mode[ZENO_MAX_MODES][TRAJ_MODE_TEXT_SIZE];
  char note[TRAJ_NOTE_PARTS][TRAJ_NOTE_SIZE];
} legend_text;

/// The note's parts, split after each "; " (the legend wraps between
/// them); returns their count.
static size_t note_parts(const char *note, legend_text *text) {
  size_t n = 0;
  for (const char *p = note; *p && n < TRAJ_NOTE_PARTS; n++) {
    const char *cut = strstr(p, "; ");
    const size_t length = cut && n + 1 < TRAJ_NOTE_PARTS ? (size_t)(cut - p) + 1 : strlen(p);
    snprintf(text->note[n], TRAJ_NOTE_SIZE, "%.*s", (int)length, p);
    p += length;
    while (*p == ' ') p++;
  }
  return n;
}

static size_t legend_items(const plot_trajectory_input *in, const traj_series *t,
                           plot_legend_item *items, legend_text *text) {
  size_t n = 0;
  for (int i = 0; i < t->top_count; i++)
    items[n++] = (plot_legend_item){PLOT_MARK_LINE, t->top[i].color, t->top[i].name};
  for (int i = 0; i < t->bottom_count; i++)
    items[n++] = (plot_legend_item){PLOT_MARK_LINE, t->bottom[i].color, t->bottom[i].name};
  items[n++] = (plot_legend_item){PLOT_MARK_TICK, PLOT_COLOR_EVENT, "event"};
  items[n++] = (plot_legend_item){PLOT_MARK_TICK, PLOT_COLOR_IMPACT, "impact"};
  mode_table modes;
  modes_present(in, &modes);
  if (modes.count > 0) items[n++] = (plot_legend_item){PLOT_MARK_NONE, PLOT_COLOR_INK, "mode"};
  for (size_t i = 0; i < modes.count; i++) {
    snprintf(text->mode[i], TRAJ_MODE_TEXT_SIZE, "%s", modes.name[i]);
    items[n++] = (plot_legend_item){PLOT_MARK_LABEL, band_color(&modes, modes.name[i]),
                                    text->mode[i]};
  }
  const size_t parts = in->note ? note_parts(in->note, text) : 0;
  for (size_t i = 0; i < parts; i++)
    items[n++] = (plot_legend_item){PLOT_MARK_NONE, PLOT_COLOR_INK, text->note[i]};
  return n;
}

void plot_trajectory_layout(const plot_trajectory_input *in, double width, double height,
                            plot_frame *top, plot_frame *bottom, plot_frame *strip) {
  const plot_options *o = in->options;
  const double fs = plot_options_font_scale(o), k = plot_options_size_scale(o);
  memset(top, 0, sizeof *top);
  top->left = TRAJ_MARGIN_LEFT * fs;
  top->width = fmax(width - top->left - TRAJ_MARGIN_RIGHT * k, 1.0);
  traj_series t;
  series_of(in, &t);
  plot_legend_item items[TRAJ_LEGEND_ITEMS];
  legend_text text;
  const size_t rows = plot_flow_rows(items, legend_items(in, &t, items, &text),
                                     width - 2 * plot_flow_side(k), fs);
  top->top = TRAJ_LEGEND_Y * fs + (double)(rows - 1) * plot_flow_row(fs) +
             plot_legend_clearance(fs, k);
  const double both = height - top->top - (TRAJ_MARGIN_BOTTOM + TRAJ_PANEL_GAP) * fs;
  // One panel (no bottom series) takes both panels' room and the gap.
  top->height = fmax(t.bottom_count > 0 ? both / 2 : both + TRAJ_PANEL_GAP * fs, 1.0);
  *bottom = *top;
  if (t.bottom_count > 0) bottom->top += top->height + TRAJ_PANEL_GAP * fs;
  *strip = *bottom;
  strip->top = bottom->top + bottom->height + TRAJ_STRIP_OFFSET * fs;
  strip->height = TRAJ_STRIP_HEIGHT * k;
}

/// The events as ticks in a strip of their own under the bottom panel
/// (impacts full height and black, other events half height and grey), so
/// that they never cover the curves.
static void event_strip(cairo_t *cr, const plot_frame *strip, const abscissa *a,
                        const plot_trajectory_input *in) {
  const double fs = plot_font_scale(cr), k = plot_size_scale_of(cr);
  plot_frame f = *strip;
  f.x_min = a->frame.x_min;
  f.x_max = a->frame.x_max;
  const double bottom = f.top + f.height;
  cairo_save(cr);
  plot_clip(cr, &f);
  plot_line_width(cr, PLOT_LINE_THIN);
  for (int pass = 0; pass < 2; pass++) {  // impacts on top of other events
    plot_set_color(cr, pass ? PLOT_COLOR_IMPACT : PLOT_COLOR_EVENT);
    for (size_t i = 0; i < in->event_count; i++) {
      if (in->event_impact[i] != (pass == 1) || !isfinite(a->xe[i])) continue;
      const double x = floor(plot_frame_x(&f, a->xe[i])) + 0.5;
      cairo_move_to(cr, x, bottom);
      cairo_line_to(cr, x, bottom - (pass ? TRAJ_IMPACT_TICK : TRAJ_EVENT_TICK) * k);
    }
    cairo_stroke(cr);
  }
  cairo_restore(cr);
  plot_set_color(cr, PLOT_COLOR_GUIDE);
  plot_line_width(cr, PLOT_LINE_THIN);
  cairo_move_to(cr, round(f.left) + 0.5, round(bottom) + 0.5);
  cairo_line_to(cr, round(f.left + f.width) + 0.5, round(bottom) + 0.5);
  cairo_stroke(cr);
  plot_set_color(cr, PLOT_COLOR_INK);
  const plot_text_role role = plot_text_role_set(cr, PLOT_TEXT_AXIS);
  plot_text(cr, f.left - TRAJ_STRIP_LABEL_GAP * k, bottom, PLOT_FONT_TICK, "events", 1.0, 1.0);
  plot_record_axis_label(cr, a->label);
  plot_text(cr, f.left + f.width / 2, bottom + TRAJ_STRIP_LABEL_GAP * fs, PLOT_FONT_LABEL, a->label,
            0.5, 0.0);
  plot_text_role_set(cr, role);
}

static void line(cairo_t *cr, const plot_frame *f, const double *t, const series *s, size_t n) {
  plot_set_color(cr, s->color);
  plot_line_width(cr, PLOT_LINE_DATA);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
  bool drawing = false;
  for (size_t k = 0; k < n; k++) {
    if (!isfinite(t[k]) || !isfinite(s->v[k])) {
      drawing = false;
      continue;
    }
    const double x = plot_frame_x(f, t[k]), y = plot_frame_y(f, s->v[k]);
    if (drawing) cairo_line_to(cr, x, y);
    else cairo_move_to(cr, x, y);
    drawing = true;
  }
  cairo_stroke(cr);
}

/// The mode bands of a panel: from each row to the next, its mode's colour
/// (a run of rows of one mode is one band). Returns the bands drawn.
static size_t mode_bands(cairo_t *cr, const plot_frame *f, const plot_trajectory_input *in,
                         const abscissa *a) {
  if (in->mode == NULL) return 0;
  mode_table modes;
  modes_present(in, &modes);
  size_t bands = 0;
  for (size_t k = 0; k + 1 < in->count;) {
    size_t end = k + 1;  // the band runs from row k to row end
    while (end + 1 < in->count && strcmp(in->mode[end], in->mode[k]) == 0) end++;
    const double x0 = a->x[k], x1 = a->x[end];
    if (isfinite(x0) && isfinite(x1) && in->mode[k][0] != '\0') {
      const double u0 = plot_frame_x(f, x0), u1 = plot_frame_x(f, x1);
      plot_set_color(cr, band_color(&modes, in->mode[k]));
      cairo_rectangle(cr, fmin(u0, u1), f->top, fabs(u1 - u0), f->height);
      cairo_fill(cr);
      bands++;
    }
    k = end;
  }
  return bands;
}

/// One panel: the series s[0..n-1], y range from the data shown (or ylim).
static size_t panel(cairo_t *cr, plot_frame f, const plot_trajectory_input *in, const abscissa *a,
                    const series *s, int n, const double *ylim, const char *y_label) {
  f.y_min = INFINITY;
  f.y_max = -INFINITY;
  const double lo = fmin(f.x_min, f.x_max), hi = fmax(f.x_min, f.x_max);
  for (int i = 0; i < n; i++) widen(s[i].v, a->x, in->count, lo, hi, &f.y_min, &f.y_max);
  double y_step = nice_range(&f.y_min, &f.y_max);
  if (ylim) {
    f.y_min = ylim[0];
    f.y_max = ylim[1];
    y_step = plot_nice_step(f.y_max - f.y_min, TRAJ_TICKS);
  }
  cairo_save(cr);
  plot_clip(cr, &f);
  const size_t bands = mode_bands(cr, &f, in, a);
  for (int i = 0; i < n; i++) line(cr, &f, a->x, &s[i], in->count);
  cairo_restore(cr);
  plot_axes(cr, &f, a->step, y_step, NULL, y_label);
  return bands;
}

static void draw(const plot_canvas *c, const plot_trajectory_input *in, abscissa *a) {
  cairo_t *cr = c->cr;
  const plot_options *o = &c->options;
  plot_frame *f = &a->frame, bottom, strip;
  plot_trajectory_input laid = *in;
  laid.options = o;
  plot_trajectory_layout(&laid, c->width, c->height, f, &bottom, &strip);
  if (isfinite(in->accumulation_t)) log_abscissa(in, o, a);
  else linear_abscissa(in, o, a);
  plot_title(cr, c->width, in->title);
  traj_series t;
  series_of(in, &t);
  plot_legend_item items[TRAJ_LEGEND_ITEMS];
  legend_text text;
  const size_t n = legend_items(in, &t, items, &text);
  const double side = plot_flow_side(c->scales.size);
  plot_flow_legend(cr, items, n, side, c->width - side, TRAJ_LEGEND_Y * c->scales.font);
  const double top_of_bottom = bottom.top;
  bottom = *f;
  bottom.top = top_of_bottom;
  plot_frame above = *f;
  above.x_labels_hidden = t.bottom_count > 0;
  size_t bands = panel(cr, above, in, a, t.top, t.top_count, o->has_ylim ? o->ylim : NULL,
                       t.top_label);
  if (t.bottom_count > 0)
    bands += panel(cr, bottom, in, a, t.bottom, t.bottom_count, NULL, t.bottom_label);
  event_strip(cr, &strip, a, in);
  if (c->scales.layout != NULL) {
    plot_layout *l = c->scales.layout;
    l->band_count = bands;
    mode_table modes;
    modes_present(in, &modes);
    l->mode_count = modes.count;
    for (size_t i = 0; i < l->mode_count && i < PLOT_LAYOUT_MODES; i++)
      snprintf(l->modes[i], sizeof l->modes[i], "%s", modes.name[i]);
  }
}

plot_status plot_trajectory(const char *path, const plot_trajectory_input *in) {
  plot_canvas canvas;
  plot_status status = plot_canvas_open(&canvas, path, in->options);
  abscissa a = {.x = malloc((in->count ? in->count : 1) * sizeof(double)),
                .xe = malloc((in->event_count ? in->event_count : 1) * sizeof(double))};
  if (status == PLOT_OK && (a.x == NULL || a.xe == NULL)) status = PLOT_ERR_NOMEM;
  if (status == PLOT_OK) draw(&canvas, in, &a);
  free(a.x);
  free(a.xe);
  return plot_canvas_close(&canvas, status);
}
