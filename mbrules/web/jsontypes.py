"""The JSON shapes the browser table keeps and sends.

Both are JSON at a boundary (the store's rows, the WebSocket's frames), read key by key where they are
used and checked there (a page's message may say anything): so their values are ``Any``.
"""

from __future__ import annotations

from typing import Any, TypeGuard

Setup = dict[
    str, Any
]  # a table's setup as stored (json): ruleset or upload, options, players, seed, seats, secrets, pace
Message = dict[str, Any]  # a message a page sends or is sent over its WebSocket (json), keyed by "type"

__all__ = ["Message", "Setup"]


def is_whole(value: object) -> TypeGuard[int]:
    """A JSON whole number: an int, never a bool (JSON ``true`` is no number at this boundary)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """A JSON number (int or float), never a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
