"""Composition: one load's session follows ``extends``, applies the options in order, reports what an
option changes of a value the file wrote, and checks the composed data against the model and the
semantics (:class:`_Session`). The step of :mod:`mbrules.ruleset.loader` between reading a file and the
public cache."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pydantic

from .compose import ROOT_OWN_KEYS, leaves, merge, normalize, patch_body
from .diagnostics import (
    DataKey,
    DataPath,
    Diagnostic,
    LocNode,
    ModelWords,
    RulesetError,
    YamlMap,
    diag_at,
    display_path,
    dotted,
    quote,
    validation_diagnostics,
)
from .listing import is_ruleset_id
from .model import Ruleset
from .validator_cache import ruleset_validator
from .semantics import semantic_problems, semantic_warnings
from .yamlmarks import FileSignature, real_path

from .listing import bundled_ids as _bundled_ids
from .files import (
    REFERENCE_RULESET,
    _BadRef,
    _check_suffix,
    _FileRead,
    _name_for,
    _read,
    _reason,
    _resolve_ref,
    _unknown_id_message,
)

MAX_EXTENDS_CHAIN = 100  # files in one extends chain (a ruleset, its parent, ...): deeper is a located error
_SECTIONS = "box, cards, player_counts, play, coup_fourre, scoring, match, display, turn"
# ----------------------------------------------------------------------------
# Composition


@dataclass
class _Named:
    """An option with exclusive groups, and where it was named (None: on the command line or by the API)."""

    name: str
    groups: tuple[str, ...]
    where: LocNode | None = None


@dataclass
class _Composed:
    data: YamlMap
    locs: LocNode
    applied: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # in the order their values were laid down
    named: list[_Named] = field(default_factory=list)  # the options applied that belong to groups
    removed: list[tuple[DataPath, LocNode]] = field(default_factory=list)  # every entry a null took out


class RulesetWarning(UserWarning):
    """Something a ruleset's composition did that its author may not expect (an option given on the
    command line or to the API that changes a value the ruleset file itself wrote)."""


class _Session:
    """One resolution: collects every problem and every file it read (for the cache)."""

    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []
        self.usage: list[str] = []  # problems of the command line alone (two options of one group there)
        self.refusals: list[Diagnostic] = []  # an option given on the command line that the ruleset cannot take
        self.deps: dict[str, FileSignature] = {}  # every file read, by path
        self.warnings: list[str] = []

    def _named(self, data: YamlMap, locs: LocNode, why: str) -> bool:
        """A diagnostic for each of ``id`` and ``name`` missing at the top level of a file (``why``: who gives
        them, and how), for a ruleset that extends another and for an option alike; True when neither is."""
        missing = [key for key in ("id", "name") if key not in data]
        for key in missing:
            self.diags.append(diag_at(locs, (), f"missing key '{key}' at the top level: {why}; add it"))
        return not missing

    def read(self, path: Path) -> _FileRead:
        fr, sig = _read(path)
        self.deps[str(fr.path)] = sig
        return fr

    def read_top(self, path: Path, option: bool = False) -> _FileRead:
        """A file named by the user: not a .yaml/.yml file, or unreadable, is a usage error (exit 2)."""
        try:
            _check_suffix(path, option)
            return self.read(path)
        except _BadRef as exc:
            raise RulesetError([f"{display_path(path.absolute())}:1:1: {exc}"], usage=True) from None
        except OSError as exc:
            raise RulesetError(
                [f"{display_path(path.absolute())}:1:1: cannot read this file: {_reason(exc)}; check the path"],
                usage=True,
            ) from None

    def read_ref(self, path: Path, where: LocNode, what: str, option: bool = False) -> _FileRead | None:
        """A file named inside a file: unreadable makes the naming file invalid."""
        try:
            return self.read(path)
        except OSError as exc:
            hint = (
                f"; to use the bundled one, write its id: {path.stem}"
                if path.stem in _bundled_ids(option)
                else "; fix the path (relative to this file)"
            )
            self.diags.append(
                diag_at(where, (), f"cannot read {what} {quote(display_path(path.absolute()))}: {_reason(exc)}{hint}")
            )
            return None

    # -- rulesets

    def ruleset(self, fr: _FileRead, stack: tuple[Path, ...]) -> _Composed | None:
        """A ruleset file composed with what it extends and the options it names; None (with diagnostics) where
        the file, its parent or one of its options is wrong. Everything checkable is checked before giving up."""
        self.diags.extend(fr.errors)
        if fr.data is None or fr.locs is None:
            return None
        data, locs = fr.data, fr.locs
        if data.get("kind") == "option":
            self.diags.append(
                diag_at(
                    locs,
                    ("kind",),
                    "this file is an option (kind: option), not a ruleset: "
                    "apply it with --option, or list it under options:",
                )
            )
            return None
        ok = self._ruleset_keys(data, locs) and not fr.errors
        parent_ok, parent = self._parent(fr, stack)
        # the file's own options: each is checked even when something above failed
        options_ok, own_options = self._own_options(fr)
        if not (ok and parent_ok and options_ok):
            return None
        return self._compose(fr, parent, own_options)

    def _ruleset_keys(self, data: YamlMap, locs: LocNode) -> bool:
        """A ruleset's keys of its own: an id and a name where it extends another, no option's group or category."""
        ok = True
        if "extends" in data:  # (a file that extends nothing is checked whole by the model below)
            why = (
                "a ruleset gives its own id and name (they are not inherited from the parent; "
                "description and source are optional)"
            )
            ok = self._named(data, locs, why)
        if "group" in data:
            ok = False
            self.diags.append(
                diag_at(
                    locs,
                    ("group",),
                    "only an option has a group (options of one group cannot go together); remove it",
                    key=True,
                )
            )
        if "category" in data:
            ok = False
            self.diags.append(
                diag_at(
                    locs,
                    ("category",),
                    "only an option has a category (where 'mbrules rulesets' lists it); remove it",
                    key=True,
                )
            )
        return ok

    def _parent(self, fr: _FileRead, stack: tuple[Path, ...]) -> tuple[bool, _Composed | None]:
        """What ``extends`` names, composed (recursively, at most MAX_EXTENDS_CHAIN files): (ok, the parent or None)."""
        assert fr.data is not None and fr.locs is not None
        data, locs = fr.data, fr.locs
        ok = True
        parent: _Composed | None = None
        extends = data.get("extends")
        if isinstance(extends, str):
            where = locs.child("extends") or locs
            bad: str | None = None
            try:
                ppath = _resolve_ref(extends, fr.path.parent, option=False)
                preal = real_path(ppath) if ppath is not None else None
            except (_BadRef, OSError) as exc:
                ppath = preal = None
                bad = str(exc) if isinstance(exc, _BadRef) else f"cannot read {quote(extends)}: {_reason(exc)}"
            if ppath is None or preal is None:
                ok = False
                self.diags.append(
                    diag_at(
                        where,
                        (),
                        f"extends: {bad or _unknown_id_message(extends, False)}"
                        + ("" if bad else " (relative to this file)"),
                    )
                )
            elif preal in stack or preal == fr.path:
                ok = False
                chain = " -> ".join(display_path(p) for p in (*stack, fr.path, preal))
                self.diags.append(
                    diag_at(
                        where,
                        (),
                        f"extends makes a cycle ({chain}): a ruleset cannot "
                        "extend itself, even through others; break the cycle",
                    )
                )
            elif len(stack) + 1 >= MAX_EXTENDS_CHAIN:  # (resolved recursively: the bound keeps it in Python's stack)
                ok = False
                first = display_path(stack[0]) if stack else display_path(fr.path)
                self.diags.append(
                    diag_at(
                        where,
                        (),
                        f"extends makes a chain of more than {MAX_EXTENDS_CHAIN} "
                        f"files (from {first} to this one, which extends "
                        f"{quote(extends)}): a ruleset may build on at most "
                        f"{MAX_EXTENDS_CHAIN} files in a chain; extend one nearer "
                        "the edition",
                    )
                )
            else:
                pfr = self.read_ref(ppath, where, "the ruleset named in extends")
                if pfr is None:
                    ok = False
                else:
                    if pfr.data is not None and pfr.data.get("kind") == "option":
                        ok = False
                        self.diags.append(
                            diag_at(
                                where,
                                (),
                                f"extends names {quote(extends)}, an option (kind: "
                                "option); extend a ruleset and list the option "
                                "under options:",
                            )
                        )
                    else:
                        parent = self.ruleset(pfr, (*stack, fr.path))
                        ok = ok and parent is not None
        return ok, parent

    def _own_options(self, fr: _FileRead) -> tuple[bool, list[_Composed]]:
        """The options a ruleset file names under ``options:``, each read and checked: (all ok, the ones read)."""
        assert fr.data is not None and fr.locs is not None
        data, locs = fr.data, fr.locs
        ok = True
        own_options: list[_Composed] = []
        refs = data.get("options")
        for i, ref in enumerate(refs if isinstance(refs, list) else []):
            options_node = locs.child("options")
            at = options_node.child(i) if options_node is not None else None
            if not isinstance(ref, str) or at is None:
                continue  # the schema layer reported it
            opt = self.option_ref(ref, fr.path.parent, at)
            if opt is None:
                ok = False
            else:
                own_options.append(opt)
        return ok, own_options

    def _compose(self, fr: _FileRead, parent: _Composed | None, own_options: list[_Composed]) -> _Composed:
        """The parent's values, then the file's options, then the file's own values; the root's own keys unmerged."""
        assert fr.data is not None and fr.locs is not None
        data, locs = fr.data, fr.locs
        ndata, nlocs = normalize(data, locs)
        body = patch_body(ndata)
        body_locs = _body_locs(locs, nlocs, body)
        if parent is None:
            composed = _Composed({}, LocNode(locs.loc, {}))
        else:
            composed = _Composed(
                parent.data,
                parent.locs,
                list(parent.applied),
                list(parent.files),
                list(parent.named),
                list(parent.removed),
            )
        for opt in own_options:  # the options a file names lie under its own values
            self.apply(composed, opt)
        composed.data, composed.locs = merge(composed.data, composed.locs, body, body_locs, (), composed.removed)
        composed.files.append(fr.display)
        kids, own_kids = composed.locs.children, locs.children or {}
        assert kids is not None  # merge gives a mapping's node its children
        for key in ROOT_OWN_KEYS:
            composed.data.pop(key, None)
            kids.pop(key, None)
            if key in data:
                composed.data[key] = data[key]
                kids[key] = own_kids[key]
        return composed

    # -- options

    def option_ref(self, ref: str, base: Path, where: LocNode) -> _Composed | None:
        try:
            path = _resolve_ref(ref, base, option=True)
        except _BadRef as exc:
            self.diags.append(diag_at(where, (), str(exc)))
            return None
        if path is None:
            self.diags.append(diag_at(where, (), f"{_unknown_id_message(ref, True)} (relative to this file)"))
            return None
        fr = self.read_ref(path, where, "the option", option=True)
        opt = None if fr is None else self.option(fr)
        if opt is not None:
            for named in opt.named:
                named.where = where
        return opt

    def option(self, fr: _FileRead) -> _Composed | None:
        self.diags.extend(fr.errors)
        if fr.data is None or fr.locs is None:
            return None
        data, locs = fr.data, fr.locs
        ok = not fr.errors
        if data.get("kind") != "option":
            ok = False
            self.diags.append(
                diag_at(
                    locs,
                    ("kind",),
                    "this file is not an option: an option file says "
                    "'kind: option' (a ruleset is named as the ruleset, "
                    "not with --option or options:)",
                    key=True,
                )
            )
        for key in ("extends", "options"):
            if key in data:
                ok = False
                self.diags.append(
                    diag_at(
                        locs,
                        (key,),
                        f"an option may not have '{key}': an option is a patch applied over any ruleset; remove it",
                        key=True,
                    )
                )
        why = "an option gives its id and name (and, best, a one-line description and its source)"
        ok = self._named(data, locs, why) and ok
        if not ok:
            return None
        ndata, nlocs = normalize(data, locs)
        body = patch_body(ndata)
        group = data.get("group")
        group = group.get("value") if isinstance(group, dict) else group
        groups = (group,) if isinstance(group, str) else tuple(g for g in group or () if isinstance(g, str))
        # An option is listed (applied_options, diff, show) under its id, however it was named (a path).
        label = data["id"] if isinstance(data.get("id"), str) and is_ruleset_id(data["id"]) else _name_for(fr.path)
        named = [_Named(label, groups)] if groups else []
        return _Composed(body, _body_locs(locs, nlocs, body), [label], [fr.display], named)

    def apply(self, target: _Composed, opt: _Composed, protect: str | None = None) -> None:
        """Lay ``opt`` over ``target``; two options of one exclusive group are refused (both places named).

        ``protect``: the top file's name; a value that file wrote and ``opt`` changes is a warning."""
        for mine in opt.named:
            for group in mine.groups:
                other = next((n for n in target.named if group in n.groups and n.name != mine.name), None)
                if other is not None:
                    self._group_conflict(group, other, mine)
        before = None if protect is None else {p: (v, n) for p, v, n in leaves(target.data, target.locs)}
        target.data, target.locs = merge(target.data, target.locs, opt.data, opt.locs, (), target.removed)
        if before is not None:
            after = {p: v for p, v, _ in leaves(target.data, target.locs)}
            for path, (old, node) in before.items():
                if node is None or node.loc.file != protect or after.get(path, old) == old:
                    continue
                file, line, col = node.loc.at_value()
                new = after[path] if path in after else "(removed)"
                self.warnings.append(
                    f"{file}:{line}:{col}: warning: option {quote(opt.applied[0])} (given with "
                    f"--option, applied last) changes {dotted(path)} from {quote(old)}, which "
                    f"this file sets, to {quote(new)}"
                )
        target.applied.extend(opt.applied)
        target.files.extend(opt.files)
        target.named.extend(opt.named)

    def _group_conflict(self, group: str, first: _Named, second: _Named) -> None:
        if first.where is None and second.where is None:
            self.usage.append(
                f"mbrules: options {quote(first.name)} and {quote(second.name)} are both in the "
                f"group '{group}', which allows one of them: give only one of them with --option"
            )
            return

        def place(n: _Named) -> str:
            if n.where is None:
                return "given with --option"
            file, line, col = n.where.loc.at_value()
            return f"named at {file}:{line}:{col}"

        for this, other in ((first, second), (second, first)):
            if this.where is not None:  # (the file's option against one given here: a refusal, exit 2)
                into = self.refusals if other.where is None else self.diags
                into.append(
                    diag_at(
                        this.where,
                        (),
                        f"option {quote(this.name)} cannot go with option "
                        f"{quote(other.name)} ({place(other)}): both are in the "
                        f"group '{group}', which allows one of them; "
                        "remove one of them",
                    )
                )

    # -- the resolved model

    def finish(self, composed: _Composed) -> Ruleset | None:
        data = dict(composed.data)
        data["applied_options"] = list(composed.applied)
        try:
            rs: Ruleset = ruleset_validator().validate_json(json.dumps(data))  # Ruleset.model_validate_json's own call
        except pydantic.ValidationError as exc:
            self.diags += validation_diagnostics(
                exc.errors(include_url=False), data, composed.locs, ModelWords(root_missing=_root_missing_diag)
            )
            return None
        rank = {f: i for i, f in enumerate(composed.files)}
        gone = {
            path[-1]: node for path, node in composed.removed if path[:-1] == ("cards",) and path[-1] not in rs.cards
        }
        self.diags.extend(_removal_problems(rs, gone, composed.locs))
        for path, message, at_key, related in semantic_problems(rs):
            if any(f"'{cid}'" in message for cid in gone):
                continue  # said at the line that removed the card (above)
            best = diag_at(composed.locs, path, message, key=at_key)
            for other in related:
                cand = diag_at(composed.locs, other, message)
                if rank.get(cand.file, -1) > rank.get(best.file, -1):
                    best = cand
            self.diags.append(best)
        if self.diags:
            return None
        for path, message in semantic_warnings(rs):
            at = diag_at(composed.locs, path, message)
            self.warnings.append(f"{at.file}:{at.line}:{at.col}: warning: {message}")
        return rs


def _removal_problems(rs: Ruleset, gone: dict[DataKey, LocNode], locs: LocNode) -> list[Diagnostic]:
    """A card removed (``null`` or ``remove:``) that the resolved ruleset still names: one problem at
    the line that removed it, naming each value (and where it is written) that still uses it."""
    out = []
    for cid, node in gone.items():
        users: list[tuple[str, DataPath]] = []  # (what uses it, where)
        for other, card in rs.cards.items():
            for fld in ("fixes", "protects"):
                if cid in getattr(card, fld, ()):
                    users.append(
                        (
                            f"{card.kind} {quote(other)} {fld.replace('fixes', 'fixes it').replace('protects', 'protects against it')}",
                            ("cards", other, fld),
                        )
                    )
        for count, removal in rs.removals.items():
            if cid in removal.cards:
                users.append((f"the removals for {count} players take it out", ("removals", count, "cards", cid)))
        if cid in rs.scoring.safe_trip_breakers.value:
            users.append(("scoring.safe_trip_breakers names it", ("scoring", "safe_trip_breakers", "value")))
        if not users:
            continue
        parts = []
        for words, path in users:
            where = diag_at(locs, path, "")
            parts.append(f"{words} ({where.file}:{where.line})")
        file, line, col = node.loc.at_key()
        out.append(
            Diagnostic(
                file,
                line,
                col,
                f"card {quote(cid)} is removed here, but {'; '.join(parts)}: "
                "remove or change those too (null removes an entry: "
                f"'removals: {{\"*\": {{cards: {{{cid}: null}}}}}}' takes it out of "
                "every player count's removals)",
            )
        )
    return out


def _body_locs(locs: LocNode, nlocs: LocNode, body: YamlMap) -> LocNode:
    """Positions for a file's patch body (:func:`patch_body` of the normalized data ``nlocs`` describes),
    under the file's root."""
    kids = nlocs.children or {}  # normalize gives the root mapping its children
    return LocNode(locs.loc, {k: kids[k] for k in body})


def _root_missing_diag(missing: list[str], locs: LocNode) -> Diagnostic:
    own = [k for k in missing if k in ROOT_OWN_KEYS]
    sections = [k for k in missing if k not in ROOT_OWN_KEYS]
    parts = []
    if own:
        parts.append(
            f"missing {'key' if len(own) == 1 else 'keys'} {', '.join(repr(k) for k in own)} "
            "(a ruleset gives its own id, name, description and source)"
        )
    if sections:
        parts.append(
            f"missing {'section' if len(sections) == 1 else 'sections'} "
            f"{', '.join(repr(k) for k in sections)} (a ruleset that extends nothing gives every section: "
            f"{_SECTIONS}; or write 'extends: {REFERENCE_RULESET}' to start from an edition)"
        )
    return diag_at(locs, (), "; ".join(parts) + " at the top level; add them")
