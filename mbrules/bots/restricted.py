"""restricted: the heuristic forbidden some kinds of decision, for restricted play (Jaffe et al., AIIDE 2012).

``compare`` measures which decisions a variant makes matter by seating the heuristic against itself
restricted to never make one kind of decision: the unrestricted side's win share says how much that
decision is worth under the rules. Each parameter, when 1, takes one kind of action out of the legal
actions before the heuristic chooses:

- ``no_coup_fourre``: never call a coup fourré (the window is always declined);
- ``no_extension``: never call the extension (always stop);
- ``no_attack``: never play a hazard on an opponent;
- ``no_safety_discard``: never discard a safety;
- ``no_discard_draw``: never draw the discard pile's top (``draw-from-discard``: always the draw pile);
- ``no_mulligan``: never mulligan (``mulligan``).

When the filter would leave no action (a ruleset that forbids discarding, say, with only hazards
playable), the bot chooses among all the legal actions: a rule that forces a move wins over the
restriction. With every parameter 0 the bot plays exactly as the heuristic.
"""

from __future__ import annotations

import random

from ..engine import Action, Game, Observation
from mbrules.vocab import COUP_FOURRE, DISCARD, EXTEND, HAZARD, MULLIGAN, PLAY, SAFETY
from .base import register
from .heuristic import HeuristicBot

RESTRICTIONS = ("no_coup_fourre", "no_extension", "no_attack", "no_safety_discard", "no_discard_draw", "no_mulligan")


@register(
    "restricted",
    "the heuristic forbidden some decisions (restricted play): parameters no_coup_fourre, "
    "no_extension, no_attack, no_safety_discard, no_discard_draw, no_mulligan (1: never)",
    params={k: (int, 0, 1) for k in RESTRICTIONS},
)
class RestrictedBot:
    observes = True

    def __init__(
        self,
        game: Game,
        player: int,
        rng: random.Random,
        no_coup_fourre: int = 0,
        no_extension: int = 0,
        no_attack: int = 0,
        no_safety_discard: int = 0,
        no_discard_draw: int = 0,
        no_mulligan: int = 0,
    ):
        self.inner = HeuristicBot(game, player, rng)
        kind = game.kind
        self._forbidden_ops: set[int] = set()
        if no_coup_fourre:
            self._forbidden_ops.add(COUP_FOURRE)
        if no_extension:
            self._forbidden_ops.add(EXTEND)
        if no_mulligan:
            self._forbidden_ops.add(MULLIGAN)
        self._no_discard_draw = game.draw_discard_action if no_discard_draw else None
        self._no_attack = bool(no_attack)
        self._no_safety_discard = bool(no_safety_discard)
        self._kind = kind
        self.active = bool(self._forbidden_ops or no_attack or no_safety_discard or no_discard_draw)

    def allowed(self, action: Action) -> bool:
        op = action.op
        if op in self._forbidden_ops or action == self._no_discard_draw:
            return False
        if self._no_attack and op == PLAY and self._kind[action.card_index] == HAZARD:
            return False
        if self._no_safety_discard and op == DISCARD and self._kind[action.card_index] == SAFETY:
            return False
        return True

    def choose(self, observation: Observation, legal_actions: list[Action]) -> Action:
        if self.active:
            kept = [a for a in legal_actions if self.allowed(a)]
            if len(kept) == 1:
                return kept[0]  # the heuristic answers the extension question without looking at the list
            if kept:
                choice = self.inner.choose(observation, kept)
                return choice if self.allowed(choice) else kept[0]
        return self.inner.choose(observation, legal_actions)
