"""What ``--set PATH=VALUES`` asks: a ruleset value (a path as ``mbrules show --explain`` names it) and
the values to sweep it over, checked before any match (:class:`SetError`: exit 2).

VALUES is a list (``500,700,900``; numbers, ``true``/``false`` or words) or a range of whole numbers
``FROM..TO:STEP`` (``600..1400:100``, both ends included; ``:STEP`` defaults to 1). A sweep has at most
:data:`MAX_VALUES` values; numbers are bounded by :data:`MAX_ABS`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Sequence

MAX_VALUES = 50
MAX_ABS = 10**9
STAR_SECTIONS = ("player_counts", "removals")
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")
_INT = re.compile(r"^-?\d+$")
_FLOAT = re.compile(r"^-?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


class SetError(ValueError):
    """A ``--set`` refused before any match (a usage error: exit 2)."""


@dataclass(frozen=True)
class Setting:
    """One ``--set``: the path as given, where the patch goes (``.value`` added for a rule value),
    and the values in order."""

    path: str
    parts: tuple[str, ...]
    values: tuple[Any, ...]

    def patch(self, value: Any) -> dict[str, Any]:
        """The patch an option file would write to set this path to ``value``."""
        out: Any = value
        for part in reversed(self.parts):
            out = {part: out}
        patch: dict[str, Any] = out  # (parts is never empty: a --set names a path)
        return patch


def _short(text: str, limit: int = 60) -> str:
    from ..ruleset.diagnostics import quote

    return quote(text, limit)


def _number(text: str, what: str) -> int | float:
    v: int | float = int(text) if _INT.match(text) else float(text)
    if abs(v) > MAX_ABS or v != v:
        raise SetError(f"mbrules: --set {what}: {_short(text)} is out of range (at most {MAX_ABS:,} either side of 0)")
    return v


def _whole(text: str, what: str) -> int:
    """A number of a range (whole: the range's pattern matched its digits), checked as :func:`_number` checks it."""
    v = _number(text, what)
    assert isinstance(v, int)  # _INT matches what _RANGE matched
    return v


def parse_values(text: str, what: str) -> list[Any]:
    """The values of ``VALUES`` (a list or a range), at most :data:`MAX_VALUES`, none repeated."""
    if text.strip() == "":
        raise SetError(
            f"mbrules: --set {what}: no values after '='; give a list (500,700,900) or a range (600..1400:100)"
        )
    m = _RANGE.match(text)
    if m:
        if any(len(g.lstrip("-")) > 10 for g in m.groups() if g):
            raise SetError(
                f"mbrules: --set {what}: {_short(text)}: a number is out of range (at most {MAX_ABS:,} "
                "either side of 0)"
            )
        lo, hi = _whole(m.group(1), what), _whole(m.group(2), what)
        step = _whole(m.group(3), what) if m.group(3) is not None else 1
        if step <= 0:
            raise SetError(
                f"mbrules: --set {what}: the step of {_short(text)} must be at least 1 (a range goes "
                "up: FROM..TO:STEP with FROM <= TO)"
            )
        if hi < lo:
            raise SetError(
                f"mbrules: --set {what}: the range {_short(text)} is empty ({lo} > {hi}); write "
                "FROM..TO:STEP with FROM <= TO"
            )
        count = (hi - lo) // step + 1
        if count > MAX_VALUES:
            raise SetError(
                f"mbrules: --set {what}: the range {_short(text)} has {count:,} values, more than "
                f"{MAX_VALUES}; take a larger step"
            )
        if count < 2:
            raise SetError(
                f"mbrules: --set {what}: the range {_short(text)} holds one value; a sweep needs at least two"
            )
        return list(range(lo, hi + 1, step))
    if ".." in text:
        raise SetError(
            f"mbrules: --set {what}: {_short(text)} is not a range of whole numbers; write "
            "FROM..TO:STEP, e.g. 600..1400:100"
        )
    items = [t.strip() for t in text.split(",")]
    if len(items) > MAX_VALUES:
        raise SetError(f"mbrules: --set {what}: {len(items)} values, more than {MAX_VALUES}")
    out: list[Any] = []
    for t in items:
        if t == "":
            raise SetError(
                f"mbrules: --set {what}: an empty value in {_short(text)}; separate values with single commas"
            )
        if _FLOAT.match(t) and len(t) <= 30:
            v: Any = _number(t, what)
        elif len(t) > 30 and _FLOAT.match(t):
            raise SetError(f"mbrules: --set {what}: {_short(t)} is out of range (at most {MAX_ABS:,} either side of 0)")
        elif t.lower() in ("true", "false"):
            v = t.lower() == "true"
        elif t.lower() in ("null", "none", "~"):
            v = None
        else:
            v = t
        if any(type(v) is type(o) and v == o for o in out):
            raise SetError(f"mbrules: --set {what}: the value {_short(t)} is given twice")
        out.append(v)
    if len(out) < 2:
        raise SetError(
            f"mbrules: --set {what}: one value ({_short(text)}); a sweep needs at least two (500,700 or 500..900:100)"
        )
    return out


def resolve_path(path: str, known: set[str], ruleset: str, players: int) -> tuple[str, ...]:
    """The parts of ``path`` where a patch sets it: a value ``show --explain`` lists (``.value`` added
    for a rule value given without it), a ``"*"`` player count standing for every count."""
    parts = tuple(path.split("."))
    if path.strip() == "" or any(p == "" for p in parts):
        raise SetError(
            f"mbrules: --set: {_short(path)} is not a path; name a value as 'mbrules show {ruleset} "
            "--explain' does (scoring.safe_trip, player_counts.2.target, cards.stop.count)"
        )

    def listed(ps: tuple[str, ...]) -> bool:
        if len(ps) > 1 and ps[0] in STAR_SECTIONS and ps[1] == "*":
            return any(k.startswith(ps[0] + ".") and _same_below(k, ps) for k in known)
        return ".".join(ps) in known

    from ..ruleset.compose import FILE_ONLY_KEYS, ROOT_OWN_KEYS

    if parts[0] in ROOT_OWN_KEYS or parts[0] in FILE_ONLY_KEYS:
        raise SetError(
            f"mbrules: --set {_short(path)}: {parts[0]} is not a rule value (it names or composes the "
            "ruleset and changes nothing in play); sweep a value under cards, player_counts, play, "
            "scoring, match..."
        )
    for cand in (parts, (*parts, "value")):
        if listed(cand):
            parts = cand
            break
    else:
        near = difflib.get_close_matches(path, sorted(known), n=1, cutoff=0.6)
        hint = f" (did you mean {near[0].removesuffix('.value')}?)" if near else ""
        raise SetError(
            f"mbrules: --set: {ruleset} has no value {_short(path)}{hint}; 'mbrules show {ruleset} "
            "--explain' lists every path"
        )
    if len(parts) > 1 and parts[0] in STAR_SECTIONS and parts[1] not in ("*", str(players)):
        raise SetError(
            f"mbrules: --set {path}: this value is for {parts[1]} players and the sweep plays "
            f"{players} (-p {players}); name {parts[0]}.{players}... or {parts[0]}.*..."
        )
    return parts


def _same_below(known_path: str, star: tuple[str, ...]) -> bool:
    ks = known_path.split(".")
    return len(ks) == len(star) and ks[0] == star[0] and ks[2:] == list(star[2:])


def parse_set(text: str) -> tuple[str, str]:
    """``PATH=VALUES`` split at the first '='."""
    path, eq, values = text.partition("=")
    if not eq:
        raise SetError(
            f"mbrules: --set {_short(text)}: write PATH=VALUES, e.g. --set player_counts.2.target=500..900:200"
        )
    return path.strip(), values


def point_label(settings: list[Setting], j: int) -> str:
    return ", ".join(f"{s.path}={fmt_value(s.values[j])}" for s in settings)


def fmt_value(v: Any) -> str:
    from ..ruleset.diagnostics import printable

    if isinstance(v, str):
        return printable(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    return str(v)


def numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
