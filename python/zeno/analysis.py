"""Static analyses of a scene's equilibrium: :func:`check` (feasibility,
ordering (13), ambiguity, Painlevé bounds), :func:`maps` (the Poincaré maps
R and G), :func:`analyze` (the verdict of Theorems 1-4) and
:func:`regions` (the verdict over a grid of two scene values). Fields are
named as in ``zeno check --json``, ``zeno analyze --json``, ``zeno maps
--csv`` and ``regions.csv``; each computation is one C call that releases
the GIL.
"""

import math
from dataclasses import dataclass

import numpy as np

from . import _zeno
from .arguments import axis_text, count, naming, naming_axes
from .scene import Scene

__all__ = ["Painleve", "Equilibrium", "FixedPoint", "Maps", "Interval", "Analysis",
           "Regions", "check", "maps", "analyze", "regions"]

_DEFAULTS = _zeno.DEFAULTS


def _scene(scene):
    if not isinstance(scene, Scene):
        raise TypeError(f"expected a zeno.Scene, got {type(scene).__name__}")
    return scene


def _finite_or_none(v):
    return v if v is not None and math.isfinite(v) else None




@dataclass(frozen=True)
class Painleve:
    """Painlevé bound (11) of one contact: slipping on it alone is free of
    the paradox while ``mu < bound`` (``ok``); ``bound`` may be inf."""

    contact: int
    mu: float
    bound: float
    ok: bool


@dataclass(frozen=True)
class Equilibrium:
    """``zeno check``: the nominal equilibrium (``zeno_equilibrium_report``)."""

    scene: str
    feasible: bool
    margin: float
    forces: np.ndarray        # (contacts, 2): (normal, tangential) balancing forces
    zdd_ff: np.ndarray        # normal accelerations under FF
    index_order_ok: bool
    index_order_swappable: bool
    ambiguous: tuple          # non-static modes consistent at rest (Theorem 1)
    painleve: tuple           # Painleve per contact
    wedged: bool

    @classmethod
    def _from(cls, d):
        return cls(d["scene"], d["feasible"], d["margin"], d["forces"], d["zdd_ff"],
                   d["index_order_ok"], d["index_order_swappable"], tuple(d["ambiguous"]),
                   tuple(Painleve(**p) for p in d["painleve"]), d["wedged"])


@dataclass(frozen=True)
class ContactSetCheck:
    """``zeno check`` of a scene of more than two contacts: Pang & Trinkle's
    static stability for N contacts (``zeno_contact_set_check``), its
    members those of ``zeno check --json`` (docs/outputs.md)."""

    scene: str
    contact_count: int
    feasible: bool
    margin: float              # None in the JSON (no force balances the load): NaN here
    wedged: bool
    forces: np.ndarray         # (contacts, 2): (normal, tangential) balancing forces
    weakly_stable: bool
    frictionless_stable: bool
    strongly_stable: bool
    ambiguous: bool
    modes_examined: int
    unstable_mode_count: int
    unstable_modes: tuple      # names of the modes moving from rest, one letter per contact
    theorem4_checked: bool
    theorem4_systems: int
    theorem4_consistent: int
    weak_implies_strong: bool

    @classmethod
    def _from(cls, d):
        d = dict(d)
        d["margin"] = math.nan if d["margin"] is None else d["margin"]
        d["forces"] = np.array(d["forces"], dtype=float).reshape(-1, 2)
        d["unstable_modes"] = tuple(d["unstable_modes"])
        return cls(**d)


@dataclass(frozen=True)
class FixedPoint:
    """A fixed point of R: finite, or limiting at +-pi/2 (Lemma 3). On a
    breakpoint (``at_breakpoint``) the words on either side, whether the
    exact cycle from it ``returns`` to it, and whether it decides on a
    ``tie`` (its ``tie_margin``); None for the others."""

    phi: float
    G: float
    slope: float
    convergent: bool
    limiting: bool
    at_breakpoint: bool = False
    word_left: str | None = None
    word_right: str | None = None
    returns: bool | None = None
    tie: bool | None = None
    tie_margin: float | None = None


class Maps:
    """The maps R (26) and G (27) over the section angle phi (``zeno maps``):
    arrays ``phi``, ``R``, ``G``, ``T`` (NaN where the cycle does not return),
    ``defined``, ``words`` (the cycle words), ``outcomes`` (impact outcome
    letters), ``end`` (how an undefined cycle ended); ``breakpoints``,
    ``fixed_points``, ``G_max``, ``G_minus``, ``G_plus`` (None where
    undefined) and ``swapped`` (contacts swapped for (13))."""

    __slots__ = ("scene", "phi", "R", "G", "T", "defined", "words", "outcomes", "end",
                 "breakpoints", "fixed_points", "G_max", "G_minus", "G_plus", "swapped")

    def __init__(self, scene, d):
        self.scene = scene
        self.phi, self.R, self.G, self.T = d["phi"], d["R"], d["G"], d["T"]
        self.defined, self.words, self.outcomes, self.end = (
            d["defined"], d["word"], d["outcomes"], d["end"])
        self.breakpoints = d["breakpoints"]
        self.fixed_points = tuple(FixedPoint(**p) for p in d["fixed_points"])
        self.G_max = _finite_or_none(d["G_max"])
        self.G_minus, self.G_plus, self.swapped = d["G_minus"], d["G_plus"], d["swapped"]

    @property
    def samples(self):
        return len(self.phi)

    def __repr__(self):
        return (f"<zeno.Maps of {self.scene.name!r}: {self.samples} samples, "
                f"{len(self.fixed_points)} fixed points, G_max {self.G_max}>")


@dataclass(frozen=True)
class Interval:
    """An interval of the merged Theorem 4 partition."""

    lo: float
    hi: float
    safe: bool


class Analysis:
    """``zeno analyze``: the verdict (``"stable"``, ``"unstable"``,
    ``"undecided"``), ``theorem`` (1-4 or None), ``region`` (0-7),
    ``reason``, ``persistent``, the equilibrium (``feasible``, ``margin``,
    ``painleve``, ``equilibrium``), the maps' summary (``swapped``,
    ``samples``, ``breakpoints``, ``fixed_points``, ``G_max``, ``G_minus``,
    ``G_plus``; ``maps`` is the whole :class:`Maps`, None when not computed)
    and the Theorem 4 ``partition`` (merged intervals, empty unless Theorem
    4 decided), with ``partition_edges``/``partition_safe`` unmerged."""

    def __init__(self, scene, d):
        self.scene = scene
        self.verdict, self.theorem, self.region = d["verdict"], d["theorem"], d["region"]
        self.reason, self.persistent = d["reason"], d["persistent"]
        self.equilibrium = Equilibrium._from(d["equilibrium"])
        self.maps = Maps(scene, d["maps"]) if d["maps"] is not None else None
        self.partition = tuple(Interval(*iv) for iv in d["partition"])
        self.partition_edges, self.partition_safe = d["partition_edges"], d["partition_safe"]
        self.unsafe_count = d["unsafe_count"]

    feasible = property(lambda self: self.equilibrium.feasible)
    margin = property(lambda self: self.equilibrium.margin)
    painleve = property(lambda self: self.equilibrium.painleve)
    swapped = property(lambda self: bool(self.maps and self.maps.swapped))
    samples = property(lambda self: self.maps.samples if self.maps else 0)
    breakpoints = property(lambda self: self.maps.breakpoints if self.maps else np.empty(0))
    fixed_points = property(lambda self: self.maps.fixed_points if self.maps else ())
    G_max = property(lambda self: self.maps.G_max if self.maps else None)
    G_minus = property(lambda self: self.maps.G_minus if self.maps else None)
    G_plus = property(lambda self: self.maps.G_plus if self.maps else None)

    def __repr__(self):
        by = f" by Theorem {self.theorem}" if self.theorem else ""
        return f"<zeno.Analysis of {self.scene.name!r}: {self.verdict}{by}, region {self.region}>"


class Regions:
    """``zeno regions``: the axes' values ``x`` (nx) and ``y`` (ny), their
    paths, and (ny, nx) arrays of the fields of ``regions.csv``: ``region``,
    ``region_name`` (``zeno_region_name``: "stable (Theorem 3)", ...),
    ``theorem`` (1-4; 0 where no theorem decides, an empty field in
    regions.csv), ``verdict``, ``persistent``, ``has_maps``, ``G_max``,
    ``fixed_point_phi``, ``fixed_point_G``, ``fixed_points``, ``partition``,
    ``unsafe``, ``mc_runs``, ``mc_rest``, ``mc_full_runs``, ``mc_full_rest``,
    ``sim``, ``on_breakpoint`` (0, 1 a fixed point of R on a breakpoint
    decided by its exact cycle, 2 a tie), ``error``; row iy is y[iy]. A point that could not be analysed
    (a degenerate geometry, say) has region -1 and its one-line message in
    ``error`` ("" elsewhere). ``threads`` is how many threads ran."""

    FIELDS = ("region", "region_name", "theorem", "verdict", "persistent", "has_maps", "G_max",
              "fixed_point_phi", "fixed_point_G", "fixed_points", "partition", "unsafe",
              "mc_runs", "mc_rest", "mc_full_runs", "mc_full_rest", "sim", "on_breakpoint",
              "error")

    def __init__(self, scene, d):
        self.scene = scene
        self.x, self.y, self.x_path, self.y_path = d["x"], d["y"], d["x_path"], d["y_path"]
        self.threads = d["threads"]
        for name in self.FIELDS:
            setattr(self, name, d[name])

    @property
    def shape(self):
        return self.region.shape

    def to_pandas(self):
        """One row per point (ix, iy, the two values named by their paths, the
        fields), as regions.csv; ``theorem`` is a nullable integer column
        (``<NA>`` where no theorem decides), as
        ``pandas.read_csv("regions.csv", dtype={"theorem": "Int64"})`` reads it."""
        import pandas
        iy, ix = np.indices(self.shape)
        columns = {"ix": ix.ravel(), "iy": iy.ravel(), self.x_path: self.x[ix.ravel()],
                   self.y_path: self.y[iy.ravel()]}
        columns.update({name: getattr(self, name).ravel() for name in self.FIELDS})
        theorem = pandas.array(self.theorem.ravel(), dtype="Int64")
        theorem[theorem == 0] = pandas.NA
        columns["theorem"] = theorem
        return pandas.DataFrame(columns)

    def __repr__(self):
        analysed = self.region[self.region >= 0]
        counts = np.bincount(analysed.ravel(), minlength=8)
        errors = self.region.size - analysed.size
        return (f"<zeno.Regions of {self.scene.name!r} over {self.x_path} x {self.y_path}: "
                f"{self.shape[1]} x {self.shape[0]}, region counts {counts.tolist()}"
                f"{f', {errors} errors' if errors else ''}>")


def check(scene):
    """The nominal equilibrium: feasibility (LP), ordering (13), ambiguity
    (Theorem 1) and the Painlevé bounds (11), as ``zeno check``
    (``Equilibrium``); for a scene of more than two contacts Pang & Trinkle's
    static stability for N contacts (``ContactSetCheck``), as ``zeno check``
    prints it."""
    s = _scene(scene)
    if s.contact_count > 2:
        import json
        return ContactSetCheck._from(json.loads(_zeno.contact_set_json(s)))
    return Equilibrium._from(_zeno.check(s))


def maps(scene, samples=None):
    """The maps R and G at ``samples`` uniform section angles (default 6000)
    plus both sides of every breakpoint, as ``zeno maps``."""
    samples = _DEFAULTS["samples"] if samples is None else count(samples, "maps", "samples")
    scene = _scene(scene)
    with naming("maps", {"samples": "samples"}):
        return Maps(scene, _zeno.maps(scene, samples))


def analyze(scene, samples=None, partition=None):
    """The stability verdict of Theorems 1-4, as ``zeno analyze`` (maps at
    ``samples`` angles, Theorem 4 with ``partition`` uniform intervals)."""
    samples = _DEFAULTS["samples"] if samples is None else count(samples, "analyze", "samples")
    partition = (_DEFAULTS["partition"] if partition is None
                 else count(partition, "analyze", "partition"))
    scene = _scene(scene)
    with naming("analyze", {"samples": "samples", "partition": "partition"}):
        return Analysis(scene, _zeno.analyze(scene, samples, partition))


def regions(scene, x, y, threads=None, samples=None, intervals=None, mc_runs=None,
            mc_seed=None, mc_full=False, overrides=None):
    """The region map of two scene values, as ``zeno regions SCENE --x
    PATH=LO:HI:N --y ...``: ``x=("com.x", -2.5, 2, 60)``. ``threads``
    (default: all cores) spreads each row's points over OpenMP threads;
    ``samples``, ``intervals``, ``mc_runs``, ``mc_seed`` and ``mc_full`` as
    the command's options; ``overrides`` are applied to the scene first.
    Ctrl-C stops the sweep between rows."""
    scene = _scene(scene)
    if overrides is not None:
        scene = scene._overridden(overrides, "regions(overrides=...)")
    options = {"threads": None if threads is None else count(threads, "regions", "threads"),
               "mc_full": bool(mc_full)}
    for key, value in (("samples", samples), ("intervals", intervals), ("mc_runs", mc_runs),
                       ("mc_seed", mc_seed)):
        if value is not None:
            options[key] = count(value, "regions", key)
    axes = {"x": axis_text(x, "regions", "x"), "y": axis_text(y, "regions", "y")}
    with naming_axes("regions", axes, {k: k for k in ("threads", "samples", "intervals",
                                                       "mc_runs", "mc_seed")}):
        d = _zeno.regions(scene._text, scene._name, list(scene._overrides), axes["x"],
                          axes["y"], **options)
    return Regions(scene, d)


