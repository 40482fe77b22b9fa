"""Arguments checked, and errors worded, as the Python caller wrote them.

A wrong value raises an error that names the call and the argument in
Python's spelling, ``maps(samples=...): value 3 out of range; allowed [16,
1000000]`` or ``simulate(t_end=...): expected a real number, got str
'10'``, never the command line's option or the library's internal
parameter. The library's own error (its ``code``, ``key`` and ``message``)
is kept on the exception; only its text names the argument.
"""

import numbers
import re
from contextlib import contextmanager

import numpy as np

from .errors import Error

__all__ = ["shown", "expected", "count", "real", "renamed", "naming", "override_error",
           "axis_text", "naming_axes"]

# Longest repr of a value quoted in a message (hostile values can be huge).
SHOWN_CHARS = 40


def shown(value):
    """repr(value), cut to SHOWN_CHARS characters."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def expected(call, name, value, what):
    """The TypeError of argument ``name`` of ``call``, which is not ``what``."""
    return TypeError(f"{call}({name}=...): expected {what}, got {type(value).__name__} "
                     f"{shown(value)}")


def count(value, call, name):
    """An int argument (bool refused), as a Python int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise expected(call, name, value, "an int")
    return int(value)


def real(value, call, name):
    """A real-number argument (bool refused), as a float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise expected(call, name, value, "a real number")
    return float(value)


def renamed(error, text):
    """The same error (class, code, key, position, message) with another text."""
    return type(error)(text, code=error.code, message=error.message, file=error.file,
                       line=error.line, column=error.column, key=error.key)


@contextmanager
def naming(call, names):
    """Library errors about a parameter of ``names`` ({library parameter or
    scene path: Python argument}) re-raised naming ``call(argument=...)``."""
    try:
        yield
    except Error as e:
        if e.key not in names:
            raise
        raise renamed(e, f"{call}({names[e.key]}=...): {e.message}") from None


_ALLOWED = re.compile(r"\(allowed: (.*)\)$")
_HINT = re.compile(r"did you mean '([^']*)'\?")


def _unknown_key(error, message, call, key):
    """The text of an unknown key: the key as written, the one unknown part
    of it, what it may have meant and the keys known there."""
    parent = error.key.rpartition(".")[0]
    allowed, hint = _ALLOWED.search(message), _HINT.search(message)
    meant = f" (did you mean {(parent + '.' if parent else '') + hint.group(1)!r}?)" if hint else ""
    unknown = f"key {key!r}" if key == error.key else f"key {key!r}: {error.key!r}"
    known = f"known keys under {parent!r}" if parent else "known top-level keys"
    text = f"{call}: {unknown} is unknown{meant}"
    return text + (f"; {known}: {allowed.group(1)}" if allowed else "")


def override_error(error, call, written):
    """A library error about one of the ``--set`` texts of ``written``
    ({override text: the dict key it came from, or None for a text given as
    such}) worded as ``call``'s; other errors are returned as they are."""
    if error.file != "--set":
        return error
    for item, key in written.items():
        prefix = f"--set {item}: "
        if not error.message.startswith(prefix):
            continue
        message = error.message[len(prefix):]
        if error.code == "unknown-key" and error.key:
            text = _unknown_key(error, message, call, key or item.partition("=")[0].strip())
        else:
            text = f"{call}: {f'key {key!r}' if key else repr(item)}: {message}"
        new = renamed(error, text)
        new.message = message
        return new
    return error


def axis_text(axis, call, name):
    """An axis as the text "PATH=LO:HI:N" (floats written to read back
    exactly) from that text or a tuple (path, lo, hi, count)."""
    if isinstance(axis, str):
        return axis
    try:
        path, lo, hi, n = axis
    except (TypeError, ValueError):
        raise expected(call, name, axis, "(path, lo, hi, count) or 'PATH=LO:HI:N'") from None
    if not isinstance(path, str):
        raise expected(call, name + "[0]", path, "a scene path (str)")
    return (f"{path}={real(lo, call, name + '[1]')!r}:{real(hi, call, name + '[2]')!r}:"
            f"{count(n, call, name + '[3]')}")


@contextmanager
def naming_axes(call, axes, names):
    """Errors of a grid over ``axes`` ({argument: "PATH=LO:HI:N"}) named as
    ``call``'s: a malformed axis, or an end the scene refuses (the library
    loads each end as an override "PATH=VALUE"), names its argument; other
    library parameters as :func:`naming`."""
    try:
        with naming(call, names):
            yield
    except Error as e:
        for name, axis in axes.items():
            path = axis.partition("=")[0]
            if e.file == "--set" and e.message.startswith(f"--set {path}="):
                item, _, message = e.message[len("--set "):].partition(": ")
                new = renamed(e, f"{call}({name}=...): {path} = {item.partition('=')[2]}: "
                                 f"{message}")
                new.message = message
                raise new from None
            if f"axis '{axis}'" in e.message:
                raise renamed(e, f"{call}({name}=...): {e.message}") from None
        raise
