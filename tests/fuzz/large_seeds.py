#!/usr/bin/env python3
"""Writes seed inputs of a fuzz harness (tests/fuzz/fuzz_*.c) that are as
large as a scene may be, so that libFuzzer mutates inputs whose cost grows
with their size from the first run (tools/fuzz; too large to commit).

Usage: large_seeds.py HARNESS OUTDIR SCENE [SIZE]
  HARNESS  scene, run (YAML scene text) or set (scene, NUL, overrides)
  SCENE    a scene file that loads (the base of every seed)
  SIZE     the largest input in bytes (default 1048576, ZENO_SCENE_MAX_BYTES)

Every seed holds SIZE bytes or fewer; each stresses one size-driven path:
comment lines, one long number, one long name, an outline of many points,
many keys in one mapping (with a repeat at the end), deeply nested flow
sequences repeated, many documents, many aliases, and for `set` long
override values and the most overrides the harness takes.
"""

import os
import sys


def fill(head, unit, size, tail=b""):
    """head + unit repeated + tail, at most size bytes in all."""
    room = size - len(head) - len(tail)
    if room < 0:
        raise SystemExit(f"large_seeds: SIZE {size} is below the base scene's {len(head)} bytes")
    return head + unit * (room // len(unit)) + tail


def scene_seeds(base, size):
    """YAML texts of at most size bytes, by name."""
    body = b"model: zod\nbody:\n  outline: ["
    seeds = {
        "large-comments": fill(base + b"\n", b"# a comment line of the kind a long scene holds\n",
                               size),
        "large-number": _large_number(base, size),
        "large-name": fill(b'name: "', b"n", size - 2, b'"\n'),
        "large-outline": fill(body, b"[1.5, -2.25], ", size - 2, b"]\n"),
        "many-keys": _many_keys(size),
        "deep-nesting": fill(b"body:\n  outline: [", b"[" * 60 + b"0" + b"]" * 60 + b", ", size - 2,
                             b"]\n"),
        "many-documents": fill(b"", b"---\n" + base, size),
        "many-aliases": fill(b"a: &x [1, 2]\nb: [", b"*x, ", size - 2, b"]\n"),
    }
    return seeds


def _large_number(base, size):
    """The base scene with its mass written 1.000...0 in size bytes in all."""
    if b"\n  m: 1 " not in base:
        raise SystemExit("large_seeds: the base scene has no '  m: 1 ' line (use scenes/example2.yaml)")
    zeros = b"0" * (size - len(base) - 1)
    return base.replace(b"\n  m: 1 ", b"\n  m: 1." + zeros + b" ", 1)


def _many_keys(size):
    """One mapping of distinct keys k0000000.., then a repeat of the first."""
    out = []
    used = 0
    i = 0
    repeat = b"k0000000: 2\n"
    while True:
        line = b"k%07d: 1\n" % i
        if used + len(line) + len(repeat) > size:
            break
        out.append(line)
        used += len(line)
        i += 1
    return b"".join(out) + repeat


def set_seeds(base, size):
    """Scene text, then NUL-separated overrides, at most size bytes."""
    per = (size - len(base)) // 16 - 1  # each override and its NUL
    overrides = [b"paper.m=1." + b"0" * (per - 10)] * 16
    return {
        "large-name-override": fill(base + b"\0name=", b"n", size),
        "large-outline-override": fill(base + b"\0body.outline=[", b"[1.5, -2.25], ", size - 1,
                                       b"]"),
        "sixteen-long-overrides": base + b"\0" + b"\0".join(overrides),
        "large-comments-override": fill(base + b"\n", b"# a comment line\n", size - 12,
                                        b"\0paper.m=2"),
    }


def main():
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("scene", "run", "set"):
        sys.exit(__doc__)
    harness, outdir, scene = sys.argv[1:4]
    size = int(sys.argv[4]) if len(sys.argv) == 5 else 1048576
    with open(scene, "rb") as f:
        base = f.read()
    seeds = set_seeds(base, size) if harness == "set" else scene_seeds(base, size)
    os.makedirs(outdir, exist_ok=True)
    for name, data in seeds.items():
        if len(data) > size:
            sys.exit(f"large_seeds: {name} holds {len(data)} bytes, more than {size}")
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
