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

import os
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from .compose import ROOT_OWN_KEYS, leaves, normalize, patch_body
from .diagnostics import (
    Diagnostic,
    Loc,
    LocNode,
    RulesetError,
    YamlData,
    YamlMap,
    diag_at,
    display_path,
    dotted,
    printable,
    quote,
)
from .model import PlayerCount, Ruleset
from .yamlmarks import FileSignature, real_path

from .files import REFERENCE_RULESET as REFERENCE_RULESET
from .files import (
    _BadRef,
    _file_cache,
    _file_lock,
    _resolve_ref,
    _signature,
    _unknown_id_message,
    bundled_option_ids,
    bundled_ruleset_ids,
)
from .listing import Summary, bundled_dir
from .listing import summary as _list_summary
from .session import MAX_EXTENDS_CHAIN as MAX_EXTENDS_CHAIN
from .session import RulesetWarning, _body_locs, _Composed, _Session

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

_CACHE_SIZE = 64

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
