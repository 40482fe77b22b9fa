// Text for the viewer: SDL2_ttf renders each string (blended, so the
// pixels are the same on every run) and the renderer copies it. Text that
// does not fit its width is drawn in the small font, and cut with "..."
// when even that is too wide, so that nothing runs off a small window.
#include <string.h>

#include "view/view.h"

/// Longest string view_text_fit() shortens [bytes].
#define FIT_BUFFER 512
static const char ELLIPSIS[] = "...";

static int text_width(TTF_Font *font, const char *text) {
  int w = 0, h = 0;
  if (font == NULL || TTF_SizeUTF8(font, text, &w, &h) != 0) return 0;
  return w;
}

int view_text_in(view_canvas *canvas, TTF_Font *font, int x, int y, view_rgb colour,
                 const char *text) {
  if (font == NULL || text == NULL || text[0] == '\0') return 0;
  const SDL_Color c = {colour.r, colour.g, colour.b, 255};
  SDL_Surface *s = TTF_RenderUTF8_Blended(font, text, c);
  if (s == NULL) return 0;
  const int width = s->w;
  const SDL_Rect at = {x, y, s->w, s->h};
  SDL_Texture *tex = SDL_CreateTextureFromSurface(canvas->renderer, s);
  if (tex != NULL) {
    SDL_RenderCopy(canvas->renderer, tex, NULL, &at);
    SDL_DestroyTexture(tex);
  }
  SDL_FreeSurface(s);
  if (canvas->text_hook != NULL) canvas->text_hook(canvas->text_user, text, &at);
  return width;
}

int view_text(view_canvas *canvas, int x, int y, view_rgb colour, const char *text) {
  return view_text_in(canvas, canvas->font, x, y, colour, text);
}

static int fit(view_canvas *canvas, bool big, int x, int y, int max_width, view_rgb colour,
               const char *text) {
  if (text == NULL || text[0] == '\0' || max_width <= 0) return 0;
  if (big && text_width(canvas->font, text) <= max_width)
    return view_text(canvas, x, y, colour, text);
  TTF_Font *small = canvas->small_font;
  if (text_width(small, text) <= max_width) return view_text_in(canvas, small, x, y, colour, text);
  // Cut at a character boundary (not inside a UTF-8 sequence) so that the
  // rest and "..." fit.
  char buffer[FIT_BUFFER];
  size_t n = strlen(text);
  if (n > sizeof buffer - sizeof ELLIPSIS) n = sizeof buffer - sizeof ELLIPSIS;
  while (n > 0) {
    n--;
    while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    memcpy(buffer, text, n);
    memcpy(buffer + n, ELLIPSIS, sizeof ELLIPSIS);
    if (text_width(small, buffer) <= max_width) break;
  }
  if (n == 0) return 0;
  return view_text_in(canvas, small, x, y, colour, buffer);
}

int view_text_fit(view_canvas *canvas, int x, int y, int max_width, view_rgb colour,
                  const char *text) {
  return fit(canvas, true, x, y, max_width, colour, text);
}

int view_text_fit_small(view_canvas *canvas, int x, int y, int max_width, view_rgb colour,
                        const char *text) {
  return fit(canvas, false, x, y, max_width, colour, text);
}

int view_text_width(TTF_Font *font, const char *text) { return text_width(font, text); }
