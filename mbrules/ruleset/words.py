"""Rules in words: the phrase for every field of the ruleset model, and values as players say them.

Used by ``mbrules show`` and ``mbrules diff``. Paths use ``*`` for a key of a mapping
(a card id, a player count). A field without a phrase here falls back to its description in the
model, so nothing is ever skipped; ``tests/test_ruleset_cmds.py`` checks every field has a phrase.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, get_args

from pydantic import BaseModel

from ..vocab import SCORE_LINE_WORDS, SCORE_LINES, LineWords
from .diagnostics import DataPath
from .model import Ruleset
from .pydantic_plugins import skip_empty_plugin_lookup

# Fields that are not rules: where a value comes from (every rule value carries one).
CITATION_FIELDS = ("source", "decided", "uncited")
# The root's own fields: shown as the header of show and diff, not as rule changes.
HEADER_FIELDS = ("id", "name", "description", "source", "applied_options")

PHRASES: dict[str, str] = {
    "box.total": "cards in the box",
    "box.reference_cards.*": "reference card {key} (never dealt)",
    "box.reference_cards.*.name": "reference card {key} is called",
    "box.reference_cards.*.count": "reference card {key}: copies in the box",
    "cards.*": "card {card}",
    "cards.*.kind": "{card}: kind of card",
    "cards.*.name": "{card} is called",
    "cards.*.count": "{card}: copies in the deck",
    "cards.*.miles": "{card}: miles",
    "cards.*.max_per_hand": "{card}: most one side may play in a hand",
    "cards.*.pile": "{card}: played on the",
    "cards.*.limit": "{card}: highest distance card allowed while it shows",
    "cards.*.fixes": "{card} fixes",
    "cards.*.go": "{card} is a go card (its side rolls while it shows)",
    "cards.*.protects": "{card} protects against",
    "cards.*.rolling": "{card} lets its side roll without a go card",
    "cards.*.restarts": "{card} also sets its side rolling (no go card after it)",
    "player_counts.*": "{key} players",
    "player_counts.*.sides": "{key} players: sides",
    "player_counts.*.target": "{key} players: trip length",
    "player_counts.*.extension_to": "{key} players: extension",
    "player_counts.*.hazards_on": "{key} players: where a player's hazards go",
    "removals.*": "{key} players: cards removed before the deal",
    "removals.*.cards": "{key} players: cards removed before the deal",
    "play.hand_size": "cards dealt to each player",
    "play.hazard_on_hazard": "a hazard may cover another hazard",
    "play.hazard_needs_rolling": "a battle hazard may only hit a side that is rolling",
    "play.speed_limit_stacking": "a speed limit may be played on a side already limited",
    "play.voluntary_discard": "a player may discard while holding a playable card",
    "play.safety_discards_hazard": "a safety played normally sends the hazard it protects against to the discard pile",
    "play.roll_after_safety": "a Roll must follow a safety that corrects a hazard",
    "play.safety_extra_turn": "a safety gives its player another turn",
    "play.safety_extra_turn_needs_draw_pile": "a safety's extra turn only while the draw pile lasts",
    "play.go_with_rolling_safety": "a go card may be played while the side's rolling safety is down",
    "play.undiscardable": "cards that may never be discarded",
    "play.discard_playable": "a card that could be played may be discarded",
    "play.stacked_hazards": "battle hazards stack, each fixed by its own remedy in any order",
    "play.overshoot": "a trip is completed by reaching or passing the target",
    "play.safety_distance": "a safety also adds to its side's distance",
    "coup_fourre.enabled": "coup fourré",
    "coup_fourre.who": "who may call a coup fourré",
    "coup_fourre.replacement_draw": "the coup fourré caller draws a card at once",
    "coup_fourre.extra_turn": "the coup fourré caller then takes a turn (players in between lose theirs)",
    "coup_fourre.bonus_turn": "the coup fourré caller's extra turn comes",
    "fast_play.enabled": "a remedy may answer a hazard out of turn (fast play)",
    "fast_play.replacement_draw": "the fast player draws a card at once",
    "scoring.enabled": "points are scored",
    "scoring.milestones_per_mile": "points per mile",
    "scoring.milestones_up_to_target": "miles scored only up to the trip's target",
    "scoring.safety": "points per safety played",
    "scoring.all_safeties": "bonus for playing every safety",
    "scoring.coup_fourre": "points per coup fourré, beside its safety's own",
    "scoring.trip_completed": "bonus for completing the trip",
    "scoring.delayed_action": "delayed action bonus (trip completed after the draw pile ran out)",
    "scoring.safe_trip": "safe trip bonus",
    "scoring.safe_trip_breakers": "cards that lose the safe trip bonus",
    "scoring.shutout": "shutout bonus points",
    "scoring.shutout_per_opponent": "shutout bonus",
    "scoring.extension": "extension bonus points",
    "scoring.extension_bonus_to": "extension bonus goes to",
    "scoring.lines": "score lines given as data",
    "scoring.lines.*": "score line {key}",
    "scoring.lines.*.points": "score line {key}: points",
    "scoring.lines.*.when": "score line {key}: when",
    "scoring.lines.*.to": "score line {key}: scored by",
    "scoring.lines.*.to_when": "score line {key}: an opposing side scores when",
    "scoring.lines.*.per": "score line {key}: paid per",
    "scoring.lines.*.per_when": "score line {key}: an opposing side is counted when",
    "scoring.lines.*.up_to_target": "score line {key}: miles counted only up to the trip's target",
    "scoring.lines.*.line": "score line {key}: shown on the sheet's line",
    "scoring.lines.*.exclusive": "score line {key}: one of the alternatives",
    "scoring.lines.*.label": "score line {key}: its words on the sheet",
    "match.mode": "the match",
    "match.target_points": "points that end the match",
    "match.deal_passes_left": "the deal passes to the left after each hand",
    "match.max_hands": "most hands in a match (then it stops unfinished)",
    "match.hands": "hands in a match of a fixed number of hands",
    "match.tie_break": "equal highest results",
    "display.distance_unit": "distances are counted in",
    "display.battle_pile": "the battle pile is called",
    "display.speed_pile": "the speed pile is called",
    "display.distance_pile": "the distance pile is called",
    "display.safety_area": "the safety area is called",
    "display.discard_pile": "the discard pile is called",
    "display.draw_pile": "the draw pile is called",
    # the turn and its draws
    "turn.order": "a turn is",
    "turn.reshuffles": "discard pile shuffled into a new draw pile",
    "turn.draw_from_discard": "a player may draw the discard pile's top card",
    "turn.discard_draw_must_play": "a turn taking the discard pile's top must play a card, not discard",
    "turn.mulligan": "mulligan (instead of a turn, discard cards, draw back)",
    "turn.refill_empty_hand": "an empty hand first draws a full hand",
    "turn.pass_over_held": "cards a draw passes over that its drawer holds",
    "turn.refill_reshuffles": "reshuffles a hand allows to refill an empty hand",
    "turn.stall_discards": "discards in a row with no progress that end a hand (the stall rule)",
    "play.safety_replacement_draw": "a safety played in turn is replaced at once, its extra turn a play",
    "turn.draw_pile_out_ends_hand": "the hand ends when nothing is left to draw",
    # karma (issue 43: option karma)
    "karma.enabled": "karma: an attack between two sides with karma is neutralised, a side without karma "
    "attacks only sides without, an attacker with karma loses it",
    "box.added_cards": "cards a variant adds to the deck, not counted in the box",
}

# A score line's condition keys (the model's SideCondition, LineCondition): one phrase per place it appears.
_CONDITION_PHRASES = {
    "trip_completed": "{who} completed the trip",
    "no_distance": "{who} played no distance",
    "hand_empty": "{who}'s hands are empty",
    "safeties": "safeties {who} played",
    "none_played": "cards {who} played none of",
    "exact_finish": "{who} landed exactly on the target",
    "all_safeties": "{who} played every safety of the deck",
    "delayed_action": "{who} completed the trip after the draw pile ran out",
    "called_extension": "{who} called the extension",
    "extended": "the trip was extended",
    "played.at_least": "the fewest copies {who} played",
    "played.at_most": "the most copies {who} played",
    "ended_empty_handed": "{who} took the hand's last action, holding no card",
}
_WHERE = (
    ("when", "the side"),
    ("to_when", "the scoring side"),
    ("per_when", "the counted side"),
    ("when.every_opponent", "every opposing side"),
    ("to_when.every_opponent", "every other side of the scoring side"),
)
for _where, _who in _WHERE:
    for _key, _text in _CONDITION_PHRASES.items():
        PHRASES[f"scoring.lines.*.{_where}.{_key}"] = "score line {key}: " + _text.replace("{who}", _who)
        PHRASES[f"scoring.lines.*.{_where}.unless.{_key}"] = "score line {key}: not: " + _text.replace("{who}", _who)
for _where in ("when", "to_when"):
    PHRASES[f"scoring.lines.*.{_where}.every_opponent"] = "score line {key}: every opposing side shows"

VALUE_WORDS: dict[str, dict[Any, str]] = {
    "scoring.shutout_per_opponent": {False: "once", True: "for each opposing side with no distance"},
    "coup_fourre.who": {"target_side": "a player of the side attacked", "any_player": "any player holding the safety"},
    "coup_fourre.enabled": {True: "allowed", False: "not played"},
    "scoring.extension_bonus_to": {
        "caller_or_opponents": "the caller if its side completes the extended trip, else each opposing side",
        "finisher": "the side that completes the extended trip",
    },
    "match.mode": {
        "points": "hands until a side reaches the points that end the match; highest total wins",
        "single_hand": "one hand; the side with the most points wins",
        "trip": "one hand, no points; the first side to complete the trip wins, else the side that went furthest",
        "fixed_hands": "a fixed number of hands (match.hands); highest total wins",
        "finisher": "one hand; the side that completes the trip wins, else the side with the most points",
    },
    "match.tie_break": {
        "draw": "a draw",
        "first_seat": "the tied side nearest the first seat wins (side A first)",
        "another_hand": "another hand is played, then the match is judged again",
    },
    "coup_fourre.bonus_turn": {
        "at_once": "at once (players between attacker and caller lose their turns)",
        "queued": "after the turn in progress, the window outliving the attacker's turn (none if that turn is the caller's; play goes on from the caller's left)",
    },
    "scoring.lines.*.to": {"side": "the side meeting the condition", "each_opponent": "each opposing side"},
    "scoring.lines.*.per": {
        None: "once",
        "mile": "mile of the side's distance",
        "safety": "safety the side played",
        "coup_fourre": "coup fourré the side made",
        "opponent": "opposing side counted",
    },
    "cards.*.pile": {"battle": "battle pile", "speed": "speed pile"},
    "cards.*.max_per_hand": {None: "no limit"},
    "cards.*.limit": {None: "none"},
    "play.overshoot": {False: "no: distance may never pass the target", True: "yes"},
    "play.safety_distance": {0: "no"},
    "player_counts.*.extension_to": {None: "none"},
    "turn.order": {"draw_then_play": "draw, then play or discard", "play_then_draw": "play or discard, then draw"},
    "turn.reshuffles": {0: "never"},
    "turn.pass_over_held": {0: "none"},
}


def pattern_of(path: DataPath, star_depths: set[int]) -> str:
    return ".".join("*" if i in star_depths else str(p) for i, p in enumerate(path))


def pretty_id(cid: str) -> str:
    text = cid.replace("_", " ").replace("-", " ")
    return text[:1].upper() + text[1:]


def field_description(pattern: str) -> str | None:
    """The model's description of the field at ``pattern`` (the fallback phrase)."""
    model: Any = Ruleset
    parts = pattern.split(".")
    desc = None
    for part in parts:
        if part == "*":
            continue
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return desc
        info = model.model_fields.get(part)
        if info is None:
            return desc
        desc = info.description or desc
        model = _inner_model(info.annotation)
    return desc


def _inner_model(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _inner_model(arg)
        if found is not None:
            return found
    return None


def phrase(pattern: str, key: str = "", card: str = "") -> str:
    text = PHRASES.get(pattern)
    if text is None:
        desc = field_description(pattern)
        text = desc.rstrip(".") if desc else pattern.rsplit(".", 1)[-1].replace("_", " ")
        if key:
            text = f"{key}: {text}"
    return text.format(key=key, card=card)


def yes_no(value: bool) -> str:
    return "yes" if value else "no"


def card_names(rs: Ruleset, ids: Sequence[str]) -> str:
    if not ids:
        return "none"
    return ", ".join(rs.cards[c].name if c in rs.cards else c for c in ids)


def removed_words(rs: Ruleset, removed: dict[str, int] | None) -> str:
    if not removed:
        return "none"
    return ", ".join(f"{n} {rs.cards[c].name if c in rs.cards else c}" for c, n in removed.items())


def condition_words(cond: Any, rs: Ruleset, who: str = "the side") -> str:
    """A score line's condition (a LineCondition or its JSON) in words: 'the side completed the trip and ...'."""
    skip_empty_plugin_lookup()  # before pydantic makes a serializer
    c = cond.model_dump() if isinstance(cond, BaseModel) else dict(cond or {})
    bits = []
    if c.get("trip_completed") is not None:
        bits.append(f"{who} {'completed' if c['trip_completed'] else 'did not complete'} the trip")
    if c.get("no_distance") is not None:
        bits.append(f"{who} played {'no' if c['no_distance'] else 'some'} distance")
    if c.get("hand_empty") is not None:
        bits.append(f"{who} {'holds no card' if c['hand_empty'] else 'still holds cards'} at the end")
    if c.get("safeties") is not None:
        n = c["safeties"]
        bits.append(f"{who} played exactly {n} safet{'y' if n == 1 else 'ies'}")
    if c.get("none_played") is not None:
        cards = c["none_played"]
        bits.append(f"{who} played {'no' if len(cards) == 1 else 'none of'} {card_names(rs, cards)}")
    if c.get("played") is not None:
        for cid, n in c["played"].items():
            lo, hi = n.get("at_least", 0), n.get("at_most")
            span = f"{lo} to {hi}" if hi is not None and hi != lo else (f"{lo}" if hi == lo else f"at least {lo}")
            bits.append(f"{who} played {span} {card_names(rs, (cid,))}")
    if c.get("ended_empty_handed") is not None:
        bits.append(
            f"{who} {'took' if c['ended_empty_handed'] else 'did not take'} the hand's last action, holding no card"
        )
    if c.get("unless") is not None:
        bits.append(f"not ({condition_words(c['unless'], rs, who)})")
    if c.get("exact_finish") is not None:
        bits.append(f"{who} {'landed exactly on' if c['exact_finish'] else 'did not land exactly on'} the target")
    if c.get("all_safeties") is not None:
        bits.append(f"{who} played {'every' if c['all_safeties'] else 'not every'} safety of the deck")
    if c.get("delayed_action") is not None:
        bits.append(
            f"{who} {'completed' if c['delayed_action'] else 'did not complete'} the trip after the draw pile ran out"
        )
    if c.get("called_extension") is not None:
        bits.append(f"{who} {'called' if c['called_extension'] else 'did not call'} the extension")
    if c.get("extended") is not None:
        bits.append(f"the trip {'was' if c['extended'] else 'was not'} extended")
    if c.get("every_opponent") is not None:
        bits.append(condition_words(c["every_opponent"], rs, "every opposing side"))
    return " and ".join(bits) or "always"


def score_line_words(rs: Ruleset) -> dict[str, LineWords]:
    """Every line of ``rs``'s score sheet in words (:class:`mbrules.vocab.LineWords`), in the sheet's order:
    the contract's lines in theirs, a ruleset's own line (``scoring.lines``) in its first entry's ``label``
    (from its id when none gives one). The one place sheet, compare, sweep and the narrator read them."""
    labels: dict[str, str | None] = {}
    for name, entry in rs.scoring.lines.items():
        sheet = entry.line or name
        if sheet not in SCORE_LINE_WORDS and labels.get(sheet) is None:
            labels[sheet] = entry.label
    own = {k: LineWords.of(v) if v else LineWords.of_id(k) for k, v in labels.items()}
    return {**{k: SCORE_LINE_WORDS[k] for k in SCORE_LINES[:-1]}, **own, "total": SCORE_LINE_WORDS["total"]}


def line_words(name: str, line: Any, rs: Ruleset) -> str:
    """One score line in words: '500 to each opposing side that played some distance, for each side that ...'."""
    if line is None:
        return "none"
    skip_empty_plugin_lookup()
    d = line.model_dump() if isinstance(line, BaseModel) else dict(line)
    points = f"{d.get('points')}"
    per = d.get("per")
    if per == "opponent":
        per_when = d.get("per_when")
        points += " for each opposing side" + (f" where {condition_words(per_when, rs, 'it')}" if per_when else "")
    elif per is not None:
        points += {"mile": " a mile", "safety": " a safety", "coup_fourre": " a coup fourré"}[per]
        if per == "mile" and d.get("up_to_target"):
            points += " up to the trip's target"
    on = f" (on the line {d['line']})" if d.get("line") and d["line"] != name else ""
    if d.get("exclusive"):
        on += f" (one of the alternatives {d['exclusive']}: the first that holds is paid)"
    if d.get("to") == "each_opponent":
        to_when = d.get("to_when")
        who = "each opposing side" + (f" (when {condition_words(to_when, rs, 'it')})" if to_when else "")
        return f"{points} to {who}, for each side where {condition_words(d.get('when'), rs)}{on}"
    when = condition_words(d.get("when"), rs)
    return f"{points} to each side" + ("" if when == "always" else f" where {when}") + on


def value_words(pattern: str, value: Any, rs: Ruleset) -> str:
    if pattern == "scoring.lines":
        return "; ".join(f"{k}: {line_words(k, v, rs)}" for k, v in (value or {}).items()) or "none"
    if pattern == "scoring.lines.*":
        return line_words("", value, rs)
    if pattern in ("scoring.lines.*.when", "scoring.lines.*.to_when"):
        return condition_words(value, rs) if value is not None else "none"
    table = VALUE_WORDS.get(pattern)
    if table is not None and _hashable(value) and value in table:
        return table[value]
    if pattern in ("cards.*.fixes", "cards.*.protects", "scoring.safe_trip_breakers"):
        return card_names(rs, value)
    if pattern in ("removals.*", "removals.*.cards"):
        return removed_words(rs, value)
    if pattern == "player_counts.*.extension_to":
        return f"to {value} {unit(rs)}"
    if pattern == "player_counts.*.target":
        return f"{value} {unit(rs)}"
    if pattern == "play.safety_distance":
        return f"{value} {unit(rs)}, unless that would pass the target"
    if pattern == "play.undiscardable":
        return ", ".join(f"{k} cards" for k in value) or "none (any card may be discarded)"
    if isinstance(value, bool):
        return yes_no(value)
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items()) or "none"
    return str(value)


def unit(rs: Ruleset) -> str:
    """The ruleset's distance unit for display (display.distance_unit: miles, km, ...)."""
    return rs.display.distance_unit.value


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def card_summary(rs: Ruleset, cid: str) -> str:
    """One card in words: '14 × Roll! (roll): fixes Stop!; go card'."""
    c = rs.cards[cid]
    bits = []
    if c.kind == "distance":
        bits.append(f"{c.miles} {unit(rs)}")
        if c.max_per_hand is not None:
            bits.append(f"at most {c.max_per_hand} per side per hand")
    elif c.kind == "hazard":
        bits.append(f"on the {c.pile} pile")
        if c.limit is not None:
            bits.append(f"limits distance cards to {c.limit}")
    elif c.kind == "remedy":
        bits.append(f"fixes {card_names(rs, c.fixes)}")
        if c.go:
            bits.append("go card: its side rolls while it shows")
        if c.restarts:
            bits.append("sets its side rolling once it fixes a hazard (no go card after it)")
    elif c.kind == "safety":
        bits.append(f"protects against {card_names(rs, c.protects)}")
        if c.rolling:
            bits.append("its side rolls without a go card")
    elif c.kind == "karma":
        bits.append("gives its side back the karma it lost")
    return f"{c.count} × {c.name} ({cid}): " + "; ".join(bits)


def side_letter(i: int) -> str:
    return chr(ord("A") + i)


def sides_for(players: int, sides: int) -> dict[str, list[str]]:
    """Side letter -> players (p(i) plays for side (i-1) mod sides), contract: Players and sides."""
    out: dict[str, list[str]] = {side_letter(s): [] for s in range(sides)}
    for i in range(1, players + 1):
        out[side_letter((i - 1) % sides)].append(f"p{i}")
    return out
