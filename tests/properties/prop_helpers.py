"""Hypothesis strategies: a bundled configuration, a dealt match, and random legal play."""

from __future__ import annotations

import random

from hypothesis import assume
from hypothesis import strategies as st

from mbrules.testing import bundled_ids, load_game, load_rules
from mbrules.ruleset import RulesetError

RULESETS, OPTIONS = bundled_ids()


@st.composite
def configurations(draw, max_options: int = 3):
    """(ruleset id, option ids, players): a bundled ruleset, up to ``max_options`` options in any order."""
    rid = draw(st.sampled_from(RULESETS))
    opts = tuple(draw(st.lists(st.sampled_from(OPTIONS), max_size=max_options, unique=True)))
    try:
        rs = load_rules(rid, opts)
    except RulesetError:
        assume(False)  # options that do not combine are refused by the loader, not played
    players = draw(st.sampled_from(sorted(int(k) for k in rs.player_counts)))
    return rid, opts, players


seeds = st.integers(min_value=0, max_value=2**32 - 1)


def game_of(config):
    rid, opts, players = config
    return load_game(rid, players, opts)


def new_match(game, seed: int, observers=()):
    """A match that rests at each hand's end (``hand_over``) until ``next_hand()``, as these tests expect."""
    from mbrules.engine import State

    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    return st


def canonical(game, player: int, action):
    """The one form ``legal_actions()`` lists for ``player``'s ``action``: a hazard names its side (the
    only opposing side when unnamed), any other play is unnamed when it names the player's own side."""
    if action.kind != "play":
        return action
    side = game.side_of[player]
    c = action.card_index
    if game.ruleset.cards[action.card].kind == "hazard":
        opp = game.opponents[side]
        return game.play_action[c][opp[0]] if action.side is None and len(opp) == 1 else action
    return game.play_own[c] if action.side_index == side else action


def random_prefix(state, rng: random.Random, steps: int) -> None:
    """Apply up to ``steps`` random legal actions (dealing new hands as the match goes on)."""
    for _ in range(steps):
        if state.match_over:
            return
        if state.hand_over:
            state.next_hand()
            continue
        state.apply(rng.choice(state.legal_actions()))
