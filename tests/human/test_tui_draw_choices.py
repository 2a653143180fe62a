"""The new decisions of issue 35 at the terminal table: a draw that is a choice (option draw-from-discard's
discard top, option mulligan's cards thrown then the draw back) waits for p, t or m, with the keys on the
status line, the key bar and the help, at 80×24; option fast-play-remedy's window is a prompt over the
table. Both the full-screen game (Textual's pilot) and ``--plain`` (the prompt loop, read scripted)."""

from __future__ import annotations

import io

import pytest

textual = pytest.importorskip("textual")

from rich.console import Console  # noqa: E402
from rich.text import Text  # noqa: E402

import mbrules  # noqa: E402
from mbrules.tui import HumanSession  # noqa: E402
from mbrules.tui.app import MatchDriver, MilleBornesApp, Prompt, TableScreen, help_text  # noqa: E402
from mbrules.tui.session import QuitMatch  # noqa: E402
from mbrules.vocab import DecisionKind  # noqa: E402
from test_tui_app import run  # noqa: E402  (the same pilot as the other tests)

DRAWS = ["draw-from-discard", "mulligan"]
SEED = 5  # p1's first hand: End of Limit, Roll! ×3, 25 Miles, 100 Miles; p2 heuristic


def draw_app(options=DRAWS, seed=SEED):
    game = mbrules.load_game("winning-moves", 2, options)
    return MilleBornesApp(MatchDriver(game, seed, ["heuristic"], [0], max_hands=1))


def screen_lines(app) -> dict[str, str]:
    scr = app.screen
    return {w: str(scr.query_one(f"#{w}").render()) for w in ("status", "keys")}


def mine(st, p=0) -> list[str]:
    return [str(a) for q, a in st.history if q == p]


def test_a_mulligan_is_m_on_each_picked_card_then_p_draws_back_and_the_table_waits_for_each_key():
    """The first screen is a draw choice (nothing drawn for the person); m throws the picked card away and
    the mulligan stays open, p draws back to six and ends the turn; each step is told in the last plays."""
    seen = {}

    async def flow(app, pilot):
        st = app.driver.state
        assert isinstance(app.screen, TableScreen) and app.draw_choice() is not None
        lines = screen_lines(app)
        seen["status0"], seen["keys0"] = lines["status"], lines["keys"]
        await pilot.press("m")  # the picked card is the first: End of Limit
        await pilot.pause()
        seen["kind"] = st.observation(0).decision.kind
        seen["status1"] = screen_lines(app)["status"]
        await pilot.press("right", "right", "right", "m")  # 25 Miles (Roll! ×3 came before it: now 3rd)
        await pilot.pause()
        seen["plays"] = list(app.driver.narrator.lines)
        await pilot.press("p")
        await pilot.pause()
        seen["hand"] = len(app.driver.state.observation(0).hand)
        seen["mine"] = mine(app.driver.state)
        seen["notes"] = list(app.driver.notes[0])

    run(draw_app(), flow)
    assert "Your draw: p the Draw Pile" in seen["status0"] and "m throws End of Limit (picked)" in seen["status0"]
    assert "t take" not in seen["status0"]  # the discard pile is empty: t is not offered
    assert seen["keys0"].startswith("p pile  m mulligan ") and len(seen["keys0"]) <= 80
    assert seen["kind"] == DecisionKind.MULLIGAN
    assert "MULLIGAN: m throws" in seen["status1"] and "p draw back to 6 cards" in seen["status1"]
    assert seen["mine"] == ["mulligan end_of_limit", "mulligan d25", "draw"]
    assert any("throws End of Limit away (mulligan)" in line for line in seen["plays"])
    assert seen["hand"] == 6  # drawn back, and the turn came round again: a new draw choice waits
    assert len(seen["notes"]) == 2 and all(n.startswith("You drew ") for n in seen["notes"])  # both cards drawn back


def test_t_takes_the_discard_top_and_the_status_line_names_the_card_within_two_lines_at_80_columns():
    seen = {}

    async def flow(app, pilot):
        await pilot.press("m", "p")  # End of Limit thrown away: it is the discard top at p1's next draw
        await pilot.pause()
        st = app.driver.state
        top = st.observation(0).discard[-1]
        seen["top"] = app.game.names[top]
        seen["status"] = app.status_text().plain
        seen["keys"] = screen_lines(app)["keys"]
        await pilot.press("t")
        await pilot.pause()
        seen["mine"] = mine(app.driver.state)
        seen["plays"] = list(app.driver.narrator.lines)

    run(draw_app(), flow)
    top = seen["top"]
    assert f"t {top} from the Discard Pile" in seen["status"]
    assert len(Text(seen["status"]).wrap(Console(width=80), 80)) <= 3  # the status pane is at most three lines high
    assert seen["keys"].startswith("p pile  t discard  m mulligan ")
    assert seen["mine"][-1] == "draw discard"
    assert any(f"takes {top} from the Discard Pile" in line for line in seen["plays"])


def test_keys_with_no_such_way_to_draw_say_why_and_change_nothing():
    """d at a draw choice is refused in words; t where the edition has no discard draws says so."""
    seen = {}

    async def flow(app, pilot):
        st = app.driver.state
        n = len(st.history)
        await pilot.press("d")
        await pilot.pause()
        seen["d"] = (app.message, len(st.history) == n)
        await pilot.press("t")  # draw-from-discard is off here
        await pilot.pause()
        seen["t"] = (app.message, len(st.history) == n)

    run(draw_app(options=["mulligan"]), flow)
    assert seen["d"][0].startswith("You cannot discard") and seen["d"][1]
    assert seen["t"] == ("This edition never lets you take a card from the Discard Pile.", True)


def test_without_the_options_the_draw_is_not_asked_and_p_t_m_say_it_is_not_the_draw():
    seen = {}

    async def flow(app, pilot):
        seen["choice"] = app.draw_choice()
        seen["keys"] = screen_lines(app)["keys"]
        await pilot.press("t")
        await pilot.pause()
        seen["message"] = app.message

    run(draw_app(options=[]), flow)
    assert seen["choice"] is None and seen["keys"].startswith("←→ card Enter play")
    assert "not your draw now" in seen["message"]


def test_the_help_names_the_draw_keys_and_the_fast_play_prompt():
    words = " ".join(help_text(80).split())
    assert "p at your draw: draw from the draw pile" in words
    assert "t at your draw: take the top card of the discard pile" in words
    assert "m at your draw: throw the picked card away, a mulligan" in words
    assert "fast-play window" in words


def test_a_fast_play_window_is_a_prompt_over_the_table_and_y_plays_the_remedy_out_of_turn():
    """Option fast-play-remedy: when a bot's hazard hits p1 holding its remedy, the table puts the question
    in a prompt; y plays the remedy at once (told as a fast play)."""
    seen = {}

    async def flow(app, pilot):
        for _ in range(400):
            if isinstance(app.screen, Prompt) and "FAST PLAY?" in app.screen.text.plain:
                seen["question"] = app.screen.text.plain
                await pilot.press("y")
                await pilot.pause()
                seen["mine"] = mine(app.driver.state)
                seen["plays"] = list(app.driver.narrator.lines)
                return
            if not isinstance(app.screen, (TableScreen, Prompt)):
                return  # the hand ended with no window for p1
            await pilot.press("1")
            await pilot.pause()

    run(draw_app(options=["fast-play-remedy"], seed=2), flow)
    assert "1 or y: play" in seen["question"] and "2 or n: let it pass" in seen["question"]
    assert any(a.startswith("fast-play ") for a in seen["mine"])
    assert any("(fast play)" in line and line.startswith("p1 (A) answers") for line in seen["plays"])


# -- --plain: the prompt loop ----------------------------------------------------------------------------
class Script:
    """Types the given lines at p1's prompts, then quits; keeps every prompt shown."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if "Quit this match" in prompt:
            return "y"
        return self.lines.pop(0) if self.lines else "q"


def test_plain_p_t_and_m_card_choose_the_draw_and_the_prompt_and_screen_name_the_keys():
    game = mbrules.load_game("winning-moves", 2, DRAWS)
    keys = Script(["m", "m end_of_limit", "m d25", "p", "t"])
    console = Console(file=io.StringIO(), width=80, force_terminal=False, highlight=False, record=True)
    s = HumanSession(game, SEED, ["heuristic"], [0], console=console, read=keys, max_hands=1)
    with pytest.raises(QuitMatch):
        s.run()
    out = console.export_text()
    assert mine(s.state) == ["mulligan end_of_limit", "mulligan d25", "draw", "draw discard"]
    assert keys.prompts[0].endswith("your move [1-5, p, m CARD, words, ?, r, q, h]: ")
    assert "Say which card to throw away: m and its id, as 'm d25'." in out  # a bare m chooses nothing
    assert "Your draw: p the Draw Pile (89), m CARD throws CARD away" in " ".join(out.split())
    assert any("p, t, m CARD, " in p for p in keys.prompts)  # the discard top on offer at the second draw
    assert "takes 25 Miles from the Discard Pile" in out
    assert max(len(line) for line in out.splitlines()) <= 80
