"""The generic engine: a ruleset compiled for one player count (Game) and a match in play (State)."""
from .actions import Decision, IllegalAction
from .game import Game, GameError
from .state import State

__all__ = ["Decision", "Game", "GameError", "IllegalAction", "State"]
