/// @file mode.h
/// The contact-mode vocabulary of the paper's Table 1: the letter of one
/// contact (F free, S sticking, P/N slipping forward/backward), a mode (one
/// letter per contact), the guards whose zero crossings end a mode, and the
/// names all of them have in words, JSON and CSV.
#ifndef ZENO_MODE_H
#define ZENO_MODE_H

#include <stdbool.h>
#include "zeno/api.h"
#include "zeno/error.h"
#include "zeno/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Letter of one contact (paper Table 1).
typedef enum zeno_letter {
  ZENO_LETTER_F = 0,  ///< free
  ZENO_LETTER_S,      ///< sticking
  ZENO_LETTER_P,      ///< positive slip (xdot_i > 0)
  ZENO_LETTER_N       ///< negative slip (xdot_i < 0)
} zeno_letter;

/// A contact mode: one letter per contact ("PF": contact 1 slips forward,
/// contact 2 free), up to ZENO_MAX_CONTACTS. Letters past the scene's
/// contact count are F (zero), so two modes compare with memcmp.
typedef struct zeno_mode {
  unsigned char letter[ZENO_MAX_CONTACTS];
} zeno_mode;

/// Largest number of modes (4 letters per contact).
#define ZENO_MAX_MODES 16
/// Room for a mode name: one letter per contact and the terminator.
#define ZENO_MODE_NAME_SIZE (ZENO_MAX_CONTACTS + 1)

/// Which guard function reached zero.
typedef enum zeno_guard {
  ZENO_GUARD_NONE = 0,
  ZENO_GUARD_GAP,              ///< gap z_i of a free contact reached 0 (impact)
  ZENO_GUARD_NORMAL_FORCE,     ///< normal force of a closed contact reached 0 (lift-off)
  ZENO_GUARD_SLIP_VELOCITY,    ///< slip speed xdot_i reached 0 (stop or reversal)
  ZENO_GUARD_FRICTION_MARGIN,  ///< mu f_n - |f_t| of a sticking contact reached 0 (slip onset)
  ZENO_GUARD_ESCAPE,           ///< a contact coordinate reached the escape radius
  ZENO_GUARD_TIME,             ///< t_end
  ZENO_GUARD_ZENO              ///< accumulation of impacts
} zeno_guard;

/// How a run ended.
typedef enum zeno_outcome {
  ZENO_OUTCOME_RUNNING = 0,     ///< not ended yet
  ZENO_OUTCOME_REST,            ///< static mode consistent at zero velocity
  ZENO_OUTCOME_ESCAPED,         ///< left the scene's escape radius
  ZENO_OUTCOME_DIVERGING,       ///< reverse chatter: impact speeds growing geometrically
  ZENO_OUTCOME_AMBIGUOUS,       ///< several consistent modes and policy `stop`
  ZENO_OUTCOME_INCONSISTENT,    ///< no consistent mode (Painlevé)
  ZENO_OUTCOME_TIME_LIMIT,      ///< reached t_end
  ZENO_OUTCOME_EVENT_LIMIT,     ///< reached max_events
  ZENO_OUTCOME_SOLVER_FAILURE,  ///< a solver failed (the full model's integrator, an LP)
  ZENO_OUTCOME_WALL_LIMIT       ///< the run used up the scene's stop.wall_time (wall clock)
} zeno_outcome;

/// What an event is.
typedef enum zeno_event_kind {
  ZENO_EVENT_START = 0,   ///< the initial mode was selected
  ZENO_EVENT_IMPACT,      ///< an impact (velocity jump), then a new mode
  ZENO_EVENT_TRANSITION,  ///< a mode change without impulse (lift-off, slip stop, ...)
  ZENO_EVENT_ZENO,        ///< accumulation point of a completed Zeno sequence
  ZENO_EVENT_END          ///< the run ended; `outcome` says why
} zeno_event_kind;

/// Why Table 1 refused a mode, or the impact law a candidate (a set of
/// contacts with impulse and their letters), at a state: the proof an
/// `inconsistent` end carries (zeno_event.refusal).
typedef enum zeno_refusal {
  ZENO_REFUSAL_NONE = 0,     ///< not refused (or not a candidate)
  ZENO_REFUSAL_KINEMATICS,   ///< the contact's state excludes it (Table 1, column 3)
  ZENO_REFUSAL_SINGULAR,     ///< its equations have no unique solution
  ZENO_REFUSAL_NORMAL,       ///< a contact's normal force (impulse) is not positive
  ZENO_REFUSAL_CONE,         ///< a sticking contact's force (impulse) is outside its cone
  ZENO_REFUSAL_PENETRATION,  ///< a free touching contact would move into its surface
  ZENO_REFUSAL_SLIP,         ///< a contact's slip acceleration (velocity) opposes its letter
  ZENO_REFUSAL_INCOMPATIBLE  ///< two sticking contacts' four velocity targets disagree
} zeno_refusal;

/// Stable refusal names, as printed in JSON ("kinematics", "normal",
/// "cone", "penetration", "slip", "singular", "incompatible", "none").
ZENO_API const char *zeno_refusal_name(zeno_refusal refusal);

/// The letter's one-character name: 'F', 'S', 'P' or 'N'.
ZENO_API char zeno_letter_name(zeno_letter letter);

/// The mode of index `code` = letter[0] + 4 letter[1], the index of every
/// per-mode array (zeno_event.refusal); 0 <= code < ZENO_MAX_MODES, and
/// code < 4 for one contact.
ZENO_API zeno_mode zeno_mode_of_code(unsigned code);

/// Name of a mode ("PF", "S" for one contact) written into buffer, which
/// needs ZENO_MODE_NAME_SIZE chars; returns buffer.
ZENO_API const char *zeno_mode_name(zeno_mode mode, int contact_count, char *buffer);

/// Parses a mode name of `contact_count` letters ("PF"). ZENO_ERR_SYNTAX
/// naming the text when it is not one.
ZENO_API zeno_status zeno_mode_parse(const char *text, int contact_count, zeno_mode *mode,
                                     zeno_error *error);

/// Stable guard names, as printed in JSON ("gap", "normal-force", ...).
ZENO_API const char *zeno_guard_name(zeno_guard guard);

/// Impact name from a mask of the contacts that received an impulse: "IF",
/// "FI", "II" (two contacts) or "I"; NULL for more than two contacts
/// (zeno_impact_word() writes any).
ZENO_API const char *zeno_impact_name(unsigned impact_mask, int contact_count);

/// Impact name of any contact count written into buffer (ZENO_MODE_NAME_SIZE
/// chars): one letter per contact, I with an impulse, F without ("FFI":
/// the third of three contacts); the names of zeno_impact_name() for one
/// and two. Returns buffer.
ZENO_API const char *zeno_impact_word(unsigned impact_mask, int contact_count, char *buffer);

/// The impact mask of an impact name of `contact_count` letters ("IF" -> 1,
/// "FI" -> 2, "II" -> 3, "I" -> 1, "FFI" -> 4); 0 for any other text.
ZENO_API unsigned zeno_impact_mask(const char *name, int contact_count);

#ifdef __cplusplus
}
#endif
#endif
