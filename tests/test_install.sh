#!/bin/sh
# `meson install` yields a zeno that finds its own modules (issue 14): the
# build is installed into a temporary DESTDIR, and the installed program,
# with the installed libzeno, draws a figure through the installed
# zeno-plot.so (not the build tree's), a screenshot through zeno-view.so
# when the viewer was built, and simulates without either.
# Usage: test_install.sh MESON BUILD_DIR PREFIX BINDIR LIBDIR SCENE
set -eu
meson=$1
build=$2
prefix=$3
bindir=$4
libdir=$5
scene=$6

dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}
# One PNG's width and height, from its IHDR chunk (bytes 16-23).
png_size() {
  od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

"$meson" install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$dest/install.log" 2>&1 ||
  { cat "$dest/install.log"; fail "meson install --destdir"; }
case $bindir in /*) bin=$dest$bindir ;; *) bin=$dest$prefix/$bindir ;; esac
case $libdir in /*) lib=$dest$libdir ;; *) lib=$dest$prefix/$libdir ;; esac
zeno=$bin/zeno
[ -x "$zeno" ] || fail "no $zeno"
[ -f "$lib/zeno/zeno-plot.so" ] || fail "no $lib/zeno/zeno-plot.so"
# The installed libzeno, not the build tree's; modules found by the program.
export LD_LIBRARY_PATH="$lib"
unset ZENO_MODULE_DIR

out=$("$zeno" simulate "$scene" --json)
case $out in *'"status": "rest"'*) ;; *) fail "simulate --json: $out" ;; esac

LD_DEBUG=files "$zeno" analyze "$scene" --samples 200 --plot "$dest/maps.png" \
  >/dev/null 2>"$dest/ld.log" || { tail -5 "$dest/ld.log"; fail "analyze --plot"; }
grep "generating link map" "$dest/ld.log" | grep -q "file=$dest/.*/zeno/zeno-plot.so" ||
  fail "analyze --plot did not load the installed zeno-plot.so"
if grep "generating link map" "$dest/ld.log" | grep -q "file=$build"; then
  fail "the installed zeno loaded from the build tree"
fi
[ "$(png_size "$dest/maps.png")" = 900x600 ] || fail "maps.png is $(png_size "$dest/maps.png"), not 900x600"

if [ -f "$lib/zeno/zeno-view.so" ]; then
  "$zeno" view "$scene" --screenshot "$dest/view.png" --at-event 3 >/dev/null ||
    fail "view --screenshot"
  [ "$(png_size "$dest/view.png")" = 1000x700 ] || fail "view.png is $(png_size "$dest/view.png"), not 1000x700"
fi
echo "PASS: the installed zeno simulates, draws and shows through its installed modules"
