"""Determinization: a full :class:`State` built from one seat's :class:`Observation` alone.

A search bot cannot see the other hands nor the draw order. To look ahead it samples them:
:func:`determinize` deals the cards the observing player has not seen (``obs.unseen()``: the
deck less its hand, the table and the discard pile) at random among the other hands (each
gets exactly the number of cards the observation says it holds) and the draw pile (exactly
``obs.draw_pile`` cards, in random order). Everything else is copied from the observation,
which shows it to the whole table. The result is one world consistent with what the seat
saw; perfect-information Monte Carlo (PIMC) averages decisions over many of them.

This module reads an :class:`Observation` and nothing else of the real match: it is handed
no state, so it cannot leak the real hidden cards. Two observations that differ only in
hidden cards give the same worlds for the same ``rng`` (``tests/bots`` checks it).

What an observation does not show and is guessed here (documented limits):

* who attacked in an open coup fourré window (the observation shows the hazard, not its
  author): the opponent of the side hit who holds one card fewer than a full hand (the
  attacker drew and played), else the first opponent in turn order;
* other players still to answer the window: those holding a protecting safety in the
  sampled world, in turn order after the observer;
* the engine's roll-after-safety flag: inferred from the side's ``moving`` flag.

The world is built by :meth:`State.from_decision`, the engine's constructor of a position
waiting at a decision; playing it out is the bots' business (:mod:`mbrules.bots.playout`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..vocab import BATTLE, DecisionKind
from .state import State

if TYPE_CHECKING:
    from .observation import Observation

__all__ = ["determinize", "hidden_pool"]


def hidden_pool(obs: "Observation") -> list[int]:
    """The cards ``obs.player`` has not seen, one entry per copy, in card order (never the real placement)."""
    pool: list[int] = []
    for c, n in enumerate(obs.unseen()):
        if n < 0:
            raise ValueError("the observation shows more copies of a card than the deck holds")
        pool.extend([c] * n)
    return pool


def determinize(obs: "Observation", rng: random.Random, known: dict[int, list[int]] | None = None) -> State:
    """A state consistent with ``obs`` whose hidden cards (other hands, draw pile) are a random deal.

    ``known`` maps other players to the cards their hands are known to hold (all of them, or some):
    those are dealt to them first and the rest at random. A fair bot has nothing to put there; a
    measurement that knows the real hands does (``benchmarks/research/bench_search.py``).
    The state rests at the hand's end (it never deals a next hand) and has no observers.
    """
    g = obs.game
    me = obs.player
    pool = hidden_pool(obs)
    rng.shuffle(pool)
    need = sum(n for p, n in enumerate(obs.hand_sizes) if p != me) + obs.draw_pile
    if need != len(pool):
        raise ValueError(f"the observation hides {need} cards but {len(pool)} are unseen")
    hands, k = _deal(obs, pool, known)
    seed = rng.getrandbits(64)  # the world's RNG: future hands' shuffles, unknown, sampled too
    sides = _side_piles(obs)
    d = obs.decision
    if d.kind not in (
        DecisionKind.TURN,
        DecisionKind.EXTENSION,
        DecisionKind.COUP_FOURRE,
        DecisionKind.FAST_PLAY,
        DecisionKind.MULLIGAN,
    ):
        raise ValueError(f"nothing to decide at a {d.kind} decision")
    window = (
        _window(obs, hands, d.kind == DecisionKind.FAST_PLAY)
        if d.kind != DecisionKind.TURN and d.kind != DecisionKind.EXTENSION
        else None
    )
    return State.from_decision(
        g,
        d,
        hands=hands,
        draw_top_first=pool[k:][::-1],
        discard=obs.discard,
        sides=sides,
        target=obs.target,
        extension_called_by=obs.extension_called_by,
        hand_no=obs.hand_no,
        match_totals=list(obs.match_totals),
        window=window,
        seed=seed,
        reshuffles=obs.reshuffles,
        after_draw=obs.after_draw,
        recent=obs.recent,
        queued=obs.queued_turns,
    )


def _deal(obs: "Observation", pool: list[int], known: dict[int, list[int]] | None) -> tuple[list[list[int]], int]:
    """The hands: the observer's own, each other player's known cards then cards from the shuffled ``pool``
    (the known ones taken out of it). Returns the hands and how many of the pool they took (the rest is the
    draw pile)."""
    g = obs.game
    me = obs.player
    fixed: dict[int, list[int]] = {}
    for p, cards in (known or {}).items():
        if p == me or not 0 <= p < g.players or len(cards) > obs.hand_sizes[p]:
            raise ValueError(f"known cards for player {p}: another player, holding at most its hand's size")
        fixed[p] = list(cards)
        for c in cards:
            try:
                pool.remove(c)
            except ValueError:
                raise ValueError(f"card {g.card_ids[c]} is known in player {p}'s hand but is not unseen") from None
    hands: list[list[int]] = []
    k = 0
    for p, n in enumerate(obs.hand_sizes):
        if p == me:
            hands.append(list(obs.hand))
        else:
            have = fixed.get(p, [])
            hands.append(have + pool[k : k + n - len(have)])
            k += n - len(have)
    return hands, k


def _side_piles(obs: "Observation") -> dict[int, dict[str, Any]]:
    """Each side's table as ``State.from_decision`` takes it, from the observation (all of it public)."""
    return {
        s: {
            "battle": v.battle,
            "speed": v.speed,
            "safeties": v.safeties,
            "coups": v.coup_fourres,
            "distance": [c for c, n in enumerate(v.distance) for _ in range(n)],
            "moving": v.moving,
            "miles": v.miles,
            "karma_cards": v.karma_cards,
            "karma": bool(v.karma),  # ruleset 'karma' (read only where the ruleset has it)
        }
        for s, v in enumerate(obs.sides)
    }


def _window(obs: "Observation", hands: list[list[int]], fast: bool = False) -> tuple[int, int, int, list[int]]:
    """The open coup fourré window (or, ``fast``, fast-play window: the side hit's players holding a
    remedy for the hazard), guessed where the observation does not show it (see above):
    (hazard, side hit, attacker, players still to answer with the observer first)."""
    g = obs.game
    me = obs.player
    hz = obs.window_hazard
    pile = BATTLE if g.pile[hz] == BATTLE else None
    hit = -1
    for s, v in enumerate(obs.sides):
        top = v.battle if pile == BATTLE else v.speed
        if top and top[-1] == hz:
            hit = s
            if s == obs.side:
                break
    opponents = [p for p in range(g.players) if g.side_of[p] != hit]
    short = [p for p in opponents if obs.hand_sizes[p] == g.hand_size - 1]
    attacker = (short or opponents or [0])[0]
    N = g.players
    queue = [me]
    for j in range(1, N):
        q = (me + j) % N
        if q == attacker or (q - attacker) % N < (me - attacker) % N:
            continue  # already asked, or the attacker
        if (fast or not g.coup_fourre_any_player) and g.side_of[q] != hit:
            continue
        if any(sc in hands[q] for sc in (g.fixers[hz] if fast else g.protectors[hz])):
            queue.append(q)
    return hz, hit, attacker, queue
