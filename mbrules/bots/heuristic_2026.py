"""heuristic-2026: a frozen copy of the starting heuristic (commit 5e57a76, 2026-11-22), kept as the baseline.

Bot strength in the docs is measured against this bot so that every figure can be re-run from a
fresh clone without checking out an old commit. Do not tune it: its decisions must stay those of
the starting heuristic (``tests/bots/test_frozen_baseline.py`` pins them).

The starting heuristic played the rulebooks' Hints for play (WM §12, P71 §12).

Every legal action gets a score; the best wins (ties broken by the bot's own stream).
The bot reads only its seat's :class:`~mbrules.engine.Observation`: its own hand, every
pile on the table (battle, speed, distance, safeties, the discard pile) and the size of
the draw pile. Nothing here names a card id: kinds, piles, remedies and protections come
from the compiled :class:`~mbrules.engine.Game`, so a custom hazard is played as well.

The hints it follows:

- B: at the start of a hand, get rolling (the go card, a remedy) before attacking.
- C: keep safeties for coups fourrés, but play them before the end of the hand (draw
  pile small, a side close to its target, or this very turn completes our trip), at once
  when they unblock us, and when no hazard they answer can still come (no coup fourré left).
- D, E: discard dead cards first: 200s once the side has played its two, hazards every
  opponent is protected against, remedies whose hazards are all used (or that we are
  protected against), distance that can never fit; keep remedies for hazards still to come.
- Prefer a safe trip (no 200) when another distance card of 75 or more would do.
- Attack the leading opponent; a hazard whose safety we hold is safe from a coup fourré.
- Call every coup fourré; call the extension when it is likely to succeed.
"""

from __future__ import annotations

import random

from ..engine import Action, Game, Observation
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
    NO_LIMIT,
    PLAY,
    REMEDY,
    SAFETY,
    STOP,
)
from .base import register

NEG = float("-inf")


@register(
    "heuristic-2026",
    "a frozen copy of the starting heuristic of 2026-11-22, the baseline that the "
    "bot figures in the docs are measured against",
)
class Heuristic2026Bot:
    observes = True

    def __init__(self, game: Game, player: int, rng: random.Random):
        self.game = game
        self.player = player
        self.side = game.side_of[player]
        self.rng = rng
        g = game
        n = g.n_cards
        self.hazards = tuple(c for c in range(n) if g.kind[c] == HAZARD)
        # Hazards each remedy answers (a go card also answers "not rolling").
        self.fixes = tuple(tuple(h for h in self.hazards if g.fixes_mask[c] >> h & 1) for c in range(n))
        self.protects = tuple(tuple(h for h in self.hazards if g.protects_mask[c] >> h & 1) for c in range(n))
        self.breakers = frozenset(g.safe_trip_breakers)
        # Hazards the go card itself fixes (the Stop): they cost the victim one turn, not two.
        self.quick_fixed = frozenset(
            h for h in self.hazards if any(g.is_go[c] and g.fixes_mask[c] >> h & 1 for c in range(n))
        )

    # -- the decision --------------------------------------------------------------
    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        first = legal_actions[0]
        op = first.op
        if op == COUP_FOURRE:
            return first  # call coups fourrés always (WM §12 G: 300 + 100 and a turn)
        if op == FAST_PLAY:
            return first  # a remedy out of turn fixes the hazard without spending a turn: always worth it
        if op == EXTEND or op == STOP:
            return self.game.extend_action if self._extend(obs) else self.game.stop_action
        if len(legal_actions) == 1 or op == DRAW or op == DECLINE:
            return first
        ctx = _Context(self, obs)
        best = NEG
        choices: list[Action] = []
        for a in legal_actions:
            s = self._score(a, ctx)
            if s > best:
                best, choices = s, [a]
            elif s == best:
                choices.append(a)
        return choices[0] if len(choices) == 1 else choices[int(self.rng.random() * len(choices))]

    # -- scores ------------------------------------------------------------------------
    def _score(self, action: Action, ctx: "_Context") -> float:
        g = self.game
        op = action.op
        c = action.card_index
        if op == DISCARD:
            return -ctx.value(c)
        if op != PLAY:
            return NEG
        k = g.kind[c]
        obs = ctx.obs
        me = ctx.me
        if k == SAFETY:
            bh = me.hazard
            lh = me.speed_hazard
            pm = g.protects_mask[c]
            if (
                (bh >= 0 and pm >> bh & 1)
                or (lh >= 0 and pm >> lh & 1 and ctx.big_blocked)
                or (g.grants_rolling[c] and not me.moving and bh < 0)
            ):
                return 900.0  # it unblocks us: play it now (WM §12 C, F)
            if ctx.can_finish:
                return 1100.0  # the hand ends with our next card: no credit for safeties still held
            if ctx.end_near:
                return 950.0  # 'do not hold them too long' (WM §12 C)
            if not any(ctx.threat(h) for h in self.protects[c]):
                return 800.0  # no coup fourré can come: 100 points and an extra turn for free
            return -500.0  # keep it for a coup fourré
        if k == REMEDY:
            if g.pile[c] == BATTLE:
                if me.moving:
                    return -ctx.value(c) - 1.0  # a go card with a rolling safety: never needed
                return 700.0  # get rolling first (WM §12 B)
            return 450.0 if ctx.big_blocked else 150.0
        if k == DISTANCE:
            m = g.miles[c]
            if me.miles + m == obs.target:
                return 1000.0
            s = 300.0 + m / 2
            if c in self.breakers and ctx.safe_trip_open and ctx.best_other_distance >= 75:
                s = 320.0  # a safe trip costs nothing here
            return s
        if k == HAZARD:
            ts = action.side_index
            if ts == self.side:
                return -1e9  # a hazard on our own side (option solo; never met when this bot was frozen): never
            lead = obs.sides[ts].miles / 10 + obs.match_totals[ts] / 1000
            cf_proof = 40.0 if ctx.holds_protector(c) else 0.0
            if g.pile[c] == BATTLE:
                return 500.0 + lead + cf_proof + (0.0 if c in self.quick_fixed else 20.0)
            if obs.target - obs.sides[ts].miles <= 100:
                return 100.0 + lead  # a speed limit hardly slows a side this close
            return 380.0 + lead + cf_proof
        return 0.0

    def _extend(self, obs: Observation) -> bool:
        """Call the extension when our side rolls freely, holds the miles and nobody is close."""
        g = self.game
        ps = self.side
        me = obs.sides[ps]
        if g.extension_to is None or not me.moving:
            return False
        extra = g.extension_to - obs.target
        hand = obs.hand
        limit = NO_LIMIT if me.limit is None else me.limit
        played200 = dict(enumerate(me.distance))
        miles = 0
        for c in sorted(hand, key=lambda c: -g.miles[c]):
            if g.kind[c] == DISTANCE and g.miles[c] <= limit and played200[c] < g.max_per_hand[c]:
                if miles + g.miles[c] <= extra:
                    miles += g.miles[c]
                    played200[c] += 1
        opp_best = max((v.miles for s, v in enumerate(obs.sides) if s != ps), default=0)
        if opp_best == 0:
            return False  # a shutout is already won: do not risk it
        return miles >= extra - 100 and obs.draw_pile >= 4 * g.players and opp_best <= obs.target - 200


class _Context:
    """What one turn's choice needs, computed once from the observation."""

    __slots__ = (
        "bot",
        "obs",
        "me",
        "hand",
        "unseen",
        "end_near",
        "can_finish",
        "big_blocked",
        "safe_trip_open",
        "best_other_distance",
        "max_target",
        "limit",
        "rolling_safety",
        "_values",
    )

    def __init__(self, bot: Heuristic2026Bot, obs: Observation):
        g = bot.game
        ps = bot.side
        self.bot = bot
        self.obs = obs
        me = obs.sides[ps]
        self.me = me
        hand = obs.hand
        self.hand = hand
        # Cards not yet seen: the deck's copies minus the table, the discard pile and our hand.
        self.unseen = obs.unseen()
        target = obs.target
        ext = g.extension_to
        self.max_target = ext if ext is not None and obs.extension_called_by < 0 and target < ext else target
        closest = min(target - v.miles for v in obs.sides)
        self.end_near = obs.draw_pile <= 2 * g.players or closest <= 100
        left = target - me.miles
        rolling = me.moving
        limit = NO_LIMIT if me.limit is None else me.limit
        self.limit = limit
        self.rolling_safety = any(g.grants_rolling[c] for c in me.safeties + me.coup_fourres)
        played = me.distance
        self.can_finish = rolling and any(
            g.kind[c] == DISTANCE and g.miles[c] == left and g.miles[c] <= limit and played[c] < g.max_per_hand[c]
            for c in hand
        )
        self.big_blocked = any(g.kind[c] == DISTANCE and limit < g.miles[c] <= left for c in hand)
        self.safe_trip_open = not any(played[c] for c in bot.breakers)
        self.best_other_distance = max(
            (
                g.miles[c]
                for c in hand
                if g.kind[c] == DISTANCE and c not in bot.breakers and g.miles[c] <= limit and g.miles[c] <= left
            ),
            default=0,
        )
        self._values: dict[int, float] = {}

    def threat(self, h: int) -> bool:
        """Can hazard ``h`` still hit our side?"""
        return self.unseen[h] > 0 and not self.me.protected & (1 << h)

    def holds_protector(self, h: int) -> bool:
        return any(s in self.hand for s in self.bot.game.protectors[h])

    def value(self, c: int) -> float:
        """How much card ``c`` is worth keeping (lower: discard first; WM §12 D, E)."""
        v = self._values.get(c)
        if v is None:
            v = self._value(c)
            self._values[c] = v
        return v

    def _value(self, c: int) -> float:
        bot = self.bot
        g = bot.game
        obs = self.obs
        me = self.me
        ps = bot.side
        k = g.kind[c]
        copies = self.hand.count(c)
        if k == SAFETY:
            return 1000.0
        if k == DISTANCE:
            m = g.miles[c]
            if me.distance[c] >= g.max_per_hand[c] or me.miles + m > self.max_target:
                return 0.0  # 200s after two played, distance that can never fit (WM §12 D)
            if me.miles + m > obs.target:
                return 5.0  # fits only after an extension
            return 20.0 + m / 10 - (3.0 if copies > 2 else 0.0)
        if k == HAZARD:
            targets = sum(1 for s, v in enumerate(obs.sides) if s != ps and not v.protected & (1 << c))
            if targets == 0:
                return 0.0  # every opponent is protected against it (WM §12 D)
            return 30.0 + 5.0 * targets + (15.0 if self.holds_protector(c) else 0.0)
        if k == REMEDY:
            if g.is_go[c]:
                if self.rolling_safety:
                    return 0.0  # a rolling safety: the go card is never needed
                return 60.0 if copies == 1 else 40.0
            fixes = bot.fixes[c]
            showing = me.hazard in fixes or me.speed_hazard in fixes
            to_come = sum(self.unseen[h] for h in fixes if self.threat(h))
            if not showing and to_come == 0:
                return 0.0  # every hazard it fixes is used, or we are protected (WM §12 E)
            return 30.0 + 4.0 * to_come - (15.0 if copies > 1 else 0.0)
        return 10.0
