// Charts of the `zeno` program, drawn with cairo: the maps R and G over the
// Poincaré section (the paper's Figs. 4c, 5b, 7a), the interval graph of a
// merged partition (Fig. 7b) and a trajectory of q' = (z1, z2, x2).
//
// A front-end module: linked into the zeno program (and its tests), never
// into libzeno. The output format follows the file name: ".png" (cairo
// image surface), ".svg" or ".pdf" (cairo's vector surfaces),
// case-insensitive.
//
// The palette and the axis mapping are public so that tests can check the
// colour of known pixels of a written PNG.
#ifndef ZENO_PLOT_PLOT_H
#define ZENO_PLOT_PLOT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "zeno/zeno.h"

/// Default size of every figure: PNG pixels, SVG and PDF points. matplotlib's
/// default figure, 6.4 x 4.8 in (460.8 x 345.6 pt).
#define PLOT_WIDTH 460
#define PLOT_HEIGHT 345
/// The size the layout's lengths (fonts, lines, margins, markers) are
/// written for: at this size they are drawn as written; other sizes scale
/// them by plot_size_scale().
#define PLOT_DESIGN_WIDTH 900
#define PLOT_DESIGN_HEIGHT 600
/// Tick text [pt] at the default size (matplotlib's 10 pt); with the design
/// size's 12 it fixes how text follows the figure's size (plot_size_scale()).
#define PLOT_DEFAULT_TICK_TEXT 10.0
/// Allowed figure sizes, each side (PNG pixels, SVG/PDF points). The lower
/// end (a 1.4 in inset) still leaves a data area between the margins; the
/// upper end keeps a PNG under 256 MB of memory.
#define PLOT_SIZE_MIN 100
#define PLOT_SIZE_MAX 8000
/// The density [pixels per inch] a figure is designed at: fonts, lines and
/// margins are in pixels at this density (CSS's reference pixel).
#define PLOT_DPI_BASE 96.0
/// Allowed PNG densities [pixels per inch].
#define PLOT_DPI_MIN 24.0
#define PLOT_DPI_MAX 1200.0
/// Allowed text size factors.
#define PLOT_FONT_SCALE_MIN 0.25
#define PLOT_FONT_SCALE_MAX 4.0

/// Where a drawn figure put its text, legend and markers, in device units
/// (PDF and SVG points; PNG pixels), filled when plot_options.layout is
/// set: what a test measures instead of parsing the file.
typedef struct plot_box {
  double x0, y0, x1, y1;  ///< x0 > x1: empty
} plot_box;

/// Most marker boxes a layout record keeps (more are counted, not kept).
#define PLOT_LAYOUT_MARKERS 64
/// Most axis labels a layout record keeps, and the room for one.
#define PLOT_LAYOUT_LABELS 6
#define PLOT_LAYOUT_LABEL_SIZE 96
/// Most mode names a trajectory's record keeps.
#define PLOT_LAYOUT_MODES 16

typedef struct plot_layout {
  /// Smallest size [pt] of any text drawn, of the axes' tick labels and
  /// axis labels, and of the legend's text (INFINITY: none drawn).
  double text_min, axis_text_min, legend_text_min;
  plot_box legend;      ///< the legend's extent: samples, swatches and text
  size_t legend_items;  ///< items of a wrapping legend drawn (maps, trajectories)
  size_t marker_count;  ///< markers drawn over the data (fixed points, dots)
  plot_box markers[PLOT_LAYOUT_MARKERS];
  /// A trajectory's mode bands: how many were shaded, and the modes named
  /// in the legend, in order ("FF", "SS", ...).
  size_t band_count, mode_count;
  char modes[PLOT_LAYOUT_MODES][ZENO_MODE_NAME_SIZE];
  /// The axis labels drawn, in order (x then y of each frame), the first
  /// PLOT_LAYOUT_LABELS of them.
  size_t label_count;
  char labels[PLOT_LAYOUT_LABELS][PLOT_LAYOUT_LABEL_SIZE];
  /// A colour bar (sweep --color of a quantity): its extent, and the data
  /// at its bottom and top (NAN: none drawn).
  plot_box color_bar;
  double color_bar_lo, color_bar_hi;
} plot_layout;

/// Options every figure takes (the program's --size, --dpi, --font-scale,
/// --xlim and --ylim). A PNG of width x height pixels at `dpi` is drawn
/// with everything (fonts, lines, margins) scaled by dpi / PLOT_DPI_BASE:
/// the layout is that of a (width, height) * PLOT_DPI_BASE / dpi figure at
/// the base density, so --size 1800x1200 --dpi 192 is the default figure
/// with twice the pixels. The density is written into the PNG (its pHYs
/// chunk). SVG and PDF are drawn at the base scale (1 point per layout
/// pixel); their `dpi` must be PLOT_DPI_BASE.
typedef struct plot_options {
  int width, height;  ///< figure size: PNG pixels, SVG and PDF points
  double dpi;         ///< PNG pixel density [1/in]
  double font_scale;  ///< factor on every text size (and the margins text needs)
  /// Data ranges of the x and y axes in the axis's displayed units (lo < hi),
  /// used when has_* is true; else the figure's own ranges. For figures of
  /// two panels (maps, trajectories) ylim is the top panel's range.
  bool has_xlim, has_ylim;
  double xlim[2], ylim[2];
  /// Looked at once the figure is drawn, before it replaces the file of its
  /// name: nonzero drops it (PLOT_STOPPED), the previous file kept. The
  /// program's signal flag (cli_interrupt_flag()); NULL: never.
  const volatile sig_atomic_t *stop;
  /// When not NULL, filled with where the figure put its text, legend and
  /// markers (for tests); NULL: not recorded.
  plot_layout *layout;
} plot_options;

/// 460 x 345, 96 dpi, font scale 1, the figures' own ranges. (Inline: the
/// program, which does not link the module, uses it too.)
static inline plot_options plot_options_default(void) {
  return (plot_options){
      .width = PLOT_WIDTH, .height = PLOT_HEIGHT, .dpi = PLOT_DPI_BASE, .font_scale = 1.0};
}

/// The layout size of a figure drawn with these options: (width, height) *
/// PLOT_DPI_BASE / dpi. NULL options: the defaults.
static inline void plot_layout_size(const plot_options *options, double *width, double *height) {
  const plot_options d = options ? *options : plot_options_default();
  *width = d.width * PLOT_DPI_BASE / d.dpi;
  *height = d.height * PLOT_DPI_BASE / d.dpi;
}

/// The factor on the layout's lengths (fonts, lines, margins, markers) for
/// a figure of layout size width x height: 1 at PLOT_DESIGN_WIDTH x
/// PLOT_DESIGN_HEIGHT, the power of the ratio of geometric-mean sides that
/// makes the 12 px tick text PLOT_DEFAULT_TICK_TEXT at PLOT_WIDTH x
/// PLOT_HEIGHT (about 0.30: text shrinks far slower than the figure, 8.3 pt
/// tick text at 252 x 180).
double plot_size_scale(double width, double height);

/// An sRGB colour, 8 bits per channel.
typedef struct plot_color {
  uint8_t r, g, b;
} plot_color;

/* The palette (fixed: tests compare pixels against it). */
#define PLOT_COLOR_BACKGROUND ((plot_color){255, 255, 255})    ///< white
#define PLOT_COLOR_INK ((plot_color){0, 0, 0})                 ///< axes, text, fixed points
#define PLOT_COLOR_GUIDE ((plot_color){110, 110, 110})         ///< R = phi, G = 1 (dashed)
#define PLOT_COLOR_BREAKPOINT ((plot_color){175, 175, 175})    ///< breakpoints
#define PLOT_COLOR_R ((plot_color){31, 119, 180})              ///< R(phi), blue
#define PLOT_COLOR_G ((plot_color){255, 127, 14})              ///< G(phi), orange
#define PLOT_COLOR_UNSAFE_SHADE ((plot_color){250, 210, 210})  ///< unsafe intervals
#define PLOT_COLOR_SAFE ((plot_color){44, 160, 44})            ///< safe graph nodes, green
#define PLOT_COLOR_UNSAFE ((plot_color){214, 39, 40})          ///< unsafe graph nodes, red
#define PLOT_COLOR_EDGE ((plot_color){60, 60, 60})             ///< graph edges
#define PLOT_COLOR_Z1 ((plot_color){31, 119, 180})             ///< trajectory z1, blue
#define PLOT_COLOR_Z2 ((plot_color){255, 127, 14})             ///< trajectory z2, orange
#define PLOT_COLOR_X2 ((plot_color){44, 160, 44})              ///< trajectory x2, green
#define PLOT_COLOR_EVENT ((plot_color){150, 150, 150})         ///< event ticks
#define PLOT_COLOR_IMPACT ((plot_color){0, 0, 0})              ///< impact ticks

/// Why drawing failed.
typedef enum plot_status {
  PLOT_OK = 0,
  PLOT_ERR_FORMAT,  ///< the file name ends in none of .png, .svg, .pdf
  PLOT_ERR_NOMEM,   ///< out of memory
  PLOT_ERR_WRITE,   ///< the file could not be created or written
  PLOT_STOPPED      ///< plot_options.stop asked to stop: nothing written
} plot_status;

/// Frees cairo's and fontconfig's process-wide font caches (filled by the
/// first figure, otherwise kept until exit and reported by leak checkers).
/// Call once after the last figure, when no plot call is running.
void plot_release_caches(void);

/// One line of text for a status.
const char *plot_status_message(plot_status status);

/// The axis label of a scene path as a paper would print it: a symbol and
/// its unit ("paper.alpha" -> "α [°] (load angle)", "paper.mu2" -> "μ₂",
/// "com.x" -> "centre of mass x [L]"; L, M, T, F: the scene's length, mass,
/// time and force units, dimensionless values without); the path itself
/// when it has none. Python's figures use the same (zeno.plot.AXIS_LABELS).
const char *plot_axis_label(const char *path);

/// True when the file name ends in .png, .svg or .pdf.
bool plot_format_known(const char *path);

/// Where data lands in a figure: the data area [px] and the data ranges.
typedef struct plot_frame {
  double left, top, width, height;  ///< data area, y downwards [px]
  /// Data at the left, right, bottom and top edges (x_min > x_max: x grows
  /// to the left).
  double x_min, x_max, y_min, y_max;
  bool x_log;  ///< x data are log10 of the values the axis shows
  /// The x ticks carry no labels (a panel above another of the same x).
  bool x_labels_hidden;
} plot_frame;

/// Device x coordinate of data x (the pixel column is its floor()).
double plot_frame_x(const plot_frame *frame, double x);
/// Device y coordinate of data y (the pixel row is its floor()).
double plot_frame_y(const plot_frame *frame, double y);

/* ---- the maps figure ------------------------------------------------------ */

/// Upper end of the G axis (which starts at 0) for the largest G: the next
/// tick at or above 1.2 max(G_max, 1), at most 5 (G_max may be -inf: no G
/// at all).
double plot_maps_g_top(double g_max);

/// The frames of the maps figure of layout size width x height (see
/// plot_layout_size()): R over phi on top (both axes (-pi/2, pi/2), or the
/// options' xlim and ylim), G over phi below (0 .. g_top). options may be
/// NULL.
void plot_maps_frames(double width, double height, double g_top, const plot_options *options,
                      plot_frame *r_frame, plot_frame *g_frame);

typedef struct plot_maps_input {
  const char *title;  ///< e.g. "example2: stable (Theorem 4)"
  const zeno_maps *maps;
  const zeno_interval *intervals;  ///< merged partition to shade, or NULL
  size_t interval_count;
  const plot_options *options;  ///< NULL: plot_options_default()
} plot_maps_input;

/// Draws R (dots joined within a cycle word, diagonal dashed, fixed points
/// as circles, filled when convergent) above G (G = 1 dashed), breakpoints
/// as thin vertical lines and unsafe intervals shaded in both panels.
plot_status plot_maps(const char *path, const plot_maps_input *input);

/* ---- the interval graph --------------------------------------------------- */

typedef struct plot_graph_input {
  const char *title;
  /// The graph to draw, as the library built it (zeno_interval_graph_build,
  /// usually merged by zeno_interval_graph_merge); NULL: the figure shows
  /// `note` only.
  const zeno_interval_graph *graph;
  const char *note;             ///< line under the title, or NULL
  const plot_options *options;  ///< NULL: defaults (xlim, ylim unused)
} plot_graph_input;

/// Draws the nodes in a row (labelled with their range; safe green, unsafe
/// red), arcs to the right above the row, to the left below it, and the
/// arcs inside a merged interval as dashed loops.
plot_status plot_graph(const char *path, const plot_graph_input *input);

/* ---- trajectories --------------------------------------------------------- */

typedef struct plot_trajectory_input {
  const char *title;
  size_t count;  ///< rows
  /// The ZOD coordinates q' of the rows: (z1, z2, x2) for two contacts; for
  /// one contact (z1, x1, theta) in the same three arrays; for more, the
  /// three zod_names names.
  const double *t, *z1, *z2, *x2;
  size_t event_count;
  const double *event_t;
  const bool *event_impact;  ///< impacts get taller, darker ticks
  int contact_count;         ///< 1 to ZENO_MAX_CONTACTS: what the arrays hold, their labels
  /// More than two contacts: the names of q''s coordinates in z1, z2, x2
  /// (zeno_scene_zod_names(): gaps "zK" drawn above, slips "xK" and the
  /// tilt "th" below; gaps only: one panel).
  const char (*zod_names)[ZENO_ZOD_NAME_SIZE];
  /// NAN: the abscissa is t. Else the Zeno accumulation time t* [s]: the
  /// abscissa is t* - t on a log scale, decreasing to the right (time still
  /// runs left to right); rows and events at or after t* are left out.
  double accumulation_t;
  const plot_options *options;  ///< NULL: defaults; xlim in the abscissa's units
  /// When not NULL, other quantities along a run than the gaps and slip
  /// (zeno certify's V1 and V2): names[0] and names[1] are the top
  /// panel's series (z1, z2; names[1] NULL: z1 alone, z2 unread), names[2]
  /// the bottom one's (x2), and top_label and bottom_label the panels' axis
  /// labels. contact_count is then not read.
  const char *const *names;
  const char *top_label, *bottom_label;
  /// When not NULL, the mode in force after each row ("FF", "SP"; one
  /// letter for one contact): the time from a row to the next is shaded in
  /// both panels by its mode, and the legend names the modes shaded.
  const char (*mode)[ZENO_MODE_NAME_SIZE];
  /// When not NULL, a remark the legend ends with (its own row when it does
  /// not fit): what the reader should know about the curves (zeno certify:
  /// V2 may rise in free flight).
  const char *note;
} plot_trajectory_input;

/// The axis labels of the trajectory figure: the time, the panels' of two
/// contacts and of one. Lengths and times are in the scene's units, which a
/// scene does not name ("any consistent unit system"): the labels give
/// their dimensions, L (length) and T (time), short enough for the panels
/// of a one-column figure.
#define PLOT_TRAJECTORY_T_LABEL "t [T]"
#define PLOT_TRAJECTORY_GAPS_LABEL "z₁, z₂ [L]"
#define PLOT_TRAJECTORY_SLIP_LABEL "x₂ [L]"
#define PLOT_TRAJECTORY_GAP1_LABEL "z₁ [L]"
#define PLOT_TRAJECTORY_SLIP1_LABEL "x₁ [L]"

/// Most modes a trajectory's bands tell apart (ZENO_MAX_MODES).
#define PLOT_MODE_COLORS ZENO_MAX_MODES

/// The band colour of a mode name of one or two contacts (a light tint;
/// free flight "FF" or "F" white). More contacts' modes take the colours
/// of their place among a figure's modes.
plot_color plot_mode_color(const char *mode);

/// The data areas of a trajectory figure of layout size width x height (see
/// plot_layout_size()): the top panel, the bottom panel and the event strip
/// under the bottom panel's tick labels (left, top, width, height only; the
/// ranges come from the data), below a legend as tall as the input's
/// wraps into. The options are the input's (NULL: the defaults).
void plot_trajectory_layout(const plot_trajectory_input *input, double width, double height,
                            plot_frame *top, plot_frame *bottom, plot_frame *strip);

/// Draws the gaps z1, z2 (top panel) and the slip x2 (bottom panel) against
/// t with a legend, and the events as ticks in a strip of their own under
/// the bottom panel (impacts taller and darker); for one contact the gap z1
/// (top) and the slip x1 (bottom). With modes, the time is shaded by mode.
plot_status plot_trajectory(const char *path, const plot_trajectory_input *input);

/* ---- region maps ---------------------------------------------------------- */

/* Region colours (paper Fig. 8's classes; the paper's printed palette is not
   available in its text, so these are chosen to be told apart in print and
   by colour-blind readers: stable classes green, unstable red/orange,
   ambiguous purple, undecided yellow). */
#define PLOT_COLOR_REGION0 ((plot_color){235, 235, 235})         ///< 0 infeasible, light grey
#define PLOT_COLOR_REGION1 ((plot_color){120, 120, 120})         ///< 1 Painleve, dark grey
#define PLOT_COLOR_REGION2 ((plot_color){26, 152, 80})           ///< 2 stable, Theorem 3
#define PLOT_COLOR_REGION3 ((plot_color){145, 207, 96})          ///< 3 stable, Theorem 4
#define PLOT_COLOR_REGION4 ((plot_color){215, 48, 39})           ///< 4 unstable, persistent
#define PLOT_COLOR_REGION5 ((plot_color){252, 141, 89})          ///< 5 unstable, not persistent
#define PLOT_COLOR_REGION6 ((plot_color){118, 42, 131})          ///< 6 ambiguous
#define PLOT_COLOR_REGION7 ((plot_color){254, 224, 139})         ///< 7 undecided (not simulated)
#define PLOT_COLOR_REGION7_RESTS ((plot_color){255, 255, 191})   ///< 7, every simulation rests
#define PLOT_COLOR_REGION7_DEPARTS ((plot_color){191, 129, 45})  ///< 7, some simulation departs
/// 7, simulations rest or return slowly (stopped by their limits while returning)
#define PLOT_COLOR_REGION7_SLOW ((plot_color){223, 194, 125})
/// 7 with a Lyapunov certificate (regions --certify): stable, by another
/// method than the maps', so blue rather than the maps' greens.
#define PLOT_COLOR_REGION7_CERTIFIED ((plot_color){67, 147, 195})
#define PLOT_COLOR_REGION_ERROR ((plot_color){255, 0, 255})  ///< a point not analysed, magenta
#define PLOT_COLOR_OVERLAY ((plot_color){0, 0, 0})           ///< contact configuration

/// The colour of a point of a region map.
plot_color plot_region_color(const zeno_region_point *point);

typedef struct plot_regions_input {
  const char *title;
  const zeno_region_axis *x, *y;
  const zeno_region_point *grid;  ///< y.count rows of x.count points, row iy at iy * x.count
  /// When not NULL, the contact configuration of this scene (its contacts
  /// with their surfaces and friction cones, a body outline to its centre
  /// of mass and the load direction) is drawn over the map, in the frame of
  /// its com_shift: the picture of Fig. 8a. For com.x / com.y axes.
  const zeno_scene *overlay;
  const plot_options *options;  ///< NULL: defaults; limits in the axes' units
  /// When not NULL, per point as grid: 1 for a point with a Lyapunov
  /// certificate (regions --certify): in region 7 drawn and counted apart
  /// from its simulation classes, elsewhere (--certify-all) a dot over the
  /// region's colour; anything else: no certificate.
  const signed char *certified;
} plot_regions_input;

/// Room for one legend label.
#define PLOT_LEGEND_LABEL_SIZE 96
/// Most rows of a region map's legend: 13 region classes, the certificates'
/// dots and crosses, 5 overlay marks.
#define PLOT_REGIONS_LEGEND_MAX 20

/// The labels of the map's legend rows, top to bottom: regions 0-6 with
/// their counts, region 7's variants and errors when present, then, when
/// the configuration is drawn over the map, one row per mark of the overlay
/// (contact and surface, friction cone, legs, centre of mass, load).
/// Returns the number of rows (at most PLOT_REGIONS_LEGEND_MAX).
size_t plot_regions_legend(const plot_regions_input *input, char labels[][PLOT_LEGEND_LABEL_SIZE]);

/// The data area of the map: the space the legend (as wide as its longest
/// label) leaves, with equal scales on both axes for a com.x / com.y sweep
/// with an overlay; what equal scales leave over is split evenly around
/// the map and its legend, which sits right of the map.
void plot_regions_frame(const plot_regions_input *input, plot_frame *frame);

/// Draws the map as cells coloured by region, a legend of the regions with
/// their counts, and the overlay.
plot_status plot_regions(const char *path, const plot_regions_input *input);

/* ---- outcome sweeps -------------------------------------------------------- */

/// What colours an outcome sweep's cells (the program's sweep --color).
typedef enum plot_sweep_color {
  PLOT_SWEEP_COLOR_OUTCOME = 0,  ///< how the run ended, a legend of classes
  PLOT_SWEEP_COLOR_T,            ///< when it ended [T]
  PLOT_SWEEP_COLOR_IMPACTS,      ///< its impacts
  PLOT_SWEEP_COLOR_ZENO_TIME,    ///< its first Zeno accumulation time [T]
  PLOT_SWEEP_COLOR_X2,           ///< where it rests: x2 (final_zod[2]) [L]
  PLOT_SWEEP_COLORS
} plot_sweep_color;

/// The --color name of a colouring ("outcome", "t", "impacts",
/// "zeno_time", "x2"; the sweep.csv columns they come from); NULL past the
/// end. (Inline: the program, which does not link the module, uses it.)
static inline const char *plot_sweep_color_name(plot_sweep_color color) {
  static const char *const NAMES[PLOT_SWEEP_COLORS] = {"outcome", "t", "impacts", "zeno_time",
                                                       "x2"};
  return (unsigned)color < PLOT_SWEEP_COLORS ? NAMES[color] : NULL;
}

typedef struct plot_sweep_input {
  const char *title;
  const zeno_region_axis *x, *y;
  const zeno_sweep_point *grid;  ///< y.count rows of x.count points, row iy at iy * x.count
  const plot_options *options;   ///< NULL: defaults; limits in the axes' units
  /// NULL: the outcome map; else the basin map: points coloured by
  /// basin_inner in bins of this scan's range.
  const zeno_sweep_basin_def *basin;
  /// Without basin: the outcome classes, or a quantity of each run on a
  /// continuous scale (viridis) with a colour bar; points without a value
  /// (no Zeno completion; not at rest for x2) grey, errors magenta.
  plot_sweep_color color;
} plot_sweep_input;

/// Draws an outcome sweep: one cell per point coloured by how its run ended
/// (rest split into with and without a Zeno completion), and a legend of the
/// outcomes present with their counts. With `basin`, each cell's colour is
/// its basin_inner (the largest magnitude below which every scanned one
/// returns) in PLOT_BASIN_BINS bins from lo to hi, plus "every magnitude
/// returns", "none returns" and errors; a non-monotone point (basin_outer
/// above basin_inner) gets a black dot.
plot_status plot_sweep(const char *path, const plot_sweep_input *input);

/// Bins of the basin map's colour scale.
#define PLOT_BASIN_BINS 6

#endif
