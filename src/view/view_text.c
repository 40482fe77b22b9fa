// Text for the viewer: SDL2_ttf renders each string (blended, so the
// pixels are the same on every run) and the renderer copies it.
#include "view/view.h"

int view_text(view_canvas *canvas, int x, int y, view_rgb colour,
              const char *text) {
  if (canvas->font == NULL || text == NULL || text[0] == '\0') return 0;
  const SDL_Color c = {colour.r, colour.g, colour.b, 255};
  SDL_Surface *s = TTF_RenderUTF8_Blended(canvas->font, text, c);
  if (s == NULL) return 0;
  const int width = s->w;
  SDL_Texture *tex = SDL_CreateTextureFromSurface(canvas->renderer, s);
  if (tex != NULL) {
    const SDL_Rect at = {x, y, s->w, s->h};
    SDL_RenderCopy(canvas->renderer, tex, NULL, &at);
    SDL_DestroyTexture(tex);
  }
  SDL_FreeSurface(s);
  return width;
}
