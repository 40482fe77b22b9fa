"""matplotlib figures drawing what the C figures draw (src/plot/): the maps
R and G (``zeno analyze --plot``, ``zeno maps --plot``), region maps
(``zeno regions --plot``) and a run's q'(t) (``zeno plot-trajectory``),
with the same palette (src/plot/plot.h).

Each function draws into the axes it is given (or new ones) and returns
them; ``matplotlib`` is imported when a function is first called.
"""

import math

import numpy as np

from .analysis import Analysis, Maps, Regions
from .simulation import Run

__all__ = ["maps", "regions", "trajectory", "axis_label", "mode_color", "AXIS_LABELS", "COLORS",
           "REGION_COLORS"]


def _rgb(r, g, b):
    return (r / 255, g / 255, b / 255)


# The palette of src/plot/plot.h.
COLORS = {
    "ink": _rgb(0, 0, 0), "background": _rgb(255, 255, 255), "guide": _rgb(110, 110, 110),
    "breakpoint": _rgb(175, 175, 175), "R": _rgb(31, 119, 180), "G": _rgb(255, 127, 14),
    "unsafe_shade": _rgb(250, 210, 210), "z1": _rgb(31, 119, 180), "z2": _rgb(255, 127, 14),
    "x2": _rgb(44, 160, 44), "event": _rgb(150, 150, 150), "impact": _rgb(0, 0, 0),
}
# Region map legend slots: regions 0-6, 7 not simulated, 7 resting, 7 departing,
# 7 returning slowly (stopped by their limits while still returning).
REGION_COLORS = (
    _rgb(235, 235, 235), _rgb(120, 120, 120), _rgb(26, 152, 80), _rgb(145, 207, 96),
    _rgb(215, 48, 39), _rgb(252, 141, 89), _rgb(118, 42, 131), _rgb(254, 224, 139),
    _rgb(255, 255, 191), _rgb(191, 129, 45), _rgb(223, 194, 125),
)
REGION_LABELS = (
    "0 infeasible", "1 Painleve paradox", "2 stable (Thm 3)", "3 stable (Thm 4)",
    "4 unstable, persistent (Thm 2)", "5 unstable, not persistent (Thm 2)",
    "6 ambiguous (Thm 1)", "7 undecided", "7 undecided, simulations rest",
    "7 undecided, a simulation departs", "7 undecided, simulations return slowly",
)
# The axis label of a scene path as the C figures print it (plot_axis_label()
# in src/plot/plot_canvas.c; tests/python/test_plot.py holds the two equal):
# a symbol and its unit, L, M, T, F the scene's length, mass, time and force
# units.
AXIS_LABELS = {
    "paper.alpha": "α [°] (load angle)", "paper.phi1": "φ₁ [°] (surface 1)",
    "paper.phi2": "φ₂ [°] (surface 2)", "paper.mu1": "μ₁", "paper.mu2": "μ₂",
    "paper.l1": "l₁ [L]", "paper.l2": "l₂ [L]", "paper.h": "h [L]",
    "paper.rho": "ρ [L] (radius of gyration)", "paper.m": "m [M]", "paper.f": "|f| [F] (load)",
    "paper.tau": "τ [F L] (load torque)", "com.x": "centre of mass x [L]",
    "com.y": "centre of mass y [L]", "load.angle": "α [°] (load angle)",
    "load.magnitude": "|f| [F] (load)", "contacts.0.mu": "μ₁", "contacts.1.mu": "μ₂",
    "contacts[0].mu": "μ₁", "contacts[1].mu": "μ₂", "impact.e": "e (restitution)",
    "impact.et": "eₜ (tangential restitution)", "initial.qp.0": "z₁(0) [L]",
    "initial.qp.1": "z₂(0) [L]", "initial.qp.2": "x₂(0) [L]", "initial.qdp.0": "ż₁(0) [L/T]",
    "initial.qdp.1": "ż₂(0) [L/T]", "initial.qdp.2": "ẋ₂(0) [L/T]", "epsilon": "ε",
}
# The trajectory figure's labels (PLOT_TRAJECTORY_* in src/plot/plot.h).
_T_LABEL = "t [T]"
_SERIES = {"z1": "z₁ (gap 1)", "z2": "z₂ (gap 2)", "x2": "x₂ (slip 2)"}
_SERIES_ONE = {"z1": "z₁ (gap)", "x1": "x₁ (slip)"}
_DASHES = (0, (6, 4))  # PLOT_DASH_ON, PLOT_DASH_OFF


def axis_label(path):
    """The axis label the C figures give a scene path (``"paper.mu2"`` ->
    ``"μ₂"``); the path itself when it has none."""
    if not isinstance(path, str):
        raise TypeError(f"axis_label(path): path must be a scene path such as 'paper.mu2' "
                        f"(a str), not {type(path).__name__}")
    return AXIS_LABELS.get(path, path)
_PHI = math.pi / 2


def _pyplot():
    import matplotlib.pyplot as plt
    return plt


def nice_step(span, count):
    """plot_nice_step(): a 1, 2 or 5 times a power of ten near span / count."""
    if not span > 0 or count < 1:
        return 1.0
    raw = span / count
    power = 10.0 ** math.floor(math.log10(raw))
    m = raw / power
    return power * (1 if m < 1.5 else 2 if m < 3.5 else 5 if m < 7.5 else 10)


def g_top(g_max):
    """plot_maps_g_top(): the top of the G axis for the largest G."""
    target = 1.2 * (max(g_max, 1.0) if g_max is not None and math.isfinite(g_max) else 1.0)
    step = nice_step(target, 5)
    return min(math.ceil(target / step) * step, 5.0)


def _axes_pair(ax, figsize):
    if ax is None:
        fig, ax = _pyplot().subplots(2, 1, sharex=True, figsize=figsize)
        fig.subplots_adjust(top=_PAIR_TOP)
        return ax
    try:
        top, bottom = ax
    except (TypeError, ValueError):
        raise TypeError("ax must be None or a pair of Axes (top, bottom)") from None
    return top, bottom


# ---- the maps R and G ---------------------------------------------------------------


def _branches(m, values):
    """x, y with NaN between branches (a branch: neighbouring defined
    samples of one cycle word and outcome), and the lone samples."""
    same = m.defined[1:] & m.defined[:-1] & (m.words[1:] == m.words[:-1]) & (
        m.outcomes[1:] == m.outcomes[:-1])
    start = np.concatenate(([True], ~same))  # a sample that starts a new branch
    x, y = [], []
    for k in np.flatnonzero(m.defined):
        if start[k] and x:
            x.append(np.nan), y.append(np.nan)
        x.append(m.phi[k]), y.append(values[k])
    end = np.concatenate((~same, [True]))
    lone = m.defined & start & end
    return np.array(x), np.array(y), lone


def maps(result, ax=None, title=None):
    """R(phi) above G(phi) (paper Figs. 4c, 5b, 7a) for a :class:`Maps` or an
    :class:`Analysis` (whose unsafe Theorem 4 intervals are shaded): R and G
    joined along each branch, R = phi and G = 1 dashed, breakpoints as thin
    lines, fixed points as circles (filled: convergent). ``ax``: None or a
    pair of Axes. Returns the pair."""
    if isinstance(result, Analysis):
        if result.maps is None:
            raise ValueError(f"no maps to plot: {result.reason}")
        m, shaded = result.maps, result.partition
        by = f" (Theorem {result.theorem})" if result.theorem else ""
        default_title = f"{result.scene.name}: {result.verdict}{by}"
    elif isinstance(result, Maps):
        m, shaded = result, ()
        default_title = f"{m.scene.name}: reduced map R and growth map G"
    else:
        raise TypeError(f"expected zeno.Maps or zeno.Analysis, got {type(result).__name__}")
    ax_r, ax_g = _axes_pair(ax, (9, 6))
    for a, values, key in ((ax_r, m.R, "R"), (ax_g, m.G, "G")):
        for iv in shaded:
            if not iv.safe:
                a.axvspan(iv.lo, iv.hi, color=COLORS["unsafe_shade"], lw=0, label="unsafe")
        for b in m.breakpoints:
            a.axvline(b, color=COLORS["breakpoint"], lw=1, label="breakpoint")
        x, y, lone = _branches(m, values)
        a.plot(x, y, color=COLORS[key], lw=2, label=f"{key}(φ)")
        a.plot(m.phi[lone], values[lone], "o", color=COLORS[key], ms=2, label="_lone")
        a.set_xlim(-_PHI, _PHI)
    ax_r.plot([-_PHI, _PHI], [-_PHI, _PHI], color=COLORS["guide"], lw=1, ls=_DASHES,
              label="R = φ")
    ax_g.axhline(1.0, color=COLORS["guide"], lw=1, ls=_DASHES, label="G = 1")
    for p in m.fixed_points:
        ax_r.plot([p.phi], [p.phi], "o", ms=10, mec=COLORS["ink"], mew=1.5,
                  mfc=COLORS["ink"] if p.convergent else COLORS["background"],
                  label="fixed point", clip_on=False, zorder=3)
    ax_r.set_ylim(-_PHI, _PHI)
    ax_g.set_ylim(0, g_top(m.G_max))
    ax_r.set_ylabel("R(φ) [rad]")
    ax_g.set_ylabel("G(φ)")
    ax_g.set_xlabel("φ [rad]")
    pad = _legend_row(ax_r, _maps_legend(any(not iv.safe for iv in shaded)))
    ax_r.set_title(default_title if title is None else title, pad=pad)
    return ax_r, ax_g


def _maps_legend(shaded):
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    handles = [Line2D([], [], color=COLORS["R"], lw=2, label="R(φ)"),
               Line2D([], [], color=COLORS["G"], lw=2, label="G(φ)"),
               Line2D([], [], color=COLORS["guide"], lw=1, ls=_DASHES, label="R = φ, G = 1"),
               Line2D([], [], color=COLORS["breakpoint"], lw=1, label="breakpoint"),
               Line2D([], [], ls="", marker="o", mec=COLORS["ink"], mfc=COLORS["background"],
                      label="fixed point (filled: convergent)")]
    if shaded:
        handles.append(Patch(color=COLORS["unsafe_shade"], label="unsafe"))
    return handles


# Legend items per row above the axes: the legend keeps the tick labels'
# size (matplotlib's 10 pt) and wraps, as the C figures' legends do.
_LEGEND_COLUMNS = 3
# The title's distance above the axes [pt] per legend row (the rows are
# 10 pt text with matplotlib's spacing).
_TITLE_PAD_PER_ROW = 22
# The title's own height and the margin above it [pt].
_TITLE_ROOM = 24
# Top of a pair of axes (a fraction of the figure): room above for the
# legend rows and the title.
_PAIR_TOP = 0.82


def _legend_row(ax, handles):
    """The legend in rows under the title, as the C figures draw it, at the
    tick labels' size; returns the title's pad that clears its rows [pt]."""
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0),
              ncol=min(len(handles), _LEGEND_COLUMNS), frameon=False, handlelength=2,
              columnspacing=1.2, borderaxespad=0.2)
    return _TITLE_PAD_PER_ROW * max(2, math.ceil(len(handles) / _LEGEND_COLUMNS))


# ---- region maps -----------------------------------------------------------------------


def _slots(r):
    """The legend slot of every point: its region, region 7 split by simulation."""
    slot = r.region.copy()
    slot[(r.region == 7) & (r.sim == "rests")] = 8
    slot[(r.region == 7) & (r.sim == "departs")] = 9
    slot[(r.region == 7) & (r.sim == "returns-slowly")] = 10
    return slot


def _edges(values):
    if len(values) == 1:
        cell = max(abs(values[0]), 1.0)
    else:
        cell = (values.max() - values.min()) / (len(values) - 1)
    v = np.sort(values)
    return np.concatenate(([v[0] - cell / 2], (v[:-1] + v[1:]) / 2, [v[-1] + cell / 2]))


def _overlay(a, scene, swapped):
    """Fig. 8a: contacts with surfaces and friction cones, legs to the centre
    of mass, the load direction."""
    f = scene.fields
    com = np.array(f["com"])
    x0, x1 = a.get_xlim()
    y0, y1 = a.get_ylim()
    span = min(abs(x1 - x0), abs(y1 - y0))

    def draw(points, **kw):
        p = np.array(points)
        a.plot(p[:, 1] if swapped else p[:, 0], p[:, 0] if swapped else p[:, 1], **kw)

    ink = COLORS["ink"]
    for c in f["contacts"]:
        p = com + np.array(c["point"])
        t = np.array([math.cos(c["surface_angle"]), math.sin(c["surface_angle"])])
        n = np.array([-t[1], t[0]])
        draw([p - 0.12 * span * t, p + 0.12 * span * t], color=ink, lw=2)
        draw([p, com], color=ink, lw=2)
        half = math.atan(c["mu"])
        for side in (-1, 1):
            ang = side * half
            d = np.array([n[0] * math.cos(ang) - n[1] * math.sin(ang),
                          n[0] * math.sin(ang) + n[1] * math.cos(ang)])
            draw([p, p + 0.08 * span * d], color=ink, lw=1, ls=_DASHES)
        draw([p], marker="o", color=ink, ms=7)
    draw([com], marker="o", color=ink, ms=8)
    if f["load_magnitude"] > 0:
        d = 0.12 * span * np.array([math.sin(f["load_angle"]), -math.cos(f["load_angle"])])
        tip = com + d
        xy = (tip[1], tip[0]) if swapped else tuple(tip)
        xytext = (com[1], com[0]) if swapped else tuple(com)
        a.annotate("", xy=xy, xytext=xytext, arrowprops={"arrowstyle": "-|>", "color": ink,
                                                          "lw": 2})


def regions(result, ax=None, title=None):
    """The region map (paper Fig. 8): one cell per point coloured by region
    (region 7 by its simulation verdict), a legend with the count of each
    class, and for com.x/com.y sweeps the contact configuration over it with
    equal scales. Returns the Axes."""
    if not isinstance(result, Regions):
        raise TypeError(f"expected zeno.Regions, got {type(result).__name__}")
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(9, 6))
    slot = _slots(result)
    ix, iy = np.argsort(result.x), np.argsort(result.y)
    ax.pcolormesh(_edges(result.x), _edges(result.y), slot[np.ix_(iy, ix)],
                  cmap=ListedColormap(REGION_COLORS), vmin=-0.5,
                  vmax=len(REGION_COLORS) - 0.5, shading="flat")
    paths = {result.x_path, result.y_path}
    if paths == {"com.x", "com.y"}:
        ax.set_aspect("equal")
        _overlay(ax, result.scene, swapped=result.x_path == "com.y")
    counts = np.bincount(slot.ravel(), minlength=len(REGION_COLORS))
    handles = [Patch(facecolor=REGION_COLORS[s], edgecolor=COLORS["ink"], lw=1,
                     label=f"{REGION_LABELS[s]}: {counts[s]}")
               for s in range(len(REGION_COLORS)) if s < 7 or counts[s] > 0]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1), frameon=False)
    ax.set_xlabel(axis_label(result.x_path))
    ax.set_ylabel(axis_label(result.y_path))
    ax.set_title(f"{result.scene.name}: stability regions over {result.x_path} and "
                 f"{result.y_path}" if title is None else title)
    return ax


# ---- trajectories -------------------------------------------------------------------------


# The mode bands of a trajectory, as the C figure draws them
# (src/plot/plot_trajectory.c's MODE_PALETTE and TRAJ_MODE_TINT, which
# tests/python/test_plot.py holds equal): by mode index (letter 1 + 4
# letter 2, letters F S P N), free flight grey, then matplotlib's tab20
# light colours; tinted towards white.
MODE_PALETTE = (
    (225, 225, 225), (174, 199, 232), (255, 187, 120), (152, 223, 138),
    (255, 152, 150), (197, 176, 213), (196, 156, 148), (247, 182, 210),
    (219, 219, 141), (158, 218, 229), (253, 208, 162), (199, 233, 192),
    (218, 218, 235), (252, 187, 161), (204, 235, 197), (254, 217, 166),
)
MODE_TINT = 0.55
_MODE_LETTERS = "FSPN"


def mode_color(mode):
    """The (r, g, b) in [0, 1] of a mode's band, e.g. mode_color("FN");
    a name of other letters gets free flight's."""
    if not isinstance(mode, str):
        raise TypeError(f"mode_color(mode=...): expected a mode name such as 'FN', "
                        f"got {type(mode).__name__}")
    index, weight = 0, 1
    for letter in mode:
        k = _MODE_LETTERS.find(letter)
        if k < 0 or weight >= len(MODE_PALETTE):
            index = -1
            break
        index += k * weight
        weight *= 4
    if not mode or not 0 <= index < len(MODE_PALETTE):
        index = 0
    return _tinted(index)


def _tinted(index):
    # C's lround: halves away from zero (the channels are positive).
    return tuple(math.floor(c + MODE_TINT * (255 - c) + 0.5) / 255 for c in MODE_PALETTE[index])


def _band_colors(modes):
    """The band colour of each mode of a run of more than two contacts, as
    the C figure gives it (band_color): free flight's for all-F, the others
    by their place among the run's modes in order of appearance (the first
    len(MODE_PALETTE) of them; later ones free flight's)."""
    colors, place = {}, 0
    for m in list(dict.fromkeys(m for m in modes if m))[:len(MODE_PALETTE)]:
        if set(m) == {"F"}:
            colors[m] = _tinted(0)
        else:
            colors[m] = _tinted(1 + place % (len(MODE_PALETTE) - 1))
            place += 1
    return colors


def _mode_bands(axes, t, modes, colors=None):
    """Shades each run of rows of one mode from its first row to the next
    run's, in every Axes (colours from `colors` when given, else
    mode_color); returns the modes in order of appearance."""
    seen = []
    k, n = 0, len(modes)
    while k + 1 < n:
        end = k + 1
        while end + 1 < n and modes[end] == modes[k]:
            end += 1
        if modes[k] and np.isfinite(t[k]) and np.isfinite(t[end]):
            for a in axes:
                color = colors.get(modes[k], _tinted(0)) if colors else mode_color(modes[k])
                a.axvspan(t[k], t[end], color=color, lw=0, zorder=0)
            if modes[k] not in seen:
                seen.append(modes[k])
        k = end
    return seen


def _subscript(name):
    """A q' name of more than two contacts as the figures print it:
    "z12" -> "z₁₂", "th" -> "θ"."""
    return "θ" if name == "th" else name[0] + name[1:].translate(_SUBSCRIPTS)


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _many_series(q):
    """More than two contacts, q' named q (three names): the top panel's
    series, the bottom one's (name, legend text, colour key), and the two
    axis labels, as the C figure has them: gaps zK above, slips xK and the
    tilt th below; gaps only, or none, one panel."""
    keys = ("z1", "z2", "x2")  # the colour of each place in q'
    top, bottom = [], []
    for name, key in zip(q, keys):
        kind = "tilt" if name == "th" else f"{'gap' if name[0] == 'z' else 'slip'} {name[1:]}"
        (top if name[0] == "z" else bottom).append((name, f"{_subscript(name)} ({kind})", key))
    gaps = ", ".join(_subscript(n) for n, _, _ in top)
    slips = ", ".join(_subscript(n) for n, _, _ in bottom if n != "th")
    below = [f"{slips} [L]"] if slips else []
    below += ["θ [rad]"] if "th" in q else []
    labels = [f"{gaps} [L]" if gaps else "", ", ".join(below)]
    if not top:
        top, bottom, labels = bottom, [], [labels[1], ""]
    return top, bottom, labels


def trajectory(run, ax=None, title=None):
    """z1 and z2 (top) and x2 (bottom) of a run against t (one contact: z1
    and x1; more than two: q''s gaps above, its slips and tilt below, the
    bottom Axes hidden when q' holds gaps only), with a tick per event
    along both time axes (impacts taller and black). Returns the pair of
    Axes."""
    if not isinstance(run, Run):
        raise TypeError(f"expected zeno.Run, got {type(run).__name__}")
    if run.contact_count > 2:
        return _trajectory_many(run, ax, title)
    traj = run.trajectory
    if traj is None:
        raise ValueError("this run was simulated with trajectory=False")
    from matplotlib.patches import Patch

    top, bottom = _axes_pair(ax, (9, 6))
    modes = _mode_bands((top, bottom), traj.t, traj.mode)
    _event_ticks((top, bottom), run)
    # Two contacts: both gaps over the slip of contact 2; one contact (no
    # z2 column): its gap over its slip x1.
    two = "z2" in traj.columns
    gaps = ("z1", "z2") if two else ("z1",)
    slip = "x2" if two else "x1"
    names = _SERIES if two else _SERIES_ONE
    for name in gaps:
        top.plot(traj.t, traj[name], color=COLORS[name], lw=2, label=names[name])
    bottom.plot(traj.t, traj[slip], color=COLORS["x2"], lw=2, label=names[slip])
    top.set_ylabel("z₁, z₂ [L]" if two else "z₁ [L]")
    bottom.set_ylabel("x₂ [L]" if two else "x₁ [L]")
    bottom.set_xlabel(_T_LABEL)
    handles, labels = top.get_legend_handles_labels()
    order = [labels.index(names[n]) for n in gaps] + [
        labels.index(n) for n in ("event", "impact")]
    handles = [handles[i] for i in order[:len(gaps)]] + bottom.get_lines()[-1:] + [
        handles[i] for i in order[len(gaps):]]
    handles += [Patch(color=mode_color(m), label=m) for m in modes]
    pad = _legend_row(top, handles)
    if ax is None:  # our figure: room above for the title over the legend's rows
        fig = top.figure
        fig.subplots_adjust(top=min(_PAIR_TOP, 1 - (pad + _TITLE_ROOM) / (72 * fig.get_figheight())))
    coordinates = ", ".join(traj.columns[7:10])
    top.set_title(f"{run.scene.name}: q'(t) = ({coordinates})" if title is None else title,
                  pad=pad)
    return top, bottom


def _event_ticks(axes, run):
    """A tick per event along each Axes' time axis, impacts taller and black."""
    events = run.event_array
    finite = np.isfinite(events["t"])
    impact = events["kind"] == "impact"
    for a in axes:
        x = a.get_xaxis_transform()  # x in data, y in axes fraction
        a.vlines(events["t"][finite & ~impact], 0, 0.033, transform=x, color=COLORS["event"],
                 lw=1, label="event")
        a.vlines(events["t"][finite & impact], 0, 0.066, transform=x, color=COLORS["impact"],
                 lw=1, label="impact")


def _trajectory_many(run, ax, title):
    """trajectory() of a run of more than two contacts."""
    traj = run.trajectory
    if traj is None:
        raise ValueError("this run was simulated with trajectory=False")
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D

    q = list(traj.columns[7:10])
    top_series, bottom_series, labels = _many_series(q)
    top, bottom = _axes_pair(ax, (9, 6))
    axes = (top, bottom) if bottom_series else (top,)
    colors = _band_colors(list(traj.mode))
    modes = _mode_bands(axes, traj.t, traj.mode, colors)
    _event_ticks(axes, run)
    for a, chosen in zip(axes, (top_series, bottom_series)):
        for name, text, key in chosen:
            a.plot(traj.t, traj[name], color=COLORS[key], lw=2, label=text)
    top.set_ylabel(labels[0])
    if bottom_series:
        bottom.set_ylabel(labels[1])
    else:
        bottom.set_visible(False)
        top.xaxis.set_tick_params(labelbottom=True)
    axes[-1].set_xlabel(_T_LABEL)
    handles = [Line2D([], [], color=COLORS[key], lw=2, label=text)
               for _, text, key in top_series + bottom_series]
    handles += [Line2D([], [], color=COLORS[k], lw=1, label=k) for k in ("event", "impact")]
    handles += [Patch(color=colors.get(m, _tinted(0)), label=m) for m in modes]
    pad = _legend_row(top, handles)
    if ax is None:
        fig = top.figure
        fig.subplots_adjust(top=min(_PAIR_TOP, 1 - (pad + _TITLE_ROOM) / (72 * fig.get_figheight())))
    top.set_title(f"{run.scene.name}: q'(t) = ({', '.join(q)})" if title is None else title,
                  pad=pad)
    return top, bottom
