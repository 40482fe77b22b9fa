"""zeno.certify and zeno.sweep: the numbers of `zeno certify --json` (and
its --out v_events.csv) and of `zeno sweep --out DIR` (sweep.csv,
summary.json), to the last digit (the program writes 17 significant
digits, which read back exactly)."""

import csv
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import zeno
from conftest import PACKAGE_DIR, cli, cli_json, scene_path


def load(name):
    return zeno.Scene.load(scene_path(name))


# ---- certify -----------------------------------------------------------------------------------


CERTIFICATES = [
    ("example7.yaml", {}, []),                         # certified, decided exactly
    ("example4.yaml", {"degree": 4, "check": 5}, ["--degree", "4", "--check", "5"]),
    ("example2.yaml", {"degree": 4, "check": 3}, ["--degree", "4", "--check", "3"]),  # (56)
]


@pytest.mark.parametrize("name, options, args", CERTIFICATES)
def test_certify_equals_the_programs_json(name, options, args):
    c = zeno.certify(load(name), **options)
    theirs = cli_json("certify", scene_path(name), "--json", *args)
    ours = c.to_dict()
    # The wall time is the one member that differs from run to run.
    assert ours.pop("seconds") >= 0 and theirs.pop("seconds") >= 0
    assert ours == theirs
    assert c.certified == theirs["certified"] and c.reason == theirs["reason"]
    assert c.v2_x2 == theirs["v2"]["x2"]
    assert c.v2_exponents.tolist() == [t["exponents"] for t in theirs["v2"]["terms"]]
    assert c.v2_coefs.tolist() == [t["coef"] for t in theirs["v2"]["terms"]]
    assert c.v1_mass.tolist() == theirs["v1"]["mass"] and c.v1_b.tolist() == theirs["v1"]["b"]
    assert (c.check_runs, c.check_events) == (theirs["check"]["runs"], theirs["check"]["events"])


def test_certificate_of_example7():
    c = zeno.certify(load("example7.yaml"))
    assert c.certified and c.exact and not c.refused and c.solver_status == "solved"
    assert c.v2_exponents.shape == (len(c.v2_coefs), 5) and c.v2_exponents.dtype.kind == "i"
    assert "certified" in repr(c)


def test_refused_certificate_says_why():
    c = zeno.certify(load("example2.yaml"), degree=4)  # (54) needs (56)
    assert not c.certified and c.refused and c.solver_status == ""
    assert "(56)" in c.reason and c.v2_coefs.size == 0


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def test_values_along_the_run_equal_v_events_csv(tmp_path):
    c = zeno.certify(load("example7.yaml"))
    cli("certify", scene_path("example7.yaml"), "--out", str(tmp_path))
    header, rows = read_csv(tmp_path / "v_events.csv")
    along = c.along()
    assert header == ["t", "kind", "v1_before", "v2_before", "v1_after", "v2_after"]
    assert len(along) == len(rows)
    assert along.kind.tolist() == [r[1] for r in rows]
    for i, name in enumerate(header):
        if name != "kind":
            assert getattr(along, name).tolist() == [float(r[i]) for r in rows], name
    # Along a run given, the same numbers; evaluate() at one state is V1, V2 there.
    run = zeno.simulate(c.scene, trajectory=False)
    assert np.array_equal(c.along(run).v2_after, along.v2_after)
    after = run.event_array["after"][-1]
    v1, v2 = c.evaluate(np.concatenate([after["zod"], after["zod_rate"]]))
    assert (v1, v2) == (along.v1_after[-1], along.v2_after[-1])


def test_certificate_terms_and_values_as_pandas():
    pandas = pytest.importorskip("pandas")
    c = zeno.certify(load("example7.yaml"))
    terms = c.to_pandas()
    assert list(terms.columns) == ["z1", "z2", "u1", "u2", "w2", "coef"]
    assert terms["coef"].tolist() == c.v2_coefs.tolist()
    frame = c.along().to_pandas()
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == ["t", "kind", "v1_before", "v2_before", "v1_after", "v2_after"]


def test_import_zeno_does_not_load_the_certificate_library():
    # As the program loads libzeno-certify (CSDP, GMP, BLAS) only for
    # `zeno certify`, `import zeno` loads it only when zeno.certify is called.
    code = ("import zeno\n"
            "def loaded():\n"
            "    return any('libzeno-certify' in line for line in open('/proc/self/maps'))\n"
            "before = loaded()\n"
            "zeno.certify(zeno.Scene.load(%r))\n"
            "print(before, loaded())\n" % scene_path("example7.yaml"))
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR)
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "False True\n"


@pytest.mark.parametrize("options, exc, text", [
    ({"degree": 5}, zeno.ArgumentError,
     "certify(degree=...): value 5 out of range; allowed [2, 4]"),
    ({"degree": "2"}, TypeError, "certify(degree=...): expected an int, got str '2'"),
    ({"check": -1}, zeno.ArgumentError,
     "certify(check=...): value -1 out of range; allowed [0, 100000]"),
    ({"eps": 2.0}, zeno.ArgumentError, "certify(eps=...): "),
    ({"eps": "x"}, TypeError, "certify(eps=...): expected a real number, got str 'x'"),
])
def test_certify_errors_name_the_argument(options, exc, text):
    with pytest.raises(exc) as e:
        zeno.certify(load("example7.yaml"), **options)
    assert str(e.value).startswith(text), str(e.value)


def test_certify_needs_two_contacts():
    with pytest.raises(zeno.ArgumentError) as e:
        zeno.certify(load("bouncing-ball.yaml"))
    assert e.value.key == "contacts" and "two contacts" in str(e.value)
    with pytest.raises(TypeError):
        zeno.certify("example7.yaml")


# ---- sweep -------------------------------------------------------------------------------------


SWEEPS = [
    ("example2.yaml", ("initial.qdp.2", -1, 1, 4), ("initial.qdp.1", -1, -0.05, 3), {}, []),
    # The basin estimate, full model.
    ("example2.yaml", ("initial.qdp.2", -1, 1, 3), ("initial.qdp.1", -1, -0.05, 2),
     {"magnitude": (0.01, 0.5, 4), "overrides": {"model": "full", "epsilon": 0.01}},
     ["--magnitude", "0.01:0.5:4", "--set", "model=full", "--set", "epsilon=0.01"]),
    ("example2.yaml", ("initial.qdp.2", -1, 1, 2), ("initial.qdp.1", -1, -0.05, 2),
     {"magnitude": "0.05:0.5:3", "basin_tol": 0.01, "basin_turn": 20,
      "overrides": ["model=full"]},
     ["--magnitude", "0.05:0.5:3", "--basin-tol", "0.01", "--basin-turn", "20",
      "--set", "model=full"]),
    # paper.l2 = 1.5 puts contact 2 on contact 1: an error row in the middle.
    ("example6.yaml", ("paper.l2", 1, 2, 3), ("initial.qdp.1", 0, 0, 1), {}, []),
    # One contact: the columns z1, x1, zod_theta; Zeno completions.
    ("bouncing-ball.yaml", ("initial.velocity.0", -1, 1, 2), ("initial.velocity.1", 0, 1, 2),
     {}, []),
    # Three contacts (the N-contact engine): the columns q' as it names it,
    # z1, z2, z3 for the box in a corner.
    ("box-in-a-corner.yaml", ("initial.pose.0", 0.005, 0.015, 3),
     ("initial.pose.1", 0.01, 0.03, 2), {}, []),
]


def sweep_both(tmp_path, name, x, y, options, args):
    s = zeno.sweep(load(name), x=x, y=y, threads=2, **options)
    axes = [f"--x={x[0]}={x[1]}:{x[2]}:{x[3]}", f"--y={y[0]}={y[1]}:{y[2]}:{y[3]}"]
    cli("sweep", scene_path(name), *axes, *args, "--threads", "2", "--out", str(tmp_path),
        "--quiet")
    return s


@pytest.mark.parametrize("name, x, y, options, args", SWEEPS)
def test_sweep_equals_the_programs_table(tmp_path, name, x, y, options, args):
    s = sweep_both(tmp_path, name, x, y, options, args)
    header, rows = read_csv(tmp_path / "sweep.csv")
    assert header == s.columns
    table = {column: [row[i] for row in rows] for i, column in enumerate(header)}
    iy, ix = np.indices(s.shape)
    assert [int(v) for v in table["ix"]] == ix.ravel().tolist()
    assert [int(v) for v in table["iy"]] == iy.ravel().tolist()
    assert [float(v) for v in table[s.x_path]] == s.x[ix.ravel()].tolist()
    assert [float(v) for v in table[s.y_path]] == s.y[iy.ravel()].tolist()
    ok = s.ok.ravel()
    assert table["outcome"] == s.outcome.ravel().tolist()
    assert [v == "" for v in table["outcome"]] == (~ok).tolist()
    assert table["error"] == s.error.ravel().tolist()

    def floats(column):
        return np.array([float(v) if v else math.nan for v in table[column]])

    def ints(column):
        return [int(v) for v, good in zip(table[column], ok) if good]

    for column in ("t", "zeno_time"):
        assert np.array_equal(floats(column), getattr(s, column).ravel(), equal_nan=True), column
    for k, column in enumerate(s.q_columns):
        assert np.array_equal(floats(column), s.final_zod[..., k].ravel(), equal_nan=True), column
    for column in ("events", "impacts", "energy_gains"):
        assert ints(column) == getattr(s, column).ravel()[ok].tolist(), column
    assert [v == "1" for v in table["zeno"] if v] == s.zeno.ravel()[ok].tolist()
    if "magnitude" in options:
        for column in ("basin_inner", "basin_outer", "basin_width"):
            ours = getattr(s, column).ravel()
            assert np.array_equal(floats(column), ours, equal_nan=True), column
        for column in ("basin_returns", "basin_transitions"):
            assert ints(column) == getattr(s, column).ravel()[ok].tolist(), column
    else:
        assert s.basin_inner is None and "basin_inner" not in header
    summary = json.loads((tmp_path / "summary.json").read_text())
    for key, value in s.summary().items():
        assert summary[key] == value, key


def test_sweep_of_three_contacts():
    # Let go off its corner, the box rests in it at every point, jammed
    # between the wall and the right floor corner (z2 = z3 = 0).
    s = zeno.sweep(load("box-in-a-corner.yaml"), x=("initial.pose.0", 0.005, 0.015, 3),
                   y="initial.pose.1=0.01:0.03:3", threads=1)
    assert s.q_columns == ("z1", "z2", "z3")
    assert s.ok.all() and (s.outcome == "rest").all()
    assert (s.final_zod[..., 0] > 0).all() and (s.final_zod[..., 1:] == 0).all()


def test_sweep_example2_rests_everywhere():
    s = zeno.sweep(load("example2.yaml"), x=("initial.qdp.2", -1, 1, 4),
                   y="initial.qdp.1=-1:-0.05:3", threads=1)
    assert s.shape == (3, 4) and s.ok.all() and (s.outcome == "rest").all()
    assert s.q_columns == ("z1", "z2", "x2") and s.final_zod.shape == (3, 4, 3)
    assert s.summary()["counts"] == {"rest": 12}
    assert "12" in repr(s) or "rest" in repr(s)


def test_sweep_to_pandas_has_missing_values_where_the_table_is_empty(tmp_path):
    pandas = pytest.importorskip("pandas")
    name, x, y, options, args = SWEEPS[3]
    s = sweep_both(tmp_path, name, x, y, options, args)
    frame = s.to_pandas()
    integers = {c: "Int64" for c in ("events", "impacts", "energy_gains")}
    table = pandas.read_csv(tmp_path / "sweep.csv", dtype=integers, float_precision="round_trip")
    assert list(frame.columns) == list(table.columns)
    for column in table.columns:
        assert frame[column].isna().tolist() == table[column].isna().tolist(), column
        good = ~table[column].isna()
        if column == "zeno":
            assert frame[column][good].tolist() == (table[column][good] == 1).tolist()
        else:
            assert frame[column][good].tolist() == table[column][good].tolist(), column
    assert str(frame["events"].dtype) == "Int64"
    assert frame["outcome"].isna().tolist() == [False, True, False]
    assert frame["error"].isna().tolist() == [True, False, True]


@pytest.mark.parametrize("call, exc, text", [
    (lambda s: zeno.sweep(s, x="initial.qdp.2=-1:1:2", y="initial.qdp.1=-1:0:2",
                          magnitude=(0.1, 0.5, 3)),
     zeno.ArgumentError, "sweep(magnitude=...): "),
    (lambda s: zeno.sweep(s, x="initial.qdp.2=-1:1:2", y="initial.qdp.1=-1:0:2", basin_tol=0.1),
     zeno.ArgumentError, "sweep(basin_tol=...): only with magnitude"),
    (lambda s: zeno.sweep(s, x="initial.qdp.2=-1:1:2", y="initial.qdp.1=-1:0:2",
                          magnitude=(0.1, 0.5, 3), basin_turn=200, overrides={"model": "full"}),
     zeno.ArgumentError, "sweep(basin_turn=...): value 200 out of range; allowed (0, 180]"),
    (lambda s: zeno.sweep(s, x="initial.qdp.2=-1:1:2", y="initial.qdp.1=-1:0:2", threads=0),
     zeno.ArgumentError, "sweep(threads=...): value 0 out of range; allowed [1, 1024]"),
    (lambda s: zeno.sweep(s, x=("paper.mu2", -1, 1, 2), y="initial.qdp.1=-1:0:2"),
     zeno.SceneError, "sweep(x=...): paper.mu2 = -1: "),
    (lambda s: zeno.sweep(s, x="initial.qdp.2=-1:1", y="initial.qdp.1=-1:0:2"),
     zeno.ArgumentError, "sweep(x=...): "),
    (lambda s: zeno.sweep(s, x=("initial.qdp.2", -1, 1), y="initial.qdp.1=-1:0:2"),
     TypeError, "sweep(x=...): "),
])
def test_sweep_errors_name_the_argument(call, exc, text):
    with pytest.raises(exc) as e:
        call(load("example2.yaml"))
    assert str(e.value).startswith(text), str(e.value)
