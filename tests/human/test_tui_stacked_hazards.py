"""The terminal game shows every battle hazard in force under option stacked-hazards (issue 35), at 80 columns."""

from __future__ import annotations

import pytest

pytest.importorskip("rich")

from rich.console import Console  # noqa: E402

import mbrules  # noqa: E402
from positions import position  # noqa: E402
from mbrules.tui.screen import sides_table  # noqa: E402
from mbrules.tui.words import refusal  # noqa: E402
from mbrules.vocab import Reason  # noqa: E402


def test_the_sides_table_names_both_stacked_hazards_and_the_roll_refusal_says_what_comes_first():
    g = mbrules.load_game("winning-moves", 2, options=["stacked-hazards"])
    ix = g.index
    hands = {
        0: ["roll", "repairs", "d25", "d50", "d75", "d100"],
        1: ["d25", "d50", "d75", "d100", "gasoline", "spare_tire"],
    }
    st = position(g, hands, {0: {"battle": ["roll", "accident", "stop"]}})
    obs = st.observation(0)
    console = Console(width=80, record=True, color_system=None)
    console.print(sides_table(g, obs, unicode=False))
    text = console.export_text()
    rows = text.split("│ B")[0]  # side A's rows: both hazards in force, each on its own line
    assert "Accid" in rows and "Stop!" in rows and "stopp" in rows
    assert max(len(line) for line in text.splitlines()) <= 80
    words = refusal(g, obs, ix["roll"], -1, Reason.OTHER_HAZARD, "")
    assert words == "Roll! comes last: fix Accident first"
