"""heuristic-2026 is the frozen baseline of the bot figures: it must keep playing the starting heuristic's games.

The digest below was taken by playing the starting heuristic itself (a checkout of commit 5e57a76,
registered through ``benchmarks/bench_bots.py --baseline``) on the same matches; a change to the
frozen copy, or to the engine that changes what it sees, shows here.
"""

import hashlib

import mbrules
from mbrules.bots import bot_names
from mbrules.matches import play_match

# sha256 of the histories below, played by the heuristic of commit 5e57a76 (2026-11-22)
STARTING_HEURISTIC_GAMES = "0fa4b9046758a99cff9283df6da9aa3fbe72df585a1514f592493993e3be6fd9"


def _games_digest(bot: str) -> str:
    digest = hashlib.sha256()
    for ruleset, players in [
        ("winning-moves", 2),
        ("winning-moves", 4),
        ("parker-1971", 3),
        ("kids-115", 6),
        ("wikipedia", 2),
    ]:
        game = mbrules.load_game(ruleset, players=players)
        for seed in range(4):
            state = play_match(game, seed, [bot] * players, max_hands=2)
            digest.update(repr([str(step) for step in state.history]).encode())
    return digest.hexdigest()


def test_frozen_baseline_plays_the_starting_heuristics_games():
    assert "heuristic-2026" in bot_names()
    assert _games_digest("heuristic-2026") == STARTING_HEURISTIC_GAMES


def test_todays_heuristic_is_not_the_frozen_one():
    """The pin can fail: today's tuned heuristic plays other games on the same deals."""
    assert _games_digest("heuristic") != STARTING_HEURISTIC_GAMES
