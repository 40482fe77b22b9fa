/// @file io.h
/// Machine-readable output of runs and analyses: trajectory CSV rows, one
/// JSON object per event (JSON Lines), run summaries, equilibrium reports
/// and stability analyses as JSON, the maps R and G as CSV, scenes as YAML.
///
/// Every writer takes an open stream and writes only to it; nothing is
/// printed on its own. Numbers are written with 17 significant digits so
/// they round-trip exactly; non-finite numbers become JSON `null` (JSON has
/// no NaN or infinity) and CSV `nan`/`inf`. Units are those of the scene
/// (SPEC.md): lengths, times, forces in the scene's consistent units,
/// angles in radians.
///
/// Every writer returns ZENO_OK, or ZENO_ERR_IO when the stream reports a
/// write error (the stream's error indicator is sticky: a stream that
/// failed earlier keeps failing), ZENO_ERR_ARGUMENT for a NULL stream or
/// data; the details go into `error` (may be NULL). Buffered data can still
/// fail at fclose(), which the caller must check.
#ifndef ZENO_IO_H
#define ZENO_IO_H

#include <stdio.h>

#include "zeno/api.h"
#include "zeno/contact_set.h"
#include "zeno/equilibrium.h"
#include "zeno/error.h"
#include "zeno/poincare.h"
#include "zeno/regions.h"
#include "zeno/run_dir.h"
#include "zeno/scene.h"
#include "zeno/sim.h"
#include "zeno/stability.h"
#include "zeno/sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Writes a JSON number: %.17g for finite values, `null` otherwise.
ZENO_API zeno_status zeno_io_json_number(FILE *stream, double value, zeno_error *error);

/// Writes a JSON string literal with its quotes, escaping `"`, `\` and
/// control characters; bytes that are not valid UTF-8 become U+FFFD.
/// NULL is written as `null`.
ZENO_API zeno_status zeno_io_json_string(FILE *stream, const char *text, zeno_error *error);

/// Writes a JSON array of `count` numbers, e.g. `[1, 2.5, null]`.
ZENO_API zeno_status zeno_io_json_numbers(FILE *stream, const double *values, size_t count,
                                          zeno_error *error);

/// Writes a mechanical state as a JSON object with keys "q", "qdot",
/// "zod", "zod_rate", "force" (one (normal, tangential) pair per contact)
/// and "energy".
ZENO_API zeno_status zeno_io_state_json(FILE *stream, const zeno_state *state, int contact_count,
                                        zeno_error *error);

/// The trajectory CSV header line of a two-contact scene (without its
/// newline): time, pose (x, y, theta) and its rates, the zero-order
/// coordinates q' = (z1, z2, x2) and their rates, the mode, each contact's
/// force (normal, tangential), then what the row is (kind: sample, before,
/// after) and the index of its event (zeno_run_dir_row.event).
/// docs/outputs.md lists every column with its unit.
#define ZENO_IO_TRAJECTORY_HEADER                                            \
  "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t," \
  "kind,event"
/// The header of a one-contact scene: q' is then (z1, x1, theta) (gap and
/// slip of the contact, and the zero-order model's own rotation, named
/// zod_theta apart from the pose's theta) and there is one force.
#define ZENO_IO_TRAJECTORY_HEADER_ONE_CONTACT                                  \
  "t,x,y,theta,vx,vy,omega,z1,x1,zod_theta,z1dot,x1dot,zod_thetadot,mode,f1n," \
  "f1t,kind,event"

/// The header of a scene of `contact_count` contacts (one of the two
/// above); NULL for a count other than 1 or 2.
ZENO_API const char *zeno_io_trajectory_columns(int contact_count);

/// Writes the trajectory CSV header line, zeno_io_trajectory_columns()
/// (ZENO_ERR_ARGUMENT for a count other than 1 or 2).
ZENO_API zeno_status zeno_io_trajectory_header(FILE *stream, int contact_count, zeno_error *error);

/// Room for the trajectory header of any scene (zeno_io_trajectory_columns_of()).
#define ZENO_IO_TRAJECTORY_COLUMNS_SIZE 512

/// The trajectory CSV header of a scene, without its newline: for one and
/// two contacts zeno_io_trajectory_columns(); for more, format version 2,
/// the same columns with q''s three coordinates and their rates named by
/// zeno_scene_zod_names() ("z1,z2,z3,z1dot,z2dot,z3dot" for a box in a
/// corner) and one force pair per contact (f1n, f1t, ..., fNn, fNt).
/// ZENO_ERR_ARGUMENT for a NULL argument; the scene's errors otherwise.
ZENO_API zeno_status zeno_io_trajectory_columns_of(const zeno_scene *scene,
                                                   char buffer[ZENO_IO_TRAJECTORY_COLUMNS_SIZE],
                                                   zeno_error *error);

/// Writes zeno_io_trajectory_columns_of() and a newline.
ZENO_API zeno_status zeno_io_trajectory_header_of(FILE *stream, const zeno_scene *scene,
                                                  zeno_error *error);

/// Writes one trajectory CSV row (see the header): its kind by name and
/// its event index as they are in `row`; the forces of the scene's
/// contacts only.
ZENO_API zeno_status zeno_io_trajectory_row(FILE *stream, const zeno_run_dir_row *row,
                                            int contact_count, zeno_error *error);

/// Writes one event as a single JSON line (terminated by '\n') with keys
/// index, t, kind, guard, contact (1-based: zeno_event.contact + 1, or
/// null), mode_before,
/// mode_after, impact (name or null), impulse, impact_outcome (IMPACT events:
/// per contact "S", "P" or "N" when it received an impulse, else null; see
/// zeno_event.impact_letter), before, after, on_section,
/// section_angle (only when on_section), zeno_impacts, zeno_ratio,
/// zeno_error, zeno_period (ZENO events; ratio and period also for a
/// diverging END), outcome (END), consistent_modes (ambiguous END),
/// proof (inconsistent END: zeno_event.refusal as {"of": "mode" or
/// "impact", "refused": [{"mode" or "candidate", "why", "contact"}, ...]}),
/// guard_residual, constraint_drift, tie_margin and near_tie (see
/// zeno_event).
ZENO_API zeno_status zeno_io_event_jsonl(FILE *stream, const zeno_event *event, int contact_count,
                                         zeno_error *error);

/// Writes the header of the flat event table (events.csv): index, t, kind,
/// guard, contact (1-based, as in events.jsonl), mode_before, mode_after,
/// impact, the impulse of each contact (impulse1n, impulse1t, ...), the
/// letter each took after an impact (impact_outcome1, ...), zeno_impacts,
/// zeno_ratio, zeno_error, zeno_period, zeno_order, outcome, tie_margin,
/// near_tie, on_section, section_angle, then the states before and after
/// the event: before_ and after_ followed by the names of the q'
/// coordinates and rates in the trajectory header (before_z1, ...,
/// after_x2dot) and energy (before_energy, after_energy). ZENO_ERR_ARGUMENT for a count other than 1 or 2.
ZENO_API zeno_status zeno_io_events_csv_header(FILE *stream, int contact_count, zeno_error *error);

/// The same header for a scene of any contact count (q''s names as in
/// zeno_io_trajectory_columns_of()).
ZENO_API zeno_status zeno_io_events_csv_header_of(FILE *stream, const zeno_scene *scene,
                                                  zeno_error *error);

/// Writes one event as a row under that header. A field the event does not
/// have is empty, where events.jsonl has null or leaves the member out:
/// contact without one, impact and impact_outcome* unless an impact, the
/// zeno_* fields unless a ZENO event (zeno_ratio and zeno_period also for
/// a diverging END), outcome unless END, section_angle off the section.
/// Booleans are true/false.
ZENO_API zeno_status zeno_io_event_csv(FILE *stream, const zeno_event *event, int contact_count,
                                       zeno_error *error);

/// What a run report is made of (all pointers borrowed).
typedef struct zeno_io_run {
  const zeno_scene *scene;      ///< the scene that ran (name, model, contacts)
  const zeno_summary *summary;  ///< zeno_sim_summary() at the end of the run
  const char *word;             ///< zeno_sim_word() text
  const double *sections;       ///< Poincaré section angles of the run, in order [rad]
  size_t section_count;         ///< entries in sections
  const zeno_event *end;        ///< the END event, NULL when the run has none
  /// zeno_sim_zod_names() of the run; written for more than two contacts
  /// (NULL: "z1", "z2", "x2")
  const char (*zod_names)[ZENO_ZOD_NAME_SIZE];
} zeno_io_run;

/// Writes a run report as one JSON object (no trailing newline) with keys
/// scene, model, status, word, t, events, impacts, zeno_time (null when no
/// Zeno sequence completed), zeno_impacts, final_zod, final_zod_velocity,
/// final_pose, sections, consistent_modes (mode names of an ambiguous
/// end, else empty) and proof (an inconsistent end's, else null; see
/// zeno_io_event_jsonl()). A scene of more than two contacts writes format
/// version 2: the same keys (modes of N letters) and, after
/// final_zod_velocity, "zod_names" (final_zod's coordinates), then
/// "format_version": 2 and "contact_count" at the end. One and two contacts
/// write version 1, without these three keys.
ZENO_API zeno_status zeno_io_run_json(FILE *stream, const zeno_io_run *run, zeno_error *error);

/// Writes an equilibrium report as one JSON object (no trailing newline)
/// with keys scene, feasible, margin, forces, zdd_ff, index_order_ok,
/// index_order_swappable, ambiguous (mode names) and painleve (one
/// {"contact", "mu", "bound", "ok"} object per contact; an infinite bound is
/// null).
ZENO_API zeno_status zeno_io_equilibrium_json(FILE *stream, const zeno_scene *scene,
                                              const zeno_equilibrium_report *report,
                                              zeno_error *error);

/// Writes the static check of a scene of any number of contacts
/// (zeno_contact_set_check() of zeno_contact_set_def_from_scene()) as one
/// JSON object (no trailing newline): scene, contact_count, feasible,
/// margin (null when no force balances the load), wedged, forces (one
/// [normal, tangential] pair per contact), weakly_stable,
/// frictionless_stable, strongly_stable, ambiguous, modes_examined,
/// unstable_mode_count, unstable_modes (names, at most
/// ZENO_CONTACT_SET_MODE_LIST), theorem4_checked, theorem4_systems,
/// theorem4_consistent and weak_implies_strong (0, 0 and false when
/// Theorem 4 was not checked).
/// `zeno check --json` of a scene of more than two contacts.
ZENO_API zeno_status zeno_io_contact_set_json(FILE *stream, const zeno_scene *scene,
                                              const zeno_contact_set_report *report,
                                              zeno_error *error);

/// Writes the result of zeno_analyze() as one JSON object (no trailing
/// newline) with keys scene, verdict ("stable", "unstable", "undecided"),
/// theorem (1-4, null when no theorem decides), region (0-7), reason,
/// persistent, feasible, margin, painleve (as in
/// zeno_io_equilibrium_json()), swapped, samples, breakpoints,
/// fixed_points ({"phi", "G", "slope", "convergent", "limiting"}; a slope
/// that is not known is null), G_max, G_minus, G_plus (null when
/// undefined) and partition: the Theorem 4 partition with consecutive
/// intervals of one class merged, [{"lo", "hi", "safe"}], empty unless the
/// verdict comes from Theorem 4. Without maps (infeasible, Painlevé,
/// ambiguous) the map members are empty or null.
ZENO_API zeno_status zeno_io_analysis_json(FILE *stream, const zeno_scene *scene,
                                           const zeno_analysis *analysis, zeno_error *error);

/// Writes the maps of `zeno maps` (zeno_maps_compute()) as one JSON object
/// (no trailing newline) with the map members of zeno_io_analysis_json()
/// (scene, swapped, samples, breakpoints, fixed_points, G_max, G_minus,
/// G_plus) and points: one {"phi", "R", "G", "word"} per sample in phi
/// order, the rows of zeno_io_maps_csv() (R and G null where the cycle does
/// not return to the section).
ZENO_API zeno_status zeno_io_maps_json(FILE *stream, const zeno_scene *scene, const zeno_maps *maps,
                                       zeno_error *error);

/// Writes the maps R and G as CSV: the header line `phi,R,G,word` and one
/// row per sample in phi order; R and G are empty where the cycle does not
/// return to the section, word is the cycle word (quoted when it holds a
/// comma or a quote).
ZENO_API zeno_status zeno_io_maps_csv(FILE *stream, const zeno_maps *maps, zeno_error *error);
/// The header line of zeno_io_maps_csv(), and one sample's row: the same
/// file written as a zeno_maps_stream hands out its samples.
ZENO_API zeno_status zeno_io_maps_csv_header(FILE *stream, zeno_error *error);
ZENO_API zeno_status zeno_io_maps_csv_row(FILE *stream, const zeno_cycle *cycle, zeno_error *error);

/* ---- scenes ---------------------------------------------------------------- */

/// Writes a scene as a YAML scene file (docs/scenes.md) that
/// zeno_scene_load_string() reads back into the identical scene, field for
/// field and bit for bit, for every scene the loader produces (a name that
/// is not valid UTF-8 excepted: its bad bytes become U+FFFD). Every key is
/// written, its default or not. The paper form is kept when the scene's
/// paper block still expands into its body, contacts and load (else the
/// general form is written); angles are written in degrees and points in
/// the scene frame with `com`, each as the number that the loader turns
/// into exactly the stored value; other numbers in their shortest form that
/// reads back to the same double. The C locale is used whatever the
/// caller's.
ZENO_API zeno_status zeno_io_scene_yaml(FILE *stream, const zeno_scene *scene, zeno_error *error);

/* ---- output files --------------------------------------------------------- */

/// "dir/name", newly allocated (free()); NULL when out of memory.
ZENO_API char *zeno_io_path_join(const char *dir, const char *name);

/// The folder a file path names: the part before its last '/', "/" for a
/// file at the root, "." when it names none; newly allocated (free()),
/// NULL when out of memory or for NULL.
ZENO_API char *zeno_io_path_folder(const char *path);

/// Creates a directory and its missing parents (mkdir -p); an existing
/// directory is fine. ZENO_ERR_IO: "cannot create directory 'DIR': reason".
ZENO_API zeno_status zeno_io_make_directories(const char *dir, zeno_error *error);

/// An output file written aside: an opaque handle whose stream writes a
/// temporary file `DIR/.NAME.XXXXXX` (created exclusively, so a link planted
/// in the directory is never followed) that zeno_io_output_commit() renames
/// to `DIR/NAME` (replacing a link there, not writing through it). A run
/// that stops half way leaves the previous file, never a half-written one.
/// The temporary file is held under an exclusive flock() until it is
/// renamed or removed; opening an output first removes the stale
/// temporaries of NAME that killed writers left (the same pattern, regular,
/// this user's, not locked by a live process: docs/outputs.md).
typedef struct zeno_io_output zeno_io_output;

/// Opens the temporary file of DIR/NAME (NAME without '/'). NULL and
/// ZENO_ERR_IO ("cannot create 'DIR/NAME': reason") on failure, and when
/// DIR/NAME is there but neither a regular file nor a link (a device, a
/// FIFO, a directory: never replaced).
ZENO_API zeno_io_output *zeno_io_output_open(const char *dir, const char *name, zeno_error *error);

/// zeno_io_output_open() of a path: its folder ("." when it names none)
/// and its file name. ZENO_ERR_ARGUMENT for a path that ends in '/'.
ZENO_API zeno_io_output *zeno_io_output_open_path(const char *path, zeno_error *error);

/// An output a run does not produce: committed with the others
/// (zeno_io_output_commit_all()), it removes DIR/NAME, a file or a link an
/// earlier run left there (nothing when there is none), so that the folder
/// holds the files of one run only; a failing write of the others leaves it
/// in place. Refused like zeno_io_output_open(): a name that is not a
/// file, a link or absent. Its stream is NULL.
ZENO_API zeno_io_output *zeno_io_output_open_removal(const char *dir, const char *name,
                                                     zeno_error *error);

/// The stream to write to (NULL for a removal).
ZENO_API FILE *zeno_io_output_stream(const zeno_io_output *output);

/// Flushes and syncs the file, renames it into place and frees the handle.
/// A write error (the stream's indicator, a failing flush, sync, close or
/// rename) removes the temporary file: ZENO_ERR_IO "cannot write
/// 'DIR/NAME': reason".
ZENO_API zeno_status zeno_io_output_commit(zeno_io_output *output, zeno_error *error);

/// Commits the files of a folder together: each is flushed, synced and
/// closed first, and only when every one was written whole are they
/// renamed into place, in their order; a write error drops every file
/// aside (the folder keeps each previous file) with the error of
/// zeno_io_output_commit() naming the file. NULL entries are skipped;
/// every handle is freed, whatever the result.
ZENO_API zeno_status zeno_io_output_commit_all(zeno_io_output *const *outputs, size_t count,
                                               zeno_error *error);

/// Drops the temporary file and frees the handle; NULL is accepted.
ZENO_API void zeno_io_output_discard(zeno_io_output *output);

/// The lock of an output directory (an advisory flock() on the directory
/// itself): one writer at a time, released by zeno_io_dir_lock_release()
/// or when the process ends.
typedef struct zeno_io_dir_lock zeno_io_dir_lock;

/// Takes the lock of an existing directory without waiting. NULL and
/// ZENO_ERR_IO when another process holds it ("'DIR' is in use by another
/// zeno run writing there; ...") or the directory cannot be opened.
ZENO_API zeno_io_dir_lock *zeno_io_dir_lock_take(const char *dir, zeno_error *error);

/// Releases the lock; NULL is accepted.
ZENO_API void zeno_io_dir_lock_release(zeno_io_dir_lock *lock);

/* ---- region maps ---------------------------------------------------------- */

/// Writes the header of a region table: "ix,iy,XPATH,YPATH,region,
/// region_name,theorem,verdict,persistent,G_max,fixed_point_phi,
/// fixed_point_G,fixed_points,partition,unsafe,mc_runs,mc_rest,
/// mc_full_runs,mc_full_rest,sim,on_breakpoint,error" with the axes' scene
/// paths as the names of the value columns. region_name is
/// zeno_region_name() (CSV quoted: the names hold commas); theorem is
/// empty when no theorem decides (zeno_region_point.theorem 0; JSON null).
/// An error row has region -1 (ZENO_REGION_ERROR) and its message in
/// `error` (CSV quoted when needed); `error` is empty for the others and
/// stays the last column.
ZENO_API zeno_status zeno_io_regions_header(FILE *stream, const zeno_region_axis *x,
                                            const zeno_region_axis *y, zeno_error *error);

/// Writes one point as a row under that header (verdict and sim by name,
/// persistent 0/1, NaN witnesses as `nan`).
ZENO_API zeno_status zeno_io_region_row(FILE *stream, const zeno_region_point *point,
                                        zeno_error *error);

/// Reads a row written by zeno_io_region_row() (with or without its
/// newline) back into *point, exactly (numbers round-trip). Returns
/// ZENO_ERR_SYNTAX naming the first bad field (a region_name that is not
/// its region's, a theorem that is neither empty nor 1-4, among others).
ZENO_API zeno_status zeno_io_region_parse(const char *line, zeno_region_point *point,
                                          zeno_error *error);

/* ---- outcome sweeps --------------------------------------------------------- */

/// Writes the header of a sweep table: "ix,iy,XPATH,YPATH,outcome,t,events,
/// impacts,zeno,zeno_time," then q' at the end ("z1,z2,x2"; one contact:
/// "z1,x1,zod_theta"), "energy_gains,", with a basin estimate
/// (def->basin.count > 0) "basin_inner,basin_outer,basin_width,
/// basin_returns,basin_transitions,", and "error" last.
ZENO_API zeno_status zeno_io_sweep_header(FILE *stream, const zeno_sweep_def *def,
                                          int contact_count, zeno_error *error);

/// The same header for a scene of any contact count: q''s names by
/// zeno_scene_zod_names() for more than two contacts ("z1,z2,z3" for a box
/// in a corner).
ZENO_API zeno_status zeno_io_sweep_header_of(FILE *stream, const zeno_sweep_def *def,
                                             const zeno_scene *scene, zeno_error *error);

/// Writes one point as a row under that header (outcome by name, zeno 0/1,
/// NaN as an empty field). A point that was not simulated has every field
/// but ix, iy, the axis values and its error empty.
ZENO_API zeno_status zeno_io_sweep_row(FILE *stream, const zeno_sweep_def *def,
                                       const zeno_sweep_point *point, zeno_error *error);

/// Reads a row written by zeno_io_sweep_row() with the same def back into
/// *point, exactly. ZENO_ERR_SYNTAX names the first bad field.
ZENO_API zeno_status zeno_io_sweep_parse(const char *line, const zeno_sweep_def *def,
                                         zeno_sweep_point *point, zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
