#!/bin/sh
# `meson install` yields a zeno that finds its own modules (issue 14): the
# build is installed into a temporary DESTDIR, and the installed program,
# with the installed libzeno, draws a figure through the installed
# zeno-plot.so (not the build tree's), a screenshot through zeno-view.so
# when the viewer was built, and simulates without either. Then a program
# outside the project builds against the installed zeno as docs/install.md
# says: `pkg-config --cflags --libs zeno` (the zeno.pc the install put in
# LIBDIR/pkgconfig, read through PKG_CONFIG_SYSROOT_DIR as a staged install
# is) names the installed headers and library, and examples/simulate.c
# compiled with those flags alone runs with the installed libzeno and passes
# tests/check_example.py.
# Usage: test_install.sh MESON BUILD_DIR PREFIX BINDIR LIBDIR SCENE VERSION
#          PYTHON3 SOURCE_ROOT PKG_CONFIG CC [CFLAGS...]
# CC and CFLAGS are the build's compiler and the flags it must pass to link
# with this build of libzeno (the sanitizers under tools/sanitize).
set -eu
meson=$1
build=$2
prefix=$3
bindir=$4
libdir=$5
scene=$6
version=$7
python3=$8
source=$9
shift 9
pkg_config=$1
shift
# "$@" is now the compiler and its flags.

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
[ "$(png_size "$dest/maps.png")" = 460x345 ] || fail "maps.png is $(png_size "$dest/maps.png"), not 460x345"

if [ -f "$lib/zeno/zeno-view.so" ]; then
  "$zeno" view "$scene" --screenshot "$dest/view.png" --at-event 3 >/dev/null ||
    fail "view --screenshot"
  [ "$(png_size "$dest/view.png")" = 1000x700 ] || fail "view.png is $(png_size "$dest/view.png"), not 1000x700"
fi

# pkg-config: the staged zeno.pc, its paths under DESTDIR, the version.
case $prefix in /*) includedir=$dest$prefix/include ;; *) fail "prefix $prefix is not absolute" ;; esac
[ -f "$lib/pkgconfig/zeno.pc" ] || fail "no $lib/pkgconfig/zeno.pc"
export PKG_CONFIG_PATH="$lib/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$dest"
flags=$("$pkg_config" --cflags --libs zeno) || fail "pkg-config --cflags --libs zeno"
case " $flags " in *" -I$includedir "*) ;; *) fail "pkg-config --cflags lacks -I$includedir: $flags" ;; esac
case " $flags " in *" -L$lib "*) ;; *) fail "pkg-config --libs lacks -L$lib: $flags" ;; esac
case " $flags " in *" -lzeno "*) ;; *) fail "pkg-config --libs lacks -lzeno: $flags" ;; esac
[ -f "$includedir/zeno/zeno.h" ] || fail "no $includedir/zeno/zeno.h"
got=$("$pkg_config" --modversion zeno)
[ "$got" = "$version" ] || fail "pkg-config --modversion zeno is $got, not $version"

# The example, compiled in DESTDIR with pkg-config's flags only (no source
# tree include path), runs with the installed libzeno.
(cd "$dest" && "$@" "$source/examples/simulate.c" $flags -o "$dest/simulate") \
  >"$dest/cc.log" 2>&1 || { cat "$dest/cc.log"; fail "compiling examples/simulate.c against the install"; }
# What the dynamic loader resolves libzeno to (as ldd prints it).
loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$dest/simulate" | grep "libzeno\.so") ||
  fail "the example does not link libzeno"
case $loaded in *"=> $lib/libzeno.so"*) ;; *) fail "the example loads $loaded, not $lib/libzeno.so" ;; esac
"$python3" "$source/tests/check_example.py" "$dest/simulate" "$source" ||
  fail "the example compiled against the install"
echo "PASS: the installed zeno simulates, draws and shows through its installed modules;" \
  "pkg-config builds examples/simulate.c against it"
