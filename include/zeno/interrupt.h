/// @file interrupt.h
/// Stopping a long call early: the caller's question "should this call
/// stop now?", asked by the library between events of a run, samples of the
/// maps, points of a region map or sweep, and Monte-Carlo runs.
///
/// The one place where the library calls back: a run, a map or a sweep is
/// a single call that can last minutes, and a caller (a Ctrl-C in Python,
/// a SIGINT in the program) must be able to end it without waiting. The
/// question is a plain function and a user pointer, carried by the call's
/// settings (zeno_sim_def, zeno_maps_def, zeno_regions_def,
/// zeno_sweep_def); there is no global state. A call stopped by it returns
/// ZENO_ERR_INTERRUPTED and leaves no partial result: its outputs are
/// empty (nothing to free), or for a simulator, as before the event it was
/// asked for.
#ifndef ZENO_INTERRUPT_H
#define ZENO_INTERRUPT_H

#include <stdbool.h>

#include "zeno/api.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns true when the call should stop. Called only on the thread that
/// made the call (worker threads of a row or a map see its answer, never
/// call it), as often as every event or sample: it should cost little
/// (time itself and look further only every few milliseconds), and once it
/// has said true it should keep saying so until the call returns, since the
/// library may ask again on its way out.
typedef bool (*zeno_interrupt_fn)(void *user);

/// A question and its user pointer. Zero-initialised (the settings'
/// defaults): never stops.
typedef struct zeno_interrupt {
  zeno_interrupt_fn check;  ///< NULL: never stop
  void *user;               ///< passed to check, owned by the caller
} zeno_interrupt;

#ifdef __cplusplus
}
#endif
#endif
