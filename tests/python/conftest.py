"""Shared fixtures of the Python tests (the `python` test of meson, which
runs pytest with the built package first on PYTHONPATH).

Environment (set by tests/meson.build; defaults for a manual run from the
repository root): ZENO_BUILD_DIR (build/), ZENO_EXE (build/zeno),
ZENO_SOURCE_ROOT (the repository). The package must come from
ZENO_BUILD_DIR/python, never from the source tree.
"""

import json
import os
import subprocess
import sys

import pytest

ROOT = os.environ.get("ZENO_SOURCE_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("ZENO_BUILD_DIR") or os.path.join(ROOT, "build")
PACKAGE_DIR = os.path.join(BUILD, "python")
EXE = os.environ.get("ZENO_EXE") or os.path.join(BUILD, "zeno")
SCENES = os.path.join(ROOT, "scenes")
# The sanitizer build preloads ASan into python; its quarantine keeps freed
# memory, so resident-size checks do not apply there.
SANITIZED = bool(os.environ.get("ZENO_SANITIZED"))

if sys.path[0:1] != [PACKAGE_DIR] and PACKAGE_DIR not in sys.path:
    sys.path.insert(0, PACKAGE_DIR)
os.environ.setdefault("MPLBACKEND", "Agg")

import zeno  # noqa: E402  (after the path is set)


def scene_path(name):
    return os.path.join(SCENES, name)


ALL_SCENE_FILES = sorted(f for f in os.listdir(SCENES) if f.endswith(".yaml"))
# The scenes of one or two contacts, which every call takes; the scenes of
# more contacts are simulated (ZOD) and checked, and the two-contact
# analysis (maps, analyze, certify) refuses them.
SCENE_FILES = [f for f in ALL_SCENE_FILES
               if len(zeno.Scene.load(os.path.join(SCENES, f)).contacts) <= 2]
MANY_CONTACT_FILES = [f for f in ALL_SCENE_FILES if f not in SCENE_FILES]


def cli(*args, check=True):
    """Runs the zeno program; returns (exit code, stdout, stderr)."""
    p = subprocess.run([EXE, *args], capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"zeno {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    return json.loads(cli(*args)[1])


def json_value(v):
    """A Python value as the CLI's JSON writes it: non-finite numbers are null."""
    if isinstance(v, float) and v != v or v in (float("inf"), float("-inf")):
        return None
    return v


@pytest.fixture(scope="session", autouse=True)
def built_package():
    """Every test runs against the package meson built."""
    where = os.path.realpath(os.path.dirname(zeno.__file__))
    assert where == os.path.realpath(os.path.join(PACKAGE_DIR, "zeno")), where
    return where


@pytest.fixture
def example2():
    return zeno.Scene.load(scene_path("example2.yaml"))
