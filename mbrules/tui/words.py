"""Refusals in the words of the table: why a card cannot be played, said to the person holding it.

The engine refuses a move with a reason code (``IllegalAction.code``) and a sentence about sides
("side A is not rolling: it needs a go card…"). At the table one says "you have a Flat Tire: play a
Spare Tire". This module turns a reason code into that sentence, reading only the seat's
:class:`~mbrules.engine.Observation` (what that person sees) and the ruleset's display names: the
reason itself always comes from the engine (``State.verify``), never from a guess here.
"""
from __future__ import annotations

from mbrules.engine import Game, Observation
from mbrules.narrate import side_label
from mbrules.vocab import Reason


def _names(game: Game, cards) -> str:
    names = [game.names[c] for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _a(name: str) -> str:
    """'a Spare Tire', 'an End of Limit' (a name that starts with a digit stays bare: '200')."""
    if not name or name[0].isdigit():
        return name
    return ("an " if name[0].lower() in "aeiou" else "a ") + name


def refusal(game: Game, obs: Observation, card: int, target_side: int, code: str, engine_words: str) -> str:
    """Why ``card`` (played on ``target_side``, or one's own side when -1) is refused, in player words."""
    me = obs.sides[obs.side]
    name = game.names[card]
    unit = game.ruleset.display.distance_unit.value
    ts = obs.side if target_side < 0 else target_side
    them = side_label(game, ts, obs.player)
    if code == Reason.CANNOT_MOVE:
        if me.hazard >= 0:
            if len(me.hazards) > 1:  # option stacked-hazards: several to fix
                return f"you have {' and '.join(game.names[h] for h in me.hazards)}: fix each with its remedy first"
            fixes = [c for c in range(game.n_cards) if game.fixes_mask[c] >> me.hazard & 1]
            return f"you have {_a(game.names[me.hazard])}: play {_a(_names(game, fixes))} first"
        gos = [c for c in range(game.n_cards) if game.is_go[c]]
        return f"you are not rolling yet: play {_a(_names(game, gos))} first"
    if code == Reason.SPEED_LIMIT:
        limit_card = game.names[me.speed_hazard] if me.speed_hazard >= 0 else "a speed limit"
        return f"you are under {_a(limit_card)}: only {me.limit} {unit} or less until you play an end of it"
    if code == Reason.OVER_TARGET:
        return (f"{name} would take you from {me.miles} past the trip of {obs.target} {unit}: "
                f"you need exactly {obs.target - me.miles} {unit} more")
    if code == Reason.TOO_MANY_200:
        return f"you have already played {me.distance[card]} {name} this hand, the most allowed"
    if code == Reason.PROTECTED:
        return f"side {them} has the safety against {name}"
    if code == Reason.NOT_ROLLING:
        return f"side {them} is not rolling: {name} only stops a side that is moving"
    if code == Reason.ALREADY_LIMITED:
        return f"side {them} already has a speed limit"
    if code == Reason.NOTHING_TO_FIX:
        return f"there is nothing for {_a(name)} to fix on your side"
    if code == Reason.ROLLING_SAFETY:
        return f"your safety lets you roll: this edition refuses {_a(name)} while it is down"
    if code == Reason.SAME_HAZARD:
        return f"side {them} already has {_a(name)} in force"
    if code == Reason.OTHER_HAZARD:
        rest = [h for h in me.hazards if not game.fixes_mask[card] >> h & 1]
        return f"{name} comes last: fix {' and '.join(game.names[h] for h in rest)} first"
    if code == Reason.NOT_DISCARDABLE:
        return f"{_a(name)} may never be discarded in this edition: play it instead"
    if code == Reason.PLAYABLE_CARD:
        return f"you could play {_a(name)}, so this edition does not let you discard it"
    if code == Reason.MUST_PLAY:
        return "you hold a card you can play: this edition does not let you discard then"
    if code == Reason.BAD_TARGET:
        return f"{name} goes on an opponent's side" if ts == obs.side else f"{name} goes on your own side"
    return engine_words


__all__ = ["refusal"]
