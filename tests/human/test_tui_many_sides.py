"""The full-screen game at 7 to 9 sides (ruleset playaural, each for himself) in an 80×24 window: every side on a
line of its own, the moves and their targets readable, the header's piles and the score sheet's lines whole.
At two lines a side, nine sides took 18 of the 24 lines and left one line to the moves; a hazard's side was
cut off ('Speed Limit on …'), the ninth target was below the pane, and the score sheet's lines read 'Poin…'."""

from __future__ import annotations

import pytest

textual = pytest.importorskip("textual")

from rich.console import Console  # noqa: E402

import mbrules  # noqa: E402
from mbrules.engine import State  # noqa: E402
from mbrules.tui.app import MovesView, ScoreSheet, TableView  # noqa: E402
from mbrules.vocab import HAZARD, PLAY  # noqa: E402
from test_tui_app import new_app, run  # noqa: E402  (the same app and pilot as the other tests)


def _shown(renderable, width: int) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def _hazard_card(app) -> int:
    """The row in the hand of a card that is a hazard on the opponents (seed 1 deals two Speed Limits)."""
    hand = app.driver.state.observation(app.seat).hand
    return next(i for i, c in enumerate(hand) if app.game.kind[c] == HAZARD)


def test_nine_sides_take_a_line_each_and_every_hazard_move_names_its_side_at_80x24():
    seen = {}

    async def flow(app, pilot):
        table = app.screen.query_one(TableView)
        moves = app.screen.query_one(MovesView)
        seen["table"] = table.render().plain
        seen["moves"] = _shown(moves.render(), moves.size.width)
        seen["moves_height"] = moves.size.height
        st = app.driver.state
        seen["targets"] = sorted(
            app.game.side_names[a.side_index] for a in st.legal_actions() if a.op == PLAY and a.side_index >= 0
        )

    run(new_app(ruleset="playaural", players=9, seed=1), flow)
    lines = seen["table"].splitlines()
    assert [line[0] for line in lines] == list("ABCDEFGHI")
    assert all("/1000 miles" in line and len(line) <= 80 for line in lines)
    assert seen["moves_height"] >= 7  # the moves' title and 6 rows at least
    assert seen["targets"] and "B" in seen["targets"]
    for side in set(seen["targets"]) - {"A"}:
        assert f"on {side} " in seen["moves"] + " " or f"on {side}\n" in seen["moves"], side
    assert "…" not in seen["moves"].split("discard")[0]  # no hazard move is cut


def test_the_ninth_target_scrolls_into_the_pane_and_a_click_plays_the_row_shown():
    """Enter on a hazard lists 8 opponents and the discard: more than the pane's lines, so the rows shown follow
    the picked one, the title says which are shown, and a click picks the target under the mouse."""
    seen = {}

    async def flow(app, pilot):
        await pilot.press(*["right"] * _hazard_card(app), "enter")
        await pilot.pause()
        moves = app.screen.query_one(MovesView)
        seen["n"], seen["room"] = len(app.targets), moves.size.height - 1
        await pilot.press("up")  # from the first row up to the last: the discard
        await pilot.pause()
        text = moves.render().plain
        seen["last"] = text.splitlines()[-1]
        seen["title"] = text.splitlines()[0]
        picked = app.targets[app.target_row][1]
        before = len(app.driver.state.history)
        await pilot.click(MovesView, offset=(3, seen["room"]))  # the last row shown
        await pilot.pause()
        seen["played"] = app.driver.state.history[before][1] == picked

    run(new_app(ruleset="playaural", players=9, seed=1), flow)
    assert seen["n"] == 9 and seen["room"] < seen["n"]
    assert seen["last"].startswith("> Discard")
    assert f"of {seen['n']}" in seen["title"]
    assert seen["played"]


def _nine_side_table(sides: dict[int, dict[str, list[str]]]) -> str:
    """The full-screen table's text at 80 columns for a crafted nine-car playaural position: p1 holds distance,
    Gasoline and Spare Tire, the other hands are empty (tests/positions.py's builder fills every hand to six
    from the small distance cards, which 48 cards more would exhaust); ``sides`` lays the named cards."""
    g = mbrules.load_game("playaural", 9)
    ix = g.index
    deck = list(g.deck)
    hands = [[ix[c] for c in ("d25", "d50", "d75", "d100", "gasoline", "spare_tire")]] + [[]] * 8
    piles = {s: {k: [ix[c] for c in v] for k, v in d.items()} for s, d in sides.items()}
    for c in hands[0] + [c for d in piles.values() for v in d.values() for c in v]:
        deck.remove(c)
    seen = {}

    async def flow(app, pilot):
        app.driver.loop.state = State.from_position(g, hands=hands, draw_top_first=deck, sides=piles)
        seen["text"] = app.screen.query_one(TableView)._text(80).plain

    run(new_app(ruleset="playaural", players=9, seed=1), flow)
    return seen["text"]


def test_a_compact_side_line_says_its_limit_safeties_coup_fourre_and_200s_with_a_key():
    """One line a side keeps every fact of the two-line form: '≤50' under a speed limit, the safeties by their
    capitals ('*' a coup fourré), the 200s played; a line below says what the short forms stand for."""
    text = _nine_side_table(
        {
            1: {"battle": ["roll"], "distance": ["d200"], "safeties": ["right_of_way"]},
            2: {"coups": ["extra_tank"]},
            3: {"speed": ["speed_limit"]},
        }
    )
    lines = text.splitlines()
    assert len(lines) == 10 and max(map(len, lines)) <= 80
    assert "Roll! rolling RW 200 Miles×1" in lines[1]
    assert " ET*" in lines[2]
    assert "not rolling ≤50" in lines[3]
    key = lines[-1]
    assert "RW Right of Way" in key and "ET Extra Tank" in key and "* coup fourré" in key and "≤N Speed Limit" in key


def test_the_key_of_short_forms_goes_on_a_second_line_rather_than_being_cut():
    """Four safeties, a speed limit and a coup fourré on the table: their key is longer than 80 columns ('≤N Speed'
    was cut off), so it takes two lines, no entry split."""
    text = _nine_side_table(
        {
            1: {"safeties": ["right_of_way", "driving_ace"]},
            2: {"safeties": ["puncture_proof"], "coups": ["extra_tank"]},
            3: {"speed": ["speed_limit"]},
        }
    )
    key = text.splitlines()[9:]
    assert len(key) == 2 and max(map(len, key)) <= 80
    said = "  ".join(key)
    for entry in (
        "RW Right of Way",
        "DA Driving Ace",
        "PP Puncture-Proof",
        "ET Extra Tank",
        "≤N Speed Limit",
        "* coup fourré",
    ):
        assert entry in said


def test_the_header_keeps_the_piles_whole_before_nine_match_totals():
    """Nine sides' totals and both piles are more than 80 columns: the piles come first, whole (the discard pile's
    top card was cut off behind 'match A 0 … I 0')."""
    seen = {}

    async def flow(app, pilot):
        await pilot.press("d")  # a discard: the discard pile has a top card when p1 plays again
        await pilot.pause()
        seen["header"] = app.header_text().plain
        seen["top"] = app.game.names[app.driver.state.observation(app.seat).discard[-1]]

    run(new_app(ruleset="playaural", players=9, seed=1), flow)
    assert seen["header"].startswith("Hand 1 | Draw Pile: ")
    assert f"| Discard Pile: {seen['top']} | match A " in seen["header"]


def test_the_score_sheet_of_nine_sides_keeps_each_line_s_name_whole_at_80_columns():
    seen = {}

    async def flow(app, pilot):
        st = app.driver.state
        for _ in range(2000):  # everybody's first legal move, to the end of the hand (bounded)
            if st.hand_over:
                break
            st.apply(st.legal_actions()[0])
        sheet = ScoreSheet(app, last=True)
        await app.push_screen(sheet)
        await pilot.pause()
        seen["text"] = "\n".join(_shown(s.content, 80) for s in sheet.query("Static"))

    run(new_app(ruleset="playaural", players=9, seed=1), flow)
    text = seen["text"]
    for name in ("Points for distance", "Coups fourrés", "Running total", "Miles"):
        assert name in text
    assert "(you)" in text and "(p9)" in text and "…" not in text
    assert max(len(line) for line in text.splitlines()) <= 80


@pytest.mark.parametrize("ruleset,players", [("playaural", 9), ("winning-moves", 4)])
def test_the_plain_screen_s_table_keeps_every_word_whole_at_80_columns(ruleset, players):
    """--plain at 80 columns: the miles bar gives up cells, so that no pile's word is cut ('(emp…', 'roll…' at
    every table size before); at 120 columns the bar keeps its 16 cells."""
    from mbrules.tui.screen import BAR_WIDTH, SidesTable

    g = mbrules.load_game(ruleset, players)
    obs = State.new_match(g, 1).observation(0)
    narrow = _shown(SidesTable(g, obs, True, [0] * g.sides), 80)
    assert "…" not in narrow and max(map(len, narrow.splitlines())) <= 80
    assert "(empty)" in narrow and "rolling" in narrow
    assert [line[2] for line in narrow.splitlines() if line.startswith("│ ") and line[2].isupper()] == list(
        g.side_names
    )
    assert "·" * BAR_WIDTH in _shown(SidesTable(g, obs, True, [0] * g.sides), 120)
