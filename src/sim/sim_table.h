// The per-scene ZOD table (zeno_sim_def.zod_table): under the ZOD the
// contact dynamics are constants of the scene, so the mode choice at an
// event depends on the contacts' kinematic classes alone, and the impact
// candidates' letter systems are fixed linear maps. The simulator fills
// the table as it meets each class and letter pair, once, and keeps it
// across restarts (the Poincaré maps run thousands of cycles of one
// scene). Not public API.
#ifndef ZENO_SIM_SIM_TABLE_H
#define ZENO_SIM_SIM_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "dynamics/contact_solve.h"
#include "dynamics/mode_table.h"
#include "zeno/mode.h"

/// Kinematic classes remembered (open addressing, a power of two). A run
/// meets a handful (Example 2's cycles: 9); a class beyond a full table is
/// worked out each time, as on the general path.
#define SIM_TABLE_CLASSES 64

/// The mode choice of one kinematic class.
typedef struct sim_choice {
  uint16_t key;                  ///< the class's code + 1; 0: empty slot
  uint8_t count;                 ///< consistent modes
  uint8_t code[ZENO_MAX_MODES];  ///< their codes (letter[0] + 4 letter[1]), preference order
  double margin;                 ///< the choice's tie margin (sim_choice_margin)
} sim_choice;

/// Impact contexts of the kernel: which of two contacts touch, which approach.
#define SIM_KERNEL_CONTEXTS 16
typedef struct sim_kernel_context sim_kernel_context;
/// The kernel's kinematic classes: a gap and a slip state (3 each) per
/// contact.
#define SIM_KERNEL_CLASSES 81

/// The flat kernel's data (sim_kernel.c), in the ZOD's coordinates q':
/// each mode's accelerations, made as modes are met.
typedef struct sim_kernel_data {
  bool made;                     ///< AMW and k below are set
  unsigned char mode_state[16];  ///< by mode code: 0 not made, 1 made, 2 no solution
  bool mode_rest[16];            ///< every contact sticks and the body stays still
  double mode_qddp[16][3];       ///< q'' (sim_mode_rates)
  double mode_cdd[16][4];        ///< contact accelerations (z1, x1, z2, x2)''
  /// Their divisors in the guards' roots inverted (flow_crossings_inv).
  double mode_inv[16][4];
  double AMW[3][4];  ///< change of qdot' per unit contact impulse
  /// Kinetic energy as a quadratic form of qdot': T = v^T K v, K = A^-T M A^-1 / 2.
  double kinetic[3][3];
  /// Projections (sim_table.correct_K) carried into q': 0 not made, 1 made.
  unsigned char proj_state[16];
  double proj_K[16][3][3];
  /// The kernel's choice for each of its classes (gaps and slips, no
  /// lifting or leaving stick), made from the table's once: 0 not made, 1
  /// the mode class_code[] with tie margin class_margin[], 2 to the event
  /// loop (inconsistent or ambiguous), 3 handed back (the mode has no
  /// solution).
  unsigned char class_state[SIM_KERNEL_CLASSES];
  unsigned char class_code[SIM_KERNEL_CLASSES];
  double class_margin[SIM_KERNEL_CLASSES];
  /// The letters of each mode code (its word token).
  char mode_letters[16][2];
  bool context_made[SIM_KERNEL_CONTEXTS];
  sim_kernel_context *contexts;  ///< SIM_KERNEL_CONTEXTS of them, each made when first met
} sim_kernel_data;

typedef struct sim_table {
  int classes;  ///< slots in use
  sim_choice choice[SIM_TABLE_CLASSES];
  contact_letter_maps letters;  ///< the impact candidates' systems
  /// Projections onto contact constraints, by the set of coordinates
  /// projected (bit a: coordinate a of (z1, x1, z2, x2)): 0 not made, 1
  /// made, 2 dependent; dv = K r in generalised rates, columns in the
  /// set's order (sim_contact.c).
  unsigned char correct_state[16];
  double correct_K[16][3][3];
  /// The maps' kernel's data: allocated by sim_kernel_prepare() (a
  /// Poincaré runner's simulator only), freed by sim_kernel_free().
  sim_kernel_data *kernel;
} sim_table;

/// Code of a kinematic class (below 1296: 36 states per contact).
unsigned sim_table_class_code(const mode_class *cls);
/// The remembered choice of a class code, or NULL.
const sim_choice *sim_table_find(const sim_table *t, unsigned code);
/// Remembers a choice (ch->key is set here); a full table remembers no more.
void sim_table_store(sim_table *t, unsigned code, const sim_choice *ch);

#endif
