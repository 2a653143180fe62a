"""Fairness: every bot decides from its seat's observation alone.

Two real positions that differ only in the cards a seat cannot see (the other hands, the
draw order) give every bot, seeded alike, the same decision; and nothing in mbrules/bots
reads a state's snapshot or private fields (only the engine may)."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest

import mbrules
from mbrules.bots import make_bot
from mbrules.engine.determinize import determinize
from mbrules.vocab import MULLIGAN, DecisionKind
from bots_helpers import decisions, learned_spec
from tiers import examples

BOTS = ["random", "heuristic", "expert:budget=8", "expert:budget=60,z=10,drop=-5", "learned", "learned:width=3"]
# the search bots cost seconds a case: make test-fast keeps one of each (the deep expert's search is the
# shallow one's, for longer), make test every case
_SLOW = pytest.mark.slow


# make test-fast: the cheap bots at both counts, the shallow expert and the wide learned bot at 4 cars only (the
# partnership's count: a second seat of the side whose hand is hidden too; issue 46 point 7, 0.75 CPU-s); a bot
# reading what it cannot see decides otherwise at its first such position, at any count (docs/performance.md)
_FOUR_ONLY = ("expert:budget=8", "learned:width=3")


def _permuting_cases():
    for players in (2, 4):
        for b in BOTS:
            slow = b.startswith("expert:budget=60") or (players == 2 and b in _FOUR_ONLY)
            yield pytest.param(b, players, marks=[_SLOW] if slow else [], id=f"{b}-{players}")


@pytest.mark.parametrize(("name", "players"), list(_permuting_cases()))
def test_permuting_unseen_cards_gives_the_same_decision(name, players):
    game = mbrules.load_game("winning-moves", players=players)
    rng = random.Random(7)
    checked = 0
    for st, p, acts in decisions(game, seed=3, every=4 if name.startswith(("expert", "learned")) else 1):
        obs = st.observation(p)
        # two other real worlds that this seat cannot tell from the real one
        w1, w2 = determinize(obs, rng), determinize(obs, rng)
        assert w1.snapshot() != w2.snapshot()
        choices = set()
        for world in (st, w1, w2):
            bot = make_bot(name, game, p, seed=99)  # the same bot, the same stream
            choices.add(bot.choose(world.observation(p) if bot.observes else None, world.legal_actions()))
        assert len(choices) == 1, (name, st, choices)
        checked += 1
    assert checked >= 10


BOTS_DIR = pathlib.Path(mbrules.__file__).parent / "bots"


@pytest.mark.parametrize("path", sorted(BOTS_DIR.glob("*.py")), ids=lambda p: p.name)
def test_bots_never_read_snapshots_or_private_fields(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            assert node.attr != "snapshot", f"{path.name}:{node.lineno} reads a snapshot"
            if node.attr.startswith("_") and not node.attr.startswith("__"):
                # only the bot's own fields (self._x, ctx._x of its own helper classes)
                assert isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"), (
                    f"{path.name}:{node.lineno} reads a private field .{node.attr}"
                )


# -- the hidden state of issue 35's house rules ------------------------------------------------------
# Each option below adds a decision or hidden state a bot could be tempted to read: which card the draw
# pile gives next (draw-from-discard: pile or discard top; mulligan: what comes back), the reshuffled
# pile's order (reshuffle-discard), a draw that passes over held cards (no-duplicate-draws), who else
# holds a remedy (fast-play-remedy), the hazards under the top of a stack (stacked-hazards, public), the
# combination remedies. ``seen`` is what the positions must include for the check to mean anything.
OPTION_CASES = {
    "draw-from-discard": lambda st, acts: st.game.draw_discard_action in acts,
    "mulligan": lambda st, acts: any(a.op == MULLIGAN for a in acts),
    "reshuffle-discard": lambda st, acts: st.observation(st.current_player).reshuffles > 0,
    "no-duplicate-draws": lambda st, acts: True,
    "fast-play-remedy": lambda st, acts: st.decision.kind == DecisionKind.FAST_PLAY,
    "stacked-hazards": lambda st, acts: any(len(v.hazards) > 1 for v in st.observation(st.current_player).sides),
    "combination-remedies": lambda st, acts: True,
}
EVERY_BOT = [
    "random",
    "heuristic",
    "heuristic-2026",
    "restricted:no_discard_draw=1,no_mulligan=1",
    "expert:budget=8",
    "learned",
]


def test_every_registered_bot_is_checked_for_fairness():
    """A bot registered later must be added here, not slip past the hidden-state checks."""
    from mbrules.bots import bot_names

    assert {b.partition(":")[0] for b in EVERY_BOT} == set(bot_names())


# make test-fast checks each bot on one option and each option with one bot (the search bots, seconds a case,
# on the options they were first kept fast on; the restricted bot on the two decisions it refuses itself: the
# discard draw and the mulligan); make test every pair. Issue 46 point 7: the fast set's 30 cases were 7.3 CPU-s.
FAST_PAIRS = {
    ("no-duplicate-draws", "random"),
    ("reshuffle-discard", "heuristic"),
    ("combination-remedies", "heuristic"),
    ("fast-play-remedy", "heuristic-2026"),
    ("stacked-hazards", "heuristic-2026"),
    ("draw-from-discard", "restricted"),
    ("mulligan", "restricted"),
    ("draw-from-discard", "expert"),
    ("mulligan", "learned"),
}


def _hidden_state_cases():
    for option in sorted(OPTION_CASES):
        for name in EVERY_BOT:
            slow = (option, name.partition(":")[0]) not in FAST_PAIRS
            yield pytest.param(option, name, marks=[_SLOW] if slow else [], id=f"{option}-{name}")


@pytest.mark.parametrize(("option", "name"), list(_hidden_state_cases()))
def test_the_new_hidden_state_of_the_house_rules_never_changes_a_decision(option, name, tmp_path_factory):
    """Dealing the unseen cards of a real position otherwise (other hands, the draw order, after a
    reshuffle the new pile's order) gives every bot, seeded alike, the same decision at every kind of
    decision the option brings; the positions include the option's own (``OPTION_CASES``)."""
    # four cars each for himself empty the deck before a trip ends: the pile is reshuffled
    players, options = (4, ("each-for-himself", option)) if option == "reshuffle-discard" else (2, (option,))
    game = mbrules.load_game("winning-moves", players=players, options=options)
    spec = learned_spec(game, tmp_path_factory.mktemp("models")) if name == "learned" else name
    rng = random.Random(11)
    slow = name.startswith(("expert", "learned"))
    checked = seen = 0
    # one match (two hands) a case; the search bots every third decision. Issue 46 point 7: a second seed (4)
    # at every table but the search bots' four-car ones was ~half of this test's 30 make-test CPU-s; a bot
    # that reads what it cannot see decides otherwise at its first such position (the mutants of round 12:
    # docs/performance.md), and each option is met with each bot here still
    # the search bots' fast cases: the first hand (a second was 0.35 of the expert's 0.75 CPU-s; issue 46 point 7)
    hands = examples(slow=2, fast=1) if slow else 2
    for st, p, acts in decisions(game, seed=3, hands=hands, every=3 if slow else 1):
        obs = st.observation(p)
        w1, w2 = determinize(obs, rng), determinize(obs, rng)
        choices = set()
        for world in (st, w1, w2):
            bot = make_bot(spec, game, p, seed=99)
            choices.add(bot.choose(world.observation(p) if bot.observes else None, world.legal_actions()))
        assert len(choices) == 1, (option, name, st, choices)
        checked += 1
        seen += bool(OPTION_CASES[option](st, acts))
    assert checked >= 10 and seen >= 1, (checked, seen)
