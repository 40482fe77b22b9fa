// The offscreen canvas: an ARGB8888 surface, the software renderer that
// draws into it and the font. Needs no video driver, so screenshots work
// without a display and a frame's pixels depend only on what is drawn.
#include <stdio.h>

#include "view/view.h"

static bool fail(char *message, size_t size, const char *what) {
  snprintf(message, size, "%s: %s", what, SDL_GetError());
  return false;
}

bool view_canvas_create(view_canvas *canvas, int width, int height, char *message,
                        size_t message_size) {
  SDL_memset(canvas, 0, sizeof *canvas);
  canvas->width = width;
  canvas->height = height;
  canvas->surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_ARGB8888);
  if (canvas->surface == NULL)
    return fail(message, message_size, "cannot create the frame surface");
  canvas->renderer = SDL_CreateSoftwareRenderer(canvas->surface);
  if (canvas->renderer == NULL) {
    view_canvas_destroy(canvas);
    return fail(message, message_size, "cannot create the software renderer");
  }
  canvas->font = TTF_OpenFont(VIEW_FONT_PATH, VIEW_FONT_SIZE);
  canvas->small_font = TTF_OpenFont(VIEW_FONT_PATH, VIEW_SMALL_FONT_SIZE);
  if (canvas->font == NULL || canvas->small_font == NULL) {
    snprintf(message, message_size, "cannot open the font '%s': %s", VIEW_FONT_PATH,
             TTF_GetError());
    view_canvas_destroy(canvas);
    return false;
  }
  return true;
}

bool view_canvas_resize(view_canvas *canvas, int width, int height, char *message,
                        size_t message_size) {
  if (width == canvas->width && height == canvas->height) return true;
  void (*hook)(void *, const char *, const SDL_Rect *) = canvas->text_hook;
  void *user = canvas->text_user;
  view_canvas_destroy(canvas);
  if (!view_canvas_create(canvas, width, height, message, message_size)) return false;
  canvas->text_hook = hook;
  canvas->text_user = user;
  return true;
}

void view_canvas_destroy(view_canvas *canvas) {
  if (canvas->font) TTF_CloseFont(canvas->font);
  if (canvas->small_font) TTF_CloseFont(canvas->small_font);
  if (canvas->renderer) SDL_DestroyRenderer(canvas->renderer);
  if (canvas->surface) SDL_FreeSurface(canvas->surface);
  SDL_free(canvas->chart_points);
  zeno_maps_free(&canvas->maps);
  SDL_memset(canvas, 0, sizeof *canvas);
}

view_rgb view_pixel(const view_canvas *canvas, int x, int y) {
  view_rgb c = {0, 0, 0};
  const SDL_Surface *s = canvas->surface;
  if (x < 0 || y < 0 || x >= s->w || y >= s->h) return c;
  const Uint8 *row = (const Uint8 *)s->pixels + (size_t)y * (size_t)s->pitch;
  Uint32 p;
  SDL_memcpy(&p, row + 4 * (size_t)x, sizeof p);
  SDL_GetRGB(p, s->format, &c.r, &c.g, &c.b);
  return c;
}
