"""The terminal game at a one-player table (option solo): one seat, one side, a whole hand played at the
keyboard as the headless match of the seed, and a hazard offered on the player's own car in words."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("rich")

from rich.console import Console  # noqa: E402

import mbrules  # noqa: E402
from mbrules.bots import make_bot  # noqa: E402
from mbrules.matches import play_match  # noqa: E402
from mbrules.narrate import Narrator  # noqa: E402
from mbrules.tui import HumanSession  # noqa: E402
from positions import position  # noqa: E402


def test_solo_a_person_plays_a_whole_hand_alone_as_the_headless_match():
    game = mbrules.load_game("winning-moves", 1, ["solo"])
    bot = make_bot("heuristic", game, 0, 5)
    session = None
    prompts = []

    def keys(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 3000
        if "your move" not in prompt:
            return ""
        st = session.state
        legal = st.legal_actions()
        return str(legal.index(bot.choose(st.observation(0), legal)) + 1)

    console = Console(file=io.StringIO(), width=100, force_terminal=False, highlight=False, record=True)
    session = HumanSession(game, 5, ["heuristic"], [0], console=console, read=keys, max_hands=1)
    st = session.run()
    headless = play_match(game, 5, ["heuristic"], max_hands=1)
    assert [str(a) for _, a in st.history] == [str(a) for _, a in headless.history]
    assert st.hand_sheets == headless.hand_sheets and st.hand_sheets[0][0]["shutout"] == 0


def test_solo_a_hazard_in_hand_is_offered_on_the_player_s_own_side():
    game = mbrules.load_game("winning-moves", 1, ["solo"])
    ix = game.index
    st = position(game, {0: ["accident", "d25", "d50", "d75", "d100", "roll"]}, {0: {"battle": ["roll"]}})
    words = Narrator(game, Console(file=io.StringIO())).move(st.observation(0), game.play_action[ix["accident"]][0])
    assert words == "Accident on your own side"


def test_solo_the_full_screen_game_plays_a_hand_alone_to_the_score_sheet():
    """The Textual table at one seat: the only side drawn, moves by number until the hand's score sheet."""
    asyncio = pytest.importorskip("asyncio")
    pytest.importorskip("textual")
    from mbrules.tui.app import MatchDriver, MilleBornesApp, ScoreSheet

    game = mbrules.load_game("winning-moves", 1, ["solo"])
    app = MilleBornesApp(MatchDriver(game, 41, ["heuristic"], [0], max_hands=1))

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for _ in range(600):
                if isinstance(app.screen, ScoreSheet):
                    break
                many = len(app.driver.state.legal_actions()) >= 10
                await pilot.press(*(["1", "enter"] if many else ["1"]))
                await pilot.pause()
            assert isinstance(app.screen, ScoreSheet)

    asyncio.run(main())
    assert app.driver.state.hand_sheets[0][0]["shutout"] == 0
