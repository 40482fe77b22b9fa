"""Ctrl-C during a long call (docs/python.md): each long function of the
package, started in a child interpreter, is sent SIGINT about a second
into its work and must raise KeyboardInterrupt within 0.5 s of the signal
(the library asks the extension between events, samples and points; the
extension looks at Python's signals every 10 ms) and leave the child
uncaught, as a Ctrl-C leaves a script."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import PACKAGE_DIR, scene_path

# The promise: KeyboardInterrupt raised within this many seconds of SIGINT.
RAISE_WITHIN = 0.5
# The child's exit after it raised: the interpreter frees the call's memory
# and exits; not the package's latency, so bounded loosely for a busy machine.
EXIT_WITHIN = 5.0
# How long each call works before the signal [s] (the trajectory's rows
# grow by ~100 MB a second: it gets half a second).
DELAY = 1.0

CHILD = r"""
import sys, time
import zeno
setup, call = sys.argv[1], sys.argv[2]
exec(setup)
print("ready", flush=True)
try:
    exec(call)
except KeyboardInterrupt:
    print("interrupted", time.monotonic(), flush=True)
    raise
print("finished", flush=True)
"""

BALL = scene_path("bouncing-ball.yaml")
NEWTON = scene_path("example4-newton.yaml")
EXAMPLE6 = scene_path("example6.yaml")
# A perfectly elastic ball under the full model bounces until t_end: about
# 3 s of events on an idle core for t_end = 1e5.
ELASTIC_FULL = "['model=full', 'impact.e=1', 'stop.t_end=1e5', 'stop.max_events=100000000']"

# name: (setup, the long call, seconds before the signal). Each call runs
# many seconds uninterrupted (maps: 1e6 samples of the Newton scene, about
# 17 s on one core).
CASES = {
    "simulate": (f"s = zeno.Scene.load({BALL!r}, overrides={ELASTIC_FULL})",
                 "zeno.simulate(s, trajectory=False)", DELAY),
    "Simulator.run": (f"sim = zeno.Simulator(zeno.Scene.load({BALL!r}, overrides={ELASTIC_FULL}))",
                      "sim.run()", DELAY),
    "Run.trajectory": (
        f"r = zeno.simulate(zeno.Scene.load({BALL!r}, overrides=['model=full', 'impact.e=1', "
        "'stop.t_end=200', 'solver.sample_dt=1e-4']))",  # 2,000,445 rows: under the cap
        "r.trajectory", DELAY / 2),
    "maps": (f"s = zeno.Scene.load({NEWTON!r})", "zeno.maps(s, 1000000)", DELAY),
    "analyze": (f"s = zeno.Scene.load({NEWTON!r})", "zeno.analyze(s, 1000000)", DELAY),
    "regions": (f"s = zeno.Scene.load({EXAMPLE6!r})",
                "zeno.regions(s, x=('com.x', -2.5, 2, 300), y=('com.y', -1, 1, 300))", DELAY),
    "regions, one thread": (f"s = zeno.Scene.load({EXAMPLE6!r})",
                            "zeno.regions(s, x=('com.x', -2.5, 2, 300), y=('com.y', -1, 1, 300), "
                            "threads=1)", DELAY),
    # Two points of about 2 s each on an idle core: stopped within a point's run.
    "sweep": (f"s = zeno.Scene.load({BALL!r}, overrides={ELASTIC_FULL})",
              "zeno.sweep(s, x=('stop.t_end', 1e5, 1.1e5, 2), y=('initial.velocity.1', 0, 0, 1))",
              DELAY),
    # 100000 checked runs: about 4 s.
    "certify": (f"s = zeno.Scene.load({scene_path('example7.yaml')!r})",
                "zeno.certify(s, check=100000)", DELAY),
}

# The package's long functions, each of which must have a case above.
LONG_CALLS = {"simulate", "Simulator.run", "Run.trajectory", "maps", "analyze", "regions",
              "sweep", "certify"}


def test_every_long_call_has_a_case():
    assert LONG_CALLS <= set(CASES)


# A busy machine (a load of 7 on two cores, a sanitizer build beside)
# delays the child's scheduling by more than the promise: a late raise is
# measured again, up to this many times. A call that never asks the hook
# runs to its end on every attempt and still fails.
ATTEMPTS = 3


def interrupt_once(name):
    """Runs the case, sends SIGINT; returns (raise latency, exit latency, returncode, stderr)."""
    setup, call, delay = CASES[name]
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR, PYTHONWARNINGS="ignore")
    child = subprocess.Popen([sys.executable, "-c", CHILD, setup, call], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(delay)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().split()
        _, err = child.communicate(timeout=EXIT_WITHIN + 60)
        exited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert line and line[0] != "finished", f"{name} finished before the signal: make it longer"
    assert line[0] == "interrupted", f"{name}: no KeyboardInterrupt ({line}): {err}"
    return float(line[1]) - sent, exited, child.returncode, err


@pytest.mark.parametrize("name", sorted(CASES))
def test_ctrl_c_stops_the_call(name):
    for attempt in range(ATTEMPTS):
        raised, exited, returncode, err = interrupt_once(name)
        print(f"{name}: KeyboardInterrupt {raised * 1e3:.0f} ms after SIGINT, "
              f"exit after {exited * 1e3:.0f} ms (attempt {attempt + 1})")
        if raised <= RAISE_WITHIN and exited <= EXIT_WITHIN:
            break
    assert raised <= RAISE_WITHIN, f"{name}: KeyboardInterrupt after {raised:.3f} s"
    # Uncaught, as Ctrl-C leaves a script: the interpreter ends by SIGINT.
    assert returncode == -signal.SIGINT, err
    assert err.rstrip().endswith("KeyboardInterrupt"), err
    assert exited <= EXIT_WITHIN, f"{name}: exit {exited:.3f} s after the signal"
