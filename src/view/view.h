// The SDL2 viewer: a front end that draws a run of the library (live, from
// a zeno_sim it drives itself) or a run saved by `zeno simulate --out DIR`
// (replay). The library draws nothing; this module reads its states and
// events only.
//
// Pieces:
//   view_run     the data of one run: events and trajectory rows, recorded
//                live or read from a run directory by the library
//                (zeno/run_dir.h), and, live, the simulator for dense
//                output (view_run.c)
//   view_play    the playback clock: time, speed, Zeno warp, zoom (view_play.c)
//   view_canvas  an offscreen software renderer and its font; every frame is
//                drawn into it, so a frame depends only on (run, play) and
//                the window only shows a copy (view_draw.c, view_text.c)
//   view_app     the window loop and the headless screenshot (view_app.c)
//   view_module  what the zeno program sees: the run, the options and the
//                table of the loadable module zeno-view.so (view_module.h)
//
// World frame: the scene's, centre of mass at its nominal position (0, 0);
// lengths in scene units. Screen: pixels, y down.
#ifndef ZENO_VIEW_VIEW_H
#define ZENO_VIEW_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "view/view_module.h"
#include "zeno/zeno.h"

/* ---- one run (view_run: view_module.h) ----------------------------------- */

/// Runs `scene` to its end (or VIEW_MAX_LIVE_EVENTS) with dense output and
/// records events and rows exactly as `zeno simulate --out` writes them.
zeno_status view_run_simulate(view_run *run, const zeno_scene *scene, zeno_error *error);

/// Reads the run directory `dir` for `scene` (zeno_run_dir_read()); the
/// error names the file, line and column.
zeno_status view_run_load(view_run *run, const zeno_scene *scene, const char *dir,
                          zeno_error *error);

/// Frees what the run holds and empties it.
void view_run_free(view_run *run);

/// Sets t_end, has_zeno, zeno_time and outcome from the events.
void view_run_finish(view_run *run);

/// The state at time t (clamped to [0, t_end]): dense output of the live
/// simulator, else linear interpolation of the rows (an event time gives
/// the row after the event).
void view_run_state(const view_run *run, double t, zeno_run_dir_row *state);

/// The mode word of the events up to time t, in the library's spelling
/// (the start mode, then per impact its name and the mode after, per
/// transition the new mode, "Z" and the mode after at an accumulation
/// point). Writes at most size bytes; returns the full length.
int view_run_word(const view_run *run, double t, char *buffer, int size);

/// Impact events up to time t.
long view_run_impacts(const view_run *run, double t);

/// Index of the last event at or before t (0 when none).
long view_run_event_at(const view_run *run, double t);

/* ---- playback ------------------------------------------------------------ */

/// Zeno warp: inter-event intervals played per wall-clock second (each
/// interval gets the same wall time, so a chatter plays as evenly spaced
/// hops).
#define VIEW_WARP_EVENTS_PER_SECOND 2.0
/// Automatic zoom: the largest gap and the largest slip of the current
/// phase of the run (the run is cut at its Zeno accumulation points, so a
/// chatter is not drowned by a long slide after it) are each drawn as this
/// fraction of the body size: large enough to see, small enough to stay in
/// the frame.
#define VIEW_ZOOM_FRACTION 0.35
/// Gaps are magnified at most this many times more than slips (a run that
/// never lifts off would otherwise magnify rounding).
#define VIEW_GAP_ZOOM_LIMIT 1e3
/// The automatic zoom's floor: a displacement (a gap, a slip, the whole)
/// below this fraction of the body size counts as this size, so rounding
/// is never magnified into view (the rocking block at rest, x2 = 3.4e-18,
/// was magnified 2.29e17 times and drawn 58 px off its ghost). Such a
/// displacement is drawn at most VIEW_ZOOM_FRACTION times this fraction of
/// the body: far below a pixel.
#define VIEW_ZOOM_FLOOR 1e-9
/// Motions large against the body are drawn at true scale, not shrunk:
/// when the automatic zoom would shrink a phase's motion and the rotation
/// it would then draw is at most this [rad], the zoom is 1 (each factor
/// below 1 raised to 1) and the camera widens to frame the whole motion
/// (view_camera). The bound is the largest rotation the automatic zoom
/// draws anyway (a displacement of VIEW_ZOOM_FRACTION of the body), where
/// the linearised drawing b + theta J b is off a true rotation by
/// theta^2 / 2 of |b|: 6%. (The bouncing ball's 1 m drop, 10 radii, was
/// shrunk x0.035 and the ball drawn 206 px in radius.)
#define VIEW_TRUE_SCALE_ROTATION VIEW_ZOOM_FRACTION
/// The camera frames the nominal scene in VIEW_SCENE_FILL of the scene
/// area and the body's whole displayed motion (every row of the run) in at
/// most VIEW_MOTION_FILL of it: the nominal scene's fill decides the scale
/// unless the motion would not fit, which then fills VIEW_MOTION_FILL of
/// the area's width or height; the rest is margin for the contact discs,
/// cones and arrows.
#define VIEW_SCENE_FILL 0.62
#define VIEW_MOTION_FILL 0.9
/// Zoom keys and the mouse wheel multiply the zoom by this per step.
#define VIEW_ZOOM_STEP 1.25

/// The playback state. A frame depends only on the run and this.
typedef struct view_play {
  double t;       ///< display time [time]
  double warp_u;  ///< Zeno warp clock: event intervals since the start
  bool warp;      ///< Zeno warp on (z)
  bool paused;    ///< space
  bool help;      ///< h
  bool legend;    ///< l: the colour legend (on at the start)
  bool maps;      ///< m: the side panel of the Poincaré maps R and G
  /// A message drawn over the bottom of the scene (a failed reload of the
  /// scene file); NULL or "": none.
  const char *banner;
  int speed_level;     ///< 1-5: VIEW_SPEEDS[speed_level - 1]
  double zoom_fixed;   ///< > 0: magnification set by --zoom; 0: automatic
  double zoom_factor;  ///< times the fixed or automatic zoom (+/-, wheel)
  int run_number;      ///< 1, then +1 per perturbation (p, drag)
} view_play;

/// Simulated time per wall second of speed level 1-5.
double view_speed(int level);

/// Fresh playback for a run: t = 0, automatic zoom, the speed level that
/// plays the run in a few seconds.
void view_play_init(view_play *play, const view_run *run);

/// Advances the clock by dt wall seconds (nothing when paused).
void view_play_advance(view_play *play, const view_run *run, double dt);

/// Wall-clock seconds the playback takes from its display time to the end
/// of the run at its speed, or in the Zeno warp (pauses aside).
double view_play_seconds_left(const view_play *play, const view_run *run);

/// The display time a headless frame or recording starts at: the time of
/// event options->at_event when one is given (in range), else options->at.
double view_start_time(const view_run *run, const view_options *options);

/// Jumps to the next (direction > 0) or previous event and pauses.
void view_play_step_event(view_play *play, const view_run *run, int direction);

/// Moves the display time by dt [time] (scrubbing), clamped to the run.
void view_play_seek(view_play *play, const view_run *run, double t);

/// Switches the Zeno warp on or off, keeping the display time.
void view_play_set_warp(view_play *play, const view_run *run, bool warp);

/// Zeno warp: time of warp clock u, and warp clock of time t (inverse).
double view_warp_time(const view_run *run, double u);
double view_warp_clock(const view_run *run, double t);
/// Event intervals of the warp clock (its largest value).
double view_warp_length(const view_run *run);

/// The perturbation zoom: magnifications of the normal (gap) and the
/// tangential (slip) motion of the contacts. Two-contact scenes show the
/// displacement whose linearised contact coordinates (z1, z2, x2) are the
/// true ones times (normal, normal, tangential), so hops of a chatter stay
/// visible next to a long slide; one-contact scenes magnify q uniformly by
/// `normal`.
typedef struct view_zoom {
  double normal;
  double tangential;
} view_zoom;

/// The automatic zoom at time t: VIEW_ZOOM_FRACTION of the body size over
/// the largest gap and the largest slip of t's phase (uniform when the gaps
/// are the larger; 1 when nothing moves); a factor below 1 is raised to 1
/// when the rotation drawn stays within VIEW_TRUE_SCALE_ROTATION.
view_zoom view_auto_zoom(const view_run *run, double t);
/// The phase of time t: (t0, t1] between the Zeno accumulation points
/// around it (-inf, +inf: none).
void view_phase(const view_run *run, double t, double *t0, double *t1);

/// The zoom in use at the display time (fixed or automatic, times the
/// user's factor).
view_zoom view_play_zoom(const view_play *play, const view_run *run);

/// The displayed displacement d of a true displacement q under a zoom.
void view_displayed(const zeno_scene *scene, view_zoom zoom, const double q[3], double d[3]);

/// Size of the body: farthest contact or outline point from the centre of
/// mass [length].
double view_body_size(const zeno_scene *scene);

/// The velocity scale of a run: largest speed of its rows, or when it is at
/// rest throughout, sqrt(a L) with a = |f|/m and L the largest displacement
/// [length/time]. Scales the impulses of `p` and mouse drags.
double view_velocity_scale(const view_run *run);

/// The impulse of a random perturbation (`p`): speed VIEW_PERTURB_FRACTION
/// of `speed_scale` (the velocity scale of the scene's own run, not of a
/// run already perturbed, so that presses do not shrink) times a size in
/// [1/2, 1), direction 2 pi u1, size from u2, applied at a body point along
/// the body's width from u3 (u1, u2, u3 uniform in [0, 1)).
void view_perturbation(const zeno_scene *scene, double speed_scale, double u1, double u2, double u3,
                       double point[2], double impulse[2]);

/// Perturbation speed as a fraction of the velocity scale.
#define VIEW_PERTURB_FRACTION 0.3

/// Restarts `run` from its state at play->t plus the velocity change of an
/// impulse `impulse` [force*time] applied at body point `point` (body frame,
/// relative to the centre of mass [length]); play restarts at t = 0.
zeno_status view_apply_impulse(view_run *run, view_play *play, const double point[2],
                               const double impulse[2], zeno_error *error);

/* ---- drawing ------------------------------------------------------------- */

/// Height of the text band at the top and of the strip chart [px].
#define VIEW_OVERLAY_HEIGHT 66
#define VIEW_CHART_HEIGHT 150
/// Most lanes of the strip chart: a gap per contact.
#define VIEW_CHART_LANES_MAX ZENO_MAX_CONTACTS
/// The font (fonts-dejavu-core).
#define VIEW_FONT_PATH "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
/// Font size [pt], and of the small font that text too wide for its place
/// falls back to (view_text_fit()), the legend and the chart's lane notes.
#define VIEW_FONT_SIZE 13
#define VIEW_SMALL_FONT_SIZE 10
/// Height of a line of the small font [px].
#define VIEW_SMALL_LINE 15

/// Colours (r, g, b) the tests look for.
typedef struct view_rgb {
  Uint8 r, g, b;
} view_rgb;

extern const view_rgb VIEW_BACKGROUND;
extern const view_rgb VIEW_SURFACE_LINE;
extern const view_rgb VIEW_SURFACE_FILL;
extern const view_rgb VIEW_BODY_FILL;
/// Contact colours by letter F, S, P, N.
extern const view_rgb VIEW_LETTER_COLOUR[4];

/// Ink, the equilibrium ghost and forces (also the chart's text, middle
/// lines and cursor).
extern const view_rgb VIEW_INK;
extern const view_rgb VIEW_GHOST;
extern const view_rgb VIEW_FORCE;
extern const view_rgb VIEW_IMPULSE;
extern const view_rgb VIEW_LOAD;
/// Friction cones: edges VIEW_CONE_PX long and VIEW_CONE_WIDTH_PX wide,
/// opaque, over a faint fill.
extern const view_rgb VIEW_CONE;
#define VIEW_CONE_PX 46.0
#define VIEW_CONE_WIDTH_PX 3.0
/// Height of a text line [px].
#define VIEW_TEXT_LINE 20

/// What the camera frames [length, world frame]: the nominal scene (the
/// contacts, the centre of mass and the outline, at least
/// SCENE_MIN_EXTENT body sizes either side) and that together with the
/// body at every row's displayed displacement (its contacts and outline,
/// under the zoom without the user's +/- factor).
typedef struct view_camera {
  double scene_lo[2], scene_hi[2];
  double lo[2], hi[2];
} view_camera;

/// An offscreen frame: a software renderer drawing into a surface.
typedef struct view_canvas {
  SDL_Surface *surface;  ///< ARGB8888
  SDL_Renderer *renderer;
  TTF_Font *font;
  TTF_Font *small_font;
  int width, height;
  /// Called with every string drawn and its box (tests: which labels a
  /// frame has and whether they fit); NULL: none.
  void (*text_hook)(void *user, const char *text, const SDL_Rect *box);
  void *text_user;
  // Cached strip chart: recomputed when the run, the warp or the size change.
  SDL_Point *chart_points;  ///< view_chart_lanes() curves of chart_count points
  int chart_count;
  const view_run *chart_run;
  const void *chart_rows;
  size_t chart_row_count;
  int chart_run_number;
  bool chart_warp;
  double chart_range[VIEW_CHART_LANES_MAX];  ///< largest |value| of each lane
  // Cached Poincaré maps of the maps panel (view_maps.c), by geometry.
  enum { VIEW_MAPS_NONE, VIEW_MAPS_READY, VIEW_MAPS_FAILED } maps_state;
  unsigned long long maps_key;
  zeno_maps maps;
  char maps_error[sizeof(((zeno_error *)0)->message) + 16];
  // Cached camera (view_canvas_camera): recomputed when the run or the
  // fixed zoom change.
  bool camera_ready;
  view_camera camera;
  const view_run *camera_run;
  const void *camera_rows;
  size_t camera_row_count;
  int camera_run_number;
  double camera_zoom_fixed;
  // Drag feedback (window mode).
  bool dragging;
  double drag_from[2], drag_to[2];  ///< world [length]
} view_canvas;

/// Creates the canvas (TTF_Init must have run). Returns false with a
/// message from SDL.
bool view_canvas_create(view_canvas *canvas, int width, int height, char *message,
                        size_t message_size);
void view_canvas_destroy(view_canvas *canvas);
/// Remakes the canvas at a new size (a resized window); the text hook is
/// kept, the chart cache dropped. False with a message (the canvas is then
/// empty: destroy it).
bool view_canvas_resize(view_canvas *canvas, int width, int height, char *message,
                        size_t message_size);

/// The world-to-screen map of a canvas and scene.
typedef struct view_transform {
  double scale;      ///< pixels per length
  double origin[2];  ///< screen position of the world origin [px]
  double d[3];       ///< the displayed (magnified) displacement (x, y, theta)
} view_transform;

/// The camera of a run: its motion displayed under `zoom_fixed` (> 0) or
/// the automatic zoom of each row's phase (view_auto_zoom()).
view_camera view_camera_make(const view_run *run, double zoom_fixed);
/// The camera of the run shown on a canvas, computed once per run and
/// fixed zoom (kept in the canvas).
const view_camera *view_canvas_camera(view_canvas *canvas, const view_run *run,
                                      const view_play *play);

/// The scene area of a canvas [px]: between the text band and the strip
/// chart, right of the maps panel when it is shown (m), so that the panel
/// covers no part of the scene.
SDL_Rect view_scene_area(const view_canvas *canvas, const view_play *play);

/// The map for a scene area (view_scene_area()), a camera and a displayed
/// displacement d (view_displayed()): the nominal scene fills
/// VIEW_SCENE_FILL of the area unless the whole box would then not fit in
/// VIEW_MOTION_FILL of it, and is centred unless that would put part of
/// the box outside that fraction, when the box is moved in.
view_transform view_transform_make(const SDL_Rect *area, const view_camera *camera,
                                   const double d[3]);

/// Most points of a body outline (view_outline_points()).
#define VIEW_OUTLINE_MAX_POINTS 32
/// The outline polygon in body coordinates [length]: the biped torso, the
/// polygon, or the disk. Returns the number of points.
int view_outline_points(const zeno_scene *scene, double (*points)[2]);

/// Screen position [px] of a world point [length].
void view_to_screen(const view_transform *tf, const double world[2], double screen[2]);
/// World point of a screen position (inverse of view_to_screen).
void view_to_world(const view_transform *tf, const double screen[2], double world[2]);
/// World position of a body point (body frame) at the displayed pose: the
/// displacement is drawn linearised, b + d_xy + d_theta J b, so a drawn gap
/// is the zoom times the gap.
void view_body_point(const view_transform *tf, const double body[2], double world[2]);
/// Body point of a world point at the displayed pose (inverse).
void view_body_point_inverse(const view_transform *tf, const double world[2], double body[2]);

/// What a frame showed (for tests and the benchmark).
typedef struct view_frame_info {
  double t;                ///< display time
  long impacts;            ///< impact events up to t
  long event;              ///< index of the last event at or before t
  zeno_run_dir_row state;  ///< the drawn state
} view_frame_info;

/// Draws one frame of the run at the playback state into the canvas.
void view_draw_frame(view_canvas *canvas, const view_run *run, const view_play *play,
                     view_frame_info *info);

/// Primitives (view_draw.c): a line of a width [px] as a filled quad, a
/// filled disc, an arrow from `from` along the screen direction (dx, dy)
/// of length len [px].
void view_thick_line(SDL_Renderer *r, const double a[2], const double b[2], double width,
                     view_rgb c, Uint8 alpha);
void view_disc(SDL_Renderer *r, const double centre[2], double radius, view_rgb c);
void view_arrow(SDL_Renderer *r, const double from[2], double dx, double dy, double len,
                view_rgb c);

/// The panels over the frame (view_panels.c): the key help (h) and the
/// colour legend (l).
void view_draw_help(view_canvas *canvas);
void view_draw_legend(view_canvas *canvas);
/// The side panel of the maps R and G (m) with the latest section angle
/// marked, at the left of the scene area, and its box (view_maps.c).
void view_draw_maps(view_canvas *canvas, const view_run *run, const view_play *play);
SDL_Rect view_maps_box(const view_canvas *canvas);
/// The section angle (25) of the last impact at or before t that lies on
/// the Poincaré section (22): contact 2 hits (zdot2 < 0) while contact 1 is
/// closed, phi = atan(xdot2 / |zdot2|) from the row before the impact
/// [rad]. *count: such impacts up to t. False when there is none.
bool view_section_angle(const view_run *run, double t, double *phi, long *count);

/// A two-line message (a lead and the text, e.g. an error) at the bottom of
/// the scene area, outlined in the force's red.
void view_draw_banner(view_canvas *canvas, const char *lead, const char *text);
/// The help's lines (also printed by tests and docs checks).
extern const char *const VIEW_HELP_LINES[];
extern const int VIEW_HELP_LINE_COUNT;

/// Sets the renderer's draw colour.
void view_set_colour(SDL_Renderer *renderer, view_rgb colour, Uint8 alpha);

/// Lanes of the strip chart: q''s three coordinates for one and two
/// contacts, one gap per contact for more (at most VIEW_CHART_LANES_MAX).
int view_chart_lanes(const zeno_scene *scene);
/// The value lane `lane` draws for a row: q''s coordinate, or for more than
/// two contacts the gap of contact lane + 1 from the row's pose under the
/// linearised kinematics of the ZOD [length].
double view_chart_value(const zeno_scene *scene, const zeno_run_dir_row *row, int lane);

/// Draws the strip chart of the run into the bottom band of the canvas
/// (view_chart.c).
void view_draw_chart(view_canvas *canvas, const view_run *run, const view_play *play);

/// Draws text at (x, y) [px, top left]; returns its width [px].
int view_text(view_canvas *canvas, int x, int y, view_rgb colour, const char *text);
/// The same in a given font (canvas->font or canvas->small_font).
int view_text_in(view_canvas *canvas, TTF_Font *font, int x, int y, view_rgb colour,
                 const char *text);
/// Draws text no wider than max_width [px]: in the font when it fits, else
/// in the small font, else the small font's longest head of it that fits
/// followed by "...". Returns the width drawn.
int view_text_fit(view_canvas *canvas, int x, int y, int max_width, view_rgb colour,
                  const char *text);

/// The same starting with the small font.
int view_text_fit_small(view_canvas *canvas, int x, int y, int max_width, view_rgb colour,
                        const char *text);
/// Width of text in a font [px] (0 without a font).
int view_text_width(TTF_Font *font, const char *text);

/// The colour legend: contact letters, force, impulse, load, ghost, cone
/// (drawn at the top right of the scene area when play->legend is on).
/// Its box for a canvas [px] (view_draw.c).
SDL_Rect view_legend_box(const view_canvas *canvas);

/// A file name "STEM-N.EXT" in the working directory that no file has yet,
/// N from *counter + 1 up, reserved by creating it empty (O_EXCL), so that a
/// screenshot never overwrites one of an earlier session. *counter becomes
/// N. False (with a message) when no name could be reserved.
bool view_fresh_name(const char *stem, const char *ext, int *counter, char *path, size_t path_size,
                     char *message, size_t message_size);

/// Writes the canvas as an RGB PNG. Returns false with a message.
bool view_write_png(const view_canvas *canvas, const char *path, char *message,
                    size_t message_size);

/// Reads the colour of a canvas pixel.
view_rgb view_pixel(const view_canvas *canvas, int x, int y);

/* ---- the front end (view_options: view_module.h) ------------------------- */

/// Headless: draws the frame at options->at / at_event and writes the PNG.
/// Returns 0, or 1 on a failure (reported on stderr).
int view_screenshot(view_run *run, const view_options *options);

/// Headless: plays the run as the window would (options->zoom, speed,
/// warp, from view_start_time()) for options->record_seconds (0: to the end of
/// the run and VIEW_RECORD_HOLD_SECONDS more, at most
/// VIEW_RECORD_MAX_SECONDS) and writes every 1/fps s frame into the
/// animated GIF or MP4 options->record (view_record.c), written aside and
/// renamed into place whole. Returns 0,
/// or 1 on a failure (reported on stderr) or a stop (options->stop,
/// silent): nothing written, the previous file of the name kept.
int view_record(view_run *run, const view_options *options);

/// Playback for a run as the options ask: view_play_init(), then --zoom,
/// --speed and --zeno-warp.
void view_play_start(view_play *play, const view_run *run, const view_options *options);

/* ---- live reload of the scene file (view_reload.c) ------------------------ */

/// How often the window looks at the scene file's time and size [ms].
#define VIEW_RELOAD_PERIOD_MS 1000

/// The scene file being watched.
typedef struct view_reload {
  const char *path;              ///< NULL: nothing to watch
  const char *const *overrides;  ///< --set overrides applied on every load
  size_t override_count;
  struct timespec mtime;  ///< of the version loaded or last tried
  long long size;
  char error[sizeof(((zeno_error *)0)->message) + 64];  ///< why the last try failed, or ""
} view_reload;

typedef enum view_reload_result {
  VIEW_RELOAD_UNCHANGED,  ///< the file is as it was (or nothing is watched)
  VIEW_RELOAD_DONE,       ///< it changed and *run is the new scene's run
  VIEW_RELOAD_FAILED      ///< it changed but does not load or run: *run is kept, error says why
} view_reload_result;

/// Starts watching options->scene_path (when it is a regular file) from
/// its present version.
void view_reload_init(view_reload *reload, const view_options *options);

/// When the file's modification time or size changed since the version
/// loaded or last tried: loads it with the overrides and simulates it; on
/// success replaces *run (freeing the old one).
view_reload_result view_reload_check(view_reload *reload, view_run *run);

/* ---- animated GIF (view_gif.c) -------------------------------------------- */

typedef struct view_gif view_gif;

/// Starts a GIF written into `stream` (the caller's, left open; `path`
/// names it in messages) for frames of the canvas's size, its palette
/// taken from the first frame (view_gif_frame). NULL with a message.
view_gif *view_gif_create(FILE *stream, const char *path, int width, int height, char *message,
                          size_t message_size);
/// Appends the canvas as a frame shown for `centiseconds`.
bool view_gif_frame(view_gif *gif, const view_canvas *canvas, int centiseconds, char *message,
                    size_t message_size);
/// Writes the GIF's trailer into the stream (false with a message unless
/// message is NULL) and frees it; a NULL gif is ignored.
bool view_gif_close(view_gif *gif, char *message, size_t message_size);

/// True when the --record name asks for MP4 (.mp4, any case); else GIF.
bool view_record_is_mp4(const char *path);

/// Opens a window and plays the run until q/Esc or options->frames frames.
/// Returns 0, or 1 when SDL fails.
int view_window(view_run *run, const view_options *options);

#endif
