"""Composition: how a file that ``extends`` another, and an option, change a ruleset.

A file changes only what it names:

* mappings merge by key (sections, ``cards`` by card id, ``player_counts`` by count, ...);
* an object carrying its own citation (``source`` or ``decided``: a card, a rule value
  ``{value, source}``, a player count, a removal, a reference card) replaces the parent's whole;
* lists and scalars replace.

Positions travel with the data: the merged :class:`LocNode` tree keeps, for every value, the
file and line that set it, so later layers point at whichever file contributed a value.
"""
from __future__ import annotations

from typing import Any

from .diagnostics import LocNode

ROOT_OWN_KEYS = ("id", "name", "description", "source")  # never inherited: each file says its own
FILE_ONLY_KEYS = ("kind", "extends", "options", "group")  # read by the loader, not part of the ruleset


def is_cited(value: Any) -> bool:
    return isinstance(value, dict) and ("source" in value or "decided" in value)


def merge(parent: Any, parent_locs: LocNode | None, child: Any, child_locs: LocNode) -> tuple[Any, LocNode]:
    """``child`` laid over ``parent`` (neither is modified), with merged positions."""
    if isinstance(parent, dict) and isinstance(child, dict) and not is_cited(child):
        out = dict(parent)
        kids: dict = dict(parent_locs.children or {}) if parent_locs is not None else {}
        for key, value in child.items():
            value_locs = child_locs.child(key)
            if value_locs is None:  # pragma: no cover - the YAML layer gives every key a position
                value_locs = LocNode(child_locs.loc)
            if key in parent:
                out[key], kids[key] = merge(parent[key], kids.get(key), value, value_locs)
            else:
                out[key], kids[key] = value, value_locs
        return out, LocNode(child_locs.loc, kids)
    return child, child_locs


def patch_body(data: dict) -> dict:
    """What a file changes: its data without the root's own keys and the loader's keys."""
    return {k: v for k, v in data.items() if k not in ROOT_OWN_KEYS and k not in FILE_ONLY_KEYS}
