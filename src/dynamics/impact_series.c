// Sequences of impacts (impact_series.h): periodic steps, constant ratios
// and the geometric extrapolation of their accumulation point.
#include "dynamics/impact_series.h"

#include <math.h>

bool series_close_rel(double a, double b, double rtol) {
  return fabs(a - b) <= rtol * fmax(fabs(a), fabs(b));
}

// True when the last K periods of length p of v keep one ratio r0 of
// durations and of speeds, to relative tolerance rtol (r < 1: a converging
// Zeno sequence; r > 1: reverse chatter).
bool series_constant_ratio(rview v, int p, int K, double rtol, double *r0) {
  for (int k = 0; k + 1 < K; k++) {
    const double Tk = at(v, k * p)->t - at(v, (k + 1) * p)->t;
    const double Tk1 = at(v, (k + 1) * p)->t - at(v, (k + 2) * p)->t;
    if (!(Tk > 0 && Tk1 > 0)) return false;
    const double rk = Tk / Tk1;
    const double rv = at(v, k * p)->speed / at(v, (k + 1) * p)->speed;
    if (k == 0) *r0 = rk;
    if (!series_close_rel(rk, *r0, rtol) || !series_close_rel(rv, *r0, rtol)) return false;
  }
  return true;
}

// True when the last K periods of length p of v repeat the same steps
// (signatures).
bool series_periodic(rview v, int p, int K) {
  for (int j = 0; j + p <= K * p; j++)
    if (at(v, j)->signature != at(v, j + p)->signature) return false;
  return true;
}

// Geometric extrapolation of the accumulation point from the states at the
// same phase of the last three periods. Velocities and times of a ZOD
// sequence are exact geometric series of ratio r; positions add the
// increments v tau + a tau^2 / 2, a sum of two series of ratios r and r^2.
// The state at the phase of the newest record, sums g and g2 of the
// series of ratios r and r^2 later: g = r / (1 - r), g2 = r^2 / (1 - r^2)
// at the limit; r (1 - r^n) / (1 - r) and r^2 (1 - r^2n) / (1 - r^2) n
// periods on.
void series_geometric_advance(rview v, int p, double r, double g, double g2, double *t, double q[3],
                              double qd[3]) {
  const impact_record *a = at(v, 0), *b = at(v, p), *c = at(v, 2 * p);
  *t = a->t + (a->t - b->t) * g;
  for (int k = 0; k < 3; k++) {
    qd[k] = a->qd[k] + (a->qd[k] - b->qd[k]) * g;
    const double e0 = a->q[k] - b->q[k], e1 = b->q[k] - c->q[k];
    const double lin = (e1 * r * r - e0) / (r - 1);
    const double quad = e0 - lin;
    q[k] = a->q[k] + lin * g + quad * g2;
  }
}

bool series_same_direction(const double *va, const double *vb, int m, double rtol) {
  double na = 0, nb = 0;
  for (int a = 0; a < m; a++) {
    na = fmax(na, fabs(va[a]));
    nb = fmax(nb, fabs(vb[a]));
  }
  if (!(na > 0 && nb > 0)) return false;
  double diff = 0;
  for (int a = 0; a < m; a++) diff = fmax(diff, fabs(va[a] / na - vb[a] / nb));
  return diff <= rtol;
}
