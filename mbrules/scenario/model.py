"""The scenario file format (version 1) as a strict pydantic model: see ``docs/scenarios.md``.

Unknown keys are refused everywhere. Names (cards, players, sides) are checked here only for their
shape; whether they exist in the scenario's ruleset and player count is checked when the position is
built (:mod:`mbrules.scenario.replay`), where the deck is known.

An expectation compares only the keys written: ``model_fields_set`` tells a key written as ``null``
(``winner: null``, ``battle: null``) from a key left out.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, Self, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator
from pydantic_core import PydanticCustomError

from mbrules.vocab import REASON_CODES

SCHEMA_ID = "https://mbrules.invalid/schemas/scenario.schema.json"

CardName = Annotated[
    str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64, description="a card id of the ruleset (contract: Card ids)")
]
PlayerName = Annotated[str, Field(pattern=r"^p[1-9][0-9]?$", description="p1 ... pN in seating order")]
SideName = Annotated[str, Field(pattern=r"^[A-Z]$", description="a side: A, B, C")]
OneLine = Annotated[
    str, Field(min_length=1, max_length=300, pattern=r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$")
]  # no control character
Count = Annotated[int, Field(ge=0, le=1_000_000)]
Points = Annotated[int, Field(ge=-10_000_000, le=10_000_000)]
ReasonCode = Literal[REASON_CODES]  # type: ignore[valid-type]  # the contract's codes, from vocab at run time: one list, not a second one here
Cards = list[CardName]

_LINE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
ACTION_KEYS = ("play", "discard", "coup_fourre", "extension", "fast_play", "draw_from", "mulligan")


class Strict(BaseModel):
    """Strict types (no '4' for 4, no 1 for true), unknown keys refused."""

    model_config = ConfigDict(strict=True, extra="forbid")


# -- setup ----------------------------------------------------------------------------------------
class SideSetup(Strict):
    """One side's piles at the start: ``battle``, ``speed`` and ``distance`` bottom first."""

    battle: Cards = Field(default_factory=list, description="battle pile, bottom first")
    speed: Cards = Field(default_factory=list, description="speed pile, bottom first")
    distance: Cards = Field(default_factory=list, description="distance cards played, bottom first")
    safeties: Cards = Field(default_factory=list, description="safeties played normally")
    coup_fourres: Cards = Field(default_factory=list, description="safeties played as coups fourrés")
    karma_cards: Cards = Field(default_factory=list, description="karma cards played (ruleset 'karma')")
    karma: bool | None = Field(
        default=None, description="ruleset 'karma': false for a side that has lost its karma (default: it has it)"
    )


class Setup(Strict):
    """The position to start from; every card it does not place is shuffled by ``seed``."""

    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] = Field(
        default=0, description="shuffles every card the setup does not place"
    )
    hands: dict[PlayerName, Cards] = Field(
        default_factory=dict,
        description="what a player holds before its next draw; a hand not listed is dealt from the shuffled rest",
    )
    draw_pile: Cards = Field(default_factory=list, description="cards on top of the draw pile, top first")
    rest: Literal["draw_pile", "discard_pile"] = Field(
        default="draw_pile", description="where the cards that nothing places go (beneath the listed cards)"
    )
    discard_pile: Cards = Field(default_factory=list, description="cards already discarded, bottom first")
    sides: dict[SideName, SideSetup] = Field(default_factory=dict)
    turn: PlayerName = Field(default="p1", description="who plays next")
    extension_called_by: PlayerName | None = Field(
        default=None, description="a player who has already called the extension"
    )
    match: dict[SideName, Points] = Field(default_factory=dict, description="running totals before this hand")
    hands_played: Annotated[int, Field(ge=0, le=9_999)] = Field(
        default=0,
        description="hands of the match already played before this one (a match of match.hands hands "
        "ends after its last; the hands cap counts them too)",
    )


# -- steps ----------------------------------------------------------------------------------------
class ActionStep(Strict):
    """A player's action: exactly one of ``play``, ``discard``, ``coup_fourre``, ``extension``, ``fast_play``,
    ``draw_from``, ``mulligan``."""

    player: PlayerName
    play: CardName | None = None
    discard: CardName | None = None
    coup_fourre: CardName | None = None
    extension: bool | None = None
    fast_play: CardName | None = Field(
        default=None, description="a remedy played out of turn against the hazard just played (option fast-play-remedy)"
    )
    draw_from: Literal["discard"] | None = Field(
        default=None, description="the turn's draw takes the discard pile's top card (turn.draw_from_discard)"
    )
    mulligan: CardName | None = Field(
        default=None,
        description="throw this card in a mulligan (turn.mulligan); the mulligan ends, drawing back "
        "to the hand size, at the first step that is not another card of it",
    )
    on: SideName | None = Field(default=None, description="the side a hazard is played on")
    draw: CardName | None = Field(default=None, description="asserts the card drawn for this turn")
    rejected: ReasonCode | Literal[True] | None = Field(
        default=None, description="asserts the action is refused (with this reason code; true: any)"
    )

    @model_validator(mode="after")
    def _one_action(self) -> Self:
        given = [k for k in ACTION_KEYS if getattr(self, k) is not None]
        if len(given) > 1:
            raise PydanticCustomError(
                "two_actions",
                "two actions in one step ({actions}): write one action per step",
                {"actions": ", ".join(given), "keys": given},
            )
        if not given:
            raise PydanticCustomError(
                "no_action",
                "an action step needs one of play, discard, coup_fourre, extension, fast_play, draw_from, "
                "mulligan (or write an 'expect:' step)",
                {"keys": ["player"]},
            )
        if self.on is not None and self.play is None:
            raise PydanticCustomError(
                "on_without_play", "'on:' goes only with 'play:' (the side a card is played on)", {"keys": ["on"]}
            )
        if self.draw is not None and (self.draw_from is not None or self.mulligan is not None):
            raise PydanticCustomError(
                "draw_with_turn_draw",
                "'draw:' cannot go with 'draw_from:' or 'mulligan:': write it on the turn's play",
                {"keys": ["draw"]},
            )
        if self.draw is not None and self.extension is not None:
            raise PydanticCustomError(
                "draw_with_extension",
                "'draw:' cannot go with 'extension:': answering the extension draws nothing",
                {"keys": ["draw"]},
            )
        return self

    @property
    def action_key(self) -> str:
        return next(k for k in ACTION_KEYS if getattr(self, k) is not None)


class SideExpect(Strict):
    miles: Count | None = None
    battle: CardName | None = Field(default=None, description="top card of the battle pile, or null")
    speed: CardName | None = Field(default=None, description="top card of the speed pile, or null")
    safeties: Cards | None = Field(default=None, description="every safety played (normally or as coup fourré)")
    coup_fourres: Cards | None = None
    moving: bool | None = Field(default=None, description="may play some distance now")
    limit: Count | None = Field(default=None, description="highest distance allowed now, null for none")
    d200: Count | None = Field(default=None, description="200-mile cards played this hand")
    karma: bool | None = Field(default=None, description="ruleset 'karma': whether the side has its karma")


class ScoreExpect(Strict):
    """Score lines to compare: the contract's, and any line a ruleset adds (``scoring.lines``, snake_case)."""

    model_config = ConfigDict(strict=True, extra="allow")

    @model_validator(mode="after")
    def _extra_lines(self) -> Self:
        for name, value in (self.model_extra or {}).items():
            if not isinstance(name, str) or not _LINE_NAME.match(name):
                raise PydanticCustomError(
                    "line_name",
                    "'{name}' is not a score line name (snake_case: lowercase letters, digits and '_')",
                    {"name": str(name)},
                )
            if type(value) is not int or not -10_000_000 <= value <= 10_000_000:
                raise PydanticCustomError(
                    "line_points",
                    "score line {name}: points are a whole number, not {value}",
                    {"name": name, "value": repr(value)},
                )
        return self

    milestones: Points | None = None
    safeties: Points | None = None
    all_safeties: Points | None = None
    coup_fourres: Points | None = None
    trip_completed: Points | None = None
    delayed_action: Points | None = None
    safe_trip: Points | None = None
    shutout: Points | None = None
    extension: Points | None = None
    total: Points | None = None


class Expect(Strict):
    """What the game must show at this point; only the keys written are compared."""

    turn: PlayerName | None = None
    hand_over: bool | None = None
    target: Count | None = None
    draw_pile: Count | None = None
    discard_top: CardName | None = None
    hands: dict[PlayerName, Cards] | None = None
    sides: dict[SideName, SideExpect] | None = None
    score: dict[SideName, ScoreExpect] | None = None
    match: dict[SideName, Points] | None = None
    winner: SideName | Literal["draw"] | None = None


class ExpectStep(Strict):
    expect: Expect


def _step_kind(value: Any) -> str:
    if isinstance(value, dict):
        return "expect" if "expect" in value else "action"
    if isinstance(value, (ActionStep, ExpectStep)):
        return "expect" if isinstance(value, ExpectStep) else "action"
    return "action"


Step = Annotated[
    Union[Annotated[ActionStep, Tag("action")], Annotated[ExpectStep, Tag("expect")]],
    Discriminator(_step_kind),
]


class Scenario(Strict):
    """One scenario: a position, actions played through the engine, and what must come out."""

    scenario: OneLine = Field(description="a one-line title")
    source: Annotated[str, Field(min_length=1, max_length=2000)] = Field(
        description="where the rule is written: rulebook and section (quotes welcome), or 'recorded'"
    )
    ruleset: Annotated[str, Field(min_length=1, max_length=500)] = Field(
        description="bundled id, or a path relative to the scenario file"
    )
    options: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(
        default_factory=list, description="option ids or paths, applied in order"
    )
    players: Annotated[int, Field(ge=1, le=99)]
    setup: Setup | None = None
    steps: Annotated[list[Step], Field(min_length=1)]


def scenario_json_schema() -> dict[str, Any]:
    """The JSON Schema (2020-12) of a scenario document."""
    schema = Scenario.model_json_schema()
    # The two step kinds: say which one a mapping is by its 'expect' key (as the model does).
    out = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "mbrules scenario (version 1)",
        "description": (
            "A position, actions played through the engine and what must come out. A file may hold "
            "several scenario documents separated by '---' (as 'mbrules play --record' writes)."
        ),
        **{k: v for k, v in schema.items() if k not in ("title", "description")},
    }
    defs = out.get("$defs", {})
    action = defs.get("ActionStep")
    if action is not None:
        action["oneOf"] = [{"required": [k]} for k in ACTION_KEYS]
        action["dependentRequired"] = {"on": ["play"]}
        action["not"] = {"required": ["extension", "draw"]}
    score = defs.get("ScoreExpect")
    if score is not None:  # a ruleset's own lines (scoring.lines): snake_case names, whole points
        score["additionalProperties"] = {"type": "integer", "minimum": -10_000_000, "maximum": 10_000_000}
        score["propertyNames"] = {"pattern": _LINE_NAME.pattern}
    schema_sorted: dict[str, Any] = json.loads(json.dumps(out, sort_keys=True))
    return schema_sorted


def schema_text() -> str:
    """The checked-in form of the schema: sorted keys, indent 2, trailing newline."""
    return json.dumps(scenario_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
