// The table of impact laws (zeno/impact_law.h). Adding a law: its
// enumerator in zeno_impact_law and ZENO_LAW_COUNT (include/zeno/scene.h),
// its spelling (src/scene/scene_names.c), its row here; the compiler then
// lists every switch over laws that must learn it (-Wswitch: none has a
// default), and nothing else names a law (tests/check_law_sites.py).
#include "zeno/impact_law.h"

_Static_assert(ZENO_LAW_NEWTON + 1 == ZENO_LAW_COUNT,
               "ZENO_LAW_COUNT counts the laws; the table below has a row for each");

zeno_impact_law_info zeno_impact_law_info_of(zeno_impact_law law) {
  // One row a law (clang-format would stack each row's fields).
  // clang-format off
  switch (law) {
    case ZENO_LAW_INELASTIC:
      return (zeno_impact_law_info){.restitution = false, .tangential_restitution = false,
                                    .complementarity = true, .paper_theorems = true};
    case ZENO_LAW_CHATTERJEE_RUINA:
      return (zeno_impact_law_info){.restitution = true, .tangential_restitution = true,
                                    .complementarity = false, .paper_theorems = false};
    case ZENO_LAW_NEWTON:
      return (zeno_impact_law_info){.restitution = true, .tangential_restitution = false,
                                    .complementarity = true, .paper_theorems = false};
  }
  // clang-format on
  return zeno_impact_law_info_of(ZENO_LAW_DEFAULT);
}

double zeno_impact_law_restitution(const zeno_scene *scene) {
  if (scene == NULL) return 0;
  return zeno_impact_law_info_of(scene->impact_law).restitution ? scene->restitution : 0;
}

double zeno_impact_law_tangential_restitution(const zeno_scene *scene) {
  if (scene == NULL) return 0;
  return zeno_impact_law_info_of(scene->impact_law).tangential_restitution
             ? scene->tangential_restitution
             : 0;
}
