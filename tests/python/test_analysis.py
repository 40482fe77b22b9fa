"""check, maps, analyze and regions: the paper's verdicts, and results equal
to `zeno check --json`, `zeno maps --csv -`, `zeno analyze --json` and
`zeno regions ... --out DIR` (regions.csv) to the last digit."""

import csv
import io
import math

import numpy as np
import pytest

import zeno
from conftest import MANY_CONTACT_FILES, SCENE_FILES, cli, cli_json, json_value, scene_path

TWO_CONTACTS = [f for f in SCENE_FILES if f != "bouncing-ball.yaml"]


def load(name, **overrides):
    return zeno.Scene.load(scene_path(name), overrides=overrides or None)


# ---- the paper ------------------------------------------------------------------------------


def test_example2_stable_by_theorem_4():
    a = zeno.analyze(load("example2.yaml"))
    assert (a.verdict, a.theorem, a.region) == ("stable", 4, 3)
    # R is constant -0.524 on (-0.38, 1.39) and undefined below -0.38 (README).
    m = a.maps
    middle = (m.phi > -0.37) & (m.phi < 1.38)
    assert np.allclose(m.R[middle], -0.524, atol=0.001)
    assert not m.defined[m.phi < -0.39].any()
    assert any(not iv.safe for iv in a.partition)


def test_example3_unstable_by_theorem_2():
    a = zeno.analyze(load("example3-zeno.yaml"))
    assert (a.verdict, a.theorem, a.region, a.persistent) == ("unstable", 2, 4, True)
    finite = [p for p in a.fixed_points if not p.limiting]
    unstable = [p for p in finite if p.G > 1]
    assert len(unstable) == 1
    assert abs(unstable[0].phi + 0.698) < 0.001 and abs(unstable[0].G - 1.054) < 0.001
    assert any(abs(p.phi + 1.363) < 0.001 and not p.convergent for p in finite)
    assert a.G_minus < 1 and a.G_plus < 1


def test_example4_stable_by_theorem_3():
    a = zeno.analyze(load("example4.yaml"))
    assert (a.verdict, a.theorem, a.region) == ("stable", 3, 2)
    assert abs(a.G_max - 0.2125) < 0.0001 and a.G_max <= 0.22


def test_check_example2():
    scene = load("example2.yaml")
    eq = zeno.check(scene)
    assert eq.feasible and eq.index_order_ok and eq.ambiguous == ()
    # The balancing forces (normal along n_i = (-sin phi, cos phi), tangential
    # along t_i = (cos phi, sin phi)) balance the load (sin 65, -cos 65) and
    # its zero torque about the centre of mass (SPEC.md).
    force, torque = np.array([math.sin(math.radians(65)), -math.cos(math.radians(65))]), 0.0
    for (fn, ft), c in zip(eq.forces, scene.contacts):
        phi = c["surface_angle"]
        f = fn * np.array([-math.sin(phi), math.cos(phi)]) + ft * np.array([math.cos(phi),
                                                                            math.sin(phi)])
        force += f
        torque += c["point"][0] * f[1] - c["point"][1] * f[0]
    assert np.allclose(force, 0, atol=1e-12) and abs(torque) < 1e-12
    assert eq.margin > 0 and (eq.forces[:, 0] > 0).all()
    assert [p.ok for p in eq.painleve] == [True, True]
    assert abs(eq.painleve[0].bound - 0.846) < 0.001 and abs(eq.painleve[1].bound - 0.942) < 0.001


# ---- equal to the C program -----------------------------------------------------------------


def painleve_json(items):
    return [{"contact": p.contact, "mu": p.mu, "bound": json_value(p.bound), "ok": p.ok}
            for p in items]


@pytest.mark.parametrize("name", SCENE_FILES)
def test_check_equals_cli(name):
    eq = zeno.check(load(name))
    ref = cli_json("check", scene_path(name), "--json")
    assert (eq.scene, eq.feasible, eq.margin) == (ref["scene"], ref["feasible"], ref["margin"])
    assert eq.forces.tolist() == ref["forces"] and eq.zdd_ff.tolist() == ref["zdd_ff"]
    assert (eq.index_order_ok, eq.index_order_swappable) == (
        ref["index_order_ok"], ref["index_order_swappable"])
    assert list(eq.ambiguous) == ref["ambiguous"]
    assert painleve_json(eq.painleve) == ref["painleve"]


@pytest.mark.parametrize("name", MANY_CONTACT_FILES)
def test_check_of_many_contacts_equals_cli(name):
    """A scene of more than two contacts: zeno.check() is Pang & Trinkle's
    N-contact report, member for member that of `zeno check --json` (its
    runs: test_simulate_contacts.py)."""
    s = load(name)
    c = zeno.check(s)
    assert isinstance(c, zeno.ContactSetCheck) and c.contact_count == len(s.contacts) > 2
    ref = cli_json("check", scene_path(name), "--json")
    got = {k: getattr(c, k) for k in ref}
    got["margin"] = json_value(got["margin"])
    got["forces"] = got["forces"].tolist()
    got["unstable_modes"] = list(got["unstable_modes"])
    assert got == ref


def test_box_in_a_corner_is_strongly_stable():
    # Pushed into the wall at 30 deg: the wall and the floor hold it without
    # friction (Pang-Trinkle's Theorem 1), hence strongly stable.
    c = zeno.check(load("box-in-a-corner.yaml"))
    assert (c.feasible, c.frictionless_stable, c.strongly_stable, c.ambiguous) == (
        True, True, True, False)
    assert c.unstable_modes == ()


ANALYSES = [(name, {}) for name in TWO_CONTACTS] + [
    ("example3-zeno.yaml", {"samples": 800, "partition": 40}),
    ("example2.yaml", {"samples": 500, "partition": 30}),
]


@pytest.mark.parametrize("name, options", ANALYSES)
def test_analyze_equals_cli(name, options):
    a = zeno.analyze(load(name), **options)
    args = [a for k, v in options.items() for a in (f"--{k}", str(v))]
    ref = cli_json("analyze", scene_path(name), "--json", *args)
    assert (a.scene.name, a.verdict, a.theorem, a.region, a.reason, a.persistent) == (
        ref["scene"], ref["verdict"], ref["theorem"], ref["region"], ref["reason"],
        ref["persistent"])
    assert (a.feasible, a.margin, painleve_json(a.painleve)) == (
        ref["feasible"], ref["margin"], ref["painleve"])
    assert (a.swapped, a.samples, a.breakpoints.tolist()) == (
        ref["swapped"], ref["samples"], ref["breakpoints"])
    assert [nulled(p.__dict__) for p in a.fixed_points] == ref["fixed_points"]
    for key in ("G_max", "G_minus", "G_plus"):
        assert json_value(getattr(a, key)) == ref[key], key
    assert [{"lo": iv.lo, "hi": iv.hi, "safe": iv.safe} for iv in a.partition] == ref["partition"]


def nulled(d):
    return {k: json_value(v) for k, v in d.items()}


@pytest.mark.parametrize("name, samples", [("example2.yaml", None), ("example3-zeno.yaml", 700),
                                           ("example7.yaml", 300)])
def test_maps_equal_cli_csv(name, samples):
    m = zeno.maps(load(name), samples=samples)
    args = ["--samples", str(samples)] if samples else []
    text = cli("maps", scene_path(name), "--csv", "-", *args)[1]
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["phi", "R", "G", "word"]
    rows = rows[1:]
    assert len(rows) == m.samples
    assert m.phi.tolist() == [float(r[0]) for r in rows]
    assert m.defined.tolist() == [r[1] != "" for r in rows]
    assert m.R[m.defined].tolist() == [float(r[1]) for r in rows if r[1]]
    assert m.G[m.defined].tolist() == [float(r[2]) for r in rows if r[2]]
    assert np.isnan(m.R[~m.defined]).all() and np.isnan(m.G[~m.defined]).all()
    assert m.words.tolist() == [r[3] for r in rows]
    assert set(m.end[~m.defined].tolist()) <= {"rest", "escaped", "diverging", "ambiguous",
                                              "inconsistent", "time-limit", "event-limit"}
    assert (m.end[m.defined] == "").all()


REGION_SWEEPS = [
    ("example6.yaml", ("com.x", -2.5, 2, 9), ("com.y", -1, 2.5, 8), {}, []),
    ("example7.yaml", ("paper.mu2", 0, 1.3, 6), ("paper.alpha", 0, 40, 5),
     {"mc_runs": 6, "mc_seed": 7, "samples": 400, "intervals": 60},
     ["--set", "paper.rho=0.18439088914585774"]),
    # paper.l2 = 1.5 puts contact 2 on contact 1: an error row in the middle.
    ("example6.yaml", ("paper.l2", 1, 2, 3), ("com.y", 0, 0, 1), {}, []),
]


def regions_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


@pytest.mark.parametrize("name, x, y, options, sets", REGION_SWEEPS)
def test_regions_equal_cli_table(tmp_path, name, x, y, options, sets):
    scene = load(name)
    if sets:
        scene = scene.with_overrides([sets[1]])
    r = zeno.regions(scene, x=x, y=y, threads=2, **options)
    axis = [f"--x={x[0]}={x[1]}:{x[2]}:{x[3]}", f"--y={y[0]}={y[1]}:{y[2]}:{y[3]}"]
    flags = {"mc_runs": "--mc-runs", "mc_seed": "--mc-seed", "samples": "--samples",
             "intervals": "--intervals"}
    args = [a for k, v in options.items() for a in (flags[k], str(v))]
    cli("regions", scene_path(name), *axis, *sets, *args, "--threads", "2", "--out",
        str(tmp_path), "--quiet")
    header, rows = regions_csv(tmp_path / "regions.csv")
    frame = {name: [row[i] for row in rows] for i, name in enumerate(header)}
    assert header[2:4] == [r.x_path, r.y_path]
    iy, ix = np.indices(r.shape)
    assert [int(v) for v in frame["ix"]] == ix.ravel().tolist()
    assert [float(v) for v in frame[r.x_path]] == r.x[ix.ravel()].tolist()
    assert [float(v) for v in frame[r.y_path]] == r.y[iy.ravel()].tolist()
    for field in ("region", "fixed_points", "partition", "unsafe", "mc_runs", "mc_rest",
                  "mc_full_runs", "mc_full_rest"):
        assert [int(v) for v in frame[field]] == getattr(r, field).ravel().tolist(), field
    # No deciding theorem: an empty field in the table, 0 in the array.
    assert [int(v) if v else 0 for v in frame["theorem"]] == r.theorem.ravel().tolist()
    assert "0" not in frame["theorem"]
    assert frame["region_name"] == r.region_name.ravel().tolist()
    assert [v == "1" for v in frame["persistent"]] == r.persistent.ravel().tolist()
    for field in ("G_max", "fixed_point_phi", "fixed_point_G"):
        ours = getattr(r, field).ravel()
        theirs = np.array([float(v) for v in frame[field]])
        assert np.array_equal(ours, theirs, equal_nan=True), field
    assert frame["verdict"] == r.verdict.ravel().tolist()
    assert frame["sim"] == r.sim.ravel().tolist()
    assert frame["error"] == r.error.ravel().tolist()
    assert r.threads == 2


def test_degenerate_point_is_an_error_row():
    r = zeno.regions(load("example6.yaml"), x=("paper.l2", 1, 2, 3), y=("com.y", 0, 0, 1),
                     threads=1, mc_runs=0)
    assert r.region.tolist() == [[r.region[0, 0], -1, r.region[0, 2]]]
    assert r.region[0, 0] >= 0 and r.region[0, 2] >= 0
    assert r.error[0, 0] == "" and r.error[0, 2] == ""
    assert "paper" in r.error[0, 1] and r.verdict[0, 1] == "undecided"
    assert "1 errors" in repr(r)


def test_example6_centre_is_region_4():
    r = zeno.regions(load("example6.yaml"), x=("com.x", -0.5, 0.5, 3), y=("com.y", -0.5, 0.5, 3),
                     threads=1, mc_runs=0)
    assert r.region[1, 1] == 4 and abs(r.fixed_point_phi[1, 1] + 0.698) < 0.001
    assert (r.x[1], r.y[1]) == (0.0, 0.0)


def test_regions_to_pandas(tmp_path):
    pandas = pytest.importorskip("pandas")
    r = zeno.regions(load("example6.yaml"), x="com.x=-1:1:3", y="com.y=0:1:2", threads=1)
    frame = r.to_pandas()
    assert len(frame) == 6 and list(frame.columns[:4]) == ["ix", "iy", "com.x", "com.y"]
    assert frame["region"].tolist() == r.region.ravel().tolist()
    # The table the program writes reads back the same in pandas: the same
    # columns (has_maps is the package's own), names, and theorems missing
    # where none decides.
    cli("regions", scene_path("example6.yaml"), "--x", "com.x=-1:1:3", "--y", "com.y=0:1:2",
        "--threads", "1", "--out", str(tmp_path), "--quiet")
    table = pandas.read_csv(tmp_path / "regions.csv", dtype={"theorem": "Int64"})
    assert list(table.columns) == [c for c in frame.columns if c != "has_maps"]
    for column in ("region", "region_name", "verdict", "theorem"):
        assert table[column].tolist() == frame[column].tolist(), column
    assert frame["theorem"].isna().tolist() == (r.theorem.ravel() == 0).tolist()
    assert table.region_name.str.len().gt(0).all()  # a name pandas reaches as an attribute


# ---- errors ----------------------------------------------------------------------------------


def test_analysis_errors():
    scene = load("example2.yaml")
    with pytest.raises(zeno.ArgumentError) as e:
        zeno.maps(scene, samples=10)
    assert e.value.code == "range"
    with pytest.raises(zeno.ArgumentError):
        zeno.analyze(scene, partition=1)
    with pytest.raises(TypeError):
        zeno.maps(scene, samples=100.0)
    with pytest.raises(TypeError):
        zeno.analyze("example2")
    ball = load("bouncing-ball.yaml")
    with pytest.raises(zeno.Error) as e:
        zeno.maps(ball)
    assert "two contacts" in str(e.value)


@pytest.mark.parametrize("x, y, exc, text", [
    ("com.x=1:2", "com.y=0:1:2", zeno.ArgumentError, "expected PATH=LO:HI:N"),
    (("com.z", 0, 1, 2), ("com.y", 0, 1, 2), zeno.SceneError, "com.z"),
    (("com.x", 0, 1, 2), ("com.x", 0, 1, 3), zeno.Error, "same parameter"),
    (("paper.mu2", -1, 1, 2), ("com.y", 0, 1, 2), zeno.SceneError, "paper.mu2"),
    (("com.x", 0, 1, 0), ("com.y", 0, 1, 2), zeno.ArgumentError, ""),
    (("com.x", 0, 1), ("com.y", 0, 1, 2), TypeError, ""),
])
def test_region_errors(x, y, exc, text):
    with pytest.raises(exc) as e:
        zeno.regions(load("example6.yaml"), x=x, y=y, threads=1)
    assert text in str(e.value)
    with pytest.raises(zeno.Error):
        zeno.regions(load("bouncing-ball.yaml"), x=("contacts.0.mu", 0, 1, 2),
                     y=("load.magnitude", 1, 2, 2))


@pytest.mark.parametrize("threads", [100_000, 1025, 0, -4])
def test_regions_refuse_threads_outside_the_programs_range(threads):
    # 100000 threads crashed the interpreter inside OpenMP's runtime; -4 and
    # 0 were taken as "every core". The program's range: [1, 1024].
    with pytest.raises(zeno.ArgumentError) as e:
        zeno.regions(load("example6.yaml"), x="com.x=-1:1:3", y="com.y=0:1:2", threads=threads)
    assert e.value.code == "range" and e.value.key == "threads"
    assert "[1, 1024]" in str(e.value)


@pytest.mark.parametrize("seed", [2**64, 2**64 + 5, -1])
def test_regions_refuse_a_seed_beyond_64_bits(seed):
    # 2**64 was taken modulo 2**64: the map of seed 0.
    with pytest.raises(zeno.ArgumentError) as e:
        zeno.regions(load("example6.yaml"), x="com.x=-1:1:3", y="com.y=0:1:2", threads=1,
                     mc_seed=seed)
    assert e.value.code == "range" and e.value.key == "mc_seed"


def test_regions_take_the_largest_seed():
    r = zeno.regions(load("example6.yaml"), x="com.x=-1:1:2", y="com.y=0:1:1", threads=1,
                     mc_seed=2**64 - 1)
    assert r.region.shape == (1, 2)


@pytest.mark.parametrize("call, exc, text", [
    (lambda s: zeno.maps(s, samples=3), zeno.ArgumentError,
     "maps(samples=...): value 3 out of range; allowed [16, 1000000]"),
    (lambda s: zeno.maps(s, samples="x"), TypeError,
     "maps(samples=...): expected an int, got str 'x'"),
    (lambda s: zeno.analyze(s, partition=2), zeno.ArgumentError,
     "analyze(partition=...): value 2 out of range; allowed [3, 512]"),
    (lambda s: zeno.analyze(s, samples=10**30), zeno.ArgumentError,
     "analyze(samples=...): value 1000000000000000000000000000000 out of range; "
     "allowed [16, 1000000]"),
    (lambda s: zeno.regions(s, x="paper.mu2=0:1:2", y="paper.alpha=0:10:2", mc_runs=-1),
     zeno.ArgumentError, "regions(mc_runs=...): value -1 out of range; allowed [0, 100000]"),
    (lambda s: zeno.regions(s, x="paper.mu2=0:1:2", y="paper.alpha=0:10:2", threads="2"),
     TypeError, "regions(threads=...): expected an int, got str '2'"),
])
def test_argument_errors_name_only_the_argument(example2, call, exc, text):
    # The message is about the one argument given, in the Python spelling.
    with pytest.raises(exc) as e:
        call(example2)
    assert str(e.value) == text
