// The viewer's playback clock: real time at five speeds, the Zeno warp
// (every inter-event interval gets the same wall time), event steps,
// scrubbing, the automatic zoom and restarts after an impulse.
#include <math.h>
#include <string.h>

#include "view/view.h"

/// Key 1 plays in real time; each next key is ten times slower.
#define VIEW_SPEED_RATIO 10.0
/// The automatic speed plays the whole run in at least this many seconds.
#define VIEW_AUTO_PLAY_SECONDS 5.0
/// A run that never moves gets impulses of this fraction of sqrt(a L)
/// (a = |f|/m, L the body size): small against the body, visible zoomed.
#define VIEW_REST_SPEED_FRACTION 1e-2

double view_speed(int level) {
  if (level < 1) level = 1;
  if (level > VIEW_SPEED_LEVELS) level = VIEW_SPEED_LEVELS;
  return pow(VIEW_SPEED_RATIO, -(double)(level - 1));
}

double view_body_size(const zeno_scene *scene) {
  double size = 0;
  for (int i = 0; i < scene->contact_count; i++)
    size = fmax(size, hypot(scene->contacts[i].point[0], scene->contacts[i].point[1]));
  if (scene->outline_kind == ZENO_OUTLINE_POLYGON)
    for (size_t k = 0; k < scene->outline_count; k++)
      size = fmax(size, hypot(scene->outline[k][0], scene->outline[k][1]));
  if (scene->outline_kind == ZENO_OUTLINE_DISK) size = fmax(size, scene->outline_radius);
  return size > 0 ? size : 1.0;
}

/// Rows of the linearised contact coordinates (z1, z2, x2) at the nominal
/// pose: c = A q with q = (x, y, theta).
static void coordinate_matrix(const zeno_scene *sc, double A[3][3]) {
  int r = 0;
  for (int i = 0; i < 2; i++) {
    const zeno_contact_def *c = &sc->contacts[i];
    const double t[2] = {cos(c->surface_angle), sin(c->surface_angle)};
    const double n[2] = {-t[1], t[0]};
    // d(point)/dtheta = J p = (-p_y, p_x).
    const double jp[2] = {-c->point[1], c->point[0]};
    A[r][0] = n[0];
    A[r][1] = n[1];
    A[r][2] = n[0] * jp[0] + n[1] * jp[1];
    r++;
    if (i == 1) {
      A[r][0] = t[0];
      A[r][1] = t[1];
      A[r][2] = t[0] * jp[0] + t[1] * jp[1];
    }
  }
}

static double det3(double A[3][3]) {
  return A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
         A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
         A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
}

/// Solves A x = b by Cramer's rule; false when A is singular.
static bool solve3(double A[3][3], const double b[3], double x[3]) {
  const double det = det3(A);
  if (!(fabs(det) > 0)) return false;
  for (int k = 0; k < 3; k++) {
    double M[3][3];
    memcpy(M, A, sizeof M);
    for (int r = 0; r < 3; r++) M[r][k] = b[r];
    x[k] = det3(M) / det;
  }
  return true;
}

static void apply3(double A[3][3], const double q[3], double c[3]) {
  for (int r = 0; r < 3; r++) c[r] = A[r][0] * q[0] + A[r][1] * q[1] + A[r][2] * q[2];
}

void view_displayed(const zeno_scene *sc, view_zoom zoom, const double q[3], double d[3]) {
  for (int k = 0; k < 3; k++) d[k] = zoom.normal * q[k];
  if (sc->contact_count != 2 || zoom.tangential == zoom.normal) return;
  double A[3][3], c[3];
  coordinate_matrix(sc, A);
  apply3(A, q, c);
  c[0] *= zoom.normal;
  c[1] *= zoom.normal;
  c[2] *= zoom.tangential;
  double x[3];
  if (solve3(A, c, x)) memcpy(d, x, sizeof x);
}

/// Largest displacement of the rows with t in [t0, t1]: |x|, |y| and
/// |theta| times the body size [length].
static double largest_displacement(const view_run *run, double t0, double t1) {
  const double L = view_body_size(&run->scene);
  double a = 0;
  for (size_t i = 0; i < run->data.row_count; i++) {
    const double *q = run->data.rows[i].q;
    if (run->data.rows[i].t < t0 || run->data.rows[i].t > t1) continue;
    a = fmax(a, fmax(fmax(fabs(q[0]), fabs(q[1])), fabs(q[2]) * L));
  }
  return a;
}

/// Size of a displacement: |x|, |y| and |theta| times the body size L.
static double displacement_size(const double d[3], double L) {
  return fmax(fmax(fabs(d[0]), fabs(d[1])), fabs(d[2]) * L);
}

/// The displacement of q split into the part from the gaps (z1, z2 with
/// x2 = 0) and the part from the slip (x2 with z1 = z2 = 0).
static bool split_displacement(double A[3][3], const double q[3], double from_gaps[3],
                               double from_slip[3]) {
  double c[3];
  apply3(A, q, c);
  const double gaps[3] = {c[0], c[1], 0}, slip[3] = {0, 0, c[2]};
  return solve3(A, gaps, from_gaps) && solve3(A, slip, from_slip);
}

/// Two contacts: gaps and slip magnified separately, each part of the
/// displacement at most `size`, the sum too.
static view_zoom split_zoom(const view_run *run, double t0, double t1, double size,
                            view_zoom uniform) {
  const double L = view_body_size(&run->scene);
  double A[3][3];
  coordinate_matrix(&run->scene, A);
  double gap_size = 0, slip_size = 0;
  for (size_t i = 0; i < run->data.row_count; i++) {
    if (run->data.rows[i].t < t0 || run->data.rows[i].t > t1) continue;
    double dg[3], ds[3];
    if (!split_displacement(A, run->data.rows[i].q, dg, ds)) return uniform;
    gap_size = fmax(gap_size, displacement_size(dg, L));
    slip_size = fmax(slip_size, displacement_size(ds, L));
  }
  const double floor = VIEW_ZOOM_FLOOR * L;
  if (!(gap_size > floor) && !(slip_size > floor)) return uniform;
  view_zoom z = {size / fmax(gap_size, floor), size / fmax(slip_size, floor)};
  z.normal = fmin(z.normal, z.tangential * VIEW_GAP_ZOOM_LIMIT);
  double total = 0;
  for (size_t i = 0; i < run->data.row_count; i++) {
    if (run->data.rows[i].t < t0 || run->data.rows[i].t > t1) continue;
    double d[3];
    view_displayed(&run->scene, z, run->data.rows[i].q, d);
    total = fmax(total, displacement_size(d, L));
  }
  if (total > size) {
    z.normal *= size / total;
    z.tangential *= size / total;
  }
  return z;
}

void view_phase(const view_run *run, double t, double *t0, double *t1) {
  *t0 = -INFINITY;
  *t1 = INFINITY;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const zeno_run_dir_event *e = &run->data.events[i];
    if (e->kind != ZENO_EVENT_ZENO || !isfinite(e->t)) continue;
    if (e->t < t) *t0 = e->t;
    if (e->t >= t && e->t < *t1) *t1 = e->t;
  }
}

/// A zoom that shrinks the motion of the rows in [t0, t1] (a factor below
/// 1) with each such factor raised to 1, when the rotation it then draws
/// stays within VIEW_TRUE_SCALE_ROTATION: the motion is drawn at true
/// scale and the camera frames it. Else the zoom as it was.
static view_zoom true_scale(const view_run *run, double t0, double t1, view_zoom z) {
  const view_zoom lifted = {fmax(z.normal, 1.0), fmax(z.tangential, 1.0)};
  if (lifted.normal == z.normal && lifted.tangential == z.tangential) return z;
  for (size_t i = 0; i < run->data.row_count; i++) {
    if (run->data.rows[i].t < t0 || run->data.rows[i].t > t1) continue;
    double d[3];
    view_displayed(&run->scene, lifted, run->data.rows[i].q, d);
    if (!(fabs(d[2]) <= VIEW_TRUE_SCALE_ROTATION)) return z;
  }
  return lifted;
}

view_zoom view_auto_zoom(const view_run *run, double t) {
  double t0, t1;
  view_phase(run, t, &t0, &t1);
  const double size = VIEW_ZOOM_FRACTION * view_body_size(&run->scene);
  view_zoom z = {1.0, 1.0};
  const double a = largest_displacement(run, t0, t1);
  if (!(a > 0) || !isfinite(a)) return z;
  z.normal = z.tangential = size / fmax(a, VIEW_ZOOM_FLOOR * view_body_size(&run->scene));
  if (run->scene.contact_count == 2) z = split_zoom(run, t0, t1, size, z);
  return true_scale(run, t0, t1, z);
}

view_zoom view_play_zoom(const view_play *play, const view_run *run) {
  view_zoom z = {play->zoom_fixed, play->zoom_fixed};
  if (!(play->zoom_fixed > 0)) z = view_auto_zoom(run, play->t);
  z.normal *= play->zoom_factor;
  z.tangential *= play->zoom_factor;
  return z;
}

double view_velocity_scale(const view_run *run) {
  const double L = view_body_size(&run->scene);
  double v = 0;
  for (size_t i = 0; i < run->data.row_count; i++) {
    const double *qd = run->data.rows[i].qdot;
    v = fmax(v, fmax(fmax(fabs(qd[0]), fabs(qd[1])), fabs(qd[2]) * L));
  }
  if (v > 0 && isfinite(v)) return v;
  const double a = run->scene.load_magnitude / run->scene.mass;
  double disp = largest_displacement(run, -INFINITY, INFINITY);
  if (!(disp > 0)) disp = L;
  return VIEW_REST_SPEED_FRACTION * sqrt(fmax(a, 1.0) * disp);
}

/* ---- the Zeno warp: the clock counts event intervals ---------------------- */

/// Walks the distinct finite event times (the knots of the warp clock) in
/// order up to knot number `stop` (0-based; -1: all). Stores that knot in
/// *out and the one before it in *previous_out (NaN when none) and returns
/// the number of knots walked.
static long knots(const view_run *run, double *previous_out, double *out, long stop) {
  long n = 0;
  double last = NAN, prev = NAN;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const double t = run->data.events[i].t;
    if (!isfinite(t) || t == last) continue;
    prev = last;
    last = t;
    if (n++ == stop) break;
  }
  if (previous_out) *previous_out = prev;
  if (out) *out = last;
  return n;
}

double view_warp_length(const view_run *run) {
  const long n = knots(run, NULL, NULL, -1);
  return n > 1 ? (double)(n - 1) : 0.0;
}

double view_warp_time(const view_run *run, double u) {
  const double length = view_warp_length(run);
  if (length <= 0) return 0;
  u = fmin(fmax(u, 0), length);
  const double k = floor(u);
  double a, b;
  if (k >= length) {
    knots(run, NULL, &b, (long)k);
    return b;
  }
  knots(run, &a, &b, (long)k + 1);
  return a + (u - k) * (b - a);
}

double view_warp_clock(const view_run *run, double t) {
  long k = 0;
  double prev = NAN;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const double ti = run->data.events[i].t;
    if (!isfinite(ti) || ti == prev) continue;
    if (!isnan(prev) && ti > t) return (double)(k - 1) + (t - prev) / (ti - prev);
    if (ti > t) return 0;
    prev = ti;
    k++;
  }
  return k > 0 ? (double)(k - 1) : 0.0;
}

/* ---- the clock ---------------------------------------------------------- */

void view_play_init(view_play *play, const view_run *run) {
  memset(play, 0, sizeof *play);
  play->zoom_factor = 1.0;
  play->run_number = 1;
  play->legend = true;
  play->speed_level = VIEW_SPEED_LEVELS;
  for (int level = 1; level <= VIEW_SPEED_LEVELS; level++)
    if (run->t_end / view_speed(level) >= VIEW_AUTO_PLAY_SECONDS) {
      play->speed_level = level;
      break;
    }
}

void view_play_seek(view_play *play, const view_run *run, double t) {
  play->t = fmin(fmax(t, 0), run->t_end);
  play->warp_u = view_warp_clock(run, play->t);
}

void view_play_set_warp(view_play *play, const view_run *run, bool warp) {
  play->warp = warp;
  play->warp_u = view_warp_clock(run, play->t);
}

void view_play_advance(view_play *play, const view_run *run, double dt) {
  if (play->paused || !(dt > 0)) return;
  if (play->warp) {
    play->warp_u = fmin(play->warp_u + VIEW_WARP_EVENTS_PER_SECOND * dt, view_warp_length(run));
    play->t = view_warp_time(run, play->warp_u);
  } else {
    view_play_seek(play, run, play->t + view_speed(play->speed_level) * dt);
  }
}

double view_start_time(const view_run *run, const view_options *o) {
  if (o->at_event >= 0 && (size_t)o->at_event < run->data.event_count)
    return run->data.events[o->at_event].t;
  return o->at;
}

double view_play_seconds_left(const view_play *play, const view_run *run) {
  if (play->warp)
    return fmax(view_warp_length(run) - play->warp_u, 0) / VIEW_WARP_EVENTS_PER_SECOND;
  return fmax(run->t_end - play->t, 0) / view_speed(play->speed_level);
}

void view_play_step_event(view_play *play, const view_run *run, int direction) {
  double target = direction > 0 ? run->t_end : 0;
  for (size_t i = 0; i < run->data.event_count; i++) {
    const double t = run->data.events[i].t;
    if (!isfinite(t)) continue;
    if (direction > 0 && t > play->t) {
      target = t;
      break;
    }
    if (direction < 0 && t < play->t) target = t;
  }
  view_play_seek(play, run, target);
  play->paused = true;
}

/* ---- impulses ------------------------------------------------------------ */

zeno_status view_apply_impulse(view_run *run, view_play *play, const double point[2],
                               const double impulse[2], zeno_error *error) {
  zeno_run_dir_row now;
  view_run_state(run, play->t, &now);
  const zeno_scene *sc = &run->scene;
  zeno_scene next = *sc;
  next.initial_kind = ZENO_INITIAL_POSE;
  memcpy(next.initial_pose, now.q, sizeof next.initial_pose);
  // The lever arm is taken at the nominal attitude: the displacement is a
  // perturbation of it.
  const double inertia = sc->mass * sc->rho * sc->rho;
  next.initial_velocity[0] = now.qdot[0] + impulse[0] / sc->mass;
  next.initial_velocity[1] = now.qdot[1] + impulse[1] / sc->mass;
  next.initial_velocity[2] = now.qdot[2] +
                             (point[0] * impulse[1] - point[1] * impulse[0]) / inertia;
  view_run fresh;
  const zeno_status status = view_run_simulate(&fresh, &next, error);
  if (status != ZENO_OK) return status;
  view_run_free(run);
  *run = fresh;
  play->t = 0;
  play->warp_u = 0;
  play->run_number++;
  return ZENO_OK;
}

void view_perturbation(const zeno_scene *scene, double speed_scale, double u1, double u2, double u3,
                       double point[2], double impulse[2]) {
  const double v = VIEW_PERTURB_FRACTION * speed_scale * (0.5 + 0.5 * u2);
  const double angle = 2 * ZENO_PI * u1;
  impulse[0] = scene->mass * v * cos(angle);
  impulse[1] = scene->mass * v * sin(angle);
  point[0] = view_body_size(scene) * (2 * u3 - 1) / 2;
  point[1] = 0;
}
