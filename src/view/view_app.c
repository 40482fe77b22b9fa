// The viewer front end: the headless screenshot and the window loop with
// its keys and mouse. Frames are drawn offscreen (view_draw_frame) and the
// window shows a copy, so what a screenshot holds is what the window shows.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "view/view.h"

/// Frames per second the window aims at; --frames runs advance the clock
/// by exactly 1/VIEW_FPS per frame so they are reproducible.
#define VIEW_FPS 60
/// Longest wall time one frame may advance the clock [s] (after a stall).
#define VIEW_MAX_FRAME_SECONDS 0.1
/// Shift+arrow scrubs by this fraction of the run.
#define VIEW_SCRUB_FRACTION (1.0 / 200)
/// A press grabs the body when within this many body sizes of its centre.
#define VIEW_GRAB_REACH 1.2
/// Seed of the perturbation generator (the same sequence every session).
#define VIEW_PERTURB_SEED 0x9E3779B97F4A7C15ull
#define MESSAGE_SIZE 512
/// Exit code when there is no display to open a window on: nothing can be
/// shown, as for bad input (the window itself failing exits 1).
#define VIEW_EXIT_NO_DISPLAY 2
#define PATH_SIZE 64

void view_play_start(view_play *play, const view_run *run, const view_options *o) {
  view_play_init(play, run);
  play->zoom_fixed = o->zoom;
  if (o->speed_level > 0) play->speed_level = o->speed_level;
  view_play_set_warp(play, run, o->warp);
}

/// SDL and SDL2_ttf for an offscreen canvas (no video subsystem).
static bool start_ttf(void) {
  if (TTF_Init() == 0) return true;
  fprintf(stderr, "zeno: cannot start SDL2_ttf: %s\n", TTF_GetError());
  return false;
}

int view_screenshot(view_run *run, const view_options *o) {
  if (!start_ttf()) return 1;
  char message[MESSAGE_SIZE];
  view_canvas canvas;
  int code = 0;
  if (!view_canvas_create(&canvas, o->width, o->height, message, sizeof message)) {
    fprintf(stderr, "zeno: %s\n", message);
    code = 1;
  } else {
    view_play play;
    view_play_start(&play, run, o);
    view_play_seek(&play, run, view_start_time(run, o));
    view_draw_frame(&canvas, run, &play, NULL);
    if (o->stop != NULL && *o->stop != 0) {
      code = 1;  // stopped by the caller: nothing written
    } else if (!view_write_png(&canvas, o->screenshot, message, sizeof message)) {
      fprintf(stderr, "zeno: %s\n", message);
      code = 1;
    }
    view_canvas_destroy(&canvas);
  }
  TTF_Quit();
  SDL_Quit();
  return code;
}

/* ---- the window ---------------------------------------------------------- */

typedef struct app {
  view_run *run;
  view_play play;
  view_canvas canvas;
  zeno_scene original;  ///< the scene of the first run (r restarts it)
  const view_options *options;
  bool live_restart;  ///< the run was replaced by a perturbed one
  bool quit;
  bool failed;             ///< quit because of an SDL failure
  unsigned long long rng;  ///< xorshift state for `p`
  int screenshots;
  /// Velocity scale of the scene's own run: `p` perturbs at a fraction of
  /// it whatever runs came since (a perturbed run's scale is the last
  /// perturbation's, and presses shrank by orders of magnitude).
  double perturb_scale;
  double grab_body[2];  ///< grabbed body point [length]
  SDL_Window *window;
  view_reload reload;  ///< the scene file, watched for changes
  Uint64 last_reload;  ///< when it was last looked at [ms]
} app;

static double next_random(app *a) {
  a->rng ^= a->rng << 13;
  a->rng ^= a->rng >> 7;
  a->rng ^= a->rng << 17;
  return (double)(a->rng >> 11) / (double)(1ull << 53);  // [0, 1)
}

static view_transform current_transform(app *a) {
  zeno_run_dir_row st;
  view_run_state(a->run, a->play.t, &st);
  double d[3];
  view_displayed(&a->run->scene, view_play_zoom(&a->play, a->run), st.q, d);
  const SDL_Rect area = view_scene_area(&a->canvas, &a->play);
  return view_transform_make(&area, view_canvas_camera(&a->canvas, a->run, &a->play), d);
}

static void apply_impulse(app *a, const double point[2], const double impulse[2]) {
  zeno_error err;
  zeno_error_clear(&err);
  if (view_apply_impulse(a->run, &a->play, point, impulse, &err) != ZENO_OK) {
    fprintf(stderr, "zeno: impulse not applied: %s\n", err.message);
    return;
  }
  a->live_restart = true;
}

static void perturb(app *a) {
  double point[2], impulse[2];
  const double u1 = next_random(a), u2 = next_random(a), u3 = next_random(a);
  view_perturbation(&a->run->scene, a->perturb_scale, u1, u2, u3, point, impulse);
  apply_impulse(a, point, impulse);
}

static void restart(app *a) {
  if (a->live_restart) {
    view_run fresh;
    zeno_error err;
    if (view_run_simulate(&fresh, &a->original, &err) != ZENO_OK) return;
    view_run_free(a->run);
    *a->run = fresh;
    a->live_restart = false;
  }
  const bool warp = a->play.warp, legend = a->play.legend, maps = a->play.maps;
  view_play_start(&a->play, a->run, a->options);
  view_play_set_warp(&a->play, a->run, warp);
  a->play.legend = legend;
  a->play.maps = maps;
}

static void screenshot(app *a) {
  char path[PATH_SIZE], message[MESSAGE_SIZE];
  if (!view_fresh_name("view", "png", &a->screenshots, path, sizeof path, message,
                       sizeof message)) {
    fprintf(stderr, "zeno: %s\n", message);
    return;
  }
  if (view_write_png(&a->canvas, path, message, sizeof message)) {
    fprintf(stderr, "zeno: wrote %s\n", path);
  } else {
    fprintf(stderr, "zeno: %s\n", message);
    unlink(path);  // the empty file that reserved the name
  }
}

static void zoom_by(app *a, double factor) { a->play.zoom_factor *= factor; }

static void on_key(app *a, const SDL_KeyboardEvent *k) {
  view_play *p = &a->play;
  const bool shift = (k->keysym.mod & KMOD_SHIFT) != 0;
  const SDL_Keycode key = k->keysym.sym;
  if (key >= SDLK_1 && key < SDLK_1 + VIEW_SPEED_LEVELS) {
    p->speed_level = (int)(key - SDLK_1) + 1;
    view_play_set_warp(p, a->run, false);
    return;
  }
  switch (key) {
    case SDLK_q:
    case SDLK_ESCAPE: a->quit = true; break;
    case SDLK_SPACE: p->paused = !p->paused; break;
    case SDLK_RIGHT:
    case SDLK_LEFT: {
      const int dir = key == SDLK_RIGHT ? 1 : -1;
      if (shift) view_play_seek(p, a->run, p->t + dir * VIEW_SCRUB_FRACTION * a->run->t_end);
      else view_play_step_event(p, a->run, dir);
      break;
    }
    case SDLK_z: view_play_set_warp(p, a->run, !p->warp); break;
    case SDLK_r: restart(a); break;
    case SDLK_p: perturb(a); break;
    case SDLK_s: screenshot(a); break;
    case SDLK_h: p->help = !p->help; break;
    case SDLK_l: p->legend = !p->legend; break;
    case SDLK_m: p->maps = !p->maps; break;
    case SDLK_PLUS:
    case SDLK_EQUALS:
    case SDLK_KP_PLUS: zoom_by(a, VIEW_ZOOM_STEP); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: zoom_by(a, 1 / VIEW_ZOOM_STEP); break;
    case SDLK_0: p->zoom_factor = 1.0; break;
    default: break;
  }
}

static void on_press(app *a, int x, int y) {
  const view_transform tf = current_transform(a);
  const double s[2] = {x, y};
  double w[2], b[2];
  view_to_world(&tf, s, w);
  view_body_point_inverse(&tf, w, b);
  if (hypot(b[0], b[1]) > VIEW_GRAB_REACH * view_body_size(&a->run->scene)) return;
  a->canvas.dragging = true;
  memcpy(a->canvas.drag_from, w, sizeof w);
  memcpy(a->canvas.drag_to, w, sizeof w);
  memcpy(a->grab_body, b, sizeof b);
}

static void on_motion(app *a, int x, int y) {
  if (!a->canvas.dragging) return;
  const view_transform tf = current_transform(a);
  const double s[2] = {x, y};
  view_to_world(&tf, s, a->canvas.drag_to);
}

/// Releasing a drag applies an impulse at the grabbed point: a drag of one
/// body size changes the velocity by the run's velocity scale.
static void on_release(app *a) {
  if (!a->canvas.dragging) return;
  a->canvas.dragging = false;
  const zeno_scene *sc = &a->run->scene;
  const double k = sc->mass * view_velocity_scale(a->run) / view_body_size(sc);
  const double impulse[2] = {k * (a->canvas.drag_to[0] - a->canvas.drag_from[0]),
                             k * (a->canvas.drag_to[1] - a->canvas.drag_from[1])};
  if (hypot(impulse[0], impulse[1]) > 0) apply_impulse(a, a->grab_body, impulse);
}

/// The window was resized: the canvas follows (the next frame is laid out
/// for the new size).
static void resize(app *a, int width, int height) {
  char message[MESSAGE_SIZE];
  if (width < VIEW_MIN_WIDTH) width = VIEW_MIN_WIDTH;
  if (height < VIEW_MIN_HEIGHT) height = VIEW_MIN_HEIGHT;
  if (!view_canvas_resize(&a->canvas, width, height, message, sizeof message)) {
    fprintf(stderr, "zeno: %s\n", message);
    a->quit = true;
    a->failed = true;
    return;
  }
  // Drawn at once, so a screenshot in the same batch of events has it.
  view_draw_frame(&a->canvas, a->run, &a->play, NULL);
}

static void handle_events(app *a) {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    switch (e.type) {
      case SDL_QUIT: a->quit = true; break;
      case SDL_KEYDOWN: on_key(a, &e.key); break;
      case SDL_MOUSEWHEEL: zoom_by(a, e.wheel.y > 0 ? VIEW_ZOOM_STEP : 1 / VIEW_ZOOM_STEP); break;
      case SDL_MOUSEBUTTONDOWN:
        if (e.button.button == SDL_BUTTON_LEFT) on_press(a, e.button.x, e.button.y);
        break;
      case SDL_MOUSEMOTION: on_motion(a, e.motion.x, e.motion.y); break;
      case SDL_MOUSEBUTTONUP: on_release(a); break;
      case SDL_WINDOWEVENT:
        if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
          resize(a, e.window.data1, e.window.data2);
        break;
      default: break;
    }
  }
}

/// Length of the drag of the scripted "drag" key [px].
#define SCRIPT_DRAG_PX 40
#define KEY_NAME_SIZE 32

/// Presses the scripted key number `frame` (1-based) of options->keys, if
/// any: a key down event, or for "drag" a press at the centre of mass, a
/// move and a release.
static void script_key(app *a, long frame) {
  const char *p = a->options->keys;
  for (long k = 1; p != NULL && k < frame; k++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  if (p == NULL || *p == '\0') return;
  char name[KEY_NAME_SIZE];
  const size_t n = strcspn(p, ",");
  if (n == 0 || n >= sizeof name) return;
  memcpy(name, p, n);
  name[n] = '\0';
  SDL_Event e;
  SDL_memset(&e, 0, sizeof e);
  int width, height;
  char tail;
  if (sscanf(name, "size=%dx%d%c", &width, &height, &tail) == 2) {
    if (!view_size_allowed(width, height)) {
      fprintf(stderr, "zeno: '%s' in --keys: each side must be in [%d, %d]\n", name, VIEW_MIN_WIDTH,
              VIEW_MAX_SIZE);
      return;
    }
    SDL_SetWindowSize(a->window, width, height);
    return;
  }
  if (strcmp(name, "drag") == 0) {
    const view_transform tf = current_transform(a);
    const double com[2] = {0, 0};
    double w[2], s[2];
    view_body_point(&tf, com, w);
    view_to_screen(&tf, w, s);
    on_press(a, (int)lround(s[0]), (int)lround(s[1]));
    on_motion(a, (int)lround(s[0]) + SCRIPT_DRAG_PX, (int)lround(s[1]));
    on_release(a);
    return;
  }
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = SDL_GetKeyFromName(name);
  if (e.key.keysym.sym == SDLK_UNKNOWN) {
    fprintf(stderr, "zeno: unknown key '%s' in --keys\n", name);
    return;
  }
  SDL_PushEvent(&e);
}

/// Once per VIEW_RELOAD_PERIOD_MS: a changed scene file replaces the run
/// (the playback restarts, warp kept); a broken one leaves the run and puts
/// its error on screen until a version loads.
static void poll_reload(app *a) {
  const Uint64 now = SDL_GetTicks64();
  if (now - a->last_reload < VIEW_RELOAD_PERIOD_MS) return;
  a->last_reload = now;
  switch (view_reload_check(&a->reload, a->run)) {
    case VIEW_RELOAD_DONE: {
      fprintf(stderr, "zeno: reloaded %s\n", a->reload.path);
      a->original = a->run->scene;
      a->live_restart = false;
      a->perturb_scale = view_velocity_scale(a->run);
      const bool warp = a->play.warp, legend = a->play.legend, help = a->play.help,
                 maps = a->play.maps;
      view_play_start(&a->play, a->run, a->options);
      view_play_set_warp(&a->play, a->run, warp);
      a->play.legend = legend;
      a->play.help = help;
      a->play.maps = maps;
      a->play.banner = NULL;
      break;
    }
    case VIEW_RELOAD_FAILED:
      fprintf(stderr, "zeno: scene not reloaded: %s\n", a->reload.error);
      a->play.banner = a->reload.error;
      break;
    case VIEW_RELOAD_UNCHANGED: break;
  }
}

static int loop(app *a, SDL_Window *window) {
  Uint64 last = SDL_GetTicks64();
  // A frame before the first key: a screenshot at frame 1 is not blank.
  view_draw_frame(&a->canvas, a->run, &a->play, NULL);
  for (long frame = 0; !a->quit; frame++) {
    if (a->options->frames > 0 && frame >= a->options->frames) break;
    script_key(a, frame + 1);
    handle_events(a);
    if (a->failed) return 1;
    poll_reload(a);
    const Uint64 now = SDL_GetTicks64();
    double dt = (double)(now - last) / 1000.0;
    last = now;
    if (a->options->frames > 0) dt = 1.0 / VIEW_FPS;
    view_play_advance(&a->play, a->run, fmin(dt, VIEW_MAX_FRAME_SECONDS));
    view_draw_frame(&a->canvas, a->run, &a->play, NULL);
    SDL_Surface *target = SDL_GetWindowSurface(window);
    if (target == NULL || SDL_BlitSurface(a->canvas.surface, NULL, target, NULL) != 0 ||
        SDL_UpdateWindowSurface(window) != 0) {
      fprintf(stderr, "zeno: cannot show the frame: %s\n", SDL_GetError());
      return 1;
    }
    const Uint64 spent = SDL_GetTicks64() - now;
    if (spent < 1000 / VIEW_FPS) SDL_Delay((Uint32)(1000 / VIEW_FPS - spent));
  }
  return 0;
}

// Video drivers that show nothing: SDL falls back to them without a
// display, and a window there would wait for keys forever, unseen.
static bool invisible_driver(const char *driver) {
  return driver != NULL && (strcmp(driver, "offscreen") == 0 || strcmp(driver, "dummy") == 0 ||
                            strcmp(driver, "evdev") == 0);
}

// No display: says so in the words of the command that asked (`view` for
// a live run, `replay` for a run read back: run->sim is NULL) and what it
// can do without a window.
static int no_display(const view_run *run, const char *why) {
  const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
  const char *command = run->sim != NULL ? "view" : "replay";
  const char *what = run->sim != NULL ? "SCENE" : "DIR";
  fprintf(stderr,
          "zeno: %s: no display to open a window on (%s; DISPLAY is %s, WAYLAND_DISPLAY "
          "is %s). Run it on a desktop, or over SSH with X forwarding (ssh -X); without "
          "a window, 'zeno %s %s --screenshot out.png' draws one frame and 'zeno %s %s "
          "--record out.mp4' (or .gif) records the whole run\n",
          command, why, x && *x ? x : "not set", w && *w ? w : "not set", command, what, command,
          what);
  return VIEW_EXIT_NO_DISPLAY;
}

/* ---- a runtime directory for SDL's Wayland probe --------------------------- */

/// The private runtime directory's name, in $TMPDIR or /tmp (mkdtemp()
/// makes it mode 0700, as XDG_RUNTIME_DIR must be).
#define RUNTIME_DIR_PATTERN "zeno-runtime-XXXXXX"
#define RUNTIME_DIR_SIZE 512

/// The environment's XDG_RUNTIME_DIR while SDL starts, and what to put back.
typedef struct runtime_dir {
  char path[RUNTIME_DIR_SIZE];  ///< the private directory; "" when none was made
  char *saved;                  ///< the variable's value before (NULL: unset)
} runtime_dir;

// SDL probes for a Wayland display with libwayland, which prints "error:
// XDG_RUNTIME_DIR is invalid or not set in the environment." on stderr,
// ahead of anything zeno says, when the variable is unset or not an
// absolute path (a plain SSH session, CI). Only then: an empty private
// directory stands in while SDL starts, where the probe finds no display
// quietly; SDL's own errors are untouched.
static void runtime_dir_enter(runtime_dir *r) {
  r->path[0] = '\0';
  r->saved = NULL;
  const char *now = getenv("XDG_RUNTIME_DIR");
  if (now != NULL && now[0] == '/') return;
  const char *tmp = getenv("TMPDIR");
  if (tmp == NULL || tmp[0] != '/') tmp = "/tmp";
  if (snprintf(r->path, sizeof r->path, "%s/%s", tmp, RUNTIME_DIR_PATTERN) >= (int)sizeof r->path ||
      mkdtemp(r->path) == NULL) {
    r->path[0] = '\0';  // the probe speaks as it would have: nothing worse
    return;
  }
  r->saved = now != NULL ? strdup(now) : NULL;
  if (setenv("XDG_RUNTIME_DIR", r->path, 1) != 0) {
    rmdir(r->path);
    r->path[0] = '\0';
  }
}

// Puts XDG_RUNTIME_DIR back as it was and removes the private directory.
static void runtime_dir_leave(runtime_dir *r) {
  if (r->path[0] == '\0') return;
  if (r->saved != NULL) setenv("XDG_RUNTIME_DIR", r->saved, 1);
  else unsetenv("XDG_RUNTIME_DIR");
  free(r->saved);
  rmdir(r->path);
  r->path[0] = '\0';
}

int view_window(view_run *run, const view_options *o) {
  // The window shows the offscreen frame through the plain window surface
  // (X11 shared memory or XPutImage): no OpenGL behind it.
  SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
  const char *asked = getenv("SDL_VIDEODRIVER");
  runtime_dir runtime;
  runtime_dir_enter(&runtime);
  const int started = SDL_Init(SDL_INIT_VIDEO);
  runtime_dir_leave(&runtime);
  if (started != 0) {
    char why[MESSAGE_SIZE];
    snprintf(why, sizeof why, "SDL: %s", SDL_GetError());
    SDL_Quit();
    const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    if (!(x && *x) && !(w && *w)) return no_display(run, why);
    fprintf(stderr, "zeno: cannot open a window: %s\n", why + strlen("SDL: "));
    return 1;
  }
  // An invisible driver the user did not ask for (SDL_VIDEODRIVER) means
  // there is no display.
  const char *driver = SDL_GetCurrentVideoDriver();
  if (invisible_driver(driver) && !(asked && strcmp(asked, driver) == 0)) {
    char why[MESSAGE_SIZE];
    snprintf(why, sizeof why, "SDL chose its '%s' video driver", driver);
    SDL_Quit();
    return no_display(run, why);
  }
  if (!start_ttf()) {
    SDL_Quit();
    return 1;
  }
  app a;
  memset(&a, 0, sizeof a);
  a.run = run;
  a.options = o;
  a.original = run->scene;
  a.perturb_scale = view_velocity_scale(run);
  a.rng = VIEW_PERTURB_SEED;
  view_reload_init(&a.reload, o);
  a.last_reload = SDL_GetTicks64();
  char title[128], message[MESSAGE_SIZE];
  snprintf(title, sizeof title, "zeno view: %s", run->scene.name);
  SDL_Window *window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                        o->width, o->height, SDL_WINDOW_RESIZABLE);
  a.window = window;
  int code = 1;
  if (window == NULL) {
    fprintf(stderr, "zeno: cannot open a window: %s\n", SDL_GetError());
  } else if (SDL_SetWindowMinimumSize(window, VIEW_MIN_WIDTH, VIEW_MIN_HEIGHT),
             !view_canvas_create(&a.canvas, o->width, o->height, message, sizeof message)) {
    fprintf(stderr, "zeno: %s\n", message);
  } else {
    view_play_start(&a.play, run, o);
    code = loop(&a, window);
    view_canvas_destroy(&a.canvas);
  }
  if (window) SDL_DestroyWindow(window);
  TTF_Quit();
  SDL_Quit();
  return code;
}
