"""zeno: a planar rigid body on two frictional unilateral contacts.

The Python face of libzeno (docs/python.md): load a scene, simulate it
(impacts, slip, stick, Zeno chatter, rest), and analyse the stability of its
equilibrium with the paper's Theorems 1-4, sweep outcomes over a grid and
certify stability by sums of squares, all through one C call each, with
results as numpy arrays and dataclasses.

    import zeno
    scene = zeno.Scene.load("scenes/example2.yaml")
    run = zeno.simulate(scene)
    run.word      # 'FF IF PF FI FP IF PF SF II SS'
"""

from . import errors
from .errors import ArgumentError, Error, SceneError, SceneWarning, UnsupportedError


def _why_not_loaded(error):
    """Why the extension did not load: the source tree (python/zeno, which
    has no extension), or an interpreter other than the one meson built the
    package for (another version, or one without its numpy), as the text of
    an ImportError."""
    import os
    import sys
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.isdir(os.path.join(here, "_ext")):  # only the source tree has the C sources
        return (f"zeno's C extension could not be loaded ({error}): this is python/zeno of "
                f"the source tree ({here}), which has none; import the package meson builds "
                "(build/python, registered by tools/setup); see docs/python.md")
    try:
        from . import _build
    except ImportError:
        return f"zeno's C extension could not be loaded ({error}); see docs/python.md"
    this = f"Python {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable})"
    built = f"Python {_build.VERSION} ({_build.EXECUTABLE})"
    same = (this == built or os.path.exists(_build.EXECUTABLE)
            and os.path.exists(sys.executable)
            and os.path.samefile(_build.EXECUTABLE, sys.executable)
            and sys.prefix == sys.base_prefix)
    if same:
        return f"zeno's C extension could not be loaded ({error}); see docs/python.md"
    return (f"zeno's C extension could not be loaded ({error}): this package ({here}) was "
            f"built for {built}, and this interpreter is {this}, a different one (another "
            "version, a virtual environment, pyenv or conda) without that extension or the "
            f"numpy it was built with; run it with {_build.EXECUTABLE}, or build zeno with "
            "this interpreter; see docs/python.md")


try:
    from . import _zeno
except ImportError as e:
    raise ImportError(_why_not_loaded(e)) from e
from . import _build
from .scene import Scene
from .simulation import (EVENT_DTYPE, STATE_DTYPE, Event, Run, Simulator, State,
                         Trajectory, event_dtype, simulate, state_dtype)
from . import plot
from .analysis import (Analysis, ContactSetCheck, Equilibrium, FixedPoint, Interval, Maps,
                       Painleve, Regions, analyze, check, maps, regions)
from .sweep import Sweep, sweep
from .certify import Certificate, CertificateRun, certify

__version__ = _zeno.version()

__all__ = [
    "Scene", "simulate", "Simulator", "Run", "Event", "State", "Trajectory",
    "EVENT_DTYPE", "STATE_DTYPE", "event_dtype", "state_dtype",
    "check", "maps", "analyze", "regions", "sweep", "certify",
    "Equilibrium", "ContactSetCheck", "Painleve", "Maps", "FixedPoint", "Analysis", "Interval",
    "Regions",
    "Sweep", "Certificate", "CertificateRun",
    "Error", "SceneError", "ArgumentError", "UnsupportedError", "SceneWarning", "errors", "plot",
]
