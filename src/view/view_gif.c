// Animated GIF with giflib (libgif-dev): 8-bit frames on one global
// palette, each frame only the rectangle that changed since the previous
// one (drawn over it: disposal "do not dispose"), looping forever.
//
// The palette: the VIEW_GIF_EXACT most frequent colours of the first frame
// exactly (the viewer's flat colours: background, surfaces, body, contacts,
// text), then a uniform 6x6x6 colour cube for the rest (anti-aliased text
// and edges, blended fills), each channel rounded to the nearest of 0, 51,
// ..., 255.
//
// The bytes go to a stream the caller owns (view_record.c: a file written
// aside and renamed into place), through giflib's output function.
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view/view.h"

/// Colours kept exactly, and the cube's levels per channel (together at
/// most the 256 of a GIF palette).
#define VIEW_GIF_EXACT 40
#define CUBE_LEVELS 6
#define CUBE_SIZE (CUBE_LEVELS * CUBE_LEVELS * CUBE_LEVELS)
#define PALETTE_SIZE 256
/// Slots of the open-addressing tables of colours (a power of two, well
/// above what they hold).
#define HASH_SLOTS 4096u
#define EMPTY_SLOT 0xFFFFFFFFu
/// The NETSCAPE2.0 application extension: loop forever.
static const GifByteType NETSCAPE[] = "NETSCAPE2.0";
#define NETSCAPE_ID_LENGTH 11
static const GifByteType LOOP_FOREVER[3] = {1, 0, 0};

struct view_gif {
  GifFileType *file;
  FILE *stream;  ///< where giflib's bytes go (the caller's)
  char *path;    ///< the name shown in messages
  int width, height;
  int frames;
  GifByteType *pixels, *previous;  ///< palette indices of this and the last frame
  Uint32 exact_key[HASH_SLOTS];    ///< 0xRRGGBB of the exact colours, or EMPTY_SLOT
  GifByteType exact_index[HASH_SLOTS];
};

static unsigned slot_of(Uint32 rgb) { return (rgb * 2654435761u) >> 20 & (HASH_SLOTS - 1); }

static int error_of(GifFileType *file) { return file != NULL ? file->Error : 0; }

static bool gif_fail(char *message, size_t size, const char *what, const char *path, int code) {
  snprintf(message, size, "cannot write '%s': %s (%s)", path, what,
           GifErrorString(code) ? GifErrorString(code) : "giflib error");
  return false;
}

static Uint32 rgb_at(const view_canvas *cv, int x, int y) {
  const view_rgb c = view_pixel(cv, x, y);
  return (Uint32)c.r << 16 | (Uint32)c.g << 8 | c.b;
}

static int cube_level(Uint32 channel) { return (int)((channel * (CUBE_LEVELS - 1) + 127) / 255); }

static GifByteType index_of(const view_gif *g, Uint32 rgb) {
  for (unsigned s = slot_of(rgb);; s = (s + 1) & (HASH_SLOTS - 1)) {
    if (g->exact_key[s] == rgb) return g->exact_index[s];
    if (g->exact_key[s] == EMPTY_SLOT) break;
  }
  const int r = cube_level(rgb >> 16), gr = cube_level(rgb >> 8 & 0xFF), b = cube_level(rgb & 0xFF);
  return (GifByteType)(VIEW_GIF_EXACT + (r * CUBE_LEVELS + gr) * CUBE_LEVELS + b);
}

/// The palette from the first frame: its most frequent colours, then the
/// cube. Unused exact entries are black.
static bool make_palette(view_gif *g, const view_canvas *cv, GifColorType *colours) {
  Uint32 *key = malloc(sizeof(Uint32) * HASH_SLOTS);
  long *count = calloc(HASH_SLOTS, sizeof(long));
  if (key == NULL || count == NULL) {
    free(key);
    free(count);
    return false;
  }
  memset(key, 0xFF, sizeof(Uint32) * HASH_SLOTS);
  unsigned used = 0;
  for (int y = 0; y < cv->height; y++)
    for (int x = 0; x < cv->width; x++) {
      const Uint32 rgb = rgb_at(cv, x, y);
      unsigned s = slot_of(rgb);
      while (key[s] != EMPTY_SLOT && key[s] != rgb) s = (s + 1) & (HASH_SLOTS - 1);
      if (key[s] == EMPTY_SLOT) {
        if (used + 1 >= HASH_SLOTS / 2) continue;  // table full: the rest go to the cube
        key[s] = rgb;
        used++;
      }
      count[s]++;
    }
  memset(g->exact_key, 0xFF, sizeof g->exact_key);
  memset(colours, 0, sizeof(GifColorType) * PALETTE_SIZE);
  for (int k = 0; k < VIEW_GIF_EXACT; k++) {
    unsigned best = HASH_SLOTS;
    for (unsigned s = 0; s < HASH_SLOTS; s++)
      if (key[s] != EMPTY_SLOT && count[s] > 0 && (best == HASH_SLOTS || count[s] > count[best]))
        best = s;
    if (best == HASH_SLOTS) break;
    const Uint32 rgb = key[best];
    count[best] = 0;
    colours[k].Red = (GifByteType)(rgb >> 16);
    colours[k].Green = (GifByteType)(rgb >> 8 & 0xFF);
    colours[k].Blue = (GifByteType)(rgb & 0xFF);
    unsigned s = slot_of(rgb);
    while (g->exact_key[s] != EMPTY_SLOT) s = (s + 1) & (HASH_SLOTS - 1);
    g->exact_key[s] = rgb;
    g->exact_index[s] = (GifByteType)k;
  }
  for (int i = 0; i < CUBE_SIZE; i++) {
    const int r = i / (CUBE_LEVELS * CUBE_LEVELS), gr = i / CUBE_LEVELS % CUBE_LEVELS,
              b = i % CUBE_LEVELS;
    colours[VIEW_GIF_EXACT + i].Red = (GifByteType)(r * 255 / (CUBE_LEVELS - 1));
    colours[VIEW_GIF_EXACT + i].Green = (GifByteType)(gr * 255 / (CUBE_LEVELS - 1));
    colours[VIEW_GIF_EXACT + i].Blue = (GifByteType)(b * 255 / (CUBE_LEVELS - 1));
  }
  free(key);
  free(count);
  return true;
}

// giflib's output function: the bytes into the caller's stream; a short
// write (a full disk) is giflib's write error.
static int write_out(GifFileType *file, const GifByteType *bytes, int length) {
  const view_gif *g = file->UserData;
  return (int)fwrite(bytes, 1, (size_t)length, g->stream);
}

view_gif *view_gif_create(FILE *stream, const char *path, int width, int height, char *message,
                          size_t message_size) {
  view_gif *g = calloc(1, sizeof *g);
  const size_t n = (size_t)width * (size_t)height;
  if (g != NULL) {
    g->pixels = malloc(n);
    g->previous = malloc(n);
    g->path = malloc(strlen(path) + 1);
  }
  if (g == NULL || g->pixels == NULL || g->previous == NULL || g->path == NULL) {
    snprintf(message, message_size, "out of memory for a %dx%d GIF", width, height);
    if (g) {
      free(g->pixels);
      free(g->previous);
      free(g->path);
      free(g);
    }
    return NULL;
  }
  strcpy(g->path, path);
  g->stream = stream;
  g->width = width;
  g->height = height;
  int code = 0;
  g->file = EGifOpen(g, write_out, &code);
  if (g->file == NULL) {
    gif_fail(message, message_size, "cannot start the file", path, code);
    free(g->pixels);
    free(g->previous);
    free(g->path);
    free(g);
    return NULL;
  }
  EGifSetGifVersion(g->file, true);  // GIF89a: delays and the loop extension
  return g;
}

/// The screen descriptor with the palette and the loop extension, before
/// the first frame.
static bool start_file(view_gif *g, const view_canvas *cv, char *message, size_t size) {
  GifColorType colours[PALETTE_SIZE];
  if (!make_palette(g, cv, colours)) {
    snprintf(message, size, "out of memory for the GIF palette");
    return false;
  }
  ColorMapObject *map = GifMakeMapObject(PALETTE_SIZE, colours);
  if (map == NULL) {
    snprintf(message, size, "out of memory for the GIF palette");
    return false;
  }
  const bool ok = EGifPutScreenDesc(g->file, g->width, g->height, 8, 0, map) == GIF_OK &&
                  EGifPutExtensionLeader(g->file, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
                  EGifPutExtensionBlock(g->file, NETSCAPE_ID_LENGTH, NETSCAPE) == GIF_OK &&
                  EGifPutExtensionBlock(g->file, sizeof LOOP_FOREVER, LOOP_FOREVER) == GIF_OK &&
                  EGifPutExtensionTrailer(g->file) == GIF_OK;
  GifFreeMapObject(map);
  return ok || gif_fail(message, size, "screen descriptor", g->path, error_of(g->file));
}

bool view_gif_frame(view_gif *g, const view_canvas *cv, int centiseconds, char *message,
                    size_t message_size) {
  if (cv->width != g->width || cv->height != g->height) {
    snprintf(message, message_size, "a %dx%d frame for a %dx%d GIF", cv->width, cv->height,
             g->width, g->height);
    return false;
  }
  if (g->frames == 0 && !start_file(g, cv, message, message_size)) return false;
  const int w = g->width, h = g->height;
  // The rectangle that changed (all of the first frame; one pixel when
  // nothing did, so that every frame is there).
  int x0 = w, x1 = -1, y0 = h, y1 = -1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const size_t i = (size_t)y * (size_t)w + (size_t)x;
      g->pixels[i] = index_of(g, rgb_at(cv, x, y));
      if (g->frames == 0 || g->pixels[i] != g->previous[i]) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  if (x1 < 0) x0 = x1 = y0 = y1 = 0;
  GraphicsControlBlock gcb;
  gcb.DisposalMode = DISPOSE_DO_NOT;
  gcb.UserInputFlag = false;
  gcb.DelayTime = centiseconds;
  gcb.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType ext[4];
  const size_t ext_length = EGifGCBToExtension(&gcb, ext);
  bool ok = EGifPutExtension(g->file, GRAPHICS_EXT_FUNC_CODE, (int)ext_length, ext) == GIF_OK &&
            EGifPutImageDesc(g->file, x0, y0, x1 - x0 + 1, y1 - y0 + 1, false, NULL) == GIF_OK;
  for (int y = y0; ok && y <= y1; y++)
    ok = EGifPutLine(g->file, g->pixels + (size_t)y * (size_t)w + (size_t)x0, x1 - x0 + 1) ==
         GIF_OK;
  if (!ok) return gif_fail(message, message_size, "frame", g->path, error_of(g->file));
  GifByteType *t = g->previous;
  g->previous = g->pixels;
  g->pixels = t;
  g->frames++;
  return true;
}

bool view_gif_close(view_gif *g, char *message, size_t message_size) {
  if (g == NULL) return true;
  int code = 0;
  const bool ok = EGifCloseFile(g->file, &code) == GIF_OK;
  if (!ok && message != NULL) gif_fail(message, message_size, "closing", g->path, code);
  free(g->pixels);
  free(g->previous);
  free(g->path);
  free(g);
  return ok;
}
