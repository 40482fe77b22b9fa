"""docs/python.md's tutorial: every ```python block of it, run in order in
one namespace from a scratch directory with scenes/ linked in, with the
asserts it contains; its two figures are written there."""

import contextlib
import io
import os
import re

import pytest

from conftest import ROOT

DOC = os.path.join(ROOT, "docs", "python.md")


def tutorial_blocks():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Tutorial"):text.index("\n## API")]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_tutorial_runs(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    blocks = tutorial_blocks()
    assert len(blocks) >= 7
    os.symlink(os.path.join(ROOT, "scenes"), tmp_path / "scenes")
    (tmp_path / "docs" / "img").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "tutorial"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for i, block in enumerate(blocks):
            exec(compile(block, f"{DOC} block {i + 1}", "exec"), namespace)
    printed = out.getvalue()
    assert "FF IF PF FI FP IF PF SF II SS" in printed
    assert "paper.alpha: expected a number, got 'steep'" in printed
    for name in ("python-example2-maps.png", "python-example6-regions.png"):
        figure = tmp_path / "docs" / "img" / name
        assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert figure.stat().st_size > 20000, name
    namespace["matplotlib"].pyplot.close("all")
