"""The scenario format, both directions: one module writes a step, a setup and an ``expect`` and reads them back.

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
``{player: p1, draw_from: discard}``   the turn's draw takes the discard pile's top
``{player: p1, mulligan: CARD}``       one card thrown in a mulligan (its draw back is
                                       implicit: the first step that is not another)
=====================================  ================================================

``draw: CARD`` may follow: it asserts the card drawn for that turn (or after a coup fourré).
Draws and declined coup fourré (and fast-play) windows have no step: they are implicit.

A hand's ``setup`` as a record writes it is a :class:`Deal` (every hand, the whole draw pile, who plays
first, the totals before the hand): :func:`setup_lines` writes one, :func:`read_setup` reads it back
(``mbrules play --human --record`` checks a save's deals with it, :mod:`mbrules.tui.resume`). An
``expect`` is read off a position by :func:`observe_side`, :func:`hand_sheet`, :func:`match_totals`
and :func:`winner_name` (replay compares what a scenario expects with them), and the end of a hand as
a record writes it is a :class:`HandEnd` made by the same functions: :func:`hand_end`,
:func:`expect_lines`, :func:`read_expect`. ``tests/properties/test_scenario_setup_expect_format.py``
checks that what is written reads back the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from mbrules.engine import Action
from mbrules.vocab import COUP_FOURRE, DISCARD, DRAW, EXTEND, FAST_PLAY, MULLIGAN, OWN, PLAY, STOP, Termination

if TYPE_CHECKING:
    from mbrules.engine.game import Game
    from mbrules.engine.observation import Snapshot

    from .model import ActionStep, Expect, Setup


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
    rows = [", ".join(items[i : i + WRAP]) for i in range(0, len(items), WRAP)]
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
    elif (op == DRAW and action.from_discard) or op == MULLIGAN:
        if draw is not None:
            raise ValueError(f"'{action}' is the turn's draw itself: no 'draw:' goes with it")
        if op == MULLIGAN:
            out["mulligan"] = action.card
        else:
            out["draw_from"] = "discard"  # the card taken is the discard pile's top, which the position shows
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
    elif step.draw_from is not None:
        text = "draw discard"
    elif step.mulligan is not None:
        text = f"mulligan {step.mulligan}"
    else:
        text = "extend" if step.extension else "stop"
    return player, Action.parse(text, g)


# -- a hand's setup -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """A hand's setup as a record writes it: every player's hand and the whole draw pile (top first), as
    card indices, so that no shuffle is involved; who plays first; the running totals before the hand."""

    hands: tuple[tuple[int, ...], ...]  # per player
    draw_pile: tuple[int, ...]
    turn: int
    match: tuple[int, ...]  # per side
    hands_played: int = 0  # hands before this one, written where the match's length counts them (fixed hands)
    seed: int | None = None  # the seed of the hand's reshuffles, written where the ruleset reshuffles (turn.reshuffles)


def deal_of(snap: "Snapshot") -> Deal:
    """The deal of the hand ``snap`` stands at the start of (taken before the hand's first action)."""
    g = snap.game
    played = snap.hand_no if g.match_mode == "fixed_hands" else 0  # the match's length counts the hands before
    seed = snap.hand_seed if (g.max_reshuffles or g.max_refill_reshuffles) else None  # the reshuffles' seed
    return Deal(
        tuple(tuple(h) for h in snap.hands),
        tuple(snap.draw_pile),
        snap.first_player,
        tuple(snap.match_totals),
        played,
        seed,
    )


def setup_lines(g: "Game", deal: Deal) -> list[str]:
    """The ``setup:`` mapping of ``deal``, line by line (long card lists wrapped, :func:`flow`)."""
    lines = ["setup:", "  hands:"]
    for p, cards in enumerate(deal.hands):
        lines.append(f"    {g.player_names[p]}: {flow([g.card_ids[c] for c in cards], 8)}")
    lines.append(f"  draw_pile: {flow([g.card_ids[c] for c in deal.draw_pile], 4)}")
    lines.append(f"  turn: {g.player_names[deal.turn]}")
    if deal.seed is not None:
        lines.append(f"  seed: {deal.seed}")  # the hand's reshuffles are shuffled from it
    lines.append("  match: {" + ", ".join(f"{g.side_names[s]}: {deal.match[s]}" for s in range(g.sides)) + "}")
    if deal.hands_played:
        lines.append(f"  hands_played: {deal.hands_played}")
    return lines


def read_setup(g: "Game", setup: "Setup") -> Deal | None:
    """The :class:`Deal` a validated setup lists, or None when it is not one (a hand not listed, a side's
    piles, discards, an extension already called: a position a record never writes). Its names must
    exist in ``g`` (replay checks them first, with positions)."""
    if (
        sorted(setup.hands) != sorted(g.player_names)
        or setup.sides
        or setup.discard_pile
        or setup.extension_called_by is not None
    ):
        return None
    index = g.index
    return Deal(
        tuple(tuple(index[c] for c in setup.hands[name]) for name in g.player_names),
        tuple(index[c] for c in setup.draw_pile),
        g.player_names.index(setup.turn),
        tuple(setup.match.get(name, 0) for name in g.side_names),
        setup.hands_played,
        setup.seed if (g.max_reshuffles or g.max_refill_reshuffles) else None,
    )


# -- an expect: a position as a scenario names it (the one place that reads the engine's piles) -------------
def observe_side(snap: "Snapshot", s: int) -> dict[str, Any]:
    """A side as a scenario's ``expect: sides:`` names it."""
    g = snap.game
    v = snap.sides[s]
    d200 = g.index.get("d200")
    return {
        "miles": v.miles,
        "battle": g.card_ids[v.battle[-1]] if v.battle else None,
        "speed": g.card_ids[v.speed[-1]] if v.speed else None,
        "safeties": [g.card_ids[c] for c in v.safeties + v.coup_fourres],
        "coup_fourres": [g.card_ids[c] for c in v.coup_fourres],
        "moving": bool(v.moving),
        "limit": v.limit,
        "d200": v.distance[d200] if d200 is not None else 0,
        "karma": v.karma,
    }


def hand_over(snap: "Snapshot") -> bool:
    """Whether the hand ``snap`` stands in is over (``expect: hand_over:``)."""
    return snap.decision.kind in ("hand_over", "match_over")


def hand_sheet(snap: "Snapshot") -> list[dict[str, int]]:
    """This hand's sheet: the final one once the hand is over, else as if it ended now."""
    if hand_over(snap) and snap.hand_sheets:
        return list(snap.hand_sheets[-1])
    return list(snap.score)


def match_totals(snap: "Snapshot") -> list[int]:
    """Running totals including this hand."""
    if hand_over(snap):
        return list(snap.match_totals)
    return [t + line["total"] for t, line in zip(snap.match_totals, snap.score)]


def winner_name(snap: "Snapshot") -> str | None:
    """The match's winner as ``expect: winner:`` names it: a side's name, ``draw``, or None while undecided
    (still going, or stopped by the hands cap)."""
    w = snap.winner
    if w is None or w == Termination.UNFINISHED:
        return None
    if w == Termination.DRAW:
        return w
    assert not isinstance(w, Termination)  # a win is the winning side's index
    return snap.game.side_names[w]


@dataclass(frozen=True)
class HandEnd:
    """The ``expect`` a record writes after a hand: whether it is over, its sheet (per side: score line ->
    points; as if it ended now when it was cut short), the running totals and the match's winner."""

    hand_over: bool
    score: tuple[Mapping[str, int], ...]
    match: tuple[int, ...]
    winner: str | None


def hand_end(snap: "Snapshot", winner: bool = True) -> HandEnd:
    """The :class:`HandEnd` of the position ``snap`` (without the winner unless ``winner``)."""
    return HandEnd(
        hand_over(snap),
        tuple(dict(line) for line in hand_sheet(snap)),
        tuple(match_totals(snap)),
        winner_name(snap) if winner else None,
    )


def expect_lines(g: "Game", end: HandEnd) -> list[str]:
    """The ``- expect:`` step of ``end``, line by line, as a step of the ``steps:`` list."""
    lines = ["  - expect:", f"      hand_over: {'true' if end.hand_over else 'false'}", "      score:"]
    for s in range(g.sides):
        lines.append(
            f"        {g.side_names[s]}: {{"
            + ", ".join(f"{line}: {end.score[s][line]}" for line in g.score_line_names)
            + "}"
        )
    lines.append("      match: {" + ", ".join(f"{g.side_names[s]}: {end.match[s]}" for s in range(g.sides)) + "}")
    lines.append(f"      winner: {'null' if end.winner is None else end.winner}")
    return lines


def read_expect(g: "Game", e: "Expect") -> HandEnd | None:
    """The :class:`HandEnd` a validated ``expect`` states, or None when it does not state one whole (a
    scenario's expect names only what it checks)."""
    written = e.model_fields_set
    if not {"hand_over", "score", "match", "winner"} <= written or e.hand_over is None:
        return None
    sheets, totals = e.score or {}, e.match or {}
    if sorted(sheets) != sorted(g.side_names) or sorted(totals) != sorted(g.side_names):
        return None
    score = []
    for name in g.side_names:
        sc = sheets[name]
        points = {**{k: getattr(sc, k) for k in sc.model_fields_set}, **(sc.model_extra or {})}
        if not set(g.score_line_names) <= set(points):
            return None
        score.append({line: points[line] for line in g.score_line_names})
    return HandEnd(e.hand_over, tuple(score), tuple(totals[name] for name in g.side_names), e.winner)
