"""The key reference of ruleset files (``docs/ruleset-reference.md``), generated from the model.

Every key a ruleset or option file may write: its type, default, meaning (the model's description)
and an example taken from the bundled ``winning-moves`` where it has the key. Regenerate with
``make schemas`` (or ``python -m mbrules.ruleset.reference > docs/ruleset-reference.md``);
``tests/authoring/test_reference_doc.py`` fails when the checked-in file is not current.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, get_args, get_origin

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from .files import REFERENCE_RULESET
from .pydantic_plugins import skip_empty_plugin_lookup
from .model import DistanceCard, HazardCard, KarmaCard, RemedyCard, Rule, Ruleset, SafetyCard

FILE_KEYS = [
    (
        "kind",
        "`ruleset` or `option`",
        "`ruleset`",
        "What the file is: a ruleset (an edition or your own) or an option (a small named patch).",
        "kind: option",
    ),
    (
        "extends",
        "text",
        "none",
        "A bundled ruleset id or a path relative to this file: this file then names only what it changes.",
        "extends: winning-moves",
    ),
    (
        "options",
        "list of text",
        "none",
        "Options (bundled ids or paths) laid under this file's own values, in order.",
        "options: [hazard-on-hazard]",
    ),
    (
        "group",
        "id or list of ids, with `source` or `decided`",
        "none",
        "Option files only: the exclusive group(s) it belongs to; two options of one group cannot go together.",
        "group: {value: game-mode, decided: \"...\"}",
    ),
    (
        "category",
        "one of turn, piles, legality, scoring, tables, modes",
        "none",
        "Option files only: where `mbrules rulesets` lists the option (what part of the game it changes); "
        "not a rule, it changes no game.",
        "category: legality",
    ),
    (
        "remove",
        "list of card ids",
        "none",
        "Cards taken out of the inherited ruleset (the same as `cards: {ID: null}`).",
        "remove: [out_of_gas]",
    ),
]


SECTION_WORDS = {
    "id": "the ruleset's id: lowercase words joined by '-'; not inherited",
    "name": "the ruleset's name, one line; not inherited",
    "box": "the box: its card total and the cards never dealt",
    "cards": "the deck: card id -> card (null in a file removes an inherited card)",
    "play": "how a turn is played",
    "coup_fourre": "the coup fourré",
    "scoring": "the score lines of a hand",
    "match": "how a match is played and won",
    "display": "names an edition gives to its piles, and its distance unit",
    "turn": "how a turn draws: its order, draw sources, reshuffles, mulligan and refills (defaults: the books')",
    "box.reference_cards.*.name": "the reference card's name",
    "box.reference_cards.*.count": "copies in the box",
    "cards.*.kind": "distance, hazard, remedy or safety",
    "cards.*.name": "the card's name as printed",
    "cards.*.count": "copies in the deck",
    "cards.*.miles": "the distance it adds (in the ruleset's distance unit)",
}


def _type_words(ann: Any) -> str:
    origin = get_origin(ann)
    if origin is typing.Annotated:
        return _type_words(get_args(ann)[0])
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in get_args(ann) if a is not type(None)]
        words = " or ".join(_type_words(a) for a in parts)
        return words + (" or null" if len(parts) < len(get_args(ann)) else "")
    if origin is Literal:
        return " or ".join(f"`{a}`" for a in get_args(ann))
    if origin is tuple:
        return f"list of {_type_words(get_args(ann)[0])}"
    if origin is dict:
        return f"mapping of {_type_words(get_args(ann)[1])}"
    if isinstance(ann, type) and issubclass(ann, Rule):
        inner = _type_words(ann.model_fields["value"].annotation)
        return f"rule: {inner}"
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return "mapping"
    return {bool: "true or false", int: "integer", str: "text"}.get(ann, getattr(ann, "__name__", str(ann)))


def _example(path: list[str]) -> str:
    from .loader import load_ruleset

    skip_empty_plugin_lookup()  # before pydantic makes the ruleset's serializer
    cur: Any = load_ruleset(REFERENCE_RULESET).model_dump(mode="json", exclude_none=True)
    for part in path:
        if part == "ID":
            if not isinstance(cur, dict) or not cur:
                return ""
            cur = next(iter(cur.values()))
        elif part == "N":
            if not isinstance(cur, dict) or not cur:
                return ""
            cur = cur[sorted(cur, key=int)[-1]]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return ""
    if isinstance(cur, dict):
        cur = {k: v for k, v in cur.items() if k not in ("source", "decided", "uncited")}
        if "value" in cur:
            cur = cur["value"]
    text = json.dumps(cur, ensure_ascii=False)
    return text if len(text) <= 80 else ""


def _rows(model: type[BaseModel], prefix: list[str]) -> list[tuple[str, str, str, str, str]]:
    rows = []
    for name, info in model.model_fields.items():
        if name == "applied_options" or (name in ("source", "decided", "uncited") and model is not Ruleset):
            continue  # a citation is described once, above
        ann = info.annotation
        path = [*prefix, name]
        default = (
            "required"
            if info.default is PydanticUndefined and info.default_factory is None
            else (
                "empty"
                if info.default_factory is not None
                else json.dumps(
                    info.default.value if isinstance(info.default, Rule) else info.default, ensure_ascii=False
                )
            )
        )
        desc = info.description or (ann.__doc__ if isinstance(ann, type) and issubclass(ann, Rule) else "") or ""
        desc = " ".join(desc.split())
        generic = isinstance(ann, type) and issubclass(ann, Rule) and desc == " ".join((ann.__doc__ or "").split())
        if not desc or generic:  # the phrase show and diff use for it
            from .words import PHRASES

            pattern = ".".join("*" if p in ("ID", "N") else p for p in path)
            words = PHRASES.get(pattern) or SECTION_WORDS.get(pattern, "")
            desc = words.format(key="N", card="ID")
            desc = desc[:1].upper() + desc[1:] + ("." if desc else "")
        typ = "mapping of cards, each chosen by its `kind` (below)" if path == ["cards"] else _type_words(ann)
        rows.append((".".join(path), typ, default, desc, _example(path)))
        origin_args = get_args(ann) if get_origin(ann) is dict else ()
        if isinstance(ann, type) and issubclass(ann, BaseModel) and not issubclass(ann, Rule):
            rows += _rows(ann, path)
        elif origin_args and isinstance(origin_args[1], type) and issubclass(origin_args[1], BaseModel):
            key = "N" if name in ("player_counts", "removals") else "ID"
            rows += _rows(origin_args[1], [*path, key])
    return rows


def reference_markdown() -> str:
    out = [
        "# Ruleset file reference",
        "",
        "<!-- Generated from mbrules/ruleset/model.py by mbrules/ruleset/reference.py (make schemas); do not edit. -->",
        "",
        "Every key a ruleset or option file may write. A file that `extends` another (and every option) "
        "names only what it changes; a ruleset that extends nothing gives every required key. "
        "`ID` is a card id (lowercase letters, digits, `_`), `N` a player count (`\"*\"` in a file: every "
        "player count). The example is the value in the bundled `winning-moves`.",
        "",
        "**Citations.** A rule value is written `{value: ..., source: \"rulebook §section\"}` or with "
        "`decided: \"why\"` instead of `source` (never both); a card, a player count, a removal and a "
        "reference card carry `source` or `decided` beside their fields. A user's file may leave the "
        "citation out (`hazard_on_hazard: true`): the value is then *uncited*, and `mbrules show` marks it. "
        "A patch's citation (or its absence) replaces the whole object's.",
        "",
        "**Composition order** (later wins): the parent (`extends`, itself resolved), the file's `options` "
        "in order, the file's own values, then options given with `--option` (or to the API), each of which "
        "is reported when it changes a value your file wrote. `mbrules show --explain` says where each "
        "value came from.",
        "",
        "## File keys",
        "",
        "| key | type | default | meaning | example |",
        "|---|---|---|---|---|",
    ]
    for key, typ, default, meaning, example in FILE_KEYS:
        out.append(f"| `{key}` | {typ} | {default} | {meaning} | `{example}` |")
    out += ["", "## Ruleset keys", "", "| key | type | default | meaning | example |", "|---|---|---|---|---|"]
    for path, typ, default, desc, example in _rows(Ruleset, []):
        ex = f"`{example}`" if example else ""
        out.append(f"| `{path}` | {typ} | {default} | {desc.replace('|', '/')} | {ex} |")
    out += ["", "## Card fields by kind", ""]
    for model, kind in (
        (DistanceCard, "distance"),
        (HazardCard, "hazard"),
        (RemedyCard, "remedy"),
        (SafetyCard, "safety"),
        (KarmaCard, "karma"),
    ):
        out += [f"### `kind: {kind}`", "", "| key | type | default | meaning |", "|---|---|---|---|"]
        for path, typ, default, desc, _ in _rows(model, ["cards", "ID"]):
            out.append(f"| `{path}` | {typ} | {default} | {desc.replace('|', '/')} |")
        out.append("")
    out += _score_line_section()
    return "\n".join(out).rstrip() + "\n"


# The contract's score lines, in the sheet's order, with what each pays (the engine's rule for it).
CONTRACT_LINES = (
    ("milestones", "points per mile travelled (`scoring.milestones_per_mile`)"),
    ("safeties", "per safety played, normally or as a coup fourré (`scoring.safety`)"),
    ("all_safeties", "a side that played every safety of the deck (`scoring.all_safeties`)"),
    ("coup_fourres", "per coup fourré (`scoring.coup_fourre`)"),
    ("trip_completed", "the side that completed the trip (`scoring.trip_completed`)"),
    ("delayed_action", "the trip completed after the draw pile ran out (`scoring.delayed_action`)"),
    ("safe_trip", "the trip completed without a breaker card (`scoring.safe_trip`, `safe_trip_breakers`)"),
    ("shutout", "the finisher, when opponents have no distance (`scoring.shutout`, `shutout_per_opponent`)"),
    ("extension", "the extension's bonus (`scoring.extension`, `extension_bonus_to`)"),
    ("total", "the sum of the other lines"),
)


def _score_line_section() -> list[str]:
    """The score lines a sheet may hold: the contract's ten, then the lines the bundled options add
    (``scoring.lines``), each with the option and its rule in words."""
    from .loader import bundled_option_ids, load_ruleset
    from .words import line_words

    out = [
        "## Score lines",
        "",
        "A hand's score sheet (`play --json`, the score oracle, scenario `score:` expectations) holds the "
        "contract's ten lines, in this order, and before `total` any line a ruleset adds under "
        "`scoring.lines` (snake_case names, in the order the ruleset gives them). An entry paying on one of "
        "the contract's lines (under its name, or naming it in `line`) replaces that line's standard rule "
        "and keeps its name. A new line's `label` (plain text, at most 60 characters) is its words on the score "
        "sheet and in compare and sweep (`label: Empty hand at the end`); without one it is named from its id "
        '(`fin_vitesse`: "Fin vitesse").',
        "",
        "| line | scores | added by |",
        "|---|---|---|",
    ]
    out += [f"| `{name}` | {words} | the contract |" for name, words in CONTRACT_LINES]
    base = load_ruleset(REFERENCE_RULESET)
    out += [
        "",
        "The contract's lines are score lines of the same form (condition, points, recipients): each "
        "ruleset's standard entries are built from its cited `scoring` values (`ScoringRules.standard_lines`; "
        "`shutout_per_opponent` and `extension_bonus_to` choose the shutout's and the extension's shape) and "
        "compiled with its own `scoring.lines`, one scoring path. With winning-moves' values:",
        "",
        "| entry | pays |",
        "|---|---|",
    ]
    out += [
        f"| `{name}` | {line_words(name, line, base).replace('|', '/')} |"
        for name, line in base.scoring.standard_lines().items()
    ]
    out += ["", "| line | scores | added by |", "|---|---|---|"]
    for option in bundled_option_ids():
        rs = load_ruleset(REFERENCE_RULESET, options=[option])
        for name, line in rs.scoring.lines.items():
            if name in base.scoring.lines and base.scoring.lines[name] == line:
                continue
            words = line_words(name, line, rs).replace("|", "/")
            added = f"option `{option}`" + (" (replaces the contract's rule)" if name in dict(CONTRACT_LINES) else "")
            out.append(f"| `{name}` | {words} | {added} |")
    return out + [""]


if __name__ == "__main__":
    import sys

    sys.stdout.write(reference_markdown())
