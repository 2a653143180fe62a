"""The scenario step format, both directions: one module writes a step and reads it back.

``mbrules play --record`` writes a match's actions as steps (:mod:`.record`) and ``mbrules
replay`` turns steps back into actions (:mod:`.replay`); both go through this module, so the two
directions cannot drift apart (``tests/scenarios_format`` plays random games and checks that
:func:`step_action` of what :func:`step_text` wrote is the action taken, by the player who took it).

A step names its player and one action key (``docs/scenarios.md``):

=====================================  ================================================
``{player: p1, play: CARD}``           a card on one's own side; a hazard on the only
                                       opposing side
``{player: p1, play: CARD, on: B}``    a card on the side named
``{player: p1, discard: CARD}``        a discard
``{player: p1, coup_fourre: CARD}``    a coup fourré inside its window
``{player: p1, extension: true}``      the extension question answered (false: stop)
``{player: p1, fast_play: CARD}``      a remedy out of turn inside its fast-play window
=====================================  ================================================

``draw: CARD`` may follow: it asserts the card drawn for that turn (or after a coup fourré).
Draws and declined coup fourré (and fast-play) windows have no step: they are implicit.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Sequence

from mbrules.engine import Action
from mbrules.vocab import COUP_FOURRE, DISCARD, EXTEND, FAST_PLAY, OWN, PLAY, STOP

if TYPE_CHECKING:
    from mbrules.engine.game import Game

    from .model import ActionStep


WRAP = 12  # cards a line in long lists


class NoStep(ValueError):
    """An action that has no scenario step (a draw or a declined window: both are implicit)."""


# -- writing --------------------------------------------------------------------------------------------
def quoted(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are valid YAML)."""
    return json.dumps(text, ensure_ascii=False)


def flow(items: Sequence[str], indent: int) -> str:
    """A YAML flow list, wrapped every :data:`WRAP` items with ``indent`` spaces."""
    if len(items) <= WRAP:
        return "[" + ", ".join(items) + "]"
    rows = [", ".join(items[i:i + WRAP]) for i in range(0, len(items), WRAP)]
    pad = " " * indent
    return "[" + (",\n" + pad).join(rows) + "]"


def step_fields(g: "Game", player: int, action: Action, draw: int | None = None) -> dict[str, Any]:
    """The keys of the step that makes ``player`` take ``action``, in the order they are written.

    ``draw`` (a card index) adds the ``draw:`` assertion. Raises :class:`NoStep` for a draw or a
    decline, which a scenario leaves implicit.
    """
    op = action.op
    out: dict[str, Any] = {"player": g.player_names[player]}
    if op == PLAY:
        out["play"] = action.card
        if action.side_index != OWN:
            out["on"] = action.side
    elif op == DISCARD:
        out["discard"] = action.card
    elif op == COUP_FOURRE:
        out["coup_fourre"] = action.card
    elif op == FAST_PLAY:
        out["fast_play"] = action.card
    elif op in (EXTEND, STOP):
        if draw is not None:
            raise ValueError("answering the extension draws nothing: no 'draw:' goes with it")
        out["extension"] = op == EXTEND
    else:
        raise NoStep(f"{action} has no scenario step (draws and declines are implicit)")
    if draw is not None:
        out["draw"] = g.card_ids[draw]
    return out


def step_text(g: "Game", player: int, action: Action, draw: int | None = None) -> str:
    """The step inside its braces: ``player: p1, play: stop, on: B``."""
    return ", ".join(f"{k}: {show(v)}" for k, v in step_fields(g, player, action, draw).items())


def show(value: Any) -> str:
    """A value as a scenario writes it (``null``, ``true``, ``[a, b]``, ``{k: v}``)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show(v)}" for k, v in value.items()) + "}"
    return str(value)


# -- reading --------------------------------------------------------------------------------------------
def step_action(g: "Game", step: "ActionStep") -> tuple[int, Action]:
    """The player (index) and the action a validated step names.

    The step's names must exist in ``g`` (replay checks them first, with positions); a hazard
    without ``on`` is the unnamed form the engine resolves to the only opposing side.
    """
    player = g.player_names.index(step.player)
    if step.play is not None:
        text = f"play {step.play}" if step.on is None else f"play {step.play} on {step.on}"
    elif step.discard is not None:
        text = f"discard {step.discard}"
    elif step.coup_fourre is not None:
        text = f"coup-fourre {step.coup_fourre}"
    elif step.fast_play is not None:
        text = f"fast-play {step.fast_play}"
    else:
        text = "extend" if step.extension else "stop"
    return player, Action.parse(text, g)
