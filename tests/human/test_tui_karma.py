"""The terminal game shows each side's karma under option karma (issue 43), in words, at 80 columns."""

from __future__ import annotations

import pytest

pytest.importorskip("rich")

from rich.console import Console  # noqa: E402

import mbrules  # noqa: E402
from mbrules.engine import State  # noqa: E402
from positions import position  # noqa: E402
from mbrules.tui.screen import sides_table  # noqa: E402
from mbrules.tui.words import refusal  # noqa: E402
from mbrules.vocab import Reason  # noqa: E402


def test_the_sides_table_says_which_side_is_shunned_and_the_refusal_says_why():
    """A side that lost its karma reads 'lost' in the karma column, the others 'yes'; a hazard it may not play
    on a side with karma is refused in player words."""
    g = mbrules.load_game("winning-moves", 3, options=["karma"])
    ix = g.index
    hands = {
        0: ["stop", "repairs", "d25", "d50", "d75", "d100"],
        1: ["d25", "d50", "d75", "d100", "gasoline", "spare_tire"],
        2: ["d25", "d50", "d75", "d100", "gasoline", "spare_tire"],
    }
    st = position(g, hands, {0: {"karma": False}, 2: {"battle": ["roll"]}})
    obs = st.observation(0)
    console = Console(width=80, record=True, color_system=None)
    console.print(sides_table(g, obs, unicode=False))
    text = console.export_text()
    rows = text.split("│ B")
    assert "karma" in rows[0] and "lost" in rows[0] and "lost" not in rows[1] and "yes" in rows[1]
    assert max(len(line) for line in text.splitlines()) <= 80
    words = refusal(g, obs, ix["stop"], 2, Reason.SHUNNED, "")
    assert words.startswith("you have lost your karma")
    plain = mbrules.load_game("winning-moves", 3)
    console = Console(width=80, record=True, color_system=None)
    console.print(sides_table(plain, State.new_match(plain, 1).observation(0), unicode=False))
    assert "karma" not in console.export_text()  # no column where the ruleset has no karma
