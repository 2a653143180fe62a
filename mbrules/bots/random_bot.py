"""The baseline: uniform over the legal actions, from the bot's own stream."""

from __future__ import annotations

import random

from ..engine import Action, Game, Observation
from ..engine.fields import mypyc_attr
from .base import register


@register("random", "uniform over the legal actions", ladder=0, hints=0)
@mypyc_attr(native_class=False)  # compiled (mbrules._compiled): register names it, tests patch its choose
class RandomBot:
    __slots__ = ("game", "player", "rng", "_random")
    observes = False  # uniform whatever the table shows: the driver passes no observation

    def __init__(self, game: Game, player: int, rng: random.Random):
        self.game = game
        self.player = player
        self.rng = rng
        self._random = rng.random

    def choose(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        # int(random() * n) is uniform over n choices to within 2**-53. n as a float: compiled, the product is a
        # native one of two doubles (an int operand made it a generic float * int); the same double either way
        return legal_actions[int(self._random() * float(len(legal_actions)))]
