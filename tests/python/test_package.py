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
    assert "python/zeno of the source tree" in p.stderr


def test_public_names():
    for name in zeno.__all__:
        assert hasattr(zeno, name), name
    for name in ("maps", "regions", "trajectory"):
        assert callable(getattr(zeno.plot, name))


def test_another_interpreter_is_named_not_the_source_tree(tmp_path):
    # A virtual environment's python without Debian's numpy finds the
    # package (PYTHONPATH, as a user site .pth would) but cannot load its
    # extension: the interpreter is the cause, not the source tree.
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                          capture_output=True, text=True, timeout=120)
    if made.returncode != 0:
        pytest.skip(f"no venv: {made.stderr}")
    other = str(venv / "bin" / "python")
    env = dict(os.environ, PYTHONPATH=PACKAGE_DIR, PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([other, "-c", "import zeno"], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode != 0
    message = p.stderr.strip().splitlines()[-1]
    assert "source tree" not in message, message
    assert other in message and zeno._build.EXECUTABLE in message, message
    assert "numpy" in message, message


def test_an_extension_of_another_python_version_is_named(tmp_path):
    # The package built by meson for another Python (its extension's tag
    # cpython-3XX): the message names both versions.
    import shutil
    copy = tmp_path / "zeno"
    shutil.copytree(os.path.join(PACKAGE_DIR, "zeno"), copy)
    for f in list(copy.iterdir()):
        if f.name.startswith("_zeno.") and f.name.endswith(".so"):
            f.rename(copy / "_zeno.cpython-399-x86_64-linux-gnu.so")
    (copy / "_build.py").write_text('VERSION = "3.99"\nEXECUTABLE = "/opt/python3.99/bin/python3"\n'
                                    'EXT_SUFFIX = ".cpython-399-x86_64-linux-gnu.so"\n')
    p = python("import zeno", tmp_path, str(tmp_path))
    assert p.returncode != 0
    message = p.stderr.strip().splitlines()[-1]
    assert "source tree" not in message, message
    assert "Python 3.99 (/opt/python3.99/bin/python3)" in message, message
    assert f"Python {sys.version_info[0]}.{sys.version_info[1]} ({sys.executable})" in message


def test_the_build_interpreter_is_recorded():
    assert zeno._build.EXECUTABLE == sys.executable or os.path.samefile(
        zeno._build.EXECUTABLE, sys.executable)
    assert zeno._build.VERSION == f"{sys.version_info[0]}.{sys.version_info[1]}"
