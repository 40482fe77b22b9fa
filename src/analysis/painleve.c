// Painlevé's bound (11) of a contact (zeno/equilibrium.h). A file of its
// own, without the equilibrium's linear program: libzeno-certify uses it and
// must not carry GLPK's code (docs/install.md).
#include <math.h>

#include "zeno/equilibrium.h"

double zeno_painleve_bound(double rho, const double p[2], double phi) {
  const double n[2] = {-sin(phi), cos(phi)};
  const double r[2] = {-p[0], -p[1]};  // r_c - p with r_c at the origin
  const double len = hypot(r[0], r[1]);
  if (len == 0) return INFINITY;
  const double c = (n[0] * r[0] + n[1] * r[1]) / len;
  const double s = (n[0] * r[1] - n[1] * r[0]) / len;
  const double kappa2 = rho * rho / (len * len);
  const double sc = fabs(s * c);
  return sc == 0 ? INFINITY : (kappa2 + s * s) / sc;
}
