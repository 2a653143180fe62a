"""The resolved ruleset: every difference between editions stated as data.

A ruleset file (YAML) is composed (``extends``, ``options``) and validated into
one frozen :class:`Ruleset`. The engine compiles it into plain tables; nothing
here is read in the hot loop. Every rule value carries where it comes from: a
``source`` (rulebook file and section) or, where the books are silent or
disagree, ``decided`` (what we chose and why).

No ``from __future__ import annotations`` here: pydantic would evaluate each field's annotation from
its text when the class is made (issue 46: about 14 M instructions of every ruleset command).
"""

import copy
import json
from typing import Annotated, Any, Literal, Self, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from .listing import OPTION_CATEGORIES, RULESET_ID_PATTERN, is_ruleset_id  # noqa: E402,F401  (one definition, shared)
from .pydantic_plugins import skip_empty_plugin_lookup

# No validator is made at import: each function below that has pydantic make one first calls
# skip_empty_plugin_lookup(); a ruleset is validated by validator_cache.ruleset_validator().

CardId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
# One line of plain text: no line break, tab or other control character (a name is printed as given).
OneLine = Annotated[str, Field(min_length=1, max_length=300, pattern=r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$")]
Citation = Annotated[str, Field(min_length=1, max_length=600)]


class Strict(BaseModel):
    """Base: strict types, unknown keys refused, frozen once built.

    A rule's default value below is made with ``model_construct`` (no validator is built for its class at
    import: 36 M instructions of every ruleset command); each is what validation would make of it, as
    tests/test_schema_valid.py checks (``test_every_default_rule_value_is_what_validation_makes``)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)


class Sourced(Strict):
    """Something a rulebook states (``source``) or that we decided (``decided``)."""

    source: Citation | None = Field(
        default=None, description="Rulebook file and section that states this, e.g. 'winning-moves.txt §6C'."
    )
    decided: Citation | None = Field(default=None, description="Where no rulebook states it: what we decided, and why.")
    uncited: Citation | None = Field(
        default=None,
        description="Set by the loader, never written in a file: where a value was given without a source "
        "or decided (a plain value such as 'hazard_on_hazard: true' in a user's file). 'mbrules show' marks it "
        "uncited; the bundled files have none.",
    )

    @model_validator(mode="after")
    def _cited(self) -> Self:
        if sum(x is not None for x in (self.source, self.decided, self.uncited)) != 1:
            raise ValueError("give exactly one of 'source' (where a rulebook states it) or 'decided' (why we chose it)")
        return self


class Rule(Sourced):
    """One rule value with its citation."""

    value: Any


NonNegative = Annotated[int, Field(ge=0, le=1_000_000)]
Positive = Annotated[int, Field(ge=1, le=1_000_000)]


class BoolRule(Rule):
    """A yes/no rule with its citation."""

    value: bool


class PointsRule(Rule):
    """Points for one score line, with their citation."""

    value: NonNegative


class NumberRule(Rule):
    """A positive number (cards, miles, points) with its citation."""

    value: Positive


class CardListRule(Rule):
    """A list of card ids with its citation."""

    value: tuple[CardId, ...]


class KindListRule(Rule):
    """A list of card kinds with its citation."""

    value: tuple[Literal["distance", "hazard", "remedy", "safety", "karma"], ...]


class MilesRule(Rule):
    """A distance in miles (0 or more) with its citation."""

    value: Annotated[int, Field(ge=0, le=100000)]


class CoupFourreWhoRule(Rule):
    """Who may call a coup fourré."""

    value: Literal["target_side", "any_player"]


class ExtensionBonusRule(Rule):
    """Who scores the extension bonus."""

    value: Literal["caller_or_opponents", "finisher"]


class MatchModeRule(Rule):
    """How a match is decided."""

    value: Literal["points", "single_hand", "trip", "fixed_hands", "finisher"]


class BonusTurnRule(Rule):
    """When a coup fourré caller's extra turn comes (issue 35)."""

    value: Literal["at_once", "queued"]


class TieBreakRule(Rule):
    """What equal highest totals at a match's end mean (issue 36)."""

    value: Literal["draw", "first_seat", "another_hand"]


# ----------------------------------------------------------------------------
# Cards


class DistanceCard(Sourced):
    kind: Literal["distance"]
    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]
    miles: Annotated[int, Field(ge=1, le=100000)]
    max_per_hand: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        default=None, description="How many of this card one side may play in a hand (200s: 2). null: no limit."
    )


class HazardCard(Sourced):
    kind: Literal["hazard"]
    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]
    pile: Literal["battle", "speed"] = Field(description="The opponent's pile it is played on.")
    limit: Annotated[int, Field(ge=0, le=100000)] | None = Field(
        default=None,
        description="Speed-pile hazards only: the highest distance card value allowed while it shows.",
    )


class RemedyCard(Sourced):
    kind: Literal["remedy"]
    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]
    fixes: tuple[CardId, ...] = Field(
        description="Hazards this remedy corrects when they show on top of the player's own pile."
    )
    go: bool = Field(
        default=False,
        description="A 'go' card (the Roll): the side is rolling while it shows on the battle pile. "
        "It may be played on an empty battle pile, on a remedy, or on a hazard it fixes.",
    )
    restarts: bool = Field(
        default=False,
        description="A remedy that also sets the car rolling: once it fixes a battle hazard the side rolls "
        "with no go card after it. Unlike a go card it is only played on a hazard it fixes, so it never "
        "starts a car from an empty battle pile.",
    )


class SafetyCard(Sourced):
    kind: Literal["safety"]
    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]
    protects: tuple[CardId, ...] = Field(description="Hazards it protects against for the rest of the hand.")
    rolling: bool = Field(
        default=False,
        description="Right of Way: the side is rolling without a go card whenever no hazard shows.",
    )


class KarmaCard(Sourced):
    """A card that gives its side back the karma it lost (ruleset 'karma'; PlayAural's False Virtue)."""

    kind: Literal["karma"]
    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]


Card = Annotated[DistanceCard | HazardCard | RemedyCard | SafetyCard | KarmaCard, Field(discriminator="kind")]


class ReferenceCard(Sourced):
    """A card in the box that is never dealt (score cards, card guides)."""

    name: OneLine
    count: Annotated[int, Field(ge=0, le=1000)]


class Box(Strict):
    total: NumberRule = Field(description="Cards in the box: the deck plus the reference cards.")
    reference_cards: dict[CardId, ReferenceCard] = Field(description="Cards in the box that are never dealt.")
    added_cards: CardListRule = Field(
        default=CardListRule.model_construct(
            value=(), decided="An edition's deck is the cards of its box (winning-moves.txt §2)"
        ),
        description="Cards a variant adds to the deck that the edition's box does not hold (option karma's "
        "False Virtue cards): dealt, but not counted in box.total.",
    )


# ----------------------------------------------------------------------------
# Player counts


class PlayerCount(Sourced):
    """How the game is set up for one number of players."""

    sides: Annotated[int, Field(ge=1, le=26)] = Field(
        description="Sides sharing one set of piles; player p(i) plays for side (i-1) mod sides."
    )
    target: Annotated[int, Field(ge=1, le=100000)] = Field(description="The trip's length in miles.")
    extension_to: Annotated[int, Field(ge=1, le=100000)] | None = Field(
        description="The extended trip the completing player may call, or null: no extension."
    )
    hazards_on: Literal["opponents", "own_side"] = Field(
        default="opponents",
        description="Where a player's hazards go at this table: opponents (an opposing side, winning-moves.txt "
        "§4) or own_side (the player's own side: a one-side table, option solo).",
    )


class Removal(Sourced):
    """Cards taken out of the deck before the deal for one number of players."""

    cards: dict[CardId, Annotated[int, Field(ge=1, le=1000)]] = Field(
        default_factory=dict,
        description="Card id -> how many copies are removed. In a file, 'cards: null' takes out every inherited "
        "removal while the entry keeps its citation: '\"2\": {cards: null, source: ...}' (the whole deck, cited).",
    )


# ----------------------------------------------------------------------------
# Play, coup fourré, scoring, match


class PlayRules(Strict):
    hand_size: NumberRule = Field(description="Cards dealt to each player.")
    hazard_on_hazard: BoolRule = Field(
        description="A battle hazard may cover another hazard; only the top one needs its remedy."
    )
    hazard_needs_rolling: BoolRule = Field(
        description="A battle hazard may only be played on a side that is rolling (go card on top, "
        "or a rolling safety with no hazard showing)."
    )
    speed_limit_stacking: BoolRule = Field(
        description="A speed-pile hazard may be played on a side whose speed pile already shows one."
    )
    voluntary_discard: BoolRule = Field(description="A player may discard while holding a playable card.")
    safety_discards_hazard: BoolRule = Field(
        description="A safety played normally sends the hazard it protects against, showing on top, to the discard pile."
    )
    roll_after_safety: BoolRule = Field(
        description="After a safety played normally corrects a battle hazard, a go card must follow "
        "(unless the side has a rolling safety)."
    )
    safety_extra_turn: BoolRule = Field(description="Playing a safety gives the player another turn (chained).")
    # -- issue 35 (reactions and the turn): the extra turn ends with the draw pile
    safety_extra_turn_needs_draw_pile: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            decided="Every bundled edition gives the safety's extra turn for the whole hand (winning-moves.txt §5B "
            "says nothing of the draw pile); the French rules' 'Fin de manche' takes it away once the draw "
            "pile is out (option safety-extra-turn-while-deck-lasts).",
        ),
        description="true: a safety played normally gives another turn only while the draw pile holds cards "
        "(a coup fourré's turn is not affected); false: for the whole hand.",
    )
    safety_replacement_draw: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            decided="The bundled editions' extra turn after a safety is a whole turn, its draw a decision like "
            "any turn's (winning-moves.txt §5B 'entitles a player to another turn'); PlayAural replaces the "
            "safety at once (option safety-replacement-draw).",
        ),
        description="true: a safety played on one's turn is replaced at once by the top card of the draw pile "
        "(no choice of where to draw), and the extra turn it gives is a play; false: the extra turn starts "
        "with its draw. Draw then play only (play then draw already draws after the play).",
    )

    # -- Legality and card effects (issue 35): each default is the rule every bundled edition plays.
    go_with_rolling_safety: BoolRule = Field(
        default=BoolRule.model_construct(
            value=True,
            decided="No rulebook forbids a Roll while Right of Way is down (WM §6B only says the side may roll "
            "without one); we allow the useless play (rulings.md Play); option no-roll-under-right-of-way "
            "refuses it as five programs do",
        ),
        description="A go card may be played while the side has a rolling safety (Right of Way) down.",
    )
    undiscardable: KindListRule = Field(
        default=KindListRule.model_construct(
            value=(),
            source="winning-moves.txt §5D: 'he must discard one card' (any card); §12 Hint D: discard "
            "'cards that are of no value to you'",
        ),
        description="Kinds of card that may never be discarded (e.g. safety). A player who can neither play "
        "nor discard otherwise may still discard (the engine never leaves a player without a move).",
    )
    discard_playable: BoolRule = Field(
        default=BoolRule.model_construct(
            value=True,
            source="winning-moves.txt §5D: 'he must discard one card' (any card); §12 Hint D",
        ),
        description="A card that could be played now may be discarded. false: only a card that cannot be "
        "played may be discarded (per card; voluntary_discard: false is the stricter per-hand rule).",
    )
    stacked_hazards: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §2 Hazard cards: 'Under no circumstances may one Hazard Card be played "
            "directly on top of another'",
        ),
        description="Battle hazards stack: a battle hazard may be played on a side another hazard already "
        "stops (not the same hazard twice); each stays in force until its own remedy (or a safety) fixes "
        "it, in any order, and a go card is played only when nothing but what it fixes is left.",
    )
    overshoot: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §6C Distance cards and §8: trips of 'exactly 1000 miles'; a card "
            "'causing his total mileage to exceed 1000' is removed",
        ),
        description="A trip is completed by reaching or passing the target (false: distance may never pass "
        "it, the trip ends exactly on it).",
    )
    safety_distance: MilesRule = Field(
        default=MilesRule.model_construct(
            value=0,
            source="winning-moves.txt §6B Safety cards: a safety protects and 'cancels the attack in "
            "progress'; no safety adds distance",
        ),
        description="Miles a safety adds to its side's distance when played (normally or as a coup fourré), "
        "unless they would take the side past the target; 0: none.",
    )


class CoupFourreRules(Strict):
    enabled: BoolRule
    who: CoupFourreWhoRule = Field(
        description="target_side: a player of the side attacked; any_player: any player but the attacker "
        "(the hazard then stays unless it was played on the caller's side)."
    )
    replacement_draw: BoolRule = Field(
        description="The caller draws one card at once (none if the draw pile is empty)."
    )
    extra_turn: BoolRule = Field(
        description="The caller then takes a full turn; play passes to the caller's left, "
        "and players between attacker and caller lose their turns."
    )
    # -- issue 35 (reactions and the turn): when the caller's turn comes
    bonus_turn: BonusTurnRule = Field(
        default=BonusTurnRule.model_construct(
            value="at_once",
            decided="Every bundled edition: the caller plays at once and the players between attacker and caller "
            "lose their turns (winning-moves.txt §7); PlayAural queues it instead (option "
            "queued-coup-fourre-turn).",
        ),
        description="When the caller's extra turn (extra_turn) is taken. at_once: right after the coup fourré; "
        "play then passes to the caller's left and the players between attacker and caller lose their turns. "
        "queued: the window outlives the attacker's turn, which the hazard ended, so the call comes in the turn "
        "now in progress (the attacker's left, or a turn queued before); that turn stays with its player, a "
        "caller who is not that player plays its extra turn after it and play then goes on from the caller's "
        "left; a caller whose turn it is gets no extra turn (it draws its replacement, then plays its turn).",
    )


# -- issue 36: score lines as data ------------------------------------------------
# A score line is a condition on a side at the hand's end, points, and who receives them. The contract's
# ten lines are entries of this one form too: ScoringRules.standard_lines builds them from the cited values
# of ScoringRules (scoring.coup_fourre, ...); ``scoring.lines`` adds lines (new snake_case names) or, paying
# on one of the contract's lines, replaces that line's standard entry (its points still show under that name).
LineName = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]


class PlayedCount(Strict):
    """How many copies of a card a side played this hand: at least ``at_least``, at most ``at_most``."""

    at_least: Annotated[int, Field(ge=0, le=1000)] = Field(default=0, description="The fewest copies played.")
    at_most: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        default=None, description="The most copies played (none: no upper bound); 0: the card was not played."
    )


class SideFacts(Strict):
    """What a side shows at the hand's end; every key given must hold (a key left out is not checked)."""

    trip_completed: bool | None = Field(
        default=None, description="true: the side completed the trip; false: it did not."
    )
    no_distance: bool | None = Field(
        default=None,
        description="true: the side played no distance card this hand (a safety's miles, "
        "play.safety_distance, are no distance card); false: it played some.",
    )
    hand_empty: bool | None = Field(
        default=None, description="true: every player of the side holds no card when the hand ends."
    )
    safeties: Annotated[int, Field(ge=0, le=1000)] | None = Field(
        default=None, description="The side played exactly this many safeties (coups fourrés included)."
    )
    none_played: tuple[CardId, ...] | None = Field(
        default=None, description="The side played none of these distance cards this hand."
    )
    played: dict[CardId, PlayedCount] | None = Field(
        default=None,
        description="Distance card -> how many copies the side played this hand ({at_least, at_most}), "
        "e.g. {d200: {at_least: 1, at_most: 2}}: one or two 200s.",
    )
    ended_empty_handed: bool | None = Field(
        default=None,
        description="true: a player of the side took the hand's last action (the card that completed the "
        "trip, or the last card played once the draw pile was out) and holds no card after it.",
    )
    exact_finish: bool | None = Field(
        default=None,
        description="true: the side's distance is exactly the trip's target at the hand's end "
        "(with play.overshoot a trip may also be completed past it); false: it is not.",
    )
    all_safeties: bool | None = Field(
        default=None,
        description="true: the side played every safety card of the deck (coups fourrés "
        "included; never with a deck that has none).",
    )
    delayed_action: bool | None = Field(
        default=None,
        description="true: the side completed the trip with a card played after the draw pile "
        "ran out (the book's Delayed Action).",
    )
    called_extension: bool | None = Field(
        default=None, description="true: a player of the side called the extension this hand."
    )
    extended: bool | None = Field(
        default=None, description="true: someone called the extension this hand (the trip was extended)."
    )


class SideCondition(SideFacts):
    """What a side shows at the hand's end, and optionally what it must not show."""

    unless: SideFacts | None = Field(
        default=None, description="The side does not meet this condition (every key of it holding: not met)."
    )


class LineCondition(SideCondition):
    """A side's condition, and optionally one every opposing side must meet as well."""

    every_opponent: SideCondition | None = Field(
        default=None,
        description="Every opposing side meets this condition too (e.g. none played distance); a side with no "
        "opponent (a one-side table) never meets it.",
    )


class ScoreLineRule(Sourced):
    """One score line: for each side meeting ``when``, ``points`` (times ``per``) to ``to`` (that side, or
    each opposing side meeting ``to_when``), shown on the sheet's line ``line`` (default: the entry's name)."""

    points: NonNegative = Field(
        description="Points each recipient scores on this line, once per side meeting when (and per unit of 'per')."
    )
    when: LineCondition = Field(description="The condition a side must meet at the hand's end.")
    per: Literal["mile", "safety", "coup_fourre", "opponent"] | None = Field(
        default=None,
        description="The points are paid once for each: mile of the side's distance, safety it "
        "played (coups fourrés included), coup fourré, or opposing side meeting per_when; none: once.",
    )
    per_when: SideCondition | None = Field(
        default=None, description="per opponent only: the condition an opposing side must meet to be counted."
    )
    up_to_target: bool | None = Field(
        default=None,
        description="per mile only: true counts the side's distance only up to the trip's target (miles "
        "past it, with play.overshoot, are not paid).",
    )
    to: Literal["side", "each_opponent"] = Field(
        default="side",
        description="side: the side meeting the condition scores; each_opponent: every "
        "opposing side (meeting to_when, if given) scores.",
    )
    to_when: LineCondition | None = Field(
        default=None, description="each_opponent only: the condition an opposing side must meet to score."
    )
    line: LineName | None = Field(
        default=None,
        description="The score-sheet line the points show on (default: the entry's own name), so "
        "that several entries may pay on one line.",
    )
    exclusive: LineName | None = Field(
        default=None,
        description="Lines of one exclusive name are alternatives: a side is paid by the first of them, in "
        "the ruleset's order, whose condition it meets, and by no other (list the largest first).",
    )
    label: str | None = Field(
        default=None,
        pattern=r"^[^\x00-\x1f\x7f\[\]]+$",  # one line of plain text: no control character, no markup bracket
        max_length=60,
        description="The line's words on the score sheet, in compare and in sweep (default: from its name, "
        "'fin_vitesse' -> 'Fin vitesse'); the contract's lines have theirs.",
    )


class ScoringRules(Strict):
    enabled: BoolRule = Field(description="false: no points are scored (the kids' simpler game).")
    milestones_per_mile: PointsRule
    milestones_up_to_target: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §8: 'as many points as the total number of miles' (every mile counts)",
        ),
        description="true: the milestones line counts the side's distance only up to the trip's target (with "
        "play.overshoot, miles past it score nothing); false: every mile travelled.",
    )
    safety: PointsRule
    all_safeties: PointsRule
    coup_fourre: PointsRule
    trip_completed: PointsRule
    delayed_action: PointsRule
    safe_trip: PointsRule
    safe_trip_breakers: CardListRule = Field(
        description="Distance cards whose play loses the safe-trip bonus (the 200s)."
    )
    shutout: PointsRule
    shutout_per_opponent: BoolRule = Field(
        description="false: one shutout bonus when no opponent has played distance; "
        "true: the bonus for each opposing side with no distance."
    )
    extension: PointsRule
    extension_bonus_to: ExtensionBonusRule = Field(
        description="caller_or_opponents: the caller if its side completes the extended trip, else each "
        "opposing side; finisher: the side that completes the extended trip."
    )
    # -- issue 36: score lines as data
    lines: dict[LineName, ScoreLineRule] = Field(
        default_factory=dict,
        description="Score lines as data: name -> condition, points, recipients. A new name adds a line to the "
        "score sheet; an entry paying on one of the contract's lines (shutout, safe_trip, ...: its name, or "
        "'line') replaces that line's standard rule.",
    )

    def standard_lines(self) -> dict[str, ScoreLineRule]:
        """The contract's score lines (all but ``total``) as entries of the one score-line form, built from
        this section's cited values (:func:`_standard_entries` says which value gives which line); each entry
        carries the citation of the value that gives its points. Keyed by entry; ``extension_failed`` pays
        on ``extension`` (the caller's opponents' bonus, WM §10C)."""
        skip_empty_plugin_lookup()
        out: dict[str, ScoreLineRule] = {}
        for key, (value, fields) in _standard_entries(self).items():
            rule = getattr(self, value)
            out[key] = ScoreLineRule.model_validate(
                {
                    **fields,
                    "points": rule.value,
                    "source": rule.source,
                    "decided": rule.decided,
                    "uncited": rule.uncited,
                }
            )
        return out

    def all_lines(self) -> dict[str, ScoreLineRule]:
        """Every score line the sheet pays: the standard entries of the contract's lines that no entry of
        ``lines`` pays on, then ``lines`` in its order."""
        replaced = {line.line or name for name, line in self.lines.items()}
        std = {k: v for k, v in self.standard_lines().items() if (v.line or k) not in replaced}
        return {**std, **self.lines}


def _standard_entries(sc: ScoringRules) -> dict[str, tuple[str, dict[str, Any]]]:
    """The contract's score lines as data (issue 36): entry -> (the ScoringRules value giving its points,
    the entry's other fields). Two values of the section choose an entry's shape: shutout_per_opponent (once
    when every opponent is blank, WM §8; or per blank opponent, WP) and extension_bonus_to (the caller if its
    side completes the extended trip, else each of its opponents, WM §10C; or the finisher, WP)."""
    done = {"trip_completed": True}
    blank = {"no_distance": True}  # 'before opponents have played any Distance Cards' (WM §8): cards, not miles
    out: dict[str, tuple[str, dict[str, Any]]] = {
        "milestones": (
            "milestones_per_mile",
            {"when": {}, "per": "mile", "up_to_target": sc.milestones_up_to_target.value or None},
        ),
        "safeties": ("safety", {"when": {}, "per": "safety"}),
        "all_safeties": ("all_safeties", {"when": {"all_safeties": True}}),
        "coup_fourres": ("coup_fourre", {"when": {}, "per": "coup_fourre"}),
        "trip_completed": ("trip_completed", {"when": done}),
        "delayed_action": ("delayed_action", {"when": {**done, "delayed_action": True}}),
        "safe_trip": ("safe_trip", {"when": {**done, "none_played": sc.safe_trip_breakers.value}}),
        "shutout": (
            "shutout",
            {"when": done, "per": "opponent", "per_when": blank}
            if sc.shutout_per_opponent.value
            else {"when": {**done, "every_opponent": blank}},
        ),
    }
    if sc.extension_bonus_to.value == "finisher":
        out["extension"] = ("extension", {"when": {**done, "extended": True}})
    else:
        out["extension"] = ("extension", {"when": {"called_extension": True, **done}})
        out["extension_failed"] = (
            "extension",
            {"when": {"called_extension": True, "trip_completed": False}, "to": "each_opponent", "line": "extension"},
        )
    return out


# The ScoringRules values each contract line's standard entry reads (``mbrules show`` marks them 'not read'
# where an entry of scoring.lines pays on that line instead).
STANDARD_LINE_VALUES: dict[str, tuple[str, ...]] = {
    "milestones": ("milestones_per_mile", "milestones_up_to_target"),
    "safeties": ("safety",),
    "all_safeties": ("all_safeties",),
    "coup_fourres": ("coup_fourre",),
    "trip_completed": ("trip_completed",),
    "delayed_action": ("delayed_action",),
    "safe_trip": ("safe_trip", "safe_trip_breakers"),
    "shutout": ("shutout", "shutout_per_opponent"),
    "extension": ("extension", "extension_bonus_to"),
}


class HandsRule(Rule):
    """A number of hands (1 to 10,000: a match keeps its whole history, so the bound bounds memory too)."""

    value: Annotated[int, Field(ge=1, le=10_000)]


class MatchRules(Strict):
    mode: MatchModeRule = Field(
        description="points: hands until a side reaches target_points (highest total wins, equal highest: draw); "
        "single_hand: one hand, most points wins; trip: one hand, the side completing the trip wins, else the "
        "side that went furthest."
    )
    target_points: NumberRule
    deal_passes_left: BoolRule = Field(description="After each hand the next player deals (p1 then plays second).")
    max_hands: HandsRule = Field(
        default=HandsRule.model_construct(
            value=1000,
            decided="No rulebook bounds a match; a match whose target is never reached would go on forever, "
            "so the match driver stops it as unfinished after this many hands (a points match takes 3 to "
            "10 hands, so 1000 never cuts a real one short).",
        ),
        description="The most hands a match may last: after this many, play stops and the match is "
        "unfinished (a bound against a match that never ends, not a rule of the game).",
    )
    # -- issue 36: match ends as data
    hands: HandsRule = Field(
        default=HandsRule.model_construct(
            value=4,
            decided="Read only when match.mode is fixed_hands. The French rules leave the number to the players "
            "('décider de faire un certain nombre de manches', jcd717/1000Bornes milleBornes/regles.md, "
            "Fin de manche); 4 lets each player of a four-player table deal once.",
        ),
        description="fixed_hands only: how many hands the match lasts.",
    )
    tie_break: TieBreakRule = Field(
        default=TieBreakRule.model_construct(
            value="draw",
            decided="Every bundled edition: no rulebook breaks a tie, so equal highest totals are a draw "
            "(rulings: The match).",
        ),
        description="Equal highest results when the match would end. draw: the match is a draw; first_seat: "
        "the tied side nearest the first seat (side A first) wins; another_hand: another hand is played and "
        "the match is judged again after it.",
    )


# -- issue 35: out-of-turn remedies ------------------------------------------------
class FastPlayRules(Strict):
    """A reaction window, like the coup fourré's, in which the side attacked may answer with a remedy."""

    enabled: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            decided="Every bundled edition plays a remedy only in its player's turn (winning-moves.txt §5, §6A); "
            "the 2014 Dujardin/Asmodee rules' 'fast play' allows it out of turn (option fast-play-remedy).",
        ),
        description="After a hazard lands (and any coup fourré window has passed), a player of the side hit "
        "who holds a remedy fixing it may play it at once, out of turn; play then goes on as if the "
        "hazard's turn had just ended.",
    )
    replacement_draw: BoolRule = Field(
        default=BoolRule.model_construct(
            value=True,
            decided="The out-of-turn player draws one card at once (none if the draw pile is empty), so that its "
            "hand is full again when its own turn comes, as a coup fourré caller does (winning-moves.txt §7).",
        ),
        description="The fast player draws one card at once (none if the draw pile is empty).",
    )


# -- issue 43: karma (PlayAural / PlayPalace karma_rule) -------------------------------
class KarmaRules(Strict):
    """Per-side karma: an attack between two sides that have it is neutralised, and a side that has lost it
    may attack only a side that has lost it too; a karma card gives it back."""

    enabled: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §5, §6: a hazard played on an opponent always lands (no edition has karma; "
            "PlayAural's and PlayPalace's karma_rule is option karma)",
        ),
        description="Every side starts each hand with karma. A hazard from a side with karma on a side with "
        "karma is neutralised: it goes to the discard pile, no window opens, and both sides lose their karma. A "
        "hazard from a side with karma on a side without lands as usual and its side loses its karma (it is "
        "shunned). A side without karma may play a hazard only on a side without karma. A card of kind karma, "
        "played by a side without karma on its own side, gives it back; it then stays on that side's table.",
    )


class DistanceUnitRule(Rule):
    """The unit distances are counted in, as the edition names it (miles, km): display only."""

    value: OneLine


class Display(Strict):
    """Names an edition gives to things other than cards."""

    distance_unit: DistanceUnitRule = Field(
        default=DistanceUnitRule.model_construct(
            value="miles",
            decided="The editions bundled here count in miles (winning-moves.txt §1 'Mille Bornes means "
            "1000 milestones'); a ruleset may name another unit (km) for display: the numbers on the cards "
            "and the targets are what the rules use.",
        ),
        description="The unit distances are shown in (miles, km, ...): display only; the rules use the "
        "numbers on the cards and the targets.",
    )

    battle_pile: OneLine
    speed_pile: OneLine
    distance_pile: OneLine
    safety_area: OneLine
    discard_pile: OneLine
    draw_pile: OneLine


# ----------------------------------------------------------------------------
# The turn and its draws (issue 35: house rules of the draw; the engine's turn room reads these)


class TurnOrderRule(Rule):
    """The order of a turn: draw then play (the books), or play then draw."""

    value: Literal["draw_then_play", "play_then_draw"]


class ReshufflesRule(Rule):
    """How many times a hand the discard pile may be shuffled into a new draw pile (0: never)."""

    value: Annotated[int, Field(ge=0, le=100)]


class StallRule(Rule):
    """How many discards in a row, with nothing drawn from the draw pile and nothing played between them, end a hand."""

    value: Annotated[int, Field(ge=1, le=10_000)]


class PassOverRule(Rule):
    """How many cards a draw may pass over to find one its drawer does not hold (0: none)."""

    value: Annotated[int, Field(ge=0, le=1000)]


_BOOK_DRAW = (
    "winning-moves.txt §5 'He draws a card from the draw pile and places it in his hand. He then must play one card'"
)


class TurnRules(Strict):
    """How a turn draws: its order, where a card may be drawn from, and what happens when the draw pile is out.

    Every field defaults to the books' turn, so a ruleset that names none plays as the editions do."""

    order: TurnOrderRule = Field(
        default=TurnOrderRule.model_construct(value="draw_then_play", source=_BOOK_DRAW),
        description="draw_then_play: a turn draws one card, then plays or discards one; play_then_draw: it "
        "plays or discards first, then draws (the hand holds hand_size cards when the player chooses).",
    )
    reshuffles: ReshufflesRule = Field(
        default=ReshufflesRule.model_construct(
            value=0,
            source="winning-moves.txt §5D 'Cards once discarded are out of play for the balance of the "
            "hand'; §6C: once the draw pile is exhausted, players play out or discard the cards in their hands",
        ),
        description="How many times a hand the whole discard pile is shuffled into a new draw pile when a draw "
        "finds the draw pile empty (0: never, the books). After the last one the draw pile runs out as usual.",
    )
    draw_from_discard: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False, source="winning-moves.txt §5D: 'other players may not pick them up on their turn'"
        ),
        description="At the draw a player may take the top card of the discard pile instead of the draw "
        "pile's (every seat sees which).",
    )
    discard_draw_must_play: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §5D: 'other players may not pick them up on "
            "their turn' (the books have no draw from the discard pile)",
        ),
        description="A turn that takes the discard pile's top card must put a card on a tableau (a distance, "
        "hazard, remedy or safety), never end in a discard: draw then play, the top may be taken only when the "
        "taker could then play a card, and that turn may not discard; play then draw, only after the turn "
        "played a card. Every hand then ends: each turn draws from the draw pile or plays a card for good.",
    )
    stall_discards: StallRule = Field(
        default=StallRule.model_construct(
            value=30,
            decided="Ruling (the stall rule; docs/conformance.md, rulings of the options): no source ends a hand "
            "whose players only take the discard pile's top and discard again (draw_from_discard, racecard, the "
            "OCaml game). So a hand ends, scored as one that ran out of cards, after this many discards in a row "
            "with no card drawn from the draw pile and none played onto a tableau between them. Without "
            "draw_from_discard no hand comes near it: each such discard leaves a hand a card smaller",
        ),
        description="A hand ends (scored as if the cards ran out) after this many discards in a row with no card "
        "drawn from the draw pile and none played onto a tableau between them: it keeps every hand finite "
        "(a discard-pile draw followed by a discard, again and again).",
    )
    mulligan: BoolRule = Field(
        default=BoolRule.model_construct(value=False, source=_BOOK_DRAW),
        description="Instead of a turn, a player may discard any number of cards (at least one) and draw back "
        "to hand_size; the turn then passes.",
    )
    refill_empty_hand: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §5: a turn draws one card; §6C: once the draw "
            "pile is out, players play out the cards in their hands",
        ),
        description="A player whose turn comes with an empty hand first draws hand_size cards (as far as the "
        "draw pile, and the reshuffles allowed, go), then takes the turn as usual.",
    )
    refill_reshuffles: ReshufflesRule = Field(
        default=ReshufflesRule.model_construct(
            value=0, source="winning-moves.txt §5D 'Cards once discarded are out of play for the balance of the hand'"
        ),
        description="How many reshuffles a hand allows for a refill (refill_empty_hand) when the draw pile is "
        "out, counting every reshuffle of the hand: a refill may reshuffle while fewer than the larger of this "
        "and reshuffles have been made; other draws only while fewer than reshuffles.",
    )
    draw_pile_out_ends_hand: BoolRule = Field(
        default=BoolRule.model_construct(
            value=False,
            source="winning-moves.txt §6C: once the draw pile is exhausted, players play out the cards in their hands",
        ),
        description="The hand ends as soon as a turn would begin with nothing left to draw (the draw pile "
        "out and no reshuffle allowed): the player who drew the last card plays that turn, nobody plays "
        "out the cards in hand.",
    )
    pass_over_held: PassOverRule = Field(
        default=PassOverRule.model_construct(value=0, source=_BOOK_DRAW + " (the top card, whatever it is)"),
        description="A draw passes over up to this many cards that the drawer already holds a copy of, taking "
        "the first it does not hold (the cards passed over stay in order); when every card it may look at is "
        "held, it takes the top card. 0: a draw takes the top card.",
    )


# ----------------------------------------------------------------------------
# The ruleset

# A section a file leaves out is its defaults, made as the rule defaults above are (model_construct: no
# validator is built for the section's class when a ruleset is read; tests/test_schema_valid.py checks
# each equals what validation makes, with no field set).


def _fast_play_rules_default() -> FastPlayRules:
    return FastPlayRules.model_construct()


def _karma_rules_default() -> KarmaRules:
    return KarmaRules.model_construct()


def _turn_rules_default() -> TurnRules:
    return TurnRules.model_construct()


class Ruleset(Strict):
    """A complete, resolved ruleset (after ``extends`` and ``options``)."""

    id: Annotated[str, Field(pattern=RULESET_ID_PATTERN, max_length=64)]
    name: OneLine
    description: OneLine | None = Field(default=None, description="One line: what this ruleset is.")
    source: Citation | None = Field(default=None, description="The rulebook(s) this ruleset follows.")
    box: Box
    cards: dict[CardId, Card]
    player_counts: dict[Annotated[str, Field(pattern=r"^[1-9][0-9]?$")], PlayerCount] = Field(
        description="Player count ('1' with option solo, '2', '3', '4', '6') -> sides, target, extension and where "
        "hazards go. In a file, the key '*' "
        "patches every player count (e.g. '\"*\": {extension_to: 1200, decided: ...}')."
    )
    removals: dict[Annotated[str, Field(pattern=r"^[1-9][0-9]?$")], Removal] = Field(
        default_factory=dict,
        description="Player count -> cards removed before the deal; a count not listed removes nothing.",
    )
    play: PlayRules
    coup_fourre: CoupFourreRules
    fast_play: FastPlayRules = Field(
        default_factory=_fast_play_rules_default,
        description="Out-of-turn remedies (issue 35: option fast-play-remedy).",
    )
    scoring: ScoringRules
    match: MatchRules
    display: Display
    karma: KarmaRules = Field(
        default_factory=_karma_rules_default,
        description="Per-side karma and the cards that restore it (issue 43: option karma); off in every edition.",
    )
    turn: TurnRules = Field(
        default_factory=_turn_rules_default,
        description="How a turn draws (order, draw sources, reshuffles, mulligan, refills); the defaults are the books'.",
    )
    applied_options: tuple[str, ...] = Field(
        default=(), description="Filled in by the loader: the options applied, in order."
    )

    def cards_of_kind(self, kind: str) -> list[str]:
        return [cid for cid, c in self.cards.items() if c.kind == kind]

    def deck_for(self, players: int) -> dict[str, int]:
        """Card id -> copies in the deck for this many players (after removals)."""
        removal = self.removals.get(str(players))
        removed = removal.cards if removal else {}
        return {cid: c.count - removed.get(cid, 0) for cid, c in self.cards.items()}


# ----------------------------------------------------------------------------
# Option groups: options of one group cannot go together (Ludii-style option categories).

GroupId = Annotated[str, Field(pattern=RULESET_ID_PATTERN, max_length=64)]


class OptionGroupRule(Rule):
    """An option file only: the exclusive group (or groups) it belongs to, e.g. game-mode, with why.

    Two options of one group cannot be applied together (they set the same rules differently):
    the loader refuses the second, naming both."""

    value: GroupId | Annotated[tuple[GroupId, ...], Field(min_length=1, max_length=8)]


# A JSON Schema (or a part of one) as pydantic writes it and this module edits it.
JsonSchema: TypeAlias = dict[str, Any]


def option_category_schema() -> JsonSchema:
    """The JSON Schema of an option file's ``category``: one of :data:`OPTION_CATEGORIES`."""
    return {
        "enum": list(OPTION_CATEGORIES),
        "description": "An option file only: where 'mbrules rulesets' lists it: "
        + "; ".join(f"{k} ({v})" for k, v in OPTION_CATEGORIES.items())
        + ". Not a rule: it changes no game.",
        "title": "Category",
    }


def option_groups_schema() -> JsonSchema:
    """The JSON Schema of an option file's ``group``: ``{value: ID or [IDs], source|decided}``."""
    skip_empty_plugin_lookup()
    schema: JsonSchema = _file_schema_node(TypeAdapter(OptionGroupRule).json_schema(mode="validation"))
    schema["title"] = "Group"
    return schema


# ----------------------------------------------------------------------------
# The file schema: what one YAML file may say (everything optional but id).

# A citation is one of source or decided, never both (an object without either, in a user's file,
# is uncited: the loader records where it was written and 'mbrules show' marks it).
CITATION_NOT_BOTH = {"required": ["source", "decided"]}
COUNT_KEY_PATTERNS = ("^[1-9][0-9]?$", r"^\*$")  # a player count, or '*': every player count
CARD_KINDS = ("distance", "hazard", "remedy", "safety", "karma")


def _is_cited_object(node: JsonSchema) -> bool:
    props = node.get("properties", {})
    return "source" in props and "decided" in props


def _file_schema_node(node: Any) -> Any:
    """Make a model schema (any JSON value in it, walked through) fit one file: everything optional, any field patched alone.

    A file changes only what it names, so objects lose 'required' (a rule value keeps its
    'value'); an object may give source or decided (not both) or neither (then it is uncited);
    a rule may be written as a plain value ('hazard_on_hazard: true', uncited). Completeness
    is checked on the resolved ruleset.
    """
    if isinstance(node, list):
        return [_file_schema_node(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _file_schema_node(v) for k, v in node.items() if k != "required"}
    if "patternProperties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False  # a key that does not match the id pattern is an error
    if _is_cited_object(node):
        out["properties"].pop("uncited", None)  # the loader's, never a file's
        out["type"] = "object"
        out["not"] = copy.deepcopy(CITATION_NOT_BOTH)
        if "value" in node.get("properties", {}):
            out["required"] = ["value"]
            plain = copy.deepcopy(out["properties"]["value"])
            plain.pop("title", None)
            rule = {k: v for k, v in out.items() if k not in ("description", "title")}
            return {"title": out.get("title"), "description": out.get("description", ""), "anyOf": [rule, plain]}
    return out


def _card_entry_schema(defs: JsonSchema) -> JsonSchema:
    """A card in a file: chosen by its kind (errors name that kind's keys), a patch of an
    inherited card without kind (any card key), or null (remove the inherited card)."""
    refs = {kind: f"#/$defs/{kind.capitalize()}Card" for kind in CARD_KINDS}
    all_props: JsonSchema = {}
    for kind in CARD_KINDS:
        all_props.update(defs[f"{kind.capitalize()}Card"]["properties"])
    branches = [
        {"if": {"type": "object", "required": ["kind"], "properties": {"kind": {"const": kind}}}, "then": {"$ref": ref}}
        for kind, ref in refs.items()
    ]
    branches.append(
        {
            "if": {"type": "object", "not": {"required": ["kind"]}},
            "then": {"properties": all_props, "additionalProperties": False, "not": copy.deepcopy(CITATION_NOT_BOTH)},
        }
    )
    return {
        "description": "A card: a new one gives kind, name, count and what its kind needs; an inherited one "
        "may be patched field by field; null removes it.",
        "type": ["object", "null"],
        "properties": {"kind": {"enum": list(CARD_KINDS)}},
        "allOf": branches,
    }


def file_json_schema() -> JsonSchema:
    """JSON Schema (2020-12) for one ruleset or option file, generated from :class:`Ruleset`.

    Sections are optional (a file that ``extends`` another, or an option, changes only
    what it names); completeness is checked on the resolved ruleset.
    """
    skip_empty_plugin_lookup()
    schema: JsonSchema = _file_schema_node(Ruleset.model_json_schema(mode="validation"))
    defs = schema["$defs"]
    props = schema["properties"]
    props.pop("applied_options", None)
    card_pattern = next(iter(props["cards"]["patternProperties"]))
    props["cards"]["patternProperties"][card_pattern] = _card_entry_schema(defs)
    refcard = defs["Box"]["properties"]["reference_cards"]["patternProperties"]
    refcard[card_pattern] = {"anyOf": [refcard[card_pattern], {"type": "null"}]}
    removal_cards = defs["Removal"]["properties"]["cards"]["patternProperties"]
    removal_cards[card_pattern] = {"anyOf": [removal_cards[card_pattern], {"type": "null"}]}
    rcards = defs["Removal"]["properties"]["cards"]  # 'cards: null': no cards removed, the entry keeps its citation
    defs["Removal"]["properties"]["cards"] = {
        "anyOf": [rcards, {"type": "null"}],
        "description": rcards.get("description", ""),
    }
    lines = defs["ScoringRules"]["properties"]["lines"]["patternProperties"]
    for pat, entry in list(lines.items()):
        lines[pat] = {"anyOf": [entry, {"type": "null"}]}  # null removes an inherited score line
    for section in ("player_counts", "removals"):
        ref = next(iter(props[section]["patternProperties"].values()))
        entry = ref if section == "player_counts" else {"anyOf": [ref, {"type": "null"}]}
        props[section]["patternProperties"] = {p: copy.deepcopy(entry) for p in COUNT_KEY_PATTERNS}
    props["remove"] = {
        "type": "array",
        "items": {"type": "string", "pattern": card_pattern, "maxLength": 64},
        "maxItems": 255,
        "description": "Card ids to take out of the inherited ruleset (the same as 'cards: {ID: null}').",
        "title": "Remove",
    }
    props["kind"] = {
        "enum": ["ruleset", "option"],
        "default": "ruleset",
        "description": "ruleset (an edition or a custom ruleset) or option (a small named patch).",
        "title": "Kind",
    }
    props["extends"] = {
        "type": "string",
        "minLength": 1,
        "maxLength": 300,
        "description": "A bundled ruleset id or a path relative to this file: this file changes only what it names.",
        "title": "Extends",
    }
    props["group"] = option_groups_schema()
    props["category"] = option_category_schema()
    props["options"] = {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 300},
        "maxItems": 50,
        "description": "Option ids or paths, applied in order after this file.",
        "title": "Options",
    }
    schema["required"] = ["id"]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://mbrules.example/schemas/ruleset.schema.json"
    schema["title"] = "mbrules ruleset or option file"
    schema["description"] = (
        "A Mille Bornes ruleset (an edition, or a custom ruleset that extends one) or an option "
        "(a named patch). Generated from mbrules.ruleset.model.Ruleset; do not edit by hand."
    )
    return schema


def schema_text() -> str:
    """The file schema as checked in at ``schemas/ruleset.schema.json`` (``make schemas`` writes it)."""
    return json.dumps(file_json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
