/// @file impact_law.h
/// What each impact law reads of a scene and what the analysis may conclude
/// under it: one row of the library's table of laws. The table
/// (src/dynamics/impact_law.c) and the switches over laws whose branches do
/// different work (each law's resolution of an impact, its certificate's
/// impact cases) are the only places that tell laws apart; everything else
/// asks the table (docs/model.md, "Adding an impact law").
#ifndef ZENO_IMPACT_LAW_H
#define ZENO_IMPACT_LAW_H

#include <stdbool.h>

#include "zeno/api.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The properties of one impact law (zeno_impact_law_info_of()).
typedef struct zeno_impact_law_info {
  /// It reads the scene's normal restitution impact.e. Otherwise its
  /// normal restitution is 0 whatever impact.e says: impacting contacts
  /// never leave the surface at an impact (no flight follows one).
  bool restitution;
  /// It reads the tangential restitution impact.et (else 0).
  bool tangential_restitution;
  /// Every impact is resolved by the complementarity form of law (15)
  /// with the normal restitution as its target (Glocker & Pfeiffer),
  /// over (15)'s preference list. Otherwise single impacts follow a rule
  /// of the law's own, the complementarity form its fallback. The fast
  /// kernels make the cycles and runs of complementarity laws only.
  bool complementarity;
  /// The paper's law (15): Theorems 2-4 and Definition 4 are proved for
  /// it, so the Poincaré maps decide stability under it only.
  bool paper_theorems;
} zeno_impact_law_info;

/// The table's row of `law`; a value outside zeno_impact_law reads as the
/// default law's (ZENO_LAW_DEFAULT).
ZENO_API zeno_impact_law_info zeno_impact_law_info_of(zeno_impact_law law);

/// The normal restitution the scene's law applies: impact.e where the law
/// reads it, else 0. NULL scene: 0.
ZENO_API double zeno_impact_law_restitution(const zeno_scene *scene);

/// The tangential restitution the scene's law applies: impact.et where the
/// law reads it, else 0. NULL scene: 0.
ZENO_API double zeno_impact_law_tangential_restitution(const zeno_scene *scene);

#ifdef __cplusplus
}
#endif

#endif
