"""simulate() and Simulator on scenes of more than two contacts (issue 34):
the N-contact engine's runs through Python, equal to `zeno simulate`'s JSON
and run directory (format version 2) to the last digit, in records sized to
the scene's contact count (zeno.event_dtype(n), zeno.state_dtype(n)), while
one- and two-contact runs keep EVENT_DTYPE and STATE_DTYPE as they were."""

import csv
import json

import numpy as np
import pytest

import zeno
from conftest import MANY_CONTACT_FILES, cli, cli_json, json_value, scene_path
from test_simulate import (assert_run_equals_json, assert_trajectory_equals_file, csv_field,
                           event_json, nulls)

# The box in a corner let go off its corner and tilted (the perturbation of
# test_siconos_oracle.py), inelastic and under Newton's law (e = 0.5, as
# tests/test_sim_multi.c's first case): impacts at the floor and the wall,
# Zeno completions, rest.
BOX = "box-in-a-corner.yaml"
BOX_POSE = "initial.pose=[0.01, 0.02, 0.01]"
BOX_NEWTON = [BOX_POSE, "impact.law=newton", "impact.e=0.5"]
RUNS = [(name, []) for name in MANY_CONTACT_FILES] + [
    (BOX, [BOX_POSE]),
    (BOX, BOX_NEWTON),
    (BOX, [BOX_POSE, "model=full"]),  # the full model of N contacts (simn_full.c)
]


def load(name, overrides=()):
    return zeno.Scene.load(scene_path(name), list(overrides))


def sets(overrides):
    return [arg for o in overrides for arg in ("--set", o)]


def run_id(value):
    return " ".join(value) if isinstance(value, list) else value


# ---- the records' dtypes ---------------------------------------------------------------

# EVENT_DTYPE and STATE_DTYPE as they were before N-contact records (numpy's
# descr: names, formats and padding, hence the offsets and itemsize).
STATE_DESCR = [
    ("t", "<f8"), ("q", "<f8", (3,)), ("qdot", "<f8", (3,)), ("gap", "<f8", (2,)),
    ("gap_rate", "<f8", (2,)), ("slip", "<f8", (2,)), ("slip_rate", "<f8", (2,)),
    ("zod", "<f8", (3,)), ("zod_rate", "<f8", (3,)), ("force", "<f8", (2, 2)),
    ("energy", "<f8"), ("mode", "<U2")]
EVENT_DESCR = [
    ("index", "<i8"), ("t", "<f8"), ("kind", "<U16"), ("guard", "<U16"), ("contact", "<i4"),
    ("mode_before", "<U2"), ("mode_after", "<U2"), ("impact", "<U2"), ("impact_mask", "<u4"),
    ("impulse", "<f8", (2, 2)), ("impact_outcome", "<U1", (2,)), ("before", STATE_DESCR),
    ("after", STATE_DESCR), ("on_section", "|b1"), ("", "|V7"), ("section_angle", "<f8"),
    ("zeno_impacts", "<i8"), ("zeno_ratio", "<f8"), ("zeno_error", "<f8"),
    ("zeno_period", "<i4"), ("zeno_order", "<i4"), ("outcome", "<U16"),
    ("solver_flag", "<U48"), ("consistent_count", "<i4"), ("consistent", "<U2", (16,)),
    ("refusal", "<U16", (16,)), ("refusal_contact", "<i4", (16,)),
    ("refusal_of_impact", "|b1"), ("", "|V3"), ("guard_residual", "<f8"),
    ("constraint_drift", "<f8"), ("tie_margin", "<f8"), ("near_tie", "|b1"), ("", "|V7")]


def test_one_and_two_contact_dtypes_are_unchanged():
    assert zeno.STATE_DTYPE.descr == STATE_DESCR and zeno.STATE_DTYPE.itemsize == 216
    assert zeno.EVENT_DTYPE.descr == EVENT_DESCR and zeno.EVENT_DTYPE.itemsize == 2208
    for n in (1, 2):  # one contact fills the first of the two entries, as before
        assert zeno.event_dtype(n) == zeno.EVENT_DTYPE
        assert zeno.state_dtype(n) == zeno.STATE_DTYPE
    for name in ("example2.yaml", "bouncing-ball.yaml"):
        run = zeno.simulate(load(name))
        assert run.event_array.dtype == zeno.EVENT_DTYPE == run.event_dtype
        assert run.state_dtype == zeno.STATE_DTYPE
        assert next(zeno.Simulator(load(name))._sim).dtype == zeno.EVENT_DTYPE


@pytest.mark.parametrize("n", [3, 8, 16])
def test_n_contact_dtypes_are_sized_to_the_count(n):
    state, event = zeno.state_dtype(n), zeno.event_dtype(n)
    for field in ("gap", "gap_rate", "slip", "slip_rate"):
        assert state[field].shape == (n,) and state[field].base == np.float64
    assert state["force"].shape == (n, 2) and state["mode"] == np.dtype(f"U{n}")
    assert state["q"].shape == state["zod"].shape == (3,)
    for field in ("mode_before", "mode_after", "impact"):
        assert event[field] == np.dtype(f"U{n}")
    assert event["impulse"].shape == (n, 2)
    assert event["impact_outcome"] == np.dtype(("U1", (n,)))
    assert event["consistent"] == np.dtype((f"U{n}", (16,)))
    assert event["before"] == event["after"] == state
    # The fields and their order are those of EVENT_DTYPE.
    assert event.names == zeno.EVENT_DTYPE.names and state.names == zeno.STATE_DTYPE.names
    assert zeno.event_dtype(n) is event  # built once per count


@pytest.mark.parametrize("n", [0, 17, -1, 10**30])
def test_dtype_of_a_count_out_of_range_is_refused(n):
    for f in (zeno.event_dtype, zeno.state_dtype):
        with pytest.raises(zeno.ArgumentError) as e:
            f(n)
        assert e.value.code == "range" and e.value.key == "contacts"
        assert "allowed [1, 16]" in str(e.value)


@pytest.mark.parametrize("n", [2.0, "3", True, None])
def test_dtype_of_a_count_not_an_int_is_refused(n):
    with pytest.raises(TypeError):
        zeno.event_dtype(n)


# ---- runs equal to the program -----------------------------------------------------------


@pytest.mark.parametrize("name, overrides", RUNS, ids=run_id)
def test_run_equals_cli_json(name, overrides):
    run = zeno.simulate(load(name, overrides))
    ref = cli_json("simulate", scene_path(name), "--json", *sets(overrides))
    assert ref["format_version"] == 2 and ref["contact_count"] == run.contact_count > 2
    assert_run_equals_json(run, ref)
    assert list(run.zod_names) == ref["zod_names"]
    assert run.proof == ref["proof"]


def flat_event(e, row, zod_names):
    """One row of events.csv (format version 2) holds the event's fields."""
    for key in ("index", "t", "kind", "guard", "contact", "mode_before", "mode_after", "impact",
                "zeno_impacts", "zeno_ratio", "zeno_error", "zeno_period", "zeno_order",
                "outcome", "tie_margin", "near_tie", "on_section", "section_angle"):
        assert row[key] == csv_field(json_value(getattr(e, key))), (e.index, key)
    for i, (normal, tangential) in enumerate(e.impulse, 1):
        assert (row[f"impulse{i}n"], row[f"impulse{i}t"]) == (csv_field(normal),
                                                              csv_field(tangential))
        letter = e.impact_outcome[i - 1] if e.impact_outcome else None
        assert row[f"impact_outcome{i}"] == csv_field(letter)
    names = tuple(zod_names) + tuple(f"{z}dot" for z in zod_names) + ("energy",)
    for side, state in (("before", e.before), ("after", e.after)):
        for name, value in zip(names, state.zod + state.zod_rate + (state.energy,)):
            assert row[f"{side}_{name}"] == csv_field(value), (e.index, side, name)


@pytest.mark.parametrize("name, overrides", RUNS, ids=run_id)
def test_events_and_trajectory_equal_the_run_directory(tmp_path, name, overrides):
    run = zeno.simulate(load(name, overrides))
    n = run.contact_count
    cli("simulate", scene_path(name), "--out", str(tmp_path), "--quiet", *sets(overrides))
    with open(tmp_path / "events.jsonl") as f:
        ref_events = [json.loads(line) for line in f]
    assert len(ref_events) == len(run.events) == run.event_count
    for event, ref in zip(run.events, ref_events):
        assert nulls(event_json(event)) == ref, event.index
        assert len(event.impulse) == len(event.before.gap) == len(event.after.force) == n
        assert len(event.mode_before) == len(event.before.mode) == n
    header = assert_trajectory_equals_file(run, tmp_path / "trajectory.csv")
    assert header[7:13] == [*run.zod_names, *(f"{z}dot" for z in run.zod_names)]
    assert header[14:14 + 2 * n] == [f"f{i}{k}" for i in range(1, n + 1) for k in "nt"]
    assert len(run.trajectory) > 0
    with open(tmp_path / "events.csv") as f:
        flat = list(csv.DictReader(f))
    assert len(flat) == len(run.events)
    for event, row in zip(run.events, flat):
        flat_event(event, row, run.zod_names)


def test_box_in_a_corner_records_hold_three_contacts():
    run = zeno.simulate(load(BOX, BOX_NEWTON))
    ref = cli_json("simulate", scene_path(BOX), "--json", *sets(BOX_NEWTON))
    # tests/test_sim_multi.c's run: 79 impacts, 4 completions, rest.
    assert (run.status, run.event_count, run.impacts) == ("rest", ref["events"], 79) == (
        ref["status"], 87, ref["impacts"])
    a = run.event_array
    assert a.dtype == zeno.event_dtype(3) == run.event_dtype and len(a) == 87
    assert run.state_dtype == zeno.state_dtype(3) and run.contact_count == 3
    assert run.zod_names == ("z1", "z2", "z3")
    for side in ("before", "after"):
        for field in ("gap", "gap_rate", "slip", "slip_rate"):
            assert a[side][field].shape == (87, 3)
        assert a[side]["force"].shape == (87, 3, 2)
        assert all(len(m) == 3 for m in a[side]["mode"].tolist())
    assert a["impulse"].shape == (87, 3, 2) and a["impact_outcome"].shape == (87, 3)
    kinds = a["kind"].tolist()
    assert kinds.count("impact") == 79 and kinds.count("zeno") == 4
    # The word is the events' modes and impacts, three letters each.
    assert " ".join(w for w in run.word.split()) == ref["word"]
    impacts = a[a["kind"] == "impact"]
    assert set(impacts["impact"].tolist()) <= {"IFF", "FIF", "FFI", "IIF", "FII", "IFI", "III"}
    for e in impacts:  # the impact mask and the name agree, letter by letter
        assert [c == "I" for c in e["impact"]] == [bool(e["impact_mask"] >> i & 1)
                                                   for i in range(3)]
    # The gaps of the record are q''s coordinates z1, z2, z3 (the three gaps).
    assert np.array_equal(a["after"]["gap"], a["after"]["zod"])
    assert a["t"].tolist() == [e.t for e in run.events]
    assert a["after"]["zod"][-1].tolist() == run.final_zod.tolist()


def test_ambiguous_wedge_lists_its_three_letter_modes():
    run = zeno.simulate(load("wedge-third-contact.yaml"))
    end = run.events[-1]
    assert run.status == end.outcome == "ambiguous"
    assert run.consistent_modes == list(end.consistent_modes) == ["SSS", "NFN"]
    assert run.event_array["consistent_count"][-1] == 2


# ---- the Simulator -----------------------------------------------------------------------


def test_simulator_iterates_like_simulate():
    scene = load(BOX, BOX_NEWTON)
    run = zeno.simulate(scene)
    sim = zeno.Simulator(scene, keep_history=True)
    events = list(sim)
    # The same events (NaN where the N-contact engine measures nothing, so
    # compared as events.jsonl writes them), and the same records, byte for byte.
    assert [nulls(event_json(e)) for e in events] == [nulls(event_json(e)) for e in run.events]
    assert sim.word == run.word and sim.status == "rest"
    records = list(zeno.Simulator(scene)._sim)
    assert all(r.dtype == zeno.event_dtype(3) and r.shape == (1,) for r in records)
    assert b"".join(r.tobytes() for r in records) == run.event_array.tobytes()
    # Dense output equals the trajectory's samples, three contacts wide.
    traj = run.trajectory
    z1, z2, z3 = (traj[name] for name in run.zod_names)
    for i in np.flatnonzero(traj.kind == "sample")[::3]:
        state = sim.state_at(float(traj.t[i]))
        assert state.zod == (z1[i], z2[i], z3[i])
        assert state.q == (traj.x[i], traj.y[i], traj.theta[i])
        assert len(state.gap) == len(state.force) == len(state.mode) == 3
        assert state.force == tuple((traj[f"f{k}n"][i], traj[f"f{k}t"][i]) for k in (1, 2, 3))


def test_simulator_restart_and_run():
    scene = load(BOX, BOX_NEWTON)
    ref = zeno.simulate(scene)
    sim = zeno.Simulator(load(BOX, ["impact.law=newton", "impact.e=0.5"]))
    first = ref.events[0].after
    sim.restart(first.zod, first.zod_rate)
    got = sim.run()
    assert got["word"] == ref.word and got["event_count"] == ref.event_count
    assert got["status"] == "rest" and got["final_zod"].tolist() == ref.final_zod.tolist()


# ---- bad input ---------------------------------------------------------------------------


def test_seventeen_contacts_are_refused_naming_the_list():
    contact = "  - {point: [0, -0.5], surface: {angle: 0}, mu: 0.3}\n"
    text = ("body: {mass: 1, rho: 0.4}\ncontacts:\n" + contact * 17 +
            "load: {magnitude: 9.81}\n")
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.from_yaml(text)
    assert str(e.value) == "<string>:3:3: contacts: 17 contacts given; allowed 1 to 16"
    assert (e.value.key, e.value.line, e.value.column) == ("contacts", 3, 3)


def test_full_model_of_many_contacts_runs():
    """The box in a corner in the full model: the ZOD's word, at rest on its
    wall and right floor corner, their exact gaps zero (final_zod)."""
    run = zeno.simulate(load(BOX, [BOX_POSE]), model="full")
    zod = zeno.simulate(load(BOX, [BOX_POSE]))
    assert run.word == zod.word == "FFF FFI FFP IFF NFF IIF NNF FII FNN FSS"
    assert run.status == "rest"
    assert run.final_zod[0] > 0 and abs(run.final_zod[1]) < 1e-15 and abs(run.final_zod[2]) < 1e-15


def test_trajectory_figure_of_many_contacts():
    """zeno.plot.trajectory of three contacts, as `zeno plot-trajectory`
    draws it: the box in a corner (q' = z1, z2, z3, gaps only) on one panel,
    the polygon on its slope (q' = z1, z2, x3) with its slip below; each
    curve is its q' column, and no two modes share a band colour."""
    pyplot = pytest.importorskip("matplotlib.pyplot")
    for name, gaps, below in ((BOX, ["z1", "z2", "z3"], []),
                              ("polygon-on-slope.yaml", ["z1", "z2"], ["x3"])):
        run = zeno.simulate(load(name, [BOX_POSE]))
        top, bottom = zeno.plot.trajectory(run)
        traj = run.trajectory
        assert list(traj.columns[7:10]) == gaps + below
        assert bottom.get_visible() == bool(below)
        for ax, names in ((top, gaps), (bottom, below)):
            lines = ax.get_lines()  # the curves (ticks and bands are other artists)
            assert len(lines) == len(names)
            for line, n in zip(lines, names):
                np.testing.assert_array_equal(line.get_ydata(), traj[n])
        assert top.get_ylabel() == ", ".join(zeno.plot._subscript(n) for n in gaps) + " [L]"
        modes = list(dict.fromkeys(m for m in traj.mode if m))
        assert len(modes) >= 3 and all(len(m) == 3 for m in modes)
        colors = zeno.plot._band_colors(list(traj.mode))
        assert len({colors[m] for m in modes}) == len(modes)
        pyplot.close(top.figure)


def test_region_map_of_many_contacts():
    """zeno.regions of the box in a corner over its load's angle: region 0
    (no equilibrium) exactly where tan(a) > mu = 0.3 pushes it off the wall,
    region 7 (no theorem decides three contacts) elsewhere, every
    perturbation at rest; the load's size changes nothing."""
    r = zeno.regions(load(BOX), x="load.angle=-60:60:5", y="load.magnitude=5:15:2", mc_runs=4)
    expected = np.where(np.tan(np.radians(r.x)) > 0.3, 0, 7)
    assert (r.region == expected[np.newaxis, :]).all()
    assert (r.mc_runs[r.region == 7] == 4).all() and (r.mc_rest[r.region == 7] == 4).all()
    assert (r.sim[r.region == 7] == "rests").all()
