// The index ordering of the contacts, eq. (13) (contact_order.h).
#include "dynamics/contact_order.h"

#include <string.h>

#include "dynamics/kinematics.h"

void contact_order_of(const contact_dyn *d, int n, contact_order *order) {
  memset(order, 0, sizeof *order);
  for (int i = 0; i < n; i++) order->zdd_ff[i] = d->afree[2 * i];
  order->ok = n == 1 || order->zdd_ff[0] < 0;
  order->swappable = n == 2 && !order->ok && order->zdd_ff[1] < 0;
}

bool contact_order_of_scene(const zeno_scene *scene, contact_order *order) {
  kinematics_model km;
  if (kinematics_model_init(&km, scene, NULL) != ZENO_OK || km.n != 2) return false;
  contact_dyn d;
  const double bias[4] = {0, 0, 0, 0};
  contact_dyn_build(&d, km.n, km.W0, km.inv_mass, km.h, bias, km.mu);
  const double rhs[3] = {-d.h[0], -d.h[1], -d.h[2]};
  double force[4], margin;
  if (!contact_static_family(&d, rhs, force, &margin)) return false;
  contact_order_of(&d, km.n, order);
  return true;
}
