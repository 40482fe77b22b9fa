"""Scenes: loading, overrides, dicts, YAML round trips and every error as a
SceneError naming file:line:column or the key (never a crash)."""

import math
import os
import pickle

import numpy as np
import pytest

import zeno
from conftest import SCENE_FILES, cli, scene_path

EXAMPLE2_PAPER = {"alpha": 65, "l1": -3.5, "l2": 2.25, "h": 1.25, "phi1": 75, "phi2": 30,
                  "mu1": 0.75, "mu2": 0.6}


def test_load_reads_the_paper_block(example2):
    assert example2.name == "example2"
    assert example2.model == "zod"
    assert example2.contact_count == 2
    paper = example2.paper
    for key, value in EXAMPLE2_PAPER.items():
        assert paper[key] == value
    # Contact points p_i = (l_i, -h), surface angles in radians (SPEC.md).
    c1, c2 = example2.contacts
    assert c1["point"] == (-3.5, -1.25) and c2["point"] == (2.25, -1.25)
    assert c1["surface_angle"] == 75 * (math.pi / 180)
    assert example2.source == scene_path("example2.yaml")


@pytest.mark.parametrize("name", SCENE_FILES)
def test_yaml_round_trip_gives_the_identical_scene(name):
    scene = zeno.Scene.load(scene_path(name))
    text = scene.to_yaml()
    back = zeno.Scene.from_yaml(text, name="written.yaml")
    assert back.fields == scene.fields
    assert back.to_yaml() == text
    assert back == scene


def test_to_yaml_writes_shortest_numbers(example2):
    text = example2.to_yaml()
    assert "  mu2: 0.6\n" in text and "  phi2: 30\n" in text
    assert "  qdp: [0, 0, 2]\n" in text


def test_overrides_as_dict_list_and_string_equal_the_cli_set():
    path = scene_path("example2.yaml")
    a = zeno.Scene.load(path, overrides={"paper.mu2": 0.5, "initial.qdp": [0, 0, 1]})
    b = zeno.Scene.load(path, overrides=["paper.mu2=0.5", "initial.qdp=[0,0,1]"])
    c = zeno.Scene.load(path).with_overrides({"paper.mu2": 0.5}).with_overrides(
        "initial.qdp=[0, 0, 1]")
    assert a == b == c
    assert a.paper["mu2"] == 0.5
    assert a.fields["initial_velocity"] == (0.0, 0.0, 1.0)
    assert a.overrides == ("paper.mu2=0.5", "initial.qdp=[0, 0, 1]")
    # The C program with the same --set values simulates the same run.
    word = cli("simulate", path, "--set", "paper.mu2=0.5", "--set", "initial.qdp=[0,0,1]",
               "--json")[1]
    assert f'"word": "{zeno.simulate(a).word}"' in word


def test_from_dict_matches_the_file():
    d = {"name": "example2", "model": "zod", "paper": dict(EXAMPLE2_PAPER),
         "impact": {"law": "inelastic"}, "initial": {"qp": [1, 1, 0], "qdp": (0, 0, 2)}}
    scene = zeno.Scene.from_dict(d)
    assert scene == zeno.Scene.load(scene_path("example2.yaml"))
    # numpy values and nested general forms are written exactly.
    ball = zeno.Scene.from_dict({
        "body": {"mass": np.float64(1), "rho": 0.0632455532, "outline": "disk",
                 "outline_radius": 0.1},
        "contacts": [{"point": np.array([0.0, -0.1]), "surface": {"angle": 0}, "mu": 0.5}],
        "load": {"magnitude": 9.81}, "impact": {"law": "newton", "e": 0.8},
        "initial": {"pose": [0, 1, 0]}, "stop": {"t_end": np.int64(20)}, "name": "bouncing-ball"})
    assert ball == zeno.Scene.load(scene_path("bouncing-ball.yaml"))


def test_pickle_and_hash(example2):
    other = pickle.loads(pickle.dumps(example2.with_overrides({"paper.alpha": 60})))
    assert other.paper["alpha"] == 60 and other.overrides == ("paper.alpha=60",)
    assert hash(example2) == hash(zeno.Scene.load(scene_path("example2.yaml")))
    assert example2 != other


def test_settings_are_validated_like_set(example2):
    s = example2.with_settings(model="full", epsilon=1e-2, t_end=5, sample_dt=0.5)
    assert (s.model, s.epsilon, s.t_end, s.sample_dt) == ("full", 1e-2, 5.0, 0.5)
    # The same scene as the loader makes from the equivalent overrides.
    assert s == zeno.Scene.load(scene_path("example2.yaml"), overrides=[
        "model=full", "epsilon=0.01", "stop.t_end=5", "solver.sample_dt=0.5"])
    assert s.with_overrides({}) == s  # its text and overrides reload into it


# ---- errors ------------------------------------------------------------------------------


def cli_error_line(path, *sets):
    code, _, err = cli("simulate", path, *[a for s in sets for a in ("--set", s)], check=False)
    assert code == 2
    return err.strip().removeprefix("zeno: ")


def test_file_error_carries_file_line_column(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\npaper: {alpha: 65, l1: oops}\n")
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load(bad)
    err = e.value
    assert (err.file, err.line, err.column, err.key) == (str(bad), 2, 24, "paper.l1")
    assert err.code == "type" and err.message == "expected a number, got 'oops'"
    assert str(err) == cli_error_line(str(bad))
    assert isinstance(err, ValueError) and isinstance(err, zeno.Error)


@pytest.mark.parametrize("text, key, line, column, code", [
    ("paper: {alpha: 65, l1: -3.5, l2: 2.25, h: 1.25, phi1: 75, phi2: 30, mu1: 0.75,"
     " mu2: .nan}\n", "paper.mu2", 1, 85, "range"),
    ("stop:\n  t_end: -1\n", "stop.t_end", 2, 10, "range"),
    ("colour: red\n", "colour", 1, 1, "unknown-key"),
    ("contacts: [{point: [0, -1]}]\nbody: {mass: 1, rho: 1}\nload: {magnitude: 1}\n",
     "contacts.0.mu", 1, 12, "missing"),
    ("model: fll\n", "model", 1, 8, "type"),
    ("paper: [1, 2\n", None, 2, 1, "syntax"),
])
def test_error_classes(tmp_path, text, key, line, column, code):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load(path)
    assert (e.value.key, e.value.line, e.value.column, e.value.code) == (key, line, column, code)
    assert str(e.value) == cli_error_line(str(path))


def test_missing_file():
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load("/nonexistent/scene.yaml")
    assert e.value.code == "io" and e.value.file == "/nonexistent/scene.yaml"
    assert "No such file" in str(e.value)


def test_override_errors_name_the_override():
    # The Python call and the override as written, not the program's --set.
    path = scene_path("example2.yaml")
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load(path, overrides={"paper.mu2": -1})
    assert str(e.value) == ("Scene.load(overrides=...): key 'paper.mu2': "
                            "value -1 is out of range; allowed [0, inf)")
    assert e.value.file == "--set" and e.value.key == "paper.mu2"
    assert e.value.message == "value -1 is out of range; allowed [0, inf)"
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load(path, overrides=["paper.alphx=45"])
    assert e.value.code == "unknown-key"
    assert str(e.value) == ("Scene.load(overrides=...): key 'paper.alphx' is unknown "
                            "(did you mean 'paper.alpha'?); known keys under 'paper': "
                            "alpha, l1, l2, h, phi1, phi2, mu1, mu2, rho, m, f, tau")
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.load(path, overrides=["no equals sign"])
    assert e.value.code == "syntax"
    assert str(e.value).startswith("Scene.load(overrides=...): 'no equals sign': expected")


def test_with_overrides_errors_speak_python(example2):
    with pytest.raises(zeno.SceneError) as e:
        example2.with_overrides({"paper.mu3": 0.5})
    assert str(e.value) == ("with_overrides: key 'paper.mu3' is unknown; known keys under "
                            "'paper': alpha, l1, l2, h, phi1, phi2, mu1, mu2, rho, m, f, tau")
    assert "--set" not in str(e.value) and e.value.code == "unknown-key"
    with pytest.raises(zeno.SceneError) as e:
        example2.with_overrides({"foo.bar": 1})
    assert str(e.value).startswith("with_overrides: key 'foo.bar': 'foo' is unknown; known "
                                   "top-level keys: name, model, ")
    with pytest.raises(zeno.SceneError) as e:
        example2.with_overrides(["paper.l2=-3.5"])
    assert str(e.value) == ("with_overrides: 'paper.l2=-3.5': contacts 1 and 2 coincide at "
                            "(-3.5, -1.25); two distinct contact points are needed")
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.from_yaml(example2.to_yaml(), overrides={"paper.mu2": "x"})
    assert str(e.value).startswith("Scene.from_yaml(overrides=...): key 'paper.mu2': expected")


@pytest.mark.parametrize("data, key, code", [
    ({"paper": {"alpha": "sixty"}}, "paper.alpha", "type"),
    ({"paper": dict(EXAMPLE2_PAPER, mu1=float("nan"))}, "paper.mu1", "range"),
    ({"paper": dict(EXAMPLE2_PAPER, mu1=math.inf)}, "paper.mu1", "range"),
    ({"paper": dict(EXAMPLE2_PAPER, l2=-3.5)}, "paper.l2", "geometry"),
    ({"stop": {"max_events": 2.5}}, "stop.max_events", "type"),
    ({"initial": {"qp": [1, 1]}}, "initial.qp", "type"),
    ({"impact": {"law": True}}, "impact.law", "type"),
    ({"paper": dict(EXAMPLE2_PAPER), "contacts": []}, "contacts", "unknown-key"),
])
def test_dict_errors_name_the_key(data, key, code):
    with pytest.raises(zeno.SceneError) as e:
        zeno.Scene.from_dict(data)
    err = e.value
    assert (err.key, err.code) == (key, code)
    assert err.file is None and err.line is None and err.column is None
    assert str(err) == f"{key}: {err.message}"


@pytest.mark.parametrize("call, exc", [
    (lambda: zeno.Scene.from_dict([1, 2]), TypeError),
    (lambda: zeno.Scene.from_dict({1: 2}), TypeError),
    (lambda: zeno.Scene.from_dict({"paper": object()}), TypeError),
    (lambda: zeno.Scene.from_yaml(b"paper: {}"), TypeError),
    (lambda: zeno.Scene.from_yaml("name: a\0b"), ValueError),
    (lambda: zeno.Scene.load(42), TypeError),
    (lambda: zeno.Scene.load(scene_path("example2.yaml"), overrides=[1]), TypeError),
    (lambda: zeno.Scene.load(scene_path("example2.yaml"), overrides={2: 1}), TypeError),
    (lambda: zeno.simulate("scenes/example2.yaml"), TypeError),
    (lambda: zeno.Scene.load(scene_path("example2.yaml")).with_settings(colour=1), TypeError),
])
def test_bad_python_arguments_raise(call, exc):
    with pytest.raises(exc):
        call()


def test_settings_errors(example2):
    for settings, key in (({"epsilon": 0}, "epsilon"), ({"epsilon": math.nan}, "epsilon"),
                          ({"t_end": -1}, "stop.t_end"), ({"sample_dt": -0.1}, "solver.sample_dt"),
                          ({"max_events": 0}, "stop.max_events"), ({"model": "fast"}, "model")):
        with pytest.raises(zeno.SceneError) as e:
            example2.with_settings(**settings)
        assert e.value.key == key, settings
    with pytest.raises(TypeError):
        example2.with_settings(epsilon="small")


def test_scenes_come_only_from_the_loader():
    for cls in (zeno.Scene, zeno._zeno.Scene):
        with pytest.raises(TypeError):
            cls()


def test_scene_loaded_from_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink(scene_path("example3-zeno.yaml"), "s.yaml")
    scene = zeno.Scene.load("s.yaml")
    assert scene.name == "example3-zeno"
    assert zeno.Scene.load(b"s.yaml") == scene == zeno.Scene.load(tmp_path / "s.yaml")
    os.remove("s.yaml")  # the kept text still serves derived scenes
    assert scene.with_overrides({"paper.mu2": 0.002}).paper["mu2"] == 0.002


def test_scene_warnings_are_warned():
    """The command line's sanity pass (zeno_scene_warnings()): a scene typed
    in radians, or with an infeasible equilibrium, warns with SceneWarning
    when it is made (load, from_yaml, from_dict, with_overrides), never
    refuses; the shipped scenes warn nothing."""
    import warnings as w

    with w.catch_warnings():
        w.simplefilter("error")
        for name in SCENE_FILES:
            assert zeno.Scene.load(scene_path(name)).warnings == []
    radians = {"paper.alpha": 1.13, "paper.phi1": 1.309, "paper.phi2": 0.52}
    with pytest.warns(zeno.SceneWarning) as caught:
        scene = zeno.Scene.load(scene_path("example2.yaml"), radians)
    assert [(r.message.kind, r.message.key) for r in caught] == [
        ("radians", "paper.alpha"), ("radians", "paper.phi1"), ("radians", "paper.phi2")]
    assert "write 64.7442" in str(caught[0].message)
    assert caught[0].filename == __file__  # raised where the scene was made
    assert [k for k, _, _ in scene.warnings] == ["radians"] * 3
    with pytest.warns(zeno.SceneWarning, match="infeasible"):
        zeno.Scene.load(scene_path("example2.yaml")).with_overrides({"paper.alpha": -20})
    with pytest.warns(zeno.SceneWarning, match="paper.alpha: 1.134 deg"):
        zeno.Scene.from_dict({"paper": dict(EXAMPLE2_PAPER, alpha=1.134)})
