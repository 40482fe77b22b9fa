"""zeno: a planar rigid body on two frictional unilateral contacts.

The Python face of libzeno (docs/python.md): load a scene, simulate it
(impacts, slip, stick, Zeno chatter, rest), and analyse the stability of its
equilibrium with the paper's Theorems 1-4, all through one C call each,
with results as numpy arrays and dataclasses.

    import zeno
    scene = zeno.Scene.load("scenes/example2.yaml")
    run = zeno.simulate(scene)
    run.word      # 'FF IF PF FI FP IF PF SF II SS'
"""

from . import errors
from .errors import ArgumentError, Error, SceneError, SceneWarning, UnsupportedError

try:
    from . import _zeno
except ImportError as e:  # the source tree (python/zeno) has no extension
    raise ImportError(
        f"zeno's C extension could not be loaded ({e}); import the package meson builds "
        "(build/python, registered by tools/setup), not python/zeno of the source tree; "
        "see docs/python.md") from e
from .scene import Scene
from .simulation import (EVENT_DTYPE, STATE_DTYPE, Event, Run, Simulator, State,
                         Trajectory, simulate)
from . import plot
from .analysis import (Analysis, Equilibrium, FixedPoint, Interval, Maps, Painleve,
                       Regions, analyze, check, maps, regions)

__version__ = _zeno.version()

__all__ = [
    "Scene", "simulate", "Simulator", "Run", "Event", "State", "Trajectory",
    "EVENT_DTYPE", "STATE_DTYPE",
    "check", "maps", "analyze", "regions",
    "Equilibrium", "Painleve", "Maps", "FixedPoint", "Analysis", "Interval", "Regions",
    "Error", "SceneError", "ArgumentError", "UnsupportedError", "SceneWarning", "errors", "plot",
]
