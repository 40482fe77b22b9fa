/// @file warnings.h
/// One sanity pass over a scene for every command and for Python: what a
/// scene may legally say but most likely does not mean (an angle in
/// radians typed into a degrees field), and an equilibrium that leaves the
/// paper's assumptions at the start (infeasible, ambiguous, exposed to
/// Painlevé's paradox). Warnings never refuse a scene: the commands print
/// them on standard error and list them in --json as "warnings"; Python
/// raises them with warnings.warn.
#ifndef ZENO_WARNINGS_H
#define ZENO_WARNINGS_H

#include <stddef.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a warning is about.
typedef enum zeno_warning_kind {
  /// A nonzero angle below ZENO_WARNING_RADIANS_BELOW degrees: most likely
  /// a value in radians typed into a degrees field.
  ZENO_WARNING_RADIANS = 0,
  /// No contact forces inside the friction cones hold the body at rest at
  /// its equilibrium (zeno check: infeasible): it cannot stay there.
  ZENO_WARNING_INFEASIBLE,
  /// Modes other than rest are consistent at zero velocity (Theorem 1):
  /// the equilibrium is not finite-time Lyapunov stable, whatever follows.
  ZENO_WARNING_AMBIGUOUS,
  /// A friction coefficient at or above its Painlevé bound (11): slipping
  /// on that contact may have no consistent mode (the run may end
  /// `inconsistent`).
  ZENO_WARNING_PAINLEVE
} zeno_warning_kind;

/// Angles written in degrees below this magnitude (2 pi, as a number of
/// degrees) are flagged as likely radians.
#define ZENO_WARNING_RADIANS_BELOW 6.2832
/// The most warnings one scene gets (three angles of a paper block or
/// three of the general form, the equilibrium's, a Painlevé bound per
/// contact).
#define ZENO_MAX_WARNINGS 12
/// Room for a warning's message.
#define ZENO_WARNING_MESSAGE_SIZE 256

/// One warning.
typedef struct zeno_warning {
  zeno_warning_kind kind;
  char parameter[128];  ///< the dotted scene path it is about ("paper.alpha"), or ""
  char message[ZENO_WARNING_MESSAGE_SIZE];  ///< one line, without the parameter
} zeno_warning;

/// A scene's warnings, in the order above (angles first).
typedef struct zeno_warnings {
  size_t count;
  zeno_warning items[ZENO_MAX_WARNINGS];
} zeno_warnings;

/// "radians", "infeasible", "ambiguous", "painleve"; "unknown" otherwise.
ZENO_API const char *zeno_warning_name(zeno_warning_kind kind);

/// The warnings of a validated scene (none for the shipped scenes). The
/// equilibrium's are those of zeno_equilibrium_check(); its errors are
/// returned (ZENO_ERR_ARGUMENT for NULL). A scene of more than
/// ZENO_PAIR_CONTACTS contacts gets the angle warnings only.
ZENO_API zeno_status zeno_scene_warnings(const zeno_scene *scene, zeno_warnings *warnings,
                                         zeno_error *error);

#ifdef __cplusplus
}
#endif
#endif
