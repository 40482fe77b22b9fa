// Reading a figure's pixels in the figure tests (test_plot.c,
// test_figures.c): the colour at a device point of a cairo image surface
// and the distance between two colours.
#ifndef ZENO_TESTS_PLOT_PIXELS_H
#define ZENO_TESTS_PLOT_PIXELS_H

#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"

/// The colour of the pixel holding device point (x, y), which must lie on
/// the surface (a cmocka assertion).
static inline plot_color pixel(cairo_surface_t *s, double x, double y) {
  const int px = (int)floor(x), py = (int)floor(y);
  assert_true(px >= 0 && px < cairo_image_surface_get_width(s) && py >= 0 &&
              py < cairo_image_surface_get_height(s));
  const unsigned char *row = cairo_image_surface_get_data(s) +
                             (size_t)py * (size_t)cairo_image_surface_get_stride(s);
  uint32_t v;
  memcpy(&v, row + 4 * (size_t)px, sizeof v);  // 0xAARRGGBB, native endian
  return (plot_color){(uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
}

/// The largest channel difference of two colours.
static inline int color_distance(plot_color a, plot_color b) {
  const int dr = abs(a.r - b.r), dg = abs(a.g - b.g), db = abs(a.b - b.b);
  return dr > dg ? (dr > db ? dr : db) : (dg > db ? dg : db);
}

#endif
