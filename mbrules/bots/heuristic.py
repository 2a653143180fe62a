"""A bot that plays the rulebooks' Hints for play (WM §12, P71 §12).

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
- Prefer a safe trip (no safe-trip breaker) when another distance card of at least three quarters
  of the longest safe one would do. Every distance is read in the ruleset's own units (its longest
  distance card, its longest safe one, its trip): nothing here is written in miles.
- Count cards: a hazard whose safeties are all out cannot be answered by a coup fourré; a
  hazard whose remedies are mostly seen stops its victim longer.
- Attack the leading opponent; a hazard whose safety we hold is safe from a coup fourré.
- Call every coup fourré; call the extension when it is likely to succeed.
"""

from __future__ import annotations

import random

from ..engine import Action, Game, Observation
from ..engine.game import BATTLE, DISTANCE, HAZARD, NO_LIMIT, REMEDY, SAFETY
from ..engine.notation import COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, PLAY, STOP
from .base import register

NEG = float("-inf")


@register("heuristic", "the rulebooks' Hints for play (WM §12): get rolling, keep safeties for coups fourrés, "
                       "discard dead cards, attack the leader")
class HeuristicBot:
    observes = True
    # Scores of the kinds of play (a play scores more than any discard, which scores <= 0).
    W_BATTLE_HAZARD = 500.0
    W_SPEED_HAZARD = 380.0

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
        self.remedies_of = tuple(tuple(r for r in range(n) if g.kind[r] == REMEDY and g.fixes_mask[r] >> h & 1)
                                 for h in range(n))
        # Hazards the go card itself fixes (the Stop): they cost the victim one turn, not two.
        self.quick_fixed = frozenset(
            h for h in self.hazards if any(g.is_go[c] and g.fixes_mask[c] >> h & 1 for c in range(n))
        )
        # The ruleset's own units (no 75/100/200 written here): the longest distance card ("big",
        # 200 in the classic decks), the longest one that keeps a safe trip ("step", 100), and the
        # trip. Plays are judged in these, so a ruleset with every distance divided by 5 is played alike.
        dist = [g.miles[c] for c in range(n) if g.kind[c] == DISTANCE and g.deck_counts[c]]
        safe = [g.miles[c] for c in range(n) if g.kind[c] == DISTANCE and g.deck_counts[c] and c not in self.breakers]
        self.big = max(dist, default=1) or 1
        self.step = max(safe, default=self.big) or 1
        self.trip = g.target or 1
        self.points_goal = g.target_points if g.match_mode == "points" and g.target_points else 0
        self.distance_cards = tuple(c for c in range(n) if g.kind[c] == DISTANCE)
        self.safety_cards = tuple(c for c in range(n) if g.kind[c] == SAFETY)
        self._turn_key = None
        self._turn_ctx = None

    # -- the decision --------------------------------------------------------------
    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        first = legal_actions[0]
        op = first.op
        if op == COUP_FOURRE:
            return first  # call coups fourrés always (WM §12 G: 300 + 100 and a turn)
        if op == EXTEND or op == STOP:
            return self.game.extend_action if self._extend(obs) else self.game.stop_action
        if len(legal_actions) == 1 or op == DRAW or op == DECLINE:
            return first
        ctx = self._context(obs)
        best = NEG
        choices: list[int] = []
        score = self._score
        for a in legal_actions:
            if a.op == DISCARD and best > 0.0:
                break  # plays come first; a discard scores at most 0, so it cannot beat or tie a play worth more
            s = score(a, ctx)
            if s > best:
                best, choices = s, [a]
            elif s == best:
                choices.append(a)
        return choices[0] if len(choices) == 1 else choices[int(self.rng.random() * len(choices))]

    def _context(self, obs: Observation) -> "_Context":
        # One context per observation: rank() then choose() on the same one (the expert) share it.
        if obs is not self._turn_key:
            self._turn_key, self._turn_ctx = obs, _Context(self, obs)
        return self._turn_ctx

    def rank(self, obs: Observation, legal_actions: list[Action]) -> list[Action]:
        """The legal actions of a turn, best first by this bot's scores (ties in the given order)."""
        ctx = self._context(obs)
        scores = [self._score(a, ctx) for a in legal_actions]
        order = sorted(range(len(legal_actions)), key=lambda i: -scores[i])
        return [legal_actions[i] for i in order]

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
            if (bh >= 0 and pm >> bh & 1) or (lh >= 0 and pm >> lh & 1 and ctx.big_blocked) or (
                g.grants_rolling[c] and not me.moving and bh < 0
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
            s = 300.0 + 100.0 * m / self.big
            if c in self.breakers and ctx.safe_trip_open and ctx.best_other_distance * 4 >= 3 * self.step:
                s = 320.0  # a safe trip costs nothing here
            return s
        if k == HAZARD:
            ts = action.side_index
            lead = 100.0 * obs.sides[ts].miles / self.trip
            if self.points_goal:
                lead += 5.0 * obs.match_totals[ts] / self.points_goal
            # Card counting: a hazard is safe from a coup fourré when we hold its safety or every
            # copy of it is out; its sting is longer when few of its remedies are left to draw.
            cf_proof = 40.0 if ctx.holds_protector(c) or ctx.protectors_unseen(c) == 0 else 0.0
            sting = 10.0 * ctx.remedies_gone_share(c)
            if g.pile[c] == BATTLE:
                return self.W_BATTLE_HAZARD + lead + cf_proof + sting + (0.0 if c in self.quick_fixed else 20.0)
            if obs.target - obs.sides[ts].miles <= self.step:
                return 100.0 + lead  # a speed limit hardly slows a side this close
            return self.W_SPEED_HAZARD + lead + cf_proof
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
        return miles >= extra - self.step and obs.draw_pile >= 4 * g.players and opp_best <= obs.target - self.big


class _lazy:
    """A fact computed on first read and then stored on the instance (functools.cached_property
    without its lock, which costs more than most of these facts on Python 3.11)."""

    def __init__(self, f):
        self.f = f
        self.name = f.__name__

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = self.f(obj)
        obj.__dict__[self.name] = v
        return v


class _Context:
    """What one decision's scores need, each fact computed on first use from the observation.

    Most turns have a play worth more than any discard, and then only the facts those plays
    ask for are ever computed (cards not seen, the finishing card, the safe trip, ...).
    """

    def __init__(self, bot: HeuristicBot, obs: Observation):
        self.bot = bot
        self.obs = obs
        self.me = obs.sides[bot.side]
        self.hand = obs.hand
        # Cards not yet seen are counted lazily, card by card (see unseen()): only hazards,
        # remedies and safeties are ever asked about, and tuple.count runs in C. Rebuilding the
        # whole count from every pile at every decision was 62% of this bot's time.
        self._unseen: dict[int, int] = {}
        self._values: dict[int, float] = {}

    @_lazy
    def limit(self) -> int:
        return NO_LIMIT if self.me.limit is None else self.me.limit

    @_lazy
    def max_target(self) -> int:
        g = self.bot.game
        target = self.obs.target
        can_extend = g.extension_to is not None and self.obs.extension_called_by < 0 and target < g.extension_to
        return g.extension_to if can_extend else target

    @_lazy
    def end_near(self) -> bool:
        obs = self.obs
        closest = min(obs.target - v.miles for v in obs.sides)
        return obs.draw_pile <= 2 * self.bot.game.players or closest <= self.bot.step

    @_lazy
    def rolling_safety(self) -> bool:
        g = self.bot.game
        return any(g.grants_rolling[c] for c in self.me.safeties + self.me.coup_fourres)

    @_lazy
    def can_finish(self) -> bool:
        g = self.bot.game
        me = self.me
        left = self.obs.target - me.miles
        limit = self.limit
        played = me.distance
        return me.moving and any(
            g.kind[c] == DISTANCE and g.miles[c] == left and g.miles[c] <= limit and played[c] < g.max_per_hand[c]
            for c in self.hand
        )

    @_lazy
    def big_blocked(self) -> bool:
        g = self.bot.game
        left = self.obs.target - self.me.miles
        limit = self.limit
        return any(g.kind[c] == DISTANCE and limit < g.miles[c] <= left for c in self.hand)

    @_lazy
    def safe_trip_open(self) -> bool:
        played = self.me.distance
        return not any(played[c] for c in self.bot.breakers)

    @_lazy
    def best_other_distance(self) -> int:
        g = self.bot.game
        bot = self.bot
        left = self.obs.target - self.me.miles
        limit = self.limit
        return max(
            (g.miles[c] for c in self.hand if g.kind[c] == DISTANCE and c not in bot.breakers
             and g.miles[c] <= limit and g.miles[c] <= left),
            default=0,
        )

    def unseen(self, c: int) -> int:
        """Copies of card ``c`` this seat has not seen (in other hands or the draw pile)."""
        n = self._unseen.get(c)
        if n is None:
            obs = self.obs
            n = obs.game.deck_counts[c] - self.hand.count(c) - obs.discard.count(c)
            k = obs.game.kind[c]
            for v in obs.sides:
                if k == SAFETY:
                    n -= v.safeties.count(c) + v.coup_fourres.count(c)
                elif k == DISTANCE:
                    n -= v.distance[c]
                else:
                    n -= v.battle.count(c) + v.speed.count(c)
            self._unseen[c] = n
        return n

    def threat(self, h: int) -> bool:
        """Can hazard ``h`` still hit our side?"""
        return not self.me.protected & (1 << h) and self.unseen(h) > 0

    def protectors_unseen(self, h: int) -> int:
        return sum(self.unseen(s) for s in self.bot.game.protectors[h])

    def remedies_gone_share(self, h: int) -> float:
        """The share of the remedies for hazard ``h`` already seen (played, discarded, in our hand)."""
        g = self.bot.game
        total = left = 0
        for r in self.bot.remedies_of[h]:
            total += g.deck_counts[r]
            left += self.unseen(r)
        return 1.0 - left / total if total else 1.0

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
            return 20.0 + 20.0 * m / bot.big - (3.0 if copies > 2 else 0.0)
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
            to_come = sum(self.unseen(h) for h in fixes if self.threat(h))
            if not showing and to_come == 0:
                return 0.0  # every hazard it fixes is used, or we are protected (WM §12 E)
            return 30.0 + 4.0 * to_come - (15.0 if copies > 1 else 0.0)
        return 10.0
