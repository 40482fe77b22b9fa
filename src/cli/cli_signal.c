// SIGINT and SIGTERM as requests to stop (cli_signal.h). The flag is the
// program's, not the library's: the library has no global state, and the
// commands poll the flag between the library's calls.
#include "cli_signal.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "cli_common.h"

/// The signal received, 0 before any. Written by the handler only.
static volatile sig_atomic_t received = 0;

static void on_signal(int signal_number) {
  if (received != 0) {
    // A second signal: the user insists, the process ends at once.
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    return;
  }
  received = signal_number;
}

void cli_signals_cooperate(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;  // reads and writes in progress go on
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGTERM, &action, NULL);
}

int cli_interrupted(void) { return received; }

static bool asked_to_stop(void *user) {
  (void)user;
  return received != 0;
}

zeno_interrupt cli_interrupt_hook(void) { return (zeno_interrupt){asked_to_stop, NULL}; }

int cli_signals_hold(void) {
  // Ignored first (by the whole process: a mask would hold them on this
  // thread only, and OpenMP's idle workers would still take them and set
  // the flag), then asked: a signal from now on changes nothing.
  struct sigaction ignore;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGINT, &ignore, NULL);
  sigaction(SIGTERM, &ignore, NULL);
  return received != 0 ? CLI_EXIT_INTERRUPTED : CLI_CONTINUE;
}

const volatile sig_atomic_t *cli_interrupt_flag(void) { return &received; }

int cli_interrupted_exit(const char *command, const char *what) {
  const int signal_number = received;
  cli_error("%s: interrupted by %s: %s", command, signal_number == SIGTERM ? "SIGTERM" : "SIGINT",
            what);
  return 128 + signal_number;
}
