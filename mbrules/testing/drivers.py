"""Random play over every bundled ruleset, option and player count (property tests, soak, api_test)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .checker import check

if TYPE_CHECKING:
    from mbrules.engine import Game, State
    from mbrules.ruleset import Ruleset

__all__ = ["bundled_ids", "configurations", "game_of", "load_game", "load_rules", "play_random", "tables"]


def bundled_ids() -> tuple[list[str], list[str]]:
    """The bundled ruleset ids and option ids, sorted (the loader's lists)."""
    from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids

    return bundled_ruleset_ids(), bundled_option_ids()


def tables() -> list[tuple[str, int]]:
    """Every bundled ruleset at every player count its rules name, ``(ruleset id, players)``: the tables
    every command (play, simulate, compare, the terminal game, the environments) must play."""
    return [(rid, n) for rid in bundled_ids()[0] for n in sorted(int(k) for k in load_rules(rid).player_counts)]


_RULES: dict[tuple[str, tuple[str, ...]], Ruleset] = {}
_GAMES: dict[tuple[str, tuple[str, ...], int], Game] = {}


def load_rules(ruleset: str, options: tuple[str, ...] | list[str] = ()) -> Ruleset:
    """The :class:`~mbrules.ruleset.Ruleset` of a bundled id or path with ``options`` (cached)."""
    from mbrules.ruleset import load_ruleset

    key = (ruleset, tuple(options))
    if key not in _RULES:
        _RULES[key] = load_ruleset(ruleset, list(options))
    return _RULES[key]


def load_game(ruleset: str, players: int, options: tuple[str, ...] | list[str] = ()) -> Game:
    """The compiled Game, as :func:`mbrules.load_game` gives it (same arguments), cached."""
    from mbrules.engine import Game

    key = (ruleset, tuple(options), players)
    if key not in _GAMES:
        _GAMES[key] = Game(load_rules(ruleset, options), players)
    return _GAMES[key]


def game_of(config: tuple[str, tuple[str, ...], int]) -> Game:
    """The compiled Game of a ``(ruleset, options, players)`` configuration (:func:`configurations`)."""
    ruleset, options, players = config
    return load_game(ruleset, players, options)


def configurations() -> list[tuple[str, tuple[str, ...], int]]:
    """Every bundled ruleset, with no option or one bundled option, at every player count it allows
    (an option the ruleset refuses, e.g. stacked-hazards on wikipedia or three-vs-three on express, is left out)."""
    from mbrules.ruleset import RulesetError

    rulesets, options = bundled_ids()
    out: list[tuple[str, tuple[str, ...], int]] = []
    for rid in rulesets:
        for opts in [()] + [(o,) for o in options]:
            try:
                rs = load_rules(rid, opts)
            except RulesetError as exc:  # refused with a sentence (tests/test_option_edition_pairs.py lists them)
                if not exc.refusal:
                    raise
                continue
            for n in sorted(int(k) for k in rs.player_counts):
                out.append((rid, opts, n))
    return out


def play_random(
    state: State, rng: random.Random, *, checks: bool = True, max_actions: int = 100_000, dealt: bool = True
) -> list[str]:
    """Play random legal actions until the hand is over; return the first violations found (or [])."""
    for _ in range(max_actions):
        if state.hand_over:
            return []
        state.apply(rng.choice(state.legal_actions()))
        if checks:
            bad = check(state, dealt=dealt)
            if bad:
                return bad
    return [f"the hand did not end within {max_actions} actions"]
