#!/usr/bin/env bash
# A new impact law touches the table and its switches only (docs/model.md,
# "Adding an impact law"), checked by adding one to a copy of the tree:
#   tests/law_fixture.sh SOURCE_ROOT
# 1. tests/law_fixture/table.patch adds the fixture law plastic-newton
#    (Newton's complementarity with e = 0 whatever impact.e says) where a
#    law is declared: its enumerator and ZENO_LAW_COUNT, its spelling and
#    its row of the table. The library then fails to compile, and the
#    compiler names exactly the switches over laws (-Wswitch, an error
#    with -Werror): the two engines' impact laws (impact.c, impact_n.c),
#    the certificate's impact cases and its energy check.
# 2. tests/law_fixture/switches.patch adds the law to those switches. The
#    tree builds, tests/check_law_sites.py passes on it, the kernel-against-
#    loop tests (test_sim_cycle, test_sim_kernel4, test_sim_run, which run
#    every law of the table) pass, and the fixture's runs, verdicts, maps
#    and certificates are the inelastic law's, byte for byte.
# Builds a reduced copy (no viewer, no Python, no MPI): minutes, suite slow.
# The patches are plain `diff -u` of those files (paths from the source
# root, applied with patch -p0): an edit of the lines they touch makes them
# fail to apply, and they are then made again from the edited files.
set -euo pipefail
root=$(cd "$1" && pwd)
work=$(mktemp -d)
trap '[ -n "${ZENO_KEEP:-}" ] || rm -rf "$work"' EXIT
fail() { echo "law fixture: $*" >&2; exit 1; }

mkdir "$work/tree"
tar -C "$root" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . |
  tar -xf - -C "$work/tree"
cd "$work/tree"
allowed="include/zeno/scene.h src/scene/scene_names.c src/dynamics/impact_law.c
src/dynamics/impact.c src/dynamics/impact_n.c src/certify/certify_system.c src/certify/certify_exact.c"
for p in tests/law_fixture/table.patch tests/law_fixture/switches.patch; do
  for f in $(sed -n 's/^+++ //p' "$p"); do
    grep -qx "$f" <<<"${allowed// /$'\n'}" || fail "$p touches $f, beyond the table and its switches"
  done
done

patch -p0 --quiet < tests/law_fixture/table.patch
export LC_ALL=C  # the compiler's messages in ASCII quotes
meson setup "$work/build" -Dviewer=disabled -Dpython=disabled -Dmpi=disabled -Dfuzz=disabled \
  -Dwerror=true -Db_colorout=never >/dev/null
if ninja -C "$work/build" -k 0 libzeno_internal.a libzeno_certificate.a >"$work/stage1.log" 2>&1; then
  fail "the library builds with the law in its table alone: no switch learns it"
fi
named=$(grep -o "[^ ]*\.c:[0-9]*:[0-9]*: error: enumeration value 'ZENO_LAW_PLASTIC_NEWTON' not handled in switch" \
          "$work/stage1.log" | sed -E 's|^\.\./tree/||; s|:.*||' | sort -u | tr '\n' ' ' || true)
expected="src/certify/certify_exact.c src/certify/certify_system.c src/dynamics/impact.c src/dynamics/impact_n.c "
[ "$named" = "$expected" ] || { cat "$work/stage1.log" >&2; fail "the compiler named '$named', expected '$expected'"; }
others=$(grep -c ": error:" "$work/stage1.log" || true)
[ "$others" -eq 4 ] || { cat "$work/stage1.log" >&2; fail "$others errors, expected the 4 switches'"; }
echo "law fixture: with the table alone the compiler names the switches $named"

patch -p0 --quiet < tests/law_fixture/switches.patch
ninja -C "$work/build" zeno libzeno-certify.so.0.1.0 tests/test_sim_cycle tests/test_sim_kernel4 \
  tests/test_sim_run >"$work/stage2.log" 2>&1 || { cat "$work/stage2.log" >&2; fail "the build failed"; }
python3 tests/check_law_sites.py . | tail -n 1
for t in test_sim_cycle test_sim_kernel4 test_sim_run; do
  "$work/build/tests/$t" >"$work/$t.log" 2>&1 || { cat "$work/$t.log" >&2; fail "$t failed"; }
  grep "plastic-newton" "$work/$t.log" || true
done

z="$work/build/zeno"
untimed() { sed -E 's/"seconds": [0-9.e+-]+/"seconds": T/'; }
for scene in example2 example3-zeno example4 example6 rocking-block; do
  for cmd in "simulate --json" "analyze --json" "maps --csv -" "certify --json"; do
    # shellcheck disable=SC2086
    a=$("$z" $cmd "scenes/$scene.yaml" --set impact.law=inelastic | untimed)
    # shellcheck disable=SC2086
    b=$("$z" $cmd "scenes/$scene.yaml" --set impact.law=plastic-newton --set impact.e=0.7 | untimed)
    [ "$a" = "$b" ] || fail "zeno $cmd $scene: plastic-newton differs from inelastic"
  done
done
echo "law fixture: plastic-newton's runs, verdicts, maps and certificates are the inelastic law's"
