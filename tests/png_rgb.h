// Reading a PNG the viewer wrote as 8-bit RGB (test_view.c,
// test_view_record.c), through libpng's simplified API.
#ifndef ZENO_TESTS_PNG_RGB_H
#define ZENO_TESTS_PNG_RGB_H

#include <png.h>
#include <stdlib.h>
#include <string.h>

/// Reads a PNG as 8-bit RGB; returns the pixels (free them) or NULL.
static inline unsigned char *read_png(const char *path, int *width, int *height) {
  png_image image;
  memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path)) return NULL;
  image.format = PNG_FORMAT_RGB;
  unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
  if (pixels == NULL || !png_image_finish_read(&image, NULL, pixels, 0, NULL)) {
    free(pixels);
    png_image_free(&image);
    return NULL;
  }
  *width = (int)image.width;
  *height = (int)image.height;
  return pixels;
}

#endif
