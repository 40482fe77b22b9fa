// The pieces' and chains' shared parts (certify_piece.c, certify_chain.c,
// certify_piece_cone.c, certify_piece_program.c; docs/certificate.md):
// the faces of a piece mode, their exact forms and cones, the exact solves'
// cache. Not public API.
#ifndef ZENO_CERTIFY_CERTIFY_PIECE_INTERNAL_H
#define ZENO_CERTIFY_CERTIFY_PIECE_INTERNAL_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "certify/certify_piece.h"
#include "certify/certify_program.h"
#include "certify/certify_rat.h"
#include "sos/copositive.h"

/// Unknowns of the weighted-degree-2 W (certify_exact.h's CERT_EXACT_NX).
#define PIECE_NX 8
/// Rows of a face's cone: the flight form's (tau, the case's conditions,
/// two start gaps), u_i = 0 (two), the slip at e and at s (two), touching.
#define PIECE_ROWS (CERT_MAX_CONDS + 3 + 5)
/// Linear conditions of a piece's program condition: tau, the slip at the
/// end and the start, w_i = 0 as two rows, the case's conditions, the start
/// gap, touching; and with their pairwise products.
#define PIECE_MAX_LIN (CERT_MAX_CONDS + 7)
#define PIECE_MAX_G (PIECE_MAX_LIN + PIECE_MAX_LIN * (PIECE_MAX_LIN - 1) / 2)
/// Faces of a mode: its impact cases, the slip stop or the chains through
/// it, and the chains through an impact (at most two cases, each ending at
/// the next mode's impacts or its slip stop).
#define PIECE_MAX_FACES (4 * CERT_MAX_CASES + 3)
/// Rows of a chain through an impact's cone (certify_chain_impact.c): the
/// two pieces' and the stop's free gap.
#define PIECE_THROUGH_ROWS (2 * PIECE_ROWS + 1)
/// Room for a face's cone rows: 4 columns for a piece, 3 for the chains.
#define PIECE_L_ROOM \
  (PIECE_THROUGH_ROWS * 3 > PIECE_ROWS * 4 ? PIECE_THROUGH_ROWS * 3 : PIECE_ROWS * 4)

/// The exact solves kept for one system (certify_piece.h).
struct cert_piece_cache {
  signed char acc_state[CERT_MAX_MODES];  ///< 0 not solved, 1 solved, -1 singular
  mpq_t acc[CERT_MAX_MODES][3];
  signed char case_state[CERT_MAX_CASES];
  cert_rat_case cases[CERT_MAX_CASES];
  /// face_cone per mode, case and chain (it does not depend on c = +-1).
  struct face_cone_memo {
    signed char state;  ///< 0 not built, 1 built, -1 not given
    int ngen;
    int count;  ///< the cone's generators (face_generators)
    double gen[CERT_PROGRAM_NVARS][4];
    bool zero[CERT_PROGRAM_NVARS][CERT_PROGRAM_NVARS];
  } cone[CERT_MAX_MODES][CERT_MAX_CASES][2];
};

// A face of a piece mode: an impact case ending the piece (chain false),
// the slip stop (cs NULL), or, for a decelerating slip that stops into the
// sticking mode (cert_piece_stop_mode), the impact case cs ending the
// sticking piece after the stop (chain true); or, next given, the chain
// through the impact of case cs into mode next, whose piece ends at the
// impact of case end or (end NULL) where its slip stops
// (certify_chain_impact.c).
typedef struct piece_face {
  const cert_case *cs;
  bool chain;
  const cert_mode *next;
  const cert_case *end;
} piece_face;

// A face's cone's dimension: (u1, u2, w2, tau) for a piece, 3 for a chain.
static inline int piece_face_dim(const piece_face *f) { return f->chain || f->next ? 3 : 4; }

// The closed and the free contact of a single-contact mode (-1: not one).
static inline int closed_contact(const cert_mode *m) {
  const bool f0 = m->mode.letter[0] == ZENO_LETTER_F, f1 = m->mode.letter[1] == ZENO_LETTER_F;
  return f0 == f1 ? -1 : (f0 ? 1 : 0);
}

// The index of p in s's array base[0..n-1], or -1.
static inline int index_in(const void *p, const void *base, size_t size, int n) {
  const uintptr_t a = (uintptr_t)p, b = (uintptr_t)base;
  if (a < b || a >= b + (uintptr_t)n * size || (a - b) % size) return -1;
  return (int)((a - b) / size);
}

/// The mode of letters (l0, l1) in s->modes, or NULL.
const cert_mode *piece_find_mode(const cert_system *s, unsigned char l0, unsigned char l1);
/// A single-contact mode whose closed contact's exact gap acceleration is 0
/// and the free one's negative, without free flight after the first impact;
/// its slip's exact acceleration sgn (sl . a) into *dir (0 sticking).
bool piece_falling_mode(const cert_system *s, const cert_mode *m, int *dir);
/// Q3 += T^T Q4 T for Q4 4 x 4 and T 4 x 3 (row major).
void piece_add_congruent(mpq_t *Q3, mpq_t *Q4, mpq_t *T);
/// A chain through an impact (face f with f->next) exactly: its form Q3
/// (9) in y = (u_j, w2, tau1) for the unknowns xv and its cone's rows L3
/// (stride 3, room PIECE_THROUGH_ROWS; zero and repeated rows dropped),
/// their count in *nrows. False when an exact solve is singular.
bool piece_through_form(const cert_system *s, const cert_mode *m, const piece_face *f, mpq_t *xv,
                        double c, mpq_t *Q3, mpq_t *L3, int *nrows);
/// A chain through an impact's program condition (certify_chain_impact.c).
zeno_status piece_through_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                    const piece_face *f, const sos_expr *w, double c, int *count,
                                    zeno_error *e);
/// Mode m's exact acceleration (cert_rat_mode_acc), from s's cache.
bool piece_mode_acc(const cert_system *s, const cert_mode *m, mpq_t a[3]);
/// Case cs's exact map and conditions (cert_rat_case_exact), from s's cache.
bool piece_case_exact(const cert_system *s, const cert_case *cs, cert_rat_case *out);
/// A face's map exactly into x1: case cs's, or (cs NULL, the slip stop) the
/// identity. False when the case's exact solve is singular.
bool piece_face_map(const cert_system *s, const cert_case *cs, cert_rat_case *x1);
/// One face of mode m (a its exact acceleration, x1 the face's map) for the
/// unknowns xv: Q (16) and the cone's rows L (PIECE_ROWS x 4), their count
/// in *nrows.
void piece_face_form(const cert_system *s, const cert_mode *m, mpq_t a[3], const cert_case *cs,
                     cert_rat_case *x1, mpq_t *xv, double c, mpq_t *Q, mpq_t *L, int *nrows);
/// The faces of mode m whose cone is not {0}; their count.
int piece_faces(const cert_system *s, const cert_mode *m, piece_face *f);
/// The generators of face f's cone (lineality basis and extreme rays), -1
/// when it cannot be built or has too many (certify_piece_cone.c).
int piece_face_generators(const cert_system *s, const cert_mode *m, const piece_face *f);
/// Face f's cone in generator coordinates for the program: its extreme rays
/// as doubles (each scaled to largest entry 1) into gen (ngen x dim), and
/// the form's structural zeros zero[g][h] (Q(g, h) = 0 whatever W and a
/// chain's lambda). False where the cone has a lineality space, no ray or
/// more than CERT_PROGRAM_NVARS rays, or cannot be built.
bool piece_face_cone(const cert_system *s, const cert_mode *m, const piece_face *f, double c,
                     double gen[][4], bool zero[][CERT_PROGRAM_NVARS], int *ngen);
/// A chain's condition decided exactly with its multiplier lambda
/// (certify_chain.c); with cone given, its cone's rows into cone (stride 3,
/// *ncone of them) and its form into form (9, when given) instead, and not
/// decided (COPOSITIVE_YES where built, COPOSITIVE_TOO_LARGE where not).
copositive_answer piece_chain_verify(const cert_system *s, const cert_mode *m, const cert_mode *st,
                                     const cert_case *cs, double lambda, mpq_t *xv, double c,
                                     mpq_t *cone, int *ncone, mpq_t *form);
/// A chain's program condition, its start gap's multiplier's place in
/// *lref (cert_piece_lambda; certify_piece_program.c).
zeno_status piece_chain_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                  const cert_mode *st_mode, const cert_case *cs, const sos_expr *w,
                                  double c, int *lref, int *count, zeno_error *e);
/// Adds x >= 0 on face f's cone in generator coordinates where
/// piece_face_cone gives them (*done true); vmap[k] is the program's
/// variable of the cone's coordinate k; extra (or NULL), a polynomial in
/// the program's variables, joins the domain with a constant multiplier,
/// its index among the condition's multipliers in *extra_at.
zeno_status piece_generator_condition(sos_program *prog, const cert_system *s, const cert_mode *m,
                                      const piece_face *f, double c, const sos_expr *x,
                                      const int *vmap, const ze_poly *extra, int *extra_at,
                                      bool *done, int *count, zeno_error *e);
/// Drops the zero rows and every row parallel to an earlier one.
void piece_drop_parallel_rows(ze_poly *g, int *ng);

#endif
