#!/bin/sh
# `zeno view` and `zeno replay` without a display: SDL falls back to an invisible video driver
# (offscreen, dummy) and the window would wait for keys forever, unseen.
# The viewer must say so and exit 2 within a second or so, naming what to
# do instead. SDL_VIDEODRIVER set to such a driver on purpose is not this
# case and is left alone.
# Usage: test_view_no_display.sh ZENO_EXE SCENE
set -u
zeno=$1
scene=$2
err=$(mktemp)
start=$(date +%s%N)
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20 "$zeno" view "$scene" 2>"$err" >/dev/null
code=$?
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
status=0
if [ "$code" -ne 2 ]; then
  echo "FAIL: exit $code, expected 2"; status=1
fi
# Seconds, not the 20 s timeout: the viewer never starts its loop.
if [ "$ms" -gt 3000 ]; then
  echo "FAIL: took $ms ms"; status=1
fi
for text in "zeno: view: no display to open a window on" "DISPLAY is not set" \
    "zeno view SCENE --screenshot" "zeno view SCENE --record" "ssh -X"; do
  if ! grep -qF -- "$text" "$err"; then
    echo "FAIL: stderr lacks '$text':"; cat "$err"; status=1
  fi
done
# The first line is zeno's: libwayland's "error: XDG_RUNTIME_DIR is invalid
# or not set in the environment." (SDL probing Wayland without a runtime
# directory) used to come first. Unset and not absolute alike; the private
# runtime directory that stands in while SDL starts is removed.
tmpd=$(mktemp -d)
for xdg in unset relative; do
  if [ "$xdg" = unset ]; then
    env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR TMPDIR="$tmpd" \
      timeout 20 "$zeno" view "$scene" 2>"$err" >/dev/null
  else
    env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER XDG_RUNTIME_DIR=run/user TMPDIR="$tmpd" \
      timeout 20 "$zeno" view "$scene" 2>"$err" >/dev/null
  fi
  code=$?
  first=$(head -n 1 "$err")
  case "$first" in
    "zeno: view: no display to open a window on"*) ;;
    *) echo "FAIL: XDG_RUNTIME_DIR $xdg: the first line is not zeno's:"; cat "$err"; status=1 ;;
  esac
  if [ "$code" -ne 2 ] || grep -q XDG_RUNTIME_DIR "$err" || [ "$(wc -l <"$err")" -ne 1 ]; then
    echo "FAIL: XDG_RUNTIME_DIR $xdg: exit $code, stderr:"; cat "$err"; status=1
  fi
done
if [ -n "$(ls -A "$tmpd")" ]; then
  echo "FAIL: left in TMPDIR:"; ls -A "$tmpd"; status=1
fi
rmdir "$tmpd"
# SDL's own errors still show: a video driver that does not exist.
env -u DISPLAY -u WAYLAND_DISPLAY -u XDG_RUNTIME_DIR SDL_VIDEODRIVER=no-such-driver \
  timeout 20 "$zeno" view "$scene" 2>"$err" >/dev/null
code=$?
if [ "$code" -ne 2 ] || ! grep -qF -- "SDL: " "$err" || ! grep -qF -- "no-such-driver" "$err"; then
  echo "FAIL: SDL's error for SDL_VIDEODRIVER=no-such-driver is lost: exit $code:"; cat "$err"
  status=1
fi
# `replay` says so in its own words, naming what it can do without a window.
run=$(mktemp -d)
"$zeno" simulate "$scene" --out "$run/run" -q
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20 "$zeno" replay "$run/run" 2>"$err" >/dev/null
code=$?
if [ "$code" -ne 2 ]; then
  echo "FAIL: replay exit $code, expected 2"; status=1
fi
for text in "zeno: replay: no display to open a window on" "zeno replay DIR --screenshot" \
    "zeno replay DIR --record"; do
  if ! grep -qF -- "$text" "$err"; then
    echo "FAIL: replay's stderr lacks '$text':"; cat "$err"; status=1
  fi
done
# A scene given where a run folder is expected: said so, exit 2, before
# any window.
"$zeno" replay "$scene" 2>"$err" >/dev/null
code=$?
if [ "$code" -ne 2 ] || ! grep -qF -- "is a file, not a run folder" "$err" ||
    ! grep -qF -- "'zeno view $scene' shows a scene" "$err"; then
  echo "FAIL: replay of a scene file: exit $code:"; cat "$err"; status=1
fi
# A scene of more than two contacts (issue 34): the viewer runs it on the
# N-contact engine, as any scene: without a display the window is refused
# as for two contacts, and a screenshot needs none.
many="$(dirname "$scene")/box-in-a-corner.yaml"
env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER timeout 20 "$zeno" view "$many" \
  2>"$err" >/dev/null
code=$?
if [ "$code" -ne 2 ] || ! grep -qF -- "zeno: view: no display to open a window on" "$err"; then
  echo "FAIL: view of a three-contact scene (window): exit $code:"; cat "$err"; status=1
fi
timeout 20 "$zeno" view "$many" --set 'initial.pose=[0.01, 0.02, 0.01]' \
  --screenshot "$run/box.png" --at 0.08 2>"$err" >/dev/null
code=$?
if [ "$code" -ne 0 ] || [ ! -s "$run/box.png" ]; then
  echo "FAIL: screenshot of a three-contact scene: exit $code:"; cat "$err"; status=1
fi
rm -rf "$run"
rm -f "$err"
[ "$status" -eq 0 ] && echo "ok: exit 2 after $ms ms"
exit $status
