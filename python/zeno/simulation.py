"""Simulations: :func:`simulate` runs a scene to its end in one C call;
:class:`Simulator` steps through a run event by event like the C loop.

Events and states come as frozen dataclasses whose fields follow
``events.jsonl`` (``zeno simulate --out``), and all at once as a
structured numpy array (``Run.event_array``, dtype ``EVENT_DTYPE`` for one
and two contacts, ``event_dtype(n)`` for a scene of n contacts). The
trajectory is the rows of ``trajectory.csv``: samples every ``sample_dt``
strictly between events plus the states just before and after each event.
"""

from dataclasses import dataclass

import numpy as np

from . import _zeno
from .scene import Scene

__all__ = ["State", "Event", "Trajectory", "Run", "simulate", "Simulator",
           "EVENT_DTYPE", "STATE_DTYPE", "event_dtype", "state_dtype"]

EVENT_DTYPE = _zeno.EVENT_DTYPE
STATE_DTYPE = _zeno.STATE_DTYPE


def event_dtype(n):
    """The dtype of the event records of a scene of ``n`` contacts (1 to 16):
    ``EVENT_DTYPE`` for one and two (a one-contact run leaves the second
    entries zero); for more, the same fields with one entry per contact
    (``impulse`` (n, 2), ``impact_outcome`` (n,)) and modes of n letters
    (``mode_before``, ``mode_after``, ``impact``, ``consistent``), the
    states before and after of ``state_dtype(n)``. ArgumentError naming
    ``contacts`` for another count."""
    return _zeno.event_dtype(n)


def state_dtype(n):
    """The dtype of the state records of a scene of ``n`` contacts (1 to 16):
    ``STATE_DTYPE`` for one and two; for more, ``gap``, ``gap_rate``,
    ``slip``, ``slip_rate`` (n,), ``force`` (n, 2) and a ``mode`` of n
    letters."""
    return _zeno.state_dtype(n)


def _columns(a, names):
    """Python lists of the named fields of a structured array (one C pass each)."""
    return [a[name].tolist() for name in names]


def _contact_count(modes):
    return len(modes[0]) if modes else 0


_STATE_FIELDS = ("t", "q", "qdot", "zod", "zod_rate", "gap", "gap_rate", "slip", "slip_rate",
                 "mode", "force", "energy")


@dataclass(frozen=True)
class State:
    """The mechanical state at one time (``zeno_state``). Per-contact tuples
    have one entry per contact; ``force`` one (normal, tangential) pair."""

    t: float
    q: tuple          # (x, y, theta) displacement from the nominal pose
    qdot: tuple       # (vx, vy, omega)
    zod: tuple        # q' = (z1, z2, x2)
    zod_rate: tuple
    gap: tuple        # z_i
    gap_rate: tuple
    slip: tuple       # x_i
    slip_rate: tuple
    mode: str         # mode in force after this instant, e.g. "PF"
    force: tuple      # ((f1n, f1t), (f2n, f2t))
    energy: float

    @classmethod
    def from_array(cls, a):
        """The states of a 1-D array of ``STATE_DTYPE``."""
        t, q, qdot, zod, zod_rate, gap, gap_rate, slip, slip_rate, mode, force, energy = (
            _columns(a, _STATE_FIELDS))
        n = _contact_count(mode)
        return [cls(t[i], tuple(q[i]), tuple(qdot[i]), tuple(zod[i]), tuple(zod_rate[i]),
                    tuple(gap[i][:n]), tuple(gap_rate[i][:n]), tuple(slip[i][:n]),
                    tuple(slip_rate[i][:n]), mode[i], tuple(map(tuple, force[i][:n])), energy[i])
                for i in range(len(a))]


_EVENT_FIELDS = ("index", "t", "kind", "guard", "contact", "mode_before", "mode_after",
                 "impact", "impulse", "impact_outcome", "on_section", "section_angle",
                 "zeno_impacts", "zeno_ratio", "zeno_error", "zeno_period", "zeno_order",
                 "outcome",
                 "solver_flag", "consistent_count", "consistent", "refusal", "refusal_contact",
                 "refusal_of_impact", "guard_residual", "constraint_drift", "tie_margin",
                 "near_tie")
_LETTERS = "FSPN"  # zeno_letter order: a mode code is letter[0] + 4 letter[1]


def _proof(refusal, contact, of_impact, n):
    """An inconsistent END's proof as ``zeno simulate --json`` writes it:
    {"of": "mode" or "impact", "refused": [(mode or candidate, why,
    contact or None), ...]}."""
    refused = [((_LETTERS[code % 4] + _LETTERS[code // 4] + "F" * (n - 2))[:n], why,
                int(contact[code]) or None)
               for code, why in enumerate(refusal) if why]
    return {"of": "impact" if of_impact else "mode", "refused": refused}


@dataclass(frozen=True)
class Event:
    """One event of a run (``zeno_event``), fields as in ``events.jsonl``:
    ``contact`` is 1-based (None: none), ``impact`` and ``impact_outcome``
    only for impacts, ``section_angle`` only on the Poincaré section, the
    ``zeno_*`` fields for ZENO events (ratio and period also for a diverging
    END), ``outcome`` for the END event; None where the event has none."""

    index: int
    t: float
    kind: str                 # start, impact, transition, zeno, end
    guard: str
    contact: int | None
    mode_before: str
    mode_after: str
    impact: str | None        # IF, FI, II (I for one contact)
    impulse: tuple            # ((normal, tangential) per contact)
    impact_outcome: tuple | None  # per contact: S, P, N or None
    before: State
    after: State
    on_section: bool
    section_angle: float | None
    zeno_impacts: int | None
    zeno_ratio: float | None
    zeno_error: float | None
    zeno_period: int | None
    zeno_order: int | None    # 1: impacts completed; 2: a chain of completions
    outcome: str | None
    consistent_modes: tuple
    proof: dict | None        # END(inconsistent): every mode or impact candidate refused, and why
    solver_flag: str | None
    guard_residual: float
    constraint_drift: float
    tie_margin: float
    near_tie: bool

    @classmethod
    def from_array(cls, a):
        """The events of a 1-D array of ``EVENT_DTYPE``."""
        (index, t, kind, guard, contact, before_mode, after_mode, impact, impulse, letters,
         on_section, section, z_impacts, z_ratio, z_error, z_period, z_order, outcome, flag,
         consistent_count, consistent, refusal, refusal_contact, of_impact, residual, drift, tie,
         near) = _columns(a, _EVENT_FIELDS)
        n = _contact_count(before_mode)
        before, after = State.from_array(a["before"]), State.from_array(a["after"])
        events = []
        for i, k in enumerate(kind):
            hit, zeno, end = k == "impact", k == "zeno", outcome[i] or None
            diverging = end == "diverging"
            events.append(cls(
                index[i], t[i], k, guard[i], contact[i] or None, before_mode[i], after_mode[i],
                impact[i] if hit else None, tuple(map(tuple, impulse[i][:n])),
                tuple(x or None for x in letters[i][:n]) if hit else None,
                before[i], after[i], on_section[i], section[i] if on_section[i] else None,
                z_impacts[i] if zeno else None, z_ratio[i] if zeno or diverging else None,
                z_error[i] if zeno else None, z_period[i] if zeno or diverging else None,
                z_order[i] if zeno else None,
                end, tuple(consistent[i][:consistent_count[i]]),
                _proof(refusal[i], refusal_contact[i], of_impact[i], n)
                if end == "inconsistent" else None,
                flag[i] if end == "solver-failure" else None, residual[i], drift[i], tie[i],
                near[i]))
        return events


class Trajectory:
    """The rows of ``trajectory.csv`` as numpy arrays, one per column, named
    as in its header: for two contacts ``t, x, y, theta, vx, vy, omega, z1,
    z2, x2, z1dot, z2dot, x2dot, f1n, f1t, f2n, f2t`` (float64); for one
    contact ``z1, x1, zod_theta, z1dot, x1dot, zod_thetadot`` in place of
    the q' columns and ``f1n, f1t`` only (``columns`` says which); ``mode``
    (str), ``kind`` ("sample", "before" or "after" an event) and ``event``
    (the index of the event the row leads to or belongs to), as the engine
    records them. ``values`` is the float columns as one (len(columns),
    rows) array; ``header`` every column of trajectory.csv in order."""

    __slots__ = ("values", "mode", "kind", "event", "columns", "header")
    COLUMNS = _zeno.TRAJECTORY_COLUMNS  # the float columns of a two-contact scene
    COLUMNS_ONE_CONTACT = _zeno.TRAJECTORY_COLUMNS_ONE_CONTACT

    def __init__(self, d):
        self.values, self.mode, self.kind, self.event = d["values"], d["mode"], d["kind"], d["event"]
        self.columns, self.header = d["columns"], d["header"]

    def __len__(self):
        return self.values.shape[1]

    def __repr__(self):
        return f"<zeno.Trajectory: {len(self)} rows>"

    def __getitem__(self, name):
        """The column ``name`` of trajectory.csv (KeyError when it has none)."""
        if name in ("mode", "kind", "event"):
            return getattr(self, name)
        if name not in self.columns:
            raise KeyError(f"no column {name!r} in this trajectory; its columns: "
                           f"{', '.join(self.header)}")
        return self.values[self.columns.index(name)]

    def to_dict(self):
        """Column name -> array, in the order of trajectory.csv."""
        return {name: self[name] for name in self.header}

    def to_pandas(self):
        """A pandas DataFrame of the columns (needs pandas)."""
        import pandas
        return pandas.DataFrame(self.to_dict())


def _column_property(name):
    def get(self):
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(e.args[0]) from None
    return property(get, doc=f"Column {name} of trajectory.csv.")


for _name in dict.fromkeys(Trajectory.COLUMNS + Trajectory.COLUMNS_ONE_CONTACT):
    setattr(Trajectory, _name, _column_property(_name))


class Run:
    """A finished run. Members as ``zeno simulate --json``: ``status``,
    ``word``, ``t``, ``event_count``, ``impacts``, ``zeno_time`` (None
    without a completed Zeno sequence), ``zeno_impacts``, ``final_zod``,
    ``final_zod_velocity``, ``zod_names`` (final_zod's coordinates),
    ``final_pose``, ``sections``, ``consistent_modes``, ``proof``,
    ``contact_count``; and ``events`` (Event dataclasses), ``event_array``
    (structured array of ``event_dtype``, its states of ``state_dtype``:
    ``EVENT_DTYPE`` and ``STATE_DTYPE`` for one and two contacts, sized to
    the scene's count for more), ``trajectory`` (None when not recorded),
    ``skipped_samples``, ``scene``. The trajectory is recorded from the
    run's history the first time it is read."""

    __slots__ = ("scene", "_d", "_events")

    def __init__(self, scene, d):
        self.scene, self._d, self._events = scene, d, None

    status = property(lambda self: self._d["status"])
    word = property(lambda self: self._d["word"])
    t = property(lambda self: self._d["t"])
    event_count = property(lambda self: self._d["event_count"])
    impacts = property(lambda self: self._d["impacts"])
    zeno_time = property(lambda self: self._d["zeno_time"])
    zeno_impacts = property(lambda self: self._d["zeno_impacts"])
    final_zod = property(lambda self: self._d["final_zod"])
    final_zod_velocity = property(lambda self: self._d["final_zod_velocity"])
    final_pose = property(lambda self: self._d["final_pose"])
    sections = property(lambda self: self._d["sections"])
    consistent_modes = property(lambda self: self._d["consistent_modes"])
    contact_count = property(lambda self: self._d["contact_count"])
    zod_names = property(lambda self: self._d["zod_names"],
                         doc="The names of q''s coordinates (final_zod's), e.g. "
                             "('z1', 'z2', 'x2'); ('z1', 'z2', 'z3') for a box in a corner.")
    event_dtype = property(lambda self: self._d["events"].dtype,
                           doc="The dtype of event_array: event_dtype(contact_count).")
    state_dtype = property(lambda self: self._d["events"].dtype["before"],
                           doc="The dtype of the events' states: state_dtype(contact_count).")

    @property
    def proof(self):
        """An ``inconsistent`` run's proof (``Event.proof`` of its END
        event): every mode, or impact candidate, refused and why; None for
        other outcomes."""
        return self.events[-1].proof if self.status == "inconsistent" else None
    event_array = property(lambda self: self._d["events"])

    @property
    def model(self):
        return self.scene.model

    @property
    def trajectory(self):
        """The rows of trajectory.csv (recorded from the run's kept history
        when first asked for); None for a run with trajectory=False."""
        history = self._d["history"]
        if history is None:
            return None
        if "trajectory" not in self._d:
            d = history.trajectory()
            self._d["trajectory"], self._d["skipped_samples"] = Trajectory(d["rows"]), d["skipped"]
        return self._d["trajectory"]

    @property
    def skipped_samples(self):
        """Sample times the dense output could not serve (left out, as the
        run directory's writer leaves them out)."""
        return 0 if self.trajectory is None else self._d["skipped_samples"]

    @property
    def events(self):
        if self._events is None:
            self._events = Event.from_array(self._d["events"])
        return self._events

    def to_pandas(self, what="trajectory"):
        """The trajectory (``what="trajectory"``) or the events' scalar fields
        (``"events"``, one row per event) as a pandas DataFrame (needs
        pandas). In the events' frame a field an event does not have is
        missing, as it is None in :class:`Event`: ``contact`` is a nullable
        ``Int64`` (``<NA>`` for no contact, 1-based otherwise), ``impact``,
        ``outcome`` and ``solver_flag`` are None, and the section angle and
        the ``zeno_*`` fields are missing where the event has none."""
        if what == "trajectory":
            if self.trajectory is None:
                raise ValueError("this run was simulated with trajectory=False")
            return self.trajectory.to_pandas()
        if what == "events":
            return _events_frame(self.event_array)
        raise ValueError(f"what must be 'trajectory' or 'events', got {what!r}")

    def __repr__(self):
        return f"<zeno.Run {self.status}: {self.word}>"


def _events_frame(a):
    """The scalar fields of a structured array of events as a DataFrame,
    the array's sentinels (contact 0, "" for no impact or outcome) as
    pandas' missing values, where Event.from_array has None."""
    import pandas
    names = [n for n in a.dtype.names if a.dtype[n].shape == () and a.dtype[n].names is None]
    columns = {n: a[n] for n in names}
    kind, outcome = a["kind"], a["outcome"]
    zeno, diverging = kind == "zeno", outcome == "diverging"
    # Where each field is missing, as Event.from_array leaves it None.
    missing = {"contact": a["contact"] == 0, "impact": kind != "impact", "outcome": outcome == "",
               "section_angle": ~a["on_section"], "zeno_impacts": ~zeno, "zeno_error": ~zeno,
               "zeno_order": ~zeno, "zeno_ratio": ~(zeno | diverging),
               "zeno_period": ~(zeno | diverging), "solver_flag": outcome != "solver-failure"}
    for name, where in missing.items():
        if name not in columns:
            continue
        values = columns[name]
        if values.dtype.kind in "iu":
            column = pandas.array(values, dtype="Int64")
            column[where] = pandas.NA
        elif values.dtype.kind == "f":
            column = np.where(where, np.nan, values)
        else:
            column = np.where(where, None, values.astype(object))
        columns[name] = column
    return pandas.DataFrame(columns)


def _scene_for(scene, call, settings):
    if not isinstance(scene, Scene):
        raise TypeError(f"expected a zeno.Scene, got {type(scene).__name__}")
    return scene._settings(call, settings, {"epsilon": "eps"}, stacklevel=5)


def simulate(scene, model=None, eps=None, t_end=None, sample_dt=None, max_events=None,
             wall_time=None, trajectory=True):
    """Runs the scene to its end (the GIL is released meanwhile). The keyword
    settings override the scene's (``eps`` is ``epsilon``), validated like
    ``zeno simulate --set``. With ``trajectory=False`` no rows are recorded."""
    scene = _scene_for(scene, "simulate", {"model": model, "epsilon": eps, "t_end": t_end,
                               "sample_dt": sample_dt, "max_events": max_events,
                               "wall_time": wall_time})
    return Run(scene, _zeno.simulate(scene, trajectory=trajectory))


class Simulator:
    """Iterates over the events of a run: ``for ev in Simulator(scene): ...``
    (the C loop ``while (zeno_sim_next_event(...) == ZENO_OK)``). With
    ``keep_history=True``, :meth:`state_at` serves any time of the run so far."""

    def __init__(self, scene, model=None, eps=None, t_end=None, max_events=None,
                 wall_time=None, keep_history=False):
        self.scene = _scene_for(scene, "Simulator", {"model": model, "epsilon": eps, "t_end": t_end,
                                        "max_events": max_events, "wall_time": wall_time})
        self._sim = _zeno.Simulator(self.scene, keep_history=keep_history)

    def __iter__(self):
        return self

    def __next__(self):
        return Event.from_array(next(self._sim))[0]

    def restart(self, qp, qdp):
        """Starts the run over from q' = qp and its rate qdp (ZOD coordinates,
        three numbers each, as the scene's ``initial: {qp, qdp}``), keeping the
        simulator's per-scene table: many perturbations of one scene without a
        creation each (``zeno_sim_restart``). ZOD simulators only."""
        self._sim.restart(tuple(float(v) for v in qp), tuple(float(v) for v in qdp))

    def run(self):
        """Runs to the end without the events and returns :meth:`summary`
        (``zeno_sim_run``; the GIL is released meanwhile). A two-contact ZOD
        run not started yet, without ``keep_history``, runs on the per-scene
        table's kernel: with :meth:`restart`, Monte-Carlo runs of one scene at
        about a microsecond each. Numbers equal the event loop's to rounding,
        words and outcomes are the same."""
        return self._sim.run()

    def state_at(self, t):
        """The state at time t (dense output between events)."""
        return State.from_array(self._sim.state_at(t).reshape(1))[0]

    def summary(self):
        """The run so far: a dict with the members of :class:`Run`'s summary."""
        return self._sim.summary()

    @property
    def status(self):
        return self.summary()["status"]

    @property
    def word(self):
        return self.summary()["word"]
