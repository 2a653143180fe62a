"""Features of one seat's observation for the ``learned`` bot's value, derived from the ruleset's own cards.

Nothing here names a card id: the cards, their kinds, piles, remedies and protections come from
the compiled :class:`~mbrules.engine.Game`, so a custom ruleset with a new hazard gets features
for it too (its count in hand, unseen, showing on each side's piles, its safety in play).

Sides are taken from the seat's point of view: its own side first, then the others in turn order
(the next side to play first). Every feature is a float of a modest range (shares, counts, flags).
:func:`feature_names` names them, in order; a model file stores the names and is refused when they
differ (another ruleset, another number of sides).
"""

from __future__ import annotations

from ..engine import Game, Observation
from ..vocab import BATTLE, DISTANCE, HAZARD, NO_LIMIT, REMEDY, SAFETY, DecisionKind

TURN = DecisionKind.TURN


class Featurizer:
    """The feature vector of an observation of ``game`` (one ruleset, one player count)."""

    def __init__(self, game: Game, hand: bool = True):
        g = game
        self.hand = hand
        self.game = g
        n = g.n_cards
        ids = g.card_ids
        self.cards = range(n)
        self.hazards = [c for c in range(n) if g.kind[c] == HAZARD]
        self.battle_hazards = [c for c in self.hazards if g.pile[c] == BATTLE]
        self.speed_hazards = [c for c in self.hazards if g.pile[c] != BATTLE]
        self.safeties = [c for c in range(n) if g.kind[c] == SAFETY]
        self.distances = [c for c in range(n) if g.kind[c] == DISTANCE]
        self.capped = [c for c in self.distances if g.max_per_hand[c] < NO_LIMIT]
        self.remedies = [c for c in range(n) if g.kind[c] == REMEDY]
        self.go_cards = [c for c in self.remedies if g.is_go[c]]
        self.deck_counts = g.deck_counts
        self.deck_size = len(g.deck)
        self.longest = max((g.miles[c] for c in self.distances), default=1) or 1
        self.match_scale = float(max(g.target_points or 0, 1)) if g.scoring_enabled else 1.0
        S = g.sides
        names: list[str] = []
        for r in range(S):
            t = "me" if r == 0 else f"opp{r}"
            names += [
                f"{t}.miles",
                f"{t}.to_go",
                f"{t}.to_go_steps_le1",
                f"{t}.to_go_steps_le2",
                f"{t}.moving",
                f"{t}.needs_go",
                f"{t}.limited",
                f"{t}.coups",
                f"{t}.moving_x_stage",
                f"{t}.to_go_x_stage",
            ]
            names += [f"{t}.stopped_by.{ids[h]}" for h in self.battle_hazards]
            names += [f"{t}.limited_by.{ids[h]}" for h in self.speed_hazards]
            names += [f"{t}.safety.{ids[f]}" for f in self.safeties]
            names += [f"{t}.played.{ids[c]}" for c in self.capped]
            names += [f"{t}.exposed.{ids[h]}" for h in self.hazards]
            names += [f"{t}.match"]
        if hand:
            names += [f"hand.{ids[c]}" for c in range(n)]
        names += [f"unseen.{ids[c]}" for c in range(n)]
        if hand:
            names += [
                "hand.distance_fits",
                "hand.playable_distance",
                "hand.fixes_my_hazard",
                "hand.safety_for_my_hazard",
                "hand.go",
                "hand.fixes_my_limit",
                "hand.hazard_usable",
                "hand.dead",
                "hand.safeties",
            ]
        names += ["draw_pile", "stage", "extended", "my_turn_next", "drawn", "match_lead", "match_lead_x_stage"]
        self.names = tuple(names)

    def __len__(self) -> int:
        return len(self.names)

    def __call__(self, obs: Observation) -> list[float]:
        g = self.game
        S = g.sides
        me = obs.side
        target = float(obs.target) or 1.0
        longest = self.longest
        stage = 1.0 - obs.draw_pile / self.deck_size  # 0 at the deal, 1 with the draw pile empty
        unseen = obs.unseen()
        x: list[float] = []
        ap = x.append
        ext = x.extend
        for r in range(S):
            v = obs.sides[(me + r) % S]
            to_go = obs.target - v.miles
            held = set(v.safeties) | set(v.coup_fourres)
            ap(v.miles / target)
            ap(to_go / target)
            ap(1.0 if 0 < to_go <= longest else 0.0)
            ap(1.0 if 0 < to_go <= 2 * longest else 0.0)
            ap(1.0 if v.moving else 0.0)
            ap(1.0 if (not v.moving and v.hazard < 0) else 0.0)
            ap(1.0 if v.limit is not None else 0.0)
            ap(float(len(v.coup_fourres)))
            ap((1.0 if v.moving else 0.0) * stage)
            ap(to_go / target * stage)
            stack = v.stack  # stacked-hazards: every hazard in force is on (the same one-hot without a stack)
            ext([1.0 if (v.hazard == h if stack is None else h in stack) else 0.0 for h in self.battle_hazards])
            ext([1.0 if v.speed_hazard == h else 0.0 for h in self.speed_hazards])
            ext([1.0 if f in held else 0.0 for f in self.safeties])
            ext([v.distance[c] / g.max_per_hand[c] for c in self.capped])
            # hazards this side is open to, as the share of their copies still unseen
            prot = v.protected
            ext([0.0 if prot >> h & 1 else unseen[h] / max(1, self.deck_counts[h]) for h in self.hazards])
            ap(obs.match_totals[(me + r) % S] / self.match_scale)
        hand = obs.hand
        if self.hand:
            counts = [0] * g.n_cards
            for c in hand:
                counts[c] += 1
            ext([float(k) for k in counts])
        ext([unseen[c] / max(1, self.deck_counts[c]) for c in self.cards])
        if self.hand:
            self._hand(obs, x, target)
        d = obs.decision
        ap(obs.draw_pile / self.deck_size)
        ap(stage)
        ap(1.0 if obs.target > g.target else 0.0)
        ap(1.0 if d.kind == TURN and d.player >= 0 and g.side_of[d.player] == me else 0.0)
        ap(1.0 if d.drawn else 0.0)
        if S > 1:
            lead = (obs.match_totals[me] - max(t for s, t in enumerate(obs.match_totals) if s != me)) / self.match_scale
        else:
            lead = 0.0
        ap(lead)
        ap(lead * stage)
        return x

    def _hand(self, obs: Observation, x: list[float], target: float) -> None:
        """The hand's use now: distance that fits and can be played, remedies for what stops us, ..."""
        g = self.game
        S = g.sides
        me = obs.side
        hand = obs.hand
        miles_of = g.miles
        protectors = g.protectors
        mine = obs.sides[me]
        to_go = obs.target - mine.miles
        limit = mine.limit if mine.limit is not None else NO_LIMIT
        fits = 0.0
        playable = 0.0
        fixes = fix_limit = cf_safety = go = hz = dead = saf = 0.0
        opp_open = [obs.sides[(me + r) % S] for r in range(1, S)]
        for c in hand:
            k = g.kind[c]
            if k == DISTANCE:
                m = miles_of[c]
                if m <= to_go and mine.distance[c] < g.max_per_hand[c]:
                    fits += m / target
                    if mine.moving and m <= limit:
                        playable += m / target
                else:
                    dead += 1.0
            elif k == REMEDY:
                if g.is_go[c]:
                    go += 1.0
                if mine.hazard >= 0 and g.fixes_mask[c] >> mine.hazard & 1:
                    fixes += 1.0
                elif mine.speed_hazard >= 0 and g.fixes_mask[c] >> mine.speed_hazard & 1:
                    fix_limit += 1.0
                elif g.fixes_mask[c] & mine.protected == g.fixes_mask[c] and not g.is_go[c]:
                    dead += 1.0
            elif k == HAZARD:
                if any(not (v.protected >> c & 1) for v in opp_open):
                    hz += 1.0
                else:
                    dead += 1.0
            elif k == SAFETY:
                saf += 1.0
                if mine.hazard >= 0 and c in protectors[mine.hazard]:
                    cf_safety += 1.0
        x.extend([fits, playable, fixes, cf_safety, go, fix_limit, hz, dead, saf])


def feature_names(game: Game, hand: bool = True) -> tuple[str, ...]:
    return Featurizer(game, hand).names
