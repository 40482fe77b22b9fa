// The progress line of a batch command's long phases (grid_progress.h).
#include "grid_progress.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/cli_common.h"

/// "1h02m", "3m05s" or "42s".
static void format_duration(double seconds, char *out, size_t size) {
  if (!isfinite(seconds) || seconds < 0) seconds = 0;
  const long s = lround(seconds);
  if (s >= 3600) snprintf(out, size, "%ldh%02ldm", s / 3600, (s / 60) % 60);
  else if (s >= 60) snprintf(out, size, "%ldm%02lds", s / 60, s % 60);
  else snprintf(out, size, "%lds", s);
}

void grid_progress_start(grid_progress *p, const char *command, const char *unit, long total,
                         bool wanted) {
  *p = (grid_progress){.command = command,
                       .unit = unit,
                       .total = total,
                       .start = cli_seconds(),
                       .shown = wanted && isatty(STDERR_FILENO)};
  p->last = p->start;
}

static void draw(grid_progress *p, long done, bool final) {
  if (!p->shown) return;
  const double t = cli_seconds();
  if (!final && t - p->last < GRID_PROGRESS_INTERVAL) return;
  p->last = t;
  const double elapsed = t - p->start;
  const double rate = elapsed > 0 ? (double)done / elapsed : 0;
  char eta[32];
  format_duration(rate > 0 ? (double)(p->total - done) / rate : 0, eta, sizeof eta);
  fprintf(stderr, "\rzeno: %s: %ld/%ld %s (%.1f%%), %.0f %s/s, %s left   ", p->command, done,
          p->total, p->unit, p->total ? 100.0 * (double)done / (double)p->total : 100.0, rate,
          p->unit, eta);
  if (final) fputc('\n', stderr);
  fflush(stderr);
}

void grid_progress_draw(grid_progress *p, long done) { draw(p, done, false); }

void grid_progress_finish(grid_progress *p, long done) { draw(p, done, true); }

void grid_progress_break(const grid_progress *p) {
  if (p->shown) fputc('\n', stderr);
}
