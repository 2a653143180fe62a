"""The JSON shapes the browser table keeps and sends.

What comes in (a page's message, a table's setup as the store keeps it) is JSON at a boundary, read key
by key where it is used and checked there (a page's message may say anything): ``Setup`` and ``Message``,
whose values are ``Any``. What the server builds and sends (a seat's view and welcome, a refusal, the
host's view of a table, the catalog, a preview) is typed key by key below, so that mypy checks every
key a builder writes; the pages (``mbrules/web/static``) read the same keys.
"""

# No ``from __future__ import annotations`` here: a TypedDict's NotRequired keys are known at run time
# (``__optional_keys__``) only from annotations evaluated when the class is made.
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict, TypeGuard

Setup = dict[
    str, Any
]  # a table's setup as stored (json): ruleset or upload, options, players, seed, seats, secrets, pace
Message = dict[str, Any]  # a message a page sends or is sent over its WebSocket (json), keyed by "type"


class MoveView(TypedDict):
    """One legal move of the seat that decides, as its page offers it."""

    action: str  # the action's notation, sent back as is to play it
    words: str
    op: str  # the action's kind: draw, play, discard, coup-fourre, ...
    card: str | None  # card id
    on: str | None  # the side a card is played on


class SeatView(TypedDict):
    """One seat as every page of the table shows it."""

    name: str
    side: str
    kind: str  # person or bot
    here: bool  # its page is open (a bot is always here)
    ready: bool
    away: int | None  # whole seconds since its page went away
    asking: bool  # asks for its seat back


class Sheets(TypedDict):
    """The score sheets of the hands played, per hand per side, and the totals (public)."""

    labels: dict[str, str]  # score line -> its label
    hands: list[dict[str, dict[str, int]]]  # per hand: side -> score line -> points
    totals: dict[str, int]  # side -> total


class StateView(TypedDict):
    """Everything one seat's page shows now (``Table.view``)."""

    type: Literal["state"]
    table: str
    version: int
    seat: str
    obs: dict[str, Any]  # Observation.to_dict(): the engine's public shape of what the seat sees
    moves: list[MoveView]
    question: str | None
    why_not: dict[str, str]  # card id -> why it cannot be played now
    narration: list[str]
    sheets: Sheets
    seats: list[SeatView]
    hand_over: bool
    match_over: bool
    status: str | None
    you_ready: bool
    again: str | None  # the seat's link at the table opened to play again


class CardView(TypedDict):
    name: str
    kind: str


class Welcome(TypedDict):
    """What never changes at a table (``Table.welcome``), sent once to each page that opens."""

    type: Literal["welcome"]
    table: str
    seat: str | None  # None: the host's page
    ruleset: str  # its name
    ruleset_id: str
    options: list[str]
    cards: dict[str, CardView]
    sides: dict[str, list[str]]  # side -> its players' names
    unit: str
    rules: str
    changes: list[str]


class Refused(TypedDict):
    """A page's message refused: a code of the contract and a sentence."""

    type: Literal["refused"]
    code: str
    message: str
    version: NotRequired[int]  # for a refused move: the seat's version then


Outgoing: TypeAlias = StateView | Welcome | Refused  # what a page's socket is sent


class HostSeat(TypedDict):
    name: str
    side: str
    kind: str
    url: str | None  # a person's link (None for a bot)
    here: bool


class HostView(TypedDict):
    """What the host's page shows of a table: its links, its seats and who is here, where it is."""

    table: str
    ruleset: str
    options: list[str]
    players: int
    seed: int | str | None  # shown once the match is over (it deals every hand to come)
    version: int
    host_url: str
    export_url: str
    seats: list[HostSeat]
    hand: int
    hand_over: bool
    match_over: bool
    changes: list[str]
    asking: list[int]
    again: str | None


class EditionEntry(TypedDict):
    id: str
    name: str
    description: str
    players: list[int]


class OptionEntry(TypedDict):
    id: str
    name: str
    description: str
    category: str
    groups: list[str]


class Catalog(TypedDict):
    """The bundled editions, options (by category) and bots: what the host's page offers."""

    editions: list[EditionEntry]
    options: list[OptionEntry]
    categories: dict[str, str]
    bots: dict[str, str]
    max_upload: int


class Errors(TypedDict):
    """A request refused: what is wrong, one line each (``FILE:LINE:COL: message`` for a file)."""

    errors: list[str]
    expired: NotRequired[str]  # a link to an expired table: why it opens nothing now


class Preview(TypedDict):
    """The rules a host's choice makes, before the table opens."""

    name: str
    changes: list[str]
    rules: str
    players: list[int]
    warning: str | None  # a table whose hands rarely complete a trip, and the option that fixes it


__all__ = [
    "Catalog",
    "CardView",
    "EditionEntry",
    "Errors",
    "HostSeat",
    "HostView",
    "Message",
    "MoveView",
    "OptionEntry",
    "Outgoing",
    "Preview",
    "Refused",
    "SeatView",
    "Setup",
    "Sheets",
    "StateView",
    "Welcome",
]


def is_whole(value: object) -> TypeGuard[int]:
    """A JSON whole number: an int, never a bool (JSON ``true`` is no number at this boundary)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: object) -> TypeGuard[int | float]:
    """A JSON number (int or float), never a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
