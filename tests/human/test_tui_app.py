"""The full-screen game (mbrules/tui/app.py) driven by Textual's own pilot (``App.run_test``), in process."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

textual = pytest.importorskip("textual")

import mbrules  # noqa: E402
from mbrules.engine import IllegalAction  # noqa: E402
from mbrules.tui.app import (
    HandView,
    MatchDriver,
    MilleBornesApp,
    ScoreSheet,  # noqa: E402
    TableScreen,
    TableView,
    TextPane,
)
from mbrules.tui.words import refusal  # noqa: E402
from positions import position  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def new_app(ruleset="winning-moves", players=2, seed=41, humans=(0,), hands=1, bots=("heuristic",)):
    game = mbrules.load_game(ruleset, players=players)
    return MilleBornesApp(MatchDriver(game, seed, list(bots), list(humans), max_hands=hands))


def run(app, flow, size=(80, 24)):
    async def main():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await flow(app, pilot)

    asyncio.run(main())


async def play_with_ones(app, pilot, limit=400):
    """Press 1 (the first listed move; yes at a prompt) until the score sheet shows."""
    for _ in range(limit):
        if isinstance(app.screen, ScoreSheet):
            return True
        await pilot.press("1")
        await pilot.pause()
    return False


async def first_move(app, pilot):
    """Move 1 by its number: with ten moves or more '1' waits for a second digit, and Enter takes it."""
    many = isinstance(app.screen, TableScreen) and len(app.driver.state.legal_actions()) >= 10
    await pilot.press(*(["1", "enter"] if many else ["1"]))
    await pilot.pause()


def test_a_whole_hand_is_played_with_number_keys_and_ends_on_the_score_sheet(drawn_screens):
    """Every screen of the hand drawn as in a terminal (tests/human/conftest.py: the other tests draw none)."""
    app = new_app()
    seen = {}

    async def flow(app, pilot):
        assert isinstance(app.screen, TableScreen)
        seen["sheet"] = await play_with_ones(app, pilot)
        seen["hands"] = app.driver.state.hands_played
        await pilot.press("enter")
        await pilot.pause()

    run(app, flow)
    assert seen == {"sheet": True, "hands": 1}
    assert app.return_value == "over"


def test_arrows_and_enter_pick_a_card_then_its_target():
    app = new_app()
    got = {}

    async def flow(app, pilot):
        st = app.driver.state
        legal = st.legal_actions()
        hand = st.observation(0).hand
        play = next(a for a in legal if a.op == mbrules.vocab.PLAY)  # seed 41: p1 can play Roll!
        k = hand.index(play.card_index)
        for _ in range(k):
            await pilot.press("right")
        await pilot.press("enter")
        await pilot.pause()
        got["targets"] = [words for words, _ in app.targets]
        await pilot.press("enter")
        await pilot.pause()
        got["played"] = next(a for p, a in reversed(app.driver.state.history) if p == 0 and a.op != mbrules.vocab.DRAW)
        got["play"] = play

    run(app, flow)
    assert got["played"] == got["play"]
    assert got["targets"][0] == "Roll! on your side" and got["targets"][-1] == "Discard Roll!"


def test_a_card_that_cannot_be_played_says_why_in_player_words():
    app = new_app()
    said = {}

    async def flow(app, pilot):
        hand = app.driver.state.observation(0).hand
        names = [app.game.names[c] for c in hand]
        await pilot.press(*["right"] * names.index("75 Miles"), "enter")
        await pilot.pause()
        said["message"] = app.message

    run(app, flow)
    assert said["message"] == "75 Miles cannot be played: you are not rolling yet: play a Roll! first."


def test_refusal_for_a_flat_tire_names_its_remedy():
    game = mbrules.load_game("winning-moves", players=2)
    ix = game.index
    st = position(game, {0: ["d100", "spare_tire"], 1: ["d25"]}, {0: {"battle": ["roll", "flat_tire"]}}, draw=3)
    st.apply("draw")
    with pytest.raises(IllegalAction) as e:
        st.verify("play d100")
    words = refusal(game, st.observation(0), ix["d100"], -1, e.value.code, e.value.message)
    assert words == "you have a Flat Tire: play a Spare Tire first"


def test_q_quits_only_after_y():
    app = new_app()
    seen = []

    async def flow(app, pilot):
        await pilot.press("q")
        await pilot.pause()
        seen.append(type(app.screen).__name__)
        await pilot.press("n")
        await pilot.pause()
        seen.append(type(app.screen).__name__)
        await pilot.press("q", "y")
        await pilot.pause()

    run(app, flow)
    assert seen == ["Prompt", "TableScreen"]
    assert app.return_value == "quit"


def test_r_shows_the_rules_in_a_pane_that_scrolls():
    app = new_app()
    seen = {}

    async def flow(app, pilot):
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, TextPane)
        pane = app.screen.query_one("#pane")
        await pilot.press("pagedown")
        await pilot.pause()
        seen["scrolled"] = pane.scroll_y
        await pilot.press("escape")
        await pilot.pause()
        seen["back"] = type(app.screen).__name__

    run(app, flow)
    assert seen["scrolled"] > 0 and seen["back"] == "TableScreen"


def test_the_rules_pane_gives_an_editions_own_score_line_and_turn_rule_in_words():
    """Issue 36 item 5: the French edition's capot (a score line as data) and its extra turn that ends with the
    draw pile read in words in the terminal game's rules pane, and the contract's shutout keys it does not read
    say so."""
    app = new_app(ruleset="dujardin-classic", players=4)
    seen = {}

    async def flow(app, pilot):
        await pilot.press("r")
        await pilot.pause()
        seen["body"] = app.screen.body(1000)  # unfolded: a line each
        seen["folded"] = app.screen.body(78)

    run(app, flow)
    body = seen["body"]
    assert all(len(line) <= 78 for line in seen["folded"].splitlines())
    assert (
        "score line shutout: 500 to each opposing side (when it played some distance), for each side where "
        "the side played no distance"
    ) in body
    assert "shutout bonus: once (not read: score line shutout below pays it)" in body
    assert "a safety's extra turn only while the draw pile lasts: yes" in body
    assert "the match: hands until a side reaches the points that end the match; highest total wins" in body


def test_undo_takes_back_your_last_move_against_bots():
    app = new_app()
    seen = {}

    async def flow(app, pilot):
        before = app.driver.state.snapshot()
        lines = list(app.driver.narrator.lines)
        await pilot.press("1")
        await pilot.pause()
        assert app.driver.state.snapshot() != before
        await pilot.press("u")
        await pilot.pause()
        seen["same"] = app.driver.state.snapshot() == before
        seen["lines"] = list(app.driver.narrator.lines) == lines
        await pilot.press("u")
        await pilot.pause()
        seen["message"] = app.message

    run(app, flow)
    assert seen == {"same": True, "lines": True, "message": "Nothing to undo in this hand."}


def test_hot_seat_hides_the_hand_until_the_next_person_presses_enter():
    app = new_app(humans=(0, 1))
    seen = []

    async def flow(app, pilot):
        seen.append(type(app.screen).__name__)  # p1 first: the hand stays hidden until Enter
        await pilot.press("enter")
        await pilot.pause()
        seen.append((type(app.screen).__name__, app.seat))
        await pilot.press("1")
        await pilot.pause()
        seen.append((type(app.screen).__name__, app.seat))

    run(app, flow)
    assert seen == ["Handover", ("TableScreen", 0), ("Handover", 1)]


def test_a_km_ruleset_counts_the_trip_in_km():
    app = new_app(ruleset=str(ROOT / "examples" / "stap-op.yaml"))
    text = {}

    async def flow(app, pilot):
        text["table"] = app.screen.query_one(TableView).render().plain

    run(app, flow)
    assert " km " in text["table"] and "miles" not in text["table"]


def test_the_hand_never_splits_a_card_across_lines():
    app = new_app(players=4, seed=3)
    text = {}

    async def flow(app, pilot):
        text["hand"] = app.screen.query_one(HandView)._text(40).plain

    run(app, flow)
    for line in text["hand"].splitlines():
        assert line.count("[") + line.count(">") == line.count("]") + line.count("<")


def test_a_coup_fourre_window_is_a_prompt_the_table_waits_for():
    app = new_app(seed=13)  # seed 13: p1's 9th decision (always the first listed move) is a window
    seen = {}

    async def flow(app, pilot):
        for _ in range(8):
            await first_move(app, pilot)
        seen["screen"] = type(app.screen).__name__
        seen["question"] = app.screen.text.plain.splitlines()[0]
        await pilot.press("d", "right", "enter")  # table keys do nothing while the prompt is up
        await pilot.pause()
        seen["still"] = type(app.screen).__name__
        await pilot.press("y")
        await pilot.pause()
        seen["called"] = [a for p, a in app.driver.state.history if p == 0 and a.op != mbrules.vocab.DRAW][
            -1
        ].op == mbrules.vocab.COUP_FOURRE

    run(app, flow)
    assert seen["screen"] == "Prompt" and seen["still"] == "Prompt"
    assert seen["question"].startswith("COUP FOURRÉ? ")
    assert seen["called"]


def test_the_extension_question_is_a_prompt_and_n_stops_the_hand():
    app = new_app(seed=9)  # seed 9: p1's 16th decision is the extension question
    seen = {}

    async def flow(app, pilot):
        for _ in range(15):
            await first_move(app, pilot)
        seen["question"] = app.screen.text.plain.splitlines()[0]
        await pilot.press("n")
        await pilot.pause()
        seen["screen"] = type(app.screen).__name__

    run(app, flow)
    assert seen["question"].startswith("EXTENSION? ")
    assert seen["screen"] == "ScoreSheet"


def test_the_mouse_picks_a_card_and_plays_a_listed_move():
    app = new_app()
    seen = {}

    async def flow(app, pilot):
        hand = app.screen.query_one(HandView)
        line, start, end, row = hand.spans[2]
        await pilot.click(HandView, offset=(start + 1, line))
        await pilot.pause()
        seen["row"] = (app.card_row, row)
        seen["targets"] = app.targets is not None or bool(app.message)
        await pilot.press("escape")
        before = len(app.driver.state.history)
        first = app.driver.state.legal_actions()[0]
        await pilot.click("#moves", offset=(3, 1))  # the first listed move
        await pilot.pause()
        seen["played"] = [a for p, a in app.driver.state.history[before:] if p == 0][0] == first

    run(app, flow)
    assert seen["row"][0] == seen["row"][1] == 2
    assert seen["targets"] and seen["played"]


# the fast set: two players and six (three sides, km: the most rows and the widest lines); make test also three
# and four players (issue 46 point 7)
@pytest.mark.parametrize(
    "ruleset,players",
    [
        ("winning-moves", 2),
        (str(ROOT / "examples" / "stap-op.yaml"), 6),
        pytest.param("kids-115", 3, marks=pytest.mark.slow),
        pytest.param("dujardin-classic", 4, marks=pytest.mark.slow),
    ],
)
def test_table_hand_moves_and_score_stay_on_an_80x24_screen(ruleset, players):
    app = new_app(ruleset=ruleset, players=players, seed=3)
    regions = {}

    async def flow(app, pilot):
        for _ in range(12):  # into the hand: speed limits, safeties and two-line hands show up
            await first_move(app, pilot)
            if not isinstance(app.screen, TableScreen):
                break
        for name in ("#header", "#table", "#plays", "#moves", "#hand", "#status", "#keys"):
            regions[name] = app.screen.query_one(name).region

    run(app, flow)
    for name, r in regions.items():
        assert r.height >= 1 and r.bottom <= 24 and r.right <= 80, (name, r)
    assert regions["#moves"].height >= 5 and regions["#plays"].height >= 5
