"""Errors with a place: every problem in a ruleset file is one line ``FILE:LINE:COL: message``.

A :class:`Loc` is where a value (and its key) were written; a :class:`LocNode` tree mirrors the
data read from one file (and, after composition, the resolved data: each node keeps the file
that contributed it), so any layer can point at the right file, line and column.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


QUOTE_MAX = 60  # characters of a value from a file that a message may quote


def quote(value: Any, limit: int = QUOTE_MAX) -> str:
    """A value from a file as a message quotes it: in quotes, at most ``limit`` characters, escaped."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return "'" + printable(text) + "'"


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\ufffe\uffff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(m: re.Match) -> str:
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

    def as_json(self) -> dict:
        return {"file": self.file, "line": self.line, "col": self.col, "message": self.message}


class RulesetError(Exception):
    """Invalid ruleset input.

    ``lines`` are ``FILE:LINE:COL: message`` strings (1-based), one per problem, sorted; a usage
    problem that involves no file (an unknown bundled id named on the command line) is one line
    ``mbrules: message``. ``usage`` is True for exit code 2 (unknown id or option named on the
    command line, a file named there that cannot be read) and False for exit code 1 (the file is
    invalid). ``diagnostics`` keeps the structured form of the file-located lines.
    """

    def __init__(self, lines: list[str] | None = None, usage: bool = False,
                 diagnostics: Iterable[Diagnostic] = ()):
        diags = sorted(set(diagnostics))  # by file, line, column, message
        self.diagnostics: list[Diagnostic] = diags
        self.lines: list[str] = [printable(line) for line in lines or []] + [str(d) for d in diags]
        self.usage = usage
        super().__init__("\n".join(self.lines))

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
        if self.key_line is None:
            return self.at_value()
        return self.file, self.key_line, self.key_col  # type: ignore[return-value]


@dataclass
class LocNode:
    """Positions for one value and, for a mapping or list, its children (by key or index)."""

    loc: Loc
    children: dict[Any, LocNode] | None = field(default=None)

    def child(self, key) -> LocNode | None:
        if self.children is None:
            return None
        return self.children.get(key)

    def find(self, path: Iterable) -> tuple[LocNode, list]:
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


def diag_at(node: LocNode, path: Iterable, message: str, key: bool = False) -> Diagnostic:
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


def dotted(path: Iterable) -> str:
    """A data path as people read it: ``cards.d25.count``, ``scoring.safe_trip_breakers.value[0]``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:  # a key from a file: at most QUOTE_MAX characters of it
            p = str(p)
            out += ("." if out else "") + (p if len(p) <= QUOTE_MAX else p[: QUOTE_MAX - 3] + "...")
    return out or "the top level"


def where_words(path: Iterable) -> str:
    """Where a problem is, as a message says it: ``at the top level`` or ``in cards.d25.count``."""
    path = list(path)
    return "at the top level" if not path else f"in {dotted(path)}"
