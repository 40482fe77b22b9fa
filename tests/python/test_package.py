"""The package as a user meets it: the issue's acceptance command from the
repository root, the version, and the source tree refusing to import."""

import os
import subprocess
import sys

import zeno
from conftest import PACKAGE_DIR, ROOT, cli

ACCEPTANCE = ("import zeno; "
              "print(zeno.simulate(zeno.Scene.load('scenes/example2.yaml')).word)")


def python(code, cwd, path):
    env = dict(os.environ, PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def test_acceptance_command_from_the_repository_root():
    p = python(ACCEPTANCE, ROOT, PACKAGE_DIR)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "FF IF PF FI FP IF PF SF II SS\n"


def test_version_is_the_programs():
    assert f"zeno {zeno.__version__}\n" == cli("--version")[1]


def test_the_source_tree_is_not_the_package(tmp_path):
    p = python("import zeno", tmp_path, os.path.join(ROOT, "python"))
    assert p.returncode != 0
    assert "import the package meson builds" in p.stderr


def test_public_names():
    for name in zeno.__all__:
        assert hasattr(zeno, name), name
    for name in ("maps", "regions", "trajectory"):
        assert callable(getattr(zeno.plot, name))
