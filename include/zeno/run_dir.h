/// @file run_dir.h
/// The run directory: what `zeno simulate SCENE --out DIR` writes, and what
/// `zeno replay DIR`, `zeno plot-trajectory DIR` and the viewer read back.
/// One home for its file names, its sampling rule, its writer and its
/// reader:
///   trajectory.csv  zeno_io_trajectory_columns() (one header for two
///                   contacts, another for one), then one row per state:
///                   the dense-output samples at the multiples of the
///                   scene's sample_dt strictly between two events, and the
///                   states just before and just after every event, in time
///                   order; each row says which (kind) and of which event
///   events.jsonl    one zeno_io_event_jsonl() line per event
///   events.csv      the same events flat, one zeno_io_event_csv() row each
///                   (for spreadsheets and pandas)
///   scene.yaml      the bytes of the scene file the run loaded
///   overrides.txt   the `--set` overrides the run applied, one per line
///   digest.sha256   the SHA-256 of each of the files above, one
///                   "HEX  NAME" line each (sha256sum's format), written
///                   last; runs of zeno 0.1 before it have none
///
/// Results: zeno_run_dir_data is a caller-owned struct (free it with
/// zeno_run_dir_data_free()); zeno_run_dir_writer is an opaque handle
/// (create, write events, close). Numbers are written with 17 significant
/// digits, so rows and events read back equal the ones written, bit for bit.
#ifndef ZENO_RUN_DIR_H
#define ZENO_RUN_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/mode.h"
#include "zeno/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The longest override a run directory keeps, and the largest
/// overrides.txt read back.
#define ZENO_RUN_DIR_OVERRIDE_MAX 4096
#define ZENO_RUN_DIR_OVERRIDES_MAX_BYTES (256 * (ZENO_RUN_DIR_OVERRIDE_MAX + 1))

/// The most bytes a run directory's trajectory.csv, events.jsonl or
/// events.csv may hold (1 GiB, some three million trajectory rows): the
/// readers refuse a larger file, and the writer stops a run before one of
/// its files grows that far (ZENO_ERR_RANGE naming solver.sample_dt: a
/// tiny sample_dt wrote 250 MB in 1.5 s).
#define ZENO_RUN_DIR_MAX_BYTES 1073741824LL

/// The most bytes of a trajectory.csv row: 17 numbers of at most 24
/// characters, a mode, a kind, an event index and the commas come to under
/// 480.
#define ZENO_RUN_DIR_ROW_MAX_BYTES 512
/// The most rows a run's trajectory may hold: as many as fit in
/// ZENO_RUN_DIR_MAX_BYTES at the longest row, 2,097,152 (some 300 MB as
/// zeno_run_dir_row in memory). One rule for every caller: the writer
/// (`simulate --out`) and zeno_run_dir_record() (Python's Run.trajectory,
/// the viewer) refuse a run whose samples every solver.sample_dt, with the
/// rows before and after each event, would pass it, before writing or
/// allocating them: ZENO_ERR_RANGE naming solver.sample_dt and the rows
/// the run would take by then.
#define ZENO_RUN_DIR_MAX_ROWS (ZENO_RUN_DIR_MAX_BYTES / ZENO_RUN_DIR_ROW_MAX_BYTES)

/// File names inside a run directory.
#define ZENO_RUN_DIR_TRAJECTORY "trajectory.csv"
#define ZENO_RUN_DIR_EVENTS "events.jsonl"
#define ZENO_RUN_DIR_EVENTS_CSV "events.csv"
#define ZENO_RUN_DIR_SCENE "scene.yaml"
#define ZENO_RUN_DIR_OVERRIDES "overrides.txt"
#define ZENO_RUN_DIR_DIGEST "digest.sha256"

/// What a row of trajectory.csv is (its `kind` column).
typedef enum zeno_run_dir_row_kind {
  ZENO_ROW_SAMPLE = 0,  ///< a dense-output sample between two events
  ZENO_ROW_BEFORE,      ///< the state just before an event
  ZENO_ROW_AFTER        ///< the state just after an event
} zeno_run_dir_row_kind;

/// "sample", "before", "after"; "unknown" for another value.
ZENO_API const char *zeno_run_dir_row_kind_name(zeno_run_dir_row_kind kind);

/// One row of trajectory.csv.
typedef struct zeno_run_dir_row {
  double t;            ///< [time]
  double q[3];         ///< (x, y, theta) displacement from the nominal pose
  double qdot[3];      ///< (vx, vy, omega)
  double zod[3];       ///< (z1, z2, x2), or (z1, x1, theta) for one contact: zeno_state.zod
  double zod_rate[3];  ///< their rates
  zeno_mode mode;      ///< mode in force after this instant
  double force[ZENO_MAX_CONTACTS][2];  ///< (normal, tangential) [force]; 0 for a missing contact
  zeno_run_dir_row_kind kind;          ///< a sample, or the state before or after an event
  /// The event's index (zeno_event.index, 0 for START): the event whose
  /// state the row is (before, after), or the next event (a sample leads
  /// to it); -1 for a row of a state alone (zeno_run_dir_row_from_state()).
  long event;
} zeno_run_dir_row;

/// What a reader gets of one line of events.jsonl.
typedef struct zeno_run_dir_event {
  long index;  ///< 0 for START
  zeno_event_kind kind;
  zeno_guard guard;
  int contact;  ///< 0-based contact whose guard fired, -1 if none
  double t;     ///< [time]; NaN where the file holds null
  zeno_mode mode_before;
  zeno_mode mode_after;
  unsigned impact_mask;                  ///< IMPACT: bit i set when contact i received an impulse
  double impulse[ZENO_MAX_CONTACTS][2];  ///< (normal, tangential) [force*time]
  zeno_outcome outcome;                  ///< END events; RUNNING for the others
} zeno_run_dir_event;

/// A run's rows and events in memory, in the order of the files.
typedef struct zeno_run_dir_data {
  int contact_count;  ///< of the scene (rows and events spell modes with it)
  zeno_run_dir_row *rows;
  size_t row_count, row_capacity;
  zeno_run_dir_event *events;
  size_t event_count, event_capacity;
  /// Sample times the simulator's dense output could not serve (recording
  /// only; they are left out of the rows, as the writer leaves them out).
  size_t skipped_samples;
  /// zeno_run_dir_read(): the files matched the directory's digest.sha256;
  /// false for a run of an older zeno, which has none (read with the other
  /// checks only).
  bool digest_checked;
  /// zeno_run_dir_read_trajectory() of more than two contacts: the names of
  /// the rows' q' coordinates (zod) from the header, as
  /// zeno_scene_zod_names() gives them ("z1", "z2", "x3"); empty strings
  /// for one and two contacts, whose q' is fixed (zeno_state.zod).
  char zod_names[3][ZENO_ZOD_NAME_SIZE];
} zeno_run_dir_data;

/// The row of a state alone: kind ZENO_ROW_SAMPLE, event -1 (set both
/// before writing it: zeno_run_dir_record() and the writer do).
ZENO_API zeno_run_dir_row zeno_run_dir_row_from_state(const zeno_state *state);

/// The record of an event (impact_mask is 0 unless it is an IMPACT).
ZENO_API zeno_run_dir_event zeno_run_dir_event_from_event(const zeno_event *event);

/// Appends to `data` what the run directory holds of the next event of a
/// run: the samples since the previous recorded event (dense output of
/// `sim`: call it after each event), the states just
/// before and after the event (rows with their kind and the event's
/// index), and the event. Start with a zeroed `data`
/// whose contact_count is the scene's. The simulator's interrupt
/// (zeno_sim_def.interrupt) is asked every 1024 samples. Errors: ZENO_ERR_ARGUMENT, ZENO_ERR_NOMEM,
/// ZENO_ERR_INTERRUPTED and ZENO_ERR_RANGE (the rows would pass
/// ZENO_RUN_DIR_MAX_ROWS: checked before any is added), the data keeping
/// what it had.
ZENO_API zeno_status zeno_run_dir_record(zeno_run_dir_data *data, const zeno_sim *sim,
                                         const zeno_event *event, zeno_error *error);

/// Frees the rows and events and empties the data; NULL is accepted.
ZENO_API void zeno_run_dir_data_free(zeno_run_dir_data *data);

/* ---- writing ------------------------------------------------------------- */

/// Opaque writer of a run directory.
typedef struct zeno_run_dir_writer zeno_run_dir_writer;

/// Creates `dir` (with its parents), takes its lock (a second writer of the
/// same directory is refused, ZENO_ERR_IO), removes the hidden temporaries
/// a killed writer left there, and starts trajectory.csv and events.csv
/// (headers written) and events.jsonl for a run of `scene` (one or two
/// contacts), sampled every scene->sample_dt. Every file of the run, the
/// scene's too, is written aside and renamed into place only by
/// zeno_run_dir_writer_close(), all together, the scene last
/// (zeno_io_output: never through a link planted in the directory);
/// zeno_run_dir_writer_discard() drops them all, the folder's previous run
/// kept whole. Returns NULL and fills error on failure.
ZENO_API zeno_run_dir_writer *zeno_run_dir_writer_create(const char *dir, const zeno_scene *scene,
                                                         zeno_error *error);

/// Keeps the run's scene: scene.yaml holds `text` (the scene file's bytes
/// as the run read them, zeno_scene_read_file(); a scene file inside the
/// run directory, a link or a pipe is read once and survives) and
/// overrides.txt the overrides, one per line. An override that is not one
/// line of printable text of at most ZENO_RUN_DIR_OVERRIDE_MAX characters
/// cannot be kept (ZENO_ERR_RANGE).
ZENO_API zeno_status zeno_run_dir_writer_save_scene(zeno_run_dir_writer *writer, const char *text,
                                                    size_t length, const char *const *overrides,
                                                    size_t override_count, zeno_error *error);

/// Writes one event of the run: the samples since the previous event (the
/// sampling rule of zeno_run_dir_record()), the rows before and after it,
/// its events.jsonl line and its events.csv row. ZENO_ERR_IO names the
/// file; ZENO_ERR_RANGE (naming solver.sample_dt) when a file would grow
/// past ZENO_RUN_DIR_MAX_BYTES. After an error, discard the writer.
ZENO_API zeno_status zeno_run_dir_writer_event(zeno_run_dir_writer *writer, const zeno_sim *sim,
                                               const zeno_event *event, zeno_error *error);

/// Sample times so far that the dense output could not serve (left out).
ZENO_API size_t zeno_run_dir_writer_skipped(const zeno_run_dir_writer *writer);

/// Closes the files and renames them into place, the scene last (a failing
/// close is a write error: ZENO_ERR_IO naming the file, which is dropped
/// with every file not yet renamed), releases the directory and frees the
/// writer; NULL is accepted (ZENO_OK).
ZENO_API zeno_status zeno_run_dir_writer_close(zeno_run_dir_writer *writer, zeno_error *error);

/// Drops every file of the run unwritten (a run that failed or was
/// interrupted): the directory keeps its previous run as it was. Releases
/// the directory and frees the writer; NULL is accepted.
ZENO_API void zeno_run_dir_writer_discard(zeno_run_dir_writer *writer);

/* ---- reading ------------------------------------------------------------- */

/// Reads trajectory.csv at `path` into data->rows (appending). The header
/// says the number of contacts: a zero contact_count is taken from it, a
/// set one must agree. Errors carry the file, line and column: ZENO_ERR_IO
/// (cannot open or read), ZENO_ERR_SYNTAX (not a header of
/// zeno_io_trajectory_columns(), including the header written before the
/// kind and event columns existed, which the message names; a malformed
/// row, time or event index going back, no rows), ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_run_dir_read_trajectory(const char *path, zeno_run_dir_data *data,
                                                  zeno_error *error);

/// Reads events.jsonl at `path` into data->events (appending): each line a
/// JSON object with at least index, t, kind, mode_before, mode_after,
/// impact and impulse, and outcome on an END event; members may come in any
/// order and spacing. Errors as for the trajectory (ZENO_ERR_SYNTAX names
/// the member), and no events at all is one.
ZENO_API zeno_status zeno_run_dir_read_events(const char *path, zeno_run_dir_data *data,
                                              zeno_error *error);

/// Checks rows and events read from the run directory `dir` (its name is
/// for messages) against each other and, when `scene` is not NULL, against
/// the run's scene (rebuilt from DIR/scene.yaml and DIR/overrides.txt):
/// events numbered 0, 1, ... one a line, the first the start and the last
/// the end (a file cut at a line boundary has lost it), times finite and
/// never going back, contacts in 1..contact_count; each row of an event of
/// the file, in the writer's order (the event's samples strictly between
/// its time and the previous event's, then its states before and after at
/// its time), every event with its rows; the scene's contact count, and its
/// start event and state (the simulator's first event) as the first event
/// and rows hold them, within a relative 1e-9 (another machine's libm; the
/// numbers themselves read back exactly). ZENO_ERR_SYNTAX naming the file
/// and line; the scene's errors as zeno_sim_create() reports them.
ZENO_API zeno_status zeno_run_dir_verify(const char *dir, const zeno_run_dir_data *data,
                                         const zeno_scene *scene, zeno_error *error);

/// Reads and verifies the run directory `dir`: first its files against
/// DIR/digest.sha256 (each listed file's SHA-256; a file of the run the
/// digest does not list is another run's), then trajectory.csv and
/// events.jsonl, then zeno_run_dir_verify() with the run's scene when the
/// directory holds scene.yaml. A directory without digest.sha256 (a run of
/// an older zeno; digest_checked false) is read with the other checks only,
/// as is one whose digest was deleted: the digest guards against files
/// changed, cut, mixed or replaced, not against a deliberate forger, who
/// could as well write a new digest. Errors name the file (and the line
/// and column where there is one). On failure `data` is freed.
ZENO_API zeno_status zeno_run_dir_read(const char *dir, zeno_run_dir_data *data, zeno_error *error);

/// Reads dir/overrides.txt: *overrides becomes a new array of *count new
/// strings (free with zeno_run_dir_overrides_free()), blank lines left
/// out. ZENO_DONE with none when the file does not exist (a run saved
/// without it). Errors: ZENO_ERR_SYNTAX naming the line that is not an
/// override (no '=', control characters, longer than
/// ZENO_RUN_DIR_OVERRIDE_MAX), ZENO_ERR_IO (a FIFO or a device under the
/// name too, refused at once), ZENO_ERR_RANGE (a larger file
/// than ZENO_RUN_DIR_OVERRIDES_MAX_BYTES), ZENO_ERR_NOMEM.
ZENO_API zeno_status zeno_run_dir_read_overrides(const char *dir, char ***overrides, size_t *count,
                                                 zeno_error *error);

/// Reads dir/scene.yaml's text (free with free()), as zeno_scene_read_file()
/// reads a scene (at most ZENO_SCENE_MAX_BYTES, no NUL byte), but of a
/// regular file only, as every file of a run directory: a FIFO or a device
/// under the name is refused at once (ZENO_ERR_IO), where opening it
/// blocked for ever. ZENO_DONE with *text NULL when the file does not exist.
ZENO_API zeno_status zeno_run_dir_read_scene(const char *dir, char **text, size_t *length,
                                             zeno_error *error);

/// Frees what zeno_run_dir_read_overrides() returned; NULL is accepted.
ZENO_API void zeno_run_dir_overrides_free(char **overrides, size_t count);

#ifdef __cplusplus
}
#endif
#endif
