"""A bot that plays the rulebooks' Hints for play (WM §12, P71 §12), weighed by measurement.

Every legal action gets a score; the best wins (ties broken by the bot's own stream).
The bot reads only its seat's :class:`~mbrules.engine.Observation`: its own hand, every
pile on the table (battle, speed, distance, safeties, the discard pile) and the size of
the draw pile. Nothing here names a card id: kinds, piles, remedies and protections come
from the compiled :class:`~mbrules.engine.Game`, so a custom hazard is played as well.

The hints it follows:

- B: at the start of a hand, get rolling (the go card, a remedy) before playing distance;
  an attack comes first, though (measured: the hazard that stops the other side is worth
  more than our own start).
- C: keep a safety for a coup fourré only while its hazards can still come, and the more of
  them are unseen the longer; play it rather than throw away a useful card (a safety played
  is 100 points and another turn), at once when it unblocks us, and before the hand ends.
- D, E: discard dead cards first: 200s once the side has played its two, hazards every
  opponent is protected against, remedies whose hazards are all used (or that we are
  protected against, or whose safety we hold), distance that can never fit; keep remedies
  for hazards still to come, and one go card (a second one is worth little).
- Distance in the ruleset's own units (its longest distance card, its longest safe one, its
  trip): nothing here is written in miles. The longest card is played first: the Safe Trip
  bonus is not worth the tempo (measured against the rulebooks' hint to save it).
- Count cards: a hazard whose safeties are all out cannot be answered by a coup fourré; a
  hazard whose remedies are mostly seen stops its victim longer.
- Attack the leading opponent; a hazard whose safety we hold is safe from a coup fourré.
- Call every coup fourré; call the extension when it is likely to succeed.
- House rules (issue 35): take the discard pile's top when it beats an unknown card
  (:meth:`HeuristicBot._wants_top`), mulligan a hopeless hand (:meth:`HeuristicBot._hopeless`),
  answer every fast-play window with the remedy that fixes the fewest hazards, and read a stack
  of hazards as every one of them in force. docs/bots.md measures the first two.

The weights below were set by measurement against the heuristic this one replaced (paired
seeds, seats swapped; ``benchmarks/bench_bots.py versus``): docs/bots.md gives
the figures. They are class attributes so that a tuning script can try others.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Generic, TypeVar, overload

from ..engine import Action, Game, Observation, SideView
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
    KARMA,
    MULLIGAN,
    NO_LIMIT,
    PLAY,
    REMEDY,
    SAFETY,
    STOP,
    DecisionKind,
)
from ..engine.fields import mypyc_attr
from .base import register

NEG = float("-inf")

# What a card is to this bot (one lookup instead of kind, then pile, then flags).
_SAFETY, _GO_REMEDY, _SPEED_REMEDY, _DISTANCE, _BATTLE_HAZARD, _SPEED_HAZARD, _OTHER = range(7)
# Where the table shows a card once played, for counting the cards not yet seen.
_ON_SAFETIES, _ON_DISTANCE, _ON_BATTLE, _ON_SPEED, _NOWHERE = range(5)


@register(
    "heuristic",
    "the rulebooks' Hints for play (WM §12), weighed by measurement: attack first, get rolling, "
    "keep safeties for coups fourrés while they can come, discard dead cards, count cards",
    ladder=1,
    hints=1,
)
@mypyc_attr(native_class=False)  # compiled (make compiled): its tables set by __dict__, weights by tuners
class HeuristicBot:
    observes = True
    # Scores of plays (a play worth more than 0 beats every discard, which scores -keep value <= 0).
    W_FINISH = 1000.0  # the distance card that completes the trip
    W_SAFETY_FINISH = 1100.0  # a safety when our next card ends the hand (no credit for safeties held)
    W_SAFETY_END = 950.0  # a safety near the hand's end ('do not hold them too long', WM §12 C)
    W_SAFETY_UNBLOCK = 900.0  # a safety that unblocks us (WM §12 C, F)
    W_SAFETY_FREE = 800.0  # a safety no hazard can call for any more: 100 points and a turn for free
    W_SAFETY_HOLD = -20.0  # a safety kept for a coup fourré ...
    W_SAFETY_HOLD_PER = 10.0  # ... less this for each unseen hazard it answers
    W_BATTLE_HAZARD = 500.0
    W_SPEED_HAZARD = 380.0
    W_SPEED_HAZARD_LATE = 100.0  # a speed limit on a side within a step of its target
    W_CF_PROOF = 40.0  # a hazard no coup fourré can answer
    W_OWN_HAZARD = -1e9  # a hazard on our own side (option solo): below every discard, played only if nothing else is
    W_STING = 10.0  # ... times the share of its remedies already seen
    W_SLOW_FIX = 20.0  # a battle hazard the go card does not fix
    W_LEAD = 100.0  # ... times the target side's share of the trip done
    W_LEAD_MATCH = 5.0  # ... times its share of the match target
    W_GO = 360.0  # a battle remedy or go card while stopped (WM §12 B)
    W_SPEED_REMEDY_BLOCKED = 450.0  # an end of limit when a longer card waits in hand
    W_SPEED_REMEDY = 150.0
    W_DISTANCE = 300.0  # a distance card: this plus W_DISTANCE_SCALE x its share of the longest card
    W_DISTANCE_SCALE = 100.0
    # Keep values (a discard scores minus the card's keep value).
    V_SAFETY = 1000.0
    V_GO = 60.0  # a single go card
    V_GO_SPARE = 10.0  # a go card held twice or more
    V_DISTANCE = 20.0  # distance: this plus V_DISTANCE_SCALE x its share of the longest card
    V_DISTANCE_SCALE = 30.0
    V_DISTANCE_GLUT = 3.0  # lost by a distance card held three times or more
    V_DISTANCE_LATE = 5.0  # distance that fits only after an extension
    V_HAZARD = 30.0  # a hazard: this plus V_HAZARD_TARGET a side it can hit
    V_HAZARD_TARGET = 5.0
    V_HAZARD_PROOF = 15.0  # ... plus this when we hold its safety (safe from a coup fourré)
    V_REMEDY = 30.0  # a remedy: this plus V_REMEDY_TO_COME an unseen hazard it fixes
    V_REMEDY_TO_COME = 4.0
    V_REMEDY_SPARE = 15.0  # lost by a remedy held twice or more
    V_REMEDY_COVERED = 1.0  # a remedy whose every hazard our safeties in hand answer
    V_OTHER = 10.0
    # ruleset 'karma' (PlayAural bot.py _score_special, _best_hazard_target_score: the same order of things)
    W_KARMA = 250.0  # a karma card (only legal when our side has lost its karma) ...
    W_KARMA_PER_HAZARD = 60.0  # ... plus this for each hazard in hand (shunned, we may not hit a side with karma)
    W_KARMA_NEUTRALISED = 120.0  # a hazard between two sides with karma: it only strips the victim's karma
    W_KARMA_SHUNNED = 100.0  # lost by a hazard that costs our side its karma
    # The end of the hand is near: draw pile at most END_DRAW cards a player, or a side within END_STEPS steps.
    END_DRAW = 2.0
    END_STEPS = 1.0
    # The extension is called when our side rolls, holds miles within EXT_SHORT steps of the extra
    # distance, the draw pile holds EXT_DRAW cards a player and no opponent is within EXT_OPP longest cards.
    EXT_SHORT = 1.0
    EXT_DRAW = 4.0
    EXT_OPP = 1.0

    # The game's tables (see _build_tables), set by __init__ from one dict shared by every seat of a Game.
    n_players: int
    extension_to: int | None
    hazards: tuple[int, ...]
    fixes: tuple[tuple[int, ...], ...]  # hazards each card answers as a remedy
    protects: tuple[tuple[int, ...], ...]  # hazards each card answers as a safety
    protectors: tuple[tuple[int, ...], ...]
    breakers: frozenset[int]
    remedies_of: tuple[tuple[int, ...], ...]
    remedy_total: tuple[int, ...]
    quick_fixed: frozenset[int]
    cls: tuple[int, ...]
    where: tuple[int, ...]
    miles: tuple[int, ...]
    is_go: tuple[bool, ...]
    max_per_hand: tuple[int, ...]
    deck_counts: tuple[int, ...]
    grants_rolling: tuple[bool, ...]
    protects_mask: tuple[int, ...]
    big: int
    step: int
    trip: int
    points_goal: int
    distance_score: tuple[float, ...]
    distance_keep: tuple[float, ...]

    def __init__(self, game: Game, player: int, rng: random.Random):
        self.game = game
        self.player = player
        self.side = game.side_of[player]
        self.rng = rng
        # the game's tables, built once per Game (not for every seat of every match): see _game_tables
        self.__dict__.update(_game_tables(type(self), game))
        self.opponents = tuple(s for s in range(game.sides) if s != self.side)
        self._turn_key: Observation | None = None
        self._turn_ctx: _Context | None = None

    # -- the decision --------------------------------------------------------------
    def choose(self, obs: Observation, legal_actions: list[Action]) -> Action:
        first = legal_actions[0]
        op = first.op
        if op == COUP_FOURRE:
            return first  # call coups fourrés always (WM §12 G: 300 + 100 and a turn)
        if op == FAST_PLAY:
            return self._fast_play(legal_actions)
        if op == EXTEND or op == STOP:
            return self.game.extend_action if self._extend(obs) else self.game.stop_action
        if op == DRAW and len(legal_actions) > 1:
            return self._draw_choice(obs, legal_actions)  # the ruleset's turn rules: where to draw from
        if len(legal_actions) == 1 or op == DRAW or op == DECLINE:
            return first
        if obs is self._turn_key and self._turn_ctx is not None:
            ctx = self._turn_ctx
        else:
            self._turn_key = obs
            ctx = self._turn_ctx = _Context(self, obs)
        best = NEG
        choices: list[Action] = []
        score = self._score
        for a in legal_actions:
            if a.op == DISCARD:
                if best > 0.0:
                    break  # plays come first; a discard scores at most 0, so it cannot beat or tie a play worth more
                rest = legal_actions[legal_actions.index(a) :]  # the discards, one per distinct card
                for d, v in zip(rest, ctx.keep_values(rest)):
                    if -v > best:
                        best, choices = -v, [d]
                    elif -v == best:
                        choices.append(d)
                break
            s = score(a, ctx)
            if s > best:
                best, choices = s, [a]
            elif s == best:
                choices.append(a)
        return choices[0] if len(choices) == 1 else choices[int(self.rng.random() * len(choices))]

    # -- the draw's choices (the ruleset's turn rules: draw-from-discard, mulligan) -------
    def _in_force(self, me: SideView) -> int:
        """Bit mask of the battle hazards that stop side ``me`` now (every one of a stack, else the one showing)."""
        m = 0
        for h in me.hazards:
            m |= 1 << h
        return m

    def _gets_moving(self, me: SideView, c: int) -> bool:
        """Whether card ``c`` in hand would let a side that is not moving play distance again (or soon): a
        remedy or safety for a battle hazard in force, or, with none in force, a go card or rolling safety."""
        g = self.game
        k = g.kind[c]
        force = self._in_force(me)
        if force:
            if k == REMEDY:
                return bool(g.fixes_mask[c] & force)
            return k == SAFETY and bool(g.protects_mask[c] & force)
        return (k == REMEDY and bool(self.is_go[c])) or (k == SAFETY and bool(self.grants_rolling[c]))

    def _wants_top(self, obs: Observation, c: int) -> bool:
        """Whether the discard pile's top card ``c`` is worth more to us than an unknown card from the draw
        pile, so that the draw takes it (draw-from-discard):

        - a safety (100 points, a protection and, played, another turn: the best card to hold);
        - a remedy for a battle hazard in force (any of a stack), a go card when we are not moving, no
          hazard is in force and no go card or rolling safety is in hand, or an end of limit while a
          limit stops a distance card in hand;
        - a distance card that fits now (we are moving, within the limit, the trip and the card's cap per
          hand) and completes the trip exactly or is longer than every distance card in hand that fits.

        Anything else (hazards, spare remedies, short distance) is worth less than the draw pile's card."""
        g = self.game
        me = obs.my_side
        k = g.kind[c]
        if k == SAFETY:
            return True
        if k == REMEDY:
            force = self._in_force(me)
            if force:
                return bool(g.fixes_mask[c] & force)
            sh = me.speed_hazard
            if sh >= 0 and g.fixes_mask[c] >> sh & 1 and not self.is_go[c]:
                limit = NO_LIMIT if me.limit is None else me.limit
                left = obs.target - me.miles
                return any(g.kind[d] == DISTANCE and limit < self.miles[d] <= left for d in obs.hand)
            if self.is_go[c] and not me.moving:
                return not any(self._gets_moving(me, d) for d in obs.hand)
            return False
        if k == DISTANCE:
            return (
                me.moving
                and self._fits(obs, c)
                and (
                    me.miles + self.miles[c] == obs.target
                    or all(
                        self.miles[d] < self.miles[c] for d in obs.hand if g.kind[d] == DISTANCE and self._fits(obs, d)
                    )
                )
            )
        return False

    def _fits(self, obs: Observation, c: int) -> bool:
        """Distance card ``c`` could be played on our side now (limit, trip, its cap per hand)."""
        me = obs.my_side
        m = self.miles[c]
        limit = NO_LIMIT if me.limit is None else me.limit
        return m <= limit and me.miles + m <= obs.target and me.distance[c] < self.max_per_hand[c]

    def _hopeless(self, obs: Observation) -> bool:
        """A hopeless hand, which a mulligan throws back: our side is not moving (a battle hazard, or a stack
        of them, stops it, or it has yet to start), no card in hand gets it moving (no remedy or safety for
        a hazard in force; with none in force, no go card and no rolling safety), and the whole hand holds
        at most one remedy or safety (the rest is distance and hazards): waiting would most likely cost
        several turns, and a fresh draw of the thrown cards is the quickest way to a fix."""
        me = obs.my_side
        if me.moving:
            return False
        hand = obs.hand
        if any(self._gets_moving(me, c) for c in set(hand)):
            return False
        kind = self.game.kind
        return sum(1 for c in hand if kind[c] == REMEDY or kind[c] == SAFETY) <= 1

    def _throw(self, legal: list[Action]) -> Action | None:
        """A card of a hopeless hand to throw in a mulligan: distance and hazards; remedies and safeties stay."""
        kind = self.game.kind
        for a in legal:
            if a.op == MULLIGAN and kind[a.card_index] in (DISTANCE, HAZARD):
                return a
        return None

    def _draw_choice(self, obs: Observation, legal: list[Action]) -> Action:
        """At a turn's draw with a choice: take the discard pile's top when it is what we need
        (:meth:`_wants_top`); mulligan a hopeless hand (:meth:`_hopeless`) while the draw pile can give
        it back; else the draw pile. Inside a mulligan: throw every distance card and hazard, then draw."""
        g = self.game
        if obs.decision.kind == DecisionKind.MULLIGAN:
            return self._throw(legal) or legal[0]  # throw the rest of a hopeless hand, then draw back
        top = obs.discard[-1] if obs.discard else -1
        if top >= 0 and g.draw_discard_action in legal and self._wants_top(obs, top):
            return g.draw_discard_action
        if g.mulligan and obs.draw_pile >= g.hand_size and self._hopeless(obs):
            return self._throw(legal) or legal[0]
        return legal[0]

    def _fast_play(self, legal: list[Action]) -> Action:
        """A fast-play window: answer with a remedy (never decline: it fixes the hazard without spending a
        turn); of several, the one that fixes the fewest hazards (a combination remedy is kept for later)."""
        fm = self.game.fixes_mask
        best, fewest = legal[0], -1  # the first of the fewest (no closure: the compiled class has none)
        for a in legal:
            if a.op == FAST_PLAY:
                n = bin(fm[a.card_index]).count("1")
                if fewest < 0 or n < fewest:
                    best, fewest = a, n
        return best

    def _context(self, obs: Observation) -> "_Context":
        # One context per observation: rank() then choose() on the same one (the expert) share it.
        if obs is not self._turn_key or self._turn_ctx is None:
            self._turn_key, self._turn_ctx = obs, _Context(self, obs)
        return self._turn_ctx

    def rank(self, obs: Observation, legal_actions: list[Action]) -> list[Action]:
        """The legal actions of a turn, best first by this bot's scores (ties in the given order)."""
        ctx = self._context(obs)
        scores = [-ctx.value(a.card_index) if a.op == DISCARD else self._score(a, ctx) for a in legal_actions]
        order = sorted(range(len(legal_actions)), key=[-v for v in scores].__getitem__)
        return [legal_actions[i] for i in order]

    # -- scores ------------------------------------------------------------------------
    def _score(self, action: Action, ctx: "_Context") -> float:
        """The score of a play (discards are scored by their keep value in choose and rank)."""
        if action.op != PLAY:
            return NEG
        c = action.card_index
        k = self.cls[c]
        me = ctx.me
        if k == _DISTANCE:
            if me.miles + self.miles[c] == ctx.obs.target:
                return self.W_FINISH
            return self.distance_score[c]
        if k == _BATTLE_HAZARD or k == _SPEED_HAZARD:
            obs = ctx.obs
            ts = action.side_index
            if ts == self.side:
                return self.W_OWN_HAZARD
            victim = obs.sides[ts]
            lead = self.W_LEAD * victim.miles / self.trip
            if self.points_goal:
                lead += self.W_LEAD_MATCH * obs.match_totals[ts] / self.points_goal
            if me.karma:  # ruleset 'karma' (None without it): the attack costs our karma, or is neutralised
                if victim.karma:
                    return self.W_KARMA_NEUTRALISED + lead
                lead -= self.W_KARMA_SHUNNED
            if k == _SPEED_HAZARD and obs.target - victim.miles <= self.step:
                return self.W_SPEED_HAZARD_LATE + lead  # a speed limit hardly slows a side this close
            # Card counting: a hazard is safe from a coup fourré when we hold its safety or every
            # copy of it is out; its sting is longer when few of its remedies are left to draw.
            cf_proof = self.W_CF_PROOF if ctx.holds_protector(c) or ctx.protectors_unseen(c) == 0 else 0.0
            if k == _SPEED_HAZARD:
                return self.W_SPEED_HAZARD + lead + cf_proof
            sting = self.W_STING * ctx.remedies_gone_share(c)
            return self.W_BATTLE_HAZARD + lead + cf_proof + sting + (0.0 if c in self.quick_fixed else self.W_SLOW_FIX)
        if k == _GO_REMEDY:
            if me.moving:
                return -ctx.value(c) - 1.0  # a go card with a rolling safety: never needed
            return self.W_GO  # get rolling (WM §12 B)
        if k == _SPEED_REMEDY:
            return self.W_SPEED_REMEDY_BLOCKED if ctx.big_blocked else self.W_SPEED_REMEDY
        if k == _SAFETY:
            bh = me.hazard
            pm = self.protects_mask[c]
            if (
                (bh >= 0 and (pm >> bh & 1 or me.stack and pm & ctx.force))
                or (me.speed_hazard >= 0 and pm >> me.speed_hazard & 1 and ctx.big_blocked)
                or (self.grants_rolling[c] and not me.moving and bh < 0)
            ):
                return self.W_SAFETY_UNBLOCK
            if ctx.can_finish:
                return self.W_SAFETY_FINISH
            if ctx.end_near:
                return self.W_SAFETY_END
            to_come = 0
            for h in self.protects[c]:
                if not me.protected & (1 << h):
                    to_come += ctx.unseen(h)
            if not to_come:
                return self.W_SAFETY_FREE  # no coup fourré can come: 100 points and an extra turn for free
            # keep it for a coup fourré, the longer the more of its hazards can still come; but play it
            # rather than throw away a card worth keeping
            return self.W_SAFETY_HOLD - self.W_SAFETY_HOLD_PER * to_come
        if self.game.kind[c] == KARMA:  # our side has lost its karma: get it back, the more so holding hazards
            return self.W_KARMA + self.W_KARMA_PER_HAZARD * sum(1 for d in ctx.hand if self.game.kind[d] == HAZARD)
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
        played = dict(enumerate(me.distance))
        miles = 0
        for c in sorted(hand, key=[-m for m in g.miles].__getitem__):
            if g.kind[c] == DISTANCE and g.miles[c] <= limit and played[c] < g.max_per_hand[c]:
                if miles + g.miles[c] <= extra:
                    miles += g.miles[c]
                    played[c] += 1
        opp_best = max((v.miles for s, v in enumerate(obs.sides) if s != ps), default=0)
        if opp_best == 0:
            return False  # a shutout is already won: do not risk it
        return (
            miles >= extra - self.EXT_SHORT * self.step
            and obs.draw_pile >= self.EXT_DRAW * g.players
            and opp_best <= obs.target - self.EXT_OPP * self.big
        )


_Tables = dict[str, Any]  # attribute name -> value (HeuristicBot's annotations say each one's type)
_TABLES_KEY = "heuristic"  # its entry of Game.tool_tables: the tables by the class's distance weights


def _game_tables(cls: type[HeuristicBot], game: Game) -> _Tables:
    """The bot's tables that depend on the game only (and on the class's distance weights): who fixes and
    protects what, card classes, the ruleset's units. Built once per Game and shared by every seat of every
    match (they were 7.8% of a heuristic hand when built per bot); kept in the Game itself
    (``Game.tool_tables``), so two games of one ruleset id (a comparison's arms) never share tables, and they
    go with the Game (a compiled Game takes no weak reference)."""
    weights = (cls.W_DISTANCE, cls.W_DISTANCE_SCALE, cls.V_DISTANCE, cls.V_DISTANCE_SCALE)
    by_weights = game.tool_tables.get(_TABLES_KEY)
    if by_weights is None:
        by_weights = game.tool_tables[_TABLES_KEY] = {}
    tables: _Tables | None = by_weights.get(weights)
    if tables is None:
        tables = by_weights[weights] = _build_tables(cls, game)
    return tables


def _build_tables(bot_class: type[HeuristicBot], game: Game) -> _Tables:
    """The attributes :func:`_game_tables` shares, by name (as ``HeuristicBot.__init__`` used to set them)."""
    g = game
    n = g.n_cards
    hazards = tuple(c for c in range(n) if g.kind[c] == HAZARD)
    breakers = frozenset(g.safe_trip_breakers)
    remedies_of = tuple(
        tuple(r for r in range(n) if g.kind[r] == REMEDY and g.fixes_mask[r] >> h & 1) for h in range(n)
    )
    cls = []
    where = []
    for c in range(n):
        k = g.kind[c]
        on_battle = g.pile[c] == BATTLE
        if k == SAFETY:
            cls.append(_SAFETY)
            where.append(_ON_SAFETIES)
        elif k == REMEDY:
            cls.append(_GO_REMEDY if on_battle else _SPEED_REMEDY)
            where.append(_ON_BATTLE if on_battle else _ON_SPEED)
        elif k == DISTANCE:
            cls.append(_DISTANCE)
            where.append(_ON_DISTANCE)
        elif k == HAZARD:
            cls.append(_BATTLE_HAZARD if on_battle else _SPEED_HAZARD)
            where.append(_ON_BATTLE if on_battle else _ON_SPEED)
        else:
            cls.append(_OTHER)
            where.append(_NOWHERE)
    # The ruleset's own units (no 75/100/200 written here): the longest distance card ("big",
    # 200 in the classic decks), the longest one that keeps a safe trip ("step", 100), and the
    # trip. Plays are judged in these, so a ruleset with every distance divided by 5 is played alike.
    dist = [g.miles[c] for c in range(n) if g.kind[c] == DISTANCE and g.deck_counts[c]]
    safe = [g.miles[c] for c in range(n) if g.kind[c] == DISTANCE and g.deck_counts[c] and c not in breakers]
    big = max(dist, default=1) or 1
    return {
        "n_players": g.players,
        "extension_to": g.extension_to,
        "hazards": hazards,
        # Hazards each remedy answers (a go card also answers "not rolling").
        "fixes": tuple(tuple(h for h in hazards if g.fixes_mask[c] >> h & 1) for c in range(n)),
        "protects": tuple(tuple(h for h in hazards if g.protects_mask[c] >> h & 1) for c in range(n)),
        "protectors": g.protectors,
        "breakers": breakers,
        "remedies_of": remedies_of,
        "remedy_total": tuple(sum(g.deck_counts[r] for r in rs) for rs in remedies_of),
        # Hazards the go card itself fixes (the Stop): they cost the victim one turn, not two.
        "quick_fixed": frozenset(h for h in hazards if any(g.is_go[c] and g.fixes_mask[c] >> h & 1 for c in range(n))),
        "cls": tuple(cls),
        "where": tuple(where),
        "miles": g.miles,
        "is_go": g.is_go,
        "max_per_hand": g.max_per_hand,
        "deck_counts": g.deck_counts,
        "grants_rolling": g.grants_rolling,
        "protects_mask": g.protects_mask,
        "big": big,
        "step": max(safe, default=big) or 1,
        "trip": g.target or 1,
        "points_goal": g.target_points if g.match_mode == "points" and g.target_points else 0,
        # Each distance card's play score and keep value, fixed for the game (and the class's weights).
        "distance_score": tuple(bot_class.W_DISTANCE + bot_class.W_DISTANCE_SCALE * g.miles[c] / big for c in range(n)),
        "distance_keep": tuple(bot_class.V_DISTANCE + bot_class.V_DISTANCE_SCALE * g.miles[c] / big for c in range(n)),
    }


_T = TypeVar("_T")


@mypyc_attr(native_class=False)  # a descriptor
class _lazy(Generic[_T]):
    """A fact computed on first read and then stored on the instance (functools.cached_property
    without its lock, which costs more than most of these facts on Python 3.11)."""

    def __init__(self, f: Callable[[Any], _T]) -> None:
        self.f = f
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name  # (not f.__name__: a compiled method object has none)

    @overload
    def __get__(self, obj: None, cls: type | None = None) -> _lazy[_T]: ...
    @overload
    def __get__(self, obj: object, cls: type | None = None) -> _T: ...
    def __get__(self, obj: object | None, cls: type | None = None) -> _lazy[_T] | _T:
        if obj is None:
            return self
        v = self.f(obj)
        obj.__dict__[self.name] = v
        return v


@mypyc_attr(native_class=False)  # the lazy facts live in its __dict__
class _Context:
    """What one decision's scores need, each fact computed on first use from the observation.

    Most turns have a play worth more than any discard, and then only the facts those plays
    ask for are ever computed (cards not seen, the finishing card, the safe trip, ...).
    """

    __slots__ = ("bot", "obs", "me", "hand", "_unseen", "_values", "__dict__")  # __dict__: the lazy facts

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
    def force(self) -> int:
        """Bit mask of the battle hazards in force on our side (stacked-hazards: every one of the stack)."""
        m = 0
        for h in self.me.hazards:
            m |= 1 << h
        return m

    @_lazy
    def limit(self) -> int:
        return NO_LIMIT if self.me.limit is None else self.me.limit

    @_lazy
    def max_target(self) -> int:
        ext = self.bot.extension_to
        target = self.obs.target
        return ext if ext is not None and self.obs.extension_called_by < 0 and target < ext else target

    @_lazy
    def end_near(self) -> bool:
        obs = self.obs
        bot = self.bot
        closest = min(obs.target - v.miles for v in obs.sides)
        return obs.draw_pile <= bot.END_DRAW * bot.n_players or closest <= bot.END_STEPS * bot.step

    @_lazy
    def rolling_safety(self) -> bool:
        grants = self.bot.grants_rolling
        return any(grants[c] for c in self.me.safeties + self.me.coup_fourres)

    @_lazy
    def can_finish(self) -> bool:
        bot = self.bot
        me = self.me
        if not me.moving:
            return False
        left = self.obs.target - me.miles
        limit = self.limit
        played = me.distance
        cls = bot.cls
        miles = bot.miles
        most = bot.max_per_hand
        return any(
            cls[c] == _DISTANCE and miles[c] == left and miles[c] <= limit and played[c] < most[c] for c in self.hand
        )

    @_lazy
    def big_blocked(self) -> bool:
        bot = self.bot
        left = self.obs.target - self.me.miles
        limit = self.limit
        cls = bot.cls
        miles = bot.miles
        return any(cls[c] == _DISTANCE and limit < miles[c] <= left for c in self.hand)

    def unseen(self, c: int) -> int:
        """Copies of card ``c`` this seat has not seen (in other hands or the draw pile)."""
        n = self._unseen.get(c)
        if n is None:
            obs = self.obs
            bot = self.bot
            n = bot.deck_counts[c] - self.hand.count(c) - obs.discard.count(c)
            w = bot.where[c]
            # a card is shown on one pile only: its kind and the pile the ruleset puts it on say which
            if w == _ON_BATTLE:
                for v in obs.sides:
                    n -= v.battle.count(c)
            elif w == _ON_SPEED:
                for v in obs.sides:
                    n -= v.speed.count(c)
            elif w == _ON_SAFETIES:
                for v in obs.sides:
                    n -= v.safeties.count(c) + v.coup_fourres.count(c)
            elif w == _ON_DISTANCE:
                for v in obs.sides:
                    n -= v.distance[c]
            self._unseen[c] = n
        return n

    def protectors_unseen(self, h: int) -> int:
        n = 0
        for s in self.bot.protectors[h]:
            n += self.unseen(s)
        return n

    def remedies_gone_share(self, h: int) -> float:
        """The share of the remedies for hazard ``h`` already seen (played, discarded, in our hand)."""
        total = self.bot.remedy_total[h]
        if not total:
            return 1.0
        left = 0
        for r in self.bot.remedies_of[h]:
            left += self.unseen(r)
        return 1.0 - left / total

    def holds_protector(self, h: int) -> bool:
        hand = self.hand
        for s in self.bot.protectors[h]:
            if s in hand:
                return True
        return False

    def keep_values(self, discards: list[Action]) -> list[float]:
        """The keep values of the discarded cards, each worked out once a decision."""
        values = self._values
        out = []
        for a in discards:
            c = a.card_index
            v = values.get(c)
            if v is None:
                v = values[c] = self._value(c)
            out.append(v)
        return out

    def value(self, c: int) -> float:
        """How much card ``c`` is worth keeping (lower: discard first; WM §12 D, E)."""
        v = self._values.get(c)
        if v is None:
            v = self._values[c] = self._value(c)
        return v

    def _value(self, c: int) -> float:
        bot = self.bot
        k = bot.cls[c]
        me = self.me
        if k == _DISTANCE:
            m = bot.miles[c]
            if me.distance[c] >= bot.max_per_hand[c] or me.miles + m > self.max_target:
                return 0.0  # 200s after two played, distance that can never fit (WM §12 D)
            if me.miles + m > self.obs.target:
                return bot.V_DISTANCE_LATE  # fits only after an extension
            if self.hand.count(c) > 2:
                return bot.distance_keep[c] - bot.V_DISTANCE_GLUT
            return bot.distance_keep[c]
        if k == _GO_REMEDY or k == _SPEED_REMEDY:
            copies = self.hand.count(c)
            if bot.is_go[c]:
                if self.rolling_safety:
                    return 0.0  # a rolling safety: the go card is never needed
                return bot.V_GO if copies == 1 else bot.V_GO_SPARE
            fixes = bot.fixes[c]
            showing = (
                me.hazard in fixes
                or me.speed_hazard in fixes
                or (me.stack is not None and bool(self.force & bot.game.fixes_mask[c]))
            )
            to_come = 0
            protected = me.protected
            for h in fixes:
                if not protected >> h & 1:
                    to_come += self.unseen(h)
            if not showing:
                if to_come == 0:
                    return 0.0  # every hazard it fixes is used, or we are protected (WM §12 E)
                hand = self.hand
                for h in fixes:
                    for s in bot.protectors[h]:
                        if s in hand:
                            break
                    else:
                        break  # a hazard no safety in hand answers
                else:
                    return bot.V_REMEDY_COVERED  # our safety in hand answers it better
            return bot.V_REMEDY + bot.V_REMEDY_TO_COME * to_come - (bot.V_REMEDY_SPARE if copies > 1 else 0.0)
        if k == _BATTLE_HAZARD or k == _SPEED_HAZARD:
            bit = 1 << c
            sides = self.obs.sides
            targets = 0
            for s in bot.opponents:
                if not sides[s].protected & bit:
                    targets += 1
            if targets == 0:
                return 0.0  # every opponent is protected against it (WM §12 D)
            return (
                bot.V_HAZARD + bot.V_HAZARD_TARGET * targets + (bot.V_HAZARD_PROOF if self.holds_protector(c) else 0.0)
            )
        if k == _SAFETY:
            return bot.V_SAFETY
        return bot.V_OTHER
