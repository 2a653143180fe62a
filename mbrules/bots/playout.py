"""A fast greedy play-out policy: plays a (determinized) hand to its end for a search bot.

The expert bot (:mod:`mbrules.bots.expert`) values an action by playing sampled worlds
(:func:`mbrules.engine.determinize.determinize`) to the hand's end with this policy in every
seat. It reads the table through :meth:`State.race` (public views, read-only) and acts through
``legal_actions()`` and ``apply()``, like any bot.
"""

from __future__ import annotations

import random

from mbrules.engine import Game, State
from mbrules.engine.state import Race
from mbrules.vocab import (
    BATTLE,
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    DISTANCE,
    DRAW,
    EXTEND,
    FAST_PLAY,
    HAZARD,
    PLAY,
    REMEDY,
    SAFETY,
)

__all__ = ["rollout"]


def _value(g: Game, race: Race, p: int, c: int, op: int, ts: int) -> float:
    """The policy's score for one legal action of player ``p`` (higher is better)."""
    ps = g.side_of[p]
    k = g.kind[c]
    target = race.target
    if op == DISCARD:
        if k == SAFETY:
            return -1000.0
        if k == DISTANCE:
            if race.played[ps][c] >= g.max_per_hand[c] or race.miles[ps] + g.miles[c] > target:
                return -1.0
            return -20.0 - g.miles[c] / target * 20.0
        if k == HAZARD:
            return -30.0
        return -35.0
    if k == DISTANCE:
        m = race.miles[ps] + g.miles[c]
        if m == target:
            return 1000.0
        return 300.0 + g.miles[c] / target * 100.0
    if k == REMEDY:
        return 700.0
    if k == HAZARD:
        if ts == ps:
            return -2000.0  # a hazard on one's own side (option solo): below every discard
        return 500.0 + race.miles[ts] / target * 100.0 + (50.0 if g.pile[c] == BATTLE else 0.0)
    # a safety: play it when it unblocks, near the end, else keep it for a coup fourré
    if race.hazard[ps] >= 0 or not race.rolling[ps] or race.draw_pile < 2 * g.players:
        return 900.0
    return 100.0


def rollout(st: State, rng: random.Random, max_actions: int = 2000) -> None:
    """Play the hand in ``st`` to its end with the greedy policy, ties broken by ``rng``.

    Every player calls its coups fourrés and declines the extension. Bounded by ``max_actions``
    (a hand is far shorter; the bound only guards a malformed ruleset).
    """
    g = st.game
    legal = st.legal_actions
    apply = st.step  # a play-out reads no transition
    rand = rng.random
    stop = g.stop_action
    for _ in range(max_actions):
        acts = legal()
        if not acts:
            return  # the hand is over
        op = acts[0].op
        if op == DRAW or op == COUP_FOURRE or op == FAST_PLAY or op == DECLINE:
            apply(acts[0])  # the draw; a coup fourré (a fast play) is always worth calling (playing)
            continue
        if op == EXTEND:
            apply(stop)
            continue
        p = st.current_player  # a turn: plays and discards
        race = st.race()
        best = acts[0]
        bv = -1e18
        for a in acts:
            v = _value(g, race, p, a.card_index, a.op, a.side_index if a.op == PLAY else -1) + rand()
            if v > bv:
                bv, best = v, a
        apply(best)
