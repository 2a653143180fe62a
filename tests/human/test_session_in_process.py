"""The session loop in process (scripted keyboard): what a seat may see, bots' streams, partners, hints."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from rich.console import Console

import mbrules
from mbrules.bots import make_bot
from mbrules.engine import Observer, State
from mbrules.matches import play_match
from mbrules.narrate import Narrator
from mbrules.testing import tables
from mbrules.tui import HumanSession, hint_bot_name, screen
from tiers import one_each


def _console(width: int = 140) -> Console:
    return Console(file=io.StringIO(), width=width, force_terminal=False, highlight=False, record=True)


class HeuristicKeyboard:
    """Types, at each prompt, the number of the move the heuristic bot of that seat would choose."""

    def __init__(self, game, seed):
        self.game = game
        self.bots = {p: make_bot("heuristic", game, p, seed) for p in range(game.players)}
        self.session = None
        self.prompts = 0

    def __call__(self, prompt: str) -> str:
        self.prompts += 1
        assert self.prompts < 5000
        if "your move" not in prompt:
            return ""  # press Enter
        st = self.session.state
        p = st.current_player
        legal = st.legal_actions()
        return str(legal.index(self.bots[p].choose(st.observation(p), legal)) + 1)


def _session(ruleset, players, seed, humans, max_hands=1, options=()):
    game = mbrules.load_game(ruleset, players, options)
    keys = HeuristicKeyboard(game, seed)
    s = HumanSession(game, seed, ["heuristic"], humans, console=_console(), read=keys, max_hands=max_hands)
    keys.session = s
    return game, s


@pytest.mark.parametrize(
    "ruleset,players,humans",
    [
        ("winning-moves", 4, [0]),
        ("parker-1971", 3, [1]),
        ("kids-115", 6, [0, 3]),
        ("wikipedia", 2, [1]),
        # issue 36: the newest editions at every player count their rules name, a person in the first seat
        # (the fast set: each at one count, in turn; the slow set: the others)
        *one_each([(r, n, [0]) for r, n in tables() if r in ("asmodee-2014", "express")], key=lambda c: c[0]),
    ],
)
def test_same_moves_same_game_as_a_headless_match_of_the_seed(ruleset, players, humans):
    """Bots keep the streams of `mbrules play`: a person who plays as the heuristic bot gets the bots' game."""
    game, s = _session(ruleset, players, 5, humans)
    st = s.run()
    headless = play_match(game, 5, ["heuristic"], max_hands=1)
    assert [str(a) for p, a in st.history] == [str(a) for p, a in headless.history]
    assert st.hand_sheets == headless.hand_sheets


def test_the_screen_is_built_from_the_deciding_human_seats_observation_only(monkeypatch):
    """No snapshot, and every screen drawn from the observation of the human seat that decides."""

    def no_snapshot(self):
        raise AssertionError("the terminal UI read snapshot()")

    monkeypatch.setattr(State, "snapshot", no_snapshot)
    drawn = []
    real = screen.decision_screen

    def spy(game, obs, legal, narration, note=(), unicode=True, hand_points=None):
        drawn.append((obs.player, obs.decision.player))
        return real(game, obs, legal, narration, note, unicode, hand_points)

    monkeypatch.setattr(screen, "decision_screen", spy)
    game, s = _session("winning-moves", 6, 3, [0, 3])
    s.run()
    assert drawn and all(p in (0, 3) and p == d for p, d in drawn)
    out = s.console.export_text()
    assert "C (p3, p6)" in out and "A (p1, p4)" in out  # 6 players: three partnerships


def test_narration_tells_every_play_but_no_draw_and_no_declined_window():
    """A window opens only for a holder of the safety: telling a decline would tell the table that hand."""

    class Collect(Observer):
        def __init__(self, game):
            self.words = Narrator(game, public=True)  # the terminal seat's narration
            self.told = []

        def transition(self, st, t):
            self.told.append((t.action.kind, self.words.action(t)))

    game = mbrules.load_game("winning-moves", 4)
    kinds = set()
    for seed in range(40):
        c = Collect(game)
        play_match(game, seed, ["random"], max_hands=1, observers=[c])  # random bots let windows pass
        for kind, line in c.told:
            kinds.add(kind)
            if kind in ("draw", "decline"):
                assert line is None, (kind, line)
            else:
                assert line and line.startswith("p"), (kind, line)
        if {"decline", "coup-fourre", "discard", "play"} <= kinds:
            break
    assert {"decline", "coup-fourre", "discard", "play", "draw"} <= kinds


def test_hints_come_from_the_strongest_registered_bot(monkeypatch):
    """The bot that gives hints is the one whose registration ranks highest for hints (issue 37: the
    fact lives in the bot's registration, not in a list in the TUI)."""
    from mbrules.bots import base

    assert hint_bot_name() == "expert"  # the search bot, registered with the others
    monkeypatch.setattr(base, "_FACTS", {k: v for k, v in base._FACTS.items() if k != "expert"})
    assert hint_bot_name() == "heuristic"
    monkeypatch.setattr(base, "_FACTS", {k: v for k, v in base._FACTS.items() if k not in ("expert", "heuristic")})
    assert hint_bot_name() == "random"


def test_screen_exports_as_svg_with_the_hand_table_and_moves():
    """The screenshot path: a decision screen rendered by Rich and exported as SVG (valid XML)."""
    game = mbrules.load_game("winning-moves", 4)
    st = State.new_match(game, 41, deal_next=False)
    st.apply("draw")
    obs = st.observation(0)
    con = _console(120)
    con.print(screen.decision_screen(game, obs, st.legal_actions(), ["p4 (B) plays Stop! on side A"]))
    svg = con.export_svg(title="mbrules play --human p1")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    text = "".join(root.itertext()).replace("\xa0", " ")
    for c in obs.hand:
        assert game.card_ids[c] in text
    assert "Your" in text and "moves" in text and "Battle" in text
