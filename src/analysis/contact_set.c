// Static stability of a body at rest on N frictional point contacts (Pang &
// Trinkle, seeds/pang-trinkle-stability.txt, in their general form):
// - weak stability, system (7): the max-margin LP of equilibrium_lp.c for N
//   contacts; Theorem 1's frictionless test, system (21), is the same LP
//   with mu = 0;
// - strong stability, Definition 3: no dynamic intensity (solution of the
//   contact LCP (1)-(3) at rest) has a nonzero acceleration. The LCP's
//   solution set is the union of one polyhedron per contact mode (a letter
//   F, S, P or N per contact); a mode can carry a nonzero acceleration only
//   if the signs of its contact accelerations are those of some direction
//   qdd != 0, i.e. of a face of the arrangement of the 2N planes
//   {a_n,i(qdd) = 0}, {a_t,i(qdd) = 0} in the 3-D space of accelerations.
//   Those faces are enumerated (O(N^2) of them, not 4^N modes) and each
//   mode's LP maximises the virtual work g . qdd, which is positive exactly
//   when qdd != 0 (Proposition 1: g . qdd >= qdd M qdd for any intensity);
// - Theorem 4 (geometry only) for N <= ZENO_CONTACT_SET_THEOREM4_MAX
//   (contact_set_theorem4.c).
#include "zeno/contact_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/contact_set_problem.h"
#include "analysis/equilibrium_lp.h"
#include "base/util.h"
#include "zeno/scene.h"

/// Strictness of SS feasibility and closedness of weak stability, relative
/// to the load's force scale: the values of zeno_equilibrium_check
/// (EQ_FORCE_RTOL) and zeno_weak_stability_check (PT_WEAK_RTOL), so that
/// N = 2 gives their verdicts.
#define CS_FORCE_RTOL 1e-10
/// Cap of the margin in force scales (equilibrium.c's EQ_MARGIN_CAP_FACTOR):
/// a bounded margin stays within the geometry's lever ratios of the load
/// (about 1e2), so only a wedged body reaches 1e6.
#define CS_MARGIN_CAP 1e6
/// A mode has a motion when its largest virtual work g . qdd exceeds this
/// fraction of the size of its terms (g M^-1 g + sum |g M^-1 W_j c_j|).
/// The LP's certified point satisfies its rows to 1e-12 of their terms
/// (LP_CERTIFIED_RTOL), which moves g . qdd by as much; a motion of
/// relative acceleration d has g . qdd >= d^2 (Proposition 1), so motions
/// below ~3e-6 of the load's acceleration read as rest (a near tie).
#define CS_MOTION_RTOL 1e-11
/// A direction's contact acceleration counts as zero below this fraction
/// of the (unit) direction times the wrench's length: directions are built
/// from cross products of unit wrenches, exact to ~1e-16, and a plane that
/// really contains a direction (three collinear floor contacts share the
/// sliding direction) gives rounding of that size.
#define CS_DIRECTION_RTOL 1e-12
/// Two wrenches are parallel (one plane, no ray between them) when the
/// sine of their angle is below this.
#define CS_PARALLEL_RTOL 1e-12

/* ---- definition ----------------------------------------------------------- */

zeno_contact_set_def zeno_contact_set_def_default(void) {
  zeno_contact_set_def d;
  memset(&d, 0, sizeof d);
  d.mass = 1;
  d.rho = 1;
  d.load_magnitude = 1;
  return d;
}

_Static_assert(ZENO_MAX_CONTACTS <= ZENO_CONTACT_SET_MAX,
               "every scene's contacts fit in a contact set");

zeno_status zeno_contact_set_def_from_scene(const zeno_scene *scene, zeno_contact_set_def *def,
                                            zeno_error *error) {
  if (scene == NULL || def == NULL)
    return zeno_fail(error, ZENO_ERR_ARGUMENT, "", "a scene and a definition are required");
  const zeno_status st = zeno_scene_validate(scene, error);
  if (st != ZENO_OK) return st;
  zeno_contact_set_def d = zeno_contact_set_def_default();
  d.mass = scene->mass;
  d.rho = scene->rho;
  d.load_magnitude = scene->load_magnitude;
  d.load_angle = scene->load_angle;
  d.load_torque = scene->load_torque;
  d.contact_count = scene->contact_count;
  for (int i = 0; i < scene->contact_count; i++) {
    const zeno_contact_def *c = &scene->contacts[i];
    zeno_contact_set_contact *out = &d.contacts[i];
    out->point[0] = c->point[0];
    out->point[1] = c->point[1];
    out->surface_angle = c->surface_angle;
    out->mu = c->mu;
    out->gap = 0;  // on its surface at the nominal pose (validated)
  }
  *def = d;
  return ZENO_OK;
}

static bool finite_positive(double x) { return x > 0 && isfinite(x); }

static zeno_status check_def(const zeno_contact_set_def *d, zeno_error *e) {
  if (d->contact_count < 1 || d->contact_count > ZENO_CONTACT_SET_MAX)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contact_count", "%d contacts; allowed 1 to %d",
                     d->contact_count, ZENO_CONTACT_SET_MAX);
  if (!finite_positive(d->mass))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "mass", "mass %g; allowed (0, inf)", d->mass);
  if (!finite_positive(d->rho))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "rho", "radius of gyration %g; allowed (0, inf)",
                     d->rho);
  if (!(d->load_magnitude >= 0) || !isfinite(d->load_magnitude))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "load_magnitude", "load magnitude %g; allowed [0, inf)",
                     d->load_magnitude);
  if (!isfinite(d->load_angle) || !isfinite(d->load_torque))
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "load_angle",
                     "load angle and torque must be finite (got %g, %g)", d->load_angle,
                     d->load_torque);
  int touching = 0;
  for (int i = 0; i < d->contact_count; i++) {
    const zeno_contact_set_contact *c = &d->contacts[i];
    if (!isfinite(c->point[0]) || !isfinite(c->point[1]) || !isfinite(c->surface_angle))
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts.point",
                       "contact %d: point and surface angle must be finite", i + 1);
    if (!(c->mu >= 0) || !isfinite(c->mu))
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts.mu",
                       "contact %d: friction coefficient %g; allowed [0, inf)", i + 1, c->mu);
    if (!(c->gap >= 0) || !isfinite(c->gap))
      return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts.gap", "contact %d: gap %g; allowed [0, inf)",
                       i + 1, c->gap);
    touching += c->gap == 0;
  }
  if (touching == 0)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "contacts.gap",
                     "no contact touches (every gap is positive); at least one must be 0");
  return ZENO_OK;
}

void contact_set_problem_of(const zeno_contact_set_def *d, contact_set_problem *p,
                            double *force_scale, int index[ZENO_CONTACT_SET_MAX]) {
  memset(p, 0, sizeof *p);
  const double f[2] = {d->load_magnitude * sin(d->load_angle),
                       -d->load_magnitude * cos(d->load_angle)};
  const double scale = hypot(f[0], f[1]) + fabs(d->load_torque) / d->rho;
  // With no load the mass's weight in unit acceleration sets the scale.
  *force_scale = scale > 0 ? scale : d->mass;
  for (int k = 0; k < d->contact_count; k++) {
    const zeno_contact_set_contact *c = &d->contacts[k];
    if (c->gap > 0) continue;  // open: not part of the problem
    const int i = p->n++;
    index[i] = k;
    const double r[2] = {c->point[0] / d->rho, c->point[1] / d->rho};
    contact_wrenches(r, c->surface_angle, p->normal[i], p->tangent[i]);
    p->mu[i] = c->mu;
  }
  for (int k = 0; k < 3; k++) p->inv_mass[k] = 1;
  p->load[0] = f[0] / *force_scale;
  p->load[1] = f[1] / *force_scale;
  p->load[2] = d->load_torque / (d->rho * *force_scale);
}

// Column j of J in zeno's order (n1, t1, n2, t2, ...).
static const double *column(const contact_set_problem *p, int j) {
  return j % 2 == 0 ? p->normal[j / 2] : p->tangent[j / 2];
}

/* ---- weak stability ------------------------------------------------------- */

// The max-margin LP with the given friction (the problem's, or zero).
static zeno_status margin_of(const contact_set_problem *p, const double *mu, lp_margin_outcome *out,
                             zeno_error *e) {
  double W[3 * 2 * ZENO_CONTACT_SET_MAX];
  const int m = 2 * p->n;
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < m; j++) W[k * m + j] = column(p, j)[k];
  const lp_margin_general lp = {p->n,          W, mu,   {-p->load[0], -p->load[1], -p->load[2]},
                                CS_MARGIN_CAP, 1, false};
  return lp_margin_general_solve(&lp, out, e);
}

/* ---- strong stability: the contact modes ---------------------------------- */

// Row `row` of a mode LP: the contact acceleration a_j = afree_j + D_j c
// within [lo, hi] - afree_j by kind.
static void accel_row(const contact_set_problem *p, lp_problem *lp, int row, int j, lp_bound kind,
                      double afree) {
  const int m = 2 * p->n;
  for (int b = 0; b < m; b++)
    lp->a[row * lp->stride + b] = contact_set_mass_dot(p, column(p, j), column(p, b));
  lp->row_kind[row] = kind;
  lp->row_lo[row] = lp->row_hi[row] = -afree;
}

// Row `row`: mu c_n + sign c_t, at least 0 (kind LP_LOWER) or zero (LP_FIXED).
static void cone_row(lp_problem *lp, int row, int i, double mu, double sign, lp_bound kind) {
  lp->a[row * lp->stride + 2 * i] = mu;
  lp->a[row * lp->stride + 2 * i + 1] = sign;
  lp->row_kind[row] = kind;
}

zeno_status contact_set_mode_depth(const contact_set_problem *p, const zeno_contact_set_mode *mode,
                                   double *depth, bool *unstable, zeno_error *e) {
  const int n = p->n, m = 2 * n;
  double afree[2 * ZENO_CONTACT_SET_MAX], gg = contact_set_mass_dot(p, p->load, p->load);
  for (int j = 0; j < m; j++) afree[j] = contact_set_mass_dot(p, column(p, j), p->load);
  lp_problem lp;
  zeno_status st = lp_problem_create(&lp, 4 * n, m, e);
  if (st != ZENO_OK) return st;
  int row = 0;
  for (int i = 0; i < n; i++) {
    const int l = mode->letter[i];
    if (l == ZENO_LETTER_F) {
      accel_row(p, &lp, row++, 2 * i, LP_LOWER, afree[2 * i]);
      lp.col_kind[2 * i] = lp.col_kind[2 * i + 1] = LP_FIXED;
      continue;
    }
    accel_row(p, &lp, row++, 2 * i, LP_FIXED, afree[2 * i]);
    lp.col_kind[2 * i] = LP_LOWER;
    if (l == ZENO_LETTER_S) {
      accel_row(p, &lp, row++, 2 * i + 1, LP_FIXED, afree[2 * i + 1]);
      cone_row(&lp, row++, i, p->mu[i], 1, LP_LOWER);
      cone_row(&lp, row++, i, p->mu[i], -1, LP_LOWER);
    } else {
      const bool pos = l == ZENO_LETTER_P;
      accel_row(p, &lp, row++, 2 * i + 1, pos ? LP_LOWER : LP_UPPER, afree[2 * i + 1]);
      // Slip toward +t meets friction -mu c_n: c_t + mu c_n = 0 (P).
      cone_row(&lp, row++, i, p->mu[i], pos ? 1 : -1, LP_FIXED);
    }
  }
  lp.rows = row;
  for (int j = 0; j < m; j++) lp.obj[j] = afree[j];
  double x[2 * ZENO_CONTACT_SET_MAX];
  lp_outcome out;
  st = lp_problem_solve(&lp, &out, x, e);
  lp_problem_destroy(&lp);
  if (st != ZENO_OK) return st;
  *unstable = false;
  *depth = -INFINITY;
  if (out.status == LP_UNBOUNDED) {
    *depth = INFINITY;  // g . qdd without bound: qdd != 0
    *unstable = true;
  } else if (out.status == LP_OPTIMAL && out.violation <= LP_CERTIFIED_RTOL) {
    double terms = gg;
    for (int j = 0; j < m; j++) terms += fabs(afree[j] * x[j]);
    *depth = (gg + out.objective) / (gg > 0 ? gg : 1);
    *unstable = gg + out.objective > CS_MOTION_RTOL * terms;
  }
  return ZENO_OK;
}

static void unit(double v[3]) {
  const double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int k = 0; k < 3; k++) v[k] /= s;
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/// The unit normals of the 2N planes of the arrangement in the space of
/// accelerations qdd (plane j is {u_j . qdd = 0}): plane 2i is a_n,i = 0,
/// plane 2i + 1 is a_t,i = 0 (at rest the contact accelerations are
/// a = J^T qdd).
typedef struct arrangement {
  int planes;
  double u[2 * ZENO_CONTACT_SET_MAX][3];
} arrangement;

// Letters of a direction qdd (unit): F where a_n > 0, else S, P or N by
// the sign of a_t; false when some a_n < 0 (no motion goes there).
static bool letters_of(const arrangement *A, int n, const double d[3],
                       zeno_contact_set_mode *mode) {
  memset(mode, ZENO_LETTER_F, sizeof *mode);
  for (int i = 0; i < n; i++) {
    const double an = dot3(A->u[2 * i], d), at = dot3(A->u[2 * i + 1], d);
    if (an < -CS_DIRECTION_RTOL) return false;
    if (an > CS_DIRECTION_RTOL) continue;
    mode->letter[i] = at > CS_DIRECTION_RTOL    ? ZENO_LETTER_P
                      : at < -CS_DIRECTION_RTOL ? ZENO_LETTER_N
                                                : ZENO_LETTER_S;
  }
  return true;
}

/// The distinct modes of the faces, growing.
typedef struct mode_list {
  int count, room;
  zeno_contact_set_mode *modes;
} mode_list;

static void add_direction(const arrangement *A, int n, const double d[3], mode_list *L) {
  zeno_contact_set_mode mode;
  if (!letters_of(A, n, d, &mode)) return;
  for (int k = 0; k < L->count; k++)
    if (memcmp(&L->modes[k], &mode, sizeof mode) == 0) return;
  if (L->count < L->room) L->modes[L->count++] = mode;
}

static int compare_angle(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// The 2-D faces inside plane `i` (a_n,i = 0): the sectors between the
// lines where the other planes cut it, one direction in each.
static void plane_sectors(const arrangement *A, int n, int i, mode_list *L) {
  const double *ni = A->u[i];
  double e1[3], e2[3], angle[4 * ZENO_CONTACT_SET_MAX];
  int count = 0;
  cross3(ni, A->u[i + 1], e1);  // the line a_n,i = a_t,i = 0 lies in the plane
  unit(e1);
  cross3(ni, e1, e2);
  for (int j = 0; j < A->planes; j++) {
    double r[3];
    cross3(ni, A->u[j], r);
    if (!(sqrt(dot3(r, r)) > CS_PARALLEL_RTOL)) continue;
    const double phi = atan2(dot3(r, e2), dot3(r, e1));  // the line's two rays
    angle[count++] = fmod(phi + 2 * ZENO_PI, 2 * ZENO_PI);
    angle[count++] = fmod(phi + 3 * ZENO_PI, 2 * ZENO_PI);
  }
  qsort(angle, (size_t)count, sizeof angle[0], compare_angle);
  for (int k = 0; k < count; k++) {
    const double next = k + 1 < count ? angle[k + 1] : angle[0] + 2 * ZENO_PI;
    const double mid = 0.5 * (angle[k] + next);
    const double d[3] = {cos(mid) * e1[0] + sin(mid) * e2[0], cos(mid) * e1[1] + sin(mid) * e2[1],
                         cos(mid) * e1[2] + sin(mid) * e2[2]};
    add_direction(A, n, d, L);
  }
}

// Every mode of a face of the arrangement (rays, sectors of the a_n = 0
// planes) and the all-free mode (the 3-D cells).
static void face_modes(const contact_set_problem *p, mode_list *L) {
  arrangement A;
  A.planes = 2 * p->n;
  for (int j = 0; j < A.planes; j++) {
    // a_j = W_j . qdd (at rest): plane j has normal W_j.
    const double *w = column(p, j);
    for (int k = 0; k < 3; k++) A.u[j][k] = w[k];
    unit(A.u[j]);
  }
  zeno_contact_set_mode all_free;
  memset(&all_free, ZENO_LETTER_F, sizeof all_free);
  L->modes[L->count++] = all_free;
  for (int a = 0; a < A.planes; a++)
    for (int b = a + 1; b < A.planes; b++) {
      double r[3];
      cross3(A.u[a], A.u[b], r);
      if (!(sqrt(dot3(r, r)) > CS_PARALLEL_RTOL)) continue;
      unit(r);
      add_direction(&A, p->n, r, L);
      const double minus[3] = {-r[0], -r[1], -r[2]};
      add_direction(&A, p->n, minus, L);
    }
  for (int i = 0; i < p->n; i++) plane_sectors(&A, p->n, 2 * i, L);
}

// Preference rank (zeno's mode_static_rank for N contacts), then code.
static int rank_of(const zeno_contact_set_mode *mode, int n) {
  int stick = 0, closed = 0;
  for (int i = 0; i < n; i++) {
    stick += mode->letter[i] == ZENO_LETTER_S;
    closed += mode->letter[i] != ZENO_LETTER_F;
  }
  return (n - stick) * (n + 1) + (n - closed);
}

// Order of zeno's mode codes (code = sum letter_i 4^i): the last contact
// is the most significant.
static int compare_code(const zeno_contact_set_mode *x, const zeno_contact_set_mode *y, int n) {
  for (int i = n - 1; i >= 0; i--)
    if (x->letter[i] != y->letter[i]) return x->letter[i] < y->letter[i] ? -1 : 1;
  return 0;
}

// Insertion sort by (rank, code), as mode_enumerate orders two contacts.
static void sort_modes(zeno_contact_set_mode *modes, int count, int n) {
  for (int a = 1; a < count; a++) {
    const zeno_contact_set_mode key = modes[a];
    const int rk = rank_of(&key, n);
    int b = a - 1;
    while (b >= 0 && (rank_of(&modes[b], n) > rk ||
                      (rank_of(&modes[b], n) == rk && compare_code(&modes[b], &key, n) > 0))) {
      modes[b + 1] = modes[b];
      b--;
    }
    modes[b + 1] = key;
  }
}

/* ---- the check ------------------------------------------------------------ */

// Strong stability: every face mode's LP; the unstable ones listed with
// the definition's contacts (index: problem contact -> definition contact;
// open contacts F).
static zeno_status check_modes(const contact_set_problem *p, const int index[],
                               zeno_contact_set_report *r, zeno_error *e) {
  const int n = p->n;
  mode_list L = {0, 2 * n * (2 * n - 1) + 4 * n * n + 1, NULL};
  L.modes = malloc(sizeof *L.modes * (size_t)L.room);
  zeno_contact_set_mode *unstable = malloc(sizeof *unstable * (size_t)L.room);
  zeno_status st = ZENO_OK;
  if (L.modes == NULL || unstable == NULL) {
    st = zeno_fail(e, ZENO_ERR_NOMEM, "", "out of memory listing %d contact modes", L.room);
  } else {
    face_modes(p, &L);
    for (int k = 0; k < L.count && st == ZENO_OK; k++) {
      double depth;
      bool moves;
      st = contact_set_mode_depth(p, &L.modes[k], &depth, &moves, e);
      r->modes_examined++;
      if (st == ZENO_OK && moves) unstable[r->unstable_mode_count++] = L.modes[k];
    }
    sort_modes(unstable, r->unstable_mode_count, n);
    const int listed = r->unstable_mode_count < ZENO_CONTACT_SET_MODE_LIST
                           ? r->unstable_mode_count
                           : ZENO_CONTACT_SET_MODE_LIST;
    for (int k = 0; k < listed; k++) {
      memset(&r->unstable_modes[k], ZENO_LETTER_F, sizeof r->unstable_modes[k]);
      for (int i = 0; i < n; i++) r->unstable_modes[k].letter[index[i]] = unstable[k].letter[i];
    }
  }
  free(L.modes);
  free(unstable);
  return st;
}

zeno_status zeno_contact_set_check(const zeno_contact_set_def *def, zeno_contact_set_report *r,
                                   zeno_error *e) {
  if (def == NULL || r == NULL)
    return zeno_fail(e, ZENO_ERR_ARGUMENT, "", "definition and report are required");
  zeno_status st = check_def(def, e);
  if (st != ZENO_OK) return st;
  memset(r, 0, sizeof *r);
  contact_set_problem p;
  int index[ZENO_CONTACT_SET_MAX];
  contact_set_problem_of(def, &p, &r->force_scale, index);
  r->contact_count = def->contact_count;
  const double F = r->force_scale;

  lp_margin_outcome weak;
  if ((st = margin_of(&p, p.mu, &weak, e)) != ZENO_OK) return st;
  r->margin = weak.feasible ? weak.margin * F : -INFINITY;
  r->wedged = weak.feasible && weak.capped;
  for (int i = 0; i < p.n; i++)
    for (int k = 0; k < 2; k++)
      r->forces[index[i]][k] = weak.feasible ? weak.force[2 * i + k] * F : 0;
  r->feasible = weak.feasible && weak.margin > CS_FORCE_RTOL;
  r->weakly_stable = weak.feasible && weak.margin >= -CS_FORCE_RTOL;

  const double no_friction[ZENO_CONTACT_SET_MAX] = {0};
  lp_margin_outcome frictionless;
  if ((st = margin_of(&p, no_friction, &frictionless, e)) != ZENO_OK) return st;
  r->frictionless_stable = frictionless.feasible && frictionless.margin >= -CS_FORCE_RTOL;

  if ((st = check_modes(&p, index, r, e)) != ZENO_OK) return st;
  r->strongly_stable = r->weakly_stable && r->unstable_mode_count == 0;
  r->ambiguous = r->weakly_stable && r->unstable_mode_count > 0;

  if (p.n <= ZENO_CONTACT_SET_THEOREM4_MAX) {
    contact_set_theorem4 t4;
    if ((st = contact_set_theorem4_check(&p, &t4, e)) != ZENO_OK) return st;
    r->theorem4_checked = true;
    r->theorem4_systems = t4.systems;
    r->theorem4_consistent = t4.consistent;
    r->weak_implies_strong = t4.consistent == 0;
  }
  return ZENO_OK;
}

const char *zeno_contact_set_mode_name(const zeno_contact_set_mode *mode, int contact_count,
                                       char *buffer) {
  int n = contact_count < 0 ? 0 : contact_count;
  if (n > ZENO_CONTACT_SET_MAX) n = ZENO_CONTACT_SET_MAX;
  for (int i = 0; i < n; i++) buffer[i] = zeno_letter_name((zeno_letter)mode->letter[i]);
  buffer[n] = '\0';
  return buffer;
}

_Static_assert(MODE_N_MAX_CONTACTS >= ZENO_CONTACT_SET_MAX,
               "the mode selection takes every contact of a contact set");

void contact_set_problem_dyn(const contact_set_problem *p, mode_n_dyn *d) {
  memset(d, 0, sizeof *d);
  d->n = p->n;
  for (int i = 0; i < p->n; i++) {
    for (int k = 0; k < 3; k++) {
      d->W[k][2 * i] = p->normal[i][k];
      d->W[k][2 * i + 1] = p->tangent[i][k];
    }
    d->mu[i] = p->mu[i];
  }
  for (int k = 0; k < 3; k++) {
    d->inv_mass[k] = p->inv_mass[k];
    d->h[k] = p->load[k];
  }
}
