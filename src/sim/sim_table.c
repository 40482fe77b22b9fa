// The per-scene ZOD table (sim_table.h): the mode choices of the kinematic
// classes met so far, by open addressing on the class code.
#include "sim/sim_table.h"

#include <stddef.h>

unsigned sim_table_class_code(const mode_class *cls) {
  unsigned code = 0;
  for (int i = ZENO_PAIR_CONTACTS - 1; i >= 0; i--) {
    code = code * 3 + cls->gap[i];
    code = code * 3 + cls->slip[i];
    code = code * 2 + (cls->lifting[i] ? 1u : 0u);
    code = code * 2 + (cls->leaving_stick[i] ? 1u : 0u);
  }
  return code;
}

// First slot to probe for a code: its low bits (codes of nearby classes
// differ there).
static unsigned home_slot(unsigned code) { return code & (SIM_TABLE_CLASSES - 1); }

const sim_choice *sim_table_find(const sim_table *t, unsigned code) {
  for (unsigned k = 0, h = home_slot(code); k < SIM_TABLE_CLASSES;
       k++, h = (h + 1) & (SIM_TABLE_CLASSES - 1)) {
    const sim_choice *c = &t->choice[h];
    if (c->key == 0) return NULL;
    if (c->key == code + 1) return c;
  }
  return NULL;
}

void sim_table_store(sim_table *t, unsigned code, const sim_choice *ch) {
  // Three quarters full: probes stay short, and a scene with this many
  // classes works the rest out each time.
  if (4 * (t->classes + 1) > 3 * SIM_TABLE_CLASSES) return;
  unsigned h = home_slot(code);
  while (t->choice[h].key != 0) h = (h + 1) & (SIM_TABLE_CLASSES - 1);
  t->choice[h] = *ch;
  t->choice[h].key = (uint16_t)(code + 1);
  t->classes++;
}
