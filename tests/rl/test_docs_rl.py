"""Every Python example in docs/rl.md runs, and prints what the page says it prints."""

from __future__ import annotations

import contextlib
import io
import pathlib
import re

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_docs_rl_has_the_six_examples():
    assert len(BLOCKS) == 6


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_docs_rl_example_runs(i):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[i], f"docs/rl.md example {i + 1}", "exec"), {"__name__": "__docs__"})
    text = out.getvalue()
    assert text.strip(), "every example prints its result"
    if "51 -> 59" in BLOCKS[i]:
        assert text.startswith("51 -> 59")
        assert "'play ice on A'" in text and "'coup-fourre snow_tires'" in text
