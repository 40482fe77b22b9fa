#!/usr/bin/env python3
"""The example program examples/simulate.c does what its comment says.

  check_example.py PROGRAM SOURCE_ROOT

PROGRAM is the built example (build/examples/simulate, or the same file
compiled against an installed zeno by tests/test_install.sh). Checks, with
the paper's numbers for Example 2 (Várkonyi & Or, Example 2 / Fig. 4b):

- run from SOURCE_ROOT without arguments it simulates scenes/example2.yaml
  and prints the same as with the path given;
- the word is FF IF PF FI FP IF PF SF II SS, the outcome rest, x2 at rest
  14.87 and the section angles 0.948 and -0.524, to the paper's printed
  digits;
- the event lines are the whole run: their count is the summary's, and
  the modes and impacts they print spell the word;
- a missing scene file, a malformed one and a bad override each stop it
  with exit status 2 and one line naming the file and position (or the
  override), before anything is simulated.
"""
import os
import re
import subprocess
import sys
import tempfile

WORD = "FF IF PF FI FP IF PF SF II SS"
# Rest point and section angles of Example 2 as the paper prints them, to
# the tolerances tests/test_sim_zod.c asserts them with (one unit of the
# printed 14.87, two of 0.948 and -0.524).
REST_X2 = 14.87
REST_X2_TOL = 0.01
SECTION_ANGLES = (0.948, -0.524)
SECTION_ANGLE_TOL = 0.002
EXIT_BAD_INPUT = 2
# Seconds one run may take (it takes milliseconds).
RUN_TIMEOUT = 60

EVENT = re.compile(r"^event +(\d+) +t = (\S+) +(\S+) +([FSPN]+) -> ([FSPN]+)(.*)$")
IMPACT = re.compile(r"impact (\S+) at contact (\d)")
ANGLE = re.compile(r"section angle (\S+) rad")


def run(program, args, cwd):
    return subprocess.run([program] + args, cwd=cwd, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)


def word_from_events(events):
    """The mode word the event lines spell: the start mode, then each
    impact's name and the mode after it, each transition's mode after."""
    word = []
    for kind, before, after, rest in events:
        if kind == "start":
            word.append(after)
        elif kind == "impact":
            word += [IMPACT.search(rest).group(1), after]
        elif kind in ("transition", "zeno"):
            word.append(after)
    return " ".join(word)


def check_run(out, failures):
    lines = out.splitlines()
    events = []
    angles = []
    for line in lines:
        m = EVENT.match(line)
        if not m:
            continue
        if int(m.group(1)) != len(events):
            failures.append(f"event lines out of order at {line!r}")
        events.append((m.group(3), m.group(4), m.group(5), m.group(6)))
        a = ANGLE.search(m.group(6))
        if a:
            angles.append(float(a.group(1)))
    fields = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in lines if " " in line}
    if fields.get("word") != WORD:
        failures.append(f"word {fields.get('word')!r}, expected {WORD!r}")
    outcome = re.match(r"(\S+) at t = \S+ after (\d+) events, (\d+) impacts",
                       fields.get("outcome", ""))
    if not outcome:
        failures.append(f"no outcome line in {out!r}")
        return
    if outcome.group(1) != "rest":
        failures.append(f"outcome {outcome.group(1)!r}, expected 'rest'")
    if int(outcome.group(2)) != len(events):
        failures.append(f"{len(events)} event lines, the summary counts {outcome.group(2)}")
    impacts = sum(1 for kind, *_ in events if kind == "impact")
    if int(outcome.group(3)) != impacts:
        failures.append(f"{impacts} impact lines, the summary counts {outcome.group(3)}")
    if events and (events[0][0] != "start" or events[-1][0] != "end"):
        failures.append("the events do not run from start to end")
    spelled = word_from_events(events)
    if spelled != WORD:
        failures.append(f"the event lines spell {spelled!r}, not the word")
    final = re.match(r"\(z1, z2, x2\) = \((\S+), (\S+), (\S+)\)", fields.get("final", "")[3:])
    if not final:
        failures.append(f"no final q' line in {out!r}")
    elif abs(float(final.group(3)) - REST_X2) > REST_X2_TOL:
        failures.append(f"x2 at rest {final.group(3)}, expected {REST_X2} ± {REST_X2_TOL}")
    if len(angles) != len(SECTION_ANGLES) or any(
            abs(a - b) > SECTION_ANGLE_TOL for a, b in zip(angles, SECTION_ANGLES)):
        failures.append(f"section angles {angles}, expected {SECTION_ANGLES} ± {SECTION_ANGLE_TOL}")


def check_refused(program, args, cwd, what, expected, failures):
    r = run(program, args, cwd)
    if r.returncode != EXIT_BAD_INPUT:
        failures.append(f"{what}: exit {r.returncode}, expected {EXIT_BAD_INPUT}")
    err = r.stderr.strip().splitlines()
    if len(err) != 1 or "cannot load the scene" not in err[0] or expected not in err[0]:
        failures.append(f"{what}: stderr {r.stderr!r} is not one line naming {expected!r}")
    if r.stdout:
        failures.append(f"{what}: printed {r.stdout!r} before stopping")


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    program, root = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    scene = os.path.join(root, "scenes", "example2.yaml")
    failures = []

    given = run(program, [scene], root)
    if given.returncode != 0:
        failures.append(f"example2: exit {given.returncode}: {given.stderr!r}")
    check_run(given.stdout, failures)
    default = run(program, [], root)
    if default.returncode != 0 or default.stdout != given.stdout:
        failures.append("without arguments it does not simulate scenes/example2.yaml: "
                        f"exit {default.returncode}, {default.stdout!r}")

    with tempfile.TemporaryDirectory() as tmp:
        missing = os.path.join(tmp, "no-such-scene.yaml")
        check_refused(program, [missing], tmp, "a missing scene", missing, failures)
        malformed = os.path.join(tmp, "malformed.yaml")
        with open(malformed, "w", encoding="utf-8") as f:
            f.write("name: broken\npaper: {alpha: 65\n")
        check_refused(program, [malformed], tmp, "a malformed scene",
                      malformed + ":3:1:", failures)
        check_refused(program, [scene, "paper.mu9=1"], tmp, "a bad override",
                      "paper.mu9=1", failures)

    for line in failures:
        print("FAIL:", line)
    if failures:
        return 1
    print(f"PASS: {program} simulates Example 2 ({WORD}, rest at x2 = {REST_X2}) "
          "and stops on each bad input")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
