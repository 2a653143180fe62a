"""Every Python example in docs/rl.md runs, and prints what the page says it prints."""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import re

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
pytest.importorskip("pyspiel", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_docs_rl_has_the_six_examples():
    assert len(BLOCKS) == 6


# The ISMCTS example plays a whole match of searches (2.3 of the module's 2.4 CPU-s): make test runs it; the
# fast set meets its two parts in the others' tests: ISMCTS on the game (tests/rl/test_openspiel_game.py's
# test_openspiel_ismcts_plays_a_whole_hand) and an mbrules bot as a pyspiel.Bot (the example before it).
# make test-compiled (MBRULES_COMPILED=require) keeps it: the compiled engine's suites keep their fast cases
SLOW_EXAMPLES = (
    set() if os.environ.get("MBRULES_COMPILED") == "require" else {i for i, b in enumerate(BLOCKS) if "ISMCTSBot" in b}
)


@pytest.mark.parametrize(
    "i", [pytest.param(i, marks=[pytest.mark.slow] if i in SLOW_EXAMPLES else []) for i in range(len(BLOCKS))]
)
def test_docs_rl_example_runs(i):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[i], f"docs/rl.md example {i + 1}", "exec"), {"__name__": "__docs__"})
    text = out.getvalue()
    assert text.strip(), "every example prints its result"
    if "51 -> 59" in BLOCKS[i]:
        assert text.startswith("51 -> 59")
        assert "'play ice on A'" in text and "'coup-fourre snow_tires'" in text
