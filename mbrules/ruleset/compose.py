"""Composition: how a file that ``extends`` another, and an option, change a ruleset.

A file changes only what it names, field by field:

* mappings merge by key (sections, ``cards`` by card id, ``player_counts`` by count, ...), and so do
  objects that carry a citation (a card, a rule value ``{value, source}``, a player count): a patch
  may change one field (``player_counts: {"4": {sides: 4}}``); the patch's citation (``source``,
  ``decided``, or none: uncited) replaces the object's;
* ``"*"`` under ``player_counts`` or ``removals`` patches every player count (those inherited and
  those the same mapping names; a count named there as well is patched after the ``"*"``);
* ``null`` for a card, a reference card, a removal or a score line (``scoring.lines``) removes the
  inherited one (``remove: [ids]`` at the top level removes cards too); a removal's ``cards: null``
  empties it, so ``"2": {cards: null, source: ...}`` says "no cards removed" with its citation;
* lists and scalars replace.

A user's file may write a rule as a plain value (``hazard_on_hazard: true``) or an object without a
citation: :func:`normalize` records where (``uncited: FILE:LINE``) so ``mbrules show`` marks it.

Positions travel with the data: the merged :class:`LocNode` tree keeps, for every value, the
file and line that set it, so later layers point at whichever file contributed a value (and
``mbrules show --explain`` says where each value came from).

The order (the loader): the parent (fully resolved) -> the file's ``options`` in order -> the file's
own body (a file's values win over the options it names) -> options given on the command line or
to the API, last (one that changes a value the top file wrote is reported as a warning).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .diagnostics import DataKey, DataPath, Loc, LocNode, YamlData, YamlMap

ROOT_OWN_KEYS = ("id", "name", "description", "source")  # never inherited: each file says its own
FILE_ONLY_KEYS = (
    "kind",
    "extends",
    "options",
    "group",
    "category",
    "remove",
)  # read by the loader, not part of the ruleset
CITATION_KEYS = ("source", "decided", "uncited")
STAR = "*"
STAR_SECTIONS = {("player_counts",), ("removals",)}  # where "*" stands for every player count
DELETABLE = {("cards",), ("removals",), ("box", "reference_cards"), ("scoring", "lines")}  # where null removes an entry
CITED_ENTRIES = (("cards",), ("player_counts",), ("removals",), ("box", "reference_cards"), ("scoring", "lines"))


def _deletable(path: DataPath) -> bool:
    # a removal's 'cards: null' empties it (the entry keeps its citation: the whole deck, cited)
    return path in DELETABLE or (
        len(path) in (2, 3) and path[0] == "removals" and path[-1] != "*" and (len(path) == 2 or path[2] == "cards")
    )


def is_cited(value: Any) -> bool:
    return isinstance(value, dict) and any(value.get(k) is not None for k in CITATION_KEYS)


def rule_paths() -> set[tuple[str, str]]:
    """(section, field) of every rule value ``{value, source|decided}``, read from the model."""
    from .model import Rule, Ruleset

    out: set[tuple[str, str]] = set()
    for section, info in Ruleset.model_fields.items():
        sub = info.annotation
        for name, finfo in getattr(sub, "model_fields", {}).items():
            ann = finfo.annotation
            if isinstance(ann, type) and issubclass(ann, Rule):
                out.add((section, name))
    return out


_RULE_PATHS: set[tuple[str, str]] | None = None


def _where(node: LocNode) -> str:
    file, line, _ = node.loc.at_value()
    return f"{file}:{line}"


def _uncite(value: YamlMap, node: LocNode) -> tuple[YamlMap, LocNode]:
    """``value`` without null citations; with none left, marked uncited where it was written."""
    value = {k: v for k, v in value.items() if not (k in ("source", "decided") and v is None)}
    if is_cited(value):
        return value, node
    kids = dict(node.children or {})
    kids["uncited"] = LocNode(node.loc)
    return {**value, "uncited": _where(node)}, LocNode(node.loc, kids)


def normalize(data: YamlMap, locs: LocNode) -> tuple[YamlMap, LocNode]:
    """One file's data as composition takes it: plain rule values wrapped, uncited objects marked,
    ``remove: [ids]`` as ``cards: {id: null}``. Neither argument is modified."""
    global _RULE_PATHS
    if _RULE_PATHS is None:
        _RULE_PATHS = rule_paths()
    data = dict(data)
    root_kids = dict(locs.children or {})
    for section, name in _RULE_PATHS:
        sec = data.get(section)
        node = root_kids.get(section)
        if not isinstance(sec, dict) or name not in sec or node is None:
            continue
        vnode = node.child(name) or LocNode(node.loc)
        value = sec[name]
        if isinstance(value, dict):
            new, new_node = _uncite(value, vnode)
        else:
            new = {"value": value, "uncited": _where(vnode)}
            new_node = LocNode(vnode.loc, {"value": vnode, "uncited": LocNode(vnode.loc)})
        data[section] = {**sec, name: new}
        root_kids[section] = LocNode(node.loc, {**(node.children or {}), name: new_node})
    for path in CITED_ENTRIES:
        parent: Any = data
        pnodes: list[LocNode | None] = [LocNode(locs.loc, root_kids)]
        for part in path:
            parent = parent.get(part) if isinstance(parent, dict) else None
            pnodes.append(pnodes[-1].child(part) if pnodes[-1] is not None else None)
        mapping, node = parent, pnodes[-1]
        if not isinstance(mapping, dict) or node is None:
            continue
        new_map, new_kids = {}, dict(node.children or {})
        for key, value in mapping.items():
            if isinstance(value, dict):
                enode = node.child(key) or LocNode(node.loc)
                new_map[key], new_kids[key] = _uncite(value, enode)
            else:
                new_map[key] = value
        # put the new mapping back along the path
        new_node = LocNode(node.loc, new_kids)
        if len(path) == 1:
            data[path[0]] = new_map
            root_kids[path[0]] = new_node
        else:
            outer = dict(data[path[0]])
            outer[path[1]] = new_map
            data[path[0]] = outer
            onode = root_kids[path[0]]
            root_kids[path[0]] = LocNode(onode.loc, {**(onode.children or {}), path[1]: new_node})
    removes = data.get("remove")
    rnode = root_kids.get("remove")
    if isinstance(removes, list) and rnode is not None:
        cards = dict(data.get("cards") or {}) if isinstance(data.get("cards"), dict) else {}
        cnode = root_kids.get("cards") or LocNode(rnode.loc)
        ckids = dict(cnode.children or {})
        for i, cid in enumerate(removes):
            if isinstance(cid, str):
                cards[cid] = None
                ckids[cid] = rnode.child(i) or LocNode(rnode.loc)
        data["cards"] = cards
        root_kids["cards"] = LocNode(cnode.loc, ckids)
    return data, LocNode(locs.loc, root_kids)


def merge(
    parent: YamlData,
    parent_locs: LocNode | None,
    child: YamlData,
    child_locs: LocNode,
    path: DataPath = (),
    removed: list[tuple[DataPath, LocNode]] | None = None,
) -> tuple[YamlData, LocNode]:
    """``child`` laid over ``parent`` (neither is modified), with merged positions.

    ``removed``, if given, collects ``(path, LocNode)`` for every entry a ``null`` took out."""
    if isinstance(parent, dict) and isinstance(child, dict):
        out = dict(parent)
        kids: dict[DataKey, LocNode] = dict(parent_locs.children or {}) if parent_locs is not None else {}
        if is_cited(child):  # the patch's citation replaces the object's
            for k in CITATION_KEYS:
                out.pop(k, None)
                kids.pop(k, None)
        star = child.get(STAR) if path in STAR_SECTIONS else None
        if isinstance(star, dict):
            star_locs = child_locs.child(STAR) or LocNode(child_locs.loc)
            for key in dict.fromkeys([*parent, *child]):
                if key == STAR:
                    continue
                if isinstance(out.get(key), dict):
                    out[key], kids[key] = merge(out[key], kids.get(key), star, star_locs, (*path, key), removed)
                elif key in child and isinstance(child[key], dict):
                    out[key], kids[key] = star, star_locs  # the named count below is laid over it
        for key, value in child.items():
            if key == STAR and path in STAR_SECTIONS:
                continue
            value_locs = child_locs.child(key)
            if value_locs is None:  # pragma: no cover - the YAML layer gives every key a position
                value_locs = LocNode(child_locs.loc)
            if value is None and _deletable(path):
                if removed is not None:
                    removed.append(((*path, key), value_locs))
                out.pop(key, None)
                kids.pop(key, None)
                continue
            if key in out:
                out[key], kids[key] = merge(out[key], kids.get(key), value, value_locs, (*path, key), removed)
            elif isinstance(value, dict):  # a new entry: its own nulls remove what it would have inherited, i.e.
                # nothing (an option's cited 'removals: {"2": {cards: null}}' on an edition that removes none)
                out[key], kids[key] = merge({}, None, value, value_locs, (*path, key), removed)
            else:
                out[key], kids[key] = value, value_locs
        return out, LocNode(child_locs.loc, kids)
    return child, child_locs


def patch_body(data: YamlMap) -> YamlMap:
    """What a file changes: its data without the root's own keys and the loader's keys."""
    return {k: v for k, v in data.items() if k not in ROOT_OWN_KEYS and k not in FILE_ONLY_KEYS}


def leaves(
    data: YamlData, locs: LocNode | None, path: DataPath = ()
) -> Iterator[tuple[DataPath, YamlData, LocNode | None]]:
    """``(path, value, LocNode)`` for every value below ``data`` that is not a mapping (citations left
    out): what ``show --explain`` lists and what an option's patch changes."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            if key in CITATION_KEYS:
                continue
            yield from leaves(value, locs.child(key) if locs is not None else None, (*path, key))
    else:
        yield path, data, locs


def citation_of(data: YamlData, path: DataPath) -> tuple[str, str] | None:
    """The citation that covers the value at ``path``: that of the nearest cited object above it."""
    found = None
    cur = data
    for part in path:
        if isinstance(cur, dict):
            for k in CITATION_KEYS:
                if cur.get(k) is not None:
                    found = (k, cur[k])
            cur = cur.get(part)
        else:
            break
    if isinstance(cur, dict):
        for k in CITATION_KEYS:
            if cur.get(k) is not None:
                found = (k, cur[k])
    return found


def citation_in_file(data: YamlData, locs: LocNode | None, path: DataPath, file: str) -> tuple[str, str] | None:
    """The citation that covers the value at ``path`` as ``file`` wrote it: that of the nearest object
    above it whose citation was written in the same file as the value. A citation another file laid on
    a sibling (a patch's ``decided:`` on ``player_counts.4``) does not cover a value an option set there."""
    found = None
    cur, node = data, locs
    for part in (*path, None):
        if not isinstance(cur, dict):
            break
        for k in CITATION_KEYS:
            at = node.child(k) if node is not None else None
            if cur.get(k) is not None and at is not None and at.loc.file == file:
                found = (k, cur[k])
        if part is None:
            break
        cur, node = cur.get(part), node.child(part) if node is not None else None
    return found


__all__ = [
    "CITATION_KEYS",
    "citation_in_file",
    "FILE_ONLY_KEYS",
    "ROOT_OWN_KEYS",
    "Loc",
    "citation_of",
    "is_cited",
    "leaves",
    "merge",
    "normalize",
    "patch_body",
    "rule_paths",
]
