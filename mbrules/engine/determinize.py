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

:func:`rollout` plays a determinized hand to its end with a fast greedy policy (engine code,
so it may read the sampled world's private fields: the world is the bot's own imagination,
never the real match).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .actions import COUP_FOURRE_WINDOW, EXTENSION_QUESTION, TURN
from ..vocab import BATTLE, DISTANCE, HAZARD, REMEDY, SAFETY
from .notation import DISCARD, PLAY
from .state import P_COUP, P_DRAW, P_EXT, P_PLAY, State

if TYPE_CHECKING:
    from .observation import Observation

__all__ = ["determinize", "rollout", "hidden_pool"]


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

    # A fresh state sets every slot (the engine's own defaults, new slots included); the table is laid below
    st = State(g, rng.getrandbits(64))  # its RNG: future hands' shuffles, unknown, sampled too
    S = g.sides
    hands: list[list[int]] = []
    k = 0
    for p, n in enumerate(obs.hand_sizes):
        if p == me:
            hands.append(list(obs.hand))
        else:
            have = fixed.get(p, [])
            hands.append(have + pool[k:k + n - len(have)])
            k += n - len(have)
    st._hands = hands
    st._stock = pool[k:]  # the top is the end of the list
    st._discard = list(obs.discard)
    st._face_up = list(obs.face_up)
    st._battle = [list(v.battle) for v in obs.sides]
    st._speed = [list(v.speed) for v in obs.sides]
    st._miles = [v.miles for v in obs.sides]
    st._played = [list(v.distance) for v in obs.sides]
    st._safeties = [list(v.safeties) for v in obs.sides]
    st._coups = [list(v.coup_fourres) for v in obs.sides]
    st._prot = [v.protected for v in obs.sides]
    st._row = [any(g.grants_rolling[c] for c in v.safeties + v.coup_fourres) for v in obs.sides]
    # the derived flags (_needs_go, _rolling, _bhaz, _limit, _lhaz) are the fresh state's defaults: _refresh sets them
    for s in range(S):
        st._refresh(s)
        if st._rolling[s] and not obs.sides[s].moving:
            st._needs_go[s] = True  # option roll-after-safety: a go card must follow the safety
            st._refresh(s)
    st._target = obs.target
    st._extension_called_by = obs.extension_called_by
    # no coup fourré window, completer or last draw, no winner, history or observers, first player 0,
    # never a next deal: the fresh state's own defaults (set once, in State.__init__ and _reset_hand)
    st._hand_no = obs.hand_no
    st._match_totals = list(obs.match_totals)
    st._hand_sheets = [[] for _ in range(obs.hand_no)]  # only their number matters here (the hands cap)
    st._completers = [-1] * obs.hand_no
    st._coup_count = sum(len(v.coup_fourres) for v in obs.sides)

    d = obs.decision
    if d.kind == TURN:
        st._player = d.player
        st._phase = P_PLAY if d.drawn else P_DRAW
    elif d.kind == EXTENSION_QUESTION:
        st._player = d.player
        st._phase = P_EXT
        st._completer = g.side_of[d.player]
        st._completion_delayed = obs.draw_pile == 0
    elif d.kind == COUP_FOURRE_WINDOW:
        hz = obs.window_hazard
        pile = BATTLE if g.pile[hz] == BATTLE else None
        hit = -1
        for s, v in enumerate(obs.sides):
            top = (v.battle if pile == BATTLE else v.speed)
            if top and top[-1] == hz:
                hit = s
                if s == obs.side:
                    break
        st._cf_hazard = hz
        st._cf_side = hit
        opponents = [p for p in range(g.players) if g.side_of[p] != hit]
        short = [p for p in opponents if obs.hand_sizes[p] == g.hand_size - 1]
        st._cf_attacker = (short or opponents or [0])[0]
        N = g.players
        queue = [me]
        for j in range(1, N):
            q = (me + j) % N
            if q == st._cf_attacker or (q - st._cf_attacker) % N < (me - st._cf_attacker) % N:
                continue  # already asked, or the attacker
            if not g.cf_any_player and g.side_of[q] != hit:
                continue
            if any(sc in hands[q] for sc in g.protectors[hz]):
                queue.append(q)
        st._cf_queue = queue
        st._player = me
        st._phase = P_COUP
    else:
        raise ValueError(f"nothing to decide at a {d.kind} decision")
    return st


def _rollout_value(g, st: State, p: int, c: int, op: int, ts: int) -> float:
    """The greedy play-out policy's score for one legal action of player ``p`` (higher is better)."""
    ps = g.side_of[p]
    k = g.kind[c]
    if op == DISCARD:
        if k == SAFETY:
            return -1000.0
        if k == DISTANCE:
            if st._played[ps][c] >= g.max_per_hand[c] or st._miles[ps] + g.miles[c] > st._target:
                return -1.0
            return -20.0 - g.miles[c] / st._target * 20.0
        if k == HAZARD:
            return -30.0
        return -35.0
    if k == DISTANCE:
        m = st._miles[ps] + g.miles[c]
        if m == st._target:
            return 1000.0
        return 300.0 + g.miles[c] / st._target * 100.0
    if k == REMEDY:
        return 700.0
    if k == HAZARD:
        return 500.0 + st._miles[ts] / st._target * 100.0 + (50.0 if g.pile[c] == BATTLE else 0.0)
    # a safety: play it when it unblocks, near the end, else keep it for a coup fourré
    if st._bhaz[ps] >= 0 or not st._rolling[ps] or len(st._stock) < 2 * g.players:
        return 900.0
    return 100.0


def rollout(st: State, rng: random.Random, max_actions: int = 2000) -> None:
    """Play the (determinized) hand in ``st`` to its end with a fast greedy policy, ties broken by ``rng``.

    Every player calls its coups fourrés and declines the extension. Bounded by ``max_actions``
    (a hand is far shorter; the bound only guards a malformed ruleset).
    """
    g = st.game
    legal = st.legal_actions
    apply = st.step  # a play-out reads no transition
    rand = rng.random
    for _ in range(max_actions):
        ph = st._phase
        if ph == P_DRAW:
            st._draw(st._player)
            continue
        if ph == P_PLAY:
            p = st._player
            best = None
            bv = -1e18
            for a in legal():
                v = _rollout_value(g, st, p, a.card_index, a.op, a.side_index if a.op == PLAY else -1) + rand()
                if v > bv:
                    bv, best = v, a
            apply(best)
            continue
        if ph == P_COUP:
            apply(legal()[0])  # call it (a coup fourré is always worth it)
            continue
        if ph == P_EXT:
            apply(g.stop_action)
            continue
        return
