"""The contract's "Python API" snippet and the notebook example of docs/api.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_contract_python_api_snippet_runs_as_written():
    # The public contract's "Python API" snippet, as written there (keep in step with it).
    import mbrules

    game = mbrules.load_game("winning-moves", players=4, options=["hazard-on-hazard"])  # id or path
    state = game.new_match(seed=7)  # dealt, ready to play
    while not state.is_terminal():
        p = state.current_player  # index 0..N-1 of who must decide now (turn, coup fourré window or extension question)
        obs = state.observation(
            p
        )  # what p may see: own hand, every side's piles, counts; never another hand or the draw order
        action = state.legal_actions()[0]  # list of mbrules.Action
        state.apply(action)  # or state.apply("play d200"): the notation below
    state.outcome  # mbrules.Outcome: winner side or draw, per-hand score sheets

    assert isinstance(obs, mbrules.Observation) and isinstance(action, mbrules.Action)
    assert isinstance(state.outcome, mbrules.Outcome)
    assert state.outcome.termination in ("win", "draw", "unfinished")
    assert len(state.outcome.hand_sheets) == state.hands_played >= 1


def first_python_block(path: Path) -> str:
    m = re.search(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), re.S)
    assert m, f"{path} has no ```python block"
    return m.group(1)


def test_docs_api_notebook_example_runs():
    code = first_python_block(ROOT / "docs" / "api.md")
    assert len(code.strip().splitlines()) <= 6, "the notebook example is meant to be about 5 lines"
    namespace: dict = {}
    exec(compile(code, "docs/api.md", "exec"), namespace)
    import mbrules

    state = namespace["state"]
    assert isinstance(state, mbrules.State) and state.is_terminal()
    assert isinstance(state.outcome, mbrules.Outcome)
