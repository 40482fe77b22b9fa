"""Exceptions of zeno: the library's ``zeno_error`` records as Python errors.

Every error of the library arrives as one of these, never as a crash:

- :class:`SceneError` (also a :class:`ValueError`): a scene that does not
  load or validate, or a value of a scene set through ``overrides`` or
  ``simulate(eps=...)``. ``str(e)`` is the one line the command line prints
  (``file:line:column: key: message``, ``key: message`` for a dict, or the
  ``--set KEY=VALUE: ...`` line of an override); ``e.file``, ``e.line``,
  ``e.column`` and ``e.key`` hold its parts (``None`` where unknown).
- :class:`ArgumentError` (also a :class:`ValueError`): a valid scene asked
  something the library refuses (samples out of range, a time outside a
  run, a malformed axis).
- :class:`UnsupportedError`: a request this build cannot serve.
- :class:`MemoryError` when the library runs out of memory.
"""

__all__ = ["Error", "SceneError", "ArgumentError", "UnsupportedError", "SceneWarning", "from_c"]


class Error(Exception):
    """Base of zeno's errors.

    Attributes: ``code`` (the status name: ``"range"``, ``"syntax"``, ...),
    ``message`` (the library's message alone), ``file``, ``line``,
    ``column`` and ``key`` (the dotted scene path), each ``None`` when the
    error does not have it.
    """

    def __init__(self, text, *, code=None, message=None, file=None, line=None,
                 column=None, key=None):
        super().__init__(text)
        self.code = code
        self.message = text if message is None else message
        self.file = file
        self.line = line
        self.column = column
        self.key = key


class SceneError(Error, ValueError):
    """A scene that does not load or validate (see the module's doc)."""


class ArgumentError(Error, ValueError):
    """An argument the library refuses."""


class UnsupportedError(Error):
    """A valid request this build of the library cannot serve."""


class SceneWarning(UserWarning):
    """A scene that loads but most likely does not say what was meant (an
    angle in radians typed into a degrees field), or whose equilibrium
    leaves the paper's assumptions (infeasible, ambiguous, Painleve's
    paradox): ``zeno_scene_warnings()``, raised with :func:`warnings.warn`
    when a :class:`~zeno.Scene` is made. ``kind``, ``key`` and ``message``
    hold its parts."""

    def __init__(self, kind, key, message):
        super().__init__(f"{key}: {message}" if key else message)
        self.kind = kind
        self.key = key or None
        self.message = message


# Codes of errors in a scene's text or values (zeno/error.h).
_SCENE_CODES = {"io", "syntax", "unknown-key", "missing", "type", "range", "geometry"}


def from_c(code, message, file, line, column, key, text, context):
    """The exception for a library error (called by the C extension).

    ``text`` is ``zeno_error_format()``'s line; ``context`` is ``"scene"``
    for loading and validating scenes, ``"call"`` for other calls.
    """
    if code == "nomem":
        return MemoryError(text)
    if code == "unsupported":
        cls = UnsupportedError
    elif context == "scene" and (code in _SCENE_CODES or key):
        cls = SceneError
    else:
        cls = ArgumentError
    return cls(text, code=code, message=message, file=file or None,
               line=line or None, column=column or None, key=key or None)
