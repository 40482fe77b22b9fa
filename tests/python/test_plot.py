"""zeno.plot: the matplotlib figures draw the results' data in the C
figures' palette and layout (src/plot/plot.h)."""

import math
import os
import re

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

import zeno  # noqa: E402
from conftest import ROOT, scene_path  # noqa: E402
from zeno.plot import COLORS, REGION_COLORS  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def lines_of_color(ax, color):
    return [line for line in ax.get_lines() if to_rgb(line.get_color()) == color]


def test_maps_figure(tmp_path):
    a = zeno.analyze(zeno.Scene.load(scene_path("example2.yaml")))
    ax_r, ax_g = zeno.plot.maps(a)
    m = a.maps
    for ax, values, key in ((ax_r, m.R, "R"), (ax_g, m.G, "G")):
        (curve,) = [line for line in lines_of_color(ax, COLORS[key]) if line.get_linestyle() == "-"]
        x, y = np.asarray(curve.get_xdata()), np.asarray(curve.get_ydata())
        # Every defined sample once, in phi order, a break between branches.
        assert np.array_equal(x[np.isfinite(x)], m.phi[m.defined])
        assert np.array_equal(y[np.isfinite(y)], values[m.defined])
        assert curve.get_linewidth() == 2
        unsafe = [p for p in ax.patches if to_rgb(p.get_facecolor()) == COLORS["unsafe_shade"]]
        assert len(unsafe) == sum(not iv.safe for iv in a.partition) == 1
    assert ax_r.get_xlim() == (-np.pi / 2, np.pi / 2) == ax_r.get_ylim()
    assert ax_g.get_ylim() == (0.0, 2.5)  # G_max 1.77: the C figure's axis
    circles = [line for line in ax_r.get_lines() if line.get_marker() == "o"
               and line.get_markersize() == 10]
    assert len(circles) == len(m.fixed_points) == 2
    filled = {bool(p.convergent): to_rgb(c.get_markerfacecolor())
              for p, c in zip(m.fixed_points, circles)}
    assert filled == {True: COLORS["ink"], False: COLORS["background"]}
    assert ax_r.get_title() == "example2: stable (Theorem 4)"
    ax_r.figure.savefig(tmp_path / "maps.png")
    assert (tmp_path / "maps.png").stat().st_size > 10000


def test_maps_of_maps_result_into_given_axes():
    m = zeno.maps(zeno.Scene.load(scene_path("example3-zeno.yaml")), samples=400)
    fig, axes = plt.subplots(2, 1)
    assert zeno.plot.maps(m, ax=axes) == tuple(axes)
    assert not any(to_rgb(p.get_facecolor()) == COLORS["unsafe_shade"] for p in axes[0].patches)
    assert axes[1].get_ylim()[1] == zeno.plot.g_top(m.G_max)
    with pytest.raises(TypeError):
        zeno.plot.maps(m, ax=axes[0])
    with pytest.raises(TypeError):
        zeno.plot.maps("maps")


def test_maps_without_maps():
    infeasible = {"com.x": -2.5, "com.y": -1}  # region 0 of Example 6
    with pytest.warns(zeno.SceneWarning, match="infeasible"):
        scene = zeno.Scene.load(scene_path("example6.yaml"), infeasible)
    a = zeno.analyze(scene)
    assert a.maps is None and a.region == 0 and not a.feasible
    with pytest.raises(ValueError):
        zeno.plot.maps(a)


def test_regions_figure(tmp_path):
    r = zeno.regions(zeno.Scene.load(scene_path("example6.yaml")), x=("com.x", -2.5, 2, 10),
                     y=("com.y", -1, 2.5, 8), threads=2)
    ax = zeno.plot.regions(r)
    mesh = ax.collections[0]
    slots = np.where((r.region == 7) & (r.sim == "rests"), 8,
                     np.where((r.region == 7) & (r.sim == "departs"), 9, r.region))
    assert np.array_equal(np.asarray(mesh.get_array()).reshape(r.shape), slots)
    colors = mesh.to_rgba(mesh.get_array())[:, :3]
    expected = np.array([REGION_COLORS[s] for s in slots.ravel()])
    assert np.allclose(colors, expected)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[0] == f"0 infeasible: {np.sum(slots == 0)}"
    assert len(labels) == 7 + len(set(slots[slots >= 7].tolist()))
    assert ax.get_aspect() == 1.0  # com.x / com.y: equal scales, with the contacts drawn
    assert len(lines_of_color(ax, COLORS["ink"])) >= 2 * 4
    ax.figure.savefig(tmp_path / "regions.png", bbox_inches="tight")
    with pytest.raises(TypeError):
        zeno.plot.regions(zeno.analyze(zeno.Scene.load(scene_path("example2.yaml"))))


def test_trajectory_figure():
    run = zeno.simulate(zeno.Scene.load(scene_path("example3-zeno.yaml")))
    top, bottom = zeno.plot.trajectory(run)
    traj = run.trajectory
    for ax, key, values in ((top, "z1", traj.z1), (top, "z2", traj.z2), (bottom, "x2", traj.x2)):
        (line,) = lines_of_color(ax, COLORS[key])
        assert np.array_equal(line.get_xdata(), traj.t)
        assert np.array_equal(line.get_ydata(), values)
    impacts = sum(e.kind == "impact" for e in run.events)
    for ax in (top, bottom):
        ticks = {to_rgb(c.get_color()[0]): len(c.get_segments()) for c in ax.collections}
        assert ticks == {COLORS["impact"]: impacts, COLORS["event"]: run.event_count - impacts}
    with pytest.raises(ValueError):
        zeno.plot.trajectory(zeno.simulate(run.scene, trajectory=False))


def test_one_contact_trajectory_figure():
    run = zeno.simulate(zeno.Scene.load(scene_path("bouncing-ball.yaml")))
    top, bottom = zeno.plot.trajectory(run)
    traj = run.trajectory
    (gap,) = lines_of_color(top, COLORS["z1"])
    (slip,) = lines_of_color(bottom, COLORS["x2"])
    assert np.array_equal(gap.get_ydata(), traj.z1) and np.array_equal(slip.get_ydata(), traj.x1)
    assert not lines_of_color(top, COLORS["z2"])
    assert (gap.get_label(), slip.get_label()) == ("z₁ (gap)", "x₁ (slip)")
    assert (top.get_ylabel(), bottom.get_ylabel(), bottom.get_xlabel()) == (
        "z₁ [L]", "x₁ [L]", "t [T]")
    assert top.get_title().endswith("q'(t) = (z1, x1, zod_theta)")


def c_axis_labels():
    """The C figures' axis labels: plot_axis_label()'s table in
    src/plot/plot_canvas.c, read from the source."""
    with open(os.path.join(ROOT, "src", "plot", "plot_canvas.c"), encoding="utf-8") as f:
        text = f.read()
    table = text[text.index("LABELS[] = {"):text.index("};", text.index("LABELS[] = {"))]
    return dict(re.findall(r'\{"([^"]+)", "([^"]+)"\}', table))


def test_axis_labels_are_the_c_figures():
    labels = c_axis_labels()
    assert labels["paper.alpha"] == "α [°] (load angle)" and len(labels) > 20
    assert zeno.plot.AXIS_LABELS == labels
    assert zeno.plot.axis_label("paper.mu2") == "μ₂"
    assert zeno.plot.axis_label("stop.t_end") == "stop.t_end"  # no label: the path


def test_regions_axes_labelled_as_the_c_figure():
    r = zeno.regions(zeno.Scene.load(scene_path("example7.yaml")), x=("paper.mu2", 0, 1.3, 4),
                     y=("paper.alpha", 0, 40, 3), threads=2)
    ax = zeno.plot.regions(r)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("μ₂", "α [°] (load angle)")
    com = zeno.regions(zeno.Scene.load(scene_path("example6.yaml")), x=("com.x", -2.5, 2, 3),
                       y=("com.y", -1, 2.5, 3), threads=2)
    ax = zeno.plot.regions(com)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("centre of mass x [L]", "centre of mass y [L]")


def c_mode_palette():
    """MODE_PALETTE and TRAJ_MODE_TINT of src/plot/plot_trajectory.c."""
    with open(os.path.join(ROOT, "src", "plot", "plot_trajectory.c"), encoding="utf-8") as f:
        text = f.read()
    tint = float(re.search(r"#define TRAJ_MODE_TINT ([0-9.]+)", text).group(1))
    body = re.search(r"MODE_PALETTE\[PLOT_MODE_COLORS\] = \{(.*?)\};", text, re.S).group(1)
    rows = tuple(tuple(int(v) for v in m) for m in re.findall(r"\{(\d+), (\d+), (\d+)\}", body))
    return rows, tint


def test_mode_bands_are_the_c_figures():
    rows, tint = c_mode_palette()
    assert len(rows) == 16 and (zeno.plot.MODE_PALETTE, zeno.plot.MODE_TINT) == (rows, tint)
    # FF is free flight's grey; FN is index 0 + 4 * 3 = 12, tinted.
    assert zeno.plot.mode_color("FF") == tuple(round(225 + tint * 30) / 255 for _ in range(3))
    assert zeno.plot.mode_color("FN") == tuple(
        math.floor(c + tint * (255 - c) + 0.5) / 255 for c in rows[12])
    run = zeno.simulate(zeno.Scene.load(scene_path("example2.yaml")))
    top, bottom = zeno.plot.trajectory(run)
    # One band per run of rows of one mode, in each panel, spanning the runs'
    # times; the legend names each mode once, in order of appearance.
    mode = run.trajectory.mode
    runs = [k for k in range(1, len(mode)) if mode[k] != mode[k - 1]]
    for a in (top, bottom):
        spans = [p for p in a.patches if p.get_zorder() == 0]
        assert len(spans) == len(runs) + 1
    names = [t.get_text() for t in top.get_legend().get_texts()]
    present = list(dict.fromkeys(m for m in mode[:-1] if m))
    assert len(present) >= 4 and names[-len(present):] == present


def test_trajectory_axes_labelled_as_the_c_figure():
    run = zeno.simulate(zeno.Scene.load(scene_path("example2.yaml")))
    top, bottom = zeno.plot.trajectory(run)
    assert (top.get_ylabel(), bottom.get_ylabel(), bottom.get_xlabel()) == (
        "z₁, z₂ [L]", "x₂ [L]", "t [T]")
    names = [t.get_text() for t in top.get_legend().get_texts()]
    assert names[:3] == ["z₁ (gap 1)", "z₂ (gap 2)", "x₂ (slip 2)"]
