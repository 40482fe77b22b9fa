// Ctrl-C (SIGINT) and SIGTERM for the commands that can stop cleanly:
// `simulate` between events (its run folder dropped whole, the previous
// run kept), `regions`/`sweep` between points (the rows done are
// journaled; the same command resumes), `analyze`, `maps` and `certify`
// while they compute (the library's interrupt, cli_interrupt_hook()), and
// `plot-trajectory` and the viewer's --record and --screenshot while they
// draw (the file dropped, the previous one kept). Other commands, and
// every command before it asks for this, end at once as signals end any
// program.
#ifndef ZENO_CLI_SIGNAL_H
#define ZENO_CLI_SIGNAL_H

#include <signal.h>

#include "zeno/interrupt.h"

/// From now on SIGINT and SIGTERM ask the command to stop
/// (cli_interrupted()) instead of ending the process; a second signal
/// ends it at once.
void cli_signals_cooperate(void);

/// The signal that asked the command to stop (SIGINT, SIGTERM), or 0.
int cli_interrupted(void);

/// The flag itself (the signal, or 0), for a loop of a loaded module that
/// polls it between steps (the viewer's recording: view_options.stop).
const volatile sig_atomic_t *cli_interrupt_flag(void);

/// The library's interrupt (zeno/interrupt.h) on the flag: a call of
/// the library given it stops once a signal asked the command to stop.
zeno_interrupt cli_interrupt_hook(void);

/// The command has computed and is about to write its outputs: from now on
/// SIGINT and SIGTERM are ignored, so that the outputs land all of them or
/// none (writing them takes a moment). Returns CLI_CONTINUE, or
/// CLI_EXIT_INTERRUPTED when a signal came before (nothing to write).
int cli_signals_hold(void);

/// Reports the stop on standard error ("COMMAND: interrupted by SIGINT:
/// WHAT") and returns the exit status, 128 + the signal (130, 143) as
/// shells report a process a signal ended.
int cli_interrupted_exit(const char *command, const char *what);

#endif
