"""The full-screen game fits its window (issue 34 item 3): the help and rules panes fold to their width,
the help names the mouse, every side's miles bar has the same length, and below 80×24 a screen says
how big the window must be instead of a table whose keys and borders fall off."""

from __future__ import annotations

import re

import pytest

textual = pytest.importorskip("textual")

from mbrules.tui.app import (
    KEY_COLUMN,
    FoldedText,
    TableScreen,
    TableView,
    TextPane,
    TooSmall,  # noqa: E402
    help_text,
)
from test_tui_app import new_app, run  # noqa: E402  (the same app and pilot as the other tests)


@pytest.mark.parametrize("width", [40, 60, 76, 118])
def test_help_folds_to_the_pane_width_and_a_key_s_words_go_on_under_its_words(width):
    """No line of the help is wider than the pane (none wraps back to column 0), and a key's description
    that folds goes on in the words column, never under the key."""
    text = help_text(width)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    start = lines.index("") + 1
    keys = lines[start : lines.index("", start)]  # the key table: from the first blank line to the next
    for line in keys:
        assert line.startswith("  ") and (line[2] != " " or line[:KEY_COLUMN].strip() == "")
    if width < 70:  # "Enter ... Esc goes back" folds: its continuation starts at the words column
        assert any(line[:KEY_COLUMN].strip() == "" and line[KEY_COLUMN] != " " for line in keys)


def test_help_says_the_mouse_works():
    words = " ".join(help_text(80).split())
    assert "mouse" in words and "click on a card" in words and "wheel" in words


@pytest.mark.parametrize("key,title", [("question_mark", "Help"), ("r", "The rules in play")])
def test_help_and_rules_panes_fold_every_line_to_their_width(key, title):
    """The pane's text is folded at the pane's width: every line fits, at 80 columns and at 100."""
    for size in ((80, 24), (100, 30)):
        seen = {}

        async def flow(app, pilot):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, TextPane) and app.screen.title_text == title
            folded = app.screen.query_one(FoldedText)
            seen["width"] = folded.size.width
            seen["text"] = folded.render().plain

        run(new_app(), flow, size)
        assert 20 < seen["width"] <= size[0]
        assert max(len(line) for line in seen["text"].splitlines()) <= seen["width"], size


def _bars(text: str) -> list[tuple[int, int]]:
    """(first column, length) of the miles bar (█ and ·) on each side's first line."""
    out = []
    for line in text.splitlines():
        m = re.search(r"[█·]+", line)
        if m:
            out.append((m.start(), m.end() - m.start()))
    return out


# the fast set: six players (three sides, the most bars); make test also two and four (issue 46 point 7)
@pytest.mark.parametrize(
    "players", [pytest.param(2, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow), 6]
)
def test_every_side_s_miles_bar_has_the_same_length_and_column(players):
    """The bars can be compared by eye: the same length and start for every side, whatever each side's
    miles and points (the 'N/1000 miles' figures have a field of their own)."""
    seen = {}

    async def flow(app, pilot):
        for _ in range(30):  # into the hand, so that the sides' miles differ
            if not isinstance(app.screen, TableScreen):
                break
            await pilot.press("1")
            await pilot.pause()
        view = app.screen.query_one(TableView) if isinstance(app.screen, TableScreen) else None
        seen["text"] = view._text(80).plain if view else app.screen_stack[1].query_one(TableView)._text(80).plain
        obs = app.driver.state.observation(app.seat)
        seen["miles"] = {v.miles for v in obs.sides}

    run(new_app(players=players, seed=3), flow)
    bars = _bars(seen["text"])
    assert len(bars) == {2: 2, 4: 2, 6: 3}[players]
    assert len(set(bars)) == 1, bars


@pytest.mark.parametrize("size", [(60, 20), (40, 12), (79, 24), (80, 23)])
def test_below_80x24_a_screen_says_to_make_the_window_bigger(size):
    """Below 80×24 the game shows what to do instead of a cut table; keys do not reach the table, and
    the game comes back as it was once the window is 80×24."""
    seen = {}

    async def flow(app, pilot):
        seen["screen"] = type(app.screen).__name__
        seen["words"] = " ".join(str(app.screen.query_one("Static").render()).split())
        before = app.driver.state.turn if hasattr(app.driver.state, "turn") else len(app.driver.state.history)
        await pilot.press("1")
        await pilot.pause()
        after = app.driver.state.turn if hasattr(app.driver.state, "turn") else len(app.driver.state.history)
        seen["played"] = before != after
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        seen["back"] = type(app.screen).__name__

    run(new_app(), flow, size)
    assert seen["screen"] == "TooSmall"
    assert f"The window is {size[0]}×{size[1]}" in seen["words"]
    assert "make the window at least 80×24" in seen["words"]
    assert not seen["played"]
    assert seen["back"] == "TableScreen"


def test_the_too_small_screen_fits_a_40x12_window():
    seen = {}

    async def flow(app, pilot):
        assert isinstance(app.screen, TooSmall)
        seen["region"] = app.screen.query_one("Static").region

    run(new_app(), flow, (40, 12))
    r = seen["region"]
    assert r.right <= 40 and r.bottom <= 12 and r.height >= 2


def test_ctrl_c_still_asks_to_quit_when_the_window_is_too_small():
    """The quit question is answered at any size (it is not hidden under the too-small screen)."""
    seen = {}

    async def flow(app, pilot):
        await pilot.press("ctrl+c")
        await pilot.pause()
        seen["screen"] = type(app.screen).__name__
        await pilot.press("y")
        await pilot.pause()

    app = new_app()
    run(app, flow, (60, 20))
    assert seen["screen"] == "Prompt" and app.return_value == "quit"
