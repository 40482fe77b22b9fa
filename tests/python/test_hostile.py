"""No argument of any public call takes the interpreter down: every public
function and method of the package (enumerated from ``zeno.__all__``,
``zeno.plot.__all__`` and the public methods of the classes there; a new
one without cases fails the test) is called with each hostile value in
each of its argument places: huge and negative integers, NaN and
infinities, wrong types, empty containers, very long strings and strings
with NUL bytes. Each call must succeed or raise TypeError, ValueError
(zeno's ArgumentError and SceneError are ValueErrors), zeno.Error,
KeyError, MemoryError or ImportError (pandas absent), within seconds. The whole matrix runs in one
child interpreter, which reports each case before and after it: a crash
names the case it died in."""

import json
import os
import subprocess
import sys

from conftest import PACKAGE_DIR, scene_path

HOSTILE = [
    "2**64", "10**30", "-1", "-2**63", "0", "float('nan')", "float('inf')", "-float('inf')",
    "'x'", "''", "None", "[]", "{}", "()", "object()", "'a' * 100000", "'a\\0b'", "b'x'",
    "True", "1.5", "[float('nan')] * 3", "{'x': float('nan')}",
]

# Each public callable: (setup, call template with one {} per argument
# place, the places' valid values). A case puts one hostile value in one
# place, the others valid.
SETUP = f"""
import warnings
warnings.simplefilter("ignore")
s = zeno.Scene.load({scene_path('example2.yaml')!r})
ball = zeno.Scene.load({scene_path('bouncing-ball.yaml')!r})
run = zeno.simulate(s)
mp = zeno.maps(s, 64)
rg = zeno.regions(zeno.Scene.load({scene_path('example6.yaml')!r}), x=('com.x', -1, 1, 2),
                  y=('com.y', -1, 1, 2), samples=64, mc_runs=0)
sim = zeno.Simulator(s, keep_history=True); next(sim)
s7 = zeno.Scene.load({scene_path('example7.yaml')!r})
cert = zeno.certify(s7)
sw = zeno.sweep(s, x=('initial.qdp.2', -1, 1, 2), y=('initial.qdp.1', -1, 0, 2), threads=1)
"""

CALLS = {
    "Scene.load": ("zeno.Scene.load({}, {})", [repr(scene_path("example2.yaml")), "None"]),
    "Scene.from_yaml": ("zeno.Scene.from_yaml({}, {}, {})", ["s.to_yaml()", "'n'", "None"]),
    "Scene.from_dict": ("zeno.Scene.from_dict({}, {})", ["{'paper': {}}", "None"]),
    "Scene.with_overrides": ("s.with_overrides({})", ["['paper.mu2=0.5']"]),
    "Scene.with_settings": ("s.with_settings(model={}, epsilon={}, t_end={}, sample_dt={}, "
                            "max_events={}, wall_time={})",
                            ["'zod'", "0.001", "1.0", "0.01", "100", "None"]),
    "Scene.to_yaml": ("s.to_yaml()", []),
    "simulate": ("zeno.simulate({}, model={}, eps={}, t_end={}, sample_dt={}, max_events={}, "
                 "wall_time={}, trajectory={})",
                 ["s", "None", "None", "2.0", "None", "1000", "None", "True"]),
    "Simulator": ("zeno.Simulator({}, model={}, eps={}, t_end={}, max_events={}, wall_time={}, "
                  "keep_history={})", ["s", "None", "None", "2.0", "1000", "None", "False"]),
    "Simulator.restart": ("zeno.Simulator(s).restart({}, {})", ["(0, 0, 0)", "(1, 1, 0)"]),
    "Simulator.run": ("zeno.Simulator(s).run()", []),
    "Simulator.state_at": ("sim.state_at({})", ["0.0"]),
    "Simulator.summary": ("sim.summary()", []),
    "Run.to_pandas": ("run.to_pandas({})", ["'events'"]),
    "Trajectory.__getitem__": ("run.trajectory[{}]", ["'t'"]),
    "Trajectory.to_dict": ("run.trajectory.to_dict()", []),
    "Trajectory.to_pandas": ("run.trajectory.to_pandas()", []),
    "Event.from_array": ("zeno.Event.from_array({})", ["run.event_array"]),
    "event_dtype": ("zeno.event_dtype({})", ["3"]),
    "state_dtype": ("zeno.state_dtype({})", ["3"]),
    "State.from_array": ("zeno.State.from_array({})", ["run.event_array['after']"]),
    "check": ("zeno.check({})", ["s"]),
    "maps": ("zeno.maps({}, {})", ["s", "64"]),
    "analyze": ("zeno.analyze({}, {}, {})", ["s", "64", "30"]),
    "regions": ("zeno.regions({}, x={}, y={}, threads={}, samples={}, intervals={}, mc_runs={}, "
                "mc_seed={}, mc_full={}, overrides={})",
                ["zeno.Scene.load(" + repr(scene_path("example6.yaml")) + ")",
                 "('com.x', -1, 1, 2)", "('com.y', -1, 1, 2)", "1", "64", "30", "2", "1",
                 "False", "None"]),
    "Regions.to_pandas": ("rg.to_pandas()", []),
    "sweep": ("zeno.sweep({}, x={}, y={}, threads={}, magnitude={}, basin_tol={}, basin_turn={}, "
              "overrides={})",
              ["s", "('initial.qdp.2', -1, 1, 2)", "('initial.qdp.1', -1, 0, 2)", "1", "None",
               "None", "None", "None"]),
    "Sweep.summary": ("sw.summary()", []),
    "Sweep.to_pandas": ("sw.to_pandas()", []),
    "certify": ("zeno.certify({}, degree={}, check={}, eps={}, max_iterations={}, check_size={}, "
                "check_seed={}, overrides={})",
                ["s7", "2", "1", "None", "None", "None", "None", "None"]),
    "Certificate.to_dict": ("cert.to_dict()", []),
    "Certificate.to_pandas": ("cert.to_pandas()", []),
    "Certificate.evaluate": ("cert.evaluate({})", ["[0.1, 0.1, 0, 0, 0, 0]"]),
    "Certificate.along": ("cert.along({})", ["None"]),
    "CertificateRun.to_pandas": ("cert.along().to_pandas()", []),
    "plot.maps": ("zeno.plot.maps({}, title={})", ["mp", "None"]),
    "plot.regions": ("zeno.plot.regions({}, title={})", ["rg", "None"]),
    "plot.trajectory": ("zeno.plot.trajectory({}, title={})", ["run", "None"]),
    "plot.axis_label": ("zeno.plot.axis_label({})", ["'paper.mu2'"]),
    "plot.mode_color": ("zeno.plot.mode_color({})", ["'FN'"]),
}

CHILD = r"""
import json, signal, sys
import zeno, zeno.plot
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
exec(sys.argv[1])
cases = json.loads(sys.stdin.read())
ALLOWED = (TypeError, ValueError, zeno.Error, KeyError, MemoryError, ImportError)

class Hang(Exception):
    pass

def on_alarm(signum, frame):
    raise Hang()

signal.signal(signal.SIGALRM, on_alarm)
for name, code in cases:
    print("start", name, code, flush=True)
    signal.alarm(20)
    try:
        eval(code)
        outcome = "ok"
    except Hang:
        outcome = "hang"
    except ALLOWED as e:
        outcome = "refused " + type(e).__name__
    except BaseException as e:
        outcome = "wrong " + type(e).__name__ + ": " + str(e)[:200]
    signal.alarm(0)
    plt.close("all")
    print("done", outcome, flush=True)
"""


def public_callables():
    """Every public function and method the package offers."""
    import zeno
    import zeno.plot
    names = set()
    for name in zeno.__all__:
        obj = getattr(zeno, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue
        if isinstance(obj, type):
            if name == "Simulator":
                names.add(name)  # its constructor takes the settings
            for klass in obj.__mro__[:-1]:  # the extension's base types too
                for attr, member in vars(klass).items():
                    if attr.startswith("_") and attr != "__getitem__":
                        continue
                    if callable(member) or isinstance(member, (classmethod, staticmethod)):
                        names.add(f"{name}.{attr}")
        elif callable(obj) and not isinstance(obj, type(zeno)):
            names.add(name)
    for name in zeno.plot.__all__:
        if callable(getattr(zeno.plot, name)):
            names.add(f"plot.{name}")
    return names


def test_every_public_call_has_cases():
    missing = public_callables() - set(CALLS)
    assert not missing, f"public calls without hostile-argument cases: {sorted(missing)}"


def cases():
    out = []
    for name, (template, valid) in CALLS.items():
        if not valid:
            out.append((name, template))
        for place in range(len(valid)):
            for value in HOSTILE:
                args = list(valid)
                args[place] = value
                out.append((f"{name}[{place}]={value}", template.format(*args)))
    return out


def test_hostile_arguments_never_crash():
    matrix = cases()
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR, PYTHONWARNINGS="ignore", MPLBACKEND="Agg")
    child = subprocess.run([sys.executable, "-c", CHILD, SETUP], input=json.dumps(matrix),
                           capture_output=True, text=True, env=env, timeout=1200)
    lines = child.stdout.splitlines()
    started = [line for line in lines if line.startswith("start ")]
    done = [line[len("done "):] for line in lines if line.startswith("done ")]
    if child.returncode != 0:
        last = started[-1] if started else "(before the first case)"
        raise AssertionError(f"the interpreter died (status {child.returncode}) in {last}:\n"
                             f"{child.stderr[-3000:]}")
    assert len(done) == len(matrix), child.stderr[-3000:]
    bad = [f"{name}: {outcome}" for (name, _), outcome in zip(matrix, done)
           if outcome.startswith(("wrong", "hang"))]
    accepted = [name for (name, _), outcome in zip(matrix, done) if outcome == "ok"]
    if os.environ.get("ZENO_HOSTILE_LIST"):
        print("\n".join(accepted))
    print(f"hostile arguments: {len(CALLS)} calls, {len(matrix)} cases, "
          f"{sum(o == 'ok' for o in done)} accepted, "
          f"{sum(o.startswith('refused') for o in done)} refused")
    assert not bad, "\n".join(bad)
