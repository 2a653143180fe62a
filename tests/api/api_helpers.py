"""Helpers for the public-API tests: every bundled configuration, random reachable positions.

Only the public API (``mbrules.__all__``, ``game.actions``, ``State`` methods, ``snapshot()``)
is used here: these tests are the boundary's users.
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

import mbrules
from mbrules.ruleset import bundled_ruleset_ids, load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/positions.py, the one position-by-ids helper

CONFIGS = tuple(
    (rid, int(n)) for rid in bundled_ruleset_ids() for n in sorted(load_ruleset(rid).player_counts, key=int)
)


@functools.lru_cache(maxsize=None)
def game_of(rid: str, players: int) -> mbrules.Game:
    return mbrules.load_game(rid, players=players)


def random_position(game: mbrules.Game, seed: int, steps: int, rest_at_hand_end: bool = False) -> mbrules.State:
    """The state after up to ``steps`` uniformly random legal actions of the match dealt from ``seed``.

    With ``rest_at_hand_end`` the match stays in its first hand (it rests when the hand ends).
    """
    rng = random.Random(seed)
    state = mbrules.State.new_match(game, seed, deal_next=not rest_at_hand_end)
    for _ in range(steps):
        acts = state.legal_actions()
        if not acts:
            break
        state.apply(rng.choice(acts))
    return state


def canonical(game: mbrules.Game, player: int, action: mbrules.Action) -> mbrules.Action:
    """One name per move: a non-hazard play naming its own side is its unnamed form; a hazard's
    unnamed form (only one opposing side) is the named one."""
    if action.kind != "play":
        return action
    c = action.card_index
    side = game.side_of[player]
    if game.ruleset.cards[action.card].kind == "hazard":
        if action.side is None:
            opp = [s for s in range(game.sides) if s != side]
            return game.play_action[c][opp[0]] if len(opp) == 1 else action
        return action
    if action.side_index == side:
        return game.play_own[c]
    return action
