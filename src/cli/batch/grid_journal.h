// The journal of a grid run with --out DIR (`zeno regions`, `zeno sweep`;
// grid_rows.h): DIR/NAME.journal holds the run's signature (a SHA-256 of the
// scene text as read, the overrides, the axes and settings, and the zeno
// version) on its first line, then every finished row as table rows (the
// command's CSV rows) closed by a line "done,ROW", each line behind the
// checksum of its text. A killed run restarted with the same command reads
// the finished rows back and appends the rest; a row cut short by the kill,
// or a line edited or appended by hand (its checksum fails), is dropped
// with what follows it and recomputed. While a run goes on it holds the
// directory's lock: a second run into the same --out is refused.
#ifndef ZENO_CLI_GRID_JOURNAL_H
#define ZENO_CLI_GRID_JOURNAL_H

#include <stdio.h>

#include "cli/cli_common.h"

/// Room for a run's signature: a SHA-256 in hex.
#define GRID_SIGNATURE_SIZE 65

/// How a command's points are journaled.
typedef struct grid_journal_format {
  const char *command;  ///< for messages: "regions"
  const char *name;     ///< the file in DIR: "regions.journal"
  const char *magic;    ///< the first line, before the signature
  size_t point_size;    ///< bytes of a point
  size_t nx, rows;      ///< points per row, rows
  /// Writes the point of row `row` as one line (its newline included).
  zeno_status (*write)(FILE *f, const void *point, size_t row, const void *context);
  /// Reads a line (without its newline) into *point: false when it is not
  /// a point of this grid; else *ix and *row are the point's.
  bool (*read)(const char *text, void *point, size_t *ix, size_t *row, const void *context);
  const void *context;  ///< given to write and read
} grid_journal_format;

/// A journal file: a header line (a magic text and the run's signature),
/// then lines of text each behind the checksum of its text. The journal of
/// rows below and that of `regions --certify`'s certificates
/// (regions_certify.h) follow its rules: a line cut short at the end (a
/// kill) is dropped quietly; a line that fails its checksum (edited or
/// appended by hand) is dropped with everything after it, and a note names
/// the file and the line; a header of another run is refused.
typedef struct journal_lines {
  const char *command;    ///< for messages: "regions"
  const char *other_run;  ///< "'PATH' belongs to OTHER_RUN": "another sweep (...)"
  const char *redo;       ///< the note's end: "the sweep recomputes from there"
  /// --overwrite: a journal of another run is begun again, not refused
  /// (its run's outputs stay until this run commits its own).
  bool overwrite;
  FILE *file;  ///< open for reading and appending, NULL before open
  char *path;  ///< DIR/NAME
  long line;   ///< the number of the last line read (the header's is 1)
  long keep;   ///< bytes of the file to keep: up to the last line accepted
} journal_lines;

/// Opens DIR/NAME, never through a link (the caller holds DIR's lock). A
/// new file, or one that holds no more than this header cut short, gets
/// the header and *created is set; else the header must be MAGIC SIG
/// (another run's is refused: CLI_EXIT_USAGE, or with journal->overwrite
/// begun again as a new one) and the lines follow.
/// Returns CLI_CONTINUE or an exit code (reported); close it either way.
int journal_lines_open(journal_lines *journal, const char *dir, const char *name, const char *magic,
                       const char *sig, bool *created);

/// Reads the next line into `line` (size bytes): its text, without the
/// checksum and the newline, or NULL at the end and at the first line that
/// fails its checksum.
char *journal_lines_next(journal_lines *journal, char *line, size_t size);

/// Keeps every line read so far.
void journal_lines_accept(journal_lines *journal);

/// Drops what follows the last line kept and makes the file ready for
/// appending. Returns CLI_CONTINUE or CLI_EXIT_RUNTIME (reported).
int journal_lines_truncate(journal_lines *journal);

/// Appends a line (text without a newline) behind its checksum; then
/// journal_lines_flush() writes it out.
void journal_lines_put(journal_lines *journal, const char *text);
int journal_lines_flush(journal_lines *journal);

/// Closes the file; a failing close turns CLI_EXIT_OK into
/// CLI_EXIT_RUNTIME (reported). Returns the resulting code.
int journal_lines_close(journal_lines *journal, int code);

typedef struct grid_journal {
  const grid_journal_format *format;
  journal_lines lines;     ///< DIR/NAME
  zeno_io_dir_lock *lock;  ///< DIR's lock, held until close
} grid_journal;

/// Everything that decides the points' results, digested: `settings` (the
/// zeno version, axes and options, as the command spells them), the scene
/// file's text as read (once: a pipe works) and the overrides, each with
/// its length, none cut short. A journal is reused only by a run with the
/// same signature. Returns CLI_CONTINUE, or CLI_EXIT_RUNTIME (reported)
/// when nettle, which computes it, cannot be loaded (zeno/sha256.h).
int grid_journal_signature(const char *settings, const char *scene_text, size_t scene_length,
                           const cli_overrides *overrides, char out[GRID_SIGNATURE_SIZE]);

/// Creates DIR (with parents), takes its lock (another run writing there is
/// refused: CLI_EXIT_RUNTIME) and opens DIR/NAME, never through a link. An
/// existing journal with this signature is resumed: its finished rows are
/// copied into grid (row r at r * nx points) with done[r] set,
/// *resumed_rows counts them. One of another run is refused
/// (CLI_EXIT_USAGE), or with `overwrite` (--overwrite) begun again. Returns CLI_CONTINUE or an exit code (reported).
int grid_journal_open(grid_journal *journal, const grid_journal_format *format, const char *dir,
                      const char *signature, bool overwrite, void *grid, unsigned char *done,
                      size_t *resumed_rows);

/// Appends finished row `row` (nx points) and flushes it to the file.
/// Returns CLI_CONTINUE or CLI_EXIT_RUNTIME (reported).
int grid_journal_append(grid_journal *journal, size_t row, const void *points);

/// Closes the journal and releases the directory; a failing close turns
/// CLI_EXIT_OK into CLI_EXIT_RUNTIME (reported). Returns the resulting code.
int grid_journal_close(grid_journal *journal, int code);

#endif
