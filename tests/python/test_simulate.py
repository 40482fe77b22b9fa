"""simulate() and Simulator: the paper's numbers, and results equal to the C
program's JSON, trajectory.csv and events.jsonl to the last digit."""

import csv
import gc
import json
import math

import numpy as np
import pytest

import zeno
from conftest import SCENE_FILES, cli, cli_json, json_value, scene_path

# Runs compared with the program: every shipped scene with its own model,
# and the full model (CVODE) on Examples 2 and 3.
RUNS = [(name, {}) for name in SCENE_FILES] + [
    ("example2.yaml", {"model": "full", "eps": 1e-3}),
    ("example3-zeno.yaml", {"model": "full", "eps": 1e-2}),
    ("example2.yaml", {"t_end": 5.0, "sample_dt": 0.25}),
]
CLI_OPTIONS = {"model": "--model", "eps": "--eps", "t_end": "--t-end"}


def cli_args(settings):
    args = []
    for key, value in settings.items():
        if key == "sample_dt":
            args += ["--set", f"solver.sample_dt={value!r}"]
        else:
            args += [CLI_OPTIONS[key], repr(value) if isinstance(value, float) else value]
    return args


# ---- the paper --------------------------------------------------------------------------


def test_example2_word_and_rest(example2):
    run = zeno.simulate(example2)
    assert run.word == "FF IF PF FI FP IF PF SF II SS"
    assert run.status == "rest"
    assert abs(run.final_zod[2] - 14.87) <= 0.01
    assert np.allclose(run.sections, [0.948, -0.524], atol=0.002)
    assert run.zeno_time is None and run.impacts == 4
    assert [e.kind for e in run.events].count("impact") == 4


def test_trajectory_rows_are_capped(tmp_path):
    # A tiny sample_dt asked Run.trajectory for gigabytes (MemoryError):
    # the library refuses the rows before making them (ZENO_RUN_DIR_MAX_ROWS,
    # the rule of simulate --out), naming solver.sample_dt and the rows.
    run = zeno.simulate(zeno.Scene.load(scene_path("example3-zeno.yaml")), sample_dt=1e-12)
    assert run.status == "rest"  # the run itself needs no samples
    with pytest.raises(zeno.ArgumentError) as info:
        run.trajectory
    text = str(info.value)
    assert "solver.sample_dt = 1e-12 would take " in text
    assert "more than 2097152, the most a run may hold" in text
    # The same error from the CLI.
    code, _, err = cli("simulate", scene_path("example3-zeno.yaml"), "--set",
                       "solver.sample_dt=1e-12", "--out", str(tmp_path / "run"), check=False)
    assert code == 1 and text in err


def test_example3_zeno_time():
    run = zeno.simulate(zeno.Scene.load(scene_path("example3-zeno.yaml")))
    assert run.status == "rest"
    assert abs(run.zeno_time - 33.09) <= 0.005
    zeno_events = [e for e in run.events if e.kind == "zeno"]
    assert len(zeno_events) == 1 and zeno_events[0].t == run.zeno_time
    assert run.word.endswith("Z NN SS")


def test_reverse_chatter_diverges():
    run = zeno.simulate(zeno.Scene.load(scene_path("example3-reverse.yaml")))
    assert run.status == "diverging"
    end = run.events[-1]
    assert end.kind == "end" and end.outcome == "diverging" and end.zeno_ratio > 1


def test_inconsistent_run_carries_its_proof():
    """The Painlevé rod above its bound (mu = 1.5 > 4/3), typed over the
    ball: no mode is consistent, and the run says why for each, as the CLI's
    --json does."""
    with pytest.warns(zeno.SceneWarning):  # infeasible, and mu above the Painlevé bound
        rod = zeno.Scene.load(scene_path("bouncing-ball.yaml")).with_overrides({
            "contacts.0.point": [-0.4472135954999579, -0.8944271909999159],
            "body.rho": 0.5773502691896258, "contacts.0.mu": 1.5,
            "initial.velocity": [-0.5, 0, 0], "initial.pose": [0, 0, 0]})
        run = zeno.simulate(rod)
    assert run.status == "inconsistent"
    assert run.proof == {"of": "mode", "refused": [
        ("F", "penetration", 1), ("S", "kinematics", 1), ("P", "kinematics", 1),
        ("N", "normal", 1)]}
    assert run.events[-1].proof == run.proof
    assert all(e.proof is None for e in run.events[:-1])
    assert zeno.simulate(zeno.Scene.load(scene_path("example2.yaml"))).proof is None


def test_bouncing_ball_closed_form():
    run = zeno.simulate(zeno.Scene.load(scene_path("bouncing-ball.yaml")))
    t_inf = math.sqrt(2 * 1 / 9.81) * (1 + 0.8) / (1 - 0.8)
    assert abs(run.zeno_time - t_inf) <= 1e-9 * t_inf


# ---- equal to the C program -----------------------------------------------------------------

RUN_JSON_KEYS = ["status", "word", "t", "impacts", "zeno_time", "zeno_impacts"]


@pytest.mark.parametrize("name, settings", RUNS)
def test_run_equals_cli_json(name, settings):
    run = zeno.simulate(zeno.Scene.load(scene_path(name)), **settings)
    assert_run_equals_json(run, cli_json("simulate", scene_path(name), "--json",
                                         *cli_args(settings)))


def assert_run_equals_json(run, ref):
    """The run's members are those of `zeno simulate --json`'s object ref."""
    assert ref["scene"] == run.scene.name and ref["model"] == run.model
    for key in RUN_JSON_KEYS:
        assert json_value(getattr(run, key)) == ref[key], key
    assert run.event_count == ref["events"]
    for key in ("final_zod", "final_zod_velocity", "final_pose", "sections"):
        assert [json_value(v) for v in getattr(run, key).tolist()] == ref[key], key
    assert run.consistent_modes == ref["consistent_modes"]


def state_json(state):
    """A State as events.jsonl writes one."""
    return {"q": list(state.q), "qdot": list(state.qdot), "zod": list(state.zod),
            "zod_rate": list(state.zod_rate), "force": [list(p) for p in state.force],
            "energy": state.energy}


def event_json(e):
    """An Event as zeno_io_event_jsonl() writes it (members it omits left out)."""
    d = {"index": e.index, "t": e.t, "kind": e.kind, "guard": e.guard, "contact": e.contact,
         "mode_before": e.mode_before, "mode_after": e.mode_after, "impact": e.impact,
         "impulse": [list(p) for p in e.impulse]}
    if e.kind == "impact":
        d["impact_outcome"] = list(e.impact_outcome)
    d.update(before=state_json(e.before), after=state_json(e.after), on_section=e.on_section)
    if e.on_section:
        d["section_angle"] = e.section_angle
    if e.kind == "zeno":
        d.update(zeno_impacts=e.zeno_impacts, zeno_ratio=e.zeno_ratio, zeno_error=e.zeno_error,
                 zeno_period=e.zeno_period, zeno_order=e.zeno_order)
    if e.kind == "end":
        d["outcome"] = e.outcome
        if e.outcome == "diverging":
            d.update(zeno_ratio=e.zeno_ratio, zeno_period=e.zeno_period)
        if e.outcome == "ambiguous":
            d["consistent_modes"] = list(e.consistent_modes)
        if e.outcome == "solver-failure":
            d["solver_flag"] = e.solver_flag
    d.update(guard_residual=e.guard_residual, constraint_drift=e.constraint_drift,
             tie_margin=e.tie_margin, near_tie=e.near_tie)
    return d


def nulls(value):
    if isinstance(value, dict):
        return {k: nulls(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nulls(v) for v in value]
    return json_value(value)


@pytest.mark.parametrize("name, settings", RUNS)
def test_events_and_trajectory_equal_the_run_directory(tmp_path, name, settings):
    run = zeno.simulate(zeno.Scene.load(scene_path(name)), **settings)
    cli("simulate", scene_path(name), "--out", str(tmp_path), "--quiet", *cli_args(settings))
    with open(tmp_path / "events.jsonl") as f:
        ref_events = [json.loads(line) for line in f]
    assert len(ref_events) == len(run.events)
    for event, ref in zip(run.events, ref_events):
        assert nulls(event_json(event)) == ref, event.index
    assert_trajectory_equals_file(run, tmp_path / "trajectory.csv")
    assert run.skipped_samples == 0
    with open(tmp_path / "events.csv") as f:
        flat = list(csv.DictReader(f))
    assert len(flat) == len(run.events)
    for event, row in zip(run.events, flat):
        assert_flat_event(event, row)


def assert_trajectory_equals_file(run, path):
    """run.trajectory holds trajectory.csv at path, column for column to the
    last digit; returns its header."""
    with open(path) as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    traj = run.trajectory.to_dict()
    assert header == list(traj) == list(run.trajectory.header)
    assert len(rows) == len(run.trajectory)
    for j, column in enumerate(header):
        if column in ("mode", "kind"):
            assert traj[column].tolist() == [r[j] for r in rows], column
        elif column == "event":
            assert traj[column].tolist() == [int(r[j]) for r in rows]
        else:
            assert traj[column].tolist() == [float(r[j]) for r in rows], column
    return header


def csv_field(value):
    """A value as events.csv writes it: empty for None, true/false, %.17g numbers."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "%.17g" % value
    return str(value)


def assert_flat_event(e, row):
    """One row of events.csv holds the event's fields (contact 1-based, as Event)."""
    for key in ("index", "t", "kind", "guard", "contact", "mode_before", "mode_after", "impact",
                "zeno_impacts", "zeno_ratio", "zeno_error", "zeno_period", "zeno_order",
                "outcome", "tie_margin", "near_tie", "on_section", "section_angle"):
        assert row[key] == csv_field(getattr(e, key)), (e.index, key)
    for i, (normal, tangential) in enumerate(e.impulse, 1):
        assert (row[f"impulse{i}n"], row[f"impulse{i}t"]) == (csv_field(normal),
                                                              csv_field(tangential))
        letter = e.impact_outcome[i - 1] if e.impact_outcome else None
        assert row[f"impact_outcome{i}"] == csv_field(letter)
    names = zeno.Trajectory.COLUMNS[7:13] if len(e.impulse) == 2 else (
        zeno.Trajectory.COLUMNS_ONE_CONTACT[7:13])
    for side, state in (("before", e.before), ("after", e.after)):
        values = state.zod + state.zod_rate + (state.energy,)
        for name, value in zip(names + ("energy",), values):
            assert row[f"{side}_{name}"] == csv_field(value), (e.index, side, name)


def test_trajectory_rows_are_samples_and_event_states(example2):
    run = zeno.simulate(example2)
    traj = run.trajectory
    kind = traj.kind
    assert set(kind.tolist()) == {"sample", "before", "after"}
    for e in run.events:  # the rows just before and after each event are its states
        rows = np.flatnonzero(traj.event == e.index)
        before, after = rows[-2], rows[-1]
        assert kind[before] == "before" and kind[after] == "after"
        assert (traj.t[before], traj.z1[before], traj.x2[before]) == (
            e.before.t, e.before.zod[0], e.before.zod[2])
        assert (traj.z2[after], traj.x2dot[after], traj.mode[after]) == (
            e.after.zod[1], e.after.zod_rate[2], e.after.mode)
    samples = traj.t[kind == "sample"]
    k = np.rint(samples / example2.sample_dt)
    assert np.array_equal(samples, k * example2.sample_dt)  # multiples of sample_dt
    times = np.array([e.t for e in run.events])
    assert not np.isin(samples, times).any()  # strictly between events


def test_one_contact_columns_are_named_for_what_they_hold():
    ball = zeno.Scene.load(scene_path("bouncing-ball.yaml"))
    run = zeno.simulate(ball.with_overrides(["initial.velocity=[0.5, 0, 0]"]), max_events=3)
    traj = run.trajectory
    assert traj.columns == zeno.Trajectory.COLUMNS_ONE_CONTACT
    assert traj.columns[7:13] == ("z1", "x1", "zod_theta", "z1dot", "x1dot", "zod_thetadot")
    assert traj.header[-5:] == ("mode", "f1n", "f1t", "kind", "event")
    assert traj.values.shape == (15, len(traj))
    # The first impact after a fall of 1 under g = 9.81 with sideways speed 0.5:
    # x1 (the slip of the contact) holds 0.5 t, z1dot -sqrt(2 g).
    before = np.flatnonzero((traj.event == 1) & (traj.kind == "before"))[0]
    t = math.sqrt(2 / 9.81)
    assert abs(traj.t[before] - t) <= 1e-9
    assert abs(traj.x1[before] - 0.5 * t) <= 1e-9
    assert abs(traj.z1dot[before] + math.sqrt(2 * 9.81)) <= 1e-9
    with pytest.raises(AttributeError, match="no column 'z2'"):
        traj.z2
    with pytest.raises(KeyError):
        traj["f2n"]


def test_event_array_matches_the_dataclasses(example2):
    run = zeno.simulate(example2)
    a = run.event_array
    assert a.dtype == zeno.EVENT_DTYPE and len(a) == run.event_count
    assert a["kind"].tolist() == [e.kind for e in run.events]
    assert a["t"].tolist() == [e.t for e in run.events]
    assert a["after"]["zod"][-1].tolist() == run.final_zod.tolist()
    assert a["contact"].tolist() == [e.contact or 0 for e in run.events]


def test_simulator_iterates_like_the_c_loop():
    scene = zeno.Scene.load(scene_path("example3-zeno.yaml"))
    run = zeno.simulate(scene)
    sim = zeno.Simulator(scene, keep_history=True)
    events = list(sim)
    assert events == run.events
    assert sim.word == run.word and sim.status == "rest"
    assert next(iter(sim), None) is None  # exhausted
    # Dense output equals the trajectory's samples.
    traj = run.trajectory
    for i in np.flatnonzero(traj.kind == "sample")[::97]:
        state = sim.state_at(float(traj.t[i]))
        assert state.zod == (traj.z1[i], traj.z2[i], traj.x2[i])
        assert state.q == (traj.x[i], traj.y[i], traj.theta[i])
    with pytest.raises(zeno.ArgumentError) as e:
        sim.state_at(1e9)
    assert e.value.code == "range" and e.value.key == "t"
    for t in (float("nan"), float("inf"), -float("inf")):  # NaN gave a state of NaNs
        with pytest.raises(zeno.ArgumentError) as e:
            sim.state_at(t)
        assert e.value.code == "range" and e.value.key == "t"


def test_simulator_restart_runs_as_a_fresh_one():
    path = scene_path("example3-zeno.yaml")
    sim = zeno.Simulator(zeno.Scene.load(path))
    list(sim)
    for qp, qdp in [((0.3, 0.0, 0.1), (0.0, -1.0, 0.2)), ((0.0, 0.5, -0.4), (0.7, 0.1, -0.3))]:
        sim.restart(qp, qdp)
        events = list(sim)
        # A fresh simulator from the same state: the same events, times to
        # rounding (the restarted one's per-scene table is warm).
        fresh = zeno.Simulator(zeno.Scene.load(path, [
            "initial.qp=[%r,%r,%r]" % qp, "initial.qdp=[%r,%r,%r]" % qdp]))
        expected = list(fresh)
        assert sim.word == fresh.word
        assert [e.kind for e in events] == [e.kind for e in expected]
        assert np.allclose([e.t for e in events], [e.t for e in expected], rtol=1e-12, atol=0)
    with pytest.raises(zeno.ArgumentError) as e:
        sim.restart((-0.5, 0, 0), (0, 0, 0))
    assert e.value.code == "range" and "penetrates" in str(e.value)
    with pytest.raises(TypeError):
        sim.restart((0, 0), (0, 0, 0))
    full = zeno.Simulator(zeno.Scene.load(path), model="full", eps=1e-2)
    with pytest.raises(zeno.ArgumentError) as e:
        full.restart((0, 0, 0), (0, 0, 0))
    assert e.value.code == "argument"


def test_simulator_run_matches_the_events():
    # Monte-Carlo runs as a notebook makes them: one simulator restarted and
    # run to its end (zeno_sim_run, on the per-scene table's kernel) against
    # the event loop of another, from the same random starts.
    scene = zeno.Scene.load(scene_path("example2.yaml"))
    fast, loop = zeno.Simulator(scene), zeno.Simulator(scene)
    rng = np.random.default_rng(20261125)
    rests = 0
    for _ in range(200):
        qp = (rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(-1, 1))
        qdp = tuple(rng.uniform(-1, 1, 3))
        fast.restart(qp, qdp)
        loop.restart(qp, qdp)
        got = fast.run()
        events = list(loop)
        want = loop.summary()
        assert got["word"] == want["word"] and got["status"] == want["status"]
        assert got["event_count"] == want["event_count"] == len(events)
        assert got["impacts"] == want["impacts"]
        assert np.allclose(got["final_zod"], want["final_zod"], rtol=1e-11, atol=1e-11)
        assert got["t"] == pytest.approx(want["t"], rel=1e-11)
        rests += got["status"] == "rest"
    assert rests > 50
    assert fast.run()["word"] == got["word"]  # finished: nothing more
    assert list(fast) == []


def test_simulator_step_by_step(example2):
    sim = zeno.Simulator(example2)
    first = next(sim)
    assert first.kind == "start" and first.index == 0 and first.mode_after == "FF"
    assert sim.summary()["status"] == "running"
    assert [e.kind for e in sim][-1] == "end"
    with pytest.raises(zeno.ArgumentError):
        sim.state_at(1.0)  # no history kept


def test_keyword_settings(example2):
    run = zeno.simulate(example2, t_end=3.0)
    assert run.status == "time-limit" and run.t == 3.0
    assert zeno.simulate(example2, max_events=3).status == "event-limit"
    quick = zeno.simulate(example2, sample_dt=0)
    assert set(quick.trajectory.kind.tolist()) == {"before", "after"}
    with pytest.raises(zeno.SceneError) as e:
        zeno.simulate(example2, eps=2.0)
    assert e.value.key == "epsilon" and "(0, 1]" in str(e.value)
    with pytest.raises(zeno.SceneError):
        zeno.simulate(example2, model="exact")
    assert example2.model == "zod"  # the scene itself is unchanged


def test_no_trajectory(example2):
    run = zeno.simulate(example2, trajectory=False)
    assert run.trajectory is None and run.word == "FF IF PF FI FP IF PF SF II SS"
    with pytest.raises(ValueError):
        run.to_pandas()


def test_arrays_are_owned_by_python(example2):
    run = zeno.simulate(example2)
    traj = run.trajectory
    for a in (traj.values, traj.mode, traj.kind, traj.event, run.event_array, run.final_zod,
              run.sections):
        assert a.flags.owndata, a.dtype
    assert traj.x2.base is traj.values
    x2, events = traj.x2, run.event_array
    expected = x2.copy(), events.copy()
    del run, traj
    gc.collect()
    zeno.simulate(example2).trajectory  # reuse the freed memory
    assert x2.tobytes() == expected[0].tobytes() and events.tobytes() == expected[1].tobytes()


def test_to_pandas(example2):
    pandas = pytest.importorskip("pandas")
    run = zeno.simulate(example2)
    frame = run.to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == (
        "t,x,y,theta,vx,vy,omega,z1,z2,x2,z1dot,z2dot,x2dot,mode,f1n,f1t,f2n,f2t".split(",")
        + ["kind", "event"])
    assert frame["x2"].iloc[-1] == run.final_zod[2]
    events = run.to_pandas("events")
    assert events["kind"].tolist() == [e.kind for e in run.events]


def test_events_frame_has_missing_values_where_an_event_has_none():
    # "No contact" is 0 and "no impact" is "" in the structured array (C's
    # sentinels, documented); the frame has pandas' missing values there,
    # as the dataclasses have None.
    pandas = pytest.importorskip("pandas")
    run = zeno.simulate(zeno.Scene.load(scene_path("example3-zeno.yaml")))
    frame = run.to_pandas("events")
    assert str(frame["contact"].dtype) == "Int64"
    assert frame["contact"].isna().tolist() == [e.contact is None for e in run.events]
    assert frame["contact"].dropna().tolist() == [e.contact for e in run.events if e.contact]
    for column in ("impact", "outcome"):
        assert frame[column].isna().tolist() == [getattr(e, column) is None for e in run.events]
    assert frame["impact"].dropna().tolist() == [e.impact for e in run.events if e.impact]
    assert frame["outcome"].dropna().tolist() == ["rest"]
    assert frame["section_angle"].isna().tolist() == [not e.on_section for e in run.events]
    # The sentinels stay in the array.
    assert (run.event_array["contact"] == 0).sum() == frame["contact"].isna().sum()
    assert (run.event_array["impact"] == "").sum() == frame["impact"].isna().sum()


@pytest.mark.parametrize("settings, exc, text", [
    ({"t_end": "10"}, TypeError, "simulate(t_end=...): expected a real number, got str '10'"),
    ({"t_end": -1}, zeno.SceneError, "simulate(t_end=...): value -1 is out of range"),
    ({"eps": 0}, zeno.SceneError, "simulate(eps=...): "),
    ({"max_events": 0}, zeno.SceneError, "simulate(max_events=...): "),
    ({"max_events": 2.5}, TypeError, "simulate(max_events=...): expected an int, got float 2.5"),
    ({"model": "fast"}, zeno.SceneError, "simulate(model=...): expected one of zod, full"),
    ({"model": 3}, TypeError, "simulate(model=...): expected 'zod' or 'full', got int 3"),
])
def test_setting_errors_name_the_argument(example2, settings, exc, text):
    with pytest.raises(exc) as e:
        zeno.simulate(example2, **settings)
    assert str(e.value).startswith(text), str(e.value)
    with pytest.raises(exc) as e:
        zeno.Simulator(example2, **settings)
    assert str(e.value).startswith("Simulator(" + text.split("(", 1)[1]), str(e.value)
