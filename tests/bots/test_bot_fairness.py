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
from bots_helpers import decisions

BOTS = ["random", "heuristic", "expert:budget=8", "expert:budget=60,z=10,drop=-5", "learned", "learned:width=3"]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("name", BOTS)
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
                assert isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"), \
                    f"{path.name}:{node.lineno} reads a private field .{node.attr}"
