"""Errors with a place: every problem in a ruleset or scenario file is one line ``FILE:LINE:COL: message``.

A :class:`Loc` is where a value (and its key) were written; a :class:`LocNode` tree mirrors the
data read from one file (and, after composition, the resolved data: each node keeps the file
that contributed it), so any layer can point at the right file, line and column.
:func:`validation_diagnostics` maps a pydantic validation's errors to those places, for every
kind of file (the ruleset loader and the scenario replayer both call it; a :class:`ModelWords`
gives a kind's own words).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from pydantic import BaseModel
    from pydantic_core import ErrorDetails

# Plain data read from a YAML file: None, bool, int, float, str, lists and mappings with text keys,
# nested. Its shape is checked at run time (pydantic, the schema), so a checker sees it as Any.
YamlData: TypeAlias = Any
# A mapping read from YAML (its keys are text: the YAML layer makes them so).
YamlMap: TypeAlias = dict[str, Any]
# One step down into such data: a mapping's key or a list's index; a path is a tuple of them.
DataKey: TypeAlias = str | int
DataPath: TypeAlias = tuple[DataKey, ...]


QUOTE_MAX = 60  # characters of a value from a file that a message may quote


def quote(value: Any, limit: int = QUOTE_MAX) -> str:
    """A value from a file as a message quotes it: in quotes, at most ``limit`` characters, escaped."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return "'" + printable(text) + "'"


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\ufffe\uffff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match[str]) -> str:
    ch = m.group()
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character, lone surrogate and line separator escaped
    (``\\x00``, ``\\ud800``, ``\\n``): safe to print on one line of any terminal or UTF-8 stream."""
    return _UNPRINTABLE.sub(_escape, text)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem: where (1-based line and column) and what to do."""

    file: str
    line: int
    col: int
    message: str

    def __post_init__(self) -> None:  # one line, whatever the file name or a quoted value holds
        object.__setattr__(self, "file", printable(self.file))
        object.__setattr__(self, "message", printable(self.message))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}"

    def as_json(self) -> dict[str, str | int]:
        return {"file": self.file, "line": self.line, "col": self.col, "message": self.message}


class RulesetError(Exception):
    """Invalid ruleset input.

    ``lines`` are ``FILE:LINE:COL: message`` strings (1-based), one per problem, sorted; a usage
    problem that involves no file (an unknown bundled id named on the command line) is one line
    ``mbrules: message``. ``usage`` is True for exit code 2 (unknown id or option named on the
    command line, a file named there that cannot be read) and False for exit code 1 (the file is
    invalid). ``diagnostics`` keeps the structured form of the file-located lines.
    """

    def __init__(self, lines: list[str] | None = None, usage: bool = False, diagnostics: Iterable[Diagnostic] = ()):
        diags = sorted(set(diagnostics))  # by file, line, column, message
        self.diagnostics: list[Diagnostic] = diags
        self.lines: list[str] = [printable(line) for line in lines or []] + [str(d) for d in diags]
        self.usage = usage
        super().__init__("\n".join(self.lines))

    @property
    def refusal(self) -> bool:
        """Every file is valid, but an option given on the command line (or to the API) cannot go with
        the ruleset or with an option it applies: each line says so ('cannot go with'); exit code 2."""
        return self.usage and bool(self.lines) and all("cannot go with" in line for line in self.lines)

    @classmethod
    def of(cls, diagnostics: Iterable[Diagnostic], usage: bool = False) -> RulesetError:
        return cls(None, usage=usage, diagnostics=diagnostics)


def display_path(path: Path) -> str:
    """How a file is named in messages: relative to the working directory when below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # other drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


@dataclass(frozen=True)
class Loc:
    """Where a value was written: the file, the value's position and (in a mapping) its key's."""

    file: str
    line: int
    col: int
    key_line: int | None = None
    key_col: int | None = None

    def at_value(self) -> tuple[str, int, int]:
        return self.file, self.line, self.col

    def at_key(self) -> tuple[str, int, int]:
        if self.key_line is None or self.key_col is None:  # both are set, or neither
            return self.at_value()
        return self.file, self.key_line, self.key_col


@dataclass
class LocNode:
    """Positions for one value and, for a mapping or list, its children (by key or index)."""

    loc: Loc
    children: dict[DataKey, LocNode] | None = field(default=None)

    def child(self, key: DataKey) -> LocNode | None:
        if self.children is None:
            return None
        return self.children.get(key)

    def find(self, path: Iterable[DataKey]) -> tuple[LocNode, list[DataKey]]:
        """The deepest node along ``path`` and the part of the path below it that has no node."""
        node = self
        rest = list(path)
        while rest:
            nxt = node.child(rest[0])
            if nxt is None:
                break
            node = nxt
            rest.pop(0)
        return node, rest


def diag_at(node: LocNode, path: Iterable[DataKey], message: str, key: bool = False) -> Diagnostic:
    """A diagnostic at ``path`` below ``node`` (at its key when ``key``; else at its value).

    When the path goes below what was written (a missing key), it points at the deepest
    mapping that exists, at its key.
    """
    found, rest = node.find(path)
    if rest or key:
        file, line, col = found.loc.at_key()
    else:
        file, line, col = found.loc.at_value()
    return Diagnostic(file, line, col, message)


def dotted(path: Iterable[DataKey]) -> str:
    """A data path as people read it: ``cards.d25.count``, ``scoring.safe_trip_breakers.value[0]``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:  # a key from a file: at most QUOTE_MAX characters of it
            p = str(p)
            out += ("." if out else "") + (p if len(p) <= QUOTE_MAX else p[: QUOTE_MAX - 3] + "...")
    return out or "the top level"


def where_words(path: Iterable[DataKey]) -> str:
    """Where a problem is, as a message says it: ``at the top level`` or ``in cards.d25.count``."""
    path = list(path)
    return "at the top level" if not path else f"in {dotted(path)}"


# -- validation errors (pydantic) mapped to positions: one mapper for every file kind ------------------
def _show(value: Any) -> str:
    """A value as a message shows what was written: ``null``, ``true``, ``4``, ``'4'``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return quote(value)  # '4' the text, not 4 the number
    return str(value)


def data_path(loc: Iterable[DataKey], data: YamlData, missing: bool = False) -> tuple[list[DataKey], str | None]:
    """The path in ``data`` a pydantic error location names, and the key it lacks (``missing``) or
    ``"[key]"`` for an error in a mapping's key. The tags pydantic adds for a union's branches
    ('distance', 'str', "literal['a','b']") are not in the data and are left out."""
    path: list[DataKey] = []
    cur = data
    items = list(loc)
    absent = str(items.pop()) if missing and items else None
    for el in items:
        if isinstance(cur, dict) and isinstance(el, str) and el in cur:
            path.append(el)
            cur = cur[el]
        elif isinstance(cur, list) and isinstance(el, int) and 0 <= el < len(cur):
            path.append(el)
            cur = cur[el]
        elif el == "[key]":
            return path, "[key]"
    return path, absent


def _value_at(data: YamlData, path: list[DataKey]) -> YamlData:
    for el in path:
        data = data[el]
    return data


@dataclass
class ModelWords:
    """What one kind of file adds to :func:`validation_diagnostics`: its own words, never its own rules.

    ``model_at(path, data)``: the model of the mapping at ``path`` (its keys are listed after an
    unknown key), or None; ``patterns``: a regular expression -> what it asks for in words;
    ``explain(path, value)``: ``(problem, fix)`` for a value the kind has better words for, or None;
    ``root_missing(keys, locs)``: the diagnostic for keys missing at the top level, or None;
    ``show_value``: a refused value's message ends with what was written (``(got '4')``).
    """

    model_at: Callable[[list[DataKey], YamlData], type[BaseModel] | None] | None = None
    patterns: dict[str, str] = field(default_factory=dict)
    explain: Callable[[list[DataKey], YamlData], tuple[str, str] | None] | None = None
    root_missing: Callable[[list[str], LocNode], Diagnostic] | None = None
    show_value: bool = False


_NO_VALUE_SHOWN = ("value_error", "assertion_error")  # the model's own sentence says what is wrong


def validation_diagnostics(
    errors: Iterable[ErrorDetails], data: YamlData, locs: LocNode, words: ModelWords | None = None
) -> list[Diagnostic]:
    """Every error of a pydantic validation (``exc.errors()``) as a diagnostic at its place.

    Errors are grouped by place: the keys missing in one mapping make one message, the branches of a
    union refused at one value make one. Each message says what is wrong, where in the data
    (``in cards.d25``, ``at the top level``) and what to do.
    """
    words = words or ModelWords()
    # by place: the keys missing there (text), or the errors refusing its value or key
    groups: dict[tuple[tuple[DataKey, ...], str], list[ErrorDetails | str]] = {}
    for err in errors:
        kind = err.get("type", "")
        path, extra = data_path(err.get("loc", ()), data, kind == "missing")
        if kind == "missing" and extra is not None:
            groups.setdefault((tuple(path), "missing"), []).append(extra)
            continue
        cls = kind if kind == "extra_forbidden" or extra == "[key]" else ""
        groups.setdefault((tuple(path), cls or extra or ""), []).append(err)
    out: list[Diagnostic] = []
    for (tpath, cls), group in groups.items():
        path = list(tpath)
        if cls == "missing":
            keys = [k for k in group if isinstance(k, str)]  # all of them: a "missing" group holds key names
            if not path and words.root_missing is not None:
                out.append(words.root_missing(keys, locs))
                continue
            word = "key" if len(keys) == 1 else "keys"
            out.append(
                diag_at(
                    locs,
                    path,
                    f"missing {word} {', '.join(repr(k) for k in keys)} {where_words(path)}; "
                    f"add {'it' if len(keys) == 1 else 'them'}",
                    key=True,
                )
            )
            continue
        errs = [e for e in group if not isinstance(e, str)]  # all of them: other groups hold errors
        if cls == "extra_forbidden":
            parent = path[:-1]
            model = words.model_at(parent, data) if words.model_at is not None else None
            allowed = f" (allowed here: {', '.join(model.model_fields)})" if model is not None else ""
            out.append(
                diag_at(
                    locs,
                    path,
                    f"unknown key {quote(path[-1])} {where_words(parent)}{allowed}: remove it or fix its spelling",
                    key=True,
                )
            )
        elif cls == "[key]":
            pattern = (errs[0].get("ctx") or {}).get("pattern", "")
            why = words.patterns.get(pattern, errs[0].get("msg", "not valid"))
            out.append(
                diag_at(
                    locs,
                    path,
                    f"{quote(path[-1] if path else '')} is not a valid key {where_words(path[:-1])}: {why}",
                    key=True,
                )
            )
        else:
            out.append(_value_diagnostic(path, errs, data, locs, words))
    return out


def _value_diagnostic(
    path: list[DataKey], errs: list[ErrorDetails], data: YamlData, locs: LocNode, words: ModelWords
) -> Diagnostic:
    first = errs[0]
    ctx = first.get("ctx") or {}
    where = where_words(path)
    keys = ctx.get("keys") if isinstance(ctx.get("keys"), list) else None
    if keys is not None:  # a rule between keys of one mapping: point at the key that breaks it
        node = locs.find(path)[0]
        written = [k for k in keys if node.child(k) is not None]
        if first.get("type") == "two_actions" or len(written) > 1:
            children = node.children or {}  # not empty: the keys written are its children
            written.sort(key=lambda k: children[k].loc.at_key()[1:])
            spot = written[-1] if written else None  # the one written last
        else:
            spot = written[0] if written else None
        msg = f"{first['msg']} {where}"
        return diag_at(locs, path + [spot], msg, key=True) if spot is not None else diag_at(locs, path, msg)
    try:
        value = _value_at(data, path)
    except (KeyError, IndexError, TypeError):
        value = first.get("input")
    said = words.explain(path, value) if words.explain is not None else None
    if said is not None:
        problem, fix = said
        return diag_at(locs, path, f"{problem} {where}" + (f": {fix}" if fix else ""))
    if first.get("type") == "string_pattern_mismatch" and ctx.get("pattern") in words.patterns:
        return diag_at(locs, path, f"{quote(value)} is not valid {where}: {words.patterns[ctx['pattern']]}")
    texts: list[str] = []
    for e in errs:
        text = str(e.get("msg", "invalid value")).removeprefix("Value error, ")
        if text not in texts:
            texts.append(text)
    got = f" (got {_show(value)})" if words.show_value and first.get("type") not in _NO_VALUE_SHOWN else ""
    return diag_at(locs, path, f"{'; or '.join(texts)} {where}{got}")
