"""Outcome sweeps (:func:`sweep`): the scene simulated at every point of a
grid of two scene values, as ``zeno sweep SCENE --x PATH=LO:HI:N --y ...``
(zeno/sweep.h): how each run ends, when, after how many impacts, whether it
completed a Zeno sequence and where it rests; with ``magnitude`` the basin
estimate of the full model. Fields are named as the columns of
``sweep.csv``; each row of the grid is one C call that releases the GIL.
"""

import math

import numpy as np

from . import _zeno
from .arguments import axis_text, count, naming_axes, real, renamed
from .errors import ArgumentError
from .scene import Scene

__all__ = ["Sweep", "sweep"]

# The columns of q' at the end in sweep.csv, by contact count (for more
# than two contacts the N-contact engine's names, zeno_scene_zod_names()).
_Q_COLUMNS = {1: ("z1", "x1", "zod_theta"), 2: ("z1", "z2", "x2")}
_BASIN = ("basin_inner", "basin_outer", "basin_width", "basin_returns", "basin_transitions")
# The program's bounds of --basin-tol (the whole of epsilon's range) and
# --basin-turn [deg] (a half turn).
BASIN_TOL_MAX = 1.0
BASIN_TURN_MAX_DEG = 180.0


class Sweep:
    """``zeno sweep``: the axes' values ``x`` (nx) and ``y`` (ny), their
    paths, and (ny, nx) arrays of the columns of ``sweep.csv``: ``ok``
    (False: the point's scene could not be built, its message in
    ``error``), ``outcome`` (``"rest"``, ``"escaped"``, ...; ``""`` where not
    ok), ``t``, ``events``, ``impacts``, ``zeno`` (a Zeno sequence was
    completed), ``zeno_time`` (NaN without), ``final_zod`` ((ny, nx, 3): q'
    at the end, the columns ``q_columns``), ``energy_gains``, ``error``
    (``""`` where ok); with ``magnitude``, ``basin_inner``, ``basin_outer``,
    ``basin_width``, ``basin_returns``, ``basin_transitions`` (None
    without). Where a point is not ok, its floats are NaN and its counts 0;
    :meth:`to_pandas` has missing values there, as the table's empty fields.
    Row iy is y[iy]; ``threads`` is how many threads ran."""

    FIELDS = ("ok", "outcome", "t", "events", "impacts", "zeno", "zeno_time", "final_zod",
              "energy_gains", "error") + _BASIN

    def __init__(self, scene, d, basin):
        self.scene = scene
        self.x, self.y, self.x_path, self.y_path = d["x"], d["y"], d["x_path"], d["y_path"]
        self.threads, self.basin = d["threads"], basin
        self.q_columns = _Q_COLUMNS.get(scene.contact_count) or _zeno.zod_names(scene)
        for name in self.FIELDS:
            setattr(self, name, d.get(name))
        bad = ~self.ok
        for name in ("t", "zeno_time", "final_zod", "basin_inner", "basin_outer", "basin_width"):
            values = getattr(self, name)
            if values is not None:
                values[bad] = math.nan

    @property
    def shape(self):
        return self.ok.shape

    @property
    def columns(self):
        """The header of sweep.csv."""
        return (["ix", "iy", self.x_path, self.y_path, "outcome", "t", "events", "impacts", "zeno",
                 "zeno_time", *self.q_columns, "energy_gains"]
                + (list(_BASIN) if self.basin else []) + ["error"])

    def summary(self):
        """The counts of ``summary.json``: ``counts`` (points per outcome,
        those with any), ``zeno_then_rest``, ``errors`` (points not
        simulated) and, with ``magnitude``, ``basin`` (its settings and the
        counts of points that return at every, at none of the magnitudes,
        not monotonically, and the range of basin_inner; None when no point
        has one)."""
        ok = self.ok
        names, counts = np.unique(self.outcome[ok], return_counts=True)
        by_name = dict(zip(names.tolist(), counts.tolist()))
        order = _zeno.OUTCOMES
        d = {"counts": {name: by_name[name] for name in order if name in by_name},
             "zeno_then_rest": int((ok & self.zeno & (self.outcome == "rest")).sum()),
             "errors": int((~ok).sum())}
        if self.basin:
            inner = self.basin_inner[ok & ~np.isnan(self.basin_inner)]
            d["basin"] = dict(self.basin,
                              all_return=int((self.basin_returns[ok] == self.basin["count"]).sum()),
                              none_return=int((self.basin_returns[ok] == 0).sum()),
                              non_monotone=int((self.basin_transitions[ok] > 1).sum()),
                              inner_min=float(inner.min()) if inner.size else None,
                              inner_max=float(inner.max()) if inner.size else None)
        return d

    def to_pandas(self):
        """One row per point, the columns of sweep.csv (``zeno`` as a
        nullable boolean); where a point was not simulated its results are
        missing (``<NA>``, NaN, None), as ``pandas.read_csv("sweep.csv")``
        reads the empty fields, and ``error`` is None where there is none."""
        import pandas
        iy, ix = (i.ravel() for i in np.indices(self.shape))
        bad = ~self.ok.ravel()

        def integers(values):
            column = pandas.array(values.ravel(), dtype="Int64")
            column[bad] = pandas.NA
            return column

        columns = {"ix": ix, "iy": iy, self.x_path: self.x[ix], self.y_path: self.y[iy],
                   "outcome": np.where(bad, None, self.outcome.ravel().astype(object)),
                   "t": self.t.ravel(), "events": integers(self.events),
                   "impacts": integers(self.impacts)}
        zeno = pandas.array(self.zeno.ravel(), dtype="boolean")
        zeno[bad] = pandas.NA
        columns["zeno"] = zeno
        columns["zeno_time"] = self.zeno_time.ravel()
        for k, name in enumerate(self.q_columns):
            columns[name] = self.final_zod[..., k].ravel()
        columns["energy_gains"] = integers(self.energy_gains)
        if self.basin:
            for name in _BASIN[:3]:
                columns[name] = getattr(self, name).ravel()
            for name in _BASIN[3:]:
                columns[name] = integers(getattr(self, name))
        error = self.error.ravel()
        columns["error"] = np.where(error == "", None, error.astype(object))
        return pandas.DataFrame(columns)

    def __repr__(self):
        counts = ", ".join(f"{k} {v}" for k, v in self.summary()["counts"].items())
        errors = int((~self.ok).sum())
        return (f"<zeno.Sweep of {self.scene.name!r} over {self.x_path} x {self.y_path}: "
                f"{self.shape[1]} x {self.shape[0]}, {counts}"
                f"{f', {errors} errors' if errors else ''}>")


def _magnitude(magnitude):
    """--magnitude's "LO:HI:N" from that text or (lo, hi, count)."""
    if isinstance(magnitude, str):
        return magnitude
    try:
        lo, hi, n = magnitude
    except (TypeError, ValueError):
        raise TypeError("sweep(magnitude=...): expected (lo, hi, count) or 'LO:HI:N', got "
                        f"{type(magnitude).__name__}") from None
    call = "sweep"
    return (f"{real(lo, call, 'magnitude[0]')!r}:{real(hi, call, 'magnitude[1]')!r}:"
            f"{count(n, call, 'magnitude[2]')}")


def _bounded(value, name, hi):
    """A real in (0, hi], as the program's --basin-tol and --basin-turn."""
    v = real(value, "sweep", name)
    if not 0 < v <= hi:
        message = f"value {value!r} out of range; allowed (0, {hi:g}]"
        raise ArgumentError(f"sweep({name}=...): {message}", code="range", message=message,
                            key=name)
    return v


def sweep(scene, x, y, threads=None, magnitude=None, basin_tol=None, basin_turn=None,
          overrides=None):
    """The outcomes of the scene's runs over a grid of two scene values, as
    ``zeno sweep SCENE --x PATH=LO:HI:N --y ...``: ``x=("initial.qdp.2", -1,
    1, 41)`` or ``x="initial.qdp.2=-1:1:41"``. ``threads`` (default: all
    cores) spreads each row's points over OpenMP threads. ``magnitude=(lo,
    hi, n)`` is the basin estimate of ``--magnitude`` (full model, start
    given as initial.qp/qdp): n magnitudes of the scene's epsilon scanned
    and the edges bisected to ``basin_tol``; ``basin_turn`` is the largest
    turn of a returning run in degrees (as ``--basin-turn``). ``overrides``
    are applied to the scene first. Ctrl-C stops the sweep within a run's
    events."""
    if not isinstance(scene, Scene):
        raise TypeError(f"expected a zeno.Scene, got {type(scene).__name__}")
    if overrides is not None:
        scene = scene._overridden(overrides, "sweep(overrides=...)")
    for name, value in (("basin_tol", basin_tol), ("basin_turn", basin_turn)):
        if value is not None and magnitude is None:
            raise ArgumentError(f"sweep({name}=...): only with magnitude (the basin estimate)",
                                code="argument", message="only with magnitude", key=name)
    default = _zeno.SWEEP_BASIN_DEFAULTS
    options = {"threads": None if threads is None else count(threads, "sweep", "threads")}
    basin = None
    if magnitude is not None:
        options["magnitude"] = _magnitude(magnitude)
        tol = default["tol"] if basin_tol is None else _bounded(basin_tol, "basin_tol",
                                                                 BASIN_TOL_MAX)
        # Radians as the program converts --basin-turn: degrees / (180 / pi).
        turn = default["turn_max"] if basin_turn is None else (
            _bounded(basin_turn, "basin_turn", BASIN_TURN_MAX_DEG) * (1 / (180.0 / math.pi)))
        options.update(basin_tol=tol, basin_turn=turn)
    axes = {"x": axis_text(x, "sweep", "x"), "y": axis_text(y, "sweep", "y")}
    with naming_axes("sweep", axes, {"threads": "threads", "basin": "magnitude"}):
        d = _zeno.sweep(scene._text, scene._name, list(scene._overrides), axes["x"], axes["y"],
                        **options)
    if magnitude is not None:
        lo, hi, n = options["magnitude"].split(":")
        basin = {"lo": float(lo), "hi": float(hi), "count": int(n), "tol": options["basin_tol"],
                 "turn_max": options["basin_turn"]}
    return Sweep(scene, d, basin)
