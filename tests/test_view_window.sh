#!/bin/sh
# Acceptance 3 of the viewer: `zeno view` opens a real window under Xvfb,
# steps 100 frames pressing keys on the way (warp, event steps, perturb, a
# mouse drag, zoom, help, screenshot, restart, legend, a resize of the
# window to 640x400 and a second screenshot, which has that size), exits 0,
# and valgrind finds
# no definite leak and no memory error. Skips (exit 77, meson's skip code) when Xvfb, xvfb-run or
# valgrind is missing or no X server can start.
# Usage: test_view_window.sh ZENO_EXE SCENE SUPPRESSIONS...
set -u
zeno=$1
scene=$2
shift 2
# The remaining arguments become valgrind's --suppressions=FILE options.
for file in "$@"; do
  set -- "$@" "--suppressions=$file"
  shift
done
SKIP=77

# valgrind cannot run an ASan build (tools/sanitize: gcc's links libasan,
# clang's libclang_rt.asan); this test's memory check is valgrind's, in the
# normal build.
if ldd "$zeno" 2>/dev/null | grep -qE 'libasan|libclang_rt\.asan'; then
  echo "SKIP: ASan build; the window test runs under valgrind in the normal build"
  exit $SKIP
fi
for tool in Xvfb xvfb-run valgrind xauth; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not installed"
    exit $SKIP
  fi
done
# Can an X server start here at all?
if ! xvfb-run -a -s "-screen 0 800x600x24" true >/dev/null 2>&1; then
  echo "SKIP: Xvfb cannot start"
  exit $SKIP
fi

log=$(mktemp)
work=$(mktemp -d)
cd "$work" || exit 1
xvfb-run -a -s "-screen 0 1024x768x24" \
  valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite \
  --error-exitcode=3 "$@" \
  "$zeno" view "$scene" --frames 100 --size 640x480 \
  --keys "z,Right,Left,p,drag,+,-,0,h,s,Space,2,r,Space,l,m,size=640x400,Space,Space,s" \
  >"$log" 2>&1
status=$?
cat "$log"
rm -f "$log"
shot=no
[ -s "$work/view-1.png" ] && shot=yes
# Width and height of a PNG (its IHDR chunk).
png_size() {
  python3 -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' "$1" 2>/dev/null
}
first=$(png_size "$work/view-1.png")
second=$(png_size "$work/view-2.png")
rm -rf "$work"
if [ "$status" -ne 0 ]; then
  echo "FAIL: zeno view under Xvfb and valgrind exited $status" \
       "(3: valgrind found errors or definite leaks)"
  exit 1
fi
if [ "$shot" != yes ]; then
  echo "FAIL: the 's' key wrote no view-1.png"
  exit 1
fi
if [ "$first" != 640x480 ] || [ "$second" != 640x400 ]; then
  echo "FAIL: screenshots before and after resizing the window to 640x400 are" \
       "'$first' and '$second', expected 640x480 and 640x400"
  exit 1
fi
echo "PASS: 100 frames in a real window with keys, valgrind clean"
exit 0
