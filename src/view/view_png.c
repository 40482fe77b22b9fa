// Writing a frame as an 8-bit RGB PNG with libpng, aside and renamed into
// place (zeno_io_output): a failure leaves the previous file.
#include <errno.h>
#include <fcntl.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view/view.h"

/// Bytes per RGB pixel.
#define RGB_BYTES 3
/// Names tried by view_fresh_name() before it gives up (a directory full
/// of earlier screenshots).
#define VIEW_FRESH_NAME_TRIES 10000

// libpng's errors end the write (longjmp) without its own line on stderr:
// the caller reports the file and the reason.
static void png_failed(png_structp png, png_const_charp what) {
  (void)what;
  png_longjmp(png, 1);
}

static void png_warned(png_structp png, png_const_charp what) {
  (void)png;
  (void)what;
}

/// Writes the rows with libpng; false on a libpng error (longjmp).
static bool write_rows(FILE *f, png_bytep *rows, int width, int height) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_failed, png_warned);
  if (png == NULL) return false;
  png_infop info = png_create_info_struct(png);
  if (info == NULL || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : NULL);
    return false;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return true;
}

bool view_write_png(const view_canvas *canvas, const char *path, char *message,
                    size_t message_size) {
  const int w = canvas->width, h = canvas->height;
  png_bytep data = malloc((size_t)w * (size_t)h * RGB_BYTES);
  png_bytep *rows = malloc((size_t)h * sizeof *rows);
  if (data == NULL || rows == NULL) {
    free(data);
    free(rows);
    snprintf(message, message_size, "out of memory");
    return false;
  }
  for (int y = 0; y < h; y++) {
    rows[y] = data + (size_t)y * (size_t)w * RGB_BYTES;
    for (int x = 0; x < w; x++) {
      const view_rgb c = view_pixel(canvas, x, y);
      rows[y][RGB_BYTES * x] = c.r;
      rows[y][RGB_BYTES * x + 1] = c.g;
      rows[y][RGB_BYTES * x + 2] = c.b;
    }
  }
  zeno_error err;
  zeno_io_output *out = zeno_io_output_open_path(path, &err);
  bool ok = out != NULL;
  errno = 0;
  if (ok && !write_rows(zeno_io_output_stream(out), rows, w, h)) {
    // The stream's own error (a full disk: EFBIG, ENOSPC), else libpng's.
    const int reason = errno;
    zeno_io_output_discard(out);
    snprintf(message, message_size, "cannot write '%s': %s", path,
             reason ? strerror(reason) : "libpng error");
    ok = false;
  } else if (ok) {
    ok = zeno_io_output_commit(out, &err) == ZENO_OK;
    if (!ok) snprintf(message, message_size, "%s", err.message);
  } else {
    snprintf(message, message_size, "%s", err.message);
  }
  free(data);
  free(rows);
  return ok;
}

bool view_fresh_name(const char *stem, const char *ext, int *counter, char *path, size_t path_size,
                     char *message, size_t message_size) {
  for (int tries = 0; tries < VIEW_FRESH_NAME_TRIES; tries++) {
    const int n = ++*counter;
    snprintf(path, path_size, "%s-%d.%s", stem, n, ext);
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      close(fd);
      return true;
    }
    if (errno != EEXIST) {
      snprintf(message, message_size, "cannot create %s: %s", path, strerror(errno));
      return false;
    }
  }
  snprintf(message, message_size, "%s-1.%s to %s-%d.%s all exist; nothing written", stem, ext, stem,
           *counter, ext);
  return false;
}
