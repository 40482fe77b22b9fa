// Writing a PNG with its pixel density through libpng: cairo's own writer
// (cairo-png.c) writes no pHYs chunk. The image is laid out as cairo lays it
// out: 8 bits a channel, RGB for an RGB24 surface and for an ARGB32 one
// that is opaque, else RGBA with the alpha divided out again, and a white
// bKGD chunk; libpng's default filters and compression.
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

/// Metres per inch (pHYs counts pixels per metre).
#define PLOT_METRES_PER_INCH 0.0254
/// Bits of a PNG channel, as cairo writes its 8-bit surfaces.
#define PLOT_PNG_BITS 8
/// The largest channel value (white, full alpha), and the mask of a
/// channel in a cairo pixel.
#define PLOT_PNG_CHANNEL_MAX 0xFFu
/// Bytes of an RGB and of an RGBA pixel of the PNG.
#define PLOT_PNG_RGB 3
#define PLOT_PNG_RGBA 4
/// A cairo pixel is a native-endian 32-bit word: alpha (unused in RGB24),
/// red, green, blue from the top byte down, the colours premultiplied by
/// the alpha.
#define PIXEL_ALPHA_SHIFT 24
#define PIXEL_RED_SHIFT 16
#define PIXEL_GREEN_SHIFT 8

/// An image surface's pixels, and how the PNG lays them out.
typedef struct image_rows {
  const unsigned char *data;
  int width, height, stride;
  bool alpha;  ///< RGBA; else RGB
} image_rows;

/// The pixel at column x of a row of a cairo image surface.
static uint32_t pixel_at(const unsigned char *row, int x) {
  uint32_t p;
  memcpy(&p, row + (size_t)x * sizeof p, sizeof p);
  return p;
}

/// Whether every pixel has full alpha (an ARGB32 image cairo writes as RGB).
static bool opaque(const image_rows *image) {
  for (int y = 0; y < image->height; y++)
    for (int x = 0; x < image->width; x++)
      if (pixel_at(image->data + (ptrdiff_t)y * image->stride, x) >> PIXEL_ALPHA_SHIFT !=
          PLOT_PNG_CHANNEL_MAX)
        return false;
  return true;
}

/// Row y as PNG bytes: RGB, or RGBA with each colour divided by the alpha
/// and rounded as cairo's writer does (0 where the alpha is 0). Without
/// alpha the colours are the pixel's own (divided by full alpha, they
/// stay).
static void convert_row(const image_rows *image, int y, png_byte *out) {
  const unsigned char *row = image->data + (ptrdiff_t)y * image->stride;
  for (int x = 0; x < image->width; x++) {
    const uint32_t p = pixel_at(row, x);
    const uint32_t a = image->alpha ? p >> PIXEL_ALPHA_SHIFT : PLOT_PNG_CHANNEL_MAX;
    const uint32_t colour[PLOT_PNG_RGB] = {(p >> PIXEL_RED_SHIFT) & PLOT_PNG_CHANNEL_MAX,
                                           (p >> PIXEL_GREEN_SHIFT) & PLOT_PNG_CHANNEL_MAX,
                                           p & PLOT_PNG_CHANNEL_MAX};
    // At full alpha the division gives the colour back exactly ((255 c +
    // 127) / 255 = c): the figures' opaque pixels skip it (three divisions
    // a pixel made the encoding three times slower than cairo's writer).
    if (a == PLOT_PNG_CHANNEL_MAX)
      for (int c = 0; c < PLOT_PNG_RGB; c++) *out++ = (png_byte)colour[c];
    else
      for (int c = 0; c < PLOT_PNG_RGB; c++)
        *out++ = (png_byte)(a == 0 ? 0 : (colour[c] * PLOT_PNG_CHANNEL_MAX + a / 2) / a);
    if (image->alpha) *out++ = (png_byte)a;
  }
}

/// libpng's errors (a failed write, or its own memory) go back to encode()'s
/// setjmp() without a word: the caller reports the failure.
static void on_png_error(png_structp png, png_const_charp message) {
  (void)message;
  png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

/// Writes the PNG to `file` through `png`, converting each row in `row`;
/// false when libpng fails.
static bool encode(png_structp png, png_infop info, FILE *file, const image_rows *image, double dpi,
                   png_byte *row) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  png_set_IHDR(png, info, (png_uint_32)image->width, (png_uint_32)image->height, PLOT_PNG_BITS,
               image->alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_color_16 white = {.red = PLOT_PNG_CHANNEL_MAX,
                        .green = PLOT_PNG_CHANNEL_MAX,
                        .blue = PLOT_PNG_CHANNEL_MAX,
                        .gray = PLOT_PNG_CHANNEL_MAX};
  png_set_bKGD(png, info, &white);
  const png_uint_32 per_metre = (png_uint_32)lround(dpi / PLOT_METRES_PER_INCH);
  png_set_pHYs(png, info, per_metre, per_metre, PNG_RESOLUTION_METER);
  png_write_info(png, info);
  for (int y = 0; y < image->height; y++) {
    convert_row(image, y, row);
    png_write_row(png, row);
  }
  png_write_end(png, info);
  return true;
}

plot_status plot_png_write(cairo_surface_t *surface, FILE *file, double dpi) {
  cairo_surface_flush(surface);
  const plot_status status = plot_surface_status(surface);
  if (status != PLOT_OK) return status;
  const cairo_format_t format = cairo_image_surface_get_format(surface);
  image_rows image = {cairo_image_surface_get_data(surface), cairo_image_surface_get_width(surface),
                      cairo_image_surface_get_height(surface),
                      cairo_image_surface_get_stride(surface), false};
  if (image.data == NULL || image.width == 0 || image.height == 0 ||
      (format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24))
    return PLOT_ERR_WRITE;
  image.alpha = format == CAIRO_FORMAT_ARGB32 && !opaque(&image);
  png_byte *row = malloc((size_t)image.width * (image.alpha ? PLOT_PNG_RGBA : PLOT_PNG_RGB));
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, on_png_error,
                                            on_png_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  const bool allocated = row != NULL && info != NULL;
  const bool written = allocated && encode(png, info, file, &image, dpi, row) && fflush(file) == 0;
  png_destroy_write_struct(&png, &info);
  free(row);
  if (!allocated) return PLOT_ERR_NOMEM;
  return written ? PLOT_OK : PLOT_ERR_WRITE;
}
