"""The rule differences between two resolved rulesets, in words a player understands.

The walk is generic over the model (every field, every card, every player count), so a field
added to the model is compared too; its words come from :mod:`.words` (or the field's
description there). Citations (``source``, ``decided``) are where a rule comes from, not a rule,
and are not compared; the root's id, name, description, source and options are the header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from ..text import plural
from .model import Rule, Ruleset
from .pydantic_plugins import skip_empty_plugin_lookup
from .words import CITATION_FIELDS, HEADER_FIELDS, card_summary, pattern_of, phrase, pretty_id, value_words

# Mappings whose keys are ids (the '*' of a phrase pattern), by path depth.
_KEYED = {("box", "reference_cards"), ("cards",), ("player_counts",), ("removals",), ("scoring", "lines")}


@dataclass(frozen=True)
class Change:
    """One rule that differs: its path in the model, the words, and both values."""

    path: str
    what: str
    before: str
    after: str
    before_value: Any
    after_value: Any

    def __str__(self) -> str:
        return f"{self.what}: {self.before} → {self.after}"

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "what": self.what,
            "before": self.before,
            "after": self.after,
            "before_value": self.before_value,
            "after_value": self.after_value,
        }


def _json(value: Any) -> Any:
    if isinstance(value, BaseModel):
        skip_empty_plugin_lookup()  # before pydantic makes the value's serializer
        return value.model_dump(mode="json")
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


class _Walker:
    def __init__(self, a: Ruleset, b: Ruleset):
        self.a, self.b = a, b
        self.changes: list[Change] = []

    def card_label(self, cid: str, field: str = "") -> str:
        """The card as the diff names it: its name when both call it the same; for a change of name, its
        id in words ('Stop is called: Red Light → Stop'); else the first ruleset's name for it (express's
        '25 km: copies in the deck: 6 → 10', not 'D25')."""
        ca, cb = self.a.cards.get(cid), self.b.cards.get(cid)
        if ca is not None and cb is not None and ca.name == cb.name:
            return ca.name
        named = ca if ca is not None else cb
        if field != "name" and named is not None:
            return named.name
        miles = getattr(named, "miles", None)
        return f"The {miles} card" if miles is not None else pretty_id(cid)

    def words(self, pattern: str, path: tuple[str, ...], value: Any, rs: Ruleset) -> str:
        if pattern == "cards.*":
            return "not in the deck" if value is None else card_summary(rs, path[1])
        if pattern == "player_counts.*":
            if value is None:
                return "not supported"
            ext = f", extension to {value.extension_to}" if value.extension_to else ", no extension"
            own = "; hazards on one's own side" if value.hazards_on == "own_side" else ""
            return f"{plural(value.sides, 'side')}, trip of {value.target} miles{ext}{own}"
        if pattern == "box.reference_cards.*":
            return "none" if value is None else f"{value.count} × {value.name}"
        if pattern == "removals.*":
            return value_words(pattern, None if value is None else value.cards, rs)
        return value_words(pattern, _json(value), rs)

    def add(self, path: tuple[str, ...], stars: set[int], va: Any, vb: Any) -> None:
        pattern = pattern_of(path, stars)
        key = str(path[max(stars)]) if stars else ""
        card = (
            self.card_label(path[1], str(path[2]) if len(path) > 2 else "")
            if path[:1] == ("cards",) and len(path) > 1
            else ""
        )
        what = phrase(pattern, key=key, card=card)
        self.changes.append(
            Change(
                ".".join(str(p) for p in path),
                what,
                self.words(pattern, path, va, self.a),
                self.words(pattern, path, vb, self.b),
                _json(va),
                _json(vb),
            )
        )

    def walk(self, path: tuple[str, ...], stars: set[int], va: Any, vb: Any) -> None:
        if len(path) == 3 and path[:2] == ("scoring", "lines"):  # a score line differs as a whole, in words
            if _json(va) != _json(vb) and va is not None and vb is not None:
                da, db = _json(va), _json(vb)
                for k in ("source", "decided", "uncited"):
                    da.pop(k, None), db.pop(k, None)
                if da != db:
                    self.add(path, stars, va, vb)
            return
        if isinstance(va, Rule) and isinstance(vb, Rule):
            if va.value != vb.value:
                self.add(path, stars, va.value, vb.value)
            return
        if isinstance(va, BaseModel) and isinstance(vb, BaseModel):
            if type(va) is not type(vb):  # a card of another kind: the whole card differs
                self.add(path, stars, va, vb)
                return
            for name in type(va).model_fields:
                if name in CITATION_FIELDS or (not path and name in HEADER_FIELDS):
                    continue
                self.walk((*path, name), stars, getattr(va, name), getattr(vb, name))
            return
        if isinstance(va, dict) and isinstance(vb, dict) and path in _KEYED:
            depth = len(path)
            for key in [*va, *(k for k in vb if k not in va)]:
                sub = (*path, key)
                if key in va and key in vb:
                    self.walk(sub, stars | {depth}, va[key], vb[key])
                else:
                    self.add(sub, stars | {depth}, va.get(key), vb.get(key))
            return
        if va != vb:
            self.add(path, stars, va, vb)


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[Change]:
    """Every rule that differs from ``a`` to ``b``, in the model's order."""
    walker = _Walker(a, b)
    walker.walk((), set(), a, b)
    return walker.changes
