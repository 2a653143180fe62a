"""The ruleset loader: YAML text -> positions -> schema check -> composition -> pydantic -> semantics.

``load_ruleset(ref, options)`` resolves a bundled id or a path, follows ``extends``, applies the
file's own ``options`` and then the options given, and returns the frozen :class:`Ruleset`.
Every layer reports all of its problems at once, each as ``FILE:LINE:COL: message`` in a
:class:`RulesetError`; no bad input ever escapes as another exception.

Composition order: the parent (fully resolved, with its own options) -> the file's ``options`` in
order -> the file's body (a file's own values win over the options it names) -> the options given to
:func:`load_ruleset` (command line or API), last. An option given there that changes a value the
file itself wrote is reported (:class:`RulesetWarning`, and in :func:`load_report`), never silent.
"""

from __future__ import annotations

import difflib
import errno
import json
import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from .compose import ROOT_OWN_KEYS, leaves, merge, normalize, patch_body
from .diagnostics import (
    DataKey,
    DataPath,
    Diagnostic,
    Loc,
    LocNode,
    ModelWords,
    RulesetError,
    YamlData,
    YamlMap,
    diag_at,
    display_path,
    dotted,
    printable,
    quote,
    validation_diagnostics,
)
from .listing import is_ruleset_id
from .model import PlayerCount, Ruleset
from .semantics import semantic_problems, semantic_warnings
from .yamlmarks import YAML_SUFFIXES, FileSignature, parse_bytes, read_regular, real_path

__all__ = [
    "REFERENCE_RULESET",
    "FileCheck",
    "LoadReport",
    "RulesetError",
    "RulesetWarning",
    "Summary",
    "bundled_dir",
    "bundled_option_ids",
    "bundled_ruleset_ids",
    "check_file",
    "clear_cache",
    "load_report",
    "load_ruleset",
    "option_summary",
    "ruleset_summary",
]

REFERENCE_RULESET = "winning-moves"  # an option file is checked by applying it over this ruleset
_CACHE_SIZE = 64
MAX_EXTENDS_CHAIN = 100  # files in one extends chain (a ruleset, its parent, ...): deeper is a located error
_SECTIONS = "box, cards, player_counts, play, coup_fourre, scoring, match, display, turn"


# ----------------------------------------------------------------------------
# Bundled files


from .listing import Summary, bundled_dir, bundled_ids as _bundled_ids, bundled_folder as _bundled_folder  # noqa: E402
from .listing import summary as _list_summary  # noqa: E402


def bundled_ruleset_ids() -> list[str]:
    """Ids of the bundled rulesets (``rulesets/<id>.yaml``), sorted."""
    return _bundled_ids(option=False)


def bundled_option_ids() -> list[str]:
    """Ids of the bundled options (``rulesets/options/<id>.yaml``), sorted."""
    return _bundled_ids(option=True)


class _BadRef(Exception):
    """A reference that can name no ruleset or option file (not .yaml/.yml, a character no name can hold)."""


def _not_yaml_message(ref: str, option: bool) -> str:
    what = "an option" if option else "a ruleset"
    return (
        f"{quote(ref)} is not {what} file: {what} is named by its bundled id or by a path to a .yaml or "
        ".yml file; name one"
    )


def _resolve_ref(ref: str, base: Path, option: bool) -> Path | None:
    """A bundled id (when ``ref`` looks like one) or a path to a .yaml/.yml file (relative: below ``base``).

    None: ``ref`` looks like an id but names no bundled file. Raises :class:`_BadRef` for a path that
    does not end in .yaml or .yml (``/etc/passwd``, ``/proc/self/environ`` are never read) or holds a
    character no file name can (NUL, a lone surrogate). ``~`` is not expanded: a path in a file is
    relative to the file.
    """
    if is_ruleset_id(ref):
        bundled = _bundled_folder(option) / f"{ref}.yaml"
        return bundled if bundled.is_file() else None
    if "\0" in ref or any(0xD800 <= ord(c) <= 0xDFFF for c in ref if not 0xDC80 <= ord(c) <= 0xDCFF):
        raise _BadRef(f"{quote(ref)} cannot be a file name (it holds a NUL or a lone surrogate); fix the name")
    if not ref.lower().endswith(YAML_SUFFIXES):
        raise _BadRef(_not_yaml_message(ref, option))
    p = Path(ref)
    return p if p.is_absolute() else base / p


def _unknown_id_message(ref: str, option: bool) -> str:
    ids = _bundled_ids(option)
    what = "option" if option else "ruleset"
    close = difflib.get_close_matches(ref, ids, n=1)
    guess = f"did you mean '{close[0]}'? " if close else ""
    return (
        f"unknown {what} {quote(ref)}: {guess}bundled {what}s are {', '.join(ids) or 'none'}; "
        f"or give a path to a .yaml file"
    )


def _name_for(path: Path) -> str:
    """The name an applied option is listed under: its bundled id, or the stem of its path (escaped)."""
    return printable(path.stem)


# ----------------------------------------------------------------------------
# Reading one file (cached on path, modification time and size)


@dataclass
class _FileRead:
    path: Path  # absolute
    display: str
    data: YamlMap | None
    locs: LocNode | None
    errors: list[Diagnostic]  # YAML layer and schema layer


_file_cache: dict[tuple[str, str], tuple[FileSignature, _FileRead]] = {}  # (path, display) -> ...
_file_lock = threading.Lock()


def _signature(path: Path) -> FileSignature:
    """What :func:`read_regular` gives as a file's signature, by stat (nothing is opened)."""
    st = os.stat(path)
    return st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev


def _check_suffix(path: Path, option: bool = False) -> None:
    if not path.name.lower().endswith(YAML_SUFFIXES):
        raise _BadRef(_not_yaml_message(str(path), option))


def _read(path: Path) -> tuple[_FileRead, FileSignature]:
    """Parse and schema-check one file; OSError (missing, unreadable, a folder, a pipe, a symlink
    loop, a name no file can have) goes to the caller. The file is opened once and checked on the
    open descriptor (:func:`read_regular`); a file already parsed with the same signature is not read."""
    path = real_path(path)
    if not path.name.lower().endswith(YAML_SUFFIXES):  # a .yaml link to /etc/passwd is not read either
        raise OSError(errno.EINVAL, f"it is a link to {quote(str(path))}, not to a .yaml or .yml file", str(path))
    display = printable(display_path(path))  # as every message names it
    key = (str(path), display)
    with _file_lock:
        hit = _file_cache.get(key)
    raw, sig = read_regular(path, known=hit[0] if hit is not None else None)
    if raw is None and hit is not None:
        return hit[1], sig
    parsed = parse_bytes(raw or b"", display)
    errors = list(parsed.errors)
    if parsed.data is not None and parsed.locs is not None:
        from .schema_check import schema_errors  # jsonschema (30 ms) only once a file is checked

        # A value the YAML layer refused (a bad tag, a number too long) stands there as null: the
        # schema layer's word on that same place would only repeat it, wrongly ("got null").
        refused_at = {(d.line, d.col) for d in parsed.errors}
        errors.extend(d for d in schema_errors(parsed.data, parsed.locs) if (d.line, d.col) not in refused_at)
    fr = _FileRead(path, display, parsed.data, parsed.locs, errors)
    with _file_lock:
        if len(_file_cache) > 256:
            _file_cache.clear()
        _file_cache[key] = (sig, fr)
    return fr, sig


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower() if isinstance(exc, OSError) else str(exc)


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
        self.diags.extend(fr.errors)
        if fr.data is None or fr.locs is None:
            return None
        data, locs = fr.data, fr.locs
        ok = not fr.errors
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
        if "extends" in data:  # (a file that extends nothing is checked whole by the model below)
            for key in ("id", "name"):
                if key not in data:
                    ok = False
                    self.diags.append(
                        diag_at(
                            locs,
                            (),
                            f"missing key '{key}' at the top level: a ruleset gives "
                            "its own id and name (they are not inherited from the "
                            "parent; description and source are optional); add it",
                        )
                    )
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
        # the file's own options: each is checked even when something above failed
        own_options = []
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
        if not ok:
            return None
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
        for key in ("id", "name"):
            if key not in data:
                ok = False
                self.diags.append(
                    diag_at(
                        locs,
                        (),
                        f"missing key '{key}' at the top level: an option gives "
                        "its id and name (and, best, a one-line description and "
                        "its source); add it",
                    )
                )
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
            rs = Ruleset.model_validate_json(json.dumps(data))
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


# ----------------------------------------------------------------------------
# Public entry points


# (top file, options) -> (the files read with their signatures, the ruleset, its warnings)
_cache: OrderedDict[
    tuple[str, tuple[str, ...]], tuple[tuple[tuple[str, FileSignature], ...], Ruleset, tuple[str, ...]]
] = OrderedDict()
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every resolved ruleset and parsed file (tests; files are re-checked anyway)."""
    with _cache_lock:
        _cache.clear()
    with _file_lock:
        _file_cache.clear()


def _deps_fresh(deps: Iterable[tuple[str, FileSignature]]) -> bool:
    try:
        return all(_signature(Path(p)) == sig for p, sig in deps)
    except OSError:
        return False


def _top_path(ref: str | Path, base: Path, option: bool) -> Path:
    if isinstance(ref, Path):
        return ref if ref.is_absolute() else base / ref
    try:
        path = _resolve_ref(ref, base, option)
    except _BadRef as exc:
        raise RulesetError([f"{display_path(Path(ref).absolute())}:1:1: {exc}"], usage=True) from None
    if path is None:
        raise RulesetError([f"mbrules: {_unknown_id_message(ref, option)}"], usage=True)
    return path


def _ref(ref: str | os.PathLike[str]) -> str | Path:
    return ref if isinstance(ref, (str, Path)) else Path(ref)


def option_refs(options: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None) -> list[str | Path]:
    """The options a caller gave, as a list: one id or path (a string or a path-like) is one option, not
    its letters; a list (or any iterable) of them is taken in order. Anything else is a TypeError."""
    if options is None:
        return []
    if isinstance(options, (str, os.PathLike)):
        return [_ref(options)]
    if isinstance(options, (bytes, bytearray)):
        raise TypeError("options are option ids or paths (str or Path), not bytes")
    try:
        refs = list(options)
    except TypeError:
        raise TypeError(f"options is one option id or path, or a list of them (got {type(options).__name__})") from None
    for o in refs:
        if not isinstance(o, (str, os.PathLike)):
            raise TypeError(f"each option is an option id or path (str or Path), not {type(o).__name__}: {o!r:.60}")
    return [_ref(o) for o in refs]


def load_ruleset(
    ref: str | Path,
    options: Sequence[str | Path] = (),
    base_dir: Path | None = None,
    *,
    files_read: list[Path] | None = None,
) -> Ruleset:
    """The resolved ruleset ``ref`` (a bundled id or a YAML path) with ``options`` applied in order
    (a list of ids or paths; one string is one option: :func:`option_refs`).

    Relative paths are taken against ``base_dir`` (default: the working directory). Raises
    :class:`RulesetError`: ``usage`` True for an unknown id or an unreadable file named here,
    False (with every problem as ``FILE:LINE:COL: message``) for an invalid file.
    Results are cached on the files' paths, modification times and sizes. ``files_read``, if given,
    is extended with every file the resolution read (resolved paths: the file, its ``extends``
    chain, every option), so a command can refuse to write over one of its inputs.
    """
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    top = _top_path(ref, base, option=False).absolute()
    opts = [_top_path(o, base, option=True).absolute() for o in option_refs(options)]
    key = (str(top), tuple(str(o) for o in opts))
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
    if hit is not None and _deps_fresh(hit[0]):
        if files_read is not None:
            files_read.extend(Path(p) for p, _ in hit[0])
        _warn(hit[2])
        return hit[1]
    session = _Session()
    rs, _ = _resolve(session, top, opts)
    with _cache_lock:
        _cache[key] = (tuple(session.deps.items()), rs, tuple(session.warnings))
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    if files_read is not None:
        files_read.extend(Path(p) for p in session.deps)
    _warn(session.warnings)
    return rs


def _warn(lines: Iterable[str]) -> None:
    for line in lines:
        warnings.warn(line, RulesetWarning, stacklevel=3)


@dataclass(frozen=True)
class Origin:
    """Where one value of a resolved ruleset came from (``mbrules show --explain``)."""

    path: str  # dotted: play.hazard_on_hazard.value
    value: Any
    file: str
    line: int
    col: int
    citation: str  # "source: ...", "decided: ...", or "uncited"

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "value": self.value,
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "citation": self.citation,
        }


@dataclass
class LoadReport:
    """A resolved ruleset with what its composition did: the warnings (``FILE:LINE:COL: warning: ...``),
    the files in the order their values were laid down, and where every value came from."""

    ruleset: Ruleset
    warnings: list[str]
    files: list[str]
    origins: list[Origin]


def load_report(ref: str | Path, options: Sequence[str | Path] = (), base_dir: Path | None = None) -> LoadReport:
    """Like :func:`load_ruleset` (same errors), with the composition's warnings and every value's origin.
    Not cached: ``mbrules show --explain`` and ``validate`` use it."""
    from .compose import citation_in_file, citation_of

    base = Path(base_dir) if base_dir is not None else Path.cwd()
    top = _top_path(ref, base, option=False).absolute()
    opts = [_top_path(o, base, option=True).absolute() for o in option_refs(options)]
    session = _Session()
    rs, composed = _resolve(session, top, opts)
    origins = []
    for path, value, node in leaves(composed.data, composed.locs):
        if node is None:  # a default the model fills in is not listed here
            continue
        file, line, col = node.loc.at_value()
        cite = citation_in_file(composed.data, composed.locs, path, file)
        other = citation_of(composed.data, path) if cite is None else None
        if other is not None and other[0] != "uncited":
            words = ""  # the value's own file cited it where a later file's citation now stands: not known here
        else:
            words = "uncited" if cite is None or cite[0] == "uncited" else f"{cite[0]}: {cite[1]}"
        if path and path[0] in ROOT_OWN_KEYS:
            words = ""
        origins.append(Origin(dotted(path), value, file, line, col, words))
    return LoadReport(rs, list(session.warnings), list(composed.files), origins)


def _resolve(
    session: _Session, top: Path, opts: list[Path], extra: tuple[YamlMap, str] | None = None
) -> tuple[Ruleset, _Composed]:
    fr = session.read_top(top)
    option_reads = [session.read_top(p, option=True) for p in opts]
    composed = session.ruleset(fr, ())
    applied = [session.option(ofr) for ofr in option_reads]
    ready = [a for a in applied if a is not None]
    if composed is None or session.diags or len(ready) < len(applied):
        raise RulesetError.of(session.diags)
    # A user's file that extends another writes deliberate changes: an option given here that changes
    # one of them is reported. (An edition's own values are what options exist to change.)
    protect = (
        fr.display
        if (isinstance(fr.data, dict) and "extends" in fr.data and real_path(bundled_dir()) not in fr.path.parents)
        else None
    )
    base = _Composed(
        composed.data,
        composed.locs,
        list(composed.applied),
        list(composed.files),
        list(composed.named),
        list(composed.removed),
    )  # (merge modifies neither side)
    own_id = composed.data.get("id")
    rid = own_id if isinstance(own_id, str) else fr.display
    for opt in ready:
        session.refusals.extend(_new_tables(composed, opt, rid))
        if _changes_nothing(composed, opt):
            first = next((node for _, _, node in leaves(opt.data, opt.locs) if node is not None), opt.locs)
            file, line, col = first.loc.at_value()
            session.warnings.append(
                f"{file}:{line}:{col}: warning: option {quote(opt.applied[0])} "
                f"changes nothing in ruleset {quote(rid)}: it already has every value the "
                "option sets"
            )
        session.apply(composed, opt, protect=protect)
    if extra is not None and not session.diags and not session.usage:
        patch = _memory_option(session, *extra)
        if patch is not None:
            session.apply(composed, patch)
    if session.usage and not session.diags:
        raise RulesetError(session.usage, usage=True, diagnostics=session.refusals)
    if session.refusals and not session.diags:  # an option given here that this ruleset cannot take
        raise RulesetError.of(session.refusals, usage=_valid_options(opts))
    if session.diags:
        raise RulesetError(session.usage, diagnostics=session.diags + session.refusals)
    rs = session.finish(composed)
    if rs is None:
        if ready and extra is None and _Session().finish(base) is not None and _valid_options(opts):
            # The ruleset alone is valid, and so is each option (over the reference edition, as mbrules
            # validate checks one): the options given here are what this ruleset cannot take.
            raise RulesetError.of(_refused(session.diags, ready, rid), usage=True)
        raise RulesetError.of(session.diags)
    unread = _unread_scoring(rs, composed, ready, rid)
    if unread:
        raise RulesetError.of(unread, usage=True)
    return rs, composed


def _valid_options(paths: list[Path]) -> bool:
    """Each option file is valid by itself, as ``mbrules validate`` checks one (applied over the reference
    edition): then a ruleset that cannot take it refuses it (exit 2); a broken option file is invalid (exit 1)."""
    return all(check_file(p).ok for p in paths)


def _unread_scoring(rs: Ruleset, composed: _Composed, applied: list[_Composed], rid: str) -> list[Diagnostic]:
    """An option that changes only the score (cf-200, french-end-bonuses, ...) over a ruleset that scores
    nothing (Mille Bornes Express, a race: scoring.enabled false) would change nothing at all: refused,
    rather than let its user believe the rule is in play."""
    if rs.scoring.enabled.value:
        return []
    off = diag_at(composed.locs, ("scoring", "enabled", "value"), "")
    out = []
    for opt in applied:
        scoring = opt.data.get("scoring")
        if set(opt.data) == {"scoring"} and isinstance(scoring, dict) and "enabled" not in scoring and opt.applied:
            out.append(
                diag_at(
                    opt.locs,
                    ("scoring",),
                    f"option {quote(opt.applied[0])} cannot go with ruleset {quote(rid)}: it changes "
                    f"only the score, and {quote(rid)} scores nothing (scoring.enabled is false, at "
                    f"{off.file}:{off.line}), so it would change nothing; leave the option out",
                    key=True,
                )
            )
    return out


def _changes_nothing(target: _Composed, opt: _Composed) -> bool:
    """Every value the option sets is already the ruleset's (draw-from-discard over asmodee-2014, whose
    turn draws from the discard pile): said as a warning, so nobody believes the option made a difference.
    Conservative: a value written for every player count (``*``) or a removal (``null``) counts as a change."""
    found = False
    for path, value, _ in leaves(opt.data, opt.locs):
        cur: Any = target.data
        for part in path:
            if not isinstance(cur, dict) or part not in cur:
                return False
            cur = cur[part]
        if cur != value:
            return False
        found = True
    return found


def _new_tables(target: _Composed, opt: _Composed, rid: str) -> list[Diagnostic]:
    """An option that changes a player count's table the ruleset does not have (three-vs-three's six
    players on a ruleset for 2 to 4) cannot make that table: it gives only what it changes (the sides),
    not the trip. Refused at the option's line, naming the tables the ruleset has."""
    mine = opt.data.get("player_counts")
    have = target.data.get("player_counts")
    if not isinstance(mine, dict) or not isinstance(have, dict):
        return []
    needs = [k for k, f in PlayerCount.model_fields.items() if f.is_required()]
    out = []
    for key, entry in mine.items():
        if key == "*" or key in have or (isinstance(entry, dict) and all(k in entry for k in needs)):
            continue
        tables = sorted(have, key=lambda k: int(k) if k.isdigit() else 0)
        plays = ", ".join(tables[:-1]) + f" or {tables[-1]}" if len(tables) > 1 else "".join(tables)
        out.append(
            diag_at(
                opt.locs,
                ("player_counts", key),
                f"option {quote(opt.applied[0])} cannot go with ruleset {quote(rid)}: it changes the "
                f"table for {key} players, and {quote(rid)} has none (it is played by {plays} players); "
                "leave the option out",
                key=True,
            )
        )
    return out


def _refused(diags: list[Diagnostic], applied: list[_Composed], rid: str) -> list[Diagnostic]:
    """The problems of a valid ruleset with options given on the command line (or to the API), said as
    what they are: an option that cannot go with this ruleset (combination-remedies' counts, written
    for the 106-card deck, over Express's 66 cards), named by the file the problem was found in."""
    by_file = {o.files[0]: o.applied[0] for o in applied if o.files and o.applied}
    out = []
    for d in diags:
        names = [by_file[d.file]] if d.file in by_file else [o.applied[0] for o in applied if o.applied]
        one = len(names) == 1
        who = f"option {quote(names[0])}" if one else "options " + ", ".join(quote(n) for n in names)
        out.append(
            Diagnostic(
                d.file,
                d.line,
                d.col,
                f"{who} cannot go with ruleset {quote(rid)}: {d.message} ({quote(rid)} is "
                f"valid without {'it' if one else 'them'}: leave {'it' if one else 'them'} out)",
            )
        )
    return out


# ----------------------------------------------------------------------------
# Checking files (mbrules validate) and describing them (mbrules rulesets)


@dataclass
class FileCheck:
    """The result of checking one file: its kind ('ruleset', 'option' or 'unknown') and problems."""

    file: str
    kind: str
    diagnostics: list[Diagnostic]
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def check_file(path: str | Path) -> FileCheck:
    """Check a ruleset (fully resolved) or an option (by schema, then applied over winning-moves).

    Raises :class:`RulesetError` with ``usage`` True when the file cannot be read.
    """
    path = Path(path)
    session = _Session()
    fr = session.read_top(path.absolute())
    if fr.data is None:
        return FileCheck(fr.display, "unknown", sorted(set(fr.errors)))
    if fr.data.get("kind") == "option":
        opt = session.option(fr)
        if opt is not None:
            try:
                base = _Session()
                ref = _resolve_ref(REFERENCE_RULESET, Path.cwd(), option=False)
                composed = base.ruleset(base.read_top(ref), ()) if ref is not None else None
            except RulesetError:
                composed = None
            if composed is None:
                return FileCheck(
                    fr.display,
                    "option",
                    [
                        Diagnostic(
                            fr.display,
                            1,
                            1,
                            f"cannot check this option: the bundled ruleset '{REFERENCE_RULESET}' "
                            "it is applied over did not load",
                        )
                    ],
                )
            session.apply(composed, opt)
            session.finish(composed)
        return FileCheck(fr.display, "option", sorted(set(session.diags)))
    try:
        report = load_report(path.absolute())
    except RulesetError as exc:
        if exc.usage:
            raise
        return FileCheck(fr.display, "ruleset", list(exc.diagnostics))
    return FileCheck(fr.display, "ruleset", [], report.warnings)


def _summary(path: Path, ident: str) -> Summary:
    return _list_summary(path, ident)


def ruleset_summary(ident: str) -> Summary:
    """Name and one-line description of a bundled ruleset (RulesetError if the id is unknown)."""
    path = _top_path(ident, Path.cwd(), option=False)
    return _summary(path, ident)


def option_summary(ident: str) -> Summary:
    """Name and one-line description of a bundled option (RulesetError if the id is unknown)."""
    path = _top_path(ident, Path.cwd(), option=True)
    return _summary(path, ident)


# ----------------------------------------------------------------------------
# A patch given in memory (mbrules sweep --set PATH=VALUE)


def _loc_tree(data: YamlData, loc: Loc) -> LocNode:
    """Positions for data written nowhere but at ``loc`` (every value of it there)."""
    if isinstance(data, dict):
        return LocNode(loc, {k: _loc_tree(v, loc) for k, v in data.items()})
    if isinstance(data, list):
        return LocNode(loc, {i: _loc_tree(v, loc) for i, v in enumerate(data)})
    return LocNode(loc)


def _memory_option(session: _Session, patch: YamlMap, where: str) -> _Composed | None:
    """``patch`` (a mapping as an option file's body writes it) as an option read from a file named
    ``where``: checked by the same schema, normalized the same way; listed under no id."""
    from .schema_check import schema_errors

    where = printable(where)
    data = {"kind": "option", "id": "set", "name": "set in memory", **patch}
    locs = _loc_tree(data, Loc(where, 1, 1))
    errors = schema_errors(data, locs)
    if errors:
        session.diags.extend(errors)
        return None
    ndata, nlocs = normalize(data, locs)
    body = patch_body(ndata)
    return _Composed(body, _body_locs(locs, nlocs, body), [], [where], [])


def load_patched(
    ref: str | Path,
    options: Sequence[str | Path],
    patch: YamlMap,
    where: str,
    base_dir: Path | None = None,
    *,
    files_read: list[Path] | None = None,
) -> Ruleset:
    """:func:`load_ruleset` with ``patch`` laid last, after the options: a mapping as an option file's
    body would write it (``{"scoring": {"safe_trip": {"value": 250}}}``), checked and composed as that
    file would be (schema, composition, the model, the semantic checks). Its problems are located at
    ``where`` (line 1, column 1): the place the patch was given, e.g. ``--set scoring.safe_trip=250``.
    Not cached."""
    base = Path(base_dir) if base_dir is not None else Path.cwd()
    top = _top_path(ref, base, option=False).absolute()
    opts = [_top_path(o, base, option=True).absolute() for o in options]
    session = _Session()
    rs, _ = _resolve(session, top, opts, (patch, where))
    if files_read is not None:
        files_read.extend(Path(p) for p in session.deps)
    _warn(session.warnings)
    return rs
