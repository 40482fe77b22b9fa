"""Siconos as an independent oracle of the N-contact engine (issue 34).

The shipped box in a corner (two floor corners and a wall, three contacts),
let go off its corner and tilted, is simulated twice:

- by zeno's N-contact ZOD engine (`zeno simulate --out`): exact event times,
  impacts by law (15) or Newton's law, Zeno completion;
- by Siconos (python3-siconos, Debian), an event-capturing Moreau-Jean time
  stepper on the same linearised model: a LagrangianLinearTIDS with the
  scene's constant mass and load, one LagrangianLinearTIR per contact whose
  rows are the contact's normal and tangential rows of zeno's W at the
  nominal pose, NewtonImpactFrictionNSL with the scene's mu and e, and a 2-D
  FrictionContact problem at each step of h = 5e-6.

The ZOD is exactly this linear complementarity system, so the two runs are
one motion computed by two independent methods: the states at every 0.01 of
time through the chatter (impacts at the floor and the wall, sliding,
jamming), and the rest points, agree within 1e-3 of the perturbation's size.
Moreau-Jean's error is O(h). Measured at h = 5e-6: along the runs 1.3e-5
(inelastic) and 1.1e-4 (Newton's law, e = 0.5) of the perturbation, at rest
1.7e-4 (the lift of the jammed box's left corner) and 7e-6; at h = 1e-5
twice that. Skipped when Siconos is absent (tools/setup installs it).
"""

import csv
import math
import os
import subprocess

import numpy as np
import pytest
import yaml

from conftest import EXE, SANITIZED, scene_path

# The oracle's numbers are the normal build's: under ASan+UBSan the
# sanitizer runtimes preloaded into python would judge Siconos's own code.
if SANITIZED:
    pytest.skip("the Siconos oracle runs in the normal build", allow_module_level=True)
sk = pytest.importorskip("siconos.kernel")

# The perturbation: the box off its corner and tilted (pose, from rest).
POSE = [0.01, 0.02, 0.01]
# Siconos's step, and when both runs are compared.
STEP = 5e-6
SAMPLE = 0.01
DURATION = 0.2
# Agreement asked, relative to the perturbation's size.
TOLERANCE = 1e-3


def box_model():
    """Mass matrix, load and the contacts' (H, mu) of the scene file, in
    zeno's conventions (docs/scenes.md): a surface at angle a has tangent
    (cos a, sin a) and normal (-sin a, cos a); the load is
    |f| (sin a, -cos a); a contact's coordinates are linear in the pose
    q = (x, y, theta) through its body point p: n . (dx - theta p_y,
    dy + theta p_x)."""
    with open(scene_path("box-in-a-corner.yaml")) as f:
        s = yaml.safe_load(f)
    m, rho = s["body"]["mass"], s["body"]["rho"]
    a = math.radians(s["load"]["angle"])
    load = s["load"]["magnitude"] * np.array([math.sin(a), -math.cos(a), 0.0])
    contacts = []
    for c in s["contacts"]:
        px, py = c["point"]
        ang = math.radians(c["surface"]["angle"])
        t = (math.cos(ang), math.sin(ang))
        n = (-t[1], t[0])
        rows = [[v[0], v[1], -v[0] * py + v[1] * px] for v in (n, t)]
        contacts.append((np.array(rows), c["mu"]))
    return np.diag([m, m, m * rho * rho]), load, contacts


def siconos_run(e):
    """The Moreau-Jean run from POSE at rest: the pose at each multiple of
    SAMPLE up to DURATION."""
    M, load, contacts = box_model()
    ds = sk.LagrangianLinearTIDS(np.array(POSE), np.zeros(3), M)
    ds.setFExtPtr(load)
    nsds = sk.NonSmoothDynamicalSystem(0.0, DURATION)
    nsds.insertDynamicalSystem(ds)
    for H, mu in contacts:
        nsds.link(sk.Interaction(sk.NewtonImpactFrictionNSL(e, 0.0, mu, 2),
                                 sk.LagrangianLinearTIR(H)), ds)
    problem = sk.FrictionContact(2)
    problem.numericsSolverOptions().dparam[0] = 1e-12
    problem.numericsSolverOptions().iparam[0] = 100000
    sim = sk.TimeStepping(nsds, sk.TimeDiscretisation(0.0, STEP), sk.MoreauJeanOSI(0.5),
                          problem)
    every = round(SAMPLE / STEP)
    poses, k = {}, 0
    while sim.hasNextEvent():
        sim.computeOneStep()
        sim.nextStep()
        k += 1
        if k % every == 0:
            poses[round(k * STEP, 9)] = np.array(ds.q())
    return poses


def zeno_run(tmp_path, law, e):
    """zeno's run: the pose of each trajectory sample (every SAMPLE), and
    the outcome."""
    out = tmp_path / law
    subprocess.run([EXE, "simulate", scene_path("box-in-a-corner.yaml"), "--set",
                    "initial.pose=%s" % POSE, "--set", "impact.law=%s" % law, "--set",
                    "impact.e=%s" % e, "--set", "solver.sample_dt=%s" % SAMPLE, "--set",
                    "stop.t_end=%s" % DURATION, "--out", str(out), "-q"], check=True)
    poses, rest = {}, None
    with open(os.path.join(out, "trajectory.csv")) as f:
        for row in csv.DictReader(f):
            pose = np.array([float(row["x"]), float(row["y"]), float(row["theta"])])
            if row["kind"] == "sample":
                poses[round(float(row["t"]), 9)] = pose
            rest = pose  # the last row: the state after the END event
    with open(os.path.join(out, "events.jsonl")) as f:
        end = [line for line in f if '"kind": "end"' in line][-1]
    return poses, rest, end


@pytest.mark.parametrize("law,e", [("inelastic", 0.0), ("newton", 0.5)])
def test_box_in_a_corner_against_siconos(tmp_path, law, e):
    ours, rest, end = zeno_run(tmp_path, law, e)
    assert '"outcome": "rest"' in end
    theirs = siconos_run(e)
    size = np.linalg.norm(POSE)
    # Every 0.01 until zeno's run ends at rest (t = 0.078 inelastic, 0.125
    # Newton): the fall, the impacts, the slides and the jam.
    times = sorted(set(ours) & set(theirs))
    assert len(times) >= 7
    worst = max(np.linalg.norm(ours[t] - theirs[t]) / size for t in times)
    assert worst <= TOLERANCE, "largest difference %.3g of the perturbation" % worst
    # The rest points: zeno's at its end, Siconos's at DURATION (at rest
    # long before).
    final = theirs[max(theirs)]
    gap = np.linalg.norm(rest - final) / size
    assert gap <= TOLERANCE, "rest points %.3g of the perturbation apart" % gap
    # The runs moved: the rest lies far from the start (the box fell into
    # its corner), so the comparison is not of two unmoved states.
    assert np.linalg.norm(rest - np.array(POSE)) > 0.5 * size
