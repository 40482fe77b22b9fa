"""Scenes: loaded and validated by libzeno's loader, written back as YAML.

A :class:`Scene` holds the library's ``zeno_scene`` (validated, immutable)
and the text and ``--set`` overrides it was loaded from, so that every
derived scene and every region sweep is the library loading that text with
more overrides, exactly as the command line would.
"""

import json
import math
import numbers
import os
import warnings
from collections.abc import Mapping
from contextlib import contextmanager

from . import _zeno
from .arguments import count, expected, naming, override_error, real
from .errors import SceneError, SceneWarning

__all__ = ["Scene"]

# Keyword settings of simulate() and Simulator() and their scene paths.
RUN_SETTINGS = {
    "model": "model",
    "epsilon": "epsilon",
    "t_end": "stop.t_end",
    "sample_dt": "solver.sample_dt",
    "max_events": "stop.max_events",
    "wall_time": "stop.wall_time",
}


def _str_items(mapping, where):
    """The items of a mapping whose keys must all be str."""
    for k, v in mapping.items():
        if not isinstance(k, str):
            raise TypeError(f"{where}: keys must be str, got {type(k).__name__}")
        yield k, v


def yaml_value(value, key):
    """A Python value as YAML flow text the loader reads back exactly.

    Floats use ``repr`` (the shortest text that reads back to the same
    double), strings are quoted, mappings and sequences become flow
    collections. ``key`` names the value in a TypeError.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        return repr(v)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a YAML double-quoted scalar
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(k)}: {yaml_value(v, f'{key}.{k}' if key else k)}"
                               for k, v in _str_items(value, key or "scene")) + "}"
    if hasattr(value, "tolist") and not isinstance(value, (bytes, bytearray)):
        value = value.tolist()  # numpy arrays
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v, f"{key}.{i}") for i, v in enumerate(value)) + "]"
    raise TypeError(f"{key or 'scene'}: cannot write a {type(value).__name__} in a scene")


def written_overrides(overrides):
    """``--set`` texts from a dict ``{"paper.mu2": 0.5}``, a sequence of
    ``"KEY=VALUE"`` strings, one such string, or None, each with the dict
    key it came from (None for a text given as such): {text: key}."""
    if overrides is None:
        return {}
    if isinstance(overrides, str):
        return {overrides: None}
    if isinstance(overrides, Mapping):
        return {f"{key}={yaml_value(value, key)}": key
                for key, value in _str_items(overrides, "overrides")}
    items = list(overrides)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"overrides must be 'KEY=VALUE' strings, got {type(item).__name__}")
    return dict.fromkeys(items)


@contextmanager
def _overriding(call, written):
    """An error of one of the overrides ``written`` worded as ``call``'s
    (the key or text as the caller wrote it, not the program's --set)."""
    try:
        yield
    except SceneError as e:
        raise override_error(e, call, written) from None


def _key_error(error):
    """A dict's error: the key and message, without the generated text's position."""
    text = f"{error.key}: {error.message}" if error.key else error.message
    return SceneError(text, code=error.code, message=error.message, key=error.key)


class Scene(_zeno.Scene):
    """A validated scene (``zeno_scene``). Make one with :meth:`load`,
    :meth:`from_dict` or :meth:`from_yaml`; it does not change afterwards
    (:meth:`with_overrides` makes a new one)."""

    __slots__ = ("_text", "_name", "_overrides", "_source")

    # ---- making scenes -----------------------------------------------------

    @classmethod
    def _made(cls, scene, text, name, overrides, source, stacklevel=3):
        scene._text, scene._name = text, name
        scene._overrides, scene._source = tuple(overrides), source
        # The command line's sanity pass: a warning, never a refusal, raised
        # where the caller made the scene (load, from_yaml, ...).
        for kind, key, message in scene.warnings:
            warnings.warn(SceneWarning(kind, key, message), stacklevel=stacklevel)
        return scene

    @property
    def warnings(self):
        """The scene's warnings (``zeno_scene_warnings()``), as tuples
        ``(kind, key, message)``: ``kind`` is ``"radians"``,
        ``"infeasible"``, ``"ambiguous"`` or ``"painleve"``, ``key`` the
        dotted scene path or ``""``. Empty for the shipped scenes."""
        return _zeno.scene_warnings(self)

    @classmethod
    def load(cls, path, overrides=None):
        """Loads a YAML scene file with ``--set`` overrides applied in order
        (``{"paper.mu2": 0.5}`` or ``["paper.mu2=0.5"]``). Errors raise
        :class:`SceneError` naming file, line and column (or the override)."""
        written = written_overrides(overrides)
        items = list(written)
        path = os.fsdecode(os.fspath(path))
        with _overriding("Scene.load(overrides=...)", written):
            scene = cls._load(path, items)
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            text = None
        if text is None or "\0" in text:
            # Gone since, or not text the string loader takes: keep the
            # scene itself, which loads back identically.
            return cls._made(scene, scene.to_yaml(), path, [], path)
        return cls._made(scene, text, path, items, path)

    @classmethod
    def from_yaml(cls, text, name=None, overrides=None):
        """Loads scene text; ``name`` is the file name of its messages (and
        the scene's name when it has no ``name`` key)."""
        if not isinstance(text, str):
            raise TypeError(f"scene text must be str, got {type(text).__name__}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"scene name must be str or None, got {type(name).__name__}")
        written = written_overrides(overrides)
        items = list(written)
        name = "" if name is None else name
        with _overriding("Scene.from_yaml(overrides=...)", written):
            scene = cls._load_string(text, name, items)
        return cls._made(scene, text, name, items, None)

    @classmethod
    def from_dict(cls, data, overrides=None):
        """A scene from a dict of the scene file's schema (docs/scenes.md),
        e.g. ``{"paper": {...}, "initial": {"qdp": [0, 0, 2]}}``. Errors raise
        :class:`SceneError` with ``.key`` (the dotted path) and the loader's
        message."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a scene dict must be a mapping, got {type(data).__name__}")
        text = yaml_value(data, "") + "\n"
        written = written_overrides(overrides)
        items = list(written)
        try:
            scene = cls._load_string(text, "", items)
        except SceneError as e:
            if e.file == "--set":
                raise override_error(e, "Scene.from_dict(overrides=...)", written) from None
            raise _key_error(e) from None
        return cls._made(scene, text, "", items, None)

    def with_overrides(self, overrides):
        """A new scene: this one's text with more ``--set`` overrides."""
        return self._overridden(overrides, "with_overrides")

    def _overridden(self, overrides, call, stacklevel=4):
        """with_overrides() whose errors name ``call`` (warnings are raised
        ``stacklevel`` frames up)."""
        written = written_overrides(overrides)
        items = self._overrides + tuple(written)
        with _overriding(call, written):
            scene = type(self)._load_string(self._text, self._name, list(items))
        return type(self)._made(scene, self._text, self._name, items, self._source, stacklevel)

    def with_settings(self, **settings):
        """A new scene with run settings changed (``model``, ``epsilon``,
        ``t_end``, ``sample_dt``, ``max_events``, ``wall_time``; None keeps
        one), validated as the loader validates them."""
        return self._settings("with_settings", settings)

    def _settings(self, call, settings, spelled=None, stacklevel=4):
        """with_settings() whose errors name ``call`` and each setting as
        ``spelled`` ({setting: the caller's argument}, e.g. epsilon: eps)."""
        given = {k: v for k, v in settings.items() if v is not None}
        unknown = set(given) - set(RUN_SETTINGS)
        if unknown:
            raise TypeError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        if not given:
            return self
        spelled = dict(spelled or {})
        names = {k: spelled.get(k, k) for k in given}
        for k, v in given.items():
            if k == "model":
                if not isinstance(v, str):
                    raise expected(call, names[k], v, "'zod' or 'full'")
            elif k == "max_events":
                count(v, call, names[k])
            else:
                real(v, call, names[k])
        with naming(call, {RUN_SETTINGS[k]: name for k, name in names.items()}):
            scene = self._replace(**given)
        items = self._overrides + tuple(
            f"{RUN_SETTINGS[k]}={yaml_value(v, RUN_SETTINGS[k])}" for k, v in given.items())
        return type(self)._made(scene, self._text, self._name, items, self._source, stacklevel)

    # ---- reading ------------------------------------------------------------

    @property
    def source(self):
        """The file it was loaded from, or None."""
        return self._source

    @property
    def overrides(self):
        """The ``--set`` overrides applied to its text, in order."""
        return self._overrides

    @property
    def fields(self):
        """The stored fields (angles in radians, points in the body frame)."""
        return self._fields()

    name = property(lambda self: self._fields()["name"], doc="The scene's name.")
    model = property(lambda self: self._fields()["model"], doc="'zod' or 'full'.")
    epsilon = property(lambda self: self._fields()["epsilon"], doc="Full-model scale.")
    t_end = property(lambda self: self._fields()["t_end"], doc="Stop time.")
    sample_dt = property(lambda self: self._fields()["sample_dt"], doc="Trajectory sampling.")
    max_events = property(lambda self: self._fields()["max_events"], doc="Event limit.")
    paper = property(lambda self: self._fields()["paper"],
                     doc="The paper block (degrees) or None.")
    com = property(lambda self: self._fields()["com"], doc="The centre of mass shift.")
    contacts = property(lambda self: self._fields()["contacts"],
                        doc="Contacts: point, surface_angle [rad], surface_point, mu.")
    contact_count = property(lambda self: len(self._fields()["contacts"]))

    def __repr__(self):
        f = self._fields()
        where = f" from {self._source!r}" if self._source else ""
        return (f"<zeno.Scene {f['name']!r}: {len(f['contacts'])} contacts, "
                f"{f['model']}{where}>")

    def __eq__(self, other):
        if not isinstance(other, Scene):
            return NotImplemented
        return self.to_yaml() == other.to_yaml()

    def __hash__(self):
        return hash(self.to_yaml())

    def __reduce__(self):
        return (_restore, (type(self), self._text, self._name, self._overrides, self._source))


def _restore(cls, text, name, overrides, source):
    scene = cls._load_string(text, name, list(overrides))
    return cls._made(scene, text, name, overrides, source)
