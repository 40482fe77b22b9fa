// Writing a PNG with its pixel density: cairo writes no pHYs chunk, so the
// PNG cairo encodes is taken in memory and a pHYs chunk (PNG specification
// 1.2, section 4.2.4.2) is put after its IHDR chunk, which comes first.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_internal.h"

/// PNG signature (8 bytes) and the IHDR chunk (length, type, 13 data bytes,
/// CRC): the bytes before the pHYs chunk.
#define PNG_SIGNATURE_BYTES 8
#define PNG_IHDR_DATA_BYTES 13
#define PNG_CHUNK_OVERHEAD 12 ///< length, type and CRC of a chunk
#define PNG_IHDR_END (PNG_SIGNATURE_BYTES + PNG_CHUNK_OVERHEAD + PNG_IHDR_DATA_BYTES)
/// pHYs: pixels per unit x and y (4 bytes each), unit 1 = metre.
#define PNG_PHYS_DATA_BYTES 9
#define PNG_PHYS_UNIT_METRE 1
/// Metres per inch.
#define PLOT_METRES_PER_INCH 0.0254
/// CRC-32 of PNG (ISO 3309): reflected polynomial and initial/final value.
#define PNG_CRC_POLYNOMIAL 0xEDB88320u
#define PNG_CRC_INIT 0xFFFFFFFFu
#define PNG_BITS_PER_BYTE 8
/// First capacity of the in-memory PNG.
#define PNG_BUFFER_INITIAL 65536

typedef struct png_buffer {
  unsigned char *data;
  size_t size, capacity;
} png_buffer;

static cairo_status_t append(void *closure, const unsigned char *data, unsigned int length) {
  png_buffer *b = closure;
  if (b->size + length > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : PNG_BUFFER_INITIAL;
    while (capacity < b->size + length) capacity *= 2;
    unsigned char *grown = realloc(b->data, capacity);
    if (grown == NULL) return CAIRO_STATUS_NO_MEMORY;
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->size, data, length);
  b->size += length;
  return CAIRO_STATUS_SUCCESS;
}

static uint32_t crc32_png(const unsigned char *data, size_t n) {
  uint32_t crc = PNG_CRC_INIT;
  for (size_t i = 0; i < n; i++) {
    crc ^= data[i];
    for (int bit = 0; bit < PNG_BITS_PER_BYTE; bit++)
      crc = (crc >> 1) ^ (PNG_CRC_POLYNOMIAL & (0u - (crc & 1u)));
  }
  return crc ^ PNG_CRC_INIT;
}

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

plot_status plot_png_write(cairo_surface_t *surface, const char *path, double dpi) {
  png_buffer b = {0};
  const cairo_status_t st = cairo_surface_write_to_png_stream(surface, append, &b);
  if (st != CAIRO_STATUS_SUCCESS || b.size < PNG_IHDR_END ||
      memcmp(b.data + PNG_SIGNATURE_BYTES + 4, "IHDR", 4) != 0) {
    free(b.data);
    return st == CAIRO_STATUS_NO_MEMORY ? PLOT_ERR_NOMEM : PLOT_ERR_WRITE;
  }
  unsigned char phys[PNG_CHUNK_OVERHEAD + PNG_PHYS_DATA_BYTES];
  const uint32_t per_metre = (uint32_t)lround(dpi / PLOT_METRES_PER_INCH);
  put_u32(phys, PNG_PHYS_DATA_BYTES);
  memcpy(phys + 4, "pHYs", 4);
  put_u32(phys + 8, per_metre);
  put_u32(phys + 12, per_metre);
  phys[16] = PNG_PHYS_UNIT_METRE;
  put_u32(phys + 17, crc32_png(phys + 4, 4 + PNG_PHYS_DATA_BYTES));
  FILE *f = fopen(path, "wb");
  bool ok = f != NULL && fwrite(b.data, 1, PNG_IHDR_END, f) == PNG_IHDR_END &&
            fwrite(phys, 1, sizeof phys, f) == sizeof phys &&
            fwrite(b.data + PNG_IHDR_END, 1, b.size - PNG_IHDR_END, f) ==
                b.size - PNG_IHDR_END;
  if (f != NULL && fclose(f) != 0) ok = false;
  free(b.data);
  return ok ? PLOT_OK : PLOT_ERR_WRITE;
}
