"""Counts in words for people: ``plural(1, "card")`` is "1 card", ``plural(2, "card")`` "2 cards"."""
from __future__ import annotations


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun that goes with it (``many`` for an irregular plural; default: ``one`` + s)."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"
