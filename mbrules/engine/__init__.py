"""The generic engine: a ruleset compiled for one player count (Game) and a match in play (State)."""

from .actions import Decision, IllegalAction
from .game import Game, GameError
from .notation import Action, NotationError
from .observation import Observation, Observer, Outcome, SideView, Snapshot
from .state import State
from .transition import Transition

__all__ = [
    "Action",
    "Decision",
    "Game",
    "GameError",
    "IllegalAction",
    "NotationError",
    "Observation",
    "Observer",
    "Outcome",
    "SideView",
    "Snapshot",
    "State",
    "Transition",
]
