"""Lyapunov certificates by sums of squares (:func:`certify`), as ``zeno
certify`` (zeno/certify.h, docs/certificate.md): V1 the mechanical energy
and V2 = c x2 + W(z1, z2, u1, u2, w2), searched by CSDP and decided
exactly. The certificate library (CSDP, GMP, BLAS, LAPACK) is loaded when
:func:`certify` is first called, never by ``import zeno``.
"""

import math
from dataclasses import dataclass, field

import numpy as np

from .arguments import count, naming, real
from .scene import Scene

__all__ = ["Certificate", "CertificateRun", "certify"]

# V2's variables, the order of its exponents.
VARIABLES = ("z1", "z2", "u1", "u2", "w2")
# The columns of v_events.csv (`zeno certify --out DIR`).
RUN_COLUMNS = ("t", "kind", "v1_before", "v2_before", "v1_after", "v2_after")


class CertificateRun:
    """V1 and V2 before and after each event of a run, the rows of
    ``v_events.csv`` (``zeno certify --out DIR``): arrays ``t``, ``kind``,
    ``v1_before``, ``v2_before``, ``v1_after``, ``v2_after``, in the
    scene's own energy unit."""

    __slots__ = RUN_COLUMNS

    def __init__(self, columns):
        for name in RUN_COLUMNS:
            setattr(self, name, columns[name])

    def __len__(self):
        return len(self.t)

    def to_pandas(self):
        """The rows as a pandas DataFrame, the columns of v_events.csv."""
        import pandas
        return pandas.DataFrame({name: getattr(self, name) for name in RUN_COLUMNS})

    def __repr__(self):
        return f"<zeno.CertificateRun: {len(self)} events>"


@dataclass(frozen=True, eq=False)
class Certificate:
    """``zeno certify --json``: ``certified`` (never "unstable": not
    certified proves nothing), ``reason`` ("" when certified), ``refused``
    (before any semidefinite program), ``solver_status``, ``csdp_code``,
    ``exact``, ``equalities``, ``solver_margin``, ``projection``,
    ``sdp_order``, ``sdp_constraints``, ``conditions``, ``unknowns``,
    ``seconds``, ``units_log2`` (the scene's own units as powers of two);
    V1's ``v1_b`` (3) and ``v1_mass`` (3 x 3), V2's ``v2_x2`` (c) and its
    terms ``v2_exponents`` ((terms, 5) ints over z1 z2 u1 u2 w2) and
    ``v2_coefs``; the check's ``check_runs``, ``check_events``,
    ``check_max_increase``. Coefficients are in the scene's own units."""

    scene: Scene
    certified: bool
    refused: bool
    reason: str
    solver_status: str
    csdp_code: int
    exact: bool
    equalities: int
    solver_margin: float
    projection: float
    sdp_order: int
    sdp_constraints: int
    conditions: int
    unknowns: int
    seconds: float
    units_log2: dict
    v1_b: np.ndarray
    v1_mass: np.ndarray
    v2_x2: float
    v2_exponents: np.ndarray
    v2_coefs: np.ndarray
    check_runs: int
    check_events: int
    check_max_increase: float
    _handle: object = field(repr=False)

    def to_dict(self):
        """The object ``zeno certify --json`` prints (without ``warnings``;
        a number that is not finite is None, JSON's null)."""
        def number(v):
            return v if math.isfinite(v) else None

        return {
            "scene": self.scene.name, "certified": self.certified, "refused": self.refused,
            "reason": self.reason, "solver_status": self.solver_status,
            "csdp_code": self.csdp_code, "exact": self.exact, "equalities": self.equalities,
            "solver_margin": number(self.solver_margin), "projection": number(self.projection),
            "sdp_order": self.sdp_order, "sdp_constraints": self.sdp_constraints,
            "conditions": self.conditions, "unknowns": self.unknowns,
            "seconds": number(self.seconds),
            "units_log2": dict(self.units_log2),
            "v1": {"b": self.v1_b.tolist(), "mass": self.v1_mass.tolist()},
            "v2": {"variables": list(VARIABLES), "x2": number(self.v2_x2),
                   "terms": [{"exponents": e, "coef": c}
                             for e, c in zip(self.v2_exponents.tolist(), self.v2_coefs.tolist())]},
            "check": {"runs": self.check_runs, "events": self.check_events,
                      "max_increase": self.check_max_increase}}

    def to_pandas(self):
        """V2's terms W, one row per term: the exponents of z1 z2 u1 u2 w2
        and ``coef`` (the x2 term, ``v2_x2``, is not among them)."""
        import pandas
        columns = {v: self.v2_exponents[:, k] for k, v in enumerate(VARIABLES)}
        columns["coef"] = self.v2_coefs
        return pandas.DataFrame(columns)

    def evaluate(self, states):
        """V1 and V2 at ZOD states (z1, z2, x2, u1, u2, w2) in the user's
        units: one state gives two floats, an (n, 6) array two arrays."""
        from . import _certify
        a = np.asarray(states, dtype=float)
        if a.shape[-1:] != (6,) or a.ndim > 2:
            raise ValueError(f"evaluate: states must be 6 numbers or (n, 6), got shape {a.shape}")
        v1, v2 = _certify.evaluate(self._handle, a.reshape(-1, 6).tolist())
        if a.ndim == 1:
            return v1[0], v2[0]
        return np.array(v1), np.array(v2)

    def along(self, run=None):
        """V1 and V2 before and after each event of ``run`` (a
        :class:`~zeno.Run`; default: the scene's own run, as ``zeno
        certify --out DIR`` writes them to v_events.csv)."""
        from .simulation import Run, simulate
        if run is None:
            run = simulate(self.scene, trajectory=False)
        elif not isinstance(run, Run):
            raise TypeError(f"along(run=...): expected a zeno.Run, got {type(run).__name__}")
        events = run.event_array

        def states(which):
            return np.concatenate([events[which]["zod"], events[which]["zod_rate"]], axis=1)

        v1_before, v2_before = self.evaluate(states("before").reshape(-1, 6))
        v1_after, v2_after = self.evaluate(states("after").reshape(-1, 6))
        return CertificateRun({"t": events["t"].copy(), "kind": events["kind"].copy(),
                               "v1_before": v1_before, "v2_before": v2_before,
                               "v1_after": v1_after, "v2_after": v2_after})

    def __repr__(self):
        verdict = "certified" if self.certified else f"not certified ({self.reason})"
        return f"<zeno.Certificate of {self.scene.name!r}: {verdict}>"


def certify(scene, degree=2, check=0, eps=None, max_iterations=None, check_size=None,
            check_seed=None, overrides=None):
    """A Lyapunov certificate of the scene's equilibrium, as ``zeno certify
    SCENE --degree D --check N`` (the GIL is released meanwhile, Ctrl-C
    stops it before or after its semidefinite program and between the
    check's events). ``degree`` is V2's weighted degree (2..4), ``check``
    the random perturbed runs that V1 and V2 must not grow along; ``eps``,
    ``max_iterations``, ``check_size`` and ``check_seed`` as
    zeno_certify_def (None: its defaults). Not certifying is a result
    (``reason`` says why), never an exception."""
    if not isinstance(scene, Scene):
        raise TypeError(f"expected a zeno.Scene, got {type(scene).__name__}")
    if overrides is not None:
        scene = scene._overridden(overrides, "certify(overrides=...)")
    settings = {"degree": count(degree, "certify", "degree"),
                "check_runs": count(check, "certify", "check")}
    for name, value, kind in (("eps", eps, real), ("max_iterations", max_iterations, count),
                              ("check_size", check_size, real), ("check_seed", check_seed, count)):
        if value is not None:
            settings[name] = kind(value, "certify", name)
    from . import _certify
    names = {"degree": "degree", "check_runs": "check", "eps": "eps",
             "max_iterations": "max_iterations", "check_size": "check_size",
             "check_seed": "check_seed"}
    with naming("certify", names):
        d, handle = _certify.certify(scene._text, scene._name, list(scene._overrides), **settings)
    terms = d.pop("v2_terms")
    return Certificate(
        scene=scene, **{k: v for k, v in d.items() if k not in ("v1_b", "v1_mass")},
        v1_b=np.array(d["v1_b"]), v1_mass=np.array(d["v1_mass"]),
        v2_exponents=np.array([e for e, _ in terms], dtype=np.int64).reshape(-1, 5),
        v2_coefs=np.array([c for _, c in terms], dtype=float), _handle=handle)
