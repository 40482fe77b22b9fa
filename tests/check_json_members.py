#!/usr/bin/env python3
"""Every `--json` member of every command is documented (issue 32).

    check_json_members.py ZENO SOURCE_ROOT

Runs each command that has `--json` on a scene of the repository (`check`
also on a scene of three contacts, whose report is Pang-Trinkle's N-contact
one), reads the object it prints and checks each of its members:

- in the command's `--help`, as a word, unless the help sends the reader to
  docs/outputs.md for them;
- in docs/outputs.md, as `` `NAME` `` in the command's section (the heading
  "### `zeno COMMAND --json`" up to the next heading of its level).

`maps --json` (new in issue 32) is also held against what it must hold: its
points are the `--csv` rows of the same maps, number for number, and its map
members are those of `analyze --json`. And docs/scenes.md says of a closed
contact that approaches what the program does: an impact at t = 0
(docs/model.md, edge states), not that the start is refused.
Exits 1 naming each fault.
"""
import csv
import io
import json
import math
import os
import re
import subprocess
import sys

# The runs: each command on a scene that exercises its members (a region map
# with --certify has its "certify" member; Example 2's run has every member).
def runs(scenes):
    ex2, ex4, ex7, box = (os.path.join(scenes, n) for n in (
        "example2.yaml", "example4.yaml", "example7.yaml", "box-in-a-corner.yaml"))
    return [
        ("simulate", [ex2, "--json"]),
        # More than two contacts: the N-contact engine's run, format version 2.
        ("simulate", [box, "--json", "--set", "initial.pose=[0.01, 0.02, 0.01]"]),
        ("check", [ex2, "--json"]),
        # More than two contacts: Pang-Trinkle's N-contact report (issue 34).
        ("check", [box, "--json"]),
        ("analyze", [ex2, "--json", "--samples", "64"]),
        ("maps", [ex2, "--json", "--samples", "64"]),
        ("certify", [ex4, "--json"]),
        ("regions", [ex7, "--json", "--samples", "64", "--x", "paper.mu2=0:1.3:3", "--y",
                     "paper.alpha=0:40:3", "--certify"]),
        ("sweep", [ex2, "--json", "--x", "initial.qdp.2=-1:1:3", "--y",
                   "initial.qdp.1=-1:-0.05:2"]),
    ]


def run(zeno, args):
    out = subprocess.run([zeno] + args, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"zeno {' '.join(args)}: exit {out.returncode}: {out.stderr}")
    return out.stdout


def word_in(name, text):
    return re.search(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])", text) is not None


def section(doc, command):
    """The text of docs/outputs.md's section of `zeno COMMAND --json`."""
    heading = re.search(r"^(#+) `zeno " + re.escape(command) + r" --json`.*$", doc, re.M)
    if heading is None:
        return None
    level = len(heading.group(1))
    rest = doc[heading.end():]
    end = re.search(r"^#{1,%d} " % level, rest, re.M)
    return rest[:end.start()] if end else rest


def check_members(zeno, root, faults):
    doc = open(os.path.join(root, "docs", "outputs.md"), encoding="utf-8").read()
    objects, checked = {}, 0
    for command, args in runs(os.path.join(root, "scenes")):
        obj = json.loads(run(zeno, [command] + args))
        objects.setdefault(command, obj)
        checked += len(obj)
        help_text = run(zeno, [command, "--help"])
        json_help = help_text[help_text.find("--json"):]
        # The --json option's entry: up to the next option.
        entry = re.split(r"\n  (?:-[a-zA-Z], )?--[a-z]", json_help, maxsplit=1)[0]
        refers = "docs/outputs.md" in entry
        text = section(doc, command)
        if text is None:
            faults.append(f"docs/outputs.md: no section '### `zeno {command} --json`'")
            text = ""
        for name in obj:
            if not refers and not word_in(name, help_text):
                faults.append(f"zeno {command} --help: --json member '{name}' not named "
                              "(nor docs/outputs.md referred to)")
            if f"`{name}`" not in text:
                faults.append(f"docs/outputs.md, zeno {command} --json: member '{name}' "
                              "not documented")
    return objects, checked


def same_number(a, b):
    return (a is None and b is None) or (a is not None and b is not None and
                                         (a == b or (math.isnan(a) and math.isnan(b))))


def check_maps(zeno, root, objects, faults):
    ex2 = os.path.join(root, "scenes", "example2.yaml")
    maps = objects["maps"]
    rows = list(csv.DictReader(io.StringIO(run(zeno, ["maps", ex2, "--samples", "64",
                                                      "--csv", "-"]))))
    points = maps["points"]
    if maps["samples"] != len(points) or len(points) != len(rows):
        faults.append(f"maps --json: {maps['samples']} samples, {len(points)} points, "
                      f"{len(rows)} CSV rows")
    for k, (p, r) in enumerate(zip(points, rows)):
        want = {key: (float(r[key]) if r[key] != "" else None) for key in ("phi", "R", "G")}
        if sorted(p) != ["G", "R", "phi", "word"] or p["word"] != r["word"] or \
                not all(same_number(p[key], want[key]) for key in want):
            faults.append(f"maps --json: point {k} {p} is not the CSV row {r}")
            break
    # Both on standard output: refused, naming the options.
    both = subprocess.run([zeno, "maps", ex2, "--json", "--csv", "-"], capture_output=True,
                          text=True, check=False)
    if both.returncode != 2 or "--csv -" not in both.stderr or "--json" not in both.stderr:
        faults.append(f"maps --json --csv -: exit {both.returncode}, {both.stderr!r}")
    analysis = objects["analyze"]
    for key in ("swapped", "samples", "breakpoints", "fixed_points", "G_max", "G_minus",
                "G_plus"):
        if maps[key] != analysis[key]:
            faults.append(f"maps --json: {key} {maps[key]} is not analyze's {analysis[key]}")


def check_closed_approach(zeno, root, faults):
    """A closed contact approaching at the start: an impact at t = 0."""
    ex2 = os.path.join(root, "scenes", "example2.yaml")
    out = json.loads(run(zeno, ["simulate", ex2, "--set", "initial.qp=[0, 1, 0]", "--set",
                                "initial.qdp=[-1, 0, 2]", "--json"]))
    if not out["word"].startswith("FF IF"):
        faults.append(f"simulate from z1 = 0, z1dot = -1: word {out['word']}, not an impact "
                      "at t = 0")
    scenes_doc = open(os.path.join(root, "docs", "scenes.md"), encoding="utf-8").read()
    row = next((line for line in scenes_doc.splitlines() if line.startswith("| `qdp` |")), "")
    if "may not approach" in row or "impact at t = 0" not in row:
        faults.append(f"docs/scenes.md: the qdp row says '{row}'; a closed contact that "
                      "approaches is accepted and impacts at t = 0 (docs/model.md)")


def main():
    zeno, root = sys.argv[1], sys.argv[2]
    faults = []
    objects, checked = check_members(zeno, root, faults)
    check_maps(zeno, root, objects, faults)
    check_closed_approach(zeno, root, faults)
    for fault in faults:
        print(fault)
    print(f"json members: {checked} members of {len(objects)} commands, {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
